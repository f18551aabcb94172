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
 * A ScyllaDB pending_delete log (bc_pending_delete.h) at path read
 * (ops->read_log) and the SSTables it deletes taken as obsolete, as a
 * committed Cassandra log's
 */
void		bc_walk_txn_pending_delete(bc_walk_txn *t, const char *path);

/* the folder's logs all read: its names sorted, which bc_walk_txn_names
 * needs */
void		bc_walk_txn_seal(bc_walk_txn *t);

/* whether the logs name the descriptor (len bytes) as temporary
 * (obsolete 0) or obsolete (1): a binary search (after bc_walk_txn_seal) */
int			bc_walk_txn_names(const bc_walk_txn *t, int obsolete, const char *descriptor,
							  size_t len);

/* everything t holds given back (ops->release) */
void		bc_walk_txn_free(bc_walk_txn *t);

#endif							/* BC_WALK_TXN_H */
