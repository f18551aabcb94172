# shellcheck shell=bash
#
# test/citus/pushdown.sh - what the workers run and what the coordinator
# receives, read from the plans of the aggregates and of a probe over the
# distributed tables of test/citus/setup.sql.  Sourced by test/citus.sh
# (nodes running; check, check_pushdown and q defined).
#
# For each query both EXPLAIN (VERBOSE) and EXPLAIN (ANALYZE, VERBOSE) are
# printed, and read: whether the workers' task query holds the aggregate
# (bloom_agg, bloom_union_agg, or Citus's partial aggregate for an aggregate
# with a combine function whose state is not `internal`: worker_partial_agg,
# the state as text, or from Citus 14 worker_binary_partial_agg, the state's
# binary form when its type has one), and "Tuple data received from nodes",
# the bytes the coordinator received.  Where EXPLAIN ANALYZE fails (Citus
# cannot wrap a task returning worker_partial_agg's cstring for it: "column
# field_0 has pseudo-type cstring", seen with 13.2), the bytes are measured instead
# by running every task's query (EXPLAIN with citus.explain_all_tasks) on
# its worker and adding up the length of the text of the rows it returns;
# that failure is printed as expected, not as an ERROR (any other is printed
# as psql gives it).  A table of both ends the part.

# explain QUERY: print the plans; set PLAN_TASKQ (the shown task's query),
# PLAN_TASKS (Task Count), PLAN_BYTES (bytes received), PLAN_HOW (EXPLAIN,
# or tasks when measured by tasks_bytes) and PLAN_RECEIVED (as a sentence)
explain() {
	local v a rc=0 n unit err=
	v=$(q -c "EXPLAIN (VERBOSE) $1" 2>&1) || v="(EXPLAIN failed) $v"
	a=$(q -c "EXPLAIN (ANALYZE, VERBOSE) $1" 2>&1) || rc=$?
	if ((rc != 0)); then
		err=$(sed -nE 's/^ERROR: +//p' <<<"$a" | head -n 1)
		[[ $err =~ has\ pseudo-type\ cstring$ ]] &&
			a="(expected: EXPLAIN ANALYZE cannot run this query on this Citus, $err; the bytes are measured by running its tasks instead)"
	fi
	printf -- '---- EXPLAIN (VERBOSE) %s\n%s\n---- EXPLAIN (ANALYZE, VERBOSE) %s\n%s\n----\n' "$1" "$v" "$1" "$a"
	PLAN_TASKQ=$(sed -nE 's/^ *Query: (.*)/\1/p' <<<"$v" | head -n 1)
	PLAN_TASKS=$(sed -nE 's/.*Task Count: ([0-9]+).*/\1/p' <<<"$v" | head -n 1)
	PLAN_RECEIVED=$(sed -nE 's/.*Tuple data received from nodes: ([0-9]+ [a-zA-Z]+).*/\1/p' <<<"$a" | head -n 1)
	PLAN_BYTES=
	PLAN_HOW='?'
	if [[ $PLAN_RECEIVED =~ ^([0-9]+)\ (bytes|kB|MB|GB)$ ]]; then
		n=${BASH_REMATCH[1]}
		unit=${BASH_REMATCH[2]}
		case $unit in
		bytes) PLAN_BYTES=$n ;;
		kB) PLAN_BYTES=$((n * 1024)) ;;
		MB) PLAN_BYTES=$((n * 1024 * 1024)) ;;
		GB) PLAN_BYTES=$((n * 1024 * 1024 * 1024)) ;;
		esac
		PLAN_RECEIVED="$PLAN_RECEIVED by EXPLAIN ANALYZE"
		PLAN_HOW=EXPLAIN
	elif ((rc != 0)); then
		PLAN_BYTES=$(tasks_bytes "$1") || PLAN_BYTES=
		PLAN_HOW=tasks
		PLAN_RECEIVED="${PLAN_BYTES:-?} bytes returned by the tasks run on the workers (EXPLAIN ANALYZE failed: ${err:-?})"
	fi
}

# tasks_bytes QUERY: every task of QUERY run on its node, the length of the
# text of the rows they return, added up
tasks_bytes() {
	local plan taskq="" line total=0 n port
	plan=$(q -c 'SET citus.explain_all_tasks = on' -c "EXPLAIN (VERBOSE, COSTS OFF) $1") || return 1
	while IFS= read -r line; do
		if [[ $line =~ ^\ *Query:\ (.*)$ ]]; then
			taskq=${BASH_REMATCH[1]}
		elif [[ $line =~ ^\ *Node:\ host=[^\ ]+\ port=([0-9]+) ]] && [[ -n $taskq ]]; then
			port=${BASH_REMATCH[1]}
			n=$(q -p "$port" -c "SELECT coalesce(sum(octet_length(t::text)), 0) FROM ($taskq) t") || return 1
			total=$((total + n))
			taskq=
		fi
	done <<<"$plan"
	printf '%s\n' "$total"
}

