/*
 * bloomcass_core.h
 *
 * The PostgreSQL-independent core of bloomcass: Apache Cassandra's murmur3
 * x64_128 variant, its double-hashing bit index scheme, its filter sizing
 * (BloomCalculations / FilterFactory), the Filter.db codec for every
 * SSTable version, filter operations and partition key serialization.
 *
 * Plain C99, no PostgreSQL header, no allocation: callers own all memory.
 * Every function that can fail returns a bc_status; bc_status_message()
 * turns it into a sentence.  Nothing here reads or writes out of bounds for
 * any input, whatever its length or contents.
 *
 * The specification followed is doc "Apache Cassandra partition-key bloom
 * filter (Filter.db)", section numbers below (§n) refer to it.
 */
#ifndef BLOOMCASS_CORE_H
#define BLOOMCASS_CORE_H

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------------
 * Status codes
 * ------------------------------------------------------------------------ */
typedef enum bc_status
{
	BC_OK = 0,

	/* sizing (§6) */
	BC_ERR_FP_INVALID,			/* fp_chance NaN, <= 0 or > 1 */
	BC_ERR_FP_ALWAYS_PRESENT,	/* fp_chance == 1: Cassandra writes no filter */
	BC_ERR_FP_UNREACHABLE,		/* below what the probability table can give */
	BC_ERR_N_NEGATIVE,			/* negative key count */
	BC_ERR_TOO_LARGE,			/* word_count > 2^31-1: Cassandra refuses it */
	BC_ERR_EXCEEDS_VALUE_LIMIT, /* fits Cassandra but not a 1 GB value */

	/* Filter.db codec (§5) */
	BC_ERR_EMPTY,				/* zero-length input */
	BC_ERR_SHORT_HEADER,		/* fewer than 8 bytes */
	BC_ERR_HASH_COUNT,			/* k outside [BC_MIN_HASH_COUNT, BC_MAX_HASH_COUNT] */
	BC_ERR_WORD_COUNT,			/* word_count <= 0 */
	BC_ERR_TRUNCATED,			/* fewer payload bytes than 8 * word_count */
	BC_ERR_TRAILING,			/* more bytes than 8 + 8 * word_count */

	/* versions and file names (§2) */
	BC_ERR_VERSION_UNKNOWN,		/* not an SSTable version string */
	BC_ERR_VERSION_UNSUPPORTED, /* a real version whose filter is not murmur3 */
	BC_ERR_FILE_NAME,			/* not a recognisable *-Filter.db name */
	BC_ERR_FORMAT_MISMATCH,		/* e.g. da-1-big: version not of that format */

	/* filter operations */
	BC_ERR_SHAPE_MISMATCH,		/* union/intersection of different filters */
	BC_ERR_ORDER_MISMATCH,		/* export to a version of another hash order */

	/* key serialization (§8) */
	BC_ERR_KEY_TOO_LONG,		/* a composite component > 65535 bytes */
	BC_ERR_NUMBER_SYNTAX,		/* decimal/varint text is not a number */
	BC_ERR_NUMBER_RANGE,		/* scale out of int32, or too many digits */
	BC_ERR_BUFFER,				/* output buffer too small */

	/* SSTable component file names */
	BC_ERR_SSTABLE_NAME,		/* not an SSTable component's file name */

	/* Statistics.db (bc_statistics.c) */
	BC_ERR_STATS_TRUNCATED,		/* a field runs past its component or file */
	BC_ERR_STATS_TRAILING,		/* bytes after a component's last field */
	BC_ERR_STATS_TOC,			/* bad component count, type or offset */
	BC_ERR_STATS_CHECKSUM,		/* CRC32 mismatch (na and later, BTI) */
	BC_ERR_STATS_MISSING,		/* validation, stats or header absent */
	BC_ERR_STATS_HISTOGRAM,		/* bad partition size histogram */
	BC_ERR_STATS_STRING,		/* empty or non-ASCII class or type name */
	BC_ERR_STATS_FP_CHANCE,		/* fp_chance NaN or outside (0, 1] */
	BC_ERR_STATS_FIELD,			/* impossible count, length or flag */

	/* Index.db and Summary.db */
	BC_ERR_INDEX_BTI,			/* a BTI SSTable has no Index.db/Summary.db */
	BC_ERR_INDEX_TRUNCATED,		/* Index.db ends inside an entry */
	BC_ERR_INDEX_LENGTH,		/* impossible position or promoted size */
	BC_ERR_INDEX_ORDER,			/* Data.db positions not increasing */
	BC_ERR_CURSOR_STATE,		/* cursor used out of turn or after an error */
	BC_ERR_SUMMARY_TRUNCATED,	/* Summary.db shorter than it says */
	BC_ERR_SUMMARY_FORMAT,		/* impossible Summary.db header or offsets */
	BC_ERR_SUMMARY_TRAILING,	/* bytes after the last key (ma and later) */

	/* transaction logs (bc_txn_log.c) */
	BC_ERR_TXN_RECORD,			/* not a transaction log record */

	/* Partitions.db of BTI SSTables (bc_partitions.c) */
	BC_ERR_PARTITIONS_TRUNCATED,	/* shorter than its footer, or a key
									 * runs past the footer */
	BC_ERR_PARTITIONS_FORMAT,	/* impossible footer offset, root or count,
								 * or keys that contradict the count */
	BC_ERR_PARTITIONS_TRAILING, /* bytes between the last key and footer */
	BC_ERR_PARTITIONS_KEYS_SPAN,	/* more bytes between the trie and the
									 * footer than two keys can take */

	/* reading through a caller's bc_reader (bc_key_range.c) */
	BC_ERR_READ,				/* the caller's read failed (it knows why) */
	BC_ERR_STOPPED,				/* the caller's callback stopped the walk */

	/* compressed Data.db and CompressionInfo.db (bc_compression.c) */
	BC_ERR_COMPRESSION_TRUNCATED,	/* CompressionInfo.db ends inside a field */
	BC_ERR_COMPRESSION_FORMAT,	/* impossible chunk length, option or
								 * chunk count, or data length */
	BC_ERR_COMPRESSION_UNSUPPORTED, /* a compressor bloomcass cannot read */
	BC_ERR_COMPRESSION_DICTIONARY,	/* ScyllaDB's dictionary parts bad */
	BC_ERR_COMPRESSION_CHUNK,	/* a chunk's offsets out of order, past
								 * Data.db, or no chunk for a position */
	BC_ERR_COMPRESSION_CHECKSUM,	/* a chunk's checksum does not match */
	BC_ERR_COMPRESSION_CORRUPT, /* a chunk does not decompress to its length */

	BC_STATUS_COUNT
} bc_status;

