/*
 * test_walk.c - the walk of a node's data directories (bc_walk.c) over the
 * in-memory file system of walk_memfs.h: a whole node's folders, the
 * root's odd cases, depth, the tick hook and what else a table folder
 * holds.  Links are test_walk_links.c's, logs and scale test_walk_logs.c's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bc_txn_log.h"
#include "bc_walk.h"
#include "bc_sstable_dir.h"
#include "bc_sstable_name.h"
#include "bc_status.h"
#include "bc_tick.h"
#include "unit.h"
#include "walk_memfs.h"


/* ------------------------------------------------------------------------
 * a node's data directory
 * ------------------------------------------------------------------------ */
#define R "/srv/cassandra/data"
#define KS R "/ks"
#define T KS "/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d"
#define T1 KS "/table1-ea3b3e6b-0d78-4913-89f2-15fcf98711d0"
#define DISK2 "/mnt/disk2/ks2"
#define T2 "t2-0123456789abcdef0123456789abcdef"
#define LOG_COMMITTED "nb_txn_compaction_8c1e110f-d148-11e6-7f7f-7f7f7f7f7f7f.log"
#define LOG_ABORTED "nb_txn_compaction_aaaa1111-d148-11e6-7f7f-7f7f7f7f7f7f.log"
#define LOG_FLUSH "nb_txn_flush_61b4510f-d07f-11e6-7f7f-7f7f7f7f7f7f.log"
#define LOG_STREAM "nb_txn_stream_35c5110f-d46d-11e6-7f7f-7f7f7f7f7f7f.log"
#define LOG_CORRUPT "nb_txn_compaction_cccc2222-d148-11e6-7f7f-7f7f7f7f7f7f.log"
#define LOG_LAST "nb_txn_compaction_dddd3333-d148-11e6-7f7f-7f7f7f7f7f7f.log"
#define LOG_LATIN1 "nb_txn_flush_eeee4444-d07f-11e6-7f7f-7f7f7f7f7f7f.log"
#define OA_GEN "3gad_0m1k_2mxu82r4u0zzb5z4ge"

