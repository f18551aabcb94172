/*
 * main.c - bloomcass-load: the load loop, the signals that stop it and
 * the exit status (options.c reads the command line, connect.c connects
 * and checks for the extension, messages.c prints).
 *
 *   bloomcass-load [OPTION]... DATA_DIR...
 *
 * After a complete run the rows of SSTables gone from the folders walked
 * are removed (prune.c), unless --no-prune; below a DATA_DIR that yielded
 * no live SSTable at all (an empty folder, or a disk that did not mount:
 * its mount point is an empty folder) they are kept, and said to be,
 * unless --prune-empty: a run between a failed mount and the next must not
 * empty the label.
 *
 * Exit status: 0 every live SSTable loaded (or unchanged), 1 some failed
 * (each reported with its path), 2 usage, a missing directory, no
 * connection, no bloomcass extension in the database or a server error
 * every SSTable would hit, 3 the connection was lost during the load, 4
 * interrupted by SIGINT or SIGTERM, 5 a data directory holds no live
 * SSTable (and nothing else went wrong; its rows kept unless
 * --prune-empty).
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "load.h"

static void
on_signal(int sig)
{
	(void) sig;
	ld_stop_requested = 1;
}

/* the first walk: what there is to load, for the progress line */
typedef struct totals
{
	int			keys;
	size_t		n;
	int64_t		bytes;
} totals;

/* the bytes an SSTable's load reads: its small components, and Index.db
 * with --keys */
static int64_t
bytes_of(const ld_sstable *s, int keys)
{
	int64_t		index = ld_component_size(s, "Index.db");

	return s->small_bytes + (keys && index > 0 ? index : 0);
}

static void
count_sstable(void *arg, const ld_sstable *s)
{
	totals	   *t = arg;

	t->n++;
	t->bytes += bytes_of(s, t->keys);
}

/*
 * The second walk: each SSTable loaded as it is found, read while the
 * server runs the transactions of the two before: SSTable N's and N+1's
 * transactions are sent whole, then N+2's files are read and checked
 * (their messages held), then N's results are read (its messages printed,
 * then N+2's), then N+2's transaction is sent.  The server so always has
 * the next transaction when it ends one.  At most two SSTables' bytes are
 * held here: the last sent in libpq's buffer, the one read.  An SSTable
 * unchanged or failed (or whose reading said something) waits for those
 * sent, so that the messages keep the walk's order.  With --keys, whose
 * COPY follows the pipeline, each SSTable is done before the next is read.
 */
#define IN_FLIGHT 2

typedef struct loader
{
	const ld_options *o;
	ld_uploader *u;
	ld_progress *progress;
	int			fatal;
	int			stopped;		/* interrupted or fatal: the rest only counted */
	size_t		seen,
				loaded,
				unchanged,
				failed;
	int64_t		sent_bytes;
	/* the SSTables sent whose results are not read yet, oldest first */
	ld_sent		sent[IN_FLIGHT];
	int			nsent;
} loader;

/* an SSTable done (path, the bytes its load reads) */
static void
count(loader *l, ld_result r, const char *path, int64_t bytes)
{
	switch (r)
	{
		case LD_LOADED:
			l->loaded++;
			l->sent_bytes += bytes;
			if (l->o->verbose)
				ld_info("loaded %s", path);
			break;
		case LD_UNCHANGED:
			l->unchanged++;
			if (l->o->verbose)
				ld_info("unchanged %s", path);
			break;
		case LD_FAILED:
			l->failed++;
			ld_error("%s: not loaded", path);
			break;
		case LD_INTERRUPTED:
		case LD_FATAL:
			l->stopped = 1;
			return;
	}
	ld_progress_step(l->progress, bytes, r == LD_LOADED ? bytes : 0);
}

/* the results of the oldest SSTable sent */
static void
finish_oldest(loader *l)
{
	ld_sent    *s = &l->sent[0];
	ld_result	r;
	int			fatal;
	char	   *dropped;

	if (l->fatal)
	{
		/* sent before the failure that stops the load: what it did is
		 * counted, its messages (that failure again) dropped */
		ld_messages_hold();
		r = ld_upload_wait(l->u, s, NULL, NULL, l->nsent > 1, &fatal);
		dropped = ld_messages_take();
		free(dropped);
		if (r == LD_LOADED || r == LD_UNCHANGED)
			count(l, r, s->path, s->bytes);
	}
	else
	{
		r = ld_upload_wait(l->u, s, NULL, NULL, l->nsent > 1, &l->fatal);
		count(l, r, s->path, s->bytes);
	}
	free(s->path);
	l->nsent--;
	memmove(&l->sent[0], &l->sent[1], sizeof(ld_sent) * (size_t) l->nsent);
}

