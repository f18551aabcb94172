/*
 * bloom_agg.c - the aggregates.
 *
 * bloom_agg(key [, fp_chance]) - exact mode.  The state keeps the 128-bit
 *   murmur3 hash of every key, deduplicated as it grows (see below), so
 *   the final filter is sized for the number of distinct keys
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
#include <unistd.h>

#include "access/parallel.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "port/pg_bswap.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "bloomcass.h"

#define DEFAULT_FP_CHANCE 0.01

/* ---------------------------------------------------------------------
 * Exact mode
 *
 * The hashes are kept in EXACT_BUCKETS buckets chosen by the top bits of
 * h1 (uniform for any key set), 15 bytes each (the top byte of h1 is the
 * bucket's); a small state keeps them in one, 16 bytes each.  A bucket is
 * a list of fixed-size chunks of hashes, carved from large slabs: nothing
 * is ever copied to grow, the
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
#define CHUNK_KEYS 64			/* hashes per chunk (960 or 1024 bytes) */

/*
 * Records.  The hashes of a spread bucket share the top EXACT_BUCKET_BITS
 * bits of h1, so its top byte is implied: a record is 15 bytes, the low
 * 56 bits of h1 then h2, little-endian (15 bytes per distinct key).  The
 * flat bucket holds hashes of any bucket: 16-byte records.  Records are
 * read and written with memcpy (they are not aligned).
 */
#define REC_FULL 16
#define REC_PACKED 15
#define LOW56 ((UINT64CONST(1) << 56) - 1)

static inline uint64
rec_le64(uint64 v)
{
#ifdef WORDS_BIGENDIAN
	return pg_bswap64(v);
#else
	return v;
#endif
}
#define SLAB_MIN ((Size) 16 * 1024)
#define SLAB_MAX ((Size) 32 * 1024 * 1024)

typedef struct HashBucket
{
	uint8	  **chunks;			/* record i: REC_AT(b, i) */
	uint32		nchunks;		/* chunks in use */
	uint32		chunkcap;		/* length of chunks[] */
	uint64		n;				/* hashes held */
	uint64		unique;			/* prefix known free of duplicates */
	uint8	   *tail;			/* next free record, if room > 0 */
	uint32		room;			/* free records after n (in the last chunk) */
	uint8		recsize;		/* REC_FULL (flat) or REC_PACKED */
	uint8		top;			/* packed: the top byte of every h1 */
	bool		dups_seen;		/* the last compaction removed many */
} HashBucket;

#define REC_AT(b, i) ((b)->chunks[(i) / CHUNK_KEYS] + ((i) % CHUNK_KEYS) * (b)->recsize)

static inline void
rec_put(const HashBucket *b, uint8 *rec, int64 h1, int64 h2)
{
	uint64		x = rec_le64((uint64) h1),
				y = rec_le64((uint64) h2);

	/* packed: h2 overwrites the 8th byte, h1's top byte */
	memcpy(rec, &x, sizeof(x));
	memcpy(rec + b->recsize - sizeof(y), &y, sizeof(y));
}

static inline void
rec_get(const HashBucket *b, const uint8 *rec, int64 *h1, int64 *h2)
{
	uint64		x,
				y;

	memcpy(&x, rec, sizeof(x));
	memcpy(&y, rec + b->recsize - sizeof(y), sizeof(y));
	x = rec_le64(x);
	if (b->recsize == REC_PACKED)
		x = (x & LOW56) | ((uint64) b->top << 56);
	*h1 = (int64) x;
	*h2 = (int64) rec_le64(y);
}

/* two records of one bucket are the same hash */
static inline bool
rec_equal(const HashBucket *b, const uint8 *r, const uint8 *s)
{
	uint64		a1,
				a2,
				b1,
				b2;

	memcpy(&a1, r, 8);
	memcpy(&b1, s, 8);
	memcpy(&a2, r + b->recsize - 8, 8);
	memcpy(&b2, s + b->recsize - 8, 8);
	/* packed: the two loads overlap in a byte and cover all fifteen */
	return a1 == b1 && a2 == b2;
}

/* Recompute tail and room after n or the chunks changed (the free slots
 * after n are always in the last chunk). */
