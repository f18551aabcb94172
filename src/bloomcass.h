/*
 * bloomcass.h - PostgreSQL glue of bloomcass: the stored form of the bloom
 * type and the helpers shared by the SQL-callable functions.
 *
 * A bloom value is
 *     varlena header (4 bytes)
 *     format (1 byte, BLOOM_FORMAT_VERSION), flags (1 byte), reserved (2
 *     bytes, zero)
 *     the Filter.db image in the raw (Cassandra 4.0+) layout:
 *         BE32 hash_count, BE32 word_count, 8 * word_count bitset bytes
 * The one flag says the filter uses the old (pre-3.0) hash order.  Keeping
 * the bitset in one layout gives every query a single path; export
 * converts to the layout a version writes.
 */
#ifndef BLOOMCASS_H
#define BLOOMCASS_H

#include "postgres.h"
#include "fmgr.h"

#include "bloom_compat.h"

#include "bc_codec.h"
#include "bc_filter.h"
#include "bc_murmur3.h"
#include "bc_reader.h"
#include "bc_sizing.h"
#include "bc_sstable_name.h"
#include "bc_status.h"

#define BLOOM_FORMAT_VERSION 1
#define BLOOM_FLAG_OLD_ORDER 0x01
#define BLOOM_FLAGS_KNOWN BLOOM_FLAG_OLD_ORDER

typedef struct Bloom
{
	int32		vl_len_;		/* varlena header (do not touch directly!) */
	uint8		format;
	uint8		flags;
	uint16		reserved;
	uint8		filterdb[FLEXIBLE_ARRAY_MEMBER];
} Bloom;

#define BLOOM_HDRSZ offsetof(Bloom, filterdb)

/*
 * The helpers below are shared between the extension's files only: hidden
 * from the dynamic linker, so that a same-named symbol of the server or of
 * another library can never be bound in their place.
 */
#if defined(__GNUC__) || defined(__clang__)
#define BLOOM_INTERNAL __attribute__((visibility("hidden")))
#else
#define BLOOM_INTERNAL
#endif

StaticAssertDecl(BLOOM_HDRSZ == BC_VALUE_PREFIX, "bloom header size");

#define DatumGetBloomP(x)		((Bloom *) PG_DETOAST_DATUM(x))
#define PG_GETARG_BLOOM_P(n)	DatumGetBloomP(PG_GETARG_DATUM(n))
#define PG_RETURN_BLOOM_P(x)	PG_RETURN_POINTER(x)

/* the Filter.db image inside a value */
static inline size_t
bloom_filterdb_len(const Bloom *b)
{
	return VARSIZE(b) - BLOOM_HDRSZ;
}

/* bloomcass.c: the settings (GUC variables) */
extern BLOOM_INTERNAL int bloom_probe_cache_kb;	/* bloomcass.probe_cache_size */

/* bloom_util.c: errors and large allocations, used everywhere */
BLOOM_NORETURN extern BLOOM_INTERNAL void bloom_error(bc_status st);
extern BLOOM_INTERNAL void *bloom_palloc_large(MemoryContext ctx, Size size);
extern BLOOM_INTERNAL void bloom_madvise_inside(void *p, Size size, uintptr_t unit, int advice);
extern BLOOM_INTERNAL void *bloom_palloc0_large(Size size);
extern BLOOM_INTERNAL void bloom_populate(void *p, Size size);

/* bloom_io.c */
extern BLOOM_INTERNAL Bloom *bloom_alloc(int32 hash_count, int64 word_count, bc_order order);
extern BLOOM_INTERNAL Bloom *bloom_from_filterdb(const uint8 *data, size_t len, bc_layout layout, bc_order order);
extern BLOOM_INTERNAL Bloom *bloom_from_filterdb_in_place(Bloom *b, size_t len, bc_layout layout,
														  bc_order order);
