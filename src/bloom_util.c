/*
 * bloom_util.c - glue helpers every other file of the extension uses: the
 * report of a core status as an ERROR (and of one met reading an SSTable
 * component), and large allocations advised to use transparent huge pages.
 *
 * They sit apart from the files that implement SQL functions so that any
 * of those can use them without depending on another.
 */
#include "postgres.h"

#include <sys/mman.h>

#include "miscadmin.h"
#include "utils/memutils.h"

#include "bc_sstable_name.h"
#include "bc_status.h"
#include "bloomcass.h"

/*
 * The SQLSTATE of a core status: malformed bytes are an invalid binary
 * representation, a checksum that does not match is data corruption, a
 * format bloomcass does not read is a feature not supported.
 */
int
bloom_sqlstate(bc_status st)
{
	switch (st)
	{
		case BC_ERR_EMPTY:
		case BC_ERR_SHORT_HEADER:
		case BC_ERR_HASH_COUNT:
		case BC_ERR_WORD_COUNT:
		case BC_ERR_TRUNCATED:
		case BC_ERR_TRAILING:
		case BC_ERR_STATS_TRUNCATED:
		case BC_ERR_STATS_TRAILING:
		case BC_ERR_STATS_TOC:
		case BC_ERR_STATS_MISSING:
		case BC_ERR_STATS_HISTOGRAM:
		case BC_ERR_STATS_STRING:
		case BC_ERR_STATS_FP_CHANCE:
		case BC_ERR_STATS_FIELD:
		case BC_ERR_INDEX_TRUNCATED:
		case BC_ERR_INDEX_LENGTH:
		case BC_ERR_INDEX_ORDER:
		case BC_ERR_INDEX_KEY_ORDER:
		case BC_ERR_INDEX_SAMPLE:
		case BC_ERR_INDEX_FIRST_POSITION:
		case BC_ERR_SUMMARY_TRUNCATED:
		case BC_ERR_SUMMARY_FORMAT:
		case BC_ERR_SUMMARY_TRAILING:
		case BC_ERR_SUMMARY_INDEX:
		case BC_ERR_PARTITIONS_TRUNCATED:
		case BC_ERR_PARTITIONS_FORMAT:
		case BC_ERR_PARTITIONS_TRAILING:
		case BC_ERR_PARTITIONS_KEYS_SPAN:
		case BC_ERR_COMPRESSION_TRUNCATED:
		case BC_ERR_COMPRESSION_FORMAT:
		case BC_ERR_COMPRESSION_DICTIONARY:
		case BC_ERR_COMPRESSION_DICT_KIND:
		case BC_ERR_COMPRESSION_CHUNK:
		case BC_ERR_COMPRESSION_DATA_LENGTH:
		case BC_ERR_TRIE_TRUNCATED:
		case BC_ERR_TRIE_POINTER:
		case BC_ERR_TRIE_NODE:
		case BC_ERR_TRIE_DEPTH:
		case BC_ERR_TRIE_COUNT:
		case BC_ERR_TRIE_POSITION:
		case BC_ERR_TRIE_KEY:
		case BC_ERR_TRIE_HASH:
		case BC_ERR_PARTITION_POSITION:
		case BC_ERR_HLL_TRUNCATED:
		case BC_ERR_HLL_FORMAT:
			return ERRCODE_INVALID_BINARY_REPRESENTATION;
		case BC_ERR_STATS_CHECKSUM:
		case BC_ERR_COMPRESSION_CHECKSUM:
		case BC_ERR_COMPRESSION_DICT_CHECKSUM:
		case BC_ERR_COMPRESSION_DICT_MISMATCH:
		case BC_ERR_COMPRESSION_CORRUPT:
			return ERRCODE_DATA_CORRUPTED;
		case BC_ERR_VERSION_UNSUPPORTED:
		case BC_ERR_INDEX_BTI:
		case BC_ERR_COMPRESSION_UNSUPPORTED:
		case BC_ERR_TRIE_ENCODING:
		case BC_ERR_HLL_UNSUPPORTED:
			return ERRCODE_FEATURE_NOT_SUPPORTED;
		case BC_ERR_TOO_LARGE:
		case BC_ERR_N_TOO_MANY:
		case BC_ERR_EXCEEDS_VALUE_LIMIT:
		case BC_ERR_KEY_TOO_LONG:
		case BC_ERR_COMPRESSION_LIMIT:
			return ERRCODE_PROGRAM_LIMIT_EXCEEDED;
		case BC_ERR_NUMBER_RANGE:
			return ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
		case BC_ERR_NUMBER_SYNTAX:
			return ERRCODE_INVALID_TEXT_REPRESENTATION;
		case BC_ERR_BUFFER:
		case BC_ERR_CURSOR_STATE:
			return ERRCODE_INTERNAL_ERROR;
		default:
			return ERRCODE_INVALID_PARAMETER_VALUE;
	}
}

