/*
 * bc_trie_keys.c - the partition keys of a trie-indexed SSTable and the
 * lookup of one (see bc_trie_keys.h).
 *
 * A leaf's position leads to a copy of its whole key: in Rows.db (position
 * >= 0) the partition's entry starts with the key, a 16-bit big-endian
 * length then its bytes (Cassandra's RowIndexWriter / BtiTableWriter write
 * it before the row index's data position and deletion time; the
 * PartitionIndex comment: "the contents of the file at this position start
 * with a serialization of the key"); in Data.db (~position) the partition
 * starts with the same (the partition header, ByteBufferUtil.
 * writeWithShortLength of the key).
 *
 * Checks: the bytes a position leads to lie inside Rows.db or the
 * uncompressed Data.db (Cassandra reads the key there, EOFException past
 * the end: RowIndexReader, the partition header; bounds here), the leaves
 * are as many as the footer counts, and each key read starts with its
 * leaf's prefix.  The last two are not readers' rules (a lookup compares
 * the key it reads with the one sought, PartitionIndex.Reader's callers,
 * and an iteration takes what it finds): bloomcass reports the keys and
 * their count, and a key that is not its leaf's is a wrong answer.
 */
#include <string.h>

#include "bc_murmur3.h"
#include "bc_private.h"
#include "bc_trie_keys.h"

/* the token's 8 bytes in a key's form, after its 0x40 */
#define TOKEN_FORM 8

bc_status
bc_partitioner_from_name(const char *name, size_t len, bc_partitioner *out)
{
	*out = bc_partitioner_of(name, len);
	if (*out == BC_PARTITIONER_MURMUR3 || *out == BC_PARTITIONER_BYTE_ORDERED)
		return BC_OK;
	return BC_ERR_TRIE_ENCODING;
}

/* ---- the byte-comparable form ------------------------------------ */

enum
{
	ST_SEP1 = 0,				/* 0x40 */
	ST_TOKEN,					/* Murmur3's 8 bytes, or the escaped key */
	ST_SEP2,					/* 0x40 */
	ST_KEY,						/* the escaped key */
	ST_TERM,					/* 0x38 */
	ST_END
};

static void
token_bytes(uint8_t out[8], int64_t token)
{
	uint64_t	v = (uint64_t) token ^ UINT64_C(0x8000000000000000);
	int			i;

	for (i = 7; i >= 0; i--)
	{
		out[i] = (uint8_t) v;
		v >>= 8;
	}
}

void
bc_key_source_init(bc_key_source *s, bc_partitioner p, const uint8_t *key, size_t len)
{
	memset(s, 0, sizeof(*s));
	s->key = key;
	s->len = len;
	s->partitioner = p;
	if (p == BC_PARTITIONER_MURMUR3)
		token_bytes(s->token, bc_token(key, len));
}

void
bc_key_source_init_token(bc_key_source *s, int64_t token, const uint8_t *key, size_t len)
{
	memset(s, 0, sizeof(*s));
	s->key = key;
	s->len = len;
	s->partitioner = BC_PARTITIONER_MURMUR3;
	token_bytes(s->token, token);
}

/*
 * The LEGACY form of DecoratedKey.asComparableBytes, which DataStax's
 * trie-indexed versions before ca write (driftx/ds-cassandra at
 * 5ea584d384f18ca75f3e1dd3c9c3d7237848392b: TrieIndexFormat.
 * TrieIndexVersion, byteComparableVersion = version >= "ca" ? OSS41 :
 * LEGACY; datastax/cassandra's BtiFormat.BtiVersion names the later one
 * OSS50, Apache's):
 *   - DecoratedKey.asComparableBytes: ByteSource.withTerminator(LEGACY ?
 *     END_OF_STREAM : TERMINATOR, ...): no 0x38 at the end;
 *   - ByteSource.AbstractReinterpreter.next: a component ending in an
 *     escaped 0 ends 0xfe 0x00, not 0xfe ("+00 for Version#LEGACY").
 */
