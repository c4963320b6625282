/*
 * instrument.c: feature counters for a whole program.
 *
 * Algorithm. Every reachable block gets a counter (ByCounter's per-block counting: one increment
 * per block instead of one per instruction); blocks that every run enters equally often (equiv.c)
 * share one counter and one increment. Features are formulas over counters
 * (manifest.h), so most need no probe of their own:
 *   branch true    the count of the successor on the true side if control enters it only
 *                  from this branch (likewise false); else a counter += zext(cond) before the
 *                  branch; the other side is block - that side
 *   switch case    the count of the case's target block; targets with more than one incoming
 *                  edge get a block of their own on that edge first (split_switch_edges)
 *   loop           the sum over its retreating edges of the edge count: the source block's count
 *                  for an unconditional branch, its true or false count for a conditional one
 *   call           a defined function: its entry block's count; an external call site: its
 *                  block's count, plus a counter summing each integer argument (and the bytes of
 *                  fread/fwrite/calloc/qsort/bsearch, size times count)
 *   value          per named variable, at each assignment: llvm.dbg.value after mem2reg
 *                  (locals and parameters; not at phis, which merge assignments made
 *                  elsewhere), a store to the alloca of a dbg.declare'd local (address taken),
 *                  a store to a global (static locals too): counters for the sum, the number
 *                  of assignments and the first K values (--values-first, K = 1: .first); the
 *                  mean is sum / number. Integers as they are; float, double and long double
 *                  in fixed point, round(value * 2^VALUE_SHIFT) clamped to 64 bits, so sums
 *                  stay exact under the runtime's 64-bit additions (features carry the shift)
 *   exit           the count of the block calling exit/abort/longjmp...; main's non-zero returns
 *   bycount        per function and in total, sum over blocks of the block's static opcode
 *                  histogram times its count
 * Planning (probes and features) runs per function on a fresh cfg; emission runs once, when the
 * number of counters and so the type of __mantis_counters ([N x i64]) is known.
 * The counter array is thread-local; pthread_create goes through the runtime (rt/mantisrt.c),
 * which adds each thread's counts up when it ends.
 * The program's functions and calls lose their memory-effect attributes (readnone, readonly,
 * argmemonly...): once they count, they write memory, and an optimiser that believed the
 * attributes would merge two calls of a readnone function into one or fold the counters a
 * readonly one adds (gzip's bi_reverse and getcrc in an evaluator: 1.6% of a count, and 0).
 * Invariant: a probe only reads values defined before the instruction it is inserted before.
 */
#include "instrument.h"

#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "equiv.h"
#include "error.h"
#include "ir.h"
#include "manifest.h"
#include "members.h"
#include "util.h"

/* What a probe does. */
enum probe_kind {
	PROBE_BLOCK,   /* counter += 1 */
	PROBE_COND,    /* counter += zext(value) */
	PROBE_ADD,     /* counter += value (as a 64-bit integer) */
	PROBE_MUL_ADD, /* counter += value * value2 */
	PROBE_VALUE,   /* sum += value; version[count] = value if count < nfirst; count += 1 */
	PROBE_NONZERO, /* counter += (value != 0) */
};

/* One planned update of counters. */
struct probe {
	enum probe_kind kind; /* what it does */
	LLVMValueRef at;      /* inserted before this instruction */
	LLVMValueRef value;   /* the value it reads (not for PROBE_BLOCK) */
	LLVMValueRef value2;  /* the second factor of PROBE_MUL_ADD */
	int is_unsigned;      /* value is zero-extended (else sign-extended) to 64 bits */
	int counter;          /* the counter it updates (the sum for PROBE_VALUE) */
	int count, first;     /* PROBE_VALUE: counters of the number of assignments, first value */
	int nfirst;           /* PROBE_VALUE: counters first .. first + nfirst - 1 keep the first
				 nfirst values */
	int is_float;         /* PROBE_VALUE: value is floating point, counted in fixed point */
	int block;            /* the counter of the block it is in (how often it runs) */
};

/* Counters of one named variable. */
struct variable {
	LLVMMetadataRef md;   /* its DILocalVariable (a local), else NULL */
	LLVMValueRef global;  /* the global variable, else NULL */
	LLVMTypeRef st;       /* a struct field: the struct's IR type, else NULL */
	unsigned field;       /* a struct field: its index in st */
	int sum, count, first;/* its counters; versions 2..K follow first */
	int is_float;         /* its values are floating point (fixed-point features) */
	int is_unsigned;      /* its integer values are zero-extended (by its debug type) */
};

/* Fixed point of floating-point values: counted as round(value * 2^VALUE_SHIFT). 16 bits keep
 * 1/65536 (4.8 decimal places) and values up to 2^47 (1.4e14) in magnitude, per assignment
 * and for a sum (64-bit additions wrap, so only the final sum must fit). */
#define VALUE_SHIFT 16

/* The instrumentation of one module. */
struct inst {
	LLVMContextRef ctx;   /* the module's context */
	LLVMModuleRef mod;    /* the module */
	unsigned schemes;     /* SCHEME_* bits */
	struct manifest *m;   /* features found so far */
	int ncounters;        /* counters allocated so far */
	struct probe *probes; /* planned probes; owned */
	int nprobes, capprobes;
	struct variable *vars;/* variables of the current function; owned */
	int nvars;
	struct variable *globals; /* global variables stored to so far; owned */
	int nglobals;
	struct members *members; /* struct members' names, read at the first field; owned */
	int nfirst;           /* first values kept per variable (--values-first), >= 1 */
	unsigned loop_md;     /* metadata kind id of llvm.loop */
	LLVMValueRef scope_list; /* !{mantis scope}: the counters' alias scope (see no_alias) */
	const unsigned char *keep; /* for slicing: the counters to keep (each a plain global); NULL:
				      all, in the thread-local array */
	LLVMValueRef *slot;   /* for slicing: each kept counter's global, else NULL; owned */
	const unsigned char *drop; /* for the overhead budget: probes updating counter c with
				      drop[c] != 0 are not emitted; NULL: none dropped */
	int total;            /* index of bycount:(program):total, or -1 */
	int *total_op;        /* indices of bycount:(program):OPCODE by opcode, -1 if none yet */
};

/* Per-function planning state. */
struct fn_plan {
	struct cfg cfg;       /* the function's graph */
	const char *name;     /* the function's name */
	int *block;           /* counter of each block, -1 if unreachable; owned */
	int *truec;           /* counter of each block's true side, -1 if none yet; owned */
};

#define NOPCODES 70 /* above the largest LLVMOpcode value of LLVM 14 */

static int new_counter(struct inst *in)
{
	return in->ncounters++;
}

static struct probe *add_probe(struct inst *in, enum probe_kind kind, LLVMValueRef at,
			       LLVMValueRef value, int counter)
{
	struct probe *p;

	if (in->nprobes == in->capprobes) {
		in->capprobes = in->capprobes ? 2 * in->capprobes : 256;
		in->probes = xrealloc(in->probes, sizeof *in->probes * (size_t)in->capprobes);
	}
	p = &in->probes[in->nprobes++];
	memset(p, 0, sizeof *p);
	p->kind = kind;
	p->at = at;
	p->value = value;
	p->counter = counter;
	return p;
}

/* ---- debug information ------------------------------------------------------------------ */

/* Source position of a DILocation (or "?"/0). file points into LLVM's storage. */
static void location_of_md(LLVMMetadataRef loc, const char **file, int *line)
{
	unsigned len;

	*file = "?";
	*line = 0;
	if (!loc || LLVMGetMetadataKind(loc) != LLVMDILocationMetadataKind)
		return;
	*line = (int)LLVMDILocationGetLine(loc);
	if (LLVMDILocationGetScope(loc) && LLVMDIScopeGetFile(LLVMDILocationGetScope(loc)))
		*file = LLVMDIFileGetFilename(LLVMDIScopeGetFile(LLVMDILocationGetScope(loc)), &len);
}

/* Source position of an instruction; without debug information, its IR position: file "ir",
 * line the number of its block in the function (1 for the entry). */
static void location_of(LLVMValueRef inst, const char **file, int *line)
{
	LLVMBasicBlockRef block;
	int k = 1;

	location_of_md(inst ? LLVMInstructionGetDebugLoc(inst) : NULL, file, line);
	if (*line > 0 || !inst)
		return;
	block = LLVMGetInstructionParent(inst);
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(LLVMGetBasicBlockParent(block)); b && b != block;
	     b = LLVMGetNextBasicBlock(b))
		k++;
	*file = "ir";
	*line = k;
}

/* The line of a function's definition and its file. */
static void function_location(LLVMValueRef fn, const char **file, int *line)
{
	LLVMMetadataRef sp = LLVMGetSubprogram(fn);
	unsigned len;

	*file = "?";
	*line = 0;
	if (!sp)
		return;
	*line = (int)LLVMDISubprogramGetLine(sp);
	if (LLVMDIScopeGetFile(sp))
		*file = LLVMDIFileGetFilename(LLVMDIScopeGetFile(sp), &len);
}

/* The loop's start location from llvm.loop metadata on its latch, if clang put one there. */
static int loop_location(struct inst *in, LLVMValueRef latch_term, const char **file, int *line)
{
	LLVMValueRef md = LLVMGetMetadata(latch_term, in->loop_md), ops[8];
	unsigned n;

	if (!md)
		return 0;
	n = LLVMGetMDNodeNumOperands(md);
	if (n < 2 || n > 8)
		return 0;
	LLVMGetMDNodeOperands(md, ops);
	if (!ops[1])
		return 0;
	location_of_md(LLVMValueAsMetadata(ops[1]), file, line);
	return *line > 0;
}

/* Returns whether fn's code is not ours to instrument: a declaration, or an
 * available_externally body (a library's inline copy, used only for inlining). */
static int is_external(LLVMValueRef fn)
{
	return LLVMIsDeclaration(fn) || LLVMGetLinkage(fn) == LLVMAvailableExternallyLinkage;
}

/* ---- names and features ----------------------------------------------------------------- */

static const char *value_name(LLVMValueRef v)
{
	size_t len;
	const char *s = LLVMGetValueName2(v, &len);

	return s && *s ? s : "?";
}

/* Adds a feature and returns it. The pointer is good until the next feature is added (the
 * array grows): keep an index (in->m->n - 1) across additions. */
static struct feature *add_feature(struct inst *in, const char *kind, const char *function,
				   const char *file, int line, const char *detail,
				   const char *variable, const char *description)
{
	char *name = detail ? xasprintf("%s:%s:%s:%d:%s", kind, function, file, line, detail)
			    : xasprintf("%s:%s:%s:%d", kind, function, file, line);
	struct feature *f = manifest_add(in->m, kind, name, function, file, line, variable,
					 description);

	free(name);
	return f;
}

