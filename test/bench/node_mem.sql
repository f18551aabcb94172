-- test/bench/node_mem.sql - peak memory of one cassandra_sstables listing
-- (node.sh), in a fresh session: the backend's VmHWM (peak resident set,
-- kB, /proc/self/status read by the backend itself) after a listing of a
-- folder of one SSTable (the library loaded, the code run once), then
-- after the listing of the node in the select list (peak), then after the
-- listing in FROM (peak_from: the high-water mark of both).  psql variables: n, dir, tiny (the folder
-- of one SSTable).
\set ON_ERROR_STOP on
SET client_min_messages = warning;

SELECT count(*) AS warm FROM cassandra_sstables(:'tiny');
INSERT INTO node_memory
SELECT :n, 'baseline', substring(pg_read_file('/proc/self/status') FROM 'VmHWM:\s*(\d+)')::bigint;
SELECT count(*) AS listed FROM (SELECT cassandra_sstables(:'dir') AS r) s;
INSERT INTO node_memory
SELECT :n, 'peak', substring(pg_read_file('/proc/self/status') FROM 'VmHWM:\s*(\d+)')::bigint;
SELECT count(*) AS listed FROM cassandra_sstables(:'dir');
INSERT INTO node_memory
SELECT :n, 'peak_from', substring(pg_read_file('/proc/self/status') FROM 'VmHWM:\s*(\d+)')::bigint;
