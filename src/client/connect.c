/*
 * connect.c - bloomcass-load: the connection to the server, and whether its
 * database has the extension.
 *
 * The libpq connection from the connection options, with keepalives so
 * that a server gone away is noticed; what -d does not say comes from the
 * PG* environment variables and ~/.pgpass, as for psql.  Before anything
 * else, pg_extension must list bloomcass: the tables' bloom column and the
 * parsers need it, and without this check the first thing to fail would be
 * CREATE TABLE, with 'type "bloom" does not exist'.
 */
#include <stdio.h>
#include <string.h>

#include <libpq-fe.h>

#include "load.h"

PGconn *
ld_connect(const ld_conn_params *cp)
{
	const char *keywords[12];
	const char *values[12];
	int			nk = 0;
	PGconn	   *conn;

	/* keepalives so that a server gone away is noticed */
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
	/* dbname may be a conninfo string or URI (expand_dbname) */
	keywords[nk] = "dbname";
	values[nk++] = cp->dbname;
	keywords[nk] = "host";
	values[nk++] = cp->host;
	keywords[nk] = "port";
	values[nk++] = cp->port;
	keywords[nk] = "user";
	values[nk++] = cp->user;
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
		return NULL;
	}
	return conn;
}

int
ld_check_extension(PGconn *conn)
{
	PGresult   *r = PQexec(conn, "SELECT current_database(), EXISTS (SELECT FROM pg_catalog.pg_extension "
						   "WHERE extname = 'bloomcass')");
	int			status = 0;

	if (PQresultStatus(r) != PGRES_TUPLES_OK)
	{
		ld_report_failure(conn, r, "looking for the bloomcass extension", &status);
		if (status == 0)
			status = EXIT_USAGE;
	}
	else if (strcmp(PQgetvalue(r, 0, 1), "t") != 0)
	{
		ld_error("the bloomcass extension is not installed in database \"%s\": run CREATE EXTENSION bloomcass",
				 PQgetvalue(r, 0, 0));
		status = EXIT_USAGE;
	}
	PQclear(r);
	return status;
}
