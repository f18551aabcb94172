/*
 * bloom_agg.c - the aggregates.
 *
 * bloom_agg(key [, fp_chance]) - exact mode.  The state keeps the 128-bit
 *   murmur3 hash of every key, deduplicated by sorting whenever the array
 *   fills, so the final filter is sized for the number of distinct keys
 *   exactly as Cassandra sizes the filter of a flushed SSTable.  Two keys
 *   count as one only if their 128-bit hashes collide (then they also set
 *   the same bits, so the filter bytes are unaffected; only the size
 *   could be).
 * bloom_agg(key, fp_chance, expected_keys) - streaming mode: the state is
 *   the filter itself, sized up front; memory is the filter.
 * bloom_union_agg(bloom) - OR of filters of one shape.
 *
 * All run as parallel partial aggregates: the states serialize to bytea,
 * combine, and the final result is byte-identical to a serial run.
 */
#include "postgres.h"

#include "fmgr.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "bloomcass.h"

#define DEFAULT_FP_CHANCE 0.01

/* ---------------------------------------------------------------------
 * Exact mode
 *
 * The hashes are kept in EXACT_BUCKETS buckets chosen by the top bits of
 * h1 (uniform for any key set), each a growable array deduplicated with a
 * transient hash table when it fills.  So no single allocation holds every key (the
 * state can grow past 1 GB), growing copies one bucket at a time, and
 * every long step (sorting, building) checks for interrupts between
 * buckets.
 * --------------------------------------------------------------------- */
typedef struct KeyHash
{
	int64		h1;
	int64		h2;
} KeyHash;

/* bc_filter_add_hashes reads an array of KeyHash as h1, h2, h1, h2, ... */
StaticAssertDecl(sizeof(KeyHash) == 2 * sizeof(int64), "KeyHash is two int64");

#define EXACT_BUCKET_BITS 10
#define EXACT_BUCKETS (1 << EXACT_BUCKET_BITS)
#define EXACT_BUCKET_MIN 64

typedef struct HashBucket
{
	KeyHash    *h;
	uint64		n;				/* hashes held */
	uint64		cap;			/* hashes allocated */
	uint64		unique;			/* prefix known free of duplicates */
	bool		dups_seen;		/* the last compaction removed many */
} HashBucket;

typedef struct ExactState
{
	double		fp;
	bc_order	order;			/* hash order of the SSTable version asked for */
	MemoryContext mcxt;
	HashBucket	buckets[EXACT_BUCKETS];
} ExactState;

static inline int
bucket_of(int64 h1)
{
	return (int) ((uint64) h1 >> (64 - EXACT_BUCKET_BITS));
}

static MemoryContext
agg_context(FunctionCallInfo fcinfo, const char *fname)
{
	MemoryContext ctx;

	if (!AggCheckCallContext(fcinfo, &ctx))
		elog(ERROR, "%s called in non-aggregate context", fname);
	return ctx;
}

static void
check_fp(double fp)
{
	bc_sizing	s;

	/* errors for NaN, <= 0, > 1, == 1 and unreachable values */
	bloom_compute_sizing(0, fp, &s);
}

static ExactState *
exact_new(MemoryContext ctx, double fp, bc_order order)
{
	ExactState *st = MemoryContextAllocZero(ctx, sizeof(ExactState));

	st->fp = fp;
	st->order = order;
	st->mcxt = ctx;
	return st;
}

/*
 * Drop duplicate hashes from a bucket, keeping the first of each: a
 * transient open-addressing table (slot = low bits of h2, uniform for any
 * key set) of positions, so each hash costs a probe or two, no sorting.
 */
