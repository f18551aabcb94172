#!/usr/bin/env bash
#
# test/bench/probe.sh - B7, stored filters probed by the slice (not part of
# CI; about 10 minutes, 12 GB of disk for the filters).  Makes three tables
# of 100 stored filters each (1 MB, 12 MB, 100 MB; STORAGE external, the
# type's default), then runs test/bench/probe.sql in one session and writes
# build/bench/probe.md.
#
#   BENCH_REPS=5 bash test/bench/probe.sh
#
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
. "$ROOT/test/lib/common.sh"
. "$ROOT/test/lib/bench.sh"

BENCH_REPS=${BENCH_REPS:-5}
OUT=$ROOT/build/bench
mkdir -p "$OUT"

bc_install_deps
make -j2 PG_CONFIG="$PG_CONFIG" >/dev/null
make PG_CONFIG="$PG_CONFIG" install >/dev/null

bc_bench_cluster_start shared_buffers=2GB max_wal_size=16GB checkpoint_timeout=1h \
	wal_level=minimal max_wal_senders=0

bc_log "B7 setup: 100 filters each of 1 MB, 12 MB and 100 MB"
t0=$(date +%s)
psql -X -q -v ON_ERROR_STOP=1 <<'SQL'
CREATE EXTENSION bloomcass;
-- filter g holds keys key<g*10000+1 .. g*10000+1000>, so each key of the
-- probes is in at most one filter
CREATE TABLE p1 (id int, f bloom);
CREATE TABLE p12 (id int, f bloom);
CREATE TABLE p100 (id int, f bloom);
INSERT INTO p1 SELECT g, (SELECT bloom_agg('key' || (1000000 + g * 10000 + i), 0.01, 870000) FROM generate_series(1, 1000) i) FROM generate_series(0, 99) g;
INSERT INTO p12 SELECT g, (SELECT bloom_agg('key' || (1000000 + g * 10000 + i), 0.01, 10000000) FROM generate_series(1, 1000) i) FROM generate_series(0, 99) g;
INSERT INTO p100 SELECT g, (SELECT bloom_agg('key' || (1000000 + g * 10000 + i), 0.01, 83000000) FROM generate_series(1, 1000) i) FROM generate_series(0, 99) g;
VACUUM ANALYZE p1, p12, p100;
CHECKPOINT;
SQL
bc_log "setup took $(($(date +%s) - t0)) s"

bc_log "B7: one session, $BENCH_REPS repetitions per side"
psql -X -q -v ON_ERROR_STOP=1 -v reps="$BENCH_REPS" -v out="$OUT/probe.md" -f test/bench/probe.sql >/dev/null
bc_cluster_stop
cat "$OUT/probe.md"
