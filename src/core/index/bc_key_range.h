/*
 * bc_key_range.h - an SSTable's first and last partition keys read from
 * its files through a bc_reader (bc_key_range.c): the footer of a
 * trie-indexed Partitions.db, and Index.db walked in bounded pieces.  Used
 * by cassandra_sstables (src/bloom_sstable_read.c) and bloomcass-load
 * (src/client/components.c).
 */
#ifndef BC_KEY_RANGE_H
#define BC_KEY_RANGE_H

#include <stddef.h>
#include <stdint.h>

#include "bc_index.h"
#include "bc_index_samples.h"
#include "bc_partitions.h"
#include "bc_reader.h"
#include "bc_status.h"

/* the most bytes between a Partitions.db trie and its footer: two keys */
#define BC_PARTITIONS_MAX_KEYS ((size_t) 2 * (2 + BC_INDEX_MAX_KEY))

/*
 * The footer of a Partitions.db and the first and last keys before it
 * (bc_partitions_footer_parse, bc_partitions_keys_parse and
 * bc_partitions_keys_check).  keys is the caller's buffer of
 * BC_PARTITIONS_MAX_KEYS bytes; *first and *last point into it (both
 * empty when the footer counts no keys).  BC_ERR_READ when a read failed.
 */
bc_status	bc_partitions_range(const bc_reader *r, uint8_t *keys,
								bc_partitions_footer *footer,
								const uint8_t **first, size_t *first_len,
								const uint8_t **last, size_t *last_len);

/*
 * A walk of a whole Index.db, in pieces of the caller's buffer: the
 * entries' count and the first and last keys.  About 200 kB: allocate it.
 * Set by the caller before bc_index_walk_run: order, NULL or keys checked
 * in a partitioner's order (bc_index_set_order); samples, NULL or each
 * entry checked against Summary.db's samples (bc_index_samples_check), as
 * cassandra_sstable_keys reads Index.db.
 */
typedef struct bc_index_walk
{
	bc_key_order *order;
	bc_index_samples *samples;
	bc_index_cursor cursor;
	uint64_t	nkeys;
	size_t		first_len;
	size_t		last_len;
	uint8_t		first[BC_INDEX_MAX_KEY];
	uint8_t		last[BC_INDEX_MAX_KEY];
} bc_index_walk;

/*
 * Walk the Index.db r of an SSTable of the given version, reading it in
 * pieces of piece_len bytes into piece (bounded memory whatever its size):
 * fn (may be NULL) gets every entry, and stops the walk by returning
 * non-zero (BC_ERR_STOPPED).  BC_ERR_READ when a read failed; otherwise the
 * statuses of bc_index_init, bc_index_next, bc_index_samples_check and
 * bc_index_finish.
 */
bc_status	bc_index_walk_run(bc_index_walk *w, const bc_reader *r,
							  const char *version, size_t version_len,
							  uint8_t *piece, size_t piece_len,
							  int (*fn) (void *arg, const bc_index_entry *e), void *arg);

/*
 * The same walk, looking for one key: *found 1 when an entry holds it
 * (the walk stops there), 0 after the whole file read without error.
 * With w->order and w->samples set as cassandra_sstable_keys reads
 * Index.db, this answers for a lookup that cannot trust Summary.db
 * (bc_big_lookup's stats.summary_status): the keys it finds are the ones
 * listed, and it fails where the listing fails.
 */
bc_status	bc_index_walk_find(bc_index_walk *w, const bc_reader *r,
							   const char *version, size_t version_len,
							   uint8_t *piece, size_t piece_len,
							   const uint8_t *key, size_t key_len, int *found);

#endif							/* BC_KEY_RANGE_H */
