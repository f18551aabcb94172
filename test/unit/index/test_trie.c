/*
 * test_trie.c - the Partitions.db trie reader (bc_trie.c): the tries of
 * the BTI SSTables of test/data/sstables (every leaf, in order, found
 * again from its prefix), every byte of them changed to every value,
 * a failing reader, and crafted tries with every kind of node (sparse,
 * dense and single of each pointer width) and every malformation the
 * reader checks (a pointer past the file's start, a node past the trie, a
 * leaf without payload, transitions out of order, shared nodes giving more
 * leaves than the footer's count, a trie deeper than the stack).
 */
#include <stdlib.h>
#include <string.h>

#include "bc_endian.h"
#include "bc_partitions.h"
#include "bc_status.h"
#include "bc_trie.h"
#include "unit.h"

typedef unit_mem mem_file;

/* a reader over m, short pieces */
static bc_reader
mem_reader(mem_file *m)
{
	m->piece = 7;
	return unit_mem_reader(m);
}

static bc_trie_frame frames[512];

/* the leaves of a trie: prefixes and payloads */
typedef struct leaves
{
	size_t		n;
	uint8_t		prefix[64][32];
	size_t		plen[64];
	bc_trie_payload p[64];
} leaves;

static int
collect(const bc_trie_payload *p, const uint8_t *prefix, size_t len, void *arg)
{
	leaves	   *l = arg;

	if (l->n < 64 && len <= 32)
	{
		memcpy(l->prefix[l->n], prefix, len);
		l->plen[l->n] = len;
		l->p[l->n] = *p;
	}
	l->n++;
	return 0;
}

/* a byte source over a buffer, for bc_trie_find */
typedef struct bytes_src
{
	const uint8_t *b;
	size_t		len,
				pos;
} bytes_src;

static int
bytes_next(void *arg)
{
	bytes_src  *s = arg;

	return s->pos < s->len ? s->b[s->pos++] : -1;
}

static bc_status
find(bc_trie *t, const uint8_t *k, size_t len, bc_trie_payload *p, int *found)
{
	bytes_src	s;

	s.b = k;
	s.len = len;
	s.pos = 0;
	return bc_trie_find(t, bytes_next, &s, p, found);
}

static int
is_trie_status(bc_status st)
{
	return st == BC_ERR_TRIE_TRUNCATED || st == BC_ERR_TRIE_POINTER ||
		st == BC_ERR_TRIE_NODE || st == BC_ERR_TRIE_DEPTH || st == BC_ERR_TRIE_COUNT;
}

/* walk a whole trie: the status; the leaves into l */
static bc_status
walk(const uint8_t *d, size_t len, const bc_partitions_footer *f, size_t cap, leaves *l)
{
	mem_file	m;
	bc_reader	r;
	bc_trie		t;
	uint8_t		prefix[32];
	bc_status	st;

	memset(&m, 0, sizeof(m));
	m.data = d;
	m.len = len;
	r = mem_reader(&m);
	memset(l, 0, sizeof(*l));
	if ((st = bc_trie_init(&t, &r, f)) != BC_OK)
		return st;
	return bc_trie_walk(&t, frames, cap, prefix, sizeof(prefix), collect, l);
}

static int
prefix_cmp(const uint8_t *a, size_t al, const uint8_t *b, size_t bl)
{
	int			c = memcmp(a, b, al < bl ? al : bl);

	return c != 0 ? c : (al < bl ? -1 : al > bl);
}

