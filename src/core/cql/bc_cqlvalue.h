/*
 * bc_cqlvalue.h - partition key values as CQL shows them: bytes to text
 * (bc_cqlvalue_text.c), bytes to JSON (bc_cqlvalue_json.c) and text back to
 * bytes (bc_cqlvalue_parse.c), under a marshal type (bc_cqltype.h).  The
 * scalar formats and scans they share are bc_cqlvalue_scalar.c and
 * bc_cqlvalue_scan.c; the output sink, with its escaping layers,
 * bc_cqlvalue_sink.c; the small pieces all of them use (the containers'
 * framing, hex, digits), bc_cqlvalue_common.c, which uses none of them.
 *
 * The text is Cassandra's AbstractType.getString (what sstabledump prints
 * for a partition key, and what nodetool getsstables and sstabledump -k
 * read back with AbstractType.fromString), except that blobs carry 0x.
 * Composite components are joined with ':', a ':' inside one written \:,
 * and '!' added after a component whose text ends in '\' or '!'
 * (AbstractCompositeType.escape); tuple and UDT fields likewise, '@' for
 * a null field and \@ for an '@' (TupleType.getString).  The parse is the
 * exact inverse: bytes -> text -> bytes gives the bytes back, save where
 * Cassandra itself folds two encodings into one value (see README.md).
 *
 * Output goes to a bc_cqlsink over the caller's buffer: it counts every
 * byte, writing those that fit, so that a call returning BC_ERR_BUFFER
 * leaves the size needed in sink.len.  Nothing allocates.
 */
#ifndef BC_CQLVALUE_H
#define BC_CQLVALUE_H

#include <stddef.h>
#include <stdint.h>

#include "bc_cqltype.h"
#include "bc_status.h"

/* escaping layers of a sink */
#define BC_CQLESC_COMPOSITE 1	/* a composite component: \: and the '!' rule */
#define BC_CQLESC_TUPLE		2	/* a tuple/UDT field: \:, \@ and the '!' rule */
#define BC_CQLESC_JSON		3	/* inside a JSON string */

/* the most escaping layers a sink nests, the depth of emit's recursion
 * (bc_cqlvalue_sink.c): a value pushes at most one a level of its type */
#define BC_CQLSINK_MAX_LAYERS (2 * BC_CQL_MAX_DEPTH + 2)

typedef struct bc_cqlsink
{
	uint8_t    *p;
	size_t		cap;
	size_t		len;			/* bytes written or needed */
	int			nlayers;
	struct
	{
		int			kind;
		size_t		count;		/* characters that entered the layer */
		uint8_t		first;
		uint8_t		last;
	}			layer[BC_CQLSINK_MAX_LAYERS];
} bc_cqlsink;

/* What went wrong, in words, for the caller's message. */
typedef struct bc_cqlerr
{
	char		msg[256];
} bc_cqlerr;

void		bc_cqlsink_init(bc_cqlsink *s, void *buf, size_t cap);
void		bc_cqlsink_putc(bc_cqlsink *s, char c);
void		bc_cqlsink_put(bc_cqlsink *s, const char *p, size_t n);
void		bc_cqlsink_puts(bc_cqlsink *s, const char *str);
/* text written from here goes through a layer of kind */
void		bc_cqlsink_push(bc_cqlsink *s, int kind);
/* ends the innermost layer (adds the '!' of its rule) */
void		bc_cqlsink_pop(bc_cqlsink *s);

/* set err's message (printf-style) and return st */
bc_status	bc_cqlerr_set(bc_cqlerr *err, bc_status st, const char *fmt,...)
#if defined(__GNUC__)
			__attribute__((format(printf, 3, 4)))
#endif
			;

/*
 * The key's text, its JSON (an array of one value per component) and the
 * key's bytes from its text.  BC_ERR_CQL_VALUE: the bytes do not decode;
 * BC_ERR_CQL_SYNTAX: the text does not parse; BC_ERR_BUFFER: out was too
 * small (out->len is the size needed).  Text is UTF-8; a NUL inside a text
 * value is written as it is (the caller decides).  Text and JSON need a
 * work area for varint digits: work holds BC_CQL_WORK_WORDS(len) words.
 * The parse needs a scratch copy of the text: scratch holds at least
 * len + 1 bytes.
 */
#define BC_CQL_WORK_WORDS(len) ((len) + 16)

bc_status	bc_cql_key_text(const bc_cqltype *t, const uint8_t *key, size_t len,
							uint32_t *work, bc_cqlsink *out, bc_cqlerr *err);
bc_status	bc_cql_key_json(const bc_cqltype *t, const uint8_t *key, size_t len,
							uint32_t *work, bc_cqlsink *out, bc_cqlerr *err);
bc_status	bc_cql_key_parse(const bc_cqltype *t, const char *text, size_t len,
							 char *scratch, bc_cqlsink *out, bc_cqlerr *err);

/* ---- shared by the three (bc_cqlvalue_scalar.c, bc_cqlvalue_scan.c) ---- */

/* the text of a scalar value of kind (not a collection, tuple, composite);
 * into a sink of no buffer (init with NULL) it only checks the bytes, and
 * work may be NULL */
bc_status	bc_cql_scalar_text(bc_cqlkind kind, const uint8_t *p, size_t len,
							   uint32_t *work, bc_cqlsink *out, bc_cqlerr *err);

