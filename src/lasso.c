/*
 * lasso.c: LASSO path by cyclic coordinate descent, as glmnet computes it.
 *
 * Objective at each lambda (standardised, weights v summing to 1):
 *     1/2 || r ||^2 + lambda sum_j pf_j |b_j|,   r = yt - Z b,
 * where Z's column j is sqrt(v) * (x_j - xbar_j) / s_j (so ||z_j|| = 1) and yt = sqrt(v) *
 * (y - ybar). The coordinate update is b_j <- S(b_j + z_j'r, lambda pf_j), S the soft
 * threshold. Two ways to have z_j'r at hand, as glmnet: "naive updates" keep the residual r
 * (one axpy of length n per changed coefficient, a dot product per visit, O(n p) per KKT
 * check); "covariance updates" keep every gradient g_j = z_j'r (when b_k changes by d, g -= d
 * Z'z_k, a Gram column computed once when k first changes), so visits and KKT checks cost
 * O(1) and O(p). Covariance updates are used when p < 500 (glmnet's rule) or n >= p/2
 * (prefer_covariance), p counting the columns left once exact and affine copies of a column
 * are left out (collapse_copies: they cannot change the objective).
 *
 * Speed, as in glmnet: warm starts along a log-spaced decreasing lambda grid; the sequential
 * strong rule (Tibshirani et al. 2012) keeps only j with |z_j'r| >= pf_j (2 lambda - lambda_prev)
 * in the working set; active-set cycling (passes over the nonzero coefficients until they
 * converge, then one pass over the working set); finally a KKT check z_j'r <= lambda pf_j over
 * every column outside the working set, adding violators and resolving. Convergence of a pass:
 * max_j dbeta_j^2 < tol * RSS of the previous solution (||yt||^2 at the first), so the test
 * tightens as the objective shrinks along the path (with a floor of 1e-6 of the first).
 *
 * Invariant: r == yt - Z b at the end of every coordinate update.
 */
#include "lasso.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "linalg.h"
#include "util.h"

/* The standardised problem and the solver's state. */
struct cd {
	int n, p;          /* rows, columns */
	double *z;         /* n*p standardised columns; owned */
	double *yt;        /* n standardised response; owned */
	double *r;         /* n residual; owned */
	double *b;         /* p standardised coefficients; owned */
	double *pf;        /* p penalty factors, INFINITY for constant columns; owned */
	double *grad;      /* p values of z_j'r, fresh for columns outside the working set; owned */
	char *working;     /* p flags: in the strong/working set; owned */
	double *xbar;      /* p weighted column means; owned */
	double *s;         /* p weighted column standard deviations (0: constant); owned */
	double *sqrtv;     /* n square roots of the normalised weights; owned */
	double ybar;       /* weighted mean of y */
	double thresh;     /* convergence threshold: tol * the previous solution's RSS */
	double tol;        /* the relative tolerance */
	double floor;      /* smallest threshold: tol * 1e-6 * ||yt||^2 */
	int passes;        /* coordinate passes so far */
	int max_passes;    /* limit on passes */
	int covariance;    /* covariance updates: grad holds z_j'r for every j at all times */
	double *gram;      /* cached Gram columns Z'z_k, p values each; owned */
	int *slot;         /* p: position of k's column in gram, or -1; owned */
	int ncached;       /* Gram columns cached */
	double *zty;       /* p values z_j'yt, for the RSS in covariance mode; owned */
};

static double soft(double u, double t)
{
	return u > t ? u - t : u < -t ? u + t : 0;
}

