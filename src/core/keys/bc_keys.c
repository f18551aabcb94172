/*
 * bc_keys.c - partition key serialization (the CQL types' serializers,
 * Int32Serializer .. DecimalSerializer, and CompositeType): the bytes
 * Cassandra hashes for a partition key value of each CQL type, and the
 * framing of a multi-column (composite) partition key.
 *
 * Fixed-width values are written big-endian byte by byte, so the host's
 * byte order does not matter.  float and double are written as their raw
 * IEEE-754 bits (-0.0 and NaN payloads kept), as Java's
 * floatToRawIntBits / doubleToRawLongBits give them.
 *
 * varint and decimal, produced from their decimal text, are
 * bc_keys_number.c's.
 *
 * Nothing here allocates; all arithmetic that could overflow is done on
 * unsigned types.
 */
#include <string.h>

#include "bc_endian.h"
#include "bc_keys.h"
#include "bc_status.h"

/* The raw-bits serializers copy float/double into 32/64-bit integers. */
typedef char bc_float_is_4_bytes[(sizeof(float) == 4) ? 1 : -1];
typedef char bc_double_is_8_bytes[(sizeof(double) == 8) ? 1 : -1];

/* Largest composite key and component (unsigned 16-bit lengths). */
#define BC_MAX_KEY_BYTES 65535

/* ------------------------------------------------------------------------
 * Fixed-width types
 * ------------------------------------------------------------------------ */

size_t
bc_ser_int8(int8_t v, uint8_t out[1])
{
	out[0] = (uint8_t) v;
	return 1;
}

size_t
bc_ser_int16(int16_t v, uint8_t out[2])
{
	uint16_t	u = (uint16_t) v;

	out[0] = (uint8_t) (u >> 8);
	out[1] = (uint8_t) u;
	return 2;
}

size_t
bc_ser_int32(int32_t v, uint8_t out[4])
{
	bc_put_be32(out, (uint32_t) v);
	return 4;
}

size_t
bc_ser_int64(int64_t v, uint8_t out[8])
{
	bc_put_be64(out, (uint64_t) v);
	return 8;
}

size_t
bc_ser_bool(int v, uint8_t out[1])
{
	out[0] = v ? 1 : 0;
	return 1;
}

size_t
bc_ser_float(float v, uint8_t out[4])
{
	uint32_t	bits;

	memcpy(&bits, &v, sizeof(bits));
	bc_put_be32(out, bits);
	return 4;
}

size_t
bc_ser_double(double v, uint8_t out[8])
{
	uint64_t	bits;

	memcpy(&bits, &v, sizeof(bits));
	bc_put_be64(out, bits);
	return 8;
}

size_t
bc_ser_timestamp_ms(int64_t ms_since_1970, uint8_t out[8])
{
	return bc_ser_int64(ms_since_1970, out);
}

/* SimpleDateSerializer: unsigned day number with 1970-01-01 at 2^31. */
size_t
bc_ser_date_days(int32_t days_since_1970, uint8_t out[4])
{
	bc_put_be32(out, (uint32_t) days_since_1970 + UINT32_C(0x80000000));
	return 4;
}

size_t
bc_ser_time_ns(int64_t ns_since_midnight, uint8_t out[8])
{
	return bc_ser_int64(ns_since_midnight, out);
}

size_t
bc_ser_uuid(const uint8_t uuid[16], uint8_t out[16])
{
	memmove(out, uuid, 16);
	return 16;
}

/*
 * inet: Java's InetAddress turns an IPv4-mapped IPv6 address
 * (::ffff:a.b.c.d) into an Inet4Address, whose serialization is 4 bytes.
 * IPv4-compatible addresses (::a.b.c.d) stay IPv6.
 */
size_t
bc_ser_inet(const uint8_t *addr, size_t addrlen, uint8_t out[16])
{
	static const uint8_t mapped_prefix[12] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
	};

	if (addrlen == 4)
	{
		memmove(out, addr, 4);
		return 4;
	}
	if (addrlen == 16)
	{
		if (memcmp(addr, mapped_prefix, sizeof(mapped_prefix)) == 0)
		{
			memmove(out, addr + 12, 4);
			return 4;
		}
		memmove(out, addr, 16);
		return 16;
	}
	return 0;
}

/* ------------------------------------------------------------------------
 * Dates
 * ------------------------------------------------------------------------ */

