/*
 * bloom_agg_exact_sql.c - bloom_agg(key [, fp_chance [, sstable_version]]),
 * the exact mode: its transition, combine, serialize, deserialize and
 * final functions, over the hash store of bloom_agg_exact.c.  The filter
 * is sized for the distinct keys, as Cassandra sizes a flushed SSTable's.
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "bc_codec.h"
#include "bc_filter.h"
#include "bc_sizing.h"
#include "bloom_agg_exact.h"

static void
check_fp(double fp)
{
	bc_sizing	s;

	/* errors for NaN, <= 0, > 1, == 1 and unreachable values */
	bloom_compute_sizing(0, fp, &s);
}

PG_FUNCTION_INFO_V1(bloom_agg_exact_trans);
Datum
bloom_agg_exact_trans(PG_FUNCTION_ARGS)
{
	/* the aggregate context is looked up (and checked) once, when the
	 * state is made: a state only comes from an aggregate */
	ExactState *st = PG_ARGISNULL(0) ? NULL : (ExactState *) PG_GETARG_POINTER(0);
	double		fp = DEFAULT_FP_CHANCE;
	bc_order	order = BC_ORDER_NEW;

	if (PG_NARGS() > 2)
	{
		if (PG_ARGISNULL(2))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("fp_chance must not be NULL")));
		fp = PG_GETARG_FLOAT8(2);
	}
	if (PG_NARGS() > 3)
	{
		bc_layout	layout;

		if (PG_ARGISNULL(3))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("sstable_version must not be NULL")));
		/* resolved once per group: the version cannot change between rows */
		if (st == NULL)
			bloom_lookup_version(PG_GETARG_TEXT_PP(3), &order, &layout);
		else
			order = st->order;
	}
	if (st == NULL)
	{
		MemoryContext ctx = bloom_agg_context(fcinfo, "bloom_agg_exact_trans");

		check_fp(fp);
		st = bloom_exact_new(ctx, fp, order);
	}
	else if (st->passed_on)
		exact_check_usable(st);
	else if (fp != st->fp)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("fp_chance must be the same for every row of bloom_agg (%g, then %g)",
						st->fp, fp)));

	if (!PG_ARGISNULL(1))
	{
		int64		h1,
					h2;

		bloom_key_hash_inline(bloom_key_type_inline(fcinfo, 1, NULL), PG_GETARG_DATUM(1), &h1, &h2);
		bloom_exact_add(st, h1, h2);
	}
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(bloom_agg_exact_combine);
Datum
bloom_agg_exact_combine(PG_FUNCTION_ARGS)
{
	MemoryContext ctx = bloom_agg_context(fcinfo, "bloom_agg_exact_combine");
	ExactState *a = PG_ARGISNULL(0) ? NULL : (ExactState *) PG_GETARG_POINTER(0);
	ExactState *b = PG_ARGISNULL(1) ? NULL : (ExactState *) PG_GETARG_POINTER(1);
	bool		handed = false;

	if (b == NULL)
		PG_RETURN_POINTER(a);
	if (a != NULL)
		exact_check_usable(a);
	exact_check_usable(b);
	if (b->handed != NULL)
	{
		ExactState *h = b->handed;

		/* the first state of a group: adopted */
		if (a == NULL)
		{
			MemoryContextSetParent(h->mcxt, ctx);
			h->aggcxt = ctx;
			PG_RETURN_POINTER(h);
		}
		b = h;
		handed = true;
	}
	/* a state of this aggregate context that nothing else refers to
	 * afterwards is adopted too */
	else if (a == NULL && b->aggcxt == ctx && b->ser == NULL)
		PG_RETURN_POINTER(b);
	if (a == NULL)
		a = bloom_exact_new(ctx, b->fp, b->order);
	else if (a->fp != b->fp || a->order != b->order)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("fp_chance and sstable_version must be the same for every row of bloom_agg")));
	if (b->ser != NULL)
		bloom_exact_merge_serialized(a, b);
	else
	{
		bloom_exact_merge(a, b);
		/* a handed-over state is freed once copied */
		if (handed)
			MemoryContextDelete(b->mcxt);
	}
	PG_RETURN_POINTER(a);
}

/*
 * Serialized: float8 fp, uint64 count, uint64 hash order, uint64 kind, then
 * for EXACT_SER_HASHES count * (int64 h1, int64 h2), for EXACT_SER_HANDOVER
 * (count 0) a HandoverRef; native byte order (the processes of one server,
 * or servers of one architecture, as a Citus cluster's are).
 */
#define EXACT_SER_HDR (sizeof(double) + 3 * sizeof(uint64))
#define EXACT_SER_HASHES 1
#define EXACT_SER_HANDOVER 2

/* A serialized state of size bytes with its header; returns it, its
 * payload at VARDATA + EXACT_SER_HDR.  The large one uses huge pages (its
 * memory is fresh). */
static bytea *
exact_ser_new(const ExactState *st, Size size, uint64 n, uint64 kind)
{
	bytea	   *out = (bytea *) bloom_palloc_large(CurrentMemoryContext, size);
	char	   *p = VARDATA(out);
	uint64		order = (uint64) st->order;

	SET_VARSIZE(out, size);
	memcpy(p, &st->fp, sizeof(double));
	memcpy(p + sizeof(double), &n, sizeof(uint64));
	memcpy(p + sizeof(double) + sizeof(uint64), &order, sizeof(uint64));
	memcpy(p + sizeof(double) + 2 * sizeof(uint64), &kind, sizeof(uint64));
	return out;
}

