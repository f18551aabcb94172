/*
 * fuzz_filter.c - the Filter.db codec and the filter operations
 * (bc_codec.c, bc_filter.c, bc_murmur3.c):
 *
 *   - the input as a Filter.db image: bc_filterdb_check against an
 *     independent model of BloomFilterSerializer; when valid, the deep
 *     checks below, reading the payload as both layouts (raw, swapped);
 *   - a valid image synthesized from the input (hash count from the first
 *     byte, payload from the bytes), so that the deep checks see arbitrary
 *     bitsets too;
 *   - bit indexes for any word count Cassandra can write, and murmur3,
 *     token, popcount and estimate invariants on the input.
 *
 * Deep checks on a valid image (for each layout L):
 *   L -> raw -> L is the identity, in place and out of place;
 *   bc_filterdb_write(raw bits, L) gives back the image byte for byte;
 *   popcounts agree (core vs. naive, before and after conversion);
 *   for a few keys taken from the input and both hash orders:
 *   bc_filter_test == bc_filter_test_hash == a reference bit-index model ==
 *   bc_indexes; adding the key to a copy sets exactly the missing bits and
 *   makes the key present; union / intersection / shape mismatch behave.
 */
#include <math.h>
#include <string.h>

#include "bc_codec.h"
#include "bc_endian.h"
#include "bc_filter.h"
#include "bc_murmur3.h"
#include "bc_status.h"
#include "fuzz.h"

/* Largest synthesized image, in words. */
#define FUZZ_SYNTH_MAX_WORDS 8192

/* Hashes added at once by bc_filter_add_hashes. */
#define FUZZ_BATCH_HASHES 40

static int
bit_get(const uint8_t *bits, uint64_t i)
{
	return (bits[i >> 3] >> (i & 7)) & 1;
}

/* ------------------------------------------------------------------------
 * Reference model of bc_filterdb_check (bc_codec.h; BloomFilterSerializer)
 * ------------------------------------------------------------------------ */
static bc_status
ref_filterdb_check(const uint8_t *d, size_t len, int64_t max_words,
				   int32_t *k_out, int64_t *w_out)
{
	int64_t		k,
				w;

	if (len == 0)
		return BC_ERR_EMPTY;
	if (len < 8)
		return BC_ERR_SHORT_HEADER;
	k = (int32_t) (((uint32_t) d[0] << 24) | ((uint32_t) d[1] << 16) |
				   ((uint32_t) d[2] << 8) | d[3]);
	w = (int32_t) (((uint32_t) d[4] << 24) | ((uint32_t) d[5] << 16) |
				   ((uint32_t) d[6] << 8) | d[7]);
	if (k < BC_MIN_HASH_COUNT || k > BC_MAX_HASH_COUNT)
		return BC_ERR_HASH_COUNT;
	if (w <= 0)
		return BC_ERR_WORD_COUNT;
	*k_out = (int32_t) k;
	*w_out = w;
	if ((uint64_t) (len - 8) < (uint64_t) w * 8)
		return BC_ERR_TRUNCATED;
	if ((uint64_t) (len - 8) > (uint64_t) w * 8)
		return BC_ERR_TRAILING;
	if (w > max_words)
		return BC_ERR_EXCEEDS_VALUE_LIMIT;
	return BC_OK;
}

/* Core vs. model; the order of a length error and the limit is free. */
bc_status
checked_filterdb_check(const uint8_t *d, size_t len, int64_t max_words,
					   int32_t *k, int64_t *w)
{
	int32_t		rk = 0,
				ck = -1;
	int64_t		rw = 0,
				cw = -1;
	bc_status	rs = ref_filterdb_check(d, len, max_words, &rk, &rw);
	bc_status	cs = bc_filterdb_check(d, len, max_words, &ck, &cw);

	if (rs != cs)
	{
		int			len_err = (rs == BC_ERR_TRUNCATED || rs == BC_ERR_TRAILING);

		CHECK(len_err && rw > max_words && cs == BC_ERR_EXCEEDS_VALUE_LIMIT);
	}
	if (cs == BC_OK)
	{
		CHECK(ck == rk && cw == rw);
		CHECK(len == bc_filterdb_size(cw));
		*k = ck;
		*w = cw;
	}
	CHECK(bc_status_message(cs) != NULL);
	return cs;
}


