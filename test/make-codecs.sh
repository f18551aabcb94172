#!/usr/bin/env bash
#
# test/make-codecs.sh SSTABLES DEST - copies of real SSTables of SSTABLES (a
# copy of test/data/sstables) for the 17_codecs regression test and
# test/client.sh, made by the tools of test/tools (test/tools/README.md):
#
#   DEST/copies/<variant>/<keyspace>/<table>-<id>/<sstable>
#       the 6 trie-indexed SSTables (4 da, 2 bb) and a BIG one (oa, 10,000
#       partitions) with Data.db in each compressor, chunk length and
#       layout below (build/tools/recompress)
#   DEST/quirks/<keyspace>/<table>-<id>/<sstable>
#       5 BIG SSTables of versions without Statistics.db CRC32s (la, mc,
#       md, me) with ScyllaDB's Statistics.db table order and Summary.db
#       size at full sampling (build/tools/scylla-quirks)
#   DEST/corrupt/<kind>/<keyspace>/<table>-<id>/<sstable>
#       damaged copies of a trie-indexed one: a byte flipped in a
#       compressed chunk, CompressionInfo.db cut short, a compressor no
#       reader knows
#
# <keyspace> and <table> are the source's two last folders, <id> a hash of
# the source's folder.  DEST/expected.tsv lists every copy, one per line:
#   copy (relative to DEST's parent)  kind  variant  compressor class
#   chunk length  min_compress_ratio  chunks  source (relative to
#   SSTABLES' parent)  what was changed
# The tools are built with `make tools` unless BC_TOOLS_BUILT=1.
#
set -euo pipefail

src=${1:?usage: make-codecs.sh SSTABLES DEST}
dest=${2:?usage: make-codecs.sh SSTABLES DEST}
root=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$src" && pwd)
srcname=$(basename "$src")
destname=$(basename "$dest")
tools=$root/build/tools

if [[ ${BC_TOOLS_BUILT:-} != 1 ]]; then
	make -s -C "$root" tools >/dev/null
fi
[[ -x $tools/recompress && -x $tools/scylla-quirks ]] || {
	echo "make-codecs.sh: $tools/recompress or scylla-quirks missing" >&2
	exit 1
}

rm -rf -- "$dest"
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
exp=$dest/expected.tsv
printf 'copy\tkind\tvariant\tclass\tchunk\tmin_compress_ratio\tchunks\tsource\tchange\n' >"$exp"

# where the copy of source prefix $2 goes under $1
place() {
	local under=$1 from=$2 dir table ks id
	dir=$(dirname "$from")
	table=$(basename "$dir")
	ks=$(basename "$(dirname "$dir")")
	id=$(printf '%s' "${dir#"$src"/}" | md5sum | cut -c1-32)
	table=${table%%-[0-9a-f]*[0-9a-f]}
	mkdir -p "$under/$ks/$table-$id"
	printf '%s\n' "$under/$ks/$table-$id/$(basename "$from")"
}

# record KIND VARIANT RATIO CHANGE TOOL-OUTPUT-LINE SOURCE: a line of expected.tsv
# from recompress's output (dest codec class chunk chunks raw padded bytes...)
record() {
	local kind=$1 variant=$2 ratio=$3 change=$4 to codec class chunk chunks rest from
	IFS=$'\t' read -r to codec class chunk chunks rest <<<"$5"
	from=$6
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$destname${to#"$dest"}" "$kind" "$variant" \
		"$class" "$chunk" "$ratio" "$chunks" "$srcname${from#"$src"}" "$change" >>"$exp"
}

L=$src/cassandra/legacy-sstables
SOURCES=(
	"$L/da/legacy_tables/legacy_da_clust/da-1-bti"
	"$L/da/legacy_tables/legacy_da_clust_counter/da-1-bti"
	"$L/da/legacy_tables/legacy_da_simple/da-1-bti"
	"$L/da/legacy_tables/legacy_da_simple_counter/da-1-bti"
	"$src/sstable-to-arrow/sample_data/baselines-data/keyvalue/bb-1-bti"
	"$src/sstable-to-arrow/sample_data/baselines-data/keyvalue/bb-2-bti"
	"$src/sstable-transformer/clickhouse/src/test/resources/sstables/oa-13-big"
)

# variant  codec  chunk length  min_compress_ratio (0: none, every chunk compressed)
# Cassandra's chunk_length_in_kb is 1 KiB at least; small-chunks goes
# below it so that partitions and keys read from Data.db cross chunks.
VARIANTS=(
	"lz4 lz4 4096 0"
	"snappy snappy 16384 0"
	"deflate deflate 65536 0"
	"zstd zstd 1024 0"
	"noop noop 8192 0"
	"lz4-dicts lz4-dicts 2048 0"
	"zstd-dicts zstd-dicts 32768 0"
	"raw-chunks snappy 1024 6"
	"small-chunks lz4 64 0"
	"none none 65536 0"
)

for v in "${VARIANTS[@]}"; do
	read -r variant codec chunk ratio <<<"$v"
	for s in "${SOURCES[@]}"; do
		to=$(place "$dest/copies/$variant" "$s")
		args=(-c "$chunk")
		[[ $ratio == 0 ]] || args+=(-r "$ratio")
		line=$("$tools/recompress" "${args[@]}" "$s" "$codec" "$to")
		record copy "$variant" "$ratio" - "$line" "$s"
	done
done

# ScyllaDB's quirks: versions without Statistics.db CRC32s (3 and 4 components)
QUIRKS=(
	"$L/la/legacy_tables/legacy_la_clust/la-1-big"
	"$L/mc/legacy_tables/legacy_mc_clust/mc-1-big"
	"$L/md/legacy_tables/legacy_md_clust/md-1-big"
	"$L/me/legacy_tables/legacy_me_clust/me-1-big"
	"$src/sstable-to-arrow/cpp/sample_data/baselines/iot-5b608090e03d11ebb4c1d335f841c590/md-2-big"
)
for s in "${QUIRKS[@]}"; do
	to=$(place "$dest/quirks" "$s")
	IFS=$'\t' read -r _ toc full scylla <<<"$("$tools/scylla-quirks" "$s" "$to")"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$destname${to#"$dest"}" quirk quirks - - - - \
		"$srcname${s#"$src"}" "Statistics.db table $toc; Summary.db size at full sampling $full -> $scylla" >>"$exp"
done

# damaged copies of bb-1-bti (27 partitions, keys read from Data.db)
BB=$src/sstable-to-arrow/sample_data/baselines-data/keyvalue/bb-1-bti
to=$(place "$dest/corrupt/flipped" "$BB")
line=$("$tools/recompress" -c 64 -x 10 "$BB" lz4 "$to")
record corrupt flipped 0 "Data.db: a byte of chunk 10 flipped" "$line" "$BB"
to=$(place "$dest/corrupt/truncated-info" "$BB")
line=$("$tools/recompress" -c 64 "$BB" lz4 "$to")
truncate -s -3 "$to-CompressionInfo.db"
record corrupt truncated-info 0 "CompressionInfo.db: its last 3 bytes cut" "$line" "$BB"
to=$(place "$dest/corrupt/unknown-compressor" "$BB")
line=$("$tools/recompress" -c 4096 -n BrotliCompressor "$BB" zstd "$to")
record corrupt unknown-compressor 0 "CompressionInfo.db: compressor class BrotliCompressor" "$line" "$BB"

# Cassandra 6.0's pa and ea (test/make-v60.sh)
BC_TOOLS_BUILT=1 "$root/test/make-v60.sh" "$src" "$dest/v60"

chmod -R a+rX "$dest"
