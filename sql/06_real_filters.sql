--
-- Real Cassandra Filter.db files through SQL: every row of
-- real-filters/MANIFEST.tsv (file, sstable_version, payload_layout,
-- hash_order, keys_file, n_keys, key_type, source, license, note).
-- Expected values come from the manifest and the keys files only.
-- Paths are printed relative to the data directory.
--

CREATE TEMP TABLE rf_manifest AS
SELECT lineno, f[1] AS file, f[2] AS version, f[3] AS layout, f[4] AS hash_order,
       f[5] AS keys_file, f[6]::bigint AS n_keys, f[7] AS key_type, f[10] AS note,
       f[10] LIKE '%pre-release%' AS prerelease,
       f[1] LIKE '%-Filter.db' AS filter_db_name,
       -- a version writing the manifest's layout and hash order
       CASE WHEN f[3] = 'raw' AND f[4] = 'new' THEN 'oa'
            WHEN f[3] = 'swapped' AND f[4] = 'new' THEN 'ma'
            WHEN f[3] = 'swapped' AND f[4] = 'old' THEN 'ka' END AS layout_version
FROM test_tsv('real-filters/MANIFEST.tsv');

SELECT count(*) AS manifest_rows,
       count(*) FILTER (WHERE prerelease) AS prerelease_artifacts,
       count(*) FILTER (WHERE filter_db_name) AS filter_db_files,
       count(DISTINCT keys_file) AS keys_files
FROM rf_manifest;

CREATE TEMP TABLE rf_keys AS
SELECT m.file, l.lineno, decode(l.line, 'hex') AS key
FROM rf_manifest m CROSS JOIN LATERAL test_lines('real-filters/' || m.keys_file) l;

-- Components of a composite key: per component BE16 length, the bytes,
-- an end-of-component 0x00.  NULL when the bytes are not such a key.
CREATE FUNCTION test_composite_parts(k bytea) RETURNS bytea[]
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
	pos int := 0;
	len int;
	parts bytea[] := '{}';
BEGIN
	WHILE pos < length(k) LOOP
		IF pos + 2 > length(k) THEN
			RETURN NULL;
		END IF;
		len := get_byte(k, pos) * 256 + get_byte(k, pos + 1);
		IF pos + 2 + len >= length(k) OR get_byte(k, pos + 2 + len) <> 0 THEN
			RETURN NULL;
		END IF;
		parts := array_append(parts, substr(k, pos + 3, len));
		pos := pos + 3 + len;
	END LOOP;
	RETURN parts;
END $$;

-- The float4 whose IEEE-754 bits are the 4 bytes (finite values only):
-- sign * significand * 2^exponent computed exactly in float8, then cast.
CREATE FUNCTION test_float4_from_bits(b bytea) RETURNS real
LANGUAGE sql IMMUTABLE STRICT AS $$
	SELECT CASE WHEN length(b) <> 4 OR e = 255 THEN NULL
	            ELSE ((1 - 2 * s) * CASE WHEN e = 0 THEN m * 2.0::float8 ^ (-149)
	                                     ELSE (m + 8388608) * 2.0::float8 ^ (e - 150) END)::real
	       END
	FROM (SELECT get_byte(b, 0) >> 7 AS s,
	             ((get_byte(b, 0) & 127) << 1) | (get_byte(b, 1) >> 7) AS e,
	             (((get_byte(b, 1) & 127) << 16) | (get_byte(b, 2) << 8) | get_byte(b, 3))::float8 AS m) x
$$;

-- the FloatType keys decoded (its SOURCE.md gives 4.7, 1.4, 5.1, 6.0, 4.5)
SELECT k.lineno, encode(k.key, 'hex') AS key_hex, test_float4_from_bits(k.key) AS value
FROM rf_keys k JOIN rf_manifest m USING (file)
WHERE m.key_type = 'FloatType' ORDER BY k.file, k.lineno;

-- The key rebuilt as a typed PostgreSQL value from its serialized bytes:
-- true when cassandra_key(typed) gives back the same bytes and the filter
-- may contain the typed value; NULL for a key type not handled here.
CREATE FUNCTION test_typed_present(f bloom, key_type text, key bytea) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
	p bytea[];
