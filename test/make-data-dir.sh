#!/usr/bin/env bash
#
# test/make-data-dir.sh SSTABLES DEST - lay the real SSTables of SSTABLES (a
# copy of test/data/sstables, with its MANIFEST.tsv) out in DEST as Cassandra
# lays out a node's data directory: DEST/<keyspace>/<table>-<id>/<files>, the
# files keeping their own names (`nb-1-big-Data.db`, and before 2.2
# `<keyspace>-<table>-ka-1-Data.db`).  test/readme.sh runs README.md's
# queries against it in place of /var/lib/cassandra/data.
#
# Every SSTable of the manifest from 1.2 on is laid out (148); the 5 written
# before 1.2 are left out: a node of today holds none, and bloomcass lists
# them with a WARNING.  The keyspace and table are the manifest's; where it
# has none ("-": the source repository gives no schema) the keyspace is the
# source's top folder and the table the SSTable's own folder, both with
# every character other than [A-Za-z0-9_] made "_" (and a folder's trailing
# "-<32 hex id>" dropped).  <id> is the first 32 hex digits of the MD5 of
# the SSTable's folder in SSTABLES, so that SSTables of the same name from
# different sources (`mc-1-big` from 15 folders) never meet in one folder,
# as tables re-created under the same name do not on a node either.
#
set -euo pipefail

src=${1:?usage: make-data-dir.sh SSTABLES DEST}
dest=${2:?usage: make-data-dir.sh SSTABLES DEST}
src=$(cd "$src" && pwd)
[[ -f $src/MANIFEST.tsv ]] || { echo "make-data-dir.sh: $src/MANIFEST.tsv is missing" >&2; exit 1; }

rm -rf -- "$dest"
mkdir -p "$dest"

sanitize() { # sanitize NAME: [A-Za-z0-9_] only
	printf '%s' "$1" | sed -E 's/-[0-9a-f]{32}$//; s/[^A-Za-z0-9_]/_/g'
}

n=0
# columns: dir descriptor version ... keyspace (6) table (7)
while IFS=$'\t' read -r dir descriptor version _ _ keyspace table _; do
	[[ $dir == dir ]] && continue
	case $version in
	b | e | hb) continue ;; # before 1.2
	esac
	[[ $keyspace != - ]] || keyspace=$(sanitize "${dir%%/*}")
	[[ $table != - ]] || table=$(sanitize "$(basename "$dir")")
	id=$(printf '%s' "$dir" | md5sum | cut -c1-32)
	folder=$dest/$keyspace/$table-$id
	mkdir -p "$folder"
	found=no
	for f in "$src/$dir/$descriptor"-*; do
		[[ -f $f ]] || continue
		cp -p -- "$f" "$folder/"
		found=yes
	done
	[[ $found == yes ]] || { echo "make-data-dir.sh: no files for $dir/$descriptor" >&2; exit 1; }
	n=$((n + 1))
done <"$src/MANIFEST.tsv"
printf 'make-data-dir.sh: %d SSTables in %s\n' "$n" "$dest" >&2
