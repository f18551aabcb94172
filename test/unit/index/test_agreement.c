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
 * among them.  And the key lengths (the BE16 at each Index.db entry's
 * start) of every BIG SSTable of the reference data from ja to oa, with
 * the same mutants, the listing checking each entry against Summary.db's
 * samples as cassandra_sstable_keys does (bc_index_samples.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_index.h"
#include "bc_index_samples.h"
#include "bc_lookup.h"
#include "bc_partitioner.h"
#include "bc_partitions.h"
#include "bc_status.h"
#include "bc_summary.h"
#include "bc_trie_keys.h"
#include "unit.h"
#include "unit_sstables.h"
#include "unit_trie.h"

#define BIG_MC "sstables/sstable-adaptor/sstable-adaptor-core/src/test/resources/data/cass3/keyspace1/compressed_bills/mc-2-big"
#define BIG_NB "sstables/cassandra/legacy-sstables/nb/legacy_tables/legacy_nb_clust/nb-1-big"
#define BIG_OA13 "sstables/sstable-transformer/clickhouse/src/test/resources/sstables/oa-13-big"
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

/* the keys of a listing: at most LISTED_MAX, each with its entry's offset */
#define LISTED_MAX 16384
typedef struct listed
{
	long		n;
	uint8_t    *k[LISTED_MAX];
	size_t		l[LISTED_MAX];
	uint64_t	off[LISTED_MAX];
} listed;

static void
listed_free(listed *ls)
{
	while (ls->n > 0)
		free(ls->k[--ls->n]);
}

/*
 * The keys of Index.db as cassandra_sstable_keys lists them (the cursor
 * with the partitioner's order, each entry checked against Summary.db's
 * samples when samples); 0 when the listing ends without error.
 */
static int
big_keys(const char *version, bc_partitioner p, const uint8_t *sum, size_t sl,
		 const uint8_t *idx, size_t il, int samples, listed *ls)
{
	static bc_index_cursor c;
	static bc_key_order order;
	static bc_index_samples smp;
	static bc_index_sample slots[4096];
	static uint8_t window[2 * BC_INDEX_SAMPLES_WINDOW],
				scratch[BC_LOOKUP_SCRATCH];
	unit_mem	ms,
				mi;
	bc_reader	rs,
				ri;
	bc_index_entry e;
	size_t		ns = 0;
	int			got;

	ls->n = 0;
	unit_mem_open(&ms, &rs, sum, sl);
	unit_mem_open(&mi, &ri, idx, il);
	if (samples && (bc_index_samples_count(&rs, version, strlen(version), &ns) != BC_OK ||
					ns > 4096))
		return -1;
	if (bc_index_samples_init(&smp, &rs, &ri, version, strlen(version), slots, ns, window,
							  scratch) != BC_OK)
		return -1;
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
		if (bc_index_samples_check(&smp, &e) != BC_OK || ls->n == LISTED_MAX)
			goto fail;
		ls->k[ls->n] = malloc(e.key_len + 1);
		memcpy(ls->k[ls->n], e.key, e.key_len);
		ls->l[ls->n] = e.key_len;
		ls->off[ls->n++] = e.index_offset;
	}
	if (bc_index_finish(&c) == BC_OK)
		return 0;
fail:
	listed_free(ls);
	return -1;
}

/* the lookup of listed key i, counted */
static void
big_lookup(const char *version, bc_partitioner p, const uint8_t *sum, size_t sl,
		   const uint8_t *idx, size_t il, const listed *ls, long i, sweep *sw,
		   uint8_t *scratch)
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
					   ls->k[i], ls->l[i], scratch, &found, &stats);
	sw->lookups++;
	if (st != BC_OK)
		sw->errors++;
	else if (!found)
		sw->absent++;
}

/*
 * One mutant: when it lists without error, every listed key looked up; or,
 * past 64 keys, the first 8, 8 from the entry at focus (the byte changed)
 * on, and 16 spread over the rest.
 */
static void
big_one_at(const char *version, bc_partitioner p, const uint8_t *sum, size_t sl,
		   const uint8_t *idx, size_t il, int samples, uint64_t focus, sweep *sw,
		   uint8_t *scratch)
{
	static listed ls;
	long		i,
				from = 0;

	sw->mutants++;
	if (big_keys(version, p, sum, sl, idx, il, samples, &ls) != 0)
		return;
	sw->listed++;
	while (from < ls.n && ls.off[from] < focus)
		from++;
	for (i = 0; i < ls.n; i++)
		if (ls.n <= 64 || i < 8 || (i >= from && i < from + 8) || i % (ls.n / 16) == 0)
			big_lookup(version, p, sum, sl, idx, il, &ls, i, sw, scratch);
	listed_free(&ls);
}

