/*
 * test_metadata.c - every fact of Statistics.db (bc_statistics_stats.c,
 * bc_statistics_fields.c) and the histograms (bc_histogram.c): every real
 * Statistics.db of test/data/sstables read to the last byte of each
 * component, its facts checked against MANIFEST.tsv and against each
 * other; the histograms' computations on hand-made bins whose answers
 * follow from Cassandra's formulas; and malformed stats.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "bc_endian.h"
#include "bc_histogram.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "unit.h"

/* MANIFEST.tsv columns */
#define M_DIR 0
#define M_DESCRIPTOR 1
#define M_VERSION 2
#define M_COMPONENTS 7
#define M_PARTITIONS 10
#define M_FIRST_KEY 12
#define M_LAST_KEY 13
#define M_NOTE 21
#define M_FIELDS 28

static int
same_hex(const uint8_t *b, size_t len, const char *hex)
{
	size_t		i;

	if (strlen(hex) != 2 * len)
		return 0;
	for (i = 0; i < len; i++)
	{
		unsigned	v;

		if (sscanf(hex + 2 * i, "%2x", &v) != 1 || v != b[i])
			return 0;
	}
	return 1;
}

/*
 * The Statistics.db whose components do not end where their last field
 * does, and why (the parse still gives what Cassandra reads of them):
 * cassandra-analytics' na-1 and na-2 carry, after the na fields, the
 * fields nc adds (originating host id, the partition level deletions
 * marker, the improved min/max and the key range: 29 bytes, read by no
 * Cassandra reader of na), written by that project's bulk writer.
 * DataStax's versions are read to their last byte (datastax_files).
 */
static int
known_tail(const char *dir, const char *v, const bc_statistics *s)
{
	(void) v;
	if (s->tail[0] != 0 || s->tail[1] != 0 || s->tail[3] != 0)
		return 0;
	return strstr(dir, "cassandra-analytics/") != NULL && s->tail[2] == 29;
}

