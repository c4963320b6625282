/*
 * sdg.c: the system dependence graph of a whole program, summary edges, and the two-pass
 * slicing of Horwitz, Reps and Binkley ("Interprocedural slicing using dependence graphs",
 * 1990), with summary edges computed by the worklist algorithm of Reps, Horwitz, Sagiv and
 * Rosay ("Speeding up slicing", 1994).
 *
 * Building, top to bottom (sdg_build):
 *   nodes        entry, parameters, returned value per function; a node per instruction
 *   effects      the locations each instruction reads and writes by itself: loads, stores,
 *                library calls by extmodel.h (unknown ones: all they can reach, and the escaped
 *                globals), calls that may reach external code; read-only memory is left out.
 *                Locations are then grouped into memory classes by partition refinement:
 *                locations every instruction touches together are one class, and the graph
 *                works on classes (as precise, and far smaller where points-to sets are big)
 *   call sites   per call of defined functions (pta_callees): call-site and argument nodes
 *   mod/ref      per function, the locations it or its callees may write (read): a fixpoint over
 *                the call graph; library callbacks (qsort's comparator) count for their caller
 *   relevance    the classes the criteria may depend on at all, by a coarse closure (below);
 *                only they get formal and actual nodes and memory edges
 *   formals      formal-in per location in ref u mod, formal-out per location in mod; and
 *                actual-ins and actual-outs per call site for the union over its callees
 *   edges        per function: SSA uses, phis on their incoming blocks' terminators, control
 *                dependence (cdep.c), memory: a use of location L depends on every write of L
 *                that can reach it in the CFG and on L's formal-in (writes are weak updates:
 *                nothing is killed, which is sound for may-aliases); L's formal-out on the
 *                writes that can reach a return (not those only followed by exit or abort);
 *                then call, parameter-in and parameter-out edges
 *   summaries    actual-in -> actual-out where the formal-in reaches the formal-out (the
 *                set of RHSR's worklist algorithm, computed per function with bitsets)
 * Slicing: pass 1 from the criteria follows every edge but parameter-out (it ascends to
 * callers, never descends); pass 2 from everything pass 1 marked follows every edge but call and
 * parameter-in (it descends, never ascends). An executable program keeps one copy of each
 * function, so wherever a kept call site calls a function with a marked formal-in, the matching
 * actual-in is marked and sliced by pass 2, until nothing changes (Binkley 1993); pass 2
 * because the caller needs it only where it is itself called from a kept site, which the next
 * round matches in turn.
 * Invariant: edges between functions are only call, parameter-in, parameter-out; summary edges
 * join an actual-in and an actual-out of the same call site.
 */
#include "sdg.h"

#include <llvm-c/Target.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cdep.h"
#include "cfg.h"
#include "error.h"
#include "extmodel.h"
#include "pta.h"
#include "util.h"

/* The locations one instruction reads and writes by itself: ranges of the pool. */
struct effect {
	int rd, nrd; /* reads: pool[rd .. rd + nrd) */
	int wr, nwr; /* writes */
};

/* A library call that calls a function of the program (qsort's comparator...). */
struct callback {
	int node; /* the library call's instruction node */
	int fn;   /* the program's function it may call */
};

/* State while building. */
struct builder {
	struct sdg *g;           /* the graph */
	const struct pta *pta;   /* points-to facts */
	LLVMTargetDataRef td;    /* the module's data layout; owned */
	int words;               /* 64-bit words of a location bitset */
	uint64_t *mod, *ref;     /* per function, a bitset of locations; owned */
	struct effect *eff;      /* per node below ninst (zero for all but instructions); owned */
	int ninst;               /* nodes made before any call-site node */
	int *class_of;           /* per location, its memory class; owned */
	int nclasses;            /* memory classes */
	int *class_size;         /* per class, its locations; owned */
	int *hits;               /* refine's per-class counts, zero between calls; owned */
	int *split_to;           /* refine's per-class new class, or -1 (valid for touched ones); owned */
	unsigned char *relevant; /* per class: a criterion may depend on it (relevance); owned */
	int longjmps;            /* the program calls setjmp: a block that ends in a no-return call
				    may still go on elsewhere */
	struct intvec pool;      /* effects' locations */
	struct intvec escaped;   /* escaped locations, once asked for */
	int have_escaped;        /* escaped is filled */
	struct callback *cb;     /* library callbacks; owned */
	int ncb, capcb;
};

/* ---- small helpers ------------------------------------------------------------------------ */

static int bit_set(uint64_t *set, int i)
{
	uint64_t m = (uint64_t)1 << (i & 63);

	if (set[i >> 6] & m)
		return 0;
	set[i >> 6] |= m;
	return 1;
}

static int bit_get(const uint64_t *set, int i)
{
	return (int)(set[i >> 6] >> (i & 63) & 1);
}

/* Adds every bit of from to to; returns whether to changed. */
static int bits_or(uint64_t *to, const uint64_t *from, int words)
{
	int changed = 0;

	for (int w = 0; w < words; w++) {
		if (from[w] & ~to[w]) {
			to[w] |= from[w];
			changed = 1;
		}
	}
	return changed;
}

static int new_node(struct sdg *g, enum sdg_kind kind, int fn, LLVMValueRef v, int aux)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 1024;
		g->node = xrealloc(g->node, sizeof *g->node * (size_t)g->cap);
	}
	g->node[g->n] = (struct sdg_node){(unsigned char)kind, fn, v, aux, -1};
	return g->n++;
}

static void add_edge(struct sdg *g, int src, int dst, enum sdg_edge_kind kind)
{
	if (src < 0 || dst < 0)
		return;
	if (g->nedges == g->capedges) {
		g->capedges = g->capedges ? 2 * g->capedges : 4096;
		g->edge = xrealloc(g->edge, sizeof *g->edge * (size_t)g->capedges);
	}
	g->edge[g->nedges] = (struct sdg_edge){src, g->node[dst].in, (unsigned char)kind};
	g->node[dst].in = g->nedges++;
}

/* Returns the node of loc in a location list, or -1. */
static int locs_find(const struct sdg_locs *l, int loc)
{
	int lo = 0, hi = l->n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (l->loc[mid] == loc)
			return l->node[mid];
		if (l->loc[mid] < loc)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* Makes one node per location in the bitset, of kind, in list l (sorted by construction). */
static void locs_make(struct sdg *g, struct sdg_locs *l, const uint64_t *set, int words,
		      enum sdg_kind kind, int fn, LLVMValueRef v)
{
	int n = 0;

	for (int w = 0; w < words; w++)
		n += __builtin_popcountll(set[w]);
	l->loc = xmalloc(sizeof *l->loc * (size_t)(n ? n : 1));
	l->node = xmalloc(sizeof *l->node * (size_t)(n ? n : 1));
	l->n = 0;
	for (int w = 0; w < words; w++) {
		for (uint64_t bits = set[w]; bits; bits &= bits - 1) {
			int loc = w * 64 + __builtin_ctzll(bits);

			l->loc[l->n] = loc;
			l->node[l->n++] = new_node(g, kind, fn, v, loc);
		}
	}
}

static void locs_release(struct sdg_locs *l)
{
	free(l->loc);
	free(l->node);
}

static int is_defined(LLVMValueRef fn)
{
	return fn && LLVMIsAFunction(fn) && !LLVMIsDeclaration(fn);
}

int sdg_node(const struct sdg *g, LLVMValueRef x)
{
	return ptrmap_get(&g->node_of, x);
}

/* ---- nodes ------------------------------------------------------------------------------- */

static void make_function_nodes(struct sdg *g, int k)
{
	struct sdg_fn *f = &g->fn[k];
	LLVMTypeRef type = LLVMGlobalGetValueType(f->fn);

	f->entry = new_node(g, SDG_ENTRY, k, f->fn, 0);
	f->nparams = (int)LLVMCountParams(f->fn);
	f->param = xmalloc(sizeof *f->param * (size_t)(f->nparams + 1));
	for (int i = 0; i < f->nparams; i++) {
		LLVMValueRef p = LLVMGetParam(f->fn, (unsigned)i);

		f->param[i] = new_node(g, SDG_PARAM, k, p, i);
		ptrmap_put(&g->node_of, p, f->param[i]);
	}
	f->param[f->nparams] = LLVMIsFunctionVarArg(type) ? new_node(g, SDG_PARAM, k, f->fn, f->nparams) : -1;
	f->retval = LLVMGetTypeKind(LLVMGetReturnType(type)) == LLVMVoidTypeKind
			    ? -1 : new_node(g, SDG_RETVAL, k, f->fn, 0);
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f->fn); b; b = LLVMGetNextBasicBlock(b)) {
		for (LLVMValueRef x = LLVMGetFirstInstruction(b); x; x = LLVMGetNextInstruction(x)) {
			ptrmap_put(&g->node_of, x, new_node(g, SDG_INST, k, x, 0));
			g->ninsts++;
		}
	}
}

