/*
 * test_keys_number.c - varint and decimal keys from their text
 * (bc_keys_number.c): boundaries, Java's BigInteger(String) and
 * BigDecimal(String) syntax, range and buffer errors.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "bc_keys.h"
#include "bc_status.h"
#include "unit.h"

typedef bc_status (*num_fn) (const char *, size_t, uint8_t *, size_t, size_t *);

/* fn(text) must give want_hex, and fail with BC_ERR_BUFFER one byte short
 * without writing past the capacity */
static void
check_num_ok(int line, num_fn fn, const char *text, const char *want_hex)
{
	uint8_t		out[256];
	size_t		len = 0,
				wantlen = strlen(want_hex) / 2,
				i;
	bc_status	st;
	int			clean = 1;

	st = fn(text, strlen(text), out, sizeof(out), &len);
	CHECK(st == BC_OK, "line %d: '%s': status %d", line, text, (int) st);
	if (st != BC_OK)
		return;
	unit_check_bytes(line, text, out, len, want_hex);

	memset(out, 0xa5, sizeof(out));
	len = 12345;
	st = fn(text, strlen(text), out, wantlen - 1, &len);
	for (i = wantlen - 1; i < sizeof(out); i++)
		if (out[i] != 0xa5)
			clean = 0;
	CHECK(st == BC_ERR_BUFFER && clean && len == 12345,
		  "line %d: '%s' with outcap %zu: status %d, %s", line, text,
		  wantlen - 1, (int) st, clean ? "no overrun" : "wrote past outcap");
}

static void
check_num_err(int line, num_fn fn, const char *text, size_t len,
			  bc_status want)
{
	uint8_t		out[64];
	size_t		outlen = 777;
	bc_status	st = fn(text, len, out, sizeof(out), &outlen);

	CHECK(st == want && outlen == 777, "line %d: '%.*s': status %d, want %d",
		  line, (int) (len > 60 ? 60 : len), text ? text : "(null)", (int) st,
		  (int) want);
}

#define VARINT_OK(text, hex) check_num_ok(__LINE__, bc_ser_varint_text, text, hex)
#define DECIMAL_OK(text, hex) check_num_ok(__LINE__, bc_ser_decimal_text, text, hex)
#define VARINT_ERR(text, st) \
	check_num_err(__LINE__, bc_ser_varint_text, text, strlen(text), st)
#define DECIMAL_ERR(text, st) \
	check_num_err(__LINE__, bc_ser_decimal_text, text, strlen(text), st)

static void

