/*
 * bloom_sstable_dir.c - cassandra_sstables(data_dir): one row per SSTable
 * found below a folder of a Cassandra or ScyllaDB node (its data directory,
 * a keyspace's or a table's folder, or a copy of any of them).
 *
 * What a folder means follows Cassandra's Descriptor and Directories:
 *
 *   <keyspace>/<table>[-<id>]/                  the table's live SSTables
 *   <keyspace>/<table>[-<id>]/.<index>/         a secondary index's
 *   .../<table>[-<id>]/snapshots/<tag>/         a snapshot
 *   .../<table>[-<id>]/backups/                 incremental backups
 *
 * and the state of an SSTable in a table folder:
 *
 *   temporary  tmp- or tmplink- in its name (2.x), or written by an
 *              operation whose transaction log (3.0+) did not commit
 *   obsolete   replaced by an operation whose log committed: its files
 *              are about to be deleted
 *   orphaned   components without a Data.db (Cassandra deletes them at
 *              startup)
 *   live       anything else
 *
 * By default only live SSTables are listed (and the snapshots/ and backups/
 * folders are not entered); include_inactive lists all of them with their
 * state.  Names that are not SSTable components are ignored.  Symbolic
 * links are followed (Cassandra's data folders are often links to other
 * disks), except one back to a directory being walked.
 *
 * Privileges: the folder given, and every file read below it, pass
 * bloom_file_path (pg_read_binary_file's rule) first.
 */
#include "postgres.h"

#include <dirent.h>
#include <sys/stat.h>

#include "funcapi.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "bc_sstable_dir.h"
#include "bc_sstable_name.h"
#include "bc_status.h"
#include "bc_txn_log.h"
#include "bloom_sstable.h"

#define MAX_DEPTH 32
#define MAX_TXN_LOG_BYTES ((size_t) 64 * 1024 * 1024)

enum
{
	COL_KEYSPACE, COL_TABLE, COL_VERSION, COL_GENERATION, COL_FORMAT, COL_STATE,
	COL_SNAPSHOT, COL_PATH, COL_COMPONENTS, COL_FILTER, COL_PARTITIONER,
	COL_FP_CHANCE, COL_PARTITIONS, COL_KEY_TYPE, COL_FIRST_KEY, COL_LAST_KEY,
	COL_FILTER_DB_BYTES, COL_DATA_DB_BYTES, COL_MODIFIED, NCOLS
};

typedef struct Walk
{
	Tuplestorestate *ts;
	TupleDesc	desc;
	bool		include_inactive;
	bool		read_filters;
	MemoryContext rowcxt;
	int			depth;
	dev_t		devs[MAX_DEPTH + 1];	/* directories being walked */
	ino_t		inos[MAX_DEPTH + 1];
} Walk;

/* what a folder's place says about the SSTables in it */
typedef struct Folder
{
	char	   *keyspace;
	char	   *table;
	const char *state;			/* "live", "snapshot" or "backup" */
	char	   *snapshot;
} Folder;

/* one component file */
typedef struct Entry
{
	char	   *name;
	size_t		descriptor_len;
	int64		size;
	time_t		mtime;
	bc_sstable_name parsed;
} Entry;

/* transaction logs of one folder: SSTable prefixes that are not live */
typedef struct TxnSets
{
	List	   *temporary;		/* char *, ADDed by unfinished operations */
	List	   *obsolete;		/* REMOVEd by committed ones */
} TxnSets;

/* dir/name, without doubling the '/' of the root directory */
static char *
join_path(const char *dir, const char *name)
{
	size_t		len = strlen(dir);

	return psprintf("%s%s%s", dir, (len > 0 && dir[len - 1] == '/') ? "" : "/", name);
}

/* the last element of a path */
static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The folder's meaning from its path (bc_folder_parse). */
static Folder
folder_context(const char *dir)
{
	Folder		f = {NULL, NULL, "live", NULL};
	bc_folder	b;

	bc_folder_parse(dir, strlen(dir), &b);
	f.state = bc_sstable_state_name(b.state);
	if (b.snapshot != NULL)
		f.snapshot = pnstrdup(b.snapshot, b.snapshot_len);
	if (b.table != NULL)
	{
		f.table = psprintf("%.*s%.*s", (int) b.table_len, b.table,
						   (int) b.index_len, b.index ? b.index : "");
		if (b.keyspace != NULL)
			f.keyspace = pnstrdup(b.keyspace, b.keyspace_len);
	}
	return f;
}

