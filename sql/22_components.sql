--
-- Positions and lengths one component gives another, on the hostile copies
-- of test/make-hostile.sh (its "components" section), as a role that may
-- read server files and nothing more: a damaged index is an ERROR naming
-- its component, or Cassandra's own fallback with a WARNING; a key that
-- cassandra_sstable_keys lists without error is never answered false by
-- cassandra_sstable_has_key; no chunk buffer is sized by a chunk length
-- the files cannot hold.
--
\set VERBOSITY terse
CREATE ROLE regress_bloomcass_components;
GRANT pg_read_server_files TO regress_bloomcass_components;
-- as every path-taking function of bloomcass, pg_read_binary_file's rule
GRANT EXECUTE ON FUNCTION pg_read_binary_file(text) TO regress_bloomcass_components;
SELECT test_path('hostile/components') AS h, test_path('') AS root \gset

SET ROLE regress_bloomcass_components;
SELECT rolsuper FROM pg_roles WHERE rolname = current_user;

-- Summary.db pointing past the end of Index.db: Index.db read from its
-- start, with a WARNING (as Cassandra rebuilds a summary it cannot use);
-- every key found
SELECT count(*) AS keys FROM cassandra_sstables(:'h' || '/summary-past-index') s,
       cassandra_sstable_keys(s.path) k;
SELECT convert_from(k, 'UTF8') AS key,
       cassandra_sstable_has_key(:'h' || '/summary-past-index/nb-1-big', k) AS found
FROM cassandra_sstable_keys(:'h' || '/summary-past-index/nb-1-big') k ORDER BY 1;
SELECT cassandra_sstable_has_key(:'h' || '/summary-past-index/nb-1-big', '9'::text) AS absent_key;

-- a Partitions.db leaf whose hash byte is not its key's: both functions
-- name Partitions.db (22P03)
SELECT test_try(format('SELECT count(*)::text FROM cassandra_sstable_keys(%L)',
                       :'h' || '/leaf-hash/bb-1-bti'), :'root') AS keys;
SELECT test_try(format('SELECT cassandra_sstable_has_key(%L, %L::bytea)::text',
                       :'h' || '/leaf-hash/bb-1-bti', '\x0000000000000013'), :'root') AS damaged_leaf;
-- the SSTable's other keys are still found, an absent one not
RESET ROLE;
CREATE TEMP TABLE bb_keys AS
SELECT k FROM cassandra_sstable_keys(test_path('sstables/sstable-to-arrow/sample_data/baselines-data/keyvalue/bb-1-bti')) k;
GRANT SELECT ON bb_keys TO regress_bloomcass_components;
SET ROLE regress_bloomcass_components;
SELECT test_try(format('SELECT cassandra_sstable_has_key(%L, %L::bytea)::text',
                       :'h' || '/leaf-hash/bb-1-bti', k), :'root') AS answer, count(*)
FROM bb_keys GROUP BY 1 ORDER BY 1;
SELECT cassandra_sstable_has_key(:'h' || '/leaf-hash/bb-1-bti', '\x00000000000003e8'::bytea) AS absent_key;

-- Index.db keys out of Murmur3Partitioner's order: the listing is an
-- ERROR naming Index.db; no key is answered false
SELECT test_try(format('SELECT count(*)::text FROM cassandra_sstable_keys(%L)',
                       :'h' || '/index-order/mc-2-big'), :'root') AS keys;
RESET ROLE;
CREATE TEMP TABLE mc_keys AS
SELECT k FROM cassandra_sstable_keys(test_path('sstables/sstable-adaptor/sstable-adaptor-core/src/test/resources/data/cass3/keyspace1/compressed_bills/mc-2-big')) k;
GRANT SELECT ON mc_keys TO regress_bloomcass_components;
SET ROLE regress_bloomcass_components;
SELECT test_try(format('SELECT cassandra_sstable_has_key(%L, %L::bytea)::text',
                       :'h' || '/index-order/mc-2-big', k), :'root') AS answer, count(*)
FROM mc_keys GROUP BY 1 ORDER BY 1;

-- Index.db's first key length with its top bit set (oa-13-big, byte 0
-- from 0x00 to 0x80): the first key 32,772 bytes long, over the entries
-- behind it and the second entry Summary.db samples, whose key is there.
-- The listing and the partitions are an ERROR naming Index.db (22P03), not
-- 6,608 keys of which the first is answered false.  A key of the swallowed
-- entries: Index.db read from its start as the listing reads it, the same
-- ERROR; a key Summary.db leads to past them is found
SELECT test_try(format('SELECT count(*)::text FROM cassandra_sstable_keys(%L)',
                       :'h' || '/index-keylen/oa-13-big'), :'root') AS keys;
SELECT test_try(format('SELECT count(*)::text FROM cassandra_sstable_partitions(%L)',
                       :'h' || '/index-keylen/oa-13-big'), :'root') AS partitions;
