/*
 * test_trie_keys.c - the keys of trie-indexed SSTables (bc_trie_keys.c):
 * the byte-comparable form of partition keys against ScyllaDB's vectors,
 * then every BTI SSTable of test/data/sstables (MANIFEST.tsv): every key
 * through the incremental reader against the footer's count and keys, the
 * manifest's, keys.hex and Filter.db, in token order; has_key for every
 * key and for many absent ones (near the present keys, and ones whose
 * walk ends at a leaf with the same hash byte), with what each lookup
 * read; damaged leaf positions; a leaf with children holding a key that
 * goes on past it.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_codec.h"
#include "bc_compression.h"
#include "bc_data.h"
#include "bc_endian.h"
#include "bc_filter.h"
#include "bc_index.h"
#include "bc_murmur3.h"
#include "bc_partitions.h"
#include "bc_status.h"
#include "bc_trie.h"
#include "bc_trie_keys.h"
#include "unit.h"
#include "unit_trie.h"

/* MANIFEST rows of format bti: 4 da (ByteOrdered), 2 bb (Murmur3) */
#define EXPECT_BTI_ROWS 6

/* a key (hex) and its escaped form (hex) in a ByteOrdered key's form */
typedef struct escape
{
	const char *key;
	const char *esc;
} escape;

/*
 * Each key's byte-comparable form under ByteOrderedPartitioner: 0x40, the
 * escaped key, twice; then the terminator 0x38, except in the LEGACY form
 * (legacy: bc_key_source_legacy), which has none.
 */
static void
check_escapes(const escape *e, size_t count, int legacy)
{
	size_t		i;

	for (i = 0; i < count; i++)
	{
		size_t		klen,
					n;
		uint8_t    *key = unit_hex_decode(e[i].key, strlen(e[i].key), &klen);
		uint8_t		out[64];
		char		want[128];
		bc_key_source s;

		snprintf(want, sizeof(want), "40%s40%s%s", e[i].esc, e[i].esc, legacy ? "" : "38");
		bc_key_source_init(&s, BC_PARTITIONER_BYTE_ORDERED, key, klen);
		if (legacy)
			bc_key_source_legacy(&s);
		n = bc_key_encode(&s, out, sizeof(out));
		CHECK(unit_hex_eq(out, n, want), "%sescape %zu: %s", legacy ? "legacy " : "", i, e[i].key);
		free(key);
	}
}

/*
 * ScyllaDB's test/boost/bti_key_translation_test.cc,
 * test_lazy_comparable_bytes_from_ring_position_fixed_cases_mt: the "at
 * key" encodings of mt (Cassandra's form) of keys with a given token; the
 * key bytes are the partition key as stored (a composite for two columns).
 */
