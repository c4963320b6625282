/*
 * promote.c: counter promotion for evaluators (promote.h).
 *
 * Why: an evaluator's counters are globals, updated by load-add-store in the hot loops it
 * keeps. LLVM's LICM will not keep such a global in a register through a loop unless every
 * path through the loop stores it (it may not add a store another thread could see), so a
 * counter in one arm of a branch stays in memory, and the loop's iterations chain through
 * store-to-load forwarding (lz4 -9's evaluator ran 1.64x the program on the same excerpt).
 * Our counters are seen by no other thread and by no code but the evaluator's own loads and
 * stores of them, so they can live in a local through any loop that calls nothing that reads
 * or writes them: the same reasoning as LLVM's profile-counter promotion (InstrProfiling's
 * -do-counter-promotion), which it applies to its own counters only.
 *
 * Algorithm. (1) Counters: the __mantis_c.N globals whose every use is a load of it or a store
 * to it (so no pointer to one exists). (2) Per defined function, the counters it or its
 * callees read or write, and whether it is opaque: it makes an indirect call, calls a
 * library function given a function pointer (qsort's comparator), a setjmp or a function
 * that does not return (longjmp); to the fixpoint over direct calls. (3) Per function, the
 * natural loops (a retreating edge whose target dominates its source; the body is what
 * reaches the source backwards without passing the header), largest first; a loop inside a
 * promoted loop is skipped. A loop is promoted if none of its calls is opaque and no jump into
 * or out of it goes through an address (computed goto: such an edge cannot be split); its counters
 * are those its loads and stores name that none of its callees touches. Each gets an alloca:
 * loaded from the global on every edge into the header from outside, its loads and stores in
 * the loop redirected to the alloca, stored back on every edge leaving the loop. An edge is
 * split (a block of its own, the target's phis rebuilt) unless its source has one successor
 * (entering) or its target is entered only from the loop (leaving). clang -O then makes the
 * allocas registers.
 * Invariant: outside promoted loops a counter's global holds its count; inside one, its
 * alloca does, and nothing but the loop's own loads and stores reads or writes either.
 */
#include "promote.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "extmodel.h"
#include "instrument.h"
#include "util.h"

/* The module's counters and what each function touches. */
struct promoter {
	LLVMContextRef ctx;        /* mod's context */
	LLVMBuilderRef b;          /* the builder; owned */
	LLVMTypeRef i64;           /* the counters' type */
	struct ptrmap counter;     /* counter global -> index */
	int ncounters;             /* counters */
	int words;                 /* 64-bit words of a counter set */
	struct ptrmap fn;          /* defined function -> index */
	int nfns;                  /* defined functions */
	uint64_t *touch;           /* nfns sets: the counters each reads or writes, callees too;
				    * owned */
	unsigned char *opaque;     /* nfns flags: may do what the loop cannot see; owned */
	struct promote_stats *st;  /* the caller's statistics */
};

/* A natural loop, by block references (they survive edge splitting). */
struct loop {
	LLVMBasicBlockRef header;  /* its header */
	LLVMBasicBlockRef *body;   /* its blocks, the header first; owned */
	int n;                     /* blocks */
};

/* Returns whether global g is a counter: named so, and used only as the address of loads and
 * stores. */
static int is_counter(LLVMValueRef g)
{
	size_t len;
	const char *name = LLVMGetValueName2(g, &len);

	if (len < sizeof INSTRUMENT_SLOT_PREFIX - 1 || strncmp(name, INSTRUMENT_SLOT_PREFIX, sizeof INSTRUMENT_SLOT_PREFIX - 1) ||
	    LLVMGetLinkage(g) != LLVMInternalLinkage)
		return 0;
	for (LLVMUseRef u = LLVMGetFirstUse(g); u; u = LLVMGetNextUse(u)) {
		LLVMValueRef user = LLVMGetUser(u);

		if (LLVMIsALoadInst(user) && LLVMGetOperand(user, 0) == g)
			continue;
		if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == g &&
		    LLVMGetOperand(user, 0) != g)
			continue;
		return 0;
	}
	return 1;
}

