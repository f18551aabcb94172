/*
 * test_keys.c - partition key serialization (the CQL types' serializers,
 * CompositeType) against the golden vectors.
 *
 * Every row of vectors/serialization.tsv is parsed here from its textual
 * CQL value, serialized with the core's functions and compared byte for
 * byte with key_hex; the murmur3 h1/h2 and the token of the bytes are
 * compared with the vector too.  An unknown CQL type in the file fails.
 * Targeted checks are test_keys_number.c's (varint and decimal text) and
 * test_keys_types.c's (dates, inet, float/double raw bits, composite
 * framing errors).
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

void
suite_keys(void)
{
	check_serialization_file();
}
