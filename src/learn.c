/*
 * learn.c: what the learners share (monomial columns, weighted least-squares refits, results)
 * and the two simplest learners: OLS and the linear LASSO with AIC.
 *
 * Weighted least squares min sum_i w_i (y_i - b0 - sum_t c_t m_t(x_i))^2 is solved as ordinary
 * least squares on rows scaled by sqrt(w_i), with the intercept as the column sqrt(w).
 */
#include "learn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "lasso.h"
#include "linalg.h"
#include "util.h"

void learn_monomial_column(const struct learn_problem *pb, const struct monomial *m, double *col)
{
	for (int i = 0; i < pb->n; i++)
		col[i] = 1;
	for (int f = 0; f < m->nf; f++) {
		const double *x = pb->x + (size_t)m->feat[f] * (size_t)pb->n;

		for (int i = 0; i < pb->n; i++) {
			for (int k = 0; k < m->pow[f]; k++)
				col[i] *= x[i];
		}
	}
}

void learn_result_add(struct learn_result *res, const struct monomial *m, double coef)
{
	res->terms = xrealloc(res->terms, sizeof *res->terms * (size_t)(res->nterms + 1));
	res->coef = xrealloc(res->coef, sizeof *res->coef * (size_t)(res->nterms + 1));
	res->terms[res->nterms] = *m;
	res->coef[res->nterms++] = coef;
}

void learn_result_release(struct learn_result *res)
{
	free(res->terms);
	free(res->coef);
	memset(res, 0, sizeof *res);
}

int learn_refit(const struct learn_problem *pb, struct learn_result *res, struct error *err)
{
	int n = pb->n, q = res->nterms + 1, rc;
	double *a = xmalloc(sizeof *a * (size_t)n * (size_t)q), *yw = xmalloc(sizeof *yw * (size_t)n);
	double *beta = xmalloc(sizeof *beta * (size_t)q), unused;

	for (int i = 0; i < n; i++) {
		a[i] = sqrt(pb->w[i]);
		yw[i] = a[i] * pb->y[i];
	}
	for (int t = 0; t < res->nterms; t++) {
		double *col = a + (size_t)(t + 1) * (size_t)n;

		learn_monomial_column(pb, &res->terms[t], col);
		for (int i = 0; i < n; i++)
			col[i] *= a[i];
	}
	rc = linalg_lstsq(a, n, q, yw, 0, &unused, beta, NULL, err);
	if (rc == 0) {
		res->b0 = beta[0];
		for (int t = 0; t < res->nterms; t++)
			res->coef[t] = beta[1 + t];
	}
	free(a);
	free(yw);
	free(beta);
	return rc;
}


int learn_ols(const struct learn_problem *pb, struct learn_result *res, struct error *err)
{
	memset(res, 0, sizeof *res);
	if (pb->n < pb->k + 1) {
		return error_set(err, "OLS needs more samples than coefficients: %d samples, %d "
				 "features (use a sparse algorithm)", pb->n, pb->k);
	}
	for (int j = 0; j < pb->k; j++)
		learn_result_add(res, &(struct monomial){1, {j}, {1}}, 0);
	res->path_points = 1;
	if (learn_refit(pb, res, err) < 0) {
		learn_result_release(res);
		return -1;
	}
	return 0;
}

int learn_aic_best(const struct lasso_path *path, int n, double rss_floor)
{
	int best = 0;
	double best_aic = INFINITY;

	for (int l = 0; l < path->nlambda; l++) {
		double aic = n * log(path->rss[l] + rss_floor) + 2.0 * path->df[l];

		if (aic < best_aic) {
			best_aic = aic;
			best = l;
		}
	}
	return best;
}

int learn_lasso(const struct learn_problem *pb, const struct learn_options *opt,
		struct learn_result *res, struct error *err)
{
	struct lasso_options lo = {.weights = pb->w, .dfmax = opt->max_features};
	struct lasso_path path;
	double tss = 0, ybar = 0, wsum = 0;
	int best;
	const double *beta;

	memset(res, 0, sizeof *res);
	if (lasso_fit_path(pb->x, pb->y, pb->n, pb->k, &lo, &path, err) < 0)
		return -1;
	for (int i = 0; i < pb->n; i++) {
		ybar += pb->w[i] * pb->y[i];
		wsum += pb->w[i];
	}
	ybar /= wsum;
	for (int i = 0; i < pb->n; i++)
		tss += pb->w[i] * (pb->y[i] - ybar) * (pb->y[i] - ybar);
	best = learn_aic_best(&path, pb->n, 1e-12 * tss);
	beta = path.beta + (size_t)best * (size_t)pb->k;
	res->b0 = path.a0[best];
	res->path_points = path.nlambda;
	for (int j = 0; j < pb->k; j++) {
		if (beta[j] != 0)
			learn_result_add(res, &(struct monomial){1, {j}, {1}}, beta[j]);
	}
	lasso_path_release(&path);
	return 0;
}
