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
#include <unistd.h>

#include "bc_index.h"
#include "bc_index_samples.h"
#include "bc_key_range.h"
#include "bc_open.h"
#include "bc_partitions.h"
#include "bc_sstable_name.h"
#include "bc_status.h"
#include "load.h"

#define INDEX_PIECE ((size_t) 1024 * 1024)

static char *
component_path(const ld_sstable *s, const char *component)
{
	size_t		n = strlen(s->prefix) + strlen(component) + 2;
	char	   *p = ld_xmalloc(n);

	snprintf(p, n, "%s-%s", s->prefix, component);
	return p;
}

/*
 * A component opened for reading, or NULL after reporting why not: only a
 * regular file is opened (bc_open_regular), so that a FIFO in a component's
 * place can never block the load.
 */
static int
open_regular(const ld_sstable *s, const char *component, const char *path, int64_t *size)
{
	int			fd;
	const char *kind;
	bc_open_status st = bc_open_regular(path, bc_open_posix, bc_close_posix, NULL, &fd, size, &kind);

	if (st == BC_OPEN_NOT_REGULAR)
		ld_error("%s: cannot read %s: it is not a regular file: it is %s", s->prefix, component, kind);
	else if (st != BC_OPEN_OK)
		ld_error("%s: cannot read %s: %s", s->prefix, component, strerror(errno));
	return fd;
}

