#!/usr/bin/env bash
#
# test/soak/run.sh - concurrency soak of bloomcass under pgbench.
#
#   bash test/soak/run.sh                   # 8 clients x 60 s
#   SOAK_SECONDS=600 bash test/soak/run.sh  # longer
#
# Builds and installs the extension, starts a throwaway cluster and runs
# pgbench (8 clients, 2 threads, prepared statements) with a weighted mix of
# scripts from this directory:
#   probe.sql     (a) bloom_contains probes on shared filters, plus a check
#                     that recently recorded keys are found
#   add.sql       (b) UPDATE filters SET f = bloom_add(f, key) on a shared
#                     row, recording the key in `inserted` in the same
#                     transaction
#   agg.sql       (c) bloom_agg over a slice of a keys table (self-checking)
#   agg_full.sql  (c') parallel bloom_agg over the whole keys table, equal to
#                     the serial result
#   union.sql     (d) bloom_union_agg over the shared filters (self-checking)
# The scripts check invariants with soak_assert(), which raises an error, so a
# broken invariant shows up as a failed transaction / aborted client.
#
# It fails if pgbench exits non-zero or reports failed transactions, if any
# recorded key is missing from its row's filter, if a filter differs from the
# filter rebuilt from its recorded keys, if the number of recorded keys
# does not match the number of add transactions, if the server log has an
# ERROR, or if a backend crashed.  It ends with
#   soak: N transactions, 0 errors, 0 missing keys in S s

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

# shellcheck source=test/lib/common.sh
. "$ROOT/test/lib/common.sh"

SOAK_SECONDS=${SOAK_SECONDS:-60}
SOAK_CLIENTS=${SOAK_CLIENTS:-8}
SOAK_THREADS=${SOAK_THREADS:-2}
NFILTERS=16          # shared filter rows
FILTER_KEYS=200000   # bloom_create(FILTER_KEYS, 0.01): 250,016-byte filters
NKEYS=200000         # rows of the keys table
SLICE=2500           # agg.sql aggregates two slices of this many keys

[[ $SOAK_SECONDS =~ ^[1-9][0-9]*$ ]] || bc_die "SOAK_SECONDS must be a positive integer"

bc_install_deps
bc_build_install >/dev/null

bc_cluster_start
WORK=$BC_CLUSTER_DIR/soak
mkdir -p "$WORK"
export PGDATABASE=soak

createdb soak
bc_log "setting up: $NFILTERS filters, $NKEYS keys"
psql -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE EXTENSION bloomcass;

CREATE FUNCTION soak_assert(ok boolean, what text) RETURNS boolean
LANGUAGE plpgsql AS \$\$
BEGIN
	IF ok IS NOT TRUE THEN
		RAISE EXCEPTION 'soak check failed: %', what;
	END IF;
	RETURN true;
END
\$\$;

CREATE TABLE filters (id int PRIMARY KEY, f bloom NOT NULL);
INSERT INTO filters SELECT g, bloom_create($FILTER_KEYS, 0.01) FROM generate_series(1, $NFILTERS) g;

CREATE TABLE inserted (seq bigserial PRIMARY KEY, id int NOT NULL, key bigint NOT NULL);

CREATE TABLE keys (k bigint PRIMARY KEY);
INSERT INTO keys SELECT generate_series(1, $NKEYS);
VACUUM ANALYZE keys;

-- Reference for agg_full.sql: the serial aggregate.
SET max_parallel_workers_per_gather = 0;
CREATE TABLE agg_ref AS SELECT bloom_agg(k) AS f FROM keys;
RESET max_parallel_workers_per_gather;

-- Let the whole-table aggregate run with parallel workers.
ALTER DATABASE soak SET parallel_setup_cost = 0;
ALTER DATABASE soak SET parallel_tuple_cost = 0;
ALTER DATABASE soak SET min_parallel_table_scan_size = 0;
SQL

# The whole-table aggregate must really get a parallel plan.
if ! psql -X -At -c 'EXPLAIN SELECT bloom_agg(k) FROM keys' | grep -q 'Partial Aggregate'; then
	bc_die "no parallel plan for bloom_agg over the keys table"
fi

log_errors_before=$(grep -c 'ERROR:' "$BC_CLUSTER_DIR/server.log" || true)

bc_log "pgbench: $SOAK_CLIENTS clients, $SOAK_THREADS threads, $SOAK_SECONDS s"
rc=0
pgbench -n -M prepared -c "$SOAK_CLIENTS" -j "$SOAK_THREADS" -T "$SOAK_SECONDS" -P 10 \
	-D nfilters=$NFILTERS -D nkeys=$NKEYS -D slice=$SLICE \
	-f test/soak/probe.sql@40 \
	-f test/soak/add.sql@40 \
	-f test/soak/agg.sql@10 \
	-f test/soak/agg_full.sql@1 \
	-f test/soak/union.sql@9 \
	>"$WORK/pgbench.out" 2>"$WORK/pgbench.err" || rc=$?
