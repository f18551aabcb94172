/*
 * options.c - bloomcass-load: the command line.
 *
 * The option table, --help and --version, and the parsing of the command
 * line into ld_options and the connection parameters (the label defaults
 * to the host name).
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load.h"

/* bloomcass.control's version, in three parts: the Makefile passes it */
#ifndef LOAD_VERSION
#error "LOAD_VERSION is defined by the Makefile (DIST_VERSION)"
#endif
#define DEFAULT_TABLE "cassandra_sstable_files"
/* long options without a short one */
#define OPT_NO_PRUNE 1000
#define OPT_PRUNE_EMPTY 1001

static void
usage(FILE *out)
{
	fprintf(out,
			"bloomcass-load loads the SSTables a Cassandra node's tables read into PostgreSQL:\n"
			"one row per SSTable with the columns of cassandra_sstables(), filled on the\n"
			"server by the bloomcass extension from the uploaded Filter.db, Statistics.db,\n"
			"Summary.db and TOC.txt (kept in the row too; Filter.db as the filter column:\n"
			"bloom_export(filter, version) gives its bytes).\n"
			"\n"
			"Usage:\n"
			"  bloomcass-load [OPTION]... DATA_DIR...\n"
			"\n"
			"Options:\n"
			"  -l, --label=NAME         the node's name in the label column (default: host name)\n"
			"  -t, --table=NAME         the table, [schema.]name (default: " DEFAULT_TABLE ");\n"
			"                           created when missing, with NAME_keys\n"
			"  -k, --keys               also every partition key of each SSTable, into NAME_keys:\n"
			"                           from Index.db, or from Partitions.db when trie-indexed;\n"
			"                           with its position and size in Data.db\n"
			"      --no-prune           keep the rows of SSTables no longer on the node\n"
			"      --prune-empty        prune below a DATA_DIR without any live SSTable too\n"
			"                           (an empty folder; by default its rows are kept)\n"
			"  -q, --quiet              errors only: no progress, no warning (but that of a\n"
			"                           DATA_DIR without live SSTables), no summary line\n"
			"                           when every SSTable loaded\n"
			"  -v, --verbose            one line per SSTable\n"
			"  -V, --version            print the version and exit\n"
			"  -?, --help               show this help and exit\n"
			"\n"
			"Connection options (as psql; PG* environment variables and ~/.pgpass apply):\n"
			"  -h, --host=HOST          server host or socket directory\n"
			"  -p, --port=PORT          server port\n"
			"  -U, --username=USER      user name\n"
			"  -d, --dbname=DBNAME      database name, or a conninfo string or URI\n"
			"  -w, --no-password        never ask for a password\n"
			"  -W, --password           ask for the password (without echo) before connecting;\n"
			"                           without -w or -W it is asked on a terminal when the\n"
			"                           server wants one that PGPASSWORD or ~/.pgpass does not give\n"
			"\n"
			"The database must have the bloomcass extension (CREATE EXTENSION bloomcass).\n"
			"Re-running skips the SSTables loaded unchanged (same label, path, Data.db size\n"
			"and modification time) and replaces changed ones; each SSTable is loaded in a\n"
			"transaction of its own.  Many loads may run at once: the tables are created\n"
			"under an advisory lock, and loads of the same label (overlapping cron runs)\n"
			"are serialised SSTable by SSTable by an advisory lock on the label: the first\n"
			"to reach an SSTable loads it, the others find it loaded and count it\n"
			"unchanged.  Progress goes to a terminal; otherwise only errors, warnings\n"
			"(\"bloomcass-load: warning: ...\": what was read otherwise than asked, or\n"
			"left out, without failing the load) and one summary line are printed (to\n"
			"standard error).\n"
			"\n"
			"After a complete run, the rows of the label whose SSTable is no longer live\n"
			"in the folders walked (deleted by compaction, or orphaned: its Data.db gone)\n"
			"are removed with their keys (the summary's \"removed\"), unless --no-prune.\n"
			"Rows outside the folders given, below a folder that could not be read whole,\n"
			"or loaded by another run since this one started are kept; an interrupted\n"
			"run removes nothing.  A DATA_DIR that holds no live SSTable at all (empty,\n"
			"or a disk that did not mount: its mount point is an empty folder) is warned\n"
			"of, and the rows below it are kept (the number kept is said) unless\n"
			"--prune-empty.  An SSTable's path is the real path of its folder\n"
			"(symbolic links, . and .. resolved): one row per SSTable whichever path\n"
			"reaches it, the path cassandra_sstables() gives.\n"
			"\n"
			"Exit status: 0 all loaded (or unchanged), 1 some SSTables (or folders) failed,\n"
			"2 usage, directory, connection or setup error (no extension, no privilege,\n"
			"a table that is not bloomcass-load's), 3 connection lost during the load,\n"
			"4 interrupted, 5 a DATA_DIR holds no live SSTable (a warning names it; its\n"
			"rows kept unless --prune-empty) and nothing else failed.\n");
}

