/*
 * scylla-quirks - a copy of a real SSTable with the two quirks of what
 * ScyllaDB writes (test data for 17_codecs and test/client.sh;
 * test/make-codecs.sh runs it).
 *
 *   scylla-quirks SRC DEST
 *
 * SRC and DEST are SSTable prefixes (".../me-1-big"; DEST's folder must
 * exist) of a version whose Statistics.db has a table of contents and no
 * CRC32s: ka .. me (ScyllaDB's own ms and mt have the same layout; Cassandra
 * 4.0+ reads the checksummed layout in table order, which ScyllaDB never
 * wrote).
 *
 * Statistics.db: the table of contents in the order older ScyllaDB
 * releases wrote it, the order of a std::unordered_map of the types
 * (before scylladb issue 3937 was fixed: sstables.cc wrote the map's
 * entries as they came and the components sorted by offset, i.e. in type
 * order): types 3, 2, 0, 1 (2, 0, 1 without a serialization header), each
 * with its component's offset, so the offsets no longer ascend in table
 * order; the components themselves do not move.  (ScyllaDB's test
 * resources show this order: the mc-1-big-Statistics.db files of
 * 3.x/uncompressed have "3@4514, 2@121, 0@36, 1@89", la ones "2@113, 0@28,
 * 1@81".)  Summary.db: the entry count at full sampling (the big-endian int
 * at byte 20, from ka) as ScyllaDB computes it since 2018 (sstables.cc,
 * seal_summary and sstable::get_size_at_full_sampling): ceil(partitions /
 * min_index_interval) - 1 in float, which is 0 for up to min_index_interval
 * partitions (Cassandra writes the entry count, at least 1); the partitions
 * are Statistics.db's.
 *
 * Every other component is copied byte for byte (Data.db is unchanged, so
 * Digest.crc32 still holds).  The copy is checked with the core's parsers:
 * Statistics.db gives the source's facts, Summary.db the source's entries
 * and keys with ScyllaDB's size at full sampling.  Prints one line: DEST,
 * the table of contents as type@offset, the source's size at full sampling
 * and the copy's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_endian.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "bc_summary.h"
#include "tool_io.h"

/* the summary header's entry count at full sampling, from ka */
#define SUMMARY_FULL_SAMPLING_AT 20

static int
same_statistics(const bc_statistics *a, const bc_statistics *b)
{
	return a->partitioner_len == b->partitioner_len &&
		memcmp(a->partitioner, b->partitioner, a->partitioner_len) == 0 &&
		a->has_fp_chance == b->has_fp_chance && a->fp_chance == b->fp_chance &&
		a->partitions == b->partitions && a->key_type_len == b->key_type_len &&
		(a->key_type == NULL) == (b->key_type == NULL) &&
		(a->key_type == NULL || memcmp(a->key_type, b->key_type, a->key_type_len) == 0);
}

/* Statistics.db's table of contents reordered in place: 3, 2, 0, 1 */
static void
reorder_toc(const char *path, uint8_t *d, size_t len, char *shown, size_t shown_cap)
{
	static const uint32_t order4[] = {3, 2, 0, 1},
				order3[] = {2, 0, 1};
	uint32_t	count,
				i,
				j,
				offsets[4];
	const uint32_t *order;
	size_t		at = 0;

	if (len < 4)
		tool_die("%s: too short", path);
	count = bc_get_be32(d);
	if (count < 3 || count > 4 || len < 4 + 8 * (size_t) count)
		tool_die("%s: not a table of 3 or 4 components", path);
	order = count == 4 ? order4 : order3;
	for (i = 0; i < count; i++)
	{
		uint32_t	t = bc_get_be32(d + 4 + 8 * i);

		if (t >= count)
			tool_die("%s: component type %u", path, t);
		offsets[t] = bc_get_be32(d + 8 + 8 * i);
	}
	for (j = 0; j < count; j++)
	{
		uint8_t    *e = d + 4 + 8 * j;
		uint32_t	t = order[j];

		e[0] = e[1] = e[2] = 0;
		e[3] = (uint8_t) t;
		e[4] = (uint8_t) (offsets[t] >> 24);
		e[5] = (uint8_t) (offsets[t] >> 16);
		e[6] = (uint8_t) (offsets[t] >> 8);
		e[7] = (uint8_t) offsets[t];
		at += (size_t) snprintf(shown + at, shown_cap - at, "%s%u@%u", j ? "," : "", t, offsets[t]);
	}
}