extern BLOOM_INTERNAL void bloom_view(const Bloom *b, bc_filter *f);
extern BLOOM_INTERNAL Bloom *bloom_copy(const Bloom *b);
extern BLOOM_INTERNAL void bloom_validate(const Bloom *b, int sqlstate);
extern BLOOM_INTERNAL void bloom_lookup_version(text *version, bc_order *order, bc_layout *layout);
extern BLOOM_INTERNAL Bloom *bloom_getarg_cached(FunctionCallInfo fcinfo, int argno, Bloom **cached,
								  struct varatt_external *cached_ptr);

/*
 * bloom_files.c: server files, read as pg_catalog.pg_read_binary_file(text)
 * would let the caller read them.  bloom_file_path checks the EXECUTE
 * privilege on that function and its path rule and returns the path made
 * canonical (ERROR 42501 otherwise).  The readers report a failure as an
 * ERROR when err is NULL; otherwise they return false with the reason in
 * *err ("could not open it: Permission denied"), for callers that carry on
 * with a WARNING naming the file.  Only regular files are opened: anything
 * else (a FIFO, socket, device) is refused, 42809, before any blocking open.
 */
typedef struct BloomFile
{
	int			fd;
	const char *path;
	int64		size;			/* at open */
	char	   *err;			/* why a read through bloom_file_reader failed */
	int			errnum;			/* the errno of a failed open or read, else 0 */
} BloomFile;

/* the SQLSTATE of a file error (bloom_file_errors.c): every ERROR and
 * WARNING of a failed system call on a file or folder takes it */
extern BLOOM_INTERNAL int bloom_file_errcode(int errnum);
extern BLOOM_INTERNAL int bloom_file_errhint(int errnum);
/* inside an ereport: the errno's SQLSTATE, and the hint of a permission
 * refused by the operating system */
#define bloom_file_errcodes(e) errcode(bloom_file_errcode(e)), bloom_file_errhint(e)

extern BLOOM_INTERNAL char *bloom_file_path(const char *path);
/* CHECK_FOR_INTERRUPTS, as the core's bc_tick_hook (bc_tick.h) */
extern BLOOM_INTERNAL void bloom_check_interrupts(void);
extern BLOOM_INTERNAL bool bloom_file_open(BloomFile *f, const char *path, char **err);
/* the same for a file that may not exist: false (errno ENOENT) if it does
 * not, an ERROR for any other failure */
extern BLOOM_INTERNAL bool bloom_file_open_may_lack(BloomFile *f, const char *path);
extern BLOOM_INTERNAL bool bloom_file_read(BloomFile *f, int64 offset, uint8 *buf, size_t len,
										   size_t *got, char **err);
extern BLOOM_INTERNAL void bloom_file_close(BloomFile *f);
/* the open file as the core's readers take it (bc_reader.h); a failed read
 * leaves its reason in f->err */
extern BLOOM_INTERNAL void bloom_file_reader(BloomFile *f, bc_reader *r);
/* with err: NULL and the reason in *err, errno the failed call's (0 when
 * no call failed: not a regular file, too large, changed length) */
extern BLOOM_INTERNAL uint8 *bloom_file_read_all(const char *path, size_t max, size_t *len,
												 char **err);
/* the same, the file's bytes placed after `room` bytes left for the caller */
extern BLOOM_INTERNAL uint8 *bloom_file_read_all_after(const char *path, size_t room, size_t max,
													   size_t *len, char **err);
/* the whole of a file that may not exist: NULL (errno ENOENT) if it does
 * not, an ERROR for any other failure */
extern BLOOM_INTERNAL uint8 *bloom_file_read_all_may_lack(const char *path, size_t max, size_t *len);

/* bloom_util.c: the SQLSTATE of a core status, a bytea of some bytes */
extern BLOOM_INTERNAL int bloom_sqlstate(bc_status st);

/* bloom_hll.c: the cardinality of a parsed Statistics.db's estimator and
 * which estimator it is; false when it stores none (an ERROR naming
 * Statistics.db when the estimator cannot be read) */
