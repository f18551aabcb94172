/*
 * bloom_cqlkey.h - marshal type strings and key text for the other glue
 * (bloom_cqlkey.c): the typed probes (bloom_typed_key.c) parse their
 * key_type and the text of a key as cassandra_key_parse does, with its
 * errors.
 */
#ifndef BLOOM_CQLKEY_H
#define BLOOM_CQLKEY_H

#include "bc_cqltype.h"
#include "bloomcass.h"

/*
 * The marshal type string s[0 .. len), parsed, cached in *slot (memory of
 * mcxt) while the same string comes back; a string that is none is an
 * ERROR (22023, DynamicCompositeType 0A000) naming it.
 */
extern BLOOM_INTERNAL const bc_cqltype *bloom_cql_type_cached(void **slot, MemoryContext mcxt,
															  const char *s, size_t len);

/*
 * The key's bytes from its text value[0 .. value_len) (the server's
 * encoding) under t, whose string type_s names it in errors: as
 * AbstractType.fromString reads it (cassandra_key_parse); text that does
 * not parse is 22P02 naming both.
 */
extern BLOOM_INTERNAL bytea *bloom_cql_key_from_text(const bc_cqltype *t, const char *type_s,
													 size_t type_len, const char *value,
													 size_t value_len);

#endif							/* BLOOM_CQLKEY_H */
