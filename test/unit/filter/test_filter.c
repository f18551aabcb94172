/*
 * test_filter.c - bc_filter.c: bit index derivation against the golden
 * vectors (indexes.tsv) and worked examples, the filters' division-free
 * index path, batch add and batch test, union, intersection, popcount and the
 * fill-based estimates.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bc_filter.h"
#include "bc_keys.h"
#include "bc_murmur3.h"
#include "bc_sizing.h"
#include "bc_status.h"
#include "bc_tick.h"
#include "unit.h"

static int
parse_list(char *s, int64_t *out, int max)
{
	int			n = 0;
	char	   *tok = s;

	while (tok && *tok)
	{
		char	   *comma = strchr(tok, ',');

		if (comma)
			*comma = '\0';
		if (n == max || unit_parse_i64(tok, &out[n]))
			return -1;
		n++;
		tok = comma ? comma + 1 : NULL;
	}
	return n;
}

void
suite_indexes(void)
{
	unit_tsv	t;
	char	   *f[8];
	int			nf,
				rows = 0;

	if (unit_tsv_open(&t, "vectors/indexes.tsv") != 0)
		return;
	while ((nf = unit_tsv_next(&t, f, 8)) >= 0)
	{
		size_t		len;
		uint8_t    *key;
		int64_t		k,
					cap,
					eh1,
					eh2,
					h1,
					h2,
					enew[64],
					eold[64],
					got[64];
		int			nnew,
					nold;

		if (nf != 7)
		{
			CHECK(0, "indexes.tsv:%ld: %d fields", t.lineno, nf);
			continue;
		}
		key = unit_hex_decode(f[0], strlen(f[0]), &len);
		if (key == NULL || unit_parse_i64(f[1], &k) || unit_parse_i64(f[2], &cap) ||
			unit_parse_i64(f[5], &eh1) || unit_parse_i64(f[6], &eh2) ||
			k < 1 || k > 64 || cap < 1)
		{
			CHECK(0, "indexes.tsv:%ld: unparsable row", t.lineno);
			free(key);
			continue;
		}
		nnew = parse_list(f[3], enew, 64);
		nold = parse_list(f[4], eold, 64);
		CHECK(nnew == k && nold == k, "indexes.tsv:%ld: index list length", t.lineno);
		rows++;
		bc_murmur3(key, len, &h1, &h2);
		CHECK(h1 == eh1 && h2 == eh2, "indexes.tsv:%ld: hash", t.lineno);
		bc_indexes(h1, h2, (int) k, cap, BC_ORDER_NEW, got);
		CHECK(nnew == k && memcmp(got, enew, sizeof(int64_t) * (size_t) k) == 0,
			  "indexes.tsv:%ld: new-order indexes (k=%lld cap=%lld)", t.lineno,
			  (long long) k, (long long) cap);
		bc_indexes(h1, h2, (int) k, cap, BC_ORDER_OLD, got);
		CHECK(nold == k && memcmp(got, eold, sizeof(int64_t) * (size_t) k) == 0,
			  "indexes.tsv:%ld: old-order indexes", t.lineno);
		free(key);
	}
	unit_tsv_close(&t);
	CHECK(rows == 345, "indexes.tsv: %d rows, expected 345", rows);

	/* BloomFilter.indexes: base = -1, capacity 64 gives 1, not floorMod's 63 */
	{
		int64_t		out[1];

		bc_indexes(0, -1, 1, 64, BC_ORDER_NEW, out);
		CHECK(out[0] == 1, "truncating remainder then abs");
		bc_indexes(0, INT64_MIN, 1, 64, BC_ORDER_NEW, out);
		CHECK(out[0] == 0, "INT64_MIN base");
		bc_indexes(0, INT64_MIN, 1, 63, BC_ORDER_NEW, out);
		CHECK(out[0] == 8, "INT64_MIN %% 63 = -8 -> 8");
	}

	/* the filter of Cassandra's legacy_*_simple SSTables (keys '0'..'4',
	 * test/data/real-filters): key '3' sets bits 2, 26, 50, 74, 98 (k=5, W=2) */
	{
		int64_t		out[5],
					h1,
					h2;

		bc_murmur3("3", 1, &h1, &h2);
		CHECK(h1 == INT64_C(-155496620801056360) && h2 == INT64_C(3194112165467113986),
			  "hash of '3'");
		bc_indexes(h1, h2, 5, 128, BC_ORDER_NEW, out);
		CHECK(out[0] == 2 && out[1] == 26 && out[2] == 50 && out[3] == 74 && out[4] == 98,
			  "indexes of '3'");
	}
}

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
		/* calls of every length around the batch size (double-buffered) */
		{
			static const size_t lens[] = {0, 1, 15, 16, 17, 31, 32, 33, 64, 1000};
			size_t		li;

			for (li = 0; li < sizeof(lens) / sizeof(lens[0]); li++)
			{
				size_t		done = 0;

				memset(batch.bits, 0, (size_t) s.word_count * 8);
				while (done < 5000)
				{
					size_t		m = lens[li] == 0 ? 1 : lens[li];

					if (m > 5000 - done)
						m = 5000 - done;
					if (lens[li] == 0)
						bc_filter_add_hashes(&batch, h + 2 * done, 0);
					bc_filter_add_hashes(&batch, h + 2 * done, m);
					done += m;
				}
				CHECK(memcmp(one.bits, batch.bits, (size_t) s.word_count * 8) == 0,
					  "batch add in calls of %zu = one-by-one add", lens[li]);
			}
		}
		for (i = 0; i < 5000; i++)
			CHECK(bc_filter_test_hash(&batch, h[2 * i], h[2 * i + 1]), "batch-added hash %d present", i);
		free(h);
		free(one.bits);
		free(batch.bits);
	}
}

