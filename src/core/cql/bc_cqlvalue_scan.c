/*
 * bc_cqlvalue_scan.c - one scalar value's bytes from its text, as the
 * types' fromString read it, accepting at least everything
 * bc_cqlvalue_scalar.c prints:
 *
 *   int types, counter   [+-]digits, in the type's range
 *   varint, decimal      BigInteger(String) / BigDecimal(String)
 *                        (bc_ser_varint_text, bc_ser_decimal_text)
 *   float, double        [+-]digits[.digits][e[+-]digits] (Java's toString
 *                        forms and the usual ones), NaN, [+-]Infinity;
 *                        correctly rounded (strtof, strtod)
 *   boolean              true / false, any case
 *   uuid types           8-4-4-4-12 hex, any case (TimeUUID: version 1)
 *   timestamp            [-]milliseconds, or yyyy-mm-dd[(T| )hh:mm[:ss
 *                        [.f...]]][Z|+hh|+hhmm|+hh:mm] (a time without a
 *                        zone is UTC; Cassandra takes the server's zone)
 *   date                 yyyy-mm-dd, +yyyyy-mm-dd, -yyyy-mm-dd, or the
 *                        raw unsigned day number (2^31 is 1970-01-01)
 *   time                 hh:mm:ss[.f up to 9 digits], or nanoseconds
 *   inet                 dotted IPv4 or IPv6 (:: and a dotted tail);
 *                        IPv4-mapped IPv6 gives the 4 IPv4 bytes, as
 *                        Java's InetAddress does
 *   duration             Duration.from's standard form: [-] then numbers
 *                        with units y mo w d h m s ms us (or µs) ns, any
 *                        case, largest first; "" is 0
 *   blob                 hex, with or without 0x
 *   text, ascii          the string (ascii: bytes below 0x80)
 *
 * "" is the empty value of the types that have one.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bc_cqlvalue.h"
#include "bc_keys.h"

/* dotted IPv4 s[0 .. n) into a[0 .. 4) */
static int
scan_ipv4(const char *s, size_t n, uint8_t *a)
{
	size_t		i = 0;
	int			part;

	for (part = 0; part < 4; part++)
	{
		size_t		b = i;
		uint64_t	v;

		while (i < n && bc_cql_is_digit(s[i]))
			i++;
		if (i - b < 1 || i - b > 3 || !bc_cql_digits_value(s + b, i - b, 255, &v))
			return 0;
		a[part] = (uint8_t) v;
		if (part < 3 && (i >= n || s[i++] != '.'))
			return 0;
	}
	return i == n;
}

/* IPv6 text into a[0 .. 16) */
static int
scan_ipv6(const char *s, size_t n, uint8_t *a)
{
	uint16_t	g[8];
	int			ng = 0,
				gap = -1;
	size_t		i = 0;

	if (n >= 2 && s[0] == ':' && s[1] == ':')
	{
		gap = 0;
		i = 2;
	}
	else if (n >= 1 && s[0] == ':')
		return 0;
	while (i < n)
	{
		size_t		b = i;
		unsigned	v = 0;

		while (i < n && bc_cql_hexval(s[i]) >= 0 && i - b < 4)
			v = v * 16 + (unsigned) bc_cql_hexval(s[i++]);
		if (i < n && s[i] == '.' && ng <= 6)
		{
			uint8_t		v4[4];

			if (!scan_ipv4(s + b, n - b, v4))
				return 0;
			g[ng++] = (uint16_t) (v4[0] << 8 | v4[1]);
			g[ng++] = (uint16_t) (v4[2] << 8 | v4[3]);
			i = n;
			break;
		}
		if (i == b || ng == 8)
			return 0;
		g[ng++] = (uint16_t) v;
		if (i == n)
			break;
		if (s[i] != ':')
			return 0;
		i++;
		if (i < n && s[i] == ':')
		{
			if (gap >= 0)
				return 0;
			gap = ng;
			i++;
		}
		else if (i == n)
			return 0;
	}
	if ((gap < 0 && ng != 8) || (gap >= 0 && ng > 7))
		return 0;
	memset(a, 0, 16);
	{
		int			k,
					at = 0;

		for (k = 0; k < ng; k++)
		{
			if (k == gap)
				at += 8 - ng;
			a[2 * at] = (uint8_t) (g[k] >> 8);
			a[2 * at + 1] = (uint8_t) g[k];
			at++;
		}
	}
	return 1;
}

static bc_status
scan_inet(char *s, size_t n, bc_cqlsink *out, bc_cqlerr *err)
{
	uint8_t		a[16];
	uint8_t		len;

	if (scan_ipv4(s, n, a))
	{
		bc_cqlsink_put(out, (const char *) a, 4);
		return BC_OK;
	}
	if (!scan_ipv6(s, n, a))
		return bc_cql_bad(err, BC_CQL_INET, "not an IPv4 or IPv6 address");
	{
		uint8_t		b[16];

		len = (uint8_t) bc_ser_inet(a, 16, b);
		bc_cqlsink_put(out, (const char *) b, len);
	}
	return BC_OK;
}

