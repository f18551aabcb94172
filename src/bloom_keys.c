/*
 * bloom_keys.c - partition keys: the bytes Cassandra hashes for a value of
 * each supported PostgreSQL type (serialized as the matching CQL type).
 * The SQL functions over keys are bloom_keys_sql.c's.
 *
 * The key type of a call site is resolved once and cached in fn_extra.
 */
#include "postgres.h"

#include <sys/socket.h>

#include "catalog/pg_type.h"
#include "datatype/timestamp.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "nodes/primnodes.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/inet.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "bc_keys.h"
#include "bc_murmur3.h"
#include "bc_status.h"
#include "bloomcass.h"

typedef enum KeyKind
{
	KEY_BYTEA,					/* already serialized */
	KEY_TEXT,					/* text, varchar: UTF-8 bytes */
	KEY_INT2,
	KEY_INT4,
	KEY_INT8,
	KEY_FLOAT4,
	KEY_FLOAT8,
	KEY_BOOL,
	KEY_UUID,
	KEY_TIMESTAMP,				/* timestamptz and timestamp: CQL timestamp */
	KEY_DATE,
	KEY_TIME,
	KEY_INET,
	KEY_NUMERIC					/* CQL decimal */
} KeyKind;

struct BloomKeyType
{
	BloomKeyTypeHead head;		/* first: read through the header's type */
	Oid			typid;			/* as given (may be a domain) */
	KeyKind		kind;
	bool		convert_text;	/* database encoding is not UTF-8 */
	uint8		buf[32];		/* fixed-width serializations */
	uint8	   *dyn;			/* last variable-width result, freed per call */
};

/* Days between 1970-01-01 and 2000-01-01, and microseconds likewise. */
#define UNIX_TO_PG_DAYS (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE)
#define UNIX_TO_PG_USECS ((int64) UNIX_TO_PG_DAYS * USECS_PER_DAY)

BloomKeyType *
bloom_key_type_for(Oid typid, MemoryContext mcxt)
{
	BloomKeyType *kt;
	Oid			base = getBaseType(typid);
	KeyKind		kind;

	switch (base)
	{
		case BYTEAOID:
			kind = KEY_BYTEA;
			break;
		case TEXTOID:
		case VARCHAROID:
			kind = KEY_TEXT;
			break;
		case INT2OID:
			kind = KEY_INT2;
			break;
		case INT4OID:
			kind = KEY_INT4;
			break;
		case INT8OID:
			kind = KEY_INT8;
			break;
		case FLOAT4OID:
			kind = KEY_FLOAT4;
			break;
		case FLOAT8OID:
			kind = KEY_FLOAT8;
			break;
		case BOOLOID:
			kind = KEY_BOOL;
			break;
		case UUIDOID:
			kind = KEY_UUID;
			break;
		case TIMESTAMPTZOID:
		case TIMESTAMPOID:
			kind = KEY_TIMESTAMP;
			break;
		case DATEOID:
			kind = KEY_DATE;
			break;
		case TIMEOID:
			kind = KEY_TIME;
			break;
		case INETOID:
			kind = KEY_INET;
			break;
		case NUMERICOID:
			kind = KEY_NUMERIC;
			break;
		default:
			ereport(ERROR,
					(errcode(ERRCODE_DATATYPE_MISMATCH),
					 errmsg("bloomcass cannot use a value of type %s as a Cassandra partition key",
							format_type_be(typid)),
					 errhint("Supported key types: bytea (serialized key), text, varchar, smallint, integer, bigint, real, double precision, boolean, uuid, timestamp with or without time zone, date, time, inet, numeric; build composite keys with cassandra_key().")));
			pg_unreachable();
	}
	kt = MemoryContextAllocZero(mcxt, sizeof(BloomKeyType));
	kt->typid = typid;
	kt->kind = kind;
	kt->convert_text = GetDatabaseEncoding() != PG_UTF8 &&
		GetDatabaseEncoding() != PG_SQL_ASCII;
	kt->head.raw_varlena = kind == KEY_BYTEA || (kind == KEY_TEXT && !kt->convert_text);
	return kt;
}

