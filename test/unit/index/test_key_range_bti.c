/*
 * test_key_range_bti.c - an SSTable's key range read through a bc_reader
 * (bc_key_range.c), from a BTI SSTable's Partitions.db, by its footer: every
 * Partitions.db of test/data/sstables (MANIFEST.tsv) against the
 * whole-file parser and the manifest, with failed and short reads, every
 * cut and every bit flip; then footers crafted by hand.  The reader serves
 * a buffer in memory, can fail or come up short at its n-th read, and
 * counts what it hands out.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_key_range.h"
#include "bc_reader.h"
#include "bc_endian.h"
#include "bc_partitions.h"
#include "bc_status.h"
#include "partitions_model.h"
#include "unit.h"

/* MANIFEST rows of BTI SSTables */
#define EXPECT_BTI_ROWS 6

static int
key_eq(const uint8_t *a, size_t al, const uint8_t *b, size_t bl)
{
	return al == bl && (al == 0 || memcmp(a, b, al) == 0);
}

/* bc_partitions_range through the memory reader; keys of exactly
 * BC_PARTITIONS_MAX_KEYS bytes */
typedef struct range
{
	bc_status	st;
	bc_partitions_footer footer;
	const uint8_t *first,
			   *last;
	size_t		first_len,
				last_len;
	unit_mem	m;
} range;

static uint8_t *range_keys;

static void
read_range(range *g, const uint8_t *data, size_t len, long fail_at, long short_at)
{
	bc_reader	r;

	unit_mem_open(&g->m, &r, data, len);
	g->m.fail_at = fail_at;
	g->m.short_at = short_at;
	g->first = g->last = data;	/* set on return, whatever the status */
	g->first_len = g->last_len = 7;
	g->st = bc_partitions_range(&r, range_keys, &g->footer, &g->first, &g->first_len,
								&g->last, &g->last_len);
}

/* the range against bc_partitions_parse of the same bytes; 1 if equal */
static int
range_matches_parse(const range *g, const uint8_t *data, size_t len)
{
	bc_partitions_footer pf;
	const uint8_t *a,
			   *z;
	size_t		al,
				zl;
	bc_status	st = bc_partitions_parse(data, len, &pf, &a, &al, &z, &zl);

	if (g->st != st)
		return 0;
	if (st != BC_OK)
		return g->first == NULL && g->last == NULL && g->first_len == 0 && g->last_len == 0;
	if (memcmp(&g->footer, &pf, sizeof(pf)) != 0)
		return 0;
	if (pf.key_count == 0)
		return g->first == NULL && g->last == NULL && g->first_len == 0 && g->last_len == 0;
	return key_eq(g->first, g->first_len, a, al) && key_eq(g->last, g->last_len, z, zl);
}

static void
check_partitions_file(const char *what, const uint8_t *data, size_t len, char **f)
{
	range		g;
	int64_t		want;
	size_t		i,
				cut,
				bad = 0,
				tried = 0;
	int			b;
	uint8_t    *copy;

	read_range(&g, data, len, 0, 0);
	CHECK(g.st == BC_OK, "%s: %s", what, bc_status_message(g.st));
	CHECK(range_matches_parse(&g, data, len), "%s: not what bc_partitions_parse gives", what);
	if (unit_parse_i64(f[10], &want) != 0)
		want = -1;
	CHECK(g.st == BC_OK && (int64_t) g.footer.key_count == want &&
		  unit_hex_eq(g.first, g.first_len, f[12]) && unit_hex_eq(g.last, g.last_len, f[13]),
		  "%s: %llu keys, first/last differ from the manifest (%s keys)", what,
		  (unsigned long long) g.footer.key_count, f[10]);
	/* two reads: the footer, then the keys */
	CHECK(g.m.nreads == 2 && g.m.bytes == len - g.footer.keys_pos,
		  "%s: %ld reads, %llu bytes", what, g.m.nreads, (unsigned long long) g.m.bytes);

	/* failed and short reads */
	read_range(&g, data, len, 1, 0);
	CHECK(g.st == BC_ERR_READ && g.m.nreads == 1 && g.first == NULL && g.first_len == 0,
		  "%s: failed footer read: %s", what, bc_status_message(g.st));
	read_range(&g, data, len, 2, 0);
	CHECK(g.st == BC_ERR_READ && g.first == NULL && g.last == NULL && g.last_len == 0,
		  "%s: failed keys read: %s", what, bc_status_message(g.st));
	read_range(&g, data, len, 0, 1);
	CHECK(g.st == BC_ERR_PARTITIONS_TRUNCATED && g.first == NULL,
		  "%s: short footer read: %s", what, bc_status_message(g.st));
	read_range(&g, data, len, 0, 2);
	CHECK(g.st == BC_ERR_PARTITIONS_TRUNCATED && g.first == NULL,
		  "%s: short keys read: %s", what, bc_status_message(g.st));

	/* every cut, every bit flip: what bc_partitions_parse says */
	for (cut = 0; cut < len; cut++)
	{
		copy = malloc(cut ? cut : 1);
		memcpy(copy, data, cut);
		read_range(&g, copy, cut, 0, 0);
		if (!range_matches_parse(&g, copy, cut))
			bad++;
		tried++;
		free(copy);
	}
	copy = malloc(len);
	for (i = 0; i < len; i++)
		for (b = 0; b < 8; b++)
		{
			memcpy(copy, data, len);
			copy[i] ^= (uint8_t) (1u << b);
			read_range(&g, copy, len, 0, 0);
			if (!range_matches_parse(&g, copy, len))
				bad++;
			tried++;
		}
	free(copy);
	CHECK(bad == 0, "%s: %zu of %zu damaged files read otherwise than bc_partitions_parse",
		  what, bad, tried);
}

