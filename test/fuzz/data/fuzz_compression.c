/*
 * fuzz_compression.c - CompressionInfo.db (bc_compression.c), the input
 * read as <version selector> <sizes> <CompressionInfo.db> [<Data.db>]:
 * byte 0 picks a version of fuzz_versions (fuzz.h), byte 1 the sizes of
 * Data.db the chunks are checked against; the bytes after the chunk
 * offsets, which CompressionInfo.db's readers ignore, are its Data.db.
 *
 * bc_compression_parse against a model of the layout (bc_compression.h):
 * the same acceptance, UNSUPPORTED exactly for a well-formed file of
 * another compressor, and on success every field where the model reads
 * it: the class name and options inside the file, the chunk length a
 * power of two, the max compressed length from na and in da and bb only
 * (INT32_MAX before), a data length >= 0 and at most chunk count * chunk
 * length (DATA_LENGTH past it: no partition size or position beyond what
 * the chunks hold), at least one chunk and every offset inside the file,
 * Adler32 from jb to lb, ScyllaDB's dictionary the parts 0 .. n-1 in
 * order (bc_compression_dictionary into an exact-size buffer).  Then bc_compression_option for every key, and
 * bc_compression_chunk, bc_compression_chunk_data_len and
 * bc_compression_buffer_size for every chunk and several Data.db sizes
 * against their documented contract; then the whole Data.db read through
 * bc_data_reader_open and bc_data_read (chunk lengths up to 64 kB).
 */
#include <limits.h>
#include <string.h>

#include "bc_compression.h"
#include "bc_data.h"
#include "bc_endian.h"
#include "bc_status.h"
#include "fuzz.h"

/* chunk lengths read through bc_data_reader_open, at most (real files:
 * 64 kB at most) */
#define COMP_MAX_CHUNK ((int32_t) 1 << 16)
/* uncompressed bytes read, at most */
#define COMP_MAX_READ ((uint64_t) 4 << 20)
/* chunks checked one by one, at most */
#define COMP_MAX_CHUNKS 4096

static const char *const known[] = {
	"NoopCompressor", "LZ4Compressor", "SnappyCompressor", "DeflateCompressor",
	"ZstdCompressor", "LZ4WithDictsCompressor", "ZstdWithDictsCompressor"
};

/* the model: what CompressionInfo.db says, as read field by field */
typedef struct ref_info
{
	bc_status	structure;		/* BC_OK: every field there and possible */
	int			compressor;		/* index in known[], or -1 */
	const uint8_t *name;
	size_t		name_len;
	int32_t		nopt;
	const uint8_t *opts;
	size_t		opts_len;
	int32_t		chunk,
				max;
	int64_t		dlen;
	int32_t		count;
	const uint8_t *offsets;
	size_t		end;			/* of the offsets */
	/* ScyllaDB's dictionary: the parts' numbers and values */
	size_t		nparts;
	long	   *part_no;
	const uint8_t **part_v;
	size_t	   *part_len;
	int			parts_ok;		/* numbered 0 .. nparts - 1, once each */
	uint64_t	dict_len;
} ref_info;

typedef struct rd
{
	const uint8_t *d;
	size_t		len,
				pos;
} rd;

static int
rd_utf(rd *r, const uint8_t **s, size_t *n)
{
	if (r->len - r->pos < 2)
		return 0;
	*n = ((size_t) r->d[r->pos] << 8) | r->d[r->pos + 1];
	if (r->len - r->pos - 2 < *n)
		return 0;
	*s = r->d + r->pos + 2;
	r->pos += 2 + *n;
	return 1;
}

static int
rd_be(rd *r, int bytes, uint64_t *v)
{
	if (r->len - r->pos < (size_t) bytes)
		return 0;
	*v = bytes == 8 ? bc_get_be64(r->d + r->pos) : bc_get_be32(r->d + r->pos);
	r->pos += (size_t) bytes;
	return 1;
}

/*
 * A dictionary option's part number as ScyllaDB's dict_from_options reads
 * it with std::stoi: 0 for another option, -1 for a number it cannot read
 * (white space, an optional sign, at least one digit within an int, then
 * anything), 1 and *part otherwise.
 */
