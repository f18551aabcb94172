/*
 * test_txn_log.c - transaction log records and names (bc_txn_log.c).
 *
 * The records are lines in the form Cassandra's LogRecord.format writes
 * them; the malformed ones are every cut of a good record and lines with
 * one field wrong.
 */
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

/* what bc_txn_log_scan reports, as text: "T:base " / "O:base " / "bad:n " */
typedef struct scan_out
{
	char		text[512];
} scan_out;

static void
scan_sstable(void *arg, int obsolete, const char *base, size_t len)
{
	scan_out   *o = arg;
	size_t		n = strlen(o->text);

	snprintf(o->text + n, sizeof(o->text) - n, "%s:%.*s ", obsolete ? "O" : "T", (int) len, base);
}

static void
scan_bad(void *arg, long lineno)
{
	scan_out   *o = arg;
	size_t		n = strlen(o->text);

	snprintf(o->text + n, sizeof(o->text) - n, "bad:%ld ", lineno);
}

static void
check_scan(const char *log, const char *want)
{
	scan_out	o;

	o.text[0] = '\0';
	bc_txn_log_scan(log, strlen(log), scan_sstable, scan_bad, &o);
	CHECK(strcmp(o.text, want) == 0, "scan of \"%s\": \"%s\", expected \"%s\"", log, o.text, want);
}

void
suite_txn_log(void)
{
	static const char *good =
		"ADD:[/var/lib/cassandra/data/ks/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d/nb-12-big,0,8][2913358812]";
	static const char *bad[] = {
		"", "ADD", "ADD:", "ADD:[]", "ADD:[,0,8][1]", "ADD:[/x/nb-1-big,0][1]",
		"ADD:[/x/nb-1-big,0,8,9][1]", "ADD:[/x/nb-1-big,a,8][1]",
		"ADD:[/x/nb-1-big,0,8][x]", "ADD:[/x/nb-1-big,0,8]", "ADD:[/x/nb-1-big,0,8][1]x",
		"ADD:[/x/,0,8][1]", "ADD:[/x/-,0,8][1]", "INSERT:[a,0,0][1]",
		"ADD [/x/nb-1-big,0,8][1]", "ADDD:[/x/nb-1-big,0,8][1]",
		/* Long.parseLong / Integer.parseInt refuse these numbers */
		"ADD:[nb-6-big,0,8][]", "ADD:[/x/nb-1-big,,8][1]", "ADD:[/x/nb-1-big,-,8][1]",
		"ADD:[/x/nb-1-big,0,][1]", "ADD:[/x/nb-1-big,9223372036854775808,8][1]",
		"ADD:[/x/nb-1-big,-9223372036854775809,8][1]", "ADD:[/x/nb-1-big,0,2147483648][1]",
		"ADD:[/x/nb-1-big,0,8][9223372036854775808]", "ADD:[/x/nb-1-big,0,8][-1]",
		"ADD:[/x/nb-1-big,0,8][+1]", "ADD:[/x/nb-1-big, 0,8][1]", "ADD:[/x/nb-1-big,0,8][1 ]",
		"COMMIT:[,0,x][1]", "ADD:[/x/nb-1-big,0,8][1]]",
	};
	size_t		i;

	check_record(good, BC_TXN_ADD, "nb-12-big");
	check_record("remove:[/d/ks/t/nb-3-big,1700000000000,9][12]", BC_TXN_REMOVE, "nb-3-big");
	check_record("REMOVE:[/d/ks/t/ks-t-ka-3,1700000000000,9][12]\r", BC_TXN_REMOVE, "ks-t-ka-3");
	check_record("ADD:[C:\\data\\ks\\t\\nb-4-big,0,8][5]", BC_TXN_ADD, "nb-4-big");
	check_record("ADD:[/d/nb-5-big-,0,8][5]", BC_TXN_ADD, "nb-5-big");
	/* what LogRecord.make also takes: signs (Long.parseLong,
	 * Integer.parseInt), brackets in the path ([^,]*), a COMMIT's path
	 * (not kept), the largest numbers */
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

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		check_bad(bad[i], strlen(bad[i]));
	/* every proper prefix of a good record */
	for (i = 0; i < strlen(good); i++)
		check_bad(good, i);

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

	/* whole logs: committed, unfinished, aborted, bad and cut lines */
	check_scan("ADD:[/d/nb-4-big,0,8][1]\nREMOVE:[/d/nb-3-big,1,8][2]\nREMOVE:[/d/nb-2-big,1,8][3]\nCOMMIT:[,1,0][4]\n",
			   "O:nb-3-big O:nb-2-big ");
	check_scan("ADD:[/d/nb-4-big,0,8][1]\nREMOVE:[/d/nb-3-big,1,8][2]\n", "T:nb-4-big ");
	check_scan("ADD:[/d/nb-4-big,0,8][1]\nABORT:[,1,0][4]\n", "T:nb-4-big ");
	check_scan("ADD:[/d/nb-4-big,0,8][1]\ngarbage\n\nREMOVE:[/d/nb-3-big,1,8][2]\nCOMMIT:[,1,0][4]\nCOMM",
			   "bad:2 bad:3 O:nb-3-big ");
	/* lines end at \n, \r or \r\n (Files.readAllLines) */
	check_scan("ADD:[/d/nb-4-big,0,8][1]\rREMOVE:[/d/nb-3-big,1,8][2]\r\nCOMMIT:[,1,0][4]\r",
			   "O:nb-3-big ");
	check_scan("ADD:[/d/nb-4-big,0,8][1]\nCOMMIT:[,1,0][4", "T:nb-4-big ");
	check_scan("", "");
	check_scan("\n\n", "bad:1 bad:2 ");
}
