/*
 * fuzz_keys.c - key serialization (bc_keys.c, bc_keys_number.c):
 *
 *   - the input as varint and decimal text (bc_ser_varint_text,
 *     bc_ser_decimal_text) against a model of BigInteger(String) and
 *     BigDecimal(String), with a large, an exact, a too small and a zero
 *     output buffer (exact-size heap blocks, so ASan sees any overrun);
 *   - the input split into composite key components (bc_ser_composite,
 *     bc_composite_size) against the reference framing.
 */
#include <string.h>

#include "bc_endian.h"
#include "bc_keys.h"
#include "bc_status.h"
#include "fuzz.h"

/* Composite components at most (the rest stays in the last one). */
#define FUZZ_MAX_COMPONENTS 256

/* Mirrors of bc_keys_number.c's and bc_keys.c's limits (not in the header). */
#define REF_MAX_NUMBER_DIGITS (131072 + 16383)
#define REF_MAX_KEY_BYTES 65535

/* ------------------------------------------------------------------------
 * varint and decimal text
 * ------------------------------------------------------------------------ */

/* Minimal big-endian two's complement of v (BigInteger.toByteArray). */
static size_t
ref_twos(int64_t v, uint8_t out[8])
{
	size_t		n = 1;
	int			i;

	while (n < 8)
	{
		int64_t		lo = -((int64_t) 1 << (8 * n - 1));
		int64_t		hi = ((int64_t) 1 << (8 * n - 1)) - 1;

		if (v >= lo && v <= hi)
			break;
		n++;
	}
	for (i = 0; i < (int) n; i++)
		out[i] = (uint8_t) ((uint64_t) v >> (8 * (n - 1 - (size_t) i)));
	return n;
}

