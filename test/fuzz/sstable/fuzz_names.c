/*
 * fuzz_names.c - names (bc_codec.c's lookups, bc_sstable_name.c):
 *
 *   - the input as an SSTable version and as a Filter.db file name or path
 *     (bc_version_lookup, bc_file_name_lookup), with a directory in front,
 *     and as the version part of the three name shapes;
 *   - the input (and, for a path dir/name, its last part and the folder
 *     before it) as an SSTable component name and a table folder
 *     (bc_sstable_name_parse, bc_sstable_table_dir).
 */
#include <string.h>

#include "bc_codec.h"
#include "bc_sstable_name.h"
#include "bc_status.h"
#include "fuzz.h"

/* ------------------------------------------------------------------------
 * Versions and file names
 * ------------------------------------------------------------------------ */
static int
is_trie_version(const char *v, size_t len)
{
	return len == 2 && ((v[0] == 'd' && v[1] == 'a') || (v[0] == 'b' && v[1] == 'b'));
}

void
fuzz_names(const uint8_t *data, size_t len)
{
	const char *s = (const char *) data;
	bc_order	vo = BC_ORDER_NEW,
				fo = BC_ORDER_NEW;
	bc_layout	vl = BC_LAYOUT_RAW,
				fl = BC_LAYOUT_RAW;
	char		ver[3] = {'?', '?', '?'};
	bc_status	vs,
				fs;

	/* the input as a version */
	vs = bc_version_lookup(s, len, &vo, &vl);
	CHECK(vs == BC_OK || vs == BC_ERR_VERSION_UNKNOWN || vs == BC_ERR_VERSION_UNSUPPORTED);
	if (vs == BC_OK)
	{
		CHECK(len == 2);
		CHECK(vo == BC_ORDER_NEW || vo == BC_ORDER_OLD);
		CHECK(vl == BC_LAYOUT_RAW || vl == BC_LAYOUT_SWAPPED);
		/* the old hash order only comes with the swapped layout */
		CHECK(vo == BC_ORDER_NEW || vl == BC_LAYOUT_SWAPPED);
	}

	/* the input as a file name or path */
	fs = bc_file_name_lookup(s, len, ver, &fo, &fl);
	CHECK(fs == BC_OK || fs == BC_ERR_FILE_NAME || fs == BC_ERR_VERSION_UNKNOWN ||
		  fs == BC_ERR_VERSION_UNSUPPORTED || fs == BC_ERR_FORMAT_MISMATCH);
	if (fs == BC_OK)
	{
		bc_order	o2;
		bc_layout	l2;

		CHECK(ver[2] == '\0');
		CHECK(len > 10 && memcmp(s + len - 10, "-Filter.db", 10) == 0);
		CHECK(bc_version_lookup(ver, 2, &o2, &l2) == BC_OK);
		CHECK(o2 == fo && l2 == fl);
	}

	/* a directory in front changes nothing */
	if (len < 4096)
	{
		char	   *p = xmalloc(len + 6);
		char		ver2[3] = {'?', '?', '?'};
		bc_order	o2 = BC_ORDER_NEW;
		bc_layout	l2 = BC_LAYOUT_RAW;
		bc_status	s2;

		memcpy(p, "/d/x/", 5);
		memcpy(p + 5, s, len);
		s2 = bc_file_name_lookup(p, len + 5, ver2, &o2, &l2);
		CHECK(s2 == fs);
		if (fs == BC_OK)
			CHECK(memcmp(ver, ver2, 3) == 0 && o2 == fo && l2 == fl);
		free(p);
	}

	/* the input as the version part of the three name shapes */
	if (len <= 8 && memchr(s, '-', len) == NULL && memchr(s, '/', len) == NULL)
	{
		static const char *const pre[3] = {"", "", "ks-tb-"};
		static const char *const post[3] = {"-7-big-Filter.db", "-7-bti-Filter.db",
		"-7-Filter.db"};
		int			i;

		for (i = 0; i < 3; i++)
		{
			char		name[64];
			size_t		pl = strlen(pre[i]),
						ql = strlen(post[i]);
			char		ver2[3] = {'?', '?', '?'};
			bc_order	o2 = BC_ORDER_NEW;
			bc_layout	l2 = BC_LAYOUT_RAW;
			bc_status	s2;
			int			want_bti = (i == 1);

			memcpy(name, pre[i], pl);
			memcpy(name + pl, s, len);
			memcpy(name + pl + len, post[i], ql);
			s2 = bc_file_name_lookup(name, pl + len + ql, ver2, &o2, &l2);
			if (vs != BC_OK)
				CHECK(s2 == vs);
			else if (is_trie_version(s, len) != want_bti)
				CHECK(s2 == BC_ERR_FORMAT_MISMATCH);
			else
			{
				CHECK(s2 == BC_OK);
				CHECK(ver2[0] == s[0] && ver2[1] == s[1] && ver2[2] == '\0');
				CHECK(o2 == vo && l2 == vl);
			}
		}
	}
}

/* ------------------------------------------------------------------------
 * SSTable component names and table folders
 * ------------------------------------------------------------------------ */
