#!/usr/bin/env bash
#
# test/sql-c-map.sh - the table "From SQL to C" of doc/sql-to-c.md against
# the install scripts and the C files.
#
#   bash test/sql-c-map.sh            check; prints what is missing or wrong
#   bash test/sql-c-map.sh --table    print the table's rows as they should be
#
# The SQL functions are those of a catalog installed at bloomcass.control's
# default_version through the upgrade scripts (src/sql/: the first install
# script, then each upgrade; CREATE OR REPLACE replaces, DROP FUNCTION
# drops).  Checked:
#   - every function has one row in the table, with its C symbol (AS
#     'MODULE_PATHNAME', 'symbol'; the SQL name when there is none) and the
#     file that defines PG_FUNCTION_INFO_V1(symbol), and the table has no
#     other rows; a SQL-language function has "(SQL)" and the script that
#     creates it;
#   - each function of language C comes after a "-- C: src/<file>.c, ..."
#     line of its script that names its file (the section banners);
#   - every PG_FUNCTION_INFO_V1 of src/*.c is that of an SQL function, of
#     a function an earlier script created and a later one replaced or
#     dropped (earlier installs still call it), or a row of the table of
#     entry points only the regression tests declare, whose test names it;
#   - every symbol a script names is still defined;
#   - no symbol is defined twice.
# Ends with "sql-c-map: ok (...)" or the problems and exit status 1.
# Needs perl only (no build, no server).

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

exec perl -w - "$@" <<'PERL'
use strict;
use warnings;

my $mode = shift(@ARGV) // '';
die "usage: bash test/sql-c-map.sh [--table]\n" if $mode ne '' && $mode ne '--table';

my @problems;
sub problem { push @problems, join('', @_); }

sub slurp {
	my ($path) = @_;
	open(my $fh, '<', $path) or die "$path: $!\n";
	local $/;
	return scalar <$fh>;
}

# ---------------------------------------------------------------------------
# The scripts from the first install script to default_version
# ---------------------------------------------------------------------------
my ($default) = slurp('bloomcass.control') =~ /^default_version\s*=\s*'([^']+)'/m
	or die "bloomcass.control: no default_version\n";

my (%install, %upgrade);
for my $path (glob('src/sql/bloomcass--*.sql')) {
	my ($base) = $path =~ m{([^/]+)\.sql$};
	if ($base =~ /^bloomcass--([^-]+)--([^-]+)$/) {
		push @{ $upgrade{$1} }, [$2, $path];
	} elsif ($base =~ /^bloomcass--([^-]+)$/) {
		$install{$1} = $path;
	} else {
		problem("$path: not an install or upgrade script name");
	}
}
sub vkey { return join('.', map { sprintf('%06d', $_) } split(/\./, $_[0])); }

# the oldest install script, then the shortest chain of upgrades from it
my ($first) = sort { vkey($a) cmp vkey($b) } keys %install
	or die "src/sql: no install script\n";
