/*
 * bloom_sstable_dir.c - cassandra_sstables(data_dir): one row per SSTable
 * found below a folder of a Cassandra or ScyllaDB node (its data directory,
 * a keyspace's or a table's folder, or a copy of any of them).
 *
 * The walk is the core's (bc_walk.c), shared with bloomcass-load; this file
 * gives it the server's directory reading, stat, file reads and memory, and
 * turns what it reports into rows and WARNINGs.  What a folder means
 * follows Cassandra's Descriptor and Directories:
 *
 *   <keyspace>/<table>[-<id>]/                  the table's live SSTables
 *   <keyspace>/<table>[-<id>]/.<index>/         a secondary index's
 *   .../<table>[-<id>]/snapshots/<tag>/         a snapshot
 *   .../<table>[-<id>]/backups/                 incremental backups
 *   .../<table>-<id>/staging/, quarantine/      ScyllaDB's, read by its
 *                                               table (states staging,
 *                                               quarantine)
 *   .../<table>-<id>/upload/                    ScyllaDB's, not yet the
 *                                               table's (state upload)
 *
 * (bc_sstable_dir.c gives the sources) and the state of an SSTable in a
 * table folder, in staging/ or in quarantine/:
 *
 *   temporary  tmp- or tmplink- in its name (2.x), ScyllaDB's TOC.txt.tmp
 *              or TemporaryHashes.db.tmp among its components (being
 *              written or deleted), or written by an operation whose
 *              transaction log (3.0+) did not commit
 *   obsolete   replaced by an operation whose log committed: its files
 *              are about to be deleted
 *   orphaned   components without a Data.db (Cassandra deletes them at
 *              startup)
 *   live       anything else
 *
 * By default only the SSTables a table reads are listed (live, staging,
 * quarantine; the snapshots/ and backups/ folders are not entered);
 * include_inactive lists all of them with their state.  Names that are not SSTable components are ignored, and so is
 * anything that is not a regular file (a FIFO, socket or device is never
 * opened: bloom_files.c refuses one met anyway with 42809).  Symbolic
 * links are followed (Cassandra's data folders are often links to other
 * disks), but each directory is walked once: one met again (a link back up
 * the tree, or a second link to one walked) is skipped with a WARNING.
 * The path of an SSTable is the real path of its folder (links, "." and
 * ".." resolved, a bind mount's folder by one mount point: walk_real_path)
 * and its descriptor, as bloomcass-load
 * stores it: one SSTable, one path, whichever way it was reached.
 *
 * Privileges: the folder given passes bloom_file_path (pg_read_binary_file's
 * rule) first, which decides as pg_read_binary_file does for every path
 * below it: the walk reaches a file by that folder's path and names read
 * from its directories (never "." or ".."), which stays below the data
 * directory (or the log directory, or the relative path stays below the
 * working directory) whenever the folder's does, links not resolved, as
 * pg_read_binary_file resolves none.  The files are then read by their
 * real paths (the same files) without a second check: a check of those
 * would refuse a role with EXECUTE on pg_read_binary_file alone a folder
 * below the data directory that holds links leading outside it, whose
 * files pg_read_binary_file gives that role by the paths through the links
 * (sql/33_data_dir_links.sql).  A real path outside, given back to another
 * function, is refused as pg_read_binary_file refuses it.
 */
#include "postgres.h"

#include <dirent.h>

#include "funcapi.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "bc_sstable_dir.h"
#include "bc_walk.h"
#include "bloom_sstable.h"

enum
{
	COL_KEYSPACE, COL_TABLE, COL_VERSION, COL_GENERATION, COL_FORMAT, COL_STATE,
	COL_SNAPSHOT, COL_PATH, COL_COMPONENTS, COL_FILTER, COL_PARTITIONER,
	COL_FP_CHANCE, COL_PARTITIONS, COL_KEY_TYPE, COL_FIRST_KEY, COL_LAST_KEY,
	COL_FILTER_DB_BYTES, COL_DATA_DB_BYTES, COL_MODIFIED,
	/* 1.6: Statistics.db's stats, as cassandra_metadata gives them */
	COL_MIN_TIMESTAMP, COL_MAX_TIMESTAMP, COL_MIN_LDT, COL_MAX_LDT, COL_MIN_TTL,
	COL_MAX_TTL, COL_LEVEL, COL_REPAIRED_AT, COL_PENDING_REPAIR, COL_IS_TRANSIENT,
	NCOLS
};

