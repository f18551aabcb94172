/*
 * bc_statistics.c
 *
 * Reader of an SSTable's Statistics.db component: the partitioner, the
 * bloom filter's fp_chance, the partition count (total of the estimated
 * partition size histogram) and, from Cassandra 3.0 on, the partition key
 * type of the serialization header.
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
 *   - na and later, BTI (da) and DataStax's bb: the same with CRC32s: one
 *     after the count, one (continuing the first) after the table, and one
 *     after each component, over that component's bytes.
 *
 * Everything is big-endian, as Java's DataOutput writes it.  Every field is
 * read through a cursor that refuses to go past the end of its component,
 * and every component whose last field we know is read to its exact end,
 * so that a truncated or padded file is an error and not a wrong value.
 */
#include <math.h>
#include <string.h>

#include "bc_codec.h"
#include "bc_endian.h"
#include "bc_filter.h"
#include "bc_private.h"
#include "bc_statistics.h"
#include "bc_status.h"

/* Metadata component types (Cassandra's MetadataType ordinals). */
#define MT_VALIDATION	0
#define MT_COMPACTION	1
#define MT_STATS		2
#define MT_HEADER		3

typedef enum stats_kind
{
	SK_LEGACY_12,				/* ia .. ic: SSTableMetadata of 1.2 */
	SK_LEGACY_20,				/* ja, jb: SSTableMetadata of 2.0 */
	SK_TOC,						/* ka .. lb: TOC, no serialization header */
	SK_TOC_HEADER,				/* ma .. me, ms, mt: TOC with header */
	SK_TOC_CRC					/* na and later, BTI: TOC, header, CRC32s */
} stats_kind;

typedef struct stats_version
{
	const char *version;
	stats_kind	kind;
} stats_version;

static const stats_version stats_versions[] = {
	{"ia", SK_LEGACY_12}, {"ib", SK_LEGACY_12}, {"ic", SK_LEGACY_12},
	{"ja", SK_LEGACY_20}, {"jb", SK_LEGACY_20},
	{"ka", SK_TOC}, {"la", SK_TOC}, {"lb", SK_TOC},
	{"ma", SK_TOC_HEADER}, {"mb", SK_TOC_HEADER}, {"mc", SK_TOC_HEADER},
	{"md", SK_TOC_HEADER}, {"me", SK_TOC_HEADER},
	/* ScyllaDB's own versions keep the me layout of this component */
	{"ms", SK_TOC_HEADER}, {"mt", SK_TOC_HEADER},
	{"na", SK_TOC_CRC}, {"nb", SK_TOC_CRC}, {"nc", SK_TOC_CRC},
	{"oa", SK_TOC_CRC}, {"da", SK_TOC_CRC}, {"bb", SK_TOC_CRC},
};

/* A bounded reader over [p, end). */
typedef struct cursor
{
	const uint8_t *p;
	const uint8_t *end;
} cursor;

static size_t
cur_left(const cursor *c)
{
	return (size_t) (c->end - c->p);
}

static bc_status
cur_skip(cursor *c, size_t n)
{
	if (n > cur_left(c))
		return BC_ERR_STATS_TRUNCATED;
	c->p += n;
	return BC_OK;
}

static bc_status
cur_u8(cursor *c, uint8_t *v)
{
	if (cur_left(c) < 1)
		return BC_ERR_STATS_TRUNCATED;
	*v = *c->p++;
	return BC_OK;
}

static bc_status
cur_be16(cursor *c, uint16_t *v)
{
	if (cur_left(c) < 2)
		return BC_ERR_STATS_TRUNCATED;
	*v = (uint16_t) ((c->p[0] << 8) | c->p[1]);
	c->p += 2;
	return BC_OK;
}

static bc_status
cur_be32(cursor *c, uint32_t *v)
{
	if (cur_left(c) < 4)
		return BC_ERR_STATS_TRUNCATED;
	*v = bc_get_be32(c->p);
	c->p += 4;
	return BC_OK;
}

static bc_status
cur_be64(cursor *c, uint64_t *v)
{
	if (cur_left(c) < 8)
		return BC_ERR_STATS_TRUNCATED;
	*v = bc_get_be64(c->p);
	c->p += 8;
	return BC_OK;
}

/* A Java int used as a count: negative is impossible, and each element
 * takes at least elem_size bytes, so more than fit is refused up front. */
