--
-- Files that are not what they should be: a component that is a FIFO (an
-- open(2) for reading would wait for a writer forever, in the kernel, out
-- of reach of statement_timeout and pg_cancel_backend), and folders linked
-- into a lattice (d0 .. d12, each with two links to the next: 4,096 paths
-- to the one SSTable in d12).  The copies are made by test/make-hostile.sh
-- (section "files").  Every call runs as a role that may read server files
-- (pg_read_server_files and EXECUTE on pg_read_binary_file, nothing more),
-- under a statement_timeout: each FIFO is a clean ERROR at once, naming
-- the file (42809), and the lattice lists its SSTable once.
--
-- bloom_import_file reads only regular files too (up to 1.5 it read
-- through PostgreSQL's own pg_read_binary_file, which opens a FIFO and
-- waits), and each of its errors names the file.
--
CREATE ROLE regress_bloomcass_files_reader;
GRANT pg_read_server_files TO regress_bloomcass_files_reader;
GRANT EXECUTE ON FUNCTION pg_read_binary_file(text) TO regress_bloomcass_files_reader;

-- SQLSTATE and message of a query
CREATE FUNCTION files_error(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE query;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
GRANT EXECUTE ON FUNCTION files_error(text) TO regress_bloomcass_files_reader;

SELECT test_path('hostile/files') AS files, test_path('hostile/import') AS import, datadir FROM test_config \gset
SET ROLE regress_bloomcass_files_reader;
SET statement_timeout = '5s';

------------------------------------------------------------------------------
-- A FIFO in a component's place: an ERROR naming it, before any open
------------------------------------------------------------------------------
SELECT c.sstable, c.call,
       replace(files_error(format(c.q, :'files' || '/' || c.sstable)), :'datadir', '$DATA') AS error
FROM (VALUES
	('fifo-index/nb-1-big', 'keys', 'SELECT count(*) FROM cassandra_sstable_keys(%L)'),
	('fifo-index/nb-1-big', 'has_key', 'SELECT cassandra_sstable_has_key(%L, ''\x0000''::bytea)'),
	('fifo-summary/nb-1-big', 'has_key', 'SELECT cassandra_sstable_has_key(%L, ''\x0000''::bytea)'),
	('fifo-statistics/nb-1-big', 'has_key', 'SELECT cassandra_sstable_has_key(%L, ''\x0000''::bytea)'),
	('fifo-partitions/da-1-bti', 'keys', 'SELECT count(*) FROM cassandra_sstable_keys(%L)'),
	('fifo-partitions/da-1-bti', 'has_key', 'SELECT cassandra_sstable_has_key(%L, ''\x0000''::bytea)'),
	('fifo-data/da-1-bti', 'keys', 'SELECT count(*) FROM cassandra_sstable_keys(%L)'),
	('fifo-data/da-1-bti', 'has_key', 'SELECT cassandra_sstable_has_key(%L, ''\x0000''::bytea)'))
	AS c(sstable, call, q);

-- bloom_import_file over many files: the error of each names it (a FIFO,
-- a folder, a cut and an empty Filter.db, made by test/make-hostile.sh,
-- section "import"; a good one is read)
SELECT f.file,
       replace(files_error(format('SELECT bloom_import_file(%L)', f.dir || '/' || f.file)),
               :'datadir', '$DATA') AS error
FROM (VALUES
	(:'files', 'fifo-filter/nb-1-big-Filter.db'),
	(:'import', 'folder/nb-1-big-Filter.db'),
	(:'import', 'truncated/nb-1-big-Filter.db'),
	(:'import', 'empty/nb-1-big-Filter.db'),
	(:'import', 'good/nb-1-big-Filter.db'))
	AS f(dir, file);

-- a FIFO given as the folder to list: not a directory, 42809 too
SELECT replace(files_error(format('SELECT count(*) FROM cassandra_sstables(%L)',
                                  :'files' || '/fifo-index/nb-1-big-Index.db')),
               :'datadir', '$DATA') AS fifo_as_folder;

-- the keys of a BIG SSTable are checked in the order of the partitioner
-- Statistics.db names, so a FIFO there is refused too; Summary.db is not
-- needed, and not opened
SELECT replace(files_error(format('SELECT count(*) FROM cassandra_sstable_keys(%L)',
                                  :'files' || '/fifo-statistics/nb-1-big')),
               :'datadir', '$DATA') AS keys_beside_fifo_statistics;
SELECT count(*) AS keys_beside_fifo_summary
FROM cassandra_sstable_keys(:'files' || '/fifo-summary/nb-1-big');

-- the listing walks past a FIFO (it is not a component, as a device or a
-- socket is not), and reads the rest: no filter without Filter.db, no
-- Statistics.db facts without it, the key range from Summary.db without
-- Index.db and from Index.db without Summary.db, none without Partitions.db
-- (a trie-indexed SSTable), and without Data.db the SSTable is orphaned
\set VERBOSITY terse
SELECT regexp_replace(path, '^.*/hostile/', '') AS sstable, state, components,
       filter IS NOT NULL AS filter, partitioner IS NOT NULL AS statistics,
       first_key IS NOT NULL AS key_range
FROM unnest(ARRAY['data', 'filter', 'index', 'partitions', 'statistics', 'summary']) AS f(c),
     cassandra_sstables(:'files' || '/fifo-' || f.c, include_inactive => true)
ORDER BY path;
\set VERBOSITY default

------------------------------------------------------------------------------
-- The lattice: the SSTable once, by the real path of its folder (d12: one
-- SSTable, one path, sql/28_identity.sql), each second link to a folder
-- skipped with a WARNING (its DETAIL names both paths)
------------------------------------------------------------------------------
\set VERBOSITY terse
SELECT regexp_replace(path, '^.*/hostile/', '') AS sstable, partitions
FROM cassandra_sstables(:'files' || '/lattice/d0');
-- from the folder above: each d<i> is reached first through d0's links
SELECT count(*) AS listed, count(DISTINCT path) AS distinct_paths
FROM cassandra_sstables(:'files' || '/lattice');
\set VERBOSITY default
SELECT count(*) AS keys FROM cassandra_sstable_keys(
	:'files' || '/lattice/d0/a/a/a/a/a/a/a/a/a/a/a/a/nb-1-big');

RESET statement_timeout;
RESET ROLE;
DROP FUNCTION files_error(text);
DROP OWNED BY regress_bloomcass_files_reader;
DROP ROLE regress_bloomcass_files_reader;