/*
 * The listing's state across its calls: one row per call (ValuePerCall),
 * the walk advanced by one SSTable each time, so that nothing of the rows
 * given before is kept.  In the select list (ProjectSet) the rows stream;
 * in FROM, PostgreSQL's FunctionScan collects them in a tuplestore first,
 * as it does for any set-returning function.
 */
typedef struct Walk
{
	TupleDesc	desc;
	bool		include_inactive;
	bool		read_filters;
	bc_walk    *walk;
	MemoryContext walkcxt;		/* the core walk's memory */
	MemoryContext rowcxt;		/* one row's, reset at the next call */
} Walk;

/* the last element of a path */
static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void *
walk_alloc(void *arg, size_t size)
{
	return MemoryContextAllocHuge(((Walk *) arg)->walkcxt, size);
}

static void
walk_release(void *arg, void *p)
{
	pfree(p);
}

/*
 * Whether the row reports a component's size or time, so that the listing
 * must stat it: filter_db_bytes (Filter.db), data_db_bytes and modified
 * (Data.db).  The other components' rows need only know they exist.
 */
static bool
needs_stat(const char *name)
{
	size_t		len = strlen(name);

	return (len >= 8 && strcmp(name + len - 8, "-Data.db") == 0) ||
		(len >= 10 && strcmp(name + len - 10, "-Filter.db") == 0);
}

/*
 * What the listing says of a name in the directory open as d: its type
 * from the directory entry where that is enough (a folder is stat'ed by
 * the walk when it is entered; a regular file whose size and time the row
 * does not report, with size -1), else a stat of it (links, followed; a
 * file system that does not give the type; Data.db and Filter.db).
 */
static void
entry_stat(DIR *d, const struct dirent *de, bc_walk_stat *st)
{
	memset(st, 0, sizeof(*st));
	switch (de->d_type)
	{
		case DT_DIR:
			st->type = BC_WALK_DIRECTORY;
			return;
		case DT_REG:
			if (needs_stat(de->d_name))
				break;
			st->type = BC_WALK_REGULAR;
			st->size = -1;
			return;
		case DT_LNK:
		case DT_UNKNOWN:
			break;
		default:
			/* a device, FIFO or socket */
			st->type = BC_WALK_OTHER;
			return;
	}
	bc_walk_stat_posix_at(dirfd(d), de->d_name, st);
}

/* the names in a directory; false (after a WARNING) if unreadable */
static int
walk_list(void *arg, bc_walk *w, const char *dir, int root)
{
	DIR		   *d;
	struct dirent *de;

	CHECK_FOR_INTERRUPTS();
	check_stack_depth();

	d = AllocateDir(dir);
	if (d == NULL)
	{
		int			e = errno;

		if (root)
			ereport(ERROR,
					(bloom_file_errcodes(e),
					 errmsg("could not open directory \"%s\": %m", dir)));
		ereport(WARNING,
				(bloom_file_errcodes(e),
				 errmsg("skipping directory %s: could not open it: %m", base_name(dir)),
				 errdetail("The directory is \"%s\".", dir)));
		return 0;
	}
	for (;;)
	{
		int			e;

		CHECK_FOR_INTERRUPTS();
		/* ReadDirExtended, with the SQLSTATE of bloom_file_errcode */
		errno = 0;
		de = readdir(d);
		e = errno;
		if (de == NULL)
		{
			if (e != 0)
			{
				if (root)
					ereport(ERROR,
							(bloom_file_errcodes(e),
							 errmsg("could not read directory \"%s\": %m", dir)));
				ereport(WARNING,
						(bloom_file_errcodes(e),
						 errmsg("skipping the rest of directory %s: could not read it: %m",
								base_name(dir)),
						 errdetail("The directory is \"%s\".", dir)));
			}
			break;
		}
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
		{
			bc_walk_stat st;

			entry_stat(d, de, &st);
			bc_walk_add_name_stat(w, de->d_name, &st);
		}
	}
	FreeDir(d);
	return 1;
}

/* a transaction log, whole; NULL (after a WARNING) if unreadable */
static char *
walk_read_log(void *arg, const char *path, size_t max, size_t *len)
{
	char	   *err = NULL;
	char	   *data;
	int			e;
	MemoryContext old = MemoryContextSwitchTo(((Walk *) arg)->walkcxt);

	/* below the folder given: no second check (see the header) */
	data = (char *) bloom_file_read_all(path, max, len, &err);
	e = errno;
	MemoryContextSwitchTo(old);
	if (data == NULL)
		ereport(WARNING,
				(errcode(e != 0 ? bloom_file_errcode(e) : ERRCODE_DATA_EXCEPTION),
				 bloom_file_errhint(e),
				 errmsg("skipping transaction log %s: %s", base_name(path), err),
				 errdetail("The file is \"%s\"; the SSTables it names are listed as live.", path)));
	return data;
}

