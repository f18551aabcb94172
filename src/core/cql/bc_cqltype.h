/*
 * bc_cqltype.h - Cassandra's marshal type strings (bc_cqltype.c): the
 * key_type of Statistics.db's serialization header, as
 * org.apache.cassandra.db.marshal.TypeParser reads it, parsed into a tree
 * of nodes the value functions (bc_cqlvalue.h) walk.
 *
 * A class name is taken with or without the org.apache.cassandra.db.marshal.
 * prefix; blanks between tokens are skipped.  ReversedType(T) and
 * A scalar may be named by its CQL name instead, in any case
 * (bigint, int, text, varchar, timeuuid, ...).  ReversedType(T) and
 * FrozenType(T) are T (they change neither bytes nor text), one level
 * deeper (BC_CQL_MAX_DEPTH below).  UserType's
 * parameters are the keyspace, the type's name in hex, then one
 * hexname:Type pair per field.  DynamicCompositeType is recognised and
 * refused (BC_ERR_CQL_UNSUPPORTED); any other name, or a malformed
 * string, is BC_ERR_CQL_TYPE.
 */
#ifndef BC_CQLTYPE_H
#define BC_CQLTYPE_H

#include <stddef.h>
#include <stdint.h>

#include "bc_status.h"

typedef enum bc_cqlkind
{
	BC_CQL_UTF8,				/* UTF8Type: text, varchar */
	BC_CQL_ASCII,				/* AsciiType */
	BC_CQL_INT32,				/* Int32Type: int */
	BC_CQL_LONG,				/* LongType: bigint */
	BC_CQL_SHORT,				/* ShortType: smallint */
	BC_CQL_BYTE,				/* ByteType: tinyint */
	BC_CQL_BOOLEAN,				/* BooleanType */
	BC_CQL_FLOAT,				/* FloatType */
	BC_CQL_DOUBLE,				/* DoubleType */
	BC_CQL_UUID,				/* UUIDType */
	BC_CQL_TIMEUUID,			/* TimeUUIDType: version 1 only */
	BC_CQL_LEXICALUUID,			/* LexicalUUIDType */
	BC_CQL_TIMESTAMP,			/* TimestampType and DateType */
	BC_CQL_DATE,				/* SimpleDateType: date */
	BC_CQL_TIME,				/* TimeType */
	BC_CQL_INET,				/* InetAddressType */
	BC_CQL_DECIMAL,				/* DecimalType */
	BC_CQL_VARINT,				/* IntegerType */
	BC_CQL_BLOB,				/* BytesType */
	BC_CQL_DURATION,			/* DurationType */
	BC_CQL_COUNTER,				/* CounterColumnType */
	BC_CQL_COMPOSITE,			/* CompositeType(T, ...) */
	BC_CQL_LIST,				/* ListType(T) */
	BC_CQL_SET,					/* SetType(T) */
	BC_CQL_MAP,					/* MapType(K, V) */
	BC_CQL_TUPLE,				/* TupleType(T, ...) */
	BC_CQL_UDT					/* UserType(ks, name, field:T, ...) */
} bc_cqlkind;

/*
 * Most nodes in a type, and the deepest nesting, that bloomcass reads.
 *
 * BC_CQL_MAX_DEPTH is the one bound of every recursion over a marshal type
 * and the values of one.  A type string nests at most BC_CQL_MAX_DEPTH
 * levels, every class counted, ReversedType and FrozenType included:
 * Int32Type is 1 level, FrozenType(ListType(Int32Type)) 3.  A deeper one is
 * BC_ERR_CQL_TYPE "nested too deeply", found when the parser reaches level
 * BC_CQL_MAX_DEPTH + 1, however deep the string goes on.  (The deepest
 * key type of the test data nests 5: a frozen list in a frozen map.)
 *
 * The functions that recurse, each counting one level a call against
 * BC_CQL_MAX_DEPTH (the root is level 1) and refusing a deeper one:
 *
 *   parse_type, parse_user     bc_cqltype.c: the type string
 *   text_value                 bc_cqlvalue_text.c: a key's bytes to text
 *   bc_cql_value_json          bc_cqlvalue_json.c: bytes to JSON, and the
 *                              check that bytes are a collection of the type
 *   parse_value,               bc_cqlvalue_parse.c: a key's text to bytes
 *   parse_composite,
 *   parse_tuple
 *   emit                       bc_cqlvalue_sink.c: one call a layer of
 *                              escaping, at most BC_CQLSINK_MAX_LAYERS,
 *                              derived from BC_CQL_MAX_DEPTH
 *
 * The value functions go down the type's tree, one node a level, so the
 * bytes or text of a value cannot take them deeper than its type: a value
 * nested deeper is refused at the type's depth as bytes or text that are
 * no value of it.  The glue calls check_stack_depth before it calls them
 * (bloom_cqlkey.c).
 *
 * No other function of bloomcass (src/core, the glue, the client) calls
 * itself, directly or through others (make check-recursion finds the
 * cycles of the call graphs gcc gives and fails on any not listed there;
 * the calls through pointers are to readers and walk callbacks, which
 * never call back), save one bounded by construction: bloom_agg_exact.c's move of an exact state from one
 * bucket to many, which adds the hashes back through bloom_exact_add and
 * happens once a state.  The walks of a trie (bc_trie.c, bc_trie_keys.c)
 * and of a directory tree (bc_walk.c) are loops over a stack of frames in
 * an array, bounded by BC_TRIE_MAX_DEPTH and BC_WALK_MAX_DEPTH.
 */
#define BC_CQL_MAX_NODES 256
#define BC_CQL_MAX_DEPTH 32

typedef struct bc_cqlnode
{
	bc_cqlkind	kind;
	int			first;			/* first parameter's node, -1 for none */
	int			next;			/* next parameter of the parent, -1 */
	int			nparams;		/* parameters (fields for UserType) */
	const char *name;			/* in the type string: UserType's hex */
	size_t		name_len;		/* name; a UserType field's hex name */
} bc_cqlnode;

typedef struct bc_cqltype
{
	bc_cqlnode	node[BC_CQL_MAX_NODES];
	int			nnodes;
	int			root;			/* the value's node: node[root] */
	int			depth;			/* deepest level reached, wrappers counted:
								 * 1 .. BC_CQL_MAX_DEPTH */
} bc_cqltype;

/*
 * Parse the marshal type string s[0 .. len) into *t, which keeps
 * pointers into s (UserType names): s must outlive t.  On an error, what
 * is wrong is written to msg (msgcap bytes, NUL-terminated; msg may be
 * NULL).
 */
bc_status	bc_cqltype_parse(const char *s, size_t len, bc_cqltype *t,
							 char *msg, size_t msgcap);

/* The short class name of a kind ("Int32Type"), for messages. */
const char *bc_cqlkind_name(bc_cqlkind kind);

/* Its CQL name ("int"), or NULL for a kind that has none (LexicalUUIDType,
 * and the composite, collection, tuple and user types). */
const char *bc_cqlkind_cql_name(bc_cqlkind kind);

#endif							/* BC_CQLTYPE_H */