static bc_status
scan_uuid(bc_cqlkind kind, const char *s, size_t n, bc_cqlsink *out, bc_cqlerr *err)
{
	uint8_t		u[16];
	size_t		i,
				k = 0;

	if (n != 36)
		return bc_cql_bad(err, kind, "expected 8-4-4-4-12 hex digits");
	for (i = 0; i < 36; i++)
	{
		int			h = bc_cql_hexval(s[i]);

		if (i == 8 || i == 13 || i == 18 || i == 23)
		{
			if (s[i] != '-')
				return bc_cql_bad(err, kind, "expected 8-4-4-4-12 hex digits");
			continue;
		}
		if (h < 0)
			return bc_cql_bad(err, kind, "expected 8-4-4-4-12 hex digits");
		if (k % 2 == 0)
			u[k / 2] = (uint8_t) (h << 4);
		else
			u[k / 2] |= (uint8_t) h;
		k++;
	}
	if (kind == BC_CQL_TIMEUUID && (u[6] & 0xf0) != 0x10)
		return bc_cql_bad(err, kind, "not a version 1 (time-based) UUID");
	bc_cqlsink_put(out, (const char *) u, 16);
	return BC_OK;
}

static bc_status
scan_fp(bc_cqlkind kind, char *s, size_t n, bc_cqlsink *out, bc_cqlerr *err)
{
	size_t		i = 0,
				digits = 0;
	char		save;
	double		d;
	float		f;
	uint64_t	bits;

	if (n > 0 && (s[0] == '+' || s[0] == '-'))
		i++;
	if (n - i == 3 && memcmp(s + i, "NaN", 3) == 0 && i == 0)
		d = NAN;
	else if (n - i == 8 && memcmp(s + i, "Infinity", 8) == 0)
		d = s[0] == '-' ? -INFINITY : INFINITY;
	else
	{
		for (; i < n && bc_cql_is_digit(s[i]); i++)
			digits++;
		if (i < n && s[i] == '.')
			for (i++; i < n && bc_cql_is_digit(s[i]); i++)
				digits++;
		if (digits == 0)
			return bc_cql_bad(err, kind, "not a number");
		if (i < n && (s[i] == 'e' || s[i] == 'E'))
		{
			size_t		e0;

			i++;
			if (i < n && (s[i] == '+' || s[i] == '-'))
				i++;
			for (e0 = i; i < n && bc_cql_is_digit(s[i]); i++)
				;
			if (i == e0)
				return bc_cql_bad(err, kind, "digits expected after the exponent mark");
		}
		if (i != n)
			return bc_cql_bad(err, kind, "not a number");
		save = s[n];
		s[n] = '\0';
		if (kind == BC_CQL_FLOAT)
			d = (double) strtof(s, NULL);
		else
			d = strtod(s, NULL);
		s[n] = save;
	}
	if (kind == BC_CQL_FLOAT)
	{
		uint32_t	u;

		f = (float) d;
		memcpy(&u, &f, 4);
		if (d != d)
			u = 0x7fc00000u;	/* Float.NaN */
		bc_cql_put_be(out, u, 4);
	}
	else
	{
		memcpy(&bits, &d, 8);
		if (d != d)
			bits = UINT64_C(0x7ff8000000000000);	/* Double.NaN */
		bc_cql_put_be(out, bits, 8);
	}
	return BC_OK;
}

/*
 * varint and decimal through bc_keys.c, into the sink's room; past it, an
 * upper bound of their length (the caller calls again with room).
 *
 * BigDecimal(String) refuses an exponent outside int32 even when the scale
 * it gives fits (1E+2147483648 is scale -2^31), yet BigDecimal.toString
 * prints such exponents: a decimal refused for its range is read again as
 * its mantissa, whose scale is then moved by the exponent.
 */
static bc_status
scan_number(bc_cqlkind kind, char *s, size_t n, bc_cqlsink *out, bc_cqlerr *err)
{
	size_t		room = out->len < out->cap ? out->cap - out->len : 0,
				got = 0,
				e;
	uint8_t		dummy[1];
	uint8_t    *at = room > 0 ? out->p + out->len : dummy;
	bc_status	st = kind == BC_CQL_VARINT ? bc_ser_varint_text(s, n, at, room, &got) :
		bc_ser_decimal_text(s, n, at, room, &got);

	for (e = 0; e < n && s[e] != 'e' && s[e] != 'E'; e++)
		;
	if (st == BC_ERR_NUMBER_RANGE && kind == BC_CQL_DECIMAL && e < n)
	{
		int64_t		exp,
					scale = 0;
		size_t		i,
					dot = e;

		/* the mantissa's scale is its digits after the point */
		for (i = 0; i < e; i++)
			if (s[i] == '.')
				dot = i;
		if (dot < e)
			scale = (int64_t) (e - dot - 1);
		if (!bc_cql_scan_int(s + e + 1, n - e - 1, -INT64_C(1000000000000), INT64_C(1000000000000), &exp) ||
			scale - exp < INT32_MIN || scale - exp > INT32_MAX)
			st = BC_ERR_NUMBER_RANGE;
		else if ((st = bc_ser_decimal_text(s, e, at, room, &got)) == BC_OK)
		{
			uint32_t	u = (uint32_t) (int32_t) (scale - exp);

			at[0] = (uint8_t) (u >> 24);
			at[1] = (uint8_t) (u >> 16);
			at[2] = (uint8_t) (u >> 8);
			at[3] = (uint8_t) u;
		}
	}
	if (st == BC_ERR_BUFFER)
	{
		out->len += n / 2 + 8;	/* 8 bits take more than 2.4 digits */
		return BC_OK;
	}
	if (st != BC_OK)
		return bc_cqlerr_set(err, BC_ERR_CQL_SYNTAX, "%s: %s", bc_cqlkind_name(kind),
							 bc_status_message(st));
	out->len += got;
	return BC_OK;
}

