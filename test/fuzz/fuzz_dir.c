/*
 * fuzz_dir.c - what a data directory holds besides SSTables
 * (bc_txn_log.c, bc_sstable_dir.c): the input as a whole transaction log
 * (bc_txn_log_scan: verified and applied) and each of its lines as a
 * record (bc_txn_record_parse, bc_txn_record_checksum), and the input as
 * a log's file name
 * (bc_txn_log_name) and as a data directory's folder path
 * (bc_folder_parse); the input as a ScyllaDB pending_delete log
 * (bc_pending_delete_scan) and its name (bc_pending_delete_log_name).
 */
#include <string.h>

#include "bc_pending_delete.h"
#include "bc_sstable_dir.h"
#include "bc_status.h"
#include "bc_txn_log.h"
#include "fuzz.h"

typedef struct txn_span
{
	const uint8_t *data;
	size_t		len;
	int			obsolete;		/* -1 until the first SSTable */
} txn_span;

static void
txn_scan_sstable(void *arg, int obsolete, const char *base, size_t len)
{
	txn_span   *t = arg;

	CHECK(obsolete == 0 || obsolete == 1);
	/* one log takes its SSTables out one way only */
	CHECK(t->obsolete == -1 || t->obsolete == obsolete);
	t->obsolete = obsolete;
	CHECK(len > 0 && inside(base, len, t->data, t->len));
}

/* what bc_pending_delete_scan reports: a whole line of the log, no '/',
 * its descriptor then -TOC.txt */
typedef struct pending_span
{
	const uint8_t *data;
	size_t		len;
	size_t		n;
} pending_span;

static void
pending_sstable(void *arg, const char *d, size_t dlen)
{
	pending_span *p = arg;
	const char *text = (const char *) p->data;

	CHECK(dlen > 0 && inside(d, dlen, p->data, p->len));
	CHECK((size_t) (d - text) + dlen + 8 <= p->len &&
		  memcmp(d + dlen, "-TOC.txt", 8) == 0);
	CHECK(d == text || d[-1] == '\n');
	CHECK((size_t) (d - text) + dlen + 8 == p->len || d[dlen + 8] == '\n');
	CHECK(memchr(d, '/', dlen) == NULL);
	p->n++;
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
		txn_span	t = {data, len, -1};
		size_t		size = bc_txn_log_scratch_size((const char *) data, len);
		void	   *scratch = xmalloc(size);
		bc_txn_log_result res;

		CHECK(size >= 1 && size <= len * sizeof(uint32_t) + 1);
		bc_txn_log_scan((const char *) data, len, scratch, txn_scan_sstable, &t, &res);
		free(scratch);
		/* a verdict as LogFile.verify gives it: a fault and its line for
		 * all but a log that verifies; SSTables taken out only by one
		 * that is read; obsolete ones only when committed */
		CHECK((res.verdict == BC_TXN_VERIFIED) == (res.fault == BC_TXN_FAULT_NONE));
		CHECK(res.verdict == BC_TXN_VERIFIED ? res.lineno == 0 : res.lineno >= 1);
		CHECK(bc_txn_fault_message(res.fault) != NULL);
		CHECK(!res.committed || res.completed);
		CHECK(!res.cut || res.verdict == BC_TXN_LAST_INVALID);
		CHECK(res.verdict != BC_TXN_UNREADABLE || (t.obsolete == -1 && !res.completed));
		CHECK(t.obsolete == -1 || t.obsolete == res.committed);
	}
	{
		pending_span p = {data, len, 0};

		(void) bc_pending_delete_log_name((const char *) data, len);
		CHECK(bc_pending_delete_scan((const char *) data, len, pending_sstable, &p) == p.n);
	}
	{
		bc_folder	fo;

		bc_folder_parse((const char *) data, len, &fo);
		CHECK(fo.state == BC_STATE_LIVE || fo.state == BC_STATE_SNAPSHOT ||
			  fo.state == BC_STATE_BACKUP || fo.state == BC_STATE_STAGING ||
			  fo.state == BC_STATE_QUARANTINE || fo.state == BC_STATE_UPLOAD ||
			  fo.state == BC_STATE_TEMPORARY);
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
			(void) bc_txn_record_checksum(&r);
			CHECK(r.checksum >= 0);
			if (r.type == BC_TXN_ADD || r.type == BC_TXN_REMOVE)
			{
				CHECK(r.path == colon + 2);
				CHECK(r.base_len == 0 ||
					  (r.base >= r.path && r.base + r.base_len <= r.path + r.path_len));
				CHECK(r.base_len == 0 || (memchr(r.base, '/', r.base_len) == NULL &&
										  memchr(r.base, ',', r.base_len) == NULL));
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