struct bc_statistics;
extern BLOOM_INTERNAL bool bloom_statistics_cardinality(const struct bc_statistics *s,
														 const char *version, const char *file,
														 int64 *card, const char **estimator);
extern BLOOM_INTERNAL bytea *bloom_bytea(const uint8 *data, size_t len);

/*
 * bloom_util.c: a core status of reading an SSTable component
 * ("Index.db") as an ERROR naming it; file is the server file read (for
 * BC_ERR_INDEX_BTI the SSTable), NULL for bytes given as an argument; keys,
 * when not 0, the partition keys read before the error.
 */
BLOOM_NORETURN extern BLOOM_INTERNAL void bloom_component_error(bc_status st, const char *component,
																const char *version, const char *file,
																uint64 keys);

/*
 * The SSTable of a path: its common prefix (/data/ks/t-id/nb-1-big,
 * /x/ks-cf-ka-1) or any of its component files; its prefix, version and
 * format from the name, or an ERROR (22023) saying what a path should be.
 */
extern BLOOM_INTERNAL void bloom_sstable_of_path(const char *path, char **prefix, char **version,
												 bc_sstable_format *format);

/* long loops work in slices of this many words, checking for interrupts */
#define BLOOM_CHUNK_WORDS (INT64CONST(1) << 20)

/* bloom_ops.c */
extern BLOOM_INTERNAL uint64 bloom_popcount(const bc_filter *f);
extern BLOOM_INTERNAL void bloom_compute_sizing(int64 n, double fp, bc_sizing *s);
extern BLOOM_INTERNAL Bloom *bloom_create_sized(int64 n, double fp, bc_order order);
extern BLOOM_INTERNAL void bloom_combine_into(Bloom *dst, const Bloom *src, bool intersect);

/* bloom_keys.c: a key Datum of any supported type as the bytes Cassandra hashes */
typedef struct BloomKeyType BloomKeyType;
extern BLOOM_INTERNAL BloomKeyType *bloom_key_type(FunctionCallInfo fcinfo, int argno, BloomKeyType **slot);
extern BLOOM_INTERNAL BloomKeyType *bloom_key_type_for(Oid typid, MemoryContext mcxt);
extern BLOOM_INTERNAL const uint8 *bloom_key_bytes(BloomKeyType *kt, Datum value, size_t *len);
extern BLOOM_INTERNAL void bloom_key_hash(BloomKeyType *kt, Datum value, int64 *h1, int64 *h2);

/*
 * The first member of every BloomKeyType: whether a key is hashed as its
 * varlena's payload (bytea, and text in a UTF-8 database), which the hot
 * paths (contains, the aggregates' transitions) test inline.
 */
typedef struct BloomKeyTypeHead
{
	bool		raw_varlena;
} BloomKeyTypeHead;

/* bloom_key_type with its cache read inline */
static inline BloomKeyType *
bloom_key_type_inline(FunctionCallInfo fcinfo, int argno, BloomKeyType **slot)
{
	BloomKeyType *kt = slot ? *slot : (BloomKeyType *) fcinfo->flinfo->fn_extra;

	return kt ? kt : bloom_key_type(fcinfo, argno, slot);
}

/* bloom_key_hash, with the common case (a short-header text or bytea
 * value, as stored in a row) hashed in place without a call */
static inline void
bloom_key_hash_inline(BloomKeyType *kt, Datum value, int64 *h1, int64 *h2)
{
	const char *v = (const char *) DatumGetPointer(value);

	if (((const BloomKeyTypeHead *) kt)->raw_varlena && VARATT_IS_SHORT(v))
		bc_murmur3(VARDATA_SHORT(v), VARSIZE_SHORT(v) - VARHDRSZ_SHORT,
				   (int64_t *) h1, (int64_t *) h2);
	else
		bloom_key_hash(kt, value, h1, h2);
}

#endif							/* BLOOMCASS_H */
