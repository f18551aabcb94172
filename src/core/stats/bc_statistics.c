/*
 * bc_statistics.c
 *
 * Reader of an SSTable's Statistics.db component: the partitioner, the
 * bloom filter's fp_chance, the partition count (total of the estimated
 * partition size histogram) and, from Cassandra 3.0 on, the partition key
 * type of the serialization header.  This file holds the versions, the
 * table of contents and its checksums; the fields of each component are
 * read by bc_statistics_fields.c.
 *
 * Three layouts exist:
 *
 *   - ia .. jb (Cassandra 1.2, 2.0): one record, SSTableMetadata, with the
 *     partitioner inside it;
 *   - ka .. me (2.1 - 3.11, ScyllaDB's ms / mt): a table of contents (BE32
 *     count, then BE32 type and BE32 offset per component; Cassandra sorts
 *     it by type, older ScyllaDB releases did not: parse_toc), then the
 *     components: 0 validation (partitioner, fp_chance), 1 compaction,
 *     2 stats, 3 serialization header (ma and later);
 *   - na and later, BTI (da) and DataStax's aa .. cc: the same with CRC32s: one
 *     after the count, one (continuing the first) after the table, and one
 *     after each component, over that component's bytes.
 *
 * Everything is big-endian, as Java's DataOutput writes it.  Every field is
 * read through a cursor that refuses to go past the end of its component;
 * each component ends at the next higher offset (or the end of the file).
 */
#include <string.h>

#include <zlib.h>

#include "bc_codec.h"
#include "bc_endian.h"
#include "bc_statistics.h"
#include "bc_statistics_fields.h"
#include "bc_status.h"

/* the versions read, their layouts, and whether ScyllaDB reads them too
 * (sstables/version.hh: ka, la, mc, md, me, ms, mt) */
static const bc_stats_version stats_versions[] = {
	{"ia", BC_SK_LEGACY_12, 0}, {"ib", BC_SK_LEGACY_12, 0}, {"ic", BC_SK_LEGACY_12, 0},
	{"ja", BC_SK_LEGACY_20, 0}, {"jb", BC_SK_LEGACY_20, 0},
	{"ka", BC_SK_TOC, 1}, {"la", BC_SK_TOC, 1}, {"lb", BC_SK_TOC, 0},
	{"ma", BC_SK_TOC_HEADER, 0}, {"mb", BC_SK_TOC_HEADER, 0}, {"mc", BC_SK_TOC_HEADER, 1},
	{"md", BC_SK_TOC_HEADER, 1}, {"me", BC_SK_TOC_HEADER, 1},
	/* ScyllaDB's own versions keep the me layout of this component */
	{"ms", BC_SK_TOC_HEADER, 1}, {"mt", BC_SK_TOC_HEADER, 1},
	{"na", BC_SK_TOC_CRC, 0}, {"nb", BC_SK_TOC_CRC, 0}, {"nc", BC_SK_TOC_CRC, 0},
	{"oa", BC_SK_TOC_CRC, 0}, {"da", BC_SK_TOC_CRC, 0}, {"bb", BC_SK_TOC_CRC, 0},

	/*
	 * DataStax's other trie-indexed versions (driftx/ds-cassandra at
	 * 5ea584d384f18ca75f3e1dd3c9c3d7237848392b): TrieIndexVersion's
	 * hasMetadataChecksum is true for every one of them, so
	 * MetadataSerializer reads the checksummed table of contents; the four
	 * MetadataType components are Apache's, and the fields read here are
	 * read alike at every version: ValidationMetadata.serializer
	 * (partitioner, fp_chance), the leading partition size histogram of
	 * StatsMetadata.serializer (the DSE-only fields, hasMaxColumnValueLengths,
	 * hasZeroCopyMetadata, hasIncrementalNodeSyncMetadata..., come after
	 * it) and SerializationHeader.Serializer (no version test at all).
	 */
	{"aa", BC_SK_TOC_CRC, 0}, {"ac", BC_SK_TOC_CRC, 0}, {"ad", BC_SK_TOC_CRC, 0},
	{"ba", BC_SK_TOC_CRC, 0}, {"ca", BC_SK_TOC_CRC, 0}, {"cb", BC_SK_TOC_CRC, 0},
	{"cc", BC_SK_TOC_CRC, 0},

	/*
	 * Cassandra 6.0 (trunk's BigVersion, BtiVersion): pa and ea keep oa's
	 * and da's Statistics.db.  pb and eb add mutation-tracking metadata
	 * (hasMutationTrackingMetadata, version >= "pb"): the coordinator log
	 * offsets, written inside the stats component (MetadataType keeps its
	 * four types).  Of that component only its first field is read, the
	 * partition size histogram, which StatsMetadata's serializer writes
	 * first in every version; the rest of it, the new offsets included, is
	 * bounded by the table of contents and its CRC32 and not parsed (the
	 * offsets' serializer, ImmutableCoordinatorLogOffsets, has changed
	 * within trunk: its layout is not settled).  A table of contents with a
	 * fifth type stays refused.
	 */
	{"pa", BC_SK_TOC_CRC, 0}, {"pb", BC_SK_TOC_CRC, 0},
	{"ea", BC_SK_TOC_CRC, 0}, {"eb", BC_SK_TOC_CRC, 0},
};

