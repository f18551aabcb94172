--
-- What else a current node's table folder holds (test/make-node.sh, section
-- "extras": node/extras, listed in node/extras.tsv), passed over quietly and
-- correctly: no WARNING anywhere below (VERBOSITY terse would show one), no
-- row that is not an SSTable, and every other fact as the copy's source
-- gives it.
--
--   nb-1-big  an unchanged copy of nb-1-big
--   nb-2-big  with 5.0 SAI components (SAI+aa+<part>.db, SAI+aa+<index>+
--             <part>.db) and a SASI one (SI_<index>.db), in TOC.txt too
--   nb-3-big  bloom_filter_fp_chance = 1: no Filter.db (nor in TOC.txt), and
--             Statistics.db saying 1.0 (make-node.sh writes the double into a
--             copy of nb-1-big's and computes the CRC32 after the validation
--             component again, as MetadataSerializer checks it: no SSTable of
--             the reference data has fp_chance 1)
--   nb-4-big  Filter.db deleted, Statistics.db saying 0.01: the same NULL
--             filter, no WARNING (as before: a missing component is not read)
--   me-5-big  ScyllaDB's TOC.txt renamed TOC.txt.tmp (being deleted): temporary
--   ms-6-big  ScyllaDB's being written: TOC.txt.tmp and
--             TemporaryHashes.db.tmp beside Data.db: temporary
--   me-7-big  a Statistics.db.tmp (ScyllaDB's TemporaryStatistics) beside a
--             complete SSTable: not a component; live
--
-- and ScyllaDB's table subfolders (sstables/sstable_directory.hh), in
-- s-<id>: staging/ and quarantine/, which ScyllaDB's table_populator loads
-- into the table (replica/distributed_loader.cc): states staging and
-- quarantine, listed by default; upload/, not the table's until nodetool
-- refresh: state upload, listed with include_inactive only; pending_delete/
-- with deletion logs (sstables/sstable_directory.cc): me-6-big, which a
-- sealed log names, obsolete; me-7-big, named by one not sealed (.log.tmp),
-- live; 8.sstable/, where ScyllaDB writes a new SSTable: temporary.  Each is
-- the table s of ks_extras, not a table named after the subfolder.
--
\set VERBOSITY terse

CREATE OR REPLACE FUNCTION rel(p text) RETURNS text LANGUAGE sql STABLE
AS $$ SELECT replace(p, test_path(''), '') $$;

CREATE TABLE extras_expected AS
SELECT f[1] AS rel_path, f[2] AS state, nullif(f[3], '-') AS source, nullif(f[4], '-') AS change
FROM test_tsv('node/extras.tsv');

CREATE TABLE extras_all AS
SELECT * FROM cassandra_sstables(test_path('node/extras'), include_inactive => true);

-- every SSTable, its state and components
SELECT rel(path) AS sstable, state, components
FROM extras_all ORDER BY path COLLATE "C";

-- exactly what make-node.sh made, in the state it says
SELECT coalesce(e.rel_path, rel(n.path)) AS mismatch, e.state AS expected, n.state AS listed
FROM extras_expected e FULL JOIN extras_all n ON rel(n.path) = e.rel_path
WHERE e.state IS DISTINCT FROM n.state;

-- ScyllaDB's subfolders: the table's keyspace and name, the folder's state
SELECT rel(path) AS sstable, keyspace, table_name, state, snapshot
FROM extras_all WHERE path LIKE '%/s-8888%' ORDER BY path COLLATE "C";

-- by default, those the table reads: live, staging, quarantine
SELECT rel(path) AS live FROM cassandra_sstables(test_path('node/extras')) ORDER BY path COLLATE "C";

-- each copy's facts against its source's, listed where it lies
CREATE TABLE extras_sources AS
SELECT DISTINCT ON (l.path) l.*
FROM extras_expected e
JOIN cassandra_sstables(test_path(regexp_replace(e.source, '/[^/]*$', ''))) l
  ON rel(l.path) = e.source
WHERE e.source IS NOT NULL;

SELECT rel(n.path) AS sstable, e.change,
       n.filter IS NOT DISTINCT FROM s.filter AS same_filter,
       n.filter IS NULL AS no_filter,
       n.filter_db_bytes IS NOT DISTINCT FROM s.filter_db_bytes AS same_filter_db_bytes,
       n.fp_chance,
       (n.partitioner, n.partitions, n.key_type, n.first_key, n.last_key, n.data_db_bytes)
         IS NOT DISTINCT FROM (s.partitioner, s.partitions, s.key_type, s.first_key, s.last_key, s.data_db_bytes)
         AS same_other_facts,
       n.components = s.components AS same_components,
       ARRAY(SELECT unnest(n.components) EXCEPT SELECT unnest(s.components) ORDER BY 1) AS added,
       ARRAY(SELECT unnest(s.components) EXCEPT SELECT unnest(n.components) ORDER BY 1) AS removed
FROM extras_expected e JOIN extras_all n ON rel(n.path) = e.rel_path
JOIN extras_sources s ON rel(s.path) = e.source
ORDER BY n.path COLLATE "C";

-- ScyllaDB's SSTable being written: nothing read that it does not have yet
SELECT rel(path) AS being_written, state, filter IS NULL AS no_filter, fp_chance, partitions,
       first_key, data_db_bytes > 0 AS has_data
FROM extras_all WHERE path LIKE '%/ms-6-big';

-- without Filter.db, exact lookups still answer from the index: every key
-- of the SSTable is found, and a key it does not hold is not
SELECT rel(n.path) AS sstable,
       (SELECT count(*) FROM cassandra_sstable_keys(n.path)) AS keys,
       (SELECT bool_and(cassandra_sstable_has_key(n.path, k)) FROM cassandra_sstable_keys(n.path) k) AS all_found,
       cassandra_sstable_has_key(n.path, '\x00'::bytea) AS absent_found,
       cassandra_sstable_has_key(n.path, n.first_key) AS first_found
FROM extras_all n
WHERE n.filter_db_bytes IS NULL AND n.state = 'live'
ORDER BY n.path COLLATE "C";