my %prev = ($first => undef);
my @queue = ($first);
while (@queue) {
	my $v = shift @queue;
	for my $edge (@{ $upgrade{$v} // [] }) {
		next if exists $prev{ $edge->[0] };
		$prev{ $edge->[0] } = [$v, $edge->[1]];
		push @queue, $edge->[0];
	}
}
die "src/sql: no upgrade path from $first to $default\n" unless exists $prev{$default};
my @scripts;
for (my $v = $default; defined $prev{$v}; $v = $prev{$v}[0]) {
	unshift @scripts, $prev{$v}[1];
}
unshift @scripts, $install{$first};

# ---------------------------------------------------------------------------
# The SQL functions of those scripts
# ---------------------------------------------------------------------------

# Split a script into statements (text without comments, first line), and
# collect its "-- C:" lines.
sub statements {
	my ($path) = @_;
	my $text = slurp($path);
	my (@stmts, @banners);
	my ($cur, $line, $start, $continued) = ('', 1, undef, undef);
	pos($text) = 0;
	while (pos($text) < length($text)) {
		if ($text =~ /\G--([^\n]*)/gc) {
			my $c = $1;
			if ($c =~ /^\s*C:\s*(.*)$/) {
				my @files = $1 =~ m{(src/[\w/.-]+\.c)}g;
				problem("$path:$line: a \"-- C:\" line that names no src/*.c file") unless @files;
				push @banners, [$line, [@files]];
				$continued = $line;
			} elsif (defined $continued && $continued == $line - 1 && $c !~ /^-+$/) {
				# the comment line after it goes on with its list
				push @{ $banners[-1][1] }, $c =~ m{(src/[\w/.-]+\.c)}g;
				$continued = $line;
			}
			next;
		}
		if ($text =~ m{\G/\*.*?\*/}gcs) {
			$line += () = substr($text, $-[0], $+[0] - $-[0]) =~ /\n/g;
			next;
		}
		if ($text =~ /\G(\$[A-Za-z_]*\$)/gc) {
			my $tag = $1;
			my $from = $-[0];
			$text =~ /\G.*?\Q$tag\E/gcs or die "$path:$line: unterminated $tag\n";
			my $s = substr($text, $from, pos($text) - $from);
			$start //= $line;
			$cur .= $s;
			$line += () = $s =~ /\n/g;
			next;
		}
		if ($text =~ /\G('(?:[^']|'')*')/gc) {
			my $s = $1;
			$start //= $line;
			$cur .= $s;
			$line += () = $s =~ /\n/g;
			next;
		}
		if ($text =~ /\G;/gc) {
			push @stmts, [$cur, $start] if $cur =~ /\S/;
			($cur, $start) = ('', undef);
			next;
		}
		if ($text =~ /\G\n/gc) {
			$cur .= "\n";
			$line++;
			next;
		}
		if ($text =~ /\G\\[^\n]*/gc) {	# psql's \echo ... \quit line
			next;
		}
		$text =~ /\G(.)/gcs;
		my $ch = $1;
		$start //= $line if $ch =~ /\S/;
		$cur .= $ch;
	}
	return (\@stmts, \@banners);
}

# the text inside the parentheses that start at $s (after "name")
sub parenthesized {
	my ($s) = @_;
	my ($depth, $out) = (0, '');
	for my $ch (split //, $s) {
		if ($ch eq '(') { $depth++; next if $depth == 1; }
		if ($ch eq ')') { $depth--; return $out if $depth == 0; }
		$out .= $ch if $depth >= 1;
	}
	return undef;
}

sub split_args {
	my ($s) = @_;
	my (@args, $depth, $cur, $quote);
	($depth, $cur, $quote) = (0, '', '');
	for my $ch (split //, $s) {
		if ($quote ne '') { $quote = '' if $ch eq $quote; }
		elsif ($ch eq "'" || $ch eq '"') { $quote = $ch; }
		elsif ($ch eq '(') { $depth++; }
		elsif ($ch eq ')') { $depth--; }
		elsif ($ch eq ',' && $depth == 0) { push @args, $cur; $cur = ''; next; }
		$cur .= $ch;
	}
	push @args, $cur if $cur =~ /\S/;
	return @args;
}

my %multiword = map { $_ => 1 } qw(double character char bit time timestamp interval varying);

# "key anyelement", "fp_chance float8 DEFAULT 0.01", "VARIADIC \"any\"":
# the type as the identity of the function shows it (undef for OUT)
sub arg_type {
	my ($arg) = @_;
	$arg =~ s/\s+(DEFAULT\b|=).*$//is;
	$arg =~ s/\@extschema\@\.//g;
	my @t = split ' ', $arg;
	my $mode = '';
	if (@t && $t[0] =~ /^(IN|OUT|INOUT|VARIADIC)$/i) {
		$mode = uc(shift @t);
	}
	return undef if $mode eq 'OUT';
	shift @t if @t > 1 && !$multiword{ lc $t[0] };
	my $type = join(' ', @t);
	return $mode eq 'VARIADIC' ? "VARIADIC $type" : $type;
}

