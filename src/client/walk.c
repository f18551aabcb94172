/*
 * walk.c - the SSTables below a data directory, found by the core's walk
 * (bc_walk.c), the one cassandra_sstables uses: this file gives it
 * readdir(3), bc_walk_stat_posix, the transaction logs' bytes and malloc,
 * hands each SSTable its table reads (bc_sstable_state_read: live, and
 * ScyllaDB's staging and quarantine) to the caller as it is found (nothing
 * is kept: a node of any size is walked in the memory of its largest
 * folder) and prints the problems on stderr.  Snapshots/ and backups/ are
 * not entered.  An SSTable's path is the real path of its folder
 * (bc_walk.h), as in cassandra_sstables; with a scope (prune.c) the walk
 * notes what it covered, for the rows of SSTables gone to be removed.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bc_open.h"
#include "bc_sstable_dir.h"
#include "load.h"

typedef struct walker
{
	int			report;			/* print and count the problems */
	int			verbose;
	int		   *warnings;
	ld_scope   *scope;			/* or NULL */
	ld_sstable_fn fn;
	void	   *arg;
} walker;

static char *
xstrdup(const char *s)
{
	size_t		n = strlen(s);
	char	   *p = ld_xmalloc(n + 1);

	memcpy(p, s, n + 1);
	return p;
}

char *
ld_absolute_path(const char *path)
{
	char	   *abs,
			   *out;
	size_t		i = 0,
				o = 0;
	char		cwd[PATH_MAX];

	if (path[0] == '/')
		abs = xstrdup(path);
	else
	{
		if (getcwd(cwd, sizeof(cwd)) == NULL)
			abs = xstrdup(path);
		else
		{
			abs = ld_xmalloc(strlen(cwd) + strlen(path) + 2);
			sprintf(abs, "%s/%s", cwd, path);
		}
	}

	/*
	 * Component by component: "" (of "//") and "." dropped, ".." taking
	 * the component before it away (at the root: nothing), as
	 * PostgreSQL's canonicalize_path does since version 15, so that the
	 * folder given is the one cassandra_sstables walks for the same text
	 * (the SSTables' paths are their folders' real paths either way)
	 */
	out = ld_xmalloc(strlen(abs) + 2);
	while (abs[i])
	{
		size_t		j = i,
					n;

		while (abs[j] && abs[j] != '/')
			j++;
		n = j - i;
		if (n == 0 || (n == 1 && abs[i] == '.'))
			;
		else if (n == 2 && abs[i] == '.' && abs[i + 1] == '.' && abs[0] == '/')
		{
			while (o > 0 && out[o - 1] != '/')
				o--;
			if (o > 0)
				o--;
		}
		else
		{
			if (o > 0 || abs[0] == '/')
				out[o++] = '/';
			memcpy(out + o, abs + i, n);
			o += n;
		}
		i = abs[j] ? j + 1 : j;
	}
	if (o == 0)
		out[o++] = abs[0] == '/' ? '/' : '.';
	out[o] = '\0';
	free(abs);
	return out;
}

static void *
walk_alloc(void *arg, size_t size)
{
	(void) arg;
	return ld_xmalloc(size);
}

static void
walk_release(void *arg, void *p)
{
	(void) arg;
	free(p);
}

static int
walk_list(void *arg, bc_walk *bw, const char *dir, int root)
{
	walker	   *w = arg;
	DIR		   *d;
	struct dirent *de;

	/* interrupted (SIGINT, SIGTERM): the folders left are walked as empty,
	 * so that the walk ends without reading the rest of the node */
	if (ld_stop_requested)
		return 1;
	d = opendir(dir);
	if (d == NULL)
	{
		if (w->scope)
			ld_scope_exclude(w->scope, dir);
		if (w->report || root)
			ld_error("%s directory %s: %s", root ? "cannot read" : "skipping", dir, strerror(errno));
		if (w->report && !root)
			(*w->warnings)++;
		return 0;
	}
	while (!ld_stop_requested && (errno = 0, de = readdir(d)) != NULL)
	{
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
		{
			bc_walk_stat st;

			/* stat'ed here, by its name in the open directory */
			bc_walk_stat_posix_at(dirfd(d), de->d_name, &st);
			bc_walk_add_name_stat(bw, de->d_name, &st);
		}
	}
	if (!ld_stop_requested && errno != 0)
	{
		if (w->scope)
			ld_scope_exclude(w->scope, dir);
		if (w->report)
		{
			ld_error("skipping the rest of directory %s: %s", dir, strerror(errno));
			(*w->warnings)++;
		}
	}
	closedir(d);
	return 1;
}

/*
 * A log of the walk (kind: "transaction log", "pending_delete log"),
 * opened when it is a regular file (a FIFO would block the open:
 * bc_open.h), its size in *size; NULL after the warning that its SSTables
 * are taken as live.
 */
