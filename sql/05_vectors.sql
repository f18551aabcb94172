--
-- Golden vectors through SQL: every row of vectors/murmur3.tsv,
-- vectors/filters_manifest.tsv, vectors/filters_probes.tsv and
-- vectors/serialization.tsv (see vectors/README.txt) is checked against
-- what bloomcass computes.  Every expected value comes from the reference
-- files, never from the extension.
--

------------------------------------------------------------------------------
-- 1. murmur3.tsv: key_hex, length, h1, h2, token
------------------------------------------------------------------------------

CREATE TEMP TABLE vec_murmur3 AS
SELECT lineno, decode(f[1], 'hex') AS key, f[2]::int AS len,
       f[3]::bigint AS h1, f[4]::bigint AS h2, f[5]::bigint AS token
FROM test_tsv('vectors/murmur3.tsv');

CREATE TEMP VIEW vec_murmur3_check AS
SELECT v.*, m.h1 AS got_h1, m.h2 AS got_h2, cassandra_token(v.key) AS got_token,
       length(v.key) = v.len
         AND m.h1 = v.h1 AND m.h2 = v.h2
         AND cassandra_token(v.key) = v.token AS ok
FROM vec_murmur3 v CROSS JOIN LATERAL cassandra_murmur3(v.key) m;

-- expected: 401 rows, 0 mismatches; the edge cases of the token rule are
-- present (empty key -> MIN, h1 = MIN -> MAX)
SELECT count(*) AS rows_checked,
       count(*) FILTER (WHERE ok IS NOT TRUE) AS mismatches,
       count(DISTINCT len) AS distinct_lengths,
       count(*) FILTER (WHERE len = 0) AS empty_keys,
       count(*) FILTER (WHERE token = -9223372036854775808) AS token_min,
       count(*) FILTER (WHERE h1 = -9223372036854775808) AS h1_min_token_max
FROM vec_murmur3_check;

-- mismatching rows (none expected)
SELECT lineno, encode(key, 'hex') AS key_hex, h1, got_h1, h2, got_h2, token, got_token
FROM vec_murmur3_check WHERE ok IS NOT TRUE ORDER BY lineno;

------------------------------------------------------------------------------
-- 2. filters_manifest.tsv: every Filter.db rebuilt from its keys
------------------------------------------------------------------------------

CREATE TEMP TABLE vec_manifest AS
SELECT lineno, f[1] AS file, f[2] AS format, f[3] AS hash_order, f[4]::bigint AS n,
       f[5]::float8 AS fp, f[6]::int AS k, f[7]::int AS buckets_per_element,
       f[8]::bigint AS word_count, f[9]::bigint AS capacity_bits, f[10]::bigint AS bytes,
       f[11] AS sha256, f[12] AS keys_file,
       regexp_replace(f[1], '(_ma|_ka)?\.db$', '') AS set_name,
       test_file('vectors/' || f[1]) AS file_bytes
FROM test_tsv('vectors/filters_manifest.tsv');

SELECT count(*) AS filter_files, count(DISTINCT set_name) AS key_sets FROM vec_manifest;

-- A new-order filter cannot be written as an old-order version (the bits
-- would answer for other keys) ...
SELECT bloom_export(bloom_agg(x::text, 0.01), 'ka') FROM generate_series(0, 4) x;

-- ... so old-order filters (SSTable versions before ma) are built by naming
-- the version: bloom_agg(key, fp, 'ka').  bloom_create(n, fp, 'ka') plus
-- bloom_add key by key must give the same filter.
CREATE FUNCTION test_old_order_filter(keys bytea[], n bigint, fp float8) RETURNS bloom
LANGUAGE plpgsql AS $$
DECLARE
	f bloom := bloom_create(n, fp, 'ka');
	key bytea;
BEGIN
	FOREACH key IN ARRAY keys LOOP
		f := bloom_add(f, key);
	END LOOP;
	RETURN f;
END $$;

-- One row per key set: its keys, and the filters built from them.
-- Note: filter_empty_p01 has an empty keys file.  bloom_agg over no rows
-- never sees its fp argument, so it returns the zero-key filter at the
-- DEFAULT fp chance 0.01 (k = 5, one word); that happens to be exactly
-- filter_empty_p01 (n = 0, fp = 0.01).  The streaming bloom_agg(key, fp, n)
-- behaves the same way.
CREATE TEMP TABLE vec_sets AS
SELECT s.set_name, s.n, s.fp, k.nkeys, k.agg, k.stream,
       k.agg_ka AS old_order, test_old_order_filter(k.keys, s.n, s.fp) AS old_order_added
