/*
 * foba.c: FoBa, the adaptive forward-backward greedy algorithm (T. Zhang, NIPS 2008), over
 * linear terms or, for SPORE-FoBa (Huang et al. 2010, Algorithm 2), over monomials.
 *
 * With Q(T) the weighted residual sum of squares of the least-squares fit on terms T (plus the
 * intercept), energy = sum w y^2, and gains a stack:
 *   forward:  add the candidate t with the largest cut Q(T) - Q(T + t); stop when the cut is
 *             at most epsilon * energy or not worth the search (admissible()), when no
 *             candidate is left, or when max_terms is reached; push the cut.
 *   backward: while the term whose removal raises Q least raises it by less than nu times the
 *             top gain, remove it and pop.
 * SPORE-FoBa candidates, with S the features in the current terms: every monomial over S of
 * total degree <= d not yet in T, and for each feature j outside S (while |S| < max_features)
 * every monomial over S + {j} of degree <= d in which j appears (Huang et al., eq. 3).
 *
 * The cut of a candidate c is exact without refitting: with Q an orthonormal basis of the
 * current weighted columns and r the residual (r is orthogonal to Q),
 *     cut = (c'r)^2 / (||c||^2 - ||Q'c||^2).
 * Invariant: q holds an orthonormal basis of [sqrt(w), weighted term columns], r = yt - QQ'yt.
 *
 * Two paths for SPORE-FoBa (degree > 1, no trace): the one above, and one that admits linear
 * terms only until none is admissible and then every monomial (the linear support first, as
 * SPORE-LASSO's step 1 does). When they end on different term sets, learn_choose_by_cv
 * (FOBA_FOLDS folds, the one-standard-error rule) picks one. Why: a greedy path over program
 * counters, many of them near-copies of the same work, can be trapped. On the encryptor
 * example (exact instruction counts, 50 inputs) the third step took a product of a proxy
 * (matches improved x the mean hash), the fifth another proxy (matches improved x their mean
 * length, cut 0.0036 of the energy against 0.0032 for the exact count of byte comparisons),
 * and the 5 features were then taken, so the key inversion's count could never enter: 4.98%
 * test error, 1.20% on the training rows, where the linear path's 5 counters give 0.85% and
 * 0.60% (all 100 inputs: 0.81%). Over 20 random subsets of 50 of that pool the mean test
 * error went from 7.2% to 4.1%, of 50 of another pool from 6.9% to 1.9%; on the ringtone,
 * spamfilter and facedetect examples (10 subsets of 10, 20 and 50 inputs each) the mean moved by
 * 0.1 points at most. (Alone, the first path missed y = 10 + a + 2b + 2c + d on 12 rows for
 * 19 of the first 20 seeds of tests/unit/test_explore.c's generator; both paths: none.)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "learn.h"
#include "linalg.h"
#include "util.h"

#define FOBA_FOLDS 5 /* folds of the cross-validation choosing between the two paths */

/* The search state. */
struct foba {
	const struct learn_problem *pb;  /* the data */
	const struct learn_options *opt; /* the settings */
	int spore;           /* candidates are monomials (1) or linear terms (0) */
	int n;               /* rows */
	int cap;             /* most terms */
	double *sw;          /* n square roots of the weights; owned */
	double *yt;          /* n weighted responses sqrt(w) y; owned */
	double energy;       /* ||yt||^2 */
	int nt;              /* current number of terms */
	struct monomial *terms; /* cap terms; owned */
	double *cols;        /* n*cap weighted term columns; owned */
	double *q;           /* n*(cap+1) orthonormal basis; owned */
	double *r;           /* n residual; owned */
	double rss;          /* ||r||^2 */
	double *gains;       /* cap gains stack, one per current term; owned */
	double *cand;        /* n scratch column; owned */
	struct monomial best;   /* best candidate of the current forward step */
	double best_gain;       /* its cut */
	long ncandidates;       /* candidates considered in the current forward step */
	int linear;             /* SPORE: only linear candidates for now (the linear-first path) */
};


/* Orthogonalises v against the first m basis columns (twice, for stability); returns ||v||^2. */
static double orthogonalise(const struct foba *f, double *v, int m)
{
	for (int pass = 0; pass < 2; pass++) {
		for (int c = 0; c < m; c++) {
			const double *qc = f->q + (size_t)c * (size_t)f->n;
			double a = linalg_dot(qc, v, f->n);

			for (int i = 0; i < f->n; i++)
				v[i] -= a * qc[i];
		}
	}
	return linalg_dot(v, v, f->n);
}