static FILE *
open_log(walker *w, const char *path, const char *kind, int64_t *size)
{
	FILE	   *f = NULL;
	int			fd;
	const char *what;
	bc_open_status st;

	st = bc_open_regular(path, bc_open_posix, bc_close_posix, NULL, &fd, size, &what);
	if (st == BC_OPEN_OK && (f = fdopen(fd, "rb")) == NULL)
		close(fd);
	if (f == NULL && w->report)
	{
		ld_error("skipping %s %s: %s%s (the SSTables it names are taken as live)",
				 kind, path, st == BC_OPEN_NOT_REGULAR ? "it is not a regular file: it is " : "",
				 st == BC_OPEN_NOT_REGULAR ? what : strerror(errno));
		(*w->warnings)++;
	}
	return f;
}

/* a transaction log, whole (as read_txn_log on the server) */
static char *
walk_read_log(void *arg, const char *path, size_t max, size_t *len)
{
	walker	   *w = arg;
	FILE	   *f;
	char	   *data;
	size_t		got;
	int64_t		size;

	*len = 0;
	if ((f = open_log(w, path, "transaction log", &size)) == NULL)
		return NULL;
	data = ld_xmalloc(max + 1);
	while ((got = fread(data + *len, 1, max + 1 - *len, f)) > 0)
		*len += got;
	if (ferror(f) || *len > max)
	{
		if (w->report)
		{
			ld_error("skipping transaction log %s: %s (the SSTables it names are taken as live)",
					 path, ferror(f) ? "read error" : "larger than 64 MB");
			(*w->warnings)++;
		}
		fclose(f);
		free(data);
		return NULL;
	}
	fclose(f);
	return data;
}

/*
 * A ScyllaDB pending_delete log (as walk_read_log), in pieces of
 * PENDING_PIECE bytes: one piece in memory, whatever the log's size
 */
#define PENDING_PIECE ((size_t) 1 << 20)

static int
walk_read_pieces(void *arg, const char *path, size_t max,
				 void (*piece) (void *parg, const char *bytes, size_t n), void *parg)
{
	walker	   *w = arg;
	FILE	   *f;
	char	   *buf;
	size_t		got,
				total = 0;
	int64_t		size;
	const char *why = NULL;

	if ((f = open_log(w, path, "pending_delete log", &size)) == NULL)
		return -1;
	buf = ld_xmalloc(PENDING_PIECE);
	if (size < 0 || (uint64_t) size > max)
		why = "larger than 64 MB";
	while (why == NULL && !ld_stop_requested && (got = fread(buf, 1, PENDING_PIECE, f)) > 0)
	{
		total += got;
		if (total > max)
		{
			why = "larger than 64 MB";
			break;
		}
		piece(parg, buf, got);
	}
	if (why == NULL && ferror(f))
		why = "read error";
	fclose(f);
	free(buf);
	/* interrupted: not read whole, and nothing to say */
	if (why == NULL && ld_stop_requested)
		return -1;
	if (why != NULL)
	{
		if (w->report)
		{
			ld_error("skipping pending_delete log %s: %s (the SSTables it names are taken as live)",
					 path, why);
			(*w->warnings)++;
		}
		return -1;
	}
	return 0;
}

/* a folder's real path: its SSTables' paths, and the scope's */
static char *
walk_real_path(void *arg, const char *dir)
{
	walker	   *w = arg;
	char	   *real = bc_walk_real_path_posix(dir);

	if (w->scope)
	{
		if (real != NULL)
			ld_scope_add_root(w->scope, real);
		else
			ld_scope_unknown(w->scope);
	}
	return real;
}

/* the folder of a file (as walked), into the scope's folders not read whole */
static void
exclude_folder_of(ld_scope *scope, const char *path)
{
	const char *slash = strrchr(path, '/');
	char	   *dir;

	if (slash == NULL || slash == path)
	{
		ld_scope_unknown(scope);
		return;
	}
	dir = ld_xmalloc((size_t) (slash - path) + 1);
	memcpy(dir, path, (size_t) (slash - path));
	dir[slash - path] = '\0';
	ld_scope_exclude(scope, dir);
	free(dir);
}

