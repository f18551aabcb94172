/*
 * bloom_compat.h - the differences between the PostgreSQL major versions
 * bloomcass builds against (15 to 18), in one place.
 *
 * Every glue file gets this through bloomcass.h; nothing else in the tree
 * tests PG_VERSION_NUM.
 */
#ifndef BLOOM_COMPAT_H
#define BLOOM_COMPAT_H

#include "postgres.h"

#if PG_VERSION_NUM < 150000
#error "bloomcass needs PostgreSQL 15 or later"
#endif

/*
 * PostgreSQL 16 moved the varlena macros (VARSIZE, SET_VARSIZE, ...) and
 * struct varatt_external out of postgres.h into varatt.h.
 */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/*
 * A function that never returns.  PostgreSQL 18 replaced the trailing
 * pg_attribute_noreturn() with a leading pg_noreturn; GCC and clang accept
 * the attribute in the leading position on every version.
 */
#if PG_VERSION_NUM >= 180000
#define BLOOM_NORETURN pg_noreturn
#elif defined(__GNUC__) || defined(__clang__)
#define BLOOM_NORETURN __attribute__((noreturn))
#else
#define BLOOM_NORETURN
#endif

/*
 * PostgreSQL 16 replaced pg_proc_aclcheck() by object_aclcheck() (callers
 * include utils/acl.h and catalog/pg_proc.h).
 */
#if PG_VERSION_NUM >= 160000
#define bloom_proc_aclcheck(fn, role, mode) \
	object_aclcheck(ProcedureRelationId, (fn), (role), (mode))
#else
#define bloom_proc_aclcheck(fn, role, mode) pg_proc_aclcheck((fn), (role), (mode))
#endif

/*
 * The words of pg_read_binary_file's refusal of a relative path that leaves
 * the data directory (genfile.c): "current directory" up to 15.
 */
#if PG_VERSION_NUM >= 160000
#define BLOOM_RELATIVE_PATH_MESSAGE "path must be in or below the data directory"
#else
#define BLOOM_RELATIVE_PATH_MESSAGE "path must be in or below the current directory"
#endif

#endif							/* BLOOM_COMPAT_H */
