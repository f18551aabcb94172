/*
 * bc_index.h - the Index.db of a BIG SSTable (bc_index.c): every partition
 * key in file order, through an incremental cursor or from a whole file.
 *
 * Index.db is a sequence of entries, one per partition in Data.db order:
 * BE16 key length, key, then the Data.db position and the size of the
 * promoted (row) index that follows: BE64 + BE32 for ia .. lb, two
 * unsigned vints for ma and later.  It has no header, count or footer, so
 * a file cut exactly between two entries cannot be told from a complete
 * one; compare the last key with Summary.db's (bc_summary.h) for that.
 * Trie-indexed SSTables (BTI da, DataStax aa .. cc; ScyllaDB's ms and mt) have
 * neither Index.db nor Summary.db: BC_ERR_INDEX_BTI.
 */
#ifndef BC_INDEX_H
#define BC_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "bc_partitioner.h"
#include "bc_status.h"

/* The layouts of Index.db and Summary.db, by SSTable version. */
typedef enum bc_index_era
{
	BC_INDEX_ERA_12 = 0,		/* ia ib ic: Summary.db is a list */
	BC_INDEX_ERA_20,			/* ja jb: off-heap summary */
	BC_INDEX_ERA_21,			/* ka la lb: and its sampling level */
	BC_INDEX_ERA_30				/* ma .. oa: vints */
} bc_index_era;

/* ia .. oa; BC_ERR_INDEX_BTI for trie versions (ms, mt too), else as
 * bc_version_lookup. */
bc_status	bc_index_era_lookup(const char *version, size_t len, bc_index_era *era);

#define BC_INDEX_MAX_KEY 65535

/*
 * The rule of an entry's promoted index size, shared with bc_lookup.c:
 * raw as read (a BE32 before ma, a vint from ma), *size the bytes to skip
 * (0 for a BE32 of 2^31 or more where negative_is_none), or
 * BC_ERR_INDEX_LENGTH.  negative_is_none from
 * bc_index_negative_size_is_none(version): 0 for ka and la only.
 */
int			bc_index_negative_size_is_none(const char *version, size_t len);
bc_status	bc_index_promoted_size(bc_index_era era, int negative_is_none,
								   uint64_t raw, uint64_t *size);

typedef struct bc_index_entry
{
	const uint8_t *key;			/* valid until the next call on the cursor */
	size_t		key_len;
	int64_t		position;		/* of the partition in (uncompressed) Data.db */
	int64_t		promoted_size;	/* bytes of row index skipped after it */
	uint64_t	index_offset;	/* of the entry in Index.db */
	uint64_t	next_offset;	/* of the entry after it, past its promoted
								 * index (bc_index_samples_check) */
	uint64_t	ordinal;		/* 0 for the first entry */
} bc_index_entry;

/* Incremental reader.  Its layout is here only so that callers can
 * allocate one: every field is private to bc_index.c.  Feed chunks of any
 * size with bc_index_feed, call bc_index_next until *got is 0 (chunk used
 * up), then feed the next one; bc_index_finish at end of file.  An error is
 * final.  About 64 kB: one key that spans chunks is copied here. */
typedef struct bc_index_cursor
{
	bc_index_era era;
	int			state;
	bc_status	error;
	const uint8_t *in;
	size_t		inlen;
	uint64_t	offset;
	uint64_t	entry_offset;
	uint64_t	nkeys;
	int64_t		position;
	int64_t		promoted;
	int			negative_size_is_none;
	uint64_t	skip;
	const uint8_t *key;
	size_t		key_len;
	size_t		key_have;
	uint8_t		num[9];
	size_t		num_have;
	size_t		num_need;
	bc_key_order *order;
	uint8_t		keybuf[BC_INDEX_MAX_KEY];
} bc_index_cursor;

bc_status	bc_index_init(bc_index_cursor *c, const char *version, size_t len);

/*
 * After bc_index_init: check every key against the partitioner's order
 * through the caller's o (bc_key_order_init'ed, living as long as the
 * cursor): a key that sorts before the one above it is
 * BC_ERR_INDEX_KEY_ORDER.  Without it, only the Data.db positions are
 * checked to increase.
 */
void		bc_index_set_order(bc_index_cursor *c, bc_key_order *o);
bc_status	bc_index_feed(bc_index_cursor *c, const uint8_t *data, size_t len);
bc_status	bc_index_next(bc_index_cursor *c, bc_index_entry *e, int *got);
bc_status	bc_index_finish(bc_index_cursor *c);

/* A whole Index.db in memory: fn (may be NULL) gets every entry and stops
 * the walk by returning non-zero; *nkeys counts the entries read.  For the
 * core and its tests (the extension and bloomcass-load read Index.db in
 * chunks). */
bc_status	bc_index_parse(const char *version, size_t vlen,
						   const uint8_t *data, size_t len,
						   int (*fn) (const bc_index_entry *e, void *arg),
						   void *arg, uint64_t *nkeys);

#endif							/* BC_INDEX_H */