static void
build_node(memfs *fs)
{
	fsent	   *e,
			   *ks;

	fs_dir(fs, R);
	fs_file(fs, R "/system.log", 10, 1);	/* neither component nor txn log */
	ks = fs_dir(fs, KS);
	fs_dir(fs, T);

	/* listed out of order: the walk sorts */
	fs_file(fs, T "/nb-1-big-TOC.txt", 92, 1001);
	fs_file(fs, T "/nb-2-big-Filter.db", 0, 1002);
	fs_file(fs, T "/nb-1-big-Data.db", 4096, 1000);
	fs_file(fs, T "/nb-10-big-Data.db", 10, 1010);
	fs_file(fs, T "/notes.txt", 5, 1);
	fs_file(fs, T "/nb-1-big-Statistics.db", 5000, 1000);
	fs_file(fs, T "/nb-2-big-Data.db", 20, 1002);
	fs_file(fs, T "/nb-1-big-Filter.db", 16, 1000);
	fs_file(fs, T "/nb-3-big-Data.db", 30, 1003);
	fs_file(fs, T "/nb-1-big-Index.db", 80, 1000);
	fs_file(fs, T "/nb-4-big-Data.db", 40, 1004);
	fs_file(fs, T "/nb-5-big-Index.db", 51, 1005);
	fs_file(fs, T "/nb-5-big-Filter.db", 50, 1005);
	fs_file(fs, T "/tmplink-nb-7-big-Data.db", 70, 1007);
	fs_file(fs, T "/tmp-nb-6-big-Data.db", 60, 1006);
	fs_file(fs, T "/da-8-bti-Rows.db", 82, 1008);
	fs_file(fs, T "/da-8-bti-Data.db", 80, 1008);
	fs_file(fs, T "/da-8-bti-Partitions.db", 81, 1008);
	fs_file(fs, T "/oa-" OA_GEN "-big-Data.db", 90, 1009);
	fs_file(fs, T "/nb-16-big-Data.db", 160, 1016);
	fs_file(fs, T "/nb-9-big-Data.db.bak", 9, 1);	/* two dots */
	fs_file(fs, T "/nb-11-big", 11, 1);	/* no component */
	fs_file(fs, T "/manifest.json", 11, 1);
	fs_add(fs, T "/nb-12-big-Data.db", K_OTHER);	/* a FIFO */
	fs_add(fs, T "/nb-13-big-Data.db", K_GONE);	/* deleted meanwhile */
	fs_error(fs, T "/nb-14-big-Data.db", ERR_ACCES);

	/*
	 * Records as LogRecord.format writes them, with their CRCs (computed
	 * apart, see test_txn_log.c).  A compaction that committed: what it
	 * removed is obsolete, what it added live (the COMMIT's time is not
	 * kept, nor in its CRC).
	 */
	fs_log(fs, T "/" LOG_COMMITTED,
		   "ADD:[" T "/nb-4-big,0,8][1754035493]\n"
		   "REMOVE:[" T "/nb-2-big,1700000000000,8][2513227228]\n"
		   "COMMIT:[,1700000000000,0][2613697770]\n");
	/* one that was abandoned: what it added is temporary */
	fs_log(fs, T "/" LOG_ABORTED,
		   "ADD:[" T "/nb-16-big,0,1][3244170344]\n"
		   "ABORT:[,1700000000001,0][737437348]\n");
	/* a flush cut short: a prefix with its '-', a REMOVE of an unfinished
	 * operation (no effect), and a last line cut by the crash (not
	 * reported) */
	fs_log(fs, T "/" LOG_FLUSH,
		   "ADD:[" T "/nb-3-big-,0,8][3864733732]\n"
		   "REMOVE:[" T "/nb-10-big,0,8][4151091548]\n"
		   "ADD:[" T "/nb-1-b");
	/* a CRC wrong before the last record: the log fails verification
	 * (reported); the valid records apply (da-8-bti is temporary), the
	 * invalid one does not (nb-10-big stays live) */
	fs_log(fs, T "/" LOG_CORRUPT,
		   "ADD:[" T "/nb-10-big,0,8][1]\n"
		   "ADD:[" T "/da-8-bti,0,3][3713163277]\n");
	/* a damaged last record, a whole line (reported): the operation is
	 * unfinished, so what it REMOVEs stays live */
	fs_log(fs, T "/" LOG_LAST,
		   "REMOVE:[" T "/nb-10-big,1700000000000,1][901269470]\n"
		   "COMMIT:[,0,0][2613697771]\n");
	/* not UTF-8 (reported): Cassandra cannot read it, nothing applies */
	fs_log(fs, T "/" LOG_LATIN1,
		   "ADD:[" T "/nb-1-big,0,8][1124508986]\n"
		   "\xe9\n");
	/* unreadable: the SSTables it would name stay live */
	fs_log(fs, T "/" LOG_STREAM, NULL);

	/* a secondary index: the parent's logs do not apply to it */
	fs_dir(fs, T "/.t_idx");
	fs_file(fs, T "/.t_idx/nb-3-big-Data.db", 33, 1033);

	e = fs_dir(fs, T "/aaa-flaky");	/* stat'ed once, then fails */
	e->stat_ok = 1;
	e->err = ERR_IO;
	fs_file(fs, T "/aaa-flaky/nb-1-big-Data.db", 1, 1);

	fs_dir(fs, T "/backups");
	fs_file(fs, T "/backups/nb-2-big-Data.db", 22, 1022);

	e = fs_dir(fs, T "/bbb-unlistable");
	e->list_mode = LIST_FAIL;
	fs_file(fs, T "/bbb-unlistable/nb-1-big-Data.db", 1, 1);

	e = fs_dir(fs, T "/ccc-partial");	/* one name, then a read error */
	e->list_mode = LIST_CUT;
	e->list_n = 1;
	fs_file(fs, T "/ccc-partial/nb-20-big-Data.db", 200, 1020);
	fs_file(fs, T "/ccc-partial/nb-21-big-Data.db", 210, 1021);

	e = fs_dir(fs, T "/ddd-partfail");	/* two names, then unreadable */
	e->list_mode = LIST_FAIL;
	e->list_n = 2;
	fs_file(fs, T "/ddd-partfail/nb-1-big-Data.db", 1, 1);
	fs_file(fs, T "/ddd-partfail/nb-1-big-Filter.db", 1, 1);

	fs_link(fs, T "/loop", KS, ks);	/* back up to the keyspace */

	fs_dir(fs, T "/snapshots");
	fs_dir(fs, T "/snapshots/s1");
	fs_file(fs, T "/snapshots/s1/nb-1-big-Filter.db", 17, 900);
	fs_file(fs, T "/snapshots/s1/tmp-nb-6-big-Data.db", 61, 901);
	fs_file(fs, T "/snapshots/s1/nb-1-big-Data.db", 4097, 900);
	fs_dir(fs, T "/snapshots/s1/.t_idx");
	fs_file(fs, T "/snapshots/s1/.t_idx/nb-3-big-Data.db", 34, 902);

	/* names of 2.1 and before: keyspace and table from the name */
	fs_dir(fs, T "/zzz");
	fs_file(fs, T "/zzz/ks-legacy-tmp-ka-4-Data.db", 400, 1400);
	fs_file(fs, T "/zzz/ks-legacy-ka-3-Index.db", 301, 1300);
	fs_file(fs, T "/zzz/ks-legacy-ka-3-Data.db", 300, 1300);

	fs_dir(fs, T1);
	fs_file(fs, T1 "/me-1-big-Data.db", 500, 1500);

	/* a keyspace on another disk, through a link */
	e = fs_dir(fs, DISK2);
	e->dev = 2;
	fs_link(fs, R "/ks2", DISK2, e);
	fs_dir(fs, DISK2 "/" T2);
	fs_file(fs, DISK2 "/" T2 "/nb-1-big-Data.db", 600, 1600);
}