static int
ref_dict_part(const uint8_t *k, size_t n, long *part)
{
	static const char pre[] = ".dictionary.";
	size_t		pl = sizeof(pre) - 1,
				i;
	long long	v = 0;
	int			neg = 0,
				digits = 0;

	if (n < pl || memcmp(k, pre, pl) != 0)
		return 0;
	i = pl;
	while (i < n && (k[i] == ' ' || k[i] == '\t' || k[i] == '\n' || k[i] == '\v' ||
					 k[i] == '\f' || k[i] == '\r'))
		i++;
	if (i < n && (k[i] == '-' || k[i] == '+'))
		neg = k[i++] == '-';
	for (; i < n && k[i] >= '0' && k[i] <= '9'; i++, digits++)
	{
		v = v * 10 + (k[i] - '0');
		if (v > (long long) INT_MAX + 1)
			return -1;
	}
	if (digits == 0 || (!neg && v > INT_MAX))
		return -1;
	*part = (long) (neg ? -v : v);
	return 1;
}

/* the versions ScyllaDB reads (ka, la, mc, md, me, ms, mt) */
static int
ref_scylla(const char *v)
{
	static const char *const sv[] = {"ka", "la", "mc", "md", "me", "ms", "mt"};
	size_t		i;

	for (i = 0; i < sizeof(sv) / sizeof(sv[0]); i++)
		if (strcmp(v, sv[i]) == 0)
			return 1;
	return 0;
}

static int
long_cmp(const void *a, const void *b)
{
	long		x = *(const long *) a,
				y = *(const long *) b;

	return x < y ? -1 : x > y;
}

static void
ref_parse(const fuzz_version *fv, const uint8_t *d, size_t len, ref_info *m)
{
	rd			r = {d, len, 0};
	uint64_t	v;
	int32_t		i;
	size_t		j;

	memset(m, 0, sizeof(*m));
	m->compressor = -1;
	m->part_no = xmalloc((len / 4 + 1) * sizeof(long));
	m->part_v = xmalloc((len / 4 + 1) * sizeof(const uint8_t *));
	m->part_len = xmalloc((len / 4 + 1) * sizeof(size_t));
	m->structure = BC_ERR_COMPRESSION_TRUNCATED;
	if (!rd_utf(&r, &m->name, &m->name_len) || !rd_be(&r, 4, &v))
		return;
	m->nopt = (int32_t) v;
	if (m->nopt < 0)
	{
		m->structure = BC_ERR_COMPRESSION_FORMAT;
		return;
	}
	m->opts = d + r.pos;
	for (i = 0; i < m->nopt; i++)
	{
		const uint8_t *k,
				   *val;
		size_t		kl,
					vl;
		long		p;

		if (!rd_utf(&r, &k, &kl) || !rd_utf(&r, &val, &vl))
			return;
		switch (ref_dict_part(k, kl, &p))
		{
			case -1:
				m->structure = BC_ERR_COMPRESSION_DICTIONARY;
				return;
			case 1:
				/* a part given twice keeps its first value */
				for (j = 0; j < m->nparts && m->part_no[j] != p; j++)
					;
				if (j < m->nparts)
					break;
				m->part_no[m->nparts] = p;
				m->part_v[m->nparts] = val;
				m->part_len[m->nparts++] = vl;
				m->dict_len += vl;
				break;
		}
	}
	m->opts_len = (size_t) (d + r.pos - m->opts);
	if (!rd_be(&r, 4, &v))
		return;
	m->chunk = (int32_t) v;
	m->max = INT32_MAX;
	if (fv->stats == SV_CRC)	/* na .. oa, da, bb */
	{
		if (!rd_be(&r, 4, &v))
			return;
		m->max = (int32_t) v;
	}
	if (!rd_be(&r, 8, &v))
		return;
	m->dlen = (int64_t) v;
	if (!rd_be(&r, 4, &v))
		return;
	m->count = (int32_t) v;
	if (m->count > 0 && (len - r.pos) / 8 < (size_t) m->count)
		return;
	/* a power of two for Cassandra (CompressedChunkReader); any positive
	 * length for the versions ScyllaDB reads */
	if (m->chunk <= 0 || ((m->chunk & (m->chunk - 1)) != 0 && !ref_scylla(fv->v)) ||
		m->dlen < 0 || m->count <= 0)
	{
		m->structure = BC_ERR_COMPRESSION_FORMAT;
		return;
	}
	m->offsets = d + r.pos;
	m->end = r.pos + 8 * (size_t) m->count;
	/* no more data than the chunks hold (CompressionMetadata.chunkFor) */
	if ((uint64_t) m->dlen > (uint64_t) m->count * (uint64_t) m->chunk)
	{
		m->structure = BC_ERR_COMPRESSION_DATA_LENGTH;
		return;
	}
	m->structure = BC_OK;
	for (j = 0; j < sizeof(known) / sizeof(known[0]); j++)
	{
		size_t		kl = strlen(known[j]);
		static const char pkg[] = "org.apache.cassandra.io.compress.";

		if ((m->name_len == kl && memcmp(m->name, known[j], kl) == 0) ||
			(m->name_len == sizeof(pkg) - 1 + kl && memcmp(m->name, pkg, sizeof(pkg) - 1) == 0 &&
			 memcmp(m->name + sizeof(pkg) - 1, known[j], kl) == 0))
			m->compressor = (int) j;
	}
	/* the parts' distinct numbers: exactly 0 .. nparts - 1 */
	m->parts_ok = m->dict_len <= INT_MAX;
	{
		long	   *sorted = xmalloc((m->nparts + 1) * sizeof(long));

		memcpy(sorted, m->part_no, m->nparts * sizeof(long));
		qsort(sorted, m->nparts, sizeof(long), long_cmp);
		for (j = 0; j < m->nparts; j++)
			if (sorted[j] != (long) j)
				m->parts_ok = 0;
		free(sorted);
	}
}

