/*
 * bc_hll.c
 *
 * The cardinality estimator of Statistics.db's CompactionMetadata as
 * stream-lib 2.5.2 reads it (HyperLogLogPlus.Builder.build, decodeBytes,
 * legacyDecode; RegisterSet, Varint, Bits) and estimates with it
 * (HyperLogLogPlus.cardinality).  Cassandra 2.1 to 5.0 ship stream-lib
 * 2.5.2 and read the estimator with CompactionMetadataSerializer.
 * deserialize: HyperLogLogPlus.Builder.build(readBytes(in, in.readInt())).
 *
 * The serialized form (getBytes), big-endian as DataOutputStream writes:
 *
 *   BE32 -VERSION (-2), then unsigned varints (Varint.writeUnsignedVarInt,
 *   7 bits a byte, least significant first): p, sp, format;
 *     format 0 (NORMAL): size (bytes), then size / 4 BE32 register words,
 *       six 5-bit registers a word (RegisterSet), 2^p / 6 + 1 words;
 *     format 1 (SPARSE): count, then count varint deltas: each entry is the
 *       previous one plus its delta (Java ints, wrapping).
 *
 * A first int >= 0 is the legacy codec (legacyDecode): BE32 p, sp, format,
 * then BE32 size and the words, or sparse entries each a BE32 length and
 * that many bytes of one varint, until a length <= 0.
 *
 * Every read is bounded by the estimator's bytes: a count larger than the
 * bytes can hold is refused before anything is decoded by it, so a caller
 * allocates at most four bytes a byte of input.
 */
#include <math.h>
#include <string.h>

#include "bc_endian.h"
#include "bc_hll.h"
#include "bc_hll_java.h"
#include "bc_status.h"
#include "bc_tick.h"

const char *
bc_hll_kind_name(bc_hll_kind k)
{
	return k == BC_HLL_SCYLLA ? "ScyllaDB HyperLogLog" : "stream-lib HyperLogLogPlus";
}

/*
 * Varint.readUnsignedVarInt(DataInput): past the sixth byte with its high
 * bit set, IllegalArgumentException ("Variable length quantity is too
 * long"); the last byte is shifted by i modulo 32 (Java's int shift).
 */
static bc_status
read_varint(const uint8_t **pp, const uint8_t *end, int32_t *out)
{
	const uint8_t *p = *pp;
	int32_t		value = 0;
	int32_t		i = 0;

	for (;;)
	{
		int32_t		b;

		if (p >= end)
			return BC_ERR_HLL_TRUNCATED;
		b = *p++;
		if (!(b & 0x80))
		{
			*out = (int32_t) ((uint32_t) value | (uint32_t) j_shl(b, i));
			*pp = p;
			return BC_OK;
		}
		value = (int32_t) ((uint32_t) value | (uint32_t) j_shl(b & 0x7f, i));
		i += 7;
		if (i > 35)
			return BC_ERR_HLL_FORMAT;
	}
}

/* Varint.readUnsignedVarInt(byte[]): the legacy codec's entries */
static bc_status
varint_of_array(const uint8_t *b, size_t len, int32_t *out)
{
	int32_t		value = 0;
	int32_t		i = 0;
	int32_t		rb = -128;		/* Byte.MIN_VALUE */
	size_t		j;

	for (j = 0; j < len; j++)
	{
		rb = (int8_t) b[j];
		if (!(b[j] & 0x80))
			break;
		value = (int32_t) ((uint32_t) value | (uint32_t) j_shl(b[j] & 0x7f, i));
		i += 7;
		if (i > 35)
			return BC_ERR_HLL_FORMAT;
	}
	*out = (int32_t) ((uint32_t) value | (uint32_t) j_shl(rb, i));
	return BC_OK;
}

static bc_status
read_be32(const uint8_t **pp, const uint8_t *end, int32_t *out)
{
	if (end - *pp < 4)
		return BC_ERR_HLL_TRUNCATED;
	*out = (int32_t) bc_get_be32(*pp);
	*pp += 4;
	return BC_OK;
}

/*
 * The HyperLogLogPlus constructor's checks: p below 4 or above a non-zero
 * sp ("p must be between 4 and sp"), sp above 32; and the precisions
 * bloomcass reads.
 */
static bc_status
check_precisions(int32_t p, int32_t sp)
{
	if (p < 4 || (p > sp && sp != 0) || sp > 32)
		return BC_ERR_HLL_FORMAT;
	if (p > BC_HLL_MAX_P)
		return BC_ERR_HLL_UNSUPPORTED;
	return BC_OK;
}

/*
 * The register words of the normal format: new byte[size] (negative:
 * NegativeArraySizeException), readFully (EOF), then Bits.getBits reads
 * size / 4 words; a trailing size % 4 bytes are read and left.
 */
