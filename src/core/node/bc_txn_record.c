/*
 * bc_txn_record.c - one record of Cassandra's transaction logs (3.0 and
 * later; LogRecord in org.apache.cassandra.db.lifecycle): the parse of one
 * line and the record's CRC.  The log as a whole - its lines, the order
 * of its records, its verification and the SSTables it takes out of the
 * table - is bc_txn_log.c.
 *
 * Each line of a log is one record (LogRecord.format):
 *
 *   ADD:[<absolute path of the SSTable prefix>,<update time>,<files>][<crc>]
 *   REMOVE:[...same...][<crc>]
 *   COMMIT:[,<time>,0][<crc>]       or       ABORT:[,<time>,0][<crc>]
 *
 * the type in any case, the path without the final '-' of the prefix.  A
 * line is a record when LogRecord.make parses it (bc_txn_record_parse), and
 * a valid one when its CRC is LogRecord.computeChecksum's
 * (bc_txn_record_checksum, which LogFile.verifyRecord compares).  The lines
 * given here are UTF-8: bc_txn_log.c reads no other log, as
 * FileUtils.readLines reads none.  Each check below names the one it
 * mirrors.
 */
#include <stdint.h>
#include <string.h>

#include <zlib.h>

#include "bc_endian.h"
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
 * an optional sign, one or more digits, within [min, max]; its value into
 * *out.  (Java's parsers also take non-ASCII Unicode digits, which no
 * writer writes: refused.)
 */
static int
java_integer(const char *s, size_t len, int64_t min, int64_t max, int64_t *out)
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
	/* -v without overflowing at INT64_MIN */
	*out = neg ? (v == 0 ? 0 : -(int64_t) (v - 1) - 1) : (int64_t) v;
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
 * brackets: the CRC is the last bracketed group.  (On a line that is
 * UTF-8, as every line read is, bytes match as Java's chars do: no byte of
 * a multi-byte character is ',', '[', ']' or a digit.)
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
	int64_t		files;

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
		!java_integer(crc, (size_t) (line + len - 1 - crc), 0, INT64_MAX, &out->checksum))
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
	if (!java_integer(f[1], flen[1], INT64_MIN, INT64_MAX, &out->update_time) ||
		!java_integer(f[2], flen[2], INT32_MIN, INT32_MAX, &files))
		return BC_ERR_TXN_RECORD;
	out->num_files = (int32_t) files;

	if (out->type == BC_TXN_ADD || out->type == BC_TXN_REMOVE)
	{
		const char *base = f[0];

		/* the path as LogRecord.make keeps it (group 2); an empty one
		 * too, which names no SSTable */
		out->path = f[0];
		out->path_len = flen[0];
		/* the SSTable's prefix: the last path element ('/' or '\') */
		for (i = 0; i < flen[0]; i++)
			if (f[0][i] == '/' || f[0][i] == '\\')
				base = f[0] + i + 1;
		out->base = base;
		out->base_len = (size_t) (f[0] + flen[0] - base);
		/* a '-' ending the prefix (LogRecord.absolutePath removes the one
		 * it adds before writing: CASSANDRA-13294) */
		if (out->base_len > 0 && out->base[out->base_len - 1] == '-')
			out->base_len--;
	}
	/* COMMIT and ABORT: the LogRecord constructor keeps no path
	 * (absolutePath is empty for them), so whatever the field holds is
	 * ignored */
	return BC_OK;
}

/*
 * The numbers a record keeps: the LogRecord constructor keeps the update
 * time of a REMOVE only and the file count of an ADD or REMOVE only (0
 * otherwise, whatever the line says).  Both its CRC and its equality to
 * another record (bc_txn_log.c) are of these.
 */
int64_t
bc_txn_record_kept_time(const bc_txn_record *r)
{
	return r->type == BC_TXN_REMOVE ? r->update_time : 0;
}

int32_t
bc_txn_record_kept_files(const bc_txn_record *r)
{
	return (r->type == BC_TXN_ADD || r->type == BC_TXN_REMOVE) ? r->num_files : 0;
}

/*
 * LogRecord.computeChecksum: java.util.zip.CRC32 (zlib's crc32) over the
 * path as kept (absolutePath less its final separator: the path written,
 * group 2; empty for COMMIT and ABORT) in UTF-8 (FileUtils.CHARSET: the
 * line's own bytes), the type's name in capitals (Type.toString, whatever
 * case the line has), then the update time's low and high 32 bits and the
 * file count, each as FBUtilities.updateChecksumInt adds an int: 4 bytes,
 * big-endian.  (The value is masked with Long.MAX_VALUE: no change to a
 * 32-bit one.)
 */
uint32_t
bc_txn_record_checksum(const bc_txn_record *r)
{
	static const char *const names[] = {"ADD", "REMOVE", "COMMIT", "ABORT"};
	uLong		c = crc32(0L, Z_NULL, 0);
	uint64_t	t = (uint64_t) bc_txn_record_kept_time(r);
	uint8_t		ints[12];

	if (r->type == BC_TXN_ADD || r->type == BC_TXN_REMOVE)
	{
		const char *p = r->path;
		size_t		n = r->path_len;

		/* zlib counts in uInt: pieces of at most 1 GB */
		while (n > 0)
		{
			uInt		piece = n > ((size_t) 1 << 30) ? (uInt) 1 << 30 : (uInt) n;

			c = crc32(c, (const Bytef *) p, piece);
			p += piece;
			n -= piece;
		}
	}
	c = crc32(c, (const Bytef *) names[r->type], (uInt) strlen(names[r->type]));
	bc_put_be32(ints, (uint32_t) t);
	bc_put_be32(ints + 4, (uint32_t) (t >> 32));
	bc_put_be32(ints + 8, (uint32_t) bc_txn_record_kept_files(r));
	c = crc32(c, ints, sizeof(ints));
	return (uint32_t) c;
}
