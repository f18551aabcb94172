/*
 * bloom_ops.c - creating, querying and combining filters, and the
 * estimates: bloom_create, bloom_contains (@>), bloom_add, bloom_union (|),
 * bloom_intersect (&), bloom_fpr, bloom_cardinality, bloom_info,
 * bloom_sizing.
 */
#include "postgres.h"

#include <math.h>

#include "miscadmin.h"

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "bc_codec.h"
#include "bc_filter.h"
#include "bc_sizing.h"
#include "bc_status.h"
#include "bloom_probe.h"

/* fp_chance and key count checks shared by bloom_create, bloom_sizing and
 * the aggregates */
void
bloom_compute_sizing(int64 n, double fp, bc_sizing *s)
{
	bc_status	st = bc_sizing_for_value(n, fp, s);

	if (st == BC_OK)
		return;
	if (st == BC_ERR_N_TOO_MANY)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("Cassandra cannot size a filter for " INT64_FORMAT " keys at fp_chance %g: too many keys",
						n, fp),
				 errdetail_plural("Cassandra's BloomCalculations.maxBucketsPerElement allows at most %d bit per key at " INT64_FORMAT " keys, too few for fp_chance %g.",
								  "Cassandra's BloomCalculations.maxBucketsPerElement allows at most %d bits per key at " INT64_FORMAT " keys, too few for fp_chance %g.",
								  bc_max_buckets_per_element(n),
								  bc_max_buckets_per_element(n), n, fp)));
	if (st == BC_ERR_FP_INVALID || st == BC_ERR_FP_ALWAYS_PRESENT || st == BC_ERR_FP_UNREACHABLE)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid fp_chance %g: %s", fp, bc_status_message(st)),
				 errhint("Cassandra accepts bloom_filter_fp_chance in (6.71e-05, 1]; 1 means no filter.")));
	if (st == BC_ERR_TOO_LARGE || st == BC_ERR_EXCEEDS_VALUE_LIMIT)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("a filter for " INT64_FORMAT " keys at fp_chance %g needs " INT64_FORMAT " words: %s",
						n, fp, (int64) s->word_count, bc_status_message(st)),
				 errdetail("A bloom value holds at most " INT64_FORMAT " words (1 GB).",
						   (int64) BC_MAX_WORDS_VALUE)));
	bloom_error(st);
}

Bloom *
bloom_create_sized(int64 n, double fp, bc_order order)
{
	bc_sizing	s;

	bloom_compute_sizing(n, fp, &s);
	return bloom_alloc(s.hash_count, s.word_count, order);
}

/*
 * SQL bloom_create.  The C name differs: PostgreSQL itself exports a
 * bloom_create (lib/bloomfilter.c), and a same-named symbol here would be
 * taken for it by the JIT inliner (and by the dynamic linker).
 */
PG_FUNCTION_INFO_V1(bloomcass_create);
Datum
bloomcass_create(PG_FUNCTION_ARGS)
{
	bc_order	order;
	bc_layout	layout;

	bloom_lookup_version(PG_GETARG_TEXT_PP(2), &order, &layout);
	PG_RETURN_BLOOM_P(bloom_create_sized(PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1), order));
}

/*
 * Per call site: the key type, the detoasted filter of the last TOAST
 * pointer seen, and the prepared view of the last filter probed (reused
 * while the same value comes back, as a bound parameter or a cached
 * detoasted filter does on every row).  Nothing is allocated per call for
 * text, bytea and fixed-width keys.
 */
typedef struct ContainsCache
{
	BloomKeyType *kt;
	Bloom	   *filter;
	struct varatt_external ptr;
	BloomProbe *probe;
	const Bloom *viewed;
	uint8		viewed_hdr[BLOOM_HDRSZ - VARHDRSZ + BC_FILTERDB_HEADER];
	bc_filter	view;
} ContainsCache;

/*
 * A filter stored out of line uncompressed is probed through bloom_probe.c
 * (slices, or read whole once it pays); any other representation is
 * detoasted whole, the last one kept.
 */
