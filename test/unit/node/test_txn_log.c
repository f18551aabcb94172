/*
 * test_txn_log.c - transaction log records, their CRCs, whole logs as
 * Cassandra verifies and applies them, and log names (bc_txn_log.c).
 *
 * The records are lines in the form Cassandra's LogRecord.format writes
 * them; the malformed ones are every cut of a good record and lines with
 * one field wrong.  The CRCs were computed apart from bloomcass, with
 * Python's zlib.crc32 over what LogRecord.computeChecksum feeds CRC32:
 *
 *   kept_t = t if type == 'REMOVE' else 0
 *   kept_n = n if type in ('ADD', 'REMOVE') else 0
 *   path = path if type in ('ADD', 'REMOVE') else ''
 *   zlib.crc32(path.encode('utf-8') + type.encode()
 *              + struct.pack('>III', kept_t & 0xffffffff,
 *                            (kept_t >> 32) & 0xffffffff, kept_n & 0xffffffff))
 *
 * and COMMIT:[,0,0][2613697770] is the COMMIT record every real log ends
 * with.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_status.h"
#include "bc_txn_log.h"
#include "unit.h"

static void
check_record(const char *line, bc_txn_type type, const char *base)
{
	bc_txn_record r;
	bc_status	st = bc_txn_record_parse(line, strlen(line), &r);

	CHECK(st == BC_OK, "record \"%s\": %s", line, bc_status_message(st));
	if (st != BC_OK)
		return;
	CHECK(r.type == type, "record \"%s\": type %d", line, (int) r.type);
	if (base == NULL)
		CHECK(r.base == NULL && r.base_len == 0, "record \"%s\": has a path", line);
	else
		CHECK(r.base_len == strlen(base) && memcmp(r.base, base, r.base_len) == 0,
			  "record \"%s\": base \"%.*s\", expected \"%s\"", line, (int) r.base_len,
			  r.base ? r.base : "", base);
}

static void
check_bad(const char *line, size_t len)
{
	bc_txn_record r;

	CHECK(bc_txn_record_parse(line, len, &r) == BC_ERR_TXN_RECORD,
		  "accepted \"%.*s\"", (int) len, line);
}

/* what bc_txn_log_scan reports, as text: "<verdict> <fault> <line>[ cut]
 * [completed|committed] | T:base O:base ..." */
typedef struct scan_out
{
	char		text[512];
} scan_out;

static void
scan_sstable(void *arg, int obsolete, const char *base, size_t len)
{
	scan_out   *o = arg;
	size_t		n = strlen(o->text);

	snprintf(o->text + n, sizeof(o->text) - n, " %s:%.*s", obsolete ? "O" : "T", (int) len, base);
}

static void
scan_text(const char *log, size_t len, scan_out *o)
{
	static const char *const verdicts[] = {"verified", "last_invalid", "corrupt", "unreadable"};
	static const char *const faults[] = {"-", "syntax", "checksum", "repeated", "not_last",
	"encoding", "too_large"};
	size_t		size = bc_txn_log_scratch_size(log, len);
	void	   *scratch = malloc(size);
	bc_txn_log_result r;
	char		tail[256];

	o->text[0] = '\0';
	bc_txn_log_scan(log, len, scratch, scan_sstable, o, &r);
	free(scratch);
	memcpy(tail, o->text, sizeof(tail) - 1);
	tail[sizeof(tail) - 1] = '\0';
	snprintf(o->text, sizeof(o->text), "%s %s %ld%s%s |%s", verdicts[r.verdict], faults[r.fault],
			 r.lineno, r.cut ? " cut" : "",
			 r.committed ? " committed" : r.completed ? " completed" : "", tail);
}

static void
check_scan(const char *log, const char *want)
{
	scan_out	o;

	scan_text(log, strlen(log), &o);
	CHECK(strcmp(o.text, want) == 0, "scan of \"%s\":\n     got  \"%s\"\n     want \"%s\"", log, o.text, want);
}

