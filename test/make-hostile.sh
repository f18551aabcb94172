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
ID1=5a1c395e9a9411e8a0e6e9a8e4bb7a4d

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
# (sql/22_components.sql; test/unit/index/test_agreement.c sweeps every one-byte
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

# Index.db key lengths against the entries Summary.db samples
# (test/unit/index/test_agreement.c sweeps every key length's one-byte mutants):
# oa-13-big's byte 0 from 0x00 to 0x80, the first key 32,772 bytes long,
# over the entries behind it and the second sampled one
OA13=$src/sstable-transformer/clickhouse/src/test/resources/sstables/oa-13-big
copy_sstable "$OA13" "$C/index-keylen/oa-13-big"
poke "$dest/$C/index-keylen/oa-13-big-Index.db" 0 80
# a Summary.db whose second sample points a byte inside its entry: the low
# byte of its LE64 Index.db position, 8 bytes before the third sample's
# offset (the LE32 at bytes 32-35, from the region at byte 24)
copy_sstable "$OA13" "$C/summary-inside-entry/oa-13-big"
s=$dest/$C/summary-inside-entry/oa-13-big-Summary.db
o=$(od -An -tu1 -j32 -N4 "$s" | awk '{ print 24 + $1 + 256 * $2 + 65536 * $3 + 16777216 * $4 - 8 }')
b=$(od -An -tu1 -j"$o" -N1 "$s" | tr -d ' ')
poke "$s" "$o" "$(printf '%02x' $((b + 1)))"
# a Summary.db crafted to point inside an entry at bytes that read as an
# entry of its sampled key: nb-1-big's one sample made the empty key at
# Index.db position 13, inside the first entry's promoted index, where
# the bytes are 00 00 (an empty key) and two vints; the first and last
# keys as they are ("0", "4")
copy_sstable "$L/nb/legacy_tables/legacy_nb_clust/nb-1-big" "$C/summary-crafted/nb-1-big"
printf '\x00\x00\x00\x80\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x0c\x00\x00\x00\x80\x00\x00\x00\x01\x04\x00\x00\x00\x0d\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x010\x00\x00\x00\x014' \
	>"$dest/$C/summary-crafted/nb-1-big-Summary.db"
# an Index.db whose first partition is at Data.db position 7, not 0
# (nb-1-big's byte 3, the vint after its 1-byte key)
copy_sstable "$L/nb/legacy_tables/legacy_nb_clust/nb-1-big" "$C/index-first-position/nb-1-big"
poke "$dest/$C/index-first-position/nb-1-big-Index.db" 3 07

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

# CompressionInfo.db declaring a data length of 2^46 + its own, for one
# chunk of 64 KiB (mc, byte 25, the third of the BE64 data length at
# 23-30) or 16 KiB (nb, oa, da, pa, ea: byte 29, the data length at 27-34,
# after the max compressed length): more than chunk count * chunk length
copy_sstable "$MC" "$C/data-length/mc-2-big"
poke "$dest/$C/data-length/mc-2-big-CompressionInfo.db" 25 40
# (and Cassandra 6.0's pa and ea: oa's and da's files under their names,
# which BigVersion and BtiVersion read alike, as test/make-v60.sh says)
for v in nb oa da pa ea; do
	f=big
	from=$v
	[[ $v != da && $v != ea ]] || f=bti
	[[ $v != pa ]] || from=oa
	[[ $v != ea ]] || from=da
	copy_sstable "$L/$from/legacy_tables/legacy_${from}_simple/$from-1-$f" "$C/data-length/$v-1-$f"
	poke "$dest/$C/data-length/$v-1-$f-CompressionInfo.db" 29 40
done

# --- partitions: Index.db positions against Data.db ---
# (sql/27_partitions.sql)
# an uncompressed Data.db cut to 10 bytes: Index.db's positions of the
# partitions after the first lie past its end
copy_sstable "$src/cassandra/invalid-legacy-sstables/Keyspace1/Standard1/Keyspace1-Standard1-ic-0" \
	"partitions/data-cut/Keyspace1-Standard1-ic-0"