FROM (SELECT DISTINCT set_name, keys_file, n, fp FROM vec_manifest) s
CROSS JOIN LATERAL (
	SELECT count(*) AS nkeys,
	       coalesce(array_agg(key ORDER BY lineno), '{}') AS keys,
	       bloom_agg(key, s.fp) AS agg,
	       bloom_agg(key, s.fp, s.n) AS stream,
	       CASE WHEN s.n > 0 THEN bloom_agg(key, s.fp, 'ka') ELSE bloom_create(0, s.fp, 'ka') END AS agg_ka
	FROM (SELECT lineno, decode(line, 'hex') AS key
	      FROM test_lines('vectors/' || s.keys_file)) l
) k;

-- One row per filter file.  Version used: new payload format -> 'oa' (also
-- na, nb, nc, da); old payload + new order -> 'ma' (also mb .. me);
-- old payload + old order -> 'ka' (also jb, la).
--   file_ok      file size and sha256 as the manifest gives them
--   n_keys_ok    the keys file holds n keys
--   sizing_ok    bloom_sizing(n, fp) = manifest's k, buckets, words, capacity, bytes
--   built_with   bloom_agg(key, fp), or bloom_agg(key, fp, 'ka') for the old
--                hash order (which must equal bloom_create + bloom_add)
--   export_ok    bloom_export(built, version) = the file, byte for byte
--   export_other_ok  the same for the other versions of that layout and order
--   stream_ok    bloom_agg(key, fp, n) = bloom_agg(key, fp), and its export
--                is the file (for the old order: the sibling _ma.db file)
--   import_ok    bloom_import(file, version) = the built filter
CREATE TEMP VIEW vec_filter_check AS
SELECT m.lineno, m.file,
       length(m.file_bytes) = m.bytes AND encode(sha256(m.file_bytes), 'hex') = m.sha256 AS file_ok,
       s.nkeys = m.n AS n_keys_ok,
       (z.hash_count, z.buckets_per_element, z.word_count, z.capacity_bits, z.filter_db_bytes)
         = (m.k, m.buckets_per_element, m.word_count, m.capacity_bits, m.bytes) AS sizing_ok,
       CASE WHEN m.hash_order = 'new' THEN 'bloom_agg'
            WHEN s.old_order = s.old_order_added THEN 'bloom_agg ka'
            ELSE 'MISMATCH' END AS built_with,
       bloom_export(b.built, v.version) = m.file_bytes AS export_ok,
       (SELECT bool_and(bloom_export(b.built, o) = m.file_bytes) FROM unnest(v.others) o) AS export_other_ok,
       s.stream = s.agg AND
         CASE m.hash_order
           WHEN 'new' THEN bloom_export(s.stream, v.version) = m.file_bytes
           ELSE bloom_export(s.stream, 'ma') = test_file('vectors/' || m.set_name || '_ma.db')
         END AS stream_ok,
       bloom_import(m.file_bytes, v.version) = b.built AS import_ok
FROM vec_manifest m
JOIN vec_sets s USING (set_name)
CROSS JOIN LATERAL bloom_sizing(m.n, m.fp) z
CROSS JOIN LATERAL (
	SELECT CASE WHEN m.hash_order = 'new' THEN s.agg ELSE s.old_order END AS built
) b
CROSS JOIN LATERAL (
	SELECT CASE WHEN m.format LIKE 'new%' THEN 'oa'
	            WHEN m.hash_order = 'new' THEN 'ma' ELSE 'ka' END AS version,
	       CASE WHEN m.format LIKE 'new%' THEN ARRAY['na', 'nb', 'nc', 'da']
	            WHEN m.hash_order = 'new' THEN ARRAY['mb', 'mc', 'md', 'me']
	            ELSE ARRAY['jb', 'la'] END AS others
) v;

-- expected: 24 rows, every check true
SELECT file, file_ok, n_keys_ok, sizing_ok, built_with, export_ok, export_other_ok, stream_ok, import_ok
FROM vec_filter_check ORDER BY lineno;

SELECT count(*) AS filters,
       count(*) FILTER (WHERE file_ok AND n_keys_ok AND sizing_ok AND export_ok
                          AND export_other_ok AND stream_ok AND import_ok) AS all_checks_true
FROM vec_filter_check;

------------------------------------------------------------------------------
-- 3. filters_probes.tsv: every probe answered as Cassandra answers it
------------------------------------------------------------------------------

CREATE TEMP TABLE vec_imported AS
SELECT set_name,
       bloom_import(test_file('vectors/' || set_name || '.db'), 'oa') AS f_new,
       bloom_import(test_file('vectors/' || set_name || '_ma.db'), 'ma') AS f_ma,
       bloom_import(test_file('vectors/' || set_name || '_ka.db'), 'ka') AS f_ka
FROM vec_sets;

