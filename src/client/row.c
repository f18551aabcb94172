/*
 * row.c - an SSTable's row, read and checked on the client: the components
 * the INSERT sends (Filter.db, Statistics.db, Summary.db, TOC.txt) read
 * whole, and checked with the core's parsers, the checks of
 * cassandra_sstables, so that a corrupt SSTable is reported with its file
 * before anything is sent.  Where the server has no bytea parser (the
 * Partitions.db footer of BTI SSTables; a BIG SSTable without Summary.db,
 * whose range comes from Index.db) the key range is read here with the
 * core readers and sent with the row.
 */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64

#include <stdlib.h>
#include <string.h>

#include "bc_codec.h"
#include "bc_filter.h"
#include "bc_index.h"
#include "bc_sstable_name.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "bc_summary.h"
#include "load.h"

void
ld_row_free(ld_row *r)
{
	free(r->filter.data);
	free(r->stats.data);
	free(r->summary.data);
	free(r->toc.data);
	free(r->first.data);
	free(r->last.data);
	memset(r, 0, sizeof(*r));
}

int
ld_row_read(const ld_sstable *s, int keys, ld_row *r)
{
	bc_order	order;
	bc_layout	layout;
	bc_index_era era;
	bc_status	rc;

	memset(r, 0, sizeof(*r));
	if (!ld_read_component(s, "Filter.db", LD_MAX_FILTER_BYTES, &r->filter) ||
		!ld_read_component(s, "Statistics.db", LD_MAX_SMALL_BYTES, &r->stats) ||
		!ld_read_component(s, "Summary.db", LD_MAX_SMALL_BYTES, &r->summary) ||
		!ld_read_component(s, "TOC.txt", LD_MAX_SMALL_BYTES, &r->toc))
		return 0;

	/* the checks of cassandra_sstables, here, so that the file is named */
	r->readable = bc_version_lookup(s->version, strlen(s->version), &order, &layout) == BC_OK;
	r->trie = s->format == BC_SSTABLE_BTI ||
		bc_index_era_lookup(s->version, strlen(s->version), &era) == BC_ERR_INDEX_BTI;
	if (!r->readable)
		return 1;
	if (r->filter.present)
	{
		int32_t		hk;
		int64_t		hw;

		rc = bc_filterdb_check(r->filter.data, r->filter.len, BC_MAX_WORDS_VALUE, &hk, &hw);
		if (rc != BC_OK)
		{
			ld_error("%s: Filter.db: %s", s->prefix, bc_status_message(rc));
			return 0;
		}
	}
	if (r->stats.present)
	{
		bc_statistics st;

		rc = bc_statistics_parse(r->stats.data, r->stats.len, s->version, strlen(s->version), &st);
		if (rc != BC_OK)
		{
			ld_error("%s: Statistics.db: %s", s->prefix, bc_status_message(rc));
			return 0;
		}
		r->partitioner = st.partitioner;
		r->partitioner_len = st.partitioner_len;
	}
	if (r->trie)
	{
		if (ld_component_size(s, "Partitions.db") >= 0 &&
			!ld_read_partitions_range(s, &r->first, &r->last))
			return 0;
	}
	else if (r->summary.present)
	{
		bc_summary	sm;

		rc = bc_summary_parse(s->version, strlen(s->version), r->summary.data, r->summary.len, &sm);
		if (rc != BC_OK)
		{
			ld_error("%s: Summary.db: %s", s->prefix, bc_status_message(rc));
			return 0;
		}
		r->summary_range = 1;
	}
	else if (ld_component_size(s, "Index.db") >= 0)
	{
		if (!ld_walk_index(s, NULL, 0, NULL, NULL, &r->first, &r->last))
			return 0;
	}
	/* a trie-indexed SSTable's keys are ordered by its partitioner */
	r->keys = keys && (r->trie ? r->partitioner != NULL && ld_component_size(s, "Partitions.db") >= 0 :
					   ld_component_size(s, "Index.db") >= 0);
	return 1;
}