/* ---- effects ----------------------------------------------------------------------------- */

/* Returns the name of the function a call calls directly, or NULL. */
static const char *direct_callee_name(LLVMValueRef call)
{
	LLVMValueRef callee = LLVMGetCalledValue(call);
	size_t len;

	return LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &len) : NULL;
}

static uint64_t store_size(struct builder *b, LLVMTypeRef t)
{
	return LLVMGetTypeKind(t) == LLVMVoidTypeKind ? 0 : LLVMStoreSizeOfType(b->td, t);
}

/* The effects of an unknown function on its arguments: everything they reach, and the
 * escaped globals, read and written. */
static void unknown_effects(struct builder *b, LLVMValueRef call, struct intvec *rd, struct intvec *wr)
{
	unsigned nargs = (unsigned)LLVMGetNumArgOperands(call);

	if (!b->have_escaped) {
		pta_escaped(b->pta, &b->escaped);
		b->have_escaped = 1;
	}
	for (unsigned i = 0; i < nargs; i++) {
		LLVMValueRef a = LLVMGetOperand(call, i);

		if (LLVMGetTypeKind(LLVMTypeOf(a)) == LLVMPointerTypeKind) {
			pta_reachable(b->pta, a, rd);
			pta_reachable(b->pta, a, wr);
		}
	}
	for (int i = 0; i < b->escaped.n; i++) {
		intvec_push(rd, b->escaped.v[i]);
		intvec_push(wr, b->escaped.v[i]);
	}
}

/* The bytes a library call accesses through its pointers when its size argument is a
 * constant, else 0 (to the object's end). */
static uint64_t constant_length(LLVMValueRef call, const struct extfn *ext)
{
	LLVMValueRef len;

	if (ext->size_arg < 0 || ext->size_arg >= (int)LLVMGetNumArgOperands(call))
		return 0;
	len = LLVMGetOperand(call, (unsigned)ext->size_arg);
	return LLVMIsAConstantInt(len) ? LLVMConstIntGetZExtValue(len) : 0;
}

/* The effects of a call of the library function name (which the program does not define). */
static void library_effects(struct builder *b, LLVMValueRef call, const char *name,
			    struct intvec *rd, struct intvec *wr)
{
	const struct extfn *ext;
	unsigned nargs = (unsigned)LLVMGetNumArgOperands(call);
	uint64_t len;

	if (strncmp(name, "__mantis_slice_", 15) == 0)
		return; /* the slicer's own recorder: reads only its arguments */
	if (!(ext = extmodel_find(name))) {
		unknown_effects(b, call, rd, wr);
		return;
	}
	len = constant_length(call, ext);
	for (unsigned i = 0; i < nargs; i++) {
		LLVMValueRef a = LLVMGetOperand(call, i);
		char e = extmodel_arg(ext, i);

		if (LLVMGetTypeKind(LLVMTypeOf(a)) != LLVMPointerTypeKind)
			continue;
		if (e == 'r' || e == 'b' || e == 'f')
			pta_access(b->pta, a, len, rd);
		if (e == 'w' || e == 'b' || e == 'f')
			pta_access(b->pta, a, len, wr);
		if (e == 'R' || e == 'B') /* a va_list: everything it reaches */
			pta_reachable(b->pta, a, rd);
		if (e == 'B')
			pta_reachable(b->pta, a, wr);
	}
	if (strncmp(name, "llvm.va_start", 13) == 0 || strncmp(name, "llvm.va_copy", 12) == 0)
		pta_reachable(b->pta, LLVMGetOperand(call, 0), wr);
	if (ext->stream != EXT_NO_STREAM && b->pta->stream_loc[ext->stream] >= 0) {
		intvec_push(rd, b->pta->stream_loc[ext->stream]);
		intvec_push(wr, b->pta->stream_loc[ext->stream]);
	}
	if (ext->flags & (EXT_ALLOC | EXT_REALLOC))
		pta_access(b->pta, call, 0, wr);
}

/* The effects of a call by itself: its library callees' (all callees', if it may reach code
 * the analysis cannot see). Calls of defined functions get theirs through mod/ref. */
static void call_effects(struct builder *b, LLVMValueRef call, struct intvec *rd, struct intvec *wr)
{
	LLVMValueRef callee = LLVMGetCalledValue(call);
	LLVMValueRef const *fns;
	size_t len;
	int n;

	if (LLVMIsAInlineAsm(callee)) {
		unknown_effects(b, call, rd, wr);
		return;
	}
	n = pta_callees(b->pta, call, &fns);
	if (pta_calls_unknown(b->pta, call) || (n == 0 && !LLVMIsAFunction(callee))) {
		unknown_effects(b, call, rd, wr);
		if (n == 0)
			return;
	}
	for (int i = 0; i < n; i++) {
		if (!is_defined(fns[i]))
			library_effects(b, call, LLVMGetValueName2(fns[i], &len), rd, wr);
	}
}

/* Returns whether o is read-only: code, or a constant global (writing either is undefined,
 * so no write reaches a read of it and a read of it needs no dependence). */
static int read_only(const struct pta_object *o)
{
	return o->kind == PTA_FUNCTION ||
	       (o->kind == PTA_GLOBAL && (!o->site || LLVMIsGlobalConstant(o->site)));
}

/* Removes repeats from iv[from..), and read-only locations. */
static void unique_tail(const struct pta *pta, struct intvec *iv, int from, unsigned char *seen)
{
	int n = from;

	for (int i = from; i < iv->n; i++) {
		if (read_only(&pta->obj[pta->loc[iv->v[i]].obj]))
			continue;
		if (!seen[iv->v[i]]) {
			seen[iv->v[i]] = 1;
			iv->v[n++] = iv->v[i];
		}
	}
	for (int i = from; i < n; i++)
		seen[iv->v[i]] = 0;
	iv->n = n;
}

/* The locations instruction node reads (rd) and writes (wr) by itself, without repeats or
 * read-only ones. */
static void raw_effects(struct builder *b, int node, struct intvec *rd, struct intvec *wr,
			unsigned char *seen)
{
	LLVMValueRef x = b->g->node[node].v;

	rd->n = wr->n = 0;
	switch (LLVMGetInstructionOpcode(x)) {
	case LLVMLoad:
		pta_access(b->pta, LLVMGetOperand(x, 0), store_size(b, LLVMTypeOf(x)), rd);
		break;
	case LLVMStore:
		pta_access(b->pta, LLVMGetOperand(x, 1), store_size(b, LLVMTypeOf(LLVMGetOperand(x, 0))), wr);
		break;
	case LLVMAtomicRMW:
	case LLVMAtomicCmpXchg:
	case LLVMVAArg:
		pta_access(b->pta, LLVMGetOperand(x, 0), 0, rd);
		pta_access(b->pta, LLVMGetOperand(x, 0), 0, wr);
		break;
	case LLVMCall:
	case LLVMInvoke:
		call_effects(b, x, rd, wr);
		break;
	default:
		break;
	}
	unique_tail(b->pta, rd, 0, seen);
	unique_tail(b->pta, wr, 0, seen);
}

/*
 * Splits the memory classes by the set locs (without repeats): afterwards every class lies
 * wholly inside or wholly outside it (partition refinement).
 */
static void refine(struct builder *b, const struct intvec *locs)
{
	struct intvec touched = {0};

	for (int i = 0; i < locs->n; i++) {
		int c = b->class_of[locs->v[i]];

		if (b->hits[c]++ == 0)
			intvec_push(&touched, c);
	}
	for (int i = 0; i < touched.n; i++) {
		int c = touched.v[i];

		b->split_to[c] = b->hits[c] < b->class_size[c] ? b->nclasses++ : -1;
		if (b->split_to[c] >= 0) {
			b->split_to[b->split_to[c]] = -1;
			b->class_size[b->split_to[c]] = 0;
		}
	}
	for (int i = 0; i < locs->n; i++) {
		int c = b->class_of[locs->v[i]];

		if (b->split_to[c] >= 0) {
			b->class_of[locs->v[i]] = b->split_to[c];
			b->class_size[c]--;
			b->class_size[b->split_to[c]]++;
		}
	}
	for (int i = 0; i < touched.n; i++)
		b->hits[touched.v[i]] = 0;
	intvec_release(&touched);
}

