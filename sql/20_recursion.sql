--
-- Recursion: every recursive path of bloomcass, driven 100,000 levels deep
-- by a role that holds no privilege, ends in a clean ERROR with its
-- SQLSTATE, within a second, and the backend lives on.
--
-- The recursive functions are those over a marshal type string and the
-- values of a type (src/core/cql/bc_cqltype.h lists them); each counts every
-- level against BC_CQL_MAX_DEPTH, 32 levels of the type string with
-- ReversedType and FrozenType counted, and a value nests no deeper than
-- its type.  Deeper is 22023 "nested too deeply" wherever the type string
-- comes in (cassandra_key_text, cassandra_key_json, cassandra_key_parse).
-- Values nested deeper than their type are refused at the type's depth:
-- 22P03 for bytes, 22P02 for text.
--
SET client_min_messages = warning;

-- 'ok: result' or 'SQLSTATE: detail' (or message, if no detail) of stmt
-- run with $1 = arg and $2 = val, and whether it took less than a second
CREATE FUNCTION deep_try(stmt text, arg text, val bytea DEFAULT NULL,
						 OUT outcome text, OUT fast boolean)
LANGUAGE plpgsql AS $$
DECLARE
	t0 timestamptz := clock_timestamp();
	res text;
	st text;
	msg text;
	det text;
BEGIN
	BEGIN
		EXECUTE stmt INTO res USING arg, val;
		outcome := 'ok: ' || left(res, 60);
	EXCEPTION WHEN OTHERS THEN
		GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
			det = PG_EXCEPTION_DETAIL;
		outcome := st || ': ' || left(coalesce(nullif(det, ''), msg), 100);
	END;
	fast := clock_timestamp() - t0 < interval '1 second';
END $$;

-- bytes of n lists nested in one another, the innermost holding the int 1:
-- each level a count of 1 and its one element's length (8 n + 4 bytes)
CREATE FUNCTION nested_lists(n int) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
	SELECT decode(string_agg('00000001' || lpad(to_hex(4 + 8 * (n - 1 - k)), 8, '0'), '' ORDER BY k)
				  || '00000001', 'hex')
	FROM generate_series(0, n - 1) k
$$;

CREATE ROLE regress_bloomcass_nobody;
SET ROLE regress_bloomcass_nobody;
SELECT rolsuper, rolcreaterole, rolcreatedb, rolbypassrls,
       pg_has_role('pg_read_server_files', 'MEMBER') AS reads_files,
       has_schema_privilege('public', 'CREATE') AS creates
FROM pg_roles WHERE rolname = current_user;

-- each wrapper, each class with parameters (in each place a parameter can
-- take), mixed, spelled out in full, with blanks, and unclosed: 100,000
-- levels
CREATE TEMP TABLE deep_types AS
SELECT name, repeat(pre, n) || inner_t || repeat(post, n) AS type
FROM (VALUES
	('ReversedType', 'ReversedType(', 'Int32Type', ')', 100000),
	('FrozenType', 'FrozenType(', 'Int32Type', ')', 100000),
	('CompositeType', 'CompositeType(', 'Int32Type', ')', 100000),
	('CompositeType, second', 'CompositeType(UTF8Type,', 'Int32Type', ')', 100000),
	('ListType', 'ListType(', 'Int32Type', ')', 100000),
	('SetType', 'SetType(', 'Int32Type', ')', 100000),
	('MapType, key', 'MapType(', 'Int32Type', ',Int32Type)', 100000),
	('MapType, value', 'MapType(Int32Type,', 'Int32Type', ')', 100000),
	('TupleType', 'TupleType(', 'Int32Type', ')', 100000),
	('TupleType, second', 'TupleType(Int32Type,', 'Int32Type', ')', 100000),
	('UserType', 'UserType(ks,61,62:', 'Int32Type', ')', 100000),
	('UserType, second', 'UserType(ks,61,62:Int32Type,63:', 'Int32Type', ')', 100000),
	('wrappers and lists', 'ReversedType(FrozenType(ListType(', 'Int32Type', ')))', 33334),
	('full class names', 'org.apache.cassandra.db.marshal.FrozenType(', 'Int32Type', ')', 100000),
	('blanks', E' FrozenType\t(\n', 'Int32Type', ' ) ', 100000),
	('unclosed', 'FrozenType(', '', '', 100000)
) v(name, pre, inner_t, post, n);

