/*
 * bc_cqlvalue_scalar.c - the text and JSON of one scalar value, as
 * Cassandra's serializers print it (TypeSerializer.toString, called by
 * AbstractType.getString):
 *
 *   int types, counter   Integer/Long/Short/Byte.toString
 *   varint               BigInteger.toString
 *   decimal              BigDecimal.toString: plain when the scale is
 *                        >= 0 and the adjusted exponent >= -6, else
 *                        d.dddE+n (1E+3, 1.5E-7)
 *   float, double        Float/Double.toString: the shortest decimal that
 *                        reads back to the value (of at least 2 digits,
 *                        the closest one, as JDK 19 and later), plain from
 *                        1e-3 to 1e7, else d.dddEn; NaN, Infinity,
 *                        -Infinity, -0.0
 *   boolean              true/false (any byte but 0 is true)
 *   uuid types           lower-case 8-4-4-4-12
 *   timestamp            yyyy-mm-ddThh:mm:ss.fffZ in UTC (the proleptic
 *                        Gregorian calendar) for years 1 to 9999, else the
 *                        milliseconds since 1970 (which fromString reads)
 *   date                 ISO yyyy-mm-dd, +yyyyy after 9999, -yyyy before 0
 *   time                 hh:mm:ss.nnnnnnnnn
 *   inet                 dotted IPv4; IPv6 as Java's getHostAddress: eight
 *                        groups of lower-case hex, none compressed (an
 *                        IPv4-mapped address is the IPv4 address)
 *   duration             Cassandra's Duration.toString: [-]1y2mo3d4h5m6s
 *                        7ms8us9ns, units that are 0 left out ("" for 0)
 *   blob                 0x and lower-case hex
 *   text, ascii          the string
 *
 * An empty value (no bytes) of a type that allows it prints as nothing
 * (JSON null); smallint, tinyint, date, time and duration have none.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bc_cqlvalue.h"

static int
allows_empty(bc_cqlkind kind)
{
	return !(kind == BC_CQL_SHORT || kind == BC_CQL_BYTE || kind == BC_CQL_DATE ||
			 kind == BC_CQL_TIME || kind == BC_CQL_DURATION);
}

static uint64_t
be64(const uint8_t *p)
{
	return (uint64_t) BC_CQL_BE32(p) << 32 | BC_CQL_BE32(p + 4);
}

int
bc_cql_utf8_valid(const uint8_t *p, size_t n)
{
	size_t		i = 0;

	while (i < n)
	{
		uint8_t		c = p[i];
		size_t		k,
					j;
		uint32_t	cp;

		if (c < 0x80)
		{
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			k = 1, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			k = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			k = 3, cp = c & 0x07;
		else
			return 0;
		if (n - i <= k)
			return 0;
		for (j = 1; j <= k; j++)
		{
			if ((p[i + j] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (p[i + j] & 0x3f);
		}
		if ((k == 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
			(k == 3 && (cp < 0x10000 || cp > 0x10ffff)))
			return 0;
		i += k + 1;
	}
	return 1;
}

void
bc_cql_put_hex(bc_cqlsink *out, const uint8_t *p, size_t n, int prefix)
{
	static const char hexd[] = "0123456789abcdef";
	size_t		i;

	if (prefix)
		bc_cqlsink_put(out, "0x", 2);
	for (i = 0; i < n; i++)
	{
		bc_cqlsink_putc(out, hexd[p[i] >> 4]);
		bc_cqlsink_putc(out, hexd[p[i] & 15]);
	}
}

static double
fp_of(bc_cqlkind kind, const uint8_t *p)
{
	if (kind == BC_CQL_FLOAT)
	{
		uint32_t	u = BC_CQL_BE32(p);
		float		f;

		memcpy(&f, &u, 4);
		return (double) f;
	}
	else
	{
		uint64_t	u = be64(p);
		double		d;

		memcpy(&d, &u, 8);
		return d;
	}
}

/* ---- dates and times ------------------------------------------------------ */

/* proleptic Gregorian date of days since 1970-01-01 (H. Hinnant) */
static void
civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
	int64_t		era,
				doe,
				yoe,
				doy,
				mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (int) (doy - (153 * mp + 2) / 5 + 1);
	*m = (int) (mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

static void
put_timestamp(bc_cqlsink *out, int64_t ms)
{
	/* floor division, without the product that overflows near INT64_MIN */
	int64_t		rem = ms % 86400000,
				days = ms / 86400000 - (rem < 0),
				y;
	int			m,
				d;
	char		buf[64];

	if (rem < 0)
		rem += 86400000;
	civil_from_days(days, &y, &m, &d);
	if (y < 1 || y > 9999)
		snprintf(buf, sizeof(buf), "%lld", (long long) ms);
	else
		snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", (int) y, m, d,
				 (int) (rem / 3600000), (int) (rem / 60000 % 60), (int) (rem / 1000 % 60),
				 (int) (rem % 1000));
	bc_cqlsink_puts(out, buf);
}