/* Rebuilds q and r from the terms, leaving out term skip (or none if -1); returns the RSS. */
static double rebuild(struct foba *f, int skip)
{
	int m = 0;

	for (int t = -1; t < f->nt; t++) {
		double *v = f->q + (size_t)m * (size_t)f->n, norm;

		if (t >= 0 && t == skip)
			continue;
		memcpy(v, t < 0 ? f->sw : f->cols + (size_t)t * (size_t)f->n, sizeof *v * (size_t)f->n);
		norm = sqrt(orthogonalise(f, v, m));
		for (int i = 0; i < f->n; i++)
			v[i] /= norm;
		m++;
	}
	memcpy(f->r, f->yt, sizeof *f->r * (size_t)f->n);
	orthogonalise(f, f->r, m);
	return linalg_dot(f->r, f->r, f->n);
}

static int same_monomial(const struct monomial *a, const struct monomial *b)
{
	if (a->nf != b->nf)
		return 0;
	for (int i = 0; i < a->nf; i++) {
		if (a->feat[i] != b->feat[i] || a->pow[i] != b->pow[i])
			return 0;
	}
	return 1;
}

/* Considers candidate m for the forward step: computes its cut and keeps the best. */
static void consider(struct foba *f, const struct monomial *m)
{
	double cr, cc, qc = 0, denom, gain;

	for (int t = 0; t < f->nt; t++) {
		if (same_monomial(&f->terms[t], m))
			return;
	}
	learn_monomial_column(f->pb, m, f->cand);
	for (int i = 0; i < f->n; i++)
		f->cand[i] *= f->sw[i];
	cr = linalg_dot(f->cand, f->r, f->n);
	cc = linalg_dot(f->cand, f->cand, f->n);
	for (int c = 0; c <= f->nt; c++) {
		double a = linalg_dot(f->q + (size_t)c * (size_t)f->n, f->cand, f->n);

		qc += a * a;
	}
	denom = cc - qc;
	if (!(denom > 1e-10 * cc))
		return; /* (nearly) a combination of the current terms */
	gain = cr * cr / denom;
	f->ncandidates++;
	if (gain > f->best_gain) {
		f->best_gain = gain;
		f->best = *m;
	}
}

/* Enumerates monomials over feats[0..nf) of total degree <= left, with feats[must] (if >= 0)
 * present; pows holds the powers chosen for feats[0..i). */
static void enumerate(struct foba *f, const int *feats, int nf, int must, int i, int *pows,
		      int left)
{
	if (i == nf) {
		struct monomial m = {0, {0}, {0}};

		for (int a = 0; a < nf; a++) {
			int at = m.nf;

			if (pows[a] == 0)
				continue;
			while (at > 0 && m.feat[at - 1] > feats[a]) { /* keep feat ascending */
				m.feat[at] = m.feat[at - 1];
				m.pow[at] = m.pow[at - 1];
				at--;
			}
			m.feat[at] = feats[a];
			m.pow[at] = pows[a];
			m.nf++;
		}
		if (m.nf > 0 && (must < 0 || pows[must] > 0))
			consider(f, &m);
		return;
	}
	for (int e = 0; e <= left; e++) {
		pows[i] = e;
		enumerate(f, feats, nf, must, i + 1, pows, left - e);
	}
}

/* Fills sel with the sorted distinct features of the current terms; returns their count. */
static int selected_features(const struct foba *f, int *sel)
{
	int ns = 0;

	for (int t = 0; t < f->nt; t++) {
		for (int a = 0; a < f->terms[t].nf; a++) {
			int j = f->terms[t].feat[a], at = ns;

			for (int s = 0; s < ns; s++) {
				if (sel[s] == j)
					at = -1;
			}
			if (at < 0)
				continue;
			while (at > 0 && sel[at - 1] > j) {
				sel[at] = sel[at - 1];
				at--;
			}
			sel[at] = j;
			ns++;
		}
	}
	return ns;
}

