/*
 * test_codec.c - the Filter.db codec (bc_codec.c): validation (every
 * malformed shape gives its own error), layout conversion, a filter written
 * by Cassandra, SSTable versions and file names, the names of orders and
 * layouts.  Whole filters are test_filter_files.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_codec.h"
#include "bc_endian.h"
#include "bc_filter.h"
#include "bc_sizing.h"
#include "bc_status.h"
#include "unit.h"

static bc_status
check_bytes(const uint8_t *d, size_t len)
{
	int32_t		k;
	int64_t		w;

	return bc_filterdb_check(d, len, BC_MAX_WORDS_CASSANDRA, &k, &w);
}

static void
put_header(uint8_t *buf, uint32_t k, uint32_t w)
{
	bc_put_be32(buf, k);
	bc_put_be32(buf + 4, w);
}

static void
malformed(void)
{
	uint8_t		buf[64];
	int32_t		k;
	int64_t		w;
	size_t		i;

	memset(buf, 0, sizeof(buf));
	CHECK(check_bytes(buf, 0) == BC_ERR_EMPTY, "empty");
	CHECK(check_bytes(NULL, 0) == BC_ERR_EMPTY, "NULL empty");
	for (i = 1; i < 8; i++)
		CHECK(check_bytes(buf, i) == BC_ERR_SHORT_HEADER, "%zu-byte header", i);

	put_header(buf, 5, 1);
	CHECK(check_bytes(buf, 8) == BC_ERR_TRUNCATED, "header only");
	CHECK(check_bytes(buf, 15) == BC_ERR_TRUNCATED, "one byte short");
	CHECK(bc_filterdb_check(buf, 16, BC_MAX_WORDS_CASSANDRA, &k, &w) == BC_OK && k == 5 && w == 1,
		  "exact length");
	CHECK(check_bytes(buf, 17) == BC_ERR_TRAILING, "one trailing byte");
	CHECK(check_bytes(buf, 24) == BC_ERR_TRAILING, "a trailing word");

	put_header(buf, 5, 0);
	CHECK(check_bytes(buf, 8) == BC_ERR_WORD_COUNT, "word_count 0");
	put_header(buf, 5, 0xffffffffu);
	CHECK(check_bytes(buf, 16) == BC_ERR_WORD_COUNT, "word_count -1");
	put_header(buf, 5, 0x80000000u);
	CHECK(check_bytes(buf, 16) == BC_ERR_WORD_COUNT, "word_count INT32_MIN");
	put_header(buf, 5, 0x7fffffffu);
	CHECK(check_bytes(buf, 16) == BC_ERR_TRUNCATED, "word_count 2^31-1 with one word of data");
	put_header(buf, 5, 6);
	CHECK(check_bytes(buf, 64) == BC_ERR_TRAILING, "word_count smaller than the data");

	put_header(buf, 0, 1);
	CHECK(check_bytes(buf, 16) == BC_ERR_HASH_COUNT, "k = 0");
	put_header(buf, 0xffffffffu, 1);
	CHECK(check_bytes(buf, 16) == BC_ERR_HASH_COUNT, "k = -1");
	put_header(buf, 0x80000000u, 1);
	CHECK(check_bytes(buf, 16) == BC_ERR_HASH_COUNT, "k = INT32_MIN");
	put_header(buf, 22, 1);
	CHECK(check_bytes(buf, 16) == BC_ERR_HASH_COUNT, "k = 22");
	put_header(buf, 21, 1);
	CHECK(check_bytes(buf, 16) == BC_OK, "k = 21 accepted");
	put_header(buf, 1, 1);
	CHECK(check_bytes(buf, 16) == BC_OK, "k = 1 accepted");

	/* bounded by the caller's word limit (the 1 GB value limit in SQL) */
	put_header(buf, 5, 2);
	CHECK(bc_filterdb_check(buf, 24, 1, &k, &w) == BC_ERR_EXCEEDS_VALUE_LIMIT, "over max_words");
	CHECK(bc_filterdb_check(buf, 24, 2, &k, &w) == BC_OK, "at max_words");

	/* every length 0..40 of an all-0xff buffer gives an error, never a read past it */
	memset(buf, 0xff, sizeof(buf));
	for (i = 0; i <= 40; i++)
		CHECK(check_bytes(buf, i) != BC_OK, "0xff * %zu", i);
}