RESET ROLE;
CREATE TEMP TABLE oa_keys AS
SELECT k, n FROM cassandra_sstable_keys(test_path('sstables/sstable-transformer/clickhouse/src/test/resources/sstables/oa-13-big')) WITH ORDINALITY AS t(k, n);
GRANT SELECT ON oa_keys TO regress_bloomcass_components;
SET ROLE regress_bloomcass_components;
SELECT n, test_try(format('SELECT cassandra_sstable_has_key(%L, %L::bytea)::text',
                          :'h' || '/index-keylen/oa-13-big', k), :'root') AS answer
FROM oa_keys WHERE n IN (2, 5000, 10000) ORDER BY n;

-- Summary.db's second sample a byte inside its entry, where its key is
-- not: passed over, every key listed; the keys it leads to found with
-- Index.db read from its start (a WARNING), the others through Summary.db
SELECT count(*) AS keys FROM cassandra_sstable_keys(:'h' || '/summary-inside-entry/oa-13-big');
SELECT n, cassandra_sstable_has_key(:'h' || '/summary-inside-entry/oa-13-big', k) AS found
FROM oa_keys WHERE n IN (128, 129, 256, 257) ORDER BY n;

-- a Summary.db crafted to point inside an entry, at bytes that read as an
-- entry of its sampled key (nb-1-big: the empty key at Index.db position
-- 13, in the first entry's promoted index): the listing is an ERROR naming
-- Index.db, not 5 keys of which a lookup steered there answers each false.
-- The lookup itself cannot tell (it reads one entry there, as Cassandra's
-- does): steered, it answers false
SELECT test_try(format('SELECT count(*)::text FROM cassandra_sstable_keys(%L)',
                       :'h' || '/summary-crafted/nb-1-big'), :'root') AS keys;
SELECT cassandra_sstable_has_key(:'h' || '/summary-crafted/nb-1-big', '0'::text) AS steered;

-- an Index.db whose first partition is at Data.db position 7, not 0 (the
-- verifier's "firstRowPositionFromIndex != 0"): the keys, the partitions
-- and a lookup reading that entry are an ERROR naming Index.db
SELECT test_try(format('SELECT count(*)::text FROM cassandra_sstable_keys(%L)',
                       :'h' || '/index-first-position/nb-1-big'), :'root') AS keys;
SELECT test_try(format('SELECT count(*)::text FROM cassandra_sstable_partitions(%L)',
                       :'h' || '/index-first-position/nb-1-big'), :'root') AS partitions;
SELECT test_try(format('SELECT cassandra_sstable_has_key(%L, %L::text)::text',
                       :'h' || '/index-first-position/nb-1-big', '3'), :'root') AS lookup;

-- chunks of 2^28, 2^29 and 2^30 bytes declared for a Data.db of 405
-- bytes: its keys listed and found, as bloomcass-load --keys reads them
SELECT d AS copy,
       test_try(format('SELECT count(*)::text FROM cassandra_sstable_keys(%L)',
                       :'h' || '/' || d || '/bb-1-bti'), :'root') AS keys,
       test_try(format('SELECT bool_and(cassandra_sstable_has_key(%L, k))::text FROM cassandra_sstable_keys(%L) k',
                       :'h' || '/' || d || '/bb-1-bti', :'h' || '/' || d || '/bb-1-bti'), :'root') AS all_found
FROM unnest(ARRAY['chunk-2p28', 'chunk-2p29', 'chunk-2p30']) d;
-- the same, with a data length of 2^30: a chunk its stored bytes cannot
-- decompress to (XX001, naming Data.db), no 1 GB buffer
SELECT test_try(format('SELECT count(*)::text FROM cassandra_sstable_keys(%L)',
                       :'h' || '/chunk-data-2p30/bb-1-bti'), :'root') AS keys;

-- CompressionInfo.db declaring a data length of 2^46 + its own for one
-- chunk (64 KiB for mc, 16 KiB for the others, Cassandra 6.0's pa and ea
-- among them): more than its chunks can
-- hold, 22P03 naming it from every function that reads the data length
-- (before: the last partition 70 TB long, without error); the keys of a
-- BIG SSTable come from Index.db alone, and are listed and found
SELECT d AS copy, c.call,
       test_try(format(c.q, :'h' || '/data-length/' || d), :'root') AS result
FROM unnest(ARRAY['mc-2-big', 'nb-1-big', 'oa-1-big', 'da-1-bti', 'pa-1-big', 'ea-1-bti']) d,
     (VALUES ('partitions', 'SELECT max(size)::text FROM cassandra_sstable_partitions(%L)'),
             ('keys', 'SELECT count(*)::text FROM cassandra_sstable_keys(%L)'),
             ('has_key', 'SELECT cassandra_sstable_has_key(%1$L, (SELECT k FROM cassandra_sstable_keys(%1$L) k LIMIT 1))::text'))
     AS c(call, q)
ORDER BY 1, 2;
RESET ROLE;

DROP TABLE mc_keys, bb_keys, oa_keys;
DROP OWNED BY regress_bloomcass_components;
DROP ROLE regress_bloomcass_components;
