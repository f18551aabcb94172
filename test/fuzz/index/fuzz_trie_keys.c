/*
 * fuzz_trie_keys.c - the partition keys of a trie-indexed SSTable and
 * lookups of one (bc_trie_keys.c), the input read as
 *
 *   <selector> <reader> <BE16 n> Partitions.db <BE16 n> Rows.db
 *   [<BE16 n> CompressionInfo.db] Data.db
 *
 * (lengths cut to what is left).  Selector bits 0-1: the version (da, bb,
 * mt, ms); bit 2: ByteOrderedPartitioner, else Murmur3; bit 3: the
 * compressed copy's dictionary parts reversed; bit 4: a CompressionInfo.db
 * is there; bits 5-7: the compressor of the compressed copy below.  Reader bits 0-2: the pieces reads give (0: whole); bits
 * 3-5: that copy's chunk length; bit 6: a stack of a few frames; bit 7:
 * raw chunks in it.  Each part is an exact-size heap block.
 *
 * The keys are listed (bc_trie_keys) three ways: Data.db as given, through
 * CompressionInfo.db when there is one; Data.db uncompressed; and Data.db
 * compressed here by the chosen compressor's library (fuzz_compress) with
 * valid chunks, which must give the uncompressed listing exactly (status,
 * count, keys).  Invariants: statuses in range (BC_ERR_READ only when the
 * bounds on reads were reached), the component a status concerns, the
 * count at most the footer's (which is below the file's size) and equal
 * to it at a clean end; each key at most 65535 bytes, lying in Rows.db or
 * Data.db at its leaf's position after its length, its leaf inside the
 * trie; its byte-comparable form (a reference encoder of OSS50's) starting
 * with the leaf's prefix and after the key before it (not for ms, whose
 * keys are typed); its leaf's hash byte its own; the key found again by
 * bc_trie_has_key when its leaf has no children; when the listing ends
 * without error, none of its keys answered "absent" by bc_trie_has_key
 * (the keys-versus-lookup agreement); a key of the input found
 * only when it lies in Rows.db or Data.db after its length; ms refused;
 * an ended or failed iteration stays so.
 */
#include <string.h>

#include "bc_compression.h"
#include "bc_data.h"
#include "bc_murmur3.h"
#include "bc_partitions.h"
#include "bc_status.h"
#include "bc_trie.h"
#include "bc_trie_keys.h"
#include "fuzz.h"

/* a path has at most a node a byte of the trie */
#define TK_FRAMES ((size_t) 65536 + 1)
/* reads of Partitions.db, bytes of Rows.db and Data.db, at most (then
 * BC_ERR_READ): keys shared by many leaves cost the count times the key */
#define TK_READS ((uint64_t) 1 << 18)
#define TK_BYTES ((uint64_t) 1 << 24)
/* the longest form: 0x40, the token (the key escaped: two bytes a byte at
 * worst, and an end), 0x40, the key escaped, 0x38 */
#define FORM_MAX (2 * (2 * (size_t) BC_TRIE_KEY_MAX + 1) + 3)

/* listed keys looked up again once the listing ended well, at most */
#define AGREE_KEYS 32
#define AGREE_KEY_MAX 256

static uint8_t agree[AGREE_KEYS][AGREE_KEY_MAX];
static size_t agree_len[AGREE_KEYS];
static bc_trie_frame frames[TK_FRAMES];
static bc_trie_keys kit;
static uint8_t prefix[TK_FRAMES];
static uint8_t form[FORM_MAX],
			prev_form[FORM_MAX];

typedef struct sst_parts
{
	uint8_t		sel,
				rd;
	const char *version;
	bc_partitioner p;
	int			typed;			/* ms */
	uint8_t    *parts,
			   *rows,
			   *info,
			   *data;
	size_t		plen,
				rlen,
				ilen,
				dlen;
	bc_partitions_footer foot;
} sst_parts;

