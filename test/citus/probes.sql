-- test/citus/probes.sql - `WHERE f @> key` over the distributed table of
-- filters (test/citus/setup.sql) finds what it finds over the local table,
-- and every filter built from a row holding the key.
--
-- For each key type, the keys of three rows (node-1's id 1001, node-4's
-- 4242 and node-8's 8500; an id is in up to three labels, the other columns
-- of the key differ) and one key no row has: the distributed and the local
-- query are each run as written, with the key as a literal of its type,
-- into a temporary table.  One line per probe, as in
-- test/citus/aggregates.sql:
--   name <TAB> t|f <TAB> what was found
-- t requires the same (label, grp, part) rows on both sides, among them
-- every filter built from a row holding the key (keys_local says which),
-- and, for a key of a row, at least one such filter.
-- test/citus.sh checks separately (EXPLAIN) that the probe runs on the
-- workers.

SET client_min_messages = warning;

WITH probes(kname, fcol, kexpr, label, id) AS (
	SELECT kname, fcol, kexpr, label, id
	FROM (VALUES ('text', 'f_text', 'k_text'), ('int4', 'f_int4', 'k_int4'),
	             ('int8', 'f_int8', 'k_int8'), ('uuid', 'f_uuid', 'k_uuid'),
	             ('composite', 'f_comp', 'cassandra_key(tenant, id)')) k(kname, fcol, kexpr),
	     (VALUES ('node-1', 1001), ('node-4', 4242), ('node-8', 8500), (NULL, NULL)) p(label, id)),
q AS (
	-- the key as a literal of its type: the row's, or one no row has
	SELECT p.kname, p.fcol, p.kexpr, p.label, p.id,
	       CASE p.kname
	       WHEN 'text' THEN coalesce(quote_literal(k.k_text), '''key-absent''')
	       WHEN 'int4' THEN coalesce(k.k_int4, 999999)::text
	       WHEN 'int8' THEN coalesce(k.k_int8, 999999)::text || '::bigint'
	       WHEN 'uuid' THEN quote_literal(coalesce(k.k_uuid, '00000000-0000-0000-0000-000000000000')) || '::uuid'
	       ELSE format('cassandra_key(%L::text, %s)', coalesce(k.tenant, 'tenant-absent'), coalesce(k.id, 999999))
	       END AS lit
	FROM probes p LEFT JOIN keys_local k ON k.label = p.label AND k.id = p.id)
SELECT 'DROP TABLE IF EXISTS pg_temp.p_local, pg_temp.p_dist, pg_temp.p_want',
       format('CREATE TEMP TABLE p_want AS SELECT DISTINCT label, grp, id %% 25 AS part FROM keys_local WHERE %s = %s',
              kexpr, lit),
       format('CREATE TEMP TABLE p_local AS SELECT label, grp, part FROM filters_local WHERE %s @> %s', fcol, lit),
       format('CREATE TEMP TABLE p_dist AS SELECT label, grp, part FROM filters_dist WHERE %s @> %s', fcol, lit),
       format($c$
SELECT %L,
       (SELECT array_agg(x::text ORDER BY x::text) FROM pg_temp.p_local x) IS NOT DISTINCT FROM
         (SELECT array_agg(x::text ORDER BY x::text) FROM pg_temp.p_dist x)
       AND NOT EXISTS (SELECT label, grp, part FROM pg_temp.p_want EXCEPT SELECT * FROM pg_temp.p_dist)
       AND (SELECT count(*) > 0 FROM pg_temp.p_want) = %L::boolean,
       format('local %%s, distributed %%s, holding the key %%s',
              (SELECT coalesce(string_agg(x::text, ' ' ORDER BY x), 'none') FROM pg_temp.p_local x),
              (SELECT coalesce(string_agg(x::text, ' ' ORDER BY x), 'none') FROM pg_temp.p_dist x),
              (SELECT coalesce(string_agg(x::text, ' ' ORDER BY x), 'none') FROM pg_temp.p_want x))$c$,
              format('probe f @> %s over %s filters', lit, kname), id IS NOT NULL)
FROM q ORDER BY kname, id NULLS LAST
\gexec
