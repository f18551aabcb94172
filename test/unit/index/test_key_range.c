/*
 * test_key_range.c - an SSTable's key range read through a bc_reader
 * (bc_key_range.c), from Index.db: every Index.db of test/data/sstables
 * (MANIFEST.tsv) walked in pieces of 1, 7, 4096 bytes and 1 MB, against the
 * whole-file parser and the manifest; then failed reads, a callback that
 * stops the walk, files cut short.  The BTI versions, which have no
 * Index.db, are refused unread; their Partitions.db footers are
 * test_key_range_bti.c's.  The reader serves a buffer in memory, can fail
 * or come up short at its n-th read, and counts what it hands out.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_key_range.h"
#include "bc_reader.h"
#include "bc_endian.h"
#include "bc_index.h"
#include "bc_status.h"
#include "unit.h"

/* MANIFEST rows: BIG with an Index.db bloomcass reads, BIG of older
 * versions (b, e, hb), BTI */
#define EXPECT_INDEX_ROWS 142
#define EXPECT_OLD_ROWS 5
#define EXPECT_BTI_ROWS 6

#define MB ((size_t) 1024 * 1024)

static int
key_eq(const uint8_t *a, size_t al, const uint8_t *b, size_t bl)
{
	return al == bl && (al == 0 || memcmp(a, b, al) == 0);
}

/* ------------------------------------------------------------------------
 * Index.db
 * ------------------------------------------------------------------------ */

/* what bc_index_parse gives for the whole file: every key, copied */
typedef struct ref
{
	bc_status	st;
	uint64_t	n;
	size_t		count;
	size_t		cap;
	uint8_t   **keys;
	size_t	   *lens;
	uint64_t   *offsets;
} ref;

static int
ref_collect(const bc_index_entry *e, void *arg)
{
	ref		   *r = arg;

	if (r->count == r->cap)
	{
		r->cap = r->cap ? 2 * r->cap : 64;
		r->keys = realloc(r->keys, r->cap * sizeof(*r->keys));
		r->lens = realloc(r->lens, r->cap * sizeof(*r->lens));
		r->offsets = realloc(r->offsets, r->cap * sizeof(*r->offsets));
	}
	r->keys[r->count] = malloc(e->key_len + 1);
	memcpy(r->keys[r->count], e->key, e->key_len);
	r->lens[r->count] = e->key_len;
	r->offsets[r->count] = e->index_offset;
	r->count++;
	return 0;
}

static void
ref_parse(ref *r, const char *version, const uint8_t *data, size_t len)
{
	memset(r, 0, sizeof(*r));
	r->st = bc_index_parse(version, strlen(version), data, len, ref_collect, r, &r->n);
}

static void
ref_free(ref *r)
{
	size_t		i;

	for (i = 0; i < r->count; i++)
		free(r->keys[i]);
	free(r->keys);
	free(r->lens);
	free(r->offsets);
	memset(r, 0, sizeof(*r));
}

/* the walk's callback: counts, checks the order, stops after stop_after */
typedef struct counter
{
	uint64_t	calls;
	uint64_t	stop_after;
	int			bad;
} counter;

static int
count_entry(void *arg, const bc_index_entry *e)
{
	counter    *c = arg;

	if (e->ordinal != c->calls)
		c->bad = 1;
	c->calls++;
	return c->calls > c->stop_after;
}

/*
 * Walk data in pieces of piece bytes (the piece exactly that size, so that
 * a write past it shows); the status, with the walk in *w and the reader's
 * counts in *m.
 */
static bc_status
walk(bc_index_walk *w, unit_mem *m, const char *version, const uint8_t *data,
	 size_t len, size_t piece_len, counter *c, long fail_at)
{
	bc_reader	r;
	uint8_t    *piece = malloc(piece_len);
	bc_status	st;

	unit_mem_open(m, &r, data, len);
	m->fail_at = fail_at;
	st = bc_index_walk_run(w, &r, version, strlen(version), piece, piece_len,
						   c ? count_entry : NULL, c);
	free(piece);
	return st;
}

/* one real Index.db in the four piece sizes, against the whole-file parse
 * and the manifest */
