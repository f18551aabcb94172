/* bloomcass--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomcass UPDATE TO '1.2'" to load this file. \quit

------------------------------------------------------------------------------
-- The rest of the SSTable.  Functions that read server files check, as the
-- caller, exactly what pg_catalog.pg_read_binary_file(text) checks: the
-- EXECUTE privilege on that function, then its path rule (any path with the
-- privileges of pg_read_server_files, else only below the data directory or
-- the log directory).
------------------------------------------------------------------------------

-- section: data directories (cassandra_sstables)

-- section: component parsers (cassandra_statistics, cassandra_summary,
-- cassandra_index_keys, cassandra_sstable_keys)

-- section: filter health (bloom_health)
