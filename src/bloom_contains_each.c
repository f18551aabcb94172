/*
 * bloom_contains_each.c - bloom_contains_each(filter, keys anyarray): the
 * answer of filter @> key for every element of an array, in one call.
 *
 * One call sees every key, so the probes are made in batches: a batch of
 * keys is hashed, then tested by the core's batch test
 * (bc_filter_test_hashes), which prefetches the cache lines of all the
 * batch's bits before reading them, so that a filter larger than the
 * caches costs one DRAM round trip per batch rather than one per key.  A
 * stored filter (out of line, uncompressed) is probed by bloom_probe.c a
 * batch at a time: each TOAST chunk holding a probed bit is fetched once
 * for the batch, or the filter is read whole, once, when that costs less.
 *
 * The result has the array's dimensions and lower bounds (element i of
 * the result answers element i of the keys, as unnest gives both), with
 * NULL for a NULL element; the element type is any key type @> takes.
 *
 * bloom_contains_each(filter, keys, key_type) serializes each element as a
 * key of that CQL type (bloom_typed_key.c), as bloom_contains(filter, key,
 * key_type) does; a NULL key_type is the two-argument form.
 */
#include "postgres.h"

#include "access/tupmacs.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/lsyscache.h"

#include "bc_filter.h"
#include "bc_murmur3.h"
#include "bloom_probe.h"
#include "bloom_typed_key.h"
#include "bloomcass.h"

/*
 * Keys hashed and probed per batch: 16 bytes of hash each, on the stack,
 * and, for a stored filter probed by slices, hash_count probed bits each
 * (bloom_probe_stored_each); each TOAST chunk is fetched at most once per
 * batch.
 */
#define EACH_BATCH 1024

/* per call site: the element type's key serialization, the stored filter
 * state, the last filter detoasted whole */
typedef struct EachCache
{
	Oid			elemtype;
	BloomKeyType *kt;
	Oid			kt_type;		/* kt's */
	BloomTypedKey *tk;			/* the three-argument form */
	int16		typlen;
	bool		typbyval;
	char		typalign;
	BloomProbe *probe;
	Bloom	   *filter;
	struct varatt_external ptr;
} EachCache;

/* The answers of n hashes: from slices of a stored filter, or in memory. */
static void
probe_batch(FunctionCallInfo fcinfo, EachCache *ec, const int64 *h, int n, uint8 *answers)
{
	Datum		d = PG_GETARG_DATUM(0);
	Bloom	   *b = (Bloom *) DatumGetPointer(d);
	bc_filter	f;

	if (VARATT_IS_EXTENDED(b))
	{
		struct varatt_external ptr;

		if (bloom_probe_slicable(d, &ptr))
		{
			if (ec->probe == NULL)
				ec->probe = bloom_probe_create(fcinfo->flinfo->fn_mcxt);
			b = bloom_probe_stored_each(ec->probe, d, &ptr, h, n, answers);
			if (b == NULL)
				return;
		}
		else
			b = bloom_getarg_cached(fcinfo, 0, &ec->filter, &ec->ptr);
	}
	bloom_view(b, &f);
	bc_filter_test_hashes(&f, h, (size_t) n, answers);
}

/* An array of booleans of the shape of keys and with its NULLs, its
 * nvalues values zeroed at *data. */
static ArrayType *
result_like(ArrayType *keys, int nitems, int nvalues, bool hasnulls, bool **data)
{
	int			ndim = ARR_NDIM(keys);
	Size		hdr = hasnulls ? ARR_OVERHEAD_WITHNULLS(ndim, nitems) : ARR_OVERHEAD_NONULLS(ndim);
	ArrayType  *r = (ArrayType *) palloc0(hdr + nvalues);

	SET_VARSIZE(r, hdr + nvalues);
	r->ndim = ndim;
	r->dataoffset = hasnulls ? (int32) hdr : 0;
	r->elemtype = BOOLOID;
	memcpy(ARR_DIMS(r), ARR_DIMS(keys), ndim * sizeof(int));
	memcpy(ARR_LBOUND(r), ARR_LBOUND(keys), ndim * sizeof(int));
	if (hasnulls)
		array_bitmap_copy(ARR_NULLBITMAP(r), 0, ARR_NULLBITMAP(keys), 0, nitems);
	*data = (bool *) ((char *) r + hdr);
	return r;
}

