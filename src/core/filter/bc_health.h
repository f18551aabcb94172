/*
 * bc_health.h - a filter against the one Cassandra's sizing gives for an
 * SSTable's real partition count (bc_health.c, which states the rule;
 * bloom_health in SQL).
 */
#ifndef BC_HEALTH_H
#define BC_HEALTH_H

#include <stdint.h>

#include "bc_sizing.h"
#include "bc_status.h"

typedef enum bc_health_verdict
{
	BC_HEALTH_OK = 0,			/* Cassandra's shape, or a rate within tolerance */
	BC_HEALTH_SATURATED,		/* rate above 1.25 x that of Cassandra's filter */
	BC_HEALTH_OVERSIZED,		/* rate below 0.75 x (or bigger, for 0 keys) */
	BC_HEALTH_HASH_COUNT_MISMATCH	/* not the hash count of this fp_chance */
} bc_health_verdict;

typedef struct bc_health
{
	bc_sizing	expected;		/* Cassandra's filter for (partitions, fp) */
	int			has_sized_for;	/* some key count gives this filter's shape */
	int64_t		sized_for_min;	/* those key counts, when has_sized_for */
	int64_t		sized_for_max;
	double		fpr_at_partitions;	/* this filter, partitions keys */
	double		expected_fpr;	/* Cassandra's filter, partitions keys */
	double		fill_fpr;		/* (bits_set / capacity) ^ k */
	double		fpr_ratio;		/* fpr_at_partitions / expected_fpr; NaN
								 * when expected_fpr is 0 (no partitions) */
	bc_health_verdict verdict;
} bc_health;

/*
 * Judge a filter (hash_count, word_count, bits_set of its bitset) against
 * Cassandra's sizing for (partitions, fp_chance); the rule is stated in
 * bc_health.c.  The statuses of bc_sizing_compute for (partitions,
 * fp_chance) come first (BC_ERR_TOO_LARGE: Cassandra cannot size a filter
 * for that many keys), then BC_ERR_HASH_COUNT, BC_ERR_WORD_COUNT (< 1) and
 * BC_ERR_TOO_LARGE (more words than Cassandra allows) for the filter.
 * bits_set above the capacity counts as the capacity.
 */
bc_status	bc_health_compute(int32_t hash_count, int64_t word_count, uint64_t bits_set,
							  int64_t partitions, double fp_chance, bc_health *out);

/* The key counts [*min_keys, *max_keys] for which Cassandra's sizing at
 * fp_chance gives this hash count and word count: 1, or 0 when none does
 * (also for an invalid fp_chance or word count).  For the core
 * (bc_health_compute) and its tests. */
int			bc_health_sized_for(int32_t hash_count, int64_t word_count, double fp_chance,
								int64_t *min_keys, int64_t *max_keys);

const char *bc_health_verdict_name(bc_health_verdict v);

#endif							/* BC_HEALTH_H */
