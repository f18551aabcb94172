#!/usr/bin/env bash
#
# test/fuzz/run-short.sh - build the libFuzzer target of test/fuzz/*.c and test/fuzz/*/*.c
# (fuzz_core) and fuzz the bloomcass core for a bounded time.
#
#   bash test/fuzz/run-short.sh                  # 60 s
#   FUZZ_SECONDS=30 bash test/fuzz/run-short.sh
#
# Environment:
#   FUZZ_SECONDS   run time in seconds (default 60)
#   FUZZ_OUT       build/work directory (default build/fuzz, relative to the
#                  repository root)
#   FUZZ_FRESH=1   start from the seeds only, forgetting the corpus earlier
#                  runs grew in $FUZZ_OUT/corpus/work
#   CC             the compiler (default clang)
#
# It builds $FUZZ_OUT/fuzz_core from src/core/*/*.c, test/fuzz/*.c and
# test/fuzz/*/*.c
# (linked with liblz4, libsnappy, zlib and libzstd), writes the seeds to
# $FUZZ_OUT/corpus/seed (every *.db / *.bin file of test/data/real-filters
# and test/data/vectors as a Filter.db image, as the bloom type's binary
# form 01 00 00 00 + bytes and as its \x hex text form, plus file names and
# numbers; real Statistics.db, Index.db, Summary.db and CompressionInfo.db
# files with the two bytes that select their version, Summary.db/Index.db
# pairs, the trie-indexed SSTables' Partitions.db as they are and with
# their Rows.db, CompressionInfo.db and Data.db, folder/component names of
# the real SSTables, and crafted inputs; those over -max_len are listed in
# $FUZZ_OUT/corpus/left-out.tsv), fuzzes with $FUZZ_OUT/corpus/work as the
# growing corpus, and ends with one line
#
#   fuzz: N runs, 0 crashes in S s
#
# The exit status is non-zero when the build fails, clang or libFuzzer's
# runtime is missing, or the fuzzer finds anything (crash, sanitizer report,
# invariant violation, timeout, out of memory); findings are written to
# $FUZZ_OUT/artifacts/ (see test/fuzz/README.md to reproduce one).

set -euo pipefail

# All of the script is one function, read completely before it runs, so
# that editing this file during a long run does not disturb the run.
main() {

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

FUZZ_SECONDS=${FUZZ_SECONDS:-60}
OUT=${FUZZ_OUT:-build/fuzz}
CC=${CC:-clang}
MAX_LEN=65536
BIN=$OUT/fuzz_core
SEED=$OUT/corpus/seed
WORK=$OUT/corpus/work
ART=$OUT/artifacts
LOG=$OUT/fuzz.log

say() { printf 'fuzz: %s\n' "$*"; }
die() {
	printf 'fuzz: %s\n' "$*" >&2
	exit 1
}

[[ $FUZZ_SECONDS =~ ^[0-9]+$ && $FUZZ_SECONDS -gt 0 ]] ||
	die "FUZZ_SECONDS must be a positive number of seconds (got '$FUZZ_SECONDS')"

mkdir -p "$OUT" "$ART"

# ---------------------------------------------------------------------------
# Toolchain: clang with libFuzzer and the sanitizer runtimes
# ---------------------------------------------------------------------------
SAN_FLAGS=("-fsanitize=fuzzer,address,undefined" -fno-sanitize-recover=all)

# Debian ships libFuzzer's runtime as libclang-rt-M-dev, M being clang's major
# (14 on Debian 12, 19 on 13, 21 on testing).
if ! command -v "$CC" >/dev/null 2>&1; then
	die "'$CC' not found: the fuzzer needs clang with libFuzzer (Debian: apt-get install clang libclang-rt-M-dev, M being clang's major version)"
fi
CLANG_MAJOR=$("$CC" --version 2>/dev/null | sed -nE 's/.*clang version ([0-9]+).*/\1/p' | head -n 1)
cat >"$OUT/probe.c" <<'EOF'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void) d; (void) n; return 0; }
EOF
if ! "$CC" "${SAN_FLAGS[@]}" "$OUT/probe.c" -o "$OUT/probe" >"$OUT/probe.log" 2>&1; then
	sed 's/^/    /' "$OUT/probe.log" >&2
	die "'$CC' cannot link a libFuzzer target (-fsanitize=fuzzer,address,undefined): libFuzzer's runtime is missing (Debian: apt-get install libclang-rt-${CLANG_MAJOR:-M}-dev)"
