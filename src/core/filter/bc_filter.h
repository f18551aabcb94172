/*
 * bc_filter.h - a filter's bitset and what is done with it (bc_filter.c):
 * the bit indexes of a key's hash in both hash orders (BloomFilter.indexes),
 * bit addressing (OffHeapBitSet), add, test, union, intersection, popcount
 * and the estimates derived from the fill ratio.
 */
#ifndef BC_FILTER_H
#define BC_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "bc_status.h"

/* The hash order of an SSTable version (bc_version_lookup, bc_codec.h). */
typedef enum bc_order
{
	BC_ORDER_NEW = 0,			/* ma and later: base h2, step h1 */
	BC_ORDER_OLD = 1			/* ia .. lb: base h1, step h2 */
} bc_order;

/*
 * Accepted hash counts.  Cassandra's sizing only ever produces 1..14.  A
 * k <= 0 makes Cassandra answer "present" for every key (its loop never
 * runs) and k > 21 cannot be queried by Cassandra (its lookup keeps indexes
 * in a 21-entry scratch array), so neither is a usable Filter.db.
 */
#define BC_MIN_HASH_COUNT 1
#define BC_MAX_HASH_COUNT 21

/* Largest word_count Cassandra can write (16 GiB bitset). */
#define BC_MAX_WORDS_CASSANDRA INT64_C(2147483647)

/*
 * A filter as the core sees it: header fields plus a bitset of
 * 8 * word_count bytes in raw layout (bit i = byte i >> 3, mask 1 << (i & 7)).
 * The bits are not owned.
 */
typedef struct bc_filter
{
	int32_t		hash_count;
	int64_t		word_count;
	bc_order	order;
	uint8_t    *bits;
	/* set by bc_filter_init: constant for a division-free modulo */
	uint64_t	mod_hi;
	uint64_t	mod_lo;
} bc_filter;

/*
 * Initialize a view (every bc_filter must be set up this way, or with
 * bc_filter_prepare after filling the fields): the index arithmetic uses a
 * precomputed reciprocal of the capacity instead of a 64-bit division.
 */
void		bc_filter_init(bc_filter *f, int32_t hash_count, int64_t word_count,
						   bc_order order, uint8_t *bits);
void		bc_filter_prepare(bc_filter *f);	/* for the core and its tests */

static inline uint64_t
bc_capacity(const bc_filter *f)
{
	return (uint64_t) f->word_count * 64;
}

/* Bit indexes for (h1, h2); capacity need not be a multiple of 64 here.
 * out receives k values in [0, capacity). capacity must be > 0.  The
 * reference the fast path is checked against (for the core and its
 * tests). */
void		bc_indexes(int64_t h1, int64_t h2, int k, int64_t capacity,
					   bc_order order, int64_t *out);

/* The k bit indexes of (h1, h2) in an initialized filter (its fast path;
 * equal to bc_indexes with capacity 64 * word_count). */
void		bc_filter_indexes(const bc_filter *f, int64_t h1, int64_t h2, uint64_t *out);

void		bc_filter_add_hash(bc_filter *f, int64_t h1, int64_t h2);

/* Keys per batch of the two functions below: the cache misses of this
 * many keys are in flight together (test/bench/core_bench.c measures the
 * gain per batch size). */
#define BC_FILTER_BATCH 16

/* Add n hashes (h[2*i] = h1, h[2*i+1] = h2): indexes of a batch are
 * computed and their cache lines prefetched before the bits are set. */
void		bc_filter_add_hashes(bc_filter *f, const int64_t *h, size_t n);
int			bc_filter_test_hash(const bc_filter *f, int64_t h1, int64_t h2);

/* Test n hashes (laid out as for bc_filter_add_hashes): out[i] is
 * bc_filter_test_hash of the i-th, 0 or 1.  Indexes of a batch are
 * computed and their cache lines prefetched before the bits are read.
 * Calls BC_TICK every 1,024 keys. */
void		bc_filter_test_hashes(const bc_filter *f, const int64_t *h, size_t n,
								  uint8_t *out);
int			bc_filter_test(const bc_filter *f, const void *key, size_t len);

/* Add a key: bc_filter_add_hash of its bc_murmur3 (for the core and its
 * tests; the extension hashes keys itself and adds the hashes). */
void		bc_filter_add(bc_filter *f, const void *key, size_t len);

/* dst |= src, dst &= src; same hash_count, word_count and order or
 * BC_ERR_SHAPE_MISMATCH (dst untouched). */
bc_status	bc_filter_union(bc_filter *dst, const bc_filter *src);
bc_status	bc_filter_intersect(bc_filter *dst, const bc_filter *src);
int			bc_filter_same_shape(const bc_filter *a, const bc_filter *b);

uint64_t	bc_popcount(const uint8_t *bytes, size_t len);
uint64_t	bc_filter_popcount(const bc_filter *f);	/* for the core and its tests */

/* (bits_set / capacity) ^ k */
double		bc_fpr_from_fill(uint64_t bits_set, uint64_t capacity, int k);

/* (1 - e^(-k n / capacity)) ^ k */
double		bc_fpr_theoretical(uint64_t n, uint64_t capacity, int k);

/* -(capacity / k) * ln(1 - bits_set / capacity); +inf when saturated. */
double		bc_cardinality_from_fill(uint64_t bits_set, uint64_t capacity, int k);

#endif							/* BC_FILTER_H */
