/*
 * main.c - bloomcass-load: options, connection, the load loop and the exit
 * status.
 *
 *   bloomcass-load [OPTION]... DATA_DIR...
 *
 * Exit status: 0 every live SSTable loaded (or unchanged), 1 some failed
 * (each reported with its path), 2 usage, a missing directory, no
 * connection or a server error every SSTable would hit, 3 the connection
 * was lost during the load, 4 interrupted by SIGINT or SIGTERM.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "load.h"

/* bloomcass.control's version, in three parts: the Makefile passes it */
#ifndef LOAD_VERSION
#error "LOAD_VERSION is defined by the Makefile (DIST_VERSION)"
#endif
#define DEFAULT_TABLE "cassandra_sstable_files"

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

static void
on_signal(int sig)
{
	(void) sig;
	ld_stop_requested = 1;
}

static void
usage(FILE *out)
{
	fprintf(out,
			"bloomcass-load loads the live SSTables of a Cassandra node into PostgreSQL:\n"
			"one row per SSTable with the columns of cassandra_sstables(), filled on the\n"
			"server by the bloomcass extension from the uploaded Filter.db, Statistics.db,\n"
			"Summary.db and TOC.txt (kept in the row too).\n"
			"\n"
			"Usage:\n"
			"  bloomcass-load [OPTION]... DATA_DIR...\n"
			"\n"
			"Options:\n"
			"  -l, --label=NAME         the node's name in the label column (default: host name)\n"
			"  -t, --table=NAME         the table, [schema.]name (default: " DEFAULT_TABLE ");\n"
			"                           created when missing\n"
			"  -k, --keys               also every partition key of each Index.db, into NAME_keys\n"
			"  -q, --quiet              errors only\n"
			"  -v, --verbose            one line per SSTable\n"
			"  -V, --version            print the version and exit\n"
			"  -?, --help               show this help and exit\n"
			"\n"
			"Connection options (as psql; PG* environment variables and ~/.pgpass apply):\n"
			"  -h, --host=HOST          server host or socket directory\n"
			"  -p, --port=PORT          server port\n"
			"  -U, --username=USER      user name\n"
			"  -d, --dbname=DBNAME      database name, or a conninfo string or URI\n"
			"\n"
			"Re-running skips the SSTables loaded unchanged (same label, path, Data.db size\n"
			"and modification time) and replaces changed ones; each SSTable is loaded in a\n"
			"transaction of its own.  Progress goes to a terminal; otherwise only errors\n"
			"and one summary line are printed (to standard error).\n"
			"\n"
			"Exit status: 0 all loaded, 1 some SSTables failed, 2 usage, directory or\n"
			"connection error, 3 connection lost during the load, 4 interrupted.\n");
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"label", required_argument, NULL, 'l'},
		{"table", required_argument, NULL, 't'},
		{"keys", no_argument, NULL, 'k'},
		{"quiet", no_argument, NULL, 'q'},
		{"verbose", no_argument, NULL, 'v'},
		{"version", no_argument, NULL, 'V'},
		{"help", no_argument, NULL, '?'},
		{"host", required_argument, NULL, 'h'},
		{"port", required_argument, NULL, 'p'},
		{"username", required_argument, NULL, 'U'},
		{"dbname", required_argument, NULL, 'd'},
		{NULL, 0, NULL, 0}
	};
	ld_options	o;
	const char *host = NULL,
			   *port = NULL,
			   *user = NULL,
			   *dbname = NULL;
	char		hostname[256];
	const char *keywords[12];
	const char *values[12];
	int			nk = 0,
				c,
				i,
				status = EXIT_LOADED,
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
	const char *env;
	char		b1[32];
	double		t0 = ld_now();

	memset(&o, 0, sizeof(o));
	memset(&list, 0, sizeof(list));
	o.table = DEFAULT_TABLE;
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		usage(stdout);
		return 0;
	}
	while ((c = getopt_long(argc, argv, "l:t:kqvVh:p:U:d:?", longopts, NULL)) != -1)
	{
		switch (c)
		{
			case 'l':
				o.label = optarg;
				break;
			case 't':
				o.table = optarg;
				break;
			case 'k':
				o.keys = 1;
				break;
			case 'q':
				o.quiet = 1;
				break;
			case 'v':
				o.verbose = 1;
				break;
			case 'V':
				printf("bloomcass-load (bloomcass) %s\n", LOAD_VERSION);
				return 0;
			case 'h':
				host = optarg;
				break;
			case 'p':
				port = optarg;
				break;
			case 'U':
				user = optarg;
				break;
			case 'd':
				dbname = optarg;
				break;
			case '?':
				if (optopt == 0 || optopt == '?')
				{
					if (strcmp(argv[optind - 1], "-?") == 0 || strcmp(argv[optind - 1], "--help") == 0)
					{
						usage(stdout);
						return 0;
					}
				}
				fprintf(stderr, "Try \"bloomcass-load --help\" for more information.\n");
				return EXIT_USAGE;
			default:
				fprintf(stderr, "Try \"bloomcass-load --help\" for more information.\n");
				return EXIT_USAGE;
		}
	}
	if (optind >= argc)
	{
		ld_error("no data directory given");
		fprintf(stderr, "Try \"bloomcass-load --help\" for more information.\n");
		return EXIT_USAGE;
	}
	if (o.quiet && o.verbose)
		o.verbose = 0;
	if (o.label == NULL)
	{
		if (gethostname(hostname, sizeof(hostname)) != 0)
		{
			ld_error("cannot tell the host name: give --label");
			return EXIT_USAGE;
		}
		hostname[sizeof(hostname) - 1] = '\0';
		o.label = hostname;
	}
	if (o.label[0] == '\0')
	{
		ld_error("the label is empty");
		return EXIT_USAGE;
	}
	if ((env = getenv("BLOOMCASS_LOAD_TEST_SIGNAL_AT")) != NULL)
		o.test_signal_at = atoi(env);

	/* the directories first: a missing one is a usage error */
	nroots = argc - optind;
	roots = calloc((size_t) nroots, sizeof(char *));
	for (i = 0; i < nroots; i++)
	{
		roots[i] = ld_absolute_path(argv[optind + i]);
		if (ld_walk(roots[i], &list, o.verbose) != 0)
			return EXIT_USAGE;
	}
	for (n = 0; n < list.n; n++)
	{
		list.items[n].small_bytes += o.keys && ld_component_size(&list.items[n], "Index.db") > 0 ?
			ld_component_size(&list.items[n], "Index.db") : 0;
		total_bytes += list.items[n].small_bytes;
	}

	/* connection: keepalives so that a server gone away is noticed */
	keywords[nk] = "keepalives";
	values[nk++] = "1";
	keywords[nk] = "keepalives_idle";
	values[nk++] = "10";
	keywords[nk] = "keepalives_interval";
	values[nk++] = "5";
	keywords[nk] = "keepalives_count";
	values[nk++] = "3";
	keywords[nk] = "fallback_application_name";
	values[nk++] = "bloomcass-load";
	keywords[nk] = "dbname";
	values[nk++] = dbname;
	keywords[nk] = "host";
	values[nk++] = host;
	keywords[nk] = "port";
	values[nk++] = port;
	keywords[nk] = "user";
	values[nk++] = user;
	keywords[nk] = NULL;
	values[nk] = NULL;
	conn = PQconnectdbParams(keywords, values, 1);
	if (conn == NULL || PQstatus(conn) != CONNECTION_OK)
	{
		const char *m = conn ? PQerrorMessage(conn) : "out of memory\n";

		ld_progress_clear(NULL);
		fprintf(stderr, "bloomcass-load: cannot connect: %s", m);
		if (m[0] == '\0' || m[strlen(m) - 1] != '\n')
			fputc('\n', stderr);
		PQfinish(conn);
		return EXIT_USAGE;
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