static void
ref_free(ref_info *m)
{
	free(m->part_no);
	free(m->part_v);
	free(m->part_len);
}

/* bc_compression_chunk of chunk i against its contract */
static void
check_chunk(const bc_compression_info *ci, int64_t i)
{
	uint64_t	off = 1,
				next;
	size_t		sl = 1;
	bc_status	st = bc_compression_chunk(ci, i, &off, &sl);
	int			ok;

	if (i < 0 || i >= ci->chunk_count)
	{
		CHECK(st == BC_ERR_COMPRESSION_CHUNK && off == 0 && sl == 0);
		return;
	}
	off = bc_get_be64(ci->offsets + 8 * (size_t) i);
	next = i + 1 == ci->chunk_count ? ci->data_file_size :
		bc_get_be64(ci->offsets + 8 * (size_t) (i + 1));
	ok = next <= ci->data_file_size && off < next && next - off > BC_CHUNK_CHECKSUM &&
		next - off - BC_CHUNK_CHECKSUM <= INT32_MAX;
	{
		uint64_t	o2 = 1;
		size_t		s2 = 1;

		st = bc_compression_chunk(ci, i, &o2, &s2);
		if (ok)
			CHECK(st == BC_OK && o2 == off && s2 == next - off - BC_CHUNK_CHECKSUM &&
				  o2 + s2 + BC_CHUNK_CHECKSUM <= ci->data_file_size);
		else
			CHECK(st == BC_ERR_COMPRESSION_CHUNK && o2 == 0 && s2 == 0);
	}
}

/* bc_compression_chunk_data_len: the chunk length, the rest of the data
 * in the last one, 0 past it */
static void
check_data_len(const bc_compression_info *ci, int64_t i)
{
	size_t		n = bc_compression_chunk_data_len(ci, i);
	uint64_t	start = (uint64_t) i * (uint64_t) ci->chunk_length;

	if (i < 0 || start >= (uint64_t) ci->data_length)
		CHECK(n == 0);
	else
		CHECK(n == ((uint64_t) ci->data_length - start < (uint64_t) ci->chunk_length ?
					(size_t) ((uint64_t) ci->data_length - start) : (size_t) ci->chunk_length));
}

