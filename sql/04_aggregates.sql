--
-- Aggregates: exact mode (sized for the distinct keys, as Cassandra sizes a
-- flushed SSTable), streaming mode (sized for expected_keys), union, and
-- parallel partial aggregation giving the same bytes as a serial run.
--

CREATE TABLE keys AS
SELECT g AS id, 'key' || (g % 1000) AS k, g % 1000 AS n
FROM generate_series(1, 3000) g;

-- 3000 rows, 1000 distinct keys: sized for 1000 (k = 5, 157 words), and
-- byte-identical to Cassandra's filter of 'key0'..'key999' (golden vector)
SELECT hash_count, word_count, bits_set FROM bloom_info((SELECT bloom_agg(k) FROM keys));
SELECT bloom_export((SELECT bloom_agg(k) FROM keys)) = test_file('vectors/filter_text_1000_p01.db')
       AS equals_golden_vector;
SELECT bloom_agg(k) = bloom_agg(k, 0.01) AS default_fp_is_0_01,
       bloom_agg(k) = bloom_agg(DISTINCT k) AS duplicates_do_not_count,
       bloom_agg(k ORDER BY id DESC) = bloom_agg(k) AS order_does_not_matter
FROM keys;
SELECT (SELECT hash_count FROM bloom_info(bloom_agg(k, 0.1))) AS k_at_0_1,
       (SELECT word_count FROM bloom_info(bloom_agg(k, 0.1))) AS words_at_0_1
FROM keys;

-- NULL keys are skipped.  Empty input gives a filter, not NULL: with no row,
-- PostgreSQL shows an aggregate none of its arguments, so the result is
-- Cassandra's zero-key filter at the default fp_chance 0.01 (k = 5, one
-- word); a row with a NULL key is enough to carry fp_chance.
SELECT bloom_agg(k) = bloom_agg(CASE WHEN id % 7 = 0 THEN NULL ELSE k END) AS nulls_skipped_same_distinct
FROM keys WHERE id <= 2000;
SELECT bloom_agg(k) AS empty_input FROM keys WHERE false;
SELECT bloom_agg(k, 0.1) AS empty_input_fp FROM keys WHERE false;
SELECT bloom_agg(NULL::text, 0.1) AS only_nulls_keep_fp;

-- many duplicates arriving late and early, across the state's chunk and
-- deduplication boundaries: the count (and so the size) is the distinct one
SELECT bloom_agg(g % 50000) = bloom_agg(DISTINCT g % 50000) AS dedup_many,
       bloom_agg(g % 50000) = bloom_agg(g % 50000, 0.01, 50000) AS dedup_sized,
       (bloom_info(bloom_agg(g % 50000))).word_count = (bloom_sizing(50000, 0.01)).word_count AS sized_for_distinct
FROM generate_series(1, 400000) g;
SELECT bloom_agg(k) = bloom_agg(k, 0.01, 150000) AS late_duplicates
FROM (SELECT g AS k FROM generate_series(1, 150000) g UNION ALL SELECT g FROM generate_series(1, 150000) g) s;

-- GROUP BY: small groups stay in a compact state, large ones spread out;
-- each group's filter is sized for its own distinct keys
WITH src AS (SELECT n % 7 AS grp, (n * 7919) % (10 + (n % 7) * 3000) AS k
             FROM generate_series(1, 120000) n),
     d AS (SELECT grp, count(DISTINCT k) AS nd FROM src GROUP BY grp)
SELECT count(*) AS groups, count(*) FILTER (WHERE f = g) AS identical_to_sized,
       min(nd) AS smallest, max(nd) AS largest
FROM (SELECT s.grp, bloom_agg(s.k) AS f, bloom_agg(s.k, 0.01, d.nd) AS g
      FROM src s JOIN d USING (grp) GROUP BY s.grp) t JOIN d USING (grp);

-- typed keys
SELECT bloom_export(bloom_agg(g, 0.001)) = test_file('vectors/filter_int_10000_p001.db') AS int_keys_golden
FROM generate_series(0, 9999) g;
SELECT bloom_agg(g::int8) = bloom_agg(cassandra_key(g::int8)) AS typed_equals_serialized
FROM generate_series(1, 100) g;