static void
worked_example(void)
{
	/* the Filter.db of Cassandra's legacy_*_simple SSTables
	 * (test/data/real-filters): text keys '0'..'4', fp 0.01 -> k = 5, W = 2 */
	static const char *raw_hex = "00000005000000028442210600010400""00a602200400c008";
	static const char *swp_hex = "00000005000000020004010006214284""08c000042002a600";
	uint8_t		bits[16],
				out[24],
				back[16];
	bc_filter	f;
	bc_sizing	s;
	char	   *hex;
	int			i;

	CHECK(bc_sizing_compute(5, 0.01, &s) == BC_OK && s.hash_count == 5 && s.word_count == 2,
		  "sizing for 5 keys");
	memset(bits, 0, sizeof(bits));
	bc_filter_init(&f, 5, 2, BC_ORDER_NEW, bits);
	for (i = 0; i < 5; i++)
	{
		char		key = (char) ('0' + i);

		bc_filter_add(&f, &key, 1);
	}
	bc_filterdb_write(&f, BC_LAYOUT_RAW, out);
	hex = unit_hex_encode(out, 24);
	CHECK(strcmp(hex, raw_hex) == 0, "raw layout %s", hex);
	free(hex);
	bc_filterdb_write(&f, BC_LAYOUT_SWAPPED, out);
	hex = unit_hex_encode(out, 24);
	CHECK(strcmp(hex, swp_hex) == 0, "swapped layout %s", hex);
	free(hex);

	/* swapped back to raw, separately and in place */
	bc_payload_convert(back, out + 8, 2, BC_LAYOUT_SWAPPED, BC_LAYOUT_RAW);
	CHECK(memcmp(back, bits, 16) == 0, "swapped -> raw");
	bc_payload_convert(out + 8, out + 8, 2, BC_LAYOUT_SWAPPED, BC_LAYOUT_RAW);
	CHECK(memcmp(out + 8, bits, 16) == 0, "swapped -> raw in place");
	bc_payload_convert(back, bits, 2, BC_LAYOUT_RAW, BC_LAYOUT_RAW);
	CHECK(memcmp(back, bits, 16) == 0, "raw -> raw copy");
	CHECK(f.bits[2 >> 3] & (1 << (2 & 7)), "bit 2 set (key '3')");
}

