# shellcheck shell=bash
#
# test/lib/common.sh - helpers shared by bloomcass's test and demo scripts.
#
# Source it from a bash script that runs with `set -euo pipefail`:
#
#   . "$(dirname "$0")/lib/common.sh"
#   bc_install_deps          # packages, PATH and PG_CONFIG
#   bc_cluster_start         # throwaway cluster, stopped on EXIT
#   dir=$(bc_server_copy test/data/vectors)
#   psql -c 'select 1'
#   bc_cluster_stop          # optional: the EXIT trap does it too
#
# Everything is created under a fresh temporary directory that is removed
# again when the cluster stops.  PostgreSQL refuses to run as root, so when
# the caller is root the server runs as the unprivileged `postgres` user;
# otherwise it runs as the calling user.

# bc_lock: take /tmp/bloomcass-regress.lock (on fd 9) for the rest of the
# script, as every script that installs into the PostgreSQL in use or starts
# a server that loads the installed library does, so that two test runs on
# one machine never install over each other's running tests.  A script run
# by one that holds it (BC_REGRESS_LOCKED=1, exported here) does not take it
# again, which would wait for its own caller.
bc_lock() {
	[[ ${BC_REGRESS_LOCKED:-} == 1 ]] && return 0
	exec 9>/tmp/bloomcass-regress.lock
	flock 9
	export BC_REGRESS_LOCKED=1
}

# The checks of the counting test scripts (client.sh, fleet.sh, citus.sh):
# check NAME 0|1 [DETAIL] prints "ok NAME" or "FAILED NAME: DETAIL" and
# counts it in the caller's PASSED or FAILED; expect NAME ACTUAL EXPECTED
# [LOG] checks that ACTUAL is EXPECTED and, when not, prints LOG's first 20
# lines too (a run's output, which holds the reason; by default the file
# LAST_LOG names, when the caller sets it).
check() {
	if [[ $2 == 0 ]]; then
		printf 'ok      %s\n' "$1"
		PASSED=$((PASSED + 1))
	else
		printf 'FAILED  %s%s\n' "$1" "${3:+: $3}"
		FAILED=$((FAILED + 1))
	fi
}
expect() {
	if [[ $2 == "$3" ]]; then
		check "$1" 0
	else
		check "$1" 1 "got '$2', expected '$3'"
		local log=${4:-${LAST_LOG:-}}
		[[ -z $log || ! -f $log ]] || { printf '    (%s:)\n' "$log"; head -n 20 -- "$log" | sed 's/^/    | /'; }
	fi
}

bc_log() {
	printf '==> %s\n' "$*" >&2
}

bc_die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

# ---------------------------------------------------------------------------
# Dependencies
# ---------------------------------------------------------------------------
#
# Which PostgreSQL: $PG_CONFIG when the caller sets it; else the only server
# installed from the distribution's packages (/usr/lib/postgresql/N); else,
# when none is, the distribution's default major (what the `postgresql`
# package depends on: 15 on Debian 12, 17 on Debian 13, 18 on testing).
# Several installed servers and no PG_CONFIG is an error that names them.
#
# Packages, by the distribution's own names: postgresql-N and
# postgresql-server-dev-N (for a PostgreSQL from the distribution),
# build-essential, clang, and the clang runtime (libclang-rt-M-dev, M being
# the major of the installed clang) that the libFuzzer targets link with;
# the decompressors of a compressed Data.db (liblz4, libsnappy, zlib,
# libzstd: their -dev packages, which bring the libraries, have the same
# names on Debian 12, 13 and testing).

# bc_pkg_missing PKG...: print those of PKG that are not installed.
bc_pkg_missing() {
	local pkg status
	for pkg in "$@"; do
		# dpkg -s succeeds for removed-but-configured packages too, so
		# check the status line for "install ok installed".
		status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
		if [[ $status != *'install ok installed'* ]]; then
			printf '%s\n' "$pkg"
		fi
	done
}

_bc_apt_updated=no
_bc_apt_update() {
	if [[ $_bc_apt_updated == no ]]; then
		apt-get update
		_bc_apt_updated=yes
	fi
}

