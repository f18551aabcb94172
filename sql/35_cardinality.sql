--
-- The cardinality estimator of Statistics.db: the cardinality and
-- cardinality_estimator columns of cassandra_metadata over every real
-- SSTable (against stream-lib 2.5.2's own cardinality() of the same bytes,
-- hll/real.tsv, and the exact partition counts of sstables/MANIFEST.tsv);
-- ScyllaDB's estimator; the aggregate cassandra_approximate_key_count
-- (merges whose results stream-lib gave, hll/vectors.tsv.gz: sparse,
-- sparse to normal, normal, a refusal; the fallback; real tables of several
-- SSTables against their distinct keys; parallel workers); a filter's size
-- explained (cassandra_filter_sizing); malformed estimators.
--
CREATE TEMP TABLE cd_files AS
SELECT m.dir || '/' || m.descriptor AS sstable, m.version, m.index_keys,
       m.prefix, test_file('sstables/' || m.dir || '/' || m.descriptor || '-Statistics.db') AS stats,
       coalesce(m.note LIKE '%ARTIFACT%', false) AS artifact, m.keyspace, m.table_name, m.dir
FROM sstable_manifest m
WHERE 'Statistics.db' = ANY (m.components) AND m.version NOT IN ('b', 'e', 'hb');

-- stream-lib's cardinality() of each real estimator (hll/real.tsv)
CREATE TEMP TABLE cd_streamlib AS
SELECT f[1] AS rel, f[2]::bigint AS cardinality, f[3] AS version FROM test_tsv('hll/real.tsv');

-- every SSTable whose version has CompactionMetadata: stream-lib's answer
-- exactly, the estimator stream-lib's; in sparse mode (every one but the
-- 10,000-partition oa-13-big) the exact partition count; none before ka
SELECT count(*) AS sstables,
       count(m.cardinality) AS with_estimate,
       count(*) FILTER (WHERE m.cardinality = s.cardinality) AS as_streamlib,
       count(*) FILTER (WHERE m.cardinality = f.index_keys) AS exact,
       count(*) FILTER (WHERE m.cardinality IS NULL AND f.version IN ('ia', 'ib', 'ic', 'ja', 'jb')) AS none_before_ka,
       string_agg(DISTINCT m.cardinality_estimator, ', ') AS estimators
FROM cd_files f
LEFT JOIN cd_streamlib s ON s.rel = 'sstables/' || f.sstable || '-Statistics.db',
     LATERAL cassandra_metadata(f.stats, f.version) m
WHERE NOT f.artifact;

-- the one in normal mode: within three standard errors (1.04 / sqrt(8192))
SELECT f.sstable, f.index_keys, m.cardinality,
       abs(m.cardinality - f.index_keys) <= 3 * 1.04 / sqrt(8192) * f.index_keys AS within_error
FROM cd_files f, LATERAL cassandra_metadata(f.stats, f.version) m
WHERE NOT f.artifact AND m.cardinality <> f.index_keys;

-- DataStax's versions, and the server-file form
SELECT count(*) AS datastax, count(*) FILTER (WHERE m.cardinality = s.cardinality) AS as_streamlib
FROM cd_streamlib s, LATERAL cassandra_metadata(test_file(s.rel), s.version) m
WHERE s.rel LIKE 'sstables-datastax/%';
SELECT cardinality, cardinality_estimator
FROM cassandra_sstable_metadata(test_path('sstables/sstable-to-arrow/cpp/sample_data/baselines/iot-5b608090e03d11ebb4c1d335f841c590/md-2-big'));

-- A Statistics.db of the table-of-contents layouts without CRC32s (ka ..
-- me) with its estimator replaced: the components rebuilt, the offsets
-- moved.
CREATE FUNCTION cd_int(b bytea, o int) RETURNS int LANGUAGE sql IMMUTABLE AS
$$ SELECT ('x' || encode(substr(b, o + 1, 4), 'hex'))::bit(32)::int $$;
CREATE FUNCTION cd_with_estimator(stats bytea, est bytea, ancestors boolean) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
	n int := cd_int(stats, 0);
	toc bytea := int4send(n);
	body bytea := '';
	at int := 4 + 8 * n;
	r record;
	comp bytea;
	skip int;