/* a record's CRC, computed apart (see the top) */
static void
check_crc(const char *line, uint32_t want)
{
	bc_txn_record r;
	bc_status	st = bc_txn_record_parse(line, strlen(line), &r);

	CHECK(st == BC_OK && bc_txn_record_checksum(&r) == want,
		  "CRC of \"%s\": %s %lu, expected %lu", line, bc_status_message(st),
		  st == BC_OK ? (unsigned long) bc_txn_record_checksum(&r) : 0UL, (unsigned long) want);
}

/* records of a table folder with their real CRCs; ...X: the same with a
 * wrong one */
#define D "/var/lib/cassandra/data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d"
#define A4 "ADD:[" D "/nb-4-big,0,8][353324191]"
#define A4X "ADD:[" D "/nb-4-big,0,8][353324192]"
#define A5 "ADD:[" D "/nb-5-big,0,8][1885894617]"
#define A6 "ADD:[" D "/nb-6-big,0,8][3753982483]"
#define A6X "ADD:[" D "/nb-6-big,0,8][1]"
#define R3 "REMOVE:[" D "/nb-3-big,1700000000000,8][3158508435]"
#define R3X "REMOVE:[" D "/nb-3-big,1700000000001,8][3158508435]"
#define R2 "REMOVE:[" D "/nb-2-big,1700000000000,8][657516871]"
#define CM "COMMIT:[,0,0][2613697770]"
#define CMX "COMMIT:[,0,0][2613697771]"
#define AB "ABORT:[,0,0][737437348]"

/* many distinct records with real CRCs, then the first again: read in
 * O(n log n), stopped at the repeat */
static void
check_many(void)
{
	size_t		n = 100000,
				i,
				len = 0,
				first;
	char	   *log = malloc(n * 64 + 128);
	scan_out	o;

	for (i = 0; i < n; i++)
	{
		char		line[64];
		bc_txn_record r;

		snprintf(line, sizeof(line), "ADD:[/d/nb-%zu-big,0,8][0]", i + 1);
		bc_txn_record_parse(line, strlen(line), &r);
		len += (size_t) sprintf(log + len, "ADD:[/d/nb-%zu-big,0,8][%lu]\n", i + 1,
								(unsigned long) bc_txn_record_checksum(&r));
	}
	first = (size_t) (strchr(log, '\n') - log) + 1;
	memcpy(log + len, log, first);
	len += first;
	scan_text(log, len, &o);
	CHECK(strncmp(o.text, "verified", 8) != 0 &&
		  strncmp(o.text, "corrupt repeated 100001 | T:nb-1-big T:nb-2-big ", 48) == 0,
		  "many: %.80s", o.text);
	free(log);
}