static const char *const node_active_head =
	"P stat_failed " T "/nb-14-big-Data.db root=0 dir=0 err=13 line=0\n"
	"P txn_corrupt " T "/" LOG_CORRUPT " root=0 dir=0 err=0 line=1: checksum mismatch\n"
	"P txn_last_record " T "/" LOG_LAST " root=0 dir=0 err=0 line=2: checksum mismatch\n"
	"P txn_unreadable " T "/" LOG_LATIN1 " root=0 dir=0 err=0 line=2: not UTF-8\n"
	"R-fail " T "/" LOG_STREAM "\n"
	SS(T "/da-8-bti", "d=da-8-bti v=da g=8 bti ks=ks t=t snap=- temporary "
	   "Data.db:80:1008,Partitions.db:81:1008,Rows.db:82:1008")
	SS(T "/nb-1-big", "d=nb-1-big v=nb g=1 big ks=ks t=t snap=- live "
	   "Data.db:4096:1000,Filter.db:16:1000,Index.db:80:1000,Statistics.db:5000:1000,TOC.txt:92:1001")
	SS(T "/nb-10-big", "d=nb-10-big v=nb g=10 big ks=ks t=t snap=- live Data.db:10:1010")
	SS(T "/nb-16-big", "d=nb-16-big v=nb g=16 big ks=ks t=t snap=- temporary Data.db:160:1016")
	SS(T "/nb-2-big", "d=nb-2-big v=nb g=2 big ks=ks t=t snap=- obsolete "
	   "Data.db:20:1002,Filter.db:0:1002")
	SS(T "/nb-3-big", "d=nb-3-big v=nb g=3 big ks=ks t=t snap=- temporary Data.db:30:1003")
	SS(T "/nb-4-big", "d=nb-4-big v=nb g=4 big ks=ks t=t snap=- live Data.db:40:1004")
	SS(T "/nb-5-big", "d=nb-5-big v=nb g=5 big ks=ks t=t snap=- orphaned "
	   "Filter.db:50:1005,Index.db:51:1005")
	SS(T "/oa-" OA_GEN "-big", "d=oa-" OA_GEN "-big v=oa g=" OA_GEN
	   " big ks=ks t=t snap=- live Data.db:90:1009")
	SS(T "/tmp-nb-6-big", "d=tmp-nb-6-big v=nb g=6 big ks=ks t=t snap=- temporary Data.db:60:1006")
	SS(T "/tmplink-nb-7-big", "d=tmplink-nb-7-big v=nb g=7 big ks=ks t=t snap=- temporary "
	   "Data.db:70:1007")
	SS(T "/.t_idx/nb-3-big", "d=nb-3-big v=nb g=3 big ks=ks t=t.t_idx snap=- live Data.db:33:1033")
	"P stat_failed " T "/aaa-flaky root=0 dir=1 err=5 line=0\n";

