/*
 * fuzz_trie.c - a BTI Partitions.db (bc_partitions.c, bc_trie.c and
 * bc_key_range.c's bc_partitions_range), the input read as the whole file:
 *
 *   - its footer and first and last keys, whole (bc_partitions_parse), in
 *     two steps from exact-size copies of the footer and the keys, and
 *     through a bc_reader (bc_partitions_range); the input as the keys
 *     alone;
 *   - its trie through a bc_reader over the input (reads in pieces of a
 *     size taken from the input, a stack of any depth or of a few frames):
 *     every leaf in order (bc_trie_iter, bc_trie_walk), each found again
 *     from its prefix (bc_trie_find), walks of keys taken from the input
 *     (raw and in their byte-comparable forms), nodes read at offsets
 *     taken from the input, and a read that fails.
 *
 * Invariants: statuses in range; every read inside the trie (before the
 * footer's keys_pos); leaves at most the footer's count, their prefixes
 * strictly increasing, each leaf inside the trie and found again at the
 * same node from its prefix (and from any longer key when it has no
 * children), reading at most a node a byte; the walk gives the iteration's
 * leaves and status; once every node was read without error, no walk of a
 * key fails and a found leaf is one of the leaves; a node read is what its
 * bytes say.
 */
#include <string.h>

#include "bc_endian.h"
#include "bc_key_range.h"
#include "bc_partitions.h"
#include "bc_status.h"
#include "bc_trie.h"
#include "bc_trie_keys.h"
#include "fuzz.h"

/*
 * The input as a whole Partitions.db (bc_partitions_parse), and through the
 * two-step API from exact-size copies of its footer and keys, and through
 * a reader (bc_partitions_range); and the input as the keys region alone.
 */
void
fuzz_partitions(const uint8_t *data, size_t len)
{
	bc_partitions_footer f,
				f2;
	const uint8_t *a = data,
			   *z = data;
	size_t		al = 1,
				zl = 1;
	bc_status	st,
				st2;

	memset(&f, 0x5a, sizeof(f));
	st = bc_partitions_parse(data, len, &f, &a, &al, &z, &zl);
	CHECK(st == BC_OK || st == BC_ERR_PARTITIONS_TRUNCATED ||
		  st == BC_ERR_PARTITIONS_FORMAT);
	CHECK(bc_status_message(st) != NULL);
	if (st != BC_OK)
		CHECK(f.keys_pos == 0 && f.key_count == 0 && f.root == 0 &&
			  a == NULL && z == NULL && al == 0 && zl == 0);
	else
	{
		size_t		body = len - BC_PARTITIONS_FOOTER;
		int			same = al == zl && memcmp(a, z, al) == 0;

		CHECK(len >= BC_PARTITIONS_FOOTER + 4);
		CHECK(f.root < f.keys_pos && f.key_count <= f.keys_pos);
		/* bytes after the last key, before the footer, are ignored */
		CHECK(f.keys_pos + 4 + al + zl <= body);
		CHECK(a == data + f.keys_pos + 2 && z == a + al + 2);
		CHECK(al == (((size_t) a[-2] << 8) | a[-1]));
		CHECK(zl == (((size_t) z[-2] << 8) | z[-1]));
		if (f.key_count == 0)
			CHECK(al == 0 && zl == 0);
		else
			CHECK(same == (f.key_count == 1));
	}

	/* the two steps agree with the whole */
	{
		uint8_t    *tail = NULL;

		if (len >= BC_PARTITIONS_FOOTER)
		{
			tail = xmalloc(BC_PARTITIONS_FOOTER);
			memcpy(tail, data + len - BC_PARTITIONS_FOOTER, BC_PARTITIONS_FOOTER);
		}
		st2 = bc_partitions_footer_parse(tail, len, &f2);
		free(tail);
		if (st2 == BC_OK)
		{
			size_t		klen = len - BC_PARTITIONS_FOOTER - (size_t) f2.keys_pos;
			exact_buf	keys = exact_alloc(klen);
			const uint8_t *a2,
					   *z2;
			size_t		al2,
						zl2;

			memcpy(keys.p, data + f2.keys_pos, klen);
			st2 = bc_partitions_keys_parse(keys.p, klen, &a2, &al2, &z2, &zl2);
			if (st2 == BC_OK)
			{
				CHECK(al2 + zl2 + 4 <= klen && a2 == keys.p + 2 && z2 == a2 + al2 + 2);
				st2 = bc_partitions_keys_check(&f2, a2, al2, z2, zl2);
			}
			else
				CHECK(a2 == NULL && z2 == NULL && al2 == 0 && zl2 == 0);
			free(keys.base);
			if (st == BC_OK)
				CHECK(f2.keys_pos == f.keys_pos && f2.key_count == f.key_count &&
					  f2.root == f.root);
		}
		else
			CHECK(f2.keys_pos == 0 && f2.key_count == 0 && f2.root == 0);
		CHECK(st2 == st);
	}

	/* through a reader: the status and keys of the whole */
	{
		uint8_t    *kb = xmalloc(BC_PARTITIONS_MAX_KEYS);
		fuzz_mem	m;
		bc_reader	r = fuzz_mem_open(&m, data, len);
		bc_partitions_footer f3;
		const uint8_t *a3,
				   *z3;
		size_t		al3,
					zl3;

		st2 = bc_partitions_range(&r, kb, &f3, &a3, &al3, &z3, &zl3);
		CHECK(st2 == st);
		if (st2 == BC_OK)
		{
			CHECK(f3.keys_pos == f.keys_pos && f3.key_count == f.key_count &&
				  f3.root == f.root);
			if (f.key_count == 0)
				CHECK(a3 == NULL && z3 == NULL && al3 == 0 && zl3 == 0);
			else
				CHECK(al3 == al && zl3 == zl && inside(a3, al3, kb, BC_PARTITIONS_MAX_KEYS) &&
					  inside(z3, zl3, kb, BC_PARTITIONS_MAX_KEYS) &&
					  memcmp(a3, a, al) == 0 && memcmp(z3, z, zl) == 0);
		}
		else
			CHECK(a3 == NULL && z3 == NULL && al3 == 0 && zl3 == 0);
		free(kb);
	}

	/* the input as the keys alone: two keys (then anything), or an error */
	st2 = bc_partitions_keys_parse(data, len, &a, &al, &z, &zl);
	CHECK(st2 == BC_OK || st2 == BC_ERR_PARTITIONS_TRUNCATED);
	if (st2 == BC_OK)
		CHECK(al + zl + 4 <= len && a == data + 2 && z == a + al + 2);
}