const char *bc_status_message(bc_status st);

/* ------------------------------------------------------------------------
 * Murmur3 (§3)
 * ------------------------------------------------------------------------ */

/* Cassandra's MurmurHash.hash3_x64_128(key, seed 0): tail bytes sign-extended. */
void		bc_murmur3(const void *data, size_t len, int64_t *h1, int64_t *h2);

/* Murmur3Partitioner token: INT64_MIN for an empty key, h1 otherwise with
 * INT64_MIN replaced by INT64_MAX. */
int64_t		bc_token_from_h1(size_t len, int64_t h1);
int64_t		bc_token(const void *data, size_t len);

/* ------------------------------------------------------------------------
 * Versions, hash orders and payload layouts (§2, §4, §5)
 * ------------------------------------------------------------------------ */
typedef enum bc_order
{
	BC_ORDER_NEW = 0,			/* ma and later: base h2, step h1 */
	BC_ORDER_OLD = 1			/* ia .. lb: base h1, step h2 */
} bc_order;

typedef enum bc_layout
{
	BC_LAYOUT_RAW = 0,			/* na and later, bti: bytes LSB-first */
	BC_LAYOUT_SWAPPED = 1		/* up to me: each 8-byte group reversed */
} bc_layout;

const char *bc_order_name(bc_order o);	/* "new" / "old" */
const char *bc_layout_name(bc_layout l);	/* "raw" / "swapped" */

/* Map an SSTable version ("ka", "nb", "da", "bb", ...) to its hash order and
 * payload layout. */
bc_status	bc_version_lookup(const char *version, size_t len,
							  bc_order *order, bc_layout *layout);

/* Map a Filter.db file name or path ("nb-1-big-Filter.db",
 * "ks-cf-ka-5-Filter.db", "/x/y/da-1-bti-Filter.db") to its version (copied
 * into version_out, NUL-terminated, 3 bytes), hash order and layout. */
bc_status	bc_file_name_lookup(const char *name, size_t len, char version_out[3],
								bc_order *order, bc_layout *layout);

/* ------------------------------------------------------------------------
 * Filter shape and bit indexes (§4, §5.1)
 * ------------------------------------------------------------------------ */

/*
 * Accepted hash counts.  Cassandra's sizing only ever produces 1..14.  A
 * k <= 0 makes Cassandra answer "present" for every key (its loop never
 * runs) and k > 21 cannot be queried by Cassandra (its lookup keeps indexes
 * in a 21-entry scratch array), so neither is a usable Filter.db.
 */
