--
-- Setup shared by every regression test: the extension and helpers that
-- read the reference data (golden vectors, real Cassandra Filter.db files)
-- from the copy the test command places where the server can read it.
--
-- what an earlier run stopped half-way (a lost connection) may have left
-- on the server: the tests' databases and roles (roles belong to the whole
-- cluster), all named regress_bloomcass_*; each test drops its own
SET client_min_messages = warning;
DROP DATABASE IF EXISTS regress_bloomcass_trusted;
DROP DATABASE IF EXISTS regress_bloomcass_upgrade;
DROP DATABASE IF EXISTS regress_bloomcass_fresh;
DO $$
DECLARE
	r name;
BEGIN
	FOR r IN SELECT rolname FROM pg_roles WHERE rolname LIKE 'regress\_bloomcass\_%' LOOP
		EXECUTE format('DROP ROLE %I', r);
	END LOOP;
END $$;
RESET client_min_messages;

-- install the first released version and walk the upgrade chain, so that
-- every test runs on an upgraded catalog (10_upgrade checks that it is a
-- fresh install's: every function, aggregate, type, operator, operator
-- class and cast of the extension, with its comment)
CREATE EXTENSION bloomcass VERSION '1.0';
ALTER EXTENSION bloomcass UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'bloomcass';

\getenv datadir BLOOMCASS_SERVER_DATA
SELECT :'datadir' <> '' AS have_data_dir \gset
\if :have_data_dir
\else
\echo 'BLOOMCASS_SERVER_DATA is not set: run the tests with test/run-all.sh'
\quit
\endif

CREATE TABLE test_config AS SELECT :'datadir'::text AS datadir;

-- absolute server path of a reference file
CREATE FUNCTION test_path(rel text) RETURNS text
LANGUAGE sql STABLE AS $$ SELECT datadir || '/' || rel FROM test_config $$;

-- the bytes of a reference file
CREATE FUNCTION test_file(rel text) RETURNS bytea
LANGUAGE sql VOLATILE AS $$ SELECT pg_read_binary_file(test_path(rel)) $$;

-- the data lines of a reference file, numbered (comment lines skipped)
CREATE FUNCTION test_lines(rel text, OUT lineno bigint, OUT line text) RETURNS SETOF record
LANGUAGE sql VOLATILE AS $$
	SELECT n, l
	FROM regexp_split_to_table(pg_read_file(test_path(rel)), E'\n') WITH ORDINALITY AS t(l, n)
	WHERE l <> '' AND l NOT LIKE '#%'
$$;

-- the fields of a tab-separated reference file
CREATE FUNCTION test_tsv(rel text, OUT lineno bigint, OUT f text[]) RETURNS SETOF record
LANGUAGE sql VOLATILE AS $$
	SELECT lineno, string_to_array(line, E'\t') FROM test_lines(rel)
$$;

-- the key types of @> (30_contains_each, 34_may_contain), each with the
-- expression of its key for g = 1, 2, ...
CREATE DOMAIN test_dtext AS text;
CREATE TABLE test_key_types (typ text, expr text);
INSERT INTO test_key_types VALUES
	('bytea', 'int4send(g)'),
	('text', $$'k' || g$$),
	('varchar', $$('v' || g)::varchar$$),
	('test_dtext', $$('d' || g)::test_dtext$$),
	('smallint', 'g::smallint'),
	('integer', 'g::integer + 100000'),
	('bigint', 'g::bigint * 1000003'),
	('real', '(g::real / 8)::real'),
	('double precision', 'g::float8 / 3'),
	('boolean', 'g <= 300'),
	('uuid', 'md5(g::text)::uuid'),
	('timestamptz', $$'2020-01-01 00:00:00+00'::timestamptz + g * interval '1 second'$$),
	('timestamp', $$'2020-01-01'::timestamp + g * interval '1 minute'$$),
	('date', $$'2000-01-01'::date + g$$),
	('time', $$'00:00'::time + g * interval '1 second'$$),
	('inet', $$'10.0.0.0'::inet + g$$),
	('numeric', 'g::numeric * 1.5'),
	('bytea', $$cassandra_key('k' || g, g)$$);	-- composite keys

-- a filter for expected_keys at 0.01 holding the keys of g = 1 .. 300 of
-- every key type of test_key_types (the present keys of 30_contains_each
-- and 34_may_contain)
CREATE FUNCTION test_key_filter(expected_keys bigint) RETURNS bloom LANGUAGE plpgsql AS $$
DECLARE
	r record;
	f bloom;
	result bloom;
BEGIN
	FOR r IN SELECT * FROM test_key_types LOOP
		EXECUTE format('SELECT bloom_agg(%s, 0.01, $1) FROM generate_series(1, 300) g', r.expr)
			INTO f USING expected_keys;
		result := CASE WHEN result IS NULL THEN f ELSE result | f END;
	END LOOP;
	RETURN result;
