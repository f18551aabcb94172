/*
 * test_recursion.c - every recursive function of the core driven 100,000
 * levels deep (bc_cqltype.h lists them, under BC_CQL_MAX_DEPTH): marshal
 * type strings of each wrapper and each class with parameters, in each
 * place a parameter takes; values nested deeper than their type, as
 * bytes (text, JSON) and as text (parse); the value functions' own count
 * of levels, under a type whose node is its own parameter (a tree no
 * parse makes, so infinitely deep); the sink's escaping layers.  And the
 * walks that are loops, not recursion: a trie 100,000 nodes deep.  Each
 * ends in its error, well within a second, the bound itself read.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bc_cqltype.h"
#include "bc_cqlvalue.h"
#include "bc_endian.h"
#include "bc_trie.h"
#include "unit.h"

#define LEVELS 100000

static bc_cqltype T;

/* pre n times, inner, post n times: malloc'd, length in *len */
static char *
nest(const char *pre, const char *inner, const char *post, size_t n, size_t *len)
{
	size_t		lp = strlen(pre),
				li = strlen(inner),
				lq = strlen(post),
				i,
				k = 0;
	char	   *s = malloc(n * (lp + lq) + li + 1);

	for (i = 0; i < n; i++, k += lp)
		memcpy(s + k, pre, lp);
	memcpy(s + k, inner, li);
	k += li;
	for (i = 0; i < n; i++, k += lq)
		memcpy(s + k, post, lq);
	s[k] = '\0';
	*len = k;
	return s;
}

static double
seconds_since(clock_t t0)
{
	return (double) (clock() - t0) / CLOCKS_PER_SEC;
}

/* the bytes of n lists in one another, the innermost holding the int 1 */
static uint8_t *
nested_lists(size_t n, size_t *len)
{
	uint8_t    *b = malloc(8 * n + 4);
	size_t		k;

	for (k = 0; k < n; k++)
	{
		bc_put_be32(b + 8 * k, 1);
		bc_put_be32(b + 8 * k + 4, (uint32_t) (4 + 8 * (n - 1 - k)));
	}
	bc_put_be32(b + 8 * n, 1);
	*len = 8 * n + 4;
	return b;
}

/* text (0), JSON (1) of key under t; the status, err's message */
static bc_status
render(const bc_cqltype *t, const uint8_t *key, size_t len, int json, bc_cqlerr *err)
{
	uint32_t   *work = malloc(BC_CQL_WORK_WORDS(len) * sizeof(uint32_t));
	size_t		cap = 4 * len + 64;
	char	   *buf = malloc(cap);
	bc_cqlsink	s;
	bc_status	st;

	bc_cqlsink_init(&s, buf, cap);
	err->msg[0] = '\0';
	st = json ? bc_cql_key_json(t, key, len, work, &s, err) :
		bc_cql_key_text(t, key, len, work, &s, err);
	free(work);
	free(buf);
	return st;
}

static bc_status
parse(const bc_cqltype *t, const char *text, size_t len, bc_cqlerr *err)
{
	char	   *scratch = malloc(len + 1);
	size_t		cap = len + 64;
	char	   *buf = malloc(cap);
	bc_cqlsink	s;
	bc_status	st;

	bc_cqlsink_init(&s, buf, cap);
	err->msg[0] = '\0';
	st = bc_cql_key_parse(t, text, len, scratch, &s, err);
	free(scratch);
	free(buf);
	return st;
}

/* type strings: each 100,000 levels deep is refused "nested too deeply",
 * BC_CQL_MAX_DEPTH levels are read and one more are not */
