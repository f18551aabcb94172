/*
 * bc_endian.h - big-endian reads and writes of 32- and 64-bit integers, the
 * byte order of Java's DataOutput (Filter.db headers, Statistics.db,
 * Index.db, Summary.db, Partitions.db, CompressionInfo.db) and of
 * PostgreSQL's binary COPY; and the little-endian reads of Summary.db's
 * off-heap region, written in the writing machine's order.
 */
#ifndef BC_ENDIAN_H
#define BC_ENDIAN_H

#include <stdint.h>

static inline uint32_t
bc_get_be32(const uint8_t *p)
{
	return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16) |
		((uint32_t) p[2] << 8) | (uint32_t) p[3];
}

static inline void
bc_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t) (v >> 24);
	p[1] = (uint8_t) (v >> 16);
	p[2] = (uint8_t) (v >> 8);
	p[3] = (uint8_t) v;
}

static inline void
bc_put_be64(uint8_t *p, uint64_t v)
{
	bc_put_be32(p, (uint32_t) (v >> 32));
	bc_put_be32(p + 4, (uint32_t) v);
}

static inline uint64_t
bc_get_be64(const uint8_t *p)
{
	return ((uint64_t) bc_get_be32(p) << 32) | bc_get_be32(p + 4);
}

/* little-endian: Summary.db's offsets and Index.db positions (ja and later) */
static inline uint32_t
bc_get_le32(const uint8_t *p)
{
	return (uint32_t) p[0] | ((uint32_t) p[1] << 8) |
		((uint32_t) p[2] << 16) | ((uint32_t) p[3] << 24);
}

static inline uint64_t
bc_get_le64(const uint8_t *p)
{
	return (uint64_t) bc_get_le32(p) | ((uint64_t) bc_get_le32(p + 4) << 32);
}

#endif							/* BC_ENDIAN_H */
