/*
 * tables.c - bloomcass-load: the names of the two tables, and the tables
 * themselves, created when missing, once, however many loaders start
 * together (a fleet whose nodes all run the loader from cron):
 *
 *   SELECT to_regclass(table), to_regclass(table_keys)     both there: done
 *   BEGIN
 *   SELECT pg_advisory_xact_lock(hashtextextended('bloomcass-load tables '
 *                                                 || table, 0))
 *   SELECT ... FROM pg_class ...                    again, under the lock
 *   CREATE TABLE table (...)                        when missing
 *   CREATE TABLE table_keys (...), CREATE INDEX     when missing, and the
 *                                                   first was made now or
 *                                                   --keys is given
 *   COMMIT
 *
 * The lock (a transaction-level advisory lock, on a Citus coordinator as
 * on a plain server) makes the loaders that find a table missing wait for
 * the one creating it.  Without it concurrent CREATE TABLE IF NOT EXISTS
 * fail with a unique violation on pg_type's name index.  The check under
 * the lock reads pg_class in a statement of its own, so with a snapshot
 * taken once the lock is held, which sees the tables another loader
 * committed meanwhile; to_regclass would not do there: it answers from the
 * backend's catalog cache, which (an advisory lock is no relation lock)
 * still remembers the table missing, as the first check found it.  A
 * CREATE that still meets a table or type made meanwhile (by a session
 * that took no lock) fails (no IF NOT EXISTS: the keys table's index must
 * not be made twice), is rolled back and the whole step tried again.
 *
 * The table keeps each Filter.db once, as the bloom value filter
 * (bloom_export(filter, version) gives the file's bytes back); tables made
 * by version 1.5 also have filter_db bytea, the same bytes once more: the
 * load fills it while it is there (ld_table_check), and ALTER TABLE ...
 * DROP COLUMN filter_db frees the space.
 *
 * The keys table is made with the first table whether or not --keys is
 * given, so that running the loader once creates both (to distribute them
 * with Citus, or to grant on them); a first table made by an earlier
 * version without its keys table gets one only from a load with --keys
 * (which then needs CREATE on the schema, as the first run did).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "load.h"

/* tries of the whole step when a CREATE meets an object made meanwhile */
#define MAX_TRIES 5

char *
ld_sqlf(const char *fmt,...)
{
	va_list		ap;
	int			n;
	char	   *s;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = ld_xmalloc((size_t) n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t) n + 1, fmt, ap);
	va_end(ap);
	return s;
}

char *
ld_quote_name(PGconn *conn, const char *name, const char *suffix)
{
	const char *dot = strrchr(name, '.');
	char	   *schema = NULL,
			   *rel,
			   *out,
			   *last;

	if (dot)
	{
		char	   *s = strndup(name, (size_t) (dot - name));

		schema = PQescapeIdentifier(conn, s, strlen(s));
		free(s);
		name = dot + 1;
	}
	last = ld_sqlf("%s%s", name, suffix);
	rel = PQescapeIdentifier(conn, last, strlen(last));
	free(last);
	if (rel == NULL || (dot && schema == NULL))
	{
		if (rel)
			PQfreemem(rel);
		if (schema)
			PQfreemem(schema);
		return NULL;
	}
	out = ld_sqlf("%s%s%s", schema ? schema : "", schema ? "." : "", rel);
	PQfreemem(rel);
	if (schema)
		PQfreemem(schema);
	return out;
}

/* ------------------------------------------------------------------------
 * The tables
 * ------------------------------------------------------------------------ */
typedef enum step
{
	STEP_OK,
	STEP_FAILED,				/* reported, *fatal set */
	STEP_AGAIN					/* met an object made meanwhile: try again */
} step;

/* an object made by someone else since the check: a table of that name, or
 * the row type of a table created concurrently (pg_type's unique index) */
static int
made_meanwhile(const PGresult *r)
{
	const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);

	return state != NULL && (strcmp(state, "23505") == 0 ||	/* unique_violation */
							 strcmp(state, "42P07") == 0 ||	/* duplicate_table */
							 strcmp(state, "42710") == 0);	/* duplicate_object */
}