-- streaming mode: memory is the filter; same bytes as exact mode when expected_keys = distinct count
SELECT bloom_agg(k, 0.01, 1000) = bloom_agg(k) AS streaming_equals_exact,
       (SELECT word_count FROM bloom_info(bloom_agg(k, 0.01, 100000))) AS words_for_100000
FROM keys;
SELECT bloom_agg(k, 0.01, 50) @> 'key999' AS overfull_still_no_false_negative,
       bloom_fpr(bloom_agg(k, 0.01, 50)) > 0.9 AS overfull_is_saturated
FROM keys;
SELECT bloom_agg(k, 0.01, 10) AS streaming_empty FROM keys WHERE false;

-- union aggregate
SELECT bloom_union_agg(f) = (SELECT bloom_agg(k, 0.01, 1000) FROM keys) AS union_of_parts
FROM (SELECT n % 4 AS part, bloom_agg(k, 0.01, 1000) AS f FROM keys GROUP BY 1) s;
SELECT bloom_union_agg(f) IS NULL AS union_of_nothing_is_null FROM (SELECT NULL::bloom AS f) s;
SELECT bloom_union_agg(f) FROM (VALUES (bloom_create(10)), (bloom_create(20))) v(f);

-- argument errors
SELECT bloom_agg(k, 2.0) FROM keys;
SELECT bloom_agg(k, 1.0) FROM keys;
SELECT bloom_agg(k, NULL) FROM keys;
SELECT bloom_agg(k, CASE WHEN id < 10 THEN 0.01 ELSE 0.1 END) FROM keys;
SELECT bloom_agg(k, 0.01, -1) FROM keys;
SELECT bloom_agg(k, 0.01, id) FROM keys;
SELECT bloom_agg(k, 0.01, 2000000000) FROM keys;
SELECT bloom_agg(point(id, id)) FROM keys;
SELECT bloom_agg(k, 0.01, 'zz') FROM keys;
SELECT bloom_agg(k, 0.01, NULL::text) FROM keys;

-- old hash order (SSTable versions before ma): name the version
SELECT (bloom_info(bloom_agg(k, 0.01, 'ka'))).hash_order,
       bloom_export(bloom_agg(k, 0.01, 'ka'), 'ka') = test_file('vectors/filter_text_1000_p01_ka.db') AS ka_golden,
       bloom_agg(k, 0.01, 'nb') = bloom_agg(k) AS nb_is_default
FROM keys;

-- parallel partial aggregation: plan and bytes
CREATE TABLE big AS SELECT g AS id, md5(g::text) AS k FROM generate_series(1, 200000) g;
ANALYZE big;
CREATE TABLE serial_result AS
SELECT bloom_agg(k) AS exact, bloom_agg(k, 0.001, 200000) AS streaming, bloom_agg(id, 0.1) AS ints,
       bloom_agg(k, 0.01, 'lb') AS old FROM big;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
-- EXPLAIN ANALYZE in the same words on PostgreSQL 15 to 18: no buffers (18
-- shows them by default) and row counts without the decimals 18 prints
CREATE FUNCTION explain_analyze(query text) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
	line text;
BEGIN
	FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ' || query
	LOOP
		RETURN NEXT regexp_replace(line, 'rows=(\d+)\.00', 'rows=\1', 'g');
	END LOOP;
END
$$;
SELECT explain_analyze($$
SELECT bloom_agg(k), bloom_agg(k, 0.001, 200000), bloom_agg(id, 0.1), bloom_agg(k, 0.01, 'lb') FROM big$$);
CREATE TABLE parallel_result AS
SELECT bloom_agg(k) AS exact, bloom_agg(k, 0.001, 200000) AS streaming, bloom_agg(id, 0.1) AS ints,
       bloom_agg(k, 0.01, 'lb') AS old FROM big;
SELECT s.exact = p.exact AS exact_identical, s.streaming = p.streaming AS streaming_identical,
       s.ints = p.ints AS ints_identical, s.old = p.old AS old_order_identical, (SELECT word_count FROM bloom_info(p.exact)) AS words
