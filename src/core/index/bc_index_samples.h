/*
 * bc_index_samples.h - Summary.db's samples as checkpoints of a whole read
 * of Index.db (bc_index_samples.c), so that the keys a listing reads are
 * the keys a lookup finds.
 *
 * A lookup (bc_lookup.c) starts reading Index.db at the position of the
 * sample Summary.db gives for the key, when the sample's key is there; a
 * listing (bc_index.c's cursor) reads every entry from the start, each
 * one's length giving where the next one starts.  Both read the same
 * entries only when every position a lookup starts from is where an entry
 * of the listing starts.  An entry of the listing that runs over such a
 * position (a key length or promoted index size too large, which swallows
 * the entries behind it) is BC_ERR_INDEX_SAMPLE: without it the listing
 * lists a key made of the swallowed bytes, which a lookup answers absent,
 * and does not list the keys swallowed.  A sample whose key is not at its
 * position is not Summary.db's agreement with Index.db but a Summary.db
 * that is not Index.db's; a lookup reads Index.db from its start then
 * (with a WARNING), as the listing does, and it is passed over.
 *
 * Samples of ja and later (1.2's summary, whose samples a lookup does not
 * use, has none).  Memory is the caller's: a slot of 16 bytes per sample
 * (at most Summary.db's size / 12 samples), two windows over Summary.db,
 * and a lookup's scratch.
 */
#ifndef BC_INDEX_SAMPLES_H
#define BC_INDEX_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "bc_index.h"
#include "bc_lookup.h"
#include "bc_reader.h"
#include "bc_status.h"

typedef struct bc_index_sample
{
	uint64_t	position;		/* in Index.db */
	int32_t		sample;			/* its number in Summary.db */
} bc_index_sample;

/* Its layout is here only so that callers can allocate one: private. */
typedef struct bc_index_samples
{
	const bc_reader *summary;
	const bc_reader *index;
	bc_summary_layout layout;
	bc_index_era era;
	int			negative_is_none;
	bc_index_sample *slots;
	size_t		n;				/* samples, sorted by position */
	size_t		next;			/* the first not yet passed */
	uint8_t    *scratch;
	uint64_t	compared;		/* samples read against Index.db */
} bc_index_samples;

/*
 * The slots bc_index_samples_init needs for Summary.db summary (NULL: no
 * Summary.db) of an SSTable of this version: its count of samples when a
 * lookup reads its header, else 0 (nothing to check).  BC_ERR_READ when a
 * read failed; BC_OK otherwise.
 */
bc_status	bc_index_samples_count(const bc_reader *summary, const char *version,
								   size_t vlen, size_t *count);

/*
 * Read the positions of the samples into slots (nslots from
 * bc_index_samples_count; 0 gives a check that passes every entry) and
 * sort them.  window: 2 * BC_INDEX_SAMPLES_WINDOW bytes through which
 * Summary.db is read in pieces during the call; scratch
 * (BC_LOOKUP_SCRATCH bytes), the slots and the two readers live as long
 * as s.  A sample a lookup
 * cannot use (its bounds or position impossible) is left out.
 * BC_ERR_READ when a read failed.
 */
#define BC_INDEX_SAMPLES_WINDOW ((size_t) 65536)
bc_status	bc_index_samples_init(bc_index_samples *s, const bc_reader *summary,
								  const bc_reader *index, const char *version, size_t vlen,
								  bc_index_sample *slots, size_t nslots, uint8_t *window,
								  uint8_t *scratch);

/*
 * Entry e of a listing that reads Index.db from its start (the cursor's
 * entries, each in turn): BC_ERR_INDEX_SAMPLE when it runs over the
 * position of a sample whose key is there, BC_ERR_READ when a read
 * failed, else BC_OK.
 */
bc_status	bc_index_samples_check(bc_index_samples *s, const bc_index_entry *e);

#endif							/* BC_INDEX_SAMPLES_H */