/* A name in unique_names' table: the first feature carrying it, and the next suffix to try. */
struct name_slot {
	const char *name; /* the name (a feature's, alive while the table is); NULL: empty slot */
	int first;        /* the lowest index of a feature with this name */
	int next_k;       /* as a base name: the smallest k >= 2 whose name#k may still be free */
};

/* Returns the slot of name in table (size a power of two): its own, or the empty one where it
 * belongs. */
static struct name_slot *name_slot(struct name_slot *table, size_t size, const char *name)
{
	uint64_t h = 1469598103934665603ull;

	for (const char *s = name; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	for (h &= size - 1; table[h].name && strcmp(table[h].name, name) != 0; h = (h + 1) & (size - 1))
		;
	return &table[h];
}

/*
 * Makes every feature name unique by appending #2, #3, ... in manifest order: a feature whose
 * name an earlier one carries gets the smallest #k that no feature carries. One hash table of
 * every name (originals and the new ones), so it is linear in the number of features. The
 * smallest free k of a base name never decreases (names only join the table), so each base name
 * remembers where its search stopped.
 */
static void unique_names(struct manifest *m)
{
	size_t size = 16;
	struct name_slot *table;

	while (size < 4 * (size_t)m->n) /* originals and renamed ones, at most half full */
		size *= 2;
	table = xcalloc(size, sizeof *table);
	for (int i = 0; i < m->n; i++) {
		struct name_slot *s = name_slot(table, size, m->v[i].name);

		if (!s->name)
			*s = (struct name_slot){m->v[i].name, i, 2};
	}
	for (int i = 0; i < m->n; i++) {
		struct name_slot *base = name_slot(table, size, m->v[i].name), *s;
		char *alt;

		if (base->first == i)
			continue;
		for (;; base->next_k++) {
			alt = xasprintf("%s#%d", m->v[i].name, base->next_k);
			s = name_slot(table, size, alt);
			if (!s->name)
				break;
			free(alt);
		}
		base->next_k++;
		*s = (struct name_slot){alt, i, 2};
		free(m->v[i].name); /* the base slot names the first feature's copy, not this one */
		m->v[i].name = alt;
	}
	free(table);
}

/* ---- edges and counts ------------------------------------------------------------------- */

/* Returns the counter of block k's true side, planning its probe on first use. */
static int true_counter(struct inst *in, struct fn_plan *fp, int k)
{
	LLVMValueRef term = LLVMGetBasicBlockTerminator(fp->cfg.block[k]);

	if (fp->truec[k] < 0) {
		fp->truec[k] = new_counter(in);
		add_probe(in, PROBE_COND, term, LLVMGetCondition(term), fp->truec[k]);
	}
	return fp->truec[k];
}

/* Adds sign times the count of side (0 true, 1 false) of block k's conditional branch to f.
 * A successor entered only through that side counts it already (its block counter), so no
 * probe is needed; only when neither successor is entered only from k is one planned. */
static void add_side_count(struct inst *in, struct fn_plan *fp, struct feature *f, int k,
			   int side, int sign)
{
	int t = fp->cfg.succ[k][0], e = fp->cfg.succ[k][1];

	if (t != e && fp->cfg.npred[t] == 1) {
		if (side == 0) {
			feature_add_term(f, fp->block[t], sign);
		} else {
			feature_add_term(f, fp->block[k], sign);
			feature_add_term(f, fp->block[t], -sign);
		}
	} else if (t != e && fp->cfg.npred[e] == 1) {
		if (side == 1) {
			feature_add_term(f, fp->block[e], sign);
		} else {
			feature_add_term(f, fp->block[k], sign);
			feature_add_term(f, fp->block[e], -sign);
		}
	} else if (side == 0) {
		feature_add_term(f, true_counter(in, fp, k), sign);
	} else {
		feature_add_term(f, fp->block[k], sign);
		feature_add_term(f, true_counter(in, fp, k), -sign);
	}
}

/* Adds to f the count of edge (from, successor s): how often control went that way. */
static void add_edge_count(struct inst *in, struct fn_plan *fp, struct feature *f, int from, int s)
{
	LLVMValueRef term = LLVMGetBasicBlockTerminator(fp->cfg.block[from]);
	int to = fp->cfg.succ[from][s];

	if (LLVMIsABranchInst(term) && LLVMIsConditional(term) && fp->cfg.succ[from][0] != fp->cfg.succ[from][1]) {
		add_side_count(in, fp, f, from, s, 1);
	} else if (fp->cfg.nsucc[from] == 1 || fp->cfg.npred[to] != 1) {
		feature_add_term(f, fp->block[from], 1);
	} else {
		feature_add_term(f, fp->block[to], 1); /* a split switch edge: its own block */
	}
}

/*
 * Gives every switch edge whose target has other incoming edges a block of its own, so each
 * case is counted by a block counter. Phis of the target get the new block in place of one
 * occurrence of the switch's block (rebuilt: LLVM-C cannot change an incoming block).
 */
static void split_switch_edges(struct inst *in, LLVMValueRef fn)
{
	struct cfg cfg;
	LLVMBuilderRef b = LLVMCreateBuilderInContext(in->ctx);

	cfg_build(&cfg, fn);
	for (int k = 0; k < cfg.n; k++) {
		LLVMValueRef sw = LLVMGetBasicBlockTerminator(cfg.block[k]);

		if (!sw || !LLVMIsASwitchInst(sw) || cfg.rpo_number[k] < 0)
			continue;
		for (int s = 0; s < cfg.nsucc[k]; s++) {
			LLVMBasicBlockRef target = LLVMGetSuccessor(sw, (unsigned)s);
			LLVMBasicBlockRef edge;

			if (cfg.npred[cfg.succ[k][s]] == 1)
				continue;
			edge = LLVMAppendBasicBlockInContext(in->ctx, fn, "mantis.case");
			LLVMPositionBuilderAtEnd(b, edge);
			LLVMBuildBr(b, target);
			LLVMSetSuccessor(sw, (unsigned)s, edge);
			for (LLVMValueRef phi = LLVMGetFirstInstruction(target); phi && LLVMIsAPHINode(phi);) {
				LLVMValueRef next = LLVMGetNextInstruction(phi), np;
				int done = 0;

				LLVMPositionBuilderBefore(b, phi);
				np = LLVMBuildPhi(b, LLVMTypeOf(phi), "");
				for (unsigned j = 0; j < LLVMCountIncoming(phi); j++) {
					LLVMValueRef v = LLVMGetIncomingValue(phi, j);
					LLVMBasicBlockRef from = LLVMGetIncomingBlock(phi, j);

					if (!done && from == cfg.block[k]) {
						from = edge;
						done = 1;
					}
					LLVMAddIncoming(np, &v, &from, 1);
				}
				LLVMReplaceAllUsesWith(phi, np);
				LLVMInstructionEraseFromParent(phi);
				phi = next;
			}
		}
	}
	LLVMDisposeBuilder(b);
	cfg_release(&cfg);
}

/* ---- schemes ---------------------------------------------------------------------------- */

static void plan_branches(struct inst *in, struct fn_plan *fp)
{
	for (int i = 0; i < fp->cfg.nrpo; i++) {
		int k = fp->cfg.rpo[i];
		LLVMValueRef term = LLVMGetBasicBlockTerminator(fp->cfg.block[k]);
		const char *file;
		int line;

		location_of(term, &file, &line);
		if (LLVMIsABranchInst(term) && LLVMIsConditional(term)) {
			add_side_count(in, fp, add_feature(in, "branch", fp->name, file, line, "true", NULL,
							       "times the condition was true"), k, 0, 1);
			add_side_count(in, fp, add_feature(in, "branch", fp->name, file, line, "false",
							   NULL, "times the condition was false"), k, 1, 1);
		} else if (LLVMIsASwitchInst(term)) {
			for (int s = 0; s < fp->cfg.nsucc[k]; s++) {
				char *detail = s == 0 ? xstrdup("default")
						      : xasprintf("case=%lld", LLVMConstIntGetSExtValue(
										    LLVMGetOperand(term, (unsigned)(2 * s))));
				struct feature *f = add_feature(in, "switch", fp->name, file, line, detail,
								NULL, "times the switch took this case");

				add_edge_count(in, fp, f, k, s);
				free(detail);
			}
		}
	}
}

static void plan_loops(struct inst *in, struct fn_plan *fp)
{
	char *done = xcalloc((size_t)fp->cfg.n + 1, 1);

	for (int e = 0; e < fp->cfg.nretreat; e++) {
		int header = fp->cfg.retreat[e].to, irreducible = 0;
		const char *file = "?";
		int line = 0;
		struct feature *f;

		if (done[header])
			continue;
		done[header] = 1;
		for (int o = e; o < fp->cfg.nretreat; o++) {
			const struct cfg_edge *r = &fp->cfg.retreat[o];

			if (r->to != header)
				continue;
			irreducible |= !cfg_dominates(&fp->cfg, header, r->from);
			if (line == 0)
				loop_location(in, LLVMGetBasicBlockTerminator(fp->cfg.block[r->from]), &file, &line);
		}
		if (line == 0)
			location_of(LLVMGetBasicBlockTerminator(fp->cfg.block[header]), &file, &line);
		f = add_feature(in, "loop", fp->name, file, line, irreducible ? "irreducible" : NULL, NULL,
				irreducible ? "times control went round an irreducible cycle"
					    : "loop iterations (times a back edge was taken)");
		for (int o = e; o < fp->cfg.nretreat; o++) {
			if (fp->cfg.retreat[o].to == header)
				add_edge_count(in, fp, f, fp->cfg.retreat[o].from, fp->cfg.retreat[o].succ);
		}
	}
	free(done);
}

/* Returns the user-facing name of an external callee, or NULL to ignore the call. */
static const char *external_name(LLVMValueRef callee)
{
	static const char *const intrinsics[] = {"llvm.memcpy", "llvm.memmove", "llvm.memset"};
	const char *name = value_name(callee);

	if (strncmp(name, "llvm.", 5) != 0)
		return name;
	for (size_t i = 0; i < sizeof intrinsics / sizeof *intrinsics; i++) {
		if (strncmp(name, intrinsics[i], strlen(intrinsics[i])) == 0)
			return intrinsics[i] + 5;
	}
	return NULL;
}

/* For calls whose cost is size times count, the argument positions of the two. */
static int size_pair(const char *name, unsigned *a, unsigned *b)
{
	static const struct { const char *name; unsigned a, b; } pairs[] = {
		{"fread", 1, 2}, {"fwrite", 1, 2}, {"calloc", 0, 1}, {"qsort", 1, 2}, {"bsearch", 2, 3},
	};

	for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
		if (strcmp(name, pairs[i].name) == 0) {
			*a = pairs[i].a;
			*b = pairs[i].b;
			return 1;
		}
	}
	return 0;
}

