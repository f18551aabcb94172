/*
 * bc_walk_txn.c - what the logs of a folder say of its SSTables, for the
 * walk (bc_walk_txn.h): the SSTables an unfinished operation ADDed
 * (temporary) and a committed one REMOVEd (obsolete), as Cassandra's
 * LogAwareFileLister applies a log (bc_txn_log_scan), each log's fault as a
 * problem of the walk, and the SSTables ScyllaDB's pending_delete logs
 * delete (bc_pending_delete.h).  A name a log gives is looked up among the
 * folder's SSTables at once (a binary search of its sorted component
 * files) and kept as a bit of that SSTable, or dropped: no log's names are
 * kept.  Memory from the caller's ops, given back by bc_walk_txn_free.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_pending_delete.h"
#include "bc_tick.h"
#include "bc_txn_log.h"
#include "bc_walk_txn.h"

/* named by the pending_delete log being read, not yet applied */
#define TXN_PENDING 4

static void *
txn_alloc(const bc_walk_txn *t, size_t size)
{
	return t->ops->alloc(t->arg, size ? size : 1);
}

void
bc_walk_txn_init(bc_walk_txn *t, const bc_walk_ops *ops, void *arg,
				 const bc_walk_entry *entries, size_t n)
{
	memset(t, 0, sizeof(*t));
	t->ops = ops;
	t->arg = arg;
	t->entries = entries;
	t->nentries = n;
}

/* the descriptor (s, len) against an entry's, in the entries' order
 * (bc_sstable_component_cmp: bytes, then the shorter first) */
static int
descriptor_cmp(const char *s, size_t len, const bc_walk_entry *e)
{
	size_t		n = len < e->descriptor_len ? len : e->descriptor_len;
	int			c = memcmp(s, e->name, n);

	if (c != 0)
		return c;
	if (len != e->descriptor_len)
		return len < e->descriptor_len ? -1 : 1;
	return 0;
}

/* the first entry of the folder's SSTable of that descriptor, or
 * (size_t) -1 when the folder has none */
