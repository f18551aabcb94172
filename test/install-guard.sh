#!/usr/bin/env bash
#
# test/install-guard.sh - `make install` stops, naming the package, before
# it writes over a file a Debian package installed, or puts a link that
# would shadow the bloomcass-load package's /usr/bin/bloomcass-load (the
# Makefile's check-not-packaged); it goes on under DESTDIR, with
# BLOOMCASS_OVER_PACKAGE=1, and where no package owns the files.  dpkg's
# database is stood in for by a dpkg-query on PATH that says which files
# the packages own, so the test changes nothing on this machine.
# Ends with "install-guard: N passed, M failed".
#
#   bash test/install-guard.sh
#
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
. test/lib/common.sh
: "${PG_CONFIG:=$(command -v pg_config || true)}"
[[ -n $PG_CONFIG ]] || bc_die "no pg_config"

PASSED=0
FAILED=0
tmp=$(mktemp -d)
trap 'rm -rf -- "$tmp"' EXIT
libdir=$("$PG_CONFIG" --pkglibdir)

# fake_dpkg OWNED...: a dpkg-query for which each OWNED path belongs to a
# package (postgresql-NN-bloomcass, or bloomcass-load for /usr/bin's)
fake_dpkg() {
	mkdir -p "$tmp/bin"
	{
		echo '#!/bin/sh'
		echo '[ "$1" = -S ] || exit 2'
		for f in "$@"; do
			pkg=postgresql-NN-bloomcass
			[[ $f == /usr/bin/bloomcass-load ]] && pkg=bloomcass-load
			echo "[ \"\$2\" = '$f' ] && { echo '$pkg: $f'; exit 0; }"
		done
		echo "echo \"dpkg-query: no path found matching pattern \$2\" >&2; exit 1"
	} >"$tmp/bin/dpkg-query"
	chmod +x "$tmp/bin/dpkg-query"
}

# guard NAME WANT_STATUS WANT_TEXT MAKE_ARGS...: make check-not-packaged
guard() {
	local name=$1 want=$2 text=$3 rc=0 out
	shift 3
	out=$(PATH="$tmp/bin:$PATH" make -s --no-print-directory PG_CONFIG="$PG_CONFIG" "$@" check-not-packaged 2>&1) || rc=$?
	if { [[ $want == 0 ]] && ((rc == 0)); } || { [[ $want != 0 ]] && ((rc != 0)); }; then
		if [[ -z $text ]] || grep -qF -- "$text" <<<"$out"; then
			check "$name" 0
			return
		fi
	fi
	check "$name" 1 "exit status $rc, output: $out"
}

fake_dpkg
guard "nothing packaged: goes on" 0 ""
fake_dpkg "$libdir/bloomcass.so"
guard "a packaged bloomcass.so: stops, naming the package" 2 \
	"make install: $libdir/bloomcass.so belongs to the Debian package postgresql-NN-bloomcass (dpkg -S $libdir/bloomcass.so)"
guard "a packaged bloomcass.so under DESTDIR: goes on" 0 "" DESTDIR="$tmp/dest"
guard "BLOOMCASS_OVER_PACKAGE=1: goes on" 0 "" BLOOMCASS_OVER_PACKAGE=1
fake_dpkg /usr/bin/bloomcass-load
guard "the packaged client and a link in /usr/local/bin: stops" 2 \
	"make install: a link /usr/local/bin/bloomcass-load would shadow /usr/bin/bloomcass-load of the Debian package bloomcass-load"
guard "the packaged client and CLIENT_LINK_DIR=: goes on" 0 "" CLIENT_LINK_DIR=
# the real `make install` stops before writing anything
fake_dpkg "$libdir/bloomcass.so"
rc=0
before=$(stat -c '%Y.%y' "$libdir/bloomcass.so" 2>/dev/null || echo none)
PATH="$tmp/bin:$PATH" make -j2 PG_CONFIG="$PG_CONFIG" install >"$tmp/install.log" 2>&1 || rc=$?
after=$(stat -c '%Y.%y' "$libdir/bloomcass.so" 2>/dev/null || echo none)
if ((rc != 0)) && grep -q 'belongs to the Debian package' "$tmp/install.log" && [[ $before == "$after" ]] &&
	! grep -q "install .*bloomcass" "$tmp/install.log"; then
	check "make install itself stops before writing" 0
else
	check "make install itself stops before writing" 1 "exit status $rc: $(head -c 600 "$tmp/install.log")"
fi

echo "install-guard: $PASSED passed, $FAILED failed"
((FAILED == 0))
