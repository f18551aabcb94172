/*
 * bloom_agg.h - what the aggregate files share, private to them: the
 * default fp_chance, the aggregate context of a call, and a final
 * function's large result moved out of its state.  The exact mode's state,
 * its per-row insertion and the hand-over registry are bloom_agg_exact.h's.
 *
 *   bloom_agg_exact.c      the exact mode's store of key hashes
 *   bloom_agg_handover.c   the hand-over of a state within one process
 *   bloom_agg_exact_sql.c  the exact bloom_agg's transition, combine,
 *                          serialize, deserialize and final functions
 *   bloom_agg_sized.c      the streaming bloom_agg and bloom_union_agg
 *   bloom_agg_testing.c    entry points for the regression tests only
 *
 * All the aggregates run as parallel partial aggregates: the states
 * serialize to bytea, combine, and the final result is byte-identical to a
 * serial run.
 */
#ifndef BLOOM_AGG_H
#define BLOOM_AGG_H

#include "postgres.h"

#include "fmgr.h"
#include "bloomcass.h"

#define DEFAULT_FP_CHANCE 0.01

/*
 * A final function's large result (4 MB or more) moved out of its state
 * into the output memory context, piece by piece, each copied piece of
 * src given back to the kernel at once, so the peak is the filter plus one
 * piece: when the state is this call's alone (an Agg node's, not shared,
 * per AggStateIsShared; not a window's).  NULL when it is not to be moved;
 * else the copy, and src is the caller's to free (its contents are gone).
 * bloom_agg_sized.c.
 */
extern BLOOM_INTERNAL Bloom *bloom_agg_move_result(FunctionCallInfo fcinfo, const Bloom *src);

/* The aggregate context of a call that must come from an aggregate. */
static inline MemoryContext
bloom_agg_context(FunctionCallInfo fcinfo, const char *fname)
{
	MemoryContext ctx;

	if (!AggCheckCallContext(fcinfo, &ctx))
		elog(ERROR, "%s called in non-aggregate context", fname);
	return ctx;
}

#endif							/* BLOOM_AGG_H */
