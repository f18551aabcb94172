/*
 * test_cqlvalue.c - marshal type strings (bc_cqltype.c) and CQL key values
 * (bc_cqlvalue_*.c) against the golden vectors of test/data/vectors/cql-keys,
 * which the DataStax Python driver decoded (test/tools/cql_vectors.py):
 * each key's text and JSON, the text parsed back to the key's bytes (or to
 * the canonical bytes the vector names), and the errors of bad types,
 * bytes and text.
 */
#include <stdlib.h>
#include <string.h>

#include "bc_cqltype.h"
#include "bc_cqlvalue.h"
#include "unit.h"

static bc_cqltype T;

static bc_status
parse_type(const char *s)
{
	char		msg[200];

	return bc_cqltype_parse(s, strlen(s), &T, msg, sizeof(msg));
}

/* a TSV field's \\, \t and \n, in place */
static size_t
unescape_field(char *s)
{
	size_t		i,
				k = 0;

	for (i = 0; s[i]; i++)
	{
		if (s[i] == '\\' && s[i + 1])
		{
			i++;
			s[k++] = s[i] == 't' ? '\t' : s[i] == 'n' ? '\n' : s[i];
		}
		else
			s[k++] = s[i];
	}
	s[k] = '\0';
	return k;
}

/* the text (json = 0) or JSON of key under T into a malloc'd string,
 * through a first call with too small a buffer */
static char *
render(const uint8_t *key, size_t len, int json, bc_status *st, bc_cqlerr *err)
{
	uint32_t   *work = malloc(BC_CQL_WORK_WORDS(len) * sizeof(uint32_t));
	char		small[3];
	bc_cqlsink	s;
	char	   *buf;
	size_t		need;

	bc_cqlsink_init(&s, small, sizeof(small));
	*st = json ? bc_cql_key_json(&T, key, len, work, &s, err) :
		bc_cql_key_text(&T, key, len, work, &s, err);
	if (*st != BC_OK && *st != BC_ERR_BUFFER)
	{
		free(work);
		return NULL;
	}
	need = s.len;
	buf = malloc(need + 1);
	bc_cqlsink_init(&s, buf, need);
	*st = json ? bc_cql_key_json(&T, key, len, work, &s, err) :
		bc_cql_key_text(&T, key, len, work, &s, err);
	free(work);
	if (*st != BC_OK || s.len != need)
	{
		if (*st == BC_OK)
			*st = BC_ERR_BUFFER;
		free(buf);
		return NULL;
	}
	buf[need] = '\0';
	return buf;
}

/* the bytes of text under T, malloc'd (through a too small first call) */
static uint8_t *
parse_text(const char *text, size_t n, size_t *len, bc_status *st, bc_cqlerr *err)
{
	char	   *scratch = malloc(n + 1);
	uint8_t		small[2];
	bc_cqlsink	s;
	uint8_t    *buf;
	size_t		need;

	bc_cqlsink_init(&s, small, sizeof(small));
	*st = bc_cql_key_parse(&T, text, n, scratch, &s, err);
	if (*st != BC_OK && *st != BC_ERR_BUFFER)
	{
		free(scratch);
		return NULL;
	}
	need = s.len;
	buf = malloc(need + 1);
	bc_cqlsink_init(&s, buf, need);
	*st = bc_cql_key_parse(&T, text, n, scratch, &s, err);
	free(scratch);
	if (*st != BC_OK)
	{
		free(buf);
		return NULL;
	}
	*len = s.len;
	return buf;
}

