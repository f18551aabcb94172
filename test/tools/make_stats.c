/*
 * make-stats - Statistics.db files that set what no real SSTable within
 * reach sets (test data for sql/36_metadata_fleet.sql and
 * test/unit/stats/test_metadata.c; test/data/statistics/README.md lists them):
 * repaired_at, a pending repair, is_transient, levels above 0, TTLs, the
 * unsigned local deletion times of 5.0 past 2038, "no deletion", the
 * partition level deletions marker, a token space coverage, a key range.
 *
 *   make-stats DIR
 *
 * writes DIR/<name>/<version>-1-big-Statistics.db (-bti- for da; the
 * folder made when missing) for every
 * file of the table below, field by field as the writers' serializers
 * write them, then reads each back with the core's parser and checks every
 * fact against what was written.  The serializers followed (Cassandra 3.0 -
 * 5.0; ScyllaDB's sstables/sstables.cc writes the same fields for me):
 *
 *   - MetadataSerializer.serialize: a BE32 count of components, then per
 *     component its type and offset (BE32 each), sorted by type, and the
 *     components back to back; from na (and in da) a CRC32 of the count
 *     after it, a CRC32 continuing over the table after the table, and a
 *     CRC32 after each component.  ScyllaDB's older releases listed the
 *     entries in the order of a std::unordered_map, 3, 2, 0, 1, the
 *     components still in type order (scylladb issue 3937);
 *   - ValidationMetadata: writeUTF(partitioner), writeDouble(fp_chance);
 *   - CompactionMetadata: the cardinality estimator's bytes with a BE32
 *     length (stream-lib's HyperLogLogPlus.getBytes: -2, p = 13, sp = 25,
 *     sparse format 1 and no entry: an estimator to which no key was
 *     offered, so these files are not for the cardinality tests);
 *   - StatsMetadata: EstimatedHistogram.serializer (BE32 bucket count, then
 *     per bucket the offset below it, the first bucket's the first offset,
 *     and its count, BE64 each; offsets of EstimatedHistogram.newOffsets:
 *     150 for partition sizes, 114 for cells per partition), the commit
 *     log upper bound (BE64 segment, BE32 position), min and max timestamp
 *     (BE64), min and max local deletion time, min and max TTL (BE32),
 *     compression ratio (double), the tombstone histogram (BE32 max bins,
 *     BE32 bins, each a double point and a BE64 count; from oa and in da
 *     a BE64 point and a BE32 count), the level (BE32), repaired_at (BE64),
 *     the legacy min/max clustering values (m*, n*: BE32 count of
 *     BE16-length values, min then max) or the improved ones (oa, da:
 *     AbstractTypeSerializer.serializeList, then Slice.serializer: kind
 *     byte, BE16 size, a vint header per 32 values, the values), the
 *     legacy counter shards flag, total columns set and total rows (BE64),
 *     the commit log lower bound (mb+), the commit log intervals (mc+:
 *     BE32 count of position pairs), the pending repair (na+: a byte, then
 *     a UUID), is_transient (na+), the originating host id (me+, nb+), the
 *     partition level deletions marker (nc+), the key range (nc+, da:
 *     vint-length keys), the token space coverage (oa+, da: double);
 *   - SerializationHeader.Component: EncodingStats (three unsigned vints,
 *     the distances of the minimum timestamp, local deletion time and TTL
 *     from 2015-09-22), the partition key type, the clustering types, the
 *     static and regular columns (vint-length strings).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "bc_endian.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "tool_io.h"

#define NO_DELETION INT64_C(0x7fffffff)
#define NO_DELETION_UNSIGNED INT64_C(0xffffffff)
#define TIMESTAMP_EPOCH INT64_C(1442880000000000)
#define DELETION_EPOCH INT64_C(1442880000)

#define MAX_PARTITIONS 8
#define MAX_BINS 4

typedef struct spec
{
	const char *name;			/* the folder */
	const char *version;
	int			scylla_order;	/* ScyllaDB's table order 3, 2, 0, 1 */
	int			npart;
	int64_t		sizes[MAX_PARTITIONS];	/* partition sizes (bytes) */
	int64_t		cells[MAX_PARTITIONS];	/* cells per partition */
	int64_t		min_ts,
				max_ts;
	int64_t		min_ldt,		/* as written: NO_DELETION(_UNSIGNED) */
				max_ldt;
	int32_t		min_ttl,
				max_ttl;
	double		ratio;
	int			nbins;
	int64_t		points[MAX_BINS];
	int64_t		counts[MAX_BINS];
	int32_t		level;
	int64_t		repaired_at;
	const char *pending;		/* 32 hex digits or NULL */
	int			transient;
	const char *host;
	int			pld;
	double		coverage;
	int64_t		rows,
				columns;
} spec;

