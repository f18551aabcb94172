/*
 * fuzz_big.c - the files of BIG SSTables (bc_statistics.c, bc_index.c,
 * bc_summary.c, and bc_key_range.c's walk of Index.db); Statistics.db is
 * read here for every version.
 *
 * The three stages read the input as <version selector> <chunking> <file>:
 * byte 0 picks a version of fuzz_versions (fuzz.h), byte 1 the chunk
 * sizes of the Index.db cursor and the pieces of bc_index_walk_run, the
 * rest is the file.
 */
#include <string.h>

#include "bc_endian.h"
#include "bc_histogram.h"
#include "bc_index.h"
#include "bc_key_range.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "bc_summary.h"
#include "fuzz.h"

/*
 * What cassandra_metadata and its companions read of a parsed file: every
 * list item, clustering value, histogram bucket and bin inside the input,
 * the bounds walked without an error, and the computations finite where
 * Cassandra's are.
 */
static void
fuzz_metadata(const bc_statistics *s, const uint8_t *d, size_t dl)
{
	const bc_stats_list *lists[6];
	const bc_stats_bound *bounds[2];
	uint32_t	i;
	int			k;

	lists[0] = &s->legacy_min;
	lists[1] = &s->legacy_max;
	lists[2] = &s->clustering_types;
	lists[3] = &s->header_clustering;
	lists[4] = &s->static_columns;
	lists[5] = &s->regular_columns;
	if (s->detail_status != BC_OK)
		return;
	for (k = 0; k < 6; k++)
	{
		bc_stats_list l = *lists[k];
		const uint8_t *item,
				   *type = NULL;
		size_t		len,
					tlen = 0;
		uint32_t	n = 0;

		while (bc_stats_list_next(&l, &item, &len, &type, &tlen))
		{
			CHECK(inside(item, len, d, dl));
			if (lists[k]->kind == BC_SL_VCOLUMN)
				CHECK(inside(type, tlen, d, dl));
			n++;
		}
		CHECK(n == lists[k]->n);
	}
	bounds[0] = &s->min_bound;
	bounds[1] = &s->max_bound;
	for (k = 0; s->has_bounds && k < 2; k++)
	{
		bc_stats_bound_iter it;
		const uint8_t *v;
		size_t		len;
		int			is_null,
					got = 1;
		uint32_t	n = 0;

		bc_stats_bound_iter_init(&it, s, bounds[k]);
		while (got)
		{
			CHECK(bc_stats_bound_iter_next(&it, &v, &len, &is_null, &got) == BC_OK);
			if (got && !is_null)
				CHECK(inside(v, len, d, dl));
			n += got;
		}
		CHECK(n == bounds[k]->size);
	}
	CHECK(inside(s->partition_sizes.entries, (size_t) s->partition_sizes.n * 16, d, dl));
	if (s->has_stats_detail)
	{
		CHECK(inside(s->column_counts.entries, (size_t) s->column_counts.n * 16, d, dl));
		CHECK(inside(s->tombstones.bins, (size_t) s->tombstones.n * (s->tombstones.wide ? 12 : 16),
					 d, dl));
		for (i = 0; i < s->tombstones.n; i++)
		{
			int64_t		p;
			int32_t		c;

			bc_tomb_bin(&s->tombstones, i, &p, &c);
			CHECK(p >= 0 && p <= INT64_C(4294967294));
		}
		(void) bc_droppable_ratio(s, 0);
		(void) bc_droppable_ratio(s, INT64_C(1) << 40);
		(void) bc_est_mean(&s->partition_sizes);
	}
	if (s->first_key != NULL)
		CHECK(inside(s->first_key, s->first_key_len, d, dl) &&
			  inside(s->last_key, s->last_key_len, d, dl));
}

