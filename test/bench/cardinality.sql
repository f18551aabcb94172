--
-- B9: cassandra_approximate_key_count over 10,000 stored statistics_db
-- values (test/bench/cardinality.sh), against reading the same bytes.
--   A: SELECT cassandra_approximate_key_count(statistics_db, version) FROM b9
--   B: SELECT sum(bit_count(statistics_db)) FROM b9   (every byte read)
-- alternating in one session, after one warm-up of each; bound: A <= 5 x B
-- (median of the per-pair ratios).  The values: the real Statistics.db
-- files of test/data with an estimator, in turn (sparse estimators of a
-- few keys, one normal one of 1366 register words in 132), so the merge
-- runs through sparse unions, their conversion and register maxima.
--
\set ON_ERROR_STOP 1
SET jit = off;

-- b9_files: the files, loaded by cardinality.sh
CREATE TABLE b9 AS
SELECT f.version, f.statistics_db
FROM generate_series(0, 9999) g,
     LATERAL (SELECT version, statistics_db FROM b9_files
              ORDER BY version, statistics_db OFFSET g % (SELECT count(*) FROM b9_files) LIMIT 1) f;
VACUUM ANALYZE b9;

CREATE TABLE b9_raw (rep int, side text, ms float8, answer bigint);

CREATE FUNCTION b9_pair(p_reps int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
	i int;
	s text;
	t0 timestamptz;
	n bigint;
	a text := 'SELECT cassandra_approximate_key_count(statistics_db, version) FROM b9';
	b text := 'SELECT sum(bit_count(statistics_db)) FROM b9';
BEGIN
	EXECUTE a INTO n;
	EXECUTE b INTO n;
	FOR i IN 1 .. 2 * p_reps LOOP
		s := CASE WHEN (i % 4) IN (1, 0) THEN 'A' ELSE 'B' END;
		t0 := clock_timestamp();
		EXECUTE CASE s WHEN 'A' THEN a ELSE b END INTO n;
		INSERT INTO b9_raw VALUES ((i + 1) / 2, s, 1000 * extract(epoch FROM clock_timestamp() - t0), n);
	END LOOP;
END $$;

SELECT b9_pair(:reps);

CREATE TEMP TABLE b9_result AS
WITH p AS (
	SELECT a.rep, a.ms AS a_ms, b.ms AS b_ms, a.ms / b.ms AS ratio
	FROM b9_raw a JOIN b9_raw b ON a.rep = b.rep AND a.side = 'A' AND b.side = 'B')
SELECT count(*) AS pairs,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY a_ms) AS a_ms,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY b_ms) AS b_ms,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY ratio) AS ratio,
       min(ratio) AS ratio_min, max(ratio) AS ratio_max,
       (SELECT count(*) FROM b9) AS rows_, (SELECT sum(length(statistics_db)) FROM b9) AS bytes,
       (SELECT max(answer) FROM b9_raw WHERE side = 'A') AS estimate,
       (SELECT sum(partitions) FROM b9, cassandra_statistics(statistics_db, version)) AS partitions
FROM p;

\pset format unaligned
\pset tuples_only on
\o :out
SELECT format(E'# B9: cassandra_approximate_key_count over stored statistics_db\n\n'
              '%s rows, %s bytes of Statistics.db; %s pairs\n\n'
              '| side | median ms |\n|---|---|\n'
              '| A: cassandra_approximate_key_count | %s |\n| B: sum(bit_count(statistics_db)) | %s |\n\n'
              'ratio A/B (median of the pairs): %s (%s to %s); bound 5: %s\n\n'
              'estimate %s (the sum of the partition counts: %s)',
              rows_, bytes, pairs, round(a_ms::numeric, 1), round(b_ms::numeric, 1),
              round(ratio::numeric, 2), round(ratio_min::numeric, 2), round(ratio_max::numeric, 2),
              CASE WHEN ratio <= 5 THEN 'PASS' ELSE 'FAIL' END, estimate, partitions)
FROM b9_result;
\o
