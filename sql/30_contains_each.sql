--
-- bloom_contains_each(filter, keys anyarray): filter @> key for every
-- element, in order, NULL for a NULL element, for every key type @> takes,
-- on filters in memory and stored out of line (probed by slices, each
-- TOAST chunk fetched once per batch, or read whole once).  Every answer
-- is compared with element-wise @> on the filter in memory.
--
-- counters_reset() and counters_since() (01_setup): this backend's counts
-- of sliced probes, chunk fetches and whole reads of stored filters

-- the key types of @> (test_key_types, 01_setup), each with keys for
-- g = 1, 2, ...: those of g <= 300 go into the filters, the arrays probe
-- g = 1 .. 600 (half present), with NULL for every g divisible by 100;
-- the arrays, one per key type
CREATE TABLE ce_key_arrays (typ text, expr text, keys_text text);
DO $$
DECLARE
	r record;
BEGIN
	FOR r IN SELECT * FROM test_key_types LOOP
		EXECUTE format($q$INSERT INTO ce_key_arrays SELECT %L, %L,
			(SELECT array_agg(CASE WHEN g %% 100 = 0 THEN NULL ELSE %s END ORDER BY g)
			 FROM generate_series(1, 600) g)::text$q$, r.typ, r.expr, r.expr);
	END LOOP;
END $$;

-- two filters holding the present keys of every type: small (inline
-- compressed in memory, 60 kB stored: read whole) and large (2.4 MB, 1,199
-- chunks stored: a few keys are probed by slices)
CREATE TABLE ce_filters (id int, f bloom);
ALTER TABLE ce_filters ALTER COLUMN f SET STORAGE external;
INSERT INTO ce_filters VALUES (1, test_key_filter(50000)), (2, test_key_filter(2000000));
SELECT id, (bloom_info(f)).hash_count, (bloom_info(f)).filter_db_bytes, pg_column_size(f) AS stored_bytes
FROM ce_filters ORDER BY id;

-- For each filter and key type: the answers of bloom_contains_each on the
-- filter in memory and stored, against element-wise @> on the filter in
-- memory; counts of true, false and NULL answers (both answers occur).
-- The timestamptz keys of g = 360, 420, 480 and 540 are present: they are
-- the timestamp keys of g = 6, 7, 8 and 9 (both are CQL timestamps).
CREATE FUNCTION ce_each_vs_elementwise(p_id int, p_typ text, p_expr text, p_keys text,
	OUT n int, OUT n_true int, OUT n_false int, OUT n_null int,
	OUT in_memory_same boolean, OUT stored_same boolean)
LANGUAGE plpgsql AS $$
DECLARE
	mem bloom;
	ref boolean[];
	got_mem boolean[];
	got_stored boolean[];
BEGIN
	SELECT f | f INTO mem FROM ce_filters WHERE id = p_id;	-- a copy in memory
	EXECUTE format('SELECT array_agg($1 @> k ORDER BY o) FROM unnest($2::%s[]) WITH ORDINALITY u(k, o)',
		CASE WHEN p_expr LIKE 'cassandra_key%' THEN 'bytea' ELSE p_typ END)
		INTO ref USING mem, p_keys;
	EXECUTE format('SELECT bloom_contains_each($1, $2::%s[])',
		CASE WHEN p_expr LIKE 'cassandra_key%' THEN 'bytea' ELSE p_typ END)
		INTO got_mem USING mem, p_keys;
	EXECUTE format('SELECT bloom_contains_each(f, $1::%s[]) FROM ce_filters WHERE id = $2',
		CASE WHEN p_expr LIKE 'cassandra_key%' THEN 'bytea' ELSE p_typ END)
		INTO got_stored USING p_keys, p_id;
	n := cardinality(ref);
	SELECT count(*) FILTER (WHERE a), count(*) FILTER (WHERE NOT a), count(*) FILTER (WHERE a IS NULL)
	INTO n_true, n_false, n_null FROM unnest(got_stored) a;
	in_memory_same := got_mem IS NOT DISTINCT FROM ref AND cardinality(got_mem) = n;
	stored_same := got_stored IS NOT DISTINCT FROM ref AND cardinality(got_stored) = n;
END $$;

SELECT counters_reset();
SELECT id, typ, e.*
FROM ce_filters, ce_key_arrays, LATERAL ce_each_vs_elementwise(id, typ, expr, keys_text) e
ORDER BY id, typ, expr;
-- every stored probe of 594 keys read its filter whole (its header, then
-- the whole, once per call site), but that of the two booleans on the large
-- filter: 594 keys probed by slices, the chunks of two keys' bits fetched
SELECT * FROM counters_since();

