/*
 * bc_compression.h - compressed Data.db: the CompressionInfo.db of every
 * SSTable version bloomcass knows (bc_compression.c), and the chunks it
 * describes, each decompressed with the compressors' own libraries (lz4,
 * snappy, zlib, zstd) after its checksum (bc_compression_chunk.c).  The
 * reader of the uncompressed Data.db built on them is bc_data.h.
 *
 * CompressionInfo.db (all big-endian; strings are Java's writeUTF, a 16-bit
 * length then modified UTF-8):
 *
 *   compressor class name    UTF ("LZ4Compressor", or the class's full name)
 *   option count             int
 *   options                  (key UTF, value UTF) * option count
 *   chunk length             int, a power of two
 *   max compressed length    int; only na and later and the trie-indexed
 *                            formats (da, bb)
 *   uncompressed data length long
 *   chunk count              int
 *   chunk offsets            long * chunk count, in the compressed Data.db
 *   [dictionary]             Cassandra 6.0 (pa, ea and later): a zstd
 *                            dictionary with its kind, id and CRC32C, or
 *                            nothing (bc_compression_dict.h); with one,
 *                            every chunk is zstd with that dictionary
 *
 * Sources: Apache Cassandra's CompressionMetadata (open/readChunkOffsets,
 * chunkFor and Writer.writeHeader: 1.2 to 5.0), BigFormat.BigVersion
 * (hasMaxCompressedLength from na, compressedChecksumType: Adler32 from jb
 * to lb, CRC32 otherwise), BtiFormat and DataStax's TrieIndexFormat
 * (hasMaxCompressedLength always); ScyllaDB's sstables/sstables.cc
 * parse(compression) and write(compression), which never write the max
 * compressed length, in any version (so ms and mt are me's layout).
 *
 * In Data.db each chunk is followed by a 4-byte big-endian checksum of its
 * stored bytes; chunk i spans [offset[i], offset[i + 1] - 4) (the last one
 * ends 4 bytes before the end of Data.db).  From na, a chunk whose stored
 * length is at least the max compressed length is stored uncompressed
 * (Cassandra's CompressedChunkReader.Standard.readChunk).
 */
#ifndef BC_COMPRESSION_H
#define BC_COMPRESSION_H

#include <stddef.h>
#include <stdint.h>

#include "bc_reader.h"
#include "bc_status.h"

typedef enum bc_compressor
{
	BC_COMPRESSOR_NOOP = 0,		/* NoopCompressor */
	BC_COMPRESSOR_LZ4,			/* LZ4Compressor: LE32 length + LZ4 block */
	BC_COMPRESSOR_SNAPPY,		/* SnappyCompressor: raw snappy */
	BC_COMPRESSOR_DEFLATE,		/* DeflateCompressor: zlib stream */
	BC_COMPRESSOR_ZSTD,			/* ZstdCompressor: one zstd frame */
	BC_COMPRESSOR_LZ4_DICTS,	/* ScyllaDB's LZ4WithDictsCompressor */
	BC_COMPRESSOR_ZSTD_DICTS	/* ScyllaDB's ZstdWithDictsCompressor */
} bc_compressor;

typedef enum bc_chunk_checksum
{
	BC_CHUNK_CRC32 = 0,			/* ia .. ja, ma and later */
	BC_CHUNK_ADLER32 = 1		/* jb .. lb */
} bc_chunk_checksum;

/* the size of a chunk's checksum in Data.db */
#define BC_CHUNK_CHECKSUM 4

/*
 * A parsed CompressionInfo.db.  The pointers are into the caller's copy of
 * the file, which must outlive this.
 */
