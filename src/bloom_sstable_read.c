/*
 * bloom_sstable_read.c - the metadata of one SSTable found by
 * cassandra_sstables(): its filter, what Statistics.db says (partitioner,
 * fp_chance, partition count, key type) and its first and last partition
 * keys (Summary.db, else Index.db, for BIG; the Partitions.db footer for
 * BTI and ScyllaDB's ms and mt).
 *
 * A listing of a node must not stop at one bad SSTable, so every problem
 * with a component (unreadable, malformed, a version bloomcass does not
 * read) is a WARNING naming the file, and the fields that component would
 * have given stay NULL.  Privileges were decided for the folder given to
 * cassandra_sstables (bloom_sstable_dir.c), as pg_read_binary_file decides
 * them for every path below it.
 */
#include "postgres.h"

#include "utils/builtins.h"
#include "utils/expandeddatum.h"

#include "bc_codec.h"
#include "bc_filter.h"
#include "bc_index.h"
#include "bc_key_range.h"
#include "bc_partitions.h"
#include "bc_sstable_name.h"
#include "bc_statistics.h"
#include "bc_status.h"
#include "bc_summary.h"
#include "bloom_sstable.h"

/* what a component gives, for the WARNINGs */
#define FILTER_COLS "filter"
#define STATS_COLS "partitioner, fp_chance, partitions and key_type"
#define RANGE_COLS "first_key and last_key"
#define SUMMARY_COLS NULL		/* Index.db is read next */

/* the largest Statistics.db and Summary.db read (real ones are far smaller) */
#define MAX_STATISTICS_BYTES ((size_t) 64 * 1024 * 1024)
#define MAX_SUMMARY_BYTES ((size_t) 512 * 1024 * 1024)
/* Index.db is read in pieces of this size */
#define INDEX_PIECE ((size_t) 1024 * 1024)

/* whether the SSTable has a component (its size may be unknown, -1: the
 * listing stats only the components whose size or time a row reports) */
static bool
has_component(const bc_walk_sstable *s, const char *component)
{
	int			i;

	for (i = 0; i < s->ncomponents; i++)
		if (strcmp(s->components[i].name, component) == 0)
			return true;
	return false;
}

/*
 * A component's path: the real path of its folder (s->prefix), not checked
 * again against pg_read_binary_file's rule, which the folder given to the
 * listing passed (bloom_sstable_dir.c says why that decides for every file
 * below it).
 */
static char *
component_path(const bc_walk_sstable *s, const char *component)
{
	return psprintf("%s-%s", s->prefix, component);
}

/*
 * The WARNING for a component that gives nothing: the message names the
 * file, the detail gives its whole path and the columns left NULL.  Its
 * SQLSTATE is that of the file error (bloom_file_errcode) when a system
 * call failed (errnum), else 22000: what the component holds is wrong.
 */
static void
warn_component(const char *path, const char *what, const char *columns, int errnum)
{
	const char *base = strrchr(path, '/');
	int			code = errnum != 0 ? bloom_file_errcode(errnum) : ERRCODE_DATA_EXCEPTION;

	if (columns == NULL)
		ereport(WARNING,
				(errcode(code), bloom_file_errhint(errnum),
				 errmsg("skipping %s: %s", base ? base + 1 : path, what),
				 errdetail("The file is \"%s\"; the key range is read from Index.db instead.", path)));
	else
		ereport(WARNING,
				(errcode(code), bloom_file_errhint(errnum),
				 errmsg("skipping %s: %s", base ? base + 1 : path, what),
				 errdetail("The file is \"%s\"; its SSTable is listed with %s NULL.", path, columns)));
}

/*
 * The whole of a component of at most max bytes, or NULL after a WARNING
 * (columns as for warn_component); *path is set either way.
 */
static uint8 *
read_whole(const bc_walk_sstable *s, const char *component, size_t max,
		   const char *columns, char **path, size_t *len)
{
	char	   *err = NULL;
	uint8	   *data;

	*path = component_path(s, component);
	data = bloom_file_read_all(*path, max, len, &err);
	if (data == NULL)
		warn_component(*path, err, columns, errno);
	return data;
}

/*
 * The filter: Filter.db opened and its header checked against its size
 * here, its bits read when the row is formed.  The value is an expanded
 * object (utils/expandeddatum.h) of which heap_form_tuple asks the size,
 * then has it written into the row (flatten_into): the file is read once,
 * straight to where the value goes in the row, with no buffer of its own,
 * no copy and no zeroing of it.  A failure at that point (a read error, or
 * a file that changed length since it was opened) is an ERROR: the row
 * already has its place.
 */
typedef struct FilterFile
{
	ExpandedObjectHeader hdr;
	BloomFile	f;
	size_t		len;			/* the Filter.db image's bytes */
	bc_layout	layout;
	bc_order	order;
} FilterFile;

static Size
filter_file_size(ExpandedObjectHeader *eoh)
{
	return BLOOM_HDRSZ + ((FilterFile *) eoh)->len;
}