/* Returns the counter index x loads or stores, or -1. */
static int accessed_counter(const struct promoter *p, LLVMValueRef x)
{
	if (LLVMIsALoadInst(x))
		return ptrmap_get(&p->counter, LLVMGetOperand(x, 0));
	if (LLVMIsAStoreInst(x))
		return ptrmap_get(&p->counter, LLVMGetOperand(x, 1));
	return -1;
}

/* Returns whether external function callee, called by call, may do what a loop cannot see:
 * jump or never return (longjmp, exit), return twice (setjmp), or call back into the
 * program through a function pointer argument. */
static int external_opaque(LLVMValueRef call, LLVMValueRef callee)
{
	size_t len;
	const char *name = LLVMGetValueName2(callee, &len);
	const struct extfn *ext = extmodel_find(name);
	unsigned nargs = (unsigned)LLVMGetNumArgOperands(call);

	if (LLVMGetIntrinsicID(callee) != 0)
		return 0;
	if ((ext && (ext->flags & EXT_NORETURN)) || strstr(name, "setjmp"))
		return 1;
	for (unsigned i = 0; i < nargs; i++) {
		LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(call, i));

		if (LLVMGetTypeKind(t) == LLVMPointerTypeKind &&
		    LLVMGetTypeKind(LLVMGetElementType(t)) == LLVMFunctionTypeKind)
			return 1;
	}
	return 0;
}

/* Returns the index of the defined function call calls, -1 for an external one, or -2 when
 * the call is opaque by itself (indirect, or an opaque external). */
static int call_target(const struct promoter *p, LLVMValueRef call)
{
	LLVMValueRef callee = LLVMGetCalledValue(call);

	if (callee && LLVMIsAInlineAsm(callee))
		return -1;
	if (!callee || !LLVMIsAFunction(callee))
		return -2;
	if (LLVMIsDeclaration(callee))
		return external_opaque(call, callee) ? -2 : -1;
	return ptrmap_get(&p->fn, callee);
}

/* Sets bit c of set. */
static void set_add(uint64_t *set, int c)
{
	set[c / 64] |= 1ull << (c % 64);
}

/* Returns whether bit c of set is on. */
static int set_has(const uint64_t *set, int c)
{
	return (set[c / 64] >> (c % 64)) & 1;
}

/* Fills p: the counters, the defined functions, and what each touches, to the fixpoint. */
static void promoter_init(struct promoter *p, LLVMModuleRef mod, struct promote_stats *st)
{
	int changed = 1;

	memset(p, 0, sizeof *p);
	p->ctx = LLVMGetModuleContext(mod);
	p->b = LLVMCreateBuilderInContext(p->ctx);
	p->i64 = LLVMInt64TypeInContext(p->ctx);
	p->st = st;
	for (LLVMValueRef g = LLVMGetFirstGlobal(mod); g; g = LLVMGetNextGlobal(g)) {
		if (is_counter(g))
			ptrmap_put(&p->counter, g, p->ncounters++);
	}
	p->words = p->ncounters / 64 + 1;
	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
		if (!LLVMIsDeclaration(f))
			ptrmap_put(&p->fn, f, p->nfns++);
	}
	p->touch = xcalloc((size_t)p->nfns * (size_t)p->words + 1, sizeof *p->touch);
	p->opaque = xcalloc((size_t)p->nfns + 1, 1);
	while (changed) {
		changed = 0;
		for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
			int i = ptrmap_get(&p->fn, f);
			uint64_t *mine = i >= 0 ? p->touch + (size_t)i * (size_t)p->words : NULL;

			for (LLVMBasicBlockRef bb = i >= 0 ? LLVMGetFirstBasicBlock(f) : NULL; bb;
			     bb = LLVMGetNextBasicBlock(bb)) {
				for (LLVMValueRef x = LLVMGetFirstInstruction(bb); x;
				     x = LLVMGetNextInstruction(x)) {
					int c = accessed_counter(p, x), t;

					if (c >= 0 && !set_has(mine, c)) {
						set_add(mine, c);
						changed = 1;
					}
					if (!LLVMIsACallInst(x) || (t = call_target(p, x)) == -1)
						continue;
					if (t == -2 || p->opaque[t]) {
						changed |= !p->opaque[i];
						p->opaque[i] = 1;
						continue;
					}
					for (int w = 0; w < p->words; w++) {
						uint64_t more = p->touch[(size_t)t * (size_t)p->words + (size_t)w];

						changed |= (mine[w] | more) != mine[w];
						mine[w] |= more;
					}
				}
			}
		}
	}
}

