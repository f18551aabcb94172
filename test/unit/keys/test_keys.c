/*
 * test_keys.c - partition key serialization (the CQL types' serializers,
 * CompositeType).
 *
 * Every row of vectors/serialization.tsv is parsed here from its textual
 * CQL value, serialized with the core's functions and compared byte for
 * byte with key_hex; the murmur3 h1/h2 and the token of the bytes are
 * compared with the vector too.  An unknown CQL type in the file fails.
 * Targeted checks follow for varint/decimal text (boundaries, Java
 * BigInteger/BigDecimal syntax, range and buffer errors), dates, inet,
 * float/double raw bits and composite framing errors.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "bc_keys.h"
#include "bc_murmur3.h"
#include "bc_status.h"
#include "unit.h"

#define VAL_CAP 4096			/* largest value serialized from the file */
#define MAX_COMPONENTS 16

/* ------------------------------------------------------------------------
 * Parsers for the textual values of serialization.tsv
 * ------------------------------------------------------------------------ */

static int
parse_int_range(const char *s, int64_t min, int64_t max, int64_t *v)
{
	if (unit_parse_i64(s, v) != 0)
		return -1;
	return (*v < min || *v > max) ? -1 : 0;
}

/* n decimal digits at s into *v; -1 if any is not a digit */
static int
parse_digits(const char *s, int n, int64_t *v)
{
	int			i;

	*v = 0;
	for (i = 0; i < n; i++)
	{
		if (s[i] < '0' || s[i] > '9')
			return -1;
		*v = *v * 10 + (s[i] - '0');
	}
	return 0;
}

/* 'YYYY-MM-DD' (year of 4 or more digits, optionally negative) to days */
static int
parse_date(const char *s, int64_t *days)
{
	int			neg = 0;
	size_t		len,
				ylen;
	int64_t		y,
				m,
				d;

	if (*s == '-')
	{
		neg = 1;
		s++;
	}
	len = strlen(s);
	if (len < 10 || len > 15)
		return -1;
	ylen = len - 6;
	if (s[ylen] != '-' || s[ylen + 3] != '-' ||
		parse_digits(s, (int) ylen, &y) != 0 ||
		parse_digits(s + ylen + 1, 2, &m) != 0 ||
		parse_digits(s + ylen + 4, 2, &d) != 0 ||
		m < 1 || m > 12 || d < 1 || d > 31)
		return -1;
	*days = bc_days_from_civil(neg ? -y : y, (int) m, (int) d);
	return 0;
}

/* 'HH:MM:SS[.fraction of 1 to 9 digits]' to nanoseconds since midnight */
static int
parse_time(const char *s, int64_t *ns)
{
	int64_t		h,
				mi,
				sec,
				frac = 0;
	size_t		len = strlen(s);

	if (len < 8 || s[2] != ':' || s[5] != ':' ||
		parse_digits(s, 2, &h) != 0 || parse_digits(s + 3, 2, &mi) != 0 ||
		parse_digits(s + 6, 2, &sec) != 0 || h > 23 || mi > 59 || sec > 59)
		return -1;
	if (len > 8)
	{
		int			nf = (int) (len - 9),
					i;

		if (s[8] != '.' || nf < 1 || nf > 9 ||
			parse_digits(s + 9, nf, &frac) != 0)
			return -1;
		for (i = nf; i < 9; i++)
			frac *= 10;
	}
	*ns = ((h * 60 + mi) * 60 + sec) * INT64_C(1000000000) + frac;
	return 0;
}

