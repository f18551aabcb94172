/*
 * bc_sstable_dir.c - what the folders of a Cassandra data directory say
 * about the SSTables in them, and an SSTable's state.  The rules of
 * cassandra_sstables() (src/bloom_sstable_dir.c) and of bloomcass-load
 * (src/client), in one place.
 *
 * Folders follow Cassandra's Descriptor and Directories:
 *
 *   <keyspace>/<table>[-<id>]/                  the table's live SSTables
 *   <keyspace>/<table>[-<id>]/.<index>/         a secondary index's (its
 *                                               table is <table>.<index>)
 *   .../<table>[-<id>]/snapshots/<tag>/         a snapshot
 *   .../<table>[-<id>]/backups/                 incremental backups
 *
 * and ScyllaDB's table subfolders (sstables/sstable_directory.hh:
 * table_subdirectories; only below a folder with its -<id>, as ScyllaDB's
 * always are, so that a 2.0 table named "staging" stays one):
 *
 *   .../<table>-<id>/staging/       repaired or streamed SSTables awaiting
 *                                   view building: loaded into the table
 *   .../<table>-<id>/quarantine/    SSTables scrub found invalid: loaded
 *                                   into the table, left out of compaction
 *   .../<table>-<id>/upload/        SSTables for nodetool refresh: not
 *                                   loaded until then
 *   .../<table>-<id>/pending_delete/  logs of deletions, no SSTable: an
 *                                   SSTable a sealed log names is obsolete
 *                                   (bc_walk_txn.h)
 *   .../<table>-<id>/<gen>.sstable/ an SSTable being written: temporary,
 *                                   and so is what is below it, and a
 *                                   <gen>.sstable/ in staging/,
 *                                   quarantine/ or upload/ (in_temp_dir)
 *
 * (replica/distributed_loader.cc: table_populator::start populates the
 * normal, staging and quarantine states; upload is read by
 * load_new_sstables only).  An SSTable's state is, in this order:
 * snapshot, backup or upload (its folder); temporary (tmp- or tmplink- in its name, ScyllaDB's TOC.txt.tmp
 * or TemporaryHashes.db.tmp among its components, or added by an
 * operation whose transaction log did not commit); obsolete (removed by one
 * whose log committed); orphaned (no Data.db); staging or quarantine (its
 * folder); live.
 */
#include <string.h>

#include "bc_sstable_dir.h"
#include "bc_sstable_name.h"
#include "bc_status.h"

const char *
bc_sstable_state_name(bc_sstable_state s)
{
	switch (s)
	{
		case BC_STATE_LIVE:
			return "live";
		case BC_STATE_TEMPORARY:
			return "temporary";
		case BC_STATE_OBSOLETE:
			return "obsolete";
		case BC_STATE_ORPHANED:
			return "orphaned";
		case BC_STATE_SNAPSHOT:
			return "snapshot";
		case BC_STATE_BACKUP:
			return "backup";
		case BC_STATE_STAGING:
			return "staging";
		case BC_STATE_QUARANTINE:
			return "quarantine";
		case BC_STATE_UPLOAD:
			return "upload";
	}
	return "unknown";
}

int
bc_sstable_state_read(bc_sstable_state s)
{
	return s == BC_STATE_LIVE || s == BC_STATE_STAGING || s == BC_STATE_QUARANTINE;
}

/*
 * The element of path[0 .. end) before end, ignoring '/'s after it: its
 * start in *start and its length (0 when there is none).
 */
static size_t
prev_element(const char *path, size_t end, size_t *start)
{
	size_t		e = end;
	size_t		s;

	while (e > 0 && path[e - 1] == '/')
		e--;
	s = e;
	while (s > 0 && path[s - 1] != '/')
		s--;
	*start = s;
	return e - s;
}

static int
is_word(const char *s, size_t len, const char *w)
{
	return len == strlen(w) && memcmp(s, w, len) == 0;
}

/*
 * ScyllaDB's temporary SSTable folder, <generation>.sstable, in which a new
 * SSTable is written before its files move to the table's folder, and which
 * startup removes (sstables/sstable_directory.cc: a subfolder whose
 * extension is tempdir_extension, ".sstable")
 */
static int
is_temp_dir(const char *s, size_t len)
{
	return len > 8 && memcmp(s + len - 8, ".sstable", 8) == 0;
}

/* a keyspace name: letters, digits and '_' */
static int
is_keyspace(const char *s, size_t len)
{
	size_t		i;

	if (len == 0)
		return 0;
	for (i = 0; i < len; i++)
	{
		char		c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
			return 0;
	}
	return 1;
}

/* a table's folder with its -<id>, as ScyllaDB's always are */
static int
is_table_with_id(const char *s, size_t len)
{
	size_t		tl;

	return len > 0 && bc_sstable_table_dir(s, len, &tl) == BC_OK && tl < len;
}

/*
 * A folder in or below ScyllaDB's temporary SSTable folder: the first
 * element of path[0 .. len) that is <generation>.sstable in a table's
 * folder with its -<id>, or in its staging/, quarantine/ or upload/ (each
 * is a folder of SSTables that ScyllaDB's sstable_directory lists, and
 * garbage_collect removes every <generation>.sstable subfolder of it:
 * cleanup_column_family_temp_sst_dirs, the whole folder with what it
 * holds).  1 with the table's folder in *table_start, *table_len; else 0.
 */
