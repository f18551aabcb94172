/*
 * test_walk.c - the walk of a node's data directories (bc_walk.c) over an
 * in-memory file system: a table of paths, each a folder (with a device
 * and inode, so that a symbolic link back up the tree is a folder whose
 * stat gives an ancestor's), a regular file (size, mtime, and the bytes of
 * a transaction log), something else, a path whose stat fails, or one that
 * is gone.  The ops over it count every allocation and release, and write
 * what the walk reports (SSTables, problems, failed listings and logs) as
 * lines of text that are compared, line by line, with what is expected.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bc_txn_log.h"
#include "bc_walk.h"
#include "bc_sstable_dir.h"
#include "bc_sstable_name.h"
#include "bc_status.h"
#include "bc_tick.h"
#include "unit.h"

/* errno values, as the callers would pass them back */
#define ERR_NOENT 2
#define ERR_IO 5
#define ERR_ACCES 13

enum
{
	K_DIR, K_FILE, K_OTHER, K_ERROR, K_GONE
};

/* how a folder's listing goes */
enum
{
	LIST_OK = 0,
	LIST_FAIL,					/* list_n names, then 0: unreadable */
	LIST_CUT					/* list_n names, then 1: a read failed part way */
};

typedef struct fsent
{
	char	   *path;
	char	   *target;			/* a symbolic link: the folder it points to */
	int			kind;
	int			err;			/* K_ERROR, and stats after stat_ok */
	uint64_t	dev;
	uint64_t	ino;
	int64_t		size;
	int64_t		mtime;
	char	   *log;			/* a transaction log's bytes */
	int			list_mode;
	int			list_n;
	int			stat_ok;		/* > 0: the stats after this many fail */
	int			nstat;
	int			listed_stat;	/* stat'ed by op_list (list_stats) */
} fsent;

typedef struct memfs
{
	fsent	   *e;
	size_t		n;
	size_t		cap;
	uint64_t	next_ino;
	long		nalloc;
	long		nrelease;
	long		peak_live;		/* most allocations held at once */
	int			list_stats;		/* op_list gives each name's stat */
	long		restats;		/* files stat'ed again by the walk */
	long		nlist;
	long		nsstable;
	long		nread;			/* logs read */
	char	   *out;			/* the walk's reports, one a line */
	size_t		outlen;
	size_t		outcap;
} memfs;

static char *
xstrdup(const char *s)
{
	size_t		n = strlen(s);
	char	   *p = malloc(n + 1);

	memcpy(p, s, n + 1);
	return p;
}

static void
fs_init(memfs *fs)
{
	memset(fs, 0, sizeof(*fs));
	fs->next_ino = 100;
}

static void
fs_free(memfs *fs)
{
	size_t		i;

	for (i = 0; i < fs->n; i++)
	{
		free(fs->e[i].path);
		free(fs->e[i].target);
		free(fs->e[i].log);
	}
	free(fs->e);
	free(fs->out);
	memset(fs, 0, sizeof(*fs));
}

static fsent *
fs_add(memfs *fs, const char *path, int kind)
{
	fsent	   *e;

	if (fs->n == fs->cap)
	{
		fs->cap = fs->cap ? 2 * fs->cap : 64;
		fs->e = realloc(fs->e, fs->cap * sizeof(fsent));
	}
	e = &fs->e[fs->n++];
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(path);
	e->kind = kind;
	e->dev = 1;
	e->ino = fs->next_ino++;
	return e;
}

static fsent *
fs_dir(memfs *fs, const char *path)
{
	return fs_add(fs, path, K_DIR);
}

static fsent *
fs_file(memfs *fs, const char *path, int64_t size, int64_t mtime)
{
	fsent	   *e = fs_add(fs, path, K_FILE);

	e->size = size;
	e->mtime = mtime;
	return e;
}

static fsent *
fs_log(memfs *fs, const char *path, const char *text)
{
	fsent	   *e = fs_file(fs, path, text ? (int64_t) strlen(text) : 100, 2000);

	e->log = text ? xstrdup(text) : NULL;
	return e;
}

static fsent *
fs_error(memfs *fs, const char *path, int err)
{
	fsent	   *e = fs_add(fs, path, K_ERROR);

	e->err = err;
	return e;
}

/* a symbolic link to a folder: its stat is the folder's */
static fsent *
fs_link(memfs *fs, const char *path, const char *target, const fsent *folder)
{
	uint64_t	dev = folder->dev,
				ino = folder->ino;	/* fs_add may move the table */
	fsent	   *e = fs_add(fs, path, K_DIR);

	e->target = xstrdup(target);
	e->dev = dev;
	e->ino = ino;
	return e;
}

static void
emit(memfs *fs, const char *fmt,...)
{
	va_list		ap;
	int			n;

	for (;;)
	{
		size_t		room = fs->outcap - fs->outlen;

		va_start(ap, fmt);
		n = vsnprintf(fs->out ? fs->out + fs->outlen : NULL, room, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t) n + 1 < room)
			break;
		fs->outcap = fs->outcap ? 2 * fs->outcap + (size_t) n : 4096;
		fs->out = realloc(fs->out, fs->outcap);
	}
	fs->outlen += (size_t) n;
	fs->out[fs->outlen++] = '\n';
	fs->out[fs->outlen] = '\0';
}

/* path without trailing '/'s ("/" stays) */
static void
normalize(const char *path, char *out, size_t cap)
{
	size_t		n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	if (n >= cap)
		n = cap - 1;
	memcpy(out, path, n);
	out[n] = '\0';
}

/* the entry of a path, through the links above it; NULL if none */
static fsent *
lookup(memfs *fs, const char *path)
{
	char		cur[4096],
				next[4096];
	int			hops;

	normalize(path, cur, sizeof(cur));
	for (hops = 0; hops < 16; hops++)
	{
		size_t		i;
		fsent	   *via = NULL;

		for (i = 0; i < fs->n; i++)
			if (strcmp(fs->e[i].path, cur) == 0)
				return &fs->e[i];
		for (i = 0; i < fs->n && via == NULL; i++)
		{
			size_t		l = strlen(fs->e[i].path);

			if (fs->e[i].target != NULL && strncmp(cur, fs->e[i].path, l) == 0 &&
				cur[l] == '/')
				via = &fs->e[i];
		}
		if (via == NULL)
			return NULL;
		snprintf(next, sizeof(next), "%s%s", via->target, cur + strlen(via->path));
		memcpy(cur, next, sizeof(cur));
	}
	return NULL;
}

/* ------------------------------------------------------------------------
 * the ops
 * ------------------------------------------------------------------------ */
static void *
op_alloc(void *arg, size_t size)
{
	memfs	   *fs = arg;

	fs->nalloc++;
	if (fs->nalloc - fs->nrelease > fs->peak_live)
		fs->peak_live = fs->nalloc - fs->nrelease;
	return malloc(size);
}

static void
op_release(void *arg, void *p)
{
	memfs	   *fs = arg;

	fs->nrelease++;
	free(p);
}

static void
op_stat(void *arg, const char *path, bc_walk_stat *st)
{
	memfs	   *fs = arg;
	fsent	   *e = lookup(fs, path);

	/* with list_stats, the walk never stats a file op_list stat'ed */
	if (fs->list_stats && e != NULL && e->kind != K_DIR && e->listed_stat)
		fs->restats++;
	/* as the callers do: on failure only type and err are set */
	if (e == NULL || e->kind == K_GONE)
	{
		st->type = BC_WALK_GONE;
		st->err = ERR_NOENT;
		return;
	}
	e->nstat++;
	if (e->kind == K_ERROR || (e->stat_ok > 0 && e->nstat > e->stat_ok))
	{
		st->type = BC_WALK_ERROR;
		st->err = e->err;
		return;
	}
	st->type = e->kind == K_DIR ? BC_WALK_DIRECTORY :
		e->kind == K_FILE ? BC_WALK_REGULAR : BC_WALK_OTHER;
	st->dev = e->dev;
	st->ino = e->ino;
	st->size = e->size;
	st->mtime = e->mtime;
}

static int
op_list(void *arg, bc_walk *w, const char *dir, int root)
{
	memfs	   *fs = arg;
	fsent	   *d = lookup(fs, dir);
	char		base[4096];
	size_t		bl,
				i;
	int			count = 0;

	fs->nlist++;
	CHECK(d != NULL && d->kind == K_DIR, "list of %s, not a folder", dir);
	if (d == NULL)
		return 0;
	normalize(d->target ? d->target : d->path, base, sizeof(base));
	if (strcmp(base, "/") == 0)
		base[0] = '\0';
	bl = strlen(base);
	for (i = 0; i < fs->n; i++)
	{
		const char *p = fs->e[i].path;

		if (strncmp(p, base, bl) != 0 || p[bl] != '/' || p[bl + 1] == '\0' ||
			strchr(p + bl + 1, '/') != NULL)
			continue;
		if (d->list_mode != LIST_OK && count == d->list_n)
			break;
		if (fs->list_stats)
		{
			char		path[4096];
			bc_walk_stat st;
			size_t		dl = strlen(dir);

			snprintf(path, sizeof(path), "%s%s%s", dir, dl > 0 && dir[dl - 1] == '/' ? "" : "/",
					 p + bl + 1);
			memset(&st, 0, sizeof(st));
			fs->list_stats = 0;
			op_stat(fs, path, &st);
			fs->list_stats = 1;
			if (lookup(fs, path) != NULL)
				lookup(fs, path)->listed_stat = 1;
			bc_walk_add_name_stat(w, p + bl + 1, &st);
		}
		else
			bc_walk_add_name(w, p + bl + 1);
		count++;
	}
	if (d->list_mode == LIST_FAIL)
	{
		emit(fs, "L-fail %s root=%d", dir, root);
		return 0;
	}
	if (d->list_mode == LIST_CUT)
		emit(fs, "L-cut %s", dir);
	return 1;
}

static char *
op_read_log(void *arg, const char *path, size_t max, size_t *len)
{
	memfs	   *fs = arg;
	fsent	   *e = lookup(fs, path);
	char	   *p;
	size_t		n;

	CHECK(max == BC_WALK_MAX_TXN_LOG_BYTES, "%s: read_log max %zu", path, max);
	fs->nread++;
	*len = 0;
	if (e == NULL || e->log == NULL)
	{
		emit(fs, "R-fail %s", path);
		return NULL;
	}
	n = strlen(e->log);
	/* exactly its bytes, no NUL after them: a read past them shows */
	p = op_alloc(fs, n ? n : 1);
	memcpy(p, e->log, n);
	*len = n;
	return p;
}

