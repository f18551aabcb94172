--
-- Transaction logs as Cassandra verifies them (test/make-hostile.sh,
-- section "transaction logs"): each record's CRC as LogRecord.computeChecksum
-- computes it, the rules of LogReplicaSet.readRecords (no record twice, a
-- COMMIT or ABORT last) and UTF-8.  A log that fails LogFile.verify is
-- applied as Cassandra's listing applies it (LogAwareFileLister with
-- OnTxnErr.IGNORE: its valid records), with a WARNING: Cassandra itself
-- does not start with such a log.  A log whose last record alone is invalid
-- verifies, its operation unfinished: a WARNING, but none when a crash cut
-- the last line short.  A log that is not UTF-8 cannot be read: a WARNING,
-- and nothing of it applies.
--
-- WARNINGs name the file; their DETAIL (the whole path, which differs from
-- run to run) is left out with VERBOSITY terse.
\set VERBOSITY terse

CREATE OR REPLACE FUNCTION rel(p text) RETURNS text LANGUAGE sql STABLE
AS $$ SELECT replace(p, test_path(''), '') $$;

-- every SSTable of the folders, in the state listed: one WARNING for each
-- damaged log, in the folders' order
CREATE TABLE txn_listed AS
SELECT * FROM cassandra_sstables(test_path('hostile/txn'), include_inactive => true);
SELECT rel(path) AS sstable, state FROM txn_listed ORDER BY path COLLATE "C";

-- exactly the states make-hostile.sh expects (none listed otherwise)
SELECT coalesce('hostile/' || e.f[1], rel(l.path)) AS mismatch, e.f[2] AS expected, l.state AS listed
FROM test_tsv('hostile/txn/expected.tsv') e
FULL JOIN txn_listed l ON rel(l.path) = 'hostile/' || e.f[1]
WHERE e.f[2] IS DISTINCT FROM l.state;

-- the live ones, as listed by default
SELECT count(*) AS live_listed,
       (SELECT count(*) FROM test_tsv('hostile/txn/expected.tsv') WHERE f[2] = 'live') AS live_expected
FROM cassandra_sstables(test_path('hostile/txn'));

-- each damaged log alone, from its table's folder: the same WARNING
SELECT rel(path) AS sstable, state
FROM cassandra_sstables(test_path('hostile/txn/ks/crc_before_last-11111111111111111111111111111111'),
                        include_inactive => true)
ORDER BY path COLLATE "C";
