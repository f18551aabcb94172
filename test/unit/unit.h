/*
 * unit.h - minimal harness for the core's C unit tests.
 *
 * Every CHECK counts one check; the runner prints "N passed, M failed" and
 * exits non-zero when anything failed.  Helpers read the reference data
 * (tab-separated vectors, whole files, hex) from the test data directory.
 */
#ifndef BLOOMCASS_UNIT_H
#define BLOOMCASS_UNIT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bc_reader.h"

extern long unit_passed;
extern long unit_failed;

void		unit_fail(const char *file, int line, const char *fmt,...)
#if defined(__GNUC__)
			__attribute__((format(printf, 3, 4)))
#endif
			;

#define CHECK(cond, ...) \
	do { \
		if (cond) \
			unit_passed++; \
		else \
			unit_fail(__FILE__, __LINE__, __VA_ARGS__); \
	} while (0)

/* Path of a file under the data directory (static buffer, valid until the
 * next call). */
const char *unit_path(const char *rel);

/* Read a whole file; returns malloc'd bytes (caller frees) or NULL. */
uint8_t    *unit_read_file(const char *path, size_t *len);

/* Value of a hex digit (either case), -1 for anything else. */
int			unit_hexval(char c);

/* Decode hex (lower or upper case) into a malloc'd buffer; NULL if invalid.
 * An empty string gives a non-NULL buffer of length 0. */
uint8_t    *unit_hex_decode(const char *hex, size_t hexlen, size_t *len);

/* Lowercase hex of bytes into a malloc'd NUL-terminated string. */
char	   *unit_hex_encode(const uint8_t *data, size_t len);

/* 1 when the lowercase hex of data[0 .. len) is hex. */
int			unit_hex_eq(const uint8_t *data, size_t len, const char *hex);

/* A check that got[0 .. len) is want_hex, naming line and what when not. */
void		unit_check_bytes(int line, const char *what, const uint8_t *got, size_t len,
							 const char *want_hex);

/*
 * Tab-separated files: unit_tsv_open() opens a file under the data
 * directory; unit_tsv_next() reads the next non-comment line and splits it
 * into at most maxf fields (in place), returning the field count, or -1 at
 * the end of the file.  Lines starting with '#' are skipped.
 */
typedef struct unit_tsv
{
	FILE	   *fp;
	char	   *line;
	size_t		cap;
	long		lineno;
	const char *name;
} unit_tsv;

int			unit_tsv_open(unit_tsv *t, const char *rel);
int			unit_tsv_next(unit_tsv *t, char **fields, int maxf);
void		unit_tsv_close(unit_tsv *t);

/*
 * A file in memory read through a bc_reader.  It counts the reads and the
 * bytes handed out, notes the largest request and any read that does not
 * start where the last one ended; read number fail_at (1 = the first)
 * fails, read number short_at gives half of what it could, and piece (0:
 * no limit) caps every read, as a reader that gives fewer bytes than asked.
 */
typedef struct unit_mem
{
	const uint8_t *data;
	size_t		len;
	size_t		piece;
	long		nreads;
	long		fail_at;
	long		short_at;
	uint64_t	bytes;
	size_t		max_request;
	uint64_t	next;
	int			out_of_order;
} unit_mem;

/* a reader over m as it is set */
bc_reader	unit_mem_reader(unit_mem *m);
/* m zeroed and set to data, and a reader over it in *r */
void		unit_mem_open(unit_mem *m, bc_reader *r, const uint8_t *data, size_t len);

/* Parse a signed 64-bit decimal; returns 0 on success. */
int			unit_parse_i64(const char *s, int64_t *out);

/* A growable buffer of bytes written by a test (d malloc'd, or NULL while
 * empty: {0} starts one; free(d) ends it); a failed allocation aborts. */
/* a growable buffer of bytes (test/lib/bytebuf.h) */
#include "bytebuf.h"

/* Test suites: test/unit/<folder>/test_<core file>.c tests
 * src/core/<folder>/bc_<core file>.c, the same folder (src/core/README.md). */
void		suite_murmur3(void);	/* test_murmur3.c */
void		suite_indexes(void);	/* test_filter.c */
void		suite_ops(void);
void		suite_sizing(void);	/* test_sizing.c */
void		suite_codec(void);	/* test_codec.c */
void		suite_filters(void);	/* test_filter_files.c */
void		suite_real_filters(void);	/* test_filter_files.c */
void		suite_status(void);	/* test_status.c */
void		suite_keys(void);	/* test_keys.c */
void		suite_keys_number(void);	/* test_keys_number.c */
void		suite_keys_types(void);	/* test_keys_types.c */
void		suite_index(void);	/* test_index.c */
void		suite_summary(void);	/* test_summary.c */
void		suite_sstable_name(void);	/* test_sstable_name.c */
void		suite_statistics(void);	/* test_statistics.c */
void		suite_statistics_damaged(void);	/* test_statistics_damaged.c */
void		suite_statistics_layouts(void);	/* test_statistics_layouts.c */
void		suite_metadata(void);	/* test_metadata.c */
void		suite_hll(void);	/* test_hll.c */
void		suite_filter_sizing(void);	/* test_filter_sizing.c */
void		suite_txn_log(void);	/* test_txn_log.c */
void		suite_sstable_dir(void);	/* test_sstable_dir.c */
void		suite_health(void);	/* test_health.c */
void		suite_partitions(void);	/* test_partitions.c */
void		suite_scylladb(void);	/* test_scylladb.c */
void		suite_compression(void);	/* test_compression.c */
void		suite_compression_damaged(void);	/* test_compression_damaged.c */
void		suite_compression_dict(void);	/* test_compression_dict.c */
void		suite_walk(void);	/* test_walk.c */
void		suite_walk_links(void);	/* test_walk_links.c */
void		suite_walk_logs(void);	/* test_walk_logs.c */
void		suite_mounts(void);	/* test_mounts.c */
void		suite_open(void);	/* test_open.c */
void		suite_key_range(void);	/* test_key_range.c */
void		suite_key_range_bti(void);	/* test_key_range_bti.c */
void		suite_lookup(void);	/* test_lookup.c */
void		suite_agreement(void);	/* test_agreement.c */
void		suite_index_samples(void);	/* test_index_samples.c */
void		suite_data_bounds(void);	/* test_data_bounds.c */
void		suite_partitioner(void);	/* test_partitioner.c */
void		suite_compression(void);
void		suite_trie(void);	/* test_trie.c */
void		suite_trie_keys(void);	/* test_trie_keys.c */
void		suite_trie_scylladb(void);
void		suite_datastax(void);	/* test_datastax.c */
void		suite_cqltype(void);	/* test_cqlvalue.c */
void		suite_cqlvalue(void);
void		suite_recursion(void);	/* test_recursion.c */
void		suite_partition_sizes(void);	/* test_partition_sizes.c */

#endif
