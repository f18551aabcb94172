/*
 * test_filter_files.c - whole filters through the codec (bc_codec.c) and
 * the filter (bc_filter.c): every filter of filters_manifest.tsv rebuilt
 * from its keys byte for byte in its layout and hash order, every probe of
 * filters_probes.tsv (suite filters); and every real Cassandra Filter.db of
 * real-filters/MANIFEST.tsv (suite real_filters) parsed, queried with all
 * its keys and re-serialized byte-identical.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_codec.h"
#include "bc_endian.h"
#include "bc_filter.h"
#include "bc_sizing.h"
#include "bc_status.h"
#include "unit.h"

/* ------------------------------------------------------------------------
 * Whole filters: the golden vectors' and real Cassandra's Filter.db files
 * ------------------------------------------------------------------------ */

/* Keys file: one hex key per line; returns count, fills arrays (malloc'd). */
typedef struct keyset
{
	int			n;
	uint8_t   **key;
	size_t	   *len;
} keyset;

static int
load_keys(const char *path, keyset *ks)
{
	size_t		flen,
				i,
				start = 0;
	uint8_t    *data = unit_read_file(path, &flen);
	int			cap = 0;

	memset(ks, 0, sizeof(*ks));
	if (data == NULL)
		return -1;
	for (i = 0; i <= flen; i++)
	{
		if (i == flen || data[i] == '\n')
		{
			size_t		end = i;

			if (end > start && data[end - 1] == '\r')
				end--;
			if (end > start)
			{
				if (ks->n == cap)
				{
					cap = cap ? cap * 2 : 64;
					ks->key = realloc(ks->key, sizeof(uint8_t *) * (size_t) cap);
					ks->len = realloc(ks->len, sizeof(size_t) * (size_t) cap);
				}
				ks->key[ks->n] = unit_hex_decode((const char *) data + start, end - start,
												 &ks->len[ks->n]);
				if (ks->key[ks->n] == NULL)
				{
					free(data);
					return -1;
				}
				ks->n++;
			}
			start = i + 1;
		}
	}
	free(data);
	return ks->n;
}

static void
free_keys(keyset *ks)
{
	int			i;

	for (i = 0; i < ks->n; i++)
		free(ks->key[i]);
	free(ks->key);
	free(ks->len);
}

/* Parse a Filter.db image into f (bits malloc'd, raw layout). */
static bc_status
load_filter(const uint8_t *data, size_t len, bc_layout layout, bc_order order, bc_filter *f)
{
	int32_t		k;
	int64_t		w;
	bc_status	st = bc_filterdb_check(data, len, BC_MAX_WORDS_CASSANDRA, &k, &w);

	if (st != BC_OK)
		return st;
	bc_filter_init(f, k, w, order, malloc((size_t) w * 8));
	bc_payload_convert(f->bits, data + BC_FILTERDB_HEADER, w, layout, BC_LAYOUT_RAW);
	return BC_OK;
}

static int
all_present(const bc_filter *f, const keyset *ks)
{
	int			i;

	for (i = 0; i < ks->n; i++)
		if (!bc_filter_test(f, ks->key[i], ks->len[i]))
			return 0;
	return 1;
}

