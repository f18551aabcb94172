/*
 * compression_util.h - what the tests of compressed Data.db share
 * (compression_util.c): a reader over memory in short pieces, an SSTable's
 * Data.db and CompressionInfo.db written with every compressor as
 * Cassandra and ScyllaDB write them, the whole uncompressed Data.db read
 * back through bc_data_read, and a few real Data.db decompressed by
 * test_compression.c (kept), which test_compression_damaged.c damages and
 * frees, in that order (unit_main.c runs the suites so).
 */
#ifndef COMPRESSION_UTIL_H
#define COMPRESSION_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "bc_compression.h"
#include "bc_data.h"
#include "bc_status.h"
#include "unit.h"

typedef unit_mem mem_file;
typedef bytebuf buf;

enum
{
	C_NOOP, C_LZ4, C_SNAPPY, C_DEFLATE, C_ZSTD, C_LZ4_DICT, C_ZSTD_DICT, C_COUNT
};
extern const char *const cnames[C_COUNT];

/* chunks write_sstable stored raw, and padded */
extern long raw_chunks,
			padded_chunks;

/* a few real Data.db decompressed (test_compression.c), kept for the
 * round trips and the damaged copies */
#define KEEP 3
extern uint8_t *kept[KEEP];
extern size_t kept_len[KEEP];

bc_reader mem_open(mem_file *m, const uint8_t *data, size_t len);
void put_utf(buf *b, const void *s, size_t n);
size_t compress_chunk(int c, const uint8_t *src, size_t n, uint8_t *out, size_t cap, const uint8_t *dict, size_t dict_len);
void write_sstable(int c, const uint8_t *data, size_t n, int32_t chunk_len, int with_max, int32_t max_len, int adler, const uint8_t *dict, size_t dict_len, buf *db, buf *ci);
uint8_t *read_all(const bc_compression_info *ci, const uint8_t *db, size_t db_len, const uint8_t *dict, bc_status *st, size_t *out_len);

#endif
