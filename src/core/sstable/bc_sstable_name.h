/*
 * bc_sstable_name.h - the file names of an SSTable's components
 * (bc_sstable_name.c; Cassandra's Descriptor): the two namings,
 *   <keyspace>-<table>-[tmp-|tmplink-]<version>-<generation>-<Component>
 *   [tmp-|tmplink-]<version>-<generation>-<big|bti>-<Component>
 * the second with a decimal or a 4.1+ time-UUID (base 36) generation.  The
 * fields point into the name given; keyspace and table are set only by the
 * first naming.  name[0 .. descriptor_len) is the SSTable's common prefix.
 */
#ifndef BC_SSTABLE_NAME_H
#define BC_SSTABLE_NAME_H

#include <stddef.h>
#include <stdint.h>

#include "bc_status.h"

typedef enum bc_sstable_format
{
	BC_SSTABLE_BIG = 0,
	BC_SSTABLE_BTI = 1
} bc_sstable_format;

typedef struct bc_sstable_name
{
	const char *keyspace;
	size_t		keyspace_len;
	const char *table;
	size_t		table_len;
	const char *version;
	size_t		version_len;
	const char *generation;
	size_t		generation_len;
	const char *component;
	size_t		component_len;
	size_t		descriptor_len;
	bc_sstable_format format;
	int			legacy;			/* keyspace-table-... (before 2.2) */
	int			temporary;		/* tmp- or tmplink-: still being written */
	int			uuid_generation;	/* a time-UUID identifier */
	int			unfinished;		/* ScyllaDB's TOC.txt.tmp or TemporaryHashes.db.tmp:
								 * its SSTable is being written or deleted */
} bc_sstable_name;

bc_status	bc_sstable_name_parse(const char *name, size_t len, bc_sstable_name *out);

/* 1 for a component that marks its SSTable unfinished (ScyllaDB's
 * TOC.txt.tmp, and TemporaryHashes.db.tmp of ms and mt), for its version */
int			bc_sstable_component_unfinished(const char *component, size_t len,
											const char *version, size_t version_len);

/* the table name of a table folder (<table>, <table>-<32 hex>, <table>-<uuid>);
 * for the core (bc_folder_parse) and its tests */
bc_status	bc_sstable_table_dir(const char *name, size_t len, size_t *table_len);

/*
 * 1 when TOC.txt (toc, len bytes) lists component (a line of its own), 0
 * when it does not.  The readers decide an SSTable's components by it:
 * Cassandra's TOCComponent.loadTOC (SSTable.readTOC before 5.0) takes
 * each line as a component's name, and ScyllaDB's sstable::read_toc each
 * line split on '\n'; blanks at a line's ends (a '\r' of a copy) are
 * not part of the name.
 */
int			bc_toc_lists(const uint8_t *toc, size_t len, const char *component);

#endif							/* BC_SSTABLE_NAME_H */
