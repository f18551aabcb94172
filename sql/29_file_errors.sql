--
-- Every failure of a system call on a file or folder has its SQLSTATE
-- (bloom_file_errcode, src/bloom_file_errors.c), never XX000: in the
-- readers (cassandra_sstable_keys, _has_key, _partitions), in
-- bloom_import_file and in cassandra_sstables, its ERRORs and the
-- WARNINGs of its listing.  The failures are real where a file can be made
-- to give them (test/make-hostile.sh, section "errno"): a component that is
-- a link to itself (ELOOP, before: XX000), a path past PATH_MAX or a name
-- past NAME_MAX (ENAMETOOLONG, before: XX000), a file used as a folder
-- (ENOTDIR), a folder the server may not enter (EACCES), a path to nothing
-- (ENOENT), a folder given as a file (EISDIR).  The others (EIO,
-- EOVERFLOW, ...) go through the same table, raised by the test entry
-- point bloom_file_error_test.
--
CREATE ROLE regress_bloomcass_file_errors;
GRANT pg_read_server_files TO regress_bloomcass_file_errors;
GRANT EXECUTE ON FUNCTION pg_read_binary_file(text) TO regress_bloomcass_file_errors;
SELECT test_path('hostile/errno') AS e, test_path('') AS root,
       test_path('sstables/cassandra/legacy-sstables/nb/legacy_tables/legacy_nb_simple/nb-1-big') AS nb,
       repeat('d', 255) AS d255 \gset
SET ROLE regress_bloomcass_file_errors;

------------------------------------------------------------------------------
-- The readers and bloom_import_file: each path, each function (in the
-- messages, D stands for a name of 255 d's, X for one of 256 x's)
------------------------------------------------------------------------------
SELECT p.errno, c.call,
       replace(replace(test_try(format(c.q, p.path), :'root'), :'d255', 'D'), repeat('x', 256), 'X') AS error
FROM (VALUES
	('ELOOP', :'e' || '/loop/nb-1-big'),
	('ENAMETOOLONG (a name)', :'e' || '/' || repeat('x', 256) || '/nb-1-big'),
	('ENAMETOOLONG (the path)', :'e' || '/deep' || repeat('/' || :'d255', 17) || '/nb-1-big'),
	('ENOTDIR', :'nb' || '-Data.db/nb-1-big'),
	('EACCES', :'e' || '/noaccess/nb-1-big'),
	('ENOENT', :'e' || '/missing/nb-1-big'))
	AS p(errno, path),
     (VALUES
	(1, 'keys', 'SELECT count(*)::text FROM cassandra_sstable_keys(%L)'),
	(2, 'has_key', 'SELECT cassandra_sstable_has_key(%L, ''\x0000''::bytea)::text'),
	(3, 'partitions', 'SELECT count(*)::text FROM cassandra_sstable_partitions(%L)'),
	(4, 'bloom_import_file', 'SELECT (bloom_import_file(%L || ''-Filter.db'') IS NOT NULL)::text'))
	AS c(n, call, q)
ORDER BY p.errno, c.n;
-- a folder given as the file (EISDIR)
SELECT test_try(format('SELECT (bloom_import_file(%L) IS NOT NULL)::text',
                       :'root' || 'hostile/import/folder/nb-1-big-Filter.db'), :'root') AS eisdir;

------------------------------------------------------------------------------
-- cassandra_sstables: the folder to list, an ERROR; inside it, WARNINGs
------------------------------------------------------------------------------
SELECT p.errno,
       replace(replace(test_try(format('SELECT count(*)::text FROM cassandra_sstables(%L)', p.path),
                                :'root'), :'d255', 'D'), repeat('x', 256), 'X') AS error
FROM (VALUES
	('ELOOP', :'e' || '/self'),
	('ENAMETOOLONG (a name)', :'e' || '/' || repeat('x', 256)),
	('ENAMETOOLONG (the path)', :'e' || '/deep' || repeat('/' || :'d255', 17)),
	('ENOTDIR', :'nb' || '-Data.db/x'),
	('EACCES', :'e' || '/noaccess'),
	('ENOENT', :'e' || '/missing'))
	AS p(errno, path)
ORDER BY 1;
-- a permission the operating system refuses says who reads the files:
-- the server's operating-system user (its name, which differs between
-- servers, shown as USER), in a HINT; no other errno has one
SELECT set_config('test.e', :'e', false) AS test_e \gset
DO $$
DECLARE
	hint text;
	st text;
	p text;
BEGIN
	FOREACH p IN ARRAY ARRAY['noaccess', 'missing'] LOOP
		BEGIN
			PERFORM count(*) FROM cassandra_sstables(current_setting('test.e') || '/' || p);
		EXCEPTION WHEN OTHERS THEN
			GET STACKED DIAGNOSTICS hint = PG_EXCEPTION_HINT, st = RETURNED_SQLSTATE;
			RAISE NOTICE '%: %: %', p, st,
				coalesce(nullif(regexp_replace(hint, 'user "[^"]*"', 'user USER'), ''), '(no hint)');
		END;
	END LOOP;
END $$;
-- the listing of errno/: each component of loop/ a link to itself, the
-- link self, noaccess/ and the folder of deep/ past PATH_MAX each skipped
-- with a WARNING; their messages, then their SQLSTATEs
\set VERBOSITY terse
SELECT count(*) AS listed FROM cassandra_sstables(:'e');
\set VERBOSITY sqlstate
SELECT count(*) AS listed FROM cassandra_sstables(:'e');
\set VERBOSITY default
-- a Filter.db, a Statistics.db and a transaction log the server may not
-- read (EACCES at open): the SSTable listed without what they give, each
-- with a WARNING of its SQLSTATE (before: 22000, data_exception)
\set VERBOSITY terse
SELECT regexp_replace(path, '^.*/hostile/', '') AS sstable, filter IS NULL AS no_filter,
       partitioner IS NULL AS no_statistics, first_key IS NOT NULL AS key_range
FROM cassandra_sstables(:'root' || 'hostile/unreadable');
\set VERBOSITY sqlstate
SELECT count(*) AS listed FROM cassandra_sstables(:'root' || 'hostile/unreadable');
\set VERBOSITY default

------------------------------------------------------------------------------
-- The errnos no file here can be made to give: the same table, through
-- the test entry point (an errno by name, or by a number not in the table)
------------------------------------------------------------------------------
RESET ROLE;
CREATE FUNCTION bloom_file_error_test(text) RETURNS void
	AS '$libdir/bloomcass', 'bloom_file_error_test' LANGUAGE C STRICT;
SELECT e AS errno, test_try(format('SELECT bloom_file_error_test(%L)::text', e), '') AS error
FROM unnest(ARRAY['EPERM', 'EACCES', 'EROFS', 'ENOENT', 'EEXIST', 'ENOTDIR', 'EISDIR',
                  'ENOTEMPTY', 'ENOSPC', 'ENOMEM', 'ENFILE', 'EMFILE', 'EIO', 'ENAMETOOLONG',
                  'ELOOP', 'ENXIO', 'ENODEV', 'EOVERFLOW', 'EFBIG', 'EWOULDBLOCK', 'EBUSY',
                  'ETXTBSY', 'ESTALE', 'EUCLEAN', 'EDQUOT', 'EINVAL', 'EINTR', 'EBADF',
                  'EFAULT', 'ESPIPE', 'ENOTCONN', '4095']) WITH ORDINALITY AS u(e, n)
ORDER BY n;
DROP FUNCTION bloom_file_error_test(text);

DROP OWNED BY regress_bloomcass_file_errors;
DROP ROLE regress_bloomcass_file_errors;
