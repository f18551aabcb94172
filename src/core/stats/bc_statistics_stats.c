/*
 * bc_statistics_stats.c
 *
 * StatsMetadata and CompactionMetadata of the table-of-contents layouts
 * (ka and later), every field, read through a cursor bounded by the
 * component (bc_statistics.c), and the clustering bounds of the improved
 * min/max.  The readers mirrored:
 *
 *   - StatsMetadata.StatsMetadataSerializer.deserialize of Cassandra 2.1,
 *     2.2 (ka, la, lb), 3.0 - 4.1 and 5.0 (ma .. oa, da), whose fields
 *     depend on BigFormat.BigVersion / BtiFormat.BtiVersion
 *     (bc_stats_flags_of); ScyllaDB's stats_metadata (sstables/types.hh)
 *     has the same fields for the versions it reads;
 *   - DataStax's StatsMetadataSerializer (aa .. cc; datastax/cassandra's
 *     StatsMetadata.java and BtiFormat.BtiVersion, read_dse_fields) writes
 *     after the pending repair the DSE fields of ba and bb (zero-copy
 *     metadata, incremental NodeSync metadata, max column value lengths),
 *     then isTransient (c*), the partition level deletions marker in its
 *     DSE place (b*, c*: hasMisplacedPartitionLevelDeletionsPresenceMarker),
 *     the originating host id (ad, bb, c*) and the token space coverage
 *     (cb, cc): every field read, to the component's last byte;
 *   - Cassandra 6.0's pb and eb add mutation-tracking metadata after the
 *     token space coverage, whose serializer is not settled: bounded but
 *     not parsed (tail -1).
 *
 * Everything is big-endian, as Java's DataOutput writes it.  No reader
 * checks a value (timestamps, deletion times, TTLs, the level, ...): any is
 * reported as written; a count or a length the component cannot hold is
 * the readers' EOFException, refused before anything is read by it.
 */
#include <string.h>

#include "bc_cqltype.h"
#include "bc_statistics_fields.h"
#include "bc_stats_cursor.h"
#include "bc_tick.h"

static bc_status
read_i32(bc_stats_cursor *c, int32_t *v)
{
	uint32_t	u = 0;
	bc_status	st = cur_be32(c, &u);

	*v = (int32_t) u;
	return st;
}

static bc_status
read_i64(bc_stats_cursor *c, int64_t *v)
{
	uint64_t	u = 0;
	bc_status	st = cur_be64(c, &u);

	*v = (int64_t) u;
	return st;
}

static bc_status
read_double(bc_stats_cursor *c, double *v)
{
	uint64_t	u = 0;
	bc_status	st = cur_be64(c, &u);

	memcpy(v, &u, sizeof(*v));
	return st;
}

/* readBoolean: any non-zero byte is true (DataInputStream.readBoolean) */
static bc_status
read_bool(bc_stats_cursor *c, int *v)
{
	if (cur_left(c) < 1)
		return BC_ERR_STATS_TRUNCATED;
	*v = c->p[0] != 0;
	c->p++;
	return BC_OK;
}

/* a presence byte (readByte() != 0) then a 16-byte UUID when present */
static bc_status
read_opt_uuid(bc_stats_cursor *c, const uint8_t **uuid)
{
	int			present;
	bc_status	st;

	*uuid = NULL;
	if ((st = read_bool(c, &present)) != BC_OK || !present)
		return st;
	*uuid = c->p;
	return cur_skip(c, 16);
}

/*
 * The value length of a clustering type when fixed (AbstractType.
 * valueLengthIfFixed), -1 when each value is written with a vint length:
 * BooleanType 1, Int32Type, FloatType and SimpleDateType 4, LongType,
 * DoubleType, TimestampType (and DateType), TimeType and
 * CounterColumnType 8, the UUID types 16; ReversedType(T) is T's.  A type
 * bloomcass cannot parse gives no length: BC_ERR_STATS_FIELD (its values
 * cannot be delimited without it).
 */