static const char *const node_backups =
	SS(T "/backups/nb-2-big", "d=nb-2-big v=nb g=2 big ks=ks t=t snap=- backup Data.db:22:1022");

static const char *const node_middle =
	"L-fail " T "/bbb-unlistable root=0\n"
	"L-cut " T "/ccc-partial\n"
	SS(T "/ccc-partial/nb-20-big", "d=nb-20-big v=nb g=20 big ks=- t=- snap=- live Data.db:200:1020")
	"L-fail " T "/ddd-partfail root=0\n";

static const char *const node_loop =
	"P link_loop " T "/loop root=0 dir=1 err=0 line=0\n";

/*
 * From the table's folder, the keyspace's is not being walked: the link
 * to it is followed, and the loop is the table's folder below it.
 */
static const char *const table_loop =
	"P link_loop " T "/loop/t-5a1c395e9a9411e8a0e6e9a8e4bb7a4d root=0 dir=1 err=0 line=0\n"
	SS(T "/loop/table1-ea3b3e6b-0d78-4913-89f2-15fcf98711d0/me-1-big",
	   "d=me-1-big v=me g=1 big ks=loop t=table1 snap=- live Data.db:500:1500");

static const char *const node_snapshots =
	SS(T "/snapshots/s1/nb-1-big", "d=nb-1-big v=nb g=1 big ks=ks t=t snap=s1 snapshot "
	   "Data.db:4097:900,Filter.db:17:900")
	SS(T "/snapshots/s1/tmp-nb-6-big", "d=tmp-nb-6-big v=nb g=6 big ks=ks t=t snap=s1 snapshot "
	   "Data.db:61:901")
	SS(T "/snapshots/s1/.t_idx/nb-3-big", "d=nb-3-big v=nb g=3 big ks=ks t=t.t_idx snap=s1 snapshot "
	   "Data.db:34:902");

static const char *const node_tail =
	SS(T "/zzz/ks-legacy-ka-3", "d=ks-legacy-ka-3 v=ka g=3 big legacy ks=ks t=legacy snap=- live "
	   "Data.db:300:1300,Index.db:301:1300")
	SS(T "/zzz/ks-legacy-tmp-ka-4", "d=ks-legacy-tmp-ka-4 v=ka g=4 big legacy ks=ks t=legacy snap=- "
	   "temporary Data.db:400:1400")
	SS(T1 "/me-1-big", "d=me-1-big v=me g=1 big ks=ks t=table1 snap=- live Data.db:500:1500")
	SS(R "/ks2/" T2 "/nb-1-big", "d=nb-1-big v=nb g=1 big ks=ks2 t=t2 snap=- live Data.db:600:1600");

/* the sizes of some SSTables' components, looked up while reported */
static int	sizes_seen;

static void
op_sstable_sizes(void *arg, const bc_walk_sstable *s)
{
	op_sstable(arg, s);
	if (strcmp(s->prefix, T "/nb-1-big") == 0)
	{
		CHECK(bc_walk_component_size(s, "Data.db") == 4096 &&
			  bc_walk_component_size(s, "Filter.db") == 16 &&
			  bc_walk_component_size(s, "TOC.txt") == 92 &&
			  bc_walk_component_size(s, "Statistics.db") == 5000 &&
			  bc_walk_component_size(s, "Summary.db") == -1 &&
			  bc_walk_component_size(s, "data.db") == -1, "nb-1-big component sizes");
		CHECK(s->data != NULL && s->data->size == 4096 && s->data->mtime == 1000 &&
			  strcmp(s->data->name, "Data.db") == 0, "nb-1-big data");
		sizes_seen++;
	}
	if (strcmp(s->prefix, T "/nb-2-big") == 0)
	{
		sizes_seen++;
		CHECK(bc_walk_component_size(s, "Filter.db") == 0 &&
			  bc_walk_component_size(s, "Index.db") == -1, "nb-2-big: an empty Filter.db");
	}
	if (strcmp(s->prefix, T "/nb-5-big") == 0)
	{
		sizes_seen++;
		CHECK(s->data == NULL && bc_walk_component_size(s, "Data.db") == -1,
			  "nb-5-big: no Data.db");
	}
}

