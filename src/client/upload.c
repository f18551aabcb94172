/*
 * upload.c - one SSTable, one transaction.
 *
 * The components are read and checked first (row.c: a corrupt SSTable is
 * reported with its file before anything is sent), then
 *
 *   BEGIN
 *   SELECT pg_advisory_xact_lock(hashtextextended('bloomcass-load label '
 *                                   || table || ' ' || label, 0))
 *   DELETE FROM <table> WHERE (label, path) = the SSTable's
 *          AND NOT (its Data.db size and time [and keys] unchanged)
 *   INSERT INTO <table> SELECT ... bloom_import(filter_db, version),
 *          cassandra_statistics(statistics_db, version),
 *          cassandra_summary(summary_db, version) ... FROM the row's values
 *          (the Filter.db bytes kept only as filter, but in a table made by
 *          1.5, which has filter_db too: tables.c),
 *          sent as the parameters of a prepared statement in binary format,
 *          WHERE NOT EXISTS (its row)  (a row left is unchanged: 0 rows,
 *          the SSTable skipped)
 *   [--keys, once the INSERT has added the row: DELETE FROM <table>_keys
 *          ...; COPY <table>_keys FROM STDIN]
 *   COMMIT
 *
 * sent as one pipeline (pipeline.c), so one round trip (two more with
 * --keys, whose COPY cannot be in a pipeline), and
 * so the filter, Statistics.db facts and (from Summary.db) the key range
 * are computed on the server by the same parsers as cassandra_sstables.
 * ld_upload_send sends the pipeline, ld_upload_wait reads its results:
 * between the two the load reads the next SSTable (main.c) while the
 * server runs this one's transaction.
 *
 * The row goes straight into the INSERT: staged first in a temporary table
 * (a binary COPY), its bytes were written and read back once more, and the
 * temporary table truncated at every COMMIT (ON COMMIT DELETE ROWS).
 *
 * The lock serialises the transactions of the loads of one label into one
 * table (two cron runs of a node overlapping, or started twice): the second
 * to reach an SSTable waits for the first's transaction, then finds its row
 * (the DELETE and the INSERT are statements of their own, after the lock's,
 * so that their snapshots are taken once the lock is held) and skips it as
 * unchanged; without the lock both
 * inserted, and the second failed on the primary key.  Each SSTable's row
 * and keys are so written once, by whichever load got there first, and a
 * changed SSTable (Data.db's size or time) is still replaced.  Loads of
 * different labels never wait for each other (but for a hash collision of
 * their lock keys, which only serialises them).
 */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "bc_codec.h"
#include "bc_filter.h"
#include "bc_index.h"
#include "bc_partition_sizes.h"
#include "bc_sstable_name.h"
#include "load.h"


typedef struct known
{
	char	   *path;
	int64_t		data_bytes;
	int64_t		modified;
	int			keys_loaded;
} known;

struct ld_uploader
{
	PGconn	   *conn;
	const ld_options *o;
	char	   *table;			/* quoted [schema.]name */
	char	   *keys_table;		/* quoted [schema.]name_keys */
	known	   *known;
	size_t		nknown;
	char	   *lock_key;		/* the label's advisory lock, as text */
	char	   *insert_sql;
	char	   *delete_sql;
	char	   *delete_keys_sql;
	char	   *copy_keys_sql;
	bc_partition_sizes *sizes;	/* --keys into a table with position, size */
	ld_copy		copy;			/* the binary COPY in progress */
	ld_params	params;			/* the row of the INSERT */
};

/* the prepared statements' names (once per connection) */
#define LOCK_STATEMENT "bloomcass_load_lock"
#define DELETE_STATEMENT "bloomcass_load_delete"
#define INSERT_STATEMENT "bloomcass_load_insert"


/* run a command; on failure report it and set *fatal (0 when not) */
static int
run(ld_uploader *u, const char *what, const char *sql, int nparams,
	const char *const *params, ExecStatusType want, int *fatal, PGresult **out)
{
	return ld_exec(u->conn, what, sql, nparams, params, want, fatal, out);
}