void
fuzz_statistics(const uint8_t *data, size_t len)
{
	const fuzz_version *fv = pick_version(data, len);
	size_t		skip = len < 2 ? len : 2;
	const uint8_t *d = data + skip;
	size_t		dl = len - skip;
	size_t		vl = strlen(fv->v);
	bc_statistics s,
				t;
	bc_status	st;

	memset(&s, 0x5a, sizeof(s));
	st = bc_statistics_parse(d, dl, fv->v, vl, &s);
	CHECK(bc_status_message(st) != NULL);
	if (fv->stats == SV_REFUSED)
		CHECK(st == BC_ERR_VERSION_UNKNOWN || st == BC_ERR_VERSION_UNSUPPORTED);
	else
		CHECK(st == BC_OK || (st >= BC_ERR_STATS_TRUNCATED && st <= BC_ERR_STATS_FIELD));
	if (st != BC_OK)
	{
		/* nothing half-read escapes */
		CHECK(s.partitioner == NULL && s.partitioner_len == 0 &&
			  s.key_type == NULL && s.key_type_len == 0 &&
			  s.has_fp_chance == 0 && s.fp_chance == 0.0 && s.partitions == 0 &&
			  s.checksummed == 0);
		return;
	}
	CHECK(inside(s.partitioner, s.partitioner_len, d, dl) && s.partitioner_len > 0);
	CHECK(is_printable(s.partitioner, s.partitioner_len));
	CHECK(s.has_fp_chance == (fv->stats != SV_LEGACY_12));
	if (s.has_fp_chance)
		CHECK(s.fp_chance > 0.0 && s.fp_chance <= 1.0);
	CHECK(s.partitions >= 0);
	if (fv->stats >= SV_HEADER)
	{
		/* an empty key type is BytesType to Cassandra's TypeParser */
		CHECK(s.key_type != NULL && inside(s.key_type, s.key_type_len, d, dl));
		CHECK(is_printable(s.key_type, s.key_type_len));
	}
	else
		CHECK(s.key_type == NULL && s.key_type_len == 0);
	CHECK(s.checksummed == (fv->stats == SV_CRC));
	fuzz_metadata(&s, d, dl);

	/* bytes after a component's last field are ignored, as the readers
	 * do: one byte less is refused or gives the same facts (without CRCs,
	 * where a shorter file could match by chance) */
	if (fv->stats != SV_CRC && dl > 0 &&
		bc_statistics_parse(d, dl - 1, fv->v, vl, &t) == BC_OK)
		CHECK(t.partitions == s.partitions && t.has_fp_chance == s.has_fp_chance &&
			  (!s.has_fp_chance || t.fp_chance == s.fp_chance) &&
			  t.partitioner_len == s.partitioner_len &&
			  memcmp(t.partitioner, s.partitioner, s.partitioner_len) == 0 &&
			  t.key_type_len == s.key_type_len &&
			  (s.key_type == NULL || memcmp(t.key_type, s.key_type, s.key_type_len) == 0));
}

/* An Index.db entry as bc_index_parse gave it (the key is at offset + 2). */
typedef struct index_rec
{
	uint64_t	offset;
	size_t		key_len;
	int64_t		position;
	int64_t		promoted;
	uint64_t	next;			/* next_offset */
} index_rec;

typedef struct index_walk
{
	const uint8_t *file;
	size_t		len;
	index_rec  *recs;
	size_t		n;
	size_t		stop;			/* return non-zero after this many */
} index_walk;

/* One entry, from either reader, checked against the file and recs[]. */
static void
check_index_entry(const index_walk *w, const bc_index_entry *e, size_t i,
				  int record)
{
	CHECK(e->ordinal == i);
	CHECK(e->key_len <= BC_INDEX_MAX_KEY);
	CHECK(e->index_offset <= w->len && e->key_len + 2 <= w->len - e->index_offset);
	CHECK(e->key_len == (((size_t) w->file[e->index_offset] << 8) |
						 w->file[e->index_offset + 1]));
	CHECK(e->key_len == 0 ||
		  memcmp(e->key, w->file + e->index_offset + 2, e->key_len) == 0);
	CHECK(e->position >= 0);
	CHECK(e->promoted_size >= 0 && e->promoted_size <= INT32_MAX);
	if (i > 0)
		CHECK(e->position > w->recs[i - 1].position);
	else
		CHECK(e->position == 0);	/* the first partition at Data.db's start */
	/* the next entry after this one's promoted index */
	CHECK(e->next_offset > e->index_offset + 2 + e->key_len + (uint64_t) e->promoted_size);
	if (record)
	{
		w->recs[i].offset = e->index_offset;
		w->recs[i].key_len = e->key_len;
		w->recs[i].position = e->position;
		w->recs[i].promoted = e->promoted_size;
		w->recs[i].next = e->next_offset;
	}
	else
		CHECK(i < w->n && w->recs[i].offset == e->index_offset &&
			  w->recs[i].key_len == e->key_len &&
			  w->recs[i].position == e->position &&
			  w->recs[i].promoted == e->promoted_size && w->recs[i].next == e->next_offset);
}

