-- (c') bloom_agg over the whole keys table with a parallel plan (partial
-- aggregates in parallel workers, when free ones exist) must give the bytes
-- of the serial aggregate computed at set-up.
SELECT soak_assert(bloom_agg(k) = (SELECT f FROM agg_ref), 'agg_full: parallel bloom_agg differs from the serial one')
  FROM keys;