static void
try_help(void)
{
	fprintf(stderr, "Try \"bloomcass-load --help\" for more information.\n");
}

int
ld_parse_options(int argc, char **argv, ld_options *o, ld_conn_params *cp, int *first_root)
{
	static const struct option longopts[] = {
		{"label", required_argument, NULL, 'l'},
		{"table", required_argument, NULL, 't'},
		{"keys", no_argument, NULL, 'k'},
		{"no-prune", no_argument, NULL, OPT_NO_PRUNE},
		{"prune-empty", no_argument, NULL, OPT_PRUNE_EMPTY},
		{"quiet", no_argument, NULL, 'q'},
		{"verbose", no_argument, NULL, 'v'},
		{"version", no_argument, NULL, 'V'},
		{"help", no_argument, NULL, '?'},
		{"host", required_argument, NULL, 'h'},
		{"port", required_argument, NULL, 'p'},
		{"username", required_argument, NULL, 'U'},
		{"dbname", required_argument, NULL, 'd'},
		{"no-password", no_argument, NULL, 'w'},
		{"password", no_argument, NULL, 'W'},
		{NULL, 0, NULL, 0}
	};
	static char hostname[256];
	const char *env;
	int			c;

	memset(o, 0, sizeof(*o));
	memset(cp, 0, sizeof(*cp));
	o->table = DEFAULT_TABLE;
	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		usage(stdout);
		return 0;
	}
	while ((c = getopt_long(argc, argv, "l:t:kqvVh:p:U:d:wW?", longopts, NULL)) != -1)
	{
		switch (c)
		{
			case 'l':
				o->label = optarg;
				break;
			case 't':
				o->table = optarg;
				break;
			case 'k':
				o->keys = 1;
				break;
			case OPT_NO_PRUNE:
				o->no_prune = 1;
				break;
			case OPT_PRUNE_EMPTY:
				o->prune_empty = 1;
				break;
			case 'q':
				o->quiet = 1;
				break;
			case 'v':
				o->verbose = 1;
				break;
			case 'V':
				printf("bloomcass-load (bloomcass) %s\n", LOAD_VERSION);
				return 0;
			case 'h':
				cp->host = optarg;
				break;
			case 'p':
				cp->port = optarg;
				break;
			case 'U':
				cp->user = optarg;
				break;
			case 'd':
				cp->dbname = optarg;
				break;
			case 'w':
				cp->password = LD_PASSWORD_NEVER;
				break;
			case 'W':
				cp->password = LD_PASSWORD_ASK;
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
				try_help();
				return EXIT_USAGE;
			default:
				try_help();
				return EXIT_USAGE;
		}
	}
	if (optind >= argc)
	{
		ld_error("no data directory given");
		try_help();
		return EXIT_USAGE;
	}
	if (o->quiet && o->verbose)
		o->verbose = 0;
	if (o->label == NULL)
	{
		if (gethostname(hostname, sizeof(hostname)) != 0)
		{
			ld_error("cannot tell the host name: give --label");
			return EXIT_USAGE;
		}
		hostname[sizeof(hostname) - 1] = '\0';
		o->label = hostname;
	}
	if (o->label[0] == '\0')
	{
		ld_error("the label is empty");
		return EXIT_USAGE;
	}
	if ((env = getenv("BLOOMCASS_LOAD_TEST_SIGNAL_AT")) != NULL)
		o->test_signal_at = atoi(env);
	*first_root = optind;
	return LD_GO_ON;
}
