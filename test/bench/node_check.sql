-- test/bench/node_check.sql - the node's filters are those bloomcass writes
-- (node.sh, once per run): for the smallest and the largest filter of each
-- table (filters.tsv: table, KiB, source, version, n, real keys, hash
-- count, words, bytes, fp_chance), the file node_filter wrote must be,
-- byte for byte, bloom_export(bloom_agg(k, fp_chance, n), version) of its
-- keys: the source SSTable's (cassandra_sstable_keys) and the 8-byte
-- big-endian numbers 2^62 + i up to n.  psql variables: filters (the
-- file), S (test/data/sstables), dir (the folder of the filters).
\set ON_ERROR_STOP on
SET client_min_messages = warning;

CREATE TEMP TABLE node_filters (tbl text, kib int, src text, version text, n bigint,
								real_keys bigint, hash_count int, words bigint, bytes bigint,
								fp_chance float8);
COPY node_filters FROM :'filters';

CREATE TEMP TABLE node_filter_check AS
SELECT f.tbl, f.kib,
	   bloom_export(bloom_agg(k.k, f.fp_chance, f.n), f.version)
	   = pg_read_binary_file(:'dir' || '/' || f.tbl || '-' || f.kib || '.db') AS identical,
	   count(*) AS keys
FROM node_filters f,
	 LATERAL (SELECT k FROM cassandra_sstable_keys(:'S' || '/' || f.src) k
			  UNION ALL
			  SELECT int8send((1::int8 << 62) + g)
			  FROM generate_series(0, f.n - f.real_keys - 1) g) k(k)
WHERE f.kib IN ((SELECT min(kib) FROM node_filters), (SELECT max(kib) FROM node_filters))
GROUP BY f.tbl, f.kib, f.version, f.fp_chance, f.n;

SELECT format('node_check: %s filters, %s identical to bloom_export(bloom_agg(...)) of their keys',
			  count(*), count(*) FILTER (WHERE identical AND keys = n)) AS check
FROM node_filter_check JOIN node_filters USING (tbl, kib) \gset
\echo :check
DO $$
BEGIN
	IF (SELECT count(*) FILTER (WHERE identical AND keys = n) <> 8 OR count(*) <> 8
		FROM node_filter_check JOIN node_filters USING (tbl, kib)) THEN
		RAISE EXCEPTION 'node_check: a filter of the node is not what bloom_agg and bloom_export give';
	END IF;
END
$$;