static int
index_collect(const bc_index_entry *e, void *arg)
{
	index_walk *w = arg;

	check_index_entry(w, e, w->n, 1);
	w->n++;
	return w->stop > 0 && w->n == w->stop;
}

/* Chunk sizes from byte b: fixed 1 .. 64 or 97 .. 6208, or pseudo-random
 * in 0 .. 2b + 2 (empty chunks too) or 1 .. 4096. */
static size_t
next_chunk(uint8_t b, uint32_t *rng, int *was_empty)
{
	size_t		n;

	*rng = *rng * 1103515245u + 12345u;
	switch (b >> 6)
	{
		case 0:
			n = (size_t) (b & 63) + 1;
			break;
		case 1:
			n = ((size_t) (b & 63) + 1) * 97;
			break;
		case 2:
			n = (*rng >> 16) % (2 * (size_t) (b & 63) + 3);
			break;
		default:
			n = 1 + (*rng >> 16) % 4096;
			break;
	}
	if (n == 0 && *was_empty)
		n = 1;
	*was_empty = n == 0;
	return n;
}


/* ---- bc_index_walk_run (bc_key_range.c) --------------------------- */

/* about 200 kB: one for every input */
static bc_index_walk walker;

typedef struct walk_count
{
	const index_walk *w;
	size_t		n;
	size_t		stop;			/* stop after this many, 0: never */
} walk_count;

static int
walk_entry(void *arg, const bc_index_entry *e)
{
	walk_count *wc = arg;

	check_index_entry(wc->w, e, wc->n, 0);
	wc->n++;
	return wc->stop > 0 && wc->n == wc->stop;
}

/*
 * The file through bc_index_walk_run, in pieces of a size taken from the
 * chunking byte and reads that may give fewer bytes: the same status and
 * entries as bc_index_parse (st, w), the first and last keys; a read that
 * fails gives BC_ERR_READ, a callback that stops BC_ERR_STOPPED.
 */
static void
check_index_walk(const fuzz_version *fv, const index_walk *w, bc_status st, uint8_t chunking)
{
	size_t		vl = strlen(fv->v);
	size_t		piece_len = (chunking & 0x80) ? ((size_t) (chunking & 63) + 1) * 131
		: (size_t) (chunking & 63) + 1;
	uint8_t    *piece = xmalloc(piece_len);
	fuzz_mem	m;
	bc_reader	r = fuzz_mem_open(&m, w->file, w->len);
	walk_count	wc = {w, 0, 0};
	bc_status	ws;
	uint64_t	reads;

	m.piece = (chunking & 0x40) ? 1 + (size_t) chunking % 7 : 0;
	ws = bc_index_walk_run(&walker, &r, fv->v, vl, piece, piece_len, walk_entry, &wc);
	CHECK(ws == st);
	CHECK(walker.nkeys == w->n && wc.n == w->n);
	if (w->n > 0)
	{
		const index_rec *a = &w->recs[0],
				   *z = &w->recs[w->n - 1];

		CHECK(walker.first_len == a->key_len &&
			  memcmp(walker.first, w->file + a->offset + 2, a->key_len) == 0);
		CHECK(walker.last_len == z->key_len &&
			  memcmp(walker.last, w->file + z->offset + 2, z->key_len) == 0);
	}
	else
		CHECK(walker.first_len == 0 && walker.last_len == 0);

	/* one of the reads made fails: the walk stops there */
	reads = m.reads;
	if (reads > 0 && ws != BC_ERR_VERSION_UNKNOWN && ws != BC_ERR_VERSION_UNSUPPORTED &&
		ws != BC_ERR_INDEX_BTI)
	{
		uint64_t	at = 1 + (uint64_t) chunking % reads;

		r = fuzz_mem_open(&m, w->file, w->len);
		m.piece = (chunking & 0x40) ? 1 + (size_t) chunking % 7 : 0;
		m.fail_at = at;
		wc.n = 0;
		CHECK(bc_index_walk_run(&walker, &r, fv->v, vl, piece, piece_len, walk_entry, &wc) ==
			  BC_ERR_READ);
		CHECK(m.reads == at && wc.n <= w->n);
	}

	/* a callback that stops after 1 .. n entries */
	if (w->n > 0)
	{
		r = fuzz_mem_open(&m, w->file, w->len);
		wc.n = 0;
		wc.stop = 1 + (size_t) chunking % w->n;
		CHECK(bc_index_walk_run(&walker, &r, fv->v, vl, piece, piece_len, walk_entry, &wc) ==
			  BC_ERR_STOPPED);
		CHECK(wc.n == wc.stop);
	}
	free(piece);
}

