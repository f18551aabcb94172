/*
 * bc_statistics_fields.c
 *
 * The fields of Statistics.db's components, read through a cursor that
 * refuses to go past the end of its component (the table of contents that
 * bounds each component is bc_statistics.c):
 *
 *   - the single SSTableMetadata record of ia .. jb (1.2, 2.0);
 *   - ValidationMetadata (partitioner, fp_chance), StatsMetadata (the
 *     partition size histogram first) and SerializationHeader.Component
 *     (the partition key type) of ka and later.
 *
 * Everything is big-endian, as Java's DataOutput writes it.  The readers
 * are Cassandra's SSTableMetadata.SSTableMetadataSerializer.deserialize
 * (1.2, 2.0), LegacyMetadataSerializer.deserialize (2.1, 2.2, reading ja
 * and jb), MetadataSerializer.deserialize with each component's serializer
 * (2.1 - 5.0), and ScyllaDB's sstables/sstables.cc, parse of statistics
 * and of each metadata type (ka, la, mc, md, me, ms, mt; sstables/types.hh
 * lists their fields).  A field is accepted when one reader of its version
 * takes it with one meaning; each check below names the reader check it
 * mirrors, or says why it is kept where the readers do not check.  No
 * reader checks that a component ends after its last field (MetadataSerializer
 * hands each component its bytes and reads what it needs; 1.2 and 2.0 read
 * the file as a stream and stop), so bytes after a component's last field
 * are ignored here too.  What bloomcass does not report (compaction
 * metadata, the stats after their first histogram from 3.0 on, the header's
 * clustering and column types) is bounded but not parsed further, so what
 * those readers refuse there is not all refused here.
 */
#include <string.h>

#include "bc_endian.h"
#include "bc_private.h"
#include "bc_statistics_fields.h"

static size_t
cur_left(const bc_stats_cursor *c)
{
	return (size_t) (c->end - c->p);
}

/*
 * The primitives: a field past the end of its component is the readers'
 * EOFException (DataInput.readFully and friends; from 4.0 the component's
 * buffer, DataInputBuffer; ScyllaDB's check_buf_size, "Buffer improperly
 * sized").
 */
static bc_status
cur_skip(bc_stats_cursor *c, size_t n)
{
	if (n > cur_left(c))
		return BC_ERR_STATS_TRUNCATED;
	c->p += n;
	return BC_OK;
}

static bc_status
cur_be16(bc_stats_cursor *c, uint16_t *v)
{
	if (cur_left(c) < 2)
		return BC_ERR_STATS_TRUNCATED;
	*v = (uint16_t) ((c->p[0] << 8) | c->p[1]);
	c->p += 2;
	return BC_OK;
}

static bc_status
cur_be32(bc_stats_cursor *c, uint32_t *v)
{
	if (cur_left(c) < 4)
		return BC_ERR_STATS_TRUNCATED;
	*v = bc_get_be32(c->p);
	c->p += 4;
	return BC_OK;
}

static bc_status
cur_be64(bc_stats_cursor *c, uint64_t *v)
{
	if (cur_left(c) < 8)
		return BC_ERR_STATS_TRUNCATED;
	*v = bc_get_be64(c->p);
	c->p += 8;
	return BC_OK;
}

/*
 * A Java int used as a count of elements of at least elem_size bytes.
 * Negative: Cassandra allocates by it and fails (new long[size - 1],
 * new ArrayList<>(n), new HashSet<>(n), new HashMap<>(n):
 * NegativeArraySizeException, IllegalArgumentException); ScyllaDB reads it
 * unsigned and fails at the end of the file.  More elements than fit in
 * what is left: both fail at the end (EOFException, check_buf_size); here
 * refused before reading them.
 */
static bc_status
cur_count(bc_stats_cursor *c, size_t elem_size, uint32_t *n)
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

