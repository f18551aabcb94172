/*
 * bc_sstable_name.c - the names of an SSTable's component files.
 *
 * Cassandra has named component files two ways:
 *
 *   <keyspace>-<table>-[tmp-|tmplink-]<version>-<generation>-<Component>
 *       up to 2.1 (versions before la); the table of a secondary index is
 *       <table>.<index>, so a table field may hold dots
 *   [tmp-|tmplink-]<version>-<generation>-<format>-<Component>
 *       from 2.2 on (la and later), format big or bti (5.0); since 4.1 the
 *       generation may be a time-UUID identifier written in base 36 with
 *       two underscores, 4_4_18 characters ("3fw2_0tj4_46w3k2cpidnirvjy7k"),
 *       instead of a decimal sequence number
 *
 * tmp- and tmplink- mark files still being written (2.x); from 3.0 on a
 * transaction log (<version>_txn_<op>_<uuid>.log) names the files of an
 * unfinished operation instead, and its names parse as ordinary ones;
 * ScyllaDB marks them with a component, TOC.txt.tmp or
 * TemporaryHashes.db.tmp (is_scylla_unfinished).
 * Versions are one or two lower-case letters ("b", "hb", "ka", "nb", "da").
 * A component is the rest of the name: Data.db, Index.db, Filter.db,
 * Statistics.db, Summary.db, TOC.txt, CompressionInfo.db, Digest.crc32
 * (also .adler32, .sha1), CRC.db, Partitions.db, Rows.db, and others (SASI's
 * SI_<index>.db, 5.0 SAI's SAI+aa[+<index>]+<part>.db), never with a '-'.
 *
 * Only the name is read; what a folder says (keyspace, table, snapshots)
 * is the caller's to add.
 *
 * The readers: Cassandra's Descriptor.fromFilename (2.x, 3.x: tokens on
 * '-' read from the end) and Descriptor.fromFileWithComponent (4.1, 5.0:
 * exactly four tokens, Version.validate, SSTableIdFactory.fromString with
 * SequenceBasedSSTableId and UUIDBasedSSTableId, the format by name,
 * Component.parse), and ScyllaDB's sstables/sstables.cc,
 * make_entry_descriptor (its regexes (la|m[cdest])-([^-]+)-(\w+)-(.*) and
 * (\w+)-(\w+)-ka-(\d+)-(.*), generation_type::from_string).  A name is
 * accepted when one reader of its version takes it; each check below names
 * the reader check it mirrors, or says why it is kept where the readers do
 * not check.
 */
#include <stdint.h>
#include <string.h>

#include "bc_sstable_name.h"
#include "bc_status.h"

#define MAX_FIELDS 6

static int
is_lower(char c)
{
	return c >= 'a' && c <= 'z';
}

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Version.validate takes [a-z]+, and each format's isCompatible then
 * bounds it between its earliest and its current version; ScyllaDB knows
 * its own list.  Every version a release has written is one or two
 * letters: a longer one would be an unknown future version bloomcass could
 * not read, so it is not taken for one.
 */
static int
is_version(const char *s, size_t len)
{
	return (len == 1 || len == 2) && is_lower(s[0]) && (len == 1 || is_lower(s[1]));
}

/* the versions ScyllaDB reads (sstables/version.hh: ka, la, mc, md, me,
 * ms, mt) */
static int
is_scylla_version(const char *s, size_t len)
{
	static const char *const v[] = {"ka", "la", "mc", "md", "me", "ms", "mt"};
	size_t		i;

	for (i = 0; len == 2 && i < sizeof(v) / sizeof(v[0]); i++)
		if (s[0] == v[i][0] && s[1] == v[i][1])
			return 1;
	return 0;
}

/*
 * A sequence generation: digits, leading zeros allowed.  Cassandra reads
 * an int (Integer.parseInt up to 4.0; from 4.1 SequenceBasedSSTableId,
 * \d+ of at most 10 characters, then Integer.parseInt), ScyllaDB an
 * int64 (generation_type::from_string, std::from_chars): at most
 * 2^31 - 1, or 2^63 - 1 for a version ScyllaDB reads.
 */
