/*
 * bc_cqlvalue_json.c - a partition key's bytes as JSON: an array with one
 * typed value per component (one element for a key of one column).
 *
 * Scalars as bc_cql_scalar_json gives them (numbers, true/false, null,
 * strings of their text); a list or set is an array; a map an array of
 * [key, value] pairs (keeping the order and the keys' types, which a JSON
 * object would lose); a tuple an array, null for a null field; a UDT an
 * object of its fields by name (the hex of the type string decoded, which
 * must be UTF-8), null for a null field.  Fields missing at the end of the
 * bytes are left out.
 */
#include "bc_cqlvalue.h"

/* a UDT field's name, from its hex, into a JSON string (at most 1024
 * bytes: longer names than any schema has are refused) */
static bc_status
put_field_name(bc_cqlsink *out, const bc_cqlnode *f, bc_cqlerr *err)
{
	uint8_t		buf[1024];
	size_t		n = f->name_len / 2,
				i;

	if (n > sizeof(buf))
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "UserType: a field name of %lu bytes",
							 (unsigned long) n);
	for (i = 0; i < n; i++)
		buf[i] = (uint8_t) (bc_cql_hexval(f->name[2 * i]) << 4 | bc_cql_hexval(f->name[2 * i + 1]));
	if (!bc_cql_utf8_valid(buf, n))
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "UserType: a field name is not UTF-8");
	bc_cqlsink_put(out, (const char *) buf, n);
	return BC_OK;
}

/* recursive, one level a call, bounded by BC_CQL_MAX_DEPTH (bc_cqltype.h) */
bc_status
bc_cql_value_json(const bc_cqltype *t, int node, int depth, const uint8_t *p, size_t len,
				  uint32_t *work, bc_cqlsink *out, bc_cqlerr *err)
{
	const bc_cqlnode *nd = &t->node[node];
	size_t		pos = 0,
				vlen;
	const uint8_t *v;
	int			i,
				child,
				eoc;
	uint32_t	count,
				e;
	bc_status	st;

	if (depth > BC_CQL_MAX_DEPTH)
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "nested too deeply");
	switch (nd->kind)
	{
		case BC_CQL_COMPOSITE:
			if (len == 0)
				return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "CompositeType: no component");
			bc_cqlsink_putc(out, '[');
			for (i = 0, child = nd->first; pos < len; i++, child = t->node[child].next)
			{
				if ((st = bc_cql_composite_part(p, len, &pos, i, nd->nparams, &v, &vlen, &eoc,
												err)) != BC_OK)
					return st;
				if (i > 0)
					bc_cqlsink_putc(out, ',');
				if ((st = bc_cql_value_json(t, child, depth + 1, v, vlen, work, out, err)) != BC_OK)
					return st;
			}
			bc_cqlsink_putc(out, ']');
			return BC_OK;
		case BC_CQL_TUPLE:
		case BC_CQL_UDT:
			bc_cqlsink_putc(out, nd->kind == BC_CQL_UDT ? '{' : '[');
			for (i = 0, child = nd->first; pos < len; i++, child = t->node[child].next)
			{
				if (i >= nd->nparams)
					return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "%s: bytes after its %d fields",
										 bc_cqlkind_name(nd->kind), nd->nparams);
				if ((st = bc_cql_field_part(p, len, &pos, i, &v, &vlen, err)) != BC_OK)
					return st;
				if (i > 0)
					bc_cqlsink_putc(out, ',');
				if (nd->kind == BC_CQL_UDT)
				{
					bc_cqlsink_putc(out, '"');
					bc_cqlsink_push(out, BC_CQLESC_JSON);
					st = put_field_name(out, &t->node[child], err);
					bc_cqlsink_pop(out);
					if (st != BC_OK)
						return st;
					bc_cqlsink_put(out, "\":", 2);
				}
				if (v == NULL)
					bc_cqlsink_puts(out, "null");
				else if ((st = bc_cql_value_json(t, child, depth + 1, v, vlen, work, out, err)) != BC_OK)
					return st;
			}
			bc_cqlsink_putc(out, nd->kind == BC_CQL_UDT ? '}' : ']');
			return BC_OK;
		case BC_CQL_LIST:
		case BC_CQL_SET:
		case BC_CQL_MAP:
			if ((st = bc_cql_collection_count(t, node, p, len, &pos, &count, err)) != BC_OK)
				return st;
			bc_cqlsink_putc(out, '[');
			for (e = 0; e < count; e++)
			{
				if (e > 0)
					bc_cqlsink_putc(out, ',');
				if (nd->kind == BC_CQL_MAP)
					bc_cqlsink_putc(out, '[');
				for (child = nd->first; child >= 0; child = t->node[child].next)
				{
					if (child != nd->first)
						bc_cqlsink_putc(out, ',');
					if ((st = bc_cql_element(p, len, &pos, &v, &vlen, err)) != BC_OK ||
						(st = bc_cql_value_json(t, child, depth + 1, v, vlen, work, out, err)) != BC_OK)
						return st;
				}
				if (nd->kind == BC_CQL_MAP)
					bc_cqlsink_putc(out, ']');
			}
			bc_cqlsink_putc(out, ']');
			if (pos != len)
				return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "%s: %lu bytes after its %lu elements",
									 bc_cqlkind_name(nd->kind), (unsigned long) (len - pos),
									 (unsigned long) count);
			return BC_OK;
		default:
			return bc_cql_scalar_json(nd->kind, p, len, work, out, err);
	}
}

bc_status
bc_cql_key_json(const bc_cqltype *t, const uint8_t *key, size_t len, uint32_t *work,
				bc_cqlsink *out, bc_cqlerr *err)
{
	bc_status	st;
	int			composite = t->node[t->root].kind == BC_CQL_COMPOSITE;

	if (!composite)
		bc_cqlsink_putc(out, '[');
	st = bc_cql_value_json(t, t->root, 1, key, len, work, out, err);
	if (!composite)
		bc_cqlsink_putc(out, ']');
	if (st == BC_OK && out->len > out->cap)
		return BC_ERR_BUFFER;
	return st;
}