/* a pending_delete log in pieces of 3 bytes, so that lines cross pieces */
static int
op_read_pieces(void *arg, const char *path, size_t max,
			   void (*piece) (void *parg, const char *bytes, size_t n), void *parg)
{
	memfs	   *fs = arg;
	fsent	   *e = lookup(fs, path);
	size_t		n,
				i;

	CHECK(max == BC_WALK_MAX_TXN_LOG_BYTES, "%s: read_pieces max %zu", path, max);
	fs->nread++;
	if (e == NULL || e->log == NULL)
	{
		emit(fs, "R-fail %s", path);
		return -1;
	}
	n = strlen(e->log);
	for (i = 0; i < n; i += 3)
		piece(parg, e->log + i, n - i < 3 ? n - i : 3);
	return 0;
}

static const char *
problem_name(bc_walk_problem p)
{
	switch (p)
	{
		case BC_WALK_STAT_FAILED:
			return "stat_failed";
		case BC_WALK_NOT_DIRECTORY:
			return "not_directory";
		case BC_WALK_LINK_LOOP:
			return "link_loop";
		case BC_WALK_ALREADY_WALKED:
			return "already_walked";
		case BC_WALK_TOO_DEEP:
			return "too_deep";
		case BC_WALK_TXN_CORRUPT:
			return "txn_corrupt";
		case BC_WALK_TXN_LAST_RECORD:
			return "txn_last_record";
		case BC_WALK_TXN_UNREADABLE:
			return "txn_unreadable";
	}
	return "?";
}

static void
op_problem(void *arg, const bc_walk_report *r)
{
	emit(arg, "P %s %s root=%d dir=%d err=%d line=%ld%s%s%s%s%s%s%s%s", problem_name(r->problem),
		 r->path, r->root, r->is_directory, r->err, r->lineno, r->reason ? ": " : "",
		 r->reason ? r->reason : "", r->first_path ? " first=" : "",
		 r->first_path ? r->first_path : "", r->first_real ? " real=" : "",
		 r->first_real ? r->first_real : "", r->first_real ? " state=" : "",
		 r->first_real ? bc_sstable_state_name(r->first_state) : "");
}

/* what every SSTable reported must hold, whatever its folder */
static void
check_sstable_shape(const bc_walk_sstable *s)
{
	char		want[4096];
	size_t		dl = strlen(s->dir);
	int			i,
				sorted = 1,
				sizes = 1,
				ndata = 0;
	const bc_walk_component *data = NULL;

	snprintf(want, sizeof(want), "%s%s%s", s->dir,
			 (dl > 0 && s->dir[dl - 1] == '/') ? "" : "/", s->descriptor);
	CHECK(strcmp(s->prefix, want) == 0, "prefix %s, dir %s, descriptor %s",
		  s->prefix, s->dir, s->descriptor);
	CHECK(s->ncomponents >= 1 && s->components != NULL, "%s: %d components",
		  s->prefix, s->ncomponents);
	for (i = 0; i < s->ncomponents; i++)
	{
		if (i > 0 && strcmp(s->components[i - 1].name, s->components[i].name) >= 0)
			sorted = 0;
		if (bc_walk_component_size(s, s->components[i].name) != s->components[i].size)
			sizes = 0;
		if (strcmp(s->components[i].name, "Data.db") == 0)
		{
			ndata++;
			data = &s->components[i];
		}
	}
	CHECK(sorted, "%s: components not sorted", s->prefix);
	CHECK(sizes, "%s: bc_walk_component_size differs from the components", s->prefix);
	CHECK(ndata <= 1 && s->data == data, "%s: data %p, Data.db at %p", s->prefix,
		  (const void *) s->data, (const void *) data);
	CHECK(bc_walk_component_size(s, "Nothing.db") == -1 &&
		  bc_walk_component_size(s, "Data") == -1 &&
		  bc_walk_component_size(s, "") == -1, "%s: size of a missing component", s->prefix);

	/* the name's fields, and the folder's, as the parsers give them */
	if (s->ncomponents >= 1)
	{
		bc_sstable_name nm;
		bc_folder	fo;
		char		table[512];
		int			ok;

		snprintf(want, sizeof(want), "%s-%s", s->descriptor, s->components[0].name);
		ok = bc_sstable_name_parse(want, strlen(want), &nm) == BC_OK &&
			nm.descriptor_len == strlen(s->descriptor) &&
			nm.version_len == strlen(s->version) &&
			memcmp(nm.version, s->version, nm.version_len) == 0 &&
			nm.generation_len == strlen(s->generation) &&
			memcmp(nm.generation, s->generation, nm.generation_len) == 0 &&
			nm.format == s->format && nm.legacy == s->legacy;
		CHECK(ok, "%s: version, generation, format or legacy not the name's", s->prefix);
		CHECK(s->walked_dir != NULL && s->place != NULL, "%s: no walked_dir or place", s->prefix);
		bc_folder_parse(s->place, strlen(s->place), &fo);
		if (s->legacy)
			ok = s->keyspace && s->table &&
				strlen(s->keyspace) == nm.keyspace_len &&
				memcmp(s->keyspace, nm.keyspace, nm.keyspace_len) == 0 &&
				strlen(s->table) == nm.table_len &&
				memcmp(s->table, nm.table, nm.table_len) == 0;
		else if (fo.table == NULL)
			ok = s->keyspace == NULL && s->table == NULL;
		else
		{
			snprintf(table, sizeof(table), "%.*s%.*s", (int) fo.table_len, fo.table,
					 (int) fo.index_len, fo.index ? fo.index : "");
			ok = s->table && strcmp(s->table, table) == 0 &&
				(fo.keyspace == NULL ? s->keyspace == NULL :
				 (s->keyspace && strlen(s->keyspace) == fo.keyspace_len &&
				  memcmp(s->keyspace, fo.keyspace, fo.keyspace_len) == 0));
		}
		CHECK(ok, "%s: keyspace %s, table %s: not what the name or the folder says", s->prefix,
			  s->keyspace ? s->keyspace : "-", s->table ? s->table : "-");
		CHECK(fo.snapshot == NULL ? s->snapshot == NULL :
			  (s->snapshot && strlen(s->snapshot) == fo.snapshot_len &&
			   memcmp(s->snapshot, fo.snapshot, fo.snapshot_len) == 0) &&
			  (fo.state == BC_STATE_LIVE || s->state == fo.state),
			  "%s: snapshot or state not the folder's", s->prefix);
	}
}

static void
op_sstable(void *arg, const bc_walk_sstable *s)
{
	memfs	   *fs = arg;
	char		comps[4096];
	size_t		o = 0;
	int			i;

	fs->nsstable++;
	check_sstable_shape(s);
	comps[0] = '\0';
	for (i = 0; i < s->ncomponents && o < sizeof(comps); i++)
		o += (size_t) snprintf(comps + o, sizeof(comps) - o, "%s%s:%lld:%lld",
							   i ? "," : "", s->components[i].name,
							   (long long) s->components[i].size,
							   (long long) s->components[i].mtime);
	emit(fs, "S %s d=%s v=%s g=%s %s%s ks=%s t=%s snap=%s %s %s", s->prefix,
		 s->descriptor, s->version, s->generation,
		 s->format == BC_SSTABLE_BTI ? "bti" : "big", s->legacy ? " legacy" : "",
		 s->keyspace ? s->keyspace : "-", s->table ? s->table : "-",
		 s->snapshot ? s->snapshot : "-", bc_sstable_state_name(s->state), comps);
}

static const bc_walk_ops ops = {
	op_alloc, op_release, op_stat, op_list, op_read_log, op_problem, op_sstable, NULL, NULL
};

/* a folder's real path: the links above it (and it) replaced by their
 * targets, as realpath(3) resolves them */
static char *
op_real_path(void *arg, const char *path)
{
	memfs	   *fs = arg;
	char		cur[4096],
				next[4096];
	char	   *out;
	int			hops;

	normalize(path, cur, sizeof(cur));
	for (hops = 0; hops < 16; hops++)
	{
		size_t		i;
		fsent	   *via = NULL;

		for (i = 0; i < fs->n && via == NULL; i++)
		{
			size_t		l = strlen(fs->e[i].path);

			if (fs->e[i].target != NULL && strncmp(cur, fs->e[i].path, l) == 0 &&
				(cur[l] == '/' || cur[l] == '\0'))
				via = &fs->e[i];
		}
		if (via == NULL)
			break;
		snprintf(next, sizeof(next), "%s%s", via->target, cur + strlen(via->path));
		memcpy(cur, next, sizeof(cur));
	}
	out = op_alloc(fs, strlen(cur) + 1);
	strcpy(out, cur);
	return out;
}

static const bc_walk_ops real_ops = {
	op_alloc, op_release, op_stat, op_list, op_read_log, op_problem, op_sstable, op_real_path,
	op_read_pieces
};

static void
run_reset(memfs *fs)
{
	size_t		i;

	for (i = 0; i < fs->n; i++)
		fs->e[i].nstat = fs->e[i].listed_stat = 0;
	fs->nalloc = fs->nrelease = fs->nlist = fs->nsstable = fs->peak_live = 0;
	fs->restats = 0;
	fs->outlen = 0;
	if (fs->out)
		fs->out[0] = '\0';
}

/* the walk one SSTable at a time (bc_walk_open, _next, _close), stopped
 * after stop SSTables when stop >= 0: its status, as bc_walk_run's */
static int
run_iter(memfs *fs, const char *root, int include_inactive, long stop)
{
	bc_walk    *w;
	bc_walk_sstable s;

	run_reset(fs);
	w = bc_walk_open(&ops, fs, root, include_inactive);
	if (w == NULL)
		return -1;
	while ((stop < 0 || fs->nsstable < stop) && bc_walk_next(w, &s))
		op_sstable(fs, &s);
	bc_walk_close(w);
	return 0;
}

/* one walk: its status; every allocation released; the walk one SSTable
 * at a time gives the same reports, in the same order, with the same
 * status and releases everything too, also when stopped half way */
