/*
 * test_filter_sizing.c - bc_filter_sizing_explain (bc_filter_sizing.c):
 * filters made by Cassandra's sizing (bc_sizing_compute) for a flush's
 * partition count, for a compaction's estimate, for the minimum of
 * min_index_interval, for another fp_chance, and their verdicts; the
 * undersized rule against the rate of each filter holding the partitions.
 */
#include "bc_filter.h"
#include "bc_filter_sizing.h"
#include "bc_sizing.h"
#include "bc_status.h"
#include "unit.h"

static bc_filter_sizing
explain(int64_t sized_for, double sized_fp, int64_t partitions, double fp, int64_t estimate)
{
	bc_sizing	s;
	bc_filter_sizing fs;

	CHECK(bc_sizing_compute(sized_for, sized_fp, &s) == BC_OK, "sizing %lld", (long long) sized_for);
	CHECK(bc_filter_sizing_explain(s.hash_count, s.word_count, partitions, fp, estimate, &fs) == BC_OK,
		  "explain %lld", (long long) sized_for);
	return fs;
}

void
suite_filter_sizing(void)
{
	bc_filter_sizing fs;
	bc_sizing	s;

	/* a flush of 1000 partitions, its estimate 1000: both */
	fs = explain(1000, 0.01, 1000, 0.01, 1000);
	CHECK(fs.sized_by == BC_SIZED_BOTH && !fs.undersized, "flush and compaction: %d", fs.sized_by);
	/* a flush, no estimate (ScyllaDB's, or none) */
	fs = explain(1000, 0.01, 1000, 0.01, -1);
	CHECK(fs.sized_by == BC_SIZED_FLUSH && !fs.has_compaction, "flush: %d", fs.sized_by);
	/* a compaction whose estimate, 100, fell short of 1000 partitions:
	 * 16 words against 157, its rate at 1000 keys far above 0.01 */
	fs = explain(100, 0.01, 1000, 0.01, 100);
	CHECK(fs.sized_by == BC_SIZED_COMPACTION && fs.undersized && fs.compaction_keys == 100 &&
		  fs.flush_word_count == 157 && fs.fpr_at_partitions > 0.9,
		  "short estimate: %d %d %lld %g", fs.sized_by, fs.undersized,
		  (long long) fs.flush_word_count, fs.fpr_at_partitions);
	/* the same estimate, the filter of cleanup's minimum of 128 keys */
	fs = explain(128, 0.01, 1000, 0.01, 100);
	CHECK(fs.sized_by == BC_SIZED_COMPACTION && fs.undersized && fs.compaction_keys == 128,
		  "minimum: %d %lld", fs.sized_by, (long long) fs.compaction_keys);
	/* 9,948 estimated of 10,000 (oa-13-big): compaction, 1555 words of
	 * 1563, its rate still below fp_chance: not undersized */
	fs = explain(9948, 0.01, 10000, 0.01, 9948);
	CHECK(fs.sized_by == BC_SIZED_COMPACTION && !fs.undersized && fs.flush_word_count == 1563 &&
		  fs.fpr_at_partitions < 0.01, "oa-13-big: %d %d %g", fs.sized_by, fs.undersized,
		  fs.fpr_at_partitions);
	/* an estimate above the count: compaction, larger, never undersized */
	fs = explain(2000, 0.01, 1000, 0.01, 2000);
	CHECK(fs.sized_by == BC_SIZED_COMPACTION && !fs.undersized, "larger: %d", fs.sized_by);
	/* another fp_chance: neither, whatever the counts */
	fs = explain(1000, 0.1, 1000, 0.01, 1000);
	CHECK(fs.sized_by == BC_SIZED_NEITHER && !fs.has_sized_for && !fs.undersized,
		  "other fp_chance: %d", fs.sized_by);
	/* one word for five partitions (no key count gives it at 0.01 but 0
	 * to 8): neither */
	CHECK(bc_sizing_compute(5, 0.01, &s) == BC_OK, "sizing 5");
	CHECK(bc_filter_sizing_explain(s.hash_count, 1, 5, 0.01, 5, &fs) == BC_OK &&
		  fs.sized_by == BC_SIZED_NEITHER, "one word: %d", fs.sized_by);
	/* the sizing's errors come through */
	CHECK(bc_filter_sizing_explain(5, 10, 10, 1.0, 10, &fs) == BC_ERR_FP_ALWAYS_PRESENT,
		  "fp_chance 1");
	CHECK(bc_filter_sizing_explain(5, 10, -1, 0.01, 10, &fs) == BC_ERR_N_NEGATIVE,
		  "negative partitions");
	CHECK(bc_sized_by_name(BC_SIZED_BOTH)[0] == 'f' && bc_sized_by_name(BC_SIZED_NEITHER)[0] == 'n',
		  "names");
}