static void
big_one(const char *version, bc_partitioner p, const uint8_t *sum, size_t sl, const uint8_t *idx, size_t il,
		sweep *sw, uint8_t *scratch)
{
	big_one_at(version, p, sum, sl, idx, il, 1, 0, sw, scratch);
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

/*
 * The key-length bytes of a BIG SSTable's Index.db (the BE16 at each
 * entry's start), each changed to the MUTANTS values: of every entry in a
 * file of at most 64, else of the first, 16 spread, and every entry whose
 * next one Summary.db samples (a longer key there swallows the sampled
 * entry).  Without the check of Summary.db's samples (samples 0) the
 * listing is the cursor's alone, as before it.
 */
static void
keylen_sweep(const char *prefix, const char *version, bc_partitioner p, int samples,
			 sweep *sw)
{
	size_t		sl,
				il,
				i,
				b;
	uint8_t    *sum = read_rel(prefix, "Summary.db", &sl),
			   *idx = read_rel(prefix, "Index.db", &il),
			   *scratch = malloc(BC_LOOKUP_SCRATCH);
	unit_entries es = {0, 0, NULL};
	uint64_t	n;
	bc_summary	s;
	int32_t		j;
	int			m;

	if (sum == NULL || idx == NULL ||
		bc_index_parse(version, strlen(version), idx, il, unit_collect_entry, &es, &n) != BC_OK)
	{
		CHECK(0, "%s: Summary.db and Index.db", prefix);
		goto out;
	}
	for (i = 0; i < es.n; i++)
	{
		int			wanted = es.n <= 64 || i == 0 || i % (es.n / 16) == 0;

		if (!wanted && bc_summary_parse(version, strlen(version), sum, sl, &s) == BC_OK)
			for (j = 0; j < s.count && !wanted; j++)
			{
				const uint8_t *k;
				size_t		kl;
				int64_t		off;

				wanted = bc_summary_entry(&s, j, &k, &kl, &off) == BC_OK &&
					i + 1 < es.n && (uint64_t) off == es.e[i + 1].index_offset;
			}
		if (!wanted)
			continue;
		for (b = 0; b < 2; b++)
		{
			uint8_t    *at = idx + es.e[i].index_offset + b,
						orig = *at;

			for (m = 0; m < MUTANTS; m++)
				if (mutant(orig, m, at))
					big_one_at(version, p, sum, sl, idx, il, samples, es.e[i].index_offset,
							   sw, scratch);
			*at = orig;
		}
	}
out:
	free(es.e);
	free(sum);
	free(idx);
	free(scratch);
}

/*
 * keylen_sweep over every BIG SSTable of the manifest of a version whose
 * Summary.db a lookup searches (ja and later), with Summary.db and an
 * Index.db under 200,000 bytes.
 */
static void
keylen_all(sweep *sw, long *sstables, char *versions, size_t vcap)
{
	unit_tsv	t;
	char	   *f[40];
	int			nf;

	memset(sw, 0, sizeof(*sw));
	*sstables = 0;
	versions[0] = '\0';
	if (unit_tsv_open(&t, "sstables/MANIFEST.tsv") != 0)
	{
		CHECK(0, "sstables/MANIFEST.tsv");
		return;
	}
	while ((nf = unit_tsv_next(&t, f, 40)) >= 0)
	{
		char		prefix[400];
		size_t		il;
		uint8_t    *idx;
		bc_index_era era;

		if (nf < 9 || strcmp(f[3], "big") != 0 || strstr(f[7], "Summary.db") == NULL ||
			strstr(f[7], "Index.db") == NULL ||
			bc_index_era_lookup(f[2], strlen(f[2]), &era) != BC_OK || era == BC_INDEX_ERA_12)
			continue;
		snprintf(prefix, sizeof(prefix), "sstables/%s/%s", f[0], f[1]);
		idx = read_rel(prefix, "Index.db", &il);
		free(idx);
		if (idx == NULL || il >= 200000)
			continue;
		keylen_sweep(prefix, f[2], bc_partitioner_of(f[8], strlen(f[8])), 1, sw);
		(*sstables)++;
		if (strstr(versions, f[2]) == NULL && strlen(versions) + 4 < vcap)
		{
			strcat(versions, " ");
			strcat(versions, f[2]);
		}
	}
	unit_tsv_close(&t);
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
	sweep		sw,
				sw0;

	memset(&sw0, 0, sizeof(sw0));
	big_sweep(BIG_MC, "mc", BC_PARTITIONER_MURMUR3, 0, &sw);
	report("mc-2-big Index.db", &sw);
	big_sweep(BIG_MC, "mc", BC_PARTITIONER_MURMUR3, 1, &sw);
	report("mc-2-big Summary.db", &sw);
	big_sweep(BIG_NB, "nb", BC_PARTITIONER_BYTE_ORDERED, 1, &sw);
	report("nb-1-big Summary.db", &sw);
	trie_sweep(&sw);
	report("bb-1-bti Partitions.db", &sw);

	/*
	 * Key lengths: a listed key is never answered absent.  oa-13-big's
	 * byte 0 changed to 0x80 makes its first key 32,772 bytes long, over
	 * the entries behind it up to a sampled one: listed without the check
	 * of Summary.db's samples, it is a key the lookup answers absent.
	 */
	{
		long		nsst;
		char		versions[128];

		keylen_all(&sw, &nsst, versions, sizeof(versions));
		CHECK(nsst >= 20 && strstr(versions, "jb") && strstr(versions, "oa") &&
			  strstr(versions, "md"), "key lengths: %ld SSTables of%s", nsst, versions);
		printf("  key lengths of %ld BIG SSTables (%s):\n", nsst, versions + 1);
		report("Index.db key lengths", &sw);
		keylen_sweep(BIG_OA13, "oa", BC_PARTITIONER_MURMUR3, 0, &sw0);
		CHECK(sw0.absent > 0, "oa-13-big key lengths, not checked against Summary.db: "
			  "%ld listed keys answered absent", sw0.absent);
		printf("  oa-13-big key lengths, not checked against Summary.db: %ld mutants, "
			   "%ld listed whole, %ld absent\n", sw0.mutants, sw0.listed, sw0.absent);
	}
}