static inline void
bucket_sync(HashBucket *b)
{
	uint64		cap = (uint64) b->nchunks * CHUNK_KEYS;

	b->room = (uint32) (cap - b->n);
	b->tail = b->room > 0 ? REC_AT(b, b->n) : NULL;
}

typedef struct ExactState
{
	double		fp;
	bc_order	order;			/* hash order of the SSTable version asked for */
	MemoryContext aggcxt;		/* aggregate context the state belongs to */
	MemoryContext mcxt;			/* where its memory is: aggcxt while flat,
								 * then a child context of its own */
	char	   *slab;			/* free space of the current slab */
	Size		slab_left;
	Size		slab_total;		/* bytes of all slabs so far */
	Size		slab_hint;		/* bytes about to be appended (a merge) */
	uint8	   *free_chunks;	/* chunks released by compaction (all of one
								 * record size), linked through their first
								 * word */
	/*
	 * A small state keeps every hash in one bucket (a group of a GROUP BY
	 * with few keys then costs a few kB, not a chunk per bucket touched);
	 * past FLAT_MAX distinct hashes they are spread over EXACT_BUCKETS.
	 */
	HashBucket	flat;
	HashBucket *buckets;		/* NULL while flat */
	bool		dups_found;		/* some compaction removed a duplicate */

	/*
	 * A deserialized state only borrows its hashes from the serialized
	 * bytes (alive while the combine function that receives it runs, which
	 * copies them once, straight into its own state): then mcxt is NULL and
	 * the fields below are set.
	 */
	const char *ser;			/* ser_n hashes (KeyHash, maybe unaligned) */
	uint64		ser_n;

	/* a deserialized hand-over (see below): the state handed over */
	struct ExactState *handed;
	bool		passed_on;		/* serialized by hand-over: no longer usable */
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
	st->aggcxt = ctx;
	st->mcxt = ctx;
	st->flat.recsize = REC_FULL;
	return st;
}

/* A chunk of records of b's size: a released one, else carved from the
 * current slab. */
static uint8 *
chunk_alloc(ExactState *st, const HashBucket *b)
{
	Size		bytes = (Size) CHUNK_KEYS * b->recsize;
	uint8	   *c;

	if (st->free_chunks != NULL)
	{
		c = st->free_chunks;
		memcpy(&st->free_chunks, c, sizeof(uint8 *));
		return c;
	}
	if (st->slab_left < bytes)
	{
		/* a quarter of what the state holds so far, so at most a quarter
		 * of it is slack (and at most SLAB_MAX once it is large) */
		Size		size = Max(SLAB_MIN, Min(SLAB_MAX, Max(st->slab_total / 4, st->slab_hint)));

		size -= size % bytes;

		st->slab = bloom_palloc_large(st->mcxt, size);
		st->slab_left = size;
		st->slab_total += size;
	}
	c = (uint8 *) st->slab;
	st->slab += bytes;
	st->slab_left -= bytes;
	return c;
}

static void
bucket_add_chunk(ExactState *st, HashBucket *b)
{
	if (b->nchunks == b->chunkcap)
	{
		uint32		newcap = b->chunkcap ? b->chunkcap * 2 : 4;

		if (b->chunks == NULL)
			b->chunks = MemoryContextAlloc(st->mcxt, newcap * sizeof(uint8 *));
		else
			b->chunks = repalloc_huge(b->chunks, newcap * sizeof(uint8 *));
		b->chunkcap = newcap;
	}
	b->chunks[b->nchunks++] = chunk_alloc(st, b);
	bucket_sync(b);
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
		const uint8 *rec = REC_AT(b, i);
		uint64		h2;
		uint64		slot;

		memcpy(&h2, rec + b->recsize - sizeof(h2), sizeof(h2));
		slot = rec_le64(h2) & mask;
		for (;;)
		{
			uint32		at = tab[slot];

			if (at == 0)
			{
				if (out != i)
					memcpy(REC_AT(b, out), rec, b->recsize);
				tab[slot] = (uint32) ++out;
				break;
			}
			if (rec_equal(b, REC_AT(b, at - 1), rec))
				break;			/* a duplicate */
			slot = (slot + 1) & mask;
		}
	}
	pfree(tab);
	b->dups_seen = (b->n - out) >= b->n / 8;
	if (out < b->n)
		st->dups_found = true;
	b->n = out;
	b->unique = out;
	keep = (uint32) ((out + CHUNK_KEYS - 1) / CHUNK_KEYS);
	while (b->nchunks > keep)
	{
		uint8	   *c = b->chunks[--b->nchunks];

		memcpy(c, &st->free_chunks, sizeof(uint8 *));
		st->free_chunks = c;
	}
	bucket_sync(b);
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

