/*
 * bc_murmur3.c - MurmurHash3 x64_128 exactly as Apache Cassandra computes it
 * (MurmurHash.hash3_x64_128, seed 0), and the Murmur3Partitioner token.
 *
 * Cassandra's port sign-extends the tail bytes (the "sign bug" its
 * MurmurHash.hash3_x64_128 keeps so that tokens do not change); block
 * bytes are read unsigned.  All arithmetic is done on uint64_t so that it
 * wraps as Java's long does, without undefined behaviour.
 */
#include "bc_murmur3.h"

#define C1 UINT64_C(0x87c37b91114253d5)
#define C2 UINT64_C(0x4cf5ad432745937f)

static inline uint64_t
rotl64(uint64_t v, int r)
{
	return (v << r) | (v >> (64 - r));
}

static inline uint64_t
fmix64(uint64_t k)
{
	k ^= k >> 33;
	k *= UINT64_C(0xff51afd7ed558ccd);
	k ^= k >> 33;
	k *= UINT64_C(0xc4ceb9fe1a85ec53);
	k ^= k >> 33;
	return k;
}

static inline uint64_t
load_le64(const uint8_t *p)
{
	return (uint64_t) p[0] | ((uint64_t) p[1] << 8) |
		((uint64_t) p[2] << 16) | ((uint64_t) p[3] << 24) |
		((uint64_t) p[4] << 32) | ((uint64_t) p[5] << 40) |
		((uint64_t) p[6] << 48) | ((uint64_t) p[7] << 56);
}

static inline uint64_t
load_le32(const uint8_t *p)
{
	return (uint64_t) p[0] | ((uint64_t) p[1] << 8) |
		((uint64_t) p[2] << 16) | ((uint64_t) p[3] << 24);
}

static inline uint64_t
load_le16(const uint8_t *p)
{
	return (uint64_t) p[0] | ((uint64_t) p[1] << 8);
}

/*
 * The tail's bytes b[0..n-1] (n <= 8) as Cassandra widens them: the XOR of
 * (long) b[i] << 8i with each byte sign-extended.  That is the plain
 * little-endian value u of the bytes XORed with, for every byte i whose top
 * bit is set, all bits above byte i; bit 0 of byte j of the prefix parity
 * P (below) says whether an odd number of bytes before j have their top bit
 * set, and multiplying by 0xff spreads it over byte j.
 */
static inline uint64_t
tail_word(const uint8_t *a, size_t n)
{
	uint64_t	u,
				f;

	if (n >= 4)
	{
		uint64_t	lo = load_le32(a),
					hi = load_le32(a + n - 4);

		u = lo | (hi << (8 * (n - 4)));
	}
	else if (n >= 2)
	{
		uint64_t	lo = load_le16(a),
					hi = load_le16(a + n - 2);

		u = lo | (hi << (8 * (n - 2)));
	}
	else
		u = n ? a[0] : 0;
	f = (u >> 7) & UINT64_C(0x0101010101010101);
	if (f == 0)
		return u;				/* no top bit set (ASCII keys): nothing to extend */
	f ^= f << 8;
	f ^= f << 16;
	f ^= f << 32;
	return u ^ ((f << 8) * 0xff);
}

void
bc_murmur3(const void *data, size_t len, int64_t *out1, int64_t *out2)
{
	const uint8_t *p = (const uint8_t *) data;
	size_t		nblocks = len / 16;
	const uint8_t *tail;
	uint64_t	h1 = 0,
				h2 = 0,
				k1,
				k2;
	size_t		i,
				r;

	for (i = 0; i < nblocks; i++)
	{
		k1 = load_le64(p + 16 * i);
		k2 = load_le64(p + 16 * i + 8);

		k1 *= C1;
		k1 = rotl64(k1, 31);
		k1 *= C2;
		h1 ^= k1;
		h1 = rotl64(h1, 27);
		h1 += h2;
		h1 = h1 * 5 + UINT64_C(0x52dce729);

		k2 *= C2;
		k2 = rotl64(k2, 33);
		k2 *= C1;
		h2 ^= k2;
		h2 = rotl64(h2, 31);
		h2 += h1;
		h2 = h2 * 5 + UINT64_C(0x38495ab5);
	}

	tail = p + nblocks * 16;
	r = len & 15;
	if (r > 8)
	{
		k2 = tail_word(tail + 8, r - 8);
		k2 *= C2;
		k2 = rotl64(k2, 33);
		k2 *= C1;
		h2 ^= k2;
	}
	if (r > 0)
	{
		k1 = tail_word(tail, r > 8 ? 8 : r);
		k1 *= C1;
		k1 = rotl64(k1, 31);
		k1 *= C2;
		h1 ^= k1;
	}

	h1 ^= (uint64_t) len;
	h2 ^= (uint64_t) len;
	h1 += h2;
	h2 += h1;
	h1 = fmix64(h1);
	h2 = fmix64(h2);
	h1 += h2;
	h2 += h1;

	*out1 = (int64_t) h1;
	*out2 = (int64_t) h2;
}

int64_t
bc_token_from_h1(size_t len, int64_t h1)
{
	if (len == 0)
		return INT64_MIN;
	return h1 == INT64_MIN ? INT64_MAX : h1;
}

int64_t
bc_token(const void *data, size_t len)
{
	int64_t		h1,
				h2;

	if (len == 0)
		return INT64_MIN;
	bc_murmur3(data, len, &h1, &h2);
	return bc_token_from_h1(len, h1);
}
