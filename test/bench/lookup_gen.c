/*
 * lookup_gen.c - writes the Index.db and Summary.db of a BIG SSTable of
 * version nb (Cassandra 4.x) under Murmur3Partitioner holding N partition
 * keys, key-0 .. key-<N-1> (lookup_keys.h), for the lookup benchmark
 * (lookup_bench.c; test/bench/README.md).
 *
 *   lookup_gen N DIR    DIR/nb-1-big-Index.db and DIR/nb-1-big-Summary.db
 *
 * The layouts are those Cassandra's writers give (apache/cassandra, 4.0 to
 * 5.0; nb and oa BIG are the same here):
 *
 *   Index.db    BigTableWriter.IndexWriter.append, one entry per partition
 *               in DecoratedKey order (the Murmur3 token, then the key's
 *               bytes unsigned): ByteBufferUtil.writeWithShortLength(key),
 *               then RowIndexEntry.serialize of an entry without index
 *               samples: the partition's Data.db position as an unsigned
 *               vint and an unsigned vint 0 (no promoted index follows).
 *   Summary.db  IndexSummaryBuilder at min_index_interval 128 and
 *               BASE_SAMPLING_LEVEL 128 (no downsampling start points)
 *               samples the entries 0, 128, 256, ...: the key's bytes,
 *               then the entry's Index.db offset as a long in the machine's
 *               order (SafeMemoryWriter, nativeOrder: little-endian).
 *               IndexSummarySerializer.serialize writes BE32
 *               min_index_interval, BE32 sample count, BE64 size of the
 *               off-heap region (4 bytes per sample + the entries), BE32
 *               sampling level, BE32 size at full sampling
 *               (ceil(N / min_index_interval)), then the region: each
 *               sample's offset from the region's start as a LE32, then
 *               the entries; IndexSummaryComponent.save adds BE32 length
 *               and the first key, BE32 length and the last key.
 *
 * No Data.db is written: each partition is given a nominal Data.db size of
 * 2 + key length + LK_PARTITION_EXTRA (32) bytes (its key with its length,
 * a partition header and a small row), so the positions grow as in a real
 * file and take one to four vint bytes.  Each file is written under a temporary name and then
 * renamed, Summary.db last: a Summary.db is there only if both are whole.
 *
 * Plain C: the core's bc_token (bc_murmur3.h) and big-endian writers
 * (bc_endian.h), nothing else of bloomcass.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_endian.h"
#include "bc_murmur3.h"
#include "lookup_keys.h"

#define MIN_INDEX_INTERVAL 128
#define SAMPLING_LEVEL 128		/* BASE_SAMPLING_LEVEL: full sampling */
#define MAX_KEYS 100000000		/* keeps every summary offset far below 2^31 */

typedef struct ordered_key
{
	int64_t		token;
	uint32_t	number;
} ordered_key;

static void
die(const char *fmt, const char *arg)
{
	fprintf(stderr, "lookup_gen: ");
	fprintf(stderr, fmt, arg, errno != 0 ? strerror(errno) : "");
	fputc('\n', stderr);
	exit(1);
}

/* DecoratedKey.compareTo: the tokens, then the keys' bytes unsigned */
static int
cmp_decorated(const void *pa, const void *pb)
{
	const ordered_key *a = pa;
	const ordered_key *b = pb;
	char		ka[LK_KEY_MAX],
				kb[LK_KEY_MAX];
	size_t		la,
				lb;
	int			c;

	if (a->token != b->token)
		return a->token < b->token ? -1 : 1;
	la = lk_key(a->number, ka);
	lb = lk_key(b->number, kb);
	c = memcmp(ka, kb, la < lb ? la : lb);
	if (c != 0)
		return c;
	return la < lb ? -1 : la > lb ? 1 : 0;
}

/* Cassandra's VIntCoding.writeUnsignedVInt: the number of extra bytes as
 * leading one bits of the first byte, then the value big-endian */
static size_t
put_uvint(uint8_t *out, uint64_t v)
{
	int			extra = 0;
	int			k;
	uint64_t	rest = v;

	while (extra < 8 && (v >> (7 * (extra + 1))) != 0)
		extra++;
	for (k = extra; k >= 0; k--)
	{
		out[k] = (uint8_t) rest;
		rest >>= 8;
	}
	out[0] |= (uint8_t) ~(0xff >> extra);
	return (size_t) extra + 1;
}

static void
put_le32(uint8_t *p, uint32_t v)
{
	int			k;

	for (k = 0; k < 4; k++)
		p[k] = (uint8_t) (v >> (8 * k));
}

static void
put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t) v);
	put_le32(p + 4, (uint32_t) (v >> 32));
}

static void
write_all(FILE *f, const void *data, size_t len, const char *path)
{
	if (len > 0 && fwrite(data, 1, len, f) != len)
		die("%s: write failed: %s", path);
}

static FILE *
open_tmp(const char *tmp)
{
	FILE	   *f = fopen(tmp, "wb");

	if (f == NULL)
		die("%s: %s", tmp);
	setvbuf(f, NULL, _IOFBF, (size_t) 1 << 20);
	return f;
}

