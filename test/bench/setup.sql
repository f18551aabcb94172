-- test/bench/setup.sql - tables, filters and the timing driver, created once
-- per run by test/bench/run.sh.  psql variables (set by run.sh):
--   nkeys       rows of keys                         (5,000,000; quick 500,000)
--   b1_small    keys of the cache-resident B1 filter (100,000)
--   b1_large    keys of the large B1 filter          (10,000,000; quick 1,000,000)
--   b2_expected expected_keys of the B2 filter       (85,000,000 -> ~106 MB; quick 8,500,000)
--   npar        rows of keys_par (B4)                (8,000,000; quick 1,000,000)
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET max_parallel_workers_per_gather = 0;
SET jit = off;

CREATE EXTENSION bloomcass;
CREATE EXTENSION hll;

-- Probe table: 'key1' .. 'key<nkeys>'.
CREATE TABLE keys (k text NOT NULL);
INSERT INTO keys SELECT 'key' || g FROM generate_series(1, :nkeys) g;

-- B4: a table of at least 8M keys (parallel scans).
CREATE TABLE keys_par (k text NOT NULL);
INSERT INTO keys_par SELECT 'key' || g FROM generate_series(1, :npar) g;

-- B1 filters, stored; the timing driver detoasts them into memory.
--   b1_small: bloom_agg over 'key1'..'key<b1_small>' at 0.01 (~120 KB for
--             100k keys; those keys are 2% of the probed keys)
--   b1_large: the filter of b1_large keys starting at the middle of the
--             probe range, so half of the probed keys are present
--             (expected_keys mode with exactly that many distinct keys:
--             the same size as exact mode).  The keys stream from a
--             target-list generate_series (no 10M-row table).
CREATE TABLE bench_filter (name text PRIMARY KEY, f bloom NOT NULL);
ALTER TABLE bench_filter ALTER COLUMN f SET STORAGE external;
INSERT INTO bench_filter
SELECT 'b1_small', bloom_agg('key' || g, 0.01) FROM generate_series(1, :b1_small) g;
INSERT INTO bench_filter
SELECT 'b1_large', bloom_agg(k, 0.01, (:b1_large)::bigint)
FROM (SELECT 'key' || generate_series(:nkeys / 2 + 1, :nkeys / 2 + :b1_large) AS k) s;

-- B2: a filter of >= 100 MB (expected_keys 85M at 0.01) holding the first
-- half of the probed keys, TOASTed out of line (STORAGE external).
CREATE TABLE big_filter (id int PRIMARY KEY, f bloom NOT NULL);
ALTER TABLE big_filter ALTER COLUMN f SET STORAGE external;
INSERT INTO big_filter
SELECT 1, bloom_agg(k, 0.01, (:b2_expected)::bigint) FROM keys
WHERE substr(k, 4)::int <= :nkeys / 2;

VACUUM (FREEZE, ANALYZE) keys, keys_par, bench_filter, big_filter;

-- Raw samples of the timing session.
CREATE TABLE bench_raw (
	row_id text NOT NULL,
	rep int NOT NULL,
	side text NOT NULL,			-- 'A' or 'B'
	ms float8 NOT NULL
);
-- Free-form facts recorded by the timing session (result counts, filter
-- sizes, plans, checks).
CREATE TABLE bench_note (row_id text NOT NULL, item text NOT NULL, value text);

