--
-- bloom_may_contain(filter, keys anyarray [, key_type]): the elements of
-- keys that the filter may contain, as rows, in storage order (unnest's),
-- repeated as the array repeats them, NULL elements skipped; for every key
-- type @> takes, on filters in memory and stored out of line (probed by
-- slices, or read whole once), in FROM and in a select list.  Every answer
-- is compared with unnest(keys) WITH ORDINALITY filtered by @> on the
-- filter in memory, in the same order.
--
-- counters_reset() and counters_since() (01_setup): this backend's counts
-- of sliced probes, chunk fetches and whole reads of stored filters

-- the key types of @> (test_key_types, 01_setup), each with keys for
-- g = 1, 2, ...: those of g <= 300 go into the filters; the arrays hold
-- g = 1 .. 600 (half present), NULL for every g divisible by 100, and the
-- keys of every g divisible by 7 twice in a row
CREATE TABLE mc_key_arrays (typ text, expr text, keys_text text);
DO $$
DECLARE
	r record;
BEGIN
	FOR r IN SELECT * FROM test_key_types LOOP
		EXECUTE format($q$INSERT INTO mc_key_arrays SELECT %L, %L,
			(SELECT array_agg(CASE WHEN g %% 100 = 0 THEN NULL ELSE %s END ORDER BY g, t)
			 FROM generate_series(1, 600) g, generate_series(1, CASE WHEN g %% 7 = 0 THEN 2 ELSE 1 END) t)::text$q$,
			r.typ, r.expr, r.expr);
	END LOOP;
END $$;

-- two filters holding the present keys of every type: small (60 kB
-- stored: read whole) and large (2.4 MB, 1,199 chunks stored out of line:
-- a few keys are probed by slices)
CREATE TABLE mc_filters (id int, f bloom);
ALTER TABLE mc_filters ALTER COLUMN f SET STORAGE external;
INSERT INTO mc_filters VALUES (1, test_key_filter(50000)), (2, test_key_filter(2000000));
SELECT id, (bloom_info(f)).filter_db_bytes, pg_column_size(f) AS stored_bytes
FROM mc_filters ORDER BY id;

-- For each filter and key type: the rows of bloom_may_contain on the
-- filter in memory and stored, in FROM and in a select list, against
-- unnest WITH ORDINALITY filtered by @> on the filter in memory, as text
-- (the exact values, in order).  n_rows counts a repeated key as often as
-- the array holds it (n_repeated of the rows are the second of a pair).
-- The timestamptz keys of g = 360, 420, 480 and 540 are present: they are
-- the timestamp keys of g = 6, 7, 8 and 9 (both are CQL timestamps).
CREATE FUNCTION mc_vs_unnest(p_id int, p_typ text, p_expr text, p_keys text,
	OUT n_keys int, OUT n_rows int, OUT n_repeated int,
	OUT in_memory_same boolean, OUT stored_same boolean, OUT select_list_same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	typ text := CASE WHEN p_expr LIKE 'cassandra_key%' THEN 'bytea' ELSE p_typ END;
	mem bloom;
	ref text;
	got_mem text;
	got_stored text;
	got_select_list text;
BEGIN
	SELECT f | f INTO mem FROM mc_filters WHERE id = p_id;	-- a copy in memory
	EXECUTE format('SELECT ARRAY(SELECT k FROM unnest($2::%s[]) WITH ORDINALITY u(k, o) WHERE $1 @> k ORDER BY o)::text,
			cardinality($2::%1$s[]) - array_length(array_positions($2::%1$s[], NULL), 1)', typ)
		INTO ref, n_keys USING mem, p_keys;
	EXECUTE format('SELECT ARRAY(SELECT k FROM bloom_may_contain($1, $2::%s[]) k)::text', typ)
		INTO got_mem USING mem, p_keys;
	EXECUTE format('SELECT ARRAY(SELECT k FROM mc_filters, bloom_may_contain(f, $1::%s[]) k WHERE id = $2)::text', typ)
		INTO got_stored USING p_keys, p_id;
	EXECUTE format('SELECT ARRAY(SELECT bloom_may_contain(f, $1::%s[]) FROM mc_filters WHERE id = $2)::text', typ)
		INTO got_select_list USING p_keys, p_id;
	EXECUTE format('SELECT count(*), count(*) FILTER (WHERE k = lag) FROM
			(SELECT k, lag(k) OVER (ORDER BY o) FROM unnest($1::%s[]) WITH ORDINALITY u(k, o)) s
			WHERE k IS NOT NULL AND $2::%1$s[] @> ARRAY[k]', typ)
		INTO n_rows, n_repeated USING got_stored, p_keys;
	in_memory_same := got_mem = ref;
	stored_same := got_stored = ref;
	select_list_same := got_select_list = ref;
END $$;

-- the declarations: sets of the element type, immutable, parallel safe,
-- 100 rows estimated; bloom_may_contain in SQL, not strict (PostgreSQL
-- inlines it in FROM), with its planner support; bloom_may_contain_rows,
-- which its body calls, in C, the two-argument form strict
SELECT p.oid::regprocedure, l.lanname, proretset, prorows, provolatile, proparallel, proisstrict,
       prosupport, prosrc
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE proname IN ('bloom_may_contain', 'bloom_may_contain_rows') ORDER BY proname, pronargs;

SELECT counters_reset();
SELECT id, typ, e.*
FROM mc_filters, mc_key_arrays, LATERAL mc_vs_unnest(id, typ, expr, keys_text) e
ORDER BY id, typ, expr;
-- every stored probe of an array (36 in FROM, 36 in a select list) read
-- its filter whole (its header, then the whole, once per call site), but
-- the two of the booleans on the large filter: 679 keys each probed by
-- slices, the chunks of two distinct keys' bits fetched
SELECT * FROM counters_since();

------------------------------------------------------------------------------
-- Few keys against the large stored filter: probed by slices (no whole
-- read), the rows those of @> on the filter in memory
------------------------------------------------------------------------------
CREATE TABLE mc_few (name text, keys text[]);
INSERT INTO mc_few VALUES
	('one present', '{k1}'),
	('present, repeated', '{k1,k1,NULL,k1}'),
	('one absent', '{k301}'),
	('present and absent, in order', '{k3,k302,NULL,k2,k1,k303,k3}');
CREATE TABLE mc_few_counts (name text, rows text[], sliced bigint, fetches bigint, detoasts bigint);
DO $$
DECLARE
	r record;
	a text[];
BEGIN
	FOR r IN SELECT * FROM mc_few LOOP
		PERFORM counters_reset();
		a := ARRAY(SELECT k FROM mc_filters, bloom_may_contain(f, r.keys) k WHERE id = 2);
		INSERT INTO mc_few_counts SELECT r.name, a, c.* FROM counters_since() c;
	END LOOP;
END $$;
SELECT c.name, c.rows,
       c.rows = ARRAY(SELECT k FROM (SELECT f | f AS f FROM mc_filters WHERE id = 2) m,
                      unnest(w.keys) WITH ORDINALITY u(k, o) WHERE m.f @> k ORDER BY o) AS same,
       c.sliced, c.fetches, c.detoasts
FROM mc_few_counts c JOIN mc_few w USING (name) ORDER BY c.name;

------------------------------------------------------------------------------
-- Many rows, one call site (a lateral join): three stored filters, each
-- probed with two arrays, with the probe cache and without it (each filter
-- read whole once, then probed by slices as the spare it was replaced as)
------------------------------------------------------------------------------
CREATE TABLE mc_many_filters (id int, f bloom);
ALTER TABLE mc_many_filters ALTER COLUMN f SET STORAGE external;
INSERT INTO mc_many_filters
SELECT j, (SELECT bloom_agg('k' || (j * 1000 + g), 0.01, 20000::bigint) FROM generate_series(1, 1000) g)
FROM generate_series(1, 3) j;
CREATE TABLE mc_many_arrays (a int, keys text[]);
INSERT INTO mc_many_arrays
SELECT a, (SELECT array_agg(CASE WHEN g % 97 = 0 THEN NULL ELSE 'k' || (a * 700 + g) END ORDER BY g)
           FROM generate_series(1, 2500) g)
FROM generate_series(1, 2) a;
CREATE TABLE mc_many_ref AS
SELECT k.a, m.id, u.o, u.x
FROM (SELECT id, f | f AS mem FROM mc_many_filters) m, mc_many_arrays k,
     unnest(k.keys) WITH ORDINALITY u(x, o)
WHERE m.mem @> u.x;
SELECT a, id, count(*) AS n FROM mc_many_ref GROUP BY a, id ORDER BY a, id;
CREATE FUNCTION mc_many_same() RETURNS boolean LANGUAGE sql AS $$
SELECT ARRAY(SELECT s.a || ':' || s.id || ':' || x
             FROM (SELECT k.a, m.id, m.f, k.keys FROM mc_many_arrays k, mc_many_filters m
                   ORDER BY k.a, m.id OFFSET 0) s,
                  bloom_may_contain(s.f, s.keys) x)
     = ARRAY(SELECT a || ':' || id || ':' || x FROM mc_many_ref ORDER BY a, id, o)
$$;
SELECT counters_reset();
SELECT mc_many_same() AS same_rows;
SELECT sliced, fetches, detoasts FROM counters_since();
SET bloomcass.probe_cache_size = 0;
SELECT counters_reset();
SELECT mc_many_same() AS same_rows_without_cache;
SELECT sliced, fetches, detoasts FROM counters_since();
RESET bloomcass.probe_cache_size;

------------------------------------------------------------------------------
-- Shapes and order: the rows in storage order, a repeated key as often as
-- it is repeated, NULL elements skipped; empty and all-NULL arrays give no
-- rows, as do a NULL filter and a NULL array; a compressed stored filter
-- and an inline one
------------------------------------------------------------------------------
CREATE TABLE mc_shape_filter AS SELECT bloom_agg('k' || g, 0.01, 'nb') AS f FROM generate_series(1, 10) g;
SELECT a AS keys, ARRAY(SELECT k FROM bloom_may_contain(f, a) WITH ORDINALITY m(k, o) ORDER BY o) AS may_contain,
       ARRAY(SELECT k FROM bloom_may_contain(f, a) k)
           = ARRAY(SELECT k FROM unnest(a) WITH ORDINALITY u(k, o) WHERE f @> k ORDER BY o) AS same_as_unnest
FROM mc_shape_filter, (VALUES (1, '{}'::text[]), (2, '{NULL}'), (3, '{NULL,NULL,NULL}'),
	(4, '{k2,k1,k2,x,NULL,k1,k9,y,k9}'), (5, '{{k1,k2,x},{NULL,k3,y}}'), (6, '[0:1]={k1,x}'),
	(7, '[2:3][-1:0]={{k7,x},{y,k2}}'), (8, '{{{k1},{k4}},{{z},{NULL}}}'), (9, '{k10,k9,k8,k7,k6,k5,k4,k3,k2,k1}')) v(i, a)
ORDER BY i;
SELECT (SELECT count(*) FROM bloom_may_contain(NULL::bloom, '{k1}'::text[])) AS null_filter,
       (SELECT count(*) FROM mc_shape_filter, bloom_may_contain(f, NULL::text[])) AS null_keys,
       (SELECT count(*) FROM bloom_may_contain(NULL::bloom, '{k1}'::text[], 'text')) AS null_filter_typed,
       (SELECT count(*) FROM mc_shape_filter, bloom_may_contain(f, NULL::text[], 'text')) AS null_keys_typed;
-- in a select list, beside another column; under LIMIT
SELECT 'row' AS c, bloom_may_contain(f, ARRAY['k3', 'x', 'k1', 'k3']) AS k FROM mc_shape_filter;
SELECT k FROM mc_shape_filter, bloom_may_contain(f, ARRAY['k5', 'k4', 'x', 'k3']) k LIMIT 2;
-- in a select list the rows stream value per call: a set left before its
-- end (LIMIT in a subquery run once per row) does not leak into the next
-- row's set, and the next set starts at its own first key
SELECT i, (SELECT k FROM (SELECT bloom_may_contain(f, a) AS k) s LIMIT 1) AS first_present,
       (SELECT k FROM (SELECT bloom_may_contain(f, a, 'text') AS k) s LIMIT 1 OFFSET 1) AS second_present,
       ARRAY(SELECT bloom_may_contain(f, a)) AS all_present
FROM mc_shape_filter, (VALUES (1, '{x,k1,k2,k3}'::text[]), (2, '{k4,k5,y}'), (3, '{y}'),
	(4, '{z,k6,NULL,k7}'), (5, NULL)) v(i, a)
ORDER BY i;
-- two sets in one select list run side by side, the shorter padded with NULL
SELECT bloom_may_contain(f, ARRAY['k1', 'x', 'k2']) AS a, bloom_may_contain(f, ARRAY['k9', 'k8', 'k7', 'y']) AS b
FROM mc_shape_filter;
-- the output type is the element type: varchar, a domain, an integer
SELECT pg_typeof(k), k FROM mc_shape_filter, bloom_may_contain(f, ARRAY['k1', 'x']::varchar[]) k;
SELECT pg_typeof(k), k FROM mc_shape_filter, bloom_may_contain(f, ARRAY['k2', 'x']::test_dtext[]) k;
SELECT pg_typeof(k), k FROM (SELECT bloom_agg(7) AS f) s, bloom_may_contain(f, ARRAY[8, 7, 9]) k;

CREATE TABLE mc_f_compressed (f bloom);
ALTER TABLE mc_f_compressed ALTER COLUMN f SET STORAGE extended;
INSERT INTO mc_f_compressed SELECT bloom_agg('k' || g, 0.01, 60000::bigint) FROM generate_series(1, 300) g;
SELECT pg_column_size(f) < (bloom_info(f)).filter_db_bytes AS compressed,
       ARRAY(SELECT bloom_may_contain(f, ARRAY['k1', 'k300', 'k301', NULL, 'absent', 'k1'])) AS rows
FROM mc_f_compressed;

------------------------------------------------------------------------------
-- Typed: bloom_may_contain(filter, keys, key_type) is bloom_contains(filter,
-- key, key_type) of every element; a NULL key_type is the untyped form
------------------------------------------------------------------------------
CREATE TABLE mc_typed_filters AS
SELECT cql, bloom_agg(cassandra_key_parse(v, cql), 0.0001) AS f
FROM (VALUES ('LongType', '1'), ('LongType', '3000000000'), ('Int32Type', '7'),
             ('UTF8Type', 'user1'), ('DecimalType', '1.50')) k(cql, v)
GROUP BY cql;
CREATE TABLE mc_typed_probes (i int, cql text, key_type text, keys text, typ text);
INSERT INTO mc_typed_probes VALUES
	(1, 'LongType', 'LongType', '{1,NULL,2,3000000000,1}', 'bigint'),
	(2, 'LongType', 'bigint', '{1,2}', 'integer'),
	(3, 'LongType', 'LongType', '{2,1,3000000000}', 'text'),
	(4, 'LongType', 'bigint', '{{1,2},{3,1}}', 'smallint'),
	(5, 'LongType', NULL, '{1,2}', 'integer'),
	(6, 'LongType', NULL, '{1,2}', 'bigint'),
	(7, 'Int32Type', 'int', '{7,8,7}', 'bigint'),
	(8, 'UTF8Type', 'text', '{user2,user1,NULL}', 'text'),
	(9, 'DecimalType', 'decimal', '{1.5,1.50,2}', 'numeric'),
	(10, 'LongType', 'LongType', '{}', 'bigint');
CREATE FUNCTION mc_typed(p_cql text, p_key_type text, p_keys text, p_typ text,
	OUT rows text, OUT same_as_bloom_contains boolean)
LANGUAGE plpgsql AS $$
DECLARE
	ref text;
BEGIN
	EXECUTE format('SELECT ARRAY(SELECT k FROM mc_typed_filters, bloom_may_contain(f, $1::%s[], $2) k WHERE cql = $3)::text', p_typ)
		INTO rows USING p_keys, p_key_type, p_cql;
	EXECUTE format('SELECT ARRAY(SELECT k FROM mc_typed_filters, unnest($1::%s[]) WITH ORDINALITY u(k, o)
			WHERE cql = $3 AND CASE WHEN $2 IS NULL THEN f @> k ELSE bloom_contains(f, k, $2) END ORDER BY o)::text', p_typ)
		INTO ref USING p_keys, p_key_type, p_cql;
	same_as_bloom_contains := rows = ref;
END $$;
SELECT i, cql, key_type, typ, keys, t.*
FROM mc_typed_probes, mc_typed(cql, key_type, keys, typ) t ORDER BY i;

------------------------------------------------------------------------------
-- Errors, with their SQLSTATEs: an element type @> does not take (@>'s own
-- error, naming the type); a key_type that is no type, or that the element
-- type cannot be written as; a value the key type cannot hold; keys that
-- are not an array
------------------------------------------------------------------------------
SELECT q, test_try(q, '') AS error FROM (VALUES
	($$SELECT count(*) FROM mc_shape_filter, bloom_may_contain(f, ARRAY[point(1, 2)])$$),
	($$SELECT count(*) FROM mc_shape_filter, bloom_may_contain(f, ARRAY['{"a":1}'::jsonb])$$),
	($$SELECT bloom_may_contain(f, ARRAY[ROW(1, 'a')]) FROM mc_shape_filter$$),
	($$SELECT count(*) FROM mc_shape_filter, bloom_may_contain(f, ARRAY[1::oid])$$),
	($$SELECT count(*) FROM mc_shape_filter, bloom_may_contain(f, '{}'::oid[])$$),
	($$SELECT count(*) FROM mc_shape_filter, bloom_may_contain(f, ARRAY[1], 'text')$$),
	($$SELECT count(*) FROM mc_shape_filter, bloom_may_contain(f, ARRAY[1], 'NoSuchType')$$),
	($$SELECT count(*) FROM mc_typed_filters, bloom_may_contain(f, ARRAY[1, 3000000000], 'int') WHERE cql = 'LongType'$$),
	($$SELECT count(*) FROM mc_shape_filter, bloom_may_contain(f, 'k1')$$),
	($$SELECT count(*) FROM mc_shape_filter, bloom_may_contain(f, 42)$$)) v(q);

------------------------------------------------------------------------------
-- Where the rows are made: bloom_may_contain_rows in a select list, where
-- the rows stream, wherever bloom_may_contain is (in FROM inlined as a
-- subquery, elsewhere put in its place by the support function); in a
-- function scan only where PostgreSQL does not inline a FROM item (WITH
-- ORDINALITY, ROWS FROM, a volatile argument).  Counted in the JSON plan:
-- function scans, ProjectSet nodes, the functions called.
------------------------------------------------------------------------------
CREATE FUNCTION mc_plan(q text, OUT function_scans int, OUT project_sets int, OUT calls text)
LANGUAGE plpgsql AS $$
DECLARE
	p jsonb;
BEGIN
	EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF, FORMAT JSON) ' || q INTO p;
	SELECT count(*) FILTER (WHERE t = '"Function Scan"'), count(*) FILTER (WHERE t = '"ProjectSet"')
	INTO function_scans, project_sets
	FROM jsonb_path_query(p, 'strict $.**."Node Type"') t;
	SELECT string_agg(DISTINCT m[1], ', ') INTO calls
	FROM regexp_matches(p::text, '(bloom_may_contain\w*)\(', 'g') m;
END $$;
SELECT q, p.*
FROM (VALUES
	('SELECT k FROM mc_shape_filter, bloom_may_contain(f, ARRAY[''k1'', ''x'']) k'),
	('SELECT k FROM mc_shape_filter, bloom_may_contain(f, ARRAY[''k1'', ''x''], ''text'') k'),
	('SELECT count(*) FROM mc_shape_filter, bloom_may_contain(f, ARRAY[''k1'']) a, bloom_may_contain(f, ARRAY[''k2'']) b'),
	('SELECT bloom_may_contain(f, ARRAY[''k1'', ''x'']) FROM mc_shape_filter'),
	('SELECT bloom_may_contain(f, ARRAY[''k1'', ''x''], ''text''), 1 FROM mc_shape_filter'),
	('SELECT k FROM mc_shape_filter, bloom_may_contain(f, ARRAY[''k1'']) k, LATERAL (SELECT bloom_may_contain(f, ARRAY[k])) s'),
	('SELECT * FROM mc_shape_filter, bloom_may_contain(f, ARRAY[''k1'', ''x'']) WITH ORDINALITY m(k, o)'),
	('SELECT * FROM mc_shape_filter, ROWS FROM (bloom_may_contain(f, ARRAY[''k1'']), generate_series(1, 2)) r'),
	('SELECT k FROM mc_shape_filter, bloom_may_contain(f, ARRAY[random()::text]) k')) v(q),
	LATERAL mc_plan(q) p;
-- the same rows each way
SELECT ARRAY(SELECT k FROM mc_shape_filter, bloom_may_contain(f, ARRAY['k2', 'x', 'k1']) k) AS in_from,
       ARRAY(SELECT bloom_may_contain(f, ARRAY['k2', 'x', 'k1']) FROM mc_shape_filter) AS in_select_list,
       ARRAY(SELECT k FROM mc_shape_filter, bloom_may_contain(f, ARRAY['k2', 'x', 'k1']) WITH ORDINALITY m(k, o) ORDER BY o) AS in_function_scan,
       ARRAY(SELECT k FROM mc_shape_filter, bloom_may_contain(f, ARRAY['k2', 'x', 'k1', (random() * 0)::int::text]) k) AS volatile_argument;
-- A role that may not execute bloom_may_contain is refused it in FROM and
-- in a select list alike (nothing calls bloom_may_contain_rows in its
-- place), as the executor refuses a function; with the privilege back,
-- the rows.
BEGIN;
CREATE ROLE regress_bloomcass_mc;
GRANT SELECT ON mc_shape_filter TO regress_bloomcass_mc;
REVOKE EXECUTE ON FUNCTION bloom_may_contain(bloom, anyarray) FROM PUBLIC;
SET ROLE regress_bloomcass_mc;
SELECT q, test_try(q, '') AS answer
FROM (VALUES
	('SELECT string_agg(k, '','') FROM mc_shape_filter, bloom_may_contain(f, ARRAY[''k1'', ''x'']) k'),
	('SELECT string_agg(k, '','') FROM (SELECT bloom_may_contain(f, ARRAY[''k1'', ''x'']) FROM mc_shape_filter) s(k)'),
	('SELECT string_agg(k, '','') FROM mc_shape_filter, bloom_may_contain(f, ARRAY[''k1'', ''x''], ''text'') k')) v(q);
RESET ROLE;
GRANT EXECUTE ON FUNCTION bloom_may_contain(bloom, anyarray) TO regress_bloomcass_mc;
SET ROLE regress_bloomcass_mc;
SELECT string_agg(k, ',') AS granted FROM mc_shape_filter, bloom_may_contain(f, ARRAY['k1', 'x', 'k2']) k;
RESET ROLE;
ROLLBACK;

------------------------------------------------------------------------------
-- A huge array is cancellable: 20,000,000 keys written as varint one by
-- one (seconds of work) stop within a 1 s statement_timeout
------------------------------------------------------------------------------
CREATE TABLE mc_huge AS SELECT array_fill(7, ARRAY[20000000]) AS a;
SET statement_timeout = '1s';
SELECT test_cancel_after($$SELECT count(*) FROM mc_huge, bloom_may_contain(bloom_create(1000), a, 'varint')$$) < 2.0
       AS may_contain_cancelled_within_1s;
SELECT test_cancel_after($$SELECT count(*) FROM (SELECT bloom_may_contain(bloom_create(1000), a, 'varint') FROM mc_huge) s$$) < 2.0
       AS may_contain_select_list_cancelled_within_1s;
SELECT test_cancel_after($$SELECT cardinality(bloom_contains_each(bloom_create(1000), a, 'varint')) FROM mc_huge$$) < 2.0
       AS contains_each_cancelled_within_1s;
RESET statement_timeout;

DROP TABLE mc_key_arrays, mc_filters, mc_few, mc_few_counts, mc_many_filters,
	mc_many_arrays, mc_many_ref, mc_shape_filter, mc_f_compressed, mc_typed_filters,
	mc_typed_probes, mc_huge;
DROP FUNCTION mc_vs_unnest(int, text, text, text), mc_many_same(), mc_typed(text, text, text, text),
	mc_plan(text);
