/*
 * bc_index.c
 *
 * Incremental reader of a BIG SSTable's Index.db: every partition key in
 * file order, from chunks of any size.
 *
 * An entry is BE16 key length, the key, the partition's position in
 * Data.db and the size of its promoted index, then that many bytes of
 * promoted index (column index blocks), which we skip without reading.
 * Cassandra 1.2 to 2.2 (ia .. lb) write the position as a BE64 and the
 * size as a BE32; 3.0 and later (ma ..) as two unsigned vints.  Index.db
 * files reach gigabytes and a promoted index can be large, so nothing but
 * the current key (when it spans two chunks) and a few bytes of a number
 * is ever kept.
 *
 * The file has no header, count or checksum.  What we can check: every
 * entry is complete, sizes are representable, and the Data.db positions
 * start at 0 and strictly increase (each partition takes at least one
 * byte), which is what catches most garbage after the last entry.  An
 * entry's length against the entries Summary.db samples is
 * bc_index_samples.c's check.
 *
 * The readers: Cassandra's RowIndexEntry.Serializer (deserialize, skip and
 * skipPromotedIndex; 5.0: format/big/RowIndexEntry.java) under
 * KeyIterator (5.0: BigTableKeyReader), BigTableScanner and the verifier
 * (Verifier.verify; 5.0: SortedTableVerifier.verifySSTable), and
 * ScyllaDB's sstables/index_reader.hh, index_consume_entry_context (ka,
 * la, mc, md, me).  An entry is accepted when one reader of its version
 * takes it with one meaning; each check below names the reader check it
 * mirrors, or says why it is kept where the readers do not check.
 */
#include <string.h>

#include "bc_codec.h"
#include "bc_endian.h"
#include "bc_filter.h"
#include "bc_index.h"
#include "bc_private.h"
#include "bc_status.h"

enum
{
	ST_KEYLEN = 0,				/* reading the BE16 key length */
	ST_KEY,						/* reading key bytes */
	ST_POSITION,				/* reading the position */
	ST_SIZE,					/* reading the promoted index size */
	ST_SKIP,					/* skipping the promoted index */
	ST_DONE						/* finished, or failed (c->error) */
};

bc_status
bc_index_era_lookup(const char *version, size_t len, bc_index_era *era)
{
	bc_order	order;
	bc_layout	layout;
	bc_status	st;

	/*
	 * Which layout, by version (BigFormat.BigVersion: storeRows and the
	 * vints from "ma"; ScyllaDB's sstable_version_types).
	 *
	 * ScyllaDB's ms and mt index partitions with a Partitions.db trie and
	 * write no Index.db or Summary.db (scylladb/scylladb sstables/sstables.cc,
	 * has_summary_and_index() is false for both)
	 */
	if (len == 2 && version[0] == 'm' && (version[1] == 's' || version[1] == 't'))
		return BC_ERR_INDEX_BTI;
	/* trie-indexed: Cassandra 5.0's da, 6.0's ea, eb, DataStax's aa .. cc */
	if (len == 2 && (version[0] == 'a' || version[0] == 'b' ||
					 version[0] == 'c' || version[0] == 'd' || version[0] == 'e') &&
		version[1] >= 'a' && version[1] <= 'z')
		return BC_ERR_INDEX_BTI;
	st = bc_version_lookup(version, len, &order, &layout);
	if (st != BC_OK)
		return st;
	switch (version[0])
	{
		case 'i':
			*era = BC_INDEX_ERA_12;
			break;
		case 'j':
			*era = BC_INDEX_ERA_20;
			break;
		case 'k':
		case 'l':
			*era = BC_INDEX_ERA_21;
			break;
		default:
			*era = BC_INDEX_ERA_30;
			break;
	}
	return BC_OK;
}

