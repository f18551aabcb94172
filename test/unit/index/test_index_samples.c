/*
 * test_index_samples.c - Summary.db's samples as checkpoints of a whole
 * read of Index.db (bc_index_samples.c), on oa-13-big (10,000 partitions,
 * 79 samples) and copies of it damaged as test/make-hostile.sh damages
 * them: Index.db's byte 0 changed from 0x00 to 0x80 (the first key 32,772
 * bytes long, over the sampled entries behind it), and Summary.db's second
 * sample pointing a byte inside an entry.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_endian.h"
#include "bc_index.h"
#include "bc_index_samples.h"
#include "bc_lookup.h"
#include "bc_partitioner.h"
#include "bc_status.h"
#include "unit.h"

#define OA13 "sstables/sstable-transformer/clickhouse/src/test/resources/sstables/oa-13-big"

typedef struct listing
{
	bc_status	st;				/* of the listing */
	uint64_t	keys;			/* listed */
	size_t		samples;		/* slots */
	uint64_t	compared;		/* samples read against Index.db */
	size_t		first_len;		/* the first key's length */
	uint8_t		first[65536];	/* and its bytes */
} listing;

/*
 * Index.db listed as cassandra_sstable_keys lists it, in pieces of 4096
 * bytes, each entry checked against Summary.db's samples (sum NULL: none);
 * the index reader's read number fail_at fails (0: none).
 */
static void
list(const uint8_t *sum, size_t sl, const uint8_t *idx, size_t il, long fail_at, listing *out)
{
	static bc_index_cursor c;
	static bc_index_samples s;
	static uint8_t window[2 * BC_INDEX_SAMPLES_WINDOW],
				scratch[BC_LOOKUP_SCRATCH];
	bc_index_sample *slots;
	unit_mem	ms,
				mi;
	bc_reader	rs,
				ri;
	bc_index_entry e;
	size_t		off = 0;
	int			got;

	memset(out, 0, offsetof(listing, first));
	unit_mem_open(&ms, &rs, sum, sl);
	unit_mem_open(&mi, &ri, idx, il);
	mi.fail_at = fail_at;
	out->st = bc_index_samples_count(sum ? &rs : NULL, "oa", 2, &out->samples);
	if (out->st != BC_OK)
		return;
	slots = malloc((out->samples + 1) * sizeof(*slots));
	out->st = bc_index_samples_init(&s, &rs, &ri, "oa", 2, slots, out->samples, window, scratch);
	if (out->st == BC_OK)
		out->st = bc_index_init(&c, "oa", 2);
	while (out->st == BC_OK && off < il)
	{
		size_t		n = il - off < 4096 ? il - off : 4096;

		out->st = bc_index_feed(&c, idx + off, n);
		off += n;
		while (out->st == BC_OK)
		{
			out->st = bc_index_next(&c, &e, &got);
			if (out->st != BC_OK || !got)
				break;
			out->st = bc_index_samples_check(&s, &e);
			if (out->st != BC_OK)
				break;
			if (out->keys++ == 0)
			{
				memcpy(out->first, e.key, e.key_len);
				out->first_len = e.key_len;
			}
		}
	}
	if (out->st == BC_OK)
		out->st = bc_index_finish(&c);
	out->compared = s.compared;
	free(slots);
}

static void
put_le64(uint8_t *p, uint64_t v)
{
	int			i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t) (v >> (8 * i));
}

static bc_status
lookup(const uint8_t *sum, size_t sl, const uint8_t *idx, size_t il, const uint8_t *key,
	   size_t key_len, int *found, bc_lookup_stats *stats)
{
	static uint8_t scratch[BC_LOOKUP_SCRATCH];
	unit_mem	ms,
				mi;
	bc_reader	rs,
				ri;

	unit_mem_open(&ms, &rs, sum, sl);
	unit_mem_open(&mi, &ri, idx, il);
	return bc_big_lookup(&rs, &ri, "oa", 2, BC_PARTITIONER_MURMUR3, NULL, key, key_len,
						 scratch, found, stats);
}

