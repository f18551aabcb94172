/*
 * bc_data.h - the uncompressed bytes of a Data.db, compressed or not, read
 * through the caller's bc_reader in bounded memory (bc_data.c).
 */
#ifndef BC_DATA_H
#define BC_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "bc_compression.h"
#include "bc_reader.h"
#include "bc_status.h"

/*
 * The most the chunk buffers may take together (the dictionary, one
 * uncompressed chunk and one stored chunk): more is BC_ERR_COMPRESSION_LIMIT.
 */
#define BC_DATA_MAX_BUFFERS ((size_t) 512 * 1024 * 1024)

/*
 * The chunk buffers a Data.db needs, bounded by what its files can hold
 * rather than by the chunk length CompressionInfo.db declares: *chunk_cap
 * the longest chunk that can decompress from the stored bytes Data.db can
 * hold (at most the chunk length and the data length), *compressed_cap
 * the longest stored chunk and checksum (at most Data.db's size and the
 * compressor's bound).  A chunk longer than *chunk_cap is one that does
 * not decompress to its length (BC_ERR_COMPRESSION_CORRUPT when read).
 */
void		bc_data_buffer_sizes(const bc_compression_info *ci, size_t *chunk_cap,
								 size_t *compressed_cap);

/*
 * The uncompressed Data.db read through the caller's bc_reader, one chunk
 * at a time in the caller's buffers: chunk and compressed of at least
 * bc_data_buffer_sizes's sizes.  With ci NULL, Data.db is not compressed
 * and is read as it is (no buffer needed).
 */
typedef struct bc_data_reader
{
	const bc_reader *file;
	const bc_compression_info *ci;
	const uint8_t *dict;
	size_t		dict_len;
	uint8_t    *chunk;
	uint8_t    *compressed;
	size_t		chunk_cap;
	size_t		compressed_cap;
	int64_t		cached;			/* the chunk in chunk, -1 for none */
	size_t		cached_len;
} bc_data_reader;

bc_status	bc_data_reader_init(bc_data_reader *dr, const bc_reader *file,
								const bc_compression_info *ci,
								const uint8_t *dict, size_t dict_len,
								uint8_t *chunk, size_t chunk_cap,
								uint8_t *compressed, size_t compressed_cap);

/*
 * The reader of a Data.db whose CompressionInfo.db has the bytes info
 * (NULL: Data.db is not compressed): the CompressionInfo.db parsed into
 * *ci, then its dictionary and the chunk buffers in one block from
 * alloc(arg, size), returned in *block (NULL when none was needed) for the
 * caller to free with the rest of its memory: bc_data_buffer_sizes, or
 * BC_ERR_COMPRESSION_LIMIT past BC_DATA_MAX_BUFFERS.  *in_info is set when
 * the failure is CompressionInfo.db's (bc_compression_parse, the limit),
 * not Data.db's.
 */
bc_status	bc_data_reader_open(bc_data_reader *dr, bc_compression_info *ci,
								const bc_reader *file, const char *version,
								size_t version_len, const uint8_t *info, size_t info_len,
								void *(*alloc) (void *arg, size_t size), void *arg,
								void **block, int *in_info);

/*
 * The uncompressed length of a Data.db of data_size bytes: the data length
 * of its CompressionInfo.db (info, info_len; NULL when it has none, then
 * data_size), parsed by bc_compression_parse, whose statuses it returns.
 */
bc_status	bc_data_uncompressed_length(const char *version, size_t version_len,
										const uint8_t *info, size_t info_len,
										uint64_t data_size, uint64_t *length);

/* the uncompressed Data.db's length */
uint64_t	bc_data_length(const bc_data_reader *dr);

/*
 * Bytes [offset, offset + len) of the uncompressed Data.db into buf: *got
 * of them, fewer than len only at its end.  BC_ERR_READ when a read
 * failed; the statuses of bc_compression_chunk and bc_compression_decode.
 */
bc_status	bc_data_read(bc_data_reader *dr, uint64_t offset, uint8_t *buf,
						 size_t len, size_t *got);

#endif							/* BC_DATA_H */