static const char *const PARTITIONER = "org.apache.cassandra.dht.Murmur3Partitioner";
static const char *const KEY_TYPE = "org.apache.cassandra.db.marshal.Int32Type";
static const char *const CLUSTERING = "org.apache.cassandra.db.marshal.Int32Type";

static const spec SPECS[] = {
	/* 3.0: repaired, level 2 (LCS), every cell with a TTL */
	{"repaired_ma", "ma", 0, 3, {100, 100, 2000}, {2, 2, 40},
		INT64_C(1700000000000000), INT64_C(1700000300000000), 1700086400, 1700086700, 86400, 86400,
		0.5, 1, {1700086400}, {44}, 2, INT64_C(1700001000000), NULL, 0, NULL, 0, 0, 3, 44},
	/* 3.0.8+: level 1, repaired, TTLs from an hour to a day, tombstones */
	{"level_mc", "mc", 0, 2, {500, 60000}, {5, 900},
		INT64_C(1600000000000000), INT64_C(1600090000000000), 1600003600, 1600090000, 3600, 86400,
		0.25, 2, {1600003600, 1600090000}, {300, 605}, 1, INT64_C(1600100000000), NULL, 0, NULL, 0, 0,
	150, 905},
	/* 3.11: nothing deleted or expiring: "no deletion", TTL 0 */
	{"live_md", "md", 0, 1, {40}, {1},
		INT64_C(1650000000000000), INT64_C(1650000000000000), NO_DELETION, NO_DELETION, 0, 0,
		1.0, 0, {0}, {0}, 0, 0, NULL, 0, NULL, 0, 0, 1, 1},
	/* ScyllaDB's me: its table order, level 4, a host id */
	{"scylla_me", "me", 1, 2, {300, 300}, {3, 3},
		INT64_C(1690000000000000), INT64_C(1690000500000000), 1690000000, 1690000000, 0, 0,
		0.75, 1, {1690000000}, {1}, 4, 0, NULL, 0, "a1b2c3d4e5f60718293a4b5c6d7e8f90", 0, 0, 2, 6},
	/* 4.0: an incremental repair under way, a transient replica's */
	{"pending_nb", "nb", 0, 4, {60, 70, 80, 90}, {1, 1, 1, 2},
		INT64_C(1680000000000000), INT64_C(1680000900000000), 1680000000, 1680000900, 0, 600,
		0.4, 1, {1680000900}, {2}, 0, 0, "5b8f7a20d12b11eebe560242ac120002", 1,
		"0f1e2d3c4b5a69788796a5b4c3d2e1f0", 0, 0, 4, 5},
	/* 5.0: unsigned deletion times past 2038 (the 20-year TTL limit from
	 * 2025: 2044), a
	 * partition deletion, a key range, the token space coverage */
	{"uint_oa", "oa", 0, 2, {200, 400}, {3, 7},
		INT64_C(1735689600000000), INT64_C(1735693200000000), INT64_C(2366409600), INT64_C(2366413200),
		630720000, 630720000, 0.9, 2, {INT64_C(2366409600), INT64_C(2366413200)}, {3, 6}, 0,
		INT64_C(1735700000000), NULL, 0, "00112233445566778899aabbccddeeff", 1, 0.5, 1, 10},
	/* 5.0: nothing deleted or expiring, unsigned "no deletion" */
	{"live_oa", "oa", 0, 1, {50}, {2},
		INT64_C(1735689600000000), INT64_C(1735689600000000), NO_DELETION_UNSIGNED, NO_DELETION_UNSIGNED,
		0, 0, 1.0, 0, {0}, {0}, 0, 0, NULL, 0, NULL, 0, 0.25, 1, 2},
	/* 5.0 trie-indexed: level 3, pending repair, transient */
	{"pending_da", "da", 0, 3, {90, 95, 100}, {1, 1, 1},
		INT64_C(1735689600000000), INT64_C(1735690000000000), 1735689600, 1735690000, 0, 400,
		0.6, 1, {1735690000}, {1}, 3, 0, "9e4c2f10c7a011efa1b20242ac130003", 1,
		"fedcba98765432100123456789abcdef", 0, 1.0, 3, 3},
};

