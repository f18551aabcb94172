/*
 * walk_ops.c - the bc_walk_ops over the in-memory file system of the
 * walk's tests (walk_memfs.h), the walks run through them (whole, and one
 * SSTable at a time, which must give the same reports) and the comparison
 * of the reports with the expected lines.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_txn_log.h"
#include "bc_walk.h"
#include "bc_sstable_dir.h"
#include "bc_sstable_name.h"
#include "bc_status.h"
#include "bc_tick.h"
#include "unit.h"
#include "walk_memfs.h"

/* ------------------------------------------------------------------------
 * the ops
 * ------------------------------------------------------------------------ */
void *
op_alloc(void *arg, size_t size)
{
	memfs	   *fs = arg;

	fs->nalloc++;
	if (fs->nalloc - fs->nrelease > fs->peak_live)
		fs->peak_live = fs->nalloc - fs->nrelease;
	return malloc(size);
}

void
op_release(void *arg, void *p)
{
	memfs	   *fs = arg;

	fs->nrelease++;
	free(p);
}

void
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

int
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

char *
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
int
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

void
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

void
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

const bc_walk_ops ops = {
	op_alloc, op_release, op_stat, op_list, op_read_log, op_problem, op_sstable, NULL, NULL
};

/* a folder's real path: the links above it (and it) replaced by their
 * targets, as realpath(3) resolves them */
char *
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

const bc_walk_ops real_ops = {
	op_alloc, op_release, op_stat, op_list, op_read_log, op_problem, op_sstable, op_real_path,
	op_read_pieces
};

void
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
int
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
int
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
void
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
