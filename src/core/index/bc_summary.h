/*
 * bc_summary.h - the Summary.db of a BIG SSTable (bc_summary.c;
 * Cassandra's IndexSummary): the sampled Index.db entries, then the first
 * and last partition keys (every version from ia; before ma more data
 * follows).
 */
#ifndef BC_SUMMARY_H
#define BC_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "bc_index.h"
#include "bc_status.h"

typedef struct bc_summary
{
	bc_index_era era;
	int32_t		min_index_interval;
	int32_t		count;			/* sampled entries */
	int32_t		sampling_level; /* 128 (full) before ka */
	int32_t		size_at_full_sampling;	/* count before ka */
	const uint8_t *first;
	size_t		first_len;
	const uint8_t *last;
	size_t		last_len;
	size_t		tail_len;		/* bytes after the last key (the segment
								 * boundaries before ma; ignored) */
	/* private to bc_summary.c */
	const uint8_t *data;
	size_t		entries;
	size_t		entries_len;
} bc_summary;

bc_status	bc_summary_parse(const char *version, size_t vlen,
							 const uint8_t *data, size_t len, bc_summary *s);

/* Sampled entry i: its key and the offset of its entry in Index.db (for
 * the core and its tests). */
bc_status	bc_summary_entry(const bc_summary *s, int32_t i, const uint8_t **key,
							 size_t *key_len, int64_t *index_offset);

#endif							/* BC_SUMMARY_H */
