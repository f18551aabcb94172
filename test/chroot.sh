#!/usr/bin/env bash
#
# test/chroot.sh - run bloomcass's tests against the PostgreSQL of another
# Debian release, in a clean chroot made for the purpose.
#
#   bash test/chroot.sh SUITE          e.g. trixie (PostgreSQL 17), forky (18)
#
# As root on a Debian machine.  It
#   1. takes a copy of the source tree (the files git knows, committed or
#      not), so that later edits or builds in the tree do not reach the run;
#   2. creates SUITE with `debootstrap --variant=minbase` from the Debian
#      mirror this machine's apt uses (a suite the host's debootstrap has no
#      script for, such as testing's codename, is made with the sid script);
#   3. mounts /proc, a private /dev/shm (the server's shared memory) and a
#      private /dev/pts (pseudo-terminals),
#      unpacks the copy into /src and runs `bash test/run-all.sh --local
#      --no-fuzz --no-pgxn`
#      there: the same script a user of that release runs, which installs
#      the release's own packages (postgresql-N, postgresql-server-dev-N,
#      build-essential, clang, libclang-rt-M-dev, and the -dev packages
#      of liblz4, libsnappy, zlib and libzstd; for the Citus stage git and
#      the -dev packages of krb5, openssl and ICU) with its apt; the Citus
#      release archives of ../shared/citus beside the source tree, when
#      there, are copied to /shared/citus (../shared/citus of /src), and
#      the host's Citus build cache /var/cache/bloomcass-citus is mounted
#      at the same place (test/lib/citus_build.sh; its keys name the
#      release and the server, so each suite has its own entries);
#   4. unmounts and removes the chroot, however it ends.
#
# apt inside the chroot does not check Release files' Valid-Until: a
# mirror that serves a snapshot of the archive would otherwise be refused
# for testing, whose Release files expire after a week.
#
# Its output ends with the chroot run's own summary; the run's results are
# also left in $BC_CHROOT_RESULTS (a file, when set) as the lines of
# build/test-logs/summary.tsv (see test/run-all.sh), preceded by
#   chroot<TAB>ok|FAILED<TAB><detail><TAB><seconds>
# for the chroot's creation.  The exit status is non-zero when the chroot
# could not be made or any test failed: nothing here is ever skipped.
#
# Environment:
#   BC_CHROOT_BASE     where the chroot is made (default /var/tmp)
#   BC_CHROOT_KEEP=1   leave the chroot in place (its path is printed)
#   BC_MIRROR          the Debian mirror (default: the one apt uses here)
#   BC_CHROOT_COMMAND  what runs in /src instead of the whole run-all.sh
#                      (by hand, e.g. "bash test/citus.sh"; the results
#                      file then says there is no summary)
#   BC_CITUS_RELEASE   passed on (test/lib/citus_build.sh)
#   BC_CHROOT_TIMEOUT  seconds debootstrap, and then the test run, may take
#                      at the most (default 1200 each, the time the whole
#                      test command is given): a mirror that stops
#                      answering fails the stage instead of hanging it

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

# shellcheck source=test/lib/common.sh
. "$ROOT/test/lib/common.sh"

SUITE=${1:-}
[[ $SUITE =~ ^[a-z]+$ ]] || bc_die "usage: bash test/chroot.sh SUITE (a Debian codename, e.g. trixie)"
[[ $(id -u) -eq 0 ]] || bc_die "test/chroot.sh needs root (debootstrap, chroot, mount)"

RESULTS=${BC_CHROOT_RESULTS:-}
T0=$SECONDS

# chroot_result RESULT DETAIL: the line for the chroot's creation.
chroot_result() {
	if [[ -n $RESULTS ]]; then
		printf 'chroot\t%s\t%s\t%d\n' "$1" "$2" "$((SECONDS - T0))" >"$RESULTS"
	fi
}

fail() {
	chroot_result FAILED "$*"
	bc_die "$SUITE: $*"
}

