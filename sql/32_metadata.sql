--
-- Everything Statistics.db holds: cassandra_metadata (bytes) and
-- cassandra_sstable_metadata (a file on the server), the histograms and the
-- droppable tombstone ratio, over every real SSTable of sstables/ and
-- sstables-datastax/, checked against facts that come from elsewhere: the
-- partition counts and first and last keys of sstables/MANIFEST.tsv
-- (derived without bloomcass from Index.db / Partitions.db), the partition
-- size histogram's total, total rows against partitions, and the
-- serialization header's EncodingStats against the stats' minima.  Then
-- malformed bytes: counts and names the file cannot hold.
--
CREATE TEMP TABLE md_files AS
SELECT m.dir || '/' || m.descriptor AS sstable, m.version, m.partitions, m.first_key,
       m.last_key, coalesce(m.note LIKE '%ARTIFACT%', false) AS artifact,
       'sstables/' || m.dir || '/' || m.descriptor || '-Statistics.db' AS rel,
       m.prefix || '-Statistics.db' AS path
FROM sstable_manifest m
WHERE 'Statistics.db' = ANY (m.components) AND m.version NOT IN ('b', 'e', 'hb')
UNION ALL
SELECT 'datastax/' || f, substr(regexp_replace(f, '^.*/', ''), 1, 2), NULL, NULL, NULL, false,
       'sstables-datastax/' || f, test_path('sstables-datastax/' || f)
FROM (SELECT v FROM pg_ls_dir(test_path('sstables-datastax')) AS v(v) WHERE v ~ '^[a-z]{2}$') v,
     LATERAL pg_ls_dir(test_path('sstables-datastax/' || v)) AS k(k),
     LATERAL pg_ls_dir(test_path('sstables-datastax/' || v || '/' || k)) AS t(t),
     LATERAL pg_ls_dir(test_path('sstables-datastax/' || v || '/' || k || '/' || t)) AS c(c),
     LATERAL (SELECT v || '/' || k || '/' || t || '/' || c AS f) p
WHERE c LIKE '%-Statistics.db';

-- run stmt with one bytea and one text argument: the error, if any
CREATE FUNCTION md_try(stmt text, data bytea, arg text, OUT state text, OUT message text)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE stmt USING data, arg;
	state := '00000';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT;
END $$;

-- the 4.0 pre-release artifacts (named na, written before isTransient was
-- added to the stats) have stats no Cassandra release reads: refused with
-- what is wrong; cassandra_statistics still reads their first facts
SELECT f.sstable, t.state, t.message,
       (SELECT partitions FROM cassandra_statistics(test_file(f.rel), f.version)) AS partitions
FROM md_files f,
     LATERAL md_try('SELECT cassandra_metadata($1, $2)', test_file(f.rel), f.version) t
WHERE t.state <> '00000' OR f.artifact
ORDER BY f.sstable COLLATE "C";

CREATE TEMP TABLE md AS
SELECT f.sstable, f.version, f.partitions AS manifest_partitions, f.first_key AS manifest_first,
       f.last_key AS manifest_last, f.rel, f.path, r.*
FROM md_files f CROSS JOIN LATERAL cassandra_metadata(test_file(f.rel), f.version) r
WHERE NOT f.artifact;

-- every SSTable read, and each fact checked where the version stores it
SELECT count(*) AS parsed,
       count(*) FILTER (WHERE partitions = manifest_partitions) AS partitions_as_manifest,
       count(*) FILTER (WHERE manifest_partitions IS NULL) AS datastax,
       count(first_key) AS with_key_range,
       count(*) FILTER (WHERE first_key = manifest_first AND last_key = manifest_last) AS key_range_as_manifest,
       count(total_rows) AS with_total_rows,
       count(*) FILTER (WHERE total_rows >= partitions) AS rows_at_least_partitions,
       count(encoding_min_timestamp) AS with_encoding_stats,
       count(*) FILTER (WHERE encoding_min_timestamp <= min_timestamp) AS encoding_timestamp_ok,
       count(*) FILTER (WHERE encoding_min_ttl <= min_ttl) AS encoding_ttl_ok,
       count(*) FILTER (WHERE min_timestamp <= max_timestamp) AS timestamps_ordered,
       count(*) FILTER (WHERE checksummed) AS checksummed
