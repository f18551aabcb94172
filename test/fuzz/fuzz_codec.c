/*
 * fuzz_codec.c - libFuzzer target for the bloomcass core (src/core).
 *
 * Build and run it with test/fuzz/run-short.sh (or run-long.sh), which
 * compiles every src/core .c file with this one, from the repository root:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
 *       -Isrc/core src/core/[every .c] test/fuzz/fuzz_codec.c -lm
 *
 * Every input is run through all of the following (each is cheap), so the
 * seeds (real Filter.db files, the type's binary and hex text forms, file
 * names, numbers) reach their own paths without a mode byte:
 *
 *   1. the input as a Filter.db image: bc_filterdb_check against an
 *      independent model; when valid, the deep checks below, reading the
 *      payload as both layouts (raw and swapped);
 *   2. a valid Filter.db image synthesized from the input (hash count from
 *      the first byte, payload from the bytes), so that the deep checks see
 *      arbitrary bitsets too;
 *   3. the input as the bloom type's binary form (bloom_recv) and as its
 *      text form (bloom_in), through a PostgreSQL-free replica of
 *      bloom_validate / bloom_from_external / bloom_in (src/bloom_io.c);
 *      valid values get the deep checks and an output/input round trip;
 *   4. the input as an SSTable version and as a Filter.db file name;
 *   5. the input as varint and decimal text, with exact, too small and
 *      large output buffers;
 *   6. the input split into composite key components;
 *   7. murmur3 / token invariants on the input;
 *   8. the input (and, for a path, its last part and the folder before it)
 *      as an SSTable component name and a table folder;
 *   9-11. the input as <version selector> <chunking> <file>: a
 *      Statistics.db, an Index.db (whole, and through the cursor in chunks
 *      sized by the chunking byte, which must agree) and a Summary.db of the
 *      version fuzz_versions[byte 0 % its size] (supported and refused
 *      versions);
 *   12. the input as a BTI Partitions.db (its footer and first and last
 *      keys), whole and through the two-step API, and as the keys alone;
 *   13. the input as a whole transaction log and each of its lines as a
 *      record, and the input as a log's file name and as a data
 *      directory's folder path.
 *
 * Deep checks on a valid image (for each layout L):
 *   L -> raw -> L is the identity, in place and out of place;
 *   bc_filterdb_write(raw bits, L) gives back the image byte for byte;
 *   popcounts agree (core vs. naive, before and after conversion);
 *   for a few keys taken from the input and both hash orders:
 *   bc_filter_test == bc_filter_test_hash == a reference bit-index model ==
 *   bc_indexes; adding the key to a copy sets exactly the missing bits and
 *   makes the key present; union / intersection / shape mismatch behave.
 *
 * Any violated invariant calls abort() after printing what failed.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_codec.h"
#include "bc_endian.h"
#include "bc_filter.h"
#include "bc_index.h"
#include "bc_keys.h"
#include "bc_murmur3.h"
#include "bc_partitions.h"
#include "bc_sstable_dir.h"
#include "bc_sstable_name.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "bc_summary.h"
#include "bc_txn_log.h"

/* Refuse inputs (and so images) over 64 MB: the fuzzer must not OOM. */
#define FUZZ_MAX_INPUT ((size_t) 64 * 1024 * 1024)

/* Largest synthesized image, in words. */
#define FUZZ_SYNTH_MAX_WORDS 8192

/* Keys tested per image; hashes added at once by bc_filter_add_hashes. */
#define FUZZ_NKEYS 6
#define FUZZ_BATCH_HASHES 40

/* Composite components at most (the rest stays in the last one). */
#define FUZZ_MAX_COMPONENTS 256

/* Mirrors of bc_keys.c's limits (not in the header). */
#define REF_MAX_NUMBER_DIGITS (131072 + 16383)
#define REF_MAX_KEY_BYTES 65535

