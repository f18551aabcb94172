--
-- The aggregates of 1.4: bloom_agg declared once per key type, and the
-- bloom state of the streaming bloom_agg and of bloom_union_agg (an
-- expanded object updated in place, flattened wherever it travels).
--

-- every key type resolves to its own aggregate (varchar and a domain to
-- text's), not to bloom_agg(anyelement)
CREATE DOMAIN tenant_name AS text;
CREATE TABLE typed_keys AS
SELECT g AS id, g % 7 AS grp,
       ('\x' || lpad(to_hex(g % 1500), 8, '0'))::bytea AS c_bytea, 'k' || (g % 1500) AS c_text,
       ('v' || (g % 1500))::varchar AS c_varchar, ('t' || (g % 1500))::tenant_name AS c_domain,
       (g % 1500)::smallint AS c_int2, (g % 1500)::integer AS c_int4, (g % 1500)::bigint * 1000003 AS c_int8,
       ((g % 1500)::real / 4)::real AS c_float4, (g % 1500)::double precision / 8 AS c_float8,
       g % 2 = 0 AS c_bool, md5((g % 1500)::text)::uuid AS c_uuid,
       timestamptz '2024-01-01 00:00:00+00' + (g % 1500) * interval '1 minute' AS c_timestamptz,
       timestamp '2024-01-01 00:00:00' + (g % 1500) * interval '1 minute' AS c_timestamp,
       date '2024-01-01' + g % 1500 AS c_date, time '00:00' + (g % 1500) * interval '1 second' AS c_time,
       ('10.0.' || (g % 1500) / 256 || '.' || (g % 1500) % 256)::inet AS c_inet,
       (g % 1500)::numeric / 100 AS c_numeric
FROM generate_series(1, 4500) g;

CREATE VIEW typed_aggs AS
SELECT bloom_agg(c_bytea) a1, bloom_agg(c_text) a2, bloom_agg(c_varchar) a3, bloom_agg(c_domain) a4,
       bloom_agg(c_int2) a5, bloom_agg(c_int4) a6, bloom_agg(c_int8) a7, bloom_agg(c_float4) a8,
       bloom_agg(c_float8) a9, bloom_agg(c_bool) a10, bloom_agg(c_uuid) a11,
       bloom_agg(c_timestamptz) a12, bloom_agg(c_timestamp) a13, bloom_agg(c_date) a14,
       bloom_agg(c_time) a15, bloom_agg(c_inet) a16, bloom_agg(c_numeric) a17,
       bloom_agg(c_int4, 0.001) b1, bloom_agg(c_uuid, 0.01, 'ka') b2,
       bloom_agg(c_text, 0.01, 2000::bigint) b3, bloom_agg(c_inet, 0.05, 10) b4
FROM typed_keys;
SELECT DISTINCT p.oid::regprocedure::text AS aggregate
FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid AND d.classid = 'pg_rewrite'::regclass
JOIN pg_proc p ON p.oid = d.refobjid AND d.refclassid = 'pg_proc'::regclass
WHERE r.ev_class = 'typed_aggs'::regclass AND p.prokind = 'a' ORDER BY 1;

-- each exact filter equals the streaming one sized for the distinct keys,
-- and that one the union of one-key filters made with bloom_add (another
-- path to the same hashing)
CREATE FUNCTION check_type(col text) RETURNS TABLE (key_type text, exact_equals_streaming boolean,
	streaming_equals_bloom_add boolean, distinct_keys bigint)
LANGUAGE plpgsql AS $$
DECLARE
	n bigint;
	typ text;
BEGIN
	EXECUTE format('SELECT count(DISTINCT %I), min(pg_typeof(%I)::text) FROM typed_keys', col, col)
	INTO n, typ;
	RETURN QUERY EXECUTE format(
		'SELECT %3$L::text,
		        bloom_agg(%1$I) = bloom_agg(%1$I, 0.01, %2$s::bigint),
		        bloom_agg(%1$I, 0.01, %2$s::bigint) =
		          (SELECT bloom_union_agg(bloom_add(bloom_create(%2$s, 0.01), v))
		           FROM (SELECT DISTINCT %1$I AS v FROM typed_keys) d),
		        %2$s::bigint
		 FROM typed_keys', col, n, typ);
END $$;
SELECT c.* FROM unnest(ARRAY['c_bytea', 'c_text', 'c_varchar', 'c_domain', 'c_int2', 'c_int4',
	'c_int8', 'c_float4', 'c_float8', 'c_bool', 'c_uuid', 'c_timestamptz', 'c_timestamp', 'c_date',
	'c_time', 'c_inet', 'c_numeric']) col, check_type(col) c;

-- a composite key (cassandra_key) and a NULL key
SELECT bloom_agg(cassandra_key(c_text, c_int4)) = bloom_agg(cassandra_key(c_text, c_int4), 0.01, 1500::bigint)
       AS composite_exact_equals_streaming,
       bloom_agg(CASE WHEN id % 3 = 0 THEN NULL ELSE c_text END, 0.01, 1500::bigint) @> 'k1'::text AS null_keys_skipped
FROM typed_keys;

-- the bloom state: serial, parallel (partial states flattened between
-- processes), a hash aggregate spilling its groups to disk, and sorted
-- groups give the same bytes
CREATE TABLE state_serial AS
SELECT grp, bloom_agg(c_text, 0.01, 1000::bigint) AS streamed, bloom_agg(c_int8, 0.02, 700::bigint) AS streamed_int
FROM typed_keys GROUP BY grp;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) SELECT bloom_agg(c_text, 0.01, 1000::bigint) FROM typed_keys;
SELECT bloom_agg(c_text, 0.01, 1000::bigint) = (SELECT bloom_union_agg(streamed) FROM state_serial)
       AS parallel_equals_union_of_groups
FROM typed_keys;
SELECT bloom_union_agg(f) = (SELECT bloom_union_agg(streamed) FROM state_serial) AS parallel_union
FROM (SELECT streamed AS f FROM state_serial, generate_series(1, 2000)) s;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
RESET parallel_leader_participation;

SET work_mem = '64kB';
SET enable_sort = off;
SET hash_mem_multiplier = 1;
CREATE TABLE many_groups AS SELECT g % 400 AS grp, 'key' || g AS k FROM generate_series(1, 40000) g;
CREATE FUNCTION hash_batches(query text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
	plan json;
BEGIN
	EXECUTE 'EXPLAIN (ANALYZE, FORMAT JSON) ' || query INTO plan;
	RETURN (plan -> 0 -> 'Plan' ->> 'HashAgg Batches')::int;
END $$;
SELECT hash_batches('SELECT grp, bloom_agg(k, 0.01, 100::bigint) FROM many_groups GROUP BY grp') > 1
       AS hash_aggregate_spilled;
CREATE TABLE hashed AS SELECT grp, bloom_agg(k, 0.01, 100::bigint) AS f FROM many_groups GROUP BY grp;
RESET enable_sort;
SET enable_hashagg = off;
CREATE TABLE sorted AS SELECT grp, bloom_agg(k, 0.01, 100::bigint) AS f FROM many_groups GROUP BY grp;
RESET enable_hashagg;
RESET work_mem;
RESET hash_mem_multiplier;
SELECT count(*) AS groups, count(*) FILTER (WHERE h.f = s.f) AS same
FROM hashed h JOIN sorted s USING (grp);
SELECT s.grp, s.f = (SELECT bloom_union_agg(bloom_add(bloom_create(100, 0.01), k))
                     FROM many_groups m WHERE m.grp = s.grp) AS equals_bloom_add
FROM sorted s WHERE s.grp IN (0, 1, 399) ORDER BY 1;

-- as a window aggregate: a growing frame and a moving one (the state is
-- finalized again at each row, and must stay usable)
SELECT grp,
       bloom_union_agg(streamed) OVER (ORDER BY grp) =
         (SELECT bloom_union_agg(streamed) FROM state_serial s2 WHERE s2.grp <= s.grp) AS growing,
       bloom_union_agg(streamed) OVER (ORDER BY grp ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) =
         (SELECT bloom_union_agg(streamed) FROM state_serial s2 WHERE s2.grp IN (s.grp - 1, s.grp)) AS moving
FROM state_serial s ORDER BY grp;
SELECT id, bloom_agg(c_text, 0.01, 50::bigint) OVER (ORDER BY id) @> 'k3'::text AS has_k3
FROM typed_keys WHERE id <= 5 ORDER BY id;

-- two aggregates sharing one state, and a large state (over 4 MB: the
-- result is moved out of the state, not copied)
SELECT bloom_agg(c_text, 0.01, 1000::bigint) = bloom_agg(c_text, 0.01, 1000::bigint) AS shared_state_same
FROM typed_keys;
SELECT hash_count, word_count, bits_set
FROM bloom_info((SELECT bloom_agg(g, 0.01, 5000000::bigint) FROM generate_series(1, 20000) g));

-- errors: fp_chance or expected_keys changing between rows, negative,
-- NULL; bloom_union_agg of different shapes
SELECT bloom_agg(c_text, CASE WHEN id < 10 THEN 0.01 ELSE 0.02 END, 1000::bigint) FROM typed_keys;
SELECT bloom_agg(c_text, 0.01, -1::bigint) FROM typed_keys;
SELECT bloom_agg(c_text, 0.01, NULL::bigint) FROM typed_keys;
SELECT bloom_union_agg(f) FROM (VALUES (bloom_create(10)), (bloom_create(100000))) v(f);
-- NULL filters are skipped; none gives NULL
SELECT bloom_union_agg(f) IS NULL AS no_filter_gives_null FROM (VALUES (NULL::bloom)) v(f);

DROP VIEW typed_aggs;
DROP FUNCTION check_type(text), hash_batches(text);
DROP TABLE typed_keys, state_serial, many_groups, hashed, sorted;
DROP DOMAIN tenant_name;
