/*
 * fuzz_lookup_pair.c - a valid Summary.db/Index.db pair synthesized from
 * keys of the input (sorted under the partitioner, sampled every interval,
 * with promoted indexes and at sampling levels below 128): every key found
 * within one sampling interval, every answer that of a linear scan by
 * bc_index_parse; then copies of it damaged (key lengths changed, a
 * sample's position moved) under the keys-versus-lookup agreement.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_endian.h"
#include "bc_index.h"
#include "bc_lookup.h"
#include "bc_partitioner.h"
#include "bc_status.h"
#include "bc_summary.h"
#include "fuzz.h"
#include "fuzz_lookup.h"

/* ---- a valid pair --------------------------------------------------- */

typedef struct wr
{
	uint8_t    *d;
	size_t		n;
} wr;

static void
w_bytes(wr *w, const void *p, size_t n)
{
	if (n > 0)
		memcpy(w->d + w->n, p, n);
	w->n += n;
}

static void
w_be(wr *w, uint64_t v, int bytes)
{
	int			i;

	for (i = 0; i < bytes; i++)
		w->d[w->n++] = (uint8_t) (v >> (8 * (bytes - 1 - i)));
}

static void
w_le(wr *w, uint64_t v, int bytes)
{
	int			i;

	for (i = 0; i < bytes; i++)
		w->d[w->n++] = (uint8_t) (v >> (8 * i));
}

/* Cassandra's unsigned vint: n leading one bits, then 7n + 7 bits */
static void
w_uvint(wr *w, uint64_t v)
{
	int			n = 0;

	while (n < 8 && v >> (7 * n + 7) != 0)
		n++;
	if (n == 8)
		w->d[w->n++] = 0xff;
	else
		w->d[w->n++] = (uint8_t) ((0xff00u >> n) & 0xff) | (uint8_t) (v >> (8 * n));
	w_be(w, v, n);
}

static bc_partitioner sort_p;
static int	sort_md5;

static int
key_order(const void *a, const void *b)
{
	const key_ref *x = a,
			   *y = b;
	int			c = lk_ref_cmp(sort_p, sort_md5, x->p, x->len, y->p, y->len);

	return c == 2 ? lk_bytes_cmp(x->p, x->len, y->p, y->len) : c;
}

/*
 * The agreement over the pair's key lengths (the BE16 at each entry's
 * start) changed: 8 changes, each of the entry and byte the input picks
 * (from its last bytes), to one of the values a disk's damage gives (a bit
 * flipped, 0x00, 0xff, 0x80) or the input's byte, the Index.db a sample
 * falls inside or not; every listed key looked up.
 */
static void
key_lengths(wr *idx, const uint64_t *ioff, size_t n, const wr *sum, const char *v,
			bc_partitioner p, int md5, const uint8_t *data, size_t len, uint8_t *scratch)
{
	int			t;

	for (t = 0; t < 8; t++)
	{
		uint8_t		r = data[len - 1 - (size_t) t % len],
					q = data[(size_t) (t * 7 + 3) % len];
		size_t		at = (size_t) ioff[((size_t) r * 131 + (size_t) t * 17) % n] + (size_t) (q & 1);
		uint8_t		orig = idx->d[at];

		switch ((q >> 1) & 7)
		{
			case 0:
				idx->d[at] = 0x00;
				break;
			case 1:
				idx->d[at] = 0xff;
				break;
			case 2:
				idx->d[at] = orig ^ 0x80;
				break;
			case 3:
				idx->d[at] = r;
				break;
			default:
				idx->d[at] = orig ^ (uint8_t) (1u << (q >> 5));
				break;
		}
		lk_agreement(sum->d, sum->n, 1, idx->d, idx->n, v, p, md5, 1, scratch);
		idx->d[at] = orig;
	}
}

/*
 * The agreement with a sample's Index.db position in Summary.db moved 1 to
 * 8 bytes on (inside its entry, or to the next one), twice, the sample
 * the input picks: ja and later, whose samples a lookup searches.
 */