static void
check_node(void)
{
	memfs		fs;
	char		want[16384];
	int			rc;
	bc_walk_ops sizes_ops = ops;

	fs_init(&fs);
	build_node(&fs);

	rc = run(&fs, R, 1);
	CHECK(rc == 0, "node walk: %d", rc);
	snprintf(want, sizeof(want), "%s%s%s%s%s%s", node_active_head, node_backups,
			 node_middle, node_loop, node_snapshots, node_tail);
	check_out(&fs, want, "node, include_inactive");
	/* R, ks, t, .t_idx, backups, bbb, ccc, ddd, snapshots, s1, s1/.t_idx,
	 * zzz, table1, ks2, t2: not aaa-flaky (stat failed) nor loop */
	CHECK(fs.nlist == 15, "node, include_inactive: %ld folders listed", fs.nlist);
	CHECK(fs.nsstable == 21, "node, include_inactive: %ld SSTables", fs.nsstable);

	rc = run(&fs, R, 0);
	CHECK(rc == 0, "node walk, active only: %d", rc);
	snprintf(want, sizeof(want), "%s%s%s%s", node_active_head, node_middle, node_loop,
			 node_tail);
	check_out(&fs, want, "node, active only");
	CHECK(fs.nlist == 11, "node, active only: %ld folders listed", fs.nlist);
	CHECK(fs.nsstable == 17, "node, active only: %ld SSTables", fs.nsstable);

	/* the same walk from the table's folder: the same SSTables */
	rc = run(&fs, T, 0);
	snprintf(want, sizeof(want), "%s%s%s%s", node_active_head, node_middle, table_loop,
			 SS(T "/zzz/ks-legacy-ka-3", "d=ks-legacy-ka-3 v=ka g=3 big legacy ks=ks t=legacy snap=- live "
				"Data.db:300:1300,Index.db:301:1300")
			 SS(T "/zzz/ks-legacy-tmp-ka-4", "d=ks-legacy-tmp-ka-4 v=ka g=4 big legacy ks=ks t=legacy snap=- "
				"temporary Data.db:400:1400"));
	CHECK(rc == 0, "table walk: %d", rc);
	check_out(&fs, want, "table folder");

	/* sizes while reported */
	sizes_ops.sstable = op_sstable_sizes;
	fs.nalloc = fs.nrelease = 0;
	sizes_seen = 0;
	rc = bc_walk_run(&sizes_ops, &fs, T, 0);
	CHECK(rc == 0 && sizes_seen == 3 && fs.nalloc == fs.nrelease,
		  "component sizes: %d, %d SSTables seen, %ld/%ld", rc, sizes_seen, fs.nalloc,
		  fs.nrelease);
	fs_free(&fs);
}

/* ------------------------------------------------------------------------
 * the root: missing, not a folder, unreadable, and odd spellings
 * ------------------------------------------------------------------------ */
