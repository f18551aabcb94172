--
-- Upgrade path: values stored under the first released version (1.0) are
-- intact after ALTER EXTENSION ... UPDATE, and the new version's features
-- work on them; a fresh install has the same catalog as an upgraded one.
--
SELECT current_user AS test_user, test_path('') AS data_dir \gset

-- The extension's catalog, one row per object it owns, named (no OIDs):
-- functions with their arguments (names, defaults), result, language, C
-- symbol or body, library, volatility, strictness, parallel safety, costs
-- and privileges; aggregates with their support functions; types,
-- operators, operator classes and families (with their members), casts;
-- and the comment of each.  Created in each database compared, from this
-- definition.
CREATE FUNCTION test_catalog(OUT kind text, OUT object text, OUT detail text)
RETURNS SETOF record LANGUAGE sql STABLE AS $$
SELECT 'extension', e.extname::text,
	format('version %s, schema %s, relocatable %s, configuration tables %L',
		e.extversion, e.extnamespace::regnamespace, e.extrelocatable, e.extconfig::regclass[])
FROM pg_extension e WHERE e.extname = 'bloomcass'
UNION ALL
SELECT o.type, o.identity, concat_ws('; ',
	CASE d.classid
	WHEN 'pg_proc'::regclass THEN
		(SELECT format('arguments (%s), result %s, language %s, symbol or body %L, library %s, '
			'volatility %s, strict %s, parallel %s, cost %s, rows %s, returns set %s, '
			'security definer %s, leakproof %s, settings %L, support %s, privileges %L',
			pg_get_function_arguments(p.oid), pg_get_function_result(p.oid), l.lanname,
			p.prosrc, p.probin, p.provolatile, p.proisstrict, p.proparallel, p.procost,
			p.prorows, p.proretset, p.prosecdef, p.proleakproof, p.proconfig,
			p.prosupport::oid::regprocedure, p.proacl)
		 FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.oid = d.objid)
	END,
	CASE d.classid
	WHEN 'pg_proc'::regclass THEN
		(SELECT format('aggregate kind %s, direct arguments %s, transition %s, state %s (%s bytes, '
			'initially %L), final %s (extra %s, modifies %s), combine %s, serialize %s, '
			'deserialize %s, moving transition %s, inverse %s, state %s (%s bytes, initially %L), '
			'final %s (extra %s, modifies %s), sort operator %s',
			a.aggkind, a.aggnumdirectargs, a.aggtransfn::oid::regprocedure, a.aggtranstype::regtype,
			a.aggtransspace, a.agginitval, a.aggfinalfn::oid::regprocedure, a.aggfinalextra,
			a.aggfinalmodify, a.aggcombinefn::oid::regprocedure, a.aggserialfn::oid::regprocedure,
			a.aggdeserialfn::oid::regprocedure, a.aggmtransfn::oid::regprocedure,
			a.aggminvtransfn::oid::regprocedure, a.aggmtranstype::regtype, a.aggmtransspace,
			a.aggminitval, a.aggmfinalfn::oid::regprocedure, a.aggmfinalextra, a.aggmfinalmodify,
			a.aggsortop::regoperator)
		 FROM pg_aggregate a WHERE a.aggfnoid = d.objid)
	WHEN 'pg_type'::regclass THEN
		(SELECT format('type %s, category %s, preferred %s, length %s, by value %s, alignment %s, '
			'storage %s, input %s, output %s, receive %s, send %s, typmod input %s, '
			'typmod output %s, analyze %s, subscript %s, element %s, array %s, delimiter %s, '
			'collation %s, not null %s, default %L, privileges %L',
			t.typtype, t.typcategory, t.typispreferred, t.typlen, t.typbyval, t.typalign,
			t.typstorage, t.typinput::oid::regprocedure, t.typoutput::oid::regprocedure,
			t.typreceive::oid::regprocedure, t.typsend::oid::regprocedure,
			t.typmodin::oid::regprocedure, t.typmodout::oid::regprocedure,
			t.typanalyze::oid::regprocedure, t.typsubscript::oid::regprocedure,
			t.typelem::regtype, t.typarray::regtype, t.typdelim, t.typcollation::regcollation,
			t.typnotnull, t.typdefault, t.typacl)
		 FROM pg_type t WHERE t.oid = d.objid)
	WHEN 'pg_operator'::regclass THEN
		(SELECT format('kind %s, left %s, right %s, result %s, function %s, commutator %s, '
			'negator %s, restrict %s, join %s, merges %s, hashes %s',
			op.oprkind, op.oprleft::regtype, op.oprright::regtype, op.oprresult::regtype,
			op.oprcode::oid::regprocedure, op.oprcom::regoperator, op.oprnegate::regoperator,
			op.oprrest::oid::regprocedure, op.oprjoin::oid::regprocedure, op.oprcanmerge,
			op.oprcanhash)
		 FROM pg_operator op WHERE op.oid = d.objid)
	WHEN 'pg_opclass'::regclass THEN
		(SELECT format('method %s, input %s, default %s, storage %s, family %s',
			am.amname, c.opcintype::regtype, c.opcdefault, c.opckeytype::regtype,
			(pg_identify_object('pg_opfamily'::regclass, c.opcfamily, 0)).identity)
		 FROM pg_opclass c JOIN pg_am am ON am.oid = c.opcmethod WHERE c.oid = d.objid)
	WHEN 'pg_opfamily'::regclass THEN
		(SELECT format('method %s, operators (%s), support functions (%s)', am.amname,
			(SELECT string_agg(format('%s %s for %s (%s)', ao.amopstrategy, ao.amopopr::regoperator,
					ao.amoppurpose, ao.amopsortfamily), ', '
					ORDER BY ao.amopstrategy, ao.amopopr::regoperator::text)
			 FROM pg_amop ao WHERE ao.amopfamily = f.oid),
			(SELECT string_agg(format('%s %s (%s, %s)', ap.amprocnum, ap.amproc::oid::regprocedure,
					ap.amproclefttype::regtype, ap.amprocrighttype::regtype), ', '
					ORDER BY ap.amprocnum, ap.amproc::oid::regprocedure::text)
			 FROM pg_amproc ap WHERE ap.amprocfamily = f.oid))
		 FROM pg_opfamily f JOIN pg_am am ON am.oid = f.opfmethod WHERE f.oid = d.objid)
	WHEN 'pg_cast'::regclass THEN
		(SELECT format('function %s, context %s, method %s',
			c.castfunc::regprocedure, c.castcontext, c.castmethod)
		 FROM pg_cast c WHERE c.oid = d.objid)
	END,
	format('comment %L', (SELECT c.description FROM pg_description c
	                      WHERE c.classoid = d.classid AND c.objoid = d.objid
	                        AND c.objsubid = d.objsubid)))
