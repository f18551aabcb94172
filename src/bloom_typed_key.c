/*
 * bloom_typed_key.c - a PostgreSQL value serialized as a partition key of
 * a given CQL type, so that the caller's integer width or an untyped
 * literal cannot make a present key look absent: the SQL function
 * bloom_contains(filter, key, key_type), and the serialization that
 * bloom_contains_each(filter, keys, key_type) and cassandra_sstable_has_key
 * use.
 *
 * key_type is a marshal type string as Statistics.db gives it (with or
 * without the org.apache.cassandra.db.marshal. prefix, ReversedType and
 * FrozenType unwrapped) or a CQL name (bigint).  The value's type decides
 * how it is read:
 *
 *   bytea              the key's bytes as they are (cassandra_key's result)
 *   text, varchar,     its text, as the type's fromString reads it
 *   untyped literal    (cassandra_key_parse): '1' is a bigint's 8 bytes
 *   smallint, integer, tinyint, smallint, int, bigint, counter (range
 *   bigint             checked), varint, decimal, float, double
 *   numeric            the same (integral values only for the integer
 *                      types and varint; the scale kept for decimal)
 *   real, double       float, double
 *   boolean, uuid,     boolean; uuid, timeuuid (version 1 only),
 *   timestamp[tz],     LexicalUUIDType; timestamp; date; time; inet
 *   date, time, inet
 *
 * Any other pairing is 42804 naming both types; a value the type cannot
 * hold 22003.  A float or double is read from an integer or numeric as
 * Java's Float/Double.parseFloat reads its text, which is what CQL does
 * with such a literal (Constants.Literal.testAssignment accepts integer
 * and float literals for them).
 */
#include "postgres.h"

#include <errno.h>
#include <math.h>

#include "catalog/pg_type.h"
#include "lib/stringinfo.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/uuid.h"

#include "bc_cqltype.h"
#include "bc_cqlvalue.h"
#include "bc_filter.h"
#include "bc_keys.h"
#include "bc_murmur3.h"
#include "bloom_cqlkey.h"
#include "bloom_probe.h"
#include "bloom_typed_key.h"

typedef enum TypedFrom
{
	FROM_UNTYPED,				/* no key type: bloom_key_bytes */
	FROM_UNTYPED_LITERAL,		/* no key type, an untyped literal: text */
	FROM_BYTES,					/* bytea: as it is */
	FROM_TEXT,					/* text, varchar: fromString */
	FROM_LITERAL,				/* an untyped literal: fromString */
	FROM_INTEGER,				/* int2, int4, int8 */
	FROM_NUMERIC,
	FROM_FLOAT,					/* float4, float8 */
	FROM_NATIVE					/* bloom_key_bytes, the types' own match */
} TypedFrom;

struct BloomTypedKey
{
	bool		ready;			/* chosen for valtype and type_str */
	Oid			valtype;
	Oid			base;			/* valtype's base type (domains) */
	char	   *type_str;		/* key_type as given, NULL for none */
	size_t		type_len;
	void	   *type_cache;		/* bloom_cql_type_cached's slot */
	const bc_cqltype *t;
	bc_cqlkind	kind;			/* the key's (the root's) */
	TypedFrom	from;
	BloomKeyType *kt;			/* FROM_UNTYPED, FROM_NATIVE */
	uint8		buf[16];
	void	   *dyn;			/* the last variable-width result */
};

/* CQL kinds a value of each class of PostgreSQL type is written as */
#define K(kind) (UINT64CONST(1) << (kind))
#define INTEGER_KINDS (K(BC_CQL_BYTE) | K(BC_CQL_SHORT) | K(BC_CQL_INT32) | K(BC_CQL_LONG) | \
					   K(BC_CQL_COUNTER) | K(BC_CQL_VARINT) | K(BC_CQL_DECIMAL) | \
					   K(BC_CQL_FLOAT) | K(BC_CQL_DOUBLE))

