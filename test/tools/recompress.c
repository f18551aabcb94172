/*
 * recompress - a copy of a real SSTable whose Data.db is compressed with
 * another compressor and chunk length (test data for 17_codecs and
 * test/client.sh; test/make-codecs.sh runs it).
 *
 *   recompress [-c CHUNK] [-r MIN_COMPRESS_RATIO] [-n CLASS] [-x CHUNK_NO]
 *              SRC CODEC DEST
 *
 * SRC and DEST are SSTable prefixes (".../da-1-bti"; DEST's folder must
 * exist).  CODEC: lz4, snappy, deflate, zstd, noop (Cassandra's
 * LZ4Compressor, SnappyCompressor, DeflateCompressor, ZstdCompressor,
 * NoopCompressor), lz4-dicts, zstd-dicts (ScyllaDB's LZ4WithDictsCompressor
 * and ZstdWithDictsCompressor) or none (an uncompressed Data.db with a
 * CRC.db).  CHUNK: the chunk length in bytes, a power of two (default
 * 65536).  MIN_COMPRESS_RATIO: Cassandra's min_compress_ratio, which sets
 * the max compressed length (only versions that store it, na and later,
 * da, bb).  CLASS: another compressor class name to store (the chunks stay
 * CODEC's), for a copy no reader knows.  CHUNK_NO: a damaged copy, one byte
 * of that chunk's stored bytes flipped after its checksum was computed.
 * With -n or -x the copy is not read back.
 *
 * Data.db is read whole through the core's reader (bc_data_reader_open:
 * CompressionInfo.db parsed, every chunk's checksum checked), then written
 * as Cassandra's CompressedSequentialWriter writes it (4.0 and later):
 * each chunk compressed on its own, stored raw when the compressed bytes
 * reach the max compressed length (the last chunk zero-padded up to it
 * when shorter), then the big-endian CRC32 (Adler32 for jb .. lb) of the
 * stored bytes.  CompressionInfo.db as CompressionMetadata.Writer writes
 * it: the class's simple name, the options, chunk length, max compressed
 * length (na and later, da, bb; ScyllaDB never writes it), data length,
 * chunk count and offsets.  The chunks are compressed by chunk_codec.c
 * with the compressors' libraries; ZstdCompressor's level 3 (its default)
 * is stored as the option compression_level, as a table giving it would;
 * ScyllaDB's dictionary compressors (sstables/compressor.cc) keep the
 * dictionary in options ".dictionary.00000000", ".dictionary.00000001",
 * ... of at most 65534 bytes each, written before compression_level (its
 * options are a sorted map).  The dictionary is the
 * uncompressed Data.db repeated to 100,000 bytes (two parts), used as raw
 * content, as zstd's ZSTD_dct_auto and LZ4 take any bytes.
 *
 * The other components are copied byte for byte, except: Digest.crc32
 * (Digest.adler32) is the CRC32 (Adler32) of the new Data.db in decimal,
 * as Cassandra and ScyllaDB write it (of the whole file, chunk checksums
 * included); TOC.txt names CRC.db instead of CompressionInfo.db (or the
 * reverse) when the copy is compressed and the source was not (or the
 * reverse); CRC.db (none) is a big-endian chunk length then the CRC32 of
 * each chunk of Data.db (Cassandra's ChecksumWriter).  Statistics.db is
 * copied: its compression ratio stays the source's (no reader of
 * bloomcass's looks at it).  The copy is then read back through the core's
 * reader and compared with the source's uncompressed bytes.
 *
 * CODEC zstd-dict is Cassandra 6.0's ZstdDictionaryCompressor (apache/
 * cassandra trunk): DEST's version must be pa, pb, ea or eb (then SRC may
 * be an oa or da one, whose other components pa and ea keep byte for byte:
 * BigVersion and BtiVersion change nothing else before pb and eb).  A zstd
 * dictionary is trained by libzstd's ZDICT_trainFromBuffer over SRC's
 * uncompressed Data.db (or, with -D TRAIN, over that SSTable's) cut into
 * samples of 1 KiB, of at most 16 KiB; every chunk is ZSTD_compress_usingDict
 * at level 3 (Zstd.compressDirectByteBufferFastDict with a
 * ZstdDictCompress), and CompressionInfo.db gets the options
 * compression_level 3 and, after the offsets, the dictionary as
 * CompressionDictionary.serialize writes it: kind 0 (ZSTD), the id (the
 * dictionary's own, ZDICT_getDictID), the length, the bytes, and the
 * CRC32C of the kind byte, the id's 8 bytes little-endian (Guava's
 * Hasher.putLong) and the bytes (dict_trailer.c).  -d DAMAGE: kind,
 * checksum, id, dict-id or other-dict, a copy damaged as dict_trailer.h
 * says (read back only with id, which readers see through).
 *
 * Prints one line: DEST, codec, class, chunk length, chunks, of them
 * stored raw and padded, uncompressed and Data.db bytes.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "bc_compression.h"
#include "bc_compression_dict.h"
#include "bc_data.h"
#include "bc_endian.h"
#include "bc_status.h"
#include "chunk_codec.h"
#include "dict_trailer.h"
#include "tool_io.h"

#define DICT_SIZE 100000
#define DICT_PART 65534			/* ScyllaDB's dict_as_options */

