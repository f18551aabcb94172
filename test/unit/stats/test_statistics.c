/*
 * test_statistics.c - Statistics.db: every real SSTable of test/data/sstables
 * against its manifest (partitioner, fp_chance, partition count, key type),
 * the layout of every version, versions before 1.2 refused, and the status
 * messages.  Malformed input is test_statistics_damaged.c's, what the
 * readers take though no writer writes it test_statistics_layouts.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_endian.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "statistics_util.h"
#include "unit.h"

/* rows of MANIFEST.tsv with a Statistics.db: 148 readable, 4 before 1.2 */
#define EXPECTED_CHECKED 148
#define EXPECTED_REFUSED 4

/* MANIFEST.tsv columns */
#define M_DIR 0
#define M_DESCRIPTOR 1
#define M_VERSION 2
#define M_COMPONENTS 7
#define M_PARTITIONER 8
#define M_FP_CHANCE 9
#define M_PARTITIONS 10
#define M_KEY_TYPE 22
#define M_STATS_LAYOUT 23
#define M_FIELDS 28

static int
same_str(const uint8_t *s, size_t len, const char *expected)
{
	return s != NULL && strlen(expected) == len && memcmp(s, expected, len) == 0;
}

static void
manifest(void)
{
	unit_tsv	t;
	char	   *f[M_FIELDS + 2];
	int			nf,
				checked = 0,
				refused = 0,
				crc_rows = 0,
				key_rows = 0;

	if (unit_tsv_open(&t, "sstables/MANIFEST.tsv") != 0)
		return;
	while ((nf = unit_tsv_next(&t, f, M_FIELDS + 2)) >= 0)
	{
		char		rel[2048];
		const char *v;
		uint8_t    *file;
		size_t		len;
		bc_statistics st;
		bc_status	rc;
		int64_t		partitions;

		if (nf < M_FIELDS || strcmp(f[M_DIR], "dir") == 0)
		{
			CHECK(strcmp(f[M_DIR], "dir") == 0, "MANIFEST.tsv:%ld: %d fields",
				  t.lineno, nf);
			continue;
		}
		if (strstr(f[M_COMPONENTS], "Statistics.db") == NULL)
			continue;
		v = f[M_VERSION];
		snprintf(rel, sizeof(rel), "sstables/%s/%s-Statistics.db",
				 f[M_DIR], f[M_DESCRIPTOR]);
		file = unit_read_file(unit_path(rel), &len);
		CHECK(file != NULL, "cannot read %s", rel);
		if (file == NULL)
			continue;
		rc = parse(file, len, v, &st);

		if (strlen(v) < 2 || (v[0] >= 'e' && v[0] <= 'h'))
		{
			/* before 1.2: e, hb (b has no Statistics.db) */
			CHECK(rc == BC_ERR_VERSION_UNSUPPORTED, "%s: %s not refused: %s",
				  rel, v, bc_status_message(rc));
			refused++;
			free(file);
			continue;
		}
		CHECK(rc == BC_OK, "%s: %s", rel, bc_status_message(rc));
		if (rc != BC_OK)
		{
			free(file);
			continue;
		}
		checked++;
		CHECK(same_str(st.partitioner, st.partitioner_len, f[M_PARTITIONER]),
			  "%s: partitioner %.*s, manifest %s", rel, (int) st.partitioner_len,
			  (const char *) st.partitioner, f[M_PARTITIONER]);
		if (strcmp(f[M_FP_CHANCE], "-") == 0)
			CHECK(!st.has_fp_chance, "%s: fp_chance where the manifest has none", rel);
		else
			CHECK(st.has_fp_chance && st.fp_chance == strtod(f[M_FP_CHANCE], NULL),
				  "%s: fp_chance %.17g, manifest %s", rel, st.fp_chance,
				  f[M_FP_CHANCE]);
		CHECK(unit_parse_i64(f[M_PARTITIONS], &partitions) == 0 &&
			  st.partitions == partitions,
			  "%s: partitions %lld, manifest %s", rel, (long long) st.partitions,
			  f[M_PARTITIONS]);
		if (strcmp(f[M_KEY_TYPE], "-") == 0)
			CHECK(st.key_type == NULL && v[0] < 'm',
				  "%s: key type where the manifest has none", rel);
		else
		{
			CHECK(same_str(st.key_type, st.key_type_len, f[M_KEY_TYPE]),
				  "%s: key type %.*s, manifest %s", rel, (int) st.key_type_len,
				  st.key_type ? (const char *) st.key_type : "", f[M_KEY_TYPE]);
			key_rows++;
		}
		CHECK(st.checksummed == (strcmp(f[M_STATS_LAYOUT], "toc+crc") == 0),
			  "%s: checksummed %d, layout %s", rel, st.checksummed,
			  f[M_STATS_LAYOUT]);
		crc_rows += st.checksummed;
		free(file);
	}
	unit_tsv_close(&t);
	CHECK(checked >= EXPECTED_CHECKED, "only %d Statistics.db checked", checked);
	CHECK(refused >= EXPECTED_REFUSED, "only %d pre-1.2 refused", refused);
	CHECK(crc_rows >= 37, "only %d checksummed files", crc_rows);
	CHECK(key_rows >= 96, "only %d key types", key_rows);
}

