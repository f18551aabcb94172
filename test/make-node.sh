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

# copy SSTable FROM_PREFIX (absolute) to TO_PREFIX (relative to $data),
# renaming its files; record it
sstable() {
	local from=$1 to=$2 state=$3 change=${4:--} f
	mkdir -p "$data/$(dirname "$to")"
	for f in "$from"-*; do
		cp -- "$f" "$data/$to${f#"$from"}"
	done
	printf '%s\t%s\t%s\t%s\n' "$destname/data/$to" "$state" "$srcname${from#"$src"}" "$change" >>"$exp"
}

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
