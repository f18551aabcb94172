/*
 * bc_walk_sstable.c - one SSTable of the folder being walked, as the walk
 * gives it to its caller (bc_walk_sstable.h): its component files, names,
 * folder's facts and state, in one block.
 */
#include <string.h>

#include "bc_sstable_dir.h"
#include "bc_sstable_name.h"
#include "bc_walk_sstable.h"

/* room for a copy of (s, len) and its NUL in a block being filled */
static const char *
put_string(char **fill, const char *s, size_t len)
{
	char	   *p = *fill;

	memcpy(p, s, len);
	p[len] = '\0';
	*fill += len + 1;
	return p;
}

/*
 * One SSTable: the components entries[0 .. n) of a folder f (at dir, its
 * real path, reached as walked_dir, read as place), what its logs say of it
 * (bc_walk_txn_flags), into *s, all in one block from alloc (returned, for
 * the caller to release).
 */
void *
bc_walk_make_sstable(const bc_walk_ops *ops, void *arg, const char *dir, const char *walked_dir,
					 const char *place, const bc_folder *f, const bc_walk_entry *entries,
					 size_t n, int logs, bc_walk_sstable *out)
{
	bc_sstable_name parsed;
	const bc_sstable_name *p = &parsed;
	size_t		dl = strlen(dir);
	size_t		bytes = (n + 1) * sizeof(bc_walk_component);
	size_t		i;
	char	   *block,
			   *fill;
	bc_walk_component *comps;
	bc_walk_sstable s;
	int			unfinished = 0;

	/* parsed when the folder was read: the same again */
	bc_sstable_name_parse(entries[0].name, strlen(entries[0].name), &parsed);

	/* prefix (dir/descriptor), descriptor, version, generation */
	bytes += dl + 1 + 2 * (p->descriptor_len + 1) + p->version_len + 1 + p->generation_len + 1;
	if (p->legacy)
		bytes += p->keyspace_len + 1 + p->table_len + 1;
	else if (f->table != NULL)
		bytes += f->keyspace_len + 1 + f->table_len + f->index_len + 1;
	bytes += f->snapshot_len + 1;
	for (i = 0; i < n; i++)
		bytes += entries[i].component_len + 1;

	block = ops->alloc(arg, bytes);
	comps = (bc_walk_component *) block;
	fill = block + (n + 1) * sizeof(bc_walk_component);

	memset(&s, 0, sizeof(s));
	s.dir = dir;
	s.walked_dir = walked_dir;
	s.place = place;
	s.prefix = fill;
	memcpy(fill, dir, dl);
	fill += dl;
	if (!(dl > 0 && dir[dl - 1] == '/'))
		*fill++ = '/';
	put_string(&fill, entries[0].name, p->descriptor_len);
	s.descriptor = put_string(&fill, entries[0].name, p->descriptor_len);
	s.version = put_string(&fill, p->version, p->version_len);
	s.generation = put_string(&fill, p->generation, p->generation_len);
	s.format = p->format;
	s.legacy = p->legacy;
	if (p->legacy)
	{
		s.keyspace = put_string(&fill, p->keyspace, p->keyspace_len);
		s.table = put_string(&fill, p->table, p->table_len);
	}
	else if (f->table != NULL)
	{
		/* a secondary index's folder: <table>.<index> */
		if (f->keyspace != NULL)
			s.keyspace = put_string(&fill, f->keyspace, f->keyspace_len);
		s.table = fill;
		memcpy(fill, f->table, f->table_len);
		fill += f->table_len;
		put_string(&fill, f->index ? f->index : "", f->index_len);
	}
	if (f->snapshot != NULL)
		s.snapshot = put_string(&fill, f->snapshot, f->snapshot_len);

	for (i = 0; i < n; i++)
	{
		comps[i].name = put_string(&fill, entries[i].name + entries[i].component_off,
								   entries[i].component_len);
		comps[i].size = entries[i].size;
		comps[i].mtime = entries[i].mtime;
		if (strcmp(comps[i].name, "Data.db") == 0)
			s.data = &comps[i];
		/* ScyllaDB's TOC.txt.tmp, TemporaryHashes.db.tmp */
		if (bc_sstable_component_unfinished(comps[i].name, entries[i].component_len,
											p->version, p->version_len))
			unfinished = 1;
	}
	s.ncomponents = (int) n;
	s.components = comps;

	s.state = bc_sstable_state_of(f->state, p->temporary || unfinished,
								  (logs & BC_WALK_TXN_TEMPORARY) != 0,
								  (logs & BC_WALK_TXN_OBSOLETE) != 0, s.data != NULL);
	*out = s;
	return block;
}

