--
-- Cassandra 6.0's versions pa, pb (big) and ea, eb (bti), read as apache/
-- cassandra trunk's BigFormat, BtiFormat, CompressionMetadata and
-- CompressionDictionary read them.  No real 6.0 SSTable is in the reference
-- data: test/make-v60.sh (run by test/make-codecs.sh) writes codecs/v60:
--   renamed: the 4 oa legacy tables under pa names and the 4 da ones under
--            ea names, byte for byte (a pa/ea SSTable without a dictionary
--            is an oa/da one): every answer is the original's;
--   dict:    oa-13-big as pa and the 4 da tables as ea, Data.db compressed
--            by ZstdDictionaryCompressor with a zstd dictionary trained by
--            ZDICT_trainFromBuffer, stored after CompressionInfo.db's
--            offsets: every key and lookup is the source's;
--   damaged: ea copies with the dictionary's kind 1, its checksum wrong,
--            CompressionInfo.db cut short, the zstd dictionary's own id
--            changed or chunk 0 compressed with another dictionary (both
--            with the checksum over what is stored: only zstd notices): an
--            ERROR naming the file, when Data.db is read ($DATA: the data
--            directory); and the trailer's id changed with the checksum
--            over it, which CompressionDictionary.deserialize reads as any
--            other id (only the checksum covers it): the source's keys.
--
SET client_min_messages = warning;

CREATE TEMP TABLE v6 AS
SELECT f[1] AS copy_rel, f[2] AS kind, f[3] AS source_rel, f[4] AS change,
       test_path(f[1]) AS copy, test_path(f[3]) AS source,
       substring(f[1] FROM '([a-z]+)-[^/]+$') AS version,
       substring(f[3] FROM '([a-z]+)-[^/]+$') AS source_version,
       substring(f[1] FROM '^codecs/v60/(?:damaged/)?[^/]+') AS folder
FROM test_tsv('codecs/v60/expected.tsv') WHERE lineno > 1;

SELECT kind, version, source_version, count(*) AS copies
FROM v6 GROUP BY kind, version, source_version ORDER BY kind, version;

------------------------------------------------------------------------------
-- the versions by name: bloom_import takes them (oa's and da's filter)
------------------------------------------------------------------------------
SELECT v, bloom_import('\x0000000500000002844221060001040000a602200400c008'::bytea, v)
        = bloom_import('\x0000000500000002844221060001040000a602200400c008'::bytea, 'oa') AS as_oa
FROM unnest(ARRAY['pa', 'pb', 'ea', 'eb']) v;

------------------------------------------------------------------------------
-- cassandra_sstables: every copy listed with its source's facts
------------------------------------------------------------------------------
CREATE TEMP TABLE listed AS
SELECT l.* FROM (SELECT DISTINCT test_path(folder) AS dir FROM v6 WHERE kind <> 'damaged') d,
     cassandra_sstables(d.dir) l;
CREATE TEMP TABLE source_listed AS
SELECT l.*
FROM (SELECT DISTINCT regexp_replace(source, '/[^/]+$', '') AS dir FROM v6) d,
     cassandra_sstables(d.dir) l
WHERE l.path IN (SELECT source FROM v6);

SELECT v6.kind, c.version, c.format, count(*) AS copies,
       count(*) FILTER (WHERE c.filter IS NOT NULL AND c.partitioner IS NOT NULL
                          AND c.partitions IS NOT NULL AND c.first_key IS NOT NULL) AS facts_not_null,
       count(*) FILTER (WHERE (c.keyspace, c.table_name, c.generation, c.state, c.snapshot,
                               c.filter::text, c.partitioner, c.fp_chance, c.partitions,
                               c.key_type, c.first_key, c.last_key, c.filter_db_bytes, c.components)
                              IS NOT DISTINCT FROM
                              (s.keyspace, s.table_name, s.generation, s.state, s.snapshot,
                               s.filter::text, s.partitioner, s.fp_chance, s.partitions,
                               s.key_type, s.first_key, s.last_key, s.filter_db_bytes, s.components)) AS facts_as_source
FROM v6 JOIN listed c ON c.path = v6.copy JOIN source_listed s ON s.path = v6.source
GROUP BY v6.kind, c.version, c.format ORDER BY v6.kind, c.version;

-- bloom_health of the listed filter, partitions and fp_chance: the source's
SELECT v6.kind, c.version, count(*) AS copies,
       count(*) FILTER (WHERE bloom_health(c.filter, c.partitions, c.fp_chance)
                            = bloom_health(s.filter, s.partitions, s.fp_chance)) AS health_as_source
FROM v6 JOIN listed c ON c.path = v6.copy JOIN source_listed s ON s.path = v6.source
GROUP BY v6.kind, c.version ORDER BY v6.kind, c.version;

-- the damaged copies are listed with the source's facts: the listing reads
-- Filter.db, Statistics.db and Partitions.db, not Data.db
SELECT substring(v6.copy_rel FROM 'damaged/([^/]+)') AS damage,
       (c.filter::text, c.partitioner, c.fp_chance, c.partitions, c.first_key, c.last_key)
       IS NOT DISTINCT FROM
       (s.filter::text, s.partitioner, s.fp_chance, s.partitions, s.first_key, s.last_key) AS facts_as_source
FROM v6 CROSS JOIN LATERAL cassandra_sstables(regexp_replace(v6.copy, '/[^/]+$', '')) c
JOIN source_listed s ON s.path = v6.source
WHERE v6.kind = 'damaged' AND c.path = v6.copy ORDER BY 1;