FROM serial_result s, parallel_result p;
CREATE TABLE parts AS SELECT id % 10 AS part, bloom_agg(k, 0.001, 200000) AS f FROM big GROUP BY 1;
SELECT bloom_union_agg(f) = (SELECT streaming FROM serial_result) AS parallel_union_of_parts
FROM (SELECT f FROM parts, generate_series(1, 50)) s;
-- the leader taking part: its own partial state is handed over within the
-- process, the workers' states arrive as bytes; plain, grouped (hashed and
-- sorted partial aggregation) and with duplicates spread over the workers
SET parallel_leader_participation = on;
CREATE TABLE parallel_leader AS
SELECT bloom_agg(k) AS exact, bloom_agg(k, 0.01, 'lb') AS old FROM big;
SELECT s.exact = p.exact AS exact_identical, s.old = p.old AS old_order_identical
FROM serial_result s, parallel_leader p;
CREATE TABLE big3 AS SELECT k FROM big, generate_series(1, 3) r ORDER BY random();
ANALYZE big3;
EXPLAIN (COSTS OFF) SELECT bloom_agg(k) FROM big3;
SELECT bloom_agg(k) = (SELECT exact FROM serial_result) AS duplicates_identical FROM big3;
CREATE TABLE bg AS SELECT id % 4 AS g, k FROM big;
ANALYZE bg;
SET parallel_tuple_cost = 1;
EXPLAIN (COSTS OFF) SELECT g, bloom_agg(k) FROM bg GROUP BY 1;
CREATE TABLE grouped_hashed AS SELECT g, bloom_agg(k) AS f FROM bg GROUP BY 1;
SET enable_hashagg = off;
EXPLAIN (COSTS OFF) SELECT g, bloom_agg(k) FROM bg GROUP BY 1;
CREATE TABLE grouped_sorted AS SELECT g, bloom_agg(k) AS f FROM bg GROUP BY 1;
RESET enable_hashagg;
SET max_parallel_workers_per_gather = 0;
CREATE TABLE grouped_serial AS SELECT g, bloom_agg(k) AS f FROM bg GROUP BY 1;
SELECT s.g, s.f = h.f AS hashed_identical, s.f = o.f AS sorted_identical, bloom_cardinality(s.f)::int / 1000 AS thousands
FROM grouped_serial s JOIN grouped_hashed h USING (g) JOIN grouped_sorted o USING (g) ORDER BY 1;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
RESET parallel_leader_participation;

-- partitionwise aggregation in one process: each partition's partial state
-- is handed over to the finalizing aggregate (adopted, or copied and freed)
CREATE TABLE big_parts (id int, k text) PARTITION BY RANGE (id);
CREATE TABLE big_parts_1 PARTITION OF big_parts FOR VALUES FROM (1) TO (60000);
CREATE TABLE big_parts_2 PARTITION OF big_parts FOR VALUES FROM (60000) TO (150000);
CREATE TABLE big_parts_3 PARTITION OF big_parts FOR VALUES FROM (150000) TO (200001);
INSERT INTO big_parts SELECT id, k FROM big;
INSERT INTO big_parts SELECT id, k FROM big WHERE id % 3 = 0;
ANALYZE big_parts;
SET enable_partitionwise_aggregate = on;
SET max_parallel_workers_per_gather = 0;
EXPLAIN (COSTS OFF) SELECT bloom_agg(k) FROM big_parts;
SELECT bloom_agg(k) = (SELECT exact FROM serial_result) AS partitionwise_identical,
       bloom_agg(k, 0.01, 'lb') = (SELECT old FROM serial_result) AS partitionwise_old_identical
FROM big_parts;
-- grouped: each group's states of two partitions, adopted then copied
CREATE TABLE bg_parts (g int, k text) PARTITION BY LIST (g);
CREATE TABLE bg_parts_01 PARTITION OF bg_parts FOR VALUES IN (0, 1);
CREATE TABLE bg_parts_23 PARTITION OF bg_parts FOR VALUES IN (2, 3);
INSERT INTO bg_parts SELECT g, k FROM bg;
ANALYZE bg_parts;
EXPLAIN (COSTS OFF) SELECT g % 2, bloom_agg(k) FROM bg_parts GROUP BY 1;
SELECT g2, f = (SELECT bloom_agg(k) FROM bg WHERE g % 2 = g2) AS grouped_partitionwise_identical
FROM (SELECT g % 2 AS g2, bloom_agg(k) AS f FROM bg_parts GROUP BY 1) s ORDER BY 1;
RESET enable_partitionwise_aggregate;
RESET max_parallel_workers_per_gather;

