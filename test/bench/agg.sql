--
-- A1-A4: the aggregates against hll's (test/bench/agg.sh).  One table of
-- :nkeys text keys ('key1' .. 'key<nkeys>', all distinct), and in one
-- session, :reps rounds (after one warm-up round) of seven statements, each
-- round in another order (the start rotates, and every other round runs
-- backwards), so that drift and other load fall on every statement alike:
--   hll         SELECT hll_add_agg(hll_hash_text(k)) IS NOT NULL FROM agg_keys
--   exact       SELECT bloom_agg(k, 0.01) IS NOT NULL FROM agg_keys
--   stream      SELECT bloom_agg(k, 0.01, :nkeys) IS NOT NULL FROM agg_keys
--   count       SELECT count(*) FROM agg_keys
--   stream_par, exact_par, count_par   the same at max_parallel_workers_per_gather = 2
-- (the others at 0).  IS NOT NULL keeps the result in the server: the
-- aggregate and its final function run in full, and no side pays for
-- handing a 2.5 MB filter to the caller.  Per round: A1 = exact / hll,
-- A2 = stream / hll, A3 = S1 / S2 with S1 = stream / stream_par and
-- S2 = count / count_par (the streaming aggregate's parallel speed-up
-- against count(*)'s), A4 = exact / exact_par / S2 (information); the
-- report gives the median of each per-round ratio, its range, and PASS or
-- FAIL against the targets (A1 <= 2.0, A2 <= 1.15, A3 >= 0.9).
--
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
SET jit = off;
SET max_parallel_workers_per_gather = 0;
CREATE EXTENSION IF NOT EXISTS bloomcass;
CREATE EXTENSION IF NOT EXISTS hll;

DROP TABLE IF EXISTS agg_keys, agg_raw, agg_note;
CREATE TABLE agg_keys (k text NOT NULL);
INSERT INTO agg_keys SELECT 'key' || g FROM generate_series(1, :nkeys) g;
VACUUM (FREEZE, ANALYZE) agg_keys;
CHECKPOINT;

CREATE TABLE agg_raw (rep int, stmt text, ms float8);
CREATE TABLE agg_note (item text, value text);

CREATE OR REPLACE FUNCTION agg_run(p_reps int, p_n bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	names text[] := ARRAY['hll', 'exact', 'stream', 'count', 'stream_par', 'exact_par', 'count_par'];
	sqls text[] := ARRAY[
		'SELECT hll_add_agg(hll_hash_text(k)) IS NOT NULL FROM agg_keys',
		'SELECT bloom_agg(k, 0.01) IS NOT NULL FROM agg_keys',
		format('SELECT bloom_agg(k, 0.01, %s) IS NOT NULL FROM agg_keys', p_n),
		'SELECT count(*) > 0 FROM agg_keys',
		format('SELECT bloom_agg(k, 0.01, %s) IS NOT NULL FROM agg_keys', p_n),
		'SELECT bloom_agg(k, 0.01) IS NOT NULL FROM agg_keys',
		'SELECT count(*) > 0 FROM agg_keys'];
	workers int[] := ARRAY[0, 0, 0, 0, 2, 2, 2];
	n int := 7;
	reps int[] := '{}';
	stmts text[] := '{}';
	times float8[] := '{}';
	i int;
	j int;
	s int;
	t0 timestamptz;
	ok boolean;
BEGIN
	FOR i IN 0 .. p_reps LOOP		-- round 0 warms up, not recorded
		FOR j IN 0 .. n - 1 LOOP
			s := 1 + CASE WHEN i % 2 = 0 THEN (i + j) % n ELSE (i + n - 1 - j) % n END;
			PERFORM set_config('max_parallel_workers_per_gather', workers[s]::text, true);
			t0 := clock_timestamp();
			EXECUTE sqls[s] INTO ok;
			IF i > 0 THEN
				reps := reps || i;
				stmts := stmts || names[s];
				times := times || (1000 * extract(epoch FROM clock_timestamp() - t0))::float8;
			END IF;
		END LOOP;
	END LOOP;
	PERFORM set_config('max_parallel_workers_per_gather', '0', true);
	INSERT INTO agg_raw SELECT * FROM unnest(reps, stmts, times);
END $$;

-- the plans at 2 workers (Workers Launched), and whether the parallel
-- results are the serial ones, byte for byte
CREATE OR REPLACE FUNCTION agg_checks(p_n bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	line text;
	plan text;
	q text;
	a bloom;
	b bloom;
BEGIN
	FOREACH q IN ARRAY ARRAY[format('SELECT bloom_agg(k, 0.01, %s) FROM agg_keys', p_n),
							 'SELECT bloom_agg(k, 0.01) FROM agg_keys',
							 'SELECT count(*) FROM agg_keys'] LOOP
		PERFORM set_config('max_parallel_workers_per_gather', '2', true);
		plan := '';
		FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
			plan := plan || line || E'\n';
		END LOOP;
		INSERT INTO agg_note VALUES ('plan: ' || q, plan);
		IF q LIKE '%bloom_agg%' THEN
			EXECUTE q INTO a;
			PERFORM set_config('max_parallel_workers_per_gather', '0', true);
			EXECUTE q INTO b;
			INSERT INTO agg_note VALUES ('parallel = serial: ' || q,
				format('%s (%s bytes)', a = b AND bloom_send(a) = bloom_send(b), octet_length(bloom_send(b))));
		END IF;
	END LOOP;
	PERFORM set_config('max_parallel_workers_per_gather', '0', true);
END $$;

SELECT agg_checks(:nkeys);
SELECT agg_run(:reps, :nkeys);

\pset footer off
\pset format aligned
\o :out
\qecho '# The aggregates against hll (test/bench/agg.sh)'
\qecho
SELECT :'header' AS "run";
\qecho
-- per round: the ratios
WITH r AS (
	SELECT rep,
		   max(ms) FILTER (WHERE stmt = 'hll') AS hll,
		   max(ms) FILTER (WHERE stmt = 'exact') AS exact,
		   max(ms) FILTER (WHERE stmt = 'stream') AS stream,
		   max(ms) FILTER (WHERE stmt = 'count') AS count,
		   max(ms) FILTER (WHERE stmt = 'stream_par') AS stream_par,
		   max(ms) FILTER (WHERE stmt = 'exact_par') AS exact_par,
		   max(ms) FILTER (WHERE stmt = 'count_par') AS count_par
	FROM agg_raw GROUP BY rep),
x(row_id, what, v, target, pass) AS (
	SELECT 'A1', 'exact bloom_agg(k, 0.01) / hll_add_agg(hll_hash_text(k))', exact / hll, 2.0::float8, '<=' FROM r
	UNION ALL
	SELECT 'A2', 'streaming bloom_agg(k, 0.01, n) / hll', stream / hll, 1.15, '<=' FROM r
	UNION ALL
	SELECT 'A3', 'S1 / S2: streaming speed-up at 2 workers / count(*)''s', (stream / stream_par) / (count / count_par), 0.9, '>=' FROM r
	UNION ALL
	SELECT 'A3.S1', 'S1: streaming, serial / 2 workers', stream / stream_par, NULL, NULL FROM r
	UNION ALL
	SELECT 'A3.S2', 'S2: count(*), serial / 2 workers', count / count_par, NULL, NULL FROM r
	UNION ALL
	SELECT 'A4', 'exact speed-up at 2 workers / count(*)''s (information)', (exact / exact_par) / (count / count_par), NULL, NULL FROM r)
SELECT row_id AS "row", what,
	   round(percentile_cont(0.5) WITHIN GROUP (ORDER BY v)::numeric, 3) AS median,
	   round(min(v)::numeric, 3) || '–' || round(max(v)::numeric, 3) AS "range",
	   count(*) AS rounds,
	   CASE WHEN pass IS NULL THEN ''
			WHEN (pass = '<=' AND percentile_cont(0.5) WITHIN GROUP (ORDER BY v) <= min(target))
			  OR (pass = '>=' AND percentile_cont(0.5) WITHIN GROUP (ORDER BY v) >= min(target))
			THEN 'PASS (' || pass || ' ' || min(target) || ')'
			ELSE 'FAIL (' || pass || ' ' || min(target) || ')' END AS verdict
FROM x GROUP BY row_id, what, pass ORDER BY row_id;
\qecho
-- the statements' medians, and per row the time above count(*)'s
SELECT stmt AS "statement",
	   round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1) AS median_ms,
	   round(min(ms)::numeric, 1) || '–' || round(max(ms)::numeric, 1) AS "range_ms",
	   round((percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) * 1e6 / :nkeys)::numeric, 1) AS ns_per_row
FROM agg_raw GROUP BY stmt
ORDER BY array_position(ARRAY['count', 'hll', 'stream', 'exact', 'count_par', 'stream_par', 'exact_par'], stmt);
\qecho
SELECT item, value FROM agg_note ORDER BY item;
\o
