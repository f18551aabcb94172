/*
 * bc_lookup.c - exact partition key lookups in a BIG SSTable.
 *
 * Cassandra finds a key the same way (BigTableReader.getPosition with
 * Operator.EQ): IndexSummary.binarySearch gives the last sampled key at or
 * before it, and Index.db is scanned from that sample's entry to the next
 * sample's, entries being in the partitioner's order (DecoratedKey
 * order).  A scan stops at the first entry past the key; each entry's
 * promoted (row) index is skipped by its size, never read.  So a lookup
 * reads O(log samples) small pieces of Summary.db and at most one sampling
 * interval of Index.db and one entry more, whatever the SSTable's size.
 * The sample a search lands on must be at its position in Index.db (else
 * Index.db is read from its start, with the reason in the stats), and the
 * keys scanned in order (else BC_ERR_INDEX_KEY_ORDER), so that a key
 * cassandra_sstable_keys lists is never answered "absent".
 *
 * Summary.db is searched in place (ja and later: its LE32 offsets give
 * each sample's key and Index.db position); 1.2's list of samples (ia ..
 * ic) has no offsets, so for those, as without Summary.db or for a
 * partitioner whose order is not known here (LocalPartitioner orders by
 * the key's type), Index.db is read from its start instead: still an exact
 * answer, at the cost of the whole file.
 *
 * The checks are bc_summary.c's and bc_index.c's, each named there with
 * the reader check it mirrors; what only a lookup needs says why below.
 */
#include <string.h>

#include "bc_endian.h"
#include "bc_index.h"
#include "bc_lookup.h"
#include "bc_partitioner.h"
#include "bc_private.h"

/* a read of exactly len bytes (fewer only at the end), counted */
static bc_status
read_at(const bc_reader *r, uint64_t off, uint8_t *buf, size_t len, size_t *got,
		uint64_t *reads, uint64_t *bytes)
{
	if (r->read(r->arg, off, buf, len, got) != 0)
		return BC_ERR_READ;
	(*reads)++;
	*bytes += *got;
	return BC_OK;
}

/*
 * The bounds of sample i of a ja+ Summary.db laid out as l says: its key
 * and position at [l->base + *start, l->base + *end).
 */
static bc_status
sample_bounds(const bc_reader *r, const bc_summary_layout *l, int32_t i,
			  uint64_t *start, uint64_t *end, bc_lookup_stats *stats)
{
	uint8_t		offs[8];
	size_t		want = i + 1 < l->count ? 8 : 4;
	size_t		got;
	bc_status	st;

	st = read_at(r, l->base + 4 * (uint64_t) i, offs, want, &got,
				 &stats->summary_reads, &stats->summary_bytes);
	if (st != BC_OK)
		return st;
	/* IndexSummary reads the offsets in memory; cut: the whole region was
	 * not there (IndexSummarySerializer.deserialize, EOF) */
	if (got != want)
		return BC_ERR_SUMMARY_TRUNCATED;
	/* the bounds bc_summary_parse checks for every sample (memory safety:
	 * each sample inside the region, its key at most 65535 bytes) */
	*start = bc_get_le32(offs);
	*end = i + 1 < l->count ? bc_get_le32(offs + 4) : l->region;
	if (*start < (uint64_t) l->count * 4 || *end > l->region || *start > *end ||
		*end - *start < 8 || *end - *start - 8 > BC_INDEX_MAX_KEY)
		return BC_ERR_SUMMARY_FORMAT;
	return BC_OK;
}

/*
 * bc_summary_parse does not check a sample's position (it reports none); a
 * lookup seeks Index.db to it: IndexSummary.getPosition is a long, and
 * Cassandra's seek refuses a negative one (RandomAccessReader.seek, "new
 * position should not be negative").  It is written in the machine's
 * order: little-endian.
 */
