/*
 * test_lookup.c - exact key lookups in BIG SSTables (bc_lookup.c): every
 * key of every real SSTable of test/data/sstables with an Index.db is
 * found, keys next to them are not, through the Summary.db search where
 * the partitioner's order is known and through a scan of Index.db where it
 * is not (of an SSTable of more than SAMPLE_ABOVE keys, one in
 * SAMPLE_EVERY, as each such lookup reads the whole file); what a lookup reads stays within one sampling interval; the
 * partitioners' key order against Index.db's own order (their names and
 * crafted keys in test_partitioner.c).
 */
#include <stdlib.h>
#include <string.h>

#include "bc_index.h"
#include "bc_lookup.h"
#include "bc_reader.h"
#include "bc_status.h"
#include "bc_summary.h"
#include "unit.h"
#include "unit_sstables.h"

/* the entries' keys by length, then bytes: has_entry's binary search */
static int
cmp_key(const void *a, const void *b)
{
	const bc_index_entry *x = a,
			   *y = b;

	if (x->key_len != y->key_len)
		return x->key_len < y->key_len ? -1 : 1;
	return x->key_len == 0 ? 0 : memcmp(x->key, y->key, x->key_len);
}

/* whether key is one of the entries' (sorted: by_key, n of them) */
static int
has_entry(const bc_index_entry *by_key, size_t n, const uint8_t *key, size_t len)
{
	bc_index_entry probe;

	memset(&probe, 0, sizeof(probe));
	probe.key = key;
	probe.key_len = len;
	return n > 0 && bsearch(&probe, by_key, n, sizeof(*by_key), cmp_key) != NULL;
}

/*
 * Keys of an SSTable larger than this are looked up one in SAMPLE_EVERY
 * (and the last) in the passes that scan Index.db from its start, which
 * cost the whole file per lookup; every key in the pass that searches
 * Summary.db.
 */
#define SAMPLE_ABOVE 1024
#define SAMPLE_EVERY 16

typedef struct counts
{
	long		sstables;
	long		bounded;
	long		lookups;
	long		absent;
	long		rebuilt;		/* lookups through a cut Summary.db */
} counts;

/* whether lookups of this partitioner and version never search Summary.db */
static int
stats_unbounded(bc_partitioner p, const char *version)
{
	return p == BC_PARTITIONER_OTHER || p == BC_PARTITIONER_RANDOM ||
		strcmp(version, "ic") <= 0;
}

