/*
 * bc_filter.c - bit indexes (double hashing, both hash orders) and the
 * operations on a filter's bitset: add, test, union, intersection,
 * popcount, and the estimates derived from the fill ratio.
 *
 * Index derivation follows Cassandra's BloomFilter.indexes / setIndexes:
 * Java's truncating remainder of a wrapping signed 64-bit sum, then abs.
 */
#include <math.h>
#include <string.h>

#include "bc_filter.h"
#include "bc_murmur3.h"
#include "bc_status.h"
#include "bc_tick.h"

/*
 * Index arithmetic.  Java's abs(base % capacity) with a truncating % equals
 * |base| mod capacity, where |base| is taken as an unsigned 64-bit value
 * (so |INT64_MIN| = 2^63 is exact).  The modulo is computed without a
 * division where the compiler has 128-bit integers, by a Barrett reduction
 * with the precomputed m = floor((2^64 - 1) / d): for every 64-bit x and
 * d >= 1, m >= 2^64 / d - 1 gives x * m / 2^64 > x / d - 1, and m <= 2^64 / d
 * gives x * m / 2^64 <= x / d, so q = floor(x * m / 2^64) is floor(x / d) or
 * one less, and x - q * d is x mod d or x mod d + d, which one conditional
 * subtraction corrects: two multiplications per index.
 */
#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 bc_u128;
#define BC_FASTMOD 1
#endif

static inline uint64_t
abs_u64(uint64_t base)
{
	return (base >> 63) ? (uint64_t) 0 - base : base;
}

#ifdef BC_FASTMOD
static inline void
fastmod_init(uint64_t d, uint64_t *hi, uint64_t *lo)
{
	*hi = 0;					/* unused */
	*lo = UINT64_MAX / d;
}

static inline uint64_t
fastmod(uint64_t x, uint64_t hi, uint64_t lo, uint64_t d)
{
	uint64_t	q = (uint64_t) (((bc_u128) x * lo) >> 64),
				r = x - q * d;

	(void) hi;
	return r >= d ? r - d : r;
}
#endif

static inline uint64_t
index_of(const bc_filter *f, uint64_t base)
{
#ifdef BC_FASTMOD
	return fastmod(abs_u64(base), f->mod_hi, f->mod_lo, bc_capacity(f));
#else
	return abs_u64(base) % bc_capacity(f);
#endif
}

void
bc_indexes(int64_t h1, int64_t h2, int k, int64_t capacity,
		   bc_order order, int64_t *out)
{
	uint64_t	base = (uint64_t) (order == BC_ORDER_OLD ? h1 : h2);
	uint64_t	step = (uint64_t) (order == BC_ORDER_OLD ? h2 : h1);
	int			i;

	for (i = 0; i < k; i++)
	{
		/* the reference form: C99 % truncates like Java's; |r| < capacity */
		int64_t		r = (int64_t) base % capacity;

		out[i] = r < 0 ? -r : r;
		base += step;
	}
}

void
bc_filter_prepare(bc_filter *f)
{
#ifdef BC_FASTMOD
	fastmod_init(bc_capacity(f), &f->mod_hi, &f->mod_lo);
#else
	f->mod_hi = f->mod_lo = 0;
#endif
}

void
bc_filter_init(bc_filter *f, int32_t hash_count, int64_t word_count,
			   bc_order order, uint8_t *bits)
{
	f->hash_count = hash_count;
	f->word_count = word_count;
	f->order = order;
	f->bits = bits;
	bc_filter_prepare(f);
}