/* the whole Data.db (db) through bc_data_reader_open, in pieces */
static void
read_data(const fuzz_version *fv, const uint8_t *info, size_t ilen, const uint8_t *db,
		  size_t dblen, const bc_compression_info *want)
{
	fuzz_mem	m;
	bc_reader	r = fuzz_mem_open(&m, db, dblen);
	bc_data_reader dr;
	bc_compression_info ci;
	void	   *block = NULL;
	int			in_info = -1;
	uint64_t	off = 0;
	uint8_t    *buf = xmalloc(65536);
	bc_status	st = bc_data_reader_open(&dr, &ci, &r, fv->v, strlen(fv->v), info, ilen,
										 fuzz_alloc, NULL, &block, &in_info);

	CHECK(st == BC_OK && in_info == 0 && block != NULL);
	CHECK(ci.compressor == want->compressor && ci.chunk_length == want->chunk_length &&
		  ci.data_length == want->data_length && ci.dictionary_len == want->dictionary_len);
	CHECK(bc_data_length(&dr) == (uint64_t) ci.data_length);
	while (off < COMP_MAX_READ)
	{
		size_t		got = (size_t) -1;

		st = bc_data_read(&dr, off, buf, 65536, &got);
		CHECK(got <= 65536);
		if (st != BC_OK)
		{
			CHECK(st == BC_ERR_COMPRESSION_CHUNK || st == BC_ERR_COMPRESSION_CHECKSUM ||
				  st == BC_ERR_COMPRESSION_CORRUPT);
			break;
		}
		if (got < 65536)
		{
			CHECK(off + got == (uint64_t) ci.data_length);
			break;
		}
		off += got;
	}
	/* a buffer shorter than the chunk is refused */
	{
		size_t		want0 = bc_compression_chunk_data_len(&ci, 0);
		uint64_t	o;
		size_t		sl;

		if (want0 > 0 && bc_compression_chunk(&ci, 0, &o, &sl) == BC_OK && sl + 4 <= dblen - o)
			CHECK(bc_compression_decode(&ci, 0, db + o, sl, NULL, 0, buf, want0 - 1) ==
				  BC_ERR_BUFFER);
	}
	free(block);
	free(buf);
}

