/*
 * test_walk_logs.c - the walk's logs and scale (bc_walk.c, bc_walk_txn.c)
 * over the in-memory file system of walk_memfs.h: more names and logged
 * SSTables than the first allocations hold, memory that does not grow
 * with the SSTables walked, ScyllaDB's pending_delete/, and each log file
 * read once however many names it has.
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
 * many: more names and logged SSTables than the first allocations hold
 * ------------------------------------------------------------------------ */
/* a record of SSTable nb-<g>-big of /m/ks/big with its CRC (as
 * bc_txn_record_checksum computes it: test_txn_log.c checks that against
 * CRCs computed apart), and its line end, at out; its length */
static size_t
txn_line(char *out, const char *type, int g)
{
	bc_txn_record r;
	int			n = sprintf(out, "%s:[/m/ks/big/nb-%d-big,0,2][0]", type, g);

	bc_txn_record_parse(out, (size_t) n, &r);
	return (size_t) sprintf(out + n - 3, "[%lu]\n", (unsigned long) bc_txn_record_checksum(&r)) +
		(size_t) n - 3;
}

static void
check_many(void)
{
	memfs		fs;
	char		path[256];
	char	   *committed,
			   *open;
	size_t		cl = 0,
				ol = 0;
	int			i,
				rc;
	const char *p;
	long		live = 0,
				temporary = 0,
				obsolete = 0,
				other = 0;

	fs_init(&fs);
	fs_dir(&fs, "/m/ks/big");
	committed = malloc(65536);
	open = malloc(65536);
	for (i = 1; i <= 150; i++)
	{
		snprintf(path, sizeof(path), "/m/ks/big/nb-%d-big-Data.db", i);
		fs_file(&fs, path, i, i);
		snprintf(path, sizeof(path), "/m/ks/big/nb-%d-big-Filter.db", i);
		fs_file(&fs, path, i, i);
		if (i <= 100)
			ol += txn_line(open + ol, "ADD", i);
		else if (i <= 130)
			cl += txn_line(committed + cl, "REMOVE", i);
	}
	sprintf(committed + cl, "COMMIT:[,0,0][2613697770]\n");
	fs_log(&fs, "/m/ks/big/nb_txn_compaction_1.log", committed);
	fs_log(&fs, "/m/ks/big/nb_txn_write_2.log", open);
	free(committed);
	free(open);

	rc = run(&fs, "/m/ks/big", 0);
	CHECK(rc == 0 && fs.nsstable == 150, "many: %d, %ld SSTables", rc, fs.nsstable);
	for (p = fs.out; p && *p; p = strchr(p, '\n') + 1)
	{
		const char *nl = strchr(p, '\n');
		int			g = 0;

		sscanf(p, "S /m/ks/big/nb-%d-big", &g);
		if (g >= 1 && g <= 100 && strstr(p, " temporary ") && strstr(p, " temporary ") < nl)
			temporary++;
		else if (g > 100 && g <= 130 && strstr(p, " obsolete ") && strstr(p, " obsolete ") < nl)
			obsolete++;
		else if (g > 130 && strstr(p, " live ") && strstr(p, " live ") < nl)
			live++;
		else
			other++;
	}
	CHECK(temporary == 100 && obsolete == 30 && live == 20 && other == 0,
		  "many: %ld temporary, %ld obsolete, %ld live, %ld other", temporary, obsolete,
		  live, other);
	fs_free(&fs);
}

/*
 * What the walk holds does not grow with the SSTables walked before: two
 * nodes of the same folders (8 keyspaces of 8 tables), one with 10
 * SSTables in the tables of its first keyspace only (80), the other in
 * every table (640), are walked with the same most allocations held at
 * once (the names of the folders being walked and one SSTable), whether all
 * at once or one at a time.
 */