static void
put_date(bc_cqlsink *out, uint32_t u)
{
	int64_t		y;
	int			m,
				d;
	char		buf[48];

	civil_from_days((int64_t) u - INT64_C(2147483648), &y, &m, &d);
	if (y > 9999)
		snprintf(buf, sizeof(buf), "+%lld-%02d-%02d", (long long) y, m, d);
	else if (y < 0)
		snprintf(buf, sizeof(buf), "-%04lld-%02d-%02d", (long long) -y, m, d);
	else
		snprintf(buf, sizeof(buf), "%04d-%02d-%02d", (int) y, m, d);
	bc_cqlsink_puts(out, buf);
}

/* ---- duration: three zig-zag vints (months, days, nanoseconds) ---------- */

/* VIntCoding.readVInt; 0 when p[*pos ..] ends inside the number */
static int
read_vint(const uint8_t *p, size_t len, size_t *pos, int64_t *v)
{
	uint8_t		first;
	int			extra = 0,
				i;
	uint64_t	u;

	if (*pos >= len)
		return 0;
	first = p[(*pos)++];
	while (extra < 8 && (first & (0x80 >> extra)))
		extra++;
	if ((size_t) extra > len - *pos)
		return 0;
	u = extra == 8 ? 0 : (uint64_t) (first & (0xff >> extra));
	for (i = 0; i < extra; i++)
		u = u << 8 | p[(*pos)++];
	*v = (int64_t) (u >> 1) ^ -(int64_t) (u & 1);
	return 1;
}

static bc_status
put_duration(bc_cqlsink *out, const uint8_t *p, size_t len, bc_cqlerr *err)
{
	size_t		pos = 0;
	int64_t		months,
				days,
				nanos;
	uint64_t	n;
	char		buf[96];
	size_t		k = 0;
	static const struct
	{
		uint64_t	div;
		const char *unit;
	}			units[] = {
		{UINT64_C(3600000000000), "h"}, {UINT64_C(60000000000), "m"},
		{UINT64_C(1000000000), "s"}, {UINT64_C(1000000), "ms"}, {UINT64_C(1000), "us"},
		{UINT64_C(1), "ns"}
	};
	int			i;

	if (!read_vint(p, len, &pos, &months) || !read_vint(p, len, &pos, &days) ||
		!read_vint(p, len, &pos, &nanos))
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "DurationType: %lu bytes end inside its three vints",
							 (unsigned long) len);
	if (pos != len)
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "DurationType: %lu bytes after its three vints",
							 (unsigned long) (len - pos));
	if (months < INT32_MIN || months > INT32_MAX || days < INT32_MIN || days > INT32_MAX)
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "DurationType: months or days past 32 bits");
	if ((months < 0 || days < 0 || nanos < 0) && (months > 0 || days > 0 || nanos > 0))
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE,
							 "DurationType: months, days and nanoseconds of different signs");
	if (months < 0 || days < 0 || nanos < 0)
		buf[k++] = '-';
	n = (uint64_t) (months < 0 ? -months : months);
	if (n >= 12)
		k += (size_t) snprintf(buf + k, sizeof(buf) - k, "%lluy", (unsigned long long) (n / 12));
	if (n % 12 != 0)
		k += (size_t) snprintf(buf + k, sizeof(buf) - k, "%llumo", (unsigned long long) (n % 12));
	if (days != 0)
		k += (size_t) snprintf(buf + k, sizeof(buf) - k, "%lldd", (long long) (days < 0 ? -days : days));
	n = nanos < 0 ? (uint64_t) 0 - (uint64_t) nanos : (uint64_t) nanos;
	for (i = 0; i < 6; i++)
		if (n >= units[i].div)
		{
			k += (size_t) snprintf(buf + k, sizeof(buf) - k, "%llu%s",
								   (unsigned long long) (n / units[i].div), units[i].unit);
			n %= units[i].div;
		}
	bc_cqlsink_put(out, buf, k);
	return BC_OK;
}

/* ---- inet ------------------------------------------------------------------ */

