#!/usr/bin/env bash
#
# test/fleet.sh - many bloomcass-load runs at once, as a fleet whose nodes
# all load from cron: 16 labels plus 4 more runs of labels already loading,
# all started together against tables that do not exist yet; then a second
# round against the existing tables (the same labels again after 5 Data.db
# files were touched, and 4 new labels); a third after compaction (SSTables
# deleted, one half gone, new generations written); a fourth through a
# symbolic link to the folder and a path with "..".  Every run must exit 0
# with a summary line that adds up, the runs of each label must remove the
# SSTables gone once between them, and every label's rows and keys must be
# those of one fresh reference load of the same folder, each exactly once.
# Ends with "fleet: N passed, M failed".
#
#   bash test/fleet.sh                       a throwaway cluster of its own
#   bash test/fleet.sh -h HOST [-p PORT] [-U USER] [-d DBNAME] [-t TABLE]
#                                            a server of the caller's (a
#                                            Citus coordinator): its database
#                                            must have the extension and no
#                                            table TABLE (default
#                                            cassandra_sstable_files) or
#                                            TABLE_keys; both are dropped at
#                                            the end
#   ... -D                                   with -h: the coordinator of a
#                                            Citus cluster; before round 1
#                                            the tables are made by one run
#                                            on an empty folder and then
#                                            distributed by label and
#                                            colocated, as README.md's Citus
#                                            recipe does
#
# BLOOMCASS_LOAD names another client binary to test (default: the tree's).
#
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib/common.sh

HOST='' PORT='' USER_='' DB='' TABLE=cassandra_sstable_files DIST=0
while getopts 'h:p:U:d:t:D' opt; do
	case $opt in
	h) HOST=$OPTARG ;;
	p) PORT=$OPTARG ;;
	U) USER_=$OPTARG ;;
	d) DB=$OPTARG ;;
	t) TABLE=$OPTARG ;;
	D) DIST=1 ;;
	*) bc_die "usage: bash test/fleet.sh [-h HOST [-p PORT] [-U USER] [-d DBNAME] [-D]] [-t TABLE]" ;;
	esac
done

: "${PG_CONFIG:=$(command -v pg_config || true)}"
[[ -n $PG_CONFIG ]] || bc_die "no pg_config"
export PG_CONFIG PATH="$("$PG_CONFIG" --bindir):$PATH"

[[ $DIST == 0 || -n $HOST ]] || bc_die "-D needs -h: the coordinator of a Citus cluster"
# the lock other test scripts installing into the same PostgreSQL take,
# held throughout on a cluster of its own: a backend loads the installed
# library when it starts (with -h the caller's server is the caller's
# business, and a caller such as test/citus.sh holds the lock already)
if [[ -z $HOST ]]; then
	bc_lock
fi
make -s -j2 PG_CONFIG="$PG_CONFIG" >/dev/null
LOAD=${BLOOMCASS_LOAD:-$PWD/bloomcass-load}
[[ -x $LOAD ]] || bc_die "no client binary $LOAD"

PASSED=0
FAILED=0

if [[ -z $HOST ]]; then
	make -s PG_CONFIG="$PG_CONFIG" install >/dev/null
	bc_cluster_start
	# a database of its own, owned by a role that is not a superuser (and
	# so may create tables in its public schema)
	psql -X -q -v ON_ERROR_STOP=1 -c 'CREATE ROLE fleet LOGIN' -c 'CREATE DATABASE fleet OWNER fleet'
	psql -X -q -v ON_ERROR_STOP=1 -d fleet -c 'CREATE EXTENSION bloomcass'
	USER_=fleet DB=fleet
	WORK=$BC_CLUSTER_DIR/files
else
	export PGHOST=$HOST
	[[ -z $PORT ]] || export PGPORT=$PORT
	WORK=$(mktemp -d /tmp/bloomcass-fleet.XXXXXX)
	trap 'rm -rf -- "$WORK"' EXIT
fi
[[ -z $USER_ ]] || export PGUSER=$USER_
[[ -z $DB ]] || export PGDATABASE=$DB

