/*
 * bloom_sstable_keys.c - cassandra_sstable_keys(path): every partition key
 * of an SSTable on the server, read from its Index.db (BIG), or from the
 * leaves of its Partitions.db trie and each key whole from Rows.db or
 * Data.db (trie-indexed: BTI da, DataStax bb, ScyllaDB ms and mt; the
 * core's bc_trie_keys, bloom_sstable_open.c); and
 * cassandra_sstable_partitions(path): the same keys with each partition's
 * position and size in the uncompressed Data.db (the core's
 * bc_partition_sizes: a partition is returned when the next one's position
 * is known, the last one sized to the end of the data).
 *
 * Index.db files reach gigabytes, so the file is read in pieces of
 * KEYS_PIECE bytes through the core's cursor and the keys are returned one
 * per call (value-per-call): the function holds one piece and one key,
 * whatever the file's size, and the Index.db positions of Summary.db's
 * samples (16 bytes a sample), against which each entry is checked
 * (bc_index_samples.h: an entry whose length swallows the entries behind
 * it is an error, not a key that a lookup does not find).  A scan stopped early (LIMIT, an EXISTS) closes
 * the file from a callback of the calling expression context; an error
 * leaves it to the server, which closes transient files at the end of the
 * (sub)transaction.
 *
 * The file is read with pg_read_binary_file's privileges (bloom_files.c),
 * checked before anything is opened.
 */
#include "postgres.h"

#include "executor/executor.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"

#include "access/htup_details.h"

#include "bc_index.h"
#include "bc_index_samples.h"
#include "bc_partition_sizes.h"
#include "bc_sstable_name.h"
#include "bc_status.h"
#include "bloom_sstable_open.h"
#include "bloomcass.h"

/* Index.db is read in pieces of this many bytes */
#define KEYS_PIECE ((size_t) 1024 * 1024)

typedef struct SSTableKeysState
{
	BloomTrieSSTable *trie;		/* a trie-indexed SSTable's, else NULL */
	bc_trie_keys trie_keys;
	BloomComponent comps[2];	/* Index.db, Summary.db (when open) */
	bool		open;			/* the files are open */
	bool		eof;			/* the last piece has been fed */
	bool		done;			/* the last key has been returned */
	int64		offset;			/* of the next piece */
	uint64		keys;			/* returned so far */
	char	   *version;
	bc_index_samples samples;	/* Summary.db's, checking each entry */
	uint8	   *piece;
	size_t		piece_len;
	bc_index_cursor cursor;
	bc_key_order order;			/* Index.db's keys in the partitioner's order */
	bc_partition_sizes *sizes;	/* cassandra_sstable_partitions's */
	TupleDesc	tupdesc;
} SSTableKeysState;

static void
close_index(SSTableKeysState *s)
{
	if (s->open)
	{
		if (s->trie)
			bloom_trie_close(s->trie);
		else
		{
			bloom_component_close(&s->comps[0]);
			bloom_component_close(&s->comps[1]);
		}
	}
	s->open = false;
}

/* the expression context's shutdown: the scan stopped before the end */
static void
close_index_callback(Datum arg)
{
	close_index((SSTableKeysState *) DatumGetPointer(arg));
}

/* an error of Index.db, or of a read of Summary.db (its samples) */
static void
index_error(SSTableKeysState *s, bc_status st)
{
	bloom_components_error(st, s->version, s->comps, 2, "Index.db", s->keys);
}

/*
 * Summary.db's samples, which each entry is checked against (the
 * positions a lookup starts from, bc_index_samples.h), read once: none
 * without Summary.db or with a header a lookup does not use.  The listing
 * does not need Summary.db: one that cannot be opened (not a regular
 * file, which would be 42809, or not readable) is left, and the entries
 * are not checked (a lookup, which needs it, fails on it).
 */
static void
open_samples(SSTableKeysState *s, const char *prefix)
{
	BloomComponent *c = &s->comps[1];
	size_t		n;
	bc_index_sample *slots = NULL;
	uint8	   *window = NULL;
	bc_status	st;
	char	   *err;

	c->name = "Summary.db";
	c->path = bloom_file_path(psprintf("%s-Summary.db", prefix));
	c->open = bloom_file_open(&c->file, c->path, &err);
	if (c->open)
		bloom_file_reader(&c->file, &c->reader);
	st = bc_index_samples_count(s->comps[1].open ? &s->comps[1].reader : NULL,
								s->version, strlen(s->version), &n);
	if (st != BC_OK)
		index_error(s, st);
	if (n > 0)
	{
		slots = bloom_palloc_large(CurrentMemoryContext, n * sizeof(bc_index_sample));
		window = palloc(2 * BC_INDEX_SAMPLES_WINDOW);
	}
	st = bc_index_samples_init(&s->samples, &s->comps[1].reader, &s->comps[0].reader,
							   s->version, strlen(s->version), slots, n, window,
							   n > 0 ? palloc(BC_LOOKUP_SCRATCH) : NULL);
	if (st != BC_OK)
		index_error(s, st);
	if (window)
		pfree(window);
}

