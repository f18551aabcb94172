/*
 * bloomcass.c - the module's start: its magic block, _PG_init and the
 * settings (GUCs) it defines.
 *
 * The SQL-callable functions live in the other glue files of src/;
 * doc/sql-to-c.md tells which file implements each.
 */
#include "postgres.h"

#include <limits.h>

#include "fmgr.h"
#include "utils/guc.h"

#include "bc_tick.h"
#include "bloomcass.h"

PG_MODULE_MAGIC;

/*
 * bloomcass.probe_cache_size, in kB: memory per bloom_contains call site for
 * stored filters read whole (bloom_probe.c).
 */
int			bloom_probe_cache_kb = 256 * 1024;

void		_PG_init(void);

/* The extension's settings, all under the reserved prefix "bloomcass". */
void
_PG_init(void)
{
	/* the core's long loops check for interrupts (bc_tick.h) */
	bc_tick_hook = bloom_check_interrupts;

	DefineCustomIntVariable("bloomcass.probe_cache_size",
							"Memory per bloom_contains call site for stored filters read whole.",
							"Filters probed often enough are detoasted once and kept, up to this much per call site and query.",
							&bloom_probe_cache_kb,
							256 * 1024, 0, MAX_KILOBYTES,
							PGC_USERSET, GUC_UNIT_KB,
							NULL, NULL, NULL);
	MarkGUCPrefixReserved("bloomcass");
}