static const struct
{
	Oid			typid;
	TypedFrom	from;
	uint64		kinds;
}			value_types[] = {
	{INT2OID, FROM_INTEGER, INTEGER_KINDS},
	{INT4OID, FROM_INTEGER, INTEGER_KINDS},
	{INT8OID, FROM_INTEGER, INTEGER_KINDS},
	{NUMERICOID, FROM_NUMERIC, INTEGER_KINDS},
	{FLOAT4OID, FROM_FLOAT, K(BC_CQL_FLOAT) | K(BC_CQL_DOUBLE)},
	{FLOAT8OID, FROM_FLOAT, K(BC_CQL_FLOAT) | K(BC_CQL_DOUBLE)},
	{BOOLOID, FROM_NATIVE, K(BC_CQL_BOOLEAN)},
	{UUIDOID, FROM_NATIVE, K(BC_CQL_UUID) | K(BC_CQL_TIMEUUID) | K(BC_CQL_LEXICALUUID)},
	{TIMESTAMPTZOID, FROM_NATIVE, K(BC_CQL_TIMESTAMP)},
	{TIMESTAMPOID, FROM_NATIVE, K(BC_CQL_TIMESTAMP)},
	{DATEOID, FROM_NATIVE, K(BC_CQL_DATE)},
	{TIMEOID, FROM_NATIVE, K(BC_CQL_TIME)},
	{INETOID, FROM_NATIVE, K(BC_CQL_INET)},
};

#define NVALUE_TYPES ((int) (sizeof(value_types) / sizeof(value_types[0])))

/* "CQL bigint (LongType)", or the class alone for a kind without a CQL name */
static char *
cql_describe(bc_cqlkind kind)
{
	const char *cql = bc_cqlkind_cql_name(kind);

	if (cql == NULL)
		return psprintf("%s", bc_cqlkind_name(kind));
	return psprintf("CQL %s (%s)", cql, bc_cqlkind_name(kind));
}

/* the PostgreSQL types a key of kind is written as, for a hint */
static char *
written_as(bc_cqlkind kind)
{
	StringInfoData s;
	int			i;

	initStringInfo(&s);
	for (i = 0; i < NVALUE_TYPES; i++)
		if ((value_types[i].kinds & K(kind)) != 0)
			appendStringInfo(&s, "%s, ", format_type_be(value_types[i].typid));
	appendStringInfoString(&s, "text in its CQL form, or bytea of its serialized bytes (cassandra_key)");
	return s.data;
}

static void
pairing_error(BloomTypedKey *tk)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATATYPE_MISMATCH),
			 errmsg("a value of type %s cannot be a key of %s",
					format_type_be(tk->valtype), cql_describe(tk->kind)),
			 errdetail("key_type \"%.*s\".", (int) Min(tk->type_len, 400), tk->type_str),
			 errhint("A key of %s is written as %s.", cql_describe(tk->kind),
					 written_as(tk->kind))));
}

/* how a value of tk->base is read under tk->kind */
static void
choose(BloomTypedKey *tk, MemoryContext mcxt)
{
	int			i;

	if (tk->type_str == NULL)
	{
		tk->from = tk->valtype == UNKNOWNOID ? FROM_UNTYPED_LITERAL : FROM_UNTYPED;
		if (tk->from == FROM_UNTYPED)
			tk->kt = bloom_key_type_for(tk->valtype, mcxt);
		return;
	}
	tk->t = bloom_cql_type_cached(&tk->type_cache, mcxt, tk->type_str, tk->type_len);
	tk->kind = tk->t->node[tk->t->root].kind;
	if (tk->valtype == UNKNOWNOID)
	{
		tk->from = FROM_LITERAL;
		return;
	}
	if (tk->base == BYTEAOID)
	{
		tk->from = FROM_BYTES;
		return;
	}
	if (tk->base == TEXTOID || tk->base == VARCHAROID)
	{
		tk->from = FROM_TEXT;
		return;
	}
	for (i = 0; i < NVALUE_TYPES; i++)
		if (value_types[i].typid == tk->base)
			break;
	if (i == NVALUE_TYPES || (value_types[i].kinds & K(tk->kind)) == 0)
		pairing_error(tk);
	tk->from = value_types[i].from;
	if (tk->from == FROM_NATIVE)
		tk->kt = bloom_key_type_for(tk->valtype, mcxt);
}

