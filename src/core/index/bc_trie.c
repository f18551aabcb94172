/*
 * bc_trie.c - the trie of a BTI Partitions.db, read a node at a time (see
 * bc_trie.h).
 *
 * Every node is checked before it is used, so that no input makes the
 * reader read outside the trie, loop, or walk without end:
 *
 *   - the node and its payload end before the footer's keys_pos (Cassandra
 *     reads them from the page that holds them: Walker.go, and
 *     TrieNode.payloadPosition; ScyllaDB's bti_node_reader checks the
 *     node's span, on_bti_parse_error);
 *   - every child pointer is a distance greater than 0 and at most the
 *     node's own offset (TrieNode.transition: "each child must have the
 *     calculated absolute position >= 0"; TrieNode.typeFor asserts that
 *     every delta is negative, so children come before their parents and
 *     no walk can loop);
 *   - a sparse node has 1 to 255 transitions in increasing order
 *     (TrieNode.Sparse.serialize asserts childCount > 0, and Sparse.search
 *     is a binary search over them);
 *   - a dense node has a child in its first and last slots
 *     (TrieNode.Dense.serialize writes the span from the first transition
 *     to the last; Dense.lesserTransition asserts "transition must always
 *     exist at 0"; ScyllaDB's bti_get_child fails on a dense node with no
 *     child);
 *   - a node without children has a payload (PartitionIndex's
 *     IndexPosIterator returns NOT_FOUND, an error, for one that has
 *     none), except the root of an empty index;
 *   - an iteration gives at most the footer's count of leaves, since nodes
 *     shared by several parents could otherwise give any number;
 *   - a dense node's transitions end at byte 255 (not a reader's rule:
 *     TrieNode.Dense.transitionByte adds the index to the first byte, and
 *     a transition past 255 is no key byte, so no key leads there; an
 *     iteration would report a prefix no key has);
 *   - a whole iteration gives exactly the footer's count of leaves (not a
 *     reader's rule: both keep the count as it is; bloomcass reports the
 *     count and the keys, which must agree).
 *
 * Walks deeper than the caller's stack of frames stop with
 * BC_ERR_TRIE_DEPTH (memory, not a property of the file).
 */
#include <string.h>

#include "bc_trie.h"

/* bits of a pointer by node type (ScyllaDB's bits_per_pointer_arr) */
static const int pointer_bits[16] = {
	0, 4, 8, 12, 16, 8, 12, 16, 24, 40, 12, 16, 24, 32, 40, 64
};

#define NO_NODE UINT64_MAX

bc_status
bc_trie_init(bc_trie *t, const bc_reader *file, const bc_partitions_footer *f)
{
	memset(t, 0, offsetof(bc_trie, buf));
	t->file = file;
	/* the rules of bc_partitions_footer_parse, which names their readers */
	if (file->size < BC_PARTITIONS_FOOTER ||
		f->keys_pos > file->size - BC_PARTITIONS_FOOTER ||
		f->root >= f->keys_pos || f->key_count > f->keys_pos)
		return BC_ERR_PARTITIONS_FORMAT;
	t->root = f->root;
	t->end = f->keys_pos;
	t->key_count = f->key_count;
	return BC_OK;
}

static bc_status
read_at(bc_trie *t, uint64_t pos, size_t off, size_t len)
{
	size_t		done = 0;

	t->stats.bytes += len;
	while (done < len)
	{
		size_t		got = 0;

		t->stats.reads++;
		if (t->file->read(t->file->arg, pos + off + done, t->buf + off + done,
						  len - done, &got) != 0)
			return BC_ERR_READ;
		if (got == 0 || got > len - done)
			return BC_ERR_TRIE_TRUNCATED;	/* shorter than its size */
		done += got;
	}
	return BC_OK;
}

/* the first bytes read of a node: most nodes are smaller */
#define NODE_FIRST_READ 32

/* a big-endian pointer of bits (a multiple of 8) at p */
static uint64_t
get_be(const uint8_t *p, int bytes)
{
	uint64_t	v = 0;
	int			i;

	for (i = 0; i < bytes; i++)
		v = (v << 8) | p[i];
	return v;
}

/* slot i of 12-bit pointers at p (TrieNode.read12Bits) */
static uint64_t
get_12(const uint8_t *p, int i)
{
	unsigned	w = ((unsigned) p[(3 * i) / 2] << 8) | p[(3 * i) / 2 + 1];

	return (i & 1) == 0 ? (w >> 4) : (w & 0xfff);
}