/*
 * The remainder at its edges: capacities around powers of two up to
 * Cassandra's largest (2^31 - 1 words), and bases at multiples of the
 * capacity, one either side, and the largest magnitudes (2^63 - 1, and
 * 2^63 for INT64_MIN), where a reduction whose quotient estimate is one
 * short must correct it; each against the reference remainder (bc_indexes).
 */
static void
remainder_edge_checks(void)
{
	static const int64_t words[] = {1, 2, 3, 1023, 1024, 1025, 312501, INT64_C(33554431),
	INT64_C(33554432), INT64_C(1073741823), INT64_C(1073741824), INT64_C(2147483647)};
	long		mismatches = 0,
				tried = 0;
	size_t		wi;

	for (wi = 0; wi < sizeof(words) / sizeof(words[0]); wi++)
	{
		int64_t		d = words[wi] * 64;
		uint64_t	q[] = {0, 1, 2, 3, (uint64_t) INT64_MAX / (uint64_t) d,
		(uint64_t) INT64_MAX / (uint64_t) d - 1, (uint64_t) INT64_MAX / (uint64_t) d / 2,
		UINT64_C(123456789) % ((uint64_t) INT64_MAX / (uint64_t) d + 1)};
		int64_t		bases[3 * 8 + 3];
		size_t		nb = 0,
					qi,
					bi;
		bc_filter	f;

		for (qi = 0; qi < sizeof(q) / sizeof(q[0]); qi++)
		{
			uint64_t	x = q[qi] * (uint64_t) d;

			bases[nb++] = (int64_t) x;
			if (x > 0)
				bases[nb++] = -(int64_t) (x - 1);	/* |base| = x - 1 */
			if (x < (uint64_t) INT64_MAX)
				bases[nb++] = (int64_t) (x + 1);
		}
		bases[nb++] = INT64_MAX;
		bases[nb++] = INT64_MIN;
		bases[nb++] = INT64_MIN + 1;
		bc_filter_init(&f, 1, words[wi], BC_ORDER_NEW, NULL);
		for (bi = 0; bi < nb; bi++)
		{
			int64_t		ref;
			uint64_t	got;

			/* new order: the first index is |h2| mod capacity */
			bc_filter_indexes(&f, 0, bases[bi], &got);
			bc_indexes(0, bases[bi], 1, d, BC_ORDER_NEW, &ref);
			if ((int64_t) got != ref)
				mismatches++;
			tried++;
		}
	}
	CHECK(mismatches == 0, "remainder edges: %ld mismatches in %ld", mismatches, tried);
}