/* the value of a scalar as JSON (a number, true/false, null or a string) */
bc_status	bc_cql_scalar_json(bc_cqlkind kind, const uint8_t *p, size_t len,
							   uint32_t *work, bc_cqlsink *out, bc_cqlerr *err);

/* the bytes of a scalar from its text s[0 .. n); s[n] is writable
 * scratch (restored before returning) */
bc_status	bc_cql_scalar_parse(bc_cqlkind kind, char *s, size_t n,
								bc_cqlsink *out, bc_cqlerr *err);

/* 1 when p[0 .. n) is well-formed UTF-8 (no surrogates, at most U+10FFFF) */
int			bc_cql_utf8_valid(const uint8_t *p, size_t n);

/* [0x]hex s[0 .. n) into out; 0 when it is not hex; a hex digit's value,
 * -1 for another character (bc_cqlvalue_common.c) */
int			bc_cql_parse_hex(const char *s, size_t n, bc_cqlsink *out);
int			bc_cql_hexval(char c);

/* p[0 .. n) as lower-case hex, after 0x when prefix */
void		bc_cql_put_hex(bc_cqlsink *out, const uint8_t *p, size_t n, int prefix);

/* bc_cqlvalue_number.c: a varint's decimal (n >= 1 bytes), a decimal's
 * BigDecimal.toString (unscaled n >= 1 bytes), Java's Float/Double.toString */
void		bc_cql_put_varint(bc_cqlsink *out, const uint8_t *p, size_t n, uint32_t *work);
void		bc_cql_put_decimal(bc_cqlsink *out, int32_t scale, const uint8_t *p, size_t n,
							   uint32_t *work);
void		bc_cql_put_java_fp(bc_cqlsink *out, double v, int is_float);

/*
 * The framing of the container types, shared by the text, JSON and parse
 * so that all three accept the same bytes (bc_cqlvalue_common.c).  Each
 * reads the part at *pos of p[0 .. len) and moves *pos past it.
 *
 * A composite component: BE16 length, the value, an end-of-component
 * byte: 0, or 1 / 0xff on the last component only (Cassandra prints
 * those as :! and :_).  A tuple or UDT field: BE32 length, -1 for null
 * (*v NULL).  A collection: BE32 count, then BE32 length and value per
 * element (per key and per value of a map), no null.
 */
bc_status	bc_cql_composite_part(const uint8_t *p, size_t len, size_t *pos, int i, int nparams,
								  const uint8_t **v, size_t *vlen, int *eoc, bc_cqlerr *err);
bc_status	bc_cql_field_part(const uint8_t *p, size_t len, size_t *pos, int i,
							  const uint8_t **v, size_t *vlen, bc_cqlerr *err);
bc_status	bc_cql_collection_count(const bc_cqltype *t, int node, const uint8_t *p, size_t len,
									size_t *pos, uint32_t *count, bc_cqlerr *err);
bc_status	bc_cql_element(const uint8_t *p, size_t len, size_t *pos,
						   const uint8_t **v, size_t *vlen, bc_cqlerr *err);

/* the JSON of a value of node, depth levels down in the type (the root
 * is 1; deeper than BC_CQL_MAX_DEPTH is BC_ERR_CQL_VALUE) (bc_cqlvalue_json.c);
 * with a sink of no buffer it checks that the bytes decode */
bc_status	bc_cql_value_json(const bc_cqltype *t, int node, int depth, const uint8_t *p,
							  size_t len, uint32_t *work, bc_cqlsink *out, bc_cqlerr *err);

/* the scanners' helpers (bc_cqlvalue_common.c): a syntax error of kind;
 * digits only in [0, max]; [+-]digits in [min, max]; v big-endian in
 * bytes bytes */
bc_status	bc_cql_bad(bc_cqlerr *err, bc_cqlkind kind, const char *what);
int			bc_cql_is_digit(char c);
int			bc_cql_digits_value(const char *s, size_t n, uint64_t max, uint64_t *v);
int			bc_cql_scan_int(const char *s, size_t n, int64_t min, int64_t max, int64_t *v);
void		bc_cql_put_be(bc_cqlsink *out, uint64_t v, int bytes);

/* bc_cqlvalue_scan_time.c */
bc_status	bc_cql_scan_timestamp(char *s, size_t n, bc_cqlsink *out, bc_cqlerr *err);
bc_status	bc_cql_scan_date(char *s, size_t n, bc_cqlsink *out, bc_cqlerr *err);
bc_status	bc_cql_scan_time(char *s, size_t n, bc_cqlsink *out, bc_cqlerr *err);
bc_status	bc_cql_scan_duration(char *s, size_t n, bc_cqlsink *out, bc_cqlerr *err);

#define BC_CQL_NS_PER_DAY INT64_C(86400000000000)

/* BE16 and BE32 reads */
#define BC_CQL_BE16(p) ((uint32_t) (p)[0] << 8 | (uint32_t) (p)[1])
#define BC_CQL_BE32(p) ((uint32_t) (p)[0] << 24 | (uint32_t) (p)[1] << 16 | \
						(uint32_t) (p)[2] << 8 | (uint32_t) (p)[3])

#endif							/* BC_CQLVALUE_H */
