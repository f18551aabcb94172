/*
 * bc_filter_sizing.c - which key count an SSTable's filter was sized for.
 *
 * Cassandra sizes the filter of an SSTable when it starts writing it,
 * FilterFactory.getFilter(keys, fp_chance), with keys:
 *
 *   - a flush: the memtable's partition count (Memtable's flush writer,
 *     estimatedKeys = the partitions it holds): the SSTable's own count;
 *   - a compaction: SSTableReader.getApproximateKeyCount of its inputs,
 *     the merge of their cardinality estimators (CompactionAwareWriter,
 *     3.0 to 5.0: DefaultCompactionWriter passes it whole;
 *     MaxSSTableSizeWriter and the leveled writers divide it by the
 *     SSTables expected), at least the table's min_index_interval in 2.1's
 *     CompactionTask and in every version's cleanup and anticompaction
 *     (CompactionManager: Math.max(minIndexInterval, ...)).
 *
 * The merged estimate of a compaction's inputs is the output's own
 * estimator when no partition was dropped and one SSTable written (a
 * union of HyperLogLogs is their registers' maximum, a sparse set's union
 * the same set), so the SSTable's own cardinality stands for it.  An
 * estimate below the real count gives a filter smaller than the flush's;
 * when the rate of that filter holding the real partitions is above
 * fp_chance, it is undersized.
 *
 * ScyllaDB sizes a compaction's filter from the sum of its inputs'
 * partition counts (compaction.cc: _estimated_partitions +=
 * get_estimated_key_count(), the partition size histogram's total,
 * divided over the SSTables expected) and rebuilds, before sealing, a
 * filter whose rate at the real count is outside 75% to 125% of the one
 * configured (sstable::maybe_rebuild_filter_from_index): no ScyllaDB
 * filter is sized from its estimator.
 */
#include "bc_filter.h"
#include "bc_filter_sizing.h"
#include "bc_health.h"
#include "bc_sizing.h"
#include "bc_status.h"

const char *
bc_sized_by_name(bc_sized_by s)
{
	switch (s)
	{
		case BC_SIZED_FLUSH:
			return "flush";
		case BC_SIZED_COMPACTION:
			return "compaction";
		case BC_SIZED_BOTH:
			return "flush or compaction";
		case BC_SIZED_NEITHER:
			break;
	}
	return "neither";
}

static int
in_range(const bc_filter_sizing *o, int64_t n)
{
	return o->has_sized_for && n >= o->sized_for_min && n <= o->sized_for_max;
}

bc_status
bc_filter_sizing_explain(int32_t hash_count, int64_t word_count, int64_t partitions,
						 double fp_chance, int64_t estimate, bc_filter_sizing *out)
{
	bc_sizing	s;
	bc_status	st;
	int			flush,
				compaction = 0;

	out->has_sized_for = out->has_compaction = out->undersized = 0;
	out->sized_for_min = out->sized_for_max = 0;
	out->compaction_keys = out->compaction_word_count = 0;
	out->sized_by = BC_SIZED_NEITHER;
	out->fpr_at_partitions = 0.0;

	if ((st = bc_sizing_compute(partitions, fp_chance, &s)) != BC_OK)
		return st;
	out->flush_word_count = s.word_count;
	out->has_sized_for = bc_health_sized_for(hash_count, word_count, fp_chance,
											 &out->sized_for_min, &out->sized_for_max);
	if (word_count > 0)
		out->fpr_at_partitions = bc_fpr_theoretical((uint64_t) partitions,
													(uint64_t) word_count * 64, hash_count);
	flush = in_range(out, partitions);
	if (estimate >= 0)
	{
		int64_t		floor_keys = estimate < BC_MIN_INDEX_INTERVAL ? BC_MIN_INDEX_INTERVAL : estimate;

		out->has_compaction = 1;
		out->compaction_keys = estimate;
		if (in_range(out, estimate))
			compaction = 1;
		else if (in_range(out, floor_keys))
		{
			compaction = 1;
			out->compaction_keys = floor_keys;
		}
		if (bc_sizing_compute(out->compaction_keys, fp_chance, &s) == BC_OK)
			out->compaction_word_count = s.word_count;
	}
	out->sized_by = flush && compaction ? BC_SIZED_BOTH : flush ? BC_SIZED_FLUSH :
		compaction ? BC_SIZED_COMPACTION : BC_SIZED_NEITHER;
	out->undersized = out->sized_by == BC_SIZED_COMPACTION &&
		word_count < out->flush_word_count && out->fpr_at_partitions > fp_chance;
	return BC_OK;
}
