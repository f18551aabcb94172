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
#include "bc_stats_cursor.h"
#include "bc_tick.h"

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
bc_status
bc_stats_read_histogram(bc_stats_cursor *c, const bc_stats_version *sv,
						bc_est_histogram *h, int64_t *total)
{
	uint32_t	n,
				i;
	int64_t		sum = 0;
	bc_status	st;

	if ((st = cur_count(c, 16, &n)) != BC_OK)
		return st;
	h->entries = c->p;
	h->n = n;
	if (n < (sv->scylla ? 1u : 2u))
		return BC_ERR_STATS_HISTOGRAM;
	for (i = 0; i < n; i++)
	{
		uint64_t	bucket = bc_get_be64(c->p + 8);	/* cur_count checked the room */

		BC_TICK(i);
		c->p += 16;
		if (bucket > INT64_MAX || (int64_t) bucket > INT64_MAX - sum)
			return BC_ERR_STATS_HISTOGRAM;
		sum += (int64_t) bucket;
	}
	*total = sum;
	return BC_OK;
}

/* the partition size histogram: its count, and where its entries are */
bc_status
bc_stats_read_size_histogram(bc_stats_cursor *c, const bc_stats_version *sv, bc_statistics *out)
{
	bc_status	st = bc_stats_read_histogram(c, sv, &out->partition_sizes,
											 &out->partitions);

	if (st == BC_OK)
	{
		out->size_histogram_n = out->partition_sizes.n;
		out->size_histogram = out->partition_sizes.entries;
	}
	return st;
}

/*
 * The tombstone drop time histogram: BE32 max bin count, BE32 bin count,
 * then per bin a double point and a BE64 count (StreamingHistogram up to
 * 3.x, TombstoneHistogram.LegacyHistogramSerializer from 4.0), or, wide
 * (hasUIntDeletionTime: oa, da), a BE64 point and a BE32 count
 * (TombstoneHistogram.HistogramSerializer).  Cassandra's deserializers
 * take any max bin count and any bin count they can allocate by (new
 * HashMap<>(size), new DataHolder(size, 1): negative fails), and do not
 * compare them; ScyllaDB's parse of streaming_histogram reads both
 * unsigned and refuses more bins than the maximum ("Streaming histogram
 * with more entries than allowed"), which Cassandra's writers never write
 * (they write the bin count as the maximum from 4.0): so only the bin
 * count is checked, as a count of what the component holds.  The points
 * and counts are read by bc_histogram.c.
 */
bc_status
bc_stats_read_tombstones(bc_stats_cursor *c, int wide, bc_tomb_histogram *h)
{
	uint32_t	n;
	size_t		bin = wide ? 12 : 16;
	bc_status	st;

	if ((st = cur_skip(c, 4)) != BC_OK ||
		(st = cur_count(c, bin, &n)) != BC_OK)
		return st;
	h->bins = c->p;
	h->n = n;
	h->wide = wide;
	return cur_skip(c, (size_t) n * bin);
}

/* A BE32 count of names, each a BE16 length and its bytes (the min / max
 * column names or clustering values: new ArrayList<>(colCount),
 * ByteBufferUtil.readWithShortLength; ScyllaDB's
 * disk_array<uint32_t, disk_string<uint16_t>>). */