static int
run(memfs *fs, const char *root, int include_inactive)
{
	int			rc,
				rc2;
	char	   *out;
	long		n;

	run_reset(fs);
	rc = bc_walk_run(&ops, fs, root, include_inactive);
	CHECK(fs->nalloc == fs->nrelease, "walk of %s (inactive %d): %ld allocations, %ld releases",
		  root, include_inactive, fs->nalloc, fs->nrelease);
	out = xstrdup(fs->out ? fs->out : "");
	n = fs->nsstable;

	rc2 = run_iter(fs, root, include_inactive, n / 2);
	CHECK(rc2 == rc && fs->nsstable == n / 2 && fs->nalloc == fs->nrelease,
		  "walk of %s one at a time, stopped after %ld: status %d, %ld SSTables, %ld allocations, %ld releases",
		  root, n / 2, rc2, fs->nsstable, fs->nalloc, fs->nrelease);
	rc2 = run_iter(fs, root, include_inactive, -1);
	CHECK(rc2 == rc && strcmp(out, fs->out ? fs->out : "") == 0 && fs->nalloc == fs->nrelease,
		  "walk of %s one at a time: status %d (%d), the same reports %d, %ld allocations, %ld releases",
		  root, rc2, rc, strcmp(out, fs->out ? fs->out : "") == 0, fs->nalloc, fs->nrelease);
	/* the names' stats given by the listing (bc_walk_add_name_stat), and
	 * not asked for again */
	fs->list_stats = 1;
	rc2 = run_iter(fs, root, include_inactive, -1);
	fs->list_stats = 0;
	CHECK(rc2 == rc && strcmp(out, fs->out ? fs->out : "") == 0 && fs->nalloc == fs->nrelease &&
		  fs->restats == 0,
		  "walk of %s with the stats from the listing: status %d (%d), the same reports %d, %ld allocations, %ld releases, %ld files stat'ed again",
		  root, rc2, rc, strcmp(out, fs->out ? fs->out : "") == 0, fs->nalloc, fs->nrelease,
		  fs->restats);
	free(out);
	/* the reports of bc_walk_run, for the caller */
	run_reset(fs);
	rc = bc_walk_run(&ops, fs, root, include_inactive);
	return rc;
}

/* the reports, line by line, against the expected ones */
static void
check_out(const memfs *fs, const char *want, const char *what)
{
	const char *g = fs->out ? fs->out : "";
	const char *x = want;
	int			line = 0;

	while (*g || *x)
	{
		const char *ge = strchr(g, '\n');
		const char *xe = strchr(x, '\n');
		size_t		gl = ge ? (size_t) (ge - g) : strlen(g);
		size_t		xl = xe ? (size_t) (xe - x) : strlen(x);

		line++;
		CHECK(gl == xl && memcmp(g, x, gl) == 0,
			  "%s, line %d:\n     got  %.*s\n     want %.*s", what, line,
			  (int) gl, g, (int) xl, x);
		g += gl + (ge ? 1 : 0);
		x += xl + (xe ? 1 : 0);
	}
}

/* ------------------------------------------------------------------------
 * a node's data directory
 * ------------------------------------------------------------------------ */
#define R "/srv/cassandra/data"
#define KS R "/ks"
#define T KS "/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d"
#define T1 KS "/table1-ea3b3e6b-0d78-4913-89f2-15fcf98711d0"
#define DISK2 "/mnt/disk2/ks2"
#define T2 "t2-0123456789abcdef0123456789abcdef"
#define LOG_COMMITTED "nb_txn_compaction_8c1e110f-d148-11e6-7f7f-7f7f7f7f7f7f.log"
#define LOG_ABORTED "nb_txn_compaction_aaaa1111-d148-11e6-7f7f-7f7f7f7f7f7f.log"
#define LOG_FLUSH "nb_txn_flush_61b4510f-d07f-11e6-7f7f-7f7f7f7f7f7f.log"
#define LOG_STREAM "nb_txn_stream_35c5110f-d46d-11e6-7f7f-7f7f7f7f7f7f.log"
#define LOG_CORRUPT "nb_txn_compaction_cccc2222-d148-11e6-7f7f-7f7f7f7f7f7f.log"
#define LOG_LAST "nb_txn_compaction_dddd3333-d148-11e6-7f7f-7f7f7f7f7f7f.log"
#define LOG_LATIN1 "nb_txn_flush_eeee4444-d07f-11e6-7f7f-7f7f7f7f7f7f.log"
#define OA_GEN "3gad_0m1k_2mxu82r4u0zzb5z4ge"

static void
build_node(memfs *fs)
{
	fsent	   *e,
			   *ks;

	fs_dir(fs, R);
	fs_file(fs, R "/system.log", 10, 1);	/* neither component nor txn log */
	ks = fs_dir(fs, KS);
	fs_dir(fs, T);

	/* listed out of order: the walk sorts */
	fs_file(fs, T "/nb-1-big-TOC.txt", 92, 1001);
	fs_file(fs, T "/nb-2-big-Filter.db", 0, 1002);
	fs_file(fs, T "/nb-1-big-Data.db", 4096, 1000);
	fs_file(fs, T "/nb-10-big-Data.db", 10, 1010);
	fs_file(fs, T "/notes.txt", 5, 1);
	fs_file(fs, T "/nb-1-big-Statistics.db", 5000, 1000);
	fs_file(fs, T "/nb-2-big-Data.db", 20, 1002);
	fs_file(fs, T "/nb-1-big-Filter.db", 16, 1000);
	fs_file(fs, T "/nb-3-big-Data.db", 30, 1003);
	fs_file(fs, T "/nb-1-big-Index.db", 80, 1000);
	fs_file(fs, T "/nb-4-big-Data.db", 40, 1004);
	fs_file(fs, T "/nb-5-big-Index.db", 51, 1005);
	fs_file(fs, T "/nb-5-big-Filter.db", 50, 1005);
	fs_file(fs, T "/tmplink-nb-7-big-Data.db", 70, 1007);
	fs_file(fs, T "/tmp-nb-6-big-Data.db", 60, 1006);
	fs_file(fs, T "/da-8-bti-Rows.db", 82, 1008);
	fs_file(fs, T "/da-8-bti-Data.db", 80, 1008);
	fs_file(fs, T "/da-8-bti-Partitions.db", 81, 1008);
	fs_file(fs, T "/oa-" OA_GEN "-big-Data.db", 90, 1009);
	fs_file(fs, T "/nb-16-big-Data.db", 160, 1016);
	fs_file(fs, T "/nb-9-big-Data.db.bak", 9, 1);	/* two dots */
	fs_file(fs, T "/nb-11-big", 11, 1);	/* no component */
	fs_file(fs, T "/manifest.json", 11, 1);
	fs_add(fs, T "/nb-12-big-Data.db", K_OTHER);	/* a FIFO */
	fs_add(fs, T "/nb-13-big-Data.db", K_GONE);	/* deleted meanwhile */
	fs_error(fs, T "/nb-14-big-Data.db", ERR_ACCES);

	/*
	 * Records as LogRecord.format writes them, with their CRCs (computed
	 * apart, see test_txn_log.c).  A compaction that committed: what it
	 * removed is obsolete, what it added live (the COMMIT's time is not
	 * kept, nor in its CRC).
	 */
	fs_log(fs, T "/" LOG_COMMITTED,
		   "ADD:[" T "/nb-4-big,0,8][1754035493]\n"
		   "REMOVE:[" T "/nb-2-big,1700000000000,8][2513227228]\n"
		   "COMMIT:[,1700000000000,0][2613697770]\n");
	/* one that was abandoned: what it added is temporary */
	fs_log(fs, T "/" LOG_ABORTED,
		   "ADD:[" T "/nb-16-big,0,1][3244170344]\n"
		   "ABORT:[,1700000000001,0][737437348]\n");
	/* a flush cut short: a prefix with its '-', a REMOVE of an unfinished
	 * operation (no effect), and a last line cut by the crash (not
	 * reported) */
	fs_log(fs, T "/" LOG_FLUSH,
		   "ADD:[" T "/nb-3-big-,0,8][3864733732]\n"
		   "REMOVE:[" T "/nb-10-big,0,8][4151091548]\n"
		   "ADD:[" T "/nb-1-b");
	/* a CRC wrong before the last record: the log fails verification
	 * (reported); the valid records apply (da-8-bti is temporary), the
	 * invalid one does not (nb-10-big stays live) */
	fs_log(fs, T "/" LOG_CORRUPT,
		   "ADD:[" T "/nb-10-big,0,8][1]\n"
		   "ADD:[" T "/da-8-bti,0,3][3713163277]\n");
	/* a damaged last record, a whole line (reported): the operation is
	 * unfinished, so what it REMOVEs stays live */
	fs_log(fs, T "/" LOG_LAST,
		   "REMOVE:[" T "/nb-10-big,1700000000000,1][901269470]\n"
		   "COMMIT:[,0,0][2613697771]\n");
	/* not UTF-8 (reported): Cassandra cannot read it, nothing applies */
	fs_log(fs, T "/" LOG_LATIN1,
		   "ADD:[" T "/nb-1-big,0,8][1124508986]\n"
		   "\xe9\n");
	/* unreadable: the SSTables it would name stay live */
	fs_log(fs, T "/" LOG_STREAM, NULL);

	/* a secondary index: the parent's logs do not apply to it */
	fs_dir(fs, T "/.t_idx");
	fs_file(fs, T "/.t_idx/nb-3-big-Data.db", 33, 1033);

	e = fs_dir(fs, T "/aaa-flaky");	/* stat'ed once, then fails */
	e->stat_ok = 1;
	e->err = ERR_IO;
	fs_file(fs, T "/aaa-flaky/nb-1-big-Data.db", 1, 1);

	fs_dir(fs, T "/backups");
	fs_file(fs, T "/backups/nb-2-big-Data.db", 22, 1022);

	e = fs_dir(fs, T "/bbb-unlistable");
	e->list_mode = LIST_FAIL;
	fs_file(fs, T "/bbb-unlistable/nb-1-big-Data.db", 1, 1);

	e = fs_dir(fs, T "/ccc-partial");	/* one name, then a read error */
	e->list_mode = LIST_CUT;
	e->list_n = 1;
	fs_file(fs, T "/ccc-partial/nb-20-big-Data.db", 200, 1020);
	fs_file(fs, T "/ccc-partial/nb-21-big-Data.db", 210, 1021);

	e = fs_dir(fs, T "/ddd-partfail");	/* two names, then unreadable */
	e->list_mode = LIST_FAIL;
	e->list_n = 2;
	fs_file(fs, T "/ddd-partfail/nb-1-big-Data.db", 1, 1);
	fs_file(fs, T "/ddd-partfail/nb-1-big-Filter.db", 1, 1);

	fs_link(fs, T "/loop", KS, ks);	/* back up to the keyspace */

	fs_dir(fs, T "/snapshots");
	fs_dir(fs, T "/snapshots/s1");
	fs_file(fs, T "/snapshots/s1/nb-1-big-Filter.db", 17, 900);
	fs_file(fs, T "/snapshots/s1/tmp-nb-6-big-Data.db", 61, 901);
	fs_file(fs, T "/snapshots/s1/nb-1-big-Data.db", 4097, 900);
	fs_dir(fs, T "/snapshots/s1/.t_idx");
	fs_file(fs, T "/snapshots/s1/.t_idx/nb-3-big-Data.db", 34, 902);

	/* names of 2.1 and before: keyspace and table from the name */
	fs_dir(fs, T "/zzz");
	fs_file(fs, T "/zzz/ks-legacy-tmp-ka-4-Data.db", 400, 1400);
	fs_file(fs, T "/zzz/ks-legacy-ka-3-Index.db", 301, 1300);
	fs_file(fs, T "/zzz/ks-legacy-ka-3-Data.db", 300, 1300);

	fs_dir(fs, T1);
	fs_file(fs, T1 "/me-1-big-Data.db", 500, 1500);

	/* a keyspace on another disk, through a link */
	e = fs_dir(fs, DISK2);
	e->dev = 2;
	fs_link(fs, R "/ks2", DISK2, e);
	fs_dir(fs, DISK2 "/" T2);
	fs_file(fs, DISK2 "/" T2 "/nb-1-big-Data.db", 600, 1600);
}

