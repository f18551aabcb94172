/*
 * bc_mounts.c - one path per folder whichever mount point reaches it
 * (bc_mounts.h says which path, and why).
 *
 * A line of /proc/self/mountinfo (proc(5); fs/proc_namespace.c's
 * show_mountinfo writes it):
 *
 *   36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw
 *   (1)(2)(3)   (4)   (5)   ...
 *
 * (3) the filesystem's device major:minor, (4) the folder of that
 * filesystem the mount shows (its root), (5) where it shows it, relative
 * to the process's root (mounts it cannot reach are not listed).  In (4)
 * and (5) a space, tab, newline or backslash is written as a backslash and
 * three octal digits (mangle_path / seq_path_root with " \t\n\\").
 */
#include <stdlib.h>
#include <string.h>

#include "bc_mounts.h"

typedef struct mount_entry
{
	const char *dev;			/* major:minor, in the text */
	size_t		devlen;
	char	   *root;			/* unescaped */
	char	   *point;			/* unescaped */
} mount_entry;

/* the field [*p, end of field) of the line [p, end): its start, *p moved
 * past it and its space; NULL when the line has no more */
static const char *
field(const char **p, const char *end, size_t *flen)
{
	const char *s = *p,
			   *e;

	if (s >= end)
		return NULL;
	e = memchr(s, ' ', (size_t) (end - s));
	if (e == NULL)
		e = end;
	*flen = (size_t) (e - s);
	*p = e < end ? e + 1 : end;
	return *flen > 0 ? s : NULL;
}

/* a path field unescaped, from malloc; NULL when it is not an absolute
 * path, holds a NUL, or memory runs out */