/* Finds the best forward candidate into f->best / f->best_gain (0 if none). */
static void find_best(struct foba *f)
{
	size_t most = (size_t)f->cap * MODEL_MAX_DEGREE + 2;
	int *sel = xmalloc(sizeof *sel * most), *feats = xmalloc(sizeof *feats * most);
	int *pows = xmalloc(sizeof *pows * most);
	int ns = selected_features(f, sel), d = f->spore && !f->linear ? f->opt->degree : 1;

	f->best_gain = 0;
	f->ncandidates = 0;
	if (!f->spore) {
		for (int j = 0; j < f->pb->k; j++)
			consider(f, &(struct monomial){1, {j}, {1}});
	} else {
		enumerate(f, sel, ns, -1, 0, pows, d);
		memcpy(feats, sel, sizeof *sel * (size_t)ns);
		for (int j = 0; j < f->pb->k; j++) {
			int in = 0;

			if (f->opt->max_features > 0 && ns >= f->opt->max_features)
				break;
			for (int s = 0; s < ns; s++)
				in |= sel[s] == j;
			if (in)
				continue;
			feats[ns] = j;
			enumerate(f, feats, ns + 1, ns, 0, pows, d);
		}
	}
	free(sel);
	free(feats);
	free(pows);
}

/* Appends f->best as a term and extends the basis. */
static void add_best(struct foba *f)
{
	double *col = f->cols + (size_t)f->nt * (size_t)f->n;
	double *v = f->q + (size_t)(f->nt + 1) * (size_t)f->n, norm, a;

	learn_monomial_column(f->pb, &f->best, col);
	for (int i = 0; i < f->n; i++)
		col[i] *= f->sw[i];
	memcpy(v, col, sizeof *v * (size_t)f->n);
	norm = sqrt(orthogonalise(f, v, f->nt + 1));
	for (int i = 0; i < f->n; i++)
		v[i] /= norm;
	a = linalg_dot(v, f->r, f->n);
	for (int i = 0; i < f->n; i++)
		f->r[i] -= a * v[i];
	f->terms[f->nt] = f->best;
	f->gains[f->nt++] = f->best_gain;
	f->rss = linalg_dot(f->r, f->r, f->n);
}

/* Removes term t (keeping the gains stack as a stack: the top is popped). */
static void remove_term(struct foba *f, int t)
{
	memmove(f->terms + t, f->terms + t + 1, sizeof *f->terms * (size_t)(f->nt - t - 1));
	memmove(f->cols + (size_t)t * (size_t)f->n, f->cols + (size_t)(t + 1) * (size_t)f->n,
		sizeof *f->cols * (size_t)f->n * (size_t)(f->nt - t - 1));
	f->nt--;
	f->rss = rebuild(f, -1);
}

/* The backward steps after a forward step. */
static void backward(struct foba *f)
{
	while (f->nt > 1) {
		int worst = -1;
		double least = INFINITY;

		for (int t = 0; t < f->nt; t++) {
			double delta = rebuild(f, t) - f->rss;

			if (delta < least) {
				least = delta;
				worst = t;
			}
		}
		f->rss = rebuild(f, -1);
		if (!(least < f->opt->nu * f->gains[f->nt - 1]))
			return;
		remove_term(f, worst);
	}
}

/*
 * Whether the best candidate may enter: its cut must exceed epsilon * energy (the paper's rule)
 * and be worth its search: n log(RSS / (RSS - cut)) > 2 log(candidates), the risk inflation
 * criterion (Foster and George 1994). Without the second test, on noisy timings the best of
 * thousands of candidates always cuts a little of the noise and FoBa overfits (measured on the
 * spamfilter example: 27.8% test error against a 9% noise floor).
 */
static int admissible(const struct foba *f, const struct learn_options *opt)
{
	double penalty = 2 * log(f->ncandidates > 1 ? (double)f->ncandidates : 2.0);

	if (opt->trace) /* cross-validation will choose: go on while anything improves */
		return f->best_gain > 1e-12 * f->energy;
	if (!(f->best_gain > opt->epsilon * f->energy))
		return 0;
	if (f->best_gain >= f->rss)
		return 1;
	return f->n * log(f->rss / (f->rss - f->best_gain)) > penalty;
}

static void foba_release(struct foba *f)
{
	free(f->sw);
	free(f->yt);
	free(f->terms);
	free(f->cols);
	free(f->q);
	free(f->r);
	free(f->gains);
	free(f->cand);
}

/* Runs the forward and backward steps from no term, linear candidates first if linear_first
 * (every monomial once no linear one is admissible). Returns the steps taken. */