void
bc_key_source_legacy(bc_key_source *s)
{
	s->legacy = 1;
}

/* ByteSource.AbstractEscaper.next (OSS50; LEGACY: see above): -1 after
 * the end byte */
static int
escaper_next(bc_key_source *s)
{
	int			b;

	if (s->pos >= s->len)
	{
		if (s->pos > s->len)
			return -1;
		s->pos++;
		if (s->escaped)
		{
			s->escaped = 0;
			if (s->legacy)
				s->pos--;		/* and then the 0x00 below */
			return 0xfe;
		}
		return 0x00;
	}
	b = s->key[s->pos++];
	if (!s->escaped)
	{
		if (b == 0)
			s->escaped = 1;
		return b;
	}
	if (b == 0)
		return 0xfe;
	s->pos--;
	s->escaped = 0;
	return 0xff;
}

int
bc_key_source_next(void *arg)
{
	bc_key_source *s = arg;
	int			b;

	for (;;)
	{
		switch (s->stage)
		{
			case ST_SEP1:
				s->stage = ST_TOKEN;
				s->pos = 0;
				return 0x40;
			case ST_TOKEN:
				if (s->partitioner == BC_PARTITIONER_MURMUR3)
				{
					if (s->pos < 8)
						return s->token[s->pos++];
				}
				else if ((b = escaper_next(s)) >= 0)
					return b;
				s->stage = ST_SEP2;
				break;
			case ST_SEP2:
				s->stage = ST_KEY;
				s->pos = 0;
				s->escaped = 0;
				return 0x40;
			case ST_KEY:
				if ((b = escaper_next(s)) >= 0)
					return b;
				s->stage = ST_TERM;
				break;
			case ST_TERM:
				s->stage = ST_END;
				if (s->legacy)
					return -1;
				return 0x38;
			default:
				return -1;
		}
	}
}

size_t
bc_key_encode(bc_key_source *s, uint8_t *out, size_t cap)
{
	size_t		n = 0;
	int			b;

	while ((b = bc_key_source_next(s)) >= 0)
	{
		if (n < cap)
			out[n] = (uint8_t) b;
		n++;
	}
	return n;
}

uint8_t
bc_key_hash_byte(const uint8_t *key, size_t len)
{
	int64_t		h1,
				h2;

	bc_murmur3(key, len, &h1, &h2);
	return (uint8_t) ((uint64_t) h2 & 0xff);
}

/* ---- the SSTable ------------------------------------------------- */

/*
 * DataStax's trie-indexed versions other than bb (bb is above):
 * TrieIndexFormat (driftx/ds-cassandra at 5ea584d...) writes their
 * Partitions.db and Rows.db with the same PartitionIndexBuilder and
 * RowIndexWriter at every version; only the key form's ByteComparable
 * version differs (LEGACY before ca, see bc_key_source_legacy).
 */
static int
is_datastax_trie(const char *v)
{
	static const char *const names[] = {"aa", "ac", "ad", "ba", "ca", "cb", "cc"};
	size_t		i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (memcmp(v, names[i], 2) == 0)
			return 1;
	return 0;
}

bc_status
bc_trie_sstable_init(bc_trie_sstable *s, const char *version, size_t version_len,
					 bc_partitioner p, const bc_reader *partitions,
					 const bc_partitions_footer *f, const bc_reader *rows,
					 bc_data_reader *data)
{
	memset(s, 0, sizeof(*s));
	if (version_len != 2 ||
		!(memcmp(version, "da", 2) == 0 || memcmp(version, "bb", 2) == 0 ||
		  memcmp(version, "ea", 2) == 0 || memcmp(version, "eb", 2) == 0 ||
		  memcmp(version, "mt", 2) == 0 || memcmp(version, "ms", 2) == 0 ||
		  is_datastax_trie(version)))
		return BC_ERR_VERSION_UNKNOWN;
	s->typed_keys = memcmp(version, "ms", 2) == 0;
	s->legacy_form = version[0] == 'a' || version[0] == 'b';
	s->rows = rows;
	s->data = data;
	s->partitioner = p;
	return bc_trie_init(&s->trie, partitions, f);
}

