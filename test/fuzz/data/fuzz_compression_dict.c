/*
 * fuzz_compression_dict.c - Cassandra 6.0's compression dictionary after
 * the chunk offsets of CompressionInfo.db (bc_compression_dict.c) and the
 * Data.db chunks compressed with it, the input read as
 * <s> <BE16 length> <CompressionInfo.db> <Data.db>: s & 3 picks pa, ea,
 * pb or eb, (s >> 2) & 3 the chunk length of the copy made below, s & 16
 * its max compressed length (the chunk length: chunks that do not shrink
 * are stored as they are).
 *
 *   - bc_compression_parse under the 6.0 version against a model: the
 *     header and offsets read as under oa / da (the same layout, which
 *     ignores what follows the offsets), then the trailer as
 *     CompressionDictionary.deserialize reads it (end of file: none; kind
 *     not 0; EOF in id, length, bytes or checksum; a negative length; the
 *     CRC32C of kind, id little-endian and bytes, computed here with a
 *     table, against the stored one), then the class (ZstdDictionaryCompressor
 *     known only here); on success every field as under oa / da, and with
 *     a dictionary the compressor ZSTD_DICTS, the dictionary inside the
 *     file where the trailer has it; bc_compression_dict_parse alike;
 *   - the Data.db given read whole through bc_data_reader_open and
 *     bc_data_read (chunks up to 64 kB): statuses in range, a short read
 *     only at the data length;
 *   - a copy made here: the input's bytes as dictionary (the trailer's
 *     when it has one) and as data, each chunk ZSTD_compress_usingDict
 *     (fuzz_write.c), CompressionInfo.db as trunk's writer writes it with
 *     the trailer: read back exactly; and when the dictionary is one of
 *     zstd's format with an id, the same copy with that id changed in the
 *     stored dictionary (checksum over it) is
 *     BC_ERR_COMPRESSION_DICT_MISMATCH at its first compressed chunk,
 *     never other bytes.
 */
#include <string.h>

#include <zstd.h>

#include "bc_compression.h"
#include "bc_compression_dict.h"
#include "bc_data.h"
#include "bc_endian.h"
#include "bc_status.h"
#include "fuzz.h"

/* chunk lengths read through bc_data_reader_open, at most */
#define DICT_MAX_CHUNK ((int32_t) 1 << 16)
/* uncompressed bytes read, at most */
#define DICT_MAX_READ ((uint64_t) 4 << 20)
/* the copy made here: dictionary and data bytes, at most */
#define DICT_MAX_DICT 16384
#define DICT_MAX_PLAIN 32768

static const char *const versions[4] = {"pa", "ea", "pb", "eb"};
static const char zdc[] = "ZstdDictionaryCompressor";
static const char pkg[] = "org.apache.cassandra.io.compress.";

/* CRC32C by a table (the core's is bit by bit) */
static uint32_t
ref_crc32c(uint32_t crc, const uint8_t *p, size_t n)
{
	static uint32_t table[256];
	static int	built;
	size_t		i;

	if (!built)
	{
		uint32_t	b,
					c;

		for (b = 0; b < 256; b++)
		{
			c = b;
			for (i = 0; i < 8; i++)
				c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
			table[b] = c;
		}
		built = 1;
	}
	crc = ~crc;
	for (i = 0; i < n; i++)
		crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
	return ~crc;
}

/* the model of the trailer at pos: its status, and the dictionary */
typedef struct ref_dict
{
	bc_status	st;
	int			present;
	int64_t		id;
	size_t		at;				/* of the dictionary's bytes */
	size_t		len;
} ref_dict;

static uint32_t
trailer_sum(uint8_t kind, int64_t id, const uint8_t *dict, size_t n)
{
	uint8_t		le[8];
	int			b;
	uint32_t	sum = ref_crc32c(0, &kind, 1);

	for (b = 0; b < 8; b++)
		le[b] = (uint8_t) ((uint64_t) id >> (8 * b));
	sum = ref_crc32c(sum, le, 8);
	return ref_crc32c(sum, dict, n);
}

