/*
 * test_hash.c - murmur3, token and bit index derivation against the golden
 * vectors (murmur3.tsv, indexes.tsv) and worked examples.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_filter.h"
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

static int
parse_list(char *s, int64_t *out, int max)
{
	int			n = 0;
	char	   *tok = s;

	while (tok && *tok)
	{
		char	   *comma = strchr(tok, ',');

		if (comma)
			*comma = '\0';
		if (n == max || unit_parse_i64(tok, &out[n]))
			return -1;
		n++;
		tok = comma ? comma + 1 : NULL;
	}
	return n;
}

void
suite_indexes(void)
{
	unit_tsv	t;
	char	   *f[8];
	int			nf,
				rows = 0;

	if (unit_tsv_open(&t, "vectors/indexes.tsv") != 0)
		return;
	while ((nf = unit_tsv_next(&t, f, 8)) >= 0)
	{
		size_t		len;
		uint8_t    *key;
		int64_t		k,
					cap,
					eh1,
					eh2,
					h1,
					h2,
					enew[64],
					eold[64],
					got[64];
		int			nnew,
					nold;

		if (nf != 7)
		{
			CHECK(0, "indexes.tsv:%ld: %d fields", t.lineno, nf);
			continue;
		}
		key = unit_hex_decode(f[0], strlen(f[0]), &len);
		if (key == NULL || unit_parse_i64(f[1], &k) || unit_parse_i64(f[2], &cap) ||
			unit_parse_i64(f[5], &eh1) || unit_parse_i64(f[6], &eh2) ||
			k < 1 || k > 64 || cap < 1)
		{
			CHECK(0, "indexes.tsv:%ld: unparsable row", t.lineno);
			free(key);
			continue;
		}
		nnew = parse_list(f[3], enew, 64);
		nold = parse_list(f[4], eold, 64);
		CHECK(nnew == k && nold == k, "indexes.tsv:%ld: index list length", t.lineno);
		rows++;
		bc_murmur3(key, len, &h1, &h2);
		CHECK(h1 == eh1 && h2 == eh2, "indexes.tsv:%ld: hash", t.lineno);
		bc_indexes(h1, h2, (int) k, cap, BC_ORDER_NEW, got);
		CHECK(nnew == k && memcmp(got, enew, sizeof(int64_t) * (size_t) k) == 0,
			  "indexes.tsv:%ld: new-order indexes (k=%lld cap=%lld)", t.lineno,
			  (long long) k, (long long) cap);
		bc_indexes(h1, h2, (int) k, cap, BC_ORDER_OLD, got);
		CHECK(nold == k && memcmp(got, eold, sizeof(int64_t) * (size_t) k) == 0,
			  "indexes.tsv:%ld: old-order indexes", t.lineno);
		free(key);
	}
	unit_tsv_close(&t);
	CHECK(rows == 345, "indexes.tsv: %d rows, expected 345", rows);

	/* BloomFilter.indexes: base = -1, capacity 64 gives 1, not floorMod's 63 */
	{
		int64_t		out[1];

		bc_indexes(0, -1, 1, 64, BC_ORDER_NEW, out);
		CHECK(out[0] == 1, "truncating remainder then abs");
		bc_indexes(0, INT64_MIN, 1, 64, BC_ORDER_NEW, out);
		CHECK(out[0] == 0, "INT64_MIN base");
		bc_indexes(0, INT64_MIN, 1, 63, BC_ORDER_NEW, out);
		CHECK(out[0] == 8, "INT64_MIN %% 63 = -8 -> 8");
	}

	/* the filter of Cassandra's legacy_*_simple SSTables (keys '0'..'4',
	 * test/data/real-filters): key '3' sets bits 2, 26, 50, 74, 98 (k=5, W=2) */
	{
		int64_t		out[5],
					h1,
					h2;

		bc_murmur3("3", 1, &h1, &h2);
		CHECK(h1 == INT64_C(-155496620801056360) && h2 == INT64_C(3194112165467113986),
			  "hash of '3'");
		bc_indexes(h1, h2, 5, 128, BC_ORDER_NEW, out);
		CHECK(out[0] == 2 && out[1] == 26 && out[2] == 50 && out[3] == 74 && out[4] == 98,
			  "indexes of '3'");
	}
}
