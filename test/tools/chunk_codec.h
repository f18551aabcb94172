/*
 * chunk_codec.h - one chunk of Data.db compressed as each compressor that
 * bloomcass reads writes it (chunk_codec.c, for recompress.c): Cassandra's
 * LZ4Compressor (a little-endian uncompressed length, then an LZ4 block of
 * LZ4_compress_default), SnappyCompressor (raw snappy), DeflateCompressor
 * (a zlib stream, compress2 at the default level, as java.util.zip.Deflater
 * writes it), ZstdCompressor (one zstd frame at level 3, its default) and
 * NoopCompressor (the bytes as they are); ScyllaDB's LZ4WithDictsCompressor
 * (as LZ4Compressor, compressed through a stream with the dictionary
 * loaded) and ZstdWithDictsCompressor (ZSTD_compress_usingDict at level 3),
 * after ScyllaDB's sstables/compressor.cc.  A failure of a library ends
 * the program (tool_die).
 */
#ifndef CHUNK_CODEC_H
#define CHUNK_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "bc_compression.h"

/* the zstd level written (and stored as the option compression_level) */
#define CHUNK_ZSTD_LEVEL 3

typedef struct chunk_codec
{
	bc_compressor compressor;
	const uint8_t *dict;		/* ScyllaDB's dictionary compressors */
	size_t		dict_len;
} chunk_codec;

/* the most bytes chunk_compress may write for n bytes (at least n) */
size_t		chunk_compress_bound(const chunk_codec *c, size_t n);

/* n bytes of src compressed into out (cap bytes, at least the bound): the length */
size_t		chunk_compress(const chunk_codec *c, const uint8_t *src, size_t n,
						   uint8_t *out, size_t cap);

#endif							/* CHUNK_CODEC_H */