static void
sample_shifts(const wr *idx, wr *sum, bc_index_era era, const char *v, bc_partitioner p,
			  int md5, const uint8_t *data, size_t len, uint8_t *scratch)
{
	size_t		hlen = era == BC_INDEX_ERA_20 ? 16 : 24,
				count;
	int			t;

	if (era == BC_INDEX_ERA_12)
		return;
	count = bc_get_be32(sum->d + 4);
	for (t = 0; t < 2 && count > 0; t++)
	{
		uint8_t		q = data[(size_t) (t * 11 + 5) % len];
		size_t		j = (size_t) q % count,
					end = j + 1 < count ? bc_get_le32(sum->d + hlen + 4 * (j + 1)) :
			(size_t) bc_get_be64(sum->d + 8);
		uint8_t    *at = sum->d + hlen + end - 8;
		uint64_t	orig = bc_get_le64(at);
		int			i;

		for (i = 0; i < 8; i++)
			at[i] = (uint8_t) ((orig + 1 + (q >> 5)) >> (8 * i));
		lk_agreement(sum->d, sum->n, 1, idx->d, idx->n, v, p, md5, 1, scratch);
		for (i = 0; i < 8; i++)
			at[i] = (uint8_t) (orig >> (8 * i));
	}
}

static const char *const big_versions[] = {
	"ia", "ic", "ja", "jb", "ka", "la", "lb", "ma", "mc", "me", "na", "nb", "nc", "oa"
};

