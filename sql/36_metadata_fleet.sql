--
-- The facts no real SSTable within reach sets, on the Statistics.db files
-- of test/data/statistics (written field by field by test/tools/make_stats.c
-- as Cassandra's and ScyllaDB's serializers write them; its README lists
-- each file's facts): repaired_at, a pending repair, is_transient, levels
-- above 0, TTLs, 5.0's unsigned local deletion times past 2038, "no
-- deletion" as NULL, and the histograms and droppable tombstone ratios
-- that follow from the bins written.  Each value below is the one written.
--
CREATE TEMP TABLE fleet_stats(name text, version text, rel text);
INSERT INTO fleet_stats VALUES
	('repaired_ma', 'ma', 'statistics/repaired_ma/ma-1-big-Statistics.db'),
	('level_mc', 'mc', 'statistics/level_mc/mc-1-big-Statistics.db'),
	('live_md', 'md', 'statistics/live_md/md-1-big-Statistics.db'),
	('scylla_me', 'me', 'statistics/scylla_me/me-1-big-Statistics.db'),
	('pending_nb', 'nb', 'statistics/pending_nb/nb-1-big-Statistics.db'),
	('uint_oa', 'oa', 'statistics/uint_oa/oa-1-big-Statistics.db'),
	('live_oa', 'oa', 'statistics/live_oa/oa-1-big-Statistics.db'),
	('pending_da', 'da', 'statistics/pending_da/da-1-bti-Statistics.db');

-- repair state, level, TTLs and deletion times (seconds as written; the
-- oa and da times are unsigned: 2366413200 is past 2^31 - 1, 2044)
SELECT f.name, m.partitions, m.sstable_level, m.repaired_at, m.pending_repair, m.is_transient,
       m.originating_host_id, m.min_ttl, m.max_ttl
FROM fleet_stats f, cassandra_metadata(test_file(f.rel), f.version) m
ORDER BY f.name;

SET TimeZone = 'UTC';
SELECT f.name, m.min_timestamp, m.max_time, m.min_local_deletion_time, m.max_local_deletion_time,
       to_timestamp(m.max_local_deletion_time) AS all_dead_since,
       m.encoding_min_local_deletion_time, m.compression_ratio
FROM fleet_stats f, cassandra_metadata(test_file(f.rel), f.version) m
ORDER BY f.name;

SELECT f.name, m.total_rows, m.total_columns_set, m.has_partition_level_deletions,
       m.token_space_coverage, m.first_key, m.last_key, m.commit_log_intervals,
       m.clustering_types, m.regular_columns, m.min_clustering_values, m.max_clustering_values,
       m.checksummed
FROM fleet_stats f, cassandra_metadata(test_file(f.rel), f.version) m
ORDER BY f.name;

-- the histograms: the buckets written (partition sizes 100, 100, 2000 and
-- cell counts 2, 2, 40 in repaired_ma fall in the buckets whose bounds are
-- the first offsets at or above them) and every tombstone bin
SELECT f.name, h.histogram, h.bound, h.count
FROM fleet_stats f, cassandra_metadata_histograms(test_file(f.rel), f.version) h
WHERE h.count > 0
ORDER BY f.name, h.histogram, h.bound;

-- droppable tombstones (StatsMetadata.getEstimatedDroppableTombstoneRatio):
-- level_mc has 300 tombstones at 1600003600 and 605 at 1600090000, cells
-- 5 and 900 per partition (buckets 5 and 924: mean ceil(929 / 2) = 465,
-- 930 cells): before the first 0; at the first half its bin, 150 / 930;
-- half way 300 - 300 + (300 + 452.5) * 0.5 / 2 + 150 = 338.125, / 930;
-- at the last all 905 / 930.  repaired_ma: 44 at 1700086400 over 3
-- partitions of 2, 2, 40 cells (mean ceil(46 / 3) = 16, 48 cells):
-- 44 / 48.  uint_oa: the wide bins past 2^31 (3 at 2366409600, 6 at
-- 2366413200): gc_before is taken as Java's (int) of it (bc_tomb_sum,
-- DataHolder.sum), 2^31 - 1 at most, so no point past 2038 is at or
-- below it: 0 whatever gc_before.
SELECT f.name, g.gc_before, cassandra_droppable_tombstones(test_file(f.rel), f.version, g.gc_before) AS ratio
FROM fleet_stats f,
     (VALUES (0::bigint), (1600003600), (1600046800), (1600090000), (1700086400),
             (2366409600), (2366413200)) AS g(gc_before)