static void
versions(void)
{
	static const struct
	{
		const char *v;
		bc_order	order;
		bc_layout	layout;
	}			ok[] = {
		{"ia", BC_ORDER_OLD, BC_LAYOUT_SWAPPED}, {"ib", BC_ORDER_OLD, BC_LAYOUT_SWAPPED},
		{"ic", BC_ORDER_OLD, BC_LAYOUT_SWAPPED}, {"ja", BC_ORDER_OLD, BC_LAYOUT_SWAPPED},
		{"jb", BC_ORDER_OLD, BC_LAYOUT_SWAPPED}, {"ka", BC_ORDER_OLD, BC_LAYOUT_SWAPPED},
		{"la", BC_ORDER_OLD, BC_LAYOUT_SWAPPED}, {"lb", BC_ORDER_OLD, BC_LAYOUT_SWAPPED},
		{"ma", BC_ORDER_NEW, BC_LAYOUT_SWAPPED}, {"mb", BC_ORDER_NEW, BC_LAYOUT_SWAPPED},
		{"mc", BC_ORDER_NEW, BC_LAYOUT_SWAPPED}, {"md", BC_ORDER_NEW, BC_LAYOUT_SWAPPED},
		{"me", BC_ORDER_NEW, BC_LAYOUT_SWAPPED}, {"na", BC_ORDER_NEW, BC_LAYOUT_RAW},
		{"nb", BC_ORDER_NEW, BC_LAYOUT_RAW}, {"nc", BC_ORDER_NEW, BC_LAYOUT_RAW},
		{"oa", BC_ORDER_NEW, BC_LAYOUT_RAW}, {"da", BC_ORDER_NEW, BC_LAYOUT_RAW},
		{"bb", BC_ORDER_NEW, BC_LAYOUT_RAW},
		{"ms", BC_ORDER_NEW, BC_LAYOUT_SWAPPED}, {"mt", BC_ORDER_NEW, BC_LAYOUT_SWAPPED},
		/* DataStax's TrieIndexVersion: hasOldBfFormat before b */
		{"aa", BC_ORDER_NEW, BC_LAYOUT_SWAPPED}, {"ac", BC_ORDER_NEW, BC_LAYOUT_SWAPPED},
		{"ad", BC_ORDER_NEW, BC_LAYOUT_SWAPPED}, {"ba", BC_ORDER_NEW, BC_LAYOUT_RAW},
		{"ca", BC_ORDER_NEW, BC_LAYOUT_RAW}, {"cb", BC_ORDER_NEW, BC_LAYOUT_RAW},
		{"cc", BC_ORDER_NEW, BC_LAYOUT_RAW},
		/* Cassandra 6.0: oa's and da's filter */
		{"pa", BC_ORDER_NEW, BC_LAYOUT_RAW}, {"pb", BC_ORDER_NEW, BC_LAYOUT_RAW},
		{"ea", BC_ORDER_NEW, BC_LAYOUT_RAW}, {"eb", BC_ORDER_NEW, BC_LAYOUT_RAW},
	};
	static const struct
	{
		const char *v;
		bc_status	st;
	}			bad[] = {
		{"", BC_ERR_VERSION_UNKNOWN}, {"z", BC_ERR_VERSION_UNKNOWN},
		{"zz", BC_ERR_VERSION_UNKNOWN}, {"KA", BC_ERR_VERSION_UNKNOWN},
		{"ka ", BC_ERR_VERSION_UNKNOWN}, {"pc", BC_ERR_VERSION_UNKNOWN},
		{"ec", BC_ERR_VERSION_UNKNOWN}, {"qa", BC_ERR_VERSION_UNKNOWN},
		{"mf", BC_ERR_VERSION_UNKNOWN}, {"big", BC_ERR_VERSION_UNKNOWN},
		{"hf", BC_ERR_VERSION_UNSUPPORTED}, {"f", BC_ERR_VERSION_UNSUPPORTED},
		/* DataStax names its TrieIndexVersion never writes */
		{"ab", BC_ERR_VERSION_UNSUPPORTED}, {"ae", BC_ERR_VERSION_UNSUPPORTED},
		{"bc", BC_ERR_VERSION_UNSUPPORTED}, {"b", BC_ERR_VERSION_UNSUPPORTED},
		{"cd", BC_ERR_VERSION_UNKNOWN},
	};
	size_t		i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
	{
		bc_order	o = (bc_order) 7;
		bc_layout	l = (bc_layout) 7;

		CHECK(bc_version_lookup(ok[i].v, strlen(ok[i].v), &o, &l) == BC_OK &&
			  o == ok[i].order && l == ok[i].layout, "version %s", ok[i].v);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
	{
		bc_order	o;
		bc_layout	l;

		CHECK(bc_version_lookup(bad[i].v, strlen(bad[i].v), &o, &l) == bad[i].st,
			  "version '%s' refused", bad[i].v);
	}
}

static void
file_names(void)
{
	static const struct
	{
		const char *name;
		bc_status	st;
		const char *version;
		bc_order	order;
		bc_layout	layout;
	}			cases[] = {
		{"nb-1-big-Filter.db", BC_OK, "nb", BC_ORDER_NEW, BC_LAYOUT_RAW},
		{"ks-cf-ka-5-Filter.db", BC_OK, "ka", BC_ORDER_OLD, BC_LAYOUT_SWAPPED},
		{"da-1-bti-Filter.db", BC_OK, "da", BC_ORDER_NEW, BC_LAYOUT_RAW},
		{"bb-2-bti-Filter.db", BC_OK, "bb", BC_ORDER_NEW, BC_LAYOUT_RAW},
		{"/var/lib/cassandra/data/ks/t-1234/md-12-big-Filter.db", BC_OK, "md", BC_ORDER_NEW, BC_LAYOUT_SWAPPED},
		{"oa-3gxx_0n2c_2qfns2bbe9sxs6t4wp-big-Filter.db", BC_OK, "oa", BC_ORDER_NEW, BC_LAYOUT_RAW},
		{"la-1-big-Filter.db", BC_OK, "la", BC_ORDER_OLD, BC_LAYOUT_SWAPPED},
		{"ms-1-big-Filter.db", BC_OK, "ms", BC_ORDER_NEW, BC_LAYOUT_SWAPPED},
		{"/var/lib/scylla/data/ks/t-1c6a/mt-5-big-Filter.db", BC_OK, "mt", BC_ORDER_NEW, BC_LAYOUT_SWAPPED},
		{"ms-1-bti-Filter.db", BC_ERR_FORMAT_MISMATCH, NULL, 0, 0},
		{"pa-1-big-Filter.db", BC_OK, "pa", BC_ORDER_NEW, BC_LAYOUT_RAW},
		{"pb-3gxx_0n2c_2qfns2bbe9sxs6t4wp-big-Filter.db", BC_OK, "pb", BC_ORDER_NEW, BC_LAYOUT_RAW},
		{"ea-1-bti-Filter.db", BC_OK, "ea", BC_ORDER_NEW, BC_LAYOUT_RAW},
		{"eb-2-bti-Filter.db", BC_OK, "eb", BC_ORDER_NEW, BC_LAYOUT_RAW},
		{"pa-1-bti-Filter.db", BC_ERR_FORMAT_MISMATCH, NULL, 0, 0},
		{"eb-1-big-Filter.db", BC_ERR_FORMAT_MISMATCH, NULL, 0, 0},
		{"keyspace1-auditlogsbyid-ka-1-Filter.db", BC_OK, "ka", BC_ORDER_OLD, BC_LAYOUT_SWAPPED},
		{"Filter.db", BC_ERR_FILE_NAME, NULL, 0, 0},
		{"-Filter.db", BC_ERR_FILE_NAME, NULL, 0, 0},
		{"", BC_ERR_FILE_NAME, NULL, 0, 0},
		{"nb-1-big-Data.db", BC_ERR_FILE_NAME, NULL, 0, 0},
		{"nb-1-big-filter.db", BC_ERR_FILE_NAME, NULL, 0, 0},
		{"nb-1-xyz-Filter.db", BC_ERR_FILE_NAME, NULL, 0, 0},
		{"nb--big-Filter.db", BC_ERR_FILE_NAME, NULL, 0, 0},
		{"ks-cf-ka-x5-Filter.db", BC_ERR_FILE_NAME, NULL, 0, 0},
		{"a-b-c-d-e-f-g-Filter.db", BC_ERR_FILE_NAME, NULL, 0, 0},
		{"utils.BloomFilter1000.bin", BC_ERR_FILE_NAME, NULL, 0, 0},
		{"nb-1-big-Filter.db/", BC_ERR_FILE_NAME, NULL, 0, 0},
		{"da-1-big-Filter.db", BC_ERR_FORMAT_MISMATCH, NULL, 0, 0},
		{"nb-1-bti-Filter.db", BC_ERR_FORMAT_MISMATCH, NULL, 0, 0},
		{"zz-1-big-Filter.db", BC_ERR_VERSION_UNKNOWN, NULL, 0, 0},
		{"ks-cf-hf-5-Filter.db", BC_ERR_VERSION_UNSUPPORTED, NULL, 0, 0},
		{"ab-1-bti-Filter.db", BC_ERR_VERSION_UNSUPPORTED, NULL, 0, 0},
		/* DataStax: old serialization before b (hasOldBfFormat) */
		{"aa-1-bti-Filter.db", BC_OK, "aa", BC_ORDER_NEW, BC_LAYOUT_SWAPPED},
		{"ad-1-bti-Filter.db", BC_OK, "ad", BC_ORDER_NEW, BC_LAYOUT_SWAPPED},
		{"ba-1-bti-Filter.db", BC_OK, "ba", BC_ORDER_NEW, BC_LAYOUT_RAW},
		{"cb-3g3i_16ov_3sj4g2pdpcdz177rbj-bti-Filter.db", BC_OK, "cb", BC_ORDER_NEW, BC_LAYOUT_RAW},
		{"cc-3gdv_0vos_48lts2l3kqtv0q1se8-bti-Filter.db", BC_OK, "cc", BC_ORDER_NEW, BC_LAYOUT_RAW},
		{"ca-1-big-Filter.db", BC_ERR_FORMAT_MISMATCH, NULL, 0, 0},
	};
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		char		v[3] = "??";
		bc_order	o = (bc_order) 7;
		bc_layout	l = (bc_layout) 7;
		bc_status	st = bc_file_name_lookup(cases[i].name, strlen(cases[i].name), v, &o, &l);

		CHECK(st == cases[i].st, "file name '%s': status %d expected %d", cases[i].name,
			  (int) st, (int) cases[i].st);
		if (cases[i].st == BC_OK)
			CHECK(strcmp(v, cases[i].version) == 0 && o == cases[i].order &&
				  l == cases[i].layout, "file name '%s' -> %s", cases[i].name, v);
	}
}

static void
names(void)
{
	CHECK(strcmp(bc_order_name(BC_ORDER_OLD), "old") == 0 &&
		  strcmp(bc_order_name(BC_ORDER_NEW), "new") == 0 &&
		  strcmp(bc_layout_name(BC_LAYOUT_RAW), "raw") == 0 &&
		  strcmp(bc_layout_name(BC_LAYOUT_SWAPPED), "swapped") == 0, "names");
}

void
suite_codec(void)
{
	malformed();
	worked_example();
	versions();
	file_names();
	names();
}
