/*
 * walk_memfs.c - the in-memory file system of the walk's tests
 * (walk_memfs.h): its table of paths, what is added to it, and the lookup
 * of a path through its links.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_txn_log.h"
#include "bc_walk.h"
#include "bc_sstable_dir.h"
#include "bc_sstable_name.h"
#include "bc_status.h"
#include "bc_tick.h"
#include "unit.h"
#include "walk_memfs.h"

char *
xstrdup(const char *s)
{
	size_t		n = strlen(s);
	char	   *p = malloc(n + 1);

	memcpy(p, s, n + 1);
	return p;
}

void
fs_init(memfs *fs)
{
	memset(fs, 0, sizeof(*fs));
	fs->next_ino = 100;
}

void
fs_free(memfs *fs)
{
	size_t		i;

	for (i = 0; i < fs->n; i++)
	{
		free(fs->e[i].path);
		free(fs->e[i].target);
		free(fs->e[i].log);
	}
	free(fs->e);
	free(fs->out);
	memset(fs, 0, sizeof(*fs));
}

fsent *
fs_add(memfs *fs, const char *path, int kind)
{
	fsent	   *e;

	if (fs->n == fs->cap)
	{
		fs->cap = fs->cap ? 2 * fs->cap : 64;
		fs->e = realloc(fs->e, fs->cap * sizeof(fsent));
	}
	e = &fs->e[fs->n++];
	memset(e, 0, sizeof(*e));
	e->path = xstrdup(path);
	e->kind = kind;
	e->dev = 1;
	e->ino = fs->next_ino++;
	return e;
}

fsent *
fs_dir(memfs *fs, const char *path)
{
	return fs_add(fs, path, K_DIR);
}

fsent *
fs_file(memfs *fs, const char *path, int64_t size, int64_t mtime)
{
	fsent	   *e = fs_add(fs, path, K_FILE);

	e->size = size;
	e->mtime = mtime;
	return e;
}

fsent *
fs_log(memfs *fs, const char *path, const char *text)
{
	fsent	   *e = fs_file(fs, path, text ? (int64_t) strlen(text) : 100, 2000);

	e->log = text ? xstrdup(text) : NULL;
	return e;
}

fsent *
fs_error(memfs *fs, const char *path, int err)
{
	fsent	   *e = fs_add(fs, path, K_ERROR);

	e->err = err;
	return e;
}

/* a symbolic link to a folder: its stat is the folder's */
fsent *
fs_link(memfs *fs, const char *path, const char *target, const fsent *folder)
{
	uint64_t	dev = folder->dev,
				ino = folder->ino;	/* fs_add may move the table */
	fsent	   *e = fs_add(fs, path, K_DIR);

	e->target = xstrdup(target);
	e->dev = dev;
	e->ino = ino;
	return e;
}

void
emit(memfs *fs, const char *fmt,...)
{
	va_list		ap;
	int			n;

	for (;;)
	{
		size_t		room = fs->outcap - fs->outlen;

		va_start(ap, fmt);
		n = vsnprintf(fs->out ? fs->out + fs->outlen : NULL, room, fmt, ap);
		va_end(ap);
		if (n >= 0 && (size_t) n + 1 < room)
			break;
		fs->outcap = fs->outcap ? 2 * fs->outcap + (size_t) n : 4096;
		fs->out = realloc(fs->out, fs->outcap);
	}
	fs->outlen += (size_t) n;
	fs->out[fs->outlen++] = '\n';
	fs->out[fs->outlen] = '\0';
}

/* path without trailing '/'s ("/" stays) */
void
normalize(const char *path, char *out, size_t cap)
{
	size_t		n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	if (n >= cap)
		n = cap - 1;
	memcpy(out, path, n);
	out[n] = '\0';
}

/* the entry of a path, through the links above it; NULL if none */
fsent *
lookup(memfs *fs, const char *path)
{
	char		cur[4096],
				next[4096];
	int			hops;

	normalize(path, cur, sizeof(cur));
	for (hops = 0; hops < 16; hops++)
	{
		size_t		i;
		fsent	   *via = NULL;

		for (i = 0; i < fs->n; i++)
			if (strcmp(fs->e[i].path, cur) == 0)
				return &fs->e[i];
		for (i = 0; i < fs->n && via == NULL; i++)
		{
			size_t		l = strlen(fs->e[i].path);

			if (fs->e[i].target != NULL && strncmp(cur, fs->e[i].path, l) == 0 &&
				cur[l] == '/')
				via = &fs->e[i];
		}
		if (via == NULL)
			return NULL;
		snprintf(next, sizeof(next), "%s%s", via->target, cur + strlen(via->path));
		memcpy(cur, next, sizeof(cur));
	}
	return NULL;
}