static void
check_real(const char *what, uint8_t *d, size_t len)
{
	bc_partitions_footer f;
	const uint8_t *a,
			   *z;
	size_t		al,
				zl,
				i,
				j;
	leaves		l;
	mem_file	m;
	bc_reader	r;
	bc_trie		t;
	long		odd = 0,
				changes = 0;

	CHECK(bc_partitions_parse(d, len, &f, &a, &al, &z, &zl) == BC_OK, "%s: footer", what);
	CHECK(walk(d, len, &f, 512, &l) == BC_OK && l.n == f.key_count, "%s: %zu leaves, footer %llu",
		  what, l.n, (unsigned long long) f.key_count);
	for (i = 1; i < l.n && i < 64; i++)
	{
		/* in order, and no prefix is a prefix of another */
		CHECK(prefix_cmp(l.prefix[i - 1], l.plen[i - 1], l.prefix[i], l.plen[i]) < 0 &&
			  !(l.plen[i - 1] < l.plen[i] &&
				memcmp(l.prefix[i - 1], l.prefix[i], l.plen[i - 1]) == 0),
			  "%s: leaves %zu and %zu", what, i - 1, i);
	}
	memset(&m, 0, sizeof(m));
	m.data = d;
	m.len = len;
	r = mem_reader(&m);
	CHECK(bc_trie_init(&t, &r, &f) == BC_OK, "%s: init", what);
	for (i = 0; i < l.n && i < 64; i++)
	{
		bc_trie_payload p;
		int			found;
		uint8_t		longer[40];

		CHECK(find(&t, l.prefix[i], l.plen[i], &p, &found) == BC_OK && found &&
			  p.node_pos == l.p[i].node_pos && p.position == l.p[i].position &&
			  p.hash == l.p[i].hash && p.has_hash, "%s: leaf %zu found from its prefix", what, i);
		/* a longer key ends at the same leaf; a shorter one at none */
		memcpy(longer, l.prefix[i], l.plen[i]);
		longer[l.plen[i]] = 0x38;
		CHECK(find(&t, longer, l.plen[i] + 1, &p, &found) == BC_OK && found &&
			  p.node_pos == l.p[i].node_pos, "%s: leaf %zu from a longer key", what, i);
		CHECK(find(&t, l.prefix[i], l.plen[i] - 1, &p, &found) == BC_OK && !found,
			  "%s: leaf %zu from a shorter key", what, i);
	}

	/* a failing reader */
	m.fail_at = m.nreads + 1;	/* the next read fails */
	{
		bc_trie_payload p;
		int			found;

		CHECK(find(&t, l.prefix[0], l.plen[0], &p, &found) == BC_ERR_READ, "%s: read error", what);
	}

	/* every byte of the trie, every value: a status, never a crash (the
	 * sanitizers watch an exact-size copy) */
	for (i = 0; i < f.keys_pos; i++)
	{
		uint8_t    *c = malloc(len);

		for (j = 0; j < 256; j++)
		{
			bc_status	st;
			leaves		l2;

			if (j == d[i])
				continue;
			memcpy(c, d, len);
			c[i] = (uint8_t) j;
			st = walk(c, len, &f, 512, &l2);
			changes++;
			if (!(st == BC_OK || is_trie_status(st)))
				odd++;
		}
		free(c);
	}
	CHECK(odd == 0, "%s: %ld of %ld changed bytes gave another status", what, odd, changes);
}

/* ---- crafted tries ------------------------------------------------ */

/* a trie of bytes, then the footer; the keys part is left empty (the trie
 * reader does not read it) */
static size_t
make_file(uint8_t *out, const uint8_t *trie, size_t n, uint64_t count, uint64_t root,
		  bc_partitions_footer *f)
{
	memcpy(out, trie, n);
	bc_put_be64(out + n, n);
	bc_put_be64(out + n + 8, count);
	bc_put_be64(out + n + 16, root);
	f->keys_pos = n;
	f->key_count = count;
	f->root = root;
	return n + 24;
}

/*
 * Four leaves (hash 11 22 33 44; positions 5, ~5, 0x010203, -32768) under
 * a sparse_12 node ('a' 'b' 'c') and a single_nopayload_12 ('z'), both
 * under a middle node of the given bytes ('x' to the sparse node, 'z' to
 * the single one, nothing at 'y' when dense), under a single_16 root
 * (0x40).
 */
