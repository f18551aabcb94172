/*
 * bloom_cqlkey.c - partition keys as CQL values: cassandra_key_text,
 * cassandra_key_json and cassandra_key_parse, over the core's marshal type
 * parser (bc_cqltype.h) and value functions (bc_cqlvalue.h).
 *
 * The parsed key_type is cached in fn_extra while the same string comes
 * back (one per SSTable listing, usually).  Text crosses the server's
 * encoding: the core speaks UTF-8.  SQLSTATEs: a key_type that is no
 * marshal type string 22023, DynamicCompositeType 0A000, bytes that are no
 * value of the type 22P03, text that is none 22P02, a NUL in a text value
 * (which text cannot hold) 22P05.
 *
 * The core's functions these call recurse, at most BC_CQL_MAX_DEPTH levels
 * (bc_cqltype.h lists them): each entry checks the stack first
 * (check_stack_depth), so that a call from deep inside other recursion is
 * an ERROR, not a crash.
 */
#include "postgres.h"

#include "fmgr.h"
#include "miscadmin.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

#include "bc_cqltype.h"
#include "bc_cqlvalue.h"
#include "bloom_cqlkey.h"
#include "bloomcass.h"

/* a partition key is at most 65535 bytes (Cassandra's unsigned short) */
#define MAX_KEY_BYTES 65535

typedef struct KeyTypeCache
{
	char	   *str;			/* the key_type string, which t points into */
	size_t		len;
	bc_cqltype	t;
} KeyTypeCache;

const bc_cqltype *
bloom_cql_type_cached(void **slot, MemoryContext mcxt, const char *s, size_t len)
{
	KeyTypeCache *c = (KeyTypeCache *) *slot;
	char		msg[256];
	bc_status	st;

	if (c != NULL && c->len == len && memcmp(c->str, s, len) == 0)
		return &c->t;
	check_stack_depth();
	if (c == NULL)
	{
		c = MemoryContextAllocZero(mcxt, sizeof(KeyTypeCache));
		*slot = c;
	}
	else if (c->str != NULL)
		pfree(c->str);
	c->str = MemoryContextAlloc(mcxt, len + 1);
	memcpy(c->str, s, len);
	c->str[len] = '\0';
	c->len = len;
	st = bc_cqltype_parse(c->str, len, &c->t, msg, sizeof(msg));
	if (st != BC_OK)
	{
		int			n = (int) Min(len, 400);

		c->len = (size_t) -1;	/* not cached */
		ereport(ERROR,
				(errcode(st == BC_ERR_CQL_UNSUPPORTED ? ERRCODE_FEATURE_NOT_SUPPORTED :
						 ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("key_type \"%.*s\" is not a marshal type bloomcass reads", n, s),
				 errdetail("%s.", msg)));
	}
	return &c->t;
}

static const bc_cqltype *
key_type_of(FunctionCallInfo fcinfo, text *type_text)
{
	return bloom_cql_type_cached(&fcinfo->flinfo->fn_extra, fcinfo->flinfo->fn_mcxt,
								 VARDATA_ANY(type_text), VARSIZE_ANY_EXHDR(type_text));
}

/* the text (json = false) or JSON of key, in UTF-8, palloc'd; *len set */
static char *
key_render(FunctionCallInfo fcinfo, bool json, size_t *len)
{
	bytea	   *key = PG_GETARG_BYTEA_PP(0);
	text	   *type_text = PG_GETARG_TEXT_PP(1);
	const bc_cqltype *t = key_type_of(fcinfo, type_text);
	const uint8 *p = (const uint8 *) VARDATA_ANY(key);
	size_t		n = VARSIZE_ANY_EXHDR(key);
	uint32	   *work;
	size_t		cap = 2 * n + 64;
	char	   *buf;
	bc_cqlsink	out;
	bc_cqlerr	err;
	bc_status	st;

	if (n > MAX_KEY_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("a partition key has at most %d bytes, this one %zu", MAX_KEY_BYTES, n)));
	check_stack_depth();
	work = palloc(BC_CQL_WORK_WORDS(n) * sizeof(uint32));
	buf = palloc(cap + 1);
	bc_cqlsink_init(&out, buf, cap);
	st = json ? bc_cql_key_json(t, p, n, work, &out, &err) : bc_cql_key_text(t, p, n, work, &out, &err);
	if (st == BC_ERR_BUFFER)
	{
		cap = out.len;
		pfree(buf);
		buf = palloc(cap + 1);
		bc_cqlsink_init(&out, buf, cap);
		st = json ? bc_cql_key_json(t, p, n, work, &out, &err) : bc_cql_key_text(t, p, n, work, &out, &err);
	}
	if (st != BC_OK)
		ereport(ERROR,
				(errcode(st == BC_ERR_CQL_VALUE ? ERRCODE_INVALID_BINARY_REPRESENTATION :
						 ERRCODE_INTERNAL_ERROR),
				 errmsg("the key's bytes are not a value of key_type \"%.*s\"",
						(int) Min(VARSIZE_ANY_EXHDR(type_text), 400), VARDATA_ANY(type_text)),
				 errdetail("%s.", st == BC_ERR_CQL_VALUE ? err.msg : bc_status_message(st))));
	pfree(work);
	buf[out.len] = '\0';
	*len = out.len;
	return buf;
}