q() { PGOPTIONS='-c client_min_messages=error' psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
# TABLE is [schema.]name as -t takes it (each part as it is, not folded):
# TAB and KEYS are the tables' names quoted for SQL
sqlname() { # sqlname [SCHEMA.]NAME
	local schema=
	[[ $1 != *.* ]] || schema=${1%.*}
	q -v s="$schema" -v n="${1##*.}" <<<"SELECT CASE WHEN :'s' = '' THEN '' ELSE quote_ident(:'s') || '.' END || quote_ident(:'n')"
}
TAB=$(sqlname "$TABLE")
KEYS=$(sqlname "${TABLE}_keys")
[[ $(q -c "SELECT count(*) FROM pg_extension WHERE extname = 'bloomcass'") == 1 ]] ||
	bc_die "the database $(q -c 'SELECT current_database()') has no bloomcass extension"
[[ $(q -c "SELECT to_regclass('$TAB') IS NULL AND to_regclass('$KEYS') IS NULL") == t ]] ||
	bc_die "$TAB or $KEYS exists already: the test needs a database without them"
if [[ -n $HOST ]]; then
	trap 'q -c "DROP TABLE IF EXISTS $TAB, $KEYS" >/dev/null 2>&1 || true; rm -rf -- "$WORK"' EXIT
fi

mkdir -p "$WORK"
SST=$WORK/fleet-sstables
rm -rf -- "$SST"
cp -R test/data/sstables "$SST"
LOGS=$WORK/fleet-logs
mkdir -p "$LOGS"

# launch ROUND LABEL...: one bloomcass-load per LABEL, all started at once
# (their walks end and they connect within a few milliseconds of each
# other), run I on the folder ROOTS[I % ${#ROOTS[@]}]; waits for them, then
# sets RUNS (LABEL per run) and RCS.
ROOTS=("$SST")
launch() {
	local round=$1 i pids=()
	shift
	RUNS=("$@")
	RCS=()
	for i in "${!RUNS[@]}"; do
		"$LOAD" -t "$TABLE" --keys --label "${RUNS[$i]}" "${ROOTS[i % ${#ROOTS[@]}]}" >"$LOGS/${round// /}-$i.log" 2>&1 &
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		RCS[i]=0
		wait "${pids[$i]}" || RCS[i]=$?
	done
}

# the summary line of a run: "N loaded unchanged failed notdone"
summary_of() {
	sed -nE 's/^bloomcass-load: ([0-9]+) SSTables: ([0-9]+) loaded, ([0-9]+) unchanged, ([0-9]+) failed, ([0-9]+) not done; .*/\1 \2 \3 \4 \5/p' "$1" | tail -n 1
}

# the rows a run removed (its summary's "N removed")
removed_of() {
	sed -nE 's/^bloomcass-load: .* not done; ([0-9]+) removed; .*/\1/p' "$1" | tail -n 1
}

# check_removed ROUND R: the runs of each label removed R rows between them
# (the first to take the label's lock removes them, the others find none)
check_removed() {
	local round=$1 want=$2 i label r bad=()
	declare -A removed=()
	for i in "${!RUNS[@]}"; do
		label=${RUNS[$i]}
		r=$(removed_of "$LOGS/${round// /}-$i.log")
		[[ $r =~ ^[0-9]+$ ]] || bad+=("${label}#$i: no \"N removed\" in its summary")
		removed[$label]=$((${removed[$label]:-0} + ${r:-0}))
	done
	for label in "${!removed[@]}"; do
		[[ ${removed[$label]} == "$want" ]] || bad+=("$label: ${removed[$label]} removed")
	done
	expect "$round: the runs of each label removed the $want SSTables gone once between them" \
		"${bad[*]:-}" ""
}

# a fresh reference: the label ref emptied, then loaded alone; sets N
fresh_ref() {
	q -c "DELETE FROM $TAB WHERE label = 'ref'" -c "DELETE FROM $KEYS WHERE label = 'ref'" >/dev/null
	"$LOAD" -t "$TABLE" --keys --label ref "$SST" >"$LOGS/ref-$1.log" 2>&1 ||
		bc_die "the reference load ($1) failed: $(cat "$LOGS/ref-$1.log")"
	read -r N _ <<<"$(summary_of "$LOGS/ref-$1.log")"
}

# check_round ROUND LABEL=LOADED...: every run exited 0 and printed nothing
# but its summary and what a reference load of the same SSTables prints,
# each summary adds up to the reference's SSTable count with nothing
# failed or not done, and the runs of each LABEL loaded LOADED
# SSTables between them, every other run's SSTable counted unchanged.
check_round() {
	local round=$1 i label n l u f d bad=() lines=() per_label other
	shift
	# what the reference loads print besides their summary (an SSTable's
	# own damage, e.g. partitions past the end of a Data.db whose
	# CompressionInfo.db is missing), from the SSTable's name on
	{ cat "$LOGS"/ref*.log | grep -v ' SSTables\?: ' || true; } | sed 's|^.*/||' | sort -u >"$LOGS/ref-messages"
	declare -A loaded=() unchanged=() runs=()
	for i in "${!RUNS[@]}"; do
		label=${RUNS[$i]}
		[[ ${RCS[$i]} == 0 ]] || bad+=("${label}#$i exit ${RCS[$i]}")
		other=$(grep -v ' SSTables\?: ' "$LOGS/${round// /}-$i.log" | sed 's|^.*/||' | grep -vxF -f "$LOGS/ref-messages" | head -n 1 || true)
		[[ -z $other ]] || lines+=("${label}#$i: $other")
		read -r n l u f d <<<"$(summary_of "$LOGS/${round// /}-$i.log")"
		if [[ ${n:-} != "$N" || $((l + u)) != "$N" || $f != 0 || $d != 0 ]]; then
			bad+=("${label}#$i summary '$n $l $u $f $d'")
		fi
		loaded[$label]=$((${loaded[$label]:-0} + ${l:-0}))
		unchanged[$label]=$((${unchanged[$label]:-0} + ${u:-0}))
		runs[$label]=$((${runs[$label]:-0} + 1))
	done
	expect "$round: ${#RUNS[@]} runs, every exit status 0" "${bad[*]:-}" ""
	expect "$round: no run printed anything but its summary line" "${lines[*]:-}" ""
	per_label=()
	for arg in "$@"; do
		label=${arg%=*}
		if [[ ${loaded[$label]:-x} != "${arg#*=}" ||
			${unchanged[$label]:-x} != $((runs[$label] * N - ${arg#*=})) ]]; then
			per_label+=("$label: ${loaded[$label]:-?} loaded, ${unchanged[$label]:-?} unchanged in ${runs[$label]:-0} runs")
		fi
	done
	expect "$round: the runs of each label loaded each SSTable once between them (summary lines)" \
		"${per_label[*]:-}" ""
}

# the rows and keys of every label against the reference label's: counts,
# and checksums of every column but label and loaded_at, in path (and key)
# order; prints the labels that differ
differ_from_ref() {
	q -c "
	WITH r AS (
	  SELECT label, count(*) AS n,
	         md5(string_agg(md5(row(path, keyspace, table_name, version, generation, format,
	             state, snapshot, components, filter::text, partitioner, fp_chance, partitions,
	             key_type, first_key, last_key, filter_db_bytes, data_db_bytes, modified,
	             statistics_db, summary_db, toc_txt, keys_loaded)::text), ''
	             ORDER BY path)) AS sum
	  FROM $TAB GROUP BY label),
	k AS (
	  SELECT label, count(*) AS n,
	         md5(string_agg(md5(path) || encode(key, 'hex'), ',' ORDER BY path, key)) AS sum
	  FROM $KEYS GROUP BY label),
	l AS (SELECT r.label, r.n, r.sum, k.n AS kn, k.sum AS ksum FROM r LEFT JOIN k USING (label))
	SELECT l.label FROM l, (SELECT * FROM l WHERE label = 'ref') ref
	WHERE l.label <> 'ref' AND (l.n, l.sum, l.kn, l.ksum) IS DISTINCT FROM (ref.n, ref.sum, ref.kn, ref.ksum)
	ORDER BY 1" | paste -sd' '
}

LABELS=()
for i in $(seq -w 1 16); do LABELS+=("node-$i"); done
EXTRA=(node-01 node-02 node-03 node-04)

# --- with -D: the tables made and distributed first -----------------------
if [[ $DIST == 1 ]]; then
	mkdir -p "$WORK/empty"
	# (exit status 5: a folder without SSTables, warned of; the tables made)
	rc=0
	"$LOAD" -q -t "$TABLE" "$WORK/empty" >"$LOGS/empty.log" 2>&1 || rc=$?
	[[ $rc == 5 ]] ||
		bc_die "bloomcass-load on an empty folder: exit status $rc (want 5): $(cat "$LOGS/empty.log")"
	q -c "SELECT create_distributed_table('$TAB', 'label')" \
		-c "SELECT create_distributed_table('$KEYS', 'label', colocate_with => '$TAB')" >/dev/null ||
		bc_die "create_distributed_table failed"
	expect "Citus: both tables distributed by label, colocated, with their shards on the workers" \
		"$(q -c "SELECT count(*) || ' ' || count(DISTINCT colocationid) || ' ' || string_agg(DISTINCT column_to_column_name(logicalrelid, partkey), ',')
		         || ' ' || (SELECT count(DISTINCT nodeport) FROM pg_dist_shard_placement JOIN pg_dist_shard USING (shardid)
		                    WHERE logicalrelid IN ('$TAB'::regclass, '$KEYS'::regclass))
		         FROM pg_dist_partition WHERE logicalrelid IN ('$TAB'::regclass, '$KEYS'::regclass)")" \
		"2 1 label 2"
fi

# --- round 1: 20 runs on a database without the tables ---------------------
# (with -D: with the tables, empty and distributed)
t0=$(date +%s.%N)
launch round1 "${LABELS[@]}" "${EXTRA[@]}"
t1=$(date +%s.%N)
expect "round 1: both tables created, with one index each (the primary key; (label, path))" \
	"$(q -c "SELECT string_agg(indrelid::regclass || ' ' || pg_get_indexdef(indexrelid, 1, true) || ',' || pg_get_indexdef(indexrelid, 2, true), ' ' ORDER BY indrelid::regclass::text)
	         FROM pg_index WHERE indrelid IN ('$TAB'::regclass, '$KEYS'::regclass)")" \
	"$TAB label,path ${KEYS} label,path"

# the reference: one run alone, after them (so that they found no table)
"$LOAD" -t "$TABLE" --keys --label ref "$SST" >"$LOGS/ref1.log" 2>&1 || bc_die "the reference load failed: $(cat "$LOGS/ref1.log")"
read -r N rl _ <<<"$(summary_of "$LOGS/ref1.log")"
REF_ROWS=$(q -c "SELECT count(*) FROM $TAB WHERE label = 'ref'")
REF_KEYS=$(q -c "SELECT count(*) FROM $KEYS WHERE label = 'ref'")
N1=$N
expect "reference: loads every SSTable of the folder" "$rl $REF_ROWS" "$N $N"
expect "reference: has keys (more than 10,000)" "$((REF_KEYS > 10000))" 1

want=()
for l in "${LABELS[@]}"; do want+=("$l=$N"); done
check_round "round 1" "${want[@]}"
expect "round 1: every label's rows and keys are the reference's, each once" "$(differ_from_ref)" ""
expect "round 1: 16 labels" "$(q -c "SELECT count(DISTINCT label) FROM $TAB WHERE label <> 'ref'")" 16
# rows and keys in all: 16 times the reference's, none twice
expect "round 1: no row or key twice" "$(q -c "
	SELECT (SELECT count(*) FROM $TAB WHERE label <> 'ref') || ' ' ||
	       (SELECT count(*) FROM (SELECT DISTINCT label, path, key FROM $KEYS WHERE label <> 'ref') d) || ' ' ||
	       (SELECT count(*) FROM $KEYS WHERE label <> 'ref')")" \
	"$((16 * N)) $((16 * REF_KEYS)) $((16 * REF_KEYS))"

# --- round 2: the same labels after 5 Data.db touched, and 4 new labels ------
mapfile -t touched < <(q -c "SELECT path FROM $TAB WHERE label = 'ref' AND 'Data.db' = ANY (components) ORDER BY md5(path) LIMIT 5")
expect "round 2: 5 SSTables to touch" "${#touched[@]}" 5
for p in "${touched[@]}"; do touch -d '2001-02-03 04:05:06' "$p-Data.db"; done
NEW=(node-17 node-18 node-19 node-20)
t2=$(date +%s.%N)
launch round2 "${LABELS[@]}" "${EXTRA[@]}" "${NEW[@]}"
t3=$(date +%s.%N)
"$LOAD" -t "$TABLE" --keys --label ref "$SST" >"$LOGS/ref2.log" 2>&1 || bc_die "the second reference load failed: $(cat "$LOGS/ref2.log")"
expect "round 2: the reference reloads the 5 touched" "$(summary_of "$LOGS/ref2.log")" "$N 5 $((N - 5)) 0 0"
want=()
for l in "${LABELS[@]}"; do want+=("$l=5"); done
for l in "${NEW[@]}"; do want+=("$l=$N"); done
check_round "round 2" "${want[@]}"
expect "round 2: every label's rows and keys are the reference's, each once" "$(differ_from_ref)" ""
expect "round 2: the touched SSTables have their new time in every label" "$(q -c "
	SELECT count(*) FROM $TAB WHERE modified = '2001-02-03 04:05:06'::timestamp::timestamptz")" "$((21 * 5))"
expect "round 2: 20 labels" "$(q -c "SELECT count(DISTINCT label) FROM $TAB WHERE label <> 'ref'")" 20

# --- round 3: compaction: 4 SSTables deleted, 1 half gone, 3 new generations --
# (the new ones copies of others under a generation 900 higher, in their
# folder; the half gone one without its Data.db: orphaned, not live)
N2=$N
mapfile -t picked < <(q -c "
	SELECT path FROM $TAB WHERE label = 'ref' AND 'Data.db' = ANY (components)
	  AND path ~ '/[a-z][a-z]-[0-9]+-(big|bti)\$'
	ORDER BY md5(path || 'round 3') LIMIT 8")
expect "round 3: 8 SSTables to compact" "${#picked[@]}" 8
for p in "${picked[@]:0:4}"; do rm -f -- "$p"-*; done
rm -f -- "${picked[4]}-Data.db"
made=0
for p in "${picked[@]:5:3}"; do
	d=${p%/*} b=${p##*/}
	v=${b%%-*} rest=${b#*-} g=${rest%%-*} fmt=${rest#*-}
	new="$d/$v-$((g + 900))-$fmt"
	[[ ! -e $new-Data.db ]] || continue
	for f in "$p"-*; do cp -p -- "$f" "$new-${f#"$p"-}"; done
	made=$((made + 1))
done
expect "round 3: 3 new generations written" "$made" 3
launch round3 "${LABELS[@]}" "${EXTRA[@]}" "${NEW[@]}"
fresh_ref 3
expect "round 3: the reference has the 5 gone, the 3 new" "$N" "$((N2 - 5 + 3))"
want=()
for l in "${LABELS[@]}" "${NEW[@]}"; do want+=("$l=3"); done
check_round "round 3" "${want[@]}"
check_removed "round 3" 5
expect "round 3: every label's rows and keys are the reference's, each once" "$(differ_from_ref)" ""
expect "round 3: no row of an SSTable gone, nor keys" "$(q -v gone="${picked[*]:0:5}" <<<"
	SELECT (SELECT count(*) FROM $TAB WHERE path = ANY (string_to_array(:'gone', ' '))) || ' ' ||
	       (SELECT count(*) FROM $KEYS WHERE path = ANY (string_to_array(:'gone', ' ')))")" "0 0"

# --- round 4: through a symbolic link to the folder, and with ".." ----------
ln -sfn fleet-sstables "$WORK/fleet-link"
ROOTS=("$WORK/fleet-link" "$LOGS/../fleet-link/." "$WORK/fleet-link/cassandra/..")
launch round4 "${LABELS[@]}" "${EXTRA[@]}" "${NEW[@]}"
ROOTS=("$SST")
want=()
for l in "${LABELS[@]}" "${NEW[@]}"; do want+=("$l=0"); done
check_round "round 4" "${want[@]}"
check_removed "round 4" 0
expect "round 4: every label's rows and keys are the reference's, each once" "$(differ_from_ref)" ""
expect "round 4: no path through the link" "$(q -c "SELECT count(*) FROM $TAB WHERE path ~ '/fleet-link/'")" 0

if [[ $DIST == 1 ]]; then
	for t in "$TAB" "$KEYS"; do
		expect "Citus: $t's rows are all in the workers' shards" \
			"$(q -c "SELECT (SELECT sum(result::bigint) FROM run_command_on_shards('$t', 'SELECT count(*) FROM %s')) = (SELECT count(*) FROM $t)")" t
	done
fi

awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v n="$N1" -v k="$REF_KEYS" 'BEGIN {
	printf "    round 1: 20 runs (16 labels) in %.1f s; round 2: 24 runs (20 labels) in %.1f s; %d SSTables and %d keys a label\n", b - a, d - c, n, k }'

if [[ -z $HOST ]]; then
	bc_cluster_stop || FAILED=$((FAILED + 1))
fi
printf 'fleet: %d passed, %d failed\n' "$PASSED" "$FAILED"
((FAILED == 0))
