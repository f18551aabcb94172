/*
 * bloom_sstable.h - what the data-directory listing knows of one SSTable,
 * shared by the walk (bloom_sstable_dir.c) and the reader of its components
 * (bloom_sstable_read.c).  Private to those two files.
 */
#ifndef BLOOM_SSTABLE_H
#define BLOOM_SSTABLE_H

#include "bc_sstable_name.h"
#include "bloomcass.h"
#include "datatype/timestamp.h"

/* One SSTable found in a folder: the files sharing its prefix. */
typedef struct BloomSSTable
{
	const char *dir;			/* the folder, as the walk reached it */
	char	   *prefix;			/* dir/descriptor: the files' common prefix */
	char	   *descriptor;		/* nb-1-big, ks-cf-ka-1, tmp-la-2-big */
	char	   *version;
	char	   *generation;
	bc_sstable_format format;
	bool		legacy;			/* keyspace-table-... naming */
	bool		temporary;		/* tmp- or tmplink- */
	char	   *name_keyspace;	/* from a legacy name, else NULL */
	char	   *name_table;
	int			ncomponents;
	char	  **components;		/* sorted: Data.db, Filter.db, ... */
	int64	   *sizes;			/* bytes of each component */
	TimestampTz data_mtime;		/* of Data.db */
	bool		have_data_mtime;
} BloomSSTable;

/* What its components say; NULL / false where absent or unreadable. */
typedef struct BloomSSTableMeta
{
	Bloom	   *filter;
	char	   *partitioner;
	bool		have_fp_chance;
	double		fp_chance;
	bool		have_partitions;
	int64		partitions;
	char	   *key_type;
	bytea	   *first_key;
	bytea	   *last_key;
} BloomSSTableMeta;

/* bytes of a component, or -1 when the SSTable has none */
extern BLOOM_INTERNAL int64 bloom_sstable_component_size(const BloomSSTable *s, const char *component);

/*
 * Read the filter (when read_filter), Statistics.db and the key range of an
 * SSTable.  A component that cannot be read or parsed, or a version
 * bloomcass does not read, raises a WARNING naming the file and leaves the
 * fields it would have given unset; privileges are checked (an ERROR) for
 * every file before it is opened.
 */
extern BLOOM_INTERNAL void bloom_sstable_read(const BloomSSTable *s, bool read_filter,
											  BloomSSTableMeta *m);

#endif							/* BLOOM_SSTABLE_H */