static const struct
{
	const char *codec;
	const char *class;
	bc_compressor compressor;
}			codecs[] = {
	{"lz4", "LZ4Compressor", BC_COMPRESSOR_LZ4},
	{"snappy", "SnappyCompressor", BC_COMPRESSOR_SNAPPY},
	{"deflate", "DeflateCompressor", BC_COMPRESSOR_DEFLATE},
	{"zstd", "ZstdCompressor", BC_COMPRESSOR_ZSTD},
	{"noop", "NoopCompressor", BC_COMPRESSOR_NOOP},
	{"lz4-dicts", "LZ4WithDictsCompressor", BC_COMPRESSOR_LZ4_DICTS},
	{"zstd-dicts", "ZstdWithDictsCompressor", BC_COMPRESSOR_ZSTD_DICTS},
	{"zstd-dict", "ZstdDictionaryCompressor", BC_COMPRESSOR_ZSTD_DICTS},
};

typedef struct params
{
	chunk_codec codec;
	const char *class;
	int			compressed;		/* 0 for none */
	uint32_t	chunk;
	int			has_max;		/* the version stores the max compressed length */
	int32_t		max_compressed;
	int			adler;			/* chunk checksums are Adler32 (jb .. lb) */
	int			cassandra_dict; /* zstd-dict: Cassandra 6.0's dictionary */
	dict_damage damage;		/* zstd-dict: DICT_WHOLE, or a damage */
	chunk_codec other;			/* -d other-dict: chunk 0's codec */
} params;

static void *
alloc_fn(void *arg, size_t size)
{
	(void) arg;
	return tool_alloc(size);
}

/*
 * The uncompressed Data.db of the SSTable at prefix, read through the
 * core's reader (compressed or not): *len bytes, malloc'd.
 */
static uint8_t *
read_data(const char *prefix, const char *version, size_t *len)
{
	char	   *dpath = tool_component_path(prefix, "Data.db"),
			   *ipath = tool_component_path(prefix, "CompressionInfo.db");
	size_t		dlen,
				ilen,
				got;
	uint8_t    *data = tool_read(dpath, &dlen, 0),
			   *info = tool_read(ipath, &ilen, 1),
			   *out;
	tool_mem	m;
	bc_reader	r = tool_mem_reader(&m, data, dlen);
	bc_compression_info ci;
	bc_data_reader dr;
	void	   *block;
	int			in_info;
	bc_status	st;
	uint64_t	total;

	st = bc_data_reader_open(&dr, &ci, &r, version, strlen(version), info, ilen,
							 alloc_fn, NULL, &block, &in_info);
	if (st != BC_OK)
		tool_die("%s: %s", in_info ? ipath : dpath, bc_status_message(st));
	total = bc_data_length(&dr);
	if (total > (uint64_t) INT32_MAX)
		tool_die("%s: %llu bytes uncompressed: too large for this tool", dpath,
				 (unsigned long long) total);
	out = tool_alloc((size_t) total);
	st = bc_data_read(&dr, 0, out, (size_t) total, &got);
	if (st != BC_OK || got != total)
		tool_die("%s: %s", dpath, st != BC_OK ? bc_status_message(st) : "short");
	free(block);
	free(info);
	free(data);
	free(dpath);
	free(ipath);
	*len = (size_t) total;
	return out;
}

