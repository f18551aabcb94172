/*
 * test_keys_types.c - targeted checks of key serialization (bc_keys.c):
 * dates, inet, float and double raw bits, and composite framing errors.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "bc_keys.h"
#include "bc_status.h"
#include "unit.h"

static void
check_dates(void)
{
	uint8_t		out[4];
	struct
	{
		int64_t		y;
		int			m,
					d;
		int64_t		days;
	}			cases[] = {
		{1970, 1, 1, 0},
		{1969, 12, 31, -1},
		{2000, 3, 1, 11017},
		{2024, 2, 29, 19782},
		{1600, 2, 29, -135081},
		{1900, 3, 1, -25508},
		{1582, 10, 15, -141427},
		{9999, 12, 31, 2932896},
		{1, 1, 1, -719162},
		{0, 12, 31, -719163},
		{0, 3, 1, -719468},
		{0, 2, 29, -719469},	/* year 0 is a leap year */
		{0, 1, 1, -719528},
		{-1, 1, 1, -719893},
		{-400, 1, 1, -865625},
		{-5877641, 6, 23, INT32_MIN},	/* Cassandra's smallest date */
		{5881580, 7, 11, INT32_MAX},	/* and its largest */
		/* roll-over of month and day */
		{2024, 13, 1, 20089},	/* = 2025-01-01 */
		{2024, 0, 1, 19692},	/* = 2023-12-01 */
		{2024, 3, 0, 19782},	/* = 2024-02-29 */
		{2024, -11, 1, 19358},	/* = 2023-01-01 */
	};
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		int64_t		d = bc_days_from_civil(cases[i].y, cases[i].m, cases[i].d);

		CHECK(d == cases[i].days, "days_from_civil(%lld,%d,%d) = %lld, want %lld",
			  (long long) cases[i].y, cases[i].m, cases[i].d, (long long) d,
			  (long long) cases[i].days);
	}

	CHECK(bc_ser_date_days((int32_t) bc_days_from_civil(1970, 1, 1), out) == 4,
		  "date size");
	unit_check_bytes(__LINE__, "1970-01-01", out, 4, "80000000");
	bc_ser_date_days((int32_t) bc_days_from_civil(1969, 12, 31), out);
	unit_check_bytes(__LINE__, "1969-12-31", out, 4, "7fffffff");
	bc_ser_date_days((int32_t) bc_days_from_civil(1, 1, 1), out);
	unit_check_bytes(__LINE__, "0001-01-01", out, 4, "7ff506c6");
	bc_ser_date_days(INT32_MIN, out);
	unit_check_bytes(__LINE__, "date INT32_MIN", out, 4, "00000000");
	bc_ser_date_days(INT32_MAX, out);
	unit_check_bytes(__LINE__, "date INT32_MAX", out, 4, "ffffffff");

	/* absurd inputs: defined (wrapping) results, no UB for the sanitizers */
	(void) bc_days_from_civil(INT64_MAX, 2147483647, 2147483647);
	(void) bc_days_from_civil(INT64_MIN, -2147483647 - 1, -2147483647 - 1);
	(void) bc_days_from_civil(INT64_MIN, 1, 1);
	(void) bc_days_from_civil(INT64_MAX, 12, 31);
}

static void
check_fixed(void)
{
	uint8_t		out[16];
	uint8_t		addr[16];
	float		f;
	double		d;
	uint32_t	fb;
	uint64_t	db;

	f = -0.0f;
	CHECK(bc_ser_float(f, out) == 4, "float size");
	unit_check_bytes(__LINE__, "float -0.0", out, 4, "80000000");
	fb = UINT32_C(0x7fc00000);
	memcpy(&f, &fb, 4);
	bc_ser_float(f, out);
	unit_check_bytes(__LINE__, "float NaN", out, 4, "7fc00000");
	fb = UINT32_C(0xffc12345);
	memcpy(&f, &fb, 4);
	bc_ser_float(f, out);
	unit_check_bytes(__LINE__, "float -NaN payload", out, 4, "ffc12345");

	d = -0.0;
	CHECK(bc_ser_double(d, out) == 8, "double size");
	unit_check_bytes(__LINE__, "double -0.0", out, 8, "8000000000000000");
	db = UINT64_C(0x7ff8000000000000);
	memcpy(&d, &db, 8);
	bc_ser_double(d, out);
	unit_check_bytes(__LINE__, "double NaN", out, 8, "7ff8000000000000");
	db = UINT64_C(0xfff8000000000123);
	memcpy(&d, &db, 8);
	bc_ser_double(d, out);
	unit_check_bytes(__LINE__, "double -NaN payload", out, 8, "fff8000000000123");

	bc_ser_int16(0x1234, out);
	unit_check_bytes(__LINE__, "int16", out, 2, "1234");
	bc_ser_int32(-2, out);
	unit_check_bytes(__LINE__, "int32", out, 4, "fffffffe");
	bc_ser_int64(INT64_C(0x0102030405060708), out);
	unit_check_bytes(__LINE__, "int64", out, 8, "0102030405060708");
	bc_ser_bool(42, out);
	unit_check_bytes(__LINE__, "bool", out, 1, "01");
	bc_ser_time_ns(INT64_C(86399999999999), out);
	unit_check_bytes(__LINE__, "time", out, 8, "00004e94914effff");

	/* inet */
	CHECK(inet_pton(AF_INET6, "::ffff:1.2.3.4", addr) == 1, "inet_pton");
	CHECK(bc_ser_inet(addr, 16, out) == 4, "mapped inet size");
	unit_check_bytes(__LINE__, "::ffff:1.2.3.4", out, 4, "01020304");
	CHECK(inet_pton(AF_INET6, "::1", addr) == 1, "inet_pton");
	CHECK(bc_ser_inet(addr, 16, out) == 16, "::1 size");
	unit_check_bytes(__LINE__, "::1", out, 16, "00000000000000000000000000000001");
	CHECK(inet_pton(AF_INET6, "::1.2.3.4", addr) == 1, "inet_pton");
	CHECK(bc_ser_inet(addr, 16, out) == 16, "::1.2.3.4 (compatible) size");
	unit_check_bytes(__LINE__, "::1.2.3.4", out, 16,
				"00000000000000000000000001020304");
	CHECK(inet_pton(AF_INET6, "::fffe:1.2.3.4", addr) == 1, "inet_pton");
	CHECK(bc_ser_inet(addr, 16, out) == 16, "::fffe:1.2.3.4 size");
	CHECK(bc_ser_inet(addr, 0, out) == 0, "inet of 0 bytes");
	CHECK(bc_ser_inet(addr, 5, out) == 0, "inet of 5 bytes");
	CHECK(bc_ser_inet(addr, 15, out) == 0, "inet of 15 bytes");
}