FROM md;

-- a key range that is not the manifest's, rows fewer than partitions,
-- EncodingStats above the stats' minima: only an SSTable of Cassandra's
-- tests holding a partition deletion without rows (3 partitions, 2 rows:
-- its partition level deletions marker says so)
SELECT sstable, partitions, manifest_partitions, total_rows, has_partition_level_deletions,
       encoding_min_timestamp, min_timestamp, encoding_min_ttl, min_ttl
FROM md
WHERE partitions IS DISTINCT FROM coalesce(manifest_partitions, partitions)
   OR (first_key IS NOT NULL AND manifest_first IS NOT NULL AND
       (first_key <> manifest_first OR last_key <> manifest_last))
   OR total_rows < partitions OR encoding_min_timestamp > min_timestamp
   OR encoding_min_ttl > min_ttl
ORDER BY sstable COLLATE "C";

-- what each version stores: the columns NULL or not, per version
SELECT version, count(*) AS sstables,
       bool_and(min_timestamp IS NOT NULL) AS min_ts,
       bool_and(min_ttl IS NOT NULL) AS ttl,
       bool_and(sstable_level IS NOT NULL) AS level,
       bool_and(repaired_at IS NOT NULL) AS repaired,
       bool_and(is_transient IS NOT NULL) AS transient,
       bool_or(originating_host_id IS NOT NULL) AS host_id,
       bool_and(total_rows IS NOT NULL) AS rows,
       bool_and(has_partition_level_deletions IS NOT NULL) AS pld,
       bool_and(token_space_coverage IS NOT NULL) AS coverage,
       bool_and(encoding_min_timestamp IS NOT NULL) AS encoding,
       bool_and(min_clustering_values IS NOT NULL) AS clustering,
       bool_and(first_key IS NOT NULL) AS key_range
FROM md GROUP BY version ORDER BY version;

-- one SSTable of each layout, every column (the clustering values, 1,000
-- characters each here, by their lengths)
\x on
SELECT sstable, partitioner, fp_chance, partitions, key_type, min_timestamp, max_timestamp,
       min_time, max_time, min_local_deletion_time, max_local_deletion_time, min_ttl, max_ttl,
       compression_ratio, sstable_level, repaired_at, pending_repair, is_transient,
       originating_host_id, total_rows, total_columns_set, has_legacy_counter_shards,
       token_space_coverage, has_partition_level_deletions, commit_log_intervals,
       encoding_min_timestamp, encoding_min_local_deletion_time, encoding_min_ttl,
       clustering_types, static_columns, regular_columns,
       (SELECT array_agg(octet_length(v)) FROM unnest(min_clustering_values) v) AS min_clustering_lengths,
       (SELECT array_agg(substr(v, 1, 4)) FROM unnest(min_clustering_values) v) AS min_clustering_starts,
       (SELECT array_agg(substr(v, 1, 4)) FROM unnest(max_clustering_values) v) AS max_clustering_starts,
       first_key, last_key, checksummed
FROM md
WHERE sstable IN ('cassandra/legacy-sstables/jb/legacy_tables/legacy_jb_clust/legacy_tables-legacy_jb_clust-jb-1',
                  'cassandra/legacy-sstables/la/legacy_tables/legacy_la_clust/la-1-big',
                  'cassandra/legacy-sstables/mc/legacy_tables/legacy_mc_clust/mc-1-big',
                  'cassandra/legacy-sstables/nc/legacy_tables/legacy_nc_clust/nc-1-big',
                  'cassandra/legacy-sstables/da/legacy_tables/legacy_da_clust/da-1-bti',
                  'cassandra/negative-ldts-invalid-deletions-test/invalid_partition_deletion/nc-1-big',
                  'sstable-transformer/clickhouse/src/test/resources/sstables/oa-13-big',
                  'datastax/cc/legacy_tables/legacy_cc_clust/cc-3gdv_0vos_4v40g2l3kqtv0q1se8-bti-Statistics.db')
