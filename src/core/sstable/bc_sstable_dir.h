/*
 * bc_sstable_dir.h - what the folders of a Cassandra data directory say of
 * the SSTables in them, and an SSTable's state (bc_sstable_dir.c; the
 * rules of cassandra_sstables and bloomcass-load, after Cassandra's
 * Descriptor and Directories).
 */
#ifndef BC_SSTABLE_DIR_H
#define BC_SSTABLE_DIR_H

#include <stddef.h>

typedef enum bc_sstable_state
{
	BC_STATE_LIVE = 0,
	BC_STATE_TEMPORARY,			/* tmp-/tmplink-, or an unfinished operation's */
	BC_STATE_OBSOLETE,			/* replaced by a committed operation */
	BC_STATE_ORPHANED,			/* components without a Data.db */
	BC_STATE_SNAPSHOT,			/* in <table>/snapshots/<tag>/ */
	BC_STATE_BACKUP,			/* in <table>/backups/ */
	/* ScyllaDB's table subfolders (sstables/sstable_directory.hh): */
	BC_STATE_STAGING,			/* in <table>/staging/: read by queries,
								 * awaiting view building */
	BC_STATE_QUARANTINE,		/* in <table>/quarantine/: read by queries,
								 * left out of compaction (scrub found it
								 * invalid) */
	BC_STATE_UPLOAD				/* in <table>/upload/: not the table's until
								 * nodetool refresh loads it */
} bc_sstable_state;

const char *bc_sstable_state_name(bc_sstable_state s);

/*
 * Whether SSTables of that state are the table's data, read by its
 * queries: live, and ScyllaDB's staging and quarantine (its
 * table_populator loads the table folder, staging/ and quarantine/ alike,
 * replica/distributed_loader.cc).  cassandra_sstables lists these by
 * default, and bloomcass-load loads them.
 */
int			bc_sstable_state_read(bc_sstable_state s);

/* What a folder's path says; the fields point into the path.  table is
 * the table's part of its folder's name (without -<id>), index the
 * secondary index folder's name (".<index>", to append to the table), both
 * NULL when the folder is not a table's; keyspace the folder above it
 * when that is a keyspace name. */
typedef struct bc_folder
{
	const char *keyspace;
	size_t		keyspace_len;
	const char *table;
	size_t		table_len;
	const char *index;
	size_t		index_len;
	const char *snapshot;		/* the tag of a snapshot folder */
	size_t		snapshot_len;
	bc_sstable_state state;		/* LIVE, SNAPSHOT, BACKUP, STAGING,
								 * QUARANTINE, UPLOAD or TEMPORARY */
} bc_folder;

void		bc_folder_parse(const char *path, size_t len, bc_folder *out);

/*
 * The order in which a folder's component files group by SSTable: by the
 * descriptor (name[0 .. descriptor_len), as bc_sstable_name_parse gives
 * it), then by the rest of the name.
 */
int			bc_sstable_component_cmp(const char *a, size_t a_descriptor_len,
									 const char *b, size_t b_descriptor_len);

/* 1 for a subfolder only inactive SSTables are in (snapshots, backups) */
int			bc_folder_inactive(const char *name, size_t len);

/* An SSTable's state from its folder's, its name (tmp-), the transaction
 * logs beside it and whether it has a Data.db: a snapshot's, a backup's
 * and an upload's is its folder's; one in staging/ or quarantine/ is
 * temporary, obsolete or orphaned as a live one would be, else its
 * folder's. */
bc_sstable_state bc_sstable_state_of(bc_sstable_state folder_state, int temporary_name,
									 int added_unfinished, int removed_committed,
									 int has_data);

#endif							/* BC_SSTABLE_DIR_H */
