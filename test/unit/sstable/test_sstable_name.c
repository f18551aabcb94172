/*
 * test_sstable_name.c - SSTable component file names: every file of every
 * real SSTable in test/data/sstables parses to its manifest's descriptor,
 * version, format, generation (and keyspace and table where the name holds
 * them); table folders give the manifest's table; both namings' temporary
 * markers, 4.1+ time-UUID generations, and names that must be refused.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "bc_sstable_name.h"
#include "bc_status.h"
#include "unit.h"

static int
slice_is(const char *p, size_t len, const char *s)
{
	return len == strlen(s) && memcmp(p, s, len) == 0;
}

static bc_status
parse(const char *name, bc_sstable_name *n)
{
	return bc_sstable_name_parse(name, strlen(name), n);
}

/* Every file in the folders of the manifest's SSTables. */
static void
manifest(void)
{
	unit_tsv	t;
	char	   *f[32];
	int			nf,
				rows = 0,
				files = 0,
				tables = 0;

	if (unit_tsv_open(&t, "sstables/MANIFEST.tsv") != 0)
	{
		CHECK(0, "cannot open sstables/MANIFEST.tsv");
		return;
	}
	while ((nf = unit_tsv_next(&t, f, 32)) > 0)
	{
		const char *dir = f[0],
				   *descriptor = f[1],
				   *version = f[2],
				   *format = f[3],
				   *generation = f[4],
				   *keyspace = f[5],
				   *table = f[6];
		char		path[4096];
		DIR		   *d;
		struct dirent *e;
		size_t		dlen = strlen(descriptor);
		int			mine = 0;

		if (nf < 8 || strcmp(dir, "dir") == 0)
			continue;			/* header */
		rows++;
		snprintf(path, sizeof(path), "%s", unit_path("sstables"));
		snprintf(path + strlen(path), sizeof(path) - strlen(path), "/%s", dir);
		d = opendir(path);
		CHECK(d != NULL, "%s: cannot open", path);
		if (d == NULL)
			continue;
		while ((e = readdir(d)) != NULL)
		{
			bc_sstable_name n;
			bc_status	st;

			if (strncmp(e->d_name, descriptor, dlen) != 0 || e->d_name[dlen] != '-')
				continue;
			/* another SSTable whose descriptor extends this one's */
			if (strchr(e->d_name + dlen + 1, '-') != NULL)
				continue;
			mine++;
			files++;
			st = parse(e->d_name, &n);
			CHECK(st == BC_OK, "%s/%s: %s", dir, e->d_name, bc_status_message(st));
			if (st != BC_OK)
				continue;
			CHECK(n.descriptor_len == dlen, "%s: descriptor length %zu, expected %zu",
				  e->d_name, n.descriptor_len, dlen);
			CHECK(slice_is(n.version, n.version_len, version), "%s: version", e->d_name);
			CHECK(slice_is(n.generation, n.generation_len, generation), "%s: generation", e->d_name);
			CHECK(n.format == (strcmp(format, "bti") == 0 ? BC_SSTABLE_BTI : BC_SSTABLE_BIG),
				  "%s: format", e->d_name);
			CHECK(slice_is(n.component, n.component_len, e->d_name + dlen + 1),
				  "%s: component", e->d_name);
			CHECK(!n.temporary && !n.uuid_generation, "%s: flags", e->d_name);
			CHECK(n.legacy == (strchr(descriptor, '-') != descriptor + strlen(version) ||
							   strncmp(descriptor, version, strlen(version)) != 0),
				  "%s: naming", e->d_name);
			if (n.legacy)
			{
				CHECK(slice_is(n.keyspace, n.keyspace_len, keyspace), "%s: keyspace", e->d_name);
				CHECK(slice_is(n.table, n.table_len, table), "%s: table", e->d_name);
			}
		}
		closedir(d);
		CHECK(mine >= 2, "%s/%s: only %d component files found", dir, descriptor, mine);

		/* the table folder of a new-naming SSTable gives its table */
		if (strcmp(table, "-") != 0 && strncmp(descriptor, version, strlen(version)) == 0)
		{
			const char *base = strrchr(dir, '/');
			size_t		tl;

			base = base ? base + 1 : dir;
			CHECK(bc_sstable_table_dir(base, strlen(base), &tl) == BC_OK &&
				  slice_is(base, tl, table), "%s: table folder does not give %s", dir, table);
			tables++;
		}
	}
	unit_tsv_close(&t);
	/* 153 SSTables, 1,190 component files; 38 folders name their table */
	CHECK(rows == 153, "manifest rows: %d", rows);
	CHECK(files >= 1190, "component files parsed: %d", files);
	CHECK(tables >= 30, "table folders checked: %d", tables);
}

