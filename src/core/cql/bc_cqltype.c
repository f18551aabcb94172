/*
 * bc_cqltype.c - Cassandra's marshal type strings, as
 * org.apache.cassandra.db.marshal.TypeParser reads them: a class name
 * (identifier characters 0-9 a-z A-Z - + . _ &), with its parameters in
 * parentheses, separated by commas, blanks (space, tab, newline) skipped
 * around every token.  A name without a dot is a class of
 * org.apache.cassandra.db.marshal (TypeParser.getAbstractType); a name
 * with dots must be one.
 *
 * The tree is built in the caller's bc_cqltype, by recursive descent
 * (parse_type and parse_user) in which every call, ReversedType's and
 * FrozenType's included, is one level counted against BC_CQL_MAX_DEPTH
 * before it goes down, and every node against BC_CQL_MAX_NODES: no input
 * makes the stack deep or the tree large.
 *
 * A scalar may also be named by its CQL name (bigint, int, text, ...; any
 * case, as CQL reads unquoted names: CQL3Type.Native), so that a key type
 * can be written as cqlsh's DESCRIBE shows it.  Cassandra's TypeParser
 * reads class names only; the CQL names add no class, and no class name
 * is spelt like one of them.
 */
#include <stdio.h>
#include <string.h>

#include "bc_cqltype.h"

#define MARSHAL_PREFIX "org.apache.cassandra.db.marshal."

typedef struct parser
{
	const char *s;
	size_t		len;
	size_t		pos;
	bc_cqltype *t;
	char	   *msg;
	size_t		msgcap;
} parser;

typedef enum shape
{
	SHAPE_SCALAR,
	SHAPE_ONE,					/* exactly one parameter */
	SHAPE_TWO,					/* exactly two */
	SHAPE_SOME,					/* one or more */
	SHAPE_WRAP,					/* one, and the node is its parameter's */
	SHAPE_USER,					/* UserType's parameters */
	SHAPE_REFUSED				/* a known type bloomcass does not read */
} shape;

static const struct
{
	const char *name;
	int			kind;			/* bc_cqlkind, -1 for wrappers and refused */
	shape		shape;
}			classes[] = {
	{"UTF8Type", BC_CQL_UTF8, SHAPE_SCALAR},
	{"AsciiType", BC_CQL_ASCII, SHAPE_SCALAR},
	{"Int32Type", BC_CQL_INT32, SHAPE_SCALAR},
	{"LongType", BC_CQL_LONG, SHAPE_SCALAR},
	{"ShortType", BC_CQL_SHORT, SHAPE_SCALAR},
	{"ByteType", BC_CQL_BYTE, SHAPE_SCALAR},
	{"BooleanType", BC_CQL_BOOLEAN, SHAPE_SCALAR},
	{"FloatType", BC_CQL_FLOAT, SHAPE_SCALAR},
	{"DoubleType", BC_CQL_DOUBLE, SHAPE_SCALAR},
	{"UUIDType", BC_CQL_UUID, SHAPE_SCALAR},
	{"TimeUUIDType", BC_CQL_TIMEUUID, SHAPE_SCALAR},
	{"LexicalUUIDType", BC_CQL_LEXICALUUID, SHAPE_SCALAR},
	{"TimestampType", BC_CQL_TIMESTAMP, SHAPE_SCALAR},
	{"DateType", BC_CQL_TIMESTAMP, SHAPE_SCALAR},
	{"SimpleDateType", BC_CQL_DATE, SHAPE_SCALAR},
	{"TimeType", BC_CQL_TIME, SHAPE_SCALAR},
	{"InetAddressType", BC_CQL_INET, SHAPE_SCALAR},
	{"DecimalType", BC_CQL_DECIMAL, SHAPE_SCALAR},
	{"IntegerType", BC_CQL_VARINT, SHAPE_SCALAR},
	{"BytesType", BC_CQL_BLOB, SHAPE_SCALAR},
	{"DurationType", BC_CQL_DURATION, SHAPE_SCALAR},
	{"CounterColumnType", BC_CQL_COUNTER, SHAPE_SCALAR},
	{"CompositeType", BC_CQL_COMPOSITE, SHAPE_SOME},
	{"ListType", BC_CQL_LIST, SHAPE_ONE},
	{"SetType", BC_CQL_SET, SHAPE_ONE},
	{"MapType", BC_CQL_MAP, SHAPE_TWO},
	{"TupleType", BC_CQL_TUPLE, SHAPE_SOME},
	{"UserType", BC_CQL_UDT, SHAPE_USER},
	{"ReversedType", -1, SHAPE_WRAP},
	{"FrozenType", -1, SHAPE_WRAP},
	{"DynamicCompositeType", -1, SHAPE_REFUSED},
};

