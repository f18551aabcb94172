--
-- Stored filters probed by the slice: bloom_contains on a filter stored out
-- of line uncompressed (STORAGE external) reads its header and the chunks
-- of its k bits; it reads a filter whole once it is probed often enough.
-- Every answer must be the one the filter read whole gives, for filters of
-- several sizes and both hash orders, stored external, compressed and
-- inline, one key at a time and joined under a forced nested loop.
--
-- test-only entry point: the probe on a filter read whole (the reference);
-- this backend's counts of sliced probes, slice fetches and whole reads
-- are 01_setup's counters_reset() and counters_since()
CREATE FUNCTION contains_whole(bloom, text) RETURNS boolean
	AS 'bloomcass', 'bloomcass_contains_whole' LANGUAGE C STRICT;

-- filters: sizes around the TOAST chunk (about 2 kB) and far above it, full
-- and sparse, both hash orders; the last words and the header's edges are
-- where slicing would go wrong
-- (bloom_agg(k, 0.01, version) sizes for its keys; with a count instead of
-- a version it sizes for that count: the sparse one)
CREATE TABLE shapes (id int, n int, keys int, version text);
INSERT INTO shapes VALUES
	(1, 5, 5, 'oa'),			-- one word: inline
	(2, 1740, 1740, 'oa'),		-- 2,104 bytes: just past the inline limit
	(3, 3300, 3300, 'lb'),		-- old order, two chunks
	(4, 3303, 3303, 'oa'),		-- two chunks, the last one nearly full
	(5, 2000, 2000, 'nb'),
	(6, 6000, 6000, 'ka'),		-- old order (2.1)
	(7, 60000, 60000, 'oa'),	-- 72 kB, 37 chunks
	(8, 60000, 300, 'oa'),		-- sparse: compresses under STORAGE extended
	(9, 60000, 60000, 'lb');
CREATE TABLE built AS
SELECT s.id, s.version,
       CASE WHEN s.keys = s.n
            THEN (SELECT bloom_agg('k' || i, 0.01, s.version) FROM generate_series(1, s.keys) i)
            ELSE (SELECT bloom_agg('k' || i, 0.01, s.n::bigint) FROM generate_series(1, s.keys) i)
       END AS f
FROM shapes s;

CREATE TABLE f_external (id int, f bloom);
ALTER TABLE f_external ALTER COLUMN f SET STORAGE external;
CREATE TABLE f_extended (id int, f bloom);	-- compressed where it pays
ALTER TABLE f_extended ALTER COLUMN f SET STORAGE extended;
CREATE TABLE f_plain (id int, f bloom);		-- inline only: the small ones
ALTER TABLE f_plain ALTER COLUMN f SET STORAGE plain;
INSERT INTO f_external SELECT id, f FROM built;
INSERT INTO f_extended SELECT id, f FROM built;
INSERT INTO f_plain SELECT id, f FROM built WHERE id <= 1;

-- how each is stored: out of line (external), compressed, or inline
SELECT 'external' AS tbl, id, (bloom_info(f)).word_count, pg_column_size(f) AS stored_bytes,
       pg_column_size(f) < (bloom_info(f)).filter_db_bytes AS compressed
FROM f_external
UNION ALL
SELECT 'extended', id, (bloom_info(f)).word_count, pg_column_size(f),
       pg_column_size(f) < (bloom_info(f)).filter_db_bytes
FROM f_extended WHERE id IN (7, 8, 9)
ORDER BY 1, 2;

-- the probe keys: present and absent, enough to reach every byte of the
-- small filters
CREATE TABLE probe_keys AS SELECT 'k' || i AS key FROM generate_series(1, 7000) i
UNION ALL SELECT 'absent' || i FROM generate_series(1, 20000) i;

------------------------------------------------------------------------------
-- One key at a time against each filter (a new call site per key: every
-- probe of a stored filter is a sliced one)
------------------------------------------------------------------------------
SELECT counters_reset();
CREATE FUNCTION one_key_answers(tbl regclass, k text) RETURNS TABLE (id int, answer boolean)
LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE format('SELECT id, f @> $1 FROM %s', tbl) USING k;
END $$;
SELECT count(*) AS probes,
       count(*) FILTER (WHERE a.answer IS DISTINCT FROM contains_whole(b.f, k.key)) AS wrong,
       count(*) FILTER (WHERE a.answer) AS present
FROM (SELECT key FROM probe_keys WHERE key IN ('k1', 'k7', 'k1740', 'k1741', 'k3303', 'k5999', 'absent1', 'absent2', 'absent3')) k,
     one_key_answers('f_external', k.key) a JOIN built b USING (id);
