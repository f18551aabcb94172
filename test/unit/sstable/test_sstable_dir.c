/*
 * test_sstable_dir.c - what folders say of their SSTables, and SSTable
 * states (bc_sstable_dir.c): the layouts of a Cassandra data directory, the
 * folders of the real SSTables under test/data/sstables, and odd paths.
 */
#include <string.h>

#include "bc_sstable_dir.h"
#include "unit.h"

static int
field_is(const char *p, size_t len, const char *want)
{
	if (want == NULL)
		return p == NULL;
	return p != NULL && len == strlen(want) && memcmp(p, want, len) == 0;
}

static void
check_folder(const char *path, const char *keyspace, const char *table, const char *index,
			 bc_sstable_state state, const char *snapshot)
{
	bc_folder	f;

	bc_folder_parse(path, strlen(path), &f);
	CHECK(field_is(f.keyspace, f.keyspace_len, keyspace), "%s: keyspace \"%.*s\"", path,
		  (int) f.keyspace_len, f.keyspace ? f.keyspace : "(null)");
	CHECK(field_is(f.table, f.table_len, table), "%s: table \"%.*s\"", path,
		  (int) f.table_len, f.table ? f.table : "(null)");
	CHECK(field_is(f.index, f.index_len, index), "%s: index \"%.*s\"", path,
		  (int) f.index_len, f.index ? f.index : "(null)");
	CHECK(f.state == state, "%s: state %s", path, bc_sstable_state_name(f.state));
	CHECK(field_is(f.snapshot, f.snapshot_len, snapshot), "%s: snapshot", path);
}

