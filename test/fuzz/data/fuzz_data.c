/*
 * fuzz_data.c - Data.db read through its chunks (bc_data.c, and the
 * decoding of bc_compression_chunk.c), with CompressionInfo.db files written
 * here (fuzz_write.c).
 *
 * The input is <version> <chunk length> <max length> <flags> <payload>:
 *
 *   - arbitrary chunks: the payload read as records (BE16 length, bytes),
 *     each a chunk's stored bytes followed by its right checksum (CRC32, or
 *     Adler32 from jb to lb), with a CompressionInfo.db naming each of the
 *     seven compressors in turn (ScyllaDB's with a dictionary from the
 *     payload), the chunk length, max compressed length and data length
 *     taken from the input (a data length past the chunks refused at
 *     parse); flags may spoil one checksum.  Every chunk read
 *     through bc_data_read has the status and bytes of a model that calls
 *     the compressors' libraries directly (raw chunks from the max
 *     compressed length on, LZ4's length header, exact lengths);
 *   - valid chunks: the payload compressed by each compressor's library
 *     (fuzz_compress) with raw and padded chunks where the max compressed
 *     length asks for them: reading back gives the payload exactly,
 *     whole, in ranges taken from the input and through
 *     bc_data_reader_open;
 *   - the payload as an uncompressed Data.db: read as it is.
 */
#include <string.h>

#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "bc_compression.h"
#include "bc_data.h"
#include "bc_endian.h"
#include "bc_status.h"
#include "fuzz.h"

/* records read as chunks, at most; chunks of valid data, at most (each
 * costs a compressor's state, zlib's some 256 kB); their bytes, at most */
#define DATA_MAX_CHUNKS 16
#define DATA_MAX_PLAIN 16384

/* the versions of the input's first byte: every layout and checksum */
static const char *const data_versions[] = {
	"ic", "ja", "jb", "ka", "lb", "ma", "me", "ms", "mt", "na", "nb", "oa", "da", "bb"
};

#define NDATA_VERSIONS ((int) (sizeof(data_versions) / sizeof(data_versions[0])))

/*
 * The model of one chunk: the status bc_data_read must give for it, and
 * its bytes in out (want of them) when that is BC_OK.
 */
static bc_status
model_chunk(const bc_compression_info *ci, bc_compressor c, const uint8_t *stored,
			size_t slen, int spoilt, const uint8_t *dict, size_t dict_len,
			size_t want, uint8_t *out)
{
	if (slen == 0 || slen + BC_CHUNK_CHECKSUM > bc_compression_buffer_size(ci))
		return BC_ERR_COMPRESSION_CHUNK;
	if (spoilt)
		return BC_ERR_COMPRESSION_CHECKSUM;
	/* stored as it is: not shorter than the max compressed length (an int
	 * compared with an int, as CompressedChunkReader does) */
	if ((int64_t) slen >= (int64_t) ci->max_compressed_length)
	{
		if (slen < want || slen > (size_t) ci->chunk_length)
			return BC_ERR_COMPRESSION_CORRUPT;
		memcpy(out, stored, want);
		return BC_OK;
	}
	switch (c)
	{
		case BC_COMPRESSOR_NOOP:
			if (slen != want)
				return BC_ERR_COMPRESSION_CORRUPT;
			memcpy(out, stored, want);
			return BC_OK;
		case BC_COMPRESSOR_LZ4:
		case BC_COMPRESSOR_LZ4_DICTS:
			{
				int			r;

				if (slen < 4 || bc_get_le32(stored) != want)
					return BC_ERR_COMPRESSION_CORRUPT;
				if (c == BC_COMPRESSOR_LZ4_DICTS)
					r = LZ4_decompress_safe_usingDict((const char *) stored + 4, (char *) out,
													  (int) slen - 4, (int) want,
													  (const char *) dict, (int) dict_len);
				else
					r = LZ4_decompress_safe((const char *) stored + 4, (char *) out,
											(int) slen - 4, (int) want);
				return r >= 0 && (size_t) r == want ? BC_OK : BC_ERR_COMPRESSION_CORRUPT;
			}
		case BC_COMPRESSOR_SNAPPY:
			{
				size_t		n = 0;

				if (snappy_uncompressed_length((const char *) stored, slen, &n) != SNAPPY_OK ||
					n != want ||
					snappy_uncompress((const char *) stored, slen, (char *) out, &n) != SNAPPY_OK ||
					n != want)
					return BC_ERR_COMPRESSION_CORRUPT;
				return BC_OK;
			}
		case BC_COMPRESSOR_DEFLATE:
			{
				uLongf		n = (uLongf) want;

				return uncompress(out, &n, stored, (uLong) slen) == Z_OK && n == want ?
					BC_OK : BC_ERR_COMPRESSION_CORRUPT;
			}
		case BC_COMPRESSOR_ZSTD:
		case BC_COMPRESSOR_ZSTD_DICTS:
			{
				static ZSTD_DCtx *d;
				size_t		n;

				if (d == NULL)
					d = ZSTD_createDCtx();
				CHECK(d != NULL);
				if (c == BC_COMPRESSOR_ZSTD_DICTS && dict_len > 0)
					n = ZSTD_decompress_usingDict(d, out, want, stored, slen, dict, dict_len);
				else
					n = ZSTD_decompressDCtx(d, out, want, stored, slen);
				return !ZSTD_isError(n) && n == want ? BC_OK : BC_ERR_COMPRESSION_CORRUPT;
			}
	}
	CHECK(0);
	return BC_OK;
}

