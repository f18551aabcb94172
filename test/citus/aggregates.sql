-- test/citus/aggregates.sql - the aggregates over the distributed tables
-- give the bytes they give over the local tables (test/citus/setup.sql).
--
-- For every aggregate form, key type and grouping (none; GROUP BY label, the
-- distribution column; GROUP BY grp, another column) the local and the
-- distributed query are each run as written, into a temporary table, and
-- compared group by group on the text form of the bloom value (its whole
-- bytes: header and Filter.db image).  Each comparison prints one line,
--   name <TAB> t|f <TAB> what was found
-- which test/citus.sh counts; t requires the expected number of groups
-- (1, 8, 3), none missing on either side, every filter non-NULL with bits
-- set, and the same bytes.

WITH aggs(aname, expr, src) AS (VALUES
	('bloom_agg(k)', 'bloom_agg(%s)', 'keys'),
	('bloom_agg(k, 0.01)', 'bloom_agg(%s, 0.01)', 'keys'),
	('bloom_agg(k, 0.01, ''nb'')', 'bloom_agg(%s, 0.01, ''nb'')', 'keys'),
	('bloom_agg(k, 0.01, 100000::bigint)', 'bloom_agg(%s, 0.01, 100000::bigint)', 'keys'),
	('bloom_union_agg(f)', 'bloom_union_agg(%s)', 'filters')),
keys(kname, kcol, fcol) AS (VALUES
	('text', 'k_text', 'f_text'),
	('int4', 'k_int4', 'f_int4'),
	('int8', 'k_int8', 'f_int8'),
	('uuid', 'k_uuid', 'f_uuid'),
	('composite', 'cassandra_key(tenant, id)', 'f_comp')),
groupings(gname, gcol, ngroups, ord) AS (VALUES
	('whole table', NULL, 1, 1),
	('GROUP BY label', 'label', 8, 2),
	('GROUP BY grp', 'grp', 3, 3)),
q AS (
	SELECT format('%s over %s keys, %s', aname, kname, gname) AS name,
	       format(expr, CASE src WHEN 'keys' THEN kcol ELSE fcol END) AS agg,
	       src, gcol, ngroups
	FROM aggs, keys, groupings
	ORDER BY src DESC, aname, kname, ord)
SELECT 'DROP TABLE IF EXISTS pg_temp.r_local, pg_temp.r_dist',
       format('CREATE TEMP TABLE r_local AS SELECT %s AS g, %s AS f FROM %s_local %s',
              coalesce(gcol, '''-'''), agg, src, CASE WHEN gcol IS NOT NULL THEN 'GROUP BY 1' ELSE '' END),
       format('CREATE TEMP TABLE r_dist AS SELECT %s AS g, %s AS f FROM %s_dist %s',
              coalesce(gcol, '''-'''), agg, src, CASE WHEN gcol IS NOT NULL THEN 'GROUP BY 1' ELSE '' END),
       format($c$
SELECT %L,
       count(*) = %s AND count(l.g) = count(*) AND count(d.g) = count(*)
         AND bool_and(l.f IS NOT NULL AND (bloom_info(l.f)).bits_set > 0)
         AND bool_and(l.f::text IS NOT DISTINCT FROM d.f::text),
       format('%%s groups (expected %s), %%s differ%%s', count(*),
              count(*) FILTER (WHERE l.f::text IS DISTINCT FROM d.f::text),
              ': group ' || min(g::text) FILTER (WHERE l.f::text IS DISTINCT FROM d.f::text OR l.f IS NULL)
                || ' local ' || coalesce(min(length(l.f::text) || ' chars md5 ' || md5(l.f::text))
                                FILTER (WHERE l.f::text IS DISTINCT FROM d.f::text OR l.f IS NULL), 'NULL')
                || ', distributed ' || coalesce(min(length(d.f::text) || ' chars md5 ' || md5(d.f::text))
                                FILTER (WHERE l.f::text IS DISTINCT FROM d.f::text OR l.f IS NULL), 'NULL'))
FROM pg_temp.r_local l FULL JOIN pg_temp.r_dist d USING (g)$c$, name, ngroups, ngroups)
FROM q
\gexec
