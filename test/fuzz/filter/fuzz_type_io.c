/*
 * fuzz_type_io.c - the bloom type's input and output functions, through a
 * PostgreSQL-free replica of src/bloom_io.c on top of bc_filterdb_check:
 * the input as the type's binary form (bloom_recv) and as its text form
 * (bloom_in, up to the first NUL); valid values get the deep checks of
 * fuzz_filter.c, a text output/input round trip and a Filter.db export and
 * import in both layouts.
 */
#include <string.h>

#include "bc_codec.h"
#include "bc_endian.h"
#include "bc_filter.h"
#include "bc_status.h"
#include "fuzz.h"

/* ------------------------------------------------------------------------
 * Replica of the bloom type's input validation (src/bloom_io.c).
 *
 * This mirrors, without PostgreSQL, exactly:
 *   bloom_recv:          bloom_from_external(all remaining bytes)
 *   bloom_in:            "\x" prefix, even digit count, size limit, every
 *                        character a hex digit, hex_decode, then
 *                        bloom_from_external
 *   bloom_from_external: 1 GB size limit, then bloom_validate
 *   bloom_validate:      VARSIZE >= BLOOM_HDRSZ (>= 4 value bytes),
 *                        format == BLOOM_FORMAT_VERSION (1), no flag but
 *                        BLOOM_FLAG_OLD_ORDER (0x01), reserved uint16 == 0,
 *                        bc_filterdb_check(filterdb, len - 4,
 *                        BC_MAX_WORDS_VALUE)
 * Keep it in step with bloom_io.c.
 * ------------------------------------------------------------------------ */
#define REPL_VARHDRSZ 4
#define REPL_FORMAT_VERSION 1
#define REPL_FLAG_OLD_ORDER 0x01
#define REPL_FLAGS_KNOWN REPL_FLAG_OLD_ORDER
#define REPL_HDR_AFTER_VARLENA 4	/* format, flags, reserved[2] */

typedef enum repl_status
{
	REPL_OK = 0,
	REPL_NO_PREFIX,				/* bloom_in: not "\x..." */
	REPL_ODD_DIGITS,			/* bloom_in: odd number of hex digits */
	REPL_BAD_DIGIT,				/* bloom_in: not a hex digit */
	REPL_TOO_LARGE,				/* over the 1 GB value limit */
	REPL_SHORT,					/* shorter than the format header */
	REPL_FORMAT,				/* unknown format version */
	REPL_FLAGS,					/* unknown flags */
	REPL_RESERVED,				/* reserved bytes not zero */
	REPL_FILTERDB				/* bc_filterdb_check failed */
} repl_status;

/* bloom_validate on value bytes v[0..len) (what follows the varlena header) */
static repl_status
repl_validate(const uint8_t *v, size_t len, bc_status *st,
			  int32_t *k, int64_t *w)
{
	if (len + REPL_VARHDRSZ < (size_t) BC_VALUE_PREFIX)
		return REPL_SHORT;
	if (v[0] != REPL_FORMAT_VERSION)
		return REPL_FORMAT;
	if ((v[1] & ~REPL_FLAGS_KNOWN) != 0)
		return REPL_FLAGS;
	if (v[2] != 0 || v[3] != 0)
		return REPL_RESERVED;
	*st = checked_filterdb_check(v + REPL_HDR_AFTER_VARLENA, len - REPL_HDR_AFTER_VARLENA,
								 BC_MAX_WORDS_VALUE, k, w);
	if (*st != BC_OK)
		return REPL_FILTERDB;
	return REPL_OK;
}

/* bloom_from_external */
static repl_status
repl_from_external(const uint8_t *data, size_t len, bc_status *st,
				   int32_t *k, int64_t *w)
{
	if (len > (size_t) (BC_MAX_VALUE_BYTES - REPL_VARHDRSZ))
		return REPL_TOO_LARGE;
	return repl_validate(data, len, st, k, w);
}

/* bloom_recv */
static repl_status
repl_recv(const uint8_t *data, size_t len, bc_status *st, int32_t *k, int64_t *w)
{
	return repl_from_external(data, len, st, k, w);
}

/* isxdigit() in the C locale */
static int
repl_isxdigit(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int
hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return c - 'A' + 10;
}

/*
 * bloom_in on the C string str (NUL-terminated, as PostgreSQL passes it).
 * On REPL_OK and on the validation statuses, *bytes (malloc'ed, caller
 * frees) and *nbytes hold the decoded value bytes.
 */
static repl_status
repl_in(const char *str, uint8_t **bytes, size_t *nbytes, bc_status *st,
		int32_t *k, int64_t *w)
{
	size_t		len = strlen(str);
	size_t		n,
				i;
	uint8_t    *buf;

	*bytes = NULL;
	if (len < 2 || str[0] != '\\' || str[1] != 'x')
		return REPL_NO_PREFIX;
	str += 2;
	len -= 2;
	if (len % 2 != 0)
		return REPL_ODD_DIGITS;
	n = len / 2;
	if (n > (size_t) (BC_MAX_VALUE_BYTES - REPL_VARHDRSZ))
		return REPL_TOO_LARGE;
	for (i = 0; i < len; i++)
		if (!repl_isxdigit((unsigned char) str[i]))
			return REPL_BAD_DIGIT;
	buf = xmalloc(n);
	for (i = 0; i < n; i++)
		buf[i] = (uint8_t) (hexval((unsigned char) str[2 * i]) * 16 +
							hexval((unsigned char) str[2 * i + 1]));
	*bytes = buf;
	*nbytes = n;
	return repl_from_external(buf, n, st, k, w);
}