/* what one listing gave */
typedef struct keys_result
{
	bc_status	st;
	uint64_t	n;
	uint64_t	seq;
	int			exhausted;		/* the bounds on reads were reached */
} keys_result;

/* a part: BE16 length, then that many bytes (cut to what is left), copied
 * to an exact-size block */
static uint8_t *
take(const uint8_t **p, const uint8_t *end, size_t *n)
{
	size_t		want = 0;
	uint8_t    *b;

	if (end - *p >= 2)
	{
		want = ((size_t) (*p)[0] << 8) | (*p)[1];
		*p += 2;
	}
	if (want > (size_t) (end - *p))
		want = (size_t) (end - *p);
	b = xmalloc(want);
	if (want > 0)
		memcpy(b, *p, want);
	*p += want;
	*n = want;
	return b;
}

/* ByteSource's escaping (OSS50): 0x00 then 0xFE for each further zero and
 * 0xFF before a non-zero byte; the end 0x00, or 0xFE after a zero */
static size_t
ref_escape(const uint8_t *k, size_t n, uint8_t *out)
{
	size_t		o = 0,
				i = 0;

	while (i < n)
	{
		if (k[i] != 0)
		{
			out[o++] = k[i++];
			continue;
		}
		out[o++] = 0x00;
		for (i++; i < n && k[i] == 0; i++)
			out[o++] = 0xfe;
		if (i == n)
		{
			out[o++] = 0xfe;
			return o;
		}
		out[o++] = 0xff;
	}
	out[o++] = 0x00;
	return o;
}

/* DecoratedKey.asComparableBytes: 0x40 token 0x40 key 0x38 */
static size_t
ref_form(bc_partitioner p, const uint8_t *k, size_t n, uint8_t *out)
{
	size_t		o = 0;

	out[o++] = 0x40;
	if (p == BC_PARTITIONER_MURMUR3)
	{
		uint64_t	t = (uint64_t) bc_token(k, n) ^ UINT64_C(0x8000000000000000);
		int			i;

		for (i = 7; i >= 0; i--)
			out[o++] = (uint8_t) (t >> (8 * i));
	}
	else
		o += ref_escape(k, n, out + o);
	out[o++] = 0x40;
	o += ref_escape(k, n, out + o);
	out[o++] = 0x38;
	return o;
}

static int
bytes_cmp(const uint8_t *a, size_t al, const uint8_t *b, size_t bl)
{
	int			c = memcmp(a, b, al < bl ? al : bl);

	return c != 0 ? c : (al < bl ? -1 : al > bl);
}

/* key after its BE16 length somewhere in f (n bytes) */
static int
in_file(const uint8_t *f, size_t n, const uint8_t *k, size_t l)
{
	size_t		o;

	for (o = 0; o + 2 + l <= n; o++)
		if (f[o] == (uint8_t) (l >> 8) && f[o + 1] == (uint8_t) l && memcmp(f + o + 2, k, l) == 0)
			return 1;
	return 0;
}

static int
is_compression_status(bc_status st)
{
	return st >= BC_ERR_COMPRESSION_TRUNCATED && st <= BC_ERR_COMPRESSION_CORRUPT;
}

/* what an ms lookup (by token, then every key under that node) may end
 * with: the statuses of a trie walk, an iteration and a key read */
static int
typed_status_ok(bc_status st, const fuzz_mem *md)
{
	return st == BC_OK || (st == BC_ERR_READ && md->exhausted) ||
		st == BC_ERR_TRIE_TRUNCATED || st == BC_ERR_TRIE_POINTER || st == BC_ERR_TRIE_NODE ||
		st == BC_ERR_TRIE_DEPTH || st == BC_ERR_TRIE_COUNT || st == BC_ERR_TRIE_POSITION ||
		st == BC_ERR_TRIE_HASH || is_compression_status(st);
}

/*
 * The Data.db position of the key's partition (bc_trie_keys_position),
 * against a reference: ~ the leaf's position, or the unsigned vint after
 * the key in Rows.db (its leading one bits count the bytes after the
 * first), which must be there and at most 2^63 - 1.
 */