/* Appends the classes of locs to the pool, each once. */
static void push_classes(struct builder *b, const struct intvec *locs, unsigned char *seen)
{
	int from = b->pool.n;

	for (int i = 0; i < locs->n; i++) {
		int c = b->class_of[locs->v[i]];

		if (!seen[c]) {
			seen[c] = 1;
			intvec_push(&b->pool, c);
		}
	}
	for (int i = from; i < b->pool.n; i++)
		seen[b->pool.v[i]] = 0;
}

/*
 * The effects of every instruction, over memory classes: locations that every instruction
 * touches together or not at all are one class, so the graph needs one node where it would
 * need one per location, and loses nothing (a points-to analysis that shares its sets makes
 * few classes). Two passes: refine the partition by every effect, then record the classes.
 */
static void all_effects(struct builder *b)
{
	const struct pta *pta = b->pta;
	unsigned char *seen = xcalloc((size_t)pta->nlocs + 1, 1);
	struct intvec rd = {0}, wr = {0};

	b->class_of = xcalloc((size_t)pta->nlocs + 1, sizeof *b->class_of);
	b->class_size = xcalloc((size_t)pta->nlocs + 2, sizeof *b->class_size);
	b->hits = xcalloc((size_t)pta->nlocs + 2, sizeof *b->hits);
	b->split_to = xcalloc((size_t)pta->nlocs + 2, sizeof *b->split_to);
	b->nclasses = 1;
	b->class_size[0] = pta->nlocs;
	for (int v = 0; v < b->ninst; v++) {
		if (b->g->node[v].kind != SDG_INST)
			continue;
		raw_effects(b, v, &rd, &wr, seen);
		refine(b, &rd);
		refine(b, &wr);
	}
	for (int v = 0; v < b->ninst; v++) {
		struct effect *e = &b->eff[v];

		if (b->g->node[v].kind != SDG_INST)
			continue;
		raw_effects(b, v, &rd, &wr, seen);
		e->rd = b->pool.n;
		push_classes(b, &rd, seen);
		e->nrd = b->pool.n - e->rd;
		e->wr = b->pool.n;
		push_classes(b, &wr, seen);
		e->nwr = b->pool.n - e->wr;
	}
	b->g->nclasses = b->nclasses;
	b->g->class_loc = xmalloc(sizeof *b->g->class_loc * (size_t)(b->nclasses + 1));
	for (int loc = pta->nlocs - 1; loc >= 0; loc--)
		b->g->class_loc[b->class_of[loc]] = loc;
	free(seen);
	intvec_release(&rd);
	intvec_release(&wr);
}

/* ---- call sites -------------------------------------------------------------------------- */

static void add_callback(struct builder *b, int node, int fn)
{
	if (b->ncb == b->capcb) {
		b->capcb = b->capcb ? 2 * b->capcb : 64;
		b->cb = xrealloc(b->cb, sizeof *b->cb * (size_t)b->capcb);
	}
	b->cb[b->ncb++] = (struct callback){node, fn};
}

/* Records the program's functions a library call may call back (extmodel's callback). */
static void find_callbacks(struct builder *b, LLVMValueRef call, int node)
{
	struct sdg *g = b->g;
	const char *name = direct_callee_name(call);
	const struct extfn *ext = name ? extmodel_find(name) : NULL;
	const int *locs;
	int n;

	if (!ext || ext->callback < 0 || ext->callback >= (int)LLVMGetNumArgOperands(call))
		return;
	n = pta_points_to(b->pta, LLVMGetOperand(call, (unsigned)ext->callback), &locs);
	for (int i = 0; i < n; i++) {
		const struct pta_object *o = &b->pta->obj[b->pta->loc[locs[i]].obj];
		int k = o->kind == PTA_FUNCTION ? ptrmap_get(&g->node_of, o->site) : -1;

		if (k >= 0 && is_defined(o->site))
			add_callback(b, node, k);
	}
}

static void make_call_site(struct builder *b, int caller, LLVMValueRef call, int node)
{
	struct sdg *g = b->g;
	LLVMValueRef const *fns;
	int n = LLVMIsAInlineAsm(LLVMGetCalledValue(call)) ? 0 : pta_callees(b->pta, call, &fns);
	int ndefined = 0;
	struct sdg_call *c;

	for (int i = 0; i < n; i++)
		ndefined += is_defined(fns[i]);
	if (ndefined == 0) {
		find_callbacks(b, call, node);
		return;
	}
	g->call = xrealloc(g->call, sizeof *g->call * (size_t)(g->ncalls + 1));
	c = &g->call[g->ncalls];
	memset(c, 0, sizeof *c);
	c->call = call;
	c->fn = caller;
	c->ret = node;
	c->site = new_node(g, SDG_CALLSITE, caller, call, 0);
	c->nargs = (int)LLVMGetNumArgOperands(call);
	c->arg = xmalloc(sizeof *c->arg * (size_t)(c->nargs ? c->nargs : 1));
	for (int i = 0; i < c->nargs; i++)
		c->arg[i] = new_node(g, SDG_ACTUAL_ARG, caller, call, i);
	c->callee = xmalloc(sizeof *c->callee * (size_t)ndefined);
	for (int i = 0; i < n; i++) {
		if (is_defined(fns[i])) {
			int k = ptrmap_get(&g->node_of, fns[i]);

			c->callee[c->ncallees++] = k;
			intvec_push(&g->fn[k].callers, g->ncalls);
		}
	}
	ptrmap_put(&g->call_of, call, g->ncalls);
	g->ncalls++;
}

/* ---- mod/ref ----------------------------------------------------------------------------- */

static void direct_mod_ref(struct builder *b)
{
	struct sdg *g = b->g;

	for (int v = 0; v < b->ninst; v++) {
		const struct effect *e = &b->eff[v];
		int k = g->node[v].fn;

		for (int i = 0; i < e->nrd; i++)
			bit_set(b->ref + (size_t)k * (size_t)b->words, b->pool.v[e->rd + i]);
		for (int i = 0; i < e->nwr; i++)
			bit_set(b->mod + (size_t)k * (size_t)b->words, b->pool.v[e->wr + i]);
	}
}

/* Adds callee's mod/ref to caller's; returns whether they grew. */
static int inherit(struct builder *b, int caller, int callee)
{
	size_t w = (size_t)b->words;
	int changed = bits_or(b->mod + (size_t)caller * w, b->mod + (size_t)callee * w, b->words);

	return bits_or(b->ref + (size_t)caller * w, b->ref + (size_t)callee * w, b->words) | changed;
}

/* Mod/ref of every function, callees included, by iteration to the fixpoint. */
static void mod_ref(struct builder *b)
{
	struct sdg *g = b->g;
	int changed = 1;

	direct_mod_ref(b);
	while (changed) {
		changed = 0;
		for (int c = 0; c < g->ncalls; c++) {
			for (int i = 0; i < g->call[c].ncallees; i++)
				changed |= inherit(b, g->call[c].fn, g->call[c].callee[i]);
		}
		for (int i = 0; i < b->ncb; i++)
			changed |= inherit(b, g->node[b->cb[i].node].fn, b->cb[i].fn);
	}
}

/* A library call that calls back also reads and writes what its callbacks may. */
static void callback_effects(struct builder *b)
{
	size_t w = (size_t)b->words;

	for (int i = 0; i < b->ncb; i++) {
		struct effect *e = &b->eff[b->cb[i].node];
		const uint64_t *mod = b->mod + (size_t)b->cb[i].fn * w, *ref = b->ref + (size_t)b->cb[i].fn * w;
		int rd = b->pool.n, wr;

		for (int j = 0; j < e->nrd; j++)
			intvec_push(&b->pool, b->pool.v[e->rd + j]);
		for (int c = 0; c < b->nclasses; c++) {
			if (bit_get(ref, c) || bit_get(mod, c))
				intvec_push(&b->pool, c);
		}
		e->rd = rd;
		e->nrd = b->pool.n - rd;
		wr = b->pool.n;
		for (int j = 0; j < e->nwr; j++)
			intvec_push(&b->pool, b->pool.v[e->wr + j]);
		for (int c = 0; c < b->nclasses; c++) {
			if (bit_get(mod, c))
				intvec_push(&b->pool, c);
		}
		e->wr = wr;
		e->nwr = b->pool.n - wr;
	}
}

