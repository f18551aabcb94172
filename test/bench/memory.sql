-- test/bench/memory.sql - B6: peak memory of one bloom_agg in a fresh
-- backend.  run.sh runs it once per mode, each time in a new psql session
-- (so the backend's VmHWM starts low).  psql variables:
--   n         distinct keys (int8 1 .. n, streamed by a target-list
--             generate_series: ProjectSet, no table, nothing materialized)
--   expected  on: bloom_agg(g, 0.01, n) (expected-keys mode); off: exact mode
-- Environment: BENCH_MEM_OUT, the file the VmHWM lines are appended to.
-- VmHWM (peak resident set, kB) is read from /proc/<backend pid>/status by
-- the shell (psql \!) before and after the aggregate.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
SET jit = off;
SET max_parallel_workers_per_gather = 0;

-- Load the library and warm the caches of both aggregates first, so the
-- baseline includes them.
SELECT (bloom_info(bloom_agg(g))).filter_db_bytes IS NOT NULL AS warm
FROM generate_series(1::int8, 1000::int8) g;
SELECT (bloom_info(bloom_agg(g, 0.01, 1000::bigint))).filter_db_bytes IS NOT NULL AS warm
FROM generate_series(1::int8, 1000::int8) g;

SELECT pg_backend_pid() AS pid \gset
\setenv BENCH_PID :pid
\! awk '/^VmHWM/ {print "baseline_kb", $2}' /proc/$BENCH_PID/status >> "$BENCH_MEM_OUT"

SELECT clock_timestamp() AS t0 \gset
\if :expected
SELECT (bloom_info(f)).filter_db_bytes AS filter_bytes
FROM (SELECT bloom_agg(g, 0.01, (:n)::bigint) AS f
	  FROM (SELECT generate_series(1::int8, (:n)::int8) AS g) s) t \gset
\else
SELECT (bloom_info(f)).filter_db_bytes AS filter_bytes
FROM (SELECT bloom_agg(g) AS f
	  FROM (SELECT generate_series(1::int8, (:n)::int8) AS g) s) t \gset
\endif
SELECT round(extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1000) AS ms \gset

\! awk '/^VmHWM/ {print "peak_kb", $2}' /proc/$BENCH_PID/status >> "$BENCH_MEM_OUT"
\setenv BENCH_FILTER_BYTES :filter_bytes
\setenv BENCH_MS :ms
\! printf 'filter_bytes %s\nms %s\n' "$BENCH_FILTER_BYTES" "$BENCH_MS" >> "$BENCH_MEM_OUT"
