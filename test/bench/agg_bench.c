/*
 * agg_bench.c - the floor of the aggregates (test/bench/agg.sh): what
 * bloom_agg's work costs in plain C against src/core, without PostgreSQL,
 * on the keys of the SQL benchmark ('key1' .. 'key<N>') and a filter sized
 * as bloom_agg(k, 0.01, N) sizes it.
 *
 *   cc -O2 -Isrc/core -o build/bench/agg_bench test/bench/agg_bench.c src/core/[a-z]*.c -llz4 -lsnappy -lz -lzstd -lm
 *   build/bench/agg_bench [-n N] [-r REPS]
 *
 * Per key, the median over REPS repetitions (clock_gettime), in ns:
 *   - hash: bc_murmur3 of the key, 64 keys at a time into an array (as
 *     the streaming aggregate collects them);
 *   - bits: bc_filter_add_hashes of precomputed hashes, 64 at a time: the
 *     filter's own bit writes (k per key);
 *   - stream: both, as the streaming aggregate does them (hash 64 keys,
 *     then set their bits);
 *   - register: hash, then one byte of 2,048 raised to the hash's rank, the
 *     work of an HLL update (hll_add_agg's default of 2^11 registers, its
 *     registers unpacked here): the reference the aggregates are measured
 *     against in SQL;
 *   - exact: the hashes written once to an array of 16 bytes per key, then
 *     their bits set from it (no deduplication: the least the exact mode
 *     can do).
 * The filter is zeroed before each repetition; keys and their hashes are
 * made before timing.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bc_filter.h"
#include "bc_murmur3.h"
#include "bc_sizing.h"
#include "bc_status.h"

#define BATCH 64				/* as the streaming aggregate (PENDING_MAX) */
#define MAX_REPS 101
#define KEY_MAX 24

static volatile uint64_t sink;

static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return (x > y) - (x < y);
}

static double
median(double *v, int n)
{
	qsort(v, (size_t) n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int
main(int argc, char **argv)
{
	long		n = 2000000;
	int			reps = 7,
				i,
				r;
	bc_sizing	s;
	bc_filter	f;
	char	   *keys;
	uint8_t    *klen;
	int64_t    *hashes;
	uint8_t		reg[2048];
	double		t[5][MAX_REPS];
	static const char *const names[5] = {"hash", "bits", "stream", "register", "exact"};

	for (i = 1; i < argc; i++)
	{
		if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			n = atol(argv[++i]);
		else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
			reps = atoi(argv[++i]);
		else
		{
			fprintf(stderr, "usage: %s [-n N] [-r REPS]\n", argv[0]);
			return 2;
		}
	}
	if (n < BATCH || reps < 1 || reps > MAX_REPS || bc_sizing_compute(n, 0.01, &s) != BC_OK)
	{
		fprintf(stderr, "N must be at least %d and REPS in 1..%d\n", BATCH, MAX_REPS);
		return 2;
	}
	keys = malloc((size_t) n * KEY_MAX);
	klen = malloc((size_t) n);
	hashes = malloc((size_t) n * 2 * sizeof(int64_t));
	bc_filter_init(&f, s.hash_count, s.word_count, BC_ORDER_NEW, malloc((size_t) s.word_count * 8));
	if (!keys || !klen || !hashes || !f.bits)
	{
		fprintf(stderr, "out of memory\n");
		return 1;
	}
	for (i = 0; i < n; i++)
	{
		klen[i] = (uint8_t) snprintf(keys + (size_t) i * KEY_MAX, KEY_MAX, "key%d", i + 1);
		bc_murmur3(keys + (size_t) i * KEY_MAX, klen[i], &hashes[2 * i], &hashes[2 * i + 1]);
	}
	printf("%ld keys 'key1'..'key%ld'; filter for %ld keys at 0.01: hash_count %d, %lld bytes\n",
		   n, n, n, s.hash_count, (long long) s.word_count * 8);

	for (r = 0; r < reps; r++)
	{
		int64_t		h[2 * BATCH];
		double		t0;
		long		j;
		int			q;

		/* hash */
		t0 = now_ns();
		for (j = 0; j + BATCH <= n; j += BATCH)
		{
			for (q = 0; q < BATCH; q++)
				bc_murmur3(keys + (size_t) (j + q) * KEY_MAX, klen[j + q], &h[2 * q], &h[2 * q + 1]);
			sink += (uint64_t) h[0];
		}
		t[0][r] = (now_ns() - t0) / (double) n;

		/* bits */
		memset(f.bits, 0, (size_t) s.word_count * 8);
		t0 = now_ns();
		for (j = 0; j + BATCH <= n; j += BATCH)
			bc_filter_add_hashes(&f, hashes + 2 * j, BATCH);
		t[1][r] = (now_ns() - t0) / (double) n;

		/* stream */
		memset(f.bits, 0, (size_t) s.word_count * 8);
		t0 = now_ns();
		for (j = 0; j + BATCH <= n; j += BATCH)
		{
			for (q = 0; q < BATCH; q++)
				bc_murmur3(keys + (size_t) (j + q) * KEY_MAX, klen[j + q], &h[2 * q], &h[2 * q + 1]);
			bc_filter_add_hashes(&f, h, BATCH);
		}
		t[2][r] = (now_ns() - t0) / (double) n;

		/* register */
		memset(reg, 0, sizeof(reg));
		t0 = now_ns();
		for (j = 0; j < n; j++)
		{
			int64_t		h1,
						h2;
			uint64_t	w;
			uint8_t		rank;

			bc_murmur3(keys + (size_t) j * KEY_MAX, klen[j], &h1, &h2);
			w = (uint64_t) h1 >> 11;
			rank = (uint8_t) (w ? __builtin_ctzll(w) + 1 : 54);
			if (rank > reg[(uint64_t) h1 & 2047])
				reg[(uint64_t) h1 & 2047] = rank;
		}
		t[3][r] = (now_ns() - t0) / (double) n;
		sink += reg[7];

		/* exact: the hashes stored once, then their bits */
		memset(f.bits, 0, (size_t) s.word_count * 8);
		t0 = now_ns();
		for (j = 0; j < n; j++)
			bc_murmur3(keys + (size_t) j * KEY_MAX, klen[j], &hashes[2 * j], &hashes[2 * j + 1]);
		for (j = 0; j + BATCH <= n; j += BATCH)
			bc_filter_add_hashes(&f, hashes + 2 * j, BATCH);
		t[4][r] = (now_ns() - t0) / (double) n;
		sink += f.bits[11];
	}
	for (i = 0; i < 5; i++)
		printf("%-9s %6.1f ns/key\n", names[i], median(t[i], reps));
	free(keys);
	free(klen);
	free(hashes);
	free(f.bits);
	return sink == 42 ? 3 : 0;	/* never; uses sink */
}
