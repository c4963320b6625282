/*
 * gp.c: genetic-programming symbolic regression (Koza 1992; 004_ section 4.3, after Faber and
 * Happe 2012).
 *
 *   individuals: expression trees in prefix order over + - * / (protected: x/0 = 1), log
 *                (protected: log|x|, 0 at 0), the dimensions and constants;
 *   fitness:     Keijzer's linear scaling: y ~ a + b f(x) by weighted least squares (weights
 *                1/y^2 for relative fitting), error = weighted residual / weighted variance of
 *                y, plus 1e-6 per node (parsimony against bloat);
 *   evolution:   ramped half-and-half initial population (depths 1-4), then each generation
 *                two elites and children by tournament (size 5) and subtree crossover (90%) or
 *                subtree mutation, at most 48 nodes; stops after the generations asked for or
 *                when the error is below 1e-12.
 * Seeded (infer_options.seed): the same data and seed give the same formula on every machine.
 * Invariant: a program's nodes are a complete prefix expression (gp_end(p, 0) == p->len).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "infer.h"
#include "util.h"

#define GP_MAX_LEN 48 /* nodes of the largest program */

enum gp_op { GP_CONST, GP_VAR, GP_ADD, GP_SUB, GP_MUL, GP_DIV, GP_LOG, GP_NOPS };

/* One node. */
struct gp_node {
	unsigned char op;  /* enum gp_op */
	unsigned char var; /* GP_VAR: the dimension */
	double c;          /* GP_CONST: the value */
};

/* A program with its linear scaling and fitness. */
struct gp_prog {
	int len;                        /* nodes */
	struct gp_node v[GP_MAX_LEN];   /* prefix order */
	double a, b;                    /* prediction = a + b * f(x) */
	double fitness;                 /* lower is better */
};

/* A fitted model. */
struct gp {
	int d;              /* dimensions */
	char **names;       /* their names; owned */
	struct gp_prog best; /* the winner */
};

/* Returns how many operands op takes. */
static int arity(int op)
{
	return op <= GP_VAR ? 0 : op == GP_LOG ? 1 : 2;
}

/* Returns the index one past the subtree starting at i. */
static int gp_end(const struct gp_prog *p, int i)
{
	int need = 1;

	while (need > 0) {
		need += arity(p->v[i].op) - 1;
		i++;
	}
	return i;
}

/* Returns the value of the subtree at v[*i] at point x; advances *i past it. */
static double eval_at(const struct gp_node *v, int *i, const double *x)
{
	const struct gp_node *nd = &v[(*i)++];
	double a, b;

	switch (nd->op) {
	case GP_CONST: return nd->c;
	case GP_VAR: return x[nd->var];
	case GP_LOG:
		a = eval_at(v, i, x);
		return a == 0 ? 0 : log(fabs(a));
	default:
		break;
	}
	a = eval_at(v, i, x);
	b = eval_at(v, i, x);
	switch (nd->op) {
	case GP_ADD: return a + b;
	case GP_SUB: return a - b;
	case GP_MUL: return a * b;
	default: return fabs(b) < 1e-12 ? 1 : a / b;
	}
}

/* Returns program p at point x. */
static double gp_eval(const struct gp_prog *p, const double *x)
{
	int i = 0;

	return eval_at(p->v, &i, x);
}

/* The population's world: data, weights, random stream. */
struct world {
	const struct infer_data *data;
	double *w;          /* fitting weights */
	double *f;          /* scratch: a program's values on the data */
	double wvar;        /* weighted variance of y times the weight sum */
	uint64_t rng;       /* the random stream */
};

/* Returns a uniform integer in [0, n). */
static int rand_below(struct world *wd, int n)
{
	return (int)(infer_rand(&wd->rng) % (uint64_t)n);
}