/* the pointer (backward distance) of slot i; the node is in t->buf */
static uint64_t
slot_delta(const uint8_t *b, const bc_trie_node *n, int i)
{
	int			bits = pointer_bits[n->type];

	switch (n->type)
	{
		case BC_TRIE_SINGLE_NOPAYLOAD_4:
			return b[0] & 0x0f;
		case BC_TRIE_SINGLE_NOPAYLOAD_12:
			return ((uint64_t) (b[0] & 0x0f) << 8) | b[1];
		case BC_TRIE_SINGLE_8:
		case BC_TRIE_SINGLE_16:
			return get_be(b + 2, bits / 8);
		case BC_TRIE_SPARSE_12:
			return get_12(b + 2 + n->range, i);
		case BC_TRIE_SPARSE_8:
		case BC_TRIE_SPARSE_16:
		case BC_TRIE_SPARSE_24:
		case BC_TRIE_SPARSE_40:
			return get_be(b + 2 + n->range + (size_t) i * (bits / 8), bits / 8);
		case BC_TRIE_DENSE_12:
			return get_12(b + 3, i);
		default:				/* the other dense types */
			return get_be(b + 3 + (size_t) i * (bits / 8), bits / 8);
	}
}

static int
slot_byte(const uint8_t *b, const bc_trie_node *n, int i)
{
	switch (n->type)
	{
		case BC_TRIE_SINGLE_NOPAYLOAD_12:
			return b[2];
		case BC_TRIE_SINGLE_NOPAYLOAD_4:
		case BC_TRIE_SINGLE_8:
		case BC_TRIE_SINGLE_16:
			return b[1];
		case BC_TRIE_SPARSE_8:
		case BC_TRIE_SPARSE_12:
		case BC_TRIE_SPARSE_16:
		case BC_TRIE_SPARSE_24:
		case BC_TRIE_SPARSE_40:
			return b[2 + i];
		default:
			return n->first_byte + i;
	}
}

static int
is_sparse(int type)
{
	return type >= BC_TRIE_SPARSE_8 && type <= BC_TRIE_SPARSE_40;
}

static int
is_dense(int type)
{
	return type >= BC_TRIE_DENSE_12;
}

bc_status
bc_trie_read_node(bc_trie *t, uint64_t pos, bc_trie_node *n)
{
	uint64_t	avail;
	size_t		have,
				payload;
	const uint8_t *b = t->buf;
	bc_status	st;
	int			i;

	memset(n, 0, sizeof(*n));
	n->pos = pos;
	if (pos >= t->end)
		return BC_ERR_TRIE_POINTER;
	avail = t->end - pos;
	have = avail < NODE_FIRST_READ ? (size_t) avail : NODE_FIRST_READ;
	if ((st = read_at(t, pos, 0, have)) != BC_OK)
		return st;
	t->stats.nodes++;

	n->type = b[0] >> 4;
	n->payload_flags = b[0] & 0x0f;
	switch (n->type)
	{
		case BC_TRIE_PAYLOAD_ONLY:
			n->size = 1;
			break;
		case BC_TRIE_SINGLE_NOPAYLOAD_4:
			n->payload_flags = 0;	/* the low nibble is the pointer */
			n->size = 2;
			n->range = 1;
			break;
		case BC_TRIE_SINGLE_NOPAYLOAD_12:
			n->payload_flags = 0;
			n->size = 3;
			n->range = 1;
			break;
		case BC_TRIE_SINGLE_8:
			n->size = 3;
			n->range = 1;
			break;
		case BC_TRIE_SINGLE_16:
			n->size = 4;
			n->range = 1;
			break;
		case BC_TRIE_SPARSE_12:
			if (have < 2)
				return BC_ERR_TRIE_TRUNCATED;
			n->range = b[1];
			n->size = 2 + ((size_t) 5 * n->range + 1) / 2;
			break;
		case BC_TRIE_SPARSE_8:
		case BC_TRIE_SPARSE_16:
		case BC_TRIE_SPARSE_24:
		case BC_TRIE_SPARSE_40:
			if (have < 2)
				return BC_ERR_TRIE_TRUNCATED;
			n->range = b[1];
			n->size = 2 + (size_t) n->range * (1 + pointer_bits[n->type] / 8);
			break;
		default:				/* dense */
			if (have < 3)
				return BC_ERR_TRIE_TRUNCATED;
			n->first_byte = b[1];
			n->range = b[2] + 1;
			if (n->type == BC_TRIE_DENSE_12)
				n->size = 3 + ((size_t) 3 * n->range + 1) / 2;
			else
				n->size = 3 + (size_t) n->range * (pointer_bits[n->type] / 8);
			break;
	}
	/* PartitionIndex.getIndexPos: flags 8..15 a hash byte and flags - 7
	 * bytes, 1..7 that many bytes */
	payload = n->payload_flags >= 8 ? (size_t) n->payload_flags - 6 : (size_t) n->payload_flags;
	n->total = n->size + payload;
	if (n->total > avail)
		return BC_ERR_TRIE_TRUNCATED;
	if (n->total > have && (st = read_at(t, pos, have, n->total - have)) != BC_OK)
		return st;

	if (is_sparse(n->type))
	{
		if (n->range == 0)
			return BC_ERR_TRIE_NODE;
		for (i = 1; i < n->range; i++)
			if (b[2 + i] <= b[1 + i])
				return BC_ERR_TRIE_NODE;
	}
	else if (is_dense(n->type))
	{
		/* transitions past byte 255 (see the top of this file) */
		if (n->first_byte + n->range > 256)
			return BC_ERR_TRIE_NODE;
		if (slot_delta(b, n, 0) == 0 || slot_delta(b, n, n->range - 1) == 0)
			return BC_ERR_TRIE_NODE;
	}
	else if (n->type == BC_TRIE_PAYLOAD_ONLY && n->payload_flags == 0 &&
			 !(pos == t->root && t->key_count == 0))
		return BC_ERR_TRIE_NODE;
	for (i = 0; i < n->range; i++)
	{
		uint64_t	d = slot_delta(b, n, i);

		if (d == 0 && !is_dense(n->type))
			return BC_ERR_TRIE_POINTER;
		if (d > pos)
			return BC_ERR_TRIE_POINTER;
	}
	return BC_OK;
}