#define BC_MIN_HASH_COUNT 1
#define BC_MAX_HASH_COUNT 21

/* Largest word_count Cassandra can write (16 GiB bitset). */
#define BC_MAX_WORDS_CASSANDRA INT64_C(2147483647)

/* Bytes of Filter.db header: BE32 hash_count, BE32 word_count. */
#define BC_FILTERDB_HEADER 8

/*
 * A PostgreSQL value is at most 1 GB - 1 bytes.  A stored filter is the
 * 4-byte varlena length, a 4-byte bloomcass format header, then the
 * Filter.db image; BC_MAX_WORDS_VALUE is the largest word_count for which
 * that (and a bytea export of the Filter.db) still fits.
 */
#define BC_MAX_VALUE_BYTES INT64_C(0x3fffffff)
#define BC_VALUE_PREFIX 8
#define BC_MAX_WORDS_VALUE \
	((BC_MAX_VALUE_BYTES - BC_VALUE_PREFIX - BC_FILTERDB_HEADER) / 8)

/*
 * A filter as the core sees it: header fields plus a bitset of
 * 8 * word_count bytes in raw layout (bit i = byte i >> 3, mask 1 << (i & 7)).
 * The bits are not owned.
 */
typedef struct bc_filter
{
	int32_t		hash_count;
	int64_t		word_count;
	bc_order	order;
	uint8_t    *bits;
	/* set by bc_filter_init: constant for a division-free modulo */
	uint64_t	mod_hi;
	uint64_t	mod_lo;
} bc_filter;

/*
 * Initialize a view (every bc_filter must be set up this way, or with
 * bc_filter_prepare after filling the fields): the index arithmetic uses a
 * precomputed reciprocal of the capacity instead of a 64-bit division.
 */
void		bc_filter_init(bc_filter *f, int32_t hash_count, int64_t word_count,
						   bc_order order, uint8_t *bits);
void		bc_filter_prepare(bc_filter *f);

static inline uint64_t
bc_capacity(const bc_filter *f)
{
	return (uint64_t) f->word_count * 64;
}

/* Bit indexes for (h1, h2); capacity need not be a multiple of 64 here.
 * out receives k values in [0, capacity). capacity must be > 0. */
void		bc_indexes(int64_t h1, int64_t h2, int k, int64_t capacity,
					   bc_order order, int64_t *out);

/* The k bit indexes of (h1, h2) in an initialized filter (its fast path;
 * equal to bc_indexes with capacity 64 * word_count). */
void		bc_filter_indexes(const bc_filter *f, int64_t h1, int64_t h2, uint64_t *out);

void		bc_filter_add_hash(bc_filter *f, int64_t h1, int64_t h2);

/* Add n hashes (h[2*i] = h1, h[2*i+1] = h2): indexes of a batch are
 * computed and their cache lines prefetched before the bits are set. */
void		bc_filter_add_hashes(bc_filter *f, const int64_t *h, size_t n);
int			bc_filter_test_hash(const bc_filter *f, int64_t h1, int64_t h2);
void		bc_filter_add(bc_filter *f, const void *key, size_t len);
int			bc_filter_test(const bc_filter *f, const void *key, size_t len);

/* dst |= src, dst &= src; same hash_count, word_count and order or
 * BC_ERR_SHAPE_MISMATCH (dst untouched). */
bc_status	bc_filter_union(bc_filter *dst, const bc_filter *src);
bc_status	bc_filter_intersect(bc_filter *dst, const bc_filter *src);
int			bc_filter_same_shape(const bc_filter *a, const bc_filter *b);

uint64_t	bc_popcount(const uint8_t *bytes, size_t len);
uint64_t	bc_filter_popcount(const bc_filter *f);

/* (bits_set / capacity) ^ k */
double		bc_fpr_from_fill(uint64_t bits_set, uint64_t capacity, int k);

/* (1 - e^(-k n / capacity)) ^ k */
double		bc_fpr_theoretical(uint64_t n, uint64_t capacity, int k);

/* -(capacity / k) * ln(1 - bits_set / capacity); +inf when saturated. */
double		bc_cardinality_from_fill(uint64_t bits_set, uint64_t capacity, int k);

/* ------------------------------------------------------------------------
 * Sizing (§6)
 * ------------------------------------------------------------------------ */
typedef struct bc_sizing
{
	int			hash_count;		/* k */
	int			buckets_per_element;	/* b */
	int64_t		num_bits;		/* n * b + 20 (wrapping like Java) */
	int64_t		word_count;		/* ceil(num_bits / 64), may exceed 2^31-1
								 * when BC_ERR_TOO_LARGE */
	int64_t		capacity_bits;	/* 64 * word_count */
	int64_t		filter_db_bytes;	/* 8 + 8 * word_count */
} bc_sizing;

