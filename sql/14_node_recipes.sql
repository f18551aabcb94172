--
-- The recipes of the README's "Analysing a Cassandra node" (which
-- test/readme.sh runs as written there) against a node's data folder with
-- snapshots, transaction logs and broken components, made of real SSTables
-- (test/make-node.sh), with the folder given as :'node'.
--
\set VERBOSITY terse
SELECT test_path('node/data') AS node, test_path('node/rebuilt') AS out_dir \gset
-- the broken SSTables of the folder each give a WARNING, tested in 11_sstables
SET client_min_messages = error;

-- Keep one listing of the node (the filters are read once)
CREATE TABLE node_sstables AS
SELECT * FROM cassandra_sstables(:'node');

SELECT keyspace, table_name, count(*) AS sstables, sum(partitions) AS partitions,
       pg_size_pretty(sum(filter_db_bytes)) AS filter_memory
FROM node_sstables
GROUP BY keyspace, table_name ORDER BY keyspace, table_name;

-- Is a filter saturated or oversized?
SELECT replace(path, :'node', '') AS sstable, partitions, fp_chance, h.verdict,
       round(h.fpr_at_partitions::numeric, 6) AS fpr, h.sized_for_min, h.sized_for_max
FROM node_sstables, bloom_health(filter, partitions, fp_chance) h
WHERE h.verdict <> 'ok'
ORDER BY 1;
SELECT h.verdict, count(*) FROM node_sstables, bloom_health(filter, partitions, fp_chance) h
GROUP BY 1 ORDER BY 1;

-- Which SSTables still carry a filter for an fp_chance other than 0.01?
SELECT replace(path, :'node', '') AS sstable, fp_chance
FROM node_sstables WHERE fp_chance IS DISTINCT FROM 0.01 ORDER BY 1;

-- Which SSTables hold partition key K, exactly (here: the bytes of one real key)?
SELECT first_key AS k FROM node_sstables WHERE path LIKE '%legacy_oa_clust%' \gset
SELECT replace(s.path, :'node', '') AS sstable
FROM node_sstables s
WHERE CASE WHEN s.filter @> :'k'::bytea
            AND (s.partitioner NOT LIKE '%Murmur3Partitioner'
                 OR cassandra_token(:'k'::bytea) BETWEEN cassandra_token(s.first_key)
                                           AND cassandra_token(s.last_key))
           THEN cassandra_sstable_has_key(s.path, :'k'::bytea) END
ORDER BY 1;

-- the same answer as the filter's candidates checked against every key
-- of their SSTables, but for nb-1-big, whose Statistics.db is broken: no
-- partitioner, so the recipe leaves it out (CASE gives NULL)
SELECT replace(s.path, :'node', '') AS sstable, s.partitioner IS NULL AS no_partitioner
FROM node_sstables s
WHERE s.filter @> :'k'::bytea
  AND EXISTS (SELECT 1 FROM cassandra_sstable_keys(s.path) key WHERE key = :'k'::bytea)
ORDER BY 1;

-- and a key of a trie-indexed SSTable (da, compressed Data.db)
SELECT last_key AS k FROM node_sstables WHERE path LIKE '%legacy_da_simple%' \gset
SELECT replace(s.path, :'node', '') AS sstable, s.format
FROM node_sstables s
WHERE CASE WHEN s.filter @> :'k'::bytea
            AND (s.partitioner NOT LIKE '%Murmur3Partitioner'
                 OR cassandra_token(:'k'::bytea) BETWEEN cassandra_token(s.first_key)
                                           AND cassandra_token(s.last_key))
           THEN cassandra_sstable_has_key(s.path, :'k'::bytea) END
ORDER BY 1;

-- Rebuild the filters that are not 'ok' from the SSTable's own keys, with the
-- SSTable's version and fp_chance, and write each back as a Filter.db
CREATE TABLE rebuilt AS
SELECT s.path, s.version,
       bloom_export(bloom_agg(key, s.fp_chance, s.version), s.version) AS filter_db
FROM node_sstables s, bloom_health(s.filter, s.partitions, s.fp_chance) h,
     cassandra_sstable_keys(s.path) key
WHERE h.verdict <> 'ok'
GROUP BY s.path, s.version, s.fp_chance;

-- (large objects as the carrier: one statement makes them, the next writes
-- them out, as a large object is not visible to the statement that makes it)
CREATE TEMP TABLE filter_files AS
SELECT lo_from_bytea(0, filter_db) AS lo,
       :'out_dir' || '/' || regexp_replace(path, '^.*/([^/]+)/([^/]+)/([^/]+)$', '\1.\2.\3') || '-Filter.db' AS file
FROM rebuilt;
SELECT count(lo_unlink(lo)) AS written FROM filter_files WHERE lo_export(lo, file) = 1;

RESET client_min_messages;

-- the files written hold the rebuilt bytes (their names, made unique by the
-- keyspace and table folder, are not of the form bloom_import_file reads the
-- version from), and the filters are now 'ok'
SELECT replace(r.path, :'node', '') AS rebuilt_sstable,
       pg_read_binary_file(:'out_dir' || '/' || regexp_replace(r.path, '^.*/([^/]+)/([^/]+)/([^/]+)$', '\1.\2.\3') || '-Filter.db')
         = r.filter_db AS read_back,
       (bloom_health(bloom_import(r.filter_db, r.version), s.partitions, s.fp_chance)).verdict AS now,
       bloom_export(s.filter, s.version) = r.filter_db AS unchanged
FROM rebuilt r JOIN node_sstables s USING (path) ORDER BY 1;

-- and hold every key of their SSTable
SELECT count(*) AS keys, count(*) FILTER (WHERE bloom_import(r.filter_db, r.version) @> key) AS held
FROM rebuilt r, cassandra_sstable_keys(r.path) key;

DROP TABLE rebuilt, node_sstables;