int
bc_index_negative_size_is_none(const char *version, size_t len)
{
	/*
	 * Up to 2.2 the promoted index size is a BE32, a Java int: Cassandra's
	 * RowIndexEntry.Serializer.skipPromotedIndex (1.2 - 3.11) takes a size
	 * <= 0 as "no promoted index" and reads the next entry right after it.
	 * ScyllaDB reads the same field of ka and la unsigned and skips 2 GiB
	 * or more (index_consume_entry_context, read_32): for those two the
	 * readers disagree on what such a size means, and it is refused.
	 */
	return !(len == 2 && (version[0] == 'k' || version[0] == 'l') && version[1] == 'a');
}

bc_status
bc_index_promoted_size(bc_index_era era, int negative_is_none, uint64_t raw,
					   uint64_t *size)
{
	*size = 0;
	if (era != BC_INDEX_ERA_30)
	{
		/* a BE32: 2^31 and more is a negative Java int (see above) */
		if (raw > (uint64_t) INT32_MAX)
			return negative_is_none ? BC_OK : BC_ERR_INDEX_LENGTH;
	}

	/*
	 * An unsigned vint from 3.0 on: 5.0 reads it with readUnsignedVInt32
	 * and refuses one over 2^31 - 1 (VIntCoding.checkedCast,
	 * VIntOutOfRangeException); 3.0 - 4.1 cast it to an int (its low 32
	 * bits, "no promoted index" when negative) and ScyllaDB to 32 unsigned
	 * bits: the readers disagree on its meaning, so it is refused, as 5.0
	 * does.
	 */
	else if (raw > (uint64_t) INT32_MAX)
		return BC_ERR_INDEX_LENGTH;
	*size = raw;
	return BC_OK;
}

bc_status
bc_index_init(bc_index_cursor *c, const char *version, size_t len)
{
	bc_status	st;

	memset(c, 0, offsetof(bc_index_cursor, keybuf));
	c->state = ST_DONE;
	c->error = BC_ERR_CURSOR_STATE;
	st = bc_index_era_lookup(version, len, &c->era);
	if (st != BC_OK)
	{
		c->error = st;
		return st;
	}
	c->negative_size_is_none = bc_index_negative_size_is_none(version, len);
	c->state = ST_KEYLEN;
	c->error = BC_OK;
	c->num_need = 2;
	return BC_OK;
}

void
bc_index_set_order(bc_index_cursor *c, bc_key_order *o)
{
	c->order = o;
}

bc_status
bc_index_feed(bc_index_cursor *c, const uint8_t *data, size_t len)
{
	if (c->error != BC_OK)
		return c->error;
	if (c->state == ST_DONE || c->inlen != 0)
	{
		/* losing the unread part of the previous chunk would lose keys */
		c->error = BC_ERR_CURSOR_STATE;
		c->state = ST_DONE;
		return c->error;
	}
	c->in = data;
	c->inlen = len;
	return BC_OK;
}

static bc_status
fail(bc_index_cursor *c, bc_status st)
{
	c->error = st;
	c->state = ST_DONE;
	c->inlen = 0;
	return st;
}

/* Move up to n bytes of input into num[]; 1 once num_need bytes are there. */
static int
gather(bc_index_cursor *c)
{
	size_t		n = c->num_need - c->num_have;

	if (n > c->inlen)
		n = c->inlen;
	if (n == 0)
		return c->num_have == c->num_need;
	memcpy(c->num + c->num_have, c->in, n);
	c->num_have += n;
	c->in += n;
	c->inlen -= n;
	c->offset += n;
	return c->num_have == c->num_need;
}

/* An unsigned vint (bc_uvint_decode), gathered across chunks; returns 1
 * once complete. */
static int
gather_vint(bc_index_cursor *c, uint64_t *v)
{
	if (c->num_have == 0)
	{
		c->num_need = 1;
		if (!gather(c))
			return 0;
		c->num_need = 1 + (size_t) bc_uvint_extra(c->num[0]);
	}
	if (!gather(c))
		return 0;
	*v = bc_uvint_decode(c->num, (int) c->num_need - 1);
	return 1;
}

/*
 * While a key is being completed, a position or size may still be cut by
 * the end of the chunk; a key that points into that chunk is copied first,
 * since the caller may reuse the chunk's memory.
 */
