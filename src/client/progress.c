/*
 * progress.c - the progress line of bloomcass-load on a terminal (stderr):
 * SSTables done, bytes sent and their rate, time left, redrawn at most 5
 * times a second, its last line drawn once; and the words of the messages
 * (ld_plural).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <time.h>

#include "load.h"

double
ld_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

char *
ld_human_bytes(int64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = {"B", "kB", "MB", "GB", "TB"};
	double		v = (double) bytes;
	int			u = 0;

	while (v >= 1024 && u < 4)
	{
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%lld B", (long long) bytes);
	else
		snprintf(buf, len, "%.1f %s", v, units[u]);
	return buf;
}

const char *
ld_plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/*
 * SSTables done of the total, the bytes sent (those of the SSTables loaded:
 * an unchanged one sends nothing) and their rate, then the time left, from
 * the bytes of the SSTables done (sent or found unchanged) against all of
 * theirs, or "done" on the last line: what the summary then says.
 */
static void
draw(ld_progress *p, double now)
{
	char		sent[32],
				rate[32],
				left[32];
	double		secs = now - p->start;
	double		bps = secs > 0 ? (double) p->sent_bytes / secs : 0;

	if (p->final)
		snprintf(left, sizeof(left), "done");
	else if (p->done_bytes > 0 && p->total_bytes > p->done_bytes)
	{
		long		l = (long) (secs * (double) (p->total_bytes - p->done_bytes) /
								(double) p->done_bytes + 0.5);

		snprintf(left, sizeof(left), "%ld:%02ld left", l / 60, l % 60);
	}
	else
		snprintf(left, sizeof(left), "-:-- left");
	fprintf(stderr, "\r%zu/%zu %s, %s sent, %s/s, %s\033[K",
			p->done, p->total, ld_plural(p->total, "SSTable", "SSTables"),
			ld_human_bytes(p->sent_bytes, sent, sizeof(sent)),
			ld_human_bytes((int64_t) bps, rate, sizeof(rate)), left);
	fflush(stderr);
	p->drawn = 1;
	p->last_draw = now;
}

void
ld_progress_start(ld_progress *p, int enabled, size_t total, int64_t total_bytes)
{
	p->enabled = enabled;
	p->total = total;
	p->total_bytes = total_bytes;
	p->done = 0;
	p->done_bytes = 0;
	p->sent_bytes = 0;
	p->start = ld_now();
	p->last_draw = 0;
	p->drawn = 0;
	p->final = 0;
	if (enabled)
		draw(p, p->start);
}

void
ld_progress_step(ld_progress *p, int64_t bytes, int64_t sent)
{
	double		now;

	p->done++;
	p->done_bytes += bytes;
	p->sent_bytes += sent;
	/* SSTables written since the first walk counted them */
	if (p->done > p->total)
		p->total = p->done;
	if (!p->enabled)
		return;
	now = ld_now();
	if (now - p->last_draw >= 0.2)
		draw(p, now);
}

void
ld_progress_clear(ld_progress *p)
{
	if (p != NULL && p->enabled && p->drawn)
	{
		fprintf(stderr, "\r\033[K");
		p->drawn = 0;
	}
}

/* the last line, once: the SSTables the load went through (fewer than the
 * first walk counted when some went away meanwhile) */
void
ld_progress_end(ld_progress *p)
{
	p->total = p->done;
	p->final = 1;
	if (p->enabled)
	{
		draw(p, ld_now());
		fputc('\n', stderr);
		p->drawn = 0;
	}
}