static void
check_index_file(bc_index_walk *w, const char *what, const char *version,
				 const uint8_t *data, size_t len, const ref *rf, char **f)
{
	static const size_t pieces[] = {1, 7, 4096, MB};
	size_t		p;
	int64_t		want;

	CHECK(rf->st == BC_OK, "%s: bc_index_parse %s", what, bc_status_message(rf->st));
	if (unit_parse_i64(f[11], &want) != 0)
		want = -1;
	CHECK(want >= 0, "%s: the manifest gives no key count (%s)", what, f[11]);
	if (want >= 0)
		CHECK((int64_t) rf->n == want, "%s: bc_index_parse gives %llu keys, manifest %s",
			  what, (unsigned long long) rf->n, f[11]);
	if (rf->count > 0)
		CHECK(unit_hex_eq(rf->keys[0], rf->lens[0], f[12]) &&
			  unit_hex_eq(rf->keys[rf->count - 1], rf->lens[rf->count - 1], f[13]),
			  "%s: bc_index_parse's first and last keys are not the manifest's", what);

	for (p = 0; p < sizeof(pieces) / sizeof(pieces[0]); p++)
	{
		unit_mem	m;
		counter		c = {0, UINT64_MAX, 0};
		/* the largest piece without a callback */
		counter    *cp = pieces[p] == MB ? NULL : &c;
		bc_status	st = walk(w, &m, version, data, len, pieces[p], cp, 0);

		CHECK(st == rf->st && w->nkeys == rf->n && (int64_t) w->nkeys == want &&
			  (cp == NULL || (c.calls == rf->n && !c.bad)),
			  "%s, pieces of %zu: %s, %llu keys, %llu callbacks; parse %s, %llu keys; "
			  "manifest %s", what, pieces[p], bc_status_message(st),
			  (unsigned long long) w->nkeys, (unsigned long long) c.calls,
			  bc_status_message(rf->st), (unsigned long long) rf->n, f[11]);
		if (rf->count > 0)
		{
			CHECK(key_eq(w->first, w->first_len, rf->keys[0], rf->lens[0]) &&
				  key_eq(w->last, w->last_len, rf->keys[rf->count - 1], rf->lens[rf->count - 1]),
				  "%s, pieces of %zu: first/last differ from bc_index_parse", what, pieces[p]);
			CHECK(unit_hex_eq(w->first, w->first_len, f[12]) &&
				  unit_hex_eq(w->last, w->last_len, f[13]),
				  "%s, pieces of %zu: first/last differ from the manifest", what, pieces[p]);
		}
		else
			CHECK(w->first_len == 0 && w->last_len == 0, "%s: keys of an empty walk", what);
		/* read once, in order, never more than a piece at a time */
		CHECK(m.bytes == len && !m.out_of_order && m.max_request <= pieces[p],
			  "%s, pieces of %zu: %llu of %zu bytes read, out of order %d, a read of %zu",
			  what, pieces[p], (unsigned long long) m.bytes, len, m.out_of_order,
			  m.max_request);
	}
}

/*
 * Prefixes of a real Index.db: the walk gives the status and the key count
 * bc_index_parse gives on the same bytes (cut mid-entry: truncated; cut
 * between entries: the entries before).  Every cut of a small file; of a
 * larger one the first and last 256 bytes, every entry boundary and its
 * neighbours, and every 997th.
 */
static void
check_index_cuts(bc_index_walk *w, const char *what, const char *version,
				 const uint8_t *data, size_t len, const ref *rf)
{
	size_t		cut,
				k = 0,
				bad = 0,
				tried = 0,
				mid = 0;

	for (cut = 0; cut < len; cut++)
	{
		uint8_t    *copy;
		uint64_t	n;
		bc_status	want,
					st;
		unit_mem	m;
		int			near;

		while (k < rf->count && rf->offsets[k] < cut)
			k++;
		near = (k < rf->count && rf->offsets[k] - cut <= 1) ||
			(k > 0 && cut - rf->offsets[k - 1] <= 1);
		if (!(len <= 4096 || cut < 256 || cut + 256 >= len || near || cut % 997 == 0))
			continue;
		tried++;
		copy = malloc(cut ? cut : 1);
		memcpy(copy, data, cut);
		want = bc_index_parse(version, strlen(version), copy, cut, NULL, NULL, &n);
		st = walk(w, &m, version, copy, cut, 7, NULL, 0);
		if (st != want || w->nkeys != n)
			bad++;
		if (!(k < rf->count && rf->offsets[k] == cut))
		{
			mid++;
			if (st != BC_ERR_INDEX_TRUNCATED)
				bad++;
		}
		free(copy);
	}
	CHECK(bad == 0 && mid > 0, "%s: %zu of %zu cuts (%zu mid-entry) read otherwise than "
		  "bc_index_parse reads them", what, bad, tried, mid);
}

