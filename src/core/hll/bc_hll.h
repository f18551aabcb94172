/*
 * bc_hll.h - the cardinality estimator of Statistics.db's CompactionMetadata
 * as stream-lib 2.5.2's HyperLogLogPlus reads, estimates and merges it
 * (bc_hll.c: the serialized form and cardinality(); bc_hll_merge.c:
 * addAll and merge; bc_hll_bias.c: stream-lib's bias-correction data), and
 * ScyllaDB's own hll::HyperLogLog in stream-lib's framing (bc_hll_scylla.c).
 *
 * Cassandra 2.1 to 5.0 write HyperLogLogPlus(13, 25) (MetadataCollector.
 * defaultCardinality) with getBytes(); ScyllaDB writes its 16-register
 * hll::HyperLogLog with get_bytes() (sstables/hyperloglog.hh), which
 * imitates stream-lib's framing: version -2, p = 4, sp = 0, the normal
 * format, 16 registers of one byte each.
 *
 * Nothing here allocates: an estimator is parsed in place (bc_hll_parse),
 * its values decoded into the caller's array (bc_hll_decode), merged into
 * the caller's array (bc_hll_merge).  Every count is bounded by the bytes
 * that hold it, so no caller needs more memory than the estimator's bytes
 * (times four) or one register set of 2^p / 6 words.
 */
#ifndef BC_HLL_H
#define BC_HLL_H

#include <stddef.h>
#include <stdint.h>

#include "bc_status.h"

/*
 * The precisions read.  stream-lib accepts p from 4 to sp (sp at most 32)
 * and allocates a register set of 2^p / 6 words for each estimator;
 * Cassandra writes 13.  Above 18 stream-lib has no bias data and the
 * register set alone would be of 175 MB at p = 30: BC_ERR_HLL_UNSUPPORTED.
 */
#define BC_HLL_MIN_P 4
#define BC_HLL_MAX_P 18

/* stream-lib's thresholds for the switch from sparse to normal at p = 13 */
#define BC_HLL_P13_SPARSE_THRESHOLD 6144	/* (int) (m * 0.75) */

typedef enum bc_hll_kind
{
	BC_HLL_STREAMLIB = 1,		/* stream-lib's HyperLogLogPlus */
	BC_HLL_SCYLLA = 2			/* ScyllaDB's hll::HyperLogLog */
} bc_hll_kind;

/*
 * An estimator's bytes as parsed: nothing decoded yet.  For stream-lib:
 * p, sp, the format and n, the number of sparse entries or of register
 * words (32 bits, six 5-bit registers each: RegisterSet); for ScyllaDB:
 * b (its p) and its 2^b one-byte registers.
 */
typedef struct bc_hll_view
{
	bc_hll_kind kind;
	int			legacy;			/* stream-lib's legacy codec (no version) */
	int32_t		p;
	int32_t		sp;
	int			sparse;			/* the SPARSE format, else NORMAL */
	uint32_t	n;				/* entries (sparse) or words (normal) */
	const uint8_t *payload;		/* where the entries or words start */
	const uint8_t *end;			/* the estimator's end */
	const uint8_t *registers;	/* ScyllaDB: m one-byte registers */
	uint32_t	m;				/* ScyllaDB: 2^b */
} bc_hll_view;

/*
 * Parse an estimator as HyperLogLogPlus.Builder.build(bytes) does (the new
 * codec after a negative version int, else legacyDecode).  scylla_form:
 * the SSTable's version is one ScyllaDB writes (ka, la, mc, md, me, ms,
 * mt); an estimator of exactly the form ScyllaDB's get_bytes() writes is
 * then ScyllaDB's (kind BC_HLL_SCYLLA), else stream-lib's.  Errors:
 *   BC_ERR_HLL_TRUNCATED   a field past the end (Java's EOFException, an
 *                          IOException: Cassandra's getApproximateKeyCount
 *                          falls back to the partition counts)
 *   BC_ERR_HLL_FORMAT      what stream-lib's reader throws on otherwise (a
 *                          negative size: NegativeArraySizeException; p
 *                          below 4, above sp, sp above 32, a varint of more
 *                          than 6 bytes: IllegalArgumentException)
 *   BC_ERR_HLL_UNSUPPORTED p above BC_HLL_MAX_P
 */
