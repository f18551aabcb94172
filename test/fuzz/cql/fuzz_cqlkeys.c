/*
 * fuzz_cqlkeys.c - partition keys as CQL values (bc_cqltype.c,
 * bc_cqlvalue_*.c): the input as a marshal type string; and, under the
 * type its first byte picks, the rest as a key's bytes (text and JSON)
 * and as a key's text (parse).
 *
 * And a deeply nested type built from the input (fuzz_cql_deep): pieces
 * of type string, each wrapper and each class with parameters in each
 * place a parameter takes, repeated as the input says, up to 120,000
 * levels, around a scalar; then the rest of the input under that type.
 *
 * Invariants: statuses in range; text and JSON succeed or fail together
 * (BC_ERR_CQL_VALUE); a sink too small gives BC_ERR_BUFFER with the exact
 * size, which a second call fills; the text of bytes parses back to bytes
 * whose text is the same (the bytes themselves, save the encodings
 * Cassandra folds); the bytes a text parses to have a text that parses
 * back to them exactly.  A nested type is read exactly when it has at
 * most BC_CQL_MAX_DEPTH levels, wrappers counted (its depth then that
 * many), and is "nested too deeply" otherwise, closed or not.
 */
#include <string.h>

#include "bc_cqltype.h"
#include "bc_cqlvalue.h"
#include "fuzz.h"

static const char *const types[] = {
	"UTF8Type", "AsciiType", "Int32Type", "LongType", "ShortType", "ByteType", "BooleanType",
	"FloatType", "DoubleType", "UUIDType", "TimeUUIDType", "LexicalUUIDType", "TimestampType",
	"SimpleDateType", "TimeType", "InetAddressType", "DecimalType", "IntegerType", "BytesType",
	"DurationType", "CounterColumnType",
	"CompositeType(UTF8Type,Int32Type)",
	"CompositeType(UUIDType,UTF8Type,ReversedType(TimestampType))",
	"FrozenType(ListType(Int32Type))", "FrozenType(SetType(UTF8Type))",
	"FrozenType(MapType(UTF8Type,FrozenType(ListType(DoubleType))))",
	"FrozenType(TupleType(Int32Type,UTF8Type,DecimalType))",
	"FrozenType(UserType(ks,61,62:UTF8Type,63:IntegerType,64:FrozenType(TupleType(UTF8Type))))",
	"CompositeType(FrozenType(TupleType(UTF8Type,UTF8Type)),BytesType,DurationType)",
	"TupleType(UTF8Type)",
};

#define NTYPES ((int) (sizeof(types) / sizeof(types[0])))

/* render through a 1-byte sink first, then an exact one; malloc'd */
static char *
render(const bc_cqltype *t, const uint8_t *p, size_t n, int json, bc_status *st, size_t *len)
{
	uint32_t   *work = xmalloc(BC_CQL_WORK_WORDS(n) * sizeof(uint32_t));
	char		one[1];
	bc_cqlsink	s;
	bc_cqlerr	err;
	char	   *buf;
	size_t		need;

	bc_cqlsink_init(&s, one, 1);
	*st = json ? bc_cql_key_json(t, p, n, work, &s, &err) : bc_cql_key_text(t, p, n, work, &s, &err);
	CHECK(*st == BC_OK || *st == BC_ERR_BUFFER || *st == BC_ERR_CQL_VALUE);
	if (*st == BC_ERR_CQL_VALUE)
	{
		CHECK(memchr(err.msg, '\0', sizeof(err.msg)) != NULL);
		free(work);
		return NULL;
	}
	need = s.len;
	CHECK(*st == BC_OK ? need <= 1 : need > 1);
	buf = xmalloc(need);
	bc_cqlsink_init(&s, buf, need);
	*st = json ? bc_cql_key_json(t, p, n, work, &s, &err) : bc_cql_key_text(t, p, n, work, &s, &err);
	CHECK(*st == BC_OK && s.len == need);
	free(work);
	*len = need;
	return buf;
}

