/*
 * load.h - bloomcass-load: what its parts share.
 *
 * bloomcass-load walks a Cassandra node's data directories with the rules
 * of cassandra_sstables (the core's bc_sstable_name_parse, bc_folder_*,
 * bc_txn_* and bc_sstable_state_of) and uploads every live SSTable's small
 * components into a PostgreSQL table, where the extension's parsers fill
 * the columns cassandra_sstables returns.
 *
 *   main.c      the load loop, signals, exit status
 *   messages.c  messages, memory, the stop flag: below every other part
 *   options.c   the command line: --help, --version, the options
 *   connect.c   the connection to the server, the extension check
 *   walk.c      the directory walk: each SSTable as it is found
 *   tables.c    the two tables, created when missing (under a lock)
 *   upload.c    one transaction per SSTable, sent as one pipeline
 *   row.c       an SSTable's row: its components read and checked
 *   params.c    a statement's parameters in binary format
 *   pipeline.c  statements sent together (libpq's pipeline mode)
 *   copy.c      binary COPY, commands, server errors
 *   progress.c  the progress line on a terminal, the summary line
 *   prune.c     the rows of SSTables gone from the folders walked
 */
#ifndef BLOOMCASS_LOAD_H
#define BLOOMCASS_LOAD_H

#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <time.h>

#include <libpq-fe.h>

#include "bc_codec.h"
#include "bc_compression.h"
#include "bc_data.h"
#include "bc_trie_keys.h"
#include "bc_key_range.h"
#include "bc_sstable_name.h"
#include "bc_walk.h"

/* exit statuses (documented in --help and the README) */
#define EXIT_LOADED 0			/* every SSTable loaded or unchanged */
#define EXIT_SOME_FAILED 1		/* some SSTables (or folders) failed */
#define EXIT_USAGE 2			/* bad options, missing directory, no connection,
								 * no extension */
#define EXIT_CONNECTION_LOST 3	/* the connection broke during the load */
#define EXIT_INTERRUPTED 4		/* SIGINT or SIGTERM: stopped between SSTables */
#define EXIT_NO_SSTABLE 5		/* a DATA_DIR holds no live SSTable (a wrong
								 * path? a disk not mounted? its rows kept
								 * unless --prune-empty), nothing else
								 * failed */

/* one SSTable found by the walk: valid during the call it is given to */
typedef struct ld_sstable
{
	const char *prefix;			/* the real path of its folder/descriptor:
								 * the row's path (bc_walk.h) */
	const char *descriptor;
	const char *keyspace;		/* NULL when the folder does not say */
	const char *table;
	const char *snapshot;
	const char *version;
	const char *generation;
	bc_sstable_format format;
	const char *state;
	int			ncomponents;
	const char **components;	/* sorted as cassandra_sstables sorts them */
	int64_t    *sizes;
	int			has_data;
	time_t		data_mtime;
	int64_t		small_bytes;	/* bytes of the components uploaded */
} ld_sstable;

typedef void (*ld_sstable_fn) (void *arg, const ld_sstable *s);

/* prune.c: what a run walked (its scope), and the rows of its label that
 * are no longer there removed (see prune.c) */
typedef struct ld_scope ld_scope;
struct ld_options;

ld_scope   *ld_scope_new(void);
void		ld_scope_free(ld_scope *s);
/* a folder walked whole below: rows below it may go */
void		ld_scope_add_root(ld_scope *s, const char *dir);
/* a folder (as walked) not read whole: rows below it (as walked and as its
 * real path) stay */
void		ld_scope_exclude(ld_scope *s, const char *dir);
/* a folder given (dir, as given) that yielded no live SSTable: rows below
 * it (as given and as its real path) stay, counted */
