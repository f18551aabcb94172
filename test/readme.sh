#!/usr/bin/env bash
#
# test/readme.sh - every command and query of the documentation, run as
# written and compared with the output it shows: README.md first, then every
# other Markdown file of the tree (CONTRIBUTING.md, doc/*.md, test/bench/
# README.md, ...; not build/, hidden folders or test/data, whose files
# describe the reference data), in the order of their paths.  Ends with
# "readme: N passed, M failed (K blocks skipped)".
#
#   bash test/readme.sh          run the blocks, compare, report
#   bash test/readme.sh --show   the same, and print what each block printed
#                                (with the placeholders put back), to paste
#                                into the documentation after a change
#
# Conventions for the documentation (follow them in every new section):
#
# - A fenced block ```sql is run with psql, ```sh, ```bash or ```shell with
#   bash (-e -o pipefail), in the order of the files, all in one database,
#   as a user following the README from the top, then the other documents,
#   would.  Each block is a
#   session of its own: what a block creates (tables, views) the next ones
#   see; temporary tables and settings end with the block.
# - The shown output of a block is a ```text block right after it (nothing
#   but blank lines between).  It is compared exactly with what the block
#   printed (standard output and error together; psql -X, i.e. psql's
#   default settings: aligned tables, headers, "(N rows)" footers, command
#   tags such as "CREATE TABLE" or "SELECT 3").  The only leeway: spaces at
#   the ends of lines and blank lines at the end are ignored (psql pads its
#   header lines; editors strip such spaces).  A block without a ```text
#   block after it must still run without error; its output is not checked.
#   psql also gets -v ON_ERROR_STOP=1: an error ends the block, which fails.
#   A NOTICE or WARNING is shown as psql prints it when typed into
#   ("NOTICE:  ..."): the "psql:FILE:LINE: " psql puts before it when it
#   reads a file is dropped.
# - Output must not vary from run to run: no timestamps, durations, sizes of
#   temporary files or unordered rows in a shown output (ORDER BY, round()
#   the README's queries; the cluster's locale is C.UTF-8, so text sorts by
#   code point).  Nothing is filtered.
# - A block that must not run here is preceded (as its last non-blank line
#   before the fence) by
#       <!-- readme-test: skip (the reason) -->
#   which the reader does not see: the commands that set up and run the
#   whole test suite (running the suite inside itself would recurse), cron
#   lines and commands for a remote host, Citus statements (test/citus.sh
#   runs them), synopses.  A ```text block after a skipped block goes with
#   it.  Any other block (another language, no language, a ```text block
#   that follows no block) fails the stage: nothing is silently left out.
# - Placeholders are replaced before a block runs, and the real values put
#   back into its output before the comparison, by the table SUBST below:
#
#     in the documentation      here
#     /var/lib/cassandra/data   a data directory made of the 148 real
#                               SSTables of test/data/sstables from 1.2 on
#                               (test/make-data-dir.sh)
#     /srv/filters              a folder holding copies of nb-1-big-Filter.db
#                               (sstable-transformer's core/input-four) and
#                               oa-13-big-Filter.db (its clickhouse test
#                               SSTable)
#     /srv/rebuilt              an empty folder the server may write in
#     pg.example.com            the throwaway cluster's socket directory
#                               (PGPORT in the environment gives its port)
#
#   Each path is replaced by one of the same length (/tmp/bloomcass-XXXXXXXX,
#   /tmp/bc-XXXX), so that the columns of psql's tables stay aligned when
#   the placeholder is put back; a new placeholder needs the same (the
#   script checks the lengths).
#
#   The label node-07 is used as it is.  The database is "fleet", owned by
#   the role "loader" (LOGIN, no other privilege), as the README's
#   bloomcass-load command expects; psql connects as the superuser
#   "postgres" (the README's file-reading functions need EXECUTE on
#   pg_read_binary_file and pg_read_server_files, or superuser).  Shell blocks run from the repository's root with
#   Debian's default PATH (/usr/local/bin, /usr/bin, ...: not PostgreSQL's
#   bindir, so `bloomcass-load` is found through the link `make install`
#   puts in /usr/local/bin).
#
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. test/lib/common.sh
# shellcheck source=test/lib/docs.sh
. test/lib/docs.sh

