/*
 * walk_memfs.h - the in-memory file system the walk's tests run on
 * (walk_memfs.c) and the bc_walk_ops over it (walk_ops.c): a table of
 * paths, each a folder (with a device and inode, so that a symbolic link
 * back up the tree is a folder whose stat gives an ancestor's), a regular
 * file (size, mtime, and the bytes of a transaction log), something else, a
 * path whose stat fails, or one that is gone.  The ops count every
 * allocation and release, and write what the walk reports (SSTables,
 * problems, failed listings and logs) as lines of text that check_out
 * compares, line by line, with what is expected.  Used by test_walk.c,
 * test_walk_links.c and test_walk_logs.c.
 */
#ifndef WALK_MEMFS_H
#define WALK_MEMFS_H

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bc_txn_log.h"
#include "bc_walk.h"
#include "bc_sstable_dir.h"
#include "bc_sstable_name.h"
#include "bc_status.h"
#include "bc_tick.h"
#include "unit.h"

/* errno values, as the callers would pass them back */
#define ERR_NOENT 2
#define ERR_IO 5
#define ERR_ACCES 13

enum
{
	K_DIR, K_FILE, K_OTHER, K_ERROR, K_GONE
};

/* how a folder's listing goes */
enum
{
	LIST_OK = 0,
	LIST_FAIL,					/* list_n names, then 0: unreadable */
	LIST_CUT					/* list_n names, then 1: a read failed part way */
};

typedef struct fsent
{
	char	   *path;
	char	   *target;			/* a symbolic link: the folder it points to */
	int			kind;
	int			err;			/* K_ERROR, and stats after stat_ok */
	uint64_t	dev;
	uint64_t	ino;
	int64_t		size;
	int64_t		mtime;
	char	   *log;			/* a transaction log's bytes */
	int			list_mode;
	int			list_n;
	int			stat_ok;		/* > 0: the stats after this many fail */
	int			nstat;
	int			listed_stat;	/* stat'ed by op_list (list_stats) */
} fsent;

typedef struct memfs
{
	fsent	   *e;
	size_t		n;
	size_t		cap;
	uint64_t	next_ino;
	long		nalloc;
	long		nrelease;
	long		peak_live;		/* most allocations held at once */
	int			list_stats;		/* op_list gives each name's stat */
	long		restats;		/* files stat'ed again by the walk */
	long		nlist;
	long		nsstable;
	long		nread;			/* logs read */
	char	   *out;			/* the walk's reports, one a line */
	size_t		outlen;
	size_t		outcap;
} memfs;

/* the line op_sstable writes for an SSTable: its path, then the rest */
#define SS(path, rest) "S " path " " rest "\n"

/* a table's folder (test_walk.c's extras, test_walk_logs.c's pending_delete) */
#define XT "/x/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d"

char *xstrdup(const char *s);
void fs_init(memfs *fs);
void fs_free(memfs *fs);
fsent *fs_add(memfs *fs, const char *path, int kind);
fsent *fs_dir(memfs *fs, const char *path);
fsent *fs_file(memfs *fs, const char *path, int64_t size, int64_t mtime);
fsent *fs_log(memfs *fs, const char *path, const char *text);
fsent *fs_error(memfs *fs, const char *path, int err);
fsent *fs_link(memfs *fs, const char *path, const char *target, const fsent *folder);
void emit(memfs *fs, const char *fmt,...);
void normalize(const char *path, char *out, size_t cap);
fsent *lookup(memfs *fs, const char *path);
void *op_alloc(void *arg, size_t size);
void op_release(void *arg, void *p);
void op_stat(void *arg, const char *path, bc_walk_stat *st);
int op_list(void *arg, bc_walk *w, const char *dir, int root);
char *op_read_log(void *arg, const char *path, size_t max, size_t *len);
int op_read_pieces(void *arg, const char *path, size_t max, void (*piece) (void *parg, const char *bytes, size_t n), void *parg);
void op_problem(void *arg, const bc_walk_report *r);
void op_sstable(void *arg, const bc_walk_sstable *s);
extern const bc_walk_ops ops;
char *op_real_path(void *arg, const char *path);
extern const bc_walk_ops real_ops;
void run_reset(memfs *fs);
int run_iter(memfs *fs, const char *root, int include_inactive, long stop);
int run(memfs *fs, const char *root, int include_inactive);
void check_out(const memfs *fs, const char *want, const char *what);

#endif
