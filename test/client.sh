#!/usr/bin/env bash
#
# test/client.sh - tests of bloomcass-load against a throwaway cluster:
# loads as a role with table privileges only, compares the rows with
# cassandra_sstables() run by the superuser on the same directories, and
# checks interruption, re-runs, broken SSTables, connection errors and the
# progress output.  Ends with "client: N passed, M failed".
#
set -euo pipefail
cd "$(dirname "$0")/.."
. test/lib/common.sh

bc_lock

: "${PG_CONFIG:=$(command -v pg_config || true)}"
[[ -n $PG_CONFIG ]] || bc_die "no pg_config"
export PG_CONFIG PATH="$("$PG_CONFIG" --bindir):$PATH"

make -s -j2 PG_CONFIG="$PG_CONFIG" >/dev/null
make -s PG_CONFIG="$PG_CONFIG" install >/dev/null
LOAD=$PWD/bloomcass-load
[[ -x $LOAD ]] || bc_die "make did not build bloomcass-load"

PASSED=0
FAILED=0
# a failed expect prints the output of the last run (run, below)
LAST_LOG=
q() { PGOPTIONS='-c client_min_messages=error' psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }

bc_cluster_start
SST=$(bc_server_copy test/data/sstables)
DSX=$(bc_server_copy test/data/sstables-datastax)
NODE=$BC_CLUSTER_DIR/files/node
test/make-node.sh "$SST" "$NODE"
# copies in every compressor, with ScyllaDB's quirks, and damaged ones
CODECS=$BC_CLUSTER_DIR/files/codecs
test/make-codecs.sh "$SST" "$CODECS"
# hostile copies: positions and lengths one component gives another
HOSTILE=$BC_CLUSTER_DIR/files/hostile
test/make-hostile.sh "$SST" "$HOSTILE"
[[ $(id -u) -ne 0 ]] || chown -R postgres: "$BC_CLUSTER_DIR/files"
T=$BC_CLUSTER_DIR/files/work
mkdir -p "$T"
chmod a+rwx "$T"

# a database without the extension: said so, before anything is created
q -c 'CREATE DATABASE noext'
rc=0
"$LOAD" -d noext --label x "$T" >"$T/noext.log" 2>&1 || rc=$?
expect "no extension: exit status 2" "$rc" 2
expect "no extension: the message (and nothing else)" "$(cat "$T/noext.log")" \
	'bloomcass-load: the bloomcass extension is not installed in database "noext": run CREATE EXTENSION bloomcass'
expect "no extension: no table created" "$(q -d noext -c "SELECT count(*) FROM pg_class WHERE relname LIKE 'cassandra_sstable_files%'")" 0

q -c 'CREATE EXTENSION bloomcass'
# the tables, made once by the superuser running the client on an empty
# folder (without --keys); the loader only gets rights on them.  A folder
# without SSTables is warned of, even with --quiet, with exit status 5
rc=0
"$LOAD" -q "$T" >"$T/empty.log" 2>&1 || rc=$?
expect "no SSTable: the superuser creates the tables (exit status 5)" "$rc" 5
expect "no SSTable: a warning naming the folder, then the summary" "$(sed -E 's/in [0-9.]+ s$/in T s/' "$T/empty.log")" \
"bloomcass-load: warning: no live SSTable found in $T
bloomcass-load: 0 SSTables: 0 loaded, 0 unchanged, 0 failed, 0 not done; 0 removed; 0 B sent in T s"
expect "store once: a new table has filter, and no filter_db" \
	"$(q -c "SELECT string_agg(attname, ' ' ORDER BY attname) FROM pg_attribute WHERE attrelid = 'cassandra_sstable_files'::regclass AND attname LIKE 'filter%' AND NOT attisdropped")" \
	"filter filter_db_bytes"
expect "the first run on an empty folder creates both tables, without --keys" \
	"$(q -c "SELECT to_regclass('cassandra_sstable_files') IS NOT NULL AND to_regclass('cassandra_sstable_files_keys') IS NOT NULL")" t
q -c "CREATE ROLE loader LOGIN" \
	-c "GRANT SELECT, INSERT, DELETE ON cassandra_sstable_files, cassandra_sstable_files_keys TO loader" \
	-c "REVOKE TEMPORARY ON DATABASE $PGDATABASE FROM PUBLIC"
expect "the loader has no server file privileges" \
	"$(q -c "SELECT pg_has_role('loader', 'pg_read_server_files', 'member')")" f
expect "the loader cannot create temporary tables" \
	"$(q -c "SELECT has_database_privilege('loader', current_database(), 'TEMPORARY')")" f

# run LOG ARGS...: bloomcass-load as the loader, output in LOG; sets RC
run() {
	local log=$1
	shift
	RC=0
	LAST_LOG=$log
	"$LOAD" -U loader "$@" >"$log" 2>&1 || RC=$?
}

# compare LABEL DIR EXCLUDE: rows of LABEL that differ from cassandra_sstables(DIR)
# (every shared column), and rows of either side missing from the other,
# leaving out paths matching EXCLUDE (a regular expression)
compare() {
	q -c "
	WITH s AS (SELECT * FROM cassandra_sstables('$2') WHERE path !~ '$3'),
	     l AS (SELECT * FROM cassandra_sstable_files WHERE label = '$1' AND path !~ '$3')
	SELECT coalesce(s.path, l.path) FROM s FULL JOIN l USING (path)
	WHERE s.path IS NULL OR l.path IS NULL OR
	  (s.keyspace, s.table_name, s.version, s.generation, s.format, s.state, s.snapshot,
	   s.components, s.filter::text, s.partitioner, s.fp_chance, s.partitions, s.key_type,
	   s.first_key, s.last_key, s.filter_db_bytes, s.data_db_bytes, s.modified)
	  IS DISTINCT FROM
	  (l.keyspace, l.table_name, l.version, l.generation, l.format, l.state, l.snapshot,
	   l.components, l.filter::text, l.partitioner, l.fp_chance, l.partitions, l.key_type,
	   l.first_key, l.last_key, l.filter_db_bytes, l.data_db_bytes, l.modified)"
}
# rows of LABEL (of TABLE, default cassandra_sstable_files) whose filter
# does not give back the file's bytes (or is missing); an SSTable of a
# version before 1.2 (a .. hf: no filter read, as cassandra_sstables) has none
filter_bytes_differ() {
	q -c "SELECT count(*) FROM ${3:-cassandra_sstable_files}
	      WHERE label = '$1' AND path !~ '${2:-^\$}' AND bloom_export(filter, version) IS DISTINCT FROM
	        CASE WHEN 'Filter.db' = ANY (components) AND version !~ '^([a-z]|h[a-z])\$'
	             THEN pg_read_binary_file(path || '-Filter.db') END"
}
# rows of LABEL whose loaded keys are not cassandra_sstable_keys' keys
keys_differ() {
	q -c "SELECT count(*) FROM cassandra_sstable_files f WHERE label = '$1'
	      AND (SELECT array_agg(k ORDER BY k) FROM cassandra_sstable_keys(f.path) k)
	          IS DISTINCT FROM
	          (SELECT array_agg(key ORDER BY key) FROM cassandra_sstable_files_keys x
	           WHERE x.label = '$1' AND x.path = f.path)"
}
summary_of() { grep -Eo '[0-9]+ SSTables?: .*' "$1" | tail -n 1; }

# --- the test copy of the reference SSTables --------------------------------
run "$T/sst.log" --label n1 --keys "$SST"
n_all=$(q -c "SELECT count(*) FROM cassandra_sstables('$SST')")
n_rows=$(q -c "SELECT count(*) FROM cassandra_sstable_files WHERE label = 'n1'")
n_failed=$(grep -c ': not loaded$' "$T/sst.log" || true)
expect "sstables: every live SSTable loaded or reported (rows + failed = cassandra_sstables)" \
	"$((n_rows + n_failed))" "$n_all"
if ((n_failed > 0)); then expect "sstables: exit status 1 when some failed" "$RC" 1; else expect "sstables: exit status 0" "$RC" 0; fi
failed_paths=$(sed -nE 's/^bloomcass-load: (.*): not loaded$/\1/p' "$T/sst.log" | sort | paste -sd'|')
diff=$(compare n1 "$SST" "^(${failed_paths:-none})\$")
expect "sstables: rows equal cassandra_sstables() column by column" "$diff" ""
expect "sstables: bloom_export(filter, version) is the bytes of every Filter.db" "$(filter_bytes_differ n1)" 0
expect "sstables: no filter for the 5 SSTables before 1.2 (versions b, e, hb), as cassandra_sstables" "$(q -c "
	SELECT string_agg(DISTINCT version, ' ') || ' ' || count(*) FROM cassandra_sstable_files
	WHERE label = 'n1' AND filter IS NULL AND 'Filter.db' = ANY (components)")" "b e hb 5"
