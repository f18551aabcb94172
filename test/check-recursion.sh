#!/usr/bin/env bash
#
# test/check-recursion.sh - every recursion of bloomcass is one the project
# knows and bounds (make check-recursion, a stage of test/run-all.sh).
#
# Compiles every C file of the core (src/core), the glue (src/*.c) and the
# client (src/client) with gcc's -fcallgraph-info, joins the call graphs
# and finds their cycles (functions that call themselves, directly or
# through others).  Each must be one of KNOWN below, whose functions each
# count their levels against the bound named there (BC_CQL_MAX_DEPTH's
# comment in src/core/cql/bc_cqltype.h lists them); and each of KNOWN must
# still be a cycle, so that the list stays exact.  Calls through function
# pointers are not in the graph: bloomcass's are to readers (bc_reader)
# and walk callbacks, which never call back into their caller.
#
# Ends with "check-recursion: ..." and exit status 0, or the cycles that
# differ and status 1.  Needs gcc 10 or later, perl, and the PostgreSQL
# and libpq headers (pg_config, or $PG_CONFIG).
#
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Each known cycle, its functions (a static one as file:name) and its bound.
KNOWN=(
	"src/core/cql/bc_cqltype.c:parse_type src/core/cql/bc_cqltype.c:parse_user|BC_CQL_MAX_DEPTH"
	"src/core/cql/bc_cqlvalue_text.c:text_value|BC_CQL_MAX_DEPTH"
	"bc_cql_value_json|BC_CQL_MAX_DEPTH"
	"src/core/cql/bc_cqlvalue_parse.c:parse_composite src/core/cql/bc_cqlvalue_parse.c:parse_tuple src/core/cql/bc_cqlvalue_parse.c:parse_value|BC_CQL_MAX_DEPTH"
	"src/core/cql/bc_cqlvalue_sink.c:emit|BC_CQLSINK_MAX_LAYERS"
	"bloom_exact_add_room src/bloom_agg_exact.c:bloom_exact_add src/bloom_agg_exact.c:exact_append src/bloom_agg_exact.c:exact_spread|one level: a state spreads once"
)

PG_CONFIG=${PG_CONFIG:-$(command -v pg_config || true)}
[[ -n $PG_CONFIG ]] || {
	echo "check-recursion: no pg_config (set PG_CONFIG)" >&2
	exit 1
}
CC=${CG_CC:-gcc}
OUT=build/callgraph
rm -rf "$OUT"
mkdir -p "$OUT"

server=$("$PG_CONFIG" --includedir-server)
client=$("$PG_CONFIG" --includedir)
# every folder of the core (src/core/README.md) on the include path
core=$(for d in src/core/*/; do printf -- '-I%s ' "${d%/}"; done)
# one compiler run a file, two at a time; the graph of f is $OUT/<f>.ci
compile() {
	local f=$1 o
	o=$OUT/$(printf '%s' "$f" | tr / _).o
	case $f in
	src/core/*) set -- -std=c99 -D_POSIX_C_SOURCE=200809L $core ;;
	src/client/*) set -- -std=c99 $core -Isrc/client -I"$client" -DLOAD_VERSION='"0"' ;;
	*) set -- $core -Isrc -I"$server" -I"$client" ;;
	esac
	"$CC" -O0 -fcallgraph-info "$@" -c "$f" -o "$o"
}
export -f compile
export OUT CC server client core
# shellcheck disable=SC2016 # $1 is the inner shell's
if ! printf '%s\n' src/core/*/*.c src/*.c src/client/*.c |
	xargs -P 2 -I{} bash -c 'compile "$1"' _ {} >"$OUT/compile.log" 2>&1; then
	cat "$OUT/compile.log" >&2
	echo "check-recursion: the call graphs could not be made (gcc 10 or later?)" >&2
	exit 1
fi

perl -e '
use strict;
use warnings;
no warnings "recursion";
my ($dir, @known) = @ARGV;
my (%edges, %nodes);
for my $f (glob("$dir/*.ci")) {
	open(my $fh, "<", $f) or die "$f: $!\n";
	while (<$fh>) {
		$nodes{$1} = 1 if /node: \{ title: "([^"]+)"/;
		if (/edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"/) {
			$edges{$1}{$2} = 1;
			@nodes{$1, $2} = (1, 1);
		}
	}
}
# Tarjan: the strongly connected components with a cycle
my ($i, %index, %low, %on, @stack, @cycles) = (0);
my $visit;
$visit = sub {
	my $v = shift;
	$index{$v} = $low{$v} = $i++;
	push @stack, $v;
	$on{$v} = 1;
	for my $w (keys %{ $edges{$v} || {} }) {
		if (!exists $index{$w}) {
			$visit->($w);
			$low{$v} = $low{$w} if $low{$w} < $low{$v};
		} elsif ($on{$w}) {
			$low{$v} = $index{$w} if $index{$w} < $low{$v};
		}
	}
	return if $low{$v} != $index{$v};
	my @c;
	while (1) {
		my $w = pop @stack;
		delete $on{$w};
		push @c, $w;
		last if $w eq $v;
	}
	push @cycles, join(" ", sort @c) if @c > 1 || $edges{$v}{$v};
};
for my $v (sort keys %nodes) {
	$visit->($v) unless exists $index{$v};
}
my %bound = map { my ($f, $b) = split /\|/; (join(" ", sort split(" ", $f)), $b) } @known;
my %found = map { ($_, 1) } @cycles;
my $bad = 0;
for my $c (sort @cycles) {
	next if exists $bound{$c};
	print "recursion not known: $c\n  (bound each level against BC_CQL_MAX_DEPTH or another documented bound, name the functions in its comment, and add the cycle to KNOWN in test/check-recursion.sh)\n";
	$bad = 1;
}
for my $c (sort keys %bound) {
	next if $found{$c};
	print "known recursion no longer found: $c (remove it from KNOWN in test/check-recursion.sh and from BC_CQL_MAX_DEPTH\x27s comment)\n";
	$bad = 1;
}
exit 1 if $bad;
my $n = 0;
$n += scalar(split " ", $_) for @cycles;
printf "check-recursion: %d cycles of %d functions in %d files, each known and bounded\n",
	scalar(@cycles), $n, scalar(() = glob("$dir/*.ci"));
' "$OUT" "${KNOWN[@]}"
