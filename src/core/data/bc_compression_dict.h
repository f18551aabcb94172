/*
 * bc_compression_dict.h - the compression dictionary that Cassandra 6.0
 * (pa, ea and later) writes after the chunk offsets of CompressionInfo.db
 * (bc_compression_dict.c), as apache/cassandra trunk's
 * db/compression/CompressionDictionary.serialize writes it and
 * CompressionDictionary.deserialize reads it (CompressionMetadata.open,
 * right after readChunkOffsets):
 *
 *   kind        byte: the ordinal of CompressionDictionary.Kind (ZSTD = 0,
 *               "Order matters: the enum ordinal is serialized")
 *   id          long, big-endian (DataOutput.writeLong)
 *   length      int, big-endian
 *   dictionary  length bytes: a zstd dictionary
 *   checksum    int, big-endian: CRC32C (Guava's Hashing.crc32c()) of the
 *               kind byte, the id and the dictionary
 *
 * End of file at the kind byte: no dictionary.
 */
#ifndef BC_COMPRESSION_DICT_H
#define BC_COMPRESSION_DICT_H

#include <stddef.h>
#include <stdint.h>

#include "bc_status.h"

/* CompressionDictionary.Kind.ZSTD's ordinal, the only kind there is */
#define BC_DICT_KIND_ZSTD 0

typedef struct bc_compression_dict
{
	int			present;		/* 0: the file ends at the offsets */
	int			kind;			/* BC_DICT_KIND_ZSTD */
	int64_t		id;
	const uint8_t *bytes;		/* into the caller's copy of the file */
	size_t		len;
	uint32_t	checksum;
} bc_compression_dict;

/*
 * Read the dictionary of CompressionInfo.db (data, len) at pos, where its
 * chunk offsets end.  BC_OK (out->present 0 when the file ends there),
 * BC_ERR_COMPRESSION_DICT_KIND ("Invalid compression dictionary kind"),
 * BC_ERR_COMPRESSION_TRUNCATED (EOFException), BC_ERR_COMPRESSION_DICTIONARY
 * (a negative length: NegativeArraySizeException),
 * BC_ERR_COMPRESSION_DICT_CHECKSUM ("Compression dictionary checksum does
 * not match").
 */
bc_status	bc_compression_dict_parse(const uint8_t *data, size_t len, size_t pos,
									  bc_compression_dict *out);

/* CRC32C (Castagnoli, reflected, as Guava's Hashing.crc32c()) of n bytes,
 * continuing crc (0 to start) */
uint32_t	bc_crc32c(uint32_t crc, const uint8_t *p, size_t n);

#endif							/* BC_COMPRESSION_DICT_H */
