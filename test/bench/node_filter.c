/*
 * node_filter.c - writes a large Filter.db for a real SSTable, for the
 * node-scale benchmark (node_gen.sh; test/bench/README.md).
 *
 *   node_filter PREFIX VERSION BYTES OUT
 *
 * PREFIX is a real BIG SSTable (PREFIX-Statistics.db, PREFIX-Index.db) of
 * VERSION.  OUT receives the Filter.db Cassandra writes for an SSTable of n
 * partitions at the SSTable's own fp_chance (Statistics.db; 0.01 when it
 * records none), n chosen so that the file is about BYTES long
 * (FilterFactory.getFilter's shape: bc_sizing_compute), holding n keys:
 * every partition key of PREFIX-Index.db, then the 8-byte big-endian
 * numbers 2^62 + i for i = 0, 1, ... until there are n.  So the filter is
 * one Cassandra could have written for this SSTable had it expected n
 * partitions, it answers "present" for each of the SSTable's keys, and half
 * of its bits or so are set, as in a filter filled to its size.  The bytes
 * are laid out for VERSION (bc_filterdb_write, what bloom_export writes;
 * node.sh checks one against bloom_agg and bloom_export).
 *
 * Prints: n, the real keys, hash count, word count, bytes, fp_chance.
 *
 * Plain C against the core (bc_index, bc_statistics, bc_sizing, bc_filter,
 * bc_codec).
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_codec.h"
#include "bc_filter.h"
#include "bc_index.h"
#include "bc_sizing.h"
#include "bc_statistics.h"
#include "bc_status.h"

static void
die(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "node_filter: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	exit(1);
}

/* a whole file, malloc'ed */
static uint8_t *
slurp(const char *path, size_t *len)
{
	FILE	   *f = fopen(path, "rb");
	uint8_t    *buf = NULL;
	size_t		cap = 0,
				n = 0;

	if (f == NULL)
		die("%s: %s", path, strerror(errno));
	for (;;)
	{
		size_t		got;

		if (n == cap)
		{
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			if (buf == NULL)
				die("%s: %s", path, "out of memory");
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f))
		die("%s: %s", path, "read error");
	fclose(f);
	*len = n;
	return buf;
}

static int
add_key(const bc_index_entry *e, void *arg)
{
	bc_filter_add((bc_filter *) arg, e->key, e->key_len);
	return 0;
}

static char *
component(const char *prefix, const char *name)
{
	size_t		n = strlen(prefix) + strlen(name) + 2;
	char	   *p = malloc(n);

	if (p == NULL)
		die("%s%s", "out of memory", "");
	snprintf(p, n, "%s-%s", prefix, name);
	return p;
}

int
main(int argc, char **argv)
{
	const char *prefix,
			   *version,
			   *out;
	char	   *path,
			   *end;
	uint8_t    *data,
			   *bits,
			   *image;
	size_t		len;
	long long	want;
	double		fp = 0.01;
	bc_statistics st;
	bc_sizing	sz;
	bc_order	order;
	bc_layout	layout;
	bc_filter	f;
	bc_status	rc;
	uint64_t	real = 0,
				i;
	int64_t		n;
	FILE	   *o;

	if (argc != 5)
	{
		fprintf(stderr, "usage: node_filter PREFIX VERSION BYTES OUT\n");
		return 2;
	}
	prefix = argv[1];
	version = argv[2];
	want = strtoll(argv[3], &end, 10);
	out = argv[4];
	if (*end != '\0' || want < 1024)
		die("BYTES must be a number of at least 1024, not %s%s", argv[3], "");
	if (bc_version_lookup(version, strlen(version), &order, &layout) != BC_OK)
		die("unknown SSTable version %s%s", version, "");

	/* fp_chance from Statistics.db */
	path = component(prefix, "Statistics.db");
	data = slurp(path, &len);
	rc = bc_statistics_parse(data, len, version, strlen(version), &st);
	if (rc != BC_OK)
		die("%s: %s", path, bc_status_message(rc));
	if (st.has_fp_chance)
		fp = st.fp_chance;
	free(data);
	free(path);

	/* n for about `want` bytes: num_bits = n * buckets + 20 */
	rc = bc_sizing_compute(1000000, fp, &sz);
	if (rc != BC_OK)
		die("sizing: %s%s", bc_status_message(rc), "");
	n = ((int64_t) (want - BC_FILTERDB_HEADER) * 8 - 20) / sz.buckets_per_element;
	rc = bc_sizing_compute(n, fp, &sz);
	if (rc != BC_OK)
		die("sizing: %s%s", bc_status_message(rc), "");

	bits = calloc((size_t) sz.word_count, 8);
	image = malloc((size_t) sz.filter_db_bytes);
	if (bits == NULL || image == NULL)
		die("%s%s", "out of memory", "");
	bc_filter_init(&f, sz.hash_count, sz.word_count, order, bits);

	/* the SSTable's own keys */
	path = component(prefix, "Index.db");
	data = slurp(path, &len);
	rc = bc_index_parse(version, strlen(version), data, len, add_key, &f, &real);
	if (rc != BC_OK)
		die("%s: %s", path, bc_status_message(rc));
	free(data);
	free(path);
	if ((int64_t) real > n)
		die("%s: more keys than the filter is sized for%s", prefix, "");

	/* then numbers up to n keys */
	for (i = 0; i < (uint64_t) n - real; i++)
	{
		uint64_t	v = (UINT64_C(1) << 62) + i;
		uint8_t		key[8];
		int			b;

		for (b = 0; b < 8; b++)
			key[b] = (uint8_t) (v >> (56 - 8 * b));
		bc_filter_add(&f, key, sizeof(key));
	}

	bc_filterdb_write(&f, layout, image);
	o = fopen(out, "wb");
	if (o == NULL)
		die("%s: %s", out, strerror(errno));
	if (fwrite(image, 1, (size_t) sz.filter_db_bytes, o) != (size_t) sz.filter_db_bytes ||
		fclose(o) != 0)
		die("%s: %s", out, "write error");
	printf("%" PRId64 "\t%" PRIu64 "\t%d\t%" PRId64 "\t%" PRId64 "\t%.17g\n",
		   n, real, sz.hash_count, sz.word_count, sz.filter_db_bytes, fp);
	free(bits);
	free(image);
	return 0;
}