/* a command inside the creating transaction */
static step
ddl(PGconn *conn, const char *what, const char *sql, int nparams, const char *const *params,
	ExecStatusType want, int *fatal, PGresult **out)
{
	PGresult   *r = PQexecParams(conn, sql, nparams, NULL, params, NULL, NULL, 0);

	if (PQresultStatus(r) == want)
	{
		if (out)
			*out = r;
		else
			PQclear(r);
		return STEP_OK;
	}
	if (PQstatus(conn) != CONNECTION_BAD && made_meanwhile(r))
	{
		PQclear(r);
		return STEP_AGAIN;
	}
	ld_report_failure(conn, r, what, fatal);
	if (*fatal == 0)
		*fatal = EXIT_USAGE;	/* no SSTable can load without the table */
	PQclear(r);
	return STEP_FAILED;
}

/* which of the two tables exist, by the quoted names (to_regclass, from
 * the catalog cache) or, when now is set, by their names as given read
 * from pg_class with the statement's snapshot (in the schema given, else
 * in those of search_path, as to_regclass looks) */
static step
look(PGconn *conn, const ld_options *o, const char *table, const char *keys_table, int now,
	 int *has, int *has_keys, int *fatal)
{
	const char *dot = strrchr(o->table, '.');
	char	   *schema = dot ? strndup(o->table, (size_t) (dot - o->table)) : NULL;
	char	   *name = ld_sqlf("%s", dot ? dot + 1 : o->table);
	char	   *keys_name = ld_sqlf("%s_keys", name);
	const char *params[3];
	PGresult   *r;
	step		st;

	if (!now)
	{
		params[0] = table;
		params[1] = keys_table;
		st = ddl(conn, "looking for the tables",
				 "SELECT to_regclass($1) IS NOT NULL, to_regclass($2) IS NOT NULL",
				 2, params, PGRES_TUPLES_OK, fatal, &r);
	}
	else
	{
		params[0] = schema;
		params[1] = name;
		params[2] = keys_name;
		st = ddl(conn, "looking for the tables",
				 "SELECT count(*) FILTER (WHERE c.relname = $2::name) > 0, "
				 "count(*) FILTER (WHERE c.relname = $3::name) > 0 "
				 "FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n "
				 "ON n.oid = c.relnamespace "
				 "WHERE c.relname IN ($2::name, $3::name) AND "
				 "CASE WHEN $1::text IS NULL THEN n.nspname = ANY (current_schemas(true)) "
				 "ELSE n.nspname = $1::name END",
				 3, params, PGRES_TUPLES_OK, fatal, &r);
	}
	free(schema);
	free(name);
	free(keys_name);
	if (st != STEP_OK)
		return st;
	*has = strcmp(PQgetvalue(r, 0, 0), "t") == 0;
	*has_keys = strcmp(PQgetvalue(r, 0, 1), "t") == 0;
	PQclear(r);
	return STEP_OK;
}