/* ---- the trie ------------------------------------------------------ */

/*
 * The stack: a child lies before its parent, so a path has at most a node
 * a byte of the trie (deeper tries, only in inputs over -max_len, stop
 * with BC_ERR_TRIE_DEPTH).
 */
#define TRIE_FRAMES ((size_t) 65536 + 1)

/*
 * Reads one walk of every leaf may make (then BC_ERR_READ): nodes shared
 * by several parents make the walk cost up to the footer's count times
 * the depth, quadratic in the file's size.
 */
#define TRIE_READS ((uint64_t) 1 << 18)

static bc_trie_frame frames[TRIE_FRAMES];
static uint8_t prefix[TRIE_FRAMES],
			prev_prefix[TRIE_FRAMES],
			walk_prefix[TRIE_FRAMES];

static int
is_trie_status(bc_status st)
{
	return st == BC_ERR_TRIE_TRUNCATED || st == BC_ERR_TRIE_POINTER ||
		st == BC_ERR_TRIE_NODE || st == BC_ERR_TRIE_DEPTH || st == BC_ERR_TRIE_COUNT;
}

/* what reading a node or walking a key may give */
static int
is_node_status(bc_status st)
{
	return st == BC_OK || st == BC_ERR_READ || st == BC_ERR_TRIE_TRUNCATED ||
		st == BC_ERR_TRIE_POINTER || st == BC_ERR_TRIE_NODE;
}

static int
prefix_cmp(const uint8_t *a, size_t al, const uint8_t *b, size_t bl)
{
	int			c = memcmp(a, b, al < bl ? al : bl);

	return c != 0 ? c : (al < bl ? -1 : al > bl);
}

