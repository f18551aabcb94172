/*
 * bloom_metadata.c - everything Statistics.db holds, in SQL:
 * cassandra_metadata(data, version) and cassandra_sstable_metadata(path)
 * (one row: the facts of StatsMetadata, the serialization header and
 * ValidationMetadata, NULL where the version does not store one),
 * cassandra_metadata_histograms(data, version) (every bucket of the
 * partition size, cell count and tombstone drop time histograms) and
 * cassandra_droppable_tombstones(data, version, gc_before)
 * (StatsMetadata.getEstimatedDroppableTombstoneRatio).  The core reads the
 * file (bc_statistics.c, bc_statistics_stats.c, bc_histogram.c); this file
 * turns its facts into SQL values.
 *
 * A file the core refuses is an ERROR naming Statistics.db with the
 * status's SQLSTATE (22P03 for malformed bytes, XX001 for a checksum);
 * the server-file form reads with pg_read_binary_file's privileges
 * (bloom_file_path), as cassandra_sstable_keys does.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "bc_histogram.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "bloomcass.h"

/* Statistics.db is small (kilobytes); a larger file is refused */
#define MAX_STATISTICS_BYTES ((size_t) 512 * 1024 * 1024)

#define METADATA_COLUMNS 37

/* parse, or an ERROR naming Statistics.db (and the file, if any) */
static void
parse_or_error(const uint8 *data, size_t len, const char *version, const char *file,
			   bc_statistics *s)
{
	bc_status	st = bc_statistics_parse(data, len, version, strlen(version), s);

	if (st == BC_OK)
		st = s->detail_status;
	if (st != BC_OK)
		bloom_component_error(st, "Statistics.db", version, file, 0);
}

static Datum
uuid_datum(const uint8_t *p)
{
	pg_uuid_t  *u = (pg_uuid_t *) palloc(sizeof(pg_uuid_t));

	memcpy(u->data, p, UUID_LEN);
	return UUIDPGetDatum(u);
}

/* microseconds since 1970 as timestamptz, false when outside its range */
static bool
micros_to_timestamptz(int64 us, Datum *d)
{
	int64		shift = (int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY;
	TimestampTz t;

	/* (END_TIMESTAMP + shift would overflow) */
	if (us < MIN_TIMESTAMP + shift || us - shift >= END_TIMESTAMP)
		return false;
	t = us - shift;
	*d = TimestampTzGetDatum(t);
	return true;
}

/* a list of type names as text[] */
static Datum
type_array(const bc_stats_list *list)
{
	bc_stats_list l = *list;
	ArrayBuildState *abs = initArrayResult(TEXTOID, CurrentMemoryContext, false);
	const uint8_t *item,
			   *unused;
	size_t		len,
				ulen;

	while (bc_stats_list_next(&l, &item, &len, &unused, &ulen))
	{
		CHECK_FOR_INTERRUPTS();
		accumArrayResult(abs, PointerGetDatum(cstring_to_text_with_len((const char *) item,
																	   (int) len)),
						 false, TEXTOID, CurrentMemoryContext);
	}
	return makeArrayResult(abs, CurrentMemoryContext);
}

/*
 * Columns as a jsonb object, name to type.  A name is bytes: one that is
 * not valid text in the database's encoding is written as 0x and its hex.
 */
static Datum
column_object(const bc_stats_list *list)
{
	bc_stats_list l = *list;
	StringInfoData buf;
	const uint8_t *name,
			   *type;
	size_t		nlen,
				tlen;
	bool		first = true;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '{');
	while (bc_stats_list_next(&l, &name, &nlen, &type, &tlen))
	{
		char	   *key;

		CHECK_FOR_INTERRUPTS();
		if (pg_verify_mbstr(GetDatabaseEncoding(), (const char *) name, (int) nlen, true) &&
			memchr(name, 0, nlen) == NULL)
			key = pnstrdup((const char *) name, nlen);
		else
		{
			size_t		i;

			key = palloc(3 + 2 * nlen);
			key[0] = '0';
			key[1] = 'x';
			for (i = 0; i < nlen; i++)
				sprintf(key + 2 + 2 * i, "%02x", name[i]);
		}
		if (!first)
			appendStringInfoString(&buf, ", ");
		first = false;
		escape_json(&buf, key);
		appendStringInfoString(&buf, ": ");
		escape_json(&buf, pnstrdup((const char *) type, tlen));
	}
	appendStringInfoChar(&buf, '}');
	return DirectFunctionCall1(jsonb_in, CStringGetDatum(buf.data));
}