static bc_status
normal_words(const uint8_t **pp, const uint8_t *end, int32_t size, bc_hll_view *v)
{
	if (size < 0)
		return BC_ERR_HLL_FORMAT;
	if ((size_t) (end - *pp) < (size_t) size)
		return BC_ERR_HLL_TRUNCATED;
	v->payload = *pp;
	v->n = (uint32_t) size / 4;
	*pp += size;
	return BC_OK;
}

/* ScyllaDB's get_bytes(): -2, b, 0, 0, m = 2^b, then m bytes and nothing */
static int
scylla_form(const uint8_t *bytes, size_t len, bc_hll_view *v)
{
	const uint8_t *p = bytes + 4;
	const uint8_t *end = bytes + len;
	int32_t		b,
				sp,
				format,
				m;

	if (len < 4 || (int32_t) bc_get_be32(bytes) != -2)
		return 0;
	if (read_varint(&p, end, &b) != BC_OK || read_varint(&p, end, &sp) != BC_OK ||
		read_varint(&p, end, &format) != BC_OK || read_varint(&p, end, &m) != BC_OK)
		return 0;
	/* HyperLogLog(b): "bit width must be in the range [4,16]" */
	if (b < 4 || b > 16 || sp != 0 || format != 0 || m != (1 << b) ||
		(size_t) (end - p) != (size_t) m)
		return 0;
	memset(v, 0, sizeof(*v));
	v->kind = BC_HLL_SCYLLA;
	v->p = b;
	v->registers = p;
	v->m = (uint32_t) m;
	v->end = end;
	return 1;
}

static bc_status
parse_legacy(const uint8_t *p, const uint8_t *end, bc_hll_view *v)
{
	int32_t		format,
				size,
				l;
	bc_status	st;

	v->legacy = 1;
	if ((st = read_be32(&p, end, &v->p)) != BC_OK ||
		(st = read_be32(&p, end, &v->sp)) != BC_OK ||
		(st = read_be32(&p, end, &format)) != BC_OK)
		return st;
	if (format == 0)
	{
		if ((st = read_be32(&p, end, &size)) != BC_OK ||
			(st = normal_words(&p, end, size, v)) != BC_OK)
			return st;
		return check_precisions(v->p, v->sp);
	}

	/*
	 * Sparse: while ((l = readInt()) > 0) an entry of l bytes, read with
	 * read(buf, 0, l), which may read fewer at the end; the next readInt
	 * then fails (EOF).  Each entry is at least five bytes: n is bounded.
	 */
	v->sparse = 1;
	v->payload = p;
	v->n = 0;
	for (;;)
	{
		int32_t		unused;

		BC_TICK(v->n);
		if ((st = read_be32(&p, end, &l)) != BC_OK)
			return st;
		if (l <= 0)
			break;
		if ((size_t) (end - p) < (size_t) l)
			return BC_ERR_HLL_TRUNCATED;
		if ((st = varint_of_array(p, (size_t) l, &unused)) != BC_OK)
			return st;
		p += l;
		v->n++;
	}
	return check_precisions(v->p, v->sp);
}

bc_status
bc_hll_parse(const uint8_t *bytes, size_t len, int scylla, bc_hll_view *v)
{
	const uint8_t *p = bytes;
	const uint8_t *end = bytes + len;
	int32_t		version,
				format,
				n,
				size,
				unused;
	uint32_t	i;
	bc_status	st;

	memset(v, 0, sizeof(*v));
	if (scylla && scylla_form(bytes, len, v))
		return BC_OK;
	v->kind = BC_HLL_STREAMLIB;
	v->end = end;
	if ((st = read_be32(&p, end, &version)) != BC_OK)
		return st;
	if (version >= 0)
		return parse_legacy(bytes, end, v);
	if ((st = read_varint(&p, end, &v->p)) != BC_OK ||
		(st = read_varint(&p, end, &v->sp)) != BC_OK ||
		(st = read_varint(&p, end, &format)) != BC_OK)
		return st;
	if (format == 0)
	{
		if ((st = read_varint(&p, end, &size)) != BC_OK ||
			(st = normal_words(&p, end, size, v)) != BC_OK)
			return st;
		return check_precisions(v->p, v->sp);
	}

	/* sparse: new int[count] (negative: NegativeArraySizeException), then
	 * count varints of one byte or more (fewer bytes: EOF) */
	v->sparse = 1;
	if ((st = read_varint(&p, end, &n)) != BC_OK)
		return st;
	if (n < 0)
		return BC_ERR_HLL_FORMAT;
	if ((size_t) (end - p) < (size_t) n)
		return BC_ERR_HLL_TRUNCATED;
	v->payload = p;
	v->n = (uint32_t) n;
	for (i = 0; i < v->n; i++)
	{
		BC_TICK(i);
		if ((st = read_varint(&p, end, &unused)) != BC_OK)
			return st;
	}
	return check_precisions(v->p, v->sp);
}

