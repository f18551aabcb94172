/*
 * unit_trie.h - helpers of the trie-indexed SSTable suites (unit_trie.c):
 * an SSTable's components read from test/data into memory, its keys read
 * through bc_trie_keys, and the exact lookups of its keys and of many
 * absent ones.
 */
#ifndef UNIT_TRIE_H
#define UNIT_TRIE_H

#include <stddef.h>
#include <stdint.h>

#include "bc_compression.h"
#include "bc_data.h"
#include "bc_partitioner.h"
#include "bc_partitions.h"
#include "bc_trie.h"
#include "bc_trie_keys.h"
#include "unit.h"

/* an SSTable's components in memory, with readers over them */
typedef struct unit_trie_sst
{
	uint8_t    *parts,
			   *rows,
			   *data,
			   *cinfo,
			   *filt;
	size_t		plen,
				rlen,
				dlen,
				clen,
				flen;
	unit_mem	mp,
				mr,
				md;
	bc_reader	rp,
				rr,
				rd;
	bc_compression_info ci;
	uint8_t    *chunk;
	bc_data_reader dr;
	bc_partitions_footer foot;
	const uint8_t *first,
			   *last;
	size_t		first_len,
				last_len;
} unit_trie_sst;

/* the keys of one SSTable, malloc'd */
typedef struct unit_keylist
{
	size_t		n;
	uint8_t   **k;
	size_t	   *l;
} unit_keylist;

/* stacks for the readers: the deepest trie, and a small one */
extern bc_trie_frame unit_trie_frames[BC_TRIE_MAX_DEPTH];
extern bc_trie_frame unit_trie_frames64[64];

/*
 * Read <dir>/<desc>-<component> (dir relative to test/data) and open the
 * Data.db reader (CompressionInfo.db when there is one).  -1 when a
 * component is missing or does not parse.
 */
int			unit_trie_open(unit_trie_sst *s, const char *dir, const char *desc,
						   const char *version);
void		unit_trie_close(unit_trie_sst *s);
void		unit_keylist_free(unit_keylist *kl);
int			unit_keylist_has(const unit_keylist *kl, const uint8_t *k, size_t l);

/* the SSTable order of two keys: token (Murmur3), then bytes */
int			unit_trie_key_cmp(bc_partitioner p, const uint8_t *a, size_t al,
							  const uint8_t *b, size_t bl);

/* every key through bc_trie_keys (malloc'd copies); the status at the end */
bc_status	unit_trie_read_keys(unit_trie_sst *s, const char *version, bc_partitioner p,
								unit_keylist *kl);

/*
 * bc_trie_has_key for every key of kl (found) and for many absent ones:
 * near the present keys (longer, shorter, a byte changed) and random
 * ones; none found, each lookup bounded.  For a Murmur3 SSTable not of
 * version ms, the same again read as ms.
 */
void		unit_trie_check_lookups(unit_trie_sst *s, const char *version, bc_partitioner p,
									const unit_keylist *kl, const char *what);

#endif