/* Java's abs((base + i * step) % capacity) with wrapping arithmetic. */
static void
ref_indexes(int64_t h1, int64_t h2, int k, int64_t cap, bc_order order,
			int64_t *out)
{
	uint64_t	base = (uint64_t) (order == BC_ORDER_OLD ? h1 : h2);
	uint64_t	step = (uint64_t) (order == BC_ORDER_OLD ? h2 : h1);
	int			i;

	for (i = 0; i < k; i++)
	{
		int64_t		x = (int64_t) (base + (uint64_t) i * step);
		int64_t		r = x % cap;

		out[i] = r < 0 ? -r : r;
	}
}

/*
 * Query and add keys on a filter whose raw bits are f->bits (not modified);
 * checks both hash orders.
 */
static void
check_filter_ops(const bc_filter *f0, const key_ref *keys, int nkeys)
{
	size_t		nbytes = (size_t) f0->word_count * 8;
	int64_t		cap = (int64_t) bc_capacity(f0);
	uint8_t    *copy = xmalloc(nbytes);
	uint8_t    *copy2 = xmalloc(nbytes);
	uint8_t    *expect = xmalloc(nbytes);
	int			o;

	CHECK(cap > 0 && (uint64_t) cap == (uint64_t) f0->word_count * 64);

	for (o = 0; o < 2; o++)
	{
		bc_filter	f = *f0;
		bc_filter	g;
		uint64_t	pop = bc_filter_popcount(f0);
		int			i;

		bc_filter_init(&f, f0->hash_count, f0->word_count,
					   o ? BC_ORDER_OLD : BC_ORDER_NEW, f0->bits);
		memcpy(copy, f.bits, nbytes);
		g = f;
		g.bits = copy;

		/* reference add: expect = the bits with every key's indexes set */
		memcpy(expect, f.bits, nbytes);
		for (i = 0; i < nkeys; i++)
		{
			int64_t		h1,
						h2,
						ri[BC_MAX_HASH_COUNT],
						ci[BC_MAX_HASH_COUNT],
						sw[BC_MAX_HASH_COUNT];
			uint64_t	fi[BC_MAX_HASH_COUNT];
			int			t,
						th,
						tr = 1,
						j;

			bc_murmur3(keys[i].p, keys[i].len, &h1, &h2);
			t = bc_filter_test(&f, keys[i].p, keys[i].len);
			th = bc_filter_test_hash(&f, h1, h2);
			CHECK(t == 0 || t == 1);
			CHECK(t == th);

			ref_indexes(h1, h2, f.hash_count, cap, f.order, ri);
			bc_indexes(h1, h2, f.hash_count, cap, f.order, ci);
			bc_indexes(h2, h1, f.hash_count, cap,
					   f.order == BC_ORDER_OLD ? BC_ORDER_NEW : BC_ORDER_OLD, sw);
			bc_filter_indexes(&f, h1, h2, fi);
			for (j = 0; j < f.hash_count; j++)
			{
				CHECK(ri[j] >= 0 && ri[j] < cap);
				CHECK(ci[j] == ri[j]);
				CHECK(sw[j] == ri[j]);
				CHECK(fi[j] == (uint64_t) ri[j]);
				if (!bit_get(f.bits, (uint64_t) ri[j]))
					tr = 0;
				expect[ri[j] >> 3] |= (uint8_t) (1u << (ri[j] & 7));
			}
			CHECK(t == tr);

			/* add to the copy: the key is then present */
			if (i % 2 == 0)
				bc_filter_add(&g, keys[i].p, keys[i].len);
			else
				bc_filter_add_hash(&g, h1, h2);
			CHECK(bc_filter_test(&g, keys[i].p, keys[i].len) == 1);
			CHECK(bc_filter_test_hash(&g, h1, h2) == 1);
		}
		/* exactly the keys' bits were set */
		CHECK(memcmp(copy, expect, nbytes) == 0);
		CHECK(bc_filter_popcount(&g) == naive_popcount(expect, nbytes));

		/* batch add (more hashes than one batch): same as one by one */
		{
			int64_t		hs[2 * FUZZ_BATCH_HASHES];
			size_t		nh,
						m;
			bc_filter	b = f;

			for (m = 0; m < FUZZ_BATCH_HASHES; m++)
			{
				const key_ref *kr = &keys[m % (size_t) nkeys];

				bc_murmur3(kr->p, kr->len, &hs[2 * m], &hs[2 * m + 1]);
				/* vary the pairs; keep the wrap-around and INT64_MIN cases */
				hs[2 * m] = (int64_t) ((uint64_t) hs[2 * m] + m * UINT64_C(0x9e3779b97f4a7c15));
				hs[2 * m + 1] = m % 5 == 4 ? INT64_MIN : hs[2 * m + 1] ^ (int64_t) m;
			}
			nh = keys[1].len % (FUZZ_BATCH_HASHES + 1);
			memcpy(copy2, f.bits, nbytes);
			memcpy(copy, f.bits, nbytes);
			b.bits = copy2;
			bc_filter_add_hashes(&b, hs, nh);
			g.bits = copy;
			for (m = 0; m < nh; m++)
				bc_filter_add_hash(&g, hs[2 * m], hs[2 * m + 1]);
			CHECK(memcmp(copy, copy2, nbytes) == 0);
			for (m = 0; m < nh; m++)
				CHECK(bc_filter_test_hash(&b, hs[2 * m], hs[2 * m + 1]) == 1);
			/* restore the state the checks below expect */
			memcpy(copy, expect, nbytes);
		}

		/* the copy is a superset: union is a no-op, intersection gives f */
		memcpy(copy2, copy, nbytes);
		{
			bc_filter	u = g;

			u.bits = copy2;
			CHECK(bc_filter_union(&u, &f) == BC_OK);
			CHECK(memcmp(copy2, copy, nbytes) == 0);
			CHECK(bc_filter_intersect(&u, &f) == BC_OK);
			CHECK(memcmp(copy2, f.bits, nbytes) == 0);
			CHECK(bc_filter_same_shape(&u, &f));

			/* a different shape is refused and leaves dst untouched */
			u.hash_count = f.hash_count % BC_MAX_HASH_COUNT + 1;
			memcpy(copy2, copy, nbytes);
			CHECK(!bc_filter_same_shape(&u, &f));
			CHECK(bc_filter_union(&u, &f) == BC_ERR_SHAPE_MISMATCH);
			CHECK(bc_filter_intersect(&u, &f) == BC_ERR_SHAPE_MISMATCH);
			u.hash_count = f.hash_count;
			u.order = f.order == BC_ORDER_OLD ? BC_ORDER_NEW : BC_ORDER_OLD;
			CHECK(bc_filter_union(&u, &f) == BC_ERR_SHAPE_MISMATCH);
			CHECK(memcmp(copy2, copy, nbytes) == 0);
		}

		/* estimates stay in range */
		{
			double		p = bc_fpr_from_fill(pop, (uint64_t) cap, f.hash_count);
			double		q = bc_fpr_theoretical(pop, (uint64_t) cap, f.hash_count);
			double		c = bc_cardinality_from_fill(pop, (uint64_t) cap, f.hash_count);

			CHECK(p >= 0.0 && p <= 1.0);
			CHECK(q >= 0.0 && q <= 1.0);
			CHECK(c >= 0.0 && !isnan(c));
			CHECK((isinf(c) != 0) == (pop >= (uint64_t) cap));
		}
	}
	free(copy);
	free(copy2);
	free(expect);
}