/* prepare a statement of the load under name; on failure as run() */
static int
prepare(ld_uploader *u, const char *name, const char *sql, int *fatal)
{
	PGresult   *r = PQprepare(u->conn, name, sql, 0, NULL);
	int			ok = PQresultStatus(r) == PGRES_COMMAND_OK;

	if (!ok)
		ld_report_failure(u->conn, r, "preparing the statements of the load", fatal);
	PQclear(r);
	return ok;
}

/* ------------------------------------------------------------------------
 * Start: tables, the INSERT, what is loaded already
 * ------------------------------------------------------------------------ */
static int
known_cmp(const void *a, const void *b)
{
	return strcmp(((const known *) a)->path, ((const known *) b)->path);
}

/* a row of path, coalesce(data_db_bytes, -1),
 * coalesce(extract(epoch FROM modified)::bigint, -1), keys_loaded */
static void
known_of(const PGresult *r, int row, known *k)
{
	k->data_bytes = strtoll(PQgetvalue(r, row, 1), NULL, 10);
	k->modified = strtoll(PQgetvalue(r, row, 2), NULL, 10);
	k->keys_loaded = strcmp(PQgetvalue(r, row, 3), "t") == 0;
}

/* loaded already as the SSTable is now: same Data.db size and time, and
 * its keys if --keys */
static int
known_unchanged(const ld_uploader *u, const known *k, const ld_sstable *s)
{
	return k->data_bytes == ld_component_size(s, "Data.db") &&
		k->modified == (int64_t) s->data_mtime && (!u->o->keys || k->keys_loaded);
}

/* the notices of the connection, but the warning of a ROLLBACK with no
 * transaction in progress (ld_upload_send's, after a transaction that
 * succeeded), and none with --quiet (errors only) */
static PQnoticeReceiver libpq_receiver;
static int	notices_quiet;

static void
notice(void *arg, const PGresult *r)
{
	const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);

	(void) arg;
	if (notices_quiet || (state != NULL && strcmp(state, "25P01") == 0))
		return;
	if (libpq_receiver)
		libpq_receiver(NULL, r);
}

