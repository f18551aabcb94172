/*
 * bc_walk.c - the SSTables below a folder of a node's data: the walk of
 * cassandra_sstables and of bloomcass-load, written once.
 *
 * What a folder means (bc_folder_parse) follows Cassandra's Descriptor and
 * Directories; an SSTable's state (bc_sstable_state_of) its folder, its name
 * (tmp-, tmplink-), the transaction logs beside it (bc_walk_txn.c), the
 * pending_delete logs of ScyllaDB's table folder (bc_pending_delete.c) and
 * whether it has a Data.db; ScyllaDB's unfinished ones have a TOC.txt.tmp or a
 * TemporaryHashes.db.tmp among their components.  A folder's files
 * are grouped into SSTables by their descriptor (bc_sstable_component_cmp);
 * names that are not SSTable components are ignored.  Symbolic links are
 * followed (data folders are often links to other disks), but each folder
 * is walked once: one met again (its device and inode, kept for the whole
 * walk in bc_walk_seen.c) is skipped, as one back up the tree is, and the
 * walk goes no deeper than BC_WALK_MAX_DEPTH.  An SSTable's path (its
 * identity) is its folder's real path (bc_walk_ops.real_path), so that a
 * folder reached through a link, by a path with "..", or through another
 * mount point of a bind mount, gives the same paths whichever way the walk
 * came; and what a folder below a table's is (its state) is where it
 * really lies (bc_walk_place.c), not the name of a link on the way.  Each
 * log file of a folder is read once, whatever its names there, and what
 * the logs say is kept per component file of the folder (bc_walk_txn.c).
 *
 * The caller does the I/O and provides the memory (bc_walk_ops); every
 * allocation made here is released before the walk returns, unless a
 * callback does not return (a PostgreSQL ERROR), in which case the
 * caller's memory context takes it back.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_pending_delete.h"
#include "bc_sstable_dir.h"
#include "bc_sstable_name.h"
#include "bc_status.h"
#include "bc_tick.h"
#include "bc_txn_log.h"
#include "bc_walk.h"
#include "bc_walk_place.h"
#include "bc_walk_seen.h"
#include "bc_walk_sstable.h"
#include "bc_walk_txn.h"

/* one name of a folder, with its stat when the listing gave it */
typedef struct named
{
	char	   *name;			/* from alloc */
	int			has_stat;
	bc_walk_stat st;
} named;

/* one component file of the folder being walked (bc_walk_txn.h) */
typedef bc_walk_entry entry;

/* a folder being walked: its SSTables reported one by one, then each of
 * its subfolders walked */
typedef struct frame
{
	char	   *dir;			/* from alloc: as walked (subfolders, names) */
	char	   *real;			/* from alloc: its real path (the SSTables'
								 * paths), or NULL: dir */
	char	   *place;			/* from alloc: the path its names are read
								 * from (bc_walk_place.h), or NULL: dir */
	uint64_t	dev;			/* which folder it is, for link loops */
	uint64_t	ino;
	named	   *names;			/* its names, sorted */
	size_t		nnames;
	entry	   *entries;		/* its components, in SSTable order */
	size_t		nentries;
	size_t		next_entry;		/* the first of the next SSTable */
	bc_folder	folder;
	bc_walk_txn txn;		/* what its transaction logs say */
	char	  **subdirs;		/* from alloc, each too */
	size_t		nsub;
	size_t		next_sub;
} frame;

struct bc_walk
{
	const bc_walk_ops *ops;
	void	   *arg;
	int			include_inactive;
	int			depth;			/* frames in use */
	frame		frames[BC_WALK_MAX_DEPTH];
	void	   *current;		/* the block of the SSTable last given */
	/* the names of the folder being listed (bc_walk_add_name) */
	named	   *names;
	size_t		nnames;
	size_t		capnames;
	bc_walk_seen seen;			/* every folder entered (bc_walk_seen.c) */
};

static void *
walk_alloc(bc_walk *w, size_t size)
{
	return w->ops->alloc(w->arg, size ? size : 1);
}

