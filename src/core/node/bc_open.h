/*
 * bc_open.h - a component file opened for reading so that the open itself
 * can never block (bc_open_posix.c), for the server and the client alike.
 *
 * open(2) of a FIFO for reading waits for a writer, in the kernel, where
 * no signal the server sends to cancel a query (statement_timeout,
 * pg_cancel_backend, pg_terminate_backend) can reach it; open(2) of a
 * device may do anything the device's driver does.  So a path is stat'ed
 * first and refused unless it is a regular file, then opened with
 * O_NONBLOCK (a FIFO put in its place meanwhile does not block either) and
 * O_NOCTTY, the descriptor fstat'ed and refused unless it is a regular
 * file, and O_NONBLOCK cleared.
 */
#ifndef BC_OPEN_H
#define BC_OPEN_H

#include <stdint.h>

typedef enum bc_open_status
{
	BC_OPEN_OK = 0,
	BC_OPEN_FAILED,				/* stat, open or fstat failed: errno says why
								 * (ENOENT: there is no such file) */
	BC_OPEN_NOT_REGULAR			/* not a regular file: *kind says what */
} bc_open_status;

/*
 * The caller's open(2) (the server's OpenTransientFile, so that an ERROR
 * closes the descriptor) and close(2); open_fn returns -1 with errno set.
 */
typedef int (*bc_open_fn) (void *arg, const char *path, int flags);
typedef void (*bc_close_fn) (void *arg, int fd);

/*
 * Open path for reading if it is a regular file (links followed): the
 * descriptor in *fd and the file's size in *size.  Otherwise *fd is -1,
 * errno is the failure's (BC_OPEN_FAILED; EISDIR for a directory), or
 * *kind a phrase for what the path is ("a FIFO", "a socket", "a character
 * device", "a block device": BC_OPEN_NOT_REGULAR).
 */
bc_open_status bc_open_regular(const char *path, bc_open_fn open_fn, bc_close_fn close_fn,
							   void *arg, int *fd, int64_t *size, const char **kind);

/* open(2) and close(2) as bc_open_regular takes them */
int			bc_open_posix(void *arg, const char *path, int flags);
void		bc_close_posix(void *arg, int fd);

#endif							/* BC_OPEN_H */
