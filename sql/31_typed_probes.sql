--
-- Typed probes: bloom_contains(filter, key, key_type),
-- bloom_contains_each(filter, keys, key_type) and cassandra_sstable_has_key
-- under the SSTable's own key type serialize the key as its CQL type, so
-- that no present key is answered false because of the caller's integer
-- width or an untyped literal.  Every CQL type against every PostgreSQL
-- type it can be written as, present and absent keys, on filters built by
-- bloom_agg from the keys' CQL text (cassandra_key_parse, another path to
-- the same bytes) and on the real SSTables' own filters; then the errors.
--
SET client_min_messages = warning;

-- the keys of each CQL type, as CQL text: the filter of a type holds its
-- present keys ('in'), not its absent ones ('out')
CREATE TEMP TABLE tp_keys (cql text, v text, held boolean);
INSERT INTO tp_keys VALUES
	('ByteType', '1', true), ('ByteType', '-128', true), ('ByteType', '2', false),
	('ShortType', '1', true), ('ShortType', '-32768', true), ('ShortType', '2', false),
	('Int32Type', '1', true), ('Int32Type', '2147483647', true), ('Int32Type', '2', false),
	('LongType', '1', true), ('LongType', '3000000000', true), ('LongType', '2', false),
	('CounterColumnType', '1', true), ('CounterColumnType', '2', false),
	('IntegerType', '1', true), ('IntegerType', '123456789012345678901234567890', true),
	('IntegerType', '2', false),
	('DecimalType', '1', true), ('DecimalType', '1.50', true), ('DecimalType', '1.5', false),
	('FloatType', '1.5', true), ('FloatType', '2.0', true), ('FloatType', '0.1', true),
	('FloatType', '2.5', false),
	('DoubleType', '1.5', true), ('DoubleType', '2.0', true), ('DoubleType', '0.1', true),
	('DoubleType', '2.5', false),
	('BooleanType', 'true', true), ('BooleanType', 'false', false),
	('UUIDType', '8d8ac610-566d-4ef0-9c22-186b2a5ed793', true),
	('UUIDType', '00000000-0000-4000-8000-000000000000', false),
	('TimeUUIDType', 'd2177dd0-eaa2-11de-a572-001b779c76e3', true),
	('TimeUUIDType', 'd2177dd1-eaa2-11de-a572-001b779c76e3', false),
	('LexicalUUIDType', '8d8ac610-566d-4ef0-9c22-186b2a5ed793', true),
	('LexicalUUIDType', '00000000-0000-4000-8000-000000000000', false),
	('TimestampType', '2023-01-04T16:00:00.123Z', true), ('TimestampType', '2023-01-04T16:00:00.124Z', false),
	('SimpleDateType', '2023-01-04', true), ('SimpleDateType', '2023-01-05', false),
	('TimeType', '16:00:00.000123', true), ('TimeType', '16:00:00', false),
	('InetAddressType', '10.0.0.1', true), ('InetAddressType', '::1', true),
	('InetAddressType', '10.0.0.2', false),
	('UTF8Type', 'user1', true), ('UTF8Type', 'ü', true), ('UTF8Type', 'user2', false),
	('AsciiType', 'user1', true), ('AsciiType', 'user2', false),
	('BytesType', '0xcafe', true), ('BytesType', '0xcaff', false),
	('CompositeType(UTF8Type,Int32Type)', 'acme:7', true),
	('CompositeType(UTF8Type,Int32Type)', 'acme:8', false),
	('ReversedType(LongType)', '1', true), ('ReversedType(LongType)', '2', false);

CREATE TEMP TABLE tp_filters AS
SELECT cql, bloom_agg(cassandra_key_parse(v, cql), 0.0001) AS f
FROM tp_keys WHERE held GROUP BY cql;

