/*
 * test_compression.c - compressed Data.db: CompressionInfo.db and chunks
 * (bc_compression.c, bc_compression_chunk.c) and the reader built on them
 * (bc_data.c).
 *
 * The SSTables of test/data/sstables with a CompressionInfo.db (MANIFEST
 * .tsv; all LZ4): CompressionInfo.db parsed, the chunks' offsets against
 * Data.db's size, every chunk's checksum and decompression, the total
 * against the data length, and the first partition's key against the
 * manifest's first key.  Then a few of them decompressed and compressed
 * again, here with the libraries' own compressors, with every compressor
 * (Noop, LZ4, Snappy, Deflate, Zstd and ScyllaDB's LZ4 and Zstd with a
 * dictionary), chunk lengths 4096 and 16384, in a layout with and without
 * the max compressed length (and raw chunks) and with Adler32: bc_data_read
 * must give back the same bytes, whole and in random ranges; the same for
 * bytes that do not compress (raw chunks, the last one padded).  Damaged
 * inputs are test_compression_damaged.c's.
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

/* MANIFEST rows with a CompressionInfo.db */
#define EXPECT_COMPRESSED_ROWS 140

/* ---------------------------------------------------------------------
 * The real SSTables
 * --------------------------------------------------------------------- */


static void
check_real(const char *what, const char *version, const uint8_t *cinfo, size_t clen,
		   const uint8_t *db, size_t db_len, const char *first_key_hex)
{
	bc_compression_info ci;
	bc_status	st;
	int64_t		i,
				needed;
	uint64_t	total = 0;
	uint8_t    *out,
			   *all;
	size_t		all_len;

	st = bc_compression_parse(version, strlen(version), cinfo, clen, db_len, &ci);
	CHECK(st == BC_OK, "%s: parse: %s", what, bc_status_message(st));
	if (st != BC_OK)
		return;
	CHECK(ci.compressor == BC_COMPRESSOR_LZ4, "%s: compressor %d", what, (int) ci.compressor);
	CHECK(ci.checksum == ((strcmp(version, "jb") >= 0 && strcmp(version, "lb") <= 0)
						  ? BC_CHUNK_ADLER32 : BC_CHUNK_CRC32), "%s: checksum type", what);

	/* the offsets: from 0, increasing, the needed chunks end at Data.db's end */
	needed = (ci.data_length + ci.chunk_length - 1) / ci.chunk_length;
	CHECK(ci.chunk_count == needed || ci.chunk_count == needed + 1,
		  "%s: %d chunks for %lld bytes", what, ci.chunk_count, (long long) ci.data_length);
	out = malloc((size_t) ci.chunk_length);
	for (i = 0; i < needed; i++)
	{
		uint64_t	off;
		size_t		slen,
					want = bc_compression_chunk_data_len(&ci, i);

		st = bc_compression_chunk(&ci, i, &off, &slen);
		CHECK(st == BC_OK, "%s: chunk %lld: %s", what, (long long) i, bc_status_message(st));
		if (st != BC_OK)
			break;
		CHECK(i > 0 || off == 0, "%s: first chunk at %llu", what, (unsigned long long) off);
		st = bc_compression_decode(&ci, i, db + off, slen, NULL, 0, out, (size_t) ci.chunk_length);
		CHECK(st == BC_OK, "%s: decode chunk %lld: %s", what, (long long) i, bc_status_message(st));
		total += want;
		if (i == needed - 1)
			CHECK(off + slen + 4 == db_len ||
				  (ci.chunk_count == needed + 1 &&
				   off + slen + 4 == ((uint64_t) cinfo[clen - 8] << 56 | (uint64_t) cinfo[clen - 7] << 48 |
									  (uint64_t) cinfo[clen - 6] << 40 | (uint64_t) cinfo[clen - 5] << 32 |
									  (uint64_t) cinfo[clen - 4] << 24 | (uint64_t) cinfo[clen - 3] << 16 |
									  (uint64_t) cinfo[clen - 2] << 8 | cinfo[clen - 1])),
				  "%s: the last chunk does not end Data.db", what);
	}
	free(out);
	CHECK(total == (uint64_t) ci.data_length, "%s: chunks give %llu of %lld bytes", what,
		  (unsigned long long) total, (long long) ci.data_length);

	/* the whole through the reader, and the first partition's key */
	all = read_all(&ci, db, db_len, NULL, &st, &all_len);
	CHECK(st == BC_OK && all_len == (size_t) ci.data_length, "%s: read: %s, %zu bytes",
		  what, bc_status_message(st), all_len);
	if (all == NULL)
		return;
	if (strcmp(first_key_hex, "-") != 0)
	{
		size_t		klen;
		uint8_t    *key = unit_hex_decode(first_key_hex, strlen(first_key_hex), &klen);

		CHECK(key != NULL && all_len >= 2 + klen &&
			  (((size_t) all[0] << 8) | all[1]) == klen && memcmp(all + 2, key, klen) == 0,
			  "%s: Data.db does not begin with the first key %s", what, first_key_hex);
		free(key);
	}
	for (i = 0; i < KEEP; i++)
		if (kept[i] == NULL || kept_len[i] < all_len)
		{
			/* keep the largest few, largest first */
			free(kept[KEEP - 1]);
			memmove(kept + i + 1, kept + i, (size_t) (KEEP - 1 - i) * sizeof(kept[0]));
			memmove(kept_len + i + 1, kept_len + i, (size_t) (KEEP - 1 - i) * sizeof(kept_len[0]));
			kept[i] = all;
			kept_len[i] = all_len;
			return;
		}
	free(all);
}

