/*
 * test_partitions.c - the Partitions.db footer reader (bc_partitions.c)
 * against the BTI SSTables of test/data/sstables (MANIFEST.tsv): key count,
 * first and last key, read whole and through the two-step API from exact
 * copies; then every truncation, every single-bit flip and byte changes of
 * the footer and keys, each against an independent model of the format
 * (partitions_model.c), and crafted files (the empty index Cassandra
 * writes, impossible offsets).  ScyllaDB's ms are test_scylladb.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_endian.h"
#include "bc_partitions.h"
#include "bc_status.h"
#include "partitions_model.h"
#include "unit.h"

/* MANIFEST rows of format bti: 4 da (Cassandra 5.0), 2 DataStax bb */
#define EXPECT_BTI_ROWS 6


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
	return partitions_build(out, trie, (const uint8_t *) k1, l1, (const uint8_t *) k2, l2,
							0, count, root);
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

void
suite_partitions(void)
{
	bti_files	b;
	uint8_t    *data;
	size_t		len;
	long		nbad = 0;

	check_crafted();

	bti_files_open(&b);
	while ((data = bti_files_next(&b, &len)) != NULL)
	{
		const char *what = b.what;
		char	  **f = b.f;
		bc_partitions_footer pf;
		const uint8_t *a,
				   *z;
		size_t		al,
					zl;
		int64_t		want;
		bc_status	st;

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
	bti_files_close(&b);
	CHECK(b.count == EXPECT_BTI_ROWS, "Partitions.db read for %ld SSTables, expected %d",
		  b.count, EXPECT_BTI_ROWS);
	CHECK(nbad > 1000, "only %ld damaged files", nbad);
}
