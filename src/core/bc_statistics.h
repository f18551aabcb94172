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
	const uint8_t *size_histogram;	/* its size_histogram_n entries, BE64
									 * offset and BE64 count each
									 * (EstimatedHistogramSerializer) */
	uint32_t	size_histogram_n;
	const uint8_t *key_type;	/* ma and later: partition key type, as
								 * AbstractType.toString() (may be empty:
								 * BytesType to Cassandra); else NULL */
	size_t		key_type_len;
	int			checksummed;	/* 1 when CRC32s were verified (na+, BTI) */
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

#endif							/* BC_STATISTICS_H */
