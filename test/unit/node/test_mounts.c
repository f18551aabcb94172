/*
 * test_mounts.c - bc_mount_canonical: one path per folder whichever mount
 * point reaches it, over made-up mount tables and a made-up filesystem
 * (the real one, with real bind mounts, is test/client.sh's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_mounts.h"
#include "unit.h"

/* a made-up filesystem: the folders a path reaches (device, inode), and
 * the paths whose real path is another */
typedef struct fake_folder
{
	const char *path;
	uint64_t	dev;
	uint64_t	ino;
	char		bind;			/* there only when this bind mount is (or 0) */
} fake_folder;

typedef struct fake_fs
{
	const fake_folder *folders;
	const char *const *not_real;	/* paths whose realpath differs */
	const char *mounted;		/* the bind mounts made (NULL: every one) */
} fake_fs;

static int
fake_stat(void *arg, const char *path, uint64_t *dev, uint64_t *ino)
{
	fake_fs    *fs = arg;
	const fake_folder *f;

	for (f = fs->folders; f->path != NULL; f++)
		if (strcmp(f->path, path) == 0 &&
			(f->bind == 0 || fs->mounted == NULL || strchr(fs->mounted, f->bind) != NULL))
		{
			*dev = f->dev;
			*ino = f->ino;
			return 0;
		}
	return -1;
}

static char *
fake_real_path(void *arg, const char *path)
{
	fake_fs    *fs = arg;
	const char *const *p;
	char	   *out;

	for (p = fs->not_real; p != NULL && *p != NULL; p++)
		if (strcmp(*p, path) == 0)
		{
			out = malloc(sizeof("/elsewhere"));
			return out != NULL ? strcpy(out, "/elsewhere") : NULL;
		}
	out = malloc(strlen(path) + 1);
	return out != NULL ? strcpy(out, path) : NULL;
}

static const bc_mount_ops fake_ops = {fake_stat, fake_real_path};

/* the canonical path of real under mountinfo, "=" when it is real itself */
static void
check_canonical(const char *what, const char *mountinfo, fake_fs *fs,
				const char *real, const char *want)
{
	char	   *got = bc_mount_canonical(mountinfo, strlen(mountinfo), real, &fake_ops, fs);
	const char *g = got != NULL ? got : "=";

	CHECK(strcmp(g, want) == 0, "%s: %s gave %s, expected %s", what, real, g, want);
	free(got);
}

/* the root filesystem 254:0 at /, and its /var/lib/cassandra bound at /mnt/node */
static const char ROOT_AND_BIND[] =
	"22 27 0:21 / /proc rw,nosuid shared:12 - proc proc rw\n"
	"27 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n"
	"61 27 254:0 /var/lib/cassandra /mnt/node rw,relatime shared:1 - ext4 /dev/vda1 rw\n";

static const fake_folder ROOT_FOLDERS[] = {
	{"/var/lib/cassandra", 1, 100, 0},
	{"/var/lib/cassandra/data", 1, 101, 0},
	{"/var/lib/cassandra/data/ks", 1, 102, 0},
	{"/mnt/node", 1, 100, 0},
	{"/mnt/node/data", 1, 101, 0},
	{"/mnt/node/data/ks", 1, 102, 0},
	{"/", 1, 2, 0},
	{"/var/lib/cass", 1, 103, 0},
	/* what a match of bytes instead of names would take for /mnt/nodes/x */
	{"/mnt/nodes/x", 1, 106, 0},
	{"/var/lib/cassandras/x", 1, 106, 0},
	{NULL, 0, 0, 0}
};

static void
test_bind_of_a_folder(void)
{
	fake_fs		fs = {ROOT_FOLDERS, NULL, NULL};

	check_canonical("bind mount", ROOT_AND_BIND, &fs, "/mnt/node/data/ks", "/var/lib/cassandra/data/ks");
	check_canonical("bind mount, its mount point", ROOT_AND_BIND, &fs, "/mnt/node", "/var/lib/cassandra");
	check_canonical("bind mount, the folder shown", ROOT_AND_BIND, &fs, "/var/lib/cassandra/data/ks", "=");
	check_canonical("the root itself", ROOT_AND_BIND, &fs, "/", "=");
	/* /var/lib/cass is not below /var/lib/cassandra, nor /mnt/nodes/x
	 * below /mnt/node: names, not bytes */
	check_canonical("a name that only begins alike", ROOT_AND_BIND, &fs, "/var/lib/cass", "=");
	check_canonical("a mount point that only begins alike", ROOT_AND_BIND, &fs, "/mnt/nodes/x", "=");
	check_canonical("not a folder of the table", ROOT_AND_BIND, &fs, "/srv/x", "=");
	check_canonical("a relative path", ROOT_AND_BIND, &fs, "mnt/node", "=");
	check_canonical("no mount table", "", &fs, "/mnt/node/data", "=");
	check_canonical("a table of nothing but junk", "x\n\n1 2\n1 2 3 4 5\n", &fs, "/mnt/node/data", "=");
}

