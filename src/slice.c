/*
 * slice.c: feature evaluators as executable static slices (Mantis 000_/001_ section 5).
 *
 * The pipeline (slicer_init, then slicer_mark and slicer_write per evaluator):
 *   manifest        DIR/features.json: the features, their counters, how DIR was built
 *   instrument      DIR/prepared.bc again, with only those counters, each a plain global (the
 *                   papers' "static globals used for slicing"); same numbering as DIR/inst
 *   strip           llvm.dbg.* calls (their metadata uses are not dependences)
 *   constructors    called at the start of main, where the analyses see them run
 *   recorder        __mantis_slice_dump(): loads each counter and passes it to
 *                   __mantis_slice_emit, then __mantis_slice_flush; called before every return
 *                   of main and every exit call that a training run reached (given the runs);
 *                   such an exit's status becomes 0 where every value it may take ends the
 *                   run well (drop_ok_status: 0 or --ok-exit codes)
 *   pta, sdg        points-to analysis and dependence graph, once
 *   mark            criteria: the feature's emit calls and the flush; two-pass HRB slice;
 *                   an exit call whose recorder call is kept is kept too (its status and the
 *                   decisions that reach it), to the fixpoint
 *   rebuild         on a copy: arguments a callee does not need become zero; an unkept branch
 *                   goes to its immediate post-dominator (a return when that is the virtual
 *                   exit); phis follow the new edges; unkept instructions are deleted; verify;
 *                   debug information dropped (it does not change the code clang makes)
 *   fuse            the counters a computed feature alone reads add up in one (fuse.h)
 *   promote         the evaluator optimised as its build optimises it, then every loop's
 *                   counters that no call in the loop can see kept in locals (promote.h);
 *                   then built (clang -O again, linked with the runtime)
 * Invariant: an instruction is deleted only if no kept instruction uses its value, except call
 * arguments the callee does not need, which are replaced by zero.
 */
#include "slice.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Transforms/IPO.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cdep.h"
#include "cfg.h"
#include "error.h"
#include "extmodel.h"
#include "fuse.h"
#include "instrument.h"
#include "promote.h"
#include "prune.h"
#include "runner.h"
#include "solib.h"
#include "util.h"

static const char *callee_name(LLVMValueRef call)
{
	LLVMValueRef callee = LLVMIsACallInst(call) ? LLVMGetCalledValue(call) : NULL;
	size_t len;

	return callee && LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &len) : NULL;
}

/* Returns whether a call ends the program (exit, abort, ... by extmodel.h). */
static int is_exit_call(LLVMValueRef x)
{
	const char *name = callee_name(x);
	const struct extfn *ext = name ? extmodel_find(name) : NULL;

	return ext && (ext->flags & EXT_EXIT) && LLVMIsDeclaration(LLVMGetCalledValue(x));
}

/* ---- preparing the module ---------------------------------------------------------------- */

/* Resolves names (or takes indices) into s->feature; fills keep with their counters. */
static int choose_features(struct slicer *s, char *const *names, int n, unsigned char *keep,
			   struct error *err)
{
	s->feature = xmalloc(sizeof *s->feature * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++) {
		int k = manifest_find(&s->m, names[i]);
		const struct feature *f;

		if (k < 0)
			return error_set(err, "%s/features.json has no feature %s", s->dir, names[i]);
		s->feature[s->nfeatures++] = k;
		f = &s->m.v[k];
		for (int t = 0; t < f->nterms; t++)
			keep[f->terms[t].counter] = 1;
		if (f->denominator >= 0)
			keep[f->denominator] = 1;
	}
	return 0;
}

/* Instruments DIR/prepared.bc for the kept counters and checks it is DIR's program. */
static int instrument_again(struct slicer *s, const unsigned char *keep, struct error *err)
{
	char *bc = xasprintf("%s/prepared.bc", s->dir);
	struct manifest again = {0};
	int rc = ir_load(&s->ir, bc, err);

	free(bc);
	if (rc == 0)
		rc = instrument_module_for_slicing(&s->ir, s->m.schemes, keep, s->m.ncounters, &again, err);
	if (rc == 0 && again.build_id != s->m.build_id)
		rc = error_set(err, "%s/prepared.bc does not match %s/features.json (rebuild with mantis "
			       "instrument)", s->dir, s->dir);
	manifest_release(&again);
	return rc;
}

/* A constructor of the program, as llvm.global_ctors lists it. */
struct constructor {
	unsigned long long priority; /* lower runs first */
	unsigned index;              /* its place in the list: equal priorities run in list order */
	LLVMValueRef fn;             /* the function */
};

/* qsort's order of constructors: the order they run in (priority, then list order). */
static int by_priority(const void *a, const void *b)
{
	const struct constructor *x = a, *y = b;

	if (x->priority != y->priority)
		return x->priority < y->priority ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Returns the first debug location in fn, or NULL. */
static LLVMMetadataRef first_location(LLVMValueRef fn)
{
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
		for (LLVMValueRef x = LLVMGetFirstInstruction(b); x; x = LLVMGetNextInstruction(x)) {
			if (LLVMInstructionGetDebugLoc(x))
				return LLVMInstructionGetDebugLoc(x);
		}
	}
	return NULL;
}

/*
 * Calls the program's constructors (llvm.global_ctors) at the start of main, in the order the
 * C runtime would run them (priority, then list order), and deletes the list, so that the
 * points-to analysis and the dependence graph see what they do: nothing calls a constructor,
 * it runs before main. Why: xz's liblzma picks its CRC64 function in one (crc64_set_func
 * stores crc64_clmul or crc64_generic in the pointer every CRC is called through); unseen, the
 * store was in no slice, the evaluator's pointer stayed null, clang dropped the call through
 * it as undefined, and the evaluator of xz's instruction count missed every CRC (333,134
 * instructions on a 256 KiB input). Leaves the list as it is when some constructor takes
 * parameters (glibc may pass argc, argv and envp) or is not a plain function.
 */
static void constructors_into_main(LLVMModuleRef mod)
{
	LLVMValueRef list = LLVMGetNamedGlobal(mod, "llvm.global_ctors");
	LLVMValueRef main_fn = LLVMGetNamedFunction(mod, "main"), init;
	LLVMMetadataRef location;
	struct constructor *c;
	LLVMBuilderRef b;
	unsigned n;

	if (!list || !main_fn || LLVMIsDeclaration(main_fn) || !(init = LLVMGetInitializer(list)))
		return;
	n = (unsigned)LLVMGetNumOperands(init);
	c = xcalloc((size_t)n + 1, sizeof *c);
	for (unsigned i = 0; i < n; i++) {
		LLVMValueRef entry = LLVMGetOperand(init, i), fn = LLVMGetOperand(entry, 1);

		while (fn && LLVMIsAConstantExpr(fn))
			fn = LLVMGetOperand(fn, 0);
		if (!fn || !LLVMIsAFunction(fn) || LLVMCountParams(fn) != 0) {
			free(c);
			return;
		}
		c[i] = (struct constructor){LLVMConstIntGetZExtValue(LLVMGetOperand(entry, 0)), i, fn};
	}
	qsort(c, n, sizeof *c, by_priority);
	location = first_location(main_fn); /* a call without one fails to verify in a function
					      * with debug information */
	b = LLVMCreateBuilderInContext(LLVMGetModuleContext(mod));
	LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(main_fn)));
	for (unsigned i = 0; i < n; i++) {
		LLVMValueRef call = LLVMBuildCall2(b, LLVMGlobalGetValueType(c[i].fn), c[i].fn, NULL,
						   0, "");

		if (location)
			LLVMInstructionSetDebugLoc(call, location);
	}
	LLVMDisposeBuilder(b);
	LLVMDeleteGlobal(list);
	free(c);
}

