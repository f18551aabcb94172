/*
 * bloom_agg_state.c - the aggregates whose state is a bloom value (from
 * 1.4): the streaming bloom_agg(key, fp_chance, expected_keys), one per key
 * type, and bloom_union_agg(bloom).
 *
 * Their state type is bloom itself, not internal, so that a distributed
 * engine can run them where the rows are and send only states: Citus
 * pushes down an aggregate with a combine function whose state type is
 * not a pseudo-type (AggregateEnabledCustom, supportsSafeCombine), and
 * ships the state through bloom's output and input functions.
 *
 * In memory the state is an expanded object (utils/expandeddatum.h): a
 * read/write pointer to a header that holds the filter in its own memory
 * context under the aggregate's, its prepared view, and hashes waiting to
 * be set as a batch.  nodeAgg (and Citus's worker_partial_agg, which copies
 * nodeAgg's rule) keeps a read/write expanded state as it is when it lives
 * under the aggregate context, so each row updates the filter in place.
 * Anything that needs the value's bytes (a parallel worker's tuple, an
 * output function, a final function) flattens it through the methods
 * below, which first set the waiting hashes.  A flat bloom arriving as a
 * state (from a parallel worker, or from Citus's coordinator reading a
 * worker's state) is expanded into a copy on first use.
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/expandeddatum.h"
#include "utils/memutils.h"

#include "bc_filter.h"
#include "bc_sizing.h"
#include "bloom_agg.h"

#define PENDING_MAX 64

/* "bloomstate": tells our expanded objects from any other's */
#define STATE_MAGIC 0x626c6f6d

typedef struct BloomState
{
	ExpandedObjectHeader hdr;
	uint32		magic;
	bool		spent;			/* its filter was moved out as a result */
	bool		args_known;		/* fp, expected: arguments its shape matched */
	double		fp;
	int64		expected;
	Bloom	   *bloom;			/* in hdr.eoh_context */
	bc_filter	view;			/* prepared view of bloom */
	int			npending;		/* hashes waiting to be set, as a batch */
	int64		pending[2 * PENDING_MAX];
} BloomState;

/* A state whose filter was moved out as the result is spent. */
static inline void
state_check(const BloomState *st)
{
	if (st->spent)
		elog(ERROR, "bloom aggregate state used after its result was taken");
}

static void
state_flush(BloomState *st)
{
	if (st->npending > 0)
	{
		bc_filter_add_hashes(&st->view, st->pending, st->npending);
		st->npending = 0;
	}
}

static Size
state_get_flat_size(ExpandedObjectHeader *eohptr)
{
	BloomState *st = (BloomState *) eohptr;

	state_check(st);
	state_flush(st);
	return VARSIZE(st->bloom);
}

static void
state_flatten_into(ExpandedObjectHeader *eohptr, void *result, Size allocated_size)
{
	BloomState *st = (BloomState *) eohptr;

	state_flush(st);
	Assert(allocated_size == VARSIZE(st->bloom));
	memcpy(result, st->bloom, allocated_size);
}

static const ExpandedObjectMethods state_methods = {
	state_get_flat_size,
	state_flatten_into
};

/*
 * A new state in a context of its own under the aggregate context: the
 * filter b, palloc'd by the caller in CurrentMemoryContext = that new
 * context (made here and returned through *cxt first: call with
 * make_filter).
 */