static void
accum_bytes(ArrayBuildState *abs, const uint8_t *v, size_t len, bool is_null)
{
	accumArrayResult(abs, is_null ? (Datum) 0 : PointerGetDatum(bloom_bytea(v, len)),
					 is_null, BYTEAOID, CurrentMemoryContext);
}

/*
 * The min or max clustering values: the improved min/max when stored (nc
 * and later, BTI ba and later: what Cassandra 5.0 reads), else the legacy
 * column names or values (ja .. nc); NULL when the version stores neither.
 */
static bool
clustering_values(const bc_statistics *s, bool max, Datum *d)
{
	ArrayBuildState *abs = initArrayResult(BYTEAOID, CurrentMemoryContext, false);

	if (s->has_bounds)
	{
		bc_stats_bound_iter it;
		const uint8_t *v;
		size_t		len;
		int			is_null,
					got = 1;
		bc_status	st;

		bc_stats_bound_iter_init(&it, s, max ? &s->max_bound : &s->min_bound);
		while ((st = bc_stats_bound_iter_next(&it, &v, &len, &is_null, &got)) == BC_OK && got)
		{
			CHECK_FOR_INTERRUPTS();
			accum_bytes(abs, v, len, is_null != 0);
		}
		if (st != BC_OK)
			bloom_component_error(st, "Statistics.db", "", NULL, 0);
	}
	else if (s->legacy_min.present)
	{
		bc_stats_list l = max ? s->legacy_max : s->legacy_min;
		const uint8_t *v,
				   *unused;
		size_t		len,
					ulen;

		while (bc_stats_list_next(&l, &v, &len, &unused, &ulen))
		{
			CHECK_FOR_INTERRUPTS();
			accum_bytes(abs, v, len, false);
		}
	}
	else
		return false;
	*d = makeArrayResult(abs, CurrentMemoryContext);
	return true;
}

/* a CommitLogPosition: segment:position */
static void
append_position(StringInfo buf, const uint8_t *p)
{
	if (p == NULL)
		appendStringInfoString(buf, "-1:0");	/* CommitLogPosition.NONE */
	else
		appendStringInfo(buf, INT64_FORMAT ":%d",
						 (int64) ((uint64) p[0] << 56 | (uint64) p[1] << 48 |
								  (uint64) p[2] << 40 | (uint64) p[3] << 32 |
								  (uint64) p[4] << 24 | (uint64) p[5] << 16 |
								  (uint64) p[6] << 8 | (uint64) p[7]),
						 (int32) ((uint32) p[8] << 24 | (uint32) p[9] << 16 |
								  (uint32) p[10] << 8 | (uint32) p[11]));
}

/*
 * The commit log intervals the SSTable covers, "segment:position-
 * segment:position" each, comma-separated: the stored IntervalSet (mc and
 * later), else the one interval Cassandra makes of the lower bound
 * (CommitLogPosition.NONE, -1:0, before lb / mb) and the replay position.
 */
static Datum
commit_log_text(const bc_statistics *s)
{
	StringInfoData buf;
	uint32		i;

	initStringInfo(&buf);
	if (s->clog_intervals != NULL || s->clog_interval_n > 0)
		for (i = 0; i < s->clog_interval_n; i++)
		{
			if (i > 0)
				appendStringInfoString(&buf, ", ");
			append_position(&buf, s->clog_intervals + (size_t) i * 24);
			appendStringInfoChar(&buf, '-');
			append_position(&buf, s->clog_intervals + (size_t) i * 24 + 12);
		}
	else
	{
		append_position(&buf, s->clog_lower);
		appendStringInfoChar(&buf, '-');
		append_position(&buf, s->clog_upper);
	}
	return PointerGetDatum(cstring_to_text(buf.data));
}

static Datum
metadata_row(FunctionCallInfo fcinfo, const bc_statistics *s, const char *version,
			 const char *file)
{
	TupleDesc	tupdesc;
	Datum		v[METADATA_COLUMNS];
	bool		n[METADATA_COLUMNS];
	int			i = 0;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);
	memset(n, true, sizeof(n));