/* Frees what p owns. */
static void promoter_release(struct promoter *p)
{
	LLVMDisposeBuilder(p->b);
	ptrmap_release(&p->counter);
	ptrmap_release(&p->fn);
	free(p->touch);
	free(p->opaque);
}

/* ---- loops -------------------------------------------------------------------------------- */

/* Appends to *loops the natural loops of cfg, one per header; returns their number. */
static int find_loops(const struct cfg *cfg, struct loop **loops)
{
	int n = 0, *stack = xcalloc((size_t)cfg->n + 1, sizeof *stack);
	unsigned char *in = xcalloc((size_t)cfg->n + 1, 1);

	*loops = NULL;
	for (int h = 0; h < cfg->n; h++) {
		int top = 0, size = 0;

		memset(in, 0, (size_t)cfg->n);
		for (int e = 0; e < cfg->nretreat; e++) {
			const struct cfg_edge *r = &cfg->retreat[e];

			if (r->to != h || !cfg_dominates(cfg, h, r->from) || in[r->from])
				continue;
			in[r->from] = 1;
			stack[top++] = r->from;
		}
		if (top == 0)
			continue;
		in[h] = 1;
		while (top > 0) {
			int v = stack[--top];

			for (int k = 0; v != h && k < cfg->npred[v]; k++) {
				int u = cfg->pred[v][k];

				if (!in[u] && cfg->rpo_number[u] >= 0) {
					in[u] = 1;
					stack[top++] = u;
				}
			}
		}
		*loops = xrealloc(*loops, sizeof **loops * (size_t)(n + 1));
		(*loops)[n].header = cfg->block[h];
		(*loops)[n].body = xcalloc((size_t)cfg->n, sizeof *(*loops)[n].body);
		(*loops)[n].body[size++] = cfg->block[h];
		for (int v = 0; v < cfg->n; v++) {
			if (in[v] && v != h)
				(*loops)[n].body[size++] = cfg->block[v];
		}
		(*loops)[n++].n = size;
	}
	free(stack);
	free(in);
	return n;
}

static int larger_first(const void *a, const void *b)
{
	const struct loop *x = a, *y = b;

	return (y->n > x->n) - (y->n < x->n);
}

/* ---- edges -------------------------------------------------------------------------------- */

/* Rebuilds the phis of to so that the first entry from `from` comes from `now` and later
 * entries from `from` are dropped (now has one edge to `to`). */
static void retarget_phis(struct promoter *p, LLVMBasicBlockRef to, LLVMBasicBlockRef from,
			  LLVMBasicBlockRef now)
{
	for (LLVMValueRef phi = LLVMGetFirstInstruction(to); phi && LLVMIsAPHINode(phi);) {
		LLVMValueRef next = LLVMGetNextInstruction(phi), fresh;
		int seen = 0;

		LLVMPositionBuilderBefore(p->b, phi);
		fresh = LLVMBuildPhi(p->b, LLVMTypeOf(phi), "");
		for (unsigned j = 0; j < LLVMCountIncoming(phi); j++) {
			LLVMValueRef v = LLVMGetIncomingValue(phi, j);
			LLVMBasicBlockRef in = LLVMGetIncomingBlock(phi, j);

			if (in == from && seen++)
				continue;
			if (in == from)
				in = now;
			LLVMAddIncoming(fresh, &v, &in, 1);
		}
		LLVMReplaceAllUsesWith(phi, fresh);
		LLVMInstructionEraseFromParent(phi);
		phi = next;
	}
}

/* Gives the edges from `from` to `to` a block of their own and returns it, the builder
 * positioned before its branch. */
