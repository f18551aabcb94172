/*
 * bloom_probe.c - probing stored filters without reading them whole.
 *
 * A filter stored out of line and uncompressed (what STORAGE external
 * keeps) lies in TOAST chunks of about 2 kB.  A probe needs its 12-byte
 * header and k bits, so it can read just the chunks that hold them through
 * the table AM's slice fetch: a handful of index look-ups, whatever the
 * filter's size, and no memory of the filter's size.
 *
 * The policy, per call site (one bloom_contains in one query), for each
 * such TOAST pointer:
 *
 *   - probes are answered from slices, stopping at the first clear bit,
 *     and the chunk fetches they make are counted per pointer;
 *   - once a pointer has cost fetches worth a quarter of reading it whole
 *     (a slice fetch costs about as much as PROBE_FETCH_CHUNKS chunks read
 *     in sequence), it is detoasted once and kept: in a cache of at most
 *     bloomcass.probe_cache_size per call site, or, when it does not fit,
 *     as the one filter kept beside the cache ("the spare"); the spare a
 *     new one replaces is probed from slices from then on (filters that
 *     take turns are never read whole again and again);
 *   - its header (hash count, size, order) is kept from its first probe.
 *
 * So one key against many filters reads k + 1 chunks per filter; many keys
 * against one filter read it once (after a few sliced probes); many keys
 * against many filters (a nested loop with the filters inside) read each
 * filter once as long as the cache holds them, and no more than 1.25
 * times over.  Every other representation (compressed, inline, in memory)
 * is detoasted whole, as before, the last one kept.
 */
#include "postgres.h"

#include "access/detoast.h"
#include "access/heaptoast.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/tableam.h"
#include "access/toast_internals.h"
#include "funcapi.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "bc_codec.h"
#include "bc_endian.h"
#include "bc_filter.h"
#include "bloom_probe.h"

/* bytes of header a probe needs: format, flags, reserved, Filter.db header */
#define PROBE_HDR ((int32) (BLOOM_HDRSZ - VARHDRSZ + BC_FILTERDB_HEADER))

/*
 * One slice fetch (an index descent and one heap page) costs about as much
 * as reading this many chunks in sequence (test/bench/probe.sh: 3 to 5 us
 * against 0.5 us a chunk); a pointer is read whole once its fetches have
 * cost PROBE_SWITCH_FRACTION of reading it whole.
 */
#define PROBE_FETCH_CHUNKS 10
#define PROBE_SWITCH_FRACTION 0.25

/* pointers tracked per call site; more are probed from slices only */
#define PROBE_MAX_TRACKED 65536

/* what this backend's probes did, for the tests (bloomcass_probe_counters) */
static uint64 bloom_probe_sliced = 0;
static uint64 bloom_probe_fetches = 0;
static uint64 bloom_probe_detoasts = 0;

typedef struct ProbeKey
{
	Oid			toastrelid;
	Oid			valueid;
} ProbeKey;

typedef struct ProbeEntry
{
	ProbeKey	key;
	uint64		fetches;		/* slice fetches made for it */
	bool		have_header;
	int32		hash_count;
	int64		word_count;
	bc_order	order;
	Bloom	   *filter;			/* detoasted, in the cache */
	bool		evicted;		/* was the spare, replaced: slices only */
} ProbeEntry;

struct BloomProbe
{
	MemoryContext mcxt;
	HTAB	   *entries;
	Size		cached_bytes;
	/* the one filter kept beside the cache (too large for it) */
	ProbeKey	spare_key;
	Bloom	   *spare;
};

BloomProbe *
bloom_probe_create(MemoryContext mcxt)
{
	BloomProbe *p = MemoryContextAllocZero(mcxt, sizeof(BloomProbe));
	HASHCTL		ctl;

	p->mcxt = mcxt;
	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(ProbeKey);
	ctl.entrysize = sizeof(ProbeEntry);
	ctl.hcxt = mcxt;
	p->entries = hash_create("bloomcass probe", 64, &ctl,
							 HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	return p;
}

bool
bloom_probe_slicable(Datum d, struct varatt_external *ptr)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(d);

	if (!VARATT_IS_EXTERNAL_ONDISK(v))
		return false;
	VARATT_EXTERNAL_GET_POINTER(*ptr, v);
	/* VARATT_EXTERNAL_IS_COMPRESSED, without its signed/unsigned compare */
	return (int64) VARATT_EXTERNAL_GET_EXTSIZE(*ptr) >= (int64) ptr->va_rawsize - VARHDRSZ;
}