#define SET(cond, value) do { if (cond) { v[i] = (value); n[i] = false; } i++; } while (0)
	SET(true, PointerGetDatum(cstring_to_text_with_len((const char *) s->partitioner,
													   (int) s->partitioner_len)));
	SET(s->has_fp_chance, Float8GetDatum(s->fp_chance));
	SET(true, Int64GetDatum(s->partitions));
	SET(s->key_type != NULL,
		PointerGetDatum(cstring_to_text_with_len((const char *) s->key_type, (int) s->key_type_len)));
	SET(s->has_min_timestamp, Int64GetDatum(s->min_timestamp));
	SET(s->has_max_timestamp, Int64GetDatum(s->max_timestamp));
	/* min_time, max_time */
	n[i] = !(s->has_min_timestamp && micros_to_timestamptz(s->min_timestamp, &v[i]));
	i++;
	n[i] = !(s->has_max_timestamp && micros_to_timestamptz(s->max_timestamp, &v[i]));
	i++;
	SET(s->has_min_ldt, Int64GetDatum(s->min_ldt));
	SET(s->has_max_ldt, Int64GetDatum(s->max_ldt));
	SET(s->has_ttl, Int64GetDatum(s->min_ttl));
	SET(s->has_ttl, Int64GetDatum(s->max_ttl));
	SET(s->has_compression_ratio, Float8GetDatum(s->compression_ratio));
	SET(s->has_level, Int32GetDatum(s->sstable_level));
	SET(s->has_repaired_at, Int64GetDatum(s->repaired_at));
	SET(s->pending_repair != NULL, uuid_datum(s->pending_repair));
	SET(s->has_is_transient, BoolGetDatum(s->is_transient != 0));
	SET(s->originating_host_id != NULL, uuid_datum(s->originating_host_id));
	SET(s->has_rows, Int64GetDatum(s->total_rows));
	SET(s->has_rows, Int64GetDatum(s->total_columns_set));
	SET(s->has_counter_shards, BoolGetDatum(s->has_legacy_counter_shards != 0));
	SET(s->has_token_space_coverage, Float8GetDatum(s->token_space_coverage));
	SET(s->has_pld, BoolGetDatum(s->has_partition_level_deletions != 0));
	SET(s->has_stats_detail && s->clog_upper != NULL, commit_log_text(s));
	SET(s->has_encoding_stats, Int64GetDatum(s->enc_min_timestamp));
	SET(s->has_enc_min_ldt, Int64GetDatum(s->enc_min_ldt));
	SET(s->has_encoding_stats, Int64GetDatum(s->enc_min_ttl));
	SET(s->header_clustering.present, type_array(&s->header_clustering));
	SET(s->static_columns.present, column_object(&s->static_columns));
	SET(s->regular_columns.present, column_object(&s->regular_columns));
	n[i] = !clustering_values(s, false, &v[i]);
	i++;
	n[i] = !clustering_values(s, true, &v[i]);
	i++;
	SET(s->first_key != NULL, PointerGetDatum(bloom_bytea(s->first_key, s->first_key_len)));
	SET(s->last_key != NULL, PointerGetDatum(bloom_bytea(s->last_key, s->last_key_len)));
	SET(true, BoolGetDatum(s->checksummed != 0));
	/* cardinality, cardinality_estimator (bloom_hll.c) */
	{
		int64		card;
		const char *estimator;

		if (bloom_statistics_cardinality(s, version, file, &card, &estimator))
		{
			SET(true, Int64GetDatum(card));
			SET(true, CStringGetTextDatum(estimator));
		}
		else
			i += 2;
	}
#undef SET
	Assert(i == METADATA_COLUMNS);
	if (tupdesc->natts != METADATA_COLUMNS)
		elog(ERROR, "return type must have %d columns", METADATA_COLUMNS);
	return HeapTupleGetDatum(heap_form_tuple(tupdesc, v, n));
}

/* cassandra_metadata(data bytea, version text): one row of every fact */
PG_FUNCTION_INFO_V1(cassandra_metadata);
Datum
cassandra_metadata(PG_FUNCTION_ARGS)
{
	bytea	   *data = PG_GETARG_BYTEA_PP(0);
	char	   *version = text_to_cstring(PG_GETARG_TEXT_PP(1));
	bc_statistics s;

	parse_or_error((const uint8 *) VARDATA_ANY(data), VARSIZE_ANY_EXHDR(data), version, NULL, &s);
	PG_RETURN_DATUM(metadata_row(fcinfo, &s, version, NULL));
}

/*
 * cassandra_sstable_metadata(path text): the same for an SSTable on the
 * server (its prefix or any of its component files), read with
 * pg_read_binary_file's privileges.
 */
