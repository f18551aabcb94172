/*
 * messages.c - what every part of bloomcass-load uses, below them all:
 * the messages to stderr (errors, warnings, notes; held while an SSTable
 * is read ahead, and --quiet's silence), memory that exits when it runs
 * out, and the flag the signals set to stop the load (main.c installs the
 * handlers).  It uses only progress.c, to clear the progress line first.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"

volatile sig_atomic_t ld_stop_requested = 0;
ld_progress *ld_current_progress = NULL;

/* messages held while an SSTable is read ahead (ld_messages_hold) */
static int hold;
static char *held;
static size_t held_len;

/* a message to stderr, or held */
static void
say(const char *prefix, const char *fmt, va_list ap)
{
	va_list		aq;
	int			n;

	if (!hold)
	{
		ld_progress_clear(ld_current_progress);
		fputs(prefix, stderr);
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
		return;
	}
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	held = ld_xrealloc(held, held_len + strlen(prefix) + (size_t) n + 3);
	held_len += (size_t) sprintf(held + held_len, "%s", prefix);
	held_len += (size_t) vsnprintf(held + held_len, (size_t) n + 1, fmt, ap);
	held[held_len++] = '\n';
	held[held_len] = '\0';
}

void
ld_error(const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	say("bloomcass-load: ", fmt, ap);
	va_end(ap);
}

/* --quiet: warnings are not printed */
static int quiet;

void
ld_set_quiet(int on)
{
	quiet = on;
}

void
ld_warning(const char *fmt,...)
{
	va_list		ap;

	if (quiet)
		return;
	va_start(ap, fmt);
	say("bloomcass-load: warning: ", fmt, ap);
	va_end(ap);
}

void
ld_info(const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
}

void
ld_messages_hold(void)
{
	hold = 1;
}

char *
ld_messages_take(void)
{
	char	   *h = held;

	hold = 0;
	held = NULL;
	held_len = 0;
	return h;
}

void
ld_messages_print(const char *h)
{
	ld_progress_clear(ld_current_progress);
	fputs(h, stderr);
}

/* memory, or the exit status of a usage error when there is none */
void *
ld_xrealloc(void *p, size_t n)
{
	void	   *q = realloc(p, n ? n : 1);

	if (q == NULL)
	{
		fprintf(stderr, "bloomcass-load: out of memory\n");
		exit(EXIT_USAGE);
	}
	return q;
}

void *
ld_xmalloc(size_t n)
{
	return ld_xrealloc(NULL, n);
}
