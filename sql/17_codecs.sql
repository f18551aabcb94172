--
-- Data.db in every compressor, on disk.  test/make-codecs.sh copies the 6
-- real trie-indexed SSTables (4 da, 2 bb; their keys are read from Rows.db
-- or from Data.db) and a real BIG one (oa, 10,000 partitions) with Data.db
-- decompressed through the core's reader and compressed again by
-- test/tools/recompress with liblz4, libsnappy, zlib and libzstd, one
-- folder per variant: Cassandra's LZ4, Snappy, Deflate, Zstd and Noop
-- compressors, ScyllaDB's LZ4 and Zstd with a dictionary, raw chunks (a
-- min_compress_ratio), chunks of 64 bytes, and no compression (CRC.db),
-- each at its own chunk length (codecs/expected.tsv).  Each copy against
-- its source: CompressionInfo.db as written (read here from its bytes),
-- cassandra_sstables' facts, every key in the same order,
-- cassandra_sstable_has_key for keys and their neighbours, bloom_health.
-- Then copies with ScyllaDB's two quirks (Statistics.db's table of contents
-- in its order, Summary.db's size at full sampling as it computes it), and
-- damaged copies: their errors, SQLSTATE and message ($DATA: the data
-- directory).
--
SET client_min_messages = warning;

CREATE TEMP TABLE cx AS
SELECT f[1] AS copy_rel, f[2] AS kind, f[3] AS variant, nullif(f[4], '-') AS class,
       nullif(f[5], '-')::integer AS chunk, nullif(f[6], '-')::float8 AS min_compress_ratio,
       nullif(f[7], '-')::integer AS chunks, f[8] AS source_rel, nullif(f[9], '-') AS change,
       test_path(f[1]) AS copy, test_path(f[8]) AS source,
       substring(f[1] FROM '([a-z]+)-[^/]+$') AS version
FROM test_tsv('codecs/expected.tsv') WHERE lineno > 1;

SELECT kind, count(*) AS copies, count(DISTINCT variant) AS variants,
       count(DISTINCT source_rel) AS sources, string_agg(DISTINCT version, ',') AS versions
FROM cx GROUP BY kind ORDER BY kind;

-- the sources are the manifest's real SSTables
SELECT count(*) AS copies_of_manifest_sstables
FROM cx JOIN sstable_manifest m ON m.prefix = cx.source;

------------------------------------------------------------------------------
-- CompressionInfo.db as written, read here from its bytes (big-endian;
-- strings a 16-bit length then the bytes): class, option keys, chunk
-- length, max compressed length (stored by da, bb and oa), data length and
-- chunk count; the data length is the source's
------------------------------------------------------------------------------
CREATE FUNCTION be(b bytea, pos integer, n integer) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
	SELECT sum(get_byte(b, pos + i)::bigint << (8 * (n - 1 - i)))::bigint
	FROM generate_series(0, n - 1) i
$$;

CREATE FUNCTION ci_header(b bytea, OUT class text, OUT option_keys text[], OUT dictionary_bytes bigint,
	OUT chunk integer, OUT max_compressed bigint, OUT data_length bigint, OUT chunks integer)
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
	pos integer;
	l integer;
	k text;
BEGIN
	l := be(b, 0, 2);
	class := convert_from(substring(b FROM 3 FOR l), 'UTF8');
	pos := 2 + l + 4;
	option_keys := '{}';
	dictionary_bytes := 0;
	FOR i IN 1 .. be(b, 2 + l, 4) LOOP
		l := be(b, pos, 2);
		k := convert_from(substring(b FROM pos + 3 FOR l), 'UTF8');
		option_keys := option_keys || k;
		pos := pos + 2 + l;
		l := be(b, pos, 2);
		IF k LIKE '.dictionary.%' THEN
			dictionary_bytes := dictionary_bytes + l;
		END IF;
		pos := pos + 2 + l;
	END LOOP;
	chunk := be(b, pos, 4);
	max_compressed := be(b, pos + 4, 4);
	data_length := be(b, pos + 8, 8);
	chunks := be(b, pos + 16, 4);
END $$;

CREATE TEMP TABLE cx_info AS
SELECT cx.copy, cx.variant, cx.class AS want_class, cx.chunk AS want_chunk, cx.min_compress_ratio,
       h.*, s.data_length AS source_data_length,
       (pg_stat_file(cx.copy || '-Data.db')).size AS data_db_bytes
