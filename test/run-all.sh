#!/usr/bin/env bash
#
# test/run-all.sh - build bloomcass and run every test suite, against this
# machine's PostgreSQL and against the PostgreSQL of two more Debian
# releases, each in a clean chroot.
#
#   bash test/run-all.sh [--local] [--no-fuzz] [--no-pgxn] [--no-debs]
#                        [--no-deb-install]
#
# Run it as root on Debian (12, 13 or testing: it installs whatever packages
# are missing, by the release's own names; see test/lib/common.sh for which
# PostgreSQL it picks, PG_CONFIG to choose); as another user it works too,
# with --local, once the packages are installed and the PostgreSQL
# extension directories are writable for `make install`.
#
# Stages on this machine, in order:
#   packages                   what is missing is installed
#   make clean, make           the extension (warnings are errors)
#   make check-sources         the Makefile names every source file and
#                              test, and only files that exist; the
#                              repository's root holds only the entries
#                              the Makefile lists (ROOT_ENTRIES)
#   make check-version         META.json, README.md, CHANGELOG.md's newest
#                              entry and debian/changelog's give
#                              bloomcass.control's version
#   test/version.sh            make check-version fails, naming the file, on
#                              copies where one of them does not
#   test/sql-c-map.sh          doc/sql-to-c.md's table "From SQL to C" is
#                              that of the install scripts and the C files
#   test/docs.sh               README.md has at most 800 lines and its
#                              Reference names every user-facing function;
#                              every link between the documents leads
#                              somewhere; no indented code block; no count
#                              of checks and no duration in prose
#   test/check-man.sh          bloomcass-load(1) renders without warnings,
#                              lexgrog reads it, and it documents every
#                              option and exit status of --help
#   test/install-guard.sh      make install stops, naming the package,
#                              before writing over a Debian package's file
#   make core-c99              the core alone, strict C99, no PostgreSQL,
#                              each folder with only the folders below it
#   make check-layers          the core's folders are those of CORE_DIRS,
#                              each including only from folders below it,
#                              as its README.md says (test/check-layers.sh)
#   make check-symbols         no exported symbol clashes with the server
#   make check-recursion       every recursive function is a known one,
#                              bounded (test/check-recursion.sh)
#   make check-cycles          no two C files of the extension or of
#                              bloomcass-load need each other, directly or
#                              around a loop (test/check-cycles.sh)
#   make unittest              core unit tests
#   make unittest-sanitize     the same under AddressSanitizer + UBSan
#   make lookup-bench          exact key lookups in generated BIG SSTables
#                              of 10k, 100k and 1M keys: every answer right,
#                              the bytes each reads within bounds of the
#                              format, against a full Index.db scan
#   test/fuzz/run-short.sh     a short fuzzing run (not with --no-fuzz)
#   make install               into the PostgreSQL chosen
#   make installcheck          pg_regress against a throwaway cluster
#   server log                 no backend may have crashed
#   test/client.sh             bloomcass-load against a cluster of its own
#                              ("client: N passed, M failed", counted)
#   test/fleet.sh              44 bloomcass-load runs, 20 and then 24 at
#                              once, on a cluster of its own ("fleet: N
#                              passed, M failed", counted)
#   test/readme.sh             every command and query of the documentation
#                              (README.md, doc/*.md, ...) run as written on
#                              a cluster of its own, over a data
#                              directory of the real SSTables, each output
#                              shown compared ("readme: N passed, M failed
#                              (K blocks skipped)", counted)
#   test/demo.sh               the README's first command, on a cluster of
#                              its own
#   test/citus.sh              Citus (13.2.2 on PostgreSQL 15, 14.0.1 on 17
#                              and 18) built from its pinned release, a
#                              coordinator and two workers: the aggregates
#                              and probes over distributed tables against
#                              local ones, their push-down (EXPLAIN), the
#                              README's Citus recipe for bloomcass-load
#                              ("citus: N passed, M failed", counted)
#   test/pgxn.sh               `make dist`, pgxnclient installs that archive
#                              (META.json) and what it installed is the
#                              archive's (not with --no-pgxn)
#   deb-deps                   the Build-Depends of debian/control
#                              (test/packages.sh build-deps)
# and, in the background from after the build (not with --no-debs):
#   deb-build                  the Debian packages of debian/ built in a copy
#                              of the tree (test/packages.sh build), into
#                              build/debs: postgresql-N-bloomcass and
#                              bloomcass-load, each checked for its files
#   deb-install                apt-get install ./*.deb into a fresh chroot of
#                              this release without a compiler: Debian's
#                              cluster, CREATE EXTENSION bloomcass, the demo,
#                              bloomcass-load --version (test/packages.sh
#                              install; as root; not with --no-deb-install,
#                              which test/chroot.sh passes as it runs that
#                              stage itself, on the host, once the packages
#                              are built)
# and, unless --local, in the background from the start:
#   test/chroot.sh trixie      PostgreSQL 17 (Debian 13)
#   test/chroot.sh forky       PostgreSQL 18 (Debian testing)
# each running this script with --local --no-fuzz --no-pgxn --no-deb-install
# in a fresh chroot, and installing the packages it builds, once built, into
# another fresh chroot of that release, without a compiler (a suite
# whose codename is this machine's own is left out: the stages above are
# that run).  BC_CHROOT_SUITES overrides the list.
#
# It ends with a summary, one block per PostgreSQL version with its own
# counts and each stage's duration, and the line "total: N passed, M
# failed", where N counts the unit checks (plain build) plus the regression
# tests passed of every version, and M the unit checks and regression tests
# failed plus every other stage that failed.  The exit status is non-zero
# when anything failed.  build/test-logs/summary.tsv holds this machine's
# results in a form test/chroot.sh reads back.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

