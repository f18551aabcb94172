#!/usr/bin/env bash
#
# test/run-all.sh - build bloomcass and run every test suite.
#
#   bash test/run-all.sh
#
# Run it as root on Debian 12 (it installs whatever packages are missing);
# as another user it works too once the packages are installed and the
# PostgreSQL extension directories are writable for `make install`.
#
# Stages, in order:
#   make clean, make           the extension (warnings are errors)
#   make core-c99              the core alone, strict C99, no PostgreSQL
#   make unittest              core unit tests
#   make unittest-sanitize     the same under AddressSanitizer + UBSan
#   test/fuzz/run-short.sh     short fuzzing run, when the project has one
#   make install               into the PostgreSQL 15 installation
#   make installcheck          pg_regress against a throwaway cluster
#   server log                 no backend may have crashed
#
# It ends with a summary and the line "total: N passed, M failed", where N
# counts the unit checks (plain build) plus the regression tests passed, and
# M the unit checks and regression tests failed plus every other stage that
# failed.  The exit status is non-zero when anything failed.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

# shellcheck source=test/lib/common.sh
. "$ROOT/test/lib/common.sh"

JOBS=$(nproc 2>/dev/null || echo 2)
LOGDIR=$ROOT/build/test-logs

# Per-stage results for the summary.
STAGE_NAMES=()
STAGE_RESULTS=()
STAGE_DETAILS=()
TOTAL_PASSED=0
TOTAL_FAILED=0

# record NAME RESULT [DETAIL]: RESULT is ok, FAILED or skipped.
record() {
	STAGE_NAMES+=("$1")
	STAGE_RESULTS+=("$2")
	STAGE_DETAILS+=("${3:-}")
}

# run_step LOG CMD...: run CMD, showing its output and saving it in LOG;
# returns CMD's exit status.
run_step() {
	local log=$1
	shift
	local rc=0
	bc_log "$*"
	"$@" 2>&1 | tee "$log" || rc=$?
	return "$rc"
}

