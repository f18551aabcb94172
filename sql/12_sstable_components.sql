--
-- The rest of an SSTable through SQL: cassandra_statistics,
-- cassandra_summary and cassandra_index_keys (bytes) and
-- cassandra_sstable_keys (a file on the server), against the facts of
-- sstables/MANIFEST.tsv (derived without bloomcass) and the keys.hex files
-- of real-filters.  Every check prints counts of agreeing rows and lists
-- the rows that disagree; server paths are printed relative to the data
-- directory ($DATA).
--
CREATE TEMP TABLE sc AS
SELECT m.*, m.dir || '/' || m.descriptor AS sstable,
       m.version IN ('b', 'e', 'hb') AS pre12,
       coalesce(m.note LIKE '%ARTIFACT%', false) AS artifact,
       'sstables/' || m.dir || '/' || m.descriptor || '-' AS rel,
       -- 1.2 stored no fp_chance: its defaults, 0.1 for the leveled table
       coalesce(m.fp_chance, CASE WHEN m.dir LIKE '%invalid-legacy-sstables/Keyspace1/Standard1'
                                  THEN 0.1 ELSE 0.01 END) AS rebuild_fp_chance,
       CASE WHEN m.real_filters_file IS NOT NULL
            THEN 'real-filters/' || regexp_replace(substr(m.real_filters_file, length('shared/real-filters/') + 1),
                                                   '[^/]+$', 'keys.hex') END AS keys_hex
FROM sstable_manifest m;

SELECT count(*) AS sstables,
       count(*) FILTER (WHERE format = 'big' AND NOT pre12) AS big_from_12,
       count(*) FILTER (WHERE format = 'bti') AS bti,
       count(*) FILTER (WHERE pre12) AS before_12,
       count(*) FILTER (WHERE artifact) AS artifacts
FROM sc;

-- an error as SQLSTATE and message, with the data directory as $DATA
CREATE FUNCTION test_strip(msg text) RETURNS text
LANGUAGE sql STABLE AS $$ SELECT replace(msg, (SELECT datadir FROM test_config), '$DATA') $$;

-- run stmt with one text argument: its single result, or the error
CREATE FUNCTION try_sql(stmt text, arg text, OUT state text, OUT message text, OUT result text)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE stmt INTO result USING arg;
	state := '00000';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT;
	message := test_strip(message);
END $$;

------------------------------------------------------------------------------
-- Statistics.db: partitioner, fp_chance, partition count, key type; CRCs
-- verified where the version has them (stats_layout toc+crc)
------------------------------------------------------------------------------
CREATE TEMP TABLE sc_stats AS
SELECT s.sstable, s.version, s.partitioner, s.fp_chance, s.partitions, s.key_type,
       s.stats_layout = 'toc+crc' AS has_crc,
       r.partitioner AS got_partitioner, r.fp_chance AS got_fp_chance,
       r.partitions AS got_partitions, r.key_type AS got_key_type, r.checksummed
FROM sc s
CROSS JOIN LATERAL cassandra_statistics(test_file(s.rel || 'Statistics.db'), s.version) r
WHERE 'Statistics.db' = ANY (s.components) AND NOT s.pre12;

SELECT (SELECT count(*) FROM sc WHERE 'Statistics.db' = ANY (components) AND NOT pre12) AS with_statistics,
       count(*) AS parsed,
       count(*) FILTER (WHERE got_partitioner IS NOT DISTINCT FROM partitioner) AS partitioner_ok,
       count(*) FILTER (WHERE got_fp_chance IS NOT DISTINCT FROM fp_chance) AS fp_chance_ok,
       count(*) FILTER (WHERE got_fp_chance IS NULL) AS fp_chance_not_stored,
       count(*) FILTER (WHERE got_partitions IS NOT DISTINCT FROM partitions) AS partitions_ok,
       count(*) FILTER (WHERE got_key_type IS NOT DISTINCT FROM key_type) AS key_type_ok,
       count(*) FILTER (WHERE got_key_type IS NULL) AS key_type_before_ma,
       count(*) FILTER (WHERE checksummed = has_crc) AS checksummed_ok,
       count(*) FILTER (WHERE checksummed) AS checksummed
FROM sc_stats;

SELECT sstable, version, got_partitioner, got_fp_chance, got_partitions, got_key_type, checksummed
FROM sc_stats
WHERE got_partitioner IS DISTINCT FROM partitioner OR got_fp_chance IS DISTINCT FROM fp_chance
   OR got_partitions IS DISTINCT FROM partitions OR got_key_type IS DISTINCT FROM key_type
   OR checksummed <> has_crc
ORDER BY sstable COLLATE "C";