void
fuzz_compression(const uint8_t *data, size_t len)
{
	const fuzz_version *fv = pick_version(data, len);
	uint8_t		sz = len > 1 ? data[1] : 0;
	size_t		skip = len < 2 ? len : 2;
	const uint8_t *d = data + skip;
	size_t		dl = len - skip,
				vl = strlen(fv->v),
				k;
	ref_info	m;
	bc_compression_info ci;
	bc_status	st;
	uint64_t	sizes[4];
	int			s;

	memset(&ci, 0x5a, sizeof(ci));
	st = bc_compression_parse(fv->v, vl, d, dl, 0, &ci);
	CHECK(bc_status_message(st) != NULL);
	if (fv->stats == SV_REFUSED)
	{
		CHECK(st == BC_ERR_VERSION_UNKNOWN || st == BC_ERR_VERSION_UNSUPPORTED);
		return;
	}
	ref_parse(fv, d, dl, &m);
	if (m.structure == BC_ERR_COMPRESSION_DATA_LENGTH)
		CHECK(st == BC_ERR_COMPRESSION_DATA_LENGTH);
	else if (m.structure != BC_OK)
		CHECK(st == BC_ERR_COMPRESSION_TRUNCATED || st == BC_ERR_COMPRESSION_FORMAT ||
			  st == BC_ERR_COMPRESSION_DICTIONARY);
	else if (m.compressor < 0)
		CHECK(st == BC_ERR_COMPRESSION_UNSUPPORTED && ci.name == m.name &&
			  ci.name_len == m.name_len);
	else if (m.compressor >= BC_COMPRESSOR_LZ4_DICTS && !m.parts_ok)
		CHECK(st == BC_ERR_COMPRESSION_DICTIONARY);
	else
		CHECK(st == BC_OK);
	if (st != BC_OK)
	{
		ref_free(&m);
		return;
	}

	/* every field where the model reads it */
	CHECK((int) ci.compressor == m.compressor);
	CHECK(ci.checksum == (strncmp(fv->v, "jb", 2) >= 0 && strncmp(fv->v, "lb", 2) <= 0 ?
						  BC_CHUNK_ADLER32 : BC_CHUNK_CRC32));
	CHECK(ci.name == m.name && ci.name_len == m.name_len && inside(ci.name, ci.name_len, d, dl));
	CHECK(ci.option_count == m.nopt && ci.options == m.opts && ci.options_len == m.opts_len &&
		  inside(ci.options, ci.options_len, d, dl));
	CHECK(ci.chunk_length == m.chunk && ci.chunk_length > 0 &&
		  ((ci.chunk_length & (ci.chunk_length - 1)) == 0 || ref_scylla(fv->v)));
	CHECK(ci.max_compressed_length == m.max);
	CHECK(ci.data_length == m.dlen && ci.data_length >= 0);
	/* no size or position past what the chunks declare: the data length,
	 * the end of every partition, is within chunk count * chunk length */
	CHECK((uint64_t) ci.data_length <= (uint64_t) ci.chunk_count * (uint64_t) ci.chunk_length);
	{
		uint64_t	ul = 0;

		CHECK(bc_data_uncompressed_length(fv->v, vl, d, dl, 0, &ul) == BC_OK &&
			  ul == (uint64_t) ci.data_length);
	}
	CHECK(ci.chunk_count == m.count && ci.chunk_count >= 1 && ci.offsets == m.offsets &&
		  inside(ci.offsets, 8 * (size_t) ci.chunk_count, d, dl));
	CHECK(ci.data_file_size == 0);

	/* the options: the first of each key */
	{
		rd			r = {ci.options, ci.options_len, 0};
		int32_t		i;

		for (i = 0; i < ci.option_count && i < 64; i++)
		{
			const uint8_t *key,
					   *val,
					   *got;
			char		ks[64];
			size_t		kl,
						vl2,
						gl = 1;

			CHECK(rd_utf(&r, &key, &kl) && rd_utf(&r, &val, &vl2));
			if (kl >= sizeof(ks) || memchr(key, 0, kl) != NULL)
				continue;
			memcpy(ks, key, kl);
			ks[kl] = '\0';
			got = bc_compression_option(&ci, ks, &gl);
			CHECK(got != NULL && inside(got, gl, ci.options, ci.options_len));
			CHECK(got[-2] == (uint8_t) (gl >> 8) && got[-1] == (uint8_t) gl);
			if (got == val)
				CHECK(gl == vl2);
			else
				CHECK(got < val);	/* an earlier option of that key */
		}
	}

	/* ScyllaDB's dictionary: the parts in order, into an exact buffer */
	if (ci.compressor == BC_COMPRESSOR_LZ4_DICTS || ci.compressor == BC_COMPRESSOR_ZSTD_DICTS)
	{
		exact_buf	b = exact_alloc(ci.dictionary_len);
		size_t		p,
					at = 0;

		size_t	   *of = xmalloc((m.nparts + 1) * sizeof(size_t));

		CHECK(ci.dictionary_len == m.dict_len);
		bc_compression_dictionary(&ci, b.p);
		/* the option of each part (numbered 0 .. nparts - 1, once each) */
		for (k = 0; k < m.nparts; k++)
			of[m.part_no[k]] = k;
		for (p = 0; p < m.nparts; p++)
		{
			CHECK(memcmp(b.p + at, m.part_v[of[p]], m.part_len[of[p]]) == 0);
			at += m.part_len[of[p]];
		}
		CHECK(at == ci.dictionary_len);
		free(of);
		free(b.base);
	}
	else
		CHECK(ci.dictionary_len == 0);

	/* chunks against Data.db sizes: what follows the offsets, and others */
	sizes[0] = dl - m.end;
	sizes[1] = 0;
	sizes[2] = (uint64_t) sz * 4099;
	sizes[3] = (sz & 1) ? UINT64_MAX : bc_get_be64(m.offsets) + 4 + sz;
	for (s = 0; s < 4; s++)
	{
		bc_compression_info c2;
		int64_t		i,
					n = ci.chunk_count < COMP_MAX_CHUNKS ? ci.chunk_count : COMP_MAX_CHUNKS;
		size_t		bs;

		CHECK(bc_compression_parse(fv->v, vl, d, dl, sizes[s], &c2) == BC_OK &&
			  c2.data_file_size == sizes[s] && c2.offsets == ci.offsets);
		for (i = -1; i <= n; i++)
		{
			check_chunk(&c2, i);
			check_data_len(&c2, i);
		}
		check_chunk(&c2, ci.chunk_count - 1);
		check_chunk(&c2, INT64_MAX);
		check_chunk(&c2, INT64_MIN);
		check_data_len(&c2, INT64_MAX / 2);
		check_data_len(&c2, INT64_MIN);
		bs = bc_compression_buffer_size(&c2);
		CHECK(bs == 0 || (bs >= (size_t) c2.chunk_length + BC_CHUNK_CHECKSUM &&
						  bs <= (size_t) INT32_MAX + BC_CHUNK_CHECKSUM));
		if (c2.compressor == BC_COMPRESSOR_NOOP)
			CHECK(bs == (size_t) c2.chunk_length + BC_CHUNK_CHECKSUM);
	}

	/* the bytes after the offsets as Data.db, read whole */
	if (ci.chunk_length <= COMP_MAX_CHUNK)
	{
		bc_compression_info c3;

		CHECK(bc_compression_parse(fv->v, vl, d, dl, dl - m.end, &c3) == BC_OK);
		read_data(fv, d, dl, d + m.end, dl - m.end, &c3);
	}
	ref_free(&m);
}