void
fuzz_index(const uint8_t *data, size_t len)
{
	const fuzz_version *fv = pick_version(data, len);
	uint8_t		chunking = len > 1 ? data[1] : 0;
	size_t		skip = len < 2 ? len : 2;
	index_walk	w;
	size_t		vl = strlen(fv->v),
				i,
				fed = 0,
				ncur = 0;
	uint64_t	nkeys = 0;
	bc_index_era era = BC_INDEX_ERA_12;
	bc_index_cursor *c;
	bc_index_entry e;
	bc_status	st,
				cst,
				est;
	uint32_t	rng = chunking;
	int			got,
				was_empty = 0;

	w.file = data + skip;
	w.len = len - skip;
	w.n = 0;
	w.stop = 0;
	/* an entry takes at least 4 bytes (ma and later: two 1-byte vints) */
	w.recs = xmalloc((w.len / 4 + 1) * sizeof(index_rec));

	est = bc_index_era_lookup(fv->v, vl, &era);
	if (fv->era < 0)
		CHECK(est != BC_OK);
	else
		CHECK(est == BC_OK && (int) era == fv->era);

	/* the whole file at once */
	st = bc_index_parse(fv->v, vl, w.file, w.len, index_collect, &w, &nkeys);
	CHECK(nkeys == w.n);
	if (est != BC_OK)
		CHECK(st == est && w.n == 0);
	else
		CHECK(st == BC_OK || st == BC_ERR_INDEX_TRUNCATED ||
			  st == BC_ERR_INDEX_LENGTH || st == BC_ERR_INDEX_ORDER ||
			  st == BC_ERR_INDEX_FIRST_POSITION);

	/* entries are back to back: 12 bytes of numbers before 3.0, two
	 * vints (2 .. 18 bytes) since; a complete file ends with its last */
	for (i = 0; i < w.n; i++)
	{
		uint64_t	next = i + 1 < w.n ? w.recs[i + 1].offset : w.len;
		uint64_t	body = w.recs[i].offset + 2 + w.recs[i].key_len +
			(uint64_t) w.recs[i].promoted;

		if (i + 1 == w.n && st != BC_OK)
			break;
		CHECK(next > body);
		CHECK(i + 1 == w.n || w.recs[i].next == next);
		if (era == BC_INDEX_ERA_30)
			CHECK(next - body >= 2 && next - body <= 18);
		else
			CHECK(next - body == 12);
	}
	if (st == BC_OK)
		CHECK((w.n == 0) == (w.len == 0) && (w.n == 0 || w.recs[0].offset == 0));

	/* a callback that stops the walk: BC_OK with the keys so far */
	if (w.n > 0)
	{
		index_walk	w2 = w;

		w2.stop = 1 + (size_t) chunking % w.n;
		w2.n = 0;
		w2.recs = xmalloc(w.n * sizeof(index_rec));
		CHECK(bc_index_parse(fv->v, vl, w.file, w.len, index_collect, &w2,
							 &nkeys) == BC_OK);
		CHECK(nkeys == w2.stop && w2.n == w2.stop);
		free(w2.recs);
	}

	/* the cursor, fed in chunks (each its own exact-size block, freed once
	 * used up, so ASan sees a key left pointing into an old chunk) */
	c = xmalloc(sizeof(*c));
	cst = bc_index_init(c, fv->v, vl);
	CHECK(cst == est);
	if (cst == BC_OK)
	{
		for (;;)
		{
			size_t		n = next_chunk(chunking, &rng, &was_empty);
			uint8_t    *chunk;

			if (n > w.len - fed)
				n = w.len - fed;
			chunk = xmalloc(n);
			memcpy(chunk, w.file + fed, n);
			cst = bc_index_feed(c, chunk, n);
			while (cst == BC_OK)
			{
				cst = bc_index_next(c, &e, &got);
				if (cst != BC_OK || !got)
					break;
				check_index_entry(&w, &e, ncur++, 0);
			}
			free(chunk);
			fed += n;
			if (cst != BC_OK || fed == w.len)
				break;
		}
		if (cst == BC_OK)
		{
			cst = bc_index_finish(c);
			if (cst == BC_OK)	/* nothing more may be fed */
				CHECK(bc_index_feed(c, w.file, 0) == BC_ERR_CURSOR_STATE);
		}
		else
		{
			/* an error is final */
			CHECK(bc_index_next(c, &e, &got) == cst && got == 0);
			CHECK(bc_index_finish(c) == cst);
		}
	}
	CHECK(cst == st);
	CHECK(ncur == w.n);
	free(c);

	check_index_walk(fv, &w, st, chunking);
	free(w.recs);
}