/*
 * A ScyllaDB pending_delete log, in pieces of READ_PIECE bytes: one piece in
 * memory at a time, whatever the log's size; -1 (after a WARNING) if it
 * cannot be read whole
 */
#define PENDING_PIECE ((size_t) 1 << 20)

static int
walk_read_pieces(void *arg, const char *path, size_t max,
				 void (*piece) (void *parg, const char *bytes, size_t n), void *parg)
{
	BloomFile	f;
	char	   *err = NULL;
	uint8	   *buf = NULL;
	int64		offset = 0;
	MemoryContext old = MemoryContextSwitchTo(((Walk *) arg)->walkcxt);

	if (!bloom_file_open(&f, bloom_file_path(path), &err))
		;
	else if ((uint64) f.size > (uint64) max)
		err = psprintf("it is too large: %lld bytes, at most %zu can be read",
					   (long long) f.size, max);
	else
	{
		buf = palloc(PENDING_PIECE);
		while (offset < f.size)
		{
			size_t		got;

			if (!bloom_file_read(&f, offset, buf, PENDING_PIECE, &got, &err))
				break;
			if (got == 0)
				break;
			piece(parg, (const char *) buf, got);
			offset += (int64) got;
		}
	}
	if (f.fd >= 0)
		bloom_file_close(&f);
	if (buf != NULL)
		pfree(buf);
	MemoryContextSwitchTo(old);
	if (err != NULL)
	{
		ereport(WARNING,
				(errcode(ERRCODE_DATA_EXCEPTION),
				 errmsg("skipping pending_delete log %s: %s", base_name(path), err),
				 errdetail("The file is \"%s\"; the SSTables it names are listed as live.", path)));
		return -1;
	}
	return 0;
}

/* a problem of the walk: an ERROR for the root folder, else a WARNING */
static void
walk_problem(void *arg, const bc_walk_report *r)
{
	const char *path = r->path;

	errno = r->err;
	switch (r->problem)
	{
		case BC_WALK_STAT_FAILED:
			if (r->root)
				ereport(ERROR,
						(bloom_file_errcodes(r->err),
						 errmsg("could not stat directory \"%s\": %m", path)));
			if (r->is_directory)
				ereport(WARNING,
						(bloom_file_errcodes(r->err),
						 errmsg("skipping directory %s: could not stat it: %m", base_name(path)),
						 errdetail("The directory is \"%s\".", path)));
			else
				ereport(WARNING,
						(bloom_file_errcodes(r->err),
						 errmsg("skipping %s: could not stat it: %m", base_name(path)),
						 errdetail("The file is \"%s\".", path)));
			break;
		case BC_WALK_NOT_DIRECTORY:
			ereport(ERROR,
					(errcode(ERRCODE_WRONG_OBJECT_TYPE),
					 errmsg("\"%s\" is not a directory", path),
					 errhint("Give the folder of a node's data, of a keyspace or of a table.")));
			break;
		case BC_WALK_LINK_LOOP:
			ereport(WARNING,
					(errcode(ERRCODE_DATA_EXCEPTION),
					 errmsg("skipping directory %s: a link to a directory above it", base_name(path)),
					 errdetail("The directory is \"%s\".", path)));
			break;
		case BC_WALK_ALREADY_WALKED:
			ereport(WARNING,
					(errcode(ERRCODE_DATA_EXCEPTION),
					 errmsg("skipping directory %s: already walked, by another path; its SSTables are listed once, as a %s directory's%s",
							base_name(path), bc_sstable_state_name(r->first_state),
							bc_sstable_state_read(r->first_state) ? "" :
							" (with include_inactive => true only)"),
					 errdetail("The directory is \"%s\"; it was walked as \"%s\" (a symbolic link on one of the two paths), and its SSTables are listed by its real path, \"%s\".",
							   path, r->first_path, r->first_real ? r->first_real : r->first_path)));
			break;
		case BC_WALK_TOO_DEEP:
			ereport(WARNING,
					(errcode(ERRCODE_DATA_EXCEPTION),
					 errmsg("skipping directory %s: more than %d directories deep",
							base_name(path), BC_WALK_MAX_DEPTH),
					 errdetail("The directory is \"%s\".", path)));
			break;
		case BC_WALK_TXN_CORRUPT:
			ereport(WARNING,
					(errcode(ERRCODE_DATA_EXCEPTION),
					 errmsg("transaction log %s fails verification at line %ld: %s",
							base_name(path), r->lineno, r->reason),
					 errdetail("The file is \"%s\". Cassandra does not start with such a log; "
							   "the SSTables it names are listed in the states Cassandra's "
							   "listing gives them.", path)));
			break;
		case BC_WALK_TXN_LAST_RECORD:
			ereport(WARNING,
					(errcode(ERRCODE_DATA_EXCEPTION),
					 errmsg("last record of transaction log %s is invalid (line %ld: %s)",
							base_name(path), r->lineno, r->reason),
					 errdetail("The file is \"%s\". As Cassandra does, the operation is taken "
							   "as unfinished and that record is not applied.", path)));
			break;
		case BC_WALK_TXN_UNREADABLE:
			ereport(WARNING,
					(errcode(ERRCODE_DATA_EXCEPTION),
					 r->lineno > 0 ?
					 errmsg("skipping transaction log %s: line %ld is %s",
							base_name(path), r->lineno, r->reason) :
					 errmsg("skipping transaction log %s: %s", base_name(path), r->reason),
					 errdetail("The file is \"%s\"; Cassandra cannot read it either. "
							   "The SSTables it names are listed as live.", path)));
			break;
	}
}