static void
check_type_strings(void)
{
	static const struct
	{
		const char *name,
				   *pre,
				   *inner,
				   *post;
		int			per;		/* levels a repetition */
	}			shapes[] = {
		{"ReversedType", "ReversedType(", "Int32Type", ")", 1},
		{"FrozenType", "FrozenType(", "Int32Type", ")", 1},
		{"CompositeType", "CompositeType(", "Int32Type", ")", 1},
		{"CompositeType, second", "CompositeType(UTF8Type,", "Int32Type", ")", 1},
		{"ListType", "ListType(", "Int32Type", ")", 1},
		{"SetType", "SetType(", "Int32Type", ")", 1},
		{"MapType, key", "MapType(", "Int32Type", ",Int32Type)", 1},
		{"MapType, value", "MapType(Int32Type,", "Int32Type", ")", 1},
		{"TupleType", "TupleType(", "Int32Type", ")", 1},
		{"TupleType, second", "TupleType(Int32Type,", "Int32Type", ")", 1},
		{"UserType", "UserType(ks,61,62:", "Int32Type", ")", 1},
		{"UserType, second", "UserType(ks,61,62:Int32Type,63:", "Int32Type", ")", 1},
		{"full names", "org.apache.cassandra.db.marshal.FrozenType(", "Int32Type", ")", 1},
		{"blanks", " FrozenType\t(\n", "Int32Type", " ) ", 1},
		{"wrappers and a list", "ReversedType(FrozenType(ListType(", "Int32Type", ")))", 3},
		{"unclosed", "FrozenType(", "", "", 1},
	};
	size_t		i;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
	{
		size_t		len;
		char		msg[200];
		char	   *s = nest(shapes[i].pre, shapes[i].inner, shapes[i].post,
							 LEVELS / shapes[i].per + 1, &len);
		clock_t		t0 = clock();
		bc_status	st = bc_cqltype_parse(s, len, &T, msg, sizeof(msg));
		double		took = seconds_since(t0);

		CHECK(st == BC_ERR_CQL_TYPE && strncmp(msg, "nested too deeply at character ", 31) == 0,
			  "%s x %d: status %d, '%s'", shapes[i].name, LEVELS, st, msg);
		CHECK(took < 0.1, "%s x %d: %.3f s", shapes[i].name, LEVELS, took);
		free(s);
		if (shapes[i].inner[0] == '\0')
			continue;
		/* the bound: as many levels as it allows, and one more (the
		 * scalar inside is a level) */
		if (shapes[i].per == 1)
		{
			s = nest(shapes[i].pre, shapes[i].inner, shapes[i].post, BC_CQL_MAX_DEPTH - 1, &len);
			st = bc_cqltype_parse(s, len, &T, msg, sizeof(msg));
			CHECK(st == BC_OK && T.depth == BC_CQL_MAX_DEPTH, "%s x %d: status %d, depth %d, '%s'",
				  shapes[i].name, BC_CQL_MAX_DEPTH - 1, st, T.depth, msg);
			free(s);
			s = nest(shapes[i].pre, shapes[i].inner, shapes[i].post, BC_CQL_MAX_DEPTH, &len);
			st = bc_cqltype_parse(s, len, &T, msg, sizeof(msg));
			CHECK(st == BC_ERR_CQL_TYPE && strncmp(msg, "nested too deeply", 17) == 0,
				  "%s x %d: status %d, '%s'", shapes[i].name, BC_CQL_MAX_DEPTH, st, msg);
			free(s);
		}
	}
	/* a real one: ReversedType and FrozenType count, and change nothing */
	{
		const char *real = "ReversedType(FrozenType(MapType(UTF8Type,FrozenType(ListType(Int32Type)))))";
		uint8_t		key[] = {0, 0, 0, 1, 0, 0, 0, 1, 'k', 0, 0, 0, 12, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 1};
		char		msg[200];
		bc_cqlerr	err;

		CHECK(bc_cqltype_parse(real, strlen(real), &T, msg, sizeof(msg)) == BC_OK && T.depth == 6 &&
			  T.nnodes == 4 && T.node[T.root].kind == BC_CQL_MAP, "%s: depth %d, %d nodes", real,
			  T.depth, T.nnodes);
		CHECK(render(&T, key, sizeof(key), 0, &err) == BC_OK, "%s: text: %s", real, err.msg);
		CHECK(render(&T, key, sizeof(key), 1, &err) == BC_OK, "%s: JSON: %s", real, err.msg);
	}
}