my %fn;	# identity => {name, language, symbol, script, line, section}
my %ever;	# every C symbol a script names => where first
for my $script (@scripts) {
	my ($stmts, $banners) = statements($script);
	for my $st (@$stmts) {
		my ($sql, $line) = @$st;
		$sql =~ s/^\s+//;
		if ($sql =~ /^CREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+([\w\@.]+)\s*(\(.*)$/is) {
			my ($name, $rest) = ($1, $2);
			$name =~ s/^\@extschema\@\.//;
			my $args = parenthesized($rest);
			defined $args or die "$script:$line: cannot read the arguments of $name\n";
			my @types = grep { defined } map { arg_type($_) } split_args($args);
			my $id = "$name(" . join(', ', @types) . ')';
			my ($lang) = $sql =~ /\bLANGUAGE\s+(\w+)/i or die "$script:$line: $id: no LANGUAGE\n";
			$lang = lc $lang;
			my %f = (id => $id, name => $name, language => $lang, script => $script, line => $line);
			if ($lang eq 'c') {
				my ($obj, $sym) = $sql =~ /\bAS\s+'([^']*)'(?:\s*,\s*'([^']*)')?/i
					or die "$script:$line: $id: no AS 'MODULE_PATHNAME'\n";
				problem("$script:$line: $id: AS '$obj', not 'MODULE_PATHNAME'")
					if $obj ne 'MODULE_PATHNAME';
				$f{symbol} = $sym // $name;
				$ever{ $f{symbol} } //= "$script:$line";
				my @before = grep { $_->[0] < $line } @$banners;
				$f{section} = @before ? $before[-1] : undef;
			}
			if ($fn{$id} && $sql !~ /^CREATE\s+OR\s+REPLACE/i) {
				problem("$script:$line: $id created again without OR REPLACE");
			}
			$fn{$id} = \%f;
		} elsif ($sql =~ /^DROP\s+FUNCTION\s+(?:IF\s+EXISTS\s+)?([\w\@.]+)\s*(\(.*)$/is) {
			my ($name, $rest) = ($1, $2);
			$name =~ s/^\@extschema\@\.//;
			my @types = grep { defined } map { arg_type($_) } split_args(parenthesized($rest) // '');
			delete $fn{ "$name(" . join(', ', @types) . ')' };
		} elsif ($sql =~ /^ALTER\s+FUNCTION\b.*\b(RENAME|SET\s+SCHEMA)\b/is) {
			problem("$script:$line: ALTER FUNCTION ... $1: this script does not follow it");
		}
	}
}

# ---------------------------------------------------------------------------
# The C symbols: PG_FUNCTION_INFO_V1 in src/*.c
# ---------------------------------------------------------------------------
my %defined;	# symbol => file
for my $file (sort glob('src/*.c')) {
	my $text = slurp($file);
	while ($text =~ /^PG_FUNCTION_INFO_V1\((\w+)\);/mg) {
		if ($defined{$1}) {
			problem("$1: PG_FUNCTION_INFO_V1 in both $defined{$1} and $file");
			next;
		}
		$defined{$1} = $file;
	}
}

# what each function's row should say
my %order = map { $scripts[$_] => $_ } 0 .. $#scripts;
my %want;	# identity => [symbol column, file column]
for my $f (sort { $order{ $a->{script} } <=> $order{ $b->{script} } || $a->{line} <=> $b->{line} } values %fn) {
	if ($f->{language} eq 'c') {
		my $file = $defined{ $f->{symbol} };
		if (!defined $file) {
			problem("$f->{script}:$f->{line}: $f->{id}: no src/*.c defines PG_FUNCTION_INFO_V1($f->{symbol})");
			$file = '?';
		} elsif (!defined $f->{section}) {
			problem("$f->{script}:$f->{line}: $f->{id}: no \"-- C:\" line above it names its file ($file)");
		} elsif (!grep { $_ eq $file } @{ $f->{section}[1] }) {
			problem("$f->{script}:$f->{line}: $f->{id}: the \"-- C:\" line of its section (line "
				. "$f->{section}[0]) names " . join(', ', @{ $f->{section}[1] }) . ", not $file");
		}
		$want{ $f->{id} } = ["`$f->{symbol}`", "`$file`"];
	} elsif ($f->{language} eq 'sql' || $f->{language} eq 'plpgsql') {
		$want{ $f->{id} } = ['(SQL)', "`$f->{script}`"];
	} else {
		problem("$f->{script}:$f->{line}: $f->{id}: language $f->{language}");
	}
}
for my $script (@scripts) {
	my (undef, $banners) = statements($script);
	for my $b (@$banners) {
		for my $file (@{ $b->[1] }) {
			problem("$script:$b->[0]: \"-- C:\" names $file, which does not exist") unless -f $file;
		}
	}
}

if ($mode eq '--table') {
	print "| SQL function | C symbol | file |\n|---|---|---|\n";
	for my $id (sort { $fn{$a}{name} cmp $fn{$b}{name} || $a cmp $b } keys %want) {
		print "| `$id` | $want{$id}[0] | $want{$id}[1] |\n";
	}
	print "$_\n" for @problems;
	exit(@problems ? 1 : 0);
}

# ---------------------------------------------------------------------------
# doc/sql-to-c.md: the section "From SQL to C", its two tables
# ---------------------------------------------------------------------------
my $map = 'doc/sql-to-c.md';
my $readme = slurp($map);
my ($section) = $readme =~ /^#{1,3} From SQL to C\n(.*?)(?=^#{1,3} |\z)/ms
	or die "$map: no section \"From SQL to C\"\n";
my (%rows, %test_only, $table);
my $n = 0;
for my $l (split /\n/, $section) {
	if ($l !~ /^\|/) { $table = undef if $l =~ /\S/; next; }
	my @cells = map { s/^\s+|\s+$//gr } split /\|/, substr($l, 1);
	if (!defined $table) {
		$table = join('|', @cells);
		next;
	}
	next if $cells[0] =~ /^-+$/;
	$n++;
	if ($table eq 'SQL function|C symbol|file') {
		my ($id) = $cells[0] =~ /^`(.*)`$/ or do { problem("$map: row \"$l\": no `function(arguments)`"); next };
		problem("$map: $id has two rows") if $rows{$id};
		$rows{$id} = [@cells[1, 2]];
	} elsif ($table eq 'C symbol|file|declared by') {
		my ($sym) = $cells[0] =~ /^`(\w+)`$/ or do { problem("$map: row \"$l\": no `symbol`"); next };
		my ($file) = $cells[1] =~ /^`(.*)`$/;
		my @tests = $cells[2] =~ /`([^`]+)`/g;
		$test_only{$sym} = 1;
		if (($defined{$sym} // '') ne ($file // '')) {
			problem("$map: test entry point $sym: file $cells[1], but "
				. ($defined{$sym} ? "PG_FUNCTION_INFO_V1($sym) is in $defined{$sym}" : "no src/*.c defines it"));
		}
		problem("$map: test entry point $sym: no test named") unless @tests;
		for my $t (@tests) {
			if (!-f $t) { problem("$map: test entry point $sym: $t does not exist"); next; }
			problem("$map: test entry point $sym: $t does not declare it ('$sym')")
				unless index(slurp($t), "'$sym'") >= 0;
		}
	} else {
		problem("$map: a table of \"From SQL to C\" with columns \"$table\"");
		$table = '(unknown)';
	}
}

for my $id (sort keys %want) {
	my $row = $rows{$id};
	if (!$row) {
		problem("$map: no row for $id: | `$id` | $want{$id}[0] | $want{$id}[1] |");
		next;
	}
	problem("$map: $id: C symbol $row->[0], the scripts say $want{$id}[0]") if $row->[0] ne $want{$id}[0];
	problem("$map: $id: file $row->[1], it is $want{$id}[1]") if $row->[1] ne $want{$id}[1];
}
for my $id (sort keys %rows) {
	problem("$map: row for $id, which the install scripts do not create") unless $want{$id};
}
# A symbol a script has named stays: catalogs of the versions before a
# later script replaced or dropped its function still call it.
for my $sym (sort keys %ever) {
	problem("$ever{$sym}: names $sym, which no src/*.c defines any more (catalogs of earlier installs call it)")
		unless $defined{$sym} || grep { ($_->{symbol} // '') eq $sym } values %fn;
}
my %used = map { ($_->{symbol} // '') => 1 } values %fn;
for my $sym (sort keys %defined) {
	next if $used{$sym} || $ever{$sym};
	problem("$defined{$sym}: PG_FUNCTION_INFO_V1($sym) is neither an SQL function's nor in ${map}'s table of test entry points")
		unless $test_only{$sym};
}
for my $sym (sort keys %test_only) {
	problem("$map: $sym is in the table of test entry points, but the install scripts use it") if $used{$sym};
}

if (@problems) {
	print "$_\n" for @problems;
	printf "sql-c-map: %d problem%s (scripts read: %s)\n", scalar(@problems), @problems == 1 ? '' : 's',
		join(' ', @scripts);
	exit 1;
}
my %syms = map { $_->{symbol} => 1 } grep { $_->{symbol} } values %fn;
my %cfiles = map { $defined{$_} => 1 } grep { $defined{$_} } keys %syms;
printf "sql-c-map: ok (%d SQL functions, %d C symbols in %d files, %d test entry points)\n",
	scalar(keys %want), scalar(keys %syms), scalar(keys %cfiles), scalar(keys %test_only);
PERL
