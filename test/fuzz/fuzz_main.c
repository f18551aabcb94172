/*
 * fuzz_main.c - libFuzzer target for the bloomcass core (src/core): the
 * entry point, which runs every input through every stage, and the
 * helpers the stages share (fuzz.h).
 *
 * Build and run it with test/fuzz/run-short.sh (or run-long.sh), which
 * compiles every src/core .c file with every test/fuzz .c file, from the
 * repository root:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
 *       -Isrc/core src/core/[every .c] test/fuzz/[every .c]
 *       -llz4 -lsnappy -lz -lzstd -lm -o fuzz_core
 *
 * Every input goes through all of the stages (each is cheap, and each
 * reads the input its own way), so the seeds reach their own paths without
 * a mode byte:
 *
 *   fuzz_filter.c      the input as a Filter.db image, and a valid image
 *                      synthesized from it (the deep checks: both layouts,
 *                      keys and hash orders, union/intersection); bit
 *                      indexes for any word count; murmur3, tokens,
 *                      popcounts and estimates
 *   fuzz_type_io.c     the bloom type's binary and text input, through a
 *                      PostgreSQL-free replica of src/bloom_io.c
 *   fuzz_names.c       versions, Filter.db file names, SSTable component
 *                      names and table folders
 *   fuzz_keys.c        varint and decimal text, composite keys
 *   fuzz_big.c         <version> <chunking> <file>: Statistics.db,
 *                      Index.db (whole, through the cursor in chunks and
 *                      through bc_index_walk_run) and Summary.db
 *   fuzz_trie.c        the input as a BTI Partitions.db: its footer and
 *                      keys (whole, in two steps, through a reader), its
 *                      trie (every leaf in order, each found again, walks
 *                      of keys from the input, nodes at any offset)
 *   fuzz_trie_keys.c   <selector> <reader> Partitions.db Rows.db
 *                      [CompressionInfo.db] Data.db: the keys of a trie
 *                      SSTable and lookups, uncompressed and compressed
 *   fuzz_compression.c <version> <sizes> CompressionInfo.db [Data.db]
 *   fuzz_compression_dict.c <s> <BE16 length> CompressionInfo.db Data.db:
 *                      Cassandra 6.0's dictionary trailer against a model,
 *                      Data.db through it, and copies made with a
 *                      dictionary read back (one with another id refused)
 *   fuzz_data.c        Data.db through chunks: arbitrary chunks with right
 *                      checksums for every compressor, and valid chunks
 *                      made by the compressors' libraries, read back
 *   fuzz_lookup.c      partitioner order; <version> <partitioner>
 *                      Summary.db Index.db lookups, and valid pairs
 *                      synthesized from keys of the input
 *                      (fuzz_lookup_pair.c), with their key lengths and
 *                      samples' positions changed
 *   fuzz_dir.c         transaction logs, their names, data folders
 *   fuzz_mounts.c      <real path> NUL <mountinfo>: one path per folder
 *                      whichever mount shows it (bc_mount_canonical)
 *   fuzz_cqlkeys.c     marshal type strings; <type> key bytes (text, JSON)
 *                      and key text (parse), each back and forth; types
 *                      nested up to 120,000 levels, built from the input
 *   fuzz_hll.c         a cardinality estimator whole, two merged both ways,
 *                      a filter's size explained
 *
 * Any violated invariant calls abort() after printing what failed.
 */
#include <string.h>

#include "bc_codec.h"
#include "bc_index.h"
#include "bc_status.h"
#include "fuzz.h"

/* Refuse inputs over 64 MB: the fuzzer must not OOM (the runs use
 * -max_len=65536 anyway). */
#define FUZZ_MAX_INPUT ((size_t) 64 * 1024 * 1024)

void *
xmalloc(size_t n)
{
	void	   *p = malloc(n > 0 ? n : 1);

	if (p == NULL)
		abort();
	return p;
}

exact_buf
exact_alloc(size_t cap)
{
	exact_buf	b;

	b.base = xmalloc(cap);
	b.p = cap > 0 ? b.base : b.base + 1;
	return b;
}

uint64_t
naive_popcount(const uint8_t *p, size_t n)
{
	uint64_t	c = 0;
	size_t		i;

	for (i = 0; i < n; i++)
	{
		unsigned	v = p[i];

		while (v)
		{
			c += v & 1;
			v >>= 1;
		}
	}
	return c;
}

void *
fuzz_alloc(void *arg, size_t size)
{
	(void) arg;
	return xmalloc(size);
}

int
inside(const void *p, size_t n, const uint8_t *base, size_t len)
{
	const uint8_t *q = p;

	return q >= base && q <= base + len && n <= (size_t) (base + len - q);
}