-- bloom_import_file: the filter of the renamed Filter.db, by its name
SELECT v6.version, count(*) AS filters,
       count(*) FILTER (WHERE bloom_import_file(v6.copy || '-Filter.db')
                            = bloom_import_file(v6.source || '-Filter.db')) AS as_source
FROM v6 WHERE kind = 'renamed' GROUP BY v6.version ORDER BY v6.version;

------------------------------------------------------------------------------
-- cassandra_sstable_keys and cassandra_sstable_has_key: the source's keys,
-- in its order; keys found, their neighbours found exactly when held
------------------------------------------------------------------------------
CREATE TEMP TABLE ck AS
SELECT v6.kind, v6.version, v6.copy, v6.source,
       (SELECT array_agg(k ORDER BY n) FROM cassandra_sstable_keys(v6.copy) WITH ORDINALITY AS t(k, n)) AS keys,
       (SELECT array_agg(k ORDER BY n) FROM cassandra_sstable_keys(v6.source) WITH ORDINALITY AS t(k, n)) AS source_keys
FROM v6 WHERE v6.kind <> 'damaged';

SELECT kind, version, count(*) AS copies, sum(cardinality(keys)) AS keys,
       count(*) FILTER (WHERE keys = source_keys) AS same_keys_same_order
FROM ck GROUP BY kind, version ORDER BY kind, version;

CREATE TEMP TABLE probes AS
SELECT ck.kind, ck.version, ck.copy, p.probe, p.probe = ANY (ck.source_keys) AS held
FROM ck
CROSS JOIN LATERAL unnest(ck.keys) WITH ORDINALITY AS k(key, n)
CROSS JOIN LATERAL (
	SELECT k.key AS probe
	UNION ALL
	SELECT k.key || '\x00'::bytea
	UNION ALL
	SELECT set_byte(k.key, length(k.key) - 1, get_byte(k.key, length(k.key) - 1) # 1)
	WHERE length(k.key) > 0) p
WHERE ck.version = 'ea' OR cardinality(ck.keys) < 100 OR k.n % 25 = 1;

SELECT kind, version, count(*) AS probes, count(*) FILTER (WHERE held) AS held,
       count(*) FILTER (WHERE cassandra_sstable_has_key(copy, probe) = held) AS right_answers
FROM probes GROUP BY kind, version ORDER BY kind, version;

------------------------------------------------------------------------------
-- CompressionInfo.db of the dict copies, read here from its bytes: the
-- class, and that the file runs past the offsets (the dictionary)
------------------------------------------------------------------------------
SELECT v6.version,
       convert_from(substring(b FROM 3 FOR get_byte(b, 1)), 'UTF8') AS class,
       count(*) AS copies
FROM v6 CROSS JOIN LATERAL pg_read_binary_file(v6.copy || '-CompressionInfo.db') b
WHERE kind = 'dict' GROUP BY 1, 2 ORDER BY 1;

------------------------------------------------------------------------------
-- damaged dictionaries: an ERROR naming the file, with its SQLSTATE
------------------------------------------------------------------------------
CREATE FUNCTION try_v6(stmt text, path text, key bytea, OUT state text, OUT message text,
	OUT result text)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE stmt INTO result USING path, key;
	state := '00000';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT;
	message := replace(message, (SELECT datadir FROM test_config), '$DATA');
END $$;

SELECT substring(v6.copy_rel FROM 'damaged/([^/]+)') AS damage, t.*
FROM v6 CROSS JOIN LATERAL try_v6('SELECT count(*) FROM cassandra_sstable_keys($1) WHERE $2 IS NOT NULL',
                                  v6.copy, '\x'::bytea) t
WHERE v6.kind = 'damaged' ORDER BY 1;

-- the one a reader sees through (id): the source's keys in its order, and
-- each found
SELECT substring(v6.copy_rel FROM 'damaged/([^/]+)') AS damage,
       (SELECT array_agg(k ORDER BY n) FROM cassandra_sstable_keys(v6.copy) WITH ORDINALITY AS t(k, n))
       = (SELECT array_agg(k ORDER BY n) FROM cassandra_sstable_keys(v6.source) WITH ORDINALITY AS t(k, n))
       AS same_keys_same_order,
       (SELECT bool_and(cassandra_sstable_has_key(v6.copy, k)) FROM cassandra_sstable_keys(v6.source) k)
       AS every_key_found
FROM v6 WHERE v6.kind = 'damaged' AND v6.copy_rel ~ '/damaged/id/';

-- has_key of a key the source holds (its last), read from Data.db: a key
-- the trie does not lead to needs no Data.db, and is absent whatever the
-- dictionary
SELECT substring(v6.copy_rel FROM 'damaged/([^/]+)') AS damage, t.*
FROM v6 CROSS JOIN LATERAL try_v6('SELECT cassandra_sstable_has_key($1, $2)', v6.copy,
                                  (SELECT k FROM cassandra_sstable_keys(v6.source) k ORDER BY k DESC LIMIT 1)) t
WHERE v6.kind = 'damaged' ORDER BY 1;
SELECT substring(v6.copy_rel FROM 'damaged/([^/]+)') AS damage, t.*
FROM v6 CROSS JOIN LATERAL try_v6('SELECT cassandra_sstable_has_key($1, $2)', v6.copy, '\x00'::bytea) t
WHERE v6.kind = 'damaged' AND v6.copy_rel ~ '/damaged/(dict-id|other-dict|id)/' ORDER BY 1;

DROP FUNCTION try_v6(text, text, bytea);
RESET client_min_messages;