static void
bucket_compact(HashBucket *b)
{
	uint64		size = 16,
				mask,
				i,
				out = 0;
	uint32	   *tab;

	if (b->unique == b->n)
		return;
	while (size < 2 * b->n)
		size *= 2;
	mask = size - 1;
	tab = (uint32 *) MemoryContextAllocExtended(CurrentMemoryContext, size * sizeof(uint32),
												MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (i = 0; i < b->n; i++)
	{
		KeyHash		kh = b->h[i];
		uint64		slot = (uint64) kh.h2 & mask;

		for (;;)
		{
			uint32		at = tab[slot];

			if (at == 0)
			{
				b->h[out] = kh;
				tab[slot] = (uint32) ++out;
				break;
			}
			if (b->h[at - 1].h1 == kh.h1 && b->h[at - 1].h2 == kh.h2)
				break;			/* a duplicate */
			slot = (slot + 1) & mask;
		}
	}
	pfree(tab);
	/* removing under an eighth is not worth a pass on the next fill */
	b->dups_seen = (b->n - out) >= b->n / 8;
	b->n = out;
	b->unique = out;
}

/* Room for `more` hashes in a bucket: compact first, grow by half when it
 * stays over three quarters full. */
static void
bucket_reserve(MemoryContext mcxt, HashBucket *b, uint64 more)
{
	uint64		newcap;

	if (b->n + more <= b->cap)
		return;
	/* compact when that pays: on the first fill, when the last compaction
	 * found many duplicates, or once the unchecked tail has outgrown the
	 * checked part (so late duplicates are still caught); otherwise grow */
	if (b->n > b->unique &&
		(b->unique == 0 || b->dups_seen || b->n - b->unique >= b->unique))
	{
		bucket_compact(b);
		if (b->n + more <= b->cap && b->n <= b->cap / 4 * 3)
			return;
	}
	newcap = Max(b->cap, EXACT_BUCKET_MIN);
	while (newcap < b->n + more || newcap < b->n + b->n / 3)
		newcap += newcap / 2;
	if (newcap > (uint64) (MaxAllocHugeSize / sizeof(KeyHash)) || newcap >= PG_UINT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many distinct keys for bloom_agg")));
	if (b->h == NULL)
		b->h = MemoryContextAllocHuge(mcxt, newcap * sizeof(KeyHash));
	else
		b->h = repalloc_huge(b->h, newcap * sizeof(KeyHash));
	b->cap = newcap;
}

static inline void
exact_add(ExactState *st, int64 h1, int64 h2)
{
	HashBucket *b = &st->buckets[bucket_of(h1)];

	if (b->n == b->cap)
		bucket_reserve(st->mcxt, b, 1);
	b->h[b->n].h1 = h1;
	b->h[b->n].h2 = h2;
	b->n++;
}

/* Deduplicate every bucket; returns the number of distinct hashes. */
static uint64
exact_compact_all(ExactState *st)
{
	uint64		total = 0;
	int			i;

	for (i = 0; i < EXACT_BUCKETS; i++)
	{
		CHECK_FOR_INTERRUPTS();
		bucket_compact(&st->buckets[i]);
		total += st->buckets[i].n;
	}
	return total;
}

PG_FUNCTION_INFO_V1(bloom_agg_exact_trans);
Datum
bloom_agg_exact_trans(PG_FUNCTION_ARGS)
{
	MemoryContext ctx = agg_context(fcinfo, "bloom_agg_exact_trans");
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
		check_fp(fp);
		st = exact_new(ctx, fp, order);
	}
	else if (fp != st->fp)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("fp_chance must be the same for every row of bloom_agg (%g, then %g)",
						st->fp, fp)));

	if (!PG_ARGISNULL(1))
	{
		int64		h1,
					h2;

		bloom_key_hash(bloom_key_type(fcinfo, 1, NULL), PG_GETARG_DATUM(1), &h1, &h2);
		exact_add(st, h1, h2);
	}
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(bloom_agg_exact_combine);
Datum
bloom_agg_exact_combine(PG_FUNCTION_ARGS)
{
	MemoryContext ctx = agg_context(fcinfo, "bloom_agg_exact_combine");
	ExactState *a = PG_ARGISNULL(0) ? NULL : (ExactState *) PG_GETARG_POINTER(0);
	ExactState *b = PG_ARGISNULL(1) ? NULL : (ExactState *) PG_GETARG_POINTER(1);
	int			i;

	if (b == NULL)
		PG_RETURN_POINTER(a);
	if (a == NULL)
		a = exact_new(ctx, b->fp, b->order);
	else if (a->fp != b->fp || a->order != b->order)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("fp_chance and sstable_version must be the same for every row of bloom_agg")));
	for (i = 0; i < EXACT_BUCKETS; i++)
	{
		HashBucket *ba = &a->buckets[i];
		HashBucket *bb = &b->buckets[i];

		CHECK_FOR_INTERRUPTS();
		if (bb->n == 0)
			continue;
		bucket_reserve(a->mcxt, ba, bb->n);
		memcpy(ba->h + ba->n, bb->h, bb->n * sizeof(KeyHash));
		ba->n += bb->n;
	}
	PG_RETURN_POINTER(a);
}

