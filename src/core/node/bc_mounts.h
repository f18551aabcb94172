/*
 * bc_mounts.h - one path per folder whichever mount point reaches it.
 *
 * A bind mount shows one folder at two places, and realpath(3) keeps
 * either: /var/lib/cassandra/data and /mnt/node/data, the same device and
 * inode, are two real paths.  The SSTables' identity (bc_walk_ops.real_path)
 * must be one path, whichever mount point it is reached through, so a real
 * path is taken to the mount table (/proc/self/mountinfo, proc(5)): the
 * mount it lies on and its place in that mount's filesystem (the mount's
 * root, then the rest of the path).  The path chosen for that place:
 *
 *   - in a chroot (no mount listed at "/": the process's root is a folder
 *     of a filesystem, not a mount, and is not listed), the path through
 *     that root when there is one: a real path on no listed mount is it;
 *     from a bind mount, the place with its leading names taken away one
 *     by one (/var/tmp/ch/srv/data, /tmp/ch/srv/data, ..., /srv/data) until
 *     one lies on no listed mount and names the same device and inode as
 *     its own real path;
 *   - else, of the mounts of the same filesystem (major:minor) that show
 *     that place, the one whose root is shortest (the one that shows most
 *     of the filesystem), the first listed among equals: the path through
 *     it is taken when it is its own real path and names the same device
 *     and inode (a mount hidden under another, or a folder over-mounted on
 *     the way, is passed over).  On the host and in a container (its root
 *     a mount of its own, listed at "/") that is the root's mount when it
 *     shows the place.
 *
 * Each depends on the place only, never on the way in: a folder bind
 * mounted at A and B, or its parent bound at B, has one path through A,
 * through B and directly.  Without a mount table (not Linux, /proc not
 * mounted), a real path is its own identity.
 *
 * Its cost is linear in the mount table, plus a sort of the mounts that
 * show the place (a table of 100,000 mounts, 7 MB: about 35 ms), with
 * nothing to cancel in between; in a chroot, a folder reached through a
 * bind mount adds, for each name of its place, one scan of the table and
 * at most one realpath and stat.  The caller bounds the table
 * (bc_walk_posix.c: 16 MB).
 *
 * Plain C99: the mount table's text and the stat and realpath used to
 * check a candidate are the caller's (bc_walk_posix.c gives the process's
 * own; the unit tests give made-up ones).
 */
#ifndef BLOOMCASS_BC_MOUNTS_H
#define BLOOMCASS_BC_MOUNTS_H

#include <stddef.h>
#include <stdint.h>

typedef struct bc_mount_ops
{
	/* the device and inode of path, links followed: 0, or -1 */
	int			(*stat) (void *arg, const char *path, uint64_t *dev, uint64_t *ino);
	/* realpath(3) of path, from malloc, or NULL */
	char	   *(*real_path) (void *arg, const char *path);
} bc_mount_ops;

/*
 * The path of the folder whose real path is real (absolute, no "." or ".."
 * nor link in it) through the mount chosen as above, from malloc; NULL
 * when that is real itself, when the mount table does not describe it,
 * or when memory runs out (the caller keeps real).  mountinfo is the text
 * of /proc/self/mountinfo (len bytes, not NUL-terminated); a line it
 * cannot parse is passed over.
 */
char	   *bc_mount_canonical(const char *mountinfo, size_t len, const char *real,
							   const bc_mount_ops *ops, void *arg);

#endif							/* BLOOMCASS_BC_MOUNTS_H */