/*
 * Deep checks of a valid Filter.db image img (len = 8 + 8w bytes), whose
 * payload is read in both layouts.
 */
void
check_image(const uint8_t *img, size_t len, int32_t k, int64_t w,
			const key_ref *keys, int nkeys)
{
	size_t		nbytes = (size_t) w * 8;
	const uint8_t *payload = img + BC_FILTERDB_HEADER;
	uint8_t    *raw = xmalloc(nbytes);
	uint8_t    *back = xmalloc(nbytes);
	uint8_t    *inplace = xmalloc(nbytes);
	uint8_t    *out = xmalloc(len);
	uint64_t	pop = naive_popcount(payload, nbytes);
	int			l;

	CHECK(len == BC_FILTERDB_HEADER + nbytes);
	CHECK(bc_popcount(payload, nbytes) == pop);
	CHECK(pop <= (uint64_t) w * 64);

	for (l = 0; l < 2; l++)
	{
		bc_layout	layout = l ? BC_LAYOUT_SWAPPED : BC_LAYOUT_RAW;
		bc_layout	other = l ? BC_LAYOUT_RAW : BC_LAYOUT_SWAPPED;
		bc_filter	f;
		size_t		i;
		int32_t		k2;
		int64_t		w2;

		/* layout -> raw, against the definition */
		memset(raw, 0xa5, nbytes);
		bc_payload_convert(raw, payload, w, layout, BC_LAYOUT_RAW);
		for (i = 0; i < nbytes; i++)
			CHECK(raw[i] == (l ? payload[(i & ~(size_t) 7) + 7 - (i & 7)] : payload[i]));

		/* in place gives the same */
		memcpy(inplace, payload, nbytes);
		bc_payload_convert(inplace, inplace, w, layout, BC_LAYOUT_RAW);
		CHECK(memcmp(inplace, raw, nbytes) == 0);

		/* raw -> layout is the identity round trip, both ways */
		memset(back, 0x5a, nbytes);
		bc_payload_convert(back, raw, w, BC_LAYOUT_RAW, layout);
		CHECK(memcmp(back, payload, nbytes) == 0);
		bc_payload_convert(inplace, inplace, w, BC_LAYOUT_RAW, layout);
		CHECK(memcmp(inplace, payload, nbytes) == 0);

		CHECK(bc_popcount(raw, nbytes) == pop);

		/* writing the raw bits in this layout gives the image back */
		bc_filter_init(&f, k, w, BC_ORDER_NEW, raw);
		CHECK(bc_filter_popcount(&f) == pop);
		memset(out, 0x33, len);
		bc_filterdb_write(&f, layout, out);
		CHECK(memcmp(out, img, len) == 0);

		/* the other layout is a valid image of the same shape */
		bc_filterdb_write(&f, other, out);
		CHECK(checked_filterdb_check(out, len, BC_MAX_WORDS_VALUE, &k2, &w2) == BC_OK);
		CHECK(k2 == k && w2 == w);
		bc_payload_convert(back, out + BC_FILTERDB_HEADER, w, other, BC_LAYOUT_RAW);
		CHECK(memcmp(back, raw, nbytes) == 0);

		/* queries and adds on the bits as read in this layout */
		check_filter_ops(&f, keys, nkeys);
	}

	/* a limit below the word count is enforced */
	CHECK(bc_filterdb_check(img, len, w - 1, &k, &w) == BC_ERR_EXCEEDS_VALUE_LIMIT);

	free(raw);
	free(back);
	free(inplace);
	free(out);
}

