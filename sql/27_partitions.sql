--
-- cassandra_sstable_partitions: every partition with its position and size
-- in the uncompressed Data.db.  Over every real SSTable of sstables/ and
-- sstables-datastax/, its keys are cassandra_sstable_keys' in the same
-- order, each key stands at its position in Data.db (BE16 length and key,
-- read with pg_read_binary_file where Data.db is not compressed), the
-- positions increase and the sizes reach the end of Data.db.  The sizes
-- against Statistics.db's own partition size histogram, bucket by bucket,
-- are test/unit/index/test_partition_sizes.c's (164 of 166 reproduced).  Then the
-- codec copies (test/make-codecs.sh) against their sources, the node
-- folder, a stopped scan, privileges and the errors.
--
SET client_min_messages = warning;

CREATE TEMP TABLE pt AS
SELECT m.dir || '/' || m.descriptor AS sstable, m.prefix, m.format, m.version,
       'CompressionInfo.db' = ANY (m.components) AS compressed
FROM sstable_manifest m
WHERE m.version NOT IN ('b', 'e', 'hb')
UNION ALL
SELECT 'datastax/' || regexp_replace(s.path, '^.*/sstables-datastax/', ''), s.path, s.format,
       s.version, 'CompressionInfo.db' = ANY (s.components)
FROM cassandra_sstables(test_path('sstables-datastax')) s;

SELECT format, count(*) AS sstables, count(*) FILTER (WHERE compressed) AS compressed
FROM pt GROUP BY format ORDER BY format;

-- two SSTables lack the CompressionInfo.db their TOC.txt lists: Data.db is
-- compressed, its uncompressed length unknown (see below)
CREATE TEMP TABLE parts AS
SELECT pt.sstable, p.key, p.position, p.size, p.n
FROM pt, cassandra_sstable_partitions(pt.prefix) WITH ORDINALITY AS p(key, position, size, n)
WHERE pt.sstable !~ 'table1-ea3b3e6b-0d78-4913-89f2-15fcf98711d0/na-[12]-big$';
CREATE TEMP TABLE keys AS
SELECT pt.sstable, k.key, k.n
FROM pt, cassandra_sstable_keys(pt.prefix) WITH ORDINALITY AS k(key, n)
WHERE pt.sstable !~ 'table1-ea3b3e6b-0d78-4913-89f2-15fcf98711d0/na-[12]-big$';

-- the same keys in the same order: no key of one that the other lacks
SELECT count(*) AS partitions,
       count(*) FILTER (WHERE p.key IS NULL OR k.key IS NULL OR p.key <> k.key) AS differing
FROM parts p FULL JOIN keys k USING (sstable, n);

-- positions increase, each size is the distance to the next position
SELECT count(*) FILTER (WHERE nxt IS NOT NULL AND position + size <> nxt) AS size_not_to_next,
       count(*) FILTER (WHERE size <= 0) AS not_positive,
       count(*) FILTER (WHERE n = 1 AND position <> 0) AS first_not_at_0
FROM (SELECT *, lead(position) OVER (PARTITION BY sstable ORDER BY n) AS nxt FROM parts) q;

-- uncompressed Data.db: the last partition ends at its end, every key
-- stands at its position
SELECT count(DISTINCT p.sstable) AS sstables,
       count(*) FILTER (WHERE substring(d.data FROM p.position::int + 1 FOR 2 + length(p.key))
                              <> int2send(length(p.key)::int2) || p.key) AS key_not_there,
       count(*) FILTER (WHERE p.n = last.n AND p.position + p.size <> length(d.data)) AS not_to_end
FROM parts p
JOIN pt USING (sstable)
JOIN LATERAL (SELECT pg_read_binary_file(pt.prefix || '-Data.db') AS data) d ON true
JOIN (SELECT sstable, max(n) AS n FROM parts GROUP BY sstable) last USING (sstable)
WHERE NOT pt.compressed;

