/*
 * bc_tick.c - the hook of the core's long loops (bc_tick.h): none until a
 * caller sets one.
 */
#include <stddef.h>

#include "bc_tick.h"

void		(*bc_tick_hook) (void) = NULL;