/* Sets up the standardised problem. Returns 0 or -1 (bad weights). */
static int cd_init(struct cd *cd, const double *x, const double *y, int n, int p,
		   const struct lasso_options *opt, struct error *err)
{
	double wsum = 0;

	memset(cd, 0, sizeof *cd);
	cd->n = n;
	cd->p = p;
	cd->sqrtv = xmalloc(sizeof *cd->sqrtv * (size_t)n);
	for (int i = 0; i < n; i++) {
		double w = opt->weights ? opt->weights[i] : 1;

		if (!(w > 0) || !isfinite(w))
			return error_set(err, "observation weight %d is %g, not positive", i + 1, w);
		wsum += w;
	}
	for (int i = 0; i < n; i++)
		cd->sqrtv[i] = sqrt((opt->weights ? opt->weights[i] : 1) / wsum);
	cd->ybar = 0;
	for (int i = 0; i < n; i++)
		cd->ybar += cd->sqrtv[i] * cd->sqrtv[i] * y[i];
	cd->yt = xmalloc(sizeof *cd->yt * (size_t)n);
	cd->r = xmalloc(sizeof *cd->r * (size_t)n);
	for (int i = 0; i < n; i++)
		cd->yt[i] = cd->r[i] = cd->sqrtv[i] * (y[i] - cd->ybar);
	cd->z = xmalloc(sizeof *cd->z * (size_t)n * (size_t)(p ? p : 1));
	cd->xbar = xcalloc((size_t)p, sizeof *cd->xbar);
	cd->s = xcalloc((size_t)p, sizeof *cd->s);
	cd->pf = xmalloc(sizeof *cd->pf * (size_t)(p ? p : 1));
	for (int j = 0; j < p; j++) {
		const double *xj = x + (size_t)j * (size_t)n;
		double *zj = cd->z + (size_t)j * (size_t)n, ss = 0;

		for (int i = 0; i < n; i++)
			cd->xbar[j] += cd->sqrtv[i] * cd->sqrtv[i] * xj[i];
		for (int i = 0; i < n; i++) {
			zj[i] = cd->sqrtv[i] * (xj[i] - cd->xbar[j]);
			ss += zj[i] * zj[i];
		}
		cd->s[j] = sqrt(ss);
		cd->pf[j] = opt->penalty ? opt->penalty[j] : 1;
		if (cd->s[j] <= 1e-13 * (fabs(cd->xbar[j]) + 1e-300)) {
			cd->s[j] = 0;
			cd->pf[j] = INFINITY;
			continue;
		}
		for (int i = 0; i < n; i++)
			zj[i] /= cd->s[j];
	}
	cd->b = xcalloc((size_t)p, sizeof *cd->b);
	cd->grad = xcalloc((size_t)p, sizeof *cd->grad);
	cd->working = xcalloc((size_t)p, 1);
	cd->tol = opt->tol > 0 ? opt->tol : 1e-8;
	cd->thresh = cd->tol * linalg_dot(cd->yt, cd->yt, n);
	cd->floor = fmax(1e-6 * cd->thresh, 1e-300);
	if (cd->thresh <= 0)
		cd->thresh = 1e-300;
	cd->max_passes = opt->max_passes > 0 ? opt->max_passes : 100000;
	return 0;
}

/* Returns the sign (+1 or -1) that makes column z's first clearly nonzero value positive. */
static double column_sign(const double *z, int n)
{
	for (int i = 0; i < n; i++) {
		if (fabs(z[i]) > 1e-9)
			return z[i] > 0 ? 1 : -1;
	}
	return 1;
}

/* Returns a hash of sign * z rounded to a grid of 2^-30: copies that differ by rounding hash
 * alike unless a value sits on a grid boundary (then the copy is only missed, not wrong). */
static uint64_t column_hash(const double *z, int n, double sign)
{
	uint64_t h = 1469598103934665603ull;

	for (int i = 0; i < n; i++) {
		h ^= (uint64_t)llround(sign * z[i] * 1073741824.0);
		h *= 1099511628211ull;
		h ^= h >> 29;
	}
	return h;
}

/* Returns whether standardised columns a and b (signs sa, sb) are equal to rounding. */
static int same_column(const double *a, double sa, const double *b, double sb, int n)
{
	for (int i = 0; i < n; i++) {
		if (fabs(sa * a[i] - sb * b[i]) > 1e-14)
			return 0;
	}
	return 1;
}

/*
 * Leaves out every column whose standardised values equal (up to sign and rounding) those of
 * an earlier column with the same penalty factor: exact and affine copies, common among
 * program features. Their coefficient stays 0: any split of a coefficient among identical
 * columns has the same fit and no smaller penalty, so the objective is unchanged, and the
 * path's cost falls with the number of columns left (KKT checks are O(n) per column).
 * Returns the number of columns left that can enter.
 */
