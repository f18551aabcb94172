/*
 * bc_summary.c
 *
 * Summary.db of a BIG SSTable: every min_index_interval-th Index.db entry
 * (key and offset in Index.db), then the SSTable's first and last
 * partition keys.  Three layouts:
 *
 *   ia .. ic (1.2)  BE32 interval, BE32 count, count x (BE64 offset,
 *                   BE32 key length, key)
 *   ja, jb (2.0)    BE32 interval, BE32 count, BE64 size of the next region,
 *                   then that region: count LE32 offsets (from the start of
 *                   the region) and the entries they point at, each key
 *                   bytes followed by a LE64 Index.db offset
 *   ka and later    as 2.0 with BE32 sampling level and BE32 entry count at
 *                   full sampling after the region size
 *
 * The region is Cassandra's off-heap memory written as is, in the writing
 * machine's byte order: little-endian on every platform Cassandra runs on
 * in practice.  Then BE32 length + first key, BE32 length + last key.  Up
 * to 2.2 the file goes on with the segment boundaries of the memory
 * mapping; from 3.0 (ma) nothing more is written, and bytes after the
 * last key are ignored, as Cassandra's and ScyllaDB's readers do.
 *
 * The readers: Cassandra's IndexSummary.IndexSummarySerializer.deserialize
 * (2.0 - 5.0) with SSTableReader.loadSummary (the two keys, then before
 * 3.0 the segment boundaries), and ScyllaDB's sstables.cc, parse of
 * summary.  Cassandra rebuilds a summary it cannot read from Index.db;
 * bloomcass reports an error instead.  Each check below names the reader
 * check it mirrors, or why it is kept where the readers do not check.
 */
#include <string.h>

#include "bc_endian.h"
#include "bc_index.h"
#include "bc_status.h"
#include "bc_summary.h"

/* Cassandra's BASE_SAMPLING_LEVEL: a summary at full sampling */
#define FULL_SAMPLING 128

/* A BE32-length key at *pos: bounds-checked, at most BC_INDEX_MAX_KEY. */
static bc_status
read_key(const uint8_t *data, size_t len, size_t *pos,
		 const uint8_t **key, size_t *key_len)
{
	uint32_t	n;

	/* ByteBufferUtil.readWithLength: EOFException at the end */
	if (len - *pos < 4)
		return BC_ERR_SUMMARY_TRUNCATED;
	n = bc_get_be32(data + *pos);
	*pos += 4;
	/* the readers take any length (a negative one fails); a partition key
	 * is at most 65535 bytes (Index.db's BE16 length), so more is not a
	 * key */
	if (n > BC_INDEX_MAX_KEY)
		return BC_ERR_SUMMARY_FORMAT;
	if (len - *pos < n)
		return BC_ERR_SUMMARY_TRUNCATED;
	*key = data + *pos;
	*key_len = n;
	*pos += n;
	return BC_OK;
}

