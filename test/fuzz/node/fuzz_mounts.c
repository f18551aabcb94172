/*
 * fuzz_mounts.c - bc_mount_canonical over any mount table: the input is
 * a folder's real path, a NUL, then the text of /proc/self/mountinfo.
 * The file system is made up, shaped by the input's last byte: every path
 * has a device and inode (a hash of its last name, folded into a few
 * values, so that a bind mount's view of a folder and unrelated folders
 * alike may share them; for some paths, of the whole path: another
 * folder of that name), and is its own real path or not (a bit of the
 * whole path's hash).
 *
 * The contract (bc_mounts.h): a path chosen is used only when it is its
 * own real path and names the same device and inode as the folder, so
 * no mount table, real or crafted, gives two folders one path.  Checked:
 * whatever the table, a path returned is absolute, is its own real path
 * in the made-up file system, and has the folder's device and inode; and
 * the same input gives the same path twice (it depends on the place
 * only).
 */
#include <stdlib.h>
#include <string.h>

#include "bc_mounts.h"
#include "fuzz.h"

typedef struct fake_fs
{
	unsigned	fold;			/* distinct (device, inode) pairs */
	int			all_real;		/* every path its own real path */
	uint64_t	seed;			/* which paths lead nowhere, which are links */
} fake_fs;

static uint64_t
fnv(const char *s)
{
	uint64_t	h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (uint8_t) *s) * 1099511628211ULL;
	return h;
}

/*
 * A folder's device and inode: those of its last name's text, folded, as
 * a bind mount shows the same folder under the same last name (and other
 * folders of one name may share them too); the whole path's hash makes
 * some paths lead nowhere.
 */
static int
fake_stat(void *arg, const char *path, uint64_t *dev, uint64_t *ino)
{
	fake_fs    *fs = arg;
	uint64_t	h = fnv(path) ^ fs->seed,
				b = fnv(strrchr(path, '/') ? strrchr(path, '/') + 1 : path);

	if (path[0] != '/' || (h & 0x700) == 0x700)
		return -1;				/* a path to nothing */
	/* some paths are another folder of the same last name (a folder
	 * over-mounted on the way, another disk's) */
	if ((h & 0x3000) == 0x3000)
		b = h;
	*dev = (b >> 8) % 2;
	*ino = (b >> 20) % (fs->fold * 8);
	return 0;
}

static char *
fake_real_path(void *arg, const char *path)
{
	fake_fs    *fs = arg;
	uint64_t	h = fnv(path) ^ fs->seed;
	size_t		n = strlen(path);
	char	   *r;

	if (path[0] != '/' || (h & 0x700) == 0x700)
		return NULL;
	if (fs->all_real || (h & 0x800) == 0)
		return strcpy(xmalloc(n + 1), path);
	/* a link: its real path is elsewhere */
	r = xmalloc(n + 3);
	memcpy(r, path, n);
	memcpy(r + n, "/l", 3);
	return r;
}

static const bc_mount_ops fake_ops = {fake_stat, fake_real_path};

void
fuzz_mounts(const uint8_t *data, size_t len)
{
	const uint8_t *nul = memchr(data, '\0', len);
	fake_fs		fs;
	char	   *real,
			   *got,
			   *again;
	size_t		real_len;
	uint64_t	dev,
				ino,
				gdev,
				gino;

	if (nul == NULL || len < 2)
		return;
	real_len = (size_t) (nul - data);
	/* a real path: absolute (what the walk gives) */
	if (real_len == 0 || data[0] != '/')
		return;
	real = xmalloc(real_len + 1);
	memcpy(real, data, real_len);
	real[real_len] = '\0';
	fs.fold = 2 + data[len - 1] % 6;
	fs.all_real = (data[len - 1] & 0x80) != 0;
	fs.seed = (uint64_t) data[len - 1] * 0x9E3779B97F4A7C15ULL;

	got = bc_mount_canonical((const char *) nul + 1, len - real_len - 1, real, &fake_ops, &fs);
	if (got != NULL)
	{
		char	   *rp = fake_real_path(&fs, got);

		CHECK(got[0] == '/');
		/* the folder itself, by the path chosen */
		CHECK(fake_stat(&fs, real, &dev, &ino) == 0);
		CHECK(fake_stat(&fs, got, &gdev, &gino) == 0);
		CHECK(dev == gdev && ino == gino);
		/* its own real path */
		CHECK(rp != NULL && strcmp(rp, got) == 0);
		free(rp);
	}
	again = bc_mount_canonical((const char *) nul + 1, len - real_len - 1, real, &fake_ops, &fs);
	CHECK((got == NULL) == (again == NULL));
	CHECK(got == NULL || strcmp(got, again) == 0);
	free(got);
	free(again);
	free(real);
}
