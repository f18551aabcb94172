/*
 * bloom_files.c - reading server files with exactly the privileges of
 * pg_catalog.pg_read_binary_file(text).
 *
 * bloomcass is a trusted extension, so every function that reads a file on
 * the server checks, as the calling role, what pg_read_binary_file checks:
 * first the EXECUTE privilege on that function (revoked from PUBLIC by
 * default), then its path rule (convert_and_check_filename in genfile.c):
 * a role with the privileges of pg_read_server_files may read any path the
 * server can; any other role only absolute paths below the data directory or
 * the log directory, and relative paths that stay below the data directory
 * (the server's working directory).  The messages and SQLSTATE (42501) are
 * the server's own, so a role learns nothing more through bloomcass than
 * through pg_read_binary_file; a HINT says what the role needs.
 *
 * The readers work on descriptors from OpenTransientFile, which the server
 * closes itself if the transaction ends with an error, opened only when the
 * file is a regular file (bc_open_regular): a FIFO in a component's place
 * would otherwise block the open itself, out of reach of statement_timeout
 * and pg_cancel_backend.
 */
#include "postgres.h"

#include <errno.h>
#include <fcntl.h>

#include "catalog/pg_authid.h"
#include "catalog/pg_proc.h"
#include "miscadmin.h"
#include "postmaster/syslogger.h"
#include "storage/fd.h"
#include "utils/acl.h"
#include "utils/fmgroids.h"

#include "bc_open.h"
#include "bloomcass.h"

/* reads are issued in pieces of at most this many bytes */
#define READ_PIECE ((size_t) 4 * 1024 * 1024)

/* the core's bc_tick_hook: statement_timeout and pg_cancel_backend stop
 * its long loops (an ERROR thrown from inside one: every allocation the
 * core makes on the server is the caller's, in a memory context) */
void
bloom_check_interrupts(void)
{
	CHECK_FOR_INTERRUPTS();
}

/*
 * The HINT of every refusal: what a role needs, exactly as PostgreSQL
 * decides it for pg_read_binary_file(text) (genfile.c): EXECUTE on it, and
 * for a path outside the data directory and the log directory, the
 * privileges of pg_read_server_files too; a superuser has both.
 */
#define READ_PRIVILEGES_HINT \
	"Reading a file on the server needs both EXECUTE on pg_read_binary_file(text) and the " \
	"privileges of the role pg_read_server_files, or superuser; EXECUTE alone allows only " \
	"files below the data directory or the log directory."

char *
bloom_file_path(const char *path)
{
	AclResult	aclresult;
	char	   *filename;

	/* aclcheck_error's own message (aclchk.c), with the HINT */
	aclresult = bloom_proc_aclcheck(F_PG_READ_BINARY_FILE_TEXT, GetUserId(), ACL_EXECUTE);
	if (aclresult != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for function %s", "pg_read_binary_file"),
				 errhint(READ_PRIVILEGES_HINT)));

	filename = pstrdup(path);
	canonicalize_path(filename);	/* filename can change length here */

	if (has_privs_of_role(GetUserId(), ROLE_PG_READ_SERVER_FILES))
		return filename;

	if (is_absolute_path(filename))
	{
		if (!path_is_prefix_of_path(DataDir, filename) &&
			(!is_absolute_path(Log_directory) ||
			 !path_is_prefix_of_path(Log_directory, filename)))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("absolute path not allowed"),
					 errhint(READ_PRIVILEGES_HINT)));
	}
	else if (!path_is_relative_and_below_cwd(filename))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg(BLOOM_RELATIVE_PATH_MESSAGE),
				 errhint(READ_PRIVILEGES_HINT)));

	return filename;
}

/*
 * A failure: an ERROR naming the file when err is NULL, else a reason
 * without the file's name in *err (the caller names it).  errno must still
 * be the one of the failed call.
 */
static bool
file_failure(char **err, const char *fmt, const char *what, const char *path)
{
	int			save_errno = errno;

	if (err == NULL)
	{
		errno = save_errno;
		ereport(ERROR,
				(bloom_file_errcodes(save_errno),
				 errmsg(fmt, path)));
	}
	*err = psprintf("could not %s it: %s", what, strerror(save_errno));
	errno = save_errno;
	return false;
}

/* the server's open(2) and close(2) for bc_open_regular: transient files,
 * closed by the server if the transaction ends with an ERROR */
static int
open_transient(void *arg, const char *path, int flags)
{
	return OpenTransientFile(path, flags | PG_BINARY);
}

static void
close_transient(void *arg, int fd)
{
	int			save_errno = errno;

	CloseTransientFile(fd);
	errno = save_errno;
}

/*
 * Open a file for reading, never blocking (bc_open_regular): a FIFO,
 * socket or device is refused before it is opened, so that no open can
 * wait where statement_timeout and pg_cancel_backend do not reach it.
 * That refusal is 42809 (wrong_object_type: what errcode_for_file_access
 * gives a directory, EISDIR, and cassandra_sstables a root that is not a
 * directory); with err, the reason goes in *err instead.  may_lack: a file that
 * does not exist is not an error, false with errno ENOENT.
 */
