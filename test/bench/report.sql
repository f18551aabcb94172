-- test/bench/report.sql - turns the samples into build/bench/results.md and
-- build/bench/raw.tsv (run by run.sh from the repository root, after the
-- timing session, in a separate session).  psql variables: reps, quick,
-- nkeys, npar, nmem, b1_small, b1_large, header (a markdown preamble).
-- Reads build/bench/core.tsv (B5 samples) and build/bench/mem.tsv (B6).
\set ON_ERROR_STOP on
SET client_min_messages = warning;

CREATE TEMP TABLE bench_core (metric text, rep int, value float8);
\copy bench_core FROM 'build/bench/core.tsv'
CREATE TEMP TABLE bench_mem (mode text, item text, value float8);
\copy bench_mem FROM 'build/bench/mem.tsv'

-- Every sample, one table: timing rows (ms), B5 (ns/op or GB/s), B6 (kB/bytes).
\copy (SELECT row_id, rep, side, round(ms::numeric, 4) AS value, 'ms' AS unit FROM bench_raw UNION ALL SELECT 'B5 ' || metric, rep, 'A', round(value::numeric, 4), CASE WHEN metric LIKE 'murmur3%' THEN 'GB/s' WHEN metric LIKE '%_ms' THEN 'ms' ELSE 'ns/op' END FROM bench_core UNION ALL SELECT 'B6 ' || mode, 1, item, value::numeric, CASE WHEN item LIKE '%kb' THEN 'kB' WHEN item = 'ms' THEN 'ms' ELSE 'bytes' END FROM bench_mem ORDER BY 1, 2, 3) TO 'build/bench/raw.tsv' WITH (FORMAT csv, DELIMITER E'\t', HEADER)

CREATE TEMP TABLE rowdef (
	ord int, row_id text, a text, b text,
	op text,					-- '<=' or '>=' on the median ratio; NULL: no target
	target float8, target_text text
);

INSERT INTO rowdef VALUES
(10, 'B1a',
 format('`count(*) … WHERE bloom_contains($1, k)`, %s rows; $1 = in-memory filter of %s keys (%s), cache-resident',
		:nkeys, :b1_small, (SELECT pg_size_pretty(pg_column_size(f)::bigint) FROM bench_filter WHERE name = 'b1_small')),
 '`count(*) … WHERE hashtext(k) <> 0`', '<=', 1.15, '≤ 1.15×'),
(11, 'B1b',
 format('same, $1 = in-memory filter of %s keys (%s), half the probed keys present',
		:b1_large, (SELECT pg_size_pretty(pg_column_size(f)::bigint) FROM bench_filter WHERE name = 'b1_large')),
 '`count(*) … WHERE hashtext(k) <> 0`', '<=', 1.4, '≤ 1.4×'),
(20, 'B2a',
 format('`bloom_contains((SELECT f FROM big_filter WHERE id = 1), k)`: stored filter (%s, TOASTed, STORAGE external), scalar subquery',
		(SELECT pg_size_pretty(pg_column_size(f)::bigint) FROM big_filter WHERE id = 1)),
 'the same scan, $1 = that filter in memory (plpgsql variable, EXECUTE … USING)', '<=', 1.1, '≤ 1.1×'),
(21, 'B2b',
 '`FROM keys, big_filter b WHERE b.id = 1 AND bloom_contains(b.f, k)`: stored filter, join',
 'the same scan, $1 = that filter in memory', '<=', 1.1, '≤ 1.1×'),
(22, 'B2c', '`SELECT $1 IS NOT NULL`, $1 = the in-memory B2 filter: the cost of binding it, included in the B sides of B2a/B2b',
 '`SELECT true`, nothing bound', NULL, NULL, '— (info)'),
(30, 'B3a', format('`bloom_agg(k)` (exact mode), %s keys', :nkeys),
 '`hll_add_agg(hll_hash_text(k))`', '<=', 1.3, '≤ 1.3×'),
(31, 'B3b', format('`bloom_agg(k, 0.01, %s)` (expected-keys mode)', :nkeys),
 '`hll_add_agg(hll_hash_text(k))`', '<=', 1.15, '≤ 1.15×'),
(40, 'B4a', format('`bloom_agg(k)`, %s keys, max_parallel_workers_per_gather = 0', :npar),
 'the same, = 2; ratio = S1 (speed-up)', NULL, NULL, '— (see B4c)'),
