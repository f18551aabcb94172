/*
 * bloom_sstable.h - what cassandra_sstables reads from the components of
 * one SSTable the core's walk (bc_walk.h) has found: shared by the listing
 * (bloom_sstable_dir.c) and the reader of the components
 * (bloom_sstable_read.c).  Private to those two files.
 */
#ifndef BLOOM_SSTABLE_H
#define BLOOM_SSTABLE_H

#include "bc_sstable_name.h"
#include "bloomcass.h"
#include "bc_walk.h"

/* What its components say; NULL / false where absent or unreadable. */
typedef struct BloomSSTableMeta
{
	bool		have_filter;
	Datum		filter;			/* an expanded object: the bits are read
								 * into the row when it is formed */
	char	   *partitioner;
	bool		have_fp_chance;
	double		fp_chance;
	bool		have_partitions;
	int64		partitions;
	char	   *key_type;
	bytea	   *first_key;
	bytea	   *last_key;

	/*
	 * The stats facts of cassandra_sstables' later columns, from the same
	 * parse of Statistics.db: have_stats when the version's stats were read
	 * whole (cassandra_metadata's rule), then each have_* says the version
	 * stores the fact (the deletion times: and it is not "no deletion").
	 */
	bool		have_stats;
	bool		have_min_timestamp;
	int64		min_timestamp;
	bool		have_max_timestamp;
	int64		max_timestamp;
	bool		have_min_ldt;
	int64		min_ldt;
	bool		have_max_ldt;
	int64		max_ldt;
	bool		have_ttl;
	int64		min_ttl;
	int64		max_ttl;
	bool		have_level;
	int32		sstable_level;
	bool		have_repaired_at;
	int64		repaired_at;
	bool		have_pending_repair;
	uint8		pending_repair[16];
	bool		have_is_transient;
	bool		is_transient;
} BloomSSTableMeta;

/*
 * Read the filter (when read_filter), Statistics.db and the key range of an
 * SSTable.  A component that cannot be read or parsed, or a version
 * bloomcass does not read, raises a WARNING naming the file and leaves the
 * fields it would have given unset; privileges are checked (an ERROR) for
 * every file before it is opened.
 */
extern BLOOM_INTERNAL void bloom_sstable_read(const bc_walk_sstable *s, bool read_filter,
											  BloomSSTableMeta *m);

#endif							/* BLOOM_SSTABLE_H */
