/*
 * chunk_codec.c - one chunk of Data.db compressed as each compressor bloomcass
 * reads writes it, with the compressors' own libraries (see chunk_codec.h).
 */
#include <string.h>

#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "chunk_codec.h"
#include "tool_io.h"

size_t
chunk_compress(const chunk_codec *p, const uint8_t *src, size_t n, uint8_t *out, size_t cap)
{
	switch (p->compressor)
	{
		case BC_COMPRESSOR_NOOP:
			memcpy(out, src, n);
			return n;
		case BC_COMPRESSOR_LZ4:
		case BC_COMPRESSOR_LZ4_DICTS:
			{
				int			got;

				out[0] = (uint8_t) n;
				out[1] = (uint8_t) (n >> 8);
				out[2] = (uint8_t) (n >> 16);
				out[3] = (uint8_t) (n >> 24);
				if (p->compressor == BC_COMPRESSOR_LZ4_DICTS)
				{
					LZ4_stream_t *s = LZ4_createStream();

					if (s == NULL)
						tool_die("LZ4_createStream failed");
					LZ4_loadDict(s, (const char *) p->dict, (int) p->dict_len);
					got = LZ4_compress_fast_continue(s, (const char *) src, (char *) out + 4,
													 (int) n, (int) (cap - 4), 1);
					LZ4_freeStream(s);
				}
				else
					got = LZ4_compress_default((const char *) src, (char *) out + 4,
											   (int) n, (int) (cap - 4));
				if (got <= 0)
					tool_die("LZ4 compression failed");
				return 4 + (size_t) got;
			}
		case BC_COMPRESSOR_SNAPPY:
			{
				size_t		got = cap;

				if (snappy_compress((const char *) src, n, (char *) out, &got) != SNAPPY_OK)
					tool_die("snappy compression failed");
				return got;
			}
		case BC_COMPRESSOR_DEFLATE:
			{
				uLongf		got = (uLongf) cap;

				if (compress2(out, &got, src, (uLong) n, Z_DEFAULT_COMPRESSION) != Z_OK)
					tool_die("zlib compression failed");
				return (size_t) got;
			}
		case BC_COMPRESSOR_ZSTD:
		case BC_COMPRESSOR_ZSTD_DICTS:
			{
				size_t		got;

				if (p->compressor == BC_COMPRESSOR_ZSTD_DICTS)
				{
					ZSTD_CCtx  *cc = ZSTD_createCCtx();

					if (cc == NULL)
						tool_die("ZSTD_createCCtx failed");
					got = ZSTD_compress_usingDict(cc, out, cap, src, n, p->dict, p->dict_len,
												  CHUNK_ZSTD_LEVEL);
					ZSTD_freeCCtx(cc);
				}
				else
					got = ZSTD_compress(out, cap, src, n, CHUNK_ZSTD_LEVEL);
				if (ZSTD_isError(got))
					tool_die("zstd compression failed: %s", ZSTD_getErrorName(got));
				return got;
			}
	}
	tool_die("unknown compressor");
	return 0;
}

size_t
chunk_compress_bound(const chunk_codec *p, size_t n)
{
	size_t		b = n;

	switch (p->compressor)
	{
		case BC_COMPRESSOR_NOOP:
			break;
		case BC_COMPRESSOR_LZ4:
		case BC_COMPRESSOR_LZ4_DICTS:
			b = 4 + (size_t) LZ4_compressBound((int) n);
			break;
		case BC_COMPRESSOR_SNAPPY:
			b = snappy_max_compressed_length(n);
			break;
		case BC_COMPRESSOR_DEFLATE:
			b = compressBound((uLong) n);
			break;
		case BC_COMPRESSOR_ZSTD:
		case BC_COMPRESSOR_ZSTD_DICTS:
			b = ZSTD_compressBound(n);
			break;
	}
	return b > n ? b : n;
}
