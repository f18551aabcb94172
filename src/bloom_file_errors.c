/*
 * bloom_file_errors.c - the SQLSTATE of a failed system call on a file or
 * folder (its errno), for every ERROR and WARNING of the readers, the
 * listing and bloom_import_file.
 *
 * PostgreSQL's errcode_for_file_access (elog.c) classifies a few errnos
 * and gives every other one XX000 (internal_error), which says "a bug in
 * PostgreSQL" of what is a property of the file system: a link to itself
 * (ELOOP), a path longer than the system takes (ENAMETOOLONG), a file too
 * large for the system's types (EOVERFLOW).  The table below keeps each
 * code errcode_for_file_access gives, gives ENAMETOOLONG the code
 * PostgreSQL 18 gives it (58P03, file_name_too_long) on every version, and
 * gives the rest a code of their own; an errno not in it is 58000
 * (system_error, "errors external to PostgreSQL itself"), never XX000.
 * The errnos listed are those the readers' calls can return (open, fstat,
 * fstatat, pread, opendir, readdir; see their manual pages).
 *
 * bloom_file_error_test(name text) raises the ERROR a reader raises for
 * the errno of that name (its SQLSTATE, its strerror), or of that number
 * (one not in the table), for the regression test of the errnos no file
 * can be made to give (EIO, EOVERFLOW, ...).
 * The extension's scripts do not declare it: sql/21_files.sql does.
 */
#include "postgres.h"

#include <errno.h>

#include "common/username.h"
#include "fmgr.h"
#include "utils/builtins.h"

#include "bloomcass.h"

/* PostgreSQL 18's code for ENAMETOOLONG (errcodes.txt), on every version */
#ifndef ERRCODE_FILE_NAME_TOO_LONG
#define ERRCODE_FILE_NAME_TOO_LONG MAKE_SQLSTATE('5','8','P','0','3')
#endif

typedef struct FileErrno
{
	int			errnum;
	const char *name;
	int			sqlstate;
} FileErrno;

#define FILE_ERRNO(e, code) {e, #e, code}

static const FileErrno file_errnos[] = {
	/* errcode_for_file_access's own */
	FILE_ERRNO(EPERM, ERRCODE_INSUFFICIENT_PRIVILEGE),
	FILE_ERRNO(EACCES, ERRCODE_INSUFFICIENT_PRIVILEGE),
	FILE_ERRNO(EROFS, ERRCODE_INSUFFICIENT_PRIVILEGE),
	FILE_ERRNO(ENOENT, ERRCODE_UNDEFINED_FILE),
	FILE_ERRNO(EEXIST, ERRCODE_DUPLICATE_FILE),
	FILE_ERRNO(ENOTDIR, ERRCODE_WRONG_OBJECT_TYPE),
	FILE_ERRNO(EISDIR, ERRCODE_WRONG_OBJECT_TYPE),
	FILE_ERRNO(ENOTEMPTY, ERRCODE_WRONG_OBJECT_TYPE),
	FILE_ERRNO(ENOSPC, ERRCODE_DISK_FULL),
	FILE_ERRNO(ENOMEM, ERRCODE_OUT_OF_MEMORY),
	FILE_ERRNO(ENFILE, ERRCODE_INSUFFICIENT_RESOURCES),
	FILE_ERRNO(EMFILE, ERRCODE_INSUFFICIENT_RESOURCES),
	FILE_ERRNO(EIO, ERRCODE_IO_ERROR),
	/* PostgreSQL 18's (15 to 17 give XX000) */
	FILE_ERRNO(ENAMETOOLONG, ERRCODE_FILE_NAME_TOO_LONG),
	/* bloomcass's: XX000 in errcode_for_file_access */
	/* a link to itself, or a chain of links too long to follow, leads to
	 * no file, as a dangling link (ENOENT) does */
	FILE_ERRNO(ELOOP, ERRCODE_UNDEFINED_FILE),
	/* a device or socket where a file was (open after its stat): not a
	 * regular file, as bc_open_regular's own refusal says (42809) */
	FILE_ERRNO(ENXIO, ERRCODE_WRONG_OBJECT_TYPE),
	FILE_ERRNO(ENODEV, ERRCODE_WRONG_OBJECT_TYPE),
	/* a size or inode number past the system's types: a limit */
	FILE_ERRNO(EOVERFLOW, ERRCODE_PROGRAM_LIMIT_EXCEEDED),
	FILE_ERRNO(EFBIG, ERRCODE_PROGRAM_LIMIT_EXCEEDED),
	/* a lease another process holds (an O_NONBLOCK open), a busy file */
	FILE_ERRNO(EWOULDBLOCK, ERRCODE_OBJECT_IN_USE),
	FILE_ERRNO(EBUSY, ERRCODE_OBJECT_IN_USE),
	FILE_ERRNO(ETXTBSY, ERRCODE_OBJECT_IN_USE),
	/* a file system that lost the file or its server: its I/O failed */
	FILE_ERRNO(ESTALE, ERRCODE_IO_ERROR),
#ifdef EUCLEAN
	FILE_ERRNO(EUCLEAN, ERRCODE_IO_ERROR),
#endif
	FILE_ERRNO(EDQUOT, ERRCODE_DISK_FULL),
	/* the rest, as any errno not listed: a failure of the system */
	FILE_ERRNO(EINVAL, ERRCODE_SYSTEM_ERROR),
	FILE_ERRNO(EINTR, ERRCODE_SYSTEM_ERROR),
	FILE_ERRNO(EBADF, ERRCODE_SYSTEM_ERROR),
	FILE_ERRNO(EFAULT, ERRCODE_SYSTEM_ERROR),
	FILE_ERRNO(ESPIPE, ERRCODE_SYSTEM_ERROR),
	FILE_ERRNO(ENOTCONN, ERRCODE_SYSTEM_ERROR),
};

