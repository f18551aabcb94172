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
#      --no-fuzz --no-pgxn --no-deb-install`
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
#   4. installs the Debian packages that run builds (build/debs) into another
#      fresh chroot of SUITE, without a compiler (test/packages.sh install:
#      Debian's cluster, CREATE EXTENSION, the demo, bloomcass-load), as
#      soon as they are built, while the run goes on; with
#      BC_CHROOT_COMMAND, after it and only when it built some;
#   5. unmounts and removes the chroot, however it ends.
#
# apt inside the chroot does not check Release files' Valid-Until: a
# mirror that serves a snapshot of the archive would otherwise be refused
# for testing, whose Release files expire after a week.
#
# Its output ends with the chroot run's own summary; the run's results are
# also left in $BC_CHROOT_RESULTS (a file, when set) as the lines of
# build/test-logs/summary.tsv (see test/run-all.sh), preceded by
#   chroot<TAB>ok|FAILED<TAB><detail><TAB><seconds>
# for the chroot's creation and followed by the same line for deb-install.  The exit status is non-zero when the chroot
# could not be made or any test failed: nothing here is ever skipped.
#
# Environment:
#   BC_CHROOT_BASE     where the chroot is made (default /var/tmp)
#   BC_CHROOT_KEEP=1   leave the chroot in place (its path is printed)
#   BC_MIRROR          the Debian mirror (default: the one apt uses here)
#   BC_CHROOT_COMMAND  what runs in /src instead of the whole run-all.sh
#                      (by hand, e.g. "bash test/citus.sh"; the results
#                      file then says there is no summary; "bash
#                      test/packages.sh build build/debs" tests the
#                      packages alone)
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
# shellcheck source=test/lib/debootstrap.sh
. "$ROOT/test/lib/debootstrap.sh"

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

MIRROR=${BC_MIRROR:-}
if [[ -z $MIRROR ]]; then
	MIRROR=$(bc_host_mirror) || fail "cannot find the Debian mirror in this machine's apt sources; set BC_MIRROR"
fi

# ---------------------------------------------------------------------------
# The source, copied before anything else takes time
# ---------------------------------------------------------------------------
BASE=${BC_CHROOT_BASE:-/var/tmp}
mkdir -p "$BASE"
DIR=$(mktemp -d "$BASE/bloomcass-$SUITE.XXXXXX")
chmod 755 "$DIR"

cleanup() {
	local rc=$? released=yes
	bc_chroot_release "$DIR" "$DIR/root" || released=no
	if [[ ${BC_CHROOT_KEEP:-0} == 1 ]]; then
		bc_log "chroot kept in $DIR"
	elif [[ $released == yes ]]; then
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
bc_tree_tar "$ROOT" "$SRC_TAR"
mv "$SRC_TAR" "$DIR/.src.tar"

# ---------------------------------------------------------------------------
# The chroot
# ---------------------------------------------------------------------------
ROOTFS=$DIR/root
bc_debootstrap "$SUITE" "$ROOTFS" "$MIRROR" "$DIR/debootstrap.log" || fail "debootstrap $SUITE failed"
bc_chroot_apt_setup "$ROOTFS"

bc_chroot_mount "$ROOTFS"

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
# The Debian packages the run builds (its deb-build stage, in the background
# of run-all.sh), installed into another fresh chroot of SUITE without a
# compiler (test/packages.sh install, with the copy's own script and data)
# as soon as they are built, while the run goes on; with BC_CHROOT_COMMAND,
# after the command, when it built some.  The stage's line is written to
# $DIR/deb-install.tsv.
# ---------------------------------------------------------------------------
deb_install_stage() {
	local tsv=$ROOTFS/src/build/test-logs/debs.tsv t1 drc=0 detail
	# run-all.sh writes the deb-build line when the packages are built
	until grep -q $'^deb-build\t' "$tsv" 2>/dev/null || [[ -e $DIR/run-ended ]]; do
		sleep 5
	done
	if [[ -n ${BC_CHROOT_COMMAND:-} ]] && ! compgen -G "$ROOTFS/src/build/debs/*.deb" >/dev/null; then
		return 0
	fi
	t1=$SECONDS
	if compgen -G "$ROOTFS/src/build/debs/*.deb" >/dev/null; then
		mkdir -p "$DIR/debs"
		cp -- "$ROOTFS/src/build/debs/"*.deb "$DIR/debs/"
		bc_log "test/packages.sh install $SUITE (the packages the $SUITE run built; log: $DIR/deb-install.log)"
		timeout "${BC_CHROOT_TIMEOUT:-1200}" bash "$ROOTFS/src/test/packages.sh" install "$SUITE" "$DIR/debs" \
			>"$DIR/deb-install.log" 2>&1 </dev/null || drc=$?
		if ((drc == 0)); then
			detail=$(sed -nE 's/^packages-install: //p' "$DIR/deb-install.log" | tail -n 1)
		else
			detail=$(grep -E '^error: ' "$DIR/deb-install.log" | tail -n 1 || true)
			detail=${detail:-exit status $drc}
		fi
	else
		drc=1
		detail="the $SUITE run built no packages (its deb-build stage)"
		printf 'error: %s\n' "$detail" >"$DIR/deb-install.log"
	fi
	printf 'deb-install\t%s\t%s\t%d\n' "$( ((drc == 0)) && echo ok || echo FAILED)" "$detail" \
		"$((SECONDS - t1))" >"$DIR/deb-install.tsv"
}
deb_install_stage &
DEB_WATCH_PID=$!

# ---------------------------------------------------------------------------
# The tests, as a user of that release runs them
# ---------------------------------------------------------------------------
rc=0
timeout "${BC_CHROOT_TIMEOUT:-1200}" chroot "$ROOTFS" /usr/bin/env -i \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 TERM=dumb CI="${CI:-}" \
	BC_CITUS_EXPECT_PUSHDOWN="${BC_CITUS_EXPECT_PUSHDOWN:-1}" \
	BC_CITUS_RELEASE="${BC_CITUS_RELEASE:-}" \
	bash -c "cd /src && exec ${BC_CHROOT_COMMAND:-bash test/run-all.sh --local --no-fuzz --no-pgxn --no-deb-install}" || rc=$?
touch "$DIR/run-ended"

if [[ -n $RESULTS ]]; then
	if [[ -f $ROOTFS/src/build/test-logs/summary.tsv ]]; then
		cat "$ROOTFS/src/build/test-logs/summary.tsv" >>"$RESULTS"
	else
		printf 'run-all\tFAILED\tno summary (exit status %d)\t0\n' "$rc" >>"$RESULTS"
		rc=1
	fi
fi

# The Debian packages' stage: its line follows the run's in the results
wait "$DEB_WATCH_PID" || true
if [[ -s $DIR/deb-install.tsv ]]; then
	cat "$DIR/deb-install.log" 2>/dev/null || true
	[[ -z $RESULTS ]] || cat "$DIR/deb-install.tsv" >>"$RESULTS"
	grep -q $'^deb-install\tok\t' "$DIR/deb-install.tsv" || rc=1
fi
exit "$rc"