-- through each of the three functions that read a type string
SELECT name, fn, (deep_try(stmt, type)).*
FROM deep_types,
	(VALUES ('text', $$SELECT cassandra_key_text('\x00000001', $1)$$),
			('json', $$SELECT cassandra_key_json('\x00000001', $1)::text$$),
			('parse', $$SELECT cassandra_key_parse('1', $1)::text$$)) f(fn, stmt)
ORDER BY name COLLATE "C", fn;

-- the bound: 32 levels are read, 33 are not, wrappers counted
SELECT levels, fn, (deep_try(stmt, repeat('FrozenType(', levels - 1) || 'Int32Type' || repeat(')', levels - 1))).*
FROM (VALUES (32), (33)) l(levels),
	(VALUES ('text', $$SELECT cassandra_key_text('\x00000001', $1)$$),
			('json', $$SELECT cassandra_key_json('\x00000001', $1)::text$$),
			('parse', $$SELECT cassandra_key_parse('1', $1)::text$$)) f(fn, stmt)
ORDER BY levels, fn COLLATE "C";
-- 31 levels (15 reversed lists of Int32Type) read with a value of 15
-- lists, 33 not
SELECT levels, (deep_try($$SELECT cassandra_key_json(nested_lists(15), $1)::text$$,
						 repeat('ReversedType(ListType(', (levels - 1) / 2) || 'Int32Type' ||
						 repeat('))', (levels - 1) / 2))).*
FROM (VALUES (31), (33)) l(levels) ORDER BY levels;

-- a real nested type and a value of it, both ways
SELECT cassandra_key_text(k, t) AS text, cassandra_key_json(k, t) AS json,
       cassandra_key_parse(cassandra_key_text(k, t), t) = k AS parses_back
FROM (VALUES ('\x0000000100000001610000000c000000010000000400000001'::bytea,
			  'ReversedType(FrozenType(MapType(UTF8Type,FrozenType(ListType(Int32Type)))))')) v(k, t);

-- values nested deeper than their type, under the deepest type there is
-- (31 lists of Int32Type): bytes of 8,000 lists (a key holds at most 65535
-- bytes: 8 bytes a level) for text and JSON, and the hex of 100,000 lists
-- for the parse; 100,000 levels of tuples, escapes and brackets as text
CREATE TEMP TABLE deep_values AS
SELECT n, nested_lists(n) AS v FROM (VALUES (8000), (100000)) l(n);
SELECT n, length(v) AS bytes FROM deep_values ORDER BY n;
SELECT test, (deep_try(stmt, repeat('ListType(', 31) || 'Int32Type' || repeat(')', 31), v)).*
FROM (VALUES
	('text of 8,000 lists', 8000, $$SELECT cassandra_key_text($2, $1)$$),
	('JSON of 8,000 lists', 8000, $$SELECT cassandra_key_json($2, $1)::text$$),
	('text of 100,000 lists', 100000, $$SELECT cassandra_key_text($2, $1)$$),
	('parse of 100,000 lists', 100000, $$SELECT cassandra_key_parse(encode($2, 'hex'), $1)::text$$)
) t(test, n, stmt) JOIN deep_values USING (n) ORDER BY test COLLATE "C";
SELECT test, (deep_try(stmt, repeat('TupleType(', 31) || 'Int32Type' || repeat(')', 31))).*
FROM (VALUES
	('parse of 100,000 fields', $$SELECT cassandra_key_parse(repeat('1\:', 100000) || '1', $1)::text$$),
	('parse of 100,000 escapes', $$SELECT cassandra_key_parse(repeat('\', 100000) || ':1', $1)::text$$),
	('parse of 100,000 brackets', $$SELECT cassandra_key_parse(repeat('(', 100000) || '1' || repeat(')', 100000), $1)::text$$)
) t(test, stmt) ORDER BY test COLLATE "C";
SELECT (deep_try($$SELECT cassandra_key_parse(repeat('[', 100000) || '1' || repeat(']', 100000), $1)::text$$,
				 'FrozenType(ListType(Int32Type))')).*;

-- the backend lives on
SELECT 1 AS alive;
RESET ROLE;
DROP TABLE deep_types, deep_values;
DROP ROLE regress_bloomcass_nobody;
DROP FUNCTION deep_try(text, text, bytea);
DROP FUNCTION nested_lists(int);
RESET client_min_messages;
