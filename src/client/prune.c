/*
 * prune.c - bloomcass-load: the rows of SSTables gone from the node.
 *
 * Compaction deletes SSTables all day; a run removes the rows (and keys) of
 * its label whose SSTable its table no longer reads where it walked.  What it
 * walked is its scope, gathered during the load's walk (walk.c):
 *
 *   - the folders given, as given (made absolute) and as real paths, and
 *     the real path of every folder the walk entered through a symbolic
 *     link to somewhere else: a row is in scope when its path lies below
 *     one of them, and only then may it be removed ("a run over a keyspace
 *     or a table folder never touches rows outside that folder");
 *   - the folders the walk could not read whole (a permission error, a
 *     read error part way, a folder or file it could not stat, one too
 *     deep): rows below them are kept, as they were;
 *   - the folders given that yielded no live SSTable at all (an empty
 *     folder: a disk that did not mount at boot leaves its mount point an
 *     empty folder of the disk below): rows below them are kept, and
 *     counted for the run to say so, unless --prune-empty (main.c);
 *   - every SSTable found that its table reads (live, ScyllaDB's staging
 *     and quarantine: bc_sstable_state_read): its row is kept.  Any other
 *     (orphaned: its Data.db gone, compaction deleting it; obsolete;
 *     temporary; upload) is not listed by cassandra_sstables either, and
 *     its row goes.
 *
 * The SSTables found are kept as 64-bit hashes of their paths (8 bytes an
 * SSTable): a collision can only keep a row that should go (until the next
 * run), never remove one.
 *
 * The removal is one transaction under the label's advisory lock, the one
 * every SSTable's transaction takes (upload.c), so that it is serialised
 * with the loads of the same label running at the same time:
 *
 *   BEGIN
 *   SELECT pg_advisory_xact_lock(the label's key)
 *   SELECT path FROM <table> WHERE label = $1 AND loaded_at < $2
 *   DELETE FROM <table>_keys WHERE label = $1 AND path = ANY ($2)
 *   DELETE FROM <table> WHERE label = $1 AND path = ANY ($2)
 *   COMMIT
 *
 * where $2 of the SELECT is the server's time when this run began its walk
 * (ld_server_now): a row loaded since, by another run of the label, may be
 * of an SSTable written after this walk passed its folder, and is left for
 * the next run.  No other run of the label writes between the SELECT and
 * the DELETEs: each of its transactions takes the lock first.  A run
 * that was interrupted, lost its connection or could not tell a folder's
 * real path does not prune (main.c).
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "bc_walk.h"
#include "load.h"

struct ld_scope
{
	char	  **roots;			/* rows below these are in scope */
	size_t		nroots;
	char	  **excluded;		/* and not below these */
	size_t		nexcluded;
	char	  **empty;			/* and not below these (folders given that
								 * yielded nothing) */
	size_t	   *empty_of;		/* each one's folder given, in given */
	size_t		nempty;
	char	  **given;			/* those folders as given */
	size_t	   *kept;			/* the rows kept below each */
	size_t		ngiven;
	uint64_t   *seen;			/* hashes of the live SSTables' paths */
	size_t		nseen;
	size_t		capseen;
	int			broken;			/* a folder's real path unknown: no prune */
};

ld_scope *
ld_scope_new(void)
{
	ld_scope   *s = ld_xmalloc(sizeof(ld_scope));

	memset(s, 0, sizeof(*s));
	return s;
}

void
ld_scope_free(ld_scope *s)
{
	size_t		i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nroots; i++)
		free(s->roots[i]);
	for (i = 0; i < s->nexcluded; i++)
		free(s->excluded[i]);
	for (i = 0; i < s->nempty; i++)
		free(s->empty[i]);
	for (i = 0; i < s->ngiven; i++)
		free(s->given[i]);
	free(s->roots);
	free(s->excluded);
	free(s->empty);
	free(s->empty_of);
	free(s->given);
	free(s->kept);
	free(s->seen);
	free(s);
}