/* values nested deeper than their type, under the deepest type there is */
static void
check_deep_values(void)
{
	size_t		len,
				blen;
	char	   *type = nest("ListType(", "Int32Type", ")", BC_CQL_MAX_DEPTH - 1, &len);
	uint8_t    *b;
	char	   *hex;
	bc_cqlerr	err;
	size_t		i;
	clock_t		t0;

	CHECK(bc_cqltype_parse(type, len, &T, NULL, 0) == BC_OK, "lists x %d", BC_CQL_MAX_DEPTH - 1);
	free(type);
	/* as deep as the type: read */
	b = nested_lists(BC_CQL_MAX_DEPTH - 1, &blen);
	CHECK(render(&T, b, blen, 0, &err) == BC_OK && render(&T, b, blen, 1, &err) == BC_OK,
		  "%d lists: %s", BC_CQL_MAX_DEPTH - 1, err.msg);
	free(b);
	/* 100,000 levels: the innermost list the type has holds no int */
	b = nested_lists(LEVELS, &blen);
	t0 = clock();
	CHECK(render(&T, b, blen, 0, &err) == BC_ERR_CQL_VALUE, "text of %d lists", LEVELS);
	CHECK(render(&T, b, blen, 1, &err) == BC_ERR_CQL_VALUE, "JSON of %d lists", LEVELS);
	hex = malloc(2 * blen + 3);
	memcpy(hex, "0x", 2);
	for (i = 0; i < blen; i++)
		hex[2 + 2 * i] = "0123456789abcdef"[b[i] >> 4], hex[3 + 2 * i] = "0123456789abcdef"[b[i] & 15];
	CHECK(parse(&T, hex, 2 * blen + 2, &err) == BC_ERR_CQL_SYNTAX, "parse of %d lists", LEVELS);
	CHECK(seconds_since(t0) < 0.5, "%d lists: %.3f s", LEVELS, seconds_since(t0));
	free(hex);
	free(b);

	/* text: 100,000 fields, escapes and brackets under 31 tuples */
	type = nest("TupleType(", "Int32Type", ")", BC_CQL_MAX_DEPTH - 1, &len);
	CHECK(bc_cqltype_parse(type, len, &T, NULL, 0) == BC_OK, "tuples x %d", BC_CQL_MAX_DEPTH - 1);
	free(type);
	{
		static const struct
		{
			const char *pre,
					   *inner,
					   *post;
		}			texts[] = {{"1\\:", "1", ""}, {"\\", ":1", ""}, {"(", "1", ")"}, {"[", "1", "]"}};

		for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		{
			char	   *s = nest(texts[i].pre, texts[i].inner, texts[i].post, LEVELS, &len);

			t0 = clock();
			CHECK(parse(&T, s, len, &err) == BC_ERR_CQL_SYNTAX, "parse of %s x %d", texts[i].pre,
				  LEVELS);
			CHECK(seconds_since(t0) < 0.5, "parse of %s x %d: %.3f s", texts[i].pre, LEVELS,
				  seconds_since(t0));
			free(s);
		}
	}
}

/*
 * The value functions count their own levels: under a type whose node is
 * its own parameter (no string parses to it), values of 100,000 levels
 * and more stop at BC_CQL_MAX_DEPTH + 1, "nested too deeply".
 */
