--
-- bloom_health(f, partitions, fp_chance): the real SSTables against their
-- manifest (every filter Cassandra sized for its partition count is 'ok';
-- the four it sized from an estimate get the key counts the manifest
-- derived), each verdict on filters built here, the rule recomputed in SQL
-- over a grid, and invalid arguments with their SQLSTATE.
--
-- Rates are printed to four significant digits: the last bits of exp and
-- pow may differ between C libraries.
CREATE FUNCTION sci(x float8) RETURNS text LANGUAGE sql IMMUTABLE
AS $$ SELECT CASE WHEN x IS NULL THEN NULL WHEN x = 0 THEN '0' ELSE btrim(to_char(x, '9.999EEEE')) END $$;

-- the rule, written here apart from the C code: Cassandra's shape is ok; a
-- hash count other than Cassandra's is a mismatch; else the ratio of the
-- rates at n keys (0.75 .. 1.25 is ok); with no keys, more words than
-- Cassandra's is oversized
CREATE FUNCTION rule(k integer, w bigint, n bigint, fp float8) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE
		WHEN k = s.hash_count AND w = s.word_count THEN 'ok'
		WHEN k <> s.hash_count THEN 'hash_count_mismatch'
		WHEN n = 0 THEN CASE WHEN w > s.word_count THEN 'oversized' ELSE 'ok' END
		WHEN q.r > 1.25 THEN 'saturated'
		WHEN q.r < 0.75 THEN 'oversized'
		ELSE 'ok' END
	FROM bloom_sizing(n, fp) s,
	     LATERAL (SELECT CASE WHEN n > 0 THEN
	                  power(1 - exp(-k * n / (64.0 * w)), k)
	                  / power(1 - exp(-s.hash_count * n / (64.0 * s.word_count)), s.hash_count)
	              END AS r) q
$$;

-- the real SSTables with a murmur3 filter, an fp_chance and a partition
-- count (pre-1.2 versions b, e and hb have no murmur3 filter; ic stores no
-- fp_chance)
CREATE TEMP TABLE real_health AS
SELECT m.descriptor, m.version, m.fp_chance, m.partitions,
       m.hash_count AS m_hash_count, m.word_count AS m_word_count, m.sized_as_cassandra,
       f, h.*
FROM sstable_manifest m,
     LATERAL (SELECT bloom_import_file(m.prefix || '-Filter.db') AS f) i,
     LATERAL bloom_health(f, m.partitions, m.fp_chance) h
WHERE m.version NOT IN ('b', 'e', 'hb') AND m.fp_chance IS NOT NULL AND m.partitions IS NOT NULL;

-- every SSTable sized as Cassandra sizes its partition count is 'ok'
SELECT count(*) AS sstables,
       count(*) FILTER (WHERE sized_as_cassandra = 'yes') AS sized_as_cassandra,
       count(*) FILTER (WHERE sized_as_cassandra = 'yes' AND verdict = 'ok') AS sized_and_ok,
       count(*) FILTER (WHERE sized_as_cassandra <> 'yes') AS sized_from_estimate
FROM real_health;
SELECT descriptor, version, partitions, hash_count, word_count, verdict
FROM real_health WHERE sized_as_cassandra = 'yes' AND verdict <> 'ok';

-- the columns against what they come from: the manifest's shape, the
-- filter's own bloom_fpr and Cassandra's sizing (bloom_sizing); the key
-- counts of sized_for give back this filter's shape, one less and one more
-- do not.  Every count is 0.
SELECT count(*) FILTER (WHERE r.hash_count <> m_hash_count OR r.word_count <> m_word_count) AS shape_differs,
       count(*) FILTER (WHERE (expected_hash_count, expected_word_count, r.expected_fpr)
                              IS DISTINCT FROM (s.hash_count, s.word_count, s.expected_fpr)) AS sizing_differs,
       count(*) FILTER (WHERE fpr_at_partitions <> bloom_fpr(f, partitions)
                              OR fill_fpr <> bloom_fpr(f)) AS rate_differs,
       count(*) FILTER (WHERE fpr_ratio IS DISTINCT FROM fpr_at_partitions / r.expected_fpr) AS ratio_differs,
       count(*) FILTER (WHERE sized_for_min IS NULL
                        OR (sized_for_min > partitions OR sized_for_max < partitions) AND sized_as_cassandra = 'yes'
                        OR (lo.hash_count, lo.word_count, hi.hash_count, hi.word_count)
                           <> (r.hash_count, r.word_count, r.hash_count, r.word_count)
                        OR (sized_for_min > 0 AND (bloom_sizing(greatest(sized_for_min - 1, 0), fp_chance)).word_count = r.word_count)
                        OR (bloom_sizing(sized_for_max + 1, fp_chance)).word_count = r.word_count) AS sized_for_wrong,
       count(*) FILTER (WHERE verdict <> rule(r.hash_count, r.word_count, partitions, fp_chance)) AS rule_differs
