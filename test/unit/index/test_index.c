/*
 * test_index.c - the Index.db reader (bc_index.c) against the 153 real
 * SSTables of test/data/sstables (MANIFEST.tsv): every key, whole and fed
 * in chunks, against the manifest and the real-filters key files; then
 * truncated, crafted and misused.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_index.h"
#include "bc_status.h"
#include "unit.h"
#include "unit_sstables.h"

/* BIG SSTables of versions bloomcass reads (not b, e, hb): all have Index.db */
#define EXPECT_INDEX_ROWS 142
/* ... and 89 have their Filter.db and keys in ../real-filters */
#define EXPECT_REAL_FILTER_ROWS 89

static uint32_t rng_state = 12345;

static size_t
rng_chunk(void)
{
	rng_state = rng_state * 1103515245u + 12345u;
	/* mostly small pieces, now and then a large one */
	return (rng_state >> 16) % 8 == 0 ? 1 + (rng_state >> 8) % 3000 :
		1 + (rng_state >> 16) % 40;
}

/*
 * Feed data in pieces of chunk bytes (0: random sizes), each copied into
 * its own buffer that is wiped after use so that a key kept pointing into
 * an old chunk would show; compare every entry with the whole-file parse.
 */
static void
check_chunked(const char *version, const uint8_t *data, size_t len,
			  const unit_entries *ref, size_t chunk, const char *what)
{
	bc_index_cursor *c = malloc(sizeof(bc_index_cursor));
	uint8_t    *buf = malloc(len + 1);
	size_t		off = 0,
				n = 0;
	int			ok = 1;
	bc_status	st;

	st = bc_index_init(c, version, 2);
	while (st == BC_OK && off < len)
	{
		size_t		piece = chunk ? chunk : rng_chunk();
		int			got;
		bc_index_entry e;

		if (piece > len - off)
			piece = len - off;
		memcpy(buf, data + off, piece);
		st = bc_index_feed(c, buf, piece);
		while (st == BC_OK)
		{
			st = bc_index_next(c, &e, &got);
			if (st != BC_OK || !got)
				break;
			if (n >= ref->n || e.key_len != ref->e[n].key_len ||
				memcmp(e.key, ref->e[n].key, e.key_len) != 0 ||
				e.position != ref->e[n].position ||
				e.index_offset != ref->e[n].index_offset ||
				e.promoted_size != ref->e[n].promoted_size ||
				e.ordinal != n)
				ok = 0;
			n++;
		}
		memset(buf, 0xa5, piece);
		off += piece;
	}
	if (st == BC_OK)
		st = bc_index_finish(c);
	CHECK(st == BC_OK && ok && n == ref->n,
		  "%s: chunks of %zu: %s, %zu of %zu keys, match %d", what, chunk,
		  bc_status_message(st), n, ref->n, ok);
	free(buf);
	free(c);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* keys.hex of the real-filters copy: same keys, in order (or as a set,
 * returned as 2, when keys.hex was written in insertion order) */
static int
check_real_keys(const char *rf, const unit_entries *kl)
{
	char		rel[4096];
	const char *prefix = "shared/real-filters/";
	const char *slash;
	uint8_t    *txt;
	size_t		len,
				nlines = 0,
				i;
	char	  **lines,
			  **mine;
	char	   *p;
	int			inorder = 1,
				sameset = 1;

	if (strncmp(rf, prefix, strlen(prefix)) == 0)
		rf += strlen(prefix);
	slash = strrchr(rf, '/');
	if (slash == NULL)
		return 0;
	snprintf(rel, sizeof(rel), "real-filters/%.*s/keys.hex", (int) (slash - rf), rf);
	txt = unit_read_file(unit_path(rel), &len);
	if (txt == NULL)
		return 0;
	lines = malloc((len + 1) * sizeof(char *));
	txt = realloc(txt, len + 1);
	p = (char *) txt;
	p[len] = '\0';
	while (*p)
	{
		char	   *nl = strchr(p, '\n');

		if (nl)
			*nl = '\0';
		if (*p)
			lines[nlines++] = p;
		if (!nl)
			break;
		p = nl + 1;
	}
	if (nlines != kl->n)
	{
		free(lines);
		free(txt);
		return 0;
	}
	mine = malloc((kl->n + 1) * sizeof(char *));
	for (i = 0; i < kl->n; i++)
	{
		mine[i] = unit_hex_encode(kl->e[i].key, kl->e[i].key_len);
		if (strcmp(mine[i], lines[i]) != 0)
			inorder = 0;
	}
	if (!inorder)
	{
		qsort(mine, kl->n, sizeof(char *), cmp_str);
		qsort(lines, nlines, sizeof(char *), cmp_str);
		for (i = 0; i < kl->n; i++)
			if (strcmp(mine[i], lines[i]) != 0)
				sameset = 0;
	}
	for (i = 0; i < kl->n; i++)
		free(mine[i]);
	free(mine);
	free(lines);
	free(txt);
	return inorder ? 1 : sameset ? 2 : 0;
}

/* Prefixes of a real Index.db: an error, or (cut between two entries)
 * exactly the entries before the cut and a clean end. */
static void
check_index_truncations(const char *what, const char *version,
						const uint8_t *data, size_t len, const unit_entries *kl)
{
	size_t		cut,
				bad = 0,
				boundaries = 0,
				before = 0;

	for (cut = 0; cut < len; cut++)
	{
		uint8_t    *copy;
		uint64_t	n;
		bc_status	st;
		int			near;

		while (before < kl->n && kl->e[before].index_offset < cut)
			before++;
		near = (before < kl->n && kl->e[before].index_offset - cut <= 1) ||
			(before > 0 && cut - kl->e[before - 1].index_offset <= 1);
		if (!unit_cut_wanted(cut, len, near))
			continue;
		copy = malloc(cut + 1);
		memcpy(copy, data, cut);
		st = bc_index_parse(version, 2, copy, cut, NULL, NULL, &n);
		if (before < kl->n && kl->e[before].index_offset == cut)
		{
			boundaries++;
			if (st != BC_OK || n != before)
				bad++;
		}
		else if (st != BC_ERR_INDEX_TRUNCATED)
			bad++;
		free(copy);
	}
	CHECK(bad == 0 && boundaries == kl->n,
		  "%s: %zu of %zu truncations misread (%zu boundaries)", what, bad,
		  len, boundaries);
}

static bc_status
parse_bytes(const char *version, const uint8_t *d, size_t len, uint64_t *n)
{
	return bc_index_parse(version, 2, d, len, NULL, NULL, n);
}

static void
check_crafted(void)
{
	uint64_t	n;
	bc_index_cursor *c = malloc(sizeof(bc_index_cursor));
	bc_index_entry e;
	int			got;

	/* ka: key "a", position 0, promoted size -1 */
	{
		static const uint8_t d[] = {0, 1, 'a', 0, 0, 0, 0, 0, 0, 0, 0,
		0xff, 0xff, 0xff, 0xff};

		CHECK(parse_bytes("ka", d, sizeof(d), &n) == BC_ERR_INDEX_LENGTH,
			  "ka: negative promoted size (ScyllaDB reads it unsigned)");
		CHECK(parse_bytes("la", d, sizeof(d), &n) == BC_ERR_INDEX_LENGTH,
			  "la: negative promoted size");
	}

	/*
	 * jb and lb, read by Cassandra alone: a negative BE32 size is no
	 * promoted index (RowIndexEntry.Serializer.skipPromotedIndex, size <= 0)
	 * and the next entry follows at once; reported as 0.
	 */
	{
		static const uint8_t d[] = {0, 1, 'a', 0, 0, 0, 0, 0, 0, 0, 0,
			0x80, 0, 0, 0,
		0, 1, 'b', 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0};
		static const char *const versions[] = {"ia", "ic", "jb", "lb"};
		size_t		i;

		for (i = 0; i < sizeof(versions) / sizeof(versions[0]); i++)
		{
			unit_entries kl;

			memset(&kl, 0, sizeof(kl));
			CHECK(bc_index_parse(versions[i], 2, d, sizeof(d), unit_collect_entry, &kl, &n) == BC_OK &&
				  n == 2 && kl.n == 2 && kl.e[0].promoted_size == 0 &&
				  kl.e[1].key_len == 1 && kl.e[1].position == 9 &&
				  kl.e[1].index_offset == 15,
				  "%s: negative promoted size read as none", versions[i]);
			free(kl.e);
		}
		/* and a corrupt one still refused: the second entry cut short */
		CHECK(parse_bytes("jb", d, sizeof(d) - 1, &n) == BC_ERR_INDEX_TRUNCATED,
			  "jb: entry after a negative size cut short");
	}
	/* ka: position with the sign bit set */
	{
		static const uint8_t d[] = {0, 1, 'a', 0x80, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0};

		CHECK(parse_bytes("ka", d, sizeof(d), &n) == BC_ERR_INDEX_LENGTH,
			  "negative position");
	}
	/* ma: 9-byte vint position of 2^64-1 */
	{
		static const uint8_t d[] = {0, 1, 'a', 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0};

		CHECK(parse_bytes("ma", d, sizeof(d), &n) == BC_ERR_INDEX_LENGTH,
			  "vint position beyond int64");
	}
	/* ma: promoted size 2^31 (vint f0 80 00 00 00) */
	{
		static const uint8_t d[] = {0, 1, 'a', 0, 0xf0, 0x80, 0, 0, 0};

		CHECK(parse_bytes("ma", d, sizeof(d), &n) == BC_ERR_INDEX_LENGTH,
			  "promoted size beyond int32");
	}
	/* ma: promoted size larger than the rest of the file */
	{
		static const uint8_t d[] = {0, 1, 'a', 0, 0x40, 0xff, 1, 2, 3};

		CHECK(parse_bytes("ma", d, sizeof(d), &n) == BC_ERR_INDEX_TRUNCATED,
			  "promoted index cut short");
	}
	/* ma: second position not after the first; zeros after the end */
	{
		static const uint8_t d[] = {0, 1, 'a', 0, 0, 0, 1, 'b', 0, 0};
		static const uint8_t z[] = {0, 1, 'a', 0, 0, 0, 0, 0, 0};

		CHECK(parse_bytes("ma", d, sizeof(d), &n) == BC_ERR_INDEX_ORDER,
			  "positions not increasing");
		CHECK(parse_bytes("ma", z, sizeof(z), &n) == BC_ERR_INDEX_ORDER,
			  "zero padding after the last entry");
		CHECK(parse_bytes("ma", d, 5, &n) == BC_OK && n == 1,
			  "one entry: %llu", (unsigned long long) n);
	}
	/* the first partition at Data.db position 7, not 0 (Verifier:
	 * "firstRowPositionFromIndex != 0"); the second at 7 is right */
	{
		static const uint8_t m[] = {0, 1, 'a', 7, 0, 0, 1, 'b', 9, 0};
		static const uint8_t k[] = {0, 1, 'a', 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0};
		static const uint8_t ok[] = {0, 1, 'a', 0, 0, 0, 1, 'b', 7, 0};

		CHECK(parse_bytes("ma", m, sizeof(m), &n) == BC_ERR_INDEX_FIRST_POSITION && n == 0,
			  "ma: first position 7");
		CHECK(parse_bytes("ka", k, sizeof(k), &n) == BC_ERR_INDEX_FIRST_POSITION && n == 0,
			  "ka: first position 7");
		CHECK(parse_bytes("ma", ok, sizeof(ok), &n) == BC_OK && n == 2,
			  "ma: first position 0, then 7");
	}
	/* a key length of 65535 with nothing after it */
	{
		static const uint8_t d[] = {0xff, 0xff, 'a'};

		CHECK(parse_bytes("nb", d, sizeof(d), &n) == BC_ERR_INDEX_TRUNCATED,
			  "key cut short");
		CHECK(parse_bytes("nb", d, 1, &n) == BC_ERR_INDEX_TRUNCATED,
			  "key length cut short");
		CHECK(parse_bytes("nb", d, 0, &n) == BC_OK && n == 0, "empty file");
	}
	/* versions */
	CHECK(bc_index_init(c, "da", 2) == BC_ERR_INDEX_BTI, "da is BTI");
	CHECK(bc_index_init(c, "bb", 2) == BC_ERR_INDEX_BTI, "bb is BTI");
	CHECK(bc_index_init(c, "hb", 2) == BC_ERR_VERSION_UNSUPPORTED, "hb");
	CHECK(bc_index_init(c, "zz", 2) == BC_ERR_VERSION_UNKNOWN, "zz");
	/* ScyllaDB's ms and mt: Partitions.db tries, no Index.db */
	CHECK(bc_index_init(c, "ms", 2) == BC_ERR_INDEX_BTI, "ms is a trie version");
	CHECK(bc_index_init(c, "mt", 2) == BC_ERR_INDEX_BTI, "mt is a trie version");
	CHECK(bc_index_init(c, "ia", 2) == BC_OK && c->era == BC_INDEX_ERA_12, "ia");
	CHECK(bc_index_init(c, "ja", 2) == BC_OK && c->era == BC_INDEX_ERA_20, "ja");
	CHECK(bc_index_init(c, "lb", 2) == BC_OK && c->era == BC_INDEX_ERA_21, "lb");
	CHECK(bc_index_init(c, "oa", 2) == BC_OK && c->era == BC_INDEX_ERA_30, "oa");
	/* Cassandra 6.0: pa, pb are big (oa's Index.db), ea, eb trie-indexed */
	CHECK(bc_index_init(c, "pa", 2) == BC_OK && c->era == BC_INDEX_ERA_30, "pa");
	CHECK(bc_index_init(c, "pb", 2) == BC_OK && c->era == BC_INDEX_ERA_30, "pb");
	CHECK(bc_index_init(c, "ea", 2) == BC_ERR_INDEX_BTI, "ea is BTI");
	CHECK(bc_index_init(c, "eb", 2) == BC_ERR_INDEX_BTI, "eb is BTI");

	/* misuse: a second chunk before the first is read; next after finish */
	{
		static const uint8_t d[] = {0, 1, 'a', 0, 0};

		bc_index_init(c, "ma", 2);
		CHECK(bc_index_feed(c, d, sizeof(d)) == BC_OK, "feed");
		CHECK(bc_index_feed(c, d, sizeof(d)) == BC_ERR_CURSOR_STATE,
			  "feed twice");
		bc_index_init(c, "ma", 2);
		bc_index_feed(c, d, sizeof(d));
		CHECK(bc_index_next(c, &e, &got) == BC_OK && got == 1, "one key");
		CHECK(bc_index_next(c, &e, &got) == BC_OK && got == 0, "no more");
		CHECK(bc_index_finish(c) == BC_OK, "finish");
		CHECK(bc_index_next(c, &e, &got) == BC_ERR_CURSOR_STATE && got == 0,
			  "after finish");
	}

	free(c);
}

void
suite_index(void)
{
	unit_tsv	t;
	char	   *f[40];
	int			nf;
	long		nindex = 0,
				nreal = 0,
				nreal_order = 0,
				nbti = 0,
				nold = 0,
				ntrunc = 0;
	char		truncated_done[UNIT_TRUNC_DONE_SIZE] = "";

	check_crafted();

	if (unit_tsv_open(&t, "sstables/MANIFEST.tsv") != 0)
		return;
	unit_tsv_next(&t, f, 40);	/* header */
	while ((nf = unit_tsv_next(&t, f, 40)) >= 0)
	{
		char		rel[4096],
					what[4096];
		const char *version = f[2];
		uint8_t    *data;
		size_t		len;
		unit_entries		kl = {0, 0, NULL};
		uint64_t	n;
		int64_t		want;
		bc_status	st;
		bc_index_cursor c;

		if (nf < 28)
		{
			unit_fail(__FILE__, __LINE__, "MANIFEST line %ld: %d fields",
					  t.lineno, nf);
			continue;
		}
		snprintf(what, sizeof(what), "%s/%s", f[0], f[1]);
		if (strcmp(f[3], "bti") == 0)
		{
			CHECK(bc_index_init(&c, version, strlen(version)) == BC_ERR_INDEX_BTI,
				  "%s: BTI not refused", what);
			nbti++;
			continue;
		}
		if (strlen(version) != 2 || version[0] < 'i')
		{
			CHECK(bc_index_init(&c, version, strlen(version)) ==
				  BC_ERR_VERSION_UNSUPPORTED, "%s: pre-1.2 not refused", what);
			nold++;
			continue;
		}

		snprintf(rel, sizeof(rel), "sstables/%s/%s-Index.db", f[0], f[1]);
		data = unit_read_file(unit_path(rel), &len);
		CHECK(data != NULL, "%s: no Index.db", what);
		if (data == NULL)
			continue;
		st = bc_index_parse(version, 2, data, len, unit_collect_entry, &kl, &n);
		CHECK(st == BC_OK, "%s: %s", what, bc_status_message(st));
		if (unit_parse_i64(f[11], &want) != 0)
			want = -1;
		CHECK((int64_t) n == want && kl.n == n, "%s: %llu keys, manifest %s",
			  what, (unsigned long long) n, f[11]);
		if (kl.n > 0)
		{
			CHECK(unit_hex_eq(kl.e[0].key, kl.e[0].key_len, f[12]),
				  "%s: first key", what);
			CHECK(unit_hex_eq(kl.e[kl.n - 1].key, kl.e[kl.n - 1].key_len, f[13]),
				  "%s: last key", what);
			CHECK(kl.e[0].position == 0 && kl.e[0].index_offset == 0,
				  "%s: first entry at %lld", what, (long long) kl.e[0].position);
		}
		nindex++;

		if (strcmp(f[27], "-") != 0)
		{
			int			r = check_real_keys(f[27], &kl);

			CHECK(r != 0, "%s: keys differ from %s", what, f[27]);
			nreal++;
			if (r == 1)
				nreal_order++;
		}

		check_chunked(version, data, len, &kl, 1, what);
		check_chunked(version, data, len, &kl, 7, what);
		check_chunked(version, data, len, &kl, 4096, what);
		check_chunked(version, data, len, &kl, 0, what);

		/* one SSTable of each version: every truncation */
		if (unit_truncation_sample(version, len, truncated_done))
		{
			check_index_truncations(what, version, data, len, &kl);
			ntrunc++;
		}
		free(kl.e);
		free(data);
	}
	unit_tsv_close(&t);

	CHECK(nindex == EXPECT_INDEX_ROWS, "Index.db checked for %ld SSTables, expected %d",
		  nindex, EXPECT_INDEX_ROWS);
	CHECK(nreal == EXPECT_REAL_FILTER_ROWS, "keys.hex compared for %ld SSTables, expected %d",
		  nreal, EXPECT_REAL_FILTER_ROWS);
	CHECK(nbti == 6 && nold == 5, "%ld BTI, %ld pre-1.2 rows", nbti, nold);
	CHECK(ntrunc == 12, "truncations of %ld versions' Index.db", ntrunc);
	printf("  index: %ld Index.db, %ld keys.hex (%ld in order), %ld truncated\n",
		   nindex, nreal, nreal_order, ntrunc);
}