/*
 * Cassandra's FilterFactory.getFilter(n, fp_chance).  Fills *out as far as
 * Cassandra gets before it fails: on BC_ERR_TOO_LARGE, hash_count, buckets,
 * num_bits and word_count are set.  fp_chance == 1 gives
 * BC_ERR_FP_ALWAYS_PRESENT (Cassandra writes no Filter.db).
 */
bc_status	bc_sizing_compute(int64_t n, double fp_chance, bc_sizing *out);

/* bc_sizing_compute, then BC_ERR_EXCEEDS_VALUE_LIMIT when the filter would
 * have more than BC_MAX_WORDS_VALUE words. */
bc_status	bc_sizing_for_value(int64_t n, double fp_chance, bc_sizing *out);

/* k and buckets per element for (maxBuckets, fp) as BloomCalculations does. */
bc_status	bc_bloom_spec(int max_buckets, double fp_chance, int *k, int *buckets);

/* The probability table (§6.1): FP[b][j] for 0 <= b <= 20, 0 <= j <= b'
 * (returns -1 outside the table). */
double		bc_fp_table(int buckets, int k);

/* ------------------------------------------------------------------------
 * Filter.db codec (§5)
 * ------------------------------------------------------------------------ */

/*
 * Validate a Filter.db image: 8-byte big-endian header, hash_count within
 * [BC_MIN_HASH_COUNT, BC_MAX_HASH_COUNT], word_count >= 1 and
 * word_count <= max_words, and exactly 8 + 8 * word_count bytes.
 * On success *hash_count and *word_count are set.
 */
bc_status	bc_filterdb_check(const uint8_t *data, size_t len, int64_t max_words,
							  int32_t *hash_count, int64_t *word_count);

/* Copy a payload of nwords words between layouts; dst and src may be equal
 * (in-place conversion) but must not otherwise overlap. */
void		bc_payload_convert(uint8_t *dst, const uint8_t *src, int64_t nwords,
							   bc_layout from, bc_layout to);

/* Write header + payload in the given layout to out (8 + 8W bytes). */
void		bc_filterdb_write(const bc_filter *f, bc_layout layout, uint8_t *out);

/* Size in bytes of a serialized filter with word_count words. */
static inline uint64_t
bc_filterdb_size(int64_t word_count)
{
	return BC_FILTERDB_HEADER + (uint64_t) word_count * 8;
}

/* Big-endian helpers */
static inline uint32_t
bc_get_be32(const uint8_t *p)
{
	return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16) |
		((uint32_t) p[2] << 8) | (uint32_t) p[3];
}

static inline void
bc_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t) (v >> 24);
	p[1] = (uint8_t) (v >> 16);
	p[2] = (uint8_t) (v >> 8);
	p[3] = (uint8_t) v;
}

static inline void
bc_put_be64(uint8_t *p, uint64_t v)
{
	bc_put_be32(p, (uint32_t) (v >> 32));
	bc_put_be32(p + 4, (uint32_t) v);
}

static inline uint64_t
bc_get_be64(const uint8_t *p)
{
	return ((uint64_t) bc_get_be32(p) << 32) | bc_get_be32(p + 4);
}

/*
 * Cassandra's unsigned vint (VIntCoding): the number of leading one bits of
 * the first byte is the number of extra bytes (0 to 8), which follow
 * big-endian after the first byte's remaining bits.
 */
static inline int
bc_uvint_extra(uint8_t first)
{
	int			extra = 0;

	while (extra < 8 && (first & (0x80 >> extra)))
		extra++;
	return extra;
}

/* the value of a vint whose first byte is p[0], extra = bc_uvint_extra(p[0]) */
static inline uint64_t
bc_uvint_decode(const uint8_t *p, int extra)
{
	uint64_t	v = extra == 8 ? 0 : (uint64_t) (p[0] & (0xff >> (extra + 1)));
	int			i;

	for (i = 1; i <= extra; i++)
		v = (v << 8) | p[i];
	return v;
}

/* ------------------------------------------------------------------------
 * Partition key serialization (§8)
 *
 * Fixed-width serializers write into out and return the byte count.
 * Variable-width ones take the output capacity and return a status with
 * *outlen set on success.
 * ------------------------------------------------------------------------ */
