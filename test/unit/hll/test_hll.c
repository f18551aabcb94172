/*
 * test_hll.c - the cardinality estimator (bc_hll.c, bc_hll_merge.c,
 * bc_hll_bias.c, bc_hll_scylla.c) against stream-lib 2.5.2's own answers:
 *
 *   - test/data/hll/vectors.tsv.gz (its README gives how they were made):
 *     estimators stream-lib wrote (sparse, normal, legacy codec, other
 *     precisions, sp = 0) and bytes it refuses, each with what
 *     Builder.build(bytes).cardinality() gives or throws; and chains of
 *     merges as Cassandra's getApproximateKeyCount makes them (c = first,
 *     c = c.merge(next)...), each with the cardinality, the length and the
 *     CRC32 of getBytes() of the result, or "refused"
 *     (CardinalityMergeException); the result is serialized here as
 *     getBytes() writes it and compared byte for byte through the CRC32;
 *   - every real Statistics.db of test/data with an estimator
 *     (test/data/hll/real.tsv): the cardinality stream-lib gives, and
 *     within HyperLogLog's error of the partition count (exact in sparse
 *     mode at these counts);
 *   - ScyllaDB's estimator: the form its get_bytes() writes, its
 *     estimate(), and the same bytes read as stream-lib's in a version
 *     ScyllaDB does not write.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "bc_endian.h"
#include "bc_hll.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "unit.h"

#define MAX_NAMED 128

typedef struct named
{
	char		name[64];
	uint8_t    *bytes;
	size_t		len;
} named;

static named vecs[MAX_NAMED];
static int	nvecs;

/* a line of the gzip'd vectors, any length (NULL at the end) */
static char *
gz_line(gzFile g)
{
	static char *buf;
	static size_t cap;
	size_t		len = 0;

	if (buf == NULL)
	{
		cap = 1 << 16;
		buf = malloc(cap);
	}
	for (;;)
	{
		if (gzgets(g, buf + len, (int) (cap - len)) == NULL)
			return len > 0 ? buf : NULL;
		len += strlen(buf + len);
		if (len > 0 && buf[len - 1] == '\n')
		{
			buf[len - 1] = '\0';
			return buf;
		}
		cap *= 2;
		buf = realloc(buf, cap);
	}
}

static int
split(char *line, char **f, int maxf)
{
	int			n = 0;

	f[n++] = line;
	for (; *line && n < maxf; line++)
		if (*line == '\t')
		{
			*line = '\0';
			f[n++] = line + 1;
		}
	return n;
}

static const named *
find(const char *name)
{
	int			i;

	for (i = 0; i < nvecs; i++)
		if (strcmp(vecs[i].name, name) == 0)
			return &vecs[i];
	return NULL;
}

/* decode a stream-lib estimator into a malloc'd bc_hll */
static bc_status
load(const uint8_t *b, size_t len, bc_hll *h)
{
	bc_hll_view v;
	bc_status	st = bc_hll_parse(b, len, 0, &v);

	memset(h, 0, sizeof(*h));
	if (st != BC_OK)
		return st;
	h->v = malloc(((size_t) v.n + 1) * sizeof(int32_t));
	h->cap = v.n;
	bc_hll_decode(&v, h);
	return BC_OK;
}

/* Varint.writeUnsignedVarInt */
static void
put_varint(uint8_t *out, size_t *at, uint32_t v)
{
	while (v & 0xFFFFFF80u)
	{
		out[(*at)++] = (uint8_t) ((v & 0x7F) | 0x80);
		v >>= 7;
	}
	out[(*at)++] = (uint8_t) v;
}

/* getBytes() of a decoded estimator: its length and CRC32 */
static void
get_bytes(const bc_hll *h, size_t *len, uint32_t *crc)
{
	uint8_t    *out = malloc(16 + (size_t) h->n * 5 + 5);
	size_t		at = 4;
	uint32_t	i,
				prev = 0;

	bc_put_be32(out, (uint32_t) -2);
	put_varint(out, &at, (uint32_t) h->p);
	put_varint(out, &at, (uint32_t) h->sp);
	put_varint(out, &at, h->sparse ? 1 : 0);
	if (h->sparse)
	{
		put_varint(out, &at, h->n);
		for (i = 0; i < h->n; i++)
		{
			put_varint(out, &at, (uint32_t) h->v[i] - prev);
			prev = (uint32_t) h->v[i];
		}
	}
	else
	{
		put_varint(out, &at, h->n * 4);
		for (i = 0; i < h->n; i++, at += 4)
			bc_put_be32(out + at, (uint32_t) h->v[i]);
	}
	*len = at;
	*crc = (uint32_t) crc32(0, out, (uInt) at);
	free(out);
}

