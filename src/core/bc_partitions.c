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
	if (file_len < BC_PARTITIONS_FOOTER || tail == NULL)
		return BC_ERR_PARTITIONS_TRUNCATED;
	body = file_len - BC_PARTITIONS_FOOTER;
	f.keys_pos = bc_get_be64(tail);
	f.key_count = bc_get_be64(tail + 8);
	f.root = bc_get_be64(tail + 16);
	/* the two key lengths at least lie between keys_pos and the footer */
	if (f.keys_pos > body || body - f.keys_pos < 4)
		return BC_ERR_PARTITIONS_FORMAT;
	/* the trie, with its root, lies before the keys */
	if (f.root >= f.keys_pos)
		return BC_ERR_PARTITIONS_FORMAT;
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
	if (pos != len)
		return BC_ERR_PARTITIONS_TRAILING;
	*first = f;
	*first_len = fl;
	*last = l;
	*last_len = ll;
	return BC_OK;
}

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