static void
real_files(void)
{
	unit_tsv	t;
	char	   *f[M_FIELDS + 2];
	int			nf,
				whole = 0,
				prerelease = 0,
				key_ranges = 0,
				rows = 0,
				encodings = 0,
				bounds = 0;

	if (unit_tsv_open(&t, "sstables/MANIFEST.tsv") != 0)
		return;
	while ((nf = unit_tsv_next(&t, f, M_FIELDS + 2)) >= 0)
	{
		char		rel[2048];
		const char *v;
		uint8_t    *file;
		size_t		len;
		bc_statistics s;
		bc_status	rc;
		int64_t		partitions,
					bound,
					count,
					last;
		int			has_bound;

		if (nf < M_FIELDS || strcmp(f[M_DIR], "dir") == 0 ||
			strstr(f[M_COMPONENTS], "Statistics.db") == NULL)
			continue;
		v = f[M_VERSION];
		if (strlen(v) < 2 || (v[0] >= 'e' && v[0] <= 'h'))
			continue;			/* before 1.2: test_statistics.c */
		snprintf(rel, sizeof(rel), "sstables/%s/%s-Statistics.db", f[M_DIR], f[M_DESCRIPTOR]);
		file = unit_read_file(unit_path(rel), &len);
		CHECK(file != NULL, "cannot read %s", rel);
		if (file == NULL)
			continue;
		rc = bc_statistics_parse(file, len, v, strlen(v), &s);
		CHECK(rc == BC_OK, "%s: %s", rel, bc_status_message(rc));
		if (rc != BC_OK)
		{
			free(file);
			continue;
		}

		/* the 4.0 pre-release na files: no isTransient, which every
		 * Cassandra reader of na reads (EOF) */
		if (strcmp(v, "na") == 0 && strstr(f[M_NOTE], "ARTIFACT") != NULL)
		{
			CHECK(s.detail_status == BC_ERR_STATS_TRUNCATED, "%s: pre-release stats read: %s",
				  rel, bc_status_message(s.detail_status));
			prerelease++;
			free(file);
			continue;
		}
		CHECK(s.detail_status == BC_OK, "%s: %s", rel, bc_status_message(s.detail_status));
		CHECK(s.has_stats_detail, "%s: no stats", rel);

		/* each component read to its last byte */
		if (s.tail[0] == 0 && s.tail[1] == 0 && s.tail[2] == 0 && s.tail[3] == 0)
			whole++;
		else
			CHECK(known_tail(f[M_DIR], v, &s), "%s: bytes after the last field: %lld %lld %lld %lld",
				  rel, (long long) s.tail[0], (long long) s.tail[1], (long long) s.tail[2],
				  (long long) s.tail[3]);

		/* the partition size histogram: its buckets are the partitions
		 * of the manifest (which counts Index.db's keys) */
		CHECK(unit_parse_i64(f[M_PARTITIONS], &partitions) == 0 && s.partitions == partitions,
			  "%s: partitions", rel);
		bc_est_bucket(&s.partition_sizes, s.partition_sizes.n - 1, &bound, &has_bound, &last);
		CHECK(!has_bound && bc_est_count(&s.partition_sizes) + last == partitions,
			  "%s: histogram count %lld + %lld", rel,
			  (long long) bc_est_count(&s.partition_sizes), (long long) last);
		bc_est_bucket(&s.partition_sizes, 0, &bound, &has_bound, &count);
		CHECK(has_bound == (s.partition_sizes.n > 1), "%s: first bucket's bound", rel);

		/* the key range (nc and later): the manifest's first and last keys */
		if (s.first_key != NULL)
		{
			CHECK(same_hex(s.first_key, s.first_key_len, f[M_FIRST_KEY]) &&
				  same_hex(s.last_key, s.last_key_len, f[M_LAST_KEY]),
				  "%s: key range not the manifest's", rel);
			key_ranges++;
		}
		CHECK((s.first_key != NULL) == (v[0] == 'o' || strcmp(v, "nc") == 0 || strcmp(v, "da") == 0),
			  "%s: key range where the version has none, or none where it has one", rel);

		/* rows: at least one a partition, but for partitions deleted
		 * whole (the partition level deletions marker) */
		if (s.has_rows)
		{
			CHECK(s.total_rows >= s.partitions || (s.has_pld && s.has_partition_level_deletions),
				  "%s: %lld rows, %lld partitions", rel, (long long) s.total_rows,
				  (long long) s.partitions);
			rows++;
		}

		/* EncodingStats: minima of what the stats' minima are minima of */
		if (s.has_encoding_stats)
		{
			CHECK(s.enc_min_timestamp <= s.min_timestamp, "%s: encoding min timestamp", rel);
			CHECK(s.enc_min_ttl <= s.min_ttl, "%s: encoding min TTL", rel);
			CHECK(!s.has_min_ldt || (s.has_enc_min_ldt && s.enc_min_ldt <= s.min_ldt),
				  "%s: encoding min deletion time", rel);
			encodings++;
		}
		CHECK(s.min_timestamp <= s.max_timestamp || !s.has_min_timestamp, "%s: timestamps", rel);

		/* nc has both min/max forms: the same first values */
		if (s.has_bounds && s.legacy_min.present && s.legacy_min.n > 0)
		{
			bc_stats_bound_iter it;
			bc_stats_list l = s.legacy_min;
			const uint8_t *a,
					   *b,
					   *unused;
			size_t		alen,
						blen,
						ulen;
			int			is_null,
						got;

			bc_stats_bound_iter_init(&it, &s, &s.min_bound);
			CHECK(bc_stats_bound_iter_next(&it, &a, &alen, &is_null, &got) == BC_OK && got &&
				  bc_stats_list_next(&l, &b, &blen, &unused, &ulen) &&
				  alen == blen && memcmp(a, b, alen) == 0,
				  "%s: improved and legacy min clustering differ", rel);
			bounds++;
		}

		/* the ratio is finite and not negative */
		CHECK(bc_droppable_ratio(&s, INT64_C(4000000000)) >= 0.0, "%s: droppable", rel);
		free(file);
	}
	unit_tsv_close(&t);
	CHECK(whole >= 140, "only %d read to the last byte", whole);
	CHECK(prerelease == 4, "%d pre-release na files", prerelease);
	CHECK(key_ranges >= 15, "only %d key ranges", key_ranges);
	CHECK(rows >= 90, "only %d row counts", rows);
	CHECK(encodings >= 90, "only %d encoding stats", encodings);
	CHECK(bounds >= 4, "only %d nc files with both min/max forms", bounds);
}