------------------------------------------------------------------------------
-- A few keys against the large stored filter: probed by slices, each chunk
-- holding a probed bit fetched once for the batch (a repeated key costs
-- nothing more), the answers those of @> on the filter in memory
------------------------------------------------------------------------------
CREATE TABLE ce_few (name text, keys text[]);
INSERT INTO ce_few VALUES
	('one present', '{k1}'),
	('present, repeated', '{k1,k1,k1,NULL,k1}'),
	('one absent', '{k301}'),
	('absent, repeated', '{k301,NULL,k301,k301}'),
	('present and absent', '{k2,k302,NULL}');
CREATE TABLE ce_few_counts (name text, answers boolean[], sliced bigint, fetches bigint, detoasts bigint);
DO $$
DECLARE
	r record;
	a boolean[];
BEGIN
	FOR r IN SELECT * FROM ce_few LOOP
		PERFORM counters_reset();
		SELECT bloom_contains_each(f, r.keys) INTO a FROM ce_filters WHERE id = 2;
		INSERT INTO ce_few_counts SELECT r.name, a, c.* FROM counters_since() c;
	END LOOP;
END $$;
SELECT c.name, c.answers,
       c.answers IS NOT DISTINCT FROM
           (SELECT array_agg(m.f @> k ORDER BY o)
            FROM (SELECT f | f AS f FROM ce_filters WHERE id = 2) m,
                 unnest(w.keys) WITH ORDINALITY u(k, o)) AS same,
       c.sliced, c.fetches, c.detoasts
FROM ce_few_counts c JOIN ce_few w USING (name) ORDER BY c.name;
-- a repeated key fetches the chunks of one: header + its bits' chunks
SELECT a.fetches = b.fetches AS repeated_present_fetches_as_one,
       c.fetches = d.fetches AS repeated_absent_fetches_as_one
FROM ce_few_counts a, ce_few_counts b, ce_few_counts c, ce_few_counts d
WHERE a.name = 'one present' AND b.name = 'present, repeated'
  AND c.name = 'one absent' AND d.name = 'absent, repeated';

------------------------------------------------------------------------------
-- Many rows, one call site: three stored filters, each probed with one
-- array, then each with another (the rows sorted so), with the probe cache (each filter read whole once) and without it
-- (each filter read whole once, then, replaced as the spare, probed by
-- slices: batches of 1,024 keys, every chunk of a batch fetched once)
------------------------------------------------------------------------------
CREATE TABLE ce_many_filters (id int, f bloom);
ALTER TABLE ce_many_filters ALTER COLUMN f SET STORAGE external;
INSERT INTO ce_many_filters
SELECT j, (SELECT bloom_agg('k' || (j * 1000 + g), 0.01, 20000::bigint) FROM generate_series(1, 1000) g)
FROM generate_series(1, 3) j;
CREATE TABLE ce_many_arrays (a int, keys text[]);
INSERT INTO ce_many_arrays
SELECT a, (SELECT array_agg(CASE WHEN g % 97 = 0 THEN NULL ELSE 'k' || (a * 700 + g) END ORDER BY g)
           FROM generate_series(1, 2500) g)
FROM generate_series(1, 2) a;
CREATE TABLE ce_many_ref AS
SELECT m.id, k.a, (SELECT array_agg(mem @> x ORDER BY o) FROM unnest(k.keys) WITH ORDINALITY u(x, o)) AS ref
FROM (SELECT id, f | f AS mem FROM ce_many_filters) m, ce_many_arrays k;
SELECT id, a, cardinality(ref) AS n, (SELECT count(*) FROM unnest(ref) x WHERE x) AS n_true
FROM ce_many_ref ORDER BY id, a;

-- one call site: every filter with the first array, then with the second
CREATE FUNCTION ce_many_answers() RETURNS TABLE (a int, id int, same boolean)
LANGUAGE sql AS $$
SELECT a, id, bloom_contains_each(f, keys) IS NOT DISTINCT FROM ref
FROM (SELECT k.a, m.id, m.f, k.keys, r.ref
      FROM ce_many_arrays k, ce_many_filters m, ce_many_ref r
      WHERE r.id = m.id AND r.a = k.a ORDER BY k.a, m.id OFFSET 0) s
$$;