static Datum
component_names(const bc_walk_sstable *s)
{
	Datum	   *d = palloc(sizeof(Datum) * Max(s->ncomponents, 1));
	int			i;

	for (i = 0; i < s->ncomponents; i++)
		d[i] = CStringGetTextDatum(s->components[i].name);
	return PointerGetDatum(construct_array(d, s->ncomponents, TEXTOID, -1, false, TYPALIGN_INT));
}

/* one row, for an SSTable of the state asked for, in the current context */
static Datum
sstable_row(Walk *w, const bc_walk_sstable *s)
{
	Datum		values[NCOLS];
	bool		nulls[NCOLS];
	BloomSSTableMeta m;
	int64		bytes;

	bloom_sstable_read(s, w->read_filters, &m);

	memset(nulls, true, sizeof(nulls));
#define SET(col, datum) (values[col] = (datum), nulls[col] = false)
	if (s->keyspace)
		SET(COL_KEYSPACE, CStringGetTextDatum(s->keyspace));
	if (s->table)
		SET(COL_TABLE, CStringGetTextDatum(s->table));
	SET(COL_VERSION, CStringGetTextDatum(s->version));
	SET(COL_GENERATION, CStringGetTextDatum(s->generation));
	SET(COL_FORMAT, CStringGetTextDatum(s->format == BC_SSTABLE_BTI ? "bti" : "big"));
	SET(COL_STATE, CStringGetTextDatum(bc_sstable_state_name(s->state)));
	if (s->snapshot)
		SET(COL_SNAPSHOT, CStringGetTextDatum(s->snapshot));
	SET(COL_PATH, CStringGetTextDatum(s->prefix));
	SET(COL_COMPONENTS, component_names(s));
	if (m.have_filter)
		SET(COL_FILTER, m.filter);
	if (m.partitioner)
		SET(COL_PARTITIONER, CStringGetTextDatum(m.partitioner));
	if (m.have_fp_chance)
		SET(COL_FP_CHANCE, Float8GetDatum(m.fp_chance));
	if (m.have_partitions)
		SET(COL_PARTITIONS, Int64GetDatum(m.partitions));
	if (m.key_type)
		SET(COL_KEY_TYPE, CStringGetTextDatum(m.key_type));
	if (m.first_key)
		SET(COL_FIRST_KEY, PointerGetDatum(m.first_key));
	if (m.last_key)
		SET(COL_LAST_KEY, PointerGetDatum(m.last_key));
	if ((bytes = bc_walk_component_size(s, "Filter.db")) >= 0)
		SET(COL_FILTER_DB_BYTES, Int64GetDatum(bytes));
	if (s->data != NULL)
	{
		SET(COL_DATA_DB_BYTES, Int64GetDatum(s->data->size));
		SET(COL_MODIFIED, TimestampTzGetDatum(time_t_to_timestamptz((pg_time_t) s->data->mtime)));
	}
	if (m.have_stats)
	{
		if (m.have_min_timestamp)
			SET(COL_MIN_TIMESTAMP, Int64GetDatum(m.min_timestamp));
		if (m.have_max_timestamp)
			SET(COL_MAX_TIMESTAMP, Int64GetDatum(m.max_timestamp));
		if (m.have_min_ldt)
			SET(COL_MIN_LDT, Int64GetDatum(m.min_ldt));
		if (m.have_max_ldt)
			SET(COL_MAX_LDT, Int64GetDatum(m.max_ldt));
		if (m.have_ttl)
		{
			SET(COL_MIN_TTL, Int64GetDatum(m.min_ttl));
			SET(COL_MAX_TTL, Int64GetDatum(m.max_ttl));
		}
		if (m.have_level)
			SET(COL_LEVEL, Int32GetDatum(m.sstable_level));
		if (m.have_repaired_at)
			SET(COL_REPAIRED_AT, Int64GetDatum(m.repaired_at));
		if (m.have_pending_repair)
		{
			pg_uuid_t  *u = (pg_uuid_t *) palloc(sizeof(pg_uuid_t));

			memcpy(u->data, m.pending_repair, UUID_LEN);
			SET(COL_PENDING_REPAIR, UUIDPGetDatum(u));
		}
		if (m.have_is_transient)
			SET(COL_IS_TRANSIENT, BoolGetDatum(m.is_transient));
	}
#undef SET
	return HeapTupleGetDatum(heap_form_tuple(w->desc, values, nulls));
}