------------------------------------------------------------------------------
-- Summary.db: the first and last partition keys
------------------------------------------------------------------------------
CREATE TEMP TABLE sc_summary AS
SELECT s.sstable, s.version, s.first_key, s.last_key, r.*
FROM sc s
CROSS JOIN LATERAL (SELECT r.first_key AS got_first, r.last_key AS got_last,
                           r.min_index_interval, r.sampled_entries, r.sampling_level,
                           r.size_at_full_sampling
                    FROM cassandra_summary(test_file(s.rel || 'Summary.db'), s.version) r) r
WHERE 'Summary.db' = ANY (s.components);

SELECT (SELECT count(*) FROM sc WHERE 'Summary.db' = ANY (components)) AS with_summary,
       count(*) AS parsed,
       count(*) FILTER (WHERE got_first = first_key AND got_last = last_key) AS first_last_ok,
       count(*) FILTER (WHERE sampled_entries >= 1 AND sampling_level BETWEEN 1 AND 128
                          AND size_at_full_sampling >= sampled_entries
                          AND min_index_interval >= 1) AS header_plausible
FROM sc_summary;

SELECT sstable, version, encode(got_first, 'hex') AS got_first, encode(got_last, 'hex') AS got_last
FROM sc_summary
WHERE got_first IS DISTINCT FROM first_key OR got_last IS DISTINCT FROM last_key
ORDER BY sstable COLLATE "C";

------------------------------------------------------------------------------
-- ScyllaDB's quirks, made from the real files: older ScyllaDB releases
-- list Statistics.db's table of contents in their own order (types 2, 0, 1
-- or 3, 2, 0, 1, each offset where it was), read by Cassandra 2.1 - 3.x and
-- ScyllaDB, which seek to each offset; ScyllaDB writes 0 as Summary.db's
-- size at full sampling, which no reader checks.  Both give the facts of
-- the original.  With CRC32s (na and later) Cassandra reads the components
-- in table order, so such a table is refused there (here its CRC32, not
-- recomputed, fails first).
------------------------------------------------------------------------------
CREATE TEMP TABLE sq_stats AS
SELECT s.sstable, s.version, s.stats_layout, d.orig,
       -- entry k (0-based) starts at byte e + 8 k (1-based)
       substr(d.orig, 1, d.e - 1)
       || CASE WHEN d.n = 3
               THEN substr(d.orig, d.e + 16, 8) || substr(d.orig, d.e, 8) || substr(d.orig, d.e + 8, 8)
               ELSE substr(d.orig, d.e + 24, 8) || substr(d.orig, d.e + 16, 8) || substr(d.orig, d.e, 8)
                    || substr(d.orig, d.e + 8, 8) END
       || substr(d.orig, d.e + 8 * d.n) AS reordered
FROM sc s
CROSS JOIN LATERAL (SELECT f.orig, get_byte(f.orig, 3) AS n,
                           CASE s.stats_layout WHEN 'toc' THEN 5 ELSE 9 END AS e
                    FROM (SELECT test_file(s.rel || 'Statistics.db') AS orig) f) d
WHERE 'Statistics.db' = ANY (s.components) AND s.stats_layout IN ('toc', 'toc+crc');

SELECT stats_layout, count(*) AS files,
       count(*) FILTER (WHERE reordered = orig) AS unchanged,
       count(*) FILTER (WHERE t.state = '00000' AND t.result = (SELECT r::text FROM cassandra_statistics(orig, version) r))
           AS same_facts,
       string_agg(DISTINCT t.state || CASE WHEN t.state = '00000' THEN '' ELSE ': ' || t.message END, '; ') AS outcomes
FROM sq_stats
CROSS JOIN LATERAL try_sql(format('SELECT r::text FROM cassandra_statistics(%L::bytea, $1) r', reordered), version) t
GROUP BY 1 ORDER BY 1;

CREATE TEMP TABLE sq_summary AS
SELECT s.sstable, s.version, d.orig, overlay(d.orig placing '\x00000000'::bytea from 21) AS zeroed
FROM sc s CROSS JOIN LATERAL (SELECT test_file(s.rel || 'Summary.db') AS orig) d
WHERE 'Summary.db' = ANY (s.components) AND s.version >= 'ka';

SELECT count(*) AS files,
       count(*) FILTER (WHERE z.size_at_full_sampling = 0) AS size_zero,
       count(*) FILTER (WHERE (z.min_index_interval, z.sampled_entries, z.sampling_level, z.first_key, z.last_key)
                              = (o.min_index_interval, o.sampled_entries, o.sampling_level, o.first_key, o.last_key))
           AS same_facts,
       count(*) FILTER (WHERE o.size_at_full_sampling >= o.sampled_entries) AS original_size_at_least_entries
FROM sq_summary q
CROSS JOIN LATERAL cassandra_summary(q.orig, q.version) o
CROSS JOIN LATERAL cassandra_summary(q.zeroed, q.version) z;

