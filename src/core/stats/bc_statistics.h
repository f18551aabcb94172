/*
 * bc_statistics.h - the reader of an SSTable's Statistics.db
 * (bc_statistics.c; Cassandra's MetadataSerializer, SSTableMetadata before
 * 2.1): partitioner, fp_chance, partition count and partition key type.
 */
#ifndef BC_STATISTICS_H
#define BC_STATISTICS_H

#include <stddef.h>
#include <stdint.h>

#include "bc_status.h"

/*
 * An EstimatedHistogram as stored (EstimatedHistogramSerializer): n
 * entries of a BE64 offset and a BE64 count each, at entries; n == 0 when
 * absent.  Its buckets and offsets are read by bc_histogram.h.
 */
typedef struct bc_est_histogram
{
	const uint8_t *entries;
	uint32_t	n;
} bc_est_histogram;

/*
 * The tombstone drop time histogram as stored: n bins at bins, each a
 * point (local deletion time, seconds) and a count; wide: BE64 point and
 * BE32 count (TombstoneHistogram.HistogramSerializer, hasUIntDeletionTime:
 * oa, da), else a double point and a BE64 count (StreamingHistogram,
 * TombstoneHistogram.LegacyHistogramSerializer).
 */
typedef struct bc_tomb_histogram
{
	const uint8_t *bins;
	uint32_t	n;
	int			wide;
} bc_tomb_histogram;

/* a counted list of stored items, walked by bc_stats_list_next */
typedef enum bc_stats_list_kind
{
	BC_SL_SHORT_BYTES,			/* BE16 length + bytes (legacy min/max) */
	BC_SL_VSTRING,				/* vint length + bytes (type names) */
	BC_SL_VCOLUMN				/* vint name, vint type (header columns) */
} bc_stats_list_kind;

typedef struct bc_stats_list
{
	const uint8_t *p;			/* the first item */
	const uint8_t *end;			/* the component's end */
	uint32_t	n;
	bc_stats_list_kind kind;
	int			present;
} bc_stats_list;

/*
 * A clustering bound of the improved min/max (Slice.serializer, nc and
 * later, BTI ba and later): its kind byte, its size and its values, read
 * with the clustering types of types (bc_stats_bound_next).
 */
typedef struct bc_stats_bound
{
	int			kind;
	uint32_t	size;
	const uint8_t *values;
	const uint8_t *end;
} bc_stats_bound;

/*
 * What bc_statistics_parse reads from a Statistics.db.  The strings point
 * into the caller's input (not NUL-terminated) and are printable ASCII.
 * Each has_* says the version stores the fact (and, for the deletion
 * times, that it is not "no deletion"): never a made-up value.
 */