void
bc_trie_sstable_frames(bc_trie_sstable *s, bc_trie_frame *frames, size_t cap)
{
	s->frames = frames;
	s->frame_cap = cap;
}

/*
 * Bytes [off, off + len) of the file a position leads to: Rows.db for a
 * position >= 0, the uncompressed Data.db for ~position.  BC_ERR_TRIE_POSITION
 * when they are not all there.
 */
static bc_status
read_entry(bc_trie_sstable *s, int64_t position, uint64_t off, uint8_t *buf, size_t len)
{
	size_t		got = 0;

	if (position >= 0)
	{
		uint64_t	at = (uint64_t) position;

		if (at > s->rows->size || off > s->rows->size - at ||
			len > s->rows->size - at - off)
			return BC_ERR_TRIE_POSITION;
		s->rows_bytes += len;
		while (got < len)
		{
			size_t		n = 0;

			s->rows_reads++;
			if (s->rows->read(s->rows->arg, at + off + got, buf + got, len - got, &n) != 0)
				return BC_ERR_READ;
			if (n == 0 || n > len - got)
				return BC_ERR_TRIE_POSITION;
			got += n;
		}
	}
	else
	{
		uint64_t	at = ~(uint64_t) position;
		uint64_t	dlen = bc_data_length(s->data);
		bc_status	st;

		if (at > dlen || off > dlen - at || len > dlen - at - off)
			return BC_ERR_TRIE_POSITION;
		s->data_reads++;
		s->data_bytes += len;
		if ((st = bc_data_read(s->data, at + off, buf, len, &got)) != BC_OK)
			return st;
	}
	return got == len ? BC_OK : BC_ERR_TRIE_POSITION;
}

static bc_status
read_key_len(bc_trie_sstable *s, int64_t position, size_t *len)
{
	uint8_t		b[2];
	bc_status	st = read_entry(s, position, 0, b, 2);

	*len = st == BC_OK ? ((size_t) b[0] << 8) | b[1] : 0;
	return st;
}

/* ---- every key ---------------------------------------------------- */

bc_status
bc_trie_keys_init(bc_trie_keys *k, bc_trie_sstable *s, bc_trie_frame *frames, size_t cap)
{
	bc_status	st;

	memset(k, 0, offsetof(bc_trie_keys, key));
	k->s = s;
	st = bc_trie_iter_init(&k->it, &s->trie, frames, cap);
	if (st != BC_OK)
		k->state = 2;
	return st;
}

static bc_status
keys_fail(bc_trie_keys *k, bc_status st)
{
	k->state = 2;
	k->key_len = 0;
	return st;
}

