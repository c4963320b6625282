/*
 * cart.c: Classification and Regression Trees for regression (Breiman et al. 1984, as R's
 * rpart; 004_ section 4.2).
 *
 *   grow:  a node of at least min_split points is split on the dimension and threshold (the
 *          midpoint between two consecutive distinct values) that cut the sum of squared errors
 *          most, each side keeping at least max(1, min_split / 3) points; a leaf predicts its mean.
 *   prune: cost-complexity pruning: the weakest link g(t) = (R(t) - R(T_t)) / (leaves(T_t) - 1)
 *          is collapsed while g <= alpha; alpha is chosen by K-fold cross-validation over the
 *          geometric means of the full tree's pruning sequence (Breiman's choice) by the
 *          one-standard-error rule: the largest alpha whose held-out error is within one
 *          standard error of the least.
 * Invariant: node 0 is the root; an internal node's children have larger indices; R(t) is the
 * node's own sum of squared errors about its mean. Plain least squares, as rpart.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "infer.h"
#include "util.h"

/* One node of the tree. */
struct node {
	int var;       /* split dimension, -1 for a leaf */
	double thr;    /* go left when x[var] <= thr */
	int left;      /* child indices (internal nodes) */
	int right;
	double mean;   /* mean of the node's points: a leaf's prediction */
	double sse;    /* R(t): sum of squared errors about the mean */
	int n;         /* points in the node */
};

/* A tree. */
struct cart {
	int d;              /* dimensions */
	char **names;       /* their names; owned */
	int nnodes, cap;    /* nodes used, allocated */
	struct node *v;     /* owned */
	double alpha;       /* the complexity parameter it was pruned at */
};

/* What growing needs. */
struct grow {
	const struct infer_data *data;
	int min_split, min_leaf;
	struct cart *t;
};

/* Appends a leaf to t (may move t->v). Returns its index. */
static int new_node(struct cart *t)
{
	if (t->nnodes == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 32;
		t->v = xrealloc(t->v, sizeof *t->v * (size_t)t->cap);
	}
	memset(&t->v[t->nnodes], 0, sizeof *t->v);
	t->v[t->nnodes].var = -1;
	return t->nnodes++;
}

/* Returns dimension v of point i. */
static double xval(const struct infer_data *data, int i, int v)
{
	return data->x[(size_t)i * (size_t)data->d + (size_t)v];
}

static const struct infer_data *sort_data;
static int sort_var;

/* qsort order of point indices by dimension sort_var of sort_data (growing is single-threaded). */
static int cmp_by_var(const void *a, const void *b)
{
	double x = xval(sort_data, *(const int *)a, sort_var), y = xval(sort_data, *(const int *)b, sort_var);

	return x < y ? -1 : x > y;
}

/* Grows the subtree of idx[0..n) into node k. */
static void grow(struct grow *g, int k, int *idx, int n)
{
	const struct infer_data *data = g->data;
	double sum = 0, sq = 0, best = 0, thr = 0;
	int var = -1, cut = 0, child;

	for (int i = 0; i < n; i++) {
		sum += data->y[idx[i]];
		sq += data->y[idx[i]] * data->y[idx[i]];
	}
	g->t->v[k].n = n;
	g->t->v[k].mean = sum / n;
	g->t->v[k].sse = fmax(0, sq - sum * sum / n);
	if (n < g->min_split || g->t->v[k].sse <= 1e-12 * fabs(sq))
		return;
	for (int v = 0; v < data->d; v++) {
		double ls = 0;

		sort_data = data;
		sort_var = v;
		qsort(idx, (size_t)n, sizeof *idx, cmp_by_var);
		for (int i = 0; i < n - 1; i++) {
			double a = xval(data, idx[i], v), b = xval(data, idx[i + 1], v), gain;
			int nl = i + 1, nr = n - nl;

			ls += data->y[idx[i]];
			if (a == b || nl < g->min_leaf || nr < g->min_leaf)
				continue;
			gain = ls * ls / nl + (sum - ls) * (sum - ls) / nr - sum * sum / n;
			if (gain > best * (1 + 1e-12)) {
				best = gain;
				var = v;
				thr = (a + b) / 2;
			}
		}
	}
	if (var < 0 || best <= 1e-12 * g->t->v[k].sse)
		return;
	for (int i = 0; i < n; i++) { /* partition: left side first */
		if (xval(data, idx[i], var) <= thr) {
			int tmp = idx[cut];

			idx[cut++] = idx[i];
			idx[i] = tmp;
		}
	}
	g->t->v[k].var = var;
	g->t->v[k].thr = thr;
	child = new_node(g->t); /* may move the nodes: not in the same expression as v[k] */
	g->t->v[k].left = child;
	grow(g, child, idx, cut);
	child = new_node(g->t);
	g->t->v[k].right = child;
	grow(g, child, idx + cut, n - cut);
}

