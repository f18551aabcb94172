/*
 * compression_util.c - the writers and readers the tests of compressed
 * Data.db share (compression_util.h).
 */
#include <stdlib.h>
#include <string.h>

#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "bc_compression.h"
#include "bc_data.h"
#include "bc_status.h"
#include "unit.h"
#include "compression_util.h"

uint8_t    *kept[KEEP];
size_t		kept_len[KEEP];

/* a reader over data, in pieces of at most 1000 bytes, as a short read may come */
bc_reader
mem_open(mem_file *m, const uint8_t *data, size_t len)
{
	bc_reader	r;

	unit_mem_open(m, &r, data, len);
	m->piece = 1000;
	return r;
}

long		raw_chunks,
			padded_chunks;

/* ---------------------------------------------------------------------
 * Writing: a growable buffer and CompressionInfo.db as Cassandra writes it
 * --------------------------------------------------------------------- */
void
put_utf(buf *b, const void *s, size_t n)
{
	bytebuf_put_be(b, n, 2);
	bytebuf_put(b, s, n);
}

const char *const cnames[C_COUNT] = {
	"NoopCompressor", "LZ4Compressor", "org.apache.cassandra.io.compress.SnappyCompressor",
	"DeflateCompressor", "ZstdCompressor", "LZ4WithDictsCompressor", "ZstdWithDictsCompressor"
};

/* Compress n bytes of src with codec c into out (room enough); its length. */
size_t
compress_chunk(int c, const uint8_t *src, size_t n, uint8_t *out, size_t cap,
			   const uint8_t *dict, size_t dict_len)
{
	switch (c)
	{
		case C_NOOP:
			memcpy(out, src, n);
			return n;
		case C_LZ4:
		case C_LZ4_DICT:
			{
				int			r;

				out[0] = (uint8_t) n;
				out[1] = (uint8_t) (n >> 8);
				out[2] = (uint8_t) (n >> 16);
				out[3] = (uint8_t) (n >> 24);
				if (c == C_LZ4_DICT)
				{
					LZ4_stream_t *s = LZ4_createStream();

					LZ4_loadDict(s, (const char *) dict, (int) dict_len);
					r = LZ4_compress_fast_continue(s, (const char *) src, (char *) out + 4,
												   (int) n, (int) cap - 4, 1);
					LZ4_freeStream(s);
				}
				else
					r = LZ4_compress_default((const char *) src, (char *) out + 4, (int) n, (int) cap - 4);
				return r > 0 ? (size_t) r + 4 : 0;
			}
		case C_SNAPPY:
			{
				size_t		r = cap;

				return snappy_compress((const char *) src, n, (char *) out, &r) == SNAPPY_OK ? r : 0;
			}
		case C_DEFLATE:
			{
				uLongf		r = (uLongf) cap;

				return compress(out, &r, src, (uLong) n) == Z_OK ? (size_t) r : 0;
			}
		case C_ZSTD:
			{
				size_t		r = ZSTD_compress(out, cap, src, n, 3);

				return ZSTD_isError(r) ? 0 : r;
			}
		case C_ZSTD_DICT:
			{
				ZSTD_CCtx  *cc = ZSTD_createCCtx();
				size_t		r = ZSTD_compress_usingDict(cc, out, cap, src, n, dict, dict_len, 3);

				ZSTD_freeCCtx(cc);
				return ZSTD_isError(r) ? 0 : r;
			}
	}
	return 0;
}

/*
 * data (n bytes) as a compressed Data.db and its CompressionInfo.db, by
 * CompressedSequentialWriter's rules: with_max writes the max compressed
 * length (max_len), and a chunk that does not get below it is stored raw,
 * the last one padded up to it.
 */