#define SS(path, rest) "S " path " " rest "\n"

static const char *const node_active_head =
	"P stat_failed " T "/nb-14-big-Data.db root=0 dir=0 err=13 line=0\n"
	"P txn_corrupt " T "/" LOG_CORRUPT " root=0 dir=0 err=0 line=1: checksum mismatch\n"
	"P txn_last_record " T "/" LOG_LAST " root=0 dir=0 err=0 line=2: checksum mismatch\n"
	"P txn_unreadable " T "/" LOG_LATIN1 " root=0 dir=0 err=0 line=2: not UTF-8\n"
	"R-fail " T "/" LOG_STREAM "\n"
	SS(T "/da-8-bti", "d=da-8-bti v=da g=8 bti ks=ks t=t snap=- temporary "
	   "Data.db:80:1008,Partitions.db:81:1008,Rows.db:82:1008")
	SS(T "/nb-1-big", "d=nb-1-big v=nb g=1 big ks=ks t=t snap=- live "
	   "Data.db:4096:1000,Filter.db:16:1000,Index.db:80:1000,Statistics.db:5000:1000,TOC.txt:92:1001")
	SS(T "/nb-10-big", "d=nb-10-big v=nb g=10 big ks=ks t=t snap=- live Data.db:10:1010")
	SS(T "/nb-16-big", "d=nb-16-big v=nb g=16 big ks=ks t=t snap=- temporary Data.db:160:1016")
	SS(T "/nb-2-big", "d=nb-2-big v=nb g=2 big ks=ks t=t snap=- obsolete "
	   "Data.db:20:1002,Filter.db:0:1002")
	SS(T "/nb-3-big", "d=nb-3-big v=nb g=3 big ks=ks t=t snap=- temporary Data.db:30:1003")
	SS(T "/nb-4-big", "d=nb-4-big v=nb g=4 big ks=ks t=t snap=- live Data.db:40:1004")
	SS(T "/nb-5-big", "d=nb-5-big v=nb g=5 big ks=ks t=t snap=- orphaned "
	   "Filter.db:50:1005,Index.db:51:1005")
	SS(T "/oa-" OA_GEN "-big", "d=oa-" OA_GEN "-big v=oa g=" OA_GEN
	   " big ks=ks t=t snap=- live Data.db:90:1009")
	SS(T "/tmp-nb-6-big", "d=tmp-nb-6-big v=nb g=6 big ks=ks t=t snap=- temporary Data.db:60:1006")
	SS(T "/tmplink-nb-7-big", "d=tmplink-nb-7-big v=nb g=7 big ks=ks t=t snap=- temporary "
	   "Data.db:70:1007")
	SS(T "/.t_idx/nb-3-big", "d=nb-3-big v=nb g=3 big ks=ks t=t.t_idx snap=- live Data.db:33:1033")
	"P stat_failed " T "/aaa-flaky root=0 dir=1 err=5 line=0\n";

static const char *const node_backups =
	SS(T "/backups/nb-2-big", "d=nb-2-big v=nb g=2 big ks=ks t=t snap=- backup Data.db:22:1022");

static const char *const node_middle =
	"L-fail " T "/bbb-unlistable root=0\n"
	"L-cut " T "/ccc-partial\n"
	SS(T "/ccc-partial/nb-20-big", "d=nb-20-big v=nb g=20 big ks=- t=- snap=- live Data.db:200:1020")
	"L-fail " T "/ddd-partfail root=0\n";

static const char *const node_loop =
	"P link_loop " T "/loop root=0 dir=1 err=0 line=0\n";

/*
 * From the table's folder, the keyspace's is not being walked: the link
 * to it is followed, and the loop is the table's folder below it.
 */
static const char *const table_loop =
	"P link_loop " T "/loop/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d root=0 dir=1 err=0 line=0\n"
	SS(T "/loop/table1-ea3b3e6b-0d78-4913-89f2-15fcf98711d0/me-1-big",
	   "d=me-1-big v=me g=1 big ks=loop t=table1 snap=- live Data.db:500:1500");

static const char *const node_snapshots =
	SS(T "/snapshots/s1/nb-1-big", "d=nb-1-big v=nb g=1 big ks=ks t=t snap=s1 snapshot "
	   "Data.db:4097:900,Filter.db:17:900")
	SS(T "/snapshots/s1/tmp-nb-6-big", "d=tmp-nb-6-big v=nb g=6 big ks=ks t=t snap=s1 snapshot "
	   "Data.db:61:901")
	SS(T "/snapshots/s1/.t_idx/nb-3-big", "d=nb-3-big v=nb g=3 big ks=ks t=t.t_idx snap=s1 snapshot "
	   "Data.db:34:902");

static const char *const node_tail =
	SS(T "/zzz/ks-legacy-ka-3", "d=ks-legacy-ka-3 v=ka g=3 big legacy ks=ks t=legacy snap=- live "
	   "Data.db:300:1300,Index.db:301:1300")
	SS(T "/zzz/ks-legacy-tmp-ka-4", "d=ks-legacy-tmp-ka-4 v=ka g=4 big legacy ks=ks t=legacy snap=- "
	   "temporary Data.db:400:1400")
	SS(T1 "/me-1-big", "d=me-1-big v=me g=1 big ks=ks t=table1 snap=- live Data.db:500:1500")
	SS(R "/ks2/" T2 "/nb-1-big", "d=nb-1-big v=nb g=1 big ks=ks2 t=t2 snap=- live Data.db:600:1600");

/* the sizes of some SSTables' components, looked up while reported */
static int	sizes_seen;

static void
op_sstable_sizes(void *arg, const bc_walk_sstable *s)
{
	op_sstable(arg, s);
	if (strcmp(s->prefix, T "/nb-1-big") == 0)
	{
		CHECK(bc_walk_component_size(s, "Data.db") == 4096 &&
			  bc_walk_component_size(s, "Filter.db") == 16 &&
			  bc_walk_component_size(s, "TOC.txt") == 92 &&
			  bc_walk_component_size(s, "Statistics.db") == 5000 &&
			  bc_walk_component_size(s, "Summary.db") == -1 &&
			  bc_walk_component_size(s, "data.db") == -1, "nb-1-big component sizes");
		CHECK(s->data != NULL && s->data->size == 4096 && s->data->mtime == 1000 &&
			  strcmp(s->data->name, "Data.db") == 0, "nb-1-big data");
		sizes_seen++;
	}
	if (strcmp(s->prefix, T "/nb-2-big") == 0)
	{
		sizes_seen++;
		CHECK(bc_walk_component_size(s, "Filter.db") == 0 &&
			  bc_walk_component_size(s, "Index.db") == -1, "nb-2-big: an empty Filter.db");
	}
	if (strcmp(s->prefix, T "/nb-5-big") == 0)
	{
		sizes_seen++;
		CHECK(s->data == NULL && bc_walk_component_size(s, "Data.db") == -1,
			  "nb-5-big: no Data.db");
	}
}

static void
check_node(void)
{
	memfs		fs;
	char		want[16384];
	int			rc;
	bc_walk_ops sizes_ops = ops;

	fs_init(&fs);
	build_node(&fs);

	rc = run(&fs, R, 1);
	CHECK(rc == 0, "node walk: %d", rc);
	snprintf(want, sizeof(want), "%s%s%s%s%s%s", node_active_head, node_backups,
			 node_middle, node_loop, node_snapshots, node_tail);
	check_out(&fs, want, "node, include_inactive");
	/* R, ks, t, .t_idx, backups, bbb, ccc, ddd, snapshots, s1, s1/.t_idx,
	 * zzz, table1, ks2, t2: not aaa-flaky (stat failed) nor loop */
	CHECK(fs.nlist == 15, "node, include_inactive: %ld folders listed", fs.nlist);
	CHECK(fs.nsstable == 21, "node, include_inactive: %ld SSTables", fs.nsstable);

	rc = run(&fs, R, 0);
	CHECK(rc == 0, "node walk, active only: %d", rc);
	snprintf(want, sizeof(want), "%s%s%s%s", node_active_head, node_middle, node_loop,
			 node_tail);
	check_out(&fs, want, "node, active only");
	CHECK(fs.nlist == 11, "node, active only: %ld folders listed", fs.nlist);
	CHECK(fs.nsstable == 17, "node, active only: %ld SSTables", fs.nsstable);

	/* the same walk from the table's folder: the same SSTables */
	rc = run(&fs, T, 0);
	snprintf(want, sizeof(want), "%s%s%s%s", node_active_head, node_middle, table_loop,
			 SS(T "/zzz/ks-legacy-ka-3", "d=ks-legacy-ka-3 v=ka g=3 big legacy ks=ks t=legacy snap=- live "
				"Data.db:300:1300,Index.db:301:1300")
			 SS(T "/zzz/ks-legacy-tmp-ka-4", "d=ks-legacy-tmp-ka-4 v=ka g=4 big legacy ks=ks t=legacy snap=- "
				"temporary Data.db:400:1400"));
	CHECK(rc == 0, "table walk: %d", rc);
	check_out(&fs, want, "table folder");

	/* sizes while reported */
	sizes_ops.sstable = op_sstable_sizes;
	fs.nalloc = fs.nrelease = 0;
	sizes_seen = 0;
	rc = bc_walk_run(&sizes_ops, &fs, T, 0);
	CHECK(rc == 0 && sizes_seen == 3 && fs.nalloc == fs.nrelease,
		  "component sizes: %d, %d SSTables seen, %ld/%ld", rc, sizes_seen, fs.nalloc,
		  fs.nrelease);
	fs_free(&fs);
}

/* ------------------------------------------------------------------------
 * the root: missing, not a folder, unreadable, and odd spellings
 * ------------------------------------------------------------------------ */
