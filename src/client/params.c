/*
 * params.c - the parameters of a statement in binary format (libpq's
 * PQexecPrepared): an SSTable's row, bytes sent as they are, without
 * escaping or a copy of large values.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "bc_endian.h"
#include "load.h"

#define TEXTOID 25

void
ld_params_reset(ld_params *p)
{
	int			i;

	for (i = 0; i < p->n; i++)
		free(p->owned[i]);
	memset(p, 0, sizeof(*p));
}

/* the next parameter: its value (NULL for SQL NULL) and length */
static void
add(ld_params *p, const void *value, size_t len, char *owned)
{
	if (p->n == LD_MAX_PARAMS)
		abort();				/* a statement of ours has too many */
	p->values[p->n] = (const char *) value;
	p->lengths[p->n] = (int) len;
	p->formats[p->n] = 1;
	p->owned[p->n] = owned;
	p->n++;
}

void
ld_param_bytes(ld_params *p, const void *data, size_t len, int present)
{
	/* a value of no bytes is "", not NULL */
	add(p, present ? (data ? data : "") : NULL, present ? len : 0, NULL);
}

void
ld_param_text(ld_params *p, const char *s)
{
	ld_param_bytes(p, s, s ? strlen(s) : 0, s != NULL);
}

void
ld_param_i64(ld_params *p, int64_t v, int present)
{
	if (!present)
	{
		add(p, NULL, 0, NULL);
		return;
	}
	bc_put_be64(p->scratch[p->n], (uint64_t) v);
	add(p, p->scratch[p->n], 8, NULL);
}

void
ld_param_bool(ld_params *p, int v)
{
	p->scratch[p->n][0] = v ? 1 : 0;
	add(p, p->scratch[p->n], 1, NULL);
}

/* text[] of n items (array_send: dimensions, no NULLs, element type, then
 * for one dimension its length and lower bound 1, then each item with its
 * length) */
void
ld_param_text_array(ld_params *p, const char *const *items, int n)
{
	size_t		len = n > 0 ? 20 : 12,
				off;
	char	   *buf;
	int			i;

	for (i = 0; i < n; i++)
		len += 4 + strlen(items[i]);
	buf = ld_xmalloc(len);
	bc_put_be32((uint8_t *) buf, n > 0 ? 1 : 0);
	bc_put_be32((uint8_t *) buf + 4, 0);
	bc_put_be32((uint8_t *) buf + 8, TEXTOID);
	off = 12;
	if (n > 0)
	{
		bc_put_be32((uint8_t *) buf + 12, (uint32_t) n);
		bc_put_be32((uint8_t *) buf + 16, 1);
		off = 20;
	}
	for (i = 0; i < n; i++)
	{
		size_t		l = strlen(items[i]);

		bc_put_be32((uint8_t *) buf + off, (uint32_t) l);
		memcpy(buf + off + 4, items[i], l);
		off += 4 + l;
	}
	add(p, buf, len, buf);
}
