/*
 * unit_trie.c - helpers of the trie-indexed SSTable suites (see
 * unit_trie.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_murmur3.h"
#include "bc_status.h"
#include "unit_trie.h"

/* a reader over m, in pieces, as a reader may give them */
static bc_reader
mem_reader(unit_mem *m)
{
	m->piece = 100;
	return unit_mem_reader(m);
}
static uint8_t *
read_component(const char *dir, const char *desc, const char *comp, size_t *len)
{
	char		rel[4096];

	snprintf(rel, sizeof(rel), "%s/%s-%s", dir, desc, comp);
	return unit_read_file(unit_path(rel), len);
}

static void *
test_alloc(void *arg, size_t size)
{
	(void) arg;
	return malloc(size);
}

int
unit_trie_open(unit_trie_sst *s, const char *dir, const char *desc, const char *version)
{
	memset(s, 0, sizeof(*s));
	s->parts = read_component(dir, desc, "Partitions.db", &s->plen);
	s->rows = read_component(dir, desc, "Rows.db", &s->rlen);
	s->data = read_component(dir, desc, "Data.db", &s->dlen);
	s->cinfo = read_component(dir, desc, "CompressionInfo.db", &s->clen);
	s->filt = read_component(dir, desc, "Filter.db", &s->flen);
	if (!s->parts || !s->rows || !s->data || !s->filt)
		return -1;
	if (bc_partitions_parse(s->parts, s->plen, &s->foot, &s->first, &s->first_len,
							&s->last, &s->last_len) != BC_OK)
		return -1;
	s->mp.data = s->parts;
	s->mp.len = s->plen;
	s->mr.data = s->rows;
	s->mr.len = s->rlen;
	s->md.data = s->data;
	s->md.len = s->dlen;
	s->rp = mem_reader(&s->mp);
	s->rr = mem_reader(&s->mr);
	s->rd = mem_reader(&s->md);
	{
		void	   *block;
		int			in_info;
		bc_status	st = bc_data_reader_open(&s->dr, &s->ci, &s->rd, version, 2, s->cinfo,
											 s->clen, test_alloc, NULL, &block, &in_info);

		/* the chunk buffers, one block, freed as chunk */
		s->chunk = block;
		CHECK(block == NULL || s->cinfo != NULL, "a buffer for an uncompressed Data.db");
		return st == BC_OK ? 0 : -1;
	}
}

void
unit_trie_close(unit_trie_sst *s)
{
	free(s->parts);
	free(s->rows);
	free(s->data);
	free(s->cinfo);
	free(s->filt);
	free(s->chunk);
}



void
unit_keylist_free(unit_keylist *kl)
{
	size_t		i;

	for (i = 0; i < kl->n; i++)
		free(kl->k[i]);
	free(kl->k);
	free(kl->l);
	memset(kl, 0, sizeof(*kl));
}

int
unit_trie_key_cmp(bc_partitioner p, const uint8_t *a, size_t al, const uint8_t *b, size_t bl)
{
	int			c;

	if (p == BC_PARTITIONER_MURMUR3)
	{
		int64_t		ta = bc_token(a, al),
					tb = bc_token(b, bl);

		if (ta != tb)
			return ta < tb ? -1 : 1;
	}
	c = memcmp(a, b, al < bl ? al : bl);
	if (c != 0)
		return c;
	return al < bl ? -1 : al > bl;
}

bc_trie_frame unit_trie_frames[BC_TRIE_MAX_DEPTH];
bc_trie_frame unit_trie_frames64[64];

/* every key through bc_trie_keys; the status at the end */
bc_status
unit_trie_read_keys(unit_trie_sst *s, const char *version, bc_partitioner p, unit_keylist *kl)
{
	static bc_trie_keys k;
	bc_trie_sstable ts;
	bc_status	st;

	memset(kl, 0, sizeof(*kl));
	st = bc_trie_sstable_init(&ts, version, 2, p, &s->rp, &s->foot, &s->rr, &s->dr);
	if (st != BC_OK)
		return st;
	if ((st = bc_trie_keys_init(&k, &ts, unit_trie_frames, BC_TRIE_MAX_DEPTH)) != BC_OK)
		return st;
	for (;;)
	{
		const uint8_t *key;
		size_t		len;
		int			done;

		st = bc_trie_keys_next(&k, &key, &len, &done);
		if (st != BC_OK || done)
			break;
		kl->k = realloc(kl->k, (kl->n + 1) * sizeof(*kl->k));
		kl->l = realloc(kl->l, (kl->n + 1) * sizeof(*kl->l));
		kl->k[kl->n] = malloc(len ? len : 1);
		memcpy(kl->k[kl->n], key, len);
		kl->l[kl->n++] = len;
	}
	bc_trie_keys_finish(&k);
	return st;
}

static uint32_t rng = 2463534242u;

static uint32_t
next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

int
unit_keylist_has(const unit_keylist *kl, const uint8_t *k, size_t l)
{
	size_t		i;

	for (i = 0; i < kl->n; i++)
		if (kl->l[i] == l && memcmp(kl->k[i], k, l) == 0)
			return 1;
	return 0;
}

/* lookups that failed, or read more than one walk and one key */
static long bad_lookups;

