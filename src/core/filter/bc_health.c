/*
 * bc_health.c - how a filter compares with the one Cassandra's sizing gives
 * for an SSTable's real partition count and fp_chance (bloom_health).
 *
 * Cassandra sizes a filter when it starts writing an SSTable, from the
 * number of partitions it expects, not from the number it ends up writing.
 * An estimate far below the real count leaves a saturated filter (the
 * offline CQLSSTableWriter, for one, writes 16-byte filters:
 * CASSANDRA-21423); one far above leaves a filter larger than it needs.
 *
 * The rule (the SQL COMMENT and the README state the same):
 *
 *   1. the filter's hash count and word count are exactly those of
 *      Cassandra's sizing for (partitions, fp_chance)      -> ok
 *   2. else the hash count differs                        -> hash_count_mismatch
 *      (Cassandra's hash count depends on fp_chance alone for every key
 *      count below 2^63 / 20, so the filter was sized for another
 *      fp_chance, typically one the table had before an ALTER TABLE, or
 *      written by another tool)
 *   3. else r = fpr_at_partitions / expected_fpr, the theoretical rate of
 *      this filter at the real partition count over that of Cassandra's
 *      filter at the same count:
 *        r > 1.25                                          -> saturated
 *        r < 0.75                                          -> oversized
 *        0.75 <= r <= 1.25                                 -> ok
 *      With no partitions both rates are 0 and r is undefined: any filter
 *      larger than Cassandra's one word is oversized (step 1 took the
 *      one-word filter; none is smaller).
 *
 * The tolerance is ScyllaDB's: since scylladb/scylladb#19190 (the fix of
 * #19049) sstable::maybe_rebuild_filter_from_index in sstables/sstables.cc
 * rebuilds a filter from Index.db before the SSTable is sealed unless its
 * false-positive rate at the real partition count is within 75% to 125% of
 * the configured one.  ScyllaDB implements that as a size window, the
 * filter sizes for (partitions, 1.25 * fp_chance) and (partitions,
 * 0.75 * fp_chance); through the coarse probability table that window is
 * lopsided (for fp_chance 0.01 its lower end is the exact size, so a
 * filter one word short is rebuilt) and at small counts it is all
 * rounding.  We compare the rates themselves, and against the rate of the
 * filter Cassandra would write rather than fp_chance: Cassandra's 20 spare
 * bits and 64-bit words keep small filters far below fp_chance, so a
 * filter sized for 4 keys and holding 5 has 0.35% against Cassandra's
 * 0.018% at fp_chance 1%: saturated, though below fp_chance.
 */
#include <math.h>

#include "bc_filter.h"
#include "bc_health.h"
#include "bc_sizing.h"
#include "bc_status.h"

/* ScyllaDB's tolerance around the expected rate (scylladb#19190) */
#define BC_HEALTH_TOLERANCE_LOW 0.75
#define BC_HEALTH_TOLERANCE_HIGH 1.25

const char *
bc_health_verdict_name(bc_health_verdict v)
{
	switch (v)
	{
		case BC_HEALTH_OK:
			return "ok";
		case BC_HEALTH_SATURATED:
			return "saturated";
		case BC_HEALTH_OVERSIZED:
			return "oversized";
		case BC_HEALTH_HASH_COUNT_MISMATCH:
			return "hash_count_mismatch";
	}
	return "unknown";
}

int
bc_health_sized_for(int32_t hash_count, int64_t word_count, double fp_chance,
					int64_t *min_keys, int64_t *max_keys)
{
	int			k,
				b;
	int64_t		lo,
				hi;

	*min_keys = *max_keys = 0;
	if (isnan(fp_chance) || fp_chance <= 0.0 || fp_chance >= 1.0)
		return 0;
	if (word_count < 1 || word_count > BC_MAX_WORDS_CASSANDRA)
		return 0;

	/*
	 * Cassandra refuses more than 2^31-1 words, which n * b + 20 bits exceed
	 * long before n reaches 2^63 / 20, where maxBucketsPerElement drops
	 * below 20: every filter it writes was sized with 20 buckets at most.
	 */
	if (bc_bloom_spec(20, fp_chance, &k, &b) != BC_OK || k != hash_count)
		return 0;

	/*
	 * word_count = ((n * b + 20 - 1) >> 6) + 1, i.e.
	 * 64 (W - 1) < n * b + 20 <= 64 W; both ends fit easily in 64 bits
	 */
	lo = 64 * (word_count - 1) - 20;	/* n * b > lo */
	hi = 64 * word_count - 20;	/* n * b <= hi, and hi >= 44 */
	*min_keys = lo < 0 ? 0 : lo / b + 1;
	*max_keys = hi / b;
	if (*min_keys > *max_keys)
	{
		*min_keys = *max_keys = 0;
		return 0;
	}
	return 1;
}

bc_status
bc_health_compute(int32_t hash_count, int64_t word_count, uint64_t bits_set,
				  int64_t partitions, double fp_chance, bc_health *out)
{
	bc_status	st;
	uint64_t	capacity;

	out->has_sized_for = 0;
	out->sized_for_min = out->sized_for_max = 0;
	out->fpr_at_partitions = out->expected_fpr = out->fill_fpr = 0.0;
	out->fpr_ratio = NAN;
	out->verdict = BC_HEALTH_OK;

	st = bc_sizing_compute(partitions, fp_chance, &out->expected);
	if (st != BC_OK)
		return st;
	if (hash_count < BC_MIN_HASH_COUNT || hash_count > BC_MAX_HASH_COUNT)
		return BC_ERR_HASH_COUNT;
	if (word_count < 1)
		return BC_ERR_WORD_COUNT;
	if (word_count > BC_MAX_WORDS_CASSANDRA)
		return BC_ERR_TOO_LARGE;

	capacity = (uint64_t) word_count * 64;
	if (bits_set > capacity)
		bits_set = capacity;

	out->has_sized_for = bc_health_sized_for(hash_count, word_count, fp_chance,
											 &out->sized_for_min, &out->sized_for_max);
	out->fpr_at_partitions = bc_fpr_theoretical((uint64_t) partitions, capacity, hash_count);
	out->expected_fpr = bc_fpr_theoretical((uint64_t) partitions,
										   (uint64_t) out->expected.capacity_bits,
										   out->expected.hash_count);
	out->fill_fpr = bc_fpr_from_fill(bits_set, capacity, hash_count);
	if (out->expected_fpr > 0.0)
		out->fpr_ratio = out->fpr_at_partitions / out->expected_fpr;

	if (hash_count == out->expected.hash_count && word_count == out->expected.word_count)
		out->verdict = BC_HEALTH_OK;
	else if (hash_count != out->expected.hash_count)
		out->verdict = BC_HEALTH_HASH_COUNT_MISMATCH;
	else if (out->expected_fpr > 0.0)
	{
		if (out->fpr_at_partitions > BC_HEALTH_TOLERANCE_HIGH * out->expected_fpr)
			out->verdict = BC_HEALTH_SATURATED;
		else if (out->fpr_at_partitions < BC_HEALTH_TOLERANCE_LOW * out->expected_fpr)
			out->verdict = BC_HEALTH_OVERSIZED;
		else
			out->verdict = BC_HEALTH_OK;
	}
	else
		out->verdict = word_count > out->expected.word_count ?
			BC_HEALTH_OVERSIZED : BC_HEALTH_OK;
	return BC_OK;
}
