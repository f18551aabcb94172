/*
 * tool_io.c - files for the test data tools (see tool_io.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_sstable_name.h"
#include "tool_io.h"

const char *tool_name = "tool";

void
tool_die(const char *fmt,...)
{
	va_list		ap;

	fprintf(stderr, "%s: ", tool_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void *
tool_alloc(size_t n)
{
	void	   *p = malloc(n > 0 ? n : 1);

	if (p == NULL)
		tool_die("out of memory (%zu bytes)", n);
	return p;
}

char *
tool_component_path(const char *prefix, const char *component)
{
	size_t		n = strlen(prefix) + 1 + strlen(component) + 1;
	char	   *p = tool_alloc(n);

	snprintf(p, n, "%s-%s", prefix, component);
	return p;
}

uint8_t *
tool_read(const char *path, size_t *len, int may_lack)
{
	FILE	   *f = fopen(path, "rb");
	uint8_t    *d;
	long		size;

	*len = 0;
	if (f == NULL)
	{
		if (may_lack && errno == ENOENT)
			return NULL;
		tool_die("cannot read %s: %s", path, strerror(errno));
	}
	if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
		tool_die("cannot read %s: %s", path, strerror(errno));
	d = tool_alloc((size_t) size);
	if (size > 0 && fread(d, 1, (size_t) size, f) != (size_t) size)
		tool_die("cannot read %s: short read", path);
	fclose(f);
	*len = (size_t) size;
	return d;
}

void
tool_write(const char *path, const uint8_t *data, size_t len)
{
	FILE	   *f = fopen(path, "wb");

	if (f == NULL)
		tool_die("cannot write %s: %s", path, strerror(errno));
	if ((len > 0 && fwrite(data, 1, len, f) != len) || fclose(f) != 0)
		tool_die("cannot write %s: %s", path, strerror(errno));
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

char **
tool_components(const char *prefix, size_t *n)
{
	const char *slash = strrchr(prefix, '/');
	char	   *dir;
	const char *base = slash ? slash + 1 : prefix;
	size_t		blen = strlen(base),
				cap = 16;
	char	  **names = tool_alloc(cap * sizeof(char *));
	DIR		   *d;
	struct dirent *e;

	if (slash == NULL)
		dir = strcpy(tool_alloc(2), ".");
	else
	{
		dir = tool_alloc((size_t) (slash - prefix) + 2);
		memcpy(dir, prefix, (size_t) (slash - prefix));
		dir[slash - prefix] = '\0';
		if (slash == prefix)
			strcpy(dir, "/");
	}
	*n = 0;
	if ((d = opendir(dir)) == NULL)
		tool_die("cannot read directory %s: %s", dir, strerror(errno));
	while ((e = readdir(d)) != NULL)
	{
		const char *c = e->d_name + blen + 1;

		if (strncmp(e->d_name, base, blen) != 0 || e->d_name[blen] != '-' ||
			*c == '\0' || strchr(c, '-') != NULL)
			continue;
		if (*n == cap)
		{
			char	  **more = tool_alloc(2 * cap * sizeof(char *));

			memcpy(more, names, cap * sizeof(char *));
			free(names);
			names = more;
			cap *= 2;
		}
		names[(*n)++] = strcpy(tool_alloc(strlen(c) + 1), c);
	}
	closedir(d);
	free(dir);
	if (*n == 0)
		tool_die("%s: no SSTable components", prefix);
	qsort(names, *n, sizeof(char *), cmp_names);
	return names;
}

void
tool_version(const char *prefix, char version[3])
{
	const char *slash = strrchr(prefix, '/');
	char	   *name = tool_component_path(slash ? slash + 1 : prefix, "Data.db");
	bc_sstable_name sn;

	if (bc_sstable_name_parse(name, strlen(name), &sn) != BC_OK || sn.version_len > 2)
		tool_die("%s: not an SSTable's name", prefix);
	memcpy(version, sn.version, sn.version_len);
	version[sn.version_len] = '\0';
	free(name);
}

static int
mem_read(void *arg, uint64_t offset, uint8_t *buf, size_t len, size_t *got)
{
	tool_mem   *m = arg;

	*got = 0;
	if (offset >= m->len)
		return 0;
	*got = m->len - (size_t) offset < len ? m->len - (size_t) offset : len;
	memcpy(buf, m->data + offset, *got);
	return 0;
}

bc_reader
tool_mem_reader(tool_mem *m, const uint8_t *data, size_t len)
{
	bc_reader	r;

	m->data = data;
	m->len = len;
	r.read = mem_read;
	r.arg = m;
	r.size = len;
	return r;
}

void
tool_put_utf(bytebuf *b, const char *s, size_t n)
{
	if (n > 65535)
		tool_die("a string of %zu bytes does not fit writeUTF", n);
	bytebuf_put_be(b, n, 2);
	bytebuf_put(b, s, n);
}