#define NCLASSES ((int) (sizeof(classes) / sizeof(classes[0])))

/* CQL3Type.Native's names of the scalars (CQL3Type.Native.toString) */
static const struct
{
	const char *name;
	bc_cqlkind	kind;
}			cql_names[] = {
	{"ascii", BC_CQL_ASCII},
	{"bigint", BC_CQL_LONG},
	{"blob", BC_CQL_BLOB},
	{"boolean", BC_CQL_BOOLEAN},
	{"counter", BC_CQL_COUNTER},
	{"date", BC_CQL_DATE},
	{"decimal", BC_CQL_DECIMAL},
	{"double", BC_CQL_DOUBLE},
	{"duration", BC_CQL_DURATION},
	{"float", BC_CQL_FLOAT},
	{"inet", BC_CQL_INET},
	{"int", BC_CQL_INT32},
	{"smallint", BC_CQL_SHORT},
	{"text", BC_CQL_UTF8},
	{"time", BC_CQL_TIME},
	{"timestamp", BC_CQL_TIMESTAMP},
	{"timeuuid", BC_CQL_TIMEUUID},
	{"tinyint", BC_CQL_BYTE},
	{"uuid", BC_CQL_UUID},
	{"varchar", BC_CQL_UTF8},
	{"varint", BC_CQL_VARINT},
};

#define NCQLNAMES ((int) (sizeof(cql_names) / sizeof(cql_names[0])))

const char *
bc_cqlkind_name(bc_cqlkind kind)
{
	int			i;

	for (i = 0; i < NCLASSES; i++)
		if (classes[i].kind == (int) kind)
			return classes[i].name;
	return "?";
}

const char *
bc_cqlkind_cql_name(bc_cqlkind kind)
{
	int			i;

	for (i = 0; i < NCQLNAMES; i++)
		if (cql_names[i].kind == kind)
			return cql_names[i].name;
	return NULL;
}

/* the kind whose CQL name is id[0 .. n), any case; -1 for none */
static int
cql_name_kind(const char *id, size_t n)
{
	int			i;
	size_t		k;

	for (i = 0; i < NCQLNAMES; i++)
	{
		if (strlen(cql_names[i].name) != n)
			continue;
		for (k = 0; k < n; k++)
		{
			char		c = id[k];

			if (c >= 'A' && c <= 'Z')
				c = (char) (c - 'A' + 'a');
			if (c != cql_names[i].name[k])
				break;
		}
		if (k == n)
			return (int) cql_names[i].kind;
	}
	return -1;
}

static bc_status
fail(parser *p, bc_status st, const char *what)
{
	if (p->msg != NULL && p->msgcap > 0)
		snprintf(p->msg, p->msgcap, "%s at character %lu", what, (unsigned long) p->pos + 1);
	return st;
}

static void
skip_blank(parser *p)
{
	while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\n'))
		p->pos++;
}

static int
is_ident(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		c == '-' || c == '+' || c == '.' || c == '_' || c == '&';
}

/* the next identifier (after blanks): its start and length, 0 for none */
static size_t
identifier(parser *p, const char **start)
{
	size_t		b;

	skip_blank(p);
	b = p->pos;
	while (p->pos < p->len && is_ident(p->s[p->pos]))
		p->pos++;
	*start = p->s + b;
	return p->pos - b;
}

