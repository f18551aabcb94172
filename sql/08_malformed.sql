--
-- A generated battery of corrupted values through every input path: text
-- input, binary receive (COPY BINARY), the bytea cast and bloom_import.
-- Whether each value is valid is decided here by the Filter.db rules
-- (hash count 1..21, word count >= 1, exactly 8 + 8 * word_count bytes,
-- format header 01 / flags 00 or 01 / reserved 0000), independently of the
-- extension; every invalid value must give an ERROR with the SQLSTATE of
-- its path and a message naming the problem, every valid one must load.
--
SELECT setseed(0.42);

-- the base Filter.db images (Cassandra 4.0+ layout)
CREATE TEMP TABLE base AS
SELECT name, test_file('vectors/' || name || '.db') AS db
FROM unnest(ARRAY['filter_text_5_p01', 'filter_uuid_300_p05', 'filter_blob_777_p03', 'filter_empty_p01']) name;

CREATE FUNCTION be32(v bigint) RETURNS bytea LANGUAGE sql IMMUTABLE
AS $$ SELECT decode(lpad(to_hex(v & 4294967295), 8, '0'), 'hex') $$;

-- candidates: (kind, bytes of a Filter.db image)
CREATE TEMP TABLE cand (id serial, kind text, db bytea);
-- every truncation
INSERT INTO cand (kind, db)
SELECT 'truncated', substr(db, 1, l) FROM base, generate_series(0, length(db) - 1) l;
-- trailing bytes
INSERT INTO cand (kind, db)
SELECT 'trailing', db || substr(decode(repeat('ff', 16), 'hex'), 1, n) FROM base, generate_series(1, 16) n;
-- hash count out of range and at its edges
INSERT INTO cand (kind, db)
SELECT 'hash_count', overlay(db placing be32(k) from 1 for 4) FROM base,
       unnest(ARRAY[0, -1, 1, 21, 22, 100, 2147483647, -2147483648, 65536, 256]::bigint[]) k;
-- word count: zero, negative, huge, off by one, random
INSERT INTO cand (kind, db)
SELECT 'word_count', overlay(db placing be32(w) from 5 for 4) FROM base,
       unnest(ARRAY[0, -1, -2147483648, 2147483647, 134217725, 134217726, 1, 2, 3, 5, 37, 38, 36]::bigint[]) w;
INSERT INTO cand (kind, db)
SELECT 'word_count_random', overlay(db placing be32((random() * 4294967295)::bigint) from 5 for 4)
FROM base, generate_series(1, 40);
-- one flipped bit in the header
INSERT INTO cand (kind, db)
SELECT 'header_bit', set_bit(db, byte * 8 + bit, 1 - get_bit(db, byte * 8 + bit))
FROM base, generate_series(0, 7) byte, generate_series(0, 7) bit;
-- random headers
INSERT INTO cand (kind, db)
SELECT 'random_header', decode(md5(random()::text), 'hex')::bytea || substr(db, 17)
FROM base, generate_series(1, 40);
-- random garbage of random length
INSERT INTO cand (kind, db)
SELECT 'garbage', substr(decode(md5(random()::text) || md5(random()::text) || md5(random()::text), 'hex'),
                         1, (random() * 48)::int)
FROM generate_series(1, 100);

-- the independent rule
CREATE TEMP VIEW cand_expect AS
SELECT id, kind, db,
       length(db) >= 8
       AND ('x' || encode(substr(db, 1, 4), 'hex'))::bit(32)::int BETWEEN 1 AND 21
       AND ('x' || encode(substr(db, 5, 4), 'hex'))::bit(32)::int >= 1
       AND length(db)::bigint = 8 + 8 * ('x' || encode(substr(db, 5, 4), 'hex'))::bit(32)::int::bigint
       AS valid
FROM cand;

SELECT count(*) AS candidates, count(*) FILTER (WHERE valid) AS valid, count(*) FILTER (WHERE NOT valid) AS invalid
FROM cand_expect;

-- run one input path, returning 'ok' or 'SQLSTATE: message'
CREATE FUNCTION try_input(stmt text, arg bytea) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	msg text;
	st text;
BEGIN
	EXECUTE stmt USING arg;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
	RETURN st || ': ' || msg;
END $$;

-- binary receive: the bytes go through COPY ... FROM (FORMAT binary)
CREATE TEMP TABLE recv_target (f bloom);
SELECT test_path('malformed.bin') AS bin_path \gset
CREATE FUNCTION try_recv(payload bytea) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	msg text;
	st text;
BEGIN
	EXECUTE format('COPY (SELECT %L::bytea) TO %L (FORMAT binary)', payload, current_setting('test.bin_path'));
	EXECUTE format('COPY recv_target FROM %L (FORMAT binary)', current_setting('test.bin_path'));
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
	RETURN st || ': ' || msg;
END $$;
SELECT set_config('test.bin_path', :'bin_path', false) IS NOT NULL AS configured;