bc_status
bc_stats_read_short_list(bc_stats_cursor *c, bc_stats_list *l)
{
	uint32_t	n,
				i;
	bc_status	st;

	if ((st = cur_count(c, 2, &n)) != BC_OK)
		return st;
	l->p = c->p;
	l->end = c->end;
	l->n = n;
	l->kind = BC_SL_SHORT_BYTES;
	l->present = 1;
	for (i = 0; i < n; i++)
	{
		uint16_t	len;

		BC_TICK(i);
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
	uint64_t	v;
	bc_status	st;

	if ((st = bc_stats_read_size_histogram(c, sv, out)) != BC_OK ||
		(st = bc_stats_read_histogram(c, sv, &out->column_counts, &ignored)) != BC_OK)
		return st;
	out->clog_upper = c->p;
	if ((st = cur_skip(c, 12)) != BC_OK)
		return st;
	/* tracksMinTimestamp: "ib" and later */
	if (!(sv->version[0] == 'i' && sv->version[1] == 'a'))
	{
		if ((st = cur_be64(c, &v)) != BC_OK)
			return st;
		out->has_min_timestamp = 1;
		out->min_timestamp = (int64_t) v;
	}
	if ((st = cur_be64(c, &v)) != BC_OK)
		return st;
	out->has_max_timestamp = 1;
	out->max_timestamp = (int64_t) v;
	/* tracksMaxLocalDeletionTime, hasBloomFilterFPChance: "ja" and later */
	if (sv->kind == BC_SK_LEGACY_20)
	{
		uint32_t	ldt;

		if ((st = cur_be32(c, &ldt)) != BC_OK ||
			(st = read_fp_chance(c, out)) != BC_OK)
			return st;
		bc_stats_set_ldt(&out->has_max_ldt, &out->max_ldt, ldt, 0);
	}
	if ((st = cur_be64(c, &v)) != BC_OK)	/* compression ratio */
		return st;
	out->has_compression_ratio = 1;
	memcpy(&out->compression_ratio, &v, sizeof(double));
	if ((st = read_partitioner(c, out)) != BC_OK ||
		(st = cur_count(c, 4, &nancestors)) != BC_OK ||
		(st = cur_skip(c, (size_t) nancestors * 4)) != BC_OK ||
		(st = bc_stats_read_tombstones(c, 0, &out->tombstones)) != BC_OK)
		return st;
	/*
	 * The level: 2.0 (ja, jb) writes it, then min / max column names
	 * (tracksMaxMinColumnNames); 1.2 does not write it, but Cassandra 2.0
	 * writes one into 1.2 files (LeveledManifest.mutateLevel,
	 * legacySerialize) and its reader takes it when four bytes are left.
	 */
	if (sv->kind == BC_SK_LEGACY_20 || cur_left(c) >= 4)
	{
		uint32_t	level;

		if ((st = cur_be32(c, &level)) != BC_OK)
			return st;
		out->has_level = 1;
		out->sstable_level = (int32_t) level;
	}
	if (sv->kind == BC_SK_LEGACY_20)
	{
		if ((st = bc_stats_read_short_list(c, &out->legacy_min)) != BC_OK ||
			(st = bc_stats_read_short_list(c, &out->legacy_max)) != BC_OK)
			return st;
	}
	out->has_stats_detail = 1;
	out->tail[BC_MT_STATS] = (int64_t) cur_left(c);
	return BC_OK;
}

/*
 * A local deletion time as the readers take it: signed, Integer.MAX_VALUE
 * for "no deletion" (Cell.NO_DELETION_TIME before 5.0); or, unsigned
 * (hasUIntDeletionTime: oa, da), 0xffffffff for "no deletion"
 * (Cell.deletionTimeUnsignedIntegerToLong, NO_DELETION_TIME_UNSIGNED_INTEGER).
 * "No deletion" leaves *has at 0: reported as NULL.
 */
void
bc_stats_set_ldt(int *has, int64_t *ldt, uint32_t raw, int uint_time)
{
	if (uint_time ? raw == 0xffffffffu : raw == 0x7fffffffu)
	{
		*has = 0;
		return;
	}
	*has = 1;
	*ldt = uint_time ? (int64_t) raw : (int64_t) (int32_t) raw;
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
read_type_list(bc_stats_cursor *c, int with_names, bc_stats_list *l, int *printable)
{
	uint64_t	n,
				i;
	bc_status	st;

	if ((st = cur_vcount(c, &n)) != BC_OK)
		return st;
	l->p = c->p;
	l->end = c->end;
	l->n = (uint32_t) n;
	l->kind = with_names ? BC_SL_VCOLUMN : BC_SL_VSTRING;
	l->present = 1;
	for (i = 0; i < n; i++)
	{
		const uint8_t *s;
		size_t		slen;

		BC_TICK(i);
		if (with_names && (st = cur_vbytes(c, &s, &slen)) != BC_OK)
			return st;
		if ((st = cur_vbytes(c, &s, &slen)) != BC_OK)
			return st;
		/* reported as text, as the key type is (below) */
		if (!is_printable(s, slen))
			*printable = 0;
	}
	return BC_OK;
}

bc_status
bc_stats_read_type_list(bc_stats_cursor *c, bc_stats_list *l)
{
	int			printable = 1;
	bc_status	st = read_type_list(c, 0, l, &printable);

	return st == BC_OK && !printable ? BC_ERR_STATS_STRING : st;
}

/*
 * SerializationHeader.Component (SerializationHeader.Serializer.deserialize;
 * ScyllaDB's serialization_header): encoding stats, partition key type,
 * clustering types, static columns, regular columns; types as vint-length
 * UTF-8 strings, column names as vint-length bytes.
 *
 * The encoding stats (EncodingStats.Serializer.deserialize) are three
 * unsigned vints, each the distance from a fixed epoch (2015-09-22
 * 00:00:00 UTC: TIMESTAMP_EPOCH in microseconds, DELETION_TIME_EPOCH in
 * seconds, TTL_EPOCH 0), added back as Java adds them: the timestamp in 64
 * bits, the deletion time and the TTL cast to an int (3.0 - 4.1; 5.0
 * reads both with readUnsignedVInt32, the deletion time unsigned for oa
 * and da; ScyllaDB keeps 64 bits).  No reader checks them.
 *
 * The partition key type is reported.  Cassandra parses it with
 * TypeParser.parse (an empty string is BytesType; invalid UTF-8 fails
 * UTF8Type.compose), ScyllaDB does not parse it at all: an empty one is
 * accepted, as both do.  Otherwise it must be printable ASCII, which every
 * type name a writer writes is (AbstractType.toString: class names,
 * hex-encoded user type and field names); kept although the readers take
 * more, since bloomcass reports it as text, and so are the clustering and
 * column types.  The readers parse each type (Cassandra: TypeParser.parse
 * in SerializationHeader.Serializer.readType; ScyllaDB's db::marshal::
 * type_parser) against the table's schema, which bloomcass does not have:
 * the types are reported as written.  Column names are bytes.
 */
static int
bc_stats_uint_time(const bc_stats_version *sv)
{
	bc_stats_flags f;

	bc_stats_flags_of(sv->version, &f);
	return f.uint_time;
}

#define BC_TIMESTAMP_EPOCH INT64_C(1442880000000000)
#define BC_DELETION_TIME_EPOCH UINT64_C(1442880000)

bc_status
bc_stats_parse_header(bc_stats_cursor *c, const bc_stats_version *sv,
					  bc_statistics *out)
{
	uint64_t	ts,
				ldt,
				ttl;
	int			printable = 1;
	bc_status	st;

	if ((st = cur_uvint(c, &ts)) != BC_OK ||
		(st = cur_uvint(c, &ldt)) != BC_OK ||
		(st = cur_uvint(c, &ttl)) != BC_OK)
		return st;
	out->has_encoding_stats = 1;
	out->enc_min_timestamp = (int64_t) (ts + (uint64_t) BC_TIMESTAMP_EPOCH);
	bc_stats_set_ldt(&out->has_enc_min_ldt, &out->enc_min_ldt,
					 (uint32_t) (ldt + BC_DELETION_TIME_EPOCH), bc_stats_uint_time(sv));
	out->enc_min_ttl = (int32_t) (uint32_t) ttl;
	if ((st = cur_vbytes(c, &out->key_type, &out->key_type_len)) != BC_OK)
		return st;
	if (!is_printable(out->key_type, out->key_type_len))
		return BC_ERR_STATS_STRING;
	if ((st = read_type_list(c, 0, &out->header_clustering, &printable)) != BC_OK ||
		(st = read_type_list(c, 1, &out->static_columns, &printable)) != BC_OK ||
		(st = read_type_list(c, 1, &out->regular_columns, &printable)) != BC_OK)
		return st;
	/* a type name that cannot be reported refuses only cassandra_metadata */
	if (!printable && out->detail_status == BC_OK)
		out->detail_status = BC_ERR_STATS_STRING;
	out->tail[BC_MT_HEADER] = (int64_t) cur_left(c);
	return BC_OK;
}

/*
 * The next item of a list the parse has bounded (each item was read once
 * by the parse: the lengths are known to fit).
 */
int
bc_stats_list_next(bc_stats_list *l, const uint8_t **item, size_t *len,
				   const uint8_t **type, size_t *type_len)
{
	bc_stats_cursor c;

	if (!l->present || l->n == 0)
		return 0;
	c.p = l->p;
	c.end = l->end;
	if (l->kind == BC_SL_SHORT_BYTES)
	{
		uint16_t	n;

		if (cur_be16(&c, &n) != BC_OK || n > cur_left(&c))
			return 0;
		*item = c.p;
		*len = n;
		c.p += n;
	}
	else
	{
		if (cur_vbytes(&c, item, len) != BC_OK)
			return 0;
		if (l->kind == BC_SL_VCOLUMN && cur_vbytes(&c, type, type_len) != BC_OK)
			return 0;
	}
	l->p = c.p;
	l->n--;
	return 1;
}
