/*
 * unit_sstables.c - helpers of the Index.db and Summary.db suites (see
 * unit_sstables.h).
 */
#include <stdlib.h>
#include <string.h>

#include "bc_index.h"
#include "unit_sstables.h"

int
unit_collect_entry(const bc_index_entry *e, void *arg)
{
	unit_entries *kl = arg;

	if (kl->n == kl->cap)
	{
		kl->cap = kl->cap ? kl->cap * 2 : 64;
		kl->e = realloc(kl->e, kl->cap * sizeof(*kl->e));
	}
	kl->e[kl->n++] = *e;
	return 0;
}

int
unit_truncation_sample(const char *version, size_t index_len,
					   char done[UNIT_TRUNC_DONE_SIZE])
{
	if (strstr(UNIT_TRUNC_VERSIONS, version) == NULL ||
		strstr(done, version) != NULL || index_len >= 200000)
		return 0;
	strcat(done, version);
	strcat(done, " ");
	return 1;
}

#define CUT_EDGE 1024
#define CUT_STRIDE 61

int
unit_cut_wanted(size_t cut, size_t len, int near_boundary)
{
	return cut < CUT_EDGE || cut + CUT_EDGE >= len || near_boundary ||
		cut % CUT_STRIDE == 0;
}