static void
put_uvint(bytebuf *b, uint64_t v)
{
	int			magnitude = v == 0 ? 63 : __builtin_clzll(v | 1),
				size = (639 - magnitude * 9) >> 6,
				i;
	uint8_t		out[9];

	if (size >= 9)
	{
		out[0] = 0xff;
		for (i = 0; i < 8; i++)
			out[1 + i] = (uint8_t) (v >> (56 - 8 * i));
		bytebuf_put(b, out, 9);
		return;
	}
	for (i = size - 1; i >= 0; i--, v >>= 8)
		out[i] = (uint8_t) v;
	out[0] |= (uint8_t) ~(0xff >> (size - 1));
	bytebuf_put(b, out, (size_t) size);
}

static void
put_vstring(bytebuf *b, const char *s)
{
	put_uvint(b, strlen(s));
	bytebuf_put(b, s, strlen(s));
}

static void
put_double(bytebuf *b, double d)
{
	uint64_t	u;

	memcpy(&u, &d, sizeof(u));
	bytebuf_put_be(b, u, 8);
}

static void
put_uuid(bytebuf *b, const char *hex)
{
	int			i;

	bytebuf_put_be(b, hex != NULL, 1);
	for (i = 0; hex != NULL && i < 16; i++)
	{
		unsigned	v;

		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			tool_die("bad uuid %s", hex);
		bytebuf_put_be(b, v, 1);
	}
}

/* EstimatedHistogram.newOffsets(size, false) */
static void
offsets_of(int size, int64_t *o)
{
	int64_t		last = 1;
	int			i;

	o[0] = last;
	for (i = 1; i < size; i++)
	{
		int64_t		next = (int64_t) ((double) last * 1.2 + 0.5);

		if (next == last)
			next++;
		o[i] = next;
		last = next;
	}
}

/* EstimatedHistogram.add of each value, then the serializer */
static void
put_histogram(bytebuf *b, int size, const int64_t *values, int n)
{
	int64_t		o[160],
				buckets[161];
	int			i;

	offsets_of(size, o);
	memset(buckets, 0, sizeof(buckets));
	for (i = 0; i < n; i++)
	{
		int			k = 0;

		while (k < size && o[k] < values[i])
			k++;
		buckets[k]++;
	}
	bytebuf_put_be(b, (uint64_t) size + 1, 4);
	for (i = 0; i <= size; i++)
	{
		bytebuf_put_be(b, (uint64_t) o[i == 0 ? 0 : i - 1], 8);
		bytebuf_put_be(b, (uint64_t) buckets[i], 8);
	}
}

static int
at_least(const char *v, const char *than)
{
	return v[0] > than[0] || (v[0] == than[0] && v[1] >= than[1]);
}

/* a key of the Int32Type partition key: the partition's index, 4 bytes */
static void
put_key(bytebuf *b, int i)
{
	put_uvint(b, 4);
	bytebuf_put_be(b, (uint64_t) i, 4);
}

