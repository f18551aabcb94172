/*
 * bloom_each.h - the keys of an array probed in batches (bloom_each.c):
 * what bloom_contains_each and bloom_may_contain share.
 */
#ifndef BLOOM_EACH_H
#define BLOOM_EACH_H

#include "utils/array.h"

#include "bloomcass.h"

/*
 * Keys hashed and probed per batch: 16 bytes of hash each, on the stack,
 * and, for a stored filter probed by slices, hash_count probed bits each
 * (bloom_probe_stored_each); each TOAST chunk is fetched at most once per
 * batch.
 */
#define BLOOM_EACH_BATCH 1024

/* a call site's state: the element type's key serialization, the stored
 * filter state, the last filter detoasted whole */
typedef struct BloomEachCache BloomEachCache;

/* one call's walk over the elements of its keys, in storage order */
typedef struct BloomEachWalk
{
	FunctionCallInfo fcinfo;
	BloomEachCache *ec;
	struct BloomTypedKey *tk;	/* key_type given: the typed form */
	const bits8 *nulls;
	const char *p;				/* the next element's value */
	int			i;				/* the next element */
	int			nitems;
} BloomEachWalk;

/*
 * The walk over keys of a call whose argument 0 is the filter and argument
 * 2, if any and not NULL, the key_type (bloom_typed_key.c); the call
 * site's state kept in *cache (made in fn_mcxt when NULL).  An element
 * type @> does not take is its error (42804); a key_type that is no type
 * 22023.
 */
extern BLOOM_INTERNAL void bloom_each_begin(BloomEachWalk *w, FunctionCallInfo fcinfo,
											ArrayType *keys, BloomEachCache **cache);

/*
 * The next batch: up to BLOOM_EACH_BATCH non-NULL elements in storage
 * order, their values (pointing into keys) in values[] and whether the
 * filter may contain each in answers[] (0 or 1); the count, 0 at the end.
 * Interrupts are checked once per batch.
 */
extern BLOOM_INTERNAL int bloom_each_next(BloomEachWalk *w, Datum *values, uint8 *answers);

#endif							/* BLOOM_EACH_H */