/* the creating transaction: STEP_OK committed, else rolled back */
static step
create_missing(PGconn *conn, const ld_options *o, const char *table, const char *keys_table,
			   int *fatal)
{
	char	   *key = ld_sqlf("bloomcass-load tables %s", table);
	const char *params[1] = {key};
	int			has,
				has_keys,
				made = 0;
	step		st;
	char	   *sql;

	st = ddl(conn, "BEGIN", "BEGIN", 0, NULL, PGRES_COMMAND_OK, fatal, NULL);
	if (st == STEP_OK)
		st = ddl(conn, "waiting for the lock on creating the tables",
				 "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
				 1, params, PGRES_TUPLES_OK, fatal, NULL);
	free(key);
	/* a statement of its own: its snapshot is taken once the lock is held */
	if (st == STEP_OK)
		st = look(conn, o, table, keys_table, 1, &has, &has_keys, fatal);
	if (st == STEP_OK && !has)
	{
		sql = ld_sqlf("CREATE TABLE %s ("
					  "label text NOT NULL, path text NOT NULL, "
					  "keyspace text, table_name text, version text, generation text, "
					  "format text, state text, snapshot text, components text[], "
					  "filter bloom, partitioner text, fp_chance float8, "
					  "partitions bigint, key_type text, first_key bytea, last_key bytea, "
					  "filter_db_bytes bigint, data_db_bytes bigint, modified timestamptz, "
					  "statistics_db bytea, summary_db bytea, toc_txt bytea, "
					  "keys_loaded boolean NOT NULL DEFAULT false, "
					  "loaded_at timestamptz NOT NULL DEFAULT now(), "
					  "PRIMARY KEY (label, path))", table);
		st = ddl(conn, "creating the table", sql, 0, NULL, PGRES_COMMAND_OK, fatal, NULL);
		free(sql);
		made = 1;
	}
	if (st == STEP_OK && !has_keys && (made || o->keys))
	{
		sql = ld_sqlf("CREATE TABLE %s ("
					  "label text NOT NULL, path text NOT NULL, key bytea NOT NULL, "
					  "position bigint, size bigint)",
					  keys_table);
		st = ddl(conn, "creating the keys table", sql, 0, NULL, PGRES_COMMAND_OK, fatal, NULL);
		free(sql);
		if (st == STEP_OK)
		{
			sql = ld_sqlf("CREATE INDEX ON %s (label, path)", keys_table);
			st = ddl(conn, "creating the keys table's index", sql, 0, NULL,
					 PGRES_COMMAND_OK, fatal, NULL);
			free(sql);
		}
		made |= 2;
	}
	if (st == STEP_OK)
		st = ddl(conn, "COMMIT", "COMMIT", 0, NULL, PGRES_COMMAND_OK, fatal, NULL);
	if (st != STEP_OK)
	{
		if (PQstatus(conn) != CONNECTION_BAD)
			PQclear(PQexec(conn, "ROLLBACK"));
		return st;
	}
	if (o->verbose && (made & 1))
		ld_info("created table %s", table);
	if (o->verbose && (made & 2))
		ld_info("created table %s", keys_table);
	return STEP_OK;
}

/* ------------------------------------------------------------------------
 * What the table has: the columns the load writes, each of its type, or
 * it is some other table (a -t naming the wrong one) and nothing is
 * written; and whether it has 1.5's filter_db
 * ------------------------------------------------------------------------ */
static const char *const columns_sql =
	"WITH want(n, name, type) AS (VALUES "
	"(1, 'label', 'text'::regtype), (2, 'path', 'text'), (3, 'keyspace', 'text'), "
	"(4, 'table_name', 'text'), (5, 'version', 'text'), (6, 'generation', 'text'), "
	"(7, 'format', 'text'), (8, 'state', 'text'), (9, 'snapshot', 'text'), "
	"(10, 'components', 'text[]'), (11, 'filter', 'bloom'), (12, 'partitioner', 'text'), "
	"(13, 'fp_chance', 'float8'), (14, 'partitions', 'bigint'), (15, 'key_type', 'text'), "
	"(16, 'first_key', 'bytea'), (17, 'last_key', 'bytea'), (18, 'filter_db_bytes', 'bigint'), "
	"(19, 'data_db_bytes', 'bigint'), (20, 'modified', 'timestamptz'), "
	"(21, 'statistics_db', 'bytea'), (22, 'summary_db', 'bytea'), (23, 'toc_txt', 'bytea'), "
	"(24, 'keys_loaded', 'boolean'), (25, 'loaded_at', 'timestamptz')), "
	"have AS (SELECT attname, atttypid FROM pg_catalog.pg_attribute "
	"WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped) "
	"SELECT coalesce(string_agg(w.name || ' ' || format_type(w.type, NULL), ', ' ORDER BY w.n) "
	"FILTER (WHERE h.attname IS NULL), ''), "
	"coalesce(string_agg(w.name || ' is ' || format_type(h.atttypid, NULL) || ', not ' || "
	"format_type(w.type, NULL), ', ' ORDER BY w.n) "
	"FILTER (WHERE h.atttypid <> w.type), ''), "
	"EXISTS (SELECT FROM have WHERE attname = 'filter_db' AND atttypid = 'bytea'::regtype) "
	"FROM want w LEFT JOIN have h ON h.attname = w.name";

