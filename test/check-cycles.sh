#!/usr/bin/env bash
#
# test/check-cycles.sh - no two compilation units of bloomcass need each
# other, directly or around a loop (make check-cycles, a stage of
# test/run-all.sh).
#
#   bash test/check-cycles.sh PROGRAM=OBJECT... [PROGRAM=OBJECT...]
#   make check-cycles          (builds, then passes the extension's and
#                               bloomcass-load's objects)
#
# Each argument names a program and one of its objects; the programs are
# checked apart, since each links its own copy of the core: the extension
# (the core's src/core/*.o and the glue's src/*.o) and bloomcass-load
# (build/client/*.o, the core compiled again as build/client/core_*.o).
# A unit is the C file of an object.  nm gives each object's global
# symbols: every undefined one (U) that another object of the same program
# defines is an edge from the user to the definer (a static inline function
# of a header counts in the unit that includes it); symbols of the C
# library, PostgreSQL, libpq or the compressors are outside the program.
# Tarjan's algorithm finds the strongly connected groups of that graph: a
# group of more than one unit is a cycle, printed with the symbols that tie
# it, each edge "user -> definer: symbols".
#
# Before the tree, the check runs on three made-up units (a calls b, b
# calls a, c calls a), so that a check that finds nothing cannot pass.
#
# Ends with "check-cycles: N units, no cycle" and status 0, or the cycles
# and status 1.  Needs nm, perl and (for the made-up units) cc.
#
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The unit graph of the objects given as PROGRAM=OBJECT arguments: prints
# the cycles, or the summary line; status 1 on a cycle.
cycles() {
	local arg
	for arg in "$@"; do
		[[ $arg == *=* && -f ${arg#*=} ]] || {
			echo "check-cycles: not an object: ${arg#*=} (run make first)" >&2
			return 2
		}
	done
	# every object's global symbols, after a line naming it; nm's failure
	# (not an object) ends the check
	local listing
	listing=$(for arg in "$@"; do
		printf '%s\n' "# ${arg%%=*} ${arg#*=}"
		nm -P -g "${arg#*=}" || exit 1
	done) || return 2
	perl -e '
		use strict; use warnings;
		my (%order, @programs, %def, %use, %units, $prog, $unit);
		while (<STDIN>) {
			chomp;
			if (/^# (\S+) (\S+)$/) {
				($prog, $unit) = ($1, $2);
				# the C file: build/client/core_X.o is src/core/X.c,
				# build/client/X.o is src/client/X.c
				$unit =~ s{^build/client/core_}{src/core/};
				$unit =~ s{^build/client/}{src/client/};
				$unit =~ s{\.o$}{.c};
				push @programs, $prog unless $order{$prog}++;
				$units{$prog}{$unit} = 1;
				next;
			}
			my ($sym, $type) = split / /;
			next unless defined $type;
			if ($type eq "U") {
				$use{$prog}{$unit}{$sym} = 1;
			} elsif ($type =~ /^[TDBRVWGSi]$/) {
				$def{$prog}{$sym} //= $unit;
			}
		}
		my ($total, @counts, %found) = (0);
		for my $p (@programs) {
			# edges: user -> definer -> symbols
			my %edge;
			for my $u (keys %{$use{$p}}) {
				for my $s (keys %{$use{$p}{$u}}) {
					my $d = $def{$p}{$s};
					next unless defined $d && $d ne $u;
					$edge{$u}{$d}{$s} = 1;
				}
			}
			# Tarjan: strongly connected components
			my ($index, %idx, %low, %on, @stack, @sccs) = (0);
			my $visit;
			$visit = sub {
				my ($v) = @_;
				$idx{$v} = $low{$v} = $index++;
				push @stack, $v;
				$on{$v} = 1;
				for my $w (sort keys %{$edge{$v} // {}}) {
					if (!defined $idx{$w}) {
						$visit->($w);
						$low{$v} = $low{$w} if $low{$w} < $low{$v};
					} elsif ($on{$w}) {
						$low{$v} = $idx{$w} if $idx{$w} < $low{$v};
					}
				}
				if ($low{$v} == $idx{$v}) {
					my @c;
					my $w;
					do {
						$w = pop @stack;
						$on{$w} = 0;
						push @c, $w;
					} while ($w ne $v);
					push @sccs, [sort @c] if @c > 1;
				}
			};
			for my $v (sort keys %{$units{$p}}) {
				$visit->($v) unless defined $idx{$v};
			}
			for my $c (@sccs) {
				my %in = map { $_ => 1 } @$c;
				my $text = sprintf "a cycle of %d units:\n", scalar @$c;
				for my $u (@$c) {
					for my $d (sort grep { $in{$_} } keys %{$edge{$u} // {}}) {
						$text .= "  $u -> $d: " . join(" ", sort keys %{$edge{$u}{$d}}) . "\n";
					}
				}
				# the core'"'"'s cycles are in every program: printed once
				push @{$found{$text}}, $p;
			}
			my $n = keys %{$units{$p}};
			$total += $n;
			push @counts, "$p $n";
		}
		for my $text (sort keys %found) {
			print "check-cycles: ", join(", ", @{$found{$text}}), ": ", $text;
		}
		# the core'"'"'s folders (CORE_DIRS, lowest first): a unit of the
		# core uses only units of its own folder or of a folder before
		# it, and never the glue or the client
		my @dirs = split " ", ($ENV{CORE_DIRS} // "");
		my %rank = map { $dirs[$_] => $_ } 0 .. $#dirs;
		my %bad;
		for my $p (@programs) {
			for my $u (keys %{$use{$p}}) {
				next unless $u =~ m{(?:^|/)src/core/([^/]+)/};
				my $fu = $1;
				if (!defined $rank{$fu}) {
					$bad{"$u: in src/core/$fu/, a folder CORE_DIRS does not name\n"} = 1;
					next;
				}
				for my $s (keys %{$use{$p}{$u}}) {
					my $d = $def{$p}{$s};
					next unless defined $d && $d ne $u;
					my $fd = $d =~ m{(?:^|/)src/core/([^/]+)/} ? $1 : undef;
					next if defined $fd && defined $rank{$fd} && $rank{$fd} <= $rank{$fu};
					my $why = defined $fd ? "$fd is above $fu" : "the core uses a file outside it";
					$bad{"$u -> $d ($why): $s\n"} = 1;
				}
			}
		}
		if (%bad) {
			print "check-cycles: a use against the order of the core'"'"'s folders (@dirs):\n";
			print "  $_" for sort keys %bad;
		}
		if (%bad && !%found) {
			printf "check-cycles: %d uses against the folders'"'"' order\n", scalar keys %bad;
			exit 1;
		}
		if (%found) {
			printf "check-cycles: %d cycles among %d units (%s)\n",
				scalar keys %found, $total, join(", ", @counts);
			exit 1;
		}
		printf "check-cycles: %d units, no cycle (%s)%s\n", $total, join(", ", @counts),
			@dirs ? ", the core'"'"'s folders in order (@dirs)" : "";
	' <<<"$listing"
}

# The made-up units: the check must find a and b, tied by a_fn and b_fn,
# and leave c out.
selftest() {
	local dir out want
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' RETURN
	printf 'int b_fn(int);\nint a_fn(int x) { return x ? b_fn(x - 1) : 0; }\n' >"$dir/a.c"
	printf 'int a_fn(int);\nint b_fn(int x) { return x ? a_fn(x - 1) : 1; }\n' >"$dir/b.c"
	printf 'int a_fn(int);\nint c_fn(void) { return a_fn(3); }\n' >"$dir/c.c"
	for f in a b c; do
		${CC:-cc} -c "$dir/$f.c" -o "$dir/$f.o"
	done
	out=$(cycles "t=$dir/a.o" "t=$dir/b.o" "t=$dir/c.o") && {
		echo "check-cycles: the made-up cycle a <-> b was not found" >&2
		return 1
	}
	want="check-cycles: t: a cycle of 2 units:
  $dir/a.c -> $dir/b.c: b_fn
  $dir/b.c -> $dir/a.c: a_fn
check-cycles: 1 cycles among 3 units (t 3)"
	[[ $out == "$want" ]] || {
		printf 'check-cycles: the made-up cycle a <-> b, expected:\n%s\nfound:\n%s\n' "$want" "$out" >&2
		return 1
	}
}

# Made-up folders lo and hi of a core, lo first: lo/x calls hi/y, a use
# upwards, which the check must name; hi/z calls lo/x, which it allows.
selftest_layers() {
	local dir out want
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' RETURN
	mkdir -p "$dir/src/core/lo" "$dir/src/core/hi"
	printf 'int y_fn(int);\nint x_fn(int x) { return y_fn(x); }\n' >"$dir/src/core/lo/x.c"
	printf 'int y_fn(int x) { return x + 1; }\n' >"$dir/src/core/hi/y.c"
	printf 'int x_fn(int);\nint z_fn(void) { return x_fn(3); }\n' >"$dir/src/core/hi/z.c"
	for f in lo/x hi/y hi/z; do
		${CC:-cc} -c "$dir/src/core/$f.c" -o "$dir/src/core/$f.o"
	done
	out=$(CORE_DIRS="lo hi" cycles "t=$dir/src/core/lo/x.o" "t=$dir/src/core/hi/y.o" \
		"t=$dir/src/core/hi/z.o") && {
		echo "check-cycles: the made-up use of hi from lo was not found" >&2
		return 1
	}
	want="check-cycles: a use against the order of the core's folders (lo hi):
  $dir/src/core/lo/x.c -> $dir/src/core/hi/y.c (hi is above lo): y_fn
check-cycles: 1 uses against the folders' order"
	[[ $out == "$want" ]] || {
		printf 'check-cycles: the made-up folders, expected:\n%s\nfound:\n%s\n' "$want" "$out" >&2
		return 1
	}
}

[[ $# -gt 0 ]] || {
	echo "usage: test/check-cycles.sh PROGRAM=OBJECT... (or: make check-cycles)" >&2
	exit 2
}
selftest
selftest_layers
cycles "$@"