BEGIN
	FOR r IN
		SELECT t, o, coalesce(lead(o) OVER (ORDER BY o), length(stats)) AS e
		FROM (SELECT cd_int(stats, 4 + 8 * i) AS t, cd_int(stats, 8 + 8 * i) AS o
		      FROM generate_series(0, n - 1) i) x
		ORDER BY t
	LOOP
		comp := substr(stats, r.o + 1, r.e - r.o);
		IF r.t = 1 THEN
			skip := CASE WHEN ancestors THEN 4 + 4 * cd_int(comp, 0) ELSE 0 END;
			comp := substr(comp, 1, skip) || int4send(length(est)) || est;
		END IF;
		toc := toc || int4send(r.t::int) || int4send(at);
		body := body || comp;
		at := at + length(comp);
	END LOOP;
	RETURN toc || body;
END $$;

CREATE TEMP TABLE cd_vec AS SELECT f[1] AS name, decode(f[2], 'hex') AS est FROM test_tsv('hll/sql.tsv');
CREATE TEMP TABLE cd_md AS
SELECT stats FROM cd_files WHERE sstable LIKE 'sstable-to-arrow/cpp/%/md-2-big';

-- stream-lib's estimators in md-2-big's Statistics.db (vectors
-- p13_sp25_0_1000 and p13_sp25_0_20000: 1000 and 20192)
SELECT (SELECT cardinality FROM cassandra_metadata(
           cd_with_estimator(c.stats, (SELECT est FROM cd_vec WHERE name = 'p13_sp25_0_1000'), false), 'md')) AS sparse_1000,
       (SELECT cardinality FROM cassandra_metadata(
           cd_with_estimator(c.stats, (SELECT est FROM cd_vec WHERE name = 'p13_sp25_0_20000'), false), 'md')) AS normal_20000
FROM cd_md c;

-- ScyllaDB's estimator (hll::HyperLogLog::get_bytes: -2, b = 4, sp 0,
-- normal, 16 one-byte registers) in the versions ScyllaDB writes: its own
-- estimate(); in a version only Cassandra writes, stream-lib's reading of
-- the same bytes, p = 4, whose bias data bloomcass does not hold: refused
CREATE TEMP TABLE cd_scylla AS
SELECT decode('fffffffe04000010' || '0302050104030201' || '0603020101020402', 'hex') AS est;
SELECT v.version, m.cardinality, m.cardinality_estimator
FROM cd_md c, cd_scylla s, (VALUES ('md')) v(version),
     LATERAL cassandra_metadata(cd_with_estimator(c.stats, s.est, false), v.version) m;
SELECT test_try(format('SELECT cardinality FROM cassandra_metadata(%L, ''mb'')',
                       cd_with_estimator(c.stats, s.est, false)), '') AS mb
FROM cd_md c, cd_scylla s;
-- an empty estimator (some ScyllaDB releases wrote one): none
SELECT cardinality, cardinality_estimator
FROM cd_md c, LATERAL cassandra_metadata(cd_with_estimator(c.stats, '', false), 'md');

-- Malformed estimators: 22P03 naming Statistics.db (a size or count the
-- estimator cannot hold, a negative size, impossible precisions, a varint
-- of more than 6 bytes), 0A000 for a precision above 18
SELECT e.what, test_try(format('SELECT cardinality FROM cassandra_metadata(%L, ''md'')',
                               cd_with_estimator(c.stats, decode(e.hex, 'hex'), false)), '') AS result
FROM cd_md c, (VALUES
	('sparse count past the end', 'fffffffe0d190105'),
	('normal size past the end', 'fffffffe0d1900a4' || '2a00000000'),
	('negative normal size', 'fffffffe0d1900ffffffff0f'),
	('p above sp', 'fffffffe0e0d0100'),
	('sp above 32', 'fffffffe0d210100'),
	('p below 4', 'fffffffe030d0100'),
	('varint too long', 'fffffffe8d8080808080800d'),
	('cut in the version', 'fffffe'),
	('legacy entry past the end', '0000000d00000019000000010000000905'),
	('p of 19', 'fffffffe131901' || '00'),
	('normal words short of 2^p registers', 'fffffffe0d190008' || '0000000100000002')
) e(what, hex)
ORDER BY e.what;
-- the estimator's own length past its component
SELECT test_try(format('SELECT cardinality FROM cassandra_metadata(%L, ''md'')',
                       overlay(s.b placing int4send(100000) from s.o + 1)), '') AS length_past_component
