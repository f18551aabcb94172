-- test/citus/may_contain.sql - many keys against the distributed table of
-- filters (test/citus/setup.sql): bloom_may_contain in FROM (which
-- PostgreSQL inlines, on the workers as on the coordinator), in a select
-- list (bloom_may_contain_rows put in its place), and bloom_contains_each,
-- each giving over the distributed table the rows it gives over the local
-- one.
--
-- For each key type, one array: the keys of three rows (node-1's id 1001,
-- node-4's 4242 and node-8's 8500), a NULL and a key no row has, as
-- literals of the type.  One line per check, as in test/citus/probes.sql:
--   name <TAB> t|f <TAB> what was found
-- t requires the same rows on both sides (compared as sorted text) and,
-- for the FROM form, among them every (filter, key) of a filter built from
-- a row holding the key (keys_local says which).

SET client_min_messages = warning;

WITH types(kname, fcol, kexpr, absent) AS (
	VALUES ('text', 'f_text', 'k_text', quote_literal('key-absent')),
	       ('int4', 'f_int4', 'k_int4', '999999'),
	       ('int8', 'f_int8', 'k_int8', '999999::bigint'),
	       ('uuid', 'f_uuid', 'k_uuid', quote_literal('00000000-0000-0000-0000-000000000000') || '::uuid'),
	       ('composite', 'f_comp', 'cassandra_key(tenant, id)', 'cassandra_key(''tenant-absent''::text, 999999)')),
lits AS (
	-- the row keys as literals of their type, in the order of the rows
	SELECT t.kname, t.fcol, t.kexpr, t.absent,
	       string_agg(CASE t.kname
	                  WHEN 'text' THEN quote_literal(k.k_text)
	                  WHEN 'int4' THEN k.k_int4::text
	                  WHEN 'int8' THEN k.k_int8::text || '::bigint'
	                  WHEN 'uuid' THEN quote_literal(k.k_uuid) || '::uuid'
	                  ELSE format('cassandra_key(%L::text, %s)', k.tenant, k.id)
	                  END, ', ' ORDER BY k.label) AS row_lits
	FROM types t, keys_local k
	WHERE (k.label, k.id) IN (('node-1', 1001), ('node-4', 4242), ('node-8', 8500))
	GROUP BY 1, 2, 3, 4),
arrays AS (
	SELECT kname, fcol, kexpr, row_lits,
	       format('ARRAY[%s, NULL, %s]', row_lits, absent) AS arr
	FROM lits),
checks(kname, form, q_local, q_dist) AS (
	SELECT kname, 'bloom_may_contain in FROM',
	       format('SELECT label, grp, part, k::text AS k FROM filters_local, bloom_may_contain(%s, %s) k', fcol, arr),
	       format('SELECT label, grp, part, k::text AS k FROM filters_dist, bloom_may_contain(%s, %s) k', fcol, arr)
	FROM arrays
	UNION ALL
	SELECT kname, 'bloom_may_contain in a select list',
	       format('SELECT label, grp, part, bloom_may_contain(%s, %s)::text AS k FROM filters_local', fcol, arr),
	       format('SELECT label, grp, part, bloom_may_contain(%s, %s)::text AS k FROM filters_dist', fcol, arr)
	FROM arrays
	UNION ALL
	SELECT kname, 'bloom_contains_each',
	       format('SELECT label, grp, part, bloom_contains_each(%s, %s)::text AS k FROM filters_local', fcol, arr),
	       format('SELECT label, grp, part, bloom_contains_each(%s, %s)::text AS k FROM filters_dist', fcol, arr)
	FROM arrays)
SELECT 'DROP TABLE IF EXISTS pg_temp.m_local, pg_temp.m_dist, pg_temp.m_want',
       format('CREATE TEMP TABLE m_want AS SELECT DISTINCT label, grp, id %% 25 AS part, (%s)::text AS k
               FROM keys_local WHERE (label, id) IN ((''node-1'', 1001), (''node-4'', 4242), (''node-8'', 8500))',
              a.kexpr),
       format('CREATE TEMP TABLE m_local AS %s', c.q_local),
       format('CREATE TEMP TABLE m_dist AS %s', c.q_dist),
       format($c$
SELECT %L,
       (SELECT array_agg(x::text ORDER BY x::text) FROM pg_temp.m_local x) IS NOT DISTINCT FROM
         (SELECT array_agg(x::text ORDER BY x::text) FROM pg_temp.m_dist x)
       AND (SELECT count(*) > 0 FROM pg_temp.m_dist)
       AND (%L <> 'bloom_may_contain in FROM'
            OR NOT EXISTS (SELECT * FROM pg_temp.m_want EXCEPT SELECT * FROM pg_temp.m_dist)),
       format('local %%s rows, distributed %%s rows; filters holding a key %%s, of them not returned: %%s',
              (SELECT count(*) FROM pg_temp.m_local), (SELECT count(*) FROM pg_temp.m_dist),
              (SELECT count(*) FROM pg_temp.m_want),
              (SELECT coalesce(string_agg(x::text, ' '), 'none')
               FROM (SELECT * FROM pg_temp.m_want EXCEPT SELECT * FROM pg_temp.m_dist) x))$c$,
              format('%s over %s filters, three row keys, a NULL and an absent key', c.form, c.kname), c.form)
FROM checks c JOIN arrays a USING (kname)
ORDER BY c.kname, c.form
\gexec
