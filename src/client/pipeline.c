/*
 * pipeline.c - statements sent together in libpq's pipeline mode (libpq
 * 14 or later), their results read back after one synchronisation: the
 * statements of one SSTable's transaction cost one round trip instead of
 * one each.
 *
 * The server runs them in order, as if sent one by one, each statement
 * with its own snapshot; after an error it skips the rest up to the
 * synchronisation (their results are PGRES_PIPELINE_ABORTED), and an
 * explicit transaction block is then left failed, to be rolled back.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "load.h"

int
ld_pipeline_begin(ld_pipeline *p, PGconn *conn, const char *what, int *fatal)
{
	memset(p, 0, sizeof(*p));
	p->conn = conn;
	if (!PQenterPipelineMode(conn))
	{
		ld_report_failure(conn, NULL, what, fatal);
		return 0;
	}
	return 1;
}

/* one more statement: its step's name for messages, the status it must
 * give; a statement that could not be sent fails the pipeline at once */
static void
sent(ld_pipeline *p, int ok, const char *what, ExecStatusType want)
{
	if (p->n == LD_PIPELINE_MAX)
		abort();				/* a pipeline of ours has too many */
	p->what[p->n] = what;
	p->want[p->n] = want;
	p->rows[p->n] = -1;
	p->n++;
	if (!ok && !p->send_failed)
		p->send_failed = p->n;
}

void
ld_pipeline_sql(ld_pipeline *p, const char *what, ExecStatusType want, const char *sql)
{
	sent(p, PQsendQueryParams(p->conn, sql, 0, NULL, NULL, NULL, NULL, 0), what, want);
}

void
ld_pipeline_prepared(ld_pipeline *p, const char *what, ExecStatusType want, const char *name,
					 int n, const char *const *values, const int *lengths, const int *formats)
{
	sent(p, PQsendQueryPrepared(p->conn, name, n, values, lengths, formats, 0), what, want);
}

int
ld_pipeline_sync(ld_pipeline *p, int *fatal)
{
	/* PQpipelineSync flushes: the server has it all and runs it */
	if (p->send_failed || !PQpipelineSync(p->conn))
	{
		ld_report_failure(p->conn, NULL, p->what[p->send_failed ? p->send_failed - 1 : 0], fatal);
		if (PQstatus(p->conn) != CONNECTION_BAD)
			*fatal = EXIT_CONNECTION_LOST;	/* the protocol's state is unknown */
		return 0;
	}
	return 1;
}

int
ld_pipeline_end(ld_pipeline *p, int *fatal)
{
	PGresult   *r;
	int			i,
				ok = 1;

	for (i = 0; i < p->n; i++)
	{
		r = PQgetResult(p->conn);
		if (r == NULL || PQstatus(p->conn) == CONNECTION_BAD)
		{
			/* the connection broke: nothing more will come */
			if (ok)
				ld_report_failure(p->conn, r, p->what[i], fatal);
			*fatal = EXIT_CONNECTION_LOST;
			PQclear(r);
			return 0;
		}
		if (PQresultStatus(r) == p->want[i])
		{
			const char *rows = PQcmdTuples(r);

			p->rows[i] = rows[0] ? strtol(rows, NULL, 10) : -1;
		}
		else if (PQresultStatus(r) != PGRES_PIPELINE_ABORTED && ok)
		{
			ld_report_failure(p->conn, r, p->what[i], fatal);
			ok = 0;
		}
		else
			ok = 0;
		PQclear(r);
		/* the end of this statement's results */
		while ((r = PQgetResult(p->conn)) != NULL)
			PQclear(r);
	}
	r = PQgetResult(p->conn);
	if (PQresultStatus(r) != PGRES_PIPELINE_SYNC)
	{
		if (ok)
			ld_report_failure(p->conn, r, p->what[p->n - 1], fatal);
		*fatal = EXIT_CONNECTION_LOST;
		PQclear(r);
		return 0;
	}
	PQclear(r);
	if (p->stay)
		return ok;
	if (!PQexitPipelineMode(p->conn))
	{
		if (ok)
			ld_report_failure(p->conn, NULL, p->what[p->n - 1], fatal);
		*fatal = EXIT_CONNECTION_LOST;
		return 0;
	}
	return ok;
}