static const uint8_t leaves_and_sparse[] = {
	0x08, 0x11, 0x05,			/* 0: A */
	0x08, 0x22, 0xfa,			/* 3: B, ~5 */
	0x0a, 0x33, 0x01, 0x02, 0x03,	/* 6: C */
	0x09, 0x44, 0x80, 0x00,		/* 11: D */
	0x60, 0x03, 'a', 'b', 'c', 0x00, 0xf0, 0x0c, 0x00, 0x90,	/* 15: sparse_12 */
	0x30, 0x0e, 'z'				/* 25: single_nopayload_12 to D */
};

#define MIDDLE 28

static void
check_crafted_tree(const char *name, const uint8_t *middle, size_t mlen)
{
	uint8_t		trie[256],
				file[300];
	size_t		n = 0,
				len;
	bc_partitions_footer f;
	leaves		l;
	bc_status	st;
	mem_file	m;
	bc_reader	r;
	bc_trie		t;
	bc_trie_payload p;
	int			found;
	static const char *want[] = {"4078" "61", "4078" "62", "4078" "63", "407a" "7a"};
	static const int64_t pos[] = {5, -6, 0x010203, -32768};
	size_t		i;

	memcpy(trie, leaves_and_sparse, sizeof(leaves_and_sparse));
	n = sizeof(leaves_and_sparse);
	memcpy(trie + n, middle, mlen);
	n += mlen;
	/* single_16 root, 0x40 to the middle node */
	trie[n] = 0x40;
	trie[n + 1] = 0x40;
	trie[n + 2] = (uint8_t) ((n - MIDDLE) >> 8);
	trie[n + 3] = (uint8_t) (n - MIDDLE);
	len = make_file(file, trie, n + 4, 4, n, &f);

	st = walk(file, len, &f, 512, &l);
	CHECK(st == BC_OK && l.n == 4, "%s: %s, %zu leaves", name, bc_status_message(st), l.n);
	for (i = 0; i < 4 && i < l.n; i++)
		CHECK(unit_hex_eq(l.prefix[i], l.plen[i], want[i]) && l.p[i].position == pos[i] &&
			  l.p[i].has_hash && l.p[i].hash == 0x11 * (i + 1), "%s: leaf %zu", name, i);

	memset(&m, 0, sizeof(m));
	m.data = file;
	m.len = len;
	r = mem_reader(&m);
	CHECK(bc_trie_init(&t, &r, &f) == BC_OK, "%s: init", name);
	{
		static const struct
		{
			const char *key;
			int			found;
			int64_t		pos;
		}			k[] = {
			{"407861", 1, 5}, {"407862ff00", 1, -6}, {"407863", 1, 0x010203},
			{"407a7a", 1, -32768}, {"407a7a38", 1, -32768},
			{"4078", 0, 0}, {"4079", 0, 0}, {"407960", 0, 0}, {"407864", 0, 0},
			{"407b", 0, 0}, {"41", 0, 0}, {"", 0, 0}, {"40", 0, 0}, {"407a79", 0, 0},
		};

		for (i = 0; i < sizeof(k) / sizeof(k[0]); i++)
		{
			size_t		kl;
			uint8_t    *kb = unit_hex_decode(k[i].key, strlen(k[i].key), &kl);

			st = find(&t, kb, kl, &p, &found);
			CHECK(st == BC_OK && found == k[i].found && (!found || p.position == k[i].pos),
				  "%s: find %s: %s, found %d", name, k[i].key, bc_status_message(st), found);
			free(kb);
		}
	}
	/* a stack of 3 frames is one too few */
	CHECK(walk(file, len, &f, 3, &l) == BC_ERR_TRIE_DEPTH, "%s: depth", name);
	CHECK(walk(file, len, &f, 4, &l) == BC_OK, "%s: depth 4", name);
	/* the footer says 3 keys: the fourth leaf is one too many; 5: one
	 * missing */
	f.key_count = 3;
	CHECK(walk(file, len, &f, 512, &l) == BC_ERR_TRIE_COUNT, "%s: count 3", name);
	f.key_count = 5;
	CHECK(walk(file, len, &f, 512, &l) == BC_ERR_TRIE_COUNT, "%s: count 5", name);
	f.key_count = 4;
	/* every cut of the trie (the root moved inside it) */
	for (i = 1; i < n + 4; i++)
	{
		bc_partitions_footer g = f;
		uint8_t		cut[300];
		size_t		cl = make_file(cut, trie, i, 4, i - 1, &g);

		st = walk(cut, cl, &g, 512, &l);
		CHECK(st == BC_OK || is_trie_status(st) || (i < 4 && st == BC_ERR_PARTITIONS_FORMAT),
			  "%s: cut at %zu: %s", name, i,
			  bc_status_message(st));
	}
}