/*
 * DataStax's eight versions (sstables-datastax/): every component read to
 * its last byte, the DSE fields after the pending repair included
 * (bc_statistics_stats.c, read_dse_fields), and the facts each version
 * stores (datastax/cassandra's BtiFormat.BtiVersion): isTransient from ca,
 * the partition level deletions marker from ba (false: the legacy tables
 * delete no partition), the originating host id in ad, bb and from ca (set
 * in every file), the token space coverage from cb (NaN in cb, as
 * Cassandra writes it when unknown; 1.0 in cc).
 */
static void
datastax_files(void)
{
	static const struct
	{
		const char *rel;
		int			transient,
					pld,
					host,
					coverage;	/* 0 none, 1 NaN, 2 one */
	}			ds[] = {
		{"aa/legacy_tables/legacy_aa_clust/aa-1-bti", 0, 0, 0, 0},
		{"aa/legacy_tables/legacy_aa_clust_compact/aa-1-bti", 0, 0, 0, 0},
		{"aa/legacy_tables/legacy_aa_inaccurate_min_max/aa-1-bti", 0, 0, 0, 0},
		{"aa/legacy_tables/legacy_aa_simple/aa-1-bti", 0, 0, 0, 0},
		{"ac/legacy_tables/legacy_ac_clust/ac-1-bti", 0, 0, 0, 0},
		{"ac/legacy_tables/legacy_ac_simple/ac-1-bti", 0, 0, 0, 0},
		{"ad/legacy_tables/legacy_ad_clust/ad-1-bti", 0, 0, 1, 0},
		{"ad/legacy_tables/legacy_ad_simple/ad-1-bti", 0, 0, 1, 0},
		{"ba/legacy_tables/legacy_ba_clust/ba-1-bti", 0, 1, 0, 0},
		{"ba/legacy_tables/legacy_ba_simple/ba-1-bti", 0, 1, 0, 0},
		{"bb/legacy_tables/legacy_bb_clust/bb-1-bti", 0, 1, 1, 0},
		{"bb/legacy_tables/legacy_bb_simple/bb-1-bti", 0, 1, 1, 0},
		{"ca/legacy_tables/legacy_ca_clust/ca-1-bti", 1, 1, 1, 0},
		{"ca/legacy_tables/legacy_ca_simple/ca-1-bti", 1, 1, 1, 0},
		{"cb/legacy_tables/legacy_cb_clust/cb-3g3i_16ov_3sj4g2pdpcdz177rbj-bti", 1, 1, 1, 1},
		{"cb/legacy_tables/legacy_cb_simple/cb-3g3i_16ov_4qlz52pdpcdz177rbj-bti", 1, 1, 1, 1},
		{"cc/legacy_tables/legacy_cc_clust/cc-3gdv_0vos_4v40g2l3kqtv0q1se8-bti", 1, 1, 1, 2},
		{"cc/legacy_tables/legacy_cc_simple/cc-3gdv_0vos_48lts2l3kqtv0q1se8-bti", 1, 1, 1, 2},
	};
	size_t		i;

	for (i = 0; i < sizeof(ds) / sizeof(ds[0]); i++)
	{
		char		rel[512];
		uint8_t    *file;
		size_t		len;
		bc_statistics s;
		bc_status	rc;

		snprintf(rel, sizeof(rel), "sstables-datastax/%s-Statistics.db", ds[i].rel);
		file = unit_read_file(unit_path(rel), &len);
		CHECK(file != NULL, "cannot read %s", rel);
		if (file == NULL)
			continue;
		rc = bc_statistics_parse(file, len, ds[i].rel, 2, &s);
		CHECK(rc == BC_OK && s.detail_status == BC_OK, "%s: %s", rel, bc_status_message(rc));
		if (rc == BC_OK)
		{
			CHECK(s.tail[0] == 0 && s.tail[1] == 0 && s.tail[2] == 0 && s.tail[3] == 0,
				  "%s: bytes after the last field: %lld %lld %lld %lld", rel,
				  (long long) s.tail[0], (long long) s.tail[1], (long long) s.tail[2],
				  (long long) s.tail[3]);
			CHECK(s.stores_pending_repair && s.pending_repair == NULL, "%s: pending repair", rel);
			CHECK(s.has_is_transient == ds[i].transient && !s.is_transient, "%s: isTransient", rel);
			CHECK(s.has_pld == ds[i].pld && !s.has_partition_level_deletions, "%s: marker", rel);
			CHECK(s.stores_host_id == ds[i].host &&
				  (s.originating_host_id != NULL) == ds[i].host, "%s: host id", rel);
			CHECK(s.has_token_space_coverage == (ds[i].coverage > 0) &&
				  (ds[i].coverage != 1 || s.token_space_coverage != s.token_space_coverage) &&
				  (ds[i].coverage != 2 || s.token_space_coverage == 1.0), "%s: coverage", rel);
		}
		free(file);
	}
}

