/*
 * bc_codec.h - the Filter.db codec (bc_codec.c; BloomFilterSerializer,
 * OffHeapBitSet): the payload layouts, validation, layout conversion and
 * serialization of a Filter.db image, and the hash order and layout of
 * each SSTable version and Filter.db file name (BigFormat's
 * hasOldBfHashOrder and hasOldBfFormat, BtiFormat; README.md,
 * Compatibility).
 */
#ifndef BC_CODEC_H
#define BC_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "bc_filter.h"
#include "bc_status.h"

typedef enum bc_layout
{
	BC_LAYOUT_RAW = 0,			/* na and later, bti: bytes LSB-first */
	BC_LAYOUT_SWAPPED = 1		/* up to me: each 8-byte group reversed */
} bc_layout;

const char *bc_order_name(bc_order o);	/* "new" / "old" */
const char *bc_layout_name(bc_layout l);	/* "raw" / "swapped"; for the
											 * core and its tests */

/* Map an SSTable version ("ka", "nb", "da", "bb", ...) to its hash order and
 * payload layout. */
bc_status	bc_version_lookup(const char *version, size_t len,
							  bc_order *order, bc_layout *layout);

/* Map a Filter.db file name or path ("nb-1-big-Filter.db",
 * "ks-cf-ka-5-Filter.db", "/x/y/da-1-bti-Filter.db") to its version (copied
 * into version_out, NUL-terminated, 3 bytes), hash order and layout. */
bc_status	bc_file_name_lookup(const char *name, size_t len, char version_out[3],
								bc_order *order, bc_layout *layout);

/* Bytes of Filter.db header: BE32 hash_count, BE32 word_count. */
#define BC_FILTERDB_HEADER 8

/*
 * A PostgreSQL value is at most 1 GB - 1 bytes.  A stored filter is the
 * 4-byte varlena length, a 4-byte bloomcass format header, then the
 * Filter.db image; BC_MAX_WORDS_VALUE is the largest word_count for which
 * that (and a bytea export of the Filter.db) still fits.
 */
#define BC_MAX_VALUE_BYTES INT64_C(0x3fffffff)
#define BC_VALUE_PREFIX 8
#define BC_MAX_WORDS_VALUE \
	((BC_MAX_VALUE_BYTES - BC_VALUE_PREFIX - BC_FILTERDB_HEADER) / 8)

/*
 * Validate a Filter.db image: 8-byte big-endian header, hash_count within
 * [BC_MIN_HASH_COUNT, BC_MAX_HASH_COUNT], word_count >= 1 and
 * word_count <= max_words, and exactly 8 + 8 * word_count bytes.
 * On success *hash_count and *word_count are set.
 */
bc_status	bc_filterdb_check(const uint8_t *data, size_t len, int64_t max_words,
							  int32_t *hash_count, int64_t *word_count);

/* Copy a payload of nwords words between layouts; dst and src may be equal
 * (in-place conversion) but must not otherwise overlap. */
void		bc_payload_convert(uint8_t *dst, const uint8_t *src, int64_t nwords,
							   bc_layout from, bc_layout to);

/* Write header + payload in the given layout to out (8 + 8W bytes); for
 * the core and its tests. */
void		bc_filterdb_write(const bc_filter *f, bc_layout layout, uint8_t *out);

/* Size in bytes of a serialized filter with word_count words. */
static inline uint64_t
bc_filterdb_size(int64_t word_count)
{
	return BC_FILTERDB_HEADER + (uint64_t) word_count * 8;
}

#endif							/* BC_CODEC_H */