END $$;

-- Runs a statement (under the caller's statement_timeout) and returns the
-- seconds until the cancellation arrived (NULL if it finished first).
CREATE FUNCTION test_cancel_after(stmt text) RETURNS numeric
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz := clock_timestamp();
BEGIN
	EXECUTE stmt;
	RETURN NULL;
EXCEPTION WHEN query_canceled THEN
	RETURN extract(epoch FROM clock_timestamp() - t0);
END $$;

-- the result of the query q, or its error's SQLSTATE and message with the
-- path root (the data folder's) taken out of it
CREATE FUNCTION test_try(q text, root text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	r text;
BEGIN
	EXECUTE q INTO r;
	RETURN r;
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || replace(SQLERRM, root, '');
END $$;

-- the real SSTables of sstables/ with the facts of their MANIFEST.tsv,
-- derived independently of bloomcass ('-' is NULL); prefix is the server
-- path of the SSTable's common file-name prefix
CREATE VIEW sstable_manifest AS
SELECT lineno,
	m[1] AS dir, m[2] AS descriptor, m[3] AS version, m[4] AS format, m[5] AS generation,
	m[6] AS keyspace, m[7] AS table_name, string_to_array(m[8], ',') AS components,
	m[9] AS partitioner, m[10]::float8 AS fp_chance, m[11]::bigint AS partitions,
	m[12]::bigint AS index_keys, decode(m[13], 'hex') AS first_key, decode(m[14], 'hex') AS last_key,
	m[15]::integer AS hash_count, m[16]::bigint AS word_count,
	m[17] AS sized_as_cassandra, m[18] AS rebuild_identical, m[22] AS note, m[23] AS key_type,
	m[24] AS stats_layout, m[25] AS hash_order, m[26] AS rebuild_keys, m[28] AS real_filters_file,
	test_path('sstables/' || m[1] || '/' || m[2]) AS prefix
FROM (SELECT lineno, array_agg(nullif(v, '-') ORDER BY i) AS m
      FROM test_tsv('sstables/MANIFEST.tsv'), unnest(f) WITH ORDINALITY AS u(v, i)
      WHERE lineno > 1 GROUP BY lineno) t;

-- every object of the extension has a comment (the array type bloom[] that
-- PostgreSQL creates with the type is listed as a member from PostgreSQL 17
-- on: it needs none)
SELECT pg_describe_object(d.classid, d.objid, d.objsubid) AS object_without_comment
FROM pg_depend d
JOIN pg_extension e ON d.refclassid = 'pg_extension'::regclass AND d.refobjid = e.oid
WHERE e.extname = 'bloomcass' AND d.deptype = 'e'
  AND obj_description(d.objid, d.classid::regclass::name) IS NULL
  AND NOT (d.classid = 'pg_proc'::regclass AND
           (SELECT proname FROM pg_proc WHERE oid = d.objid) ~ '^(bloom_(in|out|recv|send)|bloom_agg_.*|bloom_union_(state_)?(trans|final))$')
  AND NOT (d.classid = 'pg_type'::regclass AND
           (SELECT typcategory FROM pg_type WHERE oid = d.objid) = 'A')
  AND d.classid <> 'pg_opfamily'::regclass
  AND d.classid <> 'pg_cast'::regclass
ORDER BY 1;

SELECT count(*) AS murmur3_rows FROM test_tsv('vectors/murmur3.tsv');
SELECT count(*) AS sstables, count(DISTINCT version) AS versions, count(*) FILTER (WHERE format = 'bti') AS bti
FROM sstable_manifest;

-- test-only entry point of the library: this backend's counts of sliced
-- probes, chunk fetches and whole reads of stored filters (bloom_probe.c);
-- a test calls counters_reset() in its own session, then counters_since()
CREATE FUNCTION probe_counters(OUT sliced bigint, OUT fetches bigint, OUT detoasts bigint)
	AS 'bloomcass', 'bloomcass_probe_counters' LANGUAGE C;
CREATE TABLE counters_before AS SELECT * FROM probe_counters();
CREATE FUNCTION counters_since() RETURNS TABLE (sliced bigint, fetches bigint, detoasts bigint)
LANGUAGE sql AS $$
	SELECT c.sliced - b.sliced, c.fetches - b.fetches, c.detoasts - b.detoasts
	FROM probe_counters() c, counters_before b
$$;
CREATE FUNCTION counters_reset() RETURNS void LANGUAGE sql AS $$
	DELETE FROM counters_before; INSERT INTO counters_before SELECT * FROM probe_counters();
$$;