/* ---- relevance ---------------------------------------------------------------------------- */

/*
 * Which memory classes the criteria may depend on at all, by a coarse dependence closure
 * that ignores order and context: from the criteria, an instruction needs its operands, the
 * decisions that control its block, the writes of every class it reads (anywhere in the
 * program), the returns of the functions it calls, and (a parameter) the matching argument of
 * every call; an instruction needed in a function makes the decisions that reach its call
 * sites needed. Every dependence of the precise graph is one of these, so a class no needed
 * instruction reads needs no formal or actual node, and its accesses no edge. On the sqlite3
 * shell this is what keeps the graph to a size that fits.
 */
struct relevance {
	struct builder *b;      /* the builder */
	unsigned char *needed;  /* per instruction or parameter node */
	unsigned char *active;  /* per function: some instruction of it is needed */
	struct intvec work;     /* needed nodes to process */
	int *wstart, *writers;  /* per class, the instruction nodes writing it (CSR); owned */
	struct cdep *cd;        /* per function, its control dependences, once built; owned */
	struct cfg *cfg;        /* per function, its graph, once built; owned */
	unsigned char *built;   /* per function: cd and cfg are built */
	struct intvec *callback_sites; /* per function, library calls that may call it back */
};

static void need(struct relevance *r, int v)
{
	if (v >= 0 && !r->needed[v]) {
		r->needed[v] = 1;
		intvec_push(&r->work, v);
	}
}

static void need_value(struct relevance *r, LLVMValueRef v)
{
	if (v && (LLVMIsAInstruction(v) || LLVMIsAArgument(v)))
		need(r, sdg_node(r->b->g, v));
}

/* Needs the terminators that decide whether block of x in function k runs. */
static void need_control(struct relevance *r, int k, LLVMValueRef x)
{
	int blk;

	if (!r->built[k]) {
		cfg_build(&r->cfg[k], r->b->g->fn[k].fn);
		cdep_build(&r->cd[k], &r->cfg[k]);
		r->built[k] = 1;
	}
	blk = cfg_index(&r->cfg[k], LLVMGetInstructionParent(x));
	for (int i = 0; blk >= 0 && i < r->cd[k].ncd[blk]; i++)
		need_value(r, LLVMGetBasicBlockTerminator(r->cfg[k].block[r->cd[k].cd[blk][i]]));
}

static void activate(struct relevance *r, int k)
{
	const struct sdg *g = r->b->g;

	if (r->active[k])
		return;
	r->active[k] = 1;
	for (int i = 0; i < g->fn[k].callers.n; i++) {
		const struct sdg_call *c = &g->call[g->fn[k].callers.v[i]];

		need_control(r, c->fn, c->call);
		need_value(r, LLVMGetCalledValue(c->call));
	}
	for (int i = 0; i < r->callback_sites[k].n; i++)
		need(r, r->callback_sites[k].v[i]);
}

/* Needs the return instructions of function k. */
static void need_returns(struct relevance *r, int k)
{
	LLVMValueRef fn = r->b->g->fn[k].fn;

	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
		LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);

		if (t && LLVMIsAReturnInst(t))
			need_value(r, t);
	}
}

static void process_param(struct relevance *r, int v)
{
	const struct sdg *g = r->b->g;
	const struct sdg_fn *f = &g->fn[g->node[v].fn];
	int i = g->node[v].aux;

	activate(r, g->node[v].fn);
	for (int j = 0; j < f->callers.n; j++) {
		const struct sdg_call *c = &g->call[f->callers.v[j]];

		for (int a = i; a < c->nargs && (a == i || i == f->nparams); a++)
			need_value(r, LLVMGetOperand(c->call, (unsigned)a));
	}
	for (int j = 0; j < r->callback_sites[g->node[v].fn].n; j++)
		need(r, r->callback_sites[g->node[v].fn].v[j]);
}

static void process_instruction(struct relevance *r, int v)
{
	struct builder *b = r->b;
	const struct sdg *g = b->g;
	LLVMValueRef x = g->node[v].v;
	int k = g->node[v].fn, ci = ptrmap_get(&g->call_of, x);
	const struct effect *e = &b->eff[v];

	activate(r, k);
	need_control(r, k, x);
	if (ci >= 0) {
		for (int j = 0; j < g->call[ci].ncallees; j++)
			need_returns(r, g->call[ci].callee[j]);
		need_value(r, LLVMGetCalledValue(x));
	} else {
		for (int i = 0; i < LLVMGetNumOperands(x); i++)
			need_value(r, LLVMGetOperand(x, (unsigned)i));
	}
	if (LLVMIsAPHINode(x)) {
		for (unsigned i = 0; i < LLVMCountIncoming(x); i++)
			need_value(r, LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(x, i)));
	}
	for (int i = 0; i < e->nrd; i++) {
		int c = b->pool.v[e->rd + i];

		if (b->relevant[c])
			continue;
		b->relevant[c] = 1;
		for (int w = r->wstart[c]; w < r->wstart[c + 1]; w++)
			need(r, r->writers[w]);
	}
}

/* Fills b->relevant from the criteria (all classes if there are none). */
static void relevance(struct builder *b, LLVMValueRef const *criteria, int ncriteria)
{
	struct sdg *g = b->g;
	struct relevance r = {.b = b};
	int *fill;

	b->relevant = xcalloc((size_t)b->nclasses + 1, 1);
	if (ncriteria == 0) {
		memset(b->relevant, 1, (size_t)b->nclasses);
		return;
	}
	r.needed = xcalloc((size_t)g->n + 1, 1);
	r.active = xcalloc((size_t)g->nfns + 1, 1);
	r.built = xcalloc((size_t)g->nfns + 1, 1);
	r.cd = xcalloc((size_t)g->nfns + 1, sizeof *r.cd);
	r.cfg = xcalloc((size_t)g->nfns + 1, sizeof *r.cfg);
	r.callback_sites = xcalloc((size_t)g->nfns + 1, sizeof *r.callback_sites);
	for (int i = 0; i < b->ncb; i++)
		intvec_push(&r.callback_sites[b->cb[i].fn], b->cb[i].node);
	r.wstart = xcalloc((size_t)b->nclasses + 2, sizeof *r.wstart);
	for (int v = 0; v < b->ninst; v++) {
		for (int i = 0; i < b->eff[v].nwr; i++)
			r.wstart[b->pool.v[b->eff[v].wr + i] + 1]++;
	}
	for (int c = 0; c < b->nclasses; c++)
		r.wstart[c + 1] += r.wstart[c];
	fill = xmalloc(sizeof *fill * (size_t)(b->nclasses + 1));
	memcpy(fill, r.wstart, sizeof *fill * (size_t)(b->nclasses + 1));
	r.writers = xmalloc(sizeof *r.writers * (size_t)(r.wstart[b->nclasses] + 1));
	for (int v = 0; v < b->ninst; v++) {
		for (int i = 0; i < b->eff[v].nwr; i++)
			r.writers[fill[b->pool.v[b->eff[v].wr + i]]++] = v;
	}
	free(fill);
	for (int i = 0; i < ncriteria; i++)
		need_value(&r, criteria[i]);
	while (r.work.n > 0) {
		int v = r.work.v[--r.work.n];

		if (g->node[v].kind == SDG_PARAM)
			process_param(&r, v);
		else if (g->node[v].kind == SDG_INST)
			process_instruction(&r, v);
	}
	for (int k = 0; k < g->nfns; k++) {
		if (r.built[k]) {
			cdep_release(&r.cd[k]);
			cfg_release(&r.cfg[k]);
		}
		intvec_release(&r.callback_sites[k]);
	}
	free(r.callback_sites);
	free(r.cd);
	free(r.cfg);
	free(r.built);
	free(r.needed);
	free(r.active);
	free(r.wstart);
	free(r.writers);
	intvec_release(&r.work);
}