void
suite_filters(void)
{
	unit_tsv	t;
	char	   *f[16];
	int			nf,
				files = 0,
				probes = 0;

	if (unit_tsv_open(&t, "vectors/filters_manifest.tsv") != 0)
		return;
	while ((nf = unit_tsv_next(&t, f, 16)) >= 0)
	{
		char		rel[512];
		int64_t		n,
					k,
					w;
		double		fp;
		bc_sizing	s;
		bc_layout	layout;
		bc_order	order;
		bc_filter	built,
					parsed;
		keyset		ks;
		uint8_t    *file,
				   *out;
		size_t		flen;
		int			i;

		if (nf < 13 || unit_parse_i64(f[3], &n) || unit_parse_i64(f[5], &k) ||
			unit_parse_i64(f[7], &w))
		{
			CHECK(0, "filters_manifest.tsv:%ld: unparsable", t.lineno);
			continue;
		}
		fp = strtod(f[4], NULL);
		layout = strncmp(f[1], "new", 3) == 0 ? BC_LAYOUT_RAW : BC_LAYOUT_SWAPPED;
		order = strcmp(f[2], "old") == 0 ? BC_ORDER_OLD : BC_ORDER_NEW;
		CHECK((strncmp(f[1], "new", 3) == 0 || strncmp(f[1], "old", 3) == 0) &&
			  (strcmp(f[2], "old") == 0 || strcmp(f[2], "new") == 0),
			  "filters_manifest.tsv:%ld: format/order words", t.lineno);

		CHECK(bc_sizing_compute(n, fp, &s) == BC_OK && s.hash_count == k && s.word_count == w,
			  "%s: sizing (%d, %lld)", f[0], s.hash_count, (long long) s.word_count);

		snprintf(rel, sizeof(rel), "vectors/%s", f[11]);
		if (load_keys(unit_path(rel), &ks) < 0 || ks.n != n)
		{
			CHECK(0, "%s: keys file %s (%d keys, expected %lld)", f[0], f[11], ks.n, (long long) n);
			free_keys(&ks);
			continue;
		}
		snprintf(rel, sizeof(rel), "vectors/%s", f[0]);
		file = unit_read_file(unit_path(rel), &flen);
		if (file == NULL)
		{
			CHECK(0, "%s: cannot read", f[0]);
			free_keys(&ks);
			continue;
		}
		files++;

		/* build from the keys */
		bc_filter_init(&built, s.hash_count, s.word_count, order,
					   calloc((size_t) s.word_count, 8));
		for (i = 0; i < ks.n; i++)
			bc_filter_add(&built, ks.key[i], ks.len[i]);
		out = malloc((size_t) bc_filterdb_size(built.word_count));
		bc_filterdb_write(&built, layout, out);
		CHECK(flen == bc_filterdb_size(built.word_count) && memcmp(out, file, flen) == 0,
			  "%s: rebuilt from %d keys byte-identical", f[0], ks.n);

		/* parse, query, re-serialize */
		if (load_filter(file, flen, layout, order, &parsed) == BC_OK)
		{
			CHECK(all_present(&parsed, &ks), "%s: every key present", f[0]);
			memset(out, 0, flen);
			bc_filterdb_write(&parsed, layout, out);
			CHECK(memcmp(out, file, flen) == 0, "%s: re-serialized byte-identical", f[0]);
			CHECK(memcmp(parsed.bits, built.bits, (size_t) w * 8) == 0, "%s: same bits", f[0]);
			free(parsed.bits);
		}
		else
			CHECK(0, "%s: does not parse", f[0]);

		free(out);
		free(file);
		free(built.bits);
		free_keys(&ks);
	}
	unit_tsv_close(&t);
	CHECK(files == 24, "filters_manifest.tsv: %d filters, expected 24", files);

	/* probes: answers for <name>.db and <name>_ma.db (new order), <name>_ka.db (old) */
	if (unit_tsv_open(&t, "vectors/filters_probes.tsv") != 0)
		return;
	{
		char		cur[256] = "";
		bc_filter	fnew = {0},
					fma = {0},
					fka = {0};

		while ((nf = unit_tsv_next(&t, f, 8)) >= 0)
		{
			uint8_t    *key;
			size_t		klen;

			if (nf != 5)
			{
				CHECK(0, "filters_probes.tsv:%ld: %d fields", t.lineno, nf);
				continue;
			}
			if (strcmp(cur, f[0]) != 0)
			{
				static const char *suffix[3] = {".db", "_ma.db", "_ka.db"};
				bc_filter  *dst[3] = {&fnew, &fma, &fka};
				int			j;

				snprintf(cur, sizeof(cur), "%s", f[0]);
				for (j = 0; j < 3; j++)
				{
					char		rel[512];
					uint8_t    *file;
					size_t		flen;

					free(dst[j]->bits);
					dst[j]->bits = NULL;
					snprintf(rel, sizeof(rel), "vectors/%s%s", cur, suffix[j]);
					file = unit_read_file(unit_path(rel), &flen);
					CHECK(file != NULL &&
						  load_filter(file, flen, j == 0 ? BC_LAYOUT_RAW : BC_LAYOUT_SWAPPED,
									  j == 2 ? BC_ORDER_OLD : BC_ORDER_NEW, dst[j]) == BC_OK,
						  "probe filter %s", rel);
					free(file);
				}
			}
			key = unit_hex_decode(f[1], strlen(f[1]), &klen);
			if (key == NULL || fnew.bits == NULL || fma.bits == NULL || fka.bits == NULL)
			{
				CHECK(0, "filters_probes.tsv:%ld: unusable", t.lineno);
				free(key);
				continue;
			}
			probes++;
			CHECK(bc_filter_test(&fnew, key, klen) == atoi(f[3]),
				  "probe %s %s in .db", f[0], f[1]);
			CHECK(bc_filter_test(&fma, key, klen) == atoi(f[3]),
				  "probe %s %s in _ma.db", f[0], f[1]);
			CHECK(bc_filter_test(&fka, key, klen) == atoi(f[4]),
				  "probe %s %s in _ka.db", f[0], f[1]);
			if (atoi(f[2]) == 1)
				CHECK(atoi(f[3]) == 1 && atoi(f[4]) == 1, "members are always present");
			free(key);
		}
		free(fnew.bits);
		free(fma.bits);
		free(fka.bits);
	}
	unit_tsv_close(&t);
	CHECK(probes > 2000, "filters_probes.tsv: %d probes", probes);
}

