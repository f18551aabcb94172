/*
 * bloom_probe.h - probing stored filters from slices (bloom_probe.c).
 */
#ifndef BLOOM_PROBE_H
#define BLOOM_PROBE_H

#include "bc_filter.h"
#include "bloomcass.h"

/* the per-call-site state of bloom_contains for stored filters */
typedef struct BloomProbe BloomProbe;

extern BLOOM_INTERNAL BloomProbe *bloom_probe_create(MemoryContext mcxt);

/* true for a filter stored out of line uncompressed; *ptr set */
extern BLOOM_INTERNAL bool bloom_probe_slicable(Datum d, struct varatt_external *ptr);

/*
 * Probe the stored filter d (bloom_probe_slicable) for (h1, h2): NULL with
 * *answer set when it was answered from slices, else the filter read whole
 * (kept by p; the caller probes it in memory).
 */
extern BLOOM_INTERNAL Bloom *bloom_probe_stored(BloomProbe *p, Datum d,
												const struct varatt_external *ptr,
												int64 h1, int64 h2, bool *answer);

/*
 * The same for n hashes (h[2*i] = h1, h[2*i+1] = h2) at once: NULL with
 * answers[i] set (0 or 1) when answered from slices, each TOAST chunk
 * holding a probed bit fetched once for the batch; else the filter read
 * whole, as bloom_probe_stored decides (the batch's chunks counted as
 * its slice fetches would be).  n * hash_count bits of scratch memory.
 */
extern BLOOM_INTERNAL Bloom *bloom_probe_stored_each(BloomProbe *p, Datum d,
													 const struct varatt_external *ptr,
													 const int64 *h, int n, uint8 *answers);

/* The header of a filter stored out of line (compressed or not) from a
 * slice; false for any other representation or a malformed header. */
extern BLOOM_INTERNAL bool bloom_probe_header(Datum d, int32 *hash_count, int64 *word_count,
											  bc_order *order);

#endif							/* BLOOM_PROBE_H */
