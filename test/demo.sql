-- test/demo.sql - a tour of bloomcass on a throwaway cluster.
-- Run with:  bash test/demo.sh   (psql echoes this file as it runs it)

CREATE EXTENSION bloomcass;
\getenv data BLOOMCASS_SERVER_DATA

-- 1. Build a Cassandra-identical filter from a table ----------------------
-- A table of users whose partition key is a text user name.
CREATE TABLE users AS SELECT 'user' || g AS name FROM generate_series(1, 100000) g;

-- bloom_agg sizes the filter for the distinct keys exactly as Cassandra sizes
-- the Filter.db of a flushed SSTable (bloom_filter_fp_chance 0.01 here).
CREATE TABLE user_filter AS SELECT bloom_agg(name, 0.01) AS f FROM users;
SELECT hash_order, hash_count, word_count, bits_set, filter_db_bytes,
       round(estimated_cardinality) AS est_keys, round(estimated_fpr::numeric, 4) AS est_fpr
FROM user_filter, bloom_info(f);

-- 2. Test keys: false = certainly absent, true = may be present -----------
SELECT k, f @> k AS may_contain FROM user_filter, unnest(ARRAY['user1', 'user99999', 'nobody']) k;
-- typed keys are serialized as Cassandra serializes them
SELECT bloom_agg(id) @> 42 AS int_key, bloom_agg(id) @> 100001 AS absent_int
FROM generate_series(1, 1000) id;
-- composite partition keys ((tenant, id)) go through cassandra_key()
SELECT bloom_agg(cassandra_key('tenant' || t, id)) @> cassandra_key('tenant3', 7) AS composite_key
FROM generate_series(1, 5) t, generate_series(1, 10) id;

-- 3. Export the bytes Cassandra would write, for any SSTable version -------
SELECT v, length(bloom_export(f, v)) AS bytes, md5(bloom_export(f, v)) AS md5
FROM user_filter, unnest(ARRAY['oa', 'nb', 'ma']) v;

-- 4. Import real Filter.db files by path (pg_read_binary_file privileges) --
CREATE TABLE sstables AS
SELECT name, bloom_import_file(:'data' || '/real-filters/' || path) AS f
FROM (VALUES
	('oa-13', 'sstable-sets/transformer-oa-13/oa-13-big-Filter.db'),
	('oa-2', 'sstable-sets/transformer-oa-2/oa-2-big-Filter.db'),
	('oa-3', 'sstable-sets/transformer-oa-3/oa-3-big-Filter.db'),
	('nb-1', 'sstable-sets/transformer-nb-1/nb-1-big-Filter.db')) v(name, path);
SELECT name, i.hash_count, i.word_count, i.bits_set, round(i.estimated_cardinality) AS est_keys
FROM sstables, bloom_info(f) i ORDER BY name;

-- 5. Which sstables may hold a key?  (int partition keys)
SELECT key, array_agg(name ORDER BY name) FILTER (WHERE f @> key) AS candidate_sstables
FROM sstables, (VALUES (1), (42), (9999), (123456)) k(key)
GROUP BY key ORDER BY key;

-- 6. Spot a saturated filter: its false-positive rate from the fill ratio ---
-- A filter sized for 1,000 keys that received 4,000 answers "may contain" for most keys.
SELECT round(bloom_fpr(f)::numeric, 3) AS fpr_from_fill, round(bloom_fpr(f, 4000)::numeric, 3) AS theoretical
FROM (SELECT bloom_agg(g, 0.01, 1000) AS f FROM generate_series(1, 4000) g) s;

-- 7. Size a table's filter before setting bloom_filter_fp_chance -----------
SELECT p AS fp_chance, s.hash_count, s.buckets_per_element, pg_size_pretty(s.filter_db_bytes) AS filter_db
FROM unnest(ARRAY[0.1, 0.01, 0.001, 0.0001]::float8[]) p, bloom_sizing(50000000, p) s;

-- 8. Tokens as CQL's token() returns them (Murmur3Partitioner) -------------
SELECT cassandra_token('user1') AS text_token, cassandra_token(42) AS int_token,
       (cassandra_murmur3('user1')).h1 = cassandra_token('user1') AS token_is_h1;

-- 9. Analyse a node's data folder (real SSTables of Cassandra 1.2 to 5.0) --
-- Broken components in the folder each give a WARNING naming the file.
CREATE TABLE node AS SELECT * FROM cassandra_sstables(:'data' || '/node/data');
SELECT keyspace, table_name, count(*) AS sstables, sum(partitions) AS partitions,
       sum(filter_db_bytes) AS filter_bytes
FROM node GROUP BY 1, 2 ORDER BY 1, 2;
-- filters not sized for the partitions they hold
SELECT regexp_replace(path, '^.*/data/', '') AS sstable, partitions, h.verdict,
       round(h.fpr_at_partitions::numeric, 5) AS fpr, h.sized_for_min, h.sized_for_max
FROM node, bloom_health(filter, partitions, fp_chance) h
WHERE h.verdict <> 'ok' ORDER BY 1;