/*
 * A folder's real path (realpath(3), then the mount point bc_mounts.h
 * chooses among those that show it), in the walk's memory: the SSTables'
 * paths, the same as bloomcass-load's (src/client/walk.c) whichever way
 * the folder was reached; NULL (the path as walked) when it cannot be
 * resolved (a folder deleted meanwhile: its listing then fails anyway).
 */
static char *
walk_real_path(void *arg, const char *dir)
{
	char	   *real = bc_walk_real_path_posix(dir);
	char	   *copy;

	if (real == NULL)
		return NULL;
	copy = MemoryContextStrdup(((Walk *) arg)->walkcxt, real);
	free(real);
	return copy;
}

static const bc_walk_ops walk_ops = {
	walk_alloc, walk_release, bc_walk_stat_posix, walk_list, walk_read_log,
	walk_problem, NULL, walk_real_path, walk_read_pieces
};

PG_FUNCTION_INFO_V1(cassandra_sstables);
Datum
cassandra_sstables(PG_FUNCTION_ARGS)
{
	FuncCallContext *funcctx;
	Walk	   *w;
	bc_walk_sstable s;
	MemoryContext old;
	Datum		row;

	if (SRF_IS_FIRSTCALL())
	{
		char	   *dir;
		TupleDesc	desc;

		funcctx = SRF_FIRSTCALL_INIT();
		old = MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);
		if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("function returning record called in context that cannot accept type record")));
		w = palloc0(sizeof(Walk));
		w->desc = BlessTupleDesc(desc);
		w->include_inactive = PG_GETARG_BOOL(1);
		w->read_filters = PG_GETARG_BOOL(2);
		w->rowcxt = AllocSetContextCreate(funcctx->multi_call_memory_ctx, "cassandra_sstables row",
										  ALLOCSET_DEFAULT_SIZES);
		w->walkcxt = AllocSetContextCreate(funcctx->multi_call_memory_ctx, "cassandra_sstables walk",
										   ALLOCSET_DEFAULT_SIZES);
		dir = bloom_file_path(text_to_cstring(PG_GETARG_TEXT_PP(0)));
		funcctx->user_fctx = w;
		w->walk = bc_walk_open(&walk_ops, w, dir, w->include_inactive);
		MemoryContextSwitchTo(old);
	}
	funcctx = SRF_PERCALL_SETUP();
	w = (Walk *) funcctx->user_fctx;

	/* the row given before is no longer needed */
	MemoryContextReset(w->rowcxt);
	while (w->walk != NULL && bc_walk_next(w->walk, &s))
	{
		/* only SSTables the table reads (live, ScyllaDB's staging and
		 * quarantine), unless include_inactive */
		if (!w->include_inactive && !bc_sstable_state_read(s.state))
			continue;
		old = MemoryContextSwitchTo(w->rowcxt);
		row = sstable_row(w, &s);
		MemoryContextSwitchTo(old);
		SRF_RETURN_NEXT(funcctx, row);
	}
	if (w->walk != NULL)
		bc_walk_close(w->walk);
	w->walk = NULL;
	SRF_RETURN_DONE(funcctx);
}