-- the matrix: each CQL type, each PostgreSQL type it is written as, a
-- present key and an absent one as SQL expressions of that type
CREATE TEMP TABLE tp_matrix (cql text, pg text, present text, absent text);
INSERT INTO tp_matrix
SELECT cql, pg, format('(%s)::%s', p, pg), format('(%s)::%s', a, pg)
FROM (VALUES ('ByteType', '-128', '2'), ('ShortType', '-32768', '2'),
             ('Int32Type', '2147483647', '2'), ('LongType', '1', '2'),
             ('CounterColumnType', '1', '2'), ('IntegerType', '1', '2'),
             ('ReversedType(LongType)', '1', '2'), ('DecimalType', '1', '2'),
             ('FloatType', '2', '3'), ('DoubleType', '2', '3')) i(cql, p, a),
     unnest(ARRAY['smallint', 'integer', 'bigint', 'numeric']) pg
WHERE NOT (pg = 'smallint' AND cql = 'Int32Type');
INSERT INTO tp_matrix VALUES
	('Int32Type', 'smallint', '1::smallint', '2::smallint'),
	('LongType', 'bigint', '3000000000::bigint', '2::bigint'),
	('LongType', 'numeric', '1.000', '2.0'),
	('IntegerType', 'numeric', '123456789012345678901234567890', '123456789012345678901234567891'),
	('DecimalType', 'numeric', '1.50', '1.5'),
	('FloatType', 'real', '1.5::real', '2.5::real'),
	('FloatType', 'double precision', '0.1::float8', '2.5::float8'),
	('FloatType', 'numeric', '0.1', '2.5'),
	('DoubleType', 'double precision', '0.1::float8', '2.5::float8'),
	('DoubleType', 'real', '1.5::real', '2.5::real'),
	('DoubleType', 'numeric', '0.1', '2.5'),
	('BooleanType', 'boolean', 'true', 'false'),
	('UUIDType', 'uuid', '''8d8ac610-566d-4ef0-9c22-186b2a5ed793''::uuid', '''00000000-0000-4000-8000-000000000000''::uuid'),
	('TimeUUIDType', 'uuid', '''d2177dd0-eaa2-11de-a572-001b779c76e3''::uuid', '''d2177dd1-eaa2-11de-a572-001b779c76e3''::uuid'),
	('LexicalUUIDType', 'uuid', '''8d8ac610-566d-4ef0-9c22-186b2a5ed793''::uuid', '''00000000-0000-4000-8000-000000000000''::uuid'),
	('TimestampType', 'timestamptz', '''2023-01-04 17:00:00.123+01''::timestamptz', '''2023-01-04 16:00:00.124+00''::timestamptz'),
	('TimestampType', 'timestamp', '''2023-01-04 16:00:00.1234''::timestamp', '''2023-01-04 16:00:00.124''::timestamp'),
	('SimpleDateType', 'date', '''2023-01-04''::date', '''2023-01-05''::date'),
	('TimeType', 'time', '''16:00:00.000123''::time', '''16:00:00''::time'),
	('InetAddressType', 'inet', '''::1''::inet', '''10.0.0.2''::inet'),
	('UTF8Type', 'text', '''ü''::text', '''user2''::text'),
	('UTF8Type', 'varchar', '''user1''::varchar', '''user2''::varchar'),
	('AsciiType', 'text', '''user1''::text', '''user2''::text'),
	('BytesType', 'bytea', '''\xcafe''::bytea', '''\xcaff''::bytea'),
	('CompositeType(UTF8Type,Int32Type)', 'bytea', 'cassandra_key(''acme''::text, 7)', 'cassandra_key(''acme''::text, 8)');
-- every type as its CQL text, as text and as an untyped literal
INSERT INTO tp_matrix
SELECT cql, t.pg, format('%L%s', p.v, t.sfx), format('%L%s', a.v, t.sfx)
FROM (SELECT cql, min(v) FILTER (WHERE held) AS v FROM tp_keys GROUP BY cql) p
JOIN (SELECT cql, min(v) FILTER (WHERE NOT held) AS v FROM tp_keys GROUP BY cql) a USING (cql),
     (VALUES ('text', '::text'), ('unknown', '')) t(pg, sfx);

-- each probe through bloom_contains(f, key, key_type), through the
-- untyped @> for contrast (false for a present key: the miss typed probes
-- prevent), and through bloom_contains_each (an untyped literal's array is
-- text[])
CREATE FUNCTION tp_probe(cql text, expr text, OUT typed boolean, OUT untyped boolean, OUT each boolean)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format('SELECT bloom_contains(f, %1$s, %2$L), f @> %1$s, '
	               '(bloom_contains_each(f, ARRAY[%1$s], %2$L))[1] FROM tp_filters WHERE cql = %2$L',
	               expr, cql)
	INTO typed, untyped, each;
END $$;

SELECT m.cql, m.pg, p.typed AS present, a.typed AS absent, p.untyped AS present_untyped,
       p.each AS present_each, a.each AS absent_each
FROM tp_matrix m, tp_probe(m.cql, m.present) p, tp_probe(m.cql, m.absent) a
ORDER BY m.cql, m.pg;

-- the summary: no present key answered false, no absent key true
SELECT count(*) AS probes, count(*) FILTER (WHERE p.typed) AS present_found,
       count(*) FILTER (WHERE a.typed) AS absent_found,
       count(*) FILTER (WHERE p.each IS DISTINCT FROM p.typed OR a.each IS DISTINCT FROM a.typed) AS each_differs
FROM tp_matrix m, tp_probe(m.cql, m.present) p, tp_probe(m.cql, m.absent) a;

-- the CQL names are key types too, in any case; ReversedType and
-- FrozenType are their type; NULL key and NULL filter give NULL, a NULL
-- key_type the untyped probe (an SSTable before 3.0 has no key type)
SELECT bloom_contains(f, 1, 'bigint') AS bigint, bloom_contains(f, 1, 'BIGINT') AS upper,
       bloom_contains(f, 1, 'org.apache.cassandra.db.marshal.ReversedType(org.apache.cassandra.db.marshal.LongType)') AS reversed,
       bloom_contains(f, 1, 'FrozenType(LongType)') AS frozen,
       bloom_contains(f, NULL::int, 'bigint') AS null_key,
       bloom_contains(NULL, 1, 'bigint') AS null_filter,
       bloom_contains(f, 1, NULL) AS null_key_type_int4,
       bloom_contains(f, 1::bigint, NULL) AS null_key_type_int8
FROM tp_filters WHERE cql = 'LongType';
SELECT bloom_contains_each(f, ARRAY[1, NULL, 2, 3000000000], 'LongType') AS each_bigint,
       bloom_contains_each(f, ARRAY['1', '2']::text[], 'LongType') AS each_text,
       bloom_contains_each(f, ARRAY[[1, 2], [3, 1]]::int[], 'bigint') AS each_2d,
       bloom_contains_each(f, '{}'::int[], 'LongType') AS each_empty,
       bloom_contains_each(f, ARRAY[1, 2]::int[], NULL) AS each_untyped,
       bloom_contains_each(f, NULL::int[], 'LongType') AS each_null
FROM tp_filters WHERE cql = 'LongType';
-- a domain is its base type
CREATE DOMAIN tp_dint AS integer;
SELECT bloom_contains(f, 1::tp_dint, 'LongType') AS domain_key FROM tp_filters WHERE cql = 'LongType';

-- the real SSTables of 3.0 and later, every key type they have: each key
-- (the first 20 of each SSTable) as its CQL text and as every other
-- PostgreSQL type that writes it
CREATE TEMP TABLE tp_sstables AS
SELECT m.dir || '/' || m.descriptor AS sstable, m.prefix, m.key_type, s.filter
FROM sstable_manifest m
JOIN LATERAL cassandra_sstables(test_path('sstables/' || regexp_replace(m.dir || '/' || m.descriptor, '/[^/]+$', ''))) s
  ON s.path = m.prefix
WHERE m.key_type IS NOT NULL AND s.filter IS NOT NULL;
SELECT regexp_replace(key_type, 'org\.apache\.cassandra\.db\.marshal\.', '', 'g') AS key_type,
       count(*) AS sstables
FROM tp_sstables GROUP BY 1 ORDER BY 1;

CREATE TEMP TABLE tp_real_keys AS
SELECT t.sstable, t.prefix, t.key_type, t.filter, k.key, cassandra_key_text(k.key, t.key_type) AS v
FROM tp_sstables t, cassandra_sstable_keys(t.prefix) WITH ORDINALITY AS k(key, n)
WHERE k.n <= 20;

-- the PostgreSQL types each key type is written as, as expressions of v
CREATE TEMP TABLE tp_real_forms (key_type text, pg text, expr text);
INSERT INTO tp_real_forms
SELECT 'org.apache.cassandra.db.marshal.' || kt, pg, format('v::%s', pg)
FROM unnest(ARRAY['Int32Type', 'LongType']) kt,
     unnest(ARRAY['integer', 'bigint', 'numeric', 'text']) pg;
INSERT INTO tp_real_forms VALUES
	('org.apache.cassandra.db.marshal.TimeUUIDType', 'uuid', 'v::uuid'),
	('org.apache.cassandra.db.marshal.TimeUUIDType', 'text', 'v'),
	('org.apache.cassandra.db.marshal.UTF8Type', 'text', 'v'),
	('org.apache.cassandra.db.marshal.UTF8Type', 'varchar', 'v::varchar'),
	('org.apache.cassandra.db.marshal.AsciiType', 'text', 'v');
INSERT INTO tp_real_forms
SELECT DISTINCT key_type, 'text', 'v' FROM tp_sstables WHERE key_type LIKE '%CompositeType%';
INSERT INTO tp_real_forms
SELECT DISTINCT key_type, 'bytea', 'key' FROM tp_sstables;

-- per form: the keys found by bloom_contains on the SSTable's filter (as
-- many as the filters hold their keys' bytes: some SSTables of the test
-- data carry a filter that misses keys) and by cassandra_sstable_has_key
-- (all); then, for a key next to each (an integer one more than the
-- largest of those keys, a text with a suffix), the typed answers of both
-- equal those of its bytes (has_key's: exact; most are absent)
CREATE FUNCTION tp_real(key_type text, expr text, OUT keys bigint, OUT in_filter bigint,
                        OUT bytes_in_filter bigint, OUT has_key bigint, OUT next bigint,
                        OUT next_has_key bigint, OUT next_as_bytes bigint)
LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE format($q$
		SELECT count(*), count(*) FILTER (WHERE bloom_contains(filter, %1$s, key_type)),
		       count(*) FILTER (WHERE filter @> key),
		       count(*) FILTER (WHERE cassandra_sstable_has_key(prefix, %1$s))
		FROM tp_real_keys WHERE key_type = %2$L$q$, expr, key_type)
	INTO keys, in_filter, bytes_in_filter, has_key;
	IF key_type ~ 'TimeUUIDType$' THEN
		RETURN;					-- its absent keys: the matrix above
	END IF;
	EXECUTE format($q$
		SELECT count(*), count(*) FILTER (WHERE cassandra_sstable_has_key(prefix, %1$s)),
		       count(*) FILTER (WHERE cassandra_sstable_has_key(prefix, %1$s) =
		                              cassandra_sstable_has_key(prefix, cassandra_key_parse(v, key_type))
		                          AND bloom_contains(filter, %1$s, key_type) =
		                              (filter @> cassandra_key_parse(v, key_type)))
		FROM (SELECT prefix, filter, key_type,
		             CASE WHEN key_type ~ '(Int32|Long)Type$'
		                  THEN (max(CASE WHEN key_type ~ '(Int32|Long)Type$' THEN v::bigint END)
		                        OVER (PARTITION BY sstable) + 1)::text
		                  ELSE v || '-absent' END AS v
		      FROM tp_real_keys WHERE key_type = %2$L) r$q$,
		replace(expr, 'key', 'cassandra_key_parse(v, key_type)'), key_type)
	INTO next, next_has_key, next_as_bytes;
END $$;

SELECT regexp_replace(f.key_type, 'org\.apache\.cassandra\.db\.marshal\.', '', 'g') AS key_type, f.pg, r.*
FROM tp_real_forms f, tp_real(f.key_type, f.expr) r
ORDER BY 1, 2;

-- an untyped literal and an integer of any width find a key of the
-- SSTable's own type (here an Int32Type key, 1 .. 5 in input-five)
SELECT prefix AS int_sstable FROM tp_sstables
WHERE sstable LIKE 'sstable-transformer/core/input-five/oa-3-big' \gset
SELECT cassandra_sstable_has_key(:'int_sstable', '1') AS literal,
       cassandra_sstable_has_key(:'int_sstable', 1::smallint) AS int2,
       cassandra_sstable_has_key(:'int_sstable', 1::bigint) AS int8,
       cassandra_sstable_has_key(:'int_sstable', 1.0) AS numeric,
       cassandra_sstable_has_key(:'int_sstable', '\x00000001'::bytea) AS bytes,
       cassandra_sstable_has_key(:'int_sstable', '\x0000000000000001'::bytea) AS other_bytes,
       cassandra_sstable_has_key(:'int_sstable', 6) AS absent;
-- before 3.0 there is no key type: an untyped literal is text, as before
SELECT m.prefix AS old_sstable, m.first_key FROM sstable_manifest m
WHERE m.key_type IS NULL AND m.format = 'big' AND m.version = 'lb' AND m.partitions > 0
ORDER BY m.prefix LIMIT 1 \gset
SELECT cassandra_sstable_has_key(:'old_sstable', :'first_key'::bytea) AS old_bytes,
       cassandra_sstable_has_key(:'old_sstable', 'no such key') AS old_literal;

-- errors: SQLSTATE and message (the data folder's path taken out)
SELECT datadir AS root FROM test_config \gset
SELECT replace(q, :'root', '$DATA') AS q, test_try(q, :'root') AS result
FROM (VALUES
	($$SELECT bloom_contains(f, 3000000000, 'Int32Type') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 128, 'ByteType') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, -32769, 'smallint') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 9223372036854775808, 'LongType') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 1.5, 'Int32Type') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 'NaN'::numeric, 'IntegerType') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 'Infinity'::numeric, 'DecimalType') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 1e39, 'FloatType') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 1e300::float8, 'float') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 1e309, 'DoubleType') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, gen_random_uuid(), 'LongType') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 1.5::float8, 'Int32Type') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 1, 'UTF8Type') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 1, 'CompositeType(UTF8Type,Int32Type)') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, now(), 'SimpleDateType') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 1::money, 'LongType') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, '8d8ac610-566d-4ef0-9c22-186b2a5ed793'::uuid, 'TimeUUIDType') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 'abc', 'LongType') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, '3000000000'::text, 'int') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 'é', 'AsciiType') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 'acme', 'CompositeType(UTF8Type,Int32Type)') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 'acme:7:!', 'CompositeType(UTF8Type,Int32Type)') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 'acme:7:1', 'CompositeType(UTF8Type,Int32Type)') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 1, 'NoSuchType') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 1, 'bigint(int)') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 1, 'DynamicCompositeType(a=>UTF8Type)') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, '10.0.0.0/8'::inet, 'inet') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, 1, repeat('FrozenType(', 40) || 'LongType' || repeat(')', 40)) IS NULL FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains(f, repeat('[', 40), 'ListType(ListType(LongType))') FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains_each(f, ARRAY[1, 3000000000], 'int')::text FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains_each(f, ARRAY[now()], 'bigint')::text FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT bloom_contains_each(f, ARRAY['x']::text[], 'bigint')::text FROM tp_filters WHERE cql = 'LongType'$$),
	($$SELECT cassandra_sstable_has_key('$$ || :'int_sstable' || $$', 'user1')$$),
	($$SELECT cassandra_sstable_has_key('$$ || :'int_sstable' || $$', 3000000000)$$),
	($$SELECT cassandra_sstable_has_key('$$ || :'int_sstable' || $$', gen_random_uuid())$$)
) v(q);

-- the whole message once: its DETAIL names the key_type as given, its
-- HINT how a key of that type is written
SELECT bloom_contains(f, 1.5::real, 'org.apache.cassandra.db.marshal.LongType') FROM tp_filters WHERE cql = 'LongType';
-- a composite's prefix is no partition key: refused, not "absent"
SELECT bloom_contains(f, 'acme', 'CompositeType(UTF8Type,Int32Type)') FROM tp_filters WHERE cql = 'CompositeType(UTF8Type,Int32Type)';