static int collapse_copies(struct cd *cd)
{
	int left = 0;
	size_t size = 16;
	struct { uint64_t hash; int j; double sign; } *slot;

	while (size < 2 * (size_t)cd->p)
		size *= 2;
	slot = xmalloc(sizeof *slot * size);
	for (size_t i = 0; i < size; i++)
		slot[i].j = -1;
	for (int j = 0; j < cd->p; j++) {
		const double *zj = cd->z + (size_t)j * (size_t)cd->n;
		double sign;
		uint64_t h;
		size_t i;

		if (isinf(cd->pf[j]))
			continue;
		sign = column_sign(zj, cd->n);
		h = column_hash(zj, cd->n, sign);
		for (i = h & (size - 1); slot[i].j >= 0; i = (i + 1) & (size - 1)) {
			int k = slot[i].j;

			if (slot[i].hash == h && cd->pf[k] == cd->pf[j] &&
			    same_column(zj, sign, cd->z + (size_t)k * (size_t)cd->n, slot[i].sign, cd->n))
				break;
		}
		if (slot[i].j >= 0) {
			cd->pf[j] = INFINITY;
			continue;
		}
		slot[i].hash = h;
		slot[i].j = j;
		slot[i].sign = sign;
		left++;
	}
	free(slot);
	return left;
}

/*
 * Returns whether covariance updates beat naive ones on n rows and p columns that can enter:
 * glmnet's rule p < 500, and also whenever n >= p / 2, where the O(n) products of each visit
 * cost more than Gram columns of O(n p) each. On bench/model's program-like data, CPU s:
 * 3000 x 1000 covariance 0.60 vs naive 0.84, 3000 x 5000 0.70 vs 0.86, 300 x 1000 0.006 vs
 * 0.011, but 300 x 5000 0.37 vs 0.13 (n << p: many Gram columns, cheap visits).
 */
static int prefer_covariance(int n, int p)
{
	return p < 500 || 2 * (long)n >= p;
}

static void cd_release(struct cd *cd)
{
	free(cd->z);
	free(cd->yt);
	free(cd->r);
	free(cd->b);
	free(cd->pf);
	free(cd->grad);
	free(cd->working);
	free(cd->xbar);
	free(cd->s);
	free(cd->sqrtv);
	free(cd->gram);
	free(cd->slot);
	free(cd->zty);
}

/* Returns Z'z_k, computing and caching it on first use. */
static const double *gram_column(struct cd *cd, int k)
{
	const double *zk = cd->z + (size_t)k * (size_t)cd->n;
	double *col;

	if (cd->slot[k] >= 0)
		return cd->gram + (size_t)cd->slot[k] * (size_t)cd->p;
	cd->gram = xrealloc(cd->gram, sizeof *cd->gram * (size_t)cd->p * (size_t)(cd->ncached + 1));
	col = cd->gram + (size_t)cd->ncached * (size_t)cd->p;
	for (int j = 0; j < cd->p; j++)
		col[j] = isinf(cd->pf[j]) ? 0 : linalg_dot(cd->z + (size_t)j * (size_t)cd->n, zk, cd->n);
	cd->slot[k] = cd->ncached++;
	return col;
}

/* One coordinate update of column j at lambda; returns dbeta^2. */
static double cd_update(struct cd *cd, int j, double lambda)
{
	const double *zj = cd->z + (size_t)j * (size_t)cd->n;
	double old = cd->b[j], g = cd->covariance ? cd->grad[j] : linalg_dot(zj, cd->r, cd->n);
	double new = soft(old + g, lambda * cd->pf[j]), d = new - old;

	if (d == 0)
		return 0;
	cd->b[j] = new;
	if (cd->covariance) {
		const double *col = gram_column(cd, j);

		for (int k = 0; k < cd->p; k++)
			cd->grad[k] -= d * col[k];
	} else {
		for (int i = 0; i < cd->n; i++)
			cd->r[i] -= d * zj[i];
	}
	return d * d;
}

