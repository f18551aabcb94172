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
 * the serialized value carries only a reference to it (HandoverRef).
 * Deserializing looks the reference up and removes it, so a hand-over is
 * taken once.  The combine function adopts the state (its context moves
 * under the combining aggregate context) or copies from it and frees it.
 * An unclaimed state goes with the query's memory, and its registry entry
 * with it (a reset callback).
 *
 * A serialized state must otherwise stand on its own: another process, or
 * another server (Citus ships the serialized states of its workers'
 * partial aggregates to the coordinator), may deserialize it.  So a state
 * is handed over only where PostgreSQL's own split aggregation serializes
 * it in a process that deserializes it too (bloom_handover_target), and a
 * reference names its process by id and by a random number drawn once per
 * process: a reference that reaches any other process, or that is stale or
 * forged, is an error, never another state or a dangling pointer.
 */
#include "postgres.h"

#include "access/parallel.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "bloom_agg_exact.h"

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

/* this process's random number, drawn at its first hand-over */
static uint64 handover_nonce = 0;
static bool handover_nonce_set = false;

/*
 * The memory context a state serialized by this call would be handed over
 * in (the query's), or NULL when the call must serialize the hashes.
 *
 * PostgreSQL calls a serialize function as such only from an Agg node
 * whose split mode serializes its output (DO_AGGSPLIT_SERIALIZE: a partial
 * aggregate; field and macro alike in PostgreSQL 15 to 18), and that node
 * feeds a Gather or an Append of the same plan, whose finalizing Agg
 * deserializes in the same process, unless this process is a parallel
 * worker.  Every other caller (an aggregate using the function as its
 * final function, a call outside an aggregate, a wrapper such as Citus's)
 * may send the bytes anywhere.
 */
MemoryContext
bloom_handover_target(FunctionCallInfo fcinfo)
{
	AggState   *aggstate;

	if (IsParallelWorker() || fcinfo->context == NULL || !IsA(fcinfo->context, AggState))
		return NULL;
	aggstate = (AggState *) fcinfo->context;
	if (!DO_AGGSPLIT_SERIALIZE(aggstate->aggsplit))
		return NULL;
	return aggstate->ss.ps.state->es_query_cxt;
}

static void
handover_forget(void *arg)
{
	HandoverCallback *hc = (HandoverCallback *) arg;

	if (handovers != NULL)
		(void) hash_search(handovers, &hc->id, HASH_REMOVE, NULL);
}

/*
 * Register st (spread: memory of its own) for hand-over, its memory moved
 * under query_cxt; sets the reference to it.  st is left an empty shell.
 */
void
bloom_handover_register(ExactState *st, MemoryContext query_cxt, HandoverRef *ref)
{
	ExactState *h;
	HandoverCallback *hc;
	HandoverEntry *e;

	if (!handover_nonce_set)
	{
		if (!pg_strong_random(&handover_nonce, sizeof(handover_nonce)))
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("could not generate a random number for a bloom_agg hand-over")));
		handover_nonce_set = true;
	}
	if (handovers == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(uint64);
		ctl.entrysize = sizeof(HandoverEntry);
		handovers = hash_create("bloom_agg hand-overs", 16, &ctl, HASH_ELEM | HASH_BLOBS);
	}
	h = MemoryContextAlloc(st->mcxt, sizeof(ExactState));
	hc = MemoryContextAlloc(st->mcxt, sizeof(HandoverCallback));
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

	ref->pid = (uint64) MyProcPid;
	ref->nonce = handover_nonce;
	ref->serial = hc->id;
}

/* Take a handed-over state (once); an error when there is none. */
ExactState *
bloom_handover_take(const HandoverRef *ref)
{
	HandoverEntry *e = NULL;

	if (!handover_nonce_set || ref->pid != (uint64) MyProcPid || ref->nonce != handover_nonce)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid bloom_agg state: handed over by another process")));
	/* a removed entry stays readable until the table's next use */
	if (handovers != NULL)
		e = (HandoverEntry *) hash_search(handovers, &ref->serial, HASH_REMOVE, NULL);
	if (e == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("invalid bloom_agg state: the state handed over is gone")));
	return e->st;
}
