/*
 * spore.c: SPORE-LASSO, Algorithm 1 of Huang, Jia, Yu, Chun, Naik (NIPS 2010).
 *
 *   1. alpha = adaptive LASSO path of y on the linear features (lambda1 along it)
 *   2. S = {j : alpha_j != 0}
 *   3. Xnew = expan(X(S), d): every monomial of total degree 1..d over S (the constant is the
 *      intercept), i.e. the terms of (1 + x_1 + ... + x_|S|)^d
 *   4. w = ridge estimate (Xnew'Xnew + 0.001 I)^-1 Xnew'y
 *   5. beta = adaptive LASSO path of y on Xnew with penalty |beta_j| / |w_j| (lambda2 along it)
 *   6. the model is the nonzero beta
 * (lambda1, lambda2) minimise AIC = n log(RSS) + 2 s over both paths, s the number of terms.
 *
 * Step 1 departs from the paper: it is the adaptive LASSO (ridge weights, as step 4) rather than
 * the plain one. Program features come in families of noisy copies of one quantity; the plain
 * LASSO spreads its budget over such copies (Zou 2006) and, on the recovery data of
 * tests/unit/test_fit.c, picked 13 copies of w and h with no h and a 20% error, where the
 * adaptive step picks w and h.
 * Supports larger than max_features are not expanded (C(|S|+d, d) terms grow fast); a support
 * met again at the next lambda1 is not refitted.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "lasso.h"
#include "learn.h"
#include "util.h"

/* Appends to list every monomial over feats[0..nf) with degree 1..left; returns the count. */
static int expand(const int *feats, int nf, int i, int *pows, int left, struct monomial *list,
		  int count)
{
	if (i == nf) {
		struct monomial m = {0, {0}, {0}};

		for (int a = 0; a < nf; a++) {
			if (pows[a] > 0) {
				m.feat[m.nf] = feats[a];
				m.pow[m.nf++] = pows[a];
			}
		}
		if (m.nf > 0)
			list[count++] = m;
		return count;
	}
	for (int e = 0; e <= left; e++) {
		pows[i] = e;
		count = expand(feats, nf, i + 1, pows, left - e, list, count);
	}
	return count;
}

/* Returns C(a, b). */
static long choose(int a, int b)
{
	long c = 1;

	for (int i = 1; i <= b; i++)
		c = c * (a - b + i) / i;
	return c;
}

/* The best (lambda1, lambda2) so far. */
struct best {
	double aic;          /* its AIC */
	struct learn_result res; /* its terms and coefficients; owned */
};

/* Fits step 3-5 on support S (ns features); updates best. Returns 0 or -1. */
static int fit_support(const struct learn_problem *pb, const struct learn_options *opt,
		       const int *S, int ns, double rss_floor, struct best *best, int *points,
		       struct error *err)
{
	int m, pows[MODEL_MAX_DEGREE * 16];
	struct monomial *terms = xmalloc(sizeof *terms * (size_t)choose(ns + opt->degree, opt->degree));
	double *xnew, *penalty;
	struct lasso_options lo = {.weights = pb->w};
	struct lasso_path path;
	int rc = -1;

	m = expand(S, ns, 0, pows, opt->degree, terms, 0);
	xnew = xmalloc(sizeof *xnew * (size_t)pb->n * (size_t)m);
	penalty = xmalloc(sizeof *penalty * (size_t)m);
	for (int t = 0; t < m; t++)
		learn_monomial_column(pb, &terms[t], xnew + (size_t)t * (size_t)pb->n);
	if (lasso_adaptive_penalty(xnew, pb->y, pb->n, m, pb->w, 1e-3, penalty, err) < 0)
		goto out;
	lo.penalty = penalty;
	if (lasso_fit_path(xnew, pb->y, pb->n, m, &lo, &path, err) < 0)
		goto out;
	*points += path.nlambda;
	for (int l = 0; l < path.nlambda; l++) {
		double aic = pb->n * log(path.rss[l] + rss_floor) + 2.0 * path.df[l];
		const double *beta = path.beta + (size_t)l * (size_t)m;

		if (opt->trace) {
			struct monomial *chosen = xmalloc(sizeof *chosen * (size_t)(m + 1));
			int nc = 0;

			for (int t = 0; t < m; t++) {
				if (beta[t] != 0)
					chosen[nc++] = terms[t];
			}
			learn_trace_add(opt->trace, chosen, nc);
			free(chosen);
		}
		if (!(aic < best->aic))
			continue;
		best->aic = aic;
		learn_result_release(&best->res);
		best->res.b0 = path.a0[l];
		for (int t = 0; t < m; t++) {
			if (beta[t] != 0)
				learn_result_add(&best->res, &terms[t], beta[t]);
		}
	}
	lasso_path_release(&path);
	rc = 0;
out:
	free(terms);
	free(xnew);
	free(penalty);
	return rc;
}

int learn_spore_lasso(const struct learn_problem *pb, const struct learn_options *opt,
		      struct learn_result *res, struct error *err)
{
	int maxf = opt->max_features > 0 ? opt->max_features : 10, points = 0, *S, *prev, nprev = -1;
	struct lasso_options lo = {.weights = pb->w, .dfmax = maxf};
	struct best best = {INFINITY, {0}};
	struct lasso_path path;
	double ybar, tss, *penalty1;

	memset(res, 0, sizeof *res);
	if (opt->degree < 1 || opt->degree > MODEL_MAX_DEGREE)
		return error_set(err, "degree must be 1 to %d, not %d", MODEL_MAX_DEGREE, opt->degree);
	if (maxf > 16)
		return error_set(err, "SPORE-LASSO expands at most 16 features, not %d", maxf);
	tss = learn_weighted_tss(pb, &ybar);
	penalty1 = xmalloc(sizeof *penalty1 * (size_t)(pb->k ? pb->k : 1));
	if (lasso_adaptive_penalty(pb->x, pb->y, pb->n, pb->k, pb->w, 1e-3, penalty1, err) < 0 ||
	    (lo.penalty = penalty1, lasso_fit_path(pb->x, pb->y, pb->n, pb->k, &lo, &path, err)) < 0) {
		free(penalty1);
		return -1;
	}
	free(penalty1);
	S = xmalloc(sizeof *S * (size_t)(pb->k + 1));
	prev = xmalloc(sizeof *prev * (size_t)(pb->k + 1));
	for (int l = 0; l < path.nlambda; l++) {
		const double *alpha = path.beta + (size_t)l * (size_t)pb->k;
		int ns = 0;

		for (int j = 0; j < pb->k; j++) {
			if (alpha[j] != 0)
				S[ns++] = j;
		}
		if (ns == 0 || ns > maxf)
			continue;
		if (ns == nprev && memcmp(S, prev, sizeof *S * (size_t)ns) == 0)
			continue;
		if (fit_support(pb, opt, S, ns, 1e-12 * tss, &best, &points, err) < 0) {
			free(S);
			free(prev);
			lasso_path_release(&path);
			learn_result_release(&best.res);
			return -1;
		}
		memcpy(prev, S, sizeof *S * (size_t)ns);
		nprev = ns;
	}
	free(S);
	free(prev);
	lasso_path_release(&path);
	*res = best.res;
	res->path_points = points;
	if (isinf(best.aic))
		res->b0 = ybar; /* no feature ever entered: the constant model */
	return 0;
}