/* One pass over the columns with flag set in mask (or nonzero b when mask is NULL). */
static double cd_pass(struct cd *cd, double lambda, const char *mask)
{
	double maxd = 0;

	cd->passes++;
	for (int j = 0; j < cd->p; j++) {
		if (isinf(cd->pf[j]) || (mask ? !mask[j] : cd->b[j] == 0))
			continue;
		maxd = fmax(maxd, cd_update(cd, j, lambda));
	}
	return maxd;
}

/* Solves at lambda over the working set. Returns 0 or -1 (passes exhausted). */
static int cd_solve_working(struct cd *cd, double lambda)
{
	for (;;) {
		if (cd->passes >= cd->max_passes)
			return -1;
		if (cd_pass(cd, lambda, cd->working) < cd->thresh)
			return 0;
		while (cd->passes < cd->max_passes && cd_pass(cd, lambda, NULL) >= cd->thresh)
			;
	}
}

/* Refreshes grad outside the working set; adds KKT violators. Returns how many were added. */
static int cd_kkt(struct cd *cd, double lambda)
{
	int added = 0;

	for (int j = 0; j < cd->p; j++) {
		if (cd->working[j] || isinf(cd->pf[j]))
			continue;
		if (!cd->covariance)
			cd->grad[j] = linalg_dot(cd->z + (size_t)j * (size_t)cd->n, cd->r, cd->n);
		if (fabs(cd->grad[j]) > lambda * cd->pf[j]) {
			cd->working[j] = 1;
			added++;
		}
	}
	return added;
}

/* Solves at lambda (previous grid point lambda_prev), strong rule then KKT. Returns 0 or -1. */
static int cd_solve(struct cd *cd, double lambda, double lambda_prev)
{
	for (int j = 0; j < cd->p; j++) {
		if (isinf(cd->pf[j]) || cd->working[j])
			continue;
		if (cd->b[j] != 0 || fabs(cd->grad[j]) >= cd->pf[j] * (2 * lambda - lambda_prev))
			cd->working[j] = 1;
	}
	do {
		if (cd_solve_working(cd, lambda) < 0)
			return -1;
	} while (cd_kkt(cd, lambda) > 0);
	return 0;
}

/* ||yt - Z b||^2 = yt'yt - 2 b'Z'yt + b'Z'Z b, from the cached Gram columns (every nonzero
 * b_k has one), when the residual is not kept. */
static double covariance_rss(const struct cd *cd)
{
	double rss = linalg_dot(cd->yt, cd->yt, cd->n);

	for (int j = 0; j < cd->p; j++) {
		const double *col;

		if (cd->b[j] == 0)
			continue;
		col = cd->gram + (size_t)cd->slot[j] * (size_t)cd->p;
		rss -= 2 * cd->b[j] * cd->zty[j];
		for (int k = 0; k < cd->p; k++) {
			if (cd->b[k] != 0)
				rss += cd->b[j] * cd->b[k] * col[k];
		}
	}
	return rss > 0 ? rss : 0;
}

/* Stores solution l of the path in original units. The weighted RSS is ||r||^2: r_i =
 * sqrt(v_i) (y_i - a0 - x_i beta) by the invariant, so it costs O(n), not O(n p). */
static void store_solution(const struct cd *cd, struct lasso_path *path, int l, double lambda)
{
	double *beta = path->beta + (size_t)l * (size_t)cd->p, a0 = cd->ybar;
	int df = 0;

	for (int j = 0; j < cd->p; j++) {
		beta[j] = cd->b[j] != 0 ? cd->b[j] / cd->s[j] : 0;
		a0 -= beta[j] * cd->xbar[j];
		df += beta[j] != 0;
	}
	path->lambda[l] = lambda;
	path->a0[l] = a0;
	path->df[l] = df;
	path->rss[l] = cd->covariance ? covariance_rss(cd) : linalg_dot(cd->r, cd->r, cd->n);
}