static int
isdig(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Reference acceptance of varint / decimal text (BigInteger(String),
 * BigDecimal(String) as the header documents them).  Returns the status
 * the core must give with a large enough buffer; when *small is set the
 * value fits int64: *unscaled, *scale hold it.
 */
static bc_status
ref_number(const char *t, size_t len, int decimal, int *small,
		   int64_t *unscaled, int64_t *scale)
{
	size_t		i = 0,
				ndigits = 0,
				nfrac = 0,
				sig = 0;
	int			neg = 0,
				dot = 0;
	uint64_t	mag = 0;
	int64_t		exp = 0;

	*small = 0;
	if (i < len && (t[i] == '+' || t[i] == '-'))
		neg = t[i++] == '-';
	for (; i < len; i++)
	{
		if (isdig(t[i]))
		{
			ndigits++;
			if (dot)
				nfrac++;
			if (sig > 0 || t[i] != '0')
				sig++;
			if (sig <= 18)
				mag = mag * 10 + (uint64_t) (t[i] - '0');
		}
		else if (decimal && t[i] == '.' && !dot)
			dot = 1;
		else
			break;
	}
	if (ndigits == 0)
		return BC_ERR_NUMBER_SYNTAX;
	if (i < len)
	{
		int			eneg = 0;
		size_t		edigits = 0;

		if (!decimal || (t[i] != 'e' && t[i] != 'E'))
			return BC_ERR_NUMBER_SYNTAX;
		i++;
		if (i < len && (t[i] == '+' || t[i] == '-'))
			eneg = t[i++] == '-';
		for (; i < len; i++)
		{
			if (!isdig(t[i]))
				return BC_ERR_NUMBER_SYNTAX;
			edigits++;
			if (exp < INT64_C(100000000000000))		/* saturate */
				exp = exp * 10 + (t[i] - '0');
		}
		if (edigits == 0)
			return BC_ERR_NUMBER_SYNTAX;
		if (eneg)
			exp = -exp;
		if (exp < INT32_MIN || exp > INT32_MAX)
			return BC_ERR_NUMBER_RANGE;
	}
	if (decimal)
	{
		int64_t		sc = (int64_t) nfrac - exp;

		if (sc < INT32_MIN || sc > INT32_MAX)
			return BC_ERR_NUMBER_RANGE;
		*scale = sc;
	}
	if (sig > REF_MAX_NUMBER_DIGITS)
		return BC_ERR_NUMBER_RANGE;
	if (sig <= 18)
	{
		*small = 1;
		*unscaled = neg ? -(int64_t) mag : (int64_t) mag;
	}
	return BC_OK;
}

typedef bc_status (*number_fn) (const char *, size_t, uint8_t *, size_t, size_t *);

static bc_status
call_number(number_fn fn, const char *t, size_t len, size_t cap,
			uint8_t *copy_out, size_t *outlen)
{
	exact_buf	b = exact_alloc(cap);
	size_t		n = (size_t) -1;
	bc_status	st = fn(t, len, b.p, cap, &n);

	if (st == BC_OK)
	{
		CHECK(n <= cap);
		CHECK(n >= 1);
		if (copy_out != NULL)
			memcpy(copy_out, b.p, n);
		*outlen = n;
	}
	free(b.base);
	return st;
}

void
fuzz_numbers(const uint8_t *data, size_t len)
{
	const char *t = (const char *) data;
	int			decimal;

	for (decimal = 0; decimal < 2; decimal++)
	{
		number_fn	fn = decimal ? bc_ser_decimal_text : bc_ser_varint_text;
		size_t		big = 4 + len / 2 + 16;	/* enough for any result */
		uint8_t    *res = xmalloc(big);
		uint8_t    *res2 = xmalloc(big);
		size_t		n = 0,
					n2 = 0;
		int			small;
		int64_t		unscaled = 0,
					scale = 0;
		bc_status	want = ref_number(t, len, decimal, &small, &unscaled, &scale);
		bc_status	st = call_number(fn, t, len, big, res, &n);
		size_t		caps[4];
		int			i;

		CHECK(st == want);
		CHECK(fn(NULL, len, res2, big, &n2) == BC_ERR_NUMBER_SYNTAX);
		if (st == BC_OK && small)
		{
			uint8_t		ref[12];
			size_t		rn = 0;

			if (decimal)
			{
				bc_put_be32(ref, (uint32_t) (int32_t) scale);
				rn = 4;
			}
			rn += ref_twos(unscaled, ref + rn);
			CHECK(n == rn && memcmp(res, ref, rn) == 0);
		}

		/* other capacities: OK iff the result fits, same bytes; same error */
		caps[0] = len > 0 ? data[len - 1] % 24 : 0;
		caps[1] = 0;
		caps[2] = st == BC_OK ? n : 3;
		caps[3] = st == BC_OK ? n - 1 : 5;
		for (i = 0; i < 4; i++)
		{
			bc_status	s2 = call_number(fn, t, len, caps[i], res2, &n2);

			if (st != BC_OK)
				CHECK(s2 == st);
			else if (caps[i] >= n)
				CHECK(s2 == BC_OK && n2 == n && memcmp(res2, res, n) == 0);
			else
				CHECK(s2 == BC_ERR_BUFFER);
		}
		free(res);
		free(res2);
	}
}

/* ------------------------------------------------------------------------
 * Composite keys
 * ------------------------------------------------------------------------ */
void
fuzz_composite(const uint8_t *data, size_t len)
{
	const uint8_t *comps[FUZZ_MAX_COMPONENTS];
	size_t		lens[FUZZ_MAX_COMPONENTS];
	int			n = 0;
	size_t		i,
				start,
				total = 0;
	int			too_long = 0;
	uint8_t		sep;
	uint8_t    *ref;
	size_t		pos = 0;
	size_t		caps[4];
	int			c;

	if (len == 0)
	{
		size_t		ol = 0;
		uint8_t		b[4];

		CHECK(bc_ser_composite(NULL, NULL, 0, b, sizeof(b), &ol) == BC_ERR_BUFFER);
		CHECK(bc_composite_size(NULL, 0) == 0);
		return;
	}

	/* components: data[1..] split on the byte data[0] */
	sep = data[0];
	start = 1;
	for (i = 1; i <= len; i++)
	{
		if ((i == len || data[i] == sep) && n < FUZZ_MAX_COMPONENTS - 1)
		{
			comps[n] = i > start ? data + start : NULL;
			lens[n++] = i - start;
			start = i + 1;
		}
	}
	if (start <= len)
	{
		comps[n] = len > start ? data + start : NULL;
		lens[n++] = len - start;
	}

	for (c = 0; c < n; c++)
	{
		if (lens[c] > REF_MAX_KEY_BYTES)
			too_long = 1;
		total += lens[c] + 3;
		if (total > REF_MAX_KEY_BYTES)
			too_long = 1;
	}
	CHECK(bc_composite_size(lens, n) == total);

	ref = xmalloc(total);
	for (c = 0; c < n; c++)
	{
		ref[pos++] = (uint8_t) (lens[c] >> 8);
		ref[pos++] = (uint8_t) lens[c];
		if (lens[c] > 0)
			memcpy(ref + pos, comps[c], lens[c]);
		pos += lens[c];
		ref[pos++] = 0;
	}

	caps[0] = total;
	caps[1] = total - 1;
	caps[2] = data[len - 1];
	caps[3] = total + 64;
	for (c = 0; c < 4; c++)
	{
		exact_buf	b = exact_alloc(caps[c]);
		size_t		ol = (size_t) -1;
		bc_status	st = bc_ser_composite(comps, lens, n, b.p, caps[c], &ol);

		if (too_long)
			CHECK(st == BC_ERR_KEY_TOO_LONG);
		else if (caps[c] < total)
			CHECK(st == BC_ERR_BUFFER);
		else
		{
			CHECK(st == BC_OK);
			CHECK(ol == total && ol <= caps[c]);
			CHECK(memcmp(b.p, ref, total) == 0);
		}
		free(b.base);
	}
	CHECK(bc_ser_composite(comps, lens, 0, ref, total, &pos) == BC_ERR_BUFFER);
	free(ref);
}