FROM cx
CROSS JOIN LATERAL ci_header(pg_read_binary_file(cx.copy || '-CompressionInfo.db')) h
CROSS JOIN LATERAL ci_header(pg_read_binary_file(cx.source || '-CompressionInfo.db')) s
WHERE cx.kind = 'copy' AND cx.variant <> 'none';

SELECT variant, count(*) AS copies, string_agg(DISTINCT class, ',') AS class,
       string_agg(DISTINCT array_to_string(option_keys, ','), ';') AS options,
       string_agg(DISTINCT dictionary_bytes::text, ',') AS dictionary_bytes,
       string_agg(DISTINCT chunk::text, ',') AS chunk,
       string_agg(DISTINCT max_compressed::text, ',') AS max_compressed,
       count(*) FILTER (WHERE class = want_class AND chunk = want_chunk
                          AND data_length = source_data_length
                          AND chunks = (data_length + chunk - 1) / chunk) AS as_listed,
       sum(chunks) AS chunks
FROM cx_info GROUP BY variant ORDER BY variant;

-- no compression: Data.db is the source's uncompressed bytes, CRC.db a
-- chunk length (64 KiB) and a CRC32 per chunk, TOC.txt names CRC.db
SELECT count(*) AS uncompressed_copies,
       count(*) FILTER (WHERE (pg_stat_file(cx.copy || '-Data.db')).size = s.data_length) AS data_length_as_source,
       count(*) FILTER (WHERE be(pg_read_binary_file(cx.copy || '-CRC.db'), 0, 4) = 65536
                          AND (pg_stat_file(cx.copy || '-CRC.db')).size = 4 + 4 * ((s.data_length + 65535) / 65536)) AS crc_db_as_data,
       count(*) FILTER (WHERE pg_read_file(cx.copy || '-TOC.txt') ~ '(^|\n)CRC\.db(\n|$)'
                          AND pg_read_file(cx.copy || '-TOC.txt') !~ 'CompressionInfo') AS toc_names_crc_db
FROM cx CROSS JOIN LATERAL ci_header(pg_read_binary_file(cx.source || '-CompressionInfo.db')) s
WHERE cx.kind = 'copy' AND cx.variant = 'none';

------------------------------------------------------------------------------
-- cassandra_sstables: every copy listed, with its source's facts
------------------------------------------------------------------------------
CREATE TEMP TABLE listed AS
SELECT * FROM cassandra_sstables(test_path('codecs/copies'))
UNION ALL
SELECT * FROM cassandra_sstables(test_path('codecs/quirks'));
CREATE TEMP TABLE source_listed AS
SELECT l.*
FROM (SELECT DISTINCT regexp_replace(source, '/[^/]+$', '') AS dir FROM cx) d,
     cassandra_sstables(d.dir) l
WHERE l.path IN (SELECT source FROM cx);

SELECT (SELECT count(*) FROM listed) AS listed,
       (SELECT count(*) FROM cx WHERE kind IN ('copy', 'quirk')) AS copies,
       (SELECT count(*) FROM source_listed) AS sources_listed;

CREATE TEMP VIEW pairs AS
SELECT cx.kind, cx.variant, cx.copy, cx.source, c AS c, s AS s
FROM cx JOIN listed c ON c.path = cx.copy JOIN source_listed s ON s.path = cx.source;

