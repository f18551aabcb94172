# shellcheck shell=bash
#
# test/lib/debootstrap.sh - making a Debian chroot of a given release, shared
# by test/chroot.sh (the test runs on PostgreSQL 17 and 18) and
# test/packages.sh (the packages installed into a chroot without a
# compiler).  Source it after test/lib/common.sh; run as root.
#
#   mirror=$(bc_host_mirror)               the Debian mirror apt uses here
#   bc_debootstrap SUITE ROOTFS MIRROR LOG debootstrap --variant=minbase
#   bc_chroot_apt_setup ROOTFS             apt and services for a chroot

# bc_host_mirror: the mirror of this machine's Debian archive, the URI of the
# apt source that serves the host's own codename (deb822 .sources files or
# one-line lists).
bc_host_mirror() {
	local codename
	codename=$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")
	[[ -n $codename ]] || return 1
	{
		local f
		for f in /etc/apt/sources.list.d/*.sources; do
			[[ -f $f ]] || continue
			# one stanza per paragraph: print its URIs when its Suites name
			# the codename itself (not -security or -updates)
			awk -v c="$codename" '
				BEGIN { RS = ""; FS = "\n" }
				{
					uris = ""; hit = 0; enabled = 1
					for (i = 1; i <= NF; i++) {
						if ($i ~ /^#/) continue
						if ($i ~ /^URIs:/) { uris = $i; sub(/^URIs:[ \t]*/, "", uris) }
						if ($i ~ /^Suites:/) { n = split($i, s, /[ \t]+/); for (j = 2; j <= n; j++) if (s[j] == c) hit = 1 }
						if ($i ~ /^Enabled:[ \t]*no/) enabled = 0
					}
					if (hit && enabled && uris != "") { split(uris, u, /[ \t]+/); print u[1] }
				}' "$f"
		done
		for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
			[[ -f $f ]] || continue
			awk -v c="$codename" '
				$1 == "deb" {
					i = 2
					if ($i ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
					if ($(i + 1) == c) print $i
				}' "$f"
		done
	} | head -n 1 | grep .
}

# bc_debootstrap SUITE ROOTFS MIRROR LOG: `debootstrap --variant=minbase`
# of SUITE into ROOTFS, its output in LOG (the end of which is printed on
# failure), within BC_CHROOT_TIMEOUT seconds (default 1200): a mirror that
# stops answering fails instead of hanging.  The host's debootstrap may
# predate SUITE: testing's codename is made with the sid script (the two are
# the same script in debootstrap).
bc_debootstrap() {
	local suite=$1 rootfs=$2 mirror=$3 log=$4 script=
	bc_pkg_install debootstrap || { printf 'error: cannot install debootstrap\n' >&2; return 1; }
	if [[ ! -e /usr/share/debootstrap/scripts/$suite ]]; then
		if [[ ! -e /usr/share/debootstrap/scripts/sid ]]; then
			printf 'error: debootstrap has no script for %s nor sid\n' "$suite" >&2
			return 1
		fi
		script=/usr/share/debootstrap/scripts/sid
	fi
	bc_log "debootstrap --variant=minbase $suite from $mirror into $rootfs"
	# $script unquoted: no argument at all when it is empty
	# shellcheck disable=SC2086
	if ! timeout "${BC_CHROOT_TIMEOUT:-1200}" debootstrap --variant=minbase "$suite" "$rootfs" "$mirror" $script >"$log" 2>&1; then
		tail -n 30 "$log" >&2
		[[ -f $rootfs/debootstrap/debootstrap.log ]] && tail -n 30 "$rootfs/debootstrap/debootstrap.log" >&2
		printf 'error: debootstrap %s failed\n' "$suite" >&2
		return 1
	fi
}

# bc_chroot_apt_setup ROOTFS: apt inside the chroot does not check Release
# files' Valid-Until (a mirror that serves a snapshot of the archive would
# otherwise be refused for testing, whose Release files expire after a
# week) and installs no recommends; no service starts while packages install
# (no init system runs in the chroot); the host's resolver.
bc_chroot_apt_setup() {
	local rootfs=$1
	cat >"$rootfs/etc/apt/apt.conf.d/99bloomcass" <<-'EOF_APT'
		Acquire::Check-Valid-Until "false";
		APT::Install-Recommends "false";
	EOF_APT
	printf '#!/bin/sh\nexit 101\n' >"$rootfs/usr/sbin/policy-rc.d"
	chmod 755 "$rootfs/usr/sbin/policy-rc.d"
	cp /etc/resolv.conf "$rootfs/etc/resolv.conf" 2>/dev/null || true
}

# bc_chroot_mount ROOTFS: /proc, a private /dev/shm (the server's shared
# memory) and a private /dev/pts (pseudo-terminals: the client's progress is
# tested on one).
bc_chroot_mount() {
	local rootfs=$1
	mount -t proc proc "$rootfs/proc"
	mkdir -p "$rootfs/dev/shm"
	mount -t tmpfs -o mode=1777,size=2g shm "$rootfs/dev/shm"
	mkdir -p "$rootfs/dev/pts"
	mount -t devpts -o newinstance,ptmxmode=0666,mode=620,gid=5 devpts "$rootfs/dev/pts"
	rm -f "$rootfs/dev/ptmx"
	ln -s pts/ptmx "$rootfs/dev/ptmx"
}

# bc_chroot_mounts_below DIR: every mount below DIR, deepest first
# (debootstrap's own, if it failed half-way, and ours).
bc_chroot_mounts_below() {
	awk -v d="$1/" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r
}

# bc_chroot_release DIR ROOTFS: end the processes still running inside
# ROOTFS (a server left behind by a run that was cut short), so that nothing
# holds its mounts, and unmount everything below DIR; fails when a mount
# remains.
bc_chroot_release() {
	local dir=$1 rootfs=$2 p root m
	for p in /proc/[0-9]*; do
		root=$(readlink "$p/root" 2>/dev/null) || continue
		if [[ $root == "$rootfs" || $root == "$rootfs/"* ]]; then
			kill -KILL "${p#/proc/}" 2>/dev/null || true
		fi
	done
	while IFS= read -r m; do
		umount "$m" 2>/dev/null || umount -l "$m" || true
	done < <(bc_chroot_mounts_below "$dir")
	[[ -z $(bc_chroot_mounts_below "$dir") ]]
}

# bc_tree_tar ROOT TAR: the source tree ROOT, as git knows it (the files it
# tracks and those it does not ignore, committed or not), in the archive TAR,
# so that later edits or builds in the tree do not reach what uses the copy.
bc_tree_tar() {
	local root=$1 tar=$2
	if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		(cd "$root" && git ls-files -z --cached --others --exclude-standard |
			while IFS= read -r -d '' f; do [[ -e $f ]] && printf '%s\0' "$f"; done |
			tar --null -T - -cf "$tar")
	else
		tar -C "$root" --exclude=./build --exclude=./.git -cf "$tar" .
	fi
}