FROM pg_depend d, pg_identify_object(d.classid, d.objid, d.objsubid) o
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'bloomcass')
$$;
SELECT pg_get_functiondef('test_catalog'::regproc) AS test_catalog_def \gset

-- the catalog as one text array, for the comparisons across databases
CREATE FUNCTION test_catalog_array() RETURNS text[]
LANGUAGE sql STABLE AS $$
	SELECT array_agg(format('%s %s: %s', kind, object, detail) ORDER BY kind, object) FROM test_catalog()
$$;
SELECT pg_get_functiondef('test_catalog_array'::regproc) AS test_catalog_array_def \gset

CREATE DATABASE regress_bloomcass_upgrade;
\c regress_bloomcass_upgrade :test_user
CREATE EXTENSION bloomcass VERSION '1.0';
SELECT extversion FROM pg_extension WHERE extname = 'bloomcass';

CREATE TABLE stored (id int PRIMARY KEY, kind text, f bloom);
INSERT INTO stored VALUES
	(1, 'empty', bloom_create(0)),
	(2, 'aggregated', (SELECT bloom_agg(g) FROM generate_series(1, 10000) g)),
	(3, 'old order (ka)', bloom_import(pg_read_binary_file(:'data_dir' || 'real-filters/cassandra-test-data/bloom-filter-ka/foo-atable-ka-1-Filter.db'), 'ka')),
	(4, 'swapped (mc)', bloom_import_file(:'data_dir' || 'real-filters/cassandra-test-data/legacy-mc-legacy_mc_simple/mc-1-big-Filter.db')),
	(5, '2.5 MB (na)', bloom_import(pg_read_binary_file(:'data_dir' || 'real-filters/cassandra-test-data/serialization-4.0-BloomFilter1000/utils.BloomFilter1000.bin'), 'na')),
	(6, 'old order agg', (SELECT bloom_agg(g, 0.1, 'lb') FROM generate_series(1, 1000) g));