static int
fixed_length(const uint8_t *name, size_t len, int *fixed)
{
	bc_cqltype	t;

	if (bc_cqltype_parse((const char *) name, len, &t, NULL, 0) != BC_OK)
		return 0;
	switch (t.node[t.root].kind)
	{
		case BC_CQL_BOOLEAN:
			*fixed = 1;
			break;
		case BC_CQL_INT32:
		case BC_CQL_FLOAT:
		case BC_CQL_DATE:
			*fixed = 4;
			break;
		case BC_CQL_LONG:
		case BC_CQL_DOUBLE:
		case BC_CQL_TIMESTAMP:
		case BC_CQL_TIME:
		case BC_CQL_COUNTER:
			*fixed = 8;
			break;
		case BC_CQL_UUID:
		case BC_CQL_TIMEUUID:
		case BC_CQL_LEXICALUUID:
			*fixed = 16;
			break;
		default:
			*fixed = -1;
			break;
	}
	return 1;
}

void
bc_stats_bound_iter_init(bc_stats_bound_iter *it, const bc_statistics *s,
						 const bc_stats_bound *b)
{
	it->p = b->values;
	it->end = b->end;
	it->i = 0;
	it->size = b->size;
	it->header = 0;
	it->types = s->clustering_types;
}

/*
 * ClusteringPrefix.serializer.deserializeValuesWithoutSize: before every
 * 32 values an unsigned vint header, two bits a value (isEmpty: bit 2i,
 * isNull: bit 2i + 1, of a long: i modulo 32); a value neither null nor
 * empty is read by its type (AbstractType.read: the fixed length, else a
 * vint length).  A value without a type (types.get(offset):
 * IndexOutOfBoundsException) is refused.
 */
bc_status
bc_stats_bound_iter_next(bc_stats_bound_iter *it, const uint8_t **value,
						 size_t *len, int *is_null, int *got)
{
	bc_stats_cursor c;
	const uint8_t *tname,
			   *unused;
	size_t		tlen,
				ulen;
	unsigned	bit;
	bc_status	st;

	*got = 0;
	if (it->i >= it->size)
		return BC_OK;
	c.p = it->p;
	c.end = it->end;
	if (it->i % 32 == 0 && (st = cur_uvint(&c, &it->header)) != BC_OK)
		return st;
	if (!bc_stats_list_next(&it->types, &tname, &tlen, &unused, &ulen))
		return BC_ERR_STATS_FIELD;
	bit = (unsigned) (it->i % 32) * 2;
	*is_null = (it->header >> (bit + 1)) & 1;
	*value = c.p;
	*len = 0;
	if (!*is_null && !((it->header >> bit) & 1))
	{
		int			fixed;

		if (!fixed_length(tname, tlen, &fixed))
			return BC_ERR_STATS_FIELD;
		if (fixed >= 0)
		{
			*len = (size_t) fixed;
			if ((st = cur_skip(&c, *len)) != BC_OK)
				return st;
		}
		else if ((st = cur_vbytes(&c, value, len)) != BC_OK)
			return st;
		/* AbstractType.read: readUnsignedVInt32, negative refused */
		if (*len > INT32_MAX)
			return BC_ERR_STATS_FIELD;
	}
	it->p = c.p;
	it->i++;
	*got = 1;
	return BC_OK;
}

/*
 * A ClusteringBound (ClusteringBoundOrBoundary.Serializer.deserialize): a
 * kind byte (ClusteringPrefix.Kind.values()[b]: eight kinds), an unsigned
 * short size, then its values; walked once here to find its end.
 */
static bc_status
read_bound(bc_stats_cursor *c, bc_statistics *out, bc_stats_bound *b)
{
	uint16_t	size;
	bc_stats_bound_iter it;
	bc_status	st;
	int			got = 1;

	if (cur_left(c) < 1)
		return BC_ERR_STATS_TRUNCATED;
	b->kind = c->p[0];
	c->p++;
	if (b->kind > 7)
		return BC_ERR_STATS_FIELD;
	if ((st = cur_be16(c, &size)) != BC_OK)
		return st;
	b->size = size;
	b->values = c->p;
	b->end = c->end;
	bc_stats_bound_iter_init(&it, out, b);
	while (got)
	{
		const uint8_t *v;
		size_t		len;
		int			is_null;

		BC_TICK(it.i);
		if ((st = bc_stats_bound_iter_next(&it, &v, &len, &is_null, &got)) != BC_OK)
			return st;
	}
	c->p = it.p;
	return BC_OK;
}

