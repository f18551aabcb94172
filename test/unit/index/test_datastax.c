/*
 * test_datastax.c - DataStax's trie-indexed versions on the 18 real
 * SSTables of test/data/sstables-datastax (README.md there: provenance and
 * the facts known of them without bloomcass).  For each: Statistics.db's
 * partitioner, fp_chance, partition count and key type; every key through
 * the trie (count, first and last, order), every key found and the
 * absent ones not (unit_trie_check_lookups); and the filter rebuilt from
 * the keys with the fp_chance, FilterFactory's sizing (bc_sizing) and the
 * version's layout and hash order (bc_codec.c: TrieIndexVersion.
 * hasOldBfFormat, BloomFilter.setIndexes) byte for byte Filter.db.  The
 * three five-key aa filters are one word where that sizing gives two
 * (written by DSE 6.0, whose writer is not public): for them the rebuild
 * into the file's own word count is checked, and the sized one is checked
 * to differ, so that a change of either is seen.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_codec.h"
#include "bc_filter.h"
#include "bc_sizing.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "bc_trie_keys.h"
#include "unit.h"
#include "unit_trie.h"

static const struct
{
	const char *dir;			/* below sstables-datastax/ */
	const char *desc;
	int			partitions;
	const char *key_type;
	int			sized_as_factory;	/* Filter.db has FilterFactory's size */
}			ds[] = {
	{"aa/legacy_tables/legacy_aa_clust", "aa-1-bti", 5, "org.apache.cassandra.db.marshal.UTF8Type", 0},
	{"aa/legacy_tables/legacy_aa_clust_compact", "aa-1-bti", 5, "org.apache.cassandra.db.marshal.UTF8Type", 0},
	{"aa/legacy_tables/legacy_aa_inaccurate_min_max", "aa-1-bti", 1, "org.apache.cassandra.db.marshal.Int32Type", 1},
	{"aa/legacy_tables/legacy_aa_simple", "aa-1-bti", 5, "org.apache.cassandra.db.marshal.UTF8Type", 0},
	{"ac/legacy_tables/legacy_ac_clust", "ac-1-bti", 5, "org.apache.cassandra.db.marshal.UTF8Type", 1},
	{"ac/legacy_tables/legacy_ac_simple", "ac-1-bti", 5, "org.apache.cassandra.db.marshal.UTF8Type", 1},
	{"ad/legacy_tables/legacy_ad_clust", "ad-1-bti", 5, "org.apache.cassandra.db.marshal.UTF8Type", 1},
	{"ad/legacy_tables/legacy_ad_simple", "ad-1-bti", 5, "org.apache.cassandra.db.marshal.UTF8Type", 1},
	{"ba/legacy_tables/legacy_ba_clust", "ba-1-bti", 5, "org.apache.cassandra.db.marshal.UTF8Type", 1},
	{"ba/legacy_tables/legacy_ba_simple", "ba-1-bti", 5, "org.apache.cassandra.db.marshal.UTF8Type", 1},
	{"bb/legacy_tables/legacy_bb_clust", "bb-1-bti", 5, "org.apache.cassandra.db.marshal.UTF8Type", 1},
	{"bb/legacy_tables/legacy_bb_simple", "bb-1-bti", 5, "org.apache.cassandra.db.marshal.UTF8Type", 1},
	{"ca/legacy_tables/legacy_ca_clust", "ca-1-bti", 5, "org.apache.cassandra.db.marshal.UTF8Type", 1},
	{"ca/legacy_tables/legacy_ca_simple", "ca-1-bti", 5, "org.apache.cassandra.db.marshal.UTF8Type", 1},
	{"cb/legacy_tables/legacy_cb_clust", "cb-3g3i_16ov_3sj4g2pdpcdz177rbj-bti", 5, "org.apache.cassandra.db.marshal.UTF8Type", 1},
	{"cb/legacy_tables/legacy_cb_simple", "cb-3g3i_16ov_4qlz52pdpcdz177rbj-bti", 5, "org.apache.cassandra.db.marshal.UTF8Type", 1},
	{"cc/legacy_tables/legacy_cc_clust", "cc-3gdv_0vos_4v40g2l3kqtv0q1se8-bti", 5, "org.apache.cassandra.db.marshal.UTF8Type", 1},
	{"cc/legacy_tables/legacy_cc_simple", "cc-3gdv_0vos_48lts2l3kqtv0q1se8-bti", 5, "org.apache.cassandra.db.marshal.UTF8Type", 1},
};

static const char BOP[] = "org.apache.cassandra.dht.ByteOrderedPartitioner";

/* the keys into a filter of k hashes and w words, written in the
 * version's layout; 1 when equal to Filter.db */
