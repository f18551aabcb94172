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

#endif							/* BC_PARTITIONER_H */