/* a disk 8:16 with /data shown at /a and at /b, its own root nowhere: the
 * first listed wins; the same root of another disk does not count */
static const char TWO_BINDS[] =
	"27 1 254:0 / / rw - ext4 /dev/vda1 rw\n"
	"70 27 8:17 / /other rw - xfs /dev/sdb1 rw\n"
	"71 27 8:16 /data /b rw - xfs /dev/sdb rw\n"
	"72 27 8:16 /data /a rw - xfs /dev/sdb rw\n"
	"73 27 8:16 /data/ks /c rw - xfs /dev/sdb rw\n"
	"74 27 8:1 /data /d rw - xfs /dev/sda1 rw\n";

static const fake_folder TWO_FOLDERS[] = {
	{"/a/ks/t", 2, 10, 0}, {"/b/ks/t", 2, 10, 0}, {"/c/t", 2, 10, 0},
	{"/a/ks", 2, 9, 0}, {"/b/ks", 2, 9, 0}, {"/c", 2, 9, 0},
	{"/d/ks/t", 3, 10, 0},
	{NULL, 0, 0, 0}
};

static void
test_two_binds(void)
{
	fake_fs		fs = {TWO_FOLDERS, NULL, NULL};

	check_canonical("two binds: the first listed", TWO_BINDS, &fs, "/a/ks/t", "/b/ks/t");
	check_canonical("two binds: the first listed itself", TWO_BINDS, &fs, "/b/ks/t", "=");
	check_canonical("a bind of a folder below: the shortest root", TWO_BINDS, &fs, "/c/t", "/b/ks/t");
	check_canonical("a bind of the folder itself", TWO_BINDS, &fs, "/c", "/b/ks");
	check_canonical("another disk's folder of the same name", TWO_BINDS, &fs, "/d/ks/t", "=");
}

/* /b hidden by another mount on top of it, and /b's path not its own real
 * path: each candidate passed over for the next */
static const char HIDDEN[] =
	"27 1 254:0 / / rw - ext4 /dev/vda1 rw\n"
	"71 27 8:16 /data /b rw - xfs /dev/sdb rw\n"
	"72 27 8:16 /data /a rw - xfs /dev/sdb rw\n"
	"73 27 8:16 /data /z rw - xfs /dev/sdb rw\n"
	"80 71 0:50 / /b rw - tmpfs tmpfs rw\n";

static const fake_folder HIDDEN_FOLDERS[] = {
	{"/a/ks", 2, 9, 0}, {"/z/ks", 2, 9, 0}, {"/b/ks", 5, 1, 0},
	{NULL, 0, 0, 0}
};

static void
test_hidden(void)
{
	static const char *const z_not_real[] = {"/a/ks", NULL};
	fake_fs		fs = {HIDDEN_FOLDERS, NULL, NULL};
	fake_fs		fs2 = {HIDDEN_FOLDERS, z_not_real, NULL};

	/* /b/ks is the tmpfs's (the last mount at /b): nothing else shows it */
	check_canonical("a mount over another: the top one", HIDDEN, &fs, "/b/ks", "=");
	/* /b is hidden: its candidate names another folder */
	check_canonical("a hidden mount passed over", HIDDEN, &fs, "/z/ks", "/a/ks");
	check_canonical("a candidate not its own real path passed over", HIDDEN, &fs2, "/z/ks", "=");
}

/* escaped names, a last line without its newline */
static const char ESCAPED[] =
	"27 1 254:0 / / rw - ext4 /dev/vda1 rw\n"
	"90 27 254:0 /srv/my\\040data /mnt/tab\\011and\\134back rw - ext4 /dev/vda1 rw";

static const fake_folder ESCAPED_FOLDERS[] = {
	{"/mnt/tab\tand\\back/ks", 1, 50, 0}, {"/srv/my data/ks", 1, 50, 0},
	{NULL, 0, 0, 0}
};

static void
test_escapes(void)
{
	fake_fs		fs = {ESCAPED_FOLDERS, NULL, NULL};

	check_canonical("escaped names", ESCAPED, &fs, "/mnt/tab\tand\\back/ks", "/srv/my data/ks");
	check_canonical("a real path not in the table's fake filesystem", ESCAPED, &fs, "/nowhere", "=");
	check_canonical("a NUL escaped: the line passed over",
					"27 1 254:0 / / rw\n90 27 254:0 /srv\\000x /mnt/tab\\011and\\134back rw\n",
					&fs, "/mnt/tab\tand\\back/ks", "=");
}