/*
 * The type of argument argno of a transition function according to the
 * aggregate calling it, or InvalidOid.  PostgreSQL gives a transition
 * function an expression to read its argument types from, but a wrapper
 * that calls it itself (Citus's worker_partial_agg_sfunc, with fmgr_info)
 * gives none; its own aggregate's arguments end with the values it passes
 * on, after arguments of its own (the wrapped aggregate's oid), so the two
 * lists are matched from their ends.  For a direct call they have the same
 * length.
 */
static Oid
aggregate_argtype(FunctionCallInfo fcinfo, int argno)
{
	Aggref	   *aggref = AggGetAggref(fcinfo);
	int			pos;

	if (aggref == NULL || argno < 1 || argno >= fcinfo->nargs)
		return InvalidOid;
	pos = list_length(aggref->aggargtypes) - (fcinfo->nargs - argno);
	if (pos < 0)
		return InvalidOid;
	return list_nth_oid(aggref->aggargtypes, pos);
}

/*
 * The type argument argno is declared with in the function's own
 * signature, when that is a real type (the typed aggregates' support
 * functions from 1.4: one per key type), else InvalidOid ("any",
 * anyelement: the caller's expression tells).  A signature is the same
 * however the function is called: directly, or through a wrapper that
 * gives no expression (Citus's worker_partial_agg_sfunc).
 */
static Oid
declared_argtype(FunctionCallInfo fcinfo, int argno)
{
	Oid		   *argtypes;
	int			nargs;
	Oid			typid = InvalidOid;

	if (!OidIsValid(fcinfo->flinfo->fn_oid))
		return InvalidOid;
	(void) get_func_signature(fcinfo->flinfo->fn_oid, &argtypes, &nargs);
	if (argno < nargs && get_typtype(argtypes[argno]) != TYPTYPE_PSEUDO)
		typid = argtypes[argno];
	pfree(argtypes);
	return typid;
}

/*
 * Key type of argument argno of the current call, cached in *slot (or in
 * fn_extra when slot is NULL); the argument type of a call site never
 * changes, so it is resolved once.
 */
BloomKeyType *
bloom_key_type(FunctionCallInfo fcinfo, int argno, BloomKeyType **slot)
{
	BloomKeyType **cache = slot ? slot : (BloomKeyType **) &fcinfo->flinfo->fn_extra;

	if (*cache == NULL)
	{
		Oid			typid = declared_argtype(fcinfo, argno);

		if (!OidIsValid(typid))
			typid = get_fn_expr_argtype(fcinfo->flinfo, argno);
		if (!OidIsValid(typid))
			typid = aggregate_argtype(fcinfo, argno);
		if (!OidIsValid(typid))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("could not determine the data type of the key argument")));
		*cache = bloom_key_type_for(typid, fcinfo->flinfo->fn_mcxt);
	}
	return *cache;
}

static void
check_timestamp_finite(Timestamp ts)
{
	if (TIMESTAMP_NOT_FINITE(ts))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("infinite timestamp cannot be a Cassandra partition key")));
}

static const uint8 *
numeric_key(BloomKeyType *kt, Datum value, size_t *len)
{
	Numeric		num = DatumGetNumeric(value);
	char	   *str;
	size_t		cap;
	bc_status	st;

	if (numeric_is_nan(num) || numeric_is_inf(num))
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("NaN and infinity cannot be a Cassandra decimal")));
	str = DatumGetCString(DirectFunctionCall1(numeric_out, value));
	/* scale (4) + at most one byte per 2.4 digits, with room to spare */
	cap = 8 + strlen(str);
	if (kt->dyn)
		pfree(kt->dyn);
	kt->dyn = MemoryContextAlloc(GetMemoryChunkContext(kt), cap);
	st = bc_ser_decimal_text(str, strlen(str), kt->dyn, cap, len);
	if (st != BC_OK)
		bloom_error(st);
	pfree(str);
	return kt->dyn;
}

/*
 * The bytes Cassandra hashes for a value.  The result points into the
 * value, into kt's buffer, or into memory kt owns until the next call.
 */
