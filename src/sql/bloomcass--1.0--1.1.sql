/* bloomcass--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomcass UPDATE TO '1.1'" to load this file. \quit

------------------------------------------------------------------------------
-- Hash support: bloom values can be grouped, deduplicated (DISTINCT,
-- GROUP BY, UNION) and hash-partitioned.
-- C: src/bloom_io.c
------------------------------------------------------------------------------

CREATE FUNCTION @extschema@.bloom_hash(@extschema@.bloom) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_hash(@extschema@.bloom) IS
	'hash of a filter''s bytes (hash opclass support)';

CREATE FUNCTION @extschema@.bloom_hash_extended(@extschema@.bloom, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_hash_extended(@extschema@.bloom, bigint) IS
	'seeded 64-bit hash of a filter''s bytes (hash opclass support)';

CREATE OPERATOR CLASS @extschema@.bloom_hash_ops
	DEFAULT FOR TYPE @extschema@.bloom USING hash AS
	OPERATOR 1 @extschema@.= (@extschema@.bloom, @extschema@.bloom),
	FUNCTION 1 @extschema@.bloom_hash(@extschema@.bloom),
	FUNCTION 2 @extschema@.bloom_hash_extended(@extschema@.bloom, bigint);
COMMENT ON OPERATOR CLASS @extschema@.bloom_hash_ops USING hash IS
	'hash operator class for bloom equality';