FROM real_health r,
     LATERAL bloom_sizing(partitions, fp_chance) s,
     LATERAL bloom_sizing(sized_for_min, fp_chance) lo,
     LATERAL bloom_sizing(sized_for_max, fp_chance) hi;

-- the four Cassandra sized from an estimate: sized_for is the manifest's
-- n=a..b.  1 partition in 21 words (Cassandra: 1): oversized; 5 in 1 word
-- (Cassandra: 2): saturated, though 0.35% is below fp_chance, Cassandra's
-- own filter has 0.018%; 10000 in 1555 words (Cassandra: 1563): 2% above
-- Cassandra's rate, within tolerance.
SELECT descriptor, version, partitions, hash_count, word_count, expected_word_count,
       sized_for_min, sized_for_max,
       substring(sized_as_cassandra FROM 'n=([0-9]+\.\.[0-9]+)') = sized_for_min || '..' || sized_for_max AS as_manifest,
       sci(fpr_at_partitions) AS fpr_at_partitions, sci(expected_fpr) AS expected_fpr,
       round(fpr_ratio::numeric, 4) AS fpr_ratio, verdict
FROM real_health WHERE sized_as_cassandra <> 'yes' ORDER BY partitions, descriptor;

-- a 16-byte filter (bloom_create(4): one word) holding 5,000 keys, as the
-- offline writer leaves one: every bit set, saturated; Cassandra gives
-- 782 words for 5,000 keys
CREATE TEMP TABLE made AS
SELECT 'saturated 16 bytes' AS name, 5000::bigint AS n, 0.01::float8 AS fp,
       bloom_union_agg(bloom_add(bloom_create(4), 'key' || g)) AS f
FROM generate_series(1, 5000) g;
-- a filter for a million keys holding a thousand
INSERT INTO made
SELECT 'oversized', 1000, 0.01, bloom_union_agg(bloom_add(bloom_create(1000000), 'key' || g))
FROM generate_series(1, 1000) g;
-- the right word count with another hash count: fp_chance 0.0085 gives 6
-- hashes and 10 bits a key, as 0.01 gives 5 and 10; and a filter whose
-- header says 3 hashes
INSERT INTO made VALUES
	('sized at 0.0085', 10000, 0.01, bloom_create(10000, 0.0085)),
	('k = 3', 10000, 0.01,
	 bloom_import(overlay(bloom_export(bloom_create(10000, 0.01)) PLACING '\x00000003'::bytea FROM 1 FOR 4))),
	-- the table's fp_chance changed after the filter was written: 0.1
	-- (3 hashes, 5 bits a key) judged at 0.01, and the other way round
	('sized at 0.1', 10000, 0.01, bloom_create(10000, 0.1)),
	('sized at 0.01, now 0.1', 10000, 0.1, bloom_create(10000, 0.01)),
	-- near Cassandra's size: 95,000 and 90,000 keys' filters holding 100,000
	('sized for 95000', 100000, 0.01, bloom_create(95000)),
	('sized for 90000', 100000, 0.01, bloom_create(90000)),
	-- Cassandra's own shape, in either hash order
	('exact', 100000, 0.01, bloom_create(100000)),
	('exact, old order', 100000, 0.01, bloom_create(100000, 0.01, 'ka')),
	-- no partitions: one word is Cassandra's, more is oversized
	('empty', 0, 0.01, bloom_create(0)),
	('empty, 2 words', 0, 0.01, bloom_create(10));
