# shellcheck shell=bash
#
# test/lib/citus_nodes.sh - a throwaway Citus cluster for test/citus.sh: a
# coordinator and two workers, three PostgreSQL servers of the PostgreSQL in
# use, as bc_cluster_start (test/lib/common.sh) makes one.  Source it after
# test/lib/common.sh.
#
#   bc_citus_nodes_start     initdb and start the three; stopped on EXIT
#   bc_citus_nodes_stop      stop them, report any crash, remove them
#
# Everything lives in a fresh directory /tmp/bloomcass-citus.XXXXXX, removed
# when the nodes stop; the servers run as the unprivileged `postgres` user
# when the caller is root, else as the caller.  Each listens on 127.0.0.1
# (the workers are reached over TCP, as Citus reaches them) and on a unix
# socket in that directory, with shared_preload_libraries = 'citus' and
# trust authentication.  Ports: free ones from $BC_CITUS_PGPORT up, by
# default 5610 for PostgreSQL 15, 5630 for 17, 5640 for 18 (apart from
# bc_cluster_start's 5499..5599, and from each other: the chroots of
# test/chroot.sh share the host's network); a port taken between the check
# and the server's start is passed over.
#
# Exported: BC_CITUS_DIR, BC_CITUS_PORTS (coordinator, worker 1, worker 2),
# and PGHOST, PGPORT, PGUSER, PGDATABASE for the coordinator.

BC_CITUS_NAMES=(coordinator worker1 worker2)

_bc_citus_as_server_user() {
	if [[ $(id -u) -eq 0 ]]; then
		(cd "$BC_CITUS_DIR" && runuser -u postgres -- "$@")
	else
		(cd "$BC_CITUS_DIR" && "$@")
	fi
}

_bc_citus_exit_trap() {
	local rc=$?
	if [[ -n ${BC_CITUS_DIR:-} ]]; then
		bc_citus_nodes_stop || rc=1
	fi
	exit "$rc"
}

