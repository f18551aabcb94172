#!/usr/bin/env bash
#
# test/docs.sh - checks of the documentation that need no build and no
# server (test/readme.sh runs its blocks):
#
#   - README.md, the users' guide, has at most 800 lines (what serves
#     maintainers goes to CONTRIBUTING.md and doc/);
#   - every link between the documents leads somewhere: a relative link
#     ([text](path), [text](path#anchor), [text](#anchor)) names a file or
#     folder of the tree, and an anchor names a heading of the Markdown file
#     it points into (GitHub's anchors: the heading in lower case, without
#     punctuation but hyphens, spaces made hyphens, "-1", "-2" ... after
#     repeats).  Links in code (fenced blocks, `spans`) are not links;
#   - README.md's section "Reference" names every function and aggregate
#     the install scripts (src/sql/) create, in backquotes (`name` or
#     `name(...)`), but the support functions of aggregates (named
#     *_trans, *_final, *_combine, *_serialize, *_deserialize), of the
#     type (its INPUT, OUTPUT, RECEIVE and SEND) and of the planner (a
#     function's SUPPORT);
#   - no indented code block (four spaces after a blank line):
#     test/readme.sh runs fenced blocks only, so code is fenced, marked
#     skipped when it must not run;
#   - no figure that drifts: no count of what the tests check (a number
#     followed, at most one word later, by checks, tests, probes, files,
#     SSTables, keys, ...) and no duration (a number of s, ms, minutes,
#     hours) in prose, i.e. outside code.  What the tests count, the test
#     command prints; a sentence that gives such a number goes stale at the
#     next test added.  Records are exempt: those of benchmark runs, each
#     with its date and commit (doc/performance.md, test/bench/README.md),
#     and CHANGELOG.md, each entry of which speaks of its own version.
#
# The documents are those test/readme.sh runs: README.md and every other
# Markdown file of the tree but build/, hidden folders and test/data.
# Ends with "docs: ok (...)" or the problems and exit status 1.
# Needs perl only.

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# shellcheck source=test/lib/docs.sh
. test/lib/docs.sh
mapfile -t DOCS < <(bc_doc_files)

exec perl -w - "${DOCS[@]}" <<'PERL'
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Spec;