# shellcheck source=test/lib/common.sh
. "$ROOT/test/lib/common.sh"

JOBS=$(nproc 2>/dev/null || echo 2)
LOGDIR=$ROOT/build/test-logs

LOCAL=no
FUZZ=yes
PGXN=yes
DEBS=yes
DEB_INSTALL=yes
for arg in "$@"; do
	case $arg in
	--local) LOCAL=yes ;;
	--no-fuzz) FUZZ=no ;;
	--no-pgxn) PGXN=no ;;
	--no-debs) DEBS=no ;;
	--no-deb-install) DEB_INSTALL=no ;;
	*) bc_die "usage: bash test/run-all.sh [--local] [--no-fuzz] [--no-pgxn] [--no-debs] [--no-deb-install]" ;;
	esac
done

# Per-stage results for the summary.
STAGE_NAMES=()
STAGE_RESULTS=()
STAGE_DETAILS=()
STAGE_SECONDS=()
TOTAL_PASSED=0
TOTAL_FAILED=0
STAGE_T0=$SECONDS

# record NAME RESULT [DETAIL]: RESULT is ok, FAILED or skipped; the stage's
# duration is the time since the last stage_start.
record() {
	STAGE_NAMES+=("$1")
	STAGE_RESULTS+=("$2")
	STAGE_DETAILS+=("${3:-}")
	STAGE_SECONDS+=("$((SECONDS - STAGE_T0))")
}

stage_start() {
	STAGE_T0=$SECONDS
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
	stage_start
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
	stage_start
	if run_step "$LOGDIR/${name//[^a-zA-Z0-9_-]/_}.log" "$@"; then
		record "$name" ok
		return 0
	fi
	record "$name" FAILED
	TOTAL_FAILED=$((TOTAL_FAILED + 1))
	return 1
}

# ---------------------------------------------------------------------------
# Dependencies and build
# ---------------------------------------------------------------------------
bc_log "what this run needs: about 20 minutes on 2 cores; root (packages, chroots);" \
	"about 3 GB of disk for the chroots of Debian 13 and testing (unless --local);" \
	"the Debian mirror apt uses (packages, debootstrap); Citus's release archives" \
	"from ../shared/citus (BC_CITUS_SOURCES), else a download from the Citus project"