static bc_status
sample_position(const uint8_t *p, uint64_t *position)
{
	*position = bc_get_le64(p);
	return *position > (uint64_t) INT64_MAX ? BC_ERR_SUMMARY_FORMAT : BC_OK;
}

/* Sample i: its key (into buf) and Index.db position. */
static bc_status
summary_sample(const bc_reader *r, const bc_summary_layout *l, int32_t i, uint8_t *buf,
			   size_t *key_len, uint64_t *position, bc_lookup_stats *stats)
{
	uint64_t	start,
				end;
	size_t		got;
	bc_status	st;

	st = sample_bounds(r, l, i, &start, &end, stats);
	if (st != BC_OK)
		return st;
	st = read_at(r, l->base + start, buf, (size_t) (end - start), &got,
				 &stats->summary_reads, &stats->summary_bytes);
	if (st != BC_OK)
		return st;
	if (got != end - start)
		return BC_ERR_SUMMARY_TRUNCATED;
	*key_len = (size_t) (end - start - 8);
	return sample_position(buf + *key_len, position);
}

/* the header: its checks are the lookup's (IndexSummarySerializer) */
static bc_status
summary_layout(const bc_reader *r, bc_index_era era, bc_summary_layout *l,
			   bc_lookup_stats *stats)
{
	uint8_t		hdr[24];
	size_t		hlen = era == BC_INDEX_ERA_20 ? 16 : 24;
	size_t		got;
	bc_status	st;

	memset(l, 0, sizeof(*l));
	st = read_at(r, 0, hdr, hlen, &got, &stats->summary_reads, &stats->summary_bytes);
	if (st != BC_OK)
		return st;
	/* the header: DataInputStream.readInt / readLong, EOF */
	if (got != hlen)
		return BC_ERR_SUMMARY_TRUNCATED;
	/* IndexSummarySerializer.deserialize: the interval no table has, and
	 * the count it allocates by (bc_summary_parse) */
	if ((int32_t) bc_get_be32(hdr) < 1 || (int32_t) bc_get_be32(hdr + 4) < 0)
		return BC_ERR_SUMMARY_FORMAT;
	l->base = hlen;
	l->count = (int32_t) bc_get_be32(hdr + 4);
	l->region = bc_get_be64(hdr + 8);
	/* a region past the end fails both readers' copy (EOF); one too short
	 * for the offsets and a position per sample: memory safety (both as
	 * bc_summary_parse) */
	if (l->region > r->size - hlen)
		return BC_ERR_SUMMARY_TRUNCATED;
	if (l->region < (uint64_t) l->count * 12)
		return BC_ERR_SUMMARY_FORMAT;
	return BC_OK;
}

/*
 * The Index.db entry to scan from for key, from a binary search of
 * Summary.db (IndexSummary.binarySearch and
 * getScanPositionFromBinarySearchResult): the last sample at or before the
 * key, its key left in buf (*sample_len bytes) and its position in *from;
 * *absent when the key sorts before the first sample.
 */
static bc_status
summary_search(const bc_reader *r, bc_index_era era, bc_partitioner p, bc_md5_fn md5,
			   const uint8_t *key, size_t key_len, uint8_t *buf,
			   uint64_t *from, size_t *sample_len, int *absent, bc_lookup_stats *stats)
{
	bc_summary_layout l;
	size_t		sk_len;
	int32_t		lo,
				hi,
				found = -1;
	uint64_t	pos;
	bc_status	st;

	st = summary_layout(r, era, &l, stats);
	if (st != BC_OK)
		return st;
	lo = 0;
	hi = l.count - 1;
	while (lo <= hi)
	{
		int32_t		mid = lo + (hi - lo) / 2;
		int			c;

		st = summary_sample(r, &l, mid, buf, &sk_len, &pos, stats);
		if (st != BC_OK)
			return st;
		c = bc_decorated_cmp(p, md5, key, key_len, buf, sk_len);
		if (c == 0)
		{
			found = mid;
			break;
		}
		if (c > 0)
		{
			found = mid;
			lo = mid + 1;
		}
		else
			hi = mid - 1;
	}
	*absent = found < 0;
	if (found < 0)
		return BC_OK;
	return summary_sample(r, &l, found, buf, sample_len, from, stats);
}

