/*
 * bc_walk_txn.h - private to the walk (bc_walk.c): what the logs of one
 * folder say of its SSTables (bc_walk_txn.c): Cassandra's transaction logs,
 * read as its listing applies them (LogTransaction, LogFile,
 * LogAwareFileLister: bc_txn_log_scan), and ScyllaDB's pending_delete logs
 * (bc_pending_delete.h).  Neither the extension nor bloomcass-load includes
 * this header.
 *
 * What is kept is one byte per component file of the folder, not the names
 * the logs give: a log naming a million SSTables beside a folder of ten
 * costs ten bytes once read, and each log file (its device and inode) is
 * read once per folder, however many names (links) it has there.
 */
#ifndef BC_WALK_TXN_H
#define BC_WALK_TXN_H

#include <stddef.h>
#include <stdint.h>

#include "bc_walk.h"

/* one component file of the folder being walked: its name parsed again
 * where more than these are needed (an SSTable's first component), so that
 * a folder of many SSTables costs little per file */
typedef struct bc_walk_entry
{
	const char *name;			/* into the folder's names */
	uint32_t	descriptor_len;
	uint32_t	component_off;	/* the component's name: name + off, len */
	uint32_t	component_len;
	int64_t		size;
	int64_t		mtime;
} bc_walk_entry;

/* what the logs say of an SSTable (bc_walk_txn_flags) */
#define BC_WALK_TXN_TEMPORARY 1	/* ADDed by an unfinished operation */
#define BC_WALK_TXN_OBSOLETE 2	/* REMOVEd by a committed one, or named by
								 * a pending_delete log */

/* a log file of a folder: its name there and its file (dev and ino both 0
 * when not known: then never taken for another name's) */
typedef struct bc_walk_log
{
	const char *name;
	uint64_t	dev;
	uint64_t	ino;
	int			again;			/* another name of a file read before */
} bc_walk_log;

/* one folder's logs and what they say */
typedef struct bc_walk_txn
{
	const bc_walk_ops *ops;
	void	   *arg;
	const bc_walk_entry *entries;	/* the folder's, in SSTable order */
	size_t		nentries;
	unsigned char *flags;		/* one per entry (from alloc), set on the
								 * first of each SSTable; NULL: none set */
	size_t	   *marked;			/* the entries the pending_delete log being
								 * read names */
	size_t		nmarked;
} bc_walk_txn;

/* t made ready for the folder's component files entries[0 .. n), sorted
 * by bc_sstable_component_cmp, kept until bc_walk_txn_free */
void		bc_walk_txn_init(bc_walk_txn *t, const bc_walk_ops *ops, void *arg,
							 const bc_walk_entry *entries, size_t n);

/*
 * The logs logs[0 .. n) of the folder dir read, in that order, each file
 * once (a name of a file read before, its device and inode, is passed
 * over), and applied to the folder's SSTables: transaction logs
 * (pending_delete 0) through ops->read_log, what is wrong with one told to
 * ops->problem (one that fails verification, one whose last record alone
 * is damaged (not one a crash cut short: that is expected), one Cassandra
 * cannot read); pending_delete logs (1) in pieces (ops->read_pieces, else
 * ops->read_log), the SSTables one names taken as obsolete, as a committed
 * Cassandra log's, once it is read whole.
 */
void		bc_walk_txn_read_logs(bc_walk_txn *t, const char *dir, bc_walk_log *logs, size_t n,
								  int pending_delete);

/* what the logs say of the SSTable whose first component is entries[i]:
 * BC_WALK_TXN_TEMPORARY and BC_WALK_TXN_OBSOLETE, or 0 */
int			bc_walk_txn_flags(const bc_walk_txn *t, size_t i);

/* everything t holds given back (ops->release) */
void		bc_walk_txn_free(bc_walk_txn *t);

#endif							/* BC_WALK_TXN_H */