size_t		bc_ser_int8(int8_t v, uint8_t out[1]);	/* tinyint */
size_t		bc_ser_int16(int16_t v, uint8_t out[2]);	/* smallint */
size_t		bc_ser_int32(int32_t v, uint8_t out[4]);	/* int */
size_t		bc_ser_int64(int64_t v, uint8_t out[8]);	/* bigint, counter */
size_t		bc_ser_bool(int v, uint8_t out[1]);	/* boolean */
size_t		bc_ser_float(float v, uint8_t out[4]);	/* float: raw bits */
size_t		bc_ser_double(double v, uint8_t out[8]);	/* double: raw bits */
size_t		bc_ser_timestamp_ms(int64_t ms_since_1970, uint8_t out[8]);
size_t		bc_ser_date_days(int32_t days_since_1970, uint8_t out[4]);
size_t		bc_ser_time_ns(int64_t ns_since_midnight, uint8_t out[8]);
size_t		bc_ser_uuid(const uint8_t uuid[16], uint8_t out[16]);

/* inet: 4 or 16 address bytes in network order.  An IPv4-mapped IPv6
 * address (::ffff:a.b.c.d) becomes 4 bytes, as Cassandra's
 * InetAddress.getByName gives.  Returns 0 for another length. */
size_t		bc_ser_inet(const uint8_t *addr, size_t addrlen, uint8_t out[16]);

/* Days since 1970-01-01 of a proleptic Gregorian date. */
int64_t		bc_days_from_civil(int64_t year, int month, int day);

/*
 * varint from a decimal integer string ("-98765432109876543210", optional
 * leading sign, digits only): minimal big-endian two's complement, as
 * BigInteger.toByteArray().
 */
bc_status	bc_ser_varint_text(const char *text, size_t len,
							   uint8_t *out, size_t outcap, size_t *outlen);

/*
 * decimal from a decimal number string as Java's BigDecimal(String) reads
 * it ("1.50", "-0.000001", "1E+3"): BE32 scale, then the unscaled value as
 * varint.
 */
bc_status	bc_ser_decimal_text(const char *text, size_t len,
								uint8_t *out, size_t outcap, size_t *outlen);

/*
 * Composite partition key (§8.2): for each component BE16(len) || bytes ||
 * 0x00.  ncomp components given by pointers and lengths.
 */
size_t		bc_composite_size(const size_t *lens, int ncomp);
bc_status	bc_ser_composite(const uint8_t *const *comps, const size_t *lens,
							 int ncomp, uint8_t *out, size_t outcap, size_t *outlen);

/*
 * SSTable component file names (bc_sstable_name.c): the two namings,
 *   <keyspace>-<table>-[tmp-|tmplink-]<version>-<generation>-<Component>
 *   [tmp-|tmplink-]<version>-<generation>-<big|bti>-<Component>
 * the second with a decimal or a 4.1+ time-UUID (base 36) generation.  The
 * fields point into the name given; keyspace and table are set only by the
 * first naming.  name[0 .. descriptor_len) is the SSTable's common prefix.
 */
typedef enum bc_sstable_format
{
	BC_SSTABLE_BIG = 0,
	BC_SSTABLE_BTI = 1
} bc_sstable_format;

typedef struct bc_sstable_name
{
	const char *keyspace;
	size_t		keyspace_len;
	const char *table;
	size_t		table_len;
	const char *version;
	size_t		version_len;
	const char *generation;
	size_t		generation_len;
	const char *component;
	size_t		component_len;
	size_t		descriptor_len;
	bc_sstable_format format;
	int			legacy;			/* keyspace-table-... (before 2.2) */
	int			temporary;		/* tmp- or tmplink-: still being written */
	int			uuid_generation;	/* a time-UUID identifier */
} bc_sstable_name;

bc_status	bc_sstable_name_parse(const char *name, size_t len, bc_sstable_name *out);

/* the table name of a table folder (<table>, <table>-<32 hex>, <table>-<uuid>) */
bc_status	bc_sstable_table_dir(const char *name, size_t len, size_t *table_len);

/* ------------------------------------------------------------------------
 * Statistics.db (bc_statistics.c)
 * ------------------------------------------------------------------------ */

/*
 * What bc_statistics_parse reads from a Statistics.db.  The strings point
 * into the caller's input (not NUL-terminated) and are printable ASCII.
 */
typedef struct bc_statistics
{
	const uint8_t *partitioner; /* partitioner class name */
	size_t		partitioner_len;
	int			has_fp_chance;	/* 1 from ja on: fp_chance is stored */
	double		fp_chance;		/* bloom_filter_fp_chance, in (0, 1] */
	int64_t		partitions;		/* total of the partition size histogram */
	const uint8_t *key_type;	/* ma and later: partition key type, as
								 * AbstractType.toString(); else NULL */
	size_t		key_type_len;
	int			checksummed;	/* 1 when CRC32s were verified (na+, BTI) */
} bc_statistics;

