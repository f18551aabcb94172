/*
 * bc_reader.h - a file as the core's readers see it: a size and a read at
 * an offset, both the caller's.  The server reads through its virtual file
 * descriptors (bloom_file_*), the client with pread(2), the unit tests and
 * the fuzz target from memory; the readers that take a bc_reader
 * (bc_key_range.c) are the same for all of them.
 */
#ifndef BC_READER_H
#define BC_READER_H

#include <stddef.h>
#include <stdint.h>

typedef struct bc_reader
{
	/*
	 * Up to len bytes at offset into buf, *got of them: fewer than len
	 * only at the end of the file.  0, or non-zero when the read failed
	 * (the caller keeps why, or that it was asked to stop); the reader
	 * then returns BC_ERR_READ.
	 */
	int			(*read) (void *arg, uint64_t offset, uint8_t *buf, size_t len, size_t *got);
	void	   *arg;
	uint64_t	size;			/* the file's size in bytes */
} bc_reader;

#endif							/* BC_READER_H */
