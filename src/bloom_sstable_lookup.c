/*
 * bloom_sstable_lookup.c - cassandra_sstable_has_key(path, key): whether an
 * SSTable on the server holds a partition key, exactly (no false
 * positives), reading a bounded number of small pieces of its files
 * whatever their size:
 *
 *   BIG   a binary search of Summary.db, then one sampling interval of
 *         Index.db and the entry after it, promoted indexes skipped, keys
 *         checked in order (bc_lookup.c); Index.db read from its start
 *         where the partitioner's order is not known (LocalPartitioner,
 *         OrderPreservingPartitioner) or there is no Summary.db, and to its
 *         end, with a WARNING, where Summary.db cannot be read or does not
 *         match Index.db: then as cassandra_sstable_keys reads it (keys in
 *         order, each entry checked against Summary.db's samples), so that
 *         the answer is the listing's, or its error
 *   trie  (BTI da, DataStax bb, ScyllaDB mt) one walk of Partitions.db's
 *         trie to a leaf, and one key read from Rows.db or Data.db,
 *         compressed or not, then the leaf's hash byte checked against it
 *         (bc_trie_keys.c); ScyllaDB's ms, whose
 *         key part of the trie needs the table's schema, by its token part,
 *         then each key of that token (almost always none or one) compared
 *
 * The partitioner and the key's type come from Statistics.db.  A bytea key
 * (as cassandra_sstable_keys returns it, or cassandra_key() of a composite)
 * is looked up as it is; any other value is serialized as the SSTable's
 * key type (3.0 and later: bloom_typed_key.c), else as everywhere else
 * (bloom_key_bytes), an untyped literal as text.  Every file is read with
 * pg_read_binary_file's privileges (bloom_files.c), checked before
 * anything is opened.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "bc_index.h"
#include "bc_index_samples.h"
#include "bc_key_range.h"
#include "bc_lookup.h"
#include "bc_status.h"
#include "bloom_sstable_open.h"
#include "bloom_typed_key.h"

/* Index.db is read in pieces of this many bytes where read whole */
#define INDEX_PIECE ((size_t) 1024 * 1024)

/*
 * Whether Index.db (comps[1]) holds the key, read from its start as
 * cassandra_sstable_keys reads it: keys in the partitioner's order, each
 * entry checked against the samples of Summary.db (comps[0], when open),
 * an ERROR where the listing fails.
 */
static bool
listing_has_key(const char *version, bc_partitioner p, BloomComponent *comps,
				const uint8 *key, size_t key_len)
{
	bc_index_walk *w = palloc(sizeof(bc_index_walk));
	bc_index_samples *samples = palloc(sizeof(bc_index_samples));
	bc_index_sample *slots = NULL;
	uint8	   *window = NULL;
	size_t		n;
	int			found;
	bc_status	st;

	w->order = palloc(sizeof(bc_key_order));
	bc_key_order_init(w->order, p, bloom_md5);
	w->samples = samples;
	st = bc_index_samples_count(comps[0].open ? &comps[0].reader : NULL,
								version, strlen(version), &n);
	if (st == BC_OK && n > 0)
	{
		slots = bloom_palloc_large(CurrentMemoryContext, n * sizeof(bc_index_sample));
		window = palloc(2 * BC_INDEX_SAMPLES_WINDOW);
	}
	if (st == BC_OK)
		st = bc_index_samples_init(samples, &comps[0].reader, &comps[1].reader, version,
								   strlen(version), slots, n, window,
								   n > 0 ? palloc(BC_LOOKUP_SCRATCH) : NULL);
	if (st == BC_OK)
		st = bc_index_walk_find(w, &comps[1].reader, version, strlen(version),
								palloc(INDEX_PIECE), INDEX_PIECE, key, key_len, &found);
	if (st != BC_OK)
		bloom_components_error(st, version, comps, 2, "Index.db", w->nkeys);
	return found != 0;
}