/* one Index.db entry at off into buf: its key length, its size and the
 * Data.db position it gives */
static bc_status
index_entry(const bc_reader *r, bc_index_era era, int negative_is_none, uint64_t off,
			uint8_t *buf, size_t *klen, uint64_t *size, uint64_t *position,
			bc_lookup_stats *stats)
{
	size_t		got,
				n,
				want;
	uint64_t	promoted;
	const uint8_t *num;
	bc_status	st;

	/* BE16 key length, the key, and room for the two numbers; cut: the
	 * readers' EOF (as bc_index_finish) */
	st = read_at(r, off, buf, 2, &got, &stats->index_reads, &stats->index_bytes);
	if (st != BC_OK)
		return st;
	if (got != 2)
		return BC_ERR_INDEX_TRUNCATED;
	*klen = ((size_t) buf[0] << 8) | buf[1];
	want = *klen + 18;
	st = read_at(r, off + 2, buf, want, &got, &stats->index_reads, &stats->index_bytes);
	if (st != BC_OK)
		return st;
	if (got < *klen)
		return BC_ERR_INDEX_TRUNCATED;
	num = buf + *klen;
	n = got - *klen;
	if (era == BC_INDEX_ERA_30)
	{
		int			e1,
					e2;

		/* RowIndexEntry.Serializer: unsigned vints */
		if (n < 1 || n < (size_t) (1 + (e1 = bc_uvint_extra(num[0]))))
			return BC_ERR_INDEX_TRUNCATED;
		*position = bc_uvint_decode(num, e1);
		if (n < (size_t) (1 + e1) + 1 ||
			n < (size_t) (1 + e1) + (size_t) (1 + (e2 = bc_uvint_extra(num[1 + e1]))))
			return BC_ERR_INDEX_TRUNCATED;
		promoted = bc_uvint_decode(num + 1 + e1, e2);
		n = (size_t) (2 + e1 + e2);
	}
	else
	{
		if (n < 12)
			return BC_ERR_INDEX_TRUNCATED;
		*position = bc_get_be64(num);
		promoted = bc_get_be32(num + 8);
		n = 12;
	}

	/*
	 * The position and promoted size rules of bc_index.c; and a skip
	 * longer than the file, which the readers' skipBytesFully fails ("EOF
	 * after %d bytes out of %d").
	 */
	if (*position > (uint64_t) INT64_MAX)
		return BC_ERR_INDEX_LENGTH;
	if ((st = bc_index_promoted_size(era, negative_is_none, promoted, &promoted)) != BC_OK)
		return st;
	if (promoted > r->size)
		return BC_ERR_INDEX_LENGTH;
	*size = 2 + *klen + n + promoted;
	return BC_OK;
}

/*
 * Index.db's entries from from (an entry's offset) on, each key compared,
 * each promoted index skipped by its size, until the key or, in a known
 * order, the first key past it.  sample (sample_len bytes, in bufs[0]) is
 * the key Summary.db says is at from, or NULL from the start of the file.
 * to_end: read on past the key to the end of the file, every key checked
 * in order.  bufs: two entry buffers, the previous key kept in one for
 * the order.
 */
