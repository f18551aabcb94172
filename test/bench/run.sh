#!/usr/bin/env bash
#
# test/bench/run.sh - bloomcass benchmark suite (not part of CI).
#
#   bash test/bench/run.sh                  # full run, 7 repetitions
#   BENCH_REPS=11 bash test/bench/run.sh    # more repetitions
#   BENCH_QUICK=1 bash test/bench/run.sh    # smoke run: small sizes, 3 reps
#
# Builds and installs the extension, runs the core micro-benchmark (B5),
# starts a throwaway cluster (autovacuum off, jit off,
# shared_buffers 2GB), creates the tables once, runs B1-B4 in ONE session
# (bench_pair() in setup.sql alternates A and B), measures B6 in fresh
# sessions, and writes
#   build/bench/results.md   the results table (also printed)
#   build/bench/raw.tsv      every sample
# See test/bench/README.md for what each row measures.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

# shellcheck source=test/lib/common.sh
. "$ROOT/test/lib/common.sh"
# shellcheck source=test/lib/bench.sh
. "$ROOT/test/lib/bench.sh"

BENCH_QUICK=${BENCH_QUICK:-0}
if [[ $BENCH_QUICK == 1 ]]; then
	BENCH_REPS=${BENCH_REPS:-3}
	NKEYS=500000          # keys (B1, B2, B3)
	B1_LARGE=1000000      # keys of the large B1 filter
	B2_EXPECTED=8500000   # expected_keys of the B2 filter (~10 MB)
	NPAR=1000000          # keys_par (B4)
	NMEM=2000000          # B6 distinct keys
	CORE_FLAGS=(-q)       # B5: 1e7 instead of 1e8 keys
else
	BENCH_REPS=${BENCH_REPS:-7}
	NKEYS=5000000
	B1_LARGE=10000000
	B2_EXPECTED=85000000  # ~106 MB
	NPAR=8000000
	NMEM=20000000
	CORE_FLAGS=()
fi
B1_SMALL=100000
[[ $BENCH_REPS =~ ^[1-9][0-9]*$ ]] || bc_die "BENCH_REPS must be a positive integer"

OUT=$ROOT/build/bench
mkdir -p "$OUT"
rm -f "$OUT"/results.md "$OUT"/raw.tsv "$OUT"/core.tsv "$OUT"/mem.tsv
START=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)

bc_install_deps
bc_pkg_install "postgresql-$BC_PG_MAJOR-hll"

bc_log "building and installing bloomcass"
make -j"$(nproc 2>/dev/null || echo 2)" PG_CONFIG="$PG_CONFIG" >/dev/null
make PG_CONFIG="$PG_CONFIG" install >/dev/null

if awk '{exit !($1 > 0.5)}' /proc/loadavg; then
	bc_log "warning: load average is $(cut -d' ' -f1-3 /proc/loadavg): other work on this machine will add noise"
fi

# ---------------------------------------------------------------------------
# B5: the core alone, before any server runs.
# ---------------------------------------------------------------------------
bc_log "B5: core micro-benchmark"
CORE_INCLUDES=()
for d in src/core/*/; do CORE_INCLUDES+=("-I${d%/}"); done
cc -O2 "${CORE_INCLUDES[@]}" -o "$OUT/core_bench" test/bench/core_bench.c src/core/*/*.c -llz4 -lsnappy -lz -lzstd -lm
"$OUT/core_bench" "${CORE_FLAGS[@]}" -r "$BENCH_REPS" -o "$OUT/core.tsv"

# ---------------------------------------------------------------------------
# Cluster: autovacuum and JIT off, shared buffers large enough that the
# tables stay in them (a table over a quarter of shared_buffers would be
# scanned through a small ring buffer instead).
# ---------------------------------------------------------------------------
bc_bench_cluster_start shared_buffers=2GB max_parallel_workers_per_gather=0 \
	max_wal_size=8GB checkpoint_timeout=1h

PSQL_VARS=(-v nkeys="$NKEYS" -v b1_small="$B1_SMALL" -v b1_large="$B1_LARGE"
	-v b2_expected="$B2_EXPECTED" -v npar="$NPAR" -v nmem="$NMEM"
	-v reps="$BENCH_REPS" -v quick="$BENCH_QUICK")

bc_log "setup: tables and filters (once per run)"
t0=$(date +%s)
psql -X -q -v ON_ERROR_STOP=1 "${PSQL_VARS[@]}" -f test/bench/setup.sql
psql -X -q -v ON_ERROR_STOP=1 -c CHECKPOINT
bc_log "setup took $(($(date +%s) - t0)) s"

# ---------------------------------------------------------------------------
# B1-B4: one session.
# ---------------------------------------------------------------------------
bc_log "B1-B4: timing session ($BENCH_REPS repetitions per side)"
t0=$(date +%s)
psql -X -q -v ON_ERROR_STOP=1 "${PSQL_VARS[@]}" -f test/bench/timing.sql
bc_log "timing session took $(($(date +%s) - t0)) s"

# ---------------------------------------------------------------------------
# B6: peak memory, a fresh backend per mode.
# ---------------------------------------------------------------------------
: >"$OUT/mem.tsv"
for mode in exact expected; do
	bc_log "B6: peak memory, $mode mode, $NMEM keys"
	BENCH_MEM_OUT=$OUT/mem.$mode
	export BENCH_MEM_OUT
	: >"$BENCH_MEM_OUT"
	psql -X -q -v ON_ERROR_STOP=1 -v n="$NMEM" \
		-v expected="$([[ $mode == expected ]] && echo on || echo off)" \
		-f test/bench/memory.sql >/dev/null
	awk -v m="$mode" '{printf "%s\t%s\t%s\n", m, $1, $2}' "$BENCH_MEM_OUT" >>"$OUT/mem.tsv"
	rm -f "$BENCH_MEM_OUT"
done

# ---------------------------------------------------------------------------
# Report.
# ---------------------------------------------------------------------------
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ -n $(git status --porcelain -- src 2>/dev/null || true) ]]; then
	COMMIT="$COMMIT (src/ modified)"
fi
CPU=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)
PGVER=$(psql -X -At -c 'SHOW server_version')
MODE=full
[[ $BENCH_QUICK == 1 ]] && MODE="QUICK (reduced sizes: a smoke run, targets not meaningful)"
HEADER="# bloomcass benchmark results

- date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit $COMMIT; mode: $MODE
- machine: $CPU, $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo); PostgreSQL $PGVER
- load average at start $LOAD_START, at end $LOAD_END (anything above ~0.1 means other work shared the CPUs)
- $BENCH_REPS repetitions per side, A and B alternating in one session; median of per-pair ratios A/B
- settings: autovacuum off, jit off, shared_buffers 2GB, max_parallel_workers_per_gather 0 (2 for the B sides of B4)
- sizes: keys $NKEYS rows, keys_par $NPAR rows, B6 $NMEM keys
"
psql -X -q -v ON_ERROR_STOP=1 "${PSQL_VARS[@]}" -v header="$HEADER" -f test/bench/report.sql
bc_cluster_stop

cat "$OUT/results.md"
bc_log "total $(($(date +%s) - START)) s; results in build/bench/results.md, samples in build/bench/raw.tsv"
