/*
 * test_compression_damaged.c - compressed Data.db, damaged
 * (bc_compression.c, bc_compression_chunk.c, bc_data.c): a flipped byte,
 * truncations, offsets out of order or past the file, an unknown
 * compressor, a chunk of the wrong length, each refused with its status;
 * a negative max compressed length, read as Cassandra reads it; ScyllaDB's
 * dictionary parts in and out of order.  The copies are made of a real
 * Data.db that test_compression.c decompressed (kept).
 */
#include <stdlib.h>
#include <string.h>

#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "bc_compression.h"
#include "bc_data.h"
#include "bc_status.h"
#include "unit.h"
#include "compression_util.h"

/* ---------------------------------------------------------------------
 * Damaged inputs
 * --------------------------------------------------------------------- */
static void
check_damaged(void)
{
	const uint8_t *data = kept[0];
	size_t		n = kept_len[0],
				out_len,
				i;
	buf			db = {0},
				ci = {0};
	bc_compression_info info;
	bc_status	st;
	uint8_t    *out,
			   *copy;

	if (data == NULL || n < 3 * 4096)
	{
		CHECK(0, "no Data.db of three chunks of 4096 bytes to damage");
		return;
	}
	write_sstable(C_LZ4, data, n, 4096, 1, INT32_MAX, 0, NULL, 0, &db, &ci);

	/* a flipped byte in a chunk, and in its checksum */
	st = bc_compression_parse("oa", 2, ci.d, ci.n, db.n, &info);
	CHECK(st == BC_OK, "damaged: parse: %s", bc_status_message(st));
	copy = malloc(db.n);
	for (i = 0; i < 2; i++)
	{
		memcpy(copy, db.d, db.n);
		copy[i == 0 ? 100 : db.n - 1] ^= 0x10;
		out = read_all(&info, copy, db.n, NULL, &st, &out_len);
		CHECK(out == NULL && st == BC_ERR_COMPRESSION_CHECKSUM, "flipped byte: %s", bc_status_message(st));
		free(out);
	}

	/* every truncation of CompressionInfo.db */
	for (i = 0; i < ci.n; i++)
	{
		st = bc_compression_parse("oa", 2, ci.d, i, db.n, &info);
		CHECK(st == BC_ERR_COMPRESSION_TRUNCATED, "CompressionInfo.db of %zu bytes: %s", i,
			  bc_status_message(st));
	}
	/* the max compressed length is not there in me: read as the data length */
	st = bc_compression_parse("me", 2, ci.d, ci.n, db.n, &info);
	CHECK(st != BC_OK || info.data_length != (int64_t) n, "me read as oa");

	/* offsets out of order, and past the file; Data.db truncated */
	{
		size_t		first = ci.n - 8 * (size_t) ((n + 4095) / 4096);
		uint8_t		save[16];
		uint64_t	off;
		size_t		sl;

		memcpy(save, ci.d + first + 8, 16);
		memcpy(ci.d + first + 8, save + 8, 8);
		memcpy(ci.d + first + 16, save, 8);
		st = bc_compression_parse("oa", 2, ci.d, ci.n, db.n, &info);
		CHECK(st == BC_OK, "swapped offsets: parse %s", bc_status_message(st));
		CHECK(bc_compression_chunk(&info, 1, &off, &sl) == BC_ERR_COMPRESSION_CHUNK,
			  "offsets out of order: chunk 1 accepted");
		/* chunk 0 now runs into chunk 1: its checksum fails first */
		out = read_all(&info, db.d, db.n, NULL, &st, &out_len);
		CHECK(out == NULL && st == BC_ERR_COMPRESSION_CHECKSUM, "offsets out of order: %s",
			  bc_status_message(st));
		free(out);
		memcpy(ci.d + first + 8, save, 16);

		ci.d[first + 8] = 0x7f;
		st = bc_compression_parse("oa", 2, ci.d, ci.n, db.n, &info);
		CHECK(bc_compression_chunk(&info, 1, &off, &sl) == BC_ERR_COMPRESSION_CHUNK,
			  "offset past the file: chunk 1 accepted");
		memcpy(ci.d + first + 8, save, 16);

		st = bc_compression_parse("oa", 2, ci.d, ci.n, db.n - 1, &info);
		out = read_all(&info, db.d, db.n - 1, NULL, &st, &out_len);
		CHECK(out == NULL && st == BC_ERR_COMPRESSION_CHECKSUM, "Data.db short of a byte: %s",
			  bc_status_message(st));
		free(out);
		CHECK(bc_compression_chunk(&info, info.chunk_count, &off, &sl) == BC_ERR_COMPRESSION_CHUNK,
			  "a chunk past the count accepted");
	}

	/* the data length one byte more: the last chunk decompresses short */
	{
		size_t		dl = ci.n - 8 * (size_t) ((n + 4095) / 4096) - 4 - 8;

		ci.d[dl + 7]++;
		st = bc_compression_parse("oa", 2, ci.d, ci.n, db.n, &info);
		out = read_all(&info, db.d, db.n, NULL, &st, &out_len);
		CHECK(out == NULL && (n % 4096 == 0 ? st == BC_ERR_COMPRESSION_CHUNK
							  : st == BC_ERR_COMPRESSION_CORRUPT),
			  "data length + 1: %s", bc_status_message(st));
		free(out);
		ci.d[dl + 7]--;
	}

	/*
	 * a data length past what the chunks hold (chunk count * chunk
	 * length, CompressionMetadata.chunkFor's bound): refused at parse, at
	 * one byte past it and at 2^46 bytes past the real one; exactly the
	 * chunks' room is read (the last chunk then decompresses short)
	 */
	{
		size_t		dl = ci.n - 8 * (size_t) ((n + 4095) / 4096) - 4 - 8;
		uint64_t	room = 4096 * (uint64_t) ((n + 4095) / 4096);
		uint8_t		save[8];
		buf			b = {0};

		memcpy(save, ci.d + dl, 8);
		bytebuf_put_be(&b, room, 8);
		memcpy(ci.d + dl, b.d, 8);
		st = bc_compression_parse("oa", 2, ci.d, ci.n, db.n, &info);
		CHECK(st == BC_OK && (uint64_t) info.data_length == room,
			  "data length = chunk count * chunk length: %s", bc_status_message(st));
		b.n = 0;
		bytebuf_put_be(&b, room + 1, 8);
		memcpy(ci.d + dl, b.d, 8);
		st = bc_compression_parse("oa", 2, ci.d, ci.n, db.n, &info);
		CHECK(st == BC_ERR_COMPRESSION_DATA_LENGTH, "data length past the chunks by 1: %s",
			  bc_status_message(st));
		b.n = 0;
		bytebuf_put_be(&b, ((uint64_t) 1 << 46) + n, 8);
		memcpy(ci.d + dl, b.d, 8);
		st = bc_compression_parse("oa", 2, ci.d, ci.n, db.n, &info);
		CHECK(st == BC_ERR_COMPRESSION_DATA_LENGTH, "data length 2^46 + n: %s",
			  bc_status_message(st));
		CHECK(bc_data_uncompressed_length("oa", 2, ci.d, ci.n, db.n, &room) ==
			  BC_ERR_COMPRESSION_DATA_LENGTH, "the uncompressed length of 2^46 + n given");
		memcpy(ci.d + dl, save, 8);
		free(b.d);
	}
	free(copy);

	/* crafted headers */
	{
		buf			b = {0};
		static const uint8_t none[8] = {0};

		put_utf(&b, "BrotliCompressor", 16);
		bytebuf_put_be(&b, 0, 4);
		bytebuf_put_be(&b, 4096, 4);
		bytebuf_put_be(&b, 10, 8);
		bytebuf_put_be(&b, 1, 4);
		bytebuf_put(&b, none, 8);
		st = bc_compression_parse("mc", 2, b.d, b.n, 100, &info);
		CHECK(st == BC_ERR_COMPRESSION_UNSUPPORTED && info.name_len == 16,
			  "unknown compressor: %s", bc_status_message(st));
		b.d[2] = 'X';
		memcpy(b.d + 2, "LZ4Compressor\0\0\0", 16);
		st = bc_compression_parse("mc", 2, b.d, b.n, 100, &info);
		CHECK(st == BC_ERR_COMPRESSION_UNSUPPORTED, "LZ4Compressor and NULs: %s", bc_status_message(st));

		/* chunk length 3000 (not a power of two), 0; chunk count 0; option count -1 */
		b.n = 0;
		put_utf(&b, "LZ4Compressor", 13);
		bytebuf_put_be(&b, 0, 4);
		bytebuf_put_be(&b, 3000, 4);
		bytebuf_put_be(&b, 10, 8);
		bytebuf_put_be(&b, 1, 4);
		bytebuf_put(&b, none, 8);
		/* CompressedChunkReader asserts a power of two; ScyllaDB reads
		 * any length but 0 in the versions it reads */
		st = bc_compression_parse("ma", 2, b.d, b.n, 100, &info);
		CHECK(st == BC_ERR_COMPRESSION_FORMAT, "ma: chunk length 3000: %s", bc_status_message(st));
		st = bc_compression_parse("mc", 2, b.d, b.n, 100, &info);
		CHECK(st == BC_OK && info.chunk_length == 3000 &&
			  bc_compression_chunk_data_len(&info, 0) == 10,
			  "mc: chunk length 3000 (ScyllaDB): %s", bc_status_message(st));
		memset(b.d + 2 + 13 + 4, 0, 4);
		st = bc_compression_parse("mc", 2, b.d, b.n, 100, &info);
		CHECK(st == BC_ERR_COMPRESSION_FORMAT, "chunk length 0: %s", bc_status_message(st));
		b.d[2 + 13 + 4 + 2] = 0x10;
		memset(b.d + 2 + 13 + 4 + 4 + 8, 0, 4);
		st = bc_compression_parse("mc", 2, b.d, b.n, 100, &info);
		CHECK(st == BC_ERR_COMPRESSION_FORMAT, "0 chunks: %s", bc_status_message(st));
		memset(b.d + 2 + 13, 0xff, 4);
		st = bc_compression_parse("mc", 2, b.d, b.n, 100, &info);
		CHECK(st == BC_ERR_COMPRESSION_FORMAT, "option count -1: %s", bc_status_message(st));
		st = bc_compression_parse("zz", 2, b.d, b.n, 100, &info);
		CHECK(st == BC_ERR_VERSION_UNKNOWN, "version zz: %s", bc_status_message(st));

		/* a dictionary with part 1 and no part 0 */
		b.n = 0;
		put_utf(&b, "ZstdWithDictsCompressor", 23);
		bytebuf_put_be(&b, 1, 4);
		put_utf(&b, ".dictionary.00000001", 20);
		put_utf(&b, "abc", 3);
		bytebuf_put_be(&b, 4096, 4);
		bytebuf_put_be(&b, 10, 8);
		bytebuf_put_be(&b, 1, 4);
		bytebuf_put(&b, none, 8);
		st = bc_compression_parse("me", 2, b.d, b.n, 100, &info);
		CHECK(st == BC_ERR_COMPRESSION_DICTIONARY, "dictionary without part 0: %s", bc_status_message(st));

		/*
		 * ScyllaDB's dict_from_options reads the part numbers with
		 * std::stoi (white space, a sign, digits, then anything) and keeps
		 * the first value of a part given twice; parts 0, 1, ... in order.
		 */
		{
			static const struct
			{
				const char *k1,
						   *k2,
						   *k3;
				bc_status	st;
				const char *dict;
			}			cases[] = {
				{".dictionary.00000000", ".dictionary.00000001", ".dictionary.00000000", BC_OK, "abde"},
				{".dictionary. +0", ".dictionary.1x", ".dictionary.\t01", BC_OK, "abde"},
				{".dictionary.1", ".dictionary.0", ".dictionary.2", BC_OK, "deabghi"},
				{".dictionary.0", ".dictionary.-1", ".dictionary.1", BC_ERR_COMPRESSION_DICTIONARY, NULL},
				{".dictionary.0", ".dictionary.1", ".dictionary.2000000000", BC_ERR_COMPRESSION_DICTIONARY, NULL},
				{".dictionary.0", ".dictionary.1", ".dictionary.2147483648", BC_ERR_COMPRESSION_DICTIONARY, NULL},
				{".dictionary.0", ".dictionary.1", ".dictionary.x", BC_ERR_COMPRESSION_DICTIONARY, NULL},
				{".dictionary.0", ".dictionary.1", ".dictionary.", BC_ERR_COMPRESSION_DICTIONARY, NULL},
				{".dictionary.0", ".dictionary.1", ".dictionary.+", BC_ERR_COMPRESSION_DICTIONARY, NULL},
			};
			static const char *const values[3] = {"ab", "de", "ghi"};
			size_t		c;

			for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
			{
				const char *keys[3] = {cases[c].k1, cases[c].k2, cases[c].k3};
				int			j;

				b.n = 0;
				put_utf(&b, "ZstdWithDictsCompressor", 23);
				bytebuf_put_be(&b, 3, 4);
				for (j = 0; j < 3; j++)
				{
					put_utf(&b, keys[j], strlen(keys[j]));
					put_utf(&b, values[j], strlen(values[j]));
				}
				bytebuf_put_be(&b, 4096, 4);
				bytebuf_put_be(&b, 10, 8);
				bytebuf_put_be(&b, 1, 4);
				bytebuf_put(&b, none, 8);
				st = bc_compression_parse("me", 2, b.d, b.n, 100, &info);
				CHECK(st == cases[c].st, "dictionary %s %s %s: %s", keys[0], keys[1], keys[2],
					  bc_status_message(st));
				if (st == BC_OK && cases[c].dict != NULL)
				{
					uint8_t		got[16];

					CHECK(info.dictionary_len == strlen(cases[c].dict), "dictionary %zu: %zu bytes",
						  c, info.dictionary_len);
					if (info.dictionary_len <= sizeof(got))
					{
						bc_compression_dictionary(&info, got);
						CHECK(memcmp(got, cases[c].dict, info.dictionary_len) == 0,
							  "dictionary %zu: %.*s", c, (int) info.dictionary_len, got);
					}
				}
			}
		}
		free(b.d);
	}

	/* an uncompressed Data.db through the same reader */
	{
		mem_file	m;
		bc_reader	r = mem_open(&m, data, n);
		bc_data_reader dr;
		uint8_t    *piece = malloc(5000);
		size_t		got;

		st = bc_data_reader_init(&dr, &r, NULL, NULL, 0, NULL, 0, NULL, 0);
		CHECK(st == BC_OK && bc_data_length(&dr) == n, "uncompressed init: %s", bc_status_message(st));
		st = bc_data_read(&dr, n - 100, piece, 5000, &got);
		CHECK(st == BC_OK && got == 100 && memcmp(piece, data + n - 100, 100) == 0,
			  "uncompressed tail: %s, %zu", bc_status_message(st), got);
		st = bc_data_read(&dr, 10, piece, 5000, &got);
		CHECK(st == BC_OK && got == 5000 && memcmp(piece, data + 10, 5000) == 0,
			  "uncompressed piece: %s, %zu", bc_status_message(st), got);
		free(piece);
	}
	free(db.d);
	free(ci.d);
}