static int search(struct foba *f, int linear_first)
{
	int steps = 0;

	f->nt = 0;
	f->rss = rebuild(f, -1);
	f->linear = linear_first;
	while (f->nt < f->cap && steps++ < 100 * (f->cap + 1)) {
		find_best(f);
		if (!admissible(f, f->opt)) {
			if (!f->linear)
				break;
			f->linear = 0;
			continue;
		}
		add_best(f);
		backward(f);
		if (f->opt->trace)
			learn_trace_add(f->opt->trace, f->terms, f->nt);
	}
	return steps;
}

/* Fills res with the terms of the SPORE-FoBa path whose model cross-validates better, in the
 * order that path added them: the first path's (f's terms on entry) if the two agree, if a
 * fold would leave no more rows than a model has terms, or if the constant model would win.
 * Returns steps plus the steps of the second path. */
static int choose_path(struct foba *f, int steps, struct learn_result *res)
{
	struct monomial *first = xmalloc(sizeof *first * (size_t)(f->nt + 1));
	struct learn_trace paths = {0};
	struct learn_result cv = {0};
	struct error ignored;
	int nfirst = f->nt, linear = 0, most;

	memcpy(first, f->terms, sizeof *first * (size_t)nfirst);
	learn_trace_add(&paths, first, nfirst);
	steps += search(f, 1);
	learn_trace_add(&paths, f->terms, f->nt);
	most = nfirst > f->nt ? nfirst : f->nt;
	if (paths.n == 2 && f->n - (f->n + FOBA_FOLDS - 1) / FOBA_FOLDS > most + 1 &&
	    learn_choose_by_cv(f->pb, &paths, FOBA_FOLDS, 1, &cv, &ignored) == 0) {
		linear = cv.nterms > 0 && cv.nterms == paths.v[1].nterms &&
			 memcmp(cv.terms, paths.v[1].terms, sizeof *cv.terms * (size_t)cv.nterms) == 0;
		learn_result_release(&cv);
	}
	for (int t = 0; t < (linear ? f->nt : nfirst); t++)
		learn_result_add(res, linear ? &f->terms[t] : &first[t], 0);
	learn_trace_release(&paths);
	free(first);
	return steps;
}

int learn_foba(const struct learn_problem *pb, const struct learn_options *opt, int spore,
	       struct learn_result *res, struct error *err)
{
	struct foba f = {.pb = pb, .opt = opt, .spore = spore, .n = pb->n};
	int steps, rc;

	memset(res, 0, sizeof *res);
	if (spore && (opt->degree < 1 || opt->degree > MODEL_MAX_DEGREE))
		return error_set(err, "degree must be 1 to %d, not %d", MODEL_MAX_DEGREE, opt->degree);
	f.cap = opt->max_terms > 0 ? opt->max_terms : 30;
	if (f.cap > pb->n - 1)
		f.cap = pb->n - 1;
	f.sw = xmalloc(sizeof *f.sw * (size_t)f.n);
	f.yt = xmalloc(sizeof *f.yt * (size_t)f.n);
	for (int i = 0; i < f.n; i++) {
		f.sw[i] = sqrt(pb->w[i]);
		f.yt[i] = f.sw[i] * pb->y[i];
	}
	f.energy = linalg_dot(f.yt, f.yt, f.n);
	f.terms = xcalloc((size_t)f.cap + 1, sizeof *f.terms);
	f.cols = xmalloc(sizeof *f.cols * (size_t)f.n * (size_t)(f.cap + 1));
	f.q = xmalloc(sizeof *f.q * (size_t)f.n * (size_t)(f.cap + 2));
	f.r = xmalloc(sizeof *f.r * (size_t)f.n);
	f.gains = xmalloc(sizeof *f.gains * (size_t)(f.cap + 1));
	f.cand = xmalloc(sizeof *f.cand * (size_t)f.n);
	steps = search(&f, 0);
	if (spore && opt->degree > 1 && !opt->trace) {
		steps = choose_path(&f, steps, res);
	} else {
		for (int t = 0; t < f.nt; t++)
			learn_result_add(res, &f.terms[t], 0);
	}
	res->path_points = steps;
	foba_release(&f);
	rc = learn_refit(pb, res, err);
	if (rc < 0)
		learn_result_release(res);
	return rc;
}