static void
synthetic(void)
{
	bc_sstable_name n;
	size_t		tl;
	static const char *const refused[] = {
		"", "Data.db", "nb-1-big", "nb-1-big-Data", "nb-1-xyz-Data.db", "nb--big-Data.db",
		"NB-1-big-Data.db", "abc-1-big-Data.db", "nb-1-big-Data.db.bak.x",
		"nb-12345678901234567890-big-Data.db", "nb-3fw2_0tj4_46w3k2cpidnirvjy7-big-Data.db",
		"nb_txn_compaction_1234.log",
		/* an int for Cassandra's versions (Integer.parseInt), an int64 for
		 * ScyllaDB's (from_chars); the id's last 13 base-36 digits in 64
		 * bits (Long.parseUnsignedLong, std::stoull) */
		"nb-2147483648-big-Data.db", "ks-cf-jb-2147483648-Data.db",
		"me-9223372036854775808-big-Data.db", "nb-zzzz_zzzz_zzzzzzzzzzzzzzzzzz-big-Data.db",
		"nb-3fw2_0tj4_46w3k3w5e11264sgsg-big-Data.db", "nb-1-big-Data+.db.x",
		"dir/nb-1-big-Data.db", "tmp-tmp-nb-1-big-Data.db", "x-nb-1-big-Data.db",
		"ks-cf-ka-x-Data.db", "ks-cf-k1-1-Data.db", "ks!-cf-ka-1-Data.db",
		"ks-cf-tmp-tmp-ka-1-Data.db", "nb-1-big-Data-x.db", "a-b-c-d-e-f-g.db",
		"nb-1-big-.db", "nb-1-big-Data.", "nb-1-big-Da ta.db",
	};
	size_t		i;

	CHECK(parse("nb-3fw2_0tj4_46w3k2cpidnirvjy7k-big-Data.db", &n) == BC_OK &&
		  n.uuid_generation && !n.legacy && !n.temporary && n.generation_len == 28 &&
		  n.descriptor_len == strlen("nb-3fw2_0tj4_46w3k2cpidnirvjy7k-big") &&
		  slice_is(n.component, n.component_len, "Data.db"), "time-UUID generation");
	CHECK(parse("da-3gdv_0b5w_1wvkw2rkpbt9e0guef-bti-Partitions.db", &n) == BC_OK &&
		  n.uuid_generation && n.format == BC_SSTABLE_BTI, "BTI time-UUID generation");
	CHECK(parse("tmp-la-1-big-Data.db", &n) == BC_OK && n.temporary &&
		  slice_is(n.version, n.version_len, "la") &&
		  n.descriptor_len == strlen("tmp-la-1-big"), "tmp- (2.2)");
	CHECK(parse("tmplink-la-7-big-Index.db", &n) == BC_OK && n.temporary &&
		  slice_is(n.generation, n.generation_len, "7"), "tmplink- (2.2)");
	CHECK(parse("ks-cf-tmp-ka-1-Data.db", &n) == BC_OK && n.temporary && n.legacy &&
		  slice_is(n.keyspace, n.keyspace_len, "ks") && slice_is(n.table, n.table_len, "cf") &&
		  slice_is(n.version, n.version_len, "ka"), "tmp- (2.1)");
	CHECK(parse("ks-cf-tmplink-ka-12-Filter.db", &n) == BC_OK && n.temporary && n.legacy,
		  "tmplink- (2.1)");
	CHECK(parse("Keyspace1-Indexed1.626972746864617465-hb-1-Data.db", &n) == BC_OK &&
		  slice_is(n.table, n.table_len, "Indexed1.626972746864617465"), "index table");
	CHECK(parse("me-1-big-Digest.crc32", &n) == BC_OK && parse("mc-5-big-Digest.adler32", &n) == BC_OK &&
		  parse("ka-1-big-Digest.sha1", &n) == BC_OK && parse("nb-1-big-SI_idx_name.db", &n) == BC_OK &&
		  parse("nb-1-big-TOC.txt", &n) == BC_OK, "components");
	CHECK(parse("ms-1-big-Data.db", &n) == BC_OK && parse("mt-2-big-Data.db", &n) == BC_OK,
		  "ScyllaDB versions");
	/* what the readers take: an upper-case id (UUIDBasedSSTableId's
	 * pattern is CASE_INSENSITIVE), the largest id, leading zeros,
	 * ScyllaDB's int64 generations, 5.0's SAI components */
	CHECK(parse("nb-3FW2_0tj4_46w3k2cpidnirvjy7k-big-Data.db", &n) == BC_OK && n.uuid_generation,
		  "upper-case time-UUID generation");
	CHECK(parse("nb-3fw2_0tj4_46w3k3w5e11264sgsf-big-Data.db", &n) == BC_OK && n.uuid_generation,
		  "time-UUID generation with 2^64 - 1 as its last part");
	CHECK(parse("nb-00000000000000000002147483647-big-Data.db", &n) == BC_OK &&
		  n.generation_len == 29 && parse("ks-cf-jb-2147483647-Data.db", &n) == BC_OK,
		  "the largest int generation, with leading zeros");
	CHECK(parse("me-9223372036854775807-big-Data.db", &n) == BC_OK &&
		  parse("ks-cf-ka-3000000000-Data.db", &n) == BC_OK && n.legacy,
		  "ScyllaDB's int64 generations");
	CHECK(parse("da-1-bti-SAI+aa+GroupComplete.db", &n) == BC_OK &&
		  slice_is(n.component, n.component_len, "SAI+aa+GroupComplete.db") &&
		  parse("oa-3-big-SAI+aa+idx_v+Meta.db", &n) == BC_OK && !n.unfinished, "SAI components");
	/* ScyllaDB's temporary components (sstable_version.cc): TOC.txt.tmp
	 * in its versions, TemporaryHashes.db.tmp in ms and mt; not
	 * Statistics.db.tmp, nor either name in a version ScyllaDB does not
	 * write */
	CHECK(parse("me-1-big-TOC.txt.tmp", &n) == BC_OK && n.unfinished &&
		  slice_is(n.component, n.component_len, "TOC.txt.tmp") &&
		  n.descriptor_len == strlen("me-1-big") &&
		  parse("ks-cf-ka-2-TOC.txt.tmp", &n) == BC_OK && n.unfinished && n.legacy &&
		  parse("la-3-big-TOC.txt.tmp", &n) == BC_OK && n.unfinished &&
		  parse("ms-3gdv_0b5w_1wvkw2rkpbt9e0guef-big-TemporaryHashes.db.tmp", &n) == BC_OK &&
		  n.unfinished && n.uuid_generation &&
		  parse("mt-4-big-TemporaryHashes.db.tmp", &n) == BC_OK && n.unfinished &&
		  parse("mt-4-big-TOC.txt", &n) == BC_OK && !n.unfinished,
		  "ScyllaDB's TOC.txt.tmp and TemporaryHashes.db.tmp");
	CHECK(parse("nb-1-big-TOC.txt.tmp", &n) == BC_ERR_SSTABLE_NAME &&
		  parse("da-1-bti-TOC.txt.tmp", &n) == BC_ERR_SSTABLE_NAME &&
		  parse("me-1-big-TemporaryHashes.db.tmp", &n) == BC_ERR_SSTABLE_NAME &&
		  parse("ms-1-big-Statistics.db.tmp", &n) == BC_ERR_SSTABLE_NAME &&
		  parse("ms-1-big-Data.db.tmp", &n) == BC_ERR_SSTABLE_NAME &&
		  parse("tmp-ms-1-big-TOC.txt.tmpx", &n) == BC_ERR_SSTABLE_NAME,
		  "not ScyllaDB's temporary components");
	CHECK(bc_sstable_component_unfinished("TOC.txt.tmp", 11, "mc", 2) &&
		  !bc_sstable_component_unfinished("TOC.txt.tmp", 11, "oa", 2) &&
		  !bc_sstable_component_unfinished("TOC.txt.tm", 10, "mc", 2) &&
		  bc_sstable_component_unfinished("TemporaryHashes.db.tmp", 22, "ms", 2) &&
		  !bc_sstable_component_unfinished("TemporaryHashes.db.tmp", 22, "md", 2),
		  "bc_sstable_component_unfinished");
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		CHECK(parse(refused[i], &n) == BC_ERR_SSTABLE_NAME, "refused: '%s'", refused[i]);

	/* every prefix of a valid name: never read past its length */
	{
		const char *full = "ks-cf.idx-tmp-ka-12-CompressionInfo.db";
		char	   *copy;
		size_t		len = strlen(full);

		for (i = 0; i <= len; i++)
		{
			copy = malloc(i ? i : 1);
			memcpy(copy, full, i);
			(void) bc_sstable_name_parse(copy, i, &n);
			free(copy);
		}
		CHECK(1, "prefixes");
	}

	CHECK(bc_sstable_table_dir("table1-ea3b3e6b-0d78-4913-89f2-15fcf98711d0", 43, &tl) == BC_OK &&
		  tl == 6, "dashed UUID table folder");
	CHECK(bc_sstable_table_dir("iot-5b608090e03d11ebb4c1d335f841c590", 36, &tl) == BC_OK &&
		  tl == 3, "32-hex table folder");
	CHECK(bc_sstable_table_dir("legacy_ka_clust", 15, &tl) == BC_OK && tl == 15, "bare table folder");
	CHECK(bc_sstable_table_dir("my-table", 8, &tl) == BC_ERR_SSTABLE_NAME, "dash without id");
	CHECK(bc_sstable_table_dir("", 0, &tl) == BC_ERR_SSTABLE_NAME, "empty folder name");
	/* ScyllaDB's ([^/]+)-[\da-fA-F]+: either case, any length */
	CHECK(bc_sstable_table_dir("t-5B608090E03D11EBB4C1D335F841C590", 34, &tl) == BC_OK && tl == 1,
		  "upper-case id");
	CHECK(bc_sstable_table_dir("t_1-cafe", 8, &tl) == BC_OK && tl == 3, "short id");
	CHECK(bc_sstable_table_dir("-cafe", 5, &tl) == BC_ERR_SSTABLE_NAME &&
		  bc_sstable_table_dir("t-", 2, &tl) == BC_ERR_SSTABLE_NAME &&
		  bc_sstable_table_dir("t!-cafe", 7, &tl) == BC_ERR_SSTABLE_NAME,
		  "no table, no id, not a table name");
}

