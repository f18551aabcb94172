/*
 * bc_compression.c - CompressionInfo.db: its header, options (ScyllaDB's
 * dictionary among them), chunk offsets and, from Cassandra 6.0, the
 * dictionary after them (the layouts and their sources are in
 * bc_compression.h).  The chunks those describe are found and decompressed
 * by bc_compression_chunk.c; the reader of the uncompressed Data.db that
 * uses both is bc_data.c.
 *
 * Only what the readers check is checked (Cassandra's; for the versions
 * ScyllaDB reads, what one of the two accepts is accepted), plus what
 * memory safety needs; each check names the reader's check it mirrors.
 */
#include <limits.h>
#include <string.h>

#include "bc_codec.h"
#include "bc_endian.h"
#include "bc_compression.h"
#include "bc_compression_dict.h"

/* the package of Cassandra's compressors, which a stored name may carry */
#define BC_COMPRESS_PACKAGE "org.apache.cassandra.io.compress."
/* ScyllaDB's dictionary options: ".dictionary." then the part's number */
#define BC_DICT_OPTION ".dictionary."

static const struct
{
	const char *name;
	bc_compressor compressor;
}			compressors[] = {
	{"NoopCompressor", BC_COMPRESSOR_NOOP},
	{"LZ4Compressor", BC_COMPRESSOR_LZ4},
	{"SnappyCompressor", BC_COMPRESSOR_SNAPPY},
	{"DeflateCompressor", BC_COMPRESSOR_DEFLATE},
	{"ZstdCompressor", BC_COMPRESSOR_ZSTD},
	{"LZ4WithDictsCompressor", BC_COMPRESSOR_LZ4_DICTS},
	{"ZstdWithDictsCompressor", BC_COMPRESSOR_ZSTD_DICTS},
};

/* A Java writeUTF string at *pos: its bytes and length. */
static bc_status
read_utf(const uint8_t *data, size_t len, size_t *pos,
		 const uint8_t **s, size_t *slen)
{
	size_t		n;

	/* DataInputStream.readUTF: EOFException */
	if (len - *pos < 2)
		return BC_ERR_COMPRESSION_TRUNCATED;
	n = ((size_t) data[*pos] << 8) | data[*pos + 1];
	if (len - *pos - 2 < n)
		return BC_ERR_COMPRESSION_TRUNCATED;
	*s = data + *pos + 2;
	*slen = n;
	*pos += 2 + n;
	return BC_OK;
}

static int
version_is(const char *v, const char *lo, const char *hi)
{
	return strncmp(v, lo, 2) >= 0 && strncmp(v, hi, 2) <= 0;
}

/* the versions ScyllaDB reads (sstables/version.hh) */
static int
scylla_version(const char *v)
{
	return (v[1] == 'a' && (v[0] == 'k' || v[0] == 'l')) ||
		(v[0] == 'm' && (v[1] == 'c' || v[1] == 'd' || v[1] == 'e' ||
						 v[1] == 's' || v[1] == 't'));
}

/*
 * Cassandra 6.0's versions (apache/cassandra trunk: BigFormat's pa, pb,
 * BtiFormat's ea, eb), the only ones whose CompressionInfo.db may end with
 * a compression dictionary.  Trunk's CompressionMetadata.open tries to read
 * one after the offsets of every version, but only trunk writes one, and
 * only in these versions; the readers of 5.0 and before, the writers' own
 * readers of the earlier versions, ignore whatever follows the offsets,
 * and so does bloomcass there.
 */
static int
version_60(const char *v)
{
	return v[0] == 'p' || v[0] == 'e';
}

/* Whether name (not NUL-ended) is that compressor's, bare or qualified. */
static int
name_is(const uint8_t *name, size_t len, const char *simple)
{
	size_t		sl = strlen(simple),
				pl = strlen(BC_COMPRESS_PACKAGE);

	if (len == sl)
		return memcmp(name, simple, sl) == 0;
	return len == pl + sl && memcmp(name, BC_COMPRESS_PACKAGE, pl) == 0 &&
		memcmp(name + pl, simple, sl) == 0;
}

/*
 * Whether an option key is a dictionary part, ".dictionary." then a
 * number: 0 for another key, 1 with the part's number in *part, -1 for a
 * number ScyllaDB's dict_from_options cannot read.  It reads the number
 * with std::stoi: leading white space, an optional sign, at least one
 * digit, the value within an int (std::invalid_argument or
 * std::out_of_range: "Corrupted dictionary option"); whatever follows the
 * digits is ignored.
 */