bc_status
bc_summary_parse(const char *version, size_t vlen,
				 const uint8_t *data, size_t len, bc_summary *s)
{
	bc_status	st;
	size_t		pos;
	int32_t		i;

	memset(s, 0, sizeof(*s));
	st = bc_index_era_lookup(version, vlen, &s->era);
	if (st != BC_OK)
		return st;
	if (len < 8)
		return BC_ERR_SUMMARY_TRUNCATED;	/* DataInputStream.readInt: EOF */
	s->data = data;
	s->min_index_interval = (int32_t) bc_get_be32(data);
	s->count = (int32_t) bc_get_be32(data + 4);

	/*
	 * Cassandra compares the interval with the table's min_index_interval
	 * (deserialize: "min_index_interval changed"), which TableParams keeps
	 * at 1 or more; bloomcass has no schema, so it refuses what no table
	 * can have.  A negative count fails Memory.allocate(offsetCount * 4)
	 * (ScyllaDB reads it unsigned and fails at end of file).
	 */
	if (s->min_index_interval < 1 || s->count < 0)
		return BC_ERR_SUMMARY_FORMAT;
	s->sampling_level = FULL_SAMPLING;
	s->size_at_full_sampling = s->count;
	pos = 8;

	if (s->era == BC_INDEX_ERA_12)
	{
		s->entries = pos;
		for (i = 0; i < s->count; i++)
		{
			const uint8_t *key;
			size_t		key_len;

			if (len - pos < 8)
				return BC_ERR_SUMMARY_TRUNCATED;
			/* the Index.db position: not checked (see below) */
			pos += 8;
			st = read_key(data, len, &pos, &key, &key_len);
			if (st != BC_OK)
				return st;
		}
		s->entries_len = pos - s->entries;
	}
	else
	{
		uint64_t	region;

		if (len - pos < 8)
			return BC_ERR_SUMMARY_TRUNCATED;
		region = bc_get_be64(data + pos);
		pos += 8;
		if (s->era != BC_INDEX_ERA_20)
		{
			if (len - pos < 8)
				return BC_ERR_SUMMARY_TRUNCATED;
			s->sampling_level = (int32_t) bc_get_be32(data + pos);
			s->size_at_full_sampling = (int32_t) bc_get_be32(data + pos + 4);
			pos += 8;

			/*
			 * The level is a fraction of BASE_SAMPLING_LEVEL (128;
			 * Downsampling): Cassandra refuses 0 (the effective interval
			 * 128 / level * min_index_interval exceeds any
			 * max_index_interval: "Rebuilding index summary") and never
			 * writes more than 128 or less than 1.  The entry count at
			 * full sampling is not checked by any reader (Cassandra keeps
			 * it for resampling only, ScyllaDB writes
			 * ceil(partitions / min_index_interval) - 1, from seal_summary: 0 for
			 * small SSTables, one less than Cassandra's otherwise): it is reported
			 * as stored.
			 */
			if (s->sampling_level < 1 || s->sampling_level > FULL_SAMPLING)
				return BC_ERR_SUMMARY_FORMAT;
		}

		/*
		 * Memory safety: the offsets, and at least a position per entry
		 * (Cassandra: Memory.allocate(offheapSize - offsets.size()) fails
		 * on a negative size; ScyllaDB reads count positions and then each
		 * entry's bytes); a region past the end fails both readers' copy
		 * (EOF).
		 */
		if (region < (uint64_t) s->count * 12)
			return BC_ERR_SUMMARY_FORMAT;
		if (region > len - pos)
			return BC_ERR_SUMMARY_TRUNCATED;
		s->entries = pos;
		s->entries_len = (size_t) region;
		for (i = 0; i < s->count; i++)
		{
			const uint8_t *r = data + pos;
			uint64_t	start = bc_get_le32(r + 4 * (size_t) i);
			uint64_t	end = i + 1 < s->count ?
				bc_get_le32(r + 4 * (size_t) i + 4) : region;

			/*
			 * Memory safety: each entry inside the region, after the
			 * offsets, at least its 8-byte position long.  Cassandra does
			 * not check the offsets (IndexSummary reads at them);
			 * ScyllaDB reads next - pos bytes per entry and fails at end
			 * of file.  A first entry after the offsets' end is accepted
			 * (both readers start at its offset); a key over 65535 bytes
			 * is not a partition key.
			 */
			if ((i == 0 && start < (uint64_t) s->count * 4) ||
				end > region || start > end || end - start < 8 ||
				end - start - 8 > BC_INDEX_MAX_KEY)
				return BC_ERR_SUMMARY_FORMAT;
			/*
			 * The entry's Index.db position (its last 8 bytes) is not
			 * checked: neither reader does, and bloomcass reports none.
			 */
		}
		pos += (size_t) region;
	}

	st = read_key(data, len, &pos, &s->first, &s->first_len);
	if (st != BC_OK)
		return st;
	st = read_key(data, len, &pos, &s->last, &s->last_len);
	if (st != BC_OK)
		return st;
	/* SSTableReader.loadSummary (3.0+) and ScyllaDB read nothing after the
	 * last key; before 3.0 the segment boundaries follow (read by
	 * Cassandra, never needed here) */
	s->tail_len = len - pos;
	return BC_OK;
}

bc_status
bc_summary_entry(const bc_summary *s, int32_t i, const uint8_t **key,
				 size_t *key_len, int64_t *index_offset)
{
	const uint8_t *r = s->data + s->entries;

	if (i < 0 || i >= s->count)
		return BC_ERR_BUFFER;
	if (s->era == BC_INDEX_ERA_12)
	{
		/* a list of variable-length entries: walk to the i-th (1.2 only) */
		size_t		pos = 0;
		int32_t		j;

		for (j = 0;; j++)
		{
			uint32_t	n = bc_get_be32(r + pos + 8);

			if (j == i)
			{
				*index_offset = (int64_t) bc_get_be64(r + pos);
				*key = r + pos + 12;
				*key_len = n;
				return BC_OK;
			}
			pos += 12 + (size_t) n;
		}
	}
	else
	{
		size_t		start = bc_get_le32(r + 4 * (size_t) i);
		size_t		end = i + 1 < s->count ?
			bc_get_le32(r + 4 * (size_t) i + 4) : s->entries_len;

		*key = r + start;
		*key_len = end - start - 8;
		*index_offset = (int64_t) bc_get_le64(r + end - 8);
		return BC_OK;
	}
}