/*
 * CRC-32 as java.util.zip.CRC32 computes it (reflected, polynomial
 * 0xEDB88320): zlib's crc32, which that class calls, and which bloomcass
 * links already for Data.db's chunks (bc_compression_chunk.c).  The table of four
 * bits at a time this replaces ran at about 230 MB/s, zlib's at 4 GB/s (7%
 * of cassandra_sstables' time went to it on a node of 10,000 SSTables).
 * zlib counts in uInt: pieces of at most 1 GB.
 */
static uint32_t
crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
	uLong		c = crc;

	while (n > 0)
	{
		uInt		piece = n > ((size_t) 1 << 30) ? (uInt) 1 << 30 : (uInt) n;

		c = crc32(c, p, piece);
		p += piece;
		n -= piece;
	}
	return (uint32_t) c;
}

/*
 * The table of contents and the components it points at.
 *
 * Cassandra writes the entries sorted by type and the components back to
 * back in that order, right after the table (MetadataSerializer.serialize);
 * so does ScyllaDB today (sstables.cc, populate_statistics_offsets), but
 * older releases wrote the components in type order and listed the
 * entries in hash-map order (e.g. types 3, 2, 0, 1 at ascending types'
 * offsets; scylladb issue 3937, found in its test/resource SSTables of
 * ka, la and mc).  The readers differ:
 *
 *   - Cassandra 2.1 - 3.x (MetadataSerializer.deserialize) read the table
 *     into a map and seek to each component's offset;
 *   - ScyllaDB (sstables.cc, parse of statistics) sorts the entries by type
 *     and seeks to each offset;
 *   - Cassandra 4.0 and later (MetadataSerializer.deserialize, the only
 *     reader of the checksummed layout) read the components one after the
 *     other in table order, each offsets[i + 1] - offsets[i] bytes long
 *     (the last up to the end of the file), its last four bytes a CRC32 of
 *     the rest: an entry whose offset is below its predecessor's gives a
 *     negative length, an exception.
 *
 * So without CRC32s (ka .. me, ms, mt) the entries may come in any order
 * and the first component may start after the table; with them the offsets
 * must ascend in table order (any type order) from the end of the table,
 * as the CRC32s are only defined then.  Either way each component is
 * bounded by the next higher offset (or the end of the file), so no read
 * leaves its component, and no two components share a byte.
 */
