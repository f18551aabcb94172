/*
 * bc_walk_place.c - the path whose names say what a folder is, from where
 * it really is (bc_walk_place.h).
 *
 * ScyllaDB finds a table's staging/, quarantine/, upload/ and
 * <generation>.sstable/ folders in the table's folder of its data
 * directory (sstables/sstable_directory.cc, replica/distributed_loader.cc),
 * and Cassandra a table's snapshots/<tag>/ and backups/ there
 * (Directories): what such a folder is, is where it lies in its table's
 * folder.  The walk reaches folders through symbolic links too, so the
 * names it walked by may not be that place: the real path says it.
 */
#include <string.h>

#include "bc_sstable_dir.h"
#include "bc_tick.h"
#include "bc_walk_place.h"

static void *
place_alloc(const bc_walk_ops *ops, void *arg, size_t size)
{
	return ops->alloc(arg, size ? size : 1);
}

/* the length of path without its trailing '/'s (a root "/" kept) */
static size_t
trimmed(const char *path, size_t len)
{
	while (len > 1 && path[len - 1] == '/')
		len--;
	return len;
}

/*
 * Where real lies below the folder (dev, ino): the offset in real of the
 * part below it ("" or "/..."), found by a stat of each folder above real,
 * the nearest first; -1 when none is that folder.
 */
static long
below_folder(const bc_walk_ops *ops, void *arg, const char *real, uint64_t dev, uint64_t ino)
{
	size_t		len = trimmed(real, strlen(real));
	char	   *prefix = place_alloc(ops, arg, len + 1);
	long		found = -1;
	size_t		steps = 0;

	memcpy(prefix, real, len);
	prefix[len] = '\0';
	while (len > 0)
	{
		bc_walk_stat st;

		BC_TICK(steps);
		steps++;
		/* the folder above: real up to its last '/' */
		while (len > 0 && prefix[len - 1] != '/')
			len--;
		while (len > 1 && prefix[len - 1] == '/')
			len--;
		if (len == 0)
			break;
		prefix[len] = '\0';
		memset(&st, 0, sizeof(st));
		ops->stat(arg, prefix, &st);
		if (st.type == BC_WALK_DIRECTORY && st.dev == dev && st.ino == ino)
		{
			found = (long) (len == 1 ? 0 : len);
			break;
		}
		if (len == 1)
			break;
	}
	ops->release(arg, prefix);
	return found;
}

char *
bc_walk_place(const bc_walk_ops *ops, void *arg, const char *dir, const char *real)
{
	bc_folder	f;
	size_t		dl = strlen(dir),
				tend,
				rl;
	char	   *table_dir,
			   *place;
	bc_walk_stat st;
	long		below;

	if (real == NULL)
		return NULL;
	bc_folder_parse(dir, dl, &f);
	if (f.table == NULL)
		return NULL;
	/* the table's folder as walked: dir up to the end of its name */
	tend = (size_t) (f.table - dir);
	while (tend < dl && dir[tend] != '/')
		tend++;
	if (trimmed(dir, dl) <= tend)
		return NULL;			/* the table's folder itself */

	table_dir = place_alloc(ops, arg, tend + 1);
	memcpy(table_dir, dir, tend);
	table_dir[tend] = '\0';
	memset(&st, 0, sizeof(st));
	ops->stat(arg, table_dir, &st);
	below = st.type == BC_WALK_DIRECTORY ? below_folder(ops, arg, real, st.dev, st.ino) : -1;

	rl = strlen(real);
	if (below < 0)
	{
		/* not in that table's folder: what its own real path says */
		ops->release(arg, table_dir);
		place = place_alloc(ops, arg, rl + 1);
		memcpy(place, real, rl + 1);
		return place;
	}
	/* the table's folder as walked, then the folder's place below it */
	if (trimmed(dir + tend, dl - tend) == trimmed(real + below, rl - (size_t) below) &&
		memcmp(dir + tend, real + below, trimmed(dir + tend, dl - tend)) == 0)
	{
		ops->release(arg, table_dir);
		return NULL;			/* the same names as walked */
	}
	place = place_alloc(ops, arg, tend + (rl - (size_t) below) + 1);
	memcpy(place, table_dir, tend);
	memcpy(place + tend, real + below, rl - (size_t) below + 1);
	ops->release(arg, table_dir);
	return place;
}