/* failures, stops and cuts on one Index.db of many keys */
static void
check_index_misc(bc_index_walk *w, const char *what, const char *version,
				 const uint8_t *data, size_t len, const ref *rf)
{
	static const uint64_t stops[] = {0, 1, 2, 4999, 9998, 9999};
	size_t		i;
	long		nreads;
	unit_mem	m;
	counter		c;
	bc_status	st;
	uint8_t    *copy;
	uint64_t	n;
	size_t		cut;

	CHECK(rf->count == 10000, "%s: %zu keys", what, rf->count);
	if (rf->count != 10000)
		return;

	/* a callback that stops after k entries: k + 1 calls, k counted */
	for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
	{
		uint64_t	k = stops[i];

		memset(&c, 0, sizeof(c));
		c.stop_after = k;
		st = walk(w, &m, version, data, len, 7, &c, 0);
		CHECK(st == BC_ERR_STOPPED && c.calls == k + 1 && w->nkeys == k && !c.bad,
			  "%s: stop after %llu: %s, %llu calls, %llu keys", what,
			  (unsigned long long) k, bc_status_message(st),
			  (unsigned long long) c.calls, (unsigned long long) w->nkeys);
		if (k > 0)
			CHECK(key_eq(w->first, w->first_len, rf->keys[0], rf->lens[0]) &&
				  key_eq(w->last, w->last_len, rf->keys[k - 1], rf->lens[k - 1]),
				  "%s: stop after %llu: first/last", what, (unsigned long long) k);
		/* it stopped where it was: no more of the file read than the
		 * piece that completed entry k */
		CHECK(m.bytes > rf->offsets[k] &&
			  (k + 1 == rf->count || m.bytes < rf->offsets[k + 1] + 7),
			  "%s: stop after %llu: %llu bytes read", what, (unsigned long long) k,
			  (unsigned long long) m.bytes);
	}
	memset(&c, 0, sizeof(c));
	c.stop_after = rf->count;
	st = walk(w, &m, version, data, len, 7, &c, 0);
	CHECK(st == BC_OK && c.calls == rf->count && w->nkeys == rf->count,
		  "%s: a callback that never stops: %s, %llu calls", what, bc_status_message(st),
		  (unsigned long long) c.calls);

	/* a failed read: the first, one in the middle, the one at the end */
	memset(&c, 0, sizeof(c));
	c.stop_after = UINT64_MAX;
	st = walk(w, &m, version, data, len, 4096, &c, 0);
	nreads = m.nreads;
	CHECK(st == BC_OK && nreads == (long) ((len + 4095) / 4096) + 1,
		  "%s: %ld reads of 4096", what, nreads);
	st = walk(w, &m, version, data, len, 4096, NULL, 1);
	CHECK(st == BC_ERR_READ && w->nkeys == 0 && m.nreads == 1,
		  "%s: first read failed: %s, %ld reads", what, bc_status_message(st), m.nreads);
	st = walk(w, &m, version, data, len, 4096, NULL, 3);
	CHECK(st == BC_ERR_READ && m.nreads == 3 && w->nkeys > 0 && w->nkeys < rf->count,
		  "%s: third read failed: %s, %llu keys", what, bc_status_message(st),
		  (unsigned long long) w->nkeys);
	st = walk(w, &m, version, data, len, 4096, NULL, nreads);
	CHECK(st == BC_ERR_READ && m.nreads == nreads,
		  "%s: the read at the end failed: %s", what, bc_status_message(st));
	st = walk(w, &m, version, data, len, 1, NULL, (long) len / 2);
	CHECK(st == BC_ERR_READ, "%s: read %zu of 1 byte failed: %s", what, len / 2,
		  bc_status_message(st));

	/* cut in the middle of entry 1's key, and of the last entry */
	for (i = 0; i < 2; i++)
	{
		size_t		pieces[] = {1, 7, 4096};
		size_t		p;

		cut = (size_t) (i == 0 ? rf->offsets[1] + 3 : rf->offsets[rf->count - 1] + 3);
		copy = malloc(cut);
		memcpy(copy, data, cut);
		CHECK(bc_index_parse(version, 2, copy, cut, NULL, NULL, &n) == BC_ERR_INDEX_TRUNCATED,
			  "%s: bc_index_parse of %zu bytes", what, cut);
		for (p = 0; p < 3; p++)
		{
			st = walk(w, &m, version, copy, cut, pieces[p], NULL, 0);
			CHECK(st == BC_ERR_INDEX_TRUNCATED && w->nkeys == n,
				  "%s cut to %zu bytes, pieces of %zu: %s, %llu keys (parse: %llu)", what,
				  cut, pieces[p], bc_status_message(st), (unsigned long long) w->nkeys,
				  (unsigned long long) n);
		}
		free(copy);
	}
}

