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
#     repeats).  Links in code (fenced blocks, `spans`) are not links.
#
# The documents are those test/readme.sh runs: README.md and every other
# Markdown file of the tree but build/, hidden folders and test/data.
# Ends with "docs: ok (...)" or the problems and exit status 1.
# Needs perl only.

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mapfile -t DOCS < <(
	printf '%s\n' README.md
	find . \( -path ./build -o -path ./test/data -o -path './.?*' \) -prune -o \
		-type f -name '*.md' ! -path ./README.md -print | sed 's|^\./||' | LC_ALL=C sort
)

exec perl -w - "${DOCS[@]}" <<'PERL'
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Spec;

my $README_MAX_LINES = 800;
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
	my $text = prose(slurp($doc));
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

if (@problems) {
	print "$_\n" for @problems;
	printf "docs: %d problem%s\n", scalar(@problems), @problems == 1 ? '' : 's';
	exit 1;
}
printf "docs: ok (README.md %d lines of at most %d; %d links in %d documents lead somewhere)\n",
	$lines, $README_MAX_LINES, $links, scalar(@docs);
PERL
