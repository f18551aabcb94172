/*
 * bytebuf.h - a growable buffer of bytes, and its appends, for the test
 * programs that write component files: the core's unit tests
 * (test/unit), the test data tools (test/tools) and the fuzz target
 * (test/fuzz).  Out of memory aborts: these are tests.
 */
#ifndef BYTEBUF_H
#define BYTEBUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct bytebuf
{
	uint8_t    *d;
	size_t		n,
				cap;
} bytebuf;

/* n bytes of p at the end */
void		bytebuf_put(bytebuf *b, const void *p, size_t n);
/* the low `bytes` bytes of v, big-endian */
void		bytebuf_put_be(bytebuf *b, uint64_t v, int bytes);

#endif							/* BYTEBUF_H */