/*
 * Parse a whole Statistics.db of the given SSTable version (ia .. oa, da,
 * bb, ScyllaDB's ms and mt).  Versions before ia give
 * BC_ERR_VERSION_UNSUPPORTED, unknown ones BC_ERR_VERSION_UNKNOWN; a
 * malformed file one of the BC_ERR_STATS_* codes.  *out is zeroed unless
 * BC_OK is returned.
 */
bc_status	bc_statistics_parse(const uint8_t *data, size_t len,
								const char *version, size_t version_len,
								bc_statistics *out);

/* ------------------------------------------------------------------------
 * Index.db and Summary.db of BIG SSTables (bc_index.c, bc_summary.c)
 *
 * Index.db is a sequence of entries, one per partition in Data.db order:
 * BE16 key length, key, then the Data.db position and the size of the
 * promoted (row) index that follows: BE64 + BE32 for ia .. lb, two
 * unsigned vints for ma and later.  It has no header, count or footer, so
 * a file cut exactly between two entries cannot be told from a complete
 * one; compare the last key with Summary.db's (bc_summary_parse) for that.
 * Trie-indexed SSTables (BTI da, bb, ...; ScyllaDB's ms and mt) have
 * neither file: BC_ERR_INDEX_BTI.
 * ------------------------------------------------------------------------ */
typedef enum bc_index_era
{
	BC_INDEX_ERA_12 = 0,		/* ia ib ic: Summary.db is a list */
	BC_INDEX_ERA_20,			/* ja jb: off-heap summary */
	BC_INDEX_ERA_21,			/* ka la lb: and its sampling level */
	BC_INDEX_ERA_30				/* ma .. oa: vints */
} bc_index_era;

/* ia .. oa; BC_ERR_INDEX_BTI for trie versions (ms, mt too), else as
 * bc_version_lookup. */
bc_status	bc_index_era_lookup(const char *version, size_t len, bc_index_era *era);

#define BC_INDEX_MAX_KEY 65535

typedef struct bc_index_entry
{
	const uint8_t *key;			/* valid until the next call on the cursor */
	size_t		key_len;
	int64_t		position;		/* of the partition in (uncompressed) Data.db */
	int64_t		promoted_size;	/* bytes of row index skipped after it */
	uint64_t	index_offset;	/* of the entry in Index.db */
	uint64_t	ordinal;		/* 0 for the first entry */
} bc_index_entry;

/* Incremental reader; every field is private.  Feed chunks of any size
 * with bc_index_feed, call bc_index_next until *got is 0 (chunk used up),
 * then feed the next one; bc_index_finish at end of file.  An error is
 * final.  About 64 kB: one key that spans chunks is copied here. */
typedef struct bc_index_cursor
{
	bc_index_era era;
	int			state;
	bc_status	error;
	const uint8_t *in;
	size_t		inlen;
	uint64_t	offset;
	uint64_t	entry_offset;
	uint64_t	nkeys;
	int64_t		position;
	int64_t		promoted;
	uint64_t	skip;
	const uint8_t *key;
	size_t		key_len;
	size_t		key_have;
	uint8_t		num[9];
	size_t		num_have;
	size_t		num_need;
	uint8_t		keybuf[BC_INDEX_MAX_KEY];
} bc_index_cursor;

bc_status	bc_index_init(bc_index_cursor *c, const char *version, size_t len);
bc_status	bc_index_feed(bc_index_cursor *c, const uint8_t *data, size_t len);
bc_status	bc_index_next(bc_index_cursor *c, bc_index_entry *e, int *got);
bc_status	bc_index_finish(bc_index_cursor *c);

/* A whole Index.db in memory: fn (may be NULL) gets every entry and stops
 * the walk by returning non-zero; *nkeys counts the entries read. */
bc_status	bc_index_parse(const char *version, size_t vlen,
						   const uint8_t *data, size_t len,
						   int (*fn) (const bc_index_entry *e, void *arg),
						   void *arg, uint64_t *nkeys);

/* Summary.db: the sampled Index.db entries, then the first and last
 * partition keys (every version from ia; before ma more data follows). */
typedef struct bc_summary
{
	bc_index_era era;
	int32_t		min_index_interval;
	int32_t		count;			/* sampled entries */
	int32_t		sampling_level; /* 128 (full) before ka */
	int32_t		size_at_full_sampling;	/* count before ka */
	const uint8_t *first;
	size_t		first_len;
	const uint8_t *last;
	size_t		last_len;
	size_t		tail_len;		/* bytes after the last key (before ma) */
	/* private */
	const uint8_t *data;
	size_t		entries;
	size_t		entries_len;
} bc_summary;