static void
put_stats(bytebuf *b, const spec *s)
{
	const char *v = s->version;
	int			bti = v[0] == 'd',
				wide = at_least(v, "oa") || bti,
				improved = wide,
				i;

	put_histogram(b, 150, s->sizes, s->npart);
	put_histogram(b, 114, s->cells, s->npart);
	bytebuf_put_be(b, 1700000000123, 8);	/* commit log upper bound */
	bytebuf_put_be(b, 4096, 4);
	bytebuf_put_be(b, (uint64_t) s->min_ts, 8);
	bytebuf_put_be(b, (uint64_t) s->max_ts, 8);
	bytebuf_put_be(b, (uint64_t) s->min_ldt, 4);
	bytebuf_put_be(b, (uint64_t) s->max_ldt, 4);
	bytebuf_put_be(b, (uint32_t) s->min_ttl, 4);
	bytebuf_put_be(b, (uint32_t) s->max_ttl, 4);
	put_double(b, s->ratio);
	/* max bins: StreamingHistogram's 100 up to 3.x, the count from 4.0 */
	bytebuf_put_be(b, at_least(v, "na") || bti ? (uint64_t) s->nbins : 100, 4);
	bytebuf_put_be(b, (uint64_t) s->nbins, 4);
	for (i = 0; i < s->nbins; i++)
	{
		if (wide)
		{
			bytebuf_put_be(b, (uint64_t) s->points[i], 8);
			bytebuf_put_be(b, (uint64_t) s->counts[i], 4);
		}
		else
		{
			put_double(b, (double) s->points[i]);
			bytebuf_put_be(b, (uint64_t) s->counts[i], 8);
		}
	}
	bytebuf_put_be(b, (uint32_t) s->level, 4);
	bytebuf_put_be(b, (uint64_t) s->repaired_at, 8);
	if (improved)
	{
		/* one Int32Type clustering column, from 0 to 41 inclusive */
		put_uvint(b, 1);
		put_vstring(b, CLUSTERING);
		bytebuf_put_be(b, 1, 1);	/* INCL_START_BOUND */
		bytebuf_put_be(b, 1, 2);
		put_uvint(b, 0);
		bytebuf_put_be(b, 0, 4);
		bytebuf_put_be(b, 6, 1);	/* INCL_END_BOUND */
		bytebuf_put_be(b, 1, 2);
		put_uvint(b, 0);
		bytebuf_put_be(b, 41, 4);
	}
	else
	{
		bytebuf_put_be(b, 1, 4);
		bytebuf_put_be(b, 4, 2);
		bytebuf_put_be(b, 0, 4);
		bytebuf_put_be(b, 1, 4);
		bytebuf_put_be(b, 4, 2);
		bytebuf_put_be(b, 41, 4);
	}
	bytebuf_put_be(b, 0, 1);	/* no legacy counter shards */
	bytebuf_put_be(b, (uint64_t) s->columns, 8);
	bytebuf_put_be(b, (uint64_t) s->rows, 8);
	if (at_least(v, "mb") || bti)
	{
		bytebuf_put_be(b, 1700000000000, 8);	/* lower bound */
		bytebuf_put_be(b, 0, 4);
	}
	if (at_least(v, "mc") || bti)
	{
		bytebuf_put_be(b, 1, 4);
		bytebuf_put_be(b, 1700000000000, 8);
		bytebuf_put_be(b, 0, 4);
		bytebuf_put_be(b, 1700000000123, 8);
		bytebuf_put_be(b, 4096, 4);
	}
	if (at_least(v, "na") || bti)
	{
		put_uuid(b, s->pending);
		bytebuf_put_be(b, (uint64_t) s->transient, 1);
	}
	if (at_least(v, "nb") || bti || (v[0] == 'm' && v[1] >= 'e'))
		put_uuid(b, s->host);
	if (at_least(v, "nc") || bti)
	{
		bytebuf_put_be(b, (uint64_t) s->pld, 1);
		put_key(b, 0);
		put_key(b, s->npart - 1);
	}
	if (wide)
		put_double(b, s->coverage);
}

static void
put_header(bytebuf *b, const spec *s)
{
	put_uvint(b, (uint64_t) (s->min_ts - TIMESTAMP_EPOCH));
	/* EncodingStats keeps the minimum as written: "no deletion" too */
	put_uvint(b, (uint64_t) (uint32_t) (s->min_ldt - DELETION_EPOCH));
	put_uvint(b, (uint64_t) (uint32_t) s->min_ttl);
	put_vstring(b, KEY_TYPE);
	put_uvint(b, 1);
	put_vstring(b, CLUSTERING);
	put_uvint(b, 0);			/* no static column */
	put_uvint(b, 1);
	put_vstring(b, "v");
	put_vstring(b, "org.apache.cassandra.db.marshal.UTF8Type");
}

