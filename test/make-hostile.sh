#!/usr/bin/env bash
#
# test/make-hostile.sh SSTABLES DEST - make DEST, copies of real SSTables
# from SSTABLES (a copy of test/data/sstables) made hostile as an attacker
# or a failing disk would make them, for the regression tests of what
# bloomcass does with them (sql/2*_*.sql): a component that is not a
# regular file, folders linked into a lattice, components whose positions
# and lengths point past what another component holds.  Each section below
# lays out one kind, in its own folder of DEST.
#
set -euo pipefail

src=${1:?usage: make-hostile.sh SSTABLES DEST}
dest=${2:?usage: make-hostile.sh SSTABLES DEST}
src=$(cd "$src" && pwd)
L=$src/cassandra/legacy-sstables

rm -rf -- "$dest"
mkdir -p "$dest"

# copy SSTable FROM_PREFIX (absolute) to DEST/TO_PREFIX, renaming its files
copy_sstable() {
	local from=$1 to=$2 f
	mkdir -p "$dest/$(dirname "$to")"
	for f in "$from"-*; do
		cp -- "$f" "$dest/$to-${f#"$from"-}"
	done
}

# --- files: components that are not regular files; folders in a lattice ---

# --- components: positions and lengths one component gives another ---

chmod -R a+rX "$dest"