static void
ref_trailer(const uint8_t *d, size_t len, size_t pos, ref_dict *m)
{
	int32_t		n;

	memset(m, 0, sizeof(*m));
	m->st = BC_OK;
	if (pos == len)
		return;
	if (d[pos] != 0)
	{
		m->st = BC_ERR_COMPRESSION_DICT_KIND;
		return;
	}
	if (len - pos - 1 < 12)
	{
		m->st = BC_ERR_COMPRESSION_TRUNCATED;
		return;
	}
	m->id = (int64_t) bc_get_be64(d + pos + 1);
	n = (int32_t) bc_get_be32(d + pos + 9);
	if (n < 0)
	{
		m->st = BC_ERR_COMPRESSION_DICTIONARY;
		return;
	}
	if ((uint64_t) len - pos - 13 < (uint64_t) n + 4)
	{
		m->st = BC_ERR_COMPRESSION_TRUNCATED;
		return;
	}
	m->at = pos + 13;
	m->len = (size_t) n;
	if (trailer_sum(0, m->id, d + m->at, m->len) != bc_get_be32(d + m->at + m->len))
	{
		m->st = BC_ERR_COMPRESSION_DICT_CHECKSUM;
		return;
	}
	m->present = 1;
}

static int
is_zdc(const bc_compression_info *ci)
{
	size_t		zl = sizeof(zdc) - 1,
				pl = sizeof(pkg) - 1;

	return (ci->name_len == zl && memcmp(ci->name, zdc, zl) == 0) ||
		(ci->name_len == pl + zl && memcmp(ci->name, pkg, pl) == 0 &&
		 memcmp(ci->name + pl, zdc, zl) == 0);
}

/*
 * Data.db (db) read whole through its CompressionInfo.db under v: the
 * status of the read (BC_OK with the bytes in *out, malloc'd, when out is
 * given).
 */
static bc_status
read_all(const char *v, const uint8_t *info, size_t ilen, const uint8_t *db, size_t dblen,
		 uint8_t **out)
{
	fuzz_mem	m;
	bc_reader	r = fuzz_mem_open(&m, db, dblen);
	bc_data_reader dr;
	bc_compression_info ci;
	void	   *block = NULL;
	int			in_info = -1;
	uint64_t	off = 0,
				total;
	uint8_t    *buf;
	bc_status	st = bc_data_reader_open(&dr, &ci, &r, v, strlen(v), info, ilen, fuzz_alloc,
										 NULL, &block, &in_info);

	if (out != NULL)
		*out = NULL;
	if (st != BC_OK)
	{
		CHECK(in_info == 1);
		free(block);
		return st;
	}
	/* the whole for the caller, else one piece at a time */
	total = bc_data_length(&dr) < DICT_MAX_READ ? bc_data_length(&dr) : DICT_MAX_READ;
	buf = xmalloc(out != NULL ? (size_t) total : 65536);
	while (off < total)
	{
		size_t		want = total - off < 65536 ? (size_t) (total - off) : 65536,
					got = (size_t) -1;

		st = bc_data_read(&dr, off, out != NULL ? buf + off : buf, want, &got);
		CHECK(got <= want);
		if (st != BC_OK)
		{
			CHECK(st == BC_ERR_COMPRESSION_CHUNK || st == BC_ERR_COMPRESSION_CHECKSUM ||
				  st == BC_ERR_COMPRESSION_CORRUPT || st == BC_ERR_COMPRESSION_DICT_MISMATCH);
			break;
		}
		CHECK(got == want);
		off += got;
	}
	free(block);
	if (st == BC_OK && out != NULL)
		*out = buf;
	else
		free(buf);
	return st;
}

