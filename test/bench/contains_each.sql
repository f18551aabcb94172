--
-- B8: bloom_contains_each against row-at-a-time @> (test/bench/contains_each.sh).
-- A filter for 1e8 keys at 0.01 (120 MB, far larger than the caches) held
-- in memory (a plpgsql variable), 1,000,000 text keys (half present) in a
-- text[], alternating in one session:
--   A: SELECT cardinality(bloom_contains_each($1, $2))   (the answers)
--   B: SELECT count(*) FROM unnest($2) k WHERE $1 @> k    (row at a time)
-- bound: A <= 0.40 x B (median of the per-pair ratios), on B8a, on
-- B8d (the same pair as static statements, below) and on B8f (the filter
-- and the keys stored in tables, the keys returned as rows by
-- bloom_may_contain: below).  Also, for
-- reference: A' = A counting the present keys
-- (SELECT count(*) FROM unnest(bloom_contains_each($1, $2)) a WHERE a,
-- whose unnest costs as much as B's), both on a 1.2 MB filter
-- (cache-resident), and A and B as static plpgsql statements naming the
-- variables (B8d, B8e): EXECUTE ... USING copies every pass-by-reference
-- parameter (plpgsql's exec_eval_using_params), 120 MB of fresh memory per
-- statement on both sides, which a static statement does not.
--
\set ON_ERROR_STOP 1
CREATE EXTENSION bloomcass;
SET jit = off;

CREATE TABLE b8_raw (row_id text, rep int, side text, ms float8, n bigint);

-- A and B alternating, reps times each after one warm-up of each; the
-- filter (in memory) and the keys are parameters of both
CREATE FUNCTION b8_pair(p_row text, p_f bloom, p_keys text[], p_reps int, a text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	i int;
	s text;
	t0 timestamptz;
	n bigint;
	b text := 'SELECT count(*) FROM unnest($2) k WHERE $1 @> k';
BEGIN
	EXECUTE a INTO n USING p_f, p_keys;
	EXECUTE b INTO n USING p_f, p_keys;
	FOR i IN 1 .. 2 * p_reps LOOP
		s := CASE WHEN (i % 4) IN (1, 0) THEN 'A' ELSE 'B' END;
		t0 := clock_timestamp();
		EXECUTE CASE s WHEN 'A' THEN a ELSE b END INTO n USING p_f, p_keys;
		INSERT INTO b8_raw VALUES (p_row, (i + 1) / 2, s,
			1000 * extract(epoch FROM clock_timestamp() - t0), n);
	END LOOP;
END $$;

-- the same as static statements: the parameters are the variables
-- themselves, not copies
CREATE FUNCTION b8_pair_static(p_row text, p_f bloom, p_keys text[], p_reps int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	i int;
	s text;
	t0 timestamptz;
	n bigint;
BEGIN
	SELECT cardinality(bloom_contains_each(p_f, p_keys)) INTO n;
	SELECT count(*) INTO n FROM unnest(p_keys) k WHERE p_f @> k;
	FOR i IN 1 .. 2 * p_reps LOOP
		s := CASE WHEN (i % 4) IN (1, 0) THEN 'A' ELSE 'B' END;
		t0 := clock_timestamp();
		IF s = 'A' THEN
			SELECT cardinality(bloom_contains_each(p_f, p_keys)) INTO n;
		ELSE
			SELECT count(*) INTO n FROM unnest(p_keys) k WHERE p_f @> k;
		END IF;
		INSERT INTO b8_raw VALUES (p_row, (i + 1) / 2, s,
			1000 * extract(epoch FROM clock_timestamp() - t0), n);
	END LOOP;
END $$;

-- A and B alternating over tables (no parameters), reps times each after
-- one warm-up of each
CREATE FUNCTION b8_pair_tables(p_row text, p_reps int, a text, b text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	i int;
	s text;
	t0 timestamptz;
	n bigint;
BEGIN
	EXECUTE a INTO n;
	EXECUTE b INTO n;
	FOR i IN 1 .. 2 * p_reps LOOP
		s := CASE WHEN (i % 4) IN (1, 0) THEN 'A' ELSE 'B' END;
		t0 := clock_timestamp();
		EXECUTE CASE s WHEN 'A' THEN a ELSE b END INTO n;
		INSERT INTO b8_raw VALUES (p_row, (i + 1) / 2, s,
			1000 * extract(epoch FROM clock_timestamp() - t0), n);
	END LOOP;
END $$;

-- the filters: keys key1 .. key500000 added (as bloom_agg sizes for 1e8
-- and 1e6 keys); the probes key1 .. key1000000
CREATE FUNCTION b8_run(p_reps int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
	big bloom;
	small bloom;
	keys text[];
BEGIN
	SELECT bloom_agg('key' || g, 0.01, 100000000::bigint), bloom_agg('key' || g, 0.01, 1000000::bigint)
	INTO big, small FROM generate_series(1, 500000) g;
	SELECT array_agg('key' || g ORDER BY g) INTO keys FROM generate_series(1, 1000000) g;
	PERFORM b8_pair('B8a 120 MB', big, keys, p_reps,
		'SELECT cardinality(bloom_contains_each($1, $2))');
	PERFORM b8_pair('B8b 120 MB, counted', big, keys, p_reps,
		'SELECT count(*) FROM unnest(bloom_contains_each($1, $2)) a WHERE a');
	PERFORM b8_pair('B8c 1.2 MB', small, keys, p_reps,
		'SELECT cardinality(bloom_contains_each($1, $2))');
	PERFORM b8_pair_static('B8d 120 MB, static', big, keys, p_reps);
	PERFORM b8_pair_static('B8e 1.2 MB, static', small, keys, p_reps);
END $$;
SELECT b8_run(:reps);

-- B8f: the same filter stored (a table's column, out of line,
-- uncompressed: STORAGE external) and the same keys in a table, which of
-- them it may contain as rows: bloom_may_contain in FROM (which PostgreSQL
-- inlines: the rows stream from a select list of bloom_may_contain_rows,
-- no function scan stores them) against unnest and row-at-a-time @>.  Both
-- read the stored filter whole once per statement (the probe cache of
-- their call site).  For the floor (info): B8g, the same batched probes
-- without rows (bloom_contains_each's answers counted by cardinality);
-- B8h, the rows alone: the 500,000 present keys through bloom_may_contain
-- on a filter of one word, every bit set (the keys hashed, no filter
-- read, every probe in the caches and true).  Against the same B as B8f.
-- Also for reference: B8j, B8f's A with bloom_may_contain in a select
-- list (bloom_may_contain_rows put in its place by the planner support);
-- B8i, B8h's A against the same rows from unnest in FROM (which hashes
-- nothing, but whose rows go through a function scan's tuplestore).
CREATE TABLE b8_big (id int, f bloom);
ALTER TABLE b8_big ALTER COLUMN f SET STORAGE external;
INSERT INTO b8_big SELECT 1, bloom_agg('key' || g, 0.01, 100000000::bigint) FROM generate_series(1, 500000) g;
CREATE TABLE b8_arr (id int, a text[]);
INSERT INTO b8_arr SELECT 1, array_agg('key' || g ORDER BY g) FROM generate_series(1, 1000000) g;
CREATE TABLE b8_present (id int, a text[]);
INSERT INTO b8_present SELECT 1, array_agg('key' || g ORDER BY g) FROM generate_series(1, 500000) g;
VACUUM ANALYZE b8_big, b8_arr, b8_present;
SELECT b8_pair_tables('B8f 120 MB stored, rows', :reps,
	'SELECT count(*) FROM b8_big big, b8_arr arr, bloom_may_contain(big.f, arr.a)',
	'SELECT count(*) FROM b8_big big, b8_arr arr, unnest(arr.a) k WHERE big.f @> k');
SELECT b8_pair_tables('B8j 120 MB stored, rows, select list', :reps,
	'SELECT count(*) FROM (SELECT bloom_may_contain(big.f, arr.a) FROM b8_big big, b8_arr arr) s',
	'SELECT count(*) FROM b8_big big, b8_arr arr, unnest(arr.a) k WHERE big.f @> k');
SELECT b8_pair_tables('B8g 120 MB stored, no rows', :reps,
	'SELECT sum(cardinality(bloom_contains_each(big.f, arr.a))) FROM b8_big big, b8_arr arr',
	'SELECT count(*) FROM b8_big big, b8_arr arr, unnest(arr.a) k WHERE big.f @> k');
SELECT b8_pair_tables('B8h the rows alone', :reps,
	'SELECT count(*) FROM (SELECT bloom_import(''\x0000000100000001ffffffffffffffff'', ''nb'') AS f) o,
		b8_present p, bloom_may_contain(o.f, p.a)',
	'SELECT count(*) FROM b8_big big, b8_arr arr, unnest(arr.a) k WHERE big.f @> k');
SELECT b8_pair_tables('B8i rows: bloom_may_contain / unnest', :reps,
	'SELECT count(*) FROM (SELECT bloom_import(''\x0000000100000001ffffffffffffffff'', ''nb'') AS f) o,
		b8_present p, bloom_may_contain(o.f, p.a)',
	'SELECT count(*) FROM b8_present p, unnest(p.a) k');

\pset footer off
\o :out
\qecho '# B8: bloom_contains_each and bloom_may_contain (A) against row-at-a-time @> (B), 1,000,000 text keys'
\qecho
WITH p AS (
	SELECT a.row_id, a.rep, a.ms AS a_ms, b.ms AS b_ms
	FROM b8_raw a JOIN b8_raw b ON a.row_id = b.row_id AND a.rep = b.rep AND a.side = 'A' AND b.side = 'B')
SELECT row_id,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY a_ms)::numeric, 1) AS a_ms,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY b_ms)::numeric, 1) AS b_ms,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY a_ms / b_ms)::numeric, 3) AS a_over_b,
       round(min(a_ms / b_ms)::numeric, 3) || '–' || round(max(a_ms / b_ms)::numeric, 3) AS range,
       count(*) AS pairs,
       CASE WHEN row_id LIKE 'B8a%' OR row_id LIKE 'B8d%' OR row_id LIKE 'B8f%'
            THEN CASE WHEN percentile_cont(0.5) WITHIN GROUP (ORDER BY a_ms / b_ms) <= 0.40
                      THEN 'PASS (<= 0.40)' ELSE 'FAIL (> 0.40)' END
            ELSE 'info' END AS bound
FROM p GROUP BY row_id ORDER BY row_id;
-- what each side returned (A: the keys, A counted and B: the present ones)
SELECT row_id, side, min(n) AS n, max(n) = min(n) AS same_every_time FROM b8_raw GROUP BY 1, 2 ORDER BY 1, 2;
\o
