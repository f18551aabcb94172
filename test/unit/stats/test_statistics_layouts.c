/*
 * test_statistics_layouts.c - what Statistics.db readers take though no
 * writer writes it: tables of contents in another order (as older ScyllaDB
 * releases wrote them), a one-bucket histogram where ScyllaDB reads the
 * version, bytes after a component's last field, an empty key type, ...
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "bc_endian.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "statistics_util.h"
#include "unit.h"

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

void
suite_statistics_layouts(void)
{
	loosened();
	reordered();
}
