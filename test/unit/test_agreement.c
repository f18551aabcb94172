/*
 * test_agreement.c - the keys-versus-lookup agreement over one-byte
 * mutants of real SSTables: for every mutant, when the keys listing
 * (bc_index cursor with the partitioner's order, as cassandra_sstable_keys
 * reads Index.db; bc_trie_keys for Partitions.db) ends without error, no
 * key of it is answered "absent" by the lookup (bc_big_lookup through
 * Summary.db and Index.db; bc_trie_has_key), which answers "present" or
 * fails.  Mutants: every byte of the file XORed with each bit, set to 0x00
 * and to 0xff, of mc-2-big's Index.db and Summary.db and nb-1-big's
 * Summary.db (BIG: Murmur3, ByteOrdered), and of bb-1-bti's Partitions.db (trie,
 * compressed Data.db).  The hostile copies of sql/22_components.sql are
 * among them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_index.h"
#include "bc_lookup.h"
#include "bc_partitioner.h"
#include "bc_partitions.h"
#include "bc_status.h"
#include "bc_trie_keys.h"
#include "unit.h"
#include "unit_trie.h"

#define BIG_MC "sstables/sstable-adaptor/sstable-adaptor-core/src/test/resources/data/cass3/keyspace1/compressed_bills/mc-2-big"
#define BIG_NB "sstables/cassandra/legacy-sstables/nb/legacy_tables/legacy_nb_clust/nb-1-big"
#define TRIE_DIR "sstables/sstable-to-arrow/sample_data/baselines-data/keyvalue"

/* the mutants of one byte: each bit flipped, 0x00, 0xff (same ones skipped) */
#define MUTANTS 10

static int
mutant(uint8_t orig, int m, uint8_t *out)
{
	*out = m < 8 ? (uint8_t) (orig ^ (1u << m)) : m == 8 ? 0x00 : 0xff;
	return *out != orig;
}

typedef struct sweep
{
	long		mutants;
	long		listed;			/* listings that ended without error */
	long		lookups;
	long		absent;			/* listed keys answered "absent" */
	long		errors;			/* listed keys whose lookup failed */
} sweep;

static uint8_t *
read_rel(const char *prefix, const char *comp, size_t *len)
{
	char		rel[512];

	snprintf(rel, sizeof(rel), "%s-%s", prefix, comp);
	return unit_read_file(unit_path(rel), len);
}

/* the keys of Index.db as cassandra_sstable_keys lists them; -1 on error */
static long
big_keys(const char *version, bc_partitioner p, const uint8_t *idx, size_t il, uint8_t **keys, size_t *lens,
		 long cap)
{
	static bc_index_cursor c;
	static bc_key_order order;
	bc_index_entry e;
	long		n = 0;
	int			got;

	if (bc_index_init(&c, version, strlen(version)) != BC_OK)
		return -1;
	bc_key_order_init(&order, p, NULL);
	bc_index_set_order(&c, &order);
	if (bc_index_feed(&c, idx, il) != BC_OK)
		return -1;
	for (;;)
	{
		if (bc_index_next(&c, &e, &got) != BC_OK)
			goto fail;
		if (!got)
			break;
		if (n == cap)
			goto fail;
		keys[n] = malloc(e.key_len + 1);
		memcpy(keys[n], e.key, e.key_len);
		lens[n++] = e.key_len;
	}
	if (bc_index_finish(&c) == BC_OK)
		return n;
fail:
	while (n > 0)
		free(keys[--n]);
	return -1;
}

static void
big_one(const char *version, bc_partitioner p, const uint8_t *sum, size_t sl, const uint8_t *idx, size_t il,
		sweep *sw, uint8_t *scratch)
{
	uint8_t    *keys[64];
	size_t		lens[64];
	long		n = big_keys(version, p, idx, il, keys, lens, 64),
				i;

	sw->mutants++;
	if (n < 0)
		return;
	sw->listed++;
	for (i = 0; i < n; i++)
	{
		unit_mem	ms,
					mi;
		bc_reader	rs,
					ri;
		bc_lookup_stats stats;
		int			found = -1;
		bc_status	st;

		unit_mem_open(&ms, &rs, sum, sl);
		unit_mem_open(&mi, &ri, idx, il);
		st = bc_big_lookup(&rs, &ri, version, strlen(version), p, NULL,
						   keys[i], lens[i], scratch, &found, &stats);
		sw->lookups++;
		if (st != BC_OK)
			sw->errors++;
		else if (!found)
			sw->absent++;
		free(keys[i]);
	}
}