static int
dict_part(const uint8_t *key, size_t len, long *part)
{
	size_t		pl = strlen(BC_DICT_OPTION),
				i;
	long		n = 0;
	int			neg = 0;

	*part = 0;
	if (len < pl || memcmp(key, BC_DICT_OPTION, pl) != 0)
		return 0;
	for (i = pl; i < len && (key[i] == ' ' || (key[i] >= '\t' && key[i] <= '\r')); i++)
		;
	if (i < len && (key[i] == '+' || key[i] == '-'))
		neg = key[i++] == '-';
	if (i == len || key[i] < '0' || key[i] > '9')
		return -1;
	for (; i < len && key[i] >= '0' && key[i] <= '9'; i++)
	{
		n = n * 10 + (key[i] - '0');
		if (n > (long) INT_MAX + neg)
			return -1;
	}
	*part = neg ? -n : n;
	return 1;
}

/*
 * Part i of the dictionary: its value, or NULL when there is none.  A part
 * given twice keeps its first value (dict_from_options: std::map::emplace
 * does not replace).
 */
static const uint8_t *
dict_find(const bc_compression_info *ci, long part, size_t *vlen)
{
	const uint8_t *k = NULL,
			   *v = NULL;
	size_t		pos = 0,
				kl = 0,
				vl = 0;
	int32_t		i;
	long		p;

	*vlen = 0;
	for (i = 0; i < ci->option_count; i++)
	{
		(void) read_utf(ci->options, ci->options_len, &pos, &k, &kl);
		(void) read_utf(ci->options, ci->options_len, &pos, &v, &vl);
		if (dict_part(k, kl, &p) == 1 && p == part)
		{
			*vlen = vl;
			return v;
		}
	}
	return NULL;
}