int
is_printable(const uint8_t *s, size_t n)
{
	size_t		i;

	for (i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return 0;
	return 1;
}

int
pick_keys(const uint8_t *data, size_t len, key_ref *keys)
{
	int			n = 0;
	int			i;

	keys[n].p = data;			/* empty key */
	keys[n++].len = 0;
	keys[n].p = data;			/* the whole input, capped */
	keys[n++].len = len < 4096 ? len : 4096;
	for (i = 0; n < FUZZ_NKEYS && len > 0; i++)
	{
		size_t		off = ((size_t) data[(size_t) i % len] * 7 + (size_t) i * 13) % (len + 1);
		size_t		klen = (size_t) data[((size_t) i + 1) % len] % 64;

		if (klen > len - off)
			klen = len - off;
		keys[n].p = data + off;
		keys[n++].len = klen;
	}
	return n;
}

const fuzz_version fuzz_versions[] = {
	{"ia", SV_LEGACY_12, BC_INDEX_ERA_12}, {"ib", SV_LEGACY_12, BC_INDEX_ERA_12},
	{"ic", SV_LEGACY_12, BC_INDEX_ERA_12}, {"ja", SV_LEGACY_20, BC_INDEX_ERA_20},
	{"jb", SV_LEGACY_20, BC_INDEX_ERA_20}, {"ka", SV_TOC, BC_INDEX_ERA_21},
	{"la", SV_TOC, BC_INDEX_ERA_21}, {"lb", SV_TOC, BC_INDEX_ERA_21},
	{"ma", SV_HEADER, BC_INDEX_ERA_30}, {"mb", SV_HEADER, BC_INDEX_ERA_30},
	{"mc", SV_HEADER, BC_INDEX_ERA_30}, {"md", SV_HEADER, BC_INDEX_ERA_30},
	{"me", SV_HEADER, BC_INDEX_ERA_30}, {"ms", SV_HEADER, -1},
	{"mt", SV_HEADER, -1}, {"na", SV_CRC, BC_INDEX_ERA_30},
	{"nb", SV_CRC, BC_INDEX_ERA_30}, {"nc", SV_CRC, BC_INDEX_ERA_30},
	{"oa", SV_CRC, BC_INDEX_ERA_30}, {"da", SV_CRC, -1}, {"bb", SV_CRC, -1},
	/* refused: pre-1.2, unknown, malformed; aa and ca (DataStax's trie
	 * versions, read since) keep their places so that the corpus's
	 * first bytes pick the versions they picked; pc stands where pa
	 * (Cassandra 6.0's, read since) was */
	{"hb", SV_REFUSED, -1}, {"e", SV_REFUSED, -1}, {"aa", SV_CRC, -1},
	{"ca", SV_CRC, -1}, {"mf", SV_REFUSED, -1}, {"pc", SV_REFUSED, -1},
	{"zz", SV_REFUSED, -1}, {"m", SV_REFUSED, -1}, {"", SV_REFUSED, -1},
	{"nab", SV_REFUSED, -1}, {"Ma", SV_REFUSED, -1},
	/* DataStax's versions whose Statistics.db layouts differ from bb's and
	 * ca's (read_dse_fields): ad's host id without the DSE fields, ba's
	 * DSE fields without a host id, cb's token space coverage */
	{"ad", SV_CRC, -1}, {"ba", SV_CRC, -1}, {"cb", SV_CRC, -1},
};

const int	fuzz_nversions = (int) (sizeof(fuzz_versions) / sizeof(fuzz_versions[0]));

const fuzz_version *
pick_version(const uint8_t *data, size_t len)
{
	return &fuzz_versions[(len > 0 ? data[0] : 0) % fuzz_nversions];
}

static int
fuzz_mem_read(void *arg, uint64_t offset, uint8_t *buf, size_t len, size_t *got)
{
	fuzz_mem   *m = arg;
	size_t		n = 0;

	*got = 0;
	m->reads++;
	if (m->reads == m->fail_at)
		return 1;
	if ((m->budget > 0 && m->reads > m->budget) ||
		(m->budget_bytes > 0 && m->bytes > m->budget_bytes))
	{
		m->exhausted = 1;
		return 1;
	}
	if (offset + len > m->max_end || offset + len < offset)
		m->max_end = offset + len < offset ? UINT64_MAX : offset + len;
	if (offset < m->len)
	{
		n = m->len - (size_t) offset;
		if (n > len)
			n = len;
		if (m->piece > 0 && n > m->piece)
			n = m->piece;
		memcpy(buf, m->data + offset, n);
	}
	m->bytes += n;
	*got = n;
	return 0;
}

bc_reader
fuzz_mem_open(fuzz_mem *m, const uint8_t *data, size_t len)
{
	bc_reader	r;

	memset(m, 0, sizeof(*m));
	m->data = data;
	m->len = len;
	r.read = fuzz_mem_read;
	r.arg = m;
	r.size = len;
	return r;
}

/* Every status has a sentence; order and layout names. */
static void
check_names_of_things(void)
{
	int			s;

	for (s = 0; s <= BC_STATUS_COUNT; s++)
	{
		const char *m = bc_status_message((bc_status) s);

		CHECK(m != NULL && m[0] != '\0');
	}
	CHECK(strcmp(bc_order_name(BC_ORDER_OLD), "old") == 0);
	CHECK(strcmp(bc_order_name(BC_ORDER_NEW), "new") == 0);
	CHECK(strcmp(bc_layout_name(BC_LAYOUT_SWAPPED), "swapped") == 0);
	CHECK(strcmp(bc_layout_name(BC_LAYOUT_RAW), "raw") == 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	key_ref		keys[FUZZ_NKEYS];
	int			nkeys;

	if (size > FUZZ_MAX_INPUT)
		return 0;

	nkeys = pick_keys(data, size, keys);

	fuzz_filterdb(data, size, keys, nkeys);
	fuzz_type(data, size, keys, nkeys);
	fuzz_names(data, size);
	fuzz_numbers(data, size);
	fuzz_composite(data, size);
	fuzz_hash(data, size);
	fuzz_indexes(data, size);
	fuzz_sstable_names(data, size);
	fuzz_statistics(data, size);
	fuzz_index(data, size);
	fuzz_summary(data, size);
	fuzz_partitions(data, size);
	fuzz_trie(data, size, keys, nkeys);
	fuzz_trie_keys(data, size, keys, nkeys);
	fuzz_compression(data, size);
	fuzz_compression_dict(data, size);
	fuzz_data(data, size);
	fuzz_partitioner(data, size, keys, nkeys);
	fuzz_lookup(data, size, keys, nkeys);
	fuzz_txn_log(data, size);
	fuzz_mounts(data, size);
	fuzz_cql(data, size);
	fuzz_hll(data, size);
	if (size == 0)
		check_names_of_things();
	return 0;
}