static void
check_sstable_name(const char *s, size_t len)
{
	bc_sstable_name n;
	bc_status	st = bc_sstable_name_parse(s, len, &n);
	const uint8_t *u = (const uint8_t *) s;
	size_t		i;

	CHECK(st == BC_OK || st == BC_ERR_SSTABLE_NAME);
	if (st != BC_OK)
		return;
	CHECK(inside(n.version, n.version_len, u, len));
	CHECK(inside(n.generation, n.generation_len, u, len));
	CHECK(inside(n.component, n.component_len, u, len));
	CHECK(n.descriptor_len < len && s[n.descriptor_len] == '-');
	CHECK(n.component == s + n.descriptor_len + 1);
	CHECK(n.component_len == len - n.descriptor_len - 1);
	CHECK(memchr(n.component, '-', n.component_len) == NULL);
	CHECK(n.version_len == 1 || n.version_len == 2);
	for (i = 0; i < n.version_len; i++)
		CHECK(n.version[i] >= 'a' && n.version[i] <= 'z');
	CHECK(n.version < n.generation && n.generation + n.generation_len < n.component);
	if (n.uuid_generation)
		CHECK(n.generation_len == 28);
	else
	{
		/* digits, leading zeros of any number (Integer.parseInt,
		 * from_chars) */
		CHECK(n.generation_len > 0);
		for (i = 0; i < n.generation_len; i++)
			CHECK(n.generation[i] >= '0' && n.generation[i] <= '9');
	}
	CHECK(n.format == BC_SSTABLE_BIG || n.format == BC_SSTABLE_BTI);
	CHECK(n.legacy == 0 || n.legacy == 1);
	CHECK(n.temporary == 0 || n.temporary == 1);
	/* ScyllaDB's TOC.txt.tmp and TemporaryHashes.db.tmp, for its versions,
	 * exactly; every other component has one '.' */
	CHECK(n.unfinished == bc_sstable_component_unfinished(n.component, n.component_len,
														   n.version, n.version_len));
	if (n.unfinished)
		CHECK((n.component_len == 11 && memcmp(n.component, "TOC.txt.tmp", 11) == 0) ||
			  (n.component_len == 22 && memcmp(n.component, "TemporaryHashes.db.tmp", 22) == 0));
	else
	{
		size_t		dots = 0;

		for (i = 0; i < n.component_len; i++)
			dots += n.component[i] == '.';
		CHECK(dots == 1);
	}
	if (n.legacy)
	{
		CHECK(inside(n.keyspace, n.keyspace_len, u, len) && n.keyspace == s);
		CHECK(inside(n.table, n.table_len, u, len) && n.table_len > 0);
		CHECK(n.keyspace_len > 0 && n.table + n.table_len < n.version);
		CHECK(n.format == BC_SSTABLE_BIG && !n.uuid_generation);
	}
	else
		CHECK(n.keyspace == NULL && n.table == NULL &&
			  n.keyspace_len == 0 && n.table_len == 0);

	/* another component of the same SSTable: the same descriptor */
	if (len < 4096)
	{
		char	   *o = xmalloc(n.descriptor_len + 9);
		bc_sstable_name m;

		memcpy(o, s, n.descriptor_len);
		memcpy(o + n.descriptor_len, "-Data.db", 8);
		CHECK(bc_sstable_name_parse(o, n.descriptor_len + 8, &m) == BC_OK);
		CHECK(m.descriptor_len == n.descriptor_len && m.legacy == n.legacy &&
			  m.temporary == n.temporary && m.format == n.format &&
			  m.uuid_generation == n.uuid_generation);
		CHECK(m.version - o == n.version - s && m.version_len == n.version_len);
		CHECK(m.generation - o == n.generation - s &&
			  m.generation_len == n.generation_len);
		free(o);
	}
}

static void
check_table_dir(const char *s, size_t len)
{
	size_t		tl = (size_t) -1,
				tl2 = (size_t) -1,
				i;
	bc_status	st = bc_sstable_table_dir(s, len, &tl);

	CHECK(st == BC_OK || st == BC_ERR_SSTABLE_NAME);
	if (st != BC_OK)
		return;
	CHECK(tl > 0 && tl <= len);
	/* the bare name, or '-' then hex digits of either case (ScyllaDB's
	 * [\da-fA-F]+) or a dashed UUID */
	CHECK(tl == len || (tl + 1 < len && s[tl] == '-'));
	if (tl < len && len - tl != 37)
		for (i = tl + 1; i < len; i++)
			CHECK((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
				  (s[i] >= 'A' && s[i] <= 'F'));
	for (i = 0; i < tl; i++)
		CHECK((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
			  (s[i] >= '0' && s[i] <= '9') || s[i] == '_');
	/* the table name alone is a table folder of that name */
	CHECK(bc_sstable_table_dir(s, tl, &tl2) == BC_OK && tl2 == tl);
}

/*
 * The input as a component name and as a table folder; for a path
 * (dir/name), its last part as the name and the part before it as the
 * folder.
 */
void
fuzz_sstable_names(const uint8_t *data, size_t len)
{
	const char *s = (const char *) data;
	const char *slash = NULL;
	size_t		i;

	for (i = len; i > 0 && slash == NULL; i--)
		if (s[i - 1] == '/')
			slash = s + i - 1;
	check_sstable_name(s, len);
	check_table_dir(s, len);
	if (slash != NULL)
	{
		const char *dir;

		check_sstable_name(slash + 1, len - (size_t) (slash + 1 - s));
		for (dir = slash; dir > s && dir[-1] != '/'; dir--)
			;
		check_table_dir(dir, (size_t) (slash - dir));
	}
}