/* Sums R over the leaves of node k's subtree into *r and counts them into *leaves. */
static void subtree(const struct cart *t, int k, double *r, int *leaves)
{
	if (t->v[k].var < 0) {
		*r += t->v[k].sse;
		(*leaves)++;
		return;
	}
	subtree(t, t->v[k].left, r, leaves);
	subtree(t, t->v[k].right, r, leaves);
}

/* Returns the internal node of least g(t) (its g in *gmin), or -1 if the tree is a leaf. */
static int weakest_link(const struct cart *t, double *gmin)
{
	int best = -1;

	*gmin = INFINITY;
	for (int k = 0; k < t->nnodes; k++) {
		double r = 0, g;
		int leaves = 0;

		if (t->v[k].var < 0 || t->v[k].n == 0)
			continue;
		subtree(t, k, &r, &leaves);
		g = (t->v[k].sse - r) / (leaves - 1);
		if (g < *gmin) {
			*gmin = g;
			best = k;
		}
	}
	return best;
}

/* Marks the descendants of node k unreachable (n = 0) and makes k a leaf again. */
static void collapse(struct cart *t, int k)
{
	if (t->v[k].var < 0)
		return;
	collapse(t, t->v[k].left);
	collapse(t, t->v[k].right);
	t->v[t->v[k].left].n = 0;
	t->v[t->v[k].right].n = 0;
	t->v[k].var = -1;
}

/* Collapses weakest links while their g <= alpha. */
static void prune(struct cart *t, double alpha)
{
	double g;
	int k;

	while ((k = weakest_link(t, &g)) >= 0 && g <= alpha * (1 + 1e-12))
		collapse(t, k);
	t->alpha = alpha;
}

/* Fills alphas with the pruning sequence of a copy of t; returns how many. */
static int pruning_sequence(const struct cart *t, double *alphas, int cap)
{
	struct cart c = *t;
	double g;
	int k, n = 0;

	c.v = xmalloc(sizeof *c.v * (size_t)t->cap);
	memcpy(c.v, t->v, sizeof *c.v * (size_t)t->nnodes);
	while ((k = weakest_link(&c, &g)) >= 0 && n < cap) {
		alphas[n++] = g;
		collapse(&c, k);
	}
	free(c.v);
	return n;
}

/* Returns the mean of the leaf x falls in. */
static double tree_predict(const struct cart *t, const double *x)
{
	int k = 0;

	while (t->v[k].var >= 0)
		k = x[t->v[k].var] <= t->v[k].thr ? t->v[k].left : t->v[k].right;
	return t->v[k].mean;
}

/* Grows the full tree on the rows idx[0..n). */
static void grow_tree(struct cart *t, const struct infer_data *data, const struct infer_options *opt,
		      int *idx, int n)
{
	struct grow g = {data, opt->cart_min_split > 2 ? opt->cart_min_split : 2, 1, t};

	g.min_leaf = g.min_split / 3 > 1 ? g.min_split / 3 : 1;
	t->nnodes = 0;
	grow(&g, new_node(t), idx, n);
}

/* Returns the alpha chosen by K-fold cross-validation among the candidates (ascending): the
 * largest whose held-out squared error is within one standard error of the least (Breiman's
 * one-standard-error rule, as rpart's users apply it). */