static void
check_roots(void)
{
	memfs		fs;
	fsent	   *e;
	int			rc;

	fs_init(&fs);
	fs_dir(&fs, "/srv");
	fs_file(&fs, "/srv/file.db", 10, 1);
	fs_add(&fs, "/srv/fifo", K_OTHER);
	fs_add(&fs, "/srv/dangling", K_GONE);
	fs_error(&fs, "/srv/locked", ERR_ACCES);
	e = fs_dir(&fs, "/srv/unlistable");
	e->list_mode = LIST_FAIL;
	fs_file(&fs, "/srv/unlistable/nb-1-big-Data.db", 1, 1);
	e = fs_dir(&fs, "/srv/half");	/* two names, then unreadable */
	e->list_mode = LIST_FAIL;
	e->list_n = 2;
	fs_file(&fs, "/srv/half/nb-1-big-Data.db", 1, 1);
	fs_file(&fs, "/srv/half/nb-2-big-Data.db", 2, 1);
	fs_file(&fs, "/srv/half/nb-3-big-Data.db", 3, 1);
	e = fs_dir(&fs, "/srv/cut");	/* two names, then a failed read */
	e->list_mode = LIST_CUT;
	e->list_n = 2;
	fs_file(&fs, "/srv/cut/nb-1-big-Filter.db", 11, 1);
	fs_file(&fs, "/srv/cut/nb-1-big-Data.db", 10, 1);
	fs_file(&fs, "/srv/cut/nb-2-big-Data.db", 20, 1);
	fs_dir(&fs, "/srv/empty");

	rc = run(&fs, "/srv/nope", 1);
	CHECK(rc == -1, "missing root: %d", rc);
	check_out(&fs, "P stat_failed /srv/nope root=1 dir=1 err=2 line=0\n", "missing root");
	rc = run(&fs, "/srv/dangling", 0);
	CHECK(rc == -1, "dangling root: %d", rc);
	check_out(&fs, "P stat_failed /srv/dangling root=1 dir=1 err=2 line=0\n", "dangling root");
	rc = run(&fs, "/srv/locked", 0);
	CHECK(rc == -1, "root stat error: %d", rc);
	check_out(&fs, "P stat_failed /srv/locked root=1 dir=1 err=13 line=0\n", "root stat error");
	rc = run(&fs, "/srv/file.db", 1);
	CHECK(rc == -1, "file as root: %d", rc);
	check_out(&fs, "P not_directory /srv/file.db root=1 dir=1 err=0 line=0\n", "file as root");
	rc = run(&fs, "/srv/fifo", 0);
	CHECK(rc == -1, "FIFO as root: %d", rc);
	check_out(&fs, "P not_directory /srv/fifo root=1 dir=1 err=0 line=0\n", "FIFO as root");

	/* unreadable: the list callback says why (root set), the walk stops */
	rc = run(&fs, "/srv/unlistable", 1);
	CHECK(rc == -1 && fs.nlist == 1, "unlistable root: %d", rc);
	check_out(&fs, "L-fail /srv/unlistable root=1\n", "unlistable root");
	rc = run(&fs, "/srv/half", 1);
	CHECK(rc == -1 && fs.nalloc > 2, "root unreadable after two names: %d, %ld allocations",
		  rc, fs.nalloc);
	check_out(&fs, "L-fail /srv/half root=1\n", "root unreadable after two names");

	/* a read that failed part way keeps the names listed */
	rc = run(&fs, "/srv/cut", 0);
	CHECK(rc == 0, "root cut short: %d", rc);
	check_out(&fs, "L-cut /srv/cut\n"
			  "S /srv/cut/nb-1-big d=nb-1-big v=nb g=1 big ks=srv t=cut snap=- live "
			  "Data.db:10:1,Filter.db:11:1\n", "root cut short");

	rc = run(&fs, "/srv/empty", 1);
	CHECK(rc == 0 && fs.outlen == 0 && fs.nlist == 1, "empty root: %d", rc);
	fs_free(&fs);

	/* "/" and a trailing '/': no doubled '/' in paths */
	fs_init(&fs);
	e = fs_dir(&fs, "/");
	fs_file(&fs, "/nb-1-big-Data.db", 1, 2);
	fs_dir(&fs, "/x");
	fs_file(&fs, "/x/nb-2-big-Data.db", 3, 4);
	fs_link(&fs, "/x/up", "/", e);
	fs_dir(&fs, "/x/.i");
	fs_file(&fs, "/x/.i/nb-3-big-Data.db", 5, 6);
	rc = run(&fs, "/", 0);
	CHECK(rc == 0, "walk of /: %d", rc);
	check_out(&fs,
			  "S /nb-1-big d=nb-1-big v=nb g=1 big ks=- t=- snap=- live Data.db:1:2\n"
			  "S /x/nb-2-big d=nb-2-big v=nb g=2 big ks=- t=x snap=- live Data.db:3:4\n"
			  "S /x/.i/nb-3-big d=nb-3-big v=nb g=3 big ks=- t=x.i snap=- live Data.db:5:6\n"
			  "P link_loop /x/up root=0 dir=1 err=0 line=0\n", "walk of /");
	rc = run(&fs, "/x/", 0);
	CHECK(rc == 0, "walk of /x/: %d", rc);
	check_out(&fs,
			  "S /x/nb-2-big d=nb-2-big v=nb g=2 big ks=- t=x snap=- live Data.db:3:4\n"
			  "S /x/.i/nb-3-big d=nb-3-big v=nb g=3 big ks=- t=x.i snap=- live Data.db:5:6\n",
			  "walk of /x/");
	fs_free(&fs);
}

/* ------------------------------------------------------------------------
 * depth: a chain of 40 folders, one SSTable in each
 * ------------------------------------------------------------------------ */
static void
check_depth(void)
{
	memfs		fs;
	char		path[512],
				file[600],
				line[1024];
	char	   *want;
	size_t		wl = 0;
	int			i,
				rc;

	fs_init(&fs);
	want = malloc(65536);
	want[0] = '\0';
	strcpy(path, "/deep");
	for (i = 0; i <= 40; i++)
	{
		fs_dir(&fs, path);
		snprintf(file, sizeof(file), "%s/nb-%d-big-Data.db", path, i);
		fs_file(&fs, file, i, i);
		if (i <= BC_WALK_MAX_DEPTH - 1)
			snprintf(line, sizeof(line),
					 "S %s/nb-%d-big d=nb-%d-big v=nb g=%d big ks=%s t=%s snap=- live Data.db:%d:%d\n",
					 path, i, i, i, i == 0 ? "-" : i == 1 ? "deep" : "d",
					 i == 0 ? "deep" : "d", i, i);
		else if (i == BC_WALK_MAX_DEPTH)
			snprintf(line, sizeof(line), "P too_deep %s root=0 dir=1 err=0 line=0\n", path);
		else
			line[0] = '\0';
		memcpy(want + wl, line, strlen(line) + 1);
		wl += strlen(line);
		strcat(path, "/d");
	}
	rc = run(&fs, "/deep", 0);
	CHECK(rc == 0, "deep walk: %d", rc);
	check_out(&fs, want, "40 folders deep");
	CHECK(fs.nlist == BC_WALK_MAX_DEPTH && fs.nsstable == BC_WALK_MAX_DEPTH,
		  "40 deep: %ld folders listed, %ld SSTables", fs.nlist, fs.nsstable);
	free(want);
	fs_free(&fs);
}

/* ------------------------------------------------------------------------
 * many: more names and logged SSTables than the first allocations hold
 * ------------------------------------------------------------------------ */
/* a record of SSTable nb-<g>-big of /m/ks/big with its CRC (as
 * bc_txn_record_checksum computes it: test_txn_log.c checks that against
 * CRCs computed apart), and its line end, at out; its length */
static size_t
txn_line(char *out, const char *type, int g)
{
	bc_txn_record r;
	int			n = sprintf(out, "%s:[/m/ks/big/nb-%d-big,0,2][0]", type, g);

	bc_txn_record_parse(out, (size_t) n, &r);
	return (size_t) sprintf(out + n - 3, "[%lu]\n", (unsigned long) bc_txn_record_checksum(&r)) +
		(size_t) n - 3;
}

static void
check_many(void)
{
	memfs		fs;
	char		path[256];
	char	   *committed,
			   *open;
	size_t		cl = 0,
				ol = 0;
	int			i,
				rc;
	const char *p;
	long		live = 0,
				temporary = 0,
				obsolete = 0,
				other = 0;

	fs_init(&fs);
	fs_dir(&fs, "/m/ks/big");
	committed = malloc(65536);
	open = malloc(65536);
	for (i = 1; i <= 150; i++)
	{
		snprintf(path, sizeof(path), "/m/ks/big/nb-%d-big-Data.db", i);
		fs_file(&fs, path, i, i);
		snprintf(path, sizeof(path), "/m/ks/big/nb-%d-big-Filter.db", i);
		fs_file(&fs, path, i, i);
		if (i <= 100)
			ol += txn_line(open + ol, "ADD", i);
		else if (i <= 130)
			cl += txn_line(committed + cl, "REMOVE", i);
	}
	sprintf(committed + cl, "COMMIT:[,0,0][2613697770]\n");
	fs_log(&fs, "/m/ks/big/nb_txn_compaction_1.log", committed);
	fs_log(&fs, "/m/ks/big/nb_txn_write_2.log", open);
	free(committed);
	free(open);

	rc = run(&fs, "/m/ks/big", 0);
	CHECK(rc == 0 && fs.nsstable == 150, "many: %d, %ld SSTables", rc, fs.nsstable);
	for (p = fs.out; p && *p; p = strchr(p, '\n') + 1)
	{
		const char *nl = strchr(p, '\n');
		int			g = 0;

		sscanf(p, "S /m/ks/big/nb-%d-big", &g);
		if (g >= 1 && g <= 100 && strstr(p, " temporary ") && strstr(p, " temporary ") < nl)
			temporary++;
		else if (g > 100 && g <= 130 && strstr(p, " obsolete ") && strstr(p, " obsolete ") < nl)
			obsolete++;
		else if (g > 130 && strstr(p, " live ") && strstr(p, " live ") < nl)
			live++;
		else
			other++;
	}
	CHECK(temporary == 100 && obsolete == 30 && live == 20 && other == 0,
		  "many: %ld temporary, %ld obsolete, %ld live, %ld other", temporary, obsolete,
		  live, other);
	fs_free(&fs);
}

/*
 * What the walk holds does not grow with the SSTables walked before: two
 * nodes of the same folders (8 keyspaces of 8 tables), one with 10
 * SSTables in the tables of its first keyspace only (80), the other in
 * every table (640), are walked with the same most allocations held at
 * once (the names of the folders being walked and one SSTable), whether all
 * at once or one at a time.
 */