static int
entry_cmp(const void *a, const void *b)
{
	const Entry *x = (const Entry *) a;
	const Entry *y = (const Entry *) b;

	return bc_sstable_component_cmp(x->name, x->descriptor_len, y->name, y->descriptor_len);
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

static bool
list_has(List *l, const char *s, size_t len)
{
	ListCell   *lc;

	foreach(lc, l)
	{
		const char *x = (const char *) lfirst(lc);

		if (strlen(x) == len && memcmp(x, s, len) == 0)
			return true;
	}
	return false;
}

/* what bc_txn_log_scan reports, into the folder's sets */
typedef struct TxnScan
{
	TxnSets    *sets;
	const char *path;
} TxnScan;

static void
txn_sstable(void *arg, int obsolete, const char *base, size_t len)
{
	TxnSets    *sets = ((TxnScan *) arg)->sets;

	if (obsolete)
		sets->obsolete = lappend(sets->obsolete, pnstrdup(base, len));
	else
		sets->temporary = lappend(sets->temporary, pnstrdup(base, len));
}

static void
txn_bad_line(void *arg, long lineno)
{
	const char *path = ((TxnScan *) arg)->path;

	ereport(WARNING,
			(errcode(ERRCODE_DATA_EXCEPTION),
			 errmsg("skipping line %ld of transaction log %s: not a record",
					lineno, base_name(path)),
			 errdetail("The file is \"%s\".", path)));
}

/* Read a transaction log into the folder's sets. */
static void
read_txn_log(const char *path, TxnSets *sets)
{
	char	   *err = NULL;
	size_t		len;
	char	   *data;
	TxnScan		scan = {sets, path};

	data = (char *) bloom_file_read_all(bloom_file_path(path), MAX_TXN_LOG_BYTES, &len, &err);
	if (data == NULL)
	{
		ereport(WARNING,
				(errcode(ERRCODE_DATA_EXCEPTION),
				 errmsg("skipping transaction log %s: %s", base_name(path), err),
				 errdetail("The file is \"%s\"; the SSTables it names are listed as live.", path)));
		return;
	}
	bc_txn_log_scan(data, len, txn_sstable, txn_bad_line, &scan);
	pfree(data);
}

static Datum
text_array(char **items, int n)
{
	Datum	   *d = palloc(sizeof(Datum) * Max(n, 1));
	int			i;

	for (i = 0; i < n; i++)
		d[i] = CStringGetTextDatum(items[i]);
	return PointerGetDatum(construct_array(d, n, TEXTOID, -1, false, TYPALIGN_INT));
}

static void
emit(Walk *w, const BloomSSTable *s, const Folder *f, const char *state)
{
	Datum		values[NCOLS];
	bool		nulls[NCOLS];
	BloomSSTableMeta m;
	const char *keyspace = s->legacy ? s->name_keyspace : f->keyspace;
	const char *table = s->legacy ? s->name_table : f->table;
	int64		bytes;

	bloom_sstable_read(s, w->read_filters, &m);

	memset(nulls, true, sizeof(nulls));
#define SET(col, datum) (values[col] = (datum), nulls[col] = false)
	if (keyspace)
		SET(COL_KEYSPACE, CStringGetTextDatum(keyspace));
	if (table)
		SET(COL_TABLE, CStringGetTextDatum(table));
	SET(COL_VERSION, CStringGetTextDatum(s->version));
	SET(COL_GENERATION, CStringGetTextDatum(s->generation));
	SET(COL_FORMAT, CStringGetTextDatum(s->format == BC_SSTABLE_BTI ? "bti" : "big"));
	SET(COL_STATE, CStringGetTextDatum(state));
	if (f->snapshot)
		SET(COL_SNAPSHOT, CStringGetTextDatum(f->snapshot));
	SET(COL_PATH, CStringGetTextDatum(s->prefix));
	SET(COL_COMPONENTS, text_array(s->components, s->ncomponents));
	if (m.filter)
		SET(COL_FILTER, PointerGetDatum(m.filter));
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
	if ((bytes = bloom_sstable_component_size(s, "Filter.db")) >= 0)
		SET(COL_FILTER_DB_BYTES, Int64GetDatum(bytes));
	if ((bytes = bloom_sstable_component_size(s, "Data.db")) >= 0)
		SET(COL_DATA_DB_BYTES, Int64GetDatum(bytes));
	if (s->have_data_mtime)
		SET(COL_MODIFIED, TimestampTzGetDatum(s->data_mtime));
#undef SET
	tuplestore_putvalues(w->ts, w->desc, values, nulls);
}

/* The SSTables of one folder, entries[0 .. n) sorted by entry_cmp. */
static void
emit_folder(Walk *w, const char *dir, Entry *entries, int n, TxnSets *txn)
{
	Folder		f = folder_context(dir);
	int			i = 0;

	while (i < n)
	{
		Entry	   *e = &entries[i];
		int			j = i;
		BloomSSTable s;
		const char *state = f.state;
		int			c;
		MemoryContext old;

		while (j < n && entries[j].descriptor_len == e->descriptor_len &&
			   memcmp(entries[j].name, e->name, e->descriptor_len) == 0)
			j++;

		memset(&s, 0, sizeof(s));
		s.dir = dir;
		s.descriptor = pnstrdup(e->name, e->descriptor_len);
		s.prefix = join_path(dir, s.descriptor);
		s.version = pnstrdup(e->parsed.version, e->parsed.version_len);
		s.generation = pnstrdup(e->parsed.generation, e->parsed.generation_len);
		s.format = e->parsed.format;
		s.legacy = e->parsed.legacy != 0;
		s.temporary = e->parsed.temporary != 0;
		if (s.legacy)
		{
			s.name_keyspace = pnstrdup(e->parsed.keyspace, e->parsed.keyspace_len);
			s.name_table = pnstrdup(e->parsed.table, e->parsed.table_len);
		}
		s.ncomponents = j - i;
		s.components = palloc(sizeof(char *) * s.ncomponents);
		s.sizes = palloc(sizeof(int64) * s.ncomponents);
		for (c = 0; c < s.ncomponents; c++)
		{
			Entry	   *x = &entries[i + c];

			s.components[c] = pnstrdup(x->parsed.component, x->parsed.component_len);
			s.sizes[c] = x->size;
			if (strcmp(s.components[c], "Data.db") == 0)
			{
				s.data_mtime = time_t_to_timestamptz(x->mtime);
				s.have_data_mtime = true;
			}
		}

		if (strcmp(state, "live") == 0)
			state = bc_sstable_state_name(
				bc_sstable_state_of(BC_STATE_LIVE, s.temporary,
									list_has(txn->temporary, s.descriptor, strlen(s.descriptor)),
									list_has(txn->obsolete, s.descriptor, strlen(s.descriptor)),
									bloom_sstable_component_size(&s, "Data.db") >= 0));

		if (w->include_inactive || strcmp(state, "live") == 0)
		{
			old = MemoryContextSwitchTo(w->rowcxt);
			emit(w, &s, &f, state);
			MemoryContextSwitchTo(old);
			MemoryContextReset(w->rowcxt);
		}
		i = j;
	}
}

/* the names in a directory, sorted; NULL (after a WARNING) if unreadable */
static char **
read_names(const char *dir, bool root, int *count)
{
	DIR		   *d;
	struct dirent *de;
	char	  **names;
	int			n = 0,
				cap = 64;

	d = AllocateDir(dir);
	if (d == NULL)
	{
		if (root)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not open directory \"%s\": %m", dir)));
		ereport(WARNING,
				(errcode_for_file_access(),
				 errmsg("skipping directory %s: could not open it: %m", base_name(dir)),
				 errdetail("The directory is \"%s\".", dir)));
		return NULL;
	}
	names = palloc(sizeof(char *) * cap);
	while ((de = ReadDirExtended(d, dir, root ? ERROR : WARNING)) != NULL)
	{
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (n == cap)
		{
			cap *= 2;
			names = repalloc_huge(names, sizeof(char *) * cap);
		}
		names[n++] = pstrdup(de->d_name);
	}
	FreeDir(d);
	qsort(names, n, sizeof(char *), name_cmp);
	*count = n;
	return names;
}