/* has_key of one key; *compared: it reached the key's bytes */
static int
lookup(bc_trie_sstable *ts, const uint8_t *k, size_t l, int *compared)
{
	uint64_t	before = ts->rows_reads + ts->data_reads;
	uint64_t	nodes = ts->trie.stats.nodes;
	int			present = -1;
	bc_status	st = bc_trie_has_key(ts, k, l, &present);

	/* bounded: one node a byte of the form at most, one key read */
	if (st != BC_OK || ts->trie.stats.nodes - nodes > 2 * l + 12 ||
		ts->rows_reads + ts->data_reads - before > 2 + (l + 255) / 256)
		bad_lookups++;
	*compared = ts->rows_reads + ts->data_reads > before;
	return present;
}

void
unit_trie_check_lookups(unit_trie_sst *s, const char *version, bc_partitioner p, const unit_keylist *kl, const char *what)
{
	bc_trie_sstable ts;
	size_t		i;
	long		absent = 0,
				false_hits = 0,
				reached = 0;
	int			c;

	bad_lookups = 0;
	CHECK(bc_trie_sstable_init(&ts, version, 2, p, &s->rp, &s->foot, &s->rr, &s->dr) == BC_OK,
		  "%s: init", what);
	for (i = 0; i < kl->n; i++)
		CHECK(lookup(&ts, kl->k[i], kl->l[i], &c) == 1, "%s: key %zu not found", what, i);

	/* near the present keys: longer, shorter, a byte changed */
	for (i = 0; i < kl->n; i++)
	{
		uint8_t		buf[300];
		size_t		l = kl->l[i] < 200 ? kl->l[i] : 200,
					j;
		int			b;

		for (b = 0; b < 256; b++)
		{
			memcpy(buf, kl->k[i], l);
			buf[l] = (uint8_t) b;
			if (!unit_keylist_has(kl, buf, l + 1))
			{
				absent++;
				if (lookup(&ts, buf, l + 1, &c) != 0)
					false_hits++;
				reached += c;
			}
			for (j = 0; j < l; j++)
			{
				memcpy(buf, kl->k[i], l);
				buf[j] = (uint8_t) b;
				if (unit_keylist_has(kl, buf, l))
					continue;
				absent++;
				if (lookup(&ts, buf, l, &c) != 0)
					false_hits++;
				reached += c;
			}
		}
		if (l > 0 && !unit_keylist_has(kl, kl->k[i], l - 1))
		{
			absent++;
			if (lookup(&ts, kl->k[i], l - 1, &c) != 0)
				false_hits++;
		}
	}
	/* random keys of 1 to 12 bytes, many with a leaf of the same hash */
	for (i = 0; i < 200000; i++)
	{
		uint8_t		buf[12];
		size_t		l = 1 + next_rand() % 12,
					j;

		for (j = 0; j < l; j++)
			buf[j] = (uint8_t) next_rand();
		if (p == BC_PARTITIONER_BYTE_ORDERED)
			buf[0] = (uint8_t) (0x30 + next_rand() % 5);	/* under a leaf */
		else if (l == 8)
			memset(buf, 0, 6);	/* like the keys of bb: bigints */
		if (unit_keylist_has(kl, buf, l))
			continue;
		absent++;
		if (lookup(&ts, buf, l, &c) != 0)
			false_hits++;
		reached += c;
	}
	CHECK(bad_lookups == 0, "%s: %ld lookups failed or read too much", what, bad_lookups);
	CHECK(false_hits == 0, "%s: %ld of %ld absent keys found", what, false_hits, absent);
	/* some walks reached a leaf whose hash byte matched: the key itself
	 * then tells (few do when a trie of two keys splits at its root) */
	CHECK(reached > 0, "%s: only %ld absent keys got past the hash byte", what, reached);
	printf("  %s: %zu keys found, %ld absent keys not found (%ld compared with a key)\n",
		   what, kl->n, absent, reached);

	/*
	 * ms: the token part walked and the keys of that token compared.  Its
	 * token part is the form of every Murmur3 trie, so the same lookups
	 * read as ms give the same answers; under ByteOrdered, refused.
	 */
	if (strcmp(version, "ms") != 0 && p == BC_PARTITIONER_MURMUR3)
	{
		char		as_ms[4200];

		snprintf(as_ms, sizeof(as_ms), "%s, read as ms", what);
		unit_trie_check_lookups(s, "ms", p, kl, as_ms);
		/* the keys of one token under a node deeper than the lookup's own
		 * unit_trie_frames: the caller's unit_trie_frames */
		CHECK(bc_trie_sstable_init(&ts, "ms", 2, p, &s->rp, &s->foot, &s->rr, &s->dr) == BC_OK,
			  "%s: init as ms", what);
		bc_trie_sstable_frames(&ts, unit_trie_frames64, 64);
		CHECK(lookup(&ts, kl->k[0], kl->l[0], &c) == 1, "%s: as ms with unit_trie_frames", what);
	}
	else if (p != BC_PARTITIONER_MURMUR3)
		CHECK(bc_trie_sstable_init(&ts, "ms", 2, p, &s->rp, &s->foot, &s->rr, &s->dr) == BC_OK &&
			  bc_trie_has_key(&ts, kl->k[0], kl->l[0], &c) == BC_ERR_TRIE_ENCODING,
			  "%s: ms under ByteOrdered refused", what);
	CHECK(bc_trie_sstable_init(&ts, "me", 2, p, &s->rp, &s->foot, &s->rr, &s->dr) ==
		  BC_ERR_VERSION_UNKNOWN, "%s: me is not trie-indexed", what);
}
