/*
 * bc_txn_log.c - Cassandra's transaction logs (3.0 and later): a whole log,
 * its verification and the SSTables it takes out of the table.
 *
 * An operation that writes or replaces SSTables (flush, compaction,
 * streaming, ...) keeps a log beside them in the table folder, named
 * <version>_txn_<operation>_<uuid>.log (LogFile in
 * org.apache.cassandra.db.lifecycle).  Each line is one record: an
 * SSTable the operation ADDs or REMOVEs, then a final COMMIT or ABORT
 * (LogRecord; its syntax and its CRC are bc_txn_record.c).  When the log
 * ends with COMMIT the SSTables it REMOVEs are obsolete (their files are
 * deleted next); otherwise (ABORT, or no final record: the operation was
 * cut short) the SSTables it ADDs are, and Cassandra deletes them at
 * startup.  Either way they are not part of the table.
 *
 * The reader is Cassandra's alone (ScyllaDB keeps no such logs: its
 * unfinished SSTables have a TemporaryTOC.txt).  A log is read here as
 * Cassandra's listing of a table folder reads it (LogAwareFileLister,
 * which reads each log file alone): FileUtils.readLines (Files.readAllLines
 * in UTF-8: a line ends at \n, \r or \r\n, and a byte that is not UTF-8
 * fails the whole read), LogReplicaSet.readRecords (LogRecord.make parses
 * each line; the reading stops at a record equal to an earlier one, or at
 * a COMMIT or ABORT that is not the last line), then LogFile.verify
 * (LogFile.verifyRecord: each record's CRC, LogRecord.computeChecksum).
 * Each check below names the one it mirrors.
 *
 * What a log that fails verification does (LogFile.verify returns false:
 * a record other than the last is invalid, or readRecords stopped):
 * Cassandra does not start - ColumnFamilyStore.scrubDataDirectories
 * throws a StartupException ("Cannot remove temporary or obsoleted files
 * ... due to a problem with transaction log files") when
 * LogTransaction.removeUnfinishedLeftovers finds such a log, and that
 * removes nothing.  Its listing, LogAwareFileLister.readTxnLog, throws
 * CorruptTransactionLogException with OnTxnErr.THROW (sstableutil, the
 * offline tools) and, with OnTxnErr.IGNORE (the listing ColumnFamilyStore
 * opens a table's SSTables by), logs the error and applies the log anyway
 * (classifyFiles): the valid records among those read, committed only
 * when the last record read is a valid COMMIT.  bloomcass lists as the
 * latter does (BC_TXN_CORRUPT, for the caller to warn about).  A log whose
 * last record alone is invalid verifies (the operation was cut short while
 * writing it; LogFile.verify warns and goes on): it is not completed, and
 * the invalid record is not applied (BC_TXN_LAST_INVALID).  A log that is
 * not UTF-8 cannot be read at all (BC_TXN_UNREADABLE): nothing of it is
 * applied.
 *
 * Not mirrored: the checks of LogFile.verifyRecord and
 * verifyRecordWithCorruptedLastRecord against the files on disk (a
 * REMOVEd SSTable's last modification time in milliseconds, its number of
 * files), LogAwareFileLister's "inconsistent disk state" (an unfinished
 * log whose REMOVEd SSTables lack files) and the folder a record's path
 * names (LogRecord.isInFolder: a copy of a node moves its paths; the
 * SSTable's prefix, the path's last element, is what is matched).
 */
#include <stdint.h>
#include <string.h>

#include "bc_status.h"
#include "bc_tick.h"
#include "bc_txn_log.h"

/*
 * LogFile.FILE_REGEX: 3.0 - 4.1 ^(.{2})_txn_(.*)_(.*)\.log$; 5.0
 * ^((?:[a-z]+-)?.{2}_)?txn_(.*)_(.*)\.log$, which takes every 3.x name and
 * adds an optional format prefix (bti-da_txn_...) and none at all
 * (txn_...).  A base name: no '/'; '.' in the regex matches no line
 * terminator.
 */
int
bc_txn_log_name(const char *name, size_t len)
{
	size_t		i = 0,
				body;

	if (len < 4 || memcmp(name + len - 4, ".log", 4) != 0 ||
		memchr(name, '/', len) != NULL || memchr(name, '\n', len) != NULL ||
		memchr(name, '\r', len) != NULL)
		return 0;
	body = len - 4;
	/* ((?:[a-z]+-)?.{2}_)? */
	if (!(body >= 4 && memcmp(name, "txn_", 4) == 0))
	{
		while (i < body && name[i] >= 'a' && name[i] <= 'z')
			i++;
		if (i > 0 && i < body && name[i] == '-')
			i++;
		else
			i = 0;
		if (body - i < 3 || name[i + 2] != '_')
			return 0;
		i += 3;
	}
	/* txn_(.*)_(.*) */
	if (body - i < 5 || memcmp(name + i, "txn_", 4) != 0)
		return 0;
	return memchr(name + i + 4, '_', body - i - 4) != NULL;
}

