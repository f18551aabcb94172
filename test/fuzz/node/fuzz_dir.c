/*
 * fuzz_dir.c - what a data directory holds besides SSTables
 * (bc_txn_log.c, bc_sstable_dir.c): the input as a whole transaction log
 * (bc_txn_log_scan: verified and applied) and each of its lines as a
 * record (bc_txn_record_parse, bc_txn_record_checksum), and the input as
 * a log's file name
 * (bc_txn_log_name) and as a data directory's folder path
 * (bc_folder_parse); the input as a ScyllaDB pending_delete log, whole
 * (bc_pending_delete_scan) and in pieces (bc_pending_delete_feed: the same
 * SSTables), and its name (bc_pending_delete_log_name); the input as a
 * folder's walked and real paths (bc_walk_place: what a link leads to).
 */
#include <string.h>

#include "bc_pending_delete.h"
#include "bc_sstable_dir.h"
#include "bc_status.h"
#include "bc_txn_log.h"
#include "bc_walk.h"
#include "bc_walk_place.h"
#include "fuzz.h"

typedef struct txn_span
{
	const uint8_t *data;
	size_t		len;
	int			obsolete;		/* -1 until the first SSTable */
} txn_span;

static void
txn_scan_sstable(void *arg, int obsolete, const char *base, size_t len)
{
	txn_span   *t = arg;

	CHECK(obsolete == 0 || obsolete == 1);
	/* one log takes its SSTables out one way only */
	CHECK(t->obsolete == -1 || t->obsolete == obsolete);
	t->obsolete = obsolete;
	CHECK(len > 0 && inside(base, len, t->data, t->len));
}

/* what bc_pending_delete_scan and _feed report: a whole line of the log
 * (found from a cursor that moves forward: lines are reported in order),
 * no '/', its descriptor then -TOC.txt; the descriptors joined in out */
typedef struct pending_span
{
	const uint8_t *data;
	size_t		len;
	size_t		cursor;			/* the start of the line after the last one
								 * reported */
	size_t		n;
	char	   *out;
	size_t		outlen;
} pending_span;

static void
pending_sstable(void *arg, const char *d, size_t dlen)
{
	pending_span *p = arg;
	const char *text = (const char *) p->data;
	size_t		want = dlen + 8;

	CHECK(dlen > 0 && want <= BC_PENDING_DELETE_MAX_LINE);
	CHECK(memchr(d, '/', dlen) == NULL && memcmp(d + dlen, "-TOC.txt", 8) == 0);
	/* the next line of the log that is exactly d-TOC.txt */
	for (;;)
	{
		const char *nl;
		size_t		l;

		CHECK(p->cursor < p->len);
		nl = memchr(text + p->cursor, '\n', p->len - p->cursor);
		l = (size_t) ((nl ? nl : text + p->len) - (text + p->cursor));
		p->cursor += l + 1;
		if (l == want && memcmp(text + p->cursor - l - 1, d, want) == 0)
			break;
	}
	p->out = realloc(p->out, p->outlen + dlen + 1);
	CHECK(p->out != NULL);
	memcpy(p->out + p->outlen, d, dlen);
	p->out[p->outlen + dlen] = '\n';
	p->outlen += dlen + 1;
	p->n++;
}

/* the log fed in pieces of step bytes: what the whole log reports */
static void
pending_pieces(const uint8_t *data, size_t len, size_t step, const pending_span *whole)
{
	pending_span q = {data, len, 0, 0, NULL, 0};
	bc_pending_delete_scanner *sc = xmalloc(sizeof(*sc));
	size_t		i;

	memset(sc, 0, sizeof(*sc));
	for (i = 0; i < len; i += step)
		bc_pending_delete_feed(sc, (const char *) data + i, len - i < step ? len - i : step,
							   pending_sstable, &q);
	bc_pending_delete_finish(sc, pending_sstable, &q);
	CHECK(q.n == whole->n && q.outlen == whole->outlen &&
		  (q.outlen == 0 || memcmp(q.out, whole->out, q.outlen) == 0));
	free(q.out);
	free(sc);
}

/*
 * bc_walk_place over a made-up file system: the input is the path walked,
 * then (after a NUL, or the same) its real path; two paths are the same
 * folder when they are equal strings, and every path is a folder.  The
 * place is NULL (the path walked), the real path itself, or the walked
 * table's folder followed by a part of the real path; every allocation is
 * given back.
 */
static long place_live;

static void *
place_alloc(void *arg, size_t size)
{
	(void) arg;
	place_live++;
	return xmalloc(size);
}

static void
place_release(void *arg, void *p)
{
	(void) arg;
	place_live--;
	free(p);
}

static void
place_stat(void *arg, const char *path, bc_walk_stat *st)
{
	uint64_t	h = 1469598103934665603ULL;
	const unsigned char *c;

	(void) arg;
	for (c = (const unsigned char *) path; *c; c++)
		h = (h ^ *c) * 1099511628211ULL;
	memset(st, 0, sizeof(*st));
	st->type = BC_WALK_DIRECTORY;
	st->dev = 1;
	st->ino = h;
}

