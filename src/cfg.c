/*
 * cfg.c: control-flow graph, dominators and loop edges of one function.
 *
 * Dominators: Cooper, Harvey, Kennedy, "A Simple, Fast Dominance Algorithm" (2001): iterate
 * idom(b) = intersect over processed predecessors, in reverse postorder, until nothing changes;
 * intersect walks the two fingers up by postorder number. Loop edges: an iterative depth-first
 * search records every retreating edge (to a block on the stack). A retreating edge whose target
 * dominates its source is a back edge of a natural loop; one whose target does not is the
 * entry of an irreducible cycle (from a goto into a loop), still a loop to count.
 * Invariant: idom[entry] == -1 and, for every other reachable b, rpo_number[idom[b]] <
 * rpo_number[b].
 */
#include "cfg.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static unsigned hash_ptr(const void *p, int size)
{
	uintptr_t x = (uintptr_t)p;

	x ^= x >> 17;
	x *= 0x9e3779b97f4a7c15ull;
	return (unsigned)(x >> 20) & (unsigned)(size - 1);
}

int cfg_index(const struct cfg *cfg, LLVMBasicBlockRef b)
{
	for (unsigned h = hash_ptr(b, cfg->hash_size);; h = (h + 1) & (unsigned)(cfg->hash_size - 1)) {
		int k = cfg->hash_key[h];

		if (k < 0)
			return -1;
		if (cfg->block[k] == b)
			return k;
	}
}

static void number_blocks(struct cfg *cfg)
{
	int i = 0;

	cfg->n = (int)LLVMCountBasicBlocks(cfg->fn);
	cfg->block = xmalloc(sizeof *cfg->block * (size_t)(cfg->n ? cfg->n : 1));
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(cfg->fn); b; b = LLVMGetNextBasicBlock(b))
		cfg->block[i++] = b;
	cfg->hash_size = 16;
	while (cfg->hash_size < 2 * cfg->n)
		cfg->hash_size *= 2;
	cfg->hash_key = xmalloc(sizeof *cfg->hash_key * (size_t)cfg->hash_size);
	for (int h = 0; h < cfg->hash_size; h++)
		cfg->hash_key[h] = -1;
	for (int k = 0; k < cfg->n; k++) {
		unsigned h = hash_ptr(cfg->block[k], cfg->hash_size);

		while (cfg->hash_key[h] >= 0)
			h = (h + 1) & (unsigned)(cfg->hash_size - 1);
		cfg->hash_key[h] = k;
	}
}

static void link_edges(struct cfg *cfg)
{
	cfg->nsucc = xcalloc((size_t)cfg->n + 1, sizeof *cfg->nsucc);
	cfg->succ = xcalloc((size_t)cfg->n + 1, sizeof *cfg->succ);
	cfg->npred = xcalloc((size_t)cfg->n + 1, sizeof *cfg->npred);
	cfg->pred = xcalloc((size_t)cfg->n + 1, sizeof *cfg->pred);
	for (int k = 0; k < cfg->n; k++) {
		LLVMValueRef term = LLVMGetBasicBlockTerminator(cfg->block[k]);
		int ns = term ? (int)LLVMGetNumSuccessors(term) : 0;

		cfg->nsucc[k] = ns;
		cfg->succ[k] = xmalloc(sizeof **cfg->succ * (size_t)(ns ? ns : 1));
		for (int s = 0; s < ns; s++) {
			int t = cfg_index(cfg, LLVMGetSuccessor(term, (unsigned)s));

			cfg->succ[k][s] = t;
			cfg->pred[t] = xrealloc(cfg->pred[t], sizeof **cfg->pred * (size_t)(cfg->npred[t] + 1));
			cfg->pred[t][cfg->npred[t]++] = k;
		}
	}
}