/* ------------------------------------------------------------------------
 * Filter.db images: the input itself, and one synthesized from it
 * ------------------------------------------------------------------------ */
void
fuzz_filterdb(const uint8_t *data, size_t len, const key_ref *keys, int nkeys)
{
	int32_t		k = 0;
	int64_t		w = 0;
	bc_status	st;
	int64_t		limits[3];
	int			i;

	st = checked_filterdb_check(data, len, BC_MAX_WORDS_VALUE, &k, &w);
	limits[0] = BC_MAX_WORDS_CASSANDRA;
	limits[1] = len > 0 ? data[len - 1] : 0;
	limits[2] = 0;
	for (i = 0; i < 3; i++)
	{
		int32_t		k2 = 0;
		int64_t		w2 = 0;

		(void) checked_filterdb_check(data, len, limits[i], &k2, &w2);
	}
	if (st == BC_OK)
		check_image(data, len, k, w, keys, nkeys);

	/* a valid image built from the input */
	{
		int64_t		sw = 1 + (int64_t) (len / 8);
		size_t		ilen;
		uint8_t    *img;
		size_t		j;

		if (sw > FUZZ_SYNTH_MAX_WORDS)
			sw = FUZZ_SYNTH_MAX_WORDS;
		ilen = (size_t) bc_filterdb_size(sw);
		img = xmalloc(ilen);
		k = BC_MIN_HASH_COUNT + (len > 0 ? data[0] : 0) %
			(BC_MAX_HASH_COUNT - BC_MIN_HASH_COUNT + 1);
		bc_put_be32(img, (uint32_t) k);
		bc_put_be32(img + 4, (uint32_t) sw);
		for (j = 0; j < ilen - BC_FILTERDB_HEADER; j++)
			img[BC_FILTERDB_HEADER + j] = j < len ? data[j] : 0;
		CHECK(checked_filterdb_check(img, ilen, BC_MAX_WORDS_VALUE, &k, &w) == BC_OK);
		CHECK(w == sw);
		check_image(img, ilen, k, w, keys, nkeys);
		free(img);
	}
}