static void
fuzz_place(const uint8_t *data, size_t len)
{
	static const bc_walk_ops ops = {
		place_alloc, place_release, place_stat, NULL, NULL, NULL, NULL, NULL, NULL
	};
	size_t		dl = len > 1024 ? 1024 : len;
	const uint8_t *nul = memchr(data, 0, dl);
	char	   *dir,
			   *real,
			   *place;
	size_t		rl;

	if (nul != NULL)
		dl = (size_t) (nul - data);
	rl = nul != NULL ? len - dl - 1 : dl;
	if (rl > 1024)
		rl = 1024;
	dir = xmalloc(dl + 1);
	memcpy(dir, data, dl);
	dir[dl] = '\0';
	real = xmalloc(rl + 1);
	memcpy(real, nul != NULL ? nul + 1 : data, rl);
	real[rl] = '\0';
	place_live = 0;
	place = bc_walk_place(&ops, NULL, dir, real);
	if (place != NULL)
	{
		bc_folder	fd;

		bc_folder_parse(dir, strlen(dir), &fd);
		CHECK(strcmp(place, real) == 0 ||
			  (fd.table != NULL && strncmp(place, dir, (size_t) (fd.table - dir)) == 0));
		place_release(NULL, place);
	}
	CHECK(place_live == 0);
	CHECK(bc_walk_place(&ops, NULL, dir, NULL) == NULL);
	free(dir);
	free(real);
}

/*
 * A record parsed is what its line says: a known type word, the
 * path inside the first brackets, its last element (less one '-') the base.
 */
void
fuzz_txn_log(const uint8_t *data, size_t len)
{
	const char *line = (const char *) data;
	const char *end = line + len;

	(void) bc_txn_log_name((const char *) data, len);
	{
		txn_span	t = {data, len, -1};
		size_t		size = bc_txn_log_scratch_size((const char *) data, len);
		void	   *scratch = xmalloc(size);
		bc_txn_log_result res;

		CHECK(size >= 1 && size <= len * sizeof(uint32_t) + 1);
		bc_txn_log_scan((const char *) data, len, scratch, txn_scan_sstable, &t, &res);
		free(scratch);
		/* a verdict as LogFile.verify gives it: a fault and its line for
		 * all but a log that verifies; SSTables taken out only by one
		 * that is read; obsolete ones only when committed */
		CHECK((res.verdict == BC_TXN_VERIFIED) == (res.fault == BC_TXN_FAULT_NONE));
		CHECK(res.verdict == BC_TXN_VERIFIED ? res.lineno == 0 : res.lineno >= 1);
		CHECK(bc_txn_fault_message(res.fault) != NULL);
		CHECK(!res.committed || res.completed);
		CHECK(!res.cut || res.verdict == BC_TXN_LAST_INVALID);
		CHECK(res.verdict != BC_TXN_UNREADABLE || (t.obsolete == -1 && !res.completed));
		CHECK(t.obsolete == -1 || t.obsolete == res.committed);
	}
	{
		pending_span p = {data, len, 0, 0, NULL, 0};

		(void) bc_pending_delete_log_name((const char *) data, len);
		CHECK(bc_pending_delete_scan((const char *) data, len, pending_sstable, &p) == p.n);
		/* read in pieces (bc_walk_ops.read_pieces): the same SSTables */
		pending_pieces(data, len, 1, &p);
		pending_pieces(data, len, 1 + (len > 0 ? data[0] % 61 : 0), &p);
		free(p.out);
	}
	fuzz_place(data, len);
	{
		bc_folder	fo;

		bc_folder_parse((const char *) data, len, &fo);
		CHECK(fo.state == BC_STATE_LIVE || fo.state == BC_STATE_SNAPSHOT ||
			  fo.state == BC_STATE_BACKUP || fo.state == BC_STATE_STAGING ||
			  fo.state == BC_STATE_QUARANTINE || fo.state == BC_STATE_UPLOAD ||
			  fo.state == BC_STATE_TEMPORARY);
		CHECK(fo.keyspace == NULL || inside(fo.keyspace, fo.keyspace_len, data, len));
		CHECK(fo.table == NULL || inside(fo.table, fo.table_len, data, len));
		CHECK(fo.index == NULL || (fo.table != NULL && inside(fo.index, fo.index_len, data, len)));
		CHECK(fo.snapshot == NULL || (fo.state == BC_STATE_SNAPSHOT &&
									  inside(fo.snapshot, fo.snapshot_len, data, len)));
		CHECK(bc_sstable_state_name(fo.state) != NULL);
	}
	while (line <= end)
	{
		const char *nl = memchr(line, '\n', (size_t) (end - line));
		size_t		llen = (size_t) ((nl ? nl : end) - line);
		char	   *copy = xmalloc(llen + 1);
		bc_txn_record r;
		bc_status	st;

		/* an exact-size copy: a read past the line is caught */
		memcpy(copy, line, llen);
		st = bc_txn_record_parse(copy, llen, &r);
		CHECK(st == BC_OK || st == BC_ERR_TXN_RECORD);
		if (st == BC_OK)
		{
			const char *colon = memchr(copy, ':', llen);

			CHECK(colon != NULL && colon[1] == '[' && copy[llen - 1 - (copy[llen - 1] == '\r')] == ']');
			(void) bc_txn_record_checksum(&r);
			CHECK(r.checksum >= 0);
			if (r.type == BC_TXN_ADD || r.type == BC_TXN_REMOVE)
			{
				CHECK(r.path == colon + 2);
				CHECK(r.base_len == 0 ||
					  (r.base >= r.path && r.base + r.base_len <= r.path + r.path_len));
				CHECK(r.base_len == 0 || (memchr(r.base, '/', r.base_len) == NULL &&
										  memchr(r.base, ',', r.base_len) == NULL));
			}
			else
				CHECK(r.type == BC_TXN_COMMIT || r.type == BC_TXN_ABORT);
		}
		free(copy);
		if (nl == NULL)
			break;
		line = nl + 1;
	}
}