static int is_integer(LLVMValueRef v)
{
	LLVMTypeRef t = LLVMTypeOf(v);

	return LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) >= 8 &&
	       LLVMGetIntTypeWidth(t) <= 64;
}

static void plan_external_call(struct inst *in, struct fn_plan *fp, int k, LLVMValueRef call,
			       const char *callee)
{
	const char *file;
	int line;
	unsigned nargs = (unsigned)LLVMGetNumArgOperands(call), a, b;
	struct feature *f;

	location_of(call, &file, &line);
	f = add_feature(in, "call", callee, file, line, "count", NULL, "calls made at this site");
	feature_add_term(f, fp->block[k], 1);
	for (unsigned i = 0; i < nargs; i++) {
		LLVMValueRef arg = LLVMGetOperand(call, i);
		char detail[32];
		int c;

		if (!is_integer(arg))
			continue;
		c = new_counter(in);
		add_probe(in, PROBE_ADD, call, arg, c)->is_unsigned = 1;
		snprintf(detail, sizeof detail, "arg%u.sum", i + 1);
		feature_add_term(add_feature(in, "call", callee, file, line, detail, NULL,
					     "sum of this integer argument over the calls"), c, 1);
	}
	if (size_pair(callee, &a, &b) && a < nargs && b < nargs &&
	    is_integer(LLVMGetOperand(call, a)) && is_integer(LLVMGetOperand(call, b))) {
		int c = new_counter(in);
		struct probe *p = add_probe(in, PROBE_MUL_ADD, call, LLVMGetOperand(call, a), c);

		p->value2 = LLVMGetOperand(call, b);
		p->is_unsigned = 1;
		feature_add_term(add_feature(in, "call", callee, file, line, "bytes.sum", NULL,
					     "sum of size times count over the calls"), c, 1);
	}
}

static int is_exit_call(const char *name)
{
	static const char *const names[] = {"exit", "_exit", "_Exit", "quick_exit", "abort",
					    "longjmp", "siglongjmp", "_longjmp", "__assert_fail"};

	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		if (strcmp(name, names[i]) == 0)
			return 1;
	}
	return 0;
}

static void plan_calls_and_exits(struct inst *in, struct fn_plan *fp)
{
	for (int i = 0; i < fp->cfg.nrpo; i++) {
		int k = fp->cfg.rpo[i];

		for (LLVMValueRef x = LLVMGetFirstInstruction(fp->cfg.block[k]); x; x = LLVMGetNextInstruction(x)) {
			LLVMValueRef callee;
			const char *name, *file;
			int line;

			if (!LLVMIsACallInst(x))
				continue;
			callee = LLVMGetCalledValue(x);
			if (!LLVMIsAFunction(callee)) {
				if ((in->schemes & SCHEME_CALL) && !LLVMIsAInlineAsm(callee)) {
					location_of(x, &file, &line);
					feature_add_term(add_feature(in, "call", "(indirect)", file, line, "count",
								     NULL, "calls through a function pointer"),
							 fp->block[k], 1);
				}
				continue;
			}
			if (!is_external(callee) || !(name = external_name(callee)))
				continue;
			if ((in->schemes & SCHEME_EXIT) && is_exit_call(name)) {
				location_of(x, &file, &line);
				feature_add_term(add_feature(in, "exit", fp->name, file, line, name, NULL,
							     "times the program ended or jumped out here"),
						 fp->block[k], 1);
			}
			if (in->schemes & SCHEME_CALL)
				plan_external_call(in, fp, k, x, name);
		}
	}
}

static void plan_main_returns(struct inst *in, struct fn_plan *fp)
{
	const char *file;
	int line, c = -1;

	function_location(fp->cfg.fn, &file, &line);
	for (int i = 0; i < fp->cfg.nrpo; i++) {
		LLVMValueRef term = LLVMGetBasicBlockTerminator(fp->cfg.block[fp->cfg.rpo[i]]);

		if (!LLVMIsAReturnInst(term) || LLVMGetNumOperands(term) != 1 ||
		    !is_integer(LLVMGetOperand(term, 0)))
			continue;
		if (c < 0) {
			c = new_counter(in);
			feature_add_term(add_feature(in, "exit", "main", file, line, "error-return", NULL,
						     "times main returned a non-zero status"), c, 1);
		}
		add_probe(in, PROBE_NONZERO, term, LLVMGetOperand(term, 0), c);
	}
}

/* Returns whether a variable of debug type ty should be read as unsigned (by its name). */
static int unsigned_type(LLVMMetadataRef ty)
{
	size_t len;
	const char *name = ty ? LLVMDITypeGetName(ty, &len) : NULL;

	if (!name)
		return 0;
	return strstr(name, "unsigned") || strcmp(name, "size_t") == 0 || strcmp(name, "_Bool") == 0 ||
	       strcmp(name, "bool") == 0 || (name[0] == 'u' && strstr(name, "int") && strstr(name, "_t"));
}

/* Returns operand i of a metadata node given as a value, as metadata (or NULL). */
static LLVMMetadataRef md_operand(LLVMValueRef node, unsigned i)
{
	LLVMValueRef ops[16];
	unsigned n = LLVMGetMDNodeNumOperands(node);

	if (i >= n || n > 16)
		return NULL;
	LLVMGetMDNodeOperands(node, ops);
	return ops[i] ? LLVMValueAsMetadata(ops[i]) : NULL;
}

/* Adds feature value:FUNCTION:FILE:LINE:NAME.WHAT = counter (divided by counter per if per >=
 * 0), in fixed point with shift. */
static void value_feature(struct inst *in, const char *function, const char *file, int line,
			  const char *name, const char *what, const char *description, int counter,
			  int per, int shift)
{
	char *detail = xasprintf("%s.%s", name, what);
	struct feature *f = add_feature(in, "value", function, file, line, detail, name, description);

	feature_add_term(f, counter, 1);
	f->denominator = per;
	f->shift = shift;
	free(detail);
}

/* Gives *v (its key set by the caller) its counters and features: sum, count, mean, first and,
 * with --values-first K > 1, v1..vK (v1 is first's counter, v2..vK the ones after it). */
static void new_variable(struct inst *in, struct variable *v, const char *function,
			 const char *file, int line, const char *name, int is_float)
{
	int shift = is_float ? VALUE_SHIFT : 0;

	v->sum = new_counter(in);
	v->count = new_counter(in);
	v->first = new_counter(in);
	for (int i = 1; i < in->nfirst; i++)
		new_counter(in);
	v->is_float = is_float;
	value_feature(in, function, file, line, name, "sum", "sum of the values assigned", v->sum,
		      -1, shift);
	value_feature(in, function, file, line, name, "count", "number of assignments", v->count,
		      -1, 0);
	value_feature(in, function, file, line, name, "mean", "mean of the values assigned", v->sum,
		      v->count, shift);
	value_feature(in, function, file, line, name, "first", "first value assigned", v->first,
		      -1, shift);
	for (int i = 1; in->nfirst > 1 && i <= in->nfirst; i++) {
		char what[16], description[64];

		snprintf(what, sizeof what, "v%d", i);
		snprintf(description, sizeof description, "value of assignment %d (0 if there were fewer)", i);
		value_feature(in, function, file, line, name, what, description, v->first + i - 1, -1,
			      shift);
	}
}

/* Returns a variable's name (operand 1 of its DIVariable node, given as a value), or NULL. */
static const char *variable_name(LLVMValueRef node)
{
	LLVMValueRef ops[16];
	unsigned len, n = LLVMGetMDNodeNumOperands(node);
	const char *name;

	if (n < 2 || n > 16)
		return NULL;
	LLVMGetMDNodeOperands(node, ops);
	name = ops[1] ? LLVMGetMDString(ops[1], &len) : NULL;
	return name && *name ? name : NULL;
}

/* Returns the record of the local variable var_value (a DILocalVariable as a value) in the
 * current function, creating its features on first use; NULL if it has no name or its values
 * are of the other kind (integer, floating point) than is_float. */
static struct variable *variable_of(struct inst *in, struct fn_plan *fp, LLVMValueRef var_value,
				    int is_float)
{
	LLVMMetadataRef md = LLVMValueAsMetadata(var_value), file_md;
	const char *name = variable_name(var_value), *file = "?";
	unsigned len;
	struct variable *v;

	for (int i = 0; i < in->nvars; i++) {
		if (in->vars[i].md == md)
			return in->vars[i].is_float == is_float ? &in->vars[i] : NULL;
	}
	if (!name)
		return NULL;
	file_md = LLVMDIVariableGetFile(md);
	if (file_md)
		file = LLVMDIFileGetFilename(file_md, &len);
	in->vars = xrealloc(in->vars, sizeof *in->vars * (size_t)(in->nvars + 1));
	v = &in->vars[in->nvars++];
	*v = (struct variable){.md = md, .is_unsigned = unsigned_type(md_operand(var_value, 3))};
	new_variable(in, v, fp->name, file, (int)LLVMDIVariableGetLine(md), name, is_float);
	return v;
}

/* Returns global g's DIGlobalVariable as a value, or NULL without debug information. */
static LLVMValueRef global_debug_variable(struct inst *in, LLVMValueRef g)
{
	unsigned dbg = LLVMGetMDKindIDInContext(in->ctx, "dbg", 3);
	size_t n;
	LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(g, &n);
	LLVMMetadataRef var = NULL;

	for (unsigned i = 0; i < n && !var; i++) {
		if (LLVMValueMetadataEntriesGetKind(md, i) == dbg)
			var = LLVMDIGlobalVariableExpressionGetVariable(
				LLVMValueMetadataEntriesGetMetadata(md, i));
	}
	if (md)
		LLVMDisposeValueMetadataEntries(md);
	return var ? LLVMMetadataAsValue(in->ctx, var) : NULL;
}

/*
 * Returns the record of global variable g, creating its features on first use: function
 * "(global)", or for a static local (clang names it FUNCTION.NAME) its function; name, file and
 * line from its debug information, else its IR name at ir:0. Returns NULL for the runtime's and
 * LLVM's globals, and if its values are not of the kind is_float says.
 */
static struct variable *global_of(struct inst *in, LLVMValueRef g, int is_float)
{
	const char *ir_name = value_name(g), *name = ir_name, *file = "ir";
	LLVMValueRef node;
	char *function = NULL;
	int line = 0;
	size_t len;
	unsigned flen;
	struct variable *v;

