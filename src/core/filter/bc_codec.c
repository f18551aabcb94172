/*
 * bc_codec.c - the Filter.db codec (BloomFilterSerializer, OffHeapBitSet's
 * serialize and deserialize): validation of a serialized filter, conversion
 * between the two payload layouts, serialization; the mapping from SSTable
 * versions and Filter.db file names to hash order and payload layout
 * (BigFormat's hasOldBfHashOrder and hasOldBfFormat, BtiFormat; the table
 * of README.md, Compatibility).
 */
#include <string.h>

#include "bc_codec.h"
#include "bc_endian.h"
#include "bc_filter.h"
#include "bc_status.h"

bc_status
bc_filterdb_check(const uint8_t *data, size_t len, int64_t max_words,
				  int32_t *hash_count, int64_t *word_count)
{
	int32_t		k;
	int32_t		w;

	if (len == 0)
		return BC_ERR_EMPTY;
	if (len < BC_FILTERDB_HEADER)
		return BC_ERR_SHORT_HEADER;
	k = (int32_t) bc_get_be32(data);
	w = (int32_t) bc_get_be32(data + 4);

	/*
	 * Cassandra's BloomFilterSerializer.deserialize takes any hash count;
	 * refused here because a filter with one outside 1..21 cannot be used
	 * (bc_filter.h: k <= 0 answers "present" for every key, k > 21 fails
	 * Cassandra's lookup).
	 */
	if (k < BC_MIN_HASH_COUNT || k > BC_MAX_HASH_COUNT)
		return BC_ERR_HASH_COUNT;
	/* OffHeapBitSet.deserialize allocates readInt() * 8 bytes: a negative
	 * count fails; an empty filter is one no writer makes (sizing gives at
	 * least one word) and answers nothing */
	if (w <= 0)
		return BC_ERR_WORD_COUNT;
	/* OffHeapBitSet.deserialize reads 8 * w bytes (EOF before) and ignores
	 * any after them; refused here all the same: the image is stored and
	 * exported whole, and a header that does not match its file is a
	 * damaged or misnamed Filter.db whose answers would be wrong */
	if ((uint64_t) (len - BC_FILTERDB_HEADER) < (uint64_t) w * 8)
		return BC_ERR_TRUNCATED;
	if ((uint64_t) (len - BC_FILTERDB_HEADER) > (uint64_t) w * 8)
		return BC_ERR_TRAILING;
	/* not a reader's rule: PostgreSQL's 1 GB value limit */
	if ((int64_t) w > max_words)
		return BC_ERR_EXCEEDS_VALUE_LIMIT;
	*hash_count = k;
	*word_count = w;
	return BC_OK;
}

void
bc_payload_convert(uint8_t *dst, const uint8_t *src, int64_t nwords,
				   bc_layout from, bc_layout to)
{
	int64_t		i;

	if (from == to)
	{
		if (dst != src)
			memcpy(dst, src, (size_t) nwords * 8);
		return;
	}
	/*
	 * raw <-> swapped: reverse each aligned group of 8 bytes (in place ok:
	 * a group is read whole before it is written).  Read little-endian and
	 * written big-endian, a group is one load, one byte swap and one store
	 * (compilers recognise the shifts), five times faster than byte by byte.
	 */
	for (i = 0; i < nwords; i++)
		bc_put_be64(dst + 8 * i, bc_get_le64(src + 8 * i));
}

void
bc_filterdb_write(const bc_filter *f, bc_layout layout, uint8_t *out)
{
	bc_put_be32(out, (uint32_t) f->hash_count);
	bc_put_be32(out + 4, (uint32_t) f->word_count);
	bc_payload_convert(out + BC_FILTERDB_HEADER, f->bits, f->word_count,
					   BC_LAYOUT_RAW, layout);
}

const char *
bc_order_name(bc_order o)
{
	return o == BC_ORDER_OLD ? "old" : "new";
}

const char *
bc_layout_name(bc_layout l)
{
	return l == BC_LAYOUT_SWAPPED ? "swapped" : "raw";
}

/*
 * Known SSTable versions whose filter is murmur3 (Cassandra 1.2 and later).
 * "bti" marks trie-indexed formats (named <v>-<gen>-bti-*).
 */
typedef struct version_info
{
	const char *version;
	int			bti;
	bc_order	order;
	bc_layout	layout;
} version_info;

