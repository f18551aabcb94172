/*
 * bc_lookup.h - exact partition key lookups in a BIG SSTable (bc_lookup.c):
 * the order of partition keys under a partitioner, and the search
 * Cassandra's BigTableReader.getPosition makes for an exact key: a binary
 * search of Summary.db's samples (IndexSummary.binarySearch), then one
 * sampling interval of Index.db, reading each entry's key and skipping its
 * promoted index without reading it, up to the first key past it.  Everything is read through the
 * caller's bc_reader, a few small reads at a time.
 */
#ifndef BC_LOOKUP_H
#define BC_LOOKUP_H

#include <stddef.h>
#include <stdint.h>

#include "bc_index.h"
#include "bc_partitioner.h"
#include "bc_reader.h"
#include "bc_status.h"

/* what a lookup read: counts that do not depend on the machine */
typedef struct bc_lookup_stats
{
	uint64_t	summary_reads;	/* reads of Summary.db */
	uint64_t	summary_bytes;
	uint64_t	index_reads;	/* reads of Index.db */
	uint64_t	index_bytes;
	uint64_t	index_entries;	/* Index.db entries whose key was compared */
	int			bounded;		/* 1: Summary.db searched; 0: Index.db read
								 * from its start (no Summary.db, a
								 * partitioner of unknown order, 1.2, or a
								 * Summary.db that cannot be read) */
	bc_status	summary_status; /* BC_OK, or why Summary.db was not used */
} bc_lookup_stats;

/* scratch bytes a lookup needs: two Summary.db or Index.db entries (a
 * sample's key or the previous entry's, and the entry read) */
#define BC_LOOKUP_SCRATCH ((size_t) 2 * (65536 + 64))

/*
 * Whether the BIG SSTable of the given version holds partition key key:
 * *found 1 or 0.  summary may be NULL (no Summary.db: Index.db is read from
 * its start, as for a partitioner whose order is not known).  A Summary.db
 * that is malformed, or whose sample the search lands on is not at its
 * position in Index.db (past its end, or another key there:
 * BC_ERR_SUMMARY_INDEX), is not used, as Cassandra rebuilds a summary it
 * cannot read from Index.db: Index.db is read from its start, and to its
 * end, keys in order, before a key is answered absent;
 * stats->summary_status says why.  scratch is BC_LOOKUP_SCRATCH bytes of
 * the caller's.  BC_ERR_READ when a read failed; the Index.db statuses for
 * a malformed Index.db, BC_ERR_INDEX_KEY_ORDER for keys read out of the
 * partitioner's order; BC_ERR_INDEX_BTI for a trie-indexed version.  A
 * key that Index.db read whole in order (cassandra_sstable_keys) holds is
 * never answered absent.
 */
bc_status	bc_big_lookup(const bc_reader *summary, const bc_reader *index,
						  const char *version, size_t version_len,
						  bc_partitioner p, bc_md5_fn md5,
						  const uint8_t *key, size_t key_len,
						  uint8_t *scratch, int *found, bc_lookup_stats *stats);

/*
 * What a lookup reads of Summary.db's samples, for the check of a whole
 * read of Index.db against them (bc_index_samples.c): the header of a ja+
 * Summary.db (l->base the region's offset, its length and the count of
 * samples; the statuses of a Summary.db a lookup does not use), sample i's
 * Index.db position, and whether a lookup landing on sample i scans from
 * there (*at 1: its position inside Index.db, an entry there that reads
 * whole, of the sample's key) or reads Index.db from its start (*at 0).
 * scratch: BC_LOOKUP_SCRATCH bytes.  BC_ERR_READ when a read failed.
 */
typedef struct bc_summary_layout
{
	uint64_t	base;
	uint64_t	region;
	int32_t		count;
} bc_summary_layout;

bc_status	bc_lookup_summary_layout(const bc_reader *summary, bc_index_era era,
									 bc_summary_layout *l);
bc_status	bc_lookup_sample_position(const bc_reader *summary, const bc_summary_layout *l,
									  int32_t i, uint64_t *position);
bc_status	bc_lookup_sample_at(const bc_reader *summary, const bc_reader *index,
								const bc_summary_layout *l, bc_index_era era,
								int negative_is_none, int32_t i, uint8_t *scratch, int *at);

#endif							/* BC_LOOKUP_H */
