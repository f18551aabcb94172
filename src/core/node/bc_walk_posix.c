/*
 * bc_walk_posix.c - the stat of a walk (bc_walk_ops.stat) with POSIX
 * stat(2), links followed, by path or by a name in an open directory
 * (fstatat(2)), and a folder's real path (realpath(3), then the mount
 * table's choice among the mount points that show it: bc_mounts.h), the
 * SSTables' identity (bc_walk_ops.real_path): the ones the server and the
 * client both use.
 * The rest of the walk's I/O stays with each of them (the server lists
 * directories through its file descriptor bookkeeping, AllocateDir, so
 * that an ERROR closes them).
 */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700		/* realpath(3) */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bc_mounts.h"
#include "bc_walk.h"

static void
stat_of(int rc, const struct stat *st, bc_walk_stat *out)
{
	if (rc != 0)
	{
		out->type = errno == ENOENT ? BC_WALK_GONE : BC_WALK_ERROR;
		out->err = errno;
		return;
	}
	out->type = S_ISDIR(st->st_mode) ? BC_WALK_DIRECTORY :
		S_ISREG(st->st_mode) ? BC_WALK_REGULAR : BC_WALK_OTHER;
	out->err = 0;
	out->dev = (uint64_t) st->st_dev;
	out->ino = (uint64_t) st->st_ino;
	out->size = (int64_t) st->st_size;
	out->mtime = (int64_t) st->st_mtime;
}

void
bc_walk_stat_posix(void *arg, const char *path, bc_walk_stat *out)
{
	struct stat st;

	(void) arg;
	memset(out, 0, sizeof(*out));
	stat_of(stat(path, &st), &st, out);
}

void
bc_walk_stat_posix_at(int dirfd, const char *name, bc_walk_stat *out)
{
	struct stat st;

	memset(out, 0, sizeof(*out));
	stat_of(fstatat(dirfd, name, &st, 0), &st, out);
}

static int
mount_stat(void *arg, const char *path, uint64_t *dev, uint64_t *ino)
{
	struct stat st;

	(void) arg;
	if (stat(path, &st) != 0)
		return -1;
	*dev = (uint64_t) st.st_dev;
	*ino = (uint64_t) st.st_ino;
	return 0;
}

static char *
mount_real_path(void *arg, const char *path)
{
	(void) arg;
	return realpath(path, NULL);
}

/*
 * The process's mount table, from malloc (*len bytes), or NULL when there
 * is none to read.  It is read whole at each call: mounts come and go while
 * a server runs, and a data directory has few folders.  A table larger than
 * MOUNTINFO_MAX (16 MB: about 100,000 mounts) is not read.
 */
#define MOUNTINFO_MAX ((size_t) 16 << 20)

static char *
read_mountinfo(size_t *len)
{
	FILE	   *f = fopen("/proc/self/mountinfo", "r");
	char	   *buf = NULL;
	size_t		cap = 0,
				n = 0;

	if (f == NULL)
		return NULL;
	for (;;)
	{
		size_t		got;

		if (n == cap)
		{
			char	   *nb;

			if (cap >= MOUNTINFO_MAX)
				goto fail;
			cap = cap ? cap * 2 : 16384;
			nb = realloc(buf, cap);
			if (nb == NULL)
				goto fail;
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f))
		goto fail;
	fclose(f);
	*len = n;
	return buf;

fail:
	free(buf);
	fclose(f);
	return NULL;
}

char *
bc_walk_real_path_posix(const char *path)
{
	static const bc_mount_ops ops = {mount_stat, mount_real_path};
	char	   *real = realpath(path, NULL),
			   *info,
			   *canonical;
	size_t		len;
	int			saved;

	if (real == NULL)
		return NULL;
	saved = errno;
	info = read_mountinfo(&len);
	if (info != NULL)
	{
		canonical = bc_mount_canonical(info, len, real, &ops, NULL);
		free(info);
		if (canonical != NULL)
		{
			free(real);
			real = canonical;
		}
	}
	errno = saved;
	return real;
}
