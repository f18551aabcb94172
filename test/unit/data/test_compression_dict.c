/*
 * test_compression_dict.c - Cassandra 6.0's compression dictionary after
 * the chunk offsets of CompressionInfo.db (bc_compression_dict.c) and the
 * chunks of Data.db compressed with it (bc_compression.c, bc_data.c).
 *
 * A CompressionInfo.db and Data.db are written here as trunk's
 * CompressionMetadata.Writer and CompressionDictionary.serialize write them
 * (ZstdDictionaryCompressor, each chunk ZSTD_compress_usingDict with the
 * dictionary, then its CRC32): read back whole under pa and ea; without the
 * dictionary (end of file after the offsets); every truncation of the
 * dictionary; a kind of 1 and of -1 ("Invalid compression dictionary
 * kind"); a flipped checksum, id or dictionary byte, and the checksum over
 * the id's big-endian bytes instead of Guava's little-endian ones (checksum
 * mismatch); a negative length; bytes after the checksum (ignored, as
 * deserialize stops there); the same bytes under oa (5.0 ignores what
 * follows the offsets and knows no ZstdDictionaryCompressor); a chunk
 * compressed with a zstd-format dictionary of another id than the one read
 * with (zstd's dictionary_wrong: BC_ERR_COMPRESSION_DICT_MISMATCH, not a
 * silently wrong chunk).
 */
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <zdict.h>
#include <zstd.h>

#include "bc_compression.h"
#include "bc_compression_dict.h"
#include "bc_data.h"
#include "bc_endian.h"
#include "bc_status.h"
#include "unit.h"

#define DATA_LEN 20000
#define CHUNK 4096
#define DICT_LEN 3000
#define DICT_ID INT64_C(0x0102030405060708)

typedef bytebuf wbuf;

static uint8_t plain[DATA_LEN];
static uint8_t dict[DICT_LEN];

/* the trailer: kind, id, length, dictionary, checksum (id_le: Guava's order) */
static void
put_trailer(wbuf *b, int kind, int64_t id, int id_le)
{
	uint8_t		k = (uint8_t) kind,
				ib[8];
	uint32_t	sum;
	int			i;

	for (i = 0; i < 8; i++)
		ib[i] = (uint8_t) ((uint64_t) id >> (8 * (id_le ? i : 7 - i)));
	sum = bc_crc32c(0, &k, 1);
	sum = bc_crc32c(sum, ib, 8);
	sum = bc_crc32c(sum, dict, DICT_LEN);
	bytebuf_put(b, &k, 1);
	bytebuf_put_be(b, (uint64_t) id, 8);
	bytebuf_put_be(b, DICT_LEN, 4);
	bytebuf_put(b, dict, DICT_LEN);
	bytebuf_put_be(b, sum, 4);
}

/* Data.db (chunks with dict when use_dict) and the header and offsets of
 * CompressionInfo.db */
static void
write_sstable(int use_dict, wbuf *data, wbuf *info)
{
	static const char class[] = "ZstdDictionaryCompressor";
	size_t		pos,
				cap = ZSTD_compressBound(CHUNK);
	uint8_t    *out = malloc(cap);
	wbuf		offs = {0};
	ZSTD_CCtx  *cctx = ZSTD_createCCtx();

	for (pos = 0; pos < DATA_LEN; pos += CHUNK)
	{
		size_t		n = DATA_LEN - pos < CHUNK ? DATA_LEN - pos : CHUNK,
					c = use_dict
			? ZSTD_compress_usingDict(cctx, out, cap, plain + pos, n, dict, DICT_LEN, 3)
			: ZSTD_compressCCtx(cctx, out, cap, plain + pos, n, 3);

		bytebuf_put_be(&offs, data->n, 8);
		bytebuf_put(data, out, c);
		bytebuf_put_be(data, (uint32_t) crc32(crc32(0L, Z_NULL, 0), out, (uInt) c), 4);
	}
	bytebuf_put_be(info, sizeof(class) - 1, 2);
	bytebuf_put(info, class, sizeof(class) - 1);
	bytebuf_put_be(info, 0, 4);
	bytebuf_put_be(info, CHUNK, 4);
	bytebuf_put_be(info, INT32_MAX, 4);
	bytebuf_put_be(info, DATA_LEN, 8);
	bytebuf_put_be(info, (DATA_LEN + CHUNK - 1) / CHUNK, 4);
	bytebuf_put(info, offs.d, offs.n);
	free(offs.d);
	free(out);
	ZSTD_freeCCtx(cctx);
}