static bc_status
index_scan(const bc_reader *r, bc_index_era era, int negative_is_none,
		   bc_partitioner p, bc_md5_fn md5, int ordered,
		   const uint8_t *key, size_t key_len, uint64_t from,
		   const uint8_t *sample, size_t sample_len, int to_end, uint8_t *bufs[2],
		   int *found, bc_lookup_stats *stats)
{
	uint64_t	off = from;
	const uint8_t *prev = NULL;
	size_t		prev_len = 0;
	int			cur = 1;

	*found = 0;

	/*
	 * A sample's position past the end of Index.db, or not at an entry
	 * of the sample's key: Summary.db is not this Index.db's.  Cassandra
	 * would seek there and fail, or scan from the wrong entry and answer
	 * "absent" for a key it holds; the caller reads Index.db from its
	 * start instead, as for a Summary.db that cannot be read.
	 */
	if (sample != NULL && from >= r->size)
		return BC_ERR_SUMMARY_INDEX;
	while (off < r->size)
	{
		uint8_t    *buf = bufs[cur];
		size_t		klen;
		uint64_t	size,
					position;
		int			c;
		bc_status	st;

		st = index_entry(r, era, negative_is_none, off, buf, &klen, &size, &position, stats);
		if (st != BC_OK)
			return sample != NULL && prev == NULL && st != BC_ERR_READ ?
				BC_ERR_SUMMARY_INDEX : st;
		if (sample != NULL && prev == NULL &&
			(klen != sample_len || memcmp(buf, sample, klen) != 0))
			return BC_ERR_SUMMARY_INDEX;
		/* the first partition at the start of Data.db, as bc_index.c */
		if (off == 0 && position != 0)
			return BC_ERR_INDEX_FIRST_POSITION;
		stats->index_entries++;

		/*
		 * The keys in order, as cassandra_sstable_keys checks them
		 * (bc_index_set_order): a key before the one above it is a
		 * damaged Index.db, where stopping at the first key past the one
		 * sought could miss it.
		 */
		if (ordered && prev != NULL && bc_decorated_cmp(p, md5, prev, prev_len, buf, klen) > 0)
			return BC_ERR_INDEX_KEY_ORDER;
		c = bc_decorated_cmp(p, md5, buf, klen, key, key_len);
		if (c == 0)
		{
			*found = 1;
			return BC_OK;
		}
		if (ordered && c > 0 && !to_end)
			return BC_OK;		/* past the key: it is not there */
		prev = buf;
		prev_len = klen;
		cur = !cur;
		off += size;
	}
	return BC_OK;
}

bc_status
bc_big_lookup(const bc_reader *summary, const bc_reader *index,
			  const char *version, size_t version_len,
			  bc_partitioner p, bc_md5_fn md5,
			  const uint8_t *key, size_t key_len,
			  uint8_t *scratch, int *found, bc_lookup_stats *stats)
{
	bc_index_era era;
	bc_status	st;
	int			ordered = p != BC_PARTITIONER_OTHER &&
		!(p == BC_PARTITIONER_RANDOM && md5 == NULL);
	int			negative_is_none = bc_index_negative_size_is_none(version, version_len);
	uint8_t    *bufs[2];

	memset(stats, 0, sizeof(*stats));
	*found = 0;
	bufs[0] = scratch;
	bufs[1] = scratch + BC_LOOKUP_SCRATCH / 2;
	st = bc_index_era_lookup(version, version_len, &era);
	if (st != BC_OK)
		return st;
	if (key_len > BC_INDEX_MAX_KEY)
		return BC_OK;			/* Index.db cannot hold such a key */
	if (summary != NULL && ordered && era != BC_INDEX_ERA_12)
	{
		int			absent;
		uint64_t	from = 0;
		size_t		sample_len = 0;

		stats->bounded = 1;
		st = summary_search(summary, era, p, md5, key, key_len, bufs[0],
							&from, &sample_len, &absent, stats);

		/*
		 * The key before the first sample: Index.db's first entry, which
		 * a right Summary.db samples, answers; read, not taken from
		 * Summary.db, so that a damaged first sample cannot hide a key.
		 */
		if (st == BC_OK && absent)
			return index_scan(index, era, negative_is_none, p, md5, ordered, key, key_len,
							  0, NULL, 0, 0, bufs, found, stats);
		if (st == BC_OK)
		{
			/*
			 * From the sample on, up to the first key past the one sought,
			 * not only to the next sample (Cassandra scans the effective
			 * interval's number of entries, BigTableReader.getPosition):
			 * a damaged next sample cannot hide a key, and a right one
			 * costs one entry more at most.
			 */
			st = index_scan(index, era, negative_is_none, p, md5, ordered, key, key_len,
							from, bufs[0], sample_len, 0, bufs, found, stats);
			if (st != BC_ERR_SUMMARY_INDEX)
				return st;
		}
		if (st != BC_ERR_SUMMARY_TRUNCATED && st != BC_ERR_SUMMARY_FORMAT &&
			st != BC_ERR_SUMMARY_INDEX)
			return st;

		/*
		 * SSTableReader.loadSummary (IndexSummaryComponent.load in 5.0):
		 * a Summary.db that does not deserialize is "corrupted; delete it
		 * and fall back to creating a new summary" from Index.db; so
		 * Index.db alone answers, read from its start.  So too for one
		 * that does not match Index.db (above).  A damaged index may
		 * be damaged in Index.db too: an absent key is answered only
		 * after every key of Index.db was read in order, as
		 * cassandra_sstable_keys reads them.
		 */
		stats->summary_status = st;
		stats->bounded = 0;
		return index_scan(index, era, negative_is_none, p, md5, ordered, key, key_len,
						  0, NULL, 0, 1, bufs, found, stats);
	}
	return index_scan(index, era, negative_is_none, p, md5, ordered, key, key_len,
					  0, NULL, 0, 0, bufs, found, stats);
}

