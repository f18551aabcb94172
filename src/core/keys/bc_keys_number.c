/*
 * bc_keys_number.c - the serializers of varint and decimal partition keys
 * (IntegerSerializer, DecimalSerializer), from their decimal text.
 *
 * varint and decimal are produced from their decimal text, with Java's
 * BigInteger(String) / BigDecimal(String) semantics, by a small base-256
 * bignum that works directly in the caller's output buffer: the magnitude
 * is built least significant byte first (multiply by 10^k, add the next k
 * digits), then negated to two's complement when needed, given a sign byte
 * when needed and finally reversed to big-endian.  The magnitude only grows
 * while digits are read, so running out of room at any step means the
 * result cannot fit either.  On any error the contents of the output buffer
 * are unspecified and *outlen is not set.
 *
 * Nothing here allocates; all arithmetic that could overflow is done on
 * unsigned types.
 */
#include <string.h>

#include "bc_endian.h"
#include "bc_keys.h"
#include "bc_status.h"

/*
 * Most significant digits accepted in varint/decimal text: as many as a
 * PostgreSQL numeric can hold (131072 before the point, 16383 after).  The
 * result (at most about 61 KB) stays below the 64 KB partition key limit,
 * and the quadratic conversion stays fast.  Leading zeros are not counted.
 */
#define BC_MAX_NUMBER_DIGITS (131072 + 16383)

/* Digits multiplied in at once: 256 * 10^16 + carry still fits in 64 bits. */
#define BC_CHUNK_DIGITS 16

/* ------------------------------------------------------------------------
 * varint and decimal
 * ------------------------------------------------------------------------ */

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * mag (little-endian, *mlen significant bytes, no high zero bytes) =
 * mag * mul + add.  mul <= 10^16, add < mul.
 */
static bc_status
mag_mul_add(uint8_t *mag, size_t *mlen, size_t cap, uint64_t mul, uint64_t add)
{
	uint64_t	carry = add;
	size_t		i;

	for (i = 0; i < *mlen; i++)
	{
		uint64_t	v = (uint64_t) mag[i] * mul + carry;

		mag[i] = (uint8_t) v;
		carry = v >> 8;
	}
	while (carry != 0)
	{
		if (*mlen >= cap)
			return BC_ERR_BUFFER;
		mag[(*mlen)++] = (uint8_t) carry;
		carry >>= 8;
	}
	return BC_OK;
}

/*
 * Build the magnitude of the digits in s[0..n) (any '.' is skipped; the
 * caller has validated the text) into out, little-endian.
 */
static bc_status
mag_from_digits(const char *s, size_t n, uint8_t *out, size_t outcap,
				size_t *mlen)
{
	uint64_t	chunk = 0;
	uint64_t	mul = 1;
	int			nchunk = 0;
	size_t		i;
	bc_status	st;

	*mlen = 0;
	for (i = 0; i < n; i++)
	{
		if (!is_digit(s[i]))
			continue;
		chunk = chunk * 10 + (uint64_t) (s[i] - '0');
		mul *= 10;
		if (++nchunk == BC_CHUNK_DIGITS)
		{
			st = mag_mul_add(out, mlen, outcap, mul, chunk);
			if (st != BC_OK)
				return st;
			chunk = 0;
			mul = 1;
			nchunk = 0;
		}
	}
	if (nchunk > 0)
		return mag_mul_add(out, mlen, outcap, mul, chunk);
	return BC_OK;
}

/*
 * Turn the little-endian magnitude in out[0..mlen) into the minimal
 * big-endian two's complement of (neg ? -mag : mag), as
 * BigInteger.toByteArray() gives it (zero is one 0x00 byte).
 */
static bc_status
mag_finish(uint8_t *out, size_t mlen, size_t outcap, int neg, size_t *outlen)
{
	int			ext = -1;		/* sign extension byte to add, if any */
	size_t		i;

	if (mlen == 0)
	{
		if (outcap < 1)
			return BC_ERR_BUFFER;
		out[0] = 0;
		*outlen = 1;
		return BC_OK;
	}

	if (neg)
	{
		unsigned	carry = 1;

		for (i = 0; i < mlen; i++)
		{
			unsigned	v = (unsigned) (uint8_t) ~out[i] + carry;

			out[i] = (uint8_t) v;
			carry = v >> 8;
		}

		/*
		 * -mag fits in mlen bytes iff the sign bit came out set; it never
		 * fits in fewer, since mag >= 256^(mlen-1).
		 */
		if ((out[mlen - 1] & 0x80) == 0)
			ext = 0xff;
	}
	else if (out[mlen - 1] & 0x80)
		ext = 0x00;

	if (ext >= 0)
	{
		if (mlen >= outcap)
			return BC_ERR_BUFFER;
		out[mlen++] = (uint8_t) ext;
	}

	for (i = 0; i < mlen / 2; i++)
	{
		uint8_t		t = out[i];

		out[i] = out[mlen - 1 - i];
		out[mlen - 1 - i] = t;
	}
	*outlen = mlen;
	return BC_OK;
}

/*
 * varint text, as BigInteger(String) reads it: an optional '+' or '-', then
 * one or more ASCII digits (leading zeros allowed), nothing else.
 */
