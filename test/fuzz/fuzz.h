/*
 * fuzz.h - what the files of the core's libFuzzer target share
 * (test/fuzz/fuzz_main.c and test/fuzz/<folder>/fuzz_*.c, linked into
 * one binary, fuzz_core, by run-short.sh): the invariant check, exact-size allocations, keys taken
 * from the input, the SSTable versions the file stages select, a bc_reader
 * over memory, and the stages, each of which fuzz_main.c runs on every
 * input.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bc_compression.h"
#include "bc_reader.h"
#include "bc_status.h"

/* A violated invariant: what failed and where, then abort() (a finding). */
#define CHECK(cond) \
	do { \
		if (!(cond)) \
		{ \
			fprintf(stderr, "fuzz_core: invariant failed at %s:%d: %s\n", \
					__FILE__, __LINE__, #cond); \
			abort(); \
		} \
	} while (0)

/* malloc that never returns NULL (n = 0 gives a 1-byte block) */
void	   *xmalloc(size_t n);

/*
 * An output buffer of exactly cap bytes, so that ASan flags any write past
 * it.  For cap 0 the pointer is one past a 1-byte block: any write through
 * it is caught as well.  Free base.
 */
typedef struct exact_buf
{
	uint8_t    *base;
	uint8_t    *p;
} exact_buf;

exact_buf	exact_alloc(size_t cap);

/* set bits of p[0 .. n), one by one */
uint64_t	naive_popcount(const uint8_t *p, size_t n);

/* [p, p + n) lies inside [base, base + len) */
int			inside(const void *p, size_t n, const uint8_t *base, size_t len);

/* every byte 0x20 .. 0x7e */
int			is_printable(const uint8_t *s, size_t n);

/* Keys taken from the input: empty, the whole input (capped), slices. */
#define FUZZ_NKEYS 6
typedef struct key_ref
{
	const uint8_t *p;
	size_t		len;
} key_ref;

int			pick_keys(const uint8_t *data, size_t len, key_ref *keys);

/*
 * The SSTable versions the file stages read the input's first byte as:
 * fuzz_versions[byte 0 % fuzz_nversions] (run-short.sh lists them in the
 * same order to prefix the real files' seeds: change both together).
 */
#define SV_REFUSED	-1			/* not read at all */
#define SV_LEGACY_12 0			/* ia .. ic: no fp_chance */
#define SV_LEGACY_20 1			/* ja, jb */
#define SV_TOC		2			/* ka .. lb */
#define SV_HEADER	3			/* ma .. me, ms, mt: and a key type */
#define SV_CRC		4			/* na .. oa, da, bb: and checksummed */

typedef struct fuzz_version
{
	const char *v;
	int			stats;			/* SV_*: what bc_statistics_parse sets */
	int			era;			/* bc_index_era, or -1: no Index.db */
} fuzz_version;

extern const fuzz_version fuzz_versions[];
extern const int fuzz_nversions;

const fuzz_version *pick_version(const uint8_t *data, size_t len);

/*
 * A file in memory read through a bc_reader: reads give at most piece
 * bytes (0: all asked), read number fail_at fails (0: none), and once
 * budget reads or budget_bytes bytes were given (0: no limit) every read
 * fails, so that no input makes a stage run for long.  It notes the
 * reads, the bytes and the highest offset + length asked.
 */
typedef struct fuzz_mem
{
	const uint8_t *data;
	size_t		len;
	size_t		piece;
	uint64_t	fail_at;
	uint64_t	budget;
	uint64_t	budget_bytes;
	uint64_t	reads;
	uint64_t	bytes;
	uint64_t	max_end;
	int			exhausted;		/* the budget stopped a read */
} fuzz_mem;

/* m set to data (everything else 0) and a reader over it */
bc_reader	fuzz_mem_open(fuzz_mem *m, const uint8_t *data, size_t len);

/* an allocator for bc_data_reader_open: xmalloc */
void	   *fuzz_alloc(void *arg, size_t size);

/* ---- compressed Data.db and CompressionInfo.db (fuzz_write.c) -- */

/* the compressors, BC_COMPRESSOR_NOOP .. BC_COMPRESSOR_ZSTD_DICTS */
#define FUZZ_NCOMPRESSORS 7

/* a growable buffer; free d */
/* a growable buffer of bytes (test/lib/bytebuf.h) */
#include "bytebuf.h"

/* CompressionInfo.db has the max compressed length: na .. oa, da, bb */
int			fuzz_has_max_length(const char *version);

/* the chunks' checksum is Adler32 (jb .. lb), else CRC32 */
int			fuzz_is_adler(const char *version);
uint32_t	fuzz_chunk_checksum(const char *version, const uint8_t *p, size_t n);

/*
 * CompressionInfo.db of the version: c's class name, the dictionary as
 * ScyllaDB's options (for its two compressors, when dict_len > 0: in
 * order, or reversed), the chunk length, the max compressed length where
 * the version has it, the data length and the chunks' offsets.
 */
void		fuzz_write_info(bytebuf *ci, const char *version, bc_compressor c,
							const uint8_t *dict, size_t dict_len, int reversed,
							int32_t chunk_len, int32_t max_len, uint64_t data_len,
							const uint64_t *offsets, size_t nchunks);

/*
 * A Data.db and its CompressionInfo.db made from plain bytes with the
 * compressor's own library, as Cassandra's CompressedSequentialWriter
 * writes them for the version: where it has the max compressed length
 * (max_len, at most chunk_len), a chunk that does not get below it is
 * stored as it is, the last one padded; each chunk followed by its
 * checksum.  Malloc'ed: free db and info; info is NULL when zstd refused
 * the dictionary (bytes that begin like a zstd dictionary but are not one).
 */
typedef struct fuzz_compressed
{
	uint8_t    *db;
	size_t		db_len;
	uint8_t    *info;
	size_t		info_len;
	size_t		nchunks;
	size_t		raw_chunks;		/* chunks stored as they are */
} fuzz_compressed;

void		fuzz_compress(const char *version, bc_compressor c, const uint8_t *plain,
						  size_t n, int32_t chunk_len, int32_t max_len,
						  const uint8_t *dict, size_t dict_len, int reversed,
						  fuzz_compressed *out);

/* ---- the stages (fuzz_main.c runs each on every input) ----------- */

/* fuzz_filter.c */
void		fuzz_filterdb(const uint8_t *data, size_t len, const key_ref *keys, int nkeys);
void		fuzz_indexes(const uint8_t *data, size_t len);
void		fuzz_hash(const uint8_t *data, size_t len);
bc_status	checked_filterdb_check(const uint8_t *d, size_t len, int64_t max_words,
								   int32_t *k, int64_t *w);
void		check_image(const uint8_t *img, size_t len, int32_t k, int64_t w,
						const key_ref *keys, int nkeys);

/* fuzz_type_io.c */
void		fuzz_type(const uint8_t *data, size_t len, const key_ref *keys, int nkeys);

/* fuzz_names.c */
void		fuzz_names(const uint8_t *data, size_t len);
void		fuzz_sstable_names(const uint8_t *data, size_t len);

/* fuzz_keys.c */
void		fuzz_numbers(const uint8_t *data, size_t len);
void		fuzz_composite(const uint8_t *data, size_t len);

/* fuzz_big.c */
void		fuzz_statistics(const uint8_t *data, size_t len);
void		fuzz_index(const uint8_t *data, size_t len);
void		fuzz_summary(const uint8_t *data, size_t len);

/* fuzz_trie.c */
void		fuzz_partitions(const uint8_t *data, size_t len);
void		fuzz_trie(const uint8_t *data, size_t len, const key_ref *keys, int nkeys);

/* fuzz_trie_keys.c */
void		fuzz_trie_keys(const uint8_t *data, size_t len, const key_ref *keys, int nkeys);

/* fuzz_compression.c */
void		fuzz_compression(const uint8_t *data, size_t len);

/* fuzz_compression_dict.c */
void		fuzz_compression_dict(const uint8_t *data, size_t len);

/* fuzz_data.c */
void		fuzz_data(const uint8_t *data, size_t len);

/* fuzz_lookup.c */
void		fuzz_partitioner(const uint8_t *data, size_t len, const key_ref *keys, int nkeys);
void		fuzz_lookup(const uint8_t *data, size_t len, const key_ref *keys, int nkeys);

/* fuzz_dir.c */
void		fuzz_txn_log(const uint8_t *data, size_t len);

/* fuzz_mounts.c: <real path> NUL <mountinfo> */
void		fuzz_mounts(const uint8_t *data, size_t len);

/* fuzz_cqlkeys.c */
void		fuzz_cql(const uint8_t *data, size_t len);

/* fuzz_hll.c */
void		fuzz_hll(const uint8_t *data, size_t len);

#endif							/* FUZZ_H */
