/*
 * bc_walk_txn.h - private to the walk (bc_walk.c): what the transaction
 * logs of one folder say of its SSTables (bc_walk_txn.c), read as
 * Cassandra's listing applies them (LogTransaction, LogFile,
 * LogAwareFileLister: bc_txn_log_scan).  Neither the extension nor
 * bloomcass-load includes this header.
 */
#ifndef BC_WALK_TXN_H
#define BC_WALK_TXN_H

#include <stddef.h>

#include "bc_walk.h"

/* one SSTable descriptor a log names: an alloc'd copy */
typedef struct bc_walk_name
{
	char	   *s;
	size_t		len;
} bc_walk_name;

/* the SSTable descriptors a folder's logs name, sorted by bc_walk_txn_seal */
typedef struct bc_walk_names
{
	bc_walk_name *items;
	size_t		n;
	size_t		cap;
	int			sorted;
} bc_walk_names;

/* one folder's logs; all zero but ops and arg before the first */
typedef struct bc_walk_txn
{
	const bc_walk_ops *ops;
	void	   *arg;
	bc_walk_names temporary;	/* ADDed by unfinished operations */
	bc_walk_names obsolete;		/* REMOVEd by committed ones */
} bc_walk_txn;

/*
 * The log at path read (ops->read_log) and applied to t; what is wrong
 * with it told to ops->problem: one that fails verification, one whose
 * last record alone is damaged (not one a crash cut short: that is
 * expected) and one Cassandra cannot read.
 */
void		bc_walk_txn_read(bc_walk_txn *t, const char *path);

/*
 * ScyllaDB's pending_delete logs (sstables/sstable_directory.cc:
 * replay_pending_delete_log; docs/dev/sstables-directory-structure.md).
 * Atomic deletion writes, in the table folder's pending_delete/, the TOC
 * file names of the SSTables it deletes, one a line, as
 * sstables-<min>-<max>.log.tmp, renames it to .log once written, deletes the
 * SSTables, then the log.  At startup a .log is replayed (every SSTable it
 * names deleted: here obsolete, as a committed Cassandra log's), a .tmp one
 * deleted unread (its SSTables stay), anything else ignored.
 * bc_walk_pending_delete_log_name: whether a name is one to replay (its
 * extension, as std::filesystem::path::extension gives it, is .log);
 * bc_walk_txn_pending_delete: the log at path read (ops->read_log) and its
 * SSTables taken as obsolete: the lines, empty ones skipped, that are an
 * SSTable's TOC.txt by name alone (ScyllaDB joins each to the table's
 * folder).
 */
int			bc_walk_pending_delete_log_name(const char *name, size_t len);
void		bc_walk_txn_pending_delete(bc_walk_txn *t, const char *path);

/* the folder's logs all read: its names sorted, for bc_walk_txn_names */
void		bc_walk_txn_seal(bc_walk_txn *t);

/* whether the logs name the descriptor (len bytes) as temporary
 * (obsolete 0) or obsolete (1): a binary search once sealed */
int			bc_walk_txn_names(const bc_walk_txn *t, int obsolete, const char *descriptor,
							  size_t len);

/* everything t holds given back (ops->release) */
void		bc_walk_txn_free(bc_walk_txn *t);

#endif							/* BC_WALK_TXN_H */
