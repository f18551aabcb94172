/*
 * statistics_util.h - what the tests of Statistics.db share
 * (statistics_util.c): parsing a buffer or an exact-length copy of it
 * (so that ASan sees any overread), one real file per layout family, and
 * a copy with bytes replaced.  test_statistics.c checks the real files,
 * test_statistics_damaged.c malformed input, test_statistics_layouts.c
 * what the readers accept though no writer writes it.
 */
#ifndef STATISTICS_UTIL_H
#define STATISTICS_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "bc_statistics.h"
#include "bc_status.h"

bc_status	parse(const uint8_t *d, size_t len, const char *version, bc_statistics *st);
bc_status	parse_copy(const uint8_t *d, size_t len, const char *version);

/* a copy of d with the n bytes at `at` replaced by bytes, parsed */
bc_status	parse_mutated(const uint8_t *d, size_t len, const char *version,
						  size_t at, const uint8_t *bytes, size_t n);

/* whether two parses give the same facts */
int			same_facts(const bc_statistics *a, const bc_statistics *b);

/* Sample files, one per layout family. */
typedef struct sample
{
	const char *rel;
	const char *version;
	int			crc;
} sample;

extern const sample samples[];
extern const size_t n_samples;

#define NSAMPLES n_samples

/* a sample's bytes (checked to parse), or NULL; the caller frees them */
uint8_t    *load(const sample *s, size_t *len);

#endif							/* STATISTICS_UTIL_H */