static void make_formals_and_actuals(struct builder *b)
{
	struct sdg *g = b->g;
	size_t w = (size_t)b->words;
	uint64_t *set = xmalloc(sizeof *set * w);

	for (size_t i = 0; i < (size_t)g->nfns * w; i++) { /* only what a criterion may need */
		for (int bit = 0; bit < 64; bit++) {
			int c = (int)((i % w) * 64) + bit;

			if (c >= b->nclasses || !b->relevant[c]) {
				b->mod[i] &= ~((uint64_t)1 << bit);
				b->ref[i] &= ~((uint64_t)1 << bit);
			}
		}
	}
	for (int k = 0; k < g->nfns; k++) {
		memcpy(set, b->mod + k * w, sizeof *set * w);
		bits_or(set, b->ref + k * w, b->words);
		locs_make(g, &g->fn[k].in, set, b->words, SDG_FORMAL_IN, k, g->fn[k].fn);
		locs_make(g, &g->fn[k].out, b->mod + k * w, b->words, SDG_FORMAL_OUT, k, g->fn[k].fn);
	}
	for (int c = 0; c < g->ncalls; c++) {
		struct sdg_call *call = &g->call[c];
		uint64_t *out = xcalloc(w, sizeof *out);

		memset(set, 0, sizeof *set * w);
		for (int i = 0; i < call->ncallees; i++) {
			bits_or(set, b->mod + (size_t)call->callee[i] * w, b->words);
			bits_or(set, b->ref + (size_t)call->callee[i] * w, b->words);
			bits_or(out, b->mod + (size_t)call->callee[i] * w, b->words);
		}
		locs_make(g, &call->in, set, b->words, SDG_ACTUAL_IN, call->fn, call->call);
		locs_make(g, &call->out, out, b->words, SDG_ACTUAL_OUT, call->fn, call->call);
		free(out);
	}
	free(set);
}

/* ---- intraprocedural edges --------------------------------------------------------------- */

/* A read or write of a location at a point of a function. */
struct access {
	int loc;   /* the location */
	int node;  /* the node that reads or writes it */
	int block; /* its block, -1 for the function's entry (formal-in) or exit (formal-out) */
	int order; /* its block's reverse-postorder number, -1 if none or unreachable */
	int pos;   /* its position in the block: 2 * instruction number, + 1 for a write */
	int write; /* 1 for a write */
};

/* Everything one function's edge building needs. */
struct fn_edges {
	struct builder *b;     /* the builder */
	int k;                 /* the function */
	struct cfg cfg;        /* its graph */
	struct cdep cd;        /* its control dependences */
	int words;             /* words of a block bitset */
	uint64_t *reach;       /* per block, the blocks a path of one edge or more reaches; owned */
	unsigned char *returns;/* per block: it is or reaches a block ending in ret (a write there can
				  reach the caller; one only followed by exit or abort cannot); owned */
	struct access *acc;    /* its memory accesses; owned */
	int nacc, capacc;
	struct intvec pairs;   /* memory edges found, (src, dst) pairs */
};

static void add_access(struct fn_edges *fe, int loc, int node, int block, int pos, int write)
{
	if (!fe->b->relevant[loc])
		return;
	if (fe->nacc == fe->capacc) {
		fe->capacc = fe->capacc ? 2 * fe->capacc : 256;
		fe->acc = xrealloc(fe->acc, sizeof *fe->acc * (size_t)fe->capacc);
	}
	fe->acc[fe->nacc++] = (struct access){loc, node, block,
					      block >= 0 ? fe->cfg.rpo_number[block] : -1, pos, write};
}

/* reach[b] = union over successors s of {s} u reach[s], iterated to the fixpoint. */
static void block_reachability(struct fn_edges *fe)
{
	const struct cfg *cfg = &fe->cfg;
	int changed = 1;
	int *ret_blocks = xmalloc(sizeof *ret_blocks * (size_t)(cfg->n + 1)), nret = 0;

	fe->words = (cfg->n + 63) / 64;
	fe->reach = xcalloc((size_t)cfg->n * (size_t)fe->words + 1, sizeof *fe->reach);
	while (changed) {
		changed = 0;
		for (int i = cfg->nrpo - 1; i >= 0; i--) {
			int k = cfg->rpo[i];
			uint64_t *r = fe->reach + (size_t)k * (size_t)fe->words;

			for (int s = 0; s < cfg->nsucc[k]; s++) {
				int t = cfg->succ[k][s];

				changed |= bit_set(r, t);
				changed |= bits_or(r, fe->reach + (size_t)t * (size_t)fe->words, fe->words);
			}
		}
	}
	for (int k = 0; k < cfg->n; k++) {
		if (LLVMIsAReturnInst(LLVMGetBasicBlockTerminator(cfg->block[k])))
			ret_blocks[nret++] = k;
	}
	fe->returns = xcalloc((size_t)cfg->n + 1, 1);
	for (int k = 0; k < cfg->n; k++) {
		fe->returns[k] = fe->b->longjmps; /* a longjmp goes on in a caller */
		for (int i = 0; i < nret && !fe->returns[k]; i++)
			fe->returns[k] = k == ret_blocks[i] ||
					 bit_get(fe->reach + (size_t)k * (size_t)fe->words, ret_blocks[i]);
	}
	free(ret_blocks);
}

/* Returns whether write w can reach read r without leaving the function. */
static int reaches(const struct fn_edges *fe, const struct access *w, const struct access *r)
{
	if (w->block < 0)
		return 1; /* the formal-in reaches everything */
	if (r->block < 0)
		return fe->returns[w->block]; /* the formal-out: what a return can follow */
	if (w->block == r->block && w->pos < r->pos)
		return 1;
	return bit_get(fe->reach + (size_t)w->block * (size_t)fe->words, r->block);
}

/* The node whose decision controls block k: its controllers' terminators, or the entry. */
static void control_edges(struct fn_edges *fe, int k, int node)
{
	struct sdg *g = fe->b->g;

	if (fe->cd.ncd[k] == 0) {
		add_edge(g, g->fn[fe->k].entry, node, SDG_CONTROL);
		return;
	}
	for (int i = 0; i < fe->cd.ncd[k]; i++)
		add_edge(g, sdg_node(g, LLVMGetBasicBlockTerminator(fe->cfg.block[fe->cd.cd[k][i]])), node,
			 SDG_CONTROL);
}

/* The edges of an instruction's own operands (a call of defined functions: to its arguments). */
static void operand_edges(struct sdg *g, LLVMValueRef x, int node, const struct sdg_call *call)
{
	int nops = LLVMGetNumOperands(x);

	for (int i = 0; i < nops; i++) {
		LLVMValueRef op = LLVMGetOperand(x, (unsigned)i);
		int src = op && (LLVMIsAInstruction(op) || LLVMIsAArgument(op)) ? sdg_node(g, op) : -1;

		if (src < 0)
			continue;
		if (!call)
			add_edge(g, src, node, SDG_DATA);
		else if (i < call->nargs)
			add_edge(g, src, call->arg[i], SDG_DATA);
		else
			add_edge(g, src, call->site, SDG_DATA); /* the called pointer */
	}
	if (LLVMIsAPHINode(x)) {
		for (unsigned i = 0; i < LLVMCountIncoming(x); i++)
			add_edge(g, sdg_node(g, LLVMGetBasicBlockTerminator(LLVMGetIncomingBlock(x, i))), node,
				 SDG_DATA);
	}
}

/* A call site's nodes: controlled by its block, its parts by the call-site node, and its
 * memory reads and writes recorded. */
static void call_site_edges(struct fn_edges *fe, const struct sdg_call *c, int k, int pos)
{
	struct sdg *g = fe->b->g;

	control_edges(fe, k, c->site);
	add_edge(g, c->site, c->ret, SDG_CONTROL);
	for (int i = 0; i < c->nargs; i++)
		add_edge(g, c->site, c->arg[i], SDG_CONTROL);
	for (int i = 0; i < c->in.n; i++) {
		add_edge(g, c->site, c->in.node[i], SDG_CONTROL);
		add_access(fe, c->in.loc[i], c->in.node[i], k, 2 * pos, 0);
	}
	for (int i = 0; i < c->out.n; i++) {
		add_edge(g, c->site, c->out.node[i], SDG_CONTROL);
		add_access(fe, c->out.loc[i], c->out.node[i], k, 2 * pos + 1, 1);
	}
}