static BloomState *
state_new(MemoryContext aggcxt, Bloom *(*make_filter) (void *arg), void *arg)
{
	MemoryContext cxt = AllocSetContextCreate(aggcxt, "bloom aggregate state",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	BloomState *st = palloc0(sizeof(BloomState));

	EOH_init_header(&st->hdr, &state_methods, cxt);
	st->magic = STATE_MAGIC;
	st->bloom = make_filter(arg);
	bloom_view(st->bloom, &st->view);
	MemoryContextSwitchTo(old);
	return st;
}

static Bloom *
copy_filter(void *arg)
{
	return bloom_copy((const Bloom *) arg);
}

/*
 * The state made by these functions that the non-null datum d points to, as
 * an expanded object (read/write only, or also read-only), else NULL.
 */
static inline BloomState *
state_of(Datum d, bool writable)
{
	BloomState *st;

	if (writable ? !VARATT_IS_EXTERNAL_EXPANDED_RW(DatumGetPointer(d))
		: !VARATT_IS_EXTERNAL_EXPANDED(DatumGetPointer(d)))
		return NULL;
	st = (BloomState *) DatumGetEOHP(d);
	if (st->hdr.eoh_methods != &state_methods || st->magic != STATE_MAGIC)
		return NULL;
	state_check(st);
	return st;
}

/*
 * The state argument argno: ours when it is a read/write expanded state
 * made by these functions, else (a flat bloom: a parallel worker's state,
 * a state read back from text) a copy made ours.  NULL for SQL NULL.
 */
static BloomState *
state_arg(FunctionCallInfo fcinfo, int argno, MemoryContext aggcxt)
{
	Datum		d;
	BloomState *st;
	Bloom	   *b;

	if (PG_ARGISNULL(argno))
		return NULL;
	d = PG_GETARG_DATUM(argno);
	if ((st = state_of(d, true)) != NULL)
		return st;
	b = DatumGetBloomP(d);
	bloom_validate(b, ERRCODE_INVALID_BINARY_REPRESENTATION);
	return state_new(aggcxt, copy_filter, b);
}

static inline Datum
state_datum(BloomState *st)
{
	return EOHPGetRWDatum(&st->hdr);
}

/* ---- streaming bloom_agg ------------------------------------------ */

typedef struct SizedArgs
{
	int64		expected;
	double		fp;
} SizedArgs;

static Bloom *
sized_filter(void *arg)
{
	SizedArgs  *a = arg;

	return bloom_create_sized(a->expected, a->fp, BC_ORDER_NEW);
}

/*
 * The shape the arguments size a filter for, kept for the call site: rows
 * give the same arguments, so the sizing runs again only when they change.
 */
typedef struct SizedCache
{
	BloomKeyType *kt;			/* the key type (bloom_key_type's slot) */
	bool		valid;
	double		fp;
	int64		expected;
	int32		hash_count;
	int64		word_count;
} SizedCache;

static SizedCache *
sized_cache(FunctionCallInfo fcinfo)
{
	if (fcinfo->flinfo->fn_extra == NULL)
		fcinfo->flinfo->fn_extra = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt,
														  sizeof(SizedCache));
	return (SizedCache *) fcinfo->flinfo->fn_extra;
}

/*
 * The state and the filter shape the arguments ask for, checked: the slow
 * path of bloom_agg_state_trans (the first row of a group, a state that is
 * not yet ours, other arguments than the state was last checked with).
 */
static pg_noinline BloomState *
sized_trans_state(FunctionCallInfo fcinfo)
{
	MemoryContext aggcxt = bloom_agg_context(fcinfo, "bloom_agg_state_trans");
	SizedCache *c = sized_cache(fcinfo);
	BloomState *st;
	SizedArgs	a;

	if (PG_ARGISNULL(2) || PG_ARGISNULL(3))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("fp_chance and expected_keys must not be NULL")));
	a.fp = PG_GETARG_FLOAT8(2);
	a.expected = PG_GETARG_INT64(3);
	if (!c->valid || a.fp != c->fp || a.expected != c->expected)
	{
		bc_sizing	s;

		if (a.expected < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("expected_keys must not be negative")));
		bloom_compute_sizing(a.expected, a.fp, &s);
		c->fp = a.fp;
		c->expected = a.expected;
		c->hash_count = s.hash_count;
		c->word_count = s.word_count;
		c->valid = true;
	}

	st = state_arg(fcinfo, 0, aggcxt);
	if (st == NULL)
		st = state_new(aggcxt, sized_filter, &a);
	else if (st->view.hash_count != c->hash_count || st->view.word_count != c->word_count)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("fp_chance and expected_keys must be the same for every row of bloom_agg")));
	st->fp = a.fp;
	st->expected = a.expected;
	st->args_known = true;
	(void) bloom_key_type_inline(fcinfo, 1, &c->kt);
	return st;
}

/*
 * Per row: a state of ours whose shape was checked against these same
 * arguments takes the key's hash straight away (nothing is looked up but
 * the key type, cached for the call site); anything else goes through
 * sized_trans_state first.
 */
PG_FUNCTION_INFO_V1(bloom_agg_state_trans);
Datum
bloom_agg_state_trans(PG_FUNCTION_ARGS)
{
	SizedCache *c = (SizedCache *) fcinfo->flinfo->fn_extra;
	BloomState *st = PG_ARGISNULL(0) ? NULL : state_of(PG_GETARG_DATUM(0), true);

	if (unlikely(c == NULL || c->kt == NULL || st == NULL || !st->args_known ||
				 PG_ARGISNULL(2) || PG_ARGISNULL(3) ||
				 PG_GETARG_FLOAT8(2) != st->fp || PG_GETARG_INT64(3) != st->expected))
	{
		st = sized_trans_state(fcinfo);
		c = (SizedCache *) fcinfo->flinfo->fn_extra;
	}
	if (!PG_ARGISNULL(1))
	{
		int64	   *h = st->pending + 2 * st->npending;

		bloom_key_hash_inline(c->kt, PG_GETARG_DATUM(1), &h[0], &h[1]);
		if (++st->npending == PENDING_MAX)
			state_flush(st);
	}
	return state_datum(st);
}