-- a large streaming result (>= 4 MB) is moved out of the state rather than
-- copied; the same bytes whether moved (plain, grouped, identical calls
-- computed once) or not (a window, which may finalize one state many times)
CREATE TABLE moved AS
SELECT bloom_agg(k, 0.01, 5000000) AS f,
       (SELECT bloom_union_agg(f3) FROM (SELECT bloom_agg(k, 0.01, 5000000) AS f3 FROM big WHERE id <= 3) s) AS u3
FROM big;
SELECT (bloom_info(f)).filter_db_bytes AS bytes, bloom_cardinality(u3)::int AS union_of_three_keys,
       bloom_union_agg(f) OVER () = f AS window_union_identical
FROM moved;
SELECT f = (SELECT w FROM (SELECT bloom_agg(k, 0.01, 5000000) OVER () AS w FROM big LIMIT 1) x) AS window_identical
FROM moved;
SELECT bloom_agg(k, 0.01, 5000000) = bloom_agg(k, 0.01, 5000000) AS identical_calls,
       bloom_agg(k, 0.01, 5000000) = (SELECT f FROM moved) AS identical_again
FROM big;
SELECT g, f = (SELECT bloom_agg(k, 0.01, 5000000) FROM bg WHERE g = s.g) AS grouped_identical
FROM (SELECT g, bloom_agg(k, 0.01, 5000000) AS f FROM bg GROUP BY g) s ORDER BY g;
SELECT id, bloom_cardinality(bloom_agg(k, 0.01, 5000000) OVER (ORDER BY id))::int AS running
FROM big WHERE id <= 4 ORDER BY id;
SELECT bloom_union_agg(f) = (SELECT f FROM moved) AS union_moved
FROM (SELECT f FROM moved UNION ALL SELECT f FROM moved) s;

-- Serialized states that travel.  A serialized state must stand on its own:
-- another process, or another server (Citus ships its workers' serialized
-- states to the coordinator), may deserialize it.  Only the Agg node of
-- PostgreSQL's own partial aggregation, outside a parallel worker, hands a
-- large state over within the process instead.  Entry points of the library
-- that the extension does not declare stand in for what no SQL statement
-- reaches: a Finalize Aggregate combining serialized states, a partial Agg
-- node's serialization, and a wrapper calling the transition function.
CREATE FUNCTION test_combine_serialized(internal, bytea) RETURNS internal
	AS '$libdir/bloomcass', 'bloom_agg_test_combine_serialized' LANGUAGE C;
CREATE AGGREGATE test_finalize(bytea) (
	SFUNC = test_combine_serialized, STYPE = internal, FINALFUNC = bloom_agg_exact_final);
CREATE FUNCTION test_serialize_partial(internal) RETURNS bytea
	AS '$libdir/bloomcass', 'bloom_agg_test_serialize_partial' LANGUAGE C;
CREATE AGGREGATE test_serialize_partial(anyelement) (
	SFUNC = bloom_agg_exact_trans, STYPE = internal, FINALFUNC = test_serialize_partial);
CREATE FUNCTION test_wrapped_trans(internal, integer, anyelement) RETURNS internal
	AS '$libdir/bloomcass', 'bloom_agg_test_wrapped_trans' LANGUAGE C;
CREATE AGGREGATE test_wrapped(integer, anyelement) (
	SFUNC = test_wrapped_trans, STYPE = internal, FINALFUNC = bloom_agg_exact_final);
-- the serialize function as a plain aggregate's final function
CREATE AGGREGATE test_serialize(anyelement) (
	SFUNC = bloom_agg_exact_trans, STYPE = internal, FINALFUNC = bloom_agg_exact_serialize);

