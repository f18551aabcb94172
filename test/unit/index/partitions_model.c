/*
 * partitions_model.c - what the tests of Partitions.db share (see
 * partitions_model.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_endian.h"
#include "bc_partitions.h"
#include "bc_status.h"
#include "partitions_model.h"
#include "unit.h"

static uint64_t
be64(const uint8_t *p)
{
	uint64_t	v = 0;
	int			i;

	for (i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

model
model_parse(const uint8_t *d, size_t len)
{
	model		m;
	size_t		body,
				p;

	memset(&m, 0, sizeof(m));
	if (len < 24)
	{
		m.st = BC_ERR_PARTITIONS_TRUNCATED;
		return m;
	}
	body = len - 24;
	m.keys_pos = be64(d + body);
	m.count = be64(d + body + 8);
	m.root = be64(d + body + 16);
	if (m.keys_pos + 4 > body || m.keys_pos > body ||
		m.root >= m.keys_pos || m.count > m.keys_pos)
	{
		m.st = BC_ERR_PARTITIONS_FORMAT;
		return m;
	}
	p = (size_t) m.keys_pos;
	m.first_len = ((size_t) d[p] << 8) | d[p + 1];
	m.first_off = p + 2;
	if (m.first_off + m.first_len + 2 > body)
	{
		m.st = BC_ERR_PARTITIONS_TRUNCATED;
		return m;
	}
	p = m.first_off + m.first_len;
	m.last_len = ((size_t) d[p] << 8) | d[p + 1];
	m.last_off = p + 2;
	/* bytes after the last key, before the footer: ignored, as the
	 * readers do */
	if (m.last_off + m.last_len > body)
		m.st = BC_ERR_PARTITIONS_TRUNCATED;
	else
	{
		int			same = m.first_len == m.last_len &&
			memcmp(d + m.first_off, d + m.last_off, m.first_len) == 0;

		if (m.count == 0)
			m.st = m.first_len == 0 && m.last_len == 0 ? BC_OK : BC_ERR_PARTITIONS_FORMAT;
		else if (m.count == 1)
			m.st = same ? BC_OK : BC_ERR_PARTITIONS_FORMAT;
		else
			m.st = same ? BC_ERR_PARTITIONS_FORMAT : BC_OK;
	}
	return m;
}

int
is_partitions_status(bc_status st)
{
	return st == BC_ERR_PARTITIONS_TRUNCATED || st == BC_ERR_PARTITIONS_FORMAT ||
		st == BC_ERR_PARTITIONS_TRAILING;
}

/*
 * Read d[0 .. len) as a whole file (bc_partitions_parse) and through the
 * two-step API from exact-size copies of the footer and of the keys, so
 * that the sanitizers see any read outside them; both must agree with the
 * model.  Returns the status.
 */
