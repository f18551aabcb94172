/*
 * core_bench.c - B5: micro-benchmark of the bloomcass core, without
 * PostgreSQL.
 *
 *   cc -O2 -Isrc/core/base -Isrc/core/filter ... (every folder of the
 *      core) -o build/bench/core_bench test/bench/core_bench.c
 *      src/core/<folder>/bc_*.c -llz4 -lsnappy -lz -lzstd -lm
 * as test/bench/run.sh builds it.
 *   build/bench/core_bench [-q] [-r REPS] [-o RAW.tsv]
 *
 * Measures, with clock_gettime(CLOCK_MONOTONIC), the median over REPS
 * repetitions of
 *   - contains: bc_filter_test() on 16-byte keys (murmur3 included), half
 *     of the probes present, for a filter sized for 1e6 keys at 0.01
 *     (1.2 MB, cache-resident) and one sized for 1e8 keys (120 MB,
 *     DRAM-resident; -q: 1e7 keys, 12 MB), the large one twice: in plain
 *     malloc'ed memory (4 KB pages) and in memory advised to use transparent
 *     huge pages (madvise MADV_HUGEPAGE, as the extension does for the large
 *     filters its aggregates build), metrics suffixed _thp; after each fill
 *     the process's AnonHugePages is printed, which shows whether the kernel
 *     gave the advised filter huge pages;
 *   - contains_batch: the same probes through the batch path of
 *     bloom_contains_each: BC_FILTER_BATCH keys hashed into an array, then
 *     bc_filter_test_hashes() on the batch (murmur3 included); and, on
 *     each filter, the same with batches of 1, 2, 4, 8 and 16 keys
 *     (contains_batchB_...), which shows how many DRAM round trips the
 *     machine overlaps (its memory-level parallelism);
 *   - add: bc_filter_add() on 16-byte keys (murmur3 included), one key at
 *     a time, into the same filters;
 *   - add_batch: the aggregate's batch path: 16-byte keys hashed 64 at a
 *     time into an array, then bc_filter_add_hashes() on the batch (murmur3
 *     included; the streaming aggregate batches 64 hashes the same way);
 *   - add_hashes: bc_filter_add_hashes() over precomputed hashes (murmur3
 *     not included), what the exact-mode final function does per bucket;
 *   - murmur3 throughput on 1 KB keys (an L2-resident 1 MB buffer hashed
 *     1 KB at a time), GB/s (1e9 bytes per second);
 *   - first touch: ms to malloc, write and free 100 MB of fresh memory (page
 *     faults), a property of the machine that every large allocation in
 *     PostgreSQL pays too (detoasting a big filter, copying a parameter).
 * Keys are pseudo-random (splitmix64 of a counter), so successive probes
 * hit unrelated cache lines.  The probe and add key arrays are generated
 * before timing; only hashing and the filter access are timed.
 *
 * Prints a summary on stdout; with -o writes every sample as
 * "metric<TAB>rep<TAB>value" (ns per operation, or GB/s for murmur3).
 */
#define _DEFAULT_SOURCE			/* madvise, MADV_HUGEPAGE */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

#include "bc_filter.h"
#include "bc_murmur3.h"
#include "bc_sizing.h"
#include "bc_status.h"

#define KEY_LEN 16
#define MAX_REPS 101
#define BATCH 64				/* as the streaming aggregate (PENDING_MAX) */

static FILE *raw_out;

/* the medians the pass/fail check reads (ns per key) */
static double med_contains[3],
			med_batch[3];
static volatile uint64_t sink;	/* keeps results alive */

static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

static uint64_t
mix64(uint64_t z)
{
	z += UINT64_C(0x9e3779b97f4a7c15);
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Key number i: 16 pseudo-random bytes. */
static void
key_of(uint64_t i, uint8_t out[KEY_LEN])
{
	uint64_t	a = mix64(2 * i),
				b = mix64(2 * i + 1);

	memcpy(out, &a, 8);
	memcpy(out + 8, &b, 8);
}

static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return x < y ? -1 : x > y;
}

