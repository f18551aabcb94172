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

#include <sys/mman.h>

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
 * h1 (uniform for any key set); a small state keeps them in one.  A bucket is a list of fixed-size chunks of
 * hashes, carved from large slabs: nothing is ever copied to grow, the
 * slabs are advised to use transparent huge pages (first touches of fresh
 * memory dominate the cost otherwise), and no single allocation holds every
 * key, so the state can grow past 1 GB.  A bucket is deduplicated in place
 * with a transient hash table once its unchecked tail has grown as large as
 * its checked part (sooner while duplicates keep turning up), so memory
 * follows the distinct keys.  Every long step checks for interrupts
 * between buckets.
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
#define CHUNK_KEYS 64			/* hashes per chunk (1 kB) */
#define SLAB_MIN ((Size) 16 * 1024)
#define SLAB_MAX ((Size) 32 * 1024 * 1024)

typedef struct HashBucket
{
	KeyHash   **chunks;			/* chunks[i / CHUNK_KEYS][i % CHUNK_KEYS] */
	uint32		nchunks;		/* chunks in use */
	uint32		chunkcap;		/* length of chunks[] */
	uint64		n;				/* hashes held */
	uint64		unique;			/* prefix known free of duplicates */
	bool		dups_seen;		/* the last compaction removed many */
} HashBucket;

#define BUCKET_AT(b, i) (&(b)->chunks[(i) / CHUNK_KEYS][(i) % CHUNK_KEYS])

typedef struct ExactState
{
	double		fp;
	bc_order	order;			/* hash order of the SSTable version asked for */
	MemoryContext mcxt;
	char	   *slab;			/* free space of the current slab */
	Size		slab_left;
	Size		slab_total;		/* bytes of all slabs so far */
	KeyHash    *free_chunks;	/* chunks released by compaction, linked
								 * through their first word */
	/*
	 * A small state keeps every hash in one bucket (a group of a GROUP BY
	 * with few keys then costs a few kB, not a chunk per bucket touched);
	 * past FLAT_MAX distinct hashes they are spread over EXACT_BUCKETS.
	 */
	HashBucket	flat;
	HashBucket *buckets;		/* NULL while flat */
} ExactState;

#define FLAT_MAX 8192

/* number of buckets in use, and bucket i */
#define EXACT_NBUCKETS(st) ((st)->buckets ? EXACT_BUCKETS : 1)
#define EXACT_BUCKET(st, i) ((st)->buckets ? &(st)->buckets[i] : &(st)->flat)

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

/* A chunk: a released one, else carved from the current slab. */
static KeyHash *
chunk_alloc(ExactState *st)
{
	KeyHash    *c;

	if (st->free_chunks != NULL)
	{
		c = st->free_chunks;
		memcpy(&st->free_chunks, c, sizeof(KeyHash *));
		return c;
	}
	if (st->slab_left < CHUNK_KEYS * sizeof(KeyHash))
	{
		/* a quarter of what the state holds so far, so at most a quarter
		 * of it is slack (and at most SLAB_MAX once it is large) */
		Size		size = Max(SLAB_MIN, Min(SLAB_MAX, st->slab_total / 4));

		size -= size % (CHUNK_KEYS * sizeof(KeyHash));

		st->slab = MemoryContextAllocHuge(st->mcxt, size);
#ifdef MADV_HUGEPAGE
		if (size >= (Size) 4 * 1024 * 1024)
		{
			uintptr_t	hp = (uintptr_t) 2 * 1024 * 1024;
			uintptr_t	start = ((uintptr_t) st->slab + hp - 1) & ~(hp - 1);
			uintptr_t	end = ((uintptr_t) st->slab + size) & ~(hp - 1);

			if (end > start)
				(void) madvise((void *) start, end - start, MADV_HUGEPAGE);
		}
#endif
		st->slab_left = size;
		st->slab_total += size;
	}
	c = (KeyHash *) st->slab;
	st->slab += CHUNK_KEYS * sizeof(KeyHash);
	st->slab_left -= CHUNK_KEYS * sizeof(KeyHash);
	return c;
}

static void
bucket_add_chunk(ExactState *st, HashBucket *b)
{
	if (b->nchunks == b->chunkcap)
	{
		uint32		newcap = b->chunkcap ? b->chunkcap * 2 : 4;

		if (b->chunks == NULL)
			b->chunks = MemoryContextAlloc(st->mcxt, newcap * sizeof(KeyHash *));
		else
			b->chunks = repalloc_huge(b->chunks, newcap * sizeof(KeyHash *));
		b->chunkcap = newcap;
	}
	b->chunks[b->nchunks++] = chunk_alloc(st);
}

