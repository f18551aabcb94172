/*
 * test_walk_links.c - symbolic links in the walk (bc_walk.c,
 * bc_walk_seen.c, bc_walk_place.c) over the in-memory file system of
 * walk_memfs.h: folders reached by many paths walked once, an SSTable's
 * path its folder's real path, and a link never changing what the folder
 * it leads to is.
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

/*
 * Symbolic links that reach one folder by many paths: folders d0 .. d12,
 * each with two links a and b to the next, one SSTable in d12.  Followed
 * naively, that is 2^12 = 4,096 paths to the SSTable; the walk enters each
 * folder once (the first link, a, in name order) and skips the other (b),
 * naming the path it was walked by, so the SSTable is reported once.  Two
 * links to one folder side by side, and a link to a sibling folder walked
 * before, are skipped too.  (check_bounded shows the set is not held per
 * SSTable: two allocations, whatever the folders.)
 */
static void
check_links(void)
{
	memfs		fs;
	fsent	   *d[13];
	char		path[700],
				via[600],
				line[1500];
	char	   *want;
	size_t		wl = 0;
	int			i,
				rc;

	fs_init(&fs);
	fs_dir(&fs, "/l");
	for (i = 0; i <= 12; i++)
	{
		snprintf(path, sizeof(path), "/l/d%d", i);
		d[i] = fs_dir(&fs, path);
	}
	for (i = 0; i < 12; i++)
	{
		snprintf(path, sizeof(path), "/l/d%d/a", i);
		snprintf(via, sizeof(via), "/l/d%d", i + 1);
		fs_link(&fs, path, via, d[i + 1]);
		snprintf(path, sizeof(path), "/l/d%d/b", i);
		fs_link(&fs, path, via, d[i + 1]);
	}
	fs_file(&fs, "/l/d12/nb-1-big-Data.db", 7, 8);

	/* from d0: d1 .. d12 by a/a/..., each b skipped */
	want = malloc(65536);
	want[0] = '\0';
	strcpy(via, "/l/d0");
	for (i = 0; i < 12; i++)
	{
		snprintf(path, sizeof(path), "%s/b", via);
		strcat(via, "/a");
		snprintf(line, sizeof(line), "P already_walked %s root=0 dir=1 err=0 line=0 first=%s\n",
				 path, via);
		/* a folder's subfolders are walked after its SSTables: the skips
		 * come out deepest first, after the SSTable */
		memmove(want + strlen(line), want, wl + 1);
		memcpy(want, line, strlen(line));
		wl += strlen(line);
	}
	snprintf(line, sizeof(line),
			 "S %s/nb-1-big d=nb-1-big v=nb g=1 big ks=a t=a snap=- live Data.db:7:8\n", via);
	memmove(want + strlen(line), want, wl + 1);
	memcpy(want, line, strlen(line));
	wl += strlen(line);
	rc = run(&fs, "/l/d0", 0);
	CHECK(rc == 0 && fs.nsstable == 1 && fs.nlist == 13,
		  "lattice: %d, %ld SSTables (4,096 without the set), %ld folders listed", rc,
		  fs.nsstable, fs.nlist);
	check_out(&fs, want, "lattice");
	CHECK(run_iter(&fs, "/l/d0", 0, -1) == 0 && fs.nsstable == 1 && fs.nlist == 13,
		  "lattice, one at a time: %ld SSTables, %ld folders listed", fs.nsstable, fs.nlist);
	check_out(&fs, want, "lattice, one at a time");
	CHECK(fs.nalloc == fs.nrelease, "lattice: %ld allocations, %ld releases", fs.nalloc,
		  fs.nrelease);

	/* from the parent: d0 first, and through it the others; each of them
	 * met again by its own name is skipped */
	rc = run(&fs, "/l", 0);
	CHECK(rc == 0 && fs.nsstable == 1 && fs.nlist == 14,
		  "lattice from its parent: %d, %ld SSTables, %ld folders listed", rc, fs.nsstable,
		  fs.nlist);
	CHECK(strstr(fs.out, "P already_walked /l/d1 root=0 dir=1 err=0 line=0 first=/l/d0/a\n")
		  != NULL && strstr(fs.out, "P already_walked /l/d12 root=0 dir=1 err=0 line=0 "
							"first=/l/d0/a/a/a/a/a/a/a/a/a/a/a/a\n") != NULL &&
		  strstr(fs.out, "S /l/d0/a/a/a/a/a/a/a/a/a/a/a/a/nb-1-big ") != NULL,
		  "lattice from its parent: %s", fs.out);
	free(want);
	fs_free(&fs);

	/* two links to one folder in one folder, and the folder itself */
	fs_init(&fs);
	fs_dir(&fs, "/t");
	d[0] = fs_dir(&fs, "/t/data");
	fs_file(&fs, "/t/data/nb-1-big-Data.db", 1, 1);
	fs_link(&fs, "/t/link1", "/t/data", d[0]);
	fs_link(&fs, "/t/link2", "/t/data", d[0]);
	rc = run(&fs, "/t", 0);
	CHECK(rc == 0 && fs.nsstable == 1, "two links: %d, %ld SSTables", rc, fs.nsstable);
	check_out(&fs,
			  "S /t/data/nb-1-big d=nb-1-big v=nb g=1 big ks=t t=data snap=- live Data.db:1:1\n"
			  "P already_walked /t/link1 root=0 dir=1 err=0 line=0 first=/t/data\n"
			  "P already_walked /t/link2 root=0 dir=1 err=0 line=0 first=/t/data\n",
			  "two links");
	fs_free(&fs);

	/* many folders: the set grows past its first size and keeps them all */
	fs_init(&fs);
	fs_dir(&fs, "/g");
	for (i = 0; i < 300; i++)
	{
		snprintf(path, sizeof(path), "/g/f%03d", i);
		d[0] = fs_dir(&fs, path);
		snprintf(path, sizeof(path), "/g/z%03d", i);
		snprintf(via, sizeof(via), "/g/f%03d", i);
		fs_link(&fs, path, via, d[0]);	/* before d[0] can move */
		snprintf(path, sizeof(path), "/g/f%03d/nb-%d-big-Data.db", i, i + 1);
		fs_file(&fs, path, 1, 1);
	}
	rc = run(&fs, "/g", 0);
	CHECK(rc == 0 && fs.nsstable == 300 && fs.nlist == 301,
		  "300 folders and 300 links: %d, %ld SSTables, %ld folders listed", rc, fs.nsstable,
		  fs.nlist);
	CHECK(strstr(fs.out, "P already_walked /g/z299 root=0 dir=1 err=0 line=0 first=/g/f299\n")
		  != NULL, "300 folders and 300 links: the last link");
	fs_free(&fs);
}

