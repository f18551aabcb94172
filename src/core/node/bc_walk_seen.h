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

/* a folder entered by the walk: its device, inode, the path it was
 * entered by (at path - 1 in the set's paths; 0 for an empty slot of the
 * set), its real path (at real - 1; 0: not known) and its state */
typedef struct bc_walk_seen_dir
{
	uint64_t	dev;
	uint64_t	ino;
	size_t		path;
	size_t		real;
	int			state;			/* a bc_sstable_state */
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

/* what the walk knows of a folder it entered before: valid until the next
 * call on the set */
typedef struct bc_walk_seen_first
{
	const char *path;			/* the path it was entered by */
	const char *real;			/* its real path, or NULL */
	int			state;			/* its state (bc_walk_seen_note) */
} bc_walk_seen_first;

/*
 * 1 when the folder (dev, ino) was entered before in this walk, with what
 * is known of it in *first; else 0, and it is added, entered as path.
 * Memory from ops->alloc, given back by bc_walk_seen_free.
 */
int			bc_walk_seen_add(bc_walk_seen *s, const bc_walk_ops *ops, void *arg,
							 uint64_t dev, uint64_t ino, const char *path,
							 bc_walk_seen_first *first);

/* the real path (or NULL) and state of the folder (dev, ino), added before */
void		bc_walk_seen_note(bc_walk_seen *s, const bc_walk_ops *ops, void *arg,
							  uint64_t dev, uint64_t ino, const char *real, int state);

/* release the set's memory; it is empty again */
void		bc_walk_seen_free(bc_walk_seen *s, const bc_walk_ops *ops, void *arg);

#endif							/* BC_WALK_SEEN_H */
