-- (c) bloom_agg over a slice of the keys table: the exact-mode filter holds
-- the slice's ends, and in expected_keys mode the filter of the slice equals
-- the union of the filters of its two halves.
\set lo random(1, :nkeys - 2 * :slice)
\set mid :lo + :slice
\set hi :mid + :slice
\set expected 2 * :slice
\set last :hi - 1
SELECT soak_assert(bloom_agg(k) @> :lo::bigint AND bloom_agg(k) @> :last::bigint,
                   'agg: slice filter misses a slice key')
  FROM keys WHERE k >= :lo AND k < :hi;
SELECT soak_assert(
         (SELECT bloom_agg(k, 0.01, :expected::bigint) FROM keys WHERE k >= :lo AND k < :hi)
       = ((SELECT bloom_agg(k, 0.01, :expected::bigint) FROM keys WHERE k >= :lo AND k < :mid)
          | (SELECT bloom_agg(k, 0.01, :expected::bigint) FROM keys WHERE k >= :mid AND k < :hi)),
       'agg: filter of a slice differs from the union of its halves');
