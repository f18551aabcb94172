--
-- Partition keys as CQL values: cassandra_key_text, cassandra_key_json and
-- cassandra_key_parse.  The golden vectors of vectors/cql-keys/ (the DataStax
-- Python driver's decoding, test/tools/cql_vectors.py) for every marshal
-- type; every key of every real SSTable that names its key type, through
-- text and back to the same bytes, and found again by
-- cassandra_sstable_has_key; examples of each type; the errors with their
-- SQLSTATEs.
--
SET client_min_messages = warning;

-- a TSV field of the vectors: \\, \t and \n stand for \, tab and newline
CREATE FUNCTION tsv_unescape(s text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT replace(replace(replace(replace(s, '\\', E'\x01'), '\t', E'\t'), '\n', E'\n'), E'\x01', '\')
$$;

-- 'ok' or 'SQLSTATE: message'
CREATE FUNCTION try_sql(stmt text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	msg text;
	st text;
BEGIN
	EXECUTE stmt;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
	RETURN st || ': ' || msg;
END $$;

-- the vectors: text, JSON and the text parsed back, per type
CREATE TEMP TABLE vectors AS
SELECT v.file, v.lineno, f[1] AS key_type, decode(f[2], 'hex') AS key, tsv_unescape(f[3]) AS text,
       tsv_unescape(f[4])::jsonb AS json,
       CASE WHEN f[5] = '=' THEN decode(f[2], 'hex') ELSE decode(f[5], 'hex') END AS parsed
FROM (SELECT 'values' AS file, * FROM test_tsv('vectors/cql-keys/values.tsv')
      UNION ALL
      SELECT 'sstable-keys', * FROM test_tsv('vectors/cql-keys/sstable-keys.tsv')) v;
SELECT file,
       regexp_replace(regexp_replace(key_type, 'org\.apache\.cassandra\.db\.marshal\.', '', 'g'),
                      '^(FrozenType\()?([A-Za-z0-9]+).*$', '\2') AS type,
       count(*) AS vectors,
       count(*) FILTER (WHERE cassandra_key_text(key, key_type) IS DISTINCT FROM text) AS text_wrong,
       count(*) FILTER (WHERE cassandra_key_json(key, key_type) IS DISTINCT FROM json) AS json_wrong,
       count(*) FILTER (WHERE cassandra_key_parse(text, key_type) IS DISTINCT FROM parsed) AS parse_wrong
FROM vectors GROUP BY 1, 2 ORDER BY 1, 2;

-- every key of every real SSTable whose Statistics.db names its key type
-- (the versions cassandra_sstable_keys reads: not 1.2's ia .. ic, which
-- have no key type, nor ScyllaDB's trie formats)
CREATE TEMP TABLE real_keys AS
SELECT s.path, s.key_type, k.key, k.n
FROM sstable_manifest m
JOIN LATERAL cassandra_sstables(test_path('sstables/' || m.dir)) s ON s.path = m.prefix
CROSS JOIN LATERAL cassandra_sstable_keys(s.path) WITH ORDINALITY AS k(key, n)
WHERE m.key_type IS NOT NULL AND m.version NOT IN ('b', 'e', 'hb');
SELECT regexp_replace(key_type, 'org\.apache\.cassandra\.db\.marshal\.', '', 'g') AS key_type,
       count(DISTINCT path) AS sstables, count(*) AS keys,
       count(*) FILTER (WHERE cassandra_key_parse(cassandra_key_text(key, key_type), key_type)
                              IS DISTINCT FROM key) AS round_trip_failures,
       count(*) FILTER (WHERE jsonb_array_length(cassandra_key_json(key, key_type)) IS NULL) AS json_failures
FROM real_keys GROUP BY 1 ORDER BY 1;
-- the manifest's key types are those cassandra_sstables reads
SELECT count(*) AS manifest_sstables_with_key_type,
       count(*) FILTER (WHERE s.key_type = m.key_type) AS same_key_type
FROM sstable_manifest m
JOIN LATERAL cassandra_sstables(test_path('sstables/' || m.dir)) s ON s.path = m.prefix
WHERE m.key_type IS NOT NULL;
-- the first five keys of each SSTable, from their text, found by
-- cassandra_sstable_has_key
SELECT count(*) AS keys_looked_up,
       count(*) FILTER (WHERE cassandra_sstable_has_key(path,
           cassandra_key_parse(cassandra_key_text(key, key_type), key_type))) AS found
FROM real_keys WHERE n <= 5;
-- and keys that are not there: the first key's text with a character more
SELECT count(*) AS absent_keys_looked_up,
       count(*) FILTER (WHERE cassandra_sstable_has_key(path, cassandra_key_parse(t, key_type))) AS found
FROM (SELECT r.path, r.key_type, cassandra_key_text(r.key, r.key_type) || 'x' AS t
      FROM real_keys r WHERE r.n = 1 AND r.key_type ~ 'UTF8Type\)?$') a
WHERE NOT EXISTS (SELECT 1 FROM real_keys o WHERE o.path = a.path
                  AND o.key = cassandra_key_parse(a.t, a.key_type));

-- the listing, in CQL values
SELECT regexp_replace(s.path, '^.*/sstables/', '') AS sstable,
       cassandra_key_text(s.first_key, s.key_type) AS first_key,
       cassandra_key_text(s.last_key, s.key_type) AS last_key,
       cassandra_key_json(s.first_key, s.key_type) AS first_json
FROM cassandra_sstables(test_path('sstables/cassandra/legacy-sstables/na/legacy_tables')) s
WHERE s.key_type IS NOT NULL ORDER BY 1;

-- a key of each kind
SELECT t.key_type, t.text, cassandra_key_parse(t.text, t.key_type) AS key,
       cassandra_key_text(cassandra_key_parse(t.text, t.key_type), t.key_type) AS back,
       cassandra_key_json(cassandra_key_parse(t.text, t.key_type), t.key_type) AS json
FROM (VALUES
	('UTF8Type', 'acme'), ('AsciiType', 'key1'), ('Int32Type', '-7'), ('LongType', '9223372036854775807'),
	('ShortType', '-32768'), ('ByteType', '127'), ('BooleanType', 'TRUE'), ('FloatType', '0.1'),
	('DoubleType', '-0.0'), ('DoubleType', 'NaN'), ('UUIDType', 'F47AC10B-58CC-4372-A567-0E02B2C3D479'),
	('TimeUUIDType', 'e3b0c442-98fc-11e5-8994-feff819cdc9f'),
	('LexicalUUIDType', '00000000-0000-0000-0000-000000000001'),
	('TimestampType', '2023-01-04 17:00:00.5+01:00'), ('DateType', '-1'),
	('SimpleDateType', '-0001-12-31'), ('TimeType', '12:34:56.789'), ('InetAddressType', '::ffff:10.0.0.1'),
	('InetAddressType', '2001:db8::1'), ('DecimalType', '1.50'), ('DecimalType', '1E+3'),
	('IntegerType', '-123456789012345678901234567890'), ('BytesType', 'CAFE'), ('BytesType', '0xcafe'),
	('DurationType', '1y2mo3w4d5h6m7s8ms9us10ns'), ('CounterColumnType', '42'),
	('CompositeType(UTF8Type,Int32Type)', 'acme:7'), ('CompositeType(UTF8Type,Int32Type)', 'a\:b\!:-1'),
	('CompositeType(UTF8Type,UTF8Type)', '_!:x'),
	('CompositeType(TimestampType,ReversedType(LongType))', '2023-01-04T16\:00\:00.000Z:5'),
	('FrozenType(ListType(Int32Type))', '0x000000020000000400000001000000040000000f'),
	('FrozenType(MapType(UTF8Type,SetType(Int32Type)))', '00000001000000016b0000000c000000010000000400000004'),
	('FrozenType(TupleType(Int32Type,UTF8Type,BooleanType))', '1:a\:b:@'),
	('FrozenType(UserType(ks,61646472,73:UTF8Type,6e:Int32Type))', 'Main St:12')
) t(key_type, text);

-- The errors
SELECT test, try_sql(stmt) AS result FROM (VALUES
	('unknown type', $$SELECT cassandra_key_text('\x00', 'NoSuchType')$$),
	('not a marshal class', $$SELECT cassandra_key_text('\x00', 'com.example.UTF8Type')$$),
	('malformed type', $$SELECT cassandra_key_text('\x00', 'CompositeType(UTF8Type')$$),
	('parameters of a scalar', $$SELECT cassandra_key_parse('1', 'Int32Type(UTF8Type)')$$),
	('map of one type', $$SELECT cassandra_key_json('\x00', 'MapType(Int32Type)')$$),
	('DynamicCompositeType', $$SELECT cassandra_key_text('\x00', 'DynamicCompositeType(a=>UTF8Type)')$$),
	('int of 3 bytes', $$SELECT cassandra_key_text('\x000001', 'Int32Type')$$),
	('smallint of none', $$SELECT cassandra_key_json('\x', 'ShortType')$$),
	('bad UTF-8', $$SELECT cassandra_key_text('\xc328', 'UTF8Type')$$),
	('not ASCII', $$SELECT cassandra_key_text('\x80', 'AsciiType')$$),
	('TimeUUID of version 4', $$SELECT cassandra_key_text('\xf47ac10b58cc4372a5670e02b2c3d479', 'TimeUUIDType')$$),
	('time past a day', $$SELECT cassandra_key_text('\x00004e94914f0000', 'TimeType')$$),
	('inet of 5 bytes', $$SELECT cassandra_key_text('\x0102030405', 'InetAddressType')$$),
	('duration of mixed signs', $$SELECT cassandra_key_text('\x020102', 'DurationType')$$),
	('composite cut short', $$SELECT cassandra_key_text('\x000561', 'CompositeType(UTF8Type)')$$),
	('composite of no component', $$SELECT cassandra_key_text('\x', 'CompositeType(UTF8Type)')$$),
	('composite, too many', $$SELECT cassandra_key_text('\x0001610000016200', 'CompositeType(UTF8Type)')$$),
	('list with a null', $$SELECT cassandra_key_text('\x00000001ffffffff', 'ListType(Int32Type)')$$),
	('key past 65535 bytes', $$SELECT cassandra_key_text(decode(repeat('61', 65536), 'hex'), 'UTF8Type')$$),
	('NUL in text', $$SELECT cassandra_key_text('\x610062', 'UTF8Type')$$),
	('NUL in JSON', $$SELECT cassandra_key_json('\x610062', 'UTF8Type')$$),
	('int out of range', $$SELECT cassandra_key_parse('2147483648', 'Int32Type')$$),
	('not a boolean', $$SELECT cassandra_key_parse('yes', 'BooleanType')$$),
	('bad date', $$SELECT cassandra_key_parse('2023-02-30', 'SimpleDateType')$$),
	('bad timestamp', $$SELECT cassandra_key_parse('now', 'TimestampType')$$),
	('bad inet', $$SELECT cassandra_key_parse('1.2.3', 'InetAddressType')$$),
	('bad uuid', $$SELECT cassandra_key_parse('f47ac10b58cc4372a5670e02b2c3d479', 'UUIDType')$$),
	('bad duration', $$SELECT cassandra_key_parse('1h1d', 'DurationType')$$),
	('bad hex', $$SELECT cassandra_key_parse('0x1', 'BytesType')$$),
	('too many components', $$SELECT cassandra_key_parse('a:b:c', 'CompositeType(UTF8Type,UTF8Type)')$$),
	('collection not hex', $$SELECT cassandra_key_parse('[1, 2]', 'ListType(Int32Type)')$$),
	('collection hex that is none', $$SELECT cassandra_key_parse('0x00000001', 'ListType(Int32Type)')$$),
	('parse past 65535 bytes', $$SELECT cassandra_key_parse(repeat('a', 65536), 'UTF8Type')$$)
) t(test, stmt);

-- NULL in, NULL out (strict)
SELECT cassandra_key_text(NULL, 'UTF8Type') IS NULL AS text_null,
       cassandra_key_json('\x00', NULL) IS NULL AS json_null,
       cassandra_key_parse(NULL, 'UTF8Type') IS NULL AS parse_null;