static uint32_t
checksum(const params *p, const uint8_t *d, size_t n)
{
	if (p->adler)
		return (uint32_t) adler32(adler32(0L, Z_NULL, 0), d, (uInt) n);
	return (uint32_t) crc32(crc32(0L, Z_NULL, 0), d, (uInt) n);
}

/*
 * Data.db (into data) and CompressionInfo.db (into info) of the
 * uncompressed bytes src, as CompressedSequentialWriter and
 * CompressionMetadata.Writer write them; *raw and *padded count the chunks
 * stored uncompressed.
 */
static void
write_compressed(const params *p, const uint8_t *src, size_t len,
				 bytebuf *data, bytebuf *info, long *raw, long *padded)
{
	size_t		cap = chunk_compress_bound(&p->codec, p->chunk),
				pos,
				nchunks = len == 0 ? 0 : (len - 1) / p->chunk + 1;
	uint8_t    *out = tool_alloc(cap),
			   *pad = tool_alloc(p->chunk);
	bytebuf	offsets = {0};

	*raw = *padded = 0;
	for (pos = 0; pos < len; pos += p->chunk)
	{
		size_t		n = len - pos < p->chunk ? len - pos : p->chunk,
					clen = chunk_compress(pos == 0 && p->damage == DICT_DAMAGE_OTHER_DICT
										  ? &p->other : &p->codec, src + pos, n, out, cap);
		const uint8_t *stored = out;

		bytebuf_put_be(&offsets, data->n, 8);
		if (clen >= (size_t) p->max_compressed)
		{
			/* CompressedSequentialWriter.flushData: the chunk as it is */
			(*raw)++;
			stored = src + pos;
			clen = n;
			if (n < (size_t) p->max_compressed)
			{
				memset(pad, 0, p->chunk);
				memcpy(pad, src + pos, n);
				stored = pad;
				clen = (size_t) p->max_compressed;
				(*padded)++;
			}
		}
		bytebuf_put(data, stored, clen);
		bytebuf_put_be(data, checksum(p, stored, clen), 4);
	}

	tool_put_utf(info, p->class, strlen(p->class));
	if (p->cassandra_dict)
	{
		bytebuf_put_be(info, 1, 4);
		tool_put_utf(info, "compression_level", 17);
		tool_put_utf(info, "3", 1);
	}
	else if (p->codec.compressor == BC_COMPRESSOR_LZ4_DICTS || p->codec.compressor == BC_COMPRESSOR_ZSTD_DICTS)
	{
		size_t		parts = (p->codec.dict_len + DICT_PART - 1) / DICT_PART,
					i;
		int			level = p->codec.compressor == BC_COMPRESSOR_ZSTD_DICTS;

		bytebuf_put_be(info, parts + (size_t) level, 4);
		for (i = 0; i < parts; i++)
		{
			char		key[32];
			size_t		off = i * DICT_PART,
						n = p->codec.dict_len - off < DICT_PART ? p->codec.dict_len - off : DICT_PART;

			snprintf(key, sizeof(key), ".dictionary.%08zu", i);
			tool_put_utf(info, key, strlen(key));
			tool_put_utf(info, (const char *) p->codec.dict + off, n);
		}
		if (level)
		{
			tool_put_utf(info, "compression_level", 17);
			tool_put_utf(info, "3", 1);
		}
	}
	else if (p->codec.compressor == BC_COMPRESSOR_ZSTD)
	{
		bytebuf_put_be(info, 1, 4);
		tool_put_utf(info, "compression_level", 17);
		tool_put_utf(info, "3", 1);
	}
	else
		bytebuf_put_be(info, 0, 4);
	bytebuf_put_be(info, p->chunk, 4);
	if (p->has_max)
		bytebuf_put_be(info, (uint32_t) p->max_compressed, 4);
	bytebuf_put_be(info, len, 8);
	bytebuf_put_be(info, nchunks, 4);
	bytebuf_put(info, offsets.d, offsets.n);
	if (p->cassandra_dict)
		dict_trailer_write(info, p->codec.dict, p->codec.dict_len, p->damage);
	free(offsets.d);
	free(out);
	free(pad);
}

