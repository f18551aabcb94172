/*
 * bc_partitions.h - the footer of a BTI SSTable's Partitions.db
 * (bc_partitions.c; PartitionIndexBuilder.complete, PartitionIndex.load).
 *
 * BTI SSTables (Cassandra's da, DataStax's bb, ScyllaDB's ms and mt) have
 * no Index.db or Summary.db; Partitions.db, a trie of the partition keys,
 * ends with the first and last keys (BE16 length + bytes each) at
 * keys_pos, then BE64 keys_pos, BE64 key_count, BE64 root.  An empty
 * index (key_count 0) has two empty keys.
 */
#ifndef BC_PARTITIONS_H
#define BC_PARTITIONS_H

#include <stddef.h>
#include <stdint.h>

#include "bc_status.h"

#define BC_PARTITIONS_FOOTER 24
typedef struct bc_partitions_footer
{
	uint64_t	keys_pos;		/* offset of the first and last keys */
	uint64_t	key_count;		/* partitions */
	uint64_t	root;			/* offset of the trie's root node */
} bc_partitions_footer;

/* tail = the last BC_PARTITIONS_FOOTER bytes of a file of file_len bytes
 * (tail may be NULL when file_len < BC_PARTITIONS_FOOTER); *out is zeroed
 * unless BC_OK is returned. */
bc_status	bc_partitions_footer_parse(const uint8_t *tail, uint64_t file_len, bc_partitions_footer *out);

/* data = bytes [keys_pos, file_len - BC_PARTITIONS_FOOTER) of the file, or
 * at least their first 2 * (2 + 65535): the two keys (bytes after them are
 * ignored); pointers into data */
bc_status	bc_partitions_keys_parse(const uint8_t *data, size_t len, const uint8_t **first, size_t *first_len, const uint8_t **last, size_t *last_len);

/* The keys against the footer's count: none gives two empty keys, one
 * partition the same key twice, more two different keys. */
bc_status	bc_partitions_keys_check(const bc_partitions_footer *f,
									 const uint8_t *first, size_t first_len,
									 const uint8_t *last, size_t last_len);

/* A whole Partitions.db in memory: the three steps above (for the core and
 * its tests; the extension and bloomcass-load read the footer first). */
bc_status	bc_partitions_parse(const uint8_t *data, size_t len,
								bc_partitions_footer *footer,
								const uint8_t **first, size_t *first_len,
								const uint8_t **last, size_t *last_len);

#endif							/* BC_PARTITIONS_H */