void
lk_valid_pair(const uint8_t *data, size_t len, const key_ref *probes, int nprobes,
		   uint8_t *scratch)
{
	const char *v = big_versions[data[0] % (sizeof(big_versions) / sizeof(big_versions[0]))];
	bc_index_era era;
	uint8_t		sel = data[1];
	bc_partitioner p = (bc_partitioner) (sel & 3);
	int			md5 = (sel >> 2) & 1,
				ordered = p != BC_PARTITIONER_OTHER && !(p == BC_PARTITIONER_RANDOM && !md5);
	int32_t		interval = 1 + (data[2] & 7),
				level = 128 >> ((data[2] >> 3) & 3),
				step;
	key_ref    *k = xmalloc(LOOKUP_MAX_KEYS * sizeof(key_ref));
	uint64_t   *ioff = xmalloc(LOOKUP_MAX_KEYS * sizeof(uint64_t));
	size_t		n = 0,
				pos = 4,
				i,
				j,
				nsamples;
	wr			idx,
				sum;
	entries    *es = xmalloc(sizeof(entries));
	uint64_t	nk = 0,
				position = 0;
	bc_summary	s;
	bc_lookup_stats stats;
	int			found;

	CHECK(bc_index_era_lookup(v, 2, &era) == BC_OK);
	if (era == BC_INDEX_ERA_12 || era == BC_INDEX_ERA_20)
		level = 128;
	step = interval * 128 / level;
	/* keys: a length byte (0 .. 32) then the key, to the end */
	while (pos < len && n < LOOKUP_MAX_KEYS)
	{
		size_t		kl = data[pos++] % (LOOKUP_KEY_MAX + 1);

		if (kl > len - pos)
			kl = len - pos;
		k[n].p = data + pos;
		k[n++].len = kl;
		pos += kl;
	}
	sort_p = p;
	sort_md5 = md5;
	qsort(k, n, sizeof(key_ref), key_order);
	for (i = j = 0; i < n; i++)
		if (j == 0 || key_order(&k[j - 1], &k[i]) != 0)
			k[j++] = k[i];
	n = j;
	if (n == 0)
		goto out;

	/* Index.db: promoted indexes of 0 .. 31 bytes, positions increasing */
	idx.d = xmalloc(n * (2 + LOOKUP_KEY_MAX + 18 + 31));
	idx.n = 0;
	for (i = 0; i < n; i++)
	{
		size_t		promoted = k[i].len > 0 ? k[i].p[0] % 32 : 0;

		ioff[i] = idx.n;
		w_be(&idx, k[i].len, 2);
		w_bytes(&idx, k[i].p, k[i].len);
		/* the first partition at 0 (bc_index.c) */
		if (era == BC_INDEX_ERA_30)
		{
			w_uvint(&idx, position);
			w_uvint(&idx, promoted);
		}
		else
		{
			w_be(&idx, position, 8);
			w_be(&idx, promoted, 4);
		}
		position += 1 + promoted + k[i].len;
		memset(idx.d + idx.n, 0xa5, promoted);
		idx.n += promoted;
	}

	/* Summary.db: every step-th entry, then the first and last keys */
	nsamples = (n + (size_t) step - 1) / (size_t) step;
	sum.d = xmalloc(24 + nsamples * (12 + 4 + LOOKUP_KEY_MAX + 8) + 2 * (4 + LOOKUP_KEY_MAX));
	sum.n = 0;
	w_be(&sum, (uint64_t) interval, 4);
	w_be(&sum, nsamples, 4);
	if (era == BC_INDEX_ERA_12)
		for (i = 0; i < n; i += (size_t) step)
		{
			w_be(&sum, ioff[i], 8);
			w_be(&sum, k[i].len, 4);
			w_bytes(&sum, k[i].p, k[i].len);
		}
	else
	{
		size_t		region = 4 * nsamples,
					at;

		for (i = 0; i < n; i += (size_t) step)
			region += k[i].len + 8;
		w_be(&sum, region, 8);
		if (era != BC_INDEX_ERA_20)
		{
			w_be(&sum, (uint64_t) level, 4);
			w_be(&sum, nsamples * 128 / (size_t) level, 4);
		}
		at = 4 * nsamples;
		for (i = 0; i < n; i += (size_t) step)
		{
			w_le(&sum, at, 4);
			at += k[i].len + 8;
		}
		for (i = 0; i < n; i += (size_t) step)
		{
			w_bytes(&sum, k[i].p, k[i].len);
			w_le(&sum, ioff[i], 8);
		}
	}
	w_be(&sum, k[0].len, 4);
	w_bytes(&sum, k[0].p, k[0].len);
	w_be(&sum, k[n - 1].len, 4);
	w_bytes(&sum, k[n - 1].p, k[n - 1].len);

	/* the files are what the readers read */
	es->n = 0;
	es->sorted = 1;
	es->p = p;
	es->md5 = md5;
	CHECK(bc_index_parse(v, 2, idx.d, idx.n, lk_collect, es, &nk) == BC_OK && es->n == n);
	CHECK(bc_summary_parse(v, 2, sum.d, sum.n, &s) == BC_OK && (size_t) s.count == nsamples &&
		  s.first_len == k[0].len && s.last_len == k[n - 1].len && s.tail_len == 0);

	/* every key found, within one sampling interval */
	for (i = 0; i < n; i++)
	{
		CHECK(lk_lookup(sum.d, sum.n, 1, idx.d, idx.n, v, p, md5, k[i].p, k[i].len, scratch,
					 &found, &stats) == BC_OK && found);
		CHECK(stats.bounded == (ordered && era != BC_INDEX_ERA_12));
		if (stats.bounded)
			CHECK(stats.index_entries <= (uint64_t) step + 1);
		else
			CHECK(stats.index_entries == i + 1);
	}
	/* keys near them and from the input: the answer of a linear scan */
	for (i = 0; i < n + (size_t) nprobes && i < 16; i++)
	{
		uint8_t		buf[LOOKUP_KEY_MAX + 1];
		const uint8_t *kp;
		size_t		kl,
					t;

		for (t = 0; t < 3; t++)
		{
			if (i < (size_t) nprobes)
			{
				if (t > 0)
					break;
				kp = probes[i].p;
				kl = probes[i].len;
			}
			else
			{
				const key_ref *e = &k[i - (size_t) nprobes];

				memcpy(buf, e->p, e->len);
				kl = e->len;
				if (t == 0)
					buf[kl++] = sel;	/* one byte longer */
				else if (t == 1 && kl > 0)
					kl--;		/* one byte shorter */
				else if (kl > 0)
					buf[kl - 1] ^= (uint8_t) (1 + sel % 255);	/* the last one changed */
				kp = buf;
			}
			CHECK(lk_lookup(sum.d, sum.n, 1, idx.d, idx.n, v, p, md5, kp, kl, scratch, &found,
						 &stats) == BC_OK);
			CHECK(found == lk_has_entry(es, kp, kl));
			/* the same without Summary.db */
			CHECK(lk_lookup(sum.d, sum.n, 0, idx.d, idx.n, v, p, md5, kp, kl, scratch, &found,
						 &stats) == BC_OK && found == lk_has_entry(es, kp, kl) && !stats.bounded);
		}
	}
	key_lengths(&idx, ioff, n, &sum, v, p, md5, data, len, scratch);
	sample_shifts(&idx, &sum, era, v, p, md5, data, len, scratch);
	free(idx.d);
	free(sum.d);
out:
	free(k);
	free(ioff);
	free(es);
}