/* Bytes [offset, offset + len) of a stored value into out. */
static void
fetch_slice(Relation toastrel, const struct varatt_external *ptr, int32 offset, int32 len,
			uint8 *out)
{
	union
	{
		struct varlena hdr;
		char		data[VARHDRSZ + PROBE_HDR];
	}			buf;

	Assert(len <= PROBE_HDR);
	SET_VARSIZE(&buf.hdr, VARHDRSZ + len);
	table_relation_fetch_toast_slice(toastrel, ptr->va_valueid,
									 VARATT_EXTERNAL_GET_EXTSIZE(*ptr),
									 offset, len, &buf.hdr);
	memcpy(out, VARDATA(&buf.hdr), len);
	bloom_probe_fetches++;
}

/*
 * The header from its slice; false if the value is not a well-formed
 * filter of its stored size (then the caller reads it whole, which reports
 * what is wrong).
 */
static bool
read_header(Relation toastrel, const struct varatt_external *ptr, ProbeEntry *e)
{
	uint8		hdr[PROBE_HDR];
	int64		size = VARATT_EXTERNAL_GET_EXTSIZE(*ptr);
	int64		w;
	int32		k;

	if (size < PROBE_HDR)
		return false;
	fetch_slice(toastrel, ptr, 0, PROBE_HDR, hdr);
	e->fetches++;
	k = (int32) bc_get_be32(hdr + 4);
	w = (int64) bc_get_be32(hdr + 8);
	if (hdr[0] != BLOOM_FORMAT_VERSION || (hdr[1] & ~BLOOM_FLAGS_KNOWN) != 0 ||
		k < BC_MIN_HASH_COUNT || k > BC_MAX_HASH_COUNT || w < 1 ||
		size != PROBE_HDR + 8 * w)
		return false;
	e->hash_count = k;
	e->word_count = w;
	e->order = (hdr[1] & BLOOM_FLAG_OLD_ORDER) ? BC_ORDER_OLD : BC_ORDER_NEW;
	e->have_header = true;
	return true;
}

/* The probe from slices: the k bits' bytes, up to the first clear bit. */
static bool
probe_slices(Relation toastrel, const struct varatt_external *ptr, ProbeEntry *e,
			 int64 h1, int64 h2)
{
	bc_filter	f;
	uint64		idx[BC_MAX_HASH_COUNT];
	int			i;

	bc_filter_init(&f, e->hash_count, e->word_count, e->order, NULL);
	bc_filter_indexes(&f, h1, h2, idx);
	bloom_probe_sliced++;
	for (i = 0; i < e->hash_count; i++)
	{
		uint8		byte;

		fetch_slice(toastrel, ptr, PROBE_HDR + (int32) (idx[i] >> 3), 1, &byte);
		e->fetches++;
		if ((byte & (1 << (idx[i] & 7))) == 0)
			return false;
	}
	return true;
}

/*
 * The value read whole.  A stored filter read out of line goes into memory
 * advised to use huge pages and populated in one call (bloom_populate):
 * kept filters are fresh memory, and touching it page by page costs more
 * than the read itself on some machines (8 ms against 2.7 ms for 12 MB).
 */
static Bloom *
detoast_whole(BloomProbe *p, Datum d, const struct varatt_external *ptr)
{
	Bloom	   *b;

	if (ptr != NULL)
	{
		int32		size = VARATT_EXTERNAL_GET_EXTSIZE(*ptr);
		Relation	toastrel = table_open(ptr->va_toastrelid, AccessShareLock);

		b = (Bloom *) bloom_palloc_large(p->mcxt, VARHDRSZ + (Size) size);
		bloom_populate(b, VARHDRSZ + (Size) size);
		SET_VARSIZE(b, VARHDRSZ + size);
		table_relation_fetch_toast_slice(toastrel, ptr->va_valueid, size, 0, size,
										 (struct varlena *) b);
		table_close(toastrel, AccessShareLock);
	}
	else
	{
		MemoryContext old = MemoryContextSwitchTo(p->mcxt);

		b = (Bloom *) PG_DETOAST_DATUM_COPY(d);
		MemoryContextSwitchTo(old);
	}
	bloom_probe_detoasts++;
	return b;
}