static int
is_hex_name(const char *s, size_t n)
{
	size_t		i;

	if (n % 2 != 0)
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F')))
			return 0;
	return 1;
}

/* the next character after blanks is c: consume it */
static int
accept(parser *p, char c)
{
	skip_blank(p);
	if (p->pos < p->len && p->s[p->pos] == c)
	{
		p->pos++;
		return 1;
	}
	return 0;
}

static int	new_node(parser *p, bc_cqlkind kind);
static bc_status parse_type(parser *p, int depth, int *out);

/* append child to node's parameters */
static void
add_param(bc_cqltype *t, int node, int child, int *last)
{
	if (*last < 0)
		t->node[node].first = child;
	else
		t->node[*last].next = child;
	*last = child;
	t->node[node].nparams++;
}

static int
new_node(parser *p, bc_cqlkind kind)
{
	bc_cqltype *t = p->t;
	bc_cqlnode *n;

	if (t->nnodes >= BC_CQL_MAX_NODES)
		return -1;
	n = &t->node[t->nnodes];
	n->kind = kind;
	n->first = -1;
	n->next = -1;
	n->nparams = 0;
	n->name = NULL;
	n->name_len = 0;
	return t->nnodes++;
}

/* UserType(ks, hexname, hexfield:T, ...): after the '('; each field's
 * type one level below depth (BC_CQL_MAX_DEPTH, through parse_type) */
static bc_status
parse_user(parser *p, int depth, int node)
{
	const char *id;
	size_t		n;
	int			last = -1;
	bc_status	st;

	if (identifier(p, &id) == 0)
		return fail(p, BC_ERR_CQL_TYPE, "UserType: no keyspace");
	if (!accept(p, ','))
		return fail(p, BC_ERR_CQL_TYPE, "UserType: expected ',' after the keyspace");
	n = identifier(p, &id);
	if (n == 0 || !is_hex_name(id, n))
		return fail(p, BC_ERR_CQL_TYPE, "UserType: the type name is not hex");
	p->t->node[node].name = id;
	p->t->node[node].name_len = n;
	while (accept(p, ','))
	{
		int			child;
		const char *fid;
		size_t		fn = identifier(p, &fid);

		if (fn == 0 || !is_hex_name(fid, fn))
			return fail(p, BC_ERR_CQL_TYPE, "UserType: a field name is not hex");
		if (!accept(p, ':'))
			return fail(p, BC_ERR_CQL_TYPE, "UserType: expected ':' after a field name");
		if ((st = parse_type(p, depth + 1, &child)) != BC_OK)
			return st;
		p->t->node[child].name = fid;
		p->t->node[child].name_len = fn;
		add_param(p->t, node, child, &last);
	}
	if (!accept(p, ')'))
		return fail(p, BC_ERR_CQL_TYPE, "UserType: expected ',' or ')'");
	if (p->t->node[node].nparams == 0)
		return fail(p, BC_ERR_CQL_TYPE, "UserType: no field");
	return BC_OK;
}

/*
 * The type at p->pos, depth levels down (the root is 1): its node in *out.
 * Recursive: each parameter is parsed at depth + 1, a wrapper's too, and
 * a depth past BC_CQL_MAX_DEPTH is refused before any parameter is read.
 */