/* the reference of bc_compression_chunk_data_len */
static size_t
ref_chunk_len(int64_t chunk_len, int64_t data_len, size_t i)
{
	uint64_t	start = (uint64_t) i * (uint64_t) chunk_len;

	if (start >= (uint64_t) data_len)
		return 0;
	return (uint64_t) data_len - start < (uint64_t) chunk_len ?
		(size_t) ((uint64_t) data_len - start) : (size_t) chunk_len;
}

/* a reader over Data.db, its buffers exact-size heap blocks */
typedef struct data_file
{
	fuzz_mem	m;
	bc_reader	r;
	bc_data_reader dr;
	uint8_t    *chunk,
			   *comp;
} data_file;

static bc_status
data_open(data_file *f, const bc_compression_info *ci, const uint8_t *db, size_t db_len,
		  const uint8_t *dict, size_t dict_len)
{
	size_t		bs = bc_compression_buffer_size(ci);

	f->r = fuzz_mem_open(&f->m, db, db_len);
	CHECK(bs == 0 || (bs >= (size_t) ci->chunk_length + BC_CHUNK_CHECKSUM &&
					  bs <= (size_t) INT32_MAX + BC_CHUNK_CHECKSUM));
	f->chunk = xmalloc((size_t) ci->chunk_length);
	f->comp = xmalloc(bs);
	return bc_data_reader_init(&f->dr, &f->r, ci, dict, dict_len, f->chunk,
							   (size_t) ci->chunk_length, f->comp, bs);
}

static void
data_close(data_file *f)
{
	free(f->chunk);
	free(f->comp);
}

/*
 * Records of the payload as chunks with the right checksums (flags: spoil
 * one), for compressor c; each chunk read has the model's status and bytes.
 */
