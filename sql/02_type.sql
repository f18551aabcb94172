--
-- The bloom type: text and binary input/output, casts, equality, storage.
--
-- A value's text form is \x and the hex of: format version (01), flags
-- (01 = old hash order), two reserved zero bytes, then the Filter.db image
-- in the Cassandra 4.0+ layout.
--

-- the Filter.db of Cassandra's own legacy_*_simple tables (keys '0'..'4')
SELECT '\x01000000000000050000000284422106000104000' || '0a602200400c008' AS cass5 \gset
SELECT :'cass5'::bloom;
SELECT (:'cass5'::bloom)::text = :'cass5' AS text_round_trip;
SELECT upper(:'cass5') AS upper \gset
SELECT ('\x' || substr(:'upper', 3))::bloom = :'cass5'::bloom AS upper_case_hex_accepted;
SELECT :'upper'::bloom;

-- an old-order filter keeps its flag through text I/O
SELECT bloom_import('\x0000000500000002000401000621428408c000042002a600'::bytea, 'ka') AS ka_filter;
SELECT (bloom_import('\x0000000500000002000401000621428408c000042002a600'::bytea, 'ka'))::text::bloom
       = bloom_import('\x0000000500000002000401000621428408c000042002a600'::bytea, 'ka') AS old_order_round_trip;

-- casts with bytea use the Cassandra 4.0+ layout
SELECT ('\x0000000500000002844221060001040000a602200400c008'::bytea)::bloom = :'cass5'::bloom AS cast_from_bytea;
SELECT (:'cass5'::bloom)::bytea;

-- equality looks at the order flag too
SELECT bloom_import('\x0000000500000002844221060001040000a602200400c008'::bytea, 'nb')
     = bloom_import('\x0000000500000002000401000621428408c000042002a600'::bytea, 'ma') AS same_bits_same_order,
       bloom_import('\x0000000500000002844221060001040000a602200400c008'::bytea, 'nb')
     = bloom_import('\x0000000500000002000401000621428408c000042002a600'::bytea, 'ka') AS same_bits_other_order,
       bloom_import('\x0000000500000002844221060001040000a602200400c008'::bytea, 'nb')
    <> bloom_create(5) AS differs_from_empty;

-- type properties: external storage (bitsets do not compress), double alignment
SELECT typname, typlen, typalign, typstorage FROM pg_type WHERE typname = 'bloom';

-- stored values round-trip through a table, binary COPY and text COPY
CREATE TABLE filters (id int PRIMARY KEY, f bloom);
INSERT INTO filters VALUES
	(1, :'cass5'),
	(2, bloom_import('\x0000000500000002000401000621428408c000042002a600'::bytea, 'ka')),
	(3, bloom_create(0)),
	(4, bloom_create(1000000, 0.001)),
	(5, (SELECT bloom_agg(g) FROM generate_series(1, 20000) g));
SELECT id, length(f::text) AS text_length, pg_column_size(f) AS stored_bytes FROM filters ORDER BY id;

CREATE TEMP TABLE snapshot AS SELECT id, f::text AS t FROM filters;
SELECT test_path('copy.bin') AS copy_bin, test_path('copy.txt') AS copy_txt \gset
COPY filters TO :'copy_bin' (FORMAT binary);
COPY filters TO :'copy_txt';
CREATE TABLE filters_bin (LIKE filters);
CREATE TABLE filters_txt (LIKE filters);
COPY filters_bin FROM :'copy_bin' (FORMAT binary);
COPY filters_txt FROM :'copy_txt';
SELECT count(*) AS rows,
       count(*) FILTER (WHERE b.f = s.t::bloom AND b.f::text = s.t) AS binary_identical,
       count(*) FILTER (WHERE x.f = s.t::bloom AND x.f::text = s.t) AS text_identical
FROM snapshot s JOIN filters_bin b USING (id) JOIN filters_txt x USING (id);

-- send/recv directly
SELECT bloom_send(f) = decode(substr(f::text, 3), 'hex') AS send_is_text_bytes FROM filters WHERE id = 1;

-- malformed text input: each gives its own message
SELECT ''::bloom;
SELECT '01000000'::bloom;
SELECT '\x010'::bloom;
SELECT '\x01zz'::bloom;
SELECT '\x'::bloom;
SELECT '\x01'::bloom;
SELECT '\x010000'::bloom;
-- the valid value above with one thing wrong at a time
SELECT ('\x02' || substr(:'cass5', 5))::bloom;
SELECT ('\x0102' || substr(:'cass5', 7))::bloom;
SELECT ('\x0100ff00' || substr(:'cass5', 11))::bloom;
SELECT '\x01000000'::bloom;
SELECT '\x0100000000000005'::bloom;
SELECT '\x010000000000000500000002'::bloom;
SELECT left(:'cass5', -2)::bloom;
SELECT (:'cass5' || '00')::bloom;
SELECT (:'cass5' || '0000000000000000')::bloom;
SELECT ('\x0100000000000000' || substr(:'cass5', 19))::bloom;
SELECT ('\x01000000ffffffff' || substr(:'cass5', 19))::bloom;
SELECT ('\x0100000000000016' || substr(:'cass5', 19))::bloom;
SELECT ('\x0100000000000015' || substr(:'cass5', 19))::bloom AS k21_accepted;
SELECT ('\x010000000000000500000000' || substr(:'cass5', 27))::bloom;
SELECT ('\x0100000000000005ffffffff' || substr(:'cass5', 27))::bloom;
SELECT ('\x010000000000000580000000' || substr(:'cass5', 27))::bloom;
SELECT ('\x01000000000000057fffffff' || substr(:'cass5', 27))::bloom;
SELECT ('\x010000000000000500000001' || substr(:'cass5', 27))::bloom;

-- malformed binary input (COPY FROM binary with a corrupted value)
SELECT test_path('bad.bin') AS bad_bin \gset
-- a bytea column's binary COPY carries raw bytes, which bloom_recv then reads
CREATE TABLE bad (f bloom);
COPY (SELECT decode(substr(:'cass5', 3), 'hex')) TO :'bad_bin' (FORMAT binary);
COPY bad FROM :'bad_bin' (FORMAT binary);
COPY (SELECT decode('010000000000000500000002ffff', 'hex')) TO :'bad_bin' (FORMAT binary);
COPY bad FROM :'bad_bin' (FORMAT binary);
COPY (SELECT decode('090000000000000500000001ffffffffffffffff', 'hex')) TO :'bad_bin' (FORMAT binary);
COPY bad FROM :'bad_bin' (FORMAT binary);
COPY (SELECT decode('01000000000000050000000100000000000000000000', 'hex')) TO :'bad_bin' (FORMAT binary);
COPY bad FROM :'bad_bin' (FORMAT binary);
COPY (SELECT decode('01000000', 'hex')) TO :'bad_bin' (FORMAT binary);
COPY bad FROM :'bad_bin' (FORMAT binary);
SELECT f = :'cass5'::bloom AS only_the_valid_row_loaded, count(*) OVER () FROM bad;
