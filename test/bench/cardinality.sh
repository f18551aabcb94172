#!/usr/bin/env bash
#
# test/bench/cardinality.sh - B9, the aggregate cassandra_approximate_key_count
# over 10,000 stored statistics_db values against reading those bytes (not
# part of CI; well under a minute).  The values are the real Statistics.db
# files of test/data that hold an estimator (test/data/hll/real.tsv), in
# turn, as a fleet table holds them; runs test/bench/cardinality.sql in one
# session on a throwaway cluster and writes build/bench/cardinality.md, with
# PASS or FAIL against the bound.
#
#   BENCH_REPS=7 bash test/bench/cardinality.sh
#
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
# shellcheck source=test/lib/common.sh
. "$ROOT/test/lib/common.sh"
# shellcheck source=test/lib/bench.sh
. "$ROOT/test/lib/bench.sh"

BENCH_REPS=${BENCH_REPS:-7}
[[ $BENCH_REPS =~ ^[1-9][0-9]*$ ]] || bc_die "BENCH_REPS must be a positive integer"
OUT=$ROOT/build/bench
mkdir -p "$OUT"

# the files as (version, bytes in hex), one line each
grep -v '^#' test/data/hll/real.tsv | while IFS=$'\t' read -r rel _ version; do
	printf '%s\t\\\\x%s\n' "$version" \
		"$(perl -e 'local $/; open my $f, "<", $ARGV[0] or die; binmode $f; print unpack("H*", <$f>)' "test/data/$rel")"
done >"$OUT/cardinality_files.tsv"

bc_install_deps
bc_lock
make -j2 PG_CONFIG="$PG_CONFIG" >/dev/null
make PG_CONFIG="$PG_CONFIG" install >/dev/null

bc_bench_cluster_start max_parallel_workers_per_gather=0

psql -X -q -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION bloomcass' \
	-c 'CREATE TABLE b9_files (version text, statistics_db bytea)' \
	-c "\\copy b9_files FROM '$OUT/cardinality_files.tsv'"
bc_log "B9: one session, $BENCH_REPS repetitions per side"
psql -X -q -v ON_ERROR_STOP=1 -v reps="$BENCH_REPS" -v out="$OUT/cardinality.md" \
	-f test/bench/cardinality.sql >/dev/null
bc_cluster_stop
cat "$OUT/cardinality.md"