BEGIN
	CASE
	WHEN key_type IN ('int', 'Int32Type') THEN
		DECLARE v int4 := ('x' || encode(key, 'hex'))::bit(32)::int4;
		BEGIN RETURN length(key) = 4 AND cassandra_key(v) = key AND bloom_contains(f, v); END;
	WHEN key_type = 'LongType' THEN
		DECLARE v int8 := ('x' || encode(key, 'hex'))::bit(64)::int8;
		BEGIN RETURN length(key) = 8 AND cassandra_key(v) = key AND bloom_contains(f, v); END;
	WHEN key_type IN ('text', 'UTF8Type', 'AsciiType') THEN
		DECLARE v text := convert_from(key, 'UTF8');
		BEGIN RETURN cassandra_key(v) = key AND bloom_contains(f, v); END;
	WHEN key_type IN ('UUIDType', 'TimeUUIDType') THEN
		DECLARE v uuid := encode(key, 'hex')::uuid;
		BEGIN RETURN cassandra_key(v) = key AND bloom_contains(f, v); END;
	WHEN key_type = 'FloatType' THEN
		DECLARE v real := test_float4_from_bits(key);
		BEGIN RETURN cassandra_key(v) = key AND bloom_contains(f, v); END;
	WHEN key_type = 'CompositeType(UTF8Type,UTF8Type)' THEN
		p := test_composite_parts(key);
		RETURN cardinality(p) = 2 AND
			cassandra_key(convert_from(p[1], 'UTF8'), convert_from(p[2], 'UTF8')) = key AND
			bloom_contains(f, cassandra_key(convert_from(p[1], 'UTF8'), convert_from(p[2], 'UTF8')));
	WHEN key_type = 'CompositeType(UUIDType,UTF8Type)' THEN
		p := test_composite_parts(key);
		RETURN cardinality(p) = 2 AND length(p[1]) = 16 AND
			cassandra_key(encode(p[1], 'hex')::uuid, convert_from(p[2], 'UTF8')) = key AND
			bloom_contains(f, cassandra_key(encode(p[1], 'hex')::uuid, convert_from(p[2], 'UTF8')));
	ELSE
		RETURN NULL;
	END CASE;
END $$;

-- Everything per file, computed once (the imported filter is not stored:
-- a large toasted value would be fetched again for every key).
--   imported: with the version, or for the 5 pre-release artifacts with the
--   manifest's payload layout and hash order
CREATE TEMP TABLE rf_result AS
SELECT m.lineno, m.file, m.version, m.layout, m.hash_order, m.key_type, m.n_keys,
       m.prerelease, m.filter_db_name,
       c.n AS keys_in_file, c.present, c.typed_present, c.typed_unhandled,
       c.present_by_version,
       i.export_version,
       bloom_export(i.f, i.export_version) = i.bytes AS reexport_identical,
       bloom_import(i.bytes, m.layout, m.hash_order) = i.f AS same_as_layout_import,
       r.file_import_same, r.file_import_present
FROM rf_manifest m
CROSS JOIN LATERAL (
	SELECT b AS bytes,
	       CASE WHEN m.prerelease THEN bloom_import(b, m.layout, m.hash_order)
	            ELSE bloom_import(b, m.version) END AS f,
	       CASE WHEN m.prerelease THEN m.layout_version ELSE m.version END AS export_version,
	       bloom_import(b, m.version) AS f_by_version
	FROM test_file('real-filters/' || m.file) b
	OFFSET 0
) i
CROSS JOIN LATERAL (
	SELECT count(*) AS n,
	       count(*) FILTER (WHERE bloom_contains(i.f, k.key)) AS present,
	       count(*) FILTER (WHERE test_typed_present(i.f, m.key_type, k.key)) AS typed_present,
	       count(*) FILTER (WHERE test_typed_present(i.f, m.key_type, k.key) IS NULL) AS typed_unhandled,
	       count(*) FILTER (WHERE bloom_contains(i.f_by_version, k.key)) AS present_by_version
	FROM rf_keys k WHERE k.file = m.file
) c
CROSS JOIN LATERAL (
	SELECT CASE WHEN m.filter_db_name THEN fi = i.f END AS file_import_same,
	       CASE WHEN m.filter_db_name
	            THEN (SELECT count(*) FILTER (WHERE bloom_contains(fi, k.key))
	                  FROM rf_keys k WHERE k.file = m.file) END AS file_import_present
	FROM (SELECT CASE WHEN m.filter_db_name
	                  THEN bloom_import_file(test_path('real-filters/' || m.file)) END AS fi
	      OFFSET 0) x
) r;

