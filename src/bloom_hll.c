/*
 * bloom_hll.c - the cardinality estimator of Statistics.db in SQL: the
 * cardinality and cardinality_estimator columns of cassandra_metadata
 * (bloom_statistics_cardinality) and the aggregate
 * cassandra_approximate_key_count(statistics, version), what Cassandra's
 * SSTableReader.getApproximateKeyCount returns for those SSTables.  The
 * estimator itself is the core's (src/core/hll/).
 *
 * getApproximateKeyCount, as Cassandra 4.0 to 5.0 write it
 * (SSTableReader.java; 2.1 to 3.11 the same but for its fallback sum,
 * which started at -1 and so came out one short):
 *
 *     cardinality = null; failed = false
 *     for each SSTable:
 *         read its CompactionMetadata; none, or an IOException: failed
 *         cardinality = cardinality == null ? its estimator
 *                                           : cardinality.merge(its estimator)
 *         a CardinalityMergeException: failed
 *     count = cardinality != null && !failed ? cardinality.cardinality() : -1
 *     if count < 0: count = sum of each SSTable's estimatedKeys()
 *
 * estimatedKeys() is, for a BIG SSTable, Summary.db's estimate
 * (IndexSummary.getEstimatedKeyCount: (size at full sampling + 1) x
 * min_index_interval), for a trie-indexed one the Partitions.db key count.
 * From Statistics.db alone the fallback here is the sum of the SSTables'
 * partition counts (the partition size histogram's total): a trie-indexed
 * SSTable's estimatedKeys() exactly, a BIG one's up to Summary.db's
 * sampling; the three-argument form takes each SSTable's estimatedKeys()
 * as its third argument (from cassandra_summary of its Summary.db), the
 * partition count where it is NULL.
 *
 * ScyllaDB-written estimators (ScyllaDB's hll::HyperLogLog, recognised by
 * the version and form, bc_hll_parse) count as none: ScyllaDB's own
 * compaction sums the inputs' partition counts (compaction.cc,
 * get_estimated_key_count), which is the fallback; Cassandra refuses to
 * merge two of them (their sizes differ from a new estimator's).
 *
 * The state keeps the estimator merged so far (the first SSTable's own
 * until a second comes, as Cassandra keeps it) and the fallback sum.
 * Cassandra merges its SSTables one by one in its set's order, which is
 * unspecified (a hash set); merging the partial results of parallel
 * workers is another order again.  Register maxima and unions of sets do
 * not depend on it, with two reservations: a run length above 31 (only
 * hostile bytes hold one: a register's five bits overflow into the next,
 * as in stream-lib), whose partial states are not combined (an ERROR
 * under parallel aggregation); and stream-lib's sparse sets, which are
 * not kept in one order (its batches are sorted by sparse index, merged
 * by value), so that a union may in principle keep an index twice: in 200
 * trials of three estimators of 1,500 to 1,900 keys merged in four orders
 * (three folds and a merge of two merges) stream-lib 2.5.2 gave the same
 * cardinality every time.
 */
#include "postgres.h"

#include "common/int.h"
#include "fmgr.h"
#include "utils/builtins.h"

#include "bc_hll.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "bloomcass.h"

bool
bloom_statistics_cardinality(const bc_statistics *s, const char *version, const char *file,
							 int64 *card, const char **estimator)
{
	bc_hll_view v;
	bc_status	st;
	int64_t		c = 0;

	/* none stored, or the empty array some ScyllaDB releases wrote */
	if (!s->has_estimator || s->estimator_len == 0)
		return false;
	st = bc_hll_parse(s->estimator, s->estimator_len, s->scylla_version, &v);
	if (st == BC_OK)
		st = bc_hll_view_cardinality(&v, &c);
	if (st != BC_OK)
		bloom_component_error(st, "Statistics.db", version, file, 0);
	*card = c;
	*estimator = bc_hll_kind_name(v.kind);
	return true;
}

typedef struct KeyCountState
{
	int64		fallback;		/* sum of the partition counts */
	int64		rows;
	bool		failed;			/* Cassandra's failed: the fallback */
	bool		has_est;		/* cardinality != null */
	bool		order_sensitive;
	bc_hll		est;			/* est.v palloc'd in the aggregate context */
} KeyCountState;

static MemoryContext
agg_context(FunctionCallInfo fcinfo, const char *fname)
{
	MemoryContext ctx;

	if (!AggCheckCallContext(fcinfo, &ctx))
		elog(ERROR, "%s called in non-aggregate context", fname);
	return ctx;
}

static KeyCountState *
new_state(MemoryContext ctx)
{
	return (KeyCountState *) MemoryContextAllocZero(ctx, sizeof(KeyCountState));
}

