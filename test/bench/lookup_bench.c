/*
 * lookup_bench.c - what an exact partition key lookup reads in a BIG
 * SSTable (bc_big_lookup, the core of cassandra_sstable_has_key: a binary
 * search of Summary.db, then at most one sampling interval of Index.db)
 * against what a full scan of Index.db reads (the path of
 * cassandra_sstable_keys), on the SSTables lookup_gen.c writes;
 * test/bench/README.md.
 *
 *   lookup_bench [-n SAMPLE] N DIR [N DIR ...]
 *
 * DIR holds nb-1-big-Index.db and nb-1-big-Summary.db of the keys key-0 ..
 * key-<N-1> (lookup_keys.h).  For each, every read goes through a counting
 * bc_reader over pread(2) (reads and bytes; lookup_files.c), and:
 *
 *   1. full scan: Index.db read whole in pieces of 1 MiB through the
 *      core's cursor (bc_index.h), as cassandra_sstable_keys reads it:
 *      bytes, reads, time.  A second pass checks that it holds exactly
 *      those keys in Murmur3 order with their nominal positions
 *      (lookup_files.c).
 *   2. Summary.db checked against Index.db (lookup_files.c).
 *   3. lookups (bc_big_lookup, Murmur3): SAMPLE present keys (default
 *      1000), at positions spread evenly over Index.db (the first and the
 *      last key among them), plus the entries at the ends of the first and
 *      last full sampling intervals; and SAMPLE absent keys, key-<N>,
 *      key-<N+1>, ..., those whose token falls strictly between the first
 *      and last keys' (so each goes through the summary search and an
 *      Index.db interval).  Every present key must be found, every absent
 *      one not; the counting readers must agree with the lookup's own
 *      statistics; and each lookup must stay within bounds that follow
 *      from the format and the search alone (S samples, K the longest key):
 *        Summary.db  at most floor(log2 S) + 1 probes of the binary search,
 *                    plus the chosen sample and the next one read again;
 *                    2 reads per sample (its offsets, 8 bytes; its entry,
 *                    K + 8 bytes) and 1 of the 24-byte header:
 *                      reads <= 1 + 2 (floor(log2 S) + 3)
 *                      bytes <= 24 + (floor(log2 S) + 3) (K + 16)
 *        Index.db    at most one interval, 128 entries compared; 2 reads
 *                    per entry (the BE16 length; the key and 18 bytes of
 *                    room for its two vints):
 *                      entries <= 128, reads <= 256,
 *                      bytes <= 128 (K + 20)
 *      Counts, not times: the bounds hold on any machine.
 *
 * Prints one table row per SSTable (markdown), then "lookup-bench: ..." as
 * its last line; exits 1 when an answer is wrong, a bound is exceeded or a
 * file is not what it must be, naming the first cause.  Time is reported as
 * one ratio measured in the same run (a full scan's time over a lookup's
 * mean time), never checked.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bc_lookup.h"
#include "bc_murmur3.h"
#include "bc_partitioner.h"
#include "lookup_bench.h"

#define MAX_SIZES 16
#define MAX_REPORTED 10			/* failures printed per SSTable */

static long total_failures;
static char first_failure[512];

void
lb_fail(result *r, const char *fmt,...)
{
	char		msg[448];
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (total_failures == 0)
		snprintf(first_failure, sizeof(first_failure), "N=%" PRIu64 ": %s", r->n, msg);
	total_failures++;
	if (r->failures++ < MAX_REPORTED)
		printf("FAIL: N=%" PRIu64 ": %s\n", r->n, msg);
}

static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

static void
figure_add(figure *fg, uint64_t v)
{
	if (v > fg->max)
		fg->max = v;
	fg->sum += v;
}

static uint64_t
floor_log2(uint64_t v)
{
	uint64_t	l = 0;

	while (v > 1)
	{
		v >>= 1;
		l++;
	}
	return l;
}