/* CRC.db of an uncompressed Data.db: the chunk length, each chunk's CRC32 */
static void
write_crc(const params *p, const uint8_t *src, size_t len, bytebuf *crc)
{
	size_t		pos;

	bytebuf_put_be(crc, p->chunk, 4);
	for (pos = 0; pos < len; pos += p->chunk)
		bytebuf_put_be(crc, crc32(crc32(0L, Z_NULL, 0), src + pos,
							   (uInt) (len - pos < p->chunk ? len - pos : p->chunk)), 4);
}

/* TOC.txt with the line from replaced by to */
static void
write_toc(const uint8_t *toc, size_t len, const char *from, const char *to, bytebuf *out)
{
	size_t		pos = 0;

	while (pos < len)
	{
		const uint8_t *nl = memchr(toc + pos, '\n', len - pos);
		size_t		end = nl ? (size_t) (nl - toc) : len;

		if (end - pos == strlen(from) && memcmp(toc + pos, from, end - pos) == 0)
			bytebuf_put(out, to, strlen(to));
		else
			bytebuf_put(out, toc + pos, end - pos);
		if (nl)
			bytebuf_put(out, "\n", 1);
		pos = end + 1;
	}
}

static void
write_digest(const char *dest, const char *component, const bytebuf *data)
{
	char		text[16];
	char	   *path = tool_component_path(dest, component);
	uLong		sum = strcmp(component, "Digest.adler32") == 0
		? adler32(adler32(0L, Z_NULL, 0), data->d, (uInt) data->n)
		: crc32(crc32(0L, Z_NULL, 0), data->d, (uInt) data->n);

	snprintf(text, sizeof(text), "%lu", (unsigned long) sum);
	tool_write(path, (const uint8_t *) text, strlen(text));
	free(path);
}

static int
version_between(const char *v, const char *lo, const char *hi)
{
	return strcmp(v, lo) >= 0 && strcmp(v, hi) <= 0;
}

static void
usage(void)
{
	tool_die("usage: recompress [-c CHUNK] [-r MIN_COMPRESS_RATIO] [-n CLASS] [-x CHUNK_NO]\n"
			 "                  [-D TRAIN] [-d kind|checksum|id|dict-id|other-dict] SRC CODEC DEST\n"
			 "  CODEC: lz4 snappy deflate zstd noop lz4-dicts zstd-dicts zstd-dict none");
}

