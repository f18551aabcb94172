/* bloomcass--1.5--1.6.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomcass UPDATE TO '1.6'" to load this file. \quit

------------------------------------------------------------------------------
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
