/*
 * fuzz_write.c - compressed Data.db and CompressionInfo.db written as
 * Cassandra's CompressedSequentialWriter and CompressionMetadata.Writer
 * write them (and ScyllaDB its dictionaries), with the compressors' own
 * libraries: for the stages that read them back (fuzz_data.c,
 * fuzz_trie_keys.c).
 */
#include <string.h>

#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "bc_compression.h"
#include "fuzz.h"

static const char *const compressor_names[] = {
	"NoopCompressor", "LZ4Compressor", "org.apache.cassandra.io.compress.SnappyCompressor",
	"DeflateCompressor", "ZstdCompressor", "LZ4WithDictsCompressor", "ZstdWithDictsCompressor"
};

/* CompressionInfo.db has the max compressed length: na and later, da, bb */
int
fuzz_has_max_length(const char *v)
{
	return v[0] == 'n' || v[0] == 'o' || strcmp(v, "da") == 0 || strcmp(v, "bb") == 0;
}

/* the chunks' checksum is Adler32 from jb to lb */
int
fuzz_is_adler(const char *v)
{
	return strcmp(v, "jb") >= 0 && strcmp(v, "lb") <= 0;
}

uint32_t
fuzz_chunk_checksum(const char *version, const uint8_t *p, size_t n)
{
	if (fuzz_is_adler(version))
		return (uint32_t) adler32(adler32(0L, Z_NULL, 0), p, (uInt) n);
	return (uint32_t) crc32(crc32(0L, Z_NULL, 0), p, (uInt) n);
}

static void
put_utf(bytebuf *b, const void *s, size_t n)
{
	bytebuf_put_be(b, n, 2);
	bytebuf_put(b, s, n);
}

/* CompressionInfo.db: the header, then the offsets (BE64 each) */
void
fuzz_write_info(bytebuf *ci, const char *version, bc_compressor c, const uint8_t *dict,
				size_t dict_len, int reversed, int32_t chunk_len, int32_t max_len,
				uint64_t data_len, const uint64_t *offsets, size_t nchunks)
{
	size_t		i;

	put_utf(ci, compressor_names[c], strlen(compressor_names[c]));
	if (dict_len > 0 && (c == BC_COMPRESSOR_LZ4_DICTS || c == BC_COMPRESSOR_ZSTD_DICTS))
	{
		/* ScyllaDB's dict_as_options: parts of a size taken from the
		 * dictionary's length, and another option; reversed, the parts
		 * last first and the other option after them */
		size_t		part = 1 + dict_len % 700,
					nparts = (dict_len + part - 1) / part;

		bytebuf_put_be(ci, nparts + 1, 4);
		if (!reversed)
		{
			put_utf(ci, "crc_check_chance", 16);
			put_utf(ci, "1.0", 3);
		}
		for (i = 0; i < nparts; i++)
		{
			char		key[32];
			size_t		p = reversed ? nparts - 1 - i : i,
						pl = dict_len - p * part < part ? dict_len - p * part : part;

			snprintf(key, sizeof(key), ".dictionary.%08u", (unsigned) p);
			put_utf(ci, key, strlen(key));
			put_utf(ci, dict + p * part, pl);
		}
		if (reversed)
		{
			put_utf(ci, "crc_check_chance", 16);
			put_utf(ci, "1.0", 3);
		}
	}
	else
		bytebuf_put_be(ci, 0, 4);
	bytebuf_put_be(ci, (uint64_t) chunk_len, 4);
	if (fuzz_has_max_length(version))
		bytebuf_put_be(ci, (uint64_t) (uint32_t) max_len, 4);
	bytebuf_put_be(ci, data_len, 8);
	bytebuf_put_be(ci, nchunks, 4);
	for (i = 0; i < nchunks; i++)
		bytebuf_put_be(ci, offsets[i], 8);
}

/* n bytes of src compressed by c's library into out (cap bytes), *olen
 * of them: 0, or -1 when the library refuses (a zstd dictionary it cannot
 * load) */
