#!/usr/bin/env bash
#
# test/bench/node.sh - the node-scale benchmark (not part of CI; about 5
# minutes on 2 cores, 22 GB of free disk).
#
#   bash test/bench/node.sh                       # nodes of 1,000 and 10,000 SSTables
#   NODE_BENCH_SIZES=1000 bash test/bench/node.sh # one size
#   NODE_BENCH_KEEP=1 bash test/bench/node.sh     # keep (and reuse) the node folders
#
# For each size N: a node folder of N real SSTables with 200 KiB filters on
# average (node_gen.sh, under build/bench/node/N), then, on a throwaway
# cluster, each measure (A) side by side with the floor that does the same
# I/O (B, the target's) and a second floor (C), the order rotated from one
# repetition to the next, the files read once first (warm page cache):
#
#   list  A: SELECT count(*) FROM (SELECT cassandra_sstables(dir)) s: the
#            rows stream (ProjectSet)
#         B: pg_read_binary_file of each file the listing reads, a function
#            per row in the select list as A
#         C: the same bytes returned by a set-returning function in FROM
#            (through a tuplestore)
#         D: SELECT count(*) FROM cassandra_sstables(dir) (through a
#            tuplestore as C)
#         E: B with the walk's discovery: every table folder listed
#            (pg_ls_dir), every file stat'ed (pg_stat_file)
#            (node_list.sql: one session, timed on the server)
#   load  A: bloomcass-load into an empty table over the unix socket
#         B: node_copy, one binary COPY of the same bytes into a table of
#            bytea columns
#         C: the same with Filter.db twice (what the table of 1.5 kept:
#            filter_db and filter; 1.6's keeps filter only)
#         (timed by the shell; peak RSS of each client by /usr/bin/time)
#   the backend's peak memory for one listing in the select list, then in
#   FROM (node_mem.sql, a fresh session)
#
# and writes build/bench/node.md (also printed) and build/bench/node_raw.tsv
# (every sample).  test/bench/README.md describes it.
#
# Environment: NODE_BENCH_SIZES (default "1000 10000"), NODE_BENCH_REPS
# (listing repetitions per side, default 5), NODE_BENCH_LOAD_REPS (load
# repetitions per side, default 3), NODE_BENCH_KEEP (1: keep the node
# folders; a folder made by the same generator is reused).
#
# The extension is installed into the PostgreSQL chosen as in
# test/lib/common.sh; /tmp/bloomcass-regress.lock is held from `make
# install` until the cluster stops, so no other install replaces the library
# under the measured runs.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
# shellcheck source=test/lib/common.sh
. "$ROOT/test/lib/common.sh"
# shellcheck source=test/lib/bench.sh
. "$ROOT/test/lib/bench.sh"

SIZES=${NODE_BENCH_SIZES:-1000 10000}
REPS=${NODE_BENCH_REPS:-5}
LOAD_REPS=${NODE_BENCH_LOAD_REPS:-3}
KEEP=${NODE_BENCH_KEEP:-0}
for v in $SIZES $REPS $LOAD_REPS; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || bc_die "NODE_BENCH_SIZES, NODE_BENCH_REPS and NODE_BENCH_LOAD_REPS take positive numbers"
done
OUT=$ROOT/build/bench
NODES=$OUT/node
mkdir -p "$NODES"
rm -f "$OUT/node.md" "$OUT/node_raw.tsv"
START=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
# a folder of one real SSTable: the memory baseline's listing
TINY=$ROOT/test/data/sstables/cassandra/negative-ldts-invalid-deletions-test/invalid_tombstones

bc_install_deps
bc_pkg_install time
bc_log "building bloomcass, bloomcass-load and the benchmark's programs"
make -j2 PG_CONFIG="$PG_CONFIG" >/dev/null
make PG_CONFIG="$PG_CONFIG" build/bench/node_filter build/bench/node_copy >/dev/null

# ---------------------------------------------------------------------------
# The nodes, before the lock: their disk, then each folder
# ---------------------------------------------------------------------------
need_kb=$((8 * 1024 * 1024))	# max_wal_size
max_n=0
for n in $SIZES; do
	((n > max_n)) && max_n=$n
	[[ -f $NODES/$n/complete ]] || need_kb=$((need_kb + n * 270))
done
# the largest node's filters in the tables of the load (twice) and of the
# floors (once, and twice), and the listing's temporary file
need_kb=$((need_kb + 6 * max_n * 205))
avail_kb=$(df -Pk "$NODES" | awk 'NR == 2 {print $4}')
tmp_kb=$(df -Pk /tmp | awk 'NR == 2 {print $4}')
((avail_kb < tmp_kb)) || avail_kb=$tmp_kb
((need_kb < avail_kb)) ||
	bc_die "about $((need_kb / 1048576)) GB of free disk needed (nodes in $NODES, cluster in /tmp), $((avail_kb / 1048576)) GB free"
bc_log "disk: about $((need_kb / 1048576)) GB needed, $((avail_kb / 1048576)) GB free"

