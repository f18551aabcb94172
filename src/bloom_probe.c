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
#include "miscadmin.h"
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

/*
 * The entry of ptr (NULL once PROBE_MAX_TRACKED pointers are tracked) and
 * the filter kept for it, if any.
 */
static ProbeEntry *
find_entry(BloomProbe *p, const struct varatt_external *ptr, ProbeKey *key, Bloom **kept)
{
	ProbeEntry *e;
	bool		found;

	memset(key, 0, sizeof(*key));
	key->toastrelid = ptr->va_toastrelid;
	key->valueid = ptr->va_valueid;
	*kept = NULL;
	if (p->spare != NULL && memcmp(key, &p->spare_key, sizeof(*key)) == 0)
	{
		*kept = p->spare;
		return NULL;
	}
	e = (ProbeEntry *) hash_search(p->entries, key,
								   hash_get_num_entries(p->entries) < PROBE_MAX_TRACKED ?
								   HASH_ENTER : HASH_FIND, &found);
	if (e != NULL && !found)
	{
		e->fetches = 0;
		e->have_header = false;
		e->filter = NULL;
		e->evicted = false;
	}
	if (e != NULL)
		*kept = e->filter;
	return e;
}

/* the TOAST chunks of ptr's value */
static uint64
value_chunks(const struct varatt_external *ptr)
{
	return (VARATT_EXTERNAL_GET_EXTSIZE(*ptr) + TOAST_MAX_CHUNK_SIZE - 1) / TOAST_MAX_CHUNK_SIZE;
}

/* whether slice fetches of e, with `more` to come, cost enough that the
 * value is better read whole */
static bool
read_whole_pays(const ProbeEntry *e, uint64 more, const struct varatt_external *ptr)
{
	return e != NULL && !e->evicted &&
		(double) (e->fetches + more) * PROBE_FETCH_CHUNKS >=
		PROBE_SWITCH_FRACTION * (double) value_chunks(ptr);
}

/* The value read whole and kept for e: in the cache, or as the spare. */
static Bloom *
keep_whole(BloomProbe *p, ProbeEntry *e, const ProbeKey *key, Datum d,
		   const struct varatt_external *ptr)
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
		/* the spare it replaces is probed from slices from now on, so that
		 * filters taking turns are not read whole again and again */
		if (p->spare != NULL)
		{
			ProbeEntry *old = (ProbeEntry *) hash_search(p->entries, &p->spare_key,
														 HASH_FIND, NULL);

			if (old != NULL)
				old->evicted = true;
			pfree(p->spare);
		}
		p->spare = b;
		p->spare_key = *key;
	}
	return b;
}

/*
 * What a probe of ptr starts with: the filter to probe in memory (kept,
 * read whole now that slices have cost enough, or not what a filter looks
 * like); or NULL with the TOAST relation open in *toastrel and the entry,
 * its header read, in *e (scratch when the pointer is not tracked).
 */
static Bloom *
begin_probe(BloomProbe *p, Datum d, const struct varatt_external *ptr, ProbeKey *key,
			ProbeEntry **e, ProbeEntry *scratch, Relation *toastrel)
{
	Bloom	   *kept;

	*e = find_entry(p, ptr, key, &kept);
	if (kept != NULL)
		return kept;
	/* read whole once the slices have cost enough */
	if (read_whole_pays(*e, 0, ptr))
		return keep_whole(p, *e, key, d, ptr);

	*toastrel = table_open(ptr->va_toastrelid, AccessShareLock);
	if (*e == NULL)
	{
		memset(scratch, 0, sizeof(*scratch));
		*e = scratch;
	}
	if (!(*e)->have_header && !read_header(*toastrel, ptr, *e))
	{
		table_close(*toastrel, AccessShareLock);
		/* not what a filter looks like: detoasted as any value */
		return detoast_whole(p, d, NULL);
	}
	return NULL;
}

Bloom *
bloom_probe_stored(BloomProbe *p, Datum d, const struct varatt_external *ptr,
				   int64 h1, int64 h2, bool *answer)
{
	ProbeKey	key;
	ProbeEntry *e;
	ProbeEntry	scratch;
	Relation	toastrel;
	Bloom	   *b = begin_probe(p, d, ptr, &key, &e, &scratch, &toastrel);

	if (b != NULL)
		return b;
	*answer = probe_slices(toastrel, ptr, e, h1, h2);
	table_close(toastrel, AccessShareLock);
	return NULL;
}

