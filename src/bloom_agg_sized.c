/*
 * bloom_agg_sized.c - the aggregates whose state is the filter itself:
 * bloom_agg(key, fp_chance, expected_keys), the streaming mode, sized up
 * front so that memory is the filter, and bloom_union_agg(bloom), the OR of
 * filters of one shape.  They share the combine, serialize and deserialize
 * functions.
 *
 * Their state is internal.  From 1.4 the typed streaming bloom_agg and
 * bloom_union_agg use bloom_agg_state.c (a bloom state); these functions
 * remain for the bloom_agg(anyelement, float8, bigint) of 1.0, which views
 * made before 1.4 use.
 */
#include "postgres.h"

#include <sys/mman.h>
#include <unistd.h>

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "bc_filter.h"
#include "bloom_agg.h"

#define PENDING_MAX 64

typedef struct FilterState
{
	Bloom	   *bloom;
	double		fp;				/* streaming mode: arguments seen first */
	int64		expected;
	bc_filter	view;			/* prepared view of bloom */
	int			npending;		/* hashes waiting to be set, as a batch */
	int64		pending[2 * PENDING_MAX];
} FilterState;

/* Set the bits of the waiting hashes. */
static void
filter_state_flush(FilterState *st)
{
	if (st->npending > 0)
	{
		bc_filter_add_hashes(&st->view, st->pending, st->npending);
		st->npending = 0;
	}
}

static FilterState *
filter_state_new(MemoryContext ctx, Bloom *b)
{
	FilterState *st = MemoryContextAllocZero(ctx, sizeof(FilterState));

	st->bloom = b;
	bloom_view(b, &st->view);
	return st;
}

/* A state whose filter was moved out as the result is spent. */
static inline void
filter_state_check(const FilterState *st)
{
	if (st != NULL && st->bloom == NULL)
		elog(ERROR, "bloom aggregate state used after its result was taken");
}

#define MOVE_MIN ((Size) 4 * 1024 * 1024)
#define MOVE_PIECE ((Size) 512 * 1024)

Bloom *
bloom_agg_move_result(FunctionCallInfo fcinfo, const Bloom *src)
{
	Size		size = VARSIZE(src);
	uintptr_t	page = (uintptr_t) sysconf(_SC_PAGESIZE);
	char	   *dst;
	Size		off;

	if (size < MOVE_MIN ||
		AggCheckCallContext(fcinfo, NULL) != AGG_CONTEXT_AGGREGATE ||
		AggStateIsShared(fcinfo))
		return NULL;
	dst = bloom_palloc_large(CurrentMemoryContext, size);
	for (off = 0; off < size; off += MOVE_PIECE)
	{
		Size		len = Min(MOVE_PIECE, size - off);

		memcpy(dst + off, (const char *) src + off, len);
#ifdef MADV_DONTNEED
		bloom_madvise_inside((char *) src + off, len, page, MADV_DONTNEED);
#endif
	}
	return (Bloom *) dst;
}

/*
 * The result of a final function is copied by PostgreSQL unless it lives
 * in the function's current (output) memory context; for a filter built in
 * the aggregate state that copy would double the peak memory of a large
 * build.  So when the state is provably this call's alone (an Agg node's,
 * not shared with another aggregate nor a window's, per AggStateIsShared),
 * a large filter is moved instead (bloom_agg_move_result).  The state is
 * spent afterwards (filter_state_check).  Otherwise the state's filter is
 * returned as is, and PostgreSQL copies it.
 */
static Bloom *
filter_state_take(FunctionCallInfo fcinfo, FilterState *st)
{
	Bloom	   *dst = bloom_agg_move_result(fcinfo, st->bloom);

	if (dst == NULL)
		return st->bloom;
	pfree(st->bloom);
	st->bloom = NULL;
	return dst;
}

PG_FUNCTION_INFO_V1(bloom_agg_sized_trans);
Datum
bloom_agg_sized_trans(PG_FUNCTION_ARGS)
{
	/* the aggregate context is looked up (and checked) once, when the
	 * state is made: a state only comes from an aggregate */
	FilterState *st = PG_ARGISNULL(0) ? NULL : (FilterState *) PG_GETARG_POINTER(0);
	double		fp;
	int64		expected;

	if (PG_ARGISNULL(2) || PG_ARGISNULL(3))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("fp_chance and expected_keys must not be NULL")));
	fp = PG_GETARG_FLOAT8(2);
	expected = PG_GETARG_INT64(3);
	if (st == NULL)
	{
		MemoryContext ctx = bloom_agg_context(fcinfo, "bloom_agg_sized_trans");
		MemoryContext old = MemoryContextSwitchTo(ctx);

		if (expected < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("expected_keys must not be negative")));
		st = filter_state_new(ctx, bloom_create_sized(expected, fp, BC_ORDER_NEW));
		st->fp = fp;
		st->expected = expected;
		MemoryContextSwitchTo(old);
	}
	else
	{
		filter_state_check(st);
		if (fp != st->fp || expected != st->expected)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("fp_chance and expected_keys must be the same for every row of bloom_agg")));
	}

	if (!PG_ARGISNULL(1))
	{
		int64	   *h = st->pending + 2 * st->npending;

		bloom_key_hash_inline(bloom_key_type_inline(fcinfo, 1, NULL), PG_GETARG_DATUM(1), &h[0], &h[1]);
		if (++st->npending == PENDING_MAX)
			filter_state_flush(st);
	}
	PG_RETURN_POINTER(st);
}