ORDER BY sstable COLLATE "C";
\x off

-- the server-file form agrees with the bytes' for every SSTable
SELECT count(*) AS same_from_file
FROM md CROSS JOIN LATERAL cassandra_sstable_metadata(md.path) s
WHERE row(s.*)::text = (SELECT row(r.*)::text FROM cassandra_metadata(test_file(md.rel), md.version) r);

-- the histograms: the partition size histogram's total is the partition
-- count, every bucket and bin is listed
SELECT count(*) AS sstables,
       count(*) FILTER (WHERE h.partition_total = md.partitions) AS partition_total_ok,
       sum(h.buckets) AS buckets, sum(h.bins) AS tombstone_bins,
       count(*) FILTER (WHERE h.unbounded = 2) AS two_overflow_buckets
FROM md CROSS JOIN LATERAL (
	SELECT sum(count) FILTER (WHERE histogram = 'partition_size') AS partition_total,
	       count(*) FILTER (WHERE histogram <> 'tombstone_drop_time') AS buckets,
	       count(*) FILTER (WHERE histogram = 'tombstone_drop_time') AS bins,
	       count(*) FILTER (WHERE bound IS NULL) AS unbounded
	FROM cassandra_metadata_histograms(test_file(md.rel), md.version)) h;

SELECT histogram, bound, count
FROM cassandra_metadata_histograms(test_file('sstables/cassandra/legacy-sstables/ma/legacy_tables/legacy_ma_clust/ma-1-big-Statistics.db'), 'ma')
WHERE count > 0 OR bound IS NULL;

-- the SSTables with tombstones: their drop times, and the droppable ratio
-- (sstablemetadata -g) before the first, between and after the last
SELECT md.sstable, h.bound AS drop_time, h.count,
       cassandra_droppable_tombstones(test_file(md.rel), md.version, 0) AS before_any,
       cassandra_droppable_tombstones(test_file(md.rel), md.version, h.bound) AS at_point,
       cassandra_droppable_tombstones(test_file(md.rel), md.version, 4000000000) AS after_all
FROM md CROSS JOIN LATERAL cassandra_metadata_histograms(test_file(md.rel), md.version) h
WHERE h.histogram = 'tombstone_drop_time'
ORDER BY md.sstable COLLATE "C", h.bound;

------------------------------------------------------------------------------
-- malformed bytes: 22P03 naming Statistics.db, never an allocation by a
-- count the file cannot hold
------------------------------------------------------------------------------
CREATE TEMP TABLE md_ma AS
SELECT test_file('sstables/cassandra/legacy-sstables/ma/legacy_tables/legacy_ma_clust/ma-1-big-Statistics.db') AS d;
-- the stats component's offset (type 2 in the table of contents) and the
-- cell count histogram's length after the partition size histogram
CREATE TEMP TABLE md_at AS
SELECT s.stats, s.stats + 4 + 16 * ((get_byte(d, s.stats) << 24) | (get_byte(d, s.stats + 1) << 16) |
                                     (get_byte(d, s.stats + 2) << 8) | get_byte(d, s.stats + 3)) AS cells
FROM md_ma, LATERAL (SELECT (get_byte(d, 4 + 8 * i + 4) << 24 | get_byte(d, 4 + 8 * i + 5) << 16 |
                             get_byte(d, 4 + 8 * i + 6) << 8 | get_byte(d, 4 + 8 * i + 7)) AS stats
                     FROM generate_series(0, 3) i WHERE get_byte(d, 4 + 8 * i + 3) = 2) s;