FROM (SELECT c.stats AS b, (SELECT cd_int(c.stats, 8 + 8 * i) FROM generate_series(0, 3) i
                            WHERE cd_int(c.stats, 4 + 8 * i) = 1) AS o FROM cd_md c) s;

-- The aggregate: the merges stream-lib computed (chains of vectors.tsv.gz:
-- sparse + sparse 3000; sparse + sparse past 7,680 entries, converted to
-- normal, 8053; normal + normal 60689), a refusal (p = 12 with p = 13:
-- the sum of the partition counts, 1000 + 1000), the rows' order reversed,
-- and no row
CREATE TEMP TABLE cd_chain AS
SELECT c.chain, c.i, cd_with_estimator(m.stats, v.est, false) AS stats
FROM cd_md m, (VALUES ('sparse', 1, 'p13_sp25_0_1000'), ('sparse', 2, 'p13_sp25_500_3000'),
                      ('to_normal', 1, 'p13_sp25_0_5000'), ('to_normal', 2, 'p13_sp25_2000_8000'),
                      ('normal', 1, 'p13_sp25_0_20000'), ('normal', 2, 'p13_sp25_10000_60000'),
                      ('refused', 1, 'p12_sp25_0_100'), ('refused', 2, 'p13_sp25_0_100')) c(chain, i, name)
JOIN cd_vec v ON v.name = c.name;
SELECT chain, cassandra_approximate_key_count(stats, 'md' ORDER BY i) AS merged,
       cassandra_approximate_key_count(stats, 'md' ORDER BY i DESC) AS reversed
FROM cd_chain GROUP BY chain ORDER BY chain;
SELECT cassandra_approximate_key_count(stats, 'md') AS no_row FROM cd_chain WHERE false;

-- the fallback, the sum of the partition counts (1000 each): an SSTable
-- without an estimator (jb, 5 partitions), one of ScyllaDB's, an empty
-- one; NULL rows left out
SELECT cassandra_approximate_key_count(s, v) AS with_jb
FROM (SELECT stats AS s, 'md' AS v FROM cd_chain WHERE chain = 'sparse'
      UNION ALL SELECT stats, version FROM cd_files WHERE sstable LIKE '%legacy_jb_simple/%') x;
SELECT cassandra_approximate_key_count(s, 'md') AS with_scylla
FROM (SELECT stats AS s FROM cd_chain WHERE chain = 'normal'
      UNION ALL SELECT cd_with_estimator(c.stats, e.est, false) FROM cd_md c, cd_scylla e) x;
SELECT cassandra_approximate_key_count(s, 'md') AS with_empty, count(*) AS rows
FROM (SELECT stats AS s FROM cd_chain WHERE chain = 'normal'
      UNION ALL SELECT cd_with_estimator(c.stats, '', false) FROM cd_md c
      UNION ALL SELECT NULL) x;

-- the three-argument form: each SSTable's estimatedKeys() for the fallback
-- (Summary.db's, (size_at_full_sampling + 1) * min_index_interval: 1152 for
-- md-2-big), NULL its partition count (1000); when the merge succeeds, unused
SELECT cassandra_approximate_key_count(c.stats, 'md',
           (SELECT (size_at_full_sampling + 1)::bigint * min_index_interval
            FROM cassandra_summary(test_file('sstables/sstable-to-arrow/cpp/sample_data/baselines/iot-5b608090e03d11ebb4c1d335f841c590/md-2-big-Summary.db'), 'md'))) AS summary_fallback,
       cassandra_approximate_key_count(c.stats, 'md', NULL) AS null_fallback,
       (SELECT cassandra_approximate_key_count(stats, 'md', 5) FROM cd_chain WHERE chain = 'sparse') AS merged
FROM cd_chain c WHERE c.chain = 'refused';
SELECT test_try('SELECT cassandra_approximate_key_count(stats, ''md'', -1) FROM cd_chain', '') AS negative;

-- real tables of several SSTables: the estimate against their distinct keys
SELECT regexp_replace(f.dir, '^.*/', '') AS folder, count(*) AS sstables,
       cassandra_approximate_key_count(f.stats, f.version) AS estimate,
       (SELECT count(DISTINCT k) FROM cd_files g, cassandra_sstable_keys(g.prefix) k
        WHERE g.dir = f.dir AND NOT g.artifact) AS distinct_keys