/* int64_t of a uint64_t, modulo 2^64, without implementation-defined
 * conversion. */
static int64_t
to_signed64(uint64_t u)
{
	if (u <= (uint64_t) INT64_MAX)
		return (int64_t) u;
	return -(int64_t) (~u) - 1;
}

/* floor(a / b) and a - b * floor(a / b), for b > 0 */
static int64_t
floor_div(int64_t a, int64_t b)
{
	int64_t		q = a / b;

	if (a % b < 0)
		q--;
	return q;
}

static int64_t
floor_mod(int64_t a, int64_t b)
{
	int64_t		r = a % b;

	if (r < 0)
		r += b;
	return r;
}

/*
 * Days since 1970-01-01 of a proleptic Gregorian date (year 0 = 1 BC,
 * negative years allowed), after H. Hinnant's days_from_civil.
 *
 * Months outside 1..12 roll over into neighbouring years and days outside
 * the month roll over linearly (day 0 = the last day of the previous
 * month), like mktime().  The result is exact whenever it fits in int64;
 * for absurd years it wraps modulo 2^64 instead of overflowing.
 */
int64_t
bc_days_from_civil(int64_t year, int month, int day)
{
	int64_t		m0 = (int64_t) month - 1;
	int64_t		mm = floor_mod(m0, 12) + 1; /* 1..12 */
	int64_t		y;
	int64_t		era;
	int64_t		yoe;
	int64_t		doy;
	int64_t		doe;
	uint64_t	uy;

	/* year + carried months - (Jan/Feb belong to the previous year) */
	uy = (uint64_t) year + (uint64_t) floor_div(m0, 12);
	if (mm <= 2)
		uy -= 1;
	y = to_signed64(uy);

	era = floor_div(y, 400);
	yoe = floor_mod(y, 400);	/* [0, 399] */
	doy = (153 * (mm > 2 ? mm - 3 : mm + 9) + 2) / 5 + ((int64_t) day - 1);
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return to_signed64((uint64_t) era * UINT64_C(146097) + (uint64_t) doe -
					   UINT64_C(719468));
}

/* ------------------------------------------------------------------------
 * Composite keys (CompositeType.build)
 * ------------------------------------------------------------------------ */

/*
 * Bytes of the framed key: sum of 2 + len + 1 per component.  0 when
 * ncomp < 1; SIZE_MAX if the sum does not fit in size_t.
 */
size_t
bc_composite_size(const size_t *lens, int ncomp)
{
	size_t		total = 0;
	int			i;

	for (i = 0; i < ncomp; i++)
	{
		if (lens[i] > SIZE_MAX - 3 || total > SIZE_MAX - 3 - lens[i])
			return SIZE_MAX;
		total += lens[i] + 3;
	}
	return total;
}

/*
 * Frame ncomp components (ncomp must be >= 1; a key with no component is
 * no key, and as there is no status for a bad argument, ncomp < 1 gives
 * BC_ERR_BUFFER).  Each component and the whole key must be at most 65535
 * bytes (BC_ERR_KEY_TOO_LONG), and the key must fit in outcap bytes
 * (BC_ERR_BUFFER).  Nothing is written on error.  A component of length 0
 * may have a NULL pointer.
 */
bc_status
bc_ser_composite(const uint8_t *const *comps, const size_t *lens,
				 int ncomp, uint8_t *out, size_t outcap, size_t *outlen)
{
	size_t		total = 0;
	size_t		pos = 0;
	int			i;

	if (ncomp < 1)
		return BC_ERR_BUFFER;

	for (i = 0; i < ncomp; i++)
	{
		if (lens[i] > BC_MAX_KEY_BYTES)
			return BC_ERR_KEY_TOO_LONG;
		total += lens[i] + 3;
		if (total > BC_MAX_KEY_BYTES)
			return BC_ERR_KEY_TOO_LONG;
	}
	if (total > outcap)
		return BC_ERR_BUFFER;

	for (i = 0; i < ncomp; i++)
	{
		out[pos++] = (uint8_t) (lens[i] >> 8);
		out[pos++] = (uint8_t) lens[i];
		if (lens[i] > 0)
			memcpy(out + pos, comps[i], lens[i]);
		pos += lens[i];
		out[pos++] = 0x00;
	}
	*outlen = pos;
	return BC_OK;
}
