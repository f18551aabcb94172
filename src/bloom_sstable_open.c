/*
 * bloom_sstable_open.c - an SSTable's components opened on the server for
 * the functions that read it at key level: one component file as the
 * core's bc_reader, the partitioner Statistics.db names, and a
 * trie-indexed SSTable's Partitions.db (its footer), Rows.db and Data.db
 * (through CompressionInfo.db when compressed), ready for the core's
 * bc_trie_keys.  Every file is read with pg_read_binary_file's privileges
 * (bloom_files.c), checked before it is opened.
 */
#include "postgres.h"

#include "common/md5.h"

#include "bc_key_range.h"
#include "bc_sstable_name.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "bloom_sstable_open.h"

/* the largest Statistics.db and CompressionInfo.db read whole */
#define MAX_COMPONENT_BYTES ((size_t) 512 * 1024 * 1024)

bool
bloom_component_open(const char *prefix, const char *name, bool may_lack, BloomComponent *c)
{
	c->name = name;
	c->path = bloom_file_path(psprintf("%s-%s", prefix, name));
	c->open = false;
	if (may_lack)
	{
		if (!bloom_file_open_may_lack(&c->file, c->path))
			return false;
	}
	else
		(void) bloom_file_open(&c->file, c->path, NULL);
	bloom_file_reader(&c->file, &c->reader);
	c->open = true;
	return true;
}

void
bloom_component_close(BloomComponent *c)
{
	if (c->open)
		bloom_file_close(&c->file);
	c->open = false;
}

/* a whole component of the SSTable, or NULL when it has none */
static uint8 *
read_component(const char *prefix, const char *name, size_t *len, char **path)
{
	*path = bloom_file_path(psprintf("%s-%s", prefix, name));
	return bloom_file_read_all_may_lack(*path, MAX_COMPONENT_BYTES, len);
}

/*
 * An SSTable without CompressionInfo.db (info NULL) whose TOC.txt lists
 * one: its Data.db is compressed, and its positions cannot be read without
 * it.  Cassandra's reader takes the components TOC.txt lists
 * (TOCComponent.loadTOC) and fails to open an SSTable one of which is
 * missing, as ScyllaDB's does (sstable::read_toc, then each component's
 * open); read as uncompressed, such a Data.db would put its partitions past
 * its end, an error that would not name the cause.
 */
static void
check_compression_info(const char *prefix, const uint8 *info)
{
	char	   *toc_path;
	size_t		toc_len;
	uint8	   *toc;

	if (info != NULL)
		return;
	toc = read_component(prefix, "TOC.txt", &toc_len, &toc_path);
	if (toc != NULL && bc_toc_lists(toc, toc_len, "CompressionInfo.db"))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FILE),
				 errmsg("SSTable \"%s\" has no CompressionInfo.db, which its TOC.txt lists", prefix),
				 errdetail("Its Data.db is compressed: the positions and sizes of its partitions cannot be read without CompressionInfo.db.")));
}

void
bloom_components_error(bc_status st, const char *version, BloomComponent *comps, int ncomps,
					   const char *component, uint64 keys)
{
	int			i;

	if (st == BC_ERR_READ)
		for (i = 0; i < ncomps; i++)
			if (comps[i].open && comps[i].file.err != NULL)
				ereport(ERROR,
						(bloom_file_errcodes(comps[i].file.errnum),
						 errmsg("could not read file \"%s\": %s", comps[i].path,
								comps[i].file.err)));
	for (i = 0; i < ncomps; i++)
		if (comps[i].open && strcmp(comps[i].name, component) == 0)
			bloom_component_error(st, component, version, comps[i].path, keys);
	bloom_component_error(st, component, version, NULL, keys);
}

bc_partitioner
bloom_sstable_key_facts(const char *prefix, const char *version, char **name, char **key_type)
{
	char	   *path;
	size_t		len;
	uint8	   *data = read_component(prefix, "Statistics.db", &len, &path);
	bc_statistics st;
	bc_status	rc;

	*name = NULL;
	if (key_type != NULL)
		*key_type = NULL;
	if (data == NULL)
		return BC_PARTITIONER_OTHER;
	rc = bc_statistics_parse(data, len, version, strlen(version), &st);
	if (rc != BC_OK)
		bloom_component_error(rc, "Statistics.db", version, path, 0);
	*name = pnstrdup((const char *) st.partitioner, st.partitioner_len);
	/* an empty key type is BytesType (AbstractType.toString of
	 * SerializationHeader.Component, read back by TypeParser.parse) */
	if (key_type != NULL && st.key_type != NULL)
		*key_type = st.key_type_len == 0 ? pstrdup("BytesType") :
			pnstrdup((const char *) st.key_type, st.key_type_len);
	return bc_partitioner_of(*name, strlen(*name));
}

bc_partitioner
bloom_sstable_partitioner(const char *prefix, const char *version, char **name)
{
	return bloom_sstable_key_facts(prefix, version, name, NULL);
}