/* one file of vectors: key_type, key hex, text, JSON, parse-back hex */
static int
check_vectors(const char *rel)
{
	unit_tsv	t;
	char	   *f[6];
	int			n,
				rows = 0;

	if (unit_tsv_open(&t, rel) != 0)
	{
		CHECK(0, "%s: cannot open", rel);
		return 0;
	}
	while ((n = unit_tsv_next(&t, f, 6)) >= 0)
	{
		size_t		klen,
					tlen,
					blen,
					plen = 0;
		uint8_t    *key,
				   *back,
				   *parsed;
		char	   *text,
				   *json;
		bc_status	st;
		bc_cqlerr	err;

		if (n != 5)
		{
			CHECK(0, "%s:%ld: %d fields", rel, t.lineno, n);
			continue;
		}
		rows++;
		CHECK(parse_type(f[0]) == BC_OK, "%s:%ld: type %s", rel, t.lineno, f[0]);
		key = unit_hex_decode(f[1], strlen(f[1]), &klen);
		tlen = unescape_field(f[2]);
		unescape_field(f[3]);
		text = render(key, klen, 0, &st, &err);
		CHECK(text != NULL && strlen(text) == tlen && memcmp(text, f[2], tlen) == 0,
			  "%s:%ld: %s %s: text '%s', expected '%s' (%s)", rel, t.lineno, f[0], f[1],
			  text ? text : "(error)", f[2], text ? "" : err.msg);
		json = render(key, klen, 1, &st, &err);
		CHECK(json != NULL && strcmp(json, f[3]) == 0,
			  "%s:%ld: %s %s: json '%s', expected '%s' (%s)", rel, t.lineno, f[0], f[1],
			  json ? json : "(error)", f[3], json ? "" : err.msg);
		if (strcmp(f[4], "=") == 0)
			back = unit_hex_decode(f[1], strlen(f[1]), &blen);
		else
			back = unit_hex_decode(f[4], strlen(f[4]), &blen);
		parsed = parse_text(f[2], tlen, &plen, &st, &err);
		CHECK(parsed != NULL && plen == blen && memcmp(parsed, back, blen) == 0,
			  "%s:%ld: %s: parse of '%s' gave %s, expected %s (%s)", rel, t.lineno, f[0], f[2],
			  parsed ? unit_hex_encode(parsed, plen) : "(error)", f[4][0] == '=' ? f[1] : f[4],
			  parsed ? "" : err.msg);
		free(key);
		free(back);
		free(parsed);
		free(text);
		free(json);
	}
	unit_tsv_close(&t);
	return rows;
}