PG_FUNCTION_INFO_V1(bloom_contains);
Datum
bloom_contains(PG_FUNCTION_ARGS)
{
	ContainsCache *cc = (ContainsCache *) fcinfo->flinfo->fn_extra;
	Bloom	   *b;
	int64		h1,
				h2;

	if (cc == NULL)
	{
		cc = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(ContainsCache));
		fcinfo->flinfo->fn_extra = cc;
	}
	bloom_key_hash_inline(bloom_key_type_inline(fcinfo, 1, &cc->kt), PG_GETARG_DATUM(1), &h1, &h2);
	/* a plain in-memory value is used in place (bloom_getarg_cached's
	 * first case, tested here without the call) */
	b = (Bloom *) DatumGetPointer(PG_GETARG_DATUM(0));
	if (VARATT_IS_EXTENDED(b))
	{
		struct varatt_external ptr;

		if (bloom_probe_slicable(PG_GETARG_DATUM(0), &ptr))
		{
			bool		answer;

			if (cc->probe == NULL)
				cc->probe = bloom_probe_create(fcinfo->flinfo->fn_mcxt);
			b = bloom_probe_stored(cc->probe, PG_GETARG_DATUM(0), &ptr, h1, h2, &answer);
			if (b == NULL)
				PG_RETURN_BOOL(answer);
		}
		else
			b = bloom_getarg_cached(fcinfo, 0, &cc->filter, &cc->ptr);
	}
	/* the same address may hold another value on a later row: its header
	 * (format, order, hash and word counts) must match the view's too */
	if (b != cc->viewed ||
		memcmp(&b->format, cc->viewed_hdr, sizeof(cc->viewed_hdr)) != 0)
	{
		bloom_view(b, &cc->view);
		cc->viewed = b;
		memcpy(cc->viewed_hdr, &b->format, sizeof(cc->viewed_hdr));
	}
	PG_RETURN_BOOL(bc_filter_test_hash(&cc->view, h1, h2));
}

PG_FUNCTION_INFO_V1(bloom_add);
Datum
bloom_add(PG_FUNCTION_ARGS)
{
	Bloom	   *b = (Bloom *) PG_DETOAST_DATUM_COPY(PG_GETARG_DATUM(0));
	bc_filter	f;
	int64		h1,
				h2;

	bloom_key_hash_inline(bloom_key_type_inline(fcinfo, 1, NULL), PG_GETARG_DATUM(1), &h1, &h2);
	bloom_view(b, &f);
	bc_filter_add_hash(&f, h1, h2);
	PG_RETURN_BLOOM_P(b);
}

static void
shape_mismatch(const bc_filter *a, const bc_filter *b, const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("cannot %s bloom filters of different shapes", what),
			 errdetail("Left: hash_count %d, word_count " INT64_FORMAT ", %s hash order; right: hash_count %d, word_count " INT64_FORMAT ", %s hash order.",
					   a->hash_count, (int64) a->word_count, bc_order_name(a->order),
					   b->hash_count, (int64) b->word_count, bc_order_name(b->order)),
			 errhint("Only filters built with the same key count and fp_chance (and the same hash order) combine.")));
}

/* dst |= src or dst &= src in place; dst is a private copy.  Large
 * filters are combined in 8 MB slices with an interrupt check between. */
void
bloom_combine_into(Bloom *dst, const Bloom *src, bool intersect)
{
	bc_filter	fd,
				fs;
	int64		done;

	bloom_view(dst, &fd);
	bloom_view(src, &fs);
	if (!bc_filter_same_shape(&fd, &fs))
		shape_mismatch(&fd, &fs, intersect ? "intersect" : "union");
	for (done = 0; done < fd.word_count; done += BLOOM_CHUNK_WORDS)
	{
		bc_filter	sd = fd,
					ss = fs;

		CHECK_FOR_INTERRUPTS();
		sd.word_count = ss.word_count = Min(BLOOM_CHUNK_WORDS, fd.word_count - done);
		sd.bits = fd.bits + done * 8;
		ss.bits = fs.bits + done * 8;
		if (intersect)
			(void) bc_filter_intersect(&sd, &ss);
		else
			(void) bc_filter_union(&sd, &ss);
	}
}

/* bits set, counted in slices with an interrupt check between */
uint64
bloom_popcount(const bc_filter *f)
{
	uint64		total = 0;
	int64		done;

	for (done = 0; done < f->word_count; done += BLOOM_CHUNK_WORDS)
	{
		CHECK_FOR_INTERRUPTS();
		total += bc_popcount(f->bits + done * 8,
							 (size_t) Min(BLOOM_CHUNK_WORDS, f->word_count - done) * 8);
	}
	return total;
}

PG_FUNCTION_INFO_V1(bloom_union);
Datum
bloom_union(PG_FUNCTION_ARGS)
{
	Bloom	   *a = (Bloom *) PG_DETOAST_DATUM_COPY(PG_GETARG_DATUM(0));

	bloom_combine_into(a, PG_GETARG_BLOOM_P(1), false);
	PG_RETURN_BLOOM_P(a);
}

