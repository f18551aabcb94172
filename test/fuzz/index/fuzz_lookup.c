/*
 * fuzz_lookup.c - the partitioners' key order (bc_partitioner.c) and
 * exact lookups in BIG SSTables (bc_lookup.c):
 *
 *   - the input as a partitioner's class name (bc_partitioner_of,
 *     bc_partitioner_from_name), and bc_decorated_cmp of keys taken from
 *     the input under each partitioner against a reference of
 *     DecoratedKey.compareTo (RandomPartitioner with a stand-in for MD5);
 *   - the input as <version selector> <partitioner> <BE16 length>
 *     <Summary.db> <Index.db>: bc_big_lookup of keys from the input, of
 *     the Index.db's and Summary.db's own keys, through readers over the
 *     two parts (no crash; statuses in range; Summary.db read O(log n)
 *     times; a key found is in Index.db after its length; with no order
 *     to search by, or a well-ordered Index.db read from its start, the
 *     answer is the Index.db's entries');
 *   - the keys-versus-lookup agreement (lk_agreement): no key listed as
 *     cassandra_sstable_keys lists it is answered absent;
 *   - a valid pair synthesized from keys of the input, and copies of it
 *     damaged (fuzz_lookup_pair.c).
 */
#include <string.h>

#include "bc_endian.h"
#include "bc_index.h"
#include "bc_index_samples.h"
#include "bc_lookup.h"
#include "bc_murmur3.h"
#include "bc_partitioner.h"
#include "bc_status.h"
#include "bc_summary.h"
#include "bc_trie_keys.h"
#include "fuzz.h"
#include "fuzz_lookup.h"

/* keys of a synthesized SSTable, at most, and their longest; Index.db
 * entries compared with the answers, at most */

/* RandomPartitioner's token is the MD5 of the key, from the caller: any
 * function of the key gives an order; murmur3's two halves here */
void
lk_fake_md5(const void *data, size_t len, uint8_t out[16])
{
	int64_t		h1,
				h2;

	bc_murmur3(data, len, &h1, &h2);
	bc_put_be64(out, (uint64_t) h1);
	bc_put_be64(out + 8, (uint64_t) h2);
}