static uint8_t *
parse(const bc_cqltype *t, const char *text, size_t n, bc_status *st, size_t *len)
{
	char	   *scratch = xmalloc(n + 1);
	uint8_t		one[1];
	bc_cqlsink	s;
	bc_cqlerr	err;
	uint8_t    *buf;
	size_t		need;

	bc_cqlsink_init(&s, one, 1);
	*st = bc_cql_key_parse(t, text, n, scratch, &s, &err);
	CHECK(*st == BC_OK || *st == BC_ERR_BUFFER || *st == BC_ERR_CQL_SYNTAX);
	if (*st == BC_ERR_CQL_SYNTAX)
	{
		free(scratch);
		return NULL;
	}
	need = s.len;
	buf = xmalloc(need);
	bc_cqlsink_init(&s, buf, need);
	*st = bc_cql_key_parse(t, text, n, scratch, &s, &err);
	CHECK(*st == BC_OK && s.len <= need);
	free(scratch);
	*len = s.len;
	return buf;
}

/* p[0 .. n) under t as a key's bytes (text, JSON, parsed back) and as a
 * key's text (parsed, rendered, parsed back) */
static void
check_values(const bc_cqltype *t, const uint8_t *p, size_t n)
{
	bc_status	st,
				st2;
	size_t		tlen = 0,
				jlen = 0,
				blen = 0,
				t2len = 0;
	char	   *text,
			   *json,
			   *text2;
	uint8_t    *back;

	/* the rest as bytes */
	text = render(t, p, n, 0, &st, &tlen);
	json = render(t, p, n, 1, &st2, &jlen);
	CHECK((text == NULL) == (json == NULL));
	if (text != NULL)
	{
		back = parse(t, text, tlen, &st, &blen);
		CHECK(back != NULL);
		if (blen == n && memcmp(back, p, n) == 0)
			;
		else
		{
			/* an encoding Cassandra folds: the same text */
			text2 = render(t, back, blen, 0, &st, &t2len);
			CHECK(text2 != NULL && t2len == tlen && memcmp(text2, text, tlen) == 0);
			free(text2);
		}
		free(back);
	}
	free(text);
	free(json);

	/* the rest as text */
	back = parse(t, (const char *) p, n, &st, &blen);
	if (back != NULL && blen <= 65535)
	{
		uint8_t    *again;
		size_t		alen = 0;

		text = render(t, back, blen, 0, &st, &tlen);
		CHECK(text != NULL);
		again = parse(t, text, tlen, &st, &alen);
		CHECK(again != NULL && alen == blen && memcmp(again, back, blen) == 0);
		free(again);
		free(text);
	}
	free(back);
}

/*
 * Pieces of a nested type: the text before the level below and after it.
 * The first four are wrappers (no node); a level adds at most three nodes,
 * so a type of BC_CQL_MAX_DEPTH levels stays under BC_CQL_MAX_NODES.
 */
#define NWRAPPERS 4
static const struct
{
	const char *pre,
			   *post;
}			pieces[] = {
	{"ReversedType(", ")"},
	{"FrozenType(", ")"},
	{"org.apache.cassandra.db.marshal.ReversedType(", ")"},
	{" FrozenType\t(\n", " ) "},
	{"ListType(", ")"},
	{"SetType(", ")"},
	{"MapType(", ",Int32Type)"},
	{"MapType(UTF8Type,", ")"},
	{"CompositeType(", ")"},
	{"CompositeType(UTF8Type,", ",BytesType)"},
	{"TupleType(", ")"},
	{"TupleType(Int32Type,", ",UTF8Type)"},
	{"UserType(ks,61,62:", ")"},
	{"UserType(ks,61,62:Int32Type,63:", ",64:UTF8Type)"},
};

#define NPIECES ((int) (sizeof(pieces) / sizeof(pieces[0])))
#define NSCALARS 21				/* types[0 .. 20] */
#define DEEP_MAX_LEVELS 120000

/*
 * <f> <n> then n + 1 (piece, count) pairs (n < 8), then the rest.  f: bits
 * 0-2 the scale of the counts (7: 1 + 2 b^2, up to 130,051; s < 7: 1 ..
 * 2^s), bit 3 leaves the type unclosed, bits 4-7 pick the scalar inside.
 * The pieces are repeated, outermost first, up to DEEP_MAX_LEVELS levels
 * in all; the rest is a value of the type when it is read.
 */
