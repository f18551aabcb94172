/*
 * test_ops.c - union, intersection, popcount and the fill-based estimates.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bc_filter.h"
#include "bc_keys.h"
#include "bc_sizing.h"
#include "bc_status.h"
#include "unit.h"

static void
make(bc_filter *f, int k, int64_t w, bc_order o)
{
	bc_filter_init(f, k, w, o, calloc((size_t) w, 8));
}

/* xorshift64*: deterministic test values */
static uint64_t
next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(2685821657736338717);
}

/*
 * The filters' division-free index path against the reference remainder
 * (bc_indexes, itself checked against indexes.tsv), for random and extreme
 * hashes and word counts up to Cassandra's maximum; and the batch add
 * against one-by-one adds.
 */
static void
fast_index_checks(void)
{
	static const int64_t words[] = {1, 2, 3, 5, 157, 2345, 312501, 15625001, 134217725,
	INT64_C(2147483647)};
	static const int64_t special[] = {0, 1, -1, INT64_MIN, INT64_MAX, INT64_MIN + 1, 64, -64};
	uint64_t	seed = UINT64_C(0x9e3779b97f4a7c15);
	size_t		wi;
	long		mismatches = 0,
				tried = 0;

	for (wi = 0; wi < sizeof(words) / sizeof(words[0]); wi++)
	{
		bc_filter	f;
		int			i;

		for (i = 0; i < 2000; i++)
		{
			int64_t		h1 = (int64_t) next_rand(&seed),
						h2 = (int64_t) next_rand(&seed),
						ref[21];
			uint64_t	got[21];
			int			k = 1 + i % 21,
						j;

			if (i < 64)
			{
				h1 = special[i % 8];
				h2 = special[(i / 8) % 8];
			}
			bc_filter_init(&f, k, words[wi], (i & 1) ? BC_ORDER_OLD : BC_ORDER_NEW, NULL);
			bc_filter_indexes(&f, h1, h2, got);
			bc_indexes(h1, h2, k, words[wi] * 64, f.order, ref);
			for (j = 0; j < k; j++)
				if ((int64_t) got[j] != ref[j])
					mismatches++;
			tried++;
		}
	}
	CHECK(mismatches == 0, "fast index path: %ld mismatches in %ld hashes", mismatches, tried);

	{
		bc_filter	one,
					batch;
		bc_sizing	s;
		int64_t    *h = malloc(sizeof(int64_t) * 2 * 5000);
		int			i;

		bc_sizing_compute(5000, 0.01, &s);
		bc_filter_init(&one, s.hash_count, s.word_count, BC_ORDER_NEW, calloc((size_t) s.word_count, 8));
		bc_filter_init(&batch, s.hash_count, s.word_count, BC_ORDER_NEW, calloc((size_t) s.word_count, 8));
		for (i = 0; i < 5000; i++)
		{
			h[2 * i] = (int64_t) next_rand(&seed);
			h[2 * i + 1] = (int64_t) next_rand(&seed);
			bc_filter_add_hash(&one, h[2 * i], h[2 * i + 1]);
		}
		bc_filter_add_hashes(&batch, h, 4999);
		bc_filter_add_hashes(&batch, h + 2 * 4999, 1);
		CHECK(memcmp(one.bits, batch.bits, (size_t) s.word_count * 8) == 0, "batch add = one-by-one add");
		for (i = 0; i < 5000; i++)
			CHECK(bc_filter_test_hash(&batch, h[2 * i], h[2 * i + 1]), "batch-added hash %d present", i);
		free(h);
		free(one.bits);
		free(batch.bits);
	}
}