/* an unsigned vint (bc_uvint_decode): VIntCoding.readUnsignedVInt, ScyllaDB's
 * read_vint; cut by the end of the component, EOF */
static bc_status
cur_uvint(bc_stats_cursor *c, uint64_t *v)
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

/* A vint length followed by that many bytes: ByteBufferUtil.readWithVIntLength
 * (EOF when they are not there), ScyllaDB's disk_string_vint_size. */
static bc_status
cur_vbytes(bc_stats_cursor *c, const uint8_t **bytes, size_t *len)
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

/* printable ASCII, what bloomcass can report as text in any database
 * encoding */
static int
is_printable(const uint8_t *s, size_t len)
{
	size_t		i;

	for (i = 0; i < len; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return 0;
	return 1;
}

/*
 * The partitioner's class name: DataOutput.writeUTF, a BE16 length then
 * the bytes (DataInput.readUTF: EOF when they are not there).  The readers
 * then refuse every name but that of the partitioner they run with:
 * Cassandra's SSTableReader.open (5.0: SSTableReaderLoadingBuilder.
 * validatePartitioner, "Cannot open %s; partitioner %s does not match
 * system partitioner %s"), ScyllaDB's sstable::validate_partitioner.
 * bloomcass runs with none, so it takes any name a partitioner class can
 * have and reports it: a non-empty printable ASCII name (Java class names
 * of the partitioners, Cassandra's and custom ones, are written in ASCII;
 * an empty name is no class).
 */
static bc_status
read_partitioner(bc_stats_cursor *c, bc_statistics *out)
{
	uint16_t	n;
	bc_status	st;

	if ((st = cur_be16(c, &n)) != BC_OK)
		return st;
	if (n > cur_left(c))
		return BC_ERR_STATS_TRUNCATED;
	if (n == 0 || !is_printable(c->p, n))
		return BC_ERR_STATS_STRING;
	out->partitioner = c->p;
	out->partitioner_len = n;
	c->p += n;
	return BC_OK;
}

/*
 * bloom_filter_fp_chance: DataInput.readDouble.  No reader checks the
 * value: Cassandra 2.x compares it with the table's to decide whether to
 * rebuild the filter (SSTableReader.load), ScyllaDB keeps it.  A table can
 * only have 0 < fp_chance <= 1 (TableParams.validate, CFPropDefs before
 * 3.0: "%s must be larger than %s and less than or equal to 1.0"), so no
 * writer writes anything else; kept, as bc_summary.c keeps the index
 * interval no table can have: bloomcass has no table to compare it with,
 * reports it as the SSTable's fp_chance and sizes filters by it, where
 * NaN, 0 or 2 has no meaning.
 */
static bc_status
read_fp_chance(bc_stats_cursor *c, bc_statistics *out)
{
	uint64_t	bits;
	bc_status	st;

	if ((st = cur_be64(c, &bits)) != BC_OK)
		return st;
	memcpy(&out->fp_chance, &bits, sizeof(out->fp_chance));
	if (!(out->fp_chance > 0.0 && out->fp_chance <= 1.0))
		return BC_ERR_STATS_FP_CHANCE;
	out->has_fp_chance = 1;
	return BC_OK;
}

/*
 * EstimatedHistogram: BE32 entry count n, then n times (BE64 offset, BE64
 * bucket).  *total receives the sum of the buckets (the partition count
 * bloomcass reports, for the partition size histogram).
 *
 * The count: Cassandra's EstimatedHistogramSerializer.deserialize (1.2 -
 * 5.0) allocates new long[n - 1] offsets and stores the first entry's
 * offset at offsets[0]: n = 0 fails (NegativeArraySizeException), n = 1
 * too (ArrayIndexOutOfBoundsException), so it takes n >= 2.  ScyllaDB's
 * parse of estimated_histogram refuses only n = 0 ("Estimated histogram
 * with zero size found"): for the versions it reads (sv->scylla) one bucket
 * is accepted.
 *
 * The offsets: neither reader checks them (Cassandra overwrites the first
 * entry's offset with the second's, ScyllaDB skips it; neither compares
 * them), and bloomcass reads none: not checked.
 *
 * The buckets: neither reader checks them either (AtomicLongArray, and
 * ScyllaDB's int64_t buckets, take any value).  Kept all the same: the
 * sum is the partition count bloomcass reports, and a negative bucket, or
 * a sum past 2^63 - 1 (which Java's count() would wrap), is no count; no
 * writer writes one (the buckets count partitions).
 */
static bc_status
read_histogram(bc_stats_cursor *c, const bc_stats_version *sv, int64_t *total)
{
	uint32_t	n,
				i;
	int64_t		sum = 0;
	bc_status	st;

	if ((st = cur_count(c, 16, &n)) != BC_OK)
		return st;
	if (n < (sv->scylla ? 1u : 2u))
		return BC_ERR_STATS_HISTOGRAM;
	for (i = 0; i < n; i++)
	{
		uint64_t	bucket = bc_get_be64(c->p + 8);	/* cur_count checked the room */

		c->p += 16;
		if (bucket > INT64_MAX || (int64_t) bucket > INT64_MAX - sum)
			return BC_ERR_STATS_HISTOGRAM;
		sum += (int64_t) bucket;
	}
	*total = sum;
	return BC_OK;
}

/* the partition size histogram: its count, and where its entries are */
static bc_status
read_size_histogram(bc_stats_cursor *c, const bc_stats_version *sv, bc_statistics *out)
{
	const uint8_t *start = c->p;
	bc_status	st = read_histogram(c, sv, &out->partitions);

	if (st == BC_OK)
	{
		out->size_histogram_n = bc_get_be32(start);
		out->size_histogram = start + 4;
	}
	return st;
}

/*
 * StreamingHistogram (tombstone drop times) up to 3.x: BE32 max bin
 * count, BE32 bin count, then per bin a double and a long.  Cassandra's
 * StreamingHistogramSerializer.deserialize takes any max bin count and any
 * bin count it can allocate by (new HashMap<>(size): negative fails), and
 * does not compare them; ScyllaDB's parse of streaming_histogram reads
 * both unsigned and refuses more bins than the maximum ("Streaming
 * histogram with more entries than allowed"), but every version read here
 * with this histogram (ia .. lb) is Cassandra's too: so only the bin count
 * is checked, as a count.
 */
static bc_status
skip_streaming_histogram(bc_stats_cursor *c)
{
	uint32_t	n;
	bc_status	st;

	if ((st = cur_skip(c, 4)) != BC_OK ||
		(st = cur_count(c, 16, &n)) != BC_OK)
		return st;
	return cur_skip(c, (size_t) n * 16);
}

/* A BE32 count of names, each a BE16 length and its bytes (the min / max
 * column names: new ArrayList<>(colCount), ByteBufferUtil.readWithShortLength;
 * ScyllaDB's disk_array<uint32_t, disk_string<uint16_t>>). */
static bc_status
skip_short_names(bc_stats_cursor *c)
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
 * The single SSTableMetadata record of Cassandra 1.2 and 2.0 (Cassandra
 * 1.2 and 2.0's SSTableMetadataSerializer.deserialize; 2.1 and 2.2 read ja
 * and jb with LegacyMetadataSerializer.deserialize): two histograms, the
 * replay position (BE64 segment, BE32 position), min timestamp (from ib),
 * max timestamp, max local deletion time and fp_chance (from ja),
 * compression ratio, partitioner, ancestors, tombstone histogram, then for
 * 2.0 the level and min / max column names.  1.2's reader stops after the
 * tombstone histogram; 2.0's reads a level there if any byte is left
 * (Cassandra 2.0 writes one into 1.2 files: LeveledManifest.mutateLevel,
 * legacySerialize): for ia .. ic nothing after the histogram is read.
 */
bc_status
bc_stats_parse_legacy(bc_stats_cursor *c, const bc_stats_version *sv,
					  bc_statistics *out)
{
	int64_t		ignored;
	uint32_t	nancestors;
	bc_status	st;

	if ((st = read_size_histogram(c, sv, out)) != BC_OK ||
		(st = read_histogram(c, sv, &ignored)) != BC_OK ||
		(st = cur_skip(c, 12)) != BC_OK)
		return st;
	/* tracksMinTimestamp: "ib" and later */
	if (!(sv->version[0] == 'i' && sv->version[1] == 'a') &&
		(st = cur_skip(c, 8)) != BC_OK)
		return st;
	if ((st = cur_skip(c, 8)) != BC_OK)
		return st;
	/* tracksMaxLocalDeletionTime, hasBloomFilterFPChance: "ja" and later */
	if (sv->kind == BC_SK_LEGACY_20)
	{
		if ((st = cur_skip(c, 4)) != BC_OK ||
			(st = read_fp_chance(c, out)) != BC_OK)
			return st;
	}
	if ((st = cur_skip(c, 8)) != BC_OK ||	/* compression ratio */
		(st = read_partitioner(c, out)) != BC_OK ||
		(st = cur_count(c, 4, &nancestors)) != BC_OK ||
		(st = cur_skip(c, (size_t) nancestors * 4)) != BC_OK ||
		(st = skip_streaming_histogram(c)) != BC_OK)
		return st;
	/* tracksMaxMinColumnNames: "ja" and later, after the level */
	if (sv->kind == BC_SK_LEGACY_20)
	{
		if ((st = cur_skip(c, 4)) != BC_OK ||
			(st = skip_short_names(c)) != BC_OK ||
			(st = skip_short_names(c)) != BC_OK)
			return st;
	}
	return BC_OK;
}

/* ValidationMetadata.ValidationMetadataSerializer.deserialize: partitioner
 * (readUTF), fp_chance (readDouble); ScyllaDB's validation_metadata. */
bc_status
bc_stats_parse_validation(bc_stats_cursor *c, bc_statistics *out)
{
	bc_status	st;

	if ((st = read_partitioner(c, out)) != BC_OK)
		return st;
	return read_fp_chance(c, out);
}

/*
 * StatsMetadata.StatsMetadataSerializer.deserialize; ScyllaDB's
 * stats_metadata.  From 3.0 on only its leading histogram is read: the
 * rest changes with every version, bloomcass reports none of it, and the
 * component's bounds (and from 4.0 its CRC) are checked anyway.  Up to 2.2
 * (ka, la, lb) the stats come last in the file, so they are read to their
 * last field to catch a truncated file: the second histogram, the replay
 * position, min and max timestamp, max local deletion time, compression
 * ratio, tombstone histogram, level, repairedAt, min and max column names,
 * hasLegacyCounterShards (readBoolean: any byte, non-zero is true; ScyllaDB
 * reads a byte too) and lb's commit log lower bound (hasCommitLogLowerBound).
 */
bc_status
bc_stats_parse_stats(bc_stats_cursor *c, const bc_stats_version *sv,
					 bc_statistics *out)
{
	int64_t		ignored;
	bc_status	st;

	if ((st = read_size_histogram(c, sv, out)) != BC_OK)
		return st;
	if (sv->kind != BC_SK_TOC)
		return BC_OK;
	if ((st = read_histogram(c, sv, &ignored)) != BC_OK ||
		(st = cur_skip(c, 12 + 8 + 8 + 4 + 8)) != BC_OK ||
		(st = skip_streaming_histogram(c)) != BC_OK ||
		(st = cur_skip(c, 4 + 8)) != BC_OK ||
		(st = skip_short_names(c)) != BC_OK ||
		(st = skip_short_names(c)) != BC_OK ||
		(st = cur_skip(c, 1)) != BC_OK)
		return st;
	if (sv->version[0] == 'l' && sv->version[1] == 'b' &&
		(st = cur_skip(c, 12)) != BC_OK)
		return st;
	return BC_OK;
}

/*
 * A vint count of elements of at least one byte each: more than are left
 * is the readers' EOF.  A count over 2^31 - 1 is refused as well (5.0 reads
 * it with readUnsignedVInt32, VIntOutOfRangeException; 3.0 - 4.1 cast it to
 * an int, which reads another count, and ScyllaDB reads it unsigned: the
 * readers do not agree on what it means).
 */
static bc_status
cur_vcount(bc_stats_cursor *c, uint64_t *n)
{
	bc_status	st = cur_uvint(c, n);

	if (st != BC_OK)
		return st;
	if (*n > cur_left(c) || *n > INT32_MAX)
		return BC_ERR_STATS_FIELD;
	return BC_OK;
}

/*
 * A vint count of type names (each vint length + name), or of columns
 * (vint length + name bytes, then a type name) when with_names.  The
 * readers parse each type (Cassandra: UTF8Type.compose, TypeParser.parse,
 * in SerializationHeader.Serializer.readType; ScyllaDB: db::marshal::
 * type_parser, for clustering types in get_clustering_values_fixed_lengths
 * and column types in column_translation) against the table's schema,
 * which bloomcass does not have and cannot mirror without it (an empty
 * name is BytesType to both parsers; text after a known name is ignored by
 * both): bloomcass reports none of them, so only their lengths are
 * bounded.
 */
static bc_status
skip_type_list(bc_stats_cursor *c, int with_names)
{
	uint64_t	n,
				i;
	bc_status	st;

	if ((st = cur_vcount(c, &n)) != BC_OK)
		return st;
	for (i = 0; i < n; i++)
	{
		const uint8_t *s;
		size_t		slen;

		if (with_names && (st = cur_vbytes(c, &s, &slen)) != BC_OK)
			return st;
		if ((st = cur_vbytes(c, &s, &slen)) != BC_OK)
			return st;
	}
	return BC_OK;
}

/*
 * SerializationHeader.Component (SerializationHeader.Serializer.deserialize;
 * ScyllaDB's serialization_header): encoding stats (three unsigned vints,
 * EncodingStats.Serializer.deserialize: 5.0 reads the last two with
 * readUnsignedVInt32, 3.0 - 4.1 cast them to an int, ScyllaDB keeps 64
 * bits; bloomcass reports none: any value), partition key type,
 * clustering types, static columns, regular columns; types as
 * vint-length UTF-8 strings.
 *
 * The partition key type is reported.  Cassandra parses it with
 * TypeParser.parse (an empty string is BytesType; invalid UTF-8 fails
 * UTF8Type.compose), ScyllaDB does not parse it at all: an empty one is
 * accepted, as both do.  Otherwise it must be printable ASCII, which every
 * type name a writer writes is (AbstractType.toString: class names,
 * hex-encoded user type and field names); kept although the readers take
 * more, since bloomcass reports it as text.
 */
bc_status
bc_stats_parse_header(bc_stats_cursor *c, bc_statistics *out)
{
	uint64_t	v;
	int			i;
	bc_status	st;

	for (i = 0; i < 3; i++)
		if ((st = cur_uvint(c, &v)) != BC_OK)
			return st;
	if ((st = cur_vbytes(c, &out->key_type, &out->key_type_len)) != BC_OK)
		return st;
	if (!is_printable(out->key_type, out->key_type_len))
		return BC_ERR_STATS_STRING;
	if ((st = skip_type_list(c, 0)) != BC_OK ||
		(st = skip_type_list(c, 1)) != BC_OK ||
		(st = skip_type_list(c, 1)) != BC_OK)
		return st;
	return BC_OK;
}
