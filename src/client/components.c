/*
 * components.c - an SSTable's components read from the node's disk and
 * checked with the core's readers: whole small components, the first and
 * last keys of a BTI Partitions.db footer, and Index.db walked in bounded
 * pieces (its keys, or its first and last key).
 */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_index.h"
#include "bc_partitions.h"
#include "bc_status.h"
#include "load.h"

#define INDEX_PIECE ((size_t) 1024 * 1024)
#define MAX_PARTITIONS_KEYS ((uint64_t) 2 * (2 + BC_INDEX_MAX_KEY))

static char *
component_path(const ld_sstable *s, const char *component)
{
	size_t		n = strlen(s->prefix) + strlen(component) + 2;
	char	   *p = malloc(n);

	if (p == NULL)
	{
		fprintf(stderr, "bloomcass-load: out of memory\n");
		exit(EXIT_USAGE);
	}
	snprintf(p, n, "%s-%s", s->prefix, component);
	return p;
}

/* the whole of a component (when the SSTable has it); 0 after an error */
int
ld_read_component(const ld_sstable *s, const char *component, int64_t max, blob *b)
{
	char	   *path;
	FILE	   *f;
	int64_t		size = ld_component_size(s, component);
	size_t		got = 0,
				n;
	size_t		cap;

	memset(b, 0, sizeof(*b));
	if (size < 0)
		return 1;
	path = component_path(s, component);
	f = fopen(path, "rb");
	if (f == NULL)
	{
		ld_error("%s: cannot read %s: %s", s->prefix, component, strerror(errno));
		free(path);
		return 0;
	}
	if (size > max)
	{
		ld_error("%s: %s has %lld bytes, more than %lld", s->prefix, component,
				 (long long) size, (long long) max);
		fclose(f);
		free(path);
		return 0;
	}
	cap = (size_t) size + 1;
	b->data = malloc(cap);
	if (b->data == NULL)
	{
		ld_error("%s: out of memory reading %s", s->prefix, component);
		fclose(f);
		free(path);
		return 0;
	}
	while ((n = fread(b->data + got, 1, cap - got, f)) > 0)
	{
		got += n;
		if (got == cap)
			break;
	}
	if (ferror(f) || got == cap)
	{
		ld_error("%s: cannot read %s: %s", s->prefix, component,
				 ferror(f) ? strerror(errno) : "it grew while being read");
		fclose(f);
		free(path);
		free(b->data);
		b->data = NULL;
		return 0;
	}
	fclose(f);
	free(path);
	b->len = got;
	b->present = 1;
	return 1;
}

