/*
 * main.c - bloomcass-load: the load loop, the signals that stop it, the
 * messages and the exit status (options.c reads the command line,
 * connect.c connects and checks for the extension).
 *
 *   bloomcass-load [OPTION]... DATA_DIR...
 *
 * Exit status: 0 every live SSTable loaded (or unchanged), 1 some failed
 * (each reported with its path), 2 usage, a missing directory, no
 * connection, no bloomcass extension in the database or a server error
 * every SSTable would hit, 3 the connection was lost during the load, 4
 * interrupted by SIGINT or SIGTERM.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "load.h"

volatile sig_atomic_t ld_stop_requested = 0;
ld_progress *ld_current_progress = NULL;

void
ld_error(const char *fmt,...)
{
	va_list		ap;

	ld_progress_clear(ld_current_progress);
	fputs("bloomcass-load: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void
ld_info(const char *fmt,...)
{
	va_list		ap;

	ld_progress_clear(ld_current_progress);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* memory, or the exit status of a usage error when there is none */
void *
ld_xrealloc(void *p, size_t n)
{
	void	   *q = realloc(p, n ? n : 1);

	if (q == NULL)
	{
		fprintf(stderr, "bloomcass-load: out of memory\n");
		exit(EXIT_USAGE);
	}
	return q;
}

void *
ld_xmalloc(size_t n)
{
	return ld_xrealloc(NULL, n);
}

static void
on_signal(int sig)
{
	(void) sig;
	ld_stop_requested = 1;
}

int
main(int argc, char **argv)
{
	ld_options	o;
	ld_conn_params cp;
	int			first_root,
				i,
				status,
				fatal = 0;
	char	  **roots;
	int			nroots;
	ld_list		list;
	PGconn	   *conn;
	ld_uploader *u;
	ld_progress progress;
	size_t		n,
				loaded = 0,
				unchanged = 0,
				failed = 0;
	int64_t		total_bytes = 0,
				sent_bytes = 0;
	struct sigaction sa;
	char		b1[32];
	double		t0 = ld_now();

	status = ld_parse_options(argc, argv, &o, &cp, &first_root);
	if (status != LD_GO_ON)
		return status;
	status = EXIT_LOADED;
	memset(&list, 0, sizeof(list));

	/* the directories first: a missing one is a usage error */
	nroots = argc - first_root;
	roots = calloc((size_t) nroots, sizeof(char *));
	for (i = 0; i < nroots; i++)
	{
		roots[i] = ld_absolute_path(argv[first_root + i]);
		if (ld_walk(roots[i], &list, o.verbose) != 0)
			return EXIT_USAGE;
	}
	for (n = 0; n < list.n; n++)
	{
		list.items[n].small_bytes += o.keys && ld_component_size(&list.items[n], "Index.db") > 0 ?
			ld_component_size(&list.items[n], "Index.db") : 0;
		total_bytes += list.items[n].small_bytes;
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

	u = ld_upload_begin(conn, &o, &fatal);
	if (u == NULL)
	{
		PQfinish(conn);
		return fatal ? fatal : EXIT_USAGE;
	}

	ld_current_progress = &progress;
	ld_progress_start(&progress, !o.quiet && !o.verbose && isatty(STDERR_FILENO), list.n, total_bytes);
	for (n = 0; n < list.n && !ld_stop_requested; n++)
	{
		const ld_sstable *s = &list.items[n];
		ld_result	r = ld_upload_one(u, s, n + 1, &fatal);

		switch (r)
		{
			case LD_LOADED:
				loaded++;
				sent_bytes += s->small_bytes;
				if (o.verbose)
					ld_info("loaded %s", s->prefix);
				break;
			case LD_UNCHANGED:
				unchanged++;
				if (o.verbose)
					ld_info("unchanged %s", s->prefix);
				break;
			case LD_FAILED:
				failed++;
				break;
			case LD_INTERRUPTED:
				break;
			case LD_FATAL:
				break;
		}
		if (r == LD_FATAL || r == LD_INTERRUPTED)
			break;
		ld_progress_step(&progress, s->small_bytes);
	}
	if (!fatal && !ld_stop_requested)
		ld_progress_end(&progress);
	else
		ld_progress_clear(&progress);
	ld_current_progress = NULL;

	if (fatal)
		status = fatal;
	else if (ld_stop_requested)
	{
		ld_error("interrupted: %zu SSTables not loaded (each SSTable is loaded whole or not at all; run again to finish)",
				 list.n - loaded - unchanged - failed);
		status = EXIT_INTERRUPTED;
	}
	else if (failed > 0 || list.warnings > 0)
		status = EXIT_SOME_FAILED;

	if (!o.quiet || status != EXIT_LOADED)
		fprintf(stderr, "bloomcass-load: %zu SSTables: %zu loaded, %zu unchanged, %zu failed, %zu not done; %s sent in %.1f s%s\n",
				list.n, loaded, unchanged, failed, list.n - loaded - unchanged - failed,
				ld_human_bytes(sent_bytes, b1, sizeof(b1)), ld_now() - t0,
				list.warnings ? " (some folders or files skipped, see above)" : "");
	ld_upload_end(u);
	PQfinish(conn);
	ld_list_free(&list);
	for (i = 0; i < nroots; i++)
		free(roots[i]);
	free(roots);
	return status;
}