	for (int i = 0; i < in->nglobals; i++) {
		if (in->globals[i].global == g)
			return in->globals[i].is_float == is_float ? &in->globals[i] : NULL;
	}
	if (strncmp(ir_name, "llvm.", 5) == 0 || strncmp(ir_name, "__mantis", 8) == 0)
		return NULL;
	node = global_debug_variable(in, g);
	if (node && variable_name(node)) {
		LLVMMetadataRef md = LLVMValueAsMetadata(node);

		name = variable_name(node);
		line = (int)LLVMDIVariableGetLine(md);
		file = LLVMDIVariableGetFile(md) ? LLVMDIFileGetFilename(LLVMDIVariableGetFile(md), &flen)
						 : "?";
		len = strlen(ir_name);
		if (len > strlen(name) + 1 && strcmp(ir_name + len - strlen(name), name) == 0 &&
		    ir_name[len - strlen(name) - 1] == '.')
			function = xasprintf("%.*s", (int)(len - strlen(name) - 1), ir_name);
	}
	in->globals = xrealloc(in->globals, sizeof *in->globals * (size_t)(in->nglobals + 1));
	v = &in->globals[in->nglobals++];
	*v = (struct variable){.global = g, .is_unsigned = node && unsigned_type(md_operand(node, 3))};
	new_variable(in, v, function ? function : "(global)", file, line, name, is_float);
	free(function);
	return v;
}

/* Returns whether value v is available just before instruction at (block k). */
static int available_before(struct fn_plan *fp, LLVMValueRef v, LLVMValueRef at, int k)
{
	int vk;

	if (!LLVMIsAInstruction(v))
		return LLVMIsAConstant(v) || LLVMIsAArgument(v);
	vk = cfg_index(&fp->cfg, LLVMGetInstructionParent(v));
	if (vk != k)
		return vk >= 0 && cfg_dominates(&fp->cfg, vk, k);
	for (LLVMValueRef x = LLVMGetPreviousInstruction(at); x; x = LLVMGetPreviousInstruction(x)) {
		if (x == v)
			return 1;
	}
	return 0;
}

/* Returns whether v is a floating-point value the value scheme counts (in fixed point). */
static int is_floating(LLVMValueRef v)
{
	LLVMTypeKind k = LLVMGetTypeKind(LLVMTypeOf(v));

	return k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind || k == LLVMX86_FP80TypeKind;
}

/* Returns whether assigning v can be counted: a defined integer (8 to 64 bits) or float. */
static int countable(LLVMValueRef v)
{
	return (is_integer(v) || is_floating(v)) && !LLVMIsUndef(v) && !LLVMIsPoison(v);
}

/*
 * If x is a call of llvm.dbg.value or llvm.dbg.declare (which) about a whole variable (empty
 * expression), returns the variable (a DILocalVariable as a value) and sets *loc to the value
 * or address it gives; else returns NULL.
 */
static LLVMValueRef debug_call(LLVMValueRef x, const char *which, LLVMValueRef *loc)
{
	LLVMValueRef callee, op;
	LLVMMetadataRef md;
	char *expr;
	int empty;

	if (!LLVMIsACallInst(x) || !LLVMIsAFunction(callee = LLVMGetCalledValue(x)) ||
	    strcmp(value_name(callee), which) != 0)
		return NULL;
	op = LLVMGetOperand(x, 0);
	md = LLVMValueAsMetadata(op);
	if (LLVMGetMetadataKind(md) != LLVMLocalAsMetadataMetadataKind &&
	    LLVMGetMetadataKind(md) != LLVMConstantAsMetadataMetadataKind)
		return NULL;
	expr = LLVMPrintValueToString(LLVMGetOperand(x, 2));
	empty = strstr(expr, "!DIExpression()") != NULL;
	LLVMDisposeMessage(expr);
	*loc = LLVMGetOperand(op, 0);
	return empty ? LLVMGetOperand(x, 1) : NULL;
}

/* Plans the probe of one assignment of val to v, before at. */
static void value_probe(struct inst *in, LLVMValueRef at, LLVMValueRef val, const struct variable *v)
{
	struct probe *p = add_probe(in, PROBE_VALUE, at, val, v->sum);

	p->count = v->count;
	p->first = v->first;
	p->nfirst = in->nfirst;
	p->is_unsigned = v->is_unsigned;
	p->is_float = v->is_float;
}

/* An address-taken local: its alloca and its DILocalVariable (as a value). */
struct declared {
	LLVMValueRef addr; /* the alloca llvm.dbg.declare names */
	LLVMValueRef var;  /* the variable */
};

/* Returns the scalar locals of fn that llvm.dbg.declare names (mem2reg could not promote them:
 * their address is taken), *n of them; owned by the caller. */
static struct declared *declared_locals(struct fn_plan *fp, int *n)
{
	struct declared *d = NULL;

	*n = 0;
	for (int i = 0; i < fp->cfg.nrpo; i++) {
		for (LLVMValueRef x = LLVMGetFirstInstruction(fp->cfg.block[fp->cfg.rpo[i]]); x;
		     x = LLVMGetNextInstruction(x)) {
			LLVMValueRef addr, var = debug_call(x, "llvm.dbg.declare", &addr);
			LLVMTypeKind k;

			if (!var || !LLVMIsAAllocaInst(addr))
				continue;
			k = LLVMGetTypeKind(LLVMGetAllocatedType(addr));
			if (k != LLVMIntegerTypeKind && k != LLVMFloatTypeKind && k != LLVMDoubleTypeKind &&
			    k != LLVMX86_FP80TypeKind)
				continue;
			d = xrealloc(d, sizeof *d * (size_t)(*n + 1));
			d[(*n)++] = (struct declared){addr, var};
		}
	}
	return d;
}

/*
 * Returns whether addr, a store's address, is a field of a struct: a getelementptr (instruction
 * or constant) whose last step selects field *index of the struct type *st, of val's type. Steps
 * into arrays before it are any (an array of structs), after it none (an element of an array
 * field is no field).
 */
static int struct_field(LLVMValueRef addr, LLVMValueRef val, LLVMTypeRef *st, unsigned *index)
{
	LLVMTypeRef t;
	int n;

	if (!LLVMIsAGetElementPtrInst(addr) &&
	    !(LLVMIsAConstantExpr(addr) && LLVMGetConstOpcode(addr) == LLVMGetElementPtr))
		return 0;
	n = LLVMGetNumOperands(addr);
	t = LLVMGetGEPSourceElementType(addr);
	*st = NULL;
	for (int i = 2; i < n; i++) { /* operand 1 steps over the pointer itself */
		LLVMValueRef step = LLVMGetOperand(addr, i);

		if (LLVMGetTypeKind(t) == LLVMStructTypeKind && LLVMIsAConstantInt(step)) {
			*st = t;
			*index = (unsigned)LLVMConstIntGetZExtValue(step);
			t = LLVMStructGetTypeAtIndex(t, *index);
		} else if (LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
			*st = NULL;
			t = LLVMGetElementType(t);
		} else {
			return 0;
		}
	}
	return *st && t == LLVMTypeOf(val);
}

/* Returns the record of field index of struct type st in the current function, creating its
 * features on first use (named by members_name, at store x's line); NULL for a field of no
 * named struct, or if its values are of the other kind (integer, floating point) than
 * is_float. */
static struct variable *field_of(struct inst *in, struct fn_plan *fp, LLVMValueRef x,
				 LLVMTypeRef st, unsigned index, int is_float)
{
	LLVMMetadataRef type;
	const char *file;
	char *name;
	int line;
	struct variable *v;

	for (int i = 0; i < in->nvars; i++) {
		if (in->vars[i].st == st && in->vars[i].field == index)
			return in->vars[i].is_float == is_float ? &in->vars[i] : NULL;
	}
	if (!in->members)
		in->members = members_read(in->mod);
	if (!(name = members_name(in->members, st, index, &type)))
		return NULL;
	location_of(x, &file, &line);
	in->vars = xrealloc(in->vars, sizeof *in->vars * (size_t)(in->nvars + 1));
	v = &in->vars[in->nvars++];
	*v = (struct variable){.st = st, .field = index, .is_unsigned = unsigned_type(type)};
	new_variable(in, v, fp->name, file, line, name, is_float);
	free(name);
	return v;
}

/* Plans the probe of store x if it assigns a whole declared local or a global variable (the
 * value scheme) or a field of a struct (the field scheme). */
static void plan_store(struct inst *in, struct fn_plan *fp, LLVMValueRef x,
		       const struct declared *d, int nd)
{
	LLVMValueRef val = LLVMGetOperand(x, 0), addr = LLVMGetOperand(x, 1);
	LLVMTypeRef st;
	unsigned index;
	struct variable *v;

	if (!countable(val))
		return;
	if ((in->schemes & SCHEME_VALUE) && LLVMIsAAllocaInst(addr) &&
	    LLVMGetAllocatedType(addr) == LLVMTypeOf(val)) {
		for (int i = 0; i < nd; i++) {
			if (d[i].addr == addr && (v = variable_of(in, fp, d[i].var, is_floating(val))))
				value_probe(in, x, val, v);
		}
	} else if ((in->schemes & SCHEME_VALUE) && LLVMIsAGlobalVariable(addr) &&
		   LLVMGlobalGetValueType(addr) == LLVMTypeOf(val) &&
		   (v = global_of(in, addr, is_floating(val)))) {
		value_probe(in, x, val, v);
	} else if ((in->schemes & SCHEME_FIELD) && struct_field(addr, val, &st, &index) &&
		   (v = field_of(in, fp, x, st, index, is_floating(val)))) {
		value_probe(in, x, val, v);
	}
}

static void plan_values(struct inst *in, struct fn_plan *fp)
{
	int nd;
	struct declared *d = declared_locals(fp, &nd);

	in->nvars = 0;
	for (int i = 0; i < fp->cfg.nrpo; i++) {
		int k = fp->cfg.rpo[i];

		for (LLVMValueRef x = LLVMGetFirstInstruction(fp->cfg.block[k]); x; x = LLVMGetNextInstruction(x)) {
			LLVMValueRef val, var;
			struct variable *v;

			if (LLVMIsAStoreInst(x)) {
				plan_store(in, fp, x, d, nd);
				continue;
			}
			/* a phi's value is a merge of assignments counted where they happened */
			if (!(in->schemes & SCHEME_VALUE) ||
			    !(var = debug_call(x, "llvm.dbg.value", &val)) || !countable(val) ||
			    LLVMIsAPHINode(val) || !available_before(fp, val, x, k) ||
			    !(v = variable_of(in, fp, var, is_floating(val))))
				continue;
			value_probe(in, x, val, v);
		}
	}
	free(d);
}

/* ---- bycount ---------------------------------------------------------------------------- */