-- Apply "name=value,name=value" settings for the rest of the transaction.
CREATE FUNCTION bench_set(p_settings text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	s text;
BEGIN
	IF p_settings IS NULL OR p_settings = '' THEN
		RETURN;
	END IF;
	FOREACH s IN ARRAY string_to_array(p_settings, ',') LOOP
		PERFORM set_config(trim(split_part(s, '=', 1)), trim(split_part(s, '=', 2)), true);
	END LOOP;
END
$$;

-- A detoasted in-memory copy of a filter (bloom_union of a filter with
-- itself is the same bytes, freshly allocated).  In a function, plpgsql
-- keeps a TOAST pointer as is in a variable, so this is what makes "the
-- filter in a plpgsql variable" really a value in memory.
CREATE FUNCTION bench_in_memory(p bloom) RETURNS bloom
LANGUAGE sql STRICT AS $$ SELECT bloom_union(p, p) $$;

-- The timing driver.  Runs p_a and p_b (dynamic SQL; a side whose text
-- has $1 runs as EXECUTE ... USING p_filter, the other without a
-- parameter) once each to warm up, then p_reps times each, alternating the
-- order (A B, B A, A B, ...), timing each statement with clock_timestamp().
-- p_set_a / p_set_b are settings applied before each run of that side.
-- Samples are inserted into bench_raw after the last timed run (nothing is
-- written while timing).  The result of the warm-up run is noted when it
-- is short (counts).
CREATE FUNCTION bench_pair(p_row text, p_a text, p_b text, p_reps int,
						   p_filter bloom DEFAULT NULL,
						   p_set_a text DEFAULT NULL, p_set_b text DEFAULT NULL)
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	ta float8[] := '{}';
	tb float8[] := '{}';
	ua boolean := position('$1' IN p_a) > 0;
	ub boolean := position('$1' IN p_b) > 0;
	r record;
	t0 timestamptz;
	i int;
	j int;
	res_a text;
	res_b text;
BEGIN
	-- warm-up (caches, shared buffers)
	PERFORM bench_set(p_set_a);
	IF ua THEN EXECUTE p_a INTO r USING p_filter; ELSE EXECUTE p_a INTO r; END IF;
	IF pg_column_size(r) < 200 THEN
		res_a := r::text;
	END IF;
	PERFORM bench_set(p_set_b);
	IF ub THEN EXECUTE p_b INTO r USING p_filter; ELSE EXECUTE p_b INTO r; END IF;
	IF pg_column_size(r) < 200 THEN
		res_b := r::text;
	END IF;

	FOR i IN 1 .. p_reps LOOP
		FOR j IN 0 .. 1 LOOP
			IF (i + j) % 2 = 1 THEN
				PERFORM bench_set(p_set_a);
				IF ua THEN
					t0 := clock_timestamp();
					EXECUTE p_a INTO r USING p_filter;
				ELSE
					t0 := clock_timestamp();
					EXECUTE p_a INTO r;
				END IF;
				ta := ta || (extract(epoch FROM clock_timestamp() - t0) * 1000)::float8;
			ELSE
				PERFORM bench_set(p_set_b);
				IF ub THEN
					t0 := clock_timestamp();
					EXECUTE p_b INTO r USING p_filter;
				ELSE
					t0 := clock_timestamp();
					EXECUTE p_b INTO r;
				END IF;
				tb := tb || (extract(epoch FROM clock_timestamp() - t0) * 1000)::float8;
			END IF;
		END LOOP;
	END LOOP;

	INSERT INTO bench_raw
	SELECT p_row, g, 'A', ta[g] FROM generate_series(1, p_reps) g
	UNION ALL
	SELECT p_row, g, 'B', tb[g] FROM generate_series(1, p_reps) g;
	INSERT INTO bench_note VALUES
		(p_row, 'A result', res_a),
		(p_row, 'B result', res_b),
		(p_row, '$1 bytes', CASE WHEN ua OR ub THEN pg_column_size(p_filter)::text END);
END
$$;

-- Note the EXPLAIN (ANALYZE) text of a statement under the given settings
-- (the statement runs before the note is written: nothing in the
-- transaction has written when it is planned, as in bench_pair).
CREATE FUNCTION bench_explain(p_row text, p_sql text, p_set text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	line text;
	plan text := '';
BEGIN
	PERFORM bench_set(p_set);
	FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || p_sql LOOP
		plan := plan || line || E'\n';
	END LOOP;
	INSERT INTO bench_note VALUES (p_row, 'plan', plan);
END
$$;

-- Note whether a statement returning a bloom gives the same value (=) under
-- two sets of settings.
CREATE FUNCTION bench_same(p_row text, p_sql text, p_set_1 text, p_set_2 text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	v1 bloom;
	v2 bloom;
BEGIN
	PERFORM bench_set(p_set_1);
	EXECUTE p_sql INTO v1;
	PERFORM bench_set(p_set_2);
	EXECUTE p_sql INTO v2;
	INSERT INTO bench_note VALUES
		(p_row, 'identical', (v1 = v2)::text),
		(p_row, 'result bytes', (bloom_info(v1)).filter_db_bytes::text);
END
$$;

SELECT name, pg_size_pretty(pg_column_size(f)::bigint) AS stored,
	   (bloom_info(f)).filter_db_bytes
FROM bench_filter
UNION ALL
SELECT 'big_filter', pg_size_pretty(pg_column_size(f)::bigint), (bloom_info(f)).filter_db_bytes
FROM big_filter
UNION ALL
SELECT 'keys (' || count(*) || ' rows)', pg_size_pretty(pg_table_size('keys')), NULL FROM keys
UNION ALL
SELECT 'keys_par (' || count(*) || ' rows)', pg_size_pretty(pg_table_size('keys_par')), NULL FROM keys_par;
