--
-- Security: bloomcass is a trusted extension.  Every function computes on
-- its arguments only, except those that read server files
-- (bloom_import_file, cassandra_sstables, ...), which decide exactly as
-- pg_catalog.pg_read_binary_file(text) does for the calling role.  Nothing
-- runs as SECURITY DEFINER, and every name the install scripts use is
-- schema-qualified.
--
SELECT count(*) AS security_definer_functions
FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
JOIN pg_extension e ON d.refclassid = 'pg_extension'::regclass AND d.refobjid = e.oid
WHERE e.extname = 'bloomcass' AND p.prosecdef;

SELECT count(*) FILTER (WHERE provolatile = 'i') AS immutable, count(*) FILTER (WHERE provolatile = 'v') AS volatile,
       count(*) FILTER (WHERE proparallel = 's') AS parallel_safe, count(*) AS functions
FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
JOIN pg_extension e ON d.refclassid = 'pg_extension'::regclass AND d.refobjid = e.oid
WHERE e.extname = 'bloomcass';
SELECT p.oid::regprocedure AS volatile_function
FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
JOIN pg_extension e ON d.refclassid = 'pg_extension'::regclass AND d.refobjid = e.oid
WHERE e.extname = 'bloomcass' AND p.provolatile <> 'i';

-- a non-superuser installs it in a database of its own (the test's role
-- connects to it, then becomes the owner: no second login, so that the
-- test runs on a server with peer authentication too)
SELECT current_database() AS test_db \gset
CREATE ROLE regress_bloomcass_owner;
CREATE DATABASE regress_bloomcass_trusted OWNER regress_bloomcass_owner;
\c regress_bloomcass_trusted
SET SESSION AUTHORIZATION regress_bloomcass_owner;
SELECT rolsuper FROM pg_roles WHERE rolname = current_user;
CREATE SCHEMA tools;
CREATE EXTENSION bloomcass SCHEMA tools;
SELECT tools.bloom_export(tools.bloom_agg(k)) AS works_for_the_owner
FROM (VALUES ('0'), ('1'), ('2'), ('3'), ('4')) v(k);

-- search_path capture: look-alike pg_read_binary_file and bloom_import in a
-- schema searched before pg_catalog are ignored by bloom_import_file (a SQL
-- function over them up to 1.5)
CREATE SCHEMA trap;
CREATE FUNCTION trap.pg_read_binary_file(text) RETURNS bytea LANGUAGE sql
	AS $$ SELECT '\x0000000500000001ffffffffffffffff'::bytea $$;
CREATE FUNCTION trap.bloom_import(bytea, text) RETURNS tools.bloom LANGUAGE sql
	AS $$ SELECT tools.bloom_create(1) $$;
SET search_path = trap, pg_catalog, tools, public;
SELECT pg_read_binary_file('x') AS the_trap_is_set;
-- still pg_catalog.pg_read_binary_file's privileges, which refuse this role
SELECT bloom_import_file('/etc/ks-cf-ka-1-Filter.db');
SELECT bloom_import_file('nb-1-big-Filter.db');
RESET search_path;
RESET SESSION AUTHORIZATION;
\c :test_db
DROP DATABASE regress_bloomcass_trusted;
DROP ROLE regress_bloomcass_owner;

-- a role with pg_read_server_files may import by path; others may not
CREATE ROLE regress_bloomcass_reader;
GRANT pg_read_server_files TO regress_bloomcass_reader;
GRANT EXECUTE ON FUNCTION pg_read_binary_file(text) TO regress_bloomcass_reader;
SELECT test_path('real-filters/cassandra-test-data/legacy-nb-legacy_nb_simple/nb-1-big-Filter.db') AS nb_path \gset
SET ROLE regress_bloomcass_reader;
SELECT bloom_export(bloom_import_file(:'nb_path'), 'nb') AS read_with_privilege;
RESET ROLE;
DROP OWNED BY regress_bloomcass_reader;
DROP ROLE regress_bloomcass_reader;

