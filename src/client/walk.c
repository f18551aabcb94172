/*
 * walk.c - the SSTables below a data directory, found as cassandra_sstables
 * finds them (src/bloom_sstable_dir.c): names by bc_sstable_name_parse,
 * folders by bc_folder_parse and bc_folder_inactive, states by the
 * transaction logs (bc_txn_log_name, bc_txn_log_scan) and
 * bc_sstable_state_of.  Only live SSTables are kept; snapshots/ and
 * backups/ are not entered.  Symbolic links are followed, except one back
 * to a directory being walked.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bc_sstable_dir.h"
#include "bc_sstable_name.h"
#include "bc_status.h"
#include "bc_txn_log.h"
#include "load.h"

#define MAX_DEPTH 32
#define MAX_TXN_LOG_BYTES ((size_t) 64 * 1024 * 1024)

typedef struct entry
{
	char	   *name;
	size_t		descriptor_len;
	int64_t		size;
	time_t		mtime;
	bc_sstable_name parsed;
} entry;

typedef struct strlist
{
	char	  **items;
	size_t		n;
	size_t		cap;
} strlist;

typedef struct walker
{
	ld_list    *list;
	int			verbose;
	int			depth;
	dev_t		devs[MAX_DEPTH + 1];
	ino_t		inos[MAX_DEPTH + 1];
} walker;

static void *
xmalloc(size_t n)
{
	void	   *p = malloc(n ? n : 1);

	if (p == NULL)
	{
		fprintf(stderr, "bloomcass-load: out of memory\n");
		exit(EXIT_USAGE);
	}
	return p;
}

static char *
xstrndup(const char *s, size_t n)
{
	char	   *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static char *
join_path(const char *dir, const char *name)
{
	size_t		dl = strlen(dir),
				nl = strlen(name);
	int			slash = !(dl > 0 && dir[dl - 1] == '/');
	char	   *p = xmalloc(dl + slash + nl + 1);

	memcpy(p, dir, dl);
	if (slash)
		p[dl] = '/';
	memcpy(p + dl + slash, name, nl + 1);
	return p;
}

char *
ld_absolute_path(const char *path)
{
	char	   *abs,
			   *out;
	size_t		i,
				o = 0;
	char		cwd[PATH_MAX];

	if (path[0] == '/')
		abs = xstrndup(path, strlen(path));
	else
	{
		if (getcwd(cwd, sizeof(cwd)) == NULL)
			abs = xstrndup(path, strlen(path));
		else
			abs = join_path(cwd, path);
	}
	/* collapse "//" and "/./", drop a trailing "/." and trailing slashes */
	out = xmalloc(strlen(abs) + 1);
	for (i = 0; abs[i];)
	{
		if (abs[i] == '/' && o > 0 && out[o - 1] == '/')
		{
			i++;
			continue;
		}
		if (abs[i] == '.' && o > 0 && out[o - 1] == '/' &&
			(abs[i + 1] == '/' || abs[i + 1] == '\0'))
		{
			i++;
			continue;
		}
		out[o++] = abs[i++];
	}
	while (o > 1 && out[o - 1] == '/')
		o--;
	out[o] = '\0';
	free(abs);
	return out;
}

static void
strlist_add(strlist *l, const char *s, size_t n)
{
	if (l->n == l->cap)
	{
		l->cap = l->cap ? 2 * l->cap : 16;
		l->items = realloc(l->items, l->cap * sizeof(char *));
		if (l->items == NULL)
		{
			fprintf(stderr, "bloomcass-load: out of memory\n");
			exit(EXIT_USAGE);
		}
	}
	l->items[l->n++] = xstrndup(s, n);
}

static int
strlist_has(const strlist *l, const char *s, size_t n)
{
	size_t		i;

	for (i = 0; i < l->n; i++)
		if (strlen(l->items[i]) == n && memcmp(l->items[i], s, n) == 0)
			return 1;
	return 0;
}

