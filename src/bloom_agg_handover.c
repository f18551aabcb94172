/*
 * bloom_agg_handover.c - the hand-over of an exact bloom_agg state within
 * one process.
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
 */
#include "postgres.h"

#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "bloom_agg.h"

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
uint64
bloom_handover_register(ExactState *st, MemoryContext query_cxt)
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
ExactState *
bloom_handover_take(uint64 id)
{
	HandoverEntry *e;

	if (handovers == NULL)
		return NULL;
	/* a removed entry stays readable until the table's next use */
	e = (HandoverEntry *) hash_search(handovers, &id, HASH_REMOVE, NULL);
	return e ? e->st : NULL;
}
