/*
 * bc_histogram.c
 *
 * Statistics.db's histograms read as Cassandra 5.0 reads them, and what
 * it computes from them (EstimatedHistogram, TombstoneHistogram,
 * StreamingTombstoneHistogramBuilder.DataHolder, StatsMetadata).  Java's
 * long arithmetic wraps: so does this file's (unsigned, cast back).
 */
#include <math.h>
#include <string.h>

#include "bc_endian.h"
#include "bc_histogram.h"
#include "bc_java.h"
#include "bc_tick.h"

/* the offset stored with entry i, and its count */
static int64_t
entry_offset(const bc_est_histogram *h, uint32_t i)
{
	return (int64_t) bc_get_be64(h->entries + (size_t) i * 16);
}

static int64_t
entry_count(const bc_est_histogram *h, uint32_t i)
{
	return (int64_t) bc_get_be64(h->entries + (size_t) i * 16 + 8);
}

/*
 * EstimatedHistogramSerializer.deserialize stores entry i's offset at
 * offsets[i == 0 ? 0 : i - 1]: entry 1's overwrites entry 0's, so bucket
 * i's offset (bucketOffsets[i]) is the one stored with entry i + 1.
 */
void
bc_est_bucket(const bc_est_histogram *h, uint32_t i, int64_t *bound,
			  int *has_bound, int64_t *count)
{
	*count = entry_count(h, i);
	*has_bound = i + 1 < h->n;
	*bound = *has_bound ? entry_offset(h, i + 1) : 0;
}

int64_t
bc_est_count(const bc_est_histogram *h)
{
	uint64_t	sum = 0;
	uint32_t	i;

	for (i = 0; i + 1 < h->n; i++)
	{
		BC_TICK(i);
		sum += (uint64_t) entry_count(h, i);
	}
	return (int64_t) sum;
}

/* EstimatedHistogram.mean(): ceil(sum of count * offset / elements) over
 * every bucket but the last */
int64_t
bc_est_mean(const bc_est_histogram *h)
{
	uint64_t	elements = 0,
				sum = 0;
	uint32_t	i;

	for (i = 0; i + 1 < h->n; i++)
	{
		uint64_t	c = (uint64_t) entry_count(h, i);

		BC_TICK(i);
		elements += c;
		sum += c * (uint64_t) entry_offset(h, i + 1);
	}
	return bc_java_d2l(ceil((double) (int64_t) sum / (double) (int64_t) elements));
}

/*
 * The bins as the deserializers cast them: the legacy point
 * ((long) readDouble(), then saturatingCastToLegacyMaxDeletionTime: below
 * 0 or above Cell.MAX_DELETION_TIME_2038_LEGACY_CAP, 2^31 - 2, is that
 * cap) and count (saturatingCastToInt of a long); the wide point
 * (saturatingCastToMaxDeletionTime: below 0 or above Cell.MAX_DELETION_TIME,
 * 2^32 - 2, is that) and its int count.
 */
void
bc_tomb_bin(const bc_tomb_histogram *h, uint32_t i, int64_t *point, int32_t *count)
{
	if (h->wide)
	{
		const uint8_t *b = h->bins + (size_t) i * 12;
		int64_t		p = (int64_t) bc_get_be64(b);

		*point = p < 0 || p > INT64_C(4294967294) ? INT64_C(4294967294) : p;
		*count = (int32_t) bc_get_be32(b + 8);
	}
	else
	{
		const uint8_t *b = h->bins + (size_t) i * 16;
		uint64_t	bits = bc_get_be64(b);
		double		d;
		int64_t		p,
					c = (int64_t) bc_get_be64(b + 8);

		memcpy(&d, &bits, sizeof(d));
		p = bc_java_d2l(d);
		*point = p < 0 || p > INT64_C(2147483646) ? INT64_C(2147483646) : p;
		*count = c > INT32_MAX ? INT32_MAX : c < INT32_MIN ? INT32_MIN : (int32_t) c;
	}
}

/*
 * DataHolder.sum(b) walks the bins in point order (the deserializer adds
 * them to a DataHolder, which keeps them sorted and adds up the counts of
 * equal points): the counts of the points up to b, and past b an
 * interpolation between the last point up to b and the first after it.
 * That needs only those two points and the total before them, found here
 * in one pass whatever the order the file has them in (no copy, no sort).
 * TombstoneHistogram.sum(double b) passes (int) b to it in every version,
 * 5.0's with unsigned deletion times (hasUIntDeletionTime) included, so a
 * bin past 2^31 - 1 (a deletion time after 2038) is never up to b and
 * never counts as droppable, as in Cassandra.
 */
double
bc_tomb_sum(const bc_tomb_histogram *h, int64_t gc_before)
{
	int32_t		b = bc_java_d2i((double) gc_before);
	int64_t		prev_point = 0,
				next_point = 0;
	double		upto = 0,
				prev_value = 0,
				next_value = 0;
	int			has_prev = 0,
				has_next = 0;
	uint32_t	i;
	double		weight,
				mb,
				sum;

	for (i = 0; i < h->n; i++)
	{
		int64_t		p;
		int32_t		v;

		BC_TICK(i);
		bc_tomb_bin(h, i, &p, &v);
		if (p <= b)
		{
			upto += v;
			if (!has_prev || p > prev_point)
			{
				prev_point = p;
				prev_value = v;
				has_prev = 1;
			}
			else if (p == prev_point)
				prev_value += v;
		}
		else if (!has_next || p < next_point)
		{
			next_point = p;
			next_value = v;
			has_next = 1;
		}
		else if (p == next_point)
			next_value += v;
	}
	if (!has_next)
		return upto;
	if (!has_prev)
		return 0;
	/* DataHolder.sum's ints: prevValue and value are int counts */
	prev_value = (double) (int32_t) (int64_t) prev_value;
	next_value = (double) (int32_t) (int64_t) next_value;
	weight = (b - prev_point) / (double) (next_point - prev_point);
	mb = prev_value + (next_value - prev_value) * weight;
	sum = upto;
	sum -= prev_value;
	sum += (prev_value + mb) * weight / 2;
	sum += prev_value / 2.0;
	return sum;
}

double
bc_droppable_ratio(const bc_statistics *s, int64_t gc_before)
{
	int64_t		cells = (int64_t) ((uint64_t) bc_est_mean(&s->column_counts) *
								   (uint64_t) bc_est_count(&s->column_counts));

	if (cells > 0)
		return bc_tomb_sum(&s->tombstones, gc_before) / (double) cells;
	return 0.0;
}