static int
in_temp_dir(const char *path, size_t len, size_t *table_start, size_t *table_n)
{
	size_t		starts[2] = {0, 0},
				lens[2] = {0, 0};	/* the two elements before: the
									 * parent's last */
	size_t		i = 0;

	while (i < len)
	{
		size_t		s,
					n;

		while (i < len && path[i] == '/')
			i++;
		s = i;
		while (i < len && path[i] != '/')
			i++;
		n = i - s;
		if (n == 0)
			break;
		if (is_temp_dir(path + s, n))
		{
			if (is_table_with_id(path + starts[1], lens[1]))
			{
				*table_start = starts[1];
				*table_n = lens[1];
				return 1;
			}
			if ((is_word(path + starts[1], lens[1], "staging") ||
				 is_word(path + starts[1], lens[1], "quarantine") ||
				 is_word(path + starts[1], lens[1], "upload")) &&
				is_table_with_id(path + starts[0], lens[0]))
			{
				*table_start = starts[0];
				*table_n = lens[0];
				return 1;
			}
		}
		starts[0] = starts[1];
		lens[0] = lens[1];
		starts[1] = s;
		lens[1] = n;
	}
	return 0;
}

void
bc_folder_parse(const char *path, size_t len, bc_folder *out)
{
	size_t		s,
				n,
				ps,
				pn;

	memset(out, 0, sizeof(*out));
	out->state = BC_STATE_LIVE;
	n = prev_element(path, len, &s);
	if (n == 0)
		return;

	/* in or below <generation>.sstable/: the table's, temporary */
	if (in_temp_dir(path, len, &s, &n))
	{
		out->state = BC_STATE_TEMPORARY;
		out->table = path + s;
		bc_sstable_table_dir(path + s, n, &out->table_len);
		pn = prev_element(path, s, &ps);
		if (pn > 0 && is_keyspace(path + ps, pn))
		{
			out->keyspace = path + ps;
			out->keyspace_len = pn;
		}
		return;
	}

	/* .<index>: a secondary index's folder inside its table's */
	if (path[s] == '.' && n > 1 && !is_word(path + s, n, "..") && s > 0)
	{
		pn = prev_element(path, s, &ps);
		if (pn > 0)
		{
			out->index = path + s;
			out->index_len = n;
			s = ps;
			n = pn;
		}
	}

	if (is_word(path + s, n, "staging") || is_word(path + s, n, "quarantine") ||
		is_word(path + s, n, "upload") || is_word(path + s, n, "pending_delete") ||
		is_temp_dir(path + s, n))
	{
		/* ScyllaDB's: the folder above a table's with its -<id> */
		size_t		tl;

		pn = prev_element(path, s, &ps);
		if (pn > 0 && bc_sstable_table_dir(path + ps, pn, &tl) == BC_OK && tl < pn)
		{
			/* pending_delete: deletion logs, no table's SSTables */
			if (path[s] == 'p' && is_word(path + s, n, "pending_delete"))
				return;
			out->state = is_temp_dir(path + s, n) ? BC_STATE_TEMPORARY
				: path[s] == 's' ? BC_STATE_STAGING
				: path[s] == 'q' ? BC_STATE_QUARANTINE : BC_STATE_UPLOAD;
			s = ps;
			n = pn;
		}
	}
	else if (is_word(path + s, n, "backups"))
	{
		pn = prev_element(path, s, &ps);
		if (pn > 0)
		{
			out->state = BC_STATE_BACKUP;
			s = ps;
			n = pn;
		}
	}
	else
	{
		/* <table>/snapshots/<tag> */
		size_t		ss,
					sn = prev_element(path, s, &ss);

		if (sn > 0 && is_word(path + ss, sn, "snapshots"))
		{
			pn = prev_element(path, ss, &ps);
			if (pn > 0)
			{
				out->state = BC_STATE_SNAPSHOT;
				out->snapshot = path + s;
				out->snapshot_len = n;
				s = ps;
				n = pn;
			}
		}
	}

	if (bc_sstable_table_dir(path + s, n, &out->table_len) == BC_OK)
	{
		out->table = path + s;
		pn = prev_element(path, s, &ps);
		if (pn > 0 && is_keyspace(path + ps, pn))
		{
			out->keyspace = path + ps;
			out->keyspace_len = pn;
		}
	}
	else
	{
		out->table_len = 0;
		out->index = NULL;
		out->index_len = 0;
	}
}

int
bc_sstable_component_cmp(const char *a, size_t a_descriptor_len,
						 const char *b, size_t b_descriptor_len)
{
	size_t		n = a_descriptor_len < b_descriptor_len ? a_descriptor_len : b_descriptor_len;
	int			c = memcmp(a, b, n);

	if (c != 0)
		return c;
	if (a_descriptor_len != b_descriptor_len)
		return a_descriptor_len < b_descriptor_len ? -1 : 1;
	return strcmp(a + a_descriptor_len, b + b_descriptor_len);
}

int
bc_folder_inactive(const char *name, size_t len)
{
	return is_word(name, len, "snapshots") || is_word(name, len, "backups");
}

bc_sstable_state
bc_sstable_state_of(bc_sstable_state folder_state, int temporary_name,
					int added_unfinished, int removed_committed, int has_data)
{
	if (folder_state != BC_STATE_LIVE && folder_state != BC_STATE_STAGING &&
		folder_state != BC_STATE_QUARANTINE)
		return folder_state;
	if (temporary_name || added_unfinished)
		return BC_STATE_TEMPORARY;
	if (removed_committed)
		return BC_STATE_OBSOLETE;
	if (!has_data)
		return BC_STATE_ORPHANED;
	return folder_state;
}