static void
check_bounded(void)
{
	long		peak[2][2];
	int			k,
				ks,
				t,
				i;

	for (k = 0; k < 2; k++)
	{
		memfs		fs;
		char		path[256];
		int			want = k ? 640 : 80;

		fs_init(&fs);
		fs_dir(&fs, "/b");
		for (ks = 0; ks < 8; ks++)
		{
			snprintf(path, sizeof(path), "/b/ks%d", ks);
			fs_dir(&fs, path);
			for (t = 0; t < 8; t++)
			{
				snprintf(path, sizeof(path), "/b/ks%d/t%d", ks, t);
				fs_dir(&fs, path);
				for (i = 1; i <= 10 && (k == 1 || ks == 0); i++)
				{
					snprintf(path, sizeof(path), "/b/ks%d/t%d/nb-%d-big-Data.db", ks, t, i);
					fs_file(&fs, path, i, i);
					snprintf(path, sizeof(path), "/b/ks%d/t%d/nb-%d-big-Filter.db", ks, t, i);
					fs_file(&fs, path, i, i);
				}
			}
		}
		run_reset(&fs);
		CHECK(bc_walk_run(&ops, &fs, "/b", 0) == 0 && fs.nsstable == want,
			  "bounded: %ld SSTables of %d", fs.nsstable, want);
		peak[k][0] = fs.peak_live;
		CHECK(run_iter(&fs, "/b", 0, -1) == 0 && fs.nsstable == want,
			  "bounded, one at a time: %ld SSTables of %d", fs.nsstable, want);
		peak[k][1] = fs.peak_live;
		fs_free(&fs);
	}
	CHECK(peak[0][0] == peak[1][0] && peak[0][1] == peak[1][1] && peak[0][0] > 0,
		  "bounded: most allocations held at once %ld and %ld (80 SSTables), %ld and %ld (640)",
		  peak[0][0], peak[0][1], peak[1][0], peak[1][1]);
}

/*
 * Symbolic links that reach one folder by many paths: folders d0 .. d12,
 * each with two links a and b to the next, one SSTable in d12.  Followed
 * naively, that is 2^12 = 4,096 paths to the SSTable; the walk enters each
 * folder once (the first link, a, in name order) and skips the other (b),
 * naming the path it was walked by, so the SSTable is reported once.  Two
 * links to one folder side by side, and a link to a sibling folder walked
 * before, are skipped too.  (check_bounded shows the set is not held per
 * SSTable: two allocations, whatever the folders.)
 */
static void
check_links(void)
{
	memfs		fs;
	fsent	   *d[13];
	char		path[700],
				via[600],
				line[1500];
	char	   *want;
	size_t		wl = 0;
	int			i,
				rc;

	fs_init(&fs);
	fs_dir(&fs, "/l");
	for (i = 0; i <= 12; i++)
	{
		snprintf(path, sizeof(path), "/l/d%d", i);
		d[i] = fs_dir(&fs, path);
	}
	for (i = 0; i < 12; i++)
	{
		snprintf(path, sizeof(path), "/l/d%d/a", i);
		snprintf(via, sizeof(via), "/l/d%d", i + 1);
		fs_link(&fs, path, via, d[i + 1]);
		snprintf(path, sizeof(path), "/l/d%d/b", i);
		fs_link(&fs, path, via, d[i + 1]);
	}
	fs_file(&fs, "/l/d12/nb-1-big-Data.db", 7, 8);

	/* from d0: d1 .. d12 by a/a/..., each b skipped */
	want = malloc(65536);
	want[0] = '\0';
	strcpy(via, "/l/d0");
	for (i = 0; i < 12; i++)
	{
		snprintf(path, sizeof(path), "%s/b", via);
		strcat(via, "/a");
		snprintf(line, sizeof(line), "P already_walked %s root=0 dir=1 err=0 line=0 first=%s\n",
				 path, via);
		/* a folder's subfolders are walked after its SSTables: the skips
		 * come out deepest first, after the SSTable */
		memmove(want + strlen(line), want, wl + 1);
		memcpy(want, line, strlen(line));
		wl += strlen(line);
	}
	snprintf(line, sizeof(line),
			 "S %s/nb-1-big d=nb-1-big v=nb g=1 big ks=a t=a snap=- live Data.db:7:8\n", via);
	memmove(want + strlen(line), want, wl + 1);
	memcpy(want, line, strlen(line));
	wl += strlen(line);
	rc = run(&fs, "/l/d0", 0);
	CHECK(rc == 0 && fs.nsstable == 1 && fs.nlist == 13,
		  "lattice: %d, %ld SSTables (4,096 without the set), %ld folders listed", rc,
		  fs.nsstable, fs.nlist);
	check_out(&fs, want, "lattice");
	CHECK(run_iter(&fs, "/l/d0", 0, -1) == 0 && fs.nsstable == 1 && fs.nlist == 13,
		  "lattice, one at a time: %ld SSTables, %ld folders listed", fs.nsstable, fs.nlist);
	check_out(&fs, want, "lattice, one at a time");
	CHECK(fs.nalloc == fs.nrelease, "lattice: %ld allocations, %ld releases", fs.nalloc,
		  fs.nrelease);

	/* from the parent: d0 first, and through it the others; each of them
	 * met again by its own name is skipped */
	rc = run(&fs, "/l", 0);
	CHECK(rc == 0 && fs.nsstable == 1 && fs.nlist == 14,
		  "lattice from its parent: %d, %ld SSTables, %ld folders listed", rc, fs.nsstable,
		  fs.nlist);
	CHECK(strstr(fs.out, "P already_walked /l/d1 root=0 dir=1 err=0 line=0 first=/l/d0/a\n")
		  != NULL && strstr(fs.out, "P already_walked /l/d12 root=0 dir=1 err=0 line=0 "
							"first=/l/d0/a/a/a/a/a/a/a/a/a/a/a/a\n") != NULL &&
		  strstr(fs.out, "S /l/d0/a/a/a/a/a/a/a/a/a/a/a/a/nb-1-big ") != NULL,
		  "lattice from its parent: %s", fs.out);
	free(want);
	fs_free(&fs);

	/* two links to one folder in one folder, and the folder itself */
	fs_init(&fs);
	fs_dir(&fs, "/t");
	d[0] = fs_dir(&fs, "/t/data");
	fs_file(&fs, "/t/data/nb-1-big-Data.db", 1, 1);
	fs_link(&fs, "/t/link1", "/t/data", d[0]);
	fs_link(&fs, "/t/link2", "/t/data", d[0]);
	rc = run(&fs, "/t", 0);
	CHECK(rc == 0 && fs.nsstable == 1, "two links: %d, %ld SSTables", rc, fs.nsstable);
	check_out(&fs,
			  "S /t/data/nb-1-big d=nb-1-big v=nb g=1 big ks=t t=data snap=- live Data.db:1:1\n"
			  "P already_walked /t/link1 root=0 dir=1 err=0 line=0 first=/t/data\n"
			  "P already_walked /t/link2 root=0 dir=1 err=0 line=0 first=/t/data\n",
			  "two links");
	fs_free(&fs);

	/* many folders: the set grows past its first size and keeps them all */
	fs_init(&fs);
	fs_dir(&fs, "/g");
	for (i = 0; i < 300; i++)
	{
		snprintf(path, sizeof(path), "/g/f%03d", i);
		d[0] = fs_dir(&fs, path);
		snprintf(path, sizeof(path), "/g/z%03d", i);
		snprintf(via, sizeof(via), "/g/f%03d", i);
		fs_link(&fs, path, via, d[0]);	/* before d[0] can move */
		snprintf(path, sizeof(path), "/g/f%03d/nb-%d-big-Data.db", i, i + 1);
		fs_file(&fs, path, 1, 1);
	}
	rc = run(&fs, "/g", 0);
	CHECK(rc == 0 && fs.nsstable == 300 && fs.nlist == 301,
		  "300 folders and 300 links: %d, %ld SSTables, %ld folders listed", rc, fs.nsstable,
		  fs.nlist);
	CHECK(strstr(fs.out, "P already_walked /g/z299 root=0 dir=1 err=0 line=0 first=/g/f299\n")
		  != NULL, "300 folders and 300 links: the last link");
	fs_free(&fs);
}

/*
 * The walk calls the core's tick hook (bc_tick.h: CHECK_FOR_INTERRUPTS on
 * the server) while it goes through the names of a folder, once every
 * 1,024: a folder of 5,000 names, none of them an SSTable, calls it 5 times
 * (names 0, 1024, ... 4096), so that statement_timeout and
 * pg_cancel_backend stop a walk of a folder of millions of names.
 */
static long ticks;

/*
 * An SSTable's path is its folder's real path (real_path), whichever way
 * the walk reached it; keyspace and table are read from the folders as
 * walked.  /n/data/ks/t2-2 is a link to another disk (/n/disk2/t2), /n/link
 * a link to /n/data.
 */
