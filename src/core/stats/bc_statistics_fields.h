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

/*
 * What a version's StatsMetadata holds: Cassandra 5.0's BigFormat.BigVersion
 * and BtiFormat.BtiVersion (and trunk's for 6.0), version strings compared
 * as Java's String.compareTo compares two letters.
 */
typedef struct bc_stats_flags
{
	int			bti;			/* a trie-indexed version (a*, b*, c*, d*, e*) */
	int			datastax;		/* DataStax's aa .. cc */
	int			commit_log_lower_bound; /* hasCommitLogLowerBound: lb, mb+ */
	int			commit_log_intervals;	/* hasCommitLogIntervals: mc+ */
	int			legacy_min_max; /* hasLegacyMinMax: m*, n* */
	int			improved_min_max;	/* hasImprovedMinMax: nc+, BTI ba+ */
	int			pending_repair; /* hasPendingRepair, hasIsTransient: na+ */
	int			host_id;		/* hasOriginatingHostId: me+, nb+ */
	int			pld_marker;		/* hasPartitionLevelDeletionsPresenceMarker */
	int			key_range;		/* hasKeyRange: nc+, da+ */
	int			uint_time;		/* hasUIntDeletionTime: oa+, da+ */
	int			token_space;	/* hasTokenSpaceCoverage: oa+, da+ */
} bc_stats_flags;

static inline int
bc_sv_at_least(const char *v, const char *than)
{
	return v[0] > than[0] || (v[0] == than[0] && v[1] >= than[1]);
}

static inline void
bc_stats_flags_of(const char *v, bc_stats_flags *f)
{
	int			bti = v[0] >= 'a' && v[0] <= 'e';
	int			ds = bti && (v[0] == 'a' || v[0] == 'b' || v[0] == 'c');

	f->bti = bti;
	f->datastax = ds;
	if (bti)
	{
		/* BtiVersion; the DataStax versions' fields after the pending
		 * repair are their own (bc_statistics_stats.c, read_dse_fields) */
		f->commit_log_lower_bound = f->commit_log_intervals = f->pending_repair = 1;
		f->legacy_min_max = !bc_sv_at_least(v, "ba");
		f->improved_min_max = bc_sv_at_least(v, "ba");
		f->host_id = bc_sv_at_least(v, "ca") || (v[0] == 'a' && v[1] >= 'd') ||
			(v[0] == 'b' && v[1] >= 'b');
		f->pld_marker = bc_sv_at_least(v, "ba");
		f->key_range = f->uint_time = f->token_space = bc_sv_at_least(v, "da");
		return;
	}
	f->commit_log_lower_bound = bc_sv_at_least(v, "mb") || (v[0] == 'l' && v[1] == 'b');
	f->commit_log_intervals = bc_sv_at_least(v, "mc");
	f->legacy_min_max = v[0] == 'm' || v[0] == 'n';
	f->pending_repair = bc_sv_at_least(v, "na");
	f->host_id = bc_sv_at_least(v, "nb") || (v[0] == 'm' && v[1] >= 'e');
	f->improved_min_max = f->pld_marker = f->key_range = bc_sv_at_least(v, "nc");
	f->uint_time = f->token_space = bc_sv_at_least(v, "oa");
}

/* The single SSTableMetadata record of ia .. jb, the whole file. */
bc_status	bc_stats_parse_legacy(bc_stats_cursor *c, const bc_stats_version *sv,
								  bc_statistics *out);

/* The components of the table-of-contents layouts (ka and later). */
bc_status	bc_stats_parse_validation(bc_stats_cursor *c, bc_statistics *out);
bc_status	bc_stats_parse_header(bc_stats_cursor *c, const bc_stats_version *sv,
								  bc_statistics *out);

/* StatsMetadata and CompactionMetadata of ka and later: bc_statistics_stats.c */
bc_status	bc_stats_parse_stats(bc_stats_cursor *c, const bc_stats_version *sv,
								 bc_statistics *out);
bc_status	bc_stats_parse_compaction(bc_stats_cursor *c, const bc_stats_version *sv,
									  bc_statistics *out);

/* field readers shared with bc_statistics_stats.c (bc_statistics_fields.c) */
bc_status	bc_stats_read_histogram(bc_stats_cursor *c, const bc_stats_version *sv,
									bc_est_histogram *h, int64_t *total);
bc_status	bc_stats_read_size_histogram(bc_stats_cursor *c, const bc_stats_version *sv,
										 bc_statistics *out);
bc_status	bc_stats_read_tombstones(bc_stats_cursor *c, int wide, bc_tomb_histogram *h);
bc_status	bc_stats_read_short_list(bc_stats_cursor *c, bc_stats_list *l);
bc_status	bc_stats_read_type_list(bc_stats_cursor *c, bc_stats_list *l);
void		bc_stats_set_ldt(int *has, int64_t *ldt, uint32_t raw, int uint_time);

#endif							/* BC_STATISTICS_FIELDS_H */