static void
finish_all(loader *l)
{
	while (l->nsent > 0)
		finish_oldest(l);
}

static void
load_sstable(void *arg, const ld_sstable *s)
{
	loader	   *l = arg;
	int64_t		bytes = bytes_of(s, l->o->keys);
	ld_row		row;
	int			read;
	char	   *held;
	ld_sent    *next;

	l->seen++;
	if (l->stopped || ld_stop_requested)
	{
		finish_all(l);
		l->stopped = 1;
		return;
	}
	if (l->nsent > 0)
		ld_messages_hold();
	read = ld_upload_read(l->u, s, &row);
	held = ld_messages_take();
	if (read != LD_ROW_READY || held != NULL)
		finish_all(l);
	else if (l->nsent == IN_FLIGHT)
		finish_oldest(l);
	/* after a fatal error or a signal, this one was not reached before */
	if (held != NULL && !l->stopped)
		ld_messages_print(held);
	free(held);
	if (l->stopped)
	{
		ld_row_free(&row);
		return;
	}
	next = &l->sent[l->nsent];
	memset(next, 0, sizeof(*next));
	next->bytes = bytes;
	if (read == LD_ROW_UNCHANGED)
		count(l, LD_UNCHANGED, s->prefix, bytes);
	else if (read == LD_ROW_FAILED)
		count(l, LD_FAILED, s->prefix, bytes);
	else if (!ld_upload_send(l->u, s, &row, l->seen, l->nsent > 0, next, &l->fatal))
	{
		/* not sent: what was sent before is still to be read */
		free(next->path);
		count(l, l->fatal ? LD_FATAL : LD_FAILED, s->prefix, bytes);
		finish_all(l);
	}
	else if (l->o->keys)
	{
		count(l, ld_upload_wait(l->u, next, s, &row, 0, &l->fatal), s->prefix, bytes);
		free(next->path);
	}
	else
		l->nsent++;
	ld_row_free(&row);
}