static void
save_key(bc_index_cursor *c)
{
	if (c->key != c->keybuf && c->key_len > 0)
		memcpy(c->keybuf, c->key, c->key_len);
	c->key = c->keybuf;
}

/*
 * The entry's next number: an unsigned vint from 3.0 on, else a big-endian
 * integer of c->num_need bytes (8 for a position, 4 for a size).  Returns 0
 * when the chunk ends first (the key then saved, see above).
 */
static int
read_number(bc_index_cursor *c, uint64_t *v)
{
	if (c->era == BC_INDEX_ERA_30)
	{
		if (gather_vint(c, v))
			return 1;
	}
	else if (gather(c))
	{
		*v = c->num_need == 8 ? bc_get_be64(c->num) : bc_get_be32(c->num);
		return 1;
	}
	save_key(c);
	return 0;
}

bc_status
bc_index_next(bc_index_cursor *c, bc_index_entry *e, int *got)
{
	*got = 0;
	if (c->error != BC_OK)
		return c->error;
	for (;;)
	{
		switch (c->state)
		{
			case ST_KEYLEN:
				if (c->inlen == 0)
					return BC_OK;	/* clean boundary: feed more or finish */
				if (c->num_have == 0)
					c->entry_offset = c->offset;
				if (!gather(c))
					return BC_OK;
				c->key_len = ((size_t) c->num[0] << 8) | c->num[1];
				c->key_have = 0;
				c->key = c->keybuf;
				c->num_have = 0;
				c->state = ST_KEY;
				break;

			case ST_KEY:
				if (c->inlen == 0 && c->key_have < c->key_len)
					return BC_OK;
				if (c->key_have == 0 && c->inlen >= c->key_len)
				{
					/* the whole key is in this chunk: no copy */
					c->key = c->in;
					c->key_have = c->key_len;
					c->in += c->key_len;
					c->inlen -= c->key_len;
					c->offset += c->key_len;
				}
				else
				{
					size_t		n = c->key_len - c->key_have;

					if (n > c->inlen)
						n = c->inlen;
					memcpy(c->keybuf + c->key_have, c->in, n);
					c->key_have += n;
					c->key = c->keybuf;
					c->in += n;
					c->inlen -= n;
					c->offset += n;
					if (c->key_have < c->key_len)
						return BC_OK;
				}
				c->state = ST_POSITION;
				c->num_have = 0;
				c->num_need = 8;
				break;

			case ST_POSITION:
				{
					uint64_t	v;

					if (!read_number(c, &v))
						return BC_OK;

					/*
					 * Cassandra reads the position as a long (readLong,
					 * readUnsignedVInt): 2^63 and more is negative, which
					 * its scanner and verifier cannot seek to
					 * (RandomAccessReader.seek: "new position should not
					 * be negative"); bloomcass reports it as a bigint.
					 */
					if (v > (uint64_t) INT64_MAX)
						return fail(c, BC_ERR_INDEX_LENGTH);

					/*
					 * The verifier reads each indexed partition at its
					 * position and requires the next one where it ends,
					 * keys in order (Verifier.verify, 5.0
					 * SortedTableVerifier.verifySSTable: "Key out of
					 * order"): positions strictly increase.  The readers
					 * that only list keys or seek to one do not compare
					 * them; kept, as it is what tells an Index.db from
					 * garbage after its end or another file.
					 */
					if (c->nkeys > 0 && (int64_t) v <= c->position)
						return fail(c, BC_ERR_INDEX_ORDER);

					/*
					 * Data.db has no header: every writer puts the first
					 * partition at 0, and the verifier and the scrubber
					 * require it (Verifier.verify, 5.0
					 * SortedTableVerifier.verifySSTable:
					 * "firstRowPositionFromIndex != 0"; Scrubber: assert
					 * firstRowPositionFromIndex == 0).  Another position
					 * would give the first partition a place and a size
					 * it does not have (cassandra_sstable_partitions).
					 */
					if (c->nkeys == 0 && v != 0)
						return fail(c, BC_ERR_INDEX_FIRST_POSITION);
					c->position = (int64_t) v;
					c->num_have = 0;
					c->num_need = 4;
					c->state = ST_SIZE;
					break;
				}

			case ST_SIZE:
				{
					uint64_t	v,
								size;
					bc_status	st;

					if (!read_number(c, &v))
						return BC_OK;
					st = bc_index_promoted_size(c->era, c->negative_size_is_none, v, &size);
					if (st != BC_OK)
						return fail(c, st);

					/*
					 * Keys in the partitioner's order: Cassandra's writer
					 * refuses a key not after the last one
					 * (SSTableWriter.beforeAppend, "Last written key %s
					 * >= current key %s") and its verifier one before it
					 * (Verifier.verify, 5.0 SortedTableVerifier:
					 * "Key out of order").  A lookup stops at the first
					 * key past the one it seeks (bc_lookup.c): a key
					 * listed out of order is one a lookup does not find.
					 */
					if (c->order != NULL && !bc_key_order_next(c->order, c->key, c->key_len))
						return fail(c, BC_ERR_INDEX_KEY_ORDER);
					c->promoted = (int64_t) size;
					c->skip = size;
					c->num_have = 0;
					c->state = ST_SKIP;

					e->key = c->key;
					e->key_len = c->key_len;
					e->position = c->position;
					e->promoted_size = c->promoted;
					e->index_offset = c->entry_offset;
					e->next_offset = c->offset + size;
					e->ordinal = c->nkeys++;
					*got = 1;
					return BC_OK;
				}

			case ST_SKIP:
				{
					uint64_t	n = c->skip;

					if (n > c->inlen)
						n = c->inlen;
					c->in += n;
					c->inlen -= (size_t) n;
					c->offset += n;
					c->skip -= n;
					if (c->skip > 0)
						return BC_OK;
					c->state = ST_KEYLEN;
					c->num_have = 0;
					c->num_need = 2;
					break;
				}

			default:
				return c->error != BC_OK ? c->error : BC_ERR_CURSOR_STATE;
		}
	}
}

