/*
 * unit_main.c - runs every suite of the core's unit tests.
 *
 * Usage: unit_tests [DATA_DIR]   (default: test/data)
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include "unit.h"

long		unit_passed = 0;
long		unit_failed = 0;
static const char *data_dir = "test/data";

void
unit_fail(const char *file, int line, const char *fmt,...)
{
	va_list		ap;

	unit_failed++;
	if (unit_failed > 200)
		return;					/* keep the log readable */
	fprintf(stderr, "FAIL %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

const char *
unit_path(const char *rel)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s/%s", data_dir, rel);
	return buf;
}

uint8_t *
unit_read_file(const char *path, size_t *len)
{
	FILE	   *fp = fopen(path, "rb");
	uint8_t    *buf = NULL;
	size_t		cap = 0,
				n = 0;

	if (fp == NULL)
		return NULL;
	for (;;)
	{
		size_t		r;

		if (n == cap)
		{
			uint8_t    *nb;

			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (nb == NULL)
			{
				free(buf);
				fclose(fp);
				return NULL;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n, fp);
		n += r;
		if (r == 0)
			break;
	}
	fclose(fp);
	*len = n;
	if (buf == NULL)
		buf = malloc(1);
	return buf;
}

int
unit_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

uint8_t *
unit_hex_decode(const char *hex, size_t hexlen, size_t *len)
{
	uint8_t    *out;
	size_t		i;

	if (hexlen % 2 != 0)
		return NULL;
	out = malloc(hexlen / 2 + 1);
	if (out == NULL)
		return NULL;
	for (i = 0; i < hexlen / 2; i++)
	{
		int			hi = unit_hexval(hex[2 * i]),
					lo = unit_hexval(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
		{
			free(out);
			return NULL;
		}
		out[i] = (uint8_t) (hi * 16 + lo);
	}
	*len = hexlen / 2;
	return out;
}

char *
unit_hex_encode(const uint8_t *data, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	char	   *out = malloc(2 * len + 1);
	size_t		i;

	if (out == NULL)
		return NULL;
	for (i = 0; i < len; i++)
	{
		out[2 * i] = digits[data[i] >> 4];
		out[2 * i + 1] = digits[data[i] & 15];
	}
	out[2 * len] = '\0';
	return out;
}

int
unit_hex_eq(const uint8_t *data, size_t len, const char *hex)
{
	char	   *h = unit_hex_encode(data, len);
	int			r = strcmp(h, hex) == 0;

	free(h);
	return r;
}

void
unit_check_bytes(int line, const char *what, const uint8_t *got, size_t len,
				 const char *want_hex)
{
	char	   *hex = unit_hex_encode(got, len);

	CHECK(hex != NULL && strcmp(hex, want_hex) == 0,
		  "line %d: %s: got %s, want %s", line, what, hex ? hex : "?",
		  want_hex);
	free(hex);
}

int
unit_tsv_open(unit_tsv *t, const char *rel)
{
	memset(t, 0, sizeof(*t));
	t->name = rel;
	t->fp = fopen(unit_path(rel), "r");
	if (t->fp == NULL)
	{
		unit_fail(__FILE__, __LINE__, "cannot open %s: %s", unit_path(rel),
				  strerror(errno));
		return -1;
	}
	return 0;
}

int
unit_tsv_next(unit_tsv *t, char **fields, int maxf)
{
	for (;;)
	{
		size_t		n = 0;
		int			c,
					nf;
		char	   *p;

		while ((c = fgetc(t->fp)) != EOF && c != '\n')
		{
			if (n + 2 > t->cap)
			{
				t->cap = t->cap ? t->cap * 2 : 1024;
				t->line = realloc(t->line, t->cap);
				if (t->line == NULL)
					return -1;
			}
			t->line[n++] = (char) c;
		}
		if (c == EOF && n == 0)
			return -1;
		if (t->line == NULL)
		{
			t->cap = 16;
			t->line = malloc(t->cap);
		}
		t->line[n] = '\0';
		if (n > 0 && t->line[n - 1] == '\r')
			t->line[--n] = '\0';
		t->lineno++;
		if (n == 0 || t->line[0] == '#')
			continue;
		nf = 0;
		p = t->line;
		fields[nf++] = p;
		while (*p && nf < maxf)
		{
			if (*p == '\t')
			{
				*p = '\0';
				fields[nf++] = p + 1;
			}
			p++;
		}
		return nf;
	}
}

void
unit_tsv_close(unit_tsv *t)
{
	if (t->fp)
		fclose(t->fp);
	free(t->line);
	memset(t, 0, sizeof(*t));
}

static int
unit_mem_read(void *arg, uint64_t offset, uint8_t *buf, size_t len, size_t *got)
{
	unit_mem   *m = arg;
	size_t		n = 0;

	m->nreads++;
	*got = 0;
	if (m->nreads == m->fail_at)
		return 1;
	if (len > m->max_request)
		m->max_request = len;
	if (offset != m->next)
		m->out_of_order = 1;
	if (offset < m->len)
	{
		n = m->len - (size_t) offset;
		if (n > len)
			n = len;
		if (m->piece > 0 && n > m->piece)
			n = m->piece;
		if (m->nreads == m->short_at)
			n /= 2;
		memcpy(buf, m->data + offset, n);
	}
	*got = n;
	m->bytes += n;
	m->next = offset + n;
	return 0;
}

bc_reader
unit_mem_reader(unit_mem *m)
{
	bc_reader	r;

	r.read = unit_mem_read;
	r.arg = m;
	r.size = m->len;
	return r;
}

void
unit_mem_open(unit_mem *m, bc_reader *r, const uint8_t *data, size_t len)
{
	memset(m, 0, sizeof(*m));
	m->data = data;
	m->len = len;
	*r = unit_mem_reader(m);
}

int
unit_parse_i64(const char *s, int64_t *out)
{
	char	   *end;
	long long	v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0')
		return -1;
	*out = (int64_t) v;
	return 0;
}

struct suite
{
	const char *name;
	void		(*fn) (void);
};

int
main(int argc, char **argv)
{
	static const struct suite suites[] = {
		{"murmur3", suite_murmur3},
		{"indexes", suite_indexes},
		{"sizing", suite_sizing},
		{"codec", suite_codec},
		{"status", suite_status},
		{"ops", suite_ops},
		{"filters", suite_filters},
		{"real_filters", suite_real_filters},
		{"keys", suite_keys},
		{"keys_number", suite_keys_number},
		{"keys_types", suite_keys_types},
		{"index", suite_index},
		{"summary", suite_summary},
		{"sstable_name", suite_sstable_name},
		{"statistics", suite_statistics},
		{"stats_damaged", suite_statistics_damaged},
		{"stats_layouts", suite_statistics_layouts},
		{"metadata", suite_metadata},
		{"hll", suite_hll},
		{"filter_sizing", suite_filter_sizing},
		{"txn_log", suite_txn_log},
		{"sstable_dir", suite_sstable_dir},
		{"health", suite_health},
		{"partitions", suite_partitions},
		{"scylladb", suite_scylladb},
		{"compression", suite_compression},
		{"data_damaged", suite_compression_damaged},
		{"compression_dict", suite_compression_dict},
		{"walk", suite_walk},
		{"walk_links", suite_walk_links},
		{"walk_logs", suite_walk_logs},
		{"mounts", suite_mounts},
		{"open", suite_open},
		{"key_range", suite_key_range},
		{"key_range_bti", suite_key_range_bti},
		{"partitioner", suite_partitioner},
		{"lookup", suite_lookup},
		{"trie", suite_trie},
		{"trie_keys", suite_trie_keys},
		{"index_samples", suite_index_samples},
		{"agreement", suite_agreement},
		{"data_bounds", suite_data_bounds},
		{"trie_scylladb", suite_trie_scylladb},
		{"datastax", suite_datastax},
		{"cqltype", suite_cqltype},
		{"cqlvalue", suite_cqlvalue},
		{"recursion", suite_recursion},
		{"partition_sizes", suite_partition_sizes},
	};
	size_t		i;

	if (argc > 1)
		data_dir = argv[1];
	for (i = 0; i < sizeof(suites) / sizeof(suites[0]); i++)
	{
		long		p0 = unit_passed,
					f0 = unit_failed;

		suites[i].fn();
		printf("  %-14s %6ld checks, %ld failed\n", suites[i].name,
			   (unit_passed - p0) + (unit_failed - f0), unit_failed - f0);
	}
	printf("unit: %ld passed, %ld failed\n", unit_passed, unit_failed);
	return unit_failed == 0 ? 0 : 1;
}
