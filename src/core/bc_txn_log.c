/*
 * bc_txn_log.c - Cassandra's transaction logs (3.0 and later).
 *
 * An operation that writes or replaces SSTables (flush, compaction,
 * streaming, ...) keeps a log beside them in the table folder, named
 * <version>_txn_<operation>_<uuid>.log (LogFile in
 * org.apache.cassandra.db.lifecycle).  Each line is one record
 * (LogRecord.format):
 *
 *   ADD:[<absolute path of the SSTable prefix>,<update time>,<files>][<crc>]
 *   REMOVE:[...same...][<crc>]
 *   COMMIT:[,<time>,0][<crc>]       or       ABORT:[,<time>,0][<crc>]
 *
 * the type in any case, the path without the final '-' of the prefix.  When
 * the log ends with COMMIT the SSTables it REMOVEs are obsolete (their
 * files are deleted next); otherwise (ABORT, or no final record: the
 * operation was cut short) the SSTables it ADDs are, and Cassandra deletes
 * them at startup.  Either way they are not part of the table.
 *
 * The reader is Cassandra's alone (ScyllaDB keeps no such logs: its
 * unfinished SSTables have a TemporaryTOC.txt): LogFile.make and
 * LogReplicaSet.readRecords read the lines (FileUtils.readLines,
 * Files.readAllLines: a line ends at \n, \r or \r\n), LogRecord.make
 * parses each (LogRecord.REGEX, then Long.parseLong, Integer.parseInt),
 * LogFile.verify checks them.  Each check below names the one it mirrors.
 * Only the record syntax is read here; the CRC is not verified
 * (LogFile.verifyRecord does: a record whose CRC does not match is invalid,
 * which makes a log whose last record it is unfinished and any other log
 * unreadable), nor are the order rules of readRecords (a COMMIT or ABORT
 * must be the last line, no record twice): a log is taken as committed
 * when any line is a COMMIT record.
 */
#include <stdint.h>
#include <string.h>

#include "bc_status.h"
#include "bc_txn_log.h"

static int
lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

static int
prefix_ci(const char *s, size_t len, const char *word)
{
	size_t		n = strlen(word);
	size_t		i;

	if (len < n)
		return 0;
	for (i = 0; i < n; i++)
		if (lower(s[i]) != word[i])
			return 0;
	return 1;
}

/*
 * A decimal Java long or int as Long.parseLong / Integer.parseInt read it:
 * an optional sign, one or more digits, within [min, max].  (Java's parsers
 * also take non-ASCII Unicode digits, which no writer writes: refused.)
 */
static int
java_integer(const char *s, size_t len, int64_t min, int64_t max)
{
	size_t		i = 0;
	int			neg = 0;
	uint64_t	v = 0,
				limit;

	if (len > 0 && (s[0] == '-' || s[0] == '+'))
	{
		neg = s[0] == '-';
		i = 1;
	}
	if (i == len)
		return 0;				/* NumberFormatException: "" or a sign alone */
	limit = neg ? (uint64_t) (-(min + 1)) + 1 : (uint64_t) max;
	for (; i < len; i++)
	{
		if (s[i] < '0' || s[i] > '9')
			return 0;
		if (v > (limit - (uint64_t) (s[i] - '0')) / 10)
			return 0;			/* out of range: NumberFormatException */
		v = v * 10 + (uint64_t) (s[i] - '0');
	}
	return 1;
}

/*
 * One record, as LogRecord.make reads it: LogRecord.REGEX,
 *
 *   ^(add|remove|commit|abort):\[([^,]*),?([^,]*),?([^,]*)\]\[(\d*)\]$
 *
 * case-insensitive (then Type.fromPrefix), and the groups parsed by
 * Long.parseLong (update time), Integer.parseInt (file count) and
 * Long.parseLong (CRC); a line that does not match or whose numbers do
 * not parse is an UNKNOWN record ("Failed to parse").  The three fields
 * hold no comma; the regex makes the commas optional, but a field left
 * empty then fails its number, so it takes exactly two.  The path may hold
 * brackets: the CRC is the last bracketed group.
 */