static void
check_roots(void)
{
	memfs		fs;
	fsent	   *e;
	int			rc;

	fs_init(&fs);
	fs_dir(&fs, "/srv");
	fs_file(&fs, "/srv/file.db", 10, 1);
	fs_add(&fs, "/srv/fifo", K_OTHER);
	fs_add(&fs, "/srv/dangling", K_GONE);
	fs_error(&fs, "/srv/locked", ERR_ACCES);
	e = fs_dir(&fs, "/srv/unlistable");
	e->list_mode = LIST_FAIL;
	fs_file(&fs, "/srv/unlistable/nb-1-big-Data.db", 1, 1);
	e = fs_dir(&fs, "/srv/half");	/* two names, then unreadable */
	e->list_mode = LIST_FAIL;
	e->list_n = 2;
	fs_file(&fs, "/srv/half/nb-1-big-Data.db", 1, 1);
	fs_file(&fs, "/srv/half/nb-2-big-Data.db", 2, 1);
	fs_file(&fs, "/srv/half/nb-3-big-Data.db", 3, 1);
	e = fs_dir(&fs, "/srv/cut");	/* two names, then a failed read */
	e->list_mode = LIST_CUT;
	e->list_n = 2;
	fs_file(&fs, "/srv/cut/nb-1-big-Filter.db", 11, 1);
	fs_file(&fs, "/srv/cut/nb-1-big-Data.db", 10, 1);
	fs_file(&fs, "/srv/cut/nb-2-big-Data.db", 20, 1);
	fs_dir(&fs, "/srv/empty");

	rc = run(&fs, "/srv/nope", 1);
	CHECK(rc == -1, "missing root: %d", rc);
	check_out(&fs, "P stat_failed /srv/nope root=1 dir=1 err=2 line=0\n", "missing root");
	rc = run(&fs, "/srv/dangling", 0);
	CHECK(rc == -1, "dangling root: %d", rc);
	check_out(&fs, "P stat_failed /srv/dangling root=1 dir=1 err=2 line=0\n", "dangling root");
	rc = run(&fs, "/srv/locked", 0);
	CHECK(rc == -1, "root stat error: %d", rc);
	check_out(&fs, "P stat_failed /srv/locked root=1 dir=1 err=13 line=0\n", "root stat error");
	rc = run(&fs, "/srv/file.db", 1);
	CHECK(rc == -1, "file as root: %d", rc);
	check_out(&fs, "P not_directory /srv/file.db root=1 dir=1 err=0 line=0\n", "file as root");
	rc = run(&fs, "/srv/fifo", 0);
	CHECK(rc == -1, "FIFO as root: %d", rc);
	check_out(&fs, "P not_directory /srv/fifo root=1 dir=1 err=0 line=0\n", "FIFO as root");

	/* unreadable: the list callback says why (root set), the walk stops */
	rc = run(&fs, "/srv/unlistable", 1);
	CHECK(rc == -1 && fs.nlist == 1, "unlistable root: %d", rc);
	check_out(&fs, "L-fail /srv/unlistable root=1\n", "unlistable root");
	rc = run(&fs, "/srv/half", 1);
	CHECK(rc == -1 && fs.nalloc > 2, "root unreadable after two names: %d, %ld allocations",
		  rc, fs.nalloc);
	check_out(&fs, "L-fail /srv/half root=1\n", "root unreadable after two names");

	/* a read that failed part way keeps the names listed */
	rc = run(&fs, "/srv/cut", 0);
	CHECK(rc == 0, "root cut short: %d", rc);
	check_out(&fs, "L-cut /srv/cut\n"
			  "S /srv/cut/nb-1-big d=nb-1-big v=nb g=1 big ks=srv t=cut snap=- live "
			  "Data.db:10:1,Filter.db:11:1\n", "root cut short");

	rc = run(&fs, "/srv/empty", 1);
	CHECK(rc == 0 && fs.outlen == 0 && fs.nlist == 1, "empty root: %d", rc);
	fs_free(&fs);

	/* "/" and a trailing '/': no doubled '/' in paths */
	fs_init(&fs);
	e = fs_dir(&fs, "/");
	fs_file(&fs, "/nb-1-big-Data.db", 1, 2);
	fs_dir(&fs, "/x");
	fs_file(&fs, "/x/nb-2-big-Data.db", 3, 4);
	fs_link(&fs, "/x/up", "/", e);
	fs_dir(&fs, "/x/.i");
	fs_file(&fs, "/x/.i/nb-3-big-Data.db", 5, 6);
	rc = run(&fs, "/", 0);
	CHECK(rc == 0, "walk of /: %d", rc);
	check_out(&fs,
			  "S /nb-1-big d=nb-1-big v=nb g=1 big ks=- t=- snap=- live Data.db:1:2\n"
			  "S /x/nb-2-big d=nb-2-big v=nb g=2 big ks=- t=x snap=- live Data.db:3:4\n"
			  "S /x/.i/nb-3-big d=nb-3-big v=nb g=3 big ks=- t=x.i snap=- live Data.db:5:6\n"
			  "P link_loop /x/up root=0 dir=1 err=0 line=0\n", "walk of /");
	rc = run(&fs, "/x/", 0);
	CHECK(rc == 0, "walk of /x/: %d", rc);
	check_out(&fs,
			  "S /x/nb-2-big d=nb-2-big v=nb g=2 big ks=- t=x snap=- live Data.db:3:4\n"
			  "S /x/.i/nb-3-big d=nb-3-big v=nb g=3 big ks=- t=x.i snap=- live Data.db:5:6\n",
			  "walk of /x/");
	fs_free(&fs);
}