bc_status
bc_trie_keys_next(bc_trie_keys *k, const uint8_t **key, size_t *len, int *done)
{
	bc_status	st;
	int			end;
	size_t		klen;

	*key = NULL;
	*len = 0;
	*done = 0;
	if (k->state == 1)
	{
		*done = 1;
		return BC_OK;
	}
	if (k->state != 0)
		return BC_ERR_CURSOR_STATE;
	if ((st = bc_trie_iter_next(&k->it, &k->payload, &end)) != BC_OK)
		return keys_fail(k, st);
	if (end)
	{
		/* the footer's count (see the top of this file) */
		if (k->count != k->s->trie.key_count)
			return keys_fail(k, BC_ERR_TRIE_COUNT);
		k->state = 1;
		*done = 1;
		return BC_OK;
	}
	if ((st = read_key_len(k->s, k->payload.position, &klen)) != BC_OK ||
		(st = read_entry(k->s, k->payload.position, 2, k->key, klen)) != BC_OK)
		return keys_fail(k, st);
	k->key_len = klen;
	k->count++;

	/* the key's form must start with the leaf's prefix (see the top of
	 * this file); for ms, the form's token part, which is mt's (Murmur3) */
	{
		bc_key_source src;
		size_t		i,
					n = k->it.depth;

		bc_key_source_init(&src, k->s->partitioner, k->key, klen);
		if (k->s->legacy_form)
			bc_key_source_legacy(&src);
		if (k->s->typed_keys && k->s->partitioner != BC_PARTITIONER_MURMUR3)
			n = 1;
		else if (k->s->typed_keys && n > 1 + TOKEN_FORM)
			n = 1 + TOKEN_FORM;
		for (i = 1; i < n; i++)
			if (bc_key_source_next(&src) != k->it.frames[i].byte)
				return keys_fail(k, BC_ERR_TRIE_KEY);

		/*
		 * A leaf with children holds a key only when its form ends there:
		 * a lookup stops at such a node for a whole key only
		 * (exactCandidate).  Any other key there would come before the
		 * keys below it whatever its order.  (ms: its form past the
		 * token is not known.)
		 */
		if (!k->s->typed_keys && k->it.leaf_range > 0 && bc_key_source_next(&src) >= 0)
			return keys_fail(k, BC_ERR_TRIE_KEY);
	}

	/*
	 * The leaf's hash byte must be its key's: a lookup takes a leaf whose
	 * byte is not the sought key's for another key's and answers
	 * "absent" without reading it (PartitionIndex.Reader and
	 * BtiTableReader.getPosition, checkHashBits), so a key listed under a
	 * wrong byte is one a lookup does not find (bc_trie_has_key reads it
	 * and reports the leaf instead).
	 */
	if (k->payload.has_hash && k->payload.hash != bc_key_hash_byte(k->key, klen))
		return keys_fail(k, BC_ERR_TRIE_HASH);
	*key = k->key;
	*len = klen;
	return BC_OK;
}

/*
 * The Data.db position of the last key's partition: a leaf holds either
 * ~position in Data.db, or a Rows.db position where the key (BE16 length
 * and bytes) is followed by its TrieIndexEntry, whose first field is the
 * partition's Data.db position as an unsigned vint (Cassandra's
 * TrieIndexEntry.deserialize: readUnsignedVInt; ScyllaDB's
 * write_row_index_header writes the same).  A position of 2^63 or more is
 * a negative long to Cassandra, which no reader seeks to
 * (RandomAccessReader.seek: "new position should not be negative").
 */
bc_status
bc_trie_keys_position(bc_trie_keys *k, uint64_t *position, int *from_rows)
{
	int64_t		leaf = k->payload.position;
	uint8_t		b[9];
	int			extra;
	bc_status	st;

	*position = 0;
	*from_rows = leaf >= 0;
	if (k->state != 0 || k->count == 0)
		return BC_ERR_CURSOR_STATE;
	if (leaf < 0)
	{
		*position = ~(uint64_t) leaf;
		return BC_OK;
	}
	if ((st = read_entry(k->s, leaf, 2 + (uint64_t) k->key_len, b, 1)) != BC_OK)
		return st;
	extra = bc_uvint_extra(b[0]);
	if (extra > 0 &&
		(st = read_entry(k->s, leaf, 3 + (uint64_t) k->key_len, b + 1, (size_t) extra)) != BC_OK)
		return st;
	*position = bc_uvint_decode(b, extra);
	if (*position > (uint64_t) INT64_MAX)
		return BC_ERR_PARTITION_POSITION;
	return BC_OK;
}

void
bc_trie_keys_finish(bc_trie_keys *k)
{
	k->state = 3;
	k->key_len = 0;
}

/* ---- one key ------------------------------------------------------ */

/*
 * Whether the key at a leaf's position is key: the key read and compared
 * (PartitionIndex.Reader's callers).  Cassandra first compares the leaf's
 * hash byte with the key's (checkHashBits) and answers "absent" without
 * reading when they differ; here the key is read all the same, so that a
 * leaf whose byte is not its own key's (a damaged Partitions.db) is
 * BC_ERR_TRIE_HASH, as cassandra_sstable_keys reports it, not a key the
 * SSTable holds answered "absent".
 */
