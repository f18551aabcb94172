/*
 * bc_status.h - what every function of the core that can fail returns, and
 * its sentence (bc_status.c).
 *
 * The core (src/core) is plain C99 with no PostgreSQL header and no
 * allocation: callers own all memory.  Nothing in it reads or writes out of
 * bounds for any input, whatever its length or contents.  Each component
 * has its own header, named after the file that implements it; comments
 * name the Cassandra class or method whose behaviour a part reproduces.
 */
#ifndef BC_STATUS_H
#define BC_STATUS_H

typedef enum bc_status
{
	BC_OK = 0,

	/* sizing (FilterFactory.getFilter, BloomCalculations) */
	BC_ERR_FP_INVALID,			/* fp_chance NaN, <= 0 or > 1 */
	BC_ERR_FP_ALWAYS_PRESENT,	/* fp_chance == 1: Cassandra writes no filter */
	BC_ERR_FP_UNREACHABLE,		/* below what the probability table can give */
	BC_ERR_N_NEGATIVE,			/* negative key count */
	BC_ERR_N_TOO_MANY,			/* so many keys that too few buckets per key
								 * remain for fp_chance */
	BC_ERR_TOO_LARGE,			/* word_count > 2^31-1: Cassandra refuses it */
	BC_ERR_EXCEEDS_VALUE_LIMIT, /* fits Cassandra but not a 1 GB value */

	/* Filter.db codec (BloomFilterSerializer) */
	BC_ERR_EMPTY,				/* zero-length input */
	BC_ERR_SHORT_HEADER,		/* fewer than 8 bytes */
	BC_ERR_HASH_COUNT,			/* k outside [BC_MIN_HASH_COUNT, BC_MAX_HASH_COUNT] */
	BC_ERR_WORD_COUNT,			/* word_count <= 0 */
	BC_ERR_TRUNCATED,			/* fewer payload bytes than 8 * word_count */
	BC_ERR_TRAILING,			/* more bytes than 8 + 8 * word_count */

	/* versions and file names (BigFormat, BtiFormat, Descriptor) */
	BC_ERR_VERSION_UNKNOWN,		/* not an SSTable version string */
	BC_ERR_VERSION_UNSUPPORTED, /* a real version whose filter is not murmur3 */
	BC_ERR_FILE_NAME,			/* not a recognisable *-Filter.db name */
	BC_ERR_FORMAT_MISMATCH,		/* e.g. da-1-big: version not of that format */

	/* filter operations */
	BC_ERR_SHAPE_MISMATCH,		/* union/intersection of different filters */
	BC_ERR_ORDER_MISMATCH,		/* export to a version of another hash order */

	/* key serialization (the type serializers, CompositeType) */
	BC_ERR_KEY_TOO_LONG,		/* a composite component > 65535 bytes */
	BC_ERR_NUMBER_SYNTAX,		/* decimal/varint text is not a number */
	BC_ERR_NUMBER_RANGE,		/* scale out of int32, or too many digits */
	BC_ERR_BUFFER,				/* output buffer too small */

	/* SSTable component file names */
	BC_ERR_SSTABLE_NAME,		/* not an SSTable component's file name */

	/* Statistics.db (bc_statistics.c) */
	BC_ERR_STATS_TRUNCATED,		/* a field runs past its component or file */
	BC_ERR_STATS_TRAILING,		/* no longer returned: bytes after a
								 * component's last field are ignored, as
								 * the readers do */
	BC_ERR_STATS_TOC,			/* bad component count, type or offset */
	BC_ERR_STATS_CHECKSUM,		/* CRC32 mismatch (na and later, BTI) */
	BC_ERR_STATS_MISSING,		/* validation, stats or header absent */
	BC_ERR_STATS_HISTOGRAM,		/* bad partition size histogram */
	BC_ERR_STATS_STRING,		/* empty or non-ASCII class or type name */
	BC_ERR_STATS_FP_CHANCE,		/* fp_chance NaN or outside (0, 1] */
	BC_ERR_STATS_FIELD,			/* impossible count or length */

	/* Index.db and Summary.db */
	BC_ERR_INDEX_BTI,			/* a BTI SSTable has no Index.db/Summary.db */
	BC_ERR_INDEX_TRUNCATED,		/* Index.db ends inside an entry */
	BC_ERR_INDEX_LENGTH,		/* impossible position or promoted size */
	BC_ERR_INDEX_ORDER,			/* Data.db positions not increasing */
	BC_ERR_INDEX_KEY_ORDER,		/* keys out of the partitioner's order */
	BC_ERR_INDEX_SAMPLE,		/* an entry runs over the start of an entry
								 * Summary.db samples, its key there */
	BC_ERR_INDEX_FIRST_POSITION,	/* the first entry's Data.db position is
									 * not 0 */
	BC_ERR_CURSOR_STATE,		/* cursor used out of turn or after an error */
	BC_ERR_SUMMARY_TRUNCATED,	/* Summary.db shorter than it says */
	BC_ERR_SUMMARY_FORMAT,		/* impossible Summary.db header or offsets */
	BC_ERR_SUMMARY_TRAILING,	/* no longer returned: bytes after the last
								 * key are ignored, as the readers do */
	BC_ERR_SUMMARY_INDEX,		/* a sample's Index.db position past its
								 * end or not at the sampled key */

	/* transaction logs (bc_txn_log.c) */
	BC_ERR_TXN_RECORD,			/* not a transaction log record */

	/* Partitions.db of BTI SSTables (bc_partitions.c) */
	BC_ERR_PARTITIONS_TRUNCATED,	/* shorter than its footer, or a key
									 * runs past the footer */
	BC_ERR_PARTITIONS_FORMAT,	/* impossible footer offset, root or count,
								 * or keys that contradict the count */
	BC_ERR_PARTITIONS_TRAILING, /* no longer returned: bytes between the
								 * last key and the footer are ignored, as
								 * the readers do */
	BC_ERR_PARTITIONS_KEYS_SPAN,	/* no longer returned (only two keys'
									 * worth of bytes is read) */

	/* reading through a caller's bc_reader (bc_key_range.c) */
	BC_ERR_READ,				/* the caller's read failed (it knows why) */
	BC_ERR_STOPPED,				/* the caller's callback stopped the walk */

	/* compressed Data.db and CompressionInfo.db (bc_compression.c,
	 * bc_compression_chunk.c) */
	BC_ERR_COMPRESSION_TRUNCATED,	/* CompressionInfo.db ends inside a field */
	BC_ERR_COMPRESSION_FORMAT,	/* impossible chunk length, option or
								 * chunk count, or data length */
	BC_ERR_COMPRESSION_UNSUPPORTED, /* a compressor bloomcass cannot read */
	BC_ERR_COMPRESSION_DICTIONARY,	/* ScyllaDB's dictionary parts bad */
	BC_ERR_COMPRESSION_CHUNK,	/* a chunk's offsets out of order, past
								 * Data.db, or no chunk for a position */
	BC_ERR_COMPRESSION_CHECKSUM,	/* a chunk's checksum does not match */
	BC_ERR_COMPRESSION_CORRUPT, /* a chunk does not decompress to its length */
	BC_ERR_COMPRESSION_LIMIT,	/* chunk buffers over BC_DATA_MAX_BUFFERS */
	/* Cassandra 6.0's dictionary after the offsets (bc_compression_dict.c) */
	BC_ERR_COMPRESSION_DICT_KIND,	/* a kind byte no Kind has */
	BC_ERR_COMPRESSION_DICT_CHECKSUM,	/* its CRC32C does not match */
	BC_ERR_COMPRESSION_DICT_MISMATCH,	/* a chunk's zstd frame names another
										 * dictionary than the one stored */
	BC_ERR_COMPRESSION_DATA_LENGTH, /* a data length past chunk count * chunk
									 * length */

	/* the trie of Partitions.db (bc_trie.c) and the keys it leads to
	 * (bc_trie_keys.c) */
	BC_ERR_TRIE_TRUNCATED,		/* a node or its payload runs past the trie */
	BC_ERR_TRIE_POINTER,		/* a child pointer of 0, or past the file's
								 * start */
	BC_ERR_TRIE_NODE,			/* an impossible node: no children and no
								 * payload, transitions out of order */
	BC_ERR_TRIE_DEPTH,			/* deeper than the caller's stack */
	BC_ERR_TRIE_COUNT,			/* leaves and footer count differ */
	BC_ERR_TRIE_POSITION,		/* a leaf's position or its key past
								 * Rows.db or Data.db */
	BC_ERR_TRIE_KEY,			/* the key at a leaf's position does not
								 * match its prefix, or keys out of order */
	BC_ERR_TRIE_HASH,			/* a leaf's hash byte is not its key's */
	BC_ERR_TRIE_ENCODING,		/* keys encoded by type (ScyllaDB ms): no
								 * lookup without the schema */

	/* partition positions and sizes (bc_partition_sizes.c) */
	BC_ERR_PARTITION_POSITION,	/* a partition's Data.db position before the
								 * previous one's or past the data's end */

	/* CQL key values (bc_cqltype.c, bc_cqlvalue_*.c) */
	BC_ERR_CQL_TYPE,			/* not a marshal type string bloomcass knows */
	BC_ERR_CQL_UNSUPPORTED,		/* a real marshal type bloomcass cannot read */
	BC_ERR_CQL_VALUE,			/* bytes that do not decode under the type */
	BC_ERR_CQL_SYNTAX,			/* text that does not parse as the type */

	/* the cardinality estimator of Statistics.db (bc_hll.c) */
	BC_ERR_HLL_TRUNCATED,		/* a field past the estimator's end */
	BC_ERR_HLL_FORMAT,			/* what stream-lib's reader refuses */
	BC_ERR_HLL_UNSUPPORTED,		/* a precision above BC_HLL_MAX_P */

	BC_STATUS_COUNT
} bc_status;

/* A sentence for every status, a different one for each. */
const char *bc_status_message(bc_status st);

#endif							/* BC_STATUS_H */
