/*
 * bc_cqltype.h - Cassandra's marshal type strings (bc_cqltype.c): the
 * key_type of Statistics.db's serialization header, as
 * org.apache.cassandra.db.marshal.TypeParser reads it, parsed into a tree
 * of nodes the value functions (bc_cqlvalue.h) walk.
 *
 * A class name is taken with or without the org.apache.cassandra.db.marshal.
 * prefix; blanks between tokens are skipped.  ReversedType(T) and
 * FrozenType(T) are T (they change neither bytes nor text).  UserType's
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

/* Most nodes in a type, and the deepest nesting, that bloomcass reads. */
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
	int			depth;			/* deepest nesting of value nodes, 1.. */
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

#endif							/* BC_CQLTYPE_H */