/*
 * Drop duplicate hashes from a bucket, keeping the first of each: a
 * transient open-addressing table (slot = low bits of h2, uniform for any
 * key set) of positions, so each hash costs a probe or two, no sorting.
 * Chunks left empty go back to the state's free list.
 */
static void
bucket_compact(ExactState *st, HashBucket *b)
{
	uint64		size = 16,
				mask,
				i,
				out = 0;
	uint32	   *tab;
	uint32		keep;

	if (b->unique == b->n)
		return;
	while (size < 2 * b->n)
		size *= 2;
	mask = size - 1;
	tab = (uint32 *) MemoryContextAllocExtended(CurrentMemoryContext, size * sizeof(uint32),
												MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO);
	for (i = 0; i < b->n; i++)
	{
		KeyHash		kh = *BUCKET_AT(b, i);
		uint64		slot = (uint64) kh.h2 & mask;

		for (;;)
		{
			uint32		at = tab[slot];

			if (at == 0)
			{
				*BUCKET_AT(b, out) = kh;
				tab[slot] = (uint32) ++out;
				break;
			}
			if (BUCKET_AT(b, at - 1)->h1 == kh.h1 && BUCKET_AT(b, at - 1)->h2 == kh.h2)
				break;			/* a duplicate */
			slot = (slot + 1) & mask;
		}
	}
	pfree(tab);
	b->dups_seen = (b->n - out) >= b->n / 8;
	b->n = out;
	b->unique = out;
	keep = (uint32) ((out + CHUNK_KEYS - 1) / CHUNK_KEYS);
	while (b->nchunks > keep)
	{
		KeyHash    *c = b->chunks[--b->nchunks];

		memcpy(c, &st->free_chunks, sizeof(KeyHash *));
		st->free_chunks = c;
	}
}

