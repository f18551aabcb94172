/*
 * test_scylladb.c - ScyllaDB's ms and mt SSTables of scylladb/MANIFEST.tsv:
 * the facts recorded there against the core always; the files themselves
 * (Partitions.db through partitions_model.c, Index.db, Filter.db,
 * Statistics.db) when they have been put in scylladb/sstables/<dir>/ (not
 * in the tree, see scylladb/README.md).
 */
#include <stdlib.h>
#include <string.h>

#include "bc_codec.h"
#include "bc_endian.h"
#include "bc_filter.h"
#include "bc_index.h"
#include "bc_partitions.h"
#include "bc_sizing.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "partitions_model.h"
#include "unit.h"

/* Index.db keys, copied */
typedef struct keylist_lite
{
	size_t		n;
	size_t		cap;
	uint8_t   **k;
	size_t	   *l;
} keylist_lite;

static int
collect_lite(const bc_index_entry *e, void *arg)
{
	keylist_lite *kl = arg;

	if (kl->n == kl->cap)
	{
		kl->cap = kl->cap ? kl->cap * 2 : 64;
		kl->k = realloc(kl->k, kl->cap * sizeof(*kl->k));
		kl->l = realloc(kl->l, kl->cap * sizeof(*kl->l));
	}
	kl->k[kl->n] = malloc(e->key_len + 1);
	memcpy(kl->k[kl->n], e->key, e->key_len);
	kl->l[kl->n++] = e->key_len;
	return 0;
}

#define EXPECT_SCYLLADB_ROWS 17

static void
check_scylladb_files(char **f, const char *what, int *present)
{
	char		rel[4096];
	const char *v = f[1];
	uint8_t    *filt,
			   *idx,
			   *parts,
			   *stats,
			   *bits = NULL,
			   *out = NULL;
	size_t		flen,
				ilen,
				plen,
				slen,
				i;
	keylist_lite kl = {0, 0, NULL, NULL};
	bc_partitions_footer pf;
	bc_statistics s;
	bc_sizing sz;
	bc_filter bf;
	const uint8_t *a,
			   *z;
	size_t		al,
				zl,
				missing = 0;
	int32_t		k = 0;
	int64_t		w = 0,
				want;
	char		ver[3];
	bc_order	order = BC_ORDER_OLD;
	bc_layout	layout = BC_LAYOUT_RAW;
	uint64_t	n = 0;

	snprintf(rel, sizeof(rel), "scylladb/sstables/%s/%s-%s-big-Filter.db", f[0], v, f[2]);
	filt = unit_read_file(unit_path(rel), &flen);
	if (filt == NULL)
		return;
	(*present)++;
	snprintf(rel, sizeof(rel), "scylladb/sstables/%s/%s", f[0], f[9]);
	idx = unit_read_file(unit_path(rel), &ilen);
	snprintf(rel, sizeof(rel), "scylladb/sstables/%s/%s-%s-big-Partitions.db", f[0], v, f[2]);
	parts = unit_read_file(unit_path(rel), &plen);
	snprintf(rel, sizeof(rel), "scylladb/sstables/%s/%s-%s-big-Statistics.db", f[0], v, f[2]);
	stats = unit_read_file(unit_path(rel), &slen);
	CHECK(idx != NULL && parts != NULL && stats != NULL, "%s: components missing", what);
	if (idx == NULL || parts == NULL || stats == NULL)
		goto done;

	/* the keys: the me SSTable the ms/mt one was upgraded from */
	CHECK(bc_index_parse("me", 2, idx, ilen, collect_lite, &kl, &n) == BC_OK,
		  "%s: %s", what, f[9]);
	CHECK(unit_parse_i64(f[3], &want) == 0 && (int64_t) kl.n == want, "%s: %zu keys", what, kl.n);
	CHECK(kl.n > 0 && unit_hex_eq(kl.k[0], kl.l[0], f[7]) &&
		  unit_hex_eq(kl.k[kl.n - 1], kl.l[kl.n - 1], f[8]), "%s: Index.db first/last", what);

	/* Partitions.db footer, Statistics.db under the me layout */
	CHECK(check_file(parts, plen, what) == BC_OK &&
		  bc_partitions_parse(parts, plen, &pf, &a, &al, &z, &zl) == BC_OK &&
		  (int64_t) pf.key_count == want && unit_hex_eq(a, al, f[7]) &&
		  unit_hex_eq(z, zl, f[8]), "%s: Partitions.db footer", what);
	CHECK(bc_statistics_parse(stats, slen, v, 2, &s) == BC_OK && s.partitions == want &&
		  s.has_fp_chance && s.fp_chance == strtod(f[4], NULL), "%s: Statistics.db", what);

	/* every key present under the rules of the file name's version */
	snprintf(rel, sizeof(rel), "%s-%s-big-Filter.db", v, f[2]);
	CHECK(bc_file_name_lookup(rel, strlen(rel), ver, &order, &layout) == BC_OK &&
		  bc_filterdb_check(filt, flen, BC_MAX_WORDS_VALUE, &k, &w) == BC_OK,
		  "%s: Filter.db", what);
	if (w <= 0)
		goto done;
	CHECK(k == atoi(f[5]) && w == atoll(f[6]), "%s: Filter.db header", what);
	bits = malloc((size_t) w * 8);
	bc_payload_convert(bits, filt + 8, w, layout, BC_LAYOUT_RAW);
	bc_filter_init(&bf, k, w, order, bits);
	for (i = 0; i < kl.n; i++)
		if (!bc_filter_test(&bf, kl.k[i], kl.l[i]))
			missing++;
	CHECK(missing == 0, "%s: %zu keys missing", what, missing);
	/* ... and read as raw, keys go missing */
	bc_payload_convert(bits, filt + 8, w, BC_LAYOUT_RAW, BC_LAYOUT_RAW);
	for (i = 0, missing = 0; i < kl.n; i++)
		if (!bc_filter_test(&bf, kl.k[i], kl.l[i]))
			missing++;
	CHECK(missing > 0, "%s: the raw layout keeps every key", what);

	/* a rebuild sized from Statistics.db is the file, byte for byte */
	CHECK(bc_sizing_compute(s.partitions, s.fp_chance, &sz) == BC_OK &&
		  sz.hash_count == k && sz.word_count == w, "%s: sizing", what);
	memset(bits, 0, (size_t) w * 8);
	for (i = 0; i < kl.n; i++)
		bc_filter_add(&bf, kl.k[i], kl.l[i]);
	out = malloc(flen);
	bc_filterdb_write(&bf, layout, out);
	CHECK(memcmp(out, filt, flen) == 0, "%s: rebuild differs", what);

done:
	for (i = 0; i < kl.n; i++)
		free(kl.k[i]);
	free(kl.k);
	free(kl.l);
	free(bits);
	free(out);
	free(filt);
	free(idx);
	free(parts);
	free(stats);
}

