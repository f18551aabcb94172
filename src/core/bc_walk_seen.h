/*
 * bc_walk_seen.h - private to the walk (bc_walk.c): the set of folders a
 * walk has entered (bc_walk_seen.c), so that each is walked once.  Neither
 * the extension nor bloomcass-load includes this header.
 */
#ifndef BC_WALK_SEEN_H
#define BC_WALK_SEEN_H

#include <stddef.h>
#include <stdint.h>

#include "bc_walk.h"

/* a folder entered by the walk: its device, inode and the path it was
 * entered by (at path - 1 in the set's paths; 0 for an empty slot of the
 * set) */
typedef struct bc_walk_seen_dir
{
	uint64_t	dev;
	uint64_t	ino;
	size_t		path;
} bc_walk_seen_dir;

/* every folder entered, an open-addressing hash set at most half full,
 * and their paths, one after the other, each with its NUL; all zero when
 * empty */
typedef struct bc_walk_seen
{
	bc_walk_seen_dir *set;
	size_t		n;
	size_t		cap;			/* a power of two, or 0 */
	char	   *paths;
	size_t		paths_len;
	size_t		paths_cap;
} bc_walk_seen;

/*
 * The path by which the folder (dev, ino) was entered before in this walk,
 * or NULL when it was not, in which case it is added, entered as path.
 * Memory from ops->alloc, given back by bc_walk_seen_free.
 */
const char *bc_walk_seen_add(bc_walk_seen *s, const bc_walk_ops *ops, void *arg,
							 uint64_t dev, uint64_t ino, const char *path);

/* release the set's memory; it is empty again */
void		bc_walk_seen_free(bc_walk_seen *s, const bc_walk_ops *ops, void *arg);

#endif							/* BC_WALK_SEEN_H */
