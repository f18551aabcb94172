/*
 * bc_hll_scylla.c - ScyllaDB's cardinality estimator: hll::HyperLogLog of
 * scylladb/scylladb sstables/hyperloglog.hh (Hideaki Ohno's HyperLogLog as
 * ScyllaDB modified it), which metadata_collector writes into
 * CompactionMetadata with get_bytes() in stream-lib's framing (parsed by
 * bc_hll_parse).  ScyllaDB itself never reads it back (from_bytes aborts);
 * its compaction sizes the output's filter from the inputs' partition
 * counts instead.  Cassandra's HyperLogLogPlus decodes the same bytes as
 * four 32-bit register words of six 5-bit registers, which is not what
 * ScyllaDB counted.
 *
 * estimate(): alpha * m^2 over the sum of 2^-M[i]; at most 2.5 m, linear
 * counting when a register is 0; above 2^32 / 30, the large range
 * correction -2^32 log(1 - E / 2^32).
 */
#include <math.h>
#include <stdint.h>

#include "bc_hll.h"
#include "bc_status.h"

bc_status
bc_hll_scylla_estimate(const bc_hll_view *v, int64_t *card)
{
	const double pow_2_32 = 4294967296.0;
	double		m = (double) v->m,
				alpha,
				sum = 0.0,
				estimate;
	uint32_t	i,
				zeros = 0;

	switch (v->m)
	{
		case 16:
			alpha = 0.673;
			break;
		case 32:
			alpha = 0.697;
			break;
		case 64:
			alpha = 0.709;
			break;
		default:
			alpha = 0.7213 / (1.0 + 1.079 / m);
			break;
	}
	for (i = 0; i < v->m; i++)
	{
		sum += 1.0 / pow(2.0, v->registers[i]);
		if (v->registers[i] == 0)
			zeros++;
	}
	estimate = alpha * m * m / sum;
	if (estimate <= 2.5 * m)
	{
		if (zeros != 0)
			estimate = m * log(m / zeros);
	}
	else if (estimate > (1.0 / 30.0) * pow_2_32)
		estimate = -pow_2_32 * log(1.0 - (estimate / pow_2_32));

	/* registers no writer gives (a run of more than 61 zero bits) */
	if (!isfinite(estimate) || estimate < 0 || estimate >= 9.2e18)
		return BC_ERR_HLL_FORMAT;
	*card = (int64_t) floor(estimate + 0.5);
	return BC_OK;
}