static void
close_and_rename(FILE *f, const char *tmp, const char *path)
{
	if (fclose(f) != 0)
		die("%s: close failed: %s", tmp);
	if (rename(tmp, path) != 0)
		die("%s: rename failed: %s", path);
}

int
main(int argc, char **argv)
{
	char	   *end;
	unsigned long long n_arg;
	uint32_t	n,
				i,
				count;
	ordered_key *keys;
	uint8_t    *entries,
			   *offsets;
	size_t		entries_len = 0,
				entries_cap,
				path_len;
	char	   *index_path,
			   *summary_path,
			   *tmp_path;
	FILE	   *f;
	uint64_t	index_offset = 0,
				position = 0;
	char		key[LK_KEY_MAX];
	size_t		key_len;
	uint8_t		hdr[24];

	if (argc != 3)
	{
		fprintf(stderr, "usage: lookup_gen N DIR\n");
		return 2;
	}
	errno = 0;
	n_arg = strtoull(argv[1], &end, 10);
	if (*argv[1] == '\0' || *end != '\0' || errno != 0 || n_arg < 1 || n_arg > MAX_KEYS)
	{
		fprintf(stderr, "lookup_gen: N must be 1 .. %d, not \"%s\"\n", MAX_KEYS, argv[1]);
		return 2;
	}
	n = (uint32_t) n_arg;
	count = (n + MIN_INDEX_INTERVAL - 1) / MIN_INDEX_INTERVAL;

	path_len = strlen(argv[2]) + 32;
	index_path = malloc(path_len);
	summary_path = malloc(path_len);
	tmp_path = malloc(path_len);
	keys = malloc(sizeof(*keys) * n);
	/* a sample is at most a key and its 8-byte offset */
	entries_cap = (size_t) count * (LK_KEY_MAX + 8);
	entries = malloc(entries_cap);
	offsets = malloc((size_t) count * 4);
	if (!index_path || !summary_path || !tmp_path || !keys || !entries || !offsets)
	{
		fprintf(stderr, "lookup_gen: out of memory for %" PRIu32 " keys\n", n);
		return 1;
	}
	snprintf(index_path, path_len, "%s/nb-1-big-Index.db", argv[2]);
	snprintf(summary_path, path_len, "%s/nb-1-big-Summary.db", argv[2]);

	/* the keys in Cassandra's order */
	for (i = 0; i < n; i++)
	{
		key_len = lk_key(i, key);
		keys[i].token = bc_token(key, key_len);
		keys[i].number = i;
	}
	qsort(keys, n, sizeof(*keys), cmp_decorated);

	/* Index.db, and the samples of Summary.db on the way */
	snprintf(tmp_path, path_len, "%s.tmp", index_path);
	f = open_tmp(tmp_path);
	for (i = 0; i < n; i++)
	{
		uint8_t		entry[2 + LK_KEY_MAX + 18];
		size_t		len;

		key_len = lk_key(keys[i].number, key);
		if (i % MIN_INDEX_INTERVAL == 0)
		{
			put_le32(offsets + 4 * (size_t) (i / MIN_INDEX_INTERVAL),
					 (uint32_t) ((size_t) count * 4 + entries_len));
			memcpy(entries + entries_len, key, key_len);
			put_le64(entries + entries_len + key_len, index_offset);
			entries_len += key_len + 8;
		}
		entry[0] = (uint8_t) (key_len >> 8);
		entry[1] = (uint8_t) key_len;
		memcpy(entry + 2, key, key_len);
		len = 2 + key_len;
		len += put_uvint(entry + len, position);
		len += put_uvint(entry + len, 0);
		write_all(f, entry, len, tmp_path);
		index_offset += len;
		position += 2 + key_len + LK_PARTITION_EXTRA;
	}
	close_and_rename(f, tmp_path, index_path);

	/* Summary.db */
	snprintf(tmp_path, path_len, "%s.tmp", summary_path);
	f = open_tmp(tmp_path);
	bc_put_be32(hdr, MIN_INDEX_INTERVAL);
	bc_put_be32(hdr + 4, count);
	bc_put_be64(hdr + 8, (uint64_t) count * 4 + entries_len);
	bc_put_be32(hdr + 16, SAMPLING_LEVEL);
	bc_put_be32(hdr + 20, count);
	write_all(f, hdr, 24, tmp_path);
	write_all(f, offsets, (size_t) count * 4, tmp_path);
	write_all(f, entries, entries_len, tmp_path);
	for (i = 0; i < 2; i++)
	{
		uint8_t		len[4];

		key_len = lk_key(keys[i == 0 ? 0 : n - 1].number, key);
		bc_put_be32(len, (uint32_t) key_len);
		write_all(f, len, 4, tmp_path);
		write_all(f, key, key_len, tmp_path);
	}
	close_and_rename(f, tmp_path, summary_path);

	printf("lookup_gen: %" PRIu32 " keys: %s (%" PRIu64 " bytes), %s (%" PRIu32 " samples)\n",
		   n, index_path, index_offset, summary_path, count);
	free(keys);
	free(entries);
	free(offsets);
	free(index_path);
	free(summary_path);
	free(tmp_path);
	return 0;
}