ld_uploader *
ld_upload_begin(PGconn *conn, const ld_options *o, int *fatal)
{
	ld_uploader *u = calloc(1, sizeof(ld_uploader));
	PGresult   *r;
	const char *params[2];
	char	   *sql;
	int			i,
				has_filter_db;

	u->conn = conn;
	u->o = o;
	/* libpq's own takes no argument: it prints through the connection's
	 * notice processor */
	notices_quiet = o->quiet;
	libpq_receiver = PQsetNoticeReceiver(conn, notice, NULL);
	u->table = ld_quote_name(conn, o->table, "");
	u->keys_table = ld_quote_name(conn, o->table, "_keys");
	ld_copy_init(&u->copy, conn);
	if (u->table == NULL || u->keys_table == NULL)
	{
		ld_error("invalid table name \"%s\": %s", o->table, PQerrorMessage(conn));
		*fatal = EXIT_USAGE;
		return NULL;
	}

	if (!ld_tables_prepare(conn, o, u->table, u->keys_table, &has_filter_db, fatal))
		return NULL;
	if (o->keys)
	{
		int			sized = ld_keys_table_sized(conn, u->keys_table, fatal);

		if (sized < 0)
			return NULL;
		if (sized)
			u->sizes = ld_xmalloc(sizeof(bc_partition_sizes));
		else
			ld_warning("%s has no position and size columns: loading its keys alone "
					"(ALTER TABLE %s ADD COLUMN position bigint, ADD COLUMN size bigint "
					"loads them too)", u->keys_table, u->keys_table);
	}

	/* what this label has loaded */
	sql = ld_sqlf("SELECT path, coalesce(data_db_bytes, -1), "
				  "coalesce(extract(epoch FROM modified)::bigint, -1), keys_loaded "
				  "FROM %s WHERE label = $1", u->table);
	params[0] = o->label;
	if (!run(u, "reading what is loaded already", sql, 1, params, PGRES_TUPLES_OK, fatal, &r))
		return NULL;
	free(sql);
	u->nknown = (size_t) PQntuples(r);
	u->known = calloc(u->nknown ? u->nknown : 1, sizeof(known));
	for (i = 0; i < (int) u->nknown; i++)
	{
		u->known[i].path = strdup(PQgetvalue(r, i, 0));
		known_of(r, i, &u->known[i]);
	}
	PQclear(r);
	qsort(u->known, u->nknown, sizeof(known), known_cmp);

	u->lock_key = ld_sqlf("bloomcass-load label %s %s", u->table, o->label);
	/* the row unless unchanged: as known_unchanged, NULLs as known_of reads them */
	/*
	 * (Only immutable functions: Citus refuses a modification whose CASE or
	 * COALESCE holds another, and extract(epoch FROM timestamptz) is stable;
	 * modified is always whole seconds, to_timestamp of the file's.)
	 */
	u->delete_sql = ld_sqlf("DELETE FROM %s WHERE label = $1 AND path = $2 AND NOT ("
							"coalesce(data_db_bytes, -1) = $3::bigint AND "
							"CASE WHEN modified IS NULL THEN $4::bigint = -1 "
							"ELSE modified = to_timestamp($4::bigint) END AND "
							"(NOT $5::boolean OR keys_loaded IS TRUE))", u->table);
	u->delete_keys_sql = ld_sqlf("DELETE FROM %s WHERE label = $1 AND path = $2", u->keys_table);
	u->copy_keys_sql = ld_sqlf(u->sizes ?
							   "COPY %s (label, path, key, position, size) FROM STDIN (FORMAT binary)" :
							   "COPY %s (label, path, key) FROM STDIN (FORMAT binary)", u->keys_table);
	u->insert_sql = ld_sqlf(
						 "INSERT INTO %s (label, path, keyspace, table_name, version, generation, "
						 "format, state, snapshot, components, filter, partitioner, fp_chance, "
						 "partitions, key_type, first_key, last_key, filter_db_bytes, "
						 "data_db_bytes, modified, %sstatistics_db, summary_db, "
						 "toc_txt, keys_loaded, loaded_at) "
						 "SELECT s.label, s.path, s.keyspace, s.table_name, s.version, "
						 "s.generation, s.format, s.state, s.snapshot, s.components, "
						 "CASE WHEN s.readable THEN bloom_import(s.filter_db, s.version) END, "
						 "st.partitioner, st.fp_chance, st.partitions, st.key_type, "
						 "CASE WHEN s.summary_range THEN sm.first_key ELSE s.first_key END, "
						 "CASE WHEN s.summary_range THEN sm.last_key ELSE s.last_key END, "
						 "s.filter_db_bytes, s.data_db_bytes, to_timestamp(s.modified), "
						 "%ss.statistics_db, s.summary_db, s.toc_txt, "
						 "s.keys_loaded, now() "
						 "FROM (SELECT $1::text AS label, $2::text AS path, $3::text AS keyspace, "
						 "$4::text AS table_name, $5::text AS version, $6::text AS generation, "
						 "$7::text AS format, $8::text AS state, $9::text AS snapshot, "
						 "$10::text[] AS components, $11::bytea AS filter_db, "
						 "$12::bytea AS statistics_db, $13::bytea AS summary_db, "
						 "$14::bytea AS toc_txt, $15::bigint AS filter_db_bytes, "
						 "$16::bigint AS data_db_bytes, $17::bigint AS modified, "
						 "$18::boolean AS readable, $19::boolean AS summary_range, "
						 "$20::bytea AS first_key, $21::bytea AS last_key, "
						 "$22::boolean AS keys_loaded) s "
						 "LEFT JOIN LATERAL cassandra_statistics("
						 "CASE WHEN s.readable THEN s.statistics_db END, s.version) st ON true "
						 "LEFT JOIN LATERAL cassandra_summary("
						 "CASE WHEN s.summary_range THEN s.summary_db END, s.version) sm ON true "
						 "WHERE NOT EXISTS (SELECT FROM %s x WHERE x.label = s.label AND x.path = s.path)",
						 u->table, has_filter_db ? "filter_db, " : "",
						 has_filter_db ? "s.filter_db, " : "", u->table);
	if (!prepare(u, LOCK_STATEMENT, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", fatal) ||
		!prepare(u, DELETE_STATEMENT, u->delete_sql, fatal) ||
		!prepare(u, INSERT_STATEMENT, u->insert_sql, fatal))
		return NULL;
	return u;
}

int
ld_upload_prune(ld_uploader *u, ld_scope *s, const char *since, size_t *removed, int *fatal)
{
	return ld_prune(u->conn, u->o, u->table, u->keys_table, u->lock_key, s, since, removed, fatal);
}

void
ld_upload_end(ld_uploader *u)
{
	size_t		i;

	if (u == NULL)
		return;
	for (i = 0; i < u->nknown; i++)
		free(u->known[i].path);
	free(u->known);
	free(u->table);
	free(u->keys_table);
	free(u->lock_key);
	free(u->insert_sql);
	free(u->delete_sql);
	free(u->delete_keys_sql);
	free(u->copy_keys_sql);
	free(u->sizes);
	ld_copy_free(&u->copy);
	ld_params_reset(&u->params);
	free(u);
}

typedef struct key_sink
{
	ld_uploader *u;
	const ld_sstable *s;
	uint64_t	count;
	int			trie;
	int			unknown_end;	/* positions passed the data's end */
} key_sink;

/* a row of the keys table: with its position and size when sized */
static int
put_key_row(key_sink *k, const uint8_t *key, size_t len, const bc_partition *p)
{
	ld_put_i16(&k->u->copy, p ? 5 : 3);
	ld_put_text(&k->u->copy, k->u->o->label);
	ld_put_text(&k->u->copy, k->s->prefix);
	ld_put_bytes(&k->u->copy, key, len, 1);
	if (p)
	{
		ld_put_bigint(&k->u->copy, (int64_t) p->position);
		if (p->size == UINT64_MAX)
			ld_put_bytes(&k->u->copy, NULL, 0, 0);
		else
			ld_put_bigint(&k->u->copy, (int64_t) p->size);
	}
	k->count++;
	return k->u->copy.failed;
}

/*
 * A key of the walk (ld_key_fn): written at once, or, with position and
 * size, when the next one's position gives its size (the core's
 * bc_partition_sizes, as cassandra_sstable_partitions)
 */
static int
key_row(void *arg, const uint8_t *key, size_t len, uint64_t position)
{
	key_sink   *k = arg;
	bc_partition p;
	int			got;
	bc_status	st;

	if (k->u->sizes == NULL)
		return put_key_row(k, key, len, NULL);
	st = bc_partition_sizes_add(k->u->sizes, key, len, position, &p, &got);
	if (st == BC_ERR_PARTITION_POSITION && !k->unknown_end && position > k->u->sizes->data_length)
	{
		/*
		 * The index goes past the end of the data (a compressed Data.db
		 * without its CompressionInfo.db, or one cut short): the sizes
		 * between positions stand, the end is unknown; the keys load, the
		 * last size NULL, as cassandra_sstable_partitions would refuse.
		 */
		ld_warning("%s: %s: a partition's position passes the end of the uncompressed Data.db "
				 "(%llu bytes): the last partition's size is left NULL", k->s->prefix,
				 k->trie ? "Partitions.db" : "Index.db",
				 (unsigned long long) k->u->sizes->data_length);
		k->unknown_end = 1;
		bc_partition_sizes_unknown_end(k->u->sizes);
		st = bc_partition_sizes_add(k->u->sizes, key, len, position, &p, &got);
	}
	if (st != BC_OK)
	{
		ld_error("%s: %s: %s", k->s->prefix, k->trie ? "Partitions.db" : "Index.db",
				 bc_status_message(st));
		return 1;
	}
	return got ? put_key_row(k, p.key, p.key_len, &p) : 0;
}

/* ------------------------------------------------------------------------
 * One SSTable
 * ------------------------------------------------------------------------ */
static void
rollback(ld_uploader *u)
{
	PGresult   *r;

	if (PQstatus(u->conn) == CONNECTION_BAD)
		return;
	r = PQexec(u->conn, "ROLLBACK");
	PQclear(r);
}

int
ld_upload_read(ld_uploader *u, const ld_sstable *s, ld_row *row)
{
	known		probe,
			   *k;

	memset(row, 0, sizeof(*row));
	/* unchanged: same label, path, Data.db size and modification time */
	probe.path = (char *) s->prefix;
	k = u->nknown ? bsearch(&probe, u->known, u->nknown, sizeof(known), known_cmp) : NULL;
	if (k != NULL && known_unchanged(u, k, s))
		return LD_ROW_UNCHANGED;
	return ld_row_read(s, u->o->keys, row) ? LD_ROW_READY : LD_ROW_FAILED;
}

int
ld_upload_send(ld_uploader *u, const ld_sstable *s, const ld_row *row, size_t ordinal,
			   int after_another, ld_sent *sent, int *fatal)
{
	int64_t		data_bytes = ld_component_size(s, "Data.db");
	int64_t		filter_bytes = ld_component_size(s, "Filter.db");
	const char *params[5];
	char		bytes_text[24],
				mtime_text[24];
	ld_pipeline *pipe = &sent->pipe;
	const char *path;

	*fatal = 0;
	sent->path = ld_xmalloc(strlen(s->prefix) + 1);
	strcpy(sent->path, s->prefix);
	sent->ordinal = ordinal;
	path = sent->path;

	/*
	 * One pipeline, one round trip: BEGIN; the label's lock; then, each a
	 * statement of its own whose snapshot sees what another load of the
	 * label committed before we got the lock, the DELETE of the SSTable's
	 * row unless it is unchanged, and the INSERT unless a row is left
	 * (unchanged: nothing done); without --keys, COMMIT.  Sent and
	 * synchronised here, its results read by ld_upload_wait: the server
	 * runs it while the next SSTable is read.
	 */
	if (!ld_pipeline_begin(pipe, u->conn, path, fatal))
		return 0;
	/* the transaction before, if it failed, is left failed: ended here (if
	 * it did not, "no transaction in progress" is a warning, not shown) */
	if (after_another)
		ld_pipeline_sql(pipe, "ROLLBACK", PGRES_COMMAND_OK, "ROLLBACK");
	ld_pipeline_sql(pipe, "BEGIN", PGRES_COMMAND_OK, "BEGIN");
	params[0] = u->lock_key;
	ld_pipeline_prepared(pipe, path, PGRES_TUPLES_OK, LOCK_STATEMENT, 1, params, NULL, NULL);
	snprintf(bytes_text, sizeof(bytes_text), "%lld", (long long) data_bytes);
	snprintf(mtime_text, sizeof(mtime_text), "%lld", (long long) s->data_mtime);
	params[0] = u->o->label;
	params[1] = s->prefix;
	params[2] = bytes_text;
	params[3] = mtime_text;
	params[4] = u->o->keys ? "t" : "f";
	ld_pipeline_prepared(pipe, path, PGRES_COMMAND_OK, DELETE_STATEMENT, 5, params, NULL, NULL);

	/* the row, $1 .. $22 of the INSERT */
	ld_params_reset(&u->params);
	ld_param_text(&u->params, u->o->label);
	ld_param_text(&u->params, s->prefix);
	ld_param_text(&u->params, s->keyspace);
	ld_param_text(&u->params, s->table);
	ld_param_text(&u->params, s->version);
	ld_param_text(&u->params, s->generation);
	ld_param_text(&u->params, s->format == BC_SSTABLE_BTI ? "bti" : "big");
	ld_param_text(&u->params, s->state);
	ld_param_text(&u->params, s->snapshot);
	ld_param_text_array(&u->params, s->components, s->ncomponents);
	ld_param_bytes(&u->params, row->filter.data, row->filter.len, row->filter.present);
	ld_param_bytes(&u->params, row->stats.data, row->stats.len, row->stats.present);
	ld_param_bytes(&u->params, row->summary.data, row->summary.len, row->summary.present);
	ld_param_bytes(&u->params, row->toc.data, row->toc.len, row->toc.present);
	ld_param_i64(&u->params, filter_bytes, filter_bytes >= 0);
	ld_param_i64(&u->params, data_bytes, data_bytes >= 0);
	ld_param_i64(&u->params, (int64_t) s->data_mtime, s->has_data);
	ld_param_bool(&u->params, row->readable);
	ld_param_bool(&u->params, row->summary_range);
	ld_param_bytes(&u->params, row->first.data, row->first.len, row->first.present);
	ld_param_bytes(&u->params, row->last.data, row->last.len, row->last.present);
	ld_param_bool(&u->params, u->o->keys);
	sent->insert_at = pipe->n;
	ld_pipeline_prepared(pipe, path, PGRES_COMMAND_OK, INSERT_STATEMENT, u->params.n,
						 u->params.values, u->params.lengths, u->params.formats);
	ld_params_reset(&u->params);
	if (!u->o->keys)
	{
		/* tests: a signal in the middle of an SSTable's transaction */
		if (u->o->test_signal_at > 0 && ordinal == (size_t) u->o->test_signal_at)
			raise(SIGTERM);
		if (ld_stop_requested)
			ld_pipeline_sql(pipe, "ROLLBACK", PGRES_COMMAND_OK, "ROLLBACK");
		else
			ld_pipeline_sql(pipe, "COMMIT", PGRES_COMMAND_OK, "COMMIT");
	}
	return ld_pipeline_sync(pipe, fatal);
}

ld_result
ld_upload_wait(ld_uploader *u, ld_sent *sent, const ld_sstable *s, const ld_row *row, int more,
			   int *fatal)
{
	ld_pipeline *pipe = &sent->pipe;
	const char *params[2];
	ld_result	result = LD_FAILED;

	*fatal = 0;
	pipe->stay = more;
	if (!ld_pipeline_end(pipe, fatal))
		goto fail;
	if (pipe->rows[sent->insert_at] == 0)
	{
		/* a row is left: the SSTable is loaded as it is now */
		if (u->o->keys)
			rollback(u);
		result = LD_UNCHANGED;
		goto done;
	}
	if (!u->o->keys)
	{
		if (strcmp(pipe->what[pipe->n - 1], "ROLLBACK") == 0)
			result = LD_INTERRUPTED;
		else
			result = LD_LOADED;
		goto done;
	}

	/* --keys: its keys, then COMMIT */
	params[0] = u->o->label;
	params[1] = s->prefix;
	if (!run(u, s->prefix, u->delete_keys_sql, 2, params, PGRES_COMMAND_OK, fatal, NULL))
		goto fail;
	if (row->keys)
	{
		key_sink	sink = {u, s, 0, row->trie, 0};
		uint64_t	data_length = 0;
		bc_partition p;
		int			got = 0;

		if (u->sizes != NULL)
		{
			int			unknown;

			if (!ld_data_length(s, &data_length, &unknown))
				goto fail;
			bc_partition_sizes_init(u->sizes, data_length);
			if (unknown)
			{
				/* said by ld_data_length */
				sink.unknown_end = 1;
				bc_partition_sizes_unknown_end(u->sizes);
			}
		}
		if (!ld_copy_start(&u->copy, u->copy_keys_sql, s->prefix, fatal))
			goto fail;
		if (row->trie ? !ld_walk_trie_keys(s, row->partitioner, row->partitioner_len, key_row, &sink) :
			!ld_walk_index(s, row->partitioner, row->partitioner_len, key_row, &sink, NULL, NULL))
		{
			ld_copy_abort(&u->copy, s->prefix, fatal);
			goto fail;
		}
		/* the last partition, sized to the end of the data */
		if (u->sizes != NULL)
			bc_partition_sizes_end(u->sizes, &p, &got);
		if (got && sink.unknown_end)
			p.size = UINT64_MAX;	/* NULL */
		if (got && put_key_row(&sink, p.key, p.key_len, &p))
		{
			ld_copy_abort(&u->copy, s->prefix, fatal);
			goto fail;
		}
		if (!ld_copy_end(&u->copy, s->prefix, fatal))
			goto fail;
	}

	/* tests: a signal in the middle of an SSTable's transaction */
	if (u->o->test_signal_at > 0 && sent->ordinal == (size_t) u->o->test_signal_at)
		raise(SIGTERM);
	if (ld_stop_requested)
	{
		rollback(u);
		result = LD_INTERRUPTED;
		goto done;
	}
	if (!run(u, "COMMIT", "COMMIT", 0, NULL, PGRES_COMMAND_OK, fatal, NULL))
		goto fail;
	result = LD_LOADED;
	goto done;

fail:
	/* else the next transaction starts with its ROLLBACK */
	if (*fatal != EXIT_CONNECTION_LOST && !more)
		rollback(u);
	if (ld_stop_requested && *fatal == 0)
		result = LD_INTERRUPTED;
done:
	if (*fatal)
		result = LD_FATAL;
	return result;
}
