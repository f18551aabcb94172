/*
 * bc_open_posix.c - component files opened so that a FIFO, a socket or a
 * device in a component's place can never block or be opened at all
 * (bc_open.h): the one check the server (bloom_files.c) and the client
 * (src/client/components.c, walk.c) both make.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bc_open.h"

#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif

static const char *
kind_of(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	return "not a regular file";
}

bc_open_status
bc_open_regular(const char *path, bc_open_fn open_fn, bc_close_fn close_fn, void *arg,
				int *fd, int64_t *size, const char **kind)
{
	struct stat st;
	int			flags;
	int			save_errno;

	*fd = -1;
	*size = 0;
	*kind = NULL;

	/* a device, socket or FIFO is not even opened */
	if (stat(path, &st) != 0)
		return BC_OPEN_FAILED;
	if (S_ISDIR(st.st_mode))
	{
		/* what reading one says (read(2) of a directory) */
		errno = EISDIR;
		return BC_OPEN_FAILED;
	}
	if (!S_ISREG(st.st_mode))
	{
		*kind = kind_of(st.st_mode);
		return BC_OPEN_NOT_REGULAR;
	}

	/*
	 * What was stat'ed may have been replaced since: O_NONBLOCK keeps the
	 * open of a FIFO from waiting for a writer, and the descriptor's own
	 * type decides.  A regular file other than the one stat'ed (renamed
	 * over it meanwhile) is read as it is: it is what a later open would
	 * have given.
	 */
	*fd = open_fn(arg, path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (*fd < 0)
		return BC_OPEN_FAILED;
	if (fstat(*fd, &st) != 0)
		goto failed;
	if (!S_ISREG(st.st_mode))
	{
		close_fn(arg, *fd);
		*fd = -1;
		*kind = kind_of(st.st_mode);
		return BC_OPEN_NOT_REGULAR;
	}
	/* reads of a regular file ignore O_NONBLOCK; cleared all the same */
	flags = fcntl(*fd, F_GETFL);
	if (flags < 0 || fcntl(*fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
		goto failed;
	*size = (int64_t) st.st_size;
	return BC_OPEN_OK;

failed:
	save_errno = errno;
	close_fn(arg, *fd);
	*fd = -1;
	errno = save_errno;
	return BC_OPEN_FAILED;
}

int
bc_open_posix(void *arg, const char *path, int flags)
{
	(void) arg;
	return open(path, flags);
}

void
bc_close_posix(void *arg, int fd)
{
	int			save_errno = errno;

	(void) arg;
	close(fd);
	errno = save_errno;
}
