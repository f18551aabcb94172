#!/usr/bin/env bash
#
# test/make-v60.sh SSTABLES DEST - Cassandra 6.0's versions (pa, ea) made
# from the real SSTables of SSTABLES (a copy of test/data/sstables) for the
# 25_cassandra60 regression test; test/make-codecs.sh runs it (DEST is its
# DEST/v60).  No real 6.0 SSTable is in the reference data; these are
# written as apache/cassandra trunk's source describes them:
#
#   DEST/renamed/<keyspace>/<table>-<id>/<sstable>
#       the 4 oa legacy tables under pa names and the 4 da ones under ea
#       names, every component byte for byte: BigVersion and BtiVersion
#       change nothing else from oa to pa and from da to ea, and a
#       CompressionInfo.db that ends at its offsets has no dictionary
#       (CompressionDictionary.deserialize)
#   DEST/dict/<keyspace>/<table>-<id>/<sstable>
#       oa-13-big (10,000 partitions) as pa and the 4 da tables as ea with
#       Data.db compressed by ZstdDictionaryCompressor with a dictionary
#       trained by libzstd's ZDICT_trainFromBuffer (over oa-13-big's data),
#       stored after CompressionInfo.db's offsets (build/tools/recompress
#       zstd-dict)
#   DEST/damaged/<kind>/<keyspace>/<table>-<id>/<sstable>
#       an ea copy (its keys are read through Data.db) with the
#       dictionary's kind 1, its checksum wrong, its CompressionInfo.db
#       cut 3 bytes short (inside the checksum), the zstd dictionary's own
#       id changed (dict-id) and chunk 0 compressed with another dictionary
#       (other-dict), both with the checksum over what is stored, so only
#       zstd notices; and the trailer's id changed with the checksum over
#       it (id), which readers read as the source (nothing but the
#       checksum covers the id)
#
# DEST/expected.tsv lists every copy: copy (relative to DEST's parent's
# parent), kind, source (relative to SSTABLES' parent), change.
# The tools are built with `make tools` unless BC_TOOLS_BUILT=1.
#
set -euo pipefail

src=${1:?usage: make-v60.sh SSTABLES DEST}
dest=${2:?usage: make-v60.sh SSTABLES DEST}
root=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$src" && pwd)
srcname=$(basename "$src")
tools=$root/build/tools

if [[ ${BC_TOOLS_BUILT:-} != 1 ]]; then
	make -s -C "$root" tools >/dev/null
fi
[[ -x $tools/recompress ]] || {
	echo "make-v60.sh: $tools/recompress missing" >&2
	exit 1
}

rm -rf -- "$dest"
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
top=$(basename "$(dirname "$dest")")/$(basename "$dest")
exp=$dest/expected.tsv
printf 'copy\tkind\tsource\tchange\n' >"$exp"

# where the copy of source prefix $2 goes under $1, with version $3
place() {
	local under=$1 from=$2 v=$3 dir table ks id base
	dir=$(dirname "$from")
	table=$(basename "$dir")
	ks=$(basename "$(dirname "$dir")")
	id=$(printf '%s' "${dir#"$src"/}" | md5sum | cut -c1-32)
	table=${table%%-[0-9a-f]*[0-9a-f]}
	base=$(basename "$from")
	mkdir -p "$under/$ks/$table-$id"
	printf '%s\n' "$under/$ks/$table-$id/$v${base#??}"
}

record() {
	printf '%s\t%s\t%s\t%s\n' "$top${1#"$dest"}" "$2" "$srcname${3#"$src"}" "$4" >>"$exp"
}

L=$src/cassandra/legacy-sstables
OA=()
DA=()
for t in clust clust_counter simple simple_counter; do
	OA+=("$L/oa/legacy_tables/legacy_oa_$t/oa-1-big")
	DA+=("$L/da/legacy_tables/legacy_da_$t/da-1-bti")
done
BIG=$src/sstable-transformer/clickhouse/src/test/resources/sstables/oa-13-big

# oa as pa, da as ea: every component copied under the new name
for s in "${OA[@]}" "${DA[@]}"; do
	v=pa
	[[ $(basename "$s") == da-* ]] && v=ea
	to=$(place "$dest/renamed" "$s" "$v")
	for f in "$s"-*; do
		cp -- "$f" "$to${f#"$s"}"
	done
	record "$to" renamed "$s" "renamed $(basename "$s") -> $(basename "$to")"
done

# with a trained dictionary
to=$(place "$dest/dict" "$BIG" pa)
"$tools/recompress" -c 4096 "$BIG" zstd-dict "$to" >/dev/null
record "$to" dict "$BIG" "ZstdDictionaryCompressor, a trained dictionary, chunks of 4096"
for s in "${DA[@]}"; do
	to=$(place "$dest/dict" "$s" ea)
	"$tools/recompress" -c 1024 -D "$BIG" "$s" zstd-dict "$to" >/dev/null
	record "$to" dict "$s" "ZstdDictionaryCompressor, a dictionary trained over oa-13-big, chunks of 1024"
done

# damaged dictionaries
S=${DA[2]}
to=$(place "$dest/damaged/kind" "$S" ea)
"$tools/recompress" -c 1024 -D "$BIG" -d kind "$S" zstd-dict "$to" >/dev/null
record "$to" damaged "$S" "CompressionInfo.db: dictionary kind 1"
to=$(place "$dest/damaged/checksum" "$S" ea)
"$tools/recompress" -c 1024 -D "$BIG" -d checksum "$S" zstd-dict "$to" >/dev/null
record "$to" damaged "$S" "CompressionInfo.db: dictionary checksum wrong"
to=$(place "$dest/damaged/truncated" "$S" ea)
"$tools/recompress" -c 1024 -D "$BIG" "$S" zstd-dict "$to" >/dev/null
truncate -s -3 "$to-CompressionInfo.db"
record "$to" damaged "$S" "CompressionInfo.db: its last 3 bytes cut"
for d in id dict-id other-dict; do
	to=$(place "$dest/damaged/$d" "$S" ea)
	"$tools/recompress" -c 1024 -D "$BIG" -d "$d" "$S" zstd-dict "$to" >/dev/null
	record "$to" damaged "$S" "CompressionInfo.db: -d $d (test/tools/dict_trailer.h)"
done

chmod -R a+rX "$dest"