------------------------------------------------------------------------------
-- Index.db: every key from the file, streamed (cassandra_sstable_keys), and
-- from its bytes (cassandra_index_keys), in file order
------------------------------------------------------------------------------
CREATE TEMP TABLE sc_keys AS
SELECT s.sstable, k.n, k.key
FROM sc s CROSS JOIN LATERAL cassandra_sstable_keys(s.prefix) WITH ORDINALITY AS k(key, n)
WHERE s.format = 'big' AND NOT s.pre12;
CREATE INDEX ON sc_keys (sstable, n);

CREATE TEMP TABLE sc_ikeys AS
SELECT s.sstable, k.n, k.key
FROM sc s
CROSS JOIN LATERAL cassandra_index_keys(test_file(s.rel || 'Index.db'), s.version) WITH ORDINALITY AS k(key, n)
WHERE s.format = 'big' AND NOT s.pre12;

CREATE TEMP TABLE sc_keycheck AS
SELECT s.sstable, s.version, s.index_keys, s.first_key, s.last_key,
       count(k.n) AS n,
       (array_agg(k.key ORDER BY k.n))[1] AS got_first,
       (array_agg(k.key ORDER BY k.n DESC))[1] AS got_last,
       count(DISTINCT k.key) AS distinct_keys
FROM sc s LEFT JOIN sc_keys k USING (sstable)
WHERE s.format = 'big' AND NOT s.pre12
GROUP BY 1, 2, 3, 4, 5;

SELECT count(*) AS sstables, sum(n) AS keys,
       count(*) FILTER (WHERE n = index_keys) AS count_ok,
       count(*) FILTER (WHERE got_first = first_key) AS first_ok,
       count(*) FILTER (WHERE got_last = last_key) AS last_ok,
       count(*) FILTER (WHERE distinct_keys = n) AS no_duplicates
FROM sc_keycheck;

SELECT sstable, version, index_keys, n, encode(got_first, 'hex') AS got_first, encode(got_last, 'hex') AS got_last
FROM sc_keycheck
WHERE n <> index_keys OR got_first IS DISTINCT FROM first_key OR got_last IS DISTINCT FROM last_key
ORDER BY sstable COLLATE "C";

-- the file read in pieces gives what the bytes give, key for key
SELECT (SELECT count(*) FROM sc_ikeys) AS index_keys_from_bytes,
       count(*) AS differing_positions
FROM sc_keys k FULL JOIN sc_ikeys i USING (sstable, n)
WHERE k.key IS DISTINCT FROM i.key;

-- any component's path, or the prefix, names the same SSTable
SELECT c.component, count(*) AS sstables,
       count(*) FILTER (WHERE r.digest = d.digest) AS same_keys
FROM sc s
CROSS JOIN unnest(ARRAY['-Index.db', '-Data.db', '-Statistics.db', '-TOC.txt', '-Filter.db']) c(component)
CROSS JOIN LATERAL (SELECT md5(string_agg(encode(key, 'hex'), ',' ORDER BY n)) AS digest
                    FROM cassandra_sstable_keys(s.prefix || c.component) WITH ORDINALITY AS k(key, n)) r
CROSS JOIN LATERAL (SELECT md5(string_agg(encode(key, 'hex'), ',' ORDER BY n)) AS digest
                    FROM sc_keys k WHERE k.sstable = s.sstable) d
WHERE s.format = 'big' AND NOT s.pre12
GROUP BY 1 ORDER BY 1;

------------------------------------------------------------------------------
-- the keys against real-filters' keys.hex (same SSTable, keys listed
-- independently): the same set; the same order except where keys.hex is in
-- CQL insert order
------------------------------------------------------------------------------
CREATE TEMP TABLE sc_hex AS
SELECT s.sstable, l.lineno, decode(l.line, 'hex') AS key
FROM sc s CROSS JOIN LATERAL test_lines(s.keys_hex) l
WHERE s.keys_hex IS NOT NULL AND s.format = 'big';

CREATE TEMP TABLE sc_hexcheck AS
SELECT s.sstable, s.note,
       (SELECT count(*) FROM sc_hex h WHERE h.sstable = s.sstable) AS hex_keys,
       (SELECT count(*) FROM sc_keys k WHERE k.sstable = s.sstable) AS keys,
       (SELECT count(*) FROM (SELECT key FROM sc_keys k WHERE k.sstable = s.sstable
                              EXCEPT SELECT key FROM sc_hex h WHERE h.sstable = s.sstable) x) AS only_in_index,
       (SELECT count(*) FROM (SELECT key FROM sc_hex h WHERE h.sstable = s.sstable
                              EXCEPT SELECT key FROM sc_keys k WHERE k.sstable = s.sstable) x) AS only_in_hex,
       (SELECT array_agg(key ORDER BY n) FROM sc_keys k WHERE k.sstable = s.sstable) =
       (SELECT array_agg(key ORDER BY lineno) FROM sc_hex h WHERE h.sstable = s.sstable) AS same_order