static void strip_debug_calls(LLVMModuleRef mod)
{
	for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
		for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
			LLVMValueRef x = LLVMGetFirstInstruction(b), next;

			for (; x; x = next) {
				const char *name = callee_name(x);

				next = LLVMGetNextInstruction(x);
				if (name && strncmp(name, "llvm.dbg.", 9) == 0)
					LLVMInstructionEraseFromParent(x);
			}
		}
	}
}

/*
 * Returns whether a training run reached the exit call x, by DIR's exit features named after
 * its site (exit:FUNCTION:FILE:LINE:CALLEE, and the #2, #3... of calls sharing a line); 1 if
 * there are no runs or no such feature (instrumented without the exit scheme, no line).
 */
static int exit_reached(const struct slicer *s, LLVMValueRef x, uint64_t *const *runs, int nruns)
{
	LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(x));
	unsigned flen;
	size_t nlen;
	const char *file = LLVMGetDebugLocFilename(x, &flen), *fname = LLVMGetValueName2(fn, &nlen);
	char *name;
	int found = 0, reached = 0;

	if (!runs || !file || LLVMGetDebugLocLine(x) == 0)
		return 1;
	name = xasprintf("exit:%.*s:%.*s:%u:%s", (int)nlen, fname, (int)flen, file,
			 LLVMGetDebugLocLine(x), callee_name(x));
	for (int i = 0; i < s->m.n; i++) {
		const char *f = s->m.v[i].name;
		size_t n = strlen(name);

		if (strncmp(f, name, n) != 0 || (f[n] != '\0' && f[n] != '#'))
			continue;
		found = 1;
		for (int r = 0; r < nruns && !reached; r++)
			reached = feature_value(&s->m.v[i], runs[r]) != 0;
	}
	free(name);
	return !found || reached;
}

/* Returns whether integer v, through casts, selects and phis (at most depth steps), is only
 * ever constants that end a run well: 0 or a code of --ok-exit (runner_ok_exits). */
static int always_ok_status(LLVMValueRef v, int depth)
{
	uint64_t ok = runner_ok_exits();

	if (LLVMIsAConstantInt(v)) {
		unsigned long long c = LLVMConstIntGetZExtValue(v) & 0xff;

		return c == 0 || (c < 64 && (ok >> c & 1));
	}
	if (depth == 0 || !LLVMIsAInstruction(v))
		return 0;
	if (LLVMIsASelectInst(v))
		return always_ok_status(LLVMGetOperand(v, 1), depth - 1) &&
		       always_ok_status(LLVMGetOperand(v, 2), depth - 1);
	if (LLVMIsAZExtInst(v) || LLVMIsASExtInst(v) || LLVMIsATruncInst(v))
		return always_ok_status(LLVMGetOperand(v, 0), depth - 1);
	if (LLVMIsAPHINode(v)) {
		for (unsigned i = 0; i < LLVMCountIncoming(v); i++) {
			if (!always_ok_status(LLVMGetIncomingValue(v, i), depth - 1))
				return 0;
		}
		return 1;
	}
	return 0;
}

/*
 * Makes the status of exit call x zero where it is computed but every value it may take ends
 * the run well (djpeg's exit(jerr.num_warnings ? EXIT_WARNING : EXIT_SUCCESS) with --ok-exit
 * 2): the runner judges the evaluator's run alike, and the slice need not compute what set
 * the status (djpeg's warnings, which any stage of the decoding may raise). Only for the
 * calls that end the run whatever their status (error(0, ...) returns).
 */
static void drop_ok_status(LLVMValueRef x)
{
	static const char *const ends[] = {"exit", "_exit", "_Exit", "quick_exit", "err", "errx",
					   "verr", "verrx"};
	const char *name = callee_name(x);
	LLVMValueRef status;

	for (size_t i = 0; name && i < sizeof ends / sizeof *ends; i++) {
		if (strcmp(name, ends[i]) != 0 || LLVMGetNumArgOperands(x) < 1)
			continue;
		status = LLVMGetOperand(x, 0);
		if (LLVMGetTypeKind(LLVMTypeOf(status)) == LLVMIntegerTypeKind &&
		    !LLVMIsAConstant(status) && always_ok_status(status, 8))
			LLVMSetOperand(x, 0, LLVMConstInt(LLVMTypeOf(status), 0, 0));
		return;
	}
}

/* Calls the recorder before x, at x's source position. Returns the call. */
static LLVMValueRef record_before(LLVMBuilderRef b, LLVMTypeRef type, LLVMValueRef dump, LLVMValueRef x)
{
	LLVMValueRef call;

	LLVMPositionBuilderBefore(b, x);
	call = LLVMBuildCall2(b, type, dump, NULL, 0, "");
	LLVMInstructionSetDebugLoc(call, LLVMInstructionGetDebugLoc(x));
	return call;
}

/*
 * Adds __mantis_slice_dump (emit each kept counter, then flush) and calls it before every exit.
 * emit[c] receives the emit call of counter c (NULL if the counter has no global: never
 * updated, so 0); *flush the flush call; exits the (recorder call, exit call) pairs.
 */
static void add_recorder(struct slicer *s, const unsigned char *keep, uint64_t *const *runs,
			 int nruns, LLVMValueRef *emit, LLVMValueRef *flush, LLVMValueRef *pairs,
			 int *npairs)
{
	LLVMContextRef ctx = s->ir.ctx;
	LLVMModuleRef mod = s->ir.mod;
	LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx), vd = LLVMVoidTypeInContext(ctx);
	LLVMTypeRef emit_args[2] = {i64, i64};
	LLVMTypeRef emit_type = LLVMFunctionType(vd, emit_args, 2, 0), void_type = LLVMFunctionType(vd, NULL, 0, 0);
	LLVMValueRef emit_fn = LLVMAddFunction(mod, "__mantis_slice_emit", emit_type);
	LLVMValueRef flush_fn = LLVMAddFunction(mod, "__mantis_slice_flush", void_type);
	LLVMValueRef dump = LLVMAddFunction(mod, "__mantis_slice_dump", void_type), main_fn;
	LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);

	LLVMSetLinkage(dump, LLVMInternalLinkage);
	LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, dump, "entry"));
	for (int c = 0; c < s->m.ncounters; c++) {
		LLVMValueRef g, args[2];

		if (!keep[c] || !(g = instrument_slot(mod, c)))
			continue;
		args[0] = LLVMConstInt(i64, (unsigned long long)c, 0);
		args[1] = LLVMBuildLoad2(b, i64, g, "");
		emit[c] = LLVMBuildCall2(b, emit_type, emit_fn, args, 2, "");
	}
	*flush = LLVMBuildCall2(b, void_type, flush_fn, NULL, 0, "");
	LLVMBuildRetVoid(b);
	*npairs = 0;
	for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
		if (fn == dump)
			continue;
		for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
			for (LLVMValueRef x = LLVMGetFirstInstruction(bb); x; x = LLVMGetNextInstruction(x)) {
				if (!is_exit_call(x))
					continue;
				s->nexits++;
				if (!exit_reached(s, x, runs, nruns)) {
					s->nexits_dropped++;
					continue;
				}
				drop_ok_status(x);
				pairs[2 * *npairs] = record_before(b, void_type, dump, x);
				pairs[2 * *npairs + 1] = x;
				(*npairs)++;
			}
		}
	}
	main_fn = LLVMGetNamedFunction(mod, "main");
	for (LLVMBasicBlockRef bb = main_fn ? LLVMGetFirstBasicBlock(main_fn) : NULL; bb; bb = LLVMGetNextBasicBlock(bb)) {
		LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);

		if (t && LLVMIsAReturnInst(t))
			record_before(b, void_type, dump, t);
	}
	LLVMDisposeBuilder(b);
}