-- the partition count Statistics.db records (the histogram's total)
SELECT count(*) AS sstables,
       count(*) FILTER (WHERE s.partitions <> c.n) AS count_differs
FROM (SELECT sstable, count(*) AS n FROM parts GROUP BY sstable) c
JOIN pt USING (sstable)
JOIN LATERAL (SELECT (cassandra_statistics(pg_read_binary_file(pt.prefix || '-Statistics.db'),
                                           pt.version)).partitions) s ON true;

-- one BIG and one trie-indexed SSTable whole (legacy_da_clust: its five
-- partitions are wide, each read through Rows.db; Data.db is compressed)
SELECT encode(key, 'hex') AS key, position, size
FROM parts WHERE sstable ~ 'legacy-sstables/nb/legacy_tables/legacy_nb_simple/nb-1-big$'
ORDER BY n;
SELECT encode(key, 'hex') AS key, position, size
FROM parts WHERE sstable ~ 'legacy-sstables/da/legacy_tables/legacy_da_clust/da-1-bti$'
ORDER BY n;

-- the largest partitions of all
SELECT regexp_replace(sstable, '^.*/', '') AS sstable, encode(key, 'hex') AS key, size
FROM parts ORDER BY size DESC, sstable, n LIMIT 3;

-- Data.db compressed again in every compressor: the same partitions as
-- the source, position and size
CREATE TEMP TABLE cx AS
SELECT f[1] AS copy_rel, f[2] AS kind, f[3] AS variant, test_path(f[1]) AS copy, test_path(f[8]) AS source
FROM test_tsv('codecs/expected.tsv') WHERE lineno > 1 AND nullif(f[9], '-') IS NULL;
SELECT count(*) AS copies, count(DISTINCT variant) AS variants,
       count(*) FILTER (WHERE NOT same) AS differing
FROM (SELECT cx.copy_rel,
             cx.variant,
             (SELECT array_agg(row(key, position, size) ORDER BY n)
              FROM cassandra_sstable_partitions(cx.copy) WITH ORDINALITY AS p(key, position, size, n))
             IS NOT DISTINCT FROM
             (SELECT array_agg(row(key, position, size) ORDER BY n)
              FROM cassandra_sstable_partitions(cx.source) WITH ORDINALITY AS p(key, position, size, n))
             AS same
      FROM cx) q;

-- a node's data folder (test/make-node.sh): every SSTable, keys agree
SET client_min_messages = error;
SELECT count(DISTINCT s.path) AS sstables, count(*) AS partitions,
       count(*) FILTER (WHERE pk.pkey IS DISTINCT FROM pk.kkey) AS differing
FROM cassandra_sstables(test_path('node/data')) s
CROSS JOIN LATERAL (
  SELECT p.key AS pkey, k.key AS kkey
  FROM cassandra_sstable_partitions(s.path) WITH ORDINALITY AS p(key, position, size, n)
  FULL JOIN cassandra_sstable_keys(s.path) WITH ORDINALITY AS k(key, n) USING (n)) pk
WHERE s.version NOT IN ('b', 'e', 'hb', 'zz') AND s.path !~ '/broken/'
  AND NOT (s.version = 'na' AND 'TOC.txt' = ANY (s.components)
           AND NOT 'CompressionInfo.db' = ANY (s.components) AND s.table_name = 'table1');
SET client_min_messages = warning;

-- a scan stopped early
SELECT encode(key, 'hex') AS key, position, size
FROM cassandra_sstable_partitions(test_path('sstables/cassandra/legacy-sstables/nb/legacy_tables/legacy_nb_simple/nb-1-big'))
LIMIT 1;

-- the errors: their SQLSTATE and message, the data folder's path made
-- relative.  Data.db cut short (Index.db positions past its end), an
-- SSTable without the CompressionInfo.db of its compressed Data.db, one
-- without Data.db, a role without pg_read_binary_file's privileges
SELECT test_path('hostile/partitions') AS h, test_path('') AS root,
       test_path('sstables/cassandra/legacy-sstables/nb/legacy_tables/legacy_nb_simple/nb-1-big') AS nb,
       test_path('sstables/cassandra-analytics/cassandra-analytics-core/src/test/resources/data/ks/table1-ea3b3e6b-0d78-4913-89f2-15fcf98711d0/na-1-big') AS na \gset
SELECT test_try(format('SELECT count(*) FROM cassandra_sstable_partitions(%L)', p), :'root')
FROM (VALUES (:'h' || '/data-cut/Keyspace1-Standard1-ic-0'), (:'na'),
             (:'h' || '/none/nb-1-big')) v(p);
SELECT count(*) FROM cassandra_sstable_partitions(NULL);
CREATE ROLE regress_bloomcass_partitions_nopriv;
SET ROLE regress_bloomcass_partitions_nopriv;
SELECT test_try(format('SELECT count(*) FROM cassandra_sstable_partitions(%L)', :'nb'), :'root');
RESET ROLE;
DROP ROLE regress_bloomcass_partitions_nopriv;