static void
check_vectors(void)
{
	static const struct
	{
		const char *key;
		int64_t		token;
		const char *form;
	}			v[] = {
		{"0123456789abcdef", INT64_C(0x6f24ac460b9c0027),
		"40ef24ac460b9c0027400123456789abcdef0038"},
		{"01020304", INT64_C(0x0a0090a9da040fe3), "408a0090a9da040fe340010203040038"},
		{"00000000", (int64_t) UINT64_C(0xcfa0f7ddd84c76bc), "404fa0f7ddd84c76bc4000fefefefe38"},
		{"0102030405", (int64_t) UINT64_C(0xfe94a31bab98860e),
		"407e94a31bab98860e4001020304050038"},
		{"00080123456789abcdef0000050100020003" "00", INT64_C(0x79086c2c2e019e3e),
		"40f9086c2c2e019e3e4000ff080123456789abcdef00feff050100ff0200ff0300fe38"},
	};
	size_t		i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
	{
		size_t		klen,
					n;
		uint8_t    *key = unit_hex_decode(v[i].key, strlen(v[i].key), &klen);
		uint8_t		out[128];
		bc_key_source s;

		bc_key_source_init_token(&s, v[i].token, key, klen);
		n = bc_key_encode(&s, out, sizeof(out));
		CHECK(n <= sizeof(out) && unit_hex_eq(out, n, v[i].form), "vector %zu: form", i);
		/* a short buffer: the length, and only its bytes */
		bc_key_source_init_token(&s, v[i].token, key, klen);
		CHECK(bc_key_encode(&s, out, 3) == n, "vector %zu: length", i);
		free(key);
	}

	/* ByteSource.AbstractEscaper's own examples (OSS50), in ByteOrdered
	 * form: the key twice */
	{
		static const escape e[] = {
			{"41000042", "4100feff4200"},
			{"41004200", "4100ff4200fe"},
			{"4100", "4100fe"},
			{"4142", "414200"},
			{"", "00"},
			{"00", "00fe"},
		};

		check_escapes(e, sizeof(e) / sizeof(e[0]), 0);
	}

	/* the LEGACY form of DataStax's aa .. bb (bc_key_source_legacy):
	 * ByteSource.AbstractReinterpreter's examples, "+00 for
	 * Version#LEGACY" after a final escaped 0, and no terminator */
	{
		static const escape e[] = {
			{"41000042", "4100feff4200"},
			{"41004200", "4100ff4200fe00"},
			{"4100", "4100fe00"},
			{"4142", "414200"},
			{"", "00"},
			{"00", "00fe00"},
			{"0000", "00fefe00"},
		};

		check_escapes(e, sizeof(e) / sizeof(e[0]), 1);
	}

	/* Murmur3: the token of the key, sign bit flipped; the empty key's
	 * token is the minimum */
	{
		uint8_t		out[32];
		size_t		n;
		bc_key_source s;

		bc_key_source_init(&s, BC_PARTITIONER_MURMUR3, (const uint8_t *) "", 0);
		n = bc_key_encode(&s, out, sizeof(out));
		CHECK(unit_hex_eq(out, n, "40000000000000000040" "0038"), "empty key, Murmur3");
	}

	{
		bc_partitioner p;

		CHECK(bc_partitioner_from_name("org.apache.cassandra.dht.Murmur3Partitioner", 43, &p) == BC_OK &&
			  p == BC_PARTITIONER_MURMUR3, "Murmur3Partitioner");
		CHECK(bc_partitioner_from_name("ByteOrderedPartitioner", 22, &p) == BC_OK &&
			  p == BC_PARTITIONER_BYTE_ORDERED, "ByteOrderedPartitioner");
		CHECK(bc_partitioner_from_name("org.apache.cassandra.dht.RandomPartitioner", 42, &p) ==
			  BC_ERR_TRIE_ENCODING, "RandomPartitioner");
	}
}

/* leaf positions changed in place: past Rows.db or Data.db, or to another
 * key */
static void
check_positions(unit_trie_sst *s, const char *version, bc_partitioner p, const char *what)
{
	bc_trie		t;
	bc_trie_iter it;
	bc_trie_payload pl;
	bc_trie_node n;
	int			done;
	uint8_t    *orig = malloc(s->plen);
	long		tried = 0,
				detected = 0;

	memcpy(orig, s->parts, s->plen);
	CHECK(bc_trie_init(&t, &s->rp, &s->foot) == BC_OK &&
		  bc_trie_iter_init(&it, &t, unit_trie_frames64, 64) == BC_OK, "%s: iter", what);
	while (bc_trie_iter_next(&it, &pl, &done) == BC_OK && !done)
	{
		static const int64_t bad[] = {INT64_C(0x7f), -INT64_C(0x80), INT64_C(0x7ffe), -INT64_C(0x7fff)};
		size_t		j,
					at,
					w;
		unit_keylist		kl;
		bc_status	st;

		if (bc_trie_read_node(&t, pl.node_pos, &n) != BC_OK)
			continue;
		at = (size_t) pl.node_pos + n.size + (pl.has_hash ? 1 : 0);
		w = (size_t) (n.payload_flags >= 8 ? n.payload_flags - 7 : n.payload_flags);
		for (j = 0; j < sizeof(bad) / sizeof(bad[0]); j++)
		{
			uint64_t	v = (uint64_t) bad[j];
			size_t		b;

			if (w < 2 && (bad[j] > 0x7f || bad[j] < -0x80))
				continue;
			for (b = 0; b < w; b++)
				s->parts[at + w - 1 - b] = (uint8_t) (v >> (8 * b));
			st = unit_trie_read_keys(s, version, p, &kl);
			unit_keylist_free(&kl);
			CHECK(st == BC_ERR_TRIE_POSITION || st == BC_ERR_TRIE_KEY ||
				  st == BC_ERR_TRIE_HASH || st == BC_ERR_COMPRESSION_CHUNK || st == BC_OK,
				  "%s: position %lld: %s", what, (long long) bad[j], bc_status_message(st));
			/* another key under the same prefix passes */
			detected += st != BC_OK;
			tried++;
			memcpy(s->parts, orig, s->plen);
		}
	}
	CHECK(tried > 0 && detected * 2 > tried, "%s: %ld of %ld bad positions detected", what,
		  detected, tried);
	free(orig);
}