static void
check_position(bc_trie_keys *kit, const sst_parts *sp, int64_t pos, size_t klen, const fuzz_mem *mr)
{
	uint64_t	dpos = 0,
				v = 0,
				off;
	int			from_rows = -1,
				extra = 0,
				i;
	bc_status	st = bc_trie_keys_position(kit, &dpos, &from_rows);

	CHECK(from_rows == (pos >= 0));
	if (pos < 0)
	{
		CHECK(st == BC_OK && dpos == ~(uint64_t) pos);
		return;
	}
	if (st == BC_ERR_READ)
	{
		CHECK(mr->exhausted);
		return;
	}
	off = (uint64_t) pos + 2 + klen;
	if (off >= sp->rlen)
	{
		CHECK(st == BC_ERR_TRIE_POSITION);
		return;
	}
	while (extra < 8 && (sp->rows[off] & (0x80 >> extra)))
		extra++;
	if (off + 1 + (uint64_t) extra > sp->rlen)
	{
		CHECK(st == BC_ERR_TRIE_POSITION);
		return;
	}
	v = extra == 8 ? 0 : (uint64_t) (sp->rows[off] & (0xff >> (extra + 1)));
	for (i = 1; i <= extra; i++)
		v = (v << 8) | sp->rows[off + (uint64_t) i];
	CHECK(st == (v > (uint64_t) INT64_MAX ? BC_ERR_PARTITION_POSITION : BC_OK));
	CHECK(dpos == v);
}

/* the lookup of a listed key: found when its leaf has no children and its
 * hash byte matches */
static void
check_has_key(bc_trie_sstable *hs, const sst_parts *sp, const fuzz_mem *md,
			  const uint8_t *key, size_t klen, const bc_trie_payload *leaf)
{
	int			present = -1;
	bc_status	st = bc_trie_has_key(hs, key, klen, &present);
	bc_trie_node n;
	int64_t		h1,
				h2;

	if (sp->typed)
	{
		/* ms: looked up by its token's part of the form (bc_trie_keys.c,
		 * has_key_by_token), Murmur3 only; the walk under that node may
		 * meet anything a damaged trie holds */
		if (sp->p != BC_PARTITIONER_MURMUR3)
			CHECK(st == BC_ERR_TRIE_ENCODING && present == 0);
		else
			CHECK(typed_status_ok(st, md) && (st == BC_OK || present == 0));
		return;
	}
	CHECK(st == BC_OK || (st == BC_ERR_READ && md->exhausted));
	if (st != BC_OK)
		return;
	bc_murmur3(key, klen, &h1, &h2);
	CHECK(bc_trie_read_node(&hs->trie, leaf->node_pos, &n) == BC_OK);
	/* a listed leaf's hash byte is its key's (bc_trie_keys_next) */
	CHECK(!leaf->has_hash || leaf->hash == (uint8_t) h2);
	if (n.range == 0)
		CHECK(present == 1);
}

/* every key through bc_trie_keys, over Data.db dr (plain: its bytes, when
 * known); md: Data.db's reader */
