/*
 * bc_partitions.c
 *
 * The footer of a BTI SSTable's Partitions.db: the partition count and the
 * first and last partition keys, which BIG SSTables keep in Summary.db.
 *
 * Cassandra's PartitionIndexBuilder.complete()
 * (org.apache.cassandra.io.sstable.format.bti, read back by
 * PartitionIndex.load()) ends the file, after the trie's nodes, with:
 *
 *   keys_pos:  BE16 length + first key, BE16 length + last key
 *              (ByteBufferUtil.writeWithShortLength)
 *   then       BE64 keys_pos, BE64 key_count, BE64 root
 *              (the last PartitionIndex.FOOTER_LENGTH = 24 bytes)
 *
 * An empty index writes two zero lengths (writeShort(0) twice) and a count
 * of 0.  The root node is written by the trie writer's complete() before
 * keys_pos is taken, and even an empty trie has one, so root < keys_pos.
 * key_count is the trie writer's count of added keys, one per partition;
 * each has its own payload node of at least three bytes in the trie, so
 * key_count <= keys_pos.  ScyllaDB's ms and mt write the same footer
 * (sstables/trie/bti_partition_index_writer.cc, finish()), and none at all
 * for an SSTable without partitions.
 *
 * Distinct partitions have distinct key bytes: one partition means the
 * first key is the last, two or more that they differ.
 *
 * The readers: Cassandra's PartitionIndex.load (5.0: reads the footer at
 * dataLength() - FOOTER_LENGTH, seeks to keys_pos and reads the two keys
 * with ByteBufferUtil.readWithShortLength; nothing else is checked until
 * the trie is walked from root) and ScyllaDB's sstables/sstables.cc,
 * trie::read_bti_partitions_db_footer ("Partitions.db file is too small",
 * "Partitions.db malformed: trie_root=...", "keys_position=..."; the two
 * keys as disk_string<uint16_t>).  Each check below names the reader check
 * it mirrors, or says why it is kept where the readers do not check: a few
 * are kept because bloomcass reports the count and the two keys, and a
 * footer that contradicts itself would make one of them wrong.
 */
#include <string.h>

#include "bc_endian.h"
#include "bc_partitions.h"
#include "bc_status.h"

bc_status
bc_partitions_footer_parse(const uint8_t *tail, uint64_t file_len,
						   bc_partitions_footer *out)
{
	bc_partitions_footer f;
	uint64_t	body;

	memset(out, 0, sizeof(*out));
	/* ScyllaDB: "Partitions.db file is too small"; Cassandra reads the
	 * footer at a negative position (EOF / seek refused) */
	if (file_len < BC_PARTITIONS_FOOTER || tail == NULL)
		return BC_ERR_PARTITIONS_TRUNCATED;
	body = file_len - BC_PARTITIONS_FOOTER;
	f.keys_pos = bc_get_be64(tail);
	f.key_count = bc_get_be64(tail + 8);
	f.root = bc_get_be64(tail + 16);

	/*
	 * The readers refuse keys_pos at or past the end of the file
	 * (ScyllaDB: "Partitions.db malformed: keys_position"; Cassandra:
	 * RandomAccessReader.seek past the end, or EOF reading the keys).
	 * Kept stricter: both key lengths lie before the footer.  A key that
	 * ran into the footer would be read from the footer's own numbers; no
	 * writer puts one there (PartitionIndexBuilder.complete and ScyllaDB's
	 * bti_partition_index_writer write the keys, then the footer), and
	 * bloomcass reports the keys.
	 */
	if (f.keys_pos > body || body - f.keys_pos < 4)
		return BC_ERR_PARTITIONS_FORMAT;

	/*
	 * ScyllaDB refuses a root at or past the end of the file
	 * ("Partitions.db malformed: trie_root"); Cassandra reads the node
	 * there when it walks the trie.  Kept stricter, for bounds: the trie
	 * lies before the keys (its writer completes it before keys_pos is
	 * taken), and bc_trie.c reads nodes only inside it, never the keys'
	 * or the footer's bytes as a node.
	 */
	if (f.root >= f.keys_pos)
		return BC_ERR_PARTITIONS_FORMAT;

	/*
	 * Not a reader's rule (both keep the count as it is: PartitionIndex.
	 * keyCount, ScyllaDB's partition_count): each partition has its own
	 * payload node, at least a byte of the trie, so a count above keys_pos
	 * is no count of this trie.  Kept: bloomcass reports it as the
	 * partition count and bounds trie walks by it.
	 */
	if (f.key_count > f.keys_pos)
		return BC_ERR_PARTITIONS_FORMAT;
	*out = f;
	return BC_OK;
}

