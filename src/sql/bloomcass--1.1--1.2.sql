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
-- C: src/bloom_sstable_dir.c (the walk), src/bloom_sstable_read.c (the
-- components of each SSTable)

-- One row per SSTable below a folder of a node.  Only live SSTables unless
-- include_inactive (then also temporary, obsolete, orphaned, snapshot and
-- backup ones, told apart by state); read_filters => false leaves filter
-- NULL without reading any Filter.db.  A component that cannot be read is
-- a WARNING naming it, and NULLs in the row.
CREATE FUNCTION @extschema@.cassandra_sstables(data_dir text,
	include_inactive boolean DEFAULT false, read_filters boolean DEFAULT true,
	OUT keyspace text, OUT table_name text, OUT version text, OUT generation text,
	OUT format text, OUT state text, OUT snapshot text, OUT path text,
	OUT components text[], OUT filter @extschema@.bloom, OUT partitioner text,
	OUT fp_chance float8, OUT partitions bigint, OUT key_type text,
	OUT first_key bytea, OUT last_key bytea, OUT filter_db_bytes bigint,
	OUT data_db_bytes bigint, OUT modified timestamptz)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'cassandra_sstables'
	LANGUAGE C VOLATILE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.cassandra_sstables(text, boolean, boolean) IS
	'the SSTables below a Cassandra data folder with their filter, Statistics.db facts and key range (pg_read_binary_file privileges apply)';

-- section: component parsers (cassandra_statistics, cassandra_summary,
-- cassandra_index_keys, cassandra_sstable_keys)
-- C: src/bloom_sstable_parse.c (bytes given as arguments),
-- src/bloom_sstable_keys.c (cassandra_sstable_keys)

-- Statistics.db, Summary.db and Index.db bytes of the given SSTable version
-- (ia .. oa, da and bb for Statistics.db; BIG versions for the other two).
CREATE FUNCTION @extschema@.cassandra_statistics(data bytea, version text,
	OUT partitioner text, OUT fp_chance float8, OUT partitions bigint,
	OUT key_type text, OUT checksummed boolean)
	RETURNS record
	AS 'MODULE_PATHNAME', 'cassandra_statistics'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_statistics(bytea, text) IS
	'partitioner, bloom_filter_fp_chance, partition count and key type from the bytes of a Statistics.db';

CREATE FUNCTION @extschema@.cassandra_summary(data bytea, version text,
	OUT min_index_interval integer, OUT sampled_entries integer,
	OUT sampling_level integer, OUT size_at_full_sampling integer,
	OUT first_key bytea, OUT last_key bytea)
	RETURNS record
	AS 'MODULE_PATHNAME', 'cassandra_summary'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_summary(bytea, text) IS
	'index sampling and first and last partition keys from the bytes of a Summary.db';

CREATE FUNCTION @extschema@.cassandra_index_keys(data bytea, version text)
	RETURNS SETOF bytea
	AS 'MODULE_PATHNAME', 'cassandra_index_keys'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_index_keys(bytea, text) IS
	'every partition key of the bytes of an Index.db, in file order';

-- path: the SSTable's common prefix (.../nb-1-big, .../ks-cf-ka-1) or any
-- of its component files; Index.db is read in pieces, never whole.
CREATE FUNCTION @extschema@.cassandra_sstable_keys(path text)
	RETURNS SETOF bytea
	AS 'MODULE_PATHNAME', 'cassandra_sstable_keys'
	LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_sstable_keys(text) IS
	'every partition key of a BIG SSTable on the server, from its Index.db in file order (pg_read_binary_file privileges apply)';

-- section: filter health (bloom_health)
-- C: src/bloom_health.c
CREATE FUNCTION @extschema@.bloom_health(f @extschema@.bloom, partitions bigint, fp_chance float8,
	OUT expected_hash_count integer, OUT expected_word_count bigint,
	OUT hash_count integer, OUT word_count bigint,
	OUT sized_for_min bigint, OUT sized_for_max bigint,
	OUT fpr_at_partitions float8, OUT expected_fpr float8, OUT fpr_ratio float8,
	OUT fill_fpr float8, OUT verdict text)
	RETURNS record
	AS 'MODULE_PATHNAME', 'bloom_health' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_health(@extschema@.bloom, bigint, float8) IS
	'a filter against the one Cassandra sizes for (partitions, fp_chance): that filter''s hash and word counts, this one''s, the key counts Cassandra would have sized this one for (NULL if none), the theoretical false-positive rate of both at partitions keys, their ratio (NULL for 0 partitions), the rate from the fill, and verdict: ''ok'' when the shape is Cassandra''s; else ''hash_count_mismatch'' when the hash count differs (sized for another fp_chance); else, by the ratio, ''saturated'' above 1.25, ''oversized'' below 0.75 (for 0 partitions: more than one word), ''ok'' between (ScyllaDB''s tolerance)';