static void instruction_edges(struct fn_edges *fe, int k, LLVMValueRef x, int pos)
{
	struct sdg *g = fe->b->g;
	int node = sdg_node(g, x), ci = ptrmap_get(&g->call_of, x);
	const struct sdg_call *call = ci >= 0 ? &g->call[ci] : NULL;
	const struct effect *e = &fe->b->eff[node];
	const struct sdg_fn *f = &g->fn[fe->k];

	operand_edges(g, x, node, call);
	if (call) {
		call_site_edges(fe, call, k, pos);
	} else {
		control_edges(fe, k, node);
	}
	for (int i = 0; i < e->nrd; i++)
		add_access(fe, fe->b->pool.v[e->rd + i], node, k, 2 * pos, 0);
	for (int i = 0; i < e->nwr; i++)
		add_access(fe, fe->b->pool.v[e->wr + i], node, k, 2 * pos + 1, 1);
	if (LLVMIsAReturnInst(x) && f->retval >= 0)
		add_edge(g, node, f->retval, SDG_DATA);
	if (f->param[f->nparams] >= 0 && LLVMIsACallInst(x) && direct_callee_name(x) &&
	    strncmp(direct_callee_name(x), "llvm.va_start", 13) == 0)
		add_edge(g, f->param[f->nparams], node, SDG_DATA);
}

static int compare_access(const void *a, const void *b)
{
	const struct access *x = a, *y = b;

	if (x->loc != y->loc)
		return x->loc < y->loc ? -1 : 1;
	return x->write - y->write;
}

/* Reads times writes of one class in one function above which the states of memory_states
 * replace the read-write pairs. */
enum { PAIRS_MAX = 256 };

/* Every write of one class that can reach a read of it, as (write, read) pairs: acc[lo..hi),
 * reads first. */
static void memory_pairs(struct fn_edges *fe, int lo, int firstw, int hi)
{
	for (int r = lo; r < firstw; r++) {
		for (int w = firstw; w < hi; w++) {
			if (reaches(fe, &fe->acc[w], &fe->acc[r])) {
				intvec_push(&fe->pairs, fe->acc[w].node);
				intvec_push(&fe->pairs, fe->acc[r].node);
			}
		}
	}
}