int
main(int argc, char **argv)
{
	ld_options	o;
	ld_conn_params cp;
	int			first_root,
				i,
				status,
				warnings = 0,
				empty = 0,
				pruned = 0;
	char	  **roots;
	int		   *empty_root;
	int			nroots;
	totals		t;
	loader		l;
	PGconn	   *conn;
	ld_progress progress;
	struct sigaction sa;
	char		b1[32];
	double		t0 = ld_now();
	ld_scope   *scope = NULL;
	char	   *since = NULL;
	size_t		removed = 0;

	status = ld_parse_options(argc, argv, &o, &cp, &first_root);
	ld_set_quiet(o.quiet);
	if (status != LD_GO_ON)
		return status;
	status = EXIT_LOADED;

	/*
	 * The directories first, walked once to count what there is to load
	 * (and to report their problems): a missing one is a usage error.
	 * Nothing of an SSTable is kept: the load walks them again, loading
	 * each as it is found, so that the client's memory does not grow with
	 * the node.
	 */
	memset(&t, 0, sizeof(t));
	t.keys = o.keys;
	nroots = argc - first_root;
	roots = calloc((size_t) nroots, sizeof(char *));
	empty_root = calloc((size_t) nroots, sizeof(int));
	for (i = 0; i < nroots; i++)
	{
		roots[i] = ld_absolute_path(argv[first_root + i]);
		if (ld_walk(roots[i], 1, o.verbose, &warnings, NULL, count_sstable, &t) != 0)
			return EXIT_USAGE;
	}

	conn = ld_connect(&cp);
	if (conn == NULL)
		return EXIT_USAGE;
	if ((status = ld_check_extension(conn)) != 0)
	{
		PQfinish(conn);
		return status;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	memset(&l, 0, sizeof(l));
	l.o = &o;
	l.progress = &progress;
	l.u = ld_upload_begin(conn, &o, &l.fatal);
	if (l.u == NULL)
	{
		PQfinish(conn);
		return l.fatal ? l.fatal : EXIT_USAGE;
	}

	/* what the load walks, for the rows of SSTables gone; the server's
	 * time first: rows loaded after it (by another run) are not pruned */
	if (!o.no_prune)
	{
		scope = ld_scope_new();
		if ((since = ld_server_now(conn, &l.fatal)) == NULL)
		{
			PQfinish(conn);
			return l.fatal ? l.fatal : EXIT_USAGE;
		}
	}
	ld_current_progress = &progress;
	ld_progress_start(&progress, !o.quiet && !o.verbose && isatty(STDERR_FILENO), t.n, t.bytes);
	for (i = 0; i < nroots; i++)
	{
		size_t		before = l.seen;

		/* the folder as given: the rows earlier versions stored by it */
		if (scope)
			ld_scope_add_root(scope, roots[i]);
		/* its problems were reported by the first walk */
		if (ld_walk(roots[i], 0, 0, NULL, scope, load_sstable, &l) != 0)
		{
			warnings++;
			if (scope)
				ld_scope_unknown(scope);
		}
		finish_all(&l);

		/*
		 * No live SSTable at all: a wrong path in a cron line, or a disk
		 * that did not mount (its mount point an empty folder): said after
		 * the load; the rows below it are the disk's, kept
		 */
		empty_root[i] = l.seen == before;
		if (empty_root[i] && scope && !o.prune_empty)
			ld_scope_keep_empty(scope, roots[i]);
	}
	/* only after a whole walk: an interrupted one did not look everywhere */
	if (scope && !l.fatal && !l.stopped && !ld_stop_requested)
	{
		if (!ld_scope_usable(scope))
		{
			if (o.verbose)
				ld_info("nothing removed: a folder's real path could not be told");
		}
		else if (!ld_upload_prune(l.u, scope, since, &removed, &l.fatal))
		{
			if (!l.fatal)
				warnings++;
		}
		else
			pruned = 1;
	}
	if (!l.fatal && !ld_stop_requested)
		ld_progress_end(&progress);
	else
		ld_progress_clear(&progress);
	ld_current_progress = NULL;

	/* even with --quiet: the status is not 0 */
	for (i = 0; i < nroots && !l.fatal && !ld_stop_requested; i++)
	{
		if (empty_root[i])
		{
			size_t		kept = scope && pruned ? ld_scope_kept(scope, roots[i]) : 0;

			ld_error("warning: no live SSTable found in %s", roots[i]);
			if (kept > 0)
				ld_error("warning: %zu %s of label \"%s\" below %s kept (a disk not mounted leaves an empty folder; --prune-empty removes them)",
						 kept, ld_plural(kept, "row", "rows"), o.label, roots[i]);
			empty++;
		}
	}
	if (l.fatal)
		status = l.fatal;
	else if (ld_stop_requested)
	{
		size_t		left = l.seen - l.loaded - l.unchanged - l.failed;

		ld_error("interrupted: %zu %s not loaded (each SSTable is loaded whole or not at all; run again to finish)",
				 left, ld_plural(left, "SSTable", "SSTables"));
		status = EXIT_INTERRUPTED;
	}
	else if (l.failed > 0 || warnings > 0)
		status = EXIT_SOME_FAILED;
	else if (empty > 0)
		status = EXIT_NO_SSTABLE;

	if (!o.quiet || status != EXIT_LOADED)
		fprintf(stderr, "bloomcass-load: %zu %s: %zu loaded, %zu unchanged, %zu failed, %zu not done; %zu removed; %s sent in %.1f s%s\n",
				l.seen, ld_plural(l.seen, "SSTable", "SSTables"), l.loaded, l.unchanged, l.failed, l.seen - l.loaded - l.unchanged - l.failed,
				removed, ld_human_bytes(l.sent_bytes, b1, sizeof(b1)), ld_now() - t0,
				warnings ? " (some folders or files skipped, see above)" : "");
	ld_upload_end(l.u);
	ld_scope_free(scope);
	free(since);
	PQfinish(conn);
	for (i = 0; i < nroots; i++)
		free(roots[i]);
	free(roots);
	free(empty_root);
	return status;
}