static bool
big_has_key(const char *prefix, const char *version, bc_partitioner p,
			const uint8 *key, size_t key_len)
{
	BloomComponent comps[2];
	bc_lookup_stats stats;
	int			found;
	bc_status	st;
	bool		have_summary;

	have_summary = bloom_component_open(prefix, "Summary.db", true, &comps[0]);
	bloom_component_open(prefix, "Index.db", false, &comps[1]);
	st = bc_big_lookup(have_summary ? &comps[0].reader : NULL, &comps[1].reader,
					   version, strlen(version), p, bloom_md5, key, key_len,
					   palloc(BC_LOOKUP_SCRATCH), &found, &stats);
	if (st != BC_OK)
		bloom_components_error(st, version, comps, 2,
							   st == BC_ERR_SUMMARY_FORMAT || st == BC_ERR_SUMMARY_TRUNCATED ?
							   "Summary.db" : "Index.db", 0);
	if (stats.summary_status != BC_OK)
	{
		const char *name = strrchr(prefix, '/');

		/* named as the listing names SSTables: the whole path in the detail */
		ereport(WARNING,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("reading Index.db of SSTable %s from its start: its Summary.db is invalid: %s",
						name ? name + 1 : prefix, bc_status_message(stats.summary_status)),
				 errdetail("File \"%s\"; Cassandra rebuilds a summary it cannot read from Index.db.",
						   comps[0].path)));
		found = listing_has_key(version, p, comps, key, key_len);
	}
	if (have_summary)
		bloom_component_close(&comps[0]);
	bloom_component_close(&comps[1]);
	return found != 0;
}

static bool
trie_has_key(const char *prefix, const char *version, bc_partitioner p,
			 const char *partitioner, const uint8 *key, size_t key_len)
{
	BloomTrieSSTable t;
	int			present;
	bc_status	st;

	bloom_trie_open(&t, prefix, version, p, partitioner);
	if (t.ts.typed_keys)
	{
		/* ms: the stack of the walk below a token, as deep as the trie */
		size_t		cap = (size_t) Min((uint64) BC_TRIE_MAX_DEPTH,
									   t.comps[0].reader.size + 1);

		bc_trie_sstable_frames(&t.ts, palloc(sizeof(bc_trie_frame) * cap), cap);
	}
	st = bc_trie_has_key(&t.ts, key, key_len, &present);
	if (st != BC_OK)
		bloom_trie_error(&t, st, 0);
	bloom_trie_close(&t);
	return present != 0;
}

/* per call site: the key's serialization, untyped and typed */
typedef struct LookupCache
{
	BloomKeyType *kt;
	BloomTypedKey *tk;
} LookupCache;

/*
 * The key's bytes.  A bytea key is the key's bytes as they are; any other
 * value is serialized as the SSTable's key type (key_type, from 3.0), as
 * bloom_contains(filter, key, key_type) serializes it, so that neither the
 * width of an integer nor an untyped literal makes a present key missed;
 * without one (before 3.0) it is typed as bloom_key_bytes types it, an
 * untyped literal as text.
 */
static const uint8 *
lookup_key(FunctionCallInfo fcinfo, const char *key_type, size_t *len)
{
	LookupCache *lc = (LookupCache *) fcinfo->flinfo->fn_extra;
	Oid			typid = get_fn_expr_argtype(fcinfo->flinfo, 1);

	if (lc == NULL)
	{
		lc = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(LookupCache));
		fcinfo->flinfo->fn_extra = lc;
	}
	if (typid != UNKNOWNOID && (!OidIsValid(typid) || getBaseType(typid) == BYTEAOID))
		key_type = NULL;
	if (key_type != NULL || typid == UNKNOWNOID)
	{
		BloomTypedKey *tk = bloom_typed_key_prepare(&lc->tk, fcinfo->flinfo->fn_mcxt, typid,
													key_type, key_type ? strlen(key_type) : 0);

		return bloom_typed_key_bytes(tk, PG_GETARG_DATUM(1), len);
	}
	return bloom_key_bytes(bloom_key_type(fcinfo, 1, &lc->kt), PG_GETARG_DATUM(1), len);
}

PG_FUNCTION_INFO_V1(cassandra_sstable_has_key);
Datum
cassandra_sstable_has_key(PG_FUNCTION_ARGS)
{
	/* the caller's privileges first: nothing is said of a path it may not read */
	char	   *path = bloom_file_path(text_to_cstring(PG_GETARG_TEXT_PP(0)));
	char	   *prefix;
	char	   *version;
	char	   *partitioner;
	char	   *key_type;
	bc_sstable_format format;
	bc_index_era era;
	bc_status	st;
	const uint8 *key;
	size_t		key_len;
	bc_partitioner p;

	bloom_sstable_of_path(path, &prefix, &version, &format);
	st = bc_index_era_lookup(version, strlen(version), &era);
	if (st != BC_OK && st != BC_ERR_INDEX_BTI)
		bloom_component_error(st, "Index.db", version, prefix, 0);
	p = bloom_sstable_key_facts(prefix, version, &partitioner, &key_type);
	key = lookup_key(fcinfo, key_type, &key_len);
	if (format == BC_SSTABLE_BTI || st == BC_ERR_INDEX_BTI)
		PG_RETURN_BOOL(trie_has_key(prefix, version, p, partitioner, key, key_len));
	PG_RETURN_BOOL(big_has_key(prefix, version, p, key, key_len));
}