--
-- Version 1.2 reads server files itself (cassandra_sstables and the
-- functions that read an SSTable's components).  For every role and path it
-- must decide exactly as pg_read_binary_file(text) does: EXECUTE on that
-- function first, then its path rule (any path for pg_read_server_files,
-- else only below the data directory or the log directory).
--
CREATE ROLE regress_bloomcass_noexec;		-- neither EXECUTE nor pg_read_server_files
CREATE ROLE regress_bloomcass_exec;		-- EXECUTE only
GRANT EXECUTE ON FUNCTION pg_read_binary_file(text) TO regress_bloomcass_exec;
CREATE ROLE regress_bloomcass_files;		-- pg_read_server_files only
GRANT pg_read_server_files TO regress_bloomcass_files;
CREATE ROLE regress_bloomcass_both;		-- both
GRANT pg_read_server_files TO regress_bloomcass_both;
GRANT EXECUTE ON FUNCTION pg_read_binary_file(text) TO regress_bloomcass_both;

-- the privilege decision a query meets: 'allowed' unless it fails with
-- insufficient_privilege (42501), then the message
CREATE FUNCTION privilege_of(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE query;
	RETURN 'allowed';
EXCEPTION
	WHEN insufficient_privilege THEN RETURN SQLERRM;
	WHEN OTHERS THEN RETURN 'allowed';
END $$;
GRANT EXECUTE ON FUNCTION privilege_of(text) TO PUBLIC;

-- directories (paths of the same place for pg_read_binary_file and the
-- listing), outside and inside the data directory, absolute and relative
CREATE TABLE probe_paths (label text, path text);
INSERT INTO probe_paths VALUES
	('a table folder of the reference data (absolute)', test_path('node/data/ks/table1-ea3b3e6b-0d78-4913-89f2-15fcf98711d0')),
	('a missing folder outside the data directory (absolute)', '/nonexistent-bloomcass-folder'),
	('pg_wal in the data directory (absolute)', current_setting('data_directory') || '/pg_wal/archive_status'),
	('pg_wal in the data directory (relative)', 'pg_wal/archive_status'),
	('the same, through .. (relative)', 'base/../pg_wal/archive_status'),
	('above the data directory (relative)', '../nonexistent-bloomcass-folder'),
	('above it, through base (relative)', 'base/../../nonexistent-bloomcass-folder');
GRANT SELECT ON probe_paths TO PUBLIC;

CREATE TABLE probe_results (role text, label text, pg_read_binary_file text, cassandra_sstables text,
	cassandra_sstable_keys text, cassandra_sstable_has_key text, bloom_import_file text);
GRANT INSERT ON probe_results TO PUBLIC;
DO $$
DECLARE
	r text;
	p record;
BEGIN
	FOREACH r IN ARRAY ARRAY['regress_bloomcass_noexec', 'regress_bloomcass_exec', 'regress_bloomcass_files', 'regress_bloomcass_both'] LOOP
		EXECUTE format('SET LOCAL ROLE %I', r);
		FOR p IN SELECT * FROM probe_paths LOOP
			INSERT INTO probe_results VALUES (r, p.label,
				privilege_of(format('SELECT pg_catalog.pg_read_binary_file(%L)', p.path)),
				privilege_of(format('SELECT count(*) FROM cassandra_sstables(%L)', p.path)),
				privilege_of(format('SELECT count(*) FROM cassandra_sstable_keys(%L)', p.path || '/nb-1-big')),
				privilege_of(format('SELECT cassandra_sstable_has_key(%L, ''\x00''::bytea)', p.path || '/nb-1-big')),
				privilege_of(format('SELECT bloom_import_file(%L)', p.path || '/nb-1-big-Filter.db')));
		END LOOP;
		RESET ROLE;
	END LOOP;
END $$;
-- (PostgreSQL 15 says "current directory" where later versions say "data
-- directory"; the comparison is with the raw messages)
SELECT role, label, replace(cassandra_sstables, 'current directory', 'data directory') AS cassandra_sstables,
       cassandra_sstables = pg_read_binary_file AND cassandra_sstable_keys = pg_read_binary_file
       AND cassandra_sstable_has_key = pg_read_binary_file AND bloom_import_file = pg_read_binary_file
       AS same_decision
FROM probe_results ORDER BY role, label;
SELECT count(*) AS probes, count(*) FILTER (WHERE cassandra_sstables = pg_read_binary_file) AS same_for_listing,
       count(*) FILTER (WHERE cassandra_sstable_keys = pg_read_binary_file) AS same_for_keys,
       count(*) FILTER (WHERE cassandra_sstable_has_key = pg_read_binary_file) AS same_for_lookups,
       count(*) FILTER (WHERE bloom_import_file = pg_read_binary_file) AS same_for_import
FROM probe_results;
SELECT role, label, pg_read_binary_file, cassandra_sstables, cassandra_sstable_keys, cassandra_sstable_has_key,
       bloom_import_file
FROM probe_results
WHERE cassandra_sstables IS DISTINCT FROM pg_read_binary_file
   OR cassandra_sstable_keys IS DISTINCT FROM pg_read_binary_file
   OR cassandra_sstable_has_key IS DISTINCT FROM pg_read_binary_file
   OR bloom_import_file IS DISTINCT FROM pg_read_binary_file;

-- a refusal names both grants in its HINT: a role with neither, with
-- pg_read_server_files alone (no EXECUTE: refused for every path), with
-- EXECUTE alone (refused outside the data and log directories); with both
-- the file is read
SET ROLE regress_bloomcass_noexec;
SELECT bloom_import_file(:'nb_path');
SET ROLE regress_bloomcass_files;
SELECT bloom_import_file(:'nb_path');
SELECT count(*) FROM cassandra_sstables('pg_wal');
SET ROLE regress_bloomcass_exec;
SELECT bloom_import_file(:'nb_path');
SELECT cassandra_sstable_has_key(:'nb_path', '\x00'::bytea);
SET ROLE regress_bloomcass_both;
SELECT bloom_export(bloom_import_file(:'nb_path'), 'nb') = pg_read_binary_file(:'nb_path')
       AS read_with_both_grants;
RESET ROLE;

-- a role that may read the files gets the same listing as the superuser
SELECT test_path('node/data') AS node_data \gset
SET client_min_messages = error;
SET ROLE regress_bloomcass_both;
SELECT count(*) AS listed_by_a_reader, count(filter) AS with_filter
FROM cassandra_sstables(:'node_data');
SELECT count(*) AS keys_read_by_a_reader
FROM cassandra_sstable_keys(:'node_data' || '/ks/table1-ea3b3e6b-0d78-4913-89f2-15fcf98711d0/na-1-big');
RESET ROLE;
RESET client_min_messages;

DROP TABLE probe_results, probe_paths;
DROP FUNCTION privilege_of(text);
DROP OWNED BY regress_bloomcass_noexec, regress_bloomcass_exec, regress_bloomcass_files, regress_bloomcass_both;
DROP ROLE regress_bloomcass_noexec, regress_bloomcass_exec, regress_bloomcass_files, regress_bloomcass_both;
