#!/usr/bin/env bash
#
# test/lossless/run.sh - bloom values survive dump/restore and COPY unchanged.
#
#   bash test/lossless/run.sh
#
# Builds and installs the extension, starts a throwaway cluster and fills a
# table with filters of every kind: the empty filter, real Filter.db files
# in the old hash order ('ka') and in the swapped payload layout ('ma',
# 'me', an 'na' pre-release artifact imported as swapped/new), a BTI 'da'
# file, Cassandra's 2.5 MB BloomFilter1000 serializations, a filter of more
# than 50 MB, random bitsets (new and old order, k = 1 and k = 21, all bits
# set, ~1 MB) and a NULL.  Then it moves the table with
#   pg_dump -Fc + pg_restore           into a new database
#   pg_dump (plain SQL) + psql          into a new database
#   COPY TO / COPY FROM (text)          through a server-side file
#   COPY TO / COPY FROM (binary)        through a server-side file
# and compares every restored value with the original byte for byte: md5 of
# the text form, md5 of bloom_send, and the length (plus `=` and bloom_send
# equality in SQL for the COPY round trips, which stay in one database).
# Prints "<method>: N rows identical of N" per method and ends with
#   lossless: 4 methods, R rows each, all byte-identical

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"

# shellcheck source=test/lib/common.sh
. "$ROOT/test/lib/common.sh"

BIG_MIN_BYTES=50000000   # the big filter must be at least this large

bc_install_deps
bc_build_install >/dev/null

bc_cluster_start
DATA=$(bc_server_copy test/data/real-filters)
# Dumps (written by the clients) and COPY files (written by the server).
WORK=$BC_CLUSTER_DIR/lossless
mkdir -p "$WORK"
if [[ $(id -u) -eq 0 ]]; then
	chown postgres: "$WORK"
fi

SRC=lossless_src
createdb "$SRC"

bc_log "filling $SRC.filters"
SECONDS=0
psql -X -q -v ON_ERROR_STOP=1 -d "$SRC" -v D="$DATA" <<'SQL'
CREATE EXTENSION bloomcass;

-- n pseudo-random bytes (md5 blocks of random()).
CREATE FUNCTION rand_bytes(n int) RETURNS bytea LANGUAGE sql VOLATILE AS $$
	SELECT substring(string_agg(decode(md5(random()::text || g::text), 'hex'), ''::bytea) FROM 1 FOR n)
	FROM generate_series(0, (n - 1) / 16) g
$$;
-- A Filter.db image in the 4.0+ raw layout: BE32 hash count, BE32 word count, words.
CREATE FUNCTION filter_db(k int, words int, payload bytea) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
	SELECT int4send(k) || int4send(words) || payload
$$;

CREATE TABLE filters (id int PRIMARY KEY, kind text NOT NULL, f bloom);

INSERT INTO filters VALUES
	(1, 'empty: bloom_create(0)', bloom_create(0)),
	(2, 'ka (old order, swapped): foo-atable-ka-1',
	    bloom_import(pg_read_binary_file(:'D' || '/cassandra-test-data/bloom-filter-ka/foo-atable-ka-1-Filter.db'), 'ka')),
	(3, 'ma (swapped): legacy_ma_simple',
	    bloom_import(pg_read_binary_file(:'D' || '/cassandra-test-data/legacy-ma-legacy_ma_simple/ma-1-big-Filter.db'), 'ma')),
	(4, 'me (swapped): legacy_me_clust',
	    bloom_import(pg_read_binary_file(:'D' || '/cassandra-test-data/legacy-me-legacy_me_clust/me-1-big-Filter.db'), 'me')),
	(5, 'na compact artifact (swapped, new)',
	    bloom_import(pg_read_binary_file(:'D' || '/cassandra-test-data/legacy-na-legacy_na_simple_compact/na-1-big-Filter.db'), 'swapped', 'new')),
	(6, 'da (BTI, raw): legacy_da_simple',
	    bloom_import(pg_read_binary_file(:'D' || '/cassandra-test-data/legacy-da-legacy_da_simple/da-1-bti-Filter.db'), 'da')),
	(7, 'BloomFilter1000, 3.0 serialization (ma)',
	    bloom_import(pg_read_binary_file(:'D' || '/cassandra-test-data/serialization-3.0-BloomFilter1000/utils.BloomFilter1000.bin'), 'ma')),
	(8, 'BloomFilter1000, 4.0 serialization (na)',
	    bloom_import(pg_read_binary_file(:'D' || '/cassandra-test-data/serialization-4.0-BloomFilter1000/utils.BloomFilter1000.bin'), 'na')),
	(10, 'random bitset, k=7, 1000 words', bloom_import(filter_db(7, 1000, rand_bytes(8000)), 'oa')),
	(11, 'random bitset, old order, k=3, 333 words', bloom_import(filter_db(3, 333, rand_bytes(2664)), 'swapped', 'old')),
	(12, 'random bitset, k=1, 1 word', bloom_import(filter_db(1, 1, rand_bytes(8)), 'oa')),
	(13, 'random bitset, k=21, 17 words', bloom_import(filter_db(21, 17, rand_bytes(136)), 'oa')),
	(14, 'all bits set, k=14, 4096 words', bloom_import(filter_db(14, 4096, decode(repeat('ff', 32768), 'hex')), 'oa')),
	(15, 'random bitset, k=5, 131072 words (1 MB)', bloom_import(filter_db(5, 131072, rand_bytes(1048576)), 'oa')),
	(16, 'NULL', NULL);

INSERT INTO filters
SELECT 17, 'bloom_agg of 10000 text keys, fp 0.001, ka order', bloom_agg(md5(g::text), 0.001, 'ka')
FROM generate_series(1, 10000) g;