fi
rm -f "$OUT/probe" "$OUT/probe.c" "$OUT/probe.log"

# ---------------------------------------------------------------------------
# Build
# ---------------------------------------------------------------------------
say "building $BIN"
# every folder of the core is on the include path (src/core/README.md)
CORE_INCLUDES=()
for d in src/core/*/; do CORE_INCLUDES+=("-I${d%/}"); done
"$CC" -std=c99 -D_POSIX_C_SOURCE=200809L -g -O1 -fno-omit-frame-pointer \
	"${SAN_FLAGS[@]}" -Wall -Wextra -Werror \
	"${CORE_INCLUDES[@]}" -Itest/fuzz -Itest/lib src/core/*/*.c test/fuzz/*.c test/fuzz/*/*.c test/lib/bytebuf.c -llz4 -lsnappy -lz -lzstd -lm -o "$BIN" ||
	die "build of $BIN failed"

# ---------------------------------------------------------------------------
# Seeds
# ---------------------------------------------------------------------------
rm -rf "$SEED"
mkdir -p "$SEED" "$WORK"
if [[ ${FUZZ_FRESH:-0} == 1 ]]; then
	find "$WORK" -mindepth 1 -delete
fi

# Hash order per real Filter.db file (old order gets the type's flag 0x01).
declare -A OLD_ORDER=()
if [[ -f test/data/real-filters/MANIFEST.tsv ]]; then
	while IFS=$'\t' read -r file _ _ order _; do
		[[ $file == \#* || -z $file ]] && continue
		[[ $order == old ]] && OLD_ORDER["test/data/real-filters/$file"]=1
	done <test/data/real-filters/MANIFEST.tsv
fi

nseed=0
nskip=0
LEFT_OUT=$OUT/corpus/left-out.tsv # the seeds over -max_len, and their sizes
: >"$LEFT_OUT"
# put_seed NAME: stdin to $SEED/NAME unless it exceeds -max_len (call it
# with a redirection, not at the end of a pipeline, so the counts survive)
put_seed() {
	cat >"$SEED/$1"
	if (($(stat -c %s "$SEED/$1") > MAX_LEN)); then
		printf '%s\t%s\n' "$1" "$(stat -c %s "$SEED/$1")" >>"$LEFT_OUT"
		rm -f "$SEED/$1"
		nskip=$((nskip + 1))
	else
		nseed=$((nseed + 1))
	fi
}

i=0
while IFS= read -r -d '' f; do
	i=$((i + 1))
	header='\x01\x00\x00\x00' # format 1, flags 0, reserved
	if [[ -n ${OLD_ORDER[$f]:-} || $f == *_ka.db ]]; then
		header='\x01\x01\x00\x00' # flags: old hash order
	fi
	put_seed "$i-filterdb" <"$f"
	put_seed "$i-binary" < <(printf '%b' "$header"; cat "$f")
	put_seed "$i-text" < <(printf '\\x'; od -An -v -tx1 "$f" | tr -d ' \n')
	put_seed "$i-name" < <(printf '%s' "${f##*/}")
done < <(find test/data/real-filters test/data/vectors -type f \( -name '*.db' -o -name '*.bin' \) -print0 | sort -z)
((i > 0)) || die "no *.db / *.bin file found under test/data/real-filters or test/data/vectors"

# varint and decimal values of the golden serialization vectors
if [[ -f test/data/vectors/serialization.tsv ]]; then
	j=0
	while IFS=$'\t' read -r type value _; do
		[[ $type == varint || $type == decimal ]] || continue
		j=$((j + 1))
		put_seed "num-$j" < <(printf '%s' "$value")
	done <test/data/vectors/serialization.tsv
fi
# numbers at the edges of the decimal exponent and scale ranges
j=0
for value in 1E2147483647 1E-2147483648 1E2147483648 1E-2147483649 \
	.5E-2147483647 .5E-2147483648 -0.000e+0010 1e99999999999 1e000000000000007 \
	+123456789012345678901234567890 -9223372036854775808 9223372036854775807; do
	j=$((j + 1))
	put_seed "edge-$j" < <(printf '%s' "$value")
done

# The real SSTables' files in the stages' formats (test/fuzz/README.md):
#   - Statistics.db, Index.db and Summary.db prefixed with the version's
#     index in fuzz_main.c's fuzz_versions (same order below) and a
#     chunking byte for the Index.db cursor; at most 3 files per version
#     and component;
#   - CompressionInfo.db with the same two bytes and, when the two fit
#     -max_len, Data.db after it; at most 3 per version;
#   - Summary.db and Index.db as a pair: the version's index, the
#     partitioner (0 Murmur3, 1 ByteOrdered, 3 any other: no order), the
#     BE16 length of Summary.db, the two files; at most 2 per version and
#     partitioner;
#   - every trie-indexed SSTable's Partitions.db as it is, and its
#     Partitions.db, Rows.db, CompressionInfo.db and Data.db in one input:
#     a selector byte (the version: da 0, bb 1; 4: ByteOrdered; 16: a
#     CompressionInfo.db), a reader byte (0), each part after its BE16
#     length but Data.db, the rest;
# plus one component name per SSTable with its table folder in front
# (dir/name).  Files over -max_len are left out.
FUZZ_VERSIONS=(ia ib ic ja jb ka la lb ma mb mc md me ms mt na nb nc oa da bb)
declare -A VSEL=() NPER=()
for ((j = 0; j < ${#FUZZ_VERSIONS[@]}; j++)); do
	VSEL[${FUZZ_VERSIONS[j]}]=$j
done
j=0
nsst=0
if [[ -f test/data/sstables/MANIFEST.tsv ]]; then
	while IFS=$'\t' read -r dir desc ver fmt _ _ _ comps part _; do
		[[ $dir == dir || -z $dir ]] && continue
		nsst=$((nsst + 1))
		base=test/data/sstables/$dir/$desc
		IFS=, read -r -a clist <<<"$comps"
		# written directly (short, or sizes checked): fewer processes
		printf '%s/%s-%s' "${dir##*/}" "$desc" "${clist[nsst % ${#clist[@]}]}" \
			>"$SEED/sst-$nsst-name"
		nseed=$((nseed + 1))
		[[ -n ${VSEL[$ver]:-} ]] || continue
		for comp in Statistics Index Summary; do
			f=$base-$comp.db
			[[ -f $f ]] || continue
			(($(stat -c %s "$f") + 2 <= MAX_LEN)) || continue
			key=$ver-$comp
			((${NPER[$key]:-0} < 3)) || continue
			NPER[$key]=$((${NPER[$key]:-0} + 1))
			j=$((j + 1))
			printf -v prefix '\\x%02x\\x%02x' "${VSEL[$ver]}" $((j * 37 % 256))
			{
				printf '%b' "$prefix"
				cat "$f"
			} >"$SEED/sst-$nsst-$comp"
			nseed=$((nseed + 1))
		done
		# BTI Partitions.db, whole (its stage reads the input as it is)
		f=$base-Partitions.db
		if [[ -f $f ]] && (($(stat -c %s "$f") <= MAX_LEN)); then
			cat "$f" >"$SEED/sst-$nsst-Partitions"
			nseed=$((nseed + 1))
		fi
		case $part in
		*Murmur3Partitioner) pidx=0 ;;
		*ByteOrderedPartitioner) pidx=1 ;;
		*) pidx=3 ;;
		esac
		# CompressionInfo.db, then Data.db when both fit
		f=$base-CompressionInfo.db
		if [[ -f $f ]] && ((${NPER[$ver-CompressionInfo]:-0} < 3)); then
			NPER[$ver-CompressionInfo]=$((${NPER[$ver-CompressionInfo]:-0} + 1))
			j=$((j + 1))
			printf -v prefix '\\x%02x\\x%02x' "${VSEL[$ver]}" $((j * 37 % 256))
			put_seed "sst-$nsst-CompressionInfo" < <(printf '%b' "$prefix"
				cat "$f"
				if [[ -f $base-Data.db ]] &&
					(($(stat -c %s "$f") + $(stat -c %s "$base-Data.db") + 2 <= MAX_LEN)); then
					cat "$base-Data.db"
				fi)
		fi
		# Summary.db and Index.db as a pair, when the two fit
		if [[ -f $base-Summary.db && -f $base-Index.db ]] &&
			((${NPER[$ver-$pidx-pair]:-0} < 2)) &&
			(($(stat -c %s "$base-Summary.db") + $(stat -c %s "$base-Index.db") + 4 <= MAX_LEN)); then
			NPER[$ver-$pidx-pair]=$((${NPER[$ver-$pidx-pair]:-0} + 1))
			n=$(stat -c %s "$base-Summary.db")
			printf -v prefix '\\x%02x\\x%02x\\x%02x\\x%02x' "${VSEL[$ver]}" "$pidx" $((n >> 8)) $((n & 255))
			put_seed "sst-$nsst-pair" < <(printf '%b' "$prefix"
				cat "$base-Summary.db" "$base-Index.db")
		fi
		# a trie-indexed SSTable's parts in one input
		if [[ $fmt == bti && ($ver == da || $ver == bb) && -f $base-Data.db ]]; then
			sel=$((pidx == 1 ? 4 : 0))
			[[ $ver == bb ]] && sel=$((sel | 1))
			parts=("$base-Partitions.db" "$base-Rows.db")
			if [[ -f $base-CompressionInfo.db ]]; then
				sel=$((sel | 16))
				parts+=("$base-CompressionInfo.db")
			fi
			put_seed "sst-$nsst-trie" < <(printf '%b' "$(printf '\\x%02x\\x00' "$sel")"
				for f in "${parts[@]}"; do
					n=0
					[[ -f $f ]] && n=$(stat -c %s "$f")
					printf '%b' "$(printf '\\x%02x\\x%02x' $((n >> 8 & 255)) $((n & 255)))"
					[[ -f $f ]] && cat "$f"
				done
				cat "$base-Data.db")
		fi
	done <test/data/sstables/MANIFEST.tsv
fi

# the empty partition index Cassandra writes: a root node, two empty keys,
# keys_pos 1, key count 0, root 0
put_seed partitions-empty < <(printf '\x00\x00\x00\x00\x00'
	printf '\x00\x00\x00\x00\x00\x00\x00\x01'
	printf '\x00%.0s' {1..16})

# CompressionInfo.db of ScyllaDB's compressors with dictionaries (the real
# files have no options): me's layout, ZstdWithDicts, its two parts out of
# order around another option; na's, LZ4WithDicts, the parts in order;
# each followed by a Data.db of one chunk that is not theirs
utf() {
	printf '%b' "$(printf '\\x%02x\\x%02x' $((${#1} >> 8)) $((${#1} & 255)))"
	printf '%s' "$1"
}
put_seed cinfo-dict-zstd < <(printf '\x0c\x00'
	utf ZstdWithDictsCompressor
	printf '\x00\x00\x00\x03'
	utf .dictionary.00000001
	utf world
	utf crc_check_chance
	utf 1.0
	utf .dictionary.00000000
	utf hello
	printf '\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00\x00\x10\x00\x00\x00\x01'
	printf '\x00%.0s' {1..8}
	printf 'sixteen bytes ..\x12\x34\x56\x78')
put_seed cinfo-dict-lz4 < <(printf '\x0f\x00'
	utf LZ4WithDictsCompressor
	printf '\x00\x00\x00\x02'
	utf .dictionary.00000000
	utf hello
	utf .dictionary.00000001
	utf world
	printf '\x00\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x10\x00\x00\x00\x01'
	printf '\x00%.0s' {1..8}
	printf 'sixteen bytes ..\x12\x34\x56\x78')

# Cassandra 6.0's CompressionInfo.db with its dictionary trailer, and
# Data.db compressed with it (fuzz_compression_dict.c: a selector, pa 0 or
# ea 1; CompressionInfo.db's BE16 length; the two files): the copies
# test/make-v60.sh writes with test/tools/recompress (dict, damaged and
# renamed), those that fit -max_len
V60=$OUT/v60
if make -s tools >/dev/null && BC_TOOLS_BUILT=1 test/make-v60.sh test/data/sstables "$V60" >/dev/null; then
	j=0
	while IFS=$'\t' read -r copy _; do
		[[ $copy == copy ]] && continue
		base=$(dirname "$OUT")/$copy
		[[ -f $base-CompressionInfo.db && -f $base-Data.db ]] || continue
		n=$(stat -c %s "$base-CompressionInfo.db")
		((n < 65536)) || continue
		j=$((j + 1))
		sel=0
		[[ ${base##*/} == ea-* ]] && sel=1
		put_seed "v60-$j" < <(printf '%b' "$(printf '\\x%02x\\x%02x\\x%02x' "$sel" $((n >> 8)) $((n & 255)))"
			cat "$base-CompressionInfo.db" "$base-Data.db")
	done <"$V60/expected.tsv"
	((j > 0)) || die "no CompressionInfo.db of test/make-v60.sh's copies"
else
	die "test/make-v60.sh failed: no seeds for Cassandra 6.0's dictionary"
fi

# the inputs of two findings (test/unit/data/test_compression_damaged.c, check_negative_max;
# test_trie_keys.c, check_inner_leaf): a chunk of a version with the max
# compressed length stored as it is, that length negative; and a
# trie-indexed SSTable whose root holds a key and a child
put_seed data-negative-max < <(printf '\x09\x00\x83\x00\x00\x10ABCDEFGHIJKLMNOP')
put_seed trie-inner-leaf < <(printf '\x04\x00\x00\x24\x01\x03\x21\x40\x02\x00\x00\x01\x61\x00\x01\x7a'
	printf '\x00\x00\x00\x00\x00\x00\x00\x06\x00\x00\x00\x00\x00\x00\x00\x02'
	printf '\x00\x00\x00\x00\x00\x00\x00\x02\x00\x06\x00\x01\x7a\x00\x01\x61')

# transaction logs as Cassandra writes them, finished and not
put_seed txn-committed < <(printf 'ADD:[/var/lib/cassandra/data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/nb-4-big,0,8][353324191]\nREMOVE:[/var/lib/cassandra/data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/nb-3-big,1700000000000,8][3158508435]\nCOMMIT:[,1700000000000,0][2613697770]\n')
# a log failing verification (a CRC wrong before the last record, a record
# twice) and one whose last record alone is damaged
put_seed txn-corrupt < <(printf 'ADD:[/d/ks/t/nb-4-big,0,8][1]\nREMOVE:[/d/ks/t/nb-3-big,1700000000000,8][0]\nREMOVE:[/d/ks/t/nb-3-big,1700000000000,8][0]\nCOMMIT:[,0,0][2613697770]\n')
put_seed txn-last < <(printf 'ADD:[/var/lib/cassandra/data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/nb-4-big,0,8][353324191]\nCOMMIT:[,0,0][2613697771]\n')
put_seed txn-name < <(printf 'nb_txn_compaction_6a3b3f20-9a94-11e8-a0e6-e9a8e4bb7a4d.log')
# ScyllaDB's pending_delete log and folders (bc_pending_delete.h, bc_sstable_dir.c)
put_seed pending-delete < <(printf 'me-6-big-TOC.txt\n\nks-cf-ka-7-TOC.txt\nme-3g8w_0zz1_2lkhs2ooj9xyh2n3fo-big-TOC.txt\n/x/me-4-big-TOC.txt\nme-5-big-Data.db\n')
put_seed pending-delete-name < <(printf 'sstables-6-7.log')
put_seed folder-tempdir < <(printf '/var/lib/scylla/data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/8.sstable')
put_seed folder-staging-tempdir < <(printf '/d/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/staging/8.sstable/9.sstable')
# cardinality estimators (fuzz_hll.c): stream-lib's (sparse, normal, the
# legacy codec) from test/data/hll/vectors.tsv.gz, ScyllaDB's form, and two
# sparse ones joined for a merge (the first byte puts the cut between them)
while IFS=$'\t' read -r _ name hex _; do
	case $name in
	p13_sp25_0_10 | p13_sp25_0_1000 | p13_sp25_0_20000 | legacy_p13_1000 | runlength_63 | unsorted_sparse)
		put_seed "hll-$name" < <(perl -e 'print pack("H*", $ARGV[0])' "$hex") ;;
	esac
done < <(zcat test/data/hll/vectors.tsv.gz | grep '^est')
put_seed hll-scylla < <(printf '\xff\xff\xff\xfe\x04\x00\x00\x10\x03\x02\x05\x01\x04\x03\x02\x01\x06\x03\x02\x01\x01\x02\x04\x02')
put_seed hll-merge < <(printf '\x7f\xff\xff\xff\xfe\x0d\x19\x01\x03\x02\x80\x01\x04\xff\xff\xff\xfe\x0d\x19\x01\x02\x04\x06')
# a folder's real path, NUL, a mount table (fuzz_mounts.c): the host's
# root and bind mounts of a folder and its parent, a chroot's (no mount at
# "/"), a container's (test/unit/node/test_mounts.c has them whole)
put_seed mounts-host < <(printf '/a/ks\0%s' '46 45 254:0 / / rw,relatime - ext4 /dev/vda rw
66 46 254:0 /srv/data /a rw,relatime - ext4 /dev/vda rw
67 46 254:0 /srv /b rw,relatime - ext4 /dev/vda rw
68 46 254:0 /srv/data /c rw,relatime - ext4 /dev/vda rw
')
put_seed mounts-chroot < <(printf '/tmp/bound/data\0%s' '42 27 0:39 / /proc rw - proc proc rw
50 27 254:0 /var/tmp/ch/tmp/live /tmp/bound rw - ext4 /dev/vda1 rw
51 27 254:0 /srv/data /srv/other rw - ext4 /dev/vda1 rw
')
put_seed mounts-parent < <(printf '/b/data/ks\0%s' '46 45 254:0 / / rw,relatime - ext4 /dev/vda rw
67 46 254:0 /srv /b rw,relatime - ext4 /dev/vda rw
')
put_seed mounts-escaped < <(printf '/mnt/a b/ks\0%s' '46 45 254:0 / / rw - ext4 /dev/vda rw
70 46 254:0 /data\040x /mnt/a\040b rw - ext4 /dev/vda rw
')
# a folder's walked path and real path (fuzz_dir.c, fuzz_place): links named
# 8.sstable and upload leading to another table, one staying in its table
put_seed place-tempdir-link < <(printf '/d/ks/a-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/8.sstable\0/d/ks/b-5a1c395e9a9411e8a0e6e9a8e4bb7a4d')
put_seed place-upload-link < <(printf '/d/ks/a-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/upload\0/d/ks/b-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/staging')
put_seed place-in-table < <(printf '/d/ks/a-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/staging\0/d/ks/a-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/quarantine')
# a pending_delete log's lines across pieces, one longer than a line can be
put_seed pending-delete-long < <(printf 'me-1-big-TOC.txt\n%05000d\nme-2-big-TOC.txt' 0)
# ScyllaDB's temporary components and 5.0 SAI's (bc_sstable_name.c)
put_seed name-scylla-hashes < <(printf 'ms-3gdv_0b5w_1wvkw2rkpbt9e0guef-big-TemporaryHashes.db.tmp')
put_seed name-scylla-toc < <(printf 'ks-cf-ka-2-TOC.txt.tmp')
put_seed name-sai < <(printf 'oa-3-big-SAI+aa+t_v_idx+PostingLists.db')

# deeply nested marshal types (fuzz_cqlkeys.c, fuzz_cql_deep): <f> <n>
# then (piece, count) pairs.  ReversedType and FrozenType 100,353 levels
# around Int32Type (f 0x27: counts 1 + 2 b^2, b = 0xe0), closed and not;
# each class in turn 9 levels at a time (f 0x24: counts 1 .. 16) around
# Int32Type, 73 in all; and the bound: FrozenType 31 and 32 times around Int32Type (f 0x25:
# counts 1 .. 32), then a value
put_seed cql-deep-reversed < <(printf '\x27\x00\x00\xe0')
put_seed cql-deep-frozen < <(printf '\x2f\x00\x01\xe0')
put_seed cql-deep-classes < <(printf '\x24\x07\x04\x08\x05\x08\x06\x08\x07\x08\x08\x08\x0a\x08\x0c\x08\x0d\x08')
put_seed cql-deep-bound < <(printf '\x25\x00\x01\x1e\x00\x00\x00\x01')
put_seed cql-deep-past < <(printf '\x25\x00\x01\x1f\x00\x00\x00\x01')

say "$nseed seeds from $i files in $SEED ($nskip over $MAX_LEN bytes left out: $LEFT_OUT)"

# ---------------------------------------------------------------------------
# Fuzz
# ---------------------------------------------------------------------------
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

STAMP=$OUT/.run-stamp
touch "$STAMP"
sleep 1 # artifacts of this run are strictly newer than the stamp

say "running for $FUZZ_SECONDS s (log: $LOG)"
start=$SECONDS
rc=0
"$BIN" -max_total_time="$FUZZ_SECONDS" -max_len=$MAX_LEN -rss_limit_mb=2048 \
	-timeout=10 -print_final_stats=1 -artifact_prefix="$ART/" \
	"$WORK" "$SEED" >"$LOG" 2>&1 || rc=$?
elapsed=$((SECONDS - start))

runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$LOG" | tail -n 1)
if [[ -z $runs ]]; then
	runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$LOG" | tail -n 1)
fi
if [[ -z $runs ]]; then
	runs=$(sed -n 's/^#\([0-9][0-9]*\)[[:space:]].*/\1/p' "$LOG" | tail -n 1)
fi
runs=${runs:-0}

mapfile -t findings < <(find "$ART" -maxdepth 1 -type f -newer "$STAMP" \
	\( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | sort)
ncrash=${#findings[@]}
if ((rc != 0 && ncrash == 0)); then
	ncrash=1 # the fuzzer failed without leaving an artifact
fi

if ((ncrash > 0)); then
	echo "---- last lines of $LOG ----"
	tail -n 60 "$LOG"
	echo "----"
	for a in "${findings[@]}"; do
		say "finding: $a ($(stat -c %s "$a") bytes)"
		if (($(stat -c %s "$a") <= 512)); then
			say "  hex: $(od -An -v -tx1 "$a" | tr -d ' \n')"
		fi
		say "  reproduce: $BIN $a"
	done
	say "$runs runs, $ncrash crashes in $elapsed s (fuzzer exit status $rc)"
	exit 1
fi
say "$runs runs, 0 crashes in $elapsed s"
}

main "$@"
exit
