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
 * bytes that do not compress (raw chunks, the last one padded).  Then damaged
 * inputs: a flipped byte, truncations, offsets out of order or past the
 * file, an unknown compressor, a chunk of the wrong length; a negative max
 * compressed length; ScyllaDB's dictionary parts in and out of order.
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

/* MANIFEST rows with a CompressionInfo.db */
#define EXPECT_COMPRESSED_ROWS 140

typedef unit_mem mem_file;

/* a reader over data, in pieces of at most 1000 bytes, as a short read may come */
static bc_reader
mem_open(mem_file *m, const uint8_t *data, size_t len)
{
	bc_reader	r;

	unit_mem_open(m, &r, data, len);
	m->piece = 1000;
	return r;
}

/* chunks write_sstable stored raw, and padded */
static long raw_chunks,
			padded_chunks;

/* ---------------------------------------------------------------------
 * Writing: a growable buffer and CompressionInfo.db as Cassandra writes it
 * --------------------------------------------------------------------- */
typedef bytebuf buf;

static void
put_utf(buf *b, const void *s, size_t n)
{
	bytebuf_put_be(b, n, 2);
	bytebuf_put(b, s, n);
}

enum
{
	C_NOOP, C_LZ4, C_SNAPPY, C_DEFLATE, C_ZSTD, C_LZ4_DICT, C_ZSTD_DICT, C_COUNT
};
static const char *const cnames[C_COUNT] = {
	"NoopCompressor", "LZ4Compressor", "org.apache.cassandra.io.compress.SnappyCompressor",
	"DeflateCompressor", "ZstdCompressor", "LZ4WithDictsCompressor", "ZstdWithDictsCompressor"
};

/* Compress n bytes of src with codec c into out (room enough); its length. */
static size_t
compress_chunk(int c, const uint8_t *src, size_t n, uint8_t *out, size_t cap,
			   const uint8_t *dict, size_t dict_len)
{
	switch (c)
	{
		case C_NOOP:
			memcpy(out, src, n);
			return n;
		case C_LZ4:
		case C_LZ4_DICT:
			{
				int			r;

				out[0] = (uint8_t) n;
				out[1] = (uint8_t) (n >> 8);
				out[2] = (uint8_t) (n >> 16);
				out[3] = (uint8_t) (n >> 24);
				if (c == C_LZ4_DICT)
				{
					LZ4_stream_t *s = LZ4_createStream();

					LZ4_loadDict(s, (const char *) dict, (int) dict_len);
					r = LZ4_compress_fast_continue(s, (const char *) src, (char *) out + 4,
												   (int) n, (int) cap - 4, 1);
					LZ4_freeStream(s);
				}
				else
					r = LZ4_compress_default((const char *) src, (char *) out + 4, (int) n, (int) cap - 4);
				return r > 0 ? (size_t) r + 4 : 0;
			}
		case C_SNAPPY:
			{
				size_t		r = cap;

				return snappy_compress((const char *) src, n, (char *) out, &r) == SNAPPY_OK ? r : 0;
			}
		case C_DEFLATE:
			{
				uLongf		r = (uLongf) cap;

				return compress(out, &r, src, (uLong) n) == Z_OK ? (size_t) r : 0;
			}
		case C_ZSTD:
			{
				size_t		r = ZSTD_compress(out, cap, src, n, 3);

				return ZSTD_isError(r) ? 0 : r;
			}
		case C_ZSTD_DICT:
			{
				ZSTD_CCtx  *cc = ZSTD_createCCtx();
				size_t		r = ZSTD_compress_usingDict(cc, out, cap, src, n, dict, dict_len, 3);

				ZSTD_freeCCtx(cc);
				return ZSTD_isError(r) ? 0 : r;
			}
	}
	return 0;
}

/*
 * data (n bytes) as a compressed Data.db and its CompressionInfo.db, by
 * CompressedSequentialWriter's rules: with_max writes the max compressed
 * length (max_len), and a chunk that does not get below it is stored raw,
 * the last one padded up to it.
 */