static void
check_sstable(const char *what, const char *version, const char *partitioner,
			  const uint8_t *index, size_t index_len,
			  const uint8_t *summary, size_t summary_len, counts *cnt)
{
	unit_entries kl = {0, 0, NULL};
	bc_index_entry *by_key = NULL;
	uint64_t	n;
	bc_status	st;
	bc_partitioner p = bc_partitioner_of(partitioner, strlen(partitioner));
	bc_summary	sum;
	uint64_t	interval = 0;
	uint8_t    *scratch = malloc(BC_LOOKUP_SCRATCH);
	uint8_t    *probe = malloc(BC_INDEX_MAX_KEY + 2);
	size_t		i;
	int			ordered_ok = 1;
	int			pass;

	st = bc_index_parse(version, 2, index, index_len, unit_collect_entry, &kl, &n);
	CHECK(st == BC_OK, "%s: Index.db: %s", what, bc_status_message(st));
	if (st != BC_OK)
		goto out;
	by_key = malloc(sizeof(*by_key) * (kl.n > 0 ? kl.n : 1));
	if (kl.n > 0)
		memcpy(by_key, kl.e, sizeof(*by_key) * kl.n);
	qsort(by_key, kl.n, sizeof(*by_key), cmp_key);
	if (summary != NULL &&
		bc_summary_parse(version, 2, summary, summary_len, &sum) == BC_OK)
		interval = (uint64_t) sum.min_index_interval * 128 / (uint64_t) sum.sampling_level;
	cnt->sstables++;

	/* Index.db is in the partitioner's order (when it has one here) */
	if (p != BC_PARTITIONER_OTHER && p != BC_PARTITIONER_RANDOM)
		for (i = 1; i < kl.n; i++)
			if (bc_decorated_cmp(p, NULL, kl.e[i - 1].key, kl.e[i - 1].key_len,
								 kl.e[i].key, kl.e[i].key_len) >= 0)
				ordered_ok = 0;
	CHECK(ordered_ok, "%s: Index.db not in %s order", what, partitioner);

	/*
	 * pass 0: as the SSTable says; pass 1: no order known (Index.db scan);
	 * pass 2: Summary.db cut in half, which Cassandra would rebuild from
	 * Index.db (SSTableReader.loadSummary): Index.db scanned, same answers
	 */
	for (pass = 0; pass < 3; pass++)
	{
		bc_partitioner pp = pass == 1 ? BC_PARTITIONER_OTHER : p;
		size_t		slen = pass == 2 ? summary_len / 2 : summary_len;
		int			all_found = 1,
					all_right = 1,
					within = 1,
					bounded = 1;
		long		rebuilt = 0;

		if (pass == 2 && (summary == NULL || stats_unbounded(pp, version)))
			break;

		for (i = 0; i < kl.n; i++)
		{
			unit_mem	mi,
						ms;
			bc_reader	ri,
						rs;
			bc_lookup_stats stats;
			int			found,
						k;
			size_t		len = kl.e[i].key_len;

			if (pass > 0 && kl.n > SAMPLE_ABOVE && i % SAMPLE_EVERY != 0 && i != kl.n - 1)
				continue;
			/* the key itself, then keys next to it */
			for (k = 0; k < 4; k++)
			{
				size_t		plen = len;

				memcpy(probe, kl.e[i].key, len);
				if (k == 1)
					probe[plen++] = 0;	/* one byte longer */
				else if (k == 2 && len > 0)
					plen--;		/* one byte shorter */
				else if (k == 3 && len > 0)
					probe[len - 1] ^= 0x01;	/* last byte changed */
				unit_mem_open(&mi, &ri, index, index_len);
				unit_mem_open(&ms, &rs, summary, slen);
				st = bc_big_lookup(summary ? &rs : NULL, &ri, version, 2, pp, NULL,
								   probe, plen, scratch, &found, &stats);
				if (st != BC_OK)
				{
					CHECK(0, "%s: lookup %zu/%d: %s", what, i, k, bc_status_message(st));
					goto out;
				}
				cnt->lookups++;
				if (k == 0 && !found)
					all_found = 0;
				if (found != has_entry(by_key, kl.n, probe, plen))
					all_right = 0;
				if (k > 0 && !found)
					cnt->absent++;
				if (pass == 2)
				{
					/* cut past the entries the search reads (before ma,
					 * the first and last keys follow them): searched */
					if (stats.bounded ? stats.summary_status != BC_OK :
						stats.summary_status != BC_ERR_SUMMARY_TRUNCATED &&
						stats.summary_status != BC_ERR_SUMMARY_FORMAT)
						bounded = 0;
					rebuilt += !stats.bounded;
				}
				else if (stats.bounded)
				{
					cnt->bounded++;
					/* one sampling interval, and the entry past it */
					if (stats.index_entries > interval + 1)
						within = 0;
				}
				else if (pp != BC_PARTITIONER_OTHER && summary != NULL &&
						 strcmp(version, "ia") > 0 && strcmp(version, "ic") > 0 &&
						 !(pp == BC_PARTITIONER_RANDOM))
					bounded = 0;
			}
		}
		CHECK(all_found, "%s (pass %d): a key of Index.db not found", what, pass);
		CHECK(all_right, "%s (pass %d): an answer differs from Index.db's keys", what, pass);
		CHECK(within, "%s (pass %d): a lookup read more than one interval (%llu)", what,
			  pass, (unsigned long long) interval);
		CHECK(bounded, "%s (pass %d): Summary.db %s", what, pass,
			  pass == 2 ? "cut: a status without the scan" : "not searched");
		if (pass == 2)
			cnt->rebuilt += rebuilt;
	}
out:
	free(kl.e);
	free(by_key);
	free(scratch);
	free(probe);
}