Bloom *
bloom_probe_stored(BloomProbe *p, Datum d, const struct varatt_external *ptr,
				   int64 h1, int64 h2, bool *answer)
{
	ProbeKey	key;
	ProbeEntry *e;
	bool		found;
	Relation	toastrel;
	uint64		chunks;

	memset(&key, 0, sizeof(key));
	key.toastrelid = ptr->va_toastrelid;
	key.valueid = ptr->va_valueid;

	if (p->spare != NULL && memcmp(&key, &p->spare_key, sizeof(key)) == 0)
		return p->spare;

	e = (ProbeEntry *) hash_search(p->entries, &key,
								   hash_get_num_entries(p->entries) < PROBE_MAX_TRACKED ?
								   HASH_ENTER : HASH_FIND, &found);
	if (e != NULL && !found)
	{
		e->fetches = 0;
		e->have_header = false;
		e->filter = NULL;
		e->evicted = false;
	}
	if (e != NULL && e->filter != NULL)
		return e->filter;

	/* read whole once the slices have cost enough */
	chunks = (VARATT_EXTERNAL_GET_EXTSIZE(*ptr) + TOAST_MAX_CHUNK_SIZE - 1) / TOAST_MAX_CHUNK_SIZE;
	if (e != NULL && !e->evicted &&
		(double) e->fetches * PROBE_FETCH_CHUNKS >= PROBE_SWITCH_FRACTION * (double) chunks)
	{
		Bloom	   *b = detoast_whole(p, d, ptr);
		Size		size = VARSIZE(b);

		if (p->cached_bytes + size <= (Size) bloom_probe_cache_kb * 1024)
		{
			e->filter = b;
			p->cached_bytes += size;
		}
		else
		{
			/* the spare it replaces is probed from slices from now on, so
			 * that filters taking turns are not read whole again and again */
			if (p->spare != NULL)
			{
				ProbeEntry *old = (ProbeEntry *) hash_search(p->entries, &p->spare_key,
															 HASH_FIND, NULL);

				if (old != NULL)
					old->evicted = true;
				pfree(p->spare);
			}
			p->spare = b;
			p->spare_key = key;
		}
		return b;
	}

	toastrel = table_open(ptr->va_toastrelid, AccessShareLock);
	{
		ProbeEntry	scratch;

		if (e == NULL)
		{
			memset(&scratch, 0, sizeof(scratch));
			e = &scratch;
		}
		if (!e->have_header && !read_header(toastrel, ptr, e))
		{
			table_close(toastrel, AccessShareLock);
			/* not what a filter looks like: detoasted as any value */
			return detoast_whole(p, d, NULL);
		}
		*answer = probe_slices(toastrel, ptr, e, h1, h2);
	}
	table_close(toastrel, AccessShareLock);
	return NULL;
}

bool
bloom_probe_header(Datum d, int32 *hash_count, int64 *word_count, bc_order *order)
{
	struct varatt_external ptr;
	struct varlena *v = (struct varlena *) DatumGetPointer(d);
	const uint8 *hdr;
	struct varlena *slice;

	if (!VARATT_IS_EXTERNAL_ONDISK(v))
		return false;
	VARATT_EXTERNAL_GET_POINTER(ptr, v);
	if ((int64) VARATT_EXTERNAL_GET_EXTSIZE(ptr) < PROBE_HDR)
		return false;
	slice = detoast_attr_slice(v, 0, PROBE_HDR);
	if ((int64) VARSIZE_ANY_EXHDR(slice) < PROBE_HDR)
		return false;
	hdr = (const uint8 *) VARDATA_ANY(slice);
	*hash_count = (int32) bc_get_be32(hdr + 4);
	*word_count = (int64) bc_get_be32(hdr + 8);
	*order = (hdr[1] & BLOOM_FLAG_OLD_ORDER) ? BC_ORDER_OLD : BC_ORDER_NEW;
	if (hdr[0] != BLOOM_FORMAT_VERSION || *hash_count < BC_MIN_HASH_COUNT ||
		*hash_count > BC_MAX_HASH_COUNT || *word_count < 1)
		return false;
	pfree(slice);
	return true;
}

/*
 * Test-only entry point (declared by the regression tests, not by the
 * extension's scripts): the counts of sliced probes, slice fetches and
 * whole reads of stored filters made by this backend.
 */
PG_FUNCTION_INFO_V1(bloomcass_probe_counters);
Datum
bloomcass_probe_counters(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[3];
	bool		nulls[3] = {false, false, false};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	values[0] = Int64GetDatum((int64) bloom_probe_sliced);
	values[1] = Int64GetDatum((int64) bloom_probe_fetches);
	values[2] = Int64GetDatum((int64) bloom_probe_detoasts);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls)));
}

/*
 * Test-only entry point: bloom_contains(filter, text key) on the filter
 * detoasted whole, as every probe did before slices (the benchmarks' and
 * tests' reference path).
 */
PG_FUNCTION_INFO_V1(bloomcass_contains_whole);
Datum
bloomcass_contains_whole(PG_FUNCTION_ARGS)
{
	Bloom	   *b = PG_GETARG_BLOOM_P(0);
	text	   *key = PG_GETARG_TEXT_PP(1);
	bc_filter	f;

	bloom_view(b, &f);
	PG_RETURN_BOOL(bc_filter_test(&f, VARDATA_ANY(key), VARSIZE_ANY_EXHDR(key)));
}
