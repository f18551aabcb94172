/* bloomcass--1.4--1.5.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomcass UPDATE TO '1.5'" to load this file. \quit

------------------------------------------------------------------------------
-- Partition keys as CQL values.  cassandra_sstables lists first_key and
-- last_key, cassandra_sstable_keys every key, as bytes; key_type is the
-- marshal type string of the SSTable's Statistics.db.  These read the bytes
-- as that type's value (the text Cassandra's AbstractType.getString prints,
-- as sstabledump does, blobs with 0x), as JSON, and parse the text back
-- (AbstractType.fromString, as nodetool getsstables and sstabledump -k).
------------------------------------------------------------------------------

-- section: CQL key values (cassandra_key_text, cassandra_key_json,
-- cassandra_key_parse)
-- C: src/bloom_cqlkey.c

CREATE FUNCTION @extschema@.cassandra_key_text(key bytea, key_type text)
	RETURNS text
	AS 'MODULE_PATHNAME', 'cassandra_key_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_key_text(bytea, text) IS
	'a partition key as Cassandra prints it for its key_type (marshal type string): components of a composite joined with :';

CREATE FUNCTION @extschema@.cassandra_key_json(key bytea, key_type text)
	RETURNS jsonb
	AS 'MODULE_PATHNAME', 'cassandra_key_json'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_key_json(bytea, text) IS
	'a partition key for its key_type (marshal type string) as a JSON array of one typed value per component';

CREATE FUNCTION @extschema@.cassandra_key_parse(value text, key_type text)
	RETURNS bytea
	AS 'MODULE_PATHNAME', 'cassandra_key_parse'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cassandra_key_parse(text, text) IS
	'the bytes of a partition key from its text for key_type (marshal type string), the inverse of cassandra_key_text';
