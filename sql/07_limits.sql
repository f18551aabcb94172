--
-- Interrupts and limits: long operations stop promptly when cancelled, and
-- requests beyond what a PostgreSQL value can hold fail cleanly.
--

-- Every function under JIT compilation with inlining forced: the JIT
-- inliner resolves functions by symbol name, so a C symbol shared with the
-- server (PostgreSQL has its own bloom_create) would crash it.
SET jit = on;
SET jit_above_cost = 0;
SET jit_inline_above_cost = 0;
SET jit_optimize_above_cost = 0;
SELECT count(*) FILTER (WHERE bloom_contains(f, g)) AS present,
       count(*) FILTER (WHERE f @> g::text) AS text_present,
       sum(cassandra_token(g) % 2) IS NOT NULL AS tokens,
       bool_and(bloom_add(f, g) @> g) AS added,
       bool_and((f | f) = f AND (f & f) = f) AS combined,
       bool_and(bloom_fpr(f) < 1 AND bloom_cardinality(f) < 60 AND bloom_fpr(f, g) < 1) AS estimates,
       bool_and(bloom_import(bloom_export(f, 'ma'), 'ma') = f) AS export_import,
       bool_and(cassandra_key(g, g::text) IS NOT NULL) AS keys
FROM (SELECT g, bloom_create(50 + g % 1) AS f FROM generate_series(1, 50) g) s;
SELECT (bloom_info(bloom_agg(g))).bits_set > 0 AS agg, bloom_union_agg(bloom_create(g % 1 + 5)) IS NOT NULL AS union_agg,
       (bloom_sizing(count(*), 0.01)).word_count AS sizing
FROM generate_series(1, 50) g;
RESET jit;
RESET jit_above_cost;
RESET jit_inline_above_cost;
RESET jit_optimize_above_cost;

-- each statement under a 1 s statement_timeout: the seconds until the
-- cancellation arrived (test_cancel_after, 01_setup)
SET statement_timeout = '1s';
-- exact-mode bloom_agg over 500 million keys
SELECT test_cancel_after($$SELECT bloom_agg(g) FROM generate_series(1, 500000000) g$$) < 2.0
       AS exact_agg_cancelled_within_1s;
-- streaming bloom_agg sized for 500 million keys (a 600 MB filter)
SELECT test_cancel_after($$SELECT bloom_agg(g, 0.01, 500000000) FROM generate_series(1, 500000000) g$$) < 2.0
       AS streaming_agg_cancelled_within_1s;
-- contains scan against a 180 MB filter
SELECT test_cancel_after($$SELECT count(*) FROM generate_series(1, 500000000) g
                           WHERE bloom_contains(bloom_create(150000000 + (g % 1) * 0), g)$$) < 2.0
       AS contains_scan_cancelled_within_1s;
RESET statement_timeout;

-- beyond the 1 GB value limit
SELECT bloom_create(858993439, 0.01);
SELECT bloom_create(137438953389, 0.5);
SELECT bloom_agg(g, 0.0001, 1000000000) FROM generate_series(1, 10) g;
SELECT bloom_import(decode('000000057fffffff', 'hex') || '\x00'::bytea);
-- the largest filter that fits: 134217725 words (1 GB), built and inspected
SELECT word_count, filter_db_bytes FROM bloom_sizing(858993438, 0.01);
SELECT word_count, bits_set, filter_db_bytes FROM bloom_info(bloom_create(858993438, 0.01));
