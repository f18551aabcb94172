/*
 * bloom_sstable_keys.c - cassandra_sstable_keys(path): every partition key
 * of a BIG SSTable, read from its Index.db on the server.
 *
 * Index.db files reach gigabytes, so the file is read in pieces of
 * KEYS_PIECE bytes through the core's cursor and the keys are returned one
 * per call (value-per-call): the function holds one piece and one key,
 * whatever the file's size.  A scan stopped early (LIMIT, an EXISTS) closes
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

#include "bc_index.h"
#include "bc_sstable_name.h"
#include "bc_status.h"
#include "bloomcass.h"

/* Index.db is read in pieces of this many bytes */
#define KEYS_PIECE ((size_t) 1024 * 1024)

typedef struct SSTableKeysState
{
	BloomFile	file;
	bool		open;			/* file is open */
	bool		eof;			/* the last piece has been fed */
	int64		offset;			/* of the next piece */
	uint64		keys;			/* returned so far */
	char	   *version;
	char	   *index_path;
	uint8	   *piece;
	size_t		piece_len;
	bc_index_cursor cursor;
} SSTableKeysState;

static void
close_index(SSTableKeysState *s)
{
	if (s->open)
		bloom_file_close(&s->file);
	s->open = false;
}

/* the expression context's shutdown: the scan stopped before the end */
static void
close_index_callback(Datum arg)
{
	close_index((SSTableKeysState *) DatumGetPointer(arg));
}

static SSTableKeysState *
sstable_keys_start(FunctionCallInfo fcinfo, ReturnSetInfo *rsinfo)
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
	s->index_path = bloom_file_path(psprintf("%s-Index.db", prefix));

	st = bc_index_init(&s->cursor, s->version, strlen(s->version));
	if (st == BC_OK && format == BC_SSTABLE_BTI)
		st = BC_ERR_INDEX_BTI;
	if (st == BC_ERR_INDEX_BTI)
		bloom_component_error(st, "Index.db", s->version, prefix, 0);
	if (st != BC_OK)
		bloom_component_error(st, "Index.db", s->version, s->index_path, 0);

	RegisterExprContextCallback(rsinfo->econtext, close_index_callback, PointerGetDatum(s));
	bloom_file_open(&s->file, s->index_path, NULL);
	s->open = true;
	/* a small file in one piece (a file that grows is read on to its end) */
	s->piece_len = (size_t) Min((int64) KEYS_PIECE, Max(s->file.size + 1, (int64) 4096));
	s->piece = (uint8 *) palloc(s->piece_len);
	return s;
}

/* cassandra_sstable_keys(path text) RETURNS SETOF bytea */
PG_FUNCTION_INFO_V1(cassandra_sstable_keys);
Datum
cassandra_sstable_keys(PG_FUNCTION_ARGS)
{
	FuncCallContext *funcctx;
	SSTableKeysState *s;
	ReturnSetInfo *rsinfo;
	bc_index_entry e;
	bc_status	st;
	int			got;

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext oldcontext;

		funcctx = SRF_FIRSTCALL_INIT();
		oldcontext = MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);
		funcctx->user_fctx = sstable_keys_start(fcinfo, (ReturnSetInfo *) fcinfo->resultinfo);
		MemoryContextSwitchTo(oldcontext);
	}
	funcctx = SRF_PERCALL_SETUP();
	s = (SSTableKeysState *) funcctx->user_fctx;
	rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	CHECK_FOR_INTERRUPTS();
	for (;;)
	{
		size_t		n;

		st = bc_index_next(&s->cursor, &e, &got);
		if (st != BC_OK)
			bloom_component_error(st, "Index.db", s->version, s->index_path, s->keys);
		if (got)
		{
			s->keys++;
			SRF_RETURN_NEXT(funcctx, PointerGetDatum(bloom_bytea(e.key, e.key_len)));
		}
		if (s->eof)
			break;
		/* the piece is used up: the next one */
		bloom_file_read(&s->file, s->offset, s->piece, s->piece_len, &n, NULL);
		if (n == 0)
		{
			s->eof = true;
			break;
		}
		s->offset += (int64) n;
		st = bc_index_feed(&s->cursor, s->piece, n);
		if (st != BC_OK)
			bloom_component_error(st, "Index.db", s->version, s->index_path, s->keys);
	}

	close_index(s);
	UnregisterExprContextCallback(rsinfo->econtext, close_index_callback, PointerGetDatum(s));
	st = bc_index_finish(&s->cursor);
	if (st != BC_OK)
		bloom_component_error(st, "Index.db", s->version, s->index_path, s->keys);
	SRF_RETURN_DONE(funcctx);
}