/* ia has no min timestamp (1.2.0); ib, ic, ja share their successor's
 * layout; ScyllaDB's ms and mt that of me. */
static void
versions(void)
{
	size_t		ilen,
				jlen,
				elen;
	uint8_t    *ic = load(&samples[0], &ilen),
			   *jb = load(&samples[1], &jlen),
			   *me = load(&samples[5], &elen),
			   *ia;
	bc_statistics a,
				b;
	size_t		pos = 0;
	int			h;
	static const char *const unsupported[] = {"a", "b", "e", "hb", "hf", "ab", "bc"};
	static const char *const unknown[] = {"", "zz", "i", "icx", "IA", "m"};
	size_t		i;

	for (i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++)
		CHECK(parse(ic, ilen, unsupported[i], &a) == BC_ERR_VERSION_UNSUPPORTED,
			  "version '%s' not refused as unsupported", unsupported[i]);
	for (i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
		CHECK(parse(ic, ilen, unknown[i], &a) == BC_ERR_VERSION_UNKNOWN,
			  "version '%s' not unknown", unknown[i]);
	if (!ic || !jb || !me)
		goto out;

	/* ia: the ic record without its min timestamp (after both histograms
	 * and the 12-byte replay position) */
	for (h = 0; h < 2; h++)
		pos += 4 + 16 * (size_t) bc_get_be32(ic + pos);
	pos += 12;
	ia = malloc(ilen - 8);
	memcpy(ia, ic, pos);
	memcpy(ia + pos, ic + pos + 8, ilen - pos - 8);
	CHECK(parse(ic, ilen, "ic", &a) == BC_OK && parse(ia, ilen - 8, "ia", &b) == BC_OK &&
		  a.partitions == b.partitions && a.partitioner_len == b.partitioner_len &&
		  memcmp(a.partitioner, b.partitioner, a.partitioner_len) == 0 &&
		  !b.has_fp_chance, "ia layout");
	CHECK(parse(ia, ilen - 8, "ic", &a) != BC_OK, "ia record read as ic");
	free(ia);
	CHECK(parse(ic, ilen, "ib", &b) == BC_OK && b.partitions == 900, "ib layout");
	CHECK(parse(jb, jlen, "jb", &a) == BC_OK && parse(jb, jlen, "ja", &b) == BC_OK &&
		  a.fp_chance == b.fp_chance && b.has_fp_chance, "ja layout");
	CHECK(parse(me, elen, "me", &a) == BC_OK, "me");
	CHECK(parse(me, elen, "ms", &b) == BC_OK && b.partitions == a.partitions &&
		  b.key_type_len == a.key_type_len && !b.checksummed, "ms layout");
	CHECK(parse(me, elen, "mt", &b) == BC_OK && b.partitions == a.partitions, "mt layout");

out:
	free(ic);
	free(jb);
	free(me);
}

/* Cassandra 6.0: pa, pb read oa's Statistics.db, ea, eb da's, to the same
 * facts (pb and eb differ inside the stats component, after its first
 * histogram, which is all of it read) */
static void
versions_60(void)
{
	static const char *const big[] = {"pa", "pb"};
	static const char *const bti[] = {"ea", "eb"};
	size_t		olen,
				dlen,
				i;
	uint8_t    *oa = load(&samples[7], &olen),
			   *da = load(&samples[8], &dlen);
	bc_statistics a,
				b;

	if (!oa || !da)
		goto out;
	for (i = 0; i < 2; i++)
	{
		CHECK(parse(oa, olen, "oa", &a) == BC_OK && parse(oa, olen, big[i], &b) == BC_OK &&
			  a.partitions == b.partitions && a.fp_chance == b.fp_chance &&
			  a.partitioner_len == b.partitioner_len && b.checksummed &&
			  memcmp(a.partitioner, b.partitioner, a.partitioner_len) == 0 &&
			  a.key_type_len == b.key_type_len, "%s reads oa's Statistics.db", big[i]);
		CHECK(parse(da, dlen, "da", &a) == BC_OK && parse(da, dlen, bti[i], &b) == BC_OK &&
			  a.partitions == b.partitions && a.fp_chance == b.fp_chance &&
			  a.partitioner_len == b.partitioner_len && b.checksummed &&
			  a.key_type_len == b.key_type_len, "%s reads da's Statistics.db", bti[i]);
	}
	CHECK(parse(oa, olen, "pc", &a) == BC_ERR_VERSION_UNKNOWN, "pc unknown");
	CHECK(parse(oa, olen, "ec", &a) == BC_ERR_VERSION_UNKNOWN, "ec unknown");
out:
	free(oa);
	free(da);
}

static void
messages(void)
{
	int			s;

	for (s = BC_ERR_STATS_TRUNCATED; s <= BC_ERR_STATS_FIELD; s++)
		CHECK(strstr(bc_status_message((bc_status) s), "Statistics.db") != NULL,
			  "status %d has no Statistics.db message", (int) s);
}

void
suite_statistics(void)
{
	manifest();
	versions();
	versions_60();
	messages();
}
