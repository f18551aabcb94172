#!/usr/bin/env bash
#
# test/version.sh - `make check-version` passes on the tree and fails, naming
# the file, on copies of it where one place disagrees with bloomcass.control.
#
#   bash test/version.sh
#
# Each case is a copy of the files check-version reads (the Makefile,
# bloomcass.control, META.json and the install script it names, README.md,
# CHANGELOG.md, debian/changelog) in a temporary folder, one of them
# changed; the check must fail with the message that names that file, or,
# for the tree as it is, pass.  Ends with "version-test: N passed, M
# failed".

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

# shellcheck source=test/lib/common.sh
. "$ROOT/test/lib/common.sh"

PG_CONFIG=${PG_CONFIG:-pg_config}
PASSED=0
FAILED=0
TMP=$(mktemp -d)
trap 'rm -rf -- "$TMP"' EXIT

version=$(sed -nE "s/^default_version *= *'([^']+)'.*/\1/p" bloomcass.control)
[[ -n $version ]] || bc_die "bloomcass.control: no default_version"

# copy: a fresh copy of the files check-version reads, in $TMP/tree
copy() {
	rm -rf "$TMP/tree"
	mkdir -p "$TMP/tree/debian" "$TMP/tree/src/sql"
	cp Makefile bloomcass.control META.json README.md CHANGELOG.md "$TMP/tree/"
	cp debian/changelog "$TMP/tree/debian/"
	cp src/sql/bloomcass--*.sql "$TMP/tree/src/sql/"
}

# case NAME EXPECTED: run check-version on the copy; EXPECTED is "ok" or the
# start of the message it must fail with
case_() {
	local name=$1 expected=$2 out rc=0
	out=$(make -s -C "$TMP/tree" PG_CONFIG="$PG_CONFIG" check-version 2>&1) || rc=$?
	if [[ $expected == ok ]]; then
		if ((rc == 0)) && [[ $out == "check-version: $version "* ]]; then
			check "$name" 0
		else
			check "$name" 1 "exit status $rc: $out"
		fi
	elif ((rc != 0)) && grep -qF -- "$expected" <<<"$out"; then
		check "$name" 0
	else
		check "$name" 1 "exit status $rc, expected a failure with '$expected': $out"
	fi
}

copy
case_ "the tree as it is passes" ok

copy
sed -i "0,/^## $version\b/s//## 9.9/" "$TMP/tree/CHANGELOG.md"
case_ "CHANGELOG.md's newest entry another version" "CHANGELOG.md: the newest entry (the first \"## \" heading) is \"9.9\", not $version"

copy
sed -i "0,/^## $version\b/s//### $version/" "$TMP/tree/CHANGELOG.md"
case_ "CHANGELOG.md whose newest entry is the version before" "CHANGELOG.md: the newest entry (the first \"## \" heading) is"

copy
rm "$TMP/tree/CHANGELOG.md"
case_ "no CHANGELOG.md" "CHANGELOG.md: missing"

copy
sed -i '1s/(\([0-9.]*\)-/(\1.1-/' "$TMP/tree/debian/changelog"
case_ "debian/changelog another version" "debian/changelog: the newest entry is"

copy
sed -i "s/The current version is $version\./The current version is 9.9./" "$TMP/tree/README.md"
case_ "README.md another version" "README.md: no \"The current version is $version.\""

copy
sed -i 's/"version" *: *"[^"]*"/"version": "9.9.9"/' "$TMP/tree/META.json"
case_ "META.json another version" "META.json: version is \"9.9.9\""

printf 'version-test: %d passed, %d failed\n' "$PASSED" "$FAILED"
((FAILED == 0))