bc_status
bc_index_finish(bc_index_cursor *c)
{
	if (c->error != BC_OK)
		return c->error;
	if (c->inlen != 0)
		return fail(c, BC_ERR_CURSOR_STATE);

	/*
	 * The end of the file inside an entry (its key, a number, or the
	 * promoted index it skips): Cassandra's EOFException
	 * (readWithShortLength, readLong / readUnsignedVInt, skipBytesFully:
	 * "EOF after %d bytes out of %d"); ScyllaDB's verify_end_state,
	 * "cannot finish parsing current entry, no more data".
	 */
	if (c->state != ST_KEYLEN || c->num_have != 0)
		return fail(c, BC_ERR_INDEX_TRUNCATED);
	c->state = ST_DONE;
	c->error = BC_ERR_CURSOR_STATE;	/* nothing more may be fed */
	return BC_OK;
}

bc_status
bc_index_parse(const char *version, size_t vlen,
			   const uint8_t *data, size_t len,
			   int (*fn) (const bc_index_entry *e, void *arg),
			   void *arg, uint64_t *nkeys)
{
	/* on the stack: about 64 kB, though with the whole file in one chunk
	 * the key buffer is never used */
	bc_index_cursor c;
	bc_index_entry e;
	bc_status	st;
	int			got;

	*nkeys = 0;
	st = bc_index_init(&c, version, vlen);
	if (st != BC_OK)
		return st;
	st = bc_index_feed(&c, data, len);
	if (st != BC_OK)
		return st;
	for (;;)
	{
		st = bc_index_next(&c, &e, &got);
		if (st != BC_OK)
			return st;
		if (!got)
			break;
		*nkeys = c.nkeys;
		if (fn != NULL && fn(&e, arg) != 0)
			return BC_OK;
	}
	return bc_index_finish(&c);
}
