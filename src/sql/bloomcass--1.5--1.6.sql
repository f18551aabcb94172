/* bloomcass--1.5--1.6.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomcass UPDATE TO '1.6'" to load this file. \quit

------------------------------------------------------------------------------
-- bloom_import_file reads its Filter.db itself, with exactly the privileges
-- of pg_read_binary_file(text) (EXECUTE on it, and pg_read_server_files for
-- a path outside the data and log directories), as the functions of 1.2 and
-- later that read server files do: a refusal names both grants in its HINT,
-- every error names the file, and only a regular file is opened.
------------------------------------------------------------------------------

-- section: Filter.db import from a server file (bloom_import_file)
-- C: src/bloom_io.c

CREATE OR REPLACE FUNCTION @extschema@.bloom_import_file(path text) RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME', 'bloom_import_file'
	LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_import_file(text) IS
	'filter from a Filter.db file on the server, version taken from its name (pg_read_binary_file privileges apply: EXECUTE on it and pg_read_server_files, or superuser)';

-- Many keys against one filter in one call: f @> key for every element of
-- an array, the keys hashed and probed in batches whose cache misses
-- overlap (and, for a stored filter, each TOAST chunk fetched once per
-- batch).
------------------------------------------------------------------------------

-- section: batched probes (bloom_contains_each)
-- C: src/bloom_contains_each.c

CREATE FUNCTION @extschema@.bloom_contains_each(filter @extschema@.bloom, keys anyarray)
	RETURNS boolean[]
	AS 'MODULE_PATHNAME', 'bloom_contains_each'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contains_each(@extschema@.bloom, anyarray) IS
	'filter @> key for every element of keys, in order, with the array''s dimensions; NULL for a NULL element';

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

-- Typed probes: the key serialized as the CQL type of the partition key
-- (key_type: a marshal type string as Statistics.db and every listing give
-- it, or a CQL name such as bigint), so that a present key is never
-- answered false because of an integer's width or an untyped literal.  Not
-- strict: a NULL key_type (an SSTable before 3.0) is the untyped probe.
------------------------------------------------------------------------------

-- section: typed probes (bloom_contains with key_type)
-- C: src/bloom_typed_key.c

CREATE FUNCTION @extschema@.bloom_contains(filter @extschema@.bloom, key "any", key_type text)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'bloom_contains_typed'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contains(@extschema@.bloom, "any", text) IS
	'filter may contain key, serialized as the CQL type key_type (a marshal type string or a CQL name); NULL key_type: as @>';

-- section: typed batched probes (bloom_contains_each with key_type)
-- C: src/bloom_contains_each.c

CREATE FUNCTION @extschema@.bloom_contains_each(filter @extschema@.bloom, keys anyarray, key_type text)
	RETURNS boolean[]
	AS 'MODULE_PATHNAME', 'bloom_contains_each'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contains_each(@extschema@.bloom, anyarray, text) IS
	'bloom_contains(filter, key, key_type) for every element of keys, in order, with the array''s dimensions; NULL for a NULL element';

-- Which of many keys a filter may contain: the elements of the array whose
-- probe answers true, as rows (in storage order, NULL elements skipped),
-- probed in batches as bloom_contains_each probes them.  ROWS 100: at
-- most the array's elements, as unnest is estimated without its support
-- function.
--
-- bloom_may_contain is a SQL function whose body is one select list
-- calling bloom_may_contain_rows, the C function that makes the rows: in
-- FROM, PostgreSQL inlines it, so that the rows stream to the query
-- instead of filling a function scan's tuplestore first; anywhere else its
-- support function puts bloom_may_contain_rows in its place, so that no
-- SQL function runs a query per row (src/bloom_may_contain_plan.c).  Not
-- STRICT: PostgreSQL inlines no strict function; bloom_may_contain_rows'
-- two-argument form is, and gives no rows for a NULL argument.
------------------------------------------------------------------------------

-- section: keys a filter may contain, as rows (bloom_may_contain)
-- C: src/bloom_may_contain.c, src/bloom_may_contain_plan.c

CREATE FUNCTION @extschema@.bloom_may_contain_rows(filter @extschema@.bloom, keys anyarray)
	RETURNS SETOF anyelement
	AS 'MODULE_PATHNAME', 'bloom_may_contain_rows'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.bloom_may_contain_rows(@extschema@.bloom, anyarray) IS
	'the rows of bloom_may_contain(filter, keys), which calls it';

CREATE FUNCTION @extschema@.bloom_may_contain_rows(filter @extschema@.bloom, keys anyarray, key_type text)
	RETURNS SETOF anyelement
	AS 'MODULE_PATHNAME', 'bloom_may_contain_rows'
	LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.bloom_may_contain_rows(@extschema@.bloom, anyarray, text) IS
	'the rows of bloom_may_contain(filter, keys, key_type), which calls it';

CREATE FUNCTION @extschema@.bloom_may_contain_support(internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_may_contain_support'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_may_contain_support(internal) IS
	'planner support of bloom_may_contain: bloom_may_contain_rows in its place outside FROM';

CREATE FUNCTION @extschema@.bloom_may_contain(filter @extschema@.bloom, keys anyarray)
	RETURNS SETOF anyelement
	LANGUAGE sql IMMUTABLE PARALLEL SAFE ROWS 100
	SUPPORT @extschema@.bloom_may_contain_support
	AS 'SELECT @extschema@.bloom_may_contain_rows($1, $2)';
COMMENT ON FUNCTION @extschema@.bloom_may_contain(@extschema@.bloom, anyarray) IS
	'the elements of keys that filter may contain (filter @> key), in order, NULL elements skipped';

CREATE FUNCTION @extschema@.bloom_may_contain(filter @extschema@.bloom, keys anyarray, key_type text)
	RETURNS SETOF anyelement
	LANGUAGE sql IMMUTABLE PARALLEL SAFE ROWS 100
	SUPPORT @extschema@.bloom_may_contain_support
	AS 'SELECT @extschema@.bloom_may_contain_rows($1, $2, $3)';
COMMENT ON FUNCTION @extschema@.bloom_may_contain(@extschema@.bloom, anyarray, text) IS
	'the elements of keys that filter may contain as keys of the CQL type key_type, in order, NULL elements skipped; NULL key_type: as @>';

------------------------------------------------------------------------------
-- Everything Statistics.db holds (cassandra_metadata,
-- cassandra_sstable_metadata, cassandra_metadata_histograms,
-- cassandra_droppable_tombstones)
------------------------------------------------------------------------------

-- section: Statistics.db metadata (cassandra_metadata, cassandra_sstable_metadata,
-- cassandra_metadata_histograms, cassandra_droppable_tombstones)
-- C: src/bloom_metadata.c

-- One row of every fact of a Statistics.db of the given version, NULL where
-- the version does not store it (and for the deletion times, where nothing
-- was deleted).  Times as written: timestamps in microseconds, deletion
-- times in seconds, TTLs in seconds, repaired_at in milliseconds since
-- the epoch (0: unrepaired).  cardinality: the estimate of the
-- CompactionMetadata estimator, stream-lib's HyperLogLogPlus.cardinality()
-- or, for ScyllaDB's estimator, its estimate() rounded;
-- cardinality_estimator: which ('stream-lib HyperLogLogPlus',
-- 'ScyllaDB HyperLogLog'); both NULL where none is stored.
CREATE FUNCTION @extschema@.cassandra_metadata(data bytea, version text,
	OUT partitioner text, OUT fp_chance float8, OUT partitions bigint,
	OUT key_type text, OUT min_timestamp bigint, OUT max_timestamp bigint,
	OUT min_time timestamptz, OUT max_time timestamptz,
	OUT min_local_deletion_time bigint, OUT max_local_deletion_time bigint,
	OUT min_ttl bigint, OUT max_ttl bigint, OUT compression_ratio float8,
	OUT sstable_level integer, OUT repaired_at bigint, OUT pending_repair uuid,
	OUT is_transient boolean, OUT originating_host_id uuid, OUT total_rows bigint,
	OUT total_columns_set bigint, OUT has_legacy_counter_shards boolean,
	OUT token_space_coverage float8, OUT has_partition_level_deletions boolean,
	OUT commit_log_intervals text, OUT encoding_min_timestamp bigint,
	OUT encoding_min_local_deletion_time bigint, OUT encoding_min_ttl bigint,
	OUT clustering_types text[], OUT static_columns jsonb, OUT regular_columns jsonb,
	OUT min_clustering_values bytea[], OUT max_clustering_values bytea[],
	OUT first_key bytea, OUT last_key bytea, OUT checksummed boolean,
	OUT cardinality bigint, OUT cardinality_estimator text)
	RETURNS record
	AS 'MODULE_PATHNAME', 'cassandra_metadata'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_metadata(bytea, text) IS
	'every fact of the bytes of a Statistics.db (sstablemetadata''s), NULL where the version does not store it';

-- path: as for cassandra_sstable_keys (the SSTable's prefix or any of its
-- component files).
CREATE FUNCTION @extschema@.cassandra_sstable_metadata(path text,
	OUT partitioner text, OUT fp_chance float8, OUT partitions bigint,
	OUT key_type text, OUT min_timestamp bigint, OUT max_timestamp bigint,
	OUT min_time timestamptz, OUT max_time timestamptz,
	OUT min_local_deletion_time bigint, OUT max_local_deletion_time bigint,
	OUT min_ttl bigint, OUT max_ttl bigint, OUT compression_ratio float8,
	OUT sstable_level integer, OUT repaired_at bigint, OUT pending_repair uuid,
	OUT is_transient boolean, OUT originating_host_id uuid, OUT total_rows bigint,
	OUT total_columns_set bigint, OUT has_legacy_counter_shards boolean,
	OUT token_space_coverage float8, OUT has_partition_level_deletions boolean,
	OUT commit_log_intervals text, OUT encoding_min_timestamp bigint,
	OUT encoding_min_local_deletion_time bigint, OUT encoding_min_ttl bigint,
	OUT clustering_types text[], OUT static_columns jsonb, OUT regular_columns jsonb,
	OUT min_clustering_values bytea[], OUT max_clustering_values bytea[],
	OUT first_key bytea, OUT last_key bytea, OUT checksummed boolean,
	OUT cardinality bigint, OUT cardinality_estimator text)
	RETURNS record
	AS 'MODULE_PATHNAME', 'cassandra_sstable_metadata'
	LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_sstable_metadata(text) IS
	'every fact of the Statistics.db of an SSTable on the server (pg_read_binary_file privileges apply)';

-- Every bucket of the partition size and cell count histograms (bound: the
-- bucket's offset as sstablemetadata prints it; NULL for the last bucket,
-- which counts what is above every offset) and every bin of the tombstone
-- drop time histogram (bound: its point, seconds since the epoch).
CREATE FUNCTION @extschema@.cassandra_metadata_histograms(data bytea, version text)
	RETURNS TABLE(histogram text, bound bigint, count bigint)
	AS 'MODULE_PATHNAME', 'cassandra_metadata_histograms'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_metadata_histograms(bytea, text) IS
	'the partition size, cell count and tombstone drop time histograms of the bytes of a Statistics.db';

-- StatsMetadata.getEstimatedDroppableTombstoneRatio(gc_before), gc_before
-- in seconds since the epoch (sstablemetadata -g).
CREATE FUNCTION @extschema@.cassandra_droppable_tombstones(data bytea, version text,
	gc_before bigint)
	RETURNS float8
	AS 'MODULE_PATHNAME', 'cassandra_droppable_tombstones'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_droppable_tombstones(bytea, text, bigint) IS
	'the estimated droppable tombstone ratio at gc_before (seconds) of the bytes of a Statistics.db';

-- section: data directories (cassandra_sstables), the stats facts
-- C: src/bloom_sstable_dir.c (the walk), src/bloom_sstable_read.c (the
-- components of each SSTable)

-- cassandra_sstables gains, after its columns of 1.2 (their names and order
-- unchanged), the facts of Statistics.db's stats that fleet queries need,
-- from the parse that already gave partitioner, fp_chance and partitions
-- (no other file read): the timestamps, deletion times and TTLs, the level
-- and the repair state, NULL where the version does not store the fact, as
-- cassandra_metadata gives them.  Its result columns change, which CREATE
-- OR REPLACE cannot do: it is dropped and created again.  A view or a
-- function over it stops the update first, naming them.
DO $$
DECLARE
	deps text;
BEGIN
	SELECT string_agg(DISTINCT CASE
			WHEN d.classid = 'pg_catalog.pg_rewrite'::pg_catalog.regclass
			THEN (SELECT 'view ' || r.ev_class::pg_catalog.regclass::text
				  FROM pg_catalog.pg_rewrite r WHERE r.oid = d.objid)
			ELSE pg_catalog.pg_describe_object(d.classid, d.objid, d.objsubid) END, ', ')
	INTO deps
	FROM pg_catalog.pg_depend d
	WHERE d.refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass
	  AND d.refobjid = '@extschema@.cassandra_sstables(text, boolean, boolean)'::pg_catalog.regprocedure
	  AND d.deptype = 'n';
	IF deps IS NOT NULL THEN
		RAISE EXCEPTION 'cassandra_sstables gains columns in 1.6 and is dropped and created again, but other objects depend on it: %', deps
			USING ERRCODE = 'dependent_objects_still_exist',
			      HINT = 'Drop them, run ALTER EXTENSION bloomcass UPDATE again, then create them again: the columns of 1.5 keep their names and order.';
	END IF;
END $$;

DROP FUNCTION @extschema@.cassandra_sstables(text, boolean, boolean);
CREATE FUNCTION @extschema@.cassandra_sstables(data_dir text,
	include_inactive boolean DEFAULT false, read_filters boolean DEFAULT true,
	OUT keyspace text, OUT table_name text, OUT version text, OUT generation text,
	OUT format text, OUT state text, OUT snapshot text, OUT path text,
	OUT components text[], OUT filter @extschema@.bloom, OUT partitioner text,
	OUT fp_chance float8, OUT partitions bigint, OUT key_type text,
	OUT first_key bytea, OUT last_key bytea, OUT filter_db_bytes bigint,
	OUT data_db_bytes bigint, OUT modified timestamptz,
	OUT min_timestamp bigint, OUT max_timestamp bigint,
	OUT min_local_deletion_time bigint, OUT max_local_deletion_time bigint,
	OUT min_ttl bigint, OUT max_ttl bigint, OUT sstable_level integer,
	OUT repaired_at bigint, OUT pending_repair uuid, OUT is_transient boolean)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'cassandra_sstables'
	LANGUAGE C VOLATILE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.cassandra_sstables(text, boolean, boolean) IS
	'the SSTables below a Cassandra data folder with their filter, Statistics.db facts (repair, level, timestamps, deletion times, TTLs) and key range (pg_read_binary_file privileges apply)';

------------------------------------------------------------------------------
-- The filter a compaction writes: Cassandra sizes it from
-- SSTableReader.getApproximateKeyCount, the cardinality estimators of its
-- inputs merged (stream-lib's HyperLogLogPlus), or their partition counts
-- when one lacks an estimator or the merge is refused.
------------------------------------------------------------------------------

-- section: cardinality estimators merged (cassandra_approximate_key_count)
-- C: src/bloom_hll.c

CREATE FUNCTION @extschema@.cassandra_key_count_trans(internal, bytea, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'cassandra_key_count_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cassandra_key_count_combine(internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'cassandra_key_count_combine' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.cassandra_key_count_serialize(internal) RETURNS bytea
	AS 'MODULE_PATHNAME', 'cassandra_key_count_serialize' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.cassandra_key_count_deserialize(bytea, internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'cassandra_key_count_deserialize' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.cassandra_key_count_final(internal) RETURNS bigint
	AS 'MODULE_PATHNAME', 'cassandra_key_count_final' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_key_count_trans(internal, bytea, text) IS
	'transition of cassandra_approximate_key_count: an SSTable''s estimator merged';
COMMENT ON FUNCTION @extschema@.cassandra_key_count_combine(internal, internal) IS
	'combine of cassandra_approximate_key_count: two partial states merged';
COMMENT ON FUNCTION @extschema@.cassandra_key_count_serialize(internal) IS
	'serialize of cassandra_approximate_key_count''s partial state';
COMMENT ON FUNCTION @extschema@.cassandra_key_count_deserialize(bytea, internal) IS
	'deserialize of cassandra_approximate_key_count''s partial state';
COMMENT ON FUNCTION @extschema@.cassandra_key_count_final(internal) IS
	'final of cassandra_approximate_key_count: the merged estimate, else the partition counts'' sum';

-- What SSTableReader.getApproximateKeyCount returns for the SSTables whose
-- Statistics.db bytes are aggregated: their estimators merged as
-- stream-lib merges them, else the sum of their partition counts (rows
-- with a NULL statistics or version are left out; no row: NULL).
CREATE AGGREGATE @extschema@.cassandra_approximate_key_count(statistics bytea, version text) (
	SFUNC = @extschema@.cassandra_key_count_trans,
	STYPE = internal,
	COMBINEFUNC = @extschema@.cassandra_key_count_combine,
	SERIALFUNC = @extschema@.cassandra_key_count_serialize,
	DESERIALFUNC = @extschema@.cassandra_key_count_deserialize,
	FINALFUNC = @extschema@.cassandra_key_count_final,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cassandra_approximate_key_count(bytea, text) IS
	'what Cassandra''s SSTableReader.getApproximateKeyCount returns for these SSTables: their cardinality estimators merged, else the sum of their partition counts';

-- The same with each SSTable's estimatedKeys() for the fallback (for a BIG
-- SSTable Summary.db's (size_at_full_sampling + 1) * min_index_interval,
-- from cassandra_summary; NULL: its partition count).
CREATE FUNCTION @extschema@.cassandra_key_count_trans(internal, bytea, text, bigint) RETURNS internal
	AS 'MODULE_PATHNAME', 'cassandra_key_count_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_key_count_trans(internal, bytea, text, bigint) IS
	'transition of cassandra_approximate_key_count with estimated keys: an SSTable''s estimator merged';
CREATE AGGREGATE @extschema@.cassandra_approximate_key_count(statistics bytea, version text,
	estimated_keys bigint) (
	SFUNC = @extschema@.cassandra_key_count_trans,
	STYPE = internal,
	COMBINEFUNC = @extschema@.cassandra_key_count_combine,
	SERIALFUNC = @extschema@.cassandra_key_count_serialize,
	DESERIALFUNC = @extschema@.cassandra_key_count_deserialize,
	FINALFUNC = @extschema@.cassandra_key_count_final,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.cassandra_approximate_key_count(bytea, text, bigint) IS
	'cassandra_approximate_key_count with each SSTable''s estimatedKeys() for the fallback (Summary.db''s estimate; NULL: its partition count)';

-- section: a filter's size explained (cassandra_filter_sizing)
-- C: src/bloom_filter_sizing.c

-- Whether an SSTable's filter has the size a flush gives for its partition
-- count, the one a compaction gives for its cardinality estimate (at least
-- min_index_interval, 128, in cleanup, anticompaction and 2.1's
-- compactions), both or neither; undersized: sized from an estimate below
-- the real count, its false-positive rate holding the real partitions above
-- fp_chance.
CREATE FUNCTION @extschema@.cassandra_filter_sizing(filter @extschema@.bloom, statistics bytea,
	version text, OUT fp_chance float8, OUT partitions bigint, OUT cardinality bigint,
	OUT cardinality_estimator text, OUT hash_count integer, OUT word_count bigint,
	OUT sized_for_min bigint, OUT sized_for_max bigint, OUT flush_word_count bigint,
	OUT compaction_keys bigint, OUT compaction_word_count bigint, OUT sized_by text,
	OUT fpr_at_partitions float8, OUT undersized boolean)
	RETURNS record
	AS 'MODULE_PATHNAME', 'cassandra_filter_sizing'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_filter_sizing(@extschema@.bloom, bytea, text) IS
	'whether an SSTable''s filter has the size of a flush (its partition count), of a compaction (its cardinality estimate), or neither';
