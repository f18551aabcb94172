--
-- Exact key lookups, cassandra_sstable_has_key: every key of every BIG
-- SSTable of sstables/ (its Index.db, by cassandra_sstable_keys) is found,
-- and keys next to them (one byte longer, one shorter, the last byte
-- changed) are found exactly when the SSTable holds them; the first and
-- last keys of the trie-indexed ones (MANIFEST.tsv, derived without
-- bloomcass) likewise.  Then typed keys, and the errors.
--
SET client_min_messages = warning;

CREATE TEMP TABLE lk AS
SELECT m.dir || '/' || m.descriptor AS sstable, m.prefix, m.format, m.partitioner,
       m.first_key, m.last_key, m.partitions
FROM sstable_manifest m
WHERE m.version NOT IN ('b', 'e', 'hb');

SELECT format, count(*) AS sstables FROM lk GROUP BY format ORDER BY format;

-- BIG: every key of Index.db
CREATE TEMP TABLE big_keys AS
SELECT lk.sstable, lk.prefix, lk.partitioner, k AS key
FROM lk, cassandra_sstable_keys(lk.prefix) k
WHERE lk.format = 'big';

-- trie-indexed: cassandra_sstable_keys reads the leaves of Partitions.db
-- and each key whole from Rows.db or Data.db (compressed for da): the
-- manifest's count, first and last key, token order (ByteOrdered: the
-- bytes; Murmur3: cassandra_token), every key in the SSTable's filter
CREATE TEMP TABLE trie_keys AS
SELECT lk.sstable, lk.prefix, lk.partitioner, k.key, k.n
FROM lk, cassandra_sstable_keys(lk.prefix) WITH ORDINALITY AS k(key, n)
WHERE lk.format = 'bti';
SELECT lk.sstable, count(t.key) = lk.partitions AS manifest_count,
       bool_or(t.n = 1 AND t.key = lk.first_key) AS first_key,
       bool_or(t.n = lk.partitions AND t.key = lk.last_key) AS last_key,
       bool_and(s.filter @> t.key) AS all_in_filter,
       bool_and(cassandra_sstable_has_key(lk.prefix, t.key)) AS all_found
FROM lk JOIN trie_keys t USING (sstable)
JOIN cassandra_sstables(test_path('sstables/' || regexp_replace(lk.sstable, '/[^/]+$', ''))) s
  ON s.path = lk.prefix
GROUP BY lk.sstable, lk.partitions, lk.first_key, lk.last_key ORDER BY lk.sstable;
SELECT sstable,
       bool_and(CASE WHEN partitioner LIKE '%ByteOrdered%' THEN prev < key
                     ELSE (cassandra_token(prev), prev) < (cassandra_token(key), key) END) AS in_token_order
FROM (SELECT sstable, partitioner, key, lag(key) OVER (PARTITION BY sstable ORDER BY n) AS prev
      FROM trie_keys) t
WHERE prev IS NOT NULL GROUP BY sstable ORDER BY sstable;

-- every key of both kinds, and its neighbours
CREATE TEMP VIEW all_keys AS
SELECT sstable, prefix, partitioner, key FROM big_keys
UNION ALL
SELECT sstable, prefix, partitioner, key FROM trie_keys;
CREATE TEMP TABLE probes AS
SELECT sstable, prefix, partitioner, kind, probe,
       EXISTS (SELECT 1 FROM all_keys o WHERE o.sstable = p.sstable AND o.key = p.probe) AS held