my $README_MAX_LINES = 800;
# records: of benchmark runs (dated, with their commits), of versions
my %RECORDS = map { $_ => 1 } qw(doc/performance.md test/bench/README.md CHANGELOG.md);
my $INT = qr/(?<![\w.\/^-])\d{1,3}(?:,\d{3})*(?![\w.\/-]*\d)/;
my $DEC = qr/(?<![\w.\/^-])\d{1,3}(?:,\d{3})*(?:\.\d+)?(?![\w.\/-]*\d)/;
my $COUNTED = qr/(?:unit\s+)?(?:checks?|tests?|probes?|mutants?|inputs?|runs|files?|SSTables?|keys?|filters?|results?|blocks?|hashes|vectors|cases|transactions|attempts|rows)\b/;
my $FIGURE = qr/$INT\s+(?:[\w.`'-]+\s+)?$COUNTED|$DEC\s+(?:thousand|million|billion)\s+(?:[\w.`'-]+\s+)?$COUNTED|$DEC\s?(?:s|ms|min|minutes?|seconds?|hours?)\b/;
my $figures = 0;
my @docs = @ARGV;
my @problems;
my $links = 0;

sub slurp {
	my ($path) = @_;
	open(my $fh, '<:encoding(UTF-8)', $path) or die "$path: $!\n";
	local $/;
	return scalar <$fh>;
}

# the text outside fenced blocks, with inline code spans blanked (or kept,
# for headings); line numbers kept
sub prose {
	my ($text, $keep_code) = @_;
	my ($inside, @out) = (0);
	for my $l (split /\n/, $text, -1) {
		if ($l =~ /^\s*```/) { $inside = !$inside; push @out, ''; next; }
		if ($inside) { push @out, ''; next; }
		$l =~ s/(`+).*?\1//g unless $keep_code;
		push @out, $l;
	}
	return join("\n", @out);
}

my %anchors;	# file => { anchor => 1 }
sub anchors_of {
	my ($file) = @_;
	return $anchors{$file} if $anchors{$file};
	my (%a, %seen);
	for my $l (split /\n/, prose(slurp($file), 1)) {
		next unless $l =~ /^#{1,6}\s+(.*?)\s*#*\s*$/;
		my $slug = lc $1;
		$slug =~ s/[^\p{L}\p{N} _-]//g;
		$slug =~ s/ /-/g;
		my $n = $seen{$slug}++;
		$a{ $n ? "$slug-$n" : $slug } = 1;
	}
	return $anchors{$file} = \%a;
}

# README.md's length
open(my $fh, '<', 'README.md') or die "README.md: $!\n";
my $lines = 0;
$lines++ while <$fh>;
close $fh;
push @problems, "README.md: $lines lines, more than $README_MAX_LINES: move what serves maintainers to CONTRIBUTING.md or doc/"
	if $lines > $README_MAX_LINES;

for my $doc (@docs) {
	my ($n, $prev, $fenced) = (0, '', 0);
	for my $l (split /\n/, slurp($doc)) {
		$n++;
		$fenced = !$fenced if $l =~ /^\s*```/;
		push @problems, "$doc:$n: an indented code block: fence it (```sh, ```sql, ```text), with <!-- readme-test: skip (reason) --> before it if it must not run"
			if !$fenced && $l =~ /^(?: {4}|\t)\S/ && $prev =~ /^\s*$/;
		$prev = $l;
	}
	my $text = prose(slurp($doc));
	if (!$RECORDS{$doc}) {
		my $n = 0;
		for my $l (split /\n/, $text) {
			$n++;
			while ($l =~ /($FIGURE)/g) {
				$figures++;
				push @problems, "$doc:$n: \"$1\": a count or duration in prose drifts as the tests change: leave it out (the test command prints it)";
			}
		}
	}
	# [text](target): the text may run over lines
	while ($text =~ /\]\(([^()\s]*)\)/g) {
		my $target = $1;
		my $line = 1 + (() = substr($text, 0, pos($text)) =~ /\n/g);
		next if $target =~ m{^[a-z][a-z0-9+.-]*:}i;	# http:, https:, mailto:
		$links++;
		my ($path, $anchor) = $target =~ /^([^#]*)(?:#(.*))?$/;
		my $file = $path eq '' ? $doc : File::Spec->canonpath(File::Spec->catfile(dirname($doc), $path));
		if ($path ne '' && !-e $file) {
			push @problems, "$doc:$line: link to $target: no file $file";
			next;
		}
		next unless defined $anchor;
		if ($file !~ /\.md$/ || -d $file) {
			push @problems, "$doc:$line: link to $target: an anchor into $file, which is not a Markdown file";
			next;
		}
		push @problems, "$doc:$line: link to $target: $file has no heading whose anchor is #$anchor"
			unless anchors_of($file)->{$anchor};
	}
}

# README.md's reference names every user-facing function
my (%user, %support);
for my $script (glob('src/sql/bloomcass--*.sql')) {
	my $sql = slurp($script);
	$user{$1} = $script while $sql =~ /CREATE\s+(?:OR\s+REPLACE\s+)?(?:FUNCTION|AGGREGATE)\s+(?:\@extschema\@\.)?(\w+)/gi;
	$support{$1} = 1 while $sql =~ /\b(?:INPUT|OUTPUT|RECEIVE|SEND)\s*=\s*(?:\@extschema\@\.)?(\w+)/gi;
	$support{$1} = 1 while $sql =~ /\bSUPPORT\s+(?:\@extschema\@\.)?(\w+)/gi;
}
my ($reference) = slurp('README.md') =~ /^## Reference\n(.*?)(?=^## |\z)/ms;
if (!defined $reference) {
	push @problems, 'README.md: no section "## Reference"';
	$reference = '';
}
my $documented = 0;
for my $name (sort keys %user) {
	next if $support{$name} || $name =~ /_(?:trans|final|combine|serialize|deserialize)$/;
	$documented++;
	push @problems, "README.md: the Reference does not name $name (created by $user{$name})"
		unless $reference =~ /`\Q$name\E[`(]/;
}

if (@problems) {
	print "$_\n" for @problems;
	printf "docs: %d problem%s\n", scalar(@problems), @problems == 1 ? '' : 's';
	exit 1;
}
printf "docs: ok (README.md %d lines of at most %d, its Reference naming all %d user-facing functions; %d links in %d documents lead somewhere)\n",
	$lines, $README_MAX_LINES, $documented, $links, scalar(@docs);
PERL