static void
check_sstable(char **f)
{
	char		what[4096];
	unit_trie_sst			s;
	unit_keylist		kl;
	bc_partitioner p;
	bc_status	st;
	size_t		i;
	const char *version = f[2];
	char		dir[4096];

	snprintf(what, sizeof(what), "%s/%s", f[0], f[1]);
	snprintf(dir, sizeof(dir), "sstables/%s", f[0]);
	CHECK(unit_trie_open(&s, dir, f[1], version) == 0, "%s: cannot open", what);
	CHECK(bc_partitioner_from_name(f[8], strlen(f[8]), &p) == BC_OK, "%s: partitioner", what);
	if (s.parts == NULL || s.rows == NULL || s.data == NULL || s.filt == NULL)
	{
		unit_trie_close(&s);
		return;
	}

	st = unit_trie_read_keys(&s, version, p, &kl);
	CHECK(st == BC_OK, "%s: keys: %s", what, bc_status_message(st));
	CHECK(kl.n == s.foot.key_count && (long long) kl.n == atoll(f[10]),
		  "%s: %zu keys, footer %llu, manifest %s", what, kl.n,
		  (unsigned long long) s.foot.key_count, f[10]);
	if (kl.n > 0)
	{
		CHECK(kl.l[0] == s.first_len && memcmp(kl.k[0], s.first, s.first_len) == 0 &&
			  unit_hex_eq(kl.k[0], kl.l[0], f[12]), "%s: first key", what);
		CHECK(kl.l[kl.n - 1] == s.last_len && memcmp(kl.k[kl.n - 1], s.last, s.last_len) == 0 &&
			  unit_hex_eq(kl.k[kl.n - 1], kl.l[kl.n - 1], f[13]), "%s: last key", what);
	}
	for (i = 1; i < kl.n; i++)
		CHECK(unit_trie_key_cmp(p, kl.k[i - 1], kl.l[i - 1], kl.k[i], kl.l[i]) < 0,
			  "%s: keys %zu and %zu out of order", what, i - 1, i);

	/* every key in Filter.db */
	{
		bc_order	order;
		bc_layout	layout;
		int32_t		k = 0;
		int64_t		w = 0;
		bc_filter	bf;
		uint8_t    *bits;
		size_t		missing = 0;

		CHECK(bc_version_lookup(version, 2, &order, &layout) == BC_OK &&
			  bc_filterdb_check(s.filt, s.flen, BC_MAX_WORDS_VALUE, &k, &w) == BC_OK,
			  "%s: Filter.db", what);
		if (w > 0)
		{
			bits = malloc((size_t) w * 8);
			bc_payload_convert(bits, s.filt + 8, w, layout, BC_LAYOUT_RAW);
			bc_filter_init(&bf, k, w, order, bits);
			for (i = 0; i < kl.n; i++)
				if (!bc_filter_test(&bf, kl.k[i], kl.l[i]))
					missing++;
			CHECK(missing == 0, "%s: %zu keys not in Filter.db", what, missing);
			free(bits);
		}
	}

	/* the keys of keys.hex (rebuild_keys), as a set */
	if (strncmp(f[25], "shared/", 7) == 0)
	{
		unit_tsv	t;
		char	   *kf[2];
		size_t		n = 0;

		if (unit_tsv_open(&t, f[25] + 7) == 0)
		{
			while (unit_tsv_next(&t, kf, 2) >= 1)
			{
				size_t		l;
				uint8_t    *k = unit_hex_decode(kf[0], strlen(kf[0]), &l);

				CHECK(k != NULL && unit_keylist_has(&kl, k, l), "%s: keys.hex key %s not read", what, kf[0]);
				free(k);
				n++;
			}
			unit_tsv_close(&t);
			CHECK(n == kl.n, "%s: keys.hex has %zu keys, read %zu", what, n, kl.n);
		}
		else
			CHECK(0, "%s: cannot open %s", what, f[25]);
	}

	if (kl.n > 0)
		unit_trie_check_lookups(&s, version, p, &kl, what);
	check_positions(&s, version, p, what);

	/* ms: the keys are listed all the same, with only the token part of
	 * the prefix checked */
	{
		unit_keylist		km;

		st = unit_trie_read_keys(&s, "ms", p, &km);
		CHECK(st == BC_OK && km.n == kl.n, "%s: as ms: %s", what, bc_status_message(st));
		unit_keylist_free(&km);
	}
	/* the wrong partitioner: the keys do not match their prefixes */
	{
		unit_keylist		kw;

		st = unit_trie_read_keys(&s, version, p == BC_PARTITIONER_MURMUR3 ? BC_PARTITIONER_BYTE_ORDERED :
					   BC_PARTITIONER_MURMUR3, &kw);
		CHECK(st == BC_ERR_TRIE_KEY, "%s: wrong partitioner: %s", what, bc_status_message(st));
		unit_keylist_free(&kw);
	}
	unit_keylist_free(&kl);
	unit_trie_close(&s);
}

