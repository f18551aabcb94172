#!/usr/bin/env bash
#
# test/bench/contains_each.sh - B8, many keys against one filter in one
# call (not part of CI; about 3 minutes, 1.5 GB of memory).  Runs
# test/bench/contains_each.sql in one session on a throwaway cluster and
# writes build/bench/contains_each.md, with PASS or FAIL against the bound.
#
#   BENCH_REPS=5 bash test/bench/contains_each.sh
#
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
# shellcheck source=test/lib/common.sh
. "$ROOT/test/lib/common.sh"
# shellcheck source=test/lib/bench.sh
. "$ROOT/test/lib/bench.sh"

BENCH_REPS=${BENCH_REPS:-5}
[[ $BENCH_REPS =~ ^[1-9][0-9]*$ ]] || bc_die "BENCH_REPS must be a positive integer"
OUT=$ROOT/build/bench
mkdir -p "$OUT"

bc_install_deps
bc_lock
make -j2 PG_CONFIG="$PG_CONFIG" >/dev/null
make PG_CONFIG="$PG_CONFIG" install >/dev/null

bc_bench_cluster_start max_parallel_workers_per_gather=0

bc_log "B8: one session, $BENCH_REPS repetitions per side"
psql -X -q -v ON_ERROR_STOP=1 -v reps="$BENCH_REPS" -v out="$OUT/contains_each.md" \
	-f test/bench/contains_each.sql >/dev/null
bc_cluster_stop
cat "$OUT/contains_each.md"
