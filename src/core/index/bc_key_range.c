/*
 * bc_key_range.c - an SSTable's first and last partition keys from its
 * files, read through the caller's bc_reader: the footer of a trie-indexed
 * Partitions.db (Cassandra's PartitionIndex, ScyllaDB's ms and mt), or a
 * walk of Index.db in bounded pieces (BIG SSTables without Summary.db, and
 * the keys bloomcass-load uploads).
 */
#include <string.h>

#include "bc_key_range.h"

bc_status
bc_partitions_range(const bc_reader *r, uint8_t *keys, bc_partitions_footer *footer,
					const uint8_t **first, size_t *first_len,
					const uint8_t **last, size_t *last_len)
{
	uint8_t		tail[BC_PARTITIONS_FOOTER];
	uint64_t	keys_len;
	size_t		got;
	bc_status	rc;

	memset(footer, 0, sizeof(*footer));
	*first = *last = NULL;
	*first_len = *last_len = 0;
	/* the checks of bc_partitions_footer_parse, which names their readers */
	if (r->size < BC_PARTITIONS_FOOTER)
		return BC_ERR_PARTITIONS_TRUNCATED;
	if (r->read(r->arg, r->size - BC_PARTITIONS_FOOTER, tail, BC_PARTITIONS_FOOTER, &got) != 0)
		return BC_ERR_READ;
	if (got != BC_PARTITIONS_FOOTER)
		return BC_ERR_PARTITIONS_TRUNCATED;
	rc = bc_partitions_footer_parse(tail, r->size, footer);
	if (rc != BC_OK)
		return rc;

	/*
	 * The footer parser has checked keys_pos <= size - footer.  Two keys
	 * take at most BC_PARTITIONS_MAX_KEYS bytes; what follows them up to
	 * the footer is ignored (bc_partitions_keys_parse, as the readers do),
	 * so no more is read (memory: the caller's buffer).
	 */
	keys_len = r->size - BC_PARTITIONS_FOOTER - footer->keys_pos;
	if (keys_len > BC_PARTITIONS_MAX_KEYS)
		keys_len = BC_PARTITIONS_MAX_KEYS;
	if (r->read(r->arg, footer->keys_pos, keys, (size_t) keys_len, &got) != 0)
		return BC_ERR_READ;
	/* the file is shorter than its size said: a short read */
	if (got != keys_len)
		return BC_ERR_PARTITIONS_TRUNCATED;
	rc = bc_partitions_keys_parse(keys, (size_t) keys_len, first, first_len, last, last_len);
	if (rc == BC_OK)
		rc = bc_partitions_keys_check(footer, *first, *first_len, *last, *last_len);
	if (rc != BC_OK || footer->key_count == 0)
	{
		*first = *last = NULL;
		*first_len = *last_len = 0;
	}
	return rc;
}

bc_status
bc_index_walk_run(bc_index_walk *w, const bc_reader *r,
				  const char *version, size_t version_len,
				  uint8_t *piece, size_t piece_len,
				  int (*fn) (void *arg, const bc_index_entry *e), void *arg)
{
	uint64_t	offset = 0;
	bc_index_entry e;
	bc_status	rc;

	w->nkeys = 0;
	w->first_len = w->last_len = 0;
	rc = bc_index_init(&w->cursor, version, version_len);
	if (rc != BC_OK)
		return rc;
	bc_index_set_order(&w->cursor, w->order);
	for (;;)
	{
		size_t		got;
		int			have;

		if (r->read(r->arg, offset, piece, piece_len, &got) != 0)
			return BC_ERR_READ;
		if (got == 0)
			break;
		offset += got;
		rc = bc_index_feed(&w->cursor, piece, got);
		while (rc == BC_OK)
		{
			rc = bc_index_next(&w->cursor, &e, &have);
			if (rc != BC_OK || !have)
				break;
			if (w->samples != NULL && (rc = bc_index_samples_check(w->samples, &e)) != BC_OK)
				return rc;
			if (fn != NULL && fn(arg, &e))
				return BC_ERR_STOPPED;
			if (w->nkeys++ == 0)
			{
				memcpy(w->first, e.key, e.key_len);
				w->first_len = e.key_len;
			}
			memcpy(w->last, e.key, e.key_len);
			w->last_len = e.key_len;
		}
		if (rc != BC_OK)
			return rc;
	}
	return bc_index_finish(&w->cursor);
}

/* the key bc_index_walk_find looks for */
typedef struct sought
{
	const uint8_t *key;
	size_t		len;
} sought;

static int
is_sought(void *arg, const bc_index_entry *e)
{
	const sought *k = arg;

	return e->key_len == k->len && (k->len == 0 || memcmp(e->key, k->key, k->len) == 0);
}

bc_status
bc_index_walk_find(bc_index_walk *w, const bc_reader *r, const char *version,
				   size_t version_len, uint8_t *piece, size_t piece_len,
				   const uint8_t *key, size_t key_len, int *found)
{
	sought		k = {key, key_len};
	bc_status	rc = bc_index_walk_run(w, r, version, version_len, piece, piece_len,
									   is_sought, &k);

	*found = rc == BC_ERR_STOPPED;
	return *found ? BC_OK : rc;
}