static void
exact_check_usable(const ExactState *st)
{
	if (st->passed_on)
		elog(ERROR, "bloom_agg state used after it was handed over");
}

/* exact_add when the bucket is full: make room (may spread the state) */
static pg_noinline HashBucket *
exact_add_room(ExactState *st, HashBucket *b, int64 h1)
{
	bucket_make_room(st, b);
	if (st->buckets == NULL && b->n >= FLAT_MAX)
	{
		/* still large once deduplicated: spread, then add there */
		exact_spread(st);
		b = &st->buckets[bucket_of(h1)];
		if (b->room == 0)
			bucket_make_room(st, b);
	}
	return b;
}

static inline void
exact_add(ExactState *st, int64 h1, int64 h2)
{
	HashBucket *b = st->buckets ? &st->buckets[bucket_of(h1)] : &st->flat;

	if (unlikely(b->room == 0))
		b = exact_add_room(st, b, h1);
	rec_put(b, b->tail, h1, h2);
	b->tail += b->recsize;
	b->room--;
	b->n++;
}

/*
 * Unpack up to CHUNK_KEYS records of a bucket from position pos into buf
 * (h1, h2 pairs); returns how many.
 */
static size_t
bucket_unpack(const HashBucket *b, uint64 pos, KeyHash *buf)
{
	const uint8 *rec = REC_AT(b, pos);
	size_t		len = (size_t) Min((uint64) CHUNK_KEYS - pos % CHUNK_KEYS, b->n - pos);
	size_t		i;

	for (i = 0; i < len; i++, rec += b->recsize)
		rec_get(b, rec, &buf[i].h1, &buf[i].h2);
	return len;
}

/* Call stmt on each run of a bucket's hashes, unpacked into buf. */
#define FOREACH_BUCKET_RUN(b, buf, len, stmt) \
	do { \
		uint64		_pos; \
		size_t		len; \
		for (_pos = 0; _pos < (b)->n; _pos += len) \
		{ \
			len = bucket_unpack((b), _pos, (buf)); \
			stmt; \
		} \
	} while (0)

/* Append hashes of any buckets.  Deduplication waits for the next
 * compaction. */
static void
exact_append(ExactState *st, const KeyHash *src, uint64 count)
{
	uint64		i;

	for (i = 0; i < count; i++)
	{
		exact_add(st, src[i].h1, src[i].h2);
		if ((i & 0xfffff) == 0xfffff)
			CHECK_FOR_INTERRUPTS();
	}
}

/* Leave the flat layout: move the flat bucket's hashes into buckets. */
static void
exact_spread(ExactState *st)
{
	HashBucket	flat = st->flat;
	KeyHash		buf[CHUNK_KEYS];
	int			i;

	/*
	 * From here on the state's memory is a context of its own (a child of
	 * the aggregate context, so accounted there), which can be handed over
	 * whole (see bloom_agg_exact_serialize).  The flat chunks stay behind in
	 * the aggregate context (at most FLAT_MAX hashes), not reused.
	 */
	st->mcxt = AllocSetContextCreate(st->aggcxt, "bloom_agg exact state",
									 ALLOCSET_DEFAULT_SIZES);
	st->slab = NULL;
	st->slab_left = 0;
	st->free_chunks = NULL;
	st->buckets = MemoryContextAllocZero(st->mcxt, sizeof(HashBucket) * EXACT_BUCKETS);
	for (i = 0; i < EXACT_BUCKETS; i++)
	{
		st->buckets[i].recsize = REC_PACKED;
		st->buckets[i].top = (uint8) (i >> (EXACT_BUCKET_BITS - 8));
	}
	memset(&st->flat, 0, sizeof(HashBucket));
	st->flat.recsize = REC_FULL;
	FOREACH_BUCKET_RUN(&flat, buf, len, exact_append(st, buf, len));
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
		MemoryContext ctx = agg_context(fcinfo, "bloom_agg_exact_trans");

		check_fp(fp);
		st = exact_new(ctx, fp, order);
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
		exact_add(st, h1, h2);
	}
	PG_RETURN_POINTER(st);
}

