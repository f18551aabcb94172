/*
 * bc_walk_txn.c - what the transaction logs of a folder say of its
 * SSTables, for the walk (bc_walk_txn.h): the descriptors an unfinished
 * operation ADDed (temporary) and a committed one REMOVEd (obsolete), as
 * Cassandra's LogAwareFileLister applies a log (bc_txn_log_scan), and each
 * log's fault as a problem of the walk.  Memory from the caller's ops,
 * given back by bc_walk_txn_free.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_pending_delete.h"
#include "bc_txn_log.h"
#include "bc_walk_txn.h"

static void *
txn_alloc(const bc_walk_txn *t, size_t size)
{
	return t->ops->alloc(t->arg, size ? size : 1);
}

/* a larger copy of items (n used), of *cap elements of size each, doubled */
static void *
txn_grow(const bc_walk_txn *t, void *items, size_t n, size_t cap, size_t size)
{
	void	   *p = txn_alloc(t, 2 * cap * size);

	if (n > 0)
		memcpy(p, items, n * size);
	if (items != NULL)
		t->ops->release(t->arg, items);
	return p;
}

static void
names_add(bc_walk_txn *t, bc_walk_names *v, const char *s, size_t len)
{
	char	   *copy;

	if (v->n == v->cap)
	{
		size_t		cap = v->cap ? v->cap : 32;

		v->items = txn_grow(t, v->items, v->n, cap, sizeof(bc_walk_name));
		v->cap = 2 * cap;
	}
	copy = txn_alloc(t, len + 1);
	memcpy(copy, s, len);
	copy[len] = '\0';
	v->items[v->n].s = copy;
	v->items[v->n++].len = len;
}

static void
names_free(const bc_walk_txn *t, bc_walk_names *v)
{
	size_t		i;

	for (i = 0; i < v->n; i++)
		t->ops->release(t->arg, v->items[i].s);
	if (v->items != NULL)
		t->ops->release(t->arg, v->items);
	memset(v, 0, sizeof(*v));
}

/* by length, then bytes */
static int
name_cmp(const void *a, const void *b)
{
	const bc_walk_name *x = a,
			   *y = b;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->s, y->s, x->len);
}

/* what bc_txn_log_scan reports */
static void
txn_sstable(void *arg, int obsolete, const char *base, size_t len)
{
	bc_walk_txn *t = arg;

	names_add(t, obsolete ? &t->obsolete : &t->temporary, base, len);
}

void
bc_walk_txn_read(bc_walk_txn *t, const char *path)
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

/* what bc_pending_delete_scan reports */
static void
pending_sstable(void *arg, const char *descriptor, size_t len)
{
	bc_walk_txn *t = arg;

	names_add(t, &t->obsolete, descriptor, len);
}

void
bc_walk_txn_pending_delete(bc_walk_txn *t, const char *path)
{
	size_t		len = 0;
	char	   *data = t->ops->read_log(t->arg, path, BC_WALK_MAX_TXN_LOG_BYTES, &len);

	if (data == NULL)
		return;
	bc_pending_delete_scan(data, len, pending_sstable, t);
	t->ops->release(t->arg, data);
}

void
bc_walk_txn_seal(bc_walk_txn *t)
{
	if (t->temporary.n > 1)
		qsort(t->temporary.items, t->temporary.n, sizeof(bc_walk_name), name_cmp);
	if (t->obsolete.n > 1)
		qsort(t->obsolete.items, t->obsolete.n, sizeof(bc_walk_name), name_cmp);
}

int
bc_walk_txn_names(const bc_walk_txn *t, int obsolete, const char *descriptor, size_t len)
{
	const bc_walk_names *v = obsolete ? &t->obsolete : &t->temporary;
	bc_walk_name key;

	key.s = (char *) descriptor;
	key.len = len;
	return v->n > 0 &&
		bsearch(&key, v->items, v->n, sizeof(bc_walk_name), name_cmp) != NULL;
}

void
bc_walk_txn_free(bc_walk_txn *t)
{
	names_free(t, &t->temporary);
	names_free(t, &t->obsolete);
}