/* Appends a random tree of at most depth levels (full: every branch that deep). */
static void random_tree(struct world *wd, struct gp_prog *p, int depth, int full)
{
	int leaf = depth <= 1 || (!full && rand_below(wd, 3) == 0);
	struct gp_node *nd = &p->v[p->len++];

	memset(nd, 0, sizeof *nd);
	if (leaf) {
		if (rand_below(wd, 3) == 0) {
			nd->op = GP_CONST;
			nd->c = rand_below(wd, 2) ? 1 + rand_below(wd, 3) : 2 * infer_uniform(&wd->rng) - 1;
		} else {
			nd->op = GP_VAR;
			nd->var = (unsigned char)rand_below(wd, wd->data->d);
		}
		return;
	}
	nd->op = (unsigned char)(GP_ADD + rand_below(wd, GP_NOPS - GP_ADD));
	for (int k = 0; k < arity(nd->op); k++)
		random_tree(wd, p, depth - 1, full);
}

/* Scores p: linear scaling by weighted least squares, error relative to y's variance. */
static void score(struct world *wd, struct gp_prog *p)
{
	const struct infer_data *data = wd->data;
	double sw = 0, sf = 0, sy = 0, sff = 0, sfy = 0, rss = 0;

	for (int i = 0; i < data->n; i++) {
		double f = gp_eval(p, data->x + (size_t)i * (size_t)data->d), w = wd->w[i];

		if (!isfinite(f)) {
			p->fitness = INFINITY;
			return;
		}
		wd->f[i] = f;
		sw += w;
		sf += w * f;
		sy += w * data->y[i];
		sff += w * f * f;
		sfy += w * f * data->y[i];
	}
	{
		double cov = sfy - sf * sy / sw, var = sff - sf * sf / sw;

		p->b = var > 1e-300 * sw ? cov / var : 0;
		p->a = (sy - p->b * sf) / sw;
	}
	for (int i = 0; i < data->n; i++) {
		double e = data->y[i] - p->a - p->b * wd->f[i];

		rss += wd->w[i] * e * e;
	}
	p->fitness = (wd->wvar > 0 ? rss / wd->wvar : rss) + 1e-6 * p->len;
	if (!isfinite(p->fitness))
		p->fitness = INFINITY;
}

static const struct gp_prog *tournament(struct world *wd, const struct gp_prog *pop, int n)
{
	const struct gp_prog *best = &pop[rand_below(wd, n)];

	for (int k = 1; k < 5; k++) {
		const struct gp_prog *c = &pop[rand_below(wd, n)];

		if (c->fitness < best->fitness)
			best = c;
	}
	return best;
}

/* child = mother with a random subtree replaced by donor's random subtree (or a new tree). */
static void crossover(struct world *wd, const struct gp_prog *mother, const struct gp_prog *donor,
		      struct gp_prog *child)
{
	int i = rand_below(wd, mother->len), ie = gp_end(mother, i), j, je, len;
	struct gp_prog fresh = {0};

	if (!donor) {
		random_tree(wd, &fresh, 1 + rand_below(wd, 3), 0);
		donor = &fresh;
	}
	j = rand_below(wd, donor->len);
	je = gp_end(donor, j);
	len = mother->len - (ie - i) + (je - j);
	if (len > GP_MAX_LEN) {
		*child = *mother;
		return;
	}
	child->len = 0;
	memcpy(child->v, mother->v, sizeof *child->v * (size_t)i);
	memcpy(child->v + i, donor->v + j, sizeof *child->v * (size_t)(je - j));
	memcpy(child->v + i + (je - j), mother->v + ie, sizeof *child->v * (size_t)(mother->len - ie));
	child->len = len;
}

