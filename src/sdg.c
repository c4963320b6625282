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
 *                works on classes (as precise, and far smaller where points-to sets are big).
 *                Past a budget of accessed locations, the widest accesses are "wide": they
 *                touch a pair of pseudo classes standing for all they may reach (all_effects)
 *   call sites   per call of defined functions (pta_callees): call-site and argument nodes
 *   mod/ref      per function, the locations it or its callees may write (read): a fixpoint over
 *                the call graph; library callbacks (qsort's comparator) count for their caller;
 *                a callee's own stack slots (own_classes: its allocas, if it is not recursive)
 *                do not, being fresh at its entry and dead at its return
 *   relevance    the classes the criteria may depend on at all, by a coarse closure (below);
 *                only they get formal and actual nodes and memory edges
 *   formals      formal-in per class in ref u mod, formal-out per class in mod, but the
 *                function's own stack slots; and
 *                actual-ins and actual-outs per call site for the union over its callees.
 *                Past a budget of such nodes, the functions whose interfaces it saves most on
 *                (and their callers) get one formal per group of classes instead: each class
 *                they touch themselves alone, the classes they only pass on to callees
 *                grouped by the call sites that may touch them (make_formals_and_actuals)
 *   edges        per function: SSA uses, phis on their incoming blocks' terminators, control
 *                dependence (cdep.c), memory: a use of location L depends on every write of L
 *                that can reach it in the CFG and on L's formal-in (writes are weak updates:
 *                nothing is killed, which is sound for may-aliases); L's formal-out on the
 *                writes that can reach a return (not those only followed by exit or abort);
 *                then call, parameter-in and parameter-out edges (a callee's formal meets
 *                the caller's actuals of the groups holding its classes)
 *   summaries    actual-in -> actual-out where the formal-in reaches the formal-out (the
 *                set of RHSR's worklist algorithm, with a bitset of formal-outs per node)
 * Scale: the budgets (struct sdg_budget) change nothing on programs whose points-to sets are
 * small (the test corpus, bzip2, lz4); they make the sqlite3 shell fit, whose heap is one
 * object to the analysis (sqlite's allocator is reached through function pointers and hands
 * out lookaside memory), so that most loads may read most of memory and the call graph is one
 * cycle: 26 million formal and actual nodes exact, about 0.5 million within the budgets.
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
#include <limits.h>
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
	const struct sdg_budget *budget; /* its limits */
	const struct pta *pta;   /* points-to facts */
	LLVMTargetDataRef td;    /* the module's data layout; owned */
	int words;               /* 64-bit words of a location bitset */
	uint64_t *mod, *ref;     /* per function, a bitset of locations; owned */
	uint64_t **own;          /* per function, the classes that are its own stack slots (see
				    own_classes), NULL if none; owned */
	struct effect *eff;      /* per node below ninst (zero for all but instructions); owned */
	int ninst;               /* nodes made before any call-site node */
	int *class_of;           /* per location, its memory class; owned */
	int nclasses;            /* memory classes */
	int *class_size;         /* per class, its locations; owned */
	int *hits;               /* refine's per-class counts, zero between calls; owned */
	int *split_to;           /* refine's per-class new class, or -1 (valid for touched ones); owned */
	unsigned char *in_region;/* per location: some wide access touches it; owned */
	int wide;                /* the wide pair of classes (all_effects): wide writes' state, then
				    narrow writes' state in the region; -1 if no access is wide */
	unsigned char *relevant; /* per class: a criterion may depend on it (relevance); owned */
	int longjmps;            /* the program calls setjmp: a block that ends in a no-return call
				    may still go on elsewhere */
	struct intvec pool;      /* effects' locations */
	struct intvec escaped;   /* escaped locations, once asked for */
	int have_escaped;        /* escaped is filled */
	int *inst_start;         /* per function k, its instruction nodes are inst_start[k] ..
				    inst_start[k + 1]; owned */
	int *site_start, *site;  /* per function k, its call sites are site[site_start[k] ..
				    site_start[k + 1]) (indices into g->call); owned */
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

/* Returns the index of loc in a location list, or -1. */
static int locs_index(const struct sdg_locs *l, int loc)
{
	int lo = 0, hi = l->n - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (l->loc[mid] == loc)
			return mid;
		if (l->loc[mid] < loc)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* Returns the group of class c in function f's interface (its least class), or -1. */
static int group_of(const struct sdg_fn *f, int c)
{
	return f->group ? f->group[c] : c;
}

/* Returns how many classes the interface group of f led by lead holds, and sets *m to them. */
static int group_members(const struct sdg_fn *f, int lead, const int **m)
{
	int i = locs_index(&f->in, lead);

	if (i < 0)
		return 0;
	if (!f->first) {
		*m = &f->in.loc[i];
		return 1;
	}
	*m = f->member + f->first[i];
	return f->first[i + 1] - f->first[i];
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

static int compare_int_desc(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x < y) - (x > y);
}

/*
 * Returns the number of locations above which an access is wide: the highest such that the
 * accesses, a wide one counted as 2, touch at most budget->effects locations in all (INT_MAX if
 * they fit as they are; never below budget->wide_min). sizes (every access's locations) is
 * sorted.
 */
static int wide_threshold(const struct sdg_budget *budget, struct intvec *sizes)
{
	long total = 0;
	int i = 0;

	for (int k = 0; k < sizes->n; k++)
		total += sizes->v[k];
	if (total <= budget->effects)
		return INT_MAX;
	qsort(sizes->v, (size_t)sizes->n, sizeof *sizes->v, compare_int_desc);
	while (i < sizes->n && total > budget->effects && sizes->v[i] > budget->wide_min) {
		int t = sizes->v[i];

		for (; i < sizes->n && sizes->v[i] == t; i++)
			total -= t - 2;
	}
	return i < sizes->n ? sizes->v[i] : budget->wide_min;
}

/*
 * Appends to the pool the classes one access of locs touches. A wide access touches only the
 * wide pair: b->wide, the state wide writes make (a wide read also reads b->wide + 1); a narrow
 * one its locations' classes, and, if one of its locations is in the wide region, b->wide for
 * a read (a wide write may have written it) or b->wide + 1 for a write (a wide read may read it).
 */
static void push_access(struct builder *b, const struct intvec *locs, int wide, int write,
			unsigned char *seen)
{
	int region = 0;

	if (wide) {
		intvec_push(&b->pool, b->wide);
		if (!write)
			intvec_push(&b->pool, b->wide + 1);
		return;
	}
	push_classes(b, locs, seen);
	for (int i = 0; i < locs->n && !region; i++)
		region = b->in_region[locs->v[i]];
	if (region)
		intvec_push(&b->pool, write ? b->wide + 1 : b->wide);
}

/*
 * The effects of every instruction, over memory classes: locations that every instruction
 * touches together or not at all are one class, so the graph needs one node where it would
 * need one per location, and loses nothing (a points-to analysis that shares its sets makes
 * few classes). Where points-to sets are huge (a program whose heap is one object to the
 * analysis: every pointer loaded from it may point to nearly everything), the accesses would
 * touch hundreds of classes each; then the widest are summarised until all fit the budget:
 * a wide access touches the wide pair instead (push_access), which keeps every dependence
 * (a narrow read of L still depends on every wide write, and only narrow writes of L; a wide
 * read on every write in the region) and loses only those among wide accesses themselves.
 * Three passes: the accesses' sizes, the partition refined by every narrow access, the
 * classes recorded.
 */
static void all_effects(struct builder *b)
{
	const struct pta *pta = b->pta;
	unsigned char *seen = xcalloc((size_t)pta->nlocs + 1, 1);
	struct intvec rd = {0}, wr = {0}, sizes = {0};
	int wide_at, any_wide = 0;

	for (int v = 0; v < b->ninst; v++) {
		if (b->g->node[v].kind != SDG_INST)
			continue;
		raw_effects(b, v, &rd, &wr, seen);
		if (rd.n)
			intvec_push(&sizes, rd.n);
		if (wr.n)
			intvec_push(&sizes, wr.n);
	}
	wide_at = wide_threshold(b->budget, &sizes);
	intvec_release(&sizes);
	b->class_of = xcalloc((size_t)pta->nlocs + 1, sizeof *b->class_of);
	b->class_size = xcalloc((size_t)pta->nlocs + 4, sizeof *b->class_size);
	b->hits = xcalloc((size_t)pta->nlocs + 4, sizeof *b->hits);
	b->split_to = xcalloc((size_t)pta->nlocs + 4, sizeof *b->split_to);
	b->in_region = xcalloc((size_t)pta->nlocs + 1, 1);
	b->nclasses = 1;
	b->class_size[0] = pta->nlocs;
	for (int v = 0; v < b->ninst; v++) {
		if (b->g->node[v].kind != SDG_INST)
			continue;
		raw_effects(b, v, &rd, &wr, seen);
		for (int pass = 0; pass < 2; pass++) {
			const struct intvec *locs = pass ? &wr : &rd;

			if (locs->n <= wide_at) {
				refine(b, locs);
				continue;
			}
			any_wide = 1;
			for (int i = 0; i < locs->n; i++)
				b->in_region[locs->v[i]] = 1;
		}
	}
	b->wide = b->g->wide = any_wide ? b->nclasses : -1;
	b->nclasses += any_wide ? 2 : 0;
	for (int v = 0; v < b->ninst; v++) {
		struct effect *e = &b->eff[v];

		if (b->g->node[v].kind != SDG_INST)
			continue;
		raw_effects(b, v, &rd, &wr, seen);
		e->rd = b->pool.n;
		push_access(b, &rd, rd.n > wide_at, 0, seen);
		e->nrd = b->pool.n - e->rd;
		e->wr = b->pool.n;
		push_access(b, &wr, wr.n > wide_at, 1, seen);
		e->nwr = b->pool.n - e->wr;
	}
	b->g->nclasses = b->nclasses;
	b->g->class_loc = xmalloc(sizeof *b->g->class_loc * (size_t)(b->nclasses + 1));
	for (int loc = pta->nlocs - 1; loc >= 0; loc--) {
		b->g->class_loc[b->class_of[loc]] = loc;
		if (b->in_region[loc])
			b->g->class_loc[b->wide] = b->g->class_loc[b->wide + 1] = loc;
	}
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

/* Fills b->site_start and b->site: every function's call sites. */
static void index_sites(struct builder *b)
{
	const struct sdg *g = b->g;
	int *fill;

	b->site_start = xcalloc((size_t)g->nfns + 2, sizeof *b->site_start);
	b->site = xmalloc(sizeof *b->site * (size_t)(g->ncalls + 1));
	for (int c = 0; c < g->ncalls; c++)
		b->site_start[g->call[c].fn + 1]++;
	for (int k = 0; k < g->nfns; k++)
		b->site_start[k + 1] += b->site_start[k];
	fill = xmalloc(sizeof *fill * (size_t)(g->nfns + 1));
	memcpy(fill, b->site_start, sizeof *fill * (size_t)(g->nfns + 1));
	for (int c = 0; c < g->ncalls; c++)
		b->site[fill[g->call[c].fn]++] = c;
	free(fill);
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

/* to |= from & ~mask over n words (mask may be NULL); returns whether to grew. */
static int bits_or_but(uint64_t *to, const uint64_t *from, const uint64_t *mask, int n)
{
	uint64_t grew = 0;

	if (!mask)
		return bits_or(to, from, n);
	for (int i = 0; i < n; i++) {
		uint64_t add = from[i] & ~mask[i] & ~to[i];

		to[i] |= add;
		grew |= add;
	}
	return grew != 0;
}

/* Adds callee's mod/ref but its own stack slots to caller's; returns whether they grew. */
static int inherit(struct builder *b, int caller, int callee)
{
	size_t w = (size_t)b->words;
	const uint64_t *own = b->own[callee];
	int changed = bits_or_but(b->mod + (size_t)caller * w, b->mod + (size_t)callee * w, own,
				  b->words);

	return bits_or_but(b->ref + (size_t)caller * w, b->ref + (size_t)callee * w, own,
			   b->words) | changed;
}

/*
 * Returns per function whether it may call itself, directly or through others (callbacks of
 * library calls included): Tarjan's strongly connected components of the call graph,
 * iteratively; a component of one function is recursive if it calls itself. Owned by the caller.
 */
static unsigned char *recursive_functions(const struct builder *b)
{
	const struct sdg *g = b->g;
	int n = g->nfns, *start = xcalloc((size_t)n + 2, sizeof *start), *edge, *fill;
	int *index = xmalloc(sizeof *index * (size_t)(n + 1)), *low = xmalloc(sizeof *low * (size_t)(n + 1));
	int *stack = xmalloc(sizeof *stack * (size_t)(n + 1)), *frame = xmalloc(sizeof *frame * (size_t)(n + 1));
	int *next = xmalloc(sizeof *next * (size_t)(n + 1)), nedges = 0, counter = 0, top = 0;
	unsigned char *on = xcalloc((size_t)n + 1, 1), *rec = xcalloc((size_t)n + 1, 1);

	for (int c = 0; c < g->ncalls; c++)
		start[g->call[c].fn + 1] += g->call[c].ncallees;
	for (int i = 0; i < b->ncb; i++)
		start[g->node[b->cb[i].node].fn + 1]++;
	for (int k = 0; k < n; k++)
		start[k + 1] += start[k];
	nedges = start[n];
	edge = xmalloc(sizeof *edge * (size_t)(nedges + 1));
	fill = xmalloc(sizeof *fill * (size_t)(n + 1));
	memcpy(fill, start, sizeof *fill * (size_t)(n + 1));
	for (int c = 0; c < g->ncalls; c++) {
		for (int i = 0; i < g->call[c].ncallees; i++) {
			edge[fill[g->call[c].fn]++] = g->call[c].callee[i];
			if (g->call[c].callee[i] == g->call[c].fn)
				rec[g->call[c].fn] = 1;
		}
	}
	for (int i = 0; i < b->ncb; i++) {
		int from = g->node[b->cb[i].node].fn;

		edge[fill[from]++] = b->cb[i].fn;
		if (b->cb[i].fn == from)
			rec[from] = 1;
	}
	for (int k = 0; k < n; k++)
		index[k] = -1;
	for (int root = 0; root < n; root++) {
		int depth = 0;

		if (index[root] >= 0)
			continue;
		frame[depth++] = root;
		index[root] = low[root] = counter++;
		next[root] = start[root];
		stack[top++] = root;
		on[root] = 1;
		while (depth > 0) {
			int v = frame[depth - 1];

			if (next[v] < start[v + 1]) {
				int u = edge[next[v]++];

				if (index[u] < 0) {
					index[u] = low[u] = counter++;
					next[u] = start[u];
					stack[top++] = u;
					on[u] = 1;
					frame[depth++] = u;
				} else if (on[u] && index[u] < low[v]) {
					low[v] = index[u];
				}
				continue;
			}
			depth--;
			if (depth > 0 && low[v] < low[frame[depth - 1]])
				low[frame[depth - 1]] = low[v];
			if (low[v] == index[v]) {
				int size = 0, u;

				while (stack[top - 1] != v) {
					on[stack[--top]] = 0;
					rec[stack[top]] = 1;
					size++;
				}
				u = stack[--top];
				on[u] = 0;
				if (size > 0)
					rec[u] = 1;
			}
		}
	}
	free(start);
	free(edge);
	free(fill);
	free(index);
	free(low);
	free(stack);
	free(frame);
	free(next);
	free(on);
	return rec;
}

/*
 * Fills b->own: a class every location of which is a stack slot (alloca) of one function k that
 * never calls itself is k's own. Such a slot is fresh at k's entry and dead at its return, so no
 * caller of k reads what k wrote there and k reads nothing a caller wrote there: it gets no
 * formal in k (a grouped interface keeps one, which no actual meets) and no actual where k is
 * called, and is not inherited by k's callers (its writes would otherwise reach, through
 * every caller's summary, each other call of k and of what calls k: djpeg's inverse DCT's
 * workspace joined every decoder method so). The callees k passes the slot to keep it in
 * theirs. In a recursive function a slot stands for every activation, and an inner one may
 * write an outer one's through a pointer: it stays.
 */
static void own_classes(struct builder *b)
{
	const struct pta *pta = b->pta;
	struct sdg *g = b->g;
	unsigned char *rec = recursive_functions(b);
	int *owner = xmalloc(sizeof *owner * (size_t)(b->nclasses + 1));

	for (int c = 0; c < b->nclasses; c++)
		owner[c] = -2; /* no location seen */
	for (int loc = 0; loc < pta->nlocs; loc++) {
		const struct pta_object *o = &pta->obj[pta->loc[loc].obj];
		int c = b->class_of[loc], k = -1;

		if (o->kind == PTA_STACK && o->site && LLVMIsAAllocaInst(o->site)) {
			k = ptrmap_get(&g->node_of,
				       LLVMGetBasicBlockParent(LLVMGetInstructionParent(o->site)));
			if (k >= 0 && rec[k])
				k = -1;
		}
		owner[c] = owner[c] == -2 || owner[c] == k ? k : -1;
	}
	b->own = xcalloc((size_t)g->nfns + 1, sizeof *b->own);
	for (int c = 0; c < b->nclasses; c++) {
		int k = owner[c];

		if (k < 0 || c == b->wide || c == b->wide + 1)
			continue;
		if (!b->own[k])
			b->own[k] = xcalloc((size_t)b->words, sizeof **b->own);
		bit_set(b->own[k], c);
	}
	free(owner);
	free(rec);
}

/* Mod/ref of every function, callees included (their own stack slots not: own_classes), by
 * iteration to the fixpoint. A function's own slots stay in its mod/ref, for the actuals of its
 * call sites that pass them on, but out of its formals and its callers'. */
static void mod_ref(struct builder *b)
{
	struct sdg *g = b->g;
	int changed = 1;

	direct_mod_ref(b);
	own_classes(b);
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
		const uint64_t *own = b->own[b->cb[i].fn];
		int rd = b->pool.n, wr;

		for (int j = 0; j < e->nrd; j++)
			intvec_push(&b->pool, b->pool.v[e->rd + j]);
		for (int c = 0; c < b->nclasses; c++) {
			if ((bit_get(ref, c) || bit_get(mod, c)) && !(own && bit_get(own, c)))
				intvec_push(&b->pool, c);
		}
		e->rd = rd;
		e->nrd = b->pool.n - rd;
		wr = b->pool.n;
		for (int j = 0; j < e->nwr; j++)
			intvec_push(&b->pool, b->pool.v[e->wr + j]);
		for (int c = 0; c < b->nclasses; c++) {
			if (bit_get(mod, c) && !(own && bit_get(own, c)))
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
 * instruction reads needs no formal or actual node, and its accesses no edge.
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

/* ---- interfaces --------------------------------------------------------------------------- */

/* The classes call site c's callees may read or write (in) and write (out), but their own
 * stack slots. */
static void site_classes(const struct builder *b, int c, uint64_t *in, uint64_t *out)
{
	const struct sdg_call *call = &b->g->call[c];
	size_t w = (size_t)b->words;

	memset(in, 0, sizeof *in * w);
	memset(out, 0, sizeof *out * w);
	for (int i = 0; i < call->ncallees; i++) {
		const uint64_t *own = b->own[call->callee[i]];

		bits_or_but(in, b->mod + (size_t)call->callee[i] * w, own, b->words);
		bits_or_but(in, b->ref + (size_t)call->callee[i] * w, own, b->words);
		bits_or_but(out, b->mod + (size_t)call->callee[i] * w, own, b->words);
	}
}

static int popcount(const uint64_t *set, int words)
{
	int n = 0;

	for (int i = 0; i < words; i++)
		n += __builtin_popcountll(set[i]);
	return n;
}

/* Returns the distinct groups (group[] of each) of set's classes, stamping each in stamp[]
 * with mark. */
static int count_groups(const uint64_t *set, int words, const int *group, int *stamp, int mark)
{
	int n = 0;

	for (int i = 0; i < words; i++) {
		for (uint64_t bits = set[i]; bits; bits &= bits - 1) {
			int lead = group[i * 64 + __builtin_ctzll(bits)];

			if (stamp[lead] != mark) {
				stamp[lead] = mark;
				n++;
			}
		}
	}
	return n;
}

/* Scratch for grouping interfaces. */
struct grouping {
	struct builder *b;     /* the builder */
	uint64_t *direct;      /* classes the function's own instructions touch; owned */
	uint64_t *in, *out;    /* per call site of the function, site_classes; owned, grown */
	int capsites;          /* call sites in and out have room for */
	uint64_t *sig;         /* per class, a hash of the call sites that may touch it; owned */
	int *stamp;            /* per class, count_groups' last mark; owned */
	int mark;              /* count_groups' last mark used */
};

/*
 * Groups function k's interface into group[] (per class: the least class of its group, or -1
 * for one not in k's mod u ref): every class k's own instructions touch is a group of its own;
 * the others, which k only passes on to its callees, are grouped by the set of k's call sites
 * whose callees may touch them and by whether k may write them. Returns the formal and actual
 * nodes the grouped interface needs (k's formals and its call sites' actuals), and sets *exact
 * to those of the exact one.
 */
static long group_function(struct grouping *gr, int k, int *group, long *exact)
{
	struct builder *b = gr->b;
	int words = b->words, first = b->site_start[k], nsites = b->site_start[k + 1] - first;
	size_t w = (size_t)words;
	const uint64_t *mod = b->mod + (size_t)k * w, *ref = b->ref + (size_t)k * w;
	struct ptrmap keys = {0};
	long nodes = 0;

	memset(gr->direct, 0, sizeof *gr->direct * w);
	for (int v = b->inst_start[k]; v < b->inst_start[k + 1]; v++) {
		const struct effect *e = &b->eff[v];

		for (int i = 0; i < e->nrd; i++)
			bit_set(gr->direct, b->pool.v[e->rd + i]);
		for (int i = 0; i < e->nwr; i++)
			bit_set(gr->direct, b->pool.v[e->wr + i]);
	}
	if (nsites > gr->capsites) {
		gr->capsites = 2 * nsites;
		gr->in = xrealloc(gr->in, sizeof *gr->in * w * (size_t)gr->capsites);
		gr->out = xrealloc(gr->out, sizeof *gr->out * w * (size_t)gr->capsites);
	}
	*exact = 0;
	for (int c = 0; c < b->nclasses; c++) {
		group[c] = -1;
		gr->sig[c] = 0;
	}
	for (int i = 0; i < nsites; i++) {
		uint64_t *in = gr->in + (size_t)i * w, *out = gr->out + (size_t)i * w;

		site_classes(b, b->site[first + i], in, out);
		*exact += popcount(in, words) + popcount(out, words);
		for (int x = 0; x < words; x++) {
			for (uint64_t bits = in[x] & ~gr->direct[x]; bits; bits &= bits - 1) {
				int c = x * 64 + __builtin_ctzll(bits);

				gr->sig[c] = (gr->sig[c] ^ (uint64_t)(i + 1)) * 0x100000001b3ull;
			}
		}
	}
	for (int x = 0; x < words; x++) {
		for (uint64_t bits = mod[x] | ref[x]; bits; bits &= bits - 1) {
			int c = x * 64 + __builtin_ctzll(bits), written = bit_get(mod, c);
			const void *key = (const void *)(uintptr_t)(gr->sig[c] * 4 + 2 + (uint64_t)written);
			int lead = bit_get(gr->direct, c) ? c : ptrmap_get(&keys, key);

			*exact += 1 + written;
			if (lead < 0) {
				ptrmap_put(&keys, key, c);
				lead = c;
			}
			if (lead == c)
				nodes += 1 + written;
			group[c] = lead;
		}
	}
	for (int i = 0; i < nsites; i++) {
		nodes += count_groups(gr->in + (size_t)i * w, words, group, gr->stamp, ++gr->mark);
		nodes += count_groups(gr->out + (size_t)i * w, words, group, gr->stamp, ++gr->mark);
	}
	ptrmap_release(&keys);
	return nodes;
}

static int compare_saving(const void *a, const void *b)
{
	const long *x = a, *y = b;

	return (x[0] < y[0]) - (x[0] > y[0]);
}

/*
 * Chooses the functions whose interfaces are grouped (grouped[k] = 1): none if the exact
 * interfaces need at most budget->interface nodes; else those whose grouping saves the most
 * nodes, until the rest fits, and then every caller of a grouped function, transitively (an
 * exact caller would need an actual, and a summary edge, per class of a callee's group).
 */
static void choose_grouped(struct grouping *gr, unsigned char *grouped)
{
	struct sdg *g = gr->b->g;
	long *saving = xmalloc(sizeof *saving * 2 * (size_t)g->nfns), total = 0;
	int *group = xmalloc(sizeof *group * (size_t)gr->b->nclasses);
	struct intvec work = {0};

	for (int k = 0; k < g->nfns; k++) {
		long exact, nodes = group_function(gr, k, group, &exact);

		total += exact;
		saving[2 * k] = exact - nodes;
		saving[2 * k + 1] = k;
	}
	if (total > gr->b->budget->interface)
		qsort(saving, (size_t)g->nfns, 2 * sizeof *saving, compare_saving);
	for (int i = 0; i < g->nfns && total > gr->b->budget->interface; i++) {
		grouped[saving[2 * i + 1]] = 1;
		intvec_push(&work, (int)saving[2 * i + 1]);
		total -= saving[2 * i];
	}
	while (work.n > 0) {
		const struct sdg_fn *f = &g->fn[work.v[--work.n]];

		for (int i = 0; i < f->callers.n; i++) {
			int caller = g->call[f->callers.v[i]].fn;

			if (!grouped[caller]) {
				grouped[caller] = 1;
				intvec_push(&work, caller);
			}
		}
	}
	free(saving);
	free(group);
	intvec_release(&work);
}

/* Makes one node per entry of list (sorted, distinct) in l. */
static void locs_from_list(struct sdg *g, struct sdg_locs *l, const struct intvec *list,
			   enum sdg_kind kind, int fn, LLVMValueRef v)
{
	l->loc = xmalloc(sizeof *l->loc * (size_t)(list->n ? list->n : 1));
	l->node = xmalloc(sizeof *l->node * (size_t)(list->n ? list->n : 1));
	l->n = list->n;
	for (int i = 0; i < list->n; i++) {
		l->loc[i] = list->v[i];
		l->node[i] = new_node(g, kind, fn, v, list->v[i]);
	}
}

static int compare_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Fills list with the distinct groups of set's classes in function f, sorted. */
static void groups_of(const struct sdg_fn *f, const uint64_t *set, int words, struct intvec *list)
{
	int n = 0;

	list->n = 0;
	for (int i = 0; i < words; i++) {
		for (uint64_t bits = set[i]; bits; bits &= bits - 1)
			intvec_push(list, f->group[i * 64 + __builtin_ctzll(bits)]);
	}
	if (list->n > 0)
		qsort(list->v, (size_t)list->n, sizeof *list->v, compare_int);
	for (int i = 0; i < list->n; i++) {
		if (i == 0 || list->v[i] != list->v[i - 1])
			list->v[n++] = list->v[i];
	}
	list->n = n;
}

/* The formals of grouped function k: one per group, keyed by its least class, with the
 * group's classes (f->first, f->member). */
static void make_grouped_formals(struct builder *b, int k)
{
	struct sdg *g = b->g;
	struct sdg_fn *f = &g->fn[k];
	const uint64_t *mod = b->mod + (size_t)k * (size_t)b->words;
	struct intvec in = {0}, out = {0};
	int *fill;

	for (int c = 0; c < b->nclasses; c++) {
		if (f->group[c] == c) {
			intvec_push(&in, c);
			if (bit_get(mod, c))
				intvec_push(&out, c);
		}
	}
	locs_from_list(g, &f->in, &in, SDG_FORMAL_IN, k, f->fn);
	locs_from_list(g, &f->out, &out, SDG_FORMAL_OUT, k, f->fn);
	f->first = xcalloc((size_t)f->in.n + 1, sizeof *f->first);
	for (int c = 0; c < b->nclasses; c++) {
		if (f->group[c] >= 0)
			f->first[locs_index(&f->in, f->group[c]) + 1]++;
	}
	for (int i = 0; i < f->in.n; i++)
		f->first[i + 1] += f->first[i];
	fill = xmalloc(sizeof *fill * (size_t)(f->in.n + 1));
	memcpy(fill, f->first, sizeof *fill * (size_t)(f->in.n + 1));
	f->member = xmalloc(sizeof *f->member * (size_t)(f->first[f->in.n] + 1));
	for (int c = 0; c < b->nclasses; c++) {
		if (f->group[c] >= 0)
			f->member[fill[locs_index(&f->in, f->group[c])]++] = c;
	}
	free(fill);
	intvec_release(&in);
	intvec_release(&out);
}

/*
 * Formal and actual nodes for the memory classes a criterion may need (relevance): exact, or
 * for the functions choose_grouped picks, one per group of classes (group_function). A grouped
 * function works on its groups throughout: its formals, its call sites' actuals and its memory
 * edges are per group, and a class of a callee's interface meets the caller's group holding it
 * (call_edges). Coarser, so sound: a group is read or written wherever one of its classes is.
 */
static void make_formals_and_actuals(struct builder *b)
{
	struct sdg *g = b->g;
	size_t w = (size_t)b->words;
	uint64_t *set = xcalloc(w, sizeof *set), *out = xcalloc(w, sizeof *out);
	uint64_t *keep = xcalloc(w, sizeof *keep);
	struct grouping gr = {.b = b};
	unsigned char *grouped = xcalloc((size_t)g->nfns + 1, 1);
	struct intvec list = {0};

	for (int c = 0; c < b->nclasses; c++) {
		if (b->relevant[c])
			bit_set(keep, c);
	}
	for (size_t i = 0; i < (size_t)g->nfns * w; i++) { /* only what a criterion may need */
		b->mod[i] &= keep[i % w];
		b->ref[i] &= keep[i % w];
	}
	gr.direct = xmalloc(sizeof *gr.direct * w);
	gr.sig = xmalloc(sizeof *gr.sig * (size_t)(b->nclasses + 1));
	gr.stamp = xcalloc((size_t)b->nclasses + 1, sizeof *gr.stamp);
	choose_grouped(&gr, grouped);
	for (int k = 0; k < g->nfns; k++) {
		struct sdg_fn *f = &g->fn[k];
		long exact;

		if (grouped[k]) {
			f->group = xmalloc(sizeof *f->group * (size_t)(b->nclasses + 1));
			group_function(&gr, k, f->group, &exact);
			make_grouped_formals(b, k);
			g->ngrouped++;
			continue;
		}
		memset(set, 0, sizeof *set * w);
		memset(out, 0, sizeof *out * w);
		bits_or_but(set, b->mod + k * w, b->own[k], b->words);
		bits_or_but(set, b->ref + k * w, b->own[k], b->words);
		bits_or_but(out, b->mod + k * w, b->own[k], b->words);
		locs_make(g, &f->in, set, b->words, SDG_FORMAL_IN, k, f->fn);
		locs_make(g, &f->out, out, b->words, SDG_FORMAL_OUT, k, f->fn);
	}
	for (int c = 0; c < g->ncalls; c++) {
		struct sdg_call *call = &g->call[c];
		const struct sdg_fn *f = &g->fn[call->fn];

		site_classes(b, c, set, out);
		if (!f->group) {
			locs_make(g, &call->in, set, b->words, SDG_ACTUAL_IN, call->fn, call->call);
			locs_make(g, &call->out, out, b->words, SDG_ACTUAL_OUT, call->fn, call->call);
			continue;
		}
		groups_of(f, set, b->words, &list);
		locs_from_list(g, &call->in, &list, SDG_ACTUAL_IN, call->fn, call->call);
		groups_of(f, out, b->words, &list);
		locs_from_list(g, &call->out, &list, SDG_ACTUAL_OUT, call->fn, call->call);
	}
	free(gr.direct);
	free(gr.in);
	free(gr.out);
	free(gr.sig);
	free(gr.stamp);
	free(grouped);
	free(set);
	free(out);
	free(keep);
	intvec_release(&list);
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

/* Appends to out the indices in actuals (a list of a call site in caller) of the actuals that
 * meet callee f's interface group led by lead: the caller's groups holding one of its classes. */
static void group_actuals(const struct sdg_fn *caller, const struct sdg_fn *f, int lead,
			  const struct sdg_locs *actuals, struct intvec *out)
{
	const int *m;
	int n = group_members(f, lead, &m), from = out->n;

	for (int i = 0; i < n; i++) {
		int a = locs_index(actuals, group_of(caller, m[i]));
		int dup = a < 0;

		for (int j = from; j < out->n && !dup; j++)
			dup = out->v[j] == a;
		if (!dup)
			intvec_push(out, a);
	}
}

/* Call, parameter-in and parameter-out edges: a callee's formal meets the caller's actuals of
 * the same class, or of the groups holding its group's classes (group_actuals). */
static void call_edges(struct sdg *g)
{
	struct intvec acts = {0};

	for (int c = 0; c < g->ncalls; c++) {
		const struct sdg_call *call = &g->call[c];
		const struct sdg_fn *caller = &g->fn[call->fn];

		for (int j = 0; j < call->ncallees; j++) {
			const struct sdg_fn *f = &g->fn[call->callee[j]];

			add_edge(g, call->site, f->entry, SDG_CALL);
			for (int i = 0; i < call->nargs; i++)
				add_edge(g, call->arg[i], formal_param(f, i), SDG_PARAM_IN);
			for (int i = 0; i < f->in.n; i++) {
				acts.n = 0;
				group_actuals(caller, f, f->in.loc[i], &call->in, &acts);
				for (int a = 0; a < acts.n; a++)
					add_edge(g, call->in.node[acts.v[a]], f->in.node[i], SDG_PARAM_IN);
			}
			for (int i = 0; i < f->out.n; i++) {
				acts.n = 0;
				group_actuals(caller, f, f->out.loc[i], &call->out, &acts);
				for (int a = 0; a < acts.n; a++)
					add_edge(g, f->out.node[i], call->out.node[acts.v[a]], SDG_PARAM_OUT);
			}
			add_edge(g, f->retval, call->ret, SDG_PARAM_OUT);
		}
	}
	intvec_release(&acts);
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
 * through the callee's own edges (data, control, and the summaries of its calls). The worklist
 * algorithm of Reps, Horwitz, Sagiv and Rosay with bitsets: every node keeps the set of its
 * function's formal-outs it reaches, and a node whose set grows passes it on to the nodes it
 * depends on; a formal-in's new formal-outs give summaries at every call site of its function,
 * and a new summary edge passes the actual-out's set to the actual-in, in the caller. Each bit
 * is set once, so nothing is done twice; functions start callees first.
 */

/* The state of the worklist algorithm. */
struct summary {
	struct sdg *g;         /* the graph */
	int *words;            /* per function, 64-bit words of its formal-out sets; owned */
	size_t *base;          /* per node, where its formal-out set starts in reach; owned */
	uint64_t *reach;       /* every node's formal-out set; owned */
	uint64_t *done;        /* per node, the part of its set already summarised at call sites
				  (formal-ins and parameters); owned */
	int **fos;             /* per function, its formal-outs by bit; owned */
	int *nfo;              /* per function, how many */
	struct intvec *work;   /* per function, its nodes whose sets grew, a heap by order; owned */
	int *order;            /* per node, its place in its function's order of work: reverse
				  postorder of a depth-first search from the formal-outs over the
				  edges sets flow by, so that a node tends to come after every node
				  that passes it a set; owned */
	unsigned char *inwork; /* per node: in its function's work */
	struct intvec queue;   /* functions with work, first at head */
	int head;              /* queue's first */
	unsigned char *queued; /* per function: in queue */
	uint64_t **made;       /* per call site, its summary edges made (add_summary's bits), or
				  NULL; owned */
	struct intvec ins;     /* summarise_formal's actual-ins at one call site */
	struct intvec outs;    /* summarise_formal's actual-outs of one formal-out there */
};

/* Puts node v on heap h, ordered by s->order (least first). */
static void heap_push(const struct summary *s, struct intvec *h, int v)
{
	int i = h->n;

	intvec_push(h, v);
	while (i > 0 && s->order[h->v[(i - 1) / 2]] > s->order[v]) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = v;
}

/* Returns the least node of heap h (not empty) and removes it. */
static int heap_pop(const struct summary *s, struct intvec *h)
{
	int top = h->v[0], v = h->v[--h->n], i = 0;

	for (;;) {
		int c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && s->order[h->v[c + 1]] < s->order[h->v[c]])
			c++;
		if (s->order[h->v[c]] >= s->order[v])
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n > 0)
		h->v[i] = v;
	return top;
}

/* Adds the formal-outs in set to node v's; if it grew, v is queued in its function. */
static void reach_more(struct summary *s, int v, const uint64_t *set)
{
	int k = s->g->node[v].fn;

	if (!bits_or(s->reach + s->base[v], set, s->words[k]) || s->inwork[v])
		return;
	s->inwork[v] = 1;
	heap_push(s, &s->work[k], v);
	if (!s->queued[k]) {
		s->queued[k] = 1;
		intvec_push(&s->queue, k);
	}
}

/*
 * Adds the summary edge from call site c's actual-in at row (an argument's index, or nargs plus
 * the index in c->in) to its actual-out at col (0: the returned value, else 1 plus the index in
 * c->out) if it is new: the actual-in then reaches what the actual-out does.
 */
static void add_summary(struct summary *s, int c, int row, int col)
{
	const struct sdg_call *call = &s->g->call[c];
	int cols = call->out.n + 1, ai, ao;
	size_t bit = (size_t)row * (size_t)cols + (size_t)col;

	if (!s->made[c])
		s->made[c] = xcalloc(((size_t)(call->nargs + call->in.n) * (size_t)cols + 63) / 64 + 1,
				     sizeof *s->made[c]);
	if (s->made[c][bit >> 6] >> (bit & 63) & 1)
		return;
	s->made[c][bit >> 6] |= (uint64_t)1 << (bit & 63);
	ai = row < call->nargs ? call->arg[row] : call->in.node[row - call->nargs];
	ao = col == 0 ? call->ret : call->out.node[col - 1];
	add_edge(s->g, ai, ao, SDG_SUMMARY);
	s->g->nsummary++;
	reach_more(s, ai, s->reach + s->base[ao]);
}

/* Adds the summaries of function f's formal-in (or parameter) fi for the formal-outs in fresh
 * at every call site of f: from its actuals to those of the formal-outs. */
static void summarise_formal(struct summary *s, int fi, const uint64_t *fresh)
{
	struct sdg *g = s->g;
	int k = g->node[fi].fn;
	const struct sdg_fn *f = &g->fn[k];

	for (int i = 0; i < f->callers.n; i++) {
		int site = f->callers.v[i];
		const struct sdg_call *c = &g->call[site];
		const struct sdg_fn *caller = &g->fn[c->fn];

		s->ins.n = 0;
		if (g->node[fi].kind == SDG_FORMAL_IN) {
			group_actuals(caller, f, g->node[fi].aux, &c->in, &s->ins);
			for (int x = 0; x < s->ins.n; x++)
				s->ins.v[x] += c->nargs;
		}
		for (int a = 0; a < c->nargs && g->node[fi].kind == SDG_PARAM; a++) {
			if (formal_param(f, a) == fi)
				intvec_push(&s->ins, a);
		}
		for (int o = 0; o < s->nfo[k] && s->ins.n > 0; o++) {
			int fo = s->fos[k][o];

			if (!bit_get(fresh, o))
				continue;
			s->outs.n = 0;
			if (g->node[fo].kind == SDG_RETVAL) {
				intvec_push(&s->outs, 0);
			} else {
				group_actuals(caller, f, g->node[fo].aux, &c->out, &s->outs);
				for (int y = 0; y < s->outs.n; y++)
					s->outs.v[y]++;
			}
			for (int x = 0; x < s->ins.n; x++) {
				for (int y = 0; y < s->outs.n; y++)
					add_summary(s, site, s->ins.v[x], s->outs.v[y]);
			}
		}
	}
}

/* Runs function k's work: sets flow backwards over its data, control and summary edges; then
 * its formal-ins' new formal-outs are summarised at its call sites (fresh: scratch). */
static void summarise_function(struct summary *s, int k, uint64_t *fresh)
{
	struct sdg *g = s->g;
	const struct sdg_fn *f = &g->fn[k];
	int words = s->words[k];

	while (s->work[k].n > 0) {
		while (s->work[k].n > 0) {
			int v = heap_pop(s, &s->work[k]);

			s->inwork[v] = 0;
			for (int e = g->node[v].in; e >= 0; e = g->edge[e].next) {
				int kind = g->edge[e].kind;

				if (kind == SDG_DATA || kind == SDG_CONTROL || kind == SDG_SUMMARY)
					reach_more(s, g->edge[e].src, s->reach + s->base[v]);
			}
		}
		for (int i = 0; i <= f->nparams + f->in.n; i++) {
			int v = i <= f->nparams ? f->param[i] : f->in.node[i - f->nparams - 1], any = 0;
			uint64_t *done, *reach;

			if (v < 0)
				continue; /* not variadic */
			done = s->done + s->base[v];
			reach = s->reach + s->base[v];
			for (int w = 0; w < words; w++) {
				fresh[w] = reach[w] & ~done[w];
				any |= fresh[w] != 0;
				done[w] = reach[w];
			}
			if (any)
				summarise_formal(s, v, fresh);
		}
	}
}

/* Appends the functions in callees-first order (depth-first postorder over call sites). */
static void callees_first(const struct builder *b, int k, unsigned char *visited,
			  struct intvec *order)
{
	const struct sdg *g = b->g;
	struct intvec stack = {0}, next = {0};

	visited[k] = 1;
	intvec_push(&stack, k);
	intvec_push(&next, b->site_start[k]);
	while (stack.n > 0) {
		int f = stack.v[stack.n - 1], advanced = 0;

		while (next.v[next.n - 1] < b->site_start[f + 1] && !advanced) {
			const struct sdg_call *c = &g->call[b->site[next.v[next.n - 1]++]];

			for (int j = 0; j < c->ncallees && !advanced; j++) {
				if (!visited[c->callee[j]]) {
					visited[c->callee[j]] = 1;
					intvec_push(&stack, c->callee[j]);
					intvec_push(&next, b->site_start[c->callee[j]]);
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

/* Numbers function k's nodes[0..n) in s->order: reverse postorder of a depth-first search
 * from its formal-outs over data, control and summary edges, from a node to those it depends
 * on; nodes it does not reach come last. */
static void order_function(struct summary *s, int k, const int *nodes, int n)
{
	const struct sdg *g = s->g;
	struct intvec stack = {0}, edge = {0};
	int next = n;

	for (int i = 0; i < n; i++)
		s->order[nodes[i]] = -1;
	for (int o = 0; o < s->nfo[k]; o++) {
		int root = s->fos[k][o];

		if (s->order[root] != -1)
			continue;
		s->order[root] = -2;
		intvec_push(&stack, root);
		intvec_push(&edge, g->node[root].in);
		while (stack.n > 0) {
			int top = edge.n - 1, u = -1;

			while (edge.v[top] >= 0 && u < 0) {
				const struct sdg_edge *e = &g->edge[edge.v[top]];

				edge.v[top] = e->next;
				if ((e->kind == SDG_DATA || e->kind == SDG_CONTROL || e->kind == SDG_SUMMARY) &&
				    s->order[e->src] == -1)
					u = e->src;
			}
			if (u >= 0) {
				s->order[u] = -2;
				intvec_push(&stack, u);
				intvec_push(&edge, g->node[u].in);
				continue;
			}
			s->order[stack.v[--stack.n]] = --next;
			edge.n--;
		}
	}
	for (int i = 0; i < n; i++) {
		if (s->order[nodes[i]] == -1)
			s->order[nodes[i]] = n;
	}
	intvec_release(&stack);
	intvec_release(&edge);
}

/* Adds every summary edge of the graph (the worklist algorithm above). */
static void summary_edges(const struct builder *b)
{
	struct sdg *g = b->g;
	struct summary s = {.g = g};
	unsigned char *visited = xcalloc((size_t)g->nfns + 1, 1);
	int *start = xcalloc((size_t)g->nfns + 2, sizeof *start), *fill;
	int *nodes = xmalloc(sizeof *nodes * (size_t)g->n);
	int maxwords = 1;
	size_t total = 0;
	uint64_t *fresh;

	s.words = xmalloc(sizeof *s.words * (size_t)g->nfns);
	s.base = xmalloc(sizeof *s.base * (size_t)g->n);
	s.fos = xcalloc((size_t)g->nfns, sizeof *s.fos);
	s.nfo = xcalloc((size_t)g->nfns, sizeof *s.nfo);
	s.work = xcalloc((size_t)g->nfns, sizeof *s.work);
	s.inwork = xcalloc((size_t)g->n, 1);
	s.queued = xcalloc((size_t)g->nfns, 1);
	s.made = xcalloc((size_t)g->ncalls + 1, sizeof *s.made);
	for (int v = 0; v < g->n; v++) {
		start[g->node[v].fn + 1]++;
		s.nfo[g->node[v].fn] += g->node[v].kind == SDG_RETVAL || g->node[v].kind == SDG_FORMAL_OUT;
	}
	for (int k = 0; k < g->nfns; k++) {
		start[k + 1] += start[k];
		s.words[k] = s.nfo[k] > 64 ? (s.nfo[k] + 63) / 64 : 1;
		maxwords = s.words[k] > maxwords ? s.words[k] : maxwords;
		s.fos[k] = xmalloc(sizeof *s.fos[k] * (size_t)(s.nfo[k] + 1));
		s.nfo[k] = 0;
	}
	fill = xmalloc(sizeof *fill * (size_t)(g->nfns + 1));
	memcpy(fill, start, sizeof *fill * (size_t)(g->nfns + 1));
	for (int v = 0; v < g->n; v++) {
		int k = g->node[v].fn;

		nodes[fill[k]++] = v;
		s.base[v] = total;
		total += (size_t)s.words[k];
		if (g->node[v].kind == SDG_RETVAL || g->node[v].kind == SDG_FORMAL_OUT)
			s.fos[k][s.nfo[k]++] = v;
	}
	s.order = xmalloc(sizeof *s.order * (size_t)g->n);
	for (int k = 0; k < g->nfns; k++)
		order_function(&s, k, nodes + start[k], start[k + 1] - start[k]);
	s.reach = xcalloc(total + 1, sizeof *s.reach);
	s.done = xcalloc(total + 1, sizeof *s.done);
	fresh = xmalloc(sizeof *fresh * (size_t)maxwords);
	for (int k = 0; k < g->nfns; k++) {
		if (!visited[k])
			callees_first(b, k, visited, &s.queue);
	}
	for (int i = 0; i < s.queue.n; i++)
		s.queued[s.queue.v[i]] = 1;
	for (int k = 0; k < g->nfns; k++) {
		for (int o = 0; o < s.nfo[k]; o++) {
			int fo = s.fos[k][o];

			bit_set(s.reach + s.base[fo], o);
			s.inwork[fo] = 1;
			heap_push(&s, &s.work[k], fo);
		}
	}
	while (s.head < s.queue.n) {
		int k = s.queue.v[s.head++];

		s.queued[k] = 0;
		summarise_function(&s, k, fresh);
		if (s.head > 4096 && 2 * s.head > s.queue.n) {
			memmove(s.queue.v, s.queue.v + s.head, sizeof *s.queue.v * (size_t)(s.queue.n - s.head));
			s.queue.n -= s.head;
			s.head = 0;
		}
	}
	for (int k = 0; k < g->nfns; k++) {
		free(s.fos[k]);
		intvec_release(&s.work[k]);
	}
	free(fill);
	free(s.order);
	free(s.words);
	free(s.base);
	free(s.reach);
	free(s.done);
	free(s.fos);
	free(s.nfo);
	free(s.work);
	free(s.inwork);
	free(s.queued);
	free(start);
	free(nodes);
	free(fresh);
	free(visited);
	intvec_release(&s.queue);
	intvec_release(&s.ins);
	intvec_release(&s.outs);
	for (int c = 0; c < g->ncalls; c++)
		free(s.made[c]);
	free(s.made);
}

/* ---- building ---------------------------------------------------------------------------- */

const struct sdg_budget sdg_default_budget = {1 << 20, 16, 1 << 20};

int sdg_build(struct sdg *g, LLVMModuleRef mod, const struct pta *pta,
	      LLVMValueRef const *criteria, int ncriteria, struct error *err)
{
	return sdg_build_within(g, mod, pta, criteria, ncriteria, &sdg_default_budget, err);
}

int sdg_build_within(struct sdg *g, LLVMModuleRef mod, const struct pta *pta,
		     LLVMValueRef const *criteria, int ncriteria, const struct sdg_budget *budget,
		     struct error *err)
{
	struct builder b = {.g = g, .pta = pta, .budget = budget};
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
	b.inst_start = xmalloc(sizeof *b.inst_start * (size_t)(g->nfns + 1));
	for (int k = 0; k < g->nfns; k++) {
		b.inst_start[k] = g->n;
		make_function_nodes(g, k);
	}
	ninst_nodes = b.ninst = b.inst_start[g->nfns] = g->n;
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
	index_sites(&b);
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
	summary_edges(&b);
	LLVMDisposeTargetData(b.td);
	free(b.mod);
	free(b.ref);
	for (int k = 0; k < g->nfns; k++)
		free(b.own[k]);
	free(b.own);
	free(b.eff);
	free(b.class_of);
	free(b.class_size);
	free(b.hits);
	free(b.split_to);
	free(b.in_region);
	free(b.inst_start);
	free(b.site_start);
	free(b.site);
	free(b.relevant);
	free(b.cb);
	intvec_release(&b.pool);
	intvec_release(&b.escaped);
	return 0;
}

/* ---- slicing ----------------------------------------------------------------------------- */

enum { PASS1 = 1, PASS2 = 2 }; /* mark bits: the node's edges were followed in that pass */

/* Marks u for pass bit; adds its weight to bound (if any) when it was not marked before.
 * Returns 1 when the bound's limit is now exceeded, else 0. */
static int mark_node(unsigned char *mark, int u, int bit, struct sdg_bound *bound)
{
	if (bound && !mark[u])
		bound->sum += bound->weight[u];
	mark[u] |= (unsigned char)bit;
	return bound && bound->sum > bound->limit;
}

/* Follows edges backwards from the nodes in work (already marked with bit) for one pass.
 * Returns 1 if it stopped at the bound's limit, else 0. */
static int traverse(const struct sdg *g, unsigned char *mark, struct intvec *work, int bit,
		    struct sdg_bound *bound)
{
	while (work->n > 0) {
		int v = work->v[--work->n];

		for (int e = g->node[v].in; e >= 0; e = g->edge[e].next) {
			int kind = g->edge[e].kind, u = g->edge[e].src;

			if (bit == PASS1 ? kind == SDG_PARAM_OUT : (kind == SDG_CALL || kind == SDG_PARAM_IN))
				continue;
			if (!(mark[u] & bit)) {
				if (mark_node(mark, u, bit, bound))
					return 1;
				intvec_push(work, u);
			}
		}
	}
	return 0;
}

/* Both passes from the nodes in work (marked for pass 1 by the caller). Returns 1 if it
 * stopped at the bound's limit, else 0. */
static int two_passes(const struct sdg *g, unsigned char *mark, struct intvec *work,
		      struct sdg_bound *bound)
{
	if (traverse(g, mark, work, PASS1, bound))
		return 1;
	for (int v = 0; v < g->n; v++) {
		if ((mark[v] & PASS1) && !(mark[v] & PASS2)) {
			mark[v] |= PASS2;
			intvec_push(work, v);
		}
	}
	return traverse(g, mark, work, PASS2, bound);
}

/*
 * Marks the actual-ins of kept call sites whose formal-ins are marked (for the second pass);
 * returns how many, or -1 if it stopped at the bound's limit.
 */
static int match_actuals(const struct sdg *g, unsigned char *mark, struct intvec *work,
			 struct sdg_bound *bound)
{
	struct intvec acts = {0};
	int over = 0;

	for (int c = 0; c < g->ncalls && !over; c++) {
		const struct sdg_call *call = &g->call[c];

		if (!mark[call->site])
			continue;
		for (int j = 0; j < call->ncallees && !over; j++) {
			const struct sdg_fn *f = &g->fn[call->callee[j]];

			for (int i = 0; i < call->nargs && !over; i++) {
				int fp = formal_param(f, i);

				if (fp >= 0 && mark[fp] && !mark[call->arg[i]]) {
					over = mark_node(mark, call->arg[i], PASS2, bound);
					intvec_push(work, call->arg[i]);
				}
			}
			for (int i = 0; i < f->in.n && !over; i++) {
				if (!mark[f->in.node[i]])
					continue;
				acts.n = 0;
				group_actuals(&g->fn[call->fn], f, f->in.loc[i], &call->in, &acts);
				for (int a = 0; a < acts.n && !over; a++) {
					int ai = call->in.node[acts.v[a]];

					if (!mark[ai]) {
						over = mark_node(mark, ai, PASS2, bound);
						intvec_push(work, ai);
					}
				}
			}
		}
	}
	intvec_release(&acts);
	return over ? -1 : work->n;
}

/*
 * The matched actual-ins are sliced by the second pass only: the caller runs only where its
 * kept call sites call it, and those get their own matched actual-ins in the next round;
 * ascending to every caller, as the first pass does for a criterion, would keep call sites
 * the slice does not need.
 */
int sdg_slice_within(const struct sdg *g, const int *criteria, int ncriteria, unsigned char *mark,
		     struct sdg_bound *bound)
{
	struct intvec work = {0};
	int n = 0, over = 0, matched;

	for (int i = 0; i < ncriteria && !over; i++) {
		if (criteria[i] >= 0 && !(mark[criteria[i]] & PASS1)) {
			over = mark_node(mark, criteria[i], PASS1, bound);
			intvec_push(&work, criteria[i]);
		}
	}
	over = over || two_passes(g, mark, &work, bound);
	while (!over && (matched = match_actuals(g, mark, &work, bound)) != 0)
		over = matched < 0 || traverse(g, mark, &work, PASS2, bound);
	intvec_release(&work);
	if (over)
		return -1;
	for (int v = 0; v < g->n; v++)
		n += mark[v] != 0;
	return n;
}

int sdg_slice(const struct sdg *g, const int *criteria, int ncriteria, unsigned char *mark)
{
	return sdg_slice_within(g, criteria, ncriteria, mark, NULL);
}

int sdg_why(const struct sdg *g, const unsigned char *mark, const int *criteria, int ncriteria,
	    int target, struct intvec *chain, struct intvec *kinds)
{
	int *towards = xmalloc(sizeof *towards * (size_t)(g->n + 1)); /* next node to a criterion */
	unsigned char *via = xcalloc((size_t)g->n + 1, 1);               /* that edge's kind */
	struct intvec queue = {0};
	int len = 0;

	for (int v = 0; v < g->n; v++)
		towards[v] = -2;
	for (int i = 0; i < ncriteria; i++) {
		if (criteria[i] >= 0 && towards[criteria[i]] == -2) {
			towards[criteria[i]] = -1;
			intvec_push(&queue, criteria[i]);
		}
	}
	for (int head = 0; head < queue.n && towards[target] == -2; head++) {
		int v = queue.v[head];

		for (int e = g->node[v].in; e >= 0; e = g->edge[e].next) {
			int u = g->edge[e].src;

			if (mark[u] && towards[u] == -2) {
				towards[u] = v;
				via[u] = g->edge[e].kind;
				intvec_push(&queue, u);
			}
		}
	}
	for (int v = towards[target] == -2 ? -1 : target; v >= 0; v = towards[v]) {
		intvec_push(chain, v);
		intvec_push(kinds, via[v]);
		len++;
	}
	intvec_release(&queue);
	free(towards);
	free(via);
	return len;
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
		free(g->fn[k].group);
		free(g->fn[k].first);
		free(g->fn[k].member);
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