static int
is_sequence(const char *s, size_t len, uint64_t max)
{
	size_t		i;
	uint64_t	v = 0;

	if (len == 0)
		return 0;
	for (i = 0; i < len; i++)
	{
		if (!is_digit(s[i]))
			return 0;
		if (v > (max - (uint64_t) (s[i] - '0')) / 10)
			return 0;
		v = v * 10 + (uint64_t) (s[i] - '0');
	}
	return 1;
}

static int
base36(char c)
{
	if (is_digit(c))
		return c - '0';
	if (is_lower(c))
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return -1;
}

/*
 * A 4.1+ time-UUID identifier, UUIDBasedSSTableId's
 * ([0-9a-z]{4})_([0-9a-z]{4})_([0-9a-z]{5})([0-9a-z]{13}),
 * CASE_INSENSITIVE (ScyllaDB's generation_type::from_string has the same
 * pattern in lower case); the last 13 base-36 digits are read into 64 bits
 * (Long.parseUnsignedLong, std::stoull): more is refused by both.
 */
static int
is_uuid_id(const char *s, size_t len)
{
	size_t		i;
	uint64_t	v = 0;

	if (len != 28 || s[4] != '_' || s[9] != '_')
		return 0;
	for (i = 0; i < len; i++)
	{
		int			d;

		if (i == 4 || i == 9)
			continue;
		if ((d = base36(s[i])) < 0)
			return 0;
		if (i >= 15)
		{
			if (v > (UINT64_MAX - (uint64_t) d) / 36)
				return 0;
			v = v * 36 + (uint64_t) d;
		}
	}
	return 1;
}

/*
 * Keyspace and table names in the names up to 2.1: \w+, as ScyllaDB's
 * (\w+)-(\w+)-ka-... regex and Cassandra's schema (CFMetaData.isNameValid)
 * have them, a secondary index's table <table>.<index> (Cassandra 2.x's
 * tokenizer takes any token, but no table has another name).  Table
 * folders too (Descriptor's SSTABLE_DIR_PATTERN, (?<tableName>\w+)).
 */
static int
is_name(const char *s, size_t len, int dots)
{
	size_t		i;

	if (len == 0)
		return 0;
	for (i = 0; i < len; i++)
	{
		char		c = s[i];

		if (!(is_lower(c) || is_digit(c) || (c >= 'A' && c <= 'Z') || c == '_' ||
			  (dots && c == '.')))
			return 0;
	}
	return 1;
}

/*
 * <Name>.<ext>: the component types' names (Component.Type: Data.db,
 * TOC.txt, Digest.crc32, ...), SASI's SI_<index>.db (Component.Type
 * SECONDARY_INDEX, "SI_.*.db") and 5.0 SAI's SAI+<version>[+<index>]+
 * <part>.db (index/sai/disk/format/Version.defaultFileNameFormat: "SAI",
 * '+', the SAI version "aa", '+' and the index name for a per-index file,
 * '+', the IndexComponent's name, ".db"; in the table folder beside the
 * SSTable, no folder of their own): letters, digits, '_' and '+', one '.'
 * with something on both sides.  Cassandra's parsers take any other token
 * as a CUSTOM component (Component.parse) and ScyllaDB's as an Unknown one
 * (component_from_sstring), which neither reads; kept narrower so that a
 * copy left beside an SSTable (Data.db.bak, Data.db~) is not counted as
 * one of its components.  Never a '-': Cassandra splits the name there
 * (ScyllaDB's last group would take one, Cassandra's parsers then refuse
 * the name).
 */
static int
is_component(const char *s, size_t len)
{
	size_t		i,
				dot = 0;
	int			ndots = 0;

	if (len < 3)
		return 0;
	for (i = 0; i < len; i++)
	{
		char		c = s[i];

		if (c == '.')
		{
			ndots++;
			dot = i;
		}
		else if (!(is_lower(c) || is_digit(c) || (c >= 'A' && c <= 'Z') || c == '_' || c == '+'))
			return 0;
	}
	return ndots == 1 && dot > 0 && dot < len - 1;
}

