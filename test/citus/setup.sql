-- test/citus/setup.sql - the data of test/citus.sh, on the coordinator:
-- the same rows in local tables (*_local) and in tables distributed by
-- label (*_dist, 32 shards over the two workers).
--
-- keys: 8 labels (node-1 .. node-8) of 2,500 rows, in 3 groups (grp), with
-- keys of every type the checks use: text (NULL in every 97th row), int4,
-- int8, uuid, and a composite key's parts (tenant, id).  Each label's keys
-- overlap the next label's (id = label * 1000 + g, g in 1..2500), so a
-- whole-table filter has fewer distinct keys than rows.
--
-- filters: one filter per key type for each (label, grp, part), part being
-- id % 25: 600 rows, every filter sized for 1,000 keys at fp_chance 0.01
-- (one shape, as bloom_union_agg wants).

SET citus.shard_count = 32;

CREATE TABLE keys_local (
	label  text NOT NULL,
	grp    int NOT NULL,
	k_text text,
	k_int4 int NOT NULL,
	k_int8 bigint NOT NULL,
	k_uuid uuid NOT NULL,
	tenant text NOT NULL,
	id     int NOT NULL
);
INSERT INTO keys_local
SELECT 'node-' || l, g % 3,
       CASE WHEN g % 97 <> 0 THEN 'key-' || (l * 1000 + g) || '-' || md5((l * 1000 + g)::text) END,
       l * 1000 + g,
       (l * 1000 + g)::bigint * 1000003,
       md5('uuid' || (l * 1000 + g))::uuid,
       'tenant-' || g % 7,
       l * 1000 + g
FROM generate_series(1, 8) l, generate_series(1, 2500) g;

CREATE TABLE keys_dist (LIKE keys_local);
SELECT create_distributed_table('keys_dist', 'label');
INSERT INTO keys_dist SELECT * FROM keys_local;

CREATE TABLE filters_local AS
SELECT label, grp, id % 25 AS part,
       bloom_agg(k_text, 0.01, 1000::bigint) AS f_text,
       bloom_agg(k_int4, 0.01, 1000::bigint) AS f_int4,
       bloom_agg(k_int8, 0.01, 1000::bigint) AS f_int8,
       bloom_agg(k_uuid, 0.01, 1000::bigint) AS f_uuid,
       bloom_agg(cassandra_key(tenant, id), 0.01, 1000::bigint) AS f_comp
FROM keys_local GROUP BY 1, 2, 3;

CREATE TABLE filters_dist (LIKE filters_local);
SELECT create_distributed_table('filters_dist', 'label');
INSERT INTO filters_dist SELECT * FROM filters_local;

-- what the stage prints: the tables and where their shards are
SELECT logicalrelid AS distributed_table, count(*) AS shards,
       count(DISTINCT nodeport) AS nodes
FROM pg_dist_shard JOIN pg_dist_placement USING (shardid)
     JOIN pg_dist_node USING (groupid)
WHERE logicalrelid IN ('keys_dist'::regclass, 'filters_dist'::regclass)
GROUP BY 1 ORDER BY 1::text;
SELECT (SELECT count(*) FROM keys_dist) AS keys_dist_rows,
       (SELECT count(*) FROM filters_dist) AS filters_dist_rows;
