/*
 * bc_pending_delete.c - the SSTables a ScyllaDB pending_delete log deletes
 * (bc_pending_delete.h).
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

size_t
bc_pending_delete_scan(const char *text, size_t len,
					   void (*sstable) (void *arg, const char *descriptor,
										size_t descriptor_len),
					   void *arg)
{
	size_t		start,
				i,
				lines = 0,
				found = 0;

	for (start = 0; start < len; start = i + 1)
	{
		bc_sstable_name parsed;
		const char *line = text + start;
		size_t		n;

		BC_TICK(lines);
		lines++;
		for (i = start; i < len && text[i] != '\n'; i++)
			;
		n = i - start;
		/* a TOC.txt of the table's folder: no '/', nothing after TOC.txt */
		if (n > 0 && memchr(line, '/', n) == NULL && memchr(line, '\0', n) == NULL &&
			bc_sstable_name_parse(line, n, &parsed) == BC_OK &&
			parsed.component_len == 7 && memcmp(parsed.component, "TOC.txt", 7) == 0 &&
			parsed.component + 7 == line + n)
		{
			sstable(arg, line, parsed.descriptor_len);
			found++;
		}
	}
	return found;
}