CREATE TABLE before_update AS SELECT id, md5(f::text) AS text_md5, md5(bloom_send(f)) AS binary_md5 FROM stored;

-- 1.0 has no hash support for the type
SELECT count(*) FROM (SELECT DISTINCT f FROM stored) s;

ALTER EXTENSION bloomcass UPDATE TO '1.1';
SELECT extversion FROM pg_extension WHERE extname = 'bloomcass';

SELECT s.id, s.kind, md5(s.f::text) = b.text_md5 AND md5(bloom_send(s.f)) = b.binary_md5 AS intact,
       (bloom_info(s.f)).hash_order, (bloom_info(s.f)).bits_set
FROM stored s JOIN before_update b USING (id) ORDER BY s.id;
SELECT bool_and(f @> g) AS keys_still_present FROM stored, generate_series(1, 10000) g WHERE id = 2;

-- 1.1: hash support (DISTINCT, GROUP BY, hash partitioning)
INSERT INTO stored SELECT id + 100, kind, f FROM stored;
SELECT count(*) AS distinct_filters FROM (SELECT DISTINCT f FROM stored) s;
SELECT kind, count(*) FROM stored GROUP BY kind, f ORDER BY kind;
CREATE TABLE parted (f bloom) PARTITION BY HASH (f);
CREATE TABLE parted_0 PARTITION OF parted FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE parted_1 PARTITION OF parted FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO parted SELECT f FROM stored;
SELECT count(*) AS partitioned_rows FROM parted;

-- 1.2: the rest of the SSTable; stored values stay intact
ALTER EXTENSION bloomcass UPDATE TO '1.2';
SELECT extversion FROM pg_extension WHERE extname = 'bloomcass';
SELECT p.proname AS added_in_1_2
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'bloomcass')
  AND p.proname IN ('cassandra_sstables', 'cassandra_sstable_keys', 'cassandra_statistics',
                    'cassandra_summary', 'cassandra_index_keys', 'bloom_health')
ORDER BY 1;
SELECT s.id, s.kind, md5(s.f::text) = b.text_md5 AND md5(bloom_send(s.f)) = b.binary_md5 AS intact
FROM stored s JOIN before_update b USING (id) ORDER BY s.id;
-- a stored filter is the one the listing reads from its file
SET client_min_messages = error;
SELECT s.f = l.filter AS stored_equals_listed
FROM stored s, cassandra_sstables(:'data_dir' || 'sstables/cassandra/legacy-sstables/mc/legacy_tables/legacy_mc_simple') l
WHERE s.id = 4;
RESET client_min_messages;

-- 1.3: exact key lookups; stored values stay intact
ALTER EXTENSION bloomcass UPDATE TO '1.3';
SELECT extversion FROM pg_extension WHERE extname = 'bloomcass';
SELECT p.proname AS added_in_1_3
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'bloomcass')
  AND p.proname IN ('cassandra_sstable_has_key')
ORDER BY 1;
SELECT s.id, s.kind, md5(s.f::text) = b.text_md5 AND md5(bloom_send(s.f)) = b.binary_md5 AS intact
FROM stored s JOIN before_update b USING (id) ORDER BY s.id;

-- 1.4: typed bloom_agg and bloom states (for distributed engines).  Views
-- made before, over bloom_agg(anyelement ...) and bloom_union_agg, stay and
-- give the same bytes; new calls resolve to the typed aggregates
CREATE TABLE agg_keys AS SELECT 'k' || g AS k, g AS n FROM generate_series(1, 5000) g;
CREATE VIEW agg_views AS
SELECT bloom_agg(k) AS exact_text, bloom_agg(n, 0.001) AS exact_int,
       bloom_agg(k, 0.01, 10000::bigint) AS streamed,
       (SELECT bloom_union_agg(f) FROM stored WHERE id IN (2, 102)) AS unioned
