/*
 * bloom_io.c - the bloom type: text and binary input/output, equality,
 * Filter.db import and export, and bytea casts.
 */
#include "postgres.h"

#include <ctype.h>

#include "access/detoast.h"
#include "common/hashfn.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/memutils.h"

#include "bc_codec.h"
#include "bc_endian.h"
#include "bc_filter.h"
#include "bc_status.h"
#include "bloom_probe.h"

/* text I/O works in slices of this many bytes (an even number) */
#define HEX_CHUNK ((size_t) 16 * 1024 * 1024)

/* A zeroed filter of the given shape. */
Bloom *
bloom_alloc(int32 hash_count, int64 word_count, bc_order order)
{
	Size		size;
	Bloom	   *b;

	if (word_count < 1 || word_count > BC_MAX_WORDS_VALUE)
		bloom_error(BC_ERR_EXCEEDS_VALUE_LIMIT);
	size = BLOOM_HDRSZ + bc_filterdb_size(word_count);
	b = (Bloom *) bloom_palloc0_large(size);
	SET_VARSIZE(b, size);
	b->format = BLOOM_FORMAT_VERSION;
	b->flags = (order == BC_ORDER_OLD) ? BLOOM_FLAG_OLD_ORDER : 0;
	bc_put_be32(b->filterdb, (uint32) hash_count);
	bc_put_be32(b->filterdb + 4, (uint32) word_count);
	return b;
}

/* bc_payload_convert in slices, checking for interrupts between them */
static void
convert_payload(uint8 *dst, const uint8 *src, int64 nwords, bc_layout from, bc_layout to)
{
	int64		done;

	for (done = 0; done < nwords; done += BLOOM_CHUNK_WORDS)
	{
		CHECK_FOR_INTERRUPTS();
		bc_payload_convert(dst + done * 8, src + done * 8,
						   Min(BLOOM_CHUNK_WORDS, nwords - done), from, to);
	}
}

/* Validate a Filter.db image and make a value of it. */
Bloom *
bloom_from_filterdb(const uint8 *data, size_t len, bc_layout layout, bc_order order)
{
	int32		k;
	int64		w;
	bc_status	st;
	Bloom	   *b;

	st = bc_filterdb_check(data, len, BC_MAX_WORDS_VALUE, &k, &w);
	if (st != BC_OK)
		bloom_error(st);
	b = bloom_alloc(k, w, order);
	convert_payload(b->filterdb + BC_FILTERDB_HEADER, data + BC_FILTERDB_HEADER,
					w, layout, BC_LAYOUT_RAW);
	return b;
}

/*
 * A value made where its Filter.db image was read: b is an allocation of
 * BLOOM_HDRSZ + len bytes whose filterdb holds the image (len bytes, read
 * there by bloom_file_read_all_after); it is validated, its header set and
 * its payload converted to the raw layout in place.  No copy of the bits is
 * made (cassandra_sstables reads every Filter.db of a node this way).
 */
Bloom *
bloom_from_filterdb_in_place(Bloom *b, size_t len, bc_layout layout, bc_order order)
{
	int32		k;
	int64		w;
	bc_status	st;

	st = bc_filterdb_check(b->filterdb, len, BC_MAX_WORDS_VALUE, &k, &w);
	if (st != BC_OK)
		bloom_error(st);
	SET_VARSIZE(b, BLOOM_HDRSZ + len);
	b->format = BLOOM_FORMAT_VERSION;
	b->flags = (order == BC_ORDER_OLD) ? BLOOM_FLAG_OLD_ORDER : 0;
	b->reserved = 0;
	convert_payload(b->filterdb + BC_FILTERDB_HEADER, b->filterdb + BC_FILTERDB_HEADER,
					w, layout, BC_LAYOUT_RAW);
	return b;
}

/* The core's view of a stored (already validated) value. */
void
bloom_view(const Bloom *b, bc_filter *f)
{
	bc_filter_init(f, (int32) bc_get_be32(b->filterdb), (int32) bc_get_be32(b->filterdb + 4),
				   (b->flags & BLOOM_FLAG_OLD_ORDER) ? BC_ORDER_OLD : BC_ORDER_NEW,
				   (uint8_t *) b->filterdb + BC_FILTERDB_HEADER);
}

