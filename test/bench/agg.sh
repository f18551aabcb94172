#!/usr/bin/env bash
#
# test/bench/agg.sh - A1-A4, the aggregates at hll's pace (not part of CI;
# about 2 minutes with the default 9 rounds, 2 CPUs).  Builds and installs
# bloomcass, gets hll (below), starts a throwaway cluster, and runs
# test/bench/agg.sql in one session: exact and streaming bloom_agg against
# hll_add_agg(hll_hash_text(k)) over the same text keys, and the streaming
# aggregate's parallel speed-up against count(*)'s, all seven statements in
# every round, the order rotated round by round; and first the floor of
# the same work in plain C (test/bench/agg_bench.c).  Writes
# build/bench/agg.md (PASS or FAIL against the targets, then the floor) and
# build/bench/agg_raw.tsv.
#
#   bash test/bench/agg.sh
#   BENCH_REPS=15 BENCH_KEYS=2000000 bash test/bench/agg.sh
#
# hll: the distribution's package postgresql-N-hll (N the major of the
# PostgreSQL in use, chosen as in test/lib/common.sh), installed with
# apt-get when missing (as root).  When PG_CONFIG names a relocated copy of
# that PostgreSQL (another sharedir than the package's), the package's
# hll.so and extension files are copied into the copy's pkglibdir and
# sharedir/extension.
#
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
# shellcheck source=test/lib/common.sh
. "$ROOT/test/lib/common.sh"

BENCH_REPS=${BENCH_REPS:-9}
BENCH_KEYS=${BENCH_KEYS:-2000000}
[[ $BENCH_REPS =~ ^[1-9][0-9]*$ ]] || bc_die "BENCH_REPS must be a positive integer"
[[ $BENCH_KEYS =~ ^[1-9][0-9]*$ ]] || bc_die "BENCH_KEYS must be a positive integer"
OUT=$ROOT/build/bench
mkdir -p "$OUT"
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)

bc_install_deps
bc_pkg_install "postgresql-$BC_PG_MAJOR-hll"
ext_dir=$("$PG_CONFIG" --sharedir)/extension
lib_dir=$("$PG_CONFIG" --pkglibdir)
if [[ ! -f $ext_dir/hll.control ]]; then
	bc_log "copying hll from postgresql-$BC_PG_MAJOR-hll into $lib_dir and $ext_dir"
	while read -r f; do
		case $f in
			/usr/lib/postgresql/"$BC_PG_MAJOR"/lib/*.so) cp "$f" "$lib_dir/" ;;
			/usr/share/postgresql/"$BC_PG_MAJOR"/extension/hll*) cp "$f" "$ext_dir/" ;;
		esac
	done < <(dpkg -L "postgresql-$BC_PG_MAJOR-hll")
	[[ -f $ext_dir/hll.control ]] || bc_die "hll.control not found in postgresql-$BC_PG_MAJOR-hll"
fi

bc_lock
make -j2 PG_CONFIG="$PG_CONFIG" >/dev/null
make PG_CONFIG="$PG_CONFIG" install >/dev/null

# the floor: the same work in plain C against src/core (agg_bench.c)
bc_log "floor: test/bench/agg_bench.c"
cc -O2 -Isrc/core -o "$OUT/agg_bench" test/bench/agg_bench.c src/core/[a-z]*.c -llz4 -lsnappy -lz -lzstd -lm
"$OUT/agg_bench" -n "$BENCH_KEYS" -r "$BENCH_REPS" >"$OUT/agg_floor.txt"

bc_cluster_start
psql -X -q -v ON_ERROR_STOP=1 -d postgres <<'SQL'
ALTER SYSTEM SET autovacuum = off;
ALTER SYSTEM SET jit = off;
ALTER SYSTEM SET shared_buffers = '1GB';
ALTER SYSTEM SET max_parallel_workers_per_gather = 0;
SQL
_bc_as_server_user "$(_bc_bindir)/pg_ctl" --pgdata="$BC_CLUSTER_DIR/data" \
	--log="$BC_CLUSTER_DIR/server.log" --wait --timeout=120 restart >/dev/null
createdb bench
export PGDATABASE=bench

COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ -n $(git status --porcelain -- src 2>/dev/null || true) ]]; then
	COMMIT="$COMMIT (src/ modified)"
fi
bc_log "A1-A4: $BENCH_KEYS keys, one session, $BENCH_REPS rounds of 7 statements"
HEADER="$(date -u '+%Y-%m-%d %H:%M UTC'), commit $COMMIT, $BENCH_KEYS keys, $BENCH_REPS rounds, $(nproc) CPUs, load average at start $LOAD_START"
psql -X -q -v ON_ERROR_STOP=1 -v reps="$BENCH_REPS" -v nkeys="$BENCH_KEYS" \
	-v out="$OUT/agg.md" -v header="$HEADER" -f test/bench/agg.sql >/dev/null
psql -X -q -At -F $'\t' -c 'SELECT rep, stmt, ms FROM agg_raw ORDER BY rep, stmt' >"$OUT/agg_raw.tsv"
bc_cluster_stop
{
	printf '\nThe floor (test/bench/agg_bench.c, plain C, ns per key, medians of %s):\n\n' "$BENCH_REPS"
	sed 's/^/    /' "$OUT/agg_floor.txt"
	printf '\nload average at end: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
} >>"$OUT/agg.md"
cat "$OUT/agg.md"