/* in a chroot at /var/tmp/ch (a folder, not a mount): its root is not
 * listed, a bind mount's root is a path of the whole filesystem */
static const char CHROOT[] =
	"42 27 0:39 / /proc rw - proc proc rw\n"
	"50 27 254:0 /var/tmp/ch/tmp/live /tmp/bound rw - ext4 /dev/vda1 rw\n"
	"51 27 254:0 /srv/data /srv/other rw - ext4 /dev/vda1 rw\n";

static const fake_folder CHROOT_FOLDERS[] = {
	{"/tmp/bound/data", 1, 7, 0}, {"/tmp/live/data", 1, 7, 0},
	{"/live/data", 1, 8, 0},		/* another folder of the same name */
	{"/srv/other/x", 1, 9, 0},
	{NULL, 0, 0, 0}
};

static void
test_chroot(void)
{
	static const char *const live_not_real[] = {"/tmp/live/data", NULL};
	fake_fs		fs = {CHROOT_FOLDERS, NULL, NULL};
	fake_fs		fs2 = {CHROOT_FOLDERS, live_not_real, NULL};

	check_canonical("a chroot's bind mount: by the chroot's root", CHROOT, &fs, "/tmp/bound/data", "/tmp/live/data");
	check_canonical("a chroot's folder itself", CHROOT, &fs, "/tmp/live/data", "=");
	check_canonical("a chroot's bind mount of what its root does not show", CHROOT, &fs, "/srv/other/x", "=");
	check_canonical("a chroot's bind mount, no other path its own real path", CHROOT, &fs2, "/tmp/bound/data", "=");
}

/*
 * Real tables, made as root by unshare -m --propagation private (the
 * folder /srv/data/ks, as the setup shows it; a and c bind mounts of
 * /srv/data, b of /srv), then cat /proc/self/mountinfo where the folder
 * is read; the lines of the other mounts left out.  Each setup is taken
 * with some of its bind mounts made (their lines kept): a alone (a bind
 * of the folder), a and c (two of the folder), b alone (of its parent),
 * a and b (both), all three.  Every way in gives one path.
 */
typedef struct real_line
{
	char		bind;			/* the bind mount it is, or 0 */
	const char *line;
} real_line;

/* the host: / a mount, the binds made below /tmp/h4mi/host */
static const real_line HOST_LINES[] = {
	{0, "46 45 254:0 / / rw,relatime - ext4 /dev/vda rw,discard,no_prefetch_block_bitmaps,resv_strict,resuid=65534,resgid=65534\n"},
	{0, "48 46 0:21 / /proc rw,relatime - proc proc rw\n"},
	{'a', "66 46 254:0 /tmp/h4mi/host/srv/data /tmp/h4mi/host/a rw,relatime - ext4 /dev/vda rw,discard,no_prefetch_block_bitmaps,resv_strict,resuid=65534,resgid=65534\n"},
	{'b', "67 46 254:0 /tmp/h4mi/host/srv /tmp/h4mi/host/b rw,relatime - ext4 /dev/vda rw,discard,no_prefetch_block_bitmaps,resv_strict,resuid=65534,resgid=65534\n"},
	{'c', "68 46 254:0 /tmp/h4mi/host/srv/data /tmp/h4mi/host/c rw,relatime - ext4 /dev/vda rw,discard,no_prefetch_block_bitmaps,resv_strict,resuid=65534,resgid=65534\n"},
	{0, NULL}
};

static const fake_folder HOST_REAL_FOLDERS[] = {
	{"/tmp/h4mi/host/srv/data/ks", 65024, 10961763, 0},
	{"/tmp/h4mi/host/srv/data", 65024, 10961762, 0},
	{"/tmp/h4mi/host/a/ks", 65024, 10961763, 'a'},
	{"/tmp/h4mi/host/a", 65024, 10961762, 'a'},
	{"/tmp/h4mi/host/b/data/ks", 65024, 10961763, 'b'},
	{"/tmp/h4mi/host/b/data", 65024, 10961762, 'b'},
	{"/tmp/h4mi/host/c/ks", 65024, 10961763, 'c'},
	{"/tmp/h4mi/host/c", 65024, 10961762, 'c'},
	{NULL, 0, 0, 0}
};

/* a chroot at /tmp/h4mi/ch, a folder (not a mount): its root not listed,
 * the binds made from outside it, below it */