/* ---------------------------------------------------------------------
 * Hand-over within one process
 *
 * The leader of a parallel plan serializes its own partial state and
 * deserializes it again itself (so does any process running a
 * partitionwise partial aggregate).  Turning that state into bytes would
 * copy its hashes (and PostgreSQL copies the first row of a Finalize
 * Aggregate twice more), each copy the size of the largest value of the
 * query, in fresh memory.  Instead a spread state, whose memory is a
 * context of its own, is handed over: the context moves under the query's
 * context, a backend-local registry records it under a serial number, and
 * the serialized value carries only that number and the process id.
 * Deserializing looks the number up and removes it, so a hand-over is
 * taken once, and a stale or foreign number is an error, never a dangling
 * pointer.  The combine function adopts the state (its context moves under
 * the combining aggregate context) or copies from it and frees it.  An
 * unclaimed state goes with the query's memory, and its registry entry
 * with it (a reset callback).  Parallel workers always serialize the
 * hashes themselves.
 * --------------------------------------------------------------------- */
typedef struct HandoverEntry
{
	uint64		id;				/* hash key */
	ExactState *st;
} HandoverEntry;

typedef struct HandoverCallback
{
	MemoryContextCallback cb;
	uint64		id;
} HandoverCallback;

static HTAB *handovers = NULL;
static uint64 handover_last_id = 0;

static void
handover_forget(void *arg)
{
	HandoverCallback *hc = (HandoverCallback *) arg;

	if (handovers != NULL)
		(void) hash_search(handovers, &hc->id, HASH_REMOVE, NULL);
}

/* Register st (spread: memory of its own) for hand-over; returns its id. */
static uint64
handover_register(ExactState *st, MemoryContext query_cxt)
{
	ExactState *h = MemoryContextAlloc(st->mcxt, sizeof(ExactState));
	HandoverCallback *hc = MemoryContextAlloc(st->mcxt, sizeof(HandoverCallback));
	HandoverEntry *e;

	if (handovers == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(uint64);
		ctl.entrysize = sizeof(HandoverEntry);
		handovers = hash_create("bloom_agg hand-overs", 16, &ctl, HASH_ELEM | HASH_BLOBS);
	}
	*h = *st;
	hc->id = ++handover_last_id;
	hc->cb.func = handover_forget;
	hc->cb.arg = hc;
	MemoryContextRegisterResetCallback(h->mcxt, &hc->cb);
	e = (HandoverEntry *) hash_search(handovers, &hc->id, HASH_ENTER, NULL);
	e->st = h;
	MemoryContextSetParent(h->mcxt, query_cxt);
	/* what the aggregate still holds is an empty shell */
	memset(st, 0, sizeof(ExactState));
	st->passed_on = true;
	return hc->id;
}

/* Take a handed-over state (once), or NULL if there is none by that id. */
static ExactState *
handover_take(uint64 id)
{
	HandoverEntry *e;

	if (handovers == NULL)
		return NULL;
	/* a removed entry stays readable until the table's next use */
	e = (HandoverEntry *) hash_search(handovers, &id, HASH_REMOVE, NULL);
	return e ? e->st : NULL;
}

/*
 * Append a deserialized (borrowed) state's hashes, through a small aligned
 * buffer.
 */
static void
exact_append_serialized(ExactState *st, const ExactState *b)
{
	KeyHash		buf[256];
	uint64		done = 0;

	if (b->ser_n >= FLAT_MAX)
	{
		if (st->buckets == NULL)
			exact_spread(st);
		/* one large slab (huge pages) rather than many small ones */
		st->slab_hint = b->ser_n * REC_PACKED +
			(Size) EXACT_BUCKETS * CHUNK_KEYS * REC_PACKED;
	}
	while (done < b->ser_n)
	{
		uint64		take = Min(b->ser_n - done, (uint64) lengthof(buf));

		memcpy(buf, b->ser + done * sizeof(KeyHash), take * sizeof(KeyHash));
		exact_append(st, buf, take);
		done += take;
	}
	st->slab_hint = 0;
}

