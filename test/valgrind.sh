#!/usr/bin/env bash
#
# test/valgrind.sh - run the whole pg_regress suite against a PostgreSQL
# server running under Valgrind memcheck, and fail on any Valgrind error that
# involves bloomcass's own code.
#
#   bash test/valgrind.sh
#
# Run it as root on Debian 12 (it installs whatever packages are missing,
# valgrind included); the server itself runs as the `postgres` user.  It is
# slow (minutes rather than seconds), so test/run-all.sh does not call it.
#
# What it does:
#   1. make (the normal build: -g -O2 and the Makefile's -Werror flags;
#      BC_VALGRIND_COPT='-O0' rebuilds from clean with that appended to
#      CFLAGS, PGXS's COPT, for more precise stacks), then
#      make install DESTDIR=<private stage>: the server under test runs from
#      a private copy of the PostgreSQL installation (its postgres binary,
#      symlinks to everything else, our files installed into it), so a
#      `make install` elsewhere during the long run cannot swap the library
#      under it, and the system installation is left alone.
#   2. initdb a throwaway cluster (test/lib/common.sh), then start the
#      postmaster directly under valgrind; every backend, parallel worker and
#      auxiliary process is a fork of it and so runs under valgrind as well,
#      each writing its own log file.
#   3. make installcheck against it.
#   4. stop the server, then read every Valgrind log: each error whose stack
#      (or the origin / allocation stack Valgrind attaches to it) has a frame
#      of bloomcass (bloomcass.so, or one of the source files under src/) is
#      printed, with the test (pg_regress's application name) of the process,
#      and fails the run; errors elsewhere (PostgreSQL itself, libc) are only
#      counted.  "Errors" are Valgrind's error reports: it reports each
#      distinct error once per process.
#
# It ends with the line
#   valgrind: N regression tests, 0 errors in extension code (M logs, K errors elsewhere)
# and exits non-zero if the regression tests failed, a backend crashed, the
# server did not stop, or any error involved extension code.  Everything is
# kept in build/valgrind/: logs/valgrind.<pid>.log, server.log (every
# statement, with its process id), extension-errors.txt, installcheck.log.
#
# Suppressions: test/valgrind/bloomcass.supp (documented, narrow entries
# for noise outside bloomcass) and, when PG_VALGRIND_SUPP names it,
# PostgreSQL's own src/tools/valgrind.supp from a PostgreSQL source tree.
# Without the latter, errors inside PostgreSQL itself may be counted as
# "elsewhere"; only errors in bloomcass code fail the run.
#
# Limits: Debian's PostgreSQL is built without USE_VALGRIND, so memcheck
# sees palloc'd memory only at the malloc level: overruns and uninitialised
# reads are found, but an overrun of a small palloc chunk into its neighbour
# inside the same memory-context block, or a use after pfree, is not.
# Allocations over 8 kB (most filters) get a malloc block of their own, so
# their overruns are found exactly.
#
# Environment:
#   BC_VALGRIND_COPT     extra compiler flags (e.g. -O0); forces a clean build
#   BC_VALGRIND_REGRESS  run only these regression tests (space-separated
#                        names from sql/, e.g. "01_setup 02_type")
#   BC_VALGRIND_TIMEOUT  seconds to wait for the server to start or stop
#                        (default 600)

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

# shellcheck source=test/lib/common.sh
. "$ROOT/test/lib/common.sh"

BC_PACKAGES+=(valgrind)
OUT=$ROOT/build/valgrind
JOBS=$(nproc 2>/dev/null || echo 2)
TIMEOUT=${BC_VALGRIND_TIMEOUT:-600}

bc_install_deps
command -v valgrind >/dev/null 2>&1 || bc_die "valgrind not found"
bc_log "using $PG_CONFIG ($("$PG_CONFIG" --version)), $(valgrind --version)"
BINDIR=$("$PG_CONFIG" --bindir)
PKGLIBDIR=$("$PG_CONFIG" --pkglibdir)
SHAREDIR=$("$PG_CONFIG" --sharedir)