/* ------------------------------------------------------------------------
 * murmur3 and tokens
 * ------------------------------------------------------------------------ */
void
fuzz_hash(const uint8_t *data, size_t len)
{
	int64_t		h1,
				h2,
				g1,
				g2;
	uint8_t    *shifted = xmalloc(len + 1);

	bc_murmur3(data, len, &h1, &h2);
	memcpy(shifted + 1, data, len);	/* unaligned copy */
	bc_murmur3(shifted + 1, len, &g1, &g2);
	CHECK(h1 == g1 && h2 == g2);
	CHECK(bc_token_from_h1(len, h1) ==
		  (len == 0 ? INT64_MIN : (h1 == INT64_MIN ? INT64_MAX : h1)));
	CHECK(bc_token(data, len) == bc_token_from_h1(len, h1));
	free(shifted);

	/* popcount of any length (tail bytes too) */
	CHECK(bc_popcount(data, len) == naive_popcount(data, len));

	/* estimates on a shape taken from the input (capacity may be 0) */
	if (len >= 4)
	{
		uint64_t	cap = (uint64_t) data[1] * data[2];
		uint64_t	set = cap > 0 ? data[3] % (cap + 1) : 0;
		int			k = data[0] % 32;
		double		p = bc_fpr_from_fill(set, cap, k);
		double		q = bc_fpr_theoretical((uint64_t) data[3] * 1000, cap, k);
		double		c = bc_cardinality_from_fill(set, cap, k);

		CHECK(p >= 0.0 && p <= 1.0);
		CHECK(q >= 0.0 && q <= 1.0);
		CHECK(c >= 0.0 && !isnan(c));
		if (cap == 0)
			CHECK(p == 1.0 && q == 1.0 && c == 0.0);
	}
}

/*
 * Bit indexes for any word count Cassandra can write (no bitset needed):
 * bc_filter_indexes (the filter's fast path) = bc_indexes = the reference
 * formula, for hashes and shapes read from the input in 25-byte windows.
 */
void
fuzz_indexes(const uint8_t *data, size_t len)
{
	size_t		off;
	int			n = 0;

	for (off = 0; off + 25 <= len && n < 16; off += 25, n++)
	{
		const uint8_t *p = data + off;
		uint64_t	x = bc_get_be64(p);
		int64_t		h1 = (int64_t) bc_get_be64(p + 8);
		int64_t		h2 = (int64_t) bc_get_be64(p + 16);
		int			k = BC_MIN_HASH_COUNT + p[24] % BC_MAX_HASH_COUNT;
		int64_t		w;
		int			o;

		switch ((p[24] >> 5) & 3)
		{
			case 0:
				w = (int64_t) (x % (uint64_t) BC_MAX_WORDS_CASSANDRA) + 1;
				break;
			case 1:
				w = (int64_t) 1 << (x % 31);
				break;
			case 2:
				w = BC_MAX_WORDS_CASSANDRA - (int64_t) (x % 4096);
				break;
			default:
				w = (int64_t) (x % 4096) + 1;
				break;
		}
		for (o = 0; o < 2; o++)
		{
			bc_order	order = o ? BC_ORDER_OLD : BC_ORDER_NEW;
			bc_filter	f;
			int64_t		ri[BC_MAX_HASH_COUNT],
						ci[BC_MAX_HASH_COUNT];
			uint64_t	fi[BC_MAX_HASH_COUNT];
			int			j;

			bc_filter_init(&f, k, w, order, NULL);
			CHECK(bc_capacity(&f) == (uint64_t) w * 64);
			ref_indexes(h1, h2, k, w * 64, order, ri);
			bc_indexes(h1, h2, k, w * 64, order, ci);
			bc_filter_indexes(&f, h1, h2, fi);
			for (j = 0; j < k; j++)
			{
				CHECK(ri[j] >= 0 && ri[j] < w * 64);
				CHECK(ci[j] == ri[j]);
				CHECK(fi[j] == (uint64_t) ri[j]);
			}
		}
	}
}

