/*
 * bc_sizing.c - filter sizing exactly as Cassandra's BloomCalculations and
 * FilterFactory.getFilter choose it.
 *
 * The probability table is kept as the exact decimal literals Cassandra
 * uses, and every comparison has Cassandra's direction (>=, <, >, <=), so
 * fp_chance values equal to table entries land where Cassandra puts them.
 */
#include <math.h>

#include "bc_codec.h"
#include "bc_filter.h"
#include "bc_sizing.h"
#include "bc_status.h"

#define MAX_BUCKETS 20
#define BITSET_EXCESS 20

/* FP[b][j]: false-positive rate with b buckets per element and j hashes. */
static const double fp_row0[] = {1.0};
static const double fp_row1[] = {1.0, 1.0};
static const double fp_row2[] = {1.0, 0.393, 0.400};
static const double fp_row3[] = {1.0, 0.283, 0.237, 0.253};
static const double fp_row4[] = {1.0, 0.221, 0.155, 0.147, 0.160};
static const double fp_row5[] = {1.0, 0.181, 0.109, 0.092, 0.092, 0.101};
static const double fp_row6[] = {1.0, 0.154, 0.0804, 0.0609, 0.0561, 0.0578, 0.0638};
static const double fp_row7[] = {1.0, 0.133, 0.0618, 0.0423, 0.0359, 0.0347, 0.0364};
static const double fp_row8[] = {1.0, 0.118, 0.0489, 0.0306, 0.024, 0.0217, 0.0216, 0.0229};
static const double fp_row9[] = {1.0, 0.105, 0.0397, 0.0228, 0.0166, 0.0141, 0.0133, 0.0135, 0.0145};
static const double fp_row10[] = {1.0, 0.0952, 0.0329, 0.0174, 0.0118, 0.00943, 0.00844, 0.00819, 0.00846};
static const double fp_row11[] = {1.0, 0.0869, 0.0276, 0.0136, 0.00864, 0.0065, 0.00552, 0.00513, 0.00509};
static const double fp_row12[] = {1.0, 0.08, 0.0236, 0.0108, 0.00646, 0.00459, 0.00371, 0.00329, 0.00314};
static const double fp_row13[] = {1.0, 0.074, 0.0203, 0.00875, 0.00492, 0.00332, 0.00255, 0.00217, 0.00199, 0.00194};
static const double fp_row14[] = {1.0, 0.0689, 0.0177, 0.00718, 0.00381, 0.00244, 0.00179, 0.00146, 0.00129, 0.00121, 0.0012};
static const double fp_row15[] = {1.0, 0.0645, 0.0156, 0.00596, 0.003, 0.00183, 0.00128, 0.001, 0.000852, 0.000775, 0.000744};
static const double fp_row16[] = {1.0, 0.0606, 0.0138, 0.005, 0.00239, 0.00139, 0.000935, 0.000702, 0.000574, 0.000505, 0.00047, 0.000459};
static const double fp_row17[] = {1.0, 0.0571, 0.0123, 0.00423, 0.00193, 0.00107, 0.000692, 0.000499, 0.000394, 0.000335, 0.000302, 0.000287, 0.000284};
static const double fp_row18[] = {1.0, 0.054, 0.0111, 0.00362, 0.00158, 0.000839, 0.000519, 0.00036, 0.000275, 0.000226, 0.000198, 0.000183, 0.000176};
static const double fp_row19[] = {1.0, 0.0513, 0.00998, 0.00312, 0.0013, 0.000663, 0.000394, 0.000264, 0.000194, 0.000155, 0.000132, 0.000118, 0.000111, 0.000109};
static const double fp_row20[] = {1.0, 0.0488, 0.00906, 0.0027, 0.00108, 0.00053, 0.000303, 0.000196, 0.00014, 0.000108, 8.89e-05, 7.77e-05, 7.12e-05, 6.79e-05, 6.71e-05};

#define ROW(r) { r, (int) (sizeof(r) / sizeof(r[0])) }
static const struct
{
	const double *p;
	int			len;
}			fp_table[MAX_BUCKETS + 1] = {
	ROW(fp_row0), ROW(fp_row1), ROW(fp_row2), ROW(fp_row3), ROW(fp_row4),
	ROW(fp_row5), ROW(fp_row6), ROW(fp_row7), ROW(fp_row8), ROW(fp_row9),
	ROW(fp_row10), ROW(fp_row11), ROW(fp_row12), ROW(fp_row13), ROW(fp_row14),
	ROW(fp_row15), ROW(fp_row16), ROW(fp_row17), ROW(fp_row18), ROW(fp_row19),
	ROW(fp_row20),
};