static void
check_manifest(void)
{
	unit_tsv	t;
	char	   *f[40];
	int			nf;
	long		rows = 0;

	if (unit_tsv_open(&t, "sstables/MANIFEST.tsv") != 0)
		return;
	unit_tsv_next(&t, f, 40);	/* header */
	while ((nf = unit_tsv_next(&t, f, 40)) >= 0)
	{
		char		rel[4096],
					what[4096];
		uint8_t    *cinfo,
				   *db;
		size_t		clen,
					dlen;

		if (nf < 13 || strstr(f[7], "CompressionInfo.db") == NULL)
			continue;
		rows++;
		snprintf(what, sizeof(what), "%s/%s", f[0], f[1]);
		snprintf(rel, sizeof(rel), "sstables/%s/%s-CompressionInfo.db", f[0], f[1]);
		cinfo = unit_read_file(unit_path(rel), &clen);
		snprintf(rel, sizeof(rel), "sstables/%s/%s-Data.db", f[0], f[1]);
		db = unit_read_file(unit_path(rel), &dlen);
		CHECK(cinfo != NULL && db != NULL, "%s: cannot read CompressionInfo.db or Data.db", what);
		if (cinfo != NULL && db != NULL)
			check_real(what, f[2], cinfo, clen, db, dlen, f[12]);
		free(cinfo);
		free(db);
	}
	unit_tsv_close(&t);
	CHECK(rows == EXPECT_COMPRESSED_ROWS, "%ld MANIFEST rows with CompressionInfo.db, expected %d",
		  rows, EXPECT_COMPRESSED_ROWS);
}

/* ---------------------------------------------------------------------
 * Round trips with every compressor
 * --------------------------------------------------------------------- */
static uint32_t rng = 12345;

static uint32_t
next_rand(void)
{
	rng = rng * 1103515245u + 12345u;
	return rng >> 8;
}

