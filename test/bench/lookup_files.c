/*
 * lookup_files.c - the lookup benchmark's SSTables (lookup_gen.c) as it
 * reads them: through a bc_reader over pread(2) that counts its calls and
 * bytes, Index.db scanned whole as cassandra_sstable_keys scans it, and
 * both files checked against what they must hold:
 *
 *   Index.db    exactly the keys key-0 .. key-<N-1> (lookup_keys.h), each
 *               once, in Murmur3Partitioner's order (the core's
 *               bc_decorated_cmp, DecoratedKey.compareTo), each with its
 *               nominal Data.db position and no promoted index;
 *   Summary.db  min_index_interval 128, sampling level 128, ceil(N / 128)
 *               samples, sample j Index.db's entry 128 j (its key and its
 *               offset), first and last keys Index.db's.
 *
 * A file that passes is the SSTable of those keys that Cassandra's writers
 * would give, so the lookups' expected answers follow from N alone.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bc_partitioner.h"
#include "lookup_bench.h"

static int
counted_read(void *arg, uint64_t offset, uint8_t *buf, size_t len, size_t *got)
{
	counted_file *f = arg;
	size_t		have = 0;

	while (have < len)
	{
		ssize_t		k = pread(f->fd, buf + have, len - have, (off_t) (offset + have));

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return 1;
		if (k == 0)
			break;
		have += (size_t) k;
	}
	*got = have;
	f->reads++;
	f->bytes += have;
	return 0;
}

int
lb_open(counted_file *f, const char *dir, const char *component)
{
	char		path[4096];
	off_t		size;

	snprintf(path, sizeof(path), "%s/" LB_VERSION "-1-big-%s", dir, component);
	memset(f, 0, sizeof(*f));
	f->fd = open(path, O_RDONLY);
	if (f->fd < 0 || (size = lseek(f->fd, 0, SEEK_END)) < 0)
	{
		printf("FAIL: %s: %s\n", path, strerror(errno));
		return 0;
	}
	f->reader.read = counted_read;
	f->reader.arg = f;
	f->reader.size = (uint64_t) size;
	return 1;
}

void
lb_count_reset(counted_file *f)
{
	f->reads = 0;
	f->bytes = 0;
}

void
lb_close(counted_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

/* one entry of the checking pass, recorded */
static void
check_entry(const bc_index_entry *e, lb_index_record *rec)
{
	result	   *r = rec->r;
	uint64_t	num;

	if (!lk_key_number(e->key, e->key_len, &num) || num >= r->n)
	{
		lb_fail(r, "Index.db entry %" PRIu64 ": not one of key-0 .. key-%" PRIu64,
				e->ordinal, r->n - 1);
		return;
	}
	if (rec->seen[num / 8] & (1 << (num % 8)))
		lb_fail(r, "Index.db entry %" PRIu64 ": key-%" PRIu64 " a second time", e->ordinal, num);
	rec->seen[num / 8] |= (uint8_t) (1 << (num % 8));
	if (e->ordinal > 0 &&
		bc_decorated_cmp(BC_PARTITIONER_MURMUR3, NULL, rec->prev, rec->prev_len,
						 e->key, e->key_len) >= 0)
		lb_fail(r, "Index.db entry %" PRIu64 ": not after the previous one in Murmur3 order",
				e->ordinal);
	if (e->promoted_size != 0)
		lb_fail(r, "Index.db entry %" PRIu64 ": a promoted index", e->ordinal);
	if ((uint64_t) e->position != rec->position)
		lb_fail(r, "Index.db entry %" PRIu64 ": Data.db position %" PRId64 ", not %" PRIu64,
				e->ordinal, e->position, rec->position);
	rec->position += 2 + e->key_len + LK_PARTITION_EXTRA;
	memcpy(rec->prev, e->key, e->key_len);
	rec->prev_len = e->key_len;
	if (e->ordinal < r->n)
		rec->numbers[e->ordinal] = (uint32_t) num;
	if (e->ordinal % LB_INTERVAL == 0 && e->ordinal < r->n)
		rec->sample_offsets[e->ordinal / LB_INTERVAL] = e->index_offset;
}

bc_status
lb_scan_index(counted_file *f, uint8_t *piece, bc_index_cursor *cur, lb_index_record *rec,
			  uint64_t *nkeys)
{
	uint64_t	off = 0;
	bc_status	st;

	*nkeys = 0;
	st = bc_index_init(cur, LB_VERSION, 2);
	while (st == BC_OK && off < f->reader.size)
	{
		size_t		got;
		int			more;
		bc_index_entry e;

		if (f->reader.read(f->reader.arg, off, piece, LB_SCAN_PIECE, &got) != 0 || got == 0)
			return BC_ERR_READ;
		off += got;
		st = bc_index_feed(cur, piece, got);
		while (st == BC_OK && (st = bc_index_next(cur, &e, &more)) == BC_OK && more)
		{
			(*nkeys)++;
			if (rec != NULL)
				check_entry(&e, rec);
		}
	}
	if (st == BC_OK)
		st = bc_index_finish(cur);
	return st;
}

int
lb_check_summary(counted_file *sf, const lb_index_record *rec, bc_summary *s, uint8_t **data)
{
	result	   *r = rec->r;
	size_t		got;
	int32_t		want = (int32_t) ((r->n + LB_INTERVAL - 1) / LB_INTERVAL);
	int32_t		j;
	char		key[LK_KEY_MAX];
	size_t		key_len;
	bc_status	st;

	*data = malloc(sf->reader.size + 1);
	if (*data == NULL ||
		sf->reader.read(sf->reader.arg, 0, *data, sf->reader.size, &got) != 0 ||
		got != sf->reader.size)
	{
		lb_fail(r, "Summary.db: cannot be read");
		return 0;
	}
	st = bc_summary_parse(LB_VERSION, 2, *data, got, s);
	if (st != BC_OK)
	{
		lb_fail(r, "Summary.db: %s", bc_status_message(st));
		return 0;
	}
	if (s->min_index_interval != LB_INTERVAL || s->sampling_level != 128 ||
		s->count != want || s->size_at_full_sampling != want)
	{
		lb_fail(r, "Summary.db: interval %" PRId32 ", level %" PRId32 ", %" PRId32
				" samples (%" PRId32 " at full sampling), not 128, 128, %" PRId32,
				s->min_index_interval, s->sampling_level, s->count,
				s->size_at_full_sampling, want);
		return 0;
	}
	key_len = lk_key(rec->numbers[0], key);
	if (s->first_len != key_len || memcmp(s->first, key, key_len) != 0)
		lb_fail(r, "Summary.db: its first key is not Index.db's");
	key_len = lk_key(rec->numbers[r->n - 1], key);
	if (s->last_len != key_len || memcmp(s->last, key, key_len) != 0)
		lb_fail(r, "Summary.db: its last key is not Index.db's");
	for (j = 0; j < s->count; j++)
	{
		const uint8_t *sk;
		size_t		sk_len;
		int64_t		at;

		key_len = lk_key(rec->numbers[(uint64_t) j * LB_INTERVAL], key);
		if (bc_summary_entry(s, j, &sk, &sk_len, &at) != BC_OK ||
			sk_len != key_len || memcmp(sk, key, key_len) != 0 ||
			at < 0 || (uint64_t) at != rec->sample_offsets[j])
		{
			lb_fail(r, "Summary.db: sample %" PRId32 " is not Index.db entry %" PRId32
					" (its key and offset)", j, j * LB_INTERVAL);
			return 0;
		}
	}
	return r->failures == 0;
}
