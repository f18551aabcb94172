/*
 * tool_io.h - files for the test data tools (recompress.c,
 * scylla_quirks.c): whole files read and written, an SSTable's component
 * files listed and copied, a core bc_reader over memory.  Every failure
 * ends the program with a message naming the file (exit status 1).
 */
#ifndef TOOL_IO_H
#define TOOL_IO_H

#include <stddef.h>
#include <stdint.h>

#include "bc_reader.h"

/* print "<program>: <message>" and exit 1 */
void		tool_die(const char *fmt,...);

/* the program's name for tool_die */
extern const char *tool_name;

/* malloc or die */
void	   *tool_alloc(size_t n);

/* "<prefix>-<component>", malloc'd */
char	   *tool_component_path(const char *prefix, const char *component);

/*
 * The whole file: its bytes (malloc'd, at least one byte allocated) and
 * *len; NULL when it does not exist and may_lack, else the program ends.
 */
uint8_t    *tool_read(const char *path, size_t *len, int may_lack);

/* write the file whole (created or replaced) */
void		tool_write(const char *path, const uint8_t *data, size_t len);

/*
 * The component names of the SSTable at prefix (the files of its folder
 * named "<basename(prefix)>-<component>", component without a '-'),
 * sorted; *n of them, malloc'd.
 */
char	  **tool_components(const char *prefix, size_t *n);

/* the SSTable's version from its file names (the core's bc_sstable_name_parse) */
void		tool_version(const char *prefix, char version[3]);

/* a bc_reader over bytes in memory */
typedef struct tool_mem
{
	const uint8_t *data;
	size_t		len;
} tool_mem;

bc_reader	tool_mem_reader(tool_mem *m, const uint8_t *data, size_t len);

/* a growable buffer of bytes, and big-endian and Java writeUTF appends */
#include "bytebuf.h"

/* Java's writeUTF: a BE16 length, then the bytes */
void		tool_put_utf(bytebuf *b, const char *s, size_t n);

#endif							/* TOOL_IO_H */
