/*
 * prune.c: the program as the training runs executed it. A block is cold when its entry
 * counter (tagged !mantis.block by the slicing instrumentation) is 0 in every training run. A
 * conditional branch from a warm block with one cold and one warm successor becomes an
 * unconditional branch to the warm one; the blocks then unreachable are deleted (their phi
 * entries first, then their values' uses, which only unreachable code or those entries had,
 * then their branches, so that no block is freed while a branch still names it). A function
 * whose entry block is cold returns at once (empty_cold_function).
 *
 * Why: a decision that only ever went one way in training (the error check after writing the
 * output, a failed malloc) need not be computed by an evaluator, and computing it often costs
 * the whole program (the check depends on everything written). Like the unreached exit calls
 * of slice.c, this is a bet that the inputs to predict take the paths training took; the
 * evaluator is validated on every training input, and a test input leaving those paths is
 * where the program usually fails anyway (docs/ARCHITECTURE.md, "Profile-guided pruning").
 * A block whose counter the overhead budget dropped (never updated, so always 0) is never cold.
 * Invariant: no block that a training run entered is deleted, no edge any run took is cut.
 */
#include "prune.h"

#include <llvm-c/DebugInfo.h>
#include <stdlib.h>

#include "cfg.h"
#include "util.h"

/* Returns the counter tagged on block b (-1 if none). */
static int block_counter(LLVMBasicBlockRef b, unsigned kind)
{
	for (LLVMValueRef x = LLVMGetFirstInstruction(b); x; x = LLVMGetNextInstruction(x)) {
		LLVMValueRef md = LLVMGetMetadata(x, kind), op;

		if (!md || LLVMGetMDNodeNumOperands(md) != 1)
			continue;
		LLVMGetMDNodeOperands(md, &op);
		return op && LLVMIsAConstantInt(op) ? (int)LLVMConstIntGetZExtValue(op) : -1;
	}
	return -1;
}

int prune_block_counter(LLVMBasicBlockRef b)
{
	LLVMContextRef ctx = LLVMGetModuleContext(LLVMGetGlobalParent(LLVMGetBasicBlockParent(b)));

	return block_counter(b, LLVMGetMDKindIDInContext(ctx, "mantis.block", 12));
}

/* The training runs' counters. */
struct runs {
	uint64_t *const *v;          /* v[r][c]: counter c of run r */
	int n;                       /* runs */
	int ncounters;               /* counters of each run */
	const unsigned char *unknown;/* ncounters: 1 if the counter was dropped (says nothing) */
};

/* Returns whether no run entered block b. */
static int cold(LLVMBasicBlockRef b, unsigned kind, const struct runs *runs)
{
	int c = block_counter(b, kind);

	if (c < 0 || c >= runs->ncounters || runs->unknown[c])
		return 0;
	for (int r = 0; r < runs->n; r++) {
		if (runs->v[r][c] != 0)
			return 0;
	}
	return 1;
}

/* Replaces every phi of to by one without the entries from `from`. */
static void drop_incoming(LLVMBuilderRef b, LLVMBasicBlockRef to, LLVMBasicBlockRef from)
{
	for (LLVMValueRef phi = LLVMGetFirstInstruction(to), next; phi && LLVMIsAPHINode(phi); phi = next) {
		LLVMValueRef fresh;

		next = LLVMGetNextInstruction(phi);
		LLVMPositionBuilderBefore(b, phi);
		fresh = LLVMBuildPhi(b, LLVMTypeOf(phi), "");
		for (unsigned i = 0; i < LLVMCountIncoming(phi); i++) {
			LLVMValueRef v = LLVMGetIncomingValue(phi, i);
			LLVMBasicBlockRef in = LLVMGetIncomingBlock(phi, i);

			if (in != from)
				LLVMAddIncoming(fresh, &v, &in, 1);
		}
		LLVMReplaceAllUsesWith(phi, fresh);
		LLVMInstructionEraseFromParent(phi);
	}
}

/* Deletes fn's blocks that the entry no longer reaches. */
static void delete_unreachable(LLVMBuilderRef b, LLVMValueRef fn)
{
	struct cfg cfg;

	cfg_build(&cfg, fn);
	for (int k = 0; k < cfg.n; k++) {
		if (cfg.rpo_number[k] >= 0)
			continue;
		for (int s = 0; s < cfg.nsucc[k]; s++) {
			int to = cfg.succ[k][s], seen = 0;

			for (int t = 0; t < s; t++)
				seen |= cfg.succ[k][t] == to;
			if (!seen && cfg.rpo_number[to] >= 0)
				drop_incoming(b, cfg.block[to], cfg.block[k]);
		}
	}
	for (int k = 0; k < cfg.n; k++) {
		if (cfg.rpo_number[k] >= 0)
			continue;
		for (LLVMValueRef x = LLVMGetFirstInstruction(cfg.block[k]); x; x = LLVMGetNextInstruction(x)) {
			if (LLVMGetTypeKind(LLVMTypeOf(x)) != LLVMVoidTypeKind)
				LLVMReplaceAllUsesWith(x, LLVMGetUndef(LLVMTypeOf(x)));
		}
	}
	/*
	 * Their branches go first: a block deleted while another's branch still names it leaves
	 * that branch a use of freed memory, which deleting the other block then writes to.
	 */
	for (int k = 0; k < cfg.n; k++) {
		if (cfg.rpo_number[k] < 0)
			LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(cfg.block[k]));
	}
	for (int k = 0; k < cfg.n; k++) {
		if (cfg.rpo_number[k] < 0)
			LLVMDeleteBasicBlock(cfg.block[k]);
	}
	cfg_release(&cfg);
}

