--
-- Functions and operators: keys, tokens, contains/add, union/intersection,
-- estimates, sizing, import/export, and their errors.
--

-- keys: Cassandra's serialization of each supported type
SELECT cassandra_key('key0'::text) AS text_key, cassandra_key('key0'::varchar) AS varchar_key,
       cassandra_key(42::int2) AS smallint_key, cassandra_key(42) AS int_key,
       cassandra_key(42::int8) AS bigint_key, cassandra_tinyint(-1::int2) AS tinyint_key;
SELECT cassandra_key(1.5::float4) AS float_key, cassandra_key(-0.0::float8) AS double_key,
       cassandra_key('NaN'::float8) AS double_nan, cassandra_key(true) AS bool_key;
SELECT cassandra_key('1970-01-01 00:00:00.001+00'::timestamptz) AS timestamptz_key,
       cassandra_key('1969-12-31 23:59:59.9995'::timestamp) AS timestamp_floor_ms,
       cassandra_key('1970-01-01'::date) AS date_key, cassandra_key('12:34:56.789'::time) AS time_key;
SELECT cassandra_key('550e8400-e29b-41d4-a716-446655440000'::uuid) AS uuid_key,
       cassandra_key('10.0.0.255'::inet) AS inet4_key, cassandra_key('::ffff:1.2.3.4'::inet) AS inet_mapped_key,
       cassandra_key('2001:db8::1'::inet) AS inet6_key;
SELECT cassandra_key(1.50::numeric) AS decimal_key, cassandra_key(-0.000001) AS decimal_small,
       cassandra_varint(12345678901234567890) AS varint_key, cassandra_varint(-129) AS varint_neg,
       cassandra_varint(12.000) AS varint_integral_numeric;
-- composite keys: BE16 length, bytes, 0x00 per component; literals are text
SELECT cassandra_key('key0', 0) AS composite_literal, cassandra_key('key0'::text, 0) AS composite_typed,
       cassandra_key(VARIADIC ARRAY['a', 'bc']) AS composite_array,
       cassandra_key('550e8400-e29b-41d4-a716-446655440000'::uuid, -1::int8, 'x'::text) AS three_parts;
-- a domain over a supported type is its base type
CREATE DOMAIN user_id AS bigint;
SELECT cassandra_key(7::user_id) = cassandra_key(7::int8) AS domain_key;

-- tokens and hashes
SELECT cassandra_token('key0') AS text_token, cassandra_token(0) AS int_token,
       cassandra_token(''::bytea) AS empty_key_token, cassandra_token(cassandra_key('key0', 0)) AS composite_token;
SELECT * FROM cassandra_murmur3('\xff'::bytea);
SELECT * FROM cassandra_murmur3('café');

-- key errors
SELECT cassandra_key(1::oid);
SELECT cassandra_token(point(1, 2));
SELECT cassandra_key('key0', NULL::int);
SELECT cassandra_key(VARIADIC ARRAY[]::text[]);
SELECT cassandra_key(repeat('x', 40000), repeat('y', 40000));
SELECT cassandra_key(repeat('x', 70000), 1);
SELECT cassandra_key('infinity'::timestamptz);
SELECT cassandra_key('-infinity'::date);
SELECT cassandra_key('10.0.0.0/8'::inet);
SELECT cassandra_key('NaN'::numeric);
SELECT cassandra_varint(1.5);
SELECT cassandra_tinyint(128::int2);

