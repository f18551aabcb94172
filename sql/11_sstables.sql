--
-- cassandra_sstables(data_dir): the SSTables below a folder of a node,
-- checked against the manifest of the real SSTables (facts derived without
-- bloomcass) and against a node's data folder made of them by
-- test/make-node.sh, with snapshots, backups, a secondary index, transaction
-- logs, tmp- files, an orphaned component, files that are not SSTables and
-- broken components mixed in.
--
-- WARNINGs name the file; their DETAIL (the whole path, which differs from
-- run to run) is left out with VERBOSITY terse.
\set VERBOSITY terse

-- a path of the reference data, relative to it
CREATE FUNCTION rel(p text) RETURNS text LANGUAGE sql STABLE
AS $$ SELECT replace(p, test_path(''), '') $$;

-- an error's SQLSTATE and message, with the reference data's path made relative
CREATE FUNCTION error_of(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE query;
	RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE || ': ' || rel(SQLERRM);
END $$;

------------------------------------------------------------------------------
-- Every SSTable of the reference data (153, in 19 versions): the listing's
-- facts against the manifest's.  Versions before 1.2 (b, e, hb) are listed
-- with a WARNING and NULL facts.
------------------------------------------------------------------------------
CREATE TABLE listed AS
SELECT * FROM cassandra_sstables(test_path('sstables'), include_inactive => true);

SELECT count(*) AS listed, count(*) FILTER (WHERE state = 'live') AS live,
       count(DISTINCT version) AS versions, count(*) FILTER (WHERE format = 'bti') AS bti,
       count(filter) AS with_filter, count(partitions) AS with_statistics,
       count(first_key) AS with_key_range
FROM listed;

-- listed but not in the manifest, or the reverse
SELECT rel(coalesce(m.prefix, l.path)) AS only_one_side, m.prefix IS NULL AS only_listed
FROM sstable_manifest m FULL JOIN listed l ON l.path = m.prefix
WHERE m.prefix IS NULL OR l.path IS NULL;

-- each fact: the number of SSTables that agree, then every one that does not
CREATE TABLE fact_check AS
SELECT m.*, l.keyspace AS l_keyspace, l.table_name AS l_table, l.version AS l_version,
       l.generation AS l_generation, l.format AS l_format, l.components AS l_components,
       l.filter, l.partitioner AS l_partitioner, l.fp_chance AS l_fp_chance,
       l.partitions AS l_partitions, l.key_type AS l_key_type, l.first_key AS l_first_key,
       l.last_key AS l_last_key, l.filter_db_bytes, l.data_db_bytes, l.state, l.snapshot,
       m.version NOT IN ('b', 'e', 'hb') AS readable
FROM sstable_manifest m JOIN listed l ON l.path = m.prefix;

SELECT count(*) FILTER (WHERE l_version = version AND l_generation = generation AND l_format = format) AS name_ok,
       count(*) FILTER (WHERE l_components = (SELECT array_agg(c ORDER BY c COLLATE "C") FROM unnest(components) c)) AS components_ok,
       count(*) FILTER (WHERE keyspace IS NULL OR l_keyspace = keyspace) AS keyspace_ok,
       count(*) FILTER (WHERE table_name IS NULL OR l_table = table_name) AS table_ok,
       count(*) FILTER (WHERE state = 'live' AND snapshot IS NULL) AS live_ok
FROM fact_check;

SELECT count(*) FILTER (WHERE l_partitioner IS NOT DISTINCT FROM partitioner) AS partitioner_ok,
       count(*) FILTER (WHERE l_fp_chance IS NOT DISTINCT FROM fp_chance) AS fp_chance_ok,
       count(*) FILTER (WHERE l_partitions IS NOT DISTINCT FROM partitions) AS partitions_ok,
       count(*) FILTER (WHERE l_key_type IS NOT DISTINCT FROM key_type) AS key_type_ok,
       count(*) FILTER (WHERE l_first_key IS NOT DISTINCT FROM first_key AND l_last_key IS NOT DISTINCT FROM last_key) AS key_range_ok
FROM fact_check WHERE readable;

SELECT count(*) FILTER (WHERE (bloom_info(filter)).hash_count = hash_count AND (bloom_info(filter)).word_count = word_count) AS filter_shape_ok,
       count(*) FILTER (WHERE filter = bloom_import_file(prefix || '-Filter.db')) AS filter_equals_import,
       count(*) FILTER (WHERE filter_db_bytes = length(test_file(rel(prefix) || '-Filter.db'))
                          AND data_db_bytes = length(test_file(rel(prefix) || '-Data.db'))) AS sizes_ok
FROM fact_check WHERE readable;

-- the disagreements, if any
SELECT rel(prefix) AS disagrees, l_version, l_keyspace, l_table, l_partitioner, l_fp_chance, l_partitions,
       l_key_type, encode(l_first_key, 'hex') AS first, encode(l_last_key, 'hex') AS last
FROM fact_check
WHERE NOT (l_version = version AND l_generation = generation AND l_format = format
           AND (keyspace IS NULL OR l_keyspace = keyspace) AND (table_name IS NULL OR l_table = table_name))
   OR (readable AND NOT (l_partitioner IS NOT DISTINCT FROM partitioner AND l_fp_chance IS NOT DISTINCT FROM fp_chance
                         AND l_partitions IS NOT DISTINCT FROM partitions AND l_key_type IS NOT DISTINCT FROM key_type
                         AND l_first_key IS NOT DISTINCT FROM first_key AND l_last_key IS NOT DISTINCT FROM last_key
                         AND filter IS NOT NULL))
ORDER BY 1;

-- what the listing gives beyond the manifest's keyspace and table
SELECT rel(prefix) AS folder_naming, l_keyspace, l_table
FROM fact_check WHERE keyspace IS NULL OR table_name IS NULL ORDER BY 1;

-- every Filter.db holds the SSTable's first and last key
SELECT count(*) FILTER (WHERE bloom_contains(filter, l_first_key) AND bloom_contains(filter, l_last_key)) AS holds_its_range,
       count(*) AS with_filter_and_range
FROM fact_check WHERE filter IS NOT NULL AND l_first_key IS NOT NULL;
-- (all but the pre-release artifacts the manifest notes, whose Filter.db
-- another version's rules wrote)
SELECT rel(prefix) AS misses_its_range, left(note, 60) AS note
FROM fact_check
WHERE filter IS NOT NULL AND l_first_key IS NOT NULL
  AND NOT (bloom_contains(filter, l_first_key) AND bloom_contains(filter, l_last_key))
ORDER BY 1;

-- read_filters => false reads no Filter.db and gives the same rest
SELECT count(*) AS rows, count(f.filter) AS filters,
       count(*) FILTER (WHERE (f.partitions, f.first_key, f.filter_db_bytes) IS NOT DISTINCT FROM (l.partitions, l.first_key, l.filter_db_bytes)) AS same_facts
FROM cassandra_sstables(test_path('sstables'), true, read_filters => false) f
JOIN listed l USING (path);

------------------------------------------------------------------------------
-- A node's data folder (test/make-node.sh; expected.tsv lists what it made)
------------------------------------------------------------------------------
CREATE TABLE node_expected AS
SELECT f[1] AS rel_path, f[2] AS state, nullif(f[3], '-') AS source, nullif(f[4], '-') AS change
FROM test_tsv('node/expected.tsv');

-- all of it, with the state of each SSTable
CREATE TABLE node_all AS
SELECT * FROM cassandra_sstables(test_path('node/data'), include_inactive => true);
SELECT rel(path) AS sstable, state, snapshot, keyspace, table_name, version, generation, format
FROM node_all ORDER BY path COLLATE "C";

-- exactly what make-node.sh made, in the state it says
SELECT coalesce(e.rel_path, rel(n.path)) AS mismatch, e.state AS expected, n.state AS listed
FROM node_expected e FULL JOIN node_all n ON rel(n.path) = e.rel_path
WHERE e.state IS DISTINCT FROM n.state;

-- by default, the live SSTables only
SELECT count(*) AS live_listed,
       (SELECT count(*) FROM node_expected WHERE state = 'live') AS live_expected,
       count(*) FILTER (WHERE rel(path) IN (SELECT rel_path FROM node_expected WHERE state = 'live')) AS live_matching
FROM cassandra_sstables(test_path('node/data'));

-- unchanged copies give their source's facts, filter included
SELECT count(*) AS unchanged_copies,
       count(*) FILTER (WHERE (n.filter, n.partitioner, n.fp_chance, n.partitions, n.key_type, n.first_key, n.last_key,
                               n.components, n.filter_db_bytes)
                              IS NOT DISTINCT FROM
                              (l.filter, l.partitioner, l.fp_chance, l.partitions, l.key_type, l.first_key, l.last_key,
                               l.components, l.filter_db_bytes)) AS same_facts
FROM node_expected e JOIN node_all n ON rel(n.path) = e.rel_path
JOIN listed l ON rel(l.path) = e.source
WHERE e.change IS NULL;

-- broken components: NULLs only where the component failed
SELECT rel(n.path) AS sstable, e.change, n.filter IS NOT NULL AS filter, n.partitions IS NOT NULL AS statistics,
       n.first_key IS NOT NULL AS key_range,
       n.first_key IS NOT DISTINCT FROM l.first_key AND n.last_key IS NOT DISTINCT FROM l.last_key AS range_right
FROM node_expected e JOIN node_all n ON rel(n.path) = e.rel_path
LEFT JOIN listed l ON rel(l.path) = e.source
WHERE e.change IS NOT NULL ORDER BY 1;

-- a single table's folder, and a keyspace's
SELECT rel(path) AS table_folder, keyspace, table_name
FROM cassandra_sstables(test_path('node/data/legacy_tables/legacy_oa_clust-22222222222222222222222222222222'));
SELECT count(*) AS in_keyspace_ks FROM cassandra_sstables(test_path('node/data/ks'));

-- in the select list the rows stream (one per call, nothing collected
-- first): the same rows as in FROM, in the walk's order, and a listing cut
-- short by LIMIT gives the walk's first rows
SELECT count(*) AS streamed, (SELECT count(*) FROM node_all) AS in_from,
       count(*) FILTER (WHERE (s.r).path IS NOT NULL AND s.r IS NOT DISTINCT FROM n) AS same_rows
FROM (SELECT cassandra_sstables(test_path('node/data'), include_inactive => true) AS r) s
LEFT JOIN node_all n ON n.path = (s.r).path;
SELECT array_agg(rel((r).path)) = (SELECT array_agg(rel(path)) FROM (SELECT path FROM node_all LIMIT 3) x)
       AS first_three
FROM (SELECT cassandra_sstables(test_path('node/data'), include_inactive => true) AS r LIMIT 3) s;

------------------------------------------------------------------------------
-- Errors: the folder itself must be there and be a folder
------------------------------------------------------------------------------
SELECT error_of($$SELECT * FROM cassandra_sstables(test_path('node/no-such-folder'))$$);
SELECT error_of($$SELECT * FROM cassandra_sstables(test_path('node/expected.tsv'))$$);
SELECT error_of($$SELECT * FROM cassandra_sstables(NULL)$$) AS strict_null,
       (SELECT count(*) FROM cassandra_sstables(NULL)) AS rows_for_null;
