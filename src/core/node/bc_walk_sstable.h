/*
 * bc_walk_sstable.h - private to the walk (bc_walk.c): one SSTable of a
 * folder made into a bc_walk_sstable (bc_walk_sstable.c).  Neither the
 * extension nor bloomcass-load includes this header.
 */
#ifndef BC_WALK_SSTABLE_H
#define BC_WALK_SSTABLE_H

#include <stddef.h>

#include "bc_sstable_dir.h"
#include "bc_walk.h"
#include "bc_walk_txn.h"

/*
 * The SSTable of the component files entries[0 .. n) (one descriptor) of
 * the folder f, at dir (its real path), reached as walked_dir, its names
 * read from place, with what its logs say of it (logs:
 * bc_walk_txn_flags), into *out: every string in one block from
 * ops->alloc, returned for the caller to release once it is done with it.
 */
void	   *bc_walk_make_sstable(const bc_walk_ops *ops, void *arg, const char *dir,
								 const char *walked_dir, const char *place, const bc_folder *f,
								 const bc_walk_entry *entries, size_t n, int logs,
								 bc_walk_sstable *out);

#endif							/* BC_WALK_SSTABLE_H */
