--
-- Security: bloomcass is a trusted extension.  Every function computes on
-- its arguments only, except bloom_import_file, a SQL function that reads
-- through pg_catalog.pg_read_binary_file with the caller's privileges.
-- Nothing runs as SECURITY DEFINER, and every name the install script and
-- the SQL function use is schema-qualified.
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

-- a non-superuser installs it in a database of its own
SELECT current_user AS test_user \gset
CREATE ROLE bloomcass_owner LOGIN;
CREATE DATABASE bloomcass_trusted OWNER bloomcass_owner;
\c bloomcass_trusted bloomcass_owner
SELECT rolsuper FROM pg_roles WHERE rolname = current_user;
CREATE SCHEMA tools;
CREATE EXTENSION bloomcass SCHEMA tools;
SELECT tools.bloom_export(tools.bloom_agg(k)) AS works_for_the_owner
FROM (VALUES ('0'), ('1'), ('2'), ('3'), ('4')) v(k);

-- search_path capture: look-alike pg_read_binary_file and bloom_import in a
-- schema searched before pg_catalog are ignored by bloom_import_file
CREATE SCHEMA trap;
CREATE FUNCTION trap.pg_read_binary_file(text) RETURNS bytea LANGUAGE sql
	AS $$ SELECT '\x0000000500000001ffffffffffffffff'::bytea $$;
CREATE FUNCTION trap.bloom_import(bytea, text) RETURNS tools.bloom LANGUAGE sql
	AS $$ SELECT tools.bloom_create(1) $$;
SET search_path = trap, pg_catalog, tools, public;
SELECT pg_read_binary_file('x') AS the_trap_is_set;
-- still pg_catalog.pg_read_binary_file, which refuses an unprivileged role
SELECT bloom_import_file('/etc/ks-cf-ka-1-Filter.db');
SELECT bloom_import_file('nb-1-big-Filter.db');
RESET search_path;
\c contrib_regression :test_user
DROP DATABASE bloomcass_trusted;
DROP ROLE bloomcass_owner;

-- a role with pg_read_server_files may import by path; others may not
CREATE ROLE bloomcass_reader;
GRANT pg_read_server_files TO bloomcass_reader;
GRANT EXECUTE ON FUNCTION pg_read_binary_file(text) TO bloomcass_reader;
SELECT test_path('real-filters/cassandra-test-data/legacy-nb-legacy_nb_simple/nb-1-big-Filter.db') AS nb_path \gset
SET ROLE bloomcass_reader;
SELECT bloom_export(bloom_import_file(:'nb_path'), 'nb') AS read_with_privilege;
RESET ROLE;
DROP OWNED BY bloomcass_reader;
DROP ROLE bloomcass_reader;