static bc_status
cur_count(cursor *c, size_t elem_size, uint32_t *n)
{
	bc_status	st = cur_be32(c, n);

	if (st != BC_OK)
		return st;
	if (*n > INT32_MAX)
		return BC_ERR_STATS_FIELD;
	if ((uint64_t) *n * elem_size > cur_left(c))
		return BC_ERR_STATS_TRUNCATED;
	return BC_OK;
}

/* an unsigned vint (bc_uvint_decode) */
static bc_status
cur_uvint(cursor *c, uint64_t *v)
{
	int			extra;

	if (cur_left(c) < 1)
		return BC_ERR_STATS_TRUNCATED;
	extra = bc_uvint_extra(c->p[0]);
	if ((size_t) extra >= cur_left(c))
		return BC_ERR_STATS_TRUNCATED;
	*v = bc_uvint_decode(c->p, extra);
	c->p += 1 + extra;
	return BC_OK;
}

/* A vint length followed by that many bytes (ByteBufferUtil.readWithVIntLength). */
static bc_status
cur_vbytes(cursor *c, const uint8_t **bytes, size_t *len)
{
	uint64_t	n;
	bc_status	st;

	if ((st = cur_uvint(c, &n)) != BC_OK)
		return st;
	if (n > cur_left(c))
		return BC_ERR_STATS_TRUNCATED;
	*bytes = c->p;
	*len = (size_t) n;
	c->p += n;
	return BC_OK;
}

/*
 * A Java class or type name.  Cassandra writes them in ASCII (package and
 * class names, parentheses, commas, hex-encoded user type names); refusing
 * anything else catches garbage that a length happened to delimit.
 */
