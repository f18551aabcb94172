/*
 * bc_trie.h - the trie of a BTI Partitions.db read through a bc_reader
 * (bc_trie.c), one node at a time: every leaf in order, and the walk of one
 * byte-comparable key down to the leaf whose prefix it matches.
 *
 * Sources: Cassandra's TrieNode (the node types and their layout),
 * PartitionIndex (the payload: a hash byte and a position; Reader.
 * exactCandidate, the lookup), Walker and ValueIterator (the walks) and
 * BtiFormat.md; ScyllaDB's sstables/trie/bti_node_type.hh and
 * bti_node_reader.cc (the same layout).
 *
 * A node starts with a byte whose high nibble is its type and whose low
 * nibble is its payload flags (or pointer bits for SINGLE_NOPAYLOAD_4 and
 * _12).  Child pointers are backward distances from the node's own offset
 * (a child is always written before its parent); the root's offset is in
 * the footer.  A node with payload flags 8..15 is followed by the key's
 * hash byte and flags - 7 big-endian bytes of a signed position; flags
 * 1..7 by flags bytes of position and no hash byte.  A position >= 0 is an
 * offset in Rows.db, a negative one the ~ of an offset in the
 * uncompressed Data.db.  Each key is in the trie only as the shortest
 * prefix of its byte-comparable form that tells it from its neighbours.
 *
 * Memory: a node's bytes (at most BC_TRIE_NODE_MAX) in the caller's
 * structure, and a stack of frames, one a level, in the caller's array.
 */
#ifndef BC_TRIE_H
#define BC_TRIE_H

#include <stddef.h>
#include <stdint.h>

#include "bc_partitions.h"
#include "bc_reader.h"
#include "bc_status.h"

/* the node types (TrieNode.Types, ScyllaDB's node_type) */
typedef enum bc_trie_node_type
{
	BC_TRIE_PAYLOAD_ONLY = 0,
	BC_TRIE_SINGLE_NOPAYLOAD_4,
	BC_TRIE_SINGLE_8,
	BC_TRIE_SINGLE_NOPAYLOAD_12,
	BC_TRIE_SINGLE_16,
	BC_TRIE_SPARSE_8,
	BC_TRIE_SPARSE_12,
	BC_TRIE_SPARSE_16,
	BC_TRIE_SPARSE_24,
	BC_TRIE_SPARSE_40,
	BC_TRIE_DENSE_12,
	BC_TRIE_DENSE_16,
	BC_TRIE_DENSE_24,
	BC_TRIE_DENSE_32,
	BC_TRIE_DENSE_40,
	BC_TRIE_LONG_DENSE
} bc_trie_node_type;

/* the largest node with its payload: LONG_DENSE of 256 children, 3 + 256 * 8
 * bytes, then a hash byte and 8 bytes of position */
#define BC_TRIE_NODE_MAX (3 + 256 * 8 + 1 + 8)

/*
 * The deepest a Partitions.db trie can be: the byte-comparable form of the
 * longest partition key (65535 bytes) under ByteOrderedPartitioner, whose
 * token is the key itself, each of the two copies escaped (at worst two
 * bytes a byte, and an end byte), with two separators and a terminator.
 */
#define BC_TRIE_MAX_DEPTH ((size_t) 2 * (2 * 65535 + 1) + 3)

/* A node as read (bytes in the walker's buffer). */
typedef struct bc_trie_node
{
	uint64_t	pos;			/* offset in Partitions.db */
	int			type;			/* bc_trie_node_type */
	int			payload_flags;	/* 0: no payload */
	int			range;			/* child slots: 1 single, count sparse,
								 * span dense, 0 payload only */
	int			first_byte;		/* dense: the first slot's byte */
	size_t		size;			/* bytes of the node before its payload */
	size_t		total;			/* with its payload */
} bc_trie_node;

/* a leaf's payload (PartitionIndex.Payload) */
typedef struct bc_trie_payload
{
	int			has_hash;		/* flags 8..15 */
	uint8_t		hash;			/* low byte of the key's filter hash (h2) */
	int64_t		position;		/* >= 0 Rows.db, < 0 ~Data.db offset */
	uint64_t	node_pos;		/* the node that holds it */
} bc_trie_payload;

/* what the readers read, for callers that show the cost of a walk */
typedef struct bc_trie_stats
{
	uint64_t	nodes;			/* nodes read */
	uint64_t	reads;			/* calls of the reader */
	uint64_t	bytes;			/* bytes asked of the reader */
} bc_trie_stats;

/* one level of an iteration: the node and its next child slot */
typedef struct bc_trie_frame
{
	uint64_t	pos;
	int			next;			/* next child slot to visit; -1 before the
								 * node's own payload */
	uint8_t		byte;			/* the transition that led here */
} bc_trie_frame;

/*
 * The trie of a Partitions.db: the file, its footer (bc_partitions_
 * footer_parse) and the node buffer.  The trie is everything before the
 * footer's keys_pos.
 */