check_varint(void)
{
	static const char big_nines_head[] = "07807432";
	char	   *s;
	uint8_t    *out;
	uint8_t		out1[4];
	size_t		n = 147455 + 1,
				len = 0;
	bc_status	st;

	VARINT_OK("0", "00");
	VARINT_OK("1", "01");
	VARINT_OK("-1", "ff");
	VARINT_OK("127", "7f");
	VARINT_OK("128", "0080");
	VARINT_OK("-128", "80");
	VARINT_OK("-129", "ff7f");
	VARINT_OK("255", "00ff");
	VARINT_OK("256", "0100");
	VARINT_OK("32767", "7fff");
	VARINT_OK("32768", "008000");
	VARINT_OK("-32768", "8000");
	VARINT_OK("-32769", "ff7fff");
	VARINT_OK("9223372036854775808", "008000000000000000");
	VARINT_OK("-9223372036854775808", "8000000000000000");
	VARINT_OK("-9223372036854775809", "ff7fffffffffffffff");
	VARINT_OK("18446744073709551616", "010000000000000000");
	VARINT_OK("9999999999999999", "2386f26fc0ffff");	/* one chunk */
	VARINT_OK("10000000000000000", "2386f26fc10000");
	VARINT_OK("1234567890123456789012345678901234567890",
			  "03a0c92075c0dbf3b8acbc5f96ce3f0ad2");
	VARINT_OK("-1234567890123456789012345678901234567890",
			  "fc5f36df8a3f240c475343a06931c0f52e");
	VARINT_OK("99999999999999999999999999999999",
			  "04ee2d6d415b85acef80ffffffff");
	VARINT_OK("-100000000000000000000000000000000",
			  "fb11d292bea47a53107f00000000");
	VARINT_OK("170141183460469231731687303715884105728",
			  "0080000000000000000000000000000000");
	VARINT_OK("-170141183460469231731687303715884105728",
			  "80000000000000000000000000000000");
	VARINT_OK("007", "07");
	VARINT_OK("+5", "05");
	VARINT_OK("-0", "00");
	VARINT_OK("+0", "00");
	VARINT_OK("-000", "00");

	VARINT_ERR("", BC_ERR_NUMBER_SYNTAX);
	VARINT_ERR("-", BC_ERR_NUMBER_SYNTAX);
	VARINT_ERR("+", BC_ERR_NUMBER_SYNTAX);
	VARINT_ERR("--1", BC_ERR_NUMBER_SYNTAX);
	VARINT_ERR("+-1", BC_ERR_NUMBER_SYNTAX);
	VARINT_ERR(" 1", BC_ERR_NUMBER_SYNTAX);
	VARINT_ERR("1 ", BC_ERR_NUMBER_SYNTAX);
	VARINT_ERR("1.0", BC_ERR_NUMBER_SYNTAX);
	VARINT_ERR("1e3", BC_ERR_NUMBER_SYNTAX);
	VARINT_ERR("12a", BC_ERR_NUMBER_SYNTAX);
	VARINT_ERR("abc", BC_ERR_NUMBER_SYNTAX);
	VARINT_ERR("0x10", BC_ERR_NUMBER_SYNTAX);
	check_num_err(__LINE__, bc_ser_varint_text, "1\0", 2, BC_ERR_NUMBER_SYNTAX);
	check_num_err(__LINE__, bc_ser_varint_text, NULL, 0, BC_ERR_NUMBER_SYNTAX);
	check_num_err(__LINE__, bc_ser_varint_text, "12", 0, BC_ERR_NUMBER_SYNTAX);
	st = bc_ser_varint_text("12", 1, out1, sizeof(out1), &len);
	CHECK(st == BC_OK && len == 1 && out1[0] == 1,
		  "varint reads only len bytes: %d", (int) st);

	/* zero-capacity output, NULL buffer */
	len = 99;
	st = bc_ser_varint_text("0", 1, NULL, 0, &len);
	CHECK(st == BC_ERR_BUFFER && len == 99, "varint '0' into 0 bytes: %d",
		  (int) st);
	st = bc_ser_varint_text("5", 1, NULL, 0, &len);
	CHECK(st == BC_ERR_BUFFER && len == 99, "varint '5' into 0 bytes: %d",
		  (int) st);

	/* digit limit: 147455 significant digits, leading zeros free */
	s = malloc(200010);
	out = malloc(65536);
	if (s == NULL || out == NULL)
	{
		CHECK(0, "out of memory");
		free(s);
		free(out);
		return;
	}
	memset(s, '9', n);
	st = bc_ser_varint_text(s, n, out, 65536, &len);
	CHECK(st == BC_ERR_NUMBER_RANGE, "varint of %zu digits: %d", n, (int) st);
	st = bc_ser_varint_text(s, n - 1, out, 65536, &len);
	CHECK(st == BC_OK && len == 61230 && memcmp(out, "\x07\x80\x74\x32", 4) == 0 &&
		  out[len - 1] == 0xff,
		  "varint of %zu nines: %d, %zu bytes (want %s..)", n - 1, (int) st,
		  len, big_nines_head);
	st = bc_ser_varint_text(s, n - 1, out, 61229, &len);
	CHECK(st == BC_ERR_BUFFER, "varint of %zu nines in 61229 bytes: %d",
		  n - 1, (int) st);
	s[0] = '-';
	memset(s + 1, '9', n - 1);
	st = bc_ser_varint_text(s, n, out, 65536, &len);
	CHECK(st == BC_OK && len == 61230 && memcmp(out, "\xf8\x7f\x8b\xcd", 4) == 0 &&
		  out[len - 1] == 0x01,
		  "varint of -(%zu nines): %d, %zu bytes", n - 1, (int) st, len);
	memset(s, '0', 200000);
	s[200000] = '1';
	st = bc_ser_varint_text(s, 200001, out, 65536, &len);
	CHECK(st == BC_OK && len == 1 && out[0] == 1,
		  "varint with 200000 leading zeros: %d", (int) st);

	/* decimal: 0.<200000 zeros>1 -> scale 200001 */
	s[0] = '0';
	s[1] = '.';
	memset(s + 2, '0', 200000);
	s[200002] = '1';
	st = bc_ser_decimal_text(s, 200003, out, 65536, &len);
	if (st == BC_OK)
		unit_check_bytes(__LINE__, "0.<200000 zeros>1", out, len, "00030d4101");
	else
		CHECK(0, "decimal 0.<200000 zeros>1: %d", (int) st);
	free(s);
	free(out);
}