-- One row per manifest row:
--   n_keys        keys in keys.hex (must equal the manifest's n_keys)
--   keys_present  every key (bytea) answered present
--   typed         every key rebuilt as a typed value (int4, int8, text,
--                 uuid, real from its bits, cassandra_key(text, text) or
--                 cassandra_key(uuid, text)) serializes to the same bytes
--                 and is answered present
--   reexport      bloom_export(imported, version) is the file, byte for byte
--                 (artifacts: the version of their real layout and order)
--   layout_import bloom_import(file, layout, order) from the manifest gives
--                 the same filter
--   import_file   bloom_import_file(path), version taken from the file name:
--                 'same' as the import above, or for the artifacts 'differs,
--                 i/n keys'; 'n/a' for the two .bin files (no Filter.db name)
SELECT file, version AS ver, export_version AS export_as,
       n_keys,
       keys_in_file = n_keys AND present = n_keys AS keys_present,
       CASE WHEN typed_unhandled > 0 THEN 'n/a: key type ' || key_type
            ELSE (typed_present = n_keys)::text END AS typed,
       reexport_identical AS reexport,
       same_as_layout_import AS layout_import,
       CASE WHEN NOT filter_db_name THEN 'n/a: not a Filter.db name'
            WHEN file_import_same AND file_import_present = n_keys THEN 'same'
            WHEN file_import_same THEN 'same, but ' || file_import_present || '/' || n_keys || ' keys'
            ELSE 'differs, ' || file_import_present || '/' || n_keys || ' keys' END AS import_file
FROM rf_result
ORDER BY file;

-- expected: 97 files, all keys present (bytea and typed) in all, all
-- re-exports identical, 95 Filter.db names of which the 90 regular ones
-- import the same by name and the 5 artifacts do not
SELECT count(*) AS files,
       sum(n_keys) AS keys,
       count(*) FILTER (WHERE keys_in_file = n_keys AND present = n_keys) AS all_keys_present,
       count(*) FILTER (WHERE typed_unhandled = 0 AND typed_present = n_keys) AS all_typed_present,
       count(*) FILTER (WHERE reexport_identical AND same_as_layout_import) AS reexport_identical,
       count(*) FILTER (WHERE filter_db_name AND NOT prerelease
                          AND file_import_same AND file_import_present = n_keys) AS import_file_same,
       count(*) FILTER (WHERE prerelease AND NOT file_import_same
                          AND file_import_present < n_keys) AS artifacts_import_file_loses_keys
FROM rf_result;

-- The 5 pre-release artifacts: read by their version alone (the rule for
-- their name) they lose keys; read with the manifest's layout and order
-- they hold them all.
SELECT file, version, layout, hash_order,
       n_keys, present_by_version AS present_by_version_alone,
       present AS present_with_layout_and_order
FROM rf_result WHERE prerelease ORDER BY file;

-- A few filters inspected.  Expected values from the files themselves:
-- hash count and word count from the header (BE32, BE32), bits set counted
-- from the payload, file size; the estimated cardinality must be near the
-- number of keys (the BloomFilter1000 files are sized for 1,000,000 keys
-- and hold 1000).
CREATE TEMP TABLE rf_info AS
SELECT m.file, m.n_keys, b AS bytes, i.*
FROM rf_manifest m
CROSS JOIN LATERAL test_file('real-filters/' || m.file) b
CROSS JOIN LATERAL bloom_info(bloom_import(b, m.version)) i
WHERE m.file ~ '(transformer-oa-13/|BloomFilter1000|bloom-filter-ka/|arrow-md-iot1k/)';

SELECT file, n_keys, hash_order, hash_count, word_count, capacity_bits, bits_set,
       round(fill_ratio::numeric, 6) AS fill_ratio,
       round(estimated_cardinality::numeric) AS est_cardinality,
       to_char(estimated_fpr, '9.999EEEE') AS est_fpr,
       filter_db_bytes
FROM rf_info ORDER BY file;

SELECT file,
       hash_count = ('x' || encode(substr(bytes, 1, 4), 'hex'))::bit(32)::int AS k_ok,
       word_count = ('x' || encode(substr(bytes, 5, 4), 'hex'))::bit(32)::int AS words_ok,
       capacity_bits = 64 * word_count AS capacity_ok,
       bits_set = bit_count(substr(bytes, 9)) AS bits_set_ok,
       filter_db_bytes = length(bytes) AS size_ok,
       abs(estimated_cardinality - n_keys) < 0.05 * n_keys AS cardinality_near_n_keys
FROM rf_info ORDER BY file;
