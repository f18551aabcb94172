/* bloomcass--1.2--1.3.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomcass UPDATE TO '1.3'" to load this file. \quit

------------------------------------------------------------------------------
-- Exact key lookups in SSTables on the server.  The file reading follows
-- pg_read_binary_file(text)'s privileges, as cassandra_sstable_keys does.
------------------------------------------------------------------------------

-- section: exact key lookups (cassandra_sstable_has_key)
-- C: src/bloom_sstable_lookup.c

-- path: the SSTable's common prefix (.../nb-1-big, .../ks-cf-ka-1) or any
-- of its component files; key: typed as for bloom_agg and @> (bytea as
-- cassandra_sstable_keys returns keys, cassandra_key() for a composite).
CREATE FUNCTION @extschema@.cassandra_sstable_has_key(path text, key "any")
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'cassandra_sstable_has_key'
	LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_sstable_has_key(text, "any") IS
	'whether an SSTable on the server holds a partition key, exactly: BIG by a binary search of Summary.db and one sampling interval of Index.db, trie-indexed by one walk of Partitions.db and one key read (pg_read_binary_file privileges apply)';

-- section: component parsers (cassandra_sstable_keys)
-- C: src/bloom_sstable_keys.c, src/bloom_sstable_open.c (trie-indexed SSTables)

-- from 1.3 trie-indexed SSTables give their keys too
COMMENT ON FUNCTION @extschema@.cassandra_sstable_keys(text) IS
	'every partition key of an SSTable on the server: BIG from its Index.db in file order, trie-indexed (da, bb, ms, mt) from the leaves of Partitions.db in token order, each key read whole from Rows.db or Data.db (pg_read_binary_file privileges apply)';