stage_start
bc_install_deps
record packages ok "$PG_CONFIG"
PG_VERSION_STRING=$("$PG_CONFIG" --version)
OS_NAME=$(. /etc/os-release && printf '%s' "${PRETTY_NAME:-unknown system}")
OS_CODENAME=$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")
bc_log "using $PG_CONFIG ($PG_VERSION_STRING) on $OS_NAME"

bc_log "make clean"
make PG_CONFIG="$PG_CONFIG" clean >/dev/null
mkdir -p "$LOGDIR"
rm -f "$LOGDIR"/*.log "$LOGDIR"/*.tsv

# ---------------------------------------------------------------------------
# The other PostgreSQL versions, each in a chroot, in the background
# ---------------------------------------------------------------------------
CHROOT_SUITES=()
CHROOT_PIDS=()
if [[ $LOCAL == no ]]; then
	read -r -a wanted <<<"${BC_CHROOT_SUITES-trixie forky}"
	((${#wanted[@]} > 0)) || bc_die "BC_CHROOT_SUITES is empty: use --local to test this machine's PostgreSQL only"
	[[ $(id -u) -eq 0 ]] || bc_die "the chroot stages need root (or use --local)"
	bc_pkg_install debootstrap
	for suite in "${wanted[@]}"; do
		if [[ $suite == "$OS_CODENAME" ]]; then
			bc_log "$suite is this machine's own release: its PostgreSQL is tested here, not in a chroot"
			continue
		fi
		CHROOT_SUITES+=("$suite")
		bc_log "test/chroot.sh $suite in the background (log: build/test-logs/chroot-$suite.log)"
		BC_CHROOT_RESULTS=$LOGDIR/chroot-$suite.tsv \
			bash test/chroot.sh "$suite" >"$LOGDIR/chroot-$suite.log" 2>&1 </dev/null &
		CHROOT_PIDS+=("$!")
	done
fi

BUILD_OK=no
# `make` alone, as a user types it: it must build the library itself
if simple_stage build make -j"$JOBS" PG_CONFIG="$PG_CONFIG"; then
	if [[ -f bloomcass.so ]]; then
		BUILD_OK=yes
	else
		STAGE_RESULTS[-1]=FAILED
		STAGE_DETAILS[-1]="make did not build bloomcass.so"
		TOTAL_FAILED=$((TOTAL_FAILED + 1))
	fi
fi

# ---------------------------------------------------------------------------
# The Debian packages, built and installed in the background (they are built
# in a copy of the tree, and installed into a chroot of their own); their
# Build-Depends first, in the foreground, as apt may run only once at a time
# ---------------------------------------------------------------------------
DEB_PID=
DEB_TSV=$LOGDIR/debs.tsv
# deb_job: deb-build, then deb-install, each a line of DEB_TSV as those of
# summary.tsv, detail the script's closing line
deb_job() {
	local t0=$SECONDS rc=0 detail
	bash test/packages.sh build "$ROOT/build/debs" >"$LOGDIR/deb-build.log" 2>&1 || rc=$?
	detail=$(sed -nE 's/^packages-build: //p' "$LOGDIR/deb-build.log" | tail -n 1)
	if ((rc != 0)); then
		detail=$(grep -E '^error: ' "$LOGDIR/deb-build.log" | tail -n 1 || true)
		printf 'deb-build\tFAILED\t%s\t%d\n' "${detail:-exit status $rc}" "$((SECONDS - t0))" >"$DEB_TSV"
		[[ $DEB_INSTALL == no ]] ||
			printf 'deb-install\tFAILED\tno packages to install\t0\n' >>"$DEB_TSV"
		return
	fi
	printf 'deb-build\tok\t%s\t%d\n' "$detail" "$((SECONDS - t0))" >"$DEB_TSV"
	[[ $DEB_INSTALL == yes ]] || return 0
	t0=$SECONDS
	bash test/packages.sh install "$OS_CODENAME" "$ROOT/build/debs" >"$LOGDIR/deb-install.log" 2>&1 || rc=$?
	if ((rc != 0)); then
		detail=$(grep -E '^error: ' "$LOGDIR/deb-install.log" | tail -n 1 || true)
		printf 'deb-install\tFAILED\t%s\t%d\n' "${detail:-exit status $rc}" "$((SECONDS - t0))" >>"$DEB_TSV"
	else
		detail=$(sed -nE 's/^packages-install: //p' "$LOGDIR/deb-install.log" | tail -n 1)
		printf 'deb-install\tok\t%s\t%d\n' "$detail" "$((SECONDS - t0))" >>"$DEB_TSV"
	fi
}
if [[ $DEBS == yes ]]; then
	if [[ $DEB_INSTALL == yes && $(id -u) -ne 0 ]]; then
		record deb-deps FAILED "the package stages need root (debootstrap, chroot); --no-debs leaves them out"
		TOTAL_FAILED=$((TOTAL_FAILED + 1))
	elif simple_stage deb-deps bash test/packages.sh build-deps; then
		bc_log "test/packages.sh build and install in the background (logs: build/test-logs/deb-*.log)"
		deb_job </dev/null &
		DEB_PID=$!
	fi
else
	record debs skipped "--no-debs"
fi

# tree_stage NAME PREFIX CMD...: a check of the tree that needs no build;
# its closing line ("PREFIX: ...") is the stage's detail.
tree_stage() {
	local name=$1 prefix=$2
	shift 2
	simple_stage "$name" "$@" || true
	STAGE_DETAILS[-1]=$(grep -E "^$prefix: " "$LOGDIR/$name.log" | tail -n 1 | sed -E "s/^$prefix: //" || true)
}
tree_stage sources check-sources make PG_CONFIG="$PG_CONFIG" check-sources
tree_stage version check-version make PG_CONFIG="$PG_CONFIG" check-version
tree_stage version-test version-test bash test/version.sh
tree_stage sql-c-map sql-c-map bash test/sql-c-map.sh
tree_stage docs docs bash test/docs.sh
if [[ $BUILD_OK == yes ]]; then
	tree_stage man check-man bash test/check-man.sh
	tree_stage install-guard install-guard bash test/install-guard.sh
else
	record man FAILED "the build failed"
	record install-guard FAILED "the build failed"
	TOTAL_FAILED=$((TOTAL_FAILED + 2))
fi

simple_stage core-c99 make PG_CONFIG="$PG_CONFIG" core-c99 || true
tree_stage layers check-layers make PG_CONFIG="$PG_CONFIG" check-layers
tree_stage recursion check-recursion make PG_CONFIG="$PG_CONFIG" check-recursion
tree_stage cycles check-cycles make PG_CONFIG="$PG_CONFIG" check-cycles
if [[ $BUILD_OK == yes ]]; then
	simple_stage symbols make PG_CONFIG="$PG_CONFIG" check-symbols || true
else
	record symbols FAILED "the build failed"
	TOTAL_FAILED=$((TOTAL_FAILED + 1))
fi

# ---------------------------------------------------------------------------
# Unit tests of the core (no PostgreSQL)
# ---------------------------------------------------------------------------
unit_stage unittest unittest yes
unit_stage unittest-sanitize unittest-sanitize no

# ---------------------------------------------------------------------------
# What an exact key lookup reads, against a full Index.db scan (no
# PostgreSQL; test/bench/README.md).  Its closing line ("lookup-bench: ...")
# is the stage's detail: the figures, or the first wrong answer or bound
# exceeded.
# ---------------------------------------------------------------------------
simple_stage lookup-bench make PG_CONFIG="$PG_CONFIG" lookup-bench || true
STAGE_DETAILS[-1]=$(grep -Eo '^lookup-bench: .*' "$LOGDIR/lookup-bench.log" | tail -n 1 || true)

# ---------------------------------------------------------------------------
# Short fuzzing run
# ---------------------------------------------------------------------------
if [[ $FUZZ == yes ]]; then
	simple_stage fuzz-short bash test/fuzz/run-short.sh || true
	# Show the fuzzer's closing line ("fuzz: N runs, 0 crashes in S s").
	STAGE_DETAILS[-1]=$(grep -Eo '^fuzz: .*' "$LOGDIR/fuzz-short.log" | tail -n 1 || true)
fi

# From here on, this run installs into the PostgreSQL in use: the lock that
# every test script installing there takes (test/lib/common.sh, bc_lock),
# held to the end; the scripts below see that it is held.
bc_lock

# ---------------------------------------------------------------------------
# The PGXN archive installs with pgxnclient (before `make install`, which
# then puts the tree's own build in place for the regression tests)
# ---------------------------------------------------------------------------
if [[ $PGXN == yes ]]; then
	if [[ $BUILD_OK == yes ]]; then
		simple_stage pgxn bash test/pgxn.sh || true
		STAGE_DETAILS[-1]=$(grep -Eo '^pgxn: .*' "$LOGDIR/pgxn.log" | tail -n 1 || true)
	else
		record pgxn FAILED "the build failed"
		TOTAL_FAILED=$((TOTAL_FAILED + 1))
	fi
fi

# ---------------------------------------------------------------------------
# Install and regression tests against a throwaway cluster
# ---------------------------------------------------------------------------
INSTALL_OK=no
stage_start
if [[ $BUILD_OK == yes ]]; then
	if simple_stage install make PG_CONFIG="$PG_CONFIG" install; then
		INSTALL_OK=yes
	fi
else
	record install FAILED "the build failed"
	TOTAL_FAILED=$((TOTAL_FAILED + 1))
fi

stage_start
if [[ $INSTALL_OK != yes ]]; then
	record installcheck FAILED "nothing installed"
	TOTAL_FAILED=$((TOTAL_FAILED + 1))
elif ! compgen -G 'sql/*.sql' >/dev/null; then
	record installcheck FAILED "no regression tests in sql/"
	TOTAL_FAILED=$((TOTAL_FAILED + 1))
else
	bc_cluster_start
	bc_server_copy test/data/real-filters >/dev/null
	bc_server_copy test/data/vectors >/dev/null
	bc_server_copy test/data/sstables >/dev/null
	bc_server_copy test/data/sstables-datastax >/dev/null
	bc_server_copy test/data/statistics >/dev/null
	bc_server_copy test/data/hll >/dev/null
	# a node's data folder made of them, for cassandra_sstables(), and
	# copies in every compressor, with ScyllaDB's quirks, and damaged ones
	test/make-node.sh "$BC_CLUSTER_DIR/files/sstables" "$BC_CLUSTER_DIR/files/node"
	test/make-codecs.sh "$BC_CLUSTER_DIR/files/sstables" "$BC_CLUSTER_DIR/files/codecs"
	# hostile copies: components that are not files, linked folders, damage
	test/make-hostile.sh "$BC_CLUSTER_DIR/files/sstables" "$BC_CLUSTER_DIR/files/hostile"
	if [[ $(id -u) -eq 0 ]]; then
		chown -R postgres: "$BC_CLUSTER_DIR/files/node" "$BC_CLUSTER_DIR/files/codecs" "$BC_CLUSTER_DIR/files/hostile"
	fi
	# The regression SQL reads $BLOOMCASS_SERVER_DATA/{real-filters,vectors,sstables}
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
	stage_start
	if bc_cluster_stop; then
		record "server log" ok "no backend crashed"
	else
		record "server log" FAILED "a backend crashed or the server did not stop (see above)"
		TOTAL_FAILED=$((TOTAL_FAILED + 1))
	fi
fi

# ---------------------------------------------------------------------------
# bloomcass-load, the client, on a cluster of its own; then many runs of it
# at once, on another
# ---------------------------------------------------------------------------
# counted_stage NAME SCRIPT: run SCRIPT, whose closing line "NAME: N
# passed, M failed" adds to the totals.
counted_stage() {
	local name=$1 script=$2 log=$LOGDIR/$1.log rc=0 line c_pass c_fail
	stage_start
	if [[ $INSTALL_OK != yes ]]; then
		record "$name" FAILED "nothing installed"
		TOTAL_FAILED=$((TOTAL_FAILED + 1))
		return
	fi
	run_step "$log" bash "$script" || rc=$?
	line=$(grep -Eo "$name: [0-9]+ passed, [0-9]+ failed" "$log" | tail -n 1 || true)
	if [[ -z $line ]]; then
		record "$name" FAILED "no result line (exit status $rc)"
		TOTAL_FAILED=$((TOTAL_FAILED + 1))
		return
	fi
	c_pass=$(sed -E "s/$name: ([0-9]+) passed.*/\1/" <<<"$line")
	c_fail=$(sed -E 's/.* ([0-9]+) failed/\1/' <<<"$line")
	TOTAL_PASSED=$((TOTAL_PASSED + c_pass))
	if ((rc != 0 || c_fail > 0)); then
		record "$name" FAILED "$c_pass passed, $c_fail failed (exit status $rc)"
		TOTAL_FAILED=$((TOTAL_FAILED + (c_fail > 0 ? c_fail : 1)))
	else
		record "$name" ok "$c_pass passed, $c_fail failed"
	fi
}
counted_stage client test/client.sh
counted_stage fleet test/fleet.sh
# every block of the documentation run as written, outputs compared with those shown
counted_stage readme test/readme.sh