FROM (SELECT sstable, prefix, partitioner, 'key' AS kind, key AS probe FROM all_keys
      UNION ALL
      SELECT sstable, prefix, partitioner, 'longer', key || '\x00'::bytea FROM all_keys
      UNION ALL
      SELECT sstable, prefix, partitioner, 'shorter', substring(key FROM 1 FOR length(key) - 1)
      FROM all_keys WHERE length(key) > 0
      UNION ALL
      SELECT sstable, prefix, partitioner, 'changed',
             set_byte(key, length(key) - 1, get_byte(key, length(key) - 1) # 1)
      FROM all_keys WHERE length(key) > 0) p;

SELECT kind, count(*) AS probes, count(*) FILTER (WHERE held) AS held,
       count(*) FILTER (WHERE cassandra_sstable_has_key(prefix, probe) = held) AS right_answers
FROM probes GROUP BY kind ORDER BY kind;

-- by partitioner (Random is searched with the server's MD5, Local by a scan)
SELECT regexp_replace(partitioner, '^.*\.', '') AS partitioner, count(DISTINCT sstable) AS sstables,
       count(*) AS probes,
       count(*) FILTER (WHERE cassandra_sstable_has_key(prefix, probe) <> held) AS wrong_answers
FROM probes GROUP BY 1 ORDER BY 1;

-- trie-indexed: the first and last keys, and their neighbours
SELECT sstable, regexp_replace(partitioner, '^.*\.', '') AS partitioner,
       cassandra_sstable_has_key(prefix, first_key) AS first_found,
       cassandra_sstable_has_key(prefix, last_key) AS last_found,
       cassandra_sstable_has_key(prefix, first_key || '\x00'::bytea) AS longer_found,
       cassandra_sstable_has_key(prefix, set_byte(last_key, length(last_key) - 1,
                                                  get_byte(last_key, length(last_key) - 1) # 1)) AS changed_found,
       cassandra_sstable_has_key(prefix, '\x00c0ffee'::bytea) AS other_found
FROM lk WHERE format = 'bti' ORDER BY sstable;

-- any component's path names the SSTable
SELECT cassandra_sstable_has_key(prefix || '-Data.db', first_key) AS by_data_db,
       cassandra_sstable_has_key(prefix || '-Partitions.db', first_key) AS by_partitions_db
FROM lk WHERE format = 'bti' ORDER BY sstable LIMIT 1;

-- typed keys: text (a UTF8Type key) as text, as an untyped literal, and
-- integers as Int32Type serializes them
SELECT sstable,
       cassandra_sstable_has_key(prefix, convert_from(m.first_key, 'UTF8')) AS as_text,
       cassandra_sstable_has_key(prefix, convert_from(m.first_key, 'UTF8') || 'x') AS other_text
FROM lk m JOIN sstable_manifest s USING (prefix)
WHERE s.key_type = 'org.apache.cassandra.db.marshal.UTF8Type' AND m.partitions > 0
ORDER BY sstable LIMIT 3;
SELECT cassandra_sstable_has_key(prefix, 'nobody-has-this-key') AS untyped_literal
FROM lk WHERE format = 'big' ORDER BY sstable LIMIT 1;
SELECT sstable, cassandra_sstable_has_key(prefix, get_byte(m.first_key, 0) * 16777216 + get_byte(m.first_key, 1) * 65536
                                                  + get_byte(m.first_key, 2) * 256 + get_byte(m.first_key, 3)) AS as_int
FROM lk m JOIN sstable_manifest s USING (prefix)
WHERE s.key_type = 'org.apache.cassandra.db.marshal.Int32Type' AND m.partitions > 0
  AND get_byte(m.first_key, 0) < 128
ORDER BY sstable LIMIT 3;

-- errors, each as SQLSTATE and message ($DATA: the data directory)
CREATE FUNCTION try_has_key(path text, key bytea, OUT state text, OUT message text)
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM cassandra_sstable_has_key(path, key);
	state := '00000';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT;
	message := replace(message, (SELECT datadir FROM test_config), '$DATA');
END $$;

SELECT * FROM try_has_key(test_path('sstables/not-an-sstable'), '\x00'::bytea);
SELECT * FROM try_has_key(test_path('sstables/nb-999-big'), '\x00'::bytea);
SELECT * FROM try_has_key(test_path('sstables/zz-1-big'), '\x00'::bytea);

-- a Summary.db cut to 10 bytes (the node folder's broken/nb-3-big):
-- Cassandra rebuilds a summary it cannot read from Index.db, so Index.db
-- answers, read from its start, with a WARNING (its DETAIL, the path, left
-- out); the answers equal the keys of Index.db
SELECT test_path('node/data/broken/t-44444444444444444444444444444444/nb-3-big') AS cut \gset
\set VERBOSITY terse
SELECT count(*) AS keys, count(*) FILTER (WHERE cassandra_sstable_has_key(:'cut', k)) AS found
FROM cassandra_sstable_keys(:'cut') k;
SELECT cassandra_sstable_has_key(:'cut', '\x00'::bytea) AS absent_key_found;
\set VERBOSITY default

-- a role without pg_read_binary_file's privileges reads nothing
SELECT prefix AS some_prefix FROM lk ORDER BY sstable LIMIT 1 \gset
CREATE ROLE regress_bloomcass_lookup_nopriv;
SET ROLE regress_bloomcass_lookup_nopriv;
\set VERBOSITY sqlstate
SELECT cassandra_sstable_has_key(:'some_prefix', '\x00'::bytea);
\set VERBOSITY default
RESET ROLE;
DROP ROLE regress_bloomcass_lookup_nopriv;
DROP FUNCTION try_has_key(text, bytea);
RESET client_min_messages;