FROM sc s
WHERE s.keys_hex IS NOT NULL AND s.format = 'big';

SELECT count(*) AS with_keys_hex,
       count(*) FILTER (WHERE hex_keys = keys AND only_in_index = 0 AND only_in_hex = 0) AS same_set,
       count(*) FILTER (WHERE same_order) AS same_order
FROM sc_hexcheck;

SELECT sstable, hex_keys, keys, only_in_index, only_in_hex, same_order,
       note LIKE '%CQL insert order%' AS manifest_says_insert_order
FROM sc_hexcheck
WHERE NOT (hex_keys = keys AND only_in_index = 0 AND only_in_hex = 0 AND same_order)
ORDER BY sstable COLLATE "C";

------------------------------------------------------------------------------
-- Filter.db: every key present; the filter rebuilt from the keys
------------------------------------------------------------------------------
-- by name (bloom_import_file) and, for the pre-release artifacts, with the
-- layout and hash order they were written in (new order, swapped payload)
CREATE TEMP TABLE sc_filter AS
SELECT s.sstable, s.version, s.artifact, s.rebuild_identical, s.note, f.bytes, f.by_name,
       CASE WHEN s.artifact THEN bloom_import(f.bytes, 'swapped', 'new') ELSE f.by_name END AS actual,
       CASE WHEN s.artifact THEN 'ma' ELSE s.version END AS written_as,
       s.rebuild_fp_chance
FROM sc s
CROSS JOIN LATERAL (SELECT test_file(s.rel || 'Filter.db') AS bytes,
                           bloom_import_file(s.prefix || '-Filter.db') AS by_name OFFSET 0) f
WHERE s.format = 'big' AND NOT s.pre12;

CREATE TEMP TABLE sc_filtercheck AS
SELECT f.sstable, f.version, f.artifact, f.rebuild_identical, f.note,
       c.keys, c.present_by_name, c.present,
       bloom_export(r.own, f.version) = f.bytes AS rebuild_own_rules,
       bloom_export(r.written, f.written_as) = f.bytes AS rebuild_written_rules
FROM sc_filter f
CROSS JOIN LATERAL (SELECT count(*) AS keys,
                           count(*) FILTER (WHERE bloom_contains(f.by_name, k.key)) AS present_by_name,
                           count(*) FILTER (WHERE bloom_contains(f.actual, k.key)) AS present
                    FROM sc_keys k WHERE k.sstable = f.sstable) c
CROSS JOIN LATERAL (SELECT bloom_agg(k.key, f.rebuild_fp_chance, f.version) AS own,
                           bloom_agg(k.key, f.rebuild_fp_chance, f.written_as) AS written
                    FROM sc_keys k WHERE k.sstable = f.sstable) r;

SELECT count(*) AS sstables, sum(keys) AS keys,
       count(*) FILTER (WHERE present = keys) AS all_keys_present,
       count(*) FILTER (WHERE NOT artifact AND present_by_name = keys) AS all_present_by_name,
       count(*) FILTER (WHERE rebuild_identical = 'yes') AS manifest_rebuild_yes,
       count(*) FILTER (WHERE rebuild_identical = 'yes' AND rebuild_own_rules) AS rebuilt_identical,
       count(*) FILTER (WHERE rebuild_identical = 'no' AND NOT rebuild_own_rules) AS manifest_no_differs
FROM sc_filtercheck;

