/*
 * bloom_each.c - the elements of an array probed against one filter in
 * batches: the machinery of bloom_contains_each (an answer per element)
 * and bloom_may_contain (the elements that may be present).
 *
 * A call sees every key, so the probes are made in batches: a batch of
 * keys is hashed, then tested by the core's batch test
 * (bc_filter_test_hashes), which prefetches the cache lines of all the
 * batch's bits before reading them, so that a filter larger than the
 * caches costs one DRAM round trip per batch rather than one per key.  A
 * stored filter (out of line, uncompressed) is probed by bloom_probe.c a
 * batch at a time: each TOAST chunk holding a probed bit is fetched once
 * for the batch, or the filter is read whole, once, when that costs less.
 *
 * The elements are any key type @> takes, serialized as @> serializes
 * them; with a key_type, as bloom_contains(filter, key, key_type) does
 * (bloom_typed_key.c).
 */
#include "postgres.h"

#include "access/tupmacs.h"
#include "miscadmin.h"
#include "utils/lsyscache.h"

#include "bc_filter.h"
#include "bc_murmur3.h"
#include "bloom_each.h"
#include "bloom_probe.h"
#include "bloom_typed_key.h"

struct BloomEachCache
{
	Oid			elemtype;
	BloomKeyType *kt;
	Oid			kt_type;		/* kt's */
	BloomTypedKey *tk;			/* the three-argument forms */
	int16		typlen;
	bool		typbyval;
	char		typalign;
	BloomProbe *probe;
	Bloom	   *filter;
	struct varatt_external ptr;
};

void
bloom_each_begin(BloomEachWalk *w, FunctionCallInfo fcinfo, ArrayType *keys, BloomEachCache **cache)
{
	BloomEachCache *ec = *cache;
	Oid			elemtype = ARR_ELEMTYPE(keys);

	if (ec == NULL)
	{
		ec = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(BloomEachCache));
		*cache = ec;
	}
	w->fcinfo = fcinfo;
	w->ec = ec;
	w->tk = NULL;
	if (PG_NARGS() > 2 && !PG_ARGISNULL(2))
	{
		text	   *key_type = PG_GETARG_TEXT_PP(2);

		w->tk = bloom_typed_key_prepare(&ec->tk, fcinfo->flinfo->fn_mcxt, elemtype,
										VARDATA_ANY(key_type), VARSIZE_ANY_EXHDR(key_type));
	}
	/* the element type: any key type of @>, else its error (42804) */
	if (w->tk == NULL && (ec->kt == NULL || ec->kt_type != elemtype))
	{
		ec->kt = bloom_key_type_for(elemtype, fcinfo->flinfo->fn_mcxt);
		ec->kt_type = elemtype;
	}
	if (ec->elemtype != elemtype)
	{
		ec->elemtype = elemtype;
		get_typlenbyvalalign(elemtype, &ec->typlen, &ec->typbyval, &ec->typalign);
	}
	w->nitems = ArrayGetNItems(ARR_NDIM(keys), ARR_DIMS(keys));
	w->nulls = ARR_NULLBITMAP(keys);
	w->i = 0;
	/* ARR_DATA_PTR, written out: the macro does not compile under
	 * -Wsign-compare */
	w->p = (const char *) keys + (w->nulls != NULL ? (Size) keys->dataoffset :
								  ARR_OVERHEAD_NONULLS(ARR_NDIM(keys)));
}

/* The answers of n hashes: from slices of a stored filter, or in memory. */
static void
probe_batch(FunctionCallInfo fcinfo, BloomEachCache *ec, const int64 *h, int n, uint8 *answers)
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

int
bloom_each_next(BloomEachWalk *w, Datum *values, uint8 *answers)
{
	BloomEachCache *ec = w->ec;
	const bits8 *nulls = w->nulls;
	const char *p = w->p;
	int			i = w->i,
				n = 0;
	int64		h[2 * BLOOM_EACH_BATCH];

	CHECK_FOR_INTERRUPTS();
	while (n < BLOOM_EACH_BATCH && i < w->nitems)
	{
		Datum		v;

		if (nulls != NULL && ((nulls[i / 8] >> (i % 8)) & 1) == 0)
		{
			/* a long run of NULLs stays cancellable */
			if ((++i & 0xffff) == 0)
				CHECK_FOR_INTERRUPTS();
			continue;
		}
		v = fetch_att(p, ec->typbyval, ec->typlen);
		p = att_addlength_pointer(p, ec->typlen, p);
		p = (const char *) att_align_nominal(p, ec->typalign);
		if (w->tk != NULL)
		{
			size_t		len;
			const uint8 *key = bloom_typed_key_bytes(w->tk, v, &len);

			bc_murmur3(key, len, (int64_t *) &h[2 * n], (int64_t *) &h[2 * n + 1]);
		}
		else
			bloom_key_hash_inline(ec->kt, v, &h[2 * n], &h[2 * n + 1]);
		values[n++] = v;
		i++;
	}
	w->i = i;
	w->p = p;
	if (n > 0)
		probe_batch(w->fcinfo, ec, h, n, answers);
	return n;
}