int
main(int argc, char **argv)
{
	params		p;
	double		ratio = 0;
	const char *class = NULL,
			   *train = NULL,
			   *src,
			   *codec,
			   *dest;
	char		version[3],
				vdest[3];
	char	  **comps;
	size_t		ncomps,
				len,
				i,
				got;
	uint8_t    *plain,
			   *check;
	bytebuf	data = {0},
				info = {0},
				crc = {0};
	long		raw = 0,
				padded = 0,
				flip = -1;
	int			argi = 1;

	tool_name = "recompress";
	memset(&p, 0, sizeof(p));
	p.chunk = 65536;
	for (; argi + 1 < argc && argv[argi][0] == '-' && argv[argi][1] != '\0' &&
		 argv[argi][2] == '\0'; argi += 2)
	{
		char	   *end;

		switch (argv[argi][1])
		{
			case 'c':
				{
					unsigned long c = strtoul(argv[argi + 1], &end, 10);

					if (*end != '\0' || c == 0 || c > (1UL << 30) || (c & (c - 1)) != 0)
						tool_die("-c %s: a power of two up to 2^30", argv[argi + 1]);
					p.chunk = (uint32_t) c;
					break;
				}
			case 'r':
				ratio = strtod(argv[argi + 1], &end);
				/* CompressionParams.validateMinCompressRatio: 0, or at least 1 */
				if (*end != '\0' || !(ratio == 0 || ratio >= 1))
					tool_die("-r %s: 0 or at least 1", argv[argi + 1]);
				break;
			case 'n':
				class = argv[argi + 1];
				break;
			case 'D':
				train = argv[argi + 1];
				break;
			case 'd':
				p.damage = dict_damage_of(argv[argi + 1]);
				break;
			case 'x':
				flip = strtol(argv[argi + 1], &end, 10);
				if (*end != '\0' || flip < 0)
					tool_die("-x %s: a chunk number", argv[argi + 1]);
				break;
			default:
				usage();
		}
	}
	if (argc - argi != 3)
		usage();
	src = argv[argi];
	codec = argv[argi + 1];
	dest = argv[argi + 2];

	tool_version(src, version);
	tool_version(dest, vdest);
	/* Cassandra 6.0's pa and ea are oa and da but for the dictionary */
	if (strcmp(version, vdest) != 0 &&
		!(strcmp(version, "oa") == 0 && strcmp(vdest, "pa") == 0) &&
		!(strcmp(version, "da") == 0 && strcmp(vdest, "ea") == 0))
		tool_die("%s and %s: not the same SSTable version", src, dest);
	p.cassandra_dict = strcmp(codec, "zstd-dict") == 0;
	if (p.cassandra_dict != (vdest[0] == 'p' || vdest[0] == 'e'))
		tool_die("%s: zstd-dict is for Cassandra 6.0's versions only, and they need it here", dest);
	if ((train != NULL || p.damage != DICT_WHOLE) && !p.cassandra_dict)
		tool_die("-D and -d: zstd-dict only");

	/*
	 * BigFormat.BigVersion: the max compressed length from na on (and in
	 * BtiFormat's da, DataStax's bb; never in ScyllaDB's), chunk checksums
	 * Adler32 from jb to lb (compressedChecksumType)
	 */
	p.has_max = !(version[0] >= 'i' && version[0] <= 'm');
	p.adler = version_between(version, "jb", "lb");
	p.compressed = strcmp(codec, "none") != 0;
	if (p.compressed)
	{
		for (i = 0; i < sizeof(codecs) / sizeof(codecs[0]); i++)
			if (strcmp(codec, codecs[i].codec) == 0)
				break;
		if (i == sizeof(codecs) / sizeof(codecs[0]))
			usage();
		p.codec.compressor = codecs[i].compressor;
		p.class = class ? class : codecs[i].class;
	}
	else if (class != NULL || ratio != 0 || flip >= 0)
		tool_die("none: no -n, -r or -x");
	if (ratio != 0 && !p.has_max)
		tool_die("-r: version %s stores no max compressed length", version);
	/* CompressionParams.calcMaxCompressedLength */
	p.max_compressed = ratio == 0 ? INT32_MAX
		: (int32_t) ceil(fmin((double) p.chunk / ratio, (double) INT32_MAX));

	plain = read_data(src, version, &len);

	if (p.cassandra_dict)
	{
		size_t		tlen;
		char		tv[3];
		uint8_t    *t;

		if (train != NULL)
			tool_version(train, tv);
		t = train != NULL ? read_data(train, tv, &tlen) : plain;
		p.codec.dict = dict_train(t, train != NULL ? tlen : len, DICT_TRAILER_MAX, &p.codec.dict_len);
		if (p.damage == DICT_DAMAGE_OTHER_DICT)
		{
			p.other.compressor = p.codec.compressor;
			p.other.dict = dict_train(t, train != NULL ? tlen : len, DICT_TRAILER_MAX / 2,
									  &p.other.dict_len);
		}
		if (t != plain)
			free(t);
	}
	else if (p.codec.compressor == BC_COMPRESSOR_LZ4_DICTS || p.codec.compressor == BC_COMPRESSOR_ZSTD_DICTS)
	{
		uint8_t    *d = tool_alloc(DICT_SIZE);

		for (i = 0; i < DICT_SIZE; i++)
			d[i] = len > 0 ? plain[i % len] : 0;
		p.codec.dict = d;
		p.codec.dict_len = DICT_SIZE;
	}

	if (p.compressed)
	{
		write_compressed(&p, plain, len, &data, &info, &raw, &padded);
		if (flip >= 0)
		{
			/* the middle byte of the chunk's stored bytes (chunk i spans
			 * offset[i] .. offset[i + 1] - 4 of Data.db) */
			size_t		nchunks = len == 0 ? 0 : (len - 1) / p.chunk + 1,
						at = info.n - 8 * nchunks + 8 * (size_t) flip,
						start,
						stop;

			if ((size_t) flip >= nchunks)
				tool_die("-x %ld: the copy has %zu chunks", flip, nchunks);
			start = (size_t) bc_get_be64(info.d + at);
			stop = (size_t) flip + 1 < nchunks ? (size_t) bc_get_be64(info.d + at + 8) : data.n;
			data.d[start + (stop - 4 - start) / 2] ^= 0x5a;
		}
	}
	else
	{
		bytebuf_put(&data, plain, len);
		write_crc(&p, plain, len, &crc);
	}

	/* every component: copied, or written anew */
	comps = tool_components(src, &ncomps);
	for (i = 0; i < ncomps; i++)
	{
		const char *c = comps[i];
		char	   *from = tool_component_path(src, c),
				   *to = tool_component_path(dest, c);

		if (strcmp(c, "Data.db") == 0 || strcmp(c, "CompressionInfo.db") == 0 ||
			strcmp(c, "CRC.db") == 0)
			;					/* written below */
		else if (strcmp(c, "Digest.crc32") == 0 || strcmp(c, "Digest.adler32") == 0)
			write_digest(dest, c, &data);
		else if (strncmp(c, "Digest.", 7) == 0)
			tool_die("%s: a digest this tool cannot write", from);
		else
		{
			uint8_t    *bytes = tool_read(from, &got, 0);

			if (strcmp(c, "TOC.txt") == 0)
			{
				bytebuf	toc = {0};

				if (p.compressed)
					write_toc(bytes, got, "CRC.db", "CompressionInfo.db", &toc);
				else
					write_toc(bytes, got, "CompressionInfo.db", "CRC.db", &toc);
				tool_write(to, toc.d, toc.n);
				free(toc.d);
			}
			else
				tool_write(to, bytes, got);
			free(bytes);
		}
		free(from);
		free(to);
		free(comps[i]);
	}
	free(comps);
	{
		char	   *dpath = tool_component_path(dest, "Data.db"),
				   *ipath = tool_component_path(dest, p.compressed ? "CompressionInfo.db" : "CRC.db");

		tool_write(dpath, data.d, data.n);
		if (p.compressed)
			tool_write(ipath, info.d, info.n);
		else
			tool_write(ipath, crc.d, crc.n);
		free(dpath);
		free(ipath);
	}

	/* the copy read back through the core's reader gives the same bytes */
	check = flip >= 0 || class != NULL || (p.damage != DICT_WHOLE && p.damage != DICT_DAMAGE_ID)
		? NULL : read_data(dest, vdest, &got);
	if (check != NULL && (got != len || (len > 0 && memcmp(check, plain, len) != 0)))
		tool_die("%s: the copy does not read back as %s's data", dest, src);

	printf("%s\t%s\t%s\t%u\t%zu\t%ld\t%ld\t%zu\t%zu\n", dest, codec,
		   p.compressed ? p.class : "-", p.chunk,
		   p.compressed ? (len == 0 ? 0 : (len - 1) / p.chunk + 1) : 0, raw, padded, len, data.n);
	free(check);
	free(plain);
	free(data.d);
	free(info.d);
	free(crc.d);
	free((void *) p.codec.dict);
	free((void *) p.other.dict);
	return 0;
}