static void
filter_file_read(ExpandedObjectHeader *eoh, void *result, Size size)
{
	FilterFile *ff = (FilterFile *) eoh;
	uint8	   *dst = (uint8 *) result;
	uint8		extra;
	size_t		got,
				more = 0;

	if (ff->f.fd < 0 || size != BLOOM_HDRSZ + ff->len)
		elog(ERROR, "Filter.db \"%s\" read twice or into a place of the wrong size", ff->f.path);
	(void) bloom_file_read(&ff->f, 0, dst + BLOOM_HDRSZ, ff->len, &got, NULL);
	if (got == ff->len)
		(void) bloom_file_read(&ff->f, (int64) ff->len, &extra, 1, &more, NULL);
	bloom_file_close(&ff->f);
	if (got + more != ff->len)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("file \"%s\" changed length while it was read", ff->f.path)));
	bloom_from_filterdb_in_place((Bloom *) dst, ff->len, ff->layout, ff->order);
}

static const ExpandedObjectMethods filter_file_methods = {
	filter_file_size, filter_file_read
};

static void
read_filterdb(const bc_walk_sstable *s, bc_order order, bc_layout layout, BloomSSTableMeta *m)
{
	FilterFile *ff = palloc(sizeof(FilterFile));
	char	   *path = component_path(s, "Filter.db");
	char	   *err = NULL;
	uint8		header[BC_FILTERDB_HEADER];
	size_t		got = 0;
	bc_status	st;
	int32		k;
	int64		w;

	if (!bloom_file_open(&ff->f, path, &err))
	{
		warn_component(path, err, FILTER_COLS, ff->f.errnum);
		return;
	}
	if ((uint64) ff->f.size > (uint64) BC_MAX_VALUE_BYTES)
		err = psprintf("it is too large: %lld bytes, at most %zu can be read",
					   (long long) ff->f.size, (size_t) BC_MAX_VALUE_BYTES);
	else if (bloom_file_read(&ff->f, 0, header, Min(sizeof(header), (size_t) ff->f.size), &got, &err))
	{
		/* the header against the file's size: the bits are read later */
		st = bc_filterdb_check(header, (size_t) ff->f.size, BC_MAX_WORDS_VALUE, &k, &w);
		if (got == Min(sizeof(header), (size_t) ff->f.size) && st == BC_OK)
		{
			ff->len = (size_t) ff->f.size;
			ff->layout = layout;
			ff->order = order;
			EOH_init_header(&ff->hdr, &filter_file_methods, CurrentMemoryContext);
			m->filter = EOHPGetRODatum(&ff->hdr);
			m->have_filter = true;
			return;
		}
		err = pstrdup(got < Min(sizeof(header), (size_t) ff->f.size) ?
					  "it changed length while it was read" : bc_status_message(st));
	}
	bloom_file_close(&ff->f);
	warn_component(path, err, FILTER_COLS, ff->f.errnum);
}

static void
read_statistics(const bc_walk_sstable *s, BloomSSTableMeta *m)
{
	char	   *path;
	uint8	   *data;
	size_t		len;
	bc_statistics st;
	bc_status	rc;

	data = read_whole(s, "Statistics.db", MAX_STATISTICS_BYTES, STATS_COLS, &path, &len);
	if (data == NULL)
		return;
	rc = bc_statistics_parse(data, len, s->version, strlen(s->version), &st);
	if (rc != BC_OK)
		warn_component(path, bc_status_message(rc), STATS_COLS, 0);
	else
	{
		m->partitioner = pnstrdup((const char *) st.partitioner, st.partitioner_len);
		m->have_fp_chance = st.has_fp_chance != 0;
		m->fp_chance = st.fp_chance;
		m->have_partitions = true;
		m->partitions = st.partitions;
		if (st.key_type != NULL)
			m->key_type = pnstrdup((const char *) st.key_type, st.key_type_len);
		/* read by the same parse: no other I/O, a few copies */
		if (st.detail_status == BC_OK && st.has_stats_detail)
		{
			m->have_stats = true;
			m->have_min_timestamp = st.has_min_timestamp != 0;
			m->min_timestamp = st.min_timestamp;
			m->have_max_timestamp = st.has_max_timestamp != 0;
			m->max_timestamp = st.max_timestamp;
			m->have_min_ldt = st.has_min_ldt != 0;
			m->min_ldt = st.min_ldt;
			m->have_max_ldt = st.has_max_ldt != 0;
			m->max_ldt = st.max_ldt;
			m->have_ttl = st.has_ttl != 0;
			m->min_ttl = st.min_ttl;
			m->max_ttl = st.max_ttl;
			m->have_level = st.has_level != 0;
			m->sstable_level = st.sstable_level;
			m->have_repaired_at = st.has_repaired_at != 0;
			m->repaired_at = st.repaired_at;
			m->have_pending_repair = st.pending_repair != NULL;
			if (st.pending_repair != NULL)
				memcpy(m->pending_repair, st.pending_repair, 16);
			m->have_is_transient = st.has_is_transient != 0;
			m->is_transient = st.is_transient != 0;
		}
	}
	pfree(data);
}