# ---------------------------------------------------------------------------
# The README's first command, as a newcomer runs it
# ---------------------------------------------------------------------------
if [[ $INSTALL_OK == yes ]]; then
	simple_stage demo bash test/demo.sh || true
else
	record demo FAILED "nothing installed"
	TOTAL_FAILED=$((TOTAL_FAILED + 1))
fi

# ---------------------------------------------------------------------------
# Citus: a coordinator and two workers (test/citus.sh)
# ---------------------------------------------------------------------------
stage_start
if [[ $INSTALL_OK == yes ]]; then
	rc=0
	run_step "$LOGDIR/citus.log" bash test/citus.sh || rc=$?
	line=$(grep -Eo 'citus: [0-9]+ passed, [0-9]+ failed.*' "$LOGDIR/citus.log" | tail -n 1 || true)
	built=$(sed -nE 's/^citus-build: //p' "$LOGDIR/citus.log" | tail -n 1)
	if [[ -z $line ]]; then
		record citus FAILED "no result line (exit status $rc)${built:+; $built}"
		TOTAL_FAILED=$((TOTAL_FAILED + 1))
	else
		c_pass=$(sed -E 's/citus: ([0-9]+) passed.*/\1/' <<<"$line")
		c_fail=$(sed -E 's/citus: [0-9]+ passed, ([0-9]+) failed.*/\1/' <<<"$line")
		TOTAL_PASSED=$((TOTAL_PASSED + c_pass))
		if ((rc != 0 || c_fail > 0)); then
			record citus FAILED "${line#citus: } (exit status $rc); $built"
			TOTAL_FAILED=$((TOTAL_FAILED + (c_fail > 0 ? c_fail : 1)))
		else
			record citus ok "${line#citus: }; $built"
		fi
	fi