WHERE f.name IN ('level_mc', 'repaired_ma', 'uint_oa')
ORDER BY f.name, g.gc_before;
SELECT 338.125 / 930 AS half_way, 150.0 / 930 AS at_first, 905.0 / 930 AS at_last, 44.0 / 48 AS ma;

-- the same facts from the server-file form
SELECT count(*) AS same_from_file
FROM fleet_stats f CROSS JOIN LATERAL
     cassandra_sstable_metadata(test_path(regexp_replace(f.rel, '-Statistics\.db$', ''))) s
WHERE row(s.*)::text = (SELECT row(r.*)::text FROM cassandra_metadata(test_file(f.rel), f.version) r);

------------------------------------------------------------------------------
-- cassandra_sstables' stats columns (1.6), read by the parse that gives its
-- partitioner and partitions: on these files (Statistics.db alone: orphaned
-- SSTables, listed with include_inactive), each fact as written
------------------------------------------------------------------------------
SET client_min_messages = error;
SELECT table_name, version, state, min_timestamp, max_timestamp, min_local_deletion_time,
       max_local_deletion_time, min_ttl, max_ttl, sstable_level, repaired_at, pending_repair,
       is_transient
FROM cassandra_sstables(test_path('statistics'), include_inactive => true, read_filters => false)
ORDER BY table_name;
RESET client_min_messages;

-- and on every real SSTable of sstables/: what cassandra_metadata gives for
-- the same Statistics.db (the 4.0 pre-release files, whose stats no release
-- reads, and the versions before 1.2: NULL, as cassandra_metadata refuses
-- them)
SET client_min_messages = error;
CREATE TEMP TABLE fleet_listing AS
SELECT * FROM cassandra_sstables(test_path('sstables'), include_inactive => true, read_filters => false);
RESET client_min_messages;
CREATE FUNCTION fleet_try_metadata(path text, version text) RETURNS SETOF record
LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY SELECT m.min_timestamp, m.max_timestamp, m.min_local_deletion_time,
	                    m.max_local_deletion_time, m.min_ttl, m.max_ttl, m.sstable_level,
	                    m.repaired_at, m.pending_repair, m.is_transient
	FROM cassandra_sstable_metadata(path) m;
EXCEPTION WHEN OTHERS THEN
	RETURN QUERY SELECT NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint,
	                    NULL::bigint, NULL::int, NULL::bigint, NULL::uuid, NULL::boolean;
END $$;
SELECT count(*) AS sstables,
       count(*) FILTER (WHERE (l.min_timestamp, l.max_timestamp, l.min_local_deletion_time,
                               l.max_local_deletion_time, l.min_ttl, l.max_ttl, l.sstable_level,
                               l.repaired_at, l.pending_repair, l.is_transient)
                              IS NOT DISTINCT FROM
                              (m.min_timestamp, m.max_timestamp, m.min_local_deletion_time,
                               m.max_local_deletion_time, m.min_ttl, m.max_ttl, m.sstable_level,
                               m.repaired_at, m.pending_repair, m.is_transient)) AS same_as_metadata,
       count(l.min_timestamp) AS with_timestamps, count(l.repaired_at) AS with_repaired_at,
       count(l.min_ttl) AS with_ttl, count(l.max_local_deletion_time) AS with_deletion,
       count(l.is_transient) AS with_transient
FROM fleet_listing l,
     LATERAL fleet_try_metadata(l.path, l.version)
        AS m(min_timestamp bigint, max_timestamp bigint, min_local_deletion_time bigint,
             max_local_deletion_time bigint, min_ttl bigint, max_ttl bigint, sstable_level int,
             repaired_at bigint, pending_repair uuid, is_transient boolean);
SELECT version, count(*) AS sstables, count(min_timestamp) AS with_timestamps
FROM fleet_listing
WHERE path ~ 'legacy_na_[a-z_]*compact' OR version IN ('b', 'e', 'hb', 'ic', 'jb')
GROUP BY version ORDER BY version;
SET TimeZone = 'UTC';
SELECT keyspace, table_name, version, min_ttl, max_ttl, to_timestamp(max_local_deletion_time) AS all_dead_since
FROM fleet_listing WHERE max_ttl > 0 ORDER BY keyspace, table_name, version;
