/*
 * bc_cqlvalue_parse.c - a partition key's bytes from its text: the
 * inverse of bc_cqlvalue_text.c, and what Cassandra's
 * AbstractType.fromString reads (nodetool getsstables, sstabledump -k).
 *
 *   CompositeType    split on every ':' not preceded by '\'
 *                    (AbstractCompositeType.split); a part "!" or "_"
 *                    after the last component sets its end-of-component
 *                    byte to 1 or 0xff; each part unescaped (\: to ':',
 *                    one trailing '!' dropped) and read by its type.  ""
 *                    is one empty component (a composite of none is not
 *                    a key).
 *   TupleType,       split likewise, "@" a null field, \: and \@
 *   UserType         unescaped, one trailing '!' dropped; "" no field,
 *                    "!" one empty field; fewer fields than the type has
 *                    are kept fewer (TupleType.fromString).
 *   List/Set/Map     hex (with or without 0x), which must be a collection
 *                    of the type.
 *
 * The text is copied to the caller's scratch and unescaped there in
 * place: each part only shrinks, inside its own span.
 */
#include <string.h>

#include "bc_cqlvalue.h"

/* parse_value, parse_composite and parse_tuple recurse, one level a call
 * of parse_value, bounded by BC_CQL_MAX_DEPTH (bc_cqltype.h) */
static bc_status parse_value(const bc_cqltype *t, int node, int depth, char *s, size_t n,
							 bc_cqlsink *out, bc_cqlerr *err);

/* the end of the part starting at s[from]: the next unescaped ':' or n */
static size_t
part_end(const char *s, size_t n, size_t from)
{
	size_t		i;

	for (i = from; i < n; i++)
		if (s[i] == ':' && !(i > 0 && s[i - 1] == '\\'))
			return i;
	return n;
}

/* unescape s[0 .. n) in place (\: and, for tuples, \@), drop one trailing
 * '!'; the new length */
static size_t
unescape(char *s, size_t n, int tuple)
{
	size_t		i,
				k = 0;

	for (i = 0; i < n; i++)
	{
		if (s[i] == '\\' && i + 1 < n && (s[i + 1] == ':' || (tuple && s[i + 1] == '@')))
			i++;
		s[k++] = s[i];
	}
	if (k > 0 && s[k - 1] == '!')
		k--;
	return k;
}

static void
patch(bc_cqlsink *out, size_t at, uint8_t b)
{
	if (at < out->cap)
		out->p[at] = b;
}

static void
put_be32(bc_cqlsink *out, uint32_t v)
{
	char		b[4];

	b[0] = (char) (v >> 24);
	b[1] = (char) (v >> 16);
	b[2] = (char) (v >> 8);
	b[3] = (char) v;
	bc_cqlsink_put(out, b, 4);
}

static bc_status
parse_composite(const bc_cqltype *t, int node, int depth, char *s, size_t n,
				bc_cqlsink *out, bc_cqlerr *err)
{
	const bc_cqlnode *nd = &t->node[node];
	size_t		from = 0,
				end;
	int			i = 0,
				child = nd->first;
	bc_status	st;

	for (;;)
	{
		size_t		at,
					m,
					clen;

		end = part_end(s, n, from);
		if (i > 0 && end - from == 1 && (s[from] == '!' || s[from] == '_'))
		{
			if (end != n)
				return bc_cqlerr_set(err, BC_ERR_CQL_SYNTAX,
									 "CompositeType: text after the end-of-component mark ':%c'",
									 s[from]);
			patch(out, out->len - 1, s[from] == '!' ? 1 : 0xff);
			return BC_OK;
		}
		if (i >= nd->nparams)
			return bc_cqlerr_set(err, BC_ERR_CQL_SYNTAX,
								 "CompositeType: more than its %d components", nd->nparams);
		at = out->len;
		bc_cqlsink_put(out, "\0\0", 2);
		m = unescape(s + from, end - from, 0);
		if ((st = parse_value(t, child, depth + 1, s + from, m, out, err)) != BC_OK)
			return st;
		clen = out->len - at - 2;
		/* (past the buffer, a number's length may be an estimate) */
		if (clen > 65535 && out->len <= out->cap)
			return bc_cqlerr_set(err, BC_ERR_CQL_SYNTAX,
								 "CompositeType: component %d of %lu bytes, past 65535", i + 1,
								 (unsigned long) clen);
		patch(out, at, (uint8_t) (clen >> 8));
		patch(out, at + 1, (uint8_t) clen);
		bc_cqlsink_putc(out, '\0');
		i++;
		child = t->node[child].next;
		if (end == n)
			return BC_OK;
		from = end + 1;
	}
}