/* Column index of each row's minimum (first one on ties), at least 1. */
static const int best_k[MAX_BUCKETS + 1] = {
	1, 1, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 8, 9, 10, 10, 11, 12, 12, 13, 14
};

double
bc_fp_table(int buckets, int k)
{
	if (buckets < 0 || buckets > MAX_BUCKETS || k < 0 || k >= fp_table[buckets].len)
		return -1.0;
	return fp_table[buckets].p[k];
}

/* BloomCalculations.maxBucketsPerElement; 0 means "cannot size". */
int
bc_max_buckets_per_element(int64_t n)
{
	double		m = (double) (n < 1 ? 1 : n);
	/* (Long.MAX_VALUE - 20) as a double rounds to 2^63 */
	double		v = 9223372036854775807.0 / m;

	if (v < 1.0)
		return 0;
	return v >= MAX_BUCKETS ? MAX_BUCKETS : (int) v;
}

bc_status
bc_bloom_spec(int max_buckets, double p, int *k_out, int *b_out)
{
	int			b,
				k;

	if (max_buckets < 1 || max_buckets > MAX_BUCKETS)
		return BC_ERR_FP_UNREACHABLE;

	/* The trivial case, with Cassandra's argument order quirk: k = 2, b = 1 */
	if (p >= fp_table[2].p[1])
	{
		*k_out = 2;
		*b_out = best_k[2];
		return BC_OK;
	}
	if (p < fp_table[max_buckets].p[fp_table[max_buckets].len - 1])
		return BC_ERR_FP_UNREACHABLE;

	b = 2;
	k = best_k[2];
	while (fp_table[b].p[k] > p)
	{
		b++;
		k = best_k[b];
	}
	while (fp_table[b].p[k - 1] <= p)
		k--;
	*k_out = k;
	*b_out = b;
	return BC_OK;
}

bc_status
bc_sizing_compute(int64_t n, double fp, bc_sizing *out)
{
	int			maxb,
				k,
				b;
	uint64_t	num_bits,
				words;
	bc_status	st;

	out->hash_count = 0;
	out->buckets_per_element = 0;
	out->num_bits = 0;
	out->word_count = 0;
	out->capacity_bits = 0;
	out->filter_db_bytes = 0;

	if (isnan(fp) || fp <= 0.0 || fp > 1.0)
		return BC_ERR_FP_INVALID;
	if (fp == 1.0)
		return BC_ERR_FP_ALWAYS_PRESENT;
	if (n < 0)
		return BC_ERR_N_NEGATIVE;

	/*
	 * FilterFactory.getFilter: maxBucketsPerElement(n), then
	 * computeBloomSpec(that, fp), whose "Unable to satisfy fp with b buckets
	 * per element" has two causes.  When the whole table (20 buckets per
	 * key) could give fp, the key count is what limits the buckets: the
	 * count is the argument at fault, not fp_chance.
	 */
	maxb = bc_max_buckets_per_element(n);
	if (maxb < 1)
		return BC_ERR_N_TOO_MANY;
	st = bc_bloom_spec(maxb, fp, &k, &b);
	if (st == BC_ERR_FP_UNREACHABLE && maxb < MAX_BUCKETS &&
		bc_bloom_spec(MAX_BUCKETS, fp, &k, &b) == BC_OK)
		return BC_ERR_N_TOO_MANY;
	if (st != BC_OK)
		return st;

	/* Java: long numBits = n * buckets + 20, wrapping */
	num_bits = (uint64_t) n * (uint64_t) b + BITSET_EXCESS;
	/* OffHeapBitSet: (int) ((numBits - 1) >>> 6) + 1 checked against 2^31-1 */
	words = ((num_bits - 1) >> 6) + 1;

	out->hash_count = k;
	out->buckets_per_element = b;
	out->num_bits = (int64_t) num_bits;
	out->word_count = (int64_t) words;
	if (words > (uint64_t) BC_MAX_WORDS_CASSANDRA)
		return BC_ERR_TOO_LARGE;
	out->capacity_bits = (int64_t) (words * 64);
	out->filter_db_bytes = (int64_t) bc_filterdb_size((int64_t) words);
	return BC_OK;
}

bc_status
bc_sizing_for_value(int64_t n, double fp, bc_sizing *out)
{
	bc_status	st = bc_sizing_compute(n, fp, out);

	if (st == BC_OK && out->word_count > BC_MAX_WORDS_VALUE)
		return BC_ERR_EXCEEDS_VALUE_LIMIT;
	return st;
}
