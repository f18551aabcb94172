# shellcheck shell=bash
#
# test/lib/common.sh - helpers shared by bloomcass's test and demo scripts.
#
# Source it from a bash script that runs with `set -euo pipefail`:
#
#   . "$(dirname "$0")/lib/common.sh"
#   bc_install_deps          # packages, PATH and PG_CONFIG
#   bc_cluster_start         # throwaway PostgreSQL 15 cluster, stopped on EXIT
#   dir=$(bc_server_copy test/data/vectors)
#   psql -c 'select 1'
#   bc_cluster_stop          # optional: the EXIT trap does it too
#
# Everything is created under a fresh temporary directory that is removed
# again when the cluster stops.  PostgreSQL refuses to run as root, so when
# the caller is root the server runs as the unprivileged `postgres` user;
# otherwise it runs as the calling user.

# Packages needed to build the extension, run its tests and build the
# libFuzzer targets (-fsanitize=fuzzer needs clang's runtime libraries).
BC_PACKAGES=(postgresql-15 postgresql-server-dev-15 build-essential clang libclang-rt-14-dev)

BC_PG_BINDIR=/usr/lib/postgresql/15/bin

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

# Install whichever of BC_PACKAGES is missing (and only those), then put the
# PostgreSQL 15 binaries first on PATH and export PG_CONFIG.
bc_install_deps() {
	local missing=() pkg status
	for pkg in "${BC_PACKAGES[@]}"; do
		# dpkg -s succeeds for removed-but-configured packages too, so
		# check the status line for "install ok installed".
		status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
		if [[ $status != *'install ok installed'* ]]; then
			missing+=("$pkg")
		fi
	done

	if ((${#missing[@]} > 0)); then
		if [[ $(id -u) -ne 0 ]]; then
			bc_die "missing packages: ${missing[*]}; install them as root" \
				"(apt-get install ${missing[*]}) or run this script as root"
		fi
		bc_log "installing missing packages: ${missing[*]}"
		apt-get update
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
	fi

	if [[ -d $BC_PG_BINDIR ]]; then
		PATH="$BC_PG_BINDIR:$PATH"
	fi
	export PATH

	if [[ -x $BC_PG_BINDIR/pg_config ]]; then
		PG_CONFIG=$BC_PG_BINDIR/pg_config
	elif command -v pg_config >/dev/null 2>&1; then
		PG_CONFIG=$(command -v pg_config)
	else
		bc_die "pg_config not found (is postgresql-server-dev-15 installed?)"
	fi
	export PG_CONFIG
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
	elif [[ -x $BC_PG_BINDIR/pg_ctl ]]; then
		printf '%s\n' "$BC_PG_BINDIR"
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
	bindir=$(_bc_bindir) || bindir=$BC_PG_BINDIR

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