/* a file: trie bytes, two keys of l1 and l2 bytes (filled with c1, c2),
 * extra bytes, the footer (partitions_model.c); malloc'd, its length in
 * *len */
static uint8_t *
build(size_t trie, size_t l1, int c1, size_t l2, int c2, size_t extra,
	  uint64_t count, size_t *len)
{
	uint8_t    *k1 = malloc(l1 + 1),
			   *k2 = malloc(l2 + 1),
			   *d = malloc(trie + 4 + l1 + l2 + extra + BC_PARTITIONS_FOOTER);

	memset(k1, c1, l1);
	memset(k2, c2, l2);
	*len = partitions_build(d, trie, k1, l1, k2, l2, extra, count, 0);
	free(k1);
	free(k2);
	return d;
}

static void
check_partitions_crafted(void)
{
	range		g;
	uint8_t    *d;
	size_t		len,
				n;
	uint8_t		buf[32];

	/* shorter than the footer: nothing read */
	memset(buf, 0, sizeof(buf));
	for (n = 0; n < BC_PARTITIONS_FOOTER; n++)
	{
		read_range(&g, buf, n, 0, 0);
		CHECK(g.st == BC_ERR_PARTITIONS_TRUNCATED && g.m.nreads == 0 && g.first == NULL &&
			  g.last == NULL && g.first_len == 0 && g.last_len == 0 &&
			  g.footer.keys_pos == 0 && g.footer.key_count == 0,
			  "%zu-byte Partitions.db: %s, %ld reads", n, bc_status_message(g.st), g.m.nreads);
	}

	/* the empty index: OK, no keys */
	d = build(1, 0, 0, 0, 0, 0, 0, &len);
	read_range(&g, d, len, 0, 0);
	CHECK(g.st == BC_OK && g.footer.key_count == 0 && g.first == NULL && g.last == NULL &&
		  g.first_len == 0 && g.last_len == 0 && range_matches_parse(&g, d, len),
		  "empty index: %s", bc_status_message(g.st));
	free(d);

	/* two keys of the largest length: the most the keys may span */
	d = build(10, BC_INDEX_MAX_KEY, 'a', BC_INDEX_MAX_KEY, 'b', 0, 2, &len);
	read_range(&g, d, len, 0, 0);
	CHECK(len - 10 - BC_PARTITIONS_FOOTER == BC_PARTITIONS_MAX_KEYS && g.st == BC_OK &&
		  g.first_len == BC_INDEX_MAX_KEY && g.last_len == BC_INDEX_MAX_KEY &&
		  g.first[0] == 'a' && g.first[BC_INDEX_MAX_KEY - 1] == 'a' &&
		  g.last[0] == 'b' && g.last[BC_INDEX_MAX_KEY - 1] == 'b' &&
		  range_matches_parse(&g, d, len),
		  "keys of %zu bytes: %s", len - 10 - BC_PARTITIONS_FOOTER, bc_status_message(g.st));
	CHECK(g.m.nreads == 2 && g.m.max_request == BC_PARTITIONS_MAX_KEYS,
		  "keys of the largest span: %ld reads, largest %zu", g.m.nreads, g.m.max_request);
	free(d);

	/* one byte more after the largest keys: ignored, as the readers
	 * (PartitionIndex.load, read_bti_partitions_db_footer) read the two
	 * keys and stop; still one read of the keys, no larger */
	d = build(10, BC_INDEX_MAX_KEY, 'a', BC_INDEX_MAX_KEY, 'b', 1, 2, &len);
	read_range(&g, d, len, 0, 0);
	CHECK(g.st == BC_OK && g.m.nreads == 2 && g.m.max_request == BC_PARTITIONS_MAX_KEYS &&
		  g.first_len == BC_INDEX_MAX_KEY && g.last[0] == 'b' && range_matches_parse(&g, d, len),
		  "keys of %zu bytes: %s, %ld reads", len - 10 - BC_PARTITIONS_FOOTER,
		  bc_status_message(g.st), g.m.nreads);
	free(d);

	/* keys_pos near the start of a large file: the keys, then a megabyte
	 * the readers do not read; bloomcass reads two keys' worth */
	d = build(10, 1, 'a', 1, 'b', 1000000, 2, &len);
	read_range(&g, d, len, 0, 0);
	CHECK(g.st == BC_OK && g.m.nreads == 2 && g.m.bytes == 24 + BC_PARTITIONS_MAX_KEYS &&
		  g.first_len == 1 && g.first[0] == 'a' && g.last_len == 1 && g.last[0] == 'b' &&
		  range_matches_parse(&g, d, len),
		  "keys_pos 10 of %zu bytes: %s, %ld reads, %llu bytes", len, bc_status_message(g.st),
		  g.m.nreads, (unsigned long long) g.m.bytes);
	free(d);
	/* and a corrupt one: the last key's length runs past the footer */
	d = build(10, 1, 'a', 1, 'b', 0, 2, &len);
	d[13] = 0x02;
	read_range(&g, d, len, 0, 0);
	CHECK(g.st == BC_ERR_PARTITIONS_TRUNCATED && g.first == NULL && range_matches_parse(&g, d, len),
		  "last key into the footer: %s", bc_status_message(g.st));
	free(d);

	/* a footer that is impossible: the footer parser's status */
	d = build(10, 1, 'a', 1, 'b', 0, 2, &len);
	bc_put_be64(d + len - 8, 10);	/* root at keys_pos */
	read_range(&g, d, len, 0, 0);
	CHECK(g.st == BC_ERR_PARTITIONS_FORMAT && g.m.nreads == 1 &&
		  range_matches_parse(&g, d, len), "root at keys_pos: %s", bc_status_message(g.st));
	free(d);

	/* a reader whose size is larger than what it can read */
	d = build(10, 1, 'a', 1, 'b', 0, 2, &len);
	{
		bc_reader	r;
		unit_mem	m;

		unit_mem_open(&m, &r, d, len);
		r.size = len + 10;
		g.st = bc_partitions_range(&r, range_keys, &g.footer, &g.first, &g.first_len,
								   &g.last, &g.last_len);
		CHECK(g.st == BC_ERR_PARTITIONS_TRUNCATED && g.first == NULL,
			  "file shorter than its size: %s", bc_status_message(g.st));
	}
	free(d);

	CHECK(strstr(bc_status_message(BC_ERR_READ), "read") != NULL &&
		  strstr(bc_status_message(BC_ERR_STOPPED), "stopped") != NULL, "READ, STOPPED messages");
}

void
suite_key_range_bti(void)
{
	bti_files	b;
	uint8_t    *data;
	size_t		len;

	range_keys = malloc(BC_PARTITIONS_MAX_KEYS);
	check_partitions_crafted();
	bti_files_open(&b);
	while ((data = bti_files_next(&b, &len)) != NULL)
	{
		check_partitions_file(b.what, data, len, b.f);
		free(data);
	}
	bti_files_close(&b);
	CHECK(b.count == EXPECT_BTI_ROWS, "%ld Partitions.db read; expected %d", b.count,
		  EXPECT_BTI_ROWS);
	free(range_keys);
}