/* Iterative DFS from the entry: postorder into rpo (reversed after), retreating edges. */
static void depth_first(struct cfg *cfg)
{
	int *stack = xmalloc(sizeof *stack * (size_t)(cfg->n + 1));
	int *next = xcalloc((size_t)cfg->n + 1, sizeof *next);
	char *state = xcalloc((size_t)cfg->n + 1, 1); /* 0 new, 1 on stack, 2 done */
	int top = 0, nret = 0;

	cfg->rpo = xmalloc(sizeof *cfg->rpo * (size_t)(cfg->n ? cfg->n : 1));
	cfg->rpo_number = xmalloc(sizeof *cfg->rpo_number * (size_t)(cfg->n ? cfg->n : 1));
	cfg->nrpo = 0;
	if (cfg->n > 0) {
		stack[top++] = 0;
		state[0] = 1;
	}
	while (top > 0) {
		int b = stack[top - 1];

		if (next[b] < cfg->nsucc[b]) {
			int s = next[b]++, t = cfg->succ[b][s];

			if (state[t] == 0) {
				state[t] = 1;
				stack[top++] = t;
			} else if (state[t] == 1) {
				cfg->retreat = xrealloc(cfg->retreat, sizeof *cfg->retreat * (size_t)(nret + 1));
				cfg->retreat[nret++] = (struct cfg_edge){b, s, t};
			}
			continue;
		}
		state[b] = 2;
		cfg->rpo[cfg->nrpo++] = b;
		top--;
	}
	cfg->nretreat = nret;
	for (int i = 0; i < cfg->nrpo / 2; i++) {
		int t = cfg->rpo[i];

		cfg->rpo[i] = cfg->rpo[cfg->nrpo - 1 - i];
		cfg->rpo[cfg->nrpo - 1 - i] = t;
	}
	for (int k = 0; k < cfg->n; k++)
		cfg->rpo_number[k] = -1;
	for (int i = 0; i < cfg->nrpo; i++)
		cfg->rpo_number[cfg->rpo[i]] = i;
	free(stack);
	free(next);
	free(state);
}

static int intersect(const struct cfg *cfg, int a, int b)
{
	while (a != b) {
		while (cfg->rpo_number[a] > cfg->rpo_number[b])
			a = cfg->idom[a];
		while (cfg->rpo_number[b] > cfg->rpo_number[a])
			b = cfg->idom[b];
	}
	return a;
}

static void dominators(struct cfg *cfg)
{
	int changed = 1;

	cfg->idom = xmalloc(sizeof *cfg->idom * (size_t)(cfg->n ? cfg->n : 1));
	for (int k = 0; k < cfg->n; k++)
		cfg->idom[k] = -1;
	if (cfg->n == 0)
		return;
	cfg->idom[0] = 0; /* the algorithm's convention; reset to -1 below */
	while (changed) {
		changed = 0;
		for (int i = 1; i < cfg->nrpo; i++) {
			int b = cfg->rpo[i], new_idom = -1;

			for (int p = 0; p < cfg->npred[b]; p++) {
				int q = cfg->pred[b][p];

				if (cfg->rpo_number[q] < 0 || cfg->idom[q] < 0)
					continue;
				new_idom = new_idom < 0 ? q : intersect(cfg, q, new_idom);
			}
			if (new_idom != cfg->idom[b]) {
				cfg->idom[b] = new_idom;
				changed = 1;
			}
		}
	}
	cfg->idom[0] = -1;
}

int cfg_dominates(const struct cfg *cfg, int a, int b)
{
	while (b >= 0 && b != a)
		b = cfg->idom[b];
	return b == a;
}

void cfg_build(struct cfg *cfg, LLVMValueRef fn)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->fn = fn;
	number_blocks(cfg);
	link_edges(cfg);
	depth_first(cfg);
	dominators(cfg);
}

void cfg_release(struct cfg *cfg)
{
	for (int k = 0; k < cfg->n; k++) {
		free(cfg->succ[k]);
		free(cfg->pred[k]);
	}
	free(cfg->block);
	free(cfg->nsucc);
	free(cfg->succ);
	free(cfg->npred);
	free(cfg->pred);
	free(cfg->rpo);
	free(cfg->rpo_number);
	free(cfg->idom);
	free(cfg->retreat);
	free(cfg->hash_key);
	memset(cfg, 0, sizeof *cfg);
}