static void
round_trip(const uint8_t *data, size_t n, int c, int32_t chunk_len, const char *version,
		   int32_t max_len)
{
	buf			db = {0},
				ci = {0};
	int			with_max = !(version[0] >= 'i' && version[0] <= 'm');
	int			adler = strcmp(version, "jb") >= 0 && strcmp(version, "lb") <= 0;
	const uint8_t *dict = NULL;
	size_t		dict_len = 0,
				out_len;
	bc_compression_info info;
	bc_status	st;
	uint8_t    *d = NULL,
			   *out;
	int			k;

	if (c == C_LZ4_DICT || c == C_ZSTD_DICT)
	{
		/* a dictionary of the data's own bytes, in several parts */
		dict = data;
		dict_len = n < 2500 ? n : 2500;
	}
	write_sstable(c, data, n, chunk_len, with_max, max_len, adler, dict, dict_len, &db, &ci);
	st = bc_compression_parse(version, 2, ci.d, ci.n, db.n, &info);
	CHECK(st == BC_OK, "%s %d/%d: parse: %s", version, c, chunk_len, bc_status_message(st));
	if (st != BC_OK)
		goto done;
	CHECK(info.dictionary_len == dict_len, "%s %d: dictionary of %zu bytes", version, c,
		  info.dictionary_len);
	if (info.dictionary_len > 0)
	{
		d = malloc(info.dictionary_len);
		bc_compression_dictionary(&info, d);
		CHECK(memcmp(d, dict, dict_len) == 0, "%s %d: dictionary differs", version, c);
	}
	out = read_all(&info, db.d, db.n, d, &st, &out_len);
	CHECK(st == BC_OK && out_len == n && memcmp(out, data, n) == 0,
		  "%s %s/%d max %d: %s, %zu of %zu bytes", version, cnames[c], chunk_len, max_len,
		  bc_status_message(st), out_len, n);
	free(out);

	/* random ranges, through one reader (its cached chunk) */
	{
		mem_file	m;
		bc_reader	r = mem_open(&m, db.d, db.n);
		bc_data_reader dr;
		size_t		bsize = bc_compression_buffer_size(&info),
					got;
		uint8_t    *chunk = malloc((size_t) chunk_len),
				   *comp = malloc(bsize),
				   *piece = malloc(3 * (size_t) chunk_len);

		st = bc_data_reader_init(&dr, &r, &info, d, info.dictionary_len,
								 chunk, (size_t) chunk_len, comp, bsize);
		CHECK(st == BC_OK && bc_data_length(&dr) == n, "init: %s", bc_status_message(st));
		for (k = 0; k < 40 && st == BC_OK; k++)
		{
			uint64_t	off = next_rand() % (n + 10);
			size_t		len = next_rand() % (3 * (size_t) chunk_len),
						want = off >= n ? 0 : (len < n - off ? len : n - off);

			st = bc_data_read(&dr, off, piece, len, &got);
			CHECK(st == BC_OK && got == want && memcmp(piece, data + (off < n ? off : n), got) == 0,
				  "%s %s/%d: [%llu, +%zu): %s, %zu bytes", version, cnames[c], chunk_len,
				  (unsigned long long) off, len, bc_status_message(st), got);
		}
		free(chunk);
		free(comp);
		free(piece);
	}
done:
	free(d);
	free(db.d);
	free(ci.d);
}

static void
check_round_trips(void)
{
	static const int32_t lens[] = {4096, 16384};
	int			s,
				c,
				l;

	for (s = 0; s < KEEP; s++)
	{
		if (kept[s] == NULL)
			continue;
		for (c = 0; c < C_COUNT; c++)
			for (l = 0; l < 2; l++)
			{
				round_trip(kept[s], kept_len[s], c, lens[l], "oa", INT32_MAX);
				round_trip(kept[s], kept_len[s], c, lens[l], "me", INT32_MAX);
			}
		/* Adler32 (2.x), and raw chunks at a max compressed length */
		round_trip(kept[s], kept_len[s], C_LZ4, 4096, "ka", INT32_MAX);
		round_trip(kept[s], kept_len[s], C_DEFLATE, 16384, "jb", INT32_MAX);
		round_trip(kept[s], kept_len[s], C_LZ4, 4096, "nb", 4096);
		round_trip(kept[s], kept_len[s], C_ZSTD, 4096, "da", 1000);
		round_trip(kept[s], kept_len[s], C_SNAPPY, 16384, "bb", 4096);
	}

	/*
	 * Bytes that do not compress: every chunk stored raw at a max
	 * compressed length, the last one (100 bytes) padded up to 101.
	 */
	{
		size_t		n = 3 * 4096 + 100,
					i;
		uint8_t    *noise = malloc(n);

		for (i = 0; i < n; i++)
			noise[i] = (uint8_t) next_rand();
		for (c = 0; c < C_COUNT; c++)
		{
			round_trip(noise, n, c, 4096, "oa", INT32_MAX);
			round_trip(noise, n, c, 4096, "mc", INT32_MAX);
			round_trip(noise, n, c, 4096, "nc", 4096);
			round_trip(noise, n, c, 4096, "da", 101);
		}
		free(noise);
	}
	CHECK(raw_chunks > 0 && padded_chunks > 0, "%ld raw chunks, %ld padded", raw_chunks, padded_chunks);
}

void
suite_compression(void)
{
	check_manifest();
	check_round_trips();
}
