/*
 * bloom_may_contain.c - bloom_may_contain(filter, keys anyarray): the
 * elements of an array that the filter may contain, as rows.
 *
 * The keys are probed in batches by bloom_each.c, as bloom_contains_each
 * probes them (a stored filter by slices, or read whole once): the rows
 * are the elements whose answer is true, in storage order (unnest's
 * order, a multi-dimensional array read as one list), repeated as often
 * as the array repeats them; NULL elements give no row.
 *
 * The rows are returned in materialize mode, each batch's present keys
 * put into the tuplestore as soon as the batch is probed.  In FROM, the
 * form a query of many keys takes, PostgreSQL's function scan puts every
 * row of a value-per-call function into a tuplestore as well
 * (ExecMakeTableFunctionResult, which asks for materialize mode), so
 * value-per-call would only add one call of the function per row; in a
 * select list the executor reads the tuplestore row by row.  The
 * tuplestore holds work_mem in memory and the rest in a temporary file.
 *
 * bloom_may_contain(filter, keys, key_type) serializes each element as a
 * key of that CQL type (bloom_typed_key.c); a NULL key_type is the
 * two-argument form.  A NULL filter or array gives no rows.
 */
#include "postgres.h"

#include "funcapi.h"
#include "utils/array.h"
#include "utils/tuplestore.h"

#include "bloom_each.h"
#include "bloomcass.h"

PG_FUNCTION_INFO_V1(bloom_may_contain);
Datum
bloom_may_contain(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	BloomEachWalk w;
	Datum		values[BLOOM_EACH_BATCH];
	uint8		answers[BLOOM_EACH_BATCH];
	bool		isnull = false;
	int			n;

	/* the set's tuplestore, of one column of the element type; an error
	 * (0A000) where a set cannot be returned */
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	/* the three-argument form is not strict: a NULL key_type is none */
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		return (Datum) 0;
	bloom_each_begin(&w, fcinfo, PG_GETARG_ARRAYTYPE_P(1));
	while ((n = bloom_each_next(&w, values, answers)) > 0)
	{
		int			i;

		for (i = 0; i < n; i++)
			if (answers[i])
				tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &values[i], &isnull);
	}
	return (Datum) 0;
}