void		ld_scope_keep_empty(ld_scope *s, const char *dir);
/* after ld_prune: the rows kept below a folder given to ld_scope_keep_empty */
size_t		ld_scope_kept(const ld_scope *s, const char *dir);
/* a folder whose real path is unknown: nothing is pruned */
void		ld_scope_unknown(ld_scope *s);
/* a live SSTable's path: its row stays */
void		ld_scope_seen(ld_scope *s, const char *path);
int			ld_scope_usable(const ld_scope *s);
/* the server's now(), as text, before the walk (NULL: reported) */
char	   *ld_server_now(PGconn *conn, int *fatal);
/* one transaction under the label's lock (lock_key): the rows of o->label
 * in scope, loaded before since, whose SSTable was not seen, and their
 * keys, removed; *removed of them.  1, or 0 (reported, *fatal set as by
 * ld_report_failure, rolled back) */
int			ld_prune(PGconn *conn, const struct ld_options *o, const char *table,
					 const char *keys_table, const char *lock_key, ld_scope *s,
					 const char *since, size_t *removed, int *fatal);

/* walk.c: every live SSTable below root to fn, in the walk's order, as it
 * is found (nothing kept); the problems printed and counted in *warnings
 * (if not NULL) when report, else silent but for root; with verbose the
 * SSTables not live are named.  With scope (if not NULL) what the walk
 * covers is noted in it: the real path of each folder entered, those not
 * read whole, the live SSTables.  0, or -1 when root is not a readable
 * directory (message printed) */
int			ld_walk(const char *root, int report, int verbose, int *warnings,
					ld_scope *scope, ld_sstable_fn fn, void *arg);
int64_t		ld_component_size(const ld_sstable *s, const char *component);

/* a path made absolute and canonical as the server's canonicalize_path does */
char	   *ld_absolute_path(const char *path);

/* progress.c */
typedef struct ld_progress
{
	int			enabled;		/* a terminal and not --quiet */
	size_t		total;
	int64_t		total_bytes;
	size_t		done;
	int64_t		done_bytes;		/* of the SSTables done: for the time left */
	int64_t		sent_bytes;		/* of those loaded: the summary's "sent" */
	double		start;
	double		last_draw;
	int			drawn;
	int			final;			/* the last line: "done" */
} ld_progress;

double		ld_now(void);
void		ld_progress_start(ld_progress *p, int enabled, size_t total, int64_t total_bytes);
/* an SSTable done: its bytes, and those sent (0 when unchanged or failed) */
void		ld_progress_step(ld_progress *p, int64_t bytes, int64_t sent);
void		ld_progress_clear(ld_progress *p);	/* before a message */
void		ld_progress_end(ld_progress *p);
char	   *ld_human_bytes(int64_t bytes, char *buf, size_t len);
/* one when n is 1, else many */
const char *ld_plural(size_t n, const char *one, const char *many);

/* upload.c */
struct pg_conn;

typedef struct ld_options
{
	const char *label;
	const char *table;			/* as given: [schema.]name */
	int			keys;
	int			verbose;
	int			quiet;
	int			no_prune;		/* --no-prune: keep the rows of SSTables gone */
	int			prune_empty;	/* --prune-empty: and below a DATA_DIR that
								 * yielded no live SSTable */
	int			test_signal_at; /* raise SIGTERM inside SSTable n (tests) */
} ld_options;

typedef enum ld_result
{
	LD_LOADED,
	LD_UNCHANGED,
	LD_FAILED,					/* reported; its transaction rolled back */
	LD_INTERRUPTED,				/* rolled back on a signal */
	LD_FATAL					/* connection lost or a server error every
								 * SSTable would hit: stop */
} ld_result;

/* components.c: an SSTable's components from the node's disk */
#define LD_MAX_SMALL_BYTES ((int64_t) 512 * 1024 * 1024)
#define LD_MAX_FILTER_BYTES ((int64_t) BC_MAX_VALUE_BYTES)

typedef struct blob
{
	uint8_t    *data;
	size_t		len;
	int			present;
} blob;

/* the whole of a component of at most max bytes (when the SSTable has it);
 * 0 after an error, reported */
int			ld_read_component(const ld_sstable *s, const char *component, int64_t max, blob *b);

/* row.c: the components an SSTable's row sends, read and checked */
typedef struct ld_row
{
	blob		filter,
				stats,
				summary,
				toc,
				first,			/* the key range read here (BTI, or no */
				last;			/* Summary.db), else absent */
	int			readable;		/* a version whose components are parsed */
	int			trie;			/* trie-indexed */
	int			summary_range;	/* the key range is Summary.db's */
	int			keys;			/* --keys and it has keys to load */
	const uint8_t *partitioner; /* into stats: Statistics.db's class name */
	size_t		partitioner_len;
} ld_row;

