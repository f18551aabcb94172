#!/usr/bin/env bash
#
# test/bench/node_gen.sh N DEST - a Cassandra node's data folder of N live
# SSTables, for the node-scale benchmark (node.sh; test/bench/README.md).
#
#   DEST/data/bench/<table>-<id>/<version>-<generation>-big-<component>
#
# Four tables, each made of copies of one real SSTable of test/data/sstables
# (Murmur3Partitioner, BIG, all of its components: Data.db,
# CompressionInfo.db, Digest.crc32, Index.db, Summary.db, Statistics.db,
# TOC.txt), under new generations (1001, 1002, ... per table), SSTable j
# going to table j mod 4.  Every component is copied as it is except
# Filter.db: in its place, one of eight large filters per table
# (node_filter.c: Cassandra's shape for an SSTable of n partitions at the
# SSTable's fp_chance, holding its real keys and numbers up to n) of 40, 80,
# 120, 160, 240, 280, 320 and 360 KiB, 200 KiB on average, taken in turn: 2
# GB of Filter.db for 10,000 SSTables.  Every file is a copy (no links).
#
#   DEST/filters/<table>-<KiB>.db   the distinct filters
#   DEST/filters.tsv                table, KiB, source, version, n, real
#                                   keys, hash count, words, bytes, fp_chance
#   DEST/sstables.tsv               SSTable prefix, table, source, filter
#   DEST/complete                   N and the generator's checksum: a
#                                   folder with it is whole, and node.sh
#                                   reuses it while the generator is the same
#
# NODE_FILTER is the node_filter program (default build/bench/node_filter).
set -euo pipefail

n=${1:?usage: node_gen.sh N DEST}
dest=${2:?usage: node_gen.sh N DEST}
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "node_gen.sh: N must be a positive number" >&2; exit 2; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
S=$root/test/data/sstables
NODE_FILTER=${NODE_FILTER:-$root/build/bench/node_filter}
[[ -x $NODE_FILTER ]] || { echo "node_gen.sh: $NODE_FILTER is missing (make build/bench/node_filter)" >&2; exit 1; }

# table, its id, version, source SSTable (relative to test/data/sstables)
TABLES=(
	"events 5b608090e03d11ebb4c1d335f841c590 oa sstable-transformer/clickhouse/src/test/resources/sstables/oa-13-big"
	"tombstones 7d2a6f40c41a11eea2c1f3b5e8c1d9a0 nb cassandra/negative-ldts-invalid-deletions-test/invalid_range_tombstone_compaction/nb-1-big"
	"deletions 8e3b7051c41a11eea2c1f3b5e8c1d9a0 nc cassandra/negative-ldts-invalid-deletions-test/invalid_tombstones/nc-1-big"
	"bills 9f4c8162c41a11eea2c1f3b5e8c1d9a0 mc sstable-adaptor/sstable-adaptor-core/src/test/resources/data/cass3/keyspace1/compressed_bills/mc-2-big"
)
SIZES_KIB=(40 80 120 160 240 280 320 360)

stamp="$n $(cat "${BASH_SOURCE[0]}" "$root/test/bench/node_filter.c" | cksum | cut -d' ' -f1)"

rm -rf -- "$dest"
mkdir -p "$dest/data/bench" "$dest/filters"
: >"$dest/filters.tsv"

# the distinct filters
for t in "${TABLES[@]}"; do
	read -r table _ version src <<<"$t"
	for kib in "${SIZES_KIB[@]}"; do
		printf '%s\t%s\t%s\t%s\t' "$table" "$kib" "$src" "$version" >>"$dest/filters.tsv"
		"$NODE_FILTER" "$S/$src" "$version" $((kib * 1024)) "$dest/filters/$table-$kib.db" \
			>>"$dest/filters.tsv"
	done
done

# the SSTables: one perl process copies every file (a cp per file would
# take minutes at 10,000 SSTables)
printf '%s\n' "${TABLES[@]}" | N=$n DEST=$dest S=$S SIZES="${SIZES_KIB[*]}" perl -e '
use strict; use warnings; use File::Copy qw(copy);
my ($n, $dest, $S) = @ENV{qw(N DEST S)};
my @sizes = split / /, $ENV{SIZES};
my @tables = map { chomp; [split / /] } <STDIN>;
my $nt = @tables;
open(my $list, ">", "$dest/sstables.tsv") or die "$dest/sstables.tsv: $!\n";
for my $t (@tables) {
	my ($table, $id, $version, $src) = @$t;
	my $dir = "$dest/data/bench/$table-$id";
	mkdir $dir or die "$dir: $!\n";
	my $from = "$S/$src";
	my @comps = map { substr($_, length($from) + 1) } glob("$from-*");
	push @$t, $dir, \@comps;
}
for my $j (0 .. $n - 1) {
	my ($table, $id, $version, $src, $dir, $comps) = @{$tables[$j % $nt]};
	my $round = int($j / $nt);
	my $gen = 1001 + $round;
	my $kib = $sizes[($round * 3 + $j % $nt) % @sizes];
	my $prefix = "$dir/$version-$gen-big";
	for my $c (@$comps) {
		my $from = $c eq "Filter.db" ? "$dest/filters/$table-$kib.db" : "$S/$src-$c";
		copy($from, "$prefix-$c") or die "$prefix-$c: $!\n";
	}
	print $list "$prefix\t$table\t$src\t$table-$kib.db\n";
}
close($list) or die "$dest/sstables.tsv: $!\n";
'
chmod -R a+rX "$dest"
printf '%s\n' "$stamp" >"$dest/complete"

filter_bytes=$(find "$dest/data" -name '*-Filter.db' -printf '%s\n' | awk '{s += $1} END {print s}')
all_bytes=$(du -sb "$dest/data" | cut -f1)
printf 'node_gen.sh: %s SSTables in %s/data: %s bytes of Filter.db (%s per SSTable), %s bytes in all\n' \
	"$n" "$dest" "$filter_bytes" "$((filter_bytes / n))" "$all_bytes"
