/*
 * bc_pending_delete.h - ScyllaDB's pending_delete logs (bc_pending_delete.c).
 *
 * Atomic deletion of SSTables (sstables/sstable_directory.cc:
 * create_pending_deletion_log) writes, in the table folder's
 * pending_delete/, the TOC file names of the SSTables it deletes, one a
 * line, as sstables-<min>-<max>.log.tmp, renames it .log once written,
 * deletes the SSTables, then the log.  At startup each .log is replayed
 * (replay_pending_delete_log: the text split at '\n', empty pieces
 * dropped, each piece a TOC file name joined to the table's folder, every
 * such SSTable deleted), each .tmp deleted unread, anything else ignored.
 *
 * A log is read in pieces of any size (bc_pending_delete_feed), so that one
 * of tens of megabytes costs its reader one piece and one line, not the
 * log: a line is an SSTable's TOC file name, at most
 * BC_PENDING_DELETE_MAX_LINE bytes (a file name is at most 255 bytes on
 * every file system ScyllaDB runs on), and a longer one names no file of
 * the folder and is passed over.
 */
#ifndef BLOOMCASS_BC_PENDING_DELETE_H
#define BLOOMCASS_BC_PENDING_DELETE_H

#include <stddef.h>

#define BC_PENDING_DELETE_MAX_LINE 4096

typedef void (*bc_pending_delete_fn) (void *arg, const char *descriptor,
									  size_t descriptor_len);

/* a log being read: all zero before its first piece */
typedef struct bc_pending_delete_scanner
{
	char		line[BC_PENDING_DELETE_MAX_LINE];	/* the line so far */
	size_t		len;
	int			overlong;		/* the line is longer: passed over */
	size_t		lines;			/* lines seen, for BC_TICK */
	size_t		found;			/* lines reported */
} bc_pending_delete_scanner;

/* whether a file of pending_delete/ is a log to replay: its extension, as
 * std::filesystem::path::extension gives it, is ".log" */
int			bc_pending_delete_log_name(const char *name, size_t len);

/*
 * The next piece of a log (text[0 .. len), any size): sstable(arg,
 * descriptor, descriptor_len) for each line ended in it that is, by name
 * alone, an SSTable's TOC.txt of the table's folder (no '/', no NUL,
 * nothing after TOC.txt; empty lines skipped), descriptor valid during the
 * call only.  A line that is not is passed over: ScyllaDB would try to
 * delete a file that is not there.  bc_pending_delete_finish after the
 * last piece takes the last line, when no '\n' ends it.
 */
void		bc_pending_delete_feed(bc_pending_delete_scanner *sc, const char *text, size_t len,
								   bc_pending_delete_fn sstable, void *arg);
void		bc_pending_delete_finish(bc_pending_delete_scanner *sc, bc_pending_delete_fn sstable,
									 void *arg);

/* a whole log at once (feed, then finish): the number of lines reported */
size_t		bc_pending_delete_scan(const char *text, size_t len, bc_pending_delete_fn sstable,
								   void *arg);

#endif							/* BLOOMCASS_BC_PENDING_DELETE_H */
