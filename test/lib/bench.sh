# shellcheck shell=bash
#
# test/lib/bench.sh - the cluster every benchmark of test/bench runs on.
#
# Source it after test/lib/common.sh:
#
#   . "$ROOT/test/lib/common.sh"
#   . "$ROOT/test/lib/bench.sh"
#   bc_bench_cluster_start shared_buffers=2GB max_parallel_workers_per_gather=0
#   psql -f test/bench/x.sql          # in the database bench
#   bc_cluster_stop
#
# bc_bench_cluster_start starts a throwaway cluster (bc_cluster_start), sets
# what every benchmark wants (autovacuum off, so that no background vacuum
# competes with a measured query; jit off, so that the first runs do not pay
# for compilation the later ones do not) and the settings given as
# NAME=VALUE, restarts the server for them to take effect, creates the
# database bench and exports PGDATABASE=bench.
bc_bench_cluster_start() {
	local setting sql
	sql="ALTER SYSTEM SET autovacuum = off;
ALTER SYSTEM SET jit = off;"
	for setting in "$@"; do
		[[ $setting == *=* ]] || bc_die "bc_bench_cluster_start: not NAME=VALUE: $setting"
		sql+="
ALTER SYSTEM SET ${setting%%=*} = '${setting#*=}';"
	done
	bc_cluster_start
	psql -X -q -v ON_ERROR_STOP=1 -d postgres <<<"$sql"
	bc_log "restarting PostgreSQL with the benchmark settings: autovacuum=off jit=off $*"
	_bc_as_server_user "$(_bc_bindir)/pg_ctl" --pgdata="$BC_CLUSTER_DIR/data" \
		--log="$BC_CLUSTER_DIR/server.log" --wait --timeout=120 restart >/dev/null
	createdb bench
	export PGDATABASE=bench
}