-- contains and add: a filter for the text keys '0'..'4' (Cassandra's legacy_*_simple)
CREATE TABLE f5 AS
SELECT bloom_add(bloom_add(bloom_add(bloom_add(bloom_add(bloom_create(5), '0'), '1'), '2'), '3'), '4') AS f;
SELECT f, bloom_export(f, 'nb') = '\x0000000500000002844221060001040000a602200400c008'::bytea AS equals_cassandra FROM f5;
SELECT k, f @> k AS contains_text, bloom_contains(f, k::text) AS contains_fn,
       bloom_contains(f, convert_to(k, 'UTF8')) AS contains_bytea
FROM f5, (VALUES ('0'), ('3'), ('4'), ('5'), ('x'), ('')) v(k) ORDER BY k;
SELECT f @> 3 AS int_3_is_not_text_3, f @> cassandra_key('3'::text) AS via_key FROM f5;
SELECT bloom_add(f, NULL::text) IS NULL AS add_null_is_null, bloom_contains(f, NULL::int) IS NULL AS contains_null
FROM f5;

-- union and intersection
CREATE TABLE halves AS
SELECT (SELECT bloom_agg(g, 0.01, 1000) FROM generate_series(1, 500) g) AS a,
       (SELECT bloom_agg(g, 0.01, 1000) FROM generate_series(501, 1000) g) AS b,
       (SELECT bloom_agg(g, 0.01, 1000) FROM generate_series(1, 1000) g) AS whole;
SELECT a | b = whole AS union_equals_whole, bloom_union(a, b) = (a | b) AS union_fn,
       (whole & a) = a AS intersect_with_subset, bloom_intersect(a, b) = (a & b) AS intersect_fn,
       (SELECT count(*) FROM generate_series(1, 1000) g WHERE (a | b) @> g) AS union_members
FROM halves;
SELECT a | bloom_create(1000, 0.1) FROM halves;
SELECT a & bloom_create(2000) FROM halves;
SELECT bloom_create(5) | bloom_import(bloom_export(bloom_create(5)), 'ka');

-- estimates
SELECT round(bloom_fpr(whole)::numeric, 5) AS fill_fpr,
       round(bloom_fpr(whole, 1000)::numeric, 5) AS theoretical_fpr,
       round(bloom_cardinality(whole)) AS cardinality_estimate,
       bloom_fpr(bloom_create(1000)) AS empty_fpr, bloom_cardinality(bloom_create(1000)) AS empty_cardinality
FROM halves;
SELECT hash_order, hash_count, word_count, capacity_bits, bits_set, round(fill_ratio::numeric, 4) AS fill,
       round(estimated_cardinality) AS est_n, round(estimated_fpr::numeric, 5) AS est_fpr, filter_db_bytes
FROM halves, bloom_info(whole);
-- a saturated filter: every bit set
SELECT bloom_cardinality(f) AS saturated_cardinality, bloom_fpr(f) AS saturated_fpr
FROM (SELECT bloom_import('\x0000000500000001ffffffffffffffff'::bytea) AS f) s;
SELECT bloom_fpr(whole, -1) FROM halves;

-- sizing: Cassandra's choices
SELECT n, p, s.* FROM (VALUES (0::bigint, 0.01::float8), (1000, 0.01), (1000, 0.1), (1000, 0.5),
                              (1000, 0.3), (1000000, 0.0001), (100000000, 0.01)) v(n, p),
     LATERAL bloom_sizing(n, p) s ORDER BY n, p;
SELECT * FROM bloom_sizing(10, 1.0);
SELECT * FROM bloom_sizing(10, 1.5);
SELECT * FROM bloom_sizing(10, 0);
SELECT * FROM bloom_sizing(10, 'NaN');
SELECT * FROM bloom_sizing(10, 0.00005);
-- every other function taking fp_chance refuses 1 as bloom_sizing does
-- (bloom_health: 13_health)
SELECT bloom_create(10, 1);
SELECT bloom_agg(k, 1.0, 1000::bigint) FROM (VALUES ('a')) v(k);
SELECT bloom_agg(k, 1.0, 'nb') FROM (VALUES ('a')) v(k);
SELECT * FROM bloom_sizing(-1, 0.01);
SELECT * FROM bloom_sizing(858993438, 0.01);
SELECT * FROM bloom_sizing(858993439, 0.01);
SELECT * FROM bloom_sizing(6871947670, 0.0001);
SELECT bloom_create(858993439);
SELECT bloom_create(-5);

-- import / export across versions
SELECT v, bloom_export(f, v) AS filter_db
FROM f5, unnest(ARRAY['oa', 'nb', 'na', 'nc', 'da', 'bb', 'ma', 'me']) v ORDER BY v;
SELECT bloom_export(f, 'ka') FROM f5;
SELECT bloom_export(bloom_import('\x0000000500000002000401000621428408c000042002a600'::bytea, 'ka'), 'oa');
SELECT bloom_export(bloom_import('\x0000000500000002000401000621428408c000042002a600'::bytea, 'lb'), 'ia');
SELECT (bloom_import('\x0000000500000002000401000621428408c000042002a600'::bytea, 'ka'))::bytea;
SELECT bloom_import(bloom_export(f, 'ma'), 'ma') = f AS swapped_round_trip,
       bloom_import(bloom_export(f), 'nb-1-big-Filter.db') = f AS version_from_file_name,
       bloom_import(bloom_export(f, 'ma'), 'swapped', 'new') = f AS explicit_layout
FROM f5;
SELECT bloom_file_version(n) FROM (VALUES ('nb-1-big-Filter.db'), ('/data/ks/t-1/ks-t-ka-12-Filter.db'),
       ('da-1-bti-Filter.db'), ('oa-3gxx_0n2c_2qfns2bbe9sxs6t4wp-big-Filter.db')) v(n);
SELECT bloom_import('\x00'::bytea, 'zz');
SELECT bloom_import('\x00'::bytea, 'hf');
SELECT bloom_import('\x00'::bytea, '');
SELECT bloom_export(f, 'NB') FROM f5;
SELECT bloom_import('\x00'::bytea, 'da-1-big-Filter.db');
SELECT bloom_import('\x00'::bytea, 'sideways', 'new');
SELECT bloom_import('\x00'::bytea, 'raw', 'newest');
SELECT bloom_import(''::bytea);
SELECT bloom_import('\x0000000500000002'::bytea, 'nb');
SELECT bloom_file_version('Data.db');
SELECT bloom_file_version('utils.BloomFilter1000.bin');

-- server-side files go through pg_read_binary_file and its privileges
SELECT bloom_import_file(test_path('real-filters/cassandra-test-data/legacy-oa-legacy_oa_simple/oa-1-big-Filter.db')) = f
       AS imported_by_path FROM f5;
SELECT bloom_import_file('no-such-dir/nb-1-big-Filter.db');
SELECT bloom_import_file('utils.BloomFilter1000.bin');
SELECT test_path('real-filters/cassandra-test-data/legacy-oa-legacy_oa_simple/oa-1-big-Filter.db') AS oa_path \gset
CREATE ROLE regress_bloomcass_nobody;
SET ROLE regress_bloomcass_nobody;
SELECT bloom_import_file(:'oa_path');
RESET ROLE;
DROP ROLE regress_bloomcass_nobody;