PG_FUNCTION_INFO_V1(bloom_agg_exact_serialize);
Datum
bloom_agg_exact_serialize(PG_FUNCTION_ARGS)
{
	ExactState *st = (ExactState *) PG_GETARG_POINTER(0);
	MemoryContext query_cxt;
	uint64		n;
	bytea	   *out;

	bloom_agg_context(fcinfo, "bloom_agg_exact_serialize");
	exact_check_usable(st);
	/* a spread state (memory of its own) on its way to this same process */
	if (st->buckets != NULL && (query_cxt = bloom_handover_target(fcinfo)) != NULL)
	{
		HandoverRef ref;

		out = exact_ser_new(st, VARHDRSZ + EXACT_SER_HDR + sizeof(ref), 0,
							EXACT_SER_HANDOVER);
		bloom_handover_register(st, query_cxt, &ref);
		memcpy(VARDATA(out) + EXACT_SER_HDR, &ref, sizeof(ref));
		PG_RETURN_BYTEA_P(out);
	}

	/*
	 * Deduplicate first, unless no compaction so far found a duplicate
	 * (distinct keys, most likely): then that pass would only delay the
	 * leader, which deduplicates the union anyway.  At worst (duplicates
	 * only among the unchecked tails) the state travels at twice its
	 * deduplicated size.
	 */
	n = st->dups_found ? bloom_exact_compact_all(st) : bloom_exact_count(st);
	if (n > (MaxAllocSize - VARHDRSZ - EXACT_SER_HDR) / sizeof(KeyHash))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom_agg state of " UINT64_FORMAT " distinct keys is too large to pass between parallel workers",
						n),
				 errhint("Run it without parallelism (SET max_parallel_workers_per_gather = 0).")));
	out = exact_ser_new(st, VARHDRSZ + EXACT_SER_HDR + n * sizeof(KeyHash), n, EXACT_SER_HASHES);
	bloom_exact_write(st, VARDATA(out) + EXACT_SER_HDR);
	PG_RETURN_BYTEA_P(out);
}

/*
 * A borrowed state over the serialized bytes: no copy here; the combine
 * function, called next on it, copies the hashes into its state.
 */
PG_FUNCTION_INFO_V1(bloom_agg_exact_deserialize);
Datum
bloom_agg_exact_deserialize(PG_FUNCTION_ARGS)
{
	bytea	   *in = PG_GETARG_BYTEA_PP(0);
	const char *data = VARDATA_ANY(in);
	Size		len = VARSIZE_ANY_EXHDR(in);
	double		fp;
	uint64		n,
				order,
				kind;
	ExactState *st;

	bloom_agg_context(fcinfo, "bloom_agg_exact_deserialize");
	if (len < EXACT_SER_HDR)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid bloom_agg state: too short")));
	memcpy(&fp, data, sizeof(double));
	memcpy(&n, data + sizeof(double), sizeof(uint64));
	memcpy(&order, data + sizeof(double) + sizeof(uint64), sizeof(uint64));
	memcpy(&kind, data + sizeof(double) + 2 * sizeof(uint64), sizeof(uint64));
	if (order != BC_ORDER_NEW && order != BC_ORDER_OLD)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid bloom_agg state: unknown hash order")));
	if (kind == EXACT_SER_HANDOVER)
	{
		/* a hand-over within this process */
		HandoverRef ref;
		ExactState *h;

		if (len != EXACT_SER_HDR + sizeof(ref) || n != 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
					 errmsg("invalid bloom_agg state: bad hand-over")));
		memcpy(&ref, data + EXACT_SER_HDR, sizeof(ref));
		h = bloom_handover_take(&ref);
		st = palloc0(sizeof(ExactState));
		st->fp = h->fp;
		st->order = h->order;
		st->handed = h;
		PG_RETURN_POINTER(st);
	}
	if (kind != EXACT_SER_HASHES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid bloom_agg state: unknown kind")));
	if (n > (len - EXACT_SER_HDR) / sizeof(KeyHash) ||
		len != EXACT_SER_HDR + n * sizeof(KeyHash))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid bloom_agg state: length does not match its key count")));
	check_fp(fp);
	st = palloc0(sizeof(ExactState));
	st->fp = fp;
	st->order = (bc_order) order;
	st->ser = data + EXACT_SER_HDR;
	st->ser_n = n;
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(bloom_agg_exact_final);
Datum
bloom_agg_exact_final(PG_FUNCTION_ARGS)
{
	ExactState *st = PG_ARGISNULL(0) ? NULL : (ExactState *) PG_GETARG_POINTER(0);
	Bloom	   *b;
	bc_filter	f;

	bloom_agg_context(fcinfo, "bloom_agg_exact_final");
	if (st == NULL)
		PG_RETURN_BLOOM_P(bloom_create_sized(0, DEFAULT_FP_CHANCE, BC_ORDER_NEW));
	exact_check_usable(st);
	b = bloom_create_sized((int64) bloom_exact_compact_all(st), st->fp, st->order);
	bloom_view(b, &f);
	bloom_exact_fill(st, &f);
	PG_RETURN_BLOOM_P(b);
}