(41, 'B4b', format('`count(*)`, %s rows, max_parallel_workers_per_gather = 0', :npar),
 'the same, = 2; ratio = S2 (speed-up)', NULL, NULL, '— (see B4c)');

CREATE TEMP TABLE pairs AS
SELECT a.row_id, a.rep, a.ms AS a_ms, b.ms AS b_ms, a.ms / b.ms AS ratio
FROM bench_raw a JOIN bench_raw b ON a.row_id = b.row_id AND a.rep = b.rep
WHERE a.side = 'A' AND b.side = 'B';

CREATE TEMP TABLE med AS
SELECT row_id, count(*) AS n,
	   percentile_cont(0.5) WITHIN GROUP (ORDER BY a_ms) AS a_ms,
	   percentile_cont(0.5) WITHIN GROUP (ORDER BY b_ms) AS b_ms,
	   percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio) AS ratio,
	   min(ratio) AS rmin, max(ratio) AS rmax
FROM pairs GROUP BY row_id;

CREATE FUNCTION pg_temp.ms(float8) RETURNS text LANGUAGE sql AS
$$ SELECT CASE WHEN $1 >= 100 THEN to_char($1, 'FM999990') ELSE to_char($1, 'FM990.0') END || ' ms' $$;
CREATE FUNCTION pg_temp.verdict(v float8, op text, t float8) RETURNS text LANGUAGE sql AS
$$ SELECT CASE WHEN op IS NULL OR v IS NULL THEN '—'
			   WHEN (op = '<=' AND v <= t) OR (op = '>=' AND v >= t) THEN 'meets'
			   ELSE '**misses**' END $$;
CREATE FUNCTION pg_temp.core(m text) RETURNS float8 LANGUAGE sql AS
$$ SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY value) FROM bench_core WHERE metric = m $$;
CREATE FUNCTION pg_temp.mem(m text, i text) RETURNS float8 LANGUAGE sql AS
$$ SELECT value FROM bench_mem WHERE mode = m AND item = i $$;
CREATE FUNCTION pg_temp.note(r text, i text) RETURNS text LANGUAGE sql AS
$$ SELECT string_agg(value, ' | ') FROM bench_note WHERE row_id = r AND item = i $$;

CREATE TEMP TABLE result (ord int, row_id text, a text, b text, med_a text, med_b text,
						  ratio text, target text, verdict text);

INSERT INTO result
SELECT d.ord, d.row_id, d.a, d.b, pg_temp.ms(m.a_ms), pg_temp.ms(m.b_ms),
	   CASE WHEN d.row_id = 'B2c' THEN '—' ELSE to_char(m.ratio, 'FM990.000') || '×' END,
	   d.target_text, pg_temp.verdict(m.ratio, d.op, d.target)
FROM rowdef d LEFT JOIN med m USING (row_id);

-- B4c: S1/S2 from the medians of the per-pair speed-ups; B4d: the checks.
INSERT INTO result
SELECT 42, 'B4c', 'S1 = median speed-up of `bloom_agg(k)` (B4a)',
	   'S2 = median speed-up of `count(*)` (B4b)',
	   to_char(s1.ratio, 'FM990.00') || '×', to_char(s2.ratio, 'FM990.00') || '×',
	   to_char(s1.ratio / s2.ratio, 'FM990.000'), '≥ 0.9',
	   pg_temp.verdict(s1.ratio / s2.ratio, '>=', 0.9)
FROM med s1, med s2 WHERE s1.row_id = 'B4a' AND s2.row_id = 'B4b';

INSERT INTO result
SELECT 43, 'B4d', 'plan of `bloom_agg(k)` at 2 workers: Partial Aggregate under Gather; workers launched',
	   'parallel result = serial result (`=` on the bloom values)',
	   CASE WHEN plan ~ 'Gather.*Partial Aggregate' THEN 'yes' ELSE 'no' END ||
	   ', ' || coalesce(substring(plan FROM 'Workers Launched: (\d+)'), '0'),
	   coalesce(same, '?'), '—', 'both yes, 2 launched',
	   CASE WHEN plan ~ 'Gather.*Partial Aggregate' AND plan ~ 'Workers Launched: 2' AND same = 'true'
			THEN 'meets' ELSE '**misses**' END
FROM (SELECT pg_temp.note('B4a', 'plan') AS plan, pg_temp.note('B4a', 'identical') AS same) x;