void
suite_txn_log(void)
{
	static const char *good =
		"ADD:[/var/lib/cassandra/data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/nb-12-big,0,8][2913358812]";
	static const char *bad[] = {
		"", "ADD", "ADD:", "ADD:[]", "ADD:[/x/nb-1-big,0][1]",
		"ADD:[/x/nb-1-big,0,8,9][1]", "ADD:[/x/nb-1-big,a,8][1]",
		"ADD:[/x/nb-1-big,0,8][x]", "ADD:[/x/nb-1-big,0,8]", "ADD:[/x/nb-1-big,0,8][1]x",
		"INSERT:[a,0,0][1]", "ADD [/x/nb-1-big,0,8][1]", "ADDD:[/x/nb-1-big,0,8][1]",
		/* Long.parseLong / Integer.parseInt refuse these numbers */
		"ADD:[nb-6-big,0,8][]", "ADD:[/x/nb-1-big,,8][1]", "ADD:[/x/nb-1-big,-,8][1]",
		"ADD:[/x/nb-1-big,0,][1]", "ADD:[/x/nb-1-big,9223372036854775808,8][1]",
		"ADD:[/x/nb-1-big,-9223372036854775809,8][1]", "ADD:[/x/nb-1-big,0,2147483648][1]",
		"ADD:[/x/nb-1-big,0,8][9223372036854775808]", "ADD:[/x/nb-1-big,0,8][-1]",
		"ADD:[/x/nb-1-big,0,8][+1]", "ADD:[/x/nb-1-big, 0,8][1]", "ADD:[/x/nb-1-big,0,8][1 ]",
		"COMMIT:[,0,x][1]", "ADD:[/x/nb-1-big,0,8][1]]",
	};
	size_t		i;
	bc_txn_record r;

	check_record(good, BC_TXN_ADD, "nb-12-big");
	check_record("remove:[/d/ks/t/nb-3-big,1700000000000,9][12]", BC_TXN_REMOVE, "nb-3-big");
	check_record("REMOVE:[/d/ks/t/ks-t-ka-3,1700000000000,9][12]\r", BC_TXN_REMOVE, "ks-t-ka-3");
	check_record("ADD:[C:\\data\\ks\\t\\nb-4-big,0,8][5]", BC_TXN_ADD, "nb-4-big");
	check_record("ADD:[/d/nb-5-big-,0,8][5]", BC_TXN_ADD, "nb-5-big");
	/* what LogRecord.make also takes: signs (Long.parseLong,
	 * Integer.parseInt), brackets in the path ([^,]*), a COMMIT's path
	 * (not kept), the largest numbers, a path that names no SSTable */
	check_record("ADD:[/x/nb-1-big,0,-8][1]", BC_TXN_ADD, "nb-1-big");
	check_record("REMOVE:[/d/nb-8-big,+1700000000000,+9][5]", BC_TXN_REMOVE, "nb-8-big");
	check_record("ADD:[/d/a]b[c/nb-7-big,0,8][5]", BC_TXN_ADD, "nb-7-big");
	check_record("COMMIT:[/x/nb-1-big,0,0][1]", BC_TXN_COMMIT, NULL);
	check_record("ADD:[/d/nb-9-big,-9223372036854775808,2147483647][9223372036854775807]",
				 BC_TXN_ADD, "nb-9-big");
	check_record("ADD:[/d/nb-9-big,0,-2147483648][0000000000000000000000001]",
				 BC_TXN_ADD, "nb-9-big");
	check_record("COMMIT:[,1700000000000,0][2613697770]", BC_TXN_COMMIT, NULL);
	check_record("Abort:[,0,0][1]", BC_TXN_ABORT, NULL);
	check_record("ADD:[/d/3fw2_0tj4_46w3k2cpidnirvjy7k-big,0,8][1]", BC_TXN_ADD,
				 "3fw2_0tj4_46w3k2cpidnirvjy7k-big");
	check_record("ADD:[,0,8][1]", BC_TXN_ADD, "");
	check_record("ADD:[/x/,0,8][1]", BC_TXN_ADD, "");
	check_record("ADD:[/x/-,0,8][1]", BC_TXN_ADD, "");

	/* the numbers, as Long.parseLong and Integer.parseInt give them */
	CHECK(bc_txn_record_parse("REMOVE:[/d/nb-9-big,-9223372036854775808,-2147483648][0042]",
							strlen("REMOVE:[/d/nb-9-big,-9223372036854775808,-2147483648][0042]"), &r) == BC_OK &&
		  r.update_time == INT64_MIN && r.num_files == INT32_MIN && r.checksum == 42 &&
		  r.path_len == 11, "numbers: %lld %d %lld", (long long) r.update_time, (int) r.num_files,
		  (long long) r.checksum);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		check_bad(bad[i], strlen(bad[i]));
	/* every proper prefix of a good record */
	for (i = 0; i < strlen(good); i++)
		check_bad(good, i);

	/*
	 * LogRecord.computeChecksum: the path, the type in capitals, then the
	 * update time (REMOVE only) and the file count (ADD, REMOVE only)
	 */
	check_crc(CM, 2613697770u);
	check_crc("COMMIT:[,1700000000000,0][0]", 2613697770u);	/* time not kept */
	check_crc("commit:[/x/nb-1-big,5,7][0]", 2613697770u);	/* nor path, count */
	check_crc(AB, 737437348u);
	check_crc(A4, 353324191u);
	check_crc("ADD:[" D "/nb-4-big,1700000000000,8][0]", 353324191u);
	check_crc("add:[" D "/nb-4-big,0,+8][0]", 353324191u);
	check_crc(R3, 3158508435u);
	check_crc(R2, 657516871u);
	check_crc("REMOVE:[" D "/nb-3-big,-1,8][0]", 431768755u);
	check_crc("ADD:[/d/\xc3\xa9/nb-7-big,0,8][0]", 1119087126u);	/* UTF-8 */
	check_crc("ADD:[,0,8][0]", 2401872023u);
	check_crc("REMOVE:[/d/nb-9-big,9223372036854775807,2147483647][0]", 490553763u);
	check_crc("REMOVE:[/d/nb-9-big,-9223372036854775808,-2147483648][0]", 3715201094u);

	CHECK(bc_txn_log_name("nb_txn_compaction_6a3b3f20-9a94-11e8-a0e6-e9a8e4bb7a4d.log", 58),
		  "compaction log name");
	CHECK(bc_txn_log_name("ma_txn_flush_1.log", 18), "flush log name");
	CHECK(!bc_txn_log_name("nb-1-big-Data.db", 16), "a component is not a log");
	CHECK(!bc_txn_log_name("_txn_x.log", 10), "no version");
	/* 5.0's LogFile.FILE_REGEX: an optional format prefix, or none */
	CHECK(bc_txn_log_name("txn_compaction_1.log", 20), "no version (5.0)");
	CHECK(bc_txn_log_name("bti-da_txn_flush_1.log", 22), "format prefix (5.0)");
	CHECK(!bc_txn_log_name("abc_txn_flush_1.log", 19), "three-letter version");
	CHECK(!bc_txn_log_name("nb_txn_flush.log", 16), "no '_' after the operation");
	CHECK(!bc_txn_log_name("nb_txn_compaction_1.txt", 23), "not .log");
	CHECK(!bc_txn_log_name("a/nb_txn_x_1.log", 16), "a path");

	/* whole logs that verify: committed, unfinished, aborted, empty */
	check_scan(A4 "\n" R3 "\n" R2 "\n" CM "\n", "verified - 0 committed | O:nb-3-big O:nb-2-big");
	check_scan(A4 "\n" R3 "\n", "verified - 0 | T:nb-4-big");
	check_scan(A4 "\n" AB "\n", "verified - 0 completed | T:nb-4-big");
	check_scan("", "verified - 0 |");
	/* lines end at \n, \r or \r\n (Files.readAllLines); the last needs none */
	check_scan(A4 "\r" R3 "\r\n" CM "\r", "verified - 0 committed | O:nb-3-big");
	check_scan(A4 "\n" R3 "\n" CM, "verified - 0 committed | O:nb-3-big");

	/*
	 * LogFile.verify: an invalid last record alone (a bad CRC, a line cut
	 * short, an empty line) verifies, the operation unfinished, the
	 * record not applied (LogFile.getFilesOfType takes valid ones only)
	 */
	check_scan(A4 "\n" R3 "\n" CMX "\n", "last_invalid checksum 3 | T:nb-4-big");
	check_scan(A4 "\n" A6X "\n", "last_invalid checksum 2 | T:nb-4-big");
	check_scan(A4 "\n" R3 "\nCOMM", "last_invalid syntax 3 cut | T:nb-4-big");
	check_scan(A4 "\n" R3 "\nCOMMIT:[,0,0][26136", "last_invalid syntax 3 cut | T:nb-4-big");
	check_scan(A4 "\n\n", "last_invalid syntax 2 | T:nb-4-big");
	check_scan("\n", "last_invalid syntax 1 |");

	/*
	 * An invalid record before the last fails the log; Cassandra's listing
	 * (OnTxnErr.IGNORE) applies its valid records all the same, completed
	 * by a valid last COMMIT
	 */
	check_scan(A4X "\n" A5 "\n" R3 "\n" CM "\n", "corrupt checksum 1 committed | O:nb-3-big");
	check_scan(A4 "\n" A6X "\n" A5 "\n", "corrupt checksum 2 | T:nb-4-big T:nb-5-big");
	check_scan(A4 "\n" R3X "\n" CM "\n", "corrupt checksum 2 committed |");
	check_scan(A4 "\ngarbage\n" R3 "\n" CM "\n", "corrupt syntax 2 committed | O:nb-3-big");
	check_scan(A4 "\n" R3 "\nCOMM\n" CM "\n", "corrupt syntax 3 committed | O:nb-3-big");

	/*
	 * LogReplicaSet.readRecords stops at a record equal to an earlier one
	 * (LogRecord.equals: type, path, kept numbers; every line that is not
	 * a record equals another) and at a COMMIT or ABORT before the last
	 * line, and the CRCs are then not checked: the records read before
	 * are applied (the CRC of A4X too)
	 */
	check_scan(A4 "\n" A4 "\n" CM "\n", "corrupt repeated 2 | T:nb-4-big");
	check_scan(A4 "\nADD:[" D "/nb-4-big,99,8][0]\n" CM "\n", "corrupt repeated 2 | T:nb-4-big");
	check_scan(A4X "\n" R3 "\n" A5 "\n" R3X "\n", "corrupt checksum 1 | T:nb-5-big");
	check_scan(A4 "\nx\n" R3 "\ny\n" CM "\n", "corrupt repeated 4 | T:nb-4-big");
	check_scan(A4 "\n" CM "\n" R3 "\n", "corrupt not_last 2 | T:nb-4-big");
	check_scan(A4X "\n" AB "\n" AB "\n", "corrupt not_last 2 | T:nb-4-big");
	check_scan(A4 "\n" CM "\n" CM "\n", "corrupt not_last 2 | T:nb-4-big");
	check_scan(A4 "\n" R3 "\n" A4 "\n" CM "\n" R2 "\n", "corrupt repeated 3 | T:nb-4-big");
	check_scan(CM "\n" CM "\n", "corrupt not_last 1 |");

	/* FileUtils.readLines: bytes that are not UTF-8 (Java's decoder) fail
	 * the whole read: nothing is applied */
	check_scan(A4 "\nADD:[/d/\xe9/nb-7-big,0,8][0]\n" CM "\n", "unreadable encoding 2 |");
	check_scan(A4 "\n" CM "\n\xc0\xaf", "unreadable encoding 3 |");	/* overlong */
	check_scan(A4 "\nADD:[/d/\xed\xa0\x80,0,8][0]\n", "unreadable encoding 2 |");	/* surrogate */
	check_scan(A4 "\nADD:[/d/\xf4\x90\x80\x80,0,8][0]\n", "unreadable encoding 2 |");
	check_scan(A4 "\n" R3 "\n\xe2\x82", "unreadable encoding 3 |");	/* cut */
	check_scan("ADD:[/d/\xf0\x9f\x98\x80/nb-7-big,0,8][0]\n", "last_invalid checksum 1 |");
	{
		scan_out	o;

		scan_text("x", BC_TXN_LOG_MAX_BYTES + 1, &o);
		CHECK(strcmp(o.text, "unreadable too_large 0 |") == 0, "too large: %s", o.text);
	}
	check_many();
}