int
bc_trie_child(const bc_trie *t, const bc_trie_node *n, int i, int *byte, uint64_t *child)
{
	uint64_t	d = slot_delta(t->buf, n, i);

	*byte = slot_byte(t->buf, n, i);
	*child = n->pos - d;
	return d != 0;
}

void
bc_trie_payload_get(const bc_trie *t, const bc_trie_node *n, bc_trie_payload *p)
{
	const uint8_t *b = t->buf + n->size;
	int			bytes = n->payload_flags;
	uint64_t	v;

	memset(p, 0, sizeof(*p));
	p->node_pos = n->pos;
	if (bytes >= 8)
	{
		p->has_hash = 1;
		p->hash = *b++;
		bytes -= 7;
	}
	/* SizedInts.read: big-endian, sign-extended */
	v = get_be(b, bytes);
	if (bytes < 8 && (b[0] & 0x80))
		v |= ~(uint64_t) 0 << (8 * bytes);
	p->position = (int64_t) v;
}

/* ------------------------------------------------------------------ */

bc_status
bc_trie_iter_init(bc_trie_iter *it, bc_trie *t, bc_trie_frame *frames, size_t cap)
{
	return bc_trie_iter_init_at(it, t, frames, cap, t->root);
}

bc_status
bc_trie_iter_init_at(bc_trie_iter *it, bc_trie *t, bc_trie_frame *frames, size_t cap,
					 uint64_t node)
{
	memset(it, 0, sizeof(*it));
	it->t = t;
	it->frames = frames;
	it->cap = cap;
	if (cap < 1)
	{
		it->state = 2;
		return BC_ERR_TRIE_DEPTH;
	}
	frames[0].pos = node;
	frames[0].next = -1;
	frames[0].byte = 0;
	it->depth = 1;
	return BC_OK;
}

bc_status
bc_trie_iter_next(bc_trie_iter *it, bc_trie_payload *p, int *done)
{
	bc_trie_node n;
	uint64_t	loaded = NO_NODE;
	bc_status	st;

	*done = 0;
	memset(p, 0, sizeof(*p));
	if (it->state == 1)
	{
		*done = 1;
		return BC_OK;
	}
	if (it->state != 0)
		return BC_ERR_CURSOR_STATE;
	for (;;)
	{
		bc_trie_frame *top;
		int			byte;
		uint64_t	child;

		if (it->depth == 0)
		{
			it->state = 1;
			*done = 1;
			return BC_OK;
		}
		top = &it->frames[it->depth - 1];
		if (loaded != top->pos)
		{
			if ((st = bc_trie_read_node(it->t, top->pos, &n)) != BC_OK)
			{
				it->state = 2;
				return st;
			}
			loaded = top->pos;
		}
		if (top->next < 0)
		{
			top->next = 0;
			if (n.payload_flags != 0)
			{
				if (++it->leaves > it->t->key_count)
				{
					it->state = 2;
					return BC_ERR_TRIE_COUNT;
				}
				bc_trie_payload_get(it->t, &n, p);
				it->leaf_range = n.range;
				return BC_OK;
			}
		}
		if (top->next >= n.range)
		{
			it->depth--;
			continue;
		}
		if (!bc_trie_child(it->t, &n, top->next++, &byte, &child))
			continue;			/* an empty dense slot */
		if (it->depth == it->cap)
		{
			it->state = 2;
			return BC_ERR_TRIE_DEPTH;
		}
		it->frames[it->depth].pos = child;
		it->frames[it->depth].next = -1;
		it->frames[it->depth].byte = (uint8_t) byte;
		it->depth++;
	}
}

