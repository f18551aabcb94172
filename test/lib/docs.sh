# shellcheck shell=bash
# test/lib/docs.sh - the documentation files, for test/readme.sh (which runs
# their blocks) and test/docs.sh (which checks their rules): README.md first,
# then every other Markdown file of the tree in the order of their paths,
# but build/, hidden folders and test/data (whose files describe the
# reference data).  Run from the repository's root.

# bc_doc_files: the files, one a line
bc_doc_files() {
	printf '%s\n' README.md
	find . \( -path ./build -o -path ./test/data -o -path './.?*' \) -prune -o \
		-type f -name '*.md' ! -path ./README.md -print | sed 's|^\./||' | LC_ALL=C sort
}
