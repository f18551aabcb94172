/*
 * bc_hll_java.h - private to the estimator's files (bc_hll.c,
 * bc_hll_merge.c): stream-lib 2.5.2's small pieces with Java's arithmetic
 * (32-bit ints that wrap, shifts by their amount modulo 32, >>> on the
 * unsigned bits), so that every input, hostile ones included, gives what
 * the Java gives.
 */
#ifndef BC_HLL_JAVA_H
#define BC_HLL_JAVA_H

#include <math.h>
#include <stdint.h>

#include "bc_java.h"

/* Java's int << s and >>> s (s modulo 32) */
static inline int32_t
j_shl(int32_t x, int32_t s)
{
	return (int32_t) ((uint32_t) x << (s & 31));
}

static inline int32_t
j_ushr(int32_t x, int32_t s)
{
	return (int32_t) ((uint32_t) x >> (s & 31));
}

/* Integer.numberOfLeadingZeros */
static inline int
j_nlz(int32_t x)
{
	uint32_t	u = (uint32_t) x;
	int			n = 0;

	if (u == 0)
		return 32;
	while (!(u & 0x80000000u))
	{
		u <<= 1;
		n++;
	}
	return n;
}

/* (int) Math.pow(2, e) */
static inline int32_t
j_pow2(int32_t e)
{
	return bc_java_d2i(pow(2.0, (double) e));
}

/* HyperLogLogPlus.getSparseIndex */
static inline int32_t
hll_sparse_index(int32_t k)
{
	return (k & 1) ? j_ushr(k, 7) : j_ushr(k, 1);
}

/* HyperLogLogPlus.getIndex(k, p) of an estimator of sparse precision sp */
static inline int32_t
hll_index(int32_t k, int32_t p, int32_t sp)
{
	return j_ushr(hll_sparse_index(k), sp - p);
}

/* HyperLogLogPlus.decodeRunLength of an estimator of precisions p, sp */
static inline int32_t
hll_run_length(int32_t k, int32_t p, int32_t sp)
{
	if (k & 1)
		return (j_ushr(k, 1) & 63) ^ 63;
	return j_nlz(j_shl(k, p + (31 - sp))) + 1;
}

/* RegisterSet.get */
static inline int32_t
hll_get(const int32_t *M, int32_t position)
{
	int32_t		bucket = position / 6;
	int32_t		shift = 5 * (position - bucket * 6);

	return j_ushr(M[bucket] & j_shl(0x1f, shift), shift);
}

/*
 * RegisterSet.updateIfGreater (bounds checked by the caller): a value of
 * more than five bits spills into the next register, as in stream-lib.
 */
static inline void
hll_update(int32_t *M, int32_t position, int32_t value)
{
	int32_t		bucket = position / 6;
	int32_t		shift = 5 * (position - bucket * 6);
	int32_t		mask = j_shl(0x1f, shift);
	int64_t		cur = (int64_t) (M[bucket] & mask);
	int64_t		nv = (int64_t) j_shl(value, shift);

	if (cur < nv)
		M[bucket] = (int32_t) ((uint32_t) (M[bucket] & ~mask) | (uint32_t) nv);
}

#endif							/* BC_HLL_JAVA_H */