/* ------------------------------------------------------------------------
 * depth: a chain of 40 folders, one SSTable in each
 * ------------------------------------------------------------------------ */
static void
check_depth(void)
{
	memfs		fs;
	char		path[512],
				file[600],
				line[1024];
	char	   *want;
	size_t		wl = 0;
	int			i,
				rc;

	fs_init(&fs);
	want = malloc(65536);
	want[0] = '\0';
	strcpy(path, "/deep");
	for (i = 0; i <= 40; i++)
	{
		fs_dir(&fs, path);
		snprintf(file, sizeof(file), "%s/nb-%d-big-Data.db", path, i);
		fs_file(&fs, file, i, i);
		if (i <= BC_WALK_MAX_DEPTH - 1)
			snprintf(line, sizeof(line),
					 "S %s/nb-%d-big d=nb-%d-big v=nb g=%d big ks=%s t=%s snap=- live Data.db:%d:%d\n",
					 path, i, i, i, i == 0 ? "-" : i == 1 ? "deep" : "d",
					 i == 0 ? "deep" : "d", i, i);
		else if (i == BC_WALK_MAX_DEPTH)
			snprintf(line, sizeof(line), "P too_deep %s root=0 dir=1 err=0 line=0\n", path);
		else
			line[0] = '\0';
		memcpy(want + wl, line, strlen(line) + 1);
		wl += strlen(line);
		strcat(path, "/d");
	}
	rc = run(&fs, "/deep", 0);
	CHECK(rc == 0, "deep walk: %d", rc);
	check_out(&fs, want, "40 folders deep");
	CHECK(fs.nlist == BC_WALK_MAX_DEPTH && fs.nsstable == BC_WALK_MAX_DEPTH,
		  "40 deep: %ld folders listed, %ld SSTables", fs.nlist, fs.nsstable);
	free(want);
	fs_free(&fs);
}

/*
 * The walk calls the core's tick hook (bc_tick.h: CHECK_FOR_INTERRUPTS on
 * the server) while it goes through the names of a folder, once every
 * 1,024: a folder of 5,000 names, none of them an SSTable, calls it 5 times
 * (names 0, 1024, ... 4096), so that statement_timeout and
 * pg_cancel_backend stop a walk of a folder of millions of names.
 */
static long ticks;


static void
count_tick(void)
{
	ticks++;
}

static void
check_tick(void)
{
	memfs		fs;
	char		path[64];
	int			i,
				rc;

	fs_init(&fs);
	fs_dir(&fs, "/k");
	for (i = 0; i < 5000; i++)
	{
		snprintf(path, sizeof(path), "/k/junk-%d", i);
		fs_file(&fs, path, 1, 1);
	}
	ticks = 0;
	bc_tick_hook = count_tick;
	run_reset(&fs);
	rc = bc_walk_run(&ops, &fs, "/k", 0);
	bc_tick_hook = NULL;
	CHECK(rc == 0 && fs.nsstable == 0 && ticks == 5, "tick: %d, %ld SSTables, %ld ticks", rc,
		  fs.nsstable, ticks);
	fs_free(&fs);
}

/*
 * What else a table folder holds.  ScyllaDB's TOC.txt.tmp (any of its
 * versions) and TemporaryHashes.db.tmp (ms, mt) are components that make
 * their SSTable temporary: being written, or (TOC.txt.tmp) deleted; a
 * hashes file alone too, never orphaned.  In other versions, and
 * Statistics.db.tmp in any, they are not components (ignored, as any
 * other name).  SAI's and SASI's components are the SSTable's, which stays
 * live.
 */