# The mirror of this machine's Debian archive: the URI of the apt source that
# serves the host's own codename (deb822 .sources files or one-line lists).
host_mirror() {
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

MIRROR=${BC_MIRROR:-}
if [[ -z $MIRROR ]]; then
	MIRROR=$(host_mirror) || fail "cannot find the Debian mirror in this machine's apt sources; set BC_MIRROR"
fi

# The host's debootstrap may predate SUITE: testing's codename is made with
# the sid script (the two are the same script in debootstrap).
bc_pkg_install debootstrap || fail "cannot install debootstrap"
SCRIPT=
if [[ ! -e /usr/share/debootstrap/scripts/$SUITE ]]; then
	[[ -e /usr/share/debootstrap/scripts/sid ]] || fail "debootstrap has no script for $SUITE nor sid"
	SCRIPT=/usr/share/debootstrap/scripts/sid
fi

# ---------------------------------------------------------------------------
# The source, copied before anything else takes time
# ---------------------------------------------------------------------------
BASE=${BC_CHROOT_BASE:-/var/tmp}
mkdir -p "$BASE"
DIR=$(mktemp -d "$BASE/bloomcass-$SUITE.XXXXXX")
chmod 755 "$DIR"

# Every mount below DIR, deepest first (debootstrap's own, if it failed
# half-way, and ours).
mounts_below() {
	awk -v d="$DIR/" 'index($2, d) == 1 { print $2 }' /proc/mounts | sort -r
}

# Processes still running inside the chroot (a server left behind by a run
# that was cut short): ended, so that nothing holds its mounts.
kill_inside() {
	local p root
	for p in /proc/[0-9]*; do
		root=$(readlink "$p/root" 2>/dev/null) || continue
		if [[ $root == "$DIR/root" || $root == "$DIR/root/"* ]]; then
			kill -KILL "${p#/proc/}" 2>/dev/null || true
		fi
	done
}

cleanup() {
	local rc=$? m
	kill_inside
	while IFS= read -r m; do
		umount "$m" 2>/dev/null || umount -l "$m" || true
	done < <(mounts_below)
	if [[ ${BC_CHROOT_KEEP:-0} == 1 ]]; then
		bc_log "chroot kept in $DIR"
	elif [[ -z $(mounts_below) ]]; then
		# --one-file-system: never follow into anything still mounted
		rm -rf --one-file-system -- "$DIR"
	else
		printf 'error: %s still has mounts; not removed\n' "$DIR" >&2
		rc=1
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

SRC_TAR=$DIR.src.tar
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git -C "$ROOT" ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [[ -e $f ]] && printf '%s\0' "$f"; done |
		tar --null -T - -cf "$SRC_TAR"
else
	tar --exclude=./build --exclude=./.git -cf "$SRC_TAR" .
fi
mv "$SRC_TAR" "$DIR/.src.tar"

# ---------------------------------------------------------------------------
# The chroot
# ---------------------------------------------------------------------------
ROOTFS=$DIR/root
bc_log "debootstrap --variant=minbase $SUITE from $MIRROR into $ROOTFS"
if ! timeout "${BC_CHROOT_TIMEOUT:-1200}" debootstrap --variant=minbase "$SUITE" "$ROOTFS" "$MIRROR" $SCRIPT >"$DIR/debootstrap.log" 2>&1; then
	tail -n 30 "$DIR/debootstrap.log" >&2
	[[ -f $ROOTFS/debootstrap/debootstrap.log ]] && tail -n 30 "$ROOTFS/debootstrap/debootstrap.log" >&2
	fail "debootstrap $SUITE failed"
fi

# apt: no Valid-Until check (see above), no recommends; no service starts
# while packages install (no init system runs in the chroot).
cat >"$ROOTFS/etc/apt/apt.conf.d/99bloomcass" <<-'EOF'
	Acquire::Check-Valid-Until "false";
	APT::Install-Recommends "false";
EOF
printf '#!/bin/sh\nexit 101\n' >"$ROOTFS/usr/sbin/policy-rc.d"
chmod 755 "$ROOTFS/usr/sbin/policy-rc.d"
cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf" 2>/dev/null || true

mount -t proc proc "$ROOTFS/proc"
mkdir -p "$ROOTFS/dev/shm"
mount -t tmpfs -o mode=1777,size=2g shm "$ROOTFS/dev/shm"
# a private pseudo-terminal instance (the client's progress is tested on one)
mkdir -p "$ROOTFS/dev/pts"
mount -t devpts -o newinstance,ptmxmode=0666,mode=620,gid=5 devpts "$ROOTFS/dev/pts"
rm -f "$ROOTFS/dev/ptmx"
ln -s pts/ptmx "$ROOTFS/dev/ptmx"

mkdir -p "$ROOTFS/src"
tar -xf "$DIR/.src.tar" -C "$ROOTFS/src"
rm -f "$DIR/.src.tar"

# the Citus stage's sources and build cache (test/lib/citus_build.sh)
if [[ -d $ROOT/../shared/citus ]]; then
	mkdir -p "$ROOTFS/shared/citus"
	cp -- "$ROOT/../shared/citus/"* "$ROOTFS/shared/citus/"
fi
CITUS_CACHE=${BC_CITUS_CACHE:-/var/cache/bloomcass-citus}
if mkdir -p "$CITUS_CACHE" 2>/dev/null; then
	mkdir -p "$ROOTFS/var/cache/bloomcass-citus"
	mount --bind "$CITUS_CACHE" "$ROOTFS/var/cache/bloomcass-citus"
fi

release=$(. "$ROOTFS/etc/os-release" && printf '%s' "${PRETTY_NAME:-$SUITE}")
chroot_result ok "$release"
bc_log "$SUITE chroot ready ($release) in $((SECONDS - T0)) s"

# ---------------------------------------------------------------------------
# The tests, as a user of that release runs them
# ---------------------------------------------------------------------------
rc=0
timeout "${BC_CHROOT_TIMEOUT:-1200}" chroot "$ROOTFS" /usr/bin/env -i \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 TERM=dumb CI="${CI:-}" \
	BC_CITUS_EXPECT_PUSHDOWN="${BC_CITUS_EXPECT_PUSHDOWN:-1}" \
	BC_CITUS_RELEASE="${BC_CITUS_RELEASE:-}" \
	bash -c "cd /src && exec ${BC_CHROOT_COMMAND:-bash test/run-all.sh --local --no-fuzz --no-pgxn}" || rc=$?

if [[ -n $RESULTS ]]; then
	if [[ -f $ROOTFS/src/build/test-logs/summary.tsv ]]; then
		cat "$ROOTFS/src/build/test-logs/summary.tsv" >>"$RESULTS"
	else
		printf 'run-all\tFAILED\tno summary (exit status %d)\t0\n' "$rc" >>"$RESULTS"
		rc=1
	fi
fi
exit "$rc"