/*
 * A negative max compressed length (the fuzz target's model of a chunk,
 * test/fuzz/data/fuzz_data.c, flags it): Cassandra compares a chunk's stored
 * length with it as an int (CompressedChunkReader:
 * chunk.length < maxCompressedLength is decompressed, anything else copied),
 * so every chunk is read as it is stored.  The reader compared the two
 * unsigned and gave LZ4 the raw bytes (BC_ERR_COMPRESSION_CORRUPT).
 */
static void
check_negative_max(void)
{
	static const uint8_t raw[16] = {
		'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', 'P'
	};
	static const uint32_t maxes[] = {0xffffffffu, 0x80000000u, 0x00000010u};
	size_t		i;

	for (i = 0; i < sizeof(maxes) / sizeof(maxes[0]); i++)
	{
		buf			db = {0},
					ci = {0};
		bc_compression_info info;
		bc_status	st;
		uint8_t    *out;
		size_t		out_len = 0;

		bytebuf_put(&db, raw, sizeof(raw));
		bytebuf_put_be(&db, (uint32_t) crc32(crc32(0L, Z_NULL, 0), raw, sizeof(raw)), 4);
		put_utf(&ci, "LZ4Compressor", 13);
		bytebuf_put_be(&ci, 0, 4);		/* no option */
		bytebuf_put_be(&ci, 16, 4);		/* chunk length */
		bytebuf_put_be(&ci, maxes[i], 4);	/* max compressed length */
		bytebuf_put_be(&ci, 16, 8);		/* data length */
		bytebuf_put_be(&ci, 1, 4);		/* one chunk, at 0 */
		bytebuf_put_be(&ci, 0, 8);
		st = bc_compression_parse("na", 2, ci.d, ci.n, db.n, &info);
		CHECK(st == BC_OK && info.max_compressed_length == (int32_t) maxes[i],
			  "max compressed length %08x: parse %s", maxes[i], bc_status_message(st));
		out = read_all(&info, db.d, db.n, NULL, &st, &out_len);
		CHECK(out != NULL && st == BC_OK && out_len == sizeof(raw) &&
			  memcmp(out, raw, sizeof(raw)) == 0,
			  "max compressed length %08x: a raw chunk read as %s", maxes[i],
			  bc_status_message(st));
		free(out);
		free(db.d);
		free(ci.d);
	}
}