/* first and last key from Summary.db; false (after a WARNING) if it fails */
static bool
read_summary(const bc_walk_sstable *s, BloomSSTableMeta *m)
{
	char	   *path;
	uint8	   *data;
	size_t		len;
	bc_summary	sum;
	bc_status	rc;
	const char *columns = has_component(s, "Index.db") ?
		SUMMARY_COLS : RANGE_COLS;

	data = read_whole(s, "Summary.db", MAX_SUMMARY_BYTES, columns, &path, &len);
	if (data == NULL)
		return false;
	rc = bc_summary_parse(s->version, strlen(s->version), data, len, &sum);
	if (rc != BC_OK)
		warn_component(path, bc_status_message(rc), columns, 0);
	else
	{
		m->first_key = bloom_bytea(sum.first, sum.first_len);
		m->last_key = bloom_bytea(sum.last, sum.last_len);
	}
	pfree(data);
	return rc == BC_OK;
}

/* first and last key from a walk over Index.db, read in pieces */
static bc_status
index_range(const bc_reader *r, const char *version, BloomSSTableMeta *m)
{
	bc_index_walk *w = palloc(sizeof(bc_index_walk));
	bc_status	rc;

	w->order = NULL;
	w->samples = NULL;			/* read without Summary.db */
	rc = bc_index_walk_run(w, r, version, strlen(version),
						   palloc(INDEX_PIECE), INDEX_PIECE, NULL, NULL);
	if (rc == BC_OK && w->nkeys > 0)
	{
		m->first_key = bloom_bytea(w->first, w->first_len);
		m->last_key = bloom_bytea(w->last, w->last_len);
	}
	return rc;
}

/* first and last key from the footer of a trie-indexed Partitions.db */
static bc_status
partitions_range(const bc_reader *r, BloomSSTableMeta *m)
{
	bc_partitions_footer footer;
	const uint8_t *first,
			   *last;
	size_t		first_len,
				last_len;
	bc_status	rc;

	rc = bc_partitions_range(r, palloc(BC_PARTITIONS_MAX_KEYS), &footer,
							 &first, &first_len, &last, &last_len);
	if (rc == BC_OK && footer.key_count > 0)
	{
		m->first_key = bloom_bytea(first, first_len);
		m->last_key = bloom_bytea(last, last_len);
	}
	return rc;
}

/* the key range from Partitions.db (trie) or Index.db, or a WARNING */
static void
read_range(const bc_walk_sstable *s, bool trie, BloomSSTableMeta *m)
{
	char	   *path = component_path(s, trie ? "Partitions.db" : "Index.db");
	char	   *err = NULL;
	BloomFile	f;
	bc_reader	r;
	bc_status	rc;

	if (!bloom_file_open(&f, path, &err))
	{
		warn_component(path, err, RANGE_COLS, f.errnum);
		return;
	}
	bloom_file_reader(&f, &r);
	rc = trie ? partitions_range(&r, m) : index_range(&r, s->version, m);
	bloom_file_close(&f);
	if (rc != BC_OK)
		warn_component(path, rc == BC_ERR_READ ? f.err : bc_status_message(rc), RANGE_COLS,
					   rc == BC_ERR_READ ? f.errnum : 0);
}

void
bloom_sstable_read(const bc_walk_sstable *s, bool read_filter, BloomSSTableMeta *m)
{
	bc_order	order;
	bc_layout	layout;
	bc_status	st;
	bc_index_era era;

	memset(m, 0, sizeof(*m));

	/* a version bloomcass does not read: one WARNING for the SSTable */
	st = bc_version_lookup(s->version, strlen(s->version), &order, &layout);
	if (st != BC_OK)
	{
		ereport(WARNING,
				(errcode(ERRCODE_DATA_EXCEPTION),
				 errmsg("skipping the components of SSTable %s: version \"%s\": %s",
						s->descriptor, s->version, bc_status_message(st)),
				 errdetail("The SSTable is \"%s\"; it is listed with its filter, Statistics.db facts and key range NULL.",
						   s->prefix)));
		return;
	}

	if (read_filter && has_component(s, "Filter.db"))
		read_filterdb(s, order, layout, m);
	if (has_component(s, "Statistics.db"))
		read_statistics(s, m);

	/* trie-indexed: BTI, and ScyllaDB's ms and mt though named -big- */
	if (s->format == BC_SSTABLE_BTI ||
		bc_index_era_lookup(s->version, strlen(s->version), &era) == BC_ERR_INDEX_BTI)
	{
		if (has_component(s, "Partitions.db"))
			read_range(s, true, m);
	}
	else
	{
		/* Summary.db holds both keys; without it, walk Index.db */
		bool		done = false;

		if (has_component(s, "Summary.db"))
			done = read_summary(s, m);
		if (!done && has_component(s, "Index.db"))
			read_range(s, false, m);
	}
}
