/*
 * partitions_model.h - what the tests of Partitions.db share
 * (partitions_model.c): the format as Cassandra's
 * PartitionIndexBuilder.complete() writes it, read without the core, and
 * a file checked against it, read whole and through the two-step API.
 * test_partitions.c uses them on Cassandra's and DataStax's BTI SSTables,
 * test_scylladb.c on ScyllaDB's ms.
 */
#ifndef PARTITIONS_MODEL_H
#define PARTITIONS_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "bc_status.h"

/* the status a whole file must give, and its fields */
typedef struct model
{
	bc_status	st;
	uint64_t	keys_pos,
				count,
				root;
	size_t		first_off,
				first_len,
				last_off,
				last_len;
} model;

model		model_parse(const uint8_t *d, size_t len);

/* whether st is one of the Partitions.db errors */
int			is_partitions_status(bc_status st);

/* d[0 .. len) read whole (bc_partitions_parse) and through the two-step
 * API from exact-size copies, both checked against the model; the status */
bc_status	check_file(const uint8_t *d, size_t len, const char *what);

#endif							/* PARTITIONS_MODEL_H */