/*
 * A leaf with children whose key's form goes on past it (the fuzz
 * target's order check, test/fuzz/index/fuzz_trie_keys.c, flags it): the root
 * holds "z" and its child at 0x40 "a" (ByteOrdered), so the keys came out
 * as z, a, each form starting with its leaf's prefix.  A lookup never stops at such a leaf but for a whole
 * key: BC_ERR_TRIE_KEY.  The same trie without the root's payload lists
 * "a"; ms, whose keys are not checked, lists both.
 */
static void
check_inner_leaf(void)
{
	static const uint8_t rows[] = {0x00, 0x01, 'z', 0x00, 0x01, 'a'};
	uint8_t		parts[36] = {
		0x01, 0x03,				/* 0: payload only, position 3 ("a") */
		0x21, 0x40, 0x02, 0x00, /* 2: single_8 to 0 at 0x40, position 0 ("z") */
		0x00, 0x01, 'a', 0x00, 0x01, 'z'	/* the first and last keys */
	};
	static const struct
	{
		const char *version;
		int			root_payload;
		bc_status	st;
		size_t		n;
		const char *keys;
	}			cases[] = {
		{"da", 1, BC_ERR_TRIE_KEY, 0, ""},
		{"da", 0, BC_OK, 1, "a"},
		{"ea", 0, BC_OK, 1, "a"},
		{"eb", 1, BC_ERR_TRIE_KEY, 0, ""},
		{"ms", 1, BC_OK, 2, "za"},
	};
	size_t		i;

	bc_put_be64(parts + 12, 6);	/* keys_pos */
	bc_put_be64(parts + 28, 2);	/* root */
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		static bc_trie_keys k;
		unit_mem	mp,
					mr,
					md;
		bc_reader	rp,
					rr,
					rd;
		bc_data_reader dr;
		bc_partitions_footer f;
		bc_trie_sstable ts;
		bc_status	st;
		char		got[4] = "";
		size_t		n = 0;

		parts[2] = cases[i].root_payload ? 0x21 : 0x20;
		bc_put_be64(parts + 20, cases[i].root_payload ? 2 : 1);	/* key count */
		unit_mem_open(&mp, &rp, parts, sizeof(parts));
		unit_mem_open(&mr, &rr, rows, sizeof(rows));
		unit_mem_open(&md, &rd, rows, 0);
		CHECK(bc_partitions_footer_parse(parts + sizeof(parts) - 24, sizeof(parts), &f) == BC_OK &&
			  bc_data_reader_init(&dr, &rd, NULL, NULL, 0, NULL, 0, NULL, 0) == BC_OK &&
			  bc_trie_sstable_init(&ts, cases[i].version, 2, BC_PARTITIONER_BYTE_ORDERED, &rp, &f,
								   &rr, &dr) == BC_OK &&
			  bc_trie_keys_init(&k, &ts, unit_trie_frames64, 64) == BC_OK, "inner leaf %zu: init", i);
		for (;;)
		{
			const uint8_t *key;
			size_t		len;
			int			done;

			st = bc_trie_keys_next(&k, &key, &len, &done);
			if (st != BC_OK || done)
				break;
			if (n < 3 && len == 1)
				got[n] = (char) key[0];
			n++;
		}
		CHECK(st == cases[i].st && n == cases[i].n && strcmp(got, cases[i].keys) == 0,
			  "inner leaf %zu (%s): %s, %zu keys \"%s\"", i, cases[i].version,
			  bc_status_message(st), n, got);
	}
}

