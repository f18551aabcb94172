/*
 * bc_compression_chunk.c - the chunks of a compressed Data.db that a
 * parsed CompressionInfo.db (bc_compression.c) describes: where each lies,
 * how long it is uncompressed, the buffers it needs, and its checksum and
 * decompression (the layouts and their sources are in bc_compression.h).
 *
 * The chunks are decompressed by the compressors' own libraries: liblz4,
 * libsnappy, zlib and libzstd (zlib and zstd allocate their state
 * internally, and free it before returning).  Only what the readers check
 * is checked, plus what memory safety needs; each check names the reader's
 * check it mirrors.
 */
#include <limits.h>
#include <string.h>

#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "bc_compression.h"
#include "bc_endian.h"

bc_status
bc_compression_chunk(const bc_compression_info *ci, int64_t i,
					 uint64_t *offset, size_t *stored_len)
{
	uint64_t	off,
				next;

	*offset = 0;
	*stored_len = 0;
	/* CompressionMetadata.chunkFor: CorruptSSTableException(EOFException) */
	if (i < 0 || i >= ci->chunk_count)
		return BC_ERR_COMPRESSION_CHUNK;
	off = bc_get_be64(ci->offsets + 8 * (size_t) i);
	next = (i + 1 == ci->chunk_count) ? ci->data_file_size
		: bc_get_be64(ci->offsets + 8 * (size_t) (i + 1));

	/*
	 * chunkFor: new Chunk(offset, next - offset - 4), which asserts a
	 * positive length (an int); the read of it and its checksum past the
	 * end of Data.db is a CorruptBlockException.
	 */
	if (next > ci->data_file_size || off >= next ||
		next - off <= BC_CHUNK_CHECKSUM || next - off - BC_CHUNK_CHECKSUM > INT32_MAX)
		return BC_ERR_COMPRESSION_CHUNK;
	*offset = off;
	*stored_len = (size_t) (next - off - BC_CHUNK_CHECKSUM);
	return BC_OK;
}

size_t
bc_compression_chunk_data_len(const bc_compression_info *ci, int64_t i)
{
	uint64_t	start;

	if (i < 0)
		return 0;
	start = (uint64_t) i * (uint64_t) ci->chunk_length;
	if (start >= (uint64_t) ci->data_length)
		return 0;
	if ((uint64_t) ci->data_length - start < (uint64_t) ci->chunk_length)
		return (size_t) ((uint64_t) ci->data_length - start);
	return (size_t) ci->chunk_length;
}

size_t
bc_compression_buffer_size(const bc_compression_info *ci)
{
	uint64_t	n = (uint64_t) ci->chunk_length,
				bound = n;

	switch (ci->compressor)
	{
		case BC_COMPRESSOR_NOOP:
			break;
		case BC_COMPRESSOR_LZ4:
		case BC_COMPRESSOR_LZ4_DICTS:
			bound = 4 + (uint64_t) LZ4_compressBound((int) n);
			if (bound == 4)
				return 0;
			break;
		case BC_COMPRESSOR_SNAPPY:
			bound = snappy_max_compressed_length((size_t) n);
			break;
		case BC_COMPRESSOR_DEFLATE:
			bound = compressBound((uLong) n);
			break;
		case BC_COMPRESSOR_ZSTD:
		case BC_COMPRESSOR_ZSTD_DICTS:
			bound = ZSTD_compressBound((size_t) n);
			break;
	}
	/* from na, a chunk that did not shrink enough is stored raw */
	if (bound < n)
		bound = n;
	bound += BC_CHUNK_CHECKSUM;
	if (bound > SIZE_MAX || bound > (uint64_t) INT32_MAX + BC_CHUNK_CHECKSUM)
		return 0;
	return (size_t) bound;
}