static const real_line CHROOT_LINES[] = {
	{0, "71 46 0:40 / /proc rw,relatime - proc proc rw\n"},
	{'a', "72 46 254:0 /tmp/h4mi/ch/srv/data /a rw,relatime - ext4 /dev/vda rw,discard,no_prefetch_block_bitmaps,resv_strict,resuid=65534,resgid=65534\n"},
	{'b', "73 46 254:0 /tmp/h4mi/ch/srv /b rw,relatime - ext4 /dev/vda rw,discard,no_prefetch_block_bitmaps,resv_strict,resuid=65534,resgid=65534\n"},
	{'c', "74 46 254:0 /tmp/h4mi/ch/srv/data /c rw,relatime - ext4 /dev/vda rw,discard,no_prefetch_block_bitmaps,resv_strict,resuid=65534,resgid=65534\n"},
	{0, NULL}
};

/* a container: /tmp/h4mi/ct bound on itself, pivot_root into it, the old
 * root unmounted (umount -l); its root a mount, listed at / */
static const real_line CONTAINER_LINES[] = {
	{0, "75 45 254:0 /tmp/h4mi/ct / rw,relatime - ext4 /dev/vda rw,discard,no_prefetch_block_bitmaps,resv_strict,resuid=65534,resgid=65534\n"},
	{0, "77 75 0:41 / /proc rw,relatime - proc proc rw\n"},
	{'a', "46 75 254:0 /tmp/h4mi/ct/srv/data /a rw,relatime - ext4 /dev/vda rw,discard,no_prefetch_block_bitmaps,resv_strict,resuid=65534,resgid=65534\n"},
	{'b', "47 75 254:0 /tmp/h4mi/ct/srv /b rw,relatime - ext4 /dev/vda rw,discard,no_prefetch_block_bitmaps,resv_strict,resuid=65534,resgid=65534\n"},
	{'c', "48 75 254:0 /tmp/h4mi/ct/srv/data /c rw,relatime - ext4 /dev/vda rw,discard,no_prefetch_block_bitmaps,resv_strict,resuid=65534,resgid=65534\n"},
	{0, NULL}
};

/* the folders a chroot or a container shows (the chroot's device and
 * inodes; the container's differ only in number) */
static const fake_folder INSIDE_FOLDERS[] = {
	{"/srv/data/ks", 65024, 10961772, 0},
	{"/srv/data", 65024, 10961771, 0},
	{"/a/ks", 65024, 10961772, 'a'},
	{"/a", 65024, 10961771, 'a'},
	{"/b/data/ks", 65024, 10961772, 'b'},
	{"/b/data", 65024, 10961771, 'b'},
	{"/c/ks", 65024, 10961772, 'c'},
	{"/c", 65024, 10961771, 'c'},
	/* the chroot's own folder by the whole filesystem's path: not there */
	{NULL, 0, 0, 0}
};

/* every folder of the setup with the binds mounted checked: the ones of
 * inode `ino` give want, the others want_parent ("=": itself) */
static void
check_setup(const char *what, const real_line *lines, const fake_folder *folders,
			const char *mounted, uint64_t ino, const char *want, const char *want_parent)
{
	char		table[4096],
				label[256];
	const real_line *l;
	const fake_folder *f;
	fake_fs		fs = {folders, NULL, mounted};

	table[0] = '\0';
	for (l = lines; l->line != NULL; l++)
		if (l->bind == 0 || strchr(mounted, l->bind) != NULL)
			strcat(table, l->line);
	for (f = folders; f->path != NULL; f++)
	{
		const char *w = f->ino == ino ? want : want_parent;

		if (f->bind != 0 && strchr(mounted, f->bind) == NULL)
			continue;
		snprintf(label, sizeof(label), "%s, bind mounts %s", what, mounted);
		/* the folder itself is its own path: "=" */
		check_canonical(label, table, &fs, f->path, strcmp(f->path, w) == 0 ? "=" : w);
	}
}

static void
test_real_setups(void)
{
	static const char *const subsets[] = {"a", "ac", "b", "ab", "abc"};
	size_t		i;

	for (i = 0; i < sizeof(subsets) / sizeof(subsets[0]); i++)
	{
		check_setup("host", HOST_LINES, HOST_REAL_FOLDERS, subsets[i], 10961763,
					"/tmp/h4mi/host/srv/data/ks", "/tmp/h4mi/host/srv/data");
		check_setup("chroot", CHROOT_LINES, INSIDE_FOLDERS, subsets[i], 10961772,
					"/srv/data/ks", "/srv/data");
		check_setup("container", CONTAINER_LINES, INSIDE_FOLDERS, subsets[i], 10961772,
					"/srv/data/ks", "/srv/data");
	}
}

void
suite_mounts(void)
{
	test_bind_of_a_folder();
	test_two_binds();
	test_hidden();
	test_escapes();
	test_chroot();
	test_real_setups();
}