-- serialized anywhere else than in a partial Agg node: the hashes
-- themselves (32-byte header, 16 bytes a distinct key), below and above the
-- 8,192 distinct keys where the state spreads into buckets, and with
-- duplicates; they finalize in a new backend to the same filter
CREATE TABLE travelling AS
SELECT 'small' AS name, test_serialize(k) AS s, bloom_agg(k) AS expected FROM keys
UNION ALL SELECT 'large', test_serialize(k), bloom_agg(k) FROM big
UNION ALL SELECT 'large_duplicates', test_serialize(k), bloom_agg(k) FROM big3
UNION ALL SELECT 'large_integers', test_serialize(id), bloom_agg(id) FROM big;
SELECT name, (octet_length(s) - 32) / 16 AS hashes FROM travelling ORDER BY name;
SELECT pg_backend_pid() AS first_backend \gset
\c
SELECT pg_backend_pid() <> :first_backend AS new_backend;
SELECT name, test_finalize(s) = expected AS identical FROM travelling GROUP BY name, expected ORDER BY name;
SELECT test_finalize(s) = (SELECT exact FROM serial_result) AS combined_identical
FROM travelling WHERE name LIKE 'large%' AND name <> 'large_integers';

-- a partial Agg node's serialization (as in a parallel leader): a large
-- state is handed over, the value a reference to it (process id, the
-- process's random number, serial number), taken once by the query that
-- made it; a small state travels as its hashes
SELECT octet_length(test_serialize_partial(k)) AS small_state_bytes FROM keys;
CREATE TABLE handover AS SELECT test_serialize_partial(k) AS r FROM big;
SELECT octet_length(r) AS reference_bytes FROM handover;
SELECT test_finalize(r) = (SELECT exact FROM serial_result) AS handed_over_identical
FROM (SELECT test_serialize_partial(k) AS r FROM big) s;
WITH h AS MATERIALIZED (SELECT test_serialize_partial(k) AS r FROM big)
SELECT test_finalize(r) FROM (SELECT r FROM h UNION ALL SELECT r FROM h) s;
-- a reference is an error, never another state, once its query is over,
-- in another backend, or forged: another serial number, random number or
-- process id, truncated or too long
SELECT test_finalize(r) FROM handover;
WITH h AS MATERIALIZED (SELECT test_serialize_partial(k) AS r FROM big)
SELECT test_finalize(set_byte(r, 48, get_byte(r, 48) # 1)) FROM h;
WITH h AS MATERIALIZED (SELECT test_serialize_partial(k) AS r FROM big)
SELECT test_finalize(set_byte(r, 40, get_byte(r, 40) # 1)) FROM h;
WITH h AS MATERIALIZED (SELECT test_serialize_partial(k) AS r FROM big)
SELECT test_finalize(set_byte(r, 32, get_byte(r, 32) # 1)) FROM h;
SELECT test_finalize(substr(r, 1, 55)) FROM handover;
SELECT test_finalize(r || '\x00'::bytea) FROM handover;
\c
SELECT test_finalize(r) FROM handover;
-- all three messages above are invalid_binary_representation (22P03)
DO $$
BEGIN
	PERFORM test_finalize(r) FROM handover;
EXCEPTION WHEN OTHERS THEN
	RAISE NOTICE '%: %', SQLSTATE, SQLERRM;
END
$$;

-- a wrapper calling the transition function without an expression to read
-- the key's type from (as Citus's worker_partial_agg_sfunc does): the
-- calling aggregate's arguments give it
SELECT test_wrapped(0, k) = bloom_agg(k) AS text_keys FROM keys;
SELECT test_wrapped(0, id) = bloom_agg(id) AS integer_keys, test_wrapped(0, k) = bloom_agg(k) AS large
FROM big;

DROP AGGREGATE test_finalize(bytea), test_serialize_partial(anyelement), test_wrapped(integer, anyelement),
	test_serialize(anyelement);
DROP FUNCTION test_combine_serialized(internal, bytea), test_serialize_partial(internal),
	test_wrapped_trans(internal, integer, anyelement), explain_analyze(text);
DROP TABLE travelling, handover;
