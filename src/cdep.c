/*
 * cdep.c: post-dominators and control dependence of one function.
 *
 * Post-dominators are the dominators of the reverse graph rooted at a virtual exit X, by the
 * algorithm of Cooper, Harvey and Kennedy (2001), as in cfg.c. Every block whose terminator
 * has no successors (ret, unreachable, resume) has an edge to X. A loop that no path leaves
 * would reach no exit, leaving its blocks without post-dominators; so, while some block the
 * entry reaches cannot reach X, the last such block in reverse postorder (inside the loop) gets a
 * fake edge to X, as the slicer papers prescribe, and the reverse search is repeated.
 * Control dependence (Ferrante, Ottenstein and Warren 1987): for every edge a -> b where b does
 * not post-dominate a, the blocks on the post-dominator tree path from b up to, not including,
 * ipdom(a) are control dependent on a.
 * Invariant: for every block b the entry reaches, ipdom[b] is defined and post-dominates b.
 */
#include "cdep.h"

#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "util.h"

/* The reverse graph's traversal state. */
struct rev {
	const struct cfg *cfg; /* the function */
	int x;                 /* the virtual exit, cfg->n */
	const int *to_exit;    /* n: block has an edge to X (real or fake) */
	int *order;            /* reverse graph's blocks in reverse postorder from X; owned */
	int norder;            /* how many */
	int *number;           /* n+1: position in order, -1 if X does not reach it; owned */
};

/* Depth-first search of the reverse graph from X: a block's successors are its predecessors,
 * and X's are the blocks with an edge to it. Fills order and number. */
static void reverse_dfs(struct rev *r)
{
	const struct cfg *cfg = r->cfg;
	int n = cfg->n, top = 0;
	int *stack = xmalloc(sizeof *stack * (size_t)(n + 1)), *next = xcalloc((size_t)n + 1, sizeof *next);
	char *seen = xcalloc((size_t)n + 1, 1);

	r->norder = 0;
	stack[top++] = r->x;
	seen[r->x] = 1;
	while (top > 0) {
		int b = stack[top - 1], s = -1;

		if (b == r->x) {
			while (next[b] < n && !r->to_exit[next[b]])
				next[b]++;
			if (next[b] < n)
				s = next[b]++;
		} else if (next[b] < cfg->npred[b]) {
			s = cfg->pred[b][next[b]++];
		}
		if (s >= 0) {
			if (!seen[s]) {
				seen[s] = 1;
				stack[top++] = s;
			}
			continue;
		}
		r->order[r->norder++] = b; /* postorder for now */
		top--;
	}
	for (int i = 0; i < r->norder / 2; i++) {
		int t = r->order[i];

		r->order[i] = r->order[r->norder - 1 - i];
		r->order[r->norder - 1 - i] = t;
	}
	for (int k = 0; k <= n; k++)
		r->number[k] = -1;
	for (int i = 0; i < r->norder; i++)
		r->number[r->order[i]] = i;
	free(stack);
	free(next);
	free(seen);
}

static int intersect(const struct rev *r, const int *ipdom, int a, int b)
{
	while (a != b) {
		while (r->number[a] > r->number[b])
			a = ipdom[a];
		while (r->number[b] > r->number[a])
			b = ipdom[b];
	}
	return a;
}

/* Dominators of the reverse graph (CHK). The predecessors of b in it are b's successors, and
 * X when b has an edge to it. */
static void post_dominators(const struct rev *r, int *ipdom)
{
	const struct cfg *cfg = r->cfg;
	int changed = 1;

	for (int k = 0; k <= cfg->n; k++)
		ipdom[k] = -1;
	ipdom[r->x] = r->x;
	while (changed) {
		changed = 0;
		for (int i = 1; i < r->norder; i++) {
			int b = r->order[i], best = -1;

			if (r->to_exit[b])
				best = r->x;
			for (int s = 0; s < cfg->nsucc[b]; s++) {
				int q = cfg->succ[b][s];

				if (r->number[q] < 0 || ipdom[q] < 0)
					continue;
				best = best < 0 ? q : intersect(r, ipdom, q, best);
			}
			if (best != ipdom[b]) {
				ipdom[b] = best;
				changed = 1;
			}
		}
	}
	ipdom[r->x] = -1;
}

/* Adds a to the blocks b is control dependent on, once. */
static void add_dependence(struct cdep *cd, int b, int a)
{
	for (int i = 0; i < cd->ncd[b]; i++) {
		if (cd->cd[b][i] == a)
			return;
	}
	cd->cd[b] = xrealloc(cd->cd[b], sizeof **cd->cd * (size_t)(cd->ncd[b] + 1));
	cd->cd[b][cd->ncd[b]++] = a;
}

void cdep_build(struct cdep *cd, const struct cfg *cfg)
{
	int n = cfg->n;
	int *to_exit = xcalloc((size_t)n + 1, sizeof *to_exit);
	struct rev r = {cfg, n, to_exit, xmalloc(sizeof(int) * (size_t)(n + 1)), 0,
			xmalloc(sizeof(int) * (size_t)(n + 1))};

	memset(cd, 0, sizeof *cd);
	cd->n = n;
	cd->fake = xcalloc((size_t)n + 1, sizeof *cd->fake);
	for (int k = 0; k < n; k++)
		to_exit[k] = cfg->nsucc[k] == 0;
	for (;;) {
		int last = -1;

		reverse_dfs(&r);
		for (int i = 0; i < cfg->nrpo; i++) {
			if (r.number[cfg->rpo[i]] < 0)
				last = cfg->rpo[i];
		}
		if (last < 0)
			break;
		to_exit[last] = cd->fake[last] = 1;
	}
	cd->ipdom = xmalloc(sizeof *cd->ipdom * (size_t)(n + 1));
	post_dominators(&r, cd->ipdom);
	cd->ncd = xcalloc((size_t)n + 1, sizeof *cd->ncd);
	cd->cd = xcalloc((size_t)n + 1, sizeof *cd->cd);
	for (int i = 0; i < cfg->nrpo; i++) {
		int a = cfg->rpo[i];

		for (int s = 0; s < cfg->nsucc[a]; s++) {
			for (int b = cfg->succ[a][s]; b >= 0 && b != cd->ipdom[a] && b != n; b = cd->ipdom[b])
				add_dependence(cd, b, a);
		}
	}
	free(to_exit);
	free(r.order);
	free(r.number);
}

void cdep_release(struct cdep *cd)
{
	for (int k = 0; k < cd->n; k++)
		free(cd->cd[k]);
	free(cd->cd);
	free(cd->ncd);
	free(cd->ipdom);
	free(cd->fake);
	memset(cd, 0, sizeof *cd);
}