int
main(int argc, char **argv)
{
	const char *src,
			   *dest;
	char		version[3],
				vdest[3],
				toc[80];
	char	  **comps;
	char	   *spath;
	size_t		n,
				i,
				slen;
	uint8_t    *sdata;
	bc_statistics stats;
	bc_status	st;
	int32_t		full = 0,
				scylla = 0;

	tool_name = "scylla-quirks";
	if (argc != 3)
		tool_die("usage: scylla-quirks SRC DEST");
	src = argv[1];
	dest = argv[2];
	tool_version(src, version);
	tool_version(dest, vdest);
	if (strcmp(version, vdest) != 0)
		tool_die("%s and %s: not the same SSTable version", src, dest);
	if (strlen(version) != 2 || strcmp(version, "ka") < 0 || strcmp(version, "me") > 0)
		tool_die("%s: version %s: not one whose Statistics.db has a table without CRC32s (ka .. me)",
				 src, version);

	/* the partition count ScyllaDB's writer counted */
	spath = tool_component_path(src, "Statistics.db");
	sdata = tool_read(spath, &slen, 0);
	if ((st = bc_statistics_parse(sdata, slen, version, 2, &stats)) != BC_OK)
		tool_die("%s: %s", spath, bc_status_message(st));
	if (stats.partitions < 1)
		tool_die("%s: no partitions (ScyllaDB writes no empty SSTable)", spath);

	comps = tool_components(src, &n);
	for (i = 0; i < n; i++)
	{
		char	   *from = tool_component_path(src, comps[i]),
				   *to = tool_component_path(dest, comps[i]);
		size_t		len;
		uint8_t    *d = tool_read(from, &len, 0);

		if (strcmp(comps[i], "Statistics.db") == 0)
		{
			uint8_t    *orig = tool_alloc(len);
			bc_statistics a,
						b;

			memcpy(orig, d, len);
			reorder_toc(from, d, len, toc, sizeof(toc));
			if ((st = bc_statistics_parse(orig, len, version, 2, &a)) != BC_OK)
				tool_die("%s: %s", from, bc_status_message(st));
			if ((st = bc_statistics_parse(d, len, version, 2, &b)) != BC_OK)
				tool_die("%s: reordered: %s", to, bc_status_message(st));
			if (!same_statistics(&a, &b))
				tool_die("%s: the reordered table gives other facts", to);
			tool_write(to, d, len);
			free(orig);
		}
		else if (strcmp(comps[i], "Summary.db") == 0)
		{
			uint8_t    *orig = tool_alloc(len);
			bc_summary	a,
						b;

			memcpy(orig, d, len);
			if ((st = bc_summary_parse(version, 2, orig, len, &a)) != BC_OK)
				tool_die("%s: %s", from, bc_status_message(st));
			if (len < SUMMARY_FULL_SAMPLING_AT + 4 || a.min_index_interval < 1)
				tool_die("%s: too short, or no sampling interval", from);
			full = a.size_at_full_sampling;
			/* sstable::get_size_at_full_sampling */
			scylla = (int32_t) (ceilf((float) stats.partitions / (float) a.min_index_interval) - 1);
			d[SUMMARY_FULL_SAMPLING_AT] = (uint8_t) ((uint32_t) scylla >> 24);
			d[SUMMARY_FULL_SAMPLING_AT + 1] = (uint8_t) ((uint32_t) scylla >> 16);
			d[SUMMARY_FULL_SAMPLING_AT + 2] = (uint8_t) ((uint32_t) scylla >> 8);
			d[SUMMARY_FULL_SAMPLING_AT + 3] = (uint8_t) scylla;
			if ((st = bc_summary_parse(version, 2, d, len, &b)) != BC_OK)
				tool_die("%s: ScyllaDB's size: %s", to, bc_status_message(st));
			if (b.size_at_full_sampling != scylla || b.count != a.count ||
				b.sampling_level != a.sampling_level ||
				b.min_index_interval != a.min_index_interval ||
				b.first_len != a.first_len || memcmp(b.first, a.first, a.first_len) != 0 ||
				b.last_len != a.last_len || memcmp(b.last, a.last, a.last_len) != 0)
				tool_die("%s: ScyllaDB's size at full sampling changes other facts", to);
			tool_write(to, d, len);
			free(orig);
		}
		else
			tool_write(to, d, len);
		free(d);
		free(from);
		free(to);
		free(comps[i]);
	}
	free(comps);
	free(sdata);
	free(spath);
	printf("%s\t%s\t%d\t%d\n", dest, toc, (int) full, (int) scylla);
	return 0;
}