void
suite_sstable_dir(void)
{
	const char *id = "t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d";

	check_folder("/var/lib/cassandra/data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d", "ks", "t", NULL,
				 BC_STATE_LIVE, NULL);
	check_folder("/var/lib/cassandra/data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/", "ks", "t", NULL,
				 BC_STATE_LIVE, NULL);
	check_folder("data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/.t_idx", "ks", "t", ".t_idx",
				 BC_STATE_LIVE, NULL);
	check_folder("data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/snapshots/before-upgrade", "ks", "t",
				 NULL, BC_STATE_SNAPSHOT, "before-upgrade");
	check_folder("data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/snapshots/s1/.t_idx", "ks", "t",
				 ".t_idx", BC_STATE_SNAPSHOT, "s1");
	check_folder("data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/backups", "ks", "t", NULL,
				 BC_STATE_BACKUP, NULL);
	check_folder("data/ks/table1-ea3b3e6b-0d78-4913-89f2-15fcf98711d0", "ks", "table1", NULL,
				 BC_STATE_LIVE, NULL);
	/* ScyllaDB's table subfolders, below a table folder with its id */
	check_folder("data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/staging", "ks", "t", NULL,
				 BC_STATE_STAGING, NULL);
	check_folder("data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/quarantine/", "ks", "t", NULL,
				 BC_STATE_QUARANTINE, NULL);
	check_folder("data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/upload", "ks", "t", NULL,
				 BC_STATE_UPLOAD, NULL);
	check_folder("data/ks/table1-ea3b3e6b-0d78-4913-89f2-15fcf98711d0/staging", "ks", "table1",
				 NULL, BC_STATE_STAGING, NULL);
	/* <generation>.sstable/ of the table, of its staging/, quarantine/ or
	 * upload/, and anything below one: being written, removed at startup
	 * (sstable_directory's cleanup_column_family_temp_sst_dirs) */
	check_folder("data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/8.sstable", "ks", "t", NULL,
				 BC_STATE_TEMPORARY, NULL);
	check_folder("data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/staging/8.sstable", "ks", "t", NULL,
				 BC_STATE_TEMPORARY, NULL);
	check_folder("data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/upload/8.sstable/", "ks", "t", NULL,
				 BC_STATE_TEMPORARY, NULL);
	check_folder("data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/quarantine/8.sstable", "ks", "t",
				 NULL, BC_STATE_TEMPORARY, NULL);
	check_folder("data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/8.sstable/9.sstable", "ks", "t",
				 NULL, BC_STATE_TEMPORARY, NULL);
	check_folder("data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/8.sstable/staging", "ks", "t", NULL,
				 BC_STATE_TEMPORARY, NULL);
	check_folder("data/ks/t/8.sstable", NULL, NULL, NULL, BC_STATE_LIVE, NULL);
	/* pending_delete holds logs only: no table's SSTables */
	check_folder("data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/pending_delete", NULL, NULL, NULL,
				 BC_STATE_LIVE, NULL);
	/* without the id (Cassandra 2.0's keyspace/table): a table so named */
	check_folder("data/ks/staging", "ks", "staging", NULL, BC_STATE_LIVE, NULL);
	check_folder("data/ks/upload", "ks", "upload", NULL, BC_STATE_LIVE, NULL);
	check_folder("quarantine", NULL, "quarantine", NULL, BC_STATE_LIVE, NULL);
	check_folder("legacy-sstables/ma/legacy_tables/legacy_ma_simple", "legacy_tables",
				 "legacy_ma_simple", NULL, BC_STATE_LIVE, NULL);
	/* a folder above that is no keyspace name, or none at all */
	check_folder("negative-ldts-invalid-deletions-test/invalid_tombstones", NULL,
				 "invalid_tombstones", NULL, BC_STATE_LIVE, NULL);
	check_folder("t", NULL, "t", NULL, BC_STATE_LIVE, NULL);
	check_folder(id, NULL, "t", NULL, BC_STATE_LIVE, NULL);
	/* folders that are no table's */
	check_folder("", NULL, NULL, NULL, BC_STATE_LIVE, NULL);
	check_folder("/", NULL, NULL, NULL, BC_STATE_LIVE, NULL);
	check_folder("ks/bloom-filter", NULL, NULL, NULL, BC_STATE_LIVE, NULL);
	check_folder("snapshots", NULL, "snapshots", NULL, BC_STATE_LIVE, NULL);
	check_folder("backups", NULL, "backups", NULL, BC_STATE_LIVE, NULL);
	check_folder("ks/t/..", NULL, NULL, NULL, BC_STATE_LIVE, NULL);

	/* components group by SSTable: nb-1-big before nb-10-big, whatever follows */
	CHECK(bc_sstable_component_cmp("nb-1-big-TOC.txt", 8, "nb-10-big-Data.db", 9) < 0, "nb-1 < nb-10");
	CHECK(bc_sstable_component_cmp("nb-10-big-Data.db", 9, "nb-1-big-TOC.txt", 8) > 0, "nb-10 > nb-1");
	CHECK(bc_sstable_component_cmp("nb-1-big-Data.db", 8, "nb-1-big-TOC.txt", 8) < 0, "Data.db < TOC.txt");
	CHECK(bc_sstable_component_cmp("nb-1-big-Data.db", 8, "nb-1-big-Data.db", 8) == 0, "equal");
	CHECK(bc_sstable_component_cmp("tmp-nb-1-big-Data.db", 12, "nb-1-big-Data.db", 8) > 0, "tmp- apart");

	CHECK(bc_folder_inactive("snapshots", 9) && bc_folder_inactive("backups", 7), "inactive folders");
	CHECK(!bc_folder_inactive("snapshot", 8) && !bc_folder_inactive("data", 4), "active folders");

	CHECK(bc_sstable_state_of(BC_STATE_SNAPSHOT, 1, 1, 1, 0) == BC_STATE_SNAPSHOT, "snapshot first");
	CHECK(bc_sstable_state_of(BC_STATE_BACKUP, 0, 0, 0, 1) == BC_STATE_BACKUP, "backup");
	CHECK(bc_sstable_state_of(BC_STATE_LIVE, 1, 0, 1, 1) == BC_STATE_TEMPORARY, "tmp- name");
	CHECK(bc_sstable_state_of(BC_STATE_LIVE, 0, 1, 1, 1) == BC_STATE_TEMPORARY, "unfinished add");
	CHECK(bc_sstable_state_of(BC_STATE_LIVE, 0, 0, 1, 1) == BC_STATE_OBSOLETE, "committed remove");
	CHECK(bc_sstable_state_of(BC_STATE_LIVE, 0, 0, 0, 0) == BC_STATE_ORPHANED, "no Data.db");
	CHECK(bc_sstable_state_of(BC_STATE_LIVE, 0, 0, 0, 1) == BC_STATE_LIVE, "live");
	/* staging and quarantine: as live, then their folder's; upload: its folder's */
	CHECK(bc_sstable_state_of(BC_STATE_STAGING, 0, 0, 0, 1) == BC_STATE_STAGING, "staging");
	CHECK(bc_sstable_state_of(BC_STATE_STAGING, 1, 0, 0, 1) == BC_STATE_TEMPORARY, "staging tmp");
	CHECK(bc_sstable_state_of(BC_STATE_QUARANTINE, 0, 0, 0, 1) == BC_STATE_QUARANTINE, "quarantine");
	CHECK(bc_sstable_state_of(BC_STATE_QUARANTINE, 0, 0, 0, 0) == BC_STATE_ORPHANED,
		  "quarantine without Data.db");
	CHECK(bc_sstable_state_of(BC_STATE_UPLOAD, 1, 0, 0, 0) == BC_STATE_UPLOAD, "upload");
	CHECK(bc_sstable_state_read(BC_STATE_LIVE) && bc_sstable_state_read(BC_STATE_STAGING) &&
		  bc_sstable_state_read(BC_STATE_QUARANTINE), "states the table reads");
	CHECK(!bc_sstable_state_read(BC_STATE_UPLOAD) && !bc_sstable_state_read(BC_STATE_SNAPSHOT) &&
		  !bc_sstable_state_read(BC_STATE_BACKUP) && !bc_sstable_state_read(BC_STATE_TEMPORARY) &&
		  !bc_sstable_state_read(BC_STATE_OBSOLETE) && !bc_sstable_state_read(BC_STATE_ORPHANED),
		  "states it does not");
	CHECK(strcmp(bc_sstable_state_name(BC_STATE_ORPHANED), "orphaned") == 0 &&
		  strcmp(bc_sstable_state_name(BC_STATE_STAGING), "staging") == 0 &&
		  strcmp(bc_sstable_state_name(BC_STATE_QUARANTINE), "quarantine") == 0 &&
		  strcmp(bc_sstable_state_name(BC_STATE_UPLOAD), "upload") == 0, "state names");
}