static size_t
find_sstable(const bc_walk_txn *t, const char *s, size_t len)
{
	size_t		lo = 0,
				hi = t->nentries;

	/* the first entry not before it */
	while (lo < hi)
	{
		size_t		mid = lo + (hi - lo) / 2;

		if (descriptor_cmp(s, len, &t->entries[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < t->nentries && descriptor_cmp(s, len, &t->entries[lo]) == 0)
		return lo;
	return (size_t) -1;
}

/* a flag set on the SSTable of that descriptor, when the folder has it */
static void
mark(bc_walk_txn *t, const char *s, size_t len, int flag)
{
	size_t		i = find_sstable(t, s, len);

	if (i == (size_t) -1)
		return;
	if (t->flags == NULL)
	{
		t->flags = txn_alloc(t, t->nentries);
		memset(t->flags, 0, t->nentries);
	}
	if (flag == TXN_PENDING)
	{
		if (t->flags[i] & (TXN_PENDING | BC_WALK_TXN_OBSOLETE))
			return;
		if (t->marked == NULL)
			t->marked = txn_alloc(t, t->nentries * sizeof(size_t));
		t->marked[t->nmarked++] = i;
	}
	t->flags[i] |= (unsigned char) flag;
}

/* what bc_txn_log_scan reports */
static void
txn_sstable(void *arg, int obsolete, const char *base, size_t len)
{
	mark(arg, base, len, obsolete ? BC_WALK_TXN_OBSOLETE : BC_WALK_TXN_TEMPORARY);
}

static void
read_txn_log(bc_walk_txn *t, const char *path)
{
	size_t		len = 0;
	char	   *data = t->ops->read_log(t->arg, path, BC_WALK_MAX_TXN_LOG_BYTES, &len);
	void	   *scratch;
	bc_txn_log_result res;
	bc_walk_report r;

	if (data == NULL)
		return;
	scratch = txn_alloc(t, bc_txn_log_scratch_size(data, len));
	bc_txn_log_scan(data, len, scratch, txn_sstable, t, &res);
	t->ops->release(t->arg, scratch);
	t->ops->release(t->arg, data);

	memset(&r, 0, sizeof(r));
	r.path = path;
	r.lineno = res.lineno;
	r.reason = bc_txn_fault_message(res.fault);
	if (res.verdict == BC_TXN_CORRUPT)
		r.problem = BC_WALK_TXN_CORRUPT;
	else if (res.verdict == BC_TXN_UNREADABLE)
		r.problem = BC_WALK_TXN_UNREADABLE;
	else if (res.verdict == BC_TXN_LAST_INVALID &&
			 !(res.cut && res.fault == BC_TXN_FAULT_SYNTAX))
		r.problem = BC_WALK_TXN_LAST_RECORD;
	else
		return;
	t->ops->problem(t->arg, &r);
}

/* what bc_pending_delete_feed reports */
static void
pending_sstable(void *arg, const char *descriptor, size_t len)
{
	mark(arg, descriptor, len, TXN_PENDING);
}

/* a pending_delete log being read: its scanner and the walk's */
typedef struct pending_read
{
	bc_walk_txn *t;
	bc_pending_delete_scanner sc;
} pending_read;

static void
pending_piece(void *arg, const char *bytes, size_t n)
{
	pending_read *p = arg;

	bc_pending_delete_feed(&p->sc, bytes, n, pending_sstable, p->t);
}

static void
read_pending_log(bc_walk_txn *t, const char *path)
{
	pending_read *p = txn_alloc(t, sizeof(pending_read));
	int			ok;
	size_t		i;

	memset(p, 0, sizeof(*p));
	p->t = t;
	t->nmarked = 0;
	if (t->ops->read_pieces != NULL)
		ok = t->ops->read_pieces(t->arg, path, BC_WALK_MAX_TXN_LOG_BYTES,
								 pending_piece, p) == 0;
	else
	{
		size_t		len = 0;
		char	   *data = t->ops->read_log(t->arg, path, BC_WALK_MAX_TXN_LOG_BYTES, &len);

		ok = data != NULL;
		if (ok)
		{
			pending_piece(p, data, len);
			t->ops->release(t->arg, data);
		}
	}
	if (ok)
		bc_pending_delete_finish(&p->sc, pending_sstable, t);
	/* applied when read whole; a log that could not be leaves them live */
	for (i = 0; i < t->nmarked; i++)
	{
		unsigned char *f = &t->flags[t->marked[i]];

		*f = (unsigned char) (*f & ~TXN_PENDING);
		if (ok)
			*f |= BC_WALK_TXN_OBSOLETE;
	}
	t->nmarked = 0;
	t->ops->release(t->arg, p);
}

/* by file (device, inode), then the order given */
static int
log_cmp(const void *a, const void *b)
{
	const bc_walk_log *x = *(const bc_walk_log *const *) a;
	const bc_walk_log *y = *(const bc_walk_log *const *) b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* dir/name, without doubling the '/' of a root "/" */
static char *
log_path(const bc_walk_txn *t, const char *dir, const char *name)
{
	size_t		dl = strlen(dir),
				nl = strlen(name);
	int			slash = !(dl > 0 && dir[dl - 1] == '/');
	char	   *p = txn_alloc(t, dl + (size_t) slash + nl + 1);

	memcpy(p, dir, dl);
	if (slash)
		p[dl] = '/';
	memcpy(p + dl + slash, name, nl + 1);
	return p;
}

void
bc_walk_txn_read_logs(bc_walk_txn *t, const char *dir, bc_walk_log *logs, size_t n,
					  int pending_delete)
{
	size_t		i;

	if (n == 0)
		return;
	/* the names of one file: all but the first passed over */
	if (n > 1)
	{
		bc_walk_log **order = txn_alloc(t, n * sizeof(bc_walk_log *));

		for (i = 0; i < n; i++)
			order[i] = &logs[i];
		qsort(order, n, sizeof(bc_walk_log *), log_cmp);
		for (i = 1; i < n; i++)
		{
			BC_TICK(i);
			if ((order[i]->dev != 0 || order[i]->ino != 0) &&
				order[i]->dev == order[i - 1]->dev && order[i]->ino == order[i - 1]->ino)
				order[i]->again = 1;
		}
		t->ops->release(t->arg, order);
	}
	for (i = 0; i < n; i++)
	{
		char	   *path;

		BC_TICK(i);
		if (logs[i].again)
			continue;
		path = log_path(t, dir, logs[i].name);
		if (pending_delete)
			read_pending_log(t, path);
		else
			read_txn_log(t, path);
		t->ops->release(t->arg, path);
	}
}

int
bc_walk_txn_flags(const bc_walk_txn *t, size_t i)
{
	return t->flags != NULL && i < t->nentries ? t->flags[i] : 0;
}

void
bc_walk_txn_free(bc_walk_txn *t)
{
	if (t->flags != NULL)
		t->ops->release(t->arg, t->flags);
	if (t->marked != NULL)
		t->ops->release(t->arg, t->marked);
	t->flags = NULL;
	t->marked = NULL;
}