/*
 * ScyllaDB's temporary components (sstables/sstable_version.cc, the
 * component maps): TOC.txt.tmp (TemporaryTOC) for every version it reads,
 * TemporaryHashes.db.tmp (the partition key hashes its ms and mt writer
 * keeps until it builds Filter.db from them, sstables/mx/writer.cc) for ms
 * and mt.  Either one marks an SSTable being written, or (TOC.txt.tmp) being
 * deleted: ScyllaDB's sstable_directory (filesystem_components_lister::
 * handle: temp_toc_found; TemporaryHashes, "a leftover from a
 * partially-written sstable") removes it at startup, so it is not part of
 * the table.  Their second '.' is why is_component does not take them.
 * Statistics.db.tmp (TemporaryStatistics, a Statistics.db being rewritten)
 * is removed alone, its SSTable kept with its Statistics.db: it is left
 * out, as a copy beside a component is.
 */
static int
is_scylla_unfinished(const char *s, size_t len, const char *version, size_t version_len)
{
	if (!is_scylla_version(version, version_len))
		return 0;
	if (len == 11 && memcmp(s, "TOC.txt.tmp", 11) == 0)
		return 1;
	return len == 22 && memcmp(s, "TemporaryHashes.db.tmp", 22) == 0 &&
		version_len == 2 && version[0] == 'm' && (version[1] == 's' || version[1] == 't');
}

int
bc_sstable_component_unfinished(const char *component, size_t len,
								const char *version, size_t version_len)
{
	return is_scylla_unfinished(component, len, version, version_len);
}

/* 2.x's temporary markers (Descriptor.fromFilename: "tmp", "tmplink";
 * Descriptor.Type) */
static int
is_temporary_marker(const char *s, size_t len)
{
	return (len == 3 && memcmp(s, "tmp", 3) == 0) ||
		(len == 7 && memcmp(s, "tmplink", 7) == 0);
}

bc_status
bc_sstable_name_parse(const char *name, size_t len, bc_sstable_name *out)
{
	const char *f[MAX_FIELDS];
	size_t		flen[MAX_FIELDS];
	int			n = 0,
				first,
				ver,
				component_ok;
	size_t		i;

	memset(out, 0, sizeof(*out));
	if (len == 0)
		return BC_ERR_SSTABLE_NAME;

	/* split on '-' */
	f[0] = name;
	for (i = 0; i < len; i++)
	{
		if (name[i] == '/' || name[i] == '\0')
			return BC_ERR_SSTABLE_NAME; /* a base name, not a path */
		if (name[i] == '-')
		{
			flen[n] = (size_t) (name + i - f[n]);
			if (++n == MAX_FIELDS)
				return BC_ERR_SSTABLE_NAME;
			f[n] = name + i + 1;
		}
	}
	flen[n] = (size_t) (name + len - f[n]);
	n++;

	/* ScyllaDB's TOC.txt.tmp and TemporaryHashes.db.tmp are taken below,
	 * for its versions */
	component_ok = is_component(f[n - 1], flen[n - 1]);

	/*
	 * From 2.2: [tmp-]version-generation-format-Component.  The format field
	 * tells it from the older naming, whose field in that place is a
	 * generation.
	 */
	first = (n == 5 && is_temporary_marker(f[0], flen[0])) ? 1 : 0;
	/* the formats: Cassandra's big and bti (SSTableFormat.Type; 5.0: the
	 * configured formats, "unknown 'format' part"), ScyllaDB's big */
	if (n == 4 + first && is_version(f[first], flen[first]) &&
		(is_sequence(f[first + 1], flen[first + 1],
					 is_scylla_version(f[first], flen[first]) ? INT64_MAX : INT32_MAX) ||
		 is_uuid_id(f[first + 1], flen[first + 1])) &&
		flen[first + 2] == 3 &&
		(memcmp(f[first + 2], "big", 3) == 0 || memcmp(f[first + 2], "bti", 3) == 0) &&
		(component_ok ||
		 is_scylla_unfinished(f[first + 3], flen[first + 3], f[first], flen[first])))
	{
		out->temporary = first;
		out->version = f[first];
		out->version_len = flen[first];
		out->generation = f[first + 1];
		out->generation_len = flen[first + 1];
		out->uuid_generation = is_uuid_id(f[first + 1], flen[first + 1]);
		out->format = f[first + 2][2] == 'i' ? BC_SSTABLE_BTI : BC_SSTABLE_BIG;
		out->component = f[first + 3];
		out->component_len = flen[first + 3];
		out->descriptor_len = (size_t) (f[first + 3] - 1 - name);
		out->unfinished = !component_ok;
		return BC_OK;
	}

	/* Up to 2.1: keyspace-table-[tmp-]version-generation-Component */
	ver = (n == 6 && is_temporary_marker(f[2], flen[2])) ? 3 : 2;
	if (n == ver + 3 && is_name(f[0], flen[0], 0) && is_name(f[1], flen[1], 1) &&
		is_version(f[ver], flen[ver]) &&
		is_sequence(f[ver + 1], flen[ver + 1],
					is_scylla_version(f[ver], flen[ver]) ? INT64_MAX : INT32_MAX) &&
		(component_ok || is_scylla_unfinished(f[ver + 2], flen[ver + 2], f[ver], flen[ver])))
	{
		out->legacy = 1;
		out->temporary = ver == 3;
		out->keyspace = f[0];
		out->keyspace_len = flen[0];
		out->table = f[1];
		out->table_len = flen[1];
		out->version = f[ver];
		out->version_len = flen[ver];
		out->generation = f[ver + 1];
		out->generation_len = flen[ver + 1];
		out->format = BC_SSTABLE_BIG;
		out->component = f[ver + 2];
		out->component_len = flen[ver + 2];
		out->descriptor_len = (size_t) (f[ver + 2] - 1 - name);
		out->unfinished = !component_ok;
		return BC_OK;
	}
	return BC_ERR_SSTABLE_NAME;
}