static double
median(const double *v, int n)
{
	double		s[MAX_REPS];

	memcpy(s, v, n * sizeof(double));
	qsort(s, n, sizeof(double), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static void
record(const char *metric, const double *v, int reps, const char *unit)
{
	double		lo = v[0],
				hi = v[0];
	int			i;

	for (i = 0; i < reps; i++)
	{
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
		if (raw_out)
			fprintf(raw_out, "%s\t%d\t%.4f\n", metric, i + 1, v[i]);
	}
	printf("%-28s median %9.2f %s  (min %.2f, max %.2f, %d reps)\n", metric,
		   median(v, reps), unit, lo, hi, reps);
	fflush(stdout);
}

/* Zeroed memory for a bitset; with thp, 2 MB aligned and advised to use
 * transparent huge pages. */
static uint8_t *
alloc_bits(size_t len, int thp)
{
	void	   *p = NULL;

	if (!thp)
		return calloc(len, 1);
	if (posix_memalign(&p, (size_t) 2 << 20, len) != 0)
		return NULL;
#ifdef MADV_HUGEPAGE
	(void) madvise(p, len, MADV_HUGEPAGE);
#endif
	memset(p, 0, len);
	return p;
}

/* The process's AnonHugePages in kB (/proc/self/smaps_rollup), -1 where
 * unknown: whether the kernel gave the advised filter huge pages. */
static long
anon_huge_kb(void)
{
	FILE	   *f = fopen("/proc/self/smaps_rollup", "r");
	char		line[256];
	long		kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "AnonHugePages:", 14) == 0)
			kb = atol(line + 14);
	fclose(f);
	return kb;
}

/* ns per key of the batch test with batches of `batch` keys */
static double
time_batch(const bc_filter *f, const uint8_t *probes, size_t nprobe, size_t batch,
		   uint64_t *hits)
{
	int64_t		h[2 * BC_FILTER_BATCH];
	uint8_t		out[BC_FILTER_BATCH];
	double		t0 = now_ns();
	size_t		j,
				q;

	*hits = 0;
	for (j = 0; j < nprobe; j += batch)
	{
		size_t		m = nprobe - j < batch ? nprobe - j : batch;

		for (q = 0; q < m; q++)
			bc_murmur3(probes + (j + q) * KEY_LEN, KEY_LEN, &h[2 * q], &h[2 * q + 1]);
		bc_filter_test_hashes(f, h, m, out);
		for (q = 0; q < m; q++)
			*hits += out[q];
	}
	return (now_ns() - t0) / (double) nprobe;
}