void
suite_key_range(void)
{
	unit_tsv	t;
	char	   *f[40];
	int			nf;
	long		nindex = 0,
				nold = 0,
				nbti = 0,
				ncuts = 0,
				nmisc = 0;
	char		cut_done[128] = "";
	bc_index_walk *w = malloc(sizeof(bc_index_walk));

	w->order = NULL;
	w->samples = NULL;
	if (unit_tsv_open(&t, "sstables/MANIFEST.tsv") != 0)
	{
		free(w);
		return;
	}
	unit_tsv_next(&t, f, 40);	/* header */
	while ((nf = unit_tsv_next(&t, f, 40)) >= 0)
	{
		char		rel[4096],
					what[4096];
		const char *version = f[2];
		uint8_t    *data;
		size_t		len;
		unit_mem	m;
		bc_status	st;

		if (nf < 14)
		{
			unit_fail(__FILE__, __LINE__, "MANIFEST line %ld: %d fields", t.lineno, nf);
			continue;
		}
		snprintf(what, sizeof(what), "%s/%s", f[0], f[1]);

		if (strcmp(f[3], "bti") == 0)
		{
			CHECK(strcmp(f[11], "-") == 0, "%s: BTI with Index.db keys %s", what, f[11]);
			/* no Index.db: refused before anything is read */
			st = walk(w, &m, version, NULL, 0, 7, NULL, 0);
			CHECK(st == BC_ERR_INDEX_BTI && m.nreads == 0, "%s: Index.db walk of a BTI "
				  "version: %s", what, bc_status_message(st));
			nbti++;
			continue;
		}

		snprintf(rel, sizeof(rel), "sstables/%s/%s-Index.db", f[0], f[1]);
		data = unit_read_file(unit_path(rel), &len);
		CHECK(data != NULL, "%s: no Index.db", what);
		if (data == NULL)
			continue;
		if (strlen(version) != 2 || version[0] < 'i')
		{
			/* b, e, hb: refused as bc_index_parse refuses them, unread */
			uint64_t	n;
			bc_status	want = bc_index_parse(version, strlen(version), data, len,
											  NULL, NULL, &n);

			st = walk(w, &m, version, data, len, 4096, NULL, 0);
			CHECK(st == want && st == BC_ERR_VERSION_UNSUPPORTED && m.nreads == 0,
				  "%s: %s, %ld reads", what, bc_status_message(st), m.nreads);
			nold++;
		}
		else
		{
			ref			rf;

			ref_parse(&rf, version, data, len);
			check_index_file(w, what, version, data, len, &rf, f);
			nindex++;
			/* the cuts of one SSTable of each version */
			if (strstr(cut_done, version) == NULL)
			{
				check_index_cuts(w, what, version, data, len, &rf);
				strcat(cut_done, version);
				strcat(cut_done, " ");
				ncuts++;
			}
			if (rf.count == 10000)
			{
				check_index_misc(w, what, version, data, len, &rf);
				nmisc++;
			}
			ref_free(&rf);
		}
		free(data);
	}
	unit_tsv_close(&t);
	CHECK(nindex == EXPECT_INDEX_ROWS && nold == EXPECT_OLD_ROWS && nbti == EXPECT_BTI_ROWS,
		  "%ld Index.db walked, %ld old, %ld BTI refused; expected %d, %d, %d", nindex,
		  nold, nbti, EXPECT_INDEX_ROWS, EXPECT_OLD_ROWS, EXPECT_BTI_ROWS);
	CHECK(ncuts == 14 && nmisc == 1, "cuts of %ld versions' Index.db, %ld of 10000 keys",
		  ncuts, nmisc);
	free(w);
}