Bloom *
bloom_copy(const Bloom *b)
{
	Bloom	   *c = (Bloom *) palloc(VARSIZE(b));

	memcpy(c, b, VARSIZE(b));
	return c;
}

/*
 * Full validation of a value's bytes (text input, binary receive, aggregate
 * state deserialization): the format header and the Filter.db image.
 */
void
bloom_validate(const Bloom *b, int sqlstate)
{
	int32		k;
	int64		w;
	bc_status	st;

	if (VARSIZE(b) < BLOOM_HDRSZ)
		ereport(ERROR,
				(errcode(sqlstate),
				 errmsg("invalid bloom value: shorter than its %d-byte format header",
						(int) (BLOOM_HDRSZ - VARHDRSZ))));
	if (b->format != BLOOM_FORMAT_VERSION)
		ereport(ERROR,
				(errcode(sqlstate),
				 errmsg("invalid bloom value: unknown format version %d", b->format),
				 errdetail("This version of bloomcass reads format version %d.",
						   BLOOM_FORMAT_VERSION)));
	if ((b->flags & ~BLOOM_FLAGS_KNOWN) != 0)
		ereport(ERROR,
				(errcode(sqlstate),
				 errmsg("invalid bloom value: unknown flags 0x%02x", b->flags)));
	if (b->reserved != 0)
		ereport(ERROR,
				(errcode(sqlstate),
				 errmsg("invalid bloom value: reserved header bytes must be zero")));
	st = bc_filterdb_check(b->filterdb, bloom_filterdb_len(b), BC_MAX_WORDS_VALUE, &k, &w);
	if (st != BC_OK)
		ereport(ERROR,
				(errcode(st == BC_ERR_EXCEEDS_VALUE_LIMIT ? ERRCODE_PROGRAM_LIMIT_EXCEEDED : sqlstate),
				 errmsg("invalid bloom value: %s", bc_status_message(st))));
}

/* Build a value from its external bytes (format header + Filter.db). */
static Bloom *
bloom_from_external(const char *data, size_t len, int sqlstate)
{
	Bloom	   *b;

	if (len > (size_t) (BC_MAX_VALUE_BYTES - VARHDRSZ))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom value exceeds the 1 GB limit of a PostgreSQL value")));
	b = (Bloom *) palloc(len + VARHDRSZ);
	SET_VARSIZE(b, len + VARHDRSZ);
	memcpy((char *) b + VARHDRSZ, data, len);
	bloom_validate(b, sqlstate);
	return b;
}

/*
 * Text form: \x followed by the hex of the value's bytes after the varlena
 * header (format, flags, reserved, Filter.db image).
 */
PG_FUNCTION_INFO_V1(bloom_in);
Datum
bloom_in(PG_FUNCTION_ARGS)
{
	char	   *str = PG_GETARG_CSTRING(0);
	size_t		len = strlen(str);
	size_t		nbytes,
				i;
	char	   *buf;
	Bloom	   *b;

	if (len < 2 || str[0] != '\\' || str[1] != 'x')
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type bloom: must start with \"\\x\"")));
	str += 2;
	len -= 2;
	if (len % 2 != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input syntax for type bloom: odd number of hexadecimal digits")));
	nbytes = len / 2;
	if (nbytes > (size_t) (BC_MAX_VALUE_BYTES - VARHDRSZ))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom value exceeds the 1 GB limit of a PostgreSQL value")));
	for (i = 0; i < len; i++)
	{
		if ((i & 0xffffff) == 0)
			CHECK_FOR_INTERRUPTS();
		if (!isxdigit((unsigned char) str[i]))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type bloom: invalid hexadecimal digit \"%.*s\"",
							pg_mblen(str + i), str + i)));
	}
	buf = palloc(nbytes + 1);
	for (i = 0; i < len; i += HEX_CHUNK)
	{
		CHECK_FOR_INTERRUPTS();
		hex_decode(str + i, Min(HEX_CHUNK, len - i), buf + i / 2);
	}
	b = bloom_from_external(buf, nbytes, ERRCODE_INVALID_TEXT_REPRESENTATION);
	pfree(buf);
	PG_RETURN_BLOOM_P(b);
}