/* hex digits, with dashes at the given positions (a UUID's 8-4-4-4-12);
 * lower case, or either case */
static int
is_hex_id(const char *s, size_t len, int dashed, int any_case)
{
	size_t		i;

	for (i = 0; i < len; i++)
	{
		char		c = s[i];

		if (dashed && (i == 8 || i == 13 || i == 18 || i == 23))
		{
			if (c != '-')
				return 0;
		}
		else if (!(is_digit(c) || (c >= 'a' && c <= 'f') ||
				   (any_case && c >= 'A' && c <= 'F')))
			return 0;
	}
	return 1;
}

/*
 * The table name of a table folder: <table>-<32 hex digits> (Cassandra
 * 2.1+: Descriptor's SSTABLE_DIR_PATTERN, (?<tableName>\w+)-
 * (?<tableId>[0-9a-f]{32})), <table>-<hex digits> of any length and case
 * (ScyllaDB's make_entry_descriptor: ([^/]+)-[\da-fA-F]+), <table>-<dashed
 * UUID> (not a reader's: as some tools write it), or the bare table name
 * (before 2.1: LEGACY_SSTABLE_DIR_PATTERN).  Sets *table_len to the
 * table's part of the name.
 */
bc_status
bc_sstable_table_dir(const char *name, size_t len, size_t *table_len)
{
	const char *dash;

	if (len > 37 && name[len - 37] == '-' && is_hex_id(name + len - 36, 36, 1, 0) &&
		is_name(name, len - 37, 0))
	{
		*table_len = len - 37;
		return BC_OK;
	}
	/* the last '-': a table name has none */
	for (dash = name + len; dash > name && dash[-1] != '-'; dash--)
		;
	if (dash > name + 1 && dash < name + len &&
		is_hex_id(dash, (size_t) (name + len - dash), 0, 1) &&
		is_name(name, (size_t) (dash - 1 - name), 0))
	{
		*table_len = (size_t) (dash - 1 - name);
		return BC_OK;
	}
	if (is_name(name, len, 0))
	{
		*table_len = len;
		return BC_OK;
	}
	return BC_ERR_SSTABLE_NAME;
}

int
bc_toc_lists(const uint8_t *toc, size_t len, const char *component)
{
	size_t		want = strlen(component);
	size_t		i = 0;

	while (i < len)
	{
		size_t		start = i,
					end;

		while (i < len && toc[i] != '\n')
			i++;
		end = i++;
		while (start < end && (toc[start] == ' ' || toc[start] == '\t' || toc[start] == '\r'))
			start++;
		while (end > start && (toc[end - 1] == ' ' || toc[end - 1] == '\t' || toc[end - 1] == '\r'))
			end--;
		if (end - start == want && memcmp(toc + start, component, want) == 0)
			return 1;
	}
	return 0;
}