static int
rebuild_equal(const unit_keylist *kl, const char *version, int32_t k, int64_t w,
			  const uint8_t *filt, size_t flen)
{
	bc_order	order;
	bc_layout	layout;
	bc_filter	f;
	uint8_t    *bits,
			   *out;
	size_t		i;
	int			same;

	if (bc_version_lookup(version, 2, &order, &layout) != BC_OK)
		return 0;
	bits = calloc((size_t) w, 8);
	out = malloc(8 + (size_t) w * 8);
	bc_filter_init(&f, k, w, order, bits);
	for (i = 0; i < kl->n; i++)
		bc_filter_add(&f, kl->k[i], kl->l[i]);
	bc_filterdb_write(&f, layout, out);
	same = flen == 8 + (size_t) w * 8 && memcmp(out, filt, flen) == 0;
	free(bits);
	free(out);
	return same;
}

static void
check_one(size_t n)
{
	char		dir[512],
				what[600],
				rel[700];
	const char *version = ds[n].desc;
	unit_trie_sst s;
	unit_keylist kl;
	bc_statistics st;
	uint8_t    *stats;
	size_t		slen,
				i;
	bc_partitioner p = BC_PARTITIONER_BYTE_ORDERED;
	bc_sizing	sz;
	bc_status	rc;

	snprintf(dir, sizeof(dir), "sstables-datastax/%s", ds[n].dir);
	snprintf(what, sizeof(what), "%s/%s", ds[n].dir, ds[n].desc);

	/* Statistics.db */
	snprintf(rel, sizeof(rel), "%s/%s-Statistics.db", dir, ds[n].desc);
	stats = unit_read_file(unit_path(rel), &slen);
	CHECK(stats != NULL, "%s: cannot read Statistics.db", what);
	if (stats == NULL)
		return;
	rc = bc_statistics_parse(stats, slen, version, 2, &st);
	CHECK(rc == BC_OK, "%s: Statistics.db: %s", what, bc_status_message(rc));
	if (rc == BC_OK)
	{
		CHECK(st.partitioner_len == strlen(BOP) &&
			  memcmp(st.partitioner, BOP, st.partitioner_len) == 0, "%s: partitioner", what);
		CHECK(st.has_fp_chance && st.fp_chance == 0.01, "%s: fp_chance", what);
		CHECK(st.partitions == ds[n].partitions, "%s: %lld partitions", what,
			  (long long) st.partitions);
		CHECK(st.key_type != NULL && st.key_type_len == strlen(ds[n].key_type) &&
			  memcmp(st.key_type, ds[n].key_type, st.key_type_len) == 0, "%s: key type", what);
		CHECK(st.checksummed, "%s: CRC32s", what);
	}
	free(stats);

	/* the keys */
	CHECK(unit_trie_open(&s, dir, ds[n].desc, version) == 0, "%s: cannot open", what);
	if (s.parts == NULL || s.data == NULL || s.filt == NULL)
	{
		unit_trie_close(&s);
		return;
	}
	rc = unit_trie_read_keys(&s, version, p, &kl);
	CHECK(rc == BC_OK && (int) kl.n == ds[n].partitions, "%s: keys: %s, %zu", what,
		  bc_status_message(rc), kl.n);
	if (ds[n].partitions == 5 && kl.n == 5)
		for (i = 0; i < 5; i++)
			CHECK(kl.l[i] == 1 && kl.k[i][0] == '0' + i, "%s: key %zu", what, i);
	if (ds[n].partitions == 1 && kl.n == 1)
		CHECK(unit_hex_eq(kl.k[0], kl.l[0], "00000064"), "%s: the key 100", what);
	if (kl.n > 0)
		unit_trie_check_lookups(&s, version, p, &kl, what);

	/* the filter rebuilt from the keys */
	CHECK(bc_sizing_compute((int64_t) kl.n, 0.01, &sz) == BC_OK, "%s: sizing", what);
	if (ds[n].sized_as_factory)
		CHECK(rebuild_equal(&kl, version, sz.hash_count, sz.word_count, s.filt, s.flen),
			  "%s: rebuilt filter differs from Filter.db", what);
	else
	{
		CHECK(!rebuild_equal(&kl, version, sz.hash_count, sz.word_count, s.filt, s.flen) &&
			  sz.word_count == 2, "%s: FilterFactory's filter is Filter.db", what);
		CHECK(rebuild_equal(&kl, version, sz.hash_count, 1, s.filt, s.flen),
			  "%s: the keys in one word differ from Filter.db", what);
	}
	unit_keylist_free(&kl);
	unit_trie_close(&s);
}

void
suite_datastax(void)
{
	size_t		i;

	for (i = 0; i < sizeof(ds) / sizeof(ds[0]); i++)
		check_one(i);
}