/* cardinality = cardinality.merge(x); x's values are taken over or freed */
static void
merge_into(KeyCountState *st, MemoryContext ctx, bc_hll *x, const char *version)
{
	int32	   *room;
	bc_hll		out;
	int			refused = 0;
	bc_status	s;

	st->order_sensitive |= !x->canonical;
	if (!st->has_est)
	{
		st->est = *x;
		st->has_est = true;
		return;
	}
	room = (int32 *) MemoryContextAllocHuge(ctx, ((Size) bc_hll_merge_room(&st->est, x) + 1) *
											sizeof(int32));
	s = bc_hll_merge(&st->est, x, room, &out, &refused);
	if (s != BC_OK)
		bloom_component_error(s, "Statistics.db", version, NULL, 0);
	pfree(st->est.v);
	pfree(x->v);
	if (refused)
	{
		/* a CardinalityMergeException: failed, the fallback */
		pfree(room);
		st->failed = true;
		st->has_est = false;
		st->est.v = NULL;
		return;
	}
	/* out.v points into room: move the values to its start */
	memmove(room, out.v, (Size) out.n * sizeof(int32));
	out.v = room;
	out.cap = out.n;
	st->est = out;
}

/* the transition of cassandra_approximate_key_count(statistics, version) */
PG_FUNCTION_INFO_V1(cassandra_key_count_trans);
Datum
cassandra_key_count_trans(PG_FUNCTION_ARGS)
{
	MemoryContext ctx = agg_context(fcinfo, "cassandra_key_count_trans");
	KeyCountState *st = PG_ARGISNULL(0) ? new_state(ctx) : (KeyCountState *) PG_GETARG_POINTER(0);
	bytea	   *data;
	char	   *version;
	bc_statistics s;
	bc_hll_view v;
	bc_hll		h;
	bc_status	rc;
	int64		estimated;

	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		PG_RETURN_POINTER(st);
	data = PG_GETARG_BYTEA_PP(1);
	version = text_to_cstring(PG_GETARG_TEXT_PP(2));
	rc = bc_statistics_parse((const uint8 *) VARDATA_ANY(data), VARSIZE_ANY_EXHDR(data),
							 version, strlen(version), &s);
	if (rc != BC_OK)
		bloom_component_error(rc, "Statistics.db", version, NULL, 0);
	estimated = s.partitions;
	st->rows++;
	/* the three-argument form: each SSTable's estimatedKeys(), the
	 * partition count where NULL */
	if (PG_NARGS() > 3 && !PG_ARGISNULL(3))
	{
		estimated = PG_GETARG_INT64(3);
		if (estimated < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("estimated_keys must not be negative")));
	}
	if (pg_add_s64_overflow(st->fallback, estimated, &st->fallback))
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("the sum of the partition counts is out of range for bigint")));
	if (st->failed)
		PG_RETURN_POINTER(st);
	/* no CompactionMetadata (before ka, or a table of contents without it) */
	if (!s.has_estimator)
	{
		st->failed = true;
		PG_RETURN_POINTER(st);
	}
	rc = bc_hll_parse(s.estimator, s.estimator_len, s.scylla_version, &v);
	/* an EOFException (IOException) reading it, or ScyllaDB's: the fallback */
	if (rc == BC_ERR_HLL_TRUNCATED || (rc == BC_OK && v.kind == BC_HLL_SCYLLA))
	{
		st->failed = true;
		PG_RETURN_POINTER(st);
	}
	if (rc != BC_OK)
		bloom_component_error(rc, "Statistics.db", version, NULL, 0);
	memset(&h, 0, sizeof(h));
	h.v = (int32 *) MemoryContextAlloc(ctx, ((Size) v.n + 1) * sizeof(int32));
	h.cap = v.n;
	bc_hll_decode(&v, &h);
	merge_into(st, ctx, &h, version);
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(cassandra_key_count_final);
Datum
cassandra_key_count_final(PG_FUNCTION_ARGS)
{
	KeyCountState *st = PG_ARGISNULL(0) ? NULL : (KeyCountState *) PG_GETARG_POINTER(0);
	int64_t		count = -1;

	if (st == NULL || st->rows == 0)
		PG_RETURN_NULL();
	if (st->has_est && !st->failed)
	{
		bc_status	rc = bc_hll_cardinality(&st->est, &count);

		if (rc != BC_OK)
			bloom_component_error(rc, "Statistics.db", "", NULL, 0);
	}
	if (count < 0)
		count = st->fallback;
	PG_RETURN_INT64(count);
}