PG_FUNCTION_INFO_V1(cassandra_sstable_metadata);
Datum
cassandra_sstable_metadata(PG_FUNCTION_ARGS)
{
	char	   *path = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char	   *prefix,
			   *version,
			   *file;
	bc_sstable_format format;
	bc_statistics s;
	uint8	   *data;
	size_t		len;

	bloom_sstable_of_path(path, &prefix, &version, &format);
	file = bloom_file_path(psprintf("%s-Statistics.db", prefix));
	data = bloom_file_read_all(file, MAX_STATISTICS_BYTES, &len, NULL);
	parse_or_error(data, len, version, file, &s);
	PG_RETURN_DATUM(metadata_row(fcinfo, &s, version, file));
}

/*
 * cassandra_droppable_tombstones(data bytea, version text, gc_before
 * bigint) RETURNS float8: the estimated droppable tombstone ratio at
 * gc_before (seconds since the epoch), as sstablemetadata -g prints it.
 */
PG_FUNCTION_INFO_V1(cassandra_droppable_tombstones);
Datum
cassandra_droppable_tombstones(PG_FUNCTION_ARGS)
{
	bytea	   *data = PG_GETARG_BYTEA_PP(0);
	char	   *version = text_to_cstring(PG_GETARG_TEXT_PP(1));
	int64		gc_before = PG_GETARG_INT64(2);
	bc_statistics s;

	parse_or_error((const uint8 *) VARDATA_ANY(data), VARSIZE_ANY_EXHDR(data), version, NULL, &s);
	PG_RETURN_FLOAT8(bc_droppable_ratio(&s, gc_before));
}

/* cassandra_metadata_histograms: the parse, and where the scan is */
typedef struct HistogramsState
{
	bc_statistics s;
	int			which;			/* 0 partition_size, 1 column_count,
								 * 2 tombstone_drop_time */
	uint32		i;
} HistogramsState;

/*
 * cassandra_metadata_histograms(data bytea, version text, OUT histogram
 * text, OUT bound bigint, OUT count bigint): every bucket of the partition
 * size and cell count histograms (bound: the largest value the bucket
 * counts, as sstablemetadata prints it; NULL for the last, which counts
 * what is above every bound) and every bin of the tombstone drop time
 * histogram (bound: its point, seconds since the epoch), in file order.
 */
PG_FUNCTION_INFO_V1(cassandra_metadata_histograms);
Datum
cassandra_metadata_histograms(PG_FUNCTION_ARGS)
{
	FuncCallContext *funcctx;
	HistogramsState *state;
	static const char *const names[3] = {"partition_size", "column_count", "tombstone_drop_time"};

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext oldcontext;
		bytea	   *data;
		char	   *version;
		TupleDesc	tupdesc;

		funcctx = SRF_FIRSTCALL_INIT();
		oldcontext = MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);
		/* the parse points into the (detoasted) bytes: kept for the scan */
		data = PG_GETARG_BYTEA_PP(0);
		version = text_to_cstring(PG_GETARG_TEXT_PP(1));
		state = (HistogramsState *) palloc0(sizeof(HistogramsState));
		parse_or_error((const uint8 *) VARDATA_ANY(data), VARSIZE_ANY_EXHDR(data), version,
					   NULL, &state->s);
		if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "return type must be a row type");
		funcctx->tuple_desc = BlessTupleDesc(tupdesc);
		funcctx->user_fctx = state;
		MemoryContextSwitchTo(oldcontext);
	}
	funcctx = SRF_PERCALL_SETUP();
	state = (HistogramsState *) funcctx->user_fctx;
	CHECK_FOR_INTERRUPTS();

	for (; state->which < 3; state->which++, state->i = 0)
	{
		Datum		v[3];
		bool		n[3] = {false, false, false};
		const bc_est_histogram *h = state->which == 0 ? &state->s.partition_sizes
			: &state->s.column_counts;
		uint32		total = state->which == 2 ? state->s.tombstones.n : h->n;

		if (state->i >= total)
			continue;
		v[0] = PointerGetDatum(cstring_to_text(names[state->which]));
		if (state->which == 2)
		{
			int64		point;
			int32		count;

			bc_tomb_bin(&state->s.tombstones, state->i, &point, &count);
			v[1] = Int64GetDatum(point);
			v[2] = Int64GetDatum(count);
		}
		else
		{
			int64		bound,
						count;
			int			has_bound;

			bc_est_bucket(h, state->i, &bound, &has_bound, &count);
			v[1] = Int64GetDatum(bound);
			n[1] = !has_bound;
			v[2] = Int64GetDatum(count);
		}
		state->i++;
		SRF_RETURN_NEXT(funcctx, HeapTupleGetDatum(heap_form_tuple(funcctx->tuple_desc, v, n)));
	}
	SRF_RETURN_DONE(funcctx);
}
