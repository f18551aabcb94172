# shellcheck shell=bash
#
# test/lib/citus_build.sh - Citus from its pinned source release, built and
# installed into the PostgreSQL in use, for test/citus.sh.  Source it after
# test/lib/common.sh (it uses bc_log, bc_die and bc_pkg_install).
#
#   bc_citus_deps       the build dependencies (as root)
#   bc_citus_build      fetch, check and build (or take from the cache);
#                       sets BC_CITUS_VERSION, BC_CITUS_COMMIT, BC_CITUS_TREE
#                       (what `make install` installs, under a DESTDIR) and
#                       BC_CITUS_BUILD ("built in N s" or "cached")
#   bc_citus_install    BC_CITUS_TREE into the PostgreSQL in use (the
#                       caller holds the install lock)
#
# Citus is GNU AGPL-3.0: it is never copied into this repository.  The
# release comes from $BC_CITUS_SOURCES (default: ../shared/citus beside the
# project root, the folder CI provides: citus-<version>.tar.gz, SHA256SUMS),
# else from the Citus project (GitHub's archive of tag v<version>).  Either
# way the archive's commit (git get-tar-commit-id) must be the tag's commit
# pinned below; an archive that cannot be had or checked stops the stage.
#
# The build is kept short: no JIT bitcode (with_llvm=no: the server then
# runs Citus's functions without inlining them into JIT-compiled
# expressions), -O1 without debug information, `make -j2` of the extension
# alone (no tests, no downgrade scripts), in build/citus/ of the source tree.
# What `make install` would install is kept in $BC_CITUS_CACHE (default
# /var/cache/bloomcass-citus), keyed by the release, its commit, the
# server's version, the system and these flags: only an optimisation, a
# machine without it builds.

# PostgreSQL major -> "version commit" of the Citus release tested with it.
# BC_CITUS_RELEASE="VERSION COMMIT" takes another archive of
# $BC_CITUS_SOURCES by hand, citus-VERSION.tar.gz, its commit checked the
# same way: e.g. "main-a3d5708a6 a3d5708a6ae8bc8ed7129f8256b4585c01b917f3",
# the snapshot of Citus main in ../shared/citus.
bc_citus_release() {
	case $1 in
	15) printf '13.2.2 cc91f4c29cc358f66e70eb1ef204a45999933926\n' ;;
	16 | 17 | 18) printf '14.0.1 d5731d775cde45b61e541a393889a64bf4772d14\n' ;;
	*) return 1 ;;
	esac
}

# Headers the server's own headers include (PostgreSQL on Debian is built
# with GSSAPI, OpenSSL, ICU, LZ4 and zstd; Citus links with the last two),
# libcurl (PostgreSQL 18's pg_config.h defines HAVE_LIBCURL, which makes
# Citus compile its statistics code whatever its configure was told; that
# collection stays off, test/lib/citus_nodes.sh turns it off explicitly),
# and git, which reads an archive's commit.
BC_CITUS_PACKAGES=(libkrb5-dev libssl-dev libicu-dev liblz4-dev libzstd-dev zlib1g-dev
	libcurl4-openssl-dev git)

bc_citus_deps() {
	bc_pkg_install "${BC_CITUS_PACKAGES[@]}"
}

BC_CITUS_CFLAGS="-O1 -g0"

# _bc_citus_archive VERSION COMMIT DIR: print the path of the release's
# archive, checked; DIR is where a download goes.
_bc_citus_archive() {
	local version=$1 commit=$2 dir=$3 parent src archive sum got url
	parent=$(cd "$ROOT/.." && pwd)
	src=${BC_CITUS_SOURCES:-${parent%/}/shared/citus}
	archive=$src/citus-$version.tar.gz
	if [[ -f $archive ]]; then
		if [[ -f $src/SHA256SUMS ]]; then
			sum=$(awk -v f="citus-$version.tar.gz" '$2 == f || $2 == "*" f { print $1 }' "$src/SHA256SUMS")
			[[ -n $sum ]] || bc_die "$src/SHA256SUMS has no line for citus-$version.tar.gz"
			got=$(sha256sum "$archive" | awk '{ print $1 }')
			[[ $got == "$sum" ]] || bc_die "$archive: SHA-256 $got, SHA256SUMS says $sum"
		fi
		bc_log "Citus $version from $archive" >&2
	else
		url=https://github.com/citusdata/citus/archive/refs/tags/v$version.tar.gz
		bc_log "no $archive: downloading $url" >&2
		command -v curl >/dev/null 2>&1 || bc_pkg_install curl ca-certificates >&2
		archive=$dir/citus-$version.tar.gz
		curl -fsSL --retry 3 --max-time 300 -o "$archive.part" "$url" ||
			bc_die "cannot download Citus $version from $url (and $src/citus-$version.tar.gz is absent)"
		mv "$archive.part" "$archive"
	fi
	# (git reads the first header and stops: gzip's broken pipe is no error)
	got=$({ gzip -dc "$archive" 2>/dev/null || true; } | git get-tar-commit-id) ||
		bc_die "$archive: no commit id in the archive (git get-tar-commit-id)"
	[[ $got == "$commit" ]] ||
		bc_die "$archive: commit $got, but Citus v$version is $commit"
	printf '%s\n' "$archive"
}

