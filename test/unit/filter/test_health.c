/*
 * test_health.c - bc_health_compute and bc_health_sized_for: the real
 * SSTables of test/data/sstables against their manifest (every filter
 * Cassandra sized for its partition count is ok, the four it sized from an
 * estimate have the key counts the manifest derived), the key-count ranges
 * against Cassandra's sizing itself, each verdict and the tolerance's
 * edges, and every invalid argument.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bc_codec.h"
#include "bc_endian.h"
#include "bc_filter.h"
#include "bc_health.h"
#include "bc_sizing.h"
#include "bc_status.h"
#include "unit.h"

/* rows of MANIFEST.tsv with a murmur3 filter, fp_chance and a partition
 * count: 142 sized as Cassandra sizes them, 4 sized from an estimate */
#define EXPECTED_SIZED 142
#define EXPECTED_ESTIMATED 4

/* MANIFEST.tsv columns */
#define M_DIR 0
#define M_DESCRIPTOR 1
#define M_VERSION 2
#define M_FP_CHANCE 9
#define M_PARTITIONS 10
#define M_HASH_COUNT 14
#define M_WORD_COUNT 15
#define M_SIZED 16
#define M_FIELDS 28

static bc_health
judge(int32_t k, int64_t w, int64_t n, double fp)
{
	bc_health	h;
	bc_status	st = bc_health_compute(k, w, 0, n, fp, &h);

	CHECK(st == BC_OK, "health(k=%d, w=%lld, n=%lld, fp=%g): %s", k, (long long) w,
		  (long long) n, fp, bc_status_message(st));
	return h;
}

/* the rate of a filter of w words and k hashes at n keys, computed here */
static double
rate(int k, int64_t w, int64_t n)
{
	return pow(1.0 - exp(-(double) k * (double) n / (64.0 * (double) w)), k);
}