bc_status	bc_hll_parse(const uint8_t *bytes, size_t len, int scylla_form,
						 bc_hll_view *v);

/*
 * A decoded stream-lib estimator: the sparse set (ints, as delta-decoded,
 * in the order stored) or the register words M.  cap is the room in v.
 */
typedef struct bc_hll
{
	int32_t		p;
	int32_t		sp;
	int			sparse;
	uint32_t	n;
	uint32_t	cap;
	int32_t    *v;
	int			canonical;		/* every sparse entry of a run length a
								 * register holds (below 32) and a register
								 * inside the set: raising registers then
								 * commutes (a longer run spills into the
								 * next register, as in stream-lib) */
} bc_hll;

/* Decode a parsed stream-lib estimator into h->v (room for v->n values). */
void		bc_hll_decode(const bc_hll_view *v, bc_hll *h);

/* RegisterSet's word count for 2^p registers (1366 at p = 13). */
uint32_t	bc_hll_words(int32_t p);

/*
 * HyperLogLogPlus.cardinality(): linear counting over 2^sp in sparse mode;
 * in normal mode the raw estimate, bias-corrected below 5 m with
 * stream-lib's data for p = 13 (BC_ERR_HLL_UNSUPPORTED at another p when
 * the correction is needed), linear counting below the threshold.  The
 * result is Java's long (Math.round, sparse mode's int cast included: it
 * may be negative, which Cassandra takes as "no estimate").  A register
 * word missing for a register (ArrayIndexOutOfBoundsException) is
 * BC_ERR_HLL_FORMAT.
 */
bc_status	bc_hll_cardinality(const bc_hll *h, int64_t *card);

/* The same from the parsed bytes, nothing decoded; for a BC_HLL_SCYLLA
 * view, bc_hll_scylla_estimate. */
bc_status	bc_hll_view_cardinality(const bc_hll_view *v, int64_t *card);

/*
 * acc.merge(other) as Cassandra's getApproximateKeyCount calls it: a new
 * HyperLogLogPlus(acc.p, acc.sp), then addAll(acc), addAll(other).  room
 * holds bc_hll_merge_room(acc, other) values (one register set, then every
 * entry of both), distinct from acc's and other's; out->v points into it.
 * *refused is set when stream-lib refuses the merge
 * (HyperLogLogPlusMergeException, a CardinalityMergeException: estimators
 * of different sizes); out is then unset.  A sparse entry whose register
 * lies outside the register set is BC_ERR_HLL_FORMAT
 * (ArrayIndexOutOfBoundsException).
 */
uint32_t	bc_hll_merge_room(const bc_hll *acc, const bc_hll *other);
bc_status	bc_hll_merge(const bc_hll *acc, const bc_hll *other, int32_t *room,
						 bc_hll *out, int *refused);

/* stream-lib's bias for a raw estimate at p = 13 (getEstimateBias):
 * bc_hll_bias.c. */
double		bc_hll_bias_p13(double estimate);

/* stream-lib's thresholdData[p - 4]; p in [4, 18] */
double		bc_hll_threshold(int32_t p);

/*
 * ScyllaDB's hll::HyperLogLog::estimate() over a parsed BC_HLL_SCYLLA view,
 * rounded to the nearest integer.  Registers no ScyllaDB writes (an
 * estimate that is not a finite number of int64 range) are
 * BC_ERR_HLL_FORMAT.
 */
bc_status	bc_hll_scylla_estimate(const bc_hll_view *v, int64_t *card);

/* the name reported for each kind ('stream-lib HyperLogLogPlus', ...) */
const char *bc_hll_kind_name(bc_hll_kind k);

#endif							/* BC_HLL_H */