void
suite_cqltype(void)
{
	static const struct
	{
		const char *s;
		bc_status	st;
		int			root;
		int			nparams;
	}			cases[] = {
		{"UTF8Type", BC_OK, BC_CQL_UTF8, 0},
		{"org.apache.cassandra.db.marshal.Int32Type", BC_OK, BC_CQL_INT32, 0},
		{" org.apache.cassandra.db.marshal.CompositeType( UTF8Type , \tInt32Type\n) ", BC_OK,
		BC_CQL_COMPOSITE, 2},
		{"ReversedType(FrozenType(ListType(Int32Type)))", BC_OK, BC_CQL_LIST, 1},
		{"DateType", BC_OK, BC_CQL_TIMESTAMP, 0},
		/* CQL names of the scalars, in any case, also as parameters */
		{"bigint", BC_OK, BC_CQL_LONG, 0},
		{" BigInt ", BC_OK, BC_CQL_LONG, 0},
		{"int", BC_OK, BC_CQL_INT32, 0},
		{"varchar", BC_OK, BC_CQL_UTF8, 0},
		{"timeuuid", BC_OK, BC_CQL_TIMEUUID, 0},
		{"tinyint", BC_OK, BC_CQL_BYTE, 0},
		{"CompositeType(text,int)", BC_OK, BC_CQL_COMPOSITE, 2},
		{"ReversedType(bigint)", BC_OK, BC_CQL_LONG, 0},
		{"bigint(int)", BC_ERR_CQL_TYPE, 0, 0},
		{"org.apache.cassandra.db.marshal.bigint", BC_ERR_CQL_TYPE, 0, 0},
		{"biginteger", BC_ERR_CQL_TYPE, 0, 0},
		{"MapType(UTF8Type,SetType(Int32Type))", BC_OK, BC_CQL_MAP, 2},
		{"UserType(ks,61,62:UTF8Type,63:TupleType(Int32Type,LongType))", BC_OK, BC_CQL_UDT, 2},
		{"DynamicCompositeType(a=>UTF8Type)", BC_ERR_CQL_UNSUPPORTED, 0, 0},
		{"org.apache.cassandra.db.marshal.DynamicCompositeType", BC_ERR_CQL_UNSUPPORTED, 0, 0},
		{"", BC_ERR_CQL_TYPE, 0, 0},
		{"NoSuchType", BC_ERR_CQL_TYPE, 0, 0},
		{"com.example.UTF8Type", BC_ERR_CQL_TYPE, 0, 0},
		{"UTF8Type(Int32Type)", BC_ERR_CQL_TYPE, 0, 0},
		{"CompositeType", BC_ERR_CQL_TYPE, 0, 0},
		{"CompositeType()", BC_ERR_CQL_TYPE, 0, 0},
		{"CompositeType(UTF8Type", BC_ERR_CQL_TYPE, 0, 0},
		{"CompositeType(UTF8Type,)", BC_ERR_CQL_TYPE, 0, 0},
		{"ListType(Int32Type,Int32Type)", BC_ERR_CQL_TYPE, 0, 0},
		{"MapType(Int32Type)", BC_ERR_CQL_TYPE, 0, 0},
		{"UserType(ks,6g,61:UTF8Type)", BC_ERR_CQL_TYPE, 0, 0},
		{"UserType(ks,61,616:UTF8Type)", BC_ERR_CQL_TYPE, 0, 0},
		{"UserType(ks,61,61 UTF8Type)", BC_ERR_CQL_TYPE, 0, 0},
		{"UserType(ks,61)", BC_ERR_CQL_TYPE, 0, 0},
		{"UTF8Type junk", BC_ERR_CQL_TYPE, 0, 0},
	};
	size_t		i;
	char		deep[4096];

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		bc_status	st = parse_type(cases[i].s);

		CHECK(st == cases[i].st, "type '%s': status %d, expected %d", cases[i].s, st, cases[i].st);
		if (st == BC_OK && cases[i].st == BC_OK)
			CHECK((int) T.node[T.root].kind == cases[i].root &&
				  T.node[T.root].nparams == cases[i].nparams,
				  "type '%s': root kind %d with %d parameters", cases[i].s,
				  T.node[T.root].kind, T.node[T.root].nparams);
	}
	CHECK(strcmp(bc_cqlkind_name(BC_CQL_LONG), "LongType") == 0 &&
		  strcmp(bc_cqlkind_cql_name(BC_CQL_LONG), "bigint") == 0 &&
		  strcmp(bc_cqlkind_cql_name(BC_CQL_UTF8), "text") == 0 &&
		  bc_cqlkind_cql_name(BC_CQL_COMPOSITE) == NULL, "class and CQL names of kinds");
	/* nesting: 32 levels are read, 33 are not */
	for (i = 0; i < 2; i++)
	{
		int			levels = i == 0 ? 31 : 32,
					k;
		size_t		n = 0;

		for (k = 0; k < levels; k++)
			n += (size_t) sprintf(deep + n, "ListType(");
		n += (size_t) sprintf(deep + n, "Int32Type");
		for (k = 0; k < levels; k++)
			deep[n++] = ')';
		deep[n] = '\0';
		CHECK(parse_type(deep) == (i == 0 ? BC_OK : BC_ERR_CQL_TYPE), "nesting of %d lists", levels);
	}
	/* too many nodes */
	{
		size_t		n = (size_t) sprintf(deep, "TupleType(");

		for (i = 0; i < 300; i++)
			n += (size_t) sprintf(deep + n, "%sInt32Type", i ? "," : "");
		CHECK(n < sizeof(deep) - 2, "buffer");
		deep[n++] = ')';
		deep[n] = '\0';
		CHECK(parse_type(deep) == BC_ERR_CQL_TYPE, "a tuple of 300 fields");
	}
}