/* UTF-8 s[0 .. len) in the server's encoding, NUL-terminated */
static char *
from_utf8(char *s, size_t len)
{
	char	   *conv;

	if (memchr(s, '\0', len) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNTRANSLATABLE_CHARACTER),
				 errmsg("the key's text holds a NUL character, which PostgreSQL text cannot")));
	conv = pg_any_to_server(s, (int) len, PG_UTF8);
	return conv;
}

PG_FUNCTION_INFO_V1(cassandra_key_text);
Datum
cassandra_key_text(PG_FUNCTION_ARGS)
{
	size_t		len;
	char	   *s = key_render(fcinfo, false, &len);

	PG_RETURN_TEXT_P(cstring_to_text(from_utf8(s, len)));
}

PG_FUNCTION_INFO_V1(cassandra_key_json);
Datum
cassandra_key_json(PG_FUNCTION_ARGS)
{
	size_t		len;
	char	   *s = key_render(fcinfo, true, &len);

	return DirectFunctionCall1(jsonb_in, CStringGetDatum(from_utf8(s, len)));
}

bytea *
bloom_cql_key_from_text(const bc_cqltype *t, const char *type_s, size_t type_len,
						const char *value, size_t value_len)
{
	char	   *s = pg_server_to_any(value, (int) value_len, PG_UTF8);
	size_t		n = s == value ? value_len : strlen(s);
	size_t		cap = n + 64;
	char	   *scratch = palloc(n + 1);
	bytea	   *res = palloc(VARHDRSZ + cap);
	bc_cqlsink	out;
	bc_cqlerr	err;
	bc_status	st;

	bc_cqlsink_init(&out, VARDATA(res), cap);
	check_stack_depth();
	st = bc_cql_key_parse(t, s, n, scratch, &out, &err);
	if (st == BC_ERR_BUFFER)
	{
		cap = out.len;
		pfree(res);
		res = palloc(VARHDRSZ + cap);
		bc_cqlsink_init(&out, VARDATA(res), cap);
		st = bc_cql_key_parse(t, s, n, scratch, &out, &err);
	}
	if (st != BC_OK)
		ereport(ERROR,
				(errcode(st == BC_ERR_CQL_SYNTAX ? ERRCODE_INVALID_TEXT_REPRESENTATION :
						 ERRCODE_INTERNAL_ERROR),
				 errmsg("invalid input for key_type \"%.*s\": \"%.*s\"",
						(int) Min(type_len, 400), type_s, (int) Min(value_len, 200), value),
				 errdetail("%s.", st == BC_ERR_CQL_SYNTAX ? err.msg : bc_status_message(st))));
	if (out.len > MAX_KEY_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input for key_type \"%.*s\": the key would take %zu bytes",
						(int) Min(type_len, 400), type_s, out.len),
				 errdetail("A partition key has at most %d bytes.", MAX_KEY_BYTES)));
	SET_VARSIZE(res, VARHDRSZ + out.len);
	pfree(scratch);
	return res;
}

PG_FUNCTION_INFO_V1(cassandra_key_parse);
Datum
cassandra_key_parse(PG_FUNCTION_ARGS)
{
	text	   *value = PG_GETARG_TEXT_PP(0);
	text	   *type_text = PG_GETARG_TEXT_PP(1);
	const bc_cqltype *t = key_type_of(fcinfo, type_text);

	PG_RETURN_BYTEA_P(bloom_cql_key_from_text(t, VARDATA_ANY(type_text),
											  VARSIZE_ANY_EXHDR(type_text),
											  VARDATA_ANY(value), VARSIZE_ANY_EXHDR(value)));
}
