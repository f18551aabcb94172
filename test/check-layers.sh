#!/usr/bin/env bash
#
# test/check-layers.sh - the core's folders are what src/core/README.md
# and each folder's README.md say they are (make check-layers, run with
# make check-cycles, a stage of test/run-all.sh).
#
#   bash test/check-layers.sh [ROOT]      (ROOT: the repository, default ..)
#   CORE_DIRS="base filter ..." is the order, lowest first (the Makefile's)
#
# Checks, from the source alone:
#   - src/core/ holds README.md and the folders of CORE_DIRS, nothing else;
#     each folder has a README.md with a line "Uses: a, b" (or "Uses:
#     nothing"), and every header name is unique in the core;
#   - the folders a folder's files include (#include "bc_x.h", resolved to
#     the folder holding bc_x.h) are exactly those its "Uses:" line names,
#     and those of its row in src/core/README.md's table, each before it in
#     CORE_DIRS.
# The symbols the objects use are checked against the same order by
# test/check-cycles.sh; make core-c99 compiles each folder with only the
# folders below it on the include path.
#
# Before the tree, the check runs on a made-up core whose README.md
# forgets a use, so that a check that finds nothing cannot pass.
#
# Ends with "check-layers: N folders, ..." and status 0, or each finding
# and status 1.
#
set -euo pipefail

# check ROOT DIRS...: prints the findings, status 1 when there is one
check() {
	local root=$1
	shift
	perl - "$root" "$@" <<'EOF'
use strict; use warnings;
my ($root, @dirs) = @ARGV;
my $core = "$root/src/core";
my %rank = map { $dirs[$_] => $_ } 0 .. $#dirs;
my (@bad, %home);
opendir(my $dh, $core) or die "check-layers: $core: $!\n";
for my $e (sort grep { !/^\.\.?$/ } readdir $dh) {
	next if $e eq "README.md" || exists $rank{$e};
	push @bad, "src/core/$e: not README.md nor a folder of CORE_DIRS (@dirs)";
}
closedir $dh;
push @bad, "src/core/README.md: missing" unless -f "$core/README.md";
my %files;
for my $d (@dirs) {
	unless (-d "$core/$d") { push @bad, "src/core/$d: a folder of CORE_DIRS that does not exist"; next; }
	opendir(my $fh, "$core/$d") or die "check-layers: $core/$d: $!\n";
	my @f = sort grep { /\.[ch]$/ } readdir $fh;
	closedir $fh;
	$files{$d} = \@f;
	for my $f (grep { /\.h$/ } @f) {
		push @bad, "src/core/$d/$f: also src/core/$home{$f}/$f" if exists $home{$f};
		$home{$f} //= $d;
	}
}
my ($uses_total, %found) = (0);
for my $d (@dirs) {
	next unless $files{$d};
	my %uses;
	for my $f (@{$files{$d}}) {
		open(my $in, "<", "$core/$d/$f") or die "check-layers: $core/$d/$f: $!\n";
		while (<$in>) {
			next unless /^\s*#\s*include\s+"([^"]+)"/;
			my $h = $1;
			my $to = $home{$h};
			unless (defined $to) {
				push @bad, "src/core/$d/$f: includes \"$h\", which is no header of the core";
				next;
			}
			next if $to eq $d;
			$uses{$to} = 1;
			push @bad, "src/core/$d/$f: includes $h of src/core/$to/, a folder above $d"
				if $rank{$to} > $rank{$d};
		}
		close $in;
	}
	my $readme = "$core/$d/README.md";
	unless (-f $readme) { push @bad, "src/core/$d/README.md: missing"; next; }
	open(my $r, "<", $readme) or die "check-layers: $readme: $!\n";
	my ($line) = grep { /^Uses:/ } <$r>;
	close $r;
	unless (defined $line) { push @bad, "src/core/$d/README.md: no \"Uses:\" line"; next; }
	chomp $line;
	(my $list = $line) =~ s/^Uses:\s*//;
	$list =~ s/\.\s*$//;
	my %said = $list eq "nothing" ? () : map { $_ => 1 } split /\s*,\s*/, $list;
	my $want = join(", ", sort { $rank{$a} <=> $rank{$b} } keys %uses) || "nothing";
	my $have = join(", ", sort { ($rank{$a} // 99) <=> ($rank{$b} // 99) } keys %said) || "nothing";
	push @bad, "src/core/$d/README.md: says \"Uses: $have\", its files include from: $want"
		if $want ne $have;
	$uses_total += keys %uses;
	$found{$d} = $want;
}
# src/core/README.md's table: a row per folder, its last cell the uses
if (open(my $t, "<", "$core/README.md")) {
	my %row;
	while (<$t>) {
		next unless /^\|\s*`([^`\/]+)\/`\s*\|.*\|\s*([^|]*?)\s*\|\s*$/;
		$row{$1} = $2;
	}
	close $t;
	for my $d (@dirs) {
		next unless defined $found{$d};
		if (!defined $row{$d}) {
			push @bad, "src/core/README.md: no row for $d/ in its table";
		} elsif ($row{$d} ne $found{$d}) {
			push @bad, "src/core/README.md: its row for $d/ says \"$row{$d}\", the folder's files include from: $found{$d}";
		}
	}
	for my $d (sort keys %row) {
		push @bad, "src/core/README.md: a row for $d/, which is not a folder of CORE_DIRS"
			unless exists $rank{$d};
	}
}
if (@bad) {
	print "check-layers: $_\n" for @bad;
	exit 1;
}
printf "check-layers: %d folders (%s), %d uses between them, each downwards and as their README.md says\n",
	scalar @dirs, join(" ", @dirs), $uses_total;
EOF
}

# A made-up core: lo and hi, hi/y.c includes lo/x.h but hi/README.md says
# it uses nothing.
selftest() {
	local dir out want
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' RETURN
	mkdir -p "$dir/src/core/lo" "$dir/src/core/hi"
	printf '| folder | owns | uses |\n|---|---|---|\n| `lo/` | x | nothing |\n| `hi/` | y | lo |\n' >"$dir/src/core/README.md"
	printf 'Uses: nothing\n' >"$dir/src/core/lo/README.md"
	printf 'Uses: nothing\n' >"$dir/src/core/hi/README.md"
	printf 'int x(void);\n' >"$dir/src/core/lo/x.h"
	printf '#include "x.h"\n' >"$dir/src/core/hi/y.c"
	out=$(check "$dir" lo hi) && {
		echo "check-layers: the made-up core's missing use was not found" >&2
		return 1
	}
	want='check-layers: src/core/hi/README.md: says "Uses: nothing", its files include from: lo'
	[[ $out == "$want" ]] || {
		printf 'check-layers: the made-up core, expected:\n%s\nfound:\n%s\n' "$want" "$out" >&2
		return 1
	}
}

root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
[[ -n ${CORE_DIRS:-} ]] || {
	echo "check-layers: CORE_DIRS is not set (run make check-layers)" >&2
	exit 2
}
selftest
# shellcheck disable=SC2086 # CORE_DIRS is a list of words
check "$root" $CORE_DIRS
