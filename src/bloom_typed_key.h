/*
 * bloom_typed_key.h - a PostgreSQL value serialized as the CQL type of a
 * partition key (bloom_typed_key.c): the typed probes bloom_contains(filter,
 * key, key_type), bloom_contains_each(filter, keys, key_type) and
 * bloom_may_contain(filter, keys, key_type), and cassandra_sstable_has_key
 * under the SSTable's own key type.
 */
#ifndef BLOOM_TYPED_KEY_H
#define BLOOM_TYPED_KEY_H

#include "bloomcass.h"

/* a call site's state: the key type parsed, how values of the argument's
 * type become its bytes */
typedef struct BloomTypedKey BloomTypedKey;

/*
 * The state for values of type valtype (UNKNOWNOID: an untyped literal,
 * passed as a cstring) under the marshal type or CQL name key_type[0 ..
 * key_type_len), kept in *slot (memory of mcxt) and reused while both come
 * back.  key_type NULL: no key type, the value serialized as @> serializes
 * it (an untyped literal as text).  A key_type that is no type is 22023; a
 * value type that cannot be written as it 42804 naming both.
 */
extern BLOOM_INTERNAL BloomTypedKey *bloom_typed_key_prepare(BloomTypedKey **slot, MemoryContext mcxt,
															 Oid valtype, const char *key_type,
															 size_t key_type_len);

/*
 * The key's bytes: into the value, or into memory tk owns until the next
 * call.  A value the type cannot hold is 22003 naming both types.
 */
extern BLOOM_INTERNAL const uint8 *bloom_typed_key_bytes(BloomTypedKey *tk, Datum value, size_t *len);

#endif							/* BLOOM_TYPED_KEY_H */