static LLVMBasicBlockRef split_edge(struct promoter *p, LLVMBasicBlockRef from, LLVMBasicBlockRef to)
{
	LLVMValueRef term = LLVMGetBasicBlockTerminator(from);
	LLVMBasicBlockRef edge = LLVMInsertBasicBlockInContext(p->ctx, to, "mantis.promote");
	LLVMValueRef br;

	for (unsigned s = 0; s < LLVMGetNumSuccessors(term); s++) {
		if (LLVMGetSuccessor(term, s) == to)
			LLVMSetSuccessor(term, s, edge);
	}
	retarget_phis(p, to, from, edge);
	LLVMPositionBuilderAtEnd(p->b, edge);
	br = LLVMBuildBr(p->b, to);
	LLVMPositionBuilderBefore(p->b, br);
	return edge;
}

/* Returns the first instruction of b that is not a phi. */
static LLVMValueRef first_non_phi(LLVMBasicBlockRef b)
{
	LLVMValueRef x = LLVMGetFirstInstruction(b);

	while (x && LLVMIsAPHINode(x))
		x = LLVMGetNextInstruction(x);
	return x;
}

/* ---- promotion ---------------------------------------------------------------------------- */

/* Emits, at the builder, local[k] = global[k] (load) or global[k] = local[k] (store). */
static void copy_counters(struct promoter *p, LLVMValueRef *global, LLVMValueRef *local, int n,
			  int load)
{
	for (int k = 0; k < n; k++) {
		LLVMValueRef from = load ? global[k] : local[k], to = load ? local[k] : global[k];

		LLVMBuildStore(p->b, LLVMBuildLoad2(p->b, p->i64, from, ""), to);
	}
}

/* Promotes global[0..n) in loop l of fn (see the file's comment). */
static void promote_loop(struct promoter *p, LLVMValueRef fn, const struct loop *l,
			 LLVMValueRef *global, int n)
{
	LLVMValueRef *local = xcalloc((size_t)n, sizeof *local);
	LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
	struct cfg cfg;
	unsigned char *body, *stored;
	int h;

	LLVMPositionBuilderBefore(p->b, LLVMGetFirstInstruction(entry));
	for (int k = 0; k < n; k++)
		local[k] = LLVMBuildAlloca(p->b, p->i64, "mantis.counter");
	for (int i = 0; i < l->n; i++) {
		for (LLVMValueRef x = LLVMGetFirstInstruction(l->body[i]); x; x = LLVMGetNextInstruction(x)) {
			unsigned op = LLVMIsALoadInst(x) ? 0 : 1;

			for (int k = 0; k < n && (LLVMIsALoadInst(x) || LLVMIsAStoreInst(x)); k++) {
				if (LLVMGetOperand(x, op) == global[k])
					LLVMSetOperand(x, op, local[k]);
			}
		}
	}
	cfg_build(&cfg, fn);
	body = xcalloc((size_t)cfg.n, 1);
	stored = xcalloc((size_t)cfg.n, 1);
	for (int i = 0; i < l->n; i++)
		body[cfg_index(&cfg, l->body[i])] = 1;
	h = cfg_index(&cfg, l->header);
	for (int k = 0; k < cfg.npred[h]; k++) { /* entering: each outside predecessor once */
		int from = cfg.pred[h][k], again = 0;

		for (int j = 0; j < k; j++)
			again |= cfg.pred[h][j] == from;
		if (body[from] || again)
			continue;
		if (cfg.nsucc[from] == 1)
			LLVMPositionBuilderBefore(p->b, LLVMGetBasicBlockTerminator(cfg.block[from]));
		else
			split_edge(p, cfg.block[from], l->header);
		copy_counters(p, global, local, n, 1);
	}
	for (int v = 0; v < cfg.n; v++) { /* leaving */
		for (int s = 0; body[v] && s < cfg.nsucc[v]; s++) {
			int to = cfg.succ[v][s], dedicated = 1, again = 0;

			for (int j = 0; j < s; j++)
				again |= cfg.succ[v][j] == to;
			for (int k = 0; k < cfg.npred[to]; k++)
				dedicated &= body[cfg.pred[to][k]];
			if (body[to] || again || stored[to])
				continue;
			if (dedicated) { /* entered from the loop alone: once, at its top */
				LLVMPositionBuilderBefore(p->b, first_non_phi(cfg.block[to]));
				stored[to] = 1;
			} else {
				split_edge(p, cfg.block[v], cfg.block[to]);
			}
			copy_counters(p, global, local, n, 0);
		}
	}
	free(stored);
	free(body);
	cfg_release(&cfg);
	free(local);
}