/* Cuts fn's branches to cold blocks; returns how many. */
static int prune_function(LLVMBuilderRef b, LLVMValueRef fn, unsigned kind, const struct runs *runs)
{
	struct cfg cfg;
	unsigned char *is_cold;
	int cut = 0;

	cfg_build(&cfg, fn);
	is_cold = xcalloc((size_t)cfg.n + 1, 1);
	for (int k = 0; k < cfg.n; k++)
		is_cold[k] = (unsigned char)cold(cfg.block[k], kind, runs);
	for (int k = 0; k < cfg.n; k++) {
		LLVMValueRef term = LLVMGetBasicBlockTerminator(cfg.block[k]);
		int t, e, warm;

		if (is_cold[k] || cfg.rpo_number[k] < 0 || !LLVMIsABranchInst(term) ||
		    !LLVMIsConditional(term))
			continue;
		t = cfg.succ[k][0];
		e = cfg.succ[k][1];
		if (t == e || is_cold[t] == is_cold[e])
			continue;
		warm = is_cold[t] ? e : t;
		drop_incoming(b, cfg.block[warm == t ? e : t], cfg.block[k]);
		LLVMPositionBuilderBefore(b, term);
		LLVMInstructionSetDebugLoc(LLVMBuildBr(b, cfg.block[warm]), LLVMInstructionGetDebugLoc(term));
		LLVMInstructionEraseFromParent(term);
		cut++;
	}
	free(is_cold);
	cfg_release(&cfg);
	if (cut)
		delete_unreachable(b, fn);
	return cut;
}

/*
 * Empties fn when no run entered its entry block: one block that returns at once (zero, where
 * it returns a value), as an unkept branch becomes a return of zero. Returns 1 if it did.
 * Why: an indirect call may call every function whose address its pointer may hold, so a
 * function no input ever calls (djpeg's two-pass quantizer, which post_process_2pass calls
 * through a method table) weighs on the analyses with all it may read and write.
 */
static int empty_cold_function(LLVMBuilderRef b, LLVMValueRef fn, unsigned kind,
			       const struct runs *runs)
{
	LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
	LLVMTypeRef ret = LLVMGetReturnType(LLVMGlobalGetValueType(fn));

	if (!cold(entry, kind, runs))
		return 0;
	LLVMPositionBuilderAtEnd(b, LLVMInsertBasicBlockInContext(LLVMGetModuleContext(
		LLVMGetGlobalParent(fn)), entry, "cold"));
	LLVMSetCurrentDebugLocation2(b, NULL); /* not the last instruction's, of another function */
	if (LLVMGetTypeKind(ret) == LLVMVoidTypeKind)
		LLVMBuildRetVoid(b);
	else
		LLVMBuildRet(b, LLVMConstNull(ret));
	delete_unreachable(b, fn);
	return 1;
}

int prune_cold_edges(LLVMModuleRef mod, uint64_t *const *runs, int nruns, int ncounters,
		     const int *dropped, int ndropped, int *emptied)
{
	LLVMBuilderRef b;
	unsigned kind = LLVMGetMDKindIDInContext(LLVMGetModuleContext(mod), "mantis.block", 12);
	unsigned char *unknown;
	struct runs r = {runs, nruns, ncounters, NULL};
	int cut = 0;

	*emptied = 0;
	if (!runs || nruns <= 0)
		return 0;
	b = LLVMCreateBuilderInContext(LLVMGetModuleContext(mod));
	unknown = xcalloc((size_t)ncounters + 1, 1);
	for (int i = 0; i < ndropped; i++) {
		if (dropped[i] >= 0 && dropped[i] < ncounters)
			unknown[dropped[i]] = 1;
	}
	r.unknown = unknown;
	for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
		if (LLVMCountBasicBlocks(fn) == 0)
			continue;
		if (empty_cold_function(b, fn, kind, &r))
			(*emptied)++;
		else
			cut += prune_function(b, fn, kind, &r);
	}
	free(unknown);
	LLVMDisposeBuilder(b);
	return cut;
}