static int
compress_chunk(bc_compressor c, const uint8_t *src, size_t n, uint8_t *out, size_t cap,
			   const uint8_t *dict, size_t dict_len, size_t *olen)
{
	static ZSTD_CCtx *cctx;

	switch (c)
	{
		case BC_COMPRESSOR_NOOP:
			memcpy(out, src, n);
			*olen = n;
			return 0;
		case BC_COMPRESSOR_LZ4:
		case BC_COMPRESSOR_LZ4_DICTS:
			{
				int			r;

				/* LZ4Compressor: the length, little-endian, then a block */
				out[0] = (uint8_t) n;
				out[1] = (uint8_t) (n >> 8);
				out[2] = (uint8_t) (n >> 16);
				out[3] = (uint8_t) (n >> 24);
				if (c == BC_COMPRESSOR_LZ4_DICTS && dict_len > 0)
				{
					LZ4_stream_t *s = LZ4_createStream();

					CHECK(s != NULL);
					LZ4_loadDict(s, (const char *) dict, (int) dict_len);
					r = LZ4_compress_fast_continue(s, (const char *) src, (char *) out + 4,
												   (int) n, (int) cap - 4, 1);
					LZ4_freeStream(s);
				}
				else
					r = LZ4_compress_default((const char *) src, (char *) out + 4, (int) n,
											 (int) cap - 4);
				CHECK(r > 0);
				*olen = (size_t) r + 4;
				return 0;
			}
		case BC_COMPRESSOR_SNAPPY:
			*olen = cap;
			CHECK(snappy_compress((const char *) src, n, (char *) out, olen) == SNAPPY_OK);
			return 0;
		case BC_COMPRESSOR_DEFLATE:
			{
				uLongf		r = (uLongf) cap;

				CHECK(compress2(out, &r, src, (uLong) n, 1) == Z_OK);
				*olen = (size_t) r;
				return 0;
			}
		case BC_COMPRESSOR_ZSTD:
		case BC_COMPRESSOR_ZSTD_DICTS:
			if (cctx == NULL)
				cctx = ZSTD_createCCtx();
			CHECK(cctx != NULL);
			if (c == BC_COMPRESSOR_ZSTD_DICTS && dict_len > 0)
			{
				*olen = ZSTD_compress_usingDict(cctx, out, cap, src, n, dict, dict_len, 1);
				return ZSTD_isError(*olen) ? -1 : 0;
			}
			*olen = ZSTD_compressCCtx(cctx, out, cap, src, n, 1);
			CHECK(!ZSTD_isError(*olen));
			return 0;
	}
	CHECK(0);
	return -1;
}

void
fuzz_compress(const char *version, bc_compressor c, const uint8_t *plain, size_t n,
			  int32_t chunk_len, int32_t max_len, const uint8_t *dict, size_t dict_len,
			  int reversed, fuzz_compressed *out)
{
	size_t		cl = (size_t) chunk_len,
				cap = cl + cl / 2 + 1024,
				nchunks = n == 0 ? 1 : (n + cl - 1) / cl,
				i;
	uint8_t    *tmp = xmalloc(cap);
	uint64_t   *offsets = xmalloc(nchunks * sizeof(uint64_t));
	bytebuf		db = {NULL, 0, 0},
				ci = {NULL, 0, 0};
	int			with_max = fuzz_has_max_length(version);

	memset(out, 0, sizeof(*out));
	for (i = 0; i < nchunks; i++)
	{
		size_t		off = i * cl,
					len = n - off < cl ? n - off : cl,
					clen = 0;

		if (compress_chunk(c, plain + off, len, tmp, cap, dict, dict_len, &clen) != 0)
		{
			/* the library refused the dictionary: nothing written */
			free(db.d);
			free(tmp);
			free(offsets);
			return;
		}
		/* CompressedSequentialWriter: not below the max compressed length,
		 * the chunk is stored as it is, padded up to it when shorter */
		if (with_max && clen >= (size_t) max_len)
		{
			memset(tmp, 0, cap);
			memcpy(tmp, plain + off, len);
			clen = len < (size_t) max_len ? (size_t) max_len : len;
			out->raw_chunks++;
		}
		offsets[i] = db.n;
		bytebuf_put(&db, tmp, clen);
		bytebuf_put_be(&db, fuzz_chunk_checksum(version, tmp, clen), 4);
	}
	fuzz_write_info(&ci, version, c, dict, dict_len, reversed, chunk_len, max_len, n, offsets,
					nchunks);
	out->db = db.d != NULL ? db.d : xmalloc(0);
	out->db_len = db.n;
	out->info = ci.d;
	out->info_len = ci.n;
	out->nchunks = nchunks;
	free(tmp);
	free(offsets);
}