static void
list_keys(const sst_parts *sp, bc_data_reader *dr, const fuzz_mem *md, const uint8_t *plain,
		  const key_ref *keys, int nkeys, keys_result *res)
{
	fuzz_mem	mp,
				mr,
				mp2,
				mr2;
	bc_reader	rp = fuzz_mem_open(&mp, sp->parts, sp->plen),
				rr = fuzz_mem_open(&mr, sp->rows, sp->rlen),
				rp2 = fuzz_mem_open(&mp2, sp->parts, sp->plen),
				rr2 = fuzz_mem_open(&mr2, sp->rows, sp->rlen);
	bc_trie_sstable ts,
				hs;
	size_t		cap = (sp->rd & 0x40) ? 1 + (size_t) sp->rd % 4 : TK_FRAMES,
				prev_len = 0;
	uint64_t	dlen = bc_data_length(dr);
	const uint8_t *key;
	size_t		klen;
	bc_status	st;
	int			done = 0,
				i;
	size_t		nagree = 0;

	mp.piece = mr.piece = mp2.piece = mr2.piece = sp->rd & 7;
	mp.budget = TK_READS;
	mr.budget_bytes = TK_BYTES;
	memset(res, 0, sizeof(*res));
	CHECK(bc_trie_sstable_init(&ts, sp->version, 2, sp->p, &rp, &sp->foot, &rr, dr) == BC_OK &&
		  bc_trie_sstable_init(&hs, sp->version, 2, sp->p, &rp2, &sp->foot, &rr2, dr) == BC_OK);
	CHECK(ts.typed_keys == sp->typed && ts.trie.key_count == sp->foot.key_count);
	CHECK(bc_trie_keys_init(&kit, &ts, frames, cap) == BC_OK);
	for (;;)
	{
		int64_t		pos;

		st = bc_trie_keys_next(&kit, &key, &klen, &done);
		if (st != BC_OK || done)
			break;
		res->n++;
		CHECK(res->n <= sp->foot.key_count && sp->foot.key_count < sp->plen);
		CHECK(key == kit.key && klen == kit.key_len && klen <= BC_TRIE_KEY_MAX);
		CHECK(kit.payload.node_pos < sp->foot.keys_pos);

		/* in its file at the leaf's position, after its length */
		pos = kit.payload.position;
		if (pos >= 0)
			CHECK((uint64_t) pos + 2 + klen <= sp->rlen &&
				  sp->rows[pos] == (uint8_t) (klen >> 8) && sp->rows[pos + 1] == (uint8_t) klen &&
				  memcmp(sp->rows + pos + 2, key, klen) == 0);
		else
		{
			uint64_t	at = ~(uint64_t) pos;

			CHECK(at + 2 + klen <= dlen);
			if (plain != NULL)
				CHECK(plain[at] == (uint8_t) (klen >> 8) && plain[at + 1] == (uint8_t) klen &&
					  memcmp(plain + at + 2, key, klen) == 0);
		}
		check_position(&kit, sp, pos, klen, &mr);
		res->seq = (res->seq ^ (uint64_t) pos) * UINT64_C(0x100000001b3);
		res->seq = (res->seq ^ (uint64_t) bc_token(key, klen)) * UINT64_C(0x100000001b3);
		res->seq = (res->seq ^ klen) * UINT64_C(0x100000001b3);

		/* its form starts with the leaf's prefix, after the key before */
		if (!sp->typed)
		{
			size_t		plen = bc_trie_iter_prefix(&kit.it, prefix, TK_FRAMES),
						flen = ref_form(sp->p, key, klen, form);

			CHECK(plen < cap && flen <= FORM_MAX);
			CHECK(flen >= plen && memcmp(form, prefix, plen) == 0);
			if (res->n > 1)
				CHECK(bytes_cmp(prev_form, prev_len, form, flen) < 0);
			memcpy(prev_form, form, flen);
			prev_len = flen;
		}
		check_has_key(&hs, sp, md, key, klen, &kit.payload);
		if (klen <= AGREE_KEY_MAX && nagree < AGREE_KEYS)
		{
			if (klen > 0)
				memcpy(agree[nagree], key, klen);
			agree_len[nagree++] = klen;
		}
	}
	res->st = st;
	res->exhausted = mp.exhausted || mr.exhausted || md->exhausted;
	CHECK(st == BC_OK || (st == BC_ERR_READ && res->exhausted) ||
		  st == BC_ERR_TRIE_TRUNCATED || st == BC_ERR_TRIE_POINTER || st == BC_ERR_TRIE_NODE ||
		  st == BC_ERR_TRIE_DEPTH || st == BC_ERR_TRIE_COUNT || st == BC_ERR_TRIE_POSITION ||
		  (st == BC_ERR_TRIE_KEY && !sp->typed) || st == BC_ERR_TRIE_HASH ||
		  (is_compression_status(st) && dr->ci != NULL));
	CHECK(strcmp(bc_trie_keys_component(st),
				 st == BC_ERR_TRIE_POSITION || st == BC_ERR_TRIE_KEY || is_compression_status(st) ?
				 "Data.db" : "Partitions.db") == 0);
	if (st == BC_OK)
	{
		/*
		 * The keys-versus-lookup agreement: a listing that ended without
		 * error has no key a lookup answers "absent" (found, or an
		 * error), ms's lookup by token included.
		 */
		for (i = 0; i < (int) nagree; i++)
		{
			int			present = -1;
			bc_status	ast = bc_trie_has_key(&hs, agree[i], agree_len[i], &present);

			CHECK(ast != BC_OK || present == 1);
		}
		CHECK(done && res->n == sp->foot.key_count);
		CHECK(bc_trie_keys_next(&kit, &key, &klen, &done) == BC_OK && done && key == NULL);
	}
	else
		CHECK(bc_trie_keys_next(&kit, &key, &klen, &done) == BC_ERR_CURSOR_STATE && !done &&
			  kit.key_len == 0);
	bc_trie_keys_finish(&kit);
	CHECK(bc_trie_keys_next(&kit, &key, &klen, &done) == BC_ERR_CURSOR_STATE);
	CHECK(mp.max_end <= sp->foot.keys_pos && mp2.max_end <= sp->foot.keys_pos);

	/* keys of the input: found only when they are in a file */
	for (i = 0; i < nkeys; i++)
	{
		int			present = -1;

		st = bc_trie_has_key(&hs, keys[i].p, keys[i].len, &present);
		CHECK(present == 0 || present == 1);
		if (sp->typed)
		{
			if (sp->p != BC_PARTITIONER_MURMUR3)
				CHECK(st == BC_ERR_TRIE_ENCODING && !present);
			else
			{
				CHECK(typed_status_ok(st, md) && (st == BC_OK || !present));
				/* found only when it is a key of the file */
				if (present && plain != NULL)
					CHECK(in_file(sp->rows, sp->rlen, keys[i].p, keys[i].len) ||
						  in_file(plain, (size_t) dlen, keys[i].p, keys[i].len));
			}
			continue;
		}
		CHECK(st == BC_OK || (st == BC_ERR_READ && md->exhausted) ||
			  st == BC_ERR_TRIE_TRUNCATED || st == BC_ERR_TRIE_POINTER ||
			  st == BC_ERR_TRIE_NODE || st == BC_ERR_TRIE_POSITION || st == BC_ERR_TRIE_HASH ||
			  (is_compression_status(st) && dr->ci != NULL));
		if (res->st == BC_OK)
			CHECK(st == BC_OK || (st == BC_ERR_READ && md->exhausted));
		if (present && plain != NULL)
			CHECK(in_file(sp->rows, sp->rlen, keys[i].p, keys[i].len) ||
				  in_file(plain, (size_t) dlen, keys[i].p, keys[i].len));
	}
}