truncate -s 10 "$dest/partitions/data-cut/Keyspace1-Standard1-ic-0-Data.db"

# --- transaction logs ---
# Logs Cassandra's LogFile.verify fails or warns about, beside copies of
# nb-1-big, in txn/ks/<case>-<id>/ (sql/23_txn_logs.sql).  Each record's CRC
# is the one LogRecord.computeChecksum gives (see test/make-node.sh); a
# CRC one more than that is wrong.  The SSTables each folder holds, and the
# state Cassandra's listing (LogAwareFileLister, OnTxnErr.IGNORE) gives
# them, are in DEST/txn/expected.tsv.  Each log has its own name (the
# WARNINGs name the log, not its folder).
txn_nb=$L/nb/legacy_tables/legacy_nb_simple/nb-1-big
txn_v=/var/lib/cassandra/data/ks
mkdir -p "$dest/txn"
: >"$dest/txn/expected.tsv"
txn_sstables() { # CASE STATE1 STATE2 [STATE3]: nb-1-big ... copies
	local tc=$1 g=1 s
	shift
	for s in "$@"; do
		copy_sstable "$txn_nb" "txn/ks/$tc/nb-$g-big"
		printf '%s\t%s\n' "txn/ks/$tc/nb-$g-big" "$s" >>"$dest/txn/expected.tsv"
		g=$((g + 1))
	done
}
# a CRC wrong before the last record (REMOVE nb-1): the log fails
# verification; its valid records apply, committed by the valid COMMIT
tc=crc_before_last-11111111111111111111111111111111
txn_log=nb_txn_compaction_11111111-9a94-11e8-a0e6-e9a8e4bb7a4d.log
txn_sstables $tc live obsolete live
{
	printf 'ADD:[%s/%s/nb-3-big,0,8][1824791288]\n' "$txn_v" "$tc"
	printf 'REMOVE:[%s/%s/nb-1-big,1700000000000,8][2325968099]\n' "$txn_v" "$tc"
	printf 'REMOVE:[%s/%s/nb-2-big,1700000000000,8][4232465887]\n' "$txn_v" "$tc"
	printf 'COMMIT:[,0,0][2613697770]\n'
} >"$dest/txn/ks/$tc/$txn_log"
# the last record's CRC wrong: the log verifies, unfinished (a warning)
tc=crc_last-22222222222222222222222222222222
txn_log=nb_txn_compaction_22222222-9a94-11e8-a0e6-e9a8e4bb7a4d.log
txn_sstables $tc live temporary
{
	printf 'ADD:[%s/%s/nb-2-big,0,8][3128385544]\n' "$txn_v" "$tc"
	printf 'REMOVE:[%s/%s/nb-1-big,1700000000000,8][598515322]\n' "$txn_v" "$tc"
	printf 'COMMIT:[,0,0][2613697771]\n'
} >"$dest/txn/ks/$tc/$txn_log"
# the last line cut short, as a crash leaves it: unfinished, no warning
tc=cut-33333333333333333333333333333333
txn_log=nb_txn_compaction_33333333-9a94-11e8-a0e6-e9a8e4bb7a4d.log
txn_sstables $tc live temporary
{
	printf 'ADD:[%s/%s/nb-2-big,0,8][3330754637]\n' "$txn_v" "$tc"
	printf 'REMOVE:[%s/%s/nb-1-big,1700000000000,8][3038612891]\n' "$txn_v" "$tc"
	printf 'COMMIT:[,0,0][26136'
} >"$dest/txn/ks/$tc/$txn_log"
# a record twice: the reading stops there (LogReplicaSet.readRecords),
# before the COMMIT
tc=repeated-44444444444444444444444444444444
txn_log=nb_txn_compaction_44444444-9a94-11e8-a0e6-e9a8e4bb7a4d.log
txn_sstables $tc live temporary
{
	printf 'ADD:[%s/%s/nb-2-big,0,8][1033134923]\n' "$txn_v" "$tc"
	printf 'REMOVE:[%s/%s/nb-1-big,1700000000000,8][1130253669]\n' "$txn_v" "$tc"
	printf 'ADD:[%s/%s/nb-2-big,0,8][1033134923]\n' "$txn_v" "$tc"
	printf 'COMMIT:[,0,0][2613697770]\n'
} >"$dest/txn/ks/$tc/$txn_log"
# a COMMIT before the last line: the reading stops, not committed
tc=not_last-55555555555555555555555555555555
txn_log=nb_txn_compaction_55555555-9a94-11e8-a0e6-e9a8e4bb7a4d.log
txn_sstables $tc live temporary
{
	printf 'ADD:[%s/%s/nb-2-big,0,8][3523030426]\n' "$txn_v" "$tc"
	printf 'COMMIT:[,0,0][2613697770]\n'
	printf 'REMOVE:[%s/%s/nb-1-big,1700000000000,8][2508302841]\n' "$txn_v" "$tc"
} >"$dest/txn/ks/$tc/$txn_log"
# a byte that is not UTF-8: Cassandra cannot read the log, nothing applies
tc=latin1-66666666666666666666666666666666
txn_log=nb_txn_compaction_66666666-9a94-11e8-a0e6-e9a8e4bb7a4d.log
txn_sstables $tc live live
{
	printf 'ADD:[%s/%s/nb-2-big,0,8][1673832383]\n' "$txn_v" "$tc"
	printf 'REMOVE:[%s/caf\xe9/nb-1-big,1700000000000,8][0]\n' "$txn_v"
} >"$dest/txn/ks/$tc/$txn_log"