void
bc_filter_indexes(const bc_filter *f, int64_t h1, int64_t h2, uint64_t *out)
{
	uint64_t	base = (uint64_t) (f->order == BC_ORDER_OLD ? h1 : h2);
	uint64_t	step = (uint64_t) (f->order == BC_ORDER_OLD ? h2 : h1);
	int			i;

	for (i = 0; i < f->hash_count; i++)
	{
		out[i] = index_of(f, base);
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
	uint64_t	base = (uint64_t) (f->order == BC_ORDER_OLD ? h1 : h2);
	uint64_t	step = (uint64_t) (f->order == BC_ORDER_OLD ? h2 : h1);
	int			i;

	for (i = 0; i < f->hash_count; i++)
	{
		uint64_t	idx = index_of(f, base);

		f->bits[idx >> 3] |= (uint8_t) (1u << (idx & 7));
		base += step;
	}
}

#if defined(__GNUC__) || defined(__clang__)
#define BC_PREFETCH_R(p) __builtin_prefetch((p), 0)
#define BC_PREFETCH_W(p) __builtin_prefetch((p), 1)
#else
#define BC_PREFETCH_R(p) ((void) 0)
#define BC_PREFETCH_W(p) ((void) 0)
#endif

#define PROBE_MAX 32			/* k beyond this is handled key by key */

/*
 * All k bits are read and combined without a branch: whether a bit is set
 * is unpredictable, so an early exit would cost more in mispredictions
 * than the remaining loads, and independent loads overlap their cache
 * misses when the filter is not in cache.
 */
int
bc_filter_test_hash(const bc_filter *f, int64_t h1, int64_t h2)
{
	uint64_t	base = (uint64_t) (f->order == BC_ORDER_OLD ? h1 : h2);
	uint64_t	step = (uint64_t) (f->order == BC_ORDER_OLD ? h2 : h1);
	unsigned	acc = 1;
	int			i;

	for (i = 0; i < f->hash_count; i++)
	{
		uint64_t	j = index_of(f, base);

		acc &= (unsigned) (f->bits[j >> 3] >> (j & 7));
		base += step;
	}
	return (int) (acc & 1);
}

/*
 * The batch paths.  The misses of one key's k bits overlap already (their
 * loads are independent); a filter larger than the caches costs a DRAM
 * round trip per key all the same, unless the misses of several keys
 * overlap too.  So a batch of BC_FILTER_BATCH keys has all its indexes
 * computed and their cache lines prefetched first, then its bits are set
 * or tested: the round trips of the whole batch overlap, as far as the
 * machine has line fill buffers for them.  The scratch arrays are bounded
 * (two of BC_FILTER_BATCH * PROBE_MAX indexes, on the stack).
 */
static inline size_t
batch_indexes(const bc_filter *f, const int64_t *h, size_t m, uint64_t *idx, int write)
{
	int			k = f->hash_count;
	size_t		i,
				t = 0;

	for (i = 0; i < m; i++)
	{
		int64_t		h1 = h[2 * i],
					h2 = h[2 * i + 1];
		uint64_t	base = (uint64_t) (f->order == BC_ORDER_OLD ? h1 : h2);
		uint64_t	step = (uint64_t) (f->order == BC_ORDER_OLD ? h2 : h1);
		int			j;

		for (j = 0; j < k; j++)
		{
			idx[t] = index_of(f, base);
			if (write)
				BC_PREFETCH_W(f->bits + (idx[t] >> 3));
			else
				BC_PREFETCH_R(f->bits + (idx[t] >> 3));
			t++;
			base += step;
		}
	}
	return t;
}

void
bc_filter_add_hashes(bc_filter *f, const int64_t *h, size_t n)
{
	uint64_t	idx[2][BC_FILTER_BATCH * PROBE_MAX];
	size_t		t[2] = {0, 0};
	int			cur = 0;
	size_t		done;

	if (f->hash_count > PROBE_MAX)
	{
		for (done = 0; done < n; done++)
			bc_filter_add_hash(f, h[2 * done], h[2 * done + 1]);
		return;
	}

	/*
	 * Double-buffered as the tests are: the indexes of the next batch are
	 * computed and their lines prefetched before the current batch's bits
	 * are set, so that its lines have had that long to arrive.
	 */
	if (n > 0)
		t[0] = batch_indexes(f, h, n < BC_FILTER_BATCH ? n : BC_FILTER_BATCH, idx[0], 1);
	for (done = 0; done < n; done += BC_FILTER_BATCH)
	{
		size_t		next = done + BC_FILTER_BATCH,
					i;

		if (next < n)
			t[cur ^ 1] = batch_indexes(f, h + 2 * next,
									   n - next < BC_FILTER_BATCH ? n - next : BC_FILTER_BATCH,
									   idx[cur ^ 1], 1);
		for (i = 0; i < t[cur]; i++)
			f->bits[idx[cur][i] >> 3] |= (uint8_t) (1u << (idx[cur][i] & 7));
		cur ^= 1;
	}
}

/*
 * Tests are double-buffered: the indexes of the next batch are computed
 * and prefetched before the current batch's bits are read, so that misses
 * stay in flight while the tests wait for theirs.
 */
void
bc_filter_test_hashes(const bc_filter *f, const int64_t *h, size_t n, uint8_t *out)
{
	int			k = f->hash_count;
	uint64_t	idx[2][BC_FILTER_BATCH * PROBE_MAX];
	int			cur = 0;
	size_t		done;

	if (k > PROBE_MAX)
	{
		for (done = 0; done < n; done++)
		{
			BC_TICK(done);
			out[done] = (uint8_t) bc_filter_test_hash(f, h[2 * done], h[2 * done + 1]);
		}
		return;
	}
	if (n > 0)
		(void) batch_indexes(f, h, n < BC_FILTER_BATCH ? n : BC_FILTER_BATCH, idx[0], 0);
	for (done = 0; done < n; done += BC_FILTER_BATCH)
	{
		size_t		m = n - done < BC_FILTER_BATCH ? n - done : BC_FILTER_BATCH;
		size_t		next = done + BC_FILTER_BATCH,
					i;

		/* done is a multiple of BC_FILTER_BATCH: a tick every 1,024 keys */
		BC_TICK(done);
		if (next < n)
			(void) batch_indexes(f, h + 2 * next,
								 n - next < BC_FILTER_BATCH ? n - next : BC_FILTER_BATCH,
								 idx[cur ^ 1], 0);
		for (i = 0; i < m; i++)
		{
			const uint64_t *x = idx[cur] + i * (size_t) k;
			unsigned	acc = 1;
			int			j;

			for (j = 0; j < k; j++)
				acc &= (unsigned) (f->bits[x[j] >> 3] >> (x[j] & 7));
			out[done + i] = (uint8_t) (acc & 1);
		}
		cur ^= 1;
	}
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