-- a cell count histogram of 2^31 - 1 entries: refused by cassandra_metadata
-- (the partition count before it is still cassandra_statistics's)
SELECT t.state, t.message,
       (SELECT partitions FROM cassandra_statistics(m.d2, 'ma')) AS partitions
FROM md_ma, md_at,
     LATERAL (SELECT overlay(d PLACING '\x7fffffff'::bytea FROM cells + 1) AS d2) m,
     LATERAL md_try('SELECT cassandra_metadata($1, $2)', m.d2, 'ma') t;
SELECT t.state, t.message
FROM md_ma, md_at,
     LATERAL md_try('SELECT count(*) FROM cassandra_metadata_histograms($1, $2)',
                    overlay(d PLACING '\x7fffffff'::bytea FROM cells + 1), 'ma') t;
SELECT t.state, t.message
FROM md_ma, md_at,
     LATERAL md_try('SELECT cassandra_droppable_tombstones($1, $2, 0)',
                    overlay(d PLACING '\xffffffff'::bytea FROM cells + 1), 'ma') t;
-- the partition size histogram's length: refused by both
SELECT t.state, t.message
FROM md_ma, md_at,
     LATERAL md_try('SELECT cassandra_metadata($1, $2)',
                    overlay(d PLACING '\x10000000'::bytea FROM stats + 1), 'ma') t;

-- the header's regular columns: a count of 127 where one is written (the
-- component cannot hold them: refused by both), and a type name with a
-- control byte (reported as text: refused by cassandra_metadata only)
SELECT t.state, t.message
FROM md_ma, LATERAL (SELECT position('\x0376616c'::bytea IN d) AS col) p,
     LATERAL md_try('SELECT cassandra_metadata($1, $2)',
                    overlay(d PLACING '\x7f'::bytea FROM col - 1), 'ma') t;
SELECT t.state, t.message
FROM md_ma, LATERAL (SELECT position('\x0376616c'::bytea IN d) AS col) p,
     LATERAL md_try('SELECT cassandra_statistics($1, $2)',
                    overlay(d PLACING '\x7f'::bytea FROM col - 1), 'ma') t;
SELECT t.state, t.message,
       (SELECT key_type FROM cassandra_statistics(overlay(d PLACING '\x01'::bytea FROM col + 10), 'ma')) AS key_type
FROM md_ma, LATERAL (SELECT position('\x0376616c'::bytea IN d) AS col) p,
     LATERAL md_try('SELECT cassandra_metadata($1, $2)',
                    overlay(d PLACING '\x01'::bytea FROM col + 10), 'ma') t;

-- a file too short, a version bloomcass does not read, a missing file
SELECT t.state, t.message FROM md_try('SELECT cassandra_metadata($1, $2)', '\x000000', 'nb') t;
SELECT t.state, t.message FROM md_try('SELECT cassandra_metadata($1, $2)', '\x00000000', 'hb') t;
SELECT t.state, t.message FROM md_try('SELECT cassandra_metadata($1, $2)', '\x00000000', 'zz') t;
SELECT t.state, replace(t.message, (SELECT datadir FROM test_config), '$DATA') AS message
FROM md_try('SELECT cassandra_sstable_metadata($2)', NULL, test_path('nowhere/nb-1-big-Data.db')) t;

-- the server file is read with pg_read_binary_file's privileges
SELECT test_path('sstables/cassandra/legacy-sstables/nb/legacy_tables/legacy_nb_clust/nb-1-big') AS md_path \gset
CREATE ROLE regress_bloomcass_metadata;
SET ROLE regress_bloomcass_metadata;
SELECT t.state, t.message FROM md_try('SELECT cassandra_sstable_metadata($2)', NULL, :'md_path') t;
RESET ROLE;
DROP ROLE regress_bloomcass_metadata;