void
write_sstable(int c, const uint8_t *data, size_t n, int32_t chunk_len, int with_max,
			  int32_t max_len, int adler, const uint8_t *dict, size_t dict_len,
			  buf *db, buf *ci)
{
	size_t		cap = (size_t) chunk_len * 2 + 1024,
				off,
				nchunks = n == 0 ? 1 : (n + (size_t) chunk_len - 1) / (size_t) chunk_len,
				i;
	uint8_t    *tmp = malloc(cap);
	uint64_t   *offsets = malloc(nchunks * sizeof(uint64_t));

	db->n = ci->n = 0;
	for (i = 0, off = 0; i < nchunks; i++, off += (size_t) chunk_len)
	{
		size_t		len = n - off < (size_t) chunk_len ? n - off : (size_t) chunk_len,
					clen = compress_chunk(c, data + off, len, tmp, cap, dict, dict_len);
		uint32_t	sum;

		CHECK(clen > 0, "compressor %d failed", c);
		if (with_max && clen >= (size_t) max_len)
		{
			/* stored raw, padded with zeros up to max_len when shorter */
			memset(tmp, 0, cap);
			memcpy(tmp, data + off, len);
			clen = len < (size_t) max_len ? (size_t) max_len : len;
			raw_chunks++;
			padded_chunks += len < (size_t) max_len;
		}
		offsets[i] = db->n;
		sum = adler ? (uint32_t) adler32(adler32(0L, Z_NULL, 0), tmp, (uInt) clen)
			: (uint32_t) crc32(crc32(0L, Z_NULL, 0), tmp, (uInt) clen);
		bytebuf_put(db, tmp, clen);
		bytebuf_put_be(db, sum, 4);
	}

	put_utf(ci, cnames[c], strlen(cnames[c]));
	if (dict_len > 0)
	{
		/* ScyllaDB's dict_as_options, in parts of 1000 bytes here */
		size_t		nparts = (dict_len + 999) / 1000,
					p;

		bytebuf_put_be(ci, nparts + 1, 4);
		put_utf(ci, "crc_check_chance", 16);
		put_utf(ci, "1.0", 3);
		for (p = 0; p < nparts; p++)
		{
			char		key[32];
			size_t		pl = dict_len - p * 1000 < 1000 ? dict_len - p * 1000 : 1000;

			snprintf(key, sizeof(key), ".dictionary.%08u", (unsigned) p);
			put_utf(ci, key, strlen(key));
			put_utf(ci, dict + p * 1000, pl);
		}
	}
	else
		bytebuf_put_be(ci, 0, 4);
	bytebuf_put_be(ci, (uint64_t) chunk_len, 4);
	if (with_max)
		bytebuf_put_be(ci, (uint64_t) max_len, 4);
	bytebuf_put_be(ci, n, 8);
	bytebuf_put_be(ci, nchunks, 4);
	for (i = 0; i < nchunks; i++)
		bytebuf_put_be(ci, offsets[i], 8);
	free(tmp);
	free(offsets);
}

/* ---------------------------------------------------------------------
 * Reading the whole uncompressed Data.db
 * --------------------------------------------------------------------- */

/* The uncompressed Data.db (malloc'd) through bc_data_read, or NULL. */
uint8_t *
read_all(const bc_compression_info *ci, const uint8_t *db, size_t db_len,
		 const uint8_t *dict, bc_status *st, size_t *out_len)
{
	mem_file	m;
	bc_reader	r = mem_open(&m, db, db_len);
	bc_data_reader dr;
	size_t		bsize = bc_compression_buffer_size(ci),
				got;
	uint8_t    *chunk = malloc((size_t) ci->chunk_length),
			   *comp = malloc(bsize),
			   *out = malloc((size_t) ci->data_length + 1);

	*out_len = 0;
	*st = bc_data_reader_init(&dr, &r, ci, dict, ci->dictionary_len,
							  chunk, (size_t) ci->chunk_length, comp, bsize);
	if (*st == BC_OK)
		*st = bc_data_read(&dr, 0, out, (size_t) ci->data_length + 1, &got);
	if (*st == BC_OK)
		*out_len = got;
	free(chunk);
	free(comp);
	if (*st != BC_OK)
	{
		free(out);
		return NULL;
	}
	return out;
}
