/*
 * bc_cqlvalue_text.c - a partition key's bytes as the text Cassandra's
 * AbstractType.getString gives (sstabledump's key); the framing of the
 * container types is bc_cqlvalue_common.c's.
 *
 *   CompositeType    components joined with ':', each escaped
 *                    (AbstractCompositeType.getString and escape): \: for
 *                    ':', a '!' after a component ending in '\' or '!',
 *                    ":!" / ":_" after the last for an end-of-component
 *                    byte of 1 / 0xff.  A composite of no component has
 *                    no text that tells it from one empty component, and
 *                    is not a partition key: refused.
 *   TupleType,       fields joined with ':' (TupleType.getString), \: and
 *   UserType         \@ escaped, '@' for null, fewer fields when the
 *                    bytes end early; and, unlike TupleType, the '!' rule
 *                    of composites, without which a field ending in '\'
 *                    would swallow the next ':'.  A tuple of one field
 *                    whose text is empty is "!" ("" is no field at all).
 *   List/Set/Map     Cassandra prints a frozen collection as its bytes in
 *                    hex (CollectionType.getString): 0x and hex, after
 *                    checking that the bytes are a collection of the type.
 */
#include "bc_cqlvalue.h"

/* the text of a value of node, depth levels down (the root 1): recursive,
 * one level a call, bounded by BC_CQL_MAX_DEPTH (bc_cqltype.h) */
static bc_status
text_value(const bc_cqltype *t, int node, int depth, const uint8_t *p, size_t len,
		   uint32_t *work, bc_cqlsink *out, bc_cqlerr *err)
{
	const bc_cqlnode *nd = &t->node[node];
	size_t		pos = 0,
				vlen;
	const uint8_t *v;
	int			i,
				child,
				eoc = 0;
	bc_status	st;

	if (depth > BC_CQL_MAX_DEPTH)
		return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "nested too deeply");
	switch (nd->kind)
	{
		case BC_CQL_COMPOSITE:
			if (len == 0)
				return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "CompositeType: no component");
			for (i = 0, child = nd->first; pos < len; i++, child = t->node[child].next)
			{
				if ((st = bc_cql_composite_part(p, len, &pos, i, nd->nparams, &v, &vlen, &eoc,
												err)) != BC_OK)
					return st;
				if (i > 0)
					bc_cqlsink_putc(out, ':');
				bc_cqlsink_push(out, BC_CQLESC_COMPOSITE);
				st = text_value(t, child, depth + 1, v, vlen, work, out, err);
				bc_cqlsink_pop(out);
				if (st != BC_OK)
					return st;
			}
			if (eoc != 0)
				bc_cqlsink_puts(out, eoc == 1 ? ":!" : ":_");
			return BC_OK;
		case BC_CQL_TUPLE:
		case BC_CQL_UDT:
			for (i = 0, child = nd->first; pos < len; i++, child = t->node[child].next)
			{
				if (i >= nd->nparams)
					return bc_cqlerr_set(err, BC_ERR_CQL_VALUE, "%s: bytes after its %d fields",
										 bc_cqlkind_name(nd->kind), nd->nparams);
				if ((st = bc_cql_field_part(p, len, &pos, i, &v, &vlen, err)) != BC_OK)
					return st;
				if (i > 0)
					bc_cqlsink_putc(out, ':');
				if (v == NULL)
				{
					bc_cqlsink_putc(out, '@');
					continue;
				}
				{
					size_t		before = out->len;

					bc_cqlsink_push(out, BC_CQLESC_TUPLE);
					st = text_value(t, child, depth + 1, v, vlen, work, out, err);
					bc_cqlsink_pop(out);
					if (st != BC_OK)
						return st;
					/* one field of empty text: "!", since "" is no field */
					if (i == 0 && pos == len && out->len == before)
						bc_cqlsink_putc(out, '!');
				}
			}
			return BC_OK;
		case BC_CQL_LIST:
		case BC_CQL_SET:
		case BC_CQL_MAP:
			{
				bc_cqlsink check;

				bc_cqlsink_init(&check, NULL, 0);
				if ((st = bc_cql_value_json(t, node, depth, p, len, work, &check, err)) != BC_OK)
					return st;
				bc_cql_put_hex(out, p, len, 1);
				return BC_OK;
			}
		default:
			return bc_cql_scalar_text(nd->kind, p, len, work, out, err);
	}
}

bc_status
bc_cql_key_text(const bc_cqltype *t, const uint8_t *key, size_t len, uint32_t *work,
				bc_cqlsink *out, bc_cqlerr *err)
{
	bc_status	st = text_value(t, t->root, 1, key, len, work, out, err);

	if (st == BC_OK && out->len > out->cap)
		return BC_ERR_BUFFER;
	return st;
}