static void
check_bounded(void)
{
	long		peak[2][2];
	int			k,
				ks,
				t,
				i;

	for (k = 0; k < 2; k++)
	{
		memfs		fs;
		char		path[256];
		int			want = k ? 640 : 80;

		fs_init(&fs);
		fs_dir(&fs, "/b");
		for (ks = 0; ks < 8; ks++)
		{
			snprintf(path, sizeof(path), "/b/ks%d", ks);
			fs_dir(&fs, path);
			for (t = 0; t < 8; t++)
			{
				snprintf(path, sizeof(path), "/b/ks%d/t%d", ks, t);
				fs_dir(&fs, path);
				for (i = 1; i <= 10 && (k == 1 || ks == 0); i++)
				{
					snprintf(path, sizeof(path), "/b/ks%d/t%d/nb-%d-big-Data.db", ks, t, i);
					fs_file(&fs, path, i, i);
					snprintf(path, sizeof(path), "/b/ks%d/t%d/nb-%d-big-Filter.db", ks, t, i);
					fs_file(&fs, path, i, i);
				}
			}
		}
		run_reset(&fs);
		CHECK(bc_walk_run(&ops, &fs, "/b", 0) == 0 && fs.nsstable == want,
			  "bounded: %ld SSTables of %d", fs.nsstable, want);
		peak[k][0] = fs.peak_live;
		CHECK(run_iter(&fs, "/b", 0, -1) == 0 && fs.nsstable == want,
			  "bounded, one at a time: %ld SSTables of %d", fs.nsstable, want);
		peak[k][1] = fs.peak_live;
		fs_free(&fs);
	}
	CHECK(peak[0][0] == peak[1][0] && peak[0][1] == peak[1][1] && peak[0][0] > 0,
		  "bounded: most allocations held at once %ld and %ld (80 SSTables), %ld and %ld (640)",
		  peak[0][0], peak[0][1], peak[1][0], peak[1][1]);
}

/*
 * ScyllaDB's pending_delete/ (bc_walk_txn.h): the SSTables a sealed log
 * names are obsolete, a .log.tmp's stay, a file of another extension is
 * ignored, and the folder itself is not walked; <generation>.sstable/
 * holds an SSTable being written, temporary, of the table above; neither
 * applies below a folder without its -<id> (Cassandra 2.0's table named so)
 */
static void
check_pending_delete(void)
{
	memfs		fs;
	int			rc;
	static const char *const want =
		SS("/x/ks/pending_delete/me-7-big", "d=me-7-big v=me g=7 big ks=ks t=pending_delete snap=- live "
		   "Data.db:70:7")
		SS(XT "/me-1-big", "d=me-1-big v=me g=1 big ks=ks t=t snap=- obsolete Data.db:10:1")
		SS(XT "/me-2-big", "d=me-2-big v=me g=2 big ks=ks t=t snap=- live Data.db:20:2")
		SS(XT "/me-3-big", "d=me-3-big v=me g=3 big ks=ks t=t snap=- obsolete Data.db:30:3")
		SS(XT "/me-4-big", "d=me-4-big v=me g=4 big ks=ks t=t snap=- live Data.db:40:4")
		SS(XT "/me-5-big", "d=me-5-big v=me g=5 big ks=ks t=t snap=- live Data.db:50:5")
		SS(XT "/8.sstable/me-8-big", "d=me-8-big v=me g=8 big ks=ks t=t snap=- temporary Data.db:80:8")
		SS(XT "/staging/me-6-big", "d=me-6-big v=me g=6 big ks=ks t=t snap=- staging Data.db:60:6");

	fs_init(&fs);
	fs_dir(&fs, "/x");
	fs_dir(&fs, "/x/ks");
	fs_dir(&fs, XT);
	fs_dir(&fs, XT "/pending_delete");
	fs_dir(&fs, XT "/staging");
	fs_dir(&fs, XT "/8.sstable");
	fs_file(&fs, XT "/me-1-big-Data.db", 10, 1);
	fs_file(&fs, XT "/me-2-big-Data.db", 20, 2);
	fs_file(&fs, XT "/me-3-big-Data.db", 30, 3);
	fs_file(&fs, XT "/me-4-big-Data.db", 40, 4);
	fs_file(&fs, XT "/me-5-big-Data.db", 50, 5);
	fs_file(&fs, XT "/staging/me-6-big-Data.db", 60, 6);
	fs_file(&fs, XT "/8.sstable/me-8-big-Data.db", 80, 8);
	/* sealed: me-1 and me-3 (empty lines skipped); a path, another
	 * component, trailing bytes: nothing */
	fs_log(&fs, XT "/pending_delete/sstables-1-3.log",
		   "me-1-big-TOC.txt\n\n\nme-3-big-TOC.txt\n/x/me-4-big-TOC.txt\nme-4-big-Data.db\n"
		   "me-4-big-TOC.txt.tmp\nme-5-big-TOC.txtx\nnot a name\n");
	/* not sealed, and not a log: their SSTables stay */
	fs_log(&fs, XT "/pending_delete/sstables-2-2.log.tmp", "me-2-big-TOC.txt\n");
	fs_log(&fs, XT "/pending_delete/notes.txt", "me-4-big-TOC.txt\n");
	fs_log(&fs, XT "/pending_delete/.log", "me-5-big-TOC.txt\n");
	/* a log in staging/'s pending_delete: not ScyllaDB's, nothing */
	fs_dir(&fs, XT "/staging/pending_delete");
	fs_log(&fs, XT "/staging/pending_delete/sstables-6-6.log", "me-6-big-TOC.txt\n");
	/* Cassandra 2.0's table named pending_delete: its SSTables, live */
	fs_dir(&fs, "/x/ks/pending_delete");
	fs_file(&fs, "/x/ks/pending_delete/me-7-big-Data.db", 70, 7);

	rc = run(&fs, "/x", 1);
	CHECK(rc == 0 && fs.nsstable == 8, "pending_delete: %d, %ld SSTables", rc, fs.nsstable);
	check_out(&fs, want, "pending_delete, include_inactive");
	fs_free(&fs);
}

