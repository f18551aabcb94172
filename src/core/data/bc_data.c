/*
 * bc_data.c - the uncompressed bytes of a Data.db, read through the
 * caller's bc_reader in bounded memory: a compressed Data.db one chunk at a
 * time (CompressionInfo.db in bc_compression.c, the decompression in
 * bc_compression_chunk.c, as Cassandra's CompressedChunkReader reads it),
 * an uncompressed one as it is.
 */
#include <stdint.h>
#include <string.h>

#include "bc_data.h"

/*
 * The most bytes a stored chunk of stored bytes can decompress to, by
 * compressor, with room to spare: a bound of each format, not of a
 * library.  LZ4 (and ScyllaDB's with dictionaries): a match's length
 * grows by 255 a byte; snappy: a 3-byte copy gives 64 bytes at most;
 * deflate: 1032:1 at most (zlib's FAQ); zstd: a block of at least a
 * 3-byte header and a byte (an RLE block) gives at most 128 KiB
 * (ZSTD_BLOCKSIZE_MAX).  A chunk stored as it is (from na) is its own
 * length.
 */
static uint64_t
expand_bound(bc_compressor c, uint64_t stored)
{
	uint64_t	ratio = 1,
				slack = 0;

	switch (c)
	{
		case BC_COMPRESSOR_NOOP:
			break;
		case BC_COMPRESSOR_LZ4:
		case BC_COMPRESSOR_LZ4_DICTS:
			ratio = 256;
			slack = 64;
			break;
		case BC_COMPRESSOR_SNAPPY:
			ratio = 32;
			slack = 64;
			break;
		case BC_COMPRESSOR_DEFLATE:
			ratio = 1040;
			slack = 1024;
			break;
		case BC_COMPRESSOR_ZSTD:
		case BC_COMPRESSOR_ZSTD_DICTS:
			ratio = 32768;
			slack = 131072;
			break;
	}
	if (stored > (UINT64_MAX - slack) / ratio)
		return UINT64_MAX;
	return stored * ratio + slack;
}

void
bc_data_buffer_sizes(const bc_compression_info *ci, size_t *chunk_cap, size_t *compressed_cap)
{
	uint64_t	bound = bc_compression_buffer_size(ci),
				stored = ci->data_file_size > BC_CHUNK_CHECKSUM ?
		ci->data_file_size - BC_CHUNK_CHECKSUM : 0,
				chunk = (uint64_t) ci->chunk_length,
				most = expand_bound(ci->compressor, stored);

	/*
	 * Memory: CompressionInfo.db declares the chunk length, and Cassandra
	 * allocates buffers of it (BufferHolder.getBuffer); a few hundred
	 * bytes of Data.db cannot hold a chunk of 2^30 bytes, nor a stored
	 * chunk larger than Data.db, so buffers are sized by what the files
	 * can hold.  The chunk length, data length and Data.db size are all
	 * the file's; none is trusted alone.
	 */
	if ((uint64_t) ci->data_length < chunk)
		chunk = (uint64_t) ci->data_length;
	if (most < chunk)
		chunk = most;
	if (bound == 0 || bound > ci->data_file_size)
		bound = ci->data_file_size;
	/* at least a byte each: a buffer is always given */
	*chunk_cap = chunk > 0 ? (size_t) chunk : 1;
	*compressed_cap = bound > 0 ? (size_t) bound : 1;
}

bc_status
bc_data_reader_init(bc_data_reader *dr, const bc_reader *file,
					const bc_compression_info *ci,
					const uint8_t *dict, size_t dict_len,
					uint8_t *chunk, size_t chunk_cap,
					uint8_t *compressed, size_t compressed_cap)
{
	size_t		need_chunk,
				need_compressed;

	memset(dr, 0, sizeof(*dr));
	dr->file = file;
	dr->ci = ci;
	dr->cached = -1;
	if (ci == NULL)
		return BC_OK;
	bc_data_buffer_sizes(ci, &need_chunk, &need_compressed);
	if (chunk == NULL || compressed == NULL ||
		chunk_cap < need_chunk || compressed_cap < need_compressed)
		return BC_ERR_BUFFER;
	/* the chunks' offsets were checked against this size (the caller's
	 * Data.db, not the file's bytes: a mismatch is a caller's mix-up) */
	if (file->size != ci->data_file_size)
		return BC_ERR_COMPRESSION_CHUNK;
	dr->dict = dict;
	dr->dict_len = dict_len;
	dr->chunk = chunk;
	dr->chunk_cap = chunk_cap;
	dr->compressed = compressed;
	dr->compressed_cap = compressed_cap;
	return BC_OK;
}