/* one lookup, its answer and what it read checked */
static void
probe(result *r, counted_file *sf, counted_file *xf, uint8_t *scratch,
	  const char *key, size_t key_len, int expect)
{
	bc_lookup_stats stats;
	int			found = -1;
	bc_status	st;
	double		t0;
	const bounds *b = &r->bound;

	lb_count_reset(sf);
	lb_count_reset(xf);
	t0 = now_ns();
	st = bc_big_lookup(&sf->reader, &xf->reader, LB_VERSION, 2, BC_PARTITIONER_MURMUR3, NULL,
					   (const uint8_t *) key, key_len, scratch, &found, &stats);
	r->lookup_ns += now_ns() - t0;
	if (expect)
		r->present++;
	else
		r->absent++;
	if (st != BC_OK)
	{
		lb_fail(r, "%.*s: %s", (int) key_len, key, bc_status_message(st));
		return;
	}
	if (found != expect)
		lb_fail(r, "%.*s: %s, but it is %s", (int) key_len, key,
				found ? "found" : "not found", expect ? "present" : "absent");
	if (!stats.bounded)
		lb_fail(r, "%.*s: Summary.db was not searched", (int) key_len, key);
	if (sf->reads != stats.summary_reads || sf->bytes != stats.summary_bytes ||
		xf->reads != stats.index_reads || xf->bytes != stats.index_bytes)
		lb_fail(r, "%.*s: the readers counted %" PRIu64 "/%" PRIu64 " and %" PRIu64 "/%" PRIu64
				" reads/bytes, the lookup %" PRIu64 "/%" PRIu64 " and %" PRIu64 "/%" PRIu64,
				(int) key_len, key, sf->reads, sf->bytes, xf->reads, xf->bytes,
				stats.summary_reads, stats.summary_bytes, stats.index_reads, stats.index_bytes);
	if (sf->reads > b->summary_reads || sf->bytes > b->summary_bytes)
		lb_fail(r, "%.*s: Summary.db %" PRIu64 " reads, %" PRIu64 " bytes: over the bound (%"
				PRIu64 ", %" PRIu64 ")", (int) key_len, key, sf->reads, sf->bytes,
				b->summary_reads, b->summary_bytes);
	if (stats.index_entries > b->index_entries || xf->reads > b->index_reads ||
		xf->bytes > b->index_bytes)
		lb_fail(r, "%.*s: Index.db %" PRIu64 " entries, %" PRIu64 " reads, %" PRIu64
				" bytes: over the bound (%" PRIu64 ", %" PRIu64 ", %" PRIu64 ")",
				(int) key_len, key, stats.index_entries, xf->reads, xf->bytes,
				b->index_entries, b->index_reads, b->index_bytes);
	figure_add(&r->summary_reads, sf->reads);
	figure_add(&r->summary_bytes, sf->bytes);
	figure_add(&r->index_reads, xf->reads);
	figure_add(&r->index_bytes, xf->bytes);
	figure_add(&r->index_entries, stats.index_entries);
	figure_add(&r->total_bytes, sf->bytes + xf->bytes);
}