typedef struct bc_compression_info
{
	bc_compressor compressor;
	bc_chunk_checksum checksum;
	const uint8_t *name;		/* the class name as stored (not NUL-ended) */
	size_t		name_len;
	int32_t		option_count;
	const uint8_t *options;		/* the option pairs as stored */
	size_t		options_len;
	int32_t		chunk_length;	/* uncompressed bytes per chunk */
	int32_t		max_compressed_length;	/* INT32_MAX when not stored */
	int64_t		data_length;	/* of the uncompressed Data.db */
	int32_t		chunk_count;
	const uint8_t *offsets;		/* chunk_count big-endian longs */
	uint64_t	data_file_size; /* of the compressed Data.db */
	size_t		dictionary_len; /* ScyllaDB's or Cassandra 6.0's dictionary,
								 * 0 when none */
	const uint8_t *dictionary;	/* Cassandra 6.0's (after the offsets), or
								 * NULL */
	int64_t		dictionary_id;	/* its id */
} bc_compression_info;

/*
 * Parse CompressionInfo.db (data, len) of an SSTable of the given version,
 * whose Data.db has data_file_size bytes.  BC_ERR_COMPRESSION_TRUNCATED,
 * BC_ERR_COMPRESSION_FORMAT, BC_ERR_COMPRESSION_DATA_LENGTH (a data length
 * past chunk count * chunk length), BC_ERR_COMPRESSION_UNSUPPORTED (a compressor
 * bloomcass cannot read, the name is in out), BC_ERR_COMPRESSION_DICTIONARY,
 * BC_ERR_COMPRESSION_DICT_KIND, BC_ERR_COMPRESSION_DICT_CHECKSUM (Cassandra
 * 6.0's dictionary, bc_compression_dict.h) or BC_ERR_VERSION_UNKNOWN.  The chunks' offsets are checked by
 * bc_compression_chunk, when a chunk is read.
 */
bc_status	bc_compression_parse(const char *version, size_t version_len,
								 const uint8_t *data, size_t len,
								 uint64_t data_file_size,
								 bc_compression_info *out);

/* the option of that key, or NULL; *value_len its length */
const uint8_t *bc_compression_option(const bc_compression_info *ci, const char *key,
									 size_t *value_len);

/*
 * The dictionary into buf, of ci->dictionary_len bytes: Cassandra 6.0's
 * (ci->dictionary), or ScyllaDB's (options ".dictionary.00000000",
 * ".dictionary.00000001", ...).
 */
void		bc_compression_dictionary(const bc_compression_info *ci, uint8_t *buf);

/*
 * Chunk i of Data.db: its offset and stored length (without the checksum).
 * BC_ERR_COMPRESSION_CHUNK when i is not a chunk, or the offsets give it no
 * bytes or a checksum past the end of Data.db.
 */
bc_status	bc_compression_chunk(const bc_compression_info *ci, int64_t i,
								 uint64_t *offset, size_t *stored_len);

/* the uncompressed length of chunk i (the last one may be shorter) */
size_t		bc_compression_chunk_data_len(const bc_compression_info *ci, int64_t i);

/*
 * The most bytes a chunk and its checksum can take in Data.db: the size of
 * the compressed buffer of bc_compression_decode and bc_data_reader (the
 * compressor's bound for chunk_length bytes).  0 when it does not fit a
 * size_t.
 */
size_t		bc_compression_buffer_size(const bc_compression_info *ci);

/*
 * Check and decode chunk i: stored is its stored_len bytes then its 4-byte
 * checksum (stored_len + 4 bytes); out gets its
 * bc_compression_chunk_data_len bytes (out_cap at least that).  dict is
 * ScyllaDB's dictionary (NULL and 0 without one).
 * BC_ERR_COMPRESSION_CHECKSUM, BC_ERR_COMPRESSION_DICT_MISMATCH (a zstd
 * frame naming another dictionary than dict), BC_ERR_COMPRESSION_CORRUPT (the
 * decompressor failed, or gave another length), BC_ERR_BUFFER.
 */
bc_status	bc_compression_decode(const bc_compression_info *ci, int64_t i,
								  const uint8_t *stored, size_t stored_len,
								  const uint8_t *dict, size_t dict_len,
								  uint8_t *out, size_t out_cap);

#endif							/* BC_COMPRESSION_H */
