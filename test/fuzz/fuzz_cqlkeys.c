/*
 * fuzz_cqlkeys.c - partition keys as CQL values (bc_cqltype.c,
 * bc_cqlvalue_*.c): the input as a marshal type string; and, under the
 * type its first byte picks, the rest as a key's bytes (text and JSON)
 * and as a key's text (parse).
 *
 * Invariants: statuses in range; text and JSON succeed or fail together
 * (BC_ERR_CQL_VALUE); a sink too small gives BC_ERR_BUFFER with the exact
 * size, which a second call fills; the text of bytes parses back to bytes
 * whose text is the same (the bytes themselves, save the encodings
 * Cassandra folds); the bytes a text parses to have a text that parses
 * back to them exactly.
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

void
fuzz_cql(const uint8_t *data, size_t len)
{
	static bc_cqltype t;
	char		msg[128];
	bc_status	st,
				st2;
	size_t		tlen = 0,
				jlen = 0,
				blen = 0,
				t2len = 0,
				n = len > 0 ? len - 1 : 0;
	const uint8_t *p = data + (len > 0 ? 1 : 0);
	char	   *text,
			   *json,
			   *text2;
	uint8_t    *back;

	st = bc_cqltype_parse((const char *) data, len, &t, msg, sizeof(msg));
	CHECK(st == BC_OK || st == BC_ERR_CQL_TYPE || st == BC_ERR_CQL_UNSUPPORTED);
	CHECK(memchr(msg, '\0', sizeof(msg)) != NULL);
	if (st == BC_OK)
		CHECK(t.root >= 0 && t.root < t.nnodes && t.nnodes <= BC_CQL_MAX_NODES);
	if (len == 0 || n > 4096)
		return;
	st = bc_cqltype_parse(types[data[0] % NTYPES], strlen(types[data[0] % NTYPES]), &t, NULL, 0);
	CHECK(st == BC_OK);

	/* the rest as bytes */
	text = render(&t, p, n, 0, &st, &tlen);
	json = render(&t, p, n, 1, &st2, &jlen);
	CHECK((text == NULL) == (json == NULL));
	if (text != NULL)
	{
		back = parse(&t, text, tlen, &st, &blen);
		CHECK(back != NULL);
		if (blen == n && memcmp(back, p, n) == 0)
			;
		else
		{
			/* an encoding Cassandra folds: the same text */
			text2 = render(&t, back, blen, 0, &st, &t2len);
			CHECK(text2 != NULL && t2len == tlen && memcmp(text2, text, tlen) == 0);
			free(text2);
		}
		free(back);
	}
	free(text);
	free(json);

	/* the rest as text */
	back = parse(&t, (const char *) p, n, &st, &blen);
	if (back != NULL && blen <= 65535)
	{
		uint8_t    *again;
		size_t		alen = 0;

		text = render(&t, back, blen, 0, &st, &tlen);
		CHECK(text != NULL);
		again = parse(&t, text, tlen, &st, &alen);
		CHECK(again != NULL && alen == blen && memcmp(again, back, blen) == 0);
		free(again);
		free(text);
	}
	free(back);
}