static bc_status
parse_toc(const uint8_t *data, size_t len, const bc_stats_version *sv,
		  bc_statistics *out)
{
	int			crc = sv->kind == BC_SK_TOC_CRC;
	uint32_t	ntypes = sv->kind == BC_SK_TOC ? 3 : 4;
	uint32_t	count,
				i,
				j,
				types[4],
				offsets[4],
				order[4] = {0, 0, 0, 0};
	size_t		toc_end;
	int			seen[4] = {0, 0, 0, 0};

	if (len < 4)
		return BC_ERR_STATS_TRUNCATED;
	count = bc_get_be32(data);

	/*
	 * Every type at most once, so at most ntypes entries.  Cassandra's
	 * readers fail on no entry (4.0+: lengths[count - 1]; 3.x: no stats)
	 * and on a type beyond MetadataType.values() (2.1 and 2.2 have three);
	 * ScyllaDB refuses a serialization header before mc and an unknown
	 * type ("Invalid metadata type at Statistics file").  A repeated type
	 * is refused although the readers' maps keep the last one: no writer
	 * repeats one, and its bytes would be read twice.
	 */
	if (count < 1 || count > ntypes)
		return BC_ERR_STATS_TOC;
	toc_end = 4 + 8 * (size_t) count + (crc ? 8 : 0);
	if (len < toc_end)
		return BC_ERR_STATS_TRUNCATED;
	if (crc)
	{
		/* Cassandra 4.0+ (maybeValidateChecksum): the first CRC over the
		 * count, the second continues over the table as it is stored */
		uint32_t	c1 = crc32_update(0, data, 4);

		if (bc_get_be32(data + 4) != c1 ||
			bc_get_be32(data + 8 + 8 * count) !=
			crc32_update(c1, data + 8, 8 * (size_t) count))
			return BC_ERR_STATS_CHECKSUM;
	}
	for (i = 0; i < count; i++)
	{
		const uint8_t *e = data + 4 + (crc ? 4 : 0) + 8 * i;

		types[i] = bc_get_be32(e);
		offsets[i] = bc_get_be32(e + 4);
		if (types[i] >= ntypes || seen[types[i]])
			return BC_ERR_STATS_TOC;
		seen[types[i]] = 1;
		/* checksummed: Cassandra 4.0+ reads them in table order */
		if (crc && (i == 0 ? offsets[i] != toc_end : offsets[i] <= offsets[i - 1]))
			return BC_ERR_STATS_TOC;
	}

	/* the entries by offset (at most four: insertion sort) */
	for (i = 0; i < count; i++)
	{
		for (j = i; j > 0 && offsets[order[j - 1]] > offsets[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}

	/*
	 * A component inside the table, or two at one offset, would read bytes
	 * that are not (only) its own: no writer does that, and what it would
	 * give is not the component's value.  An offset past the end is a
	 * truncated file (the readers fail at end of file).
	 */
	if (offsets[order[0]] < toc_end)
		return BC_ERR_STATS_TOC;
	for (i = 1; i < count; i++)
		if (offsets[order[i]] == offsets[order[i - 1]])
			return BC_ERR_STATS_TOC;
	if (offsets[order[count - 1]] > len)
		return BC_ERR_STATS_TRUNCATED;

	for (i = 0; i < count; i++)
	{
		uint32_t	k = order[i];
		size_t		start = offsets[k],
					stop = i + 1 < count ? offsets[order[i + 1]] : len;
		bc_stats_cursor c;
		bc_status	st = BC_OK;

		if (crc)
		{
			/* Cassandra 4.0+: a CRC32 of the component after it */
			if (stop - start < 4)
				return BC_ERR_STATS_TRUNCATED;
			stop -= 4;
			if (bc_get_be32(data + stop) != crc32_update(0, data + start, stop - start))
				return BC_ERR_STATS_CHECKSUM;
		}
		c.p = data + start;
		c.end = data + stop;
		switch (types[k])
		{
			case BC_MT_VALIDATION:
				st = bc_stats_parse_validation(&c, out);
				out->tail[BC_MT_VALIDATION] = (int64_t) (c.end - c.p);
				break;
			case BC_MT_STATS:
				st = bc_stats_parse_stats(&c, sv, out);
				break;
			case BC_MT_HEADER:
				st = bc_stats_parse_header(&c, sv, out);
				break;
			default:
				/* ancestors and the cardinality estimator, bounded
				 * (CompactionMetadataSerializer; ScyllaDB's
				 * compaction_metadata) */
				st = bc_stats_parse_compaction(&c, sv, out);
				break;
		}
		if (st != BC_OK)
			return st;
	}

	/*
	 * Cassandra's SSTableReader needs the stats (and from 3.0, storeRows,
	 * the header: "assert header != null"); ScyllaDB's sstable::load does
	 * too (stats and serialization header for mc+).  Validation is what
	 * gives the partitioner and fp_chance that bloomcass reports; every
	 * writer writes it, so a file without it is refused.
	 */
	if (!seen[BC_MT_VALIDATION] || !seen[BC_MT_STATS] ||
		(sv->kind != BC_SK_TOC && !seen[BC_MT_HEADER]))
		return BC_ERR_STATS_MISSING;
	out->checksummed = crc;
	return BC_OK;
}

bc_status
bc_statistics_parse(const uint8_t *data, size_t len,
					const char *version, size_t version_len,
					bc_statistics *out)
{
	const bc_stats_version *sv = NULL;
	bc_statistics res;
	bc_status	st;
	size_t		i;

	memset(out, 0, sizeof(*out));
	if (version_len == 2)
		for (i = 0; i < sizeof(stats_versions) / sizeof(stats_versions[0]); i++)
			if (version[0] == stats_versions[i].version[0] &&
				version[1] == stats_versions[i].version[1])
				sv = &stats_versions[i];
	if (sv == NULL)
	{
		bc_order	o;
		bc_layout	l;

		/* pre-1.2 and other DataStax versions: the codec's own verdict */
		st = bc_version_lookup(version, version_len, &o, &l);
		return st == BC_OK ? BC_ERR_VERSION_UNKNOWN : st;
	}
	if (data == NULL)
		return BC_ERR_STATS_TRUNCATED;

	memset(&res, 0, sizeof(res));
	if (sv->kind == BC_SK_LEGACY_12 || sv->kind == BC_SK_LEGACY_20)
	{
		bc_stats_cursor c;

		c.p = data;
		c.end = data + len;
		st = bc_stats_parse_legacy(&c, sv, &res);
	}
	else
		st = parse_toc(data, len, sv, &res);
	/* fill the result only on success: no half-read values escape */
	if (st == BC_OK)
		*out = res;
	return st;
}