int
lk_bytes_cmp(const uint8_t *a, size_t al, const uint8_t *b, size_t bl)
{
	size_t		i;

	for (i = 0; i < al && i < bl; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return al < bl ? -1 : al > bl;
}

/* new BigInteger(md5).abs() as an unsigned 128-bit number (hi, lo) */
static void
random_token(const uint8_t *k, size_t n, uint64_t *hi, uint64_t *lo)
{
	uint8_t		d[16];

	lk_fake_md5(k, n, d);
	*hi = bc_get_be64(d);
	*lo = bc_get_be64(d + 8);
	if (*hi >> 63)
	{
		*lo = ~*lo + 1;
		*hi = ~*hi + (*lo == 0);
	}
}

/* DecoratedKey.compareTo: the tokens, then the bytes; 2 for no order */
int
lk_ref_cmp(bc_partitioner p, int md5, const uint8_t *a, size_t al, const uint8_t *b, size_t bl)
{
	if (p == BC_PARTITIONER_MURMUR3)
	{
		int64_t		ta = bc_token(a, al),
					tb = bc_token(b, bl);

		if (ta != tb)
			return ta < tb ? -1 : 1;
	}
	else if (p == BC_PARTITIONER_RANDOM && md5)
	{
		uint64_t	ah,
					alo,
					bh,
					blo;

		random_token(a, al, &ah, &alo);
		random_token(b, bl, &bh, &blo);
		if (ah != bh)
			return ah < bh ? -1 : 1;
		if (alo != blo)
			return alo < blo ? -1 : 1;
	}
	else if (p != BC_PARTITIONER_BYTE_ORDERED)
		return lk_bytes_cmp(a, al, b, bl) == 0 ? 0 : 2;
	return lk_bytes_cmp(a, al, b, bl);
}

void
fuzz_partitioner(const uint8_t *data, size_t len, const key_ref *keys, int nkeys)
{
	static const char *const names[] = {
		"Murmur3Partitioner", "RandomPartitioner", "ByteOrderedPartitioner"
	};
	const char *s = (const char *) data;
	const char *last = s;
	bc_partitioner want = BC_PARTITIONER_OTHER,
				got;
	size_t		i,
				ll;
	int			a,
				b,
				p;

	for (i = 0; i < len; i++)
		if (s[i] == '.')
			last = s + i + 1;
	ll = len - (size_t) (last - s);
	for (i = 0; i < 3; i++)
		if (ll == strlen(names[i]) && memcmp(last, names[i], ll) == 0)
			want = (bc_partitioner) (i + 1);
	CHECK(bc_partitioner_of(s, len) == want);
	CHECK(bc_partitioner_from_name(s, len, &got) ==
		  (want == BC_PARTITIONER_MURMUR3 || want == BC_PARTITIONER_BYTE_ORDERED ?
		   BC_OK : BC_ERR_TRIE_ENCODING) && got == want);

	/* md5 matters to RandomPartitioner only; each pair once, both ways */
	for (p = 0; p < 5; p++)
		for (a = 0; a < nkeys; a++)
			for (b = a; b < nkeys; b++)
			{
				bc_partitioner pp = p == 4 ? BC_PARTITIONER_RANDOM : (bc_partitioner) p;
				int			md5 = p == 4;
				int			c = bc_decorated_cmp(pp, md5 ? lk_fake_md5 : NULL, keys[a].p,
												 keys[a].len, keys[b].p, keys[b].len);
				int			r = bc_decorated_cmp(pp, md5 ? lk_fake_md5 : NULL, keys[b].p,
												 keys[b].len, keys[a].p, keys[a].len);
				int			m = lk_ref_cmp(pp, md5, keys[a].p, keys[a].len, keys[b].p, keys[b].len);

				CHECK(m == 2 ? c == 2 : (c > 0) - (c < 0) == m);
				CHECK(c == 2 ? r == 2 : (r > 0) - (r < 0) == -((c > 0) - (c < 0)));
			}
}

/* ---- lookups -------------------------------------------------------- */


int
lk_collect(const bc_index_entry *e, void *arg)
{
	entries    *es = arg;

	if (es->n > 0 && lk_ref_cmp(es->p, es->md5, es->k[es->n - 1], es->l[es->n - 1],
							 e->key, e->key_len) >= 0)
		es->sorted = 0;
	es->k[es->n] = e->key;
	es->l[es->n++] = e->key_len;
	return es->n == LOOKUP_MAX_ENTRIES;
}

int
lk_has_entry(const entries *es, const uint8_t *k, size_t l)
{
	size_t		i;

	for (i = 0; i < es->n; i++)
		if (es->l[i] == l && memcmp(es->k[i], k, l) == 0)
			return 1;
	return 0;
}

/* key after its BE16 length somewhere in Index.db */
static int
in_index(const uint8_t *idx, size_t n, const uint8_t *k, size_t l)
{
	size_t		o;

	for (o = 0; o + 2 + l <= n; o++)
		if (idx[o] == (uint8_t) (l >> 8) && idx[o + 1] == (uint8_t) l &&
			memcmp(idx + o + 2, k, l) == 0)
			return 1;
	return 0;
}

/* one lookup: the status (checked), *found */
bc_status
lk_lookup(const uint8_t *sum, size_t sl, int with_summary, const uint8_t *idx, size_t il,
	   const char *v, bc_partitioner p, int md5, const uint8_t *k, size_t kl,
	   uint8_t *scratch, int *found, bc_lookup_stats *stats)
{
	fuzz_mem	ms,
				mi;
	bc_reader	rs = fuzz_mem_open(&ms, sum, sl),
				ri = fuzz_mem_open(&mi, idx, il);
	bc_status	st;

	*found = -1;
	st = bc_big_lookup(with_summary ? &rs : NULL, &ri, v, strlen(v), p, md5 ? lk_fake_md5 : NULL,
					   k, kl, scratch, found, stats);
	CHECK(st == BC_OK || st == BC_ERR_VERSION_UNKNOWN || st == BC_ERR_VERSION_UNSUPPORTED ||
		  st == BC_ERR_INDEX_BTI || st == BC_ERR_INDEX_TRUNCATED || st == BC_ERR_INDEX_LENGTH ||
		  st == BC_ERR_SUMMARY_TRUNCATED || st == BC_ERR_SUMMARY_FORMAT ||
		  st == BC_ERR_INDEX_KEY_ORDER || st == BC_ERR_INDEX_FIRST_POSITION);
	CHECK(stats->summary_status == BC_OK || stats->summary_status == BC_ERR_SUMMARY_TRUNCATED ||
		  stats->summary_status == BC_ERR_SUMMARY_FORMAT ||
		  stats->summary_status == BC_ERR_SUMMARY_INDEX);
	CHECK(*found == 0 || *found == 1);
	CHECK(st == BC_OK || !*found);
	CHECK(stats->bounded == 0 || stats->bounded == 1);
	if (stats->bounded)
		CHECK(with_summary && (p == BC_PARTITIONER_MURMUR3 || p == BC_PARTITIONER_BYTE_ORDERED ||
							   (p == BC_PARTITIONER_RANDOM && md5)));
	/* a binary search: a header, two reads a probe, three samples */
	CHECK(stats->summary_reads == ms.reads && stats->summary_reads <= 1 + 2 * 33 + 6);
	CHECK(stats->index_reads == mi.reads && stats->index_entries <= il / 3 + 1);
	if (*found)
		CHECK(in_index(idx, il, k, kl));
	return st;
}

/*
 * The keys-versus-lookup agreement: the keys of Index.db as
 * cassandra_sstable_keys lists them (the cursor, keys checked in the
 * partitioner's order, each entry against Summary.db's samples when there
 * is a Summary.db); when the listing ends without error, no key of it is
 * answered "absent" by a lookup (found, or an error), whatever Summary.db
 * holds.  Every key when all, else at most LOOKUP_AGREE spread over the
 * listing.
 */
#define LOOKUP_AGREE 24
#define AGREE_MAX_KEYS 4096

void
lk_agreement(const uint8_t *sum, size_t sl, int with_summary, const uint8_t *idx, size_t il,
		  const char *v, bc_partitioner p, int md5, int all, uint8_t *scratch)
{
	static bc_index_cursor c;
	static bc_key_order order;
	static bc_index_samples smp;
	static bc_index_sample slots[4096];
	static uint8_t window[2 * BC_INDEX_SAMPLES_WINDOW];
	static const uint8_t *keys[AGREE_MAX_KEYS];
	static size_t lens[AGREE_MAX_KEYS];
	fuzz_mem	ms,
				mi;
	bc_reader	rs = fuzz_mem_open(&ms, sum, sl),
				ri = fuzz_mem_open(&mi, idx, il);
	bc_index_entry e;
	bc_lookup_stats stats;
	size_t		n = 0,
				i,
				step,
				ns = 0;
	int			got,
				found;
	bc_status	st;

	if (bc_index_init(&c, v, strlen(v)) != BC_OK)
		return;
	bc_key_order_init(&order, p, md5 ? lk_fake_md5 : NULL);
	bc_index_set_order(&c, &order);
	st = bc_index_samples_count(with_summary ? &rs : NULL, v, strlen(v), &ns);
	CHECK(st == BC_OK || st == BC_ERR_READ);
	if (st != BC_OK || ns > 4096)
		return;
	st = bc_index_samples_init(&smp, &rs, &ri, v, strlen(v), slots, ns, window, scratch);
	CHECK(st == BC_OK || st == BC_ERR_READ);
	if (st != BC_OK)
		return;
	CHECK(bc_index_feed(&c, idx, il) == BC_OK);
	for (;;)
	{
		st = bc_index_next(&c, &e, &got);
		if (st == BC_OK && got)
		{
			st = bc_index_samples_check(&smp, &e);
			CHECK(st == BC_OK || st == BC_ERR_INDEX_SAMPLE || st == BC_ERR_READ);
		}
		if (st != BC_OK)
		{
			/* the order is checked exactly where the reference finds it broken */
			return;
		}
		if (!got)
			break;
		/* the whole file in one piece: the key is in it, after its length */
		CHECK(e.key_len == 0 || e.key == idx + e.index_offset + 2);
		/* its numbers inside the file; its promoted index may not be */
		CHECK(e.next_offset <= il || e.promoted_size > 0);
		/* listings of many keys are left to the other checks */
		if (n == AGREE_MAX_KEYS)
			return;
		if (n > 0 && p != BC_PARTITIONER_OTHER && !(p == BC_PARTITIONER_RANDOM && !md5))
			CHECK(lk_ref_cmp(p, md5, keys[n - 1], lens[n - 1], e.key, e.key_len) <= 0);
		keys[n] = e.key;
		lens[n++] = e.key_len;
	}
	if (bc_index_finish(&c) != BC_OK)
		return;
	/* samples are passed in order: none compared twice */
	CHECK(smp.compared <= smp.n);
	step = all || n <= LOOKUP_AGREE ? 1 : n / LOOKUP_AGREE;
	for (i = 0; i < n; i += step)
	{
		st = lk_lookup(sum, sl, with_summary, idx, il, v, p, md5, keys[i], lens[i], scratch,
					&found, &stats);
		CHECK(st != BC_OK || found == 1);
	}
}

/* the input as <v> <p> <BE16 Summary.db length> <Summary.db> <Index.db> */
static void
arbitrary_pair(const uint8_t *data, size_t len, const key_ref *keys, int nkeys,
			   uint8_t *scratch)
{
	const fuzz_version *fv = pick_version(data, len);
	uint8_t		sel = data[1];
	bc_partitioner p = (bc_partitioner) (sel & 3);
	int			md5 = (sel >> 2) & 1,
				with_summary = !((sel >> 3) & 1),
				ordered = p != BC_PARTITIONER_OTHER && !(p == BC_PARTITIONER_RANDOM && !md5);
	size_t		sl = ((size_t) data[2] << 8) | data[3];
	const uint8_t *sum = data + 4,
			   *idx;
	size_t		il;
	entries    *es = xmalloc(sizeof(entries));
	uint64_t	nk = 0;
	bc_status	ist;
	bc_summary	s;
	int			i,
				found;
	bc_lookup_stats stats;

	if (sl > len - 4)
		sl = len - 4;
	idx = sum + sl;
	il = len - 4 - sl;
	es->n = 0;
	es->sorted = 1;
	es->p = p;
	es->md5 = md5;
	ist = bc_index_parse(fv->v, strlen(fv->v), idx, il, lk_collect, es, &nk);
	/* the whole Index.db was read, without error */
	ist = ist == BC_OK && nk < LOOKUP_MAX_ENTRIES ? BC_OK : BC_ERR_INDEX_TRUNCATED;

	for (i = 0; i < nkeys + (int) es->n && i < nkeys + 8; i++)
	{
		const uint8_t *k = i < nkeys ? keys[i].p : es->k[i - nkeys];
		size_t		kl = i < nkeys ? keys[i].len : es->l[i - nkeys];
		bc_status	st = lk_lookup(sum, sl, with_summary, idx, il, fv->v, p, md5, k, kl,
								scratch, &found, &stats);

		if (fv->era < 0)
			CHECK(st != BC_OK);
		/* Index.db read from its start: every entry's key compared */
		if (ist == BC_OK && (!ordered || (es->sorted && (!with_summary ||
														  fv->era == BC_INDEX_ERA_12))))
			CHECK(st == BC_OK && found == lk_has_entry(es, k, kl) && !stats.bounded);
	}
	lk_agreement(sum, sl, with_summary, idx, il, fv->v, p, md5, 0, scratch);

	/* the keys Summary.db samples */
	if (bc_summary_parse(fv->v, strlen(fv->v), sum, sl, &s) == BC_OK)
		for (i = 0; i < s.count && i < 4; i++)
		{
			const uint8_t *k;
			size_t		kl;
			int64_t		off;

			CHECK(bc_summary_entry(&s, i, &k, &kl, &off) == BC_OK);
			(void) lk_lookup(sum, sl, with_summary, idx, il, fv->v, p, md5, k, kl, scratch,
						  &found, &stats);
		}
	free(es);
}

void
fuzz_lookup(const uint8_t *data, size_t len, const key_ref *keys, int nkeys)
{
	uint8_t    *scratch;

	if (len < 4)
		return;
	scratch = xmalloc(BC_LOOKUP_SCRATCH);
	arbitrary_pair(data, len, keys, nkeys, scratch);
	lk_valid_pair(data, len, keys, nkeys, scratch);
	free(scratch);
}