SELECT kind, variant, count(*) AS copies,
       count(*) FILTER (WHERE (c).partitioner IS NOT NULL AND (c).fp_chance IS NOT NULL
                          AND (c).partitions IS NOT NULL AND (c).filter IS NOT NULL
                          AND (c).first_key IS NOT NULL AND (c).last_key IS NOT NULL) AS facts_not_null,
       count(*) FILTER (WHERE ((c).keyspace, (c).table_name, (c).version, (c).generation, (c).format,
                               (c).state, (c).snapshot, (c).filter::text, (c).partitioner,
                               (c).fp_chance, (c).partitions, (c).key_type, (c).first_key,
                               (c).last_key, (c).filter_db_bytes)
                              IS NOT DISTINCT FROM
                              ((s).keyspace, (s).table_name, (s).version, (s).generation, (s).format,
                               (s).state, (s).snapshot, (s).filter::text, (s).partitioner,
                               (s).fp_chance, (s).partitions, (s).key_type, (s).first_key,
                               (s).last_key, (s).filter_db_bytes)) AS facts_as_source,
       count(*) FILTER (WHERE (c).components = CASE WHEN variant = 'none'
                                 THEN array_replace((s).components, 'CompressionInfo.db', 'CRC.db')
                                 ELSE (s).components END) AS components_as_source,
       count(*) FILTER (WHERE (SELECT row(h.*)::text FROM bloom_health((c).filter, (c).partitions, (c).fp_chance) h)
                            = (SELECT row(h.*)::text FROM bloom_health((s).filter, (s).partitions, (s).fp_chance) h)) AS health_as_source,
       string_agg(DISTINCT (SELECT verdict FROM bloom_health((c).filter, (c).partitions, (c).fp_chance)), ',') AS verdicts
FROM pairs GROUP BY kind, variant ORDER BY kind, variant;

-- and the manifest's facts (derived without bloomcass)
SELECT count(*) AS copies,
       count(*) FILTER (WHERE ((c).partitioner, (c).fp_chance, (c).partitions, (c).first_key, (c).last_key)
                              IS NOT DISTINCT FROM (m.partitioner, m.fp_chance, m.partitions, m.first_key, m.last_key)) AS as_manifest
FROM pairs JOIN sstable_manifest m ON m.prefix = pairs.source;

------------------------------------------------------------------------------
-- cassandra_sstable_keys: the source's keys, in the same order; the trie-
-- indexed copies read them through the new Data.db (or Rows.db)
------------------------------------------------------------------------------
CREATE TEMP TABLE ck AS
SELECT cx.kind, cx.variant, cx.copy, cx.source,
       (SELECT array_agg(k ORDER BY n) FROM cassandra_sstable_keys(cx.copy) WITH ORDINALITY AS t(k, n)) AS keys,
       (SELECT array_agg(k ORDER BY n) FROM cassandra_sstable_keys(cx.source) WITH ORDINALITY AS t(k, n)) AS source_keys
FROM cx WHERE cx.kind IN ('copy', 'quirk');

SELECT kind, variant, count(*) AS copies, sum(cardinality(keys)) AS keys,
       count(*) FILTER (WHERE keys = source_keys) AS same_keys_same_order,
       count(*) FILTER (WHERE cardinality(keys) = m.partitions) AS manifest_count
FROM ck JOIN sstable_manifest m ON m.prefix = ck.source
GROUP BY kind, variant ORDER BY kind, variant;