/* Returns whether the definition g keeps its name for the linker: main, and a function the C
 * library knows by name (a program's own malloc or qsort must stay what the library calls). */
static LLVMBool must_stay_external(LLVMValueRef g, void *unused)
{
	size_t len;
	const char *name = LLVMGetValueName2(g, &len);

	(void)unused;
	return strcmp(name, "main") == 0 || extmodel_find(name) != NULL ||
	       strncmp(name, "__mantis", 8) == 0;
}

/*
 * Deletes the functions and globals that nothing main reaches uses (after pruning, also what
 * only cold code used): internalize every other definition, then global dead-code
 * elimination. Points-to then sees only the program that runs: bzip2's BZ2_bzopen, which
 * bzip2 never calls, passes stdin and stdout to BZ2_bzWriteOpen, so the context-insensitive
 * analysis made every compressed write a write of stdin, which the read loop depends on: the
 * slice of the read count kept the compression (41% of the program).
 */
static void drop_unreachable(LLVMModuleRef mod)
{
	LLVMPassManagerRef pm = LLVMCreatePassManager();

	LLVMAddInternalizePassWithMustPreservePredicate(pm, NULL, must_stay_external);
	LLVMAddGlobalDCEPass(pm);
	LLVMRunPassManager(pm, mod);
	LLVMDisposePassManager(pm);
}

static int count_exit_calls(LLVMModuleRef mod)
{
	int n = 0;

	for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
		for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
			for (LLVMValueRef x = LLVMGetFirstInstruction(bb); x; x = LLVMGetNextInstruction(x))
				n += is_exit_call(x);
		}
	}
	return n;
}

/* The criteria of each feature: the emit calls of its counters, and the flush. */
static void set_criteria(struct slicer *s, LLVMValueRef *emit, LLVMValueRef flush)
{
	s->criteria = xcalloc((size_t)s->nfeatures + 1, sizeof *s->criteria);
	s->ncriteria = xcalloc((size_t)s->nfeatures + 1, sizeof *s->ncriteria);
	for (int i = 0; i < s->nfeatures; i++) {
		const struct feature *f = &s->m.v[s->feature[i]];
		int *c = xmalloc(sizeof *c * (size_t)(f->nterms + 2)), n = 0;

		c[n++] = sdg_node(&s->sdg, flush);
		for (int t = 0; t < f->nterms; t++) {
			if (emit[f->terms[t].counter])
				c[n++] = sdg_node(&s->sdg, emit[f->terms[t].counter]);
		}
		if (f->denominator >= 0 && emit[f->denominator])
			c[n++] = sdg_node(&s->sdg, emit[f->denominator]);
		s->criteria[i] = c;
		s->ncriteria[i] = n;
	}
}

/* slicer_init, and with prune the cut of cold branch sides (prune.h). */
static int init(struct slicer *s, const char *dir, char *const *names, int n,
		uint64_t *const *runs, int nruns, int prune, struct error *err)
{
	char *path = xasprintf("%s/features.json", dir);
	unsigned char *keep = NULL;
	LLVMValueRef *emit = NULL, flush = NULL, *pairs = NULL, *roots = NULL;
	int npairs = 0, nroots = 0, rc = -1;
	double t0 = now_seconds();

	memset(s, 0, sizeof *s);
	s->dir = xstrdup(dir);
	if (manifest_read(&s->m, path, err) < 0)
		goto out;
	if (!s->m.schemes) {
		error_set(err, "%s was made by an older mantis; run mantis instrument again", dir);
		goto out;
	}
	keep = xcalloc((size_t)s->m.ncounters + 1, 1);
	if (choose_features(s, names, n, keep, err) < 0 || instrument_again(s, keep, err) < 0)
		goto out;
	strip_debug_calls(s->ir.mod);
	constructors_into_main(s->ir.mod);
	if (prune)
		s->pruned = prune_cold_edges(s->ir.mod, runs, nruns, s->m.ncounters, s->m.dropped,
					     s->m.ndropped, &s->emptied);
	drop_unreachable(s->ir.mod);
	emit = xcalloc((size_t)s->m.ncounters + 1, sizeof *emit);
	pairs = xcalloc(2 * (size_t)count_exit_calls(s->ir.mod) + 2, sizeof *pairs);
	add_recorder(s, keep, runs, nruns, emit, &flush, pairs, &npairs);
	if (ir_verify(&s->ir, err) < 0) {
		error_prefix(err, "the program prepared for slicing does not verify");
		goto out;
	}
	roots = xmalloc(sizeof *roots * (size_t)(s->m.ncounters + npairs + 1));
	for (int c = 0; c < s->m.ncounters; c++) {
		if (emit[c])
			roots[nroots++] = emit[c];
	}
	roots[nroots++] = flush;
	for (int i = 0; i < npairs; i++)
		roots[nroots++] = pairs[2 * i + 1];
	if (pta_build(&s->pta, s->ir.mod, err) < 0 ||
	    sdg_build(&s->sdg, s->ir.mod, &s->pta, roots, nroots, err) < 0)
		goto out;
	set_criteria(s, emit, flush);
	for (int i = 0; i < npairs; i++) {
		intvec_push(&s->exits, sdg_node(&s->sdg, pairs[2 * i]));
		intvec_push(&s->exits, sdg_node(&s->sdg, pairs[2 * i + 1]));
	}
	s->analysis_seconds = now_seconds() - t0;
	rc = 0;
out:
	free(path);
	free(keep);
	free(emit);
	free(pairs);
	free(roots);
	return rc;
}

int slicer_init(struct slicer *s, const char *dir, char *const *names, int n,
		uint64_t *const *runs, int nruns, struct error *err)
{
	return init(s, dir, names, n, runs, nruns, 1, err);
}

int slicer_init_unpruned(struct slicer *s, const char *dir, char *const *names, int n,
			 uint64_t *const *runs, int nruns, struct error *err)
{
	return init(s, dir, names, n, runs, nruns, 0, err);
}

/* ---- marking ----------------------------------------------------------------------------- */

int slicer_mark_within(struct slicer *s, const int *which, int n, unsigned char *mark,
		       struct sdg_bound *bound)
{
	struct intvec crit = {0};
	int kept = 0, over = 0;

	for (int i = 0; i < n; i++) {
		for (int j = 0; j < s->ncriteria[which[i]]; j++)
			intvec_push(&crit, s->criteria[which[i]][j]);
	}
	while (crit.n > 0 && !over) {
		over = sdg_slice_within(&s->sdg, crit.v, crit.n, mark, bound) < 0;
		crit.n = 0;
		for (int i = 0; i < s->exits.n && !over; i += 2) {
			int rec = s->exits.v[i], ex = s->exits.v[i + 1];

			if (sdg_kept(&s->sdg, mark, s->sdg.node[rec].v) && !mark[ex])
				intvec_push(&crit, ex);
		}
	}
	intvec_release(&crit);
	for (int v = 0; v < s->sdg.n; v++) {
		if (s->sdg.node[v].kind == SDG_INST && sdg_kept(&s->sdg, mark, s->sdg.node[v].v))
			kept++;
	}
	return kept;
}