BloomTypedKey *
bloom_typed_key_prepare(BloomTypedKey **slot, MemoryContext mcxt, Oid valtype,
						const char *key_type, size_t key_type_len)
{
	BloomTypedKey *tk = *slot;

	if (tk != NULL && tk->ready && tk->valtype == valtype &&
		(key_type == NULL ? tk->type_str == NULL :
		 (tk->type_str != NULL && tk->type_len == key_type_len &&
		  memcmp(tk->type_str, key_type, key_type_len) == 0)))
		return tk;
	if (tk == NULL)
	{
		tk = MemoryContextAllocZero(mcxt, sizeof(BloomTypedKey));
		*slot = tk;
	}
	else if (tk->type_str != NULL)
		pfree(tk->type_str);
	tk->type_str = NULL;
	tk->kt = NULL;
	if (key_type != NULL)
	{
		tk->type_str = MemoryContextAlloc(mcxt, key_type_len + 1);
		memcpy(tk->type_str, key_type, key_type_len);
		tk->type_str[key_type_len] = '\0';
		tk->type_len = key_type_len;
	}
	tk->base = valtype == UNKNOWNOID ? UNKNOWNOID : getBaseType(valtype);
	tk->valtype = valtype;
	tk->ready = false;
	choose(tk, mcxt);
	tk->ready = true;			/* not before: an ERROR leaves it unusable */
	return tk;
}

static void
out_of_range(BloomTypedKey *tk, const char *value)
{
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("value %s of type %s is out of range for %s",
					value, format_type_be(tk->valtype), cql_describe(tk->kind))));
}

/* memory for a variable-width result, kept until the next call */
static uint8 *
dyn_alloc(BloomTypedKey *tk, size_t n)
{
	if (tk->dyn != NULL)
		pfree(tk->dyn);
	tk->dyn = MemoryContextAlloc(GetMemoryChunkContext(tk), n);
	return tk->dyn;
}

/*
 * An integral value, given as v (when fits) and as its decimal text, as
 * tk->kind: the integer types range-checked as their fromString checks the
 * number (ByteType, ShortType, Int32Type, LongType: Byte.parseByte,
 * Short.parseShort, Integer.parseInt, Long.parseLong refuse it), varint
 * and decimal (scale 0) from the text.
 */
static const uint8 *
integral_bytes(BloomTypedKey *tk, bool fits, int64 v, const char *text, size_t *len)
{
	uint8	   *b = tk->buf;
	size_t		cap = 8 + strlen(text);
	bc_status	st;

	switch (tk->kind)
	{
		case BC_CQL_BYTE:
			if (!fits || v < PG_INT8_MIN || v > PG_INT8_MAX)
				out_of_range(tk, text);
			*len = bc_ser_int8((int8) v, b);
			return b;
		case BC_CQL_SHORT:
			if (!fits || v < PG_INT16_MIN || v > PG_INT16_MAX)
				out_of_range(tk, text);
			*len = bc_ser_int16((int16) v, b);
			return b;
		case BC_CQL_INT32:
			if (!fits || v < PG_INT32_MIN || v > PG_INT32_MAX)
				out_of_range(tk, text);
			*len = bc_ser_int32((int32) v, b);
			return b;
		case BC_CQL_LONG:
		case BC_CQL_COUNTER:
			if (!fits)
				out_of_range(tk, text);
			*len = bc_ser_int64(v, b);
			return b;
		case BC_CQL_VARINT:
			b = dyn_alloc(tk, cap);
			st = bc_ser_varint_text(text, strlen(text), b, cap, len);
			break;
		case BC_CQL_DECIMAL:
			b = dyn_alloc(tk, cap);
			st = bc_ser_decimal_text(text, strlen(text), b, cap, len);
			break;
		default:
			pg_unreachable();
	}
	if (st != BC_OK)
		bloom_error(st);
	return b;
}

/* text as a float or double, as Java's Float/Double.parseFloat reads it
 * (correctly rounded); a finite value past the type's range is 22003,
 * where Java gives an infinity: a probe for 1e39 is not one for Infinity */
static const uint8 *
fp_bytes(BloomTypedKey *tk, const char *text, size_t *len)
{
	char	   *end;
	bool		infinite_text = strstr(text, "Infinity") != NULL;

	errno = 0;
	if (tk->kind == BC_CQL_FLOAT)
	{
		float		f = strtof(text, &end);

		if (isinf(f) && !infinite_text)
			out_of_range(tk, text);
		*len = bc_ser_float(f, tk->buf);
	}
	else
	{
		double		d = strtod(text, &end);

		if (isinf(d) && !infinite_text)
			out_of_range(tk, text);
		*len = bc_ser_double(d, tk->buf);
	}
	return tk->buf;
}

