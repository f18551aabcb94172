/*
 * test_statistics_damaged.c - malformed Statistics.db: every truncation,
 * single-bit flips under the CRC32s, and absurd counts, lengths and values,
 * each an error (never a crash, never an overread: the parses are of
 * exact-length copies).
 */
#include <stdlib.h>
#include <string.h>

#include "bc_endian.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "statistics_util.h"
#include "unit.h"

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

void
suite_statistics_damaged(void)
{
	truncations();
	bit_flips();
	absurd();
}
