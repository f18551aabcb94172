#!/usr/bin/env bash
#
# test/make-node.sh SSTABLES DEST - make DEST/data, a Cassandra node's data
# folder, out of the real SSTables in SSTABLES (a copy of test/data/sstables),
# for the cassandra_sstables() regression test.  Beside live SSTables in both
# namings it holds what a real node also has: snapshots, incremental backups,
# a secondary index folder, the leftovers of an interrupted and of a finished
# compaction (transaction logs), tmp- files of 2.x, an orphaned component,
# files that are not SSTables, and SSTables with broken or unreadable
# components.
#
# DEST/expected.tsv lists every SSTable made, one per line:
#   <prefix relative to DEST's parent>  <state>  <source prefix relative to
#   SSTABLES' parent, or ->  <what was changed, or ->
# The regression test compares the listing with it, and the facts of each
# unchanged copy with the manifest of its source.
#
set -euo pipefail

src=${1:?usage: make-node.sh SSTABLES DEST}
dest=${2:?usage: make-node.sh SSTABLES DEST}
src=$(cd "$src" && pwd)
srcname=$(basename "$src")
destname=$(basename "$dest")
L=$src/cassandra/legacy-sstables

rm -rf -- "$dest"
mkdir -p "$dest/data" "$dest/rebuilt"
# where the recipe test writes rebuilt Filter.db files (as the server)
chmod a+rwx "$dest/rebuilt"
data=$dest/data
exp=$dest/expected.tsv
: >"$exp"

# copy_into FOLDER LIST FROM_PREFIX TO_PREFIX STATE [CHANGE]: copy SSTable
# FROM_PREFIX (absolute) to DEST/FOLDER/TO_PREFIX, renaming its files, and
# record it in LIST
copy_into() {
	local folder=$1 list=$2 from=$3 to=$4 state=$5 change=${6:--} f
	mkdir -p "$dest/$folder/$(dirname "$to")"
	for f in "$from"-*; do
		cp -- "$f" "$dest/$folder/$to${f#"$from"}"
	done
	printf '%s\t%s\t%s\t%s\n' "$destname/$folder/$to" "$state" "$srcname${from#"$src"}" "$change" >>"$list"
}
# copy SSTable FROM_PREFIX to TO_PREFIX (relative to $data); record it
sstable() { copy_into data "$exp" "$@"; }

nb=legacy_tables/legacy_nb_simple-0a1b2c3d4e5f60718293a4b5c6d7e8f9
NB=$L/nb/legacy_tables/legacy_nb_simple/nb-1-big

# a table folder with its id (Cassandra 2.1+)
sstable "$NB" "$nb/nb-1-big" live
# Transaction logs as Cassandra writes them, each record with the CRC its
# LogRecord.computeChecksum gives (the record's path, its type in capitals,
# then the update time's low and high halves and the file count as 4-byte
# big-endian ints, the time of a REMOVE only), which the listing verifies:
#   python3 -c 'import zlib,struct,sys; p,t,ms,n=sys.argv[1:]; ms=int(ms) if t=="REMOVE" else 0;
#     print(zlib.crc32(p.encode()+t.encode()+struct.pack(">III",ms&0xffffffff,ms>>32,int(n))))' \
#     /var/lib/cassandra/data/$nb/nb-2-big ADD 0 8
# an interrupted compaction: the SSTable it was writing is temporary
sstable "$NB" "$nb/nb-2-big" temporary
printf 'ADD:[/var/lib/cassandra/data/%s/nb-2-big,0,8][649427725]\n' "$nb" \
	>"$data/$nb/nb_txn_compaction_6a3b3f20-9a94-11e8-a0e6-e9a8e4bb7a4d.log"
# a finished one: what it replaced is obsolete, what it wrote is live
sstable "$NB" "$nb/nb-3-big" obsolete
sstable "$NB" "$nb/nb-4-big" live
{
	printf 'ADD:[/var/lib/cassandra/data/%s/nb-4-big,0,8][2727798488]\n' "$nb"
	printf 'REMOVE:[/var/lib/cassandra/data/%s/nb-3-big,1700000000000,8][346941410]\n' "$nb"
	printf 'COMMIT:[,0,0][2613697770]\n'
} >"$data/$nb/nb_txn_compaction_7b4c4031-9a94-11e8-a0e6-e9a8e4bb7a4d.log"
# a component left without its Data.db
cp -- "$NB-Filter.db" "$data/$nb/nb-5-big-Filter.db"
printf '%s\t%s\t%s\t%s\n' "$destname/data/$nb/nb-5-big" orphaned - "Filter.db only" >>"$exp"
# a snapshot, incremental backups and a secondary index
sstable "$NB" "$nb/snapshots/before-upgrade/nb-1-big" snapshot
sstable "$NB" "$nb/backups/nb-1-big" backup
sstable "$NB" "$nb/.legacy_nb_simple_idx/nb-1-big" live
# files and folders that are not SSTables
printf 'notes\n' >"$data/$nb/README.txt"
cp -- "$NB-Data.db" "$data/$nb/nb-1-big-Data.db.bak"
printf 'x' >"$data/$nb/nb-x-big-Data.db"
mkdir -p "$data/$nb/empty"
printf 'x' >"$data/legacy_tables/.keep"