static void
put_inet(bc_cqlsink *out, const uint8_t *p, size_t len)
{
	char		buf[64];
	size_t		k = 0;
	int			i;
	static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

	if (len == 16 && memcmp(p, mapped, 12) == 0)
	{
		p += 12;
		len = 4;
	}
	if (len == 4)
		k = (size_t) snprintf(buf, sizeof(buf), "%u.%u.%u.%u", p[0], p[1], p[2], p[3]);
	else
		for (i = 0; i < 8; i++)
			k += (size_t) snprintf(buf + k, sizeof(buf) - k, i ? ":%x" : "%x",
								   (unsigned) BC_CQL_BE16(p + 2 * i));
	bc_cqlsink_put(out, buf, k);
}

static void
put_uuid(bc_cqlsink *out, const uint8_t *p)
{
	bc_cql_put_hex(out, p, 4, 0);
	bc_cqlsink_putc(out, '-');
	bc_cql_put_hex(out, p + 4, 2, 0);
	bc_cqlsink_putc(out, '-');
	bc_cql_put_hex(out, p + 6, 2, 0);
	bc_cqlsink_putc(out, '-');
	bc_cql_put_hex(out, p + 8, 2, 0);
	bc_cqlsink_putc(out, '-');
	bc_cql_put_hex(out, p + 10, 6, 0);
}

/* ---- the value's size, then its text -------------------------------------- */

static bc_status
check_size(bc_cqlkind kind, const uint8_t *p, size_t len, bc_cqlerr *err)
{
	size_t		want = 0;
	const char *name = bc_cqlkind_name(kind);

	if (len == 0)
		return allows_empty(kind) ? BC_OK :
			bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "%s: no bytes, and it has no empty value", name);
	switch (kind)
	{
		case BC_CQL_BYTE:
		case BC_CQL_BOOLEAN:
			want = 1;
			break;
		case BC_CQL_SHORT:
			want = 2;
			break;
		case BC_CQL_INT32:
		case BC_CQL_FLOAT:
		case BC_CQL_DATE:
			want = 4;
			break;
		case BC_CQL_LONG:
		case BC_CQL_COUNTER:
		case BC_CQL_DOUBLE:
		case BC_CQL_TIMESTAMP:
		case BC_CQL_TIME:
			want = 8;
			break;
		case BC_CQL_UUID:
		case BC_CQL_TIMEUUID:
		case BC_CQL_LEXICALUUID:
			want = 16;
			break;
		case BC_CQL_INET:
			if (len != 4 && len != 16)
				return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "%s: %lu bytes, an address has 4 or 16",
									 name, (unsigned long) len);
			return BC_OK;
		case BC_CQL_DECIMAL:
			if (len <= 4)
				return bc_cqlerr_set(err, BC_ERR_CQL_VALUE,
									 "%s: %lu bytes, a scale and an unscaled value take at least 5",
									 name, (unsigned long) len);
			return BC_OK;
		case BC_CQL_UTF8:
			if (!bc_cql_utf8_valid(p, len))
				return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "%s: not valid UTF-8", name);
			return BC_OK;
		case BC_CQL_ASCII:
			{
				size_t		i;

				for (i = 0; i < len; i++)
					if (p[i] >= 0x80)
						return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "%s: byte %lu is 0x%02x, not ASCII",
											 name, (unsigned long) i, p[i]);
				return BC_OK;
			}
		default:
			return BC_OK;
	}
	if (len != want)
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "%s: %lu bytes, expected %lu%s", name,
							 (unsigned long) len, (unsigned long) want,
							 allows_empty(kind) ? " or 0" : "");
	if (kind == BC_CQL_TIMEUUID && (p[6] & 0xf0) != 0x10)
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "%s: UUID version %d, a TimeUUID is version 1",
							 name, p[6] >> 4);
	if (kind == BC_CQL_TIME && (int64_t) be64(p) >= BC_CQL_NS_PER_DAY)
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "%s: %lld nanoseconds, past a day", name,
							 (long long) (int64_t) be64(p));
	if (kind == BC_CQL_TIME && (int64_t) be64(p) < 0)
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "%s: %lld nanoseconds, negative", name,
							 (long long) (int64_t) be64(p));
	return BC_OK;
}