# --- import: Filter.db files bloom_import_file refuses ---
# (sql/21_files.sql) import/<case>/nb-1-big-Filter.db: a good copy, one cut
# to 16 of its 24 bytes (header and one of its two words), an empty one,
# and a folder of that name
I=$L/nb/legacy_tables/legacy_nb_clust/nb-1-big-Filter.db
mkdir -p "$dest/import/good" "$dest/import/truncated" "$dest/import/empty" \
	"$dest/import/folder/nb-1-big-Filter.db"
cp -- "$I" "$dest/import/good/nb-1-big-Filter.db"
head -c 16 -- "$I" >"$dest/import/truncated/nb-1-big-Filter.db"
: >"$dest/import/empty/nb-1-big-Filter.db"

# --- identity: one SSTable, one path, whichever path reaches it ---
# (sql/28_identity.sql, test/client.sh) identity/data is a node's data
# folder: ks1's table in it, ks2 a link to another disk (identity/disk2);
# identity/link is a link to the data folder.  Listed through either link,
# or by a path with "..", each SSTable has the real path of its folder.
I=identity
copy_sstable "$L/nb/legacy_tables/legacy_nb_simple/nb-1-big" "$I/data/ks1/t1-11111111111111111111111111111111/nb-1-big"
copy_sstable "$L/nb/legacy_tables/legacy_nb_clust/nb-1-big" "$I/data/ks1/t1-11111111111111111111111111111111/nb-2-big"
copy_sstable "$L/nb/legacy_tables/legacy_nb_simple/nb-1-big" "$I/disk2/ks2/t2-22222222222222222222222222222222/nb-1-big"
ln -s ../disk2/ks2 "$dest/$I/data/ks2"
ln -s data "$dest/$I/link"

# --- errno: failures of the system calls the readers make ---
# (sql/29_file_errors.sql, test/client.sh) errno/loop/nb-1-big-*: every
# component a symbolic link to itself (ELOOP); errno/self: a link to itself;
# errno/deep/: 17 folders of 255-byte names, a path past PATH_MAX (4,096
# bytes: ENAMETOOLONG); errno/noaccess/: a folder no one but root may
# enter (EACCES), made so after the chmod below
copy_sstable "$L/nb/legacy_tables/legacy_nb_simple/nb-1-big" errno/loop/nb-1-big
for f in "$dest/errno/loop/"*; do
	rm -f -- "$f"
	ln -s -- "${f##*/}" "$f"