#define CHECK(cond) \
	do { \
		if (!(cond)) \
		{ \
			fprintf(stderr, "fuzz_codec: invariant failed at %s:%d: %s\n", \
					__FILE__, __LINE__, #cond); \
			abort(); \
		} \
	} while (0)

static void *
xmalloc(size_t n)
{
	void	   *p = malloc(n > 0 ? n : 1);

	if (p == NULL)
		abort();
	return p;
}

/*
 * An output buffer of exactly cap bytes, so that ASan flags any write past
 * it.  For cap 0 the pointer is one past a 1-byte block: any write through
 * it is caught as well.
 */
typedef struct exact_buf
{
	uint8_t    *base;
	uint8_t    *p;
} exact_buf;

static exact_buf
exact_alloc(size_t cap)
{
	exact_buf	b;

	b.base = xmalloc(cap);
	b.p = cap > 0 ? b.base : b.base + 1;
	return b;
}

static uint64_t
naive_popcount(const uint8_t *p, size_t n)
{
	uint64_t	c = 0;
	size_t		i;

	for (i = 0; i < n; i++)
	{
		unsigned	v = p[i];

		while (v)
		{
			c += v & 1;
			v >>= 1;
		}
	}
	return c;
}

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
static bc_status
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

/* ------------------------------------------------------------------------
 * Keys taken from the input
 * ------------------------------------------------------------------------ */
typedef struct key_ref
{
	const uint8_t *p;
	size_t		len;
} key_ref;

static int
pick_keys(const uint8_t *data, size_t len, key_ref *keys)
{
	int			n = 0;
	int			i;

	keys[n].p = data;			/* empty key */
	keys[n++].len = 0;
	keys[n].p = data;			/* the whole input, capped */
	keys[n++].len = len < 4096 ? len : 4096;
	for (i = 0; n < FUZZ_NKEYS && len > 0; i++)
	{
		size_t		off = ((size_t) data[(size_t) i % len] * 7 + (size_t) i * 13) % (len + 1);
		size_t		klen = (size_t) data[((size_t) i + 1) % len] % 64;

		if (klen > len - off)
			klen = len - off;
		keys[n].p = data + off;
		keys[n++].len = klen;
	}
	return n;
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
static void
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
 * Replica of the bloom type's input validation (src/bloom_io.c).
 *
 * This mirrors, without PostgreSQL, exactly:
 *   bloom_recv:          bloom_from_external(all remaining bytes)
 *   bloom_in:            "\x" prefix, even digit count, size limit, every
 *                        character a hex digit, hex_decode, then
 *                        bloom_from_external
 *   bloom_from_external: 1 GB size limit, then bloom_validate
 *   bloom_validate:      VARSIZE >= BLOOM_HDRSZ (>= 4 value bytes),
 *                        format == BLOOM_FORMAT_VERSION (1), no flag but
 *                        BLOOM_FLAG_OLD_ORDER (0x01), reserved uint16 == 0,
 *                        bc_filterdb_check(filterdb, len - 4,
 *                        BC_MAX_WORDS_VALUE)
 * Keep it in step with bloom_io.c.
 * ------------------------------------------------------------------------ */
#define REPL_VARHDRSZ 4
#define REPL_FORMAT_VERSION 1
#define REPL_FLAG_OLD_ORDER 0x01
#define REPL_FLAGS_KNOWN REPL_FLAG_OLD_ORDER
#define REPL_HDR_AFTER_VARLENA 4	/* format, flags, reserved[2] */

typedef enum repl_status
{
	REPL_OK = 0,
	REPL_NO_PREFIX,				/* bloom_in: not "\x..." */
	REPL_ODD_DIGITS,			/* bloom_in: odd number of hex digits */
	REPL_BAD_DIGIT,				/* bloom_in: not a hex digit */
	REPL_TOO_LARGE,				/* over the 1 GB value limit */
	REPL_SHORT,					/* shorter than the format header */
	REPL_FORMAT,				/* unknown format version */
	REPL_FLAGS,					/* unknown flags */
	REPL_RESERVED,				/* reserved bytes not zero */
	REPL_FILTERDB				/* bc_filterdb_check failed */
} repl_status;

/* bloom_validate on value bytes v[0..len) (what follows the varlena header) */
static repl_status
repl_validate(const uint8_t *v, size_t len, bc_status *st,
			  int32_t *k, int64_t *w)
{
	if (len + REPL_VARHDRSZ < (size_t) BC_VALUE_PREFIX)
		return REPL_SHORT;
	if (v[0] != REPL_FORMAT_VERSION)
		return REPL_FORMAT;
	if ((v[1] & ~REPL_FLAGS_KNOWN) != 0)
		return REPL_FLAGS;
	if (v[2] != 0 || v[3] != 0)
		return REPL_RESERVED;
	*st = checked_filterdb_check(v + REPL_HDR_AFTER_VARLENA, len - REPL_HDR_AFTER_VARLENA,
								 BC_MAX_WORDS_VALUE, k, w);
	if (*st != BC_OK)
		return REPL_FILTERDB;
	return REPL_OK;
}

/* bloom_from_external */
static repl_status
repl_from_external(const uint8_t *data, size_t len, bc_status *st,
				   int32_t *k, int64_t *w)
{
	if (len > (size_t) (BC_MAX_VALUE_BYTES - REPL_VARHDRSZ))
		return REPL_TOO_LARGE;
	return repl_validate(data, len, st, k, w);
}

/* bloom_recv */
static repl_status
repl_recv(const uint8_t *data, size_t len, bc_status *st, int32_t *k, int64_t *w)
{
	return repl_from_external(data, len, st, k, w);
}

/* isxdigit() in the C locale */
static int
repl_isxdigit(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int
hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return c - 'A' + 10;
}

/*
 * bloom_in on the C string str (NUL-terminated, as PostgreSQL passes it).
 * On REPL_OK and on the validation statuses, *bytes (malloc'ed, caller
 * frees) and *nbytes hold the decoded value bytes.
 */
static repl_status
repl_in(const char *str, uint8_t **bytes, size_t *nbytes, bc_status *st,
		int32_t *k, int64_t *w)
{
	size_t		len = strlen(str);
	size_t		n,
				i;
	uint8_t    *buf;

	*bytes = NULL;
	if (len < 2 || str[0] != '\\' || str[1] != 'x')
		return REPL_NO_PREFIX;
	str += 2;
	len -= 2;
	if (len % 2 != 0)
		return REPL_ODD_DIGITS;
	n = len / 2;
	if (n > (size_t) (BC_MAX_VALUE_BYTES - REPL_VARHDRSZ))
		return REPL_TOO_LARGE;
	for (i = 0; i < len; i++)
		if (!repl_isxdigit((unsigned char) str[i]))
			return REPL_BAD_DIGIT;
	buf = xmalloc(n);
	for (i = 0; i < n; i++)
		buf[i] = (uint8_t) (hexval((unsigned char) str[2 * i]) * 16 +
							hexval((unsigned char) str[2 * i + 1]));
	*bytes = buf;
	*nbytes = n;
	return repl_from_external(buf, n, st, k, w);
}

/* bloom_out: "\x" + lower-case hex, NUL-terminated (malloc'ed) */
static char *
repl_out(const uint8_t *v, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	char	   *s = xmalloc(2 * len + 3);
	size_t		i;

	s[0] = '\\';
	s[1] = 'x';
	for (i = 0; i < len; i++)
	{
		s[2 + 2 * i] = hex[v[i] >> 4];
		s[3 + 2 * i] = hex[v[i] & 15];
	}
	s[2 * len + 2] = '\0';
	return s;
}

/*
 * A valid type value v[0..len): deep checks of its (raw) image, text
 * output/input round trip, and Filter.db export/import round trip in both
 * layouts (bloom_from_filterdb: check, then convert to raw).
 */
static void
check_value(const uint8_t *v, size_t len, int32_t k, int64_t w,
			const key_ref *keys, int nkeys)
{
	const uint8_t *img = v + REPL_HDR_AFTER_VARLENA;
	size_t		ilen = len - REPL_HDR_AFTER_VARLENA;
	char	   *text;
	uint8_t    *dec = NULL;
	size_t		ndec = 0;
	bc_status	st = BC_OK;
	int32_t		k2 = 0;
	int64_t		w2 = 0;
	uint8_t    *exp_img = xmalloc(ilen);
	uint8_t    *imp = xmalloc(len);
	bc_filter	f;
	int			l;

	check_image(img, ilen, k, w, keys, nkeys);

	/* text round trip */
	text = repl_out(v, len);
	CHECK(repl_in(text, &dec, &ndec, &st, &k2, &w2) == REPL_OK);
	CHECK(ndec == len && memcmp(dec, v, len) == 0 && k2 == k && w2 == w);
	free(dec);
	free(text);

	/* export in each layout, then import as bloom_from_filterdb does */
	bc_filter_init(&f, k, w, (v[1] & REPL_FLAG_OLD_ORDER) ? BC_ORDER_OLD : BC_ORDER_NEW,
				   (uint8_t *) img + BC_FILTERDB_HEADER);
	for (l = 0; l < 2; l++)
	{
		bc_layout	layout = l ? BC_LAYOUT_SWAPPED : BC_LAYOUT_RAW;

		bc_filterdb_write(&f, layout, exp_img);
		CHECK(checked_filterdb_check(exp_img, ilen, BC_MAX_WORDS_VALUE, &k2, &w2) == BC_OK);
		memcpy(imp, v, REPL_HDR_AFTER_VARLENA);
		bc_put_be32(imp + REPL_HDR_AFTER_VARLENA, (uint32_t) k2);
		bc_put_be32(imp + REPL_HDR_AFTER_VARLENA + 4, (uint32_t) w2);
		bc_payload_convert(imp + REPL_HDR_AFTER_VARLENA + BC_FILTERDB_HEADER,
						   exp_img + BC_FILTERDB_HEADER, w2, layout, BC_LAYOUT_RAW);
		CHECK(memcmp(imp, v, len) == 0);
	}
	free(exp_img);
	free(imp);
}

static void
fuzz_type(const uint8_t *data, size_t len, const key_ref *keys, int nkeys)
{
	bc_status	st = BC_OK,
				st2 = BC_OK;
	int32_t		k = 0,
				k2 = 0;
	int64_t		w = 0,
				w2 = 0;
	repl_status rs;
	char	   *str;
	uint8_t    *dec = NULL;
	size_t		ndec = 0;

	/* binary receive */
	rs = repl_recv(data, len, &st, &k, &w);
	if (rs == REPL_OK)
		check_value(data, len, k, w, keys, nkeys);

	/* text input: the input as a C string (up to its first NUL) */
	str = xmalloc(len + 1);
	memcpy(str, data, len);
	str[len] = '\0';
	rs = repl_in(str, &dec, &ndec, &st, &k, &w);
	if (dec != NULL)
	{
		/* text input and binary receive agree on the decoded bytes */
		CHECK(repl_recv(dec, ndec, &st2, &k2, &w2) == rs);
		if (rs == REPL_FILTERDB)
			CHECK(st2 == st);
		if (rs == REPL_OK)
		{
			char	   *out;

			CHECK(k2 == k && w2 == w);
			check_value(dec, ndec, k, w, keys, nkeys);
			/* text output is the lower-case form of the input */
			out = repl_out(dec, ndec);
			CHECK(strlen(out) == strlen(str));
			{
				size_t		i;

				for (i = 0; out[i]; i++)
					CHECK(out[i] == str[i] ||
						  (str[i] >= 'A' && str[i] <= 'F' && out[i] == str[i] - 'A' + 'a'));
			}
			free(out);
		}
		free(dec);
	}
	else
		CHECK(rs == REPL_NO_PREFIX || rs == REPL_ODD_DIGITS ||
			  rs == REPL_BAD_DIGIT || rs == REPL_TOO_LARGE);
	free(str);
}

/* ------------------------------------------------------------------------
 * Filter.db images: the input itself, and one synthesized from it
 * ------------------------------------------------------------------------ */
static void
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
 * Versions and file names
 * ------------------------------------------------------------------------ */
static int
is_trie_version(const char *v, size_t len)
{
	return len == 2 && ((v[0] == 'd' && v[1] == 'a') || (v[0] == 'b' && v[1] == 'b'));
}

static void
fuzz_names(const uint8_t *data, size_t len)
{
	const char *s = (const char *) data;
	bc_order	vo = BC_ORDER_NEW,
				fo = BC_ORDER_NEW;
	bc_layout	vl = BC_LAYOUT_RAW,
				fl = BC_LAYOUT_RAW;
	char		ver[3] = {'?', '?', '?'};
	bc_status	vs,
				fs;

	/* the input as a version */
	vs = bc_version_lookup(s, len, &vo, &vl);
	CHECK(vs == BC_OK || vs == BC_ERR_VERSION_UNKNOWN || vs == BC_ERR_VERSION_UNSUPPORTED);
	if (vs == BC_OK)
	{
		CHECK(len == 2);
		CHECK(vo == BC_ORDER_NEW || vo == BC_ORDER_OLD);
		CHECK(vl == BC_LAYOUT_RAW || vl == BC_LAYOUT_SWAPPED);
		/* the old hash order only comes with the swapped layout */
		CHECK(vo == BC_ORDER_NEW || vl == BC_LAYOUT_SWAPPED);
	}

	/* the input as a file name or path */
	fs = bc_file_name_lookup(s, len, ver, &fo, &fl);
	CHECK(fs == BC_OK || fs == BC_ERR_FILE_NAME || fs == BC_ERR_VERSION_UNKNOWN ||
		  fs == BC_ERR_VERSION_UNSUPPORTED || fs == BC_ERR_FORMAT_MISMATCH);
	if (fs == BC_OK)
	{
		bc_order	o2;
		bc_layout	l2;

		CHECK(ver[2] == '\0');
		CHECK(len > 10 && memcmp(s + len - 10, "-Filter.db", 10) == 0);
		CHECK(bc_version_lookup(ver, 2, &o2, &l2) == BC_OK);
		CHECK(o2 == fo && l2 == fl);
	}

	/* a directory in front changes nothing */
	if (len < 4096)
	{
		char	   *p = xmalloc(len + 6);
		char		ver2[3] = {'?', '?', '?'};
		bc_order	o2 = BC_ORDER_NEW;
		bc_layout	l2 = BC_LAYOUT_RAW;
		bc_status	s2;

		memcpy(p, "/d/x/", 5);
		memcpy(p + 5, s, len);
		s2 = bc_file_name_lookup(p, len + 5, ver2, &o2, &l2);
		CHECK(s2 == fs);
		if (fs == BC_OK)
			CHECK(memcmp(ver, ver2, 3) == 0 && o2 == fo && l2 == fl);
		free(p);
	}

	/* the input as the version part of the three name shapes */
	if (len <= 8 && memchr(s, '-', len) == NULL && memchr(s, '/', len) == NULL)
	{
		static const char *const pre[3] = {"", "", "ks-tb-"};
		static const char *const post[3] = {"-7-big-Filter.db", "-7-bti-Filter.db",
		"-7-Filter.db"};
		int			i;

		for (i = 0; i < 3; i++)
		{
			char		name[64];
			size_t		pl = strlen(pre[i]),
						ql = strlen(post[i]);
			char		ver2[3] = {'?', '?', '?'};
			bc_order	o2 = BC_ORDER_NEW;
			bc_layout	l2 = BC_LAYOUT_RAW;
			bc_status	s2;
			int			want_bti = (i == 1);

			memcpy(name, pre[i], pl);
			memcpy(name + pl, s, len);
			memcpy(name + pl + len, post[i], ql);
			s2 = bc_file_name_lookup(name, pl + len + ql, ver2, &o2, &l2);
			if (vs != BC_OK)
				CHECK(s2 == vs);
			else if (is_trie_version(s, len) != want_bti)
				CHECK(s2 == BC_ERR_FORMAT_MISMATCH);
			else
			{
				CHECK(s2 == BC_OK);
				CHECK(ver2[0] == s[0] && ver2[1] == s[1] && ver2[2] == '\0');
				CHECK(o2 == vo && l2 == vl);
			}
		}
	}
}

/* ------------------------------------------------------------------------
 * varint and decimal text
 * ------------------------------------------------------------------------ */

/* Minimal big-endian two's complement of v (BigInteger.toByteArray). */
static size_t
ref_twos(int64_t v, uint8_t out[8])
{
	size_t		n = 1;
	int			i;

	while (n < 8)
	{
		int64_t		lo = -((int64_t) 1 << (8 * n - 1));
		int64_t		hi = ((int64_t) 1 << (8 * n - 1)) - 1;

		if (v >= lo && v <= hi)
			break;
		n++;
	}
	for (i = 0; i < (int) n; i++)
		out[i] = (uint8_t) ((uint64_t) v >> (8 * (n - 1 - (size_t) i)));
	return n;
}

static int
isdig(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Reference acceptance of varint / decimal text (BigInteger(String),
 * BigDecimal(String) as the header documents them).  Returns the status
 * the core must give with a large enough buffer; when *small is set the
 * value fits int64: *unscaled, *scale hold it.
 */
static bc_status
ref_number(const char *t, size_t len, int decimal, int *small,
		   int64_t *unscaled, int64_t *scale)
{
	size_t		i = 0,
				ndigits = 0,
				nfrac = 0,
				sig = 0;
	int			neg = 0,
				dot = 0;
	uint64_t	mag = 0;
	int64_t		exp = 0;

	*small = 0;
	if (i < len && (t[i] == '+' || t[i] == '-'))
		neg = t[i++] == '-';
	for (; i < len; i++)
	{
		if (isdig(t[i]))
		{
			ndigits++;
			if (dot)
				nfrac++;
			if (sig > 0 || t[i] != '0')
				sig++;
			if (sig <= 18)
				mag = mag * 10 + (uint64_t) (t[i] - '0');
		}
		else if (decimal && t[i] == '.' && !dot)
			dot = 1;
		else
			break;
	}
	if (ndigits == 0)
		return BC_ERR_NUMBER_SYNTAX;
	if (i < len)
	{
		int			eneg = 0;
		size_t		edigits = 0;

		if (!decimal || (t[i] != 'e' && t[i] != 'E'))
			return BC_ERR_NUMBER_SYNTAX;
		i++;
		if (i < len && (t[i] == '+' || t[i] == '-'))
			eneg = t[i++] == '-';
		for (; i < len; i++)
		{
			if (!isdig(t[i]))
				return BC_ERR_NUMBER_SYNTAX;
			edigits++;
			if (exp < INT64_C(100000000000000))		/* saturate */
				exp = exp * 10 + (t[i] - '0');
		}
		if (edigits == 0)
			return BC_ERR_NUMBER_SYNTAX;
		if (eneg)
			exp = -exp;
		if (exp < INT32_MIN || exp > INT32_MAX)
			return BC_ERR_NUMBER_RANGE;
	}
	if (decimal)
	{
		int64_t		sc = (int64_t) nfrac - exp;

		if (sc < INT32_MIN || sc > INT32_MAX)
			return BC_ERR_NUMBER_RANGE;
		*scale = sc;
	}
	if (sig > REF_MAX_NUMBER_DIGITS)
		return BC_ERR_NUMBER_RANGE;
	if (sig <= 18)
	{
		*small = 1;
		*unscaled = neg ? -(int64_t) mag : (int64_t) mag;
	}
	return BC_OK;
}

typedef bc_status (*number_fn) (const char *, size_t, uint8_t *, size_t, size_t *);

static bc_status
call_number(number_fn fn, const char *t, size_t len, size_t cap,
			uint8_t *copy_out, size_t *outlen)
{
	exact_buf	b = exact_alloc(cap);
	size_t		n = (size_t) -1;
	bc_status	st = fn(t, len, b.p, cap, &n);

	if (st == BC_OK)
	{
		CHECK(n <= cap);
		CHECK(n >= 1);
		if (copy_out != NULL)
			memcpy(copy_out, b.p, n);
		*outlen = n;
	}
	free(b.base);
	return st;
}

static void
fuzz_numbers(const uint8_t *data, size_t len)
{
	const char *t = (const char *) data;
	int			decimal;

	for (decimal = 0; decimal < 2; decimal++)
	{
		number_fn	fn = decimal ? bc_ser_decimal_text : bc_ser_varint_text;
		size_t		big = 4 + len / 2 + 16;	/* enough for any result */
		uint8_t    *res = xmalloc(big);
		uint8_t    *res2 = xmalloc(big);
		size_t		n = 0,
					n2 = 0;
		int			small;
		int64_t		unscaled = 0,
					scale = 0;
		bc_status	want = ref_number(t, len, decimal, &small, &unscaled, &scale);
		bc_status	st = call_number(fn, t, len, big, res, &n);
		size_t		caps[4];
		int			i;

		CHECK(st == want);
		CHECK(fn(NULL, len, res2, big, &n2) == BC_ERR_NUMBER_SYNTAX);
		if (st == BC_OK && small)
		{
			uint8_t		ref[12];
			size_t		rn = 0;

			if (decimal)
			{
				bc_put_be32(ref, (uint32_t) (int32_t) scale);
				rn = 4;
			}
			rn += ref_twos(unscaled, ref + rn);
			CHECK(n == rn && memcmp(res, ref, rn) == 0);
		}

		/* other capacities: OK iff the result fits, same bytes; same error */
		caps[0] = len > 0 ? data[len - 1] % 24 : 0;
		caps[1] = 0;
		caps[2] = st == BC_OK ? n : 3;
		caps[3] = st == BC_OK ? n - 1 : 5;
		for (i = 0; i < 4; i++)
		{
			bc_status	s2 = call_number(fn, t, len, caps[i], res2, &n2);

			if (st != BC_OK)
				CHECK(s2 == st);
			else if (caps[i] >= n)
				CHECK(s2 == BC_OK && n2 == n && memcmp(res2, res, n) == 0);
			else
				CHECK(s2 == BC_ERR_BUFFER);
		}
		free(res);
		free(res2);
	}
}

/* ------------------------------------------------------------------------
 * Composite keys
 * ------------------------------------------------------------------------ */
static void
fuzz_composite(const uint8_t *data, size_t len)
{
	const uint8_t *comps[FUZZ_MAX_COMPONENTS];
	size_t		lens[FUZZ_MAX_COMPONENTS];
	int			n = 0;
	size_t		i,
				start,
				total = 0;
	int			too_long = 0;
	uint8_t		sep;
	uint8_t    *ref;
	size_t		pos = 0;
	size_t		caps[4];
	int			c;

	if (len == 0)
	{
		size_t		ol = 0;
		uint8_t		b[4];

		CHECK(bc_ser_composite(NULL, NULL, 0, b, sizeof(b), &ol) == BC_ERR_BUFFER);
		CHECK(bc_composite_size(NULL, 0) == 0);
		return;
	}

	/* components: data[1..] split on the byte data[0] */
	sep = data[0];
	start = 1;
	for (i = 1; i <= len; i++)
	{
		if ((i == len || data[i] == sep) && n < FUZZ_MAX_COMPONENTS - 1)
		{
			comps[n] = i > start ? data + start : NULL;
			lens[n++] = i - start;
			start = i + 1;
		}
	}
	if (start <= len)
	{
		comps[n] = len > start ? data + start : NULL;
		lens[n++] = len - start;
	}

	for (c = 0; c < n; c++)
	{
		if (lens[c] > REF_MAX_KEY_BYTES)
			too_long = 1;
		total += lens[c] + 3;
		if (total > REF_MAX_KEY_BYTES)
			too_long = 1;
	}
	CHECK(bc_composite_size(lens, n) == total);

	ref = xmalloc(total);
	for (c = 0; c < n; c++)
	{
		ref[pos++] = (uint8_t) (lens[c] >> 8);
		ref[pos++] = (uint8_t) lens[c];
		if (lens[c] > 0)
			memcpy(ref + pos, comps[c], lens[c]);
		pos += lens[c];
		ref[pos++] = 0;
	}

	caps[0] = total;
	caps[1] = total - 1;
	caps[2] = data[len - 1];
	caps[3] = total + 64;
	for (c = 0; c < 4; c++)
	{
		exact_buf	b = exact_alloc(caps[c]);
		size_t		ol = (size_t) -1;
		bc_status	st = bc_ser_composite(comps, lens, n, b.p, caps[c], &ol);

		if (too_long)
			CHECK(st == BC_ERR_KEY_TOO_LONG);
		else if (caps[c] < total)
			CHECK(st == BC_ERR_BUFFER);
		else
		{
			CHECK(st == BC_OK);
			CHECK(ol == total && ol <= caps[c]);
			CHECK(memcmp(b.p, ref, total) == 0);
		}
		free(b.base);
	}
	CHECK(bc_ser_composite(comps, lens, 0, ref, total, &pos) == BC_ERR_BUFFER);
	free(ref);
}

/* ------------------------------------------------------------------------
 * murmur3 and tokens
 * ------------------------------------------------------------------------ */
static void
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
static void
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

/* ------------------------------------------------------------------------
 * SSTable component names, Statistics.db, Index.db, Summary.db
 *
 * The three file stages read the input as <version selector> <chunking>
 * <file>: byte 0 picks a version of fuzz_versions (keep its order in step
 * with run-short.sh, which prefixes the real files' seeds with it), byte 1
 * the chunk sizes of the Index.db cursor, the rest is the file.
 * ------------------------------------------------------------------------ */

/* what bc_statistics_parse must set on success; -1: a refused version */
#define SV_REFUSED	-1
#define SV_LEGACY_12 0			/* ia .. ic: no fp_chance */
#define SV_LEGACY_20 1			/* ja, jb */
#define SV_TOC		2			/* ka .. lb */
#define SV_HEADER	3			/* ma .. me, ms, mt: and a key type */
#define SV_CRC		4			/* na .. oa, da, bb: and checksummed */

typedef struct fuzz_version
{
	const char *v;
	int			stats;			/* SV_* */
	int			era;			/* bc_index_era, or -1: no Index.db */
} fuzz_version;

static const fuzz_version fuzz_versions[] = {
	{"ia", SV_LEGACY_12, BC_INDEX_ERA_12}, {"ib", SV_LEGACY_12, BC_INDEX_ERA_12},
	{"ic", SV_LEGACY_12, BC_INDEX_ERA_12}, {"ja", SV_LEGACY_20, BC_INDEX_ERA_20},
	{"jb", SV_LEGACY_20, BC_INDEX_ERA_20}, {"ka", SV_TOC, BC_INDEX_ERA_21},
	{"la", SV_TOC, BC_INDEX_ERA_21}, {"lb", SV_TOC, BC_INDEX_ERA_21},
	{"ma", SV_HEADER, BC_INDEX_ERA_30}, {"mb", SV_HEADER, BC_INDEX_ERA_30},
	{"mc", SV_HEADER, BC_INDEX_ERA_30}, {"md", SV_HEADER, BC_INDEX_ERA_30},
	{"me", SV_HEADER, BC_INDEX_ERA_30}, {"ms", SV_HEADER, -1},
	{"mt", SV_HEADER, -1}, {"na", SV_CRC, BC_INDEX_ERA_30},
	{"nb", SV_CRC, BC_INDEX_ERA_30}, {"nc", SV_CRC, BC_INDEX_ERA_30},
	{"oa", SV_CRC, BC_INDEX_ERA_30}, {"da", SV_CRC, -1}, {"bb", SV_CRC, -1},
	/* refused: pre-1.2, other trie versions, unknown, malformed */
	{"hb", SV_REFUSED, -1}, {"e", SV_REFUSED, -1}, {"aa", SV_REFUSED, -1},
	{"ca", SV_REFUSED, -1}, {"mf", SV_REFUSED, -1}, {"pa", SV_REFUSED, -1},
	{"zz", SV_REFUSED, -1}, {"m", SV_REFUSED, -1}, {"", SV_REFUSED, -1},
	{"nab", SV_REFUSED, -1}, {"Ma", SV_REFUSED, -1},
};

#define FUZZ_NVERSIONS ((int) (sizeof(fuzz_versions) / sizeof(fuzz_versions[0])))

static const fuzz_version *
pick_version(const uint8_t *data, size_t len)
{
	return &fuzz_versions[(len > 0 ? data[0] : 0) % FUZZ_NVERSIONS];
}

/* [p, p + n) lies inside [base, base + len) */
static int
inside(const void *p, size_t n, const uint8_t *base, size_t len)
{
	const uint8_t *q = p;

	return q >= base && q <= base + len && n <= (size_t) (base + len - q);
}

static int
is_printable(const uint8_t *s, size_t n)
{
	size_t		i;

	for (i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return 0;
	return 1;
}

static void
check_sstable_name(const char *s, size_t len)
{
	bc_sstable_name n;
	bc_status	st = bc_sstable_name_parse(s, len, &n);
	const uint8_t *u = (const uint8_t *) s;
	size_t		i;

	CHECK(st == BC_OK || st == BC_ERR_SSTABLE_NAME);
	if (st != BC_OK)
		return;
	CHECK(inside(n.version, n.version_len, u, len));
	CHECK(inside(n.generation, n.generation_len, u, len));
	CHECK(inside(n.component, n.component_len, u, len));
	CHECK(n.descriptor_len < len && s[n.descriptor_len] == '-');
	CHECK(n.component == s + n.descriptor_len + 1);
	CHECK(n.component_len == len - n.descriptor_len - 1);
	CHECK(memchr(n.component, '-', n.component_len) == NULL);
	CHECK(n.version_len == 1 || n.version_len == 2);
	for (i = 0; i < n.version_len; i++)
		CHECK(n.version[i] >= 'a' && n.version[i] <= 'z');
	CHECK(n.version < n.generation && n.generation + n.generation_len < n.component);
	if (n.uuid_generation)
		CHECK(n.generation_len == 28);
	else
	{
		/* digits, leading zeros of any number (Integer.parseInt,
		 * from_chars) */
		CHECK(n.generation_len > 0);
		for (i = 0; i < n.generation_len; i++)
			CHECK(n.generation[i] >= '0' && n.generation[i] <= '9');
	}
	CHECK(n.format == BC_SSTABLE_BIG || n.format == BC_SSTABLE_BTI);
	CHECK(n.legacy == 0 || n.legacy == 1);
	CHECK(n.temporary == 0 || n.temporary == 1);
	if (n.legacy)
	{
		CHECK(inside(n.keyspace, n.keyspace_len, u, len) && n.keyspace == s);
		CHECK(inside(n.table, n.table_len, u, len) && n.table_len > 0);
		CHECK(n.keyspace_len > 0 && n.table + n.table_len < n.version);
		CHECK(n.format == BC_SSTABLE_BIG && !n.uuid_generation);
	}
	else
		CHECK(n.keyspace == NULL && n.table == NULL &&
			  n.keyspace_len == 0 && n.table_len == 0);

	/* another component of the same SSTable: the same descriptor */
	if (len < 4096)
	{
		char	   *o = xmalloc(n.descriptor_len + 9);
		bc_sstable_name m;

		memcpy(o, s, n.descriptor_len);
		memcpy(o + n.descriptor_len, "-Data.db", 8);
		CHECK(bc_sstable_name_parse(o, n.descriptor_len + 8, &m) == BC_OK);
		CHECK(m.descriptor_len == n.descriptor_len && m.legacy == n.legacy &&
			  m.temporary == n.temporary && m.format == n.format &&
			  m.uuid_generation == n.uuid_generation);
		CHECK(m.version - o == n.version - s && m.version_len == n.version_len);
		CHECK(m.generation - o == n.generation - s &&
			  m.generation_len == n.generation_len);
		free(o);
	}
}

static void
check_table_dir(const char *s, size_t len)
{
	size_t		tl = (size_t) -1,
				tl2 = (size_t) -1,
				i;
	bc_status	st = bc_sstable_table_dir(s, len, &tl);

	CHECK(st == BC_OK || st == BC_ERR_SSTABLE_NAME);
	if (st != BC_OK)
		return;
	CHECK(tl > 0 && tl <= len);
	/* the bare name, or '-' then hex digits of either case (ScyllaDB's
	 * [\da-fA-F]+) or a dashed UUID */
	CHECK(tl == len || (tl + 1 < len && s[tl] == '-'));
	if (tl < len && len - tl != 37)
		for (i = tl + 1; i < len; i++)
			CHECK((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
				  (s[i] >= 'A' && s[i] <= 'F'));
	for (i = 0; i < tl; i++)
		CHECK((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
			  (s[i] >= '0' && s[i] <= '9') || s[i] == '_');
	/* the table name alone is a table folder of that name */
	CHECK(bc_sstable_table_dir(s, tl, &tl2) == BC_OK && tl2 == tl);
}

/*
 * The input as a component name and as a table folder; for a path
 * (dir/name), its last part as the name and the part before it as the
 * folder.
 */
static void
fuzz_sstable_names(const uint8_t *data, size_t len)
{
	const char *s = (const char *) data;
	const char *slash = NULL;
	size_t		i;

	for (i = len; i > 0 && slash == NULL; i--)
		if (s[i - 1] == '/')
			slash = s + i - 1;
	check_sstable_name(s, len);
	check_table_dir(s, len);
	if (slash != NULL)
	{
		const char *dir;

		check_sstable_name(slash + 1, len - (size_t) (slash + 1 - s));
		for (dir = slash; dir > s && dir[-1] != '/'; dir--)
			;
		check_table_dir(dir, (size_t) (slash - dir));
	}
}

static void
fuzz_statistics(const uint8_t *data, size_t len)
{
	const fuzz_version *fv = pick_version(data, len);
	size_t		skip = len < 2 ? len : 2;
	const uint8_t *d = data + skip;
	size_t		dl = len - skip;
	size_t		vl = strlen(fv->v);
	bc_statistics s,
				t;
	bc_status	st;

	memset(&s, 0x5a, sizeof(s));
	st = bc_statistics_parse(d, dl, fv->v, vl, &s);
	CHECK(bc_status_message(st) != NULL);
	if (fv->stats == SV_REFUSED)
		CHECK(st == BC_ERR_VERSION_UNKNOWN || st == BC_ERR_VERSION_UNSUPPORTED);
	else
		CHECK(st == BC_OK || (st >= BC_ERR_STATS_TRUNCATED && st <= BC_ERR_STATS_FIELD));
	if (st != BC_OK)
	{
		/* nothing half-read escapes */
		CHECK(s.partitioner == NULL && s.partitioner_len == 0 &&
			  s.key_type == NULL && s.key_type_len == 0 &&
			  s.has_fp_chance == 0 && s.fp_chance == 0.0 && s.partitions == 0 &&
			  s.checksummed == 0);
		return;
	}
	CHECK(inside(s.partitioner, s.partitioner_len, d, dl) && s.partitioner_len > 0);
	CHECK(is_printable(s.partitioner, s.partitioner_len));
	CHECK(s.has_fp_chance == (fv->stats != SV_LEGACY_12));
	if (s.has_fp_chance)
		CHECK(s.fp_chance > 0.0 && s.fp_chance <= 1.0);
	CHECK(s.partitions >= 0);
	if (fv->stats >= SV_HEADER)
	{
		/* an empty key type is BytesType to Cassandra's TypeParser */
		CHECK(s.key_type != NULL && inside(s.key_type, s.key_type_len, d, dl));
		CHECK(is_printable(s.key_type, s.key_type_len));
	}
	else
		CHECK(s.key_type == NULL && s.key_type_len == 0);
	CHECK(s.checksummed == (fv->stats == SV_CRC));

	/* bytes after a component's last field are ignored, as the readers
	 * do: one byte less is refused or gives the same facts (without CRCs,
	 * where a shorter file could match by chance) */
	if (fv->stats != SV_CRC && dl > 0 &&
		bc_statistics_parse(d, dl - 1, fv->v, vl, &t) == BC_OK)
		CHECK(t.partitions == s.partitions && t.has_fp_chance == s.has_fp_chance &&
			  (!s.has_fp_chance || t.fp_chance == s.fp_chance) &&
			  t.partitioner_len == s.partitioner_len &&
			  memcmp(t.partitioner, s.partitioner, s.partitioner_len) == 0 &&
			  t.key_type_len == s.key_type_len &&
			  (s.key_type == NULL || memcmp(t.key_type, s.key_type, s.key_type_len) == 0));
}

/* An Index.db entry as bc_index_parse gave it (the key is at offset + 2). */
typedef struct index_rec
{
	uint64_t	offset;
	size_t		key_len;
	int64_t		position;
	int64_t		promoted;
} index_rec;

typedef struct index_walk
{
	const uint8_t *file;
	size_t		len;
	index_rec  *recs;
	size_t		n;
	size_t		stop;			/* return non-zero after this many */
} index_walk;

/* One entry, from either reader, checked against the file and recs[]. */
static void
check_index_entry(const index_walk *w, const bc_index_entry *e, size_t i,
				  int record)
{
	CHECK(e->ordinal == i);
	CHECK(e->key_len <= BC_INDEX_MAX_KEY);
	CHECK(e->index_offset <= w->len && e->key_len + 2 <= w->len - e->index_offset);
	CHECK(e->key_len == (((size_t) w->file[e->index_offset] << 8) |
						 w->file[e->index_offset + 1]));
	CHECK(e->key_len == 0 ||
		  memcmp(e->key, w->file + e->index_offset + 2, e->key_len) == 0);
	CHECK(e->position >= 0);
	CHECK(e->promoted_size >= 0 && e->promoted_size <= INT32_MAX);
	if (i > 0)
		CHECK(e->position > w->recs[i - 1].position);
	if (record)
	{
		w->recs[i].offset = e->index_offset;
		w->recs[i].key_len = e->key_len;
		w->recs[i].position = e->position;
		w->recs[i].promoted = e->promoted_size;
	}
	else
		CHECK(i < w->n && w->recs[i].offset == e->index_offset &&
			  w->recs[i].key_len == e->key_len &&
			  w->recs[i].position == e->position &&
			  w->recs[i].promoted == e->promoted_size);
}

static int
index_collect(const bc_index_entry *e, void *arg)
{
	index_walk *w = arg;

	check_index_entry(w, e, w->n, 1);
	w->n++;
	return w->stop > 0 && w->n == w->stop;
}

/* Chunk sizes from byte b: fixed 1 .. 64 or 97 .. 6208, or pseudo-random
 * in 0 .. 2b + 2 (empty chunks too) or 1 .. 4096. */
static size_t
next_chunk(uint8_t b, uint32_t *rng, int *was_empty)
{
	size_t		n;

	*rng = *rng * 1103515245u + 12345u;
	switch (b >> 6)
	{
		case 0:
			n = (size_t) (b & 63) + 1;
			break;
		case 1:
			n = ((size_t) (b & 63) + 1) * 97;
			break;
		case 2:
			n = (*rng >> 16) % (2 * (size_t) (b & 63) + 3);
			break;
		default:
			n = 1 + (*rng >> 16) % 4096;
			break;
	}
	if (n == 0 && *was_empty)
		n = 1;
	*was_empty = n == 0;
	return n;
}

static void
fuzz_index(const uint8_t *data, size_t len)
{
	const fuzz_version *fv = pick_version(data, len);
	uint8_t		chunking = len > 1 ? data[1] : 0;
	size_t		skip = len < 2 ? len : 2;
	index_walk	w;
	size_t		vl = strlen(fv->v),
				i,
				fed = 0,
				ncur = 0;
	uint64_t	nkeys = 0;
	bc_index_era era = BC_INDEX_ERA_12;
	bc_index_cursor *c;
	bc_index_entry e;
	bc_status	st,
				cst,
				est;
	uint32_t	rng = chunking;
	int			got,
				was_empty = 0;

	w.file = data + skip;
	w.len = len - skip;
	w.n = 0;
	w.stop = 0;
	/* an entry takes at least 4 bytes (ma and later: two 1-byte vints) */
	w.recs = xmalloc((w.len / 4 + 1) * sizeof(index_rec));

	est = bc_index_era_lookup(fv->v, vl, &era);
	if (fv->era < 0)
		CHECK(est != BC_OK);
	else
		CHECK(est == BC_OK && (int) era == fv->era);

	/* the whole file at once */
	st = bc_index_parse(fv->v, vl, w.file, w.len, index_collect, &w, &nkeys);
	CHECK(nkeys == w.n);
	if (est != BC_OK)
		CHECK(st == est && w.n == 0);
	else
		CHECK(st == BC_OK || st == BC_ERR_INDEX_TRUNCATED ||
			  st == BC_ERR_INDEX_LENGTH || st == BC_ERR_INDEX_ORDER);

	/* entries are back to back: 12 bytes of numbers before 3.0, two
	 * vints (2 .. 18 bytes) since; a complete file ends with its last */
	for (i = 0; i < w.n; i++)
	{
		uint64_t	next = i + 1 < w.n ? w.recs[i + 1].offset : w.len;
		uint64_t	body = w.recs[i].offset + 2 + w.recs[i].key_len +
			(uint64_t) w.recs[i].promoted;

		if (i + 1 == w.n && st != BC_OK)
			break;
		CHECK(next > body);
		if (era == BC_INDEX_ERA_30)
			CHECK(next - body >= 2 && next - body <= 18);
		else
			CHECK(next - body == 12);
	}
	if (st == BC_OK)
		CHECK((w.n == 0) == (w.len == 0) && (w.n == 0 || w.recs[0].offset == 0));

	/* a callback that stops the walk: BC_OK with the keys so far */
	if (w.n > 0)
	{
		index_walk	w2 = w;

		w2.stop = 1 + (size_t) chunking % w.n;
		w2.n = 0;
		w2.recs = xmalloc(w.n * sizeof(index_rec));
		CHECK(bc_index_parse(fv->v, vl, w.file, w.len, index_collect, &w2,
							 &nkeys) == BC_OK);
		CHECK(nkeys == w2.stop && w2.n == w2.stop);
		free(w2.recs);
	}

	/* the cursor, fed in chunks (each its own exact-size block, freed once
	 * used up, so ASan sees a key left pointing into an old chunk) */
	c = xmalloc(sizeof(*c));
	cst = bc_index_init(c, fv->v, vl);
	CHECK(cst == est);
	if (cst == BC_OK)
	{
		for (;;)
		{
			size_t		n = next_chunk(chunking, &rng, &was_empty);
			uint8_t    *chunk;

			if (n > w.len - fed)
				n = w.len - fed;
			chunk = xmalloc(n);
			memcpy(chunk, w.file + fed, n);
			cst = bc_index_feed(c, chunk, n);
			while (cst == BC_OK)
			{
				cst = bc_index_next(c, &e, &got);
				if (cst != BC_OK || !got)
					break;
				check_index_entry(&w, &e, ncur++, 0);
			}
			free(chunk);
			fed += n;
			if (cst != BC_OK || fed == w.len)
				break;
		}
		if (cst == BC_OK)
		{
			cst = bc_index_finish(c);
			if (cst == BC_OK)	/* nothing more may be fed */
				CHECK(bc_index_feed(c, w.file, 0) == BC_ERR_CURSOR_STATE);
		}
		else
		{
			/* an error is final */
			CHECK(bc_index_next(c, &e, &got) == cst && got == 0);
			CHECK(bc_index_finish(c) == cst);
		}
	}
	CHECK(cst == st);
	CHECK(ncur == w.n);
	free(c);
	free(w.recs);
}

static void
fuzz_summary(const uint8_t *data, size_t len)
{
	const fuzz_version *fv = pick_version(data, len);
	size_t		skip = len < 2 ? len : 2;
	const uint8_t *d = data + skip;
	size_t		dl = len - skip;
	size_t		vl = strlen(fv->v);
	bc_summary	s;
	bc_status	st;
	int32_t		i;

	st = bc_summary_parse(fv->v, vl, d, dl, &s);
	if (fv->era < 0)
		CHECK(st != BC_OK);
	if (st != BC_OK)
		return;
	CHECK((int) s.era == fv->era);
	CHECK(s.min_index_interval >= 1 && s.count >= 0);
	CHECK(s.sampling_level >= 1 && s.sampling_level <= 128);
	/* the size at full sampling is reported as stored (ScyllaDB: 0) */
	if (s.era == BC_INDEX_ERA_12 || s.era == BC_INDEX_ERA_20)
		CHECK(s.sampling_level == 128 && s.size_at_full_sampling == s.count);
	CHECK(inside(s.first, s.first_len, d, dl) && s.first_len <= BC_INDEX_MAX_KEY);
	CHECK(inside(s.last, s.last_len, d, dl) && s.last_len <= BC_INDEX_MAX_KEY);
	CHECK(s.first + s.first_len + 4 == s.last);
	CHECK(s.tail_len == dl - (size_t) (s.last + s.last_len - d));
	for (i = 0; i < s.count; i++)
	{
		const uint8_t *key = NULL;
		size_t		kl = 0;
		int64_t		off = -1;

		CHECK(bc_summary_entry(&s, i, &key, &kl, &off) == BC_OK);
		/* sampled keys come before the first key's length */
		CHECK(inside(key, kl, d, (size_t) (s.first - 4 - d)));
		CHECK(kl <= BC_INDEX_MAX_KEY);
		/* the Index.db positions are not checked (as by the readers) */
		(void) off;
	}
	CHECK(bc_summary_entry(&s, s.count, NULL, NULL, NULL) == BC_ERR_BUFFER);
	CHECK(bc_summary_entry(&s, -1, NULL, NULL, NULL) == BC_ERR_BUFFER);
}

/*
 * The input as a whole Partitions.db (bc_partitions_parse), and through the
 * two-step API from exact-size copies of its footer and keys; and the
 * input as the keys region alone.
 */
static void
fuzz_partitions(const uint8_t *data, size_t len)
{
	bc_partitions_footer f,
				f2;
	const uint8_t *a = data,
			   *z = data;
	size_t		al = 1,
				zl = 1;
	bc_status	st,
				st2;

	memset(&f, 0x5a, sizeof(f));
	st = bc_partitions_parse(data, len, &f, &a, &al, &z, &zl);
	CHECK(st == BC_OK || st == BC_ERR_PARTITIONS_TRUNCATED ||
		  st == BC_ERR_PARTITIONS_FORMAT);
	CHECK(bc_status_message(st) != NULL);
	if (st != BC_OK)
		CHECK(f.keys_pos == 0 && f.key_count == 0 && f.root == 0 &&
			  a == NULL && z == NULL && al == 0 && zl == 0);
	else
	{
		size_t		body = len - BC_PARTITIONS_FOOTER;
		int			same = al == zl && memcmp(a, z, al) == 0;

		CHECK(len >= BC_PARTITIONS_FOOTER + 4);
		CHECK(f.root < f.keys_pos && f.key_count <= f.keys_pos);
		/* bytes after the last key, before the footer, are ignored */
		CHECK(f.keys_pos + 4 + al + zl <= body);
		CHECK(a == data + f.keys_pos + 2 && z == a + al + 2);
		CHECK(al == (((size_t) a[-2] << 8) | a[-1]));
		CHECK(zl == (((size_t) z[-2] << 8) | z[-1]));
		if (f.key_count == 0)
			CHECK(al == 0 && zl == 0);
		else
			CHECK(same == (f.key_count == 1));
	}

	/* the two steps agree with the whole */
	{
		uint8_t    *tail = NULL;

		if (len >= BC_PARTITIONS_FOOTER)
		{
			tail = xmalloc(BC_PARTITIONS_FOOTER);
			memcpy(tail, data + len - BC_PARTITIONS_FOOTER, BC_PARTITIONS_FOOTER);
		}
		st2 = bc_partitions_footer_parse(tail, len, &f2);
		free(tail);
		if (st2 == BC_OK)
		{
			size_t		klen = len - BC_PARTITIONS_FOOTER - (size_t) f2.keys_pos;
			exact_buf	keys = exact_alloc(klen);
			const uint8_t *a2,
					   *z2;
			size_t		al2,
						zl2;

			memcpy(keys.p, data + f2.keys_pos, klen);
			st2 = bc_partitions_keys_parse(keys.p, klen, &a2, &al2, &z2, &zl2);
			if (st2 == BC_OK)
			{
				CHECK(al2 + zl2 + 4 <= klen && a2 == keys.p + 2 && z2 == a2 + al2 + 2);
				st2 = bc_partitions_keys_check(&f2, a2, al2, z2, zl2);
			}
			else
				CHECK(a2 == NULL && z2 == NULL && al2 == 0 && zl2 == 0);
			free(keys.base);
			if (st == BC_OK)
				CHECK(f2.keys_pos == f.keys_pos && f2.key_count == f.key_count &&
					  f2.root == f.root);
		}
		else
			CHECK(f2.keys_pos == 0 && f2.key_count == 0 && f2.root == 0);
		CHECK(st2 == st);
	}

	/* the input as the keys alone: two keys (then anything), or an error */
	st2 = bc_partitions_keys_parse(data, len, &a, &al, &z, &zl);
	CHECK(st2 == BC_OK || st2 == BC_ERR_PARTITIONS_TRUNCATED);
	if (st2 == BC_OK)
		CHECK(al + zl + 4 <= len && a == data + 2 && z == a + al + 2);
}

typedef struct txn_span
{
	const uint8_t *data;
	size_t		len;
} txn_span;

static void
txn_scan_sstable(void *arg, int obsolete, const char *base, size_t len)
{
	txn_span   *t = arg;

	CHECK(obsolete == 0 || obsolete == 1);
	CHECK(len > 0 && inside(base, len, t->data, t->len));
}

static void
txn_scan_bad(void *arg, long lineno)
{
	(void) arg;
	CHECK(lineno >= 1);
}

/*
 * Stage 13: a record parsed is what its line says: a known type word, the
 * path inside the first brackets, its last element (less one '-') the base.
 */
static void
fuzz_txn_log(const uint8_t *data, size_t len)
{
	const char *line = (const char *) data;
	const char *end = line + len;

	(void) bc_txn_log_name((const char *) data, len);
	{
		txn_span	t = {data, len};

		bc_txn_log_scan((const char *) data, len, txn_scan_sstable, txn_scan_bad, &t);
	}
	{
		bc_folder	fo;

		bc_folder_parse((const char *) data, len, &fo);
		CHECK(fo.state == BC_STATE_LIVE || fo.state == BC_STATE_SNAPSHOT || fo.state == BC_STATE_BACKUP);
		CHECK(fo.keyspace == NULL || inside(fo.keyspace, fo.keyspace_len, data, len));
		CHECK(fo.table == NULL || inside(fo.table, fo.table_len, data, len));
		CHECK(fo.index == NULL || (fo.table != NULL && inside(fo.index, fo.index_len, data, len)));
		CHECK(fo.snapshot == NULL || (fo.state == BC_STATE_SNAPSHOT &&
									  inside(fo.snapshot, fo.snapshot_len, data, len)));
		CHECK(bc_sstable_state_name(fo.state) != NULL);
	}
	while (line <= end)
	{
		const char *nl = memchr(line, '\n', (size_t) (end - line));
		size_t		llen = (size_t) ((nl ? nl : end) - line);
		char	   *copy = xmalloc(llen + 1);
		bc_txn_record r;
		bc_status	st;

		/* an exact-size copy: a read past the line is caught */
		memcpy(copy, line, llen);
		st = bc_txn_record_parse(copy, llen, &r);
		CHECK(st == BC_OK || st == BC_ERR_TXN_RECORD);
		if (st == BC_OK)
		{
			const char *colon = memchr(copy, ':', llen);

			CHECK(colon != NULL && colon[1] == '[' && copy[llen - 1 - (copy[llen - 1] == '\r')] == ']');
			if (r.type == BC_TXN_ADD || r.type == BC_TXN_REMOVE)
			{
				CHECK(r.path == colon + 2 && r.path_len > 0 && r.base_len > 0);
				CHECK(r.base >= r.path && r.base + r.base_len <= r.path + r.path_len);
				CHECK(memchr(r.base, '/', r.base_len) == NULL &&
					  memchr(r.base, ',', r.base_len) == NULL);
			}
			else
				CHECK(r.type == BC_TXN_COMMIT || r.type == BC_TXN_ABORT);
		}
		free(copy);
		if (nl == NULL)
			break;
		line = nl + 1;
	}
}

/* Every status has a sentence; order and layout names. */
static void
check_names_of_things(void)
{
	int			s;

	for (s = 0; s <= BC_STATUS_COUNT; s++)
	{
		const char *m = bc_status_message((bc_status) s);

		CHECK(m != NULL && m[0] != '\0');
	}
	CHECK(strcmp(bc_order_name(BC_ORDER_OLD), "old") == 0);
	CHECK(strcmp(bc_order_name(BC_ORDER_NEW), "new") == 0);
	CHECK(strcmp(bc_layout_name(BC_LAYOUT_SWAPPED), "swapped") == 0);
	CHECK(strcmp(bc_layout_name(BC_LAYOUT_RAW), "raw") == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	key_ref		keys[FUZZ_NKEYS];
	int			nkeys;

	if (size > FUZZ_MAX_INPUT)
		return 0;

	nkeys = pick_keys(data, size, keys);

	fuzz_filterdb(data, size, keys, nkeys);
	fuzz_type(data, size, keys, nkeys);
	fuzz_names(data, size);
	fuzz_numbers(data, size);
	fuzz_composite(data, size);
	fuzz_hash(data, size);
	fuzz_indexes(data, size);
	fuzz_sstable_names(data, size);
	fuzz_statistics(data, size);
	fuzz_index(data, size);
	fuzz_summary(data, size);
	fuzz_partitions(data, size);
	fuzz_txn_log(data, size);
	if (size == 0)
		check_names_of_things();
	return 0;
}