/* Shared by the streaming bloom_agg and bloom_union_agg. */
PG_FUNCTION_INFO_V1(bloom_agg_sized_combine);
Datum
bloom_agg_sized_combine(PG_FUNCTION_ARGS)
{
	MemoryContext ctx = bloom_agg_context(fcinfo, "bloom_agg_sized_combine");
	FilterState *a = PG_ARGISNULL(0) ? NULL : (FilterState *) PG_GETARG_POINTER(0);
	FilterState *b = PG_ARGISNULL(1) ? NULL : (FilterState *) PG_GETARG_POINTER(1);

	filter_state_check(a);
	filter_state_check(b);
	if (b != NULL)
		filter_state_flush(b);
	if (a != NULL)
		filter_state_flush(a);
	if (b == NULL)
		PG_RETURN_POINTER(a);
	if (a == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(ctx);

		a = filter_state_new(ctx, bloom_copy(b->bloom));
		a->fp = b->fp;
		a->expected = b->expected;
		MemoryContextSwitchTo(old);
		PG_RETURN_POINTER(a);
	}
	bloom_combine_into(a->bloom, b->bloom, false);
	PG_RETURN_POINTER(a);
}

/* serialized: float8 fp, int64 expected_keys, then the bloom value's bytes */
#define FILTER_SER_HDR (sizeof(double) + sizeof(int64))

PG_FUNCTION_INFO_V1(bloom_agg_sized_serialize);
Datum
bloom_agg_sized_serialize(PG_FUNCTION_ARGS)
{
	FilterState *st = (FilterState *) PG_GETARG_POINTER(0);
	Size		blen;
	Size		size;
	bytea	   *out;

	bloom_agg_context(fcinfo, "bloom_agg_sized_serialize");
	filter_state_check(st);
	blen = VARSIZE(st->bloom) - VARHDRSZ;
	size = VARHDRSZ + FILTER_SER_HDR + blen;
	filter_state_flush(st);
	if (size > MaxAllocSize)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom filter state is too large to pass between parallel workers"),
				 errhint("Run it without parallelism (SET max_parallel_workers_per_gather = 0).")));
	out = (bytea *) palloc(size);
	SET_VARSIZE(out, size);
	memcpy(VARDATA(out), &st->fp, sizeof(double));
	memcpy(VARDATA(out) + sizeof(double), &st->expected, sizeof(int64));
	memcpy(VARDATA(out) + FILTER_SER_HDR, (char *) st->bloom + VARHDRSZ, blen);
	PG_RETURN_BYTEA_P(out);
}

PG_FUNCTION_INFO_V1(bloom_agg_sized_deserialize);
Datum
bloom_agg_sized_deserialize(PG_FUNCTION_ARGS)
{
	MemoryContext ctx = bloom_agg_context(fcinfo, "bloom_agg_sized_deserialize");
	bytea	   *in = PG_GETARG_BYTEA_PP(0);
	const char *data = VARDATA_ANY(in);
	Size		len = VARSIZE_ANY_EXHDR(in);
	FilterState *st;
	Bloom	   *b;

	if (len < FILTER_SER_HDR)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid bloom aggregate state: too short")));
	b = (Bloom *) MemoryContextAlloc(ctx, len - FILTER_SER_HDR + VARHDRSZ);
	SET_VARSIZE(b, len - FILTER_SER_HDR + VARHDRSZ);
	memcpy((char *) b + VARHDRSZ, data + FILTER_SER_HDR, len - FILTER_SER_HDR);
	bloom_validate(b, ERRCODE_INVALID_BINARY_REPRESENTATION);
	st = filter_state_new(ctx, b);
	memcpy(&st->fp, data, sizeof(double));
	memcpy(&st->expected, data + sizeof(double), sizeof(int64));
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(bloom_agg_sized_final);
Datum
bloom_agg_sized_final(PG_FUNCTION_ARGS)
{
	FilterState *st = PG_ARGISNULL(0) ? NULL : (FilterState *) PG_GETARG_POINTER(0);

	bloom_agg_context(fcinfo, "bloom_agg_sized_final");
	if (st == NULL)
		PG_RETURN_BLOOM_P(bloom_create_sized(0, DEFAULT_FP_CHANCE, BC_ORDER_NEW));
	filter_state_check(st);
	filter_state_flush(st);
	PG_RETURN_BLOOM_P(filter_state_take(fcinfo, st));
}

PG_FUNCTION_INFO_V1(bloom_union_trans);
Datum
bloom_union_trans(PG_FUNCTION_ARGS)
{
	MemoryContext ctx = bloom_agg_context(fcinfo, "bloom_union_trans");
	FilterState *st = PG_ARGISNULL(0) ? NULL : (FilterState *) PG_GETARG_POINTER(0);
	Bloom	   *in;

	if (PG_ARGISNULL(1))
		PG_RETURN_POINTER(st);
	in = PG_GETARG_BLOOM_P(1);
	if (st == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(ctx);

		st = filter_state_new(ctx, bloom_copy(in));
		MemoryContextSwitchTo(old);
	}
	else
	{
		filter_state_check(st);
		bloom_combine_into(st->bloom, in, false);
	}
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(bloom_union_final);
Datum
bloom_union_final(PG_FUNCTION_ARGS)
{
	FilterState *st = PG_ARGISNULL(0) ? NULL : (FilterState *) PG_GETARG_POINTER(0);

	bloom_agg_context(fcinfo, "bloom_union_final");
	if (st == NULL)
		PG_RETURN_NULL();
	filter_state_check(st);
	PG_RETURN_BLOOM_P(filter_state_take(fcinfo, st));
}
