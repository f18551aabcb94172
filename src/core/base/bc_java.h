/*
 * bc_java.h - Java's conversions of a double, for the readers that must
 * compute as Cassandra and stream-lib compute: (long) and (int) of a
 * double (JLS 5.1.3: NaN is 0, values past the range saturate at it, the
 * rest truncate toward zero) and Math.round (the nearest long, ties
 * upwards, as Java 7 and later round: floor, then up when the fraction is
 * at least one half, so 0.49999999999999994 rounds to 0).  Used by the
 * histograms (bc_histogram.c) and the cardinality estimators (bc_hll.c).
 */
#ifndef BC_JAVA_H
#define BC_JAVA_H

#include <math.h>
#include <stdint.h>

/* (long) d */
static inline int64_t
bc_java_d2l(double d)
{
	if (isnan(d))
		return 0;
	if (d >= 9223372036854775807.0)
		return INT64_MAX;
	if (d <= -9223372036854775808.0)
		return INT64_MIN;
	return (int64_t) d;
}

/* (int) d */
static inline int32_t
bc_java_d2i(double d)
{
	if (isnan(d))
		return 0;
	if (d >= 2147483647.0)
		return INT32_MAX;
	if (d <= -2147483648.0)
		return INT32_MIN;
	return (int32_t) d;
}

/* Math.round(double) */
static inline int64_t
bc_java_round(double x)
{
	double		f;

	if (isnan(x))
		return 0;
	if (x >= 9223372036854775807.0)
		return INT64_MAX;
	if (x <= -9223372036854775808.0)
		return INT64_MIN;
	f = floor(x);
	if (x - f >= 0.5)
		f += 1.0;
	if (f >= 9223372036854775807.0)
		return INT64_MAX;
	return (int64_t) f;
}

#endif							/* BC_JAVA_H */
