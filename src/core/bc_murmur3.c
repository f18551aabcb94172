/*
 * bc_murmur3.c - MurmurHash3 x64_128 exactly as Apache Cassandra computes it
 * (MurmurHash.hash3_x64_128, seed 0), and the Murmur3Partitioner token.
 *
 * Cassandra's port sign-extends the tail bytes (spec §3.1, §3.2); block
 * bytes are read unsigned.  All arithmetic is done on uint64_t so that it
 * wraps as Java's long does, without undefined behaviour.
 */
#include "bloomcass_core.h"

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

/* Tail byte widening: Java's (long) of a signed byte, written without any
 * implementation-defined conversion (char signedness does not matter). */
static inline uint64_t
sext(uint8_t b)
{
	return (b & 0x80) ? ((uint64_t) b | ~UINT64_C(0xff)) : (uint64_t) b;
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
	size_t		i;

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
	k1 = 0;
	k2 = 0;
	switch (len & 15)
	{
		case 15:
			k2 ^= sext(tail[14]) << 48;
			/* FALLTHROUGH */
		case 14:
			k2 ^= sext(tail[13]) << 40;
			/* FALLTHROUGH */
		case 13:
			k2 ^= sext(tail[12]) << 32;
			/* FALLTHROUGH */
		case 12:
			k2 ^= sext(tail[11]) << 24;
			/* FALLTHROUGH */
		case 11:
			k2 ^= sext(tail[10]) << 16;
			/* FALLTHROUGH */
		case 10:
			k2 ^= sext(tail[9]) << 8;
			/* FALLTHROUGH */
		case 9:
			k2 ^= sext(tail[8]);
			k2 *= C2;
			k2 = rotl64(k2, 33);
			k2 *= C1;
			h2 ^= k2;
			/* FALLTHROUGH */
		case 8:
			k1 ^= sext(tail[7]) << 56;
			/* FALLTHROUGH */
		case 7:
			k1 ^= sext(tail[6]) << 48;
			/* FALLTHROUGH */
		case 6:
			k1 ^= sext(tail[5]) << 40;
			/* FALLTHROUGH */
		case 5:
			k1 ^= sext(tail[4]) << 32;
			/* FALLTHROUGH */
		case 4:
			k1 ^= sext(tail[3]) << 24;
			/* FALLTHROUGH */
		case 3:
			k1 ^= sext(tail[2]) << 16;
			/* FALLTHROUGH */
		case 2:
			k1 ^= sext(tail[1]) << 8;
			/* FALLTHROUGH */
		case 1:
			k1 ^= sext(tail[0]);
			k1 *= C1;
			k1 = rotl64(k1, 31);
			k1 *= C2;
			h1 ^= k1;
			break;
		default:
			break;
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