/*
 * ScyllaDB's dictionary parts in order (as it writes them: one pass over
 * the options) and out of order (each part searched for) give the same
 * dictionary; a part given twice keeps its first value (dict_from_options),
 * one missing is refused either way.  5000
 * parts of a byte each (found by fuzzing: searching each part through
 * every option took seconds).
 */
static void
check_dictionary_parts(void)
{
	static const struct
	{
		const char *what;
		int			order[4];	/* the parts' numbers, as written; -1 ends */
		bc_status	st;
	}			cases[] = {
		{"in order", {0, 1, 2, -1}, BC_OK},
		{"out of order", {1, 2, 0, -1}, BC_OK},
		{"part 0 twice (its first value kept)", {0, 0, 1, 2}, BC_OK},
		{"part 1 missing", {0, 2, -1}, BC_ERR_COMPRESSION_DICTIONARY},
	};
	static const uint8_t none[8] = {0};
	size_t		i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		buf			b = {0};
		bc_compression_info info;
		bc_status	st;
		int			n = 0,
					j;

		while (n < 4 && cases[i].order[n] >= 0)
			n++;
		put_utf(&b, "ZstdWithDictsCompressor", 23);
		bytebuf_put_be(&b, (uint64_t) n + 1, 4);
		put_utf(&b, "crc_check_chance", 16);
		put_utf(&b, "1.0", 3);
		for (j = 0; j < n; j++)
		{
			char		key[32],
						val[8];

			snprintf(key, sizeof(key), ".dictionary.%08d", cases[i].order[j]);
			snprintf(val, sizeof(val), "<%d>", cases[i].order[j]);
			put_utf(&b, key, strlen(key));
			put_utf(&b, val, 3);
		}
		bytebuf_put_be(&b, 4096, 4);
		bytebuf_put_be(&b, 10, 8);
		bytebuf_put_be(&b, 1, 4);
		bytebuf_put(&b, none, 8);
		st = bc_compression_parse("me", 2, b.d, b.n, 100, &info);
		CHECK(st == cases[i].st, "dictionary %s: %s", cases[i].what, bc_status_message(st));
		if (st == BC_OK)
		{
			uint8_t		d[16];

			memset(d, 0, sizeof(d));
			bc_compression_dictionary(&info, d);
			CHECK(info.dictionary_len == 9 && memcmp(d, "<0><1><2>\0", 10) == 0,
				  "dictionary %s: %zu bytes %.9s", cases[i].what, info.dictionary_len, d);
		}
		free(b.d);
	}

	/* 5000 parts of a byte, in order and then the first two swapped */
	{
		buf			b = {0};
		bc_compression_info info;
		uint8_t    *d = malloc(5000);
		int			j,
					swap;

		for (swap = 0; swap < 2; swap++)
		{
			int			ok = 1;

			b.n = 0;
			put_utf(&b, "LZ4WithDictsCompressor", 22);
			bytebuf_put_be(&b, 5000, 4);
			for (j = 0; j < 5000; j++)
			{
				char		key[32];
				int			no = swap && j < 2 ? 1 - j : j;
				uint8_t		v = (uint8_t) (no * 7);

				snprintf(key, sizeof(key), ".dictionary.%08d", no);
				put_utf(&b, key, strlen(key));
				put_utf(&b, &v, 1);
			}
			bytebuf_put_be(&b, 4096, 4);
			bytebuf_put_be(&b, 10, 8);
			bytebuf_put_be(&b, 1, 4);
			bytebuf_put(&b, none, 8);
			CHECK(bc_compression_parse("me", 2, b.d, b.n, 100, &info) == BC_OK &&
				  info.dictionary_len == 5000, "5000 parts (swapped %d)", swap);
			bc_compression_dictionary(&info, d);
			for (j = 0; j < 5000; j++)
				ok &= d[j] == (uint8_t) (j * 7);
			CHECK(ok, "5000 parts (swapped %d): the dictionary", swap);
		}
		free(d);
		free(b.d);
	}
}

void
suite_compression_damaged(void)
{
	int			i;

	check_damaged();
	check_negative_max();
	check_dictionary_parts();
	for (i = 0; i < KEEP; i++)
	{
		free(kept[i]);
		kept[i] = NULL;
	}
}