/* bytes that must not decode under a type, and text that must not parse */
static void
check_errors(void)
{
	static const struct
	{
		const char *type;
		const char *hex;
	}			bad_bytes[] = {
		{"Int32Type", "000001"}, {"LongType", "00"}, {"ShortType", ""}, {"ByteType", "0000"},
		{"BooleanType", "0000"}, {"FloatType", "000000"}, {"DoubleType", "00"},
		{"UUIDType", "00"}, {"TimeUUIDType", "00000000000020008000000000000000"},
		{"TimestampType", "0000"}, {"SimpleDateType", ""}, {"TimeType", "00004e94914f0000"},
		{"TimeType", "ffffffffffffffff"}, {"InetAddressType", "0102030405"},
		{"DecimalType", "00000001"}, {"UTF8Type", "c3"}, {"UTF8Type", "eda080"},
		{"UTF8Type", "c0af"}, {"AsciiType", "80"}, {"DurationType", "0202"},
		{"DurationType", "020202ff"}, {"DurationType", "020102"},
		{"DurationType", "f801000000000000"}, {"CompositeType(UTF8Type)", ""},
		{"CompositeType(UTF8Type)", "000161"}, {"CompositeType(UTF8Type)", "0001610000016200"},
		{"CompositeType(UTF8Type,UTF8Type)", "0001610100016200"},
		{"CompositeType(UTF8Type)", "00016102"}, {"CompositeType(UTF8Type)", "00"},
		{"TupleType(Int32Type)", "00000004000000010000000400000002"},
		{"TupleType(Int32Type)", "fffffffe"}, {"TupleType(Int32Type)", "000000"},
		{"ListType(Int32Type)", "0000000100000004000000"},
		{"ListType(Int32Type)", "00000001ffffffff"}, {"ListType(Int32Type)", ""},
		{"ListType(Int32Type)", "000000000000"}, {"MapType(Int32Type,Int32Type)", "000000010000000400000001"},
		{"SetType(Int32Type)", "000000010000000300000001"},
	};
	static const struct
	{
		const char *type;
		const char *text;
	}			bad_text[] = {
		{"Int32Type", "2147483648"}, {"Int32Type", "1.0"}, {"Int32Type", "x"}, {"Int32Type", "+"},
		{"ByteType", "128"}, {"ShortType", ""}, {"LongType", "9223372036854775808"},
		{"BooleanType", "yes"}, {"FloatType", "1.0.0"}, {"FloatType", "0x1p3"}, {"DoubleType", "e5"},
		{"DoubleType", "1e"}, {"UUIDType", "f47ac10b58cc4372a5670e02b2c3d479"},
		{"UUIDType", "f47ac10b-58cc-4372-a567-0e02b2c3d47g"},
		{"TimeUUIDType", "f47ac10b-58cc-4372-a567-0e02b2c3d479"},
		{"TimestampType", "2023-02-30T00:00:00Z"}, {"TimestampType", "2023-01-01T24:00:00Z"},
		{"TimestampType", "now"}, {"TimestampType", "2023-01-01T00:00:00.1234567890Z"},
		{"TimestampType", "9223372036854775808"}, {"SimpleDateType", "2023-13-01"},
		{"SimpleDateType", "4294967296"}, {"SimpleDateType", "+2023-01-01"},
		{"SimpleDateType", "+5881581-01-01"}, {"SimpleDateType", "12345-01-01"},
		{"TimeType", "24:00:00"}, {"TimeType", "86400000000000"}, {"TimeType", "1:00:00"},
		{"InetAddressType", "1.2.3"}, {"InetAddressType", "256.1.1.1"}, {"InetAddressType", "1::2::3"},
		{"InetAddressType", "1:2:3:4:5:6:7:8:9"}, {"InetAddressType", "localhost"},
		{"DecimalType", "1.2.3"}, {"DecimalType", "1E-2147483649"}, {"DecimalType", "1.5E+2147483650"}, {"DecimalType", "1E+2147483649"}, {"IntegerType", "1.5"},
		{"IntegerType", "--1"}, {"BytesType", "0x1"}, {"BytesType", "zz"}, {"AsciiType", "\xc3\xa9"},
		{"DurationType", "1h1d"}, {"DurationType", "1d1d"}, {"DurationType", "1x"},
		{"DurationType", "-"}, {"DurationType", "h"}, {"DurationType", "2147483648d"},
		{"DurationType", "178956971y"}, {"CompositeType(UTF8Type)", "a:b"},
		{"CompositeType(UTF8Type,Int32Type)", "a:x"}, {"CompositeType(UTF8Type,UTF8Type)", "a:!:b"},
		{"CompositeType(UTF8Type,UTF8Type)", "a:b:c"}, {"TupleType(Int32Type)", "1:2"},
		{"ListType(Int32Type)", "[1,2]"}, {"ListType(Int32Type)", "0x00000001"},
		{"ListType(Int32Type)", "0x0000000100000004000000010000"},
	};
	size_t		i;

	for (i = 0; i < sizeof(bad_bytes) / sizeof(bad_bytes[0]); i++)
	{
		size_t		len;
		uint8_t    *key = unit_hex_decode(bad_bytes[i].hex, strlen(bad_bytes[i].hex), &len);
		bc_status	st;
		bc_cqlerr	err;
		char	   *s;

		CHECK(parse_type(bad_bytes[i].type) == BC_OK, "type %s", bad_bytes[i].type);
		s = render(key, len, 0, &st, &err);
		CHECK(s == NULL && st == BC_ERR_CQL_VALUE, "%s %s: text %s (status %d)", bad_bytes[i].type,
			  bad_bytes[i].hex, s ? s : "(error)", st);
		free(s);
		s = render(key, len, 1, &st, &err);
		CHECK(s == NULL && st == BC_ERR_CQL_VALUE, "%s %s: json %s (status %d)", bad_bytes[i].type,
			  bad_bytes[i].hex, s ? s : "(error)", st);
		free(s);
		free(key);
	}
	/* a UDT field name that is not UTF-8: its text has no names, its JSON does */
	{
		uint8_t		key[8] = {0, 0, 0, 4, 0, 0, 0, 1};
		bc_status	st;
		bc_cqlerr	err;
		char	   *s;

		CHECK(parse_type("UserType(ks,61,ff:Int32Type)") == BC_OK, "UserType with field ff");
		s = render(key, 8, 0, &st, &err);
		CHECK(s != NULL && strcmp(s, "1") == 0, "UserType field ff: text %s", s ? s : "(error)");
		free(s);
		s = render(key, 8, 1, &st, &err);
		CHECK(s == NULL && st == BC_ERR_CQL_VALUE, "UserType field ff: json %s", s ? s : "(error)");
		free(s);
	}
	for (i = 0; i < sizeof(bad_text) / sizeof(bad_text[0]); i++)
	{
		size_t		len = 0;
		bc_status	st;
		bc_cqlerr	err;
		uint8_t    *b;

		CHECK(parse_type(bad_text[i].type) == BC_OK, "type %s", bad_text[i].type);
		b = parse_text(bad_text[i].text, strlen(bad_text[i].text), &len, &st, &err);
		CHECK(b == NULL && st == BC_ERR_CQL_SYNTAX, "%s '%s': parsed to %s (status %d)",
			  bad_text[i].type, bad_text[i].text, b ? unit_hex_encode(b, len) : "-", st);
		free(b);
	}
}