/* crafted: failures, a trie version, a key too long, an empty Index.db */
static void
check_crafted(void)
{
	static const uint8_t idx[] = {
		0, 1, 'a', 0, 0,		/* ma+: key "a", position 0, no promoted index */
		0, 1, 'b', 10, 0,
	};
	uint8_t    *scratch = malloc(BC_LOOKUP_SCRATCH);
	unit_mem	m;
	bc_reader	r;
	bc_lookup_stats stats;
	int			found;
	bc_status	st;

	unit_mem_open(&m, &r, idx, sizeof(idx));
	st = bc_big_lookup(NULL, &r, "nb", 2, BC_PARTITIONER_BYTE_ORDERED, NULL,
					   (const uint8_t *) "b", 1, scratch, &found, &stats);
	CHECK(st == BC_OK && found && stats.index_entries == 2 && !stats.bounded,
		  "crafted: b: %s found %d entries %llu", bc_status_message(st), found,
		  (unsigned long long) stats.index_entries);
	unit_mem_open(&m, &r, idx, sizeof(idx));
	st = bc_big_lookup(NULL, &r, "nb", 2, BC_PARTITIONER_BYTE_ORDERED, NULL,
					   (const uint8_t *) "ab", 2, scratch, &found, &stats);
	CHECK(st == BC_OK && !found && stats.index_entries == 2,
		  "crafted: ab stops at b: %s found %d entries %llu", bc_status_message(st),
		  found, (unsigned long long) stats.index_entries);
	unit_mem_open(&m, &r, idx, sizeof(idx));
	m.fail_at = 3;
	st = bc_big_lookup(NULL, &r, "nb", 2, BC_PARTITIONER_BYTE_ORDERED, NULL,
					   (const uint8_t *) "b", 1, scratch, &found, &stats);
	CHECK(st == BC_ERR_READ && !found, "crafted: a failed read: %s", bc_status_message(st));
	unit_mem_open(&m, &r, idx, sizeof(idx) - 1);
	st = bc_big_lookup(NULL, &r, "nb", 2, BC_PARTITIONER_OTHER, NULL,
					   (const uint8_t *) "c", 1, scratch, &found, &stats);
	CHECK(st == BC_ERR_INDEX_TRUNCATED, "crafted: cut entry: %s", bc_status_message(st));
	unit_mem_open(&m, &r, idx, sizeof(idx));
	st = bc_big_lookup(NULL, &r, "da", 2, BC_PARTITIONER_MURMUR3, NULL,
					   (const uint8_t *) "b", 1, scratch, &found, &stats);
	CHECK(st == BC_ERR_INDEX_BTI, "crafted: da: %s", bc_status_message(st));
	unit_mem_open(&m, &r, idx, 0);
	st = bc_big_lookup(NULL, &r, "nb", 2, BC_PARTITIONER_MURMUR3, NULL,
					   (const uint8_t *) "b", 1, scratch, &found, &stats);
	CHECK(st == BC_OK && !found && stats.index_entries == 0, "crafted: empty Index.db");

	/* lb: a negative BE32 promoted size is none (bc_index.c), as the walk
	 * reads it; ka refuses it */
	{
		static const uint8_t lb[] = {
			0, 1, 'a', 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xfe,
			0, 1, 'b', 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0,
		};

		unit_mem_open(&m, &r, lb, sizeof(lb));
		st = bc_big_lookup(NULL, &r, "lb", 2, BC_PARTITIONER_BYTE_ORDERED, NULL,
						   (const uint8_t *) "b", 1, scratch, &found, &stats);
		CHECK(st == BC_OK && found && stats.index_entries == 2,
			  "crafted: lb, negative promoted size: %s found %d", bc_status_message(st), found);
		unit_mem_open(&m, &r, lb, sizeof(lb));
		st = bc_big_lookup(NULL, &r, "ka", 2, BC_PARTITIONER_BYTE_ORDERED, NULL,
						   (const uint8_t *) "b", 1, scratch, &found, &stats);
		CHECK(st == BC_ERR_INDEX_LENGTH && !found,
			  "crafted: ka, negative promoted size: %s", bc_status_message(st));
	}

	free(scratch);
}

void
suite_lookup(void)
{
	unit_tsv	t;
	char	   *f[40];
	int			nf;
	counts		cnt = {0, 0, 0, 0, 0};

	check_crafted();
	if (unit_tsv_open(&t, "sstables/MANIFEST.tsv") != 0)
		return;
	unit_tsv_next(&t, f, 40);	/* header */
	while ((nf = unit_tsv_next(&t, f, 40)) >= 0)
	{
		char		rel[4096],
					what[4096];
		uint8_t    *index,
				   *summary;
		size_t		index_len,
					summary_len = 0;

		if (nf < 28 || strcmp(f[3], "big") != 0 || strlen(f[2]) != 2 || f[2][0] < 'i')
			continue;
		snprintf(what, sizeof(what), "%s/%s", f[0], f[1]);
		snprintf(rel, sizeof(rel), "sstables/%s/%s-Index.db", f[0], f[1]);
		index = unit_read_file(unit_path(rel), &index_len);
		if (index == NULL)
			continue;
		snprintf(rel, sizeof(rel), "sstables/%s/%s-Summary.db", f[0], f[1]);
		summary = unit_read_file(unit_path(rel), &summary_len);
		check_sstable(what, f[2], f[8], index, index_len, summary, summary_len, &cnt);
		free(index);
		free(summary);
	}
	unit_tsv_close(&t);
	/* every BIG SSTable bloomcass reads (test_index.c counts them too) */
	CHECK(cnt.sstables == 142, "%ld SSTables looked up in, not 142", cnt.sstables);
	CHECK(cnt.bounded > cnt.lookups / 4, "only %ld of %ld lookups searched Summary.db",
		  cnt.bounded, cnt.lookups);
	CHECK(cnt.rebuilt > 10000, "only %ld lookups through a cut Summary.db", cnt.rebuilt);
	printf("  lookup: %ld SSTables, %ld lookups (%ld absent, %ld through Summary.db, %ld from the start of Index.db as Summary.db was cut)\n",
		   cnt.sstables, cnt.lookups, cnt.absent, cnt.bounded, cnt.rebuilt);
}
