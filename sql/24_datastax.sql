--
-- DataStax's trie-indexed versions aa, ac, ad, ba, bb, ca, cb, cc: the 18
-- real SSTables of sstables-datastax/ (README.md there: their facts, read
-- without bloomcass).  Every row of the listing has its filter, its
-- Statistics.db facts and its key range; the filter rebuilt from the
-- SSTable's keys with its fp_chance and version is its Filter.db byte for
-- byte (aa: see below); every key is found, and no other.
--
SET client_min_messages = warning;

CREATE TEMP TABLE ds AS
SELECT s.*, regexp_replace(s.path, '^.*/sstables-datastax/', '') AS rel
FROM cassandra_sstables(test_path('sstables-datastax')) s;

-- the listing: version, format, Statistics.db facts and key range
SELECT rel, version, generation, format, partitioner, fp_chance, partitions,
       key_type, encode(first_key, 'hex') AS first_key,
       encode(last_key, 'hex') AS last_key, filter_db_bytes,
       filter IS NOT NULL AS has_filter
FROM ds ORDER BY rel;

-- the filter of the listing is Filter.db's bytes, read with the version's
-- layout: bloom_export gives them back, bloom_import_file reads the file
SELECT rel, bloom_export(filter, version) = pg_read_binary_file(path || '-Filter.db') AS export_same,
       bloom_import_file(path || '-Filter.db') = filter AS import_file_same,
       bloom_import(pg_read_binary_file(path || '-Filter.db'), version) = filter AS import_same
FROM ds ORDER BY rel;

-- aa, ac, ad write the old layout (big-endian longs), ba and later the
-- new one: the same bits written two ways (ac and ba of the same keys)
SELECT encode(pg_read_binary_file(test_path('sstables-datastax/ac/legacy_tables/legacy_ac_simple/ac-1-bti-Filter.db')), 'hex') AS ac,
       encode(pg_read_binary_file(test_path('sstables-datastax/ba/legacy_tables/legacy_ba_simple/ba-1-bti-Filter.db')), 'hex') AS ba,
       bloom_import(pg_read_binary_file(test_path('sstables-datastax/ac/legacy_tables/legacy_ac_simple/ac-1-bti-Filter.db')), 'ac')
     = bloom_import(pg_read_binary_file(test_path('sstables-datastax/ba/legacy_tables/legacy_ba_simple/ba-1-bti-Filter.db')), 'ba') AS same_bits;

-- the keys: cassandra_sstable_keys, in order, each found by has_key and in
-- the filter; their text by the CQL key functions
CREATE TEMP TABLE dk AS
SELECT ds.rel, ds.version, ds.path, ds.key_type, k.key, k.n
FROM ds, cassandra_sstable_keys(ds.path) WITH ORDINALITY AS k(key, n);
SELECT rel, string_agg(cassandra_key_text(key, key_type), ',' ORDER BY n) AS keys,
       count(*) = (SELECT partitions FROM ds WHERE ds.rel = dk.rel) AS count_is_partitions,
       bool_and(cassandra_sstable_has_key(path, key)) AS all_found,
       bool_and((SELECT filter FROM ds WHERE ds.rel = dk.rel) @> key) AS all_in_filter
FROM dk GROUP BY rel ORDER BY rel;

-- keys next to them are not found: one byte longer, the byte after, empty
SELECT rel, bool_or(cassandra_sstable_has_key(path, key || '\x00'::bytea)) AS longer,
       bool_or(cassandra_sstable_has_key(path, key || '\x30'::bytea)) AS longer30,
       bool_or(cassandra_sstable_has_key(path, '\x35'::bytea)) AS after_last,
       bool_or(cassandra_sstable_has_key(path, ''::bytea)) AS empty
FROM dk GROUP BY rel ORDER BY rel;

-- the filter rebuilt from the keys with the SSTable's fp_chance and
-- version, and the shape bloom_sizing gives for the version
SELECT ds.rel, bloom_export(r.f, ds.version) = pg_read_binary_file(ds.path || '-Filter.db') AS rebuilt_identical,
       (bloom_sizing(ds.partitions, ds.fp_chance)).word_count AS sized_words,
       (bloom_info(ds.filter)).word_count AS file_words
FROM ds CROSS JOIN LATERAL (SELECT bloom_agg(dk.key, ds.fp_chance, ds.version) AS f
                            FROM dk WHERE dk.rel = ds.rel) r
ORDER BY ds.rel;

-- aa: the three five-key filters have one word where FilterFactory (the
-- one sizing of DataStax's public source) gives two; they were written by
-- DSE 6.0, whose writer is not public.  Their bits are exactly the five
-- keys' in 64 bits: a filter sized for 4 keys (1 word) holds the same
-- bytes.  bloomcass does not size aa otherwise (bloom_health below calls
-- them saturated: sized for 0 to 4 keys).
SELECT ds.rel, bloom_export(r.f, ds.version) = pg_read_binary_file(ds.path || '-Filter.db') AS identical_sized_for_4
FROM ds CROSS JOIN LATERAL (SELECT bloom_agg(dk.key, ds.fp_chance, 4::bigint) AS f
                            FROM dk WHERE dk.rel = ds.rel) r
WHERE ds.version = 'aa' AND ds.partitions = 5
ORDER BY ds.rel;

-- bloom_health on each
SELECT rel, h.*
FROM ds, bloom_health(ds.filter, ds.partitions, ds.fp_chance) h ORDER BY rel;