static void
check_est(char **f)
{
	const char *name = f[1];
	const char *want = f[3];
	size_t		len;
	uint8_t    *b = unit_hex_decode(f[2], strlen(f[2]), &len);
	bc_hll_view v;
	bc_status	st;
	int64_t		card = 0;

	if (nvecs < MAX_NAMED)
	{
		snprintf(vecs[nvecs].name, sizeof(vecs[nvecs].name), "%s", name);
		vecs[nvecs].bytes = b;
		vecs[nvecs++].len = len;
	}
	st = bc_hll_parse(b, len, 0, &v);
	if (st == BC_OK)
		st = bc_hll_view_cardinality(&v, &card);
	if (strcmp(want, "eof") == 0)
		CHECK(st == BC_ERR_HLL_TRUNCATED, "%s: status %d, stream-lib: EOF", name, st);
	else if (strncmp(want, "error:", 6) == 0)
		CHECK(st == BC_ERR_HLL_FORMAT, "%s: status %d, stream-lib: %s", name, st, want);
	else if (st == BC_ERR_HLL_UNSUPPORTED)
	{
		/* normal mode at a precision whose bias data is not read (only
		 * 13's is): refused, not answered */
		CHECK(v.p != 13 && !v.sparse, "%s: unsupported at p = %d", name, v.p);
	}
	else
	{
		bc_hll		h;
		int64_t		c2 = -1;

		CHECK(st == BC_OK && card == atoll(want), "%s: %lld (status %d), stream-lib %s",
			  name, (long long) card, st, want);
		/* the decoded form gives the same */
		if (load(b, len, &h) == BC_OK)
		{
			CHECK(bc_hll_cardinality(&h, &c2) == BC_OK && c2 == card,
				  "%s: decoded %lld, from the bytes %lld", name, (long long) c2, (long long) card);
			free(h.v);
		}
	}
}

static void
check_chain(char **f, int nf)
{
	const char *name = f[1];
	int			n = atoi(f[2]),
				i,
				refused = 0;
	bc_hll		acc;
	bc_status	st = BC_OK;
	const char *want;

	CHECK(nf >= 3 + n + 1, "%s: short line", name);
	if (nf < 3 + n + 1)
		return;
	want = f[3 + n];
	for (i = 0; i < n && st == BC_OK && !refused; i++)
	{
		const named *x = find(f[3 + i]);
		bc_hll		h;

		CHECK(x != NULL, "%s: no vector %s", name, f[3 + i]);
		if (x == NULL)
			return;
		st = load(x->bytes, x->len, &h);
		if (st != BC_OK)
			break;
		if (i == 0)
			acc = h;
		else
		{
			bc_hll		out;
			int32_t    *room = malloc(((size_t) bc_hll_merge_room(&acc, &h) + 1) * sizeof(int32_t));

			st = bc_hll_merge(&acc, &h, room, &out, &refused);
			free(acc.v);
			free(h.v);
			if (st != BC_OK || refused)
			{
				free(room);
				acc.v = NULL;
				break;
			}
			/* out->v points into room: keep it as its own array */
			acc = out;
			acc.v = malloc(((size_t) out.n + 1) * sizeof(int32_t));
			memcpy(acc.v, out.v, (size_t) out.n * sizeof(int32_t));
			free(room);
		}
	}
	if (strcmp(want, "refused") == 0)
	{
		CHECK(st == BC_OK && refused, "%s: not refused (status %d)", name, st);
		return;
	}
	CHECK(st == BC_OK && !refused, "%s: status %d, refused %d; stream-lib %s", name, st, refused, want);
	if (st == BC_OK && !refused)
	{
		int64_t		card = -1;
		size_t		len;
		uint32_t	crc;
		char		crc_hex[16];

		CHECK(bc_hll_cardinality(&acc, &card) == BC_OK && card == atoll(want + 5),
			  "%s: cardinality %lld, stream-lib %s", name, (long long) card, want);
		get_bytes(&acc, &len, &crc);
		snprintf(crc_hex, sizeof(crc_hex), "%08x", crc);
		CHECK(len == (size_t) atol(f[4 + n]) && strcmp(crc_hex, f[5 + n]) == 0,
			  "%s: getBytes %zu bytes crc %s, stream-lib %s bytes crc %s", name, len, crc_hex,
			  f[4 + n], f[5 + n]);
		free(acc.v);
	}
}