PG_FUNCTION_INFO_V1(bloom_contains_each);
Datum
bloom_contains_each(PG_FUNCTION_ARGS)
{
	ArrayType  *keys;
	EachCache  *ec = (EachCache *) fcinfo->flinfo->fn_extra;
	int			nitems;
	bool		hasnulls;
	BloomTypedKey *tk = NULL;
	int			nvalues = 0,
				done = 0,
				i;
	ArrayType  *result;
	bool	   *out;
	bits8	   *nulls;
	const char *p;
	int64		h[2 * EACH_BATCH];
	uint8		answers[EACH_BATCH];

	/* the three-argument form is not strict: a NULL key_type is none */
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	keys = PG_GETARG_ARRAYTYPE_P(1);
	nitems = ArrayGetNItems(ARR_NDIM(keys), ARR_DIMS(keys));
	hasnulls = array_contains_nulls(keys);
	nulls = ARR_NULLBITMAP(keys);
	if (ec == NULL)
	{
		ec = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(EachCache));
		fcinfo->flinfo->fn_extra = ec;
	}
	if (PG_NARGS() > 2 && !PG_ARGISNULL(2))
	{
		text	   *key_type = PG_GETARG_TEXT_PP(2);

		tk = bloom_typed_key_prepare(&ec->tk, fcinfo->flinfo->fn_mcxt, ARR_ELEMTYPE(keys),
									 VARDATA_ANY(key_type), VARSIZE_ANY_EXHDR(key_type));
	}
	/* the element type: any key type of @>, else its error (42804) */
	if (tk == NULL && (ec->kt == NULL || ec->kt_type != ARR_ELEMTYPE(keys)))
	{
		ec->kt = bloom_key_type_for(ARR_ELEMTYPE(keys), fcinfo->flinfo->fn_mcxt);
		ec->kt_type = ARR_ELEMTYPE(keys);
	}
	if (ec->elemtype != ARR_ELEMTYPE(keys))
	{
		ec->elemtype = ARR_ELEMTYPE(keys);
		get_typlenbyvalalign(ec->elemtype, &ec->typlen, &ec->typbyval, &ec->typalign);
	}
	if (nitems == 0)
		PG_RETURN_ARRAYTYPE_P(construct_empty_array(BOOLOID));

	if (nulls != NULL)
		for (i = 0; i < nitems; i++)
			nvalues += (nulls[i / 8] >> (i % 8)) & 1;
	else
		nvalues = nitems;
	result = result_like(keys, nitems, nvalues, hasnulls, &out);

	/* the non-NULL elements in order, a batch at a time (ARR_DATA_PTR,
	 * written out: the macro does not compile under -Wsign-compare) */
	p = (const char *) keys + (nulls != NULL ? (Size) keys->dataoffset :
							   ARR_OVERHEAD_NONULLS(ARR_NDIM(keys)));
	for (i = 0; i < nitems;)
	{
		int			n = 0,
					j;

		CHECK_FOR_INTERRUPTS();
		while (n < EACH_BATCH && i < nitems)
		{
			Datum		v;

			if (nulls != NULL && ((nulls[i / 8] >> (i % 8)) & 1) == 0)
			{
				i++;
				continue;
			}
			v = fetch_att(p, ec->typbyval, ec->typlen);
			p = att_addlength_pointer(p, ec->typlen, p);
			p = (const char *) att_align_nominal(p, ec->typalign);
			if (tk != NULL)
			{
				size_t		len;
				const uint8 *key = bloom_typed_key_bytes(tk, v, &len);

				bc_murmur3(key, len, (int64_t *) &h[2 * n], (int64_t *) &h[2 * n + 1]);
			}
			else
				bloom_key_hash_inline(ec->kt, v, &h[2 * n], &h[2 * n + 1]);
			n++;
			i++;
		}
		if (n == 0)
			break;
		probe_batch(fcinfo, ec, h, n, answers);
		for (j = 0; j < n; j++)
			out[done + j] = answers[j] != 0;
		done += n;
	}
	PG_RETURN_ARRAYTYPE_P(result);
}