typedef struct bc_trie
{
	const bc_reader *file;
	uint64_t	root;
	uint64_t	end;			/* keys_pos: no node reaches it */
	uint64_t	key_count;
	bc_trie_stats stats;
	uint8_t		buf[BC_TRIE_NODE_MAX];
} bc_trie;

/* BC_ERR_PARTITIONS_FORMAT when the footer does not fit the file */
bc_status	bc_trie_init(bc_trie *t, const bc_reader *file, const bc_partitions_footer *f);

/*
 * Read and check the node at pos into t->buf.  BC_ERR_READ,
 * BC_ERR_TRIE_TRUNCATED (the node or its payload reaches past the trie),
 * BC_ERR_TRIE_NODE (an impossible node), BC_ERR_TRIE_POINTER (a child
 * before the start of the file, or not before the node).
 */
bc_status	bc_trie_read_node(bc_trie *t, uint64_t pos, bc_trie_node *n);

/*
 * Child slot i (0 <= i < n->range) of the node in t->buf: its transition
 * byte and offset; returns 0 for an empty dense slot, 1 otherwise.
 */
int			bc_trie_child(const bc_trie *t, const bc_trie_node *n, int i,
						  int *byte, uint64_t *child);

/* the payload of the node in t->buf (n->payload_flags != 0) */
void		bc_trie_payload_get(const bc_trie *t, const bc_trie_node *n, bc_trie_payload *p);

/*
 * Every payload in order (ValueIterator: a node's payload before its
 * children, children by transition byte), one a call.  frames (cap of
 * them) is the stack; BC_ERR_TRIE_DEPTH when the trie is deeper.
 * BC_ERR_TRIE_COUNT when there are more leaves than the footer's count (a
 * trie whose pointers share nodes could otherwise give any number).
 */
typedef struct bc_trie_iter
{
	bc_trie    *t;
	bc_trie_frame *frames;
	size_t		cap;
	size_t		depth;			/* frames in use */
	uint64_t	leaves;
	int			leaf_range;		/* child slots of the last leaf's node */
	int			state;			/* 0 running, 1 done, 2 failed */
} bc_trie_iter;

bc_status	bc_trie_iter_init(bc_trie_iter *it, bc_trie *t, bc_trie_frame *frames, size_t cap);

/* the same, for the payloads of the node at pos and its descendants only
 * (a subtree, e.g. from bc_trie_find_prefix); the prefixes are then those
 * below the node */
bc_status	bc_trie_iter_init_at(bc_trie_iter *it, bc_trie *t, bc_trie_frame *frames,
								 size_t cap, uint64_t node);

/*
 * The next payload into *p, *done = 1 at the end.  The prefix of the leaf
 * (its transition bytes from the root) is frames[1 .. depth).byte; see
 * bc_trie_iter_prefix.
 */
bc_status	bc_trie_iter_next(bc_trie_iter *it, bc_trie_payload *p, int *done);

/* The last leaf's prefix into buf (cap bytes): its length, which may be
 * more than cap (then only cap bytes were copied). */
size_t		bc_trie_iter_prefix(const bc_trie_iter *it, uint8_t *buf, size_t cap);

/* Every payload through a callback: non-zero from it stops the walk with
 * BC_ERR_STOPPED. */
typedef int (*bc_trie_leaf_fn) (const bc_trie_payload *p, const uint8_t *prefix,
								size_t prefix_len, void *arg);
bc_status	bc_trie_walk(bc_trie *t, bc_trie_frame *frames, size_t cap,
						 uint8_t *prefix, size_t prefix_cap,
						 bc_trie_leaf_fn fn, void *arg);

/*
 * A byte-comparable key, one byte a call: 0..255, or -1 at its end (the
 * walk below takes any source; bc_trie_keys.h makes them from partition
 * keys).
 */
typedef int (*bc_trie_byte_fn) (void *arg);

/*
 * Walk a key from the root as far as the trie goes
 * (PartitionIndex.Reader.exactCandidate): *found = 1 and *p when it ends at
 * a node with a payload, having used the whole key or having reached a
 * node with no children (a prefix of the key); otherwise *found = 0.  The
 * hash byte and the key at the position are the caller's to check.
 */
bc_status	bc_trie_find(bc_trie *t, bc_trie_byte_fn next, void *arg,
						 bc_trie_payload *p, int *found);

/*
 * Walk the bytes of a prefix from the root: *found = 1 and *node, the
 * node every key starting with the prefix is under (the prefix used up),
 * or the node with no children the walk reached first (the one key the
 * trie has that can start with it); *found = 0 when no key starts with it.
 */
bc_status	bc_trie_find_prefix(bc_trie *t, bc_trie_byte_fn next, void *arg,
								uint64_t *node, int *found);

#endif							/* BC_TRIE_H */
