/*
 * bloom_sstable_parse.c - the SSTable component readers of the core for
 * bytes given as arguments: cassandra_statistics (Statistics.db),
 * cassandra_summary (Summary.db) and cassandra_index_keys (Index.db).  Their
 * errors are reported by bloom_component_error (bloom_util.c).
 *
 * The version is an argument (text, 'nb'): the bytes do not say which
 * layout they are in.  An unknown version is an invalid parameter (22023),
 * a version bloomcass does not read (before 1.2) or a component a BTI
 * SSTable does not have is not supported (0A000), malformed bytes have the
 * SQLSTATE of their status (22P03, XX001 for a Statistics.db checksum).
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"

#include "bc_index.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "bc_summary.h"
#include "bloomcass.h"

/*
 * cassandra_statistics(data bytea, version text, OUT partitioner text,
 * OUT fp_chance float8, OUT partitions bigint, OUT key_type text,
 * OUT checksummed boolean)
 */
PG_FUNCTION_INFO_V1(cassandra_statistics);
Datum
cassandra_statistics(PG_FUNCTION_ARGS)
{
	bytea	   *data = PG_GETARG_BYTEA_PP(0);
	char	   *version = text_to_cstring(PG_GETARG_TEXT_PP(1));
	TupleDesc	tupdesc;
	bc_statistics s;
	bc_status	st;
	Datum		values[5];
	bool		nulls[5] = {false, false, false, false, false};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);

	st = bc_statistics_parse((const uint8 *) VARDATA_ANY(data), VARSIZE_ANY_EXHDR(data),
							 version, strlen(version), &s);
	if (st != BC_OK)
		bloom_component_error(st, "Statistics.db", version, NULL, 0);

	values[0] = PointerGetDatum(cstring_to_text_with_len((const char *) s.partitioner,
														 (int) s.partitioner_len));
	values[1] = Float8GetDatum(s.fp_chance);
	nulls[1] = !s.has_fp_chance;
	values[2] = Int64GetDatum(s.partitions);
	if (s.key_type != NULL)
		values[3] = PointerGetDatum(cstring_to_text_with_len((const char *) s.key_type,
															 (int) s.key_type_len));
	else
		nulls[3] = true;
	values[4] = BoolGetDatum(s.checksummed != 0);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * cassandra_summary(data bytea, version text, OUT min_index_interval
 * integer, OUT sampled_entries integer, OUT sampling_level integer,
 * OUT size_at_full_sampling integer, OUT first_key bytea, OUT last_key
 * bytea)
 */
PG_FUNCTION_INFO_V1(cassandra_summary);
Datum
cassandra_summary(PG_FUNCTION_ARGS)
{
	bytea	   *data = PG_GETARG_BYTEA_PP(0);
	char	   *version = text_to_cstring(PG_GETARG_TEXT_PP(1));
	TupleDesc	tupdesc;
	bc_summary	s;
	bc_status	st;
	Datum		values[6];
	bool		nulls[6] = {false, false, false, false, false, false};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);

	st = bc_summary_parse(version, strlen(version), (const uint8 *) VARDATA_ANY(data),
						  VARSIZE_ANY_EXHDR(data), &s);
	if (st != BC_OK)
		bloom_component_error(st, "Summary.db", version, NULL, 0);

	values[0] = Int32GetDatum(s.min_index_interval);
	values[1] = Int32GetDatum(s.count);
	values[2] = Int32GetDatum(s.sampling_level);
	values[3] = Int32GetDatum(s.size_at_full_sampling);
	values[4] = PointerGetDatum(bloom_bytea(s.first, s.first_len));
	values[5] = PointerGetDatum(bloom_bytea(s.last, s.last_len));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/* cassandra_index_keys: the cursor over the whole argument */
typedef struct IndexKeysState
{
	bc_index_cursor cursor;
	char	   *version;
	uint64		keys;
} IndexKeysState;

/*
 * cassandra_index_keys(data bytea, version text) RETURNS SETOF bytea: the
 * partition keys of an Index.db in file order, one per call (the bytes are
 * read once, by the same cursor as a file, and nothing else is kept).
 */
PG_FUNCTION_INFO_V1(cassandra_index_keys);
Datum
cassandra_index_keys(PG_FUNCTION_ARGS)
{
	FuncCallContext *funcctx;
	IndexKeysState *state;
	bc_index_entry e;
	bc_status	st;
	int			got;

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext oldcontext;
		bytea	   *data;

		funcctx = SRF_FIRSTCALL_INIT();
		oldcontext = MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);
		/* a detoasted copy, if any, lives as long as the scan */
		data = PG_GETARG_BYTEA_PP(0);
		state = (IndexKeysState *) palloc(sizeof(IndexKeysState));
		state->version = text_to_cstring(PG_GETARG_TEXT_PP(1));
		state->keys = 0;
		st = bc_index_init(&state->cursor, state->version, strlen(state->version));
		if (st != BC_OK)
			bloom_component_error(st, "Index.db", state->version, NULL, 0);
		st = bc_index_feed(&state->cursor, (const uint8 *) VARDATA_ANY(data),
						   VARSIZE_ANY_EXHDR(data));
		if (st != BC_OK)
			bloom_component_error(st, "Index.db", state->version, NULL, 0);
		funcctx->user_fctx = state;
		MemoryContextSwitchTo(oldcontext);
	}
	funcctx = SRF_PERCALL_SETUP();
	state = (IndexKeysState *) funcctx->user_fctx;

	CHECK_FOR_INTERRUPTS();
	st = bc_index_next(&state->cursor, &e, &got);
	if (st != BC_OK)
		bloom_component_error(st, "Index.db", state->version, NULL, state->keys);
	if (got)
	{
		state->keys++;
		SRF_RETURN_NEXT(funcctx, PointerGetDatum(bloom_bytea(e.key, e.key_len)));
	}
	st = bc_index_finish(&state->cursor);
	if (st != BC_OK)
		bloom_component_error(st, "Index.db", state->version, NULL, state->keys);
	SRF_RETURN_DONE(funcctx);
}