static int
is_name(const uint8_t *s, size_t len)
{
	size_t		i;

	if (len == 0)
		return 0;
	for (i = 0; i < len; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return 0;
	return 1;
}

/* DataOutput.writeUTF: BE16 length, then (here ASCII) bytes. */
static bc_status
read_utf_name(cursor *c, const uint8_t **s, size_t *len)
{
	uint16_t	n;
	bc_status	st;

	if ((st = cur_be16(c, &n)) != BC_OK)
		return st;
	if (n > cur_left(c))
		return BC_ERR_STATS_TRUNCATED;
	if (!is_name(c->p, n))
		return BC_ERR_STATS_STRING;
	*s = c->p;
	*len = n;
	c->p += n;
	return BC_OK;
}

static bc_status
read_double(cursor *c, double *d)
{
	uint64_t	bits;
	bc_status	st;

	if ((st = cur_be64(c, &bits)) != BC_OK)
		return st;
	memcpy(d, &bits, sizeof(*d));
	return BC_OK;
}

static bc_status
read_fp_chance(cursor *c, bc_statistics *out)
{
	bc_status	st;

	if ((st = read_double(c, &out->fp_chance)) != BC_OK)
		return st;
	/* Cassandra's tables accept 0 < fp_chance <= 1 (NaN fails both tests) */
	if (!(out->fp_chance > 0.0 && out->fp_chance <= 1.0))
		return BC_ERR_STATS_FP_CHANCE;
	out->has_fp_chance = 1;
	return BC_OK;
}

/*
 * EstimatedHistogram: BE32 entry count n, then n times (BE64 offset, BE64
 * bucket), the first two entries repeating the first offset.  Cassandra's
 * reader needs n >= 2; the offsets grow strictly and no bucket is negative.
 * total receives the sum of the buckets, refused if it overflows.
 */
static bc_status
read_histogram(cursor *c, int64_t *total)
{
	uint32_t	n,
				i;
	uint64_t	first_offset = 0,
				prev = 0;
	int64_t		sum = 0;
	bc_status	st;

	if ((st = cur_count(c, 16, &n)) != BC_OK)
		return st;
	if (n < 2)
		return BC_ERR_STATS_HISTOGRAM;
	for (i = 0; i < n; i++)
	{
		uint64_t	offset,
					bucket;

		(void) cur_be64(c, &offset);	/* cur_count checked the room */
		(void) cur_be64(c, &bucket);
		if (offset > INT64_MAX || bucket > INT64_MAX)
			return BC_ERR_STATS_HISTOGRAM;
		if (i == 0)
			first_offset = offset;
		else if (i == 1 ? offset != first_offset : offset <= prev)
			return BC_ERR_STATS_HISTOGRAM;
		prev = offset;
		if ((int64_t) bucket > INT64_MAX - sum)
			return BC_ERR_STATS_HISTOGRAM;
		sum += (int64_t) bucket;
	}
	*total = sum;
	return BC_OK;
}

/* StreamingHistogram (tombstone drop times) up to 3.x: BE32 max bin
 * count, BE32 bin count, then per bin a double and a long. */
static bc_status
skip_streaming_histogram(cursor *c)
{
	uint32_t	maxbins,
				n;
	bc_status	st;

	if ((st = cur_count(c, 0, &maxbins)) != BC_OK)
		return st;
	if ((st = cur_count(c, 16, &n)) != BC_OK)
		return st;
	if (n > maxbins)
		return BC_ERR_STATS_FIELD;
	return cur_skip(c, (size_t) n * 16);
}

/* A BE32 count of names, each a BE16 length and its bytes. */
static bc_status
skip_short_names(cursor *c)
{
	uint32_t	n,
				i;
	bc_status	st;

	if ((st = cur_count(c, 2, &n)) != BC_OK)
		return st;
	for (i = 0; i < n; i++)
	{
		uint16_t	len;

		if ((st = cur_be16(c, &len)) != BC_OK)
			return st;
		if ((st = cur_skip(c, len)) != BC_OK)
			return st;
	}
	return BC_OK;
}

/*
 * The single SSTableMetadata record of Cassandra 1.2 and 2.0, read to its
 * end: two histograms, the replay position (BE64 segment, BE32 position),
 * min timestamp (from ib), max timestamp, max local deletion time and
 * fp_chance (from ja), compression ratio, partitioner, ancestors,
 * tombstone histogram, then for 2.0 the level and min / max column names,
 * for 1.2 at most the level (written by later 1.2 releases only).
 */
static bc_status
parse_legacy(const uint8_t *data, size_t len, const char *version,
			 stats_kind kind, bc_statistics *out)
{
	cursor		c;
	int64_t		ignored;
	uint32_t	nancestors;
	double		ratio;
	bc_status	st;

	c.p = data;
	c.end = data + len;
	if ((st = read_histogram(&c, &out->partitions)) != BC_OK ||
		(st = read_histogram(&c, &ignored)) != BC_OK ||
		(st = cur_skip(&c, 12)) != BC_OK)
		return st;
	if (!(version[0] == 'i' && version[1] == 'a') &&
		(st = cur_skip(&c, 8)) != BC_OK)
		return st;
	if ((st = cur_skip(&c, 8)) != BC_OK)
		return st;
	if (kind == SK_LEGACY_20)
	{
		if ((st = cur_skip(&c, 4)) != BC_OK ||
			(st = read_fp_chance(&c, out)) != BC_OK)
			return st;
	}
	if ((st = read_double(&c, &ratio)) != BC_OK ||
		(st = read_utf_name(&c, &out->partitioner, &out->partitioner_len)) != BC_OK ||
		(st = cur_count(&c, 4, &nancestors)) != BC_OK ||
		(st = cur_skip(&c, (size_t) nancestors * 4)) != BC_OK ||
		(st = skip_streaming_histogram(&c)) != BC_OK)
		return st;
	if (kind == SK_LEGACY_20)
	{
		if ((st = cur_skip(&c, 4)) != BC_OK ||
			(st = skip_short_names(&c)) != BC_OK ||
			(st = skip_short_names(&c)) != BC_OK)
			return st;
	}
	else if (cur_left(&c) == 4)
		c.p += 4;				/* sstable level */
	return cur_left(&c) == 0 ? BC_OK : BC_ERR_STATS_TRAILING;
}

/* ValidationMetadata: partitioner (writeUTF), fp_chance (double). */
static bc_status
parse_validation(cursor *c, bc_statistics *out)
{
	bc_status	st;

	if ((st = read_utf_name(c, &out->partitioner, &out->partitioner_len)) != BC_OK ||
		(st = read_fp_chance(c, out)) != BC_OK)
		return st;
	return cur_left(c) == 0 ? BC_OK : BC_ERR_STATS_TRAILING;
}

/*
 * StatsMetadata.  From 3.0 on only its leading histogram is read: the
 * rest varies with every version and the component's bounds (and from 4.0
 * its CRC) are checked anyway.  Up to 2.2 the stats come last in the file,
 * so they are read to their end to catch a truncated file: 2.1's layout,
 * plus lb's commit log lower bound.
 */
static bc_status
parse_stats(cursor *c, const char *version, stats_kind kind, bc_statistics *out)
{
	int64_t		ignored;
	uint8_t		flag;
	bc_status	st;

	if ((st = read_histogram(c, &out->partitions)) != BC_OK)
		return st;
	if (kind != SK_TOC)
		return BC_OK;
	if ((st = read_histogram(c, &ignored)) != BC_OK ||
		(st = cur_skip(c, 12 + 8 + 8 + 4 + 8)) != BC_OK ||
		(st = skip_streaming_histogram(c)) != BC_OK ||
		(st = cur_skip(c, 4 + 8)) != BC_OK ||
		(st = skip_short_names(c)) != BC_OK ||
		(st = skip_short_names(c)) != BC_OK ||
		(st = cur_u8(c, &flag)) != BC_OK)
		return st;
	if (flag > 1)
		return BC_ERR_STATS_FIELD;	/* a Java boolean */
	if (version[0] == 'l' && version[1] == 'b' &&
		(st = cur_skip(c, 12)) != BC_OK)
		return st;
	return cur_left(c) == 0 ? BC_OK : BC_ERR_STATS_TRAILING;
}

/* A vint count of type names (each vint length + name), or of columns
 * (vint length + name bytes, then a type name) when with_names. */
static bc_status
skip_type_list(cursor *c, int with_names)
{
	uint64_t	n,
				i;
	bc_status	st;

	if ((st = cur_uvint(c, &n)) != BC_OK)
		return st;
	if (n > cur_left(c))
		return BC_ERR_STATS_FIELD;
	for (i = 0; i < n; i++)
	{
		const uint8_t *s;
		size_t		slen;

		if (with_names && (st = cur_vbytes(c, &s, &slen)) != BC_OK)
			return st;
		if ((st = cur_vbytes(c, &s, &slen)) != BC_OK)
			return st;
		if (!is_name(s, slen))
			return BC_ERR_STATS_STRING;
	}
	return BC_OK;
}

/*
 * SerializationHeader.Component: encoding stats (three unsigned vints),
 * partition key type, clustering types, static columns, regular columns;
 * types as vint-length UTF-8 strings.
 */
static bc_status
parse_header(cursor *c, bc_statistics *out)
{
	uint64_t	v;
	int			i;
	bc_status	st;

	for (i = 0; i < 3; i++)
		if ((st = cur_uvint(c, &v)) != BC_OK)
			return st;
	if ((st = cur_vbytes(c, &out->key_type, &out->key_type_len)) != BC_OK)
		return st;
	if (!is_name(out->key_type, out->key_type_len))
		return BC_ERR_STATS_STRING;
	if ((st = skip_type_list(c, 0)) != BC_OK ||
		(st = skip_type_list(c, 1)) != BC_OK ||
		(st = skip_type_list(c, 1)) != BC_OK)
		return st;
	return cur_left(c) == 0 ? BC_OK : BC_ERR_STATS_TRAILING;
}

/* CRC-32 (java.util.zip.CRC32: reflected, polynomial 0xEDB88320), four
 * bits at a time from a 16-entry table. */
static uint32_t
crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
	static const uint32_t tab[16] = {
		0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac,
		0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
		0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
		0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c
	};
	size_t		i;

	crc = ~crc;
	for (i = 0; i < n; i++)
	{
		crc ^= p[i];
		crc = (crc >> 4) ^ tab[crc & 15];
		crc = (crc >> 4) ^ tab[crc & 15];
	}
	return ~crc;
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
parse_toc(const uint8_t *data, size_t len, const char *version,
		  stats_kind kind, bc_statistics *out)
{
	int			crc = kind == SK_TOC_CRC;
	uint32_t	ntypes = kind == SK_TOC ? 3 : 4;
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
		cursor		c;
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
			case MT_VALIDATION:
				st = parse_validation(&c, out);
				break;
			case MT_STATS:
				st = parse_stats(&c, version, kind, out);
				break;
			case MT_HEADER:
				st = parse_header(&c, out);
				break;
			default:
				break;			/* compaction metadata: not needed */
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
	if (!seen[MT_VALIDATION] || !seen[MT_STATS] ||
		(kind != SK_TOC && !seen[MT_HEADER]))
		return BC_ERR_STATS_MISSING;
	out->checksummed = crc;
	return BC_OK;
}

bc_status
bc_statistics_parse(const uint8_t *data, size_t len,
					const char *version, size_t version_len,
					bc_statistics *out)
{
	const stats_version *sv = NULL;
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
	if (sv->kind == SK_LEGACY_12 || sv->kind == SK_LEGACY_20)
		st = parse_legacy(data, len, sv->version, sv->kind, &res);
	else
		st = parse_toc(data, len, sv->version, sv->kind, &res);
	/* fill the result only on success: no half-read values escape */
	if (st == BC_OK)
		*out = res;
	return st;
}
