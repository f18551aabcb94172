/*
 * bc_walk.h - the SSTables below a folder of a Cassandra or ScyllaDB node,
 * found by the rules of its data directories (bc_walk.c).
 *
 * One walk serves cassandra_sstables (src/bloom_sstable_dir.c) and
 * bloomcass-load (src/client/walk.c), so that both find the same SSTables
 * in the same states.  The walk itself does no I/O and allocates nothing of
 * its own: the caller lists directories, stats paths, reads transaction
 * logs and provides memory through bc_walk_ops, and is told of each SSTable
 * and of each problem through callbacks, which it turns into rows or list
 * entries, and into WARNINGs or messages on stderr.
 */
#ifndef BC_WALK_H
#define BC_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "bc_sstable_dir.h"
#include "bc_sstable_name.h"

/* folders this many levels below the root, or deeper, are skipped (with a
 * problem): "more than BC_WALK_MAX_DEPTH directories deep", the root counted */
#define BC_WALK_MAX_DEPTH 32
/* the largest transaction log, or pending_delete log, read (real ones are
 * a few kilobytes) */
#define BC_WALK_MAX_TXN_LOG_BYTES ((size_t) 64 * 1024 * 1024)

/* what the caller's stat says of a path (following symbolic links) */
typedef enum bc_walk_type
{
	BC_WALK_DIRECTORY = 0,
	BC_WALK_REGULAR,			/* a regular file */
	BC_WALK_OTHER,				/* a device, socket, FIFO ... */
	BC_WALK_GONE,				/* no such file: a dangling link, or a file
								 * deleted meanwhile (compaction) */
	BC_WALK_ERROR				/* stat failed otherwise; err says why */
} bc_walk_type;

typedef struct bc_walk_stat
{
	bc_walk_type type;
	int			err;			/* the caller's error code (errno), for
								 * BC_WALK_ERROR; passed back in problems */
	uint64_t	dev;			/* which directory it is, for link loops */
	uint64_t	ino;
	int64_t		size;			/* bytes */
	int64_t		mtime;			/* seconds since 1970 */
} bc_walk_stat;

/* what went wrong with a folder or file; the walk goes on unless root */
typedef enum bc_walk_problem
{
	BC_WALK_STAT_FAILED,		/* a folder or file could not be stat'ed */
	BC_WALK_NOT_DIRECTORY,		/* the root is not a folder */
	BC_WALK_LINK_LOOP,			/* a link back to a folder being walked */
	BC_WALK_ALREADY_WALKED,		/* a folder walked before in this walk, met
								 * again by another path (a symbolic link on
								 * one of them): first_path is the path it
								 * was walked by */
	BC_WALK_TOO_DEEP,			/* more than BC_WALK_MAX_DEPTH folders deep */
	/* transaction logs (bc_txn_log_scan), with lineno and reason: */
	BC_WALK_TXN_CORRUPT,		/* one that fails LogFile.verify: Cassandra
								 * would not start; applied as its listing
								 * applies it */
	BC_WALK_TXN_LAST_RECORD,	/* one whose last record alone is invalid
								 * (not when a crash cut the line short):
								 * the operation is taken as unfinished */
	BC_WALK_TXN_UNREADABLE		/* one Cassandra cannot read (not UTF-8):
								 * not applied, its SSTables stay live */
} bc_walk_problem;

typedef struct bc_walk_report
{
	bc_walk_problem problem;
	const char *path;			/* the folder or file */
	int			root;			/* it is the root: the walk stops */
	int			is_directory;	/* for BC_WALK_STAT_FAILED */
	int			err;			/* bc_walk_stat.err, for BC_WALK_STAT_FAILED */
	long		lineno;			/* for BC_WALK_TXN_*: the line, from 1 (0:
								 * none) */
	const char *reason;			/* for BC_WALK_TXN_*: what is wrong with it
								 * (bc_txn_fault_message), else NULL */
	/* for BC_WALK_ALREADY_WALKED: the path the folder was walked by, its
	 * real path (its SSTables' paths; NULL when not known) and its state
	 * (bc_folder_parse of where it is: bc_walk_place.h), whatever path
	 * reaches it */
	const char *first_path;
	const char *first_real;
	bc_sstable_state first_state;
} bc_walk_report;

/* one component file of an SSTable */
typedef struct bc_walk_component
{
	const char *name;			/* "Data.db", "Filter.db", ... */
	int64_t		size;			/* -1 when not known: the caller's list gave
								 * the type only (bc_walk_add_name_stat) */
	int64_t		mtime;
} bc_walk_component;

/*
 * One SSTable, as reported to the caller.  Every string is NUL-terminated
 * and valid during the callback only.
 */
typedef struct bc_walk_sstable
{
	const char *dir;			/* its folder: its real path (bc_walk_ops's
								 * real_path), or as the walk reached it */
	const char *prefix;			/* dir/descriptor: its files' common prefix,
								 * and the SSTable's identity (the path
								 * cassandra_sstables and bloomcass-load
								 * give it) */
	const char *walked_dir;		/* its folder as the walk reached it */
	const char *place;			/* the path its folder's names are read
								 * from (bc_folder_parse: keyspace, table,
								 * snapshot, the folder's state): walked_dir,
								 * or where a link leads (bc_walk_place.h) */
	const char *descriptor;		/* nb-1-big, ks-cf-ka-1, tmp-la-2-big */
	const char *version;
	const char *generation;
	bc_sstable_format format;
	int			legacy;			/* keyspace-table-... naming */
	const char *keyspace;		/* from its name (legacy) or its folders; */
	const char *table;			/* NULL when neither says */
	const char *snapshot;		/* the tag of its snapshot folder, or NULL */
	bc_sstable_state state;
	int			ncomponents;
	const bc_walk_component *components;	/* sorted: Data.db, Filter.db ... */
	const bc_walk_component *data;	/* its Data.db, or NULL */
} bc_walk_sstable;