static void
strlist_free(strlist *l)
{
	size_t		i;

	for (i = 0; i < l->n; i++)
		free(l->items[i]);
	free(l->items);
	memset(l, 0, sizeof(*l));
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

static int
entry_cmp(const void *a, const void *b)
{
	const entry *x = a;
	const entry *y = b;

	return bc_sstable_component_cmp(x->name, x->descriptor_len, y->name, y->descriptor_len);
}

/* what bc_txn_log_scan reports, into the folder's sets */
typedef struct txn_sets
{
	strlist    *temporary;
	strlist    *obsolete;
} txn_sets;

static void
txn_sstable(void *arg, int obsolete, const char *base, size_t len)
{
	txn_sets   *t = arg;

	strlist_add(obsolete ? t->obsolete : t->temporary, base, len);
}

/* a transaction log into the folder's sets (as read_txn_log on the server) */
static void
read_txn_log(walker *w, const char *path, strlist *temporary, strlist *obsolete)
{
	FILE	   *f = fopen(path, "rb");
	char	   *data;
	size_t		len = 0,
				got;
	txn_sets	sets = {temporary, obsolete};

	if (f == NULL)
	{
		ld_error("skipping transaction log %s: %s (the SSTables it names are taken as live)",
				 path, strerror(errno));
		w->list->warnings++;
		return;
	}
	data = xmalloc(MAX_TXN_LOG_BYTES + 1);
	while ((got = fread(data + len, 1, MAX_TXN_LOG_BYTES + 1 - len, f)) > 0)
		len += got;
	if (ferror(f) || len > MAX_TXN_LOG_BYTES)
	{
		ld_error("skipping transaction log %s: %s (the SSTables it names are taken as live)",
				 path, ferror(f) ? "read error" : "larger than 64 MB");
		w->list->warnings++;
		fclose(f);
		free(data);
		return;
	}
	fclose(f);
	bc_txn_log_scan(data, len, txn_sstable, NULL, &sets);
	free(data);
}

static void
list_add(ld_list *l, const ld_sstable *s)
{
	if (l->n == l->cap)
	{
		l->cap = l->cap ? 2 * l->cap : 64;
		l->items = realloc(l->items, l->cap * sizeof(ld_sstable));
		if (l->items == NULL)
		{
			fprintf(stderr, "bloomcass-load: out of memory\n");
			exit(EXIT_USAGE);
		}
	}
	l->items[l->n++] = *s;
}

int64_t
ld_component_size(const ld_sstable *s, const char *component)
{
	int			i;

	for (i = 0; i < s->ncomponents; i++)
		if (strcmp(s->components[i], component) == 0)
			return s->sizes[i];
	return -1;
}

/* the SSTables of one folder, entries sorted by entry_cmp */
static void
emit_folder(walker *w, const char *dir, entry *entries, size_t n,
			const strlist *temporary, const strlist *obsolete)
{
	bc_folder	f;
	size_t		i = 0;

	bc_folder_parse(dir, strlen(dir), &f);
	while (i < n)
	{
		entry	   *e = &entries[i];
		size_t		j = i;
		ld_sstable	s;
		int			c;
		bc_sstable_state state = f.state;
		static const char *const small[] = {"Filter.db", "Statistics.db", "Summary.db", "TOC.txt"};

		while (j < n && entries[j].descriptor_len == e->descriptor_len &&
			   memcmp(entries[j].name, e->name, e->descriptor_len) == 0)
			j++;

		memset(&s, 0, sizeof(s));
		s.descriptor = xstrndup(e->name, e->descriptor_len);
		s.prefix = join_path(dir, s.descriptor);
		s.version = xstrndup(e->parsed.version, e->parsed.version_len);
		s.generation = xstrndup(e->parsed.generation, e->parsed.generation_len);
		s.format = e->parsed.format;
		if (e->parsed.legacy)
		{
			s.keyspace = xstrndup(e->parsed.keyspace, e->parsed.keyspace_len);
			s.table = xstrndup(e->parsed.table, e->parsed.table_len);
		}
		else if (f.table != NULL)
		{
			size_t		tl = f.table_len + (f.index ? f.index_len : 0);

			s.table = xmalloc(tl + 1);
			memcpy(s.table, f.table, f.table_len);
			if (f.index)
				memcpy(s.table + f.table_len, f.index, f.index_len);
			s.table[tl] = '\0';
			if (f.keyspace != NULL)
				s.keyspace = xstrndup(f.keyspace, f.keyspace_len);
		}
		if (f.snapshot != NULL)
			s.snapshot = xstrndup(f.snapshot, f.snapshot_len);
		s.ncomponents = (int) (j - i);
		s.components = xmalloc(sizeof(char *) * (size_t) s.ncomponents);
		s.sizes = xmalloc(sizeof(int64_t) * (size_t) s.ncomponents);
		for (c = 0; c < s.ncomponents; c++)
		{
			entry	   *x = &entries[i + (size_t) c];

			s.components[c] = xstrndup(x->parsed.component, x->parsed.component_len);
			s.sizes[c] = x->size;
			if (strcmp(s.components[c], "Data.db") == 0)
			{
				s.has_data = 1;
				s.data_mtime = x->mtime;
			}
		}
		for (c = 0; c < 4; c++)
		{
			int64_t		b = ld_component_size(&s, small[c]);

			if (b > 0)
				s.small_bytes += b;
		}
		if (state == BC_STATE_LIVE)
			state = bc_sstable_state_of(BC_STATE_LIVE, e->parsed.temporary,
										strlist_has(temporary, s.descriptor, strlen(s.descriptor)),
										strlist_has(obsolete, s.descriptor, strlen(s.descriptor)),
										s.has_data);
		s.state = bc_sstable_state_name(state);
		if (state == BC_STATE_LIVE)
			list_add(w->list, &s);
		else
		{
			if (w->verbose)
				ld_info("not loaded (%s): %s", s.state, s.prefix);
			free(s.descriptor);
			free(s.prefix);
			free(s.version);
			free(s.generation);
			free(s.keyspace);
			free(s.table);
			free(s.snapshot);
			for (c = 0; c < s.ncomponents; c++)
				free(s.components[c]);
			free(s.components);
			free(s.sizes);
		}
		i = j;
	}
}

static int
walk_dir(walker *w, const char *dir, int root)
{
	DIR		   *d;
	struct dirent *de;
	struct stat st;
	char	  **names = NULL;
	size_t		n = 0,
				cap = 0,
				i,
				nentries = 0,
				nsub = 0;
	entry	   *entries;
	char	  **subdirs;
	strlist		temporary = {0},
				obsolete = {0};
	int			k;

	if (stat(dir, &st) != 0)
	{
		ld_error("%s directory %s: %s", root ? "cannot read" : "skipping", dir, strerror(errno));
		if (!root)
			w->list->warnings++;
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
	{
		if (root)
			ld_error("%s is not a directory (give the folder of a node's data, of a keyspace or of a table)", dir);
		return -1;
	}
	for (k = 0; k < w->depth; k++)
		if (w->devs[k] == st.st_dev && w->inos[k] == st.st_ino)
		{
			ld_error("skipping directory %s: a link to a directory above it", dir);
			w->list->warnings++;
			return 0;
		}
	if (w->depth >= MAX_DEPTH)
	{
		ld_error("skipping directory %s: more than %d directories deep", dir, MAX_DEPTH);
		w->list->warnings++;
		return 0;
	}
	d = opendir(dir);
	if (d == NULL)
	{
		ld_error("%s directory %s: %s", root ? "cannot read" : "skipping", dir, strerror(errno));
		if (!root)
			w->list->warnings++;
		return root ? -1 : 0;
	}
	while ((errno = 0, de = readdir(d)) != NULL)
	{
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (n == cap)
		{
			cap = cap ? 2 * cap : 64;
			names = realloc(names, cap * sizeof(char *));
			if (names == NULL)
			{
				fprintf(stderr, "bloomcass-load: out of memory\n");
				exit(EXIT_USAGE);
			}
		}
		names[n++] = xstrndup(de->d_name, strlen(de->d_name));
	}
	if (errno != 0)
	{
		ld_error("skipping the rest of directory %s: %s", dir, strerror(errno));
		w->list->warnings++;
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof(char *), name_cmp);

	entries = xmalloc(sizeof(entry) * (n ? n : 1));
	subdirs = xmalloc(sizeof(char *) * (n ? n : 1));
	for (i = 0; i < n; i++)
	{
		char	   *path = join_path(dir, names[i]);
		struct stat fst;
		entry	   *e;

		if (stat(path, &fst) != 0)
		{
			if (errno != ENOENT)
			{
				ld_error("skipping %s: %s", path, strerror(errno));
				w->list->warnings++;
			}
			free(path);
			continue;
		}
		if (S_ISDIR(fst.st_mode))
		{
			if (bc_folder_inactive(names[i], strlen(names[i])))
				free(path);
			else
				subdirs[nsub++] = path;
			continue;
		}
		if (!S_ISREG(fst.st_mode))
		{
			free(path);
			continue;
		}
		if (bc_txn_log_name(names[i], strlen(names[i])))
		{
			read_txn_log(w, path, &temporary, &obsolete);
			free(path);
			continue;
		}
		free(path);
		e = &entries[nentries];
		if (bc_sstable_name_parse(names[i], strlen(names[i]), &e->parsed) != BC_OK)
			continue;
		e->name = names[i];
		e->descriptor_len = e->parsed.descriptor_len;
		e->size = (int64_t) fst.st_size;
		e->mtime = fst.st_mtime;
		nentries++;
	}
	if (nentries > 0)
		qsort(entries, nentries, sizeof(entry), entry_cmp);
	emit_folder(w, dir, entries, nentries, &temporary, &obsolete);
	strlist_free(&temporary);
	strlist_free(&obsolete);
	free(entries);

	w->devs[w->depth] = st.st_dev;
	w->inos[w->depth] = st.st_ino;
	w->depth++;
	for (i = 0; i < nsub; i++)
	{
		walk_dir(w, subdirs[i], 0);
		free(subdirs[i]);
	}
	w->depth--;
	free(subdirs);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return 0;
}

int
ld_walk(const char *root, ld_list *list, int verbose)
{
	walker		w;

	memset(&w, 0, sizeof(w));
	w.list = list;
	w.verbose = verbose;
	return walk_dir(&w, root, 1);
}

void
ld_list_free(ld_list *list)
{
	size_t		i;
	int			c;

	for (i = 0; i < list->n; i++)
	{
		ld_sstable *s = &list->items[i];

		free(s->descriptor);
		free(s->prefix);
		free(s->version);
		free(s->generation);
		free(s->keyspace);
		free(s->table);
		free(s->snapshot);
		for (c = 0; c < s->ncomponents; c++)
			free(s->components[c]);
		free(s->components);
		free(s->sizes);
	}
	free(list->items);
	memset(list, 0, sizeof(*list));
}