CREATE TEMP TABLE outcome AS
SELECT id, kind, valid, 'bytea cast' AS path, try_input('SELECT $1::bloom', db) AS result FROM cand_expect
UNION ALL
SELECT id, kind, valid, 'bloom_import oa', try_input('SELECT bloom_import($1, ''oa'')', db) FROM cand_expect
UNION ALL
SELECT id, kind, valid, 'bloom_import ma', try_input('SELECT bloom_import($1, ''ma'')', db) FROM cand_expect
UNION ALL
SELECT id, kind, valid, 'text input',
       try_input('SELECT (''\x'' || encode($1, ''hex''))::text::bloom', '\x01000000'::bytea || db) FROM cand_expect
UNION ALL
SELECT id, kind, valid, 'binary receive', try_recv('\x01000000'::bytea || db) FROM cand_expect;

-- every invalid value refused and every valid one accepted, on every path
SELECT path, count(*) AS tried,
       count(*) FILTER (WHERE NOT valid AND result <> 'ok') AS refused,
       count(*) FILTER (WHERE valid AND result = 'ok') AS accepted,
       count(*) FILTER (WHERE valid <> (result = 'ok')) AS wrong
FROM outcome GROUP BY path ORDER BY path;

-- the errors, by path, SQLSTATE and message
SELECT path, result, count(*) FROM outcome WHERE result <> 'ok' GROUP BY 1, 2 ORDER BY 1, 2;

-- the type's own header, through text input and binary receive
CREATE TEMP TABLE hdr AS
SELECT 'format ' || f AS kind, decode(lpad(to_hex(f), 2, '0') || '000000', 'hex') AS h, f = 1 AS valid
FROM generate_series(0, 255) f
UNION ALL
SELECT 'flags ' || g, decode('01' || lpad(to_hex(g), 2, '0') || '0000', 'hex'), g IN (0, 1)
FROM generate_series(0, 255) g
UNION ALL
SELECT 'reserved ' || r, decode('0100' || lpad(to_hex(r), 4, '0'), 'hex'), r = 0
FROM generate_series(0, 65535, 257) r;
CREATE TEMP TABLE hdr_outcome AS
SELECT kind, valid, 'text input' AS path,
       try_input('SELECT (''\x'' || encode($1, ''hex''))::text::bloom', h || (SELECT db FROM base WHERE name = 'filter_text_5_p01')) AS result
FROM hdr
UNION ALL
SELECT kind, valid, 'binary receive', try_recv(h || (SELECT db FROM base WHERE name = 'filter_text_5_p01'))
FROM hdr;
SELECT path, count(*) AS tried, count(*) FILTER (WHERE valid <> (result = 'ok')) AS wrong
FROM hdr_outcome GROUP BY path ORDER BY path;
-- (the offending flags byte or format version is named; shown here as NN)
SELECT path, regexp_replace(result, '(flags 0x|format version )[0-9a-f]+', '\1NN') AS result, count(*)
FROM hdr_outcome WHERE result <> 'ok' GROUP BY 1, 2 ORDER BY 1, 2;

-- garbage text
CREATE TEMP TABLE garbage_text AS
SELECT t FROM unnest(ARRAY['', 'x', '\', '\x', '\x0', '\xg0', '\x01000000zz', ' \x01', '\x01 00', 'null',
                           '\x01000000000000050000000284422106000104000', '\X01', '\\x01', '0x01',
                           '\x01000000000000050000000284422106000104000' || 'Ü']) t
UNION ALL
SELECT '\x' || translate(md5(random()::text), '0123456789', 'ghijklmnop') FROM generate_series(1, 50);
SELECT count(*) AS tried,
       count(*) FILTER (WHERE try_input('SELECT $1::text::bloom', convert_to(t, 'UTF8')) LIKE '22P02: %') AS refused_22p02
FROM garbage_text;
SELECT try_input('SELECT convert_from($1, ''UTF8'')::bloom', convert_to(t, 'UTF8')) AS result, count(*)
FROM garbage_text GROUP BY 1 ORDER BY 1;

-- wrong version names
SELECT v, try_input(format('SELECT bloom_import($1, %L)', v), (SELECT db FROM base WHERE name = 'filter_text_5_p01')) AS result
FROM unnest(ARRAY['', 'z', 'zz', 'NB', 'nb ', ' nb', 'n', 'nbb', 'pc', 'mf', 'hf', 'ga', 'f', 'ab', 'ae', 'bc',
                  'ka-1', 'nb-1-big-Data.db', 'nb-1-xyz-Filter.db', 'da-1-big-Filter.db', 'nb-1-bti-Filter.db',
                  'ks-cf-zz-1-Filter.db', 'ks-cf-hf-1-Filter.db', 'Filter.db', '-Filter.db', 'big', 'bti', '4.0',
                  'cassandra-5.0', 'n b']) v
ORDER BY v;