/* the improved min/max: clustering types (AbstractTypeSerializer.
 * deserializeList), then Slice.serializer.deserialize: start, end */
static bc_status
read_improved_min_max(bc_stats_cursor *c, bc_statistics *out)
{
	bc_status	st;

	if ((st = bc_stats_read_type_list(c, &out->clustering_types)) != BC_OK ||
		(st = read_bound(c, out, &out->min_bound)) != BC_OK ||
		(st = read_bound(c, out, &out->max_bound)) != BC_OK)
		return st;
	out->has_bounds = 1;
	return BC_OK;
}

/* Cassandra 2.1 and 2.2 (ka, la, lb): StatsMetadataSerializer of 2.1 and 2.2 */
static bc_status
parse_stats_21(bc_stats_cursor *c, const bc_stats_flags *f, bc_statistics *out)
{
	uint32_t	ldt;
	bc_status	st;

	out->clog_upper = c->p;
	if ((st = cur_skip(c, 12)) != BC_OK ||
		(st = read_i64(c, &out->min_timestamp)) != BC_OK ||
		(st = read_i64(c, &out->max_timestamp)) != BC_OK ||
		(st = cur_be32(c, &ldt)) != BC_OK ||
		(st = read_double(c, &out->compression_ratio)) != BC_OK ||
		(st = bc_stats_read_tombstones(c, 0, &out->tombstones)) != BC_OK ||
		(st = read_i32(c, &out->sstable_level)) != BC_OK ||
		(st = read_i64(c, &out->repaired_at)) != BC_OK ||
		(st = bc_stats_read_short_list(c, &out->legacy_min)) != BC_OK ||
		(st = bc_stats_read_short_list(c, &out->legacy_max)) != BC_OK ||
		(st = read_bool(c, &out->has_legacy_counter_shards)) != BC_OK)
		return st;
	bc_stats_set_ldt(&out->has_max_ldt, &out->max_ldt, ldt, 0);
	if (f->commit_log_lower_bound)
	{
		out->clog_lower = c->p;
		if ((st = cur_skip(c, 12)) != BC_OK)
			return st;
	}
	out->has_counter_shards = 1;
	return BC_OK;
}

/*
 * DataStax's fields after the pending repair (datastax/cassandra's
 * StatsMetadata.StatsMetadataSerializer.deserialize, the flags of its
 * BtiFormat.BtiVersion; Cassandra 6.0 reads these versions the same way):
 *
 *   - ba, bb (hasZeroCopyMetadata): a presence byte, then when not 0
 *     ZeroCopyMetadata.Serializer's data start and end (longs), chunk size
 *     (int), estimated keys (long), first and last key (short length);
 *   - ba, bb (hasIncrementalNodeSyncMetadata): a long;
 *   - ba, bb (hasMaxColumnValueLengths): an int count, then per column a
 *     vint-length name and an int (ByteBufferUtil.readWithVIntLength);
 *   - c* (hasIsTransient): a boolean;
 *   - b*, c* (hasMisplacedPartitionLevelDeletionsPresenceMarker): the
 *     partition level deletions marker, before the host id;
 *   - ad, bb, c* (hasOriginatingHostId): presence byte and UUID;
 *   - cb, cc (hasTokenSpaceCoverage): a double.
 */
