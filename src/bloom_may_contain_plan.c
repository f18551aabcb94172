/*
 * bloom_may_contain_plan.c - bloom_may_contain's planner support: where
 * its rows are made costs least.
 *
 * bloom_may_contain(filter, keys [, key_type]) is a SQL function whose
 * body is one select list, SELECT bloom_may_contain_rows(...): the C
 * function of bloom_may_contain.c, which probes the keys in batches and
 * returns the present ones value per call.  Its rows cost least where
 * nothing stores them:
 *
 *   - in FROM, PostgreSQL inlines the SQL function
 *     (inline_set_returning_function of optimizer/util/clauses.c): the
 *     call becomes a subquery whose select list calls
 *     bloom_may_contain_rows, and the rows stream to the query as they are
 *     found.  A C function in FROM would put every row of its set into a
 *     tuplestore before the query reads the first, whatever way it returns
 *     them (ExecMakeTableFunctionResult of executor/execSRF.c, which the
 *     function scan calls);
 *   - anywhere else (a select list, the only other place a set-returning
 *     function may be) the SQL function would run its query once per row
 *     (fmgr_sql's lazy evaluation in
 *     executor/functions.c), so bloom_may_contain_support puts
 *     bloom_may_contain_rows in its place (SupportRequestSimplify): the
 *     same arguments, the same result.
 *
 * PostgreSQL simplifies the function of a FROM item before it tries to
 * inline it (preprocess_function_rtes of prepjointree.c), so the support
 * function leaves alone a call while the query being planned has a FROM
 * item that inlining will turn into a subquery: one call of this function,
 * without ORDINALITY, with arguments free of volatile functions and
 * subqueries, that the role may execute, with no fmgr hook (the checks of
 * inline_set_returning_function).  By the time the rest of the query is
 * simplified, those items are subqueries.  A FROM item that inlining
 * refuses (WITH ORDINALITY, ROWS FROM, a volatile argument) gets
 * bloom_may_contain_rows in a function scan.
 *
 * The replacement is made only where the role may execute
 * bloom_may_contain, as PostgreSQL inlines a function only then: a role
 * without the privilege gets the executor's refusal of bloom_may_contain.
 */
#include "postgres.h"

#include "catalog/pg_proc.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/pathnodes.h"
#include "nodes/supportnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "parser/parse_func.h"
#include "utils/acl.h"
#include "utils/lsyscache.h"

#include "bloomcass.h"

/* the function bloom_may_contain's body calls */
#define BLOOM_MAY_CONTAIN_ROWS "bloom_may_contain_rows"

/*
 * Whether PostgreSQL will inline a call of funcid with these arguments in
 * FROM: inline_set_returning_function's checks of the call (the function
 * itself is SQL, not strict, not volatile, without SET: its definition).
 */
static bool
inlinable_call(Oid funcid, List *args)
{
	return !contain_volatile_functions((Node *) args) &&
		!contain_subplans((Node *) args) &&
		bloom_proc_aclcheck(funcid, GetUserId(), ACL_EXECUTE) == ACLCHECK_OK &&
		!FmgrHookIsNeeded(funcid);
}

/* Whether the query being planned has a FROM item PostgreSQL will inline
 * that calls funcid. */
static bool
inlined_in_from(PlannerInfo *root, Oid funcid)
{
	ListCell   *lc;

	if (root == NULL || root->parse == NULL)
		return false;
	foreach(lc, root->parse->rtable)
	{
		RangeTblEntry *rte = (RangeTblEntry *) lfirst(lc);
		RangeTblFunction *rtfunc;
		FuncExpr   *call;

		if (rte->rtekind != RTE_FUNCTION || rte->funcordinality ||
			list_length(rte->functions) != 1)
			continue;
		rtfunc = (RangeTblFunction *) linitial(rte->functions);
		if (!IsA(rtfunc->funcexpr, FuncExpr))
			continue;
		call = (FuncExpr *) rtfunc->funcexpr;
		if (call->funcid == funcid && inlinable_call(funcid, call->args))
			return true;
	}
	return false;
}

/* bloom_may_contain_rows with the arguments bloom_may_contain declares,
 * beside it in its schema */
static Oid
rows_function(Oid funcid)
{
	Oid		   *argtypes;
	int			nargs;
	char	   *schema = get_namespace_name(get_func_namespace(funcid));
	Oid			rows;

	if (schema == NULL)
		return InvalidOid;
	get_func_signature(funcid, &argtypes, &nargs);
	rows = LookupFuncName(list_make2(makeString(schema), makeString(BLOOM_MAY_CONTAIN_ROWS)),
						  nargs, argtypes, true);
	pfree(argtypes);
	return rows;
}

PG_FUNCTION_INFO_V1(bloom_may_contain_support);
Datum
bloom_may_contain_support(PG_FUNCTION_ARGS)
{
	Node	   *rawreq = (Node *) PG_GETARG_POINTER(0);
	SupportRequestSimplify *req;
	FuncExpr   *call;
	FuncExpr   *rows_call;
	Oid			rows;

	if (!IsA(rawreq, SupportRequestSimplify))
		PG_RETURN_POINTER(NULL);
	req = (SupportRequestSimplify *) rawreq;
	call = req->fcall;
	if (!call->funcretset || inlined_in_from(req->root, call->funcid) ||
		bloom_proc_aclcheck(call->funcid, GetUserId(), ACL_EXECUTE) != ACLCHECK_OK)
		PG_RETURN_POINTER(NULL);
	rows = rows_function(call->funcid);
	if (!OidIsValid(rows))
		PG_RETURN_POINTER(NULL);
	rows_call = makeFuncExpr(rows, call->funcresulttype, call->args,
							 call->funccollid, call->inputcollid, call->funcformat);
	rows_call->funcretset = true;
	rows_call->location = call->location;
	PG_RETURN_POINTER(rows_call);
}
