--
-- B7: stored filters probed by the slice (test/bench/probe.sh).  One
-- session; each row alternates its sides; TOAST blocks are read from
-- pg_statio_user_tables around a separate run of the query.
--
\set ON_ERROR_STOP 1
SET jit = off;
SET max_parallel_workers_per_gather = 0;

-- test-only entry points of the library: the probe on a filter read whole
-- (today's path before slices), and the backend's probe counters
CREATE FUNCTION contains_whole(bloom, text) RETURNS boolean
	AS 'bloomcass', 'bloomcass_contains_whole' LANGUAGE C STRICT;
CREATE FUNCTION probe_counters(OUT sliced bigint, OUT fetches bigint, OUT detoasts bigint)
	AS 'bloomcass', 'bloomcass_probe_counters' LANGUAGE C;

CREATE TABLE b7_raw (row_id text, rep int, side text, ms float8);
CREATE TABLE b7_blocks (row_id text, side text, blocks bigint, filters int);

CREATE FUNCTION b7_time(p_sql text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz := clock_timestamp();
BEGIN
	EXECUTE p_sql;
	RETURN 1000 * extract(epoch FROM clock_timestamp() - t0);
END $$;

-- 100,000 probes against one filter held in memory (a plpgsql variable
-- holds the detoasted value)
CREATE FUNCTION b7_in_memory_probes(p_tbl regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
	v bloom;
	n bigint;
BEGIN
	EXECUTE format('SELECT f FROM %s LIMIT 1', p_tbl) INTO v;
	EXECUTE 'SELECT count(*) FROM b7_keys100k WHERE $1 @> key' INTO n USING v;
	RETURN n;
END $$;

-- A and B alternating, reps times each, after one warm-up of each
CREATE FUNCTION b7_pair(p_row text, p_a text, p_b text, p_reps int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	i int;
	ta float8[] := '{}';
	tb float8[] := '{}';
BEGIN
	PERFORM b7_time(p_a);
	PERFORM b7_time(p_b);
	FOR i IN 1 .. p_reps LOOP
		IF i % 2 = 1 THEN
			ta := ta || b7_time(p_a);
			tb := tb || b7_time(p_b);
		ELSE
			tb := tb || b7_time(p_b);
			ta := ta || b7_time(p_a);
		END IF;
	END LOOP;
	INSERT INTO b7_raw SELECT p_row, n, 'A', ta[n] FROM generate_subscripts(ta, 1) n;
	INSERT INTO b7_raw SELECT p_row, n, 'B', tb[n] FROM generate_subscripts(tb, 1) n;
END $$;

CREATE TABLE b7_keys100k AS SELECT 'key' || (1000000 + i) AS key FROM generate_series(1, 100000) i;
CREATE TABLE b7_keys1k AS SELECT 'key' || (1000000 + i * 97) AS key FROM generate_series(1, 1000) i;

CREATE FUNCTION b7_toast_blocks(p_tbl regclass) RETURNS bigint LANGUAGE sql AS $$
	SELECT coalesce(toast_blks_hit, 0) + coalesce(toast_blks_read, 0)
	FROM pg_statio_user_tables WHERE relid = p_tbl
$$;

-- B7a: one key, 100 filters of 12 MB: sliced (A) against read whole (B)
SELECT b7_pair('B7a',
	$$SELECT array_agg(id) FROM p12 WHERE f @> 'key1005000'$$,
	$$SELECT array_agg(id) FROM p12 WHERE contains_whole(f, 'key1005000')$$, :reps);

-- B7b: the same over 100 filters of 1 MB (B: small) and of 100 MB (A:
-- large), three times the repetitions (the times are short)
SELECT b7_pair('B7b',
	$$SELECT array_agg(id) FROM p100 WHERE f @> 'key1005000'$$,
	$$SELECT array_agg(id) FROM p1 WHERE f @> 'key1005000'$$, 3 * :reps);

-- B7c: 1,000 keys x 100 filters of 12 MB in a nested loop with the filters
-- inside (A), against reading each filter whole once (memory reused) plus
-- 100,000 probes of a filter in memory (B: the floor)
SET bloomcass.probe_cache_size = '2GB';
SELECT b7_pair('B7c',
	$$SELECT count(*) FROM b7_keys1k k CROSS JOIN LATERAL (SELECT * FROM p12 OFFSET 0) p WHERE p.f @> k.key$$,
	$$SELECT count(contains_whole(f, 'x')), b7_in_memory_probes('p12') FROM p12$$, :reps);

-- TOAST blocks: one run of each A side between flushes of the statistics
SELECT pg_stat_force_next_flush();
SELECT b7_toast_blocks('p12') AS b0 \gset
SELECT array_agg(id) FROM p12 WHERE f @> 'key1005000' \gset
SELECT pg_stat_force_next_flush();
SELECT b7_toast_blocks('p12') AS b1 \gset
INSERT INTO b7_blocks VALUES ('B7a', 'A', :b1 - :b0, 100);
SELECT array_agg(id) FROM p12 WHERE contains_whole(f, 'key1005000') \gset
SELECT pg_stat_force_next_flush();
SELECT b7_toast_blocks('p12') AS b2 \gset
INSERT INTO b7_blocks VALUES ('B7a', 'B', :b2 - :b1, 100);
SELECT count(*) FROM b7_keys1k k CROSS JOIN LATERAL (SELECT * FROM p12 OFFSET 0) p WHERE p.f @> k.key \gset
SELECT pg_stat_force_next_flush();
SELECT b7_toast_blocks('p12') AS b3 \gset
INSERT INTO b7_blocks VALUES ('B7c', 'A', :b3 - :b2, 100);
SELECT b7_toast_blocks('p100') AS c0 \gset
SELECT array_agg(id) FROM p100 WHERE f @> 'key1005000' \gset
SELECT pg_stat_force_next_flush();
SELECT b7_toast_blocks('p100') AS c1 \gset
INSERT INTO b7_blocks VALUES ('B7b', 'A (100 MB)', :c1 - :c0, 100);

-- the report
\pset footer off
\o :out
\qecho '# B7: stored filters probed by the slice'
\qecho
SELECT 'hash count ' || (bloom_info(f)).hash_count || ', ' || pg_size_pretty((bloom_info(f)).filter_db_bytes) || ' per p12 filter; TOAST of p12 '
       || pg_size_pretty(pg_relation_size((SELECT reltoastrelid FROM pg_class WHERE relname = 'p12')))
       || ' (' || pg_relation_size((SELECT reltoastrelid FROM pg_class WHERE relname = 'p12')) / 8192 || ' blocks)' AS setup
FROM p12 LIMIT 1;
WITH m AS (
	SELECT row_id, side, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS med, min(ms) AS lo, max(ms) AS hi
	FROM b7_raw GROUP BY 1, 2)
SELECT a.row_id, round(a.med::numeric, 2) AS a_ms, round(b.med::numeric, 2) AS b_ms,
       round((a.med / 100)::numeric, 4) AS a_ms_per_filter, round((b.med / 100)::numeric, 4) AS b_ms_per_filter,
       round((b.med / a.med)::numeric, 2) AS b_over_a, round((a.med / b.med)::numeric, 2) AS a_over_b,
       round(a.lo::numeric, 2) || '–' || round(a.hi::numeric, 2) AS a_range,
       round(b.lo::numeric, 2) || '–' || round(b.hi::numeric, 2) AS b_range
FROM m a JOIN m b ON a.row_id = b.row_id AND a.side = 'A' AND b.side = 'B'
ORDER BY 1;
SELECT row_id, side, blocks, round(blocks::numeric / filters, 2) AS per_filter FROM b7_blocks ORDER BY 1, 2;
SELECT * FROM probe_counters();
\o