-- The big one: sized for 42M keys at fp 0.01 (52,500,016 Filter.db bytes),
-- holding 6.5M keys.
INSERT INTO filters
SELECT 9, 'big: bloom_agg(k, 0.01, 42000000) over 6.5M keys', bloom_agg(k, 0.01, 42000000::bigint)
FROM generate_series(1::bigint, 6500000) k;
SQL
bc_log "filled in $SECONDS s"

psql -X -v ON_ERROR_STOP=1 -d "$SRC" -c \
	"SELECT id, kind, octet_length(bloom_send(f)) AS bytes, (bloom_info(f)).hash_order,
	        (bloom_info(f)).hash_count AS k, (bloom_info(f)).bits_set
	 FROM filters ORDER BY id"

big=$(psql -X -At -v ON_ERROR_STOP=1 -d "$SRC" -c "SELECT octet_length(f::bytea) FROM filters WHERE id = 9")
if ((big < BIG_MIN_BYTES)); then
	bc_die "the big filter has $big bytes, fewer than $BIG_MIN_BYTES"
fi
bc_log "big filter: $big Filter.db bytes"

# fingerprint DB TABLE: one line per row: id, md5 of the text form, md5 of
# bloom_send, length of bloom_send (NULL values print as such).
fingerprint() {
	psql -X -At -F '|' -v ON_ERROR_STOP=1 -d "$1" -c \
		"SELECT id, coalesce(md5(f::text), 'NULL'), coalesce(md5(bloom_send(f)), 'NULL'),
		        coalesce(octet_length(bloom_send(f)), -1)
		 FROM $2 ORDER BY id"
}

fingerprint "$SRC" filters >"$WORK/orig.fp"
ROWS=$(wc -l <"$WORK/orig.fp")
((ROWS > 0)) || bc_die "no rows in the source table"

FAILED=0
METHODS=0

# compare METHOD FINGERPRINT_FILE [SQL_IDENTICAL]: count the restored rows
# whose fingerprint equals the original's; SQL_IDENTICAL, when given, is the
# count of rows found identical by `=` and bloom_send in SQL.
compare() {
	local method=$1 file=$2 sql_same=${3:-} same n_restored
	same=$(awk 'NR == FNR { orig[$0] = 1; next } ($0 in orig) { c++ } END { print c + 0 }' \
		"$WORK/orig.fp" "$file")
	n_restored=$(wc -l <"$file")
	METHODS=$((METHODS + 1))
	if ((same == ROWS && n_restored == ROWS)) && [[ -z $sql_same || $sql_same == "$ROWS" ]]; then
		printf '%s: %d rows identical of %d\n' "$method" "$same" "$ROWS"
	else
		printf '%s: %d rows identical of %d (restored rows: %d%s) FAILED\n' \
			"$method" "$same" "$ROWS" "$n_restored" "${sql_same:+, identical by = and bloom_send: $sql_same}"
		diff "$WORK/orig.fp" "$file" | head -n 20 || true
		FAILED=$((FAILED + 1))
	fi
}

# 1. pg_dump -Fc + pg_restore
bc_log "pg_dump -Fc + pg_restore"
SECONDS=0
pg_dump -Fc -d "$SRC" -f "$WORK/dump.fc"
createdb lossless_fc
pg_restore --exit-on-error -d lossless_fc "$WORK/dump.fc"
fingerprint lossless_fc filters >"$WORK/fc.fp"
compare "pg_dump -Fc + pg_restore" "$WORK/fc.fp"
bc_log "($SECONDS s, dump $(stat -c %s "$WORK/dump.fc") bytes)"

# 2. pg_dump plain SQL + psql
bc_log "pg_dump (plain) + psql"
SECONDS=0
pg_dump -Fp -d "$SRC" -f "$WORK/dump.sql"
createdb lossless_sql
psql -X -q -v ON_ERROR_STOP=1 -d lossless_sql -f "$WORK/dump.sql" >/dev/null
fingerprint lossless_sql filters >"$WORK/sql.fp"
compare "pg_dump plain + psql" "$WORK/sql.fp"
bc_log "($SECONDS s, dump $(stat -c %s "$WORK/dump.sql") bytes)"

# 3 and 4. COPY TO / FROM a server-side file, text and binary.
for format in text binary; do
	bc_log "COPY TO / FROM ($format)"
	SECONDS=0
	file=$WORK/filters.$format
	sql_same=$(psql -X -q -At -v ON_ERROR_STOP=1 -d "$SRC" <<SQL
CREATE TABLE filters_$format (LIKE filters INCLUDING ALL);
COPY filters TO '$file' WITH (FORMAT $format);
COPY filters_$format FROM '$file' WITH (FORMAT $format);
SELECT count(*) FROM filters a JOIN filters_$format b USING (id)
WHERE (a.f = b.f OR (a.f IS NULL AND b.f IS NULL))
  AND bloom_send(a.f) IS NOT DISTINCT FROM bloom_send(b.f);
SQL
	)
	fingerprint "$SRC" "filters_$format" >"$WORK/$format.fp"
	compare "COPY $format" "$WORK/$format.fp" "$sql_same"
	bc_log "($SECONDS s, file $(stat -c %s "$file") bytes)"
done

bc_cluster_stop || FAILED=$((FAILED + 1))

if ((FAILED > 0)); then
	printf 'lossless: %d of %d methods FAILED (%d rows each)\n' "$FAILED" "$METHODS" "$ROWS"
	exit 1
fi
printf 'lossless: %d methods, %d rows each, all byte-identical\n' "$METHODS" "$ROWS"