static const char *opcode_name(LLVMOpcode op)
{
	static const char *const names[NOPCODES] = {
		[LLVMRet] = "ret", [LLVMBr] = "br", [LLVMSwitch] = "switch", [LLVMIndirectBr] = "indirectbr",
		[LLVMInvoke] = "invoke", [LLVMUnreachable] = "unreachable", [LLVMCallBr] = "callbr",
		[LLVMFNeg] = "fneg", [LLVMAdd] = "add", [LLVMFAdd] = "fadd", [LLVMSub] = "sub",
		[LLVMFSub] = "fsub", [LLVMMul] = "mul", [LLVMFMul] = "fmul", [LLVMUDiv] = "udiv",
		[LLVMSDiv] = "sdiv", [LLVMFDiv] = "fdiv", [LLVMURem] = "urem", [LLVMSRem] = "srem",
		[LLVMFRem] = "frem", [LLVMShl] = "shl", [LLVMLShr] = "lshr", [LLVMAShr] = "ashr",
		[LLVMAnd] = "and", [LLVMOr] = "or", [LLVMXor] = "xor", [LLVMAlloca] = "alloca",
		[LLVMLoad] = "load", [LLVMStore] = "store", [LLVMGetElementPtr] = "getelementptr",
		[LLVMTrunc] = "trunc", [LLVMZExt] = "zext", [LLVMSExt] = "sext", [LLVMFPToUI] = "fptoui",
		[LLVMFPToSI] = "fptosi", [LLVMUIToFP] = "uitofp", [LLVMSIToFP] = "sitofp",
		[LLVMFPTrunc] = "fptrunc", [LLVMFPExt] = "fpext", [LLVMPtrToInt] = "ptrtoint",
		[LLVMIntToPtr] = "inttoptr", [LLVMBitCast] = "bitcast", [LLVMAddrSpaceCast] = "addrspacecast",
		[LLVMICmp] = "icmp", [LLVMFCmp] = "fcmp", [LLVMPHI] = "phi", [LLVMCall] = "call",
		[LLVMSelect] = "select", [LLVMUserOp1] = "userop1", [LLVMUserOp2] = "userop2",
		[LLVMVAArg] = "va_arg", [LLVMExtractElement] = "extractelement",
		[LLVMInsertElement] = "insertelement", [LLVMShuffleVector] = "shufflevector",
		[LLVMExtractValue] = "extractvalue", [LLVMInsertValue] = "insertvalue",
		[LLVMFreeze] = "freeze", [LLVMFence] = "fence", [LLVMAtomicCmpXchg] = "cmpxchg",
		[LLVMAtomicRMW] = "atomicrmw", [LLVMResume] = "resume", [LLVMLandingPad] = "landingpad",
		[LLVMCleanupRet] = "cleanupret", [LLVMCatchRet] = "catchret", [LLVMCatchPad] = "catchpad",
		[LLVMCleanupPad] = "cleanuppad", [LLVMCatchSwitch] = "catchswitch",
	};

	return (unsigned)op < NOPCODES && names[op] ? names[op] : "other";
}

/* Returns whether x is a real instruction of the program (not a debug or lifetime marker). */
static int counts_as_instruction(LLVMValueRef x)
{
	LLVMValueRef callee;
	const char *name;

	if (!LLVMIsACallInst(x) || !LLVMIsAFunction(callee = LLVMGetCalledValue(x)))
		return 1;
	name = value_name(callee);
	return strncmp(name, "llvm.dbg.", 9) != 0 && strncmp(name, "llvm.lifetime.", 14) != 0;
}

/* Per function, the features of bycount: per opcode, per external callee and its bytes. */
struct fn_count {
	int by_op[NOPCODES]; /* feature of each opcode in this function, or -1 */
	int op_counter[NOPCODES]; /* per-instruction mode: counter of each opcode, or -1 */
	int total;           /* feature bycount:F:total */
	int alloca_bytes;    /* feature of dynamic alloca bytes, or -1 */
	int alloca_counter;  /* its counter */
	struct callee_count *callees; /* external callees called in this function; owned */
	int ncallees;
	const char *file;    /* the function's definition */
	int line;
};

/* The counts of one external callee in one function. */
struct callee_count {
	const char *name;    /* as external_callee names it (LLVM's storage or static) */
	int calls;           /* feature bycount:F:...:call.NAME */
	int calls_counter;   /* per-instruction mode: its counter, else -1 */
	int bytes;           /* feature call.NAME.bytes, or -1 if its cost has no size parameter */
	int bytes_counter;   /* its counter */
};

/* For library functions whose cost grows with a size: the argument positions of the size (and
 * of a factor multiplying it, or -1). As ByCounter records array sizes. */
static int size_argument(const char *name, int *a, int *b)
{
	static const struct { const char *name; int a, b; } sizes[] = {
		{"memcpy", 2, -1}, {"memmove", 2, -1}, {"memset", 2, -1}, {"memcmp", 2, -1},
		{"memchr", 2, -1}, {"strncpy", 2, -1}, {"strncmp", 2, -1}, {"malloc", 0, -1},
		{"calloc", 0, 1}, {"realloc", 1, -1}, {"aligned_alloc", 1, -1}, {"fread", 1, 2},
		{"fwrite", 1, 2}, {"qsort", 1, 2}, {"bsearch", 2, 3},
	};

	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		if (strcmp(name, sizes[i].name) == 0) {
			*a = sizes[i].a;
			*b = sizes[i].b;
			return 1;
		}
	}
	return 0;
}

/* Returns the name bycount gives a call's external callee (memcpy for llvm.memcpy.*, an
 * intrinsic's full name otherwise), or NULL if x is not such a call or not an instruction. */
static const char *external_callee(LLVMValueRef x)
{
	LLVMValueRef callee;
	const char *name;

	if (!LLVMIsACallInst(x) || !LLVMIsAFunction(callee = LLVMGetCalledValue(x)) ||
	    !is_external(callee) || !counts_as_instruction(x))
		return NULL;
	name = external_name(callee);
	return name ? name : value_name(callee);
}

/* Returns the counts of callee name in fc, adding its features (and counters) on first use. */
static struct callee_count *callee_count(struct inst *in, struct fn_plan *fp, struct fn_count *fc,
					 const char *name, LLVMValueRef call)
{
	struct callee_count *cc;
	int a, b, nargs = (int)LLVMGetNumArgOperands(call);
	char *detail;

	for (int i = 0; i < fc->ncallees; i++) {
		if (strcmp(fc->callees[i].name, name) == 0)
			return &fc->callees[i];
	}
	fc->callees = xrealloc(fc->callees, sizeof *fc->callees * (size_t)(fc->ncallees + 1));
	cc = &fc->callees[fc->ncallees++];
	detail = xasprintf("call.%s", name);
	add_feature(in, "bycount", fp->name, fc->file, fc->line, detail, NULL,
		    "calls of this library function in this function");
	free(detail);
	*cc = (struct callee_count){name, in->m->n - 1, -1, -1, -1};
	if (in->schemes & SCHEME_PER_INSTRUCTION) {
		cc->calls_counter = new_counter(in);
		feature_add_term(&in->m->v[cc->calls], cc->calls_counter, 1);
	}
	if (size_argument(name, &a, &b) && a < nargs && b < nargs && is_integer(LLVMGetOperand(call, (unsigned)a)) &&
	    (b < 0 || is_integer(LLVMGetOperand(call, (unsigned)b)))) {
		detail = xasprintf("call.%s.bytes", name);
		add_feature(in, "bycount", fp->name, fc->file, fc->line, detail, NULL,
			    "bytes (or elements times size) handled by this library function here");
		free(detail);
		cc->bytes = in->m->n - 1;
		cc->bytes_counter = new_counter(in);
		feature_add_term(&in->m->v[cc->bytes], cc->bytes_counter, 1);
	}
	return cc;
}

/* Records a call of an external function: its count and, for size-dependent ones, the size. */
static void count_external_call(struct inst *in, struct fn_plan *fp, struct fn_count *fc, int k,
				LLVMValueRef call, const char *name)
{
	struct callee_count *cc = callee_count(in, fp, fc, name, call);
	int a, b;

	if (cc->calls_counter >= 0)
		add_probe(in, PROBE_BLOCK, call, NULL, cc->calls_counter);
	else
		feature_add_term(&in->m->v[cc->calls], fp->block[k], 1);
	if (cc->bytes >= 0 && size_argument(name, &a, &b)) {
		struct probe *p = add_probe(in, b < 0 ? PROBE_ADD : PROBE_MUL_ADD, call,
					    LLVMGetOperand(call, (unsigned)a), cc->bytes_counter);

		p->value2 = b < 0 ? NULL : LLVMGetOperand(call, (unsigned)b);
		p->is_unsigned = 1;
	}
}

/* Records an alloca whose size is only known at run time (a VLA, or one in a loop): its bytes,
 * as the number of elements times the element size. */
static void count_dynamic_alloca(struct inst *in, struct fn_plan *fp, struct fn_count *fc,
				 LLVMValueRef x, LLVMTargetDataRef td)
{
	LLVMValueRef n = LLVMGetOperand(x, 0);
	unsigned long long size = LLVMABISizeOfType(td, LLVMGetAllocatedType(x));

	if (fc->alloca_bytes < 0) {
		add_feature(in, "bycount", fp->name, fc->file, fc->line, "alloca.bytes", NULL,
			    "bytes of stack allocated at run time (variable-length arrays)");
		fc->alloca_bytes = in->m->n - 1;
		fc->alloca_counter = new_counter(in);
	}
	add_probe(in, PROBE_ADD, x, n, fc->alloca_counter)->is_unsigned = 1;
	feature_add_term(&in->m->v[fc->alloca_bytes], fc->alloca_counter, (int64_t)size);
}

/* Adds n instructions of opcode op in block k to the function's and the program's counts: in
 * the block's counter's terms, or (per-instruction mode) as one increment before each (at). */
static void count_opcode(struct inst *in, struct fn_plan *fp, struct fn_count *fc, int k, int op,
			 int n, LLVMValueRef at)
{
	if (fc->by_op[op] < 0) {
		add_feature(in, "bycount", fp->name, fc->file, fc->line, opcode_name((LLVMOpcode)op),
			    NULL, "instructions of this opcode executed in this function");
		fc->by_op[op] = in->m->n - 1;
		if (in->schemes & SCHEME_PER_INSTRUCTION) {
			fc->op_counter[op] = new_counter(in);
			feature_add_term(&in->m->v[fc->by_op[op]], fc->op_counter[op], 1);
			feature_add_term(&in->m->v[fc->total], fc->op_counter[op], 1);
		}
	}
	if (in->total_op[op] < 0) {
		add_feature(in, "bycount", "(program)", "-", 0, opcode_name((LLVMOpcode)op),
			    NULL, "instructions of this opcode executed in all");
		in->total_op[op] = in->m->n - 1;
		/* per-instruction mode: the function's counter joins the program's sums once */
	}
	if (in->schemes & SCHEME_PER_INSTRUCTION) {
		for (int i = 0; i < n; i++)
			add_probe(in, PROBE_BLOCK, at, NULL, fc->op_counter[op]);
		return;
	}
	feature_add_term(&in->m->v[fc->by_op[op]], fp->block[k], n);
	feature_add_term(&in->m->v[in->total_op[op]], fp->block[k], n);
}

