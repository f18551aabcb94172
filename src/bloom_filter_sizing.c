/*
 * bloom_filter_sizing.c - cassandra_filter_sizing(filter, statistics,
 * version): whether an SSTable's filter has the size a flush gives for its
 * partition count, the size a compaction gives for its cardinality
 * estimate, or neither (src/core/filter/bc_filter_sizing.c states the rule).
 * The partition count, fp_chance and the estimate come from its
 * Statistics.db; a ScyllaDB-written estimator gives no compaction size
 * (ScyllaDB sizes a compaction's filter from partition counts).
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "bc_filter.h"
#include "bc_filter_sizing.h"
#include "bc_hll.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "bloomcass.h"

#define SIZING_COLUMNS 14

PG_FUNCTION_INFO_V1(cassandra_filter_sizing);
Datum
cassandra_filter_sizing(PG_FUNCTION_ARGS)
{
	bytea	   *data = PG_GETARG_BYTEA_PP(1);
	char	   *version = text_to_cstring(PG_GETARG_TEXT_PP(2));
	bc_statistics s;
	bc_filter	f;
	bc_filter_sizing fs;
	bc_status	st;
	int64		card = -1;
	const char *estimator = NULL;
	bool		has_card;
	TupleDesc	tupdesc;
	Datum		v[SIZING_COLUMNS];
	bool		n[SIZING_COLUMNS] = {0};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	st = bc_statistics_parse((const uint8 *) VARDATA_ANY(data), VARSIZE_ANY_EXHDR(data),
							 version, strlen(version), &s);
	if (st != BC_OK)
		bloom_component_error(st, "Statistics.db", version, NULL, 0);
	if (!s.has_fp_chance)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("Statistics.db of version %s does not store fp_chance", version),
				 errdetail("Cassandra stores it from 2.0 (ja) on.")));
	has_card = bloom_statistics_cardinality(&s, version, NULL, &card, &estimator);
	bloom_view(PG_GETARG_BLOOM_P(0), &f);
	st = bc_filter_sizing_explain(f.hash_count, f.word_count, s.partitions, s.fp_chance,
								  has_card && strcmp(estimator, bc_hll_kind_name(BC_HLL_STREAMLIB)) == 0 ?
								  card : -1, &fs);
	if (st != BC_OK)
		bloom_error(st);

	v[0] = Float8GetDatum(s.fp_chance);
	v[1] = Int64GetDatum(s.partitions);
	v[2] = Int64GetDatum(card);
	n[2] = !has_card;
	v[3] = has_card ? CStringGetTextDatum(estimator) : (Datum) 0;
	n[3] = !has_card;
	v[4] = Int32GetDatum(f.hash_count);
	v[5] = Int64GetDatum(f.word_count);
	v[6] = Int64GetDatum(fs.sized_for_min);
	v[7] = Int64GetDatum(fs.sized_for_max);
	n[6] = n[7] = !fs.has_sized_for;
	v[8] = Int64GetDatum(fs.flush_word_count);
	v[9] = Int64GetDatum(fs.compaction_keys);
	v[10] = Int64GetDatum(fs.compaction_word_count);
	n[9] = n[10] = !fs.has_compaction;
	v[11] = CStringGetTextDatum(bc_sized_by_name(fs.sized_by));
	v[12] = Float8GetDatum(fs.fpr_at_partitions);
	v[13] = BoolGetDatum(fs.undersized != 0);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), v, n)));
}
