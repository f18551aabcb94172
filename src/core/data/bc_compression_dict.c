/*
 * bc_compression_dict.c - Cassandra 6.0's compression dictionary in
 * CompressionInfo.db (the layout and its source are in
 * bc_compression_dict.h), read as CompressionDictionary.deserialize reads
 * it, each check naming the reader's own.
 */
#include <string.h>

#include "bc_compression_dict.h"
#include "bc_endian.h"
#include "bc_tick.h"

uint32_t
bc_crc32c(uint32_t crc, const uint8_t *p, size_t n)
{
	size_t		i;
	int			b;

	/* bit by bit: a dictionary is read once per CompressionInfo.db; one
	 * as large as the file allows (512 MiB) takes seconds, so the loop
	 * lets the server stop it */
	crc = ~crc;
	for (i = 0; i < n; i++)
	{
		BC_TICK(i);
		crc ^= p[i];
		for (b = 0; b < 8; b++)
			crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
	}
	return ~crc;
}

bc_status
bc_compression_dict_parse(const uint8_t *data, size_t len, size_t pos,
						  bc_compression_dict *out)
{
	int8_t		kind;
	int32_t		dlen;
	uint8_t		idb[8];
	uint32_t	sum;
	int			b;

	memset(out, 0, sizeof(*out));
	/* readByte: EOFException is "no dictionary" */
	if (pos >= len)
		return BC_OK;
	/* readByte is signed: "Invalid compression dictionary kind" for a
	 * negative one or one past Kind.values() (only ZSTD) */
	kind = (int8_t) data[pos];
	if (kind != BC_DICT_KIND_ZSTD)
		return BC_ERR_COMPRESSION_DICT_KIND;
	pos++;
	/* readLong, readInt: EOFException */
	if (len - pos < 8 + 4)
		return BC_ERR_COMPRESSION_TRUNCATED;
	out->id = (int64_t) bc_get_be64(data + pos);
	pos += 8;
	dlen = (int32_t) bc_get_be32(data + pos);
	pos += 4;
	/* new byte[length]: NegativeArraySizeException */
	if (dlen < 0)
		return BC_ERR_COMPRESSION_DICTIONARY;
	/* readFully, then readInt: EOFException */
	if (len - pos < (size_t) dlen || len - pos - (size_t) dlen < 4)
		return BC_ERR_COMPRESSION_TRUNCATED;
	out->bytes = data + pos;
	out->len = (size_t) dlen;
	pos += (size_t) dlen;
	out->checksum = bc_get_be32(data + pos);

	/*
	 * calculateChecksum: Guava's crc32c hasher fed putByte(kind),
	 * putLong(id), putBytes(dictionary); hash().asInt() is the CRC32C
	 * value, written by writeInt (big-endian).  The one byte order the
	 * source does not spell out is the id's inside the checksum: Guava's
	 * hashers put a long through a little-endian scratch buffer
	 * (AbstractByteHasher, and AbstractStreamingHasher before it), so the
	 * id is fed least significant byte first, unlike its big-endian
	 * bytes in the file.  Whatever follows the checksum is not read
	 * (deserialize returns there).
	 */
	idb[0] = (uint8_t) kind;
	sum = bc_crc32c(0, idb, 1);
	for (b = 0; b < 8; b++)
		idb[b] = (uint8_t) ((uint64_t) out->id >> (8 * b));
	sum = bc_crc32c(sum, idb, 8);
	sum = bc_crc32c(sum, out->bytes, out->len);
	if (sum != out->checksum)
		return BC_ERR_COMPRESSION_DICT_CHECKSUM;
	out->kind = kind;
	out->present = 1;
	return BC_OK;
}