static const uint8 *
integer_bytes(BloomTypedKey *tk, Datum value, size_t *len)
{
	int64		v;
	char		text[32];

	switch (tk->base)
	{
		case INT2OID:
			v = DatumGetInt16(value);
			break;
		case INT4OID:
			v = DatumGetInt32(value);
			break;
		default:
			v = DatumGetInt64(value);
			break;
	}
	snprintf(text, sizeof(text), INT64_FORMAT, v);
	if (tk->kind == BC_CQL_FLOAT || tk->kind == BC_CQL_DOUBLE)
		return fp_bytes(tk, text, len);
	return integral_bytes(tk, true, v, text, len);
}

static const uint8 *
numeric_bytes(BloomTypedKey *tk, Datum value, size_t *len)
{
	Numeric		num = DatumGetNumeric(value);
	char	   *text = DatumGetCString(DirectFunctionCall1(numeric_out, value));
	char	   *dot,
			   *end;
	int64		v;
	bool		fits;

	if (tk->kind == BC_CQL_FLOAT || tk->kind == BC_CQL_DOUBLE)
		return fp_bytes(tk, text, len);
	if (numeric_is_nan(num) || numeric_is_inf(num))
		out_of_range(tk, text);
	if (tk->kind == BC_CQL_DECIMAL)
	{
		uint8	   *b = dyn_alloc(tk, 8 + strlen(text));
		bc_status	st = bc_ser_decimal_text(text, strlen(text), b, 8 + strlen(text), len);

		if (st != BC_OK)
			bloom_error(st);
		return b;
	}
	/* an integer type or varint: an all-zero fraction only ("12.000") */
	if ((dot = strchr(text, '.')) != NULL)
	{
		const char *p;

		for (p = dot + 1; *p; p++)
			if (*p != '0')
				ereport(ERROR,
						(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
						 errmsg("value %s of type %s is not an integer, as %s is",
								text, format_type_be(tk->valtype), cql_describe(tk->kind))));
		*dot = '\0';
	}
	errno = 0;
	v = strtoll(text, &end, 10);
	fits = errno == 0 && *end == '\0';
	{
		const uint8 *b = integral_bytes(tk, fits, v, text, len);

		pfree(text);
		return b;
	}
}

/*
 * A composite's text may name a prefix of it or a slice bound (fewer
 * components, or a last one ended by :! or :_, as CompositeType.fromString
 * reads them): neither is a partition key, which has every component,
 * each ended by 0 (CompositeType.build); such text is refused rather than
 * answered "absent".
 */
static void
check_composite_key(BloomTypedKey *tk, const uint8 *p, size_t len, const char *value,
					size_t value_len)
{
	int			nparams = tk->t->node[tk->t->root].nparams;
	int			i;
	size_t		pos = 0;
	bc_cqlerr	err;

	for (i = 0; pos < len; i++)
	{
		const uint8_t *v;
		size_t		vlen;
		int			eoc;

		if (bc_cql_composite_part(p, len, &pos, i, nparams, &v, &vlen, &eoc, &err) != BC_OK ||
			eoc != 0)
			break;
	}
	if (i != nparams || pos != len)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input for key_type \"%.*s\": \"%.*s\"",
						(int) Min(tk->type_len, 400), tk->type_str, (int) Min(value_len, 200), value),
				 errdetail("A partition key of this type has all its %d components, the text is a prefix or a slice bound.",
						   nparams)));
}

