/*
 * bc_status.c - the sentence of each status the core returns.
 */
#include "bc_status.h"

const char *
bc_status_message(bc_status st)
{
	switch (st)
	{
		case BC_OK:
			return "success";
		case BC_ERR_FP_INVALID:
			return "fp_chance must be greater than 0 and less than 1";
		case BC_ERR_FP_ALWAYS_PRESENT:
			return "fp_chance 1 means no bloom filter: Cassandra writes no Filter.db";
		case BC_ERR_FP_UNREACHABLE:
			return "fp_chance is below what Cassandra's bloom filter can reach (minimum 6.71e-05)";
		case BC_ERR_N_NEGATIVE:
			return "the number of keys must not be negative";
		case BC_ERR_N_TOO_MANY:
			return "the number of keys is too large: Cassandra's filter for that many keys has too few buckets per key for the fp_chance";
		case BC_ERR_TOO_LARGE:
			return "bloom filter would exceed Cassandra's maximum of 2147483647 words (16 GB)";
		case BC_ERR_EXCEEDS_VALUE_LIMIT:
			return "bloom filter would exceed the 1 GB limit of a PostgreSQL value";
		case BC_ERR_EMPTY:
			return "Filter.db is empty (Cassandra reads a zero-length Filter.db as an always-present filter, which has no bits to store)";
		case BC_ERR_SHORT_HEADER:
			return "Filter.db is shorter than its 8-byte header";
		case BC_ERR_HASH_COUNT:
			return "hash count in the Filter.db header is out of range (1 to 21)";
		case BC_ERR_WORD_COUNT:
			return "word count in the Filter.db header must be positive";
		case BC_ERR_TRUNCATED:
			return "Filter.db is truncated: fewer bitset bytes than its word count says";
		case BC_ERR_TRAILING:
			return "Filter.db has trailing bytes after the bitset its word count says";
		case BC_ERR_VERSION_UNKNOWN:
			return "not a known SSTable version";
		case BC_ERR_VERSION_UNSUPPORTED:
			return "SSTable version has no murmur3 bloom filter bloomcass can read (Cassandra before 1.2, or a DataStax trie version other than aa, ac, ad, ba, bb, ca, cb, cc)";
		case BC_ERR_FILE_NAME:
			return "not a Filter.db file name (expected <version>-<generation>-<big|bti>-Filter.db or <keyspace>-<table>-<version>-<generation>-Filter.db)";
		case BC_ERR_FORMAT_MISMATCH:
			return "SSTable version does not belong to the file name's format (big or bti)";
		case BC_ERR_SHAPE_MISMATCH:
			return "bloom filters differ in hash count, word count or hash order";
		case BC_ERR_ORDER_MISMATCH:
			return "bloom filter's hash order differs from the target SSTable version's";
		case BC_ERR_KEY_TOO_LONG:
			return "partition key component exceeds 65535 bytes";
		case BC_ERR_NUMBER_SYNTAX:
			return "invalid number syntax";
		case BC_ERR_NUMBER_RANGE:
			return "number out of range for Cassandra's varint/decimal";
		case BC_ERR_BUFFER:
			return "output buffer too small";
		case BC_ERR_SSTABLE_NAME:
			return "not an SSTable component file name (expected <version>-<generation>-<big|bti>-<Component> or <keyspace>-<table>-<version>-<generation>-<Component>)";
		case BC_ERR_STATS_TRUNCATED:
			return "Statistics.db is truncated: a field extends past the end of its component";
		case BC_ERR_STATS_TRAILING:
			return "Statistics.db has unexpected bytes after the last field of a component";
		case BC_ERR_STATS_TOC:
			return "Statistics.db table of contents is invalid (component count, type or offset)";
		case BC_ERR_STATS_CHECKSUM:
			return "Statistics.db checksum mismatch: the file is corrupt";
		case BC_ERR_STATS_MISSING:
			return "Statistics.db lacks a required component (validation, stats or serialization header)";
		case BC_ERR_STATS_HISTOGRAM:
			return "Statistics.db partition size histogram is invalid";
		case BC_ERR_STATS_STRING:
			return "Statistics.db holds an empty or non-ASCII class or type name";
		case BC_ERR_STATS_FP_CHANCE:
			return "Statistics.db fp_chance is not a number greater than 0 and at most 1";
		case BC_ERR_STATS_FIELD:
			return "Statistics.db holds an impossible count, length or flag";
		case BC_ERR_INDEX_BTI:
			return "a trie-indexed SSTable (BTI da; DataStax aa to cc; ScyllaDB ms, mt) has no Index.db or Summary.db";
		case BC_ERR_INDEX_TRUNCATED:
			return "Index.db ends inside an entry";
		case BC_ERR_INDEX_LENGTH:
			return "Index.db entry with an impossible position or promoted index size";
		case BC_ERR_INDEX_ORDER:
			return "Index.db positions in Data.db do not increase (not an Index.db, or garbage after its end)";
		case BC_ERR_INDEX_KEY_ORDER:
			return "Index.db partition keys are out of the partitioner's order (a key sorts before the one above it)";
		case BC_ERR_INDEX_SAMPLE:
			return "Index.db entry runs over the start of an entry that Summary.db samples, whose key is there: a key length or promoted index size in Index.db is damaged, or Summary.db points inside an entry";
		case BC_ERR_INDEX_FIRST_POSITION:
			return "Index.db's first entry does not give Data.db position 0, where the first partition starts";
		case BC_ERR_CURSOR_STATE:
			return "Index.db cursor used out of turn (chunk fed before the previous one was read, or after an error)";
		case BC_ERR_SUMMARY_TRUNCATED:
			return "Summary.db ends before its last key";
		case BC_ERR_SUMMARY_FORMAT:
			return "Summary.db header, offsets or key lengths are impossible";
		case BC_ERR_SUMMARY_TRAILING:
			return "Summary.db has bytes after its last key";
		case BC_ERR_SUMMARY_INDEX:
			return "Summary.db does not match Index.db: a sampled position lies past the end of Index.db or not at the sampled key";
		case BC_ERR_TXN_RECORD:
			return "not a transaction log record";
		case BC_ERR_PARTITIONS_TRUNCATED:
			return "Partitions.db is shorter than its 24-byte footer, or its first or last key runs into the footer";
		case BC_ERR_PARTITIONS_FORMAT:
			return "Partitions.db footer is impossible (key offset, trie root or key count), or its keys contradict its key count";
		case BC_ERR_PARTITIONS_TRAILING:
			return "Partitions.db has bytes between its last key and its footer";
		case BC_ERR_PARTITIONS_KEYS_SPAN:
			return "Partitions.db has more bytes between its trie and its footer than its first and last key can take";
		case BC_ERR_READ:
			return "the file could not be read";
		case BC_ERR_STOPPED:
			return "stopped before the end of the file";
		case BC_ERR_COMPRESSION_TRUNCATED:
			return "CompressionInfo.db is truncated: a field extends past its end";
		case BC_ERR_COMPRESSION_FORMAT:
			return "CompressionInfo.db holds an impossible chunk length, option count, chunk count or data length";
		case BC_ERR_COMPRESSION_UNSUPPORTED:
			return "Data.db is compressed with a compressor bloomcass cannot read";
		case BC_ERR_COMPRESSION_DICTIONARY:
			return "CompressionInfo.db holds a damaged or incomplete compression dictionary";
		case BC_ERR_COMPRESSION_CHUNK:
			return "CompressionInfo.db chunk offsets are out of order, run past Data.db, or do not cover the data length";
		case BC_ERR_COMPRESSION_CHECKSUM:
			return "Data.db chunk checksum mismatch: the file is corrupt";
		case BC_ERR_COMPRESSION_CORRUPT:
			return "Data.db chunk does not decompress to its length: the file is corrupt";
		case BC_ERR_COMPRESSION_LIMIT:
			return "CompressionInfo.db chunk length needs chunk buffers larger than bloomcass's limit (512 MiB)";
		case BC_ERR_COMPRESSION_DICT_KIND:
			return "CompressionInfo.db holds an invalid compression dictionary kind (the byte after the chunk offsets)";
		case BC_ERR_COMPRESSION_DICT_CHECKSUM:
			return "CompressionInfo.db's compression dictionary does not match its CRC32C checksum: the file is corrupt";
		case BC_ERR_COMPRESSION_DICT_MISMATCH:
			return "Data.db chunk was compressed with another zstd dictionary than the one CompressionInfo.db holds: one of the two files is corrupt";
		case BC_ERR_COMPRESSION_DATA_LENGTH:
			return "CompressionInfo.db declares a data length larger than its chunks can hold (chunk count times chunk length)";
		case BC_ERR_TRIE_TRUNCATED:
			return "a Partitions.db trie node or its payload runs past the end of the trie";
		case BC_ERR_TRIE_POINTER:
			return "a Partitions.db trie node points to itself or before the start of the file";
		case BC_ERR_TRIE_NODE:
			return "impossible Partitions.db trie node (no children and no payload, or transitions out of order)";
		case BC_ERR_TRIE_DEPTH:
			return "Partitions.db trie deeper than the reader's stack";
		case BC_ERR_TRIE_COUNT:
			return "Partitions.db trie has another number of keys than its footer";
		case BC_ERR_TRIE_POSITION:
			return "a Partitions.db key position, or the key there, lies past the end of Rows.db or Data.db";
		case BC_ERR_TRIE_KEY:
			return "the key at a Partitions.db position does not match the trie, or keys out of order";
		case BC_ERR_TRIE_HASH:
			return "a Partitions.db leaf's hash byte does not match the key at its position";
		case BC_ERR_TRIE_ENCODING:
			return "ScyllaDB ms encodes partition keys by column type in Partitions.db: no lookup without the table's schema";
		case BC_ERR_PARTITION_POSITION:
			return "a partition's position in Data.db is before the previous partition's or past the end of the uncompressed data";
		case BC_ERR_CQL_TYPE:
			return "not a Cassandra marshal type string bloomcass knows (a class of org.apache.cassandra.db.marshal with its parameters)";
		case BC_ERR_CQL_UNSUPPORTED:
			return "a Cassandra marshal type bloomcass cannot read values of";
		case BC_ERR_CQL_VALUE:
			return "the bytes are not a value of the key type";
		case BC_ERR_CQL_SYNTAX:
			return "the text is not a value of the key type";
		case BC_ERR_HLL_TRUNCATED:
			return "Statistics.db cardinality estimator is truncated: a field extends past the estimator's end";
		case BC_ERR_HLL_FORMAT:
			return "Statistics.db cardinality estimator is not one stream-lib's HyperLogLogPlus reads (a negative size, an impossible precision, a varint too long, or a register outside its set)";
		case BC_ERR_HLL_UNSUPPORTED:
			return "Statistics.db cardinality estimator has a precision bloomcass does not read (Cassandra writes p = 13; bias correction is read for 13, precisions up to 18)";
		case BC_STATUS_COUNT:
			break;
	}
	return "unknown bloomcass status";
}