/* bloom_out: "\x" + lower-case hex, NUL-terminated (malloc'ed) */
static char *
repl_out(const uint8_t *v, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	char	   *s = xmalloc(2 * len + 3);
	size_t		i;

	s[0] = '\\';
	s[1] = 'x';
	for (i = 0; i < len; i++)
	{
		s[2 + 2 * i] = hex[v[i] >> 4];
		s[3 + 2 * i] = hex[v[i] & 15];
	}
	s[2 * len + 2] = '\0';
	return s;
}

/*
 * A valid type value v[0..len): deep checks of its (raw) image, text
 * output/input round trip, and Filter.db export/import round trip in both
 * layouts (bloom_from_filterdb: check, then convert to raw).
 */
static void
check_value(const uint8_t *v, size_t len, int32_t k, int64_t w,
			const key_ref *keys, int nkeys)
{
	const uint8_t *img = v + REPL_HDR_AFTER_VARLENA;
	size_t		ilen = len - REPL_HDR_AFTER_VARLENA;
	char	   *text;
	uint8_t    *dec = NULL;
	size_t		ndec = 0;
	bc_status	st = BC_OK;
	int32_t		k2 = 0;
	int64_t		w2 = 0;
	uint8_t    *exp_img = xmalloc(ilen);
	uint8_t    *imp = xmalloc(len);
	bc_filter	f;
	int			l;

	check_image(img, ilen, k, w, keys, nkeys);

	/* text round trip */
	text = repl_out(v, len);
	CHECK(repl_in(text, &dec, &ndec, &st, &k2, &w2) == REPL_OK);
	CHECK(ndec == len && memcmp(dec, v, len) == 0 && k2 == k && w2 == w);
	free(dec);
	free(text);

	/* export in each layout, then import as bloom_from_filterdb does */
	bc_filter_init(&f, k, w, (v[1] & REPL_FLAG_OLD_ORDER) ? BC_ORDER_OLD : BC_ORDER_NEW,
				   (uint8_t *) img + BC_FILTERDB_HEADER);
	for (l = 0; l < 2; l++)
	{
		bc_layout	layout = l ? BC_LAYOUT_SWAPPED : BC_LAYOUT_RAW;

		bc_filterdb_write(&f, layout, exp_img);
		CHECK(checked_filterdb_check(exp_img, ilen, BC_MAX_WORDS_VALUE, &k2, &w2) == BC_OK);
		memcpy(imp, v, REPL_HDR_AFTER_VARLENA);
		bc_put_be32(imp + REPL_HDR_AFTER_VARLENA, (uint32_t) k2);
		bc_put_be32(imp + REPL_HDR_AFTER_VARLENA + 4, (uint32_t) w2);
		bc_payload_convert(imp + REPL_HDR_AFTER_VARLENA + BC_FILTERDB_HEADER,
						   exp_img + BC_FILTERDB_HEADER, w2, layout, BC_LAYOUT_RAW);
		CHECK(memcmp(imp, v, len) == 0);
	}
	free(exp_img);
	free(imp);
}

void
fuzz_type(const uint8_t *data, size_t len, const key_ref *keys, int nkeys)
{
	bc_status	st = BC_OK,
				st2 = BC_OK;
	int32_t		k = 0,
				k2 = 0;
	int64_t		w = 0,
				w2 = 0;
	repl_status rs;
	char	   *str;
	uint8_t    *dec = NULL;
	size_t		ndec = 0;

	/* binary receive */
	rs = repl_recv(data, len, &st, &k, &w);
	if (rs == REPL_OK)
		check_value(data, len, k, w, keys, nkeys);

	/* text input: the input as a C string (up to its first NUL) */
	str = xmalloc(len + 1);
	memcpy(str, data, len);
	str[len] = '\0';
	rs = repl_in(str, &dec, &ndec, &st, &k, &w);
	if (dec != NULL)
	{
		/* text input and binary receive agree on the decoded bytes */
		CHECK(repl_recv(dec, ndec, &st2, &k2, &w2) == rs);
		if (rs == REPL_FILTERDB)
			CHECK(st2 == st);
		if (rs == REPL_OK)
		{
			char	   *out;

			CHECK(k2 == k && w2 == w);
			check_value(dec, ndec, k, w, keys, nkeys);
			/* text output is the lower-case form of the input */
			out = repl_out(dec, ndec);
			CHECK(strlen(out) == strlen(str));
			{
				size_t		i;

				for (i = 0; out[i]; i++)
					CHECK(out[i] == str[i] ||
						  (str[i] >= 'A' && str[i] <= 'F' && out[i] == str[i] - 'A' + 'a'));
			}
			free(out);
		}
		free(dec);
	}
	else
		CHECK(rs == REPL_NO_PREFIX || rs == REPL_ODD_DIGITS ||
			  rs == REPL_BAD_DIGIT || rs == REPL_TOO_LARGE);
	free(str);
}