/* Report a core status as an ERROR with its SQLSTATE. */
void
bloom_error(bc_status st)
{
	ereport(ERROR, (errcode(bloom_sqlstate(st)), errmsg("%s", bc_status_message(st))));
	pg_unreachable();
}

/*
 * Report a core status of reading an SSTable component (as an ERROR with
 * the status's SQLSTATE).  file names what was read: the server file, or
 * for BC_ERR_INDEX_BTI the SSTable; NULL for bytes given as an argument.
 * keys, when not 0, is how many partition keys were read before the error.
 */
void
bloom_component_error(bc_status st, const char *component, const char *version,
					  const char *file, uint64 keys)
{
	int			vlen = (int) Min(strlen(version), 200);

	switch (st)
	{
		case BC_ERR_VERSION_UNKNOWN:
			if (file)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("invalid SSTable version \"%.*s\" in file name \"%s\": %s",
								vlen, version, file, bc_status_message(st))));
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid SSTable version \"%.*s\": %s",
							vlen, version, bc_status_message(st)),
					 errhint("Use a version from ia to oa, da, or DataStax's aa to cc (for example 'nb' or 'ma').")));
			break;
		case BC_ERR_VERSION_UNSUPPORTED:
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 file ?
					 errmsg("cannot read %s \"%s\": SSTable version \"%.*s\" is not supported",
							component, file, vlen, version) :
					 errmsg("cannot read %s of SSTable version \"%.*s\": the version is not supported",
							component, vlen, version),
					 errdetail("bloomcass reads the SSTables of Cassandra 1.2 (version ia) and later, DataStax's aa, ac, ad, ba, bb, ca, cb and cc, and ScyllaDB's ms and mt.")));
			break;
		case BC_ERR_INDEX_BTI:
			ereport(ERROR,
					(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
					 file ?
					 errmsg("SSTable \"%s\" is trie-indexed (BTI, version \"%.*s\"): it has no %s",
							file, vlen, version, component) :
					 errmsg("SSTable version \"%.*s\" is trie-indexed (BTI): its SSTables have no %s",
							vlen, version, component),
					 errhint("A trie-indexed SSTable indexes its partitions in Partitions.db, which keeps only the prefixes that tell partition keys apart, not the whole keys.")));
			break;
		default:
			if (file)
				ereport(ERROR,
						(errcode(bloom_sqlstate(st)),
						 errmsg("invalid %s \"%s\": %s", component, file, bc_status_message(st)),
						 keys > 0 ? errdetail_plural("%llu partition key was read before the error.",
													 "%llu partition keys were read before the error.",
													 (unsigned long) keys,
													 (unsigned long long) keys) : 0));
			ereport(ERROR,
					(errcode(bloom_sqlstate(st)),
					 errmsg("invalid %s: %s", component, bc_status_message(st)),
					 keys > 0 ? errdetail_plural("%llu partition key was read before the error.",
												 "%llu partition keys were read before the error.",
												 (unsigned long) keys,
												 (unsigned long long) keys) : 0));
			break;
	}
	pg_unreachable();
}

