/*
 * connect.c - bloomcass-load: the connection to the server, and whether its
 * database has the extension.
 *
 * The libpq connection from the connection options, with keepalives so
 * that a server gone away is noticed; what -d does not say comes from the
 * PG* environment variables and ~/.pgpass, as for psql, and so does the
 * password prompt (-W, -w).  Before anything
 * else, pg_extension must list bloomcass: the tables' bloom column and the
 * parsers need it, and without this check the first thing to fail would be
 * CREATE TABLE, with 'type "bloom" does not exist'.
 */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "load.h"

#define MAX_PASSWORD 1024

/*
 * A password read from the terminal without echo, as psql's simple_prompt
 * (src/common/sprompt.c) reads it: the prompt written to /dev/tty, echo
 * turned off there for the line, the line read, echo restored and a
 * newline written.  Unlike simple_prompt there is no fallback to standard
 * input: with no terminal (cron) nothing is asked.  NULL when there is no
 * terminal or nothing could be read.
 */
static char *
read_password(const char *prompt)
{
	int			fd = open("/dev/tty", O_RDWR | O_NOCTTY);
	struct termios saved,
				quiet;
	char	   *line;
	size_t		n = 0;
	int			echo_off;

	if (fd < 0)
		return NULL;
	echo_off = tcgetattr(fd, &saved) == 0;
	if (echo_off)
	{
		quiet = saved;
		quiet.c_lflag &= ~(tcflag_t) ECHO;
		quiet.c_lflag |= ICANON;
		echo_off = tcsetattr(fd, TCSAFLUSH, &quiet) == 0;
	}
	if (write(fd, prompt, strlen(prompt)) < 0)
	{
		/* nothing to do: the line is read all the same */
	}
	line = ld_xmalloc(MAX_PASSWORD + 1);
	for (;;)
	{
		char		c;
		ssize_t		r = read(fd, &c, 1);

		if (r != 1 || c == '\n')
		{
			if (r != 1 && n == 0)
			{
				free(line);
				line = NULL;
			}
			break;
		}
		if (n < MAX_PASSWORD)
			line[n++] = c;
	}
	if (line)
		line[n] = '\0';
	if (echo_off)
		tcsetattr(fd, TCSAFLUSH, &saved);
	if (write(fd, "\n", 1) < 0)
	{
		/* as above */
	}
	close(fd);
	return line;
}

static char *
ask_password(const char *user)
{
	char	   *prompt = user ? ld_sqlf("Password for user %s: ", user) : ld_sqlf("Password: ");
	char	   *password = read_password(prompt);

	free(prompt);
	return password;
}

static void
forget(char *password)
{
	if (password)
	{
		volatile char *p = password;

		while (*p)
			*p++ = '\0';
		free(password);
	}
}

static PGconn *
connect_with(const ld_conn_params *cp, const char *password)
{
	const char *keywords[12];
	const char *values[12];
	int			nk = 0;

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
	keywords[nk] = "password";
	values[nk++] = password;
	keywords[nk] = NULL;
	values[nk] = NULL;
	return PQconnectdbParams(keywords, values, 1);
}

/*
 * As psql: -W asks for the password before connecting; by default it is
 * asked when the server wants one that libpq did not find (PGPASSWORD,
 * the password file), if there is a terminal to ask on; -w never asks.
 */
PGconn *
ld_connect(const ld_conn_params *cp)
{
	char	   *password = NULL;
	PGconn	   *conn;
	const char *m;

	if (cp->password == LD_PASSWORD_ASK)
	{
		password = ask_password(cp->user);
		if (password == NULL)
		{
			ld_error("cannot ask for the password (-W): no terminal");
			return NULL;
		}
	}
	conn = connect_with(cp, password);
	if (conn != NULL && PQstatus(conn) == CONNECTION_BAD && PQconnectionNeedsPassword(conn) &&
		password == NULL && cp->password != LD_PASSWORD_NEVER)
	{
		char	   *user = ld_sqlf("%s", PQuser(conn));

		password = ask_password(user);
		free(user);
		if (password != NULL)
		{
			PQfinish(conn);
			conn = connect_with(cp, password);
		}
	}
	forget(password);
	if (conn != NULL && PQstatus(conn) == CONNECTION_OK)
		return conn;

	m = conn ? PQerrorMessage(conn) : "out of memory\n";
	ld_progress_clear(NULL);
	fprintf(stderr, "bloomcass-load: cannot connect: %s", m);
	if (m[0] == '\0' || m[strlen(m) - 1] != '\n')
		fputc('\n', stderr);
	if (conn != NULL && PQconnectionNeedsPassword(conn))
		ld_error("the server asks a password of user \"%s\": give it in PGPASSWORD or in ~/.pgpass "
				 "(the file PGPASSFILE names), or run on a terminal with -W (--password) to be asked for it",
				 PQuser(conn));
	PQfinish(conn);
	return NULL;
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