# One Filter.db of the sized aggregates below: 1,000 keys at 0.01.  (Small
# against the rows, so that the coordinator receiving the rows instead of
# one state per shard shows: the 20,000 text keys are about 1 MB, 32
# shards' states at most 32 x (2 x 1,264 + 1,024) bytes.)
FILTER_BYTES=$(q -c 'SELECT filter_db_bytes FROM bloom_sizing(1000, 0.01)')
SUMMARY=()

# pushdown NAME GROUPS ASSERT QUERY: the aggregate of QUERY runs on the
# workers and the coordinator receives at most tasks x GROUPS x (2 x
# FILTER_BYTES + 1 kB); ASSERT is "assert" (an ordinary check), "pushdown"
# (check_pushdown) or "record" (printed only)
pushdown() {
	local name=$1 groups=$2 how=$3 query=$4 pushed=no pushed_ok=1 bound bytes_ok=1 detail
	explain "$query"
	[[ $PLAN_TASKQ =~ (worker_partial_agg|worker_binary_partial_agg|bloom_agg|bloom_union_agg)\( ]] &&
		pushed=yes pushed_ok=0
	bound=$((${PLAN_TASKS:-0} * groups * (2 * FILTER_BYTES + 1024)))
	[[ -n $PLAN_BYTES ]] && ((PLAN_BYTES <= bound)) && bytes_ok=0
	detail="task query: ${PLAN_TASKQ:-none}; received ${PLAN_RECEIVED:-nothing} (${PLAN_BYTES:-?} bytes, bound $bound for ${PLAN_TASKS:-?} tasks)"
	SUMMARY+=("$(printf '%-6s %10s %-7s  %s' "$pushed" "${PLAN_BYTES:-?}" "$PLAN_HOW" "$query")")
	case $how in
	assert)
		check "$name: the aggregate runs on the workers" "$pushed_ok" "$detail"
		check "$name: the coordinator receives states, not rows" "$bytes_ok" "$detail"
		;;
	pushdown)
		check_pushdown "$name: the aggregate runs on the workers" "$pushed_ok" "$detail"
		check_pushdown "$name: the coordinator receives states, not rows" "$bytes_ok" "$detail"
		;;
	esac
}

pushdown "sized bloom_agg, whole table" 1 pushdown \
	"SELECT bloom_agg(k_text, 0.01, 1000::bigint) FROM keys_dist"
pushdown "sized bloom_agg, GROUP BY grp" 3 pushdown \
	"SELECT grp, bloom_agg(k_text, 0.01, 1000::bigint) FROM keys_dist GROUP BY grp"
pushdown "sized bloom_agg, GROUP BY label" 8 assert \
	"SELECT label, bloom_agg(k_text, 0.01, 1000::bigint) FROM keys_dist GROUP BY label"
pushdown "bloom_union_agg, whole table" 1 pushdown \
	"SELECT bloom_union_agg(f_text) FROM filters_dist"
pushdown "bloom_union_agg, GROUP BY grp" 3 pushdown \
	"SELECT grp, bloom_union_agg(f_text) FROM filters_dist GROUP BY grp"
pushdown "bloom_union_agg, GROUP BY label" 8 assert \
	"SELECT label, bloom_union_agg(f_text) FROM filters_dist GROUP BY label"
# the exact modes' state is the keys' hashes: recorded, not asserted
pushdown "exact bloom_agg" 1 record "SELECT bloom_agg(k_text) FROM keys_dist"
pushdown "exact bloom_agg, fp_chance" 1 record "SELECT bloom_agg(k_text, 0.01) FROM keys_dist"
pushdown "exact bloom_agg, sstable version" 1 record "SELECT bloom_agg(k_text, 0.01, 'nb') FROM keys_dist"
pushdown "sized bloom_agg, 100000 keys" 1 record \
	"SELECT bloom_agg(k_text, 0.01, 100000::bigint) FROM keys_dist"

# a probe: its condition in the workers' query, only the matching rows back
probe_key=$(q -c "SELECT k_text FROM keys_local WHERE label = 'node-4' AND id = 4242")
probe="SELECT label, grp, part FROM filters_dist WHERE f_text @> '$probe_key'"
explain "$probe"
SUMMARY+=("$(printf '%-6s %10s %-7s  %s' "-" "${PLAN_BYTES:-?}" "$PLAN_HOW" "$probe")")
detail="task query: ${PLAN_TASKQ:-none}; received ${PLAN_RECEIVED:-nothing}"
cond_ok=1
[[ $PLAN_TASKQ =~ WHERE.*@\> ]] && cond_ok=0
check "probe: the condition f @> key runs on the workers" "$cond_ok" "$detail"
bytes_ok=1
[[ -n $PLAN_BYTES ]] && ((PLAN_BYTES < FILTER_BYTES)) && bytes_ok=0
check "probe: the coordinator receives the matching rows, not the filters" "$bytes_ok" "$detail"

printf '\npushed      bytes measure  query (bytes received; Filter.db of 1,000 keys at 0.01: %s bytes)\n' "$FILTER_BYTES"
printf '  %s\n' "${SUMMARY[@]}"
printf '\n'
