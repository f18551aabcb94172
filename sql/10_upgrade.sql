--
-- Upgrade path: values stored under the first released version (1.0) are
-- intact after ALTER EXTENSION ... UPDATE, and the new version's features
-- work on them.
--
SELECT current_user AS test_user, test_path('') AS data_dir \gset
CREATE DATABASE bloomcass_upgrade;
\c bloomcass_upgrade :test_user
CREATE EXTENSION bloomcass VERSION '1.0';
SELECT extversion FROM pg_extension WHERE extname = 'bloomcass';

CREATE TABLE stored (id int PRIMARY KEY, kind text, f bloom);
INSERT INTO stored VALUES
	(1, 'empty', bloom_create(0)),
	(2, 'aggregated', (SELECT bloom_agg(g) FROM generate_series(1, 10000) g)),
	(3, 'old order (ka)', bloom_import(pg_read_binary_file(:'data_dir' || 'real-filters/cassandra-test-data/bloom-filter-ka/foo-atable-ka-1-Filter.db'), 'ka')),
	(4, 'swapped (mc)', bloom_import_file(:'data_dir' || 'real-filters/cassandra-test-data/legacy-mc-legacy_mc_simple/mc-1-big-Filter.db')),
	(5, '2.5 MB (na)', bloom_import(pg_read_binary_file(:'data_dir' || 'real-filters/cassandra-test-data/serialization-4.0-BloomFilter1000/utils.BloomFilter1000.bin'), 'na')),
	(6, 'old order agg', (SELECT bloom_agg(g, 0.1, 'lb') FROM generate_series(1, 1000) g));
CREATE TABLE before_update AS SELECT id, md5(f::text) AS text_md5, md5(bloom_send(f)) AS binary_md5 FROM stored;

-- 1.0 has no hash support for the type
SELECT count(*) FROM (SELECT DISTINCT f FROM stored) s;

ALTER EXTENSION bloomcass UPDATE TO '1.1';
SELECT extversion FROM pg_extension WHERE extname = 'bloomcass';

SELECT s.id, s.kind, md5(s.f::text) = b.text_md5 AND md5(bloom_send(s.f)) = b.binary_md5 AS intact,
       (bloom_info(s.f)).hash_order, (bloom_info(s.f)).bits_set
FROM stored s JOIN before_update b USING (id) ORDER BY s.id;
SELECT bool_and(f @> g) AS keys_still_present FROM stored, generate_series(1, 10000) g WHERE id = 2;

-- 1.1: hash support (DISTINCT, GROUP BY, hash partitioning)
INSERT INTO stored SELECT id + 100, kind, f FROM stored;
SELECT count(*) AS distinct_filters FROM (SELECT DISTINCT f FROM stored) s;
SELECT kind, count(*) FROM stored GROUP BY kind, f ORDER BY kind;
CREATE TABLE parted (f bloom) PARTITION BY HASH (f);
CREATE TABLE parted_0 PARTITION OF parted FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE parted_1 PARTITION OF parted FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO parted SELECT f FROM stored;
SELECT count(*) AS partitioned_rows FROM parted;

-- 1.2: the rest of the SSTable; stored values stay intact
ALTER EXTENSION bloomcass UPDATE TO '1.2';
SELECT extversion FROM pg_extension WHERE extname = 'bloomcass';
SELECT p.proname AS added_in_1_2
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'bloomcass')
  AND p.proname IN ('cassandra_sstables', 'cassandra_sstable_keys', 'cassandra_statistics',
                    'cassandra_summary', 'cassandra_index_keys', 'bloom_health')
ORDER BY 1;
SELECT s.id, s.kind, md5(s.f::text) = b.text_md5 AND md5(bloom_send(s.f)) = b.binary_md5 AS intact
FROM stored s JOIN before_update b USING (id) ORDER BY s.id;
-- a stored filter is the one the listing reads from its file
SET client_min_messages = error;
SELECT s.f = l.filter AS stored_equals_listed
FROM stored s, cassandra_sstables(:'data_dir' || 'sstables/cassandra/legacy-sstables/mc/legacy_tables/legacy_mc_simple') l
WHERE s.id = 4;
RESET client_min_messages;

\c contrib_regression :test_user
DROP DATABASE bloomcass_upgrade;

-- the same hash support on the catalog 01_setup upgraded
SELECT count(*) AS distinct_filters FROM (SELECT DISTINCT f FROM (VALUES (bloom_create(1)), (bloom_create(1)), (bloom_create(100))) v(f)) s;