int slicer_mark(struct slicer *s, const int *which, int n, unsigned char *mark)
{
	return slicer_mark_within(s, which, n, mark, NULL);
}

/* Calls visit(s, x, c, arg) for every instruction x of the program (with a source position:
 * not a counter's probe) in a block with a block counter c. */
static void each_counted_instruction(const struct slicer *s,
				     void (*visit)(const struct slicer *, LLVMValueRef, int, void *),
				     void *arg)
{
	for (LLVMValueRef fn = LLVMGetFirstFunction(s->ir.mod); fn; fn = LLVMGetNextFunction(fn)) {
		for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
			int c = prune_block_counter(bb);

			if (c < 0 || c >= s->m.ncounters)
				continue;
			for (LLVMValueRef x = LLVMGetFirstInstruction(bb); x; x = LLVMGetNextInstruction(x)) {
				if (LLVMInstructionGetDebugLoc(x)) /* else a counter's probe, or a phi */
					visit(s, x, c, arg);
			}
		}
	}
}

/* What slicer_estimate adds up: per run, the kept and all instructions times entries. */
struct estimate_sums {
	const unsigned char *mark; /* the slice */
	uint64_t *const *runs;     /* the runs' counters */
	int nruns;                 /* how many */
	double *kept, *all;        /* per run, the sums; owned by the caller */
};

static void add_to_estimate(const struct slicer *s, LLVMValueRef x, int c, void *arg)
{
	struct estimate_sums *e = arg;
	int in_slice = e->mark ? sdg_kept(&s->sdg, e->mark, x) : 0;

	for (int r = 0; r < e->nruns; r++) {
		e->kept[r] += (double)e->runs[r][c] * in_slice;
		e->all[r] += (double)e->runs[r][c];
	}
}

/* What slicer_weights fills: per node, the weight of its instruction. */
struct weight_sums {
	const struct estimate_sums *totals; /* per run, all instructions times entries */
	double *weight;                     /* per node; owned by the caller */
};

static void add_to_weight(const struct slicer *s, LLVMValueRef x, int c, void *arg)
{
	struct weight_sums *w = arg;
	int call = ptrmap_get(&s->sdg.call_of, x), v = call >= 0 ? s->sdg.call[call].site
							       : sdg_node(&s->sdg, x);

	if (v < 0)
		return; /* no node: never in a slice */
	for (int r = 0; r < w->totals->nruns; r++) {
		if (w->totals->all[r] > 0)
			w->weight[v] += (double)w->totals->runs[r][c] / w->totals->all[r] /
					w->totals->nruns;
	}
}

double slicer_estimate(const struct slicer *s, const unsigned char *mark, uint64_t *const *runs,
		       int nruns)
{
	struct estimate_sums e = {mark, runs, nruns, NULL, NULL};
	double mean = 0;

	if (!runs || nruns <= 0)
		return -1;
	e.kept = xcalloc((size_t)nruns, sizeof *e.kept);
	e.all = xcalloc((size_t)nruns, sizeof *e.all);
	each_counted_instruction(s, add_to_estimate, &e);
	for (int r = 0; r < nruns; r++)
		mean += (e.all[r] > 0 ? e.kept[r] / e.all[r] : 0) / nruns;
	free(e.kept);
	free(e.all);
	return mean;
}

static void add_to_sizes(const struct slicer *s, LLVMValueRef x, int c, void *arg)
{
	(void)s;
	(void)x;
	((double *)arg)[c] += 1;
}

double *slicer_block_sizes(const struct slicer *s)
{
	double *size = xcalloc((size_t)s->m.ncounters + 1, sizeof *size);

	each_counted_instruction(s, add_to_sizes, size);
	return size;
}

double *slicer_weights(const struct slicer *s, uint64_t *const *runs, int nruns)
{
	struct estimate_sums e = {NULL, runs, nruns, NULL, NULL};
	struct weight_sums w = {&e, NULL};

	if (!runs || nruns <= 0)
		return NULL;
	e.kept = xcalloc((size_t)nruns, sizeof *e.kept);
	e.all = xcalloc((size_t)nruns, sizeof *e.all);
	each_counted_instruction(s, add_to_estimate, &e);
	w.weight = xcalloc((size_t)s->sdg.n + 1, sizeof *w.weight);
	each_counted_instruction(s, add_to_weight, &w);
	free(e.kept);
	free(e.all);
	return w.weight;
}

/* ---- rebuilding -------------------------------------------------------------------------- */

/* The copy being cut down. */
struct rebuild {
	LLVMContextRef ctx;    /* the context */
	LLVMBuilderRef b;      /* a builder */
	struct ptrmap dead;    /* instructions of the copy: 1 to delete, 0 to keep (absent: keep) */
	struct ptrmap kept_br; /* terminators of the copy that stay */
	LLVMValueRef main_fn;  /* the copy's main */
};

/*
 * Walks the original and its copy in step: records which instructions of the copy die and which
 * terminators stay, and zeroes the arguments kept calls do not need.
 */
static void decide(struct slicer *s, const unsigned char *mark, LLVMModuleRef copy, struct rebuild *r)
{
	LLVMValueRef fo = LLVMGetFirstFunction(s->ir.mod), fc = LLVMGetFirstFunction(copy);

	for (; fo && fc; fo = LLVMGetNextFunction(fo), fc = LLVMGetNextFunction(fc)) {
		LLVMBasicBlockRef bo = LLVMGetFirstBasicBlock(fo), bc = LLVMGetFirstBasicBlock(fc);

		for (; bo && bc; bo = LLVMGetNextBasicBlock(bo), bc = LLVMGetNextBasicBlock(bc)) {
			LLVMValueRef xo = LLVMGetFirstInstruction(bo), xc = LLVMGetFirstInstruction(bc);

			for (; xo && xc; xo = LLVMGetNextInstruction(xo), xc = LLVMGetNextInstruction(xc)) {
				int kept = sdg_kept(&s->sdg, mark, xo);

				if (LLVMIsATerminatorInst(xo)) {
					if (kept)
						ptrmap_put(&r->kept_br, xc, 1);
					continue;
				}
				if (!kept) {
					ptrmap_put(&r->dead, xc, 1);
					continue;
				}
				if (!LLVMIsACallInst(xo))
					continue;
				for (unsigned i = 0; i < (unsigned)LLVMGetNumArgOperands(xo); i++) {
					if (!sdg_arg_kept(&s->sdg, mark, xo, i))
						LLVMSetOperand(xc, i, LLVMConstNull(LLVMTypeOf(LLVMGetOperand(xc, i))));
				}
			}
		}
	}
}

/* Returns whether instruction x of the copy is to be deleted. */
static int is_dead(const struct rebuild *r, LLVMValueRef x)
{
	return ptrmap_get(&r->dead, x) > 0;
}

