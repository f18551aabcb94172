/*
 * progress.c - the progress line of bloomcass-load on a terminal (stderr):
 * SSTables and bytes done, rate and time left, redrawn at most 5 times a
 * second.
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

static void
draw(ld_progress *p, double now)
{
	char		done[32],
				total[32],
				rate[32],
				left[32];
	double		secs = now - p->start;
	double		bps = secs > 0 ? (double) p->done_bytes / secs : 0;

	if (bps > 0 && p->total_bytes > p->done_bytes)
	{
		long		l = (long) ((double) (p->total_bytes - p->done_bytes) / bps + 0.5);

		snprintf(left, sizeof(left), "%ld:%02ld left", l / 60, l % 60);
	}
	else if (p->done >= p->total)
		snprintf(left, sizeof(left), "done");
	else
		snprintf(left, sizeof(left), "-:-- left");
	fprintf(stderr, "\r%zu/%zu SSTables, %s/%s, %s/s, %s\033[K",
			p->done, p->total, ld_human_bytes(p->done_bytes, done, sizeof(done)),
			ld_human_bytes(p->total_bytes, total, sizeof(total)),
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
	p->start = ld_now();
	p->last_draw = 0;
	p->drawn = 0;
	if (enabled)
		draw(p, p->start);
}

void
ld_progress_step(ld_progress *p, int64_t bytes)
{
	double		now;

	p->done++;
	p->done_bytes += bytes;
	if (!p->enabled)
		return;
	now = ld_now();
	if (now - p->last_draw >= 0.2 || p->done == p->total)
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

void
ld_progress_end(ld_progress *p)
{
	if (p->enabled)
	{
		draw(p, ld_now());
		fputc('\n', stderr);
		p->drawn = 0;
	}
}
