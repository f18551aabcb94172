/*
 * fuzz_hll.c - the cardinality estimator (bc_hll.c, bc_hll_merge.c,
 * bc_hll_scylla.c) and the explanation of a filter's size
 * (bc_filter_sizing.c).  The input is read three ways:
 *
 *   - whole, as an estimator's bytes, in a version ScyllaDB writes and in
 *     one it does not: a parse that succeeds bounds every count by the
 *     bytes (no entry in less than a byte, no register word in less than
 *     four), the payload lies inside the input, p in [4, 18]; ScyllaDB's
 *     form only where allowed; the cardinality from the bytes equals the
 *     cardinality of the decoded values (into an exact-size block);
 *   - split at a point its first byte chooses, as two estimators merged
 *     both ways into exact-size rooms: the result fits its room, a sparse
 *     result holds at most the entries of both, a normal one one register
 *     set; a refusal is symmetric; two normal estimators of registers a
 *     word holds give the same registers either way;
 *   - its first 24 bytes as a filter's shape, a partition count, an
 *     fp_chance and an estimate for bc_filter_sizing_explain: a filter
 *     sized by both is sized by a flush, an undersized one by a compaction
 *     alone.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_endian.h"
#include "bc_filter_sizing.h"
#include "bc_hll.h"
#include "fuzz.h"

/* decode into an exact-size block; *h->v to free */
static int
decode(const uint8_t *data, size_t size, int scylla, bc_hll *h, bc_hll_view *v)
{
	memset(h, 0, sizeof(*h));
	if (bc_hll_parse(data, size, scylla, v) != BC_OK || v->kind != BC_HLL_STREAMLIB)
		return 0;
	h->v = xmalloc((size_t) v->n * sizeof(int32_t));
	h->cap = v->n;
	bc_hll_decode(v, h);
	return 1;
}

static void
whole(const uint8_t *data, size_t size, int scylla)
{
	bc_hll_view v;
	bc_hll		h;
	bc_status	st = bc_hll_parse(data, size, scylla, &v);
	int64_t		a = 0,
				b = 0;

	CHECK(st == BC_OK || st == BC_ERR_HLL_TRUNCATED || st == BC_ERR_HLL_FORMAT ||
		  st == BC_ERR_HLL_UNSUPPORTED);
	if (st != BC_OK)
		return;
	if (v.kind == BC_HLL_SCYLLA)
	{
		CHECK(scylla && v.m >= 16 && v.m <= 65536 && inside(v.registers, v.m, data, size));
		st = bc_hll_view_cardinality(&v, &a);
		CHECK(st == BC_OK || st == BC_ERR_HLL_FORMAT);
		CHECK(st != BC_OK || a >= 0);
		return;
	}
	CHECK(v.p >= BC_HLL_MIN_P && v.p <= BC_HLL_MAX_P);
	CHECK(v.sparse ? (size_t) v.n <= size : (size_t) v.n * 4 <= size);
	CHECK(v.payload >= data && v.payload <= data + size);
	CHECK(decode(data, size, scylla, &h, &v));
	st = bc_hll_view_cardinality(&v, &a);
	CHECK(st == bc_hll_cardinality(&h, &b));
	CHECK(st != BC_OK || a == b);
	free(h.v);
}

static void
merged(const bc_hll *a, const bc_hll *b, bc_hll *out, int *refused, bc_status *st, int32_t **room)
{
	uint32_t	n = bc_hll_merge_room(a, b);

	*room = xmalloc((size_t) n * sizeof(int32_t));
	*st = bc_hll_merge(a, b, *room, out, refused);
	CHECK(*st == BC_OK || *st == BC_ERR_HLL_FORMAT);
	if (*st != BC_OK || *refused)
		return;
	CHECK(out->v >= *room && out->v + out->n <= *room + n);
	CHECK(out->sparse ? (uint64_t) out->n <= (uint64_t) a->n + b->n : out->n == bc_hll_words(a->p));
}

static void
merges(const uint8_t *data, size_t size)
{
	size_t		cut;
	bc_hll		a,
				b,
				ab,
				ba;
	bc_hll_view va,
				vb;
	int32_t    *r1 = NULL,
			   *r2 = NULL;
	int			ref1 = 0,
				ref2 = 0;
	bc_status	s1,
				s2;

	if (size < 2)
		return;
	cut = 1 + (size_t) data[0] * (size - 1) / 255;
	if (!decode(data + 1, cut - 1, 0, &a, &va))
		return;
	if (!decode(data + cut, size - cut, 0, &b, &vb))
	{
		free(a.v);
		return;
	}
	merged(&a, &b, &ab, &ref1, &s1, &r1);
	merged(&b, &a, &ba, &ref2, &s2, &r2);
	/* sizes compared with a new estimator of the first's p: symmetric
	 * when the two have one p */
	if (a.p == b.p && s1 == BC_OK && s2 == BC_OK)
		CHECK(ref1 == ref2);
	if (s1 == BC_OK && s2 == BC_OK && !ref1 && !ref2 && !a.sparse && !b.sparse &&
		a.canonical && b.canonical)
		CHECK(ab.n == ba.n && memcmp(ab.v, ba.v, (size_t) ab.n * sizeof(int32_t)) == 0);
	if (s1 == BC_OK && !ref1)
	{
		int64_t		c;
		bc_status	st = bc_hll_cardinality(&ab, &c);

		CHECK(st == BC_OK || st == BC_ERR_HLL_UNSUPPORTED);
	}
	free(r1);
	free(r2);
	free(a.v);
	free(b.v);
}

static void
sizing(const uint8_t *data, size_t size)
{
	bc_filter_sizing fs;
	bc_status	st;
	int64_t		partitions,
				estimate,
				words;
	double		fp;

	if (size < 24)
		return;
	partitions = (int64_t) (bc_get_be32(data) & 0xffffff);
	estimate = (int64_t) (bc_get_be32(data + 4) & 0xffffff) - 1;
	words = 1 + (int64_t) (bc_get_be32(data + 8) & 0xfffff);
	fp = (double) (bc_get_be32(data + 12) % 1000000 + 1) / 1000001.0;
	st = bc_filter_sizing_explain(1 + data[16] % 21, words, partitions, fp, estimate, &fs);
	if (st != BC_OK)
		return;
	CHECK(fs.sized_by != BC_SIZED_BOTH || (partitions >= fs.sized_for_min && partitions <= fs.sized_for_max));
	CHECK(!fs.undersized || (fs.sized_by == BC_SIZED_COMPACTION && words < fs.flush_word_count));
	CHECK(!fs.has_compaction || estimate >= 0);
	CHECK(fs.fpr_at_partitions >= 0.0 && fs.fpr_at_partitions <= 1.0);
}

void
fuzz_hll(const uint8_t *data, size_t size)
{
	whole(data, size, 0);
	whole(data, size, 1);
	merges(data, size);
	sizing(data, size);
}