void
fuzz_summary(const uint8_t *data, size_t len)
{
	const fuzz_version *fv = pick_version(data, len);
	size_t		skip = len < 2 ? len : 2;
	const uint8_t *d = data + skip;
	size_t		dl = len - skip;
	size_t		vl = strlen(fv->v);
	bc_summary	s;
	bc_status	st;
	int32_t		i;

	st = bc_summary_parse(fv->v, vl, d, dl, &s);
	if (fv->era < 0)
		CHECK(st != BC_OK);
	if (st != BC_OK)
		return;
	CHECK((int) s.era == fv->era);
	CHECK(s.min_index_interval >= 1 && s.count >= 0);
	CHECK(s.sampling_level >= 1 && s.sampling_level <= 128);
	/* the size at full sampling is reported as stored (ScyllaDB: 0) */
	if (s.era == BC_INDEX_ERA_12 || s.era == BC_INDEX_ERA_20)
		CHECK(s.sampling_level == 128 && s.size_at_full_sampling == s.count);
	CHECK(inside(s.first, s.first_len, d, dl) && s.first_len <= BC_INDEX_MAX_KEY);
	CHECK(inside(s.last, s.last_len, d, dl) && s.last_len <= BC_INDEX_MAX_KEY);
	CHECK(s.first + s.first_len + 4 == s.last);
	CHECK(s.tail_len == dl - (size_t) (s.last + s.last_len - d));
	for (i = 0; i < s.count; i++)
	{
		const uint8_t *key = NULL;
		size_t		kl = 0;
		int64_t		off = -1;

		CHECK(bc_summary_entry(&s, i, &key, &kl, &off) == BC_OK);
		/* sampled keys come before the first key's length */
		CHECK(inside(key, kl, d, (size_t) (s.first - 4 - d)));
		CHECK(kl <= BC_INDEX_MAX_KEY);
		/* the Index.db positions are not checked (as by the readers) */
		(void) off;
	}
	CHECK(bc_summary_entry(&s, s.count, NULL, NULL, NULL) == BC_ERR_BUFFER);
	CHECK(bc_summary_entry(&s, -1, NULL, NULL, NULL) == BC_ERR_BUFFER);
}