const char *
bc_txn_fault_message(bc_txn_fault fault)
{
	switch (fault)
	{
		case BC_TXN_FAULT_NONE:
			return "no fault";
		case BC_TXN_FAULT_SYNTAX:
			return "not a record";
		case BC_TXN_FAULT_CHECKSUM:
			return "checksum mismatch";
		case BC_TXN_FAULT_REPEATED:
			return "a record repeated from an earlier line";
		case BC_TXN_FAULT_NOT_LAST:
			return "a COMMIT or ABORT before the last line";
		case BC_TXN_FAULT_ENCODING:
			return "not UTF-8";
		case BC_TXN_FAULT_TOO_LARGE:
			return "larger than 1 GB";
	}
	return "unknown fault";
}

/*
 * The next line of [*p, end), without its end: 0 at the end.  A line ends
 * at \n, \r or \r\n, as Files.readAllLines (BufferedReader.readLine) ends
 * it.  *cut is set for a last line without one (a crash cut it short).
 */
static int
next_line(const char **p, const char *end, const char **line, size_t *len, int *cut)
{
	const char *q = *p;

	if (q >= end)
		return 0;
	while (q < end && *q != '\n' && *q != '\r')
		q++;
	*line = *p;
	*len = (size_t) (q - *p);
	*cut = q == end;
	if (q < end && *q == '\r' && q + 1 < end && q[1] == '\n')
		q++;
	*p = q < end ? q + 1 : end;
	return 1;
}

/* the line that the byte at off is in, from 1 */
static long
line_of(const char *data, size_t len, size_t off)
{
	const char *p = data;
	const char *end = data + len;
	const char *line;
	size_t		llen;
	int			cut;
	long		n = 0;

	while (next_line(&p, end, &line, &llen, &cut))
	{
		n++;
		if (p > data + off)
			break;
	}
	return n;
}

/*
 * Where the bytes stop being UTF-8 as Java's decoder reads it
 * (StandardCharsets.UTF_8, reporting malformed input: FileUtils.readLines
 * then throws): no overlong form, no surrogate, nothing past U+10FFFF, no
 * sequence cut by the end.  len when they are UTF-8 throughout.
 */
static size_t
utf8_end(const uint8_t *s, size_t len)
{
	size_t		i = 0;

	while (i < len)
	{
		uint8_t		c = s[i];
		uint8_t		lo = 0x80,
					hi = 0xBF;
		size_t		n,
					k;

		if (c < 0x80)
		{
			i++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF)
			n = 1;
		else if (c >= 0xE0 && c <= 0xEF)
		{
			n = 2;
			if (c == 0xE0)
				lo = 0xA0;		/* overlong */
			else if (c == 0xED)
				hi = 0x9F;		/* a surrogate */
		}
		else if (c >= 0xF0 && c <= 0xF4)
		{
			n = 3;
			if (c == 0xF0)
				lo = 0x90;		/* overlong */
			else if (c == 0xF4)
				hi = 0x8F;		/* past U+10FFFF */
		}
		else
			return i;
		if (len - i <= n || s[i + 1] < lo || s[i + 1] > hi)
			return i;
		for (k = 2; k <= n; k++)
			if ((s[i + k] & 0xC0) != 0x80)
				return i;
		i += n + 1;
	}
	return len;
}

/*
 * What LogRecord.equals (and hashCode) compares, which
 * LogReplicaSet.readRecords asks of each record (records.contains): the
 * type, the path and the kept numbers (not the CRC); and where the record's
 * line starts.  One per record, in the caller's scratch memory.
 */
typedef struct txn_key
{
	int64_t		time;			/* bc_txn_record_kept_time */
	uint32_t	off;			/* the line's offset */
	uint32_t	path_len;		/* ADD, REMOVE; 0 for COMMIT, ABORT */
	int32_t		files;			/* bc_txn_record_kept_files */
	uint32_t	type;
} txn_key;

static txn_key
key_of(const bc_txn_record *r, const char *data, const char *line)
{
	txn_key		k;

	k.time = bc_txn_record_kept_time(r);
	k.off = (uint32_t) (line - data);
	k.path_len = (uint32_t) ((r->type == BC_TXN_ADD || r->type == BC_TXN_REMOVE) ? r->path_len : 0);
	k.files = bc_txn_record_kept_files(r);
	k.type = (uint32_t) r->type;
	return k;
}

