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
#   1. make, make install (the normal build: -g -O2 and the Makefile's
#      -Werror flags).  BC_VALGRIND_COPT='-O0' rebuilds from clean with that
#      appended to CFLAGS (PGXS's COPT) for more precise stacks.
#   2. initdb a throwaway cluster (test/lib/common.sh), then start the
#      postmaster directly under valgrind; every backend, parallel worker and
#      auxiliary process is a fork of it and so runs under valgrind as well,
#      each writing its own log file.
#   3. make installcheck against it.
#   4. stop the server, then read every Valgrind log: each error whose
#      stack (or the origin / allocation stack Valgrind attaches to it)
#      has a frame in bloomcass (bloomcass.so, or a file under src/) is printed
#      and fails the run; errors elsewhere (PostgreSQL itself, libc) are only
#      counted.
#
# It ends with the line
#   valgrind: N regression tests, 0 errors in extension code (M logs, K errors elsewhere)
# and exits non-zero if the regression tests failed, the server crashed or
# any error involved extension code.  Logs are kept in build/valgrind/.
#
# Suppressions: test/valgrind/postgresql.supp (PostgreSQL's own
# src/tools/valgrind.supp) and test/valgrind/bloomcass.supp (documented,
# narrow additions for noise outside bloomcass).
#
# Environment:
#   BC_VALGRIND_COPT     extra compiler flags (e.g. -O0); forces a clean build
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

# ---------------------------------------------------------------------------
# Build and install
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
bc_log "make install"
make PG_CONFIG="$PG_CONFIG" install >"$OUT/install.log" 2>&1 ||
	{ cat "$OUT/install.log" >&2; bc_die "make install failed"; }

# Frames that belong to bloomcass.  With --fullpath-after="$ROOT/" Valgrind
# prints our source files as "src/....c"; the basenames and the library name
# are matched too, in case a path is printed differently.
OUR_NAMES=$(find src -name '*.[ch]' -printf '%f\n' | sed 's/\./\\./g' | sort -u | paste -sd'|' -)
OURS_RE="bloomcass\\.so|[( ]src/[^ :]+:[0-9]+|[( ](${OUR_NAMES}):[0-9]+"

# ---------------------------------------------------------------------------
# Cluster: initdb and configuration through common.sh, then a restart of the
# postmaster under valgrind.
# ---------------------------------------------------------------------------
bc_cluster_start
BINDIR=$("$PG_CONFIG" --bindir)
VGDIR=$BC_CLUSTER_DIR/valgrind

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

cat >>"$BC_CLUSTER_DIR/data/postgresql.conf" <<-EOF

	# --- test/valgrind.sh ---
	# No JIT: LLVM-generated code is opaque to Valgrind and only adds noise.
	jit = off
	huge_pages = off
	# Everything is 20-50 times slower under Valgrind; no timeouts.
	statement_timeout = 0
	lock_timeout = 0
	idle_in_transaction_session_timeout = 0
	authentication_timeout = '10min'
	log_min_messages = warning
EOF

mkdir -p "$VGDIR"
cp -- test/valgrind/*.supp "$VGDIR/"
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
server_user valgrind "${VG_ARGS[@]}" "$BINDIR/postgres" -D "$BC_CLUSTER_DIR/data" \
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

bc_server_copy test/data/real-filters >/dev/null
bc_server_copy test/data/vectors >/dev/null
export BLOOMCASS_SERVER_DATA=$BC_CLUSTER_DIR/files

# ---------------------------------------------------------------------------
# Regression suite
# ---------------------------------------------------------------------------
bc_log "make installcheck (under valgrind this takes minutes)"
mkdir -p build/regress
T0=$SECONDS
rc=0
make PG_CONFIG="$PG_CONFIG" installcheck 2>&1 | tee "$OUT/installcheck.log" || rc=$?
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
	printf '\n---- build/regress/regression.diffs (first 200 lines) ----\n'
	head -n 200 build/regress/regression.diffs
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
	printf 'error: the server under valgrind did not stop within %ss\n' "$TIMEOUT" >&2
fi
wait "$VG_PID" || true
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
# says outside an error (its own warnings, a crash of Valgrind itself) to
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
	printf '\n*** Valgrind errors involving bloomcass code ***\n'
	cat "$OUT/extension-errors.txt"
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