void
bc_hll_decode(const bc_hll_view *v, bc_hll *h)
{
	const uint8_t *p = v->payload;
	int32_t		prev = 0;
	uint32_t	i;

	h->p = v->p;
	h->sp = v->sp;
	h->sparse = v->sparse;
	h->n = v->n;
	h->canonical = 1;
	for (i = 0; i < v->n; i++)
	{
		int32_t		d = 0;

		BC_TICK(i);
		if (!v->sparse)
		{
			h->v[i] = (int32_t) bc_get_be32(p + 4 * (size_t) i);
			continue;
		}
		if (v->legacy)
		{
			int32_t		l = (int32_t) bc_get_be32(p);

			(void) varint_of_array(p + 4, (size_t) l, &d);
			p += 4 + (size_t) l;
		}
		else
			(void) read_varint(&p, v->end, &d);
		h->v[i] = (int32_t) ((uint32_t) d + (uint32_t) prev);

		/* a run length that a register's five bits hold and a register
		 * inside the set: what hashes give (a run of more than 30 zero
		 * bits after p has a chance of 2^-31) */
		if (hll_run_length(h->v[i], v->p, v->sp) > 31 ||
			hll_index(h->v[i], v->p, v->sp) >= (1 << v->p))
			h->canonical = 0;
		prev = h->v[i];
	}
}

uint32_t
bc_hll_words(int32_t p)
{
	/* RegisterSet(count): getBits = count / 6 words, one more unless a
	 * multiple of 32, at least one */
	int32_t		bits = j_pow2(p) / 6;

	if (bits == 0)
		return 1;
	return (uint32_t) (bits % 32 == 0 ? bits : bits + 1);
}

/* the constructor's alphaMM, in Java's order of operations */
static double
alpha_mm(int32_t p, int32_t m)
{
	switch (p)
	{
		case 4:
			return 0.673 * m * m;
		case 5:
			return 0.697 * m * m;
		case 6:
			return 0.709 * m * m;
		default:
			return (0.7213 / (1 + 1.079 / m)) * m * m;
	}
}

/*
 * cardinality() over the register words: from a decoded estimator (M) or
 * straight from the estimator's bytes (be, big-endian words).
 */
static bc_status
normal_cardinality(int32_t p, const int32_t *M, const uint8_t *be, uint32_t n,
				   int64_t *card)
{
	int32_t		m = j_pow2(p);
	double		register_sum = 0,
				zeros = 0,
				estimate,
				estimate_prime,
				big_h;
	int32_t		j,
				word = 0,
				word_at = -1;

	/* registerSet.get(j) for j < count: each word must be there */
	if ((uint32_t) ((m - 1) / 6) >= n)
		return BC_ERR_HLL_FORMAT;
	for (j = 0; j < m; j++)
	{
		int32_t		val;

		BC_TICK(j);
		if (j / 6 != word_at)
		{
			word_at = j / 6;
			word = M != NULL ? M[word_at] : (int32_t) bc_get_be32(be + 4 * (size_t) word_at);
		}
		val = hll_get(&word, j % 6);
		register_sum += 1.0 / (double) j_shl(1, val);
		if (val == 0)
			zeros++;
	}
	estimate = alpha_mm(p, m) * (1 / register_sum);
	estimate_prime = estimate;
	if (estimate <= (double) (5 * m))
	{
		if (p != 13)
			return BC_ERR_HLL_UNSUPPORTED;
		estimate_prime = estimate - bc_hll_bias_p13(estimate);
	}
	big_h = zeros > 0 ? m * log(m / zeros) : estimate_prime;
	/* p <= 18 here: thresholdData[p - 4] */
	*card = bc_java_round(big_h < bc_hll_threshold(p) ? big_h : estimate_prime);
	return BC_OK;
}

/* linearCounting(sm, sm - sparseSet.length): (int) Math.round, widened */
static int64_t
sparse_cardinality(int32_t sp, uint32_t n)
{
	int32_t		sm = sp > 0 ? j_pow2(sp) : 0;
	double		vv = (double) sm - (double) n;

	return (int64_t) (int32_t) (uint64_t) bc_java_round(sm * log(sm / vv));
}

bc_status
bc_hll_cardinality(const bc_hll *h, int64_t *card)
{
	if (h->sparse)
	{
		*card = sparse_cardinality(h->sp, h->n);
		return BC_OK;
	}
	return normal_cardinality(h->p, h->v, NULL, h->n, card);
}

bc_status
bc_hll_view_cardinality(const bc_hll_view *v, int64_t *card)
{
	if (v->kind == BC_HLL_SCYLLA)
		return bc_hll_scylla_estimate(v, card);
	if (v->sparse)
	{
		*card = sparse_cardinality(v->sp, v->n);
		return BC_OK;
	}
	return normal_cardinality(v->p, NULL, v->payload, v->n, card);
}
