/*
 * statistics_util.c - what the tests of Statistics.db share (see
 * statistics_util.h).
 */
#include <stdlib.h>
#include <string.h>

#include "statistics_util.h"
#include "unit.h"

bc_status
parse(const uint8_t *d, size_t len, const char *version, bc_statistics *st)
{
	return bc_statistics_parse(d, len, version, strlen(version), st);
}

/* Parse a copy of exactly len bytes, so that ASan sees any overread. */
bc_status
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

int
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

bc_status
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

const sample samples[] = {
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

const size_t n_samples = sizeof(samples) / sizeof(samples[0]);

uint8_t *
load(const sample *s, size_t *len)
{
	uint8_t    *d = unit_read_file(unit_path(s->rel), len);
	bc_statistics st;

	CHECK(d != NULL, "cannot read %s", s->rel);
	if (d != NULL)
		CHECK(parse(d, *len, s->version, &st) == BC_OK, "%s parses", s->rel);
	return d;
}