static int compare_order_pos(const void *a, const void *b)
{
	const struct access *x = a, *y = b;

	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

/*
 * The same dependences through memory-state nodes, linear in accesses and blocks instead of
 * reads times writes: the class's state at a block's entry is its predecessor's state at its
 * end (a join node where a block has several); a read depends on the current state, a write
 * makes a new state from itself and the old one (a weak update), the formal-in is the entry's
 * state and the formal-out depends on every exit's. Exactly the pairs' reachability, since
 * nothing is killed.
 */
static void memory_states(struct fn_edges *fe, int lo, int hi)
{
	struct sdg *g = fe->b->g;
	const struct cfg *cfg = &fe->cfg;
	int cls = fe->acc[lo].loc, fin = -1, fout = -1, a;
	int *in = xmalloc(sizeof *in * (size_t)cfg->n), *out = xmalloc(sizeof *out * (size_t)cfg->n);

	for (int i = lo; i < hi; i++) {
		if (fe->acc[i].block < 0)
			*(fe->acc[i].write ? &fin : &fout) = fe->acc[i].node;
	}
	qsort(fe->acc + lo, (size_t)(hi - lo), sizeof *fe->acc, compare_order_pos);
	a = lo;
	while (a < hi && fe->acc[a].order < 0)
		a++; /* formals, and accesses in blocks the entry does not reach */
	for (int i = 0; i < cfg->nrpo; i++) {
		int b = cfg->rpo[i], cur;

		if (i == 0)
			cur = fin;
		else if (cfg->npred[b] == 1)
			cur = out[cfg->pred[b][0]];
		else
			cur = new_node(g, SDG_MEMORY, fe->k, NULL, cls);
		in[b] = cur;
		for (; a < hi && fe->acc[a].order == i; a++) {
			const struct access *x = &fe->acc[a];

			if (!x->write) {
				add_edge(g, cur, x->node, SDG_DATA);
				continue;
			}
			if (cur >= 0) {
				int state = new_node(g, SDG_MEMORY, fe->k, NULL, cls);

				add_edge(g, cur, state, SDG_DATA);
				add_edge(g, x->node, state, SDG_DATA);
				cur = state;
			} else {
				cur = x->node;
			}
		}
		out[b] = cur;
	}
	for (int i = 1; i < cfg->nrpo; i++) {
		int b = cfg->rpo[i];

		if (cfg->npred[b] > 1) {
			for (int p = 0; p < cfg->npred[b]; p++) {
				if (cfg->rpo_number[cfg->pred[b][p]] >= 0)
					add_edge(g, out[cfg->pred[b][p]], in[b], SDG_DATA);
			}
		}
		if (LLVMIsAReturnInst(LLVMGetBasicBlockTerminator(cfg->block[b])))
			add_edge(g, out[b], fout, SDG_DATA);
	}
	if (cfg->nrpo > 0 && LLVMIsAReturnInst(LLVMGetBasicBlockTerminator(cfg->block[cfg->rpo[0]])))
		add_edge(g, out[cfg->rpo[0]], fout, SDG_DATA);
	free(in);
	free(out);
}

/* Memory edges, per class: every write that can reach a read, directly or through states. */
static void memory_edges(struct fn_edges *fe)
{
	const struct sdg_fn *f = &fe->b->g->fn[fe->k];

	for (int i = 0; i < f->in.n; i++)
		add_access(fe, f->in.loc[i], f->in.node[i], -1, 0, 1);
	for (int i = 0; i < f->out.n; i++)
		add_access(fe, f->out.loc[i], f->out.node[i], -1, 0, 0);
	if (fe->nacc > 0)
		qsort(fe->acc, (size_t)fe->nacc, sizeof *fe->acc, compare_access);
	for (int lo = 0, hi; lo < fe->nacc; lo = hi) {
		int firstw;

		for (hi = lo; hi < fe->nacc && fe->acc[hi].loc == fe->acc[lo].loc; hi++)
			;
		for (firstw = lo; firstw < hi && !fe->acc[firstw].write; firstw++)
			;
		if ((long)(firstw - lo) * (hi - firstw) <= PAIRS_MAX)
			memory_pairs(fe, lo, firstw, hi);
		else
			memory_states(fe, lo, hi);
	}
}

static int compare_pair(const void *a, const void *b)
{
	const int *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

static void function_edges(struct builder *b, int k)
{
	struct sdg *g = b->g;
	struct fn_edges fe = {.b = b, .k = k};
	int npairs;

	cfg_build(&fe.cfg, g->fn[k].fn);
	cdep_build(&fe.cd, &fe.cfg);
	block_reachability(&fe);
	for (int i = 0; i < fe.cfg.n; i++) {
		int pos = 0;

		for (LLVMValueRef x = LLVMGetFirstInstruction(fe.cfg.block[i]); x; x = LLVMGetNextInstruction(x))
			instruction_edges(&fe, i, x, pos++);
	}
	for (int i = 0; i < g->fn[k].nparams + 1; i++)
		add_edge(g, g->fn[k].entry, g->fn[k].param[i], SDG_CONTROL);
	add_edge(g, g->fn[k].entry, g->fn[k].retval, SDG_CONTROL);
	for (int i = 0; i < g->fn[k].in.n; i++)
		add_edge(g, g->fn[k].entry, g->fn[k].in.node[i], SDG_CONTROL);
	for (int i = 0; i < g->fn[k].out.n; i++)
		add_edge(g, g->fn[k].entry, g->fn[k].out.node[i], SDG_CONTROL);
	memory_edges(&fe);
	npairs = fe.pairs.n / 2;
	if (npairs > 0)
		qsort(fe.pairs.v, (size_t)npairs, 2 * sizeof *fe.pairs.v, compare_pair);
	for (int i = 0; i < npairs; i++) {
		if (i > 0 && compare_pair(fe.pairs.v + 2 * i, fe.pairs.v + 2 * (i - 1)) == 0)
			continue;
		add_edge(g, fe.pairs.v[2 * i], fe.pairs.v[2 * i + 1], SDG_DATA);
	}
	intvec_release(&fe.pairs);
	free(fe.acc);
	free(fe.reach);
	free(fe.returns);
	cdep_release(&fe.cd);
	cfg_release(&fe.cfg);
}

/* ---- interprocedural edges --------------------------------------------------------------- */

/* The formal of callee's parameter i (its varargs beyond its parameters), or -1. */
static int formal_param(const struct sdg_fn *f, int i)
{
	return i < f->nparams ? f->param[i] : f->param[f->nparams];
}

static void call_edges(struct sdg *g)
{
	for (int c = 0; c < g->ncalls; c++) {
		const struct sdg_call *call = &g->call[c];

		for (int j = 0; j < call->ncallees; j++) {
			const struct sdg_fn *f = &g->fn[call->callee[j]];

			add_edge(g, call->site, f->entry, SDG_CALL);
			for (int i = 0; i < call->nargs; i++)
				add_edge(g, call->arg[i], formal_param(f, i), SDG_PARAM_IN);
			for (int i = 0; i < f->in.n; i++)
				add_edge(g, locs_find(&call->in, f->in.loc[i]), f->in.node[i], SDG_PARAM_IN);
			for (int i = 0; i < f->out.n; i++)
				add_edge(g, f->out.node[i], locs_find(&call->out, f->out.loc[i]), SDG_PARAM_OUT);
			add_edge(g, f->retval, call->ret, SDG_PARAM_OUT);
		}
	}
}

/* A library call that calls back is its callback's call site, all its parts in one node. */
static void callback_edges(struct builder *b)
{
	struct sdg *g = b->g;

	for (int i = 0; i < b->ncb; i++) {
		const struct sdg_fn *f = &g->fn[b->cb[i].fn];
		int node = b->cb[i].node;

		add_edge(g, node, f->entry, SDG_CALL);
		for (int p = 0; p <= f->nparams; p++)
			add_edge(g, node, f->param[p], SDG_PARAM_IN);
		for (int p = 0; p < f->in.n; p++)
			add_edge(g, node, f->in.node[p], SDG_PARAM_IN);
		for (int p = 0; p < f->out.n; p++)
			add_edge(g, f->out.node[p], node, SDG_PARAM_OUT);
		add_edge(g, f->retval, node, SDG_PARAM_OUT);
	}
}

/* ---- summary edges ----------------------------------------------------------------------- */

/*
 * Summary edges: actual-in -> actual-out wherever the matching formal-in reaches the formal-out
 * through the callee's own edges (data, control, and the summaries of its calls). The set is
 * that of the worklist algorithm of Reps, Horwitz, Sagiv and Rosay, computed per function with
 * bitsets: every node of f gets the set of f's formal-outs it reaches, propagated backwards to
 * the fixpoint, and the formal-ins' sets give the summaries at every call site of f. Functions
 * go callees first; a function gains summaries only from its callees, so it is done again
 * when one of its call sites gained some (recursion), until nothing changes.
 */

/* The formal-outs of one function and the nodes of every function. */
struct summary {
	struct sdg *g;         /* the graph */
	struct intvec *nodes;  /* per function, its nodes; owned */
	int *fo_index;         /* per node, 0 if it is a formal-out (returned value or memory), else -1; owned */
	unsigned char *dirty;  /* per function: to be done (again); owned */
};

/* The actual-out of call site c that matches formal-out fo, or -1. */
static int actual_out(const struct sdg *g, const struct sdg_call *c, int fo)
{
	return g->node[fo].kind == SDG_RETVAL ? c->ret : locs_find(&c->out, g->node[fo].aux);
}

/* Adds the summary edge ai -> ao if it is new; returns whether it was. */
static int add_summary(struct sdg *g, struct ptrmap *seen, int ai, int ao)
{
	const void *key = (const void *)(uintptr_t)((((uint64_t)(uint32_t)ai << 32) | (uint32_t)ao) + 1);

	if (ai < 0 || ao < 0 || ptrmap_get(seen, key) >= 0)
		return 0;
	ptrmap_put(seen, key, 0);
	add_edge(g, ai, ao, SDG_SUMMARY);
	g->nsummary++;
	return 1;
}

/* The formal-outs function k's formal-in fi reaches: reach, over the function's formal-outs. */
static void summarise_formal(struct summary *s, struct ptrmap *seen, int fi, const uint64_t *reach,
			     const int *fos, int nfo)
{
	struct sdg *g = s->g;
	const struct sdg_fn *f = &g->fn[g->node[fi].fn];

	for (int i = 0; i < f->callers.n; i++) {
		const struct sdg_call *c = &g->call[f->callers.v[i]];
		int added = 0;

		for (int o = 0; o < nfo; o++) {
			int ao;

			if (!bit_get(reach, o) || (ao = actual_out(g, c, fos[o])) < 0)
				continue;
			if (g->node[fi].kind == SDG_FORMAL_IN) {
				added |= add_summary(g, seen, locs_find(&c->in, g->node[fi].aux), ao);
				continue;
			}
			for (int a = 0; a < c->nargs; a++) {
				if (formal_param(f, a) == fi)
					added |= add_summary(g, seen, c->arg[a], ao);
			}
		}
		if (added)
			s->dirty[c->fn] = 1;
	}
}

/* Propagates function k's formal-out sets backwards and adds the summaries of its formal-ins. */
static void summarise_function(struct summary *s, struct ptrmap *seen, int k)
{
	struct sdg *g = s->g;
	const struct intvec *nodes = &s->nodes[k];
	int nfo = 0, words, *fos = xmalloc(sizeof *fos * (size_t)(nodes->n + 1));
	struct ptrmap local = {0};
	struct intvec work = {0};
	uint64_t *reach;

	for (int i = 0; i < nodes->n; i++) {
		int v = nodes->v[i];

		ptrmap_put(&local, (const void *)(uintptr_t)(v + 1), i);
		if (s->fo_index[v] >= 0)
			fos[nfo++] = v;
	}
	words = (nfo + 63) / 64 + 1;
	reach = xcalloc((size_t)nodes->n * (size_t)words + 1, sizeof *reach);
	for (int o = 0; o < nfo; o++) {
		int i = ptrmap_get(&local, (const void *)(uintptr_t)(fos[o] + 1));

		bit_set(reach + (size_t)i * (size_t)words, o);
		intvec_push(&work, i);
	}
	while (work.n > 0) {
		int i = work.v[--work.n], v = nodes->v[i];

		for (int e = g->node[v].in; e >= 0; e = g->edge[e].next) {
			int kind = g->edge[e].kind, j;

			if (kind != SDG_DATA && kind != SDG_CONTROL && kind != SDG_SUMMARY)
				continue;
			j = ptrmap_get(&local, (const void *)(uintptr_t)(g->edge[e].src + 1));
			if (j >= 0 && bits_or(reach + (size_t)j * (size_t)words, reach + (size_t)i * (size_t)words, words))
				intvec_push(&work, j);
		}
	}
	for (int i = 0; i < nodes->n; i++) {
		int kind = g->node[nodes->v[i]].kind;

		if (kind == SDG_PARAM || kind == SDG_FORMAL_IN)
			summarise_formal(s, seen, nodes->v[i], reach + (size_t)i * (size_t)words, fos, nfo);
	}
	free(reach);
	free(fos);
	intvec_release(&work);
	ptrmap_release(&local);
}

/* Appends the functions in callees-first order (depth-first postorder over call sites). */
static void callees_first(const struct sdg *g, int k, unsigned char *visited, struct intvec *order)
{
	struct intvec stack = {0}, next = {0};

	visited[k] = 1;
	intvec_push(&stack, k);
	intvec_push(&next, 0);
	while (stack.n > 0) {
		int f = stack.v[stack.n - 1], advanced = 0;

		while (next.v[next.n - 1] < g->ncalls && !advanced) {
			const struct sdg_call *c = &g->call[next.v[next.n - 1]++];

			if (c->fn != f)
				continue;
			for (int j = 0; j < c->ncallees && !advanced; j++) {
				if (!visited[c->callee[j]]) {
					visited[c->callee[j]] = 1;
					intvec_push(&stack, c->callee[j]);
					intvec_push(&next, 0);
					advanced = 1;
				}
			}
		}
		if (advanced)
			continue;
		intvec_push(order, f);
		stack.n--;
		next.n--;
	}
	intvec_release(&stack);
	intvec_release(&next);
}

static void summary_edges(struct sdg *g)
{
	struct summary s = {.g = g};
	struct ptrmap seen = {0};
	struct intvec order = {0};
	unsigned char *visited = xcalloc((size_t)g->nfns + 1, 1);
	int again = 1;

	s.nodes = xcalloc((size_t)g->nfns + 1, sizeof *s.nodes);
	s.fo_index = xmalloc(sizeof *s.fo_index * (size_t)g->n);
	s.dirty = xmalloc((size_t)g->nfns + 1);
	memset(s.dirty, 1, (size_t)g->nfns + 1);
	for (int v = 0; v < g->n; v++) {
		intvec_push(&s.nodes[g->node[v].fn], v);
		s.fo_index[v] = g->node[v].kind == SDG_RETVAL || g->node[v].kind == SDG_FORMAL_OUT ? 0 : -1;
	}
	for (int k = 0; k < g->nfns; k++) {
		if (!visited[k])
			callees_first(g, k, visited, &order);
	}
	while (again) {
		again = 0;
		for (int i = 0; i < order.n; i++) {
			int k = order.v[i];

			if (!s.dirty[k])
				continue;
			s.dirty[k] = 0;
			summarise_function(&s, &seen, k);
			again = 1;
		}
	}
	for (int k = 0; k < g->nfns; k++)
		intvec_release(&s.nodes[k]);
	free(s.nodes);
	free(s.fo_index);
	free(s.dirty);
	free(visited);
	intvec_release(&order);
	ptrmap_release(&seen);
}

/* ---- building ---------------------------------------------------------------------------- */

int sdg_build(struct sdg *g, LLVMModuleRef mod, const struct pta *pta,
	      LLVMValueRef const *criteria, int ncriteria, struct error *err)
{
	struct builder b = {.g = g, .pta = pta};
	int ninst_nodes;

	memset(g, 0, sizeof *g);
	g->pta = pta;
	b.td = LLVMCreateTargetData(LLVMGetDataLayoutStr(mod));
	for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
		if (!is_defined(fn))
			continue;
		g->fn = xrealloc(g->fn, sizeof *g->fn * (size_t)(g->nfns + 1));
		memset(&g->fn[g->nfns], 0, sizeof *g->fn);
		g->fn[g->nfns].fn = fn;
		ptrmap_put(&g->node_of, fn, g->nfns++);
	}
	if (g->nfns == 0) {
		LLVMDisposeTargetData(b.td);
		return error_set(err, "the program defines no function");
	}
	for (int k = 0; k < g->nfns; k++)
		make_function_nodes(g, k);
	ninst_nodes = b.ninst = g->n;
	for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn && !b.longjmps; fn = LLVMGetNextFunction(fn)) {
		size_t len;
		const char *name = LLVMGetValueName2(fn, &len);

		b.longjmps = LLVMIsDeclaration(fn) && strstr(name, "setjmp") != NULL && LLVMGetFirstUse(fn);
	}
	b.eff = xcalloc((size_t)ninst_nodes, sizeof *b.eff);
	all_effects(&b);
	for (int v = 0; v < ninst_nodes; v++) {
		LLVMValueRef x = g->node[v].v;

		if (g->node[v].kind == SDG_INST && (LLVMIsACallInst(x) || LLVMIsAInvokeInst(x)))
			make_call_site(&b, g->node[v].fn, x, v);
	}
	b.words = (b.nclasses + 63) / 64 + 1;
	b.mod = xcalloc((size_t)g->nfns * (size_t)b.words, sizeof *b.mod);
	b.ref = xcalloc((size_t)g->nfns * (size_t)b.words, sizeof *b.ref);
	mod_ref(&b);
	callback_effects(&b);
	relevance(&b, criteria, ncriteria);
	make_formals_and_actuals(&b);
	for (int k = 0; k < g->nfns; k++)
		function_edges(&b, k);
	call_edges(g);
	callback_edges(&b);
	summary_edges(g);
	LLVMDisposeTargetData(b.td);
	free(b.mod);
	free(b.ref);
	free(b.eff);
	free(b.class_of);
	free(b.class_size);
	free(b.hits);
	free(b.split_to);
	free(b.relevant);
	free(b.cb);
	intvec_release(&b.pool);
	intvec_release(&b.escaped);
	return 0;
}