const uint8 *
bloom_key_bytes(BloomKeyType *kt, Datum value, size_t *len)
{
	uint8	   *b = kt->buf;

	switch (kt->kind)
	{
		case KEY_BYTEA:
			{
				bytea	   *v = DatumGetByteaPP(value);

				*len = VARSIZE_ANY_EXHDR(v);
				return (const uint8 *) VARDATA_ANY(v);
			}
		case KEY_TEXT:
			{
				text	   *v = DatumGetTextPP(value);
				char	   *s = VARDATA_ANY(v);
				int			n = VARSIZE_ANY_EXHDR(v);

				if (kt->convert_text)
				{
					char	   *u = (char *) pg_do_encoding_conversion((unsigned char *) s, n,
																	   GetDatabaseEncoding(),
																	   PG_UTF8);

					if (u != s)
						n = strlen(u);
					s = u;
				}
				*len = n;
				return (const uint8 *) s;
			}
		case KEY_INT2:
			*len = bc_ser_int16(DatumGetInt16(value), b);
			return b;
		case KEY_INT4:
			*len = bc_ser_int32(DatumGetInt32(value), b);
			return b;
		case KEY_INT8:
			*len = bc_ser_int64(DatumGetInt64(value), b);
			return b;
		case KEY_FLOAT4:
			*len = bc_ser_float(DatumGetFloat4(value), b);
			return b;
		case KEY_FLOAT8:
			*len = bc_ser_double(DatumGetFloat8(value), b);
			return b;
		case KEY_BOOL:
			*len = bc_ser_bool(DatumGetBool(value), b);
			return b;
		case KEY_UUID:
			*len = bc_ser_uuid(DatumGetUUIDP(value)->data, b);
			return b;
		case KEY_TIMESTAMP:
			{
				/* microseconds since 2000 -> milliseconds since 1970, floored
				 * like Java's Instant.toEpochMilli */
				int64		us = DatumGetTimestamp(value);
				int64		ms;

				check_timestamp_finite(us);
				ms = us / 1000;
				if (us % 1000 < 0)
					ms--;
				*len = bc_ser_timestamp_ms(ms + UNIX_TO_PG_USECS / 1000, b);
				return b;
			}
		case KEY_DATE:
			{
				DateADT		d = DatumGetDateADT(value);

				if (DATE_NOT_FINITE(d))
					ereport(ERROR,
							(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
							 errmsg("infinite date cannot be a Cassandra partition key")));
				*len = bc_ser_date_days((int32) ((int64) d + UNIX_TO_PG_DAYS), b);
				return b;
			}
		case KEY_TIME:
			*len = bc_ser_time_ns(DatumGetTimeADT(value) * 1000, b);
			return b;
		case KEY_INET:
			{
				inet	   *ip = DatumGetInetPP(value);
				int			maxbits = ip_family(ip) == PGSQL_AF_INET ? 32 : 128;

				if (ip_bits(ip) != maxbits)
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							 errmsg("inet value with a netmask cannot be a Cassandra partition key"),
							 errdetail("Cassandra's inet holds a host address only; use host(value)::inet.")));
				*len = bc_ser_inet(ip_addr(ip), maxbits / 8, b);
				return b;
			}
		case KEY_NUMERIC:
			return numeric_key(kt, value, len);
	}
	pg_unreachable();
}

void
bloom_key_hash(BloomKeyType *kt, Datum value, int64 *h1, int64 *h2)
{
	size_t		len;
	const uint8 *key;

	/* fast path: text and bytea values in plain (not compressed, not
	 * external) form are hashed where they are */
	if (kt->head.raw_varlena && !VARATT_IS_EXTENDED(DatumGetPointer(value)))
	{
		bc_murmur3(VARDATA(DatumGetPointer(value)), VARSIZE(DatumGetPointer(value)) - VARHDRSZ,
				   (int64_t *) h1, (int64_t *) h2);
		return;
	}
	if (kt->head.raw_varlena && VARATT_IS_SHORT(DatumGetPointer(value)))
	{
		bc_murmur3(VARDATA_SHORT(DatumGetPointer(value)),
				   VARSIZE_SHORT(DatumGetPointer(value)) - VARHDRSZ_SHORT,
				   (int64_t *) h1, (int64_t *) h2);
		return;
	}
	key = bloom_key_bytes(kt, value, &len);
	bc_murmur3(key, len, (int64_t *) h1, (int64_t *) h2);
}