SELECT name, n, fp, h.hash_count, h.word_count, expected_hash_count, expected_word_count,
       s.word_count AS bloom_sizing_words, sized_for_min, sized_for_max,
       sci(h.fpr_at_partitions) AS fpr_at_partitions, sci(h.expected_fpr) AS expected_fpr,
       sci(s.expected_fpr) AS bloom_sizing_fpr, round(h.fpr_ratio::numeric, 4) AS fpr_ratio,
       sci(h.fill_fpr) AS fill_fpr, h.verdict, h.verdict = rule(h.hash_count, h.word_count, n, fp) AS as_rule
FROM made, LATERAL bloom_health(f, n, fp) h, LATERAL bloom_sizing(n, fp) s
ORDER BY verdict, name;
-- the saturated filter's bits: all 64 set
SELECT bits_set, capacity_bits FROM made, bloom_info(f) WHERE name = 'saturated 16 bytes';

-- the rule over a grid: filters Cassandra sizes for m keys at three
-- fp_chance values, judged at n keys and fp_chance 0.01; every verdict
-- appears and all agree with the rule written above
SELECT verdict, count(*) AS filters,
       count(*) FILTER (WHERE verdict <> rule(h.hash_count, h.word_count, n, 0.01)) AS differ
FROM unnest(ARRAY[0, 1, 4, 5, 50, 99, 100, 500, 900, 1000, 1100, 1300, 2000, 10000]) m,
     unnest(ARRAY[0.01, 0.0085, 0.1]::float8[]) fp,
     unnest(ARRAY[0, 1, 5, 100, 1000, 1200, 10000]) n,
     LATERAL bloom_health(bloom_create(m, fp), n, 0.01) h
GROUP BY verdict ORDER BY verdict;

-- a 12 MB filter for ten million keys holding 100,000: its bits are
-- counted once, in slices (bloom_fpr and bloom_info count them the same way)
CREATE TEMP TABLE big AS
SELECT bloom_agg(g, 0.01, 10000000) AS f FROM generate_series(1, 100000) g;
SELECT verdict, word_count, expected_word_count, sci(fill_fpr) AS fill_fpr,
       fill_fpr = bloom_fpr(f) AS as_bloom_fpr, (bloom_info(f)).bits_set
FROM big, bloom_health(f, 10000000, 0.01);

-- invalid arguments: SQLSTATE and message, the fp_chance ones as
-- bloom_sizing reports them
CREATE FUNCTION health_error(stmt text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE stmt;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
SELECT a AS args,
       health_error(format('SELECT bloom_health(bloom_create(10), %s)', a)) AS bloom_health,
       health_error(format('SELECT bloom_sizing(%s)', a)) AS bloom_sizing
FROM unnest(ARRAY['-1, 0.01', '10, ''NaN''', '10, 0', '10, -0.5', '10, 1.5', '10, ''Infinity''',
                  '10, 1', '10, 1e-5', '13743895338, 0.01', '13743895339, 0.01',
                  '9223372036854775807, 0.01']) a;
-- a key count that leaves too few buckets per key for fp_chance names the
-- count (54000), through every entry point that sizes, as a role with no
-- privileges; an fp_chance no count can reach still names fp_chance
CREATE ROLE regress_bloomcass_nobody;
SET ROLE regress_bloomcass_nobody;
SELECT n, fp,
       health_error(format('SELECT bloom_create(%s, %s)', n, fp)) AS bloom_create,
       health_error(format('SELECT bloom_sizing(%s, %s)', n, fp)) AS bloom_sizing,
       health_error(format('SELECT bloom_health(bloom_create(10), %s, %s)', n, fp)) AS bloom_health,
       health_error(format('SELECT bloom_agg(k, %s, %s) FROM (VALUES (''a'')) v(k)', fp, n)) AS bloom_agg
FROM (VALUES (9223372036854775807, 0.01), (4611686018427387904, 0.01), (9223372036854775807, 0.00005),
             (9223372036854775807, 0.7)) v(n, fp);
SELECT bloom_create(9223372036854775807);
RESET ROLE;
DROP ROLE regress_bloomcass_nobody;
-- NULL in, NULL out
SELECT bloom_health(NULL, 10, 0.01) IS NULL AS null_filter,
       bloom_health(bloom_create(10), NULL, 0.01) IS NULL AS null_partitions,
       bloom_health(bloom_create(10), 10, NULL) IS NULL AS null_fp_chance;
