/*
 * bc_murmur3.h - the hash of a partition key as Cassandra computes it
 * (MurmurHash.hash3_x64_128, seed 0) and its token
 * (Murmur3Partitioner.getToken).
 */
#ifndef BC_MURMUR3_H
#define BC_MURMUR3_H

#include <stddef.h>
#include <stdint.h>

/* Cassandra's MurmurHash.hash3_x64_128(key, seed 0): tail bytes sign-extended. */
void		bc_murmur3(const void *data, size_t len, int64_t *h1, int64_t *h2);

/* Murmur3Partitioner token: INT64_MIN for an empty key, h1 otherwise with
 * INT64_MIN replaced by INT64_MAX. */
int64_t		bc_token(const void *data, size_t len);

/* the same from a key's length and h1 (for the core and its tests) */
int64_t		bc_token_from_h1(size_t len, int64_t h1);

#endif							/* BC_MURMUR3_H */