static void
manifest(void)
{
	unit_tsv	t;
	char	   *f[M_FIELDS + 2];
	int			nf,
				sized = 0,
				estimated = 0;

	if (unit_tsv_open(&t, "sstables/MANIFEST.tsv") != 0)
		return;
	while ((nf = unit_tsv_next(&t, f, M_FIELDS + 2)) >= 0)
	{
		char		rel[2048];
		uint8_t    *file;
		size_t		len;
		int64_t		n,
					k,
					w,
					lo,
					hi;
		double		fp;
		bc_health	h;
		bc_status	st;
		const char *v;

		if (nf < M_FIELDS || strcmp(f[0], "dir") == 0)
			continue;
		v = f[M_VERSION];
		if (strcmp(v, "b") == 0 || strcmp(v, "e") == 0 || strcmp(v, "hb") == 0 ||
			strcmp(f[M_FP_CHANCE], "-") == 0 || strcmp(f[M_PARTITIONS], "-") == 0)
			continue;
		fp = strtod(f[M_FP_CHANCE], NULL);
		if (unit_parse_i64(f[M_PARTITIONS], &n) || unit_parse_i64(f[M_HASH_COUNT], &k) ||
			unit_parse_i64(f[M_WORD_COUNT], &w))
		{
			CHECK(0, "MANIFEST.tsv:%ld: unparsable", t.lineno);
			continue;
		}

		/* the shape and the bits from the file itself */
		snprintf(rel, sizeof(rel), "sstables/%s/%s-Filter.db", f[M_DIR], f[M_DESCRIPTOR]);
		file = unit_read_file(unit_path(rel), &len);
		CHECK(file != NULL && len >= 8 && bc_get_be32(file) == (uint32_t) k &&
			  bc_get_be32(file + 4) == (uint32_t) w && len == bc_filterdb_size(w),
			  "%s: the header says k=%lld, w=%lld", rel, (long long) k, (long long) w);
		if (file == NULL || len != bc_filterdb_size(w))
		{
			free(file);
			continue;
		}
		st = bc_health_compute((int32_t) k, w, bc_popcount(file + 8, len - 8), n, fp, &h);
		CHECK(st == BC_OK, "%s: %s", rel, bc_status_message(st));
		CHECK(h.fill_fpr == bc_fpr_from_fill(bc_popcount(file + 8, len - 8), (uint64_t) w * 64, (int) k),
			  "%s: fill_fpr", rel);
		CHECK(h.has_sized_for && h.sized_for_min <= h.sized_for_max,
			  "%s: sized for some key count", rel);
		free(file);

		if (strcmp(f[M_SIZED], "yes") == 0)
		{
			sized++;
			CHECK(h.verdict == BC_HEALTH_OK && h.expected.hash_count == k &&
				  h.expected.word_count == w,
				  "%s: sized as Cassandra sizes %lld keys, verdict %s (expected k=%d w=%lld)",
				  rel, (long long) n, bc_health_verdict_name(h.verdict),
				  h.expected.hash_count, (long long) h.expected.word_count);
			CHECK(h.sized_for_min <= n && n <= h.sized_for_max,
				  "%s: %lld partitions outside %lld..%lld", rel, (long long) n,
				  (long long) h.sized_for_min, (long long) h.sized_for_max);
			continue;
		}
		if (sscanf(f[M_SIZED], "no (n=%lld..%lld", (long long *) &lo, (long long *) &hi) != 2)
		{
			CHECK(0, "%s: sized_as_cassandra '%s'", rel, f[M_SIZED]);
			continue;
		}
		estimated++;
		CHECK(h.sized_for_min == lo && h.sized_for_max == hi,
			  "%s: sized for %lld..%lld, manifest %lld..%lld", rel,
			  (long long) h.sized_for_min, (long long) h.sized_for_max,
			  (long long) lo, (long long) hi);
		CHECK(h.expected.word_count != w, "%s: not Cassandra's shape", rel);
		/* the rule, from the rates computed here */
		{
			double		r = rate((int) k, w, n) / rate(h.expected.hash_count, h.expected.word_count, n);
			bc_health_verdict want = r > 1.25 ? BC_HEALTH_SATURATED :
				r < 0.75 ? BC_HEALTH_OVERSIZED : BC_HEALTH_OK;

			CHECK(h.verdict == want && fabs(h.fpr_ratio / r - 1) < 1e-9,
				  "%s: verdict %s, ratio %g (here %g)", rel,
				  bc_health_verdict_name(h.verdict), h.fpr_ratio, r);
		}
		/* what those are: 1 partition in 21 words, 5 in 1, 10000 in 1555 */
		if (n == 1 && w == 21)
			CHECK(h.verdict == BC_HEALTH_OVERSIZED, "%s: oversized", rel);
		else if (n == 5 && w == 1)
			CHECK(h.verdict == BC_HEALTH_SATURATED, "%s: saturated", rel);
		else if (n == 10000 && w == 1555)
			CHECK(h.verdict == BC_HEALTH_OK && h.fpr_ratio > 1.0 && h.fpr_ratio < 1.25,
				  "%s: within tolerance", rel);
		else
			CHECK(0, "%s: an estimate the test does not know", rel);
	}
	unit_tsv_close(&t);
	CHECK(sized == EXPECTED_SIZED, "%d SSTables sized as Cassandra sizes, expected %d",
		  sized, EXPECTED_SIZED);
	CHECK(estimated == EXPECTED_ESTIMATED, "%d sized from an estimate, expected %d",
		  estimated, EXPECTED_ESTIMATED);
}

/* sized_for against bc_sizing_compute: n is inside the range of its own
 * filter, the ends give that filter, one past each end does not */