bc_status
bc_txn_record_parse(const char *line, size_t len, bc_txn_record *out)
{
	static const struct
	{
		const char *word;
		bc_txn_type type;
	}			types[] = {
		{"add", BC_TXN_ADD}, {"remove", BC_TXN_REMOVE},
		{"commit", BC_TXN_COMMIT}, {"abort", BC_TXN_ABORT}
	};
	const char *p = NULL,
			   *crc,
			   *f[3];
	size_t		flen[3];
	size_t		i,
				wlen = 0,
				inner;
	int			nf;

	memset(out, 0, sizeof(*out));
	/* a line read with its \r (readAllLines would have ended it there) */
	if (len > 0 && line[len - 1] == '\r')
		len--;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
	{
		wlen = strlen(types[i].word);
		if (prefix_ci(line, len, types[i].word) && len > wlen + 1 &&
			line[wlen] == ':' && line[wlen + 1] == '[')
		{
			out->type = types[i].type;
			p = line + wlen + 2;
			break;
		}
	}
	if (p == NULL)
		return BC_ERR_TXN_RECORD;

	/* \]\[(\d*)\]$: the last '[' opens the CRC, a ']' before it closes
	 * the fields; Long.parseLong refuses an empty CRC */
	if (line[len - 1] != ']')
		return BC_ERR_TXN_RECORD;
	crc = line + len - 1;
	while (crc > p && crc[-1] != '[')
		crc--;
	if (crc == p || crc - 1 == p || crc[-2] != ']' ||
		crc[0] == '+' || crc[0] == '-' ||
		!java_integer(crc, (size_t) (line + len - 1 - crc), 0, INT64_MAX))
		return BC_ERR_TXN_RECORD;
	inner = (size_t) (crc - 2 - p);

	/* ([^,]*),?([^,]*),?([^,]*): exactly two commas (see above) */
	nf = 0;
	f[0] = p;
	for (i = 0; i < inner; i++)
	{
		if (p[i] == ',')
		{
			if (nf == 2)
				return BC_ERR_TXN_RECORD;
			flen[nf] = (size_t) (p + i - f[nf]);
			f[++nf] = p + i + 1;
		}
	}
	if (nf != 2)
		return BC_ERR_TXN_RECORD;
	flen[2] = (size_t) (p + inner - f[2]);
	if (!java_integer(f[1], flen[1], INT64_MIN, INT64_MAX) ||
		!java_integer(f[2], flen[2], INT32_MIN, INT32_MAX))
		return BC_ERR_TXN_RECORD;

	if (out->type == BC_TXN_ADD || out->type == BC_TXN_REMOVE)
	{
		const char *base = f[0];

		/*
		 * Not a reader's rule: LogRecord takes an empty path too; but a
		 * record that names no SSTable says nothing bloomcass can use.
		 */
		if (flen[0] == 0)
			return BC_ERR_TXN_RECORD;
		/* the SSTable's prefix: the last path element ('/' or '\') */
		for (i = 0; i < flen[0]; i++)
			if (f[0][i] == '/' || f[0][i] == '\\')
				base = f[0] + i + 1;
		out->path = f[0];
		out->path_len = flen[0];
		out->base = base;
		out->base_len = (size_t) (f[0] + flen[0] - base);
		/* the '-' that ended the path up to 3.0.13 (CASSANDRA-13294:
		 * LogRecord.absolutePath strips it since) */
		if (out->base_len > 0 && out->base[out->base_len - 1] == '-')
			out->base_len--;
		if (out->base_len == 0)
			return BC_ERR_TXN_RECORD;
	}
	/* COMMIT and ABORT: the LogRecord constructor keeps no path
	 * (absolutePath is empty for them), so whatever the field holds is
	 * ignored */
	return BC_OK;
}

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

void
bc_txn_log_scan(const char *data, size_t len,
				void (*sstable) (void *arg, int obsolete, const char *base, size_t base_len),
				void (*bad_line) (void *arg, long lineno), void *arg)
{
	const char *end = data + len;
	const char *p = data;
	const char *line;
	size_t		llen;
	int			cut;
	int			committed = 0;
	long		lineno = 0;
	bc_txn_record r;

	/* first whether it committed, and its bad lines (an empty line too:
	 * LogRecord.make finds no record in it) */
	while (next_line(&p, end, &line, &llen, &cut))
	{
		lineno++;
		if (bc_txn_record_parse(line, llen, &r) != BC_OK)
		{
			if (!cut && bad_line != NULL)
				bad_line(arg, lineno);
		}
		else if (r.type == BC_TXN_COMMIT)
			committed = 1;
	}
	/* then the SSTables it makes not live */
	p = data;
	while (next_line(&p, end, &line, &llen, &cut))
	{
		if (bc_txn_record_parse(line, llen, &r) != BC_OK)
			continue;
		if (committed ? r.type == BC_TXN_REMOVE : r.type == BC_TXN_ADD)
			sstable(arg, committed, r.base, r.base_len);
	}
}
