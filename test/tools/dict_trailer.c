/*
 * dict_trailer.c - Cassandra 6.0's compression dictionary for recompress.c:
 * trained by libzstd, written after CompressionInfo.db's offsets as
 * apache/cassandra trunk's CompressionDictionary.serialize writes it
 * (dict_trailer.h).
 */
#include <stdlib.h>
#include <string.h>

#include <zdict.h>

#include "bc_compression_dict.h"
#include "dict_trailer.h"

#define TRAIN_SAMPLE 1024		/* the training samples' size */

dict_damage
dict_damage_of(const char *name)
{
	static const char *const names[] = {"kind", "checksum", "id", "dict-id", "other-dict"};
	size_t		i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return (dict_damage) (i + 1);
	tool_die("-d %s: kind, checksum, id, dict-id or other-dict", name);
	return DICT_WHOLE;
}

uint8_t *
dict_train(const uint8_t *data, size_t len, size_t max, size_t *dict_len)
{
	size_t		n = len / TRAIN_SAMPLE,
				i,
				got;
	size_t	   *sizes;
	uint8_t    *dict = tool_alloc(max);

	if (n < 10)
		tool_die("zstd-dict: %zu bytes of data are too few to train a dictionary", len);
	sizes = tool_alloc(n * sizeof(size_t));
	for (i = 0; i < n; i++)
		sizes[i] = TRAIN_SAMPLE;
	got = ZDICT_trainFromBuffer(dict, max, data, sizes, (unsigned) n);
	if (ZDICT_isError(got))
		tool_die("ZDICT_trainFromBuffer: %s", ZDICT_getErrorName(got));
	free(sizes);
	*dict_len = got;
	return dict;
}

void
dict_trailer_write(bytebuf *info, const uint8_t *dict, size_t dict_len, dict_damage damage)
{
	uint8_t		kind = damage == DICT_DAMAGE_KIND ? 1 : 0,
				id_le[8];
	uint8_t    *bytes = tool_alloc(dict_len);
	uint64_t	id = ZDICT_getDictID(dict, dict_len);
	uint32_t	sum;
	int			i;

	memcpy(bytes, dict, dict_len);
	if (damage == DICT_DAMAGE_ID)
		id++;
	if (damage == DICT_DAMAGE_DICT_ID)
	{
		/* zstd's dictionary format: magic, then its id, little-endian */
		uint32_t	did = ZDICT_getDictID(dict, dict_len) + 1;

		if (dict_len < 8 || did == 1)
			tool_die("-d dict-id: not a zstd dictionary with an id");
		for (i = 0; i < 4; i++)
			bytes[4 + i] = (uint8_t) (did >> (8 * i));
	}
	/* calculateChecksum: putByte, putLong (little-endian), putBytes */
	for (i = 0; i < 8; i++)
		id_le[i] = (uint8_t) (id >> (8 * i));
	sum = bc_crc32c(0, &kind, 1);
	sum = bc_crc32c(sum, id_le, 8);
	sum = bc_crc32c(sum, bytes, dict_len);
	if (damage == DICT_DAMAGE_CHECKSUM)
		sum ^= 1;
	bytebuf_put(info, &kind, 1);
	bytebuf_put_be(info, id, 8);
	bytebuf_put_be(info, dict_len, 4);
	bytebuf_put(info, bytes, dict_len);
	bytebuf_put_be(info, sum, 4);
	free(bytes);
}