static void
free_parts(sst_parts *sp)
{
	free(sp->parts);
	free(sp->rows);
	free(sp->info);
	free(sp->data);
}

void
fuzz_trie_keys(const uint8_t *data, size_t len, const key_ref *keys, int nkeys)
{
	static const char *const versions[] = {"da", "bb", "mt", "ms"};
	const uint8_t *p = data + 2,
			   *end = data + len;
	sst_parts	sp;
	fuzz_mem	md;
	bc_reader	rd;
	bc_data_reader dr;
	keys_result plain_res,
				res;

	if (len < 2)
		return;
	memset(&sp, 0, sizeof(sp));
	sp.sel = data[0];
	sp.rd = data[1];
	sp.version = versions[sp.sel & 3];
	sp.typed = (sp.sel & 3) == 3;
	sp.p = (sp.sel & 4) ? BC_PARTITIONER_BYTE_ORDERED : BC_PARTITIONER_MURMUR3;
	sp.parts = take(&p, end, &sp.plen);
	sp.rows = take(&p, end, &sp.rlen);
	if (sp.sel & 0x10)
		sp.info = take(&p, end, &sp.ilen);
	sp.dlen = (size_t) (end - p);
	sp.data = xmalloc(sp.dlen);
	if (sp.dlen > 0)
		memcpy(sp.data, p, sp.dlen);
	if (sp.plen < BC_PARTITIONS_FOOTER ||
		bc_partitions_footer_parse(sp.parts + sp.plen - BC_PARTITIONS_FOOTER, sp.plen,
								   &sp.foot) != BC_OK)
	{
		free_parts(&sp);
		return;
	}
	{
		bc_trie_sstable ts;

		rd = fuzz_mem_open(&md, sp.data, sp.dlen);
		CHECK(bc_data_reader_init(&dr, &rd, NULL, NULL, 0, NULL, 0, NULL, 0) == BC_OK);
		CHECK(bc_trie_sstable_init(&ts, "me", 2, sp.p, &rd, &sp.foot, &rd, &dr) ==
			  BC_ERR_VERSION_UNKNOWN);
	}

	/* Data.db as given, through its CompressionInfo.db (64 kB chunks at
	 * most: the real ones) */
	if (sp.info != NULL)
	{
		bc_compression_info ci;
		void	   *block = NULL;
		int			in_info = -1;

		if (bc_compression_parse(sp.version, 2, sp.info, sp.ilen, sp.dlen, &ci) == BC_OK &&
			ci.chunk_length <= 65536)
		{
			rd = fuzz_mem_open(&md, sp.data, sp.dlen);
			md.piece = sp.rd & 7;
			md.budget_bytes = TK_BYTES;
			CHECK(bc_data_reader_open(&dr, &ci, &rd, sp.version, 2, sp.info, sp.ilen,
									  fuzz_alloc, NULL, &block, &in_info) == BC_OK &&
				  in_info == 0);
			list_keys(&sp, &dr, &md, NULL, keys, nkeys, &res);
			free(block);
		}
	}

	/* uncompressed */
	rd = fuzz_mem_open(&md, sp.data, sp.dlen);
	md.piece = sp.rd & 7;
	md.budget_bytes = TK_BYTES;
	CHECK(bc_data_reader_init(&dr, &rd, NULL, NULL, 0, NULL, 0, NULL, 0) == BC_OK);
	list_keys(&sp, &dr, &md, sp.data, keys, nkeys, &plain_res);

	/* compressed with valid chunks: the same listing */
	{
		bc_compressor c = (bc_compressor) ((sp.sel >> 5) % 7);
		int32_t		chunk = (int32_t) 1 << (4 + ((sp.rd >> 3) & 7));
		fuzz_compressed z;
		bc_compression_info ci;
		void	   *block = NULL;
		int			in_info = -1;

		fuzz_compress(sp.version, c, sp.data, sp.dlen, chunk,
					  (sp.rd & 0x80) ? chunk / 2 : INT32_MAX, sp.rows,
					  sp.rlen < 1024 ? sp.rlen : 1024, sp.sel & 8, &z);
		if (z.info != NULL)
		{
			rd = fuzz_mem_open(&md, z.db, z.db_len);
			md.piece = sp.rd & 7;
			md.budget_bytes = TK_BYTES;
			CHECK(bc_data_reader_open(&dr, &ci, &rd, sp.version, 2, z.info, z.info_len,
									  fuzz_alloc, NULL, &block, &in_info) == BC_OK);
			CHECK(bc_data_length(&dr) == sp.dlen);
			list_keys(&sp, &dr, &md, sp.data, keys, nkeys, &res);
			if (!res.exhausted && !plain_res.exhausted)
				CHECK(res.st == plain_res.st && res.n == plain_res.n &&
					  res.seq == plain_res.seq);
			free(block);
			free(z.db);
			free(z.info);
		}
	}
	free_parts(&sp);
}