PG_FUNCTION_INFO_V1(bloom_out);
Datum
bloom_out(PG_FUNCTION_ARGS)
{
	Bloom	   *b = PG_GETARG_BLOOM_P(0);
	size_t		n = VARSIZE(b) - VARHDRSZ;
	size_t		i;
	char	   *out;

	if (2 * n + 3 > MaxAllocSize)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("bloom value of %zu bytes is too large for its text form (at most %zu bytes)",
						n, (size_t) (MaxAllocSize - 3) / 2),
				 errhint("Use binary COPY, bloom_send or bloom_export for filters over 512 MB.")));
	out = palloc(2 * n + 3);
	out[0] = '\\';
	out[1] = 'x';
	for (i = 0; i < n; i += HEX_CHUNK)
	{
		CHECK_FOR_INTERRUPTS();
		hex_encode((char *) b + VARHDRSZ + i, Min(HEX_CHUNK, n - i), out + 2 + 2 * i);
	}
	out[2 * n + 2] = '\0';
	PG_RETURN_CSTRING(out);
}

PG_FUNCTION_INFO_V1(bloom_recv);
Datum
bloom_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			n = buf->len - buf->cursor;
	const char *data = pq_getmsgbytes(buf, n);

	PG_RETURN_BLOOM_P(bloom_from_external(data, (size_t) n,
										  ERRCODE_INVALID_BINARY_REPRESENTATION));
}

PG_FUNCTION_INFO_V1(bloom_send);
Datum
bloom_send(PG_FUNCTION_ARGS)
{
	Bloom	   *b = PG_GETARG_BLOOM_P(0);
	StringInfoData buf;

	pq_begintypsend(&buf);
	pq_sendbytes(&buf, (char *) b + VARHDRSZ, VARSIZE(b) - VARHDRSZ);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

static bool
bloom_equal(FunctionCallInfo fcinfo)
{
	Bloom	   *a = PG_GETARG_BLOOM_P(0);
	Bloom	   *b = PG_GETARG_BLOOM_P(1);

	return VARSIZE(a) == VARSIZE(b) && memcmp(a, b, VARSIZE(a)) == 0;
}

PG_FUNCTION_INFO_V1(bloom_eq);
Datum
bloom_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(bloom_equal(fcinfo));
}

PG_FUNCTION_INFO_V1(bloom_ne);
Datum
bloom_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(!bloom_equal(fcinfo));
}

/* ---------------------------------------------------------------------
 * Filter.db import / export
 * --------------------------------------------------------------------- */

/* A version string ("nb") or a Filter.db file name to (order, layout). */
void
bloom_lookup_version(text *version, bc_order *order, bc_layout *layout)
{
	const char *v = VARDATA_ANY(version);
	size_t		len = VARSIZE_ANY_EXHDR(version);
	bc_status	st = bc_version_lookup(v, len, order, layout);

	if (st == BC_ERR_VERSION_UNKNOWN && memchr(v, '-', len) != NULL)
	{
		char		vbuf[3];
		bc_status	st2 = bc_file_name_lookup(v, len, vbuf, order, layout);

		if (st2 == BC_OK)
			return;
		st = st2;				/* a name with '-' is meant as a file name */
	}
	if (st != BC_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid SSTable version \"%.*s\": %s", (int) Min(len, 200), v,
						bc_status_message(st)),
				 errhint("Use a version from ia to pb, da, ea, eb, or DataStax's aa to cc (for example 'nb' or 'ma'), or a Filter.db file name.")));
}

PG_FUNCTION_INFO_V1(bloom_import_version);
Datum
bloom_import_version(PG_FUNCTION_ARGS)
{
	bytea	   *data = PG_GETARG_BYTEA_PP(0);
	text	   *version = PG_GETARG_TEXT_PP(1);
	bc_order	order;
	bc_layout	layout;

	bloom_lookup_version(version, &order, &layout);
	PG_RETURN_BLOOM_P(bloom_from_filterdb((const uint8 *) VARDATA_ANY(data),
										  VARSIZE_ANY_EXHDR(data), layout, order));
}