static int
ld_table_check(PGconn *conn, const ld_options *o, const char *table, int *has_filter_db,
			   int *fatal)
{
	const char *params[1] = {table};
	PGresult   *r;
	const char *missing,
			   *wrong;
	int			ok;

	*fatal = 0;
	if (!ld_exec(conn, "reading the table's columns", columns_sql, 1, params, PGRES_TUPLES_OK,
				 fatal, &r))
	{
		if (*fatal == 0)
			*fatal = EXIT_USAGE;
		return 0;
	}
	missing = PQgetvalue(r, 0, 0);
	wrong = PQgetvalue(r, 0, 1);
	ok = missing[0] == '\0' && wrong[0] == '\0';
	if (!ok)
	{
		ld_error("table %s is not a table of bloomcass-load (give -t another name, or let it be created): %s%s%s%s%s",
				 o->table, missing[0] ? "no column " : "", missing,
				 missing[0] && wrong[0] ? "; " : "", wrong[0] ? "column " : "", wrong);
		*fatal = EXIT_USAGE;
	}
	*has_filter_db = strcmp(PQgetvalue(r, 0, 2), "t") == 0;
	PQclear(r);
	return ok;
}

int
ld_tables_prepare(PGconn *conn, const ld_options *o, const char *table, const char *keys_table,
				  int *has_filter_db, int *fatal)
{
	int			has,
				has_keys,
				tries;
	step		st;

	*fatal = 0;
	/* most runs find both: no lock, no transaction (and no need of CREATE
	 * on the schema, which CREATE ... IF NOT EXISTS asks for even when the
	 * table exists) */
	st = look(conn, o, table, keys_table, 0, &has, &has_keys, fatal);
	if (st == STEP_FAILED)
		return 0;
	/* some other table of that name: refused before anything is made */
	if (st == STEP_OK && has && !ld_table_check(conn, o, table, has_filter_db, fatal))
		return 0;
	if (st == STEP_OK && has && (has_keys || !o->keys))
		return 1;
	for (tries = 0; tries < MAX_TRIES; tries++)
	{
		st = create_missing(conn, o, table, keys_table, fatal);
		if (st == STEP_OK)
			return ld_table_check(conn, o, table, has_filter_db, fatal);
		if (st == STEP_FAILED)
			return 0;
		if (o->verbose)
			ld_info("%s: made meanwhile by another session; looking again", table);
	}
	ld_error("creating the tables: another session kept creating %s or %s at the same time (%d tries)",
			 table, keys_table, MAX_TRIES);
	*fatal = EXIT_USAGE;
	return 0;
}

/*
 * Whether the keys table has the position and size columns (made so from
 * 1.6 on; a table made by 1.5 gets them from ALTER TABLE ... ADD COLUMN
 * position bigint, ADD COLUMN size bigint, and keeps loading its keys
 * alone until then): 1 or 0, -1 after an error (reported).
 */
int
ld_keys_table_sized(PGconn *conn, const char *keys_table, int *fatal)
{
	const char *params[1] = {keys_table};
	PGresult   *r;
	int			n;

	if (ddl(conn, "looking at the keys table's columns",
			"SELECT count(*) FROM pg_catalog.pg_attribute "
			"WHERE attrelid = $1::regclass AND attname IN ('position', 'size') "
			"AND attnum > 0 AND NOT attisdropped",
			1, params, PGRES_TUPLES_OK, fatal, &r) != STEP_OK)
		return -1;
	n = atoi(PQgetvalue(r, 0, 0));
	PQclear(r);
	return n == 2;
}