/* ---- slicing ----------------------------------------------------------------------------- */

enum { PASS1 = 1, PASS2 = 2 }; /* mark bits: the node's edges were followed in that pass */

/* Follows edges backwards from the nodes in work (already marked with bit) for one pass. */
static void traverse(const struct sdg *g, unsigned char *mark, struct intvec *work, int bit)
{
	while (work->n > 0) {
		int v = work->v[--work->n];

		for (int e = g->node[v].in; e >= 0; e = g->edge[e].next) {
			int kind = g->edge[e].kind, u = g->edge[e].src;

			if (bit == PASS1 ? kind == SDG_PARAM_OUT : (kind == SDG_CALL || kind == SDG_PARAM_IN))
				continue;
			if (!(mark[u] & bit)) {
				mark[u] |= (unsigned char)bit;
				intvec_push(work, u);
			}
		}
	}
}

/* Both passes from the nodes in work (marked for pass 1 by the caller). */
static void two_passes(const struct sdg *g, unsigned char *mark, struct intvec *work)
{
	traverse(g, mark, work, PASS1);
	for (int v = 0; v < g->n; v++) {
		if ((mark[v] & PASS1) && !(mark[v] & PASS2)) {
			mark[v] |= PASS2;
			intvec_push(work, v);
		}
	}
	traverse(g, mark, work, PASS2);
}

/*
 * Marks the actual-ins of kept call sites whose formal-ins are marked (for the second pass);
 * returns how many.
 */
static int match_actuals(const struct sdg *g, unsigned char *mark, struct intvec *work)
{
	for (int c = 0; c < g->ncalls; c++) {
		const struct sdg_call *call = &g->call[c];

		if (!mark[call->site])
			continue;
		for (int j = 0; j < call->ncallees; j++) {
			const struct sdg_fn *f = &g->fn[call->callee[j]];

			for (int i = 0; i < call->nargs; i++) {
				int fp = formal_param(f, i);

				if (fp >= 0 && mark[fp] && !mark[call->arg[i]]) {
					mark[call->arg[i]] = PASS2;
					intvec_push(work, call->arg[i]);
				}
			}
			for (int i = 0; i < f->in.n; i++) {
				int ai = locs_find(&call->in, f->in.loc[i]);

				if (mark[f->in.node[i]] && ai >= 0 && !mark[ai]) {
					mark[ai] = PASS2;
					intvec_push(work, ai);
				}
			}
		}
	}
	return work->n;
}

/*
 * The matched actual-ins are sliced by the second pass only: the caller runs only where its
 * kept call sites call it, and those get their own matched actual-ins in the next round;
 * ascending to every caller, as the first pass does for a criterion, would keep call sites
 * the slice does not need.
 */
int sdg_slice(const struct sdg *g, const int *criteria, int ncriteria, unsigned char *mark)
{
	struct intvec work = {0};
	int n = 0;

	for (int i = 0; i < ncriteria; i++) {
		if (criteria[i] >= 0 && !(mark[criteria[i]] & PASS1)) {
			mark[criteria[i]] |= PASS1;
			intvec_push(&work, criteria[i]);
		}
	}
	two_passes(g, mark, &work);
	while (match_actuals(g, mark, &work) > 0)
		traverse(g, mark, &work, PASS2);
	intvec_release(&work);
	for (int v = 0; v < g->n; v++)
		n += mark[v] != 0;
	return n;
}

int sdg_kept(const struct sdg *g, const unsigned char *mark, LLVMValueRef x)
{
	int v = sdg_node(g, x), c = ptrmap_get(&g->call_of, x);

	return (v >= 0 && mark[v]) || (c >= 0 && mark[g->call[c].site]);
}

int sdg_arg_kept(const struct sdg *g, const unsigned char *mark, LLVMValueRef x, unsigned i)
{
	int c = ptrmap_get(&g->call_of, x);

	return c < 0 || (int)i >= g->call[c].nargs || mark[g->call[c].arg[i]];
}

void sdg_release(struct sdg *g)
{
	for (int k = 0; k < g->nfns; k++) {
		free(g->fn[k].param);
		locs_release(&g->fn[k].in);
		locs_release(&g->fn[k].out);
		intvec_release(&g->fn[k].callers);
	}
	for (int c = 0; c < g->ncalls; c++) {
		free(g->call[c].arg);
		free(g->call[c].callee);
		locs_release(&g->call[c].in);
		locs_release(&g->call[c].out);
	}
	free(g->fn);
	free(g->call);
	free(g->node);
	free(g->edge);
	free(g->class_loc);
	ptrmap_release(&g->node_of);
	ptrmap_release(&g->call_of);
	memset(g, 0, sizeof *g);
}
