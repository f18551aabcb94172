/*
 * bloom_sstable_lookup.c - cassandra_sstable_has_key(path, key): whether an
 * SSTable on the server holds a partition key, exactly (no false
 * positives), reading a bounded number of small pieces of its files
 * whatever their size:
 *
 *   BIG   a binary search of Summary.db, then one sampling interval of
 *         Index.db, promoted indexes skipped (bc_lookup.c); Index.db read
 *         from its start where the partitioner's order is not known
 *         (LocalPartitioner, OrderPreservingPartitioner) or there is no
 *         Summary.db
 *   trie  (BTI da, DataStax bb, ScyllaDB mt) one walk of Partitions.db's
 *         trie to a leaf, its hash byte, and one key read from Rows.db or
 *         Data.db, compressed or not (bc_trie_keys.c)
 *
 * The partitioner comes from Statistics.db.  The key is typed as
 * everywhere else (bloom_key_bytes): text, integers, uuid, bytea (a key as
 * cassandra_sstable_keys returns it), cassandra_key() of a composite; an
 * untyped literal is text.  Every file is read with pg_read_binary_file's
 * privileges (bloom_files.c), checked before anything is opened.
 */
#include "postgres.h"

#include <errno.h>

#include "catalog/pg_type.h"
#include "common/md5.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"

#include "bc_compression.h"
#include "bc_data.h"
#include "bc_index.h"
#include "bc_lookup.h"
#include "bc_partitioner.h"
#include "bc_partitions.h"
#include "bc_key_range.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "bc_trie_keys.h"
#include "bloomcass.h"

/* the largest Statistics.db and CompressionInfo.db read whole */
#define MAX_COMPONENT_BYTES ((size_t) 512 * 1024 * 1024)

/* one component of the SSTable being looked in */
typedef struct Component
{
	const char *name;			/* "Index.db" */
	char	   *path;
	BloomFile	file;
	bc_reader	reader;
	bool		open;
} Component;

/*
 * Open a component: false when it does not exist and may_lack, else an
 * ERROR for any failure (as pg_read_binary_file reports it).
 */
static bool
open_component(const char *prefix, const char *name, bool may_lack, Component *c)
{
	char	   *err = NULL;

	c->name = name;
	c->path = bloom_file_path(psprintf("%s-%s", prefix, name));
	c->open = false;
	if (!bloom_file_open(&c->file, c->path, may_lack ? &err : NULL))
	{
		if (errno == ENOENT)
			return false;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read file \"%s\": %s", c->path, err)));
	}
	bloom_file_reader(&c->file, &c->reader);
	c->open = true;
	return true;
}

/* a whole component of the SSTable, or NULL when it has none */
static uint8 *
read_component(const char *prefix, const char *name, size_t *len, char **path)
{
	char	   *err = NULL;
	uint8	   *data;

	*path = bloom_file_path(psprintf("%s-%s", prefix, name));
	data = bloom_file_read_all(*path, MAX_COMPONENT_BYTES, len, &err);
	if (data == NULL && errno != ENOENT)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read file \"%s\": %s", *path, err)));
	return data;
}

/*
 * A failed lookup: a read that failed names its file; anything else is
 * the component's error with its SQLSTATE.
 */
static void
lookup_error(bc_status st, const char *version, Component *comps, int ncomps,
			 const char *component)
{
	int			i;

	if (st == BC_ERR_READ)
		for (i = 0; i < ncomps; i++)
			if (comps[i].open && comps[i].file.err != NULL)
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not read file \"%s\": %s", comps[i].path,
								comps[i].file.err)));
	for (i = 0; i < ncomps; i++)
		if (comps[i].open && strcmp(comps[i].name, component) == 0)
			bloom_component_error(st, component, version, comps[i].path, 0);
	bloom_component_error(st, component, version, NULL, 0);
}

/* the partitioner of Statistics.db; BC_PARTITIONER_OTHER without one */
static bc_partitioner
sstable_partitioner(const char *prefix, const char *version, char **name)
{
	char	   *path;
	size_t		len;
	uint8	   *data = read_component(prefix, "Statistics.db", &len, &path);
	bc_statistics st;
	bc_status	rc;

	*name = NULL;
	if (data == NULL)
		return BC_PARTITIONER_OTHER;
	rc = bc_statistics_parse(data, len, version, strlen(version), &st);
	if (rc != BC_OK)
		bloom_component_error(rc, "Statistics.db", version, path, 0);
	*name = pnstrdup((const char *) st.partitioner, st.partitioner_len);
	return bc_partitioner_of(*name, strlen(*name));
}

/* RandomPartitioner's tokens: the server's MD5 */
static void
server_md5(const void *data, size_t len, uint8_t out[16])
{
	const char *errstr = NULL;

	if (!pg_md5_binary(data, len, out, &errstr))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not compute an MD5 hash: %s", errstr ? errstr : "unknown error")));
}

static bool
big_has_key(const char *prefix, const char *version, bc_partitioner p,
			const uint8 *key, size_t key_len)
{
	Component	comps[2];
	bc_lookup_stats stats;
	int			found;
	bc_status	st;
	bool		have_summary;

	have_summary = open_component(prefix, "Summary.db", true, &comps[0]);
	open_component(prefix, "Index.db", false, &comps[1]);
	st = bc_big_lookup(have_summary ? &comps[0].reader : NULL, &comps[1].reader,
					   version, strlen(version), p, server_md5, key, key_len,
					   palloc(BC_LOOKUP_SCRATCH), &found, &stats);
	if (st != BC_OK)
		lookup_error(st, version, comps, 2,
					 st == BC_ERR_SUMMARY_FORMAT || st == BC_ERR_SUMMARY_TRUNCATED ?
					 "Summary.db" : "Index.db");
	if (have_summary)
		bloom_file_close(&comps[0].file);
	bloom_file_close(&comps[1].file);
	return found != 0;
}