static void
vectors(void)
{
	gzFile		g = gzopen(unit_path("hll/vectors.tsv.gz"), "rb");
	char	   *line,
			   *f[16];
	int			ests = 0,
				chains = 0,
				i;

	CHECK(g != NULL, "cannot open hll/vectors.tsv.gz");
	if (g == NULL)
		return;
	while ((line = gz_line(g)) != NULL)
	{
		int			nf = split(line, f, 16);

		if (strcmp(f[0], "est") == 0 && nf == 4)
		{
			check_est(f);
			ests++;
		}
		else if (strcmp(f[0], "chain") == 0)
		{
			check_chain(f, nf);
			chains++;
		}
	}
	gzclose(g);
	CHECK(ests >= 40 && chains >= 18, "only %d estimators and %d chains read", ests, chains);
	for (i = 0; i < nvecs; i++)
		free(vecs[i].bytes);
	nvecs = 0;
}

/* every real Statistics.db with an estimator */
static void
real_files(void)
{
	unit_tsv	t;
	char	   *f[4];
	int			nf,
				files = 0,
				normal = 0;

	if (unit_tsv_open(&t, "hll/real.tsv") != 0)
	{
		CHECK(0, "cannot open hll/real.tsv");
		return;
	}
	while ((nf = unit_tsv_next(&t, f, 4)) >= 0)
	{
		size_t		len;
		uint8_t    *b;
		bc_statistics s;
		bc_hll_view v;
		int64_t		card = -1;
		double		err;

		if (nf != 3)
			continue;
		b = unit_read_file(unit_path(f[0]), &len);
		CHECK(b != NULL, "cannot read %s", f[0]);
		if (b == NULL)
			continue;
		CHECK(bc_statistics_parse(b, len, f[2], strlen(f[2]), &s) == BC_OK && s.has_estimator,
			  "%s: no estimator", f[0]);
		CHECK(bc_hll_parse(s.estimator, s.estimator_len, s.scylla_version, &v) == BC_OK &&
			  v.kind == BC_HLL_STREAMLIB && v.p == 13 && v.sp == 25 &&
			  bc_hll_view_cardinality(&v, &card) == BC_OK && card == atoll(f[1]),
			  "%s: %lld, stream-lib %s", f[0], (long long) card, f[1]);
		/* sparse: linear counting over 2^25, exact at these counts;
		 * normal: three standard errors of 1.04 / sqrt(8192) */
		err = fabs((double) card - (double) s.partitions);
		if (v.sparse)
			CHECK(err == 0, "%s: %lld for %lld partitions", f[0], (long long) card,
				  (long long) s.partitions);
		else
		{
			CHECK(err <= 3 * 1.04 / sqrt(8192.0) * (double) s.partitions,
				  "%s: %lld for %lld partitions", f[0], (long long) card, (long long) s.partitions);
			normal++;
		}
		files++;
		free(b);
	}
	unit_tsv_close(&t);
	CHECK(files >= 150 && normal >= 1, "%d files, %d in normal mode", files, normal);
}

/*
 * ScyllaDB's own SSTables, when scylladb/sstables/ holds them (not in the
 * tree: scylladb/README.md): each ms/mt Statistics.db's estimator in
 * ScyllaDB's form, its estimate within three standard errors of 16
 * registers (1.04 / 4) of the partition count of scylladb/MANIFEST.tsv.
 */
static void
scylla_files(void)
{
	unit_tsv	t;
	char	   *f[12];
	int			nf,
				files = 0;

	if (unit_tsv_open(&t, "scylladb/MANIFEST.tsv") != 0)
		return;
	while ((nf = unit_tsv_next(&t, f, 12)) >= 0)
	{
		char		rel[512];
		size_t		len;
		uint8_t    *b;
		bc_statistics s;
		bc_hll_view v;
		int64_t		card = -1,
					parts;

		if (nf < 11 || strcmp(f[0], "dir") == 0)
			continue;
		snprintf(rel, sizeof(rel), "scylladb/sstables/%s/%s-%s-big-Statistics.db", f[0], f[1], f[2]);
		b = unit_read_file(unit_path(rel), &len);
		if (b == NULL)
			continue;
		parts = atoll(f[3]);
		CHECK(bc_statistics_parse(b, len, f[1], strlen(f[1]), &s) == BC_OK && s.has_estimator &&
			  bc_hll_parse(s.estimator, s.estimator_len, s.scylla_version, &v) == BC_OK &&
			  v.kind == BC_HLL_SCYLLA && bc_hll_view_cardinality(&v, &card) == BC_OK &&
			  fabs((double) card - (double) parts) <= 3 * 0.26 * (double) parts,
			  "%s: ScyllaDB estimate %lld for %lld partitions", rel, (long long) card, (long long) parts);
		files++;
		free(b);
	}
	unit_tsv_close(&t);
	printf("  hll: %d ScyllaDB SSTables' files present in scylladb/sstables\n", files);
}