static void
check_decimal(void)
{
	DECIMAL_OK("0", "0000000000");
	DECIMAL_OK("1.5", "000000010f");
	DECIMAL_OK("-1.5", "00000001f1");
	DECIMAL_OK("1.50", "000000020096");
	DECIMAL_OK("-0.0", "0000000100");
	DECIMAL_OK("0E-5", "0000000500");
	DECIMAL_OK("1e-2", "0000000201");
	DECIMAL_OK("1E+3", "fffffffd01");
	DECIMAL_OK("1E3", "fffffffd01");
	DECIMAL_OK("12.5e1", "000000007d");
	DECIMAL_OK("0.000001", "0000000601");
	DECIMAL_OK(".5", "0000000105");
	DECIMAL_OK("+.5", "0000000105");
	DECIMAL_OK("1.", "0000000001");
	DECIMAL_OK("-007.10", "00000002fd3a");
	DECIMAL_OK("123.456", "0000000301e240");
	DECIMAL_OK("-99999999999999999999.99",
			   "00000002fde1e61f36454dc00001");
	DECIMAL_OK("1e0000000000000000000005", "fffffffb01");
	DECIMAL_OK("1E2147483647", "8000000101");
	DECIMAL_OK("1E+2147483647", "8000000101");
	DECIMAL_OK("1.0E-2147483646", "7fffffff0a");
	DECIMAL_OK("1e-2147483647", "7fffffff01");

	/* exponent / scale out of int32 */
	DECIMAL_ERR("1e2147483648", BC_ERR_NUMBER_RANGE);
	DECIMAL_ERR("1e-2147483648", BC_ERR_NUMBER_RANGE);	/* scale 2^31 */
	DECIMAL_ERR("10e-2147483648", BC_ERR_NUMBER_RANGE);
	DECIMAL_ERR("1e-2147483649", BC_ERR_NUMBER_RANGE);
	DECIMAL_ERR("0.1E-2147483647", BC_ERR_NUMBER_RANGE);
	DECIMAL_ERR("1e99999999999999999999", BC_ERR_NUMBER_RANGE);
	DECIMAL_ERR("1e-99999999999", BC_ERR_NUMBER_RANGE);
	DECIMAL_ERR("1e12345678901", BC_ERR_NUMBER_RANGE);

	/* syntax (checked before range) */
	DECIMAL_ERR("", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR("-", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR("+", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR(".", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR("-.", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR("1.2.3", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR("1e", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR("1e+", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR("1e-", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR("1e+-3", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR("1e5.0", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR("1e1e1", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR("e5", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR(".e5", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR("abc", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR(" 1", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR("1 ", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR("--1", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR("1,5", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR("0x10", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR("NaN", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR("Infinity", BC_ERR_NUMBER_SYNTAX);
	DECIMAL_ERR("1e99999999999999999999x", BC_ERR_NUMBER_SYNTAX);
	check_num_err(__LINE__, bc_ser_decimal_text, "1.5\0", 4,
				  BC_ERR_NUMBER_SYNTAX);
	check_num_err(__LINE__, bc_ser_decimal_text, NULL, 0,
				  BC_ERR_NUMBER_SYNTAX);

	/* buffer: scale needs 4 bytes, then at least one */
	{
		uint8_t		out[8];
		size_t		len = 5;
		bc_status	st;

		st = bc_ser_decimal_text("1", 1, out, 3, &len);
		CHECK(st == BC_ERR_BUFFER && len == 5, "decimal into 3 bytes: %d",
			  (int) st);
		st = bc_ser_decimal_text("0", 1, out, 4, &len);
		CHECK(st == BC_ERR_BUFFER && len == 5, "decimal into 4 bytes: %d",
			  (int) st);
		st = bc_ser_decimal_text("0", 1, NULL, 0, &len);
		CHECK(st == BC_ERR_BUFFER && len == 5, "decimal into 0 bytes: %d",
			  (int) st);
		/* range wins over buffer */
		st = bc_ser_decimal_text("1e9999999999", 12, out, 0, &len);
		CHECK(st == BC_ERR_NUMBER_RANGE, "decimal range vs buffer: %d",
			  (int) st);
	}
}

void
suite_keys_number(void)
{
	check_varint();
	check_decimal();
}
