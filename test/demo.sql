-- test/demo.sql - a short tour of bloomcass.
-- Run with:  bash test/demo.sh   (psql echoes this file as it runs it)

CREATE EXTENSION bloomcass;

-- ---------------------------------------------------------------------
-- Cassandra's murmur3 hash
-- ---------------------------------------------------------------------
-- Cassandra hashes a partition key with its own variant of MurmurHash3
-- x64_128 (seed 0): unlike the reference implementation, the bytes of the
-- last, incomplete 16-byte block are sign-extended.  The two 64-bit halves
-- h1 and h2 are what both the partitioner and the bloom filter use.
-- '\x6b657930' is the UTF-8 encoding of the text 'key0'.
SELECT * FROM cassandra_murmur3('\x6b657930'::bytea);

-- ---------------------------------------------------------------------
-- Cassandra's token
-- ---------------------------------------------------------------------
-- With the default Murmur3Partitioner, a row's token (which decides the
-- nodes that own the row on the ring, and which CQL's token() function
-- returns) is h1 of that hash, as a signed 64-bit integer.  Two special
-- cases: an h1 equal to the minimum bigint becomes the maximum bigint (the
-- minimum token is reserved), and the empty key gets the minimum token.
SELECT cassandra_token(convert_to('key0', 'UTF8')) AS token;

-- The token is h1 of the murmur3 hash:
SELECT cassandra_token(convert_to('key0', 'UTF8'))
       = (cassandra_murmur3(convert_to('key0', 'UTF8'))).h1 AS token_is_h1;

-- Tokens of a few keys, in ring order:
SELECT k AS key, cassandra_token(convert_to(k, 'UTF8')) AS token
FROM (SELECT 'key' || i AS k FROM generate_series(0, 4) AS i) AS keys
ORDER BY token;
