/*
 * fuzz_dir.c - what a data directory holds besides SSTables
 * (bc_txn_log.c, bc_sstable_dir.c): the input as a whole transaction log
 * (bc_txn_log_scan) and each of its lines as a record
 * (bc_txn_record_parse), and the input as a log's file name
 * (bc_txn_log_name) and as a data directory's folder path
 * (bc_folder_parse).
 */
#include <string.h>

#include "bc_sstable_dir.h"
#include "bc_status.h"
#include "bc_txn_log.h"
#include "fuzz.h"

typedef struct txn_span
{
	const uint8_t *data;
	size_t		len;
} txn_span;

static void
txn_scan_sstable(void *arg, int obsolete, const char *base, size_t len)
{
	txn_span   *t = arg;

	CHECK(obsolete == 0 || obsolete == 1);
	CHECK(len > 0 && inside(base, len, t->data, t->len));
}

static void
txn_scan_bad(void *arg, long lineno)
{
	(void) arg;
	CHECK(lineno >= 1);
}

/*
 * A record parsed is what its line says: a known type word, the
 * path inside the first brackets, its last element (less one '-') the base.
 */
void
fuzz_txn_log(const uint8_t *data, size_t len)
{
	const char *line = (const char *) data;
	const char *end = line + len;

	(void) bc_txn_log_name((const char *) data, len);
	{
		txn_span	t = {data, len};

		bc_txn_log_scan((const char *) data, len, txn_scan_sstable, txn_scan_bad, &t);
	}
	{
		bc_folder	fo;

		bc_folder_parse((const char *) data, len, &fo);
		CHECK(fo.state == BC_STATE_LIVE || fo.state == BC_STATE_SNAPSHOT || fo.state == BC_STATE_BACKUP);
		CHECK(fo.keyspace == NULL || inside(fo.keyspace, fo.keyspace_len, data, len));
		CHECK(fo.table == NULL || inside(fo.table, fo.table_len, data, len));
		CHECK(fo.index == NULL || (fo.table != NULL && inside(fo.index, fo.index_len, data, len)));
		CHECK(fo.snapshot == NULL || (fo.state == BC_STATE_SNAPSHOT &&
									  inside(fo.snapshot, fo.snapshot_len, data, len)));
		CHECK(bc_sstable_state_name(fo.state) != NULL);
	}
	while (line <= end)
	{
		const char *nl = memchr(line, '\n', (size_t) (end - line));
		size_t		llen = (size_t) ((nl ? nl : end) - line);
		char	   *copy = xmalloc(llen + 1);
		bc_txn_record r;
		bc_status	st;

		/* an exact-size copy: a read past the line is caught */
		memcpy(copy, line, llen);
		st = bc_txn_record_parse(copy, llen, &r);
		CHECK(st == BC_OK || st == BC_ERR_TXN_RECORD);
		if (st == BC_OK)
		{
			const char *colon = memchr(copy, ':', llen);

			CHECK(colon != NULL && colon[1] == '[' && copy[llen - 1 - (copy[llen - 1] == '\r')] == ']');
			if (r.type == BC_TXN_ADD || r.type == BC_TXN_REMOVE)
			{
				CHECK(r.path == colon + 2 && r.path_len > 0 && r.base_len > 0);
				CHECK(r.base >= r.path && r.base + r.base_len <= r.path + r.path_len);
				CHECK(memchr(r.base, '/', r.base_len) == NULL &&
					  memchr(r.base, ',', r.base_len) == NULL);
			}
			else
				CHECK(r.type == BC_TXN_COMMIT || r.type == BC_TXN_ABORT);
		}
		free(copy);
		if (nl == NULL)
			break;
		line = nl + 1;
	}
}
