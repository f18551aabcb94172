/*
 * test_partitioner.c - the partitioners' key order (bc_partitioner.c):
 * class names, Murmur3's token order before the bytes, ByteOrdered's bytes,
 * no order for the others; keys checked one after another in that order
 * (bc_key_order), as the BIG keys listing checks them.  Their order against the real Index.db files is
 * checked by test_lookup.c, and against Partitions.db by test_trie_keys.c.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_murmur3.h"
#include "bc_partitioner.h"
#include "unit.h"

/* a stand-in MD5 for the order checks: the key itself, zero-padded */
static void
fake_md5(const void *data, size_t len, uint8_t out[16])
{
	memset(out, 0, 16);
	memcpy(out, data, len < 16 ? len : 16);
}

/* each partitioner's order, key after key: an equal key passes (the
 * verifier's rule), one before the last fails and is not kept */
static void
check_key_order(void)
{
	bc_key_order *o = malloc(sizeof(bc_key_order));
	const uint8_t *a = (const uint8_t *) "user1",
			   *b = (const uint8_t *) "user2";
	const uint8_t *lo = bc_token(a, 5) < bc_token(b, 5) ? a : b,
			   *hi = lo == a ? b : a;
	uint8_t		neg[1] = {0xff},
				pos[1] = {0x7f};
	static uint8_t big[BC_KEY_ORDER_MAX_KEY + 1];

	bc_key_order_init(o, BC_PARTITIONER_MURMUR3, NULL);
	CHECK(bc_key_order_next(o, lo, 5) && bc_key_order_next(o, lo, 5) &&
		  bc_key_order_next(o, hi, 5) && !bc_key_order_next(o, lo, 5) &&
		  bc_key_order_next(o, hi, 5), "Murmur3: token order, key after key");
	bc_key_order_init(o, BC_PARTITIONER_BYTE_ORDERED, NULL);
	CHECK(bc_key_order_next(o, a, 4) && bc_key_order_next(o, a, 5) &&
		  bc_key_order_next(o, b, 5) && !bc_key_order_next(o, a, 5) &&
		  !bc_key_order_next(o, a, 4), "ByteOrdered: byte order, key after key");
	bc_key_order_init(o, BC_PARTITIONER_RANDOM, fake_md5);
	CHECK(bc_key_order_next(o, neg, 1) && bc_key_order_next(o, pos, 1) &&
		  !bc_key_order_next(o, neg, 1), "Random: the digests' absolute values, key after key");
	bc_key_order_init(o, BC_PARTITIONER_RANDOM, NULL);
	CHECK(bc_key_order_next(o, pos, 1) && bc_key_order_next(o, neg, 1),
		  "Random without MD5: no order known");
	bc_key_order_init(o, BC_PARTITIONER_OTHER, NULL);
	CHECK(bc_key_order_next(o, b, 5) && bc_key_order_next(o, a, 5) &&
		  bc_key_order_next(o, big, sizeof(big)), "no order known");
	bc_key_order_init(o, BC_PARTITIONER_BYTE_ORDERED, NULL);
	CHECK(!bc_key_order_next(o, big, sizeof(big)) &&
		  bc_key_order_next(o, big, sizeof(big) - 1), "a key over 65535 bytes");
	free(o);
}

void
suite_partitioner(void)
{
	CHECK(bc_partitioner_of("org.apache.cassandra.dht.Murmur3Partitioner", 43) ==
		  BC_PARTITIONER_MURMUR3 &&
		  bc_partitioner_of("RandomPartitioner", 17) == BC_PARTITIONER_RANDOM &&
		  bc_partitioner_of("org.apache.cassandra.dht.ByteOrderedPartitioner", 47) ==
		  BC_PARTITIONER_BYTE_ORDERED &&
		  bc_partitioner_of("org.apache.cassandra.dht.LocalPartitioner", 41) ==
		  BC_PARTITIONER_OTHER, "partitioner names");
	/* Murmur3: token order first (bc_token), then the bytes */
	{
		const uint8_t *a = (const uint8_t *) "user1",
				   *b = (const uint8_t *) "user2";
		int			want = bc_token(a, 5) < bc_token(b, 5) ? -1 : 1;

		CHECK(bc_decorated_cmp(BC_PARTITIONER_MURMUR3, NULL, a, 5, b, 5) == want &&
			  bc_decorated_cmp(BC_PARTITIONER_MURMUR3, NULL, b, 5, a, 5) == -want &&
			  bc_decorated_cmp(BC_PARTITIONER_MURMUR3, NULL, a, 5, a, 5) == 0 &&
			  bc_decorated_cmp(BC_PARTITIONER_BYTE_ORDERED, NULL, a, 5, b, 5) == -1 &&
			  bc_decorated_cmp(BC_PARTITIONER_BYTE_ORDERED, NULL, a, 4, a, 5) == -1 &&
			  bc_decorated_cmp(BC_PARTITIONER_OTHER, NULL, a, 5, b, 5) == 2 &&
			  bc_decorated_cmp(BC_PARTITIONER_RANDOM, NULL, a, 5, a, 5) == 0,
			  "decorated key order");
	}
	/* RandomPartitioner: abs() of the 128-bit two's complement digest */
	{
		uint8_t		neg[1] = {0xff};	/* ff 00 .. 00 is negative: abs is 01 00 .. 00 */
		uint8_t		pos[1] = {0x7f};	/* 7f 00 .. 00: itself */

		CHECK(bc_decorated_cmp(BC_PARTITIONER_RANDOM, fake_md5, pos, 1, neg, 1) == 1 &&
			  bc_decorated_cmp(BC_PARTITIONER_RANDOM, fake_md5, neg, 1, pos, 1) == -1 &&
			  bc_decorated_cmp(BC_PARTITIONER_RANDOM, NULL, neg, 1, pos, 1) == 2,
			  "RandomPartitioner order: by the digest's absolute value");
	}
	check_key_order();
}
