/*
 * bloom_agg_exact.h - the state of bloom_agg's exact mode (bloom_agg_exact.c)
 * with its per-row insertion inline (bloom_exact_add, which calls out only
 * for a full bucket, bloom_exact_add_room), and the interface of the
 * hand-over registry (bloom_agg_handover.c).  Included by those two files
 * and by bloom_agg_exact_sql.c; the other aggregates need only bloom_agg.h.
 */
#ifndef BLOOM_AGG_EXACT_H
#define BLOOM_AGG_EXACT_H

#include "postgres.h"

#include "port/pg_bswap.h"

#include "bc_filter.h"
#include "bloom_agg.h"

/* ---------------------------------------------------------------------
 * Exact mode
 *
 * The state keeps the 128-bit murmur3 hash of every key, deduplicated as
 * it grows, so the final filter is sized for the number of distinct keys
 * exactly as Cassandra sizes the filter of a flushed SSTable.  Two keys
 * count as one only if their 128-bit hashes collide (then they also set
 * the same bits, so the filter bytes are unaffected; only the size could
 * be).
 *
 * The hashes are kept in EXACT_BUCKETS buckets chosen by the top bits of
 * h1 (uniform for any key set), 15 bytes each (the top byte of h1 is the
 * bucket's); a small state keeps them in one, 16 bytes each.  A bucket is
 * a list of fixed-size chunks of hashes, carved from large slabs: nothing
 * is ever copied to grow, the slabs are advised to use transparent huge
 * pages (first touches of fresh memory dominate the cost otherwise), and
 * no single allocation holds every key, so the state can grow past 1 GB.
 * A bucket is deduplicated in place with a transient hash table once its
 * unchecked tail has grown as large as its checked part (sooner while
 * duplicates keep turning up; a spread bucket's not before it holds
 * TAIL_MIN hashes), so memory follows the distinct keys.  Every
 * long step checks for interrupts between buckets.
 * --------------------------------------------------------------------- */
typedef struct KeyHash
{
	int64		h1;
	int64		h2;
} KeyHash;

/* bc_filter_add_hashes reads an array of KeyHash as h1, h2, h1, h2, ... */
StaticAssertDecl(sizeof(KeyHash) == 2 * sizeof(int64), "KeyHash is two int64");

/*
 * 256 buckets: the fewest whose number implies h1's top byte; so few that
 * their 256 tails, where the rows' hashes are written, stay in the L1 cache
 * (with 1,024, the writes missed it and stalled the scan).
 */
#define EXACT_BUCKET_BITS 8
#define EXACT_BUCKETS (1 << EXACT_BUCKET_BITS)
StaticAssertDecl(EXACT_BUCKET_BITS >= 8, "a bucket implies at least h1's top byte");
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

static inline uint64
rec_le64(uint64 v)
{
#ifdef WORDS_BIGENDIAN
	return pg_bswap64(v);
#else
	return v;
#endif
}

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

	/* a deserialized hand-over (bloom_agg_handover.c): the state handed over */
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

/* bloom_agg_exact.c */
extern BLOOM_INTERNAL ExactState *bloom_exact_new(MemoryContext ctx, double fp, bc_order order);
extern BLOOM_INTERNAL void bloom_exact_merge(ExactState *dst, const ExactState *src);
extern BLOOM_INTERNAL void bloom_exact_merge_serialized(ExactState *dst, const ExactState *src);
extern BLOOM_INTERNAL uint64 bloom_exact_compact_all(ExactState *st);
extern BLOOM_INTERNAL uint64 bloom_exact_count(const ExactState *st);
extern BLOOM_INTERNAL void bloom_exact_write(const ExactState *st, char *out);
extern BLOOM_INTERNAL void bloom_exact_fill(const ExactState *st, bc_filter *f);

extern BLOOM_INTERNAL HashBucket *bloom_exact_add_room(ExactState *st, HashBucket *b, int64 h1);

/*
 * Add one hash: the transition function's per-row path, inline; only a
 * full bucket calls out.
 */
static inline void
bloom_exact_add(ExactState *st, int64 h1, int64 h2)
{
	HashBucket *b = st->buckets ? &st->buckets[bucket_of(h1)] : &st->flat;

	if (unlikely(b->room == 0))
		b = bloom_exact_add_room(st, b, h1);
	rec_put(b, b->tail, h1, h2);
	b->tail += b->recsize;
	b->room--;
	b->n++;
}

static inline void
exact_check_usable(const ExactState *st)
{
	if (st->passed_on)
		elog(ERROR, "bloom_agg state used after it was handed over");
}

/*
 * bloom_agg_handover.c: what a hand-over's serialized value carries, the
 * process that made it (its id, and a random number drawn once per process
 * that no other process can guess) and the state's serial number there.
 */
typedef struct HandoverRef
{
	uint64		pid;
	uint64		nonce;
	uint64		serial;
} HandoverRef;

extern BLOOM_INTERNAL MemoryContext bloom_handover_target(FunctionCallInfo fcinfo);
extern BLOOM_INTERNAL void bloom_handover_register(ExactState *st, MemoryContext query_cxt,
												   HandoverRef *ref);
extern BLOOM_INTERNAL ExactState *bloom_handover_take(const HandoverRef *ref);

#endif							/* BLOOM_AGG_EXACT_H */
