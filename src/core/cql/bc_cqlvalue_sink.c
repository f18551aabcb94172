/*
 * bc_cqlvalue_sink.c - the output of the CQL value functions: a buffer
 * that counts what does not fit, and the escaping layers text passes
 * through on its way out.
 *
 * A layer sees the characters of one component (composite), one field
 * (tuple, UDT) or one JSON string, and hands on their escaped form to the
 * layer outside it; the outermost writes to the buffer.  So a ':' in a
 * text field of a tuple inside a composite key comes out as \\: exactly as
 * Cassandra's nested getString calls write it.  When a composite or tuple
 * layer ends, the '!' rule of AbstractCompositeType.escape applies: a '!'
 * follows text whose last character is '\' or '!'.  A composite component
 * that is exactly "_" also gets one ("_!"): Cassandra's fromString reads
 * a bare "_" as the end-of-component marker, and unescapes "_!" to "_".
 */
#include <stdarg.h>
#include <stdio.h>

#include "bc_cqlvalue.h"

void
bc_cqlsink_init(bc_cqlsink *s, void *buf, size_t cap)
{
	s->p = buf;
	s->cap = buf != NULL ? cap : 0;
	s->len = 0;
	s->nlayers = 0;
}

static void
raw(bc_cqlsink *s, uint8_t c)
{
	if (s->len < s->cap)
		s->p[s->len] = c;
	s->len++;
}

/* c enters layer level - 1 (level 0: the buffer).  Recursive, one call a
 * layer: at most BC_CQLSINK_MAX_LAYERS deep (bc_cqlsink_push), which
 * BC_CQL_MAX_DEPTH bounds (bc_cqltype.h) */
static void
emit(bc_cqlsink *s, int level, uint8_t c)
{
	static const char hexd[] = "0123456789abcdef";
	int			kind;

	if (level == 0)
	{
		raw(s, c);
		return;
	}
	kind = s->layer[level - 1].kind;
	if (s->layer[level - 1].count++ == 0)
		s->layer[level - 1].first = c;
	s->layer[level - 1].last = c;
	switch (kind)
	{
		case BC_CQLESC_COMPOSITE:
			if (c == ':')
				emit(s, level - 1, '\\');
			break;
		case BC_CQLESC_TUPLE:
			if (c == ':' || c == '@')
				emit(s, level - 1, '\\');
			break;
		case BC_CQLESC_JSON:
			if (c == '"' || c == '\\')
				emit(s, level - 1, '\\');
			else if (c < 0x20)
			{
				emit(s, level - 1, '\\');
				emit(s, level - 1, 'u');
				emit(s, level - 1, '0');
				emit(s, level - 1, '0');
				emit(s, level - 1, (uint8_t) hexd[c >> 4]);
				c = (uint8_t) hexd[c & 15];
			}
			break;
	}
	emit(s, level - 1, c);
}

void
bc_cqlsink_putc(bc_cqlsink *s, char c)
{
	emit(s, s->nlayers, (uint8_t) c);
}

void
bc_cqlsink_put(bc_cqlsink *s, const char *p, size_t n)
{
	size_t		i;

	if (s->nlayers == 0)
	{
		for (i = 0; i < n; i++)
			raw(s, (uint8_t) p[i]);
		return;
	}
	for (i = 0; i < n; i++)
		emit(s, s->nlayers, (uint8_t) p[i]);
}

void
bc_cqlsink_puts(bc_cqlsink *s, const char *str)
{
	while (*str)
		emit(s, s->nlayers, (uint8_t) *str++);
}

void
bc_cqlsink_push(bc_cqlsink *s, int kind)
{
	/* the callers nest at most BC_CQL_MAX_DEPTH values, two layers each */
	if (s->nlayers >= BC_CQLSINK_MAX_LAYERS)
		return;
	s->layer[s->nlayers].kind = kind;
	s->layer[s->nlayers].count = 0;
	s->layer[s->nlayers].first = 0;
	s->layer[s->nlayers].last = 0;
	s->nlayers++;
}

void
bc_cqlsink_pop(bc_cqlsink *s)
{
	int			kind;
	size_t		count;
	uint8_t		first,
				last;

	if (s->nlayers == 0)
		return;
	s->nlayers--;
	kind = s->layer[s->nlayers].kind;
	count = s->layer[s->nlayers].count;
	first = s->layer[s->nlayers].first;
	last = s->layer[s->nlayers].last;
	if (kind == BC_CQLESC_JSON || count == 0)
		return;
	if (last == '\\' || last == '!' ||
		(kind == BC_CQLESC_COMPOSITE && count == 1 && first == '_'))
		emit(s, s->nlayers, '!');
}

bc_status
bc_cqlerr_set(bc_cqlerr *err, bc_status st, const char *fmt,...)
{
	va_list		ap;

	if (err != NULL)
	{
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return st;
}