static bool
trie_has_key(const char *prefix, const char *version, bc_partitioner p,
			 const char *partitioner, const uint8 *key, size_t key_len)
{
	Component	comps[3];
	bc_reader	no_rows = {NULL, NULL, 0};
	bc_partitions_footer footer;
	const uint8_t *first,
			   *last;
	size_t		first_len,
				last_len,
				info_len;
	char	   *info_path;
	uint8	   *info;
	bc_compression_info ci;
	bc_data_reader dr;
	bc_trie_sstable ts;
	int			present;
	bc_status	st;

	if (partitioner == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FILE),
				 errmsg("SSTable \"%s\" has no Statistics.db", prefix),
				 errdetail("A trie-indexed SSTable is searched by the byte-comparable form of the key, which depends on the partitioner Statistics.db names.")));
	if (p != BC_PARTITIONER_MURMUR3 && p != BC_PARTITIONER_BYTE_ORDERED)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot search trie-indexed SSTable \"%s\" of partitioner %s", prefix, partitioner),
				 errdetail("bloomcass knows the byte-comparable form of Murmur3Partitioner's and ByteOrderedPartitioner's keys only.")));

	open_component(prefix, "Partitions.db", false, &comps[0]);
	st = bc_partitions_range(&comps[0].reader, palloc(BC_PARTITIONS_MAX_KEYS), &footer,
							 &first, &first_len, &last, &last_len);
	if (st != BC_OK)
		lookup_error(st, version, comps, 1, "Partitions.db");
	/* Rows.db holds the keys of wide partitions only: it may be absent */
	if (!open_component(prefix, "Rows.db", true, &comps[1]))
		comps[1].reader = no_rows;
	open_component(prefix, "Data.db", false, &comps[2]);

	info = read_component(prefix, "CompressionInfo.db", &info_len, &info_path);
	if (info != NULL)
	{
		uint8	   *dict = NULL;
		size_t		bufsize;

		st = bc_compression_parse(version, strlen(version), info, info_len,
								  comps[2].reader.size, &ci);
		if (st != BC_OK)
			bloom_component_error(st, "CompressionInfo.db", version, info_path, 0);
		if (ci.dictionary_len > 0)
		{
			dict = palloc(ci.dictionary_len);
			bc_compression_dictionary(&ci, dict);
		}
		bufsize = bc_compression_buffer_size(&ci);
		if (bufsize == 0)
			bloom_component_error(BC_ERR_COMPRESSION_FORMAT, "CompressionInfo.db", version,
								  info_path, 0);
		st = bc_data_reader_init(&dr, &comps[2].reader, &ci, dict, ci.dictionary_len,
								 palloc((size_t) ci.chunk_length), (size_t) ci.chunk_length,
								 palloc(bufsize), bufsize);
	}
	else
		st = bc_data_reader_init(&dr, &comps[2].reader, NULL, NULL, 0, NULL, 0, NULL, 0);
	if (st != BC_OK)
		lookup_error(st, version, comps, 3, "Data.db");

	st = bc_trie_sstable_init(&ts, version, strlen(version), p, &comps[0].reader, &footer,
							  &comps[1].reader, &dr);
	if (st == BC_OK)
		st = bc_trie_has_key(&ts, key, key_len, &present);
	if (st == BC_ERR_TRIE_ENCODING)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot search SSTable \"%s\" of version \"%s\" by key", prefix, version),
				 errdetail("ScyllaDB's ms encodes each partition key column by its type in Partitions.db's trie, which needs the table's schema; its keys can be listed.")));
	if (st != BC_OK)
		lookup_error(st, version, comps, 3,
					 st == BC_ERR_TRIE_POSITION || st == BC_ERR_TRIE_KEY ? "Data.db" :
					 (st >= BC_ERR_COMPRESSION_TRUNCATED && st <= BC_ERR_COMPRESSION_CORRUPT) ?
					 "Data.db" : "Partitions.db");
	bloom_file_close(&comps[0].file);
	if (comps[1].open)
		bloom_file_close(&comps[1].file);
	bloom_file_close(&comps[2].file);
	return present != 0;
}

/* the key's bytes: typed as bloom_key_bytes types it, an untyped literal as text */
static const uint8 *
lookup_key(FunctionCallInfo fcinfo, size_t *len)
{
	Oid			typid = get_fn_expr_argtype(fcinfo->flinfo, 1);

	if (typid == UNKNOWNOID)
	{
		char	   *s = PG_GETARG_POINTER(1);

		s = (char *) pg_do_encoding_conversion((unsigned char *) s, strlen(s),
											   GetDatabaseEncoding(), PG_UTF8);
		*len = strlen(s);
		return (const uint8 *) s;
	}
	return bloom_key_bytes(bloom_key_type(fcinfo, 1, NULL), PG_GETARG_DATUM(1), len);
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
	bc_sstable_format format;
	bc_index_era era;
	bc_status	st;
	const uint8 *key;
	size_t		key_len;
	bc_partitioner p;

	bloom_sstable_of_path(path, &prefix, &version, &format);
	key = lookup_key(fcinfo, &key_len);
	st = bc_index_era_lookup(version, strlen(version), &era);
	if (st != BC_OK && st != BC_ERR_INDEX_BTI)
		bloom_component_error(st, "Index.db", version, prefix, 0);
	p = sstable_partitioner(prefix, version, &partitioner);
	if (format == BC_SSTABLE_BTI || st == BC_ERR_INDEX_BTI)
		PG_RETURN_BOOL(trie_has_key(prefix, version, p, partitioner, key, key_len));
	PG_RETURN_BOOL(big_has_key(prefix, version, p, key, key_len));
}