static uint64_t
mix_leaf(uint64_t h, const bc_trie_payload *p, size_t plen)
{
	h = (h ^ p->node_pos) * UINT64_C(0x100000001b3);
	h = (h ^ (uint64_t) p->position) * UINT64_C(0x100000001b3);
	h = (h ^ ((uint64_t) p->hash << 1 | (uint64_t) p->has_hash)) * UINT64_C(0x100000001b3);
	return (h ^ plen) * UINT64_C(0x100000001b3);
}

static int
same_payload(const bc_trie_payload *a, const bc_trie_payload *b)
{
	return a->node_pos == b->node_pos && a->position == b->position &&
		a->has_hash == b->has_hash && a->hash == b->hash;
}

/* a byte source over a buffer, for bc_trie_find */
typedef struct bytes_src
{
	const uint8_t *b;
	size_t		len,
				pos;
} bytes_src;

static int
bytes_next(void *arg)
{
	bytes_src  *s = arg;

	return s->pos < s->len ? s->b[s->pos++] : -1;
}

/* the checks of every walk of a key of form_len bytes */
static void
check_found(const bc_trie *t, uint64_t nodes_before, size_t form_len, bc_status st,
			const bc_trie_payload *p, int found)
{
	CHECK(is_node_status(st));
	CHECK(t->stats.nodes - nodes_before <= form_len + 1);
	CHECK(found == 0 || found == 1);
	if (st != BC_OK)
		CHECK(!found);
	if (found)
		CHECK(p->node_pos < t->end);
	else
		CHECK(p->node_pos == 0 && p->position == 0 && p->has_hash == 0 && p->hash == 0);
}

static bc_status
find_bytes(bc_trie *t, const uint8_t *k, size_t len, bc_trie_payload *p, int *found)
{
	bytes_src	s;
	uint64_t	nodes = t->stats.nodes;
	bc_status	st;

	s.b = k;
	s.len = len;
	s.pos = 0;
	st = bc_trie_find(t, bytes_next, &s, p, found);
	check_found(t, nodes, len, st, p, *found);
	return st;
}

/*
 * The node at pos is what its bytes say (the trie is the input's first
 * keys_pos bytes): type, payload flags and size, children before it in
 * transition order, the payload's hash byte and sign-extended position.
 * Its child count when it was read, else -1.
 */
static int
check_node(bc_trie *t, const uint8_t *data, uint64_t pos)
{
	bc_trie_node n;
	bc_status	st = bc_trie_read_node(t, pos, &n);
	int			type,
				flags,
				range,
				i,
				last = -1;
	size_t		extra;

	CHECK(is_node_status(st));
	CHECK(n.pos == pos);
	if (st != BC_OK)
		return -1;
	CHECK(pos < t->end);
	type = data[pos] >> 4;
	flags = (type == BC_TRIE_SINGLE_NOPAYLOAD_4 || type == BC_TRIE_SINGLE_NOPAYLOAD_12) ?
		0 : data[pos] & 15;
	CHECK(n.type == type && n.payload_flags == flags);
	extra = flags >= 8 ? (size_t) flags - 6 : (size_t) flags;
	CHECK(n.size >= 1 && n.total == n.size + extra && n.total <= BC_TRIE_NODE_MAX &&
		  n.total <= t->end - pos);
	CHECK(memcmp(t->buf, data + pos, n.total) == 0);
	if (type == BC_TRIE_PAYLOAD_ONLY)
		range = 0;
	else if (type <= BC_TRIE_SINGLE_16)
		range = 1;
	else if (type <= BC_TRIE_SPARSE_40)
		range = data[pos + 1];
	else
	{
		range = data[pos + 2] + 1;
		CHECK(n.first_byte == data[pos + 1] && n.first_byte + range <= 256);
	}
	CHECK(n.range == range);
	if (range == 0 && flags == 0)
		CHECK(pos == t->root && t->key_count == 0);
	for (i = 0; i < range; i++)
	{
		int			b = -1;
		uint64_t	child = UINT64_MAX;
		int			has = bc_trie_child(t, &n, i, &b, &child);

		CHECK(b >= 0 && b <= 255);
		if (has)
			CHECK(child < pos);
		else
			CHECK(type >= BC_TRIE_DENSE_12 && i > 0 && i < range - 1);
		if (type >= BC_TRIE_DENSE_12)
			CHECK(b == n.first_byte + i);
		else if (type >= BC_TRIE_SPARSE_8)
			CHECK(b > last && b == data[pos + 2 + (size_t) i]);
		last = b;
	}
	if (flags != 0)
	{
		bc_trie_payload p;
		const uint8_t *q = data + pos + n.size;
		int			bytes = flags >= 8 ? flags - 7 : flags,
					j;
		uint64_t	v = 0;

		bc_trie_payload_get(t, &n, &p);
		CHECK(p.node_pos == pos && p.has_hash == (flags >= 8));
		if (p.has_hash)
			CHECK(p.hash == *q++);
		for (j = 0; j < bytes; j++)
			v = (v << 8) | q[j];
		if (bytes < 8 && (q[0] & 0x80))
			v |= ~(uint64_t) 0 << (8 * bytes);
		CHECK(p.position == (int64_t) v);
	}
	return range;
}

