/*
 * bc_partitioner.h - the partitioners of a Cassandra table and the order
 * they give partition keys (bc_partitioner.c): the order of Index.db,
 * Summary.db and a trie-indexed Partitions.db, which exact lookups search
 * (bc_lookup.c, bc_trie_keys.c).
 */
#ifndef BC_PARTITIONER_H
#define BC_PARTITIONER_H

#include <stddef.h>
#include <stdint.h>

/* the partitioners whose key order bloomcass knows */
typedef enum bc_partitioner
{
	BC_PARTITIONER_OTHER = 0,	/* LocalPartitioner, OrderPreserving..., unknown */
	BC_PARTITIONER_MURMUR3,		/* Murmur3Partitioner: LongToken */
	BC_PARTITIONER_RANDOM,		/* RandomPartitioner: abs(MD5) BigIntegerToken */
	BC_PARTITIONER_BYTE_ORDERED /* ByteOrderedPartitioner: BytesToken */
} bc_partitioner;

/* the partitioner of a class name (with or without its package) */
bc_partitioner bc_partitioner_of(const char *name, size_t len);

/* MD5 of data into out, for RandomPartitioner: the caller's library */
typedef void (*bc_md5_fn) (const void *data, size_t len, uint8_t out[16]);

/*
 * Cassandra's DecoratedKey.compareTo under partitioner p: the tokens, then
 * the key bytes unsigned.  md5 is used for BC_PARTITIONER_RANDOM only.
 * Negative, zero or positive as a sorts before, with or after b; for
 * BC_PARTITIONER_OTHER (and RANDOM without md5) 0 unless the keys are
 * different, then 2: no order is known.
 */
int			bc_decorated_cmp(bc_partitioner p, bc_md5_fn md5,
							 const uint8_t *a, size_t a_len,
							 const uint8_t *b, size_t b_len);

/*
 * Keys read one after another, checked to be in the partitioner's order:
 * each must not sort before the one read last (bc_key_order_next).  The
 * previous key is copied here (keys are at most 65535 bytes: Index.db's
 * and Data.db's 16-bit lengths), and its token kept, so a key's token is
 * computed once.  With BC_PARTITIONER_OTHER, or RANDOM without md5, no
 * order is known and every key is accepted.
 */
#define BC_KEY_ORDER_MAX_KEY 65535

typedef struct bc_key_order
{
	bc_partitioner p;
	bc_md5_fn	md5;
	int			have;			/* a previous key is kept */
	uint8_t		token[16];		/* its token, comparable bytes */
	size_t		len;
	uint8_t		prev[BC_KEY_ORDER_MAX_KEY];
} bc_key_order;

void		bc_key_order_init(bc_key_order *o, bc_partitioner p, bc_md5_fn md5);

/* 1 when key does not sort before the previous key (then it becomes the
 * previous key), 0 when it does; a key over BC_KEY_ORDER_MAX_KEY bytes is
 * out of order */
int			bc_key_order_next(bc_key_order *o, const uint8_t *key, size_t len);

#endif							/* BC_PARTITIONER_H */