void
suite_scylladb(void)
{
	unit_tsv	t;
	char	   *f[16];
	int			nf,
				nrows = 0,
				present = 0;

	if (unit_tsv_open(&t, "scylladb/MANIFEST.tsv") != 0)
		return;
	unit_tsv_next(&t, f, 16);	/* header */
	while ((nf = unit_tsv_next(&t, f, 16)) >= 0)
	{
		char		what[4096],
					name[64];
		bc_order	o;
		bc_layout	l;
		bc_index_era era;
		bc_sizing	sz;
		int64_t		n;
		char		ver[3];

		if (nf < 11)
		{
			unit_fail(__FILE__, __LINE__, "scylladb MANIFEST line %ld: %d fields",
					  t.lineno, nf);
			continue;
		}
		nrows++;
		snprintf(what, sizeof(what), "scylladb %s/%s-%s", f[0], f[1], f[2]);
		CHECK(strlen(f[1]) == 2 &&
			  bc_version_lookup(f[1], 2, &o, &l) == BC_OK &&
			  o == BC_ORDER_NEW && l == BC_LAYOUT_SWAPPED, "%s: version", what);
		CHECK(bc_index_era_lookup(f[1], 2, &era) == BC_ERR_INDEX_BTI,
			  "%s: no Index.db", what);
		snprintf(name, sizeof(name), "%.2s-%s-big-Filter.db", f[1], f[2]);
		CHECK(bc_file_name_lookup(name, strlen(name), ver, &o, &l) == BC_OK &&
			  strcmp(ver, f[1]) == 0, "%s: file name", what);
		/* ScyllaDB sized these filters as Cassandra does */
		CHECK(unit_parse_i64(f[3], &n) == 0 &&
			  bc_sizing_compute(n, strtod(f[4], NULL), &sz) == BC_OK &&
			  sz.hash_count == atoi(f[5]) && sz.word_count == atoll(f[6]),
			  "%s: sizing", what);
		check_scylladb_files(f, what, &present);
	}
	unit_tsv_close(&t);
	CHECK(nrows == EXPECT_SCYLLADB_ROWS, "%d ScyllaDB rows, expected %d", nrows,
		  EXPECT_SCYLLADB_ROWS);
	printf("  scylladb: %d of %d SSTables' files present in scylladb/sstables\n",
		   present, nrows);
}