typedef struct walk_leaves
{
	uint64_t	n;
	uint64_t	seq;
} walk_leaves;

static int
walk_leaf(const bc_trie_payload *p, const uint8_t *pre, size_t len, void *arg)
{
	walk_leaves *w = arg;

	CHECK(pre == walk_prefix && len < TRIE_FRAMES);
	w->n++;
	w->seq = mix_leaf(w->seq, p, len);
	return 0;
}

static int
u64_cmp(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *) a,
				y = *(const uint64_t *) b;

	return x < y ? -1 : x > y;
}

/*
 * Walks of a key from the input, raw and in its byte-comparable forms
 * (Murmur3 and ByteOrdered); complete: every node was read without error,
 * leaves (sorted, n of them) every leaf.
 */
static void
find_key(bc_trie *t, const key_ref *k, int complete, const uint64_t *leaves, size_t n)
{
	bc_trie_payload p;
	int			found,
				i;
	bc_status	st = find_bytes(t, k->p, k->len, &p, &found);

	if (complete)
		CHECK(st == BC_OK && (!found || bsearch(&p.node_pos, leaves, n, sizeof(uint64_t),
												u64_cmp) != NULL));
	for (i = 0; i < 2; i++)
	{
		bc_partitioner part = i ? BC_PARTITIONER_BYTE_ORDERED : BC_PARTITIONER_MURMUR3;
		bc_key_source src;
		size_t		form_len;
		uint64_t	nodes = t->stats.nodes;

		bc_key_source_init(&src, part, k->p, k->len);
		form_len = bc_key_encode(&src, NULL, 0);
		bc_key_source_init(&src, part, k->p, k->len);
		st = bc_trie_find(t, bc_key_source_next, &src, &p, &found);
		check_found(t, nodes, form_len, st, &p, found);
		if (complete)
			CHECK(st == BC_OK && (!found || bsearch(&p.node_pos, leaves, n, sizeof(uint64_t),
													u64_cmp) != NULL));
	}
}

