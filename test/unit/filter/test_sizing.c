/*
 * test_sizing.c - Cassandra's filter sizing against every row of
 * sizing.tsv, the fp_chance intervals of BloomCalculations.computeBloomSpec
 * and the value limit.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_codec.h"
#include "bc_sizing.h"
#include "bc_status.h"
#include "unit.h"

static const char *
status_word(bc_status st)
{
	switch (st)
	{
		case BC_OK:
			return "OK";
		case BC_ERR_FP_ALWAYS_PRESENT:
			return "ALWAYS_PRESENT_NO_FILTER_DB";
		case BC_ERR_FP_INVALID:
			return "ERROR_INVALID_FP";
		case BC_ERR_FP_UNREACHABLE:
		case BC_ERR_N_TOO_MANY:
			/* both are computeBloomSpec's "Unable to satisfy"; bloomcass
			 * tells the causes apart (checked below) */
			return "ERROR_FP_UNREACHABLE";
		case BC_ERR_TOO_LARGE:
			return "ERROR_TOO_LARGE";
		default:
			return "?";
	}
}

static int
field_eq(const char *field, int64_t v)
{
	int64_t		e;

	if (strcmp(field, "-") == 0)
		return 1;
	return unit_parse_i64(field, &e) == 0 && e == v;
}

