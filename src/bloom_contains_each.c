/*
 * bloom_contains_each.c - bloom_contains_each(filter, keys anyarray): the
 * answer of filter @> key for every element of an array, in one call.
 *
 * The keys are probed in batches by bloom_each.c (see there).  The result
 * has the array's dimensions and lower bounds (element i of the result
 * answers element i of the keys, as unnest gives both), with NULL for a
 * NULL element; the element type is any key type @> takes.
 *
 * bloom_contains_each(filter, keys, key_type) serializes each element as a
 * key of that CQL type (bloom_typed_key.c), as bloom_contains(filter, key,
 * key_type) does; a NULL key_type is the two-argument form.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/array.h"

#include "bloom_each.h"
#include "bloomcass.h"

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
	BloomEachWalk w;
	int			nitems;
	int			nvalues = 0,
				done = 0,
				n,
				i;
	ArrayType  *result;
	bool	   *out;
	bits8	   *nulls;
	Datum		values[BLOOM_EACH_BATCH];
	uint8		answers[BLOOM_EACH_BATCH];

	/* the three-argument form is not strict: a NULL key_type is none */
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	keys = PG_GETARG_ARRAYTYPE_P(1);
	bloom_each_begin(&w, fcinfo, keys, (BloomEachCache **) &fcinfo->flinfo->fn_extra);
	nitems = w.nitems;
	if (nitems == 0)
		PG_RETURN_ARRAYTYPE_P(construct_empty_array(BOOLOID));

	nulls = ARR_NULLBITMAP(keys);
	if (nulls != NULL)
		for (i = 0; i < nitems; i++)
			nvalues += (nulls[i / 8] >> (i % 8)) & 1;
	else
		nvalues = nitems;
	result = result_like(keys, nitems, nvalues, array_contains_nulls(keys), &out);

	/* the non-NULL elements in order, a batch at a time */
	while ((n = bloom_each_next(&w, values, answers)) > 0)
	{
		for (i = 0; i < n; i++)
			out[done + i] = answers[i] != 0;
		done += n;
	}
	PG_RETURN_ARRAYTYPE_P(result);
}
