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
# (sql/21_files.sql, test/client.sh)
# files/fifo-<component>/: a copy of an SSTable with that component a FIFO
# (nothing ever writes to it: an open(2) for reading would wait forever)
fifo_copy() {
	local from=$1 to=$2 component=$3
	copy_sstable "$from" "$to"
	rm -f -- "$dest/$to-$component"
	mkfifo -- "$dest/$to-$component"
}
fifo_copy "$L/nb/legacy_tables/legacy_nb_clust/nb-1-big" files/fifo-index/nb-1-big Index.db
fifo_copy "$L/nb/legacy_tables/legacy_nb_clust/nb-1-big" files/fifo-statistics/nb-1-big Statistics.db
fifo_copy "$L/nb/legacy_tables/legacy_nb_clust/nb-1-big" files/fifo-summary/nb-1-big Summary.db
fifo_copy "$L/nb/legacy_tables/legacy_nb_clust/nb-1-big" files/fifo-filter/nb-1-big Filter.db
fifo_copy "$L/da/legacy_tables/legacy_da_clust/da-1-bti" files/fifo-data/da-1-bti Data.db
fifo_copy "$L/da/legacy_tables/legacy_da_clust/da-1-bti" files/fifo-partitions/da-1-bti Partitions.db
# files/lattice/d0 .. d12: each d<i> holds two links, a and b, to d<i+1>
# (relative, so the tree can be copied); one SSTable in d12.  Followed
# naively, d0 reaches it by 2^12 = 4,096 paths.
for i in $(seq 0 12); do
	mkdir -p "$dest/files/lattice/d$i"
	if ((i < 12)); then
		ln -s "../d$((i + 1))" "$dest/files/lattice/d$i/a"
		ln -s "../d$((i + 1))" "$dest/files/lattice/d$i/b"
	fi
done
copy_sstable "$L/nb/legacy_tables/legacy_nb_clust/nb-1-big" files/lattice/d12/nb-1-big

# --- components: positions and lengths one component gives another ---

chmod -R a+rX "$dest"