/*
 * The SSTable of a path: its common prefix (/data/ks/t-id/nb-1-big,
 * /x/ks-cf-ka-1) or any of its component files (...-Index.db).  Sets the
 * prefix (the same directory), the version and the format from the name.
 */
void
bloom_sstable_of_path(const char *path, char **prefix, char **version, bc_sstable_format *format)
{
	const char *sep = last_dir_separator(path);
	const char *base = sep ? sep + 1 : path;
	size_t		base_len = strlen(base);
	bc_sstable_name n;
	size_t		descriptor_len;
	bc_status	st;

	st = bc_sstable_name_parse(base, base_len, &n);
	if (st == BC_OK)
		descriptor_len = n.descriptor_len;
	else
	{
		char	   *data_name = psprintf("%s-Data.db", base);

		st = bc_sstable_name_parse(data_name, strlen(data_name), &n);
		descriptor_len = base_len;
	}
	if (st != BC_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("\"%s\" is not the path of an SSTable or of one of its components", path),
				 errdetail("%s", bc_status_message(st)),
				 errhint("Give the common prefix of the SSTable's files (for example /var/lib/cassandra/data/ks/t-1b25/nb-1-big) or the path of one of them.")));
	*prefix = pnstrdup(path, (base - path) + descriptor_len);
	*version = pnstrdup(n.version, n.version_len);
	*format = n.format;
}

/*
 * Memory from palloc (zeroed by the second).  A large block is advised to use
 * transparent huge pages (where the kernel leaves that to madvise): the
 * first touch of fresh memory costs about 10 us per 4 kB page, so zeroing a
 * 100 MB filter would otherwise spend a quarter of a second in page faults.
 * The memory stays palloc'd: accounted, and freed with its context.
 */
#define HUGE_PAGE_SIZE ((uintptr_t) 2 * 1024 * 1024)

void *
bloom_palloc_large(MemoryContext ctx, Size size)
{
	char	   *p = MemoryContextAllocHuge(ctx, size);

#ifdef MADV_HUGEPAGE
	if (size >= 2 * HUGE_PAGE_SIZE)
		bloom_madvise_inside(p, size, HUGE_PAGE_SIZE, MADV_HUGEPAGE);
#endif
	return p;
}

/*
 * madvise the whole units (a power of two, a multiple of the page size)
 * that lie inside [p, p + size); advice is best effort, so errors are
 * ignored.
 */
void
bloom_madvise_inside(void *p, Size size, uintptr_t unit, int advice)
{
	uintptr_t	start = ((uintptr_t) p + unit - 1) & ~(unit - 1);
	uintptr_t	end = ((uintptr_t) p + size) & ~(unit - 1);

	if (end > start)
		(void) madvise((void *) start, end - start, advice);
}

/*
 * Have the kernel map the pages of fresh memory about to be written in one
 * call rather than one fault per page (Linux 5.14's MADV_POPULATE_WRITE;
 * elsewhere nothing happens).
 */
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

void
bloom_populate(void *p, Size size)
{
#ifdef __linux__
	bloom_madvise_inside(p, size, (uintptr_t) 4096, MADV_POPULATE_WRITE);
#endif
}

void *
bloom_palloc0_large(Size size)
{
	void	   *p = bloom_palloc_large(CurrentMemoryContext, size);

	memset(p, 0, size);
	return p;
}

/* A bytea holding a copy of len bytes. */
bytea *
bloom_bytea(const uint8 *data, size_t len)
{
	bytea	   *b = (bytea *) palloc(VARHDRSZ + len);

	SET_VARSIZE(b, VARHDRSZ + len);
	if (len > 0)
		memcpy(VARDATA(b), data, len);
	return b;
}