PG_FUNCTION_INFO_V1(bloom_import_layout);
Datum
bloom_import_layout(PG_FUNCTION_ARGS)
{
	bytea	   *data = PG_GETARG_BYTEA_PP(0);
	char	   *layout_s = text_to_cstring(PG_GETARG_TEXT_PP(1));
	char	   *order_s = text_to_cstring(PG_GETARG_TEXT_PP(2));
	bc_layout	layout;
	bc_order	order;

	if (strcmp(layout_s, "raw") == 0)
		layout = BC_LAYOUT_RAW;
	else if (strcmp(layout_s, "swapped") == 0)
		layout = BC_LAYOUT_SWAPPED;
	else
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid payload layout \"%s\": expected \"raw\" or \"swapped\"", layout_s)));
	if (strcmp(order_s, "new") == 0)
		order = BC_ORDER_NEW;
	else if (strcmp(order_s, "old") == 0)
		order = BC_ORDER_OLD;
	else
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid hash order \"%s\": expected \"new\" or \"old\"", order_s)));
	PG_RETURN_BLOOM_P(bloom_from_filterdb((const uint8 *) VARDATA_ANY(data),
										  VARSIZE_ANY_EXHDR(data), layout, order));
}

static bytea *
export_filterdb(Bloom *b, bc_order order, bc_layout layout, const char *target)
{
	bc_filter	f;
	bytea	   *out;

	bloom_view(b, &f);
	if (f.order != order)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot export a filter with the %s hash order as %s",
						bc_order_name(f.order), target),
				 errdetail("%s uses the %s hash order; the bits would answer for other keys.",
						   target, bc_order_name(order))));
	out = (bytea *) palloc(VARHDRSZ + bc_filterdb_size(f.word_count));
	SET_VARSIZE(out, VARHDRSZ + bc_filterdb_size(f.word_count));
	memcpy(VARDATA(out), b->filterdb, BC_FILTERDB_HEADER);
	convert_payload((uint8 *) VARDATA(out) + BC_FILTERDB_HEADER, f.bits, f.word_count,
					BC_LAYOUT_RAW, layout);
	return out;
}

PG_FUNCTION_INFO_V1(bloom_export);
Datum
bloom_export(PG_FUNCTION_ARGS)
{
	Bloom	   *b = PG_GETARG_BLOOM_P(0);
	text	   *version = PG_GETARG_TEXT_PP(1);
	char	   *target;
	bc_order	order;
	bc_layout	layout;

	bloom_lookup_version(version, &order, &layout);
	target = psprintf("SSTable version %s", text_to_cstring(version));
	PG_RETURN_BYTEA_P(export_filterdb(b, order, layout, target));
}

PG_FUNCTION_INFO_V1(bloom_from_bytea);
Datum
bloom_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *data = PG_GETARG_BYTEA_PP(0);

	PG_RETURN_BLOOM_P(bloom_from_filterdb((const uint8 *) VARDATA_ANY(data),
										  VARSIZE_ANY_EXHDR(data),
										  BC_LAYOUT_RAW, BC_ORDER_NEW));
}

PG_FUNCTION_INFO_V1(bloom_to_bytea);
Datum
bloom_to_bytea(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(export_filterdb(PG_GETARG_BLOOM_P(0), BC_ORDER_NEW, BC_LAYOUT_RAW,
									  "bytea (the Cassandra 4.0+ Filter.db layout)"));
}

/* The SSTable version of a Filter.db file name (or path), or an ERROR. */
static void
file_name_version(const char *name, char v[3], bc_order *order, bc_layout *layout)
{
	bc_status	st = bc_file_name_lookup(name, strlen(name), v, order, layout);

	if (st != BC_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot take an SSTable version from \"%s\": %s",
						name, bc_status_message(st))));
}

