#!/usr/bin/env bash
#
# test/pgxn.sh - the PGXN distribution installs with pgxnclient.
#
#   bash test/pgxn.sh
#
# Checks META.json (valid JSON, the keys PGXN requires, its version agrees
# with bloomcass.control's default_version and names an install script that
# exists), makes the archive with `make dist`, installs it with Debian's
# pgxnclient (`pgxn install ./build/dist/bloomcass-<version>.zip`, which
# unpacks, builds and installs it into PG_CONFIG's PostgreSQL), and then
# compares what was installed with the archive: the control file and every
# SQL script byte for byte, and the library's exported functions with those
# of a build of the tree.  Needs the library built in the tree (make) first.
#
# Ends with "pgxn: ok (<archive>)" or an error.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

# shellcheck source=test/lib/common.sh
. "$ROOT/test/lib/common.sh"

[[ -n ${PG_CONFIG:-} ]] || bc_install_deps
bc_pkg_install pgxnclient unzip

[[ -f bloomcass.so ]] || bc_die "build the extension first (make)"

# META.json: what PGXN requires, and agreement with the control file.
read -r meta_version script < <(python3 - <<'EOF'
import json, sys
m = json.load(open("META.json"))
for key in ("name", "abstract", "version", "maintainer", "license", "provides", "meta-spec"):
    if key not in m:
        sys.exit("META.json: no %r" % key)
p = m["provides"].get("bloomcass")
if m["name"] != "bloomcass" or p is None:
    sys.exit("META.json: does not provide bloomcass")
if p.get("version") != m["version"]:
    sys.exit("META.json: provides version %s, distribution version %s" % (p.get("version"), m["version"]))
print(m["version"], p["file"])
EOF
)
control_version=$(sed -nE "s/^default_version *= *'([^']+)'.*/\1/p" bloomcass.control)
[[ $meta_version == "$control_version".* || $meta_version == "$control_version" ]] ||
	bc_die "META.json's version $meta_version does not match bloomcass.control's default_version $control_version"
[[ -f $script ]] || bc_die "META.json names $script, which does not exist"

make PG_CONFIG="$PG_CONFIG" dist >/dev/null
zip=build/dist/bloomcass-$meta_version.zip
[[ -f $zip ]] || bc_die "make dist did not make $zip"

bc_log "pgxn install ./$zip"
pgxn install --yes --make make --pg_config "$PG_CONFIG" "./$zip"

# What pgxn installed, against the archive's own files.
unpacked=$(mktemp -d)
trap 'rm -rf -- "$unpacked"' EXIT
unzip -q "$zip" -d "$unpacked"
src=$unpacked/bloomcass-$meta_version
sharedir=$("$PG_CONFIG" --sharedir)/extension
pkglibdir=$("$PG_CONFIG" --pkglibdir)

n=0
for f in "$src"/bloomcass.control "$src"/src/sql/bloomcass--*.sql; do
	installed=$sharedir/$(basename "$f")
	cmp -s "$f" "$installed" || bc_die "$installed differs from the archive's $(basename "$f")"
	n=$((n + 1))
done

exports() {
	nm -D --defined-only "$1" | awk '$2 == "T" { print $3 }' | sort
}
if ! diff <(exports bloomcass.so) <(exports "$pkglibdir/bloomcass.so") >/dev/null; then
	diff <(exports bloomcass.so) <(exports "$pkglibdir/bloomcass.so") | head -n 20 >&2
	bc_die "$pkglibdir/bloomcass.so does not export the functions of the tree's build"
fi
printf 'pgxn: ok (%s: %d files identical, %d exported functions)\n' "$zip" "$n" \
	"$(exports bloomcass.so | wc -l)"