static void
check_crafted(void)
{
	/* dense_16 'x'..'z': 15 (delta 13), none, 25 (delta 3) */
	static const uint8_t dense16[] = {0xb0, 'x', 2, 0x00, 0x0d, 0x00, 0x00, 0x00, 0x03};
	/* dense_12: deltas 00d 000 003 */
	static const uint8_t dense12[] = {0xa0, 'x', 2, 0x00, 0xd0, 0x00, 0x00, 0x30};
	/* dense_24, dense_32, dense_40, long_dense */
	static const uint8_t dense24[] = {0xc0, 'x', 2, 0, 0, 0x0d, 0, 0, 0, 0, 0, 0x03};
	static const uint8_t dense32[] = {0xd0, 'x', 2, 0, 0, 0, 0x0d, 0, 0, 0, 0, 0, 0, 0, 0x03};
	static const uint8_t dense40[] = {0xe0, 'x', 2, 0, 0, 0, 0, 0x0d, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0x03};
	static const uint8_t longdense[] = {0xf0, 'x', 2, 0, 0, 0, 0, 0, 0, 0, 0x0d, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0x03};
	/* sparse_8, _16, _24, _40: 'x' 'z' */
	static const uint8_t sparse8[] = {0x50, 2, 'x', 'z', 0x0d, 0x03};
	static const uint8_t sparse16[] = {0x70, 2, 'x', 'z', 0, 0x0d, 0, 0x03};
	static const uint8_t sparse24[] = {0x80, 2, 'x', 'z', 0, 0, 0x0d, 0, 0, 0x03};
	static const uint8_t sparse40[] = {0x90, 2, 'x', 'z', 0, 0, 0, 0, 0x0d, 0, 0, 0, 0, 0x03};

	check_crafted_tree("dense_16", dense16, sizeof(dense16));
	check_crafted_tree("dense_12", dense12, sizeof(dense12));
	check_crafted_tree("dense_24", dense24, sizeof(dense24));
	check_crafted_tree("dense_32", dense32, sizeof(dense32));
	check_crafted_tree("dense_40", dense40, sizeof(dense40));
	check_crafted_tree("long_dense", longdense, sizeof(longdense));
	check_crafted_tree("sparse_8", sparse8, sizeof(sparse8));
	check_crafted_tree("sparse_16", sparse16, sizeof(sparse16));
	check_crafted_tree("sparse_24", sparse24, sizeof(sparse24));
	check_crafted_tree("sparse_40", sparse40, sizeof(sparse40));

	/* malformed */
	{
		static const struct
		{
			const char *name;
			const char *trie;
			uint64_t	count;
			bc_status	st;
		}			bad[] = {
			/* single_8 at 3 pointing 5 back: before the file */
			{"pointer before the file", "080105" "204005", 1, BC_ERR_TRIE_POINTER},
			/* single_8 pointing 0 back: itself */
			{"pointer to itself", "080105" "204000", 1, BC_ERR_TRIE_POINTER},
			/* a dense_16 slot past the start */
			{"dense pointer", "080105" "b040010003" "0009", 2, BC_ERR_TRIE_POINTER},
			/* a leaf with no payload */
			{"leaf without payload", "00" "204001", 1, BC_ERR_TRIE_NODE},
			/* sparse_8 transitions out of order, equal */
			{"sparse order", "080105" "080206" "50024140" "0603", 2, BC_ERR_TRIE_NODE},
			{"sparse equal", "080105" "080206" "50024141" "0603", 2, BC_ERR_TRIE_NODE},
			/* sparse_8 of no children */
			{"sparse empty", "080105" "5000", 1, BC_ERR_TRIE_NODE},
			/* dense_16 whose last slot is empty */
			{"dense last empty", "080105" "b040010003" "0000", 1, BC_ERR_TRIE_NODE},
			/* dense past byte 255 */
			{"dense past 255", "080105" "b0ff010003" "0003", 1, BC_ERR_TRIE_NODE},
			/* sparse_8 of 10 children at the end of the trie */
			{"node past the trie", "080105" "500a4142", 1, BC_ERR_TRIE_TRUNCATED},
			/* a payload of 8 bytes cut short */
			{"payload past the trie", "0f01020304", 1, BC_ERR_TRIE_TRUNCATED},
			/* two slots to the same leaf: 2 leaves, the footer says 1 */
			{"shared leaf", "080105" "b04001" "0003" "0003", 1, BC_ERR_TRIE_COUNT},
		};
		size_t		i;

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		{
			size_t		tl;
			uint8_t    *tb = unit_hex_decode(bad[i].trie, strlen(bad[i].trie), &tl);
			uint8_t		file[128];
			bc_partitions_footer f;
			size_t		len;
			leaves		l;
			bc_status	st;
			uint64_t	root = tl - 1;

			/* the root is the last node: find its start */
			if (strcmp(bad[i].name, "leaf without payload") == 0 ||
				strcmp(bad[i].name, "pointer before the file") == 0 ||
				strcmp(bad[i].name, "pointer to itself") == 0)
				root = tl - 3;
			else if (strcmp(bad[i].name, "node past the trie") == 0 ||
					 strcmp(bad[i].name, "sparse empty") == 0 ||
					 strcmp(bad[i].name, "dense pointer") == 0 ||
					 strcmp(bad[i].name, "dense last empty") == 0 ||
					 strcmp(bad[i].name, "dense past 255") == 0 ||
					 strcmp(bad[i].name, "shared leaf") == 0)
				root = 3;
			else if (strcmp(bad[i].name, "payload past the trie") == 0)
				root = 0;
			else
				root = 6;
			len = make_file(file, tb, tl, bad[i].count, root, &f);
			st = walk(file, len, &f, 512, &l);
			CHECK(st == bad[i].st, "%s: %s, expected %s", bad[i].name, bc_status_message(st),
				  bc_status_message(bad[i].st));
			free(tb);
		}
	}

	/* the empty index: a root without payload and a count of 0 */
	{
		uint8_t		file[32];
		static const uint8_t root[] = {0x00};
		bc_partitions_footer f;
		size_t		len = make_file(file, root, 1, 0, 0, &f);
		leaves		l;

		CHECK(walk(file, len, &f, 512, &l) == BC_OK && l.n == 0, "empty index");
		f.root = 1;
		CHECK(walk(file, len, &f, 512, &l) == BC_ERR_PARTITIONS_FORMAT, "root past the trie");
	}
}

void
suite_trie(void)
{
	unit_tsv	t;
	char	   *f[40];
	int			nf;
	long		rows = 0;

	check_crafted();
	if (unit_tsv_open(&t, "sstables/MANIFEST.tsv") != 0)
	{
		CHECK(0, "cannot open sstables/MANIFEST.tsv");
		return;
	}
	unit_tsv_next(&t, f, 40);
	while ((nf = unit_tsv_next(&t, f, 40)) >= 0)
	{
		char		rel[4096],
					what[4096];
		uint8_t    *d;
		size_t		len;

		if (nf < 4 || strcmp(f[3], "bti") != 0)
			continue;
		rows++;
		snprintf(what, sizeof(what), "%s/%s", f[0], f[1]);
		snprintf(rel, sizeof(rel), "sstables/%s/%s-Partitions.db", f[0], f[1]);
		d = unit_read_file(unit_path(rel), &len);
		CHECK(d != NULL, "%s: no Partitions.db", what);
		if (d != NULL)
			check_real(what, d, len);
		free(d);
	}
	unit_tsv_close(&t);
	CHECK(rows == 6, "%ld BTI rows in MANIFEST.tsv", rows);
}
