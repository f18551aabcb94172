/*
 * test_status.c - every status has a sentence of its own (bc_status.c).
 */
#include <string.h>

#include "bc_status.h"
#include "unit.h"

void
suite_status(void)
{
	int			i,
				j;

	for (i = 0; i < BC_STATUS_COUNT; i++)
	{
		const char *m = bc_status_message((bc_status) i);

		CHECK(m != NULL && strlen(m) > 5, "message %d", i);
		for (j = 0; j < i; j++)
			CHECK(strcmp(m, bc_status_message((bc_status) j)) != 0, "messages %d and %d differ", i, j);
	}
}