static const version_info versions[] = {
	/* Cassandra 1.2 - 2.2 (big): old order, swapped payload */
	{"ia", 0, BC_ORDER_OLD, BC_LAYOUT_SWAPPED},
	{"ib", 0, BC_ORDER_OLD, BC_LAYOUT_SWAPPED},
	{"ic", 0, BC_ORDER_OLD, BC_LAYOUT_SWAPPED},
	{"ja", 0, BC_ORDER_OLD, BC_LAYOUT_SWAPPED},
	{"jb", 0, BC_ORDER_OLD, BC_LAYOUT_SWAPPED},
	{"ka", 0, BC_ORDER_OLD, BC_LAYOUT_SWAPPED},
	{"la", 0, BC_ORDER_OLD, BC_LAYOUT_SWAPPED},
	{"lb", 0, BC_ORDER_OLD, BC_LAYOUT_SWAPPED},
	/* Cassandra 3.0 / 3.11: new order, swapped payload */
	{"ma", 0, BC_ORDER_NEW, BC_LAYOUT_SWAPPED},
	{"mb", 0, BC_ORDER_NEW, BC_LAYOUT_SWAPPED},
	{"mc", 0, BC_ORDER_NEW, BC_LAYOUT_SWAPPED},
	{"md", 0, BC_ORDER_NEW, BC_LAYOUT_SWAPPED},
	{"me", 0, BC_ORDER_NEW, BC_LAYOUT_SWAPPED},
	/*
	 * ScyllaDB's own versions after me, named <v>-<gen>-big-* (ScyllaDB has
	 * only the big format name) but indexed by Partitions.db/Rows.db tries:
	 * their Filter.db is me's (utils::filter_format::m_format, the bitset's
	 * words written big-endian): scylladb/scylladb sstables/version.hh,
	 * sstables/sstables.cc get_filter_format() and has_summary_and_index().
	 */
	{"ms", 0, BC_ORDER_NEW, BC_LAYOUT_SWAPPED},
	{"mt", 0, BC_ORDER_NEW, BC_LAYOUT_SWAPPED},
	/* Cassandra 4.0 - 5.0: new order, raw payload */
	{"na", 0, BC_ORDER_NEW, BC_LAYOUT_RAW},
	{"nb", 0, BC_ORDER_NEW, BC_LAYOUT_RAW},
	{"nc", 0, BC_ORDER_NEW, BC_LAYOUT_RAW},
	{"oa", 0, BC_ORDER_NEW, BC_LAYOUT_RAW},
	/* trie-indexed: Cassandra 5.0 BTI, DataStax bb */
	{"da", 1, BC_ORDER_NEW, BC_LAYOUT_RAW},
	{"bb", 1, BC_ORDER_NEW, BC_LAYOUT_RAW},

	/*
	 * DataStax's other trie-indexed versions, read as DataStax's own reader
	 * reads them (driftx/ds-cassandra at 5ea584d384f18ca75f3e1dd3c9c3d7237848392b,
	 * the commit the reference SSTables come from):
	 *   - TrieIndexFormat.TrieIndexVersion: hasOldBfFormat is
	 *     version < "b", so aa, ac, ad have the old serialization and ba and
	 *     later the new one;
	 *   - utils/BloomFilterSerializer.deserialize(in, oldBfFormat) and
	 *     utils/obs/OffHeapBitSet.deserialize: BE32 hash count, BE32 word
	 *     count, then the words as big-endian longs when oldBfFormat (our
	 *     swapped layout), else the bitset's bytes as they are in memory
	 *     (little-endian longs, our raw layout);
	 *   - utils/BloomFilter.indexes: setIndexes(hash[1], hash[0]) for every
	 *     version (our new order);
	 *   - utils/FilterFactory.getFilter(n, fp) and BloomCalculations: one
	 *     sizing for every version, n * buckets + 20 bits (BITSET_EXCESS).
	 * ab (a pre-release 6.8 name, which TrieIndexVersion.mapAb reads as ba)
	 * and the one-letter b are never written by a release: not read.
	 */
	{"aa", 1, BC_ORDER_NEW, BC_LAYOUT_SWAPPED},
	{"ac", 1, BC_ORDER_NEW, BC_LAYOUT_SWAPPED},
	{"ad", 1, BC_ORDER_NEW, BC_LAYOUT_SWAPPED},
	{"ba", 1, BC_ORDER_NEW, BC_LAYOUT_RAW},
	{"ca", 1, BC_ORDER_NEW, BC_LAYOUT_RAW},
	{"cb", 1, BC_ORDER_NEW, BC_LAYOUT_RAW},
	{"cc", 1, BC_ORDER_NEW, BC_LAYOUT_RAW},

	/*
	 * Cassandra 6.0 (apache/cassandra trunk, BigFormat.BigVersion and
	 * BtiFormat.BtiVersion at 044d9fcc986a4fdf1227be5e83a126c03ea1a393):
	 * pa, pb (big) and ea, eb (bti).  hasOldBfFormat is version < "na" for
	 * big and false for bti, and BloomFilter has one hash order: oa's and
	 * da's filter.
	 */
	{"pa", 0, BC_ORDER_NEW, BC_LAYOUT_RAW},
	{"pb", 0, BC_ORDER_NEW, BC_LAYOUT_RAW},
	{"ea", 1, BC_ORDER_NEW, BC_LAYOUT_RAW},
	{"eb", 1, BC_ORDER_NEW, BC_LAYOUT_RAW},
};

