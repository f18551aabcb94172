#!/usr/bin/env bash
#
# test/demo.sh - set bloomcass up and show it working.
#
#   bash test/demo.sh
#
# Installs whatever packages are missing (as root), builds and installs the
# extension, starts a throwaway cluster of that PostgreSQL, runs test/demo.sql
# in it, echoing the file (comments included) as it goes, and stops the cluster again.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

# shellcheck source=test/lib/common.sh
. "$ROOT/test/lib/common.sh"

bc_install_deps

bc_build_install

bc_cluster_start

# The demo may read the sample filters shipped with the sources; the server
# reads them from $BLOOMCASS_SERVER_DATA/{real-filters,vectors}, and a node's
# data folder made of the real SSTables from $BLOOMCASS_SERVER_DATA/node.
bc_server_copy test/data/real-filters >/dev/null
bc_server_copy test/data/vectors >/dev/null
bc_server_copy test/data/sstables >/dev/null
test/make-node.sh "$BC_CLUSTER_DIR/files/sstables" "$BC_CLUSTER_DIR/files/node"
if [[ $(id -u) -eq 0 ]]; then
	chown -R postgres: "$BC_CLUSTER_DIR/files/node"
fi
export BLOOMCASS_SERVER_DATA=$BC_CLUSTER_DIR/files

bc_log "running test/demo.sql"
psql -X -v ON_ERROR_STOP=1 --echo-all -f test/demo.sql

# Stop explicitly so that a crash found in the server log fails the demo.
bc_cluster_stop
bc_log "demo finished"