static bc_status
read_dse_fields(bc_stats_cursor *c, const char *v, bc_statistics *out)
{
	int			b = v[0] == 'b',
				cv = v[0] == 'c';
	uint32_t	n,
				i;
	bc_status	st;

	if (b)
	{
		int			zero_copy;
		uint16_t	klen;

		if ((st = read_bool(c, &zero_copy)) != BC_OK)
			return st;
		if (zero_copy)
		{
			if ((st = cur_skip(c, 8 + 8 + 4 + 8)) != BC_OK ||
				(st = cur_be16(c, &klen)) != BC_OK ||
				(st = cur_skip(c, klen)) != BC_OK ||
				(st = cur_be16(c, &klen)) != BC_OK ||
				(st = cur_skip(c, klen)) != BC_OK)
				return st;
		}
		if ((st = cur_skip(c, 8)) != BC_OK)
			return st;
		/* each entry is at least a one-byte length and an int */
		if ((st = cur_count(c, 5, &n)) != BC_OK)
			return st;
		for (i = 0; i < n; i++)
		{
			const uint8_t *name;
			size_t		len;

			BC_TICK(i);
			if ((st = cur_vbytes(c, &name, &len)) != BC_OK ||
				(st = cur_skip(c, 4)) != BC_OK)
				return st;
		}
	}
	if (cv)
	{
		if ((st = read_bool(c, &out->is_transient)) != BC_OK)
			return st;
		out->has_is_transient = 1;
	}
	if (b || cv)
	{
		if ((st = read_bool(c, &out->has_partition_level_deletions)) != BC_OK)
			return st;
		out->has_pld = 1;
	}
	if ((v[0] == 'a' && v[1] >= 'd') || (b && v[1] >= 'b') || cv)
	{
		if ((st = read_opt_uuid(c, &out->originating_host_id)) != BC_OK)
			return st;
		out->stores_host_id = 1;
	}
	if (cv && v[1] >= 'b')
	{
		if ((st = read_double(c, &out->token_space_coverage)) != BC_OK)
			return st;
		out->has_token_space_coverage = 1;
	}
	return BC_OK;
}

/* Cassandra 3.0 - 6.0 and the BTI versions: 5.0's StatsMetadataSerializer */
static bc_status
parse_stats_30(bc_stats_cursor *c, const bc_stats_version *sv,
			   const bc_stats_flags *f, bc_statistics *out)
{
	uint32_t	min_ldt,
				max_ldt,
				n;
	bc_status	st;

	out->clog_upper = c->p;
	if ((st = cur_skip(c, 12)) != BC_OK ||
		(st = read_i64(c, &out->min_timestamp)) != BC_OK ||
		(st = read_i64(c, &out->max_timestamp)) != BC_OK ||
		(st = cur_be32(c, &min_ldt)) != BC_OK ||
		(st = cur_be32(c, &max_ldt)) != BC_OK ||
		(st = read_i32(c, &out->min_ttl)) != BC_OK ||
		(st = read_i32(c, &out->max_ttl)) != BC_OK ||
		(st = read_double(c, &out->compression_ratio)) != BC_OK ||
		(st = bc_stats_read_tombstones(c, f->uint_time, &out->tombstones)) != BC_OK ||
		(st = read_i32(c, &out->sstable_level)) != BC_OK ||
		(st = read_i64(c, &out->repaired_at)) != BC_OK)
		return st;
	bc_stats_set_ldt(&out->has_min_ldt, &out->min_ldt, min_ldt, f->uint_time);
	bc_stats_set_ldt(&out->has_max_ldt, &out->max_ldt, max_ldt, f->uint_time);
	out->has_ttl = 1;
	if (f->legacy_min_max)
	{
		if ((st = bc_stats_read_short_list(c, &out->legacy_min)) != BC_OK ||
			(st = bc_stats_read_short_list(c, &out->legacy_max)) != BC_OK)
			return st;
	}
	else if (f->improved_min_max && (st = read_improved_min_max(c, out)) != BC_OK)
		return st;
	if ((st = read_bool(c, &out->has_legacy_counter_shards)) != BC_OK ||
		(st = read_i64(c, &out->total_columns_set)) != BC_OK ||
		(st = read_i64(c, &out->total_rows)) != BC_OK)
		return st;
	out->has_counter_shards = out->has_rows = 1;
	if (f->commit_log_lower_bound)
	{
		out->clog_lower = c->p;
		if ((st = cur_skip(c, 12)) != BC_OK)
			return st;
	}
	if (f->commit_log_intervals)
	{
		/* IntervalSet.serializer: a BE32 count, then pairs of positions */
		if ((st = cur_count(c, 24, &n)) != BC_OK)
			return st;
		out->clog_intervals = c->p;
		out->clog_interval_n = n;
		c->p += (size_t) n * 24;
	}
	if (f->pending_repair)
	{
		if ((st = read_opt_uuid(c, &out->pending_repair)) != BC_OK)
			return st;
		out->stores_pending_repair = 1;
	}
	if (f->datastax)
		return read_dse_fields(c, sv->version, out);
	if (f->pending_repair)
	{
		if ((st = read_bool(c, &out->is_transient)) != BC_OK)
			return st;
		out->has_is_transient = 1;
	}
	if (f->host_id)
	{
		if ((st = read_opt_uuid(c, &out->originating_host_id)) != BC_OK)
			return st;
		out->stores_host_id = 1;
	}
	if (f->pld_marker)
	{
		if ((st = read_bool(c, &out->has_partition_level_deletions)) != BC_OK)
			return st;
		out->has_pld = 1;
	}
	/* nc: both min/max representations, the improved one here */
	if (f->improved_min_max && f->legacy_min_max &&
		(st = read_improved_min_max(c, out)) != BC_OK)
		return st;
	if (f->key_range)
	{
		if ((st = cur_vbytes(c, &out->first_key, &out->first_key_len)) != BC_OK ||
			(st = cur_vbytes(c, &out->last_key, &out->last_key_len)) != BC_OK)
			return st;
	}
	if (f->token_space)
	{
		if ((st = read_double(c, &out->token_space_coverage)) != BC_OK)
			return st;
		out->has_token_space_coverage = 1;
	}
	(void) sv;
	return BC_OK;
}

