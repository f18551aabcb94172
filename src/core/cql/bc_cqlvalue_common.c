/*
 * bc_cqlvalue_common.c - what the CQL value files share, below them all:
 * the framing of the container types, read alike by the text
 * (bc_cqlvalue_text.c), the JSON (bc_cqlvalue_json.c) and the parse
 * (bc_cqlvalue_parse.c) so that all three accept the same bytes; hex
 * digits; and the scanners' small pieces (a syntax error of a kind, digits
 * in a range, a big-endian integer) that bc_cqlvalue_scan.c and
 * bc_cqlvalue_scan_time.c use.  It calls none of them.
 */
#include "bc_cqlvalue.h"

bc_status
bc_cql_composite_part(const uint8_t *p, size_t len, size_t *pos, int i, int nparams,
					  const uint8_t **v, size_t *vlen, int *eoc, bc_cqlerr *err)
{
	size_t		n;

	if (i >= nparams)
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE,
							 "CompositeType: more than its %d components", nparams);
	if (len - *pos < 2)
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE,
							 "CompositeType: component %d ends inside its length", i + 1);
	n = BC_CQL_BE16(p + *pos);
	if (len - *pos - 2 < n + 1)
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE,
							 "CompositeType: component %d of %lu bytes runs past the key",
							 i + 1, (unsigned long) n);
	*v = p + *pos + 2;
	*vlen = n;
	*eoc = p[*pos + 2 + n];
	*pos += 3 + n;
	if (*eoc != 0 && ((*eoc != 1 && *eoc != 0xff) || *pos != len))
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE,
							 "CompositeType: end-of-component byte 0x%02x after component %d",
							 *eoc, i + 1);
	return BC_OK;
}

bc_status
bc_cql_field_part(const uint8_t *p, size_t len, size_t *pos, int i,
				  const uint8_t **v, size_t *vlen, bc_cqlerr *err)
{
	uint32_t	n;

	if (len - *pos < 4)
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "field %d ends inside its length", i + 1);
	n = BC_CQL_BE32(p + *pos);
	*pos += 4;
	if (n == 0xffffffffu)
	{
		*v = NULL;
		*vlen = 0;
		return BC_OK;
	}
	if (n > len - *pos)
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "field %d of %lu bytes runs past the value",
							 i + 1, (unsigned long) n);
	*v = p + *pos;
	*vlen = n;
	*pos += n;
	return BC_OK;
}

bc_status
bc_cql_collection_count(const bc_cqltype *t, int node, const uint8_t *p, size_t len,
						size_t *pos, uint32_t *count, bc_cqlerr *err)
{
	const char *name = bc_cqlkind_name(t->node[node].kind);

	if (len - *pos < 4)
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "%s: %lu bytes, no element count", name,
							 (unsigned long) (len - *pos));
	*count = BC_CQL_BE32(p + *pos);
	*pos += 4;
	/* each element takes at least its 4-byte length */
	if (*count > (len - *pos) / 4)
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "%s: %lu elements cannot fit in %lu bytes",
							 name, (unsigned long) *count, (unsigned long) (len - *pos));
	return BC_OK;
}

bc_status
bc_cql_element(const uint8_t *p, size_t len, size_t *pos, const uint8_t **v, size_t *vlen,
			   bc_cqlerr *err)
{
	uint32_t	n;

	if (len - *pos < 4)
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "a collection element ends inside its length");
	n = BC_CQL_BE32(p + *pos);
	*pos += 4;
	if (n > len - *pos)
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "a collection element of %ld bytes %s",
							 (long) (int32_t) n, (int32_t) n < 0 ? "(null) in a collection" :
							 "runs past the value");
	*v = p + *pos;
	*vlen = n;
	*pos += n;
	return BC_OK;
}

int
bc_cql_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
bc_cql_parse_hex(const char *s, size_t n, bc_cqlsink *out)
{
	size_t		i;

	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2, n -= 2;
	if (n % 2 != 0)
		return 0;
	for (i = 0; i < n; i += 2)
	{
		int			hi = bc_cql_hexval(s[i]),
					lo = bc_cql_hexval(s[i + 1]);

		if (hi < 0 || lo < 0)
			return 0;
		bc_cqlsink_putc(out, (char) (hi << 4 | lo));
	}
	return 1;
}

bc_status
bc_cql_bad(bc_cqlerr *err, bc_cqlkind kind, const char *what)
{
	return bc_cqlerr_set(err, BC_ERR_CQL_SYNTAX, "%s: %s", bc_cqlkind_name(kind), what);
}

int
bc_cql_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* digits s[0 .. n) (n >= 1, digits only) as a value up to max; 0 when
 * out of range */
int
bc_cql_digits_value(const char *s, size_t n, uint64_t max, uint64_t *v)
{
	size_t		i;

	*v = 0;
	for (i = 0; i < n; i++)
	{
		if (!bc_cql_is_digit(s[i]))
			return 0;
		if (*v > (max - (uint64_t) (s[i] - '0')) / 10)
			return 0;
		*v = *v * 10 + (uint64_t) (s[i] - '0');
	}
	return n > 0;
}

/* [+-]digits in [min, max]; 0 when not */
int
bc_cql_scan_int(const char *s, size_t n, int64_t min, int64_t max, int64_t *v)
{
	int			neg = 0;
	uint64_t	u;

	if (n > 0 && (s[0] == '+' || s[0] == '-'))
	{
		neg = s[0] == '-';
		s++, n--;
	}
	if (!bc_cql_digits_value(s, n, neg ? (uint64_t) 0 - (uint64_t) min : (uint64_t) max, &u))
		return 0;
	*v = neg ? (int64_t) ((uint64_t) 0 - u) : (int64_t) u;
	return 1;
}

void
bc_cql_put_be(bc_cqlsink *out, uint64_t v, int bytes)
{
	int			i;

	for (i = bytes - 1; i >= 0; i--)
		bc_cqlsink_putc(out, (char) (v >> (8 * i)));
}
