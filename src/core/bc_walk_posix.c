/*
 * bc_walk_posix.c - the stat of a walk (bc_walk_ops.stat) with POSIX
 * stat(2), links followed, by path or by a name in an open directory
 * (fstatat(2)), and a folder's real path (realpath(3), the SSTables'
 * identity: bc_walk_ops.real_path): the ones the server and the client
 * both use.
 * The rest of the walk's I/O stays with each of them (the server lists
 * directories through its file descriptor bookkeeping, AllocateDir, so
 * that an ERROR closes them).
 */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700		/* realpath(3) */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

char *
bc_walk_real_path_posix(const char *path)
{
	return realpath(path, NULL);
}
