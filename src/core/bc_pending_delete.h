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
 */
#ifndef BLOOMCASS_BC_PENDING_DELETE_H
#define BLOOMCASS_BC_PENDING_DELETE_H

#include <stddef.h>

/* whether a file of pending_delete/ is a log to replay: its extension, as
 * std::filesystem::path::extension gives it, is ".log" */
int			bc_pending_delete_log_name(const char *name, size_t len);

/*
 * The SSTables the log text[0 .. len) deletes: sstable(arg, descriptor,
 * descriptor_len) for each line that is, by name alone, an SSTable's
 * TOC.txt of the table's folder (no '/', nothing after TOC.txt; empty
 * lines skipped), descriptor pointing into text.  A line that is not is
 * passed over: ScyllaDB would try to delete a file that is not there.
 * Returns the number of lines reported.
 */
size_t		bc_pending_delete_scan(const char *text, size_t len,
								   void (*sstable) (void *arg, const char *descriptor,
													size_t descriptor_len),
								   void *arg);

#endif							/* BLOOMCASS_BC_PENDING_DELETE_H */