# unit_stage NAME TARGET COUNTS: run `make TARGET`, parse its closing line
# "unit: N passed, M failed".  COUNTS=yes adds the numbers to the total.
unit_stage() {
	local name=$1 target=$2 counts=$3 log=$LOGDIR/$2.log
	local rc=0 line passed failed
	run_step "$log" make PG_CONFIG="$PG_CONFIG" "$target" || rc=$?
	line=$(grep -Eo 'unit: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 || true)
	if [[ -z $line ]]; then
		record "$name" FAILED "no result line (exit status $rc)"
		TOTAL_FAILED=$((TOTAL_FAILED + 1))
		return
	fi
	passed=$(sed -E 's/unit: ([0-9]+) passed.*/\1/' <<<"$line")
	failed=$(sed -E 's/.* ([0-9]+) failed/\1/' <<<"$line")
	if ((rc != 0 || failed > 0)); then
		record "$name" FAILED "$passed passed, $failed failed (exit status $rc)"
		if [[ $counts == yes ]]; then
			TOTAL_FAILED=$((TOTAL_FAILED + (failed > 0 ? failed : 1)))
		else
			TOTAL_FAILED=$((TOTAL_FAILED + 1))
		fi
	else
		record "$name" ok "$passed passed, $failed failed"
	fi
	if [[ $counts == yes ]]; then
		TOTAL_PASSED=$((TOTAL_PASSED + passed))
	fi
}

# simple_stage NAME CMD...: a stage that passes or fails as a whole.
simple_stage() {
	local name=$1
	shift
	if run_step "$LOGDIR/${name//[^a-zA-Z0-9_-]/_}.log" "$@"; then
		record "$name" ok
		return 0
	fi
	record "$name" FAILED
	TOTAL_FAILED=$((TOTAL_FAILED + 1))
	return 1
}

print_summary() {
	local i
	printf '\n==================== bloomcass test summary ====================\n'
	for i in "${!STAGE_NAMES[@]}"; do
		printf '  %-20s %-8s %s\n' "${STAGE_NAMES[$i]}" "${STAGE_RESULTS[$i]}" "${STAGE_DETAILS[$i]}"
	done
	printf '  (%ss; logs in build/test-logs/)\n' "$SECONDS"
	printf '================================================================\n'
	printf 'total: %d passed, %d failed\n' "$TOTAL_PASSED" "$TOTAL_FAILED"
}

# ---------------------------------------------------------------------------
# Dependencies and build
# ---------------------------------------------------------------------------
bc_install_deps
bc_log "using $PG_CONFIG ($("$PG_CONFIG" --version))"

bc_log "make clean"
make PG_CONFIG="$PG_CONFIG" clean >/dev/null
mkdir -p "$LOGDIR"

BUILD_OK=no
if simple_stage build make -j"$JOBS" PG_CONFIG="$PG_CONFIG"; then
	BUILD_OK=yes
fi

simple_stage core-c99 make PG_CONFIG="$PG_CONFIG" core-c99 || true
if [[ $BUILD_OK == yes ]]; then
	simple_stage symbols make PG_CONFIG="$PG_CONFIG" check-symbols || true
fi

# ---------------------------------------------------------------------------
# Unit tests of the core (no PostgreSQL)
# ---------------------------------------------------------------------------
unit_stage unittest unittest yes
unit_stage unittest-sanitize unittest-sanitize no

# ---------------------------------------------------------------------------
# Optional short fuzzing run
# ---------------------------------------------------------------------------
FUZZ_RAN=no
if [[ -f test/fuzz/run-short.sh ]]; then
	simple_stage fuzz-short bash test/fuzz/run-short.sh || true
	FUZZ_RAN=yes
elif [[ -f test/fuzz/Makefile ]] && grep -qE '^run-short[[:space:]]*:' test/fuzz/Makefile; then
	simple_stage fuzz-short make -C test/fuzz run-short || true
	FUZZ_RAN=yes
fi
if [[ $FUZZ_RAN == yes ]]; then
	# Show the fuzzer's closing line ("fuzz: N runs, 0 crashes in S s").
	STAGE_DETAILS[-1]=$(grep -Eo '^fuzz: .*' "$LOGDIR/fuzz-short.log" | tail -n 1 || true)
fi

# ---------------------------------------------------------------------------
# Install and regression tests against a throwaway cluster
# ---------------------------------------------------------------------------
INSTALL_OK=no
if [[ $BUILD_OK == yes ]]; then
	if simple_stage install make PG_CONFIG="$PG_CONFIG" install; then
		INSTALL_OK=yes
	fi
else
	record install skipped "the build failed"
fi

if [[ $INSTALL_OK != yes ]]; then
	record installcheck skipped "nothing installed"
	TOTAL_FAILED=$((TOTAL_FAILED + 1))
elif ! compgen -G 'sql/*.sql' >/dev/null; then
	record installcheck FAILED "no regression tests in sql/"
	TOTAL_FAILED=$((TOTAL_FAILED + 1))
else
	bc_cluster_start
	bc_server_copy test/data/real-filters >/dev/null
	bc_server_copy test/data/vectors >/dev/null
	# The regression SQL reads $BLOOMCASS_SERVER_DATA/{real-filters,vectors}
	# (psql's \getenv); the server reads the files with pg_read_binary_file.
	export BLOOMCASS_SERVER_DATA=$BC_CLUSTER_DIR/files

	mkdir -p build/regress
	rc=0
	run_step "$LOGDIR/installcheck.log" make PG_CONFIG="$PG_CONFIG" installcheck || rc=$?

	summary=$(grep -E 'tests (passed|failed)' "$LOGDIR/installcheck.log" | tail -n 1 || true)
	if [[ $summary =~ All\ ([0-9]+)\ tests\ passed ]]; then
		r_total=${BASH_REMATCH[1]}
		r_failed=0
	elif [[ $summary =~ ([0-9]+)\ of\ ([0-9]+)\ tests\ failed ]]; then
		r_failed=${BASH_REMATCH[1]}
		r_total=${BASH_REMATCH[2]}
	else
		r_total=0
		r_failed=0
	fi
	r_passed=$((r_total - r_failed))
	TOTAL_PASSED=$((TOTAL_PASSED + r_passed))

	if ((rc != 0 || r_failed > 0 || r_total == 0)); then
		if [[ -f build/regress/regression.diffs ]]; then
			printf '\n---- build/regress/regression.diffs (first 300 lines) ----\n'
			head -n 300 build/regress/regression.diffs
			printf -- '---- end of diffs ----\n\n'
		fi
		if ((r_total == 0)); then
			record installcheck FAILED "no pg_regress summary (exit status $rc)"
			TOTAL_FAILED=$((TOTAL_FAILED + 1))
		else
			record installcheck FAILED "$r_passed passed, $r_failed failed (exit status $rc)"
			TOTAL_FAILED=$((TOTAL_FAILED + (r_failed > 0 ? r_failed : 1)))
		fi
	else
		record installcheck ok "$r_passed passed, $r_failed failed"
	fi

	# Stopping checks the server log: any backend crash fails the run.
	if bc_cluster_stop; then
		record "server log" ok "no backend crashed"
	else
		record "server log" FAILED "a backend crashed or the server did not stop (see above)"
		TOTAL_FAILED=$((TOTAL_FAILED + 1))
	fi
fi

print_summary
if ((TOTAL_FAILED > 0)); then
	exit 1
fi
