/*
 * bc_keys.h - partition key serialization (bc_keys.c): the bytes Cassandra
 * hashes for a partition key value of each CQL type (the types'
 * serializers, Int32Serializer .. DecimalSerializer) and the framing of a
 * composite partition key (CompositeType.build).
 *
 * Fixed-width serializers write into out and return the byte count.
 * Variable-width ones take the output capacity and return a status with
 * *outlen set on success.
 */
#ifndef BC_KEYS_H
#define BC_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "bc_status.h"

size_t		bc_ser_int8(int8_t v, uint8_t out[1]);	/* tinyint */
size_t		bc_ser_int16(int16_t v, uint8_t out[2]);	/* smallint */
size_t		bc_ser_int32(int32_t v, uint8_t out[4]);	/* int */
size_t		bc_ser_int64(int64_t v, uint8_t out[8]);	/* bigint, counter */
size_t		bc_ser_bool(int v, uint8_t out[1]);	/* boolean */
size_t		bc_ser_float(float v, uint8_t out[4]);	/* float: raw bits */
size_t		bc_ser_double(double v, uint8_t out[8]);	/* double: raw bits */
size_t		bc_ser_timestamp_ms(int64_t ms_since_1970, uint8_t out[8]);
size_t		bc_ser_date_days(int32_t days_since_1970, uint8_t out[4]);
size_t		bc_ser_time_ns(int64_t ns_since_midnight, uint8_t out[8]);
size_t		bc_ser_uuid(const uint8_t uuid[16], uint8_t out[16]);

/* inet: 4 or 16 address bytes in network order.  An IPv4-mapped IPv6
 * address (::ffff:a.b.c.d) becomes 4 bytes, as Cassandra's
 * InetAddress.getByName gives.  Returns 0 for another length. */
size_t		bc_ser_inet(const uint8_t *addr, size_t addrlen, uint8_t out[16]);

/* Days since 1970-01-01 of a proleptic Gregorian date (for the core and
 * its tests). */
int64_t		bc_days_from_civil(int64_t year, int month, int day);

/*
 * varint from a decimal integer string ("-98765432109876543210", optional
 * leading sign, digits only): minimal big-endian two's complement, as
 * BigInteger.toByteArray().
 */
bc_status	bc_ser_varint_text(const char *text, size_t len,
							   uint8_t *out, size_t outcap, size_t *outlen);

/*
 * decimal from a decimal number string as Java's BigDecimal(String) reads
 * it ("1.50", "-0.000001", "1E+3"): BE32 scale, then the unscaled value as
 * varint.
 */
bc_status	bc_ser_decimal_text(const char *text, size_t len,
								uint8_t *out, size_t outcap, size_t *outlen);

/*
 * Composite partition key (CompositeType.build): for each component
 * BE16(len) || bytes || 0x00.  ncomp components given by pointers and
 * lengths.
 */
size_t		bc_composite_size(const size_t *lens, int ncomp);
bc_status	bc_ser_composite(const uint8_t *const *comps, const size_t *lens,
							 int ncomp, uint8_t *out, size_t outcap, size_t *outlen);

#endif							/* BC_KEYS_H */