/*
 * DataStax's max column value lengths (ba, bb) with a count the component
 * cannot hold: its BE32 count set to 2^31 - 1 and to 0xffffffff, the
 * component's CRC32 written again so that the count, not the checksum, is
 * what is refused: the detail refused (a count: field or truncated), the
 * first facts still read; an empty list (count 0) leaves bytes after the
 * last field.  The count sits after the commit log intervals, the pending
 * repair byte (0), the zero-copy byte (0) and the NodeSync long.
 */
static void
dse_count(void)
{
	const char *rel = "sstables-datastax/ba/legacy_tables/legacy_ba_clust/ba-1-bti-Statistics.db";
	uint8_t    *file;
	size_t		len,
				at,
				stop;
	bc_statistics s;
	int			k;

	file = unit_read_file(unit_path(rel), &len);
	CHECK(file != NULL, "cannot read %s", rel);
	if (file == NULL)
		return;
	CHECK(bc_statistics_parse(file, len, "ba", 2, &s) == BC_OK && s.clog_intervals != NULL,
		  "ba parses");
	at = (size_t) (s.clog_intervals - file) + 24 * (size_t) s.clog_interval_n + 1 + 1 + 8;
	/* the stats component is the third (types 0, 1, 2, 3 in order): it
	 * ends four bytes before the header's offset */
	stop = bc_get_be32(file + 8 + 8 * 3 + 4) - 4;
	CHECK(at + 4 <= stop && bc_get_be32(file + 8 + 8 * 2) == 2, "count at %zu, stats end %zu", at, stop);
	for (k = 0; k < 3; k++)
	{
		uint8_t    *copy = malloc(len);
		size_t		start = bc_get_be32(file + 8 + 8 * 2 + 4);
		bc_status	rc;

		memcpy(copy, file, len);
		bc_put_be32(copy + at, k == 0 ? 0x7fffffffu : k == 1 ? 0xffffffffu : 0);
		bc_put_be32(copy + stop, (uint32_t) crc32(0, copy + start, (uInt) (stop - start)));
		rc = bc_statistics_parse(copy, len, "ba", 2, &s);
		CHECK(rc == BC_OK && s.partitions == 5, "count %d: %s", k, bc_status_message(rc));
		if (k < 2)
			CHECK(s.detail_status == BC_ERR_STATS_FIELD || s.detail_status == BC_ERR_STATS_TRUNCATED,
				  "count %d: detail %s", k, bc_status_message(s.detail_status));
		else
			CHECK(s.detail_status == BC_OK && s.tail[2] > 0, "count 0: %s, tail %lld",
				  bc_status_message(s.detail_status), (long long) s.tail[2]);
		free(copy);
	}
	free(file);
}