/* the rows of b after those of a */
PG_FUNCTION_INFO_V1(cassandra_key_count_combine);
Datum
cassandra_key_count_combine(PG_FUNCTION_ARGS)
{
	MemoryContext ctx = agg_context(fcinfo, "cassandra_key_count_combine");
	KeyCountState *a = PG_ARGISNULL(0) ? NULL : (KeyCountState *) PG_GETARG_POINTER(0);
	KeyCountState *b = PG_ARGISNULL(1) ? NULL : (KeyCountState *) PG_GETARG_POINTER(1);
	bc_hll		x;

	if (b == NULL || b->rows == 0)
	{
		if (a == NULL)
			PG_RETURN_NULL();
		PG_RETURN_POINTER(a);
	}
	if (a == NULL)
		a = new_state(ctx);
	if (a->rows > 0 && ((a->order_sensitive && !a->failed) || (b->order_sensitive && !b->failed)))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("a Statistics.db cardinality estimator holds a run length above 31 or a register outside its set: its merge depends on the order of the rows"),
				 errhint("Aggregate without parallel workers (SET max_parallel_workers_per_gather = 0).")));
	a->rows += b->rows;
	if (pg_add_s64_overflow(a->fallback, b->fallback, &a->fallback))
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("the sum of the partition counts is out of range for bigint")));
	if (a->failed)
		PG_RETURN_POINTER(a);
	if (b->failed)
	{
		a->failed = true;
		PG_RETURN_POINTER(a);
	}
	if (!b->has_est)
		PG_RETURN_POINTER(a);
	x = b->est;
	x.v = (int32 *) MemoryContextAlloc(ctx, ((Size) x.n + 1) * sizeof(int32));
	memcpy(x.v, b->est.v, (Size) x.n * sizeof(int32));
	merge_into(a, ctx, &x, "");
	PG_RETURN_POINTER(a);
}

/* the state as bytes: the fixed fields, then the estimator's values */
typedef struct KeyCountWire
{
	int64		fallback;
	int64		rows;
	int32		p;
	int32		sp;
	uint32		n;
	uint8		failed;
	uint8		has_est;
	uint8		order_sensitive;
	uint8		sparse;
	uint8		canonical;
} KeyCountWire;

PG_FUNCTION_INFO_V1(cassandra_key_count_serialize);
Datum
cassandra_key_count_serialize(PG_FUNCTION_ARGS)
{
	KeyCountState *st = (KeyCountState *) PG_GETARG_POINTER(0);
	KeyCountWire w;
	uint32		n = st->has_est ? st->est.n : 0;
	Size		len = sizeof(w) + (Size) n * sizeof(int32);
	bytea	   *out = (bytea *) palloc(VARHDRSZ + len);

	(void) agg_context(fcinfo, "cassandra_key_count_serialize");
	memset(&w, 0, sizeof(w));
	w.fallback = st->fallback;
	w.rows = st->rows;
	w.failed = st->failed;
	w.has_est = st->has_est;
	w.order_sensitive = st->order_sensitive;
	if (st->has_est)
	{
		w.p = st->est.p;
		w.sp = st->est.sp;
		w.n = n;
		w.sparse = (uint8) st->est.sparse;
		w.canonical = (uint8) st->est.canonical;
	}
	SET_VARSIZE(out, VARHDRSZ + len);
	memcpy(VARDATA(out), &w, sizeof(w));
	if (n > 0)
		memcpy(VARDATA(out) + sizeof(w), st->est.v, (Size) n * sizeof(int32));
	PG_RETURN_BYTEA_P(out);
}

PG_FUNCTION_INFO_V1(cassandra_key_count_deserialize);
Datum
cassandra_key_count_deserialize(PG_FUNCTION_ARGS)
{
	MemoryContext ctx = agg_context(fcinfo, "cassandra_key_count_deserialize");
	bytea	   *in = PG_GETARG_BYTEA_PP(0);
	KeyCountState *st = new_state(ctx);
	KeyCountWire w;
	Size		len = VARSIZE_ANY_EXHDR(in);

	if (len < sizeof(w))
		elog(ERROR, "cassandra_approximate_key_count: partial state too short");
	memcpy(&w, VARDATA_ANY(in), sizeof(w));
	if (len != sizeof(w) + (Size) w.n * sizeof(int32))
		elog(ERROR, "cassandra_approximate_key_count: partial state of the wrong length");
	st->fallback = w.fallback;
	st->rows = w.rows;
	st->failed = w.failed;
	st->has_est = w.has_est;
	st->order_sensitive = w.order_sensitive;
	if (w.has_est)
	{
		st->est.p = w.p;
		st->est.sp = w.sp;
		st->est.n = st->est.cap = w.n;
		st->est.sparse = w.sparse;
		st->est.canonical = w.canonical;
		st->est.v = (int32 *) MemoryContextAlloc(ctx, ((Size) w.n + 1) * sizeof(int32));
		memcpy(st->est.v, VARDATA_ANY(in) + sizeof(w), (Size) w.n * sizeof(int32));
	}
	PG_RETURN_POINTER(st);
}