static bc_status
parse_tuple(const bc_cqltype *t, int node, int depth, char *s, size_t n, bc_cqlsink *out,
			bc_cqlerr *err)
{
	const bc_cqlnode *nd = &t->node[node];
	size_t		from = 0,
				end;
	int			i = 0,
				child = nd->first;
	bc_status	st;

	if (n == 0)
		return BC_OK;			/* no field */
	for (;;)
	{
		size_t		at,
					m,
					flen;

		end = part_end(s, n, from);
		if (i >= nd->nparams)
			return bc_cqlerr_set(err, BC_ERR_CQL_SYNTAX, "%s: more than its %d fields",
								 bc_cqlkind_name(nd->kind), nd->nparams);
		if (end - from == 1 && s[from] == '@')
			put_be32(out, 0xffffffffu);
		else
		{
			at = out->len;
			put_be32(out, 0);
			m = unescape(s + from, end - from, 1);
			if ((st = parse_value(t, child, depth + 1, s + from, m, out, err)) != BC_OK)
				return st;
			flen = out->len - at - 4;
			if (flen > 0x7fffffffu && out->len <= out->cap)
				return bc_cqlerr_set(err, BC_ERR_CQL_SYNTAX, "field %d too long", i + 1);
			patch(out, at, (uint8_t) (flen >> 24));
			patch(out, at + 1, (uint8_t) (flen >> 16));
			patch(out, at + 2, (uint8_t) (flen >> 8));
			patch(out, at + 3, (uint8_t) flen);
		}
		i++;
		child = t->node[child].next;
		if (end == n)
			return BC_OK;
		from = end + 1;
	}
}

static bc_status
parse_value(const bc_cqltype *t, int node, int depth, char *s, size_t n, bc_cqlsink *out,
			bc_cqlerr *err)
{
	const bc_cqlnode *nd = &t->node[node];

	if (depth > BC_CQL_MAX_DEPTH)
		return bc_cqlerr_set(err, BC_ERR_CQL_SYNTAX, "nested too deeply");
	switch (nd->kind)
	{
		case BC_CQL_COMPOSITE:
			return parse_composite(t, node, depth, s, n, out, err);
		case BC_CQL_TUPLE:
		case BC_CQL_UDT:
			return parse_tuple(t, node, depth, s, n, out, err);
		case BC_CQL_LIST:
		case BC_CQL_SET:
		case BC_CQL_MAP:
			{
				/* the hex decoded in place (it only shrinks), checked to be
				 * a collection of the type, then written */
				size_t		i = 0,
							m = 0;
				bc_cqlsink	check;
				bc_status	st;

				if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
					i = 2;
				if ((n - i) % 2 != 0)
					return bc_cqlerr_set(err, BC_ERR_CQL_SYNTAX,
										 "%s: a frozen collection is written as its bytes in hex",
										 bc_cqlkind_name(nd->kind));
				for (; i < n; i += 2)
				{
					int			hi = bc_cql_hexval(s[i]),
								lo = bc_cql_hexval(s[i + 1]);

					if (hi < 0 || lo < 0)
						return bc_cqlerr_set(err, BC_ERR_CQL_SYNTAX,
											 "%s: a frozen collection is written as its bytes in hex",
											 bc_cqlkind_name(nd->kind));
					s[m++] = (char) (hi << 4 | lo);
				}
				/* a sink of no buffer only checks: no work area */
				bc_cqlsink_init(&check, NULL, 0);
				st = bc_cql_value_json(t, node, depth, (const uint8_t *) s, m, NULL, &check, err);
				if (st != BC_OK)
				{
					char		inner[sizeof(err->msg)];

					memcpy(inner, err->msg, sizeof(inner));
					return bc_cqlerr_set(err, BC_ERR_CQL_SYNTAX, "%s: the hex is no value: %s",
										 bc_cqlkind_name(nd->kind), inner);
				}
				bc_cqlsink_put(out, s, m);
				return BC_OK;
			}
		default:
			return bc_cql_scalar_parse(nd->kind, s, n, out, err);
	}
}

bc_status
bc_cql_key_parse(const bc_cqltype *t, const char *text, size_t len, char *scratch,
				 bc_cqlsink *out, bc_cqlerr *err)
{
	bc_status	st;

	memcpy(scratch, text, len);
	scratch[len] = '\0';
	st = parse_value(t, t->root, 1, scratch, len, out, err);
	if (st == BC_OK && out->len > out->cap)
		return BC_ERR_BUFFER;
	return st;
}