const uint8 *
bloom_typed_key_bytes(BloomTypedKey *tk, Datum value, size_t *len)
{
	switch (tk->from)
	{
		case FROM_UNTYPED:
			return bloom_key_bytes(tk->kt, value, len);
		case FROM_UNTYPED_LITERAL:
			{
				char	   *s = DatumGetCString(value);

				s = (char *) pg_do_encoding_conversion((unsigned char *) s, strlen(s),
													   GetDatabaseEncoding(), PG_UTF8);
				*len = strlen(s);
				return (const uint8 *) s;
			}
		case FROM_BYTES:
			{
				bytea	   *v = DatumGetByteaPP(value);

				*len = VARSIZE_ANY_EXHDR(v);
				return (const uint8 *) VARDATA_ANY(v);
			}
		case FROM_TEXT:
		case FROM_LITERAL:
			{
				bytea	   *k;
				uint8	   *b;
				const char *s;
				size_t		n;

				if (tk->from == FROM_TEXT)
				{
					text	   *v = DatumGetTextPP(value);

					s = VARDATA_ANY(v);
					n = VARSIZE_ANY_EXHDR(v);
				}
				else
				{
					s = DatumGetCString(value);
					n = strlen(s);
				}
				k = bloom_cql_key_from_text(tk->t, tk->type_str, tk->type_len, s, n);
				if (tk->kind == BC_CQL_COMPOSITE)
					check_composite_key(tk, (const uint8 *) VARDATA(k), VARSIZE(k) - VARHDRSZ, s, n);
				/* kept by tk until the next call, whatever the caller's
				 * memory context */
				*len = VARSIZE(k) - VARHDRSZ;
				b = dyn_alloc(tk, Max(*len, 1));
				memcpy(b, VARDATA(k), *len);
				pfree(k);
				return b;
			}
		case FROM_INTEGER:
			return integer_bytes(tk, value, len);
		case FROM_NUMERIC:
			return numeric_bytes(tk, value, len);
		case FROM_FLOAT:
			{
				double		d = tk->base == FLOAT4OID ? (double) DatumGetFloat4(value) :
					DatumGetFloat8(value);

				if (tk->kind == BC_CQL_DOUBLE)
				{
					*len = bc_ser_double(d, tk->buf);
					return tk->buf;
				}
				if (isinf((float) d) && !isinf(d))
					out_of_range(tk, DatumGetCString(DirectFunctionCall1(float8out,
																		 Float8GetDatum(d))));
				*len = bc_ser_float((float) d, tk->buf);
				return tk->buf;
			}
		case FROM_NATIVE:
			{
				const uint8 *b = bloom_key_bytes(tk->kt, value, len);

				/* TimeUUIDType.validate (TimeUUIDSerializer): version 1 */
				if (tk->kind == BC_CQL_TIMEUUID && (b[6] & 0xf0) != 0x10)
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							 errmsg("uuid %s is not a %s: its version is %d, a timeuuid's is 1",
									DatumGetCString(DirectFunctionCall1(uuid_out, value)),
									cql_describe(tk->kind), b[6] >> 4)));
				return b;
			}
	}
	pg_unreachable();
}

/* ---------------------------------------------------------------------
 * bloom_contains(filter, key, key_type)
 * --------------------------------------------------------------------- */

typedef struct TypedContainsCache
{
	BloomTypedKey *tk;
	BloomProbe *probe;
	Bloom	   *filter;
	struct varatt_external ptr;
} TypedContainsCache;

PG_FUNCTION_INFO_V1(bloom_contains_typed);
Datum
bloom_contains_typed(PG_FUNCTION_ARGS)
{
	TypedContainsCache *cc = (TypedContainsCache *) fcinfo->flinfo->fn_extra;
	Oid			valtype = get_fn_expr_argtype(fcinfo->flinfo, 1);
	text	   *key_type = PG_ARGISNULL(2) ? NULL : PG_GETARG_TEXT_PP(2);
	BloomTypedKey *tk;
	const uint8 *key;
	size_t		len;
	int64		h[2];
	Datum		d;
	Bloom	   *b;
	bc_filter	f;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	if (!OidIsValid(valtype))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("could not determine the data type of the key argument")));
	if (cc == NULL)
	{
		cc = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(TypedContainsCache));
		fcinfo->flinfo->fn_extra = cc;
	}
	tk = bloom_typed_key_prepare(&cc->tk, fcinfo->flinfo->fn_mcxt, valtype,
								 key_type ? VARDATA_ANY(key_type) : NULL,
								 key_type ? VARSIZE_ANY_EXHDR(key_type) : 0);
	key = bloom_typed_key_bytes(tk, PG_GETARG_DATUM(1), &len);
	bc_murmur3(key, len, (int64_t *) &h[0], (int64_t *) &h[1]);
	/* a stored filter by slices (bloom_probe.c), any other detoasted */
	d = PG_GETARG_DATUM(0);
	b = (Bloom *) DatumGetPointer(d);
	if (VARATT_IS_EXTENDED(b))
	{
		struct varatt_external ptr;

		if (bloom_probe_slicable(d, &ptr))
		{
			bool		answer;

			if (cc->probe == NULL)
				cc->probe = bloom_probe_create(fcinfo->flinfo->fn_mcxt);
			b = bloom_probe_stored(cc->probe, d, &ptr, h[0], h[1], &answer);
			if (b == NULL)
				PG_RETURN_BOOL(answer);
		}
		else
			b = bloom_getarg_cached(fcinfo, 0, &cc->filter, &cc->ptr);
	}
	bloom_view(b, &f);
	PG_RETURN_BOOL(bc_filter_test_hash(&f, h[0], h[1]) != 0);
}
