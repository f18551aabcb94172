/*
 * bc_partition_sizes.h - every partition's position and size in the
 * uncompressed Data.db (bc_partition_sizes.c), from the keys and positions
 * an index walk gives in order (Index.db: bc_index.h; Partitions.db and
 * Rows.db: bc_trie_keys.h).
 *
 * A partition's size is the distance from its position to the next
 * partition's, the last one's to the end of the uncompressed data
 * (CompressionInfo.db's data length, or Data.db's size when it is not
 * compressed): what the writers record in Statistics.db's partition size
 * histogram (Cassandra's SortedTableWriter / BigTableWriter: the data
 * file's position after the partition minus its start;
 * MetadataCollector.addPartitionSizeInBytes), and what Cassandra's
 * verifier computes from the index (Verifier / SortedTableVerifier:
 * nextRowPositionFromIndex - currentRowPositionFromIndex, the last one to
 * dataFile.length()).
 *
 * So a partition is returned one step late: bc_partition_sizes_add gives
 * the previous one, bc_partition_sizes_end the last.  Memory: this
 * structure (two keys), whatever the SSTable's size.
 */
#ifndef BC_PARTITION_SIZES_H
#define BC_PARTITION_SIZES_H

#include <stddef.h>
#include <stdint.h>

#include "bc_status.h"

/* the longest partition key: a 16-bit length */
#define BC_PARTITION_KEY_MAX 65535

typedef struct bc_partition
{
	const uint8_t *key;			/* valid until the next call */
	size_t		key_len;
	uint64_t	position;		/* in the uncompressed Data.db */
	uint64_t	size;			/* bytes to the next partition or the end */
} bc_partition;

typedef struct bc_partition_sizes
{
	uint64_t	data_length;
	uint64_t	count;			/* partitions added */
	uint64_t	position;		/* of the pending partition */
	size_t		key_len;
	int			cur;			/* key[cur] is the pending partition's */
	uint8_t		key[2][BC_PARTITION_KEY_MAX];
} bc_partition_sizes;

/* data_length: the uncompressed Data.db's length */
void		bc_partition_sizes_init(bc_partition_sizes *z, uint64_t data_length);

/*
 * The next partition in the index's order: *got = 1 and *out the previous
 * one with its size, *got = 0 for the first.  BC_ERR_PARTITION_POSITION
 * for a position before the previous one's or past the data's end,
 * BC_ERR_KEY_TOO_LONG for a key over BC_PARTITION_KEY_MAX bytes.
 */
bc_status	bc_partition_sizes_add(bc_partition_sizes *z, const uint8_t *key, size_t len,
								   uint64_t position, bc_partition *out, int *got);

/* At the end of the index: *got = 1 and *out the last partition, sized to
 * the data's end; *got = 0 when there was none. */
void		bc_partition_sizes_end(bc_partition_sizes *z, bc_partition *out, int *got);

/*
 * For a reader that keeps going where the positions pass the data's end
 * (bloomcass-load): from now on the end is unknown, positions are checked
 * only to increase, and the last partition's size is unknown too (the
 * caller, which called this, stores none).
 */
void		bc_partition_sizes_unknown_end(bc_partition_sizes *z);

#endif							/* BC_PARTITION_SIZES_H */