void
suite_trie_keys(void)
{
	unit_tsv	t;
	char	   *f[40];
	int			nf;
	long		rows = 0;

	check_vectors();
	check_inner_leaf();
	if (unit_tsv_open(&t, "sstables/MANIFEST.tsv") != 0)
	{
		CHECK(0, "cannot open sstables/MANIFEST.tsv");
		return;
	}
	unit_tsv_next(&t, f, 40);	/* header */
	while ((nf = unit_tsv_next(&t, f, 40)) >= 0)
	{
		if (nf < 26 || strcmp(f[3], "bti") != 0)
			continue;
		rows++;
		check_sstable(f);
	}
	unit_tsv_close(&t);
	CHECK(rows == EXPECT_BTI_ROWS, "%ld BTI rows in MANIFEST.tsv, expected %d", rows, EXPECT_BTI_ROWS);
}

/* ------------------------------------------------------------------------
 * ScyllaDB's ms and mt (scylladb/MANIFEST.tsv) when their files have been
 * put in scylladb/sstables/ (not in the tree, see scylladb/README.md):
 * every key read through the trie equals the Index.db of the me SSTable
 * they were upgraded from, in order, and every lookup is exact.
 * ------------------------------------------------------------------------ */

static int
collect_key(const bc_index_entry *e, void *arg)
{
	unit_keylist *kl = arg;

	kl->k = realloc(kl->k, (kl->n + 1) * sizeof(*kl->k));
	kl->l = realloc(kl->l, (kl->n + 1) * sizeof(*kl->l));
	kl->k[kl->n] = malloc(e->key_len ? e->key_len : 1);
	memcpy(kl->k[kl->n], e->key, e->key_len);
	kl->l[kl->n++] = e->key_len;
	return 0;
}

void
suite_trie_scylladb(void)
{
	unit_tsv	t;
	char	   *f[16];
	int			present = 0;

	if (unit_tsv_open(&t, "scylladb/MANIFEST.tsv") != 0)
	{
		CHECK(0, "cannot open scylladb/MANIFEST.tsv");
		return;
	}
	unit_tsv_next(&t, f, 16);	/* header */
	while (unit_tsv_next(&t, f, 16) >= 11)
	{
		char		dir[4096],
					desc[64],
					what[4200],
					rel[4300];
		unit_trie_sst s;
		unit_keylist kl,
					idx;
		uint8_t    *ib;
		size_t		ilen,
					i;
		uint64_t	n = 0;
		bc_status	st;

		snprintf(dir, sizeof(dir), "scylladb/sstables/%s", f[0]);
		snprintf(desc, sizeof(desc), "%s-%s-big", f[1], f[2]);
		snprintf(rel, sizeof(rel), "%s/%s", dir, f[9]);
		if ((ib = unit_read_file(unit_path(rel), &ilen)) == NULL)
			continue;
		present++;
		snprintf(what, sizeof(what), "scylladb %s/%s", f[0], desc);
		memset(&idx, 0, sizeof(idx));
		CHECK(bc_index_parse("me", 2, ib, ilen, collect_key, &idx, &n) == BC_OK,
			  "%s: %s", what, f[9]);
		free(ib);
		if (unit_trie_open(&s, dir, desc, f[1]) != 0)
		{
			CHECK(0, "%s: cannot open", what);
			unit_trie_close(&s);
			unit_keylist_free(&idx);
			continue;
		}
		st = unit_trie_read_keys(&s, f[1], BC_PARTITIONER_MURMUR3, &kl);
		CHECK(st == BC_OK && kl.n == idx.n && kl.n == s.foot.key_count,
			  "%s: %zu keys (%s), Index.db %zu", what, kl.n, bc_status_message(st), idx.n);
		for (i = 0; i < kl.n && i < idx.n; i++)
			CHECK(kl.l[i] == idx.l[i] && memcmp(kl.k[i], idx.k[i], kl.l[i]) == 0,
				  "%s: key %zu differs from Index.db's", what, i);
		if (kl.n > 0)
			unit_trie_check_lookups(&s, f[1], BC_PARTITIONER_MURMUR3, &kl, what);
		unit_keylist_free(&kl);
		unit_keylist_free(&idx);
		unit_trie_close(&s);
	}
	unit_tsv_close(&t);
	printf("  trie_scylladb: %d SSTables' files present in scylladb/sstables\n", present);
}