static void
arbitrary_chunks(const char *version, bc_compressor c, const uint8_t *hdr,
				 const uint8_t *payload, size_t plen)
{
	const uint8_t *stored[DATA_MAX_CHUNKS];
	size_t		slen[DATA_MAX_CHUNKS],
				n = 0,
				pos = 0,
				i,
				total = 0;
	uint64_t	offsets[DATA_MAX_CHUNKS];
	int32_t		chunk_len = (int32_t) 1 << (4 + hdr[1] % 13),
				max_len;
	uint64_t	data_len;
	int			spoil = -1;
	const uint8_t *dict = payload;
	size_t		dict_len = plen < (size_t) (hdr[3] & 0x3f) * 16 ? plen : (size_t) (hdr[3] & 0x3f) * 16;
	bytebuf		db = {NULL, 0, 0},
				info = {NULL, 0, 0};
	bc_compression_info ci;
	data_file	f;
	bc_status	st;
	uint8_t    *ref = xmalloc((size_t) chunk_len),
			   *got = xmalloc((size_t) chunk_len);

	while (n < DATA_MAX_CHUNKS && plen - pos >= 2)
	{
		size_t		l = ((size_t) payload[pos] << 8) | payload[pos + 1];

		pos += 2;
		if (l > plen - pos)
			l = plen - pos;
		stored[n] = payload + pos;
		slen[n++] = l;
		pos += l;
	}
	if (n == 0)
		goto out;
	if (hdr[3] & 0x80)
		spoil = (int) (hdr[3] % n);
	switch (hdr[2] & 3)
	{
		case 0:
			max_len = INT32_MAX;
			break;
		case 1:
			max_len = chunk_len;
			break;
		case 2:
			max_len = 1 + (int32_t) ((hdr[2] * 7u) % (uint32_t) chunk_len);
			break;
		default:
			max_len = (int32_t) ((uint32_t) hdr[2] << 24 | (uint32_t) hdr[1] << 8 | hdr[3]);
			break;
	}
	/* the data length ends in the last chunk, or (flags) past them, which
	 * bc_compression_parse refuses */
	data_len = (uint64_t) (n - 1) * (uint64_t) chunk_len + 1 +
		(uint64_t) (hdr[2] * 977u) % (uint64_t) chunk_len;
	if (hdr[3] & 0x40)
		data_len += (uint64_t) chunk_len * (1 + hdr[3] % 3);

	for (i = 0; i < n; i++)
	{
		uint32_t	sum = fuzz_chunk_checksum(version, stored[i], slen[i]);

		offsets[i] = db.n;
		bytebuf_put(&db, stored[i], slen[i]);
		bytebuf_put_be(&db, (int) i == spoil ? sum ^ 1 : sum, 4);
	}
	fuzz_write_info(&info, version, c, dict, dict_len, hdr[3] & 1, chunk_len, max_len, data_len,
					offsets, n);
	st = bc_compression_parse(version, 2, info.d, info.n, db.n, &ci);
	/* a data length past what the chunks hold: refused, naming
	 * CompressionInfo.db (CompressionMetadata.chunkFor's bound), so that no
	 * size or position is ever past them */
	if (hdr[3] & 0x40)
	{
		CHECK(st == BC_ERR_COMPRESSION_DATA_LENGTH);
		goto out;
	}
	CHECK(st == BC_OK);
	CHECK(ci.compressor == c && ci.chunk_length == chunk_len && ci.chunk_count == (int32_t) n &&
		  ci.data_length == (int64_t) data_len && ci.data_file_size == db.n &&
		  ci.max_compressed_length == (fuzz_has_max_length(version) ? max_len : INT32_MAX) &&
		  ci.checksum == (fuzz_is_adler(version) ? BC_CHUNK_ADLER32 : BC_CHUNK_CRC32));
	if (c == BC_COMPRESSOR_LZ4_DICTS || c == BC_COMPRESSOR_ZSTD_DICTS)
		CHECK(ci.dictionary_len == dict_len);
	else
		dict_len = 0;

	st = data_open(&f, &ci, db.n > 0 ? db.d : payload, db.n, dict, dict_len);
	CHECK(st == (bc_compression_buffer_size(&ci) == 0 ? BC_ERR_BUFFER : BC_OK));
	if (st == BC_OK)
	{
		bc_status	first_bad = BC_OK;
		size_t		whole_got = 0;
		uint8_t    *whole;

		CHECK(bc_data_length(&f.dr) == data_len);
		/* each chunk on its own (the cache cleared by reading another) */
		for (i = 0; i < n + 3; i++)
		{
			size_t		want = ref_chunk_len(chunk_len, (int64_t) data_len, i),
						g = (size_t) -1;
			bc_status	ms,
						cs;

			if (want == 0)
				break;
			ms = i < n ? model_chunk(&ci, c, stored[i], slen[i], (int) i == spoil, dict,
									 dict_len, want, ref) : BC_ERR_COMPRESSION_CHUNK;
			cs = bc_data_read(&f.dr, (uint64_t) i * (uint64_t) chunk_len, got, want, &g);
			CHECK(cs == ms);
			CHECK(bc_compression_chunk_data_len(&ci, (int64_t) i) == want);
			if (cs == BC_OK)
				CHECK(g == want && memcmp(got, ref, want) == 0);
			else if (first_bad == BC_OK)
				first_bad = cs;
			if (cs == BC_OK)
				total += want;
		}
		/* the whole (capped): the first chunk's failure, or every byte */
		whole = xmalloc((size_t) data_len < 4 * 65536 ? (size_t) data_len : 4 * 65536);
		st = bc_data_read(&f.dr, 0, whole,
						  (size_t) data_len < 4 * 65536 ? (size_t) data_len : 4 * 65536,
						  &whole_got);
		if (data_len <= 4 * 65536)
			CHECK(st == first_bad && (st != BC_OK || (whole_got == data_len &&
													  total == data_len)));
		free(whole);
		/* at or past the end: nothing */
		CHECK(bc_data_read(&f.dr, data_len, got, 1, &whole_got) == BC_OK && whole_got == 0);
	}
	data_close(&f);
out:
	free(db.d);
	free(info.d);
	free(ref);
	free(got);
}

/*
 * The payload compressed by c (valid chunks, raw ones where the max
 * compressed length asks) and read back: the payload exactly.
 */