static bc_status
key_at(bc_trie_sstable *s, const bc_trie_payload *p, const uint8_t *key, size_t len,
	   int *same)
{
	size_t		klen,
				off;
	uint8_t		chunk[256];
	bc_status	st;

	*same = 0;
	if ((st = read_key_len(s, p->position, &klen)) != BC_OK)
		return st;
	if (klen != len)
		return BC_OK;
	for (off = 0; off < len; off += sizeof(chunk))
	{
		size_t		n = len - off < sizeof(chunk) ? len - off : sizeof(chunk);

		if ((st = read_entry(s, p->position, 2 + off, chunk, n)) != BC_OK)
			return st;
		if (memcmp(chunk, key + off, n) != 0)
			return BC_OK;
	}
	if (p->has_hash && p->hash != bc_key_hash_byte(key, len))
		return BC_ERR_TRIE_HASH;
	*same = 1;
	return BC_OK;
}

/* the first bytes of a key's form: 0x40 and the token (a bc_trie_byte_fn) */
typedef struct token_form
{
	uint8_t		b[1 + TOKEN_FORM];
	size_t		pos;
} token_form;

static int
token_form_next(void *arg)
{
	token_form *f = arg;

	return f->pos < sizeof(f->b) ? f->b[f->pos++] : -1;
}

/*
 * ScyllaDB's ms: the key's form after its token is made column by column
 * from the table's schema (lazy_comparable_bytes_from_compound), which the
 * SSTable alone does not give; the token part is mt's
 * (lazy_comparable_bytes_from_ring_position).  So walk the token part, and
 * compare the key with every key under the node it leads to: those of the
 * same token, almost always none or one.
 */
static bc_status
has_key_by_token(bc_trie_sstable *s, const uint8_t *key, size_t len, int *present)
{
	token_form	f;
	bc_trie_iter it;
	bc_trie_payload p;
	uint64_t	node;
	bc_status	st;
	int			found,
				done;

	if (s->partitioner != BC_PARTITIONER_MURMUR3)
		return BC_ERR_TRIE_ENCODING;
	f.b[0] = 0x40;
	token_bytes(f.b + 1, bc_token(key, len));
	f.pos = 0;
	if ((st = bc_trie_find_prefix(&s->trie, token_form_next, &f, &node, &found)) != BC_OK ||
		!found)
		return st;
	if (s->frames != NULL)
		st = bc_trie_iter_init_at(&it, &s->trie, s->frames, s->frame_cap, node);
	else
		st = bc_trie_iter_init_at(&it, &s->trie, s->own_frames, BC_TRIE_OWN_FRAMES, node);
	while (st == BC_OK)
	{
		if ((st = bc_trie_iter_next(&it, &p, &done)) != BC_OK || done)
			break;
		if ((st = key_at(s, &p, key, len, present)) != BC_OK || *present)
			break;
	}
	return st;
}

bc_status
bc_trie_has_key(bc_trie_sstable *s, const uint8_t *key, size_t len, int *present)
{
	bc_key_source src;
	bc_trie_payload p;
	bc_status	st;
	int			found;

	*present = 0;
	if (len > BC_TRIE_KEY_MAX)
		return BC_OK;
	if (s->typed_keys)
		return has_key_by_token(s, key, len, present);
	bc_key_source_init(&src, s->partitioner, key, len);
	if (s->legacy_form)
		bc_key_source_legacy(&src);
	if ((st = bc_trie_find(&s->trie, bc_key_source_next, &src, &p, &found)) != BC_OK ||
		!found)
		return st;
	return key_at(s, &p, key, len, present);
}

const char *
bc_trie_keys_component(bc_status st)
{
	if (st == BC_ERR_TRIE_POSITION || st == BC_ERR_TRIE_KEY ||
		(st >= BC_ERR_COMPRESSION_TRUNCATED && st <= BC_ERR_COMPRESSION_CORRUPT) ||
		st == BC_ERR_COMPRESSION_DICT_MISMATCH)
		return "Data.db";
	return "Partitions.db";
}