static bc_status
parse_type(parser *p, int depth, int *out)
{
	const char *id;
	size_t		n = identifier(p, &id);
	size_t		plen = strlen(MARSHAL_PREFIX);
	int			c,
				node,
				last = -1,
				cql;
	bc_status	st;

	if (depth > BC_CQL_MAX_DEPTH)
		return fail(p, BC_ERR_CQL_TYPE, "nested too deeply");
	if (n == 0)
		return fail(p, BC_ERR_CQL_TYPE, "expected a class name");
	if ((cql = cql_name_kind(id, n)) >= 0)
	{
		skip_blank(p);
		if (p->pos < p->len && p->s[p->pos] == '(')
			return fail(p, BC_ERR_CQL_TYPE, "this type takes no parameters");
		if ((node = new_node(p, (bc_cqlkind) cql)) < 0)
			return fail(p, BC_ERR_CQL_TYPE, "too many types");
		if (depth > p->t->depth)
			p->t->depth = depth;
		*out = node;
		return BC_OK;
	}
	if (memchr(id, '.', n) != NULL)
	{
		if (n <= plen || memcmp(id, MARSHAL_PREFIX, plen) != 0)
			return fail(p, BC_ERR_CQL_TYPE, "not a class of org.apache.cassandra.db.marshal");
		id += plen;
		n -= plen;
	}
	for (c = 0; c < NCLASSES; c++)
		if (strlen(classes[c].name) == n && memcmp(classes[c].name, id, n) == 0)
			break;
	if (c == NCLASSES)
		return fail(p, BC_ERR_CQL_TYPE, "unknown marshal class");
	if (classes[c].shape == SHAPE_REFUSED)
		return fail(p, BC_ERR_CQL_UNSUPPORTED,
					"DynamicCompositeType (each component names its own type) is not supported");
	if (classes[c].shape == SHAPE_SCALAR)
	{
		skip_blank(p);
		if (p->pos < p->len && p->s[p->pos] == '(')
			return fail(p, BC_ERR_CQL_TYPE, "this class takes no parameters");
		if ((node = new_node(p, (bc_cqlkind) classes[c].kind)) < 0)
			return fail(p, BC_ERR_CQL_TYPE, "too many types");
		if (depth > p->t->depth)
			p->t->depth = depth;
		*out = node;
		return BC_OK;
	}
	if (!accept(p, '('))
		return fail(p, BC_ERR_CQL_TYPE, "expected '(' and the class's parameters");
	if (classes[c].shape == SHAPE_WRAP)
	{
		/* ReversedType(T), FrozenType(T): T itself, one level down (a
		 * wrapper adds no node, but its parser's call is a level of stack) */
		if ((st = parse_type(p, depth + 1, out)) != BC_OK)
			return st;
		if (!accept(p, ')'))
			return fail(p, BC_ERR_CQL_TYPE, "expected ')': this class takes one parameter");
		return BC_OK;
	}
	if ((node = new_node(p, (bc_cqlkind) classes[c].kind)) < 0)
		return fail(p, BC_ERR_CQL_TYPE, "too many types");
	if (depth > p->t->depth)
		p->t->depth = depth;
	if (classes[c].shape == SHAPE_USER)
	{
		if ((st = parse_user(p, depth, node)) != BC_OK)
			return st;
		*out = node;
		return BC_OK;
	}
	for (;;)
	{
		int			child;

		if ((st = parse_type(p, depth + 1, &child)) != BC_OK)
			return st;
		add_param(p->t, node, child, &last);
		if (accept(p, ')'))
			break;
		if (!accept(p, ','))
			return fail(p, BC_ERR_CQL_TYPE, "expected ',' or ')'");
	}
	if ((classes[c].shape == SHAPE_ONE && p->t->node[node].nparams != 1) ||
		(classes[c].shape == SHAPE_TWO && p->t->node[node].nparams != 2))
		return fail(p, BC_ERR_CQL_TYPE, classes[c].shape == SHAPE_ONE ?
					"this class takes one parameter" : "this class takes two parameters");
	*out = node;
	return BC_OK;
}

bc_status
bc_cqltype_parse(const char *s, size_t len, bc_cqltype *t, char *msg, size_t msgcap)
{
	parser		p;
	bc_status	st;

	p.s = s;
	p.len = len;
	p.pos = 0;
	p.t = t;
	p.msg = msg;
	p.msgcap = msgcap;
	if (msg != NULL && msgcap > 0)
		msg[0] = '\0';
	t->nnodes = 0;
	t->root = -1;
	t->depth = 0;
	if ((st = parse_type(&p, 1, &t->root)) != BC_OK)
		return st;
	skip_blank(&p);
	if (p.pos != len)
		return fail(&p, BC_ERR_CQL_TYPE, "unexpected text after the type");
	return BC_OK;
}