static SSTableKeysState *
sstable_keys_start(FunctionCallInfo fcinfo, ReturnSetInfo *rsinfo, bool sized)
{
	SSTableKeysState *s;
	char	   *path;
	char	   *prefix;
	bc_sstable_format format;
	bc_status	st;

	/* the caller's privileges first: nothing is said of a path it may not read */
	path = bloom_file_path(text_to_cstring(PG_GETARG_TEXT_PP(0)));

	s = (SSTableKeysState *) palloc0(sizeof(SSTableKeysState));
	bloom_sstable_of_path(path, &prefix, &s->version, &format);
	if (sized)
		s->sizes = (bc_partition_sizes *) palloc(sizeof(bc_partition_sizes));

	st = bc_index_init(&s->cursor, s->version, strlen(s->version));
	if (st == BC_OK && format == BC_SSTABLE_BTI)
		st = BC_ERR_INDEX_BTI;
	if (st == BC_ERR_INDEX_BTI)
	{
		/* trie-indexed: the leaves of Partitions.db, each key read whole */
		char	   *partitioner;
		bc_partitioner p = bloom_sstable_partitioner(prefix, s->version, &partitioner);
		size_t		cap;

		s->trie = (BloomTrieSSTable *) palloc(sizeof(BloomTrieSSTable));
		bloom_trie_open(s->trie, prefix, s->version, p, partitioner);
		s->open = true;
		RegisterExprContextCallback(rsinfo->econtext, close_index_callback, PointerGetDatum(s));
		/* a level of the trie takes a node, at least a byte of the file */
		cap = (size_t) Min((uint64) BC_TRIE_MAX_DEPTH, s->trie->comps[0].reader.size + 1);
		st = bc_trie_keys_init(&s->trie_keys, &s->trie->ts,
							   (bc_trie_frame *) palloc(sizeof(bc_trie_frame) * cap), cap);
		if (st != BC_OK)
			bloom_trie_error(s->trie, st, 0);
		if (sized)
			bc_partition_sizes_init(s->sizes, bc_data_length(&s->trie->data));
		return s;
	}
	if (st != BC_OK)
		bloom_component_error(st, "Index.db", s->version,
							  bloom_file_path(psprintf("%s-Index.db", prefix)), 0);

	/*
	 * Each key checked to be in the partitioner's order, as a lookup
	 * (bc_big_lookup) reads them: a key listed here is one it finds.
	 */
	bc_key_order_init(&s->order, bloom_sstable_order(prefix, s->version), bloom_md5);
	bc_index_set_order(&s->cursor, &s->order);
	if (sized)
		bc_partition_sizes_init(s->sizes, bloom_sstable_data_length(prefix, s->version));

	RegisterExprContextCallback(rsinfo->econtext, close_index_callback, PointerGetDatum(s));
	bloom_component_open(prefix, "Index.db", false, &s->comps[0]);
	s->open = true;
	open_samples(s, prefix);
	/* a small file in one piece (a file that grows is read on to its end) */
	s->piece_len = (size_t) Min((int64) KEYS_PIECE, Max(s->comps[0].file.size + 1, (int64) 4096));
	s->piece = (uint8 *) palloc(s->piece_len);
	return s;
}

/* the end of the scan: files closed, the callback gone */
static void
sstable_keys_done(SSTableKeysState *s, ReturnSetInfo *rsinfo)
{
	close_index(s);
	UnregisterExprContextCallback(rsinfo->econtext, close_index_callback, PointerGetDatum(s));
}

/*
 * The next key in the SSTable's order and its partition's Data.db position
 * (when position is not NULL): false at the end, with the files closed.
 * *component names the component the position comes from.
 */