/* Replaces phi by one whose incoming edges lack drop and, if add, gain (add, value). */
static void rewrite_phi(struct rebuild *r, LLVMValueRef phi, LLVMBasicBlockRef drop,
			LLVMBasicBlockRef add, LLVMValueRef value)
{
	LLVMValueRef fresh;
	unsigned n = LLVMCountIncoming(phi);

	LLVMPositionBuilderBefore(r->b, phi);
	fresh = LLVMBuildPhi(r->b, LLVMTypeOf(phi), "");
	for (unsigned i = 0; i < n; i++) {
		LLVMValueRef v = LLVMGetIncomingValue(phi, i);
		LLVMBasicBlockRef from = LLVMGetIncomingBlock(phi, i);

		if (from != drop)
			LLVMAddIncoming(fresh, &v, &from, 1);
	}
	if (add)
		LLVMAddIncoming(fresh, &value, &add, 1);
	/* explicitly, over whatever a freed instruction at fresh's address left in the map */
	ptrmap_put(&r->dead, fresh, is_dead(r, phi));
	LLVMReplaceAllUsesWith(phi, fresh);
	LLVMInstructionEraseFromParent(phi);
}

/* Returns the value block from contributes to phi, or NULL. */
static LLVMValueRef incoming_from(LLVMValueRef phi, LLVMBasicBlockRef from)
{
	for (unsigned i = 0; i < LLVMCountIncoming(phi); i++) {
		if (LLVMGetIncomingBlock(phi, i) == from)
			return LLVMGetIncomingValue(phi, i);
	}
	return NULL;
}

/* Ends block b with a return of a default value: its function's virtual exit. */
static void return_default(struct rebuild *r, LLVMValueRef fn, LLVMBasicBlockRef b)
{
	LLVMTypeRef ret = LLVMGetReturnType(LLVMGlobalGetValueType(fn));

	LLVMPositionBuilderAtEnd(r->b, b);
	LLVMSetCurrentDebugLocation2(r->b, NULL);
	if (LLVMGetTypeKind(ret) == LLVMVoidTypeKind)
		LLVMBuildRetVoid(r->b);
	else
		LLVMBuildRet(r->b, LLVMConstNull(ret));
}

/* Sends block b, whose branch is not kept, to target (NULL: the virtual exit). */
static void redirect(struct rebuild *r, LLVMValueRef fn, LLVMBasicBlockRef b, LLVMBasicBlockRef target)
{
	LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
	unsigned n = LLVMGetNumSuccessors(term);
	LLVMBasicBlockRef *succ = xmalloc(sizeof *succ * (n ? n : 1));

	for (unsigned i = 0; i < n; i++)
		succ[i] = LLVMGetSuccessor(term, i);
	for (unsigned i = 0; i < n; i++) {
		int seen = 0;

		for (unsigned j = 0; j < i; j++)
			seen |= succ[j] == succ[i];
		if (seen)
			continue;
		for (LLVMValueRef p = LLVMGetFirstInstruction(succ[i]), next; p && LLVMIsAPHINode(p); p = next) {
			next = LLVMGetNextInstruction(p);
			if (succ[i] != target)
				rewrite_phi(r, p, b, NULL, NULL);
		}
	}
	/*
	 * What target's phis received from b, if b was already a predecessor, read from each phi as
	 * it comes: a value read before the loops above may be a phi they replaced and freed (a
	 * loop header's phi flowing out of a latch), and adding a use of it corrupts the heap.
	 */
	for (LLVMValueRef p = target ? LLVMGetFirstInstruction(target) : NULL, next; p && LLVMIsAPHINode(p); p = next) {
		LLVMValueRef v = incoming_from(p, b);

		next = LLVMGetNextInstruction(p);
		rewrite_phi(r, p, b, b, v ? v : LLVMConstNull(LLVMTypeOf(p)));
	}
	LLVMInstructionEraseFromParent(term);
	if (target) {
		LLVMPositionBuilderAtEnd(r->b, b);
		LLVMSetCurrentDebugLocation2(r->b, NULL);
		LLVMBuildBr(r->b, target);
	} else {
		return_default(r, fn, b);
	}
	free(succ);
}

/* Returns whether an unreachable terminator still follows a kept call (a real no-return). */
static int follows_kept_call(const struct rebuild *r, LLVMValueRef term)
{
	LLVMValueRef prev = LLVMGetPreviousInstruction(term);

	return prev && LLVMIsACallInst(prev) && !is_dead(r, prev);
}

/* Redirects the branches of fn that are not kept. */
static void cut_branches(struct rebuild *r, LLVMValueRef fn)
{
	struct cfg cfg;
	struct cdep cd;

	cfg_build(&cfg, fn);
	cdep_build(&cd, &cfg);
	for (int k = 0; k < cfg.n; k++) {
		LLVMValueRef term = LLVMGetBasicBlockTerminator(cfg.block[k]);
		int target = cd.ipdom[k];

		if (cfg.rpo_number[k] < 0 || ptrmap_get(&r->kept_br, term) >= 0)
			continue;
		if (LLVMIsAReturnInst(term) || (LLVMIsABranchInst(term) && !LLVMIsConditional(term)))
			continue;
		if (LLVMIsAUnreachableInst(term) && follows_kept_call(r, term))
			continue;
		if (LLVMIsAUnreachableInst(term)) {
			LLVMInstructionEraseFromParent(term);
			return_default(r, fn, cfg.block[k]);
			continue;
		}
		redirect(r, fn, cfg.block[k], target >= 0 && target < cfg.n ? cfg.block[target] : NULL);
	}
	cdep_release(&cd);
	cfg_release(&cfg);
}

/* Deletes the dead instructions of fn; their remaining uses (in dead code) get zero. */
static void delete_dead(struct rebuild *r, LLVMValueRef fn)
{
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
		LLVMValueRef x = LLVMGetFirstInstruction(b), next;

		for (; x; x = next) {
			next = LLVMGetNextInstruction(x);
			if (!is_dead(r, x) || LLVMIsATerminatorInst(x))
				continue;
			if (LLVMGetTypeKind(LLVMTypeOf(x)) != LLVMVoidTypeKind)
				LLVMReplaceAllUsesWith(x, LLVMConstNull(LLVMTypeOf(x)));
			LLVMInstructionEraseFromParent(x);
		}
	}
}

/* Fuses the counters of the features whose every criterion mark keeps (fuse.h), into
 * s->fused. */
static void fuse_computed(struct slicer *s, const unsigned char *mark, LLVMModuleRef mod)
{
	int *computed = xcalloc((size_t)s->nfeatures + 1, sizeof *computed), n = 0;

	for (int i = 0; i < s->nfeatures; i++) {
		int all = 1;

		for (int j = 0; j < s->ncriteria[i]; j++)
			all &= mark[s->criteria[i][j]] != 0;
		if (all)
			computed[n++] = s->feature[i];
	}
	fuse_counters(mod, &s->m, computed, n, &s->fused);
	free(computed);
}

/*
 * Optimises the evaluator's bitcode bc as its build would and promotes its counters in the
 * loops that allow it (promote.h) into *out (a file next to bc, owned: the caller deletes it),
 * recording what was done in s->promoted. At -O0, where nothing would make the locals
 * registers, *out is NULL. Returns 0, or -1 with err set.
 */
