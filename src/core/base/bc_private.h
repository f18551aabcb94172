/*
 * bc_private.h - helpers shared by files of the core only; neither the
 * extension nor bloomcass-load includes this header.
 */
#ifndef BC_PRIVATE_H
#define BC_PRIVATE_H

#include <stdint.h>

/*
 * Cassandra's unsigned vint (VIntCoding): the number of leading one bits of
 * the first byte is the number of extra bytes (0 to 8), which follow
 * big-endian after the first byte's remaining bits.  Read by bc_index.c
 * and bc_statistics.c.
 */
static inline int
bc_uvint_extra(uint8_t first)
{
	int			extra = 0;

	while (extra < 8 && (first & (0x80 >> extra)))
		extra++;
	return extra;
}

/* the value of a vint whose first byte is p[0], extra = bc_uvint_extra(p[0]) */
static inline uint64_t
bc_uvint_decode(const uint8_t *p, int extra)
{
	uint64_t	v = extra == 8 ? 0 : (uint64_t) (p[0] & (0xff >> (extra + 1)));
	int			i;

	for (i = 1; i <= extra; i++)
		v = (v << 8) | p[i];
	return v;
}

#endif							/* BC_PRIVATE_H */
