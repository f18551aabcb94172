/* bloomcass--1.3--1.4.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION bloomcass UPDATE TO '1.4'" to load this file. \quit

------------------------------------------------------------------------------
-- Aggregates a distributed engine can run where the rows are.  Citus
-- pushes down a custom aggregate only when its state type is a real type
-- (not internal) and checks its argument types against its signature, so:
--
--   * bloom_agg gets one set of aggregates per key type (non-polymorphic);
--     the key type comes from the support function's own signature, and
--     a call bloom_agg(k ...) resolves to the one of k's type;
--   * the streaming bloom_agg(key, fp_chance, expected_keys) and
--     bloom_union_agg(bloom) keep their state as a bloom value (an
--     expanded object in memory, updated in place), which travels as the
--     filter itself.
--
-- The bloom_agg(anyelement ...) aggregates of 1.0 stay, so that views and
-- functions made before 1.4 keep working; new calls resolve to the typed
-- ones (an exact match wins).  bloom_union_agg keeps its identity (views
-- that use it stay), its support functions and state type are replaced.
------------------------------------------------------------------------------

-- section: aggregates with a bloom state (streaming bloom_agg, bloom_union_agg)
-- C: src/bloom_agg_state.c

CREATE FUNCTION @extschema@.bloom_agg_state_combine(@extschema@.bloom, @extschema@.bloom)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_state_final(@extschema@.bloom)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_union_state_trans(@extschema@.bloom, @extschema@.bloom)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_union_state_final(@extschema@.bloom)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- bloom_union_agg(bloom): the same aggregate (its oid, so the views and
-- functions that use it), with a bloom state.  ALTER AGGREGATE cannot
-- change support functions; as contrib's citext 1.5 did, the catalog row
-- is updated, with the aggregate's dependencies on its support functions.
DO $$
DECLARE
	agg oid := '@extschema@.bloom_union_agg(@extschema@.bloom)'::pg_catalog.regprocedure;
	old_fns oid[];
	new_fns oid[] := ARRAY[
		'@extschema@.bloom_union_state_trans(@extschema@.bloom, @extschema@.bloom)'::pg_catalog.regprocedure,
		'@extschema@.bloom_union_state_final(@extschema@.bloom)'::pg_catalog.regprocedure,
		'@extschema@.bloom_agg_state_combine(@extschema@.bloom, @extschema@.bloom)'::pg_catalog.regprocedure]::oid[];
BEGIN
	SELECT ARRAY[aggtransfn, aggfinalfn, aggcombinefn, aggserialfn, aggdeserialfn]::oid[]
	INTO old_fns FROM pg_catalog.pg_aggregate WHERE aggfnoid = agg;
	UPDATE pg_catalog.pg_aggregate
	SET aggtransfn = new_fns[1], aggfinalfn = new_fns[2], aggcombinefn = new_fns[3],
		aggserialfn = 0, aggdeserialfn = 0,
		aggtranstype = '@extschema@.bloom'::pg_catalog.regtype, aggtransspace = 1048576
	WHERE aggfnoid = agg;
	DELETE FROM pg_catalog.pg_depend
	WHERE classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND objid = agg
	  AND refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND refobjid = ANY (old_fns);
	INSERT INTO pg_catalog.pg_depend
		(classid, objid, objsubid, refclassid, refobjid, refobjsubid, deptype)
	SELECT 'pg_catalog.pg_proc'::pg_catalog.regclass, agg, 0,
		   'pg_catalog.pg_proc'::pg_catalog.regclass, f, 0, 'n'
	FROM unnest(new_fns) f;
END $$;
COMMENT ON AGGREGATE @extschema@.bloom_union_agg(@extschema@.bloom) IS
	'union of filters of one shape; NULL for no rows (state: the filter, so distributed engines combine it)';

-- section: typed bloom_agg (one set per key type)
-- C: src/bloom_agg_exact_sql.c (exact mode), src/bloom_agg_state.c (streaming)
-- For each key type bloom_agg takes: the exact mode's three aggregates
-- (state: the key hashes, internal) and the streaming one (state: the
-- filter).  The support functions are the C functions of 1.0 (exact) and
-- of the section above (streaming), declared with the key type, which
-- they read from their own signature.  varchar and domains resolve to
-- their base type's aggregates.

-- bytea
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, bytea) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, bytea, float8) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, bytea, float8, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_state_trans(@extschema@.bloom, bytea, float8, bigint)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME', 'bloom_agg_state_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE @extschema@.bloom_agg(bytea) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(bytea, float8) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(bytea, float8, text) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(bytea, float8, bigint) (
	SFUNC = @extschema@.bloom_agg_state_trans, STYPE = @extschema@.bloom, SSPACE = 1048576,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	FINALFUNC = @extschema@.bloom_agg_state_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.bloom_agg(bytea) IS
	'Cassandra filter of the distinct keys at fp_chance 0.01, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(bytea, float8) IS
	'Cassandra filter of the distinct keys at fp_chance, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(bytea, float8, text) IS
	'Cassandra filter of the distinct keys at fp_chance in the hash order of sstable_version (old for ia..lb)';
COMMENT ON AGGREGATE @extschema@.bloom_agg(bytea, float8, bigint) IS
	'Cassandra filter sized for expected_keys keys at fp_chance, built as rows stream in (state: the filter, so distributed engines combine it)';

-- text
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, text, float8) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, text, float8, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_state_trans(@extschema@.bloom, text, float8, bigint)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME', 'bloom_agg_state_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE @extschema@.bloom_agg(text) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(text, float8) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(text, float8, text) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(text, float8, bigint) (
	SFUNC = @extschema@.bloom_agg_state_trans, STYPE = @extschema@.bloom, SSPACE = 1048576,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	FINALFUNC = @extschema@.bloom_agg_state_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.bloom_agg(text) IS
	'Cassandra filter of the distinct keys at fp_chance 0.01, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(text, float8) IS
	'Cassandra filter of the distinct keys at fp_chance, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(text, float8, text) IS
	'Cassandra filter of the distinct keys at fp_chance in the hash order of sstable_version (old for ia..lb)';
COMMENT ON AGGREGATE @extschema@.bloom_agg(text, float8, bigint) IS
	'Cassandra filter sized for expected_keys keys at fp_chance, built as rows stream in (state: the filter, so distributed engines combine it)';

-- smallint
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, smallint) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, smallint, float8) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, smallint, float8, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_state_trans(@extschema@.bloom, smallint, float8, bigint)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME', 'bloom_agg_state_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE @extschema@.bloom_agg(smallint) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(smallint, float8) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(smallint, float8, text) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(smallint, float8, bigint) (
	SFUNC = @extschema@.bloom_agg_state_trans, STYPE = @extschema@.bloom, SSPACE = 1048576,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	FINALFUNC = @extschema@.bloom_agg_state_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.bloom_agg(smallint) IS
	'Cassandra filter of the distinct keys at fp_chance 0.01, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(smallint, float8) IS
	'Cassandra filter of the distinct keys at fp_chance, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(smallint, float8, text) IS
	'Cassandra filter of the distinct keys at fp_chance in the hash order of sstable_version (old for ia..lb)';
COMMENT ON AGGREGATE @extschema@.bloom_agg(smallint, float8, bigint) IS
	'Cassandra filter sized for expected_keys keys at fp_chance, built as rows stream in (state: the filter, so distributed engines combine it)';

-- integer
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, integer) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, integer, float8) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, integer, float8, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_state_trans(@extschema@.bloom, integer, float8, bigint)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME', 'bloom_agg_state_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE @extschema@.bloom_agg(integer) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(integer, float8) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(integer, float8, text) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(integer, float8, bigint) (
	SFUNC = @extschema@.bloom_agg_state_trans, STYPE = @extschema@.bloom, SSPACE = 1048576,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	FINALFUNC = @extschema@.bloom_agg_state_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.bloom_agg(integer) IS
	'Cassandra filter of the distinct keys at fp_chance 0.01, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(integer, float8) IS
	'Cassandra filter of the distinct keys at fp_chance, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(integer, float8, text) IS
	'Cassandra filter of the distinct keys at fp_chance in the hash order of sstable_version (old for ia..lb)';
COMMENT ON AGGREGATE @extschema@.bloom_agg(integer, float8, bigint) IS
	'Cassandra filter sized for expected_keys keys at fp_chance, built as rows stream in (state: the filter, so distributed engines combine it)';

-- bigint
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, bigint) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, bigint, float8) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, bigint, float8, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_state_trans(@extschema@.bloom, bigint, float8, bigint)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME', 'bloom_agg_state_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE @extschema@.bloom_agg(bigint) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(bigint, float8) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(bigint, float8, text) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(bigint, float8, bigint) (
	SFUNC = @extschema@.bloom_agg_state_trans, STYPE = @extschema@.bloom, SSPACE = 1048576,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	FINALFUNC = @extschema@.bloom_agg_state_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.bloom_agg(bigint) IS
	'Cassandra filter of the distinct keys at fp_chance 0.01, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(bigint, float8) IS
	'Cassandra filter of the distinct keys at fp_chance, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(bigint, float8, text) IS
	'Cassandra filter of the distinct keys at fp_chance in the hash order of sstable_version (old for ia..lb)';
COMMENT ON AGGREGATE @extschema@.bloom_agg(bigint, float8, bigint) IS
	'Cassandra filter sized for expected_keys keys at fp_chance, built as rows stream in (state: the filter, so distributed engines combine it)';

-- real
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, real) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, real, float8) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, real, float8, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_state_trans(@extschema@.bloom, real, float8, bigint)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME', 'bloom_agg_state_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE @extschema@.bloom_agg(real) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(real, float8) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(real, float8, text) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(real, float8, bigint) (
	SFUNC = @extschema@.bloom_agg_state_trans, STYPE = @extschema@.bloom, SSPACE = 1048576,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	FINALFUNC = @extschema@.bloom_agg_state_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.bloom_agg(real) IS
	'Cassandra filter of the distinct keys at fp_chance 0.01, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(real, float8) IS
	'Cassandra filter of the distinct keys at fp_chance, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(real, float8, text) IS
	'Cassandra filter of the distinct keys at fp_chance in the hash order of sstable_version (old for ia..lb)';
COMMENT ON AGGREGATE @extschema@.bloom_agg(real, float8, bigint) IS
	'Cassandra filter sized for expected_keys keys at fp_chance, built as rows stream in (state: the filter, so distributed engines combine it)';

-- double precision
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, double precision) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, double precision, float8) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, double precision, float8, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_state_trans(@extschema@.bloom, double precision, float8, bigint)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME', 'bloom_agg_state_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE @extschema@.bloom_agg(double precision) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(double precision, float8) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(double precision, float8, text) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(double precision, float8, bigint) (
	SFUNC = @extschema@.bloom_agg_state_trans, STYPE = @extschema@.bloom, SSPACE = 1048576,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	FINALFUNC = @extschema@.bloom_agg_state_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.bloom_agg(double precision) IS
	'Cassandra filter of the distinct keys at fp_chance 0.01, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(double precision, float8) IS
	'Cassandra filter of the distinct keys at fp_chance, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(double precision, float8, text) IS
	'Cassandra filter of the distinct keys at fp_chance in the hash order of sstable_version (old for ia..lb)';
COMMENT ON AGGREGATE @extschema@.bloom_agg(double precision, float8, bigint) IS
	'Cassandra filter sized for expected_keys keys at fp_chance, built as rows stream in (state: the filter, so distributed engines combine it)';

-- boolean
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, boolean) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, boolean, float8) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, boolean, float8, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_state_trans(@extschema@.bloom, boolean, float8, bigint)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME', 'bloom_agg_state_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE @extschema@.bloom_agg(boolean) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(boolean, float8) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(boolean, float8, text) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(boolean, float8, bigint) (
	SFUNC = @extschema@.bloom_agg_state_trans, STYPE = @extschema@.bloom, SSPACE = 1048576,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	FINALFUNC = @extschema@.bloom_agg_state_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.bloom_agg(boolean) IS
	'Cassandra filter of the distinct keys at fp_chance 0.01, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(boolean, float8) IS
	'Cassandra filter of the distinct keys at fp_chance, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(boolean, float8, text) IS
	'Cassandra filter of the distinct keys at fp_chance in the hash order of sstable_version (old for ia..lb)';
COMMENT ON AGGREGATE @extschema@.bloom_agg(boolean, float8, bigint) IS
	'Cassandra filter sized for expected_keys keys at fp_chance, built as rows stream in (state: the filter, so distributed engines combine it)';

-- uuid
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, uuid) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, uuid, float8) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, uuid, float8, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_state_trans(@extschema@.bloom, uuid, float8, bigint)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME', 'bloom_agg_state_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE @extschema@.bloom_agg(uuid) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(uuid, float8) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(uuid, float8, text) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(uuid, float8, bigint) (
	SFUNC = @extschema@.bloom_agg_state_trans, STYPE = @extschema@.bloom, SSPACE = 1048576,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	FINALFUNC = @extschema@.bloom_agg_state_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.bloom_agg(uuid) IS
	'Cassandra filter of the distinct keys at fp_chance 0.01, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(uuid, float8) IS
	'Cassandra filter of the distinct keys at fp_chance, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(uuid, float8, text) IS
	'Cassandra filter of the distinct keys at fp_chance in the hash order of sstable_version (old for ia..lb)';
COMMENT ON AGGREGATE @extschema@.bloom_agg(uuid, float8, bigint) IS
	'Cassandra filter sized for expected_keys keys at fp_chance, built as rows stream in (state: the filter, so distributed engines combine it)';

-- timestamp with time zone
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, timestamp with time zone) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, timestamp with time zone, float8) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, timestamp with time zone, float8, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_state_trans(@extschema@.bloom, timestamp with time zone, float8, bigint)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME', 'bloom_agg_state_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE @extschema@.bloom_agg(timestamp with time zone) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(timestamp with time zone, float8) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(timestamp with time zone, float8, text) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(timestamp with time zone, float8, bigint) (
	SFUNC = @extschema@.bloom_agg_state_trans, STYPE = @extschema@.bloom, SSPACE = 1048576,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	FINALFUNC = @extschema@.bloom_agg_state_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.bloom_agg(timestamp with time zone) IS
	'Cassandra filter of the distinct keys at fp_chance 0.01, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(timestamp with time zone, float8) IS
	'Cassandra filter of the distinct keys at fp_chance, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(timestamp with time zone, float8, text) IS
	'Cassandra filter of the distinct keys at fp_chance in the hash order of sstable_version (old for ia..lb)';
COMMENT ON AGGREGATE @extschema@.bloom_agg(timestamp with time zone, float8, bigint) IS
	'Cassandra filter sized for expected_keys keys at fp_chance, built as rows stream in (state: the filter, so distributed engines combine it)';

-- timestamp without time zone
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, timestamp without time zone) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, timestamp without time zone, float8) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, timestamp without time zone, float8, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_state_trans(@extschema@.bloom, timestamp without time zone, float8, bigint)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME', 'bloom_agg_state_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE @extschema@.bloom_agg(timestamp without time zone) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(timestamp without time zone, float8) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(timestamp without time zone, float8, text) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(timestamp without time zone, float8, bigint) (
	SFUNC = @extschema@.bloom_agg_state_trans, STYPE = @extschema@.bloom, SSPACE = 1048576,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	FINALFUNC = @extschema@.bloom_agg_state_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.bloom_agg(timestamp without time zone) IS
	'Cassandra filter of the distinct keys at fp_chance 0.01, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(timestamp without time zone, float8) IS
	'Cassandra filter of the distinct keys at fp_chance, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(timestamp without time zone, float8, text) IS
	'Cassandra filter of the distinct keys at fp_chance in the hash order of sstable_version (old for ia..lb)';
COMMENT ON AGGREGATE @extschema@.bloom_agg(timestamp without time zone, float8, bigint) IS
	'Cassandra filter sized for expected_keys keys at fp_chance, built as rows stream in (state: the filter, so distributed engines combine it)';

-- date
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, date) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, date, float8) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, date, float8, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_state_trans(@extschema@.bloom, date, float8, bigint)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME', 'bloom_agg_state_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE @extschema@.bloom_agg(date) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(date, float8) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(date, float8, text) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(date, float8, bigint) (
	SFUNC = @extschema@.bloom_agg_state_trans, STYPE = @extschema@.bloom, SSPACE = 1048576,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	FINALFUNC = @extschema@.bloom_agg_state_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.bloom_agg(date) IS
	'Cassandra filter of the distinct keys at fp_chance 0.01, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(date, float8) IS
	'Cassandra filter of the distinct keys at fp_chance, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(date, float8, text) IS
	'Cassandra filter of the distinct keys at fp_chance in the hash order of sstable_version (old for ia..lb)';
COMMENT ON AGGREGATE @extschema@.bloom_agg(date, float8, bigint) IS
	'Cassandra filter sized for expected_keys keys at fp_chance, built as rows stream in (state: the filter, so distributed engines combine it)';

-- time without time zone
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, time without time zone) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, time without time zone, float8) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, time without time zone, float8, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_state_trans(@extschema@.bloom, time without time zone, float8, bigint)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME', 'bloom_agg_state_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE @extschema@.bloom_agg(time without time zone) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(time without time zone, float8) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(time without time zone, float8, text) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(time without time zone, float8, bigint) (
	SFUNC = @extschema@.bloom_agg_state_trans, STYPE = @extschema@.bloom, SSPACE = 1048576,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	FINALFUNC = @extschema@.bloom_agg_state_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.bloom_agg(time without time zone) IS
	'Cassandra filter of the distinct keys at fp_chance 0.01, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(time without time zone, float8) IS
	'Cassandra filter of the distinct keys at fp_chance, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(time without time zone, float8, text) IS
	'Cassandra filter of the distinct keys at fp_chance in the hash order of sstable_version (old for ia..lb)';
COMMENT ON AGGREGATE @extschema@.bloom_agg(time without time zone, float8, bigint) IS
	'Cassandra filter sized for expected_keys keys at fp_chance, built as rows stream in (state: the filter, so distributed engines combine it)';

-- inet
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, inet) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, inet, float8) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, inet, float8, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_state_trans(@extschema@.bloom, inet, float8, bigint)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME', 'bloom_agg_state_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE @extschema@.bloom_agg(inet) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(inet, float8) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(inet, float8, text) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(inet, float8, bigint) (
	SFUNC = @extschema@.bloom_agg_state_trans, STYPE = @extschema@.bloom, SSPACE = 1048576,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	FINALFUNC = @extschema@.bloom_agg_state_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.bloom_agg(inet) IS
	'Cassandra filter of the distinct keys at fp_chance 0.01, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(inet, float8) IS
	'Cassandra filter of the distinct keys at fp_chance, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(inet, float8, text) IS
	'Cassandra filter of the distinct keys at fp_chance in the hash order of sstable_version (old for ia..lb)';
COMMENT ON AGGREGATE @extschema@.bloom_agg(inet, float8, bigint) IS
	'Cassandra filter sized for expected_keys keys at fp_chance, built as rows stream in (state: the filter, so distributed engines combine it)';

-- numeric
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, numeric) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, numeric, float8) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_exact_trans(internal, numeric, float8, text) RETURNS internal
	AS 'MODULE_PATHNAME', 'bloom_agg_exact_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION @extschema@.bloom_agg_state_trans(@extschema@.bloom, numeric, float8, bigint)
	RETURNS @extschema@.bloom
	AS 'MODULE_PATHNAME', 'bloom_agg_state_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE @extschema@.bloom_agg(numeric) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(numeric, float8) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(numeric, float8, text) (
	SFUNC = @extschema@.bloom_agg_exact_trans, STYPE = internal, SSPACE = 65536,
	COMBINEFUNC = @extschema@.bloom_agg_exact_combine,
	SERIALFUNC = @extschema@.bloom_agg_exact_serialize,
	DESERIALFUNC = @extschema@.bloom_agg_exact_deserialize,
	FINALFUNC = @extschema@.bloom_agg_exact_final, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.bloom_agg(numeric, float8, bigint) (
	SFUNC = @extschema@.bloom_agg_state_trans, STYPE = @extschema@.bloom, SSPACE = 1048576,
	COMBINEFUNC = @extschema@.bloom_agg_state_combine,
	FINALFUNC = @extschema@.bloom_agg_state_final, PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.bloom_agg(numeric) IS
	'Cassandra filter of the distinct keys at fp_chance 0.01, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(numeric, float8) IS
	'Cassandra filter of the distinct keys at fp_chance, sized for their number';
COMMENT ON AGGREGATE @extschema@.bloom_agg(numeric, float8, text) IS
	'Cassandra filter of the distinct keys at fp_chance in the hash order of sstable_version (old for ia..lb)';
COMMENT ON AGGREGATE @extschema@.bloom_agg(numeric, float8, bigint) IS
	'Cassandra filter sized for expected_keys keys at fp_chance, built as rows stream in (state: the filter, so distributed engines combine it)';