static FILE *
open_stream(const ld_sstable *s, const char *component, const char *path)
{
	int64_t		size;
	int			fd = open_regular(s, component, path, &size);
	FILE	   *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "rb");
	if (f == NULL)
	{
		ld_error("%s: cannot read %s: %s", s->prefix, component, strerror(errno));
		close(fd);
	}
	return f;
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
	f = open_stream(s, component, path);
	if (f == NULL)
	{
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

/* an open component, read through the core's readers (bc_reader.h) */
typedef struct ld_file
{
	int			fd;
	int			err;			/* errno of a failed read, 0 when stopped */
} ld_file;

static int
file_read(void *arg, uint64_t offset, uint8_t *buf, size_t len, size_t *got)
{
	ld_file    *f = arg;

	*got = 0;
	while (*got < len)
	{
		ssize_t		n;

		if (ld_stop_requested)
		{
			f->err = 0;
			return 1;
		}
		n = pread(f->fd, buf + *got, len - *got, (off_t) (offset + *got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
		{
			f->err = errno;
			return 1;
		}
		if (n == 0)
			break;
		*got += (size_t) n;
	}
	return 0;
}

/* open a component for a bc_reader; 0 after reporting why not */
static int
open_component(const ld_sstable *s, const char *component, ld_file *f, bc_reader *r)
{
	char	   *path = component_path(s, component);
	int64_t		size;

	f->err = 0;
	f->fd = open_regular(s, component, path, &size);
	free(path);
	if (f->fd < 0)
		return 0;
	r->read = file_read;
	r->arg = f;
	r->size = (uint64_t) size;
	return 1;
}

/* close it and report how a core reader ended; 1 when it succeeded */
static int
close_component(const ld_sstable *s, const char *component, ld_file *f, bc_status rc)
{
	close(f->fd);
	if (rc == BC_ERR_READ && f->err != 0)
		ld_error("%s: cannot read %s: %s", s->prefix, component, strerror(f->err));
	else if (rc != BC_OK && rc != BC_ERR_READ && rc != BC_ERR_STOPPED)
		ld_error("%s: %s: %s", s->prefix, component, bc_status_message(rc));
	return rc == BC_OK;
}

static void
blob_set(blob *b, const uint8_t *data, size_t len)
{
	b->data = ld_xmalloc(len);
	memcpy(b->data, data, len);
	b->len = len;
	b->present = 1;
}

/* first and last key of a BTI SSTable from its Partitions.db footer */
int
ld_read_partitions_range(const ld_sstable *s, blob *first, blob *last)
{
	ld_file		f;
	bc_reader	r;
	uint8_t    *keys;
	bc_partitions_footer footer;
	const uint8_t *fk,
			   *lk;
	size_t		fl,
				ll;
	bc_status	rc;

	if (!open_component(s, "Partitions.db", &f, &r))
		return 0;
	keys = ld_xmalloc(BC_PARTITIONS_MAX_KEYS);
	rc = bc_partitions_range(&r, keys, &footer, &fk, &fl, &lk, &ll);
	if (rc == BC_OK && footer.key_count > 0)
	{
		blob_set(first, fk, fl);
		blob_set(last, lk, ll);
	}
	free(keys);
	return close_component(s, "Partitions.db", &f, rc);
}

/* what ld_walk_index's caller gave, for the core's callback */
typedef struct index_keys
{
	ld_key_fn	fn;
	void	   *arg;
} index_keys;

static int
index_key(void *arg, const bc_index_entry *e)
{
	index_keys *k = arg;

	return k->fn(k->arg, e->key, e->key_len, (uint64_t) e->position);
}

static void close_samples(bc_index_samples *samples, ld_file *sf);

/*
 * Summary.db's samples, which a walk of Index.db for its keys checks every
 * entry against (bc_index_samples.h), as cassandra_sstable_keys does: NULL
 * without Summary.db (or a header a lookup does not use); 0 after an error
 * (reported).  Its file stays open in *sf (fd -1 when none).
 */
static int
open_samples(const ld_sstable *s, const bc_reader *index, ld_file *sf, bc_reader *sr,
			 bc_index_samples **out)
{
	size_t		n = 0;
	bc_index_sample *slots;
	uint8_t    *window;
	bc_status	rc;

	*out = NULL;
	sf->fd = -1;
	if (ld_component_size(s, "Summary.db") < 0)
		return 1;
	if (!open_component(s, "Summary.db", sf, sr))
		return 0;
	rc = bc_index_samples_count(sr, s->version, strlen(s->version), &n);
	if (rc != BC_OK || n == 0)
		return rc == BC_OK || close_component(s, "Summary.db", sf, rc);
	*out = ld_xmalloc(sizeof(bc_index_samples));
	slots = ld_xmalloc(n * sizeof(bc_index_sample));
	window = ld_xmalloc(2 * BC_INDEX_SAMPLES_WINDOW);
	rc = bc_index_samples_init(*out, sr, index, s->version, strlen(s->version), slots, n,
							   window, ld_xmalloc(BC_LOOKUP_SCRATCH));
	free(window);
	if (rc == BC_OK)
		return 1;
	free(slots);
	free((*out)->scratch);
	free(*out);
	*out = NULL;
	return close_component(s, "Summary.db", sf, rc);
}

static void
close_samples(bc_index_samples *samples, ld_file *sf)
{
	if (samples != NULL)
	{
		free(samples->slots);
		free(samples->scratch);
		free(samples);
	}
	if (sf->fd >= 0)
		close(sf->fd);
	sf->fd = -1;
}

/*
 * Walk Index.db in pieces: fn gets every key (may be NULL; when not, each
 * entry checked against Summary.db's samples).  0 after an error (reported); fn
 * returning non-zero stops with 0 too (it reports).
 */
int
ld_walk_index(const ld_sstable *s, const uint8_t *partitioner, size_t partitioner_len,
			  ld_key_fn fn, void *arg, blob *first, blob *last)
{
	ld_file		f,
				sf;
	bc_reader	r,
				sr;
	bc_index_walk *w;
	uint8_t    *piece;
	index_keys	k = {fn, arg};
	bc_status	rc;

	if (!open_component(s, "Index.db", &f, &r))
		return 0;
	w = ld_xmalloc(sizeof(bc_index_walk));
	w->order = NULL;
	w->samples = NULL;
	sf.fd = -1;
	/* the keys, as cassandra_sstable_keys reads them (the first and last
	 * key alone are read as cassandra_sstables reads them, without) */
	if (fn != NULL && !open_samples(s, &r, &sf, &sr, &w->samples))
	{
		free(w);
		return close_component(s, "Index.db", &f, BC_ERR_STOPPED);
	}
	if (partitioner != NULL)
	{
		w->order = ld_xmalloc(sizeof(bc_key_order));
		bc_key_order_init(w->order, bc_partitioner_of((const char *) partitioner,
													  partitioner_len), NULL);
	}
	piece = ld_xmalloc(INDEX_PIECE);
	rc = bc_index_walk_run(w, &r, s->version, strlen(s->version), piece, INDEX_PIECE,
						   fn ? index_key : NULL, &k);
	if (rc == BC_OK && w->nkeys > 0)
	{
		if (first)
			blob_set(first, w->first, w->first_len);
		if (last)
			blob_set(last, w->last, w->last_len);
	}
	/* a read of Summary.db that failed names it */
	if (rc == BC_ERR_READ && sf.fd >= 0 && sf.err != 0)
		ld_error("%s: cannot read Summary.db: %s", s->prefix, strerror(sf.err));
	close_samples(w->samples, &sf);
	free(piece);
	free(w->order);
	free(w);
	return close_component(s, "Index.db", &f, rc);
}

int
ld_data_length(const ld_sstable *s, uint64_t *length, int *unknown)
{
	blob		info,
				toc;
	int64_t		size = ld_component_size(s, "Data.db");
	bc_status	rc;

	*unknown = 0;
	if (size < 0)
	{
		ld_error("%s: cannot read Data.db", s->prefix);
		return 0;
	}
	if (!ld_read_component(s, "CompressionInfo.db", LD_MAX_SMALL_BYTES, &info))
		return 0;

	/*
	 * TOC.txt lists a CompressionInfo.db that is not there: Data.db is
	 * compressed (Cassandra's reader takes the components TOC.txt lists,
	 * TOCComponent.loadTOC, and does not open such an SSTable); its size
	 * is not the uncompressed length, which nothing else gives.
	 */
	if (!info.present && ld_read_component(s, "TOC.txt", LD_MAX_SMALL_BYTES, &toc))
	{
		*unknown = toc.present && bc_toc_lists(toc.data, toc.len, "CompressionInfo.db");
		free(toc.data);
		if (*unknown)
			ld_warning("%s: CompressionInfo.db is missing, which TOC.txt lists: Data.db is "
					 "compressed and its uncompressed length unknown: the last partition's size is "
					 "left NULL", s->prefix);
	}
	rc = bc_data_uncompressed_length(s->version, strlen(s->version),
									 info.present ? info.data : NULL, info.len,
									 (uint64_t) size, length);
	free(info.data);
	if (rc != BC_OK)
		ld_error("%s: CompressionInfo.db: %s", s->prefix, bc_status_message(rc));
	return rc == BC_OK;
}

/* the chunk buffers of a compressed Data.db */
static void *
data_alloc(void *arg, size_t size)
{
	(void) arg;
	return ld_xmalloc(size);
}

/*
 * Every key of a trie-indexed SSTable, in token order (the core's
 * bc_trie_keys, as cassandra_sstable_keys reads them): the leaves of
 * Partitions.db, each key whole from Rows.db or Data.db (through
 * CompressionInfo.db when compressed).  partitioner: the class
 * Statistics.db names.  0 after an error (reported); fn returning non-zero
 * stops with 0 too (it reports).
 */
int
ld_walk_trie_keys(const ld_sstable *s, const uint8_t *partitioner, size_t partitioner_len,
				  ld_key_fn fn, void *arg)
{
	ld_file		fp,
				fr,
				fd;
	bc_reader	rp,
				rr = {NULL, NULL, 0},
				rd;
	int			have_rows = 0,
				ok = 0;
	blob		info;
	bc_partitioner p;
	bc_partitions_footer footer;
	bc_compression_info ci;
	bc_data_reader dr;
	bc_trie_sstable ts;
	bc_trie_keys *k = NULL;
	bc_trie_frame *frames = NULL;
	uint8_t    *keys = NULL;
	void	   *block = NULL;
	int			in_info = 0;
	const uint8_t *first,
			   *last;
	size_t		first_len,
				last_len,
				cap;
	bc_status	rc;

	if (bc_partitioner_from_name((const char *) partitioner, partitioner_len, &p) != BC_OK)
	{
		ld_error("%s: cannot read the keys of a trie-indexed SSTable of partitioner %.*s",
				 s->prefix, (int) partitioner_len, (const char *) partitioner);
		return 0;
	}
	if (!ld_read_component(s, "CompressionInfo.db", LD_MAX_SMALL_BYTES, &info))
		return 0;
	if (!open_component(s, "Partitions.db", &fp, &rp))
		goto out_info;
	if (ld_component_size(s, "Rows.db") >= 0)
	{
		if (!open_component(s, "Rows.db", &fr, &rr))
			goto out_p;
		have_rows = 1;
	}
	if (!open_component(s, "Data.db", &fd, &rd))
		goto out_r;

	keys = ld_xmalloc(BC_PARTITIONS_MAX_KEYS);
	rc = bc_partitions_range(&rp, keys, &footer, &first, &first_len, &last, &last_len);
	if (rc == BC_OK)
		rc = bc_data_reader_open(&dr, &ci, &rd, s->version, strlen(s->version),
								 info.present ? info.data : NULL, info.len, data_alloc, NULL,
								 &block, &in_info);
	if (rc == BC_OK)
		rc = bc_trie_sstable_init(&ts, s->version, strlen(s->version), p, &rp, &footer, &rr, &dr);
	if (rc == BC_OK)
	{
		/* a level of the trie takes a node, at least a byte of the file */
		cap = rp.size + 1 < BC_TRIE_MAX_DEPTH ? (size_t) rp.size + 1 : BC_TRIE_MAX_DEPTH;
		frames = ld_xmalloc(sizeof(bc_trie_frame) * cap);
		k = ld_xmalloc(sizeof(bc_trie_keys));
		rc = bc_trie_keys_init(k, &ts, frames, cap);
	}
	while (rc == BC_OK)
	{
		const uint8_t *key;
		size_t		len;
		uint64_t	position;
		int			done,
					from_rows;

		rc = bc_trie_keys_next(k, &key, &len, &done);
		if (rc != BC_OK || done)
			break;
		/* its partition's Data.db position, from the leaf or Rows.db */
		if ((rc = bc_trie_keys_position(k, &position, &from_rows)) != BC_OK)
			break;
		if (fn(arg, key, len, position))
		{
			rc = BC_ERR_STOPPED;
			break;
		}
		if (ld_stop_requested)
		{
			rc = BC_ERR_STOPPED;
			break;
		}
	}
	if (k != NULL)
		bc_trie_keys_finish(k);
	if (rc == BC_ERR_READ)
	{
		ld_file    *files[3] = {&fp, have_rows ? &fr : NULL, &fd};
		const char *names[3] = {"Partitions.db", "Rows.db", "Data.db"};
		int			i;

		for (i = 0; i < 3; i++)
			if (files[i] != NULL && files[i]->err != 0)
				ld_error("%s: cannot read %s: %s", s->prefix, names[i], strerror(files[i]->err));
	}
	else if (rc != BC_OK && rc != BC_ERR_STOPPED)
		ld_error("%s: %s: %s", s->prefix, in_info ? "CompressionInfo.db" : bc_trie_keys_component(rc),
				 bc_status_message(rc));
	ok = rc == BC_OK;
	free(k);
	free(frames);
	free(keys);
	free(block);
	close(fd.fd);
out_r:
	if (have_rows)
		close(fr.fd);
out_p:
	close(fp.fd);
out_info:
	free(info.data);
	return ok;
}