static void
run_sstable(result *r, const char *dir, uint64_t sample, uint8_t *piece,
			bc_index_cursor *cur, uint8_t *scratch)
{
	counted_file sf,
				xf;
	lb_index_record rec;
	bc_summary	s;
	uint8_t    *summary_data = NULL;
	uint64_t	nkeys,
				j,
				k,
				accepted;
	int64_t		first_token,
				last_token;
	char		key[LK_KEY_MAX];
	size_t		key_len,
				max_len;
	uint64_t	log2s;
	double		t0;
	bc_status	st;

	memset(&rec, 0, sizeof(rec));
	sf.fd = xf.fd = -1;
	if (!lb_open(&xf, dir, "Index.db") || !lb_open(&sf, dir, "Summary.db"))
	{
		lb_fail(r, "%s: the files cannot be opened (run lookup_gen first)", dir);
		goto out;
	}
	r->index_size = xf.reader.size;

	/* 1. the full scan, timed; then the checking pass */
	lb_count_reset(&xf);
	t0 = now_ns();
	st = lb_scan_index(&xf, piece, cur, NULL, &nkeys);
	if (st != BC_OK)
	{
		lb_fail(r, "Index.db: %s", bc_status_message(st));
		goto out;
	}
	r->scan_ns = now_ns() - t0;
	r->scan_reads = xf.reads;
	r->scan_bytes = xf.bytes;
	if (r->scan_bytes != r->index_size)
		lb_fail(r, "the scan read %" PRIu64 " bytes of %" PRIu64, r->scan_bytes, r->index_size);

	rec.r = r;
	rec.numbers = malloc(sizeof(uint32_t) * r->n);
	rec.sample_offsets = malloc(sizeof(uint64_t) * ((r->n + LB_INTERVAL - 1) / LB_INTERVAL));
	rec.seen = calloc(r->n / 8 + 1, 1);
	if (rec.numbers == NULL || rec.sample_offsets == NULL || rec.seen == NULL)
	{
		lb_fail(r, "out of memory");
		goto out;
	}
	st = lb_scan_index(&xf, piece, cur, &rec, &nkeys);
	if (st != BC_OK)
		lb_fail(r, "Index.db: %s", bc_status_message(st));
	if (r->failures > 0)
		goto out;
	if (nkeys != r->n)
	{
		lb_fail(r, "Index.db holds %" PRIu64 " keys, not %" PRIu64, nkeys, r->n);
		goto out;
	}

	/* 2. Summary.db */
	if (!lb_check_summary(&sf, &rec, &s, &summary_data))
		goto out;
	r->samples = s.count;

	/* the bounds: S samples, K the longest key (key-<N-1>) */
	max_len = lk_key(r->n - 1, key);
	log2s = floor_log2((uint64_t) s.count);
	r->bound.summary_reads = 1 + 2 * (log2s + 3);
	r->bound.summary_bytes = 24 + (log2s + 3) * (max_len + 16);
	/* one sampling interval, and the entry after it (the next sample,
	 * past the key: bc_lookup.c) */
	r->bound.index_entries = LB_INTERVAL + 1;
	r->bound.index_reads = 2 * (LB_INTERVAL + 1);
	r->bound.index_bytes = (LB_INTERVAL + 1) * (max_len + 20);

	/* 3a. present keys: evenly spread, and the ends of two intervals */
	k = sample < r->n ? sample : r->n;
	for (j = 0; j < k; j++)
	{
		uint64_t	pos = k > 1 ? j * (r->n - 1) / (k - 1) : 0;

		key_len = lk_key(rec.numbers[pos], key);
		probe(r, &sf, &xf, scratch, key, key_len, 1);
	}
	if (s.count >= 2)
	{
		uint64_t	ends[2] = {LB_INTERVAL - 1, (uint64_t) (s.count - 1) * LB_INTERVAL - 1};

		for (j = 0; j < 2; j++)
		{
			key_len = lk_key(rec.numbers[ends[j]], key);
			probe(r, &sf, &xf, scratch, key, key_len, 1);
		}
	}

	/* 3b. absent keys between the first and the last in token order */
	key_len = lk_key(rec.numbers[0], key);
	first_token = bc_token(key, key_len);
	key_len = lk_key(rec.numbers[r->n - 1], key);
	last_token = bc_token(key, key_len);
	accepted = 0;
	for (j = r->n; accepted < sample && j < r->n + 100 * sample + 1000; j++)
	{
		int64_t		t;

		key_len = lk_key(j, key);
		t = bc_token(key, key_len);
		if (t <= first_token || t >= last_token)
			continue;
		probe(r, &sf, &xf, scratch, key, key_len, 0);
		accepted++;
	}
	if (accepted < sample)
		lb_fail(r, "only %" PRIu64 " absent keys between the first and last key", accepted);

out:
	lb_close(&xf);
	lb_close(&sf);
	free(rec.numbers);
	free(rec.sample_offsets);
	free(rec.seen);
	free(summary_data);
}

static double
mean(const figure *f, uint64_t n)
{
	return n > 0 ? (double) f->sum / (double) n : 0.0;
}