/* a legacy (double, long) or wide (long, int) bin */
static void
put_bin(uint8_t *p, int wide, int64_t point, int64_t count)
{
	if (wide)
	{
		bc_put_be64(p, (uint64_t) point);
		bc_put_be32(p + 8, (uint32_t) count);
	}
	else
	{
		double		d = (double) point;
		uint64_t	bits;

		memcpy(&bits, &d, sizeof(bits));
		bc_put_be64(p, bits);
		bc_put_be64(p + 8, (uint64_t) count);
	}
}

/*
 * DataHolder.sum(b): points 100 (2 tombstones) and 200 (4): at 150,
 * weight 0.5, mb = 2 + (4 - 2) * 0.5 = 3, sum = 2 - 2 + (2 + 3) * 0.5 / 2
 * + 2 / 2.0 = 2.25; at 100 itself the same interpolation with weight 0:
 * 2 - 2 + 0 + 1 = 1 (half the point's tombstones, as Cassandra counts
 * them); at 200 and past it, 6 (no point after: the plain sum); before
 * 100, 0.  In any order in the file, equal points added up
 * (DataHolder.addValue).
 */
static void
tombstone_sum(void)
{
	uint8_t		bins[4 * 16];
	bc_tomb_histogram h;
	int			wide;

	for (wide = 0; wide <= 1; wide++)
	{
		size_t		sz = wide ? 12 : 16;

		h.bins = bins;
		h.wide = wide;
		h.n = 2;
		put_bin(bins, wide, 100, 2);
		put_bin(bins + sz, wide, 200, 4);
		CHECK(bc_tomb_sum(&h, 50) == 0.0, "wide %d: before", wide);
		CHECK(bc_tomb_sum(&h, 100) == 1.0, "wide %d: at the first", wide);
		CHECK(bc_tomb_sum(&h, 150) == 2.25, "wide %d: between: %g", wide, bc_tomb_sum(&h, 150));
		CHECK(bc_tomb_sum(&h, 200) == 6.0, "wide %d: at the last", wide);
		CHECK(bc_tomb_sum(&h, INT64_C(1) << 40) == 6.0, "wide %d: far after (int cast)", wide);
		/* reversed, and the 2 split in two bins of one point */
		h.n = 3;
		put_bin(bins, wide, 200, 4);
		put_bin(bins + sz, wide, 100, 1);
		put_bin(bins + 2 * sz, wide, 100, 1);
		CHECK(bc_tomb_sum(&h, 150) == 2.25, "wide %d: unordered: %g", wide, bc_tomb_sum(&h, 150));
		CHECK(bc_tomb_sum(&h, 100) == 1.0, "wide %d: unordered at the first", wide);
	}
	/* the deserializers' casts: a negative point is the cap */
	h.bins = bins;
	h.n = 1;
	h.wide = 0;
	put_bin(bins, 0, -5, INT64_C(1) << 40);
	{
		int64_t		p;
		int32_t		c;

		bc_tomb_bin(&h, 0, &p, &c);
		CHECK(p == 2147483646 && c == INT32_MAX, "legacy casts: %lld %d", (long long) p, c);
		h.wide = 1;
		put_bin(bins, 1, -5, 7);
		bc_tomb_bin(&h, 0, &p, &c);
		CHECK(p == INT64_C(4294967294) && c == 7, "wide casts: %lld %d", (long long) p, c);
	}
}

/*
 * EstimatedHistogram: entries (offset, count) (1, 0) (2, 3) (4, 1) (5, 9):
 * bucket i's offset is entry i + 1's (2, 4, 5), the last counts nothing
 * for count() and mean() once cleared: count 4, mean ceil((0 * 2 + 3 * 4
 * + 1 * 5) / 4) = ceil(4.25) = 5; droppable = sum / (5 * 4).
 */