cat "$WORK/pgbench.out"
# -P progress lines and any client errors go to stderr.
cat "$WORK/pgbench.err" >&2

fail=0
processed=$(sed -nE 's/^number of transactions actually processed: ([0-9]+).*/\1/p' "$WORK/pgbench.out")
failed=$(sed -nE 's/^number of failed transactions: ([0-9]+).*/\1/p' "$WORK/pgbench.out")
# Per-script block: "SQL script 2: test/soak/add.sql", then " - weight: ...",
# then " - N transactions (...)".
add_txns=$(awk '/^SQL script [0-9]+: .*add\.sql$/ { s = 1; next }
	s && /^ - [0-9]+ transactions/ { print $2; exit }
	/^SQL script/ { s = 0 }' "$WORK/pgbench.out")
if ((rc != 0)); then
	printf 'error: pgbench exited with status %d\n' "$rc" >&2
	fail=1
fi
if [[ -z $processed || -z $failed ]]; then
	printf 'error: could not read the transaction counts from the pgbench output\n' >&2
	fail=1
	processed=${processed:-0}
	failed=${failed:-?}
elif ((failed > 0)); then
	printf 'error: pgbench reports %d failed transactions\n' "$failed" >&2
	fail=1
fi
if [[ -z $add_txns ]]; then
	printf 'error: could not read the add.sql transaction count from the pgbench output\n' >&2
	fail=1
fi

bc_log "final consistency check"
# Make sure the server is still up before checking.
checks=$(psql -X -q -At -F ' ' -v ON_ERROR_STOP=1 <<SQL
SET work_mem = '256MB';
-- Detoast each filter once (bloom_union(f, f) = f as an in-memory value)
-- instead of once per probe.
WITH fl AS MATERIALIZED (SELECT id, bloom_union(f, f) AS f FROM filters),
     expect AS (
	SELECT fl.id, fl.f,
	       coalesce((SELECT bloom_agg(i.key, 0.01, ${FILTER_KEYS}::bigint) FROM inserted i WHERE i.id = fl.id),
	                bloom_create($FILTER_KEYS, 0.01)) AS rebuilt
	FROM fl)
SELECT (SELECT count(*) FROM inserted),
       (SELECT count(*) FROM inserted i JOIN fl USING (id) WHERE NOT bloom_contains(fl.f, i.key)),
       (SELECT count(*) FROM expect WHERE f <> rebuilt);
SQL
) || bc_die "the final consistency check failed to run"
read -r n_inserted missing mismatched <<<"$checks"
printf 'recorded keys: %s (add transactions: %s); missing from their filter: %s; filters differing from the rebuilt filter: %s\n' \
	"$n_inserted" "${add_txns:-?}" "$missing" "$mismatched"
if ((missing != 0)); then
	printf 'error: %d recorded keys are missing from their filter\n' "$missing" >&2
	fail=1
fi
if ((mismatched != 0)); then
	printf 'error: %d filters differ from the filter rebuilt from their recorded keys\n' "$mismatched" >&2
	fail=1
fi
# pgbench does not count the transactions still running when -T expires,
# though they may commit: each client may add one key more than counted.
if [[ -n $add_txns ]] && ((n_inserted < add_txns || n_inserted > add_txns + SOAK_CLIENTS)); then
	printf 'error: %d keys recorded but %d add transactions counted by pgbench\n' "$n_inserted" "$add_txns" >&2
	fail=1
fi

grep_count() { grep -c "$@" || true; }
log_errors=$(($(grep_count 'ERROR:' "$BC_CLUSTER_DIR/server.log") - log_errors_before))
if ((log_errors > 0)); then
	printf 'error: the server logged %d ERRORs during the run:\n' "$log_errors" >&2
	grep -m 20 'ERROR:' "$BC_CLUSTER_DIR/server.log" >&2
	fail=1
fi
if grep -qE 'terminated by signal|PANIC:' "$BC_CLUSTER_DIR/server.log"; then
	printf 'error: a backend crashed (server log)\n' >&2
	fail=1
fi

# bc_cluster_stop scans the log for crashes too and fails if it finds one.
bc_cluster_stop || fail=1

# Errors: failed transactions plus server-side ERRORs; a failing pgbench run
# that reported neither (e.g. a client aborted) counts as one.
errors=$((${failed//[^0-9]/} + 0 + log_errors))
if ((rc != 0 && errors == 0)); then
	errors=1
fi
printf 'soak: %d transactions, %d errors, %d missing keys in %d s\n' \
	"$processed" "$errors" "$missing" "$SOAK_SECONDS"
exit "$fail"