bc_status
bc_compression_decode(const bc_compression_info *ci, int64_t i,
					  const uint8_t *stored, size_t stored_len,
					  const uint8_t *dict, size_t dict_len,
					  uint8_t *out, size_t out_cap)
{
	size_t		want = bc_compression_chunk_data_len(ci, i);
	uint32_t	sum,
				expect;

	if (out_cap < want)
		return BC_ERR_BUFFER;

	/*
	 * A chunk past the data length holds nothing (chunkFor only gives the
	 * chunk of a position inside it); a stored length over 2^31 - 1 is
	 * what no chunkFor gives (Chunk's length is an int) and what the
	 * decompressors' int lengths cannot take.
	 */
	if (want == 0 || stored_len > (size_t) INT32_MAX)
		return BC_ERR_COMPRESSION_CHUNK;

	/*
	 * CompressedChunkReader.Standard.readChunk (CompressedRandomAccessReader
	 * in 2.x): the checksum of the stored bytes, big-endian after them
	 * (CorruptBlockException).
	 */
	expect = bc_get_be32(stored + stored_len);
	if (ci->checksum == BC_CHUNK_ADLER32)
		sum = (uint32_t) adler32(adler32(0L, Z_NULL, 0), stored, (uInt) stored_len);
	else
		sum = (uint32_t) crc32(crc32(0L, Z_NULL, 0), stored, (uInt) stored_len);
	if (sum != expect)
		return BC_ERR_COMPRESSION_CHECKSUM;

	/*
	 * readChunk: a chunk not shorter than the max compressed length is
	 * stored as it is (the last one padded up to it); more than a chunk
	 * does not fit its buffer (BufferOverflowException).  The two are
	 * compared as ints (chunk.length < maxCompressedLength), so a negative
	 * max compressed length stores every chunk as it is.
	 */
	if ((int64_t) stored_len >= (int64_t) ci->max_compressed_length)
	{
		if (stored_len < want || stored_len > (size_t) ci->chunk_length)
			return BC_ERR_COMPRESSION_CORRUPT;
		memcpy(out, stored, want);
		return BC_OK;
	}

	/*
	 * Each decompressor is given exactly want bytes of room, and must fill
	 * them: a chunk decompresses to the chunk length, the last one to what
	 * remains of the data length (what Cassandra's reader then reads).
	 */
	switch (ci->compressor)
	{
		case BC_COMPRESSOR_NOOP:
			if (stored_len != want)
				return BC_ERR_COMPRESSION_CORRUPT;
			memcpy(out, stored, want);
			return BC_OK;

		case BC_COMPRESSOR_LZ4:
		case BC_COMPRESSOR_LZ4_DICTS:
			{
				/*
				 * LZ4Compressor.uncompress: a little-endian uncompressed
				 * length, then an LZ4 block that must end the chunk
				 * ("Compressed lengths mismatch").
				 */
				uint32_t	declared;
				int			got;

				if (stored_len < 4)
					return BC_ERR_COMPRESSION_CORRUPT;
				declared = (uint32_t) stored[0] | ((uint32_t) stored[1] << 8) |
					((uint32_t) stored[2] << 16) | ((uint32_t) stored[3] << 24);
				if (declared != want)
					return BC_ERR_COMPRESSION_CORRUPT;
				if (ci->compressor == BC_COMPRESSOR_LZ4_DICTS)
					got = LZ4_decompress_safe_usingDict((const char *) stored + 4, (char *) out,
														(int) (stored_len - 4), (int) want,
														(const char *) dict, (int) dict_len);
				else
					got = LZ4_decompress_safe((const char *) stored + 4, (char *) out,
											  (int) (stored_len - 4), (int) want);
				if (got < 0 || (size_t) got != want)
					return BC_ERR_COMPRESSION_CORRUPT;
				return BC_OK;
			}

		case BC_COMPRESSOR_SNAPPY:
			{
				size_t		n;

				if (snappy_uncompressed_length((const char *) stored, stored_len, &n) != SNAPPY_OK ||
					n != want)
					return BC_ERR_COMPRESSION_CORRUPT;
				if (snappy_uncompress((const char *) stored, stored_len, (char *) out, &n) != SNAPPY_OK ||
					n != want)
					return BC_ERR_COMPRESSION_CORRUPT;
				return BC_OK;
			}

		case BC_COMPRESSOR_DEFLATE:
			{
				/* DeflateCompressor: java.util.zip.Inflater, a zlib stream */
				uLongf		n = (uLongf) want;

				if (uncompress(out, &n, stored, (uLong) stored_len) != Z_OK || n != want)
					return BC_ERR_COMPRESSION_CORRUPT;
				return BC_OK;
			}

		case BC_COMPRESSOR_ZSTD:
		case BC_COMPRESSOR_ZSTD_DICTS:
			{
				size_t		n;

				if (ci->compressor == BC_COMPRESSOR_ZSTD_DICTS && dict_len > 0)
				{
					ZSTD_DCtx  *dctx = ZSTD_createDCtx();

					if (dctx == NULL)
						return BC_ERR_COMPRESSION_CORRUPT;
					n = ZSTD_decompress_usingDict(dctx, out, want, stored, stored_len,
												  dict, dict_len);
					ZSTD_freeDCtx(dctx);
				}
				else
					n = ZSTD_decompress(out, want, stored, stored_len);
				/*
				 * the frame names a dictionary id (ZSTD_getDictID_fromFrame)
				 * other than the dictionary's: zstd's own check
				 * (dictionary_wrong), as zstd-jni's decompressFastDict
				 * reports it
				 */
				if (ZSTD_isError(n) && ZSTD_getErrorCode(n) == ZSTD_error_dictionary_wrong)
					return BC_ERR_COMPRESSION_DICT_MISMATCH;
				if (ZSTD_isError(n) || n != want)
					return BC_ERR_COMPRESSION_CORRUPT;
				return BC_OK;
			}
	}
	return BC_ERR_COMPRESSION_UNSUPPORTED;
}
