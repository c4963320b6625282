/*
 * equiv.c: blocks of one function that every run enters equally often.
 *
 * Algorithm. Close the CFG with an edge from its exit to its entry. Two blocks are cycle
 * equivalent when every cycle containing one contains the other. A complete run of the function
 * (entry to return) closed by that edge is a closed walk, a sum of simple cycles, each of which
 * enters both blocks once or neither: so cycle-equivalent blocks have equal counts. Johnson,
 * Pearson and Pingali ("The program structure tree", PLDI 1994) show that cycle equivalence is
 * control-dependence equivalence: the same set of control-dependence *edges* (Ferrante,
 * Ottenstein and Warren: block b depends on edge a->s when b post-dominates s but not a). So each
 * block's list of edges is built with cdep.c's post-dominators (the walk from s up the
 * post-dominator tree to ipdom(a)), the lists are hashed, and equal lists form a class. A class
 * is ordered by dominance (reverse postorder); consecutive members p, q are checked to satisfy
 * p dom q and q pdom p (the theorem says they do; the check keeps a mistake from costing
 * exactness) and joined.
 *
 * Equal counts need complete runs: between p's entry and q's the process must not end (exit in
 * a callee) and control must not come back from elsewhere (longjmp to a setjmp). So the region
 * from p to q (p and the blocks reached from p without passing q) must hold no barrier block;
 * where one does, the class is split. Functions with an irreducible cycle (a retreating edge
 * whose target does not dominate its source) are left alone, as the counting that relies on
 * loops is (cfg.c).
 *
 * Invariant: leader[b] dominates b, b post-dominates leader[b], and every complete run of the
 * function enters them equally often, also when the process ends in between (no barrier).
 */
#include "equiv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cdep.h"
#include "cfg.h"
#include "util.h"

/* A block and the hash of its control-dependence edges, for sorting into classes. */
struct keyed {
	uint64_t hash; /* hash of the edge list */
	int rpo;       /* its reverse-postorder number (dominance order within a class) */
	int block;     /* the block */
};

static int compare_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return (x->rpo > y->rpo) - (x->rpo < y->rpo);
}

/* Returns whether q post-dominates p (p reachable). */
static int post_dominates(const struct cdep *cd, int q, int p)
{
	while (p >= 0 && p != cd->n && p != q)
		p = cd->ipdom[p];
	return p == q;
}

/* Fills deps[b] with the control-dependence edges of every block b, each edge numbered in the
 * order (reverse postorder of its source, successor number), parallel edges once; so every list
 * is sorted and equal sets are equal lists. */
static void dependence_edges(const struct cfg *cfg, const struct cdep *cd, struct intvec *deps)
{
	int edge = 0;

	for (int i = 0; i < cfg->nrpo; i++) {
		int a = cfg->rpo[i];

		for (int s = 0; s < cfg->nsucc[a]; s++) {
			int seen = 0;

			for (int t = 0; t < s; t++)
				seen |= cfg->succ[a][t] == cfg->succ[a][s];
			if (seen)
				continue;
			for (int b = cfg->succ[a][s]; b >= 0 && b != cd->ipdom[a] && b != cd->n; b = cd->ipdom[b])
				intvec_push(&deps[b], edge);
			edge++;
		}
	}
}

static uint64_t hash_list(const struct intvec *v)
{
	uint64_t h = 1469598103934665603ull ^ (uint64_t)v->n;

	for (int i = 0; i < v->n; i++)
		h = (h ^ (uint64_t)(unsigned)v->v[i]) * 1099511628211ull;
	return h;
}

static int same_list(const struct intvec *a, const struct intvec *b)
{
	return a->n == b->n && (a->n == 0 || memcmp(a->v, b->v, sizeof *a->v * (size_t)a->n) == 0);
}

/* Returns whether the region from p to q (p, and every block reached from p without passing q)
 * holds a barrier or leads back to p without q. stamp/mark: a visit mark per block, reused. */
