/*
 * bloom_keys_sql.c - the SQL functions over partition keys:
 * cassandra_murmur3, cassandra_token, cassandra_key (a composite key's
 * bytes), cassandra_varint and cassandra_tinyint, over bloom_keys.c's
 * serialization of each PostgreSQL type.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"

#include "bc_keys.h"
#include "bc_murmur3.h"
#include "bc_status.h"
#include "bloomcass.h"

/* ---------------------------------------------------------------------
 * SQL functions
 * --------------------------------------------------------------------- */

PG_FUNCTION_INFO_V1(cassandra_murmur3);
Datum
cassandra_murmur3(PG_FUNCTION_ARGS)
{
	BloomKeyType *kt = bloom_key_type(fcinfo, 0, NULL);
	TupleDesc	tupdesc;
	Datum		values[2];
	bool		nulls[2] = {false, false};
	int64		h1,
				h2;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	bloom_key_hash(kt, PG_GETARG_DATUM(0), &h1, &h2);
	values[0] = Int64GetDatum(h1);
	values[1] = Int64GetDatum(h2);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls)));
}

PG_FUNCTION_INFO_V1(cassandra_token);
Datum
cassandra_token(PG_FUNCTION_ARGS)
{
	BloomKeyType *kt = bloom_key_type(fcinfo, 0, NULL);
	size_t		len;
	const uint8 *key = bloom_key_bytes(kt, PG_GETARG_DATUM(0), &len);

	PG_RETURN_INT64(bc_token(key, len));
}

/* Key types of cassandra_key's arguments, cached per call site. */
typedef struct CompositeCache
{
	BloomKeyType **types;
} CompositeCache;

static BloomKeyType *
composite_type(FunctionCallInfo fcinfo, CompositeCache *cc, int i, Oid typid)
{
	if (cc->types[i] == NULL)
		cc->types[i] = bloom_key_type_for(typid, fcinfo->flinfo->fn_mcxt);
	return cc->types[i];
}

static void
check_component_count(int n)
{
	if (n < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("a partition key needs at least one component")));
}

static void
check_component_not_null(bool isnull, int i)
{
	if (isnull)
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("partition key component %d is NULL", i + 1)));
}

static bytea *
build_composite(int n, const uint8 **parts, size_t *lens)
{
	bc_status	st;
	size_t		total,
				outlen;
	bytea	   *out;
	int			i;

	if (n == 1)
	{
		/* a single-column key is not wrapped */
		out = (bytea *) palloc(VARHDRSZ + lens[0]);
		SET_VARSIZE(out, VARHDRSZ + lens[0]);
		memcpy(VARDATA(out), parts[0], lens[0]);
		return out;
	}
	for (i = 0; i < n; i++)
		if (lens[i] > 65535)
			bloom_error(BC_ERR_KEY_TOO_LONG);
	total = bc_composite_size(lens, n);
	if (total > 65535)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("composite partition key of %zu bytes exceeds Cassandra's maximum of 65535",
						total)));
	out = (bytea *) palloc(VARHDRSZ + total);
	st = bc_ser_composite(parts, lens, n, (uint8 *) VARDATA(out), total, &outlen);
	if (st != BC_OK)
		bloom_error(st);
	SET_VARSIZE(out, VARHDRSZ + outlen);
	return out;
}