FROM cd_files f
WHERE NOT f.artifact AND f.version >= 'ka' AND f.version < 'o'
GROUP BY f.dir HAVING count(*) > 1
ORDER BY 1;

-- an estimator not in stream-lib's form (a run length of 63): merged in the
-- rows' order, as stream-lib does: 30494 for p13_sp25_0_30000 (30489
-- alone) and it in either order (chains normal_plus_runlength_63 and
-- runlength_63_plus_normal)
CREATE TEMP TABLE cd_hostile AS
SELECT x.i, cd_with_estimator(c.stats, v.est, false) AS stats
FROM cd_md c, cd_vec v, (VALUES (1, 'p13_sp25_0_30000'), (2, 'runlength_63')) x(i, name)
WHERE v.name = x.name;
SELECT cassandra_approximate_key_count(stats, 'md' ORDER BY i) AS hostile,
       cassandra_approximate_key_count(stats, 'md' ORDER BY i DESC) AS hostile_reversed
FROM cd_hostile;

-- parallel workers: the same answers
CREATE TABLE cd_many AS
SELECT c.stats FROM cd_chain c, generate_series(1, 2000) g WHERE c.chain IN ('sparse', 'normal');
ANALYZE cd_many;
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT cassandra_approximate_key_count(stats, 'md') FROM cd_many;
SELECT cassandra_approximate_key_count(stats, 'md') AS parallel FROM cd_many;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost; RESET parallel_tuple_cost; RESET min_parallel_table_scan_size;
SELECT cassandra_approximate_key_count(stats, 'md') AS serial FROM cd_many;

-- A filter's size explained: every real filter from its Statistics.db
SELECT m.version >= 'ma' AS from_3_0, s.sized_by, count(*) AS sstables,
       count(*) FILTER (WHERE s.undersized) AS undersized,
       string_agg(CASE WHEN s.sized_by IN ('compaction', 'neither') THEN m.descriptor || ' ' || s.partitions || ' partitions, '
                       || s.cardinality || ' estimated, ' || s.word_count || ' words' END, '; ') AS which
FROM cd_files f, sstable_manifest m,
     LATERAL cassandra_filter_sizing(bloom_import_file(f.prefix || '-Filter.db'), f.stats, f.version) s
WHERE m.prefix = f.prefix AND 'Filter.db' = ANY (m.components) AND NOT f.artifact
  AND f.version >= 'ja' AND m.real_filters_file IS NOT NULL
GROUP BY 1, 2 ORDER BY 1, 2;
-- md-2-big, 1000 partitions at 0.01: its own filter (flush and compaction
-- agree), one sized for a compaction whose estimate fell short (100 keys:
-- undersized), one sized for the 128 keys of cleanup's minimum, and one of
-- another fp_chance
SELECT w.what, s.*
FROM cd_md c, cd_vec v, (VALUES
	('its own', NULL::bigint, NULL::float8),
	('for 100 keys', 100, 0.01),
	('for 128 keys', 128, 0.01),
	('for 1000 keys at 0.1', 1000, 0.1)) w(what, keys, fp),
     LATERAL cassandra_filter_sizing(
         CASE WHEN w.keys IS NULL THEN bloom_import_file(test_path('sstables/sstable-to-arrow/cpp/sample_data/baselines/iot-5b608090e03d11ebb4c1d335f841c590/md-2-big-Filter.db'))
              ELSE bloom_create(w.keys, w.fp) END,
         CASE WHEN w.keys IS NULL THEN c.stats ELSE cd_with_estimator(c.stats, v.est, false) END, 'md') s
WHERE v.name = 'p13_sp25_0_100'
ORDER BY w.what;
-- a ScyllaDB-written estimator sizes nothing (ScyllaDB's compactions size
-- from partition counts)
SELECT s.cardinality_estimator, s.compaction_keys, s.sized_by
FROM cd_md c, cd_scylla e,
     LATERAL cassandra_filter_sizing(bloom_create(1000, 0.01), cd_with_estimator(c.stats, e.est, false), 'md') s;

DROP TABLE cd_many;
DROP FUNCTION cd_with_estimator(bytea, bytea, boolean);
DROP FUNCTION cd_int(bytea, int);
