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
# (sql/22_components.sql; test/unit/test_agreement.c sweeps every one-byte
# mutant of the same files)

# poke FILE OFFSET BYTE...: write the bytes (two hex digits each) at OFFSET
poke() {
	local file=$1 off=$2 b
	shift 2
	for b in "$@"; do
		printf "\\x$b" | dd of="$file" bs=1 seek="$off" conv=notrunc status=none
		off=$((off + 1))
	done
}
C=components
BB=$src/sstable-to-arrow/sample_data/baselines-data/keyvalue/bb-1-bti
MC=$src/sstable-adaptor/sstable-adaptor-core/src/test/resources/data/cass3/keyspace1/compressed_bills/mc-2-big

# Summary.db whose first sample points past the end of Index.db (its
# position's byte 30, the third of its little-endian Index.db offset)
copy_sstable "$L/nb/legacy_tables/legacy_nb_clust/nb-1-big" "$C/summary-past-index/nb-1-big"
poke "$dest/$C/summary-past-index/nb-1-big-Summary.db" 30 80

# a Partitions.db leaf whose hash byte is not its key's (byte 1, 0x00: the
# hash byte of the leaf of key 0x0000000000000013, changed to 0x01)
copy_sstable "$BB" "$C/leaf-hash/bb-1-bti"
poke "$dest/$C/leaf-hash/bb-1-bti-Partitions.db" 1 01

# an Index.db whose first key has a bit flipped (byte 2, 0x10): the keys
# are no longer in Murmur3Partitioner's order
copy_sstable "$MC" "$C/index-order/mc-2-big"
b=$(od -An -tu1 -j2 -N1 "$MC-Index.db" | tr -d ' ')
poke "$dest/$C/index-order/mc-2-big-Index.db" 2 "$(printf '%02x' $((b ^ 16)))"

# CompressionInfo.db declaring chunks of 2^28, 2^29 and 2^30 bytes for a
# Data.db of 405 bytes holding 998 (its one chunk is still read right:
# bytes 19-22 are the BE32 chunk length)
for e in 28 29 30; do
	copy_sstable "$BB" "$C/chunk-2p$e/bb-1-bti"
	poke "$dest/$C/chunk-2p$e/bb-1-bti-CompressionInfo.db" 19 \
		"$(printf '%02x' $((1 << (e - 24))))" 00 00 00
done
# and 2^30 with a data length of 2^30 (bytes 27-34): a chunk its 401
# stored bytes cannot decompress to
copy_sstable "$BB" "$C/chunk-data-2p30/bb-1-bti"
poke "$dest/$C/chunk-data-2p30/bb-1-bti-CompressionInfo.db" 19 40 00 00 00
poke "$dest/$C/chunk-data-2p30/bb-1-bti-CompressionInfo.db" 27 00 00 00 00 40 00 00 00

chmod -R a+rX "$dest"