/* path is dir itself or lies below it */
static int
below(const char *path, const char *dir)
{
	size_t		n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static int
below_any(const char *path, char *const *dirs, size_t n)
{
	size_t		i;

	for (i = 0; i < n; i++)
		if (below(path, dirs[i]))
			return 1;
	return 0;
}

static void
push(char ***items, size_t *n, const char *s)
{
	size_t		len = strlen(s);

	*items = ld_xrealloc(*items, (*n + 1) * sizeof(char *));
	(*items)[*n] = ld_xmalloc(len + 1);
	memcpy((*items)[*n], s, len + 1);
	(*n)++;
}

void
ld_scope_add_root(ld_scope *s, const char *dir)
{
	if (!below_any(dir, s->roots, s->nroots))
		push(&s->roots, &s->nroots, dir);
}

void
ld_scope_unknown(ld_scope *s)
{
	s->broken = 1;
}

void
ld_scope_exclude(ld_scope *s, const char *dir)
{
	char	   *real = bc_walk_real_path_posix(dir);
	const char *slash = strrchr(dir, '/');

	/* as walked (the rows of earlier versions, which kept that path) */
	push(&s->excluded, &s->nexcluded, dir);
	if (real == NULL && slash != NULL && slash != dir)
	{
		/* not to be resolved itself (no permission to stat it): its
		 * folder's real path and its name */
		char	   *parent = ld_xmalloc((size_t) (slash - dir) + 1);
		char	   *rp;

		memcpy(parent, dir, (size_t) (slash - dir));
		parent[slash - dir] = '\0';
		rp = bc_walk_real_path_posix(parent);
		free(parent);
		if (rp != NULL)
		{
			real = ld_sqlf("%s%s", strcmp(rp, "/") == 0 ? "" : rp, slash);
			free(rp);
		}
	}
	if (real == NULL)
		s->broken = 1;
	else
	{
		push(&s->excluded, &s->nexcluded, real);
		free(real);
	}
}

void
ld_scope_keep_empty(ld_scope *s, const char *dir)
{
	char	   *real = bc_walk_real_path_posix(dir);
	size_t		n = s->nempty;

	push(&s->given, &s->ngiven, dir);
	s->kept = ld_xrealloc(s->kept, s->ngiven * sizeof(size_t));
	s->kept[s->ngiven - 1] = 0;
	/* as given (the rows of earlier versions) and as its real path */
	push(&s->empty, &s->nempty, dir);
	if (real != NULL)
	{
		push(&s->empty, &s->nempty, real);
		free(real);
	}
	s->empty_of = ld_xrealloc(s->empty_of, s->nempty * sizeof(size_t));
	for (; n < s->nempty; n++)
		s->empty_of[n] = s->ngiven - 1;
}

size_t
ld_scope_kept(const ld_scope *s, const char *dir)
{
	size_t		i,
				kept = 0;

	for (i = 0; i < s->ngiven; i++)
		if (strcmp(s->given[i], dir) == 0)
			kept += s->kept[i];
	return kept;
}

/* FNV-1a, 64 bits */
static uint64_t
path_hash(const char *p)
{
	uint64_t	h = UINT64_C(0xcbf29ce484222325);

	for (; *p; p++)
		h = (h ^ (uint8_t) *p) * UINT64_C(0x100000001b3);
	return h;
}

void
ld_scope_seen(ld_scope *s, const char *path)
{
	if (s->nseen == s->capseen)
	{
		s->capseen = s->capseen ? 2 * s->capseen : 1024;
		s->seen = ld_xrealloc(s->seen, s->capseen * sizeof(uint64_t));
	}
	s->seen[s->nseen++] = path_hash(path);
}

static int
u64_cmp(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *) a;
	uint64_t	y = *(const uint64_t *) b;

	return x < y ? -1 : x > y;
}

/* a row of the label that goes: in scope, not below a folder not read
 * whole, not found live (seen sorted), and not below a folder given that
 * yielded nothing (counted as kept there) */
static int
goes(ld_scope *s, const char *path)
{
	uint64_t	h = path_hash(path);
	size_t		i;

	if (!below_any(path, s->roots, s->nroots) ||
		below_any(path, s->excluded, s->nexcluded) ||
		(s->nseen > 0 && bsearch(&h, s->seen, s->nseen, sizeof(uint64_t), u64_cmp) != NULL))
		return 0;
	for (i = 0; i < s->nempty; i++)
		if (below(path, s->empty[i]))
		{
			s->kept[s->empty_of[i]]++;
			return 0;
		}
	return 1;
}

int
ld_scope_usable(const ld_scope *s)
{
	return !s->broken;
}

/* a command of the prune with binary parameters (p); on failure reported,
 * *fatal set */