SELECT counters_reset();
SELECT * FROM ce_many_answers();
SELECT sliced, fetches, detoasts FROM counters_since();
SET bloomcass.probe_cache_size = 0;
SELECT counters_reset();
SELECT * FROM ce_many_answers();
-- the second array's probes of the filters replaced as the spare are
-- sliced, 2,475 keys each
SELECT sliced, fetches, detoasts FROM counters_since();
RESET bloomcass.probe_cache_size;

------------------------------------------------------------------------------
-- Shapes: the result has the keys' dimensions and lower bounds; empty and
-- all-NULL arrays; a compressed stored filter and an inline one
------------------------------------------------------------------------------
CREATE TABLE ce_shape_filter AS SELECT bloom_agg('k' || g, 0.01, 'nb') AS f FROM generate_series(1, 10) g;
SELECT bloom_contains_each(f, '{}'::text[]) AS empty,
       bloom_contains_each(f, '{NULL,NULL}'::text[]) AS all_null,
       bloom_contains_each(f, '{{k1,k2,x},{NULL,k3,y}}'::text[]) AS two_dims,
       bloom_contains_each(f, '[0:1]={k1,x}'::text[]) AS lower_bound_0,
       array_dims(bloom_contains_each(f, '[2:3][-1:0]={{k1,x},{y,k2}}'::text[])) AS dims,
       bloom_contains_each(f, '[2:3][-1:0]={{k1,x},{y,k2}}'::text[]) AS dims_values,
       bloom_contains_each(f, ARRAY['k1', 'k2', 'x']) AS text_array,
       bloom_contains_each(f, ARRAY['k1', 'x']::varchar[]) AS varchar_array
FROM ce_shape_filter;
-- NULL arguments: a NULL result (STRICT)
SELECT bloom_contains_each(NULL::bloom, '{k1}'::text[]) IS NULL AS null_filter,
       bloom_contains_each(f, NULL::text[]) IS NULL AS null_keys
FROM ce_shape_filter;

CREATE TABLE ce_f_compressed (f bloom);
ALTER TABLE ce_f_compressed ALTER COLUMN f SET STORAGE extended;
INSERT INTO ce_f_compressed SELECT bloom_agg('k' || g, 0.01, 60000::bigint) FROM generate_series(1, 300) g;
SELECT pg_column_size(f) < (bloom_info(f)).filter_db_bytes AS compressed,
       bloom_contains_each(f, ARRAY['k1', 'k300', 'k301', NULL, 'absent'])
FROM ce_f_compressed;

-- the flattened answers of arrays of every shape equal element-wise @>
-- in unnest's order, and the dimensions are the keys'
SELECT a AS keys, array_dims(bloom_contains_each(f, a)) IS NOT DISTINCT FROM array_dims(a) AS same_dims,
       ARRAY(SELECT x FROM unnest(bloom_contains_each(f, a)) x)
           IS NOT DISTINCT FROM ARRAY(SELECT f @> k FROM unnest(a) k) AS same_answers
FROM ce_shape_filter, (VALUES ('{}'::text[]), ('{NULL}'), ('{{k1,k2,x},{NULL,k3,y}}'),
	('[0:1]={k1,x}'), ('[2:3][-1:0]={{k1,x},{y,k2}}'), ('{{{k1},{k4}},{{z},{NULL}}}')) v(a);

------------------------------------------------------------------------------
-- Errors, with their SQLSTATEs: an element type @> does not take (@>'s own
-- error, naming the type); keys that are not an array
------------------------------------------------------------------------------
SELECT q, test_try(q, '') AS error FROM (VALUES
	($$SELECT bloom_contains_each(f, ARRAY[point(1, 2)]) FROM ce_shape_filter$$),
	($$SELECT bloom_contains_each(f, ARRAY['{"a":1}'::jsonb]) FROM ce_shape_filter$$),
	($$SELECT bloom_contains_each(f, ARRAY[ROW(1, 'a')]) FROM ce_shape_filter$$),
	($$SELECT bloom_contains_each(f, ARRAY[1::oid]) FROM ce_shape_filter$$),
	($$SELECT f @> 1::oid FROM ce_shape_filter$$),
	($$SELECT bloom_contains_each(f, 'k1') FROM ce_shape_filter$$),
	($$SELECT bloom_contains_each(f, 42) FROM ce_shape_filter$$)) v(q);

DROP TABLE ce_key_arrays, ce_filters, ce_few, ce_few_counts, ce_many_filters,
	ce_many_arrays, ce_many_ref, ce_shape_filter, ce_f_compressed;
DROP FUNCTION ce_each_vs_elementwise(int, text, text, text), ce_many_answers();
