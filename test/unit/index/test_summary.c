/*
 * test_summary.c - the Summary.db reader (bc_summary.c) against the real
 * SSTables of test/data/sstables (MANIFEST.tsv): first and last keys from
 * the manifest, every sampled entry against the SSTable's Index.db; then
 * truncated and crafted, and with ScyllaDB's quirks: a size at full
 * sampling of 0 (as ScyllaDB writes it for small SSTables), bytes after the last key.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_index.h"
#include "bc_status.h"
#include "bc_summary.h"
#include "unit.h"
#include "unit_sstables.h"

/* BIG SSTables of versions bloomcass reads (142), less two ka that lack
 * Summary.db upstream */
#define EXPECT_SUMMARY_ROWS 140

static const unit_entries *
find_entry_by_offset(const unit_entries *kl, int64_t off, size_t *idx)
{
	size_t		lo = 0,
				hi = kl->n;

	while (lo < hi)
	{
		size_t		mid = (lo + hi) / 2;

		if ((int64_t) kl->e[mid].index_offset < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	*idx = lo;
	return lo < kl->n && (int64_t) kl->e[lo].index_offset == off ? kl : NULL;
}

static void
check_summary(const char *what, const char *version, const uint8_t *data,
			  size_t len, const unit_entries *kl, const char *first,
			  const char *last, long *nchecked, long *nfull)
{
	bc_summary s;
	bc_status	st = bc_summary_parse(version, 2, data, len, &s);
	int32_t		i;
	int			ok = 1;

	CHECK(st == BC_OK, "%s Summary.db: %s", what, bc_status_message(st));
	if (st != BC_OK)
		return;
	(*nchecked)++;
	CHECK(unit_hex_eq(s.first, s.first_len, first) &&
		  unit_hex_eq(s.last, s.last_len, last),
		  "%s Summary.db: first/last keys differ from the manifest", what);
	CHECK(s.era == BC_INDEX_ERA_30 ? s.tail_len == 0 : s.tail_len > 0,
		  "%s Summary.db: tail of %zu bytes", what, s.tail_len);
	if (s.sampling_level == 128)
	{
		/* full sampling: entry i is Index.db entry i * interval */
		size_t		want = (kl->n + (size_t) s.min_index_interval - 1) /
			(size_t) s.min_index_interval;

		(*nfull)++;
		CHECK((size_t) s.count == want,
			  "%s Summary.db: %d entries, interval %d, %zu keys", what,
			  s.count, s.min_index_interval, kl->n);
		for (i = 0; i < s.count && (size_t) i < want; i++)
		{
			const uint8_t *k;
			size_t		klen;
			int64_t		off;
			const bc_index_entry *e = &kl->e[(size_t) i * s.min_index_interval];

			bc_summary_entry(&s, i, &k, &klen, &off);
			if (klen != e->key_len || memcmp(k, e->key, klen) != 0 ||
				off != (int64_t) e->index_offset)
				ok = 0;
		}
	}
	else
	{
		/* downsampled: every entry still names a real Index.db entry */
		for (i = 0; i < s.count; i++)
		{
			const uint8_t *k;
			size_t		klen,
						idx;
			int64_t		off;

			bc_summary_entry(&s, i, &k, &klen, &off);
			if (find_entry_by_offset(kl, off, &idx) == NULL ||
				klen != kl->e[idx].key_len ||
				memcmp(k, kl->e[idx].key, klen) != 0)
				ok = 0;
		}
		CHECK(s.count <= s.size_at_full_sampling, "%s: downsampled count", what);
	}
	CHECK(ok, "%s Summary.db: sampled entries differ from Index.db", what);
}

/* The facts and every sampled entry of two parses are the same. */
static int
same_summary(const bc_summary *a, const bc_summary *b)
{
	int32_t		i;

	if (a->era != b->era || a->min_index_interval != b->min_index_interval ||
		a->count != b->count || a->sampling_level != b->sampling_level ||
		a->first_len != b->first_len || a->last_len != b->last_len ||
		memcmp(a->first, b->first, a->first_len) != 0 ||
		memcmp(a->last, b->last, a->last_len) != 0)
		return 0;
	for (i = 0; i < a->count; i++)
	{
		const uint8_t *ka,
				   *kb;
		size_t		la,
					lb;
		int64_t		oa,
					ob;

		if (bc_summary_entry(a, i, &ka, &la, &oa) != BC_OK ||
			bc_summary_entry(b, i, &kb, &lb, &ob) != BC_OK ||
			la != lb || oa != ob || memcmp(ka, kb, la) != 0)
			return 0;
	}
	return 1;
}

/*
 * ScyllaDB writes 0 for small SSTables as the entry count at full sampling (BE32 at 20, from
 * ka), which no reader checks: a real Summary.db with it zeroed gives the
 * same facts and entries, and a size of 0.  From 3.0 a byte after the last
 * key is ignored, as Cassandra's SSTableReader.loadSummary and ScyllaDB
 * ignore it.
 */
static void
check_scylladb_quirks(const char *what, const char *version,
					  const uint8_t *data, size_t len)
{
	bc_summary	orig,
				s;
	uint8_t    *copy;

	if (bc_summary_parse(version, 2, data, len, &orig) != BC_OK ||
		orig.era < BC_INDEX_ERA_21 || len < 24)
		return;
	copy = malloc(len + 1);
	memcpy(copy, data, len);
	memset(copy + 20, 0, 4);
	CHECK(bc_summary_parse(version, 2, copy, len, &s) == BC_OK &&
		  same_summary(&orig, &s) && s.size_at_full_sampling == 0 &&
		  s.tail_len == orig.tail_len,
		  "%s: size at full sampling 0", what);
	memcpy(copy, data, len);
	copy[len] = 0x5a;
	CHECK(bc_summary_parse(version, 2, copy, len + 1, &s) == BC_OK &&
		  same_summary(&orig, &s) && s.tail_len == orig.tail_len + 1 &&
		  s.size_at_full_sampling == orig.size_at_full_sampling,
		  "%s: a byte after the last key", what);
	free(copy);
}

/* Prefixes of a real Summary.db (as unit_cut_wanted chooses them) are
 * errors, but for cuts inside the pre-3.0 tail after the last key, which
 * nothing delimits. */
static void
check_summary_truncations(const char *what, const char *version,
						  const uint8_t *data, size_t len)
{
	bc_summary s;
	size_t		cut,
				bad = 0;

	if (bc_summary_parse(version, 2, data, len, &s) != BC_OK)
		return;
	for (cut = 0; cut < len; cut++)
	{
		uint8_t    *copy;
		bc_status	st;
		bc_summary	t;

		if (!unit_cut_wanted(cut, len, 0))
			continue;
		copy = malloc(cut + 1);
		memcpy(copy, data, cut);
		st = bc_summary_parse(version, 2, copy, cut, &t);
		if (cut >= len - s.tail_len ? st != BC_OK :
			(st != BC_ERR_SUMMARY_TRUNCATED && st != BC_ERR_SUMMARY_FORMAT))
			bad++;
		free(copy);
	}
	CHECK(bad == 0, "%s: %zu of %zu Summary.db truncations misread", what,
		  bad, len);
}

static void
check_crafted(void)
{
	bc_summary	s;

	CHECK(bc_summary_parse("da", 2, NULL, 0, &s) == BC_ERR_INDEX_BTI,
		  "da summary");
	CHECK(bc_summary_parse("ms", 2, NULL, 0, &s) == BC_ERR_INDEX_BTI,
		  "ms summary");

	/* Summary.db (ma): one entry "k" at 0, first "k", last "k" */
	{
		uint8_t		d[] = {0, 0, 0, 128, 0, 0, 0, 1,
			0, 0, 0, 0, 0, 0, 0, 13, 0, 0, 0, 128, 0, 0, 0, 1,
			4, 0, 0, 0, 'k', 0, 0, 0, 0, 0, 0, 0, 0,
			0, 0, 0, 1, 'k', 0, 0, 0, 1, 'k', 0};
		size_t		len = sizeof(d) - 1;

		CHECK(bc_summary_parse("ma", 2, d, len, &s) == BC_OK && s.count == 1,
			  "crafted summary");
		CHECK(bc_summary_parse("ma", 2, d, len + 1, &s) == BC_OK && s.tail_len == 1,
			  "summary trailing byte ignored");
		CHECK(bc_summary_parse("ka", 2, d, len + 1, &s) == BC_OK && s.tail_len == 1,
			  "ka summary tail");
		d[24] = 3;				/* first entry inside the offsets */
		CHECK(bc_summary_parse("ma", 2, d, len, &s) == BC_ERR_SUMMARY_FORMAT,
			  "summary offset");
		d[24] = 5;				/* a byte between offsets and entry: read
								 * from its offset, as the readers do */
		CHECK(bc_summary_parse("ma", 2, d, len, &s) == BC_OK && s.count == 1,
			  "summary gap");
		d[24] = 4;
		d[20] = 0xff;			/* any size at full sampling (here < 0) */
		CHECK(bc_summary_parse("ma", 2, d, len, &s) == BC_OK &&
			  s.size_at_full_sampling < 0, "summary size at full sampling");
		d[20] = 0;
		d[7] = 2;				/* two entries in a region for one */
		CHECK(bc_summary_parse("ma", 2, d, len, &s) == BC_ERR_SUMMARY_FORMAT,
			  "summary count");
		d[7] = 1;
		d[8] = 0x7f;			/* region of ~2^63 bytes */
		CHECK(bc_summary_parse("ma", 2, d, len, &s) == BC_ERR_SUMMARY_TRUNCATED,
			  "summary region size");
		d[8] = 0;
		d[4] = 0x80;			/* negative count */
		CHECK(bc_summary_parse("ma", 2, d, len, &s) == BC_ERR_SUMMARY_FORMAT,
			  "summary negative count");
		d[4] = 0;
		d[38] = 1;				/* first key of 65537 bytes */
		CHECK(bc_summary_parse("ma", 2, d, len, &s) == BC_ERR_SUMMARY_FORMAT,
			  "summary key length");
		d[38] = 0;
		d[19] = 0;				/* sampling level 0 */
		CHECK(bc_summary_parse("ma", 2, d, len, &s) == BC_ERR_SUMMARY_FORMAT,
			  "summary sampling level");
		d[19] = 128;
		CHECK(bc_summary_parse("ma", 2, d, len, &s) == BC_OK, "restored");
	}
}

void
suite_summary(void)
{
	unit_tsv	t;
	char	   *f[40];
	int			nf;
	long		nsummary = 0,
				nfull = 0,
				ntrunc = 0;
	char		truncated_done[UNIT_TRUNC_DONE_SIZE] = "";

	check_crafted();

	if (unit_tsv_open(&t, "sstables/MANIFEST.tsv") != 0)
		return;
	unit_tsv_next(&t, f, 40);	/* header */
	while ((nf = unit_tsv_next(&t, f, 40)) >= 0)
	{
		char		rel[4096],
					what[4096];
		const char *version = f[2];
		uint8_t    *data,
				   *sdata;
		size_t		len,
					slen;
		unit_entries kl = {0, 0, NULL};
		uint64_t	n;
		int			did_trunc;

		if (nf < 28)
		{
			unit_fail(__FILE__, __LINE__, "MANIFEST line %ld: %d fields",
					  t.lineno, nf);
			continue;
		}
		/* BTI and pre-1.2 SSTables have no Summary.db bloomcass reads */
		if (strcmp(f[3], "bti") == 0 || strlen(version) != 2 || version[0] < 'i')
			continue;
		snprintf(what, sizeof(what), "%s/%s", f[0], f[1]);

		/* the entries to compare with, from Index.db (suite index checks it) */
		snprintf(rel, sizeof(rel), "sstables/%s/%s-Index.db", f[0], f[1]);
		data = unit_read_file(unit_path(rel), &len);
		if (data == NULL)
			continue;
		bc_index_parse(version, 2, data, len, unit_collect_entry, &kl, &n);
		did_trunc = unit_truncation_sample(version, len, truncated_done);

		snprintf(rel, sizeof(rel), "sstables/%s/%s-Summary.db", f[0], f[1]);
		sdata = unit_read_file(unit_path(rel), &slen);
		if (sdata != NULL)
		{
			check_summary(what, version, sdata, slen, &kl, f[12], f[13],
						  &nsummary, &nfull);
			check_scylladb_quirks(what, version, sdata, slen);
			if (did_trunc)
			{
				check_summary_truncations(what, version, sdata, slen);
				ntrunc++;
			}
			free(sdata);
		}
		free(kl.e);
		free(data);
	}
	unit_tsv_close(&t);

	CHECK(nsummary == EXPECT_SUMMARY_ROWS, "Summary.db checked for %ld SSTables, expected %d",
		  nsummary, EXPECT_SUMMARY_ROWS);
	printf("  summary: %ld Summary.db (%ld at full sampling), %ld truncated\n",
		   nsummary, nfull, ntrunc);
}
