/*
 * fuse.c: counter fusion for evaluators (fuse.h).
 *
 * Why: a ByCounter feature (bycount: instructions executed, per function or in total) is a
 * weighted sum over every block class's counter, so its evaluator updates hundreds of
 * counters in a hot loop, more than registers hold even once promoted (promote.h); lz4's
 * total-count evaluator spilled them to the stack. Only the sum is wanted.
 *
 * Algorithm. A feature's value is S = sum_i a_i c_i mod 2^64 (manifest.h). Take the counters
 * i of a computed feature that no other computed feature reads (in a sum or as a denominator)
 * and whose every use is an update (c = c + d: a load whose one use is an add whose one use is
 * the store back) or a recorder load (whose one use is the emit call). Let 2^t be the largest
 * power of two dividing every a_i of the group and w_i = a_i / 2^t; some w_r is odd, so it has
 * an inverse v modulo 2^64 (Newton's iteration x <- x (2 - w x), five steps from x = w, each
 * doubling the bits that are right). Every update of c_i becomes T = T + w_i d, on the global
 * of c_r, and the recorder emits v T for c_r and nothing for the others, never written (a
 * counter the evaluator does not write reads as 0: rt/slicert.c). Then
 * a_r v T = 2^t w_r v T = 2^t T = sum_i a_i c_i mod 2^64: the feature's value, bit for bit.
 * Invariant: every computed feature's sum is what it was; a counter another computed feature
 * reads is never fused.
 */
#include "fuse.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "instrument.h"
#include "util.h"

#define EMIT "__mantis_slice_emit"

/* One update c = c + d of a counter. */
struct update {
	LLVMValueRef load;  /* the load of c */
	LLVMValueRef add;   /* load + d */
	LLVMValueRef store; /* the store of the sum to c */
};

/* Returns the one user of v, or NULL when v has none or several. */
static LLVMValueRef only_user(LLVMValueRef v)
{
	LLVMUseRef u = LLVMGetFirstUse(v);

	return u && !LLVMGetNextUse(u) ? LLVMGetUser(u) : NULL;
}

/* Returns whether x is a call of the recorder's emit. */
static int is_emit(LLVMValueRef x)
{
	LLVMValueRef callee = x && LLVMIsACallInst(x) ? LLVMGetCalledValue(x) : NULL;
	size_t len;

	return callee && LLVMIsAFunction(callee) &&
	       strcmp(LLVMGetValueName2(callee, &len), EMIT) == 0;
}

/*
 * Fills up[0..) (owned by the caller) with the updates of counter global g and *emit with its
 * recorder load (or NULL). Returns how many updates, or -1 when g has a use of another kind.
 */
static int updates_of(LLVMValueRef g, struct update **up, LLVMValueRef *emit)
{
	int n = 0, stores = 0;

	*up = NULL;
	*emit = NULL;
	for (LLVMUseRef u = LLVMGetFirstUse(g); u; u = LLVMGetNextUse(u)) {
		LLVMValueRef x = LLVMGetUser(u), add, store;

		if (LLVMIsAStoreInst(x) && LLVMGetOperand(x, 1) == g && LLVMGetOperand(x, 0) != g) {
			stores++;
			continue;
		}
		if (!LLVMIsALoadInst(x) || !(add = only_user(x)))
			goto other;
		if (is_emit(add) && !*emit) {
			*emit = x;
			continue;
		}
		store = LLVMGetInstructionOpcode(add) == LLVMAdd ? only_user(add) : NULL;
		if (!store || !LLVMIsAStoreInst(store) || LLVMGetOperand(store, 1) != g ||
		    LLVMGetOperand(store, 0) != add)
			goto other;
		*up = xrealloc(*up, sizeof **up * (size_t)(n + 1));
		(*up)[n++] = (struct update){x, add, store};
	}
	if (stores == n)
		return n;
other:
	free(*up);
	*up = NULL;
	return -1;
}

/* Returns the inverse of odd w modulo 2^64. */
static uint64_t inverse(uint64_t w)
{
	uint64_t x = w; /* right to 3 bits: w w = 1 mod 8 */

	for (int i = 0; i < 5; i++)
		x *= 2 - w * x;
	return x;
}

