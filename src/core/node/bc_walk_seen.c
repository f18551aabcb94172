/*
 * bc_walk_seen.c - the folders a walk (bc_walk.c) has entered, by device
 * and inode.  Symbolic links are followed, so a folder may be met again by
 * another path: the walk asks this set before it enters one, and skips a
 * folder entered before (BC_WALK_ALREADY_WALKED, with the path it was
 * entered by, its real path and its state).  An open-addressing hash set
 * at most half full, kept for the
 * whole walk: each lookup costs the same whatever the number of folders,
 * and two allocations hold the whole set, whatever its size.
 */
#include <string.h>

#include "bc_walk.h"
#include "bc_walk_seen.h"

static size_t
seen_slot(const bc_walk_seen_dir *set, size_t cap, uint64_t dev, uint64_t ino)
{
	uint64_t	h = ino * UINT64_C(0x9E3779B97F4A7C15) ^ (dev + UINT64_C(0x632BE59BD9B4E019));
	size_t		i;

	h ^= h >> 31;
	h *= UINT64_C(0xBF58476D1CE4E5B9);
	h ^= h >> 29;
	for (i = (size_t) h & (cap - 1);; i = (i + 1) & (cap - 1))
		if (set[i].path == 0 || (set[i].dev == dev && set[i].ino == ino))
			return i;
}

/* room for len more bytes of paths */
static void
paths_room(bc_walk_seen *s, const bc_walk_ops *ops, void *arg, size_t len)
{
	while (s->paths_cap - s->paths_len < len)
	{
		size_t		cap = s->paths_cap ? 2 * s->paths_cap : 4096;
		char	   *p = ops->alloc(arg, cap);

		if (s->paths_len > 0)
			memcpy(p, s->paths, s->paths_len);
		if (s->paths != NULL)
			ops->release(arg, s->paths);
		s->paths = p;
		s->paths_cap = cap;
	}
}

int
bc_walk_seen_add(bc_walk_seen *s, const bc_walk_ops *ops, void *arg,
				 uint64_t dev, uint64_t ino, const char *path, bc_walk_seen_first *first)
{
	size_t		len = strlen(path) + 1;
	size_t		i;

	if (s->cap > 0)
	{
		i = seen_slot(s->set, s->cap, dev, ino);
		if (s->set[i].path != 0)
		{
			first->path = s->paths + s->set[i].path - 1;
			first->real = s->set[i].real ? s->paths + s->set[i].real - 1 : NULL;
			first->state = s->set[i].state;
			return 1;
		}
	}
	if (2 * (s->n + 1) > s->cap)
	{
		size_t		cap = s->cap ? 2 * s->cap : 64;
		bc_walk_seen_dir *set = ops->alloc(arg, cap * sizeof(bc_walk_seen_dir));

		memset(set, 0, cap * sizeof(bc_walk_seen_dir));
		for (i = 0; i < s->cap; i++)
			if (s->set[i].path != 0)
				set[seen_slot(set, cap, s->set[i].dev, s->set[i].ino)] = s->set[i];
		if (s->set != NULL)
			ops->release(arg, s->set);
		s->set = set;
		s->cap = cap;
	}
	paths_room(s, ops, arg, len);
	memcpy(s->paths + s->paths_len, path, len);
	i = seen_slot(s->set, s->cap, dev, ino);
	s->set[i].dev = dev;
	s->set[i].ino = ino;
	s->set[i].path = s->paths_len + 1;
	s->set[i].real = 0;
	s->set[i].state = 0;
	s->paths_len += len;
	s->n++;
	return 0;
}

void
bc_walk_seen_note(bc_walk_seen *s, const bc_walk_ops *ops, void *arg,
				  uint64_t dev, uint64_t ino, const char *real, int state)
{
	size_t		i;

	if (s->cap == 0)
		return;
	i = seen_slot(s->set, s->cap, dev, ino);
	if (s->set[i].path == 0)
		return;
	s->set[i].state = state;
	if (real != NULL)
	{
		size_t		len = strlen(real) + 1;

		paths_room(s, ops, arg, len);
		memcpy(s->paths + s->paths_len, real, len);
		s->set[i].real = s->paths_len + 1;
		s->paths_len += len;
	}
}

void
bc_walk_seen_free(bc_walk_seen *s, const bc_walk_ops *ops, void *arg)
{
	if (s->set != NULL)
		ops->release(arg, s->set);
	if (s->paths != NULL)
		ops->release(arg, s->paths);
	memset(s, 0, sizeof(*s));
}