# ---------------------------------------------------------------------------
# Build
# ---------------------------------------------------------------------------
rm -rf -- "$OUT"
mkdir -p "$OUT"

if [[ -n ${BC_VALGRIND_COPT:-} ]]; then
	bc_log "clean build with COPT=$BC_VALGRIND_COPT"
	make PG_CONFIG="$PG_CONFIG" clean >/dev/null
	make -j"$JOBS" PG_CONFIG="$PG_CONFIG" COPT="$BC_VALGRIND_COPT" >"$OUT/build.log" 2>&1 ||
		{ cat "$OUT/build.log" >&2; bc_die "build failed"; }
else
	bc_log "make"
	make -j"$JOBS" PG_CONFIG="$PG_CONFIG" >"$OUT/build.log" 2>&1 ||
		{ cat "$OUT/build.log" >&2; bc_die "build failed"; }
fi

# Frames that belong to bloomcass: the library, or one of our source files
# (Valgrind prints "(src/bloom_io.c:263)" thanks to --fullpath-after, but
# "(/other/checkout/src/bloom_io.c:263)" or "(bloom_io.c:263)" are matched
# too).
OUR_NAMES=$(find src -name '*.[ch]' -printf '%f\n' | sed 's/\./\\./g' | sort -u | paste -sd'|' -)
OURS_RE="bloomcass\\.so|[(/ ](${OUR_NAMES}):[0-9]+"

# ---------------------------------------------------------------------------
# Cluster: initdb and configuration through common.sh
# ---------------------------------------------------------------------------
bc_cluster_start
VGDIR=$BC_CLUSTER_DIR/valgrind
STAGE=$BC_CLUSTER_DIR/stage

