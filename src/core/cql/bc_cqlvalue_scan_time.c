/*
 * bc_cqlvalue_scan_time.c - timestamp, date, time and duration values
 * from their text (the forms are listed in bc_cqlvalue_scan.c).
 */
#include <string.h>

#include "bc_cqlvalue.h"
#include "bc_keys.h"

/* exactly k digits at s[*i]: their value */
static int
fixed_digits(const char *s, size_t n, size_t *i, int k, int *v)
{
	int			j;

	if (n - *i < (size_t) k)
		return 0;
	*v = 0;
	for (j = 0; j < k; j++)
	{
		if (!bc_cql_is_digit(s[*i + (size_t) j]))
			return 0;
		*v = *v * 10 + (s[*i + (size_t) j] - '0');
	}
	*i += (size_t) k;
	return 1;
}

static int
days_in_month(int64_t y, int m)
{
	static const int dm[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	int			leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 && leap ? 29 : dm[m - 1];
}

/* -mm-dd at s[*i] after the year y: days since 1970 */
static int
month_day(const char *s, size_t n, size_t *i, int64_t y, int64_t *days)
{
	int			m,
				d;

	if (*i >= n || s[(*i)++] != '-' || !fixed_digits(s, n, i, 2, &m) ||
		*i >= n || s[(*i)++] != '-' || !fixed_digits(s, n, i, 2, &d))
		return 0;
	if (m < 1 || m > 12 || d < 1 || d > days_in_month(y, m))
		return 0;
	*days = bc_days_from_civil(y, m, d);
	return 1;
}

bc_status
bc_cql_scan_timestamp(char *s, size_t n, bc_cqlsink *out, bc_cqlerr *err)
{
	size_t		i = 0;
	int64_t		v,
				days;
	int			y,
				hh = 0,
				mi = 0,
				ss = 0,
				ms = 0,
				off = 0;

	if (bc_cql_scan_int(s, n, INT64_MIN, INT64_MAX, &v) && s[0] != '+')
	{
		bc_cql_put_be(out, (uint64_t) v, 8);
		return BC_OK;
	}
	if (!fixed_digits(s, n, &i, 4, &y) || !month_day(s, n, &i, y, &days))
		return bc_cql_bad(err, BC_CQL_TIMESTAMP, "expected milliseconds or yyyy-mm-dd[Thh:mm[:ss[.fff]]][zone]");
	if (i < n && (s[i] == 'T' || s[i] == ' '))
	{
		i++;
		if (!fixed_digits(s, n, &i, 2, &hh) || i >= n || s[i++] != ':' ||
			!fixed_digits(s, n, &i, 2, &mi) || hh > 23 || mi > 59)
			return bc_cql_bad(err, BC_CQL_TIMESTAMP, "bad time of day (hh:mm[:ss[.fff]])");
		if (i < n && s[i] == ':')
		{
			i++;
			if (!fixed_digits(s, n, &i, 2, &ss) || ss > 59)
				return bc_cql_bad(err, BC_CQL_TIMESTAMP, "bad seconds");
			if (i < n && s[i] == '.')
			{
				int			k = 0;

				for (i++; i < n && bc_cql_is_digit(s[i]); i++, k++)
					if (k < 3)
						ms = ms * 10 + (s[i] - '0');
				if (k == 0 || k > 9)
					return bc_cql_bad(err, BC_CQL_TIMESTAMP, "1 to 9 digits of a second expected after '.'");
				for (; k < 3; k++)
					ms *= 10;
			}
		}
	}
	if (i < n && s[i] == 'Z')
		i++;
	else if (i < n && (s[i] == '+' || s[i] == '-'))
	{
		int			sign = s[i++] == '-' ? -1 : 1,
					oh,
					om = 0;

		if (!fixed_digits(s, n, &i, 2, &oh))
			return bc_cql_bad(err, BC_CQL_TIMESTAMP, "bad zone offset");
		if (i < n && s[i] == ':')
			i++;
		if (i < n && !fixed_digits(s, n, &i, 2, &om))
			return bc_cql_bad(err, BC_CQL_TIMESTAMP, "bad zone offset");
		if (oh > 18 || om > 59)
			return bc_cql_bad(err, BC_CQL_TIMESTAMP, "zone offset out of range");
		off = sign * (oh * 60 + om);
	}
	if (i != n)
		return bc_cql_bad(err, BC_CQL_TIMESTAMP, "unexpected text after the time");
	v = days * 86400000 + (int64_t) hh * 3600000 + (int64_t) mi * 60000 + (int64_t) ss * 1000 + ms -
		(int64_t) off * 60000;
	bc_cql_put_be(out, (uint64_t) v, 8);
	return BC_OK;
}

bc_status
bc_cql_scan_date(char *s, size_t n, bc_cqlsink *out, bc_cqlerr *err)
{
	size_t		i = 0,
				j;
	int64_t		days,
				y = 0;
	uint64_t	u;
	int			neg = 0;

	if (n > 0 && bc_cql_is_digit(s[0]) && bc_cql_digits_value(s, n, UINT32_MAX, &u))
	{
		bc_cql_put_be(out, u, 4);
		return BC_OK;
	}
	if (n > 0 && (s[0] == '+' || s[0] == '-'))
		neg = s[i++] == '-';
	for (j = i; j < n && bc_cql_is_digit(s[j]); j++)
		if (j - i < 12)
			y = y * 10 + (s[j] - '0');
	if (j - i < 4 || j - i > 10 || (i == 0 && j - i != 4) || (i == 1 && !neg && j - i < 5))
		return bc_cql_bad(err, BC_CQL_DATE, "expected yyyy-mm-dd (+yyyyy-mm-dd after 9999, -yyyy-mm-dd before 0) or a day number");
	if (neg)
		y = -y;
	i = j;
	if (!month_day(s, n, &i, y, &days) || i != n)
		return bc_cql_bad(err, BC_CQL_DATE, "expected yyyy-mm-dd");
	days += INT64_C(2147483648);
	if (days < 0 || days > (int64_t) UINT32_MAX)
		return bc_cql_bad(err, BC_CQL_DATE, "out of the range of a date");
	bc_cql_put_be(out, (uint64_t) days, 4);
	return BC_OK;
}

bc_status
bc_cql_scan_time(char *s, size_t n, bc_cqlsink *out, bc_cqlerr *err)
{
	size_t		i = 0;
	int64_t		v;
	int			hh,
				mi,
				ss,
				k = 0;
	int64_t		frac = 0;

	if (n > 0 && (bc_cql_is_digit(s[0]) || s[0] == '-') && bc_cql_scan_int(s, n, INT64_MIN, INT64_MAX, &v))
	{
		if (v < 0 || v >= BC_CQL_NS_PER_DAY)
			return bc_cql_bad(err, BC_CQL_TIME, "nanoseconds out of a day");
		bc_cql_put_be(out, (uint64_t) v, 8);
		return BC_OK;
	}
	if (!fixed_digits(s, n, &i, 2, &hh) || i >= n || s[i++] != ':' ||
		!fixed_digits(s, n, &i, 2, &mi) || i >= n || s[i++] != ':' ||
		!fixed_digits(s, n, &i, 2, &ss) || hh > 23 || mi > 59 || ss > 59)
		return bc_cql_bad(err, BC_CQL_TIME, "expected hh:mm:ss[.fffffffff] or nanoseconds");
	if (i < n && s[i] == '.')
	{
		for (i++; i < n && bc_cql_is_digit(s[i]) && k < 9; i++, k++)
			frac = frac * 10 + (s[i] - '0');
		if (k == 0)
			return bc_cql_bad(err, BC_CQL_TIME, "digits expected after '.'");
		for (; k < 9; k++)
			frac *= 10;
	}
	if (i != n)
		return bc_cql_bad(err, BC_CQL_TIME, "unexpected text after the time");
	v = (int64_t) hh * INT64_C(3600000000000) + (int64_t) mi * INT64_C(60000000000) +
		(int64_t) ss * 1000000000 + frac;
	bc_cql_put_be(out, (uint64_t) v, 8);
	return BC_OK;
}

/* Duration.from's standard format */
bc_status
bc_cql_scan_duration(char *s, size_t n, bc_cqlsink *out, bc_cqlerr *err)
{
	static const struct
	{
		const char *unit;
		int			field;		/* 0 months, 1 days, 2 nanoseconds */
		uint64_t	mult;
	}			units[] = {
		{"y", 0, 12}, {"mo", 0, 1}, {"w", 1, 7}, {"d", 1, 1}, {"h", 2, UINT64_C(3600000000000)},
		{"m", 2, UINT64_C(60000000000)}, {"s", 2, 1000000000}, {"ms", 2, 1000000},
		{"us", 2, 1000}, {"\xc2\xb5s", 2, 1000}, {"ns", 2, 1}
	};
	uint64_t	f[3] = {0, 0, 0};
	uint64_t	lim[3] = {INT32_MAX, INT32_MAX, INT64_MAX};
	size_t		i = 0;
	int			neg = 0,
				last = -1,
				k;
	uint8_t		b[30];
	size_t		nb = 0;

	if (n > 0 && s[0] == '-')
	{
		/* a negative duration reaches one further: INT32_MIN months or
		 * days, INT64_MIN nanoseconds */
		neg = 1, i = 1;
		lim[0] = lim[1] = (uint64_t) INT32_MAX + 1;
		lim[2] = (uint64_t) INT64_MAX + 1;
	}
	if (i == n && n > 0)
		return bc_cql_bad(err, BC_CQL_DURATION, "a number and a unit expected");
	while (i < n)
	{
		size_t		b0 = i,
					best = 0;
		uint64_t	v;
		int			u = -1;

		while (i < n && bc_cql_is_digit(s[i]))
			i++;
		if (i == b0 || !bc_cql_digits_value(s + b0, i - b0, (uint64_t) INT64_MAX + 1, &v))
			return bc_cql_bad(err, BC_CQL_DURATION, "a number (up to 2^63) expected before each unit");
		for (k = 0; k < (int) (sizeof(units) / sizeof(units[0])); k++)
		{
			size_t		ul = strlen(units[k].unit),
						j;

			if (ul > n - i || ul <= best)
				continue;
			for (j = 0; j < ul; j++)
			{
				char		c = s[i + j];

				if (c >= 'A' && c <= 'Z')
					c = (char) (c - 'A' + 'a');
				if (c == 'S' - 'A' + 'a' && units[k].unit[j] == 's')
					continue;
				if (c != units[k].unit[j])
					break;
			}
			if (j == ul)
				u = k, best = ul;
		}
		if (u < 0)
			return bc_cql_bad(err, BC_CQL_DURATION, "unknown unit (y mo w d h m s ms us ns)");
		if (u <= last)
			return bc_cql_bad(err, BC_CQL_DURATION, "units out of order or repeated");
		last = u;
		i += best;
		if (v > (lim[units[u].field] - f[units[u].field]) / units[u].mult)
			return bc_cql_bad(err, BC_CQL_DURATION, "out of range (months and days 32 bits, nanoseconds 64)");
		f[units[u].field] += v * units[u].mult;
	}
	for (k = 0; k < 3; k++)
	{
		/* zig-zag of the signed value, then VIntCoding's unsigned vint */
		uint64_t	z = neg && f[k] != 0 ? ((f[k] - 1) << 1) | 1 : f[k] << 1;
		int			extra = 0,
					j;

		while (extra < 8 && z >> (7 * (extra + 1)) != 0)
			extra++;
		if (extra == 8)
		{
			b[nb++] = 0xff;
			for (j = 7; j >= 0; j--)
				b[nb++] = (uint8_t) (z >> (8 * j));
			continue;
		}
		b[nb++] = (uint8_t) ((0xff00 >> extra) | (z >> (8 * extra)));
		for (j = extra - 1; j >= 0; j--)
			b[nb++] = (uint8_t) (z >> (8 * j));
	}
	bc_cqlsink_put(out, (const char *) b, nb);
	return BC_OK;
}

