/*
 * bc_partition_sizes.c - every partition's position and size in the
 * uncompressed Data.db, one step behind the index walk that gives the
 * positions (see bc_partition_sizes.h).
 */
#include <string.h>

#include "bc_partition_sizes.h"

void
bc_partition_sizes_init(bc_partition_sizes *z, uint64_t data_length)
{
	z->data_length = data_length;
	z->count = 0;
	z->position = 0;
	z->key_len = 0;
	z->cur = 0;
}

bc_status
bc_partition_sizes_add(bc_partition_sizes *z, const uint8_t *key, size_t len,
					   uint64_t position, bc_partition *out, int *got)
{
	*got = 0;
	if (len > BC_PARTITION_KEY_MAX)
		return BC_ERR_KEY_TOO_LONG;

	/*
	 * A position past the data's end is one no reader can seek to
	 * (RandomAccessReader.seek: "Unable to seek to position ... in
	 * read-only mode"; the verifier's "dataSize > dataFile.length()"), and
	 * one before the previous partition's gives it no size: the verifier
	 * reads each partition from its index position to the next one
	 * (Verifier / SortedTableVerifier), the scanners read them in index
	 * order.  Either is an index that does not describe its Data.db.
	 */
	if (position > z->data_length || (z->count > 0 && position < z->position))
		return BC_ERR_PARTITION_POSITION;
	if (z->count > 0)
	{
		out->key = z->key[z->cur];
		out->key_len = z->key_len;
		out->position = z->position;
		out->size = position - z->position;
		*got = 1;
		z->cur ^= 1;
	}
	if (len > 0)
		memcpy(z->key[z->cur], key, len);
	z->key_len = len;
	z->position = position;
	z->count++;
	return BC_OK;
}

void
bc_partition_sizes_end(bc_partition_sizes *z, bc_partition *out, int *got)
{
	*got = 0;
	if (z->count == 0)
		return;
	out->key = z->key[z->cur];
	out->key_len = z->key_len;
	out->position = z->position;
	out->size = z->data_length - z->position;
	*got = 1;
	z->count = 0;
}

void
bc_partition_sizes_unknown_end(bc_partition_sizes *z)
{
	z->data_length = UINT64_MAX;
}