# bc_pkg_install PKG...: install whichever of PKG is missing (and only
# those); as another user than root, name them and stop.
bc_pkg_install() {
	local missing
	mapfile -t missing < <(bc_pkg_missing "$@")
	((${#missing[@]} > 0)) || return 0
	if [[ $(id -u) -ne 0 ]]; then
		bc_die "missing packages: ${missing[*]}; install them as root" \
			"(apt-get install ${missing[*]}) or run this script as root"
	fi
	bc_log "installing missing packages: ${missing[*]}"
	_bc_apt_update
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

# The majors of the PostgreSQL servers installed from packages.
_bc_installed_majors() {
	local d
	for d in /usr/lib/postgresql/*/bin/postgres; do
		[[ -x $d ]] || continue
		d=${d#/usr/lib/postgresql/}
		printf '%s\n' "${d%%/*}"
	done | sort -n
}

# The major version of the distribution's default PostgreSQL.
_bc_default_major() {
	local major try
	# apt's package lists may be missing (a fresh machine): update once
	for try in lists updated; do
		[[ $try == lists ]] || _bc_apt_update >&2
		major=$(apt-cache depends postgresql 2>/dev/null |
			sed -nE 's/^ *Depends: postgresql-([0-9]+)$/\1/p' | head -n 1)
		[[ -z $major ]] || break
	done
	[[ -n $major ]] || bc_die "cannot tell which PostgreSQL this distribution ships" \
		"(apt-cache depends postgresql names no postgresql-N); set PG_CONFIG"
	printf '%s\n' "$major"
}

# Install what is missing, put the chosen PostgreSQL's binaries first on
# PATH and export PG_CONFIG and BC_PG_MAJOR.
bc_install_deps() {
	local majors=() major bindir clang_major

	if [[ -n ${PG_CONFIG:-} ]]; then
		command -v "$PG_CONFIG" >/dev/null 2>&1 ||
			bc_die "PG_CONFIG=$PG_CONFIG is not an executable pg_config"
		major=$("$PG_CONFIG" --version | sed -nE 's/^PostgreSQL ([0-9]+).*/\1/p')
		[[ -n $major ]] || bc_die "cannot read the version of $PG_CONFIG"
		bindir=$("$PG_CONFIG" --bindir)
		# A PostgreSQL of the distribution's: its packages; one built by
		# hand brings its own files.
		if [[ $bindir == /usr/lib/postgresql/$major/bin ]]; then
			bc_pkg_install "postgresql-$major" "postgresql-server-dev-$major"
		fi
	else
		mapfile -t majors < <(_bc_installed_majors)
		if ((${#majors[@]} > 1)); then
			bc_die "several PostgreSQL servers are installed (${majors[*]}):" \
				"choose one with PG_CONFIG=/usr/lib/postgresql/N/bin/pg_config"
		elif ((${#majors[@]} == 1)); then
			major=${majors[0]}
		else
			major=$(_bc_default_major)
		fi
		bc_pkg_install "postgresql-$major" "postgresql-server-dev-$major"
		PG_CONFIG=/usr/lib/postgresql/$major/bin/pg_config
		[[ -x $PG_CONFIG ]] || bc_die "$PG_CONFIG is missing after installing postgresql-$major"
	fi

	# The toolchain, then the runtime of whichever clang that gave.
	bc_pkg_install build-essential clang
	bc_pkg_install liblz4-dev libsnappy-dev zlib1g-dev libzstd-dev
	# man (man-db, groff-base, col of bsdextrautils): `man bloomcass-load`
	# after make install, and test/check-man.sh
	bc_pkg_install man-db groff-base bsdextrautils
	clang_major=$(clang --version 2>/dev/null | sed -nE 's/.*clang version ([0-9]+).*/\1/p' | head -n 1)
	[[ -n $clang_major ]] || bc_die "cannot read the version of clang"
	bc_pkg_install "libclang-rt-$clang_major-dev"

	PATH="$("$PG_CONFIG" --bindir):$PATH"
	BC_PG_MAJOR=$major
	export PATH PG_CONFIG BC_PG_MAJOR
}

# ---------------------------------------------------------------------------
# Throwaway cluster
# ---------------------------------------------------------------------------

# Directory holding initdb, pg_ctl and postgres for the cluster.
# Build the extension and install it into the PostgreSQL installation.
bc_build_install() {
	bc_log "building bloomcass"
	make -j"$(nproc 2>/dev/null || echo 2)" PG_CONFIG="$PG_CONFIG"
	bc_log "installing bloomcass"
	make PG_CONFIG="$PG_CONFIG" install
}

_bc_bindir() {
	local bindir
	if [[ -n ${PG_CONFIG:-} ]] && bindir=$("$PG_CONFIG" --bindir 2>/dev/null) &&
		[[ -x $bindir/pg_ctl ]]; then
		printf '%s\n' "$bindir"
	else
		bc_die "PostgreSQL server binaries not found (run bc_install_deps first)"
	fi
}

# Run a command as the user the server runs as, from the cluster directory
# (the caller's working directory may not be readable by that user).
_bc_as_server_user() {
	if [[ $(id -u) -eq 0 ]]; then
		(cd "$BC_CLUSTER_DIR" && runuser -u postgres -- "$@")
	else
		(cd "$BC_CLUSTER_DIR" && "$@")
	fi
}

# True when something already uses PostgreSQL port $1 on this machine.
_bc_port_in_use() {
	local port=$1 dir
	for dir in /tmp /var/run/postgresql /run/postgresql; do
		if [[ -e $dir/.s.PGSQL.$port || -e $dir/.s.PGSQL.$port.lock ]]; then
			return 0
		fi
	done
	# Another cluster listening on TCP with that port.
	if command -v ss >/dev/null 2>&1 &&
		[[ -n $(ss -Hltn "sport = :$port" 2>/dev/null || true) ]]; then
		return 0
	fi
	# the same from the kernel's tables, where ss is missing (a minimal
	# chroot, which shares the host's network): state 0A is LISTEN
	local hex
	printf -v hex ':%04X' "$port"
	if awk -v p="$hex" '$4 == "0A" && substr($2, length($2) - 4) == p { found = 1 }
		END { exit !found }' /proc/net/tcp /proc/net/tcp6 2>/dev/null; then
		return 0
	fi
	return 1
}

# Stop the cluster when the script exits, however it exits; a crash found in
# the server log turns a successful exit into a failure.
_bc_exit_trap() {
	local rc=$?
	if [[ -n ${BC_CLUSTER_DIR:-} ]]; then
		bc_cluster_stop || rc=1
	fi
	exit "$rc"
}

# Start a throwaway cluster and export PGHOST, PGPORT, PGUSER, PGDATABASE and
# BC_CLUSTER_DIR.  The port is $BC_PGPORT if set, else the first free one
# from 5499 up.  It listens only on a unix socket inside BC_CLUSTER_DIR.
bc_cluster_start() {
	local bindir port locale
	bindir=$(_bc_bindir)

	if [[ -n ${BC_CLUSTER_DIR:-} ]]; then
		bc_die "a cluster is already running in $BC_CLUSTER_DIR"
	fi

	if [[ $(id -u) -eq 0 ]] && ! id -u postgres >/dev/null 2>&1; then
		bc_log "creating system user postgres"
		useradd --system --user-group --home-dir /var/lib/postgresql \
			--no-create-home --shell /bin/bash postgres
	fi

	port=${BC_PGPORT:-5499}
	if [[ -z ${BC_PGPORT:-} ]]; then
		while _bc_port_in_use "$port"; do
			port=$((port + 1))
			((port < 5600)) || bc_die "no free port found in 5499..5599"
		done
	fi

	# /tmp rather than $TMPDIR: the server user must be able to reach it and
	# the socket path must stay short (unix socket paths are limited to ~107
	# bytes).
	BC_CLUSTER_DIR=$(mktemp -d /tmp/bloomcass-pg.XXXXXX)
	export BC_CLUSTER_DIR
	trap _bc_exit_trap EXIT
	# Make INT and TERM run the EXIT trap too.
	trap 'exit 130' INT
	trap 'exit 143' TERM

	if [[ $(id -u) -eq 0 ]]; then
		chown postgres: "$BC_CLUSTER_DIR"
	fi
	chmod 700 "$BC_CLUSTER_DIR"

	if grep -qixE 'c\.utf-?8' <<<"$(locale -a 2>/dev/null || true)"; then
		locale=C.UTF-8
	else
		locale=C
	fi

	bc_log "initdb in $BC_CLUSTER_DIR/data (locale $locale)"
	if ! _bc_as_server_user "$bindir/initdb" --pgdata="$BC_CLUSTER_DIR/data" \
		--username=postgres --encoding=UTF8 --locale="$locale" \
		--auth=trust --no-sync >"$BC_CLUSTER_DIR/initdb.log" 2>&1; then
		cat "$BC_CLUSTER_DIR/initdb.log" >&2
		bc_die "initdb failed"
	fi

	cat >>"$BC_CLUSTER_DIR/data/postgresql.conf" <<-EOF

		# --- bloomcass throwaway test cluster ---
		listen_addresses = ''
		unix_socket_directories = '$BC_CLUSTER_DIR'
		port = $port
		fsync = off
		synchronous_commit = off
		full_page_writes = off
		max_worker_processes = 8
		max_parallel_workers = 4
		max_parallel_workers_per_gather = 2
		log_min_messages = warning
		log_line_prefix = '%m [%p] '
	EOF

	bc_log "starting PostgreSQL on socket $BC_CLUSTER_DIR, port $port"
	if ! _bc_as_server_user "$bindir/pg_ctl" --pgdata="$BC_CLUSTER_DIR/data" \
		--log="$BC_CLUSTER_DIR/server.log" --wait --timeout=60 \
		start >"$BC_CLUSTER_DIR/pg_ctl.log" 2>&1; then
		cat "$BC_CLUSTER_DIR/pg_ctl.log" >&2
		[[ -f $BC_CLUSTER_DIR/server.log ]] && cat "$BC_CLUSTER_DIR/server.log" >&2
		bc_die "the server did not start"
	fi

	export PGHOST=$BC_CLUSTER_DIR PGPORT=$port PGUSER=postgres PGDATABASE=postgres
	# Settings that would point clients elsewhere.
	unset PGHOSTADDR PGSERVICE PGSERVICEFILE PGPASSWORD PGSSLMODE PGOPTIONS
}

# Stop the cluster, report any backend crash found in its log and remove the
# cluster directory.  Returns non-zero if the server crashed or would not
# stop; safe to call more than once.
bc_cluster_stop() {
	local dir=${BC_CLUSTER_DIR:-} bindir rc=0
	[[ -n $dir ]] || return 0
	bindir=$(_bc_bindir) || return 1

	if [[ -f $dir/data/postmaster.pid ]]; then
		bc_log "stopping PostgreSQL"
		if ! _bc_as_server_user "$bindir/pg_ctl" --pgdata="$dir/data" \
			--mode=fast --wait --timeout=60 stop >/dev/null 2>&1; then
			printf 'error: pg_ctl stop failed; stopping immediately\n' >&2
			_bc_as_server_user "$bindir/pg_ctl" --pgdata="$dir/data" \
				--mode=immediate --wait --timeout=60 stop >/dev/null 2>&1 || true
			rc=1
		fi
	fi

	# A backend that died on a signal (segfault, abort, ...) makes the
	# postmaster log "server process (PID n) was terminated by signal s".
	if [[ -f $dir/server.log ]] &&
		grep -qE 'terminated by signal|was terminated|PANIC:' "$dir/server.log"; then
		{
			printf '\n*** A PostgreSQL backend crashed during this run. ***\n'
			printf '*** Server log (%s):\n' "$dir/server.log"
			grep -nE -B 20 -A 5 'terminated by signal|was terminated|PANIC:' \
				"$dir/server.log" | head -n 200
			printf '*** end of server log excerpt\n\n'
		} >&2
		rc=1
	fi

	# a test's mounts below it (test/client.sh's bind mount), deepest first,
	# so that the removal cannot go through one, nor fail on a busy one
	local m
	while read -r m; do
		umount -- "$m" 2>/dev/null || umount -l -- "$m" || rc=1
	done < <(awk -v d="$dir/" 'index($2, d) == 1 { print $2 }' /proc/mounts 2>/dev/null | sort -r)
	rm -rf -- "$dir"
	unset BC_CLUSTER_DIR
	trap - EXIT INT TERM
	return "$rc"
}

# Copy a directory of the repository (e.g. test/data/vectors) into
# "$BC_CLUSTER_DIR/files/", readable by the server, and print the absolute
# path of the copy ("$BC_CLUSTER_DIR/files/<basename>").
bc_server_copy() {
	local src=${1:?usage: bc_server_copy DIR}
	local dest
	[[ -n ${BC_CLUSTER_DIR:-} ]] || bc_die "bc_server_copy: no cluster is running"
	[[ -d $src ]] || bc_die "bc_server_copy: $src is not a directory"
	mkdir -p "$BC_CLUSTER_DIR/files"
	dest=$BC_CLUSTER_DIR/files/$(basename "$src")
	rm -rf -- "$dest"
	cp -R -- "$src" "$dest"
	if [[ $(id -u) -eq 0 ]]; then
		chown -R postgres: "$BC_CLUSTER_DIR/files"
	fi
	chmod -R u+rwX,go+rX "$BC_CLUSTER_DIR/files"
	printf '%s\n' "$dest"
}