static void *
alloc_fn(void *arg, size_t size)
{
	(void) arg;
	return malloc(size);
}

/* the whole uncompressed Data.db read back; the status */
static bc_status
read_back(const char *version, const wbuf *data, const uint8_t *info, size_t ilen,
		  bc_compression_info *ci)
{
	unit_mem	m;
	bc_reader	r;
	bc_data_reader dr;
	void	   *block = NULL;
	int			in_info = 0;
	uint8_t    *got = malloc(DATA_LEN);
	size_t		n = 0;
	bc_status	st;

	unit_mem_open(&m, &r, data->d, data->n);
	st = bc_data_reader_open(&dr, ci, &r, version, 2, info, ilen, alloc_fn, NULL,
							 &block, &in_info);
	if (st == BC_OK)
	{
		st = bc_data_read(&dr, 0, got, DATA_LEN, &n);
		if (st == BC_OK && (n != DATA_LEN || memcmp(got, plain, DATA_LEN) != 0))
			st = BC_ERR_COMPRESSION_CORRUPT;
	}
	free(block);
	free(got);
	return st;
}

static void
check_crc32c(void)
{
	static const uint8_t v[] = "123456789";

	/* the check value of CRC-32C (iSCSI, RFC 3720) */
	CHECK(bc_crc32c(0, v, 9) == 0xE3069283u, "crc32c check value");
	CHECK(bc_crc32c(bc_crc32c(0, v, 4), v + 4, 5) == 0xE3069283u, "crc32c continued");
}