FROM agg_keys;
CREATE TABLE agg_before AS SELECT * FROM agg_views;
SELECT DISTINCT p.oid::regprocedure::text AS aggregates_the_view_uses
FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid AND d.classid = 'pg_rewrite'::regclass
JOIN pg_proc p ON p.oid = d.refobjid AND d.refclassid = 'pg_proc'::regclass
WHERE r.ev_class = 'agg_views'::regclass AND p.prokind = 'a' ORDER BY 1;
ALTER EXTENSION bloomcass UPDATE TO '1.4';
SELECT extversion FROM pg_extension WHERE extname = 'bloomcass';
SELECT v.exact_text = b.exact_text AS exact_text_same, v.exact_int = b.exact_int AS exact_int_same,
       v.streamed = b.streamed AS streamed_same, v.unioned = b.unioned AS unioned_same
FROM agg_views v, agg_before b;
-- the same queries written anew: the typed aggregates, the same bytes
CREATE VIEW agg_views_new AS
SELECT bloom_agg(k) AS exact_text, bloom_agg(n, 0.001) AS exact_int,
       bloom_agg(k, 0.01, 10000::bigint) AS streamed,
       (SELECT bloom_union_agg(f) FROM stored WHERE id IN (2, 102)) AS unioned
FROM agg_keys;
SELECT DISTINCT p.oid::regprocedure::text AS aggregates_new_views_use
FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid AND d.classid = 'pg_rewrite'::regclass
JOIN pg_proc p ON p.oid = d.refobjid AND d.refclassid = 'pg_proc'::regclass
WHERE r.ev_class = 'agg_views_new'::regclass AND p.prokind = 'a' ORDER BY 1;
SELECT v.exact_text = b.exact_text AS exact_text_same, v.exact_int = b.exact_int AS exact_int_same,
       v.streamed = b.streamed AS streamed_same, v.unioned = b.unioned AS unioned_same
FROM agg_views_new v, agg_before b;
SELECT s.id, s.kind, md5(s.f::text) = b.text_md5 AND md5(bloom_send(s.f)) = b.binary_md5 AS intact
FROM stored s JOIN before_update b USING (id) ORDER BY s.id;
DROP VIEW agg_views, agg_views_new;
DROP TABLE agg_keys, agg_before;

-- 1.5: partition keys as CQL values; stored values stay intact
ALTER EXTENSION bloomcass UPDATE TO '1.5';
SELECT extversion FROM pg_extension WHERE extname = 'bloomcass';
SELECT p.proname AS added_in_1_5
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'bloomcass')
  AND p.proname IN ('cassandra_key_text', 'cassandra_key_json', 'cassandra_key_parse')
ORDER BY 1;
SELECT cassandra_key_text(cassandra_key_parse('acme:7', 'CompositeType(UTF8Type,Int32Type)'),
                          'CompositeType(UTF8Type,Int32Type)') AS composite_key_text;
SELECT s.id, s.kind, md5(s.f::text) = b.text_md5 AND md5(bloom_send(s.f)) = b.binary_md5 AS intact
FROM stored s JOIN before_update b USING (id) ORDER BY s.id;