static int	batch_ticks;

static void
count_batch_tick(void)
{
	batch_ticks++;
}

/*
 * The batch test (bc_filter_test_hashes) against one-at-a-time tests
 * (bc_filter_test_hash) on random filters: every hash count Cassandra
 * sizes and more, both orders, sparse to saturated bitsets, batch lengths
 * around the batch size; and its interrupt ticks, one per 1,024 keys.
 */
static void
batch_test_checks(void)
{
	static const int64_t words[] = {1, 3, 157, 2345, 40001};
	static const size_t lens[] = {0, 1, 15, 16, 17, 33, 1000, 5000};
	static const unsigned fills[] = {1, 3, 8, 15};	/* sixteenths of bits set */
	uint64_t	seed = UINT64_C(0x243f6a8885a308d3);
	int64_t    *h = malloc(sizeof(int64_t) * 2 * 5000);
	uint8_t    *out = malloc(5000);
	long		mismatches = 0,
				tried = 0,
				present = 0;
	size_t		wi,
				li,
				fi;

	for (wi = 0; wi < sizeof(words) / sizeof(words[0]); wi++)
		for (fi = 0; fi < sizeof(fills) / sizeof(fills[0]); fi++)
		{
			bc_filter	f;
			int64_t		b;
			int			k = 1 + (int) ((wi * 4 + fi) * 5 % 21);

			make(&f, k, words[wi], fi & 1 ? BC_ORDER_OLD : BC_ORDER_NEW);
			for (b = 0; b < words[wi] * 8; b++)
			{
				uint8_t		byte = 0;
				int			bit;

				for (bit = 0; bit < 8; bit++)
					if ((next_rand(&seed) & 15) < fills[fi])
						byte |= (uint8_t) (1u << bit);
				f.bits[b] = byte;
			}
			for (li = 0; li < sizeof(lens) / sizeof(lens[0]); li++)
			{
				size_t		i;

				for (i = 0; i < lens[li]; i++)
				{
					h[2 * i] = (int64_t) next_rand(&seed);
					h[2 * i + 1] = (int64_t) next_rand(&seed);
					out[i] = 0xAA;
				}
				bc_filter_test_hashes(&f, h, lens[li], out);
				for (i = 0; i < lens[li]; i++)
				{
					int			one = bc_filter_test_hash(&f, h[2 * i], h[2 * i + 1]);

					if (out[i] != (uint8_t) one)
						mismatches++;
					present += one;
					tried++;
				}
			}
			free(f.bits);
		}
	CHECK(mismatches == 0, "batch test: %ld mismatches in %ld hashes", mismatches, tried);
	/* both answers occur, so the comparison can fail either way */
	CHECK(present > 1000 && present < tried - 1000, "batch test: %ld of %ld present",
		  present, tried);

	{
		bc_filter	f;

		make(&f, 7, 157, BC_ORDER_NEW);
		batch_ticks = 0;
		bc_tick_hook = count_batch_tick;
		bc_filter_test_hashes(&f, h, 5000, out);
		bc_tick_hook = NULL;
		CHECK(batch_ticks == 5, "batch test of 5000 keys: %d ticks, 5 expected", batch_ticks);
		free(f.bits);
	}
	free(h);
	free(out);
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
	remainder_edge_checks();
	batch_test_checks();
}