CREATE TEMP VIEW vec_probe_check AS
SELECT p.lineno, p.f[1] AS set_name, p.f[2] AS key_hex,
       p.f[3] = '1' AS is_member, p.f[4] = '1' AS exp_new, p.f[5] = '1' AS exp_ka,
       bloom_contains(i.f_new, decode(p.f[2], 'hex')) AS got_new,
       bloom_contains(i.f_ma, decode(p.f[2], 'hex')) AS got_ma,
       bloom_contains(i.f_ka, decode(p.f[2], 'hex')) AS got_ka
FROM test_tsv('vectors/filters_probes.tsv') p
LEFT JOIN vec_imported i ON i.set_name = p.f[1];

-- expected: 2705 probes in 8 filters, 305 members, 0 mismatches; the false
-- positives (non-members answered true) are exercised in both hash orders
SELECT count(*) AS probes,
       count(DISTINCT set_name) AS filters,
       count(*) FILTER (WHERE is_member) AS members,
       count(*) FILTER (WHERE got_new IS DISTINCT FROM exp_new
                           OR got_ma IS DISTINCT FROM exp_new
                           OR got_ka IS DISTINCT FROM exp_ka) AS mismatches,
       count(*) FILTER (WHERE NOT is_member AND exp_new) AS expected_fp_new_order,
       count(*) FILTER (WHERE NOT is_member AND exp_ka) AS expected_fp_old_order
FROM vec_probe_check;

-- mismatching probes (none expected)
SELECT lineno, set_name, key_hex, is_member, exp_new, got_new, got_ma, exp_ka, got_ka
FROM vec_probe_check
WHERE got_new IS DISTINCT FROM exp_new OR got_ma IS DISTINCT FROM exp_new
   OR got_ka IS DISTINCT FROM exp_ka
ORDER BY lineno;

------------------------------------------------------------------------------
-- 4. serialization.tsv: typed PostgreSQL values as partition keys
------------------------------------------------------------------------------

CREATE TEMP TABLE vec_ser AS
SELECT lineno, f[1] AS cql_type, f[2] AS value, decode(f[3], 'hex') AS key,
       f[4]::bigint AS h1, f[5]::bigint AS h2, f[6]::bigint AS token
FROM test_tsv('vectors/serialization.tsv');

-- The SQL expression(s) giving the PostgreSQL value for a CQL type and its
-- textual value, or the reason PostgreSQL cannot represent it.
CREATE FUNCTION test_typed_exprs(cql_type text, value text,
	OUT pg_type text, OUT expr text, OUT skip_reason text) RETURNS SETOF record
LANGUAGE plpgsql AS $$
DECLARE
	types text[];
	vals text[];
	parts text[] := '{}';
	i int;
BEGIN
	IF cql_type LIKE '(%)' THEN
		types := string_to_array(btrim(cql_type, '()'), ',');
		vals := string_to_array(value, '|');
		IF cardinality(types) <> cardinality(vals) THEN
			RAISE EXCEPTION 'bad composite row % %', cql_type, value;
		END IF;
		FOR i IN 1 .. cardinality(types) LOOP
			parts := parts || format('%L::%s', vals[i],
				CASE types[i] WHEN 'text' THEN 'text' WHEN 'int' THEN 'int4'
				              WHEN 'bigint' THEN 'int8' WHEN 'uuid' THEN 'uuid'
				              ELSE 'unknown composite component type ' || types[i] END);
		END LOOP;
		pg_type := 'composite'; expr := format('cassandra_key(%s)', array_to_string(parts, ', '));
		RETURN NEXT; RETURN;
	END IF;
	CASE cql_type
	WHEN 'text', 'ascii' THEN pg_type := 'text'; expr := format('%L::text', value);
	WHEN 'int' THEN pg_type := 'int4'; expr := format('%L::int4', value);
	WHEN 'bigint' THEN pg_type := 'int8'; expr := format('%L::int8', value);
	WHEN 'smallint' THEN pg_type := 'int2'; expr := format('%L::int2', value);
	WHEN 'tinyint' THEN pg_type := 'cassandra_tinyint'; expr := format('cassandra_tinyint(%L::int2)', value);
	WHEN 'boolean' THEN pg_type := 'bool'; expr := format('%L::bool', value);
	WHEN 'float' THEN pg_type := 'float4'; expr := format('%L::float4', value);
	WHEN 'double' THEN pg_type := 'float8'; expr := format('%L::float8', value);
	WHEN 'timestamp' THEN
		-- value = milliseconds since the epoch; the session time zone must
		-- not matter (pg_regress runs with PST8PDT)
		pg_type := 'timestamptz'; expr := format('to_timestamp(%L::numeric / 1000.0)', value);
		RETURN NEXT;
		pg_type := 'timestamp'; expr := format('(to_timestamp(%L::numeric / 1000.0) AT TIME ZONE ''UTC'')', value);
	WHEN 'date' THEN pg_type := 'date'; expr := format('%L::date', value);
	WHEN 'time' THEN
		pg_type := 'time';
		IF value ~ '\.\d{7,}$' THEN
			skip_reason := 'PostgreSQL time has microseconds, the value has nanoseconds';
		ELSE
			expr := format('%L::time', value);
		END IF;
	WHEN 'uuid', 'timeuuid' THEN pg_type := 'uuid'; expr := format('%L::uuid', value);
	WHEN 'inet' THEN pg_type := 'inet'; expr := format('%L::inet', value);
	WHEN 'varint' THEN pg_type := 'cassandra_varint'; expr := format('cassandra_varint(%L::numeric)', value);
	WHEN 'decimal' THEN
		pg_type := 'numeric';
		IF value ~* 'e\+?[1-9]' THEN
			skip_reason := 'PostgreSQL numeric has no negative scale (reads it as an integer, scale 0)';
		ELSE
			expr := format('%L::numeric', value);
		END IF;
	WHEN 'blob' THEN pg_type := 'bytea'; expr := format('decode(%L, ''hex'')', substr(value, 3));
	ELSE
		RAISE EXCEPTION 'no PostgreSQL type for CQL type %', cql_type;
	END CASE;
	RETURN NEXT;
