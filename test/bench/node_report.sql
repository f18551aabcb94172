-- test/bench/node_report.sql - build/bench/node.md and node_raw.tsv from
-- the samples of the node-scale benchmark (node.sh).  psql variables:
-- header (a markdown preamble), out, raw (the two files).
--
-- Per size and measure: the median time of each side, the median of the
-- per-repetition ratios A/B (bloomcass over the floor, the target's) with
-- their range, and A/C (bloomcass over the second floor); for the listing
-- also D (the listing in FROM) over C and over B, and A over E (the floor
-- with the discovery of the files).
\set ON_ERROR_STOP on
SET client_min_messages = warning;

\o :raw
COPY (SELECT n, measure, rep, side, round(seconds::numeric, 6) AS seconds, value
	  FROM node_samples ORDER BY 1, 2, 3, 4) TO STDOUT WITH (FORMAT csv, DELIMITER E'\t', HEADER);
\o

CREATE TEMP TABLE node_med AS
SELECT a.n, a.measure, count(*) AS reps,
	   percentile_cont(0.5) WITHIN GROUP (ORDER BY a.seconds) AS a_s,
	   percentile_cont(0.5) WITHIN GROUP (ORDER BY b.seconds) AS b_s,
	   percentile_cont(0.5) WITHIN GROUP (ORDER BY c.seconds) AS c_s,
	   percentile_cont(0.5) WITHIN GROUP (ORDER BY a.seconds / b.seconds) AS ratio,
	   min(a.seconds / b.seconds) AS rmin, max(a.seconds / b.seconds) AS rmax,
	   percentile_cont(0.5) WITHIN GROUP (ORDER BY a.seconds / c.seconds) AS ratio_c,
	   max(a.value) AS a_rss, max(b.value) AS b_rss,
	   percentile_cont(0.5) WITHIN GROUP (ORDER BY d.seconds) AS d_s,
	   percentile_cont(0.5) WITHIN GROUP (ORDER BY d.seconds / c.seconds) AS ratio_dc,
	   percentile_cont(0.5) WITHIN GROUP (ORDER BY d.seconds / b.seconds) AS ratio_db,
	   percentile_cont(0.5) WITHIN GROUP (ORDER BY e.seconds) AS e_s,
	   percentile_cont(0.5) WITHIN GROUP (ORDER BY a.seconds / e.seconds) AS ratio_ae
FROM node_samples a
JOIN node_samples b USING (n, measure, rep)
JOIN node_samples c USING (n, measure, rep)
LEFT JOIN node_samples d ON d.n = a.n AND d.measure = a.measure AND d.rep = a.rep AND d.side = 'D'
LEFT JOIN node_samples e ON e.n = a.n AND e.measure = a.measure AND e.rep = a.rep AND e.side = 'E'
WHERE a.side = 'A' AND b.side = 'B' AND c.side = 'C'
GROUP BY a.n, a.measure;

CREATE TEMP TABLE node_mem AS
SELECT n, max(kb) FILTER (WHERE item = 'baseline') AS base_kb,
	   max(kb) FILTER (WHERE item = 'peak') AS peak_kb,
	   max(kb) FILTER (WHERE item = 'peak_from') AS peak_from_kb
FROM node_memory GROUP BY n;

CREATE TEMP TABLE node_lines (ord int, line text);

INSERT INTO node_lines VALUES
(0, :'header'),
(1, E'| SSTables | bloomcass (A) | floor (B) | A | B | A/B: median (min–max) | target | | second floor (C) | C | A/C | D | D/C | D/B | E | A/E | peak memory |\n|---:|---|---|---:|---:|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|');

INSERT INTO node_lines
SELECT 2 + row_number() OVER (ORDER BY m.n, m.measure),
	   format('| %s | %s | %s | %s s | %s s | %s (%s–%s) | ≤ %s | %s | %s | %s s | %s | %s | %s | %s | %s | %s | %s |',
			  to_char(m.n, 'FM999,999,999'),
			  CASE m.measure WHEN 'list' THEN '`SELECT count(*) FROM (SELECT cassandra_sstables(dir)) s` (D: `FROM cassandra_sstables(dir)`)'
			  ELSE '`bloomcass-load` into an empty table' END,
			  CASE m.measure WHEN 'list' THEN '`sum(length(pg_read_binary_file(f)))` over the files the listing reads'
			  ELSE 'one binary `COPY` of the same bytes into bytea columns' END,
			  round(m.a_s::numeric, 3), round(m.b_s::numeric, 3),
			  round(m.ratio::numeric, 2), round(m.rmin::numeric, 2), round(m.rmax::numeric, 2),
			  CASE m.measure WHEN 'list' THEN '1.2' ELSE '1.15' END,
			  CASE WHEN m.ratio <= CASE m.measure WHEN 'list' THEN 1.2 ELSE 1.15 END THEN 'pass' ELSE 'FAIL' END,
			  CASE m.measure WHEN 'list' THEN 'the same bytes as the rows of a set-returning function in `FROM` (through a tuplestore)'
			  ELSE 'the same `COPY` with Filter.db twice (what the table of 1.5 kept: `filter_db` and `filter`)' END,
			  round(m.c_s::numeric, 3), round(m.ratio_c::numeric, 2),
			  coalesce(round(m.d_s::numeric, 3) || ' s', ''), coalesce(round(m.ratio_dc::numeric, 2)::text, ''),
			  coalesce(round(m.ratio_db::numeric, 2)::text, ''),
			  coalesce(round(m.e_s::numeric, 3) || ' s', ''), coalesce(round(m.ratio_ae::numeric, 2)::text, ''),
			  CASE m.measure WHEN 'list' THEN
				  format('backend VmHWM %s MB (+%s MB over a one-SSTable listing''s), %s MB after D',
						 round(mm.peak_kb / 1024.0, 1), round((mm.peak_kb - mm.base_kb) / 1024.0, 1),
						 round(mm.peak_from_kb / 1024.0, 1))
			  ELSE format('client RSS %s MB (`COPY` client %s MB)',
						  round(m.a_rss / 1024.0, 1), round(m.b_rss / 1024.0, 1)) END)
FROM node_med m LEFT JOIN node_mem mm USING (n);

-- how each scales: time per SSTable and memory, from the smallest node to the largest
INSERT INTO node_lines
SELECT 100, E'\nScaling, from the smallest node to the largest (A per SSTable at the largest over A per SSTable at the smallest: ≤ 1.1, or the per-SSTable cost grows with the node):\n\n| | per SSTable, A | per SSTable, B | A/B | A per SSTable, largest / smallest | target | | peak memory |\n|---|---|---|---|---:|---|---|---|'
WHERE (SELECT count(DISTINCT n) FROM node_med) > 1;
INSERT INTO node_lines
SELECT 101 + row_number() OVER (ORDER BY measure),
	   format('| %s | %s | %s | %s | %s | ≤ 1.1 | %s | %s |',
			  CASE measure WHEN 'list' THEN '`cassandra_sstables`' ELSE '`bloomcass-load`' END,
			  string_agg(format('%s µs (%s)', round((a_s / n * 1e6)::numeric), to_char(n, 'FM999,999,999')), ' → ' ORDER BY n),
			  string_agg(format('%s µs', round((b_s / n * 1e6)::numeric)), ' → ' ORDER BY n),
			  string_agg(round(ratio::numeric, 2)::text, ' → ' ORDER BY n),
			  round(((array_agg(a_s / n ORDER BY n DESC))[1] / (array_agg(a_s / n ORDER BY n))[1])::numeric, 2),
			  CASE WHEN (array_agg(a_s / n ORDER BY n DESC))[1] <= 1.1 * (array_agg(a_s / n ORDER BY n))[1]
				   THEN 'pass' ELSE 'FAIL' END,
			  string_agg(CASE measure WHEN 'list' THEN round(peak_kb / 1024.0, 1) ELSE round(a_rss / 1024.0, 1) END || ' MB',
						 ' → ' ORDER BY n))
FROM node_med LEFT JOIN node_mem USING (n)
GROUP BY measure
HAVING count(*) > 1;

\pset format unaligned
\pset tuples_only on
\o :out
SELECT line FROM node_lines ORDER BY ord;
\o
