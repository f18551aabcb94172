/*
 * bc_trie_keys.h - the partition keys of a trie-indexed SSTable (Cassandra
 * 5.0's da, DataStax's bb, ScyllaDB's mt and ms), read through its
 * Partitions.db trie (bc_trie.h), and the exact lookup of one key
 * (bc_trie_keys.c).
 *
 * The byte-comparable form of a partition key (Cassandra's
 * DecoratedKey.asComparableBytes with ByteSource.withTerminator, version
 * OSS50; ScyllaDB's lazy_comparable_bytes_from_ring_position for mt):
 *
 *   0x40 token 0x40 key 0x38
 *
 * 0x40 before each component (ByteSource.NEXT_COMPONENT), 0x38 at the end
 * (ByteSource.TERMINATOR).  Murmur3Partitioner: the token as 8 big-endian
 * bytes with the sign bit flipped (LongToken, ByteSource.of(long)).
 * ByteOrderedPartitioner: the token is the key's bytes, escaped like the
 * key.  The key is escaped (ByteSource.AbstractEscaper): a 0x00 becomes
 * 0x00 then 0xFE for each further 0x00, and 0xFF before the next non-zero
 * byte; the end is 0x00, or 0xFE after a trailing 0x00 (the OSS50 rule:
 * LEGACY added a further 0x00).
 *
 * ScyllaDB's ms encodes each column of the key after the token by its
 * type instead (comparable_bytes_from_compound), which needs the table's
 * schema; its token part is mt's.  So its keys are listed with only the
 * token part of each leaf's prefix checked, and bc_trie_has_key walks the
 * token part and compares the key with every key of that token.
 */
#ifndef BC_TRIE_KEYS_H
#define BC_TRIE_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "bc_data.h"
#include "bc_partitioner.h"
#include "bc_partitions.h"
#include "bc_reader.h"
#include "bc_status.h"
#include "bc_trie.h"

/* the longest partition key: a 16-bit length */
#define BC_TRIE_KEY_MAX 65535

/*
 * The partitioner of a class name as Statistics.db keeps it
 * ("org.apache.cassandra.dht.Murmur3Partitioner", or the simple name).
 * BC_ERR_TRIE_ENCODING for any other (RandomPartitioner and the rest:
 * bloomcass has no byte-comparable form of their tokens).
 */
bc_status	bc_partitioner_from_name(const char *name, size_t len, bc_partitioner *out);

/* The byte-comparable form of a key, a byte a call (bc_key_source_next). */
typedef struct bc_key_source
{
	const uint8_t *key;
	size_t		len;
	bc_partitioner partitioner;
	uint8_t		token[8];		/* Murmur3: sign-flipped, big-endian */
	int			stage;
	size_t		pos;
	int			escaped;
	int			legacy;			/* ByteComparable.Version.LEGACY */
} bc_key_source;

/* the key under a partitioner; Murmur3's token is bc_token of the key */
void		bc_key_source_init(bc_key_source *s, bc_partitioner p,
							   const uint8_t *key, size_t len);

/* Murmur3 form of a key with a given token (for ScyllaDB's test vectors) */
/*
 * Make s (just initialised) give the LEGACY form of DataStax's aa .. bb:
 * no terminator, and a component ending in an escaped 0 gets one more 0
 * (bc_trie_keys.c).
 */
void		bc_key_source_legacy(bc_key_source *s);

void		bc_key_source_init_token(bc_key_source *s, int64_t token,
									 const uint8_t *key, size_t len);

/* the next byte, or -1 at the end; arg is a bc_key_source (a bc_trie_byte_fn) */
int			bc_key_source_next(void *arg);

/* The whole form into out (cap bytes): its length, which may be more than
 * cap (then only cap bytes were written). */
size_t		bc_key_encode(bc_key_source *s, uint8_t *out, size_t cap);

/* the hash byte of a key's leaf: the low byte of its murmur3 h2
 * (DecoratedKey.filterHashLowerBits) */
uint8_t		bc_key_hash_byte(const uint8_t *key, size_t len);

/* the frames of an ms lookup without bc_trie_sstable_frames */
#define BC_TRIE_OWN_FRAMES 32

/*
 * A trie-indexed SSTable: its Partitions.db trie, Rows.db and the
 * uncompressed Data.db (bc_data_reader, compressed or not), and what was
 * read of Rows.db and Data.db.
 */