int
bloom_file_errcode(int errnum)
{
	size_t		i;

	for (i = 0; i < lengthof(file_errnos); i++)
		if (file_errnos[i].errnum == errnum)
			return file_errnos[i].sqlstate;
	return ERRCODE_SYSTEM_ERROR;
}

/*
 * errhint for a permission refused by the operating system (EACCES,
 * EPERM): the server reads files as its own operating-system user, not as
 * the role that called the function, nor as the user of the psql that
 * runs it, which is what surprises whoever can read the folder
 * themselves.  0, and no hint, for any other errno.  Called inside an
 * ereport (bloom_file_errcodes).
 */
int
bloom_file_errhint(int errnum)
{
	char	   *err = NULL;
	const char *user;

	if (errnum != EACCES && errnum != EPERM)
		return 0;
	user = get_user_name(&err);
	if (user == NULL)
		return errhint("The server reads files as its own operating-system user, "
					   "which needs read permission on the file or folder "
					   "and search permission on every folder above it.");
	return errhint("The server reads files as its operating-system user \"%s\", "
				   "which needs read permission on the file or folder "
				   "and search permission on every folder above it.", user);
}

extern PGDLLEXPORT Datum bloom_file_error_test(PG_FUNCTION_ARGS);

PG_FUNCTION_INFO_V1(bloom_file_error_test);
Datum
bloom_file_error_test(PG_FUNCTION_ARGS)
{
	char	   *name = text_to_cstring(PG_GETARG_TEXT_PP(0));
	size_t		i;
	int			e;

	for (i = 0; i < lengthof(file_errnos); i++)
		if (strcmp(file_errnos[i].name, name) == 0)
			break;
	if (i < lengthof(file_errnos))
		e = file_errnos[i].errnum;
	else if (strspn(name, "0123456789") == strlen(name) && strlen(name) > 0 && strlen(name) < 6)
		e = atoi(name);			/* an errno not in the table */
	else
		elog(ERROR, "no errno named \"%s\" in the table", name);
	errno = e;
	ereport(ERROR,
			(bloom_file_errcodes(e),
			 errmsg("could not open file \"%s\" for reading: %m", name)));
	PG_RETURN_VOID();
}
