/*
 * bloom_health.c - bloom_health(f, partitions, fp_chance): a filter against
 * the one Cassandra's sizing gives for an SSTable's real partition count
 * and fp_chance.  The computation and the verdict's rule are the core's
 * (src/core/filter/bc_health.c, where the rule is stated); this file checks the
 * arguments as bloom_sizing does, counts the bits once and builds the row.
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "bc_filter.h"
#include "bc_health.h"
#include "bc_sizing.h"
#include "bc_status.h"
#include "bloomcass.h"

#define HEALTH_COLUMNS 11

PG_FUNCTION_INFO_V1(bloom_health);
Datum
bloom_health(PG_FUNCTION_ARGS)
{
	int64		n = PG_GETARG_INT64(1);
	double		fp = PG_GETARG_FLOAT8(2);
	bc_sizing	s;
	bc_filter	f;
	bc_health	h;
	bc_status	st;
	TupleDesc	tupdesc;
	Datum		v[HEALTH_COLUMNS];
	bool		nulls[HEALTH_COLUMNS] = {0};

	/* the arguments first, before a large filter is read */
	if (n < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the number of partitions must not be negative")));
	st = bc_sizing_compute(n, fp, &s);
	if (st == BC_ERR_TOO_LARGE)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("Cassandra cannot size a filter for " INT64_FORMAT " partitions at fp_chance %g",
						n, fp),
				 errdetail("It would need " INT64_FORMAT " words; Cassandra allows at most " INT64_FORMAT ".",
						   (int64) s.word_count, (int64) BC_MAX_WORDS_CASSANDRA)));
	if (st == BC_ERR_N_TOO_MANY)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("Cassandra cannot size a filter for " INT64_FORMAT " partitions at fp_chance %g: too many partitions",
						n, fp),
				 errdetail_plural("Cassandra's BloomCalculations.maxBucketsPerElement allows at most %d bit per partition at " INT64_FORMAT " partitions, too few for fp_chance %g.",
								  "Cassandra's BloomCalculations.maxBucketsPerElement allows at most %d bits per partition at " INT64_FORMAT " partitions, too few for fp_chance %g.",
								  bc_max_buckets_per_element(n),
								  bc_max_buckets_per_element(n), n, fp)));
	if (st != BC_OK)
	{
		/* the rest concern fp_chance (at this key count): reported as
		 * bloom_create and bloom_sizing report them */
		bloom_compute_sizing(n, fp, &s);
		bloom_error(st);
	}

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");

	bloom_view(PG_GETARG_BLOOM_P(0), &f);
	st = bc_health_compute(f.hash_count, f.word_count, bloom_popcount(&f), n, fp, &h);
	if (st != BC_OK)
		bloom_error(st);

	v[0] = Int32GetDatum(h.expected.hash_count);
	v[1] = Int64GetDatum(h.expected.word_count);
	v[2] = Int32GetDatum(f.hash_count);
	v[3] = Int64GetDatum(f.word_count);
	v[4] = Int64GetDatum(h.sized_for_min);
	v[5] = Int64GetDatum(h.sized_for_max);
	nulls[4] = nulls[5] = !h.has_sized_for;
	v[6] = Float8GetDatum(h.fpr_at_partitions);
	v[7] = Float8GetDatum(h.expected_fpr);
	v[8] = Float8GetDatum(h.fpr_ratio);
	nulls[8] = isnan(h.fpr_ratio);	/* no partitions: both rates are 0 */
	v[9] = Float8GetDatum(h.fill_fpr);
	v[10] = CStringGetTextDatum(bc_health_verdict_name(h.verdict));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), v, nulls)));
}