/* serialized: float8 fp, int64 count, int64 hash order, count * (int64 h1,
 * int64 h2), native byte order (states only travel between processes of
 * one server) */
#define EXACT_SER_HDR (sizeof(double) + 2 * sizeof(uint64))

PG_FUNCTION_INFO_V1(bloom_agg_exact_serialize);
Datum
bloom_agg_exact_serialize(PG_FUNCTION_ARGS)
{
	ExactState *st = (ExactState *) PG_GETARG_POINTER(0);
	uint64		n,
				order = (uint64) st->order;
	bytea	   *out;
	char	   *p;
	Size		size;
	int			i;

	agg_context(fcinfo, "bloom_agg_exact_serialize");
	n = exact_compact_all(st);
	if (n > (MaxAllocSize - VARHDRSZ - EXACT_SER_HDR) / sizeof(KeyHash))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom_agg state of " UINT64_FORMAT " distinct keys is too large to pass between parallel workers",
						n),
				 errhint("Run it without parallelism (SET max_parallel_workers_per_gather = 0).")));
	size = VARHDRSZ + EXACT_SER_HDR + n * sizeof(KeyHash);
	out = (bytea *) palloc(size);
	SET_VARSIZE(out, size);
	p = VARDATA(out);
	memcpy(p, &st->fp, sizeof(double));
	memcpy(p + sizeof(double), &n, sizeof(uint64));
	memcpy(p + sizeof(double) + sizeof(uint64), &order, sizeof(uint64));
	p += EXACT_SER_HDR;
	for (i = 0; i < EXACT_BUCKETS; i++)
	{
		HashBucket *b = &st->buckets[i];

		if (b->n == 0)
			continue;
		memcpy(p, b->h, b->n * sizeof(KeyHash));
		p += b->n * sizeof(KeyHash);
	}
	PG_RETURN_BYTEA_P(out);
}