keys_diff=$(q -c "
	SELECT count(*) FROM cassandra_sstable_files f
	WHERE label = 'n1' AND partitions IS NOT NULL
	  AND ('Index.db' = ANY (components) OR 'Partitions.db' = ANY (components))
	  AND (SELECT array_agg(k ORDER BY k) FROM cassandra_sstable_keys(f.path) k)
	      IS DISTINCT FROM
	      (SELECT array_agg(key ORDER BY key) FROM cassandra_sstable_files_keys x
	       WHERE x.label = 'n1' AND x.path = f.path)")
expect "sstables: --keys gives every key of each Index.db and Partitions.db (cassandra_sstable_keys)" "$keys_diff" 0
expect "sstables: --keys loads the keys of the 6 trie-indexed SSTables (74 keys)" "$(q -c "
	SELECT count(DISTINCT f.path) || ' ' || count(x.key) FROM cassandra_sstable_files f
	JOIN cassandra_sstable_files_keys x ON x.label = f.label AND x.path = f.path
	WHERE f.label = 'n1' AND f.format = 'bti'")" "6 74"
expect "sstables: keys were loaded" "$(q -c "SELECT count(*) > 1000 FROM cassandra_sstable_files_keys WHERE label = 'n1'")" t
# typed probes on the loaded rows, by their key_type: every loaded key as its
# CQL text answers as its bytes do; the first key of each SSTable of an
# integer key type, as a bigint, is in its filter and found by has_key (the
# key typed by Statistics.db); a value the type cannot hold is the error
expect "sstables: typed probes of every loaded key's text answer as its bytes" "$(q -c "
	SELECT count(*) || ' ' || count(*) FILTER (WHERE bloom_contains(f.filter, cassandra_key_text(x.key, f.key_type), f.key_type)
	                                                 = (f.filter @> x.key))
	FROM cassandra_sstable_files f
	JOIN cassandra_sstable_files_keys x ON x.label = f.label AND x.path = f.path
	WHERE f.label = 'n1' AND f.key_type IS NOT NULL AND f.filter IS NOT NULL")" "11440 11440"
expect "sstables: an integer key as bigint is in its filter and found (Int32Type, LongType)" "$(q -c "
	SELECT count(*) || ' ' || count(*) FILTER (WHERE bloom_contains(filter, cassandra_key_text(first_key, key_type)::bigint, key_type)
	                                             AND cassandra_sstable_has_key(path, cassandra_key_text(first_key, key_type)::bigint))
	FROM cassandra_sstable_files WHERE label = 'n1' AND key_type ~ '(Int32|Long)Type\$' AND first_key IS NOT NULL")" "18 18"
expect "sstables: a typed probe out of the key type's range: the message" "$(q -c "
	SELECT bloom_contains(filter, 3000000000, key_type) FROM cassandra_sstable_files
	WHERE label = 'n1' AND key_type ~ 'Int32Type\$' AND filter IS NOT NULL" 2>&1)" \
	"ERROR:  value 3000000000 of type bigint is out of range for CQL int (Int32Type)"
echo "    ($n_rows loaded, $n_failed failed; $(summary_of "$T/sst.log"))"
# rows of LABEL (in table $2, keys in $2_keys) whose loaded positions and
# sizes are not cassandra_sstable_partitions' (keys are unique in an SSTable)
partitions_differ() {
	q -c "SELECT count(*) FROM ${2:-cassandra_sstable_files} f
	      WHERE label = '$1' AND partitions IS NOT NULL
	        AND ('Index.db' = ANY (components) OR 'Partitions.db' = ANY (components))
	        AND CASE WHEN NOT EXISTS (SELECT FROM ${2:-cassandra_sstable_files}_keys x
	                                  WHERE x.label = '$1' AND x.path = f.path AND x.size IS NULL)
	            THEN (SELECT array_agg(row(p.key, p.position, p.size) ORDER BY p.key)
	                  FROM cassandra_sstable_partitions(f.path) p)
	                 IS DISTINCT FROM
	                 (SELECT array_agg(row(x.key, x.position, x.size) ORDER BY x.key)
	                  FROM ${2:-cassandra_sstable_files}_keys x WHERE x.label = '$1' AND x.path = f.path)
	            END"
}
expect "sstables: --keys loads each key's position and size (cassandra_sstable_partitions)" \
	"$(partitions_differ n1)" 0
# the 2 SSTables whose compressed Data.db lacks its CompressionInfo.db (TOC.txt
# lists it): their Index.db positions pass the end of Data.db, the end of
# their data is unknown: their last partition's size alone is NULL, said why
expect "sstables: a position for every key, a size for all but the last keys of 2 SSTables" \
	"$(q -c "SELECT count(*) FILTER (WHERE position IS NULL) || ' ' || string_agg(regexp_replace(path, '^.*/', '') || ':' || encode(key, 'escape'), ' ' ORDER BY path) FILTER (WHERE size IS NULL) FROM cassandra_sstable_files_keys WHERE label = 'n1'")" \
	"0 na-1-big:4 na-2-big:4"
expect "sstables: the 2 SSTables without the CompressionInfo.db TOC.txt lists load, a warning naming it" \
	"$(grep -c '^bloomcass-load: warning: .*/table1-ea3b3e6b-0d78-4913-89f2-15fcf98711d0/na-[12]-big: CompressionInfo.db is missing, which TOC.txt lists: Data.db is compressed and its uncompressed length unknown: the last partition.s size is left NULL$' "$T/sst.log")" 2
# a note is a warning, and says so; --quiet prints none (an error-free
# run: no message at all, not even the summary)
NA=$T/na-only/ks/table1-ea3b3e6b-0d78-4913-89f2-15fcf98711d0
mkdir -p "$NA"
cp -p "$SST"/cassandra-analytics/cassandra-analytics-core/src/test/resources/data/ks/table1-ea3b3e6b-0d78-4913-89f2-15fcf98711d0/na-1-big-* "$NA/"
chmod -R a+rX "$T/na-only"
run "$T/na.log" --label nav --keys "$T/na-only"
expect "the SSTable without its CompressionInfo.db: one warning, then the summary" \
	"$RC $(sed -E 's/; [^;]* sent in .*//; s|^bloomcass-load: warning: .*/na-1-big: CompressionInfo.db is missing.*|warning|' "$T/na.log" | paste -sd'|')" \
	"0 warning|bloomcass-load: 1 SSTable: 1 loaded, 0 unchanged, 0 failed, 0 not done; 0 removed"
run "$T/na-quiet.log" -q --label naq --keys "$T/na-only"
expect "--quiet: the SSTable without its CompressionInfo.db loads, and nothing is printed" \
	"$RC $(wc -c <"$T/na-quiet.log") $(q -c "SELECT count(*) FROM cassandra_sstable_files_keys WHERE label = 'naq'")" \
	"0 0 $(q -c "SELECT count(*) FROM cassandra_sstable_files_keys WHERE label = 'n1' AND path LIKE '%/table1-ea3b3e6b-0d78-4913-89f2-15fcf98711d0/na-1-big'")"

# --- DataStax's trie-indexed versions aa .. cc -------------------------------
run "$T/dsx.log" --label dx --keys "$DSX"
expect "datastax: exit status 0" "$RC" 0
expect "datastax: --keys loads each key's position and size (cassandra_sstable_partitions)" \
	"$(partitions_differ dx)" 0

# --- a keys table made by 1.5: no position and size columns ----------------
# its keys keep loading alone, with a notice; once the columns are added
# (ALTER TABLE), loads fill them
q -c "CREATE TABLE old15 (LIKE cassandra_sstable_files INCLUDING ALL)" \
	-c "CREATE TABLE old15_keys (label text NOT NULL, path text NOT NULL, key bytea NOT NULL)" \
	-c "GRANT SELECT, INSERT, DELETE ON old15, old15_keys TO loader"
run "$T/old15.log" --table old15 --label o1 --keys "$DSX"
expect "1.5 keys table: exit status 0" "$RC" 0
expect "1.5 keys table: the keys load alone, with a notice" \
	"$(grep -c '"old15_keys" has no position and size columns: loading its keys alone' "$T/old15.log")" 1
expect "1.5 keys table: cassandra_sstable_keys' keys" "$(q -c "
	SELECT count(*) || ' ' || count(*) FILTER (WHERE
	       (SELECT array_agg(k ORDER BY k) FROM cassandra_sstable_keys(f.path) k)
	       IS DISTINCT FROM
	       (SELECT array_agg(key ORDER BY key) FROM old15_keys x WHERE x.label = 'o1' AND x.path = f.path))
	FROM old15 f WHERE label = 'o1'")" "18 0"
q -c "ALTER TABLE old15_keys ADD COLUMN position bigint, ADD COLUMN size bigint"
run "$T/old15b.log" --table old15 --label o2 --keys "$DSX"
expect "1.5 keys table with the columns added: exit status 0, no notice" \
	"$RC $(grep -c 'no position and size columns' "$T/old15b.log")" "0 0"
expect "1.5 keys table with the columns added: position and size loaded" \
	"$(q -c "SELECT count(*) FROM old15 WHERE label = 'o2'") $(partitions_differ o2 old15)" "18 0"
expect "datastax: rows equal cassandra_sstables() column by column" "$(compare dx "$DSX" '^$')" ""
expect "datastax: bloom_export(filter, version) is the bytes of every Filter.db" "$(filter_bytes_differ dx)" 0
expect "datastax: the 18 SSTables of 8 versions, every fact read, with their 86 keys" "$(q -c "
	SELECT count(DISTINCT f.path) || ' ' || count(DISTINCT f.version) || ' ' || count(x.key) || ' ' ||
	       bool_and(f.partitioner IS NOT NULL AND f.fp_chance = 0.01 AND f.key_type IS NOT NULL
	                AND f.first_key IS NOT NULL AND f.filter IS NOT NULL)
	FROM cassandra_sstable_files f
	JOIN cassandra_sstable_files_keys x ON x.label = f.label AND x.path = f.path
	WHERE f.label = 'dx'")" "18 8 86 true"
expect "datastax: --keys gives cassandra_sstable_keys' keys" "$(keys_differ dx)" 0

# --- a node's data folder ----------------------------------------------------
run "$T/node.log" --label n2 "$NODE/data"
broken='/broken/'
diff=$(compare n2 "$NODE/data" "$broken")
expect "node: rows equal cassandra_sstables() outside broken/" "$diff" ""
expect "node: bloom_export(filter, version) is the bytes of every Filter.db" "$(filter_bytes_differ n2 "$broken")" 0
expect "node: only live SSTables (no snapshot, backup, temporary, obsolete)" \
	"$(q -c "SELECT count(*) FROM cassandra_sstable_files WHERE label = 'n2' AND (state <> 'live' OR path ~ '/(snapshots|backups)/|nb-[235]-big\$|tmp-')")" 0
got=$(sed -nE 's/^bloomcass-load: (.*): not loaded$/\1/p' "$T/node.log" | sed 's|.*/||' | sort | paste -sd' ')
expect "node: the broken SSTables are reported and skipped" "$got" "nb-1-big nb-2-big nb-3-big"
expect "node: a corrupt Statistics.db is named" "$(grep -c 'broken.*nb-1-big: Statistics.db: ' "$T/node.log")" 1
expect "node: exit status 1" "$RC" 1

# --- what else a node's table folder holds (make-node.sh's extras) -----------
# SAI and SASI components, no Filter.db (fp_chance 1, and 0.01), ScyllaDB's
# TOC.txt.tmp, TemporaryHashes.db.tmp and Statistics.db.tmp, and its
# staging/, quarantine/, upload/ and pending_delete/ subfolders: the
# SSTables the table reads (live, staging, quarantine) loaded as listed,
# the others not (one a pending_delete log names, one in 8.sstable/), and
# nothing to warn about
run "$T/extras.log" --label ex --keys --verbose "$NODE/extras"
expect "extras: exit status 0" "$RC" 0
expect "extras: rows equal cassandra_sstables() column by column" "$(compare ex "$NODE/extras" '^$')" ""
expect "extras: the 9 SSTables the tables read loaded, with their table and state" "$(q -c "
	SELECT string_agg(table_name || ':' || state || ':' || regexp_replace(path, '.*/', ''), ' '
	                  ORDER BY path COLLATE \"C\") FROM cassandra_sstable_files
	WHERE label = 'ex'")" "s:live:me-1-big s:live:me-7-big s:quarantine:me-4-big s:staging:me-2-big t:live:me-7-big t:live:nb-1-big t:live:nb-2-big t:live:nb-3-big t:live:nb-4-big"
expect "extras: bloom_export(filter, version) is the bytes of every Filter.db, NULL without one" "$(filter_bytes_differ ex)" 0
expect "extras: without Filter.db, no filter and fp_chance 1 and 0.01, keys loaded" "$(q -c "
	SELECT string_agg(regexp_replace(f.path, '.*/', '') || ':' || f.fp_chance || ':' ||
	                  (SELECT count(*) FROM cassandra_sstable_files_keys x
	                   WHERE x.label = 'ex' AND x.path = f.path), ' ' ORDER BY f.path)
	FROM cassandra_sstable_files f
	WHERE label = 'ex' AND filter IS NULL")" "nb-3-big:1:5 nb-4-big:0.01:5"
got=$(sed -nE 's/^not loaded \((.*)\): .*\/(.*)$/\2 \1/p' "$T/extras.log" | sort | paste -sd' ')
expect "extras: ScyllaDB's unfinished SSTables (temporary), deleted (obsolete) and upload/'s not loaded" "$got" \
	"me-3-big temporary me-5-big temporary me-5-big upload me-6-big obsolete me-8-big temporary ms-6-big temporary"
expect "extras: no warning" "$(grep -ci 'warn\|skipping\|cannot\|error' "$T/extras.log" || true)" 0

# --- Data.db in every compressor, ScyllaDB's quirks, damaged copies ---------
# codecs/expected.tsv: each copy (relative to files/) and its source
FILES=$BC_CLUSTER_DIR/files
q -c "CREATE TABLE codec_copies AS
	SELECT '$FILES/' || f[1] AS copy, f[2] AS kind, f[3] AS variant, '$FILES/' || f[8] AS source
	FROM (SELECT string_to_array(l, E'\t') AS f
	      FROM regexp_split_to_table(pg_read_file('$CODECS/expected.tsv'), E'\n') WITH ORDINALITY AS t(l, n)
	      WHERE n > 1 AND l <> '') x"
# the rows of label $1 with their source's row of n1 (the whole test copy,
# loaded above), and how many of them differ in facts or keys; $2, when
# given, the copy's version as an expression of the source's (s.version)
codec_facts_differ() {
	q -c "SELECT count(*) || ' rows, ' || count(*) FILTER (WHERE
	            (f.version, f.generation, f.format, f.filter::text, f.partitioner, f.fp_chance,
	             f.partitions, f.key_type, f.first_key, f.last_key, f.filter_db_bytes)
	            IS DISTINCT FROM
	            (${2:-s.version}, s.generation, s.format, s.filter::text, s.partitioner, s.fp_chance,
	             s.partitions, s.key_type, s.first_key, s.last_key, s.filter_db_bytes)
	         OR f.partitioner IS NULL OR f.fp_chance IS NULL OR f.partitions IS NULL
	         OR (SELECT array_agg(key ORDER BY key) FROM cassandra_sstable_files_keys x
	             WHERE x.label = f.label AND x.path = f.path)
	            IS DISTINCT FROM
	            (SELECT array_agg(key ORDER BY key) FROM cassandra_sstable_files_keys x
	             WHERE x.label = 'n1' AND x.path = s.path)) || ' differ'
	      FROM codec_copies c
	      JOIN cassandra_sstable_files f ON f.label = '$1' AND f.path = c.copy
	      JOIN cassandra_sstable_files s ON s.label = 'n1' AND s.path = c.source"
}
run "$T/codecs.log" --label cd --keys "$CODECS/copies"
expect "codecs: exit status 0" "$RC" 0
expect "codecs: the 70 copies (7 SSTables, 10 variants) loaded with their 100,740 keys" "$(q -c "
	SELECT count(DISTINCT f.path) || ' ' || count(x.key) FROM cassandra_sstable_files f
	JOIN cassandra_sstable_files_keys x ON x.label = f.label AND x.path = f.path
	WHERE f.label = 'cd'")" "70 100740"
expect "codecs: rows equal cassandra_sstables() column by column" "$(compare cd "$CODECS/copies" '^$')" ""
expect "codecs: bloom_export(filter, version) is the bytes of every Filter.db" "$(filter_bytes_differ cd)" 0
expect "codecs: facts and keys equal the source's (every copy)" "$(codec_facts_differ cd)" "70 rows, 0 differ"
expect "codecs: --keys gives cassandra_sstable_keys' keys" "$(keys_differ cd)" 0

run "$T/quirks.log" --label qk --keys "$CODECS/quirks"
expect "quirks: exit status 0" "$RC" 0
expect "quirks: the 5 copies with ScyllaDB's Statistics.db and Summary.db load (1,020 keys)" "$(q -c "
	SELECT count(DISTINCT f.path) || ' ' || count(x.key) FROM cassandra_sstable_files f
	JOIN cassandra_sstable_files_keys x ON x.label = f.label AND x.path = f.path
	WHERE f.label = 'qk'")" "5 1020"
expect "quirks: rows equal cassandra_sstables() column by column" "$(compare qk "$CODECS/quirks" '^$')" ""
expect "quirks: Statistics.db facts not NULL and equal the source's, keys too" "$(codec_facts_differ qk)" "5 rows, 0 differ"
expect "quirks: the rows hold the copies' Statistics.db and Summary.db (reordered, ScyllaDB's size)" "$(q -c "
	SELECT count(*) FROM cassandra_sstable_files f JOIN codec_copies c ON c.copy = f.path
	WHERE f.label = 'qk' AND f.statistics_db = pg_read_binary_file(f.path || '-Statistics.db')
	  AND f.summary_db = pg_read_binary_file(f.path || '-Summary.db')
	  AND f.statistics_db <> pg_read_binary_file(c.source || '-Statistics.db')
	  AND f.summary_db <> pg_read_binary_file(c.source || '-Summary.db')")" 5

run "$T/corrupt-codecs.log" --label cr --keys "$CODECS/corrupt"
expect "damaged codecs: exit status 1" "$RC" 1
got=$(sed -nE 's/^bloomcass-load: (.*): not loaded$/\1/p' "$T/corrupt-codecs.log" | sed -E 's|.*/corrupt/([^/]+)/.*|\1|' | sort | paste -sd' ')
expect "damaged codecs: the 3 are reported and not loaded" "$got" "flipped truncated-info unknown-compressor"
expect "damaged codecs: a flipped byte names Data.db" \
	"$(grep -c "corrupt/flipped/.*/bb-1-bti: Data.db: Data.db chunk checksum mismatch" "$T/corrupt-codecs.log")" 1
expect "damaged codecs: a cut CompressionInfo.db is named" \
	"$(grep -c "corrupt/truncated-info/.*/bb-1-bti: CompressionInfo.db: CompressionInfo.db is truncated" "$T/corrupt-codecs.log")" 1
expect "damaged codecs: an unknown compressor names CompressionInfo.db" \
	"$(grep -c "corrupt/unknown-compressor/.*/bb-1-bti: CompressionInfo.db: Data.db is compressed with a compressor" "$T/corrupt-codecs.log")" 1
expect "damaged codecs: nothing of them in the tables" \
	"$(q -c "SELECT (SELECT count(*) FROM cassandra_sstable_files WHERE label = 'cr') + (SELECT count(*) FROM cassandra_sstable_files_keys WHERE label = 'cr')")" 0

# --- Cassandra 6.0: pa and ea (codecs/v60, test/make-v60.sh) ---------------
V60=$CODECS/v60
q -c "INSERT INTO codec_copies
	SELECT '$FILES/' || f[1], f[2], 'v60', '$FILES/' || f[3]
	FROM (SELECT string_to_array(l, E'\t') AS f
	      FROM regexp_split_to_table(pg_read_file('$V60/expected.tsv'), E'\n') WITH ORDINALITY AS t(l, n)
	      WHERE n > 1 AND l <> '') x"
run "$T/v60-renamed.log" --label v6r --keys "$V60/renamed"
expect "6.0 renamed: exit status 0" "$RC" 0
expect "6.0 renamed: rows equal cassandra_sstables() column by column" "$(compare v6r "$V60/renamed" '^$')" ""
expect "6.0 renamed: the 8 oa and da tables as pa and ea, facts and keys the source's" \
	"$(codec_facts_differ v6r "translate(s.version, 'od', 'pe')")" "8 rows, 0 differ"
run "$T/v60-dict.log" --label v6d --keys "$V60/dict"
expect "6.0 dict: exit status 0" "$RC" 0
expect "6.0 dict: rows equal cassandra_sstables() column by column" "$(compare v6d "$V60/dict" '^$')" ""
expect "6.0 dict: zstd with a dictionary, facts and keys the source's (10,020 keys)" \
	"$(codec_facts_differ v6d "translate(s.version, 'od', 'pe')") $(q -c "SELECT count(*) FROM cassandra_sstable_files_keys WHERE label = 'v6d'")" \
	"5 rows, 0 differ 10020"
run "$T/v60-damaged.log" --label v6x --keys "$V60/damaged"
expect "6.0 damaged: exit status 1" "$RC" 1
got=$(sed -nE 's/^bloomcass-load: (.*): not loaded$/\1/p' "$T/v60-damaged.log" | sed -E 's|.*/damaged/([^/]+)/.*|\1|' | sort | paste -sd' ')
expect "6.0 damaged: the 5 are reported and not loaded" "$got" "checksum dict-id kind other-dict truncated"
expect "6.0 damaged: the 3 of CompressionInfo.db's trailer name it" \
	"$(grep -c "damaged/.*/ea-1-bti: CompressionInfo.db: CompressionInfo.db" "$T/v60-damaged.log")" 3
expect "6.0 damaged: the 2 only zstd notices name Data.db and the dictionary" \
	"$(grep -Ec "damaged/(dict-id|other-dict)/.*/ea-1-bti: Data.db: Data.db chunk was compressed with another zstd dictionary" "$T/v60-damaged.log")" 2
expect "6.0 damaged: the trailer's id (covered by its checksum only) loads as the source, keys too" \
	"$(codec_facts_differ v6x "translate(s.version, 'od', 'pe')") $(q -c "SELECT count(*) FROM cassandra_sstable_files_keys WHERE label = 'v6x'")" \
	"1 rows, 0 differ 5"

# --- components whose positions and lengths another cannot hold -------------
# (test/make-hostile.sh, components; the server alike: sql/22_components.sql)
run "$T/components.log" --label hc --keys "$HOSTILE/components"
expect "components: exit status 1" "$RC" 1
got=$(sed -nE 's/^bloomcass-load: (.*): not loaded$/\1/p' "$T/components.log" | sed -E 's|.*/components/([^/]+)/.*|\1|' | sort | paste -sd' ')
expect "components: the damaged ones are reported and not loaded" "$got" \
	"chunk-data-2p30 data-length data-length data-length data-length data-length data-length index-first-position index-keylen index-order leaf-hash summary-crafted"
expect "components: a data length past chunk count * chunk length names CompressionInfo.db (mc, nb, oa, da, pa, ea; before: sizes of 70 TB stored)" \
	"$(grep -Ec "components/data-length/((mc-2|nb-1|oa-1|pa-1)-big|(da|ea)-1-bti): CompressionInfo.db: CompressionInfo.db declares a data length larger than its chunks can hold" "$T/components.log")" 6
expect "components: keys out of order name Index.db" \
	"$(grep -c "components/index-order/mc-2-big: Index.db: Index.db partition keys are out of the partitioner's order" "$T/components.log")" 1
expect "components: a key length over a sampled entry names Index.db" \
	"$(grep -c "components/index-keylen/oa-13-big: Index.db: Index.db entry runs over the start of an entry that Summary.db samples" "$T/components.log")" 1
expect "components: a Summary.db sample inside an entry, at its key's bytes, names Index.db" \
	"$(grep -c "components/summary-crafted/nb-1-big: Index.db: Index.db entry runs over the start of an entry that Summary.db samples" "$T/components.log")" 1
expect "components: a first partition not at 0 names Index.db" \
	"$(grep -c "components/index-first-position/nb-1-big: Index.db: Index.db's first entry does not give Data.db position 0" "$T/components.log")" 1
expect "components: a sample inside an entry, not at its key: the 10,000 keys cassandra_sstable_keys lists" "$(q -c "
	WITH p AS (SELECT path FROM cassandra_sstable_files WHERE label = 'hc' AND path ~ '/summary-inside-entry/'),
	     l AS (SELECT key FROM cassandra_sstable_files_keys WHERE label = 'hc' AND path = (SELECT path FROM p)),
	     s AS (SELECT cassandra_sstable_keys((SELECT path FROM p)) AS key)
	SELECT (SELECT count(*) FROM l) || ' ' ||
	       (SELECT count(*) FROM ((TABLE l EXCEPT TABLE s) UNION ALL (TABLE s EXCEPT TABLE l)) d)")" "10000 0"
expect "components: a leaf's hash byte names Partitions.db" \
	"$(grep -c "components/leaf-hash/bb-1-bti: Partitions.db: a Partitions.db leaf's hash byte does not match" "$T/components.log")" 1
expect "components: a chunk past what Data.db can hold names Data.db" \
	"$(grep -c "components/chunk-data-2p30/bb-1-bti: Data.db: Data.db chunk does not decompress to its length" "$T/components.log")" 1
expect "components: chunk lengths of 2^28 to 2^30 load cassandra_sstable_keys' keys" "$(q -c "
	SELECT count(*) FILTER (WHERE f.path ~ '/chunk-2p(28|29|30)/') || ' ' ||
	       count(*) FILTER (WHERE k.keys IS DISTINCT FROM
	         (SELECT array_agg(x ORDER BY x) FROM cassandra_sstable_keys(f.path) x))
	FROM cassandra_sstable_files f
	LEFT JOIN (SELECT path, array_agg(key ORDER BY key) AS keys FROM cassandra_sstable_files_keys
	           WHERE label = 'hc' GROUP BY path) k USING (path)
	WHERE f.label = 'hc' AND f.path ~ '/chunk-2p'")" "3 0"
expect "components: a Summary.db past Index.db's end loads its 5 keys" "$(q -c "
	SELECT count(*) FROM cassandra_sstable_files_keys WHERE label = 'hc' AND path ~ '/summary-past-index/'")" 5

# --- interrupted, then run again ---------------------------------------------
RC=0
BLOOMCASS_LOAD_TEST_SIGNAL_AT=20 "$LOAD" -U loader --label n3 --keys "$SST" >"$T/int.log" 2>&1 || RC=$?
expect "interrupt: exit status 4" "$RC" 4
expect "interrupt: the SSTable being loaded is rolled back" \
	"$(q -c "SELECT count(*) FROM cassandra_sstable_files WHERE label = 'n3'")" 19
expect "interrupt: says it was interrupted" "$(grep -c 'interrupted' "$T/int.log")" 1
expect "interrupt: no half-written SSTable" "$(filter_bytes_differ n3)" 0
expect "interrupt: no keys of SSTables not loaded" \
	"$(q -c "SELECT count(*) FROM cassandra_sstable_files_keys k WHERE label = 'n3' AND NOT EXISTS (SELECT FROM cassandra_sstable_files f WHERE f.label = 'n3' AND f.path = k.path)")" 0
run "$T/int2.log" --label n3 --keys "$SST"
expect "interrupt: the re-run loads the rest" \
	"$(q -c "SELECT count(*) FROM cassandra_sstable_files WHERE label = 'n3'")" "$n_rows"
expect "interrupt: the re-run skips the 19 loaded" "$(grep -Eo '[0-9]+ unchanged' "$T/int2.log")" "19 unchanged"
expect "interrupt: no duplicate keys" \
	"$(q -c "SELECT (SELECT count(*) FROM cassandra_sstable_files_keys WHERE label = 'n3') - (SELECT count(*) FROM cassandra_sstable_files_keys WHERE label = 'n1')")" 0
expect "interrupt: every filter gives back its file" "$(filter_bytes_differ n3)" 0

# --- transactions in flight: interrupted, failing on the server ------------
# Without --keys the load sends an SSTable's transaction before the results
# of the one before are read.  A signal rolls back the SSTable being loaded
# only; a transaction that fails on the server (here a trigger, on the 5th,
# 6th and 9th SSTables in the walk's order) fails that SSTable alone: the
# one sent after it (which starts with a ROLLBACK) loads.
RC=0
BLOOMCASS_LOAD_TEST_SIGNAL_AT=20 "$LOAD" -U loader --label n4 "$SST" >"$T/int4.log" 2>&1 || RC=$?
expect "in flight: interrupted, exit status 4" "$RC" 4
expect "in flight: interrupted, the SSTable being loaded is rolled back" \
	"$(q -c "SELECT count(*) FROM cassandra_sstable_files WHERE label = 'n4'")" 19
expect "in flight: interrupted, no half-written SSTable" "$(filter_bytes_differ n4)" 0
mapfile -t walked < <(q -c "SELECT path FROM cassandra_sstable_files WHERE label = 'n1' ORDER BY loaded_at")
q -c "CREATE FUNCTION bc_test_fail_some() RETURNS trigger LANGUAGE plpgsql AS \$\$
	BEGIN
		IF NEW.label = 'nf' AND NEW.path IN ('${walked[4]}', '${walked[5]}', '${walked[8]}') THEN
			RAISE EXCEPTION 'refused by a trigger';
		END IF;
		RETURN NEW;
	END \$\$;
	CREATE TRIGGER fail_some BEFORE INSERT ON cassandra_sstable_files
		FOR EACH ROW EXECUTE FUNCTION bc_test_fail_some()" >/dev/null
RC=0
"$LOAD" -U loader --label nf "$SST" >"$T/fail.log" 2>&1 || RC=$?
q -c "DROP TRIGGER fail_some ON cassandra_sstable_files; DROP FUNCTION bc_test_fail_some()" >/dev/null
expect "in flight: failing on the server, exit status 1" "$RC" 1
expect "in flight: each failed SSTable named once, in the walk's order" \
	"$(grep -E ': (refused by a trigger|not loaded)$' "$T/fail.log" | sed -E 's/^bloomcass-load: //')" \
	"${walked[4]}: refused by a trigger
${walked[4]}: not loaded
${walked[5]}: refused by a trigger
${walked[5]}: not loaded
${walked[8]}: refused by a trigger
${walked[8]}: not loaded"
expect "in flight: failing on the server, nothing else failed" "$(grep -c '^bloomcass-load: ' "$T/fail.log")" 7
expect "in flight: failing on the server, the others loaded" \
	"$(q -c "SELECT count(*) || ' ' || count(*) FILTER (WHERE path IN ('${walked[6]}', '${walked[7]}', '${walked[9]}')) FROM cassandra_sstable_files WHERE label = 'nf'")" \
	"$((n_rows - 3)) 3"
expect "in flight: failing on the server, the summary" "$(grep -Eo '[0-9]+ loaded, [0-9]+ unchanged, [0-9]+ failed' "$T/fail.log")" \
	"$((n_rows - 3)) loaded, 0 unchanged, 3 failed"
expect "in flight: failing on the server, every filter gives back its file" "$(filter_bytes_differ nf)" 0

# --- unchanged, then one Data.db touched -------------------------------------
run "$T/again.log" --label n1 --keys "$SST"
expect "re-run: nothing re-uploaded" "$(grep -Eo '[0-9]+ loaded, [0-9]+ unchanged' "$T/again.log")" "0 loaded, $n_rows unchanged"
p=$(q -c "SELECT path FROM cassandra_sstable_files WHERE label = 'n1' AND 'Index.db' = ANY (components) ORDER BY path LIMIT 1")
before=$(q -c "SELECT loaded_at FROM cassandra_sstable_files WHERE label = 'n1' AND path = '$p'")
touch -d '2001-02-03 04:05:06' "$p-Data.db"
run "$T/touch.log" --label n1 --keys "$SST"
expect "touched Data.db: that SSTable replaced" "$(grep -Eo '[0-9]+ loaded, [0-9]+ unchanged' "$T/touch.log")" "1 loaded, $((n_rows - 1)) unchanged"
expect "touched Data.db: its row has the new time" \
	"$(q -c "SELECT modified = '2001-02-03 04:05:06'::timestamp::timestamptz AND loaded_at > '$before' FROM cassandra_sstable_files WHERE label = 'n1' AND path = '$p'")" t
expect "touched Data.db: its keys are not doubled" "$(q -c "SELECT count(*) = (SELECT count(*) FROM cassandra_sstable_keys('$p')) FROM cassandra_sstable_files_keys WHERE label = 'n1' AND path = '$p'")" t

# --- broken inputs -------------------------------------------------------------
NB=$SST/cassandra/legacy-sstables/nb/legacy_tables/legacy_nb_simple/nb-1-big
C=$T/corrupt/ks/t-77777777777777777777777777777777
mkdir -p "$C"
for f in "$NB"-*; do cp "$f" "$C/nb-1-big${f#"$NB"}"; cp "$f" "$C/nb-2-big${f#"$NB"}"; done
size=$(stat -c %s "$C/nb-1-big-Statistics.db")
printf '\x5a' | dd of="$C/nb-1-big-Statistics.db" bs=1 seek=$((size - 1)) conv=notrunc status=none
chmod -R a+rX "$T/corrupt"
run "$T/corrupt.log" --label c1 "$T/corrupt"
expect "corrupt Statistics.db CRC: exit status 1" "$RC" 1
expect "corrupt Statistics.db CRC: message names the file" \
	"$(grep -c "$C/nb-1-big: Statistics.db: " "$T/corrupt.log")" 1
expect "corrupt Statistics.db CRC: the other SSTable loads" \
	"$(q -c "SELECT string_agg(generation, ',') FROM cassandra_sstable_files WHERE label = 'c1'")" 2

chmod 000 "$C/nb-1-big-Statistics.db"
cp "$NB-Statistics.db" "$C/nb-1-big-Statistics.db" 2>/dev/null || true
chmod 000 "$C/nb-1-big-Filter.db"
RC=0
if [[ $(id -u) -eq 0 ]]; then
	chown -R postgres: "$T/corrupt"
	# a copy of the client the postgres user can run wherever the tree is
	# (a clone under /root is not)
	install -m 755 "$LOAD" "$T/bloomcass-load"
	runuser -u postgres -- "$T/bloomcass-load" -U loader --label c2 "$T/corrupt" >"$T/unreadable.log" 2>&1 || RC=$?
else
	"$LOAD" -U loader --label c2 "$T/corrupt" >"$T/unreadable.log" 2>&1 || RC=$?
fi
expect "unreadable Filter.db: exit status 1" "$RC" 1 "$T/unreadable.log"
expect "unreadable Filter.db: message names it" \
	"$(grep -c "$C/nb-1-big: cannot read Filter.db: Permission denied" "$T/unreadable.log")" 1 "$T/unreadable.log"

# transaction logs Cassandra verifies (bc_txn_log.c; sql/23_txn_logs.sql):
# one failing verification (a CRC wrong before the last record: warned,
# counted, applied as Cassandra's listing applies it) and one whose last
# record alone is damaged (warned, not counted: the operation unfinished)
X=$T/txn/ks
for t in t-88888888888888888888888888888888 t-99999999999999999999999999999999; do
	mkdir -p "$X/$t"
	for f in "$NB"-*; do cp "$f" "$X/$t/nb-1-big${f#"$NB"}"; cp "$f" "$X/$t/nb-2-big${f#"$NB"}"; done
done
V=/var/lib/cassandra/data/ks
printf 'ADD:[%s/nb-2-big,0,8][695544883]\nREMOVE:[%s/nb-1-big,1700000000000,8][3096616842]\nCOMMIT:[,0,0][2613697770]\n' \
	"$V/t-88888888888888888888888888888888" "$V/t-88888888888888888888888888888888" \
	>"$X/t-88888888888888888888888888888888/nb_txn_compaction_88888888-9a94-11e8-a0e6-e9a8e4bb7a4d.log"
printf 'ADD:[%s/nb-2-big,0,8][1146705111]\nREMOVE:[%s/nb-1-big,1700000000000,8][3263500977]\nCOMMIT:[,0,0][2613697771]\n' \
	"$V/t-99999999999999999999999999999999" "$V/t-99999999999999999999999999999999" \
	>"$X/t-99999999999999999999999999999999/nb_txn_compaction_99999999-9a94-11e8-a0e6-e9a8e4bb7a4d.log"
chmod -R a+rX "$T/txn"
[[ $(id -u) -ne 0 ]] || chown -R postgres: "$T/txn"
run "$T/txn.log" --label tx "$T/txn"
expect "txn logs: exit status 1 (a log fails verification)" "$RC" 1
expect "txn logs: the failing log is named, with its line" \
	"$(grep -c "transaction log $X/t-88888888888888888888888888888888/nb_txn_compaction_88888888-9a94-11e8-a0e6-e9a8e4bb7a4d.log fails verification at line 1: checksum mismatch" "$T/txn.log")" 1
expect "txn logs: the damaged last record is named" \
	"$(grep -c "last record of transaction log $X/t-99999999999999999999999999999999/nb_txn_compaction_99999999-9a94-11e8-a0e6-e9a8e4bb7a4d.log is invalid (line 3: checksum mismatch)" "$T/txn.log")" 1
expect "txn logs: the live SSTables as Cassandra's listing takes them" \
	"$(q -c "SELECT string_agg(substring(path from '/t-(.)[^/]*/nb-[0-9]+-big$') || ':' || generation, ',' ORDER BY path) FROM cassandra_sstable_files WHERE label = 'tx'")" "8:2,9:1"
expect "txn logs: rows equal cassandra_sstables()" "$(compare tx "$T/txn" '^$')" ""

run "$T/missing.log" --label m "$T/no-such-dir"
expect "missing directory: exit status 2" "$RC" 2
expect "missing directory: message" "$(grep -c "cannot read directory $T/no-such-dir: No such file or directory" "$T/missing.log")" 1

# --- files that are not what they should be (test/make-hostile.sh, files) ---
# a FIFO in a component's place is not a component (the walk lists regular
# files only) and is never opened (an open would wait for a writer forever;
# src/core/node/bc_open_posix.c refuses one met anyway, test/unit/node/test_open.c):
# the SSTable loads without it, or, without its Data.db, is orphaned and not
# loaded; folders linked into a lattice (d0 .. d12, two links each to the
# next: 4,096 paths) give their SSTable once
H=$BC_CLUSTER_DIR/files/hostile
test/make-hostile.sh "$SST" "$H"
got_fifo=()
for c in index summary statistics filter partitions data; do
	RC=0
	LAST_LOG=$T/fifo-$c.log
	timeout 60 "$LOAD" -U loader --label "fifo-$c" --keys "$H/files/fifo-$c" >"$LAST_LOG" 2>&1 || RC=$?
	got_fifo+=("$c:$RC:$(q -c "SELECT count(*) || '/' || count(*) FILTER (WHERE '$c' = ANY (
		SELECT lower(regexp_replace(x, '\.db$', '')) FROM unnest(components) x))
		FROM cassandra_sstable_files WHERE label = 'fifo-$c'")")
done
expect "FIFO components: no hang (exit status 0), each SSTable loaded without its FIFO (rows/with it), orphaned without Data.db (no live SSTable: 5)" \
	"${got_fifo[*]}" "index:0:1/0 summary:0:1/0 statistics:0:1/0 filter:0:1/0 partitions:0:1/0 data:5:0/0"
run "$T/lattice.log" --label lattice "$H/files/lattice/d0"
expect "lattice: the SSTable loaded once (4,096 paths)" \
	"$(q -c "SELECT count(*) || ' ' || count(DISTINCT path) FROM cassandra_sstable_files WHERE label = 'lattice'")" "1 1"
expect "lattice: each second link skipped with a message naming the path walked" \
	"$(grep -c "skipping directory $H/files/lattice/d0/\(a/\)*b: already walked as $H/files/lattice/d0/\(a/\)*a (the same directory, by another path); its SSTables are found once, in $H/files/lattice/d\(1[0-2]\|[1-9]\), in the state of a live directory\$" "$T/lattice.log")" 12

# --- failures of system calls (test/make-hostile.sh, errno): each named by
# its cause (strerror), the walk going on: components that are links to
# themselves, a link to itself, a folder past PATH_MAX
run "$T/errno.log" --label errno "$H/errno"
expect "errno: skipped with warnings, no live SSTable (exit status 1)" \
	"$RC $(grep -c "no live SSTable found in $H/errno$" "$T/errno.log")" "1 1"
expect "errno: each component linked to itself skipped, naming the cause" \
	"$(grep -c "skipping $H/errno/loop/nb-1-big-[A-Za-z.0-9]*: Too many levels of symbolic links" "$T/errno.log")" 8
expect "errno: a link to itself skipped, naming the cause" \
	"$(grep -c "skipping $H/errno/self: Too many levels of symbolic links" "$T/errno.log")" 1
expect "errno: a folder past PATH_MAX skipped, naming the cause" \
	"$(grep -c "skipping directory $H/errno/deep/d*/.*: File name too long" "$T/errno.log")" 1
run "$T/errno-root.log" --label errno "$H/errno/self"
expect "errno: a link to itself as the folder to load (exit status 2, the cause)" \
	"$RC $(grep -c "cannot read directory $H/errno/self: Too many levels of symbolic links" "$T/errno-root.log")" "2 1"

# --- a living node: SSTables deleted, half gone, replaced; links ------------
# (src/client/prune.c) After each round the label's rows and keys equal those
# of a fresh load of what is on disk (every column but label and loaded_at),
# and cassandra_sstables() gives the same rows.  An SSTable's path is the
# real path of its folder: live/data/ks2 is a link to another disk, live/link
# a link to live/data.
LIVE=$T/live
T1=$LIVE/data/ks1/t1-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
T2=$LIVE/disk2/ks2/t2-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
NBC=$SST/cassandra/legacy-sstables/nb/legacy_tables/legacy_nb_clust/nb-1-big
# copy_as FROM_PREFIX TO_PREFIX: an SSTable's files under another name
copy_as() { local f; for f in "$1"-*; do cp "$f" "$2-${f#"$1"-}"; done; }
mkdir -p "$T1" "$T2"
copy_as "$NB" "$T1/nb-1-big"; copy_as "$NBC" "$T1/nb-2-big"
copy_as "$NB" "$T1/nb-3-big"; copy_as "$NBC" "$T1/nb-4-big"
copy_as "$NBC" "$T2/nb-1-big"; copy_as "$NB" "$T2/nb-2-big"
ln -s ../disk2/ks2 "$LIVE/data/ks2"
ln -s data "$LIVE/link"
chmod -R a+rX "$LIVE"
[[ $(id -u) -ne 0 ]] || chown -R postgres: "$LIVE"
# the rows and keys of label $1 that differ from a fresh load of $2 (as the
# label 'fresh'), every column but label and loaded_at
fresh_differs() {
	q -c "DELETE FROM cassandra_sstable_files WHERE label = 'fresh'" \
		-c "DELETE FROM cassandra_sstable_files_keys WHERE label = 'fresh'"
	"$LOAD" -U loader -q --keys --label fresh "$2" >"$T/fresh.log" 2>&1 || echo "fresh load: $(cat "$T/fresh.log")"
	q -c "
	WITH a AS (SELECT path, to_jsonb(f) - 'label' - 'loaded_at' AS r FROM cassandra_sstable_files f WHERE label = '$1'),
	     b AS (SELECT path, to_jsonb(f) - 'label' - 'loaded_at' AS r FROM cassandra_sstable_files f WHERE label = 'fresh'),
	     ka AS (SELECT path, key, count(*) AS n FROM cassandra_sstable_files_keys WHERE label = '$1' GROUP BY 1, 2),
	     kb AS (SELECT path, key, count(*) AS n FROM cassandra_sstable_files_keys WHERE label = 'fresh' GROUP BY 1, 2)
	SELECT DISTINCT x FROM (
	  SELECT 'row ' || coalesce(a.path, b.path) AS x FROM a FULL JOIN b USING (path)
	  WHERE a.r IS DISTINCT FROM b.r
	  UNION ALL
	  SELECT 'keys ' || coalesce(ka.path, kb.path) FROM ka FULL JOIN kb USING (path, key)
	  WHERE ka.n IS DISTINCT FROM kb.n) d ORDER BY 1" | paste -sd' '
}
# the SSTables of label lv, by their paths from live/ on
lv_rows() {
	q -c "SELECT string_agg(regexp_replace(path, '^.*/live/', ''), ' ' ORDER BY path) FROM cassandra_sstable_files WHERE label = 'lv'"
}
removed_of() { grep -Eo 'not done; [0-9]+ removed;' "$1" | grep -Eo '[0-9]+ removed'; }
T1R=data/ks1/t1-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
T2R=disk2/ks2/t2-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb

run "$T/live0.log" --label lv --keys "$LIVE/data"
expect "living node: first load (exit status, summary)" "$RC $(summary_of "$T/live0.log" | sed 's/; [^;]* sent in .*//')" \
	"0 6 SSTables: 6 loaded, 0 unchanged, 0 failed, 0 not done; 0 removed"
expect "living node: the linked keyspace's SSTables by their real path" "$(lv_rows)" \
	"$T1R/nb-1-big $T1R/nb-2-big $T1R/nb-3-big $T1R/nb-4-big $T2R/nb-1-big $T2R/nb-2-big"
expect "living node: rows and keys those of a fresh load" "$(fresh_differs lv "$LIVE/data")" ""
expect "living node: rows equal cassandra_sstables() column by column" "$(compare lv "$LIVE/data" '^$')" ""

rm -f "$T1"/nb-2-big-*
run "$T/live1.log" --label lv --keys "$LIVE/data"
expect "deleted: exit status, 1 removed" "$RC $(removed_of "$T/live1.log")" "0 1 removed"
expect "deleted: its row and its keys gone" "$(lv_rows) $(q -c "SELECT count(*) FROM cassandra_sstable_files_keys WHERE label = 'lv' AND path ~ 'nb-2-big\$' AND path ~ '/ks1/'")" \
	"$T1R/nb-1-big $T1R/nb-3-big $T1R/nb-4-big $T2R/nb-1-big $T2R/nb-2-big 0"
expect "deleted: rows and keys those of a fresh load" "$(fresh_differs lv "$LIVE/data")" ""
expect "deleted: rows equal cassandra_sstables()" "$(compare lv "$LIVE/data" '^$')" ""

# half gone: Data.db deleted first (compaction under way): orphaned, as
# cassandra_sstables(include_inactive => true) says, and not live
rm -f "$T1/nb-3-big-Data.db"
run "$T/live2.log" --label lv --keys "$LIVE/data"
expect "half gone: orphaned in the listing" "$(q -c "SELECT state FROM cassandra_sstables('$LIVE/data', include_inactive => true) WHERE path = '$T1/nb-3-big'")" orphaned
expect "half gone: removed as orphaned" "$RC $(removed_of "$T/live2.log") $(lv_rows)" \
	"0 1 removed $T1R/nb-1-big $T1R/nb-4-big $T2R/nb-1-big $T2R/nb-2-big"
expect "half gone: rows and keys those of a fresh load" "$(fresh_differs lv "$LIVE/data")" ""

# compaction: the old generations gone, a new one written
rm -f "$T1"/nb-1-big-* "$T1"/nb-3-big-* "$T1"/nb-4-big-*
copy_as "$NBC" "$T1/nb-5-big"
chmod -R a+rX "$LIVE"
run "$T/live3.log" --label lv --keys "$LIVE/data"
expect "compaction: 1 loaded, 2 removed" "$RC $(summary_of "$T/live3.log" | sed 's/; [^;]* sent in .*//')" \
	"0 3 SSTables: 1 loaded, 2 unchanged, 0 failed, 0 not done; 2 removed"
expect "compaction: the new generation only" "$(lv_rows)" "$T1R/nb-5-big $T2R/nb-1-big $T2R/nb-2-big"
expect "compaction: rows and keys those of a fresh load" "$(fresh_differs lv "$LIVE/data")" ""
expect "compaction: rows equal cassandra_sstables()" "$(compare lv "$LIVE/data" '^$')" ""

# --no-prune keeps them; a run over another keyspace's folder does not touch them
rm -f "$T2"/nb-2-big-*
run "$T/live4.log" --label lv --keys --no-prune "$LIVE/data"
expect "--no-prune: nothing removed" "$RC $(removed_of "$T/live4.log") $(lv_rows)" \
	"0 0 removed $T1R/nb-5-big $T2R/nb-1-big $T2R/nb-2-big"
run "$T/live5.log" --label lv --keys "$LIVE/data/ks1"
expect "another keyspace's folder: its rows not touched" "$RC $(removed_of "$T/live5.log") $(lv_rows)" \
	"0 0 removed $T1R/nb-5-big $T2R/nb-1-big $T2R/nb-2-big"
run "$T/live6.log" --label lv --keys "$LIVE/link/ks2"
expect "the keyspace's folder, through the links: removed" "$RC $(removed_of "$T/live6.log") $(lv_rows)" \
	"0 1 removed $T1R/nb-5-big $T2R/nb-1-big"
expect "after prune: rows and keys those of a fresh load" "$(fresh_differs lv "$LIVE/data")" ""
expect "after prune: rows equal cassandra_sstables()" "$(compare lv "$LIVE/data" '^$')" ""

# through a link, and with "..": the same SSTables, no second row
for root in "$LIVE/link" "$LIVE/data/ks1/../../link/" "$LIVE/disk2/../link/ks1/.."; do
	run "$T/live7.log" --label lv --keys "$root"
	expect "through ${root#"$LIVE"/}: unchanged, nothing removed, no second row" \
		"$RC $(summary_of "$T/live7.log" | sed 's/; [^;]* sent in .*//') $(lv_rows)" \
		"0 2 SSTables: 0 loaded, 2 unchanged, 0 failed, 0 not done; 0 removed $T1R/nb-5-big $T2R/nb-1-big"
done
expect "through a link: rows equal cassandra_sstables() through it" "$(compare lv "$LIVE/link" '^$')" ""
expect "through a link: rows and keys those of a fresh load" "$(fresh_differs lv "$LIVE/link")" ""

# a bind mount of live/ (another mount point of the same folders: two real
# paths): the SSTables keep their paths, no second row, and
# cassandra_sstables() through it gives those paths too.  Mounting needs
# root; without it the check fails, saying so.
BOUND=$T/bound
if [[ $(id -u) -eq 0 ]] && mkdir -p "$BOUND" && mount --bind "$LIVE" "$BOUND"; then
	run "$T/live7m.log" --label lv --keys "$BOUND/data"
	expect "through a bind mount: unchanged, nothing removed, no second row" \
		"$RC $(summary_of "$T/live7m.log" | sed 's/; [^;]* sent in .*//') $(lv_rows)" \
		"0 2 SSTables: 0 loaded, 2 unchanged, 0 failed, 0 not done; 0 removed $T1R/nb-5-big $T2R/nb-1-big"
	run "$T/live7n.log" --label lv --keys "$BOUND/data/ks1"
	expect "a keyspace through a bind mount: unchanged, nothing removed" \
		"$RC $(summary_of "$T/live7n.log" | sed 's/; [^;]* sent in .*//') $(lv_rows)" \
		"0 1 SSTable: 0 loaded, 1 unchanged, 0 failed, 0 not done; 0 removed $T1R/nb-5-big $T2R/nb-1-big"
	expect "through a bind mount: cassandra_sstables() gives the same paths and rows" "$(compare lv "$BOUND/data" '^$')" ""
	expect "through a bind mount: rows and keys those of a fresh load" "$(fresh_differs lv "$BOUND/data")" ""
	umount "$BOUND"
else
	expect "through a bind mount: mount --bind (as root)" "not mounted (user $(id -un))" "mounted"
fi

# ns_private: $T bound on itself and made private (once), so that what a
# mount namespace of its own (unshare -m --propagation unchanged) mounts
# below $T stays in it: unshare's own --propagation private remounts /,
# which is no mount in a chroot (the test command runs this file in Debian
# chroots too)
ns_private() { mountpoint -q "$T" || { mount --bind "$T" "$T" && mount --make-private "$T"; }; }

# one SSTable, one path in a chroot (src/core/node/bc_mounts.c): a chroot at
# chroot/, a folder and not a mount (its root is then not in the mount
# table), made of bind mounts of /usr (bin, lib, lib64 and sbin links to
# it) and of the cluster's socket folder (which holds chroot/ itself: one
# more way to the node's folder, by its whole path), in a mount namespace
# of its own (unshare -m, its mounts gone with it); the node's folder
# srv/node bound at a/ and c/ (two bind mounts of one folder), its parent
# srv at b/.  Loaded through each and directly, under one label: the same
# 4 rows, by the paths through the chroot's root (before: through the
# socket folder's bind mount from a/, b/ and c/, through the root
# directly, 8 rows for 4 SSTables).  Needs root; without it the check
# fails, saying so.
CH=$T/chroot
CHT=srv/node/data/ks1/t1-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
mkdir -p "$CH/usr" "$CH/proc" "$CH/a" "$CH/b" "$CH/c" "$CH/$CHT" "$CH$BC_CLUSTER_DIR"
for l in bin lib lib64 sbin; do ln -sfn "usr/$l" "$CH/$l"; done
copy_as "$NB" "$CH/$CHT/nb-1-big"; copy_as "$NBC" "$CH/$CHT/nb-2-big"
copy_as "$NB" "$CH/$CHT/nb-3-big"; copy_as "$NBC" "$CH/$CHT/nb-4-big"
install -m 755 "$LOAD" "$CH/bloomcass-load"
ch_want="/$CHT/nb-1-big /$CHT/nb-2-big /$CHT/nb-3-big /$CHT/nb-4-big"
ch_ns=
if [[ $(id -u) -eq 0 ]] && ns_private; then
	unshare -m --propagation unchanged sh -c "mount --bind /usr '$CH/usr' &&
		mount --bind '$BC_CLUSTER_DIR' '$CH$BC_CLUSTER_DIR' && mount -t proc proc '$CH/proc' &&
		mount --bind '$CH/srv/node' '$CH/a' && mount --bind '$CH/srv' '$CH/b' &&
		mount --bind '$CH/srv/node' '$CH/c' && : >'$T/chroot.ready' && exec sleep 600" \
		>"$T/chroot-ns.log" 2>&1 &
	ch_ns=$!
	for _ in $(seq 100); do [[ ! -e $T/chroot.ready ]] && kill -0 "$ch_ns" 2>/dev/null || break; sleep 0.1; done
fi
if [[ -e $T/chroot.ready ]]; then
	ch_rows() { q -c "SELECT string_agg(path, ' ' ORDER BY path) FROM cassandra_sstable_files WHERE label = 'chroot'"; }
	for root in /a/data /b/node/data /c/data /srv/node/data /c/data/ks1 /b; do
		RC=0
		LAST_LOG=$T/chroot${root//\//-}.log
		nsenter -t "$ch_ns" -m -r -w chroot "$CH" /bloomcass-load -U loader --label chroot "$root" >"$LAST_LOG" 2>&1 || RC=$?
		expect "in a chroot, through $root: exit status, the 4 SSTables by the path through the chroot's root" \
			"$RC $(ch_rows)" "0 $ch_want"
		expect "in a chroot, through $root: nothing removed" "$(removed_of "$LAST_LOG")" "0 removed"
	done
else
	expect "in a chroot: unshare -m, mount --bind and chroot (as root)" \
		"not done (user $(id -un)): $(cat "$T/chroot-ns.log" 2>/dev/null)" "done"
fi
[[ -z $ch_ns ]] || { kill "$ch_ns" 2>/dev/null; wait "$ch_ns" 2>/dev/null; } || true

# the same in a container: its root a mount of its own (container/ bound
# on itself and chrooted into, so that it is listed at / with container/'s
# path as its root and the mounts outside it are not, as after pivot_root,
# which a chroot cannot do); the cluster's socket alone bound into it.
# Through each bind mount and directly: the path through the container's
# root, 4 rows (as before 1.6: the root's mount shows most of the disk).
# Needs root; without it the check fails, saying so.
CT=$T/container
mkdir -p "$CT/usr" "$CT/proc" "$CT/a" "$CT/b" "$CT/c" "$CT/$CHT" "$CT$BC_CLUSTER_DIR"
for l in bin lib lib64 sbin; do ln -sfn "usr/$l" "$CT/$l"; done
: >"$CT$BC_CLUSTER_DIR/.s.PGSQL.$PGPORT"
for f in "$CH/$CHT"/*; do cp -p "$f" "$CT/$CHT/"; done
install -m 755 "$LOAD" "$CT/bloomcass-load"
ct_ns=
if [[ $(id -u) -eq 0 ]] && ns_private; then
	unshare -m --propagation unchanged sh -c "mount --bind /usr '$CT/usr' &&
		mount --bind '$BC_CLUSTER_DIR/.s.PGSQL.$PGPORT' '$CT$BC_CLUSTER_DIR/.s.PGSQL.$PGPORT' &&
		mount --rbind '$CT' '$CT' && mount -t proc proc '$CT/proc' &&
		mount --bind '$CT/srv/node' '$CT/a' && mount --bind '$CT/srv' '$CT/b' &&
		mount --bind '$CT/srv/node' '$CT/c' && : >'$CT/ready' && exec chroot '$CT' sleep 600" \
		>"$T/container-ns.log" 2>&1 &
	ct_ns=$!
	for _ in $(seq 100); do [[ ! -e $CT/ready ]] && kill -0 "$ct_ns" 2>/dev/null || break; sleep 0.1; done
fi
if [[ -e $CT/ready ]]; then
	# (its root: container/'s path, from the root of the whole filesystem)
	ct_root=$(nsenter -t "$ct_ns" -m -r -w cat /proc/self/mountinfo | awk '$5 == "/" { print $4 }')
	expect "in a container: its root a mount listed at /, container/" \
		"$([[ $ct_root == *"$CT" ]] && echo container/ || echo "$ct_root")" container/
	ct_rows() { q -c "SELECT string_agg(path, ' ' ORDER BY path) FROM cassandra_sstable_files WHERE label = 'container'"; }
	for root in /a/data /b/node/data /c/data /srv/node/data /b; do
		RC=0
		LAST_LOG=$T/container${root//\//-}.log
		nsenter -t "$ct_ns" -m -r -w /bloomcass-load -U loader --label container "$root" >"$LAST_LOG" 2>&1 || RC=$?
		expect "in a container, through $root: exit status, the 4 SSTables by the path through its root, nothing removed" \
			"$RC $(ct_rows) $(removed_of "$LAST_LOG")" "0 $ch_want 0 removed"
	done
else
	expect "in a container: unshare -m, mount --bind and chroot (as root)" \
		"not done (user $(id -un)): $(cat "$T/container-ns.log" 2>/dev/null)" "done"
fi
[[ -z $ct_ns ]] || { kill "$ct_ns" 2>/dev/null; wait "$ct_ns" 2>/dev/null; } || true

# rows an earlier version stored by the path walked (through the link):
# in scope (below the folder given), not seen, removed
q -c "CREATE TEMP TABLE old AS SELECT * FROM cassandra_sstable_files WHERE label = 'lv' AND path ~ '/live/disk2/'" \
	-c "UPDATE old SET path = replace(path, '/live/disk2/', '/live/data/')" \
	-c "INSERT INTO cassandra_sstable_files SELECT * FROM old"
run "$T/live8.log" --label lv --keys "$LIVE/data"
expect "a row by a link's path (an earlier version's): removed" "$RC $(removed_of "$T/live8.log") $(lv_rows)" \
	"0 1 removed $T1R/nb-5-big $T2R/nb-1-big"

# a folder that cannot be read keeps its rows (as the postgres user: root
# reads anyway)
rm -f "$T2"/nb-1-big-*
chmod 000 "$T2"
RC=0
if [[ $(id -u) -eq 0 ]]; then
	install -m 755 "$LOAD" "$T/bloomcass-load"
	runuser -u postgres -- "$T/bloomcass-load" -U loader --label lv --keys "$LIVE/data" >"$T/live9.log" 2>&1 || RC=$?
else
	"$LOAD" -U loader --label lv --keys "$LIVE/data" >"$T/live9.log" 2>&1 || RC=$?
fi
chmod 755 "$T2"
expect "unreadable folder: exit status 1, its rows kept" "$RC $(removed_of "$T/live9.log") $(lv_rows)" \
	"1 0 removed $T1R/nb-5-big $T2R/nb-1-big" "$T/live9.log"
run "$T/live10.log" --label lv --keys "$LIVE/data"
expect "readable again: removed" "$RC $(removed_of "$T/live10.log") $(lv_rows)" "0 1 removed $T1R/nb-5-big"
expect "readable again: rows and keys those of a fresh load" "$(fresh_differs lv "$LIVE/data")" ""
expect "readable again: rows equal cassandra_sstables()" "$(compare lv "$LIVE/data" '^$')" ""

# --- a data folder without any live SSTable: a disk not mounted --------------
# (src/client/prune.c) A node of two data folders, disk1/ and disk2/, the
# second a disk (here a tmpfs mounted at disk2/ and filled with the copies
# -p of disk2-files/, in a mount namespace of its own: unshare -m).  With
# disk2/ unmounted (its mount point an empty folder, as when the disk fails
# to mount at boot) a run prunes disk1/ as usual and keeps disk2/'s rows,
# saying so (exit status 5); mounted again they are unchanged;
# --prune-empty removes them.  A folder given that is empty of live
# SSTables (all deleted) keeps its rows too.  Before: the rows below the
# empty folder removed, back on the next run.  Needs root; without it the
# check fails, saying so.
N2=$T/node2
N2T1=$N2/disk1/ks1/t1-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
N2T2=$N2/disk2-files/ks2/t2-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
mkdir -p "$N2T1" "$N2T2" "$N2/disk2"
copy_as "$NB" "$N2T1/nb-1-big"; copy_as "$NBC" "$N2T1/nb-2-big"
copy_as "$NB" "$N2T2/nb-1-big"; copy_as "$NBC" "$N2T2/nb-2-big"
un_ns=
if [[ $(id -u) -eq 0 ]] && ns_private; then
	unshare -m --propagation unchanged sh -c ": >'$T/unmounted.ready' && exec sleep 600" \
		>"$T/unmounted-ns.log" 2>&1 &
	un_ns=$!
	for _ in $(seq 100); do [[ ! -e $T/unmounted.ready ]] && kill -0 "$un_ns" 2>/dev/null || break; sleep 0.1; done
fi
# the disk mounted: the same files, the same modification times
mount_disk2() {
	nsenter -t "$un_ns" -m -r -w sh -c "mount -t tmpfs tmpfs '$N2/disk2' && cp -pR '$N2/disk2-files/.' '$N2/disk2/'"
}
if [[ -e $T/unmounted.ready ]] && mount_disk2; then
	# un_run LOG ARGS...: the loader in the namespace, label un
	un_run() {
		local log=$1
		shift
		RC=0
		LAST_LOG=$log
		nsenter -t "$un_ns" -m -r -w "$LOAD" -U loader --label un "$@" >"$log" 2>&1 || RC=$?
	}
	un_rows() {
		q -c "SELECT string_agg(regexp_replace(path, '^.*/node2/', ''), ' ' ORDER BY path) FROM cassandra_sstable_files WHERE label = 'un'"
	}
	D1R=disk1/ks1/t1-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
	D2R=disk2/ks2/t2-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb
	un_run "$T/un1.log" "$N2/disk1" "$N2/disk2"
	expect "two data folders: loaded" "$RC $(summary_of "$T/un1.log" | sed 's/; [^;]* sent in .*//') $(un_rows)" \
		"0 4 SSTables: 4 loaded, 0 unchanged, 0 failed, 0 not done; 0 removed $D1R/nb-1-big $D1R/nb-2-big $D2R/nb-1-big $D2R/nb-2-big"
	rm -f "$N2T1"/nb-2-big-*
	nsenter -t "$un_ns" -m -r -w umount "$N2/disk2"
	un_run "$T/un2.log" "$N2/disk1" "$N2/disk2"
	expect "a disk not mounted: exit status 5, the other folder pruned, its rows kept" \
		"$RC $(removed_of "$T/un2.log") $(un_rows)" \
		"5 1 removed $D1R/nb-1-big $D2R/nb-1-big $D2R/nb-2-big"
	expect "a disk not mounted: said so" "$(grep -v ' SSTables\?: ' "$T/un2.log")" \
"bloomcass-load: warning: no live SSTable found in $N2/disk2
bloomcass-load: warning: 2 rows of label \"un\" below $N2/disk2 kept (a disk not mounted leaves an empty folder; --prune-empty removes them)"
	mount_disk2
	un_run "$T/un3.log" "$N2/disk1" "$N2/disk2"
	expect "mounted again: nothing loaded, nothing removed" \
		"$RC $(summary_of "$T/un3.log" | sed 's/; [^;]* sent in .*//') $(un_rows)" \
		"0 3 SSTables: 0 loaded, 3 unchanged, 0 failed, 0 not done; 0 removed $D1R/nb-1-big $D2R/nb-1-big $D2R/nb-2-big"
	nsenter -t "$un_ns" -m -r -w umount "$N2/disk2"
	un_run "$T/un4.log" --prune-empty "$N2/disk1" "$N2/disk2"
	expect "--prune-empty: its rows removed (exit status 5)" "$RC $(removed_of "$T/un4.log") $(un_rows)" \
		"5 2 removed $D1R/nb-1-big"
	expect "--prune-empty: the warning alone" "$(grep -v ' SSTables\?: ' "$T/un4.log")" \
		"bloomcass-load: warning: no live SSTable found in $N2/disk2"
else
	expect "a disk not mounted: unshare -m and mount -t tmpfs (as root)" \
		"not done (user $(id -un)): $(cat "$T/unmounted-ns.log" 2>/dev/null)" "done"
fi
[[ -z $un_ns ]] || { kill "$un_ns" 2>/dev/null; wait "$un_ns" 2>/dev/null; } || true
! mountpoint -q "$T" || umount "$T" || umount -l "$T"
# a table folder given whose SSTables are all gone (compacted away, or
# the table dropped): kept, then --prune-empty
em_rows() {
	q -c "SELECT count(*) || ' ' || (SELECT count(*) FROM cassandra_sstable_files_keys WHERE label = 'em') FROM cassandra_sstable_files WHERE label = 'em'"
}
run "$T/em1.log" --label em --keys "$N2/disk1/ks1"
expect "a table folder: loaded (rows, keys)" "$RC $(em_rows)" "0 1 5"
rm -f "$N2T1"/nb-1-big-*
run "$T/em2.log" --label em --keys "$N2/disk1/ks1"
expect "a table folder emptied: exit status 5, its row and keys kept" "$RC $(removed_of "$T/em2.log") $(em_rows)" \
	"5 0 removed 1 5"
expect "a table folder emptied: said so" "$(grep -v ' SSTables\?: ' "$T/em2.log")" \
"bloomcass-load: warning: no live SSTable found in $N2/disk1/ks1
bloomcass-load: warning: 1 row of label \"em\" below $N2/disk1/ks1 kept (a disk not mounted leaves an empty folder; --prune-empty removes them)"
run "$T/em3.log" --label em --keys --prune-empty "$N2/disk1/ks1"
expect "a table folder emptied, --prune-empty: removed with its keys" "$RC $(removed_of "$T/em3.log") $(em_rows)" \
	"5 1 removed 0 0"

# --- links named as a table's subfolders (test/make-hostile.sh, links) ------
# tables a, b, c and d loaded; then links 8.sstable, staging and upload in
# a's folder to b's, d's and c's, walked before them: a link never changes
# what the folder it leads to is, so their SSTables stay live and loaded,
# no row is removed, and the folders met again say how they were found
# (before: b's and c's rows removed, 2 removed)
LK=$T/lnk/ks
LID=5a1c395e9a9411e8a0e6e9a8e4bb7a4d
for t in a b c d; do
	mkdir -p "$LK/$t-$LID"
	copy_as "$NB" "$LK/$t-$LID/nb-1-big"
done
chmod -R a+rX "$T/lnk"
run "$T/lnk0.log" --label lk "$LK"
expect "links: first load, 4 SSTables" "$RC $(summary_of "$T/lnk0.log" | sed 's/; [^;]* sent in .*//')" \
	"0 4 SSTables: 4 loaded, 0 unchanged, 0 failed, 0 not done; 0 removed"
ln -s "../b-$LID" "$LK/a-$LID/8.sstable"
ln -s "../d-$LID" "$LK/a-$LID/staging"
ln -s "../c-$LID" "$LK/a-$LID/upload"
run "$T/lnk1.log" --label lk "$LK"
expect "links named 8.sstable, staging, upload: nothing removed, each row live and its own table's (exit status 1: folders skipped)" \
	"$RC $(summary_of "$T/lnk1.log" | sed 's/; [^;]* sent in .*//') $(q -c "SELECT string_agg(table_name || ':' || state, ' ' ORDER BY path) FROM cassandra_sstable_files WHERE label = 'lk'")" \
	"1 4 SSTables: 0 loaded, 4 unchanged, 0 failed, 0 not done; 0 removed a:live b:live c:live d:live"
expect "links: the folders met again, each said once with where and how its SSTables were found" \
	"$(grep -c "skipping directory $LK/[bcd]-$LID: already walked as $LK/a-$LID/\(8.sstable\|staging\|upload\) (the same directory, by another path); its SSTables are found once, in $LK/[bcd]-$LID, in the state of a live directory\$" "$T/lnk1.log")" 3
expect "links: rows equal cassandra_sstables()" "$(compare lk "$LK" '^$')" ""

# --- a pending_delete log of 63 MB: read once, in pieces, however many
# names (links) it has; memory bounded by the folder, not by the log.  The
# log names 2.8 million SSTables, one of them in the folder.  Under a cap
# of address space below the log's size the load succeeds (before: about
# 200 MB of memory for the log, as much again per link: out of memory)
PD=$T/pd/ks/t-$LID
mkdir -p "$PD/pending_delete"
copy_as "$NB" "$PD/nb-1-big"
copy_as "$NB" "$PD/nb-2-big"
awk 'BEGIN { for (i = 3; i < 2800000; i++) printf "nb-%d-big-TOC.txt\n", i; print "nb-1-big-TOC.txt" }' \
	>"$PD/pending_delete/sstables-1-2800000.log"
for i in 1 2 3 4 5; do
	ln -s sstables-1-2800000.log "$PD/pending_delete/link-$i.log"
done
chmod -R a+rX "$T/pd"
RC=0
LAST_LOG=$T/pd.log
(ulimit -v $((56 * 1024)); exec "$LOAD" -U loader --label pd "$PD") >"$T/pd.log" 2>&1 || RC=$?
expect "pending_delete log of $(($(stat -c %s "$PD/pending_delete/sstables-1-2800000.log") / 1000000)) MB with 5 links, under a 56 MB address space cap: loaded, the SSTable it names obsolete" \
	"$RC $(summary_of "$T/pd.log" | sed 's/; [^;]* sent in .*//') $(q -c "SELECT string_agg(generation, ' ') FROM cassandra_sstable_files WHERE label = 'pd'")" \
	"0 1 SSTable: 1 loaded, 0 unchanged, 0 failed, 0 not done; 0 removed 2"
rm -rf "$T/pd"

# --- a table made by 1.5 (filter_db bytea beside filter), then without it ----
# the 1.5 client's CREATE TABLE (tables.c at cd1c12b), word for word
q -c "CREATE TABLE t15 (label text NOT NULL, path text NOT NULL, keyspace text, table_name text, version text, generation text, format text, state text, snapshot text, components text[], filter bloom, partitioner text, fp_chance float8, partitions bigint, key_type text, first_key bytea, last_key bytea, filter_db_bytes bigint, data_db_bytes bigint, modified timestamptz, filter_db bytea, statistics_db bytea, summary_db bytea, toc_txt bytea, keys_loaded boolean NOT NULL DEFAULT false, loaded_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (label, path))" \
	-c "CREATE TABLE t15_keys (label text NOT NULL, path text NOT NULL, key bytea NOT NULL)" \
	-c "CREATE INDEX ON t15_keys (label, path)" \
	-c "GRANT SELECT, INSERT, DELETE ON t15, t15_keys TO loader"
CLEAN=$SST/cassandra/legacy-sstables
n_clean=$(q -c "SELECT count(*) FROM cassandra_sstables('$CLEAN')")
run "$T/t15.log" -t t15 --label u15 --keys "$CLEAN"
expect "1.5 table: exit status 0" "$RC" 0
expect "1.5 table: every SSTable loaded, filter_db filled with each Filter.db's bytes" "$(q -c "
	SELECT count(*) || ' ' || count(*) FILTER (WHERE filter_db IS NOT DISTINCT FROM
	         CASE WHEN 'Filter.db' = ANY (components) THEN pg_read_binary_file(path || '-Filter.db') END)
	FROM t15 WHERE label = 'u15'")" "$n_clean $n_clean"
expect "1.5 table: bloom_export(filter, version) is filter_db" "$(filter_bytes_differ u15 '^$' t15)" 0
q -c "ALTER TABLE t15 DROP COLUMN filter_db"
run "$T/t15b.log" -t t15 --label u15b --keys "$CLEAN"
expect "1.5 table without filter_db: exit status 0" "$RC" 0
expect "1.5 table without filter_db: the rows and keys of the load before it" "$(q -c "
	WITH a AS (SELECT *, (SELECT array_agg(key ORDER BY key) FROM t15_keys k
	                      WHERE k.label = t.label AND k.path = t.path) AS keys FROM t15 t WHERE label = 'u15'),
	     b AS (SELECT *, (SELECT array_agg(key ORDER BY key) FROM t15_keys k
	                      WHERE k.label = t.label AND k.path = t.path) AS keys FROM t15 t WHERE label = 'u15b')
	SELECT count(*) FROM a FULL JOIN b USING (path)
	WHERE a.path IS NULL OR b.path IS NULL OR
	  (a.filter::text, a.partitions, a.first_key, a.last_key, a.statistics_db, a.summary_db, a.toc_txt, a.keys)
	  IS DISTINCT FROM
	  (b.filter::text, b.partitions, b.first_key, b.last_key, b.statistics_db, b.summary_db, b.toc_txt, b.keys)") $(filter_bytes_differ u15b '^$' t15)" "0 0"

# --- -t naming a table that is not one of bloomcass-load ----------------------
q -c "CREATE TABLE other (label text, path text, filter integer, note text)" \
	-c "INSERT INTO other VALUES ('x', 'y', 1, 'kept')" \
	-c "GRANT SELECT, INSERT, DELETE ON other TO loader"
run "$T/other.log" -t other --label o --keys "$CLEAN"
expect "-t other: exit status 2" "$RC" 2
expect "-t other: refused, naming the missing columns and the one of another type" "$(head -n 1 "$T/other.log")" \
	'bloomcass-load: table other is not a table of bloomcass-load (give -t another name, or let it be created): no column keyspace text, table_name text, version text, generation text, format text, state text, snapshot text, components text[], partitioner text, fp_chance double precision, partitions bigint, key_type text, first_key bytea, last_key bytea, filter_db_bytes bigint, data_db_bytes bigint, modified timestamp with time zone, statistics_db bytea, summary_db bytea, toc_txt bytea, keys_loaded boolean, loaded_at timestamp with time zone; column filter is integer, not bloom'
expect "-t other: nothing written (its row as it was, no keys table made)" \
	"$(q -c "SELECT string_agg(label || path || filter || note, ','), to_regclass('other_keys') IS NULL FROM other")" "xy1kept|t"

# --- no live SSTable in one of the folders -----------------------------------
mkdir -p "$T/empty/ks/t-00000000000000000000000000000000"
chmod -R a+rX "$T/empty"
run "$T/empty2.log" --label e2 "$T/empty" "$CLEAN"
expect "no SSTable in one folder: exit status 5, the other loaded" \
	"$RC $(q -c "SELECT count(*) FROM cassandra_sstable_files WHERE label = 'e2'")" "5 $n_clean"
expect "no SSTable in one folder: the warning names it" "$(grep -c "^bloomcass-load: warning: no live SSTable found in $T/empty\$" "$T/empty2.log")" 1

# wrong password: scram for one role, over the unix socket
q -c "SET password_encryption = 'scram-sha-256'" -c "CREATE ROLE pwuser LOGIN PASSWORD 'right'"
hba=$(q -c 'SHOW hba_file')
{ printf 'local all pwuser scram-sha-256\n'; cat "$hba"; } >"$T/hba" && cat "$T/hba" >"$hba"
q -c 'SELECT pg_reload_conf()' >/dev/null
sleep 0.3
RC=0
PGPASSWORD=wrong "$LOAD" -U pwuser --label pw "$SST" >"$T/pw.log" 2>&1 || RC=$?
expect "wrong password: exit status 2" "$RC" 2
expect "wrong password: message" "$(grep -c 'cannot connect: .*password authentication failed' "$T/pw.log")" 1

# no password anywhere (no PGPASSWORD, no password file): -w never asks,
# nor does a run without a terminal (cron); the message says where to give
# it.  On a terminal (script(1)'s pseudo-terminal) -W asks before
# connecting, a run without -w when the server wants a password, without
# echo
q -c "GRANT SELECT, INSERT, DELETE ON cassandra_sstable_files, cassandra_sstable_files_keys TO pwuser"
nopw=(env -u PGPASSWORD HOME="$T" PGPASSFILE="$T/no-pgpass")
pw_message='bloomcass-load: the server asks a password of user "pwuser": give it in PGPASSWORD or in ~/.pgpass (the file PGPASSFILE names), or run on a terminal with -W (--password) to be asked for it'
for how in -w none; do
	RC=0
	LAST_LOG=$T/nopw$how.log
	args=(-U pwuser --label pw "$CLEAN")
	[[ $how == none ]] || args=("$how" "${args[@]}")
	"${nopw[@]}" timeout 60 setsid -w "$LOAD" "${args[@]}" >"$LAST_LOG" 2>&1 </dev/null || RC=$?
	expect "no password ($how, no terminal): exit status 2, not asked" "$RC" 2
	expect "no password ($how, no terminal): libpq's message, then where to give it" \
		"$(sed -n 1p "$LAST_LOG" | grep -c '^bloomcass-load: cannot connect: .*fe_sendauth: no password supplied$') $(sed -n '2,$p' "$LAST_LOG")" \
		"1 $pw_message"
done
for how in -W none; do
	RC=0
	LAST_LOG=$T/tty-pw$how.log
	args=(-U pwuser --label "pw$how" "$CLEAN")
	[[ $how == none ]] || args=("$how" "${args[@]}")
	(sleep 2; printf 'right\n') | "${nopw[@]}" timeout 60 script -qec "'$LOAD' ${args[*]@Q}" /dev/null >"$LAST_LOG" 2>&1 || RC=$?
	expect "password on a terminal ($how): asked once, loaded" \
		"$RC $(grep -c 'Password for user pwuser: ' "$LAST_LOG") $(q -c "SELECT count(*) FROM cassandra_sstable_files WHERE label = 'pw$how'")" \
		"0 1 $n_clean"
	expect "password on a terminal ($how): not echoed" "$(grep -c right "$LAST_LOG" || true)" 0
done

# the server goes away: the load waits on a lock, its backend is terminated
q -c "BEGIN" -c "LOCK cassandra_sstable_files IN EXCLUSIVE MODE" -c "SELECT pg_sleep(4)" -c "COMMIT" >/dev/null &
locker=$!
sleep 0.5
RC=0
"$LOAD" -U loader --label gone "$SST" >"$T/gone.log" 2>&1 &
loader=$!
for _ in $(seq 50); do
	[[ $(q -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'bloomcass-load' AND wait_event_type = 'Lock'") == 1 ]] && break
	sleep 0.1
done
q -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'bloomcass-load'" >/dev/null
wait "$loader" || RC=$?
wait "$locker" || true
expect "server gone: exit status 3" "$RC" 3
expect "server gone: clear message" "$(grep -c 'connection to the server was lost' "$T/gone.log")" 1
expect "server gone: nothing half-loaded" "$(q -c "SELECT count(*) FROM cassandra_sstable_files WHERE label = 'gone'")" 0

# --- output --------------------------------------------------------------------
script -qec "'$LOAD' -U loader --label tty '$CLEAN'" /dev/null >"$T/tty.log" 2>&1 || true
expect "terminal: the progress line" \
	"$(grep -c $'\r''[0-9]*/[0-9]* SSTables, .*/s, ' "$T/tty.log" | awk '{print ($1 > 0)}')" 1
# (what script printed, when there was no progress line: no pseudo-terminal?)
grep -q $'\r''[0-9]*/[0-9]* SSTables, ' "$T/tty.log" || head -c 600 "$T/tty.log" >&2
# the progress line's last state (after its last carriage return) and the summary
last_progress() { tr '\r' '\n' <"$1" | grep -E '^[0-9]+/[0-9]+ SSTables?, ' | tail -n 1 | sed -E 's/\x1b\[K//; s/, [^,]+\/s, /, R\/s, /'; }
summary_line() { tr '\r' '\n' <"$1" | grep -E 'bloomcass-load: [0-9]+ SSTables?: ' | sed -E 's/ in [0-9.]+ s.*$//; s/\r//'; }
sent=$(summary_line "$T/tty.log" | sed -nE 's/.*; (.*) sent$/\1/p')
expect "terminal: the last progress line agrees with the summary (SSTables, bytes sent)" \
	"$(last_progress "$T/tty.log") / $(summary_line "$T/tty.log")" \
	"$n_clean/$n_clean SSTables, $sent sent, R/s, done / bloomcass-load: $n_clean SSTables: $n_clean loaded, 0 unchanged, 0 failed, 0 not done; 0 removed; $sent sent"
expect "terminal: the last line drawn once" "$(grep -o ', done' "$T/tty.log" | wc -l)" 1
script -qec "'$LOAD' -U loader --label tty '$CLEAN'" /dev/null >"$T/tty2.log" 2>&1 || true
expect "terminal, all unchanged: nothing sent, no rate" \
	"$(last_progress "$T/tty2.log" | sed 's/R\/s/&/') / $(summary_line "$T/tty2.log") / $(tr '\r' '\n' <"$T/tty2.log" | grep -c ' 0 B/s, ')" \
	"$n_clean/$n_clean SSTables, 0 B sent, R/s, done / bloomcass-load: $n_clean SSTables: 0 loaded, $n_clean unchanged, 0 failed, 0 not done; 0 removed; 0 B sent / $(tr '\r' '\n' <"$T/tty2.log" | grep -cE '^[0-9]+/[0-9]+ SSTables?, ')"
ONE=$SST/cassandra/negative-ldts-invalid-deletions-test/invalid_tombstones
script -qec "'$LOAD' -U loader --label one '$ONE'" /dev/null >"$T/one.log" 2>&1 || true
expect "one SSTable: singular words" "$(last_progress "$T/one.log" | sed -E 's/, [^,]+ sent,/, X sent,/') / $(summary_line "$T/one.log" | sed -E 's/; .* sent$//')" \
	"1/1 SSTable, X sent, R/s, done / bloomcass-load: 1 SSTable: 1 loaded, 0 unchanged, 0 failed, 0 not done"
RC=0
"$LOAD" -U loader --label pipe "$CLEAN" 2>&1 | cat >"$T/pipe.log" || true
expect "piped: one line, the summary" "$(wc -l <"$T/pipe.log") $(grep -c 'SSTables: .* loaded' "$T/pipe.log")" "1 1"
expect "piped: no progress" "$(grep -c $'\r' "$T/pipe.log" || true)" 0
RC=0
"$LOAD" -U loader --help >"$T/help.log" 2>&1 || RC=$?
expect "--help: exit status 0 and the exit statuses" "$RC $(grep -c 'Exit status' "$T/help.log")" "0 1"
expect "--help: --prune-empty, and the rows of a DATA_DIR without live SSTables kept" \
	"$(grep -c -e '--prune-empty' "$T/help.log") $(grep -c 'of, and the rows below it are kept' "$T/help.log")" "3 1"
expect "--help: -k reads Index.db, and Partitions.db of a trie-indexed SSTable" \
	"$(grep -A1 -e '--keys' "$T/help.log" | grep -c -e 'from Index.db, or from Partitions.db when trie-indexed')" 1

bc_cluster_stop || FAILED=$((FAILED + 1))
printf 'client: %d passed, %d failed\n' "$PASSED" "$FAILED"
((FAILED == 0))