bc_partitioner
bloom_sstable_order(const char *prefix, const char *version)
{
	char	   *path;
	size_t		len;
	uint8	   *data = read_component(prefix, "Statistics.db", &len, &path);
	bc_statistics st;

	if (data == NULL ||
		bc_statistics_parse(data, len, version, strlen(version), &st) != BC_OK)
		return BC_PARTITIONER_OTHER;
	return bc_partitioner_of((const char *) st.partitioner, st.partitioner_len);
}

void
bloom_md5(const void *data, size_t len, uint8_t out[16])
{
	const char *errstr = NULL;

	if (!pg_md5_binary(data, len, out, &errstr))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not compute an MD5 hash: %s", errstr ? errstr : "unknown error")));
}

uint64
bloom_sstable_data_length(const char *prefix, const char *version)
{
	BloomComponent data;
	char	   *info_path;
	size_t		info_len;
	uint8	   *info = read_component(prefix, "CompressionInfo.db", &info_len, &info_path);
	uint64_t	length;
	bc_status	st;

	check_compression_info(prefix, info);
	bloom_component_open(prefix, "Data.db", false, &data);
	bloom_component_close(&data);
	st = bc_data_uncompressed_length(version, strlen(version), info, info_len, data.reader.size,
									 &length);
	if (st != BC_OK)
		bloom_component_error(st, "CompressionInfo.db", version, info_path, 0);
	return (uint64) length;
}

/* the chunk buffers of a compressed Data.db, in the caller's context */
static void *
data_alloc(void *arg, size_t size)
{
	return palloc(size);
}

void
bloom_trie_open(BloomTrieSSTable *t, const char *prefix, const char *version,
				bc_partitioner p, const char *partitioner_name)
{
	bc_reader	no_rows = {NULL, NULL, 0};
	const uint8_t *first,
			   *last;
	size_t		first_len,
				last_len,
				info_len;
	char	   *info_path;
	uint8	   *info;
	void	   *block;
	int			in_info;
	bc_status	st;

	memset(t, 0, sizeof(*t));
	t->prefix = prefix;
	t->version = version;
	if (partitioner_name == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_FILE),
				 errmsg("SSTable \"%s\" has no Statistics.db", prefix),
				 errdetail("The keys of a trie-indexed SSTable are ordered by the byte-comparable form of the partitioner Statistics.db names.")));
	if (p != BC_PARTITIONER_MURMUR3 && p != BC_PARTITIONER_BYTE_ORDERED)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot read trie-indexed SSTable \"%s\" of partitioner %s by key", prefix,
						partitioner_name),
				 errdetail("bloomcass knows the byte-comparable form of Murmur3Partitioner's and ByteOrderedPartitioner's keys only.")));

	bloom_component_open(prefix, "Partitions.db", false, &t->comps[0]);
	st = bc_partitions_range(&t->comps[0].reader, palloc(BC_PARTITIONS_MAX_KEYS), &t->footer,
							 &first, &first_len, &last, &last_len);
	if (st != BC_OK)
		bloom_components_error(st, version, t->comps, 1, "Partitions.db", 0);
	/* Rows.db holds the keys of wide partitions only: it may be absent */
	if (!bloom_component_open(prefix, "Rows.db", true, &t->comps[1]))
	{
		t->comps[1].name = "Rows.db";
		t->comps[1].reader = no_rows;
	}
	bloom_component_open(prefix, "Data.db", false, &t->comps[2]);

	info = read_component(prefix, "CompressionInfo.db", &info_len, &info_path);
	check_compression_info(prefix, info);
	st = bc_data_reader_open(&t->data, &t->ci, &t->comps[2].reader, version, strlen(version),
							 info, info_len, data_alloc, NULL, &block, &in_info);
	if (st != BC_OK && in_info)
		bloom_component_error(st, "CompressionInfo.db", version, info_path, 0);
	if (st == BC_OK)
		st = bc_trie_sstable_init(&t->ts, version, strlen(version), p, &t->comps[0].reader,
								  &t->footer, &t->comps[1].reader, &t->data);
	if (st != BC_OK)
		bloom_trie_error(t, st, 0);
}

void
bloom_trie_close(BloomTrieSSTable *t)
{
	int			i;

	for (i = 0; i < 3; i++)
		bloom_component_close(&t->comps[i]);
}

void
bloom_trie_error(BloomTrieSSTable *t, bc_status st, uint64 keys)
{
	if (st == BC_ERR_TRIE_ENCODING)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("cannot search SSTable \"%s\" of version \"%s\" by key", t->prefix, t->version),
				 errdetail("ScyllaDB's ms encodes each partition key column by its type in Partitions.db's trie, and bloomcass reads its token part under Murmur3Partitioner only; its keys can be listed.")));
	bloom_components_error(st, t->version, t->comps, 3, bc_trie_keys_component(st), keys);
}