/* 8-4-4-4-12 hex text to 16 bytes */
static int
parse_uuid(const char *s, uint8_t out[16])
{
	int			i,
				n = 0;

	if (strlen(s) != 36)
		return -1;
	for (i = 0; i < 36;)
	{
		int			hi,
					lo;

		if (i == 8 || i == 13 || i == 18 || i == 23)
		{
			if (s[i] != '-')
				return -1;
			i++;
			continue;
		}
		hi = unit_hexval(s[i]);
		lo = unit_hexval(s[i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[n++] = (uint8_t) (hi * 16 + lo);
		i += 2;
	}
	return n == 16 ? 0 : -1;
}

/*
 * Serialize the textual value of one (non-composite) CQL type into out
 * (VAL_CAP bytes).  Returns 0, or -1 for an unknown type or a value that
 * does not parse.
 */
static int
serialize_value(const char *type, const char *val, uint8_t *out, size_t *len)
{
	int64_t		v;

	if (strcmp(type, "text") == 0 || strcmp(type, "varchar") == 0 ||
		strcmp(type, "ascii") == 0)
	{
		size_t		n = strlen(val);

		if (n > VAL_CAP)
			return -1;
		memcpy(out, val, n);
		*len = n;
		return 0;
	}
	if (strcmp(type, "int") == 0)
	{
		if (parse_int_range(val, INT32_MIN, INT32_MAX, &v) != 0)
			return -1;
		*len = bc_ser_int32((int32_t) v, out);
		return 0;
	}
	if (strcmp(type, "bigint") == 0 || strcmp(type, "counter") == 0)
	{
		if (parse_int_range(val, INT64_MIN, INT64_MAX, &v) != 0)
			return -1;
		*len = bc_ser_int64(v, out);
		return 0;
	}
	if (strcmp(type, "smallint") == 0)
	{
		if (parse_int_range(val, INT16_MIN, INT16_MAX, &v) != 0)
			return -1;
		*len = bc_ser_int16((int16_t) v, out);
		return 0;
	}
	if (strcmp(type, "tinyint") == 0)
	{
		if (parse_int_range(val, INT8_MIN, INT8_MAX, &v) != 0)
			return -1;
		*len = bc_ser_int8((int8_t) v, out);
		return 0;
	}
	if (strcmp(type, "boolean") == 0)
	{
		if (strcmp(val, "true") == 0)
			*len = bc_ser_bool(1, out);
		else if (strcmp(val, "false") == 0)
			*len = bc_ser_bool(0, out);
		else
			return -1;
		return 0;
	}
	if (strcmp(type, "float") == 0 || strcmp(type, "double") == 0)
	{
		char	   *end;

		if (*val == '\0')
			return -1;
		if (type[0] == 'f')
		{
			float		f = strtof(val, &end);

			if (*end != '\0')
				return -1;
			*len = bc_ser_float(f, out);
		}
		else
		{
			double		d = strtod(val, &end);

			if (*end != '\0')
				return -1;
			*len = bc_ser_double(d, out);
		}
		return 0;
	}
	if (strcmp(type, "timestamp") == 0)
	{
		if (parse_int_range(val, INT64_MIN, INT64_MAX, &v) != 0)
			return -1;
		*len = bc_ser_timestamp_ms(v, out);
		return 0;
	}
	if (strcmp(type, "date") == 0)
	{
		if (parse_date(val, &v) != 0 || v < INT32_MIN || v > INT32_MAX)
			return -1;
		*len = bc_ser_date_days((int32_t) v, out);
		return 0;
	}
	if (strcmp(type, "time") == 0)
	{
		if (parse_time(val, &v) != 0)
			return -1;
		*len = bc_ser_time_ns(v, out);
		return 0;
	}
	if (strcmp(type, "uuid") == 0 || strcmp(type, "timeuuid") == 0)
	{
		uint8_t		u[16];

		if (parse_uuid(val, u) != 0)
			return -1;
		*len = bc_ser_uuid(u, out);
		return 0;
	}
	if (strcmp(type, "inet") == 0)
	{
		uint8_t		a[16];
		size_t		alen;

		if (inet_pton(AF_INET, val, a) == 1)
			alen = 4;
		else if (inet_pton(AF_INET6, val, a) == 1)
			alen = 16;
		else
			return -1;
		*len = bc_ser_inet(a, alen, out);
		return *len == 0 ? -1 : 0;
	}
	if (strcmp(type, "varint") == 0)
		return bc_ser_varint_text(val, strlen(val), out, VAL_CAP, len) ==
			BC_OK ? 0 : -1;
	if (strcmp(type, "decimal") == 0)
		return bc_ser_decimal_text(val, strlen(val), out, VAL_CAP, len) ==
			BC_OK ? 0 : -1;
	if (strcmp(type, "blob") == 0)
	{
		uint8_t    *b;
		size_t		n;

		if (val[0] != '0' || (val[1] != 'x' && val[1] != 'X'))
			return -1;
		b = unit_hex_decode(val + 2, strlen(val + 2), &n);
		if (b == NULL)
			return -1;
		if (n > VAL_CAP)
		{
			free(b);
			return -1;
		}
		memcpy(out, b, n);
		*len = n;
		free(b);
		return 0;
	}
	return -1;
}

/*
 * '(t1,t2,..)' with values 'v1|v2|..': each component by its type, then
 * the composite framing.  types and vals are modified in place.
 */
static int
serialize_composite(char *types, char *vals, uint8_t *out, size_t outcap,
					size_t *len)
{
	static uint8_t comp[MAX_COMPONENTS][VAL_CAP];
	const uint8_t *ptrs[MAX_COMPONENTS];
	size_t		lens[MAX_COMPONENTS];
	size_t		tlen = strlen(types);
	char	   *t,
			   *v;
	int			n = 0;

	if (tlen < 3 || types[0] != '(' || types[tlen - 1] != ')')
		return -1;
	types[tlen - 1] = '\0';
	t = types + 1;
	v = vals;
	for (;;)
	{
		char	   *tc = strchr(t, ',');
		char	   *vc = strchr(v, '|');

		if (n == MAX_COMPONENTS)
			return -1;
		if (tc)
			*tc = '\0';
		if (vc)
			*vc = '\0';
		if ((tc == NULL) != (vc == NULL))
			return -1;			/* as many values as types */
		if (serialize_value(t, v, comp[n], &lens[n]) != 0)
			return -1;
		ptrs[n] = comp[n];
		n++;
		if (tc == NULL)
			break;
		t = tc + 1;
		v = vc + 1;
	}
	if (bc_composite_size(lens, n) > outcap)
		return -1;
	return bc_ser_composite(ptrs, lens, n, out, outcap, len) == BC_OK ? 0 : -1;
}

static void
check_serialization_file(void)
{
	static uint8_t key[MAX_COMPONENTS * (VAL_CAP + 3)];
	unit_tsv	t;
	char	   *f[8];
	int			nf;
	long		rows = 0;

	if (unit_tsv_open(&t, "vectors/serialization.tsv") != 0)
		return;
	while ((nf = unit_tsv_next(&t, f, 8)) >= 0)
	{
		char		type[256];
		uint8_t    *want;
		size_t		wantlen,
					len = 0;
		int64_t		h1,
					h2,
					tok,
					eh1,
					eh2,
					etok;
		int			rc;

		rows++;
		if (nf != 6)
		{
			CHECK(0, "serialization.tsv:%ld: %d fields", t.lineno, nf);
			continue;
		}
		snprintf(type, sizeof(type), "%s", f[0]);
		if (type[0] == '(')
		{
			/* split a copy: the fields are needed for messages */
			static char vals[MAX_COMPONENTS * VAL_CAP];

			if ((size_t) snprintf(vals, sizeof(vals), "%s", f[1]) >= sizeof(vals))
				rc = -1;
			else
				rc = serialize_composite(type, vals, key, sizeof(key), &len);
		}
		else
			rc = serialize_value(type, f[1], key, &len);
		CHECK(rc == 0, "serialization.tsv:%ld: cannot serialize %s '%s'"
			  " (unknown type or bad value)", t.lineno, f[0], f[1]);
		if (rc != 0)
			continue;

		want = unit_hex_decode(f[2], strlen(f[2]), &wantlen);
		CHECK(want != NULL, "serialization.tsv:%ld: bad key_hex", t.lineno);
		if (want == NULL)
			continue;
		{
			int			same = (len == wantlen && memcmp(key, want, len) == 0);
			char	   *got = same ? NULL : unit_hex_encode(key, len);

			CHECK(same, "serialization.tsv:%ld: %s '%s': got %s, want %s",
				  t.lineno, f[0], f[1], got ? got : "?", f[2]);
			free(got);
		}
		free(want);

		if (unit_parse_i64(f[3], &eh1) != 0 ||
			unit_parse_i64(f[4], &eh2) != 0 ||
			unit_parse_i64(f[5], &etok) != 0)
		{
			CHECK(0, "serialization.tsv:%ld: bad h1/h2/token", t.lineno);
			continue;
		}
		bc_murmur3(key, len, &h1, &h2);
		tok = bc_token(key, len);
		CHECK(h1 == eh1, "serialization.tsv:%ld: h1 %lld != %lld", t.lineno,
			  (long long) h1, (long long) eh1);
		CHECK(h2 == eh2, "serialization.tsv:%ld: h2 %lld != %lld", t.lineno,
			  (long long) h2, (long long) eh2);
		CHECK(tok == etok, "serialization.tsv:%ld: token %lld != %lld",
			  t.lineno, (long long) tok, (long long) etok);
	}
	unit_tsv_close(&t);
	CHECK(rows >= 80, "serialization.tsv: only %ld rows", rows);
}

/* ------------------------------------------------------------------------
 * Targeted checks
 * ------------------------------------------------------------------------ */

typedef bc_status (*num_fn) (const char *, size_t, uint8_t *, size_t, size_t *);

static void
check_bytes(int line, const char *what, const uint8_t *got, size_t len,
			const char *want_hex)
{
	char	   *hex = unit_hex_encode(got, len);

	CHECK(hex != NULL && strcmp(hex, want_hex) == 0,
		  "line %d: %s: got %s, want %s", line, what, hex ? hex : "?",
		  want_hex);
	free(hex);
}

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
	check_bytes(line, text, out, len, want_hex);

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
		check_bytes(__LINE__, "0.<200000 zeros>1", out, len, "00030d4101");
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
	check_bytes(__LINE__, "1970-01-01", out, 4, "80000000");
	bc_ser_date_days((int32_t) bc_days_from_civil(1969, 12, 31), out);
	check_bytes(__LINE__, "1969-12-31", out, 4, "7fffffff");
	bc_ser_date_days((int32_t) bc_days_from_civil(1, 1, 1), out);
	check_bytes(__LINE__, "0001-01-01", out, 4, "7ff506c6");
	bc_ser_date_days(INT32_MIN, out);
	check_bytes(__LINE__, "date INT32_MIN", out, 4, "00000000");
	bc_ser_date_days(INT32_MAX, out);
	check_bytes(__LINE__, "date INT32_MAX", out, 4, "ffffffff");

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
	check_bytes(__LINE__, "float -0.0", out, 4, "80000000");
	fb = UINT32_C(0x7fc00000);
	memcpy(&f, &fb, 4);
	bc_ser_float(f, out);
	check_bytes(__LINE__, "float NaN", out, 4, "7fc00000");
	fb = UINT32_C(0xffc12345);
	memcpy(&f, &fb, 4);
	bc_ser_float(f, out);
	check_bytes(__LINE__, "float -NaN payload", out, 4, "ffc12345");

	d = -0.0;
	CHECK(bc_ser_double(d, out) == 8, "double size");
	check_bytes(__LINE__, "double -0.0", out, 8, "8000000000000000");
	db = UINT64_C(0x7ff8000000000000);
	memcpy(&d, &db, 8);
	bc_ser_double(d, out);
	check_bytes(__LINE__, "double NaN", out, 8, "7ff8000000000000");
	db = UINT64_C(0xfff8000000000123);
	memcpy(&d, &db, 8);
	bc_ser_double(d, out);
	check_bytes(__LINE__, "double -NaN payload", out, 8, "fff8000000000123");

	bc_ser_int16(0x1234, out);
	check_bytes(__LINE__, "int16", out, 2, "1234");
	bc_ser_int32(-2, out);
	check_bytes(__LINE__, "int32", out, 4, "fffffffe");
	bc_ser_int64(INT64_C(0x0102030405060708), out);
	check_bytes(__LINE__, "int64", out, 8, "0102030405060708");
	bc_ser_bool(42, out);
	check_bytes(__LINE__, "bool", out, 1, "01");
	bc_ser_time_ns(INT64_C(86399999999999), out);
	check_bytes(__LINE__, "time", out, 8, "00004e94914effff");

	/* inet */
	CHECK(inet_pton(AF_INET6, "::ffff:1.2.3.4", addr) == 1, "inet_pton");
	CHECK(bc_ser_inet(addr, 16, out) == 4, "mapped inet size");
	check_bytes(__LINE__, "::ffff:1.2.3.4", out, 4, "01020304");
	CHECK(inet_pton(AF_INET6, "::1", addr) == 1, "inet_pton");
	CHECK(bc_ser_inet(addr, 16, out) == 16, "::1 size");
	check_bytes(__LINE__, "::1", out, 16, "00000000000000000000000000000001");
	CHECK(inet_pton(AF_INET6, "::1.2.3.4", addr) == 1, "inet_pton");
	CHECK(bc_ser_inet(addr, 16, out) == 16, "::1.2.3.4 (compatible) size");
	check_bytes(__LINE__, "::1.2.3.4", out, 16,
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
		check_bytes(__LINE__, "('key0',0)", out, len,
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
		check_bytes(__LINE__, "empty component", out, len, "000000");

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
suite_keys(void)
{
	check_serialization_file();
	check_varint();
	check_decimal();
	check_dates();
	check_fixed();
	check_composite();
}
