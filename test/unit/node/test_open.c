/*
 * test_open.c - component files opened only when they are regular files
 * (bc_open_posix.c), on a real file system: a regular file opens (its
 * size, O_NONBLOCK cleared, its bytes read), and a FIFO (also behind a
 * symbolic link), a socket and a character device are refused at once,
 * naming what they are, without being opened: a FIFO
 * opened for reading would block, so an alarm ends the test if it does.
 * A directory is BC_OPEN_FAILED with EISDIR (what a read of it says), a
 * missing file with ENOENT, as the callers' "may be absent" paths expect.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "bc_open.h"
#include "unit.h"

/* counts the opens and closes of bc_open_regular's callbacks */
static int	nopen,
			nclose;

static int
count_open(void *arg, const char *path, int flags)
{
	(void) arg;
	nopen++;
	return open(path, flags);
}

static void
count_close(void *arg, int fd)
{
	(void) arg;
	nclose++;
	close(fd);
}

static void
expect_refused(const char *path, const char *want, const char *what)
{
	int			fd = 123;
	int64_t		size = 7;
	const char *kind = NULL;
	bc_open_status st;

	nopen = nclose = 0;
	st = bc_open_regular(path, count_open, count_close, NULL, &fd, &size, &kind);
	CHECK(st == BC_OPEN_NOT_REGULAR && fd == -1 && size == 0 && kind != NULL &&
		  strcmp(kind, want) == 0 && nopen == 0,
		  "%s: status %d, fd %d, kind %s (want %s), %d opens", what, (int) st, fd,
		  kind ? kind : "(none)", want, nopen);
}

void
suite_open(void)
{
	char		dir[] = "/tmp/bc_open_XXXXXX";
	char		path[256],
				fifo[256],
				sock[256],
				link[256];
	uint8_t		buf[16];
	int			fd,
				s,
				flags;
	int64_t		size;
	const char *kind;
	bc_open_status st;
	FILE	   *f;
	struct sockaddr_un sa;

	if (mkdtemp(dir) == NULL)
	{
		CHECK(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	/* a FIFO that blocked the open would end here, failed */
	alarm(30);

	/* a regular file: opened, its size, O_NONBLOCK cleared, readable */
	snprintf(path, sizeof(path), "%s/nb-1-big-Index.db", dir);
	f = fopen(path, "wb");
	CHECK(f != NULL && fwrite("0123456789", 1, 10, f) == 10 && fclose(f) == 0, "write %s", path);
	nopen = nclose = 0;
	st = bc_open_regular(path, count_open, count_close, NULL, &fd, &size, &kind);
	CHECK(st == BC_OPEN_OK && fd >= 0 && size == 10 && nopen == 1 && nclose == 0,
		  "regular file: status %d, fd %d, size %lld", (int) st, fd, (long long) size);
	if (fd >= 0)
	{
		flags = fcntl(fd, F_GETFL);
		CHECK(flags >= 0 && (flags & O_NONBLOCK) == 0, "regular file: flags %#x", flags);
		CHECK(read(fd, buf, sizeof(buf)) == 10 && memcmp(buf, "0123456789", 10) == 0,
			  "regular file: its bytes");
		close(fd);
	}

	/* a FIFO, directly and through a link: refused before any open */
	snprintf(fifo, sizeof(fifo), "%s/nb-1-big-Summary.db", dir);
	CHECK(mkfifo(fifo, 0600) == 0, "mkfifo: %s", strerror(errno));
	expect_refused(fifo, "a FIFO", "FIFO");
	snprintf(link, sizeof(link), "%s/nb-1-big-Statistics.db", dir);
	CHECK(symlink(fifo, link) == 0, "symlink: %s", strerror(errno));
	expect_refused(link, "a FIFO", "link to a FIFO");

	/* a socket, a directory, a character device */
	snprintf(sock, sizeof(sock), "%s/nb-1-big-Data.db", dir);
	s = socket(AF_UNIX, SOCK_STREAM, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(sock) < sizeof(sa.sun_path))
		memcpy(sa.sun_path, sock, strlen(sock) + 1);
	if (s >= 0 && bind(s, (struct sockaddr *) &sa, sizeof(sa)) == 0)
		expect_refused(sock, "a socket", "socket");
	else
		CHECK(0, "socket: %s", strerror(errno));
	if (s >= 0)
		close(s);
	nopen = 0;
	errno = 0;
	st = bc_open_regular(dir, count_open, count_close, NULL, &fd, &size, &kind);
	CHECK(st == BC_OPEN_FAILED && errno == EISDIR && fd == -1 && nopen == 0,
		  "directory: status %d, errno %d", (int) st, errno);
	if (access("/dev/null", F_OK) == 0)
		expect_refused("/dev/null", "a character device", "/dev/null");

	/* a missing file: failed with ENOENT, nothing opened */
	snprintf(path, sizeof(path), "%s/nb-1-big-Filter.db", dir);
	nopen = 0;
	errno = 0;
	st = bc_open_regular(path, count_open, count_close, NULL, &fd, &size, &kind);
	CHECK(st == BC_OPEN_FAILED && errno == ENOENT && fd == -1 && nopen == 0,
		  "missing file: status %d, errno %d", (int) st, errno);

	alarm(0);
	unlink(sock);
	unlink(link);
	unlink(fifo);
	snprintf(path, sizeof(path), "%s/nb-1-big-Index.db", dir);
	unlink(path);
	rmdir(dir);
}