# Keep the Valgrind logs and the server log whatever happens, then let
# common.sh stop the server and remove the cluster directory.
save_logs() {
	[[ -n ${BC_CLUSTER_DIR:-} ]] || return 0
	mkdir -p "$OUT/logs"
	if compgen -G "$BC_CLUSTER_DIR/valgrind/*.log" >/dev/null; then
		cp -- "$BC_CLUSTER_DIR"/valgrind/*.log "$OUT/logs/"
	fi
	if [[ -f $BC_CLUSTER_DIR/server.log ]]; then
		cp -- "$BC_CLUSTER_DIR/server.log" "$OUT/server.log"
	fi
}
vg_exit_trap() {
	local rc=$?
	save_logs || true
	if [[ -n ${BC_CLUSTER_DIR:-} ]]; then
		bc_cluster_stop || rc=1
	fi
	exit "$rc"
}
trap vg_exit_trap EXIT

server_user() {
	if [[ $(id -u) -eq 0 ]]; then
		(cd "$BC_CLUSTER_DIR" && runuser -u postgres -- "$@")
	else
		(cd "$BC_CLUSTER_DIR" && "$@")
	fi
}

bc_log "stopping the plain server to restart it under valgrind"
server_user "$BINDIR/pg_ctl" --pgdata="$BC_CLUSTER_DIR/data" --mode=fast \
	--wait --timeout=60 stop >/dev/null

# ---------------------------------------------------------------------------
# Private installation: PostgreSQL finds its share and lib directories
# relative to the postgres executable, so a copy of the binary next to
# symlinked lib and share trees holding our freshly installed files is a
# complete installation of its own.
# ---------------------------------------------------------------------------
bc_log "make install DESTDIR=$STAGE"
make PG_CONFIG="$PG_CONFIG" DESTDIR="$STAGE" install >"$OUT/install.log" 2>&1 ||
	{ cat "$OUT/install.log" >&2; bc_die "make install failed"; }
mkdir -p "$STAGE$BINDIR" "$STAGE$PKGLIBDIR" "$STAGE$SHAREDIR"
cp -- "$BINDIR/postgres" "$STAGE$BINDIR/postgres"
cp -R -s -n -- "$PKGLIBDIR/." "$STAGE$PKGLIBDIR/"
cp -R -s -n -- "$SHAREDIR/." "$STAGE$SHAREDIR/"
[[ -f $STAGE$PKGLIBDIR/bloomcass.so && ! -L $STAGE$PKGLIBDIR/bloomcass.so ]] ||
	bc_die "bloomcass.so was not installed into $STAGE"
POSTGRES=$STAGE$BINDIR/postgres

# ---------------------------------------------------------------------------
# Server under valgrind
# ---------------------------------------------------------------------------
cat >>"$BC_CLUSTER_DIR/data/postgresql.conf" <<-EOF

	# --- test/valgrind.sh ---
	# No JIT by default (tests that SET jit = on still get it): LLVM's
	# generated code is opaque to Valgrind and only slow.
	jit = off
	huge_pages = off
	# Everything is 20-50 times slower under Valgrind; no timeouts.
	statement_timeout = 0
	lock_timeout = 0
	idle_in_transaction_session_timeout = 0
	authentication_timeout = '10min'
	log_min_messages = warning
	# Every statement, with the process id and pg_regress's application name
	# (pg_regress/<test>), to tie a Valgrind log (valgrind.<pid>.log) to a
	# test and a query.
	log_statement = 'all'
	log_line_prefix = '%m [%p] %a: '
EOF

mkdir -p "$VGDIR"
cp -- test/valgrind/*.supp "$VGDIR/"
# PostgreSQL's own suppression file (src/tools/valgrind.supp of a PostgreSQL
# source tree) is used too when PG_VALGRIND_SUPP names it.
if [[ -n ${PG_VALGRIND_SUPP:-} ]]; then
	cp -- "$PG_VALGRIND_SUPP" "$VGDIR/postgresql.supp"
fi
if [[ $(id -u) -eq 0 ]]; then
	chown -R postgres: "$VGDIR"
fi

# No --error-exitcode: a server process that exits with any status but 0 (or 1
# for a backend) makes the postmaster start crash recovery, so one error would
# become a cascade of failing tests (or a server that does not start, if it is
# in the startup process).  The verdict comes from the logs instead.
# shellcheck disable=SC2054  # the comma in --error-markers is not a separator
VG_ARGS=(
	--tool=memcheck
	--quiet
	--trace-children=yes
	--track-origins=yes
	--read-var-info=yes
	--num-callers=30
	--leak-check=no
	--error-markers=VALGRINDERROR-BEGIN,VALGRINDERROR-END
	--fullpath-after="$ROOT/"
	--log-file="$VGDIR/valgrind.%p.log"
)
for supp in "$VGDIR"/*.supp; do
	VG_ARGS+=(--suppressions="$supp")
done

bc_log "starting PostgreSQL under valgrind (logs: $VGDIR)"
START=$SECONDS
server_user valgrind "${VG_ARGS[@]}" "$POSTGRES" -D "$BC_CLUSTER_DIR/data" \
	>>"$BC_CLUSTER_DIR/server.log" 2>&1 &
VG_PID=$!

until "$BINDIR/pg_isready" -q -t 5; do
	if ! kill -0 "$VG_PID" 2>/dev/null; then
		tail -n 50 "$BC_CLUSTER_DIR/server.log" >&2 || true
		bc_die "the server under valgrind exited during startup"
	fi
	if ((SECONDS - START > TIMEOUT)); then
		bc_die "the server under valgrind did not accept connections within ${TIMEOUT}s"
	fi
	sleep 2
done
bc_log "server ready after $((SECONDS - START))s"

# The server must load our library from the stage, not the system's.
loaded=$(psql -X -At -v ON_ERROR_STOP=1 -c "LOAD 'bloomcass'" \
	-c "SELECT pg_read_file('/proc/self/maps')" | grep -m 1 -o '/[^ ]*bloomcass\.so$' || true)
[[ $loaded == "$STAGE$PKGLIBDIR/bloomcass.so" ]] ||
	bc_die "the server loaded ${loaded:-no bloomcass.so} instead of $STAGE$PKGLIBDIR/bloomcass.so"

bc_server_copy test/data/real-filters >/dev/null
bc_server_copy test/data/vectors >/dev/null
bc_server_copy test/data/sstables >/dev/null
test/make-node.sh "$BC_CLUSTER_DIR/files/sstables" "$BC_CLUSTER_DIR/files/node"
test/make-codecs.sh "$BC_CLUSTER_DIR/files/sstables" "$BC_CLUSTER_DIR/files/codecs"
if [[ $(id -u) -eq 0 ]]; then
	chown -R postgres: "$BC_CLUSTER_DIR/files/node" "$BC_CLUSTER_DIR/files/codecs"
fi
export BLOOMCASS_SERVER_DATA=$BC_CLUSTER_DIR/files

# ---------------------------------------------------------------------------
# Regression suite
# ---------------------------------------------------------------------------
bc_log "make installcheck (under valgrind this takes minutes)"
mkdir -p build/regress
T0=$SECONDS
rc=0
REGRESS_ARG=()
if [[ -n ${BC_VALGRIND_REGRESS:-} ]]; then
	REGRESS_ARG=(REGRESS="$BC_VALGRIND_REGRESS")
fi
make PG_CONFIG="$PG_CONFIG" "${REGRESS_ARG[@]}" installcheck 2>&1 | tee "$OUT/installcheck.log" || rc=$?
REGRESS_SECS=$((SECONDS - T0))

summary=$(grep -E 'tests (passed|failed)' "$OUT/installcheck.log" | tail -n 1 || true)
REGRESS_OK=no
if [[ $summary =~ All\ ([0-9]+)\ tests\ passed ]]; then
	r_total=${BASH_REMATCH[1]}
	((rc == 0)) && REGRESS_OK=yes
elif [[ $summary =~ ([0-9]+)\ of\ ([0-9]+)\ tests\ failed ]]; then
	r_total=${BASH_REMATCH[2]}
else
	r_total=0
fi
if [[ $REGRESS_OK != yes && -f build/regress/regression.diffs ]]; then
	cp build/regress/regression.diffs "$OUT/"
	printf '\n---- build/regress/regression.diffs (first 100 lines) ----\n'
	head -n 100 build/regress/regression.diffs
	printf -- '---- end of diffs ----\n\n'
fi

# ---------------------------------------------------------------------------
# Stop the server, keep the logs
# ---------------------------------------------------------------------------
bc_log "stopping PostgreSQL"
STOP_OK=yes
if ! server_user "$BINDIR/pg_ctl" --pgdata="$BC_CLUSTER_DIR/data" --mode=fast \
	--wait --timeout="$TIMEOUT" stop >/dev/null 2>&1; then
	STOP_OK=no
	printf 'error: the server under valgrind did not stop within %ss; stopping immediately\n' \
		"$TIMEOUT" >&2
	if ! server_user "$BINDIR/pg_ctl" --pgdata="$BC_CLUSTER_DIR/data" --mode=immediate \
		--wait --timeout=120 stop >/dev/null 2>&1; then
		pm=$(head -n 1 "$BC_CLUSTER_DIR/data/postmaster.pid" 2>/dev/null || true)
		if [[ $pm =~ ^[0-9]+$ ]]; then
			kill -KILL "$pm" 2>/dev/null || true
		fi
	fi
fi
for _ in $(seq 120); do
	kill -0 "$VG_PID" 2>/dev/null || break
	sleep 1
done
save_logs
SERVER_OK=yes
if ! bc_cluster_stop; then
	SERVER_OK=no
fi
[[ $STOP_OK == yes ]] || SERVER_OK=no
trap - EXIT

# ---------------------------------------------------------------------------
# Valgrind logs
# ---------------------------------------------------------------------------
shopt -s nullglob
LOGS=("$OUT"/logs/valgrind.*.log)
shopt -u nullglob
((${#LOGS[@]} > 0)) || bc_die "no valgrind logs were written"

# One error is the text between the VALGRINDERROR-BEGIN and -END markers.
# Errors involving our frames go to extension-errors.txt, anything Valgrind
# says outside an error (its own warnings, a process killed by a signal) to
# notes.txt; awk prints "OURS OTHERS".  (mawk: no regex interval expressions.)
: >"$OUT/extension-errors.txt"
: >"$OUT/notes.txt"
read -r OURS OTHERS < <(RE=$OURS_RE ERRS=$OUT/extension-errors.txt NOTES=$OUT/notes.txt awk '
	/VALGRINDERROR-BEGIN/ { inerr = 1; buf = ""; ours = 0; next }
	/VALGRINDERROR-END/ {
		if (inerr) {
			if (ours) {
				nours++
				printf "---- %s\n%s\n", FILENAME, buf > ENVIRON["ERRS"]
			} else {
				nother++
			}
		}
		inerr = 0
		next
	}
	inerr {
		buf = buf $0 "\n"
		if ($0 ~ ENVIRON["RE"]) ours = 1
		next
	}
	/^==[0-9]+== +[^ ]/ { printf "%s: %s\n", FILENAME, $0 > ENVIRON["NOTES"] }
	END { printf "%d %d\n", nours + 0, nother + 0 }
' "${LOGS[@]}")
[[ $OURS =~ ^[0-9]+$ && $OTHERS =~ ^[0-9]+$ ]] || bc_die "could not parse the valgrind logs"

if ((OURS > 0)); then
	printf '\n*** Valgrind errors involving bloomcass code (first 300 lines; all in %s) ***\n' \
		"${OUT#"$ROOT"/}/extension-errors.txt"
	head -n 300 "$OUT/extension-errors.txt"
	printf '\n*** Processes with such errors (their statements: grep "\\[PID\\]" %s) ***\n' \
		"${OUT#"$ROOT"/}/server.log"
	sed -n 's|^---- .*valgrind\.\([0-9]*\)\.log$|\1|p' "$OUT/extension-errors.txt" |
		sort -n | uniq -c | while read -r n pid; do
			app=$(grep -m 1 -oE "\[$pid\] [^:]*:" "$OUT/server.log" 2>/dev/null |
				sed -E 's/^\[[0-9]+\] //; s/:$//' || true)
			printf '  pid %s: %s error(s), application %s\n' "$pid" "$n" \
				"${app:-unknown (a parallel worker or an auxiliary process)}"
		done
fi
if [[ -s $OUT/notes.txt ]]; then
	printf '\nValgrind messages outside errors (%s, first 20 lines):\n' "${OUT#"$ROOT"/}/notes.txt"
	head -n 20 "$OUT/notes.txt"
fi
if ((OTHERS > 0)); then
	printf '\n%d Valgrind error(s) outside bloomcass (PostgreSQL, libc), in:\n' "$OTHERS"
	grep -c VALGRINDERROR-BEGIN "${LOGS[@]}" | grep -v ':0$' | sed "s|^$ROOT/|  |" | head -n 20
fi

ELAPSED=$SECONDS
printf '\nregression suite under valgrind: %ss (whole script %ss); logs in %s\n' \
	"$REGRESS_SECS" "$ELAPSED" "${OUT#"$ROOT"/}"
FAIL=no
if [[ $REGRESS_OK != yes ]]; then
	printf 'FAILED: the regression suite did not pass under valgrind (%s)\n' \
		"${summary:-no pg_regress summary}"
	FAIL=yes
fi
if [[ $SERVER_OK != yes ]]; then
	printf 'FAILED: a backend crashed or the server did not stop cleanly\n'
	FAIL=yes
fi
if ((OURS > 0)); then
	FAIL=yes
fi
printf 'valgrind: %d regression tests, %d errors in extension code (%d logs, %d errors elsewhere)\n' \
	"$r_total" "$OURS" "${#LOGS[@]}" "$OTHERS"
[[ $FAIL == no ]]
