/*
 * bc_statistics_fields.h - private to the Statistics.db reader: the
 * versions' layouts and the parsers of each component's fields
 * (bc_statistics_fields.c), called by the table of contents
 * (bc_statistics.c).  Neither the extension nor bloomcass-load includes
 * this header.
 */
#ifndef BC_STATISTICS_FIELDS_H
#define BC_STATISTICS_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "bc_statistics.h"
#include "bc_status.h"

/* Metadata component types (Cassandra's MetadataType ordinals). */
#define BC_MT_VALIDATION	0
#define BC_MT_COMPACTION	1
#define BC_MT_STATS			2
#define BC_MT_HEADER		3

typedef enum bc_stats_kind
{
	BC_SK_LEGACY_12,			/* ia .. ic: SSTableMetadata of 1.2 */
	BC_SK_LEGACY_20,			/* ja, jb: SSTableMetadata of 2.0 */
	BC_SK_TOC,					/* ka .. lb: TOC, no serialization header */
	BC_SK_TOC_HEADER,			/* ma .. me, ms, mt: TOC with header */
	BC_SK_TOC_CRC				/* na and later, BTI: TOC, header, CRC32s */
} bc_stats_kind;

/*
 * A version and what its layout needs.  scylla: ScyllaDB reads (and
 * writes) this version too (ka, la, mc, md, me, ms, mt: its
 * sstables/version.hh), so a field ScyllaDB's parser takes where
 * Cassandra's refuses it is accepted (see bc_statistics_fields.c).
 */
typedef struct bc_stats_version
{
	const char *version;
	bc_stats_kind kind;
	int			scylla;
} bc_stats_version;

/* A bounded reader over [p, end): no parser reads outside it. */
typedef struct bc_stats_cursor
{
	const uint8_t *p;
	const uint8_t *end;
} bc_stats_cursor;

/* The single SSTableMetadata record of ia .. jb, the whole file. */
bc_status	bc_stats_parse_legacy(bc_stats_cursor *c, const bc_stats_version *sv,
								  bc_statistics *out);

/* The components of the table-of-contents layouts (ka and later). */
bc_status	bc_stats_parse_validation(bc_stats_cursor *c, bc_statistics *out);
bc_status	bc_stats_parse_stats(bc_stats_cursor *c, const bc_stats_version *sv,
								 bc_statistics *out);
bc_status	bc_stats_parse_header(bc_stats_cursor *c, bc_statistics *out);

#endif							/* BC_STATISTICS_FIELDS_H */