static void
check_composite(void)
{
	static uint8_t big[65536];
	static uint8_t out[70000];
	const uint8_t *ptrs[3];
	size_t		lens[3];
	size_t		len,
				i;
	bc_status	st;
	int			clean;

	/* ('key0', 0) as (text, int) */
	ptrs[0] = (const uint8_t *) "key0";
	lens[0] = 4;
	ptrs[1] = (const uint8_t *) "\0\0\0\0";
	lens[1] = 4;
	CHECK(bc_composite_size(lens, 2) == 14, "composite size");
	st = bc_ser_composite(ptrs, lens, 2, out, 14, &len);
	CHECK(st == BC_OK, "composite: %d", (int) st);
	if (st == BC_OK)
		unit_check_bytes(__LINE__, "('key0',0)", out, len,
					"00046b6579300000040000000000");

	/* one byte short: BC_ERR_BUFFER, nothing written */
	memset(out, 0xa5, 20);
	len = 4242;
	st = bc_ser_composite(ptrs, lens, 2, out, 13, &len);
	clean = 1;
	for (i = 0; i < 20; i++)
		if (out[i] != 0xa5)
			clean = 0;
	CHECK(st == BC_ERR_BUFFER && len == 4242 && clean,
		  "composite into 13 bytes: %d", (int) st);
	st = bc_ser_composite(ptrs, lens, 2, NULL, 0, &len);
	CHECK(st == BC_ERR_BUFFER, "composite into 0 bytes: %d", (int) st);

	/* no component */
	CHECK(bc_composite_size(lens, 0) == 0, "composite size of nothing");
	st = bc_ser_composite(ptrs, lens, 0, out, sizeof(out), &len);
	CHECK(st == BC_ERR_BUFFER, "composite of 0 components: %d", (int) st);
	st = bc_ser_composite(ptrs, lens, -1, out, sizeof(out), &len);
	CHECK(st == BC_ERR_BUFFER, "composite of -1 components: %d", (int) st);

	/* empty components, NULL pointer allowed for length 0 */
	ptrs[0] = NULL;
	lens[0] = 0;
	st = bc_ser_composite(ptrs, lens, 1, out, 3, &len);
	CHECK(st == BC_OK, "empty component: %d", (int) st);
	if (st == BC_OK)
		unit_check_bytes(__LINE__, "empty component", out, len, "000000");

	/* lengths */
	memset(big, 0x5a, sizeof(big));
	ptrs[0] = big;
	lens[0] = 65536;
	st = bc_ser_composite(ptrs, lens, 1, out, sizeof(out), &len);
	CHECK(st == BC_ERR_KEY_TOO_LONG, "component of 65536 bytes: %d", (int) st);
	lens[0] = 65535;
	st = bc_ser_composite(ptrs, lens, 1, out, sizeof(out), &len);
	CHECK(st == BC_ERR_KEY_TOO_LONG, "key of 65538 bytes: %d", (int) st);
	lens[0] = 65532;
	st = bc_ser_composite(ptrs, lens, 1, out, sizeof(out), &len);
	CHECK(st == BC_OK && len == 65535 && out[0] == 0xff && out[1] == 0xfc &&
		  out[2] == 0x5a && out[65534] == 0,
		  "key of 65535 bytes: %d", (int) st);
	lens[0] = 30000;
	ptrs[1] = big;
	lens[1] = 30000;
	ptrs[2] = big;
	lens[2] = 5527;
	st = bc_ser_composite(ptrs, lens, 3, out, sizeof(out), &len);
	CHECK(st == BC_ERR_KEY_TOO_LONG, "3 components, 65536 bytes: %d", (int) st);
	lens[2] = 5526;
	st = bc_ser_composite(ptrs, lens, 3, out, sizeof(out), &len);
	CHECK(st == BC_OK && len == 65535, "3 components, 65535 bytes: %d", (int) st);
	/* too long wins over buffer */
	lens[2] = 5527;
	st = bc_ser_composite(ptrs, lens, 3, out, 10, &len);
	CHECK(st == BC_ERR_KEY_TOO_LONG, "too long vs buffer: %d", (int) st);

	/* bc_composite_size saturates */
	lens[0] = SIZE_MAX;
	CHECK(bc_composite_size(lens, 1) == SIZE_MAX, "size saturates");
	lens[0] = SIZE_MAX - 3;
	lens[1] = 1;
	CHECK(bc_composite_size(lens, 2) == SIZE_MAX, "size saturates (2)");
	lens[0] = SIZE_MAX - 3;
	CHECK(bc_composite_size(lens, 1) == SIZE_MAX, "size exactly SIZE_MAX");
}

void
suite_keys_types(void)
{
	check_dates();
	check_fixed();
	check_composite();
}