/* an order on the records, equal when LogRecord.equals is true */
static int
record_cmp(const char *data, const txn_key *x, const txn_key *y)
{
	/* the path follows "<type>:[", whatever case the type has */
	static const uint32_t path_at[] = {5, 8, 8, 7};
	int			c;

	if (x->type != y->type)
		return x->type < y->type ? -1 : 1;
	if (x->path_len != y->path_len)
		return x->path_len < y->path_len ? -1 : 1;
	if (x->files != y->files)
		return x->files < y->files ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	c = x->path_len > 0 ? memcmp(data + x->off + path_at[x->type],
								 data + y->off + path_at[y->type], x->path_len) : 0;
	return c < 0 ? -1 : c > 0;
}

/* records first, then their lines' order */
static int
entry_cmp(const char *data, const txn_key *x, const txn_key *y)
{
	int			c = record_cmp(data, x, y);

	if (c != 0 || x->off == y->off)
		return c;
	return x->off < y->off ? -1 : 1;
}

static void
sift_down(const char *data, txn_key *a, size_t root, size_t n)
{
	for (;;)
	{
		size_t		child = 2 * root + 1;
		txn_key		t;

		if (child >= n)
			return;
		if (child + 1 < n && entry_cmp(data, &a[child], &a[child + 1]) < 0)
			child++;
		if (entry_cmp(data, &a[root], &a[child]) >= 0)
			return;
		t = a[root];
		a[root] = a[child];
		a[child] = t;
		root = child;
	}
}

/*
 * The offset of the first line whose record equals an earlier line's,
 * among the records keys[0 .. n) (sorted here: a heapsort, O(n log n)
 * whatever the input, in place), or len when none does.
 */
static size_t
first_repeat(const char *data, size_t len, txn_key *keys, size_t n)
{
	size_t		i,
				first = len;

	for (i = n / 2; i-- > 0;)
		sift_down(data, keys, i, n);
	for (i = n; i-- > 1;)
	{
		txn_key		t = keys[0];

		BC_TICK(i);

		keys[0] = keys[i];
		keys[i] = t;
		sift_down(data, keys, 0, i);
	}
	/* equal records are next to each other, in their lines' order: each
	 * but the first of them repeats it */
	for (i = 1; i < n; i++)
		if (record_cmp(data, &keys[i - 1], &keys[i]) == 0 && keys[i].off < first)
			first = keys[i].off;
	return first;
}

size_t
bc_txn_log_scratch_size(const char *data, size_t len)
{
	const char *p = data;
	const char *end = data + len;
	const char *line;
	size_t		llen,
				n = 0;
	int			cut;
	bc_txn_record r;

	if (len > BC_TXN_LOG_MAX_BYTES)
		return 1;
	while (next_line(&p, end, &line, &llen, &cut))
		if (bc_txn_record_parse(line, llen, &r) == BC_OK)
			n++;
	return n > 0 ? n * sizeof(txn_key) : 1;
}