else
	record citus FAILED "nothing installed"
	TOTAL_FAILED=$((TOTAL_FAILED + 1))
fi

# ---------------------------------------------------------------------------
# The Debian packages' stages, from the background
# ---------------------------------------------------------------------------
if [[ -n $DEB_PID ]]; then
	bc_log "waiting for the Debian packages' stages"
	wait "$DEB_PID" || true
	if [[ ! -s $DEB_TSV ]]; then
		printf 'deb-build\tFAILED\tthe background job ended without a result\t0\n' >"$DEB_TSV"
	fi
	while IFS=$'\t' read -r d_name d_result d_detail d_seconds; do
		STAGE_NAMES+=("$d_name")
		STAGE_RESULTS+=("$d_result")
		STAGE_DETAILS+=("$d_detail")
		STAGE_SECONDS+=("$d_seconds")
		if [[ $d_result != ok ]]; then
			TOTAL_FAILED=$((TOTAL_FAILED + 1))
			if [[ -f $LOGDIR/$d_name.log ]]; then
				printf '\n---- build/test-logs/%s.log (last 80 lines) ----\n' "$d_name"
				tail -n 80 "$LOGDIR/$d_name.log"
				printf -- '---- end of %s.log ----\n' "$d_name"
			fi
		fi
	done <"$DEB_TSV"
