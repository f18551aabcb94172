/*
 * copy.c - the binary COPY a load sends (a buffer flushed to the server,
 * large values sent without a copy), the other commands (ld_exec), and the
 * reading of server errors: the message on one line, and whether a failure
 * stops the whole load.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "bc_endian.h"
#include "load.h"

#define COPY_BUFFER ((size_t) 256 * 1024)

static char errbuf[1024];

/* Report a failed command (what: the SSTable or the step) and set *fatal. */
void
ld_report_failure(PGconn *conn, const PGresult *r, const char *what, int *fatal)
{
	*fatal = ld_fatal_status_of(conn, r);
	if (*fatal == EXIT_CONNECTION_LOST)
		ld_error("the connection to the server was lost (%s): %s", what,
				 ld_server_message(conn, r));
	else
		ld_error("%s: %s", what, ld_server_message(conn, r));
}

int
ld_exec(PGconn *conn, const char *what, const char *sql, int nparams,
		const char *const *params, ExecStatusType want, int *fatal, PGresult **out)
{
	PGresult   *r = PQexecParams(conn, sql, nparams, NULL, params, NULL, NULL, 0);

	if (PQresultStatus(r) != want)
	{
		ld_report_failure(conn, r, what, fatal);
		PQclear(r);
		return 0;
	}
	if (out)
		*out = r;
	else
		PQclear(r);
	return 1;
}

void
ld_copy_init(ld_copy *c, PGconn *conn)
{
	c->conn = conn;
	c->buf = ld_xmalloc(COPY_BUFFER);
	c->len = 0;
	c->failed = 0;
}

void
ld_copy_free(ld_copy *c)
{
	free(c->buf);
	c->buf = NULL;
}

/* ------------------------------------------------------------------------
 * Server errors
 * ------------------------------------------------------------------------ */

/* The status to stop with for a failed command, or 0 when only this
 * SSTable is concerned. */
int
ld_fatal_status_of(PGconn *conn, const PGresult *r)
{
	const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;

	if (PQstatus(conn) == CONNECTION_BAD)
		return EXIT_CONNECTION_LOST;
	if (state == NULL)
		return EXIT_CONNECTION_LOST;
	if (strncmp(state, "08", 2) == 0 || strncmp(state, "57", 2) == 0)
		return EXIT_CONNECTION_LOST;
	/* privileges, a missing function or table, bad names: every SSTable */
	if (strncmp(state, "42", 2) == 0 || strncmp(state, "28", 2) == 0 ||
		strncmp(state, "3D", 2) == 0 || strncmp(state, "3F", 2) == 0 ||
		strncmp(state, "53", 2) == 0)
		return EXIT_USAGE;
	return 0;
}

const char *
ld_server_message(PGconn *conn, const PGresult *r)
{
	const char *m = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;

	if (m == NULL)
		m = PQerrorMessage(conn);
	snprintf(errbuf, sizeof(errbuf), "%s", m);
	/* one line */
	for (char *p = errbuf; *p; p++)
		if (*p == '\n')
		{
			*p = (p[1] == '\0') ? '\0' : ' ';
			if (*p == '\0')
				break;
		}
	return errbuf;
}

/* ------------------------------------------------------------------------
 * Binary COPY
 * ------------------------------------------------------------------------ */
static int
flush(ld_copy *c)
{
	if (c->len > 0 && !c->failed)
	{
		if (PQputCopyData(c->conn, (const char *) c->buf, (int) c->len) != 1)
			c->failed = 1;
	}
	c->len = 0;
	return !c->failed;
}

static void
put(ld_copy *c, const void *p, size_t n)
{
	if (c->failed)
		return;
	if (n >= COPY_BUFFER / 2)
	{
		flush(c);
		/* large values go out without a copy, in 64 MB pieces */
		while (n > 0 && !c->failed)
		{
			size_t		piece = n > ((size_t) 64 << 20) ? ((size_t) 64 << 20) : n;

			if (PQputCopyData(c->conn, (const char *) p, (int) piece) != 1)
				c->failed = 1;
			p = (const uint8_t *) p + piece;
			n -= piece;
		}
		return;
	}
	if (c->len + n > COPY_BUFFER)
		flush(c);
	memcpy(c->buf + c->len, p, n);
	c->len += n;
}