static const version_info *
find_version(const char *v, size_t len)
{
	size_t		i;

	if (len != 2)
		return NULL;
	for (i = 0; i < sizeof(versions) / sizeof(versions[0]); i++)
		if (v[0] == versions[i].version[0] && v[1] == versions[i].version[1])
			return &versions[i];
	return NULL;
}

/*
 * A well-formed version name that is not murmur3-filtered or out of scope:
 * pre-1.2 (a..hf: SHA or Murmur2 filters), and the a* and b* names
 * DataStax's TrieIndexVersion does not write (ab, a pre-release name, and
 * any later a* or b* letter).  The versions it writes are in the table
 * above, with the classes their rules come from.
 */
static int
is_other_version(const char *v, size_t len)
{
	if (len == 1)
		return v[0] >= 'a' && v[0] <= 'h';
	if (len != 2 || v[0] < 'a' || v[0] > 'z' || v[1] < 'a' || v[1] > 'z')
		return 0;
	return (v[0] >= 'f' && v[0] <= 'h') ||
		(v[0] == 'a' || v[0] == 'b');
}

bc_status
bc_version_lookup(const char *version, size_t len, bc_order *order, bc_layout *layout)
{
	const version_info *vi = find_version(version, len);

	if (vi == NULL)
		return is_other_version(version, len) ? BC_ERR_VERSION_UNSUPPORTED :
			BC_ERR_VERSION_UNKNOWN;
	*order = vi->order;
	*layout = vi->layout;
	return BC_OK;
}

static int
all_digits(const char *s, size_t len)
{
	size_t		i;

	if (len == 0)
		return 0;
	for (i = 0; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

/* Generation of a 4.1+ name may be a time-based id like 3gxx_0n2c_2qfn... */
static int
is_generation(const char *s, size_t len)
{
	size_t		i;

	if (len == 0)
		return 0;
	for (i = 0; i < len; i++)
	{
		char		c = s[i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '_'))
			return 0;
	}
	return 1;
}

#define SUFFIX "-Filter.db"
#define MAX_PARTS 6

bc_status
bc_file_name_lookup(const char *name, size_t len, char version_out[3],
					bc_order *order, bc_layout *layout)
{
	const char *base = name;
	size_t		blen,
				i,
				suflen = sizeof(SUFFIX) - 1;
	const char *part[MAX_PARTS];
	size_t		plen[MAX_PARTS];
	int			nparts = 0;
	const char *ver;
	size_t		verlen;
	int			bti = 0;
	const version_info *vi;

	/* basename */
	for (i = 0; i < len; i++)
		if (name[i] == '/')
			base = name + i + 1;
	blen = len - (size_t) (base - name);
	if (blen <= suflen || memcmp(base + blen - suflen, SUFFIX, suflen) != 0)
		return BC_ERR_FILE_NAME;
	blen -= suflen;

	/* split the stem on '-' */
	part[0] = base;
	for (i = 0; i < blen; i++)
	{
		if (base[i] == '-')
		{
			plen[nparts] = (size_t) (base + i - part[nparts]);
			if (++nparts == MAX_PARTS)
				return BC_ERR_FILE_NAME;
			part[nparts] = base + i + 1;
		}
	}
	plen[nparts] = (size_t) (base + blen - part[nparts]);
	nparts++;

	if (nparts == 3 && is_generation(part[1], plen[1]))
	{
		/* <version>-<generation>-<format>: Cassandra 2.2 and later */
		if (plen[2] == 3 && memcmp(part[2], "big", 3) == 0)
			bti = 0;
		else if (plen[2] == 3 && memcmp(part[2], "bti", 3) == 0)
			bti = 1;
		else
			return BC_ERR_FILE_NAME;
		ver = part[0];
		verlen = plen[0];
	}
	else if (nparts == 4 && all_digits(part[3], plen[3]) &&
			 plen[0] > 0 && plen[1] > 0)
	{
		/* <keyspace>-<table>-<version>-<generation>: up to Cassandra 2.1 */
		ver = part[2];
		verlen = plen[2];
	}
	else
		return BC_ERR_FILE_NAME;

	vi = find_version(ver, verlen);
	if (vi == NULL)
		return is_other_version(ver, verlen) ? BC_ERR_VERSION_UNSUPPORTED :
			BC_ERR_VERSION_UNKNOWN;
	if (vi->bti != bti)
		return BC_ERR_FORMAT_MISMATCH;
	version_out[0] = vi->version[0];
	version_out[1] = vi->version[1];
	version_out[2] = '\0';
	*order = vi->order;
	*layout = vi->layout;
	return BC_OK;
}