static int
exec_params(PGconn *conn, const char *sql, ld_params *p, ExecStatusType want, int *fatal,
			PGresult **out)
{
	PGresult   *r = PQexecParams(conn, sql, p->n, NULL, p->values, p->lengths, p->formats, 0);
	int			ok = PQresultStatus(r) == want;

	if (!ok)
		ld_report_failure(conn, r, "removing the rows of SSTables gone", fatal);
	if (ok && out)
		*out = r;
	else
		PQclear(r);
	ld_params_reset(p);
	return ok;
}

char *
ld_server_now(PGconn *conn, int *fatal)
{
	PGresult   *r;
	char	   *now;

	*fatal = 0;
	if (!ld_exec(conn, "reading the server's time", "SELECT now()::text", 0, NULL,
				 PGRES_TUPLES_OK, fatal, &r))
		return NULL;
	now = ld_sqlf("%s", PQgetvalue(r, 0, 0));
	PQclear(r);
	return now;
}

int
ld_prune(PGconn *conn, const ld_options *o, const char *table, const char *keys_table,
		 const char *lock_key, ld_scope *s, const char *since, size_t *removed, int *fatal)
{
	ld_params  *p = ld_xmalloc(sizeof(ld_params));
	PGresult   *r = NULL;
	const char **gone = NULL;
	size_t		ngone = 0;
	int			i,
				ok = 0;
	char	   *sql;
	const char *what = "removing the rows of SSTables gone";

	*removed = 0;
	*fatal = 0;
	memset(p, 0, sizeof(*p));
	if (s->nseen > 1)
		qsort(s->seen, s->nseen, sizeof(uint64_t), u64_cmp);
	if (!ld_exec(conn, what, "BEGIN", 0, NULL, PGRES_COMMAND_OK, fatal, NULL))
		goto out;
	ld_param_text(p, lock_key);
	if (!exec_params(conn, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", p,
					 PGRES_TUPLES_OK, fatal, NULL))
		goto fail;
	/* what the label has below the folders walked, loaded before this run */
	ld_param_text(p, o->label);
	ld_param_text(p, since);
	sql = ld_sqlf("SELECT path FROM %s WHERE label = $1 AND loaded_at < $2::text::timestamptz",
				  table);
	ok = exec_params(conn, sql, p, PGRES_TUPLES_OK, fatal, &r);
	free(sql);
	if (!ok)
		goto fail;
	ok = 0;
	gone = ld_xmalloc(sizeof(char *) * (size_t) (PQntuples(r) + 1));
	for (i = 0; i < PQntuples(r); i++)
		if (goes(s, PQgetvalue(r, i, 0)))
			gone[ngone++] = PQgetvalue(r, i, 0);
	if (ngone > 0)
	{
		PGresult   *d;

		/* the keys go with their SSTable's row */
		ld_param_text(p, o->label);
		ld_param_text_array(p, gone, (int) ngone);
		sql = ld_sqlf("DELETE FROM %s WHERE label = $1 AND path = ANY ($2::text[])", keys_table);
		ok = exec_params(conn, sql, p, PGRES_COMMAND_OK, fatal, NULL);
		free(sql);
		if (!ok)
			goto fail;
		ld_param_text(p, o->label);
		ld_param_text_array(p, gone, (int) ngone);
		sql = ld_sqlf("DELETE FROM %s WHERE label = $1 AND path = ANY ($2::text[])", table);
		ok = exec_params(conn, sql, p, PGRES_COMMAND_OK, fatal, &d);
		free(sql);
		if (!ok)
			goto fail;
		*removed = (size_t) strtoul(PQcmdTuples(d), NULL, 10);
		PQclear(d);
		if (o->verbose)
			for (i = 0; i < (int) ngone; i++)
				ld_info("removed %s", gone[i]);
	}
	ok = ld_exec(conn, what, "COMMIT", 0, NULL, PGRES_COMMAND_OK, fatal, NULL);
	if (!ok)
		*removed = 0;
	goto out;

fail:
	ok = 0;
	if (*fatal != EXIT_CONNECTION_LOST && PQstatus(conn) != CONNECTION_BAD)
		PQclear(PQexec(conn, "ROLLBACK"));
out:
	free(gone);
	PQclear(r);
	ld_params_reset(p);
	free(p);
	return ok;
}