static bool
file_open(BloomFile *f, const char *path, char **err, bool may_lack)
{
	int64_t		size;
	const char *kind;
	bc_open_status st;

	f->fd = -1;
	f->path = path;
	f->size = 0;
	f->err = NULL;
	f->errnum = 0;
	st = bc_open_regular(path, open_transient, close_transient, NULL, &f->fd, &size, &kind);
	if (st == BC_OPEN_FAILED)
	{
		f->errnum = errno;
		if (may_lack && errno == ENOENT)
			return false;
		return file_failure(err, "could not open file \"%s\" for reading: %m", "open", path);
	}
	if (st == BC_OPEN_NOT_REGULAR)
	{
		if (err == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_WRONG_OBJECT_TYPE),
					 errmsg("file \"%s\" is not a regular file: it is %s", path, kind),
					 errhint("bloomcass reads only regular files, so that no read can wait for a writer.")));
		*err = psprintf("it is not a regular file: it is %s", kind);
		errno = EINVAL;			/* not ENOENT: the file is there */
		return false;
	}
	f->size = (int64) size;
	return true;
}

bool
bloom_file_open(BloomFile *f, const char *path, char **err)
{
	return file_open(f, path, err, false);
}

bool
bloom_file_open_may_lack(BloomFile *f, const char *path)
{
	return file_open(f, path, NULL, true);
}

bool
bloom_file_read(BloomFile *f, int64 offset, uint8 *buf, size_t len, size_t *got, char **err)
{
	size_t		done = 0;

	while (done < len)
	{
		size_t		want = Min(len - done, READ_PIECE);
		ssize_t		n;

		CHECK_FOR_INTERRUPTS();
		n = pg_pread(f->fd, buf + done, want, (off_t) (offset + (int64) done));
		if (n < 0)
		{
			if (errno == EINTR)
				continue;
			f->errnum = errno;
			return file_failure(err, "could not read file \"%s\": %m", "read", f->path);
		}
		if (n == 0)
			break;				/* end of file */
		done += (size_t) n;
	}
	*got = done;
	return true;
}

static int
reader_read(void *arg, uint64_t offset, uint8_t *buf, size_t len, size_t *got)
{
	BloomFile  *f = (BloomFile *) arg;

	return bloom_file_read(f, (int64) offset, buf, len, got, &f->err) ? 0 : 1;
}

void
bloom_file_reader(BloomFile *f, bc_reader *r)
{
	r->read = reader_read;
	r->arg = f;
	r->size = (uint64) f->size;
}

void
bloom_file_close(BloomFile *f)
{
	if (f->fd >= 0)
		CloseTransientFile(f->fd);
	f->fd = -1;
}

static uint8 *read_all(const char *path, size_t room, size_t max, size_t *len, char **err,
						bool may_lack);

/*
 * The whole of a file of at most max bytes.  A larger file is an error
 * (54000) naming the file, as is a file that changes length while it is
 * read.
 */
uint8 *
bloom_file_read_all(const char *path, size_t max, size_t *len, char **err)
{
	return bloom_file_read_all_after(path, 0, max, len, err);
}

/*
 * The same in an allocation of room + the file's size bytes, the file read
 * after the first room bytes (left as they are, for the caller's header):
 * a value is made where its bytes are read, without a copy.
 */
uint8 *
bloom_file_read_all_after(const char *path, size_t room, size_t max, size_t *len, char **err)
{
	return read_all(path, room, max, len, err, false);
}

/* the whole of a file that may not exist: NULL (errno ENOENT) if it does
 * not, an ERROR for any other failure */
uint8 *
bloom_file_read_all_may_lack(const char *path, size_t max, size_t *len)
{
	return read_all(path, 0, max, len, NULL, true);
}

static uint8 *
read_all(const char *path, size_t room, size_t max, size_t *len, char **err, bool may_lack)
{
	BloomFile	f;
	uint8	   *buf;
	uint8		extra;
	size_t		got;

	if (!file_open(&f, path, err, may_lack))
	{
		errno = f.errnum;
		return NULL;
	}
	if ((uint64) f.size > (uint64) max)
	{
		bloom_file_close(&f);
		errno = 0;
		if (err == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("file \"%s\" is too large: %lld bytes, at most %zu can be read",
							path, (long long) f.size, max)));
		*err = psprintf("it is too large: %lld bytes, at most %zu can be read",
						(long long) f.size, max);
		return NULL;
	}
	buf = (uint8 *) palloc_extended(room + Max(f.size, 1), MCXT_ALLOC_HUGE);
	if (!bloom_file_read(&f, 0, buf + room, (size_t) f.size, &got, err))
	{
		bloom_file_close(&f);
		pfree(buf);
		errno = f.errnum;
		return NULL;
	}
	if (got == (size_t) f.size)
	{
		size_t		more;

		if (!bloom_file_read(&f, f.size, &extra, 1, &more, err))
		{
			bloom_file_close(&f);
			pfree(buf);
			errno = f.errnum;
			return NULL;
		}
		got += more;
	}
	bloom_file_close(&f);
	if (got != (size_t) f.size)
	{
		if (err == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("file \"%s\" changed length while it was read", path)));
		*err = pstrdup("it changed length while it was read");
		pfree(buf);
		errno = 0;
		return NULL;
	}
	*len = got;
	return buf;
}
