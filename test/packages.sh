#!/usr/bin/env bash
#
# test/packages.sh - the Debian packages of debian/, built from the tree and
# installed as a user installs them, into a fresh chroot without a compiler.
#
#   bash test/packages.sh build-deps
#   bash test/packages.sh build DEBDIR
#   bash test/packages.sh install SUITE DEBDIR
#
# build-deps: installs the missing Build-Depends of debian/control, as a
# user does (`apt-get build-dep ./`, as root).
#
# build: installs the missing Build-Depends as build-deps does; then, in a
# copy of the tree (the files git knows, committed or not), it runs
# `dpkg-buildpackage -b -us -uc` (PG_UPDATECONTROL=yes:
# debian/control is regenerated from debian/control.in for the PostgreSQL
# majors this release supports), checks what each package holds (the
# library, the control file and every install script of src/sql, or the
# client alone, each with CHANGELOG.md as its upstream changelog) and puts
# the .deb files into DEBDIR.  One postgresql-N-bloomcass per major of
# debian/pgversions that this release supports, and bloomcass-load.  Ends
# with "packages-build: NAME VERSION (SIZE), ...".
#
# install (as root): a fresh chroot of SUITE, made from a pristine
# `debootstrap --variant=minbase` base (cached as a tarball in
# $BC_DEB_BASE_CACHE, default /var/cache/bloomcass-debs, remade when older
# than a week; it is checked to hold no compiler), then in it, as a user on
# a machine without build tools:
#   no compiler (cc, gcc, clang) before nor after the install;
#   apt-get install ./*.deb (the packages of DEBDIR and, from the mirror this
#     machine's apt uses, what they depend on; when SUITE is this machine's
#     own release, from this machine's apt sources, -updates and -security
#     included, as the packages built here may need their PostgreSQL minor);
#   Debian's own cluster N/main (made by postgresql-N's postinst, else by
#     pg_createcluster), on port 5433 and its unix socket only, not running;
#   the README's first answer after the packages (Install from packages),
#     its lines as written, as root: the cluster started, a role and a
#     database for root, CREATE EXTENSION and a query, their output the
#     README's; CREATE EXTENSION gave bloomcass.control's version;
#   test/demo.sql, over the sample data of test/data;
#   bloomcass-load --version prints the packaged version, from /usr/bin.
# Ends with "packages-install: ..." or an error that names the step and its
# cause (the step's output is printed above it).  The chroot is removed
# however it ends (BC_CHROOT_KEEP=1 leaves it, its path printed).
#
# Environment: BC_MIRROR (default: the mirror apt uses here),
# BC_CHROOT_TIMEOUT (test/lib/debootstrap.sh), BC_DEB_BASE_CACHE.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

# shellcheck source=test/lib/common.sh
. "$ROOT/test/lib/common.sh"
# shellcheck source=test/lib/debootstrap.sh
. "$ROOT/test/lib/debootstrap.sh"

usage() {
	bc_die "usage: bash test/packages.sh build-deps | build DEBDIR | install SUITE DEBDIR"
}

# debian/changelog's version (1.6.0-1)
deb_version() {
	dpkg-parsechangelog -l "$ROOT/debian/changelog" -S Version
}

# ---------------------------------------------------------------------------
# build-deps, build DEBDIR
# ---------------------------------------------------------------------------
# build_deps: the missing Build-Depends of debian/control, as a user gets
# them (apt-get build-dep ./, as root)
build_deps() {
	command -v dpkg-checkbuilddeps >/dev/null || bc_pkg_install dpkg-dev
	dpkg-checkbuilddeps >/dev/null 2>&1 && return 0
	if [[ $(id -u) -ne 0 ]]; then
		dpkg-checkbuilddeps || true
		bc_die "missing build dependencies (above): apt-get build-dep ./ as root"
	fi
	bc_log "apt-get build-dep ./"
	DEBIAN_FRONTEND=noninteractive apt-get build-dep -y --no-install-recommends ./ ||
		{ apt-get update && DEBIAN_FRONTEND=noninteractive apt-get build-dep -y --no-install-recommends ./; } ||
		bc_die "apt-get build-dep ./ failed (above)"
}

# check_contents DEB PATTERN...: DEB holds a file matching each PATTERN
# (grep -E over `dpkg-deb -c`'s paths).
check_contents() {
	local deb=$1 pat list
	shift
	list=$(dpkg-deb -c "$deb" | awk '{ print $NF }')
	for pat in "$@"; do
		grep -Eq "$pat" <<<"$list" || bc_die "$(basename "$deb") holds no file matching $pat"
	done
}