void
suite_index_samples(void)
{
	static listing l;
	size_t		sl,
				il;
	uint8_t    *sum = unit_read_file(unit_path(OA13 "-Summary.db"), &sl),
			   *idx = unit_read_file(unit_path(OA13 "-Index.db"), &il);
	uint8_t		orig;
	uint64_t	pos1;
	bc_lookup_stats stats;
	int			found;

	if (sum == NULL || idx == NULL)
	{
		CHECK(0, "oa-13-big's Summary.db and Index.db");
		goto out;
	}

	/* as it is: every entry starts where the listing reads it */
	list(sum, sl, idx, il, 0, &l);
	CHECK(l.st == BC_OK && l.keys == 10000 && l.samples == 79 && l.compared == 0,
		  "oa-13-big: %s, %llu keys, %zu samples, %llu compared", bc_status_message(l.st),
		  (unsigned long long) l.keys, l.samples, (unsigned long long) l.compared);

	/*
	 * Byte 0 from 0x00 to 0x80: the first entry runs over the second
	 * sample's entry, whose key is there.  Without the check the listing
	 * gives 6,608 keys, the first of 32,772 bytes, which the lookup
	 * answers absent.
	 */
	orig = idx[0];
	idx[0] = 0x80;
	list(NULL, 0, idx, il, 0, &l);
	CHECK(l.st == BC_OK && l.keys == 6608 && l.first_len == 32772,
		  "byte 0 0x80, no Summary.db: %s, %llu keys, the first of %zu bytes",
		  bc_status_message(l.st), (unsigned long long) l.keys, l.first_len);
	CHECK(lookup(sum, sl, idx, il, l.first, l.first_len, &found, &stats) == BC_OK && !found,
		  "byte 0 0x80: the 32,772-byte key answered absent");
	list(sum, sl, idx, il, 0, &l);
	CHECK(l.st == BC_ERR_INDEX_SAMPLE && l.keys == 0 && l.compared == 1,
		  "byte 0 0x80: %s after %llu keys, %llu compared", bc_status_message(l.st),
		  (unsigned long long) l.keys, (unsigned long long) l.compared);
	/* the read of the sampled entry in Index.db fails */
	list(sum, sl, idx, il, 1, &l);
	CHECK(l.st == BC_ERR_READ, "byte 0 0x80, Index.db unreadable: %s",
		  bc_status_message(l.st));
	idx[0] = orig;

	/*
	 * Summary.db's second sample a byte inside its entry (its LE64
	 * position, just before the third sample's offset): not where its key
	 * is, so passed over; the listing is whole, and a lookup of that key
	 * reads Index.db from its start.
	 */
	{
		size_t		end = 24 + bc_get_le32(sum + 24 + 8);	/* the third sample's start */

		pos1 = bc_get_le64(sum + end - 8);
		put_le64(sum + end - 8, pos1 + 1);
		list(sum, sl, idx, il, 0, &l);
		CHECK(l.st == BC_OK && l.keys == 10000 && l.compared == 1,
			  "second sample + 1: %s, %llu keys, %llu compared", bc_status_message(l.st),
			  (unsigned long long) l.keys, (unsigned long long) l.compared);
		CHECK(lookup(sum, sl, idx, il, idx + pos1 + 2,
					 ((size_t) idx[pos1] << 8) | idx[pos1 + 1], &found, &stats) == BC_OK &&
			  found && stats.summary_status == BC_ERR_SUMMARY_INDEX,
			  "second sample + 1: its key found, Index.db read from its start");
		put_le64(sum + end - 8, pos1);
	}

	/* Summary.db whose header a lookup does not use: nothing to check */
	orig = sum[7];
	sum[7] = 0xff;				/* 255 samples: a region too short for them */
	list(sum, sl, idx, il, 0, &l);
	CHECK(l.st == BC_OK && l.samples == 0 && l.keys == 10000,
		  "impossible count: %s, %zu samples", bc_status_message(l.st), l.samples);
	sum[7] = orig;
	{
		size_t		n = 1;
		unit_mem	ms;
		bc_reader	rs;

		unit_mem_open(&ms, &rs, sum, sl);
		CHECK(bc_index_samples_count(&rs, "ic", 2, &n) == BC_OK && n == 0,
			  "1.2's summary: no samples (%zu)", n);
		ms.fail_at = 1;
		CHECK(bc_index_samples_count(&rs, "oa", 2, &n) == BC_ERR_READ,
			  "Summary.db unreadable");
	}
out:
	free(sum);
	free(idx);
}