/* the parse of the input's CompressionInfo.db against the model */
static void
check_parse(const char *v, const uint8_t *info, size_t ilen, const uint8_t *db, size_t dblen)
{
	const char *old = v[0] == 'p' ? "oa" : "da";
	bc_compression_info co,
				ci;
	bc_compression_dict d;
	ref_dict	m;
	bc_status	so = bc_compression_parse(old, 2, info, ilen, dblen, &co),
				st = bc_compression_parse(v, 2, info, ilen, dblen, &ci);
	size_t		pos;

	CHECK(bc_status_message(st) != NULL);
	if (so == BC_ERR_COMPRESSION_TRUNCATED || so == BC_ERR_COMPRESSION_FORMAT ||
		so == BC_ERR_COMPRESSION_DATA_LENGTH)
	{
		/* the header and offsets (and the data length against them) are
		 * read before the trailer */
		CHECK(st == so);
		return;
	}
	if (so == BC_ERR_COMPRESSION_DICTIONARY)
	{
		/* ScyllaDB's parts: in the options, or checked after the trailer */
		CHECK(st == BC_ERR_COMPRESSION_DICTIONARY || st == BC_ERR_COMPRESSION_DICT_KIND ||
			  st == BC_ERR_COMPRESSION_DICT_CHECKSUM || st == BC_ERR_COMPRESSION_TRUNCATED);
		return;
	}
	CHECK(so == BC_OK || so == BC_ERR_COMPRESSION_UNSUPPORTED);
	pos = (size_t) (co.offsets - info) + 8 * (size_t) co.chunk_count;
	CHECK(pos <= ilen);
	ref_trailer(info, ilen, pos, &m);

	/* the core's trailer reader, at the offsets' end and at the file's */
	CHECK(bc_compression_dict_parse(info, ilen, pos, &d) == m.st);
	if (m.st == BC_OK)
		CHECK(d.present == m.present && (!m.present ||
										 (d.id == m.id && d.bytes == info + m.at &&
										  d.len == m.len && d.kind == BC_DICT_KIND_ZSTD)));
	CHECK(bc_compression_dict_parse(info, ilen, ilen, &d) == BC_OK && !d.present);

	if (m.st != BC_OK)
		CHECK(st == m.st);
	else if (so == BC_ERR_COMPRESSION_UNSUPPORTED && !is_zdc(&co))
		CHECK(st == BC_ERR_COMPRESSION_UNSUPPORTED);
	else
		CHECK(st == BC_OK);
	if (st != BC_OK)
		return;

	/* as under oa / da, but for the dictionary and the compressor */
	CHECK(ci.chunk_length == co.chunk_length && ci.data_length == co.data_length &&
		  ci.chunk_count == co.chunk_count && ci.offsets == co.offsets &&
		  ci.max_compressed_length == co.max_compressed_length &&
		  ci.checksum == BC_CHUNK_CRC32 && ci.data_file_size == dblen);
	if (m.present)
		CHECK(ci.compressor == BC_COMPRESSOR_ZSTD_DICTS && ci.dictionary == info + m.at &&
			  ci.dictionary_len == m.len && ci.dictionary_id == m.id);
	else
		CHECK(ci.dictionary == NULL &&
			  ci.compressor == (so == BC_OK ? co.compressor : BC_COMPRESSOR_ZSTD) &&
			  ci.dictionary_len == (so == BC_OK ? co.dictionary_len : 0));
	if (ci.chunk_length <= DICT_MAX_CHUNK)
		(void) read_all(v, info, ilen, db, dblen, NULL);
}

/* CompressionInfo.db as trunk's writer writes it, with the trailer */
static void
write_info(bytebuf *b, int32_t chunk, int32_t max_len, uint64_t data_len,
		   const uint8_t *offsets, size_t nchunks, int64_t id, const uint8_t *dict,
		   size_t dict_len)
{
	bytebuf_put_be(b, sizeof(zdc) - 1, 2);
	bytebuf_put(b, zdc, sizeof(zdc) - 1);
	bytebuf_put_be(b, 0, 4);
	bytebuf_put_be(b, (uint64_t) chunk, 4);
	bytebuf_put_be(b, (uint64_t) (uint32_t) max_len, 4);
	bytebuf_put_be(b, data_len, 8);
	bytebuf_put_be(b, nchunks, 4);
	bytebuf_put(b, offsets, 8 * nchunks);
	bytebuf_put_be(b, 0, 1);
	bytebuf_put_be(b, (uint64_t) id, 8);
	bytebuf_put_be(b, dict_len, 4);
	bytebuf_put(b, dict, dict_len);
	bytebuf_put_be(b, trailer_sum(0, id, dict, dict_len), 4);
}