PG_FUNCTION_INFO_V1(bloom_agg_exact_combine);
Datum
bloom_agg_exact_combine(PG_FUNCTION_ARGS)
{
	MemoryContext ctx = agg_context(fcinfo, "bloom_agg_exact_combine");
	ExactState *a = PG_ARGISNULL(0) ? NULL : (ExactState *) PG_GETARG_POINTER(0);
	ExactState *b = PG_ARGISNULL(1) ? NULL : (ExactState *) PG_GETARG_POINTER(1);
	bool		handed = false;
	int			i;

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
		a = exact_new(ctx, b->fp, b->order);
	else if (a->fp != b->fp || a->order != b->order)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("fp_chance and sstable_version must be the same for every row of bloom_agg")));
	if (b->ser != NULL)
		exact_append_serialized(a, b);
	else
	{
		KeyHash		buf[CHUNK_KEYS];

		for (i = 0; i < EXACT_NBUCKETS(b); i++)
		{
			HashBucket *bb = EXACT_BUCKET(b, i);

			CHECK_FOR_INTERRUPTS();
			FOREACH_BUCKET_RUN(bb, buf, len, exact_append(a, buf, len));
		}
		/* a handed-over state is freed once copied */
		if (handed)
			MemoryContextDelete(b->mcxt);
	}
	PG_RETURN_POINTER(a);
}