-- B5: the core alone.
INSERT INTO result
SELECT 50 + o, 'B5' || chr(ascii('a') + o), a, '—', to_char(v, 'FM99990.0') || ' ns', '—', '—', t,
	   CASE WHEN op IS NULL THEN '—' ELSE pg_temp.verdict(v, op, tv) END
FROM (VALUES
	(0, 'contains_1e6', 'contains, 16-byte keys (murmur3 included), filter for 1e6 keys at 0.01 (1.2 MB, cache-resident)', '≤ 25 ns', '<=', 25.0),
	(1, 'contains_1e8', 'contains, filter for 1e8 keys (120 MB, DRAM-resident, random probes; malloc, 4 KB pages)', '≤ 100 ns', '<=', 100.0),
	(1, 'contains_1e7', 'contains, filter for 1e7 keys (12 MB; quick mode stands in for 1e8)', '≤ 100 ns', '<=', 100.0),
	(2, 'contains_1e8_thp', 'contains, 1e8-key filter in memory advised to use transparent huge pages', '— (info)', NULL, NULL),
	(2, 'contains_1e7_thp', 'contains, 1e7-key filter, transparent huge pages advised', '— (info)', NULL, NULL),
	(3, 'add_batch_1e6', 'add, batch path (hash 64 keys, then `bc_filter_add_hashes`), 1e6-key filter', '≤ 25 ns', '<=', 25.0),
	(4, 'add_batch_1e8', 'add, batch path, 1e8-key filter (DRAM)', '≤ 25 ns', '<=', 25.0),
	(4, 'add_batch_1e7', 'add, batch path, 1e7-key filter (quick mode)', '≤ 25 ns', '<=', 25.0),
	(5, 'add_batch_1e8_thp', 'add, batch path, 1e8-key filter, transparent huge pages advised', '— (info)', NULL, NULL),
	(5, 'add_batch_1e7_thp', 'add, batch path, 1e7-key filter, transparent huge pages advised', '— (info)', NULL, NULL),
	(6, 'add_1e6', 'add, one key at a time (`bc_filter_add`), 1e6-key filter', '— (info)', NULL, NULL),
	(7, 'add_1e8', 'add, one key at a time, 1e8-key filter', '— (info)', NULL, NULL),
	(7, 'add_1e7', 'add, one key at a time, 1e7-key filter', '— (info)', NULL, NULL),
	(8, 'add_hashes_1e6', 'add of precomputed hashes (`bc_filter_add_hashes`, exact-mode final), 1e6-key filter', '— (info)', NULL, NULL),
	(9, 'add_hashes_1e8', 'add of precomputed hashes, 1e8-key filter', '— (info)', NULL, NULL),
	(9, 'add_hashes_1e7', 'add of precomputed hashes, 1e7-key filter', '— (info)', NULL, NULL)
) AS c(o, metric, a, t, op, tv), LATERAL (SELECT pg_temp.core(c.metric) AS v) x
WHERE v IS NOT NULL;

INSERT INTO result
SELECT 60, 'B5k', 'murmur3 throughput, 1 KB keys', '—',
	   to_char(pg_temp.core('murmur3_1KB_GBps'), 'FM990.00') || ' GB/s', '—', '—', '— (info)', '—'
WHERE pg_temp.core('murmur3_1KB_GBps') IS NOT NULL;

INSERT INTO result
SELECT 61, 'B5l', 'environment: malloc + first write + free of 100 MB (page faults)', '—',
	   to_char(pg_temp.core('first_touch_100MB_ms'), 'FM99990.0') || ' ms', '—', '—', '— (info)', '—'
WHERE pg_temp.core('first_touch_100MB_ms') IS NOT NULL;

-- B6: peak memory.
INSERT INTO result
SELECT 70, 'B6a',
	   format('`bloom_agg(g)` exact mode, %s distinct int8 keys: (peak − baseline − filter) / n', :nmem),
	   'peak − baseline (VmHWM), filter',
	   to_char((pk - bl) * 1024 - fb, 'FM9999999999') || ' B → ' ||
	   to_char(((pk - bl) * 1024 - fb) / :nmem, 'FM990.0') || ' B/key',
	   pg_size_pretty(((pk - bl) * 1024)::bigint) || ', ' || pg_size_pretty(fb::bigint),
	   to_char(((pk - bl) * 1024 - fb) / :nmem, 'FM990.0'),
	   '≤ 16 B/key + filter',
	   pg_temp.verdict(((pk - bl) * 1024 - fb) / :nmem, '<=', 16)
