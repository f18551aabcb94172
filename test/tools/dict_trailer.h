/*
 * dict_trailer.h - Cassandra 6.0's compression dictionary for recompress.c
 * (dict_trailer.c): one trained by libzstd's ZDICT_trainFromBuffer, and
 * the trailer CompressionDictionary.serialize writes after
 * CompressionInfo.db's chunk offsets (kind, id, length, bytes, CRC32C;
 * the layout is in src/core/data/bc_compression_dict.h), whole or damaged in
 * one of the ways a reader must refuse or see through.
 */
#ifndef DICT_TRAILER_H
#define DICT_TRAILER_H

#include <stddef.h>
#include <stdint.h>

#include "tool_io.h"

/* the most bytes of a trained dictionary */
#define DICT_TRAILER_MAX 16384

/*
 * The damages (recompress -d), each made as the writer would make the
 * rest of the file:
 *   kind        the kind byte 1 (no Kind has it), the checksum over it
 *   checksum    the checksum's last bit flipped
 *   id          the trailer's id one more, the checksum over it: only the
 *               checksum covers the id, so readers read the copy as the
 *               source (CompressionDictionary.deserialize compares nothing
 *               else with it)
 *   dict-id     the zstd dictionary's own id (its bytes 4 to 7, after the
 *               magic number) one more, the checksum over the changed
 *               bytes: the chunks' frames name the other id, so only zstd
 *               notices ("Dictionary mismatch")
 *   other-dict  chunk 0 compressed with another dictionary (trained over
 *               the same data, at most half as many bytes) than the one
 *               stored, whose checksum matches: only zstd notices
 */
typedef enum dict_damage
{
	DICT_WHOLE = 0,
	DICT_DAMAGE_KIND,
	DICT_DAMAGE_CHECKSUM,
	DICT_DAMAGE_ID,
	DICT_DAMAGE_DICT_ID,
	DICT_DAMAGE_OTHER_DICT
} dict_damage;

/* the damage of a -d argument; tool_die for another */
dict_damage dict_damage_of(const char *name);

/*
 * A zstd dictionary of at most max bytes trained by ZDICT_trainFromBuffer
 * over data cut into samples of 1 KiB: *dict_len bytes, malloc'd.
 */
uint8_t    *dict_train(const uint8_t *data, size_t len, size_t max, size_t *dict_len);

/*
 * The trailer of dict (dict_len bytes) appended to info as
 * CompressionDictionary.serialize writes it, with damage.  The id is the
 * dictionary's own (ZDICT_getDictID), as the writer's trainer gives it.
 */
void		dict_trailer_write(bytebuf *info, const uint8_t *dict, size_t dict_len,
							   dict_damage damage);

#endif							/* DICT_TRAILER_H */