static char *
walk_strndup(bc_walk *w, const char *s, size_t len)
{
	char	   *p = walk_alloc(w, len + 1);

	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

/* a larger copy of an array of *cap elements, n of them used */
static void *
walk_grow(bc_walk *w, void *items, size_t n, size_t *cap, size_t size)
{
	size_t		newcap = *cap ? 2 * *cap : 64;
	void	   *p = walk_alloc(w, newcap * size);

	if (n > 0)
		memcpy(p, items, n * size);
	if (items != NULL)
		w->ops->release(w->arg, items);
	*cap = newcap;
	return p;
}

/* dir/name, without doubling the '/' of a root "/" */
static char *
join_path(bc_walk *w, const char *dir, const char *name, size_t name_len)
{
	size_t		dl = strlen(dir);
	int			slash = !(dl > 0 && dir[dl - 1] == '/');
	char	   *p = walk_alloc(w, dl + (size_t) slash + name_len + 1);

	memcpy(p, dir, dl);
	if (slash)
		p[dl] = '/';
	memcpy(p + dl + slash, name, name_len);
	p[dl + (size_t) slash + name_len] = '\0';
	return p;
}

void
bc_walk_add_name(bc_walk *w, const char *name)
{
	bc_walk_add_name_stat(w, name, NULL);
}

void
bc_walk_add_name_stat(bc_walk *w, const char *name, const bc_walk_stat *st)
{
	named	   *n;

	if (w->nnames == w->capnames)
		w->names = walk_grow(w, w->names, w->nnames, &w->capnames, sizeof(named));
	n = &w->names[w->nnames++];
	memset(n, 0, sizeof(*n));
	n->name = walk_strndup(w, name, strlen(name));
	if (st != NULL)
	{
		n->has_stat = 1;
		n->st = *st;
	}
}

/* names and the array that holds them given back */
static void
release_names(bc_walk *w, named *names, size_t n)
{
	size_t		i;

	for (i = 0; i < n; i++)
		w->ops->release(w->arg, names[i].name);
	if (names != NULL)
		w->ops->release(w->arg, names);
}

/*
 * The names in dir (ops->list), taken from the walk into *names (alloc'd)
 * and *n; 0 when dir could not be read at all (ops->list said why), with
 * whatever it listed released
 */
static int
list_names(bc_walk *w, const char *dir, int root, named **names, size_t *n)
{
	int			ok;

	w->names = NULL;
	w->nnames = w->capnames = 0;
	ok = w->ops->list(w->arg, w, dir, root);
	*names = w->names;
	*n = w->nnames;
	w->names = NULL;
	w->nnames = w->capnames = 0;
	if (!ok)
	{
		release_names(w, *names, *n);
		*names = NULL;
		*n = 0;
	}
	return ok;
}

/* a listed name's stat: the listing's, else ops->stat of its path */
static void
name_stat(bc_walk *w, const named *nm, const char *path, bc_walk_stat *st)
{
	if (nm->has_stat)
		*st = nm->st;
	else
	{
		memset(st, 0, sizeof(*st));
		w->ops->stat(w->arg, path, st);
	}
}

static void
report(bc_walk *w, bc_walk_problem problem, const char *path, int root,
	   int is_directory, int err, long lineno)
{
	bc_walk_report r;

	memset(&r, 0, sizeof(r));
	r.problem = problem;
	r.path = path;
	r.root = root;
	r.is_directory = is_directory;
	r.err = err;
	r.lineno = lineno;
	w->ops->problem(w->arg, &r);
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(((const named *) a)->name, ((const named *) b)->name);
}

static int
entry_cmp(const void *a, const void *b)
{
	const entry *x = a;
	const entry *y = b;

	return bc_sstable_component_cmp(x->name, x->descriptor_len,
									 y->name, y->descriptor_len);
}

/*
 * A listed name's file (device, inode) for the walk's log reads: the
 * listing's stat, else ops->stat of its path (a listing that gave the type
 * only)
 */
static void
log_file(bc_walk *w, const named *nm, const char *path, bc_walk_log *log)
{
	bc_walk_stat st = nm->st;

	if (!nm->has_stat || st.size < 0)
	{
		memset(&st, 0, sizeof(st));
		w->ops->stat(w->arg, path, &st);
	}
	log->name = nm->name;
	log->dev = st.dev;
	log->ino = st.ino;
	log->again = 0;
}

static int
log_name_cmp(const void *a, const void *b)
{
	return strcmp(((const bc_walk_log *) a)->name, ((const bc_walk_log *) b)->name);
}

/*
 * The logs of ScyllaDB's pending_delete/ folder dir (bc_pending_delete.h)
 * read into t: its names listed (a problem said by ops->list), each
 * regular file named *.log read once (bc_walk_txn_read_logs), in name
 * order.
 */
static void
read_pending_delete(bc_walk *w, bc_walk_txn *t, const char *dir)
{
	named	   *names;
	bc_walk_log *logs;
	size_t		n,
				nlogs = 0,
				i;

	if (!list_names(w, dir, 0, &names, &n))
		return;
	logs = walk_alloc(w, n * sizeof(bc_walk_log));
	for (i = 0; i < n; i++)
	{
		const char *name = names[i].name;
		size_t		len = strlen(name);

		BC_TICK(i);
		if (bc_pending_delete_log_name(name, len))
		{
			char	   *path = join_path(w, dir, name, len);
			bc_walk_stat st;

			name_stat(w, &names[i], path, &st);
			if (st.type == BC_WALK_REGULAR)
				log_file(w, &names[i], path, &logs[nlogs++]);
			w->ops->release(w->arg, path);
		}
	}
	if (nlogs > 1)
		qsort(logs, nlogs, sizeof(bc_walk_log), log_name_cmp);
	bc_walk_txn_read_logs(t, dir, logs, nlogs, 1);
	w->ops->release(w->arg, logs);
	release_names(w, names, n);
}

/*
 * Open the folder dir (from alloc; taken) as the next frame: stat, loop and
 * depth checks, its names listed and sorted, its components, transaction
 * logs and pending_delete logs read, its subfolders noted.  0 when it is not walked
 * (reported; dir released), -1 for a root that is not.
 */
static int
open_frame(bc_walk *w, char *dir, int root)
{
	bc_walk_stat st;
	frame	   *fr;
	size_t		n,
				i,
				pending = (size_t) -1;	/* the subfolder pending_delete */
	named	   *names;
	int			k;
	bc_walk_seen_first first;
	char	   *real;
	bc_walk_log *logs;
	size_t		nlogs = 0;

	/* each folder once: a link back up the tree, or to a folder walked
	 * before, is not followed */
	memset(&st, 0, sizeof(st));
	w->ops->stat(w->arg, dir, &st);
	if (st.type == BC_WALK_ERROR || st.type == BC_WALK_GONE)
		report(w, BC_WALK_STAT_FAILED, dir, root, 1, st.err, 0);
	else if (st.type != BC_WALK_DIRECTORY)
	{
		if (root)
			report(w, BC_WALK_NOT_DIRECTORY, dir, 1, 1, 0, 0);
	}
	else
	{
		for (k = 0; k < w->depth; k++)
			if (w->frames[k].dev == st.dev && w->frames[k].ino == st.ino)
				break;
		if (k < w->depth)
			report(w, BC_WALK_LINK_LOOP, dir, root, 1, 0, 0);
		else if (w->depth >= BC_WALK_MAX_DEPTH)
			report(w, BC_WALK_TOO_DEEP, dir, root, 1, 0, 0);
		else if (bc_walk_seen_add(&w->seen, w->ops, w->arg, st.dev, st.ino, dir, &first))
		{
			bc_walk_report r;

			memset(&r, 0, sizeof(r));
			r.problem = BC_WALK_ALREADY_WALKED;
			r.path = dir;
			r.is_directory = 1;
			r.first_path = first.path;
			r.first_real = first.real;
			r.first_state = (bc_sstable_state) first.state;
			w->ops->problem(w->arg, &r);
		}
		else
			goto walk;
	}
	w->ops->release(w->arg, dir);
	return root ? -1 : 0;

walk:
	real = w->ops->real_path ? w->ops->real_path(w->arg, dir) : NULL;
	if (!list_names(w, dir, root, &names, &n))
	{
		if (real != NULL)
			w->ops->release(w->arg, real);
		w->ops->release(w->arg, dir);
		return root ? -1 : 0;
	}
	fr = &w->frames[w->depth++];
	memset(fr, 0, sizeof(*fr));
	fr->dir = dir;
	fr->real = real;
	fr->dev = st.dev;
	fr->ino = st.ino;
	fr->names = names;
	fr->nnames = n;
	if (n > 0)
		qsort(fr->names, n, sizeof(named), name_cmp);

	fr->entries = walk_alloc(w, sizeof(entry) * n);
	logs = walk_alloc(w, sizeof(bc_walk_log) * n);
	fr->subdirs = walk_alloc(w, sizeof(char *) * n);
	for (i = 0; i < n; i++)
	{
		const char *name = fr->names[i].name;
		size_t		len = strlen(name);
		char	   *path = join_path(w, dir, name, len);
		bc_walk_stat fst;
		bc_sstable_name parsed;
		entry	   *e = &fr->entries[fr->nentries];

		BC_TICK(i);				/* a folder of millions of names */
		name_stat(w, &fr->names[i], path, &fst);
		if (fst.type == BC_WALK_DIRECTORY &&
			(w->include_inactive || !bc_folder_inactive(name, len)))
		{
			if (len == 14 && memcmp(name, "pending_delete", 14) == 0)
				pending = fr->nsub;
			fr->subdirs[fr->nsub++] = path;
			continue;
		}
		if (fst.type == BC_WALK_ERROR)
			report(w, BC_WALK_STAT_FAILED, path, 0, 0, fst.err, 0);
		else if (fst.type == BC_WALK_REGULAR)
		{
			if (bc_txn_log_name(name, len))
				log_file(w, &fr->names[i], path, &logs[nlogs++]);
			else if (bc_sstable_name_parse(name, len, &parsed) == BC_OK)
			{
				e->name = name;
				e->descriptor_len = (uint32_t) parsed.descriptor_len;
				e->component_off = (uint32_t) (parsed.component - name);
				e->component_len = (uint32_t) parsed.component_len;
				e->size = fst.size;
				e->mtime = fst.mtime;
				fr->nentries++;
			}
		}
		w->ops->release(w->arg, path);
	}
	if (fr->nentries > 0)
		qsort(fr->entries, fr->nentries, sizeof(entry), entry_cmp);

	/* each log file read once, its names kept where they name an SSTable
	 * of the folder (bc_walk_txn.h) */
	bc_walk_txn_init(&fr->txn, w->ops, w->arg, fr->entries, fr->nentries);
	bc_walk_txn_read_logs(&fr->txn, dir, logs, nlogs, 0);
	w->ops->release(w->arg, logs);

	/* what the folder is, from where it is (bc_walk_place.h) */
	fr->place = bc_walk_place(w->ops, w->arg, dir, real);
	bc_folder_parse(fr->place ? fr->place : dir, strlen(fr->place ? fr->place : dir),
					&fr->folder);
	bc_walk_seen_note(&w->seen, w->ops, w->arg, st.dev, st.ino, real, fr->folder.state);

	/*
	 * ScyllaDB's table folder (its -<id>, live): pending_delete/'s logs say
	 * which of its SSTables are deleted; the folder holds no SSTable and
	 * is not walked itself
	 */
	if (pending < fr->nsub && fr->folder.state == BC_STATE_LIVE &&
		fr->folder.table != NULL && fr->folder.index == NULL &&
		fr->folder.table[fr->folder.table_len] == '-')
	{
		read_pending_delete(w, &fr->txn, fr->subdirs[pending]);
		w->ops->release(w->arg, fr->subdirs[pending]);
		memmove(fr->subdirs + pending, fr->subdirs + pending + 1,
				(fr->nsub - pending - 1) * sizeof(char *));
		fr->nsub--;
	}
	return 1;
}

/* release what the top frame still holds, and pop it */
static void
close_frame(bc_walk *w)
{
	frame	   *fr = &w->frames[--w->depth];
	size_t		i;

	bc_walk_txn_free(&fr->txn);
	w->ops->release(w->arg, fr->entries);
	for (i = fr->next_sub; i < fr->nsub; i++)
		w->ops->release(w->arg, fr->subdirs[i]);
	w->ops->release(w->arg, fr->subdirs);
	release_names(w, fr->names, fr->nnames);
	if (fr->real != NULL)
		w->ops->release(w->arg, fr->real);
	if (fr->place != NULL)
		w->ops->release(w->arg, fr->place);
	w->ops->release(w->arg, fr->dir);
}

bc_walk *
bc_walk_open(const bc_walk_ops *ops, void *arg, const char *root, int include_inactive)
{
	bc_walk    *w = ops->alloc(arg, sizeof(bc_walk));

	memset(w, 0, sizeof(*w));
	w->ops = ops;
	w->arg = arg;
	w->include_inactive = include_inactive != 0;
	if (open_frame(w, walk_strndup(w, root, strlen(root)), 1) < 0)
	{
		bc_walk_seen_free(&w->seen, w->ops, w->arg);
		ops->release(arg, w);
		return NULL;
	}
	return w;
}

/*
 * The next SSTable of the walk, in the order of bc_walk_run: a folder's
 * SSTables, in name order, before its subfolders.
 */
int
bc_walk_next(bc_walk *w, bc_walk_sstable *s)
{
	if (w->current != NULL)
	{
		w->ops->release(w->arg, w->current);
		w->current = NULL;
	}
	while (w->depth > 0)
	{
		frame	   *fr = &w->frames[w->depth - 1];

		if (fr->next_entry < fr->nentries)
		{
			const entry *e = fr->entries;
			size_t		i = fr->next_entry,
						j = i;

			while (j < fr->nentries && e[j].descriptor_len == e[i].descriptor_len &&
				   memcmp(e[j].name, e[i].name, e[i].descriptor_len) == 0)
				j++;
			fr->next_entry = j;
			w->current = bc_walk_make_sstable(w->ops, w->arg, fr->real ? fr->real : fr->dir,
											  fr->dir, fr->place ? fr->place : fr->dir,
											  &fr->folder, e + i, j - i,
											  bc_walk_txn_flags(&fr->txn, i), s);
			return 1;
		}
		if (fr->next_sub < fr->nsub)
		{
			char	   *sub = fr->subdirs[fr->next_sub++];

			open_frame(w, sub, 0);
			continue;
		}
		close_frame(w);
	}
	return 0;
}

void
bc_walk_close(bc_walk *w)
{
	if (w == NULL)
		return;
	if (w->current != NULL)
		w->ops->release(w->arg, w->current);
	while (w->depth > 0)
		close_frame(w);
	bc_walk_seen_free(&w->seen, w->ops, w->arg);
	w->ops->release(w->arg, w);
}

int
bc_walk_run(const bc_walk_ops *ops, void *arg, const char *root, int include_inactive)
{
	bc_walk    *w = bc_walk_open(ops, arg, root, include_inactive);
	bc_walk_sstable s;

	if (w == NULL)
		return -1;
	while (bc_walk_next(w, &s))
		ops->sstable(arg, &s);
	bc_walk_close(w);
	return 0;
}

int64_t
bc_walk_component_size(const bc_walk_sstable *s, const char *component)
{
	int			i;

	for (i = 0; i < s->ncomponents; i++)
		if (strcmp(s->components[i].name, component) == 0)
			return s->components[i].size;
	return -1;
}