bc_status	bc_summary_parse(const char *version, size_t vlen,
							 const uint8_t *data, size_t len, bc_summary *s);

/* Sampled entry i: its key and the offset of its entry in Index.db. */
bc_status	bc_summary_entry(const bc_summary *s, int32_t i, const uint8_t **key,
							 size_t *key_len, int64_t *index_offset);

/* ------------------------------------------------------------------------
 * Transaction logs of a table folder, 3.0 and later (bc_txn_log.c)
 * ------------------------------------------------------------------------ */
typedef enum bc_txn_type
{
	BC_TXN_ADD = 0,				/* an SSTable the operation writes */
	BC_TXN_REMOVE,				/* an SSTable it replaces */
	BC_TXN_COMMIT,				/* the operation finished */
	BC_TXN_ABORT				/* the operation was abandoned */
} bc_txn_type;

typedef struct bc_txn_record
{
	bc_txn_type type;
	const char *path;			/* ADD, REMOVE: as written (into the line) */
	size_t		path_len;
	const char *base;			/* its last element: the SSTable's prefix */
	size_t		base_len;
} bc_txn_record;

/* One line of a log, without its newline: BC_ERR_TXN_RECORD unless it is a
 * well-formed record. */
bc_status	bc_txn_record_parse(const char *line, size_t len, bc_txn_record *out);

/* 1 when name (a base name) is a transaction log's: <v>_txn_<op>_<id>.log */
int			bc_txn_log_name(const char *name, size_t len);

/*
 * A whole log: sstable(arg, obsolete, base, len) for each SSTable it takes
 * out of the table, the ones it REMOVEs (obsolete = 1) when it committed,
 * else the ones it ADDs (obsolete = 0: temporary); bad_line (may be NULL)
 * for each line that is not a record, except a last line cut short by a
 * crash, which is expected.
 */
void		bc_txn_log_scan(const char *data, size_t len,
							void (*sstable) (void *arg, int obsolete, const char *base, size_t base_len),
							void (*bad_line) (void *arg, long lineno), void *arg);

/* ------------------------------------------------------------------------
 * Partitions.db of BTI SSTables (bc_partitions.c): the footer
 *
 * BTI SSTables (Cassandra's da, DataStax's bb, ScyllaDB's ms and mt) have
 * no Index.db or Summary.db; Partitions.db, a trie of the partition keys,
 * ends with the first and last keys (BE16 length + bytes each) at
 * keys_pos, then BE64 keys_pos, BE64 key_count, BE64 root.  An empty
 * index (key_count 0) has two empty keys.
 * ------------------------------------------------------------------------ */
#define BC_PARTITIONS_FOOTER 24
typedef struct bc_partitions_footer
{
	uint64_t	keys_pos;		/* offset of the first and last keys */
	uint64_t	key_count;		/* partitions */
	uint64_t	root;			/* offset of the trie's root node */
} bc_partitions_footer;

/* tail = the last BC_PARTITIONS_FOOTER bytes of a file of file_len bytes
 * (tail may be NULL when file_len < BC_PARTITIONS_FOOTER); *out is zeroed
 * unless BC_OK is returned. */
bc_status	bc_partitions_footer_parse(const uint8_t *tail, uint64_t file_len, bc_partitions_footer *out);

/* data = bytes [keys_pos, file_len - BC_PARTITIONS_FOOTER) of the file: the two keys; pointers into data */
bc_status	bc_partitions_keys_parse(const uint8_t *data, size_t len, const uint8_t **first, size_t *first_len, const uint8_t **last, size_t *last_len);

/* The keys against the footer's count: none gives two empty keys, one
 * partition the same key twice, more two different keys. */
bc_status	bc_partitions_keys_check(const bc_partitions_footer *f,
									 const uint8_t *first, size_t first_len,
									 const uint8_t *last, size_t last_len);

/* A whole Partitions.db in memory: the three steps above. */
bc_status	bc_partitions_parse(const uint8_t *data, size_t len,
								bc_partitions_footer *footer,
								const uint8_t **first, size_t *first_len,
								const uint8_t **last, size_t *last_len);

/* ------------------------------------------------------------------------
 * Filter health (bc_health.c, bloom_health): a filter against the one
 * Cassandra's sizing gives for an SSTable's real partition count
 * ------------------------------------------------------------------------ */
typedef enum bc_health_verdict
{
	BC_HEALTH_OK = 0,			/* Cassandra's shape, or a rate within tolerance */
	BC_HEALTH_SATURATED,		/* rate above 1.25 x that of Cassandra's filter */
	BC_HEALTH_OVERSIZED,		/* rate below 0.75 x (or bigger, for 0 keys) */
	BC_HEALTH_HASH_COUNT_MISMATCH	/* not the hash count of this fp_chance */
} bc_health_verdict;