bc_status
bc_data_reader_open(bc_data_reader *dr, bc_compression_info *ci, const bc_reader *file,
					const char *version, size_t version_len,
					const uint8_t *info, size_t info_len,
					void *(*alloc) (void *arg, size_t size), void *arg,
					void **block, int *in_info)
{
	size_t		chunk_len,
				bufsize;
	uint8_t    *b;
	bc_status	st;

	*block = NULL;
	*in_info = 0;
	if (info == NULL)
		return bc_data_reader_init(dr, file, NULL, NULL, 0, NULL, 0, NULL, 0);
	st = bc_compression_parse(version, version_len, info, info_len, file->size, ci);
	if (st != BC_OK)
	{
		*in_info = 1;
		return st;
	}
	bc_data_buffer_sizes(ci, &chunk_len, &bufsize);
	/* memory: a limit, whatever the files hold (the dictionary is in
	 * CompressionInfo.db, whose size the caller bounds) */
	if (chunk_len > BC_DATA_MAX_BUFFERS || bufsize > BC_DATA_MAX_BUFFERS - chunk_len ||
		ci->dictionary_len > BC_DATA_MAX_BUFFERS - chunk_len - bufsize)
	{
		*in_info = 1;
		return BC_ERR_COMPRESSION_LIMIT;
	}
	b = alloc(arg, ci->dictionary_len + chunk_len + bufsize);
	*block = b;
	bc_compression_dictionary(ci, b);
	return bc_data_reader_init(dr, file, ci, b, ci->dictionary_len,
							   b + ci->dictionary_len, chunk_len,
							   b + ci->dictionary_len + chunk_len, bufsize);
}

bc_status
bc_data_uncompressed_length(const char *version, size_t version_len, const uint8_t *info,
							size_t info_len, uint64_t data_size, uint64_t *length)
{
	bc_compression_info ci;
	bc_status	st;

	*length = data_size;
	if (info == NULL)
		return BC_OK;
	st = bc_compression_parse(version, version_len, info, info_len, data_size, &ci);
	if (st == BC_OK)
		*length = (uint64_t) ci.data_length;
	return st;
}

uint64_t
bc_data_length(const bc_data_reader *dr)
{
	return dr->ci != NULL ? (uint64_t) dr->ci->data_length : dr->file->size;
}

/* Exactly len bytes at offset of the file, or a status. */
static bc_status
read_fully(const bc_reader *r, uint64_t offset, uint8_t *buf, size_t len, size_t *done)
{
	size_t		got;

	*done = 0;
	while (*done < len)
	{
		if (r->read(r->arg, offset + *done, buf + *done, len - *done, &got) != 0)
			return BC_ERR_READ;
		if (got == 0)
			break;
		*done += got;
	}
	return BC_OK;
}

bc_status
bc_data_read(bc_data_reader *dr, uint64_t offset, uint8_t *buf, size_t len, size_t *got)
{
	uint64_t	total = bc_data_length(dr);
	const bc_compression_info *ci = dr->ci;

	*got = 0;
	if (offset >= total)
		return BC_OK;
	if (len > total - offset)
		len = (size_t) (total - offset);

	if (ci == NULL)
		return read_fully(dr->file, offset, buf, len, got);

	while (*got < len)
	{
		int64_t		i = (int64_t) (offset / (uint64_t) ci->chunk_length);
		size_t		in_chunk = (size_t) (offset % (uint64_t) ci->chunk_length),
					n;

		if (dr->cached != i)
		{
			uint64_t	at;
			size_t		stored_len,
						done;
			bc_status	rc;

			dr->cached = -1;
			rc = bc_compression_chunk(ci, i, &at, &stored_len);
			if (rc != BC_OK)
				return rc;

			/*
			 * Memory: the compressed buffer holds what the compressor
			 * can make of a chunk (its bound; from na a raw chunk).
			 * Cassandra's reader would allocate a larger buffer for a
			 * larger chunk (BufferHolder.getBuffer) and fail to
			 * decompress it; no writer stores one.
			 */
			if (stored_len + BC_CHUNK_CHECKSUM > dr->compressed_cap)
				return BC_ERR_COMPRESSION_CHUNK;
			/* more than the stored bytes of Data.db can decompress to
			 * (bc_data_buffer_sizes) */
			if (bc_compression_chunk_data_len(ci, i) > dr->chunk_cap)
				return BC_ERR_COMPRESSION_CORRUPT;
			rc = read_fully(dr->file, at, dr->compressed, stored_len + BC_CHUNK_CHECKSUM, &done);
			if (rc != BC_OK)
				return rc;
			/* the file is shorter than when the offsets were checked */
			if (done != stored_len + BC_CHUNK_CHECKSUM)
				return BC_ERR_COMPRESSION_CHUNK;
			rc = bc_compression_decode(ci, i, dr->compressed, stored_len,
									   dr->dict, dr->dict_len,
									   dr->chunk, dr->chunk_cap);
			if (rc != BC_OK)
				return rc;
			dr->cached = i;
			dr->cached_len = bc_compression_chunk_data_len(ci, i);
		}
		/* the data length says the chunk holds this offset: it always
		 * does (bc_compression_chunk_data_len), kept for safety */
		if (in_chunk >= dr->cached_len)
			return BC_ERR_COMPRESSION_CHUNK;
		n = dr->cached_len - in_chunk;
		if (n > len - *got)
			n = len - *got;
		memcpy(buf + *got, dr->chunk + in_chunk, n);
		*got += n;
		offset += n;
	}
	return BC_OK;
}
