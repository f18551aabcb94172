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
