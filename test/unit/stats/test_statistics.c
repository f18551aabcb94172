/*
 * test_statistics.c - Statistics.db: every real SSTable of test/data/sstables
 * against its manifest (partitioner, fp_chance, partition count, key type),
 * versions before 1.2 refused, and malformed input: every truncation,
 * single-bit flips under the CRC32s, absurd counts, lengths and values,
 * tables of contents in another order (as older ScyllaDB releases wrote
 * them), and what the readers take though no writer writes it (a
 * one-bucket histogram where ScyllaDB reads the version, bytes after a
 * component's last field, an empty key type, ...).
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "bc_endian.h"
#include "bc_statistics.h"
#include "bc_status.h"
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

static bc_status
parse(const uint8_t *d, size_t len, const char *version, bc_statistics *st)
{
	return bc_statistics_parse(d, len, version, strlen(version), st);
}

/* Parse a copy of exactly len bytes, so that ASan sees any overread. */
static bc_status
parse_copy(const uint8_t *d, size_t len, const char *version)
{
	uint8_t    *copy = malloc(len > 0 ? len : 1);
	bc_statistics st;
	bc_status	rc;

	memcpy(copy, d, len);
	rc = parse(len > 0 ? copy : copy + 1, len, version, &st);
	if (rc != BC_OK)
		CHECK(st.partitioner == NULL && st.partitions == 0 && st.key_type == NULL,
			  "%s: output zeroed on error", version);
	free(copy);
	return rc;
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

/* Sample files, one per layout family. */
typedef struct sample
{
	const char *rel;
	const char *version;
	int			crc;
} sample;

static const sample samples[] = {
	{"sstables/cassandra/legacy-sstables/ic/Keyspace1/Keyspace1-Standard1-ic-0-Statistics.db", "ic", 0},
	{"sstables/cassandra/legacy-sstables/jb/legacy_tables/legacy_jb_clust/legacy_tables-legacy_jb_clust-jb-1-Statistics.db", "jb", 0},
	{"sstables/cassandra/legacy-sstables/ka/legacy_tables/legacy_ka_simple/legacy_tables-legacy_ka_simple-ka-1-Statistics.db", "ka", 0},
	{"sstables/cassandra/legacy-sstables/la/legacy_tables/legacy_la_simple/la-1-big-Statistics.db", "la", 0},
	{"sstables/cassandra/legacy-sstables/ma/legacy_tables/legacy_ma_clust/ma-1-big-Statistics.db", "ma", 0},
	{"sstables/cassandra/legacy-sstables/me/legacy_tables/legacy_me_simple/me-1-big-Statistics.db", "me", 0},
	{"sstables/cassandra/legacy-sstables/na/legacy_tables/legacy_na_clust/na-1-big-Statistics.db", "na", 1},
	{"sstables/cassandra/legacy-sstables/oa/legacy_tables/legacy_oa_simple/oa-1-big-Statistics.db", "oa", 1},
	{"sstables/cassandra/legacy-sstables/da/legacy_tables/legacy_da_simple/da-1-bti-Statistics.db", "da", 1},
	{"sstables/sstable-to-arrow/sample_data/baselines-data/keyvalue/bb-1-bti-Statistics.db", "bb", 1},
};

#define NSAMPLES (sizeof(samples) / sizeof(samples[0]))

static uint8_t *
load(const sample *s, size_t *len)
{
	uint8_t    *d = unit_read_file(unit_path(s->rel), len);
	bc_statistics st;

	CHECK(d != NULL, "cannot read %s", s->rel);
	if (d != NULL)
		CHECK(parse(d, *len, s->version, &st) == BC_OK, "%s parses", s->rel);
	return d;
}

/* Every proper prefix is an error: all of the first and last 512 lengths,
 * a stride in between. */
static void
truncations(void)
{
	size_t		i;

	for (i = 0; i < NSAMPLES; i++)
	{
		size_t		len,
					n,
					bad = 0,
					tried = 0;
		uint8_t    *d = load(&samples[i], &len);

		if (d == NULL)
			continue;
		for (n = 0; n < len; n += (n < 512 || n + 512 >= len) ? 1 : 13)
		{
			tried++;
			if (parse_copy(d, n, samples[i].version) == BC_OK)
			{
				bad++;
				CHECK(0, "%s: truncated to %zu bytes accepted", samples[i].rel, n);
			}
		}
		CHECK(tried > 1000 && bad == 0, "%s: %zu truncations", samples[i].rel, tried);
		free(d);
	}
}

/* In the checksummed layouts every single-bit flip is detected; in the
 * others a flip must at least never crash. */
static void
bit_flips(void)
{
	size_t		i;

	for (i = 0; i < NSAMPLES; i++)
	{
		size_t		len,
					pos,
					missed = 0,
					flips = 0;
		uint8_t    *d = load(&samples[i], &len);

		if (d == NULL)
			continue;
		for (pos = 0; pos < len; pos += samples[i].crc ? 3 : 5)
		{
			int			bit;

			for (bit = 0; bit < 8; bit++)
			{
				bc_status	rc;

				d[pos] ^= (uint8_t) (1 << bit);
				rc = parse_copy(d, len, samples[i].version);
				d[pos] ^= (uint8_t) (1 << bit);
				flips++;
				if (samples[i].crc && rc == BC_OK)
					missed++;
			}
		}
		CHECK(flips > 1000 && missed == 0, "%s: %zu of %zu bit flips undetected",
			  samples[i].rel, missed, flips);
		free(d);
	}
}

static int
same_facts(const bc_statistics *a, const bc_statistics *b)
{
	return a->partitioner_len == b->partitioner_len &&
		memcmp(a->partitioner, b->partitioner, a->partitioner_len) == 0 &&
		a->has_fp_chance == b->has_fp_chance && a->fp_chance == b->fp_chance &&
		a->partitions == b->partitions && a->checksummed == b->checksummed &&
		a->key_type_len == b->key_type_len &&
		(a->key_type == NULL) == (b->key_type == NULL) &&
		(a->key_type == NULL ||
		 memcmp(a->key_type, b->key_type, a->key_type_len) == 0);
}

static bc_status
parse_mutated(const uint8_t *d, size_t len, const char *version,
			  size_t at, const uint8_t *bytes, size_t n)
{
	uint8_t    *copy = malloc(len);
	bc_status	rc;

	memcpy(copy, d, len);
	memcpy(copy + at, bytes, n);
	rc = parse_copy(copy, len, version);
	free(copy);
	return rc;
}

static void
absurd(void)
{
	size_t		ilen,
				klen,
				mlen,
				elen,
				nlen;
	uint8_t    *ic = load(&samples[0], &ilen),
			   *ka = load(&samples[2], &klen),
			   *ma = load(&samples[4], &mlen),
			   *me = load(&samples[5], &elen),
			   *na = load(&samples[6], &nlen);
	static const uint8_t big32[4] = {0x7f, 0xff, 0xff, 0xff};
	static const uint8_t neg32[4] = {0xff, 0xff, 0xff, 0xfe};
	static const uint8_t one32[4] = {0, 0, 0, 1};
	static const uint8_t zero32[4] = {0, 0, 0, 0};
	static const uint8_t five32[4] = {0, 0, 0, 5};
	static const uint8_t neg64[8] = {0x80, 0, 0, 0, 0, 0, 0, 1};
	static const uint8_t nan64[8] = {0x7f, 0xf8, 0, 0, 0, 0, 0, 0};
	static const uint8_t two64[8] = {0x40, 0, 0, 0, 0, 0, 0, 0};
	static const uint8_t zero64[8] = {0, 0, 0, 0, 0, 0, 0, 0};
	static const uint8_t hugevint[9] = {0xff, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
	static const uint8_t high[1] = {0xc3};
	bc_statistics st,
				orig;
	uint8_t    *buf;
	size_t		koff,
				stats_off,
				hdr_off,
				kt;

	if (!ic || !ka || !ma || !me || !na)
		goto out;

	/* legacy record: histogram entry counts */
	CHECK(parse_mutated(ic, ilen, "ic", 0, big32, 4) == BC_ERR_STATS_TRUNCATED, "ic: huge histogram");
	CHECK(parse_mutated(ic, ilen, "ic", 0, neg32, 4) == BC_ERR_STATS_FIELD, "ic: negative histogram");
	CHECK(parse_mutated(ic, ilen, "ic", 0, one32, 4) == BC_ERR_STATS_HISTOGRAM, "ic: 1-entry histogram");
	CHECK(parse_mutated(ic, ilen, "ic", 12, neg64, 8) == BC_ERR_STATS_HISTOGRAM, "ic: negative bucket");
	/* the offsets are read by no reader (EstimatedHistogramSerializer
	 * overwrites the first, ScyllaDB skips it): accepted, same count */
	CHECK(parse(ic, ilen, "ic", &orig) == BC_OK &&
		  parse_mutated(ic, ilen, "ic", 20, zero64, 8) == BC_OK &&
		  parse_mutated(ic, ilen, "ic", 4, neg64, 8) == BC_OK, "ic: offsets not increasing accepted");
	buf = malloc(ilen);
	memcpy(buf, ic, ilen);
	memcpy(buf + 20, zero64, 8);
	memcpy(buf + 36, neg64, 8);
	CHECK(parse(buf, ilen, "ic", &st) == BC_OK && st.partitions == orig.partitions,
		  "ic: offsets not read: %lld partitions", (long long) st.partitions);
	free(buf);

	/* TOC: counts, offsets, types */
	CHECK(parse_mutated(ka, klen, "ka", 0, zero32, 4) == BC_ERR_STATS_TOC, "ka: 0 components");
	CHECK(parse_mutated(ka, klen, "ka", 0, five32, 4) == BC_ERR_STATS_TOC, "ka: 5 components");
	CHECK(parse_mutated(ka, klen, "ka", 0, big32, 4) == BC_ERR_STATS_TOC, "ka: 2^31-1 components");
	CHECK(parse_mutated(ka, klen, "ka", 0, neg32, 4) == BC_ERR_STATS_TOC, "ka: negative count");
	CHECK(parse_mutated(ka, klen, "ka", 8, big32, 4) == BC_ERR_STATS_TRUNCATED, "ka: offset past the end");
	CHECK(parse_mutated(ka, klen, "ka", 4, five32, 4) == BC_ERR_STATS_TOC, "ka: unknown type");
	CHECK(parse_mutated(ka, klen, "ka", 12, zero32, 4) == BC_ERR_STATS_TOC, "ka: types out of order");
	CHECK(parse_mutated(ka, klen, "ka", 16, big32, 4) == BC_ERR_STATS_TRUNCATED, "ka: second offset past the end");
	CHECK(parse_mutated(ka, klen, "ka", 16, ka + 8, 4) == BC_ERR_STATS_TOC, "ka: two components at one offset");
	CHECK(parse_mutated(ka, klen, "ka", 8, one32, 4) == BC_ERR_STATS_TOC, "ka: component inside the table");
	CHECK(parse_mutated(ka, klen, "ka", 20, one32, 4) == BC_ERR_STATS_TOC, "ka: stats of another type");

	/* validation component of ka: partitioner, fp_chance */
	koff = bc_get_be32(ka + 8);
	CHECK(parse_mutated(ka, klen, "ka", koff + 2, high, 1) == BC_ERR_STATS_STRING, "ka: non-ASCII partitioner");
	CHECK(parse_mutated(ka, klen, "ka", koff, zero32, 2) == BC_ERR_STATS_STRING, "ka: empty partitioner");
	CHECK(parse_mutated(ka, klen, "ka", koff, big32, 2) != BC_OK, "ka: long partitioner");
	koff += 2 + ((size_t) ka[koff] << 8 | ka[koff + 1]);
	CHECK(parse_mutated(ka, klen, "ka", koff, nan64, 8) == BC_ERR_STATS_FP_CHANCE, "ka: NaN fp_chance");
	CHECK(parse_mutated(ka, klen, "ka", koff, two64, 8) == BC_ERR_STATS_FP_CHANCE, "ka: fp_chance 2");
	CHECK(parse_mutated(ka, klen, "ka", koff, zero64, 8) == BC_ERR_STATS_FP_CHANCE, "ka: fp_chance 0");
	stats_off = bc_get_be32(ka + 24);
	CHECK(parse_mutated(ka, klen, "ka", stats_off + 12, neg64, 8) == BC_ERR_STATS_HISTOGRAM, "ka: negative bucket");
	CHECK(parse_mutated(ka, klen, "ka", stats_off, big32, 4) == BC_ERR_STATS_TRUNCATED, "ka: huge histogram");

	/* serialization header of ma: a key type longer than the file */
	hdr_off = bc_get_be32(ma + 32);
	CHECK(parse_mutated(ma, mlen, "ma", hdr_off, hugevint, 9) != BC_OK, "ma: huge vint");
	for (kt = hdr_off; kt + 10 < mlen; kt++)
		if (memcmp(ma + kt, "org.apache", 10) == 0)
			break;
	CHECK(kt + 10 < mlen && ma[kt - 1] == 40, "ma: key type found");
	/* its length byte made the head of a 9-byte vint: "org.apac" follows */
	CHECK(parse_mutated(ma, mlen, "ma", kt - 1, hugevint, 1) == BC_ERR_STATS_TRUNCATED,
		  "ma: huge key type length");

	/* bytes after the last component's last field: no reader reads them
	 * (MetadataSerializer hands each component its bytes): same facts */
	buf = malloc(mlen + 3);
	memcpy(buf, ma, mlen);
	memset(buf + mlen, 0xa5, 3);
	CHECK(parse(ma, mlen, "ma", &orig) == BC_OK && parse(buf, mlen + 3, "ma", &st) == BC_OK &&
		  same_facts(&orig, &st), "ma: trailing bytes ignored");
	free(buf);
	buf = malloc(klen + 1);
	memcpy(buf, ka, klen);
	buf[klen] = 0;
	CHECK(parse(ka, klen, "ka", &orig) == BC_OK && parse(buf, klen + 1, "ka", &st) == BC_OK &&
		  same_facts(&orig, &st), "ka: trailing byte ignored");
	free(buf);
	buf = malloc(nlen + 1);
	memcpy(buf, na, nlen);
	buf[nlen] = 0;
	CHECK(parse(buf, nlen + 1, "na", &st) == BC_ERR_STATS_CHECKSUM, "na: trailing byte");
	free(buf);
	CHECK(parse_mutated(na, nlen, "na", 0, five32, 4) == BC_ERR_STATS_TOC ||
		  parse_mutated(na, nlen, "na", 0, five32, 4) == BC_ERR_STATS_CHECKSUM, "na: 5 components");

	/* a file read as another layout */
	CHECK(parse(ka, klen, "ma", &st) == BC_ERR_STATS_MISSING, "ka as ma: no header");
	CHECK(parse(ma, mlen, "ka", &st) == BC_ERR_STATS_TOC, "ma as ka: header type");
	CHECK(parse(me, elen, "na", &st) != BC_OK, "me as na");
	CHECK(parse(na, nlen, "me", &st) == BC_ERR_STATS_TOC, "na as me");
	CHECK(parse(ic, ilen, "ka", &st) != BC_OK, "ic as ka");
	CHECK(parse(ka, klen, "jb", &st) != BC_OK, "ka as jb");
	CHECK(parse(NULL, 0, "ka", &st) == BC_ERR_STATS_TRUNCATED, "NULL input");

out:
	free(ic);
	free(ka);
	free(ma);
	free(me);
	free(na);
}

/*
 * A copy of a TOC-layout file with its table of contents listed in the
 * order perm (perm[i] = the original entry listed i-th).  With bodies, the
 * components are also stored in that order (offsets recomputed, each
 * component's bytes, CRC32 included, moved as they are); without, only the
 * entries move.  The table's CRC32 is recomputed where the layout has it.
 * NULL when the file is not a TOC of n entries.
 */
static uint8_t *
reorder_toc(const uint8_t *d, size_t len, int crc, const uint32_t *perm,
			uint32_t n, int bodies)
{
	size_t		toc_end = 4 + 8 * (size_t) n + (crc ? 8 : 0),
				entry0 = crc ? 8 : 4,
				pos = toc_end;
	uint32_t	offs[4],
				lens[4],
				i;
	uint8_t    *out;

	if (n > 4 || len < toc_end || bc_get_be32(d) != n)
		return NULL;
	for (i = 0; i < n; i++)
		offs[i] = bc_get_be32(d + entry0 + 8 * i + 4);
	for (i = 0; i < n; i++)
		lens[i] = (i + 1 < n ? offs[i + 1] : (uint32_t) len) - offs[i];
	out = malloc(len);
	memcpy(out, d, len);
	for (i = 0; i < n; i++)
	{
		uint8_t    *e = out + entry0 + 8 * i;
		uint32_t	k = perm[i];

		memcpy(e, d + entry0 + 8 * k, 4);
		if (bodies)
		{
			bc_put_be32(e + 4, (uint32_t) pos);
			memcpy(out + pos, d + offs[k], lens[k]);
			pos += lens[k];
		}
		else
			memcpy(e + 4, d + entry0 + 8 * k + 4, 4);
	}
	if (crc)
		bc_put_be32(out + 8 + 8 * n,
					(uint32_t) crc32(crc32(0L, out, 4), out + 8, 8 * n));
	return out;
}


/*
 * Every order of the table of contents, as older ScyllaDB releases wrote
 * it (e.g. types 3, 2, 0, 1 with the components still in type order):
 * without CRC32s every order gives the original's facts, with or without
 * the components moved; with CRC32s (read by Cassandra 4.0+ in table
 * order) only an order whose offsets ascend, i.e. components moved too.
 */
static void
reordered(void)
{
	size_t		i;
	int			tried = 0;

	for (i = 2; i < NSAMPLES; i++)
	{
		size_t		len;
		uint8_t    *d = load(&samples[i], &len);
		bc_statistics orig;
		uint32_t	n,
					perm[4],
					p;
		int			crc = samples[i].crc;

		if (d == NULL)
			continue;
		n = bc_get_be32(d);
		CHECK(n >= 3 && n <= 4 && parse(d, len, samples[i].version, &orig) == BC_OK,
			  "%s: a table of 3 or 4", samples[i].rel);
		if (n < 3 || n > 4)
		{
			free(d);
			continue;
		}
		/* every permutation of n entries, by its n-digit base-n number */
		for (p = 0; p < (n == 4 ? 256u : 27u); p++)
		{
			uint32_t	used = 0,
						j,
						q = p;
			int			bodies,
						identity = 1;

			for (j = 0; j < n; j++, q /= n)
			{
				perm[j] = q % n;
				used |= 1u << perm[j];
				identity &= perm[j] == j;
			}
			if (used != (1u << n) - 1)
				continue;
			for (bodies = 0; bodies < 2; bodies++)
			{
				uint8_t    *r = reorder_toc(d, len, crc, perm, n, bodies);
				uint8_t    *copy;
				bc_statistics st;
				bc_status	rc;

				if (r == NULL)
					continue;
				copy = malloc(len);
				memcpy(copy, r, len);
				rc = parse(copy, len, samples[i].version, &st);
				tried++;
				if (crc && !bodies && !identity)
					CHECK(rc == BC_ERR_STATS_TOC, "%s: order %u, offsets not ascending: %s",
						  samples[i].rel, p, bc_status_message(rc));
				else
					CHECK(rc == BC_OK && same_facts(&orig, &st),
						  "%s: order %u%s: %s", samples[i].rel, p,
						  bodies ? " with bodies" : "", bc_status_message(rc));
				/* and a bit flip in the moved table is still caught */
				if (crc && bodies)
				{
					copy[12] ^= 1;
					CHECK(parse(copy, len, samples[i].version, &st) == BC_ERR_STATS_CHECKSUM,
						  "%s: order %u: flipped table", samples[i].rel, p);
				}
				free(copy);
				free(r);
			}
		}
		free(d);
	}
	CHECK(tried >= 300, "only %d reordered tables", tried);
}

/*
 * A copy of a TOC-layout file without CRC32s with bytes [at, at + del)
 * replaced by ins (nins bytes), the offsets of the components after at
 * moved by the difference.
 */
static uint8_t *
splice_toc(const uint8_t *d, size_t len, size_t at, size_t del,
		   const uint8_t *ins, size_t nins, size_t *out_len)
{
	uint32_t	n = bc_get_be32(d),
				i;
	uint8_t    *out = malloc(len - del + nins + 1);

	memcpy(out, d, at);
	memcpy(out + at, ins, nins);
	memcpy(out + at + nins, d + at + del, len - at - del);
	for (i = 0; i < n; i++)
	{
		uint32_t	off = bc_get_be32(d + 8 + 8 * (size_t) i);

		if (off > at)
			bc_put_be32(out + 8 + 8 * (size_t) i, (uint32_t) (off - del + nins));
	}
	*out_len = len - del + nins;
	return out;
}

/* the sum of the buckets of the histogram at h, and its length */
static int64_t
histogram_total(const uint8_t *h, size_t *bytes)
{
	uint32_t	n = bc_get_be32(h),
				i;
	int64_t		sum = 0;

	for (i = 0; i < n; i++)
		sum += (int64_t) bc_get_be64(h + 4 + 16 * (size_t) i + 8);
	*bytes = 4 + 16 * (size_t) n;
	return sum;
}

/*
 * What the readers take and bloomcass used to refuse: a one-bucket
 * histogram where ScyllaDB reads the version, any streaming histogram
 * bounds, any byte as a boolean, bytes after a component's last field, an
 * empty key type, any clustering or column type name.  Next to each, a
 * corrupt one still refused.
 */
static void
loosened(void)
{
	size_t		ilen,
				jlen,
				klen,
				mlen,
				elen,
				n,
				hbytes,
				i;
	uint8_t    *ic = load(&samples[0], &ilen),
			   *jb = load(&samples[1], &jlen),
			   *ka = load(&samples[2], &klen),
			   *ma = load(&samples[4], &mlen),
			   *me = load(&samples[5], &elen),
			   *buf;
	uint8_t		one[20];
	bc_statistics orig,
				st;
	static const char *const scylla[] = {"mc", "md", "me", "ms", "mt"};
	static const char *const cassandra_only[] = {"ma", "mb"};

	if (!ic || !jb || !ka || !ma || !me)
		goto out;

	/* me: the partition size histogram made one bucket holding the total */
	{
		size_t		stats_off = bc_get_be32(me + 24);
		int64_t		total = histogram_total(me + stats_off, &hbytes);

		bc_put_be32(one, 1);
		memset(one + 4, 0, 8);
		bc_put_be64(one + 12, (uint64_t) total);
		buf = splice_toc(me, elen, stats_off, hbytes, one, 20, &n);
		CHECK(parse(me, elen, "me", &orig) == BC_OK && orig.partitions == total,
			  "me: %lld partitions", (long long) total);
		for (i = 0; i < sizeof(scylla) / sizeof(scylla[0]); i++)
			CHECK(parse(buf, n, scylla[i], &st) == BC_OK && same_facts(&orig, &st),
				  "%s: one-bucket histogram (ScyllaDB's parse of estimated_histogram)", scylla[i]);
		for (i = 0; i < sizeof(cassandra_only) / sizeof(cassandra_only[0]); i++)
			CHECK(parse(buf, n, cassandra_only[i], &st) == BC_ERR_STATS_HISTOGRAM,
				  "%s: one-bucket histogram refused (EstimatedHistogramSerializer)", cassandra_only[i]);
		free(buf);
		/* no bucket: refused by both */
		buf = splice_toc(me, elen, stats_off, hbytes, one, 4, &n);
		bc_put_be32(buf + stats_off, 0);
		CHECK(parse(buf, n, "me", &st) == BC_ERR_STATS_HISTOGRAM, "me: empty histogram");
		free(buf);
	}

	/* ka: the same (stats last); lb is Cassandra's alone */
	{
		size_t		stats_off = bc_get_be32(ka + 24),
					h2,
					sh,
					p;
		int64_t		total = histogram_total(ka + stats_off, &hbytes);
		uint32_t	nbins,
					k;
		static const uint8_t maxbins[2][4] = {{0, 0, 0, 0}, {0xff, 0xff, 0xff, 0xff}};

		bc_put_be64(one + 12, (uint64_t) total);
		buf = splice_toc(ka, klen, stats_off, hbytes, one, 20, &n);
		CHECK(parse(ka, klen, "ka", &orig) == BC_OK, "ka parses");
		CHECK(parse(buf, n, "ka", &st) == BC_OK && same_facts(&orig, &st), "ka: one-bucket histogram");
		CHECK(parse(buf, n, "la", &st) == BC_OK && same_facts(&orig, &st), "la: one-bucket histogram");
		CHECK(parse(buf, n, "lb", &st) == BC_ERR_STATS_HISTOGRAM, "lb: one-bucket histogram refused");
		free(buf);

		/* the tombstone histogram's max bin count: any value
		 * (StreamingHistogramSerializer.deserialize takes any int) */
		(void) histogram_total(ka + stats_off + hbytes, &h2);
		sh = stats_off + hbytes + h2 + 40;
		nbins = bc_get_be32(ka + sh + 4);
		for (k = 0; k < 2; k++)
			CHECK(parse_mutated(ka, klen, "ka", sh, maxbins[k], 4) == BC_OK,
				  "ka: max bin count %02x (%u bins)", maxbins[k][0], nbins);
		CHECK(parse_mutated(ka, klen, "ka", sh + 4, maxbins[1], 4) == BC_ERR_STATS_FIELD,
			  "ka: negative bin count");
		/* more bins than the maximum: Cassandra does not compare them */
		{
			uint8_t		bins[8 + 16 * 2];

			memset(bins, 0, sizeof(bins));
			bc_put_be32(bins + 4, 2);
			buf = splice_toc(ka, klen, sh, 8 + 16 * (size_t) nbins, bins, sizeof(bins), &n);
			CHECK(parse(buf, n, "ka", &st) == BC_OK && same_facts(&orig, &st),
				  "ka: 2 bins, at most 0");
			free(buf);
		}

		/* hasLegacyCounterShards: readBoolean, any byte */
		p = sh + 8 + 16 * (size_t) nbins + 12;
		for (k = 0; k < 2; k++)
		{
			uint32_t	names = bc_get_be32(ka + p),
						j;

			p += 4;
			for (j = 0; j < names; j++)
				p += 2 + (((size_t) ka[p] << 8) | ka[p + 1]);
		}
		CHECK(p == klen - 1, "ka: the counter shards flag is the last byte (%zu of %zu)", p, klen);
		CHECK(parse_mutated(ka, klen, "ka", p, (const uint8_t *) "\x07", 1) == BC_OK,
			  "ka: boolean 7 read as true");

		/* bytes after the validation component's fp_chance */
		{
			size_t		koff = bc_get_be32(ka + 8);
			size_t		vend = koff + 2 + (((size_t) ka[koff] << 8) | ka[koff + 1]) + 8;
			static const uint8_t pad[5] = {1, 2, 3, 4, 5};

			buf = splice_toc(ka, klen, vend, 0, pad, 5, &n);
			CHECK(parse(buf, n, "ka", &st) == BC_OK && same_facts(&orig, &st),
				  "ka: bytes after the validation component's last field");
			free(buf);
		}
	}

	/* ma: an empty key type (TypeParser.parse: BytesType), any clustering
	 * or column type name; a non-ASCII key type still refused */
	{
		size_t		kt,
					other;
		static const uint8_t zero = 0,
					ctl = 1;

		for (kt = bc_get_be32(ma + 32); kt + 10 < mlen; kt++)
			if (memcmp(ma + kt, "org.apache", 10) == 0)
				break;
		CHECK(kt + 10 < mlen && ma[kt - 1] == 40 && parse(ma, mlen, "ma", &orig) == BC_OK,
			  "ma: key type found");
		buf = splice_toc(ma, mlen, kt - 1, 41, &zero, 1, &n);
		CHECK(parse(buf, n, "ma", &st) == BC_OK && st.key_type != NULL && st.key_type_len == 0 &&
			  st.partitions == orig.partitions, "ma: empty key type");
		free(buf);
		CHECK(parse_mutated(ma, mlen, "ma", kt + 3, &ctl, 1) == BC_ERR_STATS_STRING,
			  "ma: key type with a control byte");
		for (other = kt + 40; other + 10 < mlen; other++)
			if (memcmp(ma + other, "org.apache", 10) == 0)
				break;
		CHECK(other + 10 < mlen, "ma: a column type found");
		CHECK(parse_mutated(ma, mlen, "ma", other + 3, &ctl, 1) == BC_OK,
			  "ma: a column type with a control byte (not reported, not parsed)");
	}

	/* legacy records: 1.2's reader stops after the tombstone histogram,
	 * 2.0's after the column names */
	buf = malloc(ilen + 3);
	memcpy(buf, ic, ilen);
	memset(buf + ilen, 0, 3);
	CHECK(parse(ic, ilen, "ic", &orig) == BC_OK && parse(buf, ilen + 3, "ic", &st) == BC_OK &&
		  same_facts(&orig, &st), "ic: a level cut short");
	free(buf);
	buf = malloc(jlen + 1);
	memcpy(buf, jb, jlen);
	buf[jlen] = 9;
	CHECK(parse(jb, jlen, "jb", &orig) == BC_OK && parse(buf, jlen + 1, "jb", &st) == BC_OK &&
		  same_facts(&orig, &st), "jb: a byte after the column names");
	free(buf);

out:
	free(ic);
	free(jb);
	free(ka);
	free(ma);
	free(me);
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
	truncations();
	bit_flips();
	absurd();
	loosened();
	reordered();
	messages();
}