static int promote_evaluator(struct slicer *s, const char *bc, char **out, struct error *err)
{
	struct ir ir;
	int rc;

	*out = NULL;
	memset(&s->promoted, 0, sizeof s->promoted);
	if (strcmp(s->m.opt, "0") == 0)
		return 0;
	*out = xasprintf("%s.promoted.bc", bc);
	rc = ir_optimise(bc, s->m.opt, *out, err);
	if (rc == 0 && (rc = ir_load(&ir, *out, err)) == 0) {
		promote_counters(ir.mod, &s->promoted);
		rc = ir_verify(&ir, err);
		if (rc < 0)
			error_prefix(err, "counter promotion made an invalid evaluator (a bug in mantis)");
		if (rc == 0)
			rc = ir_write(&ir, *out, err);
		ir_release(&ir);
	}
	if (rc < 0) {
		unlink(*out);
		free(*out);
		*out = NULL;
	}
	return rc;
}

/*
 * Links the evaluator statically when the C library and the program's libraries allow it
 * (ir_static_flags: lame's -lncurses needs -ltinfo there): an evaluator's cost is often
 * mostly its start-up, which the dynamic loader dominates (lz4's evaluator of a command-line
 * value: 5.7 ms static, 8-10 ms dynamic per run on a loaded machine, 35-45% less); otherwise,
 * as the program is linked. Returns 0 or -1 with err set by the dynamic link.
 */
static int build_evaluator(const struct slicer *s, const char *bc, char *const *objs,
			   const char *exe, struct error *err)
{
	if (ir_build_static(bc, s->m.opt, objs, 1, s->m.ldflags, s->m.nldflags, exe) == 0)
		return 0;
	return ir_build_executable(bc, s->m.opt, objs, 1, s->m.ldflags, s->m.nldflags, exe, err);
}

/* Builds exe.so, the evaluator's shared-object form (solib.h: the slice, runtime and
 * s->inproc, linked -shared -Bsymbolic), or sets s->solib_refusal saying why there is none:
 * the link failed (a static library built without -fPIC), or it calls what solib_hostable
 * refuses. */
static void build_solib(struct slicer *s, const char *bc, const char *runtime, const char *exe)
{
	char *objs[2] = {(char *)runtime, (char *)s->inproc}, *so = xasprintf("%s.so", exe);
	struct error err = {""};

	if (ir_build_shared(bc, s->m.opt, objs, 2, s->m.ldflags, s->m.nldflags, so, &err) < 0)
		s->solib_refusal = xstrdup("it does not link as a shared object (a static library "
					   "built without -fPIC?)");
	else if (solib_hostable(so, &err) < 0)
		s->solib_refusal = xstrdup(err.msg);
	if (s->solib_refusal)
		unlink(so);
	free(so);
}

int slicer_first_value(const struct manifest *m, int f, int *count)
{
	const struct feature *x = &m->v[f];
	const char *dot = strrchr(x->name, '.');
	char *sibling;
	int k = 0, c;

	*count = -1;
	if (strcmp(x->kind, "value") != 0 || !dot || x->nterms != 1 || x->denominator >= 0)
		return 0;
	if (strcmp(dot, ".first") == 0)
		k = 1;
	else if (dot[1] == 'v' && dot[2] >= '1' && dot[2] <= '9')
		k = atoi(dot + 2);
	if (k == 0)
		return 0;
	sibling = xasprintf("%.*s.count", (int)(dot - x->name), x->name);
	c = manifest_find(m, sibling);
	free(sibling);
	if (c < 0 || m->v[c].nterms != 1)
		return 0;
	*count = m->v[c].terms[0].counter;
	return k;
}

/* Returns __mantis_slice_stop_if(i1 done) of mod, made on first use: when done, the recorder,
 * then _exit(0). */
static LLVMValueRef stop_function(LLVMModuleRef mod)
{
	LLVMContextRef ctx = LLVMGetModuleContext(mod);
	LLVMTypeRef vd = LLVMVoidTypeInContext(ctx), i1 = LLVMInt1TypeInContext(ctx);
	LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx), stop_type = LLVMFunctionType(vd, &i1, 1, 0);
	LLVMTypeRef exit_type = LLVMFunctionType(vd, &i32, 1, 0);
	LLVMTypeRef dump_type = LLVMFunctionType(vd, NULL, 0, 0);
	LLVMValueRef stop = LLVMGetNamedFunction(mod, "__mantis_slice_stop_if"), exit_fn, zero;
	LLVMBasicBlockRef entry, now, later;
	LLVMBuilderRef b;

	if (stop)
		return stop;
	stop = LLVMAddFunction(mod, "__mantis_slice_stop_if", stop_type);
	LLVMSetLinkage(stop, LLVMInternalLinkage);
	if (!(exit_fn = LLVMGetNamedFunction(mod, "_exit")))
		exit_fn = LLVMAddFunction(mod, "_exit", exit_type);
	entry = LLVMAppendBasicBlockInContext(ctx, stop, "entry");
	now = LLVMAppendBasicBlockInContext(ctx, stop, "now");
	later = LLVMAppendBasicBlockInContext(ctx, stop, "later");
	b = LLVMCreateBuilderInContext(ctx);
	LLVMPositionBuilderAtEnd(b, entry);
	LLVMBuildCondBr(b, LLVMGetParam(stop, 0), now, later);
	LLVMPositionBuilderAtEnd(b, now);
	LLVMBuildCall2(b, dump_type, LLVMGetNamedFunction(mod, "__mantis_slice_dump"), NULL, 0, "");
	zero = LLVMConstInt(i32, 0, 0);
	LLVMBuildCall2(b, exit_type, exit_fn, &zero, 1, "");
	LLVMBuildUnreachable(b);
	LLVMPositionBuilderAtEnd(b, later);
	LLVMBuildRetVoid(b);
	LLVMDisposeBuilder(b);
	return stop;
}

/* Returns the last store after load in its block of a select on a comparison of load: the
 * last version a value probe (instrument.c) writes once it has read its assignment count into
 * load; NULL if there is none. */
static LLVMValueRef last_version_store(LLVMValueRef load)
{
	LLVMValueRef last = NULL;

	for (LLVMValueRef x = LLVMGetNextInstruction(load); x; x = LLVMGetNextInstruction(x)) {
		LLVMValueRef sel = LLVMIsAStoreInst(x) ? LLVMIsASelectInst(LLVMGetOperand(x, 0)) : NULL;
		LLVMValueRef cmp = sel ? LLVMIsAICmpInst(LLVMGetOperand(sel, 0)) : NULL;

		if (cmp && LLVMGetOperand(cmp, 0) == load)
			last = x;
	}
	return last;
}

/*
 * Gives back the update of the assignment counter slot to the value probes that read it, when
 * the slice kept none: where the probe's variable is assigned at most once on the paths the
 * dependence graph sees (a local of a function called once), no later probe reads the count,
 * so its update is not in the slice; the stop after it (stop_at_first_values) then never came,
 * and an evaluator whose slice keeps the rest of the run for another reason (djpeg's exit
 * status, which its warnings set while decoding) ran to the end: 96% of djpeg's time for the
 * output's row width, 3% once stopped. The update goes after the probe's last version store,
 * as instrument.c writes it, so the value is in its slot when the stop looks.
 */