static bool
sstable_keys_next(SSTableKeysState *s, ReturnSetInfo *rsinfo, const uint8 **key, size_t *len,
				  uint64 *position, const char **component)
{
	bc_index_entry e;
	bc_status	st;
	int			got;

	CHECK_FOR_INTERRUPTS();
	if (s->done)
		return false;
	if (s->trie)
	{
		int			done,
					from_rows;

		st = bc_trie_keys_next(&s->trie_keys, key, len, &done);
		if (st != BC_OK)
			bloom_trie_error(s->trie, st, s->keys);
		if (!done)
		{
			if (position != NULL)
			{
				st = bc_trie_keys_position(&s->trie_keys, position, &from_rows);
				*component = from_rows ? "Rows.db" : "Partitions.db";
				if (st == BC_ERR_PARTITION_POSITION)
					bloom_components_error(st, s->version, s->trie->comps, 3, *component, s->keys);
				if (st != BC_OK)
					bloom_trie_error(s->trie, st, s->keys);
			}
			s->keys++;
			return true;
		}
		bc_trie_keys_finish(&s->trie_keys);
		sstable_keys_done(s, rsinfo);
		s->done = true;
		return false;
	}
	for (;;)
	{
		size_t		n;

		st = bc_index_next(&s->cursor, &e, &got);
		if (st == BC_OK && got)
			st = bc_index_samples_check(&s->samples, &e);
		if (st != BC_OK)
			index_error(s, st);
		if (got)
		{
			s->keys++;
			*key = e.key;
			*len = e.key_len;
			if (position != NULL)
			{
				*position = (uint64) e.position;
				*component = "Index.db";
			}
			return true;
		}
		if (s->eof)
			break;
		/* the piece is used up: the next one */
		bloom_file_read(&s->comps[0].file, s->offset, s->piece, s->piece_len, &n, NULL);
		if (n == 0)
		{
			s->eof = true;
			break;
		}
		s->offset += (int64) n;
		st = bc_index_feed(&s->cursor, s->piece, n);
		if (st != BC_OK)
			index_error(s, st);
	}

	sstable_keys_done(s, rsinfo);
	s->done = true;
	st = bc_index_finish(&s->cursor);
	if (st != BC_OK)
		bloom_component_error(st, "Index.db", s->version, s->comps[0].path, s->keys);
	return false;
}

/* cassandra_sstable_keys(path text) RETURNS SETOF bytea */
PG_FUNCTION_INFO_V1(cassandra_sstable_keys);
Datum
cassandra_sstable_keys(PG_FUNCTION_ARGS)
{
	FuncCallContext *funcctx;
	SSTableKeysState *s;
	const uint8 *key;
	size_t		len;

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext oldcontext;

		funcctx = SRF_FIRSTCALL_INIT();
		oldcontext = MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);
		funcctx->user_fctx = sstable_keys_start(fcinfo, (ReturnSetInfo *) fcinfo->resultinfo,
												false);
		MemoryContextSwitchTo(oldcontext);
	}
	funcctx = SRF_PERCALL_SETUP();
	s = (SSTableKeysState *) funcctx->user_fctx;
	if (sstable_keys_next(s, (ReturnSetInfo *) fcinfo->resultinfo, &key, &len, NULL, NULL))
		SRF_RETURN_NEXT(funcctx, PointerGetDatum(bloom_bytea(key, len)));
	SRF_RETURN_DONE(funcctx);
}

/* a partition as a row (key bytea, position bigint, size bigint) */
static Datum
partition_row(SSTableKeysState *s, const bc_partition *p)
{
	Datum		values[3];
	bool		nulls[3] = {false, false, false};

	values[0] = PointerGetDatum(bloom_bytea(p->key, p->key_len));
	values[1] = Int64GetDatum((int64) p->position);
	values[2] = Int64GetDatum((int64) p->size);
	return HeapTupleGetDatum(heap_form_tuple(s->tupdesc, values, nulls));
}

/*
 * cassandra_sstable_partitions(path text)
 *   RETURNS TABLE(key bytea, position bigint, size bigint)
 */
PG_FUNCTION_INFO_V1(cassandra_sstable_partitions);
Datum
cassandra_sstable_partitions(PG_FUNCTION_ARGS)
{
	FuncCallContext *funcctx;
	SSTableKeysState *s;
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	const uint8 *key;
	const char *component;
	size_t		len;
	uint64		position;
	bc_partition p;
	int			got;

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext oldcontext;
		TupleDesc	tupdesc;

		funcctx = SRF_FIRSTCALL_INIT();
		oldcontext = MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);
		if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 errmsg("function returning record called in context that cannot accept type record")));
		s = sstable_keys_start(fcinfo, rsinfo, true);
		s->tupdesc = BlessTupleDesc(tupdesc);
		funcctx->user_fctx = s;
		MemoryContextSwitchTo(oldcontext);
	}
	funcctx = SRF_PERCALL_SETUP();
	s = (SSTableKeysState *) funcctx->user_fctx;
	while (sstable_keys_next(s, rsinfo, &key, &len, &position, &component))
	{
		bc_status	st = bc_partition_sizes_add(s->sizes, key, len, position, &p, &got);

		if (st != BC_OK)
		{
			if (s->trie)
				bloom_components_error(st, s->version, s->trie->comps, 3, component, s->keys);
			bloom_component_error(st, "Index.db", s->version, s->comps[0].path, s->keys);
		}
		if (got)
			SRF_RETURN_NEXT(funcctx, partition_row(s, &p));
	}
	bc_partition_sizes_end(s->sizes, &p, &got);
	if (got)
		SRF_RETURN_NEXT(funcctx, partition_row(s, &p));
	SRF_RETURN_DONE(funcctx);
}
