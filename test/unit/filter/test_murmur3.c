/*
 * test_murmur3.c - murmur3 and the token (bc_murmur3.c) against the golden
 * vectors (murmur3.tsv), a byte-at-a-time reference and worked examples.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_murmur3.h"
#include "unit.h"

/*
 * A byte-at-a-time rendering of Cassandra's MurmurHash.hash3_x64_128 (its
 * Java loop, tail bytes sign-extended one by one), to check the library's
 * word-at-a-time tail on inputs the vectors do not reach.
 */
static uint64_t
ref_rotl(uint64_t v, int r)
{
	return (v << r) | (v >> (64 - r));
}

static uint64_t
ref_fmix(uint64_t k)
{
	k ^= k >> 33;
	k *= UINT64_C(0xff51afd7ed558ccd);
	k ^= k >> 33;
	k *= UINT64_C(0xc4ceb9fe1a85ec53);
	k ^= k >> 33;
	return k;
}

static uint64_t
ref_long_of_byte(uint8_t b)
{
	return b >= 0x80 ? (uint64_t) b | ~UINT64_C(0xff) : b;
}

static void
ref_murmur3(const uint8_t *p, size_t len, int64_t *o1, int64_t *o2)
{
	const uint64_t c1 = UINT64_C(0x87c37b91114253d5),
				c2 = UINT64_C(0x4cf5ad432745937f);
	uint64_t	h1 = 0,
				h2 = 0,
				k1,
				k2;
	size_t		i,
				j,
				nblocks = len / 16,
				r = len % 16;

	for (i = 0; i < nblocks; i++)
	{
		k1 = k2 = 0;
		for (j = 0; j < 8; j++)
		{
			k1 |= (uint64_t) p[16 * i + j] << (8 * j);
			k2 |= (uint64_t) p[16 * i + 8 + j] << (8 * j);
		}
		k1 *= c1; k1 = ref_rotl(k1, 31); k1 *= c2; h1 ^= k1;
		h1 = ref_rotl(h1, 27); h1 += h2; h1 = h1 * 5 + 0x52dce729;
		k2 *= c2; k2 = ref_rotl(k2, 33); k2 *= c1; h2 ^= k2;
		h2 = ref_rotl(h2, 31); h2 += h1; h2 = h2 * 5 + 0x38495ab5;
	}
	k1 = k2 = 0;
	for (j = r; j > 8; j--)
		k2 ^= ref_long_of_byte(p[16 * nblocks + j - 1]) << (8 * (j - 9));
	if (r > 8)
	{
		k2 *= c2; k2 = ref_rotl(k2, 33); k2 *= c1; h2 ^= k2;
	}
	for (j = r > 8 ? 8 : r; j > 0; j--)
		k1 ^= ref_long_of_byte(p[16 * nblocks + j - 1]) << (8 * (j - 1));
	if (r > 0)
	{
		k1 *= c1; k1 = ref_rotl(k1, 31); k1 *= c2; h1 ^= k1;
	}
	h1 ^= len; h2 ^= len;
	h1 += h2; h2 += h1;
	h1 = ref_fmix(h1); h2 = ref_fmix(h2);
	h1 += h2; h2 += h1;
	*o1 = (int64_t) h1;
	*o2 = (int64_t) h2;
}

/*
 * Every length 0..80, at every alignment 0..7, with random bytes, bytes all
 * >= 0x80, and bytes alternating high and low (the sign-extension quirk in
 * every position): the library equals the reference, and reads no byte
 * outside the key (each key sits in its own exactly sized allocation, so
 * the sanitizer build checks that).
 */