/* ---- bloom_union_agg ---------------------------------------------- */

PG_FUNCTION_INFO_V1(bloom_union_state_trans);
Datum
bloom_union_state_trans(PG_FUNCTION_ARGS)
{
	MemoryContext aggcxt = bloom_agg_context(fcinfo, "bloom_union_state_trans");
	BloomState *st;
	Bloom	   *in;

	st = state_arg(fcinfo, 0, aggcxt);
	if (PG_ARGISNULL(1))
	{
		if (st == NULL)
			PG_RETURN_NULL();
		return state_datum(st);
	}
	in = PG_GETARG_BLOOM_P(1);
	if (st == NULL)
		st = state_new(aggcxt, copy_filter, in);
	else
	{
		state_flush(st);
		bloom_combine_into(st->bloom, in, false);
	}
	return state_datum(st);
}

/* ---- shared: combine and final ------------------------------------ */

/* Shared by the streaming bloom_agg and bloom_union_agg. */
PG_FUNCTION_INFO_V1(bloom_agg_state_combine);
Datum
bloom_agg_state_combine(PG_FUNCTION_ARGS)
{
	MemoryContext aggcxt = bloom_agg_context(fcinfo, "bloom_agg_state_combine");
	BloomState *a = state_arg(fcinfo, 0, aggcxt);

	if (PG_ARGISNULL(1))
	{
		if (a == NULL)
			PG_RETURN_NULL();
		return state_datum(a);
	}
	/* the second state is read, never kept: a copy when it becomes ours */
	{
		BloomState *b = state_of(PG_GETARG_DATUM(1), false);

		if (b != NULL)
		{
			state_flush(b);
			if (a == NULL)
				return state_datum(state_new(aggcxt, copy_filter, b->bloom));
			state_flush(a);
			bloom_combine_into(a->bloom, b->bloom, false);
			return state_datum(a);
		}
	}
	if (a == NULL)
		return state_datum(state_arg(fcinfo, 1, aggcxt));
	state_flush(a);
	bloom_combine_into(a->bloom, PG_GETARG_BLOOM_P(1), false);
	return state_datum(a);
}

/*
 * The result, from the state argument (not NULL).  nodeAgg hands a final
 * function a read-only pointer to an expanded state: a state of ours is read
 * in place, its waiting hashes set first (the same value), and its filter
 * moved out when large and the state is this call's alone
 * (bloom_agg_move_result; the state is then spent), else copied once.  Any
 * other state (a flat bloom) is made ours first.
 */
static Datum
state_result(FunctionCallInfo fcinfo, MemoryContext aggcxt)
{
	BloomState *st = state_of(PG_GETARG_DATUM(0), false);
	Bloom	   *dst;
	bool		ours = st != NULL;

	if (!ours)
		st = state_arg(fcinfo, 0, aggcxt);
	state_flush(st);
	dst = bloom_agg_move_result(fcinfo, st->bloom);
	if (dst == NULL)
		PG_RETURN_BLOOM_P(bloom_copy(st->bloom));
	if (ours)
	{
		pfree(st->bloom);
		st->bloom = NULL;
		st->spent = true;
	}
	else
		DeleteExpandedObject(state_datum(st));
	PG_RETURN_BLOOM_P(dst);
}

/* the streaming bloom_agg's final function: no rows give the empty filter
 * Cassandra's sizing makes for 0 keys at fp_chance 0.01 */
PG_FUNCTION_INFO_V1(bloom_agg_state_final);
Datum
bloom_agg_state_final(PG_FUNCTION_ARGS)
{
	MemoryContext aggcxt = bloom_agg_context(fcinfo, "bloom_agg_state_final");

	if (PG_ARGISNULL(0))
		PG_RETURN_BLOOM_P(bloom_create_sized(0, DEFAULT_FP_CHANCE, BC_ORDER_NEW));
	return state_result(fcinfo, aggcxt);
}

/* bloom_union_agg's final function: NULL for no rows */
PG_FUNCTION_INFO_V1(bloom_union_state_final);
Datum
bloom_union_state_final(PG_FUNCTION_ARGS)
{
	MemoryContext aggcxt = bloom_agg_context(fcinfo, "bloom_union_state_final");

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	return state_result(fcinfo, aggcxt);
}
