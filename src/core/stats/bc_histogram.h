/*
 * bc_histogram.h - the histograms of Statistics.db as Cassandra computes
 * with them (bc_histogram.c): EstimatedHistogram's buckets, mean and count,
 * the tombstone drop time histogram's sum, and
 * StatsMetadata.getEstimatedDroppableTombstoneRatio.  The histograms are
 * those bc_statistics_parse bounded (bc_statistics.h).
 */
#ifndef BC_HISTOGRAM_H
#define BC_HISTOGRAM_H

#include <stdint.h>

#include "bc_statistics.h"

/*
 * Bucket i (0 .. h->n - 1) of an EstimatedHistogram: its count, and its
 * bound as sstablemetadata prints it (EstimatedHistogram.getBucketOffsets:
 * the offset stored with entry i + 1, the largest value the bucket
 * counts); the last bucket counts what is above every bound: *has_bound 0.
 */
void		bc_est_bucket(const bc_est_histogram *h, uint32_t i, int64_t *bound,
						  int *has_bound, int64_t *count);

/*
 * EstimatedHistogram.count() and mean() as Cassandra 5.0 computes them
 * after StatsMetadataSerializer.deserialize has cleared the overflow
 * bucket (clearOverflow): the last bucket counts for neither.
 */
int64_t		bc_est_count(const bc_est_histogram *h);
int64_t		bc_est_mean(const bc_est_histogram *h);

/* Bin i of the tombstone drop time histogram, its point (seconds) and
 * count as TombstoneHistogram's deserializers cast them. */
void		bc_tomb_bin(const bc_tomb_histogram *h, uint32_t i, int64_t *point,
						int32_t *count);

/*
 * TombstoneHistogram.sum(gc_before): the estimated tombstones whose drop
 * time is at most gc_before (StreamingTombstoneHistogramBuilder.DataHolder.
 * sum, with Java's (int) cast of gc_before).
 */
double		bc_tomb_sum(const bc_tomb_histogram *h, int64_t gc_before);

/*
 * StatsMetadata.getEstimatedDroppableTombstoneRatio(gc_before)
 * (sstablemetadata -g): the tombstones droppable before gc_before over
 * the estimated cell count (mean times count of the cell count
 * histogram); 0 when that is not positive.  s must hold the stats
 * (s->has_stats_detail).
 */
double		bc_droppable_ratio(const bc_statistics *s, int64_t gc_before);

#endif							/* BC_HISTOGRAM_H */