-- the rows where a filter is not rebuilt byte for byte (all explained in
-- the manifest's note), and any key missing
SELECT sstable, version, keys, present_by_name, present, rebuild_identical AS manifest,
       rebuild_own_rules, rebuild_written_rules,
       CASE WHEN artifact THEN 'pre-release artifact'
            WHEN note LIKE '%sized for%' THEN 'sized from an estimate' END AS why
FROM sc_filtercheck
WHERE present <> keys OR present_by_name <> keys OR rebuild_identical IS DISTINCT FROM 'yes'
   OR NOT rebuild_own_rules
ORDER BY sstable COLLATE "C";

------------------------------------------------------------------------------
-- BTI and pre-1.2 SSTables: clean errors
------------------------------------------------------------------------------
SELECT s.dir || '/' || s.descriptor AS sstable, s.version, t.state, t.message
FROM sc s
CROSS JOIN LATERAL try_sql('SELECT count(*) FROM cassandra_sstable_keys($1)', s.prefix) t
WHERE s.format = 'bti' OR s.pre12
ORDER BY s.sstable COLLATE "C";

SELECT s.version, c.component, t.state, t.message, count(*)
FROM sc s
CROSS JOIN unnest(ARRAY['Statistics.db', 'Summary.db', 'Index.db']) c(component)
CROSS JOIN LATERAL try_sql(CASE c.component
                               WHEN 'Statistics.db' THEN 'SELECT partitions::text FROM cassandra_statistics(test_file($1), ' || quote_literal(s.version) || ')'
                               WHEN 'Summary.db' THEN 'SELECT sampled_entries::text FROM cassandra_summary(test_file($1), ' || quote_literal(s.version) || ')'
                               ELSE 'SELECT count(*) FROM cassandra_index_keys(test_file($1), ' || quote_literal(s.version) || ')' END,
                           s.rel || c.component) t
WHERE (s.format = 'bti' OR s.pre12) AND c.component = ANY (s.components)
GROUP BY 1, 2, 3, 4 ORDER BY 1, 2;

-- paths that are not an SSTable's, or whose Index.db is missing
SELECT p, t.state, t.message
FROM unnest(ARRAY['sstables/MANIFEST.tsv', 'sstables', 'sstables/', 'sstables/cassandra/nb-99-big',
                  'sstables/cassandra/nb-99-big-Data.db', 'sstables/cassandra/ks-cf-ka-7',
                  'sstables/cassandra/zz-1-big', 'sstables/cassandra/x-nb-1-big', 'sstables/cassandra/nb-1-bti-Index.db',
                  'sstables/cassandra/ms-1-big', 'sstables/cassandra/ks-cf-hb-1-Data.db',
                  'sstables/cassandra/nb-1-big-Index.txt']) p
CROSS JOIN LATERAL try_sql('SELECT count(*) FROM cassandra_sstable_keys($1)', test_path(p)) t
ORDER BY p COLLATE "C";
-- a relative path is below the data directory
SELECT state, message FROM try_sql('SELECT count(*) FROM cassandra_sstable_keys($1)', 'nb-1-big');

------------------------------------------------------------------------------
-- A scan stopped early closes its file: far more early-stopped scans in one
-- transaction than the server lets one backend keep files open (about a
-- third of max_files_per_process), then a commit, which would warn of any
-- file left open
------------------------------------------------------------------------------
SELECT prefix AS big_prefix FROM sc WHERE descriptor = 'la-1-big' AND dir LIKE '%/legacy_la_clust' \gset
SELECT set_config('test.big_prefix', :'big_prefix', false) IS NOT NULL AS configured;
SELECT (pg_stat_file(:'big_prefix' || '-Index.db')).size > 1024 * 1024 AS larger_than_one_piece,
       current_setting('max_files_per_process')::int < 1500 AS fewer_files_than_scans;
BEGIN;
DO $$
DECLARE
	k bytea;
	first bytea;
BEGIN
	SELECT cassandra_sstable_keys(current_setting('test.big_prefix')) INTO first LIMIT 1;
	FOR i IN 1..1500 LOOP
		SELECT cassandra_sstable_keys(current_setting('test.big_prefix')) INTO k LIMIT 1;
		IF k IS DISTINCT FROM first THEN
			RAISE EXCEPTION 'scan % gave another first key', i;
		END IF;
	END LOOP;
	FOR i IN 1..20 LOOP
		SELECT key INTO k FROM cassandra_sstable_keys(current_setting('test.big_prefix')) key LIMIT 1;
		IF k IS DISTINCT FROM first THEN
			RAISE EXCEPTION 'scan % in FROM gave another first key', i;
		END IF;
	END LOOP;
END $$;
COMMIT;

-- rescans: a scan stopped after two keys for each SSTable, in one query;
-- each starts again from its own first key
SELECT count(*) AS scans, sum(x.n) AS keys,
       count(*) FILTER (WHERE x.n = least(s.index_keys, 2)) AS count_ok,
       count(*) FILTER (WHERE x.keys = (SELECT array_agg(key ORDER BY n) FROM sc_keys k
                                        WHERE k.sstable = s.sstable AND k.n <= 2)) AS keys_ok
FROM sc s
CROSS JOIN LATERAL (SELECT count(*) AS n, array_agg(k) AS keys
                    FROM (SELECT cassandra_sstable_keys(s.prefix) AS k LIMIT 2) y) x
WHERE s.format = 'big' AND NOT s.pre12;

------------------------------------------------------------------------------
-- Malformed input through the three bytea parsers: truncations, bad counts
-- and lengths, flipped bytes, bad CRCs, the bytes read as another version
-- or component, garbage.  Every attempt gives a result or an ERROR with the
-- SQLSTATE of malformed bytes (22P03), a bad checksum (XX001), an
-- unsupported version (0A000) or an unknown one (22023), never another;
-- what is accepted is checked wherever the right answer is known.
------------------------------------------------------------------------------
SELECT setseed(0.12);

-- one parse: its state, and its result as a count and a digest (for
-- Index.db the keys in order)
CREATE FUNCTION try_parse(component text, data bytea, version text,
	OUT state text, OUT message text, OUT n bigint, OUT digest text)
LANGUAGE plpgsql AS $$
BEGIN
	IF component = 'Statistics.db' THEN
		SELECT 1, md5(r::text) INTO n, digest FROM cassandra_statistics(data, version) r;
	ELSIF component = 'Summary.db' THEN
		SELECT 1, md5(r::text) INTO n, digest FROM cassandra_summary(data, version) r;
	ELSE
		SELECT count(*), md5(coalesce(string_agg(encode(k, 'hex'), ',' ORDER BY o), ''))
		INTO n, digest FROM cassandra_index_keys(data, version) WITH ORDINALITY AS t(k, o);
	END IF;
	state := '00000';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, message = MESSAGE_TEXT;
END $$;

-- v as a big-endian two's complement of width bytes
CREATE FUNCTION be_bytes(v bigint, width int) RETURNS bytea LANGUAGE sql IMMUTABLE
AS $$ SELECT substr(decode(lpad(to_hex(v), 16, '0'), 'hex'), 9 - width, width) $$;

-- the bases: per component and version the smallest file (for Index.db
-- with 3 keys or more), and three larger Index.db files
CREATE TEMP TABLE mf_base AS
SELECT DISTINCT ON (c.component, s.version) c.component, s.version, s.sstable,
       test_file(s.rel || c.component) AS data, s.stats_layout = 'toc+crc' AS has_crc
FROM sc s CROSS JOIN unnest(ARRAY['Statistics.db', 'Summary.db', 'Index.db']) c(component)
WHERE c.component = ANY (s.components) AND NOT s.pre12
  AND (c.component <> 'Index.db' OR s.index_keys >= 3)
ORDER BY c.component, s.version, (pg_stat_file(test_path(s.rel || c.component))).size, s.sstable;
INSERT INTO mf_base
SELECT 'Index.db', s.version, s.sstable, test_file(s.rel || 'Index.db'), false
FROM sc s
WHERE s.sstable IN ('sstable-to-arrow/cpp/sample_data/baselines/iot-5b608090e03d11ebb4c1d335f841c590/md-2-big',
                    'cassandra/legacy-sstables/ka/legacy_tables/legacy_ka_clust_compact/legacy_tables-legacy_ka_clust_compact-ka-1',
                    'cassandra/legacy-sstables/oa/legacy_tables/legacy_oa_clust/oa-1-big');

-- each base parsed whole, and for Index.db the digest of its first n keys
CREATE TEMP TABLE mf_full AS
SELECT b.component, b.sstable, p.*
FROM mf_base b CROSS JOIN LATERAL try_parse(b.component, b.data, b.version) p;
CREATE TEMP TABLE mf_prefix AS
SELECT b.sstable, 0::bigint AS n, md5('') AS digest FROM mf_base b WHERE b.component = 'Index.db'
UNION ALL
SELECT b.sstable, k.o, md5(string_agg(encode(k.k, 'hex'), ',') OVER (PARTITION BY b.sstable ORDER BY k.o))
FROM mf_base b CROSS JOIN LATERAL cassandra_index_keys(b.data, b.version) WITH ORDINALITY AS k(k, o)
WHERE b.component = 'Index.db';

SELECT b.component, count(*) AS bases, count(DISTINCT b.version) AS versions,
       min(length(b.data)) AS min_bytes, max(length(b.data)) AS max_bytes,
       count(*) FILTER (WHERE f.state = '00000') AS parsed, sum(f.n) AS results
FROM mf_base b JOIN mf_full f USING (component, sstable)
GROUP BY 1 ORDER BY 1;

-- the candidates
CREATE TEMP TABLE mf_cand (id serial, component text, sstable text, version text, kind text,
	at int, data bytea);
-- every cut of a file up to 1 kB; of a larger one the first and last 512
-- cuts and every 13th (every 397th past 16 kB) between
INSERT INTO mf_cand (component, sstable, version, kind, at, data)
SELECT b.component, b.sstable, b.version, 'truncated', l, substr(b.data, 1, l)
FROM mf_base b, generate_series(0, length(b.data) - 1) l
WHERE length(b.data) <= 1024 OR l < 512 OR l >= length(b.data) - 512
   OR l % CASE WHEN length(b.data) <= 16384 THEN 13 ELSE 397 END = 0;
-- one byte inverted: every byte of a file up to 1 kB; of a larger one the
-- first and last 256 and every 11th (every 401st past 16 kB) between
INSERT INTO mf_cand (component, sstable, version, kind, at, data)
SELECT b.component, b.sstable, b.version, 'flipped', p, set_byte(b.data, p, get_byte(b.data, p) # 255)
FROM mf_base b, generate_series(0, length(b.data) - 1) p
WHERE length(b.data) <= 1024 OR p < 256 OR p >= length(b.data) - 256
   OR p % CASE WHEN length(b.data) <= 16384 THEN 11 ELSE 401 END = 0;
-- counts and lengths: Statistics.db's component count (BE32 at 0), then
-- the first TOC entry; Summary.db's interval and sample count (BE32 at 0
-- and 4) and from 2.0 the region size (BE64 at 8)
INSERT INTO mf_cand (component, sstable, version, kind, at, data)
SELECT b.component, b.sstable, b.version, 'count', o, overlay(b.data placing be_bytes(v, 4) from o + 1)
FROM mf_base b, unnest(ARRAY[0, 4, 8, 12]) o,
     unnest(ARRAY[0, 1, 2, 3, 4, 5, 100, 65536, 2147483647, -1, -2147483648]::bigint[]) v
WHERE b.component IN ('Statistics.db', 'Summary.db') AND length(b.data) >= o + 4;
INSERT INTO mf_cand (component, sstable, version, kind, at, data)
SELECT b.component, b.sstable, b.version, 'region', 8, overlay(b.data placing be_bytes(v, 8) from 9)
FROM mf_base b, unnest(ARRAY[0, 1, length(b.data) - 16, length(b.data), 9223372036854775807, -1]::bigint[]) v
WHERE b.component = 'Summary.db' AND b.version NOT LIKE 'i%';
-- Summary.db from 3.0: the last key's BE32 length, which ends the file
INSERT INTO mf_cand (component, sstable, version, kind, at, data)
SELECT b.component, b.sstable, b.version, 'key_length', length(b.data) - 4 - length(r.last_key),
       overlay(b.data placing be_bytes(v, 4) from length(b.data) - 3 - length(r.last_key))
FROM mf_base b CROSS JOIN LATERAL cassandra_summary(b.data, b.version) r,
     unnest(ARRAY[0, length(r.last_key) - 1, length(r.last_key) + 1, 65535, 65536, 2147483647, -1]::bigint[]) v
WHERE b.component = 'Summary.db' AND b.version >= 'ma';
-- Index.db: the first key's BE16 length, and its Data.db position
-- (BE64 before 3.0, a vint from 3.0) made all ones
INSERT INTO mf_cand (component, sstable, version, kind, at, data)
SELECT b.component, b.sstable, b.version, 'key_length', 0, overlay(b.data placing be_bytes(v, 2) from 1)
FROM mf_base b, unnest(ARRAY[0, 1, 2, 32768, 65535, length(b.data) - 2, length(b.data)]::bigint[]) v
WHERE b.component = 'Index.db';
INSERT INTO mf_cand (component, sstable, version, kind, at, data)
SELECT b.component, b.sstable, b.version, 'position', 2 + k,
       overlay(b.data placing decode(repeat('ff', w), 'hex') from 3 + k)
FROM mf_base b CROSS JOIN LATERAL (SELECT get_byte(b.data, 0) * 256 + get_byte(b.data, 1) AS k) x,
     unnest(ARRAY[1, 8, 9]) w
WHERE b.component = 'Index.db';
-- CRCs of 4.0+ and BTI Statistics.db: each byte of the count's CRC, of the
-- table's CRC (after the count and the table) and of the last component's
-- CRC (the file's last 4 bytes)
INSERT INTO mf_cand (component, sstable, version, kind, at, data)
SELECT b.component, b.sstable, b.version, 'crc', p, set_byte(b.data, p, get_byte(b.data, p) # 1)
FROM mf_base b CROSS JOIN LATERAL (SELECT ('x' || encode(substr(b.data, 1, 4), 'hex'))::bit(32)::int AS cnt) x,
     unnest(ARRAY[4, 5, 6, 7, 8 + 8 * cnt, 9 + 8 * cnt, 10 + 8 * cnt, 11 + 8 * cnt,
                  length(b.data) - 4, length(b.data) - 3, length(b.data) - 2, length(b.data) - 1]) p
WHERE b.component = 'Statistics.db' AND b.has_crc;
-- the bytes read as every other version
INSERT INTO mf_cand (component, sstable, version, kind, at, data)
SELECT b.component, b.sstable, v, 'other_version', NULL, b.data
FROM mf_base b, unnest(ARRAY['ic', 'jb', 'ka', 'la', 'lb', 'ma', 'mb', 'mc', 'md', 'me', 'na', 'nb',
                             'nc', 'oa', 'da', 'bb']) v
WHERE v <> b.version;
-- the bytes of another component, read as this one with the same version
INSERT INTO mf_cand (component, sstable, version, kind, at, data)
SELECT c, b.sstable, b.version, 'other_component', NULL, b.data
FROM mf_base b, unnest(ARRAY['Statistics.db', 'Summary.db', 'Index.db']) c
WHERE c <> b.component;
-- garbage of random length
INSERT INTO mf_cand (component, sstable, version, kind, at, data)
SELECT c, NULL, (ARRAY['ic', 'jb', 'ka', 'mc', 'nb', 'oa', 'da'])[1 + floor(random() * 7)::int], 'garbage', NULL,
       substr(decode(repeat(md5(random()::text) || md5(random()::text), 10), 'hex'), 1, floor(random() * 300)::int)
FROM unnest(ARRAY['Statistics.db', 'Summary.db', 'Index.db']) c, generate_series(1, 40);

CREATE TEMP TABLE mf_outcome AS
SELECT c.*, p.state, p.message, p.n, p.digest
FROM mf_cand c CROSS JOIN LATERAL try_parse(c.component, c.data, c.version) p;

-- accepted truncations are right: a Statistics.db or Summary.db gives what
-- the whole file gives (Summary.db before 3.0: a cut in the data after the
-- last key), an Index.db cut at an entry's end gives the keys before it
CREATE TEMP VIEW mf_checked AS
SELECT o.*,
       CASE WHEN o.state NOT IN ('00000', '22P03', 'XX001', '0A000', '22023') THEN 'unclean SQLSTATE'
            WHEN o.kind = 'truncated' AND o.state = '00000' AND o.component <> 'Index.db'
                 AND o.digest IS DISTINCT FROM f.digest THEN 'wrong result'
            WHEN o.kind = 'truncated' AND o.state = '00000' AND o.component = 'Index.db'
                 AND (o.n >= f.n OR o.digest IS DISTINCT FROM
                      (SELECT p.digest FROM mf_prefix p WHERE p.sstable = o.sstable AND p.n = o.n)) THEN 'wrong result'
            WHEN o.kind = 'crc' AND o.state <> 'XX001' THEN 'bad CRC not XX001'
            WHEN o.kind = 'flipped' AND o.component = 'Statistics.db' AND b.has_crc AND o.state = '00000'
                 THEN 'flipped byte under a CRC accepted'
       END AS problem
FROM mf_outcome o
LEFT JOIN mf_full f ON f.component = o.component AND f.sstable = o.sstable AND o.kind = 'truncated'
LEFT JOIN mf_base b ON b.component = o.component AND b.sstable = o.sstable;

SELECT component, kind, count(*) AS tried, count(*) FILTER (WHERE state = '00000') AS accepted,
       count(*) FILTER (WHERE state <> '00000') AS refused,
       count(*) FILTER (WHERE problem IS NOT NULL) AS problems
FROM mf_checked GROUP BY 1, 2 ORDER BY component, kind COLLATE "C";

SELECT component, kind, sstable, version, at, state, message, problem
FROM mf_checked WHERE problem IS NOT NULL ORDER BY id LIMIT 20;

-- every cut of a small Index.db: accepted exactly at the ends of its entries
-- (the start included, the end of the file excluded), once per key
SELECT b.sstable, b.version, f.n AS keys,
       count(*) FILTER (WHERE o.state = '00000') AS accepted_cuts,
       count(*) FILTER (WHERE o.state = '00000') = f.n AS once_per_key
FROM mf_base b JOIN mf_full f USING (component, sstable)
JOIN mf_outcome o ON o.component = b.component AND o.sstable = b.sstable AND o.kind = 'truncated'
WHERE b.component = 'Index.db' AND length(b.data) <= 1024
GROUP BY 1, 2, 3 ORDER BY 2, 1;

-- the errors by component, SQLSTATE and message
SELECT component, state, message, count(*)
FROM mf_outcome WHERE state <> '00000'
GROUP BY 1, 2, 3 ORDER BY component, state, message COLLATE "C";

-- version names (the name in the message shown as V)
SELECT f.fn, t.state, regexp_replace(t.message, 'version "[^"]*"', 'version "V"') AS message,
       string_agg(quote_literal(v), ' ' ORDER BY v COLLATE "C") AS versions
FROM unnest(ARRAY['', 'z', 'zz', 'NB', 'nb ', ' nb', 'n', 'nbb', 'pc', 'mf', 'hf', 'hb', 'ga', 'f', 'e', 'b',
                  'aa', 'ba', 'ac', 'da', 'bb', 'ms', 'mt', 'ka-1', 'nb-1-big-Data.db', '4.0']) v
CROSS JOIN unnest(ARRAY['cassandra_statistics', 'cassandra_summary', 'cassandra_index_keys']) f(fn)
CROSS JOIN LATERAL try_sql(format('SELECT count(*) FROM %s(''\x00000001''::bytea, $1)', f.fn), v) t
GROUP BY 1, 2, 3 ORDER BY f.fn, t.state, regexp_replace(t.message, 'version "[^"]*"', 'version "V"') COLLATE "C";