SELECT sliced > 0 AS sliced_probes, detoasts AS whole_reads FROM counters_since();

------------------------------------------------------------------------------
-- Many keys against every filter: the sliced probes until a filter pays to
-- be read whole, then the filter in memory; every answer compared
------------------------------------------------------------------------------
CREATE FUNCTION check_table(tbl regclass) RETURNS TABLE (probes bigint, wrong bigint, present bigint)
LANGUAGE plpgsql AS $$
BEGIN
	RETURN QUERY EXECUTE format(
		'SELECT count(*), count(*) FILTER (WHERE (t.f @> k.key) IS DISTINCT FROM contains_whole(b.f, k.key)),
		        count(*) FILTER (WHERE t.f @> k.key)
		 FROM %s t JOIN built b USING (id), probe_keys k', tbl);
END $$;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT counters_reset();
SELECT 'external' AS tbl, * FROM check_table('f_external');
-- (two call sites of @> in that query, 8 stored filters: at most 16 whole reads)
SELECT sliced > 0 AS sliced_probes, detoasts AS whole_reads FROM counters_since();
SELECT 'extended' AS tbl, * FROM check_table('f_extended');
SELECT 'plain' AS tbl, * FROM check_table('f_plain');

-- a forced nested loop with the filters inside, and with them outside
SELECT counters_reset();
SELECT count(*) AS pairs, count(*) FILTER (WHERE t.f @> k.key) AS present,
       count(*) FILTER (WHERE (t.f @> k.key) IS DISTINCT FROM contains_whole(b.f, k.key)) AS wrong
FROM (SELECT key FROM probe_keys ORDER BY key LIMIT 3000) k
CROSS JOIN LATERAL (SELECT * FROM f_external OFFSET 0) t
JOIN built b USING (id);
SELECT count(*) AS pairs, count(*) FILTER (WHERE t.f @> k.key) AS present
FROM f_external t CROSS JOIN LATERAL (SELECT key FROM probe_keys ORDER BY key LIMIT 3000 OFFSET 0) k;
-- no filter read whole more than once per call site (three call sites of
-- @> in the two queries, 8 stored filters: at most 24)
SELECT detoasts AS whole_reads, detoasts <= 3 * 8 AS at_most_once_per_call_site FROM counters_since();

-- with no cache, the filter being probed is still kept while it repeats
SET bloomcass.probe_cache_size = 0;
SELECT counters_reset();
SELECT count(*) FILTER (WHERE t.f @> k.key) AS present
FROM f_external t CROSS JOIN LATERAL (SELECT key FROM probe_keys OFFSET 0) k WHERE t.id = 7;
SELECT detoasts AS whole_reads FROM counters_since();
-- and filters that take turns are answered from slices, never read whole
SELECT counters_reset();
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE (t.f @> k.key) IS DISTINCT FROM contains_whole(b.f, k.key)) AS wrong
FROM (SELECT key FROM probe_keys ORDER BY key LIMIT 200) k
CROSS JOIN LATERAL (SELECT * FROM f_external WHERE id IN (7, 9) OFFSET 0) t
JOIN built b USING (id);
-- (the first to pay is read whole and kept beside the empty cache, the
-- second replaces it, and the first is answered from slices from then on)
SELECT sliced > 0 AS sliced_probes, detoasts AS whole_reads FROM counters_since();
RESET bloomcass.probe_cache_size;
RESET enable_hashjoin;
RESET enable_mergejoin;

-- the setting's bounds (the message's wording differs between versions)
DO $$
BEGIN
	SET bloomcass.probe_cache_size = -1;
EXCEPTION WHEN OTHERS THEN
	RAISE NOTICE 'a negative size is refused: %', SQLSTATE;
END $$;
SET bloomcass.probe_cache_size = '64MB';
SHOW bloomcass.probe_cache_size;
RESET bloomcass.probe_cache_size;

------------------------------------------------------------------------------
-- The header alone: bloom_fpr(f, n) reads a slice of a stored filter
------------------------------------------------------------------------------
SELECT count(*) AS filters,
       count(*) FILTER (WHERE bloom_fpr(e.f, 1000) = bloom_fpr(b.f, 1000)
                          AND bloom_fpr(x.f, 1000) = bloom_fpr(b.f, 1000)) AS same_fpr
FROM f_external e JOIN f_extended x USING (id) JOIN built b USING (id);

DROP TABLE shapes, built, f_external, f_extended, f_plain, probe_keys;
DROP FUNCTION one_key_answers(regclass, text), check_table(regclass), contains_whole(bloom, text);
