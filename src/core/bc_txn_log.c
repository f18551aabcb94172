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
 * Only the record syntax is read here; the CRC is not verified (a record
 * whose CRC is wrong is one Cassandra also treats as not written, and the
 * caller treats such a log as unfinished).
 */
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

static int
all_digits(const char *s, size_t len, int allow_empty, int allow_minus)
{
	size_t		i = 0;

	if (len == 0)
		return allow_empty;
	if (allow_minus && s[0] == '-')
		i = 1;
	if (i == len)
		return 0;
	for (; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

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
			   *end,
			   *f[3];
	size_t		flen[3];
	size_t		i,
				wlen = 0;
	int			nf;

	memset(out, 0, sizeof(*out));
	/* a line written on Windows ends in \r */
	if (len > 0 && line[len - 1] == '\r')
		len--;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
	{
		wlen = strlen(types[i].word);
		if (prefix_ci(line, len, types[i].word) && len > wlen && line[wlen] == ':')
		{
			out->type = types[i].type;
			p = line + wlen + 1;
			break;
		}
	}
	if (p == NULL)
		return BC_ERR_TXN_RECORD;
	end = line + len;

	/* [a,b,c][crc] */
	if (p >= end || *p != '[')
		return BC_ERR_TXN_RECORD;
	p++;
	nf = 0;
	f[0] = p;
	while (p < end && *p != ']')
	{
		if (*p == ',')
		{
			if (nf == 2)
				return BC_ERR_TXN_RECORD;
			flen[nf] = (size_t) (p - f[nf]);
			f[++nf] = p + 1;
		}
		p++;
	}
	if (p >= end || nf != 2)
		return BC_ERR_TXN_RECORD;
	flen[2] = (size_t) (p - f[2]);
	p++;
	if (p >= end || *p != '[' || end[-1] != ']' ||
		!all_digits(p + 1, (size_t) (end - 1 - (p + 1)), 1, 0))
		return BC_ERR_TXN_RECORD;
	if (!all_digits(f[1], flen[1], 0, 1) || !all_digits(f[2], flen[2], 0, 0))
		return BC_ERR_TXN_RECORD;

	if (out->type == BC_TXN_ADD || out->type == BC_TXN_REMOVE)
	{
		const char *base = f[0];

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
		/* tolerate the '-' Cassandra strips before writing */
		if (out->base_len > 0 && out->base[out->base_len - 1] == '-')
			out->base_len--;
		if (out->base_len == 0)
			return BC_ERR_TXN_RECORD;
	}
	else if (flen[0] != 0)
		return BC_ERR_TXN_RECORD;
	return BC_OK;
}

/* <version>_txn_<operation>_<uuid>.log */
int
bc_txn_log_name(const char *name, size_t len)
{
	size_t		i;

	if (len < 12 || memcmp(name + len - 4, ".log", 4) != 0)
		return 0;
	for (i = 0; i + 5 <= len - 4; i++)
		if (memcmp(name + i, "_txn_", 5) == 0)
			return i > 0 && memchr(name, '/', len) == NULL;
	return 0;
}

/*
 * The next line of [*p, end), without its newline: 0 at the end.  *cut is
 * set for a last line without a newline (a crash cut it short).
 */
static int
next_line(const char **p, const char *end, const char **line, size_t *len, int *cut)
{
	const char *nl;

	if (*p >= end)
		return 0;
	nl = memchr(*p, '\n', (size_t) (end - *p));
	*line = *p;
	*len = (size_t) ((nl ? nl : end) - *p);
	*cut = nl == NULL;
	*p = nl ? nl + 1 : end;
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

	/* first whether it committed, and its bad lines */
	while (next_line(&p, end, &line, &llen, &cut))
	{
		lineno++;
		if (llen == 0)
			continue;
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
		if (llen == 0 || bc_txn_record_parse(line, llen, &r) != BC_OK)
			continue;
		if (committed ? r.type == BC_TXN_REMOVE : r.type == BC_TXN_ADD)
			sstable(arg, committed, r.base, r.base_len);
	}
}