/* 1 read and checked, else 0 (reported); keys: --keys.  ld_row_free
 * after either */
int			ld_row_read(const ld_sstable *s, int keys, ld_row *r);
void		ld_row_free(ld_row *r);

/* the first and last key of a BTI SSTable from its Partitions.db footer */
int			ld_read_partitions_range(const ld_sstable *s, blob *first, blob *last);

/* Index.db in bounded pieces: fn (if not NULL) for every key, stopping when
 * it returns non-zero; first and last (if not NULL) get the first and last
 * key; 0 after an error, reported.  partitioner (the class Statistics.db
 * names, NULL for none): the keys are checked in its order, as
 * cassandra_sstable_keys checks them (not RandomPartitioner's: no MD5
 * here) */
/* a key and its partition's position in the uncompressed Data.db */
typedef int (*ld_key_fn) (void *arg, const uint8_t *key, size_t len, uint64_t position);

int			ld_walk_index(const ld_sstable *s, const uint8_t *partitioner, size_t partitioner_len,
						  ld_key_fn fn, void *arg, blob *first, blob *last);

/* every key of a trie-indexed SSTable in token order, fn as for
 * ld_walk_index; partitioner: the class Statistics.db names */
int			ld_walk_trie_keys(const ld_sstable *s, const uint8_t *partitioner,
							  size_t partitioner_len, ld_key_fn fn, void *arg);

/* the length of the uncompressed Data.db (CompressionInfo.db's, or
 * Data.db's size); 0 after an error, reported.  *unknown: 1, after a
 * warning naming the cause, when CompressionInfo.db is missing though
 * TOC.txt lists it (Data.db is compressed: its uncompressed length is not
 * known, and *length is Data.db's size) */
int			ld_data_length(const ld_sstable *s, uint64_t *length, int *unknown);

/* copy.c: the binary COPY of a load, and server errors */
typedef struct ld_copy
{
	PGconn	   *conn;
	uint8_t    *buf;
	size_t		len;
	int			failed;			/* the connection failed during the COPY */
} ld_copy;

void		ld_copy_init(ld_copy *c, PGconn *conn);
void		ld_copy_free(ld_copy *c);
/* start / end a COPY: 1 when the server took it, else reported, *fatal set
 * as by ld_fatal_status_of */
int			ld_copy_start(ld_copy *c, const char *sql, const char *what, int *fatal);
int			ld_copy_end(ld_copy *c, const char *what, int *fatal);
/* abandon a COPY whose rows could not all be read here (already reported):
 * the server's refusal of it is expected, only a lost connection is
 * reported and sets *fatal */
void		ld_copy_abort(ld_copy *c, const char *what, int *fatal);
/* the fields of a row (a field count first, with ld_put_i16) */
void		ld_put_i16(ld_copy *c, int16_t v);
void		ld_put_i32(ld_copy *c, int32_t v);
void		ld_put_bytes(ld_copy *c, const void *p, size_t n, int present);
void		ld_put_text(ld_copy *c, const char *s);
void		ld_put_bigint(ld_copy *c, int64_t v);

/* params.c: the parameters of a statement, in binary format, as
 * PQexecPrepared takes them; values point into the caller's memory (large
 * ones are not copied) or into buffers freed by ld_params_reset */
#define LD_MAX_PARAMS 32

typedef struct ld_params
{
	int			n;
	const char *values[LD_MAX_PARAMS];	/* NULL for SQL NULL */
	int			lengths[LD_MAX_PARAMS];
	int			formats[LD_MAX_PARAMS];
	char	   *owned[LD_MAX_PARAMS];
	uint8_t		scratch[LD_MAX_PARAMS][8];	/* bigint and boolean values */
} ld_params;