/*
 * StatsMetadata.StatsMetadataSerializer.deserialize; ScyllaDB's
 * stats_metadata.  The partition size histogram first (its total is the
 * partition count), the cell count histogram, then the fields of each
 * version.
 */
bc_status
bc_stats_parse_stats(bc_stats_cursor *c, const bc_stats_version *sv,
					 bc_statistics *out)
{
	bc_stats_flags f;
	int64_t		ignored;
	bc_status	st;

	bc_stats_flags_of(sv->version, &f);
	if ((st = bc_stats_read_size_histogram(c, sv, out)) != BC_OK)
		return st;
	/*
	 * Up to 2.2 the whole component was always read to its end: an error
	 * there stays one.  From 3.0 on only its first histogram was, and the
	 * rest refuses only cassandra_metadata (detail_status).
	 */
	st = bc_stats_read_histogram(c, sv, &out->column_counts, &ignored);
	if (st == BC_OK)
		st = sv->kind == BC_SK_TOC ? parse_stats_21(c, &f, out) : parse_stats_30(c, sv, &f, out);
	if (st != BC_OK && sv->kind == BC_SK_TOC)
		return st;
	if (st != BC_OK)
	{
		out->detail_status = st;
		return BC_OK;
	}
	out->has_stats_detail = 1;
	out->has_min_timestamp = out->has_max_timestamp = 1;
	out->has_compression_ratio = out->has_level = out->has_repaired_at = 1;
	/* 6.0's mutation tracking: not read */
	out->tail[BC_MT_STATS] = (sv->version[0] == 'p' && sv->version[1] >= 'b') ||
		(sv->version[0] == 'e' && sv->version[1] >= 'b') ? -1 : (int64_t) cur_left(c);
	return BC_OK;
}

/*
 * CompactionMetadata.CompactionMetadataSerializer.deserialize: up to 2.2
 * (ka, la, lb: hasCompactionAncestors) a BE32 count of ancestors and their
 * BE32 generations, then (all versions) the cardinality estimator's bytes
 * with a BE32 length (ByteBufferUtil.readWithLength); ScyllaDB's
 * compaction_metadata (ancestors, cardinality: disk_arrays with BE32
 * counts).  The estimator is bounded here and decoded by bc_hll.c.
 */
bc_status
bc_stats_parse_compaction(bc_stats_cursor *c, const bc_stats_version *sv,
						  bc_statistics *out)
{
	uint32_t	n;
	bc_status	st;

	/* not read before this field's reader: an error refuses only
	 * cassandra_metadata (detail_status) */
	if (sv->kind == BC_SK_TOC)
	{
		if ((st = cur_count(c, 4, &n)) != BC_OK)
		{
			out->detail_status = st;
			return BC_OK;
		}
		c->p += (size_t) n * 4;
	}
	if ((st = cur_count(c, 1, &n)) != BC_OK)
	{
		out->detail_status = st;
		return BC_OK;
	}
	out->has_estimator = 1;
	out->estimator = c->p;
	out->estimator_len = n;
	out->scylla_version = sv->scylla;
	c->p += n;
	out->tail[BC_MT_COMPACTION] = (int64_t) cur_left(c);
	return BC_OK;
}