void
suite_ops(void)
{
	bc_filter	a,
				b,
				c,
				d;
	uint32_t	i;
	uint8_t		save[64 * 8];
	uint64_t	pa,
				pb;

	make(&a, 5, 64, BC_ORDER_NEW);
	make(&b, 5, 64, BC_ORDER_NEW);
	make(&c, 4, 64, BC_ORDER_NEW);
	make(&d, 5, 64, BC_ORDER_OLD);
	for (i = 0; i < 300; i++)
	{
		uint8_t		key[4];

		bc_ser_int32((int32_t) i, key);
		bc_filter_add(i % 2 ? &a : &b, key, 4);
	}
	pa = bc_filter_popcount(&a);
	pb = bc_filter_popcount(&b);
	CHECK(pa > 0 && pb > 0 && pa <= 750 && pb <= 750, "popcounts %llu %llu",
		  (unsigned long long) pa, (unsigned long long) pb);
	CHECK(bc_popcount((const uint8_t *) "\xff\x01\x80", 3) == 10, "popcount of bytes");

	/* mismatched shapes leave dst untouched */
	memcpy(save, a.bits, sizeof(save));
	CHECK(bc_filter_union(&a, &c) == BC_ERR_SHAPE_MISMATCH, "union with other k refused");
	CHECK(bc_filter_intersect(&a, &d) == BC_ERR_SHAPE_MISMATCH, "intersect with other order refused");
	c.hash_count = 5;
	c.word_count = 32;
	bc_filter_prepare(&c);
	CHECK(bc_filter_union(&a, &c) == BC_ERR_SHAPE_MISMATCH, "union with other word count refused");
	CHECK(memcmp(save, a.bits, sizeof(save)) == 0, "refused union left dst unchanged");

	/* union holds every key of both; intersection of a filter with itself is itself */
	CHECK(bc_filter_union(&a, &b) == BC_OK, "union");
	for (i = 0; i < 300; i++)
	{
		uint8_t		key[4];

		bc_ser_int32((int32_t) i, key);
		CHECK(bc_filter_test(&a, key, 4), "key %u in union", i);
	}
	CHECK(bc_filter_popcount(&a) >= pa && bc_filter_popcount(&a) <= pa + pb, "union popcount");
	memcpy(save, a.bits, sizeof(save));
	CHECK(bc_filter_intersect(&a, &b) == BC_OK && memcmp(a.bits, b.bits, sizeof(save)) == 0,
		  "(a | b) & b == b");

	/* estimates */
	CHECK(bc_fpr_from_fill(0, 4096, 5) == 0.0, "empty filter never matches");
	CHECK(bc_fpr_from_fill(4096, 4096, 5) == 1.0, "full filter always matches");
	CHECK(fabs(bc_fpr_from_fill(2048, 4096, 3) - 0.125) < 1e-15, "half full, k=3");
	CHECK(fabs(bc_fpr_theoretical(1000, 10048, 5) - pow(1 - exp(-5000.0 / 10048), 5)) < 1e-15,
		  "theoretical FPR");
	CHECK(bc_fpr_theoretical(0, 64, 5) == 0.0, "theoretical FPR of no keys");
	CHECK(bc_cardinality_from_fill(0, 64, 5) == 0.0, "cardinality of empty");
	CHECK(isinf(bc_cardinality_from_fill(64, 64, 5)), "cardinality of a saturated filter is infinite");
	{
		/* 10000 keys at p = 0.001: estimate within 2 % */
		bc_filter	e;
		bc_sizing	s;
		double		est;

		bc_sizing_compute(10000, 0.001, &s);
		make(&e, s.hash_count, s.word_count, BC_ORDER_NEW);
		for (i = 0; i < 10000; i++)
		{
			uint8_t		key[8];

			bc_ser_int64((int64_t) i * 7919, key);
			bc_filter_add(&e, key, 8);
		}
		est = bc_cardinality_from_fill(bc_filter_popcount(&e), bc_capacity(&e), e.hash_count);
		CHECK(fabs(est - 10000) < 200, "cardinality estimate %.1f for 10000 keys", est);
		free(e.bits);
	}
	free(a.bits);
	free(b.bits);
	free(c.bits);
	free(d.bits);
	fast_index_checks();
}
