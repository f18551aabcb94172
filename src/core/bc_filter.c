/*
 * bc_filter.c - bit indexes (double hashing, both hash orders) and the
 * operations on a filter's bitset: add, test, union, intersection,
 * popcount, and the estimates derived from the fill ratio.
 *
 * Index derivation follows Cassandra's BloomFilter.setIndexes (spec §4):
 * Java's truncating remainder of a wrapping signed 64-bit sum, then abs.
 */
#include <math.h>
#include <string.h>

#include "bloomcass_core.h"

void
bc_indexes(int64_t h1, int64_t h2, int k, int64_t capacity,
		   bc_order order, int64_t *out)
{
	uint64_t	base = (uint64_t) (order == BC_ORDER_OLD ? h1 : h2);
	uint64_t	step = (uint64_t) (order == BC_ORDER_OLD ? h2 : h1);
	int			i;

	for (i = 0; i < k; i++)
	{
		/* C99 % truncates like Java's; |r| < capacity so negation is safe */
		int64_t		r = (int64_t) base % capacity;

		out[i] = r < 0 ? -r : r;
		base += step;
	}
}

/*
 * The filter's bits: i in [0, capacity), bit i is byte i >> 3, mask
 * 1 << (i & 7).  Indexes are computed inline (no scratch array) so that a
 * hash count is never bounded by a buffer.
 */
void
bc_filter_add_hash(bc_filter *f, int64_t h1, int64_t h2)
{
	int64_t		cap = (int64_t) bc_capacity(f);
	uint64_t	base = (uint64_t) (f->order == BC_ORDER_OLD ? h1 : h2);
	uint64_t	step = (uint64_t) (f->order == BC_ORDER_OLD ? h2 : h1);
	int			i;

	for (i = 0; i < f->hash_count; i++)
	{
		int64_t		r = (int64_t) base % cap;
		uint64_t	idx = (uint64_t) (r < 0 ? -r : r);

		f->bits[idx >> 3] |= (uint8_t) (1u << (idx & 7));
		base += step;
	}
}

int
bc_filter_test_hash(const bc_filter *f, int64_t h1, int64_t h2)
{
	int64_t		cap = (int64_t) bc_capacity(f);
	uint64_t	base = (uint64_t) (f->order == BC_ORDER_OLD ? h1 : h2);
	uint64_t	step = (uint64_t) (f->order == BC_ORDER_OLD ? h2 : h1);
	int			i;

	for (i = 0; i < f->hash_count; i++)
	{
		int64_t		r = (int64_t) base % cap;
		uint64_t	idx = (uint64_t) (r < 0 ? -r : r);

		if ((f->bits[idx >> 3] & (1u << (idx & 7))) == 0)
			return 0;
		base += step;
	}
	return 1;
}

void
bc_filter_add(bc_filter *f, const void *key, size_t len)
{
	int64_t		h1,
				h2;

	bc_murmur3(key, len, &h1, &h2);
	bc_filter_add_hash(f, h1, h2);
}

int
bc_filter_test(const bc_filter *f, const void *key, size_t len)
{
	int64_t		h1,
				h2;

	bc_murmur3(key, len, &h1, &h2);
	return bc_filter_test_hash(f, h1, h2);
}

int
bc_filter_same_shape(const bc_filter *a, const bc_filter *b)
{
	return a->hash_count == b->hash_count &&
		a->word_count == b->word_count &&
		a->order == b->order;
}

bc_status
bc_filter_union(bc_filter *dst, const bc_filter *src)
{
	size_t		n,
				i;

	if (!bc_filter_same_shape(dst, src))
		return BC_ERR_SHAPE_MISMATCH;
	n = (size_t) dst->word_count * 8;
	for (i = 0; i < n; i++)
		dst->bits[i] |= src->bits[i];
	return BC_OK;
}

bc_status
bc_filter_intersect(bc_filter *dst, const bc_filter *src)
{
	size_t		n,
				i;

	if (!bc_filter_same_shape(dst, src))
		return BC_ERR_SHAPE_MISMATCH;
	n = (size_t) dst->word_count * 8;
	for (i = 0; i < n; i++)
		dst->bits[i] &= src->bits[i];
	return BC_OK;
}

static inline unsigned
popcount64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
	return (unsigned) __builtin_popcountll(x);
#else
	x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
	x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	return (unsigned) ((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}

uint64_t
bc_popcount(const uint8_t *bytes, size_t len)
{
	uint64_t	total = 0;
	size_t		i = 0;

	for (; i + 8 <= len; i += 8)
	{
		uint64_t	w;

		memcpy(&w, bytes + i, 8);
		total += popcount64(w);
	}
	for (; i < len; i++)
		total += popcount64(bytes[i]);
	return total;
}

uint64_t
bc_filter_popcount(const bc_filter *f)
{
	return bc_popcount(f->bits, (size_t) f->word_count * 8);
}

double
bc_fpr_from_fill(uint64_t bits_set, uint64_t capacity, int k)
{
	if (capacity == 0)
		return 1.0;
	return pow((double) bits_set / (double) capacity, (double) k);
}

double
bc_fpr_theoretical(uint64_t n, uint64_t capacity, int k)
{
	if (capacity == 0)
		return 1.0;
	return pow(-expm1(-(double) k * (double) n / (double) capacity), (double) k);
}

double
bc_cardinality_from_fill(uint64_t bits_set, uint64_t capacity, int k)
{
	if (capacity == 0 || k <= 0)
		return 0.0;
	if (bits_set >= capacity)
		return HUGE_VAL;
	return -((double) capacity / (double) k) *
		log1p(-(double) bits_set / (double) capacity);
}