/* a copy made with a dictionary, read back; with its id changed, refused */
static void
check_copy(const char *v, uint8_t s, const uint8_t *dict, size_t dict_len,
		   const uint8_t *plain, size_t n, int64_t id)
{
	int32_t		chunk = (int32_t) 1024 << (2 * ((s >> 2) & 3)),
				max_len = (s & 16) ? chunk : INT32_MAX;
	fuzz_compressed c;
	bc_compression_info sc;
	bytebuf	info = {NULL, 0, 0};
	uint8_t    *got = NULL;
	bc_status	st;

	/* the chunks of ScyllaDB's ZstdWithDictsCompressor are the same
	 * frames: ZSTD_compress_usingDict (its CompressionInfo.db is not) */
	fuzz_compress("da", BC_COMPRESSOR_ZSTD_DICTS, plain, n, chunk, max_len, dict, dict_len, 0,
				  &c);
	if (c.info == NULL)
		return;					/* zstd refused the dictionary */
	CHECK(bc_compression_parse("da", 2, c.info, c.info_len, c.db_len, &sc) == BC_OK);
	write_info(&info, chunk, max_len, n, sc.offsets, c.nchunks, id, dict, dict_len);
	st = read_all(v, info.d, info.n, c.db, c.db_len, &got);
	CHECK(st == BC_OK && (n == 0 || memcmp(got, plain, n) == 0));
	free(got);

	/* the stored dictionary's own id one more: zstd's frames name the
	 * other one (only chunks stored compressed are decoded) */
	if (ZSTD_getDictID_fromDict(dict, dict_len) != 0 && c.raw_chunks < c.nchunks && n > 0)
	{
		uint8_t    *d2 = xmalloc(dict_len);
		uint32_t	did = ZSTD_getDictID_fromDict(dict, dict_len) + 1;
		int			b;

		memcpy(d2, dict, dict_len);
		for (b = 0; b < 4; b++)
			d2[4 + b] = (uint8_t) (did >> (8 * b));
		info.n = 0;
		write_info(&info, chunk, max_len, n, sc.offsets, c.nchunks, id, d2, dict_len);
		st = read_all(v, info.d, info.n, c.db, c.db_len, NULL);
		CHECK(st == BC_ERR_COMPRESSION_DICT_MISMATCH || (did == 0 && st != BC_OK));
		free(d2);
	}
	free(info.d);
	free(c.db);
	free(c.info);
}

void
fuzz_compression_dict(const uint8_t *data, size_t len)
{
	uint8_t		s = len > 0 ? data[0] : 0;
	const char *v = versions[s & 3];
	size_t		ilen = len >= 3 ? ((size_t) data[1] << 8) | data[2] : 0,
				skip = len < 3 ? len : 3,
				dict_len,
				n;
	const uint8_t *info = data + skip,
			   *db,
			   *dict,
			   *plain;
	bc_compression_info ci;
	int64_t		id = 0;

	if (ilen > len - skip)
		ilen = len - skip;
	db = info + ilen;
	check_parse(v, info, ilen, db, len - skip - ilen);

	/* the copy: the trailer's dictionary when there is one, else the
	 * input's first bytes; the data the rest */
	if (bc_compression_parse(v, 2, info, ilen, len - skip - ilen, &ci) == BC_OK &&
		ci.dictionary != NULL && ci.dictionary_len <= DICT_MAX_DICT)
	{
		dict = ci.dictionary;
		dict_len = ci.dictionary_len;
		id = ci.dictionary_id;
		plain = db;
		n = len - skip - ilen;
	}
	else
	{
		dict = data + skip;
		dict_len = (len - skip) / 2 < DICT_MAX_DICT ? (len - skip) / 2 : DICT_MAX_DICT;
		plain = dict + dict_len;
		n = len - skip - dict_len;
		if (dict_len >= 8)
			id = (int64_t) bc_get_be64(dict);
	}
	if (n > DICT_MAX_PLAIN)
		n = DICT_MAX_PLAIN;
	check_copy(v, s, dict, dict_len, plain, n, id);
}