/* Returns the number of trailing zero bits of a (64 for 0). */
static int trailing_zeros(uint64_t a)
{
	int t = 0;

	while (t < 64 && !((a >> t) & 1))
		t++;
	return t;
}

/* Removes the recorder's load of a counter no longer written, and its emit. */
static void drop_emit(LLVMValueRef load)
{
	LLVMInstructionEraseFromParent(only_user(load));
	LLVMInstructionEraseFromParent(load);
}

/* Makes update u of a counter add w times its delta to global r instead. */
static void redirect(LLVMBuilderRef b, const struct update *u, LLVMValueRef r, uint64_t w)
{
	int at = LLVMGetOperand(u->add, 0) == u->load ? 1 : 0;
	LLVMValueRef delta = LLVMGetOperand(u->add, (unsigned)at);

	LLVMSetOperand(u->load, 0, r);
	LLVMSetOperand(u->store, 1, r);
	if (w == 1)
		return;
	LLVMPositionBuilderBefore(b, u->add);
	LLVMSetOperand(u->add, (unsigned)at,
		       LLVMBuildMul(b, delta, LLVMConstInt(LLVMTypeOf(delta), w, 0), ""));
}

/* Fuses the counters of feature f that refs[] says f alone reads. */
static void fuse_feature(LLVMModuleRef mod, LLVMBuilderRef b, const struct feature *f,
			 const int *refs, struct fuse_stats *st)
{
	struct update **up = xcalloc((size_t)f->nterms + 1, sizeof *up);
	LLVMValueRef *emit = xcalloc((size_t)f->nterms + 1, sizeof *emit);
	int *nup = xcalloc((size_t)f->nterms + 1, sizeof *nup), group = 0, t = 64, r = -1;

	for (int i = 0; i < f->nterms; i++) {
		const struct feature_term *term = &f->terms[i];
		LLVMValueRef g = term->coef ? instrument_slot(mod, term->counter) : NULL;

		nup[i] = -1;
		if (!g || refs[term->counter] != 1 || (nup[i] = updates_of(g, &up[i], &emit[i])) < 0)
			continue;
		group++;
		if (trailing_zeros((uint64_t)term->coef) < t) {
			t = trailing_zeros((uint64_t)term->coef);
			r = i;
		}
	}
	if (group >= 2 && emit[r]) {
		LLVMValueRef rg = instrument_slot(mod, f->terms[r].counter), call;
		uint64_t v = inverse((uint64_t)f->terms[r].coef >> t);

		for (int i = 0; i < f->nterms; i++) {
			uint64_t w = (uint64_t)f->terms[i].coef >> t;

			for (int k = 0; nup[i] >= 0 && k < nup[i]; k++)
				redirect(b, &up[i][k], rg, w);
			if (nup[i] >= 0 && i != r && emit[i] &&
			    f->terms[i].counter != f->terms[r].counter)
				drop_emit(emit[i]);
		}
		call = only_user(emit[r]);
		LLVMPositionBuilderBefore(b, call);
		LLVMSetOperand(call, 1, LLVMBuildMul(b, emit[r], LLVMConstInt(LLVMTypeOf(emit[r]),
									       v, 0), ""));
		st->features++;
		st->counters += group - 1;
	}
	for (int i = 0; i < f->nterms; i++)
		free(up[i]);
	free(up);
	free(emit);
	free(nup);
}

void fuse_counters(LLVMModuleRef mod, const struct manifest *m, const int *computed, int n,
		   struct fuse_stats *st)
{
	int *refs = xcalloc((size_t)m->ncounters + 1, sizeof *refs);
	LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(mod));

	st->features = st->counters = 0;
	for (int k = 0; k < n; k++) {
		const struct feature *f = &m->v[computed[k]];

		for (int i = 0; i < f->nterms; i++)
			refs[f->terms[i].counter]++;
		if (f->denominator >= 0)
			refs[f->denominator] += 2;
	}
	for (int k = 0; k < n; k++)
		fuse_feature(mod, b, &m->v[computed[k]], refs, st);
	LLVMDisposeBuilder(b);
	free(refs);
}