/* Per-instruction mode: adds each opcode's counter of the function to the program's sums. */
static void add_program_terms(struct inst *in, const struct fn_count *fc)
{
	for (int op = 0; op < NOPCODES; op++) {
		if (fc->op_counter[op] < 0)
			continue;
		feature_add_term(&in->m->v[in->total_op[op]], fc->op_counter[op], 1);
		feature_add_term(&in->m->v[in->total], fc->op_counter[op], 1);
	}
}

static void plan_bycount(struct inst *in, struct fn_plan *fp)
{
	struct fn_count fc = {.alloca_bytes = -1};
	int per_instruction = (in->schemes & SCHEME_PER_INSTRUCTION) != 0;
	char *layout = xstrdup(LLVMGetDataLayoutStr(in->mod));
	LLVMTargetDataRef td = LLVMCreateTargetData(layout);

	for (int op = 0; op < NOPCODES; op++)
		fc.by_op[op] = fc.op_counter[op] = -1;
	function_location(fp->cfg.fn, &fc.file, &fc.line);
	add_feature(in, "bycount", fp->name, fc.file, fc.line, "total", NULL,
		    "instructions executed in this function");
	fc.total = in->m->n - 1;
	if (in->total < 0) {
		add_feature(in, "bycount", "(program)", "-", 0, "total", NULL,
			    "instructions executed in the whole program");
		in->total = in->m->n - 1;
	}
	for (int i = 0; i < fp->cfg.nrpo; i++) {
		int k = fp->cfg.rpo[i], hist[NOPCODES] = {0}, size = 0;
		LLVMValueRef first = LLVMGetFirstInstruction(fp->cfg.block[k]);

		while (LLVMIsAPHINode(first) || LLVMIsALandingPadInst(first))
			first = LLVMGetNextInstruction(first); /* where increments can go */
		for (LLVMValueRef x = LLVMGetFirstInstruction(fp->cfg.block[k]); x; x = LLVMGetNextInstruction(x)) {
			const char *callee;
			int op = LLVMGetInstructionOpcode(x) % NOPCODES;

			if (!counts_as_instruction(x))
				continue;
			if (per_instruction)
				count_opcode(in, fp, &fc, k, op, 1,
					     LLVMIsAPHINode(x) || LLVMIsALandingPadInst(x) ? first : x);
			hist[op]++;
			size++;
			if ((callee = external_callee(x)))
				count_external_call(in, fp, &fc, k, x, callee);
			if (LLVMIsAAllocaInst(x) && (k != 0 || !LLVMIsAConstant(LLVMGetOperand(x, 0))))
				count_dynamic_alloca(in, fp, &fc, x, td);
		}
		if (per_instruction)
			continue;
		feature_add_term(&in->m->v[fc.total], fp->block[k], size);
		feature_add_term(&in->m->v[in->total], fp->block[k], size);
		for (int op = 0; op < NOPCODES; op++) {
			if (hist[op])
				count_opcode(in, fp, &fc, k, op, hist[op], NULL);
		}
	}
	if (per_instruction)
		add_program_terms(in, &fc);
	free(fc.callees);
	LLVMDisposeTargetData(td);
	free(layout);
}

/* ---- per function ----------------------------------------------------------------------- */

/* For slicing: tags the block's first instruction x with !mantis.block !{i64 counter}, so the
 * slicer can tell the blocks no training run entered (prune.c). */
static void mark_block_counter(struct inst *in, LLVMValueRef x, int counter)
{
	LLVMValueRef c = LLVMConstInt(LLVMInt64TypeInContext(in->ctx), (unsigned long long)counter, 0);

	LLVMSetMetadata(x, LLVMGetMDKindIDInContext(in->ctx, "mantis.block", 12),
			LLVMMDNodeInContext(in->ctx, &c, 1));
}

static int call_leaves_counters_alone(LLVMValueRef x);

/* Returns whether call x surely comes back, once, to the instruction after it: a library call
 * that leaves the counters alone (call_leaves_counters_alone), neither noreturn nor
 * returns_twice (setjmp: a longjmp comes back to it without passing what precedes it). */
static int call_returns_once(LLVMValueRef x)
{
	static const char *const twice[] = {"setjmp", "_setjmp", "sigsetjmp", "__sigsetjmp", "vfork",
					    "getcontext", "savectx"};
	unsigned noreturn = LLVMGetEnumAttributeKindForName("noreturn", 8);
	unsigned returns_twice = LLVMGetEnumAttributeKindForName("returns_twice", 13);
	LLVMValueRef callee;

	if (!call_leaves_counters_alone(x))
		return 0;
	callee = LLVMGetCalledValue(x);
	for (size_t i = 0; i < sizeof twice / sizeof *twice; i++) {
		if (strcmp(value_name(callee), twice[i]) == 0)
			return 0;
	}
	return !LLVMGetEnumAttributeAtIndex(callee, LLVMAttributeFunctionIndex, noreturn) &&
	       !LLVMGetEnumAttributeAtIndex(callee, LLVMAttributeFunctionIndex, returns_twice) &&
	       !LLVMGetCallSiteEnumAttribute(x, LLVMAttributeFunctionIndex, noreturn) &&
	       !LLVMGetCallSiteEnumAttribute(x, LLVMAttributeFunctionIndex, returns_twice);
}

/* Returns, per block of cfg, whether it holds a call that may not come back once
 * (call_returns_once) or inline assembly: past it the process may end or control come back from
 * elsewhere, so blocks before and after it may be entered a different number of times. With
 * every_block, all blocks (no counter is shared). Owned by the caller. */
static unsigned char *block_barriers(const struct cfg *cfg, int every_block)
{
	unsigned char *barrier = xcalloc((size_t)cfg->n + 1, 1);

	for (int k = 0; k < cfg->n; k++) {
		for (LLVMValueRef x = LLVMGetFirstInstruction(cfg->block[k]); x && !barrier[k];
		     x = LLVMGetNextInstruction(x))
			barrier[k] = every_block || (LLVMIsACallInst(x) && !call_returns_once(x));
	}
	return barrier;
}

/* Returns the block's first instruction after its phis (and landing pad): where probes go. */
static LLVMValueRef block_start(LLVMBasicBlockRef b)
{
	LLVMValueRef first = LLVMGetFirstInstruction(b);

	while (LLVMIsAPHINode(first) || LLVMIsALandingPadInst(first))
		first = LLVMGetNextInstruction(first);
	return first;
}

/* Returns the block's first instruction after its phis, landing pad, debug and lifetime calls:
 * the one that carries its counter's tag. Not block_start: the slicer deletes the llvm.dbg.* calls
 * that open many blocks (a loop header's, naming its induction variable), and their tag with
 * them, and a block without a tag is never cold to prune.c nor counted by the estimate. */
static LLVMValueRef tag_site(LLVMBasicBlockRef b)
{
	LLVMValueRef x = block_start(b);

	while (!counts_as_instruction(x) && !LLVMIsATerminatorInst(x))
		x = LLVMGetNextInstruction(x);
	return x;
}

/*
 * Gives every reachable block its counter, with one PROBE_BLOCK per counter: a block that every
 * run enters as often as one that dominates it (equiv.c: the same control dependences, nothing
 * between them that may end the process) shares that block's counter, incremented once at its
 * entry. Counters are numbered in block order, so planning the same module again (the slicer)
 * numbers them alike. Each block's tag_site carries its counter for the slicer.
 */
static void plan_block_counters(struct inst *in, struct fn_plan *fp)
{
	unsigned char *barrier = block_barriers(&fp->cfg, (in->schemes & SCHEME_SEPARATE_BLOCKS) != 0);
	struct equiv eq;

	equiv_build(&eq, &fp->cfg, barrier);
	for (int k = 0; k < fp->cfg.n; k++) {
		fp->truec[k] = -1;
		fp->block[k] = -1;
		if (eq.leader[k] != k)
			continue;
		fp->block[k] = new_counter(in);
		if (!(in->schemes & SCHEME_PER_INSTRUCTION) || (in->schemes & (SCHEME_ALL & ~SCHEME_BYCOUNT)))
			add_probe(in, PROBE_BLOCK, block_start(fp->cfg.block[k]), NULL, fp->block[k]);
	}
	for (int k = 0; k < fp->cfg.n; k++) {
		if (eq.leader[k] < 0)
			continue;
		fp->block[k] = fp->block[eq.leader[k]];
		if (in->keep)
			mark_block_counter(in, tag_site(fp->cfg.block[k]), fp->block[k]);
	}
	equiv_release(&eq);
	free(barrier);
}

static void plan_function(struct inst *in, LLVMValueRef fn)
{
	struct fn_plan fp;
	const char *file;
	int line, first_probe = in->nprobes;

	split_switch_edges(in, fn);
	cfg_build(&fp.cfg, fn);
	fp.name = value_name(fn);
	fp.block = xmalloc(sizeof *fp.block * (size_t)(fp.cfg.n + 1));
	fp.truec = xmalloc(sizeof *fp.truec * (size_t)(fp.cfg.n + 1));
	plan_block_counters(in, &fp);
	if (in->schemes & SCHEME_CALL) {
		function_location(fn, &file, &line);
		feature_add_term(add_feature(in, "call", fp.name, file, line, NULL, NULL,
					     "calls of this function"), fp.block[0], 1);
	}
	if (in->schemes & SCHEME_BRANCH)
		plan_branches(in, &fp);
	if (in->schemes & SCHEME_LOOP)
		plan_loops(in, &fp);
	if (in->schemes & (SCHEME_CALL | SCHEME_EXIT))
		plan_calls_and_exits(in, &fp);
	if ((in->schemes & SCHEME_EXIT) && strcmp(fp.name, "main") == 0)
		plan_main_returns(in, &fp);
	if (in->schemes & (SCHEME_VALUE | SCHEME_FIELD))
		plan_values(in, &fp);
	if (in->schemes & SCHEME_BYCOUNT)
		plan_bycount(in, &fp);
	for (int i = first_probe; i < in->nprobes; i++) {
		int k = cfg_index(&fp.cfg, LLVMGetInstructionParent(in->probes[i].at));

		in->probes[i].block = k >= 0 ? fp.block[k] : -1;
	}
	free(fp.block);
	free(fp.truec);
	cfg_release(&fp.cfg);
}

/* ---- emission --------------------------------------------------------------------------- */