void
bc_txn_log_scan(const char *data, size_t len, void *scratch,
				void (*sstable) (void *arg, int obsolete, const char *base, size_t base_len),
				void *arg, bc_txn_log_result *out)
{
	const char *end = data + len;
	const char *p;
	const char *line;
	size_t		llen,
				bad,
				nrec = 0,
				repeat;
	int			cut = 0,
				last_cut = 0,
				last_valid = 0,
				read_failed;
	long		nlines = 0,
				lineno,
				stop = 0,
				unknown = 0,
				last_read,
				first_invalid = 0;
	bc_txn_fault stop_fault = BC_TXN_FAULT_NONE,
				invalid_fault = BC_TXN_FAULT_NONE;
	bc_txn_type last_type = BC_TXN_ADD;
	txn_key    *keys = scratch;
	bc_txn_record r;

	memset(out, 0, sizeof(*out));
	if (len > BC_TXN_LOG_MAX_BYTES)
	{
		out->verdict = BC_TXN_UNREADABLE;
		out->fault = BC_TXN_FAULT_TOO_LARGE;
		return;
	}
	/* FileUtils.readLines: Files.readAllLines(path, UTF_8) throws on
	 * malformed input, and the log is not read at all (at startup and in
	 * the listing alike, whatever OnTxnErr says) */
	bad = utf8_end((const uint8_t *) data, len);
	if (bad < len)
	{
		out->verdict = BC_TXN_UNREADABLE;
		out->fault = BC_TXN_FAULT_ENCODING;
		out->lineno = line_of(data, len, bad);
		return;
	}

	p = data;
	while (next_line(&p, end, &line, &llen, &cut))
		nlines++;

	/*
	 * LogReplicaSet.readRecords, one replica: each line's record in turn,
	 * stopping (and failing) at one equal to an earlier one (not added) or
	 * at a final record (COMMIT, ABORT: LogRecord.isFinal) that is not the
	 * last line (added, with an error).  Every line that is not a record
	 * is an UNKNOWN record with no path and numbers 0, so a second one
	 * equals the first; the parsed ones are compared afterwards, by
	 * first_repeat.
	 */
	p = data;
	lineno = 0;
	while (next_line(&p, end, &line, &llen, &cut))
	{
		lineno++;
		BC_TICK(lineno);
		if (bc_txn_record_parse(line, llen, &r) != BC_OK)
		{
			if (unknown != 0)
			{
				stop = lineno;
				stop_fault = BC_TXN_FAULT_REPEATED;
				break;
			}
			unknown = lineno;
			continue;
		}
		keys[nrec++] = key_of(&r, data, line);
		if ((r.type == BC_TXN_COMMIT || r.type == BC_TXN_ABORT) && lineno != nlines)
		{
			stop = lineno;
			stop_fault = BC_TXN_FAULT_NOT_LAST;
			break;
		}
	}
	repeat = first_repeat(data, len, keys, nrec);
	if (repeat < len)
	{
		long		at = line_of(data, len, repeat);

		if (stop == 0 || at <= stop)
		{
			stop = at;
			stop_fault = BC_TXN_FAULT_REPEATED;
		}
	}
	read_failed = stop != 0;
	/* the lines whose records were read: a repeated one is not added */
	last_read = !read_failed ? nlines : stop_fault == BC_TXN_FAULT_REPEATED ? stop - 1 : stop;

	/*
	 * LogFile.verify: when readRecords failed it returns false at once,
	 * the records' CRCs unchecked (so LogAwareFileLister, going on, takes
	 * every record read that parsed, but the final one readRecords
	 * faulted); else LogFile.verifyRecord checks each record's CRC, and
	 * the first invalid record fails the log unless it is the last.
	 */
	p = data;
	for (lineno = 1; lineno <= last_read && next_line(&p, end, &line, &llen, &cut); lineno++)
	{
		bc_txn_fault fault = BC_TXN_FAULT_NONE;

		BC_TICK(lineno);

		if (bc_txn_record_parse(line, llen, &r) != BC_OK)
			fault = BC_TXN_FAULT_SYNTAX;
		else if (read_failed)
			fault = lineno == stop ? stop_fault : BC_TXN_FAULT_NONE;
		else if (r.checksum != (int64_t) bc_txn_record_checksum(&r))
			fault = BC_TXN_FAULT_CHECKSUM;
		if (fault != BC_TXN_FAULT_NONE && first_invalid == 0)
		{
			first_invalid = lineno;
			invalid_fault = fault;
		}
		last_valid = fault == BC_TXN_FAULT_NONE;
		last_type = r.type;
		last_cut = cut;
	}

	if (read_failed)
	{
		out->verdict = BC_TXN_CORRUPT;
		out->fault = stop_fault;
		out->lineno = stop;
	}
	else if (first_invalid != 0)
	{
		out->verdict = first_invalid == last_read ? BC_TXN_LAST_INVALID : BC_TXN_CORRUPT;
		out->fault = invalid_fault;
		out->lineno = first_invalid;
		out->cut = first_invalid == last_read && last_cut;
	}
	/* LogFile.completed, committed: the last record read is a valid
	 * COMMIT or ABORT */
	out->completed = last_read > 0 && last_valid &&
		(last_type == BC_TXN_COMMIT || last_type == BC_TXN_ABORT);
	out->committed = out->completed && last_type == BC_TXN_COMMIT;

	/*
	 * LogAwareFileLister.classifyFiles: the files of the valid records
	 * (LogFile.getFilesOfType filters LogRecord::isValid) that REMOVE, when
	 * committed, else that ADD, are temporary (setTemporary)
	 */
	p = data;
	for (lineno = 1; lineno <= last_read && next_line(&p, end, &line, &llen, &cut); lineno++)
	{
		if (bc_txn_record_parse(line, llen, &r) != BC_OK ||
			r.type != (out->committed ? BC_TXN_REMOVE : BC_TXN_ADD) || r.base_len == 0)
			continue;
		/* (when readRecords failed, the record it faulted is a COMMIT or
		 * ABORT, and the others' CRCs were not checked) */
		if (!read_failed && r.checksum != (int64_t) bc_txn_record_checksum(&r))
			continue;
		sstable(arg, out->committed, r.base, r.base_len);
	}
}