static void
murmur3_against_reference(void)
{
	uint64_t	seed = UINT64_C(0x9e3779b97f4a7c15);
	long		mismatches = 0,
				tried = 0;
	size_t		len,
				align;
	int			pattern;

	for (pattern = 0; pattern < 3; pattern++)
		for (len = 0; len <= 80; len++)
			for (align = 0; align < 8; align++)
			{
				uint8_t    *buf = malloc(len + align + 1);
				uint8_t    *key;
				size_t		i;
				int64_t		a1,
							a2,
							b1,
							b2;

				key = buf + align;
				for (i = 0; i < len; i++)
				{
					seed ^= seed << 13;
					seed ^= seed >> 7;
					seed ^= seed << 17;
					key[i] = pattern == 0 ? (uint8_t) seed :
						pattern == 1 ? (uint8_t) (0x80 | seed) :
						(uint8_t) ((i & 1) ? (seed & 0x7f) : (0x80 | seed));
				}
				/* a copy in an allocation of exactly len bytes */
				{
					uint8_t    *exact = malloc(len ? len : 1);

					memcpy(exact, key, len);
					bc_murmur3(exact, len, &a1, &a2);
					free(exact);
				}
				ref_murmur3(key, len, &b1, &b2);
				if (a1 != b1 || a2 != b2)
					mismatches++;
				bc_murmur3(key, len, &a1, &a2);
				if (a1 != b1 || a2 != b2)
					mismatches++;
				tried++;
				free(buf);
			}
	CHECK(mismatches == 0, "murmur3 vs byte-at-a-time reference: %ld mismatches in %ld keys",
		  mismatches, tried);
}

void
suite_murmur3(void)
{
	unit_tsv	t;
	char	   *f[8];
	int			nf,
				rows = 0;

	if (unit_tsv_open(&t, "vectors/murmur3.tsv") != 0)
		return;
	while ((nf = unit_tsv_next(&t, f, 8)) >= 0)
	{
		size_t		len;
		uint8_t    *key;
		int64_t		elen,
					eh1,
					eh2,
					etok,
					h1,
					h2;

		if (nf != 5)
		{
			CHECK(0, "murmur3.tsv:%ld: %d fields", t.lineno, nf);
			continue;
		}
		key = unit_hex_decode(f[0], strlen(f[0]), &len);
		if (key == NULL || unit_parse_i64(f[1], &elen) || unit_parse_i64(f[2], &eh1) ||
			unit_parse_i64(f[3], &eh2) || unit_parse_i64(f[4], &etok))
		{
			CHECK(0, "murmur3.tsv:%ld: unparsable row", t.lineno);
			free(key);
			continue;
		}
		rows++;
		CHECK((int64_t) len == elen, "murmur3.tsv:%ld: length", t.lineno);
		bc_murmur3(key, len, &h1, &h2);
		CHECK(h1 == eh1 && h2 == eh2, "murmur3.tsv:%ld: key %s hash (%lld, %lld) expected (%lld, %lld)",
			  t.lineno, f[0], (long long) h1, (long long) h2, (long long) eh1, (long long) eh2);
		CHECK(bc_token(key, len) == etok, "murmur3.tsv:%ld: token", t.lineno);
		CHECK(bc_token_from_h1(len, h1) == etok, "murmur3.tsv:%ld: token from h1", t.lineno);
		free(key);
	}
	unit_tsv_close(&t);
	CHECK(rows == 401, "murmur3.tsv: %d rows, expected 401", rows);
	murmur3_against_reference();

	/* the empty key, MurmurHash.hash3_x64_128's sign-extended tail, and
	 * Murmur3Partitioner.getToken's INT64_MIN -> INT64_MAX */
	{
		int64_t		h1,
					h2;

		bc_murmur3("", 0, &h1, &h2);
		CHECK(h1 == 0 && h2 == 0, "empty key hashes to (0, 0)");
		CHECK(bc_token("", 0) == INT64_MIN, "empty key token is INT64_MIN");
		bc_murmur3("\xff", 1, &h1, &h2);
		CHECK(h1 == INT64_C(-4442228696663692417) && h2 == INT64_C(-6049531771631615289),
			  "ff hashes with the sign-extension quirk");
		bc_murmur3("caf\xc3\xa9", 5, &h1, &h2);
		CHECK(h1 == INT64_C(-5777272221172978824), "UTF-8 cafe");
		CHECK(bc_token_from_h1(1, INT64_MIN) == INT64_MAX, "INT64_MIN token becomes INT64_MAX");
	}
}