bc_status
check_file(const uint8_t *d, size_t len, const char *what)
{
	model		m = model_parse(d, len);
	bc_partitions_footer f,
				f2;
	const uint8_t *a = d,
			   *z = d;
	size_t		al = 7,
				zl = 7;
	bc_status	st,
				st2;
	uint8_t    *tail = NULL;

	memset(&f, 0x5a, sizeof(f));
	st = bc_partitions_parse(d, len, &f, &a, &al, &z, &zl);
	CHECK(st == m.st, "%s (%zu bytes): %s, model %s", what, len,
		  bc_status_message(st), bc_status_message(m.st));
	if (st == BC_OK)
	{
		CHECK(f.keys_pos == m.keys_pos && f.key_count == m.count && f.root == m.root,
			  "%s: footer fields", what);
		CHECK(a == d + m.first_off && al == m.first_len &&
			  z == d + m.last_off && zl == m.last_len, "%s: keys", what);
	}
	else
		CHECK(f.keys_pos == 0 && f.key_count == 0 && f.root == 0 &&
			  a == NULL && al == 0 && z == NULL && zl == 0,
			  "%s: outputs not cleared on error", what);

	/* the two steps, as a reader of the file's tail and then its keys */
	if (len >= BC_PARTITIONS_FOOTER)
	{
		tail = malloc(BC_PARTITIONS_FOOTER);
		memcpy(tail, d + len - BC_PARTITIONS_FOOTER, BC_PARTITIONS_FOOTER);
	}
	memset(&f2, 0x5a, sizeof(f2));
	st2 = bc_partitions_footer_parse(tail, len, &f2);
	free(tail);
	if (st2 != BC_OK)
	{
		CHECK(st2 == st, "%s: footer step %s, whole %s", what,
			  bc_status_message(st2), bc_status_message(st));
		CHECK(f2.keys_pos == 0 && f2.key_count == 0 && f2.root == 0,
			  "%s: footer not cleared on error", what);
	}
	else
	{
		size_t		klen = len - BC_PARTITIONS_FOOTER - (size_t) f2.keys_pos;
		uint8_t    *keys = malloc(klen ? klen : 1);

		CHECK(f2.keys_pos == m.keys_pos && f2.key_count == m.count &&
			  f2.root == m.root, "%s: footer step fields", what);
		memcpy(keys, d + f2.keys_pos, klen);
		st2 = bc_partitions_keys_parse(keys, klen, &a, &al, &z, &zl);
		if (st2 == BC_OK)
		{
			CHECK(a == keys + 2 && al == m.first_len && z == keys + 4 + al &&
				  zl == m.last_len && memcmp(a, d + m.first_off, al) == 0 &&
				  memcmp(z, d + m.last_off, zl) == 0, "%s: keys step", what);
			st2 = bc_partitions_keys_check(&f2, a, al, z, zl);
		}
		else
			CHECK(a == NULL && al == 0 && z == NULL && zl == 0,
				  "%s: keys not cleared on error", what);
		CHECK(st2 == st, "%s: two steps %s, whole %s", what,
			  bc_status_message(st2), bc_status_message(st));
		free(keys);
	}
	CHECK(st == BC_OK || is_partitions_status(st), "%s: status %d", what, (int) st);
	return st;
}

size_t
partitions_build(uint8_t *out, size_t trie, const uint8_t *k1, size_t l1,
				 const uint8_t *k2, size_t l2, size_t extra, uint64_t count, uint64_t root)
{
	size_t		p = trie;

	memset(out, 0x11, trie);
	out[p++] = (uint8_t) (l1 >> 8);
	out[p++] = (uint8_t) l1;
	memcpy(out + p, k1, l1);
	p += l1;
	out[p++] = (uint8_t) (l2 >> 8);
	out[p++] = (uint8_t) l2;
	memcpy(out + p, k2, l2);
	p += l2;
	memset(out + p, 0, extra);
	p += extra;
	bc_put_be64(out + p, trie);
	bc_put_be64(out + p + 8, count);
	bc_put_be64(out + p + 16, root);
	return p + 24;
}

void
bti_files_open(bti_files *b)
{
	b->count = 0;
	b->open = unit_tsv_open(&b->t, "sstables/MANIFEST.tsv") == 0;
	if (b->open)
		unit_tsv_next(&b->t, b->f, 40);	/* header */
}

uint8_t *
bti_files_next(bti_files *b, size_t *len)
{
	int			nf;

	while (b->open && (nf = unit_tsv_next(&b->t, b->f, 40)) >= 0)
	{
		char		rel[4096];
		uint8_t    *data;

		if (nf < 14)
		{
			unit_fail(__FILE__, __LINE__, "MANIFEST line %ld: %d fields", b->t.lineno, nf);
			continue;
		}
		if (strcmp(b->f[3], "bti") != 0)
			continue;
		snprintf(b->what, sizeof(b->what), "%s/%s", b->f[0], b->f[1]);
		snprintf(rel, sizeof(rel), "sstables/%s/%s-Partitions.db", b->f[0], b->f[1]);
		data = unit_read_file(unit_path(rel), len);
		CHECK(data != NULL, "%s: no Partitions.db", b->what);
		if (data == NULL)
			continue;
		b->count++;
		return data;
	}
	return NULL;
}

void
bti_files_close(bti_files *b)
{
	if (b->open)
		unit_tsv_close(&b->t);
	b->open = 0;
}