static void
valid_chunks(const char *version, bc_compressor c, const uint8_t *hdr,
			 const uint8_t *plain, size_t n)
{
	int32_t		chunk_len = (int32_t) 1 << (4 + hdr[1] % 11);
	int32_t		max_len = INT32_MAX;
	const uint8_t *dict = plain + n / 2;
	size_t		dict_len = (c == BC_COMPRESSOR_LZ4_DICTS || c == BC_COMPRESSOR_ZSTD_DICTS) ?
		n - n / 2 : 0;
	fuzz_compressed z;
	bc_compression_info ci;
	data_file	f;
	uint8_t    *back = xmalloc(n + 1);
	size_t		got = 0;
	int			k;

	if (fuzz_has_max_length(version) && (hdr[2] & 4))
		max_len = 1 + (int32_t) ((hdr[2] * 131u) % (uint32_t) chunk_len);
	fuzz_compress(version, c, plain, n, chunk_len, max_len, dict, dict_len, hdr[2] & 8, &z);
	if (z.info == NULL)
	{
		/* a dictionary zstd cannot load: it begins like a zstd one */
		CHECK(c == BC_COMPRESSOR_ZSTD_DICTS && dict_len >= 4 &&
			  bc_get_le32(dict) == 0xEC30A437);
		free(back);
		return;
	}
	CHECK(bc_compression_parse(version, 2, z.info, z.info_len, z.db_len, &ci) == BC_OK);
	CHECK(ci.dictionary_len == dict_len && (size_t) ci.data_length == n &&
		  ci.chunk_count == (int32_t) z.nchunks);
	CHECK(data_open(&f, &ci, z.db, z.db_len, dict, dict_len) == BC_OK);
	CHECK(bc_data_read(&f.dr, 0, back, n + 1, &got) == BC_OK && got == n &&
		  memcmp(back, plain, n) == 0);
	/* ranges taken from the input */
	for (k = 0; k < 3 && n > 0; k++)
	{
		size_t		off = ((size_t) hdr[k] * 257 + (size_t) k * 4099) % n,
					len = (size_t) hdr[(k + 1) % 4] * 61 % (n + 1);
		size_t		expect = len < n - off ? len : n - off;

		CHECK(bc_data_read(&f.dr, off, back, len, &got) == BC_OK && got == expect &&
			  memcmp(back, plain + off, expect) == 0);
	}
	data_close(&f);

	/* the same through bc_data_reader_open, which allocates the buffers */
	{
		fuzz_mem	m;
		bc_reader	r = fuzz_mem_open(&m, z.db, z.db_len);
		bc_data_reader dr;
		bc_compression_info ci2;
		void	   *block = NULL;
		int			in_info = -1;

		CHECK(bc_data_reader_open(&dr, &ci2, &r, version, 2, z.info, z.info_len,
								  fuzz_alloc, NULL, &block, &in_info) == BC_OK &&
			  in_info == 0 && block != NULL);
		CHECK(bc_data_read(&dr, 0, back, n, &got) == BC_OK && got == n &&
			  memcmp(back, plain, n) == 0);
		free(block);
	}
	free(back);
	free(z.db);
	free(z.info);
}

void
fuzz_data(const uint8_t *data, size_t len)
{
	const uint8_t *hdr = data,
			   *payload = data + 4;
	size_t		plen = len - 4;
	const char *version;
	int			c;

	if (len < 4)
		return;
	version = data_versions[hdr[0] % NDATA_VERSIONS];

	for (c = 0; c < FUZZ_NCOMPRESSORS; c++)
		arbitrary_chunks(version, (bc_compressor) c, hdr, payload, plen);
	for (c = 0; c < FUZZ_NCOMPRESSORS; c++)
	{
		size_t		n = (size_t) DATA_MAX_CHUNKS << (4 + hdr[1] % 11);

		if (n > DATA_MAX_PLAIN)
			n = DATA_MAX_PLAIN;
		valid_chunks(version, (bc_compressor) c, hdr, payload, plen < n ? plen : n);
	}

	/* the payload as an uncompressed Data.db */
	{
		fuzz_mem	m;
		bc_reader	r = fuzz_mem_open(&m, payload, plen);
		bc_data_reader dr;
		uint8_t    *back = xmalloc(plen + 1);
		size_t		got = 0,
					off = plen > 0 ? (size_t) hdr[1] * 101 % plen : 0;

		m.piece = hdr[3] % 5;
		CHECK(bc_data_reader_init(&dr, &r, NULL, NULL, 0, NULL, 0, NULL, 0) == BC_OK);
		CHECK(bc_data_length(&dr) == plen);
		CHECK(bc_data_read(&dr, 0, back, plen + 1, &got) == BC_OK && got == plen &&
			  memcmp(back, payload, plen) == 0);
		CHECK(bc_data_read(&dr, off, back, plen, &got) == BC_OK && got == plen - off &&
			  memcmp(back, payload + off, got) == 0);
		CHECK(bc_data_read(&dr, plen, back, 1, &got) == BC_OK && got == 0);
		free(back);
	}
}
