/*
 * lookup_bench.h - what the lookup benchmark's two files share
 * (test/bench/README.md): lookup_files.c reads the generated SSTables
 * through counting readers and checks them against what they must hold;
 * lookup_bench.c looks keys up in them, holds each lookup to its bounds and
 * prints the table.
 */
#ifndef LOOKUP_BENCH_H
#define LOOKUP_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "bc_index.h"
#include "bc_reader.h"
#include "bc_status.h"
#include "bc_summary.h"
#include "lookup_keys.h"

#define LB_VERSION "nb"
#define LB_INTERVAL 128			/* min_index_interval, at full sampling */
#define LB_SCAN_PIECE ((size_t) 1024 * 1024)	/* cassandra_sstable_keys' KEYS_PIECE */

/* a file read through pread(2), every call and byte counted */
typedef struct counted_file
{
	int			fd;
	uint64_t	reads;
	uint64_t	bytes;
	bc_reader	reader;
} counted_file;

/* maximum and sum of one figure over the lookups */
typedef struct figure
{
	uint64_t	max;
	uint64_t	sum;
} figure;

typedef struct bounds
{
	uint64_t	summary_reads;
	uint64_t	summary_bytes;
	uint64_t	index_entries;
	uint64_t	index_reads;
	uint64_t	index_bytes;
} bounds;

typedef struct result
{
	uint64_t	n;
	uint64_t	index_size;
	int32_t		samples;
	uint64_t	scan_reads;
	uint64_t	scan_bytes;
	double		scan_ns;
	uint64_t	present;
	uint64_t	absent;
	double		lookup_ns;
	figure		summary_reads,
				summary_bytes,
				index_reads,
				index_bytes,
				index_entries,
				total_bytes;
	bounds		bound;
	long		failures;
} result;

/* a failure of SSTable r: counted, the first ones printed (lookup_bench.c) */
void		lb_fail(result *r, const char *fmt,...)
#if defined(__GNUC__)
			__attribute__((format(printf, 2, 3)))
#endif
			;

/* DIR/nb-1-big-COMPONENT opened for counted reads; 0 (and printed) if not */
int			lb_open(counted_file *f, const char *dir, const char *component);
void		lb_count_reset(counted_file *f);
void		lb_close(counted_file *f);	/* nothing when not open (fd -1) */

/* what the checking pass of the full scan records of Index.db */
typedef struct lb_index_record
{
	result	   *r;
	uint32_t   *numbers;		/* key number of each entry, in file order */
	uint64_t   *sample_offsets; /* Index.db offset of entries 0, 128, ... */
	uint8_t    *seen;			/* one bit per key number */
	uint8_t		prev[LK_KEY_MAX];
	size_t		prev_len;
	uint64_t	position;		/* the next entry's Data.db position */
} lb_index_record;

/*
 * The whole of Index.db through the core's cursor (bc_index.h), in
 * LB_SCAN_PIECE pieces, as cassandra_sstable_keys reads it; with rec, each
 * entry checked and recorded.  BC_ERR_READ when a read fails or the file
 * ends early, else the cursor's status.
 */
bc_status	lb_scan_index(counted_file *f, uint8_t *piece, bc_index_cursor *cur,
						  lb_index_record *rec, uint64_t *nkeys);

/* Summary.db, read whole into *data (the caller frees it) and parsed into
 * *s, against Index.db's record; 0 when it is not what it must be */
int			lb_check_summary(counted_file *sf, const lb_index_record *rec,
							 bc_summary *s, uint8_t **data);

#endif							/* LOOKUP_BENCH_H */