typedef struct bc_statistics
{
	const uint8_t *partitioner; /* partitioner class name */
	size_t		partitioner_len;
	int			has_fp_chance;	/* 1 from ja on: fp_chance is stored */
	double		fp_chance;		/* bloom_filter_fp_chance, in (0, 1] */
	int64_t		partitions;		/* total of the partition size histogram */
	const uint8_t *size_histogram;	/* its size_histogram_n entries, BE64
									 * offset and BE64 count each
									 * (EstimatedHistogramSerializer) */
	uint32_t	size_histogram_n;
	const uint8_t *key_type;	/* ma and later: partition key type, as
								 * AbstractType.toString() (may be empty:
								 * BytesType to Cassandra); else NULL */
	size_t		key_type_len;
	int			checksummed;	/* 1 when CRC32s were verified (na+, BTI) */

	/* StatsMetadata (SSTableMetadata before 2.1): bc_statistics_stats.c */
	int			has_stats_detail;	/* the fields below were read */
	bc_est_histogram partition_sizes;
	bc_est_histogram column_counts;
	bc_tomb_histogram tombstones;
	int			has_min_timestamp;
	int64_t		min_timestamp;	/* microseconds, as written */
	int			has_max_timestamp;
	int64_t		max_timestamp;
	int			has_min_ldt;	/* min local deletion time, seconds */
	int64_t		min_ldt;
	int			has_max_ldt;
	int64_t		max_ldt;
	int			has_ttl;		/* min and max TTL (ma and later) */
	int32_t		min_ttl;
	int32_t		max_ttl;
	int			has_compression_ratio;
	double		compression_ratio;
	int			has_level;
	int32_t		sstable_level;
	int			has_repaired_at;
	int64_t		repaired_at;
	int			stores_pending_repair;	/* na+: pending_repair NULL or not */
	const uint8_t *pending_repair;	/* 16 bytes (a TimeUUID) or NULL */
	int			has_is_transient;
	int			is_transient;
	int			stores_host_id;
	const uint8_t *originating_host_id; /* 16 bytes or NULL */
	int			has_rows;		/* total rows, total columns set (ma+) */
	int64_t		total_rows;
	int64_t		total_columns_set;
	int			has_counter_shards;
	int			has_legacy_counter_shards;
	int			has_token_space_coverage;
	double		token_space_coverage;
	int			has_pld;		/* the partition level deletions marker */
	int			has_partition_level_deletions;
	const uint8_t *clog_upper;	/* CommitLogPosition (BE64 segment, BE32
								 * position): the replay position */
	const uint8_t *clog_lower;	/* lb, mb and later; else NULL */
	const uint8_t *clog_intervals;	/* mc and later: clog_interval_n pairs
									 * of positions, 24 bytes each */
	uint32_t	clog_interval_n;
	bc_stats_list legacy_min;	/* min / max column names or clustering
								 * values (ja .. nc) */
	bc_stats_list legacy_max;
	bc_stats_list clustering_types; /* improved min/max (nc+, BTI ba+) */
	int			has_bounds;
	bc_stats_bound min_bound;
	bc_stats_bound max_bound;
	const uint8_t *first_key;	/* the key range (nc and later, da) */
	size_t		first_key_len;
	const uint8_t *last_key;
	size_t		last_key_len;

	/* CompactionMetadata (ka and later): the cardinality estimator's bytes
	 * as stored (ByteBufferUtil.readWithLength), read by bc_hll.h */
	int			has_estimator;
	const uint8_t *estimator;
	size_t		estimator_len;
	int			scylla_version; /* a version ScyllaDB writes too (ka, la,
								 * mc, md, me, ms, mt) */

	/* SerializationHeader (ma and later): bc_statistics_fields.c */
	int			has_encoding_stats;
	int64_t		enc_min_timestamp;
	int			has_enc_min_ldt;	/* 0 too when "no deletion" */
	int64_t		enc_min_ldt;
	int32_t		enc_min_ttl;
	bc_stats_list header_clustering;
	bc_stats_list static_columns;
	bc_stats_list regular_columns;

	/*
	 * BC_OK when every field above was read; else what refused them.  The
	 * facts of cassandra_statistics (partitioner, fp_chance, partition
	 * count, key type) are read whatever this says, as before these fields
	 * were: a file whose later fields no reader can read (4.0 pre-release
	 * na files, a type name bloomcass cannot report) still gives them.
	 * cassandra_metadata refuses such a file with this status.
	 */
	bc_status	detail_status;

	/*
	 * For each metadata type (validation, compaction, stats, header), the
	 * bytes of its component after the last field read: 0 when read to its
	 * last byte; -1 when the version's layout of it is not read to the end
	 * (6.0's mutation tracking, pb and eb).
	 */
	int64_t		tail[4];
} bc_statistics;

/*
 * Parse a whole Statistics.db of the given SSTable version (ia .. oa, da,
 * DataStax's aa .. cc, ScyllaDB's ms and mt).  Versions before ia give
 * BC_ERR_VERSION_UNSUPPORTED, unknown ones BC_ERR_VERSION_UNKNOWN; a
 * malformed file one of the BC_ERR_STATS_* codes.  *out is zeroed unless
 * BC_OK is returned.
 */
bc_status	bc_statistics_parse(const uint8_t *data, size_t len,
								const char *version, size_t version_len,
								bc_statistics *out);

/*
 * The next item of a list: *item (and for BC_SL_VCOLUMN *type) point into
 * the input.  Returns 0 at the end.  The list was bounded by the parse.
 */
int			bc_stats_list_next(bc_stats_list *l, const uint8_t **item, size_t *len,
							   const uint8_t **type, size_t *type_len);

/*
 * The values of a clustering bound, one a call (ClusteringPrefix.serializer.
 * deserializeValuesWithoutSize): a null value sets *is_null, an empty one
 * has length 0.  Returns BC_OK with *got = 0 at the end; a value the bytes
 * or the clustering types cannot give is BC_ERR_STATS_FIELD or
 * BC_ERR_STATS_TRUNCATED (the parse walks every bound once this way, so
 * on a parsed file it does not fail).
 */
typedef struct bc_stats_bound_iter
{
	const uint8_t *p;
	const uint8_t *end;
	uint32_t	i;
	uint32_t	size;
	uint64_t	header;
	bc_stats_list types;
} bc_stats_bound_iter;

void		bc_stats_bound_iter_init(bc_stats_bound_iter *it, const bc_statistics *s,
									 const bc_stats_bound *b);
bc_status	bc_stats_bound_iter_next(bc_stats_bound_iter *it, const uint8_t **value,
									 size_t *len, int *is_null, int *got);

#endif							/* BC_STATISTICS_H */