/* one probed bit of a batch: its byte in the value, its mask, its key */
typedef struct ProbeBit
{
	int32		offset;
	uint8		mask;
	int32		key;
} ProbeBit;

static int
probe_bit_cmp(const void *a, const void *b)
{
	int32		x = ((const ProbeBit *) a)->offset,
				y = ((const ProbeBit *) b)->offset;

	return (x > y) - (x < y);
}

/* the longest run of consecutive chunks fetched in one slice */
#define PROBE_RUN_CHUNKS 32

/*
 * The batch from slices: the probed bits sorted by position, each chunk
 * holding one fetched once (consecutive chunks in one slice of at most
 * PROBE_RUN_CHUNKS), every key's bits tested in what was fetched.
 */
static void
probe_slices_each(Relation toastrel, const struct varatt_external *ptr, ProbeEntry *e,
				  ProbeBit *bits, int nbits, int n, uint8 *answers)
{
	int32		size = VARATT_EXTERNAL_GET_EXTSIZE(*ptr);
	int32		chunk = (int32) TOAST_MAX_CHUNK_SIZE;
	struct varlena *buf = palloc(VARHDRSZ + PROBE_RUN_CHUNKS * TOAST_MAX_CHUNK_SIZE);
	int			i = 0;

	memset(answers, 1, n);
	while (i < nbits)
	{
		int32		first = bits[i].offset / chunk,
					last = first,
					from,
					len;
		int			j;

		CHECK_FOR_INTERRUPTS();
		/* the run: chunks first .. last, each holding a probed bit */
		for (j = i; j < nbits; j++)
		{
			int32		c = bits[j].offset / chunk;

			if (c > last + 1 || c >= first + PROBE_RUN_CHUNKS)
				break;
			last = c;
		}
		from = first * chunk;
		len = Min((last + 1) * chunk, size) - from;
		SET_VARSIZE(buf, VARHDRSZ + len);
		table_relation_fetch_toast_slice(toastrel, ptr->va_valueid, size, from, len, buf);
		bloom_probe_fetches += last - first + 1;
		e->fetches += last - first + 1;
		for (; i < j; i++)
			if ((((const uint8 *) VARDATA(buf))[bits[i].offset - from] & bits[i].mask) == 0)
				answers[bits[i].key] = 0;
	}
	pfree(buf);
	bloom_probe_sliced += n;
}

Bloom *
bloom_probe_stored_each(BloomProbe *p, Datum d, const struct varatt_external *ptr,
						const int64 *h, int n, uint8 *answers)
{
	ProbeKey	key;
	ProbeEntry *e;
	ProbeEntry	scratch;
	Relation	toastrel;
	bc_filter	f;
	ProbeBit   *bits;
	uint64		idx[BC_MAX_HASH_COUNT];
	uint64		chunks = 0;
	int			nbits = 0,
				i;
	Bloom	   *b = begin_probe(p, d, ptr, &key, &e, &scratch, &toastrel);

	if (b != NULL)
		return b;
	/* every probed bit, by position; the distinct chunks they lie in */
	bc_filter_init(&f, e->hash_count, e->word_count, e->order, NULL);
	bits = palloc(sizeof(ProbeBit) * (Size) n * e->hash_count);
	for (i = 0; i < n; i++)
	{
		int			j;

		bc_filter_indexes(&f, h[2 * i], h[2 * i + 1], idx);
		for (j = 0; j < e->hash_count; j++)
		{
			bits[nbits].offset = PROBE_HDR + (int32) (idx[j] >> 3);
			bits[nbits].mask = (uint8) (1 << (idx[j] & 7));
			bits[nbits].key = i;
			nbits++;
		}
	}
	qsort(bits, nbits, sizeof(ProbeBit), probe_bit_cmp);
	for (i = 0; i < nbits; i++)
		if (i == 0 || bits[i].offset / (int32) TOAST_MAX_CHUNK_SIZE !=
			bits[i - 1].offset / (int32) TOAST_MAX_CHUNK_SIZE)
			chunks++;
	/* the same policy as for one key at a time, for the batch's chunks */
	if (e != &scratch && read_whole_pays(e, chunks, ptr))
	{
		table_close(toastrel, AccessShareLock);
		pfree(bits);
		return keep_whole(p, e, &key, d, ptr);
	}
	probe_slices_each(toastrel, ptr, e, bits, nbits, n, answers);
	table_close(toastrel, AccessShareLock);
	pfree(bits);
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
