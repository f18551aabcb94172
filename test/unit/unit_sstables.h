/*
 * unit_sstables.h - what the Index.db and Summary.db suites (test_index.c,
 * test_summary.c) share: the entries of a whole Index.db, the SSTables
 * whose files are tried at every truncation, and which cuts of a file.
 */
#ifndef BLOOMCASS_UNIT_SSTABLES_H
#define BLOOMCASS_UNIT_SSTABLES_H

#include <stddef.h>

#include "bc_index.h"

/* The entries of a whole Index.db in memory (keys point into it), filled
 * by bc_index_parse with unit_collect_entry as its callback; e is
 * malloc'd. */
typedef struct unit_entries
{
	size_t		n;
	size_t		cap;
	bc_index_entry *e;
} unit_entries;

int			unit_collect_entry(const bc_index_entry *e, void *arg);

/*
 * 1 when the SSTable of this version, whose Index.db has index_len bytes,
 * is the one of its version whose Index.db and Summary.db are tried at
 * every truncation: the first of each version of UNIT_TRUNC_VERSIONS in the
 * manifest's order with an Index.db under 200,000 bytes.  done (empty at
 * first) keeps the versions taken.
 */
#define UNIT_TRUNC_VERSIONS "ic jb ka la lb ma mc md me na nc oa"
#define UNIT_TRUNC_DONE_SIZE 64
int			unit_truncation_sample(const char *version, size_t index_len,
								   char done[UNIT_TRUNC_DONE_SIZE]);

/*
 * Which prefixes of a file of len bytes to try: each one costs a parse of
 * the prefix, so trying all of a large file is quadratic (minutes under
 * AddressSanitizer).  Every cut in the first and last kilobyte, every cut
 * near_boundary (at or next to an entry boundary), and every 61st in
 * between.
 */
int			unit_cut_wanted(size_t cut, size_t len, int near_boundary);

#endif