static void
check_dictionary(void)
{
	wbuf		data = {0},
				info = {0},
				plain_data = {0},
				plain_info = {0},
				t = {0};
	bc_compression_info ci;
	bc_compression_dict d;
	size_t		i,
				head;
	uint8_t    *copy;
	uint64_t	lcg = 42;
	bc_status	st;

	/* random dictionary bytes, the data 50-byte pieces of it picked at
	 * random: a chunk's first copy of a piece is found only in the
	 * dictionary */
	for (i = 0; i < DICT_LEN; i++)
	{
		lcg = lcg * 6364136223846793005u + 1442695040888963407u;
		dict[i] = (uint8_t) (lcg >> 56);
	}
	for (i = 0; i < DATA_LEN; i += 50)
	{
		lcg = lcg * 6364136223846793005u + 1442695040888963407u;
		memcpy(plain + i, dict + (lcg >> 33) % (DICT_LEN - 50),
			   DATA_LEN - i < 50 ? DATA_LEN - i : 50);
	}

	write_sstable(1, &data, &info);
	head = info.n;
	put_trailer(&info, 0, DICT_ID, 1);

	/* read whole, under a big and a trie version */
	st = read_back("pa", &data, info.d, info.n, &ci);
	CHECK(st == BC_OK && ci.compressor == BC_COMPRESSOR_ZSTD_DICTS &&
		  ci.dictionary_len == DICT_LEN && ci.dictionary_id == DICT_ID,
		  "pa with a dictionary: %s", bc_status_message(st));
	st = read_back("ea", &data, info.d, info.n, &ci);
	CHECK(st == BC_OK, "ea with a dictionary: %s", bc_status_message(st));
	st = bc_compression_dict_parse(info.d, info.n, head, &d);
	CHECK(st == BC_OK && d.present && d.kind == 0 && d.id == DICT_ID && d.len == DICT_LEN &&
		  memcmp(d.bytes, dict, DICT_LEN) == 0, "dictionary parsed");

	/* no dictionary: end of file at the kind byte */
	st = bc_compression_dict_parse(info.d, head, head, &d);
	CHECK(st == BC_OK && !d.present, "no dictionary at end of file");
	write_sstable(0, &plain_data, &plain_info);
	st = read_back("pb", &plain_data, plain_info.d, plain_info.n, &ci);
	CHECK(st == BC_OK && ci.compressor == BC_COMPRESSOR_ZSTD && ci.dictionary_len == 0 &&
		  ci.dictionary == NULL, "pb without a dictionary: %s", bc_status_message(st));
	/* chunks that need the dictionary, without it */
	st = read_back("pa", &data, info.d, head, &ci);
	CHECK(st == BC_ERR_COMPRESSION_CORRUPT, "dictionary chunks without it: %s",
		  bc_status_message(st));

	/* every truncation inside the dictionary is EOFException */
	for (i = head + 1; i < info.n; i++)
	{
		copy = malloc(i);
		memcpy(copy, info.d, i);
		st = bc_compression_parse("eb", 2, copy, i, data.n, &ci);
		if (st != BC_ERR_COMPRESSION_TRUNCATED)
			break;
		free(copy);
		copy = NULL;
	}
	CHECK(i == info.n, "truncated at %zu: %s", i, bc_status_message(st));
	free(copy);

	/* kinds 1 and -1 (a signed readByte) */
	copy = malloc(info.n + 3);
	memcpy(copy, info.d, info.n);
	copy[head] = 1;
	CHECK(bc_compression_parse("pa", 2, copy, info.n, data.n, &ci) == BC_ERR_COMPRESSION_DICT_KIND,
		  "kind 1");
	copy[head] = 0xff;
	CHECK(bc_compression_parse("pa", 2, copy, info.n, data.n, &ci) == BC_ERR_COMPRESSION_DICT_KIND,
		  "kind -1");
	CHECK(bc_compression_parse("pa", 2, copy, head + 1, data.n, &ci) == BC_ERR_COMPRESSION_DICT_KIND,
		  "kind -1 alone");
	copy[head] = 0;

	/* a byte of the checksum, of the id, of the dictionary */
	copy[info.n - 1] ^= 1;
	CHECK(bc_compression_parse("pa", 2, copy, info.n, data.n, &ci) == BC_ERR_COMPRESSION_DICT_CHECKSUM,
		  "checksum flipped");
	copy[info.n - 1] ^= 1;
	copy[head + 8] ^= 1;
	CHECK(bc_compression_parse("pa", 2, copy, info.n, data.n, &ci) == BC_ERR_COMPRESSION_DICT_CHECKSUM,
		  "id flipped");
	copy[head + 8] ^= 1;
	copy[head + 13 + 100] ^= 1;
	CHECK(bc_compression_parse("pa", 2, copy, info.n, data.n, &ci) == BC_ERR_COMPRESSION_DICT_CHECKSUM,
		  "dictionary flipped");
	copy[head + 13 + 100] ^= 1;

	/* bytes after the checksum: not read */
	memset(copy + info.n, 0xee, 3);
	CHECK(bc_compression_parse("pa", 2, copy, info.n + 3, data.n, &ci) == BC_OK &&
		  ci.dictionary_len == DICT_LEN, "bytes after the checksum");

	/* a negative length */
	bc_put_be32(copy + head + 9, 0x80000000u);
	CHECK(bc_compression_parse("pa", 2, copy, info.n, data.n, &ci) == BC_ERR_COMPRESSION_DICTIONARY,
		  "negative length");
	free(copy);

	/* the id's big-endian bytes in the checksum: not Guava's */
	bytebuf_put(&t, info.d, head);
	put_trailer(&t, 0, DICT_ID, 0);
	CHECK(bc_compression_parse("pa", 2, t.d, t.n, data.n, &ci) == BC_ERR_COMPRESSION_DICT_CHECKSUM,
		  "checksum over a big-endian id");

	/* 5.0 and before: the dictionary is not read, the class not known */
	CHECK(bc_compression_parse("oa", 2, info.d, info.n, data.n, &ci) == BC_ERR_COMPRESSION_UNSUPPORTED,
		  "oa: ZstdDictionaryCompressor unknown");
	memcpy(info.d + 2, "ZstdCompressor\0\0\0\0\0\0\0\0\0\0", 24);
	info.d[0] = 0;
	info.d[1] = 14;
	memmove(info.d + 16, info.d + 26, info.n - 26);
	CHECK(bc_compression_parse("oa", 2, info.d, info.n - 10, data.n, &ci) == BC_OK &&
		  ci.dictionary == NULL && ci.compressor == BC_COMPRESSOR_ZSTD,
		  "oa: bytes after the offsets ignored");
	CHECK(bc_compression_parse("pa", 2, info.d, info.n - 10, data.n, &ci) == BC_OK &&
		  ci.dictionary != NULL && ci.compressor == BC_COMPRESSOR_ZSTD_DICTS,
		  "pa: ZstdCompressor with a dictionary reads with it");

	CHECK(strstr(bc_status_message(BC_ERR_COMPRESSION_DICT_KIND), "CompressionInfo.db") != NULL &&
		  strstr(bc_status_message(BC_ERR_COMPRESSION_DICT_CHECKSUM), "CompressionInfo.db") != NULL,
		  "messages name CompressionInfo.db");

	free(t.d);
	free(data.d);
	free(info.d);
	free(plain_data.d);
	free(plain_info.d);
}

