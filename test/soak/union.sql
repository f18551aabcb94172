-- (d) bloom_union_agg over the shared filters while they are being updated:
-- in one snapshot the union has at least as many bits as any member, and it
-- holds a freshly recorded key.
SELECT soak_assert(u IS NOT NULL AND (bloom_info(u)).bits_set >= m,
                   'union: bloom_union_agg has fewer bits than a member')
  FROM (SELECT bloom_union_agg(f) AS u, max((bloom_info(f)).bits_set) AS m FROM filters) s;
SELECT soak_assert(coalesce(bool_and(u @> i.key), true), 'union: recently inserted key not in the union')
  FROM (SELECT bloom_union_agg(f) AS u FROM filters) s,
       (SELECT key FROM inserted ORDER BY seq DESC LIMIT 5) i;