void
ld_put_i16(ld_copy *c, int16_t v)
{
	uint8_t		b[2] = {(uint8_t) ((uint16_t) v >> 8), (uint8_t) v};

	put(c, b, 2);
}

/* a bigint field: its length, then the value */
void
ld_put_bigint(ld_copy *c, int64_t v)
{
	uint8_t		b[8];

	bc_put_be64(b, (uint64_t) v);
	ld_put_bytes(c, b, 8, 1);
}

void
ld_put_i32(ld_copy *c, int32_t v)
{
	uint8_t		b[4];

	bc_put_be32(b, (uint32_t) v);
	put(c, b, 4);
}

void
ld_put_bytes(ld_copy *c, const void *p, size_t n, int present)
{
	if (!present)
	{
		ld_put_i32(c, -1);
		return;
	}
	ld_put_i32(c, (int32_t) n);
	put(c, p, n);
}

void
ld_put_text(ld_copy *c, const char *s)
{
	ld_put_bytes(c, s, s ? strlen(s) : 0, s != NULL);
}

static const uint8_t copy_header[19] = {
	'P', 'G', 'C', 'O', 'P', 'Y', '\n', 0xff, '\r', '\n', 0,
	0, 0, 0, 0,					/* flags */
	0, 0, 0, 0					/* header extension */
};

/* end a COPY: 1 when the server took it */
int
ld_copy_end(ld_copy *c, const char *what, int *fatal)
{
	PGresult   *r;
	int			ok = 1;

	if (!c->failed)
	{
		ld_put_i16(c, -1);
		flush(c);
	}
	if (PQputCopyEnd(c->conn, c->failed || ld_stop_requested ? "bloomcass-load stopped" : NULL) != 1)
		c->failed = 1;
	while ((r = PQgetResult(c->conn)) != NULL)
	{
		if (PQresultStatus(r) != PGRES_COMMAND_OK && ok)
		{
			ok = 0;
			if (!ld_stop_requested)
			{
				ld_report_failure(c->conn, r, what, fatal);
			}
		}
		PQclear(r);
		if (PQstatus(c->conn) == CONNECTION_BAD)
			break;
	}
	if (ok && c->failed)
	{
		ok = 0;
		*fatal = EXIT_CONNECTION_LOST;
		ld_error("the connection to the server was lost (%s): %s", what,
				 ld_server_message(c->conn, NULL));
	}
	if (!ok && PQstatus(c->conn) == CONNECTION_BAD)
		*fatal = EXIT_CONNECTION_LOST;
	c->failed = 0;
	c->len = 0;
	return ok;
}

void
ld_copy_abort(ld_copy *c, const char *what, int *fatal)
{
	PGresult   *r;

	/* the server ends the COPY with an error (57014), which is ours */
	if (PQputCopyEnd(c->conn, "bloomcass-load: the rows could not be read") == 1)
		while ((r = PQgetResult(c->conn)) != NULL)
		{
			PQclear(r);
			if (PQstatus(c->conn) == CONNECTION_BAD)
				break;
		}
	if (PQstatus(c->conn) == CONNECTION_BAD)
	{
		*fatal = EXIT_CONNECTION_LOST;
		ld_error("the connection to the server was lost (%s): %s", what,
				 ld_server_message(c->conn, NULL));
	}
	c->failed = 0;
	c->len = 0;
}

int
ld_copy_start(ld_copy *c, const char *sql, const char *what, int *fatal)
{
	PGresult   *r = PQexec(c->conn, sql);

	if (PQresultStatus(r) != PGRES_COPY_IN)
	{
		ld_report_failure(c->conn, r, what, fatal);
		PQclear(r);
		return 0;
	}
	PQclear(r);
	c->len = 0;
	c->failed = 0;
	put(c, copy_header, sizeof(copy_header));
	return 1;
}