static void
print_table(const result *res, int nres)
{
	int			i;

	printf("\n| N | Index.db bytes | summary entries"
		   " | summary reads max / mean (bound) | summary bytes max / mean (bound)"
		   " | index reads max / mean (bound) | index bytes max / mean (bound)"
		   " | bytes per lookup max / mean | full scan bytes (reads)"
		   " | scan / lookup bytes | scan / lookup time |\n");
	printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (i = 0; i < nres; i++)
	{
		const result *r = &res[i];
		uint64_t	n = r->present + r->absent;
		double		lookup = n > 0 ? r->lookup_ns / (double) n : 0.0;

		printf("| %" PRIu64 " | %" PRIu64 " | %" PRId32
			   " | %" PRIu64 " / %.1f (%" PRIu64 ") | %" PRIu64 " / %.1f (%" PRIu64 ")"
			   " | %" PRIu64 " / %.1f (%" PRIu64 ") | %" PRIu64 " / %.1f (%" PRIu64 ")"
			   " | %" PRIu64 " / %.1f | %" PRIu64 " (%" PRIu64 ") | %.0f | %.0f |\n",
			   r->n, r->index_size, r->samples,
			   r->summary_reads.max, mean(&r->summary_reads, n), r->bound.summary_reads,
			   r->summary_bytes.max, mean(&r->summary_bytes, n), r->bound.summary_bytes,
			   r->index_reads.max, mean(&r->index_reads, n), r->bound.index_reads,
			   r->index_bytes.max, mean(&r->index_bytes, n), r->bound.index_bytes,
			   r->total_bytes.max, mean(&r->total_bytes, n),
			   r->scan_bytes, r->scan_reads,
			   mean(&r->total_bytes, n) > 0 ? (double) r->scan_bytes / mean(&r->total_bytes, n) : 0.0,
			   lookup > 0 ? r->scan_ns / lookup : 0.0);
	}
	printf("\nper SSTable: present keys / absent keys looked up, Index.db entries compared"
		   " per lookup max / mean (bound), a lookup's mean time and a full scan's"
		   " (this machine, this run):\n");
	for (i = 0; i < nres; i++)
	{
		const result *r = &res[i];
		uint64_t	n = r->present + r->absent;

		printf("  N=%" PRIu64 ": %" PRIu64 " / %" PRIu64 ", entries %" PRIu64 " / %.1f (%"
			   PRIu64 "), lookup %.1f us, scan %.1f ms\n",
			   r->n, r->present, r->absent, r->index_entries.max,
			   mean(&r->index_entries, n), r->bound.index_entries,
			   n > 0 ? r->lookup_ns / (double) n / 1e3 : 0.0, r->scan_ns / 1e6);
	}
}

int
main(int argc, char **argv)
{
	result		res[MAX_SIZES];
	int			nres = 0;
	int			a = 1;
	uint64_t	sample = 1000;
	uint64_t	lookups = 0;
	uint8_t    *piece = malloc(LB_SCAN_PIECE);
	uint8_t    *scratch = malloc(BC_LOOKUP_SCRATCH);
	bc_index_cursor *cur = malloc(sizeof(bc_index_cursor));
	int			i,
				largest = 0;

	if (a + 1 < argc && strcmp(argv[a], "-n") == 0)
	{
		sample = strtoull(argv[a + 1], NULL, 10);
		a += 2;
	}
	if (sample < 1 || argc - a < 2 || (argc - a) % 2 != 0 || (argc - a) / 2 > MAX_SIZES)
	{
		fprintf(stderr, "usage: lookup_bench [-n SAMPLE] N DIR [N DIR ...] (at most %d)\n",
				MAX_SIZES);
		return 2;
	}
	if (piece == NULL || scratch == NULL || cur == NULL)
	{
		fprintf(stderr, "lookup_bench: out of memory\n");
		return 1;
	}
	for (; a < argc; a += 2)
	{
		result	   *r = &res[nres++];
		char	   *end;

		memset(r, 0, sizeof(*r));
		r->n = strtoull(argv[a], &end, 10);
		if (*end != '\0' || r->n < 2 || r->n > UINT32_MAX)
		{
			/* absent keys fall between the first key and the last */
			fprintf(stderr, "lookup_bench: N must be 2 or more, not \"%s\"\n", argv[a]);
			return 2;
		}
		run_sstable(r, argv[a + 1], sample, piece, cur, scratch);
		lookups += r->present + r->absent;
		printf("N=%" PRIu64 ": %s: %" PRIu64 " present and %" PRIu64 " absent keys looked up%s\n",
			   r->n, argv[a + 1], r->present, r->absent,
			   r->failures > 0 ? ", FAILED" : ", every answer exact and within its bounds");
	}
	print_table(res, nres);
	for (i = 1; i < nres; i++)
		if (res[i].n > res[largest].n)
			largest = i;
	free(piece);
	free(scratch);
	free(cur);
	if (total_failures > 0)
	{
		printf("lookup-bench: FAILED (%ld failures), first: %s\n", total_failures, first_failure);
		return 1;
	}
	printf("lookup-bench: %d SSTables up to %" PRIu64 " keys, %" PRIu64
		   " lookups exact, each within its bound (largest: %" PRIu64 " bytes of %" PRIu64
		   " for a full scan)\n", nres, res[largest].n, lookups,
		   res[largest].total_bytes.max, res[largest].scan_bytes);
	return 0;
}