static void
estimated(void)
{
	uint8_t		e[4 * 16];
	static const int64_t offs[4] = {1, 2, 4, 5},
				counts[4] = {0, 3, 1, 9};
	bc_statistics s;
	int64_t		bound,
				count;
	int			has,
				i;

	for (i = 0; i < 4; i++)
	{
		bc_put_be64(e + 16 * i, (uint64_t) offs[i]);
		bc_put_be64(e + 16 * i + 8, (uint64_t) counts[i]);
	}
	memset(&s, 0, sizeof(s));
	s.column_counts.entries = e;
	s.column_counts.n = 4;
	CHECK(bc_est_count(&s.column_counts) == 4, "count");
	CHECK(bc_est_mean(&s.column_counts) == 5, "mean %lld", (long long) bc_est_mean(&s.column_counts));
	bc_est_bucket(&s.column_counts, 0, &bound, &has, &count);
	CHECK(has && bound == 2 && count == 0, "bucket 0");
	bc_est_bucket(&s.column_counts, 3, &bound, &has, &count);
	CHECK(!has && count == 9, "overflow bucket");
	{
		uint8_t		bins[16];

		put_bin(bins, 0, 100, 2);
		s.tombstones.bins = bins;
		s.tombstones.n = 1;
		CHECK(bc_droppable_ratio(&s, 100) == 2.0 / 20.0, "ratio (one point: the plain sum)");
		CHECK(bc_droppable_ratio(&s, 99) == 0.0, "ratio before");
		s.column_counts.n = 1;	/* only the overflow bucket: no cells */
		CHECK(bc_droppable_ratio(&s, 100) == 0.0, "ratio without cells");
	}
}

/*
 * Malformed stats of a real ma file: every four bytes of the stats
 * component set to 0x7fffffff and to 0xffffffff in turn: the parse gives
 * an error status or a result, never a read outside the copy (ASan), and
 * the facts of cassandra_statistics are unchanged when only the detail
 * is refused.
 */
static void
mutated(void)
{
	const char *rel = "sstables/cassandra/legacy-sstables/ma/legacy_tables/legacy_ma_clust/ma-1-big-Statistics.db";
	uint8_t    *file;
	size_t		len,
				i,
				stats = 0,
				stats_end;
	bc_statistics orig;
	int			refused = 0,
				k;

	file = unit_read_file(unit_path(rel), &len);
	CHECK(file != NULL, "cannot read %s", rel);
	if (file == NULL)
		return;
	CHECK(bc_statistics_parse(file, len, "ma", 2, &orig) == BC_OK, "ma parses");
	for (i = 0; i < 4; i++)
		if (bc_get_be32(file + 4 + 8 * i) == 2)
			stats = bc_get_be32(file + 8 + 8 * i);
	stats_end = bc_get_be32(file + 4 + 8 * 3 + 4);
	CHECK(stats > 0 && stats_end > stats && stats_end <= len, "stats at %zu..%zu", stats, stats_end);
	for (i = stats; i + 4 <= stats_end; i++)
		for (k = 0; k < 2; k++)
		{
			uint8_t    *copy = malloc(len);
			bc_statistics s;
			bc_status	rc;

			memcpy(copy, file, len);
			bc_put_be32(copy + i, k ? 0xffffffffu : 0x7fffffffu);
			rc = bc_statistics_parse(copy, len, "ma", 2, &s);
			if (rc == BC_OK && s.detail_status != BC_OK)
			{
				refused++;
				CHECK(s.partitioner_len == orig.partitioner_len && s.fp_chance == orig.fp_chance,
					  "offset %zu: facts changed", i);
			}
			free(copy);
		}
	CHECK(refused > 0, "no mutation refused the detail");
	free(file);
}

void
suite_metadata(void)
{
	real_files();
	datastax_files();
	dse_count();
	tombstone_sum();
	estimated();
	mutated();
}