# BTI, a clustered 5.0 table and a table folder with a dashed id
sstable "$L/da/legacy_tables/legacy_da_simple/da-1-bti" \
	legacy_tables/legacy_da_simple-11111111111111111111111111111111/da-1-bti live
sstable "$L/oa/legacy_tables/legacy_oa_clust/oa-1-big" \
	legacy_tables/legacy_oa_clust-22222222222222222222222222222222/oa-1-big live
A=$src/cassandra-analytics/cassandra-analytics-core/src/test/resources/data/ks/table1-ea3b3e6b-0d78-4913-89f2-15fcf98711d0
sstable "$A/na-1-big" ks/table1-ea3b3e6b-0d78-4913-89f2-15fcf98711d0/na-1-big live
sstable "$A/na-2-big" ks/table1-ea3b3e6b-0d78-4913-89f2-15fcf98711d0/na-2-big live

# a 4.1+ time-UUID generation
sstable "$L/oa/legacy_tables/legacy_oa_simple/oa-1-big" \
	uuid_ks/t-33333333333333333333333333333333/oa-3fw2_0tj4_46w3k2cpidnirvjy7k-big live

# the 2.x naming: live, tmp- (still being written), and a version before 1.2
sstable "$src/cassandra/invalid-legacy-sstables/Keyspace1/Standard1/Keyspace1-Standard1-ic-0" \
	Keyspace1/Standard1/Keyspace1-Standard1-ic-0 live
sstable "$src/cassandra/invalid-legacy-sstables/Keyspace1/Standard1/Keyspace1-Standard1-ic-0" \
	Keyspace1/Standard1/Keyspace1-Standard1-tmp-ic-1 temporary
sstable "$L/e/Keyspace1/Keyspace1-Standard1-e-0" Keyspace1/Standard1/Keyspace1-Standard1-e-0 live "version e (before 1.2)"

# broken components: each is a WARNING and NULLs in its row only
b=broken/t-44444444444444444444444444444444
sstable "$NB" "$b/nb-1-big" live "Statistics.db byte 100 flipped"
printf '\xff' | dd of="$data/$b/nb-1-big-Statistics.db" bs=1 seek=100 conv=notrunc status=none
sstable "$NB" "$b/nb-2-big" live "Filter.db cut to 20 bytes"
truncate -s 20 "$data/$b/nb-2-big-Filter.db"
sstable "$NB" "$b/nb-3-big" live "Summary.db cut to 10 bytes"
truncate -s 10 "$data/$b/nb-3-big-Summary.db"
sstable "$NB" "$b/nb-4-big" live "Filter.db unreadable (mode 000)"
chmod 000 "$data/$b/nb-4-big-Filter.db"
sstable "$NB" "$b/zz-5-big" live "version zz (unknown)"

# filters Cassandra did not size for the partitions they hold: sized from an
# estimate (compaction, streaming), and a 16-byte one as CQLSSTableWriter
# wrote (CASSANDRA-21423): Cassandra's sizing for 0 keys (5 hashes, 1 word)
# with every bit set
T=$src/sstable-transformer/clickhouse/src/test/resources/sstables/oa-13-big
e=estimates/bills-55555555555555555555555555555555
sstable "$T" "$e/oa-13-big" live
sstable "$T" "$e/oa-14-big" live "Filter.db replaced by a 16-byte one"
printf '\x00\x00\x00\x05\x00\x00\x00\x01\xff\xff\xff\xff\xff\xff\xff\xff' >"$data/$e/oa-14-big-Filter.db"
sstable "$L/ka/legacy_tables/legacy_ka_repeated_rt/Keyspace1-legacy_ka_repeated_rt-ka-1" \
	estimates/legacy_ka_repeated_rt/Keyspace1-legacy_ka_repeated_rt-ka-1 live
sstable "$src/sstable-adaptor/sstable-adaptor-core/src/test/resources/data/cass3/keyspace1/auditlogsbyid/mc-1-big" \
	estimates/auditlogsbyid-66666666666666666666666666666666/mc-1-big live