PG_FUNCTION_INFO_V1(bloom_agg_exact_deserialize);
Datum
bloom_agg_exact_deserialize(PG_FUNCTION_ARGS)
{
	MemoryContext ctx = agg_context(fcinfo, "bloom_agg_exact_deserialize");
	bytea	   *in = PG_GETARG_BYTEA_PP(0);
	const char *data = VARDATA_ANY(in);
	Size		len = VARSIZE_ANY_EXHDR(in);
	double		fp;
	uint64		n,
				i;
	uint64		order;
	ExactState *st;

	if (len < EXACT_SER_HDR)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid bloom_agg state: too short")));
	memcpy(&fp, data, sizeof(double));
	memcpy(&n, data + sizeof(double), sizeof(uint64));
	memcpy(&order, data + sizeof(double) + sizeof(uint64), sizeof(uint64));
	if (order != BC_ORDER_NEW && order != BC_ORDER_OLD)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid bloom_agg state: unknown hash order")));
	if (n > (len - EXACT_SER_HDR) / sizeof(KeyHash) ||
		len != EXACT_SER_HDR + n * sizeof(KeyHash))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid bloom_agg state: length does not match its key count")));
	check_fp(fp);
	st = exact_new(ctx, fp, (bc_order) order);
	data += EXACT_SER_HDR;
	for (i = 0; i < n; i++)
	{
		KeyHash		kh;

		if ((i & 0xffff) == 0)
			CHECK_FOR_INTERRUPTS();
		memcpy(&kh, data + i * sizeof(KeyHash), sizeof(KeyHash));
		exact_add(st, kh.h1, kh.h2);
	}
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(bloom_agg_exact_final);
Datum
bloom_agg_exact_final(PG_FUNCTION_ARGS)
{
	ExactState *st = PG_ARGISNULL(0) ? NULL : (ExactState *) PG_GETARG_POINTER(0);
	Bloom	   *b;
	bc_filter	f;
	uint64		n;
	int			i;

	agg_context(fcinfo, "bloom_agg_exact_final");
	if (st == NULL)
		PG_RETURN_BLOOM_P(bloom_create_sized(0, DEFAULT_FP_CHANCE, BC_ORDER_NEW));

	n = exact_compact_all(st);
	b = bloom_create_sized((int64) n, st->fp, st->order);
	bloom_view(b, &f);
	for (i = 0; i < EXACT_BUCKETS; i++)
	{
		HashBucket *hb = &st->buckets[i];

		CHECK_FOR_INTERRUPTS();
		if (hb->n > 0)
			bc_filter_add_hashes(&f, (const int64_t *) hb->h, hb->n);
	}
	PG_RETURN_BLOOM_P(b);
}

/* ---------------------------------------------------------------------
 * Streaming (expected_keys) mode and union: the state is the filter
 * --------------------------------------------------------------------- */
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

PG_FUNCTION_INFO_V1(bloom_agg_sized_trans);
Datum
bloom_agg_sized_trans(PG_FUNCTION_ARGS)
{
	MemoryContext ctx = agg_context(fcinfo, "bloom_agg_sized_trans");
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
	else if (fp != st->fp || expected != st->expected)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("fp_chance and expected_keys must be the same for every row of bloom_agg")));

	if (!PG_ARGISNULL(1))
	{
		int64	   *h = st->pending + 2 * st->npending;

		bloom_key_hash(bloom_key_type(fcinfo, 1, NULL), PG_GETARG_DATUM(1), &h[0], &h[1]);
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
	MemoryContext ctx = agg_context(fcinfo, "bloom_agg_sized_combine");
	FilterState *a = PG_ARGISNULL(0) ? NULL : (FilterState *) PG_GETARG_POINTER(0);
	FilterState *b = PG_ARGISNULL(1) ? NULL : (FilterState *) PG_GETARG_POINTER(1);

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
	Size		blen = VARSIZE(st->bloom) - VARHDRSZ;
	Size		size = VARHDRSZ + FILTER_SER_HDR + blen;
	bytea	   *out;

	agg_context(fcinfo, "bloom_agg_sized_serialize");
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
	MemoryContext ctx = agg_context(fcinfo, "bloom_agg_sized_deserialize");
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

	agg_context(fcinfo, "bloom_agg_sized_final");
	if (st == NULL)
		PG_RETURN_BLOOM_P(bloom_create_sized(0, DEFAULT_FP_CHANCE, BC_ORDER_NEW));
	filter_state_flush(st);
	PG_RETURN_BLOOM_P(st->bloom);
}

PG_FUNCTION_INFO_V1(bloom_union_trans);
Datum
bloom_union_trans(PG_FUNCTION_ARGS)
{
	MemoryContext ctx = agg_context(fcinfo, "bloom_union_trans");
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
		bloom_combine_into(st->bloom, in, false);
	PG_RETURN_POINTER(st);
}

PG_FUNCTION_INFO_V1(bloom_union_final);
Datum
bloom_union_final(PG_FUNCTION_ARGS)
{
	FilterState *st = PG_ARGISNULL(0) ? NULL : (FilterState *) PG_GETARG_POINTER(0);

	agg_context(fcinfo, "bloom_union_final");
	if (st == NULL)
		PG_RETURN_NULL();
	PG_RETURN_BLOOM_P(st->bloom);
}