stamp_of() {
	printf '%s %s\n' "$1" "$(cat test/bench/node_gen.sh test/bench/node_filter.c | cksum | cut -d' ' -f1)"
}
for n in $SIZES; do
	if [[ -f $NODES/$n/complete && $(cat "$NODES/$n/complete") == "$(stamp_of "$n")" ]]; then
		bc_log "node of $n SSTables: reusing $NODES/$n"
	else
		bc_log "node of $n SSTables: generating $NODES/$n"
		NODE_FILTER=$OUT/node_filter bash test/bench/node_gen.sh "$n" "$NODES/$n" >&2
	fi
	# what the listing reads of each live SSTable (all are live here)
	find "$NODES/$n/data" -type f \( -name '*-Filter.db' -o -name '*-Statistics.db' -o -name '*-Summary.db' \) |
		sort >"$NODES/$n/list_files"
	cut -f1 "$NODES/$n/sstables.tsv" >"$NODES/$n/prefixes"
done
# the server must reach the folders
chmod a+rX "$ROOT/build" "$OUT" "$NODES"
cleanup_nodes() {
	if [[ $KEEP != 1 ]]; then
		for n in $SIZES; do rm -rf -- "${NODES:?}/$n"; done
	fi
}

# ---------------------------------------------------------------------------
# Install and cluster, under the lock
# ---------------------------------------------------------------------------
bc_log "waiting for /tmp/bloomcass-regress.lock"
exec 9>/tmp/bloomcass-regress.lock
flock 9
bc_log "installing bloomcass"
make PG_CONFIG="$PG_CONFIG" install >/dev/null

bc_bench_cluster_start max_wal_size=8GB checkpoint_timeout=1h
psql -X -q -v ON_ERROR_STOP=1 -f test/bench/node_setup.sql
# the filters: each is what bloom_agg and bloom_export give for its keys
psql -X -q -v ON_ERROR_STOP=1 -v filters="$NODES/$max_n/filters.tsv" -v S="$ROOT/test/data/sstables" \
	-v dir="$NODES/$max_n/filters" -f test/bench/node_check.sql

q() { psql -X -At -v ON_ERROR_STOP=1 -c "$1"; }