void		ld_params_reset(ld_params *p);	/* frees, then no parameters */
void		ld_param_bytes(ld_params *p, const void *data, size_t len, int present);
void		ld_param_text(ld_params *p, const char *s);	/* NULL: SQL NULL */
void		ld_param_i64(ld_params *p, int64_t v, int present);
void		ld_param_bool(ld_params *p, int v);
void		ld_param_text_array(ld_params *p, const char *const *items, int n);

/* pipeline.c: statements sent in libpq's pipeline mode, one round trip */
#define LD_PIPELINE_MAX 8

typedef struct ld_pipeline
{
	PGconn	   *conn;
	int			n;
	const char *what[LD_PIPELINE_MAX];	/* each step's name in messages */
	ExecStatusType want[LD_PIPELINE_MAX];
	long		rows[LD_PIPELINE_MAX];	/* rows each affected, -1 if none said */
	int			send_failed;	/* 1 + the first statement not sent, or 0 */
	int			stay;			/* ld_pipeline_end: another pipeline follows,
								 * pipeline mode stays on */
} ld_pipeline;

/* pipeline mode on (0 after a report, *fatal set) */
int			ld_pipeline_begin(ld_pipeline *p, PGconn *conn, const char *what, int *fatal);
/* a statement without parameters, or a prepared one's binary or text
 * parameters (sent at once: the values may be freed after the call) */
void		ld_pipeline_sql(ld_pipeline *p, const char *what, ExecStatusType want, const char *sql);
void		ld_pipeline_prepared(ld_pipeline *p, const char *what, ExecStatusType want,
								 const char *name, int n, const char *const *values,
								 const int *lengths, const int *formats);
/* the synchronisation sent, all flushed to the server: 1, else 0 reported
 * with *fatal EXIT_CONNECTION_LOST */
int			ld_pipeline_sync(ld_pipeline *p, int *fatal);
/* after ld_pipeline_sync, every result read, pipeline mode off: 1 when each
 * statement gave its status, else 0 with the first failure reported and
 * *fatal set as by ld_report_failure (EXIT_CONNECTION_LOST when the
 * connection cannot go on) */
int			ld_pipeline_end(ld_pipeline *p, int *fatal);

/* the status to stop the whole load with for a failed command (0 when only
 * the SSTable being loaded is concerned), and the server's message on one
 * line (valid until the next call) */
int			ld_fatal_status_of(PGconn *conn, const PGresult *r);
const char *ld_server_message(PGconn *conn, const PGresult *r);
void		ld_report_failure(PGconn *conn, const PGresult *r, const char *what, int *fatal);
/* run a command with text parameters: 1 when its status is want (*out, if
 * not NULL, then holds the result), else reported as by ld_report_failure */
int			ld_exec(PGconn *conn, const char *what, const char *sql, int nparams,
					const char *const *params, ExecStatusType want, int *fatal,
					PGresult **out);

/* tables.c: names, and the tables made when missing */
char	   *ld_sqlf(const char *fmt,...) __attribute__((format(printf, 1, 2)));
/* [schema.]name + suffix, each part quoted; NULL when libpq refuses it */
char	   *ld_quote_name(PGconn *conn, const char *name, const char *suffix);
/* the table (and the keys table) when missing, under a transaction-level
 * advisory lock so that loaders starting together create them once: the
 * keys table with the first table, or later with --keys; 1 when they are
 * there, else 0 with *fatal set (reported); a table of that name that lacks
 * a column the load writes (or has it of another type) is refused, naming
 * them, before anything is made; *has_filter_db: it also has 1.5's
 * filter_db bytea */
int			ld_tables_prepare(PGconn *conn, const ld_options *o, const char *table,
							  const char *keys_table, int *has_filter_db, int *fatal);
int			ld_keys_table_sized(PGconn *conn, const char *keys_table, int *fatal);

typedef struct ld_uploader ld_uploader;

ld_uploader *ld_upload_begin(struct pg_conn *conn, const ld_options *o, int *fatal_status);