/*
 * A log file is read once per folder, however many names it has there
 * (links, its device and inode): a pending_delete log with five more names
 * and a transaction log with two, each read once; the SSTables they name
 * outside the folder cost nothing; a pending_delete log read in pieces
 * whose lines cross them (op_read_pieces: 3 bytes) gives what it gives
 * whole (ops: read_log).
 */
static void
check_log_links(void)
{
	memfs		fs;
	int			rc,
				i,
				k;
	char		path[256];
	fsent	   *pd,
			   *tl;
	static const char *const want =
		SS(XT "/me-1-big", "d=me-1-big v=me g=1 big ks=ks t=t snap=- obsolete Data.db:10:1")
		SS(XT "/me-2-big", "d=me-2-big v=me g=2 big ks=ks t=t snap=- live Data.db:20:2")
		SS(XT "/me-3-big", "d=me-3-big v=me g=3 big ks=ks t=t snap=- live Data.db:30:3");

	fs_init(&fs);
	fs_dir(&fs, "/x");
	fs_dir(&fs, "/x/ks");
	fs_dir(&fs, XT);
	fs_dir(&fs, XT "/pending_delete");
	fs_file(&fs, XT "/me-1-big-Data.db", 10, 1);
	fs_file(&fs, XT "/me-2-big-Data.db", 20, 2);
	fs_file(&fs, XT "/me-3-big-Data.db", 30, 3);
	pd = fs_log(&fs, XT "/pending_delete/sstables-1-9.log",
				"me-1-big-TOC.txt\nme-7-big-TOC.txt\nme-8-big-TOC.txt\nme-9-big-TOC.txt\n");
	for (i = 0; i < 5; i++)
	{
		uint64_t	dev = pd->dev,
					ino = pd->ino;
		fsent	   *e;

		snprintf(path, sizeof(path), XT "/pending_delete/link%d.log", i);
		e = fs_log(&fs, path, "me-1-big-TOC.txt\nme-7-big-TOC.txt\nme-8-big-TOC.txt\n"
				   "me-9-big-TOC.txt\n");
		e->dev = dev;
		e->ino = ino;
		pd = lookup(&fs, XT "/pending_delete/sstables-1-9.log");
	}
	/* a transaction log with another name (that it cannot be read counts
	 * as a read) */
	tl = fs_log(&fs, XT "/nb_txn_compaction_00000000-0000-0000-0000-000000000001.log", NULL);
	{
		uint64_t	dev = tl->dev,
					ino = tl->ino;
		fsent	   *e = fs_log(&fs, XT "/nb_txn_compaction_00000000-0000-0000-0000-000000000002.log",
							   NULL);

		e->dev = dev;
		e->ino = ino;
	}
	for (k = 0; k < 2; k++)
	{
		const bc_walk_ops *o = k ? &real_ops : &ops;

		run_reset(&fs);
		fs.nread = 0;
		rc = bc_walk_run(o, &fs, "/x", 1);
		CHECK(rc == 0 && fs.nalloc == fs.nrelease, "log links: %d, %ld allocations, %ld releases",
			  rc, fs.nalloc, fs.nrelease);
		CHECK(fs.nread == 2, "log links (%s): %ld logs read, not 2 (one pending_delete log, one "
			  "transaction log)", k ? "in pieces" : "whole", fs.nread);
		CHECK(fs.out != NULL && strstr(fs.out, want) != NULL, "log links (%s): %s",
			  k ? "in pieces" : "whole", fs.out ? fs.out : "");
	}
	fs_free(&fs);
}

void
suite_walk_logs(void)
{
	check_many();
	check_bounded();
	check_pending_delete();
	check_log_links();
}