------------------------------------------------------------------------------
-- cassandra_sstable_has_key: keys found, and their neighbours (one byte
-- longer, one shorter, the last byte changed) found exactly when the
-- source holds them: every key of the trie-indexed copies (read through
-- Data.db or Rows.db) and of the quirky ones; every 25th key of the BIG
-- one in each variant (read through Summary.db and Index.db, which are the
-- source's bytes in every variant: 16_lookup probes all of them)
------------------------------------------------------------------------------
CREATE TEMP TABLE cprobes AS
SELECT ck.kind, ck.variant, ck.copy, p.kind_of_probe, p.probe,
       p.probe = ANY (ck.source_keys) AS held
FROM ck
CROSS JOIN LATERAL unnest(ck.keys) WITH ORDINALITY AS k(key, n)
CROSS JOIN LATERAL (
	SELECT 'key' AS kind_of_probe, k.key AS probe
	UNION ALL
	SELECT 'longer', k.key || '\x00'::bytea
	UNION ALL
	SELECT 'shorter', substring(k.key FROM 1 FOR length(k.key) - 1) WHERE length(k.key) > 0
	UNION ALL
	SELECT 'changed', set_byte(k.key, length(k.key) - 1, get_byte(k.key, length(k.key) - 1) # 1)
	WHERE length(k.key) > 0) p
WHERE ck.copy ~ '-bti$' OR ck.kind = 'quirk' OR k.n % 25 = 1;

SELECT kind, variant, count(*) AS probes, count(*) FILTER (WHERE held) AS held,
       count(*) FILTER (WHERE cassandra_sstable_has_key(copy, probe) = held) AS right_answers
FROM cprobes GROUP BY kind, variant ORDER BY kind, variant;

------------------------------------------------------------------------------
-- ScyllaDB's quirks, read here from the bytes: Statistics.db's table of
-- contents (type@offset in table order) and Summary.db's size at full
-- sampling, copy against source; cassandra_statistics and
-- cassandra_summary give the source's facts
------------------------------------------------------------------------------
CREATE FUNCTION stats_toc(b bytea) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
	SELECT string_agg(be(b, 4 + 8 * i, 4) || '@' || be(b, 8 + 8 * i, 4), ',' ORDER BY i)
	FROM generate_series(0, be(b, 0, 4)::integer - 1) i
$$;

SELECT substring(cx.source_rel FROM '[^/]+/[^/]+$') AS source, cx.version,
       stats_toc(pg_read_binary_file(cx.source || '-Statistics.db')) AS source_table,
       stats_toc(pg_read_binary_file(cx.copy || '-Statistics.db')) AS copy_table,
       be(pg_read_binary_file(cx.source || '-Summary.db'), 20, 4) AS source_full_sampling,
       be(pg_read_binary_file(cx.copy || '-Summary.db'), 20, 4) AS copy_full_sampling,
       (SELECT row(st.*)::text FROM cassandra_statistics(pg_read_binary_file(cx.copy || '-Statistics.db'), cx.version) st)
     = (SELECT row(st.*)::text FROM cassandra_statistics(pg_read_binary_file(cx.source || '-Statistics.db'), cx.version) st)
       AS statistics_as_source,
       (SELECT (su.min_index_interval, su.sampled_entries, su.sampling_level, su.first_key, su.last_key)::text
        FROM cassandra_summary(pg_read_binary_file(cx.copy || '-Summary.db'), cx.version) su)
     = (SELECT (su.min_index_interval, su.sampled_entries, su.sampling_level, su.first_key, su.last_key)::text
        FROM cassandra_summary(pg_read_binary_file(cx.source || '-Summary.db'), cx.version) su)
       AS summary_as_source,
       (SELECT su.size_at_full_sampling FROM cassandra_summary(pg_read_binary_file(cx.copy || '-Summary.db'), cx.version) su)
       AS summary_full_sampling
FROM cx WHERE cx.kind = 'quirk' ORDER BY cx.source_rel;

------------------------------------------------------------------------------
-- damaged copies: listed (cassandra_sstables reads neither Data.db nor
-- CompressionInfo.db), and an error naming the file when their keys are
-- read
------------------------------------------------------------------------------
SELECT cx.variant, l.version, l.partitions, l.first_key IS NOT NULL AS has_first_key
FROM cx JOIN cassandra_sstables(test_path('codecs/corrupt')) l ON l.path = cx.copy
ORDER BY cx.variant;

CREATE FUNCTION try_codec(stmt text, path text, key bytea, OUT state text, OUT message text,
	OUT detail text, OUT result text)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE stmt INTO result USING path, key;
	state := '00000';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
	message := replace(message, (SELECT datadir FROM test_config), '$DATA');
END $$;

SELECT cx.variant, t.*
FROM cx CROSS JOIN LATERAL try_codec('SELECT count(*) FROM cassandra_sstable_keys($1) WHERE $2 IS NOT NULL',
                                     cx.copy, '\x'::bytea) t
WHERE cx.kind = 'corrupt' ORDER BY cx.variant;

-- has_key reads one key: the 19th (in the flipped chunk) fails, the
-- first and the last are found
SELECT cx.variant, probe.which, t.*
FROM cx
JOIN ck ON ck.source = cx.source AND ck.variant = 'lz4'
CROSS JOIN LATERAL (VALUES ('1 first', ck.source_keys[1]), ('19', ck.source_keys[19]),
                           ('27 last', ck.source_keys[cardinality(ck.source_keys)])) probe(which, key)
CROSS JOIN LATERAL try_codec('SELECT cassandra_sstable_has_key($1, $2)', cx.copy, probe.key) t
WHERE cx.kind = 'corrupt' ORDER BY cx.variant, probe.which;

DROP FUNCTION try_codec(text, text, bytea);
DROP FUNCTION stats_toc(bytea);
DROP VIEW pairs;
DROP FUNCTION ci_header(bytea);
DROP FUNCTION be(bytea, integer, integer);
RESET client_min_messages;