/*
 * Two zstd-format dictionaries of the same content, ids 1 and 2
 * (ZDICT_finalizeDictionary, samples of 1,000 bytes of the data): a chunk
 * compressed with id 2 decodes with id 2, and with id 1 is a mismatch.
 * Runs after check_dictionary (plain and dict filled).
 */
static void
check_mismatch(void)
{
	static const char class[] = "ZstdDictionaryCompressor";
	size_t		sizes[DATA_LEN / 1000],
				len[2],
				cap = ZSTD_compressBound(CHUNK),
				c,
				i;
	uint8_t    *zd[2],
			   *stored = malloc(cap + 4),
			   *out = malloc(CHUNK);
	ZSTD_CCtx  *cctx = ZSTD_createCCtx();
	wbuf		info = {0};
	bc_compression_info ci;
	ZDICT_params_t zp;
	uint32_t	sum;

	for (i = 0; i < DATA_LEN / 1000; i++)
		sizes[i] = 1000;
	for (i = 0; i < 2; i++)
	{
		memset(&zp, 0, sizeof(zp));
		zp.dictID = (unsigned) i + 1;
		zd[i] = malloc(DICT_LEN + 1024);
		len[i] = ZDICT_finalizeDictionary(zd[i], DICT_LEN + 1024, dict, DICT_LEN, plain,
										  sizes, DATA_LEN / 1000, zp);
		CHECK(!ZDICT_isError(len[i]) && ZSTD_getDictID_fromDict(zd[i], len[i]) == i + 1,
			  "a zstd-format dictionary of id %zu", i + 1);
	}
	if (ZDICT_isError(len[0]) || ZDICT_isError(len[1]))
		goto out;
	c = ZSTD_compress_usingDict(cctx, stored, cap, plain, CHUNK, zd[1], len[1], 3);
	sum = (uint32_t) crc32(crc32(0L, Z_NULL, 0), stored, (uInt) c);
	for (i = 0; i < 4; i++)
		stored[c + i] = (uint8_t) (sum >> (24 - 8 * i));

	bytebuf_put_be(&info, sizeof(class) - 1, 2);
	bytebuf_put(&info, class, sizeof(class) - 1);
	bytebuf_put_be(&info, 0, 4);
	bytebuf_put_be(&info, CHUNK, 4);
	bytebuf_put_be(&info, INT32_MAX, 4);
	bytebuf_put_be(&info, CHUNK, 8);
	bytebuf_put_be(&info, 1, 4);
	bytebuf_put_be(&info, 0, 8);
	CHECK(bc_compression_parse("ea", 2, info.d, info.n, c + 4, &ci) == BC_OK,
		  "one chunk, no dictionary stored");
	ci.compressor = BC_COMPRESSOR_ZSTD_DICTS;
	CHECK(bc_compression_decode(&ci, 0, stored, c, zd[1], len[1], out, CHUNK) == BC_OK &&
		  memcmp(out, plain, CHUNK) == 0, "the chunk decodes with its own dictionary");
	CHECK(bc_compression_decode(&ci, 0, stored, c, zd[0], len[0], out, CHUNK) ==
		  BC_ERR_COMPRESSION_DICT_MISMATCH, "another dictionary's id: a mismatch");
	CHECK(strstr(bc_status_message(BC_ERR_COMPRESSION_DICT_MISMATCH), "Data.db") != NULL &&
		  strstr(bc_status_message(BC_ERR_COMPRESSION_DICT_MISMATCH), "CompressionInfo.db") != NULL,
		  "the mismatch's message names both files");
out:
	free(zd[0]);
	free(zd[1]);
	free(stored);
	free(out);
	free(info.d);
	ZSTD_freeCCtx(cctx);
}

void
suite_compression_dict(void)
{
	check_crc32c();
	check_dictionary();
	check_mismatch();
}
