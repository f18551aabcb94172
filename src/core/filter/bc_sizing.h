/*
 * bc_sizing.h - a filter's shape for a key count and fp_chance exactly as
 * Cassandra chooses it (bc_sizing.c; FilterFactory.getFilter,
 * BloomCalculations).
 */
#ifndef BC_SIZING_H
#define BC_SIZING_H

#include <stdint.h>

#include "bc_status.h"

typedef struct bc_sizing
{
	int			hash_count;		/* k */
	int			buckets_per_element;	/* b */
	int64_t		num_bits;		/* n * b + 20 (wrapping like Java) */
	int64_t		word_count;		/* ceil(num_bits / 64), may exceed 2^31-1
								 * when BC_ERR_TOO_LARGE */
	int64_t		capacity_bits;	/* 64 * word_count */
	int64_t		filter_db_bytes;	/* 8 + 8 * word_count */
} bc_sizing;

/*
 * Cassandra's FilterFactory.getFilter(n, fp_chance).  Fills *out as far as
 * Cassandra gets before it fails: on BC_ERR_TOO_LARGE, hash_count, buckets,
 * num_bits and word_count are set.  fp_chance == 1 gives
 * BC_ERR_FP_ALWAYS_PRESENT (Cassandra writes no Filter.db).
 */
bc_status	bc_sizing_compute(int64_t n, double fp_chance, bc_sizing *out);

/* bc_sizing_compute, then BC_ERR_EXCEEDS_VALUE_LIMIT when the filter would
 * have more than BC_MAX_WORDS_VALUE (bc_codec.h) words. */
bc_status	bc_sizing_for_value(int64_t n, double fp_chance, bc_sizing *out);

/* k and buckets per element for (maxBuckets, fp) as
 * BloomCalculations.computeBloomSpec does (for the core and its tests). */
bc_status	bc_bloom_spec(int max_buckets, double fp_chance, int *k, int *buckets);

/* BloomCalculations.maxBucketsPerElement(n): the most buckets per key
 * Cassandra gives a filter of n keys (at most 20; 0: none).  When it is
 * too few for fp_chance, bc_sizing_compute says BC_ERR_N_TOO_MANY. */
int			bc_max_buckets_per_element(int64_t n);

/* The probability table (BloomCalculations.probs): FP[b][j] for
 * 0 <= b <= 20, 0 <= j <= b' (returns -1 outside the table). */
double		bc_fp_table(int buckets, int k);

#endif							/* BC_SIZING_H */
