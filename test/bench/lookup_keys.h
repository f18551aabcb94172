/*
 * lookup_keys.h - what the lookup benchmark's generated SSTables hold: key
 * number i is the text "key-<i>", i in decimal without leading zeros, and
 * each partition a nominal LK_PARTITION_EXTRA bytes of Data.db past its
 * key and the key's BE16 length (no Data.db is written; the positions in
 * Index.db follow from it).  lookup_gen.c writes the keys 0 .. N-1;
 * lookup_bench.c checks them and their positions, and probes key numbers
 * N and up as absent keys.
 */
#ifndef LOOKUP_KEYS_H
#define LOOKUP_KEYS_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define LK_PREFIX "key-"
#define LK_PREFIX_LEN 4
#define LK_KEY_MAX 32			/* "key-" and at most 20 digits, with room */

/* a partition's nominal Data.db size: 2 + its key's length + this (a
 * partition header and a small row) */
#define LK_PARTITION_EXTRA 32

/* key number i into buf (LK_KEY_MAX bytes); its length */
static inline size_t
lk_key(uint64_t i, char *buf)
{
	return (size_t) snprintf(buf, LK_KEY_MAX, LK_PREFIX "%" PRIu64, i);
}

/*
 * The number of a key written by lk_key: 1 and *i, or 0 when the bytes are
 * not exactly lk_key's text of any number (no prefix, a non-digit, a
 * leading zero, more digits than a uint64_t holds).
 */
static inline int
lk_key_number(const uint8_t *key, size_t len, uint64_t *i)
{
	uint64_t	v = 0;
	size_t		p;

	if (len <= LK_PREFIX_LEN || len > LK_PREFIX_LEN + 19 ||
		key[0] != 'k' || key[1] != 'e' || key[2] != 'y' || key[3] != '-')
		return 0;
	if (key[LK_PREFIX_LEN] == '0' && len > LK_PREFIX_LEN + 1)
		return 0;
	for (p = LK_PREFIX_LEN; p < len; p++)
	{
		if (key[p] < '0' || key[p] > '9')
			return 0;
		v = v * 10 + (uint64_t) (key[p] - '0');
	}
	*i = v;
	return 1;
}

#endif							/* LOOKUP_KEYS_H */
