/*
 * bc_walk_place.h - private to the walk (bc_walk.c): the path whose names
 * say what a folder is (bc_folder_parse: keyspace, table, snapshot, state),
 * from where the folder really is (bc_walk_place.c).  Neither the extension
 * nor bloomcass-load includes this header.
 *
 * Keyspace and table are the names of the folders as walked, as Cassandra
 * names them from its data directories (a keyspace's or a table's folder
 * may be a link to another disk).  What a folder below a table's is
 * (staging/, quarantine/, upload/, <generation>.sstable/, snapshots/<tag>/,
 * backups/, .<index>/) is its place in that table: its real path below the
 * real path of the table's folder.  A symbolic link named staging, upload or
 * 8.sstable that leads out of its table's folder (to another table's folder,
 * or anywhere else) is no such folder of that table: what it leads to is
 * read from its own real path, as it is when walked directly.  So a link
 * never changes what a folder is, and a folder met by two paths is the same
 * thing by both, whichever the walk takes first.
 */
#ifndef BC_WALK_PLACE_H
#define BC_WALK_PLACE_H

#include "bc_walk.h"

/*
 * The path to read the folder dir (real: its real path, or NULL) as:
 * dir itself (NULL is returned), or a path from ops->alloc: the table's
 * folder as walked followed by the folder's real place below it, or its
 * real path when it is not below it.  Asks ops->stat of the table's folder
 * and of the folders above real, only for a folder below a table's.
 */
char	   *bc_walk_place(const bc_walk_ops *ops, void *arg, const char *dir, const char *real);

#endif							/* BC_WALK_PLACE_H */