bc_status
bc_cql_scalar_parse(bc_cqlkind kind, char *s, size_t n, bc_cqlsink *out, bc_cqlerr *err)
{
	int64_t		v;
	size_t		i;

	if (n == 0)
	{
		if (kind == BC_CQL_DURATION)
			return bc_cql_scan_duration(s, n, out, err);
		if (kind == BC_CQL_SHORT || kind == BC_CQL_BYTE || kind == BC_CQL_DATE || kind == BC_CQL_TIME)
			return bc_cql_bad(err, kind, "no text, and the type has no empty value");
		return BC_OK;
	}
	switch (kind)
	{
		case BC_CQL_UTF8:
			if (!bc_cql_utf8_valid((const uint8_t *) s, n))
				return bc_cql_bad(err, kind, "not valid UTF-8");
			bc_cqlsink_put(out, s, n);
			return BC_OK;
		case BC_CQL_ASCII:
			for (i = 0; i < n; i++)
				if ((uint8_t) s[i] >= 0x80)
					return bc_cql_bad(err, kind, "a character outside ASCII");
			bc_cqlsink_put(out, s, n);
			return BC_OK;
		case BC_CQL_BLOB:
			return bc_cql_parse_hex(s, n, out) ? BC_OK : bc_cql_bad(err, kind, "expected hex (0x optional)");
		case BC_CQL_BYTE:
			if (!bc_cql_scan_int(s, n, INT8_MIN, INT8_MAX, &v))
				return bc_cql_bad(err, kind, "not an integer from -128 to 127");
			bc_cql_put_be(out, (uint64_t) v, 1);
			return BC_OK;
		case BC_CQL_SHORT:
			if (!bc_cql_scan_int(s, n, INT16_MIN, INT16_MAX, &v))
				return bc_cql_bad(err, kind, "not an integer from -32768 to 32767");
			bc_cql_put_be(out, (uint64_t) v, 2);
			return BC_OK;
		case BC_CQL_INT32:
			if (!bc_cql_scan_int(s, n, INT32_MIN, INT32_MAX, &v))
				return bc_cql_bad(err, kind, "not a 32-bit integer");
			bc_cql_put_be(out, (uint64_t) v, 4);
			return BC_OK;
		case BC_CQL_LONG:
		case BC_CQL_COUNTER:
			if (!bc_cql_scan_int(s, n, INT64_MIN, INT64_MAX, &v))
				return bc_cql_bad(err, kind, "not a 64-bit integer");
			bc_cql_put_be(out, (uint64_t) v, 8);
			return BC_OK;
		case BC_CQL_BOOLEAN:
			{
				char		low[6];

				for (i = 0; i < n && i < 6; i++)
					low[i] = (char) (s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]);
				if (n == 4 && memcmp(low, "true", 4) == 0)
					bc_cqlsink_putc(out, 1);
				else if (n == 5 && memcmp(low, "false", 5) == 0)
					bc_cqlsink_putc(out, 0);
				else
					return bc_cql_bad(err, kind, "expected true or false");
				return BC_OK;
			}
		case BC_CQL_FLOAT:
		case BC_CQL_DOUBLE:
			return scan_fp(kind, s, n, out, err);
		case BC_CQL_UUID:
		case BC_CQL_TIMEUUID:
		case BC_CQL_LEXICALUUID:
			return scan_uuid(kind, s, n, out, err);
		case BC_CQL_TIMESTAMP:
			return bc_cql_scan_timestamp(s, n, out, err);
		case BC_CQL_DATE:
			return bc_cql_scan_date(s, n, out, err);
		case BC_CQL_TIME:
			return bc_cql_scan_time(s, n, out, err);
		case BC_CQL_INET:
			return scan_inet(s, n, out, err);
		case BC_CQL_VARINT:
		case BC_CQL_DECIMAL:
			return scan_number(kind, s, n, out, err);
		case BC_CQL_DURATION:
			return bc_cql_scan_duration(s, n, out, err);
		default:
			return bc_cqlerr_set(err, BC_ERR_CQL_SYNTAX, "%s is not a scalar type",
								 bc_cqlkind_name(kind));
	}
}
