#!/usr/bin/env bash
#
# test/regress.sh [TEST...] - build, install and run some regression tests
# (01_setup first, then the ones named, e.g. `11_sstables`; all when none)
# against a throwaway cluster, without the other stages of run-all.sh.
# Runs are serialized with a lock, because `make install` writes into the
# one PostgreSQL installation.  Diffs are left in build/regress.
#
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib/common.sh

bc_lock

: "${PG_CONFIG:=$(command -v pg_config || true)}"
[[ -n $PG_CONFIG ]] || bc_die "no pg_config"
export PG_CONFIG

make -s -j2 PG_CONFIG="$PG_CONFIG" >/dev/null
make -s PG_CONFIG="$PG_CONFIG" install >/dev/null

tests=()
if (($# > 0)); then
	tests=(01_setup)
	for t in "$@"; do
		[[ $t == 01_setup ]] || tests+=("$t")
	done
fi

bc_cluster_start
for d in real-filters vectors sstables sstables-datastax statistics hll; do
	bc_server_copy "test/data/$d" >/dev/null
done
if [[ -x test/make-node.sh ]]; then
	test/make-node.sh "$BC_CLUSTER_DIR/files/sstables" "$BC_CLUSTER_DIR/files/node"
	# copies in every compressor, with ScyllaDB's quirks, and damaged ones
	test/make-codecs.sh "$BC_CLUSTER_DIR/files/sstables" "$BC_CLUSTER_DIR/files/codecs"
	test/make-hostile.sh "$BC_CLUSTER_DIR/files/sstables" "$BC_CLUSTER_DIR/files/hostile"
	[[ $(id -u) -ne 0 ]] || chown -R postgres: "$BC_CLUSTER_DIR/files"
fi
export BLOOMCASS_SERVER_DATA=$BC_CLUSTER_DIR/files
mkdir -p build/regress
rc=0
if ((${#tests[@]} > 0)); then
	make -s PG_CONFIG="$PG_CONFIG" installcheck REGRESS="${tests[*]}" || rc=$?
else
	make -s PG_CONFIG="$PG_CONFIG" installcheck || rc=$?
fi
bc_cluster_stop || rc=1
exit "$rc"