LC_ALL=C sort -o "$exp" "$exp"

# --- extras: what else a current node's table folder holds -----------------
# (sql/26_folder_extras.sql, test/client.sh) DEST/extras, a data folder of its
# own, so that the node above keeps its rows; DEST/extras.tsv lists its
# SSTables as expected.tsv does.  None of them may give a WARNING.
xdata=$dest/extras
xexp=$dest/extras.tsv
: >"$xexp"
# copy SSTable FROM_PREFIX to TO_PREFIX (relative to $xdata); record it
xsstable() { copy_into extras "$xexp" "$@"; }
# big-endian unsigned integer of $2 bytes at offset $3 of file $1
be_uint() { od -An -tu"$2" --endian=big -j"$3" -N"$2" -- "$1" | tr -d ' '; }
# the bytes at offset $2, $3 of them, of file $1, in hex
hex_at() { od -An -tx1 -j"$2" -N"$3" -- "$1" | tr -d ' \n'; }
# write the bytes of hex string $3 at offset $2 of file $1
put_hex() { printf '%b' "$(printf '%s' "$3" | sed 's/../\\x&/g')" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
# java.util.zip.CRC32 of $3 bytes at offset $2 of file $1, big-endian hex:
# the CRC-32 gzip's trailer holds (little-endian) for what it compressed
crc32_at() {
	dd if="$1" bs=1 skip="$2" count="$3" status=none | gzip -c | tail -c8 | head -c4 |
		od -An -tx1 | awk '{ printf "%s%s%s%s", $4, $3, $2, $1 }'
}
# Statistics.db of a version with CRC32s (na and later) made to say
# bloom_filter_fp_chance 1: the validation component (type 0: writeUTF of
# the partitioner, then fp_chance as a double) gets 1.0, and the CRC32 that
# follows the component (MetadataSerializer) is computed again; the old one
# is checked first, so that a wrong offset fails here
stats_fp_chance_one() {
	local f=$1 n i o o0='' o1='' fp crc_at
	n=$(be_uint "$f" 4 0)
	for ((i = 0; i < n; i++)); do
		[[ $(be_uint "$f" 4 $((8 + 8 * i))) != 0 ]] || o0=$(be_uint "$f" 4 $((12 + 8 * i)))
	done
	for ((i = 0; i < n; i++)); do
		o=$(be_uint "$f" 4 $((12 + 8 * i)))
		if ((o > o0)) && [[ -z $o1 || $o -lt $o1 ]]; then o1=$o; fi
	done
	fp=$((o0 + 2 + $(be_uint "$f" 2 "$o0")))
	crc_at=$((o1 - 4))
	if [[ $(crc32_at "$f" "$o0" $((crc_at - o0))) != "$(hex_at "$f" "$crc_at" 4)" ||
		$(hex_at "$f" "$fp" 8) != 3f847ae147ae147b ]]; then
		echo "make-node.sh: $f: not the validation component expected (fp_chance 0.01)" >&2
		exit 1
	fi
	put_hex "$f" "$fp" 3ff0000000000000
	put_hex "$f" "$crc_at" "$(crc32_at "$f" "$o0" $((crc_at - o0)))"
}
x=ks_extras/t-77777777777777777777777777777777
# an unchanged copy, beside the others
xsstable "$NB" "$x/nb-1-big" live
# 5.0's SAI components (Version.defaultFileNameFormat: SAI+aa+<part>.db for
# the SSTable's, SAI+aa+<index>+<part>.db for an index's; the completion
# markers empty) and a SASI index's (SI_<index>.db), added to TOC.txt as
# Cassandra appends them (TOCComponent.appendTOC); their bytes are not read
xsstable "$NB" "$x/nb-2-big" live "SAI and SASI components added"
for c in SAI+aa+GroupComplete.db SAI+aa+t_v_idx+ColumnComplete.db; do
	: >"$xdata/$x/nb-2-big-$c"
	printf '%s\n' "$c" >>"$xdata/$x/nb-2-big-TOC.txt"
done
for c in SAI+aa+TokenValues.db SAI+aa+PrimaryKeyTrie.db SAI+aa+t_v_idx+Meta.db \
	SAI+aa+t_v_idx+TermsData.db SAI+aa+t_v_idx+PostingLists.db SI_t_w_idx.db; do
	printf 'index bytes\n' >"$xdata/$x/nb-2-big-$c"
	printf '%s\n' "$c" >>"$xdata/$x/nb-2-big-TOC.txt"
done
# bloom_filter_fp_chance = 1: no Filter.db (Cassandra's FilterFactory gives
# AlwaysPresent and writes none, nor lists it in TOC.txt), and Statistics.db
# says 1 (written here from nb-1-big's: no real SSTable of the reference
# data has fp_chance 1)
xsstable "$NB" "$x/nb-3-big" live "fp_chance 1, no Filter.db"
rm -- "$xdata/$x/nb-3-big-Filter.db"
sed -i '/^Filter\.db$/d' "$xdata/$x/nb-3-big-TOC.txt"
stats_fp_chance_one "$xdata/$x/nb-3-big-Statistics.db"
# no Filter.db though Statistics.db says 0.01 (deleted by hand): the same
# NULL filter, no WARNING
xsstable "$NB" "$x/nb-4-big" live "no Filter.db, fp_chance 0.01"
rm -- "$xdata/$x/nb-4-big-Filter.db"
# ScyllaDB (sstable_version.cc): a me SSTable being deleted (TOC.txt
# renamed TOC.txt.tmp) and an ms one being written (TOC.txt.tmp, the
# partition key hashes in TemporaryHashes.db.tmp, no Filter.db or
# Statistics.db yet): both temporary, as ScyllaDB removes them at startup;
# and a complete one with a Statistics.db.tmp left from a rewrite, which
# ScyllaDB removes alone: live, with its Statistics.db
ME=$L/me/legacy_tables/legacy_me_simple/me-1-big
xsstable "$ME" "$x/me-5-big" temporary "TOC.txt renamed TOC.txt.tmp"
mv -- "$xdata/$x/me-5-big-TOC.txt" "$xdata/$x/me-5-big-TOC.txt.tmp"
mkdir -p "$xdata/$x"
cp -- "$L/da/legacy_tables/legacy_da_simple/da-1-bti-Data.db" "$xdata/$x/ms-6-big-Data.db"
printf 'Data.db\nTOC.txt\nFilter.db\nStatistics.db\nPartitions.db\nRows.db\n' >"$xdata/$x/ms-6-big-TOC.txt.tmp"
printf '\x00\x01\x02\x03\x04\x05\x06\x07' >"$xdata/$x/ms-6-big-TemporaryHashes.db.tmp"
printf '%s\t%s\t%s\t%s\n' "$destname/extras/$x/ms-6-big" temporary - "being written (ScyllaDB)" >>"$xexp"
xsstable "$ME" "$x/me-7-big" live "Statistics.db.tmp beside"
cp -- "$ME-Statistics.db" "$xdata/$x/me-7-big-Statistics.db.tmp"
# ScyllaDB's table subfolders (sstables/sstable_directory.hh), below a
# table folder with its id: staging/ and quarantine/ hold SSTables its
# table_populator loads into the table (replica/distributed_loader.cc),
# staging, quarantine; upload/ ones nodetool refresh has not loaded yet,
# upload; pending_delete/ deletion logs and no SSTable.  One in staging/
# being written (TOC.txt.tmp) is temporary, as in the table's folder.
# pending_delete/ (sstables/sstable_directory.cc, replay_pending_delete_log):
# a sealed log names me-6-big's TOC.txt, which startup deletes: obsolete; a
# log not sealed (.log.tmp, deleted unread) names me-7-big: live.  An
# SSTable in <generation>.sstable/, being written, which startup removes:
# temporary.
y=ks_extras/s-88888888888888888888888888888888
xsstable "$ME" "$y/me-1-big" live
xsstable "$ME" "$y/staging/me-2-big" staging "in staging/"
xsstable "$ME" "$y/staging/me-3-big" temporary "in staging/, TOC.txt renamed TOC.txt.tmp"
mv -- "$xdata/$y/staging/me-3-big-TOC.txt" "$xdata/$y/staging/me-3-big-TOC.txt.tmp"
xsstable "$ME" "$y/quarantine/me-4-big" quarantine "in quarantine/"
xsstable "$ME" "$y/upload/me-5-big" upload "in upload/"
xsstable "$ME" "$y/me-6-big" obsolete "named by a pending_delete log"
xsstable "$ME" "$y/me-7-big" live "named by a pending_delete log not sealed"
xsstable "$ME" "$y/8.sstable/me-8-big" temporary "in 8.sstable/"
mkdir -p "$xdata/$y/pending_delete"
printf 'me-6-big-TOC.txt\n\n' >"$xdata/$y/pending_delete/sstables-6-6.log"
printf 'me-7-big-TOC.txt\n' >"$xdata/$y/pending_delete/sstables-7-7.log.tmp"
LC_ALL=C sort -o "$xexp" "$xexp"