PG_FUNCTION_INFO_V1(bloom_file_version);
Datum
bloom_file_version(PG_FUNCTION_ARGS)
{
	char		v[3];
	bc_order	order;
	bc_layout	layout;

	file_name_version(text_to_cstring(PG_GETARG_TEXT_PP(0)), v, &order, &layout);
	PG_RETURN_TEXT_P(cstring_to_text(v));
}

/*
 * bloom_import_file(path): the filter of a Filter.db on the server, its
 * version taken from its name (checked first, as the SQL function of
 * versions 1.0 to 1.5 did).  The file is read with exactly the privileges
 * of pg_read_binary_file(text) (bloom_file_path), only if it is a regular
 * file, straight into the value; every error names the file, so that a
 * query over many files tells which one is bad.
 */
PG_FUNCTION_INFO_V1(bloom_import_file);
Datum
bloom_import_file(PG_FUNCTION_ARGS)
{
	char	   *path = text_to_cstring(PG_GETARG_TEXT_PP(0));
	char		v[3];
	bc_order	order;
	bc_layout	layout;
	char	   *filename;
	Bloom	   *b;
	size_t		len;
	int32		k;
	int64		w;
	bc_status	st;

	file_name_version(path, v, &order, &layout);
	filename = bloom_file_path(path);
	b = (Bloom *) bloom_file_read_all_after(filename, BLOOM_HDRSZ, (size_t) BC_MAX_VALUE_BYTES,
											&len, NULL);
	st = bc_filterdb_check(b->filterdb, len, BC_MAX_WORDS_VALUE, &k, &w);
	if (st != BC_OK)
		bloom_component_error(st, "Filter.db", v, filename, 0);
	PG_RETURN_BLOOM_P(bloom_from_filterdb_in_place(b, len, layout, order));
}

/*
 * Argument argno as a detoasted filter, fetched once per query when it is
 * the same stored value on every call (a scalar subquery or join over one
 * filter row): the cache is keyed on the TOAST pointer, so a large value is
 * neither re-read nor compared per row.  *cached lives in fn_mcxt.
 */
Bloom *
bloom_getarg_cached(FunctionCallInfo fcinfo, int argno, Bloom **cached,
					struct varatt_external *cached_ptr)
{
	struct varlena *raw = (struct varlena *) DatumGetPointer(PG_GETARG_DATUM(argno));
	struct varatt_external ptr;
	MemoryContext old;

	if (!VARATT_IS_EXTENDED(raw))
		return (Bloom *) raw;	/* plain in-memory value: used in place */
	if (!VARATT_IS_EXTERNAL_ONDISK(raw))
		return DatumGetBloomP(PointerGetDatum(raw));

	VARATT_EXTERNAL_GET_POINTER(ptr, raw);
	if (*cached != NULL &&
		ptr.va_valueid == cached_ptr->va_valueid &&
		ptr.va_toastrelid == cached_ptr->va_toastrelid)
		return *cached;

	if (*cached != NULL)
	{
		pfree(*cached);
		*cached = NULL;
	}
	old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
	*cached = (Bloom *) PG_DETOAST_DATUM_COPY(PointerGetDatum(raw));
	MemoryContextSwitchTo(old);
	*cached_ptr = ptr;
	return *cached;
}

/*
 * Hash support (version 1.1): equal values hash alike, so bloom values can
 * be grouped, deduplicated and hash-partitioned.
 */
PG_FUNCTION_INFO_V1(bloom_hash);
Datum
bloom_hash(PG_FUNCTION_ARGS)
{
	Bloom	   *b = PG_GETARG_BLOOM_P(0);

	PG_RETURN_DATUM(hash_any((unsigned char *) b + VARHDRSZ, VARSIZE(b) - VARHDRSZ));
}

PG_FUNCTION_INFO_V1(bloom_hash_extended);
Datum
bloom_hash_extended(PG_FUNCTION_ARGS)
{
	Bloom	   *b = PG_GETARG_BLOOM_P(0);

	PG_RETURN_DATUM(hash_any_extended((unsigned char *) b + VARHDRSZ, VARSIZE(b) - VARHDRSZ,
									  PG_GETARG_INT64(1)));
}