/*
 * Returns whether call x cannot update a counter: it calls a library function (or intrinsic)
 * that takes no function pointer and does not end the program. A call of a defined function
 * (or through a pointer, or of qsort with a comparator) may run probes of the same counters:
 * the recursive call in a loop of negamax, say. Were it marked, LICM would keep the caller's
 * counter in a register across the call and store it after the loop, overwriting the callee's
 * updates (a loop around a recursive call counted 3 iterations instead of 363). exit and the
 * like run atexit handlers and never return: counters kept in registers would be lost.
 */
static int call_leaves_counters_alone(LLVMValueRef x)
{
	LLVMValueRef callee = LLVMGetCalledValue(x);
	LLVMTypeRef fn_type;
	unsigned n;
	LLVMTypeRef params[64];

	if (!LLVMIsAFunction(callee) || !is_external(callee) || is_exit_call(value_name(callee)))
		return 0;
	fn_type = LLVMGlobalGetValueType(callee);
	n = LLVMCountParamTypes(fn_type);
	if (n > 64 || LLVMIsFunctionVarArg(fn_type))
		return 0;
	LLVMGetParamTypes(fn_type, params);
	for (unsigned i = 0; i < n; i++) {
		if (LLVMGetTypeKind(params[i]) == LLVMPointerTypeKind &&
		    LLVMGetTypeKind(LLVMGetElementType(params[i])) == LLVMFunctionTypeKind)
			return 0;
	}
	return 1;
}

/*
 * Tells the optimiser that the program never touches the counters: the probes' loads and
 * stores get !alias.scope {mantis}, every memory access of the program and every call that
 * leaves them alone (call_leaves_counters_alone) gets !noalias {mantis} (joined to a list it
 * may have). This is true (only probes and the runtime touch the counters) and lets LICM keep
 * a counter in a register across a loop whose body stores through char pointers, which may
 * alias anything, and so keeps such loops vectorisable.
 */
static void no_alias(struct inst *in)
{
	unsigned noalias = LLVMGetMDKindIDInContext(in->ctx, "noalias", 7);
	LLVMMetadataRef name = LLVMMDStringInContext2(in->ctx, "mantis counters", 15);
	LLVMMetadataRef domain = LLVMMDNodeInContext2(in->ctx, &name, 1);
	LLVMMetadataRef scope_ops[2] = {LLVMMDStringInContext2(in->ctx, "mantis counter scope", 20), domain};
	LLVMMetadataRef scope = LLVMMDNodeInContext2(in->ctx, scope_ops, 2);
	LLVMMetadataRef list = LLVMMDNodeInContext2(in->ctx, &scope, 1);

	in->scope_list = LLVMMetadataAsValue(in->ctx, list);
	for (LLVMValueRef fn = LLVMGetFirstFunction(in->mod); fn; fn = LLVMGetNextFunction(fn)) {
		if (is_external(fn))
			continue;
		for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
			for (LLVMValueRef x = LLVMGetFirstInstruction(b); x; x = LLVMGetNextInstruction(x)) {
				LLVMValueRef old, ops[32];
				LLVMMetadataRef joined[33];
				unsigned n;

				if (!LLVMIsALoadInst(x) && !LLVMIsAStoreInst(x) &&
				    !(LLVMIsACallInst(x) && call_leaves_counters_alone(x)) &&
				    !LLVMIsAAtomicRMWInst(x) && !LLVMIsAAtomicCmpXchgInst(x))
					continue;
				old = LLVMGetMetadata(x, noalias);
				if (!old) {
					LLVMSetMetadata(x, noalias, in->scope_list);
					continue;
				}
				n = LLVMGetMDNodeNumOperands(old);
				if (n >= 32)
					continue; /* leave it as it is: only a lost optimisation */
				LLVMGetMDNodeOperands(old, ops);
				for (unsigned i = 0; i < n; i++)
					joined[i] = LLVMValueAsMetadata(ops[i]);
				joined[n] = scope;
				LLVMSetMetadata(x, noalias, LLVMMetadataAsValue(in->ctx, LLVMMDNodeInContext2(in->ctx, joined, n + 1)));
			}
		}
	}
}

/* Marks a probe's load or store as an access to the counters (alias scope). */
static LLVMValueRef counter_access(struct inst *in, LLVMValueRef x)
{
	LLVMSetMetadata(x, LLVMGetMDKindIDInContext(in->ctx, "alias.scope", 11), in->scope_list);
	return x;
}

/* Returns v as a 64-bit integer, built before the builder's position. */
static LLVMValueRef widen(struct inst *in, LLVMBuilderRef b, LLVMValueRef v, int is_unsigned)
{
	LLVMTypeRef i64 = LLVMInt64TypeInContext(in->ctx);
	unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(v));

	if (w == 64)
		return v;
	return is_unsigned || w == 1 ? LLVMBuildZExt(b, v, i64, "") : LLVMBuildSExt(b, v, i64, "");
}

/*
 * Returns floating-point v in fixed point, round(v * 2^VALUE_SHIFT) (halves away from zero) as
 * a 64-bit integer, built before the builder's position: clamped to [-2^63, 2^63 - 1024] (so
 * fptosi never sees a value out of range, which would be poison); NaN counts as -2^63. Compares
 * and selects only, in the shapes x86 turns into one minsd/maxsd each: no libm call for the
 * slicer to model, and few instructions (the FFT of ringtone assigns four doubles a butterfly).
 */
static LLVMValueRef fixed_point(struct inst *in, LLVMBuilderRef b, LLVMValueRef v)
{
	LLVMTypeRef f64 = LLVMDoubleTypeInContext(in->ctx), i64 = LLVMInt64TypeInContext(in->ctx);
	LLVMValueRef low = LLVMConstReal(f64, -0x1p63), high = LLVMConstReal(f64, 0x1.fffffffffffffp62);
	LLVMValueRef x, half;

	x = LLVMBuildFMul(b, LLVMBuildFPCast(b, v, f64, ""), LLVMConstReal(f64, ldexp(1, VALUE_SHIFT)), "");
	half = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, x, LLVMConstReal(f64, 0), ""),
			       LLVMConstReal(f64, -0.5), LLVMConstReal(f64, 0.5), "");
	x = LLVMBuildFAdd(b, x, half, "");
	x = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOGT, x, low, ""), x, low, "");
	x = LLVMBuildSelect(b, LLVMBuildFCmp(b, LLVMRealOLT, x, high, ""), x, high, "");
	return LLVMBuildFPToSI(b, x, i64, "");
}

/* Returns the address of counter c: an element of the array, or its own global for slicing. */
static LLVMValueRef counter_slot(struct inst *in, LLVMValueRef counters, LLVMTypeRef array, int c)
{
	LLVMTypeRef i64 = LLVMInt64TypeInContext(in->ctx);
	LLVMValueRef idx[2] = {LLVMConstInt(i64, 0, 0), LLVMConstInt(i64, (unsigned long long)c, 0)};

	if (in->slot)
		return in->slot[c];
	return LLVMConstInBoundsGEP2(array, counters, idx, 2);
}

/* Returns whether one of the counters of value probe p's first values is kept. */
static int versions_kept(const struct inst *in, const struct probe *p)
{
	for (int v = 0; v < p->nfirst; v++) {
		if (in->keep[p->first + v])
			return 1;
	}
	return 0;
}

/* Returns whether probe p updates a counter that is kept. */
static int probe_kept(const struct inst *in, const struct probe *p)
{
	if (in->drop && in->drop[p->counter])
		return 0;
	if (!in->keep)
		return 1;
	return in->keep[p->counter] || (p->kind == PROBE_VALUE && (in->keep[p->count] || versions_kept(in, p)));
}

static void emit_probes(struct inst *in, LLVMValueRef counters, LLVMTypeRef array)
{
	LLVMTypeRef i64 = LLVMInt64TypeInContext(in->ctx);
	LLVMBuilderRef b = LLVMCreateBuilderInContext(in->ctx);

	for (int i = 0; i < in->nprobes; i++) {
		const struct probe *p = &in->probes[i];
		LLVMValueRef slot = counter_slot(in, counters, array, p->counter), old, delta = NULL;

		if (!probe_kept(in, p))
			continue;
		LLVMPositionBuilderBefore(b, p->at);
		LLVMSetCurrentDebugLocation2(b, NULL); /* probes are not the program's source lines */
		old = counter_access(in, LLVMBuildLoad2(b, i64, slot, ""));
		switch (p->kind) {
		case PROBE_BLOCK:
			delta = LLVMConstInt(i64, 1, 0);
			break;
		case PROBE_COND:
			delta = LLVMBuildZExt(b, p->value, i64, "");
			break;
		case PROBE_ADD:
			delta = widen(in, b, p->value, p->is_unsigned);
			break;
		case PROBE_VALUE:
			delta = p->is_float ? fixed_point(in, b, p->value) : widen(in, b, p->value, p->is_unsigned);
			break;
		case PROBE_MUL_ADD:
			delta = LLVMBuildMul(b, widen(in, b, p->value, 1), widen(in, b, p->value2, 1), "");
			break;
		case PROBE_NONZERO:
			delta = LLVMBuildZExt(b, LLVMBuildICmp(b, LLVMIntNE, p->value,
							       LLVMConstNull(LLVMTypeOf(p->value)), ""),
					      i64, "");
			break;
		}
		counter_access(in, LLVMBuildStore(b, LLVMBuildAdd(b, old, delta, ""), slot));
		if (p->kind == PROBE_VALUE) {
			LLVMValueRef cslot = counter_slot(in, counters, array, p->count);
			LLVMValueRef count = counter_access(in, LLVMBuildLoad2(b, i64, cslot, ""));

			for (int v = 0; v < p->nfirst; v++) { /* version v + 1 is this value if count == v */
				LLVMValueRef vslot = counter_slot(in, counters, array, p->first + v);
				LLVMValueRef version = counter_access(in, LLVMBuildLoad2(b, i64, vslot, ""));
				LLVMValueRef is_this = LLVMBuildICmp(b, LLVMIntEQ, count,
								     LLVMConstInt(i64, (unsigned long long)v, 0), "");

				counter_access(in, LLVMBuildStore(b, LLVMBuildSelect(b, is_this, delta, version, ""), vslot));
			}
			counter_access(in, LLVMBuildStore(b, LLVMBuildAdd(b, count, LLVMConstInt(i64, 1, 0), ""), cslot));
		}
	}
	LLVMDisposeBuilder(b);
}

static uint64_t build_id(const struct manifest *m)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)m->ncounters;

	for (int i = 0; i < m->n; i++) {
		for (const char *s = m->v[i].name; *s; s++)
			h = (h ^ (unsigned char)*s) * 1099511628211ull;
		h = (h ^ 0xff) * 1099511628211ull;
	}
	return h;
}

/*
 * For slicing: gives every kept counter (and the other counters of a value probe that keeps
 * one) a plain global of its own, @__mantis_c.N, so that a points-to analysis tells them apart.
 */
