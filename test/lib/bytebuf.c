/*
 * bytebuf.c - the growable buffer of bytes of the test programs
 * (bytebuf.h).
 */
#include <stdlib.h>
#include <string.h>

#include "bytebuf.h"

void
bytebuf_put(bytebuf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap)
	{
		uint8_t    *d;

		b->cap = (b->n + n) * 2 + 64;
		d = realloc(b->d, b->cap);
		if (d == NULL)
			abort();
		b->d = d;
	}
	if (n > 0)
		memcpy(b->d + b->n, p, n);
	b->n += n;
}

void
bytebuf_put_be(bytebuf *b, uint64_t v, int bytes)
{
	uint8_t		x[8];
	int			i;

	for (i = 0; i < bytes; i++)
		x[i] = (uint8_t) (v >> (8 * (bytes - 1 - i)));
	bytebuf_put(b, x, (size_t) bytes);
}