/*
 * An SSTable's path is its folder's real path (real_path), whichever way
 * the walk reached it; keyspace and table are read from the folders as
 * walked.  /n/data/ks/t2-2 is a link to another disk (/n/disk2/t2), /n/link
 * a link to /n/data.
 */
static void
check_real_paths(void)
{
	memfs		fs;
	fsent	   *data,
			   *disk;
	const char *roots[] = {"/n/data", "/n/link", "/n/link/ks", "/n/data/ks/t2-2", "/n/link/ks/t2-2"};
	size_t		i;
	bc_walk    *w;
	bc_walk_sstable s;

	fs_init(&fs);
	fs_dir(&fs, "/n");
	data = fs_dir(&fs, "/n/data");
	fs_dir(&fs, "/n/data/ks");
	fs_dir(&fs, "/n/data/ks/t1-1");
	fs_file(&fs, "/n/data/ks/t1-1/nb-1-big-Data.db", 3, 4);
	fs_dir(&fs, "/n/disk2");
	disk = fs_dir(&fs, "/n/disk2/t2");
	fs_file(&fs, "/n/disk2/t2/nb-7-big-Data.db", 5, 6);
	fs_link(&fs, "/n/data/ks/t2-2", "/n/disk2/t2", disk);
	data = lookup(&fs, "/n/data");
	fs_link(&fs, "/n/link", "/n/data", data);

	for (i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
	{
		run_reset(&fs);
		CHECK(bc_walk_run(&real_ops, &fs, roots[i], 0) == 0, "real paths from %s", roots[i]);
		CHECK(fs.nalloc == fs.nrelease, "real paths from %s: %ld allocations, %ld releases",
			  roots[i], fs.nalloc, fs.nrelease);
		CHECK(strstr(fs.out, "S /n/disk2/t2/nb-7-big d=nb-7-big v=nb g=7 big ks=ks t=t2 snap=- live Data.db:5:6\n") != NULL,
			  "real paths from %s: the linked table's SSTable by its real path: %s", roots[i], fs.out);
		CHECK(i >= 3 || strstr(fs.out, "S /n/data/ks/t1-1/nb-1-big d=nb-1-big v=nb g=1 big ks=ks t=t1 snap=- live Data.db:3:4\n") != NULL,
			  "real paths from %s: the other table's: %s", roots[i], fs.out);
		CHECK(strstr(fs.out, "/n/link/") == NULL && strstr(fs.out, "S /n/data/ks/t2-2") == NULL,
			  "real paths from %s: a path through a link: %s", roots[i], fs.out);
	}
	/* one at a time, released on the way */
	run_reset(&fs);
	w = bc_walk_open(&real_ops, &fs, "/n/link", 0);
	CHECK(w != NULL && bc_walk_next(w, &s) && strcmp(s.prefix, "/n/data/ks/t1-1/nb-1-big") == 0 &&
		  strcmp(s.walked_dir, "/n/link/ks/t1-1") == 0 && strcmp(s.dir, "/n/data/ks/t1-1") == 0,
		  "real paths one at a time: %s in %s, walked as %s", w ? s.prefix : "-",
		  w ? s.dir : "-", w ? s.walked_dir : "-");
	bc_walk_close(w);
	CHECK(fs.nalloc == fs.nrelease, "real paths one at a time: %ld allocations, %ld releases",
		  fs.nalloc, fs.nrelease);
	/* without the op: the paths as walked */
	run_reset(&fs);
	CHECK(bc_walk_run(&ops, &fs, "/n/link", 0) == 0 &&
		  strstr(fs.out, "S /n/link/ks/t2-2/nb-7-big ") != NULL,
		  "paths as walked without real_path: %s", fs.out);
	fs_free(&fs);
}
/*
 * A link never changes what the folder it leads to is (bc_walk_place.h):
 * in table folder a, links named 8.sstable, staging and upload to the
 * folders of tables b and c and to d's upload/ are walked first (their
 * names sort before b, c and d), and b's, c's and d's SSTables are listed
 * as what they are where they lie, with their tables' names; the folders
 * met again directly are reported with the real path and state they were
 * listed in.  In table e, quarantine is a link to e's own upload/: upload.
 */
#define ID "-5a1c395e9a9411e8a0e6e9a8e4bb7a4d"

static void
check_link_states(void)
{
	memfs		fs;
	int			rc,
				inactive;
	static const char *const want =
		SS("/n/ks/a" ID "/me-1-big", "d=me-1-big v=me g=1 big ks=ks t=a snap=- live Data.db:10:1")
		SS("/n/ks/b" ID "/me-2-big", "d=me-2-big v=me g=2 big ks=ks t=b snap=- live Data.db:20:2")
		SS("/n/ks/d" ID "/upload/me-4-big", "d=me-4-big v=me g=4 big ks=ks t=d snap=- upload "
		   "Data.db:40:4")
		SS("/n/ks/c" ID "/me-3-big", "d=me-3-big v=me g=3 big ks=ks t=c snap=- live Data.db:30:3")
		"P already_walked /n/ks/b" ID " root=0 dir=1 err=0 line=0 first=/n/ks/a" ID
		"/8.sstable real=/n/ks/b" ID " state=live\n"
		"P already_walked /n/ks/c" ID " root=0 dir=1 err=0 line=0 first=/n/ks/a" ID
		"/upload real=/n/ks/c" ID " state=live\n"
		"P already_walked /n/ks/d" ID "/upload root=0 dir=1 err=0 line=0 first=/n/ks/a" ID
		"/staging real=/n/ks/d" ID "/upload state=upload\n"
		SS("/n/ks/e" ID "/upload/me-5-big", "d=me-5-big v=me g=5 big ks=ks t=e snap=- upload "
		   "Data.db:50:5")
		"P already_walked /n/ks/e" ID "/upload root=0 dir=1 err=0 line=0 first=/n/ks/e" ID
		"/quarantine real=/n/ks/e" ID "/upload state=upload\n";
	fsent	   *b,
			   *c,
			   *du,
			   *eu;

	fs_init(&fs);
	fs_dir(&fs, "/n");
	fs_dir(&fs, "/n/ks");
	fs_dir(&fs, "/n/ks/a" ID);
	fs_file(&fs, "/n/ks/a" ID "/me-1-big-Data.db", 10, 1);
	b = fs_dir(&fs, "/n/ks/b" ID);
	fs_file(&fs, "/n/ks/b" ID "/me-2-big-Data.db", 20, 2);
	fs_link(&fs, "/n/ks/a" ID "/8.sstable", "/n/ks/b" ID, b);
	c = fs_dir(&fs, "/n/ks/c" ID);
	fs_file(&fs, "/n/ks/c" ID "/me-3-big-Data.db", 30, 3);
	fs_link(&fs, "/n/ks/a" ID "/upload", "/n/ks/c" ID, lookup(&fs, "/n/ks/c" ID));
	fs_dir(&fs, "/n/ks/d" ID);
	du = fs_dir(&fs, "/n/ks/d" ID "/upload");
	fs_file(&fs, "/n/ks/d" ID "/upload/me-4-big-Data.db", 40, 4);
	fs_link(&fs, "/n/ks/a" ID "/staging", "/n/ks/d" ID "/upload",
			lookup(&fs, "/n/ks/d" ID "/upload"));
	fs_dir(&fs, "/n/ks/e" ID);
	eu = fs_dir(&fs, "/n/ks/e" ID "/upload");
	fs_file(&fs, "/n/ks/e" ID "/upload/me-5-big-Data.db", 50, 5);
	fs_link(&fs, "/n/ks/e" ID "/quarantine", "/n/ks/e" ID "/upload",
			lookup(&fs, "/n/ks/e" ID "/upload"));
	(void) c;
	(void) du;
	(void) eu;
	(void) b;

	for (inactive = 1; inactive >= 0; inactive--)
	{
		run_reset(&fs);
		rc = bc_walk_run(&real_ops, &fs, "/n", inactive);
		CHECK(rc == 0 && fs.nalloc == fs.nrelease, "link states: %d, %ld allocations, %ld releases",
			  rc, fs.nalloc, fs.nrelease);
		if (inactive)
			check_out(&fs, want, "link states, include_inactive");
	}
	/* from the folder linked as 8.sstable, and from the link itself */
	run_reset(&fs);
	rc = bc_walk_run(&real_ops, &fs, "/n/ks/a" ID "/8.sstable", 0);
	check_out(&fs, SS("/n/ks/b" ID "/me-2-big", "d=me-2-big v=me g=2 big ks=ks t=b snap=- live "
					  "Data.db:20:2"), "link states, from the link");
	fs_free(&fs);

	/* a table's folder that is a link to another disk, under another name:
	 * its staging/ is still its staging, its SSTables by their real paths */
	fs_init(&fs);
	fs_dir(&fs, "/m");
	fs_dir(&fs, "/m/disk");
	fs_dir(&fs, "/m/disk/store");
	fs_dir(&fs, "/m/disk/store/staging");
	fs_file(&fs, "/m/disk/store/staging/me-6-big-Data.db", 60, 6);
	fs_dir(&fs, "/m/data");
	fs_dir(&fs, "/m/data/ks");
	fs_link(&fs, "/m/data/ks/f" ID, "/m/disk/store", lookup(&fs, "/m/disk/store"));
	run_reset(&fs);
	rc = bc_walk_run(&real_ops, &fs, "/m/data", 0);
	CHECK(rc == 0 && fs.nalloc == fs.nrelease, "linked table: %d, %ld allocations, %ld releases",
		  rc, fs.nalloc, fs.nrelease);
	check_out(&fs, SS("/m/disk/store/staging/me-6-big", "d=me-6-big v=me g=6 big ks=ks t=f snap=- "
					  "staging Data.db:60:6"), "a table's folder linked to another disk");
	fs_free(&fs);
}

void
suite_walk_links(void)
{
	check_links();
	check_real_paths();
	check_link_states();
}