static double choose_alpha(const struct infer_data *data, const struct infer_options *opt,
			   const double *cand, int ncand)
{
	int n = data->n, folds = opt->cart_folds, *perm = xmalloc(sizeof *perm * (size_t)n);
	int *train = xmalloc(sizeof *train * (size_t)n), best = 0;
	double *err = xcalloc((size_t)ncand, sizeof *err), *err2 = xcalloc((size_t)ncand, sizeof *err2), se, alpha = 0;
	uint64_t s = opt->seed;

	if (folds > n / 2)
		folds = n / 2;
	for (int i = 0; i < n; i++)
		perm[i] = i;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(infer_rand(&s) % (uint64_t)(i + 1)), tmp = perm[i];

		perm[i] = perm[j];
		perm[j] = tmp;
	}
	for (int f = 0; f < folds; f++) {
		struct cart t = {0};
		int nt = 0;

		t.d = data->d;
		for (int i = 0; i < n; i++) {
			if (i % folds != f)
				train[nt++] = perm[i];
		}
		grow_tree(&t, data, opt, train, nt);
		for (int c = 0; c < ncand; c++) {
			prune(&t, cand[c]);
			for (int i = f; i < n; i += folds) {
				double e = tree_predict(&t, data->x + (size_t)perm[i] * (size_t)data->d) - data->y[perm[i]];

				err[c] += e * e;
				err2[c] += e * e * e * e;
			}
		}
		free(t.v);
	}
	for (int c = 1; c < ncand; c++) {
		if (err[c] < err[best])
			best = c;
	}
	se = sqrt(fmax(0, err2[best] / n - (err[best] / n) * (err[best] / n)) / n) * n;
	for (int c = 0; c < ncand; c++) {
		if (err[c] <= err[best] + se)
			alpha = cand[c];
	}
	free(perm);
	free(train);
	free(err);
	free(err2);
	return alpha;
}

/* The learner's fit: grows the tree, prunes it at the cross-validated alpha. Returns the tree
 * (owned by the caller). */
static void *cart_fit(const struct infer_data *data, const struct infer_options *opt, struct error *err)
{
	struct cart *t = xcalloc(1, sizeof *t);
	int *idx = xmalloc(sizeof *idx * (size_t)data->n), nseq;
	double *seq, *cand;

	(void)err;
	t->d = data->d;
	t->names = xcalloc((size_t)data->d + 1, sizeof *t->names);
	for (int j = 0; j < data->d; j++)
		t->names[j] = xstrdup(data->names[j]);
	for (int i = 0; i < data->n; i++)
		idx[i] = i;
	grow_tree(t, data, opt, idx, data->n);
	seq = xmalloc(sizeof *seq * (size_t)t->nnodes);
	cand = xmalloc(sizeof *cand * (size_t)(t->nnodes + 1));
	nseq = pruning_sequence(t, seq, t->nnodes);
	cand[0] = 0;
	for (int k = 0; k < nseq; k++) /* Breiman: the geometric mean of consecutive alphas */
		cand[k + 1] = k + 1 < nseq ? sqrt(fmax(seq[k], 0) * seq[k + 1]) : seq[k];
	if (nseq > 0 && data->n >= 4 && opt->cart_folds >= 2)
		prune(t, choose_alpha(data, opt, cand, nseq + 1));
	free(seq);
	free(cand);
	free(idx);
	return t;
}

/* Returns the tree's prediction at x. */
static double cart_predict(const void *model, const double *x)
{
	return tree_predict(model, x);
}

/* Appends node k's subtree as indented if/else lines. */
static void format_node(const struct cart *t, int k, int depth, struct strbuf *out)
{
	for (int i = 0; i < depth; i++)
		strbuf_add(out, "  ", 2);
	if (t->v[k].var < 0) {
		infer_format_number(out, t->v[k].mean);
		strbuf_addch(out, '\n');
		return;
	}
	for (int side = 0; side < 2; side++) {
		const char *name = t->names[t->v[k].var];

		if (side == 1) {
			for (int i = 0; i < depth; i++)
				strbuf_add(out, "  ", 2);
		}
		strbuf_add(out, side ? "else " : "if ", side ? 5 : 3);
		strbuf_add(out, name, strlen(name));
		strbuf_add(out, side ? " > " : " <= ", side ? 3 : 4);
		infer_format_number(out, t->v[k].thr);
		strbuf_add(out, ":\n", 2);
		format_node(t, side ? t->v[k].right : t->v[k].left, depth + 1, out);
	}
}

/* Appends the tree, one node per line. */
static void cart_format(const void *model, struct strbuf *out)
{
	strbuf_add(out, "", 0);
	format_node(model, 0, 0, out);
	if (out->len > 0 && out->buf[out->len - 1] == '\n')
		out->buf[--out->len] = '\0';
}

/* Frees the tree. */
static void cart_free(void *model)
{
	struct cart *t = model;

	for (int j = 0; j < t->d; j++)
		free(t->names[j]);
	free(t->names);
	free(t->v);
	free(t);
}

const struct learner learner_cart = {
	.name = "cart",
	.summary = "CART: greedy least-squares splits, cost-complexity pruning by cross-validation",
	.fit = cart_fit,
	.predict = cart_predict,
	.format = cart_format,
	.free_model = cart_free,
};