# check_doc_links DEB DOCDIR: the README.md the package installs in DOCDIR
# (./usr/share/doc/PACKAGE) exists, uncompressed, and each of its relative
# links leads to a file or folder the package installs.
check_doc_links() {
	local deb=$1 docdir=$2 x link target bad=""
	x=$(mktemp -d "${TMPDIR:-/tmp}/bloomcass-deb-doc.XXXXXX")
	dpkg-deb -x "$deb" "$x"
	[[ -f $x/$docdir/README.md ]] || { rm -rf -- "$x"; bc_die "$(basename "$deb") holds no uncompressed $docdir/README.md"; }
	while IFS= read -r link; do
		target=${link%%#*}
		[[ -z $target || $target == *://* || $target == mailto:* ]] && continue
		[[ -e $x/$docdir/$target ]] || bad+=" $target"
	done < <(grep -v '^\s*```' "$x/$docdir/README.md" | grep -Eo '\]\([^) ]+\)' | sed -E 's/^\]\((.*)\)$/\1/' | sort -u)
	rm -rf -- "$x"
	[[ -z $bad ]] || bc_die "$(basename "$deb"): README.md links to what the package does not install:$bad"
}

build() {
	local debdir=$1 tmp version upstream src log v f deb name paths depends made="" majors=() sql=()
	[[ -n $debdir ]] || usage
	command -v dpkg-parsechangelog >/dev/null || bc_pkg_install dpkg-dev
	version=$(deb_version)
	upstream=${version%-*}
	mkdir -p "$debdir"
	debdir=$(cd "$debdir" && pwd)
	rm -f "$debdir"/*.deb "$debdir"/dpkg-buildpackage.log

	tmp=$(mktemp -d "${TMPDIR:-/tmp}/bloomcass-deb.XXXXXX")
	# shellcheck disable=SC2064  # tmp is fixed now
	trap "rm -rf -- '$tmp'" EXIT
	src=$tmp/bloomcass-$upstream
	mkdir "$src"
	bc_tree_tar "$ROOT" "$tmp/src.tar"
	tar -xf "$tmp/src.tar" -C "$src"
	cd "$src"

	# the Build-Depends of debian/control (test/run-all.sh installs them
	# before, in the foreground, as apt may run only once at a time)
	build_deps

	# the log beside the packages, kept after the copy of the tree is gone
	log=$debdir/dpkg-buildpackage.log
	bc_log "PG_UPDATECONTROL=yes DEB_BUILD_OPTIONS=noautodbgsym dpkg-buildpackage -b -us -uc (in a copy of the tree; log, kept: $log)"
	if ! PG_UPDATECONTROL=yes DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }noautodbgsym" dpkg-buildpackage -b -us -uc >"$log" 2>&1; then
		tail -n 80 "$log"
		bc_die "dpkg-buildpackage failed (the end of its output is above; all of it in $log)"
	fi

	# what each package must hold: the extension per major, the client alone
	mapfile -t majors < <(pg_buildext supported-versions)
	((${#majors[@]} > 0)) || bc_die "pg_buildext supported-versions names no PostgreSQL major of debian/pgversions"
	for v in "${majors[@]}"; do
		deb=$tmp/postgresql-$v-bloomcass_${version}_$(dpkg --print-architecture).deb
		[[ -f $deb ]] || bc_die "dpkg-buildpackage made no $(basename "$deb")"
		sql=()
		for f in "$ROOT"/src/sql/bloomcass--*.sql; do
			sql+=("^\./usr/share/postgresql/$v/extension/$(basename "$f")\$")
		done
		check_contents "$deb" "^\./usr/lib/postgresql/$v/lib/bloomcass\.so\$" \
			"^\./usr/share/postgresql/$v/extension/bloomcass\.control\$" "${sql[@]}" \
			"^\./usr/share/doc/postgresql-$v-bloomcass/changelog\.gz\$"
		check_doc_links "$deb" "usr/share/doc/postgresql-$v-bloomcass"
		# the paths it holds, read whole (grep -q ending the pipe early
		# would make the listing fail under pipefail); bloomcass-load's
		# manual among the documents is no program
		paths=$(dpkg-deb -c "$deb" | awk '{print $6}')
		if grep -Eq '/bloomcass-load$|^\./usr/local/' <<<"$paths"; then
			bc_die "$(basename "$deb") holds bloomcass-load or a file under /usr/local: $(grep -E '/bloomcass-load$|^\./usr/local/' <<<"$paths" | tr '\n' ' ')"
		fi
	done
	deb=$tmp/bloomcass-load_${version}_$(dpkg --print-architecture).deb
	[[ -f $deb ]] || bc_die "dpkg-buildpackage made no $(basename "$deb")"
	check_contents "$deb" '^\./usr/bin/bloomcass-load$' '^\./usr/share/doc/bloomcass-load/changelog\.gz$' \
		'^\./usr/share/man/man1/bloomcass-load\.1\.gz$'
	check_doc_links "$deb" usr/share/doc/bloomcass-load
	paths=$(dpkg-deb -c "$deb" | awk '{print $6}')
	if grep -Eq '^\./usr/lib/postgresql/|^\./usr/local/' <<<"$paths"; then
		bc_die "$(basename "$deb") holds files under /usr/lib/postgresql or /usr/local"
	fi
	depends=$(dpkg-deb -f "$deb" Depends)
	grep -q 'libpq5' <<<"$depends" || bc_die "$(basename "$deb") does not depend on libpq5"
	if grep -q 'postgresql-[0-9]' <<<"$depends"; then
		bc_die "$(basename "$deb") depends on a PostgreSQL server"
	fi

	cp -- "$tmp"/*.deb "$debdir/"
	for deb in "$debdir"/*.deb; do
		name=$(dpkg-deb -f "$deb" Package)
		made+="${made:+, }$name $(dpkg-deb -f "$deb" Version) ($(du -k "$deb" | cut -f1) kB)"
	done
	printf 'packages-build: %s\n' "$made"
}

# ---------------------------------------------------------------------------
# install SUITE DEBDIR
# ---------------------------------------------------------------------------
CACHE=${BC_DEB_BASE_CACHE:-/var/cache/bloomcass-debs}
DIR=
ROOTFS=

cleanup() {
	local rc=$?
	if [[ -n $DIR ]]; then
		if ! bc_chroot_release "$DIR" "$ROOTFS"; then
			printf 'error: %s still has mounts; not removed\n' "$DIR" >&2
			rc=1
		elif [[ ${BC_CHROOT_KEEP:-0} == 1 ]]; then
			bc_log "chroot kept in $DIR"
		else
			rm -rf --one-file-system -- "$DIR"
		fi
	fi
	exit "$rc"
}

# in_chroot CMD...: CMD inside the fresh chroot, with a clean environment
in_chroot() {
	chroot "$ROOTFS" /usr/bin/env -i \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive "$@"
}

# no_compiler ROOTFS WHEN: fails, naming them, when ROOTFS has a compiler
no_compiler() {
	local found
	# shellcheck disable=SC2016  # $c expands in the chroot's shell
	found=$(chroot "$1" /bin/sh -c 'for c in cc gcc clang c99 tcc; do command -v "$c"; done; true')
	[[ -z $found ]] || bc_die "$SUITE chroot $2 has a compiler: $(tr '\n' ' ' <<<"$found")"
}

# step NAME CMD...: run CMD in the chroot, its output in a log printed (the
# last 60 lines) when it fails, and fail naming the step
step() {
	local name=$1 log
	shift
	log=$DIR/$(tr -c 'a-zA-Z0-9\n' _ <<<"$name").log
	bc_log "$SUITE chroot: $name"
	if ! in_chroot "$@" >"$log" 2>&1; then
		tail -n 60 "$log" >&2
		bc_die "$SUITE chroot: $name failed (its output is above)"
	fi
}

# base_tarball: the cached pristine minbase of SUITE, made when missing or
# older than a week; prints its path
base_tarball() {
	local tarball=$CACHE/$SUITE-minbase.tar tmp mirror
	mkdir -p "$CACHE"
	exec 8>"$CACHE/$SUITE.lock"
	flock 8
	if [[ -f $tarball && -z $(find "$tarball" -mtime +6) ]]; then
		printf '%s\n' "$tarball"
		return 0
	fi
	mirror=${BC_MIRROR:-}
	if [[ -z $mirror ]]; then
		mirror=$(bc_host_mirror) || bc_die "cannot find the Debian mirror in this machine's apt sources; set BC_MIRROR"
	fi
	tmp=$(mktemp -d /var/tmp/bloomcass-debs-base.XXXXXX)
	bc_debootstrap "$SUITE" "$tmp/root" "$mirror" "$tmp/debootstrap.log" >&2 ||
		{ rm -rf --one-file-system -- "$tmp"; bc_die "debootstrap $SUITE failed (above)"; }
	bc_chroot_apt_setup "$tmp/root"
	rm -rf "$tmp/root/var/cache/apt/archives/"*.deb
	no_compiler "$tmp/root" "base (debootstrap --variant=minbase)"
	tar --numeric-owner -C "$tmp/root" -cf "$tarball.tmp" .
	mv "$tarball.tmp" "$tarball"
	rm -rf --one-file-system -- "$tmp"
	printf '%s\n' "$tarball"
}

# host_sources: when SUITE is this machine's own release, the chroot gets
# this machine's apt sources (debootstrap's name only SUITE itself): the
# packages built here depend on the PostgreSQL minor installed here, which
# may come from SUITE-updates or SUITE-security, as on any user's machine.
host_sources() {
	local f codename
	codename=$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")
	[[ $SUITE == "$codename" ]] || return 0
	rm -f "$ROOTFS/etc/apt/sources.list" "$ROOTFS/etc/apt/sources.list.d/"*
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
		[[ -f $f ]] && cp -- "$f" "$ROOTFS$f"
	done
	# the keys they name, where the chroot has none of that name
	for f in /usr/share/keyrings /etc/apt/keyrings /etc/apt/trusted.gpg.d; do
		[[ -d $f ]] && mkdir -p "$ROOTFS$f" && cp -rn -- "$f/." "$ROOTFS$f/"
	done
	return 0
}

# readme_first_answer SCRIPT EXPECTED: the README's block of commands after
# the line that names this test (Install from packages) into SCRIPT, and the
# output block that follows it into EXPECTED.
readme_first_answer() {
	local marker='test/packages.sh install runs it as written'
	awk -v marker="$marker" -v script="$1" -v expected="$2" '
		index($0, marker) && !seen { seen = 1; want = "sh"; next }
		want == "sh" && /^```sh$/ { into = script; want = ""; next }
		want == "text" && /^```text$/ { into = expected; want = ""; next }
		into != "" && /^```$/ { if (into == script) want = "text"; else done = 1; into = ""; next }
		into != "" { print > into }
		END { exit !(seen && done) }
	' "$ROOT/README.md" ||
		bc_die "README.md: no block of commands and output after a line with \"$marker\""
}

install() {
	local debdir=$2 tarball major upstream v names=() ext_version got
	SUITE=$1
	[[ $SUITE =~ ^[a-z]+$ && -n $debdir ]] || usage
	[[ $(id -u) -eq 0 ]] || bc_die "installing the packages into a fresh chroot needs root (debootstrap, chroot, mount)"
	debdir=$(cd "$debdir" && pwd)
	compgen -G "$debdir/*.deb" >/dev/null || bc_die "no .deb files in $debdir (bash test/packages.sh build $debdir)"
	for deb in "$debdir"/*.deb; do
		names+=("$(dpkg-deb -f "$deb" Package)")
		if [[ ${names[-1]} =~ ^postgresql-([0-9]+)-bloomcass$ ]]; then
			[[ -z ${major:-} ]] || bc_die "$debdir holds packages of two PostgreSQL majors ($major, ${BASH_REMATCH[1]}): one chroot tests one"
			major=${BASH_REMATCH[1]}
			upstream=$(dpkg-deb -f "$deb" Version)
			upstream=${upstream%-*}
		fi
	done
	[[ -n ${major:-} ]] || bc_die "no postgresql-N-bloomcass package in $debdir"
	[[ " ${names[*]} " == *" bloomcass-load "* ]] || bc_die "no bloomcass-load package in $debdir"
	ext_version=$(sed -nE "s/^default_version *= *'([^']+)'.*/\1/p" "$ROOT/bloomcass.control")

	tarball=$(base_tarball)
	trap cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	DIR=$(mktemp -d "/var/tmp/bloomcass-debs-$SUITE.XXXXXX")
	chmod 755 "$DIR"
	ROOTFS=$DIR/root
	mkdir "$ROOTFS"
	tar --numeric-owner -C "$ROOTFS" -xf "$tarball"
	bc_chroot_apt_setup "$ROOTFS"
	host_sources
	bc_chroot_mount "$ROOTFS"
	no_compiler "$ROOTFS" "(fresh, before the install)"

	mkdir "$ROOTFS/debs"
	cp -- "$debdir"/*.deb "$ROOTFS/debs/"
	step "apt-get update" apt-get update
	step "apt-get install ./*.deb" /bin/sh -c 'cd /debs && apt-get install -y ./*.deb'
	no_compiler "$ROOTFS" "(after apt-get install ./*.deb)"

	# Debian's own cluster: postgresql-N's postinst makes N/main
	if ! in_chroot pg_lsclusters -h | awk -v v="$major" '$1 == v && $2 == "main" { found = 1 } END { exit !found }'; then
		step "pg_createcluster $major main" pg_createcluster "$major" main
	fi
	# A chroot shares the host's network: Debian's cluster listens on
	# localhost:5432, which the host, or another release's chroot checked at
	# the same time, may hold.  Its unix socket (in the chroot's own /run) is
	# all this check uses, so it listens on no TCP address; and on port 5433,
	# as a cluster made where 5432 was taken does, so that the README's
	# PGPORT line is what reaches it.
	step "pg_conftool $major main set listen_addresses ''" pg_conftool "$major" main set listen_addresses ''
	step "pg_conftool $major main set port 5433" pg_conftool "$major" main set port 5433

	# The README's first answer after the packages, as written: the block
	# after its marker, run as root with bash, its output against the block
	# shown after it.  The cluster is not running (a chroot starts none).
	readme_first_answer "$ROOTFS/var/tmp/first-answer.sh" "$DIR/first-answer.expected"
	if in_chroot pg_lsclusters -h | awk '$4 == "online" { found = 1 } END { exit !found }'; then
		bc_die "$SUITE chroot: the cluster runs before the README's lines start it"
	fi
	bc_log "$SUITE chroot: the README's first answer (Install from packages), as root"
	got=$(in_chroot bash -e /var/tmp/first-answer.sh 2>&1) ||
		bc_die "$SUITE chroot: the README's first answer failed: $got"
	# psql pads a header to its column's width; the README's blocks do not
	got=$(sed 's/[[:space:]]*$//' <<<"$got")
	if [[ $got != "$(cat "$DIR/first-answer.expected")" ]]; then
		diff -u "$DIR/first-answer.expected" - <<<"$got" >&2 || true
		bc_die "$SUITE chroot: the README's first answer printed otherwise than the README shows (diff above: - shown, + printed)"
	fi

	# the extension's version, as the role the README made
	got=$(in_chroot env PGPORT=5433 psql -X -qAt -v ON_ERROR_STOP=1 \
		-c "SELECT extversion FROM pg_extension WHERE extname = 'bloomcass'" 2>&1) ||
		bc_die "$SUITE chroot: reading the extension's version failed: $got"
	[[ $got == "$ext_version" ]] ||
		bc_die "$SUITE chroot: CREATE EXTENSION bloomcass gave version '$got', bloomcass.control says $ext_version"

	# the demo, over the sample data (test/demo.sh's files)
	local data=$ROOTFS/var/tmp/bloomcass-demo
	mkdir -p "$data"
	for v in real-filters vectors sstables; do
		cp -R "$ROOT/test/data/$v" "$data/"
	done
	"$ROOT/test/make-node.sh" "$data/sstables" "$data/node"
	cp "$ROOT/test/demo.sql" "$data/demo.sql"
	in_chroot chown -R postgres: /var/tmp/bloomcass-demo
	step "createdb bloomcass_demo" runuser -u postgres -- env PGPORT=5433 createdb bloomcass_demo
	step "psql -f test/demo.sql" runuser -u postgres -- env PGPORT=5433 BLOOMCASS_SERVER_DATA=/var/tmp/bloomcass-demo \
		psql -X -v ON_ERROR_STOP=1 -d bloomcass_demo -f /var/tmp/bloomcass-demo/demo.sql

	# the client, from its own package
	got=$(in_chroot sh -c 'command -v bloomcass-load && bloomcass-load --version' 2>&1) ||
		bc_die "$SUITE chroot: bloomcass-load --version failed: $got"
	[[ $got == $'/usr/bin/bloomcass-load\nbloomcass-load (bloomcass) '"$upstream" ]] ||
		bc_die "$SUITE chroot: bloomcass-load --version printed '$got', expected /usr/bin/bloomcass-load and 'bloomcass-load (bloomcass) $upstream'"

	step "pg_ctlcluster $major main stop" pg_ctlcluster "$major" main stop
	printf 'packages-install: %s into a fresh %s chroot without a compiler; cluster %s/main, CREATE EXTENSION bloomcass %s, the demo, bloomcass-load %s\n' \
		"$(printf '%s ' "${names[@]}" | sed 's/ $//')" "$SUITE" "$major" "$ext_version" "$upstream"
}

case ${1:-} in
build-deps) (($# == 1)) || usage; build_deps ;;
build) (($# == 2)) || usage; build "$2" ;;
install) (($# == 3)) || usage; install "$2" "$3" ;;
*) usage ;;
esac