static void
write_sstable(int c, const uint8_t *data, size_t n, int32_t chunk_len, int with_max,
			  int32_t max_len, int adler, const uint8_t *dict, size_t dict_len,
			  buf *db, buf *ci)
{
	size_t		cap = (size_t) chunk_len * 2 + 1024,
				off,
				nchunks = n == 0 ? 1 : (n + (size_t) chunk_len - 1) / (size_t) chunk_len,
				i;
	uint8_t    *tmp = malloc(cap);
	uint64_t   *offsets = malloc(nchunks * sizeof(uint64_t));

	db->n = ci->n = 0;
	for (i = 0, off = 0; i < nchunks; i++, off += (size_t) chunk_len)
	{
		size_t		len = n - off < (size_t) chunk_len ? n - off : (size_t) chunk_len,
					clen = compress_chunk(c, data + off, len, tmp, cap, dict, dict_len);
		uint32_t	sum;

		CHECK(clen > 0, "compressor %d failed", c);
		if (with_max && clen >= (size_t) max_len)
		{
			/* stored raw, padded with zeros up to max_len when shorter */
			memset(tmp, 0, cap);
			memcpy(tmp, data + off, len);
			clen = len < (size_t) max_len ? (size_t) max_len : len;
			raw_chunks++;
			padded_chunks += len < (size_t) max_len;
		}
		offsets[i] = db->n;
		sum = adler ? (uint32_t) adler32(adler32(0L, Z_NULL, 0), tmp, (uInt) clen)
			: (uint32_t) crc32(crc32(0L, Z_NULL, 0), tmp, (uInt) clen);
		bytebuf_put(db, tmp, clen);
		bytebuf_put_be(db, sum, 4);
	}

	put_utf(ci, cnames[c], strlen(cnames[c]));
	if (dict_len > 0)
	{
		/* ScyllaDB's dict_as_options, in parts of 1000 bytes here */
		size_t		nparts = (dict_len + 999) / 1000,
					p;

		bytebuf_put_be(ci, nparts + 1, 4);
		put_utf(ci, "crc_check_chance", 16);
		put_utf(ci, "1.0", 3);
		for (p = 0; p < nparts; p++)
		{
			char		key[32];
			size_t		pl = dict_len - p * 1000 < 1000 ? dict_len - p * 1000 : 1000;

			snprintf(key, sizeof(key), ".dictionary.%08u", (unsigned) p);
			put_utf(ci, key, strlen(key));
			put_utf(ci, dict + p * 1000, pl);
		}
	}
	else
		bytebuf_put_be(ci, 0, 4);
	bytebuf_put_be(ci, (uint64_t) chunk_len, 4);
	if (with_max)
		bytebuf_put_be(ci, (uint64_t) max_len, 4);
	bytebuf_put_be(ci, n, 8);
	bytebuf_put_be(ci, nchunks, 4);
	for (i = 0; i < nchunks; i++)
		bytebuf_put_be(ci, offsets[i], 8);
	free(tmp);
	free(offsets);
}

/* ---------------------------------------------------------------------
 * Reading the whole uncompressed Data.db
 * --------------------------------------------------------------------- */

/* The uncompressed Data.db (malloc'd) through bc_data_read, or NULL. */
static uint8_t *
read_all(const bc_compression_info *ci, const uint8_t *db, size_t db_len,
		 const uint8_t *dict, bc_status *st, size_t *out_len)
{
	mem_file	m;
	bc_reader	r = mem_open(&m, db, db_len);
	bc_data_reader dr;
	size_t		bsize = bc_compression_buffer_size(ci),
				got;
	uint8_t    *chunk = malloc((size_t) ci->chunk_length),
			   *comp = malloc(bsize),
			   *out = malloc((size_t) ci->data_length + 1);

	*out_len = 0;
	*st = bc_data_reader_init(&dr, &r, ci, dict, ci->dictionary_len,
							  chunk, (size_t) ci->chunk_length, comp, bsize);
	if (*st == BC_OK)
		*st = bc_data_read(&dr, 0, out, (size_t) ci->data_length + 1, &got);
	if (*st == BC_OK)
		*out_len = got;
	free(chunk);
	free(comp);
	if (*st != BC_OK)
	{
		free(out);
		return NULL;
	}
	return out;
}

/* ---------------------------------------------------------------------
 * The real SSTables
 * --------------------------------------------------------------------- */

/* a few Data.db decompressed, kept for the round trips */
#define KEEP 3
static uint8_t *kept[KEEP];
static size_t kept_len[KEEP];

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
suite_compression(void)
{
	int			i;

	check_manifest();
	check_round_trips();
	check_damaged();
	check_negative_max();
	check_dictionary_parts();
	for (i = 0; i < KEEP; i++)
	{
		free(kept[i]);
		kept[i] = NULL;
	}
}