static void
check_extras(void)
{
	memfs		fs;
	int			rc;
	static const char *const want =
		SS(XT "/ks-cf-ka-8", "d=ks-cf-ka-8 v=ka g=8 big legacy ks=ks t=cf snap=- temporary "
		   "Data.db:80:8,TOC.txt.tmp:81:8")
		SS(XT "/me-1-big", "d=me-1-big v=me g=1 big ks=ks t=t snap=- temporary "
		   "Data.db:10:1,TOC.txt.tmp:11:1")
		SS(XT "/me-5-big", "d=me-5-big v=me g=5 big ks=ks t=t snap=- live Data.db:50:5")
		SS(XT "/me-6-big", "d=me-6-big v=me g=6 big ks=ks t=t snap=- live Data.db:60:6")
		SS(XT "/ms-2-big", "d=ms-2-big v=ms g=2 big ks=ks t=t snap=- temporary "
		   "Data.db:20:2,Partitions.db:21:2,TOC.txt.tmp:23:2,TemporaryHashes.db.tmp:22:2")
		SS(XT "/ms-9-big", "d=ms-9-big v=ms g=9 big ks=ks t=t snap=- temporary "
		   "TemporaryHashes.db.tmp:90:9")
		SS(XT "/mt-3-big", "d=mt-3-big v=mt g=3 big ks=ks t=t snap=- temporary "
		   "Data.db:30:3,TemporaryHashes.db.tmp:31:3")
		SS(XT "/nb-4-big", "d=nb-4-big v=nb g=4 big ks=ks t=t snap=- live Data.db:40:4")
		SS(XT "/oa-7-big", "d=oa-7-big v=oa g=7 big ks=ks t=t snap=- live "
		   "Data.db:70:7,SAI+aa+GroupComplete.db:0:7,SAI+aa+idx_v+Meta.db:71:7,SI_idx_w.db:72:7");

	fs_init(&fs);
	fs_dir(&fs, "/x");
	fs_dir(&fs, "/x/ks");
	fs_dir(&fs, XT);
	fs_file(&fs, XT "/me-1-big-Data.db", 10, 1);
	fs_file(&fs, XT "/me-1-big-TOC.txt.tmp", 11, 1);
	fs_file(&fs, XT "/ms-2-big-Data.db", 20, 2);
	fs_file(&fs, XT "/ms-2-big-Partitions.db", 21, 2);
	fs_file(&fs, XT "/ms-2-big-TemporaryHashes.db.tmp", 22, 2);
	fs_file(&fs, XT "/ms-2-big-TOC.txt.tmp", 23, 2);
	fs_file(&fs, XT "/mt-3-big-Data.db", 30, 3);
	fs_file(&fs, XT "/mt-3-big-TemporaryHashes.db.tmp", 31, 3);
	fs_file(&fs, XT "/nb-4-big-Data.db", 40, 4);
	fs_file(&fs, XT "/nb-4-big-TOC.txt.tmp", 41, 4);	/* not Cassandra's */
	fs_file(&fs, XT "/me-5-big-Data.db", 50, 5);
	fs_file(&fs, XT "/me-5-big-TemporaryHashes.db.tmp", 51, 5);	/* not me's */
	fs_file(&fs, XT "/me-6-big-Data.db", 60, 6);
	fs_file(&fs, XT "/me-6-big-Statistics.db.tmp", 61, 6);
	fs_file(&fs, XT "/oa-7-big-Data.db", 70, 7);
	fs_file(&fs, XT "/oa-7-big-SAI+aa+GroupComplete.db", 0, 7);
	fs_file(&fs, XT "/oa-7-big-SAI+aa+idx_v+Meta.db", 71, 7);
	fs_file(&fs, XT "/oa-7-big-SI_idx_w.db", 72, 7);
	fs_file(&fs, XT "/ks-cf-ka-8-Data.db", 80, 8);
	fs_file(&fs, XT "/ks-cf-ka-8-TOC.txt.tmp", 81, 8);
	fs_file(&fs, XT "/ms-9-big-TemporaryHashes.db.tmp", 90, 9);

	rc = run(&fs, "/x", 1);
	CHECK(rc == 0 && fs.nsstable == 9, "extras: %d, %ld SSTables", rc, fs.nsstable);
	check_out(&fs, want, "extras, include_inactive");
	fs_free(&fs);
}

void
suite_walk(void)
{
	bc_walk_sstable none;

	check_node();
	check_roots();
	check_depth();
	check_tick();
	check_extras();

	memset(&none, 0, sizeof(none));
	CHECK(bc_walk_component_size(&none, "Data.db") == -1, "no components");
}