/* The learner's fit: evolves the population. Returns the best program (owned by the caller). */
static void *gp_fit(const struct infer_data *data, const struct infer_options *opt, struct error *err)
{
	int np = opt->gp_population > 10 ? opt->gp_population : 10;
	struct gp_prog *pop = xcalloc((size_t)np, sizeof *pop), *next = xcalloc((size_t)np, sizeof *next);
	struct world wd = {data, xmalloc(sizeof *wd.w * (size_t)data->n), xmalloc(sizeof *wd.f * (size_t)data->n),
			   0, opt->seed};
	struct gp *g = xcalloc(1, sizeof *g);
	double sw = 0, sy = 0;
	int best = 0;

	(void)err;
	infer_weights(data->y, data->n, opt->relative, wd.w);
	for (int i = 0; i < data->n; i++) {
		sw += wd.w[i];
		sy += wd.w[i] * data->y[i];
	}
	for (int i = 0; i < data->n; i++)
		wd.wvar += wd.w[i] * (data->y[i] - sy / sw) * (data->y[i] - sy / sw);
	for (int i = 0; i < np; i++) {
		random_tree(&wd, &pop[i], 1 + i % 4, i % 2);
		score(&wd, &pop[i]);
	}
	for (int gen = 0; gen < opt->gp_generations; gen++) {
		best = 0;
		for (int i = 1; i < np; i++) {
			if (pop[i].fitness < pop[best].fitness)
				best = i;
		}
		if (pop[best].fitness - 1e-6 * pop[best].len < 1e-12)
			break;
		next[0] = pop[best];
		for (int i = 1; i < np; i++) {
			const struct gp_prog *m = tournament(&wd, pop, np);

			crossover(&wd, m, rand_below(&wd, 10) < 9 ? tournament(&wd, pop, np) : NULL, &next[i]);
			score(&wd, &next[i]);
		}
		memcpy(pop, next, sizeof *pop * (size_t)np);
	}
	best = 0;
	for (int i = 1; i < np; i++) {
		if (pop[i].fitness < pop[best].fitness)
			best = i;
	}
	g->d = data->d;
	g->names = xcalloc((size_t)data->d + 1, sizeof *g->names);
	for (int j = 0; j < data->d; j++)
		g->names[j] = xstrdup(data->names[j]);
	g->best = pop[best];
	free(pop);
	free(next);
	free(wd.w);
	free(wd.f);
	return g;
}

/* Returns a + b * f(x) of the winner. */
static double gp_predict(const void *model, const double *x)
{
	const struct gp *g = model;

	return g->best.a + g->best.b * gp_eval(&g->best, x);
}

/* Appends the subtree at v[*i] in infix, fully parenthesised; advances *i. */
static void format_at(const struct gp *g, int *i, struct strbuf *out)
{
	static const char *const ops[] = {"", "", " + ", " - ", " * ", " / "};
	const struct gp_node *nd = &g->best.v[(*i)++];

	switch (nd->op) {
	case GP_CONST: infer_format_number(out, nd->c); return;
	case GP_VAR: strbuf_add(out, g->names[nd->var], strlen(g->names[nd->var])); return;
	case GP_LOG:
		strbuf_add(out, "log|", 4);
		format_at(g, i, out);
		strbuf_addch(out, '|');
		return;
	default:
		break;
	}
	strbuf_addch(out, '(');
	format_at(g, i, out);
	strbuf_add(out, ops[nd->op], 3);
	format_at(g, i, out);
	strbuf_addch(out, ')');
}

/* Appends a + b * (the program). */
static void gp_format(const void *model, struct strbuf *out)
{
	const struct gp *g = model;
	int i = 0;

	infer_format_number(out, g->best.a);
	strbuf_add(out, " + ", 3);
	infer_format_number(out, g->best.b);
	strbuf_add(out, " * ", 3);
	format_at(g, &i, out);
}

/* Frees the model. */
static void gp_free(void *model)
{
	struct gp *g = model;

	for (int j = 0; j < g->d; j++)
		free(g->names[j]);
	free(g->names);
	free(g);
}

const struct learner learner_gp = {
	.name = "gp",
	.summary = "genetic-programming symbolic regression, linear scaling, seeded",
	.fit = gp_fit,
	.predict = gp_predict,
	.format = gp_format,
	.free_model = gp_free,
};
