/*
 * bc_cqlvalue_number.c - the numbers of the CQL value text: varint
 * (BigInteger.toString), decimal (BigDecimal.toString) and float/double
 * (Float/Double.toString), see bc_cqlvalue_scalar.c for the rules.
 *
 * varint digits come from dividing the two's complement magnitude by 10^9
 * in the caller's work area (BC_CQL_WORK_WORDS): at most n/4 + 1 limbs and
 * n * 8 / 29.9 + 2 chunks of 9 digits for n bytes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_cqlvalue.h"

/* ---- varint and decimal: base 10^9 digits of a two's complement number */

typedef struct bigdec
{
	int			neg;
	uint32_t   *chunk;			/* base 10^9, least significant first */
	size_t		nchunks;		/* 0 for zero */
	size_t		ndigits;		/* decimal digits (1 for zero) */
} bigdec;

/* p[0 .. n) (n >= 1), two's complement big-endian, into work */
static void
bigdec_of(const uint8_t *p, size_t n, uint32_t *work, bigdec *d)
{
	size_t		nl = (n + 3) / 4,
				i;
	uint32_t   *limb = work;
	unsigned	carry = 1;
	uint32_t	top;

	d->neg = (p[0] & 0x80) != 0;
	memset(limb, 0, nl * sizeof(uint32_t));
	for (i = 0; i < n; i++)
	{
		unsigned	b = p[n - 1 - i];

		if (d->neg)
		{
			b = (~b & 0xffu) + carry;
			carry = b >> 8;
			b &= 0xffu;
		}
		limb[i / 4] |= (uint32_t) b << (8 * (i % 4));
	}
	while (nl > 0 && limb[nl - 1] == 0)
		nl--;
	d->chunk = work + (n + 3) / 4;
	d->nchunks = 0;
	while (nl > 0)
	{
		uint64_t	rem = 0;

		for (i = nl; i-- > 0;)
		{
			uint64_t	cur = rem << 32 | limb[i];

			limb[i] = (uint32_t) (cur / 1000000000u);
			rem = cur % 1000000000u;
		}
		d->chunk[d->nchunks++] = (uint32_t) rem;
		while (nl > 0 && limb[nl - 1] == 0)
			nl--;
	}
	d->ndigits = 1;
	if (d->nchunks > 0)
	{
		d->ndigits = 9 * (d->nchunks - 1);
		for (top = d->chunk[d->nchunks - 1]; top > 0; top /= 10)
			d->ndigits++;
	}
}

/* digit k of d's magnitude, 0 the most significant */
static char
bigdec_digit(const bigdec *d, size_t k)
{
	size_t		pos = d->ndigits - 1 - k;	/* from the least significant */
	uint32_t	c;
	size_t		i;

	if (d->nchunks == 0)
		return '0';
	c = d->chunk[pos / 9];
	for (i = 0; i < pos % 9; i++)
		c /= 10;
	return (char) ('0' + c % 10);
}

static void
put_digits(bc_cqlsink *out, const bigdec *d, size_t from, size_t to)
{
	size_t		k;

	for (k = from; k < to; k++)
		bc_cqlsink_putc(out, bigdec_digit(d, k));
}

void
bc_cql_put_varint(bc_cqlsink *out, const uint8_t *p, size_t n, uint32_t *work)
{
	bigdec		d;

	bigdec_of(p, n, work, &d);
	if (d.neg)
		bc_cqlsink_putc(out, '-');
	put_digits(out, &d, 0, d.ndigits);
}

/* BigDecimal.toString of unscaled p[0 .. n) and scale */
void
bc_cql_put_decimal(bc_cqlsink *out, int32_t scale, const uint8_t *p, size_t n, uint32_t *work)
{
	bigdec		d;
	int64_t		adjusted;
	char		buf[24];

	bigdec_of(p, n, work, &d);
	adjusted = -(int64_t) scale + (int64_t) (d.ndigits - 1);
	if (d.neg)
		bc_cqlsink_putc(out, '-');
	if (scale >= 0 && adjusted >= -6)
	{
		if (scale == 0)
			put_digits(out, &d, 0, d.ndigits);
		else if (d.ndigits > (size_t) scale)
		{
			put_digits(out, &d, 0, d.ndigits - (size_t) scale);
			bc_cqlsink_putc(out, '.');
			put_digits(out, &d, d.ndigits - (size_t) scale, d.ndigits);
		}
		else
		{
			size_t		z;

			bc_cqlsink_put(out, "0.", 2);
			for (z = d.ndigits; z < (size_t) scale; z++)
				bc_cqlsink_putc(out, '0');
			put_digits(out, &d, 0, d.ndigits);
		}
		return;
	}
	put_digits(out, &d, 0, 1);
	if (d.ndigits > 1)
	{
		bc_cqlsink_putc(out, '.');
		put_digits(out, &d, 1, d.ndigits);
	}
	snprintf(buf, sizeof(buf), "E%s%lld", adjusted >= 0 ? "+" : "", (long long) adjusted);
	bc_cqlsink_puts(out, buf);
}

/* ---- float and double: Java's toString ---------------------------------- */

void
bc_cql_put_java_fp(bc_cqlsink *out, double v, int is_float)
{
	char		buf[40],
				dig[24];
	int			p,
				nd = 0,
				e,
				i;
	double		a;

	if (isnan(v))
	{
		bc_cqlsink_puts(out, "NaN");
		return;
	}
	if (isinf(v))
	{
		bc_cqlsink_puts(out, v < 0 ? "-Infinity" : "Infinity");
		return;
	}
	if (v == 0)
	{
		bc_cqlsink_puts(out, signbit(v) ? "-0.0" : "0.0");
		return;
	}
	a = fabs(v);
	/* the shortest of at least 2 digits that reads back (JDK 19's rule) */
	for (p = 2; p < 17; p++)
	{
		snprintf(buf, sizeof(buf), "%.*e", p - 1, a);
		if (is_float ? strtof(buf, NULL) == (float) a : strtod(buf, NULL) == a)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*e", p - 1, a);
	for (i = 0; buf[i] != 'e'; i++)
		if (buf[i] != '.')
			dig[nd++] = buf[i];
	e = atoi(buf + i + 1);
	while (nd > 1 && dig[nd - 1] == '0')
		nd--;
	if (v < 0)
		bc_cqlsink_putc(out, '-');
	if (a >= 1e-3 && a < 1e7)
	{
		if (e >= 0)
		{
			for (i = 0; i <= e; i++)
				bc_cqlsink_putc(out, i < nd ? dig[i] : '0');
			bc_cqlsink_putc(out, '.');
			if (nd > e + 1)
				bc_cqlsink_put(out, dig + e + 1, (size_t) (nd - e - 1));
			else
				bc_cqlsink_putc(out, '0');
		}
		else
		{
			bc_cqlsink_put(out, "0.", 2);
			for (i = 0; i < -e - 1; i++)
				bc_cqlsink_putc(out, '0');
			bc_cqlsink_put(out, dig, (size_t) nd);
		}
		return;
	}
	bc_cqlsink_putc(out, dig[0]);
	bc_cqlsink_putc(out, '.');
	if (nd > 1)
		bc_cqlsink_put(out, dig + 1, (size_t) (nd - 1));
	else
		bc_cqlsink_putc(out, '0');
	snprintf(buf, sizeof(buf), "E%d", e);
	bc_cqlsink_puts(out, buf);
}