/* A BE16-length key at *pos, inside [0, len). */
static bc_status
read_key(const uint8_t *data, size_t len, size_t *pos,
		 const uint8_t **key, size_t *key_len)
{
	size_t		n;

	/* ByteBufferUtil.readWithShortLength, ScyllaDB's disk_string<uint16_t>:
	 * EOF; here the end of the keys' region, before the footer (above) */
	if (len - *pos < 2)
		return BC_ERR_PARTITIONS_TRUNCATED;
	n = ((size_t) data[*pos] << 8) | data[*pos + 1];
	*pos += 2;
	if (len - *pos < n)
		return BC_ERR_PARTITIONS_TRUNCATED;
	*key = data + *pos;
	*key_len = n;
	*pos += n;
	return BC_OK;
}

bc_status
bc_partitions_keys_parse(const uint8_t *data, size_t len,
						 const uint8_t **first, size_t *first_len,
						 const uint8_t **last, size_t *last_len)
{
	const uint8_t *f = NULL,
			   *l = NULL;
	size_t		fl = 0,
				ll = 0,
				pos = 0;
	bc_status	st;

	*first = *last = NULL;
	*first_len = *last_len = 0;
	if (data == NULL)
		len = 0;
	st = read_key(data, len, &pos, &f, &fl);
	if (st == BC_OK)
		st = read_key(data, len, &pos, &l, &ll);
	if (st != BC_OK)
		return st;
	/* bytes between the last key and the footer: both readers read the
	 * two keys and stop, so they are ignored (BC_ERR_PARTITIONS_TRAILING
	 * is no longer returned) */
	*first = f;
	*first_len = fl;
	*last = l;
	*last_len = ll;
	return BC_OK;
}

/*
 * Not a reader's rule: both keep the keys and the count as they are.
 * Kept because bloomcass reports all three: an empty index writes two
 * empty keys (PartitionIndexBuilder.complete: writeShort(0) twice;
 * ScyllaDB writes no Partitions.db at all), one partition is its own
 * first and last key, and two distinct partitions have distinct keys; a
 * footer that says otherwise is wrong about the count or the keys.
 */
bc_status
bc_partitions_keys_check(const bc_partitions_footer *f,
						 const uint8_t *first, size_t first_len,
						 const uint8_t *last, size_t last_len)
{
	int			same = first_len == last_len &&
		(first_len == 0 || memcmp(first, last, first_len) == 0);

	if (f->key_count == 0)
		return first_len == 0 && last_len == 0 ? BC_OK : BC_ERR_PARTITIONS_FORMAT;
	if (f->key_count == 1)
		return same ? BC_OK : BC_ERR_PARTITIONS_FORMAT;
	return same ? BC_ERR_PARTITIONS_FORMAT : BC_OK;
}

bc_status
bc_partitions_parse(const uint8_t *data, size_t len,
					bc_partitions_footer *footer,
					const uint8_t **first, size_t *first_len,
					const uint8_t **last, size_t *last_len)
{
	bc_partitions_footer f;
	bc_status	st;

	memset(footer, 0, sizeof(*footer));
	*first = *last = NULL;
	*first_len = *last_len = 0;
	if (len < BC_PARTITIONS_FOOTER)
		return BC_ERR_PARTITIONS_TRUNCATED;
	st = bc_partitions_footer_parse(data + len - BC_PARTITIONS_FOOTER, len, &f);
	if (st != BC_OK)
		return st;
	st = bc_partitions_keys_parse(data + f.keys_pos,
								  len - BC_PARTITIONS_FOOTER - (size_t) f.keys_pos,
								  first, first_len, last, last_len);
	if (st == BC_OK)
		st = bc_partitions_keys_check(&f, *first, *first_len, *last, *last_len);
	if (st != BC_OK)
	{
		*first = *last = NULL;
		*first_len = *last_len = 0;
		return st;
	}
	*footer = f;
	return BC_OK;
}
