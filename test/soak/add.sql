-- (b) bloom_add updates of a shared row; every key added is recorded in the
-- same transaction, so the final check can verify that no update was lost.
\set id random(1, :nfilters)
\set key random(1, 1000000000000)
BEGIN;
UPDATE filters SET f = bloom_add(f, :key::bigint) WHERE id = :id;
INSERT INTO inserted (id, key) VALUES (:id, :key::bigint);
END;