static void
sized_for_one(int64_t n, double fp)
{
	bc_sizing	s,
				s2;
	int64_t		lo,
				hi;

	if (bc_sizing_compute(n, fp, &s) != BC_OK)
	{
		CHECK(0, "sizing(%lld, %g)", (long long) n, fp);
		return;
	}
	if (!bc_health_sized_for(s.hash_count, s.word_count, fp, &lo, &hi))
	{
		CHECK(0, "sized_for(k=%d, w=%lld, %g): none", s.hash_count, (long long) s.word_count, fp);
		return;
	}
	CHECK(lo <= n && n <= hi, "n=%lld fp=%g: outside %lld..%lld", (long long) n, fp,
		  (long long) lo, (long long) hi);
	CHECK(bc_sizing_compute(lo, fp, &s2) == BC_OK && s2.word_count == s.word_count &&
		  s2.hash_count == s.hash_count, "n=%lld fp=%g: low end %lld", (long long) n, fp,
		  (long long) lo);
	CHECK(bc_sizing_compute(hi, fp, &s2) == BC_OK && s2.word_count == s.word_count &&
		  s2.hash_count == s.hash_count, "n=%lld fp=%g: high end %lld", (long long) n, fp,
		  (long long) hi);
	CHECK(lo == 0 || (bc_sizing_compute(lo - 1, fp, &s2) == BC_OK &&
					  s2.word_count == s.word_count - 1),
		  "n=%lld fp=%g: below the low end", (long long) n, fp);
	/* one past the high end: the next word, or more than Cassandra allows */
	s2.word_count = 0;
	CHECK(bc_sizing_compute(hi + 1, fp, &s2) != BC_OK || s2.word_count == s.word_count + 1,
		  "n=%lld fp=%g: above the high end", (long long) n, fp);
}

static void
sized_for(void)
{
	static const double fps[] = {
		0.01, 0.1, 0.001, 0.05, 0.5, 0.393, 0.3929, 0.0001, 6.71e-05, 0.0118, 0.9999
	};
	size_t		i;
	int64_t		n,
				lo,
				hi;
	uint64_t	x = 88172645463325252ULL;

	for (i = 0; i < sizeof(fps) / sizeof(fps[0]); i++)
	{
		for (n = 0; n <= 3000; n++)
			sized_for_one(n, fps[i]);
		for (n = 0; n < 300; n++)
		{
			/* xorshift: key counts up to what Cassandra sizes (2^31-1 words) */
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			sized_for_one((int64_t) (x % 6800000000ULL), fps[i]);
		}
	}
	/* the largest filter Cassandra writes */
	CHECK(bc_health_sized_for(5, BC_MAX_WORDS_CASSANDRA, 0.01, &lo, &hi) &&
		  lo == (64 * (BC_MAX_WORDS_CASSANDRA - 1) - 20) / 10 + 1 &&
		  hi == (64 * BC_MAX_WORDS_CASSANDRA - 20) / 10, "largest filter");
	/* none: another hash count, a word count Cassandra never writes, a bad
	 * fp_chance, 1 (no filter) */
	CHECK(!bc_health_sized_for(4, 2, 0.01, &lo, &hi) && lo == 0 && hi == 0, "k 4 at 0.01");
	CHECK(!bc_health_sized_for(5, 0, 0.01, &lo, &hi), "0 words");
	CHECK(!bc_health_sized_for(5, -1, 0.01, &lo, &hi), "-1 words");
	CHECK(!bc_health_sized_for(5, BC_MAX_WORDS_CASSANDRA + 1, 0.01, &lo, &hi), "2^31 words");
	CHECK(!bc_health_sized_for(5, INT64_MAX, 0.01, &lo, &hi), "INT64_MAX words");
	CHECK(!bc_health_sized_for(5, 1, NAN, &lo, &hi), "NaN");
	CHECK(!bc_health_sized_for(5, 1, 0.0, &lo, &hi), "fp 0");
	CHECK(!bc_health_sized_for(2, 1, 1.0, &lo, &hi), "fp 1");
	CHECK(!bc_health_sized_for(14, 1, 1e-5, &lo, &hi), "fp unreachable");
	/* the manifest's three estimates, by hand: b = 10 at 0.01 */
	CHECK(bc_health_sized_for(5, 21, 0.01, &lo, &hi) && lo == 127 && hi == 132, "21 words");
	CHECK(bc_health_sized_for(5, 1, 0.01, &lo, &hi) && lo == 0 && hi == 4, "1 word");
	CHECK(bc_health_sized_for(5, 1555, 0.01, &lo, &hi) && lo == 9944 && hi == 9950, "1555 words");
	/* fp_chance >= 0.393: k = 2, one bucket per key, 64 key counts a word */
	CHECK(bc_health_sized_for(2, 3, 0.5, &lo, &hi) && lo == 109 && hi == 172, "b = 1");
}