static int barrier_between(const struct cfg *cfg, const unsigned char *barrier, int p, int q,
			   int *mark, int stamp, int *stack)
{
	int top = 0;

	if (barrier[p])
		return 1;
	mark[p] = stamp;
	stack[top++] = p;
	while (top > 0) {
		int b = stack[--top];

		for (int s = 0; s < cfg->nsucc[b]; s++) {
			int t = cfg->succ[b][s];

			if (t == q)
				continue;
			if (t == p || barrier[t])
				return 1;
			if (mark[t] == stamp)
				continue;
			mark[t] = stamp;
			stack[top++] = t;
		}
	}
	return 0;
}

/* Joins the members of one class (in dominance order) where nothing separates neighbours. */
static void join_class(struct equiv *eq, const struct cfg *cfg, const struct cdep *cd,
		       const unsigned char *barrier, const int *members, int n, int *mark, int *stamp,
		       int *stack)
{
	for (int i = 1; i < n; i++) {
		int p = members[i - 1], q = members[i];

		++*stamp;
		if (!cfg_dominates(cfg, p, q) || !post_dominates(cd, q, p) ||
		    barrier_between(cfg, barrier, p, q, mark, *stamp, stack))
			continue;
		eq->leader[q] = eq->leader[p];
		eq->nshared++;
	}
}

/* Returns whether cfg has a retreating edge that is not a natural loop's back edge. */
static int irreducible(const struct cfg *cfg)
{
	for (int e = 0; e < cfg->nretreat; e++) {
		if (!cfg_dominates(cfg, cfg->retreat[e].to, cfg->retreat[e].from))
			return 1;
	}
	return 0;
}

/* Groups the blocks of equal dependence lists, runs of equal hashes first. */
static void group(struct equiv *eq, const struct cfg *cfg, const struct cdep *cd,
		  const unsigned char *barrier, const struct intvec *deps)
{
	struct keyed *keys = xmalloc(sizeof *keys * (size_t)(cfg->nrpo + 1));
	int *members = xmalloc(sizeof *members * (size_t)(cfg->nrpo + 1));
	int *mark = xcalloc((size_t)cfg->n + 1, sizeof *mark), *stack = xmalloc(sizeof *stack * (size_t)(cfg->n + 1));
	unsigned char *done = xcalloc((size_t)cfg->nrpo + 1, 1);
	int stamp = 0;

	for (int i = 0; i < cfg->nrpo; i++)
		keys[i] = (struct keyed){hash_list(&deps[cfg->rpo[i]]), i, cfg->rpo[i]};
	qsort(keys, (size_t)cfg->nrpo, sizeof *keys, compare_keyed);
	for (int i = 0; i < cfg->nrpo; i++) {
		int n = 0;

		if (done[i])
			continue;
		for (int j = i; j < cfg->nrpo && keys[j].hash == keys[i].hash; j++) {
			if (!done[j] && same_list(&deps[keys[j].block], &deps[keys[i].block])) {
				done[j] = 1;
				members[n++] = keys[j].block;
			}
		}
		join_class(eq, cfg, cd, barrier, members, n, mark, &stamp, stack);
	}
	free(keys);
	free(members);
	free(mark);
	free(stack);
	free(done);
}

void equiv_build(struct equiv *eq, const struct cfg *cfg, const unsigned char *barrier)
{
	struct cdep cd;
	struct intvec *deps;

	eq->n = cfg->n;
	eq->nshared = 0;
	eq->leader = xmalloc(sizeof *eq->leader * (size_t)(cfg->n + 1));
	for (int k = 0; k < cfg->n; k++)
		eq->leader[k] = cfg->rpo_number[k] >= 0 ? k : -1;
	if (cfg->nrpo < 2 || irreducible(cfg))
		return;
	cdep_build(&cd, cfg);
	deps = xcalloc((size_t)cfg->n + 1, sizeof *deps);
	dependence_edges(cfg, &cd, deps);
	group(eq, cfg, &cd, barrier, deps);
	for (int k = 0; k < cfg->n; k++)
		intvec_release(&deps[k]);
	free(deps);
	cdep_release(&cd);
}

void equiv_release(struct equiv *eq)
{
	free(eq->leader);
	memset(eq, 0, sizeof *eq);
}