SHOW=no
case ${1:-} in
'') ;;
--show) SHOW=yes ;;
*) bc_die "usage: bash test/readme.sh [--show]" ;;
esac

bc_lock

: "${PG_CONFIG:=$(command -v pg_config || true)}"
[[ -n $PG_CONFIG ]] || bc_die "no pg_config"
export PG_CONFIG PATH="$("$PG_CONFIG" --bindir):$PATH"
PSQL=$("$PG_CONFIG" --bindir)/psql
[[ -x $PSQL ]] || PSQL=$(command -v psql)

make -s -j2 PG_CONFIG="$PG_CONFIG" >/dev/null
make -s PG_CONFIG="$PG_CONFIG" install >/dev/null

# ---------------------------------------------------------------------------
# The documentation's fenced blocks: BLOCKS/NNN.body, and one line of
# BLOCKS/meta per block, its fields separated by \037 (not whitespace: a
# field may be empty): number, file, line of the opening fence, language, 1
# when only blank lines separate it from the previous block's closing fence
# in the same file, marker
# ---------------------------------------------------------------------------
# (in the cluster's directory, removed with it)
bc_cluster_start
BLOCKS=$BC_CLUSTER_DIR/readme
mkdir -p "$BLOCKS"

mapfile -t DOCS < <(bc_doc_files)
awk -v dir="$BLOCKS" '
	BEGIN { n = 0; inside = 0; adjacent = 0; marker = "" }
	FNR == 1 {
		if (inside) { print prev ": a fenced block is not closed" > "/dev/stderr"; exit 1 }
		adjacent = 0; marker = ""; prev = FILENAME
	}
	inside {
		if ($0 ~ /^[ \t]*```[ \t]*$/) { inside = 0; close(file); adjacent = 1; next }
		line = $0
		if (indent > 0 && substr(line, 1, indent) ~ /^[ \t]*$/) line = substr(line, indent + 1)
		print line > file
		next
	}
	/^[ \t]*```/ {
		match($0, /^[ \t]*/); indent = RLENGTH
		lang = $0; sub(/^[ \t]*```/, "", lang); gsub(/[ \t]/, "", lang)
		n++
		file = sprintf("%s/%03d.body", dir, n)
		printf "" > file
		printf "%03d\037%s\037%d\037%s\037%d\037%s\n", n, FILENAME, FNR, lang, adjacent, marker > (dir "/meta")
		inside = 1; adjacent = 0; marker = ""
		next
	}
	/^[ \t]*$/ { next }
	/^[ \t]*<!-- *readme-test:/ {
		m = $0; sub(/^[ \t]*<!-- *readme-test: */, "", m); sub(/ *--> *$/, "", m)
		marker = m; adjacent = 0; next
	}
	{ adjacent = 0; marker = "" }
	END { if (inside) { print FILENAME ": a fenced block is not closed" > "/dev/stderr"; exit 1 } }
' "${DOCS[@]}"
if [[ ! -s $BLOCKS/meta ]] || ! grep -q $'^[0-9]*\037README.md\037' "$BLOCKS/meta"; then
	bc_die "README.md has no fenced block"
fi

# ---------------------------------------------------------------------------
# The database and the placeholders' real values
# ---------------------------------------------------------------------------
# Each real value is exactly as long as its placeholder, so that putting the
# placeholder back keeps psql's column alignment (/tmp/bloomcass-XXXXXXXX
# has the 23 characters of /var/lib/cassandra/data, /tmp/bc-XXXX the 12 of
# /srv/filters); the folders are made outside the cluster's directory for
# that, and removed at the end.
EXTRA=()
DATA_DIR=$(mktemp -d /tmp/bloomcass-XXXXXXXX)
EXTRA+=("$DATA_DIR")
SRV_FILTERS=$(mktemp -d /tmp/bc-XXXX)
EXTRA+=("$SRV_FILTERS")
SRV_REBUILT=$(mktemp -d /tmp/bc-XXXX)
EXTRA+=("$SRV_REBUILT")
# removed before the cluster's own EXIT trap runs (which keeps the status)
trap 'rc=$?; rm -rf -- "${EXTRA[@]}"; (exit $rc); _bc_exit_trap' EXIT

test/make-data-dir.sh test/data/sstables "$DATA_DIR"
cp test/data/sstables/sstable-transformer/core/input-four/nb-1-big-Filter.db \
	test/data/sstables/sstable-transformer/clickhouse/src/test/resources/sstables/oa-13-big-Filter.db \
	"$SRV_FILTERS/"
chmod -R u+rwX,go+rX "$DATA_DIR" "$SRV_FILTERS"
chmod 755 "$SRV_REBUILT"
if [[ $(id -u) -eq 0 ]]; then
	chown -R postgres: "$DATA_DIR" "$SRV_FILTERS" "$SRV_REBUILT"
fi

"$PSQL" -X -q -v ON_ERROR_STOP=1 -c 'CREATE ROLE loader LOGIN' -c 'CREATE DATABASE fleet OWNER loader'
export PGDATABASE=fleet

# placeholder <TAB> real value
SUBST=$(printf '%s\t%s\n' \
	/var/lib/cassandra/data "$DATA_DIR" \
	/srv/filters "$SRV_FILTERS" \
	/srv/rebuilt "$SRV_REBUILT" \
	pg.example.com "$BC_CLUSTER_DIR")
while IFS=$'\t' read -r from to; do
	# the socket directory is not printed in tables: its length may differ
	[[ $from == pg.example.com || ${#from} == "${#to}" ]] ||
		bc_die "the real value of $from, $to, is not as long as the placeholder"
done <<<"$SUBST"

# substitute FILE forward|back: placeholders by real values, or back, the
# longest value first (the socket directory is a prefix of every path)
substitute() {
	local file=$1 dir=$2 text from to
	text=$(<"$file")
	while IFS=$'\t' read -r from to; do
		if [[ $dir == forward ]]; then
			text=${text//"$from"/"$to"}
		else
			text=${text//"$to"/"$from"}
		fi
	done < <(awk -F'\t' -v d="$dir" '{ print length(d == "forward" ? $1 : $2) "\t" $0 }' <<<"$SUBST" |
		sort -t$'\t' -k1,1nr | cut -f2-)
	printf '%s\n' "$text" >"$file"
}

# the output as compared: spaces at line ends and blank lines at the end dropped
normalize() {
	sed -E 's/[ \t]+$//' "$1" | awk '{ lines[NR] = $0 } END {
		n = NR; while (n > 0 && lines[n] == "") n--
		for (i = 1; i <= n; i++) print lines[i] }'
}

# ---------------------------------------------------------------------------
# Run the blocks
# ---------------------------------------------------------------------------
PASSED=0 FAILED=0 RUN=0 COMPARED=0 SKIPPED=0
SKIPS=()
mapfile -t META <"$BLOCKS/meta"
declare -A TAKEN=()

fail() { # fail NAME DETAIL
	printf 'FAILED  %s\n' "$1"
	[[ -z ${2:-} ]] || printf '%s\n' "$2" | sed 's/^/    /'
	FAILED=$((FAILED + 1))
}

# the ```text block right after block number $1, if any: its number
output_of() {
	local next=$(($1 + 1)) n file line lang adj marker
	((next <= ${#META[@]})) || return 1
	IFS=$'\037' read -r n file line lang adj marker <<<"${META[$((next - 1))]}"
	[[ $lang == text && $adj == 1 && -z $marker ]] || return 1
	printf '%s\n' "$n"
}

for entry in "${META[@]}"; do
	IFS=$'\037' read -r n file line lang adj marker <<<"$entry"
	name="$file:$line (\`\`\`$lang)"
	[[ -z ${TAKEN[$n]:-} ]] || continue
	out=''
	if out=$(output_of "$((10#$n))"); then
		TAKEN[$out]=1
	fi
	if [[ -n $marker ]]; then
		if [[ $marker =~ ^skip\ \((.+)\)$ ]]; then
			SKIPPED=$((SKIPPED + 1))
			SKIPS+=("$name: ${BASH_REMATCH[1]}")
			printf 'skip    %s: %s\n' "$name" "${BASH_REMATCH[1]}"
		else
			fail "$name" "unknown marker \"<!-- readme-test: $marker -->\" (the only one is \"skip (reason)\")"
		fi
		continue
	fi
	case $lang in
	sql | sh | bash | shell) ;;
	text)
		fail "$name" "a \`\`\`text block that is no block's output: put it right after the block it shows, or mark it <!-- readme-test: skip (reason) -->"
		continue
		;;
	*)
		fail "$name" "a block in language \"$lang\", which this test cannot run: mark it <!-- readme-test: skip (reason) -->"
		continue
		;;
	esac

	body=$BLOCKS/$n.body
	run=$BLOCKS/$n.run
	cp "$body" "$run"
	substitute "$run" forward
	rc=0
	RUN=$((RUN + 1))
	if [[ $lang == sql ]]; then
		(cd "$BC_CLUSTER_DIR" && "$PSQL" -X -v ON_ERROR_STOP=1 -f "$run") >"$BLOCKS/$n.psql" 2>&1 </dev/null || rc=$?
		# psql reading a file puts "psql:FILE:LINE: " before a NOTICE,
		# WARNING or ERROR; typed into psql, none
		sed -E 's/^psql:[^ ]+:[0-9]+: //' "$BLOCKS/$n.psql" >"$BLOCKS/$n.actual"
	else
		(cd "$ROOT" && env -u PGHOST -u PGUSER -u PGDATABASE -u BC_CLUSTER_DIR \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			bash -e -o pipefail "$run") >"$BLOCKS/$n.actual" 2>&1 </dev/null || rc=$?
	fi
	substitute "$BLOCKS/$n.actual" back
	if [[ $SHOW == yes ]]; then
		printf -- '---- %s printed:\n' "$name"
		cat "$BLOCKS/$n.actual"
		printf -- '---- end\n'
	fi
	if ((rc != 0)); then
		fail "$name" "exit status $rc; it printed:
$(cat "$BLOCKS/$n.actual")"
		continue
	fi
	if [[ -n $out ]]; then
		COMPARED=$((COMPARED + 1))
		if ! d=$(diff -u --label "$file (shown)" --label "$name (printed)" \
			<(normalize "$BLOCKS/$out.body") <(normalize "$BLOCKS/$n.actual")); then
			fail "$name: the output differs from the one shown" "$d"
			continue
		fi
		printf 'ok      %s: ran, output as shown\n' "$name"
	else
		printf 'ok      %s: ran (no output shown)\n' "$name"
	fi
	PASSED=$((PASSED + 1))
done

if ((RUN == 0)); then
	fail "README.md" "no block was run"
fi
printf 'readme: %d documents read: %s\n' "${#DOCS[@]}" "${DOCS[*]}"

bc_cluster_stop || fail "server log" "a backend crashed or the server did not stop"
rm -rf -- "${EXTRA[@]}"

printf 'readme: %d blocks run, %d compared with their shown output, %d skipped\n' "$RUN" "$COMPARED" "$SKIPPED"
for s in "${SKIPS[@]}"; do
	printf '  skipped %s\n' "$s"
done
printf 'readme: %d passed, %d failed (%d blocks skipped)\n' "$PASSED" "$FAILED" "$SKIPPED"
((FAILED == 0))
