/*
 * bc_hll_merge.c - HyperLogLogPlus.merge as Cassandra's
 * SSTableReader.getApproximateKeyCount calls it (cardinality =
 * cardinality.merge(next)): a new HyperLogLogPlus(p, sp) of the first's
 * precisions, addAll(first), addAll(next), with stream-lib 2.5.2's rules:
 *
 *   - sizeof() differs (register words x 4: a normal estimator's words as
 *     read, a sparse one's 2^p / 6 + 1): HyperLogLogPlusMergeException
 *     ("Cannot merge estimators of different sizes"), a
 *     CardinalityMergeException: the merge is refused;
 *   - normal + normal: RegisterSet.merge, register by register, the
 *     larger of each (bits 30 and 31 of each word dropped);
 *   - sparse + sparse: mergeEstimators, the two sets merged as sorted
 *     lists, an equal sparse index once (the smaller encoding); then, when
 *     the result has more than sparseSetThreshold + sortThreshold entries
 *     (7,680 at p = 13), convertToNormal;
 *   - sparse + normal: convertToNormal, then RegisterSet.merge;
 *   - normal + sparse: each entry's register raised to its run length.
 *
 * convertToNormal raises each entry's register (getIndex, decodeRunLength)
 * with RegisterSet.updateIfGreater; a register outside the set is
 * ArrayIndexOutOfBoundsException in Java, BC_ERR_HLL_FORMAT here.
 */
#include <string.h>

#include "bc_hll.h"
#include "bc_hll_java.h"
#include "bc_status.h"
#include "bc_tick.h"

/* sizeof(): a normal estimator's words as read, a sparse one's own set */
static uint32_t
size_of(const bc_hll *h)
{
	return h->sparse ? bc_hll_words(h->p) : h->n;
}

/* raise out's registers (out->p) by a sparse estimator's entries */
static bc_status
raise_registers(bc_hll *out, const int32_t *set, uint32_t n, int32_t p, int32_t sp)
{
	uint32_t	i;

	for (i = 0; i < n; i++)
	{
		int32_t		idx = hll_index(set[i], out->p, sp);

		BC_TICK(i);
		if ((uint32_t) (idx / 6) >= out->n)
			return BC_ERR_HLL_FORMAT;
		hll_update(out->v, idx, hll_run_length(set[i], p, sp));
	}
	return BC_OK;
}

/* RegisterSet.merge: word by word, register by register */
static void
merge_words(bc_hll *out, const int32_t *that)
{
	uint32_t	b;

	for (b = 0; b < out->n; b++)
	{
		int32_t		word = 0;
		int			j;

		for (j = 0; j < 6; j++)
		{
			int32_t		mask = j_shl(0x1f, 5 * j);
			int32_t		a = out->v[b] & mask,
						c = that[b] & mask;

			word |= a < c ? c : a;
		}
		out->v[b] = word;
	}
}

/*
 * mergeEstimators: the set at src (n entries) with other's, written from
 * dst on.  dst may lie below src in one array: src sits other->n places
 * above dst or more, so no entry is overwritten before it is read.
 */
static uint32_t
merge_sparse(int32_t *dst, const int32_t *src, uint32_t n, const bc_hll *other)
{
	uint32_t	si = 0,
				ti = 0,
				w = 0;
	const int32_t *t = other->v;

	while (si < n || ti < other->n)
	{
		BC_TICK(w);
		if (si >= n)
			dst[w++] = t[ti++];
		else if (ti >= other->n)
			dst[w++] = src[si++];
		else
		{
			int32_t		s = src[si],
						o = t[ti];

			if (hll_sparse_index(s) == hll_sparse_index(o))
			{
				dst[w++] = s < o ? s : o;
				si++;
				ti++;
			}
			else if (s < o)
			{
				dst[w++] = s;
				si++;
			}
			else
			{
				dst[w++] = o;
				ti++;
			}
		}
	}
	return w;
}

/*
 * The estimator being built: new HyperLogLogPlus(p, sp) then addAll twice.
 * Its registers are room[0, words), its sparse set (while sparse) at set.
 */
typedef struct merged
{
	bc_hll		h;				/* p, sp, sparse, n; v: the set or room */
	int32_t    *room;
	uint32_t	words;
	int32_t	   *set;
} merged;

/* convertToNormal: the registers zeroed, then raised by the set */
static bc_status
to_normal(merged *m)
{
	bc_hll		regs = m->h;
	bc_status	st;

	regs.sparse = 0;
	regs.n = m->words;
	regs.v = m->room;
	memset(m->room, 0, (size_t) m->words * sizeof(int32_t));
	if ((st = raise_registers(&regs, m->set, m->h.n, m->h.p, m->h.sp)) != BC_OK)
		return st;
	m->h = regs;
	return BC_OK;
}

/* addAll(x): x's size already checked; set_at: where a sparse union goes */
static bc_status
add_all(merged *m, const bc_hll *x, int32_t *set_at)
{
	bc_status	st;

	if (!m->h.sparse && !x->sparse)
	{
		merge_words(&m->h, x->v);
		return BC_OK;
	}
	if (m->h.sparse && x->sparse)
	{
		int32_t		threshold = bc_java_d2i(j_pow2(m->h.p) * 0.75);

		m->h.n = merge_sparse(set_at, m->set, m->h.n, x);
		m->set = set_at;
		m->h.v = set_at;
		if ((int64_t) m->h.n > (int64_t) threshold + threshold / 4)
			return to_normal(m);
		return BC_OK;
	}
	if (m->h.sparse)
	{
		if ((st = to_normal(m)) != BC_OK)
			return st;
		merge_words(&m->h, x->v);
		return BC_OK;
	}
	/* normal + sparse: other.getIndex(k, p), other.decodeRunLength(k) */
	return raise_registers(&m->h, x->v, x->n, x->p, x->sp);
}

uint32_t
bc_hll_merge_room(const bc_hll *acc, const bc_hll *other)
{
	uint64_t	room = (uint64_t) bc_hll_words(acc->p) + acc->n + other->n;

	return room > UINT32_MAX ? UINT32_MAX : (uint32_t) room;
}

bc_status
bc_hll_merge(const bc_hll *acc, const bc_hll *other, int32_t *room, bc_hll *out,
			 int *refused)
{
	merged		m;
	uint32_t	words = bc_hll_words(acc->p);
	bc_status	st;

	*refused = 0;
	if (size_of(acc) != words || size_of(other) != words)
	{
		*refused = 1;
		return BC_OK;
	}
	memset(&m, 0, sizeof(m));
	m.room = room;
	m.words = words;
	m.h.p = acc->p;
	m.h.sp = acc->sp;
	m.h.canonical = acc->canonical && other->canonical;
	/* the set area: room[words, words + acc->n + other->n) */
	m.set = room + words + other->n;
	m.h.v = m.set;
	if (acc->sp > 0)
		m.h.sparse = 1;
	else
	{
		m.h.v = room;
		m.h.n = words;
		memset(room, 0, (size_t) words * sizeof(int32_t));
	}
	/* addAll(acc): into the top of the set area, other's room below it */
	if ((st = add_all(&m, acc, room + words + other->n)) != BC_OK ||
		(st = add_all(&m, other, room + words)) != BC_OK)
		return st;
	*out = m.h;
	out->cap = out->n;
	return BC_OK;
}