void
fuzz_trie(const uint8_t *data, size_t len, const key_ref *keys, int nkeys)
{
	bc_partitions_footer f;
	fuzz_mem	m,
				m2,
				mw;
	bc_reader	r,
				r2,
				rw;
	bc_trie		t,
				t2,
				tw;
	bc_trie_iter it;
	bc_trie_payload p,
				q;
	walk_leaves wl = {0, 0};
	uint8_t		sel;
	size_t		cap,
				piece,
				nleaves = 0,
				prev_len = 0,
				i;
	uint64_t   *leaves,
				seq = 0;
	bc_status	st,
				wst;
	int			done = 0,
				found;

	if (len < BC_PARTITIONS_FOOTER ||
		bc_partitions_footer_parse(data + len - BC_PARTITIONS_FOOTER, len, &f) != BC_OK)
		return;
	sel = data[0];
	piece = sel & 7;
	cap = (sel & 0x80) ? 1 + (size_t) (sel >> 3) % 6 : TRIE_FRAMES;
	r = fuzz_mem_open(&m, data, len);
	m.piece = piece;
	m.budget = TRIE_READS;
	r2 = fuzz_mem_open(&m2, data, len);
	m2.piece = piece;
	CHECK(bc_trie_init(&t, &r, &f) == BC_OK && bc_trie_init(&t2, &r2, &f) == BC_OK);
	CHECK(t.root == f.root && t.end == f.keys_pos && t.key_count == f.key_count);

	/* every leaf in order, each found again from its prefix */
	leaves = xmalloc(((size_t) f.key_count + 1) * sizeof(uint64_t));
	CHECK(bc_trie_iter_init(&it, &t, frames, cap) == BC_OK);
	for (;;)
	{
		size_t		plen;
		int			range;

		st = bc_trie_iter_next(&it, &p, &done);
		if (st != BC_OK || done)
			break;
		CHECK(nleaves < f.key_count);
		leaves[nleaves++] = p.node_pos;
		CHECK(p.node_pos < f.keys_pos && it.depth >= 1 && it.depth <= cap);
		plen = bc_trie_iter_prefix(&it, prefix, TRIE_FRAMES);
		CHECK(plen + 1 == it.depth);
		if (nleaves > 1)
			CHECK(prefix_cmp(prev_prefix, prev_len, prefix, plen) < 0);
		memcpy(prev_prefix, prefix, plen);
		prev_len = plen;
		seq = mix_leaf(seq, &p, plen);

		CHECK(find_bytes(&t2, prefix, plen, &q, &found) == BC_OK && found &&
			  same_payload(&p, &q));
		range = check_node(&t2, data, p.node_pos);
		CHECK(range >= 0);
		/* a leaf without children: a longer key ends there too */
		if (range == 0 && plen + 1 < TRIE_FRAMES)
		{
			prefix[plen] = (uint8_t) (sel + nleaves);
			CHECK(find_bytes(&t2, prefix, plen + 1, &q, &found) == BC_OK && found &&
				  same_payload(&p, &q));
		}
	}
	CHECK(st == BC_OK || st == BC_ERR_READ || is_trie_status(st));
	CHECK(st != BC_ERR_READ || m.exhausted);
	CHECK(it.leaves == nleaves || (st == BC_ERR_TRIE_COUNT && it.leaves == nleaves + 1));
	if (st == BC_OK)
	{
		CHECK(done && bc_trie_iter_next(&it, &p, &done) == BC_OK && done);
	}
	else
		CHECK(bc_trie_iter_next(&it, &p, &done) == BC_ERR_CURSOR_STATE && !done);
	CHECK(m.max_end <= f.keys_pos);

	/* bc_trie_walk: the same leaves, the same status, and the count */
	rw = fuzz_mem_open(&mw, data, len);
	mw.piece = piece;
	mw.budget = TRIE_READS;
	CHECK(bc_trie_init(&tw, &rw, &f) == BC_OK);
	wst = bc_trie_walk(&tw, frames, cap, walk_prefix, TRIE_FRAMES, walk_leaf, &wl);
	if (st == BC_OK)
		CHECK(wst == (nleaves == f.key_count ? BC_OK : BC_ERR_TRIE_COUNT));
	else
		CHECK(wst == st);
	CHECK(wl.n == nleaves && wl.seq == seq);
	CHECK(tw.stats.nodes == t.stats.nodes && mw.max_end <= f.keys_pos);

	/* keys of the input, raw and as partition keys */
	qsort(leaves, nleaves, sizeof(uint64_t), u64_cmp);
	for (i = 0; i < (size_t) nkeys; i++)
		find_key(&t2, &keys[i], st == BC_OK, leaves, nleaves);

	/* nodes at offsets taken from the input, and the root */
	(void) check_node(&t2, data, f.root);
	for (i = 0; i + 1 < len && i < 16; i += 2)
		(void) check_node(&t2, data, (((uint64_t) data[i] << 8) | data[i + 1]) % f.keys_pos);
	CHECK(m2.max_end <= f.keys_pos);

	/* a read that fails: the walk of a key stops there */
	{
		uint64_t	reads = m2.reads;

		(void) find_bytes(&t2, keys[1].p, keys[1].len, &q, &found);
		reads = m2.reads - reads;
		if (reads > 0)
		{
			fuzz_mem	m3;
			bc_reader	r3 = fuzz_mem_open(&m3, data, len);
			bc_trie		t3;

			m3.piece = piece;
			m3.fail_at = 1 + (uint64_t) sel % reads;
			CHECK(bc_trie_init(&t3, &r3, &f) == BC_OK);
			CHECK(find_bytes(&t3, keys[1].p, keys[1].len, &q, &found) == BC_ERR_READ &&
				  m3.reads == m3.fail_at);
		}
	}
	free(leaves);
}