int lasso_fit_path(const double *x, const double *y, int n, int p,
		   const struct lasso_options *opt, struct lasso_path *path, struct error *err)
{
	int nlambda = opt->nlambda > 0 ? opt->nlambda : 100;
	double ratio = opt->lambda_min_ratio > 0 ? opt->lambda_min_ratio : n > p ? 1e-4 : 1e-2;
	double lambda_max = 0, lambda_prev, wsum = 0;
	struct cd cd;

	memset(path, 0, sizeof *path);
	if (n < 2)
		return error_set(err, "the LASSO needs at least 2 samples, got %d", n);
	if (cd_init(&cd, x, y, n, p, opt, err) < 0) {
		cd_release(&cd);
		return -1;
	}
	path->ncolumns = collapse_copies(&cd);
	cd.covariance = opt->updates ? opt->updates == LASSO_COVARIANCE
				     : prefer_covariance(n, path->ncolumns);
	cd.slot = xmalloc(sizeof *cd.slot * (size_t)(p ? p : 1));
	cd.zty = xmalloc(sizeof *cd.zty * (size_t)(p ? p : 1));
	for (int j = 0; j < p; j++) {
		cd.slot[j] = -1;
		cd.grad[j] = cd.zty[j] = isinf(cd.pf[j]) ? 0 : linalg_dot(cd.z + (size_t)j * (size_t)n, cd.r, n);
		if (!isinf(cd.pf[j]) && cd.pf[j] > 0)
			lambda_max = fmax(lambda_max, fabs(cd.grad[j]) / cd.pf[j]);
	}
	path->p = p;
	path->lambda = xmalloc(sizeof *path->lambda * (size_t)nlambda);
	path->a0 = xmalloc(sizeof *path->a0 * (size_t)nlambda);
	path->beta = xcalloc((size_t)p * (size_t)nlambda + 1, sizeof *path->beta);
	path->df = xmalloc(sizeof *path->df * (size_t)nlambda);
	path->rss = xmalloc(sizeof *path->rss * (size_t)nlambda);
	lambda_prev = lambda_max;
	for (int l = 0; l < nlambda; l++) {
		double lambda = nlambda == 1 ? lambda_max
					     : lambda_max * pow(ratio, (double)l / (nlambda - 1));

		if (cd_solve(&cd, lambda, lambda_prev) < 0) {
			cd_release(&cd);
			lasso_path_release(path);
			return error_set(err, "the LASSO did not converge in %d coordinate passes "
					 "(at lambda %g)", cd.max_passes, lambda);
		}
		store_solution(&cd, path, l, lambda);
		path->nlambda = l + 1;
		lambda_prev = lambda;
		/* converge relative to the objective where it now is, not to the null deviance: at
		 * small lambda the objective is far below it and a fixed threshold stops early */
		cd.thresh = fmax(cd.tol * path->rss[l], cd.floor);
		if (opt->dfmax > 0 && path->df[l] > opt->dfmax)
			break;
	}
	path->passes = cd.passes;
	for (int i = 0; i < n; i++)
		wsum += opt->weights ? opt->weights[i] : 1;
	for (int l = 0; l < path->nlambda; l++)
		path->rss[l] *= wsum;
	cd_release(&cd);
	return 0;
}

int lasso_adaptive_penalty(const double *x, const double *y, int n, int p,
			   const double *weights, double ridge, double *penalty, struct error *err)
{
	struct lasso_options opt = {.weights = weights};
	double *beta = xmalloc(sizeof *beta * (size_t)(p ? p : 1));
	struct cd cd;
	int rc;

	rc = cd_init(&cd, x, y, n, p, &opt, err);
	if (rc == 0)
		rc = linalg_ridge(cd.z, n, p, cd.yt, ridge, beta, err);
	for (int j = 0; rc == 0 && j < p; j++)
		penalty[j] = isinf(cd.pf[j]) || beta[j] == 0 ? INFINITY : 1 / fabs(beta[j]);
	cd_release(&cd);
	free(beta);
	return rc;
}

void lasso_path_release(struct lasso_path *path)
{
	free(path->lambda);
	free(path->a0);
	free(path->beta);
	free(path->df);
	free(path->rss);
	memset(path, 0, sizeof *path);
}
