-- test/bench/timing.sql - the timing session: ONE psql process, ONE backend,
-- every row B1..B4, each row alternating its A and B statements inside
-- bench_pair() (setup.sql).  psql variable: reps.
\set ON_ERROR_STOP on
SET client_min_messages = warning;
-- JIT off: on these plans the JIT would compile expressions for every
-- statement (tens to hundreds of ms, varying run to run), noise unrelated
-- to what is measured.
SET jit = off;
-- No parallel query except where B4 asks for it.
SET max_parallel_workers_per_gather = 0;
-- (autovacuum is off for the whole cluster: run.sh, ALTER SYSTEM.)
SELECT current_setting('autovacuum') AS autovacuum, current_setting('jit') AS jit,
	   current_setting('max_parallel_workers_per_gather') AS workers_per_gather,
	   current_setting('shared_buffers') AS shared_buffers, pg_backend_pid() AS backend;

-- B1: contains scan, filter in a plpgsql variable (detoasted), bound as $1.
\echo B1a
SELECT bench_pair('B1a',
	'SELECT count(*) FROM keys WHERE bloom_contains($1, k)',
	'SELECT count(*) FROM keys WHERE hashtext(k) <> 0',
	:reps, (SELECT bench_in_memory(f) FROM bench_filter WHERE name = 'b1_small'));
\echo B1b
SELECT bench_pair('B1b',
	'SELECT count(*) FROM keys WHERE bloom_contains($1, k)',
	'SELECT count(*) FROM keys WHERE hashtext(k) <> 0',
	:reps, (SELECT bench_in_memory(f) FROM bench_filter WHERE name = 'b1_large'));

-- B2: the stored (TOASTed) >= 100 MB filter vs the same filter in memory.
\echo B2a
SELECT bench_pair('B2a',
	'SELECT count(*) FROM keys WHERE bloom_contains((SELECT f FROM big_filter WHERE id = 1), k)',
	'SELECT count(*) FROM keys WHERE bloom_contains($1, k)',
	:reps, (SELECT bench_in_memory(f) FROM big_filter WHERE id = 1));
\echo B2b
SELECT bench_pair('B2b',
	'SELECT count(*) FROM keys, big_filter b WHERE b.id = 1 AND bloom_contains(b.f, k)',
	'SELECT count(*) FROM keys WHERE bloom_contains($1, k)',
	:reps, (SELECT bench_in_memory(f) FROM big_filter WHERE id = 1));
-- B2c: what binding the in-memory filter as $1 costs the B sides of B2
-- (EXECUTE ... USING copies the value, the planner folds it into a Const).
\echo B2c
SELECT bench_pair('B2c',
	'SELECT $1 IS NOT NULL',
	'SELECT true',
	:reps, (SELECT bench_in_memory(f) FROM big_filter WHERE id = 1));
SELECT bench_explain('B2b',
	'SELECT count(*) FROM keys, big_filter b WHERE b.id = 1 AND bloom_contains(b.f, k)', '');

-- B3: building filters vs building an hll sketch over the same keys.
\echo B3a
SELECT bench_pair('B3a',
	'SELECT bloom_agg(k) FROM keys',
	'SELECT hll_add_agg(hll_hash_text(k)) FROM keys',
	:reps);
\echo B3b
SELECT bench_pair('B3b',
	format('SELECT bloom_agg(k, 0.01, %s) FROM keys', :nkeys),
	'SELECT hll_add_agg(hll_hash_text(k)) FROM keys',
	:reps);

-- B4: parallel speed-up of bloom_agg (S1) vs that of count(*) (S2).
\echo B4a
SELECT bench_pair('B4a',
	'SELECT bloom_agg(k) FROM keys_par',
	'SELECT bloom_agg(k) FROM keys_par',
	:reps, NULL, 'max_parallel_workers_per_gather=0', 'max_parallel_workers_per_gather=2');
\echo B4b
SELECT bench_pair('B4b',
	'SELECT count(*) FROM keys_par',
	'SELECT count(*) FROM keys_par',
	:reps, NULL, 'max_parallel_workers_per_gather=0', 'max_parallel_workers_per_gather=2');
\echo B4 checks
SELECT bench_explain('B4a', 'SELECT bloom_agg(k) FROM keys_par', 'max_parallel_workers_per_gather=2');
SELECT bench_explain('B4b', 'SELECT count(*) FROM keys_par', 'max_parallel_workers_per_gather=2');
SELECT bench_same('B4a', 'SELECT bloom_agg(k) FROM keys_par',
	'max_parallel_workers_per_gather=2', 'max_parallel_workers_per_gather=0');
RESET max_parallel_workers_per_gather;
SET max_parallel_workers_per_gather = 0;