-- 1.6: bloom_import_file, a SQL function until 1.5, is a C function (the
-- same function: a view over it gives the same filter); stored values stay
-- intact
CREATE VIEW import_view AS
SELECT bloom_import_file(:'data_dir' || 'real-filters/cassandra-test-data/legacy-nb-legacy_nb_simple/nb-1-big-Filter.db') AS f;
CREATE TABLE import_before AS SELECT md5(bloom_send(f)) AS binary_md5 FROM import_view;
-- cassandra_sstables gains columns (dropped and created again): a view over
-- it stops the update, naming it; without it the update goes through, and
-- the columns of 1.5 keep their names and order
CREATE VIEW sstables_view AS
SELECT keyspace, table_name, partitions FROM cassandra_sstables(:'data_dir' || 'sstables/cassandra/legacy-sstables/mc/legacy_tables/legacy_mc_simple');
-- the error and its HINT; its CONTEXT differs by major (18 adds the
-- statement and the script's line)
\set SHOW_CONTEXT never
ALTER EXTENSION bloomcass UPDATE TO '1.6';
\set SHOW_CONTEXT errors
SELECT extversion FROM pg_extension WHERE extname = 'bloomcass';
DROP VIEW sstables_view;
ALTER EXTENSION bloomcass UPDATE TO '1.6';
SELECT extversion FROM pg_extension WHERE extname = 'bloomcass';
SELECT p.proargnames[4:] AS sstables_columns, p.pronargs
FROM pg_proc p WHERE p.oid = 'cassandra_sstables(text, boolean, boolean)'::regprocedure;
SET client_min_messages = error;
SELECT keyspace, table_name, partitions, repaired_at, sstable_level, min_ttl, max_local_deletion_time
FROM cassandra_sstables(:'data_dir' || 'sstables/cassandra/legacy-sstables/mc/legacy_tables/legacy_mc_simple');
RESET client_min_messages;
SELECT 'cassandra_sstable_partitions(text)'::regprocedure;
SELECT 'bloom_contains_each(bloom, anyarray)'::regprocedure;
SELECT 'bloom_contains(bloom, "any", text)'::regprocedure, 'bloom_contains_each(bloom, anyarray, text)'::regprocedure;
SELECT 'bloom_may_contain(bloom, anyarray)'::regprocedure, 'bloom_may_contain(bloom, anyarray, text)'::regprocedure;
SELECT 'cassandra_metadata(bytea, text)'::regprocedure, 'cassandra_sstable_metadata(text)'::regprocedure,
       'cassandra_metadata_histograms(bytea, text)'::regprocedure,
       'cassandra_droppable_tombstones(bytea, text, bigint)'::regprocedure;
SELECT l.lanname AS bloom_import_file_language
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.oid = 'bloom_import_file(text)'::regprocedure;
SELECT md5(bloom_send(v.f)) = b.binary_md5 AS view_over_import_same FROM import_view v, import_before b;
DROP VIEW import_view;
DROP TABLE import_before;
SELECT s.id, s.kind, md5(s.f::text) = b.text_md5 AND md5(bloom_send(s.f)) = b.binary_md5 AS intact
FROM stored s JOIN before_update b USING (id) ORDER BY s.id;

-- this catalog, upgraded step by step from 1.0, for the comparison below
\set ECHO none
SELECT :'test_catalog_def', :'test_catalog_array_def' \gexec
\set ECHO all
SELECT test_catalog_array() AS upgraded_catalog \gset

\c contrib_regression :test_user
DROP DATABASE regress_bloomcass_upgrade;

-- A fresh install (CREATE EXTENSION at the default version) has exactly the
-- catalog of the install upgraded step by step above, and of 01_setup's
-- (1.0, then one ALTER EXTENSION UPDATE) that the other tests use.  Rows
-- one side has and the other has not are printed, the two rows of an
-- object that differs next to each other (expected: none).
CREATE DATABASE regress_bloomcass_fresh;
\c regress_bloomcass_fresh :test_user
CREATE EXTENSION bloomcass;
\set ECHO none
SELECT :'test_catalog_def', :'test_catalog_array_def' \gexec
\set ECHO all
-- what is compared (the array type bloom[] is left out of the count: it is
-- a member of the extension from PostgreSQL 17 on)
SELECT kind, count(*) AS objects FROM test_catalog() WHERE object NOT LIKE '%[]'
GROUP BY kind ORDER BY kind;
SELECT test_catalog_array() AS fresh_catalog \gset
SELECT 'fresh' AS only_in, o AS object
FROM (SELECT unnest(:'fresh_catalog'::text[]) EXCEPT SELECT unnest(:'upgraded_catalog'::text[])) s(o)
UNION ALL
SELECT 'upgraded step by step', o
FROM (SELECT unnest(:'upgraded_catalog'::text[]) EXCEPT SELECT unnest(:'fresh_catalog'::text[])) s(o)
ORDER BY object, only_in;

\c contrib_regression :test_user
DROP DATABASE regress_bloomcass_fresh;
SELECT 'fresh' AS only_in, o AS object
FROM (SELECT unnest(:'fresh_catalog'::text[]) EXCEPT SELECT unnest(test_catalog_array())) s(o)
UNION ALL
SELECT 'upgraded by 01_setup', o
FROM (SELECT unnest(test_catalog_array()) EXCEPT SELECT unnest(:'fresh_catalog'::text[])) s(o)
ORDER BY object, only_in;

-- the same hash support on the catalog 01_setup upgraded
SELECT count(*) AS distinct_filters FROM (SELECT DISTINCT f FROM (VALUES (bloom_create(1)), (bloom_create(1)), (bloom_create(100))) v(f)) s;
