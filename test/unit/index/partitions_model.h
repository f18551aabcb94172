/*
 * partitions_model.h - what the tests of Partitions.db share
 * (partitions_model.c): the format as Cassandra's
 * PartitionIndexBuilder.complete() writes it, read without the core, and
 * a file checked against it, read whole and through the two-step API,
 * and files crafted in that layout.  test_partitions.c uses them on
 * Cassandra's and DataStax's BTI SSTables, test_scylladb.c on ScyllaDB's
 * ms, test_key_range_bti.c crafts files with it.
 */
#ifndef PARTITIONS_MODEL_H
#define PARTITIONS_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "bc_status.h"
#include "unit.h"

/* the status a whole file must give, and its fields */
typedef struct model
{
	bc_status	st;
	uint64_t	keys_pos,
				count,
				root;
	size_t		first_off,
				first_len,
				last_off,
				last_len;
} model;

model		model_parse(const uint8_t *d, size_t len);

/* whether st is one of the Partitions.db errors */
int			is_partitions_status(bc_status st);

/* d[0 .. len) read whole (bc_partitions_parse) and through the two-step
 * API from exact-size copies, both checked against the model; the status */
bc_status	check_file(const uint8_t *d, size_t len, const char *what);

/* A file laid out as PartitionIndexBuilder.complete() writes one: trie
 * bytes (0x11), the first and last keys with their 2-byte lengths, extra
 * bytes (zero, which the readers ignore), the footer (keys at trie, count,
 * root), written into out (trie + 4 + l1 + l2 + extra + 24 bytes); its
 * length */
size_t		partitions_build(uint8_t *out, size_t trie, const uint8_t *k1, size_t l1,
							 const uint8_t *k2, size_t l2, size_t extra,
							 uint64_t count, uint64_t root);

/* The Partitions.db of the BTI SSTables of sstables/MANIFEST.tsv, one at a
 * time: bti_files_open, bti_files_next until it returns NULL, then
 * bti_files_close.  Each file's bytes (malloc'd: the caller frees them),
 * with its manifest fields (f) and its name (what); a short manifest line
 * or a missing file is a failed check, and passed over. */
typedef struct bti_files
{
	unit_tsv	t;
	int			open;
	char	   *f[40];
	char		what[4096];
	long		count;			/* files returned */
} bti_files;

void		bti_files_open(bti_files *b);
uint8_t    *bti_files_next(bti_files *b, size_t *len);
void		bti_files_close(bti_files *b);

#endif							/* PARTITIONS_MODEL_H */
