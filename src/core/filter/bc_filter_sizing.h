/*
 * bc_filter_sizing.h - why an SSTable's filter has the size it has
 * (bc_filter_sizing.c; cassandra_filter_sizing in SQL): the size a flush
 * gives for its partition count, the size a compaction gives for its
 * cardinality estimate, or neither.
 */
#ifndef BC_FILTER_SIZING_H
#define BC_FILTER_SIZING_H

#include <stdint.h>

#include "bc_status.h"

/* the minimum key count of cleanup and anticompaction (and of 2.1's
 * compactions): the table's min_index_interval, 128 by default */
#define BC_MIN_INDEX_INTERVAL 128

typedef enum bc_sized_by
{
	BC_SIZED_NEITHER = 0,
	BC_SIZED_FLUSH,				/* FilterFactory.getFilter(partitions) */
	BC_SIZED_COMPACTION,		/* ... of the cardinality estimate */
	BC_SIZED_BOTH				/* the two give this size */
} bc_sized_by;

typedef struct bc_filter_sizing
{
	int			has_sized_for;	/* some key count gives this shape */
	int64_t		sized_for_min;
	int64_t		sized_for_max;
	int64_t		flush_word_count;	/* for the partition count */
	int			has_compaction; /* an estimate is given */
	int64_t		compaction_keys;	/* the estimate, or 128 when only the
									 * minimum gives this size */
	int64_t		compaction_word_count;
	bc_sized_by sized_by;
	double		fpr_at_partitions;	/* this filter holding them */
	int			undersized;		/* sized by the estimate alone, smaller than
								 * the flush's, its rate above fp_chance */
} bc_filter_sizing;

/*
 * Explain a filter of hash_count and word_count for an SSTable of
 * partitions partitions written at fp_chance; estimate < 0: none (a
 * ScyllaDB-written SSTable, whose compactions size filters from partition
 * counts, or no estimator).  Errors are bc_sizing_compute's for
 * (partitions, fp_chance).
 */
bc_status	bc_filter_sizing_explain(int32_t hash_count, int64_t word_count,
									 int64_t partitions, double fp_chance,
									 int64_t estimate, bc_filter_sizing *out);

const char *bc_sized_by_name(bc_sized_by s);

#endif							/* BC_FILTER_SIZING_H */
