/*
 * bloom_may_contain.c - bloom_may_contain_rows(filter, keys [, key_type]):
 * the elements of an array that the filter may contain, as rows.  Users
 * call bloom_may_contain, a SQL function over it that PostgreSQL inlines
 * in FROM and replaces by it elsewhere (bloom_may_contain_plan.c).
 *
 * The keys are probed in batches by bloom_each.c, as bloom_contains_each
 * probes them (a stored filter by slices, or read whole once): the rows
 * are the elements whose answer is true, in storage order (unnest's
 * order, a multi-dimensional array read as one list), repeated as often
 * as the array repeats them; NULL elements give no row.
 *
 * The rows leave the way that costs least where the call is:
 *
 *   - in a select list (where bloom_may_contain always puts it, in FROM
 *     too once inlined), the rows stream value per call, one batch probed
 *     at a time, and no tuplestore holds them (the executor reads a
 *     materialized set back row by row: three to four times the cost of
 *     the rows themselves);
 *   - in a function scan of FROM (bloom_may_contain WITH ORDINALITY, in
 *     ROWS FROM or with a volatile argument, which PostgreSQL does not
 *     inline), every row of a set goes into a tuplestore whichever way the
 *     function returns it (ExecMakeTableFunctionResult, which says it
 *     prefers materialize mode), so the present keys of each batch go into
 *     that tuplestore as soon as the batch is probed: value per call would
 *     only add a call of the function per row.
 *
 * The three-argument form serializes each element as a key of that CQL
 * type (bloom_typed_key.c); a NULL key_type is the two-argument form.  A
 * NULL filter or array gives no rows.
 */
#include "postgres.h"

#include "funcapi.h"
#include "utils/array.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"

#include "bloom_each.h"
#include "bloomcass.h"

/* a call site's state (fn_extra) */
typedef struct MayContain
{
	BloomEachCache *cache;		/* the probes' state, kept from set to set */
	/* the set being returned value per call: its memory (NULL: none) */
	MemoryContext walk_mcxt;
	ExprContext *econtext;		/* where shutdown_walk is registered */
	BloomEachWalk walk;
	int			n;				/* keys of the current batch */
	int			next;			/* the next of them to return if present */
	Datum		values[BLOOM_EACH_BATCH];
	uint8		answers[BLOOM_EACH_BATCH];
} MayContain;

/* The rows into the set's tuplestore, a batch at a time. */
static Datum
materialize(FunctionCallInfo fcinfo, MayContain *mc)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	BloomEachWalk w;
	Datum		values[BLOOM_EACH_BATCH];
	uint8		answers[BLOOM_EACH_BATCH];
	bool		isnull = false;
	int			n;

	/* the tuplestore, of one column of the element type; an error (0A000)
	 * where a set cannot be returned */
	InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		return (Datum) 0;
	bloom_each_begin(&w, fcinfo, PG_GETARG_ARRAYTYPE_P(1), &mc->cache);
	while ((n = bloom_each_next(&w, values, answers)) > 0)
	{
		int			i;

		for (i = 0; i < n; i++)
			if (answers[i])
				tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, &values[i], &isnull);
	}
	return (Datum) 0;
}

static void
end_walk(MayContain *mc)
{
	if (mc->walk_mcxt != NULL)
		MemoryContextDelete(mc->walk_mcxt);
	mc->walk_mcxt = NULL;
}

/* a set left before its end (LIMIT, a rescan): the next call starts anew */
static void
shutdown_walk(Datum arg)
{
	end_walk((MayContain *) DatumGetPointer(arg));
}

/* The next row: the next present key of the batch, probing the next batch
 * when it is spent. */
static Datum
value_per_call(FunctionCallInfo fcinfo, MayContain *mc)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	if (mc->walk_mcxt == NULL)
	{
		MemoryContext walk_mcxt,
					old;
		ArrayType  *keys;

		if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		{
			rsinfo->isDone = ExprEndResult;
			PG_RETURN_NULL();
		}
		/* the keys, detoasted where they outlive this call */
		walk_mcxt = AllocSetContextCreate(fcinfo->flinfo->fn_mcxt, "bloom_may_contain",
										  ALLOCSET_DEFAULT_SIZES);
		old = MemoryContextSwitchTo(walk_mcxt);
		keys = PG_GETARG_ARRAYTYPE_P(1);
		MemoryContextSwitchTo(old);
		bloom_each_begin(&mc->walk, fcinfo, keys, &mc->cache);
		mc->walk_mcxt = walk_mcxt;
		mc->n = mc->next = 0;
		mc->econtext = rsinfo->econtext;
		RegisterExprContextCallback(mc->econtext, shutdown_walk, PointerGetDatum(mc));
	}
	for (;;)
	{
		while (mc->next < mc->n)
		{
			int			i = mc->next++;

			if (mc->answers[i])
			{
				rsinfo->isDone = ExprMultipleResult;
				return mc->values[i];
			}
		}
		mc->n = bloom_each_next(&mc->walk, mc->values, mc->answers);
		mc->next = 0;
		if (mc->n == 0)
			break;
	}
	UnregisterExprContextCallback(mc->econtext, shutdown_walk, PointerGetDatum(mc));
	end_walk(mc);
	rsinfo->isDone = ExprEndResult;
	PG_RETURN_NULL();
}

PG_FUNCTION_INFO_V1(bloom_may_contain_rows);
Datum
bloom_may_contain_rows(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MayContain *mc = (MayContain *) fcinfo->flinfo->fn_extra;

	if (mc == NULL)
	{
		mc = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(MayContain));
		fcinfo->flinfo->fn_extra = mc;
	}
	/* the three-argument form is not strict: a NULL key_type is none */
	if (rsinfo != NULL && IsA(rsinfo, ReturnSetInfo) &&
		(rsinfo->allowedModes & SFRM_ValuePerCall) != 0 &&
		(rsinfo->allowedModes & SFRM_Materialize_Preferred) == 0)
		return value_per_call(fcinfo, mc);
	return materialize(fcinfo, mc);
}