static char *
unescape(const char *s, size_t n)
{
	char	   *out,
			   *o;
	size_t		i;

	if (n == 0 || s[0] != '/')
		return NULL;
	out = o = malloc(n + 1);
	if (out == NULL)
		return NULL;
	for (i = 0; i < n; i++)
	{
		if (s[i] == '\\' && i + 3 < n &&
			s[i + 1] >= '0' && s[i + 1] <= '3' &&
			s[i + 2] >= '0' && s[i + 2] <= '7' &&
			s[i + 3] >= '0' && s[i + 3] <= '7')
		{
			int			c = (s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0');

			if (c == 0)
			{
				free(out);
				return NULL;
			}
			*o++ = (char) c;
			i += 3;
		}
		else
			*o++ = s[i];
	}
	*o = '\0';
	return out;
}

/* what of path lies below prefix ("" for prefix itself, else from its
 * '/'), by whole names; NULL when path is not prefix nor below it */
static const char *
below(const char *path, const char *prefix)
{
	size_t		n = strlen(prefix);

	if (strcmp(prefix, "/") == 0)
		return path[0] == '/' ? (strcmp(path, "/") == 0 ? "" : path) : NULL;
	if (strncmp(path, prefix, n) != 0)
		return NULL;
	if (path[n] == '\0' || path[n] == '/')
		return path + n;
	return NULL;
}

/* base followed by rest ("" or from a '/'), from malloc */
static char *
join(const char *base, const char *rest)
{
	size_t		nb = strcmp(base, "/") == 0 ? 0 : strlen(base),
				nr = strlen(rest);
	char	   *out = malloc(nb + nr + 2);

	if (out == NULL)
		return NULL;
	memcpy(out, base, nb);
	memcpy(out + nb, rest, nr);
	if (nb + nr == 0)
		out[nr++] = '/';
	out[nb + nr] = '\0';
	return out;
}

static void
free_entries(mount_entry *m, size_t n)
{
	size_t		i;

	for (i = 0; i < n; i++)
	{
		free(m[i].root);
		free(m[i].point);
	}
	free(m);
}

/* the lines of mountinfo that parse, in their order; *n their count */
static mount_entry *
parse(const char *text, size_t len, size_t *n)
{
	const char *p = text,
			   *end = text + len;
	size_t		lines = 1,
				i;
	mount_entry *m;

	*n = 0;
	for (i = 0; i < len; i++)
		lines += text[i] == '\n';
	m = calloc(lines, sizeof(*m));
	if (m == NULL)
		return NULL;
	while (p < end)
	{
		const char *eol = memchr(p, '\n', (size_t) (end - p)),
				   *q = p,
				   *dev,
				   *root,
				   *point;
		size_t		devlen,
					rootlen,
					pointlen;

		if (eol == NULL)
			eol = end;
		/* (1) mount id, (2) parent id, (3) major:minor, (4) root, (5) point */
		if (field(&q, eol, &devlen) != NULL &&
			field(&q, eol, &devlen) != NULL &&
			(dev = field(&q, eol, &devlen)) != NULL &&
			memchr(dev, ':', devlen) != NULL &&
			(root = field(&q, eol, &rootlen)) != NULL &&
			(point = field(&q, eol, &pointlen)) != NULL)
		{
			mount_entry *e = &m[*n];

			e->dev = dev;
			e->devlen = devlen;
			e->root = unescape(root, rootlen);
			e->point = unescape(point, pointlen);
			if (e->root != NULL && e->point != NULL)
				(*n)++;
			else
			{
				free(e->root);
				free(e->point);
				e->root = e->point = NULL;
			}
		}
		p = eol < end ? eol + 1 : end;
	}
	return m;
}

/* a mount that shows the place: the length of its root, its line */
typedef struct candidate
{
	size_t		rootlen;
	size_t		index;
} candidate;

/* shortest root first, then the first listed */
static int
candidate_cmp(const void *a, const void *b)
{
	const candidate *x = a,
			   *y = b;

	if (x->rootlen != y->rootlen)
		return x->rootlen < y->rootlen ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* the path p names folder (dev, ino) as its own real path */
static int
same_folder(const char *p, uint64_t dev, uint64_t ino,
			const bc_mount_ops *ops, void *arg)
{
	char	   *cr = ops->real_path(arg, p);
	uint64_t	cdev,
				cino;
	int			same = cr != NULL && strcmp(cr, p) == 0 &&
		ops->stat(arg, p, &cdev, &cino) == 0 && cdev == dev && cino == ino;

	free(cr);
	return same;
}

/* path lies below a listed mount point (or is one) */
static int
on_a_mount(const char *path, const mount_entry *m, size_t n)
{
	size_t		i;

	for (i = 0; i < n; i++)
		if (below(path, m[i].point) != NULL)
			return 1;
	return 0;
}

/*
 * When no mount is listed at "/", the process's root is a folder of a
 * filesystem, not a mount (a chroot): what lies on no listed mount is
 * reached through it, and a place of that filesystem is reached from it
 * by the place with the root's folder taken away in front.  That folder
 * is not listed, so the place's leading names are taken away one by one
 * (/var/tmp/ch/srv/data, /tmp/ch/srv/data, /ch/srv/data, /srv/data, /data)
 * and the first path that lies on no listed mount and is the same folder
 * as its own real path is the one: within one filesystem, with no link
 * and no mount on the way, a folder has one path.  NULL when there is none
 * (the folder is not below the root's folder, or of another filesystem).
 */
static char *
from_the_root(const char *place, const mount_entry *m, size_t n,
			  uint64_t dev, uint64_t ino, const bc_mount_ops *ops, void *arg)
{
	const char *p;

	for (p = place; p != NULL; p = strchr(p + 1, '/'))
	{
		if (!on_a_mount(p, m, n) && same_folder(p, dev, ino, ops, arg))
		{
			char	   *out = malloc(strlen(p) + 1);

			return out != NULL ? strcpy(out, p) : NULL;
		}
	}
	return NULL;
}

char *
bc_mount_canonical(const char *mountinfo, size_t len, const char *real,
				   const bc_mount_ops *ops, void *arg)
{
	mount_entry *m;
	size_t		n,
				i,
				on = 0,
				best_point = 0;
	int			found = 0;
	char	   *place,
			   *result = NULL;
	candidate  *cands;
	size_t		ncands = 0,
				c;
	uint64_t	dev,
				ino;
	int			root_listed = 0;

	if (real == NULL || real[0] != '/' || ops->stat(arg, real, &dev, &ino) != 0)
		return NULL;
	m = parse(mountinfo, len, &n);
	if (m == NULL)
		return NULL;

	/*
	 * The mount real lies on: the longest mount point above it, the last
	 * listed of those at one place (a mount over another hides it).
	 */
	for (i = 0; i < n; i++)
	{
		size_t		pl = strlen(m[i].point);

		if (strcmp(m[i].point, "/") == 0)
			root_listed = 1;
		if (below(real, m[i].point) != NULL && (!found || pl >= best_point))
		{
			found = 1;
			on = i;
			best_point = pl;
		}
	}
	/*
	 * None: real is reached through the process's root, not a listed mount
	 * (a chroot's folder, or no mount table), and is the path chosen.
	 */
	if (!found)
	{
		free_entries(m, n);
		return NULL;
	}
	/* its place in the filesystem: the mount's root, then the rest */
	place = join(m[on].root, below(real, m[on].point));
	cands = malloc((n > 0 ? n : 1) * sizeof(*cands));
	if (place == NULL || cands == NULL)
	{
		free(place);
		free(cands);
		free_entries(m, n);
		return NULL;
	}

	/*
	 * A chroot's root shows the place first: the path through it is the
	 * one every way in gives (itself, when real is it: not found above).
	 */
	if (!root_listed &&
		(result = from_the_root(place, m, n, dev, ino, ops, arg)) != NULL)
	{
		free(place);
		free(cands);
		free_entries(m, n);
		return result;
	}

	/*
	 * The mounts of that filesystem that show the place, shortest root
	 * first, the first listed among equals: the first whose path is its
	 * own real path and the same folder.
	 */
	for (i = 0; i < n; i++)
		if (m[i].devlen == m[on].devlen && memcmp(m[i].dev, m[on].dev, m[i].devlen) == 0 &&
			below(place, m[i].root) != NULL)
		{
			cands[ncands].rootlen = strlen(m[i].root);
			cands[ncands++].index = i;
		}
	qsort(cands, ncands, sizeof(*cands), candidate_cmp);
	for (c = 0; c < ncands; c++)
	{
		size_t		pick = cands[c].index;
		char	   *cand;

		cand = join(m[pick].point, below(place, m[pick].root));
		if (cand == NULL)
			break;
		if (strcmp(cand, real) == 0)
		{
			/* real is the path chosen */
			free(cand);
			break;
		}
		if (same_folder(cand, dev, ino, ops, arg))
		{
			result = cand;
			break;
		}
		free(cand);
	}
	free(place);
	free(cands);
	free_entries(m, n);
	return result;
}
