/*
 * bc_tick.h - a hook the core's long loops call, so that the server can
 * stop them: PostgreSQL's glue sets bc_tick_hook to a function that runs
 * CHECK_FOR_INTERRUPTS (statement_timeout, pg_cancel_backend), which may
 * not return (an ERROR), so a loop calls it only where the core holds
 * nothing the caller's memory does not take back.  NULL (the client, the
 * unit tests): nothing is called.
 *
 * Loops over file content mostly need none: each read goes through the
 * caller's reader, which checks itself.  BC_TICK is for loops that run
 * over what is already in memory, or over names a caller has listed:
 * BC_TICK(i) calls the hook once every 1,024 values of the counter i.
 */
#ifndef BC_TICK_H
#define BC_TICK_H

extern void (*bc_tick_hook) (void);

#define BC_TICK(i) \
	do { \
		if (((i) & 1023) == 0 && bc_tick_hook != NULL) \
			bc_tick_hook(); \
	} while (0)

#endif							/* BC_TICK_H */