fi

# ---------------------------------------------------------------------------
# Summary
# ---------------------------------------------------------------------------
LOCAL_PASSED=$TOTAL_PASSED
LOCAL_FAILED=$TOTAL_FAILED
{
	printf 'postgresql\t%s\t%s\n' "$PG_VERSION_STRING" "$OS_NAME"
	for i in "${!STAGE_NAMES[@]}"; do
		printf '%s\t%s\t%s\t%s\n' "${STAGE_NAMES[$i]}" "${STAGE_RESULTS[$i]}" \
			"${STAGE_DETAILS[$i]}" "${STAGE_SECONDS[$i]}"
	done
	printf 'total\t%d\t%d\n' "$LOCAL_PASSED" "$LOCAL_FAILED"
} >"$LOGDIR/summary.tsv"

# print_block TITLE PASSED FAILED TSV: one version's block of the summary.
print_block() {
	printf '%s: %d passed, %d failed\n' "$1" "$2" "$3"
	# awk, not read: read with IFS=tab would merge an empty detail's tabs
	awk -F'\t' '$1 != "postgresql" && $1 != "total" {
		printf "  %-20s %-8s %5ss  %s\n", $1, $2, $4, $3
	}' "$4"
}

SUMMARY=$LOGDIR/summary.txt
print_block "${PG_VERSION_STRING} on ${OS_NAME} (this machine)" \
	"$LOCAL_PASSED" "$LOCAL_FAILED" "$LOGDIR/summary.tsv" >"$SUMMARY"