static void
check_own_count(void)
{
	static const bc_cqlkind kinds[] = {BC_CQL_LIST, BC_CQL_COMPOSITE, BC_CQL_TUPLE, BC_CQL_UDT};
	size_t		i,
				blen;
	uint8_t    *lists = nested_lists(LEVELS, &blen);
	bc_cqlerr	err;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
	{
		bc_cqltype *t = calloc(1, sizeof(*t));
		const uint8_t *b;
		uint8_t    *own = NULL;
		size_t		n;
		int			k;

		t->nnodes = 1;
		t->root = 0;
		t->depth = 1;
		t->node[0].kind = kinds[i];
		t->node[0].first = 0;
		t->node[0].next = -1;
		t->node[0].nparams = 1;
		t->node[0].name = "61";
		t->node[0].name_len = 2;
		if (kinds[i] == BC_CQL_LIST)
		{
			b = lists;
			n = blen;
		}
		else if (kinds[i] == BC_CQL_COMPOSITE)
		{
			/* components in one another, as deep as a BE16 length
			 * allows: all the lengths, the empty innermost, then every
			 * end-of-component byte */
			size_t		levels = 65535 / 3 + 1;

			own = calloc(levels, 3);
			for (n = 0; n < levels; n++)
			{
				size_t		inside = 3 * (levels - 1 - n);

				own[2 * n] = (uint8_t) (inside >> 8);
				own[2 * n + 1] = (uint8_t) inside;
			}
			b = own;
			n = 3 * levels;
		}
		else
		{
			/* fields in one another (BE32 length), 100,000 deep */
			own = calloc(LEVELS, 4);
			for (n = 0; n < LEVELS; n++)
				bc_put_be32(own + 4 * n, (uint32_t) (4 * (LEVELS - 1 - n)));
			b = own;
			n = 4 * (size_t) LEVELS;
		}
		for (k = 0; k < 2; k++)
			CHECK(render(t, b, n, k, &err) == BC_ERR_CQL_VALUE &&
				  strcmp(err.msg, "nested too deeply") == 0,
				  "%s in itself, %s: %s", bc_cqlkind_name(kinds[i]), k ? "JSON" : "text", err.msg);
		if (kinds[i] != BC_CQL_LIST)
		{
			/* text: "1" is a one-part value of itself, forever */
			CHECK(parse(t, "1", 1, &err) == BC_ERR_CQL_SYNTAX &&
				  strcmp(err.msg, "nested too deeply") == 0, "%s in itself, parse: %s",
				  bc_cqlkind_name(kinds[i]), err.msg);
		}
		else
		{
			char	   *hex = malloc(2 * blen + 1);
			size_t		j;

			for (j = 0; j < blen; j++)
				hex[2 * j] = "0123456789abcdef"[b[j] >> 4], hex[2 * j + 1] = "0123456789abcdef"[b[j] & 15];
			CHECK(parse(t, hex, 2 * blen, &err) == BC_ERR_CQL_SYNTAX &&
				  strstr(err.msg, "nested too deeply") != NULL, "ListType in itself, parse: %s",
				  err.msg);
			free(hex);
		}
		free(own);
		free(t);
	}
	free(lists);
}

/* the sink: 100,000 layers pushed keep BC_CQLSINK_MAX_LAYERS, the depth
 * of emit's recursion */
static void
check_sink_layers(void)
{
	char		buf[256];
	bc_cqlsink	s;
	int			i;

	bc_cqlsink_init(&s, buf, sizeof(buf));
	for (i = 0; i < LEVELS; i++)
		bc_cqlsink_push(&s, BC_CQLESC_COMPOSITE);
	CHECK(s.nlayers == BC_CQLSINK_MAX_LAYERS, "%d layers", s.nlayers);
	bc_cqlsink_putc(&s, ':');
	CHECK(s.len == (size_t) BC_CQLSINK_MAX_LAYERS + 1, "':' through %d layers: %zu bytes",
		  BC_CQLSINK_MAX_LAYERS, s.len);
	for (i = 0; i < LEVELS; i++)
		bc_cqlsink_pop(&s);
	CHECK(s.nlayers == 0, "popped");
}

/* the leaves of the deep trie: how many, the last one's prefix length
 * and payload */
typedef struct deep_leaves
{
	size_t		n,
				len;
	bc_trie_payload p;
} deep_leaves;