static void
bench_filter(const char *tag, int slot, int64_t n, size_t nprobe, int reps, int thp)
{
	bc_sizing	s;
	bc_filter	f;
	uint8_t    *probes,
			   *adds;
	int64_t    *hashes;
	double		t[MAX_REPS];
	double		t0;
	char		metric[64];
	size_t		j;
	int64_t		i;
	uint64_t	hits = 0;
	uint8_t		key[KEY_LEN];
	int			r;

	if (bc_sizing_compute(n, 0.01, &s) != BC_OK)
	{
		fprintf(stderr, "sizing failed for %lld keys\n", (long long) n);
		exit(1);
	}
	bc_filter_init(&f, s.hash_count, s.word_count, BC_ORDER_NEW,
				   alloc_bits((size_t) s.word_count * 8, thp));
	probes = malloc(nprobe * KEY_LEN);
	adds = malloc(nprobe * KEY_LEN);
	hashes = malloc(nprobe * 2 * sizeof(int64_t));
	if (!f.bits || !probes || !adds || !hashes)
	{
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	printf("filter %s: %lld keys at 0.01: hash_count %d, %lld bytes%s\n", tag,
		   (long long) n, s.hash_count, (long long) s.word_count * 8,
		   thp ? ", transparent huge pages advised" : "");

	/* fill with keys 0 .. n-1 */
	t0 = now_ns();
	for (i = 0; i < n; i++)
	{
		key_of((uint64_t) i, key);
		bc_filter_add(&f, key, KEY_LEN);
	}
	printf("  filled in %.2f s; AnonHugePages of the process: %ld kB\n",
		   (now_ns() - t0) / 1e9, anon_huge_kb());

	/* probes: even j present (a random key < n), odd j absent (key >= n) */
	for (j = 0; j < nprobe; j++)
	{
		uint64_t	k = mix64(j ^ UINT64_C(0x5bd1e995));

		if (j % 2 == 0)
			key_of(k % (uint64_t) n, probes + j * KEY_LEN);
		else
			key_of((uint64_t) n + (k % (UINT64_C(1) << 40)), probes + j * KEY_LEN);
		/* keys to add: never among the fill keys */
		key_of((UINT64_C(1) << 50) + j, adds + j * KEY_LEN);
		bc_murmur3(adds + j * KEY_LEN, KEY_LEN, &hashes[2 * j], &hashes[2 * j + 1]);
	}

	for (r = 0; r < reps; r++)
	{
		hits = 0;
		t0 = now_ns();
		for (j = 0; j < nprobe; j++)
			hits += (uint64_t) bc_filter_test(&f, probes + j * KEY_LEN, KEY_LEN);
		t[r] = (now_ns() - t0) / (double) nprobe;
		sink += hits;
	}
	printf("  contains: %.4f of probes reported present (expected ~0.505)\n",
		   (double) hits / (double) nprobe);
	snprintf(metric, sizeof metric, "contains_%s", tag);
	record(metric, t, reps, "ns/op");
	med_contains[slot] = median(t, reps);

	/* the batch test: batches of BC_FILTER_BATCH, then smaller ones */
	{
		static const size_t sizes[] = {1, 2, 4, 8};
		uint64_t	bhits = 0;
		size_t		si;

		for (r = 0; r < reps; r++)
			t[r] = time_batch(&f, probes, nprobe, BC_FILTER_BATCH, &bhits);
		if (bhits != hits)
		{
			fprintf(stderr, "batch test: %llu present, one at a time %llu\n",
					(unsigned long long) bhits, (unsigned long long) hits);
			exit(1);
		}
		snprintf(metric, sizeof metric, "contains_batch_%s", tag);
		record(metric, t, reps, "ns/op");
		med_batch[slot] = median(t, reps);
		for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
		{
			for (r = 0; r < reps; r++)
				t[r] = time_batch(&f, probes, nprobe, sizes[si], &bhits);
			snprintf(metric, sizeof metric, "contains_batch%zu_%s", sizes[si], tag);
			record(metric, t, reps, "ns/op");
		}
	}

	/* add (hash included), then add of precomputed hashes */
	for (r = 0; r < reps; r++)
	{
		t0 = now_ns();
		for (j = 0; j < nprobe; j++)
			bc_filter_add(&f, adds + j * KEY_LEN, KEY_LEN);
		t[r] = (now_ns() - t0) / (double) nprobe;
	}
	snprintf(metric, sizeof metric, "add_%s", tag);
	record(metric, t, reps, "ns/op");

	/* the batch path: hash BATCH keys, then set their bits together */
	for (r = 0; r < reps; r++)
	{
		int64_t		h[2 * BATCH];

		t0 = now_ns();
		for (j = 0; j < nprobe; j += BATCH)
		{
			size_t		m = nprobe - j < BATCH ? nprobe - j : BATCH,
						q;

			for (q = 0; q < m; q++)
				bc_murmur3(adds + (j + q) * KEY_LEN, KEY_LEN, &h[2 * q], &h[2 * q + 1]);
			bc_filter_add_hashes(&f, h, m);
		}
		t[r] = (now_ns() - t0) / (double) nprobe;
	}
	snprintf(metric, sizeof metric, "add_batch_%s", tag);
	record(metric, t, reps, "ns/op");

	for (r = 0; r < reps; r++)
	{
		t0 = now_ns();
		bc_filter_add_hashes(&f, hashes, nprobe);
		t[r] = (now_ns() - t0) / (double) nprobe;
	}
	snprintf(metric, sizeof metric, "add_hashes_%s", tag);
	record(metric, t, reps, "ns/op");

	sink += f.bits[0];
	free(f.bits);
	free(probes);
	free(adds);
	free(hashes);
}

static void
bench_murmur3(int reps)
{
	const size_t buflen = 1 << 20,
				keylen = 1024;
	const int	rounds = 256;	/* 256 MB hashed per repetition */
	uint8_t    *buf = malloc(buflen);
	double		t[MAX_REPS];
	size_t		j;
	int			r,
				q;

	if (!buf)
		exit(1);
	for (j = 0; j < buflen; j += 8)
	{
		uint64_t	v = mix64(j);

		memcpy(buf + j, &v, 8);
	}
	for (r = 0; r < reps; r++)
	{
		double		t0 = now_ns();

		for (q = 0; q < rounds; q++)
			for (j = 0; j + keylen <= buflen; j += keylen)
			{
				int64_t		h1,
							h2;

				bc_murmur3(buf + j, keylen, &h1, &h2);
				sink += (uint64_t) h1 ^ (uint64_t) h2;
			}
		t[r] = ((double) buflen * rounds) / (now_ns() - t0);	/* bytes/ns = GB/s */
	}
	record("murmur3_1KB_GBps", t, reps, "GB/s");
	free(buf);
}

static void
bench_first_touch(int reps)
{
	const size_t len = (size_t) 100 << 20;
	double		t[MAX_REPS];
	int			r;

	for (r = 0; r < reps; r++)
	{
		double		t0 = now_ns();
		volatile uint8_t *p = malloc(len);	/* mmap-backed: fresh pages */
		size_t		j;

		if (!p)
			exit(1);
		for (j = 0; j < len; j += 4096)
			p[j] = (uint8_t) j;
		sink += p[4096 * 7];
		free((void *) p);
		t[r] = (now_ns() - t0) / 1e6;
	}
	record("first_touch_100MB_ms", t, reps, "ms");
}

int
main(int argc, char **argv)
{
	int			reps = 7,
				quick = 0,
				i;
	const char *raw_path = NULL;

	for (i = 1; i < argc; i++)
	{
		if (strcmp(argv[i], "-q") == 0)
			quick = 1;
		else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
			reps = atoi(argv[++i]);
		else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			raw_path = argv[++i];
		else
		{
			fprintf(stderr, "usage: %s [-q] [-r REPS] [-o RAW.tsv]\n", argv[0]);
			return 2;
		}
	}
	if (reps < 1 || reps > MAX_REPS)
	{
		fprintf(stderr, "REPS must be in 1..%d\n", MAX_REPS);
		return 2;
	}
	if (raw_path && !(raw_out = fopen(raw_path, "w")))
	{
		perror(raw_path);
		return 1;
	}

	bench_filter("1e6", 0, 1000000, (size_t) 1 << 22, reps, 0);
	if (quick)
	{
		bench_filter("1e7", 1, 10000000, (size_t) 1 << 21, reps, 0);
		bench_filter("1e7_thp", 2, 10000000, (size_t) 1 << 21, reps, 1);
	}
	else
	{
		bench_filter("1e8", 1, 100000000, (size_t) 1 << 22, reps, 0);
		bench_filter("1e8_thp", 2, 100000000, (size_t) 1 << 22, reps, 1);
	}
	bench_murmur3(reps);
	bench_first_touch(reps);

	/*
	 * The bound of the batch path: per key on the large filter at most
	 * `bound` times per key on the 1.2 MB one (one key at a time
	 * reported beside it).
	 */
	{
		const double bound = 2.5;
		int			s;

		for (s = 1; s <= 2; s++)
		{
			double		ratio = med_batch[s] / med_batch[0];

			printf("large/small per key, %s: one at a time %.2fx, batch %.2fx (bound %.1fx): %s%s\n",
				   s == 1 ? "4 KB pages" : "huge pages advised",
				   med_contains[s] / med_contains[0], ratio, bound,
				   ratio <= bound ? "PASS" : "FAIL",
				   quick ? " (quick: 12 MB, not the 120 MB of the bound)" : "");
		}
	}

	if (raw_out)
		fclose(raw_out);
	return sink == 42 ? 3 : 0;	/* never; uses sink */
}