size_t
bc_trie_iter_prefix(const bc_trie_iter *it, uint8_t *buf, size_t cap)
{
	size_t		len = it->depth > 0 ? it->depth - 1 : 0,
				i;

	for (i = 0; i < len && i < cap; i++)
		buf[i] = it->frames[i + 1].byte;
	return len;
}

bc_status
bc_trie_walk(bc_trie *t, bc_trie_frame *frames, size_t cap,
			 uint8_t *prefix, size_t prefix_cap, bc_trie_leaf_fn fn, void *arg)
{
	bc_trie_iter it;
	bc_trie_payload p;
	bc_status	st;
	int			done;

	if ((st = bc_trie_iter_init(&it, t, frames, cap)) != BC_OK)
		return st;
	for (;;)
	{
		size_t		len;

		if ((st = bc_trie_iter_next(&it, &p, &done)) != BC_OK)
			return st;
		/* the footer's count of leaves (see the top of this file) */
		if (done)
			return it.leaves == t->key_count ? BC_OK : BC_ERR_TRIE_COUNT;
		len = bc_trie_iter_prefix(&it, prefix, prefix_cap);
		if (fn(&p, prefix, len < prefix_cap ? len : prefix_cap, arg) != 0)
			return BC_ERR_STOPPED;
	}
}

/*
 * Walk the bytes of next from the root (TrieNode.search at each node):
 * *found = 1 and *node when they end, or reach a node with no children;
 * *found = 0 when a node with children has no transition for the next
 * byte.  t->buf holds *node's bytes (n) when *found.
 */
static bc_status
descend(bc_trie *t, bc_trie_byte_fn next, void *arg, bc_trie_node *n,
		int *whole, int *found)
{
	uint64_t	pos = t->root;
	bc_status	st;

	*found = 0;
	*whole = 0;
	for (;;)
	{
		int			b,
					i,
					byte = -1,
					has = 0;
		uint64_t	child = 0;

		if ((st = bc_trie_read_node(t, pos, n)) != BC_OK)
			return st;
		b = next(arg);
		if (b < 0)
		{
			*whole = 1;
			break;
		}
		if (is_dense(n->type))
		{
			if (b >= n->first_byte && b < n->first_byte + n->range)
				has = bc_trie_child(t, n, b - n->first_byte, &byte, &child);
		}
		else
		{
			for (i = 0; i < n->range; i++)
			{
				has = bc_trie_child(t, n, i, &byte, &child);
				if (byte >= b)
					break;
			}
			if (byte != b)
				has = 0;
		}
		if (has)
		{
			pos = child;		/* before pos: the walk ends */
			continue;
		}
		if (n->range > 0)
			return BC_OK;
		break;
	}
	*found = 1;
	return BC_OK;
}

bc_status
bc_trie_find(bc_trie *t, bc_trie_byte_fn next, void *arg, bc_trie_payload *p, int *found)
{
	bc_trie_node n;
	bc_status	st;
	int			whole;

	memset(p, 0, sizeof(*p));
	/* exactCandidate: a node with children is a match only for a whole
	 * key */
	if ((st = descend(t, next, arg, &n, &whole, found)) != BC_OK || !*found)
		return st;
	if (n.payload_flags == 0)
	{
		*found = 0;
		return BC_OK;
	}
	bc_trie_payload_get(t, &n, p);
	return BC_OK;
}

bc_status
bc_trie_find_prefix(bc_trie *t, bc_trie_byte_fn next, void *arg, uint64_t *node, int *found)
{
	bc_trie_node n;
	bc_status	st;
	int			whole;

	*node = 0;
	if ((st = descend(t, next, arg, &n, &whole, found)) != BC_OK || !*found)
		return st;
	*node = n.pos;
	return BC_OK;
}