/* other spellings the parse accepts, and what they give */
static void
check_spellings(void)
{
	static const struct
	{
		const char *type;
		const char *text;
		const char *hex;
	}			ok[] = {
		{"Int32Type", "+7", "00000007"}, {"Int32Type", "-0", "00000000"}, {"Int32Type", "007", "00000007"},
		{"BooleanType", "TRUE", "01"}, {"BooleanType", "False", "00"},
		{"DoubleType", "1e3", "408f400000000000"}, {"DoubleType", ".5", "3fe0000000000000"},
		{"DoubleType", "-Infinity", "fff0000000000000"}, {"FloatType", "0.1", "3dcccccd"},
		{"UUIDType", "F47AC10B-58CC-4372-A567-0E02B2C3D479", "f47ac10b58cc4372a5670e02b2c3d479"},
		{"TimestampType", "2023-01-04 16:00:00.123+0000", "000001857d82c47b"},
		{"TimestampType", "2023-01-04T17:00:00.123+01:00", "000001857d82c47b"},
		{"TimestampType", "2023-01-04T16:00:00.1234Z", "000001857d82c47b"},
		{"TimestampType", "2023-01-04", "000001857a13dc00"},
		{"TimestampType", "1970-01-01T00:00Z", "0000000000000000"},
		{"TimestampType", "-1", "ffffffffffffffff"},
		{"SimpleDateType", "2147483648", "80000000"}, {"SimpleDateType", "0", "00000000"},
		{"TimeType", "12:00:00", "0000274a48a78000"}, {"TimeType", "1000", "00000000000003e8"},
		{"TimeType", "00:00:00.5", "000000001dcd6500"},
		{"InetAddressType", "::ffff:10.0.0.1", "0a000001"}, {"InetAddressType", "::1", "00000000000000000000000000000001"},
		{"InetAddressType", "1:2:3:4:5:6:1.2.3.4", "00010002000300040005000601020304"},
		{"InetAddressType", "1::", "00010000000000000000000000000000"},
		{"BytesType", "DEADbeef", "deadbeef"}, {"BytesType", "0X01", "01"},
		{"DurationType", "1Y2MO3W4D5H6M7S8MS9US10NS", "1c32fc2168cdf9d664"},
		{"DurationType", "1\xc2\xb5s", "0000 87d0"}, {"DurationType", "-178956970y8mo", "f0ffffffff0000"}, {"DurationType", "0s", "000000"},
		{"DecimalType", "1.5E+3", "fffffffe0f"}, {"DecimalType", "1E+2147483648", "8000000001"}, {"IntegerType", "+5", "05"},
		{"ListType(Int32Type)", "000000010000000400000005", "000000010000000400000005"},
		{"CompositeType(UTF8Type,UTF8Type)", "a:b:!", "0001610000016201"},
		{"CompositeType(UTF8Type,UTF8Type)", "a:_", "000161ff"},
		{"CompositeType(UTF8Type,UTF8Type)", "a\\b", "0003615c6200"},
		{"TupleType(UTF8Type,UTF8Type)", "a", "0000000161"},
	};
	size_t		i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
	{
		size_t		len = 0,
					wlen = 0,
					k,
					m = 0;
		bc_status	st;
		bc_cqlerr	err;
		uint8_t    *b,
				   *want;
		char		hex[128];

		for (k = 0; ok[i].hex[k]; k++)
			if (ok[i].hex[k] != ' ')
				hex[m++] = ok[i].hex[k];
		hex[m] = '\0';
		want = unit_hex_decode(hex, m, &wlen);
		CHECK(parse_type(ok[i].type) == BC_OK, "type %s", ok[i].type);
		b = parse_text(ok[i].text, strlen(ok[i].text), &len, &st, &err);
		CHECK(b != NULL && want != NULL && len == wlen && memcmp(b, want, len) == 0,
			  "%s '%s': %s, expected %s (%s)", ok[i].type, ok[i].text,
			  b ? unit_hex_encode(b, len) : "(error)", hex, b ? "" : err.msg);
		free(b);
		free(want);
	}
}

void
suite_cqlvalue(void)
{
	int			n = check_vectors("vectors/cql-keys/values.tsv");

	CHECK(n >= 200, "values.tsv: %d vectors", n);
	n = check_vectors("vectors/cql-keys/sstable-keys.tsv");
	CHECK(n >= 28, "sstable-keys.tsv: %d vectors", n);
	check_errors();
	check_spellings();
}
