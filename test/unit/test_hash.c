/*
 * test_hash.c - murmur3, token and bit index derivation against the golden
 * vectors (murmur3.tsv, indexes.tsv) and the spec's worked examples.
 */
#include <stdlib.h>
#include <string.h>

#include "bloomcass_core.h"
#include "unit.h"

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

	/* the spec's examples (§3.2, §3.4) */
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

	/* §4: base = -1, capacity 64 gives 1, not floorMod's 63 */
	{
		int64_t		out[1];

		bc_indexes(0, -1, 1, 64, BC_ORDER_NEW, out);
		CHECK(out[0] == 1, "truncating remainder then abs");
		bc_indexes(0, INT64_MIN, 1, 64, BC_ORDER_NEW, out);
		CHECK(out[0] == 0, "INT64_MIN base");
		bc_indexes(0, INT64_MIN, 1, 63, BC_ORDER_NEW, out);
		CHECK(out[0] == 8, "INT64_MIN %% 63 = -8 -> 8");
	}

	/* §5.2 worked example: key '3' sets bits 2, 26, 50, 74, 98 (k=5, W=2) */
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