static int
deep_leaf(const bc_trie_payload *p, const uint8_t *prefix, size_t len, void *arg)
{
	deep_leaves *l = arg;
	size_t		i;

	for (i = 0; i < len; i++)
		if (prefix[i] != 'a')
			return 1;
	l->n++;
	l->len = len;
	l->p = *p;
	return 0;
}

/* 'a' n times, then the end */
typedef struct deep_key
{
	size_t		left;
} deep_key;

static int
deep_next(void *arg)
{
	deep_key   *k = arg;

	if (k->left == 0)
		return -1;
	k->left--;
	return 'a';
}

/*
 * A trie 100,000 nodes deep (a chain of single transitions 'a' down to
 * one leaf): walked and found with a stack of frames that holds it, and
 * BC_ERR_TRIE_DEPTH with one frame fewer.  The trie walks are loops: the
 * depth costs frames in the caller's array, not C stack.
 */
static void
check_deep_trie(void)
{
	size_t		n = 3 + 2 * (size_t) LEVELS,
				len = n + 24,
				i;
	uint8_t    *d = malloc(len);
	uint8_t    *prefix = malloc(LEVELS + 1);
	bc_trie_frame *frames = malloc((LEVELS + 1) * sizeof(bc_trie_frame));
	bc_partitions_footer f;
	unit_mem	m;
	bc_reader	r;
	bc_trie		t;
	bc_trie_payload p;
	deep_leaves l;
	deep_key	k;
	bc_status	st;
	int			found;
	clock_t		t0 = clock();

	/* the leaf (hash 0x11, position 5), then the chain, each node's child
	 * 2 bytes back (3 for the first), the root last */
	d[0] = 0x08;
	d[1] = 0x11;
	d[2] = 0x05;
	for (i = 0; i < LEVELS; i++)
	{
		d[3 + 2 * i] = (uint8_t) (BC_TRIE_SINGLE_NOPAYLOAD_4 << 4 | (i == 0 ? 3 : 2));
		d[4 + 2 * i] = 'a';
	}
	bc_put_be64(d + n, n);
	bc_put_be64(d + n + 8, 1);
	bc_put_be64(d + n + 16, n - 2);
	f.keys_pos = n;
	f.key_count = 1;
	f.root = n - 2;
	unit_mem_open(&m, &r, d, len);
	CHECK(bc_trie_init(&t, &r, &f) == BC_OK, "trie of %d levels: init", LEVELS);
	memset(&l, 0, sizeof(l));
	st = bc_trie_walk(&t, frames, LEVELS + 1, prefix, LEVELS + 1, deep_leaf, &l);
	CHECK(st == BC_OK && l.n == 1 && l.len == LEVELS && l.p.position == 5 && l.p.hash == 0x11,
		  "trie of %d levels: walk: %s, %zu leaves, prefix of %zu", LEVELS, bc_status_message(st),
		  l.n, l.len);
	memset(&l, 0, sizeof(l));
	st = bc_trie_walk(&t, frames, LEVELS, prefix, LEVELS + 1, deep_leaf, &l);
	CHECK(st == BC_ERR_TRIE_DEPTH && l.n == 0, "trie of %d levels, %d frames: %s", LEVELS, LEVELS,
		  bc_status_message(st));
	k.left = LEVELS;
	st = bc_trie_find(&t, deep_next, &k, &p, &found);
	CHECK(st == BC_OK && found && p.position == 5, "trie of %d levels: find: %s, found %d", LEVELS,
		  bc_status_message(st), found);
	k.left = LEVELS - 1;
	st = bc_trie_find(&t, deep_next, &k, &p, &found);
	CHECK(st == BC_OK && !found, "trie of %d levels: find one short: %s, found %d", LEVELS,
		  bc_status_message(st), found);
	CHECK(seconds_since(t0) < 1.0, "trie of %d levels: %.3f s", LEVELS, seconds_since(t0));
	free(frames);
	free(prefix);
	free(d);
}

void
suite_recursion(void)
{
	check_type_strings();
	check_deep_values();
	check_own_count();
	check_sink_layers();
	check_deep_trie();
}