void
suite_real_filters(void)
{
	unit_tsv	t;
	char	   *f[12];
	int			nf,
				files = 0,
				artifacts = 0;

	if (unit_tsv_open(&t, "real-filters/MANIFEST.tsv") != 0)
		return;
	while ((nf = unit_tsv_next(&t, f, 12)) >= 0)
	{
		char		rel[1024];
		const char *slash;
		bc_layout	layout,
					vlayout;
		bc_order	order,
					vorder;
		bc_filter	flt;
		keyset		ks;
		uint8_t    *file,
				   *out;
		size_t		flen;
		int64_t		nkeys;
		int			is_artifact,
					rule_agrees;

		if (nf < 10 || unit_parse_i64(f[5], &nkeys))
		{
			CHECK(0, "MANIFEST.tsv:%ld: unparsable", t.lineno);
			continue;
		}
		layout = strcmp(f[2], "swapped") == 0 ? BC_LAYOUT_SWAPPED : BC_LAYOUT_RAW;
		order = strcmp(f[3], "old") == 0 ? BC_ORDER_OLD : BC_ORDER_NEW;
		CHECK((strcmp(f[2], "swapped") == 0 || strcmp(f[2], "raw") == 0) &&
			  (strcmp(f[3], "old") == 0 || strcmp(f[3], "new") == 0),
			  "MANIFEST.tsv:%ld: layout/order words", t.lineno);

		/* the version's rule gives the manifest's layout and order, except
		 * for the pre-release artifacts the manifest notes */
		is_artifact = strstr(f[9], "pre-release") != NULL;
		rule_agrees = bc_version_lookup(f[1], strlen(f[1]), &vorder, &vlayout) == BC_OK &&
			vorder == order && vlayout == layout;
		CHECK(rule_agrees != is_artifact, "%s: version rule %s the manifest", f[0],
			  rule_agrees ? "agrees with" : "disagrees with");
		artifacts += is_artifact;

		/* the file name, where it is a Filter.db name, gives the version */
		slash = strrchr(f[0], '/');
		if (strstr(f[0], "-Filter.db") != NULL)
		{
			char		v[3];

			CHECK(bc_file_name_lookup(f[0], strlen(f[0]), v, &vorder, &vlayout) == BC_OK &&
				  strcmp(v, f[1]) == 0, "%s: version from file name", slash ? slash + 1 : f[0]);
		}

		snprintf(rel, sizeof(rel), "real-filters/%s", f[4]);
		if (load_keys(unit_path(rel), &ks) != nkeys)
		{
			CHECK(0, "%s: keys file", f[0]);
			free_keys(&ks);
			continue;
		}
		snprintf(rel, sizeof(rel), "real-filters/%s", f[0]);
		file = unit_read_file(unit_path(rel), &flen);
		if (file == NULL || load_filter(file, flen, layout, order, &flt) != BC_OK)
		{
			CHECK(0, "%s: does not parse", f[0]);
			free(file);
			free_keys(&ks);
			continue;
		}
		files++;
		CHECK(all_present(&flt, &ks), "%s: all %d keys present", f[0], ks.n);
		out = malloc(flen);
		bc_filterdb_write(&flt, layout, out);
		CHECK(memcmp(out, file, flen) == 0, "%s: re-serialized byte-identical", f[0]);

		/* read by the name's rule alone, an artifact loses its keys */
		if (is_artifact)
		{
			bc_filter	wrong;

			if (load_filter(file, flen, vlayout, vorder, &wrong) == BC_OK)
			{
				CHECK(!all_present(&wrong, &ks), "%s: wrong layout/order would lose keys", f[0]);
				free(wrong.bits);
			}
		}
		free(out);
		free(flt.bits);
		free(file);
		free_keys(&ks);
	}
	unit_tsv_close(&t);
	CHECK(files == 97, "MANIFEST.tsv: %d files, expected 97", files);
	CHECK(artifacts == 5, "MANIFEST.tsv: %d pre-release artifacts, expected 5", artifacts);
}
