/*
 * bloom_agg_exact.c - the store of key hashes behind bloom_agg's exact
 * mode: buckets of fixed-size chunks carved from slabs, deduplication in
 * place, the move from one flat bucket to many, and the bulk operations
 * the SQL-callable functions build on (merge, count, write out, fill a
 * filter).  bloom_agg_exact.h describes the layout.
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/memutils.h"

#include "bc_filter.h"
#include "bloom_agg_exact.h"

#define LOW56 ((UINT64CONST(1) << 56) - 1)
#define SLAB_MIN ((Size) 16 * 1024)
#define SLAB_MAX ((Size) 32 * 1024 * 1024)
#define TAIL_MIN 4096			/* see bucket_make_room */

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

ExactState *
bloom_exact_new(MemoryContext ctx, double fp, bc_order order)
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
	/*
	 * Deduplicate once the unchecked tail is as large as the checked part,
	 * or a quarter of it while duplicates keep turning up; a spread bucket
	 * not before its tail holds TAIL_MIN hashes, which spares a state of
	 * distinct keys the passes over its small buckets (of 2,000,000 keys,
	 * 7,812 a bucket: one pass at 4,096 and the final one, instead of
	 * eight) at the cost of at most EXACT_BUCKETS * TAIL_MIN unchecked
	 * hashes (15 MB) beyond twice the distinct keys.
	 */
	if (tail > 0 && (b->recsize == REC_FULL || tail >= TAIL_MIN) &&
		(tail >= b->unique || (b->dups_seen && tail >= b->unique / 4)))
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

/*
 * A full bucket: make room (may spread the state); bloom_exact_add's call
 * out.  The one recursion of the glue (see BC_CQL_MAX_DEPTH's comment in
 * bc_cqltype.h): exact_spread adds the flat bucket's hashes back through
 * bloom_exact_add, which may call here again; but exact_spread gives the
 * state its buckets before it adds, and only a state without them spreads,
 * so it goes at most one level down.
 */
pg_noinline HashBucket *
bloom_exact_add_room(ExactState *st, HashBucket *b, int64 h1)
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

/* Call stmt on each run of a state's hashes, unpacked into buf, checking
 * for interrupts between buckets. */
#define FOREACH_STATE_RUN(st, buf, len, stmt) \
	do { \
		int			_b; \
		for (_b = 0; _b < EXACT_NBUCKETS(st); _b++) \
		{ \
			CHECK_FOR_INTERRUPTS(); \
			FOREACH_BUCKET_RUN(EXACT_BUCKET(st, _b), buf, len, stmt); \
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
		bloom_exact_add(st, src[i].h1, src[i].h2);
		if ((i & 0xfffff) == 0xfffff)
			CHECK_FOR_INTERRUPTS();
	}
}

/* Leave the flat layout: move the flat bucket's hashes into buckets.
 * Called once a state (bloom_exact_add_room, bloom_exact_merge_serialized),
 * never from within itself: see bloom_exact_add_room. */
static void
exact_spread(ExactState *st)
{
	HashBucket	flat = st->flat;
	KeyHash		buf[CHUNK_KEYS];
	int			i;

	Assert(st->buckets == NULL);
	check_stack_depth();

	/*
	 * From here on the state's memory is a context of its own (a child of
	 * the aggregate context, so accounted there), which can be handed over
	 * whole (bloom_agg_handover.c).  The flat chunks stay behind in the
	 * aggregate context (at most FLAT_MAX hashes), not reused.
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
uint64
bloom_exact_compact_all(ExactState *st)
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

/* The number of hashes held, duplicates not yet found included. */
uint64
bloom_exact_count(const ExactState *st)
{
	uint64		n = 0;
	int			i;

	for (i = 0; i < EXACT_NBUCKETS(st); i++)
		n += EXACT_BUCKET(st, i)->n;
	return n;
}

/* Append the hashes of another live state (its buckets are left as is). */
void
bloom_exact_merge(ExactState *dst, const ExactState *src)
{
	KeyHash		buf[CHUNK_KEYS];

	FOREACH_STATE_RUN(src, buf, len, exact_append(dst, buf, len));
}

/*
 * Append a deserialized (borrowed) state's hashes, through a small aligned
 * buffer.
 */
void
bloom_exact_merge_serialized(ExactState *dst, const ExactState *src)
{
	KeyHash		buf[256];
	uint64		done = 0;

	if (src->ser_n >= FLAT_MAX)
	{
		if (dst->buckets == NULL)
			exact_spread(dst);
		/* one large slab (huge pages) rather than many small ones */
		dst->slab_hint = src->ser_n * REC_PACKED +
			(Size) EXACT_BUCKETS * CHUNK_KEYS * REC_PACKED;
	}
	while (done < src->ser_n)
	{
		uint64		take = Min(src->ser_n - done, (uint64) lengthof(buf));

		memcpy(buf, src->ser + done * sizeof(KeyHash), take * sizeof(KeyHash));
		exact_append(dst, buf, take);
		done += take;
	}
	dst->slab_hint = 0;
}

/* Write every hash held as KeyHash pairs (bloom_exact_count of them, maybe
 * unaligned) at out. */
void
bloom_exact_write(const ExactState *st, char *out)
{
	KeyHash		buf[CHUNK_KEYS];

	FOREACH_STATE_RUN(st, buf, len,
					  {
						  memcpy(out, buf, len * sizeof(KeyHash));
						  out += len * sizeof(KeyHash);
					  });
}

/* Set the bits of every hash held in a filter. */
void
bloom_exact_fill(const ExactState *st, bc_filter *f)
{
	KeyHash		buf[CHUNK_KEYS];

	FOREACH_STATE_RUN(st, buf, len, bc_filter_add_hashes(f, (const int64_t *) buf, len));
}