/*
 * Serialized: float8 fp, uint64 count, uint64 hash order, uint64 kind, then
 * for EXACT_SER_HASHES count * (int64 h1, int64 h2), for EXACT_SER_HANDOVER
 * (count 0) the process id and the registry id; native byte order (states
 * only travel between processes of one server).
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
	uint64		n;
	bytea	   *out;
	char	   *p;
	Size		size;
	int			i;

	agg_context(fcinfo, "bloom_agg_exact_serialize");
	exact_check_usable(st);
	if (st->buckets != NULL && !IsParallelWorker() &&
		fcinfo->context != NULL && IsA(fcinfo->context, AggState))
	{
		EState	   *estate = ((AggState *) fcinfo->context)->ss.ps.state;
		uint64		ids[2];

		out = exact_ser_new(st, VARHDRSZ + EXACT_SER_HDR + sizeof(ids), 0,
							EXACT_SER_HANDOVER);
		ids[0] = (uint64) MyProcPid;
		ids[1] = handover_register(st, estate->es_query_cxt);
		memcpy(VARDATA(out) + EXACT_SER_HDR, ids, sizeof(ids));
		PG_RETURN_BYTEA_P(out);
	}
	/*
	 * Deduplicate first, unless no compaction so far found a duplicate
	 * (distinct keys, most likely): then that pass would only delay the
	 * leader, which deduplicates the union anyway.  At worst (duplicates
	 * only among the unchecked tails) the state travels at twice its
	 * deduplicated size.
	 */
	if (st->dups_found)
		n = exact_compact_all(st);
	else
	{
		n = 0;
		for (i = 0; i < EXACT_NBUCKETS(st); i++)
			n += EXACT_BUCKET(st, i)->n;
	}
	if (n > (MaxAllocSize - VARHDRSZ - EXACT_SER_HDR) / sizeof(KeyHash))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom_agg state of " UINT64_FORMAT " distinct keys is too large to pass between parallel workers",
						n),
				 errhint("Run it without parallelism (SET max_parallel_workers_per_gather = 0).")));
	size = VARHDRSZ + EXACT_SER_HDR + n * sizeof(KeyHash);
	out = exact_ser_new(st, size, n, EXACT_SER_HASHES);
	p = VARDATA(out) + EXACT_SER_HDR;
	for (i = 0; i < EXACT_NBUCKETS(st); i++)
	{
		HashBucket *b = EXACT_BUCKET(st, i);
		KeyHash		buf[CHUNK_KEYS];

		FOREACH_BUCKET_RUN(b, buf, len,
						   {
							   memcpy(p, buf, len * sizeof(KeyHash));
							   p += len * sizeof(KeyHash);
						   });
	}
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

	agg_context(fcinfo, "bloom_agg_exact_deserialize");
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
		uint64		ids[2];
		ExactState *h;

		if (len != EXACT_SER_HDR + sizeof(ids) || n != 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
					 errmsg("invalid bloom_agg state: bad hand-over")));
		memcpy(ids, data + EXACT_SER_HDR, sizeof(ids));
		if (ids[0] != (uint64) MyProcPid || (h = handover_take(ids[1])) == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
					 errmsg("invalid bloom_agg state: the state handed over is gone")));
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
	uint64		n;
	int			i;

	agg_context(fcinfo, "bloom_agg_exact_final");
	if (st != NULL)
		exact_check_usable(st);
	if (st == NULL)
		PG_RETURN_BLOOM_P(bloom_create_sized(0, DEFAULT_FP_CHANCE, BC_ORDER_NEW));

	n = exact_compact_all(st);
	b = bloom_create_sized((int64) n, st->fp, st->order);
	bloom_view(b, &f);
	for (i = 0; i < EXACT_NBUCKETS(st); i++)
	{
		HashBucket *hb = EXACT_BUCKET(st, i);
		KeyHash		buf[CHUNK_KEYS];

		CHECK_FOR_INTERRUPTS();
		FOREACH_BUCKET_RUN(hb, buf, len,
						   bc_filter_add_hashes(&f, (const int64_t *) buf, len));
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

/* A state whose filter was moved out as the result is spent. */
static inline void
filter_state_check(const FilterState *st)
{
	if (st != NULL && st->bloom == NULL)
		elog(ERROR, "bloom aggregate state used after its result was taken");
}

/*
 * The result of a final function is copied by PostgreSQL unless it lives
 * in the function's current (output) memory context; for a filter built in
 * the aggregate state that copy would double the peak memory of a large
 * build.  So when the state is provably this call's alone (an Agg node's,
 * not shared with another aggregate nor a window's, per AggStateIsShared),
 * a large filter is moved instead: copied piece by piece into the output
 * context, each copied piece of the state's filter given back to the
 * kernel at once, so the peak is the filter plus one piece.  The state is
 * spent afterwards (filter_state_check).  Otherwise the state's filter is
 * returned as is, and PostgreSQL copies it.
 */
#define MOVE_MIN ((Size) 4 * 1024 * 1024)
#define MOVE_PIECE ((Size) 512 * 1024)

static Bloom *
filter_state_take(FunctionCallInfo fcinfo, FilterState *st)
{
	Bloom	   *src = st->bloom;
	Size		size = VARSIZE(src);
	uintptr_t	page = (uintptr_t) sysconf(_SC_PAGESIZE);
	char	   *dst;
	Size		off;

	if (size < MOVE_MIN ||
		AggCheckCallContext(fcinfo, NULL) != AGG_CONTEXT_AGGREGATE ||
		AggStateIsShared(fcinfo))
		return src;
	dst = bloom_palloc_large(CurrentMemoryContext, size);
	st->bloom = NULL;
	for (off = 0; off < size; off += MOVE_PIECE)
	{
		Size		len = Min(MOVE_PIECE, size - off);

		memcpy(dst + off, (char *) src + off, len);
#ifdef MADV_DONTNEED
		bloom_madvise_inside((char *) src + off, len, page, MADV_DONTNEED);
#endif
	}
	pfree(src);
	return (Bloom *) dst;
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
		MemoryContext ctx = agg_context(fcinfo, "bloom_agg_sized_trans");
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
	MemoryContext ctx = agg_context(fcinfo, "bloom_agg_sized_combine");
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

	agg_context(fcinfo, "bloom_agg_sized_serialize");
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
	filter_state_check(st);
	filter_state_flush(st);
	PG_RETURN_BLOOM_P(filter_state_take(fcinfo, st));
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

	agg_context(fcinfo, "bloom_union_final");
	if (st == NULL)
		PG_RETURN_NULL();
	filter_state_check(st);
	PG_RETURN_BLOOM_P(filter_state_take(fcinfo, st));
}
