/*
 * learn.c: what the learners share (monomial columns, weighted least-squares refits, results)
 * and the two simplest learners: OLS and the linear LASSO with AIC.
 *
 * Weighted least squares min sum_i w_i (y_i - b0 - sum_t c_t m_t(x_i))^2 is solved as ordinary
 * least squares on rows scaled by sqrt(w_i), with the intercept as the column sqrt(w).
 */
#include "learn.h"

#include <math.h>
#include <stdint.h>
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

double learn_weighted_tss(const struct learn_problem *pb, double *ybar)
{
	double wsum = 0, tss = 0;

	*ybar = 0;
	for (int i = 0; i < pb->n; i++) {
		*ybar += pb->w[i] * pb->y[i];
		wsum += pb->w[i];
	}
	*ybar /= wsum;
	for (int i = 0; i < pb->n; i++)
		tss += pb->w[i] * (pb->y[i] - *ybar) * (pb->y[i] - *ybar);
	return tss;
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

static int compare_monomials(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct monomial));
}

void learn_trace_add(struct learn_trace *tr, const struct monomial *terms, int nterms)
{
	struct monomial *sorted = xmalloc(sizeof *sorted * (size_t)(nterms + 1));
	struct learn_result *c;

	memset(sorted, 0, sizeof *sorted * (size_t)(nterms + 1));
	for (int t = 0; t < nterms; t++)
		sorted[t] = terms[t];
	qsort(sorted, (size_t)nterms, sizeof *sorted, compare_monomials);
	for (int i = 0; i < tr->n; i++) {
		if (tr->v[i].nterms == nterms &&
		    memcmp(tr->v[i].terms, sorted, sizeof *sorted * (size_t)nterms) == 0) {
			free(sorted);
			return;
		}
	}
	if (tr->n == tr->cap) {
		tr->cap = tr->cap ? 2 * tr->cap : 32;
		tr->v = xrealloc(tr->v, sizeof *tr->v * (size_t)tr->cap);
	}
	c = &tr->v[tr->n++];
	memset(c, 0, sizeof *c);
	c->terms = sorted;
	c->nterms = nterms;
	c->coef = xcalloc((size_t)nterms + 1, sizeof *c->coef);
}

void learn_trace_release(struct learn_trace *tr)
{
	for (int i = 0; i < tr->n; i++)
		learn_result_release(&tr->v[i]);
	free(tr->v);
	memset(tr, 0, sizeof *tr);
}

/* Returns the weighted squared error over held-out rows of a candidate refitted per fold;
 * per_fold[f] receives fold f's share. */
static double cv_error(const struct learn_problem *pb, const struct learn_result *cand,
		       const int *fold, int folds, double *per_fold)
{
	int n = pb->n, q = cand->nterms + 1;
	double *cols = xmalloc(sizeof *cols * (size_t)n * (size_t)q), total = 0;
	double *a = xmalloc(sizeof *a * (size_t)n * (size_t)q), *yw = xmalloc(sizeof *yw * (size_t)n);
	double *beta = xmalloc(sizeof *beta * (size_t)q), unused;
	struct error err;

	for (int i = 0; i < n; i++)
		cols[i] = 1;
	for (int t = 0; t < cand->nterms; t++)
		learn_monomial_column(pb, &cand->terms[t], cols + (size_t)(t + 1) * (size_t)n);
	for (int f = 0; f < folds; f++) {
		int m = 0;

		for (int i = 0; i < n; i++) {
			if (fold[i] == f)
				continue;
			for (int c = 0; c < q; c++)
				a[(size_t)c * (size_t)n + (size_t)m] = sqrt(pb->w[i]) * cols[(size_t)c * (size_t)n + (size_t)i];
			yw[m++] = sqrt(pb->w[i]) * pb->y[i];
		}
		/* a is laid out with leading dimension n; compact it to m rows for the solve */
		for (int c = 1; c < q; c++)
			memmove(a + (size_t)c * (size_t)m, a + (size_t)c * (size_t)n, sizeof *a * (size_t)m);
		per_fold[f] = 0;
		if (m <= q || linalg_lstsq(a, m, q, yw, 0, &unused, beta, NULL, &err) < 0) {
			total = per_fold[f] = INFINITY;
			continue;
		}
		for (int i = 0; i < n; i++) {
			double fit = 0, e;

			if (fold[i] != f)
				continue;
			for (int c = 0; c < q; c++)
				fit += beta[c] * cols[(size_t)c * (size_t)n + (size_t)i];
			e = pb->y[i] - fit;
			per_fold[f] += pb->w[i] * e * e;
		}
		total += per_fold[f];
	}
	free(cols);
	free(a);
	free(yw);
	free(beta);
	return total;
}