void
suite_sizing(void)
{
	unit_tsv	t;
	char	   *f[10];
	int			nf,
				rows = 0;

	if (unit_tsv_open(&t, "vectors/sizing.tsv") != 0)
		return;
	while ((nf = unit_tsv_next(&t, f, 10)) >= 0)
	{
		int64_t		n;
		double		fp;
		char	   *end;
		bc_sizing	s;
		bc_status	st;

		if (nf != 9 || unit_parse_i64(f[0], &n))
		{
			CHECK(0, "sizing.tsv:%ld: unparsable row", t.lineno);
			continue;
		}
		fp = strtod(f[1], &end);
		CHECK(*end == '\0', "sizing.tsv:%ld: fp", t.lineno);
		rows++;
		st = bc_sizing_compute(n, fp, &s);
		CHECK(strcmp(status_word(st), f[8]) == 0, "sizing.tsv:%ld: n=%s fp=%s status %s expected %s",
			  t.lineno, f[0], f[1], status_word(st), f[8]);
		if (st != BC_OK && st != BC_ERR_TOO_LARGE)
			continue;
		CHECK(field_eq(f[2], s.buckets_per_element) && field_eq(f[3], s.hash_count),
			  "sizing.tsv:%ld: n=%s fp=%s (b, k) = (%d, %d) expected (%s, %s)", t.lineno,
			  f[0], f[1], s.buckets_per_element, s.hash_count, f[2], f[3]);
		CHECK(field_eq(f[4], s.num_bits) && field_eq(f[6], s.word_count),
			  "sizing.tsv:%ld: bits/words", t.lineno);
		if (st == BC_OK)
			CHECK(field_eq(f[5], s.capacity_bits) && field_eq(f[7], s.filter_db_bytes),
				  "sizing.tsv:%ld: capacity/bytes", t.lineno);
	}
	unit_tsv_close(&t);
	CHECK(rows == 68, "sizing.tsv: %d rows, expected 68", rows);

	/* BloomCalculations.computeBloomSpec's intervals: lower bound of each
	 * interval and just below it */
	{
		static const struct
		{
			double		lo;
			int			k,
						b;
		}			iv[] = {
			{0.393, 2, 1}, {0.283, 1, 3}, {0.237, 2, 3}, {0.221, 1, 4}, {0.155, 2, 4},
			{0.147, 3, 4}, {0.109, 2, 5}, {0.092, 3, 5}, {0.0804, 2, 6}, {0.0609, 3, 6},
			{0.0561, 4, 6}, {0.0423, 3, 7}, {0.0359, 4, 7}, {0.0347, 5, 7}, {0.0306, 3, 8},
			{0.024, 4, 8}, {0.0217, 5, 8}, {0.0216, 6, 8}, {0.0166, 4, 9}, {0.0141, 5, 9},
			{0.0133, 6, 9}, {0.0118, 4, 10}, {0.00943, 5, 10}, {0.00844, 6, 10},
			{0.00819, 7, 10}, {0.0065, 5, 11}, {0.00552, 6, 11}, {0.00513, 7, 11},
			{0.00509, 8, 11}, {0.00459, 5, 12}, {0.00371, 6, 12}, {0.00329, 7, 12},
			{0.00314, 8, 12}, {0.00255, 6, 13}, {0.00217, 7, 13}, {0.00199, 8, 13},
			{0.00194, 9, 13}, {0.00179, 6, 14}, {0.00146, 7, 14}, {0.00129, 8, 14},
			{0.00121, 9, 14}, {0.0012, 10, 14}, {0.001, 7, 15}, {0.000852, 8, 15},
			{0.000775, 9, 15}, {0.000744, 10, 15}, {0.000702, 7, 16}, {0.000574, 8, 16},
			{0.000505, 9, 16}, {0.00047, 10, 16}, {0.000459, 11, 16}, {0.000394, 8, 17},
			{0.000335, 9, 17}, {0.000302, 10, 17}, {0.000287, 11, 17}, {0.000284, 12, 17},
			{0.000275, 8, 18}, {0.000226, 9, 18}, {0.000198, 10, 18}, {0.000183, 11, 18},
			{0.000176, 12, 18}, {0.000155, 9, 19}, {0.000132, 10, 19}, {0.000118, 11, 19},
			{0.000111, 12, 19}, {0.000109, 13, 19}, {0.000108, 9, 20}, {8.89e-05, 10, 20},
			{7.77e-05, 11, 20}, {7.12e-05, 12, 20}, {6.79e-05, 13, 20}, {6.71e-05, 14, 20},
		};
		size_t		i;

		for (i = 0; i < sizeof(iv) / sizeof(iv[0]); i++)
		{
			int			k = 0,
						b = 0;

			CHECK(bc_bloom_spec(20, iv[i].lo, &k, &b) == BC_OK && k == iv[i].k && b == iv[i].b,
				  "interval at %g: got (%d, %d) expected (%d, %d)", iv[i].lo, k, b, iv[i].k, iv[i].b);
			if (i + 1 < sizeof(iv) / sizeof(iv[0]))
			{
				/* just below this lower bound belongs to the next interval */
				double		below = iv[i].lo * (1 - 1e-12);

				CHECK(bc_bloom_spec(20, below, &k, &b) == BC_OK &&
					  k == iv[i + 1].k && b == iv[i + 1].b,
					  "just below %g: got (%d, %d)", iv[i].lo, k, b);
			}
		}
	}

	/* invalid inputs and limits */
	{
		bc_sizing	s;
		double		zero = 0.0;

		CHECK(bc_sizing_compute(10, 0.0, &s) == BC_ERR_FP_INVALID, "fp 0");
		CHECK(bc_sizing_compute(10, -0.5, &s) == BC_ERR_FP_INVALID, "fp negative");
		CHECK(bc_sizing_compute(10, zero / zero, &s) == BC_ERR_FP_INVALID, "fp NaN");
		CHECK(bc_sizing_compute(-1, 0.01, &s) == BC_ERR_N_NEGATIVE, "n negative");
		CHECK(bc_sizing_compute(10, 1.0, &s) == BC_ERR_FP_ALWAYS_PRESENT, "fp 1");

		/*
		 * Too many keys for fp_chance: maxBucketsPerElement(n) =
		 * min(20, (2^63 - 20) / n) buckets is too few.  The count is the
		 * cause when 20 buckets would do, fp_chance when not even 20 do.
		 */
		CHECK(bc_max_buckets_per_element(INT64_MAX) == 1 &&
			  bc_max_buckets_per_element(INT64_C(4611686018427387904)) == 2 &&
			  bc_max_buckets_per_element(INT64_C(500000000000000000)) == 18 &&
			  bc_max_buckets_per_element(INT64_C(400000000000000000)) == 20 &&
			  bc_max_buckets_per_element(0) == 20, "maxBucketsPerElement");
		CHECK(bc_sizing_compute(INT64_MAX, 0.01, &s) == BC_ERR_N_TOO_MANY, "2^63-1 keys at 0.01");
		CHECK(bc_sizing_compute(INT64_MAX, 0.7, &s) == BC_ERR_TOO_LARGE,
			  "2^63-1 keys at 0.7: one bucket per key does, then too many words");
		CHECK(bc_sizing_compute(INT64_C(4611686018427387904), 0.01, &s) == BC_ERR_N_TOO_MANY,
			  "2^62 keys at 0.01 (sizing.tsv): the count is the cause");
		CHECK(bc_sizing_compute(INT64_MAX, 5e-5, &s) == BC_ERR_FP_UNREACHABLE,
			  "2^63-1 keys at 5e-5: fp_chance is the cause");
		/* 10 buckets per key (k 7) give 0.01; 9 (at 2^63/9 keys and more) do not */
		CHECK(bc_sizing_compute(INT64_C(922337203685477580), 0.01, &s) == BC_ERR_TOO_LARGE &&
			  s.buckets_per_element == 10, "2^63/10 keys at 0.01 (b=%d)", s.buckets_per_element);
		CHECK(bc_sizing_compute(INT64_C(1024819115206086201), 0.01, &s) == BC_ERR_N_TOO_MANY,
			  "2^63/9 keys at 0.01");
		CHECK(bc_fp_table(20, 14) == 6.71e-05 && bc_fp_table(20, 15) < 0 && bc_fp_table(21, 0) < 0,
			  "table bounds");

		/* 1 GB value limit: the largest n that fits at p = 0.01 and one more */
		CHECK(bc_sizing_for_value(INT64_C(858993438), 0.01, &s) == BC_OK &&
			  s.word_count <= BC_MAX_WORDS_VALUE, "largest filter at 0.01 fits: W=%lld",
			  (long long) s.word_count);
		CHECK(bc_sizing_for_value(INT64_C(858993439), 0.01, &s) == BC_ERR_EXCEEDS_VALUE_LIMIT,
			  "one word over the value limit refused (W=%lld)", (long long) s.word_count);
		CHECK(bc_sizing_for_value(INT64_C(6871947670), 0.0001, &s) == BC_ERR_TOO_LARGE,
			  "Cassandra's own limit still reported");
		CHECK(BC_MAX_WORDS_VALUE == 134217725, "value limit words");
	}
}
