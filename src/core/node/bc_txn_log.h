/*
 * bc_txn_log.h - the transaction logs of a table folder, Cassandra 3.0 and
 * later: one record (bc_txn_record.c; LogRecord) and a whole log
 * (bc_txn_log.c; LogFile, LogReplicaSet and LogAwareFileLister): which
 * SSTables an operation takes out of the table, and whether the log
 * verifies.
 */
#ifndef BC_TXN_LOG_H
#define BC_TXN_LOG_H

#include <stddef.h>
#include <stdint.h>

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
	const char *path;			/* ADD, REMOVE: as written (into the line);
								 * may be empty */
	size_t		path_len;
	const char *base;			/* its last element, less a final '-': the
								 * SSTable's prefix; base_len 0 when the
								 * path names none ("", "/x/") */
	size_t		base_len;
	int64_t		update_time;	/* the three numbers, as written */
	int32_t		num_files;
	int64_t		checksum;
} bc_txn_record;

/* One line of a log, without its newline: BC_ERR_TXN_RECORD unless it is a
 * record LogRecord.make parses.  For the core (bc_txn_log_scan) and its
 * tests. */
bc_status	bc_txn_record_parse(const char *line, size_t len, bc_txn_record *out);

/* The CRC LogRecord.computeChecksum gives the record (the one LogFile.verifyRecord
 * compares with r->checksum) */
uint32_t	bc_txn_record_checksum(const bc_txn_record *r);

/* The numbers the LogRecord constructor keeps of a record (bc_txn_record.c):
 * the update time of a REMOVE only, the file count of an ADD or REMOVE
 * only, 0 otherwise.  Its CRC and its equality to another record
 * (LogRecord.equals, which bc_txn_log_scan asks) are of these. */
int64_t		bc_txn_record_kept_time(const bc_txn_record *r);
int32_t		bc_txn_record_kept_files(const bc_txn_record *r);

/* 1 when name (a base name) is a transaction log's: <v>_txn_<op>_<id>.log */
int			bc_txn_log_name(const char *name, size_t len);

/* What the verification of a whole log found (LogFile.verify) */
typedef enum bc_txn_verdict
{
	BC_TXN_VERIFIED = 0,		/* every record verifies */
	BC_TXN_LAST_INVALID,		/* all but the last, which is cut short or
								 * damaged: the operation is unfinished
								 * (LogFile.verify goes on, with a warning) */
	BC_TXN_CORRUPT,				/* LogFile.verify fails: Cassandra does not
								 * start; its listing applies the records
								 * it read that are valid */
	BC_TXN_UNREADABLE			/* not UTF-8: Cassandra cannot read it at all;
								 * nothing is applied */
} bc_txn_verdict;

/* the fault of the line a verdict other than BC_TXN_VERIFIED is about */
typedef enum bc_txn_fault
{
	BC_TXN_FAULT_NONE = 0,
	BC_TXN_FAULT_SYNTAX,		/* not a record (LogRecord.make) */
	BC_TXN_FAULT_CHECKSUM,		/* its CRC is not its record's
								 * (LogFile.verifyRecord) */
	BC_TXN_FAULT_REPEATED,		/* a record of an earlier line again
								 * (LogReplicaSet.readRecords) */
	BC_TXN_FAULT_NOT_LAST,		/* a COMMIT or ABORT before the last line
								 * (LogReplicaSet.readRecords) */
	BC_TXN_FAULT_ENCODING,		/* bytes that are not UTF-8 (FileUtils.readLines) */
	BC_TXN_FAULT_TOO_LARGE		/* more than BC_TXN_LOG_MAX_BYTES */
} bc_txn_fault;

typedef struct bc_txn_log_result
{
	bc_txn_verdict verdict;
	bc_txn_fault fault;			/* BC_TXN_FAULT_NONE when verified */
	long		lineno;			/* the line it is about, from 1; 0 if none */
	int			cut;			/* that line is the last and has no line end
								 * (a crash cut it short) */
	int			completed;		/* its last record is a valid COMMIT or ABORT */
	int			committed;		/* ... a COMMIT */
} bc_txn_log_result;

/* A short phrase for a fault: "checksum mismatch", ... */
const char *bc_txn_fault_message(bc_txn_fault fault);

/*
 * The bytes of scratch memory bc_txn_log_scan needs for the log
 * data[0 .. len) (24 per record it holds, a record taking at least 13
 * bytes of the log; at least 1).  A log of more than BC_TXN_LOG_MAX_BYTES
 * is BC_TXN_UNREADABLE and needs none.
 */
#define BC_TXN_LOG_MAX_BYTES ((size_t) 1 << 30)
size_t		bc_txn_log_scratch_size(const char *data, size_t len);

/*
 * A whole log, as Cassandra's listing of a table folder reads one
 * (LogAwareFileLister with OnTxnErr.IGNORE): its verification into *out,
 * and sstable(arg, obsolete, base, len) for each SSTable it takes out of
 * the table: the ones the valid records REMOVE (obsolete = 1) when the log
 * is committed, else the ones they ADD (obsolete = 0: temporary).  scratch
 * holds bc_txn_log_scratch_size(data, len) bytes, aligned for an int64_t.
 */
void		bc_txn_log_scan(const char *data, size_t len, void *scratch,
							void (*sstable) (void *arg, int obsolete, const char *base, size_t base_len),
							void *arg, bc_txn_log_result *out);

#endif							/* BC_TXN_LOG_H */