bc_citus_nodes_start() {
	local bindir port i name data locale
	bindir=$(_bc_bindir)
	[[ -z ${BC_CITUS_DIR:-} ]] || bc_die "Citus nodes already run in $BC_CITUS_DIR"

	if [[ $(id -u) -eq 0 ]] && ! id -u postgres >/dev/null 2>&1; then
		bc_log "creating system user postgres"
		useradd --system --user-group --home-dir /var/lib/postgresql \
			--no-create-home --shell /bin/bash postgres
	fi

	local major first
	major=$("$PG_CONFIG" --version | sed -nE 's/^PostgreSQL ([0-9]+).*/\1/p')
	first=${BC_CITUS_PGPORT:-$((5610 + 10 * (${major:-15} > 15 ? ${major:-15} - 15 : 0)))}
	BC_CITUS_PORTS=()
	port=$first

	BC_CITUS_DIR=$(mktemp -d /tmp/bloomcass-citus.XXXXXX)
	export BC_CITUS_DIR
	trap _bc_citus_exit_trap EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	[[ $(id -u) -ne 0 ]] || chown postgres: "$BC_CITUS_DIR"
	chmod 700 "$BC_CITUS_DIR"

	if grep -qixE 'c\.utf-?8' <<<"$(locale -a 2>/dev/null || true)"; then
		locale=C.UTF-8
	else
		locale=C
	fi

	for i in 0 1 2; do
		name=${BC_CITUS_NAMES[$i]}
		data=$BC_CITUS_DIR/$name
		if ! _bc_citus_as_server_user "$bindir/initdb" --pgdata="$data" \
			--username=postgres --encoding=UTF8 --locale="$locale" \
			--auth=trust --no-sync >"$BC_CITUS_DIR/initdb-$name.log" 2>&1; then
			cat "$BC_CITUS_DIR/initdb-$name.log" >&2
			bc_die "initdb of the $name failed"
		fi
		cat >>"$data/postgresql.conf" <<-EOF

			# --- bloomcass throwaway Citus node: $name ---
			listen_addresses = '127.0.0.1'
			unix_socket_directories = '$BC_CITUS_DIR'
			shared_preload_libraries = 'citus'
			citus.enable_statistics_collection = off
			shared_buffers = 32MB
			max_connections = 60
			fsync = off
			synchronous_commit = off
			full_page_writes = off
			max_worker_processes = 16
			log_min_messages = warning
			log_line_prefix = '%m [%p] '
		EOF
		# the next free port (postgresql.conf's last setting wins)
		while :; do
			((port < 5700)) || bc_die "no free port for the Citus $name in $first..5699"
			if _bc_port_in_use "$port"; then
				port=$((port + 1))
				continue
			fi
			printf 'port = %d\n' "$port" >>"$data/postgresql.conf"
			bc_log "starting the Citus $name on 127.0.0.1:$port"
			rm -f "$BC_CITUS_DIR/$name.log"
			if _bc_citus_as_server_user "$bindir/pg_ctl" --pgdata="$data" \
				--log="$BC_CITUS_DIR/$name.log" --wait --timeout=60 \
				start >"$BC_CITUS_DIR/pg_ctl-$name.log" 2>&1; then
				break
			fi
			if grep -q 'Address already in use' "$BC_CITUS_DIR/$name.log" 2>/dev/null; then
				bc_log "port $port was taken meanwhile"
				port=$((port + 1))
				continue
			fi
			cat "$BC_CITUS_DIR/pg_ctl-$name.log" >&2
			[[ -f $BC_CITUS_DIR/$name.log ]] && tail -n 40 "$BC_CITUS_DIR/$name.log" >&2
			bc_die "the Citus $name did not start"
		done
		BC_CITUS_PORTS+=("$port")
		port=$((port + 1))
	done

	export BC_CITUS_PORTS
	export PGHOST=$BC_CITUS_DIR PGPORT=${BC_CITUS_PORTS[0]} PGUSER=postgres PGDATABASE=postgres
	unset PGHOSTADDR PGSERVICE PGSERVICEFILE PGPASSWORD PGSSLMODE PGOPTIONS
}

# Stop the three servers, report a backend crash found in any log, remove the
# directory.  Non-zero when a server crashed or would not stop.
bc_citus_nodes_stop() {
	local dir=${BC_CITUS_DIR:-} bindir rc=0 name
	[[ -n $dir ]] || return 0
	bindir=$(_bc_bindir) || return 1
	for name in "${BC_CITUS_NAMES[@]}"; do
		[[ -f $dir/$name/postmaster.pid ]] || continue
		if ! _bc_citus_as_server_user "$bindir/pg_ctl" --pgdata="$dir/$name" \
			--mode=fast --wait --timeout=60 stop >/dev/null 2>&1; then
			printf 'error: pg_ctl stop of the %s failed; stopping immediately\n' "$name" >&2
			_bc_citus_as_server_user "$bindir/pg_ctl" --pgdata="$dir/$name" \
				--mode=immediate --wait --timeout=60 stop >/dev/null 2>&1 || true
			rc=1
		fi
	done
	for name in "${BC_CITUS_NAMES[@]}"; do
		if [[ -f $dir/$name.log ]] &&
			grep -qE 'terminated by signal|was terminated|PANIC:' "$dir/$name.log"; then
			{
				printf '\n*** A backend of the Citus %s crashed. ***\n' "$name"
				grep -nE -B 20 -A 5 'terminated by signal|was terminated|PANIC:' \
					"$dir/$name.log" | head -n 200
				printf '*** end of the %s log excerpt\n\n' "$name"
			} >&2
			rc=1
		fi
	done
	rm -rf -- "$dir"
	unset BC_CITUS_DIR
	trap - EXIT INT TERM
	return "$rc"
}
