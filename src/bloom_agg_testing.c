/*
 * bloom_agg_testing.c - entry points for the regression tests of the exact
 * bloom_agg's serialized states, which no SQL statement reaches otherwise.
 *
 * The extension's scripts do not declare them: a test declares them itself
 * (CREATE FUNCTION ... LANGUAGE C, which takes a superuser) as transition
 * and final functions of aggregates of its own:
 *
 *   bloom_agg_test_combine_serialized(internal, bytea): what a Finalize
 *     Aggregate does with each serialized state it receives (deserialize,
 *     then combine); with bloom_agg_exact_final as the final function.
 *   bloom_agg_test_serialize_partial(internal): bloom_agg_exact_serialize
 *     called as the Agg node of a partial aggregate calls it, so that a
 *     large state is handed over, as in a parallel leader.
 *   bloom_agg_test_wrapped_trans(internal, integer, anyelement): the exact
 *     transition function called as a wrapper such as Citus's calls it,
 *     without an expression to read the key's type from (the integer stands
 *     for the wrapper's own leading argument).
 */
#include "postgres.h"

#include "fmgr.h"
#include "nodes/execnodes.h"

#include "bloom_agg.h"

extern PGDLLEXPORT Datum bloom_agg_exact_trans(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum bloom_agg_exact_combine(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum bloom_agg_exact_serialize(PG_FUNCTION_ARGS);
extern PGDLLEXPORT Datum bloom_agg_exact_deserialize(PG_FUNCTION_ARGS);

PG_FUNCTION_INFO_V1(bloom_agg_test_combine_serialized);
Datum
bloom_agg_test_combine_serialized(PG_FUNCTION_ARGS)
{
	LOCAL_FCINFO(inner, 2);
	Datum		state;
	Datum		result;

	bloom_agg_context(fcinfo, "bloom_agg_test_combine_serialized");
	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}

	/* deserialize(bytes, dummy), in the calling aggregate's context */
	InitFunctionCallInfoData(*inner, NULL, 2, InvalidOid, fcinfo->context, NULL);
	inner->args[0].value = PG_GETARG_DATUM(1);
	inner->args[0].isnull = false;
	inner->args[1].value = (Datum) 0;
	inner->args[1].isnull = true;
	state = bloom_agg_exact_deserialize(inner);

	/* combine(the state so far, the deserialized one) */
	InitFunctionCallInfoData(*inner, NULL, 2, InvalidOid, fcinfo->context, NULL);
	inner->args[0].value = PG_ARGISNULL(0) ? (Datum) 0 : PG_GETARG_DATUM(0);
	inner->args[0].isnull = PG_ARGISNULL(0);
	inner->args[1].value = state;
	inner->args[1].isnull = false;
	result = bloom_agg_exact_combine(inner);
	if (inner->isnull)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(result);
}

PG_FUNCTION_INFO_V1(bloom_agg_test_serialize_partial);
Datum
bloom_agg_test_serialize_partial(PG_FUNCTION_ARGS)
{
	AggState   *aggstate;
	AggSplit	saved;
	Datum		result;

	bloom_agg_context(fcinfo, "bloom_agg_test_serialize_partial");
	if (PG_ARGISNULL(0) || !IsA(fcinfo->context, AggState))
		elog(ERROR, "bloom_agg_test_serialize_partial needs a state and an Agg node");
	aggstate = (AggState *) fcinfo->context;
	saved = aggstate->aggsplit;
	aggstate->aggsplit = AGGSPLIT_INITIAL_SERIAL;
	PG_TRY();
	{
		result = bloom_agg_exact_serialize(fcinfo);
	}
	PG_FINALLY();
	{
		aggstate->aggsplit = saved;
	}
	PG_END_TRY();
	return result;
}

PG_FUNCTION_INFO_V1(bloom_agg_test_wrapped_trans);
Datum
bloom_agg_test_wrapped_trans(PG_FUNCTION_ARGS)
{
	FmgrInfo   *flinfo = (FmgrInfo *) fcinfo->flinfo->fn_extra;
	LOCAL_FCINFO(inner, 2);
	Datum		result;

	/* set up once, as fmgr_info would: no fn_expr */
	if (flinfo == NULL)
	{
		flinfo = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(FmgrInfo));
		flinfo->fn_addr = bloom_agg_exact_trans;
		flinfo->fn_nargs = 2;
		flinfo->fn_mcxt = fcinfo->flinfo->fn_mcxt;
		fcinfo->flinfo->fn_extra = flinfo;
	}
	InitFunctionCallInfoData(*inner, flinfo, 2, fcinfo->fncollation, fcinfo->context, NULL);
	inner->args[0] = fcinfo->args[0];
	inner->args[1] = fcinfo->args[2];
	result = FunctionCallInvoke(inner);
	if (inner->isnull)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(result);
}
