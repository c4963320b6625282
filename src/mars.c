/*
 * mars.c: Multivariate Adaptive Regression Splines (Friedman 1991; 004_ section 4.1).
 *
 *   forward:  basis = {1}; repeat: for every basis function B (fewer than `degree` hinges),
 *             every dimension v it does not use and every candidate knot t (the distinct values
 *             of x_v where B > 0, thinned to at most 24 quantiles), try the pair
 *             B*[x_v - t]+, B*[t - x_v]+; add the pair that cuts the residual sum of squares
 *             most; stop at max_terms or when no pair cuts it by 1e-9 of the total.
 *   backward: from all forward terms, drop one term at a time, always the one whose removal
 *             raises RSS least; keep the subset of lowest generalised cross-validation
 *             GCV = RSS/n / (1 - C/n)^2, C = terms + 3 (terms - 1) / 2 (Friedman's d = 3 per
 *             knot, a pair adding one knot).
 * A candidate's RSS cut is exact and needs no refit: the current basis is kept orthonormal
 * (modified Gram-Schmidt) with the residual orthogonal to it, so adding columns c1, c2 cuts
 * RSS by b' G^-1 b with c' the columns made orthogonal to the basis, G = c''c', b = c''r.
 * Invariant: Q's columns are orthonormal and span the basis; r = y - Q Q'y. All sums are
 * weighted (rows scaled by sqrt(w), w = 1/y^2 for relative fitting).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "infer.h"
#include "linalg.h"
#include "util.h"

#define MARS_MAX_DEGREE 3 /* hinges a product may hold */
#define MARS_KNOTS 24     /* candidate knots per dimension and parent */

/* One factor of a basis function: [x_v - t]+ (sign 1) or [t - x_v]+ (sign -1). */
struct hinge {
	int var;     /* dimension */
	double knot; /* t, natural units */
	int sign;    /* 1 or -1 */
};

/* A basis function: the product of its hinges (none: the constant 1). */
struct basis {
	int nh;                            /* hinges */
	struct hinge h[MARS_MAX_DEGREE];   /* the factors */
};

/* A fitted MARS model: sum of coef[k] * basis k. */
struct mars {
	int d;              /* dimensions */
	char **names;       /* dimension names; owned */
	int nterms;         /* basis functions kept (the first is the constant) */
	struct basis *b;    /* owned */
	double *coef;       /* owned */
};

/* Returns basis function b at point x. */
static double basis_eval(const struct basis *b, const double *x)
{
	double v = 1;

	for (int k = 0; k < b->nh && v != 0; k++) {
		double t = b->h[k].sign > 0 ? x[b->h[k].var] - b->h[k].knot : b->h[k].knot - x[b->h[k].var];

		v *= t > 0 ? t : 0;
	}
	return v;
}

/* Returns whether b has a hinge on dimension var. */
static int basis_uses(const struct basis *b, int var)
{
	for (int k = 0; k < b->nh; k++) {
		if (b->h[k].var == var)
			return 1;
	}
	return 0;
}