bc_status
bc_ser_varint_text(const char *text, size_t len,
				   uint8_t *out, size_t outcap, size_t *outlen)
{
	size_t		i = 0;
	size_t		ndigits = 0;
	size_t		sig = 0;
	int			neg = 0;
	size_t		mlen;
	bc_status	st;

	if (text == NULL)
		return BC_ERR_NUMBER_SYNTAX;
	if (i < len && (text[i] == '+' || text[i] == '-'))
	{
		neg = (text[i] == '-');
		i++;
	}
	for (; i < len; i++)
	{
		if (!is_digit(text[i]))
			return BC_ERR_NUMBER_SYNTAX;
		ndigits++;
		if (sig > 0 || text[i] != '0')
			sig++;
	}
	if (ndigits == 0)
		return BC_ERR_NUMBER_SYNTAX;
	if (sig > BC_MAX_NUMBER_DIGITS)
		return BC_ERR_NUMBER_RANGE;

	st = mag_from_digits(text, len, out, outcap, &mlen);
	if (st != BC_OK)
		return st;
	return mag_finish(out, mlen, outcap, neg, outlen);
}

/*
 * decimal text, as BigDecimal(String) reads it: an optional sign, digits
 * with at most one '.' (at least one digit: "1.", ".5" are fine), then
 * optionally 'e' or 'E', an optional sign and one or more digits.  The
 * unscaled value is all the digits, the scale the number of digits after
 * the '.' minus the exponent.
 *
 * The text is checked completely first: syntax errors win over range
 * errors, which win over a too small buffer.  Range errors: an exponent
 * outside int32 (Java: "Exponent overflow" / "Too many nonzero exponent
 * digits"), a scale outside int32 (Java: "Scale out of range"), or more
 * than BC_MAX_NUMBER_DIGITS significant digits (our own limit).
 */
bc_status
bc_ser_decimal_text(const char *text, size_t len,
					uint8_t *out, size_t outcap, size_t *outlen)
{
	size_t		i = 0;
	size_t		mant_start;
	size_t		mant_end;
	size_t		ndigits = 0;
	size_t		nfrac = 0;
	size_t		sig = 0;
	int			seen_dot = 0;
	int			neg = 0;
	int			exp_neg = 0;
	int			exp_sig = 0;	/* significant exponent digits, capped */
	int64_t		exp = 0;
	int64_t		scale;
	size_t		mlen;
	bc_status	st;

	if (text == NULL)
		return BC_ERR_NUMBER_SYNTAX;

	/* mantissa */
	if (i < len && (text[i] == '+' || text[i] == '-'))
	{
		neg = (text[i] == '-');
		i++;
	}
	mant_start = i;
	for (; i < len; i++)
	{
		char		c = text[i];

		if (is_digit(c))
		{
			ndigits++;
			if (seen_dot)
				nfrac++;
			if (sig > 0 || c != '0')
				sig++;
		}
		else if (c == '.')
		{
			if (seen_dot)
				return BC_ERR_NUMBER_SYNTAX;
			seen_dot = 1;
		}
		else
			break;
	}
	mant_end = i;
	if (ndigits == 0)
		return BC_ERR_NUMBER_SYNTAX;

	/* exponent */
	if (i < len)
	{
		if (text[i] != 'e' && text[i] != 'E')
			return BC_ERR_NUMBER_SYNTAX;
		i++;
		if (i < len && (text[i] == '+' || text[i] == '-'))
		{
			exp_neg = (text[i] == '-');
			i++;
		}
		if (i >= len)
			return BC_ERR_NUMBER_SYNTAX;
		for (; i < len; i++)
		{
			char		c = text[i];

			if (!is_digit(c))
				return BC_ERR_NUMBER_SYNTAX;
			if (exp_sig > 0 || c != '0')
			{
				/* 11 digits still fit in int64; more is out of range */
				if (exp_sig < 11)
					exp = exp * 10 + (c - '0');
				if (exp_sig < 12)
					exp_sig++;
			}
		}
		if (exp_neg)
			exp = -exp;
		if (exp_sig > 11 || exp < INT32_MIN || exp > INT32_MAX)
			return BC_ERR_NUMBER_RANGE;
	}

	/* scale = fraction digits - exponent, within int32 */
	if (nfrac > (size_t) INT32_MAX)
		return BC_ERR_NUMBER_RANGE;
	scale = (int64_t) nfrac - exp;
	if (scale < INT32_MIN || scale > INT32_MAX)
		return BC_ERR_NUMBER_RANGE;
	if (sig > BC_MAX_NUMBER_DIGITS)
		return BC_ERR_NUMBER_RANGE;

	if (outcap < 4)
		return BC_ERR_BUFFER;
	bc_put_be32(out, (uint32_t) (int32_t) scale);

	st = mag_from_digits(text + mant_start, mant_end - mant_start,
						 out + 4, outcap - 4, &mlen);
	if (st != BC_OK)
		return st;
	st = mag_finish(out + 4, mlen, outcap - 4, neg, &mlen);
	if (st != BC_OK)
		return st;
	*outlen = 4 + mlen;
	return BC_OK;
}

