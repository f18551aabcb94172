--
-- One SSTable, one path (test/make-hostile.sh, section "identity"): the path
-- cassandra_sstables gives an SSTable is the real path of its folder
-- (symbolic links, "." and ".." resolved) and its descriptor, whichever path
-- the folder given reaches it by, as bloomcass-load stores it
-- (test/client.sh compares the two).  Keyspace and table are read from the
-- folders as walked, as Cassandra names them.
--
--   identity/data/ks1/t1-<id>/   nb-1-big, nb-2-big
--   identity/data/ks2            a link to ../disk2/ks2 (another disk)
--   identity/disk2/ks2/t2-<id>/  nb-1-big
--   identity/link                a link to data
--
\set VERBOSITY terse

CREATE FUNCTION identity_rows(dir text)
RETURNS TABLE (path text, keyspace text, table_name text, partitions bigint)
LANGUAGE sql VOLATILE AS $$
	SELECT regexp_replace(s.path, '^.*/hostile/', ''), s.keyspace, s.table_name, s.partitions
	FROM cassandra_sstables(test_path('hostile/' || dir)) s
$$;

-- the data folder: ks2's SSTable by its real path, on the other disk
SELECT * FROM identity_rows('identity/data') ORDER BY path;

-- the same rows through the link, with "..", with "." and "//", from the
-- keyspace folder linked, and from the other disk itself
SELECT d.dir, count(*) AS rows,
       count(*) FILTER (WHERE (r.path, r.keyspace, r.table_name, r.partitions) IN
                        (SELECT * FROM identity_rows('identity/data'))) AS same_rows
FROM unnest(ARRAY['identity/link', 'identity/link/', 'identity/data/ks1/../../link',
                  'identity/./data//', 'identity/disk2/../data',
                  'identity/link/ks1', 'identity/data/ks2', 'identity/link/ks2',
                  'identity/disk2', 'identity/disk2/ks2/t2-22222222222222222222222222222222/../../ks2'])
       WITH ORDINALITY AS d(dir, n),
     LATERAL identity_rows(d.dir) r
GROUP BY d.dir, d.n ORDER BY d.n;

-- the path given is one the other functions read the SSTable by
SELECT count(*) AS keys
FROM cassandra_sstable_keys((SELECT path FROM cassandra_sstables(test_path('hostile/identity/link/ks2'))));

-- a walk of the parent folder meets the data folder twice (itself and the
-- link): each SSTable once, by its real path
SELECT count(*) AS rows, count(DISTINCT path) AS paths,
       count(*) FILTER (WHERE path ~ '/identity/(link|data/ks2)/') AS by_a_link
FROM cassandra_sstables(test_path('hostile/identity'));

DROP FUNCTION identity_rows(text);

-- Links named as a table's subfolders (test/make-hostile.sh, section
-- "links"): in links/ks/a-<id>/, 8.sstable, staging and upload are links to
-- the folders of tables b, d and c, walked before them.  A link never
-- changes what the folder it leads to is: b's, c's and d's SSTables are
-- live, of their own tables, listed once (before: temporary, staging and
-- upload, as table a's), and the folders met again say how they are listed.
SELECT regexp_replace(path, '^.*/hostile/', '') AS sstable, keyspace, table_name, state
FROM cassandra_sstables(test_path('hostile/links/ks'), include_inactive => true) ORDER BY 1;
SELECT count(*) AS rows, count(*) FILTER (WHERE state = 'live') AS live
FROM cassandra_sstables(test_path('hostile/links/ks'));
-- through a link alone: what the folder is where it lies
SELECT regexp_replace(path, '^.*/hostile/', '') AS sstable, table_name, state
FROM cassandra_sstables(test_path('hostile/links/ks/a-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/upload'));

-- Each log file read once per folder, whatever its names (links): a
-- pending_delete log with five more names, one past 64 MB with five more
-- and a transaction log that fails verification with three more: one
-- WARNING each (before: one per name, the pending_delete log's called a
-- transaction log)
SELECT regexp_replace(path, '^.*/hostile/', '') AS sstable, state
FROM cassandra_sstables(test_path('hostile/links/logs'), include_inactive => true) ORDER BY 1;