/* Returns the dot product of a and b (n values). */
static double dot(const double *a, const double *b, int n)
{
	double s = 0;

	for (int i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}

/* Makes c orthogonal to q[0..m) (each n long, orthonormal), twice for accuracy. */
static void orthogonalise(double *c, const double *q, int m, int n)
{
	for (int pass = 0; pass < 2; pass++) {
		for (int k = 0; k < m; k++) {
			double p = dot(c, q + (size_t)k * (size_t)n, n);

			for (int i = 0; i < n; i++)
				c[i] -= p * q[(size_t)k * (size_t)n + (size_t)i];
		}
	}
}

/* The forward pass's working state. */
struct forward {
	const struct infer_data *data;
	const double *sw;   /* sqrt of the weights */
	int n, cap;         /* rows; most basis functions */
	struct basis *b;    /* the basis so far */
	int m;              /* its size */
	double *q;          /* n*cap orthonormal columns spanning it */
	double *r;          /* residual of sw*y */
	double *col;        /* n*cap weighted values of each basis function */
};

/* Appends column c (weighted values of a new basis function) if it is not in the span. */
static int forward_add(struct forward *f, const struct basis *nb, const double *c)
{
	double *q = f->q + (size_t)f->m * (size_t)f->n, norm0 = sqrt(dot(c, c, f->n)), norm, p;

	memcpy(q, c, sizeof *q * (size_t)f->n);
	orthogonalise(q, f->q, f->m, f->n);
	norm = sqrt(dot(q, q, f->n));
	if (!(norm > 1e-9 * norm0) || norm0 == 0)
		return 0;
	for (int i = 0; i < f->n; i++)
		q[i] /= norm;
	p = dot(q, f->r, f->n);
	for (int i = 0; i < f->n; i++)
		f->r[i] -= p * q[i];
	memcpy(f->col + (size_t)f->m * (size_t)f->n, c, sizeof *c * (size_t)f->n);
	f->b[f->m++] = *nb;
	return 1;
}

/* Fills the weighted column of parent * hinge. */
static void hinge_column(const struct forward *f, int parent, const struct hinge *h, double *c)
{
	const double *pc = f->col + (size_t)parent * (size_t)f->n;
	int d = f->data->d;

	for (int i = 0; i < f->n; i++) {
		double x = f->data->x[(size_t)i * (size_t)d + (size_t)h->var];
		double t = h->sign > 0 ? x - h->knot : h->knot - x;

		c[i] = t > 0 ? pc[i] * t : 0;
	}
}

/* Returns the RSS cut of adding the (already orthogonalised) columns a and b. */
static double pair_gain(const double *a, const double *b, const double *r, int n)
{
	double aa = dot(a, a, n), bb = dot(b, b, n), ab = dot(a, b, n);
	double ar = dot(a, r, n), br = dot(b, r, n), det = aa * bb - ab * ab;

	if (aa <= 1e-18 && bb <= 1e-18)
		return 0;
	if (aa <= 1e-18 || det <= 1e-12 * aa * bb)
		return bb > 1e-18 ? br * br / bb : (aa > 1e-18 ? ar * ar / aa : 0);
	if (bb <= 1e-18)
		return ar * ar / aa;
	return (bb * ar * ar - 2 * ab * ar * br + aa * br * br) / det;
}

/* qsort order of doubles, ascending. */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Fills knots with the distinct values of x_v where the parent is non-zero, but the largest,
 * thinned to MARS_KNOTS quantiles; returns how many. */
static int candidate_knots(const struct forward *f, int parent, int v, double *knots)
{
	double *vals = xmalloc(sizeof *vals * (size_t)f->n);
	int nv = 0, nu = 0, nk = 0, d = f->data->d;

	for (int i = 0; i < f->n; i++) {
		if (f->col[(size_t)parent * (size_t)f->n + (size_t)i] != 0)
			vals[nv++] = f->data->x[(size_t)i * (size_t)d + (size_t)v];
	}
	qsort(vals, (size_t)nv, sizeof *vals, cmp_double);
	for (int i = 0; i < nv; i++) {
		if (nu == 0 || vals[i] != vals[nu - 1])
			vals[nu++] = vals[i];
	}
	nu--; /* a knot at the largest value gives a zero column */
	for (int k = 0; k < nu && k < MARS_KNOTS; k++)
		knots[nk++] = vals[nu <= MARS_KNOTS ? k : (int)((double)k * (nu - 1) / (MARS_KNOTS - 1) + 0.5)];
	free(vals);
	return nk;
}

/* Fills c with the weighted values of basis function b on every row. */
static void full_column(const struct forward *f, const struct basis *b, double *c)
{
	int d = f->data->d;

	for (int i = 0; i < f->n; i++)
		c[i] = f->sw[i] * basis_eval(b, f->data->x + (size_t)i * (size_t)d);
}

/* One forward step: adds the best pair; returns 0 when nothing helps. */
static int forward_step(struct forward *f, int degree, double tss)
{
	double *a = xmalloc(sizeof *a * (size_t)f->n), *bcol = xmalloc(sizeof *bcol * (size_t)f->n);
	double knots[MARS_KNOTS], best = 1e-9 * tss;
	struct basis nb[2];
	int found = 0, added = 0;

	for (int p = 0; p < f->m; p++) {
		if (f->b[p].nh >= degree)
			continue;
		for (int v = 0; v < f->data->d; v++) {
			int nk;

			if (basis_uses(&f->b[p], v))
				continue;
			nk = candidate_knots(f, p, v, knots);
			for (int k = 0; k < nk; k++) {
				struct hinge up = {v, knots[k], 1}, down = {v, knots[k], -1};
				double g;

				hinge_column(f, p, &up, a);
				hinge_column(f, p, &down, bcol);
				orthogonalise(a, f->q, f->m, f->n);
				orthogonalise(bcol, f->q, f->m, f->n);
				g = pair_gain(a, bcol, f->r, f->n);
				if (g > best) {
					best = g;
					found = 1;
					nb[0] = nb[1] = f->b[p];
					nb[0].h[nb[0].nh++] = up;
					nb[1].h[nb[1].nh++] = down;
				}
			}
		}
	}
	for (int k = 0; found && k < 2 && f->m < f->cap; k++) {
		full_column(f, &nb[k], a);
		added += forward_add(f, &nb[k], a);
	}
	free(a);
	free(bcol);
	return found && added > 0;
}

/* Weighted least squares on the columns of the subset keep[0..m); returns RSS, fills coef. */
static double subset_rss(const struct forward *f, const int *keep, int m, const double *swy,
			 double *coef)
{
	double *a = xmalloc(sizeof *a * (size_t)f->n * (size_t)(m ? m : 1)), rss = INFINITY, b0;
	struct error err;
	int k = 0;

	for (int j = 0; j < f->m; j++) {
		if (keep[j])
			memcpy(a + (size_t)k++ * (size_t)f->n, f->col + (size_t)j * (size_t)f->n,
			       sizeof *a * (size_t)f->n);
	}
	if (linalg_lstsq(a, f->n, m, swy, 0, &b0, coef, &rss, &err) < 0)
		rss = INFINITY;
	free(a);
	return rss;
}

/* Returns Friedman's generalised cross-validation of a model of terms basis functions. */
static double gcv(double rss, int terms, int n)
{
	double c = terms + 3.0 * (terms - 1) / 2, den = 1 - c / n;

	return den > 0 ? rss / n / (den * den) : INFINITY;
}

/* Backward pruning: leaves in best[] the subset of least GCV (best[0] = 1 always). */
static void backward(const struct forward *f, const double *swy, int *best)
{
	int *keep = xmalloc(sizeof *keep * (size_t)f->m), size = f->m;
	double *coef = xmalloc(sizeof *coef * (size_t)f->m), best_gcv;

	for (int j = 0; j < f->m; j++)
		keep[j] = best[j] = 1;
	best_gcv = gcv(subset_rss(f, keep, size, swy, coef), size, f->n);
	while (size > 1) {
		int drop = -1;
		double drop_rss = INFINITY, g;

		for (int j = 1; j < f->m; j++) {
			double rss;

			if (!keep[j])
				continue;
			keep[j] = 0;
			rss = subset_rss(f, keep, size - 1, swy, coef);
			keep[j] = 1;
			if (rss < drop_rss) {
				drop_rss = rss;
				drop = j;
			}
		}
		if (drop < 0)
			break;
		keep[drop] = 0;
		size--;
		g = gcv(drop_rss, size, f->n);
		if (g <= best_gcv) {
			best_gcv = g;
			memcpy(best, keep, sizeof *keep * (size_t)f->m);
		}
	}
	free(keep);
	free(coef);
}

/* The learner's fit: forward pass, backward pruning, coefficients. Returns the model (owned
 * by the caller) or NULL with err. */
static void *mars_fit(const struct infer_data *data, const struct infer_options *opt, struct error *err)
{
	struct forward f = {0};
	struct mars *m = xcalloc(1, sizeof *m);
	double *w = xmalloc(sizeof *w * (size_t)data->n), *swy = xmalloc(sizeof *swy * (size_t)data->n);
	double *c = xmalloc(sizeof *c * (size_t)data->n), tss, ybar = 0, wsum = 0;
	struct basis one = {0};
	int *best, degree = opt->mars_degree < 1 ? 1 : opt->mars_degree;

	if (degree > MARS_MAX_DEGREE)
		degree = MARS_MAX_DEGREE;
	f.data = data;
	f.n = data->n;
	f.cap = opt->mars_max_terms > 1 ? opt->mars_max_terms : 2;
	if (f.cap > data->n)
		f.cap = data->n;
	f.b = xcalloc((size_t)f.cap + 2, sizeof *f.b);
	f.q = xcalloc((size_t)f.n * (size_t)(f.cap + 2), sizeof *f.q);
	f.col = xcalloc((size_t)f.n * (size_t)(f.cap + 2), sizeof *f.col);
	f.r = xmalloc(sizeof *f.r * (size_t)f.n);
	infer_weights(data->y, data->n, opt->relative, w);
	for (int i = 0; i < f.n; i++) {
		w[i] = sqrt(w[i]);
		swy[i] = w[i] * data->y[i];
		f.r[i] = swy[i];
		ybar += w[i] * w[i] * data->y[i];
		wsum += w[i] * w[i];
	}
	f.sw = w;
	ybar /= wsum;
	tss = 0;
	for (int i = 0; i < f.n; i++)
		tss += w[i] * w[i] * (data->y[i] - ybar) * (data->y[i] - ybar);
	full_column(&f, &one, c);
	forward_add(&f, &one, c);
	while (f.m + 2 <= f.cap && tss > 0 && forward_step(&f, degree, tss))
		;
	best = xmalloc(sizeof *best * (size_t)f.m);
	backward(&f, swy, best);
	m->d = data->d;
	m->names = xcalloc((size_t)data->d + 1, sizeof *m->names);
	for (int j = 0; j < data->d; j++)
		m->names[j] = xstrdup(data->names[j]);
	m->b = xcalloc((size_t)f.m, sizeof *m->b);
	m->coef = xcalloc((size_t)f.m, sizeof *m->coef);
	for (int j = 0; j < f.m; j++) {
		if (best[j])
			m->b[m->nterms++] = f.b[j];
	}
	if (subset_rss(&f, best, m->nterms, swy, m->coef) == INFINITY) {
		error_set(err, "the least-squares fit of %d basis functions failed", m->nterms);
		free(m->b);
		free(m->coef);
		for (int j = 0; j < m->d; j++)
			free(m->names[j]);
		free(m->names);
		free(m);
		m = NULL;
	}
	free(best);
	free(f.b);
	free(f.q);
	free(f.col);
	free(f.r);
	free(w);
	free(swy);
	free(c);
	return m;
}

/* Returns the model at x. */
static double mars_predict(const void *model, const double *x)
{
	const struct mars *m = model;
	double v = 0;

	for (int k = 0; k < m->nterms; k++)
		v += m->coef[k] * basis_eval(&m->b[k], x);
	return v;
}

/* Appends c0 + c1 * max(0, x - t) * ... in the data's units. */
static void mars_format(const void *model, struct strbuf *out)
{
	const struct mars *m = model;

	strbuf_add(out, "", 0);
	for (int k = 0; k < m->nterms; k++) {
		if (k > 0)
			strbuf_add(out, m->coef[k] < 0 ? " - " : " + ", 3);
		infer_format_number(out, k > 0 ? fabs(m->coef[k]) : m->coef[k]);
		for (int j = 0; j < m->b[k].nh; j++) {
			const struct hinge *h = &m->b[k].h[j];
			const char *name = m->names[h->var];

			strbuf_add(out, " * max(0, ", 10);
			if (h->sign > 0) {
				strbuf_add(out, name, strlen(name));
				strbuf_add(out, " - ", 3);
				infer_format_number(out, h->knot);
			} else {
				infer_format_number(out, h->knot);
				strbuf_add(out, " - ", 3);
				strbuf_add(out, name, strlen(name));
			}
			strbuf_addch(out, ')');
		}
	}
}

/* Frees the model. */
static void mars_free(void *model)
{
	struct mars *m = model;

	for (int j = 0; j < m->d; j++)
		free(m->names[j]);
	free(m->names);
	free(m->b);
	free(m->coef);
	free(m);
}

const struct learner learner_mars = {
	.name = "mars",
	.summary = "MARS: hinge pairs added forward, pruned backward by GCV (Friedman 1991)",
	.fit = mars_fit,
	.predict = mars_predict,
	.format = mars_format,
	.free_model = mars_free,
};