/* Make room for one more hash in a bucket. */
static void
bucket_make_room(ExactState *st, HashBucket *b)
{
	uint64		tail = b->n - b->unique;

	if (b->n < (uint64) b->nchunks * CHUNK_KEYS)
		return;
	/* deduplicate once the unchecked tail is as large as the checked part,
	 * or a quarter of it while duplicates keep turning up */
	if (tail > 0 && (tail >= b->unique || (b->dups_seen && tail >= b->unique / 4)))
	{
		bucket_compact(st, b);
		if (b->n < (uint64) b->nchunks * CHUNK_KEYS)
			return;
	}
	if ((uint64) b->nchunks * CHUNK_KEYS >= (uint64) PG_UINT32_MAX - CHUNK_KEYS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many distinct keys for bloom_agg")));
	bucket_add_chunk(st, b);
}

static void exact_spread(ExactState *st);

static inline void
exact_add(ExactState *st, int64 h1, int64 h2)
{
	HashBucket *b = st->buckets ? &st->buckets[bucket_of(h1)] : &st->flat;
	KeyHash    *slot;

	if (b->n == (uint64) b->nchunks * CHUNK_KEYS)
	{
		bucket_make_room(st, b);
		if (st->buckets == NULL && b->n >= FLAT_MAX)
		{
			/* still large once deduplicated: spread, then add there */
			exact_spread(st);
			b = &st->buckets[bucket_of(h1)];
			if (b->n == (uint64) b->nchunks * CHUNK_KEYS)
				bucket_make_room(st, b);
		}
	}
	slot = BUCKET_AT(b, b->n);
	slot->h1 = h1;
	slot->h2 = h2;
	b->n++;
}

/* Call fn on each run of consecutive hashes of a bucket (at most a chunk). */
#define FOREACH_BUCKET_RUN(b, run, len, stmt) \
	do { \
		uint64		_pos; \
		for (_pos = 0; _pos < (b)->n; _pos += CHUNK_KEYS) \
		{ \
			const KeyHash *run = (b)->chunks[_pos / CHUNK_KEYS]; \
			size_t		len = (size_t) Min((uint64) CHUNK_KEYS, (b)->n - _pos); \
			stmt; \
		} \
	} while (0)

/*
 * Append a run of hashes that all belong to bucket b, chunk by chunk with
 * memcpy (combining and deserializing states).  Deduplication waits for
 * the next compaction.
 */
static void
bucket_append_run(ExactState *st, HashBucket *b, const KeyHash *src, uint64 count)
{
	while (count > 0)
	{
		uint64		room;
		uint64		take;

		if (b->n == (uint64) b->nchunks * CHUNK_KEYS)
		{
			if ((uint64) b->nchunks * CHUNK_KEYS >= (uint64) PG_UINT32_MAX - CHUNK_KEYS)
				ereport(ERROR,
						(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						 errmsg("too many distinct keys for bloom_agg")));
			bucket_add_chunk(st, b);
		}
		room = (uint64) b->nchunks * CHUNK_KEYS - b->n;
		take = Min(room, count);
		memcpy(BUCKET_AT(b, b->n), src, take * sizeof(KeyHash));
		b->n += take;
		src += take;
		count -= take;
	}
}

/* Append hashes of any buckets, split into runs of one bucket each. */
static void
exact_append(ExactState *st, const KeyHash *src, uint64 count)
{
	uint64		i = 0;

	while (i < count)
	{
		int			bucket;
		uint64		j;

		if (st->buckets == NULL)
		{
			/* flat: take what fits under FLAT_MAX, then spread */
			uint64		take = Min(count - i, FLAT_MAX);

			bucket_append_run(st, &st->flat, src + i, take);
			i += take;
			if (st->flat.n >= FLAT_MAX)
			{
				bucket_compact(st, &st->flat);
				if (st->flat.n >= FLAT_MAX / 2)
					exact_spread(st);
			}
			continue;
		}
		bucket = bucket_of(src[i].h1);
		j = i + 1;
		while (j < count && bucket_of(src[j].h1) == bucket)
			j++;
		bucket_append_run(st, &st->buckets[bucket], src + i, j - i);
		i = j;
		if ((i & 0xfffff) == 0)
			CHECK_FOR_INTERRUPTS();
	}
}

/* Leave the flat layout: move the flat bucket's hashes into buckets. */
static void
exact_spread(ExactState *st)
{
	HashBucket	flat = st->flat;
	uint32		c;

	st->buckets = MemoryContextAllocZero(st->mcxt, sizeof(HashBucket) * EXACT_BUCKETS);
	memset(&st->flat, 0, sizeof(HashBucket));
	FOREACH_BUCKET_RUN(&flat, run, len, exact_append(st, run, len));
	for (c = 0; c < flat.nchunks; c++)
	{
		memcpy(flat.chunks[c], &st->free_chunks, sizeof(KeyHash *));
		st->free_chunks = flat.chunks[c];
	}
	if (flat.chunks)
		pfree(flat.chunks);
}

/* Deduplicate every bucket; returns the number of distinct hashes. */
static uint64
exact_compact_all(ExactState *st)
{
	uint64		total = 0;
	int			i;

	for (i = 0; i < EXACT_NBUCKETS(st); i++)
	{
		CHECK_FOR_INTERRUPTS();
		bucket_compact(st, EXACT_BUCKET(st, i));
		total += EXACT_BUCKET(st, i)->n;
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
	/* the first state of a group is adopted, not copied: b lives in the
	 * aggregate context too (this function's deserializer and transition
	 * function allocate there) and nothing else refers to it afterwards */
	if (a == NULL && b->mcxt == ctx)
		PG_RETURN_POINTER(b);
	if (a == NULL)
		a = exact_new(ctx, b->fp, b->order);
	else if (a->fp != b->fp || a->order != b->order)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("fp_chance and sstable_version must be the same for every row of bloom_agg")));
	for (i = 0; i < EXACT_NBUCKETS(b); i++)
	{
		HashBucket *bb = EXACT_BUCKET(b, i);

		CHECK_FOR_INTERRUPTS();
		FOREACH_BUCKET_RUN(bb, run, len, exact_append(a, run, len));
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
	for (i = 0; i < EXACT_NBUCKETS(st); i++)
	{
		HashBucket *b = EXACT_BUCKET(st, i);

		FOREACH_BUCKET_RUN(b, run, len,
						   {
							   memcpy(p, run, len * sizeof(KeyHash));
							   p += len * sizeof(KeyHash);
						   });
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
	uint64		n;
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
	/* the hashes are laid out bucket by bucket: appended run by run */
	if (n > 0)
	{
		const KeyHash *src = (const KeyHash *) (data + EXACT_SER_HDR);
		KeyHash    *copy = NULL;

		if ((uintptr_t) src % MAXIMUM_ALIGNOF != 0)
		{
			copy = palloc_extended(n * sizeof(KeyHash), MCXT_ALLOC_HUGE);
			memcpy(copy, src, n * sizeof(KeyHash));
			src = copy;
		}
		exact_append(st, src, n);
		if (copy)
			pfree(copy);
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
	for (i = 0; i < EXACT_NBUCKETS(st); i++)
	{
		HashBucket *hb = EXACT_BUCKET(st, i);

		CHECK_FOR_INTERRUPTS();
		FOREACH_BUCKET_RUN(hb, run, len,
						   bc_filter_add_hashes(&f, (const int64_t *) run, len));
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
