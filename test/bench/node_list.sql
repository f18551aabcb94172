-- test/bench/node_list.sql - the listing of the node-scale benchmark
-- (node.sh), in ONE session: cassandra_sstables (in the select list, and
-- in FROM) against reading the same files with pg_read_binary_file, and
-- against the same bytes returned by a set-returning function in FROM, the
-- order rotated, each side run once untimed first (node_run,
-- node_setup.sql).  psql variables:
--   n      the node's SSTables
--   dir    the node's data folder
--   files  a file (read by the server) naming every file the listing reads, one
--          a line: each live SSTable's Filter.db, Statistics.db and
--          Summary.db (src/bloom_sstable_read.c: Summary.db gives the key
--          range, so Index.db is not opened)
--   reps   repetitions per side
-- Appends to node_samples (n, measure 'list', rep, side A to E, seconds,
-- the statement's result); node.sh checks the results.
\set ON_ERROR_STOP on
SET client_min_messages = warning;

DELETE FROM node_files WHERE n = :n;
CREATE TEMP TABLE node_files_in (f text);
COPY node_files_in FROM :'files';
INSERT INTO node_files SELECT :n, f FROM node_files_in ORDER BY f;
ANALYZE node_files;

-- A: the listing in the select list, every column of every SSTable computed
--    (filters read): its rows stream through ProjectSet, one at a time, as
--    the floor's values do;
-- B: the same files read whole, one bytea each, by a function in the select
--    list (the floor);
-- C: the same bytes returned by a set-returning function in FROM (through a
--    tuplestore, as any function's rows in FROM are);
-- D: the listing in FROM (through that tuplestore);
-- E: B with the listing's discovery of the files as well: every table
--    folder listed (pg_ls_dir), every file in it stat'ed (pg_stat_file), as
--    the walk does, and the same three components of each SSTable read
\o /dev/null
SELECT node_run(:n, 'list', ARRAY['A', 'B', 'C', 'D', 'E'], ARRAY[
	format('SELECT count(*) FROM (SELECT cassandra_sstables(%L) AS r) s', :'dir'),
	format('SELECT sum(length(pg_read_binary_file(f)))::bigint FROM node_files WHERE n = %s', :n),
	format('SELECT count(*) FROM node_read_files(%s)', :n),
	format('SELECT count(*) FROM cassandra_sstables(%L)', :'dir'),
	format($q$SELECT sum(CASE WHEN f ~ '-(Filter|Statistics|Summary)\.db$' THEN length(pg_read_binary_file(p)) ELSE 0 END
	                     + 0 * (pg_stat_file(p)).size)::bigint
	          FROM (SELECT d || '/' || f AS p, f
	                FROM (SELECT %L || '/bench/' || t AS d FROM pg_ls_dir(%L || '/bench') t) x,
	                     pg_ls_dir(x.d) f) y$q$, :'dir', :'dir')], :reps);
\o