typedef struct bc_walk bc_walk;

typedef struct bc_walk_ops
{
	/* memory that never fails (the caller raises or exits) */
	void	   *(*alloc) (void *arg, size_t size);
	void		(*release) (void *arg, void *p);

	/* stat(2) of a path, links followed */
	void		(*stat) (void *arg, const char *path, bc_walk_stat *st);

	/*
	 * The names in a directory: bc_walk_add_name for each but "." and "..".
	 * 0 when the directory could not be read at all, after saying why
	 * (root tells whether the walk stops); a read that fails part way keeps
	 * the names added.
	 */
	int			(*list) (void *arg, bc_walk *w, const char *dir, int root);

	/*
	 * A whole transaction log of at most max bytes, from alloc, its length
	 * in *len; NULL when it cannot be read, after saying why (the SSTables
	 * it names are then taken as live).
	 */
	char	   *(*read_log) (void *arg, const char *path, size_t max, size_t *len);

	void		(*problem) (void *arg, const bc_walk_report *r);

	/* every SSTable of every folder walked, whatever its state (bc_walk_run
	 * only) */
	void		(*sstable) (void *arg, const bc_walk_sstable *s);

	/*
	 * The real path of a folder about to be listed, from alloc (NULL, or a
	 * NULL op: the path as the walk reached it).  Called once per folder
	 * entered, before its list.  What an SSTable is (its identity, in
	 * bc_walk_sstable.prefix) is the real path of its folder, as
	 * realpath(3) resolves it (bc_walk_real_path_posix): symbolic links,
	 * "." and ".." resolved, so that a folder reached through a link or by
	 * another path gives its SSTables the same paths.  Keyspace and table
	 * are read from the path as walked (bc_folder_parse), as Cassandra
	 * names them; what a folder below a table's is (staging/, upload/,
	 * snapshots/<tag>/ ...: its state) from its real place below the
	 * table's folder, so that a link never changes it (bc_walk_place.h).  Two mount points of one folder
	 * (a bind mount) give one path, through the mount that shows most of
	 * its filesystem (bc_mounts.h): within one walk the folder is walked
	 * once (its device and inode), and across walks it has one path.
	 */
	char	   *(*real_path) (void *arg, const char *dir);

	/*
	 * A ScyllaDB pending_delete log of at most max bytes read in pieces:
	 * piece(parg, bytes, n) for each, in order, of any size the caller
	 * likes; 0 once it is read whole, -1 when it could not be, after
	 * saying why (the SSTables it names are then taken as live).  NULL:
	 * read_log reads it whole.
	 */
	int			(*read_pieces) (void *arg, const char *path, size_t max,
								void (*piece) (void *parg, const char *bytes, size_t n),
								void *parg);
} bc_walk_ops;

/*
 * Walk the folder root and every folder below it, each folder once: one
 * met again (the same device and inode, through a symbolic link) is
 * skipped with BC_WALK_ALREADY_WALKED, so that links cannot make the walk
 * list an SSTable twice, nor take time exponential in the links (folders
 * d0 .. dn, each with two links to the next, are walked once each).  The
 * walk keeps the device, inode and path of every folder it has entered,
 * until it is closed: its memory grows with the folders walked, not with
 * the paths that reach them. (snapshots/ and backups/
 * only when include_inactive), reporting the SSTables of each folder, in
 * name order, before descending into its subfolders.  0, or -1 when root
 * itself could not be walked (reported as a problem with root set).
 */
int			bc_walk_run(const bc_walk_ops *ops, void *arg, const char *root,
						int include_inactive);

/*
 * The same walk one SSTable at a time (ops->sstable is not called):
 * bc_walk_open (NULL when root itself could not be walked, reported), then
 * bc_walk_next until it returns 0, each SSTable valid until the next call,
 * then bc_walk_close (also to stop early).  What it holds at any time is
 * the names of the folders being walked (the current one and those above
 * it) and one SSTable: not the SSTables walked before.
 */
bc_walk    *bc_walk_open(const bc_walk_ops *ops, void *arg, const char *root,
						 int include_inactive);
int			bc_walk_next(bc_walk *w, bc_walk_sstable *s);
void		bc_walk_close(bc_walk *w);

/* from ops->list: one name of the directory being listed; or one with its
 * stat (as ops->stat gives it, e.g. by bc_walk_stat_posix_at on the open
 * directory: a lookup of one name instead of the whole path), which the
 * walk then takes instead of calling ops->stat.  A stat of a regular file
 * may give its type only (size -1, mtime 0: the caller knows it from the
 * directory entry and needs no more of it) */
void		bc_walk_add_name(bc_walk *w, const char *name);
void		bc_walk_add_name_stat(bc_walk *w, const char *name, const bc_walk_stat *st);

/* stat(2) as bc_walk_ops.stat takes it (bc_walk_posix.c); and of a name
 * in the directory open as dirfd (fstatat(2), links followed) */
void		bc_walk_stat_posix(void *arg, const char *path, bc_walk_stat *st);
void		bc_walk_stat_posix_at(int dirfd, const char *name, bc_walk_stat *st);

/* realpath(3) of path, then through the mount point the mount table
 * chooses among those that show it (bc_mount_canonical), from malloc (the
 * caller frees it, or copies it into its own memory), or NULL when it
 * cannot be resolved (errno says why) */
char	   *bc_walk_real_path_posix(const char *path);

/* bytes of an SSTable's component, or -1 when it has none (or its size is
 * not known) */
int64_t		bc_walk_component_size(const bc_walk_sstable *s, const char *component);

#endif							/* BC_WALK_H */
