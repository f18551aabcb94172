/*
 * test_partitions.c - the Partitions.db footer reader (bc_partitions.c)
 * against the BTI SSTables of test/data/sstables (MANIFEST.tsv): key count,
 * first and last key, read whole and through the two-step API from exact
 * copies; then every truncation, every single-bit flip and byte changes of
 * the footer and keys, each against an independent model of the format,
 * and crafted files (the empty index Cassandra writes, impossible offsets).
 * Suite scylladb: ScyllaDB's ms and mt SSTables of scylladb/MANIFEST.tsv
 * (their files only when present, see scylladb/README.md).
 */
#include <stdlib.h>
#include <string.h>

#include "bc_codec.h"
#include "bc_endian.h"
#include "bc_filter.h"
#include "bc_index.h"
#include "bc_partitions.h"
#include "bc_sizing.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "unit.h"

/* MANIFEST rows of format bti: 4 da (Cassandra 5.0), 2 DataStax bb */
#define EXPECT_BTI_ROWS 6

static uint64_t
be64(const uint8_t *p)
{
	uint64_t	v = 0;
	int			i;

	for (i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

/*
 * The format as PartitionIndexBuilder.complete() writes it, read without
 * the core: the status a whole file must give, and its fields.
 */
typedef struct model
{
	bc_status	st;
	uint64_t	keys_pos,
				count,
				root;
	size_t		first_off,
				first_len,
				last_off,
				last_len;
} model;

static model
model_parse(const uint8_t *d, size_t len)
{
	model		m;
	size_t		body,
				p;

	memset(&m, 0, sizeof(m));
	if (len < 24)
	{
		m.st = BC_ERR_PARTITIONS_TRUNCATED;
		return m;
	}
	body = len - 24;
	m.keys_pos = be64(d + body);
	m.count = be64(d + body + 8);
	m.root = be64(d + body + 16);
	if (m.keys_pos + 4 > body || m.keys_pos > body ||
		m.root >= m.keys_pos || m.count > m.keys_pos)
	{
		m.st = BC_ERR_PARTITIONS_FORMAT;
		return m;
	}
	p = (size_t) m.keys_pos;
	m.first_len = ((size_t) d[p] << 8) | d[p + 1];
	m.first_off = p + 2;
	if (m.first_off + m.first_len + 2 > body)
	{
		m.st = BC_ERR_PARTITIONS_TRUNCATED;
		return m;
	}
	p = m.first_off + m.first_len;
	m.last_len = ((size_t) d[p] << 8) | d[p + 1];
	m.last_off = p + 2;
	/* bytes after the last key, before the footer: ignored, as the
	 * readers do */
	if (m.last_off + m.last_len > body)
		m.st = BC_ERR_PARTITIONS_TRUNCATED;
	else
	{
		int			same = m.first_len == m.last_len &&
			memcmp(d + m.first_off, d + m.last_off, m.first_len) == 0;

		if (m.count == 0)
			m.st = m.first_len == 0 && m.last_len == 0 ? BC_OK : BC_ERR_PARTITIONS_FORMAT;
		else if (m.count == 1)
			m.st = same ? BC_OK : BC_ERR_PARTITIONS_FORMAT;
		else
			m.st = same ? BC_ERR_PARTITIONS_FORMAT : BC_OK;
	}
	return m;
}

static int
is_partitions_status(bc_status st)
{
	return st == BC_ERR_PARTITIONS_TRUNCATED || st == BC_ERR_PARTITIONS_FORMAT ||
		st == BC_ERR_PARTITIONS_TRAILING;
}

/*
 * Read d[0 .. len) as a whole file (bc_partitions_parse) and through the
 * two-step API from exact-size copies of the footer and of the keys, so
 * that the sanitizers see any read outside them; both must agree with the
 * model.  Returns the status.
 */
static bc_status
check_file(const uint8_t *d, size_t len, const char *what)
{
	model		m = model_parse(d, len);
	bc_partitions_footer f,
				f2;
	const uint8_t *a = d,
			   *z = d;
	size_t		al = 7,
				zl = 7;
	bc_status	st,
				st2;
	uint8_t    *tail = NULL;

	memset(&f, 0x5a, sizeof(f));
	st = bc_partitions_parse(d, len, &f, &a, &al, &z, &zl);
	CHECK(st == m.st, "%s (%zu bytes): %s, model %s", what, len,
		  bc_status_message(st), bc_status_message(m.st));
	if (st == BC_OK)
	{
		CHECK(f.keys_pos == m.keys_pos && f.key_count == m.count && f.root == m.root,
			  "%s: footer fields", what);
		CHECK(a == d + m.first_off && al == m.first_len &&
			  z == d + m.last_off && zl == m.last_len, "%s: keys", what);
	}
	else
		CHECK(f.keys_pos == 0 && f.key_count == 0 && f.root == 0 &&
			  a == NULL && al == 0 && z == NULL && zl == 0,
			  "%s: outputs not cleared on error", what);

	/* the two steps, as a reader of the file's tail and then its keys */
	if (len >= BC_PARTITIONS_FOOTER)
	{
		tail = malloc(BC_PARTITIONS_FOOTER);
		memcpy(tail, d + len - BC_PARTITIONS_FOOTER, BC_PARTITIONS_FOOTER);
	}
	memset(&f2, 0x5a, sizeof(f2));
	st2 = bc_partitions_footer_parse(tail, len, &f2);
	free(tail);
	if (st2 != BC_OK)
	{
		CHECK(st2 == st, "%s: footer step %s, whole %s", what,
			  bc_status_message(st2), bc_status_message(st));
		CHECK(f2.keys_pos == 0 && f2.key_count == 0 && f2.root == 0,
			  "%s: footer not cleared on error", what);
	}
	else
	{
		size_t		klen = len - BC_PARTITIONS_FOOTER - (size_t) f2.keys_pos;
		uint8_t    *keys = malloc(klen ? klen : 1);

		CHECK(f2.keys_pos == m.keys_pos && f2.key_count == m.count &&
			  f2.root == m.root, "%s: footer step fields", what);
		memcpy(keys, d + f2.keys_pos, klen);
		st2 = bc_partitions_keys_parse(keys, klen, &a, &al, &z, &zl);
		if (st2 == BC_OK)
		{
			CHECK(a == keys + 2 && al == m.first_len && z == keys + 4 + al &&
				  zl == m.last_len && memcmp(a, d + m.first_off, al) == 0 &&
				  memcmp(z, d + m.last_off, zl) == 0, "%s: keys step", what);
			st2 = bc_partitions_keys_check(&f2, a, al, z, zl);
		}
		else
			CHECK(a == NULL && al == 0 && z == NULL && zl == 0,
				  "%s: keys not cleared on error", what);
		CHECK(st2 == st, "%s: two steps %s, whole %s", what,
			  bc_status_message(st2), bc_status_message(st));
		free(keys);
	}
	CHECK(st == BC_OK || is_partitions_status(st), "%s: status %d", what, (int) st);
	return st;
}

/* Every cut of a real file, every bit flip and some byte values in the
 * keys and footer. */
static void
check_damage(const uint8_t *d, size_t len, const char *what, long *nbad)
{
	uint8_t    *copy = malloc(len);
	model		m = model_parse(d, len);
	size_t		i,
				start = (size_t) m.keys_pos;
	int			b;
	static const uint8_t values[] = {0x00, 0x01, 0x7f, 0x80, 0xff};

	/* a file cut short is never read as complete */
	for (i = 0; i < len; i++)
	{
		uint8_t    *cut = malloc(i ? i : 1);

		memcpy(cut, d, i);
		CHECK(check_file(cut, i, what) != BC_OK, "%s: cut to %zu bytes accepted",
			  what, i);
		free(cut);
		(*nbad)++;
	}
	/* ... nor with its start missing (the footer is there, the offsets
	 * no longer match) */
	for (i = 1; i < len; i++)
	{
		CHECK(check_file(d + i, len - i, what) != BC_OK,
			  "%s: first %zu bytes dropped, accepted", what, i);
		(*nbad)++;
	}
	/* flips and byte values from the keys to the end */
	for (i = start; i < len; i++)
	{
		size_t		v;

		for (b = 0; b < 8; b++)
		{
			memcpy(copy, d, len);
			copy[i] ^= (uint8_t) (1u << b);
			check_file(copy, len, what);
			(*nbad)++;
		}
		for (v = 0; v < sizeof(values); v++)
		{
			memcpy(copy, d, len);
			copy[i] = values[v];
			check_file(copy, len, what);
			(*nbad)++;
		}
	}
	/* one byte more or less before the footer */
	{
		uint8_t    *big = malloc(len + 1);

		memcpy(big, d, len - 24);
		big[len - 24] = 0;
		memcpy(big + len - 23, d + len - 24, 24);
		CHECK(check_file(big, len + 1, what) == BC_OK,
			  "%s: a byte before the footer, ignored", what);
		memcpy(copy, d, len - 25);
		memcpy(copy + len - 25, d + len - 24, 24);
		CHECK(check_file(copy, len - 1, what) == BC_ERR_PARTITIONS_TRUNCATED,
			  "%s: the last key one byte short", what);
		free(big);
		*nbad += 2;
	}
	free(copy);
}

/* Build a file: trie bytes, the two keys, the footer. */
static size_t
build(uint8_t *out, size_t trie, const char *k1, size_t l1, const char *k2,
	  size_t l2, uint64_t count, uint64_t root)
{
	size_t		p = trie;

	memset(out, 0x11, trie);
	out[p++] = (uint8_t) (l1 >> 8);
	out[p++] = (uint8_t) l1;
	memcpy(out + p, k1, l1);
	p += l1;
	out[p++] = (uint8_t) (l2 >> 8);
	out[p++] = (uint8_t) l2;
	memcpy(out + p, k2, l2);
	p += l2;
	bc_put_be64(out + p, trie);
	bc_put_be64(out + p + 8, count);
	bc_put_be64(out + p + 16, root);
	return p + 24;
}

static void
check_crafted(void)
{
	uint8_t		buf[256];
	size_t		n;
	bc_partitions_footer f;
	const uint8_t *a,
			   *z;
	size_t		al,
				zl;
	uint8_t		tail[24];

	/* the empty index: a root node, two zero lengths, count 0 */
	n = build(buf, 1, "", 0, "", 0, 0, 0);
	CHECK(n == 29 && check_file(buf, n, "empty index") == BC_OK, "empty index");
	CHECK(bc_partitions_parse(buf, n, &f, &a, &al, &z, &zl) == BC_OK &&
		  f.key_count == 0 && f.keys_pos == 1 && al == 0 && zl == 0, "empty index fields");
	n = build(buf, 1, "k", 1, "k", 1, 0, 0);
	CHECK(check_file(buf, n, "count 0 with keys") == BC_ERR_PARTITIONS_FORMAT,
		  "count 0 with keys");
	n = build(buf, 1, "", 0, "k", 1, 0, 0);
	CHECK(check_file(buf, n, "count 0, a last key") == BC_ERR_PARTITIONS_FORMAT,
		  "count 0 with a last key");
	n = build(buf, 0, "", 0, "", 0, 0, 0);
	CHECK(check_file(buf, n, "no root") == BC_ERR_PARTITIONS_FORMAT, "no trie, no root");

	/* one partition: the same key twice */
	n = build(buf, 5, "abc", 3, "abc", 3, 1, 4);
	CHECK(check_file(buf, n, "one key") == BC_OK, "one partition");
	n = build(buf, 5, "abc", 3, "abd", 3, 1, 4);
	CHECK(check_file(buf, n, "one, two keys") == BC_ERR_PARTITIONS_FORMAT,
		  "one partition, two keys");
	n = build(buf, 5, "abc", 3, "abd", 3, 2, 4);
	CHECK(check_file(buf, n, "two keys") == BC_OK, "two partitions");
	n = build(buf, 5, "abc", 3, "abc", 3, 2, 4);
	CHECK(check_file(buf, n, "two, one key") == BC_ERR_PARTITIONS_FORMAT,
		  "two partitions, one key");
	n = build(buf, 5, "", 0, "b", 1, 2, 4);
	CHECK(check_file(buf, n, "empty first") == BC_OK, "an empty first key of two");

	/* root and count against keys_pos */
	n = build(buf, 5, "a", 1, "b", 1, 2, 5);
	CHECK(check_file(buf, n, "root at keys") == BC_ERR_PARTITIONS_FORMAT, "root == keys_pos");
	n = build(buf, 5, "a", 1, "b", 1, 2, UINT64_MAX);
	CHECK(check_file(buf, n, "root max") == BC_ERR_PARTITIONS_FORMAT, "root 2^64-1");
	n = build(buf, 5, "a", 1, "b", 1, 5, 0);
	CHECK(check_file(buf, n, "count 5") == BC_OK, "count == keys_pos");
	n = build(buf, 5, "a", 1, "b", 1, 6, 0);
	CHECK(check_file(buf, n, "count 6") == BC_ERR_PARTITIONS_FORMAT, "count > keys_pos");
	n = build(buf, 5, "a", 1, "b", 1, UINT64_MAX, 0);
	CHECK(check_file(buf, n, "count max") == BC_ERR_PARTITIONS_FORMAT, "count 2^64-1");

	/* keys_pos at and past the footer, and wrapping values */
	n = build(buf, 5, "a", 1, "b", 1, 2, 0);
	bc_put_be64(buf + n - 24, n - 24);
	CHECK(check_file(buf, n, "keys at footer") == BC_ERR_PARTITIONS_FORMAT, "keys_pos == footer");
	bc_put_be64(buf + n - 24, n - 27);
	CHECK(check_file(buf, n, "3 bytes of keys") == BC_ERR_PARTITIONS_FORMAT, "keys_pos 3 before footer");
	bc_put_be64(buf + n - 24, n);
	CHECK(check_file(buf, n, "keys past end") == BC_ERR_PARTITIONS_FORMAT, "keys_pos past the end");
	bc_put_be64(buf + n - 24, UINT64_MAX - 2);
	CHECK(check_file(buf, n, "keys max") == BC_ERR_PARTITIONS_FORMAT, "keys_pos 2^64-3");
	CHECK(bc_partitions_footer_parse(buf + n - 24, UINT64_MAX, &f) ==
		  BC_ERR_PARTITIONS_FORMAT && f.keys_pos == 0, "file_len 2^64-1");

	/* key lengths that overrun, and bytes left over */
	n = build(buf, 5, "a", 1, "b", 1, 2, 0);
	buf[5] = 0xff;
	CHECK(check_file(buf, n, "first overruns") == BC_ERR_PARTITIONS_TRUNCATED, "first key overruns");
	n = build(buf, 5, "a", 1, "b", 1, 2, 0);
	buf[8] = 0x00;
	buf[9] = 0x02;
	CHECK(check_file(buf, n, "last overruns") == BC_ERR_PARTITIONS_TRUNCATED, "last key overruns");
	n = build(buf, 5, "a", 1, "bc", 2, 2, 0);
	buf[9] = 0x01;
	CHECK(check_file(buf, n, "trailing") == BC_OK, "a byte after the last key, ignored");
	{
		const uint8_t *a2,
				   *z2;
		size_t		al2,
					zl2;

		CHECK(bc_partitions_parse(buf, n, &f, &a2, &al2, &z2, &zl2) == BC_OK &&
			  al2 == 1 && a2[0] == 'a' && zl2 == 1 && z2[0] == 'b',
			  "a byte after the last key: the keys 'a' and 'b'");
	}
	n = build(buf, 5, "ab", 2, "b", 1, 2, 0);
	buf[6] = 0x04;
	CHECK(check_file(buf, n, "first eats last") == BC_ERR_PARTITIONS_TRUNCATED,
		  "first key ends where the last's length should be");

	/* short files, and NULL where nothing is read */
	for (n = 0; n < 24; n++)
	{
		CHECK(bc_partitions_footer_parse(NULL, n, &f) == BC_ERR_PARTITIONS_TRUNCATED,
			  "%zu-byte file", n);
		CHECK(bc_partitions_parse(buf, n, &f, &a, &al, &z, &zl) ==
			  BC_ERR_PARTITIONS_TRUNCATED, "%zu-byte file, whole", n);
	}
	CHECK(bc_partitions_footer_parse(NULL, 24, &f) == BC_ERR_PARTITIONS_TRUNCATED,
		  "NULL tail");
	CHECK(bc_partitions_keys_parse(NULL, 0, &a, &al, &z, &zl) ==
		  BC_ERR_PARTITIONS_TRUNCATED && a == NULL && z == NULL, "no keys");
	CHECK(bc_partitions_keys_parse(buf, 3, &a, &al, &z, &zl) ==
		  BC_ERR_PARTITIONS_TRUNCATED, "3 bytes of keys");
	memset(tail, 0, sizeof(tail));
	CHECK(bc_partitions_footer_parse(tail, 24, &f) == BC_ERR_PARTITIONS_FORMAT,
		  "footer alone");
	CHECK(bc_partitions_keys_parse((const uint8_t *) "\0\0\0\0", 4, &a, &al, &z, &zl) == BC_OK &&
		  al == 0 && zl == 0, "two empty keys");

	/* every status has its sentence */
	CHECK(strstr(bc_status_message(BC_ERR_PARTITIONS_TRUNCATED), "Partitions.db") != NULL &&
		  strstr(bc_status_message(BC_ERR_PARTITIONS_FORMAT), "Partitions.db") != NULL &&
		  strstr(bc_status_message(BC_ERR_PARTITIONS_TRAILING), "Partitions.db") != NULL,
		  "status messages");
}

/* Index.db keys, copied */
typedef struct keylist_lite
{
	size_t		n;
	size_t		cap;
	uint8_t   **k;
	size_t	   *l;
} keylist_lite;

static int
collect_lite(const bc_index_entry *e, void *arg)
{
	keylist_lite *kl = arg;

	if (kl->n == kl->cap)
	{
		kl->cap = kl->cap ? kl->cap * 2 : 64;
		kl->k = realloc(kl->k, kl->cap * sizeof(*kl->k));
		kl->l = realloc(kl->l, kl->cap * sizeof(*kl->l));
	}
	kl->k[kl->n] = malloc(e->key_len + 1);
	memcpy(kl->k[kl->n], e->key, e->key_len);
	kl->l[kl->n++] = e->key_len;
	return 0;
}

void
suite_partitions(void)
{
	unit_tsv	t;
	char	   *f[40];
	int			nf;
	long		nbti = 0,
				nbad = 0;

	check_crafted();

	if (unit_tsv_open(&t, "sstables/MANIFEST.tsv") != 0)
		return;
	unit_tsv_next(&t, f, 40);	/* header */
	while ((nf = unit_tsv_next(&t, f, 40)) >= 0)
	{
		char		rel[4096],
					what[4096];
		uint8_t    *data;
		size_t		len;
		bc_partitions_footer pf;
		const uint8_t *a,
				   *z;
		size_t		al,
					zl;
		int64_t		want;
		bc_status	st;

		if (nf < 14)
		{
			unit_fail(__FILE__, __LINE__, "MANIFEST line %ld: %d fields",
					  t.lineno, nf);
			continue;
		}
		if (strcmp(f[3], "bti") != 0)
			continue;
		snprintf(what, sizeof(what), "%s/%s", f[0], f[1]);
		snprintf(rel, sizeof(rel), "sstables/%s/%s-Partitions.db", f[0], f[1]);
		data = unit_read_file(unit_path(rel), &len);
		CHECK(data != NULL, "%s: no Partitions.db", what);
		if (data == NULL)
			continue;
		nbti++;
		st = check_file(data, len, what);
		CHECK(st == BC_OK, "%s: %s", what, bc_status_message(st));
		st = bc_partitions_parse(data, len, &pf, &a, &al, &z, &zl);
		if (unit_parse_i64(f[10], &want) != 0)
			want = -1;
		CHECK(st == BC_OK && (int64_t) pf.key_count == want,
			  "%s: %llu keys, manifest %s", what,
			  (unsigned long long) pf.key_count, f[10]);
		CHECK(st == BC_OK && unit_hex_eq(a, al, f[12]), "%s: first key", what);
		CHECK(st == BC_OK && unit_hex_eq(z, zl, f[13]), "%s: last key", what);
		check_damage(data, len, what, &nbad);
		free(data);
	}
	unit_tsv_close(&t);
	CHECK(nbti == EXPECT_BTI_ROWS, "Partitions.db read for %ld SSTables, expected %d",
		  nbti, EXPECT_BTI_ROWS);
	CHECK(nbad > 1000, "only %ld damaged files", nbad);
}

/* ------------------------------------------------------------------------
 * ScyllaDB's ms and mt (scylladb/MANIFEST.tsv): the facts recorded there
 * against the core always; the files themselves when they have been put in
 * scylladb/sstables/<dir>/ (not in the tree, see scylladb/README.md).
 * ------------------------------------------------------------------------ */
#define EXPECT_SCYLLADB_ROWS 17

static void
check_scylladb_files(char **f, const char *what, int *present)
{
	char		rel[4096];
	const char *v = f[1];
	uint8_t    *filt,
			   *idx,
			   *parts,
			   *stats,
			   *bits = NULL,
			   *out = NULL;
	size_t		flen,
				ilen,
				plen,
				slen,
				i;
	keylist_lite kl = {0, 0, NULL, NULL};
	bc_partitions_footer pf;
	bc_statistics s;
	bc_sizing sz;
	bc_filter bf;
	const uint8_t *a,
			   *z;
	size_t		al,
				zl,
				missing = 0;
	int32_t		k = 0;
	int64_t		w = 0,
				want;
	char		ver[3];
	bc_order	order = BC_ORDER_OLD;
	bc_layout	layout = BC_LAYOUT_RAW;
	uint64_t	n = 0;

	snprintf(rel, sizeof(rel), "scylladb/sstables/%s/%s-%s-big-Filter.db", f[0], v, f[2]);
	filt = unit_read_file(unit_path(rel), &flen);
	if (filt == NULL)
		return;
	(*present)++;
	snprintf(rel, sizeof(rel), "scylladb/sstables/%s/%s", f[0], f[9]);
	idx = unit_read_file(unit_path(rel), &ilen);
	snprintf(rel, sizeof(rel), "scylladb/sstables/%s/%s-%s-big-Partitions.db", f[0], v, f[2]);
	parts = unit_read_file(unit_path(rel), &plen);
	snprintf(rel, sizeof(rel), "scylladb/sstables/%s/%s-%s-big-Statistics.db", f[0], v, f[2]);
	stats = unit_read_file(unit_path(rel), &slen);
	CHECK(idx != NULL && parts != NULL && stats != NULL, "%s: components missing", what);
	if (idx == NULL || parts == NULL || stats == NULL)
		goto done;

	/* the keys: the me SSTable the ms/mt one was upgraded from */
	CHECK(bc_index_parse("me", 2, idx, ilen, collect_lite, &kl, &n) == BC_OK,
		  "%s: %s", what, f[9]);
	CHECK(unit_parse_i64(f[3], &want) == 0 && (int64_t) kl.n == want, "%s: %zu keys", what, kl.n);
	CHECK(kl.n > 0 && unit_hex_eq(kl.k[0], kl.l[0], f[7]) &&
		  unit_hex_eq(kl.k[kl.n - 1], kl.l[kl.n - 1], f[8]), "%s: Index.db first/last", what);

	/* Partitions.db footer, Statistics.db under the me layout */
	CHECK(check_file(parts, plen, what) == BC_OK &&
		  bc_partitions_parse(parts, plen, &pf, &a, &al, &z, &zl) == BC_OK &&
		  (int64_t) pf.key_count == want && unit_hex_eq(a, al, f[7]) &&
		  unit_hex_eq(z, zl, f[8]), "%s: Partitions.db footer", what);
	CHECK(bc_statistics_parse(stats, slen, v, 2, &s) == BC_OK && s.partitions == want &&
		  s.has_fp_chance && s.fp_chance == strtod(f[4], NULL), "%s: Statistics.db", what);

	/* every key present under the rules of the file name's version */
	snprintf(rel, sizeof(rel), "%s-%s-big-Filter.db", v, f[2]);
	CHECK(bc_file_name_lookup(rel, strlen(rel), ver, &order, &layout) == BC_OK &&
		  bc_filterdb_check(filt, flen, BC_MAX_WORDS_VALUE, &k, &w) == BC_OK,
		  "%s: Filter.db", what);
	if (w <= 0)
		goto done;
	CHECK(k == atoi(f[5]) && w == atoll(f[6]), "%s: Filter.db header", what);
	bits = malloc((size_t) w * 8);
	bc_payload_convert(bits, filt + 8, w, layout, BC_LAYOUT_RAW);
	bc_filter_init(&bf, k, w, order, bits);
	for (i = 0; i < kl.n; i++)
		if (!bc_filter_test(&bf, kl.k[i], kl.l[i]))
			missing++;
	CHECK(missing == 0, "%s: %zu keys missing", what, missing);
	/* ... and read as raw, keys go missing */
	bc_payload_convert(bits, filt + 8, w, BC_LAYOUT_RAW, BC_LAYOUT_RAW);
	for (i = 0, missing = 0; i < kl.n; i++)
		if (!bc_filter_test(&bf, kl.k[i], kl.l[i]))
			missing++;
	CHECK(missing > 0, "%s: the raw layout keeps every key", what);

	/* a rebuild sized from Statistics.db is the file, byte for byte */
	CHECK(bc_sizing_compute(s.partitions, s.fp_chance, &sz) == BC_OK &&
		  sz.hash_count == k && sz.word_count == w, "%s: sizing", what);
	memset(bits, 0, (size_t) w * 8);
	for (i = 0; i < kl.n; i++)
		bc_filter_add(&bf, kl.k[i], kl.l[i]);
	out = malloc(flen);
	bc_filterdb_write(&bf, layout, out);
	CHECK(memcmp(out, filt, flen) == 0, "%s: rebuild differs", what);

done:
	for (i = 0; i < kl.n; i++)
		free(kl.k[i]);
	free(kl.k);
	free(kl.l);
	free(bits);
	free(out);
	free(filt);
	free(idx);
	free(parts);
	free(stats);
}

void
suite_scylladb(void)
{
	unit_tsv	t;
	char	   *f[16];
	int			nf,
				nrows = 0,
				present = 0;

	if (unit_tsv_open(&t, "scylladb/MANIFEST.tsv") != 0)
		return;
	unit_tsv_next(&t, f, 16);	/* header */
	while ((nf = unit_tsv_next(&t, f, 16)) >= 0)
	{
		char		what[4096],
					name[64];
		bc_order	o;
		bc_layout	l;
		bc_index_era era;
		bc_sizing	sz;
		int64_t		n;
		char		ver[3];

		if (nf < 11)
		{
			unit_fail(__FILE__, __LINE__, "scylladb MANIFEST line %ld: %d fields",
					  t.lineno, nf);
			continue;
		}
		nrows++;
		snprintf(what, sizeof(what), "scylladb %s/%s-%s", f[0], f[1], f[2]);
		CHECK(strlen(f[1]) == 2 &&
			  bc_version_lookup(f[1], 2, &o, &l) == BC_OK &&
			  o == BC_ORDER_NEW && l == BC_LAYOUT_SWAPPED, "%s: version", what);
		CHECK(bc_index_era_lookup(f[1], 2, &era) == BC_ERR_INDEX_BTI,
			  "%s: no Index.db", what);
		snprintf(name, sizeof(name), "%.2s-%s-big-Filter.db", f[1], f[2]);
		CHECK(bc_file_name_lookup(name, strlen(name), ver, &o, &l) == BC_OK &&
			  strcmp(ver, f[1]) == 0, "%s: file name", what);
		/* ScyllaDB sized these filters as Cassandra does */
		CHECK(unit_parse_i64(f[3], &n) == 0 &&
			  bc_sizing_compute(n, strtod(f[4], NULL), &sz) == BC_OK &&
			  sz.hash_count == atoi(f[5]) && sz.word_count == atoll(f[6]),
			  "%s: sizing", what);
		check_scylladb_files(f, what, &present);
	}
	unit_tsv_close(&t);
	CHECK(nrows == EXPECT_SCYLLADB_ROWS, "%d ScyllaDB rows, expected %d", nrows,
		  EXPECT_SCYLLADB_ROWS);
	printf("  scylladb: %d of %d SSTables' files present in scylladb/sstables\n",
		   present, nrows);
}
