/*
 * bc_partitioner.c - the partitioners' order of partition keys: Cassandra's
 * DecoratedKey.compareTo, the token first (Murmur3Partitioner's LongToken,
 * RandomPartitioner's BigIntegerToken of the key's MD5, the key's own bytes
 * for ByteOrderedPartitioner's BytesToken), then the key's bytes unsigned.
 */
#include <string.h>

#include "bc_murmur3.h"
#include "bc_partitioner.h"

bc_partitioner
bc_partitioner_of(const char *name, size_t len)
{
	static const struct
	{
		const char *name;
		bc_partitioner p;
	}			known[] = {
		{"Murmur3Partitioner", BC_PARTITIONER_MURMUR3},
		{"RandomPartitioner", BC_PARTITIONER_RANDOM},
		{"ByteOrderedPartitioner", BC_PARTITIONER_BYTE_ORDERED},
	};
	const char *dot = NULL;
	size_t		i;

	for (i = 0; i < len; i++)
		if (name[i] == '.')
			dot = name + i;
	if (dot != NULL)
	{
		len -= (size_t) (dot + 1 - name);
		name = dot + 1;
	}
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strlen(known[i].name) == len && memcmp(known[i].name, name, len) == 0)
			return known[i].p;
	return BC_PARTITIONER_OTHER;
}

/* ByteBufferUtil.compareUnsigned */
static int
bytes_cmp(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len)
{
	size_t		n = a_len < b_len ? a_len : b_len;
	int			c = n > 0 ? memcmp(a, b, n) : 0;

	if (c != 0)
		return c < 0 ? -1 : 1;
	return a_len < b_len ? -1 : a_len > b_len ? 1 : 0;
}

/* RandomPartitioner's token: new BigInteger(md5).abs(), as 16 bytes */
static void
random_token(bc_md5_fn md5, const uint8_t *key, size_t len, uint8_t out[16])
{
	int			i;

	md5(key, len, out);
	if (out[0] & 0x80)
	{
		/* two's complement negation: invert, then add one */
		int			carry = 1;

		for (i = 15; i >= 0; i--)
		{
			int			v = (uint8_t) ~out[i] + carry;

			out[i] = (uint8_t) v;
			carry = v >> 8;
		}
	}
}

int
bc_decorated_cmp(bc_partitioner p, bc_md5_fn md5,
				 const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len)
{
	switch (p)
	{
		case BC_PARTITIONER_MURMUR3:
			{
				int64_t		ta = bc_token(a, a_len);
				int64_t		tb = bc_token(b, b_len);

				if (ta != tb)
					return ta < tb ? -1 : 1;
				break;
			}
		case BC_PARTITIONER_RANDOM:
			if (md5 != NULL)
			{
				uint8_t		ta[16],
							tb[16];
				int			c;

				random_token(md5, a, a_len, ta);
				random_token(md5, b, b_len, tb);
				c = memcmp(ta, tb, 16);
				if (c != 0)
					return c < 0 ? -1 : 1;
				break;
			}
			return bytes_cmp(a, a_len, b, b_len) == 0 ? 0 : 2;
		case BC_PARTITIONER_BYTE_ORDERED:
			break;				/* the token is the key */
		case BC_PARTITIONER_OTHER:
			return bytes_cmp(a, a_len, b, b_len) == 0 ? 0 : 2;
	}
	return bytes_cmp(a, a_len, b, b_len);
}


/* a key's token as bytes whose memcmp order is the tokens' order */
static void
token_of(bc_partitioner p, bc_md5_fn md5, const uint8_t *key, size_t len, uint8_t out[16])
{
	memset(out, 0, 16);
	if (p == BC_PARTITIONER_MURMUR3)
	{
		uint64_t	v = (uint64_t) bc_token(key, len) ^ UINT64_C(0x8000000000000000);
		int			i;

		for (i = 7; i >= 0; i--)
		{
			out[i] = (uint8_t) v;
			v >>= 8;
		}
	}
	else if (p == BC_PARTITIONER_RANDOM)
		random_token(md5, key, len, out);
	/* ByteOrderedPartitioner: the token is the key (compared as bytes) */
}

void
bc_key_order_init(bc_key_order *o, bc_partitioner p, bc_md5_fn md5)
{
	o->p = p;
	o->md5 = md5;
	o->have = 0;
	o->len = 0;
}

int
bc_key_order_next(bc_key_order *o, const uint8_t *key, size_t len)
{
	uint8_t		token[16];
	int			c;

	if (o->p == BC_PARTITIONER_OTHER || (o->p == BC_PARTITIONER_RANDOM && o->md5 == NULL))
		return 1;
	if (len > BC_KEY_ORDER_MAX_KEY)
		return 0;
	token_of(o->p, o->md5, key, len, token);
	if (o->have)
	{
		c = memcmp(o->token, token, 16);
		if (c == 0)
			c = bytes_cmp(o->prev, o->len, key, len);
		if (c > 0)
			return 0;
	}
	memcpy(o->token, token, 16);
	if (len > 0)
		memcpy(o->prev, key, len);
	o->len = len;
	o->have = 1;
	return 1;
}