static void
check_real_paths(void)
{
	memfs		fs;
	fsent	   *data,
			   *disk;
	const char *roots[] = {"/n/data", "/n/link", "/n/link/ks", "/n/data/ks/t2-2", "/n/link/ks/t2-2"};
	size_t		i;
	bc_walk    *w;
	bc_walk_sstable s;

	fs_init(&fs);
	fs_dir(&fs, "/n");
	data = fs_dir(&fs, "/n/data");
	fs_dir(&fs, "/n/data/ks");
	fs_dir(&fs, "/n/data/ks/t1-1");
	fs_file(&fs, "/n/data/ks/t1-1/nb-1-big-Data.db", 3, 4);
	fs_dir(&fs, "/n/disk2");
	disk = fs_dir(&fs, "/n/disk2/t2");
	fs_file(&fs, "/n/disk2/t2/nb-7-big-Data.db", 5, 6);
	fs_link(&fs, "/n/data/ks/t2-2", "/n/disk2/t2", disk);
	data = lookup(&fs, "/n/data");
	fs_link(&fs, "/n/link", "/n/data", data);

	for (i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
	{
		run_reset(&fs);
		CHECK(bc_walk_run(&real_ops, &fs, roots[i], 0) == 0, "real paths from %s", roots[i]);
		CHECK(fs.nalloc == fs.nrelease, "real paths from %s: %ld allocations, %ld releases",
			  roots[i], fs.nalloc, fs.nrelease);
		CHECK(strstr(fs.out, "S /n/disk2/t2/nb-7-big d=nb-7-big v=nb g=7 big ks=ks t=t2 snap=- live Data.db:5:6\n") != NULL,
			  "real paths from %s: the linked table's SSTable by its real path: %s", roots[i], fs.out);
		CHECK(i >= 3 || strstr(fs.out, "S /n/data/ks/t1-1/nb-1-big d=nb-1-big v=nb g=1 big ks=ks t=t1 snap=- live Data.db:3:4\n") != NULL,
			  "real paths from %s: the other table's: %s", roots[i], fs.out);
		CHECK(strstr(fs.out, "/n/link/") == NULL && strstr(fs.out, "S /n/data/ks/t2-2") == NULL,
			  "real paths from %s: a path through a link: %s", roots[i], fs.out);
	}
	/* one at a time, released on the way */
	run_reset(&fs);
	w = bc_walk_open(&real_ops, &fs, "/n/link", 0);
	CHECK(w != NULL && bc_walk_next(w, &s) && strcmp(s.prefix, "/n/data/ks/t1-1/nb-1-big") == 0 &&
		  strcmp(s.walked_dir, "/n/link/ks/t1-1") == 0 && strcmp(s.dir, "/n/data/ks/t1-1") == 0,
		  "real paths one at a time: %s in %s, walked as %s", w ? s.prefix : "-",
		  w ? s.dir : "-", w ? s.walked_dir : "-");
	bc_walk_close(w);
	CHECK(fs.nalloc == fs.nrelease, "real paths one at a time: %ld allocations, %ld releases",
		  fs.nalloc, fs.nrelease);
	/* without the op: the paths as walked */
	run_reset(&fs);
	CHECK(bc_walk_run(&ops, &fs, "/n/link", 0) == 0 &&
		  strstr(fs.out, "S /n/link/ks/t2-2/nb-7-big ") != NULL,
		  "paths as walked without real_path: %s", fs.out);
	fs_free(&fs);
}

static void
count_tick(void)
{
	ticks++;
}

static void
check_tick(void)
{
	memfs		fs;
	char		path[64];
	int			i,
				rc;

	fs_init(&fs);
	fs_dir(&fs, "/k");
	for (i = 0; i < 5000; i++)
	{
		snprintf(path, sizeof(path), "/k/junk-%d", i);
		fs_file(&fs, path, 1, 1);
	}
	ticks = 0;
	bc_tick_hook = count_tick;
	run_reset(&fs);
	rc = bc_walk_run(&ops, &fs, "/k", 0);
	bc_tick_hook = NULL;
	CHECK(rc == 0 && fs.nsstable == 0 && ticks == 5, "tick: %d, %ld SSTables, %ld ticks", rc,
		  fs.nsstable, ticks);
	fs_free(&fs);
}

/*
 * What else a table folder holds.  ScyllaDB's TOC.txt.tmp (any of its
 * versions) and TemporaryHashes.db.tmp (ms, mt) are components that make
 * their SSTable temporary: being written, or (TOC.txt.tmp) deleted; a
 * hashes file alone too, never orphaned.  In other versions, and
 * Statistics.db.tmp in any, they are not components (ignored, as any
 * other name).  SAI's and SASI's components are the SSTable's, which stays
 * live.
 */
#define XT "/x/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d"

static void
check_extras(void)
{
	memfs		fs;
	int			rc;
	static const char *const want =
		SS(XT "/ks-cf-ka-8", "d=ks-cf-ka-8 v=ka g=8 big legacy ks=ks t=cf snap=- temporary "
		   "Data.db:80:8,TOC.txt.tmp:81:8")
		SS(XT "/me-1-big", "d=me-1-big v=me g=1 big ks=ks t=t snap=- temporary "
		   "Data.db:10:1,TOC.txt.tmp:11:1")
		SS(XT "/me-5-big", "d=me-5-big v=me g=5 big ks=ks t=t snap=- live Data.db:50:5")
		SS(XT "/me-6-big", "d=me-6-big v=me g=6 big ks=ks t=t snap=- live Data.db:60:6")
		SS(XT "/ms-2-big", "d=ms-2-big v=ms g=2 big ks=ks t=t snap=- temporary "
		   "Data.db:20:2,Partitions.db:21:2,TOC.txt.tmp:23:2,TemporaryHashes.db.tmp:22:2")
		SS(XT "/ms-9-big", "d=ms-9-big v=ms g=9 big ks=ks t=t snap=- temporary "
		   "TemporaryHashes.db.tmp:90:9")
		SS(XT "/mt-3-big", "d=mt-3-big v=mt g=3 big ks=ks t=t snap=- temporary "
		   "Data.db:30:3,TemporaryHashes.db.tmp:31:3")
		SS(XT "/nb-4-big", "d=nb-4-big v=nb g=4 big ks=ks t=t snap=- live Data.db:40:4")
		SS(XT "/oa-7-big", "d=oa-7-big v=oa g=7 big ks=ks t=t snap=- live "
		   "Data.db:70:7,SAI+aa+GroupComplete.db:0:7,SAI+aa+idx_v+Meta.db:71:7,SI_idx_w.db:72:7");

	fs_init(&fs);
	fs_dir(&fs, "/x");
	fs_dir(&fs, "/x/ks");
	fs_dir(&fs, XT);
	fs_file(&fs, XT "/me-1-big-Data.db", 10, 1);
	fs_file(&fs, XT "/me-1-big-TOC.txt.tmp", 11, 1);
	fs_file(&fs, XT "/ms-2-big-Data.db", 20, 2);
	fs_file(&fs, XT "/ms-2-big-Partitions.db", 21, 2);
	fs_file(&fs, XT "/ms-2-big-TemporaryHashes.db.tmp", 22, 2);
	fs_file(&fs, XT "/ms-2-big-TOC.txt.tmp", 23, 2);
	fs_file(&fs, XT "/mt-3-big-Data.db", 30, 3);
	fs_file(&fs, XT "/mt-3-big-TemporaryHashes.db.tmp", 31, 3);
	fs_file(&fs, XT "/nb-4-big-Data.db", 40, 4);
	fs_file(&fs, XT "/nb-4-big-TOC.txt.tmp", 41, 4);	/* not Cassandra's */
	fs_file(&fs, XT "/me-5-big-Data.db", 50, 5);
	fs_file(&fs, XT "/me-5-big-TemporaryHashes.db.tmp", 51, 5);	/* not me's */
	fs_file(&fs, XT "/me-6-big-Data.db", 60, 6);
	fs_file(&fs, XT "/me-6-big-Statistics.db.tmp", 61, 6);
	fs_file(&fs, XT "/oa-7-big-Data.db", 70, 7);
	fs_file(&fs, XT "/oa-7-big-SAI+aa+GroupComplete.db", 0, 7);
	fs_file(&fs, XT "/oa-7-big-SAI+aa+idx_v+Meta.db", 71, 7);
	fs_file(&fs, XT "/oa-7-big-SI_idx_w.db", 72, 7);
	fs_file(&fs, XT "/ks-cf-ka-8-Data.db", 80, 8);
	fs_file(&fs, XT "/ks-cf-ka-8-TOC.txt.tmp", 81, 8);
	fs_file(&fs, XT "/ms-9-big-TemporaryHashes.db.tmp", 90, 9);

	rc = run(&fs, "/x", 1);
	CHECK(rc == 0 && fs.nsstable == 9, "extras: %d, %ld SSTables", rc, fs.nsstable);
	check_out(&fs, want, "extras, include_inactive");
	fs_free(&fs);
}

/*
 * ScyllaDB's pending_delete/ (bc_walk_txn.h): the SSTables a sealed log
 * names are obsolete, a .log.tmp's stay, a file of another extension is
 * ignored, and the folder itself is not walked; <generation>.sstable/
 * holds an SSTable being written, temporary, of the table above; neither
 * applies below a folder without its -<id> (Cassandra 2.0's table named so)
 */
static void
check_pending_delete(void)
{
	memfs		fs;
	int			rc;
	static const char *const want =
		SS("/x/ks/pending_delete/me-7-big", "d=me-7-big v=me g=7 big ks=ks t=pending_delete snap=- live "
		   "Data.db:70:7")
		SS(XT "/me-1-big", "d=me-1-big v=me g=1 big ks=ks t=t snap=- obsolete Data.db:10:1")
		SS(XT "/me-2-big", "d=me-2-big v=me g=2 big ks=ks t=t snap=- live Data.db:20:2")
		SS(XT "/me-3-big", "d=me-3-big v=me g=3 big ks=ks t=t snap=- obsolete Data.db:30:3")
		SS(XT "/me-4-big", "d=me-4-big v=me g=4 big ks=ks t=t snap=- live Data.db:40:4")
		SS(XT "/me-5-big", "d=me-5-big v=me g=5 big ks=ks t=t snap=- live Data.db:50:5")
		SS(XT "/8.sstable/me-8-big", "d=me-8-big v=me g=8 big ks=ks t=t snap=- temporary Data.db:80:8")
		SS(XT "/staging/me-6-big", "d=me-6-big v=me g=6 big ks=ks t=t snap=- staging Data.db:60:6");

	fs_init(&fs);
	fs_dir(&fs, "/x");
	fs_dir(&fs, "/x/ks");
	fs_dir(&fs, XT);
	fs_dir(&fs, XT "/pending_delete");
	fs_dir(&fs, XT "/staging");
	fs_dir(&fs, XT "/8.sstable");
	fs_file(&fs, XT "/me-1-big-Data.db", 10, 1);
	fs_file(&fs, XT "/me-2-big-Data.db", 20, 2);
	fs_file(&fs, XT "/me-3-big-Data.db", 30, 3);
	fs_file(&fs, XT "/me-4-big-Data.db", 40, 4);
	fs_file(&fs, XT "/me-5-big-Data.db", 50, 5);
	fs_file(&fs, XT "/staging/me-6-big-Data.db", 60, 6);
	fs_file(&fs, XT "/8.sstable/me-8-big-Data.db", 80, 8);
	/* sealed: me-1 and me-3 (empty lines skipped); a path, another
	 * component, trailing bytes: nothing */
	fs_log(&fs, XT "/pending_delete/sstables-1-3.log",
		   "me-1-big-TOC.txt\n\n\nme-3-big-TOC.txt\n/x/me-4-big-TOC.txt\nme-4-big-Data.db\n"
		   "me-4-big-TOC.txt.tmp\nme-5-big-TOC.txtx\nnot a name\n");
	/* not sealed, and not a log: their SSTables stay */
	fs_log(&fs, XT "/pending_delete/sstables-2-2.log.tmp", "me-2-big-TOC.txt\n");
	fs_log(&fs, XT "/pending_delete/notes.txt", "me-4-big-TOC.txt\n");
	fs_log(&fs, XT "/pending_delete/.log", "me-5-big-TOC.txt\n");
	/* a log in staging/'s pending_delete: not ScyllaDB's, nothing */
	fs_dir(&fs, XT "/staging/pending_delete");
	fs_log(&fs, XT "/staging/pending_delete/sstables-6-6.log", "me-6-big-TOC.txt\n");
	/* Cassandra 2.0's table named pending_delete: its SSTables, live */
	fs_dir(&fs, "/x/ks/pending_delete");
	fs_file(&fs, "/x/ks/pending_delete/me-7-big-Data.db", 70, 7);

	rc = run(&fs, "/x", 1);
	CHECK(rc == 0 && fs.nsstable == 8, "pending_delete: %d, %ld SSTables", rc, fs.nsstable);
	check_out(&fs, want, "pending_delete, include_inactive");
	fs_free(&fs);
}

/*
 * A link never changes what the folder it leads to is (bc_walk_place.h):
 * in table folder a, links named 8.sstable, staging and upload to the
 * folders of tables b and c and to d's upload/ are walked first (their
 * names sort before b, c and d), and b's, c's and d's SSTables are listed
 * as what they are where they lie, with their tables' names; the folders
 * met again directly are reported with the real path and state they were
 * listed in.  In table e, quarantine is a link to e's own upload/: upload.
 */
#define ID "-5a1c395e9a9411e8a0e6e9a8e4bb7a4d"

static void
check_link_states(void)
{
	memfs		fs;
	int			rc,
				inactive;
	static const char *const want =
		SS("/n/ks/a" ID "/me-1-big", "d=me-1-big v=me g=1 big ks=ks t=a snap=- live Data.db:10:1")
		SS("/n/ks/b" ID "/me-2-big", "d=me-2-big v=me g=2 big ks=ks t=b snap=- live Data.db:20:2")
		SS("/n/ks/d" ID "/upload/me-4-big", "d=me-4-big v=me g=4 big ks=ks t=d snap=- upload "
		   "Data.db:40:4")
		SS("/n/ks/c" ID "/me-3-big", "d=me-3-big v=me g=3 big ks=ks t=c snap=- live Data.db:30:3")
		"P already_walked /n/ks/b" ID " root=0 dir=1 err=0 line=0 first=/n/ks/a" ID
		"/8.sstable real=/n/ks/b" ID " state=live\n"
		"P already_walked /n/ks/c" ID " root=0 dir=1 err=0 line=0 first=/n/ks/a" ID
		"/upload real=/n/ks/c" ID " state=live\n"
		"P already_walked /n/ks/d" ID "/upload root=0 dir=1 err=0 line=0 first=/n/ks/a" ID
		"/staging real=/n/ks/d" ID "/upload state=upload\n"
		SS("/n/ks/e" ID "/upload/me-5-big", "d=me-5-big v=me g=5 big ks=ks t=e snap=- upload "
		   "Data.db:50:5")
		"P already_walked /n/ks/e" ID "/upload root=0 dir=1 err=0 line=0 first=/n/ks/e" ID
		"/quarantine real=/n/ks/e" ID "/upload state=upload\n";
	fsent	   *b,
			   *c,
			   *du,
			   *eu;

	fs_init(&fs);
	fs_dir(&fs, "/n");
	fs_dir(&fs, "/n/ks");
	fs_dir(&fs, "/n/ks/a" ID);
	fs_file(&fs, "/n/ks/a" ID "/me-1-big-Data.db", 10, 1);
	b = fs_dir(&fs, "/n/ks/b" ID);
	fs_file(&fs, "/n/ks/b" ID "/me-2-big-Data.db", 20, 2);
	fs_link(&fs, "/n/ks/a" ID "/8.sstable", "/n/ks/b" ID, b);
	c = fs_dir(&fs, "/n/ks/c" ID);
	fs_file(&fs, "/n/ks/c" ID "/me-3-big-Data.db", 30, 3);
	fs_link(&fs, "/n/ks/a" ID "/upload", "/n/ks/c" ID, lookup(&fs, "/n/ks/c" ID));
	fs_dir(&fs, "/n/ks/d" ID);
	du = fs_dir(&fs, "/n/ks/d" ID "/upload");
	fs_file(&fs, "/n/ks/d" ID "/upload/me-4-big-Data.db", 40, 4);
	fs_link(&fs, "/n/ks/a" ID "/staging", "/n/ks/d" ID "/upload",
			lookup(&fs, "/n/ks/d" ID "/upload"));
	fs_dir(&fs, "/n/ks/e" ID);
	eu = fs_dir(&fs, "/n/ks/e" ID "/upload");
	fs_file(&fs, "/n/ks/e" ID "/upload/me-5-big-Data.db", 50, 5);
	fs_link(&fs, "/n/ks/e" ID "/quarantine", "/n/ks/e" ID "/upload",
			lookup(&fs, "/n/ks/e" ID "/upload"));
	(void) c;
	(void) du;
	(void) eu;
	(void) b;

	for (inactive = 1; inactive >= 0; inactive--)
	{
		run_reset(&fs);
		rc = bc_walk_run(&real_ops, &fs, "/n", inactive);
		CHECK(rc == 0 && fs.nalloc == fs.nrelease, "link states: %d, %ld allocations, %ld releases",
			  rc, fs.nalloc, fs.nrelease);
		if (inactive)
			check_out(&fs, want, "link states, include_inactive");
	}
	/* from the folder linked as 8.sstable, and from the link itself */
	run_reset(&fs);
	rc = bc_walk_run(&real_ops, &fs, "/n/ks/a" ID "/8.sstable", 0);
	check_out(&fs, SS("/n/ks/b" ID "/me-2-big", "d=me-2-big v=me g=2 big ks=ks t=b snap=- live "
					  "Data.db:20:2"), "link states, from the link");
	fs_free(&fs);

	/* a table's folder that is a link to another disk, under another name:
	 * its staging/ is still its staging, its SSTables by their real paths */
	fs_init(&fs);
	fs_dir(&fs, "/m");
	fs_dir(&fs, "/m/disk");
	fs_dir(&fs, "/m/disk/store");
	fs_dir(&fs, "/m/disk/store/staging");
	fs_file(&fs, "/m/disk/store/staging/me-6-big-Data.db", 60, 6);
	fs_dir(&fs, "/m/data");
	fs_dir(&fs, "/m/data/ks");
	fs_link(&fs, "/m/data/ks/f" ID, "/m/disk/store", lookup(&fs, "/m/disk/store"));
	run_reset(&fs);
	rc = bc_walk_run(&real_ops, &fs, "/m/data", 0);
	CHECK(rc == 0 && fs.nalloc == fs.nrelease, "linked table: %d, %ld allocations, %ld releases",
		  rc, fs.nalloc, fs.nrelease);
	check_out(&fs, SS("/m/disk/store/staging/me-6-big", "d=me-6-big v=me g=6 big ks=ks t=f snap=- "
					  "staging Data.db:60:6"), "a table's folder linked to another disk");
	fs_free(&fs);
}

/*
 * A log file is read once per folder, however many names it has there
 * (links, its device and inode): a pending_delete log with five more names
 * and a transaction log with two, each read once; the SSTables they name
 * outside the folder cost nothing; a pending_delete log read in pieces
 * whose lines cross them (op_read_pieces: 3 bytes) gives what it gives
 * whole (ops: read_log).
 */
static void
check_log_links(void)
{
	memfs		fs;
	int			rc,
				i,
				k;
	char		path[256];
	fsent	   *pd,
			   *tl;
	static const char *const want =
		SS(XT "/me-1-big", "d=me-1-big v=me g=1 big ks=ks t=t snap=- obsolete Data.db:10:1")
		SS(XT "/me-2-big", "d=me-2-big v=me g=2 big ks=ks t=t snap=- live Data.db:20:2")
		SS(XT "/me-3-big", "d=me-3-big v=me g=3 big ks=ks t=t snap=- live Data.db:30:3");

	fs_init(&fs);
	fs_dir(&fs, "/x");
	fs_dir(&fs, "/x/ks");
	fs_dir(&fs, XT);
	fs_dir(&fs, XT "/pending_delete");
	fs_file(&fs, XT "/me-1-big-Data.db", 10, 1);
	fs_file(&fs, XT "/me-2-big-Data.db", 20, 2);
	fs_file(&fs, XT "/me-3-big-Data.db", 30, 3);
	pd = fs_log(&fs, XT "/pending_delete/sstables-1-9.log",
				"me-1-big-TOC.txt\nme-7-big-TOC.txt\nme-8-big-TOC.txt\nme-9-big-TOC.txt\n");
	for (i = 0; i < 5; i++)
	{
		uint64_t	dev = pd->dev,
					ino = pd->ino;
		fsent	   *e;

		snprintf(path, sizeof(path), XT "/pending_delete/link%d.log", i);
		e = fs_log(&fs, path, "me-1-big-TOC.txt\nme-7-big-TOC.txt\nme-8-big-TOC.txt\n"
				   "me-9-big-TOC.txt\n");
		e->dev = dev;
		e->ino = ino;
		pd = lookup(&fs, XT "/pending_delete/sstables-1-9.log");
	}
	/* a transaction log with another name (that it cannot be read counts
	 * as a read) */
	tl = fs_log(&fs, XT "/nb_txn_compaction_00000000-0000-0000-0000-000000000001.log", NULL);
	{
		uint64_t	dev = tl->dev,
					ino = tl->ino;
		fsent	   *e = fs_log(&fs, XT "/nb_txn_compaction_00000000-0000-0000-0000-000000000002.log",
							   NULL);

		e->dev = dev;
		e->ino = ino;
	}
	for (k = 0; k < 2; k++)
	{
		const bc_walk_ops *o = k ? &real_ops : &ops;

		run_reset(&fs);
		fs.nread = 0;
		rc = bc_walk_run(o, &fs, "/x", 1);
		CHECK(rc == 0 && fs.nalloc == fs.nrelease, "log links: %d, %ld allocations, %ld releases",
			  rc, fs.nalloc, fs.nrelease);
		CHECK(fs.nread == 2, "log links (%s): %ld logs read, not 2 (one pending_delete log, one "
			  "transaction log)", k ? "in pieces" : "whole", fs.nread);
		CHECK(fs.out != NULL && strstr(fs.out, want) != NULL, "log links (%s): %s",
			  k ? "in pieces" : "whole", fs.out ? fs.out : "");
	}
	fs_free(&fs);
}

void
suite_walk(void)
{
	bc_walk_sstable none;

	check_node();
	check_roots();
	check_depth();
	check_many();
	check_bounded();
	check_links();
	check_real_paths();
	check_tick();
	check_extras();
	check_pending_delete();
	check_link_states();
	check_log_links();

	memset(&none, 0, sizeof(none));
	CHECK(bc_walk_component_size(&none, "Data.db") == -1, "no components");
}
