/*
 * bc_txn_log.h - the transaction logs of a table folder, Cassandra 3.0 and
 * later (bc_txn_log.c; LogFile and LogRecord): which SSTables an operation
 * takes out of the table.
 */
#ifndef BC_TXN_LOG_H
#define BC_TXN_LOG_H

#include <stddef.h>

#include "bc_status.h"

typedef enum bc_txn_type
{
	BC_TXN_ADD = 0,				/* an SSTable the operation writes */
	BC_TXN_REMOVE,				/* an SSTable it replaces */
	BC_TXN_COMMIT,				/* the operation finished */
	BC_TXN_ABORT				/* the operation was abandoned */
} bc_txn_type;

typedef struct bc_txn_record
{
	bc_txn_type type;
	const char *path;			/* ADD, REMOVE: as written (into the line) */
	size_t		path_len;
	const char *base;			/* its last element: the SSTable's prefix */
	size_t		base_len;
} bc_txn_record;

/* One line of a log, without its newline: BC_ERR_TXN_RECORD unless it is a
 * well-formed record.  For the core (bc_txn_log_scan) and its tests. */
bc_status	bc_txn_record_parse(const char *line, size_t len, bc_txn_record *out);

/* 1 when name (a base name) is a transaction log's: <v>_txn_<op>_<id>.log */
int			bc_txn_log_name(const char *name, size_t len);

/*
 * A whole log: sstable(arg, obsolete, base, len) for each SSTable it takes
 * out of the table, the ones it REMOVEs (obsolete = 1) when it committed,
 * else the ones it ADDs (obsolete = 0: temporary); bad_line (may be NULL)
 * for each line that is not a record, except a last line cut short by a
 * crash, which is expected.
 */
void		bc_txn_log_scan(const char *data, size_t len,
							void (*sstable) (void *arg, int obsolete, const char *base, size_t base_len),
							void (*bad_line) (void *arg, long lineno), void *arg);

#endif							/* BC_TXN_LOG_H */