/* mutants of Index.db (which 0) or Summary.db (1) of a BIG SSTable */
static void
big_sweep(const char *prefix, const char *version, bc_partitioner p, int which, sweep *sw)
{
	size_t		sl,
				il,
				i;
	uint8_t    *sum = read_rel(prefix, "Summary.db", &sl),
			   *idx = read_rel(prefix, "Index.db", &il),
			   *scratch = malloc(BC_LOOKUP_SCRATCH);
	uint8_t    *f = which ? sum : idx;
	size_t		fl = which ? sl : il;
	int			m;

	memset(sw, 0, sizeof(*sw));
	if (sum == NULL || idx == NULL)
	{
		CHECK(0, "%s: Summary.db and Index.db", prefix);
		goto out;
	}
	for (i = 0; i < fl; i++)
	{
		uint8_t		orig = f[i];

		for (m = 0; m < MUTANTS; m++)
			if (mutant(orig, m, &f[i]))
				big_one(version, p, sum, sl, idx, il, sw, scratch);
		f[i] = orig;
	}
out:
	free(sum);
	free(idx);
	free(scratch);
}

/* one mutant of bb-1-bti's Partitions.db (in s->parts) */
static void
trie_one(unit_trie_sst *s, sweep *sw)
{
	unit_keylist kl;
	bc_trie_sstable ts;
	size_t		i;
	bc_status	st;

	sw->mutants++;
	/* the footer as the glue reads it (bc_partitions_range): both
	 * functions fail on one that does not parse */
	if (bc_partitions_parse(s->parts, s->plen, &s->foot, &s->first, &s->first_len,
							&s->last, &s->last_len) != BC_OK)
		return;
	st = unit_trie_read_keys(s, "bb", BC_PARTITIONER_MURMUR3, &kl);
	if (st == BC_OK)
	{
		sw->listed++;
		if (bc_trie_sstable_init(&ts, "bb", 2, BC_PARTITIONER_MURMUR3, &s->rp, &s->foot,
								 &s->rr, &s->dr) == BC_OK)
			for (i = 0; i < kl.n; i++)
			{
				int			present = -1;

				st = bc_trie_has_key(&ts, kl.k[i], kl.l[i], &present);
				sw->lookups++;
				if (st != BC_OK)
					sw->errors++;
				else if (!present)
					sw->absent++;
			}
	}
	unit_keylist_free(&kl);
}

static void
trie_sweep(sweep *sw)
{
	unit_trie_sst s;
	size_t		i;
	int			m;

	memset(sw, 0, sizeof(*sw));
	if (unit_trie_open(&s, TRIE_DIR, "bb-1-bti", "bb") != 0)
	{
		CHECK(0, "bb-1-bti opens");
		unit_trie_close(&s);
		return;
	}
	for (i = 0; i < s.plen; i++)
	{
		uint8_t		orig = s.parts[i];

		for (m = 0; m < MUTANTS; m++)
			if (mutant(orig, m, &s.parts[i]))
				trie_one(&s, sw);
		s.parts[i] = orig;
	}
	unit_trie_close(&s);
}

static void
report(const char *what, const sweep *sw)
{
	CHECK(sw->mutants > 0 && sw->listed > 0, "%s: mutants listed", what);
	CHECK(sw->absent == 0, "%s: %ld listed keys answered absent", what, sw->absent);
	printf("  %s: %ld mutants, %ld listed whole, %ld lookups of listed keys: %ld absent, %ld errors\n",
		   what, sw->mutants, sw->listed, sw->lookups, sw->absent, sw->errors);
}

void
suite_agreement(void)
{
	sweep		sw;

	big_sweep(BIG_MC, "mc", BC_PARTITIONER_MURMUR3, 0, &sw);
	report("mc-2-big Index.db", &sw);
	big_sweep(BIG_MC, "mc", BC_PARTITIONER_MURMUR3, 1, &sw);
	report("mc-2-big Summary.db", &sw);
	big_sweep(BIG_NB, "nb", BC_PARTITIONER_BYTE_ORDERED, 1, &sw);
	report("nb-1-big Summary.db", &sw);
	trie_sweep(&sw);
	report("bb-1-bti Partitions.db", &sw);
}