PG_FUNCTION_INFO_V1(cassandra_key);
Datum
cassandra_key(PG_FUNCTION_ARGS)
{
	CompositeCache *cc = (CompositeCache *) fcinfo->flinfo->fn_extra;
	int			n;
	const uint8 **parts;
	size_t	   *lens;
	int			i;

	if (get_fn_expr_variadic(fcinfo->flinfo))
	{
		/* cassandra_key(VARIADIC array): the array's elements */
		ArrayType  *arr;
		Datum	   *elems;
		bool	   *elnulls;
		int16		typlen;
		bool		typbyval;
		char		typalign;

		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		arr = PG_GETARG_ARRAYTYPE_P(0);
		get_typlenbyvalalign(ARR_ELEMTYPE(arr), &typlen, &typbyval, &typalign);
		deconstruct_array(arr, ARR_ELEMTYPE(arr), typlen, typbyval, typalign,
						  &elems, &elnulls, &n);
		check_component_count(n);
		parts = palloc(sizeof(uint8 *) * n);
		lens = palloc(sizeof(size_t) * n);
		for (i = 0; i < n; i++)
		{
			BloomKeyType *kt;

			check_component_not_null(elnulls[i], i);
			kt = bloom_key_type_for(ARR_ELEMTYPE(arr), CurrentMemoryContext);
			parts[i] = bloom_key_bytes(kt, elems[i], &lens[i]);
			/* fixed-width results live in kt, which we keep */
		}
		PG_RETURN_BYTEA_P(build_composite(n, parts, lens));
	}

	n = PG_NARGS();
	if (cc == NULL)
	{
		cc = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(CompositeCache));
		cc->types = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt,
										   sizeof(BloomKeyType *) * Max(n, 1));
		fcinfo->flinfo->fn_extra = cc;
	}
	check_component_count(n);
	parts = palloc(sizeof(uint8 *) * n);
	lens = palloc(sizeof(size_t) * n);
	for (i = 0; i < n; i++)
	{
		Oid			typid = get_fn_expr_argtype(fcinfo->flinfo, i);
		BloomKeyType *kt;

		check_component_not_null(PG_ARGISNULL(i), i);
		if (typid == UNKNOWNOID)
		{
			/* an untyped literal is text (as in format()); it arrives as a
			 * cstring */
			char	   *s = PG_GETARG_POINTER(i);

			s = (char *) pg_do_encoding_conversion((unsigned char *) s, strlen(s),
												   GetDatabaseEncoding(), PG_UTF8);
			parts[i] = (const uint8 *) s;
			lens[i] = strlen(s);
			continue;
		}
		kt = composite_type(fcinfo, cc, i, typid);
		parts[i] = bloom_key_bytes(kt, PG_GETARG_DATUM(i), &lens[i]);
	}
	PG_RETURN_BYTEA_P(build_composite(n, parts, lens));
}

PG_FUNCTION_INFO_V1(cassandra_varint);
Datum
cassandra_varint(PG_FUNCTION_ARGS)
{
	Numeric		num = PG_GETARG_NUMERIC(0);
	char	   *str;
	size_t		cap,
				outlen;
	bytea	   *out;
	bc_status	st;

	if (numeric_is_nan(num) || numeric_is_inf(num))
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("NaN and infinity cannot be a Cassandra varint")));
	str = DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(num)));
	if (strchr(str, '.') != NULL)
	{
		/* allow only an all-zero fraction, as "12.000" */
		char	   *dot = strchr(str, '.');
		char	   *p;

		for (p = dot + 1; *p; p++)
			if (*p != '0')
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("Cassandra varint must be an integer, not %s", str)));
		*dot = '\0';
	}
	cap = 8 + strlen(str);
	out = (bytea *) palloc(VARHDRSZ + cap);
	st = bc_ser_varint_text(str, strlen(str), (uint8 *) VARDATA(out), cap, &outlen);
	if (st != BC_OK)
		bloom_error(st);
	SET_VARSIZE(out, VARHDRSZ + outlen);
	PG_RETURN_BYTEA_P(out);
}

PG_FUNCTION_INFO_V1(cassandra_tinyint);
Datum
cassandra_tinyint(PG_FUNCTION_ARGS)
{
	int16		v = PG_GETARG_INT16(0);
	bytea	   *out;

	if (v < -128 || v > 127)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("value %d is out of range for a Cassandra tinyint (-128 to 127)", v)));
	out = (bytea *) palloc(VARHDRSZ + 1);
	SET_VARSIZE(out, VARHDRSZ + 1);
	bc_ser_int8((int8) v, (uint8 *) VARDATA(out));
	PG_RETURN_BYTEA_P(out);
}