static void restore_count_updates(LLVMModuleRef mod, LLVMValueRef slot)
{
	LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetModuleContext(mod));
	LLVMValueRef *loads = NULL;
	LLVMBuilderRef b;
	int n = 0;

	for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
		LLVMValueRef x = LLVMGetUser(u);

		if (LLVMIsAStoreInst(x) && LLVMGetOperand(x, 1) == slot)
			return; /* the slice kept the updates */
		if (LLVMIsALoadInst(x)) {
			loads = xrealloc(loads, sizeof *loads * (size_t)(n + 1));
			loads[n++] = x;
		}
	}
	b = LLVMCreateBuilderInContext(LLVMGetModuleContext(mod));
	for (int i = 0; i < n; i++) {
		LLVMValueRef after = last_version_store(loads[i]);

		if (!after)
			continue;
		LLVMPositionBuilder(b, LLVMGetInstructionParent(after), LLVMGetNextInstruction(after));
		LLVMBuildStore(b, LLVMBuildAdd(b, loads[i], LLVMConstInt(i64, 1, 0), ""), slot);
	}
	LLVMDisposeBuilder(b);
	free(loads);
}

/*
 * When every feature mark computes (its criteria all kept) is a first value of a variable
 * (slicer_first_value), makes the evaluator in mod stop once it has them all: after every kept
 * update of one of their variables' assignment counters, __mantis_slice_stop_if(each count >=
 * its K). A first value never changes once assigned, so the recorder writes then what it would
 * write at the exit, and the evaluator costs the program's work up to that assignment (a
 * header's field: a few thousand instructions of a run of billions), however much of the rest
 * of the program the slice keeps (whatever might assign the variable again: later calls of
 * the header's parser, which a static slice cannot tell from the first). An input that never
 * assigns them runs to the exit, as before. Returns whether it did.
 */
static int stop_at_first_values(struct slicer *s, const unsigned char *mark, LLVMModuleRef mod)
{
	LLVMContextRef ctx = LLVMGetModuleContext(mod);
	LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx), i1 = LLVMInt1TypeInContext(ctx);
	LLVMTypeRef stop_type = LLVMFunctionType(LLVMVoidTypeInContext(ctx), &i1, 1, 0);
	int *count = xcalloc((size_t)s->nfeatures + 1, sizeof *count);
	int *k = xcalloc((size_t)s->nfeatures + 1, sizeof *k), n = 0, all = 1, nstores = 0;
	LLVMValueRef *stores = NULL;
	LLVMBuilderRef b;

	for (int i = 0; i < s->nfeatures && all; i++) {
		int computed = 1;

		for (int j = 0; j < s->ncriteria[i]; j++)
			computed &= mark[s->criteria[i][j]] != 0;
		if (!computed)
			continue;
		k[n] = slicer_first_value(&s->m, s->feature[i], &count[n]);
		all = k[n] > 0 && instrument_slot(mod, count[n]) != NULL;
		n++;
	}
	for (int i = 0; all && i < n; i++)
		restore_count_updates(mod, instrument_slot(mod, count[i]));
	for (int i = 0; all && i < n; i++) { /* the updates first: the checks add uses */
		LLVMValueRef slot = instrument_slot(mod, count[i]);

		for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
			LLVMValueRef store = LLVMGetUser(u);

			if (!LLVMIsAStoreInst(store) || LLVMGetOperand(store, 1) != slot)
				continue;
			stores = xrealloc(stores, sizeof *stores * (size_t)(nstores + 1));
			stores[nstores++] = store;
		}
	}
	b = LLVMCreateBuilderInContext(ctx);
	for (int i = 0; i < nstores; i++) {
		LLVMValueRef done = NULL;

		LLVMPositionBuilder(b, LLVMGetInstructionParent(stores[i]),
				    LLVMGetNextInstruction(stores[i]));
		for (int j = 0; j < n; j++) {
			LLVMValueRef have = LLVMBuildLoad2(b, i64, instrument_slot(mod, count[j]), "");
			LLVMValueRef enough = LLVMBuildICmp(b, LLVMIntUGE, have,
							    LLVMConstInt(i64, (unsigned long long)k[j], 0), "");

			done = done ? LLVMBuildAnd(b, done, enough, "") : enough;
		}
		LLVMBuildCall2(b, stop_type, stop_function(mod), &done, 1, "");
	}
	LLVMDisposeBuilder(b);
	free(stores);
	free(count);
	free(k);
	return nstores > 0;
}

/*
 * Deletes the instrumented build's counter array from mod when nothing uses it, as in every
 * slice (each counter is a plain global of its own): it is thread-local, and djpeg's 140 KB
 * of it made the shared-object form's dlopen allocate and zero that much (1.8 ms) to compute
 * nothing.
 */
static void drop_counter_array(LLVMModuleRef mod)
{
	LLVMValueRef array = LLVMGetNamedGlobal(mod, "__mantis_counters");

	if (array && !LLVMGetFirstUse(array))
		LLVMDeleteGlobal(array);
}

int slicer_write(struct slicer *s, const unsigned char *mark, const char *bc, const char *exe,
		 const char *runtime, struct error *err)
{
	struct ir copy = {s->ir.ctx, LLVMCloneModule(s->ir.mod)};
	struct rebuild r = {.ctx = s->ir.ctx, .b = LLVMCreateBuilderInContext(s->ir.ctx)};
	char *objs[1] = {(char *)runtime}, *promoted = NULL;
	int rc;

	decide(s, mark, copy.mod, &r);
	for (LLVMValueRef fn = LLVMGetFirstFunction(copy.mod); fn; fn = LLVMGetNextFunction(fn)) {
		if (!LLVMIsDeclaration(fn))
			cut_branches(&r, fn);
	}
	for (LLVMValueRef fn = LLVMGetFirstFunction(copy.mod); fn; fn = LLVMGetNextFunction(fn))
		delete_dead(&r, fn);
	fuse_computed(s, mark, copy.mod);
	LLVMDisposeBuilder(r.b);
	ptrmap_release(&r.dead);
	ptrmap_release(&r.kept_br);
	LLVMStripModuleDebugInfo(copy.mod); /* same code, compiled 10-20% faster */
	drop_counter_array(copy.mod);
	s->stops_early = stop_at_first_values(s, mark, copy.mod);
	rc = ir_verify(&copy, err);
	if (rc < 0)
		error_prefix(err, "the slicer made an invalid evaluator (a bug in mantis)");
	if (rc == 0)
		rc = ir_write(&copy, bc, err);
	LLVMDisposeModule(copy.mod);
	if (rc == 0 && (rc = promote_evaluator(s, bc, &promoted, err)) == 0)
		rc = build_evaluator(s, promoted ? promoted : bc, objs, exe, err);
	free(s->solib_refusal);
	s->solib_refusal = NULL;
	if (rc == 0 && s->inproc)
		build_solib(s, promoted ? promoted : bc, runtime, exe);
	if (promoted)
		unlink(promoted);
	free(promoted);
	return rc;
}

/* ---- reporting --------------------------------------------------------------------------- */

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int slicer_lines(const struct slicer *s, const unsigned char *mark, struct strbuf *out)
{
	char **lines = NULL;
	int n = 0, unique = 0;

	for (int v = 0; v < s->sdg.n; v++) {
		LLVMValueRef x = s->sdg.node[v].v;
		const char *name, *file;
		unsigned len, line;

		if (s->sdg.node[v].kind != SDG_INST || !sdg_kept(&s->sdg, mark, x))
			continue;
		name = callee_name(x);
		if ((name && strncmp(name, "__mantis_", 9) == 0) || !(line = LLVMGetDebugLocLine(x)))
			continue;
		file = LLVMGetDebugLocFilename(x, &len);
		lines = xrealloc(lines, sizeof *lines * (size_t)(n + 1));
		lines[n++] = xasprintf("%.*s:%u", (int)len, file ? file : "?", line);
	}
	if (n > 0)
		qsort(lines, (size_t)n, sizeof *lines, compare_strings);
	for (int i = 0; i < n; i++) {
		if (i == 0 || strcmp(lines[i], lines[i - 1]) != 0) {
			strbuf_add(out, lines[i], strlen(lines[i]));
			strbuf_addch(out, '\n');
			unique++;
		}
	}
	for (int i = 0; i < n; i++)
		free(lines[i]);
	free(lines);
	return unique;
}