bc_status
bc_compression_parse(const char *version, size_t version_len,
					 const uint8_t *data, size_t len, uint64_t data_file_size,
					 bc_compression_info *out)
{
	bc_order	order;
	bc_layout	layout;
	bc_status	rc;
	size_t		pos = 0,
				opt_start,
				i;
	long		parts = 0,
				min_part = 0,
				max_part = -1;
	int			in_order = 1;
	size_t		in_order_len = 0;
	int			has_max;
	int32_t		n;
	uint32_t	chunk;
	int64_t		dlen;
	bc_compression_dict dict;

	memset(out, 0, sizeof(*out));
	memset(&dict, 0, sizeof(dict));
	rc = bc_version_lookup(version, version_len, &order, &layout);
	if (rc != BC_OK)
		return rc;

	/*
	 * BigFormat.BigVersion: hasMaxCompressedLength from na on; always in
	 * the trie-indexed formats (BtiFormat's da, DataStax's bb).  ScyllaDB
	 * never writes it (its ms and mt keep me's layout).  The chunks'
	 * checksum (compressedChecksumType): Adler32 from jb to lb.
	 */
	has_max = !(version[0] >= 'i' && version[0] <= 'm');
	out->checksum = version_is(version, "jb", "lb") ? BC_CHUNK_ADLER32 : BC_CHUNK_CRC32;
	out->max_compressed_length = INT32_MAX;
	out->data_file_size = data_file_size;

	rc = read_utf(data, len, &pos, &out->name, &out->name_len);
	if (rc != BC_OK)
		return rc;

	if (len - pos < 4)
		return BC_ERR_COMPRESSION_TRUNCATED;
	n = (int32_t) bc_get_be32(data + pos);
	pos += 4;
	/* CompressionMetadata.open: new HashMap<>(optionCount) refuses < 0 */
	if (n < 0)
		return BC_ERR_COMPRESSION_FORMAT;
	out->option_count = n;
	opt_start = pos;
	for (i = 0; i < (size_t) n; i++)
	{
		const uint8_t *k,
				   *v;
		size_t		kl,
					vl;
		long		part;

		if ((rc = read_utf(data, len, &pos, &k, &kl)) != BC_OK ||
			(rc = read_utf(data, len, &pos, &v, &vl)) != BC_OK)
			return rc;
		/*
		 * ScyllaDB's make_compressor_for_reading reads the dictionary
		 * options for every compressor (dict_from_options): a part number
		 * it cannot read is "Corrupted dictionary option", whatever the
		 * compressor.
		 */
		switch (dict_part(k, kl, &part))
		{
			case -1:
				return BC_ERR_COMPRESSION_DICTIONARY;
			case 1:
				/* in order (0, 1, ...) as ScyllaDB writes them */
				if (part != parts)
					in_order = 0;
				else
					in_order_len += vl;
				if (parts++ == 0 || part < min_part)
					min_part = part;
				if (part > max_part)
					max_part = part;
				break;
			default:
				break;
		}
	}
	out->options = data + opt_start;
	out->options_len = pos - opt_start;

	/* chunk length, [max compressed length], data length, chunk count:
	 * readInt / readLong, EOFException (ScyllaDB: check_buf_size) */
	if (len - pos < 4 + (has_max ? 4 : 0) + 8 + 4)
		return BC_ERR_COMPRESSION_TRUNCATED;
	chunk = bc_get_be32(data + pos);
	pos += 4;

	/*
	 * ScyllaDB's parse(compression): "zero chunk_len"; Cassandra's
	 * CompressedChunkReader (3.x - 5.0) asserts that the chunk length is a
	 * power of two (Integer.bitCount(chunkLength) == 1; assertions are on
	 * in Cassandra's JVM options), as CompressionParams.validate requires
	 * of a table.  ScyllaDB reads any other length (segmented_offsets
	 * takes any): for the versions it reads (ka, la, mc, md, me, ms, mt)
	 * only zero is refused.  Over 2^31 - 1 (a negative Java int, a chunk
	 * of 2 GiB or more, whose buffers bloomcass does not allocate):
	 * refused, for memory.
	 */
	if (chunk == 0 || chunk > INT32_MAX ||
		((chunk & (chunk - 1)) != 0 && !scylla_version(version)))
		return BC_ERR_COMPRESSION_FORMAT;
	out->chunk_length = (int32_t) chunk;
	if (has_max)
	{
		/* CompressionParams takes any value: a chunk is stored raw when
		 * its stored length reaches it */
		out->max_compressed_length = (int32_t) bc_get_be32(data + pos);
		pos += 4;
	}
	dlen = (int64_t) bc_get_be64(data + pos);
	pos += 8;

	/*
	 * Cassandra does not check the data length; a negative one is refused
	 * here (no position is below it).
	 */
	if (dlen < 0)
		return BC_ERR_COMPRESSION_FORMAT;
	out->data_length = dlen;

	n = (int32_t) bc_get_be32(data + pos);
	pos += 4;
	/* CompressionMetadata.readChunkOffsets: "Compressed file with 0 chunks" */
	if (n <= 0)
		return BC_ERR_COMPRESSION_FORMAT;
	/* readChunkOffsets: EOFException, "read %d but expected %d chunks" */
	if ((len - pos) / 8 < (size_t) n)
		return BC_ERR_COMPRESSION_TRUNCATED;
	out->chunk_count = n;

	/*
	 * The data length against what the chunks can hold: Cassandra's
	 * CompressionMetadata.chunkFor throws CorruptSSTableException (an
	 * EOFException) for a position whose chunk is past the last offset, and
	 * ScyllaDB's compression::locate (offsets.at) throws out_of_range, so
	 * no reader reaches data past chunk count * chunk length.  Neither
	 * checks it when the file is opened, but a size computed from it (the
	 * last partition's, the data's end) would be a wrong answer: refused.
	 * Both factors are below 2^31, so the product fits.
	 */
	if ((uint64_t) dlen > (uint64_t) n * (uint64_t) out->chunk_length)
		return BC_ERR_COMPRESSION_DATA_LENGTH;
	out->offsets = data + pos;
	pos += 8 * (size_t) n;
	/* bytes after the offsets: Cassandra 6.0's dictionary (version_60), or
	 * not read by Cassandra before 6.0: ignored */
	if (version_60(version))
	{
		rc = bc_compression_dict_parse(data, len, pos, &dict);
		if (rc != BC_OK)
			return rc;
	}

	/* the compressor: CompressionParams.createCompressor, or ScyllaDB's
	 * compression_parameters::name_to_algorithm ("Unknown sstable_compression") */
	for (i = 0; i < sizeof(compressors) / sizeof(compressors[0]); i++)
		if (name_is(out->name, out->name_len, compressors[i].name))
			break;
	if (i < sizeof(compressors) / sizeof(compressors[0]))
		out->compressor = compressors[i].compressor;
	else if (version_60(version) && name_is(out->name, out->name_len, "ZstdDictionaryCompressor"))
	{
		/*
		 * trunk's ZstdDictionaryCompressor: without a dictionary it
		 * "falls back to be the same as ZstdCompressor" (its uncompress
		 * calls ZstdCompressorBase's)
		 */
		out->compressor = BC_COMPRESSOR_ZSTD;
	}
	else
		return BC_ERR_COMPRESSION_UNSUPPORTED;

	if (out->compressor == BC_COMPRESSOR_LZ4_DICTS || out->compressor == BC_COMPRESSOR_ZSTD_DICTS)
	{
		/*
		 * ScyllaDB's dict_from_options: the parts in order of their
		 * numbers must be 0, 1, ... ("Missing dictionary part: expected
		 * %d, got %d"); a part given twice keeps its first value.  So the
		 * parts' distinct numbers are exactly 0 .. max_part: every one of
		 * them is found, and none is negative (parts distinct numbers cannot
		 * reach parts or more).
		 */
		long		p;
		size_t		vl;

		if (parts > 0 && (min_part < 0 || max_part >= parts))
			return BC_ERR_COMPRESSION_DICTIONARY;
		/* parts in order are 0 .. parts - 1 by themselves: one pass (each
		 * searched for through every option would be quadratic) */
		if (in_order)
			out->dictionary_len = in_order_len;
		for (p = 0; !in_order && p <= max_part; p++)
		{
			if (dict_find(out, p, &vl) == NULL)
				return BC_ERR_COMPRESSION_DICTIONARY;
			out->dictionary_len += vl;
		}
		/* not a reader's rule: LZ4_decompress_safe_usingDict takes an int */
		if (out->dictionary_len > INT_MAX)
			return BC_ERR_COMPRESSION_DICTIONARY;
	}
	if (dict.present)
	{
		/*
		 * CompressionMetadata.resolveCompressor: with a dictionary, the
		 * chunks are read by the dictionary's kind's compressor (ZSTD:
		 * ZstdDictionaryCompressor, Zstd.decompressFastDict with a
		 * ZstdDictDecompress of the dictionary) whatever the class
		 * stored, when that is not a dictionary compressor that takes it
		 */
		out->compressor = BC_COMPRESSOR_ZSTD_DICTS;
		out->dictionary = dict.bytes;
		out->dictionary_len = dict.len;
		out->dictionary_id = dict.id;
	}
	return BC_OK;
}

