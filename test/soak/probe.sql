-- (a) membership probes against the shared filters, read while other clients
-- rewrite them.  The second statement re-checks the 20 most recent keys that
-- committed add transactions recorded: the inserted row and the filter update
-- commit together, so in one statement snapshot every visible key must be
-- found (soak_assert raises otherwise, which aborts the client).
\set id random(1, :nfilters)
\set key random(1, 1000000000000)
SELECT bloom_contains(f, :key::bigint) FROM filters WHERE id = :id;
SELECT soak_assert(coalesce(bool_and(bloom_contains(fl.f, i.key)), true), 'probe: recently inserted key not found')
  FROM (SELECT id, key FROM inserted ORDER BY seq DESC LIMIT 20) i
  JOIN filters fl USING (id);