static void
write_file(const char *dir, const spec *s, bytebuf *out)
{
	bytebuf		comp[4];
	int			crc = at_least(s->version, "na") || s->version[0] == 'd',
				order[4] = {0, 1, 2, 3},
				i;
	size_t		offset[4],
				at;

	memset(comp, 0, sizeof(comp));
	tool_put_utf(&comp[0], PARTITIONER, strlen(PARTITIONER));
	put_double(&comp[0], 0.01);
	{
		static const uint8_t hll[] = {0xff, 0xff, 0xff, 0xfe, 13, 25, 1, 0};

		bytebuf_put_be(&comp[1], sizeof(hll), 4);
		bytebuf_put(&comp[1], hll, sizeof(hll));
	}
	put_stats(&comp[2], s);
	put_header(&comp[3], s);
	if (s->scylla_order)
	{
		order[0] = 3;
		order[1] = 2;
		order[2] = 0;
		order[3] = 1;
	}
	at = 4 + 8 * 4 + (crc ? 8 : 0);
	for (i = 0; i < 4; i++)
	{
		offset[i] = at;
		at += comp[i].n + (crc ? 4 : 0);
	}
	memset(out, 0, sizeof(*out));
	bytebuf_put_be(out, 4, 4);
	if (crc)
		bytebuf_put_be(out, crc32(0, out->d, 4), 4);
	for (i = 0; i < 4; i++)
	{
		bytebuf_put_be(out, (uint64_t) order[i], 4);
		bytebuf_put_be(out, offset[order[i]], 4);
	}
	if (crc)
		bytebuf_put_be(out, crc32(crc32(0, out->d, 4), out->d + 8, 32), 4);
	for (i = 0; i < 4; i++)
	{
		bytebuf_put(out, comp[i].d, comp[i].n);
		if (crc)
			bytebuf_put_be(out, crc32(0, comp[i].d, (uInt) comp[i].n), 4);
		free(comp[i].d);
	}
	(void) dir;
}

static int
same_uuid(const uint8_t *got, const char *hex)
{
	bytebuf		b;
	int			same;

	if ((got == NULL) != (hex == NULL))
		return 0;
	if (got == NULL)
		return 1;
	memset(&b, 0, sizeof(b));
	put_uuid(&b, hex);
	same = memcmp(b.d + 1, got, 16) == 0;
	free(b.d);
	return same;
}

/* the facts read back are the facts written */
static void
check(const char *path, const spec *s, const uint8_t *d, size_t n)
{
	bc_statistics st;
	bc_status	rc = bc_statistics_parse(d, n, s->version, 2, &st);
	int			uint_time = at_least(s->version, "oa") || s->version[0] == 'd';
	int64_t		none = uint_time ? NO_DELETION_UNSIGNED : NO_DELETION;
	int			ok;

	if (rc != BC_OK || st.detail_status != BC_OK)
		tool_die("%s: %s", path, bc_status_message(rc != BC_OK ? rc : st.detail_status));
	ok = st.tail[0] == 0 && st.tail[1] == 0 && st.tail[2] == 0 && st.tail[3] == 0 &&
		st.partitions == s->npart && st.min_timestamp == s->min_ts &&
		st.max_timestamp == s->max_ts &&
		st.has_min_ldt == (s->min_ldt != none) && st.has_max_ldt == (s->max_ldt != none) &&
		(!st.has_min_ldt || st.min_ldt == s->min_ldt) &&
		(!st.has_max_ldt || st.max_ldt == s->max_ldt) &&
		st.min_ttl == s->min_ttl && st.max_ttl == s->max_ttl && st.sstable_level == s->level &&
		st.repaired_at == s->repaired_at && st.compression_ratio == s->ratio &&
		st.tombstones.n == (uint32_t) s->nbins && st.total_rows == s->rows &&
		st.total_columns_set == s->columns && st.checksummed == (at_least(s->version, "na") || s->version[0] == 'd');
	if (at_least(s->version, "na") || s->version[0] == 'd')
		ok = ok && st.stores_pending_repair && same_uuid(st.pending_repair, s->pending) &&
			st.has_is_transient && st.is_transient == s->transient;
	if (st.stores_host_id)
		ok = ok && same_uuid(st.originating_host_id, s->host);
	if (!ok)
		tool_die("%s: a fact read back is not the one written", path);
}

int
main(int argc, char **argv)
{
	size_t		i;

	if (argc != 2)
		tool_die("usage: make-stats DIR");
	for (i = 0; i < sizeof(SPECS) / sizeof(SPECS[0]); i++)
	{
		const spec *s = &SPECS[i];
		char		path[4096];
		bytebuf		out;

		snprintf(path, sizeof(path), "%s/%s", argv[1], s->name);
		(void) mkdir(path, 0777);
		snprintf(path, sizeof(path), "%s/%s/%s-1-%s-Statistics.db", argv[1], s->name, s->version,
				 s->version[0] == 'd' ? "bti" : "big");
		write_file(argv[1], s, &out);
		check(path, s, out.d, out.n);
		tool_write(path, out.d, out.n);
		printf("%s %s %zu bytes\n", path, s->version, out.n);
		free(out.d);
	}
	return 0;
}