bc_status
bc_cql_scalar_text(bc_cqlkind kind, const uint8_t *p, size_t len, uint32_t *work,
				   bc_cqlsink *out, bc_cqlerr *err)
{
	char		buf[48];
	bc_status	st = check_size(kind, p, len, err);

	if (st != BC_OK)
		return st;
	if (len == 0)
	{
		if (kind == BC_CQL_BLOB)
			bc_cqlsink_put(out, "0x", 2);
		return BC_OK;
	}
	/* a sink of no buffer only checks the value: no digits to work out */
	if (out->p == NULL && (kind == BC_CQL_VARINT || kind == BC_CQL_DECIMAL))
		return BC_OK;
	switch (kind)
	{
		case BC_CQL_UTF8:
		case BC_CQL_ASCII:
			bc_cqlsink_put(out, (const char *) p, len);
			break;
		case BC_CQL_BLOB:
			bc_cql_put_hex(out, p, len, 1);
			break;
		case BC_CQL_BYTE:
			snprintf(buf, sizeof(buf), "%d", (int) (int8_t) p[0]);
			bc_cqlsink_puts(out, buf);
			break;
		case BC_CQL_SHORT:
			snprintf(buf, sizeof(buf), "%d", (int) (int16_t) BC_CQL_BE16(p));
			bc_cqlsink_puts(out, buf);
			break;
		case BC_CQL_INT32:
			snprintf(buf, sizeof(buf), "%ld", (long) (int32_t) BC_CQL_BE32(p));
			bc_cqlsink_puts(out, buf);
			break;
		case BC_CQL_LONG:
		case BC_CQL_COUNTER:
			snprintf(buf, sizeof(buf), "%lld", (long long) (int64_t) be64(p));
			bc_cqlsink_puts(out, buf);
			break;
		case BC_CQL_BOOLEAN:
			bc_cqlsink_puts(out, p[0] != 0 ? "true" : "false");
			break;
		case BC_CQL_FLOAT:
		case BC_CQL_DOUBLE:
			bc_cql_put_java_fp(out, fp_of(kind, p), kind == BC_CQL_FLOAT);
			break;
		case BC_CQL_UUID:
		case BC_CQL_TIMEUUID:
		case BC_CQL_LEXICALUUID:
			put_uuid(out, p);
			break;
		case BC_CQL_TIMESTAMP:
			put_timestamp(out, (int64_t) be64(p));
			break;
		case BC_CQL_DATE:
			put_date(out, BC_CQL_BE32(p));
			break;
		case BC_CQL_TIME:
			{
				int64_t		ns = (int64_t) be64(p);

				snprintf(buf, sizeof(buf), "%02d:%02d:%02d.%09ld", (int) (ns / INT64_C(3600000000000)),
						 (int) (ns / INT64_C(60000000000) % 60), (int) (ns / 1000000000 % 60),
						 (long) (ns % 1000000000));
				bc_cqlsink_puts(out, buf);
				break;
			}
		case BC_CQL_INET:
			put_inet(out, p, len);
			break;
		case BC_CQL_VARINT:
			bc_cql_put_varint(out, p, len, work);
			break;
		case BC_CQL_DECIMAL:
			bc_cql_put_decimal(out, (int32_t) BC_CQL_BE32(p), p + 4, len - 4, work);
			break;
		case BC_CQL_DURATION:
			return put_duration(out, p, len, err);
		default:
			return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "%s is not a scalar type", bc_cqlkind_name(kind));
	}
	return BC_OK;
}

/*
 * JSON: numbers for the integer types and varint (jsonb's numeric holds
 * them exactly; a varint of more than 54000 bytes, past numeric's 131072
 * digits, is a string), for finite float and double but -0.0; true/false;
 * null for an empty value of a non-text type; a string of the text for
 * everything else (decimal too: 1.50, 1.5 and 1.500E+2 are different
 * decimals that a JSON number would fold into one).
 */
bc_status
bc_cql_scalar_json(bc_cqlkind kind, const uint8_t *p, size_t len, uint32_t *work,
				   bc_cqlsink *out, bc_cqlerr *err)
{
	bc_status	st = check_size(kind, p, len, err);
	int			number = 0;

	if (st != BC_OK)
		return st;
	if (len == 0 && kind != BC_CQL_UTF8 && kind != BC_CQL_ASCII && kind != BC_CQL_BLOB)
	{
		bc_cqlsink_puts(out, "null");
		return BC_OK;
	}
	switch (kind)
	{
		case BC_CQL_BYTE:
		case BC_CQL_SHORT:
		case BC_CQL_INT32:
		case BC_CQL_LONG:
		case BC_CQL_COUNTER:
		case BC_CQL_BOOLEAN:
			number = 1;
			break;
		case BC_CQL_VARINT:
			number = len <= 54000;
			break;
		case BC_CQL_FLOAT:
		case BC_CQL_DOUBLE:
			{
				double		v = fp_of(kind, p);

				number = isfinite(v) && !(v == 0 && signbit(v));
				break;
			}
		default:
			break;
	}
	if (number)
		return bc_cql_scalar_text(kind, p, len, work, out, err);
	bc_cqlsink_putc(out, '"');
	bc_cqlsink_push(out, BC_CQLESC_JSON);
	st = bc_cql_scalar_text(kind, p, len, work, out, err);
	bc_cqlsink_pop(out);
	bc_cqlsink_putc(out, '"');
	return st;
}