FROM (SELECT pg_temp.mem('exact', 'baseline_kb') AS bl, pg_temp.mem('exact', 'peak_kb') AS pk,
			 pg_temp.mem('exact', 'filter_bytes') AS fb) x;

INSERT INTO result
SELECT 71, 'B6b',
	   format('`bloom_agg(g, 0.01, %s)` expected-keys mode, same keys: (peak − baseline) / filter', :nmem),
	   'filter size',
	   pg_size_pretty(((pk - bl) * 1024)::bigint), pg_size_pretty(fb::bigint),
	   to_char((pk - bl) * 1024 / fb, 'FM990.000') || '×',
	   '≤ 1.1×', pg_temp.verdict((pk - bl) * 1024 / fb, '<=', 1.1)
FROM (SELECT pg_temp.mem('expected', 'baseline_kb') AS bl, pg_temp.mem('expected', 'peak_kb') AS pk,
			 pg_temp.mem('expected', 'filter_bytes') AS fb) x;

-- The report.
\pset format unaligned
\pset tuples_only on
\o build/bench/results.md
SELECT :'header';
SELECT '| row | A | B | median A | median B | median ratio | target | verdict |' || E'\n' ||
	   '|---|---|---|---|---|---|---|---|' || E'\n' ||
	   string_agg(format('| %s | %s | %s | %s | %s | %s | %s | %s |',
						 row_id, a, b, coalesce(med_a, 'n/a'), coalesce(med_b, 'n/a'),
						 coalesce(ratio, 'n/a'), target, verdict), E'\n' ORDER BY ord)
FROM result;
SELECT E'\n### Details\n';
SELECT format('- %s: median ratio over %s pairs %s (min %s, max %s); %s',
			  row_id, n, to_char(ratio, 'FM999999990.000'), to_char(rmin, 'FM999999990.000'),
			  to_char(rmax, 'FM999999990.000'),
			  coalesce('A gives ' || pg_temp.note(row_id, 'A result') || ', B gives ' ||
					   pg_temp.note(row_id, 'B result'), 'results not shown (large)'))
FROM med ORDER BY row_id;
SELECT format('- %s net of binding the in-memory filter: median A / (median B − median B2c A) = %s / (%s − %s) = %s',
			  m.row_id, pg_temp.ms(m.a_ms), pg_temp.ms(m.b_ms), pg_temp.ms(c.a_ms),
			  to_char(m.a_ms / nullif(m.b_ms - c.a_ms, 0), 'FM990.000'))
FROM med m, med c WHERE m.row_id IN ('B2a', 'B2b') AND c.row_id = 'B2c' ORDER BY m.row_id;
SELECT format('- B4a: parallel result = serial result: %s (%s-byte filter)',
			  pg_temp.note('B4a', 'identical'), pg_temp.note('B4a', 'result bytes'));
SELECT format('- B6 %s: baseline VmHWM %s kB, peak VmHWM %s kB, filter %s bytes, aggregate %s ms',
			  mode, max(value) FILTER (WHERE item = 'baseline_kb'), max(value) FILTER (WHERE item = 'peak_kb'),
			  max(value) FILTER (WHERE item = 'filter_bytes'), max(value) FILTER (WHERE item = 'ms'))
FROM bench_mem GROUP BY mode ORDER BY mode;
SELECT E'\nB5 medians (ns per operation; murmur3 in GB/s; first touch in ms):\n\n```\n' ||
	   string_agg(format('%-18s %10s  (min %s, max %s)', metric,
						 to_char(percentile, 'FM99990.00'), to_char(mn, 'FM99990.00'), to_char(mx, 'FM99990.00')),
				  E'\n' ORDER BY metric) || E'\n```'
FROM (SELECT metric, percentile_cont(0.5) WITHIN GROUP (ORDER BY value) AS percentile,
			 min(value) AS mn, max(value) AS mx FROM bench_core GROUP BY metric) c;
SELECT E'\nPlans (EXPLAIN ANALYZE, COSTS OFF, TIMING OFF):\n';
SELECT format(E'%s:\n```\n%s```', row_id, value) FROM bench_note WHERE item = 'plan' ORDER BY row_id;
\o
