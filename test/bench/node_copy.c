/*
 * node_copy.c - the floor of bloomcass-load in the node-scale benchmark
 * (node.sh; test/bench/README.md): the same bytes bloomcass-load uploads,
 * sent by one plain binary COPY into a table of bytea columns.
 *
 *   node_copy [-2] TABLE < PREFIXES
 *
 * For each SSTable prefix read from standard input (one a line) it reads
 * PREFIX-Filter.db, -Statistics.db, -Summary.db and -TOC.txt whole, as
 * bloomcass-load does, and sends the row (path text, filter_db bytea,
 * statistics_db bytea, summary_db bytea, toc_txt bytea) through
 *
 *   COPY TABLE (path, filter_db, statistics_db, summary_db, toc_txt)
 *        FROM STDIN (FORMAT binary)
 *
 * one COPY for all of them, in one transaction.  With -2 the row has
 * Filter.db a second time, in a sixth column filter2: the bytes
 * bloomcass-load's table stores (filter_db, and the filter made of it).  The connection is libpq's
 * default (PGHOST, PGPORT, PGDATABASE, ...).  Prints the rows and bytes
 * sent.  TABLE is put in the command as given.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

static const char *const COMPONENTS[] = {"Filter.db", "Statistics.db", "Summary.db", "TOC.txt"};
#define NCOMPONENTS 4

static PGconn *conn;

static void
die(const char *what, const char *why)
{
	fprintf(stderr, "node_copy: %s: %s\n", what, why);
	if (conn)
		PQfinish(conn);
	exit(1);
}

/* buf grows to hold at least need bytes */
static void
reserve(char **buf, size_t *cap, size_t need)
{
	if (need <= *cap)
		return;
	while (*cap < need)
		*cap = *cap ? *cap * 2 : 1 << 20;
	*buf = realloc(*buf, *cap);
	if (*buf == NULL)
		die("memory", "out of memory");
}

static void
put32(char *p, uint32_t v)
{
	p[0] = (char) (v >> 24);
	p[1] = (char) (v >> 16);
	p[2] = (char) (v >> 8);
	p[3] = (char) v;
}

/* append a field: its length, then the file's bytes */
static size_t
put_file(char **buf, size_t *cap, size_t len, const char *path)
{
	FILE	   *f = fopen(path, "rb");
	size_t		start = len + 4,
				got;

	if (f == NULL)
		die(path, strerror(errno));
	for (;;)
	{
		reserve(buf, cap, start + (1 << 20));
		got = fread(*buf + len + 4, 1, *cap - len - 4, f);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(f))
		die(path, "read error");
	fclose(f);
	put32(*buf + start - 4, (uint32_t) (len + 4 - start));
	return len + 4;
}

int
main(int argc, char **argv)
{
	static const char header[19] = "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0";
	char	   *sql,
			   *buf = NULL,
				line[4096];
	size_t		cap = 0,
				len,
				n;
	long long	rows = 0,
				bytes = 0;
	PGresult   *r;
	int			i,
				twice = argc == 3 && strcmp(argv[1], "-2") == 0;
	const char *table = argv[argc - 1];

	if (argc != 2 && !twice)
	{
		fprintf(stderr, "usage: node_copy [-2] TABLE < PREFIXES\n");
		return 2;
	}
	conn = PQconnectdb("");
	if (PQstatus(conn) != CONNECTION_OK)
		die("connection", PQerrorMessage(conn));

	n = strlen(table) + 200;
	sql = malloc(n);
	snprintf(sql, n, "COPY %s (path, filter_db, statistics_db, summary_db, toc_txt%s) "
			 "FROM STDIN (FORMAT binary)", table, twice ? ", filter2" : "");
	r = PQexec(conn, sql);
	if (PQresultStatus(r) != PGRES_COPY_IN)
		die("COPY", PQerrorMessage(conn));
	PQclear(r);
	if (PQputCopyData(conn, header, sizeof(header)) != 1)
		die("COPY", PQerrorMessage(conn));

	while (fgets(line, sizeof(line), stdin) != NULL)
	{
		size_t		plen = strcspn(line, "\n");
		char		path[4200];

		line[plen] = '\0';
		if (plen == 0)
			continue;
		reserve(&buf, &cap, 6 + plen);
		buf[0] = 0;
		buf[1] = (char) (1 + NCOMPONENTS + twice);
		put32(buf + 2, (uint32_t) plen);
		memcpy(buf + 6, line, plen);
		len = 6 + plen;
		for (i = 0; i < NCOMPONENTS; i++)
		{
			snprintf(path, sizeof(path), "%s-%s", line, COMPONENTS[i]);
			len = put_file(&buf, &cap, len, path);
		}
		if (twice)
		{
			snprintf(path, sizeof(path), "%s-%s", line, COMPONENTS[0]);
			len = put_file(&buf, &cap, len, path);
		}
		if (PQputCopyData(conn, buf, (int) len) != 1)
			die("COPY", PQerrorMessage(conn));
		rows++;
		bytes += (long long) len;
	}
	if (ferror(stdin))
		die("standard input", "read error");
	if (PQputCopyData(conn, "\377\377", 2) != 1 || PQputCopyEnd(conn, NULL) != 1)
		die("COPY", PQerrorMessage(conn));
	r = PQgetResult(conn);
	if (PQresultStatus(r) != PGRES_COMMAND_OK)
		die("COPY", PQerrorMessage(conn));
	PQclear(r);
	PQfinish(conn);
	printf("%lld rows, %lld bytes\n", rows, bytes);
	free(buf);
	free(sql);
	return 0;
}