static void
walk_dir(Walk *w, const char *dir, bool root)
{
	char	  **names;
	int			n,
				i,
				nentries = 0,
				nsub = 0;
	Entry	   *entries;
	char	  **subdirs;
	TxnSets		txn = {NIL, NIL};
	struct stat st;

	CHECK_FOR_INTERRUPTS();
	check_stack_depth();

	/* each directory once: a link back up the tree is not followed */
	if (stat(dir, &st) != 0)
	{
		if (root)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not stat directory \"%s\": %m", dir)));
		ereport(WARNING,
				(errcode_for_file_access(),
				 errmsg("skipping directory %s: could not stat it: %m", base_name(dir)),
				 errdetail("The directory is \"%s\".", dir)));
		return;
	}
	if (!S_ISDIR(st.st_mode))
	{
		if (root)
			ereport(ERROR,
					(errcode(ERRCODE_WRONG_OBJECT_TYPE),
					 errmsg("\"%s\" is not a directory", dir),
					 errhint("Give the folder of a node's data, of a keyspace or of a table.")));
		return;
	}
	for (i = 0; i < w->depth; i++)
		if (w->devs[i] == st.st_dev && w->inos[i] == st.st_ino)
		{
			ereport(WARNING,
					(errcode(ERRCODE_DATA_EXCEPTION),
					 errmsg("skipping directory %s: a link to a directory above it", base_name(dir)),
					 errdetail("The directory is \"%s\".", dir)));
			return;
		}
	if (w->depth >= MAX_DEPTH)
	{
		ereport(WARNING,
				(errcode(ERRCODE_DATA_EXCEPTION),
				 errmsg("skipping directory %s: more than %d directories deep", base_name(dir), MAX_DEPTH),
				 errdetail("The directory is \"%s\".", dir)));
		return;
	}

	names = read_names(dir, root, &n);
	if (names == NULL)
		return;

	entries = palloc(sizeof(Entry) * Max(n, 1));
	subdirs = palloc(sizeof(char *) * Max(n, 1));
	for (i = 0; i < n; i++)
	{
		char	   *path = join_path(dir, names[i]);
		struct stat fst;
		Entry	   *e;

		if (stat(path, &fst) != 0)
		{
			/* a dangling link, or a file deleted meanwhile (compaction) */
			if (errno != ENOENT)
				ereport(WARNING,
						(errcode_for_file_access(),
						 errmsg("skipping %s: could not stat it: %m", names[i]),
						 errdetail("The file is \"%s\".", path)));
			continue;
		}
		if (S_ISDIR(fst.st_mode))
		{
			if (!w->include_inactive && bc_folder_inactive(names[i], strlen(names[i])))
				continue;
			subdirs[nsub++] = path;
			continue;
		}
		if (!S_ISREG(fst.st_mode))
			continue;
		if (bc_txn_log_name(names[i], strlen(names[i])))
		{
			read_txn_log(path, &txn);
			continue;
		}
		e = &entries[nentries];
		if (bc_sstable_name_parse(names[i], strlen(names[i]), &e->parsed) != BC_OK)
			continue;
		e->name = names[i];
		e->descriptor_len = e->parsed.descriptor_len;
		e->size = (int64) fst.st_size;
		e->mtime = fst.st_mtime;
		nentries++;
	}
	qsort(entries, nentries, sizeof(Entry), entry_cmp);
	emit_folder(w, dir, entries, nentries, &txn);

	w->devs[w->depth] = st.st_dev;
	w->inos[w->depth] = st.st_ino;
	w->depth++;
	for (i = 0; i < nsub; i++)
		walk_dir(w, subdirs[i], false);
	w->depth--;
}

PG_FUNCTION_INFO_V1(cassandra_sstables);
Datum
cassandra_sstables(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	char	   *dir = bloom_file_path(text_to_cstring(PG_GETARG_TEXT_PP(0)));
	Walk		w;
	MemoryContext walkcxt,
				old;

	InitMaterializedSRF(fcinfo, 0);

	memset(&w, 0, sizeof(w));
	w.ts = rsinfo->setResult;
	w.desc = rsinfo->setDesc;
	w.include_inactive = PG_GETARG_BOOL(1);
	w.read_filters = PG_GETARG_BOOL(2);
	w.rowcxt = AllocSetContextCreate(CurrentMemoryContext, "cassandra_sstables row",
									 ALLOCSET_DEFAULT_SIZES);
	walkcxt = AllocSetContextCreate(CurrentMemoryContext, "cassandra_sstables walk",
									ALLOCSET_DEFAULT_SIZES);

	old = MemoryContextSwitchTo(walkcxt);
	walk_dir(&w, dir, true);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(walkcxt);
	MemoryContextDelete(w.rowcxt);
	return (Datum) 0;
}