int learn_choose_by_cv(const struct learn_problem *pb, const struct learn_trace *tr, int folds,
		       unsigned long seed, struct learn_result *res, struct error *err)
{
	int *order = xmalloc(sizeof *order * (size_t)pb->n), *fold = xmalloc(sizeof *fold * (size_t)pb->n);
	uint64_t state = seed;
	struct learn_result constant = {0};
	const struct learn_result *best = NULL;
	double best_error = INFINITY, best_se = 0, *errors, *per_fold;

	memset(res, 0, sizeof *res);
	if (folds < 2 || folds > pb->n) {
		free(order);
		free(fold);
		return error_set(err, "cross-validation needs 2 to %d folds, not %d", pb->n, folds);
	}
	for (int i = 0; i < pb->n; i++)
		order[i] = i;
	for (int i = pb->n - 1; i > 0; i--) { /* Fisher-Yates with splitmix64 */
		uint64_t z = (state += 0x9e3779b97f4a7c15ull);
		int j, t;

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		j = (int)((z ^ (z >> 31)) % (uint64_t)(i + 1));
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (int i = 0; i < pb->n; i++)
		fold[order[i]] = i % folds;
	/* one-standard-error rule: the fewest terms within one standard error (over folds) of the
	 * best score, since nested candidates often differ by less than the noise */
	errors = xmalloc(sizeof *errors * (size_t)(tr->n + 1));
	per_fold = xmalloc(sizeof *per_fold * (size_t)folds);
	for (int c = 0; c <= tr->n; c++) {
		const struct learn_result *cand = c == tr->n ? &constant : &tr->v[c];
		double mean = 0, var = 0;

		errors[c] = cv_error(pb, cand, fold, folds, per_fold);
		for (int f = 0; f < folds; f++)
			mean += per_fold[f] / folds;
		for (int f = 0; f < folds; f++)
			var += (per_fold[f] - mean) * (per_fold[f] - mean) / (folds - 1);
		if (errors[c] < best_error) {
			best_error = errors[c];
			best_se = folds * sqrt(var / folds); /* of the total, summed over folds */
		}
	}
	for (int c = 0; c <= tr->n; c++) {
		const struct learn_result *cand = c == tr->n ? &constant : &tr->v[c];

		if (errors[c] <= best_error + best_se && (!best || cand->nterms < best->nterms))
			best = cand;
	}
	free(errors);
	free(per_fold);
	for (int t = 0; t < best->nterms; t++)
		learn_result_add(res, &best->terms[t], 0);
	res->path_points = tr->n + 1;
	free(order);
	free(fold);
	if (learn_refit(pb, res, err) < 0) {
		learn_result_release(res);
		return -1;
	}
	return 0;
}

int learn_lasso(const struct learn_problem *pb, const struct learn_options *opt,
		struct learn_result *res, struct error *err)
{
	struct lasso_options lo = {.weights = pb->w, .dfmax = opt->max_features};
	struct lasso_path path;
	double tss, ybar;
	int best;
	const double *beta;

	memset(res, 0, sizeof *res);
	if (lasso_fit_path(pb->x, pb->y, pb->n, pb->k, &lo, &path, err) < 0)
		return -1;
	tss = learn_weighted_tss(pb, &ybar);
	for (int l = 0; opt->trace && l < path.nlambda; l++) {
		struct monomial *terms = xmalloc(sizeof *terms * (size_t)(pb->k + 1));
		int nt = 0;

		for (int j = 0; j < pb->k; j++) {
			if (path.beta[(size_t)l * (size_t)pb->k + (size_t)j] != 0)
				terms[nt++] = (struct monomial){1, {j}, {1}};
		}
		learn_trace_add(opt->trace, terms, nt);
		free(terms);
	}
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
