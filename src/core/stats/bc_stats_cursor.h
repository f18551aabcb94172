/*
 * bc_stats_cursor.h - private to the Statistics.db reader: the bounded
 * reads of a component's fields, shared by bc_statistics_fields.c,
 * bc_statistics_stats.c and bc_histogram.c.  A field past the end of its
 * component is the readers' EOFException (DataInput.readFully and friends;
 * from 4.0 the component's buffer, DataInputBuffer; ScyllaDB's
 * check_buf_size, "Buffer improperly sized").
 */
#ifndef BC_STATS_CURSOR_H
#define BC_STATS_CURSOR_H

#include <stddef.h>
#include <stdint.h>

#include "bc_endian.h"
#include "bc_private.h"
#include "bc_statistics_fields.h"
#include "bc_status.h"

static inline size_t
cur_left(const bc_stats_cursor *c)
{
	return (size_t) (c->end - c->p);
}

/*
 * The primitives: a field past the end of its component is the readers'
 * EOFException (DataInput.readFully and friends; from 4.0 the component's
 * buffer, DataInputBuffer; ScyllaDB's check_buf_size, "Buffer improperly
 * sized").
 */
static inline bc_status
cur_skip(bc_stats_cursor *c, size_t n)
{
	if (n > cur_left(c))
		return BC_ERR_STATS_TRUNCATED;
	c->p += n;
	return BC_OK;
}

static inline bc_status
cur_be16(bc_stats_cursor *c, uint16_t *v)
{
	if (cur_left(c) < 2)
		return BC_ERR_STATS_TRUNCATED;
	*v = (uint16_t) ((c->p[0] << 8) | c->p[1]);
	c->p += 2;
	return BC_OK;
}

static inline bc_status
cur_be32(bc_stats_cursor *c, uint32_t *v)
{
	if (cur_left(c) < 4)
		return BC_ERR_STATS_TRUNCATED;
	*v = bc_get_be32(c->p);
	c->p += 4;
	return BC_OK;
}

static inline bc_status
cur_be64(bc_stats_cursor *c, uint64_t *v)
{
	if (cur_left(c) < 8)
		return BC_ERR_STATS_TRUNCATED;
	*v = bc_get_be64(c->p);
	c->p += 8;
	return BC_OK;
}

/*
 * A Java int used as a count of elements of at least elem_size bytes.
 * Negative: Cassandra allocates by it and fails (new long[size - 1],
 * new ArrayList<>(n), new HashSet<>(n), new HashMap<>(n):
 * NegativeArraySizeException, IllegalArgumentException); ScyllaDB reads it
 * unsigned and fails at the end of the file.  More elements than fit in
 * what is left: both fail at the end (EOFException, check_buf_size); here
 * refused before reading them.
 */
static inline bc_status
cur_count(bc_stats_cursor *c, size_t elem_size, uint32_t *n)
{
	bc_status	st = cur_be32(c, n);

	if (st != BC_OK)
		return st;
	if (*n > INT32_MAX)
		return BC_ERR_STATS_FIELD;
	if ((uint64_t) *n * elem_size > cur_left(c))
		return BC_ERR_STATS_TRUNCATED;
	return BC_OK;
}

/* an unsigned vint (bc_uvint_decode): VIntCoding.readUnsignedVInt, ScyllaDB's
 * read_vint; cut by the end of the component, EOF */
static inline bc_status
cur_uvint(bc_stats_cursor *c, uint64_t *v)
{
	int			extra;

	if (cur_left(c) < 1)
		return BC_ERR_STATS_TRUNCATED;
	extra = bc_uvint_extra(c->p[0]);
	if ((size_t) extra >= cur_left(c))
		return BC_ERR_STATS_TRUNCATED;
	*v = bc_uvint_decode(c->p, extra);
	c->p += 1 + extra;
	return BC_OK;
}

/* A vint length followed by that many bytes: ByteBufferUtil.readWithVIntLength
 * (EOF when they are not there), ScyllaDB's disk_string_vint_size. */
static inline bc_status
cur_vbytes(bc_stats_cursor *c, const uint8_t **bytes, size_t *len)
{
	uint64_t	n;
	bc_status	st;

	if ((st = cur_uvint(c, &n)) != BC_OK)
		return st;
	if (n > cur_left(c))
		return BC_ERR_STATS_TRUNCATED;
	*bytes = c->p;
	*len = (size_t) n;
	c->p += n;
	return BC_OK;
}

/*
 * A vint count of elements of at least one byte each: more than are left
 * is the readers' EOF.  A count over 2^31 - 1 is refused as well (5.0 reads
 * it with readUnsignedVInt32, VIntOutOfRangeException; 3.0 - 4.1 cast it to
 * an int, which reads another count, and ScyllaDB reads it unsigned: the
 * readers do not agree on what it means).
 */
static inline bc_status
cur_vcount(bc_stats_cursor *c, uint64_t *n)
{
	bc_status	st = cur_uvint(c, n);

	if (st != BC_OK)
		return st;
	if (*n > cur_left(c) || *n > INT32_MAX)
		return BC_ERR_STATS_FIELD;
	return BC_OK;
}

#endif							/* BC_STATS_CURSOR_H */