/* first and last key of a BTI SSTable from its Partitions.db footer */
int
ld_read_partitions_range(const ld_sstable *s, blob *first, blob *last)
{
	char	   *path = component_path(s, "Partitions.db");
	FILE	   *f = fopen(path, "rb");
	uint8_t		tail[BC_PARTITIONS_FOOTER];
	uint8_t    *keys = NULL;
	bc_partitions_footer footer;
	const uint8_t *fk,
			   *lk;
	size_t		fl,
				ll;
	uint64_t	keys_len;
	long long	size;
	bc_status	rc;
	int			ok = 0;

	if (f == NULL)
	{
		ld_error("%s: cannot read Partitions.db: %s", s->prefix, strerror(errno));
		free(path);
		return 0;
	}
	if (fseeko(f, 0, SEEK_END) != 0 || (size = (long long) ftello(f)) < 0)
	{
		ld_error("%s: cannot read Partitions.db: %s", s->prefix, strerror(errno));
		goto out;
	}
	if (size < BC_PARTITIONS_FOOTER)
		rc = BC_ERR_PARTITIONS_TRUNCATED;
	else if (fseeko(f, size - BC_PARTITIONS_FOOTER, SEEK_SET) != 0 ||
			 fread(tail, 1, BC_PARTITIONS_FOOTER, f) != BC_PARTITIONS_FOOTER)
		rc = BC_ERR_PARTITIONS_TRUNCATED;
	else
		rc = bc_partitions_footer_parse(tail, (uint64_t) size, &footer);
	if (rc != BC_OK)
	{
		ld_error("%s: Partitions.db: %s", s->prefix, bc_status_message(rc));
		goto out;
	}
	keys_len = (uint64_t) size - BC_PARTITIONS_FOOTER - footer.keys_pos;
	if (keys_len > MAX_PARTITIONS_KEYS)
	{
		ld_error("%s: Partitions.db has %llu bytes between its trie and its footer, more than its first and last key can take",
				 s->prefix, (unsigned long long) keys_len);
		goto out;
	}
	keys = malloc(keys_len ? keys_len : 1);
	if (fseeko(f, (off_t) footer.keys_pos, SEEK_SET) != 0 ||
		fread(keys, 1, keys_len, f) != keys_len)
		rc = BC_ERR_PARTITIONS_TRUNCATED;
	else
	{
		rc = bc_partitions_keys_parse(keys, (size_t) keys_len, &fk, &fl, &lk, &ll);
		if (rc == BC_OK)
			rc = bc_partitions_keys_check(&footer, fk, fl, lk, ll);
	}
	if (rc != BC_OK)
	{
		ld_error("%s: Partitions.db: %s", s->prefix, bc_status_message(rc));
		goto out;
	}
	if (footer.key_count > 0)
	{
		first->data = malloc(fl ? fl : 1);
		memcpy(first->data, fk, fl);
		first->len = fl;
		first->present = 1;
		last->data = malloc(ll ? ll : 1);
		memcpy(last->data, lk, ll);
		last->len = ll;
		last->present = 1;
	}
	ok = 1;
out:
	free(keys);
	fclose(f);
	free(path);
	return ok;
}

/*
 * Walk Index.db in pieces: fn gets every key (may be NULL).  0 after an
 * error (reported); fn returning non-zero stops with 0 too (it reports).
 */
int
ld_walk_index(const ld_sstable *s, int (*fn) (void *arg, const uint8_t *key, size_t len),
			  void *arg, blob *first, blob *last)
{
	char	   *path = component_path(s, "Index.db");
	FILE	   *f;
	bc_index_cursor *c = malloc(sizeof(bc_index_cursor));
	uint8_t    *buf = malloc(INDEX_PIECE);
	bc_index_entry e;
	bc_status	rc;
	size_t		got;
	int			have,
				ok = 0;

	rc = bc_index_init(c, s->version, strlen(s->version));
	if (rc != BC_OK)
	{
		ld_error("%s: Index.db: %s", s->prefix, bc_status_message(rc));
		free(c);
		free(buf);
		free(path);
		return 0;
	}
	f = fopen(path, "rb");
	if (f == NULL)
	{
		ld_error("%s: cannot read Index.db: %s", s->prefix, strerror(errno));
		free(c);
		free(buf);
		free(path);
		return 0;
	}
	if (last)
		last->data = malloc(BC_INDEX_MAX_KEY + 1);
	while ((got = fread(buf, 1, INDEX_PIECE, f)) > 0)
	{
		rc = bc_index_feed(c, buf, got);
		while (rc == BC_OK)
		{
			rc = bc_index_next(c, &e, &have);
			if (rc != BC_OK || !have)
				break;
			if (fn && fn(arg, e.key, e.key_len))
				goto out;
			if (first && !first->present)
			{
				first->data = malloc(e.key_len ? e.key_len : 1);
				memcpy(first->data, e.key, e.key_len);
				first->len = e.key_len;
				first->present = 1;
			}
			if (last)
			{
				memcpy(last->data, e.key, e.key_len);
				last->len = e.key_len;
				last->present = 1;
			}
		}
		if (rc != BC_OK)
			break;
		if (ld_stop_requested)
			goto out;
	}
	if (ferror(f))
	{
		ld_error("%s: cannot read Index.db: %s", s->prefix, strerror(errno));
		goto out;
	}
	if (rc == BC_OK)
		rc = bc_index_finish(c);
	if (rc != BC_OK)
	{
		ld_error("%s: Index.db: %s", s->prefix, bc_status_message(rc));
		goto out;
	}
	ok = 1;
out:
	fclose(f);
	free(c);
	free(buf);
	free(path);
	return ok;
}