PG_FUNCTION_INFO_V1(bloom_intersect);
Datum
bloom_intersect(PG_FUNCTION_ARGS)
{
	Bloom	   *a = (Bloom *) PG_DETOAST_DATUM_COPY(PG_GETARG_DATUM(0));

	bloom_combine_into(a, PG_GETARG_BLOOM_P(1), true);
	PG_RETURN_BLOOM_P(a);
}

PG_FUNCTION_INFO_V1(bloom_fpr_fill);
Datum
bloom_fpr_fill(PG_FUNCTION_ARGS)
{
	bc_filter	f;

	bloom_view(PG_GETARG_BLOOM_P(0), &f);
	PG_RETURN_FLOAT8(bc_fpr_from_fill(bloom_popcount(&f), bc_capacity(&f), f.hash_count));
}

PG_FUNCTION_INFO_V1(bloom_fpr_n);
Datum
bloom_fpr_n(PG_FUNCTION_ARGS)
{
	bc_filter	f;
	int64		n = PG_GETARG_INT64(1);
	int32		k;
	int64		w;
	bc_order	order;

	if (n < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the number of keys must not be negative")));
	/* the header alone, from a slice of a stored filter */
	if (bloom_probe_header(PG_GETARG_DATUM(0), &k, &w, &order))
		bc_filter_init(&f, k, w, order, NULL);
	else
		bloom_view(PG_GETARG_BLOOM_P(0), &f);
	PG_RETURN_FLOAT8(bc_fpr_theoretical((uint64) n, bc_capacity(&f), f.hash_count));
}

PG_FUNCTION_INFO_V1(bloom_cardinality);
Datum
bloom_cardinality(PG_FUNCTION_ARGS)
{
	bc_filter	f;

	bloom_view(PG_GETARG_BLOOM_P(0), &f);
	PG_RETURN_FLOAT8(bc_cardinality_from_fill(bloom_popcount(&f), bc_capacity(&f),
											  f.hash_count));
}

static Datum
make_row(FunctionCallInfo fcinfo, Datum *values, int nullcol)
{
	TupleDesc	tupdesc;
	bool		nulls[16] = {0};

	if (nullcol >= 0)
		nulls[nullcol] = true;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	return HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(tupdesc), values, nulls));
}

PG_FUNCTION_INFO_V1(bloom_info);
Datum
bloom_info(PG_FUNCTION_ARGS)
{
	bc_filter	f;
	uint64		set,
				cap;
	Datum		v[9];

	bloom_view(PG_GETARG_BLOOM_P(0), &f);
	set = bloom_popcount(&f);
	cap = bc_capacity(&f);
	v[0] = CStringGetTextDatum(bc_order_name(f.order));
	v[1] = Int32GetDatum(f.hash_count);
	v[2] = Int64GetDatum(f.word_count);
	v[3] = Int64GetDatum((int64) cap);
	v[4] = Int64GetDatum((int64) set);
	v[5] = Float8GetDatum((double) set / (double) cap);
	v[6] = Float8GetDatum(bc_cardinality_from_fill(set, cap, f.hash_count));
	v[7] = Float8GetDatum(bc_fpr_from_fill(set, cap, f.hash_count));
	v[8] = Int64GetDatum((int64) bc_filterdb_size(f.word_count));
	PG_RETURN_DATUM(make_row(fcinfo, v, -1));
}

PG_FUNCTION_INFO_V1(bloom_sizing);
Datum
bloom_sizing(PG_FUNCTION_ARGS)
{
	int64		n = PG_GETARG_INT64(0);
	double		fp = PG_GETARG_FLOAT8(1);
	bc_sizing	s;
	Datum		v[7];

	if (n < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the number of keys must not be negative")));
	bloom_compute_sizing(n, fp, &s);
	v[0] = Int32GetDatum(s.hash_count);
	v[1] = Int32GetDatum(s.buckets_per_element);
	v[2] = Int64GetDatum(s.word_count);
	v[3] = Int64GetDatum(s.capacity_bits);
	v[4] = Int64GetDatum(s.filter_db_bytes);
	v[5] = Float8GetDatum(bc_fp_table(s.buckets_per_element, s.hash_count));
	v[6] = Float8GetDatum(bc_fpr_theoretical((uint64) n, (uint64) s.capacity_bits, s.hash_count));
	/* fp_chance >= 0.393 gives (k=2, b=1), a cell the table does not have */
	PG_RETURN_DATUM(make_row(fcinfo, v, bc_fp_table(s.buckets_per_element, s.hash_count) < 0 ? 5 : -1));
}