# _bc_citus_patch SRCDIR: make the release build against this server.
# Citus 13.2 defines have_createdb_privilege() itself, as a static inline
# function, for PostgreSQL before 16, where the server did not export it;
# PostgreSQL 15's later minor releases declare and export it in
# commands/dbcommands.h, and the two declarations clash.  When the server's
# header declares it, Citus's definition is replaced by that header.
_bc_citus_patch() {
	local compat=$1/src/include/pg_version_compat.h hdr
	hdr=$("$PG_CONFIG" --includedir-server)/commands/dbcommands.h
	if grep -q 'have_createdb_privilege' "$hdr" &&
		grep -q '^have_createdb_privilege(void)$' "$compat"; then
		perl -0pi -e 's/static inline bool\nhave_createdb_privilege\(void\)\n\{.*?\n\}\n/#include "commands\/dbcommands.h"\n/s' "$compat"
		! grep -q '^have_createdb_privilege(void)$' "$compat" ||
			bc_die "$compat: could not replace have_createdb_privilege()"
		bc_log "Citus: have_createdb_privilege() taken from the server's dbcommands.h"
	fi
}

# _bc_citus_install_tree DIR: copy an installation tree (a DESTDIR) into /,
# leaving the existing directories' owners and modes alone.
_bc_citus_install_tree() {
	tar -C "$1" -cf - . | tar -C / --no-overwrite-dir -xf -
}

bc_citus_install() {
	[[ -n ${BC_CITUS_TREE:-} ]] || bc_die "bc_citus_install: no Citus built (bc_citus_build)"
	_bc_citus_install_tree "$BC_CITUS_TREE"
}

bc_citus_build() {
	local major release version commit key cache build src archive stage t0
	major=$("$PG_CONFIG" --version | sed -nE 's/^PostgreSQL ([0-9]+).*/\1/p')
	release=${BC_CITUS_RELEASE:-$(bc_citus_release "$major")} ||
		bc_die "no Citus release is pinned for PostgreSQL $major (see test/lib/citus_build.sh)"
	[[ $release =~ ^[A-Za-z0-9.-]+\ [0-9a-f]{40}$ ]] || bc_die "BC_CITUS_RELEASE must be \"VERSION COMMIT\", not '$release'"
	read -r version commit <<<"$release"
	# shellcheck disable=SC2034 # read by the caller
	BC_CITUS_VERSION=$version
	# shellcheck disable=SC2034
	BC_CITUS_COMMIT=$commit

	key=citus-$version-${commit:0:12}-pg$major-$(printf '%s\n' "$("$PG_CONFIG" --version)" \
		"$("$PG_CONFIG" --includedir-server)" "$(. /etc/os-release && printf '%s %s' "$ID" "${VERSION_CODENAME:-}")" \
		"$(uname -m)" "$BC_CITUS_CFLAGS with_llvm=no" "$(sha256sum <"${BASH_SOURCE[0]}")" |
		sha256sum | cut -c1-12)
	cache=${BC_CITUS_CACHE:-/var/cache/bloomcass-citus}/$key
	if [[ -f $cache/complete && -f $cache/root/$("$PG_CONFIG" --pkglibdir)/citus.so ]]; then
		bc_log "Citus $version: the build cached in $cache"
		BC_CITUS_TREE=$cache/root
		BC_CITUS_BUILD=cached
		return 0
	fi

	t0=$SECONDS
	build=$ROOT/build/citus/$version-${commit:0:12}
	rm -rf -- "$build"
	mkdir -p "$build/src"
	archive=$(_bc_citus_archive "$version" "$commit" "$build")
	src=$build/src
	tar -xzf "$archive" -C "$src" --strip-components=1
	_bc_citus_patch "$src"
	bc_log "Citus $version: configure, make -j2 (CFLAGS $BC_CITUS_CFLAGS, no bitcode)"
	(
		cd "$src"
		./configure PG_CONFIG="$PG_CONFIG" >"$build/configure.log" 2>&1 ||
			{ tail -n 40 "$build/configure.log"; exit 1; }
		make -s -j2 with_llvm=no COPT="$BC_CITUS_CFLAGS" >"$build/make.log" 2>&1 ||
			{ grep -E 'error|Error' "$build/make.log" | head -n 40; exit 1; }
		make -s with_llvm=no DESTDIR="$build/root" install >"$build/install.log" 2>&1 ||
			{ tail -n 40 "$build/install.log"; exit 1; }
	) || bc_die "building Citus $version failed (logs in $build)"
	stage=$build/root
	[[ -f $stage/$("$PG_CONFIG" --pkglibdir)/citus.so ]] || bc_die "the Citus build installed no citus.so"
	BC_CITUS_TREE=$stage
	BC_CITUS_BUILD="built in $((SECONDS - t0)) s"
	bc_log "Citus $version $BC_CITUS_BUILD"

	# the cache, when its folder can be written; older builds of the same
	# release for the same major (other flags, an older script) go
	if mkdir -p "$cache.tmp.$$" 2>/dev/null; then
		if cp -a "$stage" "$cache.tmp.$$/root" && touch "$cache.tmp.$$/complete" &&
			{ rm -rf -- "$cache" && mv "$cache.tmp.$$" "$cache"; }; then
			bc_log "Citus $version: build kept in $cache"
			find "${cache%/*}" -mindepth 1 -maxdepth 1 -type d -name "${key%-*}-*" \
				! -name "$key" ! -name '*.tmp.*' -exec rm -rf -- {} + 2>/dev/null || true
		fi
		rm -rf -- "$cache.tmp.$$"
	fi
	rm -rf -- "$src"
}
