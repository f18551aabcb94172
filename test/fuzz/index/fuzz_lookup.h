/*
 * fuzz_lookup.h - what fuzz_lookup.c (the partitioners' order, lookups of
 * arbitrary pairs, the keys-versus-lookup agreement) shares with
 * fuzz_lookup_pair.c (the valid pairs it writes, and their damaged
 * copies).
 */
#ifndef FUZZ_LOOKUP_H
#define FUZZ_LOOKUP_H

#include <stddef.h>
#include <stdint.h>

#include "bc_index.h"
#include "bc_lookup.h"
#include "bc_partitioner.h"
#include "bc_status.h"
#include "fuzz.h"

/* keys of a synthesized SSTable, at most, and their longest; Index.db
 * entries compared with the answers, at most */
#define LOOKUP_MAX_KEYS 64
#define LOOKUP_KEY_MAX 32
#define LOOKUP_MAX_ENTRIES 4096

/* RandomPartitioner's token: a stand-in for MD5 */
void		lk_fake_md5(const void *data, size_t len, uint8_t out[16]);
int			lk_bytes_cmp(const uint8_t *a, size_t al, const uint8_t *b, size_t bl);

/* DecoratedKey.compareTo: the tokens, then the bytes; 2 for no order */
int			lk_ref_cmp(bc_partitioner p, int md5, const uint8_t *a, size_t al,
					   const uint8_t *b, size_t bl);

typedef struct entries
{
	size_t		n;
	const uint8_t *k[LOOKUP_MAX_ENTRIES];
	size_t		l[LOOKUP_MAX_ENTRIES];
	int			sorted;			/* in the partitioner's order */
	bc_partitioner p;
	int			md5;
} entries;

/* bc_index_parse's callback filling an entries; whether one holds a key */
int			lk_collect(const bc_index_entry *e, void *arg);
int			lk_has_entry(const entries *es, const uint8_t *k, size_t l);

/* one lookup: the status (checked), *found */
bc_status	lk_lookup(const uint8_t *sum, size_t sl, int with_summary, const uint8_t *idx,
					  size_t il, const char *v, bc_partitioner p, int md5, const uint8_t *k,
					  size_t kl, uint8_t *scratch, int *found, bc_lookup_stats *stats);

/* the keys-versus-lookup agreement (every listed key looked up when all) */
void		lk_agreement(const uint8_t *sum, size_t sl, int with_summary, const uint8_t *idx,
						 size_t il, const char *v, bc_partitioner p, int md5, int all,
						 uint8_t *scratch);

/* fuzz_lookup_pair.c: a valid pair written from keys of the input */
void		lk_valid_pair(const uint8_t *data, size_t len, const key_ref *probes, int nprobes,
						  uint8_t *scratch);

#endif							/* FUZZ_LOOKUP_H */
