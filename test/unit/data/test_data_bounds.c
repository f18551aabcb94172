/*
 * test_data_bounds.c - the chunk buffers of a compressed Data.db are sized
 * by what its files can hold, not by the chunk length CompressionInfo.db
 * declares (bc_data_buffer_sizes, bc_data_reader_open): bb-1-bti's 405
 * bytes of Data.db (998 bytes of data, one LZ4 chunk) read right with a
 * declared chunk length of 2^16 (its own), 2^28, 2^29 and 2^30, in
 * buffers of at most a few kilobytes; a data length of 2^30 besides is a
 * chunk that does not decompress to its length; and buffers over
 * BC_DATA_MAX_BUFFERS are BC_ERR_COMPRESSION_LIMIT before anything is
 * allocated.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_compression.h"
#include "bc_data.h"
#include "bc_endian.h"
#include "bc_status.h"
#include "unit.h"

#define BB "sstables/sstable-to-arrow/sample_data/baselines-data/keyvalue/bb-1-bti-"

/* an allocator that notes the largest block asked */
static size_t largest;

static void *
noting_alloc(void *arg, size_t size)
{
	(void) arg;
	if (size > largest)
		largest = size;
	return malloc(size);
}

/* Data.db read whole through CompressionInfo.db info */
static bc_status
read_whole(const uint8_t *info, size_t info_len, const uint8_t *db, size_t db_len,
		   uint8_t *out, size_t cap, size_t *got, int *in_info)
{
	unit_mem	m;
	bc_reader	r;
	bc_data_reader dr;
	bc_compression_info ci;
	void	   *block = NULL;
	bc_status	st;

	*got = 0;
	unit_mem_open(&m, &r, db, db_len);
	largest = 0;
	st = bc_data_reader_open(&dr, &ci, &r, "bb", 2, info, info_len, noting_alloc, NULL,
							 &block, in_info);
	if (st == BC_OK)
		st = bc_data_read(&dr, 0, out, cap, got);
	free(block);
	return st;
}

static void
check_bb(void)
{
	size_t		il,
				dl,
				got,
				want_len;
	uint8_t    *info = unit_read_file(unit_path(BB "CompressionInfo.db"), &il),
			   *db = unit_read_file(unit_path(BB "Data.db"), &dl),
			   *want = malloc(4096),
			   *out = malloc(4096);
	int			in_info,
				e;
	bc_status	st;

	if (info == NULL || db == NULL)
	{
		CHECK(0, "bb-1-bti's CompressionInfo.db and Data.db");
		goto out;
	}
	/* the layout the hostile copies of test/make-hostile.sh change */
	CHECK(il >= 35 && bc_get_be32(info + 19) == 65536 && bc_get_be64(info + 27) == 998 &&
		  dl == 405, "bb-1-bti: chunk length at 19, data length at 27");
	st = read_whole(info, il, db, dl, want, 4096, &want_len, &in_info);
	CHECK(st == BC_OK && want_len == 998, "bb-1-bti read: %s", bc_status_message(st));
	CHECK(largest <= 998 + 405, "bb-1-bti: buffers of %zu bytes", largest);

	for (e = 28; e <= 30; e++)
	{
		bc_put_be32(info + 19, UINT32_C(1) << e);
		st = read_whole(info, il, db, dl, out, 4096, &got, &in_info);
		CHECK(st == BC_OK && got == want_len && memcmp(out, want, got) == 0,
			  "chunk length 2^%d: %s, %zu bytes", e, bc_status_message(st), got);
		/* the chunk buffer holds the data length, the other Data.db */
		CHECK(largest <= 998 + 405, "chunk length 2^%d: buffers of %zu bytes", e, largest);
	}

	/* and a data length of 2^30: 401 stored bytes of LZ4 cannot give it */
	bc_put_be64(info + 27, UINT64_C(1) << 30);
	st = read_whole(info, il, db, dl, out, 4096, &got, &in_info);
	CHECK(st == BC_ERR_COMPRESSION_CORRUPT && !in_info,
		  "data length 2^30: %s", bc_status_message(st));
	CHECK(largest <= 256 * 405 + 64 + 405, "data length 2^30: buffers of %zu bytes", largest);
out:
	free(info);
	free(db);
	free(want);
	free(out);
}

/* zstd's bound lets 20,000 stored bytes make more than the limit */
static void
check_limit(void)
{
	static const char name[] = "ZstdCompressor";
	uint8_t		info[64];
	size_t		n = 0,
				dl = 20000;
	uint8_t    *db = calloc(dl, 1);
	unit_mem	m;
	bc_reader	r;
	bc_data_reader dr;
	bc_compression_info ci;
	void	   *block = NULL;
	int			in_info = 0;
	bc_status	st;

	info[n++] = 0;
	info[n++] = (uint8_t) (sizeof(name) - 1);
	memcpy(info + n, name, sizeof(name) - 1);
	n += sizeof(name) - 1;
	bc_put_be32(info + n, 0);	/* options */
	n += 4;
	bc_put_be32(info + n, UINT32_C(1) << 30);	/* chunk length */
	n += 4;
	bc_put_be32(info + n, INT32_MAX);	/* max compressed length */
	n += 4;
	bc_put_be64(info + n, UINT64_C(1) << 30);	/* data length */
	n += 8;
	bc_put_be32(info + n, 1);	/* chunks */
	n += 4;
	bc_put_be64(info + n, 0);
	n += 8;
	unit_mem_open(&m, &r, db, dl);
	largest = 0;
	st = bc_data_reader_open(&dr, &ci, &r, "bb", 2, info, n, noting_alloc, NULL, &block,
							 &in_info);
	CHECK(st == BC_ERR_COMPRESSION_LIMIT && in_info && block == NULL && largest == 0,
		  "zstd chunks of 2^30 over 20,000 bytes: %s, %zu bytes asked",
		  bc_status_message(st), largest);
	free(block);
	free(db);
}

void
suite_data_bounds(void)
{
	check_bb();
	check_limit();
}