done
ln -s self "$dest/errno/self"
deep=$dest/errno/deep
for i in $(seq 17); do
	deep=$deep/$(printf 'd%.0s' $(seq 255))
done
mkdir -p -- "$deep"
mkdir -p "$dest/errno/noaccess"

# unreadable/: a copy of nb-1-big whose Filter.db and Statistics.db, and
# a transaction log beside it, no one but root may read (EACCES at open,
# after a stat that succeeds), made so after the chmod below
copy_sstable "$L/nb/legacy_tables/legacy_nb_simple/nb-1-big" unreadable/nb-1-big
: >"$dest/unreadable/nb_txn_compaction_77777777-9a94-11e8-a0e6-e9a8e4bb7a4d.log"

# --- links: what a link leads to is what it is where it lies ---
# (sql/28_identity.sql, test/client.sh) links/ks/a-<id>/ holds links named
# as a table's subfolders (8.sstable, staging, upload) to the folders of
# tables b, c and d, walked before them (a sorts first): b's, c's and d's
# SSTables are live, with their own tables' names, and listed once.
K=links/ks
for t in a b c d; do
	copy_sstable "$L/nb/legacy_tables/legacy_nb_simple/nb-1-big" "$K/$t-$ID1/nb-1-big"
done
ln -s "../b-$ID1" "$dest/$K/a-$ID1/8.sstable"
ln -s "../d-$ID1" "$dest/$K/a-$ID1/staging"
ln -s "../c-$ID1" "$dest/$K/a-$ID1/upload"
# links/logs/ks/t-<id>/: a pending_delete log naming nb-1-big with five
# more names (links), one larger than 64 MB (sparse) with five more, and a
# transaction log that fails verification (txn's crc_before_last) with
# three more: each read once, one WARNING each
P=links/logs/ks/t-$ID1
copy_sstable "$L/nb/legacy_tables/legacy_nb_simple/nb-1-big" "$P/nb-1-big"
copy_sstable "$L/nb/legacy_tables/legacy_nb_simple/nb-1-big" "$P/nb-2-big"
mkdir -p "$dest/$P/pending_delete"
printf 'nb-1-big-TOC.txt\nnb-8-big-TOC.txt\n' >"$dest/$P/pending_delete/sstables-1-8.log"
truncate -s 65M "$dest/$P/pending_delete/sstables-9-9.log"
for i in 1 2 3 4 5; do
	ln -s sstables-1-8.log "$dest/$P/pending_delete/link-$i.log"
	ln -s sstables-9-9.log "$dest/$P/pending_delete/large-$i.log"
done
T=links/logs/ks/crc_before_last-11111111111111111111111111111111
copy_sstable "$L/nb/legacy_tables/legacy_nb_simple/nb-1-big" "$T/nb-1-big"
copy_sstable "$L/nb/legacy_tables/legacy_nb_simple/nb-1-big" "$T/nb-2-big"
cp -- "$dest/txn/ks/crc_before_last-11111111111111111111111111111111/nb_txn_compaction_11111111-9a94-11e8-a0e6-e9a8e4bb7a4d.log" \
	"$dest/$T/"
for i in 2 3 4; do
	ln -s nb_txn_compaction_11111111-9a94-11e8-a0e6-e9a8e4bb7a4d.log \
		"$dest/$T/nb_txn_compaction_1111111$i-9a94-11e8-a0e6-e9a8e4bb7a4d.log"
done

chmod -R a+rX "$dest"
chmod 000 "$dest/errno/noaccess" "$dest/unreadable/nb-1-big-Filter.db" \
	"$dest/unreadable/nb-1-big-Statistics.db" \
	"$dest/unreadable/nb_txn_compaction_77777777-9a94-11e8-a0e6-e9a8e4bb7a4d.log"
