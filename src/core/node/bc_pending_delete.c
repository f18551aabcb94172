/*
 * bc_pending_delete.c - the SSTables a ScyllaDB pending_delete log deletes
 * (bc_pending_delete.h), read a piece at a time.
 */
#include <string.h>

#include "bc_pending_delete.h"
#include "bc_sstable_name.h"
#include "bc_status.h"
#include "bc_tick.h"

int
bc_pending_delete_log_name(const char *name, size_t len)
{
	/* a name of more than ".log" (a leading dot alone is no extension) */
	return len > 4 && memcmp(name + len - 4, ".log", 4) == 0;
}

/* one whole line (without its '\n') */
static void
take_line(bc_pending_delete_scanner *sc, const char *line, size_t n,
		  bc_pending_delete_fn sstable, void *arg)
{
	bc_sstable_name parsed;

	BC_TICK(sc->lines);
	sc->lines++;
	/* a TOC.txt of the table's folder: no '/', nothing after TOC.txt */
	if (n > 0 && memchr(line, '/', n) == NULL && memchr(line, '\0', n) == NULL &&
		bc_sstable_name_parse(line, n, &parsed) == BC_OK &&
		parsed.component_len == 7 && memcmp(parsed.component, "TOC.txt", 7) == 0 &&
		parsed.component + 7 == line + n)
	{
		sstable(arg, line, parsed.descriptor_len);
		sc->found++;
	}
}

/* the line's bytes so far, and n more: kept while they fit */
static void
keep(bc_pending_delete_scanner *sc, const char *s, size_t n)
{
	if (sc->overlong || n > sizeof(sc->line) - sc->len)
	{
		sc->overlong = 1;
		return;
	}
	memcpy(sc->line + sc->len, s, n);
	sc->len += n;
}

void
bc_pending_delete_feed(bc_pending_delete_scanner *sc, const char *text, size_t len,
					   bc_pending_delete_fn sstable, void *arg)
{
	size_t		start = 0;

	while (start < len)
	{
		const char *nl = memchr(text + start, '\n', len - start);
		size_t		n = nl ? (size_t) (nl - (text + start)) : len - start;

		if (nl == NULL)
		{
			keep(sc, text + start, n);
			return;
		}
		if (sc->len == 0 && !sc->overlong)
		{
			/* the whole line is in this piece */
			if (n <= sizeof(sc->line))
				take_line(sc, text + start, n, sstable, arg);
			else
				sc->lines++;
		}
		else
		{
			keep(sc, text + start, n);
			if (!sc->overlong)
				take_line(sc, sc->line, sc->len, sstable, arg);
			else
				sc->lines++;
		}
		sc->len = 0;
		sc->overlong = 0;
		start += n + 1;
	}
}

void
bc_pending_delete_finish(bc_pending_delete_scanner *sc, bc_pending_delete_fn sstable, void *arg)
{
	if (sc->len > 0 && !sc->overlong)
		take_line(sc, sc->line, sc->len, sstable, arg);
	sc->len = 0;
	sc->overlong = 0;
}

size_t
bc_pending_delete_scan(const char *text, size_t len, bc_pending_delete_fn sstable, void *arg)
{
	bc_pending_delete_scanner sc;

	memset(&sc, 0, sizeof(sc));
	bc_pending_delete_feed(&sc, text, len, sstable, arg);
	bc_pending_delete_finish(&sc, sstable, arg);
	return sc.found;
}