static void
walk_problem(void *arg, const bc_walk_report *r)
{
	walker	   *w = arg;

	/* what could not be read whole keeps its rows */
	if (w->scope && !r->root)
	{
		if (r->problem == BC_WALK_STAT_FAILED && !r->is_directory)
			exclude_folder_of(w->scope, r->path);
		else if (r->problem == BC_WALK_STAT_FAILED || r->problem == BC_WALK_TOO_DEEP)
			ld_scope_exclude(w->scope, r->path);
	}
	if (!w->report && !r->root)
		return;
	switch (r->problem)
	{
		case BC_WALK_STAT_FAILED:
			if (r->is_directory)
				ld_error("%s directory %s: %s", r->root ? "cannot read" : "skipping",
						 r->path, strerror(r->err));
			else
				ld_error("skipping %s: %s", r->path, strerror(r->err));
			break;
		case BC_WALK_NOT_DIRECTORY:
			ld_error("%s is not a directory (give the folder of a node's data, of a keyspace or of a table)",
					 r->path);
			break;
		case BC_WALK_LINK_LOOP:
			ld_error("skipping directory %s: a link to a directory above it", r->path);
			break;
		case BC_WALK_ALREADY_WALKED:
			ld_error("skipping directory %s: already walked as %s (the same directory, by another path); its SSTables are found once, in %s, in the state of a %s directory%s",
					 r->path, r->first_path, r->first_real ? r->first_real : r->first_path,
					 bc_sstable_state_name(r->first_state),
					 bc_sstable_state_read(r->first_state) ? "" : ", which is not loaded");
			break;
		case BC_WALK_TOO_DEEP:
			ld_error("skipping directory %s: more than %d directories deep", r->path,
					 BC_WALK_MAX_DEPTH);
			break;
		case BC_WALK_TXN_CORRUPT:
			ld_error("transaction log %s fails verification at line %ld: %s (Cassandra does not start with it; its SSTables are taken as Cassandra's listing takes them)",
					 r->path, r->lineno, r->reason);
			break;
		case BC_WALK_TXN_LAST_RECORD:
			/* Cassandra warns and goes on: so does the loader */
			ld_warning("last record of transaction log %s is invalid (line %ld: %s): the operation is taken as unfinished, as Cassandra takes it",
					 r->path, r->lineno, r->reason);
			return;
		case BC_WALK_TXN_UNREADABLE:
			if (r->lineno > 0)
				ld_error("skipping transaction log %s: line %ld is %s (the SSTables it names are taken as live)",
						 r->path, r->lineno, r->reason);
			else
				ld_error("skipping transaction log %s: %s (the SSTables it names are taken as live)",
						 r->path, r->reason);
			break;
	}
	if (!r->root)
		(*w->warnings)++;
}

int64_t
ld_component_size(const ld_sstable *s, const char *component)
{
	int			i;

	for (i = 0; i < s->ncomponents; i++)
		if (strcmp(s->components[i], component) == 0)
			return s->sizes[i];
	return -1;
}

/* an SSTable the table reads to the caller; the others said with --verbose */
static void
walk_sstable(void *arg, const bc_walk_sstable *ws)
{
	walker	   *w = arg;
	ld_sstable	s;
	int			c;
	static const char *const small[] = {"Filter.db", "Statistics.db", "Summary.db", "TOC.txt"};

	if (w->scope && bc_sstable_state_read(ws->state))
		ld_scope_seen(w->scope, ws->prefix);
	if (!bc_sstable_state_read(ws->state))
	{
		if (w->verbose)
			ld_info("not loaded (%s): %s", bc_sstable_state_name(ws->state), ws->prefix);
		return;
	}
	memset(&s, 0, sizeof(s));
	s.descriptor = ws->descriptor;
	s.prefix = ws->prefix;
	s.version = ws->version;
	s.generation = ws->generation;
	s.format = ws->format;
	s.keyspace = ws->keyspace;
	s.table = ws->table;
	s.snapshot = ws->snapshot;
	s.state = bc_sstable_state_name(ws->state);
	s.ncomponents = ws->ncomponents;
	s.components = ld_xmalloc(sizeof(char *) * (size_t) s.ncomponents);
	s.sizes = ld_xmalloc(sizeof(int64_t) * (size_t) s.ncomponents);
	for (c = 0; c < s.ncomponents; c++)
	{
		s.components[c] = ws->components[c].name;
		s.sizes[c] = ws->components[c].size;
	}
	if (ws->data != NULL)
	{
		s.has_data = 1;
		s.data_mtime = (time_t) ws->data->mtime;
	}
	for (c = 0; c < 4; c++)
	{
		int64_t		b = bc_walk_component_size(ws, small[c]);

		if (b > 0)
			s.small_bytes += b;
	}
	w->fn(w->arg, &s);
	free(s.components);
	free(s.sizes);
}

static const bc_walk_ops walk_ops = {
	walk_alloc, walk_release, bc_walk_stat_posix, walk_list, walk_read_log,
	walk_problem, walk_sstable, walk_real_path, walk_read_pieces
};

int
ld_walk(const char *root, int report, int verbose, int *warnings, ld_scope *scope,
		ld_sstable_fn fn, void *arg)
{
	walker		w;
	int			ignored = 0;

	w.scope = scope;
	w.report = report;
	w.verbose = verbose;
	w.warnings = warnings ? warnings : &ignored;
	w.fn = fn;
	w.arg = arg;
	return bc_walk_run(&walk_ops, &w, root, 0);
}