static void
fuzz_cql_deep(const uint8_t *data, size_t len)
{
	static bc_cqltype t;
	int			scale,
				unclosed,
				npairs,
				i,
				piece[8],
				first_class = -1;
	size_t		count[8],
				total = 0,
				size,
				k = 0,
				c,
				pos;
	const char *inner;
	char	   *s;
	char		msg[128];
	bc_status	st;

	if (len < 2)
		return;
	scale = data[0] & 7;
	unclosed = (data[0] >> 3) & 1;
	inner = types[(data[0] >> 4) % NSCALARS];
	npairs = 1 + data[1] % 8;
	pos = 2;
	for (i = 0; i < npairs && pos + 2 <= len; i++, pos += 2)
	{
		size_t		b = data[pos + 1];

		piece[i] = data[pos] % NPIECES;
		count[i] = scale == 7 ? 1 + 2 * b * b : 1 + (b & ((1u << scale) - 1));
		if (count[i] > DEEP_MAX_LEVELS - total)
			count[i] = DEEP_MAX_LEVELS - total;
		total += count[i];
		if (first_class < 0 && piece[i] >= NWRAPPERS)
			first_class = piece[i];
	}
	npairs = i;
	size = strlen(inner) + 1;
	for (i = 0; i < npairs; i++)
		size += count[i] * (strlen(pieces[piece[i]].pre) + strlen(pieces[piece[i]].post));
	s = xmalloc(size);
	for (i = 0; i < npairs; i++)
		for (c = 0; c < count[i]; c++, k += strlen(pieces[piece[i]].pre))
			memcpy(s + k, pieces[piece[i]].pre, strlen(pieces[piece[i]].pre));
	memcpy(s + k, inner, strlen(inner));
	k += strlen(inner);
	for (i = npairs - 1; i >= 0 && !unclosed; i--)
		for (c = 0; c < count[i]; c++, k += strlen(pieces[piece[i]].post))
			memcpy(s + k, pieces[piece[i]].post, strlen(pieces[piece[i]].post));
	CHECK(k < size);

	/* t points into s (UserType's names): s is freed last */
	st = bc_cqltype_parse(s, k, &t, msg, sizeof(msg));
	if (total + 1 > BC_CQL_MAX_DEPTH)
		CHECK(st == BC_ERR_CQL_TYPE && strncmp(msg, "nested too deeply at character ", 31) == 0);
	else if (unclosed && total > 0)
		CHECK(st == BC_ERR_CQL_TYPE);
	else
	{
		CHECK(st == BC_OK && t.depth == (int) total + 1 && t.nnodes <= BC_CQL_MAX_NODES);
		if (first_class < 0)
			CHECK(strcmp(bc_cqlkind_name(t.node[t.root].kind), inner) == 0);
		if (len - pos <= 4096)
			check_values(&t, data + pos, len - pos);
	}
	free(s);
}

void
fuzz_cql(const uint8_t *data, size_t len)
{
	static bc_cqltype t;
	char		msg[128];
	bc_status	st;

	st = bc_cqltype_parse((const char *) data, len, &t, msg, sizeof(msg));
	CHECK(st == BC_OK || st == BC_ERR_CQL_TYPE || st == BC_ERR_CQL_UNSUPPORTED);
	CHECK(memchr(msg, '\0', sizeof(msg)) != NULL);
	if (st == BC_OK)
		CHECK(t.root >= 0 && t.root < t.nnodes && t.nnodes <= BC_CQL_MAX_NODES &&
			  t.depth >= 1 && t.depth <= BC_CQL_MAX_DEPTH);
	if (len > 0 && len - 1 <= 4096)
	{
		st = bc_cqltype_parse(types[data[0] % NTYPES], strlen(types[data[0] % NTYPES]), &t, NULL, 0);
		CHECK(st == BC_OK);
		check_values(&t, data + 1, len - 1);
	}
	fuzz_cql_deep(data, len);
}