typedef struct bc_trie_sstable
{
	bc_trie		trie;
	const bc_reader *rows;
	bc_data_reader *data;
	bc_partitioner partitioner;
	int			typed_keys;		/* ScyllaDB ms */
	int			legacy_form;	/* DataStax aa .. bb: LEGACY key forms */
	bc_trie_frame *frames;		/* bc_trie_sstable_frames, or NULL */
	size_t		frame_cap;
	bc_trie_frame own_frames[BC_TRIE_OWN_FRAMES];
	uint64_t	rows_reads,
				rows_bytes,
				data_reads,
				data_bytes;
} bc_trie_sstable;

/*
 * version: the SSTable's version ("da", "ea", "eb", "bb", "mt", "ms"); partitions: its
 * Partitions.db and footer (bc_partitions_footer_parse); rows: Rows.db (of
 * size 0 when every partition is small); data: its Data.db.
 * BC_ERR_VERSION_UNKNOWN for another version, BC_ERR_PARTITIONS_FORMAT.
 */
bc_status	bc_trie_sstable_init(bc_trie_sstable *s, const char *version, size_t version_len,
								 bc_partitioner p, const bc_reader *partitions,
								 const bc_partitions_footer *f, const bc_reader *rows,
								 bc_data_reader *data);

/*
 * The stack (cap frames) of an ms lookup's walk of the keys of one token,
 * for a trie deeper there than BC_TRIE_OWN_FRAMES levels (else
 * BC_ERR_TRIE_DEPTH).  The frames stay the caller's.
 */
void		bc_trie_sstable_frames(bc_trie_sstable *s, bc_trie_frame *frames, size_t cap);

/*
 * Every partition key in the SSTable's order (token order), one a call of
 * bc_trie_keys_next: the leaves of the trie, and each one's key read whole
 * from Rows.db or Data.db.  Each key's byte-comparable form must start
 * with its leaf's prefix, and be that prefix whole at a leaf with children
 * (BC_ERR_TRIE_KEY otherwise; for ms, only the prefix's token part is
 * checked), which also makes the keys strictly increasing; a leaf's hash
 * byte must be its key's (BC_ERR_TRIE_HASH).  At the end, the number
 * of keys must be the footer's (BC_ERR_TRIE_COUNT).  Memory: this
 * structure (one key) and the caller's frames.
 */
typedef struct bc_trie_keys
{
	bc_trie_sstable *s;
	bc_trie_iter it;
	uint64_t	count;
	int			state;			/* 0 running, 1 done, 2 failed, 3 finished */
	bc_trie_payload payload;	/* the last key's leaf */
	size_t		key_len;
	uint8_t		key[BC_TRIE_KEY_MAX];
} bc_trie_keys;

bc_status	bc_trie_keys_init(bc_trie_keys *k, bc_trie_sstable *s,
							  bc_trie_frame *frames, size_t cap);

/* The next key (*key points into k, valid until the next call), or *done =
 * 1 at the end. */
bc_status	bc_trie_keys_next(bc_trie_keys *k, const uint8_t **key, size_t *len, int *done);

/*
 * The position in the uncompressed Data.db of the partition of the key
 * bc_trie_keys_next gave last: the leaf's own, or the one its Rows.db entry
 * holds after the key (*from_rows set).  BC_ERR_TRIE_POSITION when the
 * entry runs past Rows.db, BC_ERR_PARTITION_POSITION for one over 2^63 - 1,
 * BC_ERR_CURSOR_STATE before a key or after the end.
 */
bc_status	bc_trie_keys_position(bc_trie_keys *k, uint64_t *position, int *from_rows);

/* The component a status of the readers above concerns: "Data.db" for a
 * key or chunk that cannot be read at a leaf's position, else
 * "Partitions.db". */
const char *bc_trie_keys_component(bc_status st);

/* End an iteration, at its end or before (nothing to free). */
void		bc_trie_keys_finish(bc_trie_keys *k);

/*
 * Whether the SSTable has the partition key: its form walked down the trie
 * to one leaf, the one key at the leaf's position read and compared, then
 * the leaf's hash byte with the key's (BC_ERR_TRIE_HASH when the key is
 * there under another byte) (ms: the token part
 * walked, then each key of that token's leaves compared).  s->trie.stats,
 * s->rows_* and s->data_* count what was read.  BC_ERR_TRIE_ENCODING for
 * ms under another partitioner than Murmur3; the trie's statuses;
 * BC_ERR_TRIE_POSITION.
 */
bc_status	bc_trie_has_key(bc_trie_sstable *s, const uint8_t *key, size_t len, int *present);

#endif							/* BC_TRIE_KEYS_H */
