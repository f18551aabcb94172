/*
 * bloom_sstable_open.h - an SSTable's components opened on the server for
 * the functions that read them at key level (bloom_sstable_open.c):
 * cassandra_sstable_has_key (bloom_sstable_lookup.c) and
 * cassandra_sstable_keys (bloom_sstable_keys.c).
 */
#ifndef BLOOM_SSTABLE_OPEN_H
#define BLOOM_SSTABLE_OPEN_H

#include "bc_compression.h"
#include "bc_data.h"
#include "bc_partitioner.h"
#include "bc_partitions.h"
#include "bc_trie.h"
#include "bc_trie_keys.h"
#include "bloomcass.h"

/* one component file, open for reads through the core's bc_reader */
typedef struct BloomComponent
{
	const char *name;			/* "Index.db" */
	char	   *path;
	BloomFile	file;
	bc_reader	reader;
	bool		open;
} BloomComponent;

/*
 * Open prefix-name: false when it does not exist and may_lack, else an
 * ERROR for any failure, as pg_read_binary_file reports it.  Privileges are
 * checked first.
 */
extern BLOOM_INTERNAL bool bloom_component_open(const char *prefix, const char *name,
												bool may_lack, BloomComponent *c);
extern BLOOM_INTERNAL void bloom_component_close(BloomComponent *c);

/*
 * A core status of a key-level reader as an ERROR: a read that failed
 * names its file; anything else is component's error with its SQLSTATE
 * (keys: how many keys were read before it).
 */
BLOOM_NORETURN extern BLOOM_INTERNAL void bloom_components_error(bc_status st, const char *version,
																 BloomComponent *comps, int ncomps,
																 const char *component, uint64 keys);

/*
 * The partitioner Statistics.db names (*name, NULL without Statistics.db:
 * then BC_PARTITIONER_OTHER); a malformed Statistics.db is an ERROR.
 */
extern BLOOM_INTERNAL bc_partitioner bloom_sstable_partitioner(const char *prefix, const char *version,
															   char **name);

/*
 * The same, and the partition key's type (*key_type when key_type is not
 * NULL): Statistics.db's serialization header, from 3.0 (ma); NULL before,
 * or without Statistics.db.
 */
extern BLOOM_INTERNAL bc_partitioner bloom_sstable_key_facts(const char *prefix, const char *version,
															 char **name, char **key_type);

/*
 * The partitioner whose order an SSTable's keys are checked against while
 * listed: Statistics.db's, BC_PARTITIONER_OTHER (no check) when it is
 * missing or cannot be read (a listing does not need it).
 */
extern BLOOM_INTERNAL bc_partitioner bloom_sstable_order(const char *prefix, const char *version);

/*
 * The length of the SSTable's uncompressed Data.db: CompressionInfo.db's
 * data length, or Data.db's size when it has none.  An ERROR when Data.db
 * cannot be opened or CompressionInfo.db does not parse.
 */
extern BLOOM_INTERNAL uint64 bloom_sstable_data_length(const char *prefix, const char *version);

/* RandomPartitioner's tokens: the server's MD5 (a bc_md5_fn) */
extern BLOOM_INTERNAL void bloom_md5(const void *data, size_t len, uint8_t out[16]);

/* a trie-indexed SSTable open for its keys: Partitions.db, Rows.db, Data.db */
typedef struct BloomTrieSSTable
{
	const char *prefix;
	const char *version;
	BloomComponent comps[3];	/* Partitions.db, Rows.db, Data.db */
	bc_partitions_footer footer;
	bc_compression_info ci;
	bc_data_reader data;
	bc_trie_sstable ts;
} BloomTrieSSTable;

/*
 * Open the trie-indexed SSTable prefix of this version, whose keys are
 * ordered by partitioner (named partitioner_name in Statistics.db, NULL
 * without one): an ERROR when it cannot be read at key level.
 */
extern BLOOM_INTERNAL void bloom_trie_open(BloomTrieSSTable *t, const char *prefix,
										   const char *version, bc_partitioner p,
										   const char *partitioner_name);
extern BLOOM_INTERNAL void bloom_trie_close(BloomTrieSSTable *t);

/* a status of the trie readers as an ERROR naming the file it concerns */
BLOOM_NORETURN extern BLOOM_INTERNAL void bloom_trie_error(BloomTrieSSTable *t, bc_status st,
														   uint64 keys);

#endif							/* BLOOM_SSTABLE_OPEN_H */
