/* bloomcass--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION bloomcass" to load this file. \quit

------------------------------------------------------------------------------
-- The bloom type: a Cassandra Filter.db (hash count, word count, bitset)
-- plus the hash order, which the Filter.db bytes alone do not tell.
-- C: src/bloom_io.c
------------------------------------------------------------------------------

CREATE TYPE @extschema@.bloom;

CREATE FUNCTION @extschema@.bloom_in(cstring) RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_out(@extschema@.bloom) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_recv(internal) RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_send(@extschema@.bloom) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE @extschema@.bloom (
	INPUT = @extschema@.bloom_in,
	OUTPUT = @extschema@.bloom_out,
	RECEIVE = @extschema@.bloom_recv,
	SEND = @extschema@.bloom_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = external
);

COMMENT ON TYPE @extschema@.bloom IS
	'Apache Cassandra SSTable bloom filter (Filter.db): hash count, word count, bitset and hash order';

-- equality: same hash order and same Filter.db bytes
CREATE FUNCTION @extschema@.bloom_eq(@extschema@.bloom, @extschema@.bloom) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_ne(@extschema@.bloom, @extschema@.bloom) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR @extschema@.= (
	LEFTARG = @extschema@.bloom, RIGHTARG = @extschema@.bloom,
	FUNCTION = @extschema@.bloom_eq,
	COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
	RESTRICT = pg_catalog.eqsel, JOIN = pg_catalog.eqjoinsel
);
CREATE OPERATOR @extschema@.<> (
	LEFTARG = @extschema@.bloom, RIGHTARG = @extschema@.bloom,
	FUNCTION = @extschema@.bloom_ne,
	COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
	RESTRICT = pg_catalog.neqsel, JOIN = pg_catalog.neqjoinsel
);

COMMENT ON OPERATOR @extschema@.= (@extschema@.bloom, @extschema@.bloom) IS
	'same hash order and identical Filter.db bytes';
COMMENT ON OPERATOR @extschema@.<> (@extschema@.bloom, @extschema@.bloom) IS
	'different hash order or Filter.db bytes';
COMMENT ON FUNCTION @extschema@.bloom_eq(@extschema@.bloom, @extschema@.bloom) IS
	'true when both filters have the same hash order and identical Filter.db bytes';
COMMENT ON FUNCTION @extschema@.bloom_ne(@extschema@.bloom, @extschema@.bloom) IS
	'negation of bloom_eq';

------------------------------------------------------------------------------
-- Hashing and keys
-- C: src/bloom_keys_sql.c
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.cassandra_murmur3(key anyelement, OUT h1 bigint, OUT h2 bigint)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_murmur3(anyelement) IS
	'Cassandra''s murmur3 x64_128 (seed 0, sign-extended tail) of a partition key: (h1, h2)';

CREATE FUNCTION @extschema@.cassandra_token(key anyelement) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_token(anyelement) IS
	'Murmur3Partitioner token of a partition key, as CQL token() returns it';

-- text overloads let untyped literals ('key0') resolve to text keys
CREATE FUNCTION @extschema@.cassandra_murmur3(key text, OUT h1 bigint, OUT h2 bigint)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_murmur3(text) IS
	'Cassandra''s murmur3 x64_128 of a text partition key (its UTF-8 bytes): (h1, h2)';
CREATE FUNCTION @extschema@.cassandra_token(key text) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_token(text) IS
	'Murmur3Partitioner token of a text partition key';

CREATE FUNCTION @extschema@.cassandra_key(VARIADIC "any") RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_key(VARIADIC "any") IS
	'partition key bytes as Cassandra serializes them: one value as its CQL type, several as a composite key';

CREATE FUNCTION @extschema@.cassandra_varint(numeric) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_varint(numeric) IS
	'bytes of a CQL varint (minimal two''s complement) for an integral numeric';

CREATE FUNCTION @extschema@.cassandra_tinyint(smallint) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_tinyint(smallint) IS
	'bytes of a CQL tinyint (one byte) for a value in -128..127';

------------------------------------------------------------------------------
-- Building, testing and combining filters
-- C: src/bloom_ops.c
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_create(expected_keys bigint, fp_chance float8 DEFAULT 0.01,
	sstable_version text DEFAULT 'oa')
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME', 'bloomcass_create' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_create(bigint, float8, text) IS
	'empty filter sized as Cassandra sizes one for expected_keys keys at fp_chance, in the hash order of sstable_version';

CREATE FUNCTION @extschema@.bloom_contains(filter @extschema@.bloom, key anyelement) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contains(@extschema@.bloom, anyelement) IS
	'false when the key is certainly absent, true when Cassandra''s filter may contain it';

CREATE OPERATOR @extschema@.@> (
	LEFTARG = @extschema@.bloom, RIGHTARG = anyelement,
	FUNCTION = @extschema@.bloom_contains
);
COMMENT ON OPERATOR @extschema@.@> (@extschema@.bloom, anyelement) IS
	'filter may contain key (bloom_contains)';

CREATE FUNCTION @extschema@.bloom_contains(filter @extschema@.bloom, key text) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_contains(@extschema@.bloom, text) IS
	'false when the text key is certainly absent, true when the filter may contain it';
CREATE OPERATOR @extschema@.@> (
	LEFTARG = @extschema@.bloom, RIGHTARG = text,
	FUNCTION = @extschema@.bloom_contains
);
COMMENT ON OPERATOR @extschema@.@> (@extschema@.bloom, text) IS
	'filter may contain text key (bloom_contains)';

CREATE FUNCTION @extschema@.bloom_add(filter @extschema@.bloom, key anyelement) RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_add(@extschema@.bloom, anyelement) IS
	'copy of the filter with the key added';
CREATE FUNCTION @extschema@.bloom_add(filter @extschema@.bloom, key text) RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_add(@extschema@.bloom, text) IS
	'copy of the filter with the text key added';

CREATE FUNCTION @extschema@.bloom_union(a @extschema@.bloom, b @extschema@.bloom) RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_union(@extschema@.bloom, @extschema@.bloom) IS
	'bitwise OR of two filters of the same hash count, word count and hash order';

CREATE FUNCTION @extschema@.bloom_intersect(a @extschema@.bloom, b @extschema@.bloom) RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_intersect(@extschema@.bloom, @extschema@.bloom) IS
	'bitwise AND of two filters of the same hash count, word count and hash order';

CREATE OPERATOR @extschema@.| (
	LEFTARG = @extschema@.bloom, RIGHTARG = @extschema@.bloom,
	FUNCTION = @extschema@.bloom_union, COMMUTATOR = OPERATOR(@extschema@.|)
);
COMMENT ON OPERATOR @extschema@.| (@extschema@.bloom, @extschema@.bloom) IS 'bloom_union';
CREATE OPERATOR @extschema@.& (
	LEFTARG = @extschema@.bloom, RIGHTARG = @extschema@.bloom,
	FUNCTION = @extschema@.bloom_intersect, COMMUTATOR = OPERATOR(@extschema@.&)
);
COMMENT ON OPERATOR @extschema@.& (@extschema@.bloom, @extschema@.bloom) IS 'bloom_intersect';

------------------------------------------------------------------------------
-- Estimates and inspection
-- C: src/bloom_ops.c
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_fpr(filter @extschema@.bloom) RETURNS float8
	AS 'MODULE_PATHNAME', 'bloom_fpr_fill' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_fpr(@extschema@.bloom) IS
	'false-positive rate estimated from the fill ratio: (bits set / capacity) ^ hash_count';

CREATE FUNCTION @extschema@.bloom_fpr(filter @extschema@.bloom, n bigint) RETURNS float8
	AS 'MODULE_PATHNAME', 'bloom_fpr_n' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_fpr(@extschema@.bloom, bigint) IS
	'theoretical false-positive rate of this filter''s shape holding n distinct keys';

CREATE FUNCTION @extschema@.bloom_cardinality(filter @extschema@.bloom) RETURNS float8
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_cardinality(@extschema@.bloom) IS
	'number of distinct keys estimated from the fill ratio (Infinity when every bit is set)';

CREATE FUNCTION @extschema@.bloom_info(filter @extschema@.bloom,
	OUT hash_order text, OUT hash_count integer, OUT word_count bigint,
	OUT capacity_bits bigint, OUT bits_set bigint, OUT fill_ratio float8,
	OUT estimated_cardinality float8, OUT estimated_fpr float8,
	OUT filter_db_bytes bigint)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_info(@extschema@.bloom) IS
	'shape, fill, estimated cardinality and false-positive rate of a filter';

CREATE FUNCTION @extschema@.bloom_sizing(n bigint, fp_chance float8,
	OUT hash_count integer, OUT buckets_per_element integer, OUT word_count bigint,
	OUT capacity_bits bigint, OUT filter_db_bytes bigint,
	OUT table_fpr float8, OUT expected_fpr float8)
	RETURNS record
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_sizing(bigint, float8) IS
	'the filter Cassandra builds for n keys at fp_chance: hash count, bits per key, words, Filter.db bytes, tabulated and expected false-positive rate';

------------------------------------------------------------------------------
-- Filter.db import and export
-- C: src/bloom_io.c (bloom_import_file is SQL)
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_import(data bytea, sstable_version text DEFAULT 'oa')
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME', 'bloom_import_version' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_import(bytea, text) IS
	'filter from Filter.db bytes written by the given SSTable version (or Filter.db file name)';

CREATE FUNCTION @extschema@.bloom_import(data bytea, payload_layout text, hash_order text)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME', 'bloom_import_layout' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_import(bytea, text, text) IS
	'filter from Filter.db bytes with an explicit payload layout (raw or swapped) and hash order (new or old)';

CREATE FUNCTION @extschema@.bloom_export(filter @extschema@.bloom, sstable_version text DEFAULT 'oa')
	RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_export(@extschema@.bloom, text) IS
	'Filter.db bytes as the given SSTable version writes them';

CREATE FUNCTION @extschema@.bloom_file_version(file_name text) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_file_version(text) IS
	'SSTable version of a Filter.db file name such as nb-1-big-Filter.db or ks-cf-ka-5-Filter.db';

-- Reads through pg_read_binary_file, with its privilege checks, as the caller.
CREATE FUNCTION @extschema@.bloom_import_file(path text) RETURNS @extschema@.bloom
	LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
	AS $$
	SELECT @extschema@.bloom_import(pg_catalog.pg_read_binary_file(path), v)
	FROM @extschema@.bloom_file_version(path) AS v
	$$;
COMMENT ON FUNCTION @extschema@.bloom_import_file(text) IS
	'filter from a Filter.db file on the server, version taken from its name (pg_read_binary_file privileges apply)';

CREATE FUNCTION @extschema@.bloom_from_bytea(bytea) RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_to_bytea(@extschema@.bloom) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_from_bytea(bytea) IS
	'cast: Filter.db bytes in the current (Cassandra 4.0+) layout to bloom';
COMMENT ON FUNCTION @extschema@.bloom_to_bytea(@extschema@.bloom) IS
	'cast: bloom to Filter.db bytes in the current (Cassandra 4.0+) layout';

CREATE CAST (bytea AS @extschema@.bloom) WITH FUNCTION @extschema@.bloom_from_bytea(bytea);
CREATE CAST (@extschema@.bloom AS bytea) WITH FUNCTION @extschema@.bloom_to_bytea(@extschema@.bloom);

------------------------------------------------------------------------------
-- Aggregates
-- C: src/bloom_agg_exact_sql.c (exact mode), src/bloom_agg_sized.c (streaming
-- mode and bloom_union_agg)
------------------------------------------------------------------------------

-- Exact mode: collects the distinct keys' hashes, sizes the filter for
-- their number as Cassandra sizes a flushed SSTable, then sets the bits.
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, anyelement) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, anyelement, float8) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, anyelement, float8, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_combine(internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_serialize(internal) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_deserialize(bytea, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_final(internal) RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE AGGREGATE @extschema@.bloom_agg(anyelement) (
	SFUNC = @extschema@.bloom_agg_exact_trans,
	STYPE = internal,
	SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(anyelement) IS
	'Cassandra filter of the distinct keys at fp_chance 0.01, sized for their number';

CREATE AGGREGATE @extschema@.bloom_agg(anyelement, float8) (
	SFUNC = @extschema@.bloom_agg_exact_trans,
	STYPE = internal,
	SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(anyelement, float8) IS
	'Cassandra filter of the distinct keys at fp_chance, sized for their number';

CREATE AGGREGATE @extschema@.bloom_agg(anyelement, float8, text) (
	SFUNC = @extschema@.bloom_agg_exact_trans,
	STYPE = internal,
	SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(anyelement, float8, text) IS
	'Cassandra filter of the distinct keys at fp_chance in the hash order of sstable_version (old for ia..lb)';

-- Streaming mode: the state is the filter, sized for expected_keys.
CREATE FUNCTION @extschema@.bloom_agg_sized_trans(internal, anyelement, float8, bigint) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_sized_combine(internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_sized_serialize(internal) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_sized_deserialize(bytea, internal) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_sized_final(internal) RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE AGGREGATE @extschema@.bloom_agg(anyelement, float8, bigint) (
	SFUNC = @extschema@.bloom_agg_sized_trans,
	STYPE = internal,
	SSPACE = 1048576,
	COMBINEFUNC = @extschema@.bloom_agg_sized_combine,
	SERIALFUNC = @extschema@.bloom_agg_sized_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_sized_deserialize,
	FINALFUNC = @extschema@.bloom_agg_sized_final,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(anyelement, float8, bigint) IS
	'Cassandra filter sized for expected_keys keys at fp_chance, built as rows stream in';

-- Union of stored filters (all of one shape).
CREATE FUNCTION @extschema@.bloom_union_trans(internal, @extschema@.bloom) RETURNS internal
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_union_final(internal) RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE AGGREGATE @extschema@.bloom_union_agg(@extschema@.bloom) (
	SFUNC = @extschema@.bloom_union_trans,
	STYPE = internal,
	SSPACE = 1048576,
	COMBINEFUNC = @extschema@.bloom_agg_sized_combine,
	SERIALFUNC = @extschema@.bloom_agg_sized_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_sized_deserialize,
	FINALFUNC = @extschema@.bloom_union_final,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_union_agg(@extschema@.bloom) IS
	'union of filters of one shape; NULL for no rows';