static void make_slots(struct inst *in)
{
	LLVMTypeRef i64 = LLVMInt64TypeInContext(in->ctx);
	unsigned char *need = xcalloc((size_t)in->ncounters + 1, 1);

	for (int i = 0; i < in->nprobes; i++) {
		const struct probe *p = &in->probes[i];

		if (!probe_kept(in, p))
			continue;
		need[p->counter] = 1;
		if (p->kind == PROBE_VALUE) {
			need[p->count] = 1;
			for (int v = 0; v < p->nfirst; v++)
				need[p->first + v] = 1;
		}
	}
	in->slot = xcalloc((size_t)in->ncounters + 1, sizeof *in->slot);
	for (int c = 0; c < in->ncounters; c++) {
		char name[32];

		if (!need[c] && !in->keep[c])
			continue;
		snprintf(name, sizeof name, INSTRUMENT_SLOT_PREFIX "%d", c);
		in->slot[c] = LLVMAddGlobal(in->mod, i64, name);
		LLVMSetInitializer(in->slot[c], LLVMConstInt(i64, 0, 0));
		LLVMSetLinkage(in->slot[c], LLVMInternalLinkage);
	}
	free(need);
}

/* Adds the counter array and the constants the runtime reads. */
static void emit_globals(struct inst *in, struct manifest *m)
{
	LLVMTypeRef i64 = LLVMInt64TypeInContext(in->ctx);
	LLVMTypeRef array = LLVMArrayType(i64, (unsigned)(in->ncounters ? in->ncounters : 1));
	LLVMValueRef counters = LLVMAddGlobal(in->mod, array, "__mantis_counters");
	LLVMValueRef n = LLVMAddGlobal(in->mod, i64, "__mantis_ncounters");
	LLVMValueRef id = LLVMAddGlobal(in->mod, i64, "__mantis_build_id");

	LLVMSetInitializer(counters, LLVMConstNull(array));
	LLVMSetAlignment(counters, 64);
	LLVMSetThreadLocal(counters, 1); /* each thread counts alone; the runtime adds them up */
	LLVMSetInitializer(n, LLVMConstInt(i64, (unsigned long long)in->ncounters, 0));
	LLVMSetGlobalConstant(n, 1);
	LLVMSetInitializer(id, LLVMConstInt(i64, m->build_id, 0));
	LLVMSetGlobalConstant(id, 1);
	if (in->keep)
		make_slots(in);
	else
		no_alias(in);
	emit_probes(in, counters, array);
}

/* Sends every use of pthread_create to the runtime's __mantis_pthread_create, which starts
 * the thread so that its counters are added up when it ends. */
static void wrap_thread_creation(struct inst *in)
{
	LLVMValueRef create = LLVMGetNamedFunction(in->mod, "pthread_create"), wrapper;

	if (!create || !LLVMIsDeclaration(create))
		return;
	wrapper = LLVMAddFunction(in->mod, "__mantis_pthread_create", LLVMGlobalGetValueType(create));
	LLVMReplaceAllUsesWith(create, wrapper);
}

/* What instrument_module_dropping asks of instrument(). */
struct dropping {
	const unsigned char *drop;  /* counters whose probes are not emitted, or NULL */
	struct probe_site **sites;  /* where to put the planned probes, or NULL */
	int *nsites;                /* where to put their number */
};

/* Relative cost of one run of a probe of each kind, a block increment (load, add, store) being
 * 1: the others read a program value (an extension or a compare more, and the update waits
 * for the value); a value probe updates the sum and the count and selects each first value. */
static double probe_weight(const struct probe *p)
{
	switch (p->kind) {
	case PROBE_BLOCK:
		return 1;
	case PROBE_COND:
	case PROBE_ADD:
	case PROBE_NONZERO:
		return 1.5;
	case PROBE_MUL_ADD:
		return 2;
	case PROBE_VALUE:
		return 2.5 + 0.5 * p->nfirst;
	}
	return 1;
}

/* Returns every planned probe of in as a probe_site (owned by the caller). */
static struct probe_site *export_sites(const struct inst *in)
{
	struct probe_site *sites = xcalloc((size_t)in->nprobes + 1, sizeof *sites);

	for (int i = 0; i < in->nprobes; i++) {
		const struct probe *p = &in->probes[i];
		struct probe_site *s = &sites[i];
		int n = p->kind == PROBE_VALUE ? 2 + p->nfirst : 1;

		s->counters = xmalloc(sizeof *s->counters * (size_t)n);
		s->counters[s->ncounters++] = p->counter;
		if (p->kind == PROBE_VALUE) {
			s->counters[s->ncounters++] = p->count;
			for (int v = 0; v < p->nfirst; v++)
				s->counters[s->ncounters++] = p->first + v;
		}
		s->block = p->block;
		s->weight = probe_weight(p);
	}
	return sites;
}

void instrument_sites_free(struct probe_site *sites, int n)
{
	for (int i = 0; i < n; i++)
		free(sites[i].counters);
	free(sites);
}

/* Removes from every function defined in mod, and from every call in them but a declared one's,
 * the attributes that say it writes no memory, or only its arguments' or memory the program
 * cannot see: false once counters are added to it or to a function it calls. */
static void drop_memory_effects(LLVMModuleRef mod)
{
	static const char *const names[] = {"readnone", "readonly", "writeonly", "argmemonly",
					    "inaccessiblememonly", "inaccessiblemem_or_argmemonly"};
	unsigned kinds[sizeof names / sizeof *names];

	for (size_t k = 0; k < sizeof names / sizeof *names; k++)
		kinds[k] = LLVMGetEnumAttributeKindForName(names[k], strlen(names[k]));
	for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
		if (is_external(fn))
			continue;
		for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
			LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kinds[k]);
		for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
			for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
				LLVMValueRef callee;

				if (!LLVMIsACallInst(i) && !LLVMIsAInvokeInst(i))
					continue;
				callee = LLVMGetCalledValue(i);
				if (LLVMIsAFunction(callee) && is_external(callee))
					continue; /* a library's (and an intrinsic's) effects are its own */
				for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
					LLVMRemoveCallSiteEnumAttribute(i, LLVMAttributeFunctionIndex,
									kinds[k]);
			}
		}
	}
}

/* Plans and emits; keep as in instrument_module_for_slicing, or NULL; d as
 * instrument_module_dropping asks, or NULL. Returns 0 or -1. */
static int instrument(struct ir *ir, unsigned schemes, const unsigned char *keep, int nkeep,
		      const struct dropping *d, struct manifest *m, struct error *err)
{
	struct inst in = {0};
	int total_op[NOPCODES];

	if (LLVMGetNamedGlobal(ir->mod, "__mantis_counters"))
		return error_set(err, "this program is already instrumented");
	in.ctx = ir->ctx;
	in.mod = ir->mod;
	in.schemes = schemes;
	in.keep = keep;
	in.drop = d ? d->drop : NULL;
	in.m = m;
	in.loop_md = LLVMGetMDKindIDInContext(ir->ctx, "llvm.loop", 9);
	in.total = -1;
	in.total_op = total_op;
	in.nfirst = (int)(schemes >> SCHEME_VALUES_FIRST_SHIFT & 0xff);
	if (in.nfirst < 1)
		in.nfirst = 1;
	for (int op = 0; op < NOPCODES; op++)
		total_op[op] = -1;
	for (LLVMValueRef fn = LLVMGetFirstFunction(ir->mod); fn; fn = LLVMGetNextFunction(fn)) {
		if (!is_external(fn))
			plan_function(&in, fn);
	}
	unique_names(m);
	m->ncounters = in.ncounters;
	m->build_id = build_id(m);
	if (keep && m->ncounters != nkeep) {
		free(in.probes);
		free(in.vars);
		free(in.globals);
		members_free(in.members);
		return error_set(err, "the program has %d counters, not the %d of its manifest",
				 m->ncounters, nkeep);
	}
	if (d && d->sites) {
		*d->sites = export_sites(&in);
		*d->nsites = in.nprobes;
	}
	emit_globals(&in, m);
	drop_memory_effects(in.mod);
	if (!keep)
		wrap_thread_creation(&in);
	free(in.probes);
	free(in.vars);
	free(in.globals);
	members_free(in.members);
	free(in.slot);
	return ir_verify(ir, err);
}

int instrument_module(struct ir *ir, unsigned schemes, struct manifest *m, struct error *err)
{
	return instrument(ir, schemes, NULL, 0, NULL, m, err);
}

int instrument_module_dropping(struct ir *ir, unsigned schemes, const unsigned char *drop,
			       struct probe_site **sites, int *nsites, struct manifest *m,
			       struct error *err)
{
	struct dropping d = {drop, sites, nsites};

	return instrument(ir, schemes, NULL, 0, &d, m, err);
}

int instrument_module_for_slicing(struct ir *ir, unsigned schemes, const unsigned char *keep,
				  int nkeep, struct manifest *m, struct error *err)
{
	return instrument(ir, schemes, keep, nkeep, NULL, m, err);
}

unsigned instrument_values_first(unsigned schemes, int k)
{
	assert(k >= 1 && k <= SCHEME_VALUES_FIRST_MAX);
	return (schemes & ~(0xffu << SCHEME_VALUES_FIRST_SHIFT)) |
	       (k > 1 ? (unsigned)k << SCHEME_VALUES_FIRST_SHIFT : 0);
}

int instrument_parse_schemes(const char *list, unsigned *schemes, struct error *err)
{
	static const struct { const char *name; unsigned bit; } names[] = {
		{"branch", SCHEME_BRANCH}, {"loop", SCHEME_LOOP},   {"call", SCHEME_CALL},
		{"value", SCHEME_VALUE},   {"exit", SCHEME_EXIT},   {"bycount", SCHEME_BYCOUNT},
		{"all", SCHEME_ALL},       {"fields", SCHEME_FIELD},
		{"bycount-per-instruction", SCHEME_BYCOUNT | SCHEME_PER_INSTRUCTION}, /* bench only */
	};
	char *copy = xstrdup(list), *save = NULL, *word;

	*schemes = 0;
	for (word = strtok_r(copy, ",", &save); word; word = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof names / sizeof *names; i++) {
			if (strcmp(word, names[i].name) == 0)
				break;
		}
		if (i == sizeof names / sizeof *names) {
			error_set(err, "unknown scheme '%s' (schemes: branch, loop, call, value, exit, "
				  "bycount, all, fields)", word);
			free(copy);
			return -1;
		}
		*schemes |= names[i].bit;
	}
	free(copy);
	if (!*schemes)
		return error_set(err, "no scheme given");
	return 0;
}

LLVMValueRef instrument_slot(LLVMModuleRef mod, int c)
{
	char name[32];

	snprintf(name, sizeof name, INSTRUMENT_SLOT_PREFIX "%d", c);
	return LLVMGetNamedGlobal(mod, name);
}
