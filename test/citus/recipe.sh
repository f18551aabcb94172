# shellcheck shell=bash
#
# test/citus/recipe.sh - README.md's Citus recipe for bloomcass-load, as
# written, on the Citus cluster of test/citus.sh (which sources this file
# with its nodes running and its check/expect/q helpers defined).
#
#   1. bloomcass-load once on an empty folder, as the superuser;
#   2. the README's ```sql block holding create_distributed_table, run as
#      it stands;
#   3. a role with SELECT, INSERT, DELETE on the two tables (nothing else)
#      loads test/data/sstables with --label and --keys;
#   4. the same load into a plain database (no Citus) of the coordinator's
#      server; the two tables are distributed and colocated, their rows are
#      in the workers' shards, and they hold what the plain database holds:
#      the same row counts and the same checksum of every column but
#      loaded_at.

RECIPE_DIR=$BC_CITUS_DIR/recipe
mkdir -p "$RECIPE_DIR/empty"
cp -R test/data/sstables "$RECIPE_DIR/sstables"
chmod -R a+rX "$RECIPE_DIR"

# 1. the client once, on an empty folder
rc=0
"$LOAD" -q "$RECIPE_DIR/empty" >"$RECIPE_DIR/empty.log" 2>&1 || rc=$?
expect "recipe: bloomcass-load on an empty folder makes the tables, warns of no SSTable (exit status 5)" \
	"$rc $(grep -c "^bloomcass-load: warning: no live SSTable found in $RECIPE_DIR/empty\$" "$RECIPE_DIR/empty.log")" "5 1"
[[ $rc == 5 ]] || cat "$RECIPE_DIR/empty.log"

# 2. the README's statements
awk '/^```sql$/ { inside = 1; block = ""; next }
     /^```$/ { if (inside && block ~ /create_distributed_table/) printf "%s", block; inside = 0; next }
     inside { block = block $0 "\n" }' README.md >"$RECIPE_DIR/readme.sql"
expect "recipe: README.md has a create_distributed_table block for both tables" \
	"$(grep -oE "create_distributed_table\('[a-z_]+'" "$RECIPE_DIR/readme.sql" | paste -sd' ')" \
	"create_distributed_table('cassandra_sstable_files' create_distributed_table('cassandra_sstable_files_keys'"
printf '    (the README'"'"'s statements:)\n'
sed 's/^/    | /' "$RECIPE_DIR/readme.sql"
rc=0
q -f "$RECIPE_DIR/readme.sql" >"$RECIPE_DIR/readme.log" 2>&1 || rc=$?
check "recipe: the README's create_distributed_table statements run" "$rc" \
	"$(sed 's/^/    /' "$RECIPE_DIR/readme.log")"

# 3. the loader role, then its load
q -c 'CREATE ROLE loader LOGIN'
for t in cassandra_sstable_files cassandra_sstable_files_keys; do
	rc=0
	q -c "GRANT SELECT, INSERT, DELETE ON $t TO loader" >"$RECIPE_DIR/grant.log" 2>&1 || rc=$?
	check "recipe: SELECT, INSERT, DELETE on $t granted to the loader" "$rc" "$(cat "$RECIPE_DIR/grant.log")"
done
rc_dist=0
"$LOAD" -U loader --label n1 --keys "$RECIPE_DIR/sstables" >"$RECIPE_DIR/dist.log" 2>&1 || rc_dist=$?
printf '    distributed load: exit status %s, %s\n' "$rc_dist" "$(grep -Eo '[0-9]+ SSTables: .*' "$RECIPE_DIR/dist.log" | tail -n 1)"
grep -v ': not loaded$' "$RECIPE_DIR/dist.log" | grep -v 'SSTables: ' | head -n 20 | sed 's/^/    | /' || true

# 4. the same into a plain database, as the superuser
q -c 'CREATE DATABASE plain'
q -d plain -c 'CREATE EXTENSION bloomcass'
rc_plain=0
"$LOAD" -d plain --label n1 --keys "$RECIPE_DIR/sstables" >"$RECIPE_DIR/plain.log" 2>&1 || rc_plain=$?
printf '    plain load: exit status %s, %s\n' "$rc_plain" "$(grep -Eo '[0-9]+ SSTables: .*' "$RECIPE_DIR/plain.log" | tail -n 1)"
expect "recipe: the distributed load ends as the plain one (exit status)" "$rc_dist" "$rc_plain"
expect "recipe: the same SSTables fail to load in both" \
	"$(grep -c ': not loaded$' "$RECIPE_DIR/dist.log" || true)" "$(grep -c ': not loaded$' "$RECIPE_DIR/plain.log" || true)"

expect "recipe: both tables distributed by label, colocated" \
	"$(q -c "SELECT count(*) || ' ' || count(DISTINCT colocationid) || ' ' || string_agg(DISTINCT column_to_column_name(logicalrelid, partkey), ',')
	         FROM pg_dist_partition
	         WHERE logicalrelid::text IN ('cassandra_sstable_files', 'cassandra_sstable_files_keys')" 2>&1)" \
	"2 1 label"

# count and checksum of a table's rows, every column but loaded_at
summary_sql() {
	printf "SELECT count(*) || ' ' || coalesce(md5(string_agg(r, ',' ORDER BY r)), '-') FROM (SELECT (to_jsonb(t) - 'loaded_at')::text AS r FROM %s t) s" "$1"
}
for t in cassandra_sstable_files cassandra_sstable_files_keys; do
	plain=$(q -d plain -c "$(summary_sql "$t")" 2>&1 || true)
	dist=$(q -c "$(summary_sql "$t")" 2>&1 || true)
	expect "recipe: $t, distributed, holds the plain load's rows (count and checksum)" "$dist" "$plain"
	n=$(q -d plain -c "SELECT count(*) FROM $t")
	expect "recipe: $t: the plain load has rows" "$((n > 100))" 1
	expect "recipe: $t: the workers' shards hold the plain load's number of rows" \
		"$(q -c "SELECT sum(result::bigint) FROM run_command_on_shards('$t', 'SELECT count(*) FROM %s')" 2>&1 || true)" "$n"
done