/* TOC.txt's lines, as the readers take them */
static void
toc(void)
{
	static const char real[] = "Data.db\nIndex.db\nStatistics.db\nFilter.db\nTOC.txt\n"
		"CompressionInfo.db\nSummary.db\nDigest.crc32\n";
	static const char crlf[] = "Data.db\r\nCompressionInfo.db\r\n";
	static const char last[] = "Data.db\nCompressionInfo.db";
	static const char near[] = "Data.db\nCompressionInfo.dbx\nxCompressionInfo.db\nCompressionInfo\n";

	CHECK(bc_toc_lists((const uint8_t *) real, sizeof(real) - 1, "CompressionInfo.db") == 1 &&
		  bc_toc_lists((const uint8_t *) real, sizeof(real) - 1, "Data.db") == 1 &&
		  bc_toc_lists((const uint8_t *) real, sizeof(real) - 1, "Digest.crc32") == 1,
		  "a real TOC.txt lists its components");
	CHECK(bc_toc_lists((const uint8_t *) real, sizeof(real) - 1, "Rows.db") == 0,
		  "a real TOC.txt does not list Rows.db");
	CHECK(bc_toc_lists((const uint8_t *) crlf, sizeof(crlf) - 1, "CompressionInfo.db") == 1,
		  "CRLF lines");
	CHECK(bc_toc_lists((const uint8_t *) last, sizeof(last) - 1, "CompressionInfo.db") == 1,
		  "a last line without its newline");
	CHECK(bc_toc_lists((const uint8_t *) near, sizeof(near) - 1, "CompressionInfo.db") == 0,
		  "longer, prefixed and shorter names are not the component");
	CHECK(bc_toc_lists(NULL, 0, "Data.db") == 0, "an empty TOC.txt lists nothing");
}

void
suite_sstable_name(void)
{
	synthetic();
	manifest();
	toc();
}