/* Returns whether an edge into or out of l cannot be given a block of its own: a jump of l
 * through an address (indirectbr, callbr: GNU C's computed goto), or l's header having its
 * address taken (entered by such a jump from outside). */
static int jumps_by_address(const struct loop *l)
{
	for (int i = 0; i < l->n; i++) {
		LLVMOpcode op = LLVMGetInstructionOpcode(LLVMGetBasicBlockTerminator(l->body[i]));

		if (op == LLVMIndirectBr || op == LLVMCallBr)
			return 1;
	}
	for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(l->header)); u; u = LLVMGetNextUse(u)) {
		if (LLVMIsABlockAddress(LLVMGetUser(u)))
			return 1;
	}
	return 0;
}

/* Returns how many of l's counters may live in a local (filled into global[]), or -1 when a
 * call in l is opaque or an edge of l cannot be split (jumps_by_address). */
static int loop_counters(const struct promoter *p, const struct loop *l, LLVMValueRef *global)
{
	uint64_t *busy = xcalloc((size_t)p->words, sizeof *busy);
	uint64_t *seen = xcalloc((size_t)p->words, sizeof *seen);
	int n = 0;

	if (jumps_by_address(l)) {
		free(busy);
		free(seen);
		return -1;
	}
	for (int i = 0; i < l->n; i++) {
		for (LLVMValueRef x = LLVMGetFirstInstruction(l->body[i]); x; x = LLVMGetNextInstruction(x)) {
			int t = LLVMIsACallInst(x) ? call_target(p, x) : -1;

			if (t == -2 || (t >= 0 && p->opaque[t])) {
				free(busy);
				free(seen);
				return -1;
			}
			for (int w = 0; t >= 0 && w < p->words; w++)
				busy[w] |= p->touch[(size_t)t * (size_t)p->words + (size_t)w];
		}
	}
	for (int i = 0; i < l->n; i++) {
		for (LLVMValueRef x = LLVMGetFirstInstruction(l->body[i]); x; x = LLVMGetNextInstruction(x)) {
			int c = accessed_counter(p, x);

			if (c < 0 || set_has(busy, c) || set_has(seen, c))
				continue;
			set_add(seen, c);
			global[n++] = LLVMGetOperand(x, LLVMIsALoadInst(x) ? 0 : 1);
		}
	}
	free(busy);
	free(seen);
	return n;
}

/* Promotes the loops of fn, largest first, skipping those inside a promoted one. */
static void promote_function(struct promoter *p, LLVMValueRef fn)
{
	struct cfg cfg;
	struct loop *loops;
	struct ptrmap inside = {0};
	int nloops;

	cfg_build(&cfg, fn);
	nloops = find_loops(&cfg, &loops);
	cfg_release(&cfg);
	if (nloops > 1)
		qsort(loops, (size_t)nloops, sizeof *loops, larger_first);
	for (int i = 0; i < nloops; i++) {
		LLVMValueRef *global = xcalloc((size_t)p->ncounters + 1, sizeof *global);
		int n;

		if (ptrmap_get(&inside, loops[i].header) < 0) {
			n = loop_counters(p, &loops[i], global);
			if (n < 0)
				p->st->unsafe++;
			if (n > 0) {
				promote_loop(p, fn, &loops[i], global, n);
				p->st->loops++;
				p->st->counters += n;
				for (int k = 0; k < loops[i].n; k++)
					ptrmap_put(&inside, loops[i].body[k], 1);
			}
		}
		free(global);
	}
	for (int i = 0; i < nloops; i++)
		free(loops[i].body);
	free(loops);
	ptrmap_release(&inside);
}

void promote_counters(LLVMModuleRef mod, struct promote_stats *st)
{
	struct promoter p;

	memset(st, 0, sizeof *st);
	promoter_init(&p, mod, st);
	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f && p.ncounters > 0; f = LLVMGetNextFunction(f)) {
		if (!LLVMIsDeclaration(f))
			promote_function(&p, f);
	}
	promoter_release(&p);
}