/* ---- Summary.db's samples against a whole read of Index.db ---------- */

bc_status
bc_lookup_summary_layout(const bc_reader *summary, bc_index_era era, bc_summary_layout *l)
{
	bc_lookup_stats stats;

	memset(&stats, 0, sizeof(stats));
	return summary_layout(summary, era, l, &stats);
}

bc_status
bc_lookup_sample_position(const bc_reader *summary, const bc_summary_layout *l, int32_t i,
						  uint64_t *position)
{
	bc_lookup_stats stats;
	uint64_t	start,
				end;
	uint8_t		buf[8];
	size_t		got;
	bc_status	st;

	memset(&stats, 0, sizeof(stats));
	*position = 0;
	st = sample_bounds(summary, l, i, &start, &end, &stats);
	if (st != BC_OK)
		return st;
	st = read_at(summary, l->base + end - 8, buf, 8, &got, &stats.summary_reads,
				 &stats.summary_bytes);
	if (st != BC_OK)
		return st;
	if (got != 8)
		return BC_ERR_SUMMARY_TRUNCATED;
	return sample_position(buf, position);
}

bc_status
bc_lookup_sample_at(const bc_reader *summary, const bc_reader *index,
					const bc_summary_layout *l, bc_index_era era, int negative_is_none,
					int32_t i, uint8_t *scratch, int *at)
{
	bc_lookup_stats stats;
	uint8_t    *sample = scratch,
			   *buf = scratch + BC_LOOKUP_SCRATCH / 2;
	size_t		sample_len,
				klen;
	uint64_t	from,
				size,
				position;
	bc_status	st;

	memset(&stats, 0, sizeof(stats));
	*at = 0;
	st = summary_sample(summary, l, i, sample, &sample_len, &from, &stats);
	if (st == BC_ERR_READ)
		return st;
	/* the tests of index_scan before it scans from a sample */
	if (st != BC_OK || from >= index->size)
		return BC_OK;
	st = index_entry(index, era, negative_is_none, from, buf, &klen, &size, &position, &stats);
	if (st == BC_ERR_READ)
		return st;
	*at = st == BC_OK && klen == sample_len && memcmp(buf, sample, klen) == 0;
	return BC_OK;
}
