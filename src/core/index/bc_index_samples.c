/*
 * bc_index_samples.c - Summary.db's samples as checkpoints of a whole read
 * of Index.db (see bc_index_samples.h).
 *
 * Cassandra's readers: BigTableReader.getPosition seeks Index.db to the
 * position IndexSummary gives and reads entries from there; KeyIterator
 * (5.0 BigTableKeyReader) and the scanner read them from the start.  They
 * read the same entries on a right Index.db; the verifier reads every
 * entry against Data.db (Verifier.verify, 5.0
 * SortedTableVerifier.verifySSTable) and would fail on one whose length
 * swallows the entries behind it.  The check here is what tells a listing
 * that an entry's length is wrong where Data.db is not read: Summary.db
 * says an entry of its key starts inside it, and that entry is there.
 *
 * The positions are read once, through two windows over Summary.db (the
 * offsets at the start of its region, the samples after them: both read
 * in order on a right file), and sorted; a listing then passes them in
 * order, at no cost for an entry that no sample falls inside.  A sample
 * inside an entry costs the reads of a lookup's first step (its key in
 * Summary.db, the entry at its position in Index.db), once.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_index_samples.h"
#include "bc_tick.h"

/* Summary.db read through two windows of BC_INDEX_SAMPLES_WINDOW bytes */
typedef struct windows
{
	const bc_reader *r;
	uint8_t    *buf[2];
	uint64_t	off[2];
	size_t		len[2];
	int			last;			/* the window read from last */
} windows;

static int
windows_read(void *arg, uint64_t offset, uint8_t *buf, size_t len, size_t *got)
{
	windows    *w = arg;
	int			i;

	*got = 0;
	if (len > BC_INDEX_SAMPLES_WINDOW)
		return w->r->read(w->r->arg, offset, buf, len, got);
	for (i = 0; i < 2; i++)
		if (offset >= w->off[i] && offset - w->off[i] <= w->len[i] &&
			(w->len[i] - (size_t) (offset - w->off[i]) >= len ||
			 w->off[i] + w->len[i] == w->r->size))
			break;
	if (i == 2)
	{
		/* refill the window not read from last */
		i = !w->last;
		w->len[i] = 0;
		if (w->r->read(w->r->arg, offset, w->buf[i], BC_INDEX_SAMPLES_WINDOW, &w->len[i]) != 0)
			return 1;
		w->off[i] = offset;
	}
	w->last = i;
	*got = w->len[i] - (size_t) (offset - w->off[i]);
	if (*got > len)
		*got = len;
	if (*got > 0)
		memcpy(buf, w->buf[i] + (offset - w->off[i]), *got);
	return 0;
}

bc_status
bc_index_samples_count(const bc_reader *summary, const char *version, size_t vlen,
					   size_t *count)
{
	bc_index_era era;
	bc_summary_layout l;
	bc_status	st;

	*count = 0;
	if (summary == NULL || bc_index_era_lookup(version, vlen, &era) != BC_OK ||
		era == BC_INDEX_ERA_12)
		return BC_OK;
	st = bc_lookup_summary_layout(summary, era, &l);
	if (st == BC_ERR_READ)
		return st;
	/* a header a lookup does not use: it reads Index.db from its start */
	if (st == BC_OK)
		*count = (size_t) l.count;
	return BC_OK;
}

static int
by_position(const void *a, const void *b)
{
	const bc_index_sample *x = a,
			   *y = b;

	if (x->position != y->position)
		return x->position < y->position ? -1 : 1;
	return (x->sample > y->sample) - (x->sample < y->sample);
}

bc_status
bc_index_samples_init(bc_index_samples *s, const bc_reader *summary, const bc_reader *index,
					  const char *version, size_t vlen, bc_index_sample *slots, size_t nslots,
					  uint8_t *window, uint8_t *scratch)
{
	windows		w;
	bc_reader	wr;
	int32_t		i;
	bc_status	st;

	memset(s, 0, sizeof(*s));
	s->summary = summary;
	s->index = index;
	s->slots = slots;
	s->scratch = scratch;
	if (nslots == 0 || bc_index_era_lookup(version, vlen, &s->era) != BC_OK)
		return BC_OK;
	s->negative_is_none = bc_index_negative_size_is_none(version, vlen);
	memset(&w, 0, sizeof(w));
	w.r = summary;
	w.buf[0] = window;
	w.buf[1] = window + BC_INDEX_SAMPLES_WINDOW;
	wr.read = windows_read;
	wr.arg = &w;
	wr.size = summary->size;
	st = bc_lookup_summary_layout(&wr, s->era, &s->layout);
	if (st != BC_OK || (size_t) s->layout.count != nslots)
		return st == BC_ERR_READ ? st : BC_OK;
	for (i = 0; i < s->layout.count; i++)
	{
		uint64_t	position;

		BC_TICK((uint32_t) i);
		st = bc_lookup_sample_position(&wr, &s->layout, i, &position);
		if (st == BC_ERR_READ)
			return st;
		/* one a lookup cannot use: it reads Index.db from its start */
		if (st != BC_OK)
			continue;
		slots[s->n].position = position;
		slots[s->n++].sample = i;
	}
	qsort(slots, s->n, sizeof(*slots), by_position);
	return BC_OK;
}

bc_status
bc_index_samples_check(bc_index_samples *s, const bc_index_entry *e)
{
	/* the samples at or before the entry's start: passed */
	while (s->next < s->n && s->slots[s->next].position <= e->index_offset)
		s->next++;
	while (s->next < s->n && s->slots[s->next].position < e->next_offset)
	{
		int			at;
		bc_status	st;

		st = bc_lookup_sample_at(s->summary, s->index, &s->layout, s->era,
								 s->negative_is_none, s->slots[s->next].sample, s->scratch, &at);
		s->compared++;
		if (st != BC_OK)
			return st;
		if (at)
			return BC_ERR_INDEX_SAMPLE;
		s->next++;
	}
	return BC_OK;
}