for i in "${!CHROOT_SUITES[@]}"; do
	suite=${CHROOT_SUITES[$i]}
	bc_log "waiting for the $suite chroot run"
	crc=0
	wait "${CHROOT_PIDS[$i]}" || crc=$?
	tsv=$LOGDIR/chroot-$suite.tsv
	c_passed=0
	c_failed=0
	title="$suite chroot"
	if [[ -f $tsv ]] && grep -q $'^total\t' "$tsv"; then
		c_passed=$(awk -F'\t' '$1 == "total" { print $2 }' "$tsv")
		c_failed=$(awk -F'\t' '$1 == "total" { print $3 }' "$tsv")
		title="$(awk -F'\t' '$1 == "postgresql" { print $2 " on " $3 }' "$tsv") ($suite chroot)"
	fi
	if ((crc != 0 && c_failed == 0)); then
		# the chroot could not be made, or its run ended without a summary
		c_failed=1
		printf 'exit\tFAILED\ttest/chroot.sh %s exited with status %d\t0\n' "$suite" "$crc" >>"$tsv"
	fi
	if ((c_failed > 0)); then
		printf '\n---- build/test-logs/chroot-%s.log (last 150 lines) ----\n' "$suite"
		tail -n 150 "$LOGDIR/chroot-$suite.log"
		printf -- '---- end of chroot-%s.log ----\n' "$suite"
	fi
	TOTAL_PASSED=$((TOTAL_PASSED + c_passed))
	TOTAL_FAILED=$((TOTAL_FAILED + c_failed))
	print_block "$title" "$c_passed" "$c_failed" "$tsv" >>"$SUMMARY"
done

printf '\n==================== bloomcass test summary ====================\n'
cat "$SUMMARY"
if [[ $LOCAL == yes ]]; then
	printf '(--local: this machine'"'"'s PostgreSQL only)\n'
fi
printf '(%ss; logs in build/test-logs/)\n' "$SECONDS"
printf '================================================================\n'
printf 'total: %d passed, %d failed\n' "$TOTAL_PASSED" "$TOTAL_FAILED"
if ((TOTAL_FAILED > 0)); then
	exit 1
fi