/* Appends "FILE:LINE" of instruction x (or "?" without a position) to out. */
static void add_position(LLVMValueRef x, struct strbuf *out)
{
	unsigned len = 0, line = x && LLVMIsAInstruction(x) ? LLVMGetDebugLocLine(x) : 0;
	const char *file = line ? LLVMGetDebugLocFilename(x, &len) : NULL;
	char *text = line ? xasprintf("%.*s:%u", (int)len, file ? file : "?", line) : xstrdup("?");

	strbuf_add(out, text, strlen(text));
	free(text);
}

/* Appends a readable description of node v to out: where it is and what it stands for. */
static void describe_node(const struct slicer *s, int v, struct strbuf *out)
{
	static const char *const kind_name[] = {
		[SDG_INST] = "", [SDG_ENTRY] = "entry", [SDG_PARAM] = "parameter",
		[SDG_RETVAL] = "returned value", [SDG_FORMAL_IN] = "formal-in",
		[SDG_FORMAL_OUT] = "formal-out", [SDG_CALLSITE] = "call site",
		[SDG_ACTUAL_ARG] = "argument", [SDG_ACTUAL_IN] = "actual-in",
		[SDG_ACTUAL_OUT] = "actual-out", [SDG_MEMORY] = "memory state",
	};
	const struct sdg_node *n = &s->sdg.node[v];
	LLVMValueRef fn = s->sdg.fn[n->fn].fn;
	size_t len;
	const char *fname = LLVMGetValueName2(fn, &len);
	char *text;

	if (n->v && LLVMIsAInstruction(n->v)) {
		add_position(n->v, out);
		strbuf_add(out, " ", 1);
	}
	if (n->kind == SDG_INST) {
		const char *callee = LLVMIsACallInst(n->v) ? callee_name(n->v) : NULL;
		char *ins = LLVMPrintValueToString(n->v);
		char *trimmed = ins + strspn(ins, " "), *meta = strstr(trimmed, ", !");

		if (meta) /* the debug location and loop metadata say nothing here */
			*meta = '\0';
		text = callee ? xasprintf("in %s: call %s", fname, callee)
			      : xasprintf("in %s: %.60s", fname, trimmed);
		LLVMDisposeMessage(ins);
	} else if (n->kind == SDG_FORMAL_IN || n->kind == SDG_FORMAL_OUT ||
		   n->kind == SDG_ACTUAL_IN || n->kind == SDG_ACTUAL_OUT || n->kind == SDG_MEMORY) {
		int loc = n->aux >= 0 && n->aux < s->sdg.nclasses ? s->sdg.class_loc[n->aux] : -1;
		const char *obj = loc >= 0 ? s->pta.obj[s->pta.loc[loc].obj].name : "?";

		text = xasprintf("in %s: %s of memory class %d (%s)", fname, kind_name[n->kind],
				 n->aux, obj);
	} else if (n->kind == SDG_PARAM || n->kind == SDG_ACTUAL_ARG) {
		text = xasprintf("in %s: %s %d", fname, kind_name[n->kind], n->aux);
	} else {
		text = xasprintf("in %s: %s", fname, kind_name[n->kind]);
	}
	strbuf_add(out, text, strlen(text));
	free(text);
}

/* Returns whether node v is an instruction of the program at file_line ("FILE:LINE", FILE a
 * suffix of the instruction's file). */
static int at_line(const struct slicer *s, int v, const char *file, size_t flen, unsigned line)
{
	LLVMValueRef x = s->sdg.node[v].v;
	const char *name, *f;
	unsigned len;

	if (s->sdg.node[v].kind != SDG_INST || LLVMGetDebugLocLine(x) != line)
		return 0;
	name = callee_name(x);
	if (name && strncmp(name, "__mantis_", 9) == 0)
		return 0;
	f = LLVMGetDebugLocFilename(x, &len);
	return f && len >= flen && memcmp(f + len - flen, file, flen) == 0 &&
	       (len == flen || f[len - flen - 1] == '/');
}

int slicer_why(const struct slicer *s, const unsigned char *mark, int which,
	       const char *file_line, struct strbuf *out)
{
	static const char *const edge_name[] = {
		[SDG_DATA] = "data", [SDG_CONTROL] = "control", [SDG_CALL] = "call",
		[SDG_PARAM_IN] = "parameter in", [SDG_PARAM_OUT] = "parameter out",
		[SDG_SUMMARY] = "summary",
	};
	const char *colon = strrchr(file_line, ':');
	struct intvec best = {0}, best_kinds = {0}, crit = {0};
	char *end;
	int len;
	unsigned long line = colon ? strtoul(colon + 1, &end, 10) : 0;

	if (!colon || colon == file_line || !line || *end)
		return -1;
	/* the feature's value, and each exit's record of it that the slice keeps because it keeps
	 * the exit (slicer_mark_within) */
	for (int j = 0; j < s->ncriteria[which]; j++)
		intvec_push(&crit, s->criteria[which][j]);
	for (int i = 0; i < s->exits.n; i += 2) {
		if (sdg_kept(&s->sdg, mark, s->sdg.node[s->exits.v[i]].v) && mark[s->exits.v[i + 1]])
			intvec_push(&crit, s->exits.v[i + 1]);
	}
	for (int v = 0; v < s->sdg.n; v++) {
		struct intvec chain = {0}, kinds = {0};

		if (!mark[v] || !at_line(s, v, file_line, (size_t)(colon - file_line), (unsigned)line))
			continue;
		if (sdg_why(&s->sdg, mark, crit.v, crit.n, v, &chain, &kinds) > 0 &&
		    (best.n == 0 || chain.n < best.n)) {
			intvec_release(&best);
			intvec_release(&best_kinds);
			best = chain;
			best_kinds = kinds;
			continue;
		}
		intvec_release(&chain);
		intvec_release(&kinds);
	}
	for (int i = 0; i < best.n; i++) {
		if (i > 0) {
			char *edge = xasprintf("  which %s-flows into\n", edge_name[best_kinds.v[i - 1]]);

			strbuf_add(out, edge, strlen(edge));
			free(edge);
		}
		describe_node(s, best.v[i], out);
		strbuf_addch(out, '\n');
	}
	len = best.n;
	intvec_release(&crit);
	intvec_release(&best_kinds);
	intvec_release(&best);
	return len;
}

void slicer_release(struct slicer *s)
{
	for (int i = 0; i < s->nfeatures; i++)
		free(s->criteria ? s->criteria[i] : NULL);
	free(s->criteria);
	free(s->ncriteria);
	free(s->feature);
	intvec_release(&s->exits);
	if (s->sdg.node)
		sdg_release(&s->sdg);
	if (s->pta.obj)
		pta_release(&s->pta);
	if (s->ir.ctx)
		ir_release(&s->ir);
	manifest_release(&s->m);
	free(s->dir);
	free(s->solib_refusal);
	memset(s, 0, sizeof *s);
}
