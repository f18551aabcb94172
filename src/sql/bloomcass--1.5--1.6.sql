/* bloomcass--1.5--1.6.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomcass UPDATE TO '1.6'" to load this file. \quit

-- section: partitions with their position and size (cassandra_sstable_partitions)
-- C: src/bloom_sstable_keys.c

-- path: as for cassandra_sstable_keys.  Every partition in the SSTable's
-- order, its position in the uncompressed Data.db (from Index.db, or from
-- Partitions.db's leaves and the Rows.db entries they point to) and its size
-- (to the next partition's position, the last one to the end of the
-- uncompressed data: what Statistics.db's partition size histogram counts).
CREATE FUNCTION @extschema@.cassandra_sstable_partitions(path text)
	RETURNS TABLE(key bytea, "position" bigint, size bigint)
	AS 'MODULE_PATHNAME', 'cassandra_sstable_partitions'
	LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_sstable_partitions(text) IS
	'every partition of an SSTable on the server with its position and size in bytes in the uncompressed Data.db (pg_read_binary_file privileges apply)';