END $$;

-- the key, token, hash of an expression, and whether filter may contain it
CREATE FUNCTION test_eval_key(expr text, filter bloom,
	OUT key bytea, OUT token bigint, OUT h1 bigint, OUT h2 bigint, OUT contained boolean)
LANGUAGE plpgsql STRICT AS $$
BEGIN
	EXECUTE format('SELECT cassandra_key(%1$s), cassandra_token(%1$s), (cassandra_murmur3(%1$s)).h1,'
	               ' (cassandra_murmur3(%1$s)).h2, bloom_contains($1, %1$s)', expr)
		INTO key, token, h1, h2, contained USING filter;
END $$;

-- bloom_agg over a list of expressions
CREATE FUNCTION test_agg_exprs(exprs text[]) RETURNS bloom
LANGUAGE plpgsql AS $$
DECLARE
	f bloom;
BEGIN
	EXECUTE format('SELECT bloom_agg(v) FROM (VALUES (%s)) t(v)', array_to_string(exprs, '), ('))
		INTO f;
	RETURN f;
END $$;

CREATE TEMP TABLE vec_ser_typed AS
SELECT s.*, t.pg_type, t.expr, t.skip_reason
FROM vec_ser s CROSS JOIN LATERAL test_typed_exprs(s.cql_type, s.value) t;

-- filter of every serialized (bytea) key of the file
CREATE TEMP TABLE vec_ser_filter AS SELECT bloom_agg(key) AS f FROM vec_ser;

CREATE TEMP VIEW vec_ser_check AS
SELECT t.lineno, t.cql_type, t.value, t.pg_type, t.skip_reason,
       CASE WHEN t.skip_reason IS NULL THEN
         e.key = t.key AND e.token = t.token AND e.h1 = t.h1 AND e.h2 = t.h2 AND e.contained
       END AS ok
FROM vec_ser_typed t
LEFT JOIN LATERAL test_eval_key(t.expr, (SELECT f FROM vec_ser_filter)) e ON true;

-- one row per serialization.tsv row (both representations of timestamp in
-- one row); ok: key bytes, token, h1, h2 as given, and bloom_contains true
-- on the filter of all serialized keys
SELECT cql_type, value, string_agg(pg_type, ', ' ORDER BY pg_type DESC) AS pg_types,
       bool_and(ok) AS ok, max(skip_reason) AS skipped_because
FROM vec_ser_check
GROUP BY lineno, cql_type, value
ORDER BY lineno;

-- expected: 84 rows, 2 skipped (listed above), 0 mismatches
SELECT count(DISTINCT lineno) AS rows,
       count(DISTINCT lineno) FILTER (WHERE skip_reason IS NOT NULL) AS skipped,
       count(*) FILTER (WHERE skip_reason IS NULL) AS values_checked,
       count(*) FILTER (WHERE skip_reason IS NULL AND ok IS NOT TRUE) AS mismatches
FROM vec_ser_check;

-- per CQL type (and PostgreSQL type): bloom_agg over the typed values is
-- the same filter as bloom_agg over the serialized bytea keys
SELECT cql_type, pg_type, count(*) AS n_values,
       test_agg_exprs(array_agg(expr ORDER BY lineno)) = bloom_agg(key) AS same_filter
FROM vec_ser_typed
WHERE skip_reason IS NULL
GROUP BY cql_type, pg_type
ORDER BY min(lineno), pg_type DESC;