static void
verdicts(void)
{
	bc_health	h;
	bc_sizing	s;
	int64_t		n,
				w;

	/* Cassandra's own shape is ok, whatever the rates */
	for (n = 0; n <= 2000; n += 7)
	{
		(void) bc_sizing_compute(n, 0.01, &s);
		h = judge(s.hash_count, s.word_count, n, 0.01);
		CHECK(h.verdict == BC_HEALTH_OK && h.fpr_at_partitions == h.expected_fpr,
			  "n=%lld: exact shape", (long long) n);
	}

	/* a 16-byte filter (sized for 0..4 keys) holding 5000 */
	h = judge(5, 1, 5000, 0.01);
	CHECK(h.verdict == BC_HEALTH_SATURATED && h.fpr_at_partitions > 0.99 &&
		  h.expected.word_count == 782 && h.has_sized_for && h.sized_for_max == 4,
		  "16 bytes for 5000 keys: %s, %g", bc_health_verdict_name(h.verdict),
		  h.fpr_at_partitions);
	CHECK(fabs(h.expected_fpr - rate(5, 782, 5000)) < 1e-15 &&
		  fabs(h.fpr_at_partitions - rate(5, 1, 5000)) < 1e-15, "rates");

	/* a filter for a million keys holding a thousand */
	(void) bc_sizing_compute(1000000, 0.01, &s);
	h = judge(5, s.word_count, 1000, 0.01);
	CHECK(h.verdict == BC_HEALTH_OVERSIZED && h.fpr_ratio < 1e-6 &&
		  h.sized_for_min <= 1000000 && 1000000 <= h.sized_for_max,
		  "a million for a thousand: %s", bc_health_verdict_name(h.verdict));

	/* the right size, the wrong hash count, either way */
	(void) bc_sizing_compute(10000, 0.01, &s);
	h = judge(3, s.word_count, 10000, 0.01);
	CHECK(h.verdict == BC_HEALTH_HASH_COUNT_MISMATCH && !h.has_sized_for,
		  "k 3 instead of 5: %s", bc_health_verdict_name(h.verdict));
	h = judge(7, s.word_count, 10000, 0.01);
	CHECK(h.verdict == BC_HEALTH_HASH_COUNT_MISMATCH, "k 7 instead of 5");
	/* a hash count mismatch comes before the size: a filter sized at 0.1
	 * (k 3, 5 bits a key) judged at 0.01, and the other way round */
	(void) bc_sizing_compute(10000, 0.1, &s);
	h = judge(s.hash_count, s.word_count, 10000, 0.01);
	CHECK(h.verdict == BC_HEALTH_HASH_COUNT_MISMATCH && h.fpr_ratio > 1.25,
		  "sized at 0.1, judged at 0.01");
	(void) bc_sizing_compute(10000, 0.01, &s);
	h = judge(s.hash_count, s.word_count, 10000, 0.1);
	CHECK(h.verdict == BC_HEALTH_HASH_COUNT_MISMATCH && h.fpr_ratio < 0.75,
		  "sized at 0.01, judged at 0.1");

	/* no partitions: both rates 0, no ratio; one word is Cassandra's */
	h = judge(5, 1, 0, 0.01);
	CHECK(h.verdict == BC_HEALTH_OK && h.expected_fpr == 0 && h.fpr_at_partitions == 0 &&
		  isnan(h.fpr_ratio), "empty, one word");
	h = judge(5, 2, 0, 0.01);
	CHECK(h.verdict == BC_HEALTH_OVERSIZED && isnan(h.fpr_ratio), "empty, two words");
	h = judge(4, 1, 0, 0.01);
	CHECK(h.verdict == BC_HEALTH_HASH_COUNT_MISMATCH, "empty, k 4");

	/*
	 * The tolerance's edges at 100,000 keys, fp_chance 0.01 (Cassandra:
	 * 15,626 words): walking the word count, the verdict changes exactly
	 * where the ratio, computed here, crosses 1.25 and 0.75, and is ok
	 * between.
	 */
	{
		int			changes_high = 0,
					changes_low = 0;
		bc_health_verdict prev = BC_HEALTH_SATURATED;

		(void) bc_sizing_compute(100000, 0.01, &s);
		CHECK(s.word_count == 15626, "100000 keys: %lld words", (long long) s.word_count);
		for (w = 10000; w <= 30000; w++)
		{
			double		r = rate(5, w, 100000) / rate(5, s.word_count, 100000);

			h = judge(5, w, 100000, 0.01);
			if (w == s.word_count)
				CHECK(h.verdict == BC_HEALTH_OK, "exact");
			else
				CHECK(h.verdict == (r > 1.25 ? BC_HEALTH_SATURATED :
									r < 0.75 ? BC_HEALTH_OVERSIZED : BC_HEALTH_OK),
					  "w=%lld: %s, ratio %.17g", (long long) w,
					  bc_health_verdict_name(h.verdict), r);
			changes_high += prev == BC_HEALTH_SATURATED && h.verdict == BC_HEALTH_OK;
			changes_low += prev == BC_HEALTH_OK && h.verdict == BC_HEALTH_OVERSIZED;
			prev = h.verdict;
		}
		CHECK(changes_high == 1 && changes_low == 1, "one edge each way (%d, %d)",
			  changes_high, changes_low);
		/* the edges, solved apart from this code: ok from 14,741 to
		 * 16,824 words */
		CHECK(judge(5, 14740, 100000, 0.01).verdict == BC_HEALTH_SATURATED &&
			  judge(5, 14741, 100000, 0.01).verdict == BC_HEALTH_OK &&
			  judge(5, 16824, 100000, 0.01).verdict == BC_HEALTH_OK &&
			  judge(5, 16825, 100000, 0.01).verdict == BC_HEALTH_OVERSIZED, "edges");
	}

	/* fill: the rate from the bits set, whatever the key count */
	CHECK(bc_health_compute(5, 2, 0, 10, 0.01, &h) == BC_OK && h.fill_fpr == 0, "no bit");
	CHECK(bc_health_compute(5, 2, 64, 10, 0.01, &h) == BC_OK &&
		  fabs(h.fill_fpr - pow(0.5, 5)) < 1e-15, "half the bits");
	CHECK(bc_health_compute(5, 2, 128, 10, 0.01, &h) == BC_OK && h.fill_fpr == 1, "every bit");
	CHECK(bc_health_compute(5, 2, UINT64_MAX, 10, 0.01, &h) == BC_OK && h.fill_fpr == 1,
		  "more bits than the capacity");

	CHECK(strcmp(bc_health_verdict_name(BC_HEALTH_OK), "ok") == 0 &&
		  strcmp(bc_health_verdict_name(BC_HEALTH_SATURATED), "saturated") == 0 &&
		  strcmp(bc_health_verdict_name(BC_HEALTH_OVERSIZED), "oversized") == 0 &&
		  strcmp(bc_health_verdict_name(BC_HEALTH_HASH_COUNT_MISMATCH), "hash_count_mismatch") == 0 &&
		  strcmp(bc_health_verdict_name((bc_health_verdict) 99), "unknown") == 0, "names");
}