/*
 * One SSTable in three steps, so that the server runs the transactions
 * sent while the next SSTable is read: ld_upload_read reads and checks it
 * (LD_ROW_UNCHANGED when loaded before as it is now; LD_ROW_FAILED
 * reported), ld_upload_send sends its transaction whole into *sent (the
 * row may then be freed but with --keys; 0 after a report, *fatal set),
 * ld_upload_wait reads its results (with --keys, loads its keys: s and
 * row as sent) and ends it.  Transactions are waited for in the order
 * sent; after_another: sent while another's results are still to be read
 * (its transaction then starts with a ROLLBACK, which ends the one before
 * if it failed); more: another is sent after it.  Nothing else uses the
 * connection while one is sent and not waited for.
 */
#define LD_ROW_FAILED 0
#define LD_ROW_READY 1
#define LD_ROW_UNCHANGED 2

typedef struct ld_sent
{
	ld_pipeline pipe;
	char	   *path;			/* the SSTable's, for messages */
	size_t		ordinal;		/* its place in the walk */
	int64_t		bytes;			/* the bytes its load reads */
	int			insert_at;		/* the INSERT's place in the pipeline */
} ld_sent;

int			ld_upload_read(ld_uploader *u, const ld_sstable *s, ld_row *row);
int			ld_upload_send(ld_uploader *u, const ld_sstable *s, const ld_row *row,
						   size_t ordinal, int after_another, ld_sent *sent,
						   int *fatal_status);
ld_result	ld_upload_wait(ld_uploader *u, ld_sent *sent, const ld_sstable *s,
						   const ld_row *row, int more, int *fatal_status);
void		ld_upload_end(ld_uploader *u);
/* ld_prune with the uploader's tables and label lock */
int			ld_upload_prune(ld_uploader *u, ld_scope *s, const char *since, size_t *removed,
							int *fatal);

/* options.c: the command line into o and cp; LD_GO_ON with argv[*first_root]
 * the first data directory, else the status to exit with at once (0 after
 * --help or --version; otherwise reported) */
typedef struct ld_conn_params
{
	const char *host;			/* NULL when not given: libpq's defaults */
	const char *port;
	const char *user;
	const char *dbname;			/* or a conninfo string or URI */
	int			password;		/* LD_PASSWORD_*: -W, -w, neither */
} ld_conn_params;

#define LD_PASSWORD_IF_NEEDED 0 /* asked on a terminal when the server wants one */
#define LD_PASSWORD_ASK 1		/* -W: asked before connecting */
#define LD_PASSWORD_NEVER 2		/* -w: never asked */

#define LD_GO_ON (-1)
int			ld_parse_options(int argc, char **argv, ld_options *o, ld_conn_params *cp,
							 int *first_root);

/* connect.c: the connection (keepalives on, PG* variables and ~/.pgpass
 * apply, the password asked as cp->password says); NULL when it failed,
 * reported (a missing password: where to give it) */
PGconn	   *ld_connect(const ld_conn_params *cp);
/* 0 when the database has the bloomcass extension, else the exit status
 * (reported: "run CREATE EXTENSION bloomcass") */
int			ld_check_extension(PGconn *conn);

/* message helpers (messages.c): to stderr, clearing the progress line first */
extern ld_progress *ld_current_progress;
void		ld_error(const char *fmt,...) __attribute__((format(printf, 1, 2)));
void		ld_info(const char *fmt,...) __attribute__((format(printf, 1, 2)));
/* a note that changes nothing of the exit status: "bloomcass-load:
 * warning: ...", not printed with --quiet (ld_set_quiet) */
void		ld_warning(const char *fmt,...) __attribute__((format(printf, 1, 2)));
void		ld_set_quiet(int on);
/* from ld_messages_hold on, messages are kept (those of an SSTable read
 * while others are in the server's hands); ld_messages_take ends that and
 * gives them (NULL when none), to print with ld_messages_print */
void		ld_messages_hold(void);
char	   *ld_messages_take(void);
void		ld_messages_print(const char *held);

/* malloc and realloc that exit (EXIT_USAGE) when memory runs out */
void	   *ld_xmalloc(size_t n);
void	   *ld_xrealloc(void *p, size_t n);

/* set by SIGINT and SIGTERM (main.c's handler): the load stops */
extern volatile sig_atomic_t ld_stop_requested;

#endif							/* BLOOMCASS_LOAD_H */
