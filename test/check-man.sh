#!/usr/bin/env bash
#
# test/check-man.sh - the manual page bloomcass-load(1), doc/bloomcass-load.1:
#   - man renders it without a warning (groff's, man's);
#   - lexgrog (what mandb indexes for apropos and whatis) reads its NAME;
#   - it documents every option of `bloomcass-load --help`, and no option
#     that --help does not give, and every exit status --help gives.
# Needs the built bloomcass-load (make), man-db, groff-base and
# bsdextrautils (col), which test/lib/common.sh's bc_install_deps installs.
#
#   bash test/check-man.sh
#
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

PAGE=doc/bloomcass-load.1
LOAD=./bloomcass-load
fail=0
problem() {
	printf 'check-man: %s\n' "$*"
	fail=1
}

for tool in man lexgrog groff col; do
	command -v "$tool" >/dev/null || { echo "check-man: $tool is missing (apt-get install man-db groff-base bsdextrautils)"; exit 1; }
done
[[ -x $LOAD ]] || { echo "check-man: $LOAD is not built (make)"; exit 1; }

# warnings of man and groff go to standard error
warn=$(MANWIDTH=80 MAN_KEEP_FORMATTING= man --warnings=all -E UTF-8 -l "$PAGE" 2>&1 >/dev/null || true)
[[ -z $warn ]] || problem "man -l $PAGE warns: $warn"

whatis=$(lexgrog "$PAGE" 2>&1 || true)
[[ $whatis == "$PAGE: \"bloomcass-load - "* ]] || problem "lexgrog cannot read the NAME section: $whatis"

text=$(MANWIDTH=200 man -E ascii -l "$PAGE" 2>/dev/null | col -b)
help=$("$LOAD" --help)
mapfile -t help_opts < <(grep -Eo -- '--[a-z][a-z-]+' <<<"$help" | sort -u)
mapfile -t page_opts < <(grep -Eo -- '--[a-z][a-z-]+' <<<"$text" | sort -u)
((${#help_opts[@]} > 0)) || problem "bloomcass-load --help names no option"
for o in "${help_opts[@]}"; do
	grep -qx -- "$o" < <(printf '%s\n' "${page_opts[@]}") || problem "$o: in --help, not in $PAGE"
done
for o in "${page_opts[@]}"; do
	grep -qx -- "$o" < <(printf '%s\n' "${help_opts[@]}") || problem "$o: in $PAGE, not in --help"
done
# the exit statuses: "Exit status: 0 ..., 1 ..., 2 ..." in --help
mapfile -t codes < <(sed -n '/^Exit status/,$p' <<<"$help" | grep -Eo '(^|[:,] )[0-9] ' | grep -Eo '[0-9]' | sort -u)
((${#codes[@]} > 0)) || problem "bloomcass-load --help gives no exit status"
# read from the page's source (.SH EXIT STATUS, each status a .TP tag
# ".B N"): how groff lays a tagged paragraph out differs between releases
exits=$(awk '/^\.SH / { in_exit = ($0 ~ /^\.SH "?EXIT STATUS"?$/); next }
	in_exit && prev == ".TP" && /^\.B [0-9]+$/ { print $2 }
	{ prev = $0 }' "$PAGE")
for c in "${codes[@]}"; do
	grep -qx "$c" <<<"$exits" || problem "exit status $c: in --help, not in the EXIT STATUS section"
done

if ((fail)); then
	echo "check-man: $PAGE has problems (above)"
	exit 1
fi
echo "check-man: $PAGE renders without warnings, lexgrog reads its NAME, and it documents the ${#help_opts[@]} options and ${#codes[@]} exit statuses of --help"