for n in $SIZES; do
	node=$NODES/$n
	filter_bytes=$(awk -F'\t' 'NR == FNR {kib[$1 "-" $2 ".db"] = $9; next} {s += kib[$4]} END {print s}' \
		"$node/filters.tsv" "$node/sstables.tsv")
	list_bytes=$(xargs -a "$node/list_files" -d '\n' stat -c %s | awk '{s += $1} END {print s}')
	bc_log "N=$n: $filter_bytes bytes of Filter.db; the listing reads $list_bytes bytes"
	bc_log "N=$n: reading every file once (warm page cache)"
	find "$node/data" -type f -exec cat {} + >/dev/null

	# -- the listing --------------------------------------------------------
	bc_log "N=$n: cassandra_sstables against pg_read_binary_file, $REPS repetitions per side"
	psql -X -q -v ON_ERROR_STOP=1 -v n="$n" -v dir="$node/data" -v files="$node/list_files" \
		-v reps="$REPS" -f test/bench/node_list.sql
	got=$(q "SELECT string_agg(DISTINCT side || '=' || value, ' ' ORDER BY side || '=' || value) FROM node_samples WHERE n = $n AND measure = 'list'")
	nfiles=$(wc -l <"$node/list_files")
	[[ $got == "A=$n B=$list_bytes C=$nfiles D=$n E=$list_bytes" ]] ||
		bc_die "N=$n: the listing or its floors read something else: $got (want A=$n B=$list_bytes C=$nfiles D=$n E=$list_bytes)"
	got=$(q "SELECT count(*) || ' ' || count(filter) || ' ' || count(partitions) || ' ' || count(first_key) || ' ' || sum(filter_db_bytes) FROM cassandra_sstables('$node/data')")
	[[ $got == "$n $n $n $n $filter_bytes" ]] ||
		bc_die "N=$n: the listing gives rows, filters, partitions, keys, Filter.db bytes $got (want $n $n $n $n $filter_bytes)"

	# the listing in the select list gives the rows of the listing in FROM
	got=$(q "WITH a AS (SELECT (r).path, md5((r).filter::bytea) AS f, (r).components, (r).partitions,
	                           (r).first_key, (r).last_key, (r).filter_db_bytes, (r).data_db_bytes, (r).modified
	                    FROM (SELECT cassandra_sstables('$node/data') AS r) s),
	              d AS (SELECT path, md5(filter::bytea) AS f, components, partitions, first_key, last_key,
	                           filter_db_bytes, data_db_bytes, modified
	                    FROM cassandra_sstables('$node/data'))
	         SELECT (SELECT count(*) FROM a) || ' ' || (SELECT count(*) FROM (SELECT * FROM a EXCEPT SELECT * FROM d) x)
	                || ' ' || (SELECT count(*) FROM (SELECT * FROM d EXCEPT SELECT * FROM a) y)")
	[[ $got == "$n 0 0" ]] ||
		bc_die "N=$n: the listing in the select list and in FROM differ: rows, only in one, only in the other: $got (want $n 0 0)"

	bc_log "N=$n: peak memory of one listing (a fresh session)"
	psql -X -q -v ON_ERROR_STOP=1 -v n="$n" -v dir="$node/data" -v tiny="$TINY" \
		-f test/bench/node_mem.sql >/dev/null

	# -- the load ------------------------------------------------------------
	bc_log "N=$n: bloomcass-load against a binary COPY, $LOAD_REPS repetitions per side"
	# bloomcass-load makes its table (from a folder of one SSTable); then
	# rep 0 runs each side once, untimed
	./bloomcass-load -q -l bench -t node_load "$TINY"
	for rep in $(seq 0 "$LOAD_REPS"); do
		# the order rotated from one repetition to the next
		case $((rep % 3)) in
		1) sides="A B C" ;; 2) sides="B C A" ;; *) sides="C A B" ;;
		esac
		for side in $sides; do
			case $side in
			A)
				q "TRUNCATE node_load; CHECKPOINT" >/dev/null
				cmd=(./bloomcass-load -q -l bench -t node_load "$node/data")
				in=/dev/null ;;
			B)
				q "TRUNCATE node_copy_floor; CHECKPOINT" >/dev/null
				cmd=("$OUT/node_copy" node_copy_floor)
				in=$node/prefixes ;;
			C)
				q "TRUNCATE node_copy_twice; CHECKPOINT" >/dev/null
				cmd=("$OUT/node_copy" -2 node_copy_twice)
				in=$node/prefixes ;;
			esac
			t0=$(date +%s%N)
			/usr/bin/time -f '%M' -o "$OUT/node_rss" "${cmd[@]}" <"$in" >/dev/null
			t1=$(date +%s%N)
			if ((rep > 0)); then
				q "INSERT INTO node_samples VALUES ($n, 'load', $rep, '$side', $(((t1 - t0) / 1000))e-6, $(tail -n 1 "$OUT/node_rss"))" >/dev/null
			fi
		done
	done
	got=$(q "SELECT count(*) || ' ' || count(filter) || ' ' || count(partitions) || ' ' || count(first_key) || ' ' || sum(length(bloom_export(filter, version))) FROM node_load")
	[[ $got == "$n $n $n $n $filter_bytes" ]] ||
		bc_die "N=$n: bloomcass-load gave rows, filters, partitions, keys, Filter.db bytes $got (want $n $n $n $n $filter_bytes)"
	got=$(q "SELECT count(*) || ' ' || sum(length(filter_db)) || ' ' || (SELECT count(*) || ' ' || sum(length(filter_db)) || ' ' || sum(length(filter2)) FROM node_copy_twice) FROM node_copy_floor")
	[[ $got == "$n $filter_bytes $n $filter_bytes $filter_bytes" ]] ||
		bc_die "N=$n: the COPYs gave rows, Filter.db bytes $got (want $n $filter_bytes $n $filter_bytes $filter_bytes)"
	# the load and the listing say the same of every SSTable
	got=$(q "SELECT count(*) FROM cassandra_sstables('$node/data', read_filters => false) s JOIN node_load l USING (path)
	         WHERE (s.partitioner, s.fp_chance, s.partitions, s.first_key, s.last_key, s.filter_db_bytes)
	             = (l.partitioner, l.fp_chance, l.partitions, l.first_key, l.last_key, l.filter_db_bytes)")
	[[ $got == "$n" ]] || bc_die "N=$n: the load and the listing agree on $got SSTables of $n"
	q "DROP TABLE node_load; TRUNCATE node_copy_floor, node_copy_twice; CHECKPOINT" >/dev/null
done

# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [[ -n $(git status --porcelain -- src 2>/dev/null || true) ]]; then
	COMMIT="$COMMIT (src/ modified)"
fi
HEADER="# bloomcass node-scale benchmark

- date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit $COMMIT
- machine: $(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo), $(nproc) CPUs, $(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo); PostgreSQL $(q 'SHOW server_version')
- load average at start $LOAD_START, at end $LOAD_END
- nodes: test/bench/node_gen.sh (4 tables of copies of real SSTables, 200 KiB Filter.db on average); files read once before timing (warm page cache), both sides alike
- listing: $REPS repetitions per side in one session, alternating; load: $LOAD_REPS per side, alternating, each into an empty table after a CHECKPOINT
- cluster: fsync off, synchronous_commit off, full_page_writes off, autovacuum off, jit off, shared_buffers and work_mem at their defaults ($(q 'SHOW shared_buffers'), $(q 'SHOW work_mem'))
"
psql -X -q -v ON_ERROR_STOP=1 -v header="$HEADER" -v out="$OUT/node.md" -v raw="$OUT/node_raw.tsv" \
	-f test/bench/node_report.sql
bc_cluster_stop
exec 9>&-
cleanup_nodes
rm -f "$OUT/node_rss"

cat "$OUT/node.md"
bc_log "total $(($(date +%s) - START)) s; build/bench/node.md, samples in build/bench/node_raw.tsv"