static void
errors(void)
{
	bc_health	h;

	CHECK(bc_health_compute(5, 1, 0, 1, NAN, &h) == BC_ERR_FP_INVALID, "NaN");
	CHECK(bc_health_compute(5, 1, 0, 1, 0.0, &h) == BC_ERR_FP_INVALID, "0");
	CHECK(bc_health_compute(5, 1, 0, 1, -0.01, &h) == BC_ERR_FP_INVALID, "negative");
	CHECK(bc_health_compute(5, 1, 0, 1, 1.5, &h) == BC_ERR_FP_INVALID, "1.5");
	CHECK(bc_health_compute(5, 1, 0, 1, INFINITY, &h) == BC_ERR_FP_INVALID, "inf");
	CHECK(bc_health_compute(5, 1, 0, 1, 1.0, &h) == BC_ERR_FP_ALWAYS_PRESENT, "1");
	CHECK(bc_health_compute(5, 1, 0, 1, 1e-5, &h) == BC_ERR_FP_UNREACHABLE, "1e-5");
	CHECK(bc_health_compute(5, 1, 0, -1, 0.01, &h) == BC_ERR_N_NEGATIVE, "-1 keys");
	CHECK(bc_health_compute(5, 1, 0, INT64_MIN, 0.01, &h) == BC_ERR_N_NEGATIVE, "INT64_MIN keys");
	/* more keys than Cassandra can size a filter for (2^31-1 words) */
	/* 10 n + 20 <= 64 (2^31 - 1) bits */
	CHECK(bc_health_compute(5, 1, 0, 13743895338, 0.01, &h) == BC_OK &&
		  h.expected.word_count == BC_MAX_WORDS_CASSANDRA && h.verdict == BC_HEALTH_SATURATED,
		  "the most keys");
	CHECK(bc_health_compute(5, 1, 0, 13743895339, 0.01, &h) == BC_ERR_TOO_LARGE &&
		  h.expected.word_count == BC_MAX_WORDS_CASSANDRA + 1, "one key more");
	CHECK(bc_health_compute(5, 1, 0, INT64_MAX, 0.01, &h) != BC_OK, "INT64_MAX keys");
	CHECK(bc_health_compute(0, 1, 0, 1, 0.01, &h) == BC_ERR_HASH_COUNT, "k 0");
	CHECK(bc_health_compute(22, 1, 0, 1, 0.01, &h) == BC_ERR_HASH_COUNT, "k 22");
	CHECK(bc_health_compute(5, 0, 0, 1, 0.01, &h) == BC_ERR_WORD_COUNT, "0 words");
	CHECK(bc_health_compute(5, INT64_MIN, 0, 1, 0.01, &h) == BC_ERR_WORD_COUNT, "INT64_MIN words");
	CHECK(bc_health_compute(5, BC_MAX_WORDS_CASSANDRA + 1, 0, 1, 0.01, &h) == BC_ERR_TOO_LARGE,
		  "2^31 words");
	CHECK(bc_health_compute(5, INT64_MAX, 0, 1, 0.01, &h) == BC_ERR_TOO_LARGE, "INT64_MAX words");

	/* extremes of every argument: no crash, no undefined behaviour (UBSan
	 * runs this too), and every success has a verdict and rates in [0, 1] */
	{
		static const int32_t ks[] = {INT32_MIN, -1, 0, 1, 2, 5, 14, 21, 22, INT32_MAX};
		static const int64_t ws[] = {INT64_MIN, -1, 0, 1, 2, 1555, BC_MAX_WORDS_VALUE,
		BC_MAX_WORDS_CASSANDRA, BC_MAX_WORDS_CASSANDRA + 1, INT64_MAX};
		static const int64_t ns[] = {INT64_MIN, -1, 0, 1, 5, 10000, 858993459, 13743895338,
		INT64_MAX / 20, INT64_MAX / 20 + 1, INT64_MAX};
		static const uint64_t bits[] = {0, 1, 64, UINT64_MAX};
		static const double fps[] = {-INFINITY, -1.0, -0.0, 0.0, 1e-300, 6.7e-05, 6.71e-05,
		0.01, 0.392999, 0.393, 0.999999, 1.0, 1.0000001, INFINITY, NAN};
		size_t		a,
					b,
					c,
					d,
					e;
		long		ok = 0;

		for (a = 0; a < sizeof(ks) / sizeof(ks[0]); a++)
			for (b = 0; b < sizeof(ws) / sizeof(ws[0]); b++)
				for (c = 0; c < sizeof(ns) / sizeof(ns[0]); c++)
					for (d = 0; d < sizeof(bits) / sizeof(bits[0]); d++)
						for (e = 0; e < sizeof(fps) / sizeof(fps[0]); e++)
						{
							if (bc_health_compute(ks[a], ws[b], bits[d], ns[c], fps[e], &h) != BC_OK)
								continue;
							ok++;
							CHECK(h.verdict <= BC_HEALTH_HASH_COUNT_MISMATCH &&
								  h.fpr_at_partitions >= 0 && h.fpr_at_partitions <= 1 &&
								  h.expected_fpr >= 0 && h.expected_fpr <= 1 &&
								  h.fill_fpr >= 0 && h.fill_fpr <= 1,
								  "k=%d w=%lld n=%lld fp=%g", ks[a], (long long) ws[b],
								  (long long) ns[c], fps[e]);
						}
		CHECK(ok > 0, "some extremes are valid");
	}
}

void
suite_health(void)
{
	manifest();
	sized_for();
	verdicts();
	errors();
}