/* ScyllaDB's tolerance around the expected rate (scylladb#19190) */
#define BC_HEALTH_TOLERANCE_LOW 0.75
#define BC_HEALTH_TOLERANCE_HIGH 1.25

typedef struct bc_health
{
	bc_sizing	expected;		/* Cassandra's filter for (partitions, fp) */
	int			has_sized_for;	/* some key count gives this filter's shape */
	int64_t		sized_for_min;	/* those key counts, when has_sized_for */
	int64_t		sized_for_max;
	double		fpr_at_partitions;	/* this filter, partitions keys */
	double		expected_fpr;	/* Cassandra's filter, partitions keys */
	double		fill_fpr;		/* (bits_set / capacity) ^ k */
	double		fpr_ratio;		/* fpr_at_partitions / expected_fpr; NaN
								 * when expected_fpr is 0 (no partitions) */
	bc_health_verdict verdict;
} bc_health;

/*
 * Judge a filter (hash_count, word_count, bits_set of its bitset) against
 * Cassandra's sizing for (partitions, fp_chance); the rule is stated in
 * bc_health.c.  The statuses of bc_sizing_compute for (partitions,
 * fp_chance) come first (BC_ERR_TOO_LARGE: Cassandra cannot size a filter
 * for that many keys), then BC_ERR_HASH_COUNT, BC_ERR_WORD_COUNT (< 1) and
 * BC_ERR_TOO_LARGE (more words than Cassandra allows) for the filter.
 * bits_set above the capacity counts as the capacity.
 */
bc_status	bc_health_compute(int32_t hash_count, int64_t word_count, uint64_t bits_set,
							  int64_t partitions, double fp_chance, bc_health *out);

/* The key counts [*min_keys, *max_keys] for which Cassandra's sizing at
 * fp_chance gives this hash count and word count: 1, or 0 when none does
 * (also for an invalid fp_chance or word count). */
int			bc_health_sized_for(int32_t hash_count, int64_t word_count, double fp_chance,
								int64_t *min_keys, int64_t *max_keys);

const char *bc_health_verdict_name(bc_health_verdict v);

/* ------------------------------------------------------------------------
 * Data directories: what a folder says of its SSTables, and their state
 * (bc_sstable_dir.c; the rules of cassandra_sstables and bloomcass-load)
 * ------------------------------------------------------------------------ */
typedef enum bc_sstable_state
{
	BC_STATE_LIVE = 0,
	BC_STATE_TEMPORARY,			/* tmp-/tmplink-, or an unfinished operation's */
	BC_STATE_OBSOLETE,			/* replaced by a committed operation */
	BC_STATE_ORPHANED,			/* components without a Data.db */
	BC_STATE_SNAPSHOT,			/* in <table>/snapshots/<tag>/ */
	BC_STATE_BACKUP				/* in <table>/backups/ */
} bc_sstable_state;

const char *bc_sstable_state_name(bc_sstable_state s);

/* What a folder's path says; the fields point into the path.  table is
 * the table's part of its folder's name (without -<id>), index the
 * secondary index folder's name (".<index>", to append to the table), both
 * NULL when the folder is not a table's; keyspace the folder above it
 * when that is a keyspace name. */
typedef struct bc_folder
{
	const char *keyspace;
	size_t		keyspace_len;
	const char *table;
	size_t		table_len;
	const char *index;
	size_t		index_len;
	const char *snapshot;		/* the tag of a snapshot folder */
	size_t		snapshot_len;
	bc_sstable_state state;		/* LIVE, SNAPSHOT or BACKUP */
} bc_folder;

void		bc_folder_parse(const char *path, size_t len, bc_folder *out);

/*
 * The order in which a folder's component files group by SSTable: by the
 * descriptor (name[0 .. descriptor_len), as bc_sstable_name_parse gives
 * it), then by the rest of the name.
 */
int			bc_sstable_component_cmp(const char *a, size_t a_descriptor_len,
									 const char *b, size_t b_descriptor_len);

/* 1 for a subfolder only inactive SSTables are in (snapshots, backups) */
int			bc_folder_inactive(const char *name, size_t len);

/* An SSTable's state from its folder's, its name (tmp-), the transaction
 * logs beside it and whether it has a Data.db. */
bc_sstable_state bc_sstable_state_of(bc_sstable_state folder_state, int temporary_name,
									 int added_unfinished, int removed_committed,
									 int has_data);

#endif							/* BLOOMCASS_CORE_H */
