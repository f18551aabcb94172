--
-- A folder below the data directory that is, or holds, a symbolic link
-- leading outside it, read by a role with EXECUTE on pg_read_binary_file and
-- not the privileges of pg_read_server_files.  pg_read_binary_file decides
-- on the path as given, without resolving links: a relative path that stays
-- below the data directory is allowed, whatever its links lead to.  Every
-- function of bloomcass decides the same for the same path: the listing
-- checks the folder given, and reads what it reaches below it (by the
-- files' real paths, which it reports; before, each of those was checked
-- again, and a link leading outside made the whole listing a 42501 ERROR,
-- "absolute path not allowed").  A real path outside, given back, is
-- refused as pg_read_binary_file refuses it.
--
-- The link, regress_bloomcass_link in the data directory, leads to the
-- copies of test/make-hostile.sh (section "identity": a node's data folder
-- whose ks2 is itself a link to another folder); it is made and removed
-- here by the server's user (COPY TO PROGRAM, as the superuser).
--
SELECT format('ln -sfn %s %s', quote_literal(test_path('hostile/identity/data')),
              quote_literal(current_setting('data_directory') || '/regress_bloomcass_link')) AS make_link,
       format('rm -f %s', quote_literal(current_setting('data_directory') || '/regress_bloomcass_link')) AS remove_link,
       current_setting('data_directory') AS datadir \gset
COPY (SELECT 1) TO PROGRAM :'make_link';

CREATE ROLE regress_bloomcass_links;		-- EXECUTE only
GRANT EXECUTE ON FUNCTION pg_read_binary_file(text) TO regress_bloomcass_links;
CREATE FUNCTION links_try(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	r text;
BEGIN
	EXECUTE q INTO r;
	RETURN r;
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || regexp_replace(SQLERRM, '"/[^"]*/hostile/', '".../hostile/');
END $$;
GRANT EXECUTE ON FUNCTION links_try(text) TO regress_bloomcass_links;
SELECT path AS real_prefix FROM cassandra_sstables(:'datadir' || '/regress_bloomcass_link/ks2') \gset
SET ROLE regress_bloomcass_links;

-- the SSTables of the linked folder, by a relative and by an absolute
-- path below the data directory: each by the real path of its folder
SELECT regexp_replace(path, '^.*/hostile/', '') AS sstable, partitions
FROM cassandra_sstables('regress_bloomcass_link') ORDER BY 1;
SELECT count(*) AS listed FROM cassandra_sstables(:'datadir' || '/regress_bloomcass_link/ks2');

-- the same decision as pg_read_binary_file for each path: through the
-- link, allowed; the real path outside, refused
SELECT p.label,
       links_try(format('SELECT length(pg_read_binary_file(%L))::text', p.prefix || '-Filter.db')) AS pg_read_binary_file,
       links_try(format('SELECT count(*)::text FROM cassandra_sstable_keys(%L)', p.prefix)) AS keys,
       links_try(format('SELECT count(*)::text FROM cassandra_sstable_partitions(%L)', p.prefix)) AS partitions,
       links_try(format('SELECT cassandra_sstable_has_key(%L, ''\x00''::bytea)::text', p.prefix)) AS has_key,
       links_try(format('SELECT (bloom_import_file(%L) IS NOT NULL)::text', p.prefix || '-Filter.db')) AS import
FROM (VALUES
	('through the link', 'regress_bloomcass_link/ks2/t2-22222222222222222222222222222222/nb-1-big'),
	('the real path', :'real_prefix'))
	AS p(label, prefix);

RESET ROLE;
COPY (SELECT 1) TO PROGRAM :'remove_link';
DROP FUNCTION links_try(text);
DROP OWNED BY regress_bloomcass_links;
DROP ROLE regress_bloomcass_links;