const uint8_t *
bc_compression_option(const bc_compression_info *ci, const char *key, size_t *value_len)
{
	const uint8_t *k = NULL,
			   *v = NULL;
	size_t		pos = 0,
				kl = 0,
				vl = 0,
				want = strlen(key);
	int32_t		i;

	*value_len = 0;
	for (i = 0; i < ci->option_count; i++)
	{
		(void) read_utf(ci->options, ci->options_len, &pos, &k, &kl);
		(void) read_utf(ci->options, ci->options_len, &pos, &v, &vl);
		if (kl == want && memcmp(k, key, kl) == 0)
		{
			*value_len = vl;
			return v;
		}
	}
	return NULL;
}

void
bc_compression_dictionary(const bc_compression_info *ci, uint8_t *buf)
{
	size_t		done = 0,
				vl,
				pos = 0,
				kl = 0;
	long		part,
				next = 0;
	const uint8_t *v = NULL,
			   *k = NULL;
	int32_t		i;

	/* Cassandra 6.0's, after the chunk offsets */
	if (ci->dictionary != NULL)
	{
		memcpy(buf, ci->dictionary, ci->dictionary_len);
		return;
	}
	/* the parts in order, as ScyllaDB writes them: one pass */
	for (i = 0; i < ci->option_count && next >= 0; i++)
	{
		(void) read_utf(ci->options, ci->options_len, &pos, &k, &kl);
		(void) read_utf(ci->options, ci->options_len, &pos, &v, &vl);
		if (dict_part(k, kl, &part) == 1)
			next = part == next ? next + 1 : -1;
	}
	if (next >= 0)
	{
		pos = 0;
		for (i = 0; i < ci->option_count; i++)
		{
			(void) read_utf(ci->options, ci->options_len, &pos, &k, &kl);
			(void) read_utf(ci->options, ci->options_len, &pos, &v, &vl);
			if (dict_part(k, kl, &part) == 1 && vl <= ci->dictionary_len - done)
			{
				memcpy(buf + done, v, vl);
				done += vl;
			}
		}
		return;
	}
	for (part = 0; done < ci->dictionary_len; part++)
	{
		v = dict_find(ci, part, &vl);
		if (v == NULL)
			break;
		memcpy(buf + done, v, vl);
		done += vl;
	}
}