/* ScyllaDB's get_bytes(): -2, b = 4, sp 0, format 0, size 16, registers */
static void
scylla(void)
{
	static const uint8_t est[] = {
		0xff, 0xff, 0xff, 0xfe, 4, 0, 0, 16,
		3, 2, 5, 1, 4, 3, 2, 1, 6, 3, 2, 1, 1, 2, 4, 2
	};
	static const uint8_t zeros[24] = {0xff, 0xff, 0xff, 0xfe, 4, 0, 0, 16, 1};
	uint8_t		cut[sizeof(est) + 1];
	bc_hll_view v;
	int64_t		card = -1;
	double		sum = 0;
	int			i;

	CHECK(bc_hll_parse(est, sizeof(est), 1, &v) == BC_OK && v.kind == BC_HLL_SCYLLA &&
		  v.m == 16, "ScyllaDB's form not recognised");
	/* estimate(): 0.673 * 256 / sum(2^-M), no register 0, above 2.5 m */
	for (i = 0; i < 16; i++)
		sum += 1.0 / pow(2.0, est[8 + i]);
	CHECK(bc_hll_view_cardinality(&v, &card) == BC_OK && card == (int64_t) floor(0.673 * 16 * 16 / sum + 0.5),
		  "ScyllaDB estimate %lld", (long long) card);
	/* 15 zero registers, one at 1: linear counting 16 ln(16 / 15) = 1.03 */
	CHECK(bc_hll_parse(zeros, sizeof(zeros), 1, &v) == BC_OK && v.kind == BC_HLL_SCYLLA &&
		  bc_hll_view_cardinality(&v, &card) == BC_OK && card == 1, "ScyllaDB small %lld",
		  (long long) card);
	/* not a ScyllaDB version: stream-lib's reading (p = 4: bias data not
	 * read, so refused rather than answered) */
	CHECK(bc_hll_parse(est, sizeof(est), 0, &v) == BC_OK && v.kind == BC_HLL_STREAMLIB &&
		  v.p == 4 && v.n == 4 && bc_hll_view_cardinality(&v, &card) == BC_ERR_HLL_UNSUPPORTED,
		  "ScyllaDB bytes as stream-lib's");
	/* a byte more or less is not ScyllaDB's form */
	memcpy(cut, est, sizeof(est));
	cut[sizeof(est)] = 0;
	CHECK(bc_hll_parse(cut, sizeof(est) + 1, 1, &v) == BC_OK && v.kind == BC_HLL_STREAMLIB,
		  "a byte more: still ScyllaDB's");
	CHECK(bc_hll_parse(cut, sizeof(est) - 1, 1, &v) == BC_ERR_HLL_TRUNCATED,
		  "a byte less: not truncated");
}

/* every cut of a real sparse and normal estimator: TRUNCATED, never more */
static void
cuts(void)
{
	const named *x;
	gzFile		g = gzopen(unit_path("hll/vectors.tsv.gz"), "rb");
	char	   *line,
			   *f[16];
	int			bad = 0,
				tried = 0;

	if (g == NULL)
		return;
	while ((line = gz_line(g)) != NULL)
	{
		int			nf = split(line, f, 16);
		size_t		len,
					k;
		uint8_t    *b;

		if (nf != 4 || strcmp(f[0], "est") != 0 ||
			(strcmp(f[1], "p13_sp25_0_1000") != 0 && strcmp(f[1], "p13_sp25_0_20000") != 0 &&
			 strcmp(f[1], "legacy_p13_1000") != 0))
			continue;
		b = unit_hex_decode(f[2], strlen(f[2]), &len);
		for (k = 0; k < len; k++)
		{
			uint8_t    *c = malloc(k + 1);
			bc_hll_view v;

			memcpy(c, b, k);
			if (bc_hll_parse(c, k, 0, &v) != BC_ERR_HLL_TRUNCATED)
				bad++;
			tried++;
			free(c);
		}
		free(b);
	}
	gzclose(g);
	(void) x;
	CHECK(bad == 0 && tried > 1000, "%d of %d cuts not truncated", bad, tried);
}

void
suite_hll(void)
{
	vectors();
	real_files();
	scylla();
	scylla_files();
	cuts();
}
