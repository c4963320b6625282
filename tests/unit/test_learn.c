/*
 * test_learn.c: the numerical core of the model generator: least squares against NIST's
 * certified Longley values, the LASSO path against its optimality (KKT) conditions and a closed
 * form, and the decisions FoBa and SPORE make on data whose true model is known.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "lasso.h"
#include "learn.h"
#include "linalg.h"
#include "tests.h"
#include "util.h"

/* NIST StRD "Longley": y then x1..x6 per row (16 rows). */
static const double longley[16][7] = {
	{60323, 83.0, 234289, 2356, 1590, 107608, 1947},
	{61122, 88.5, 259426, 2325, 1456, 108632, 1948},
	{60171, 88.2, 258054, 3682, 1616, 109773, 1949},
	{61187, 89.5, 284599, 3351, 1650, 110929, 1950},
	{63221, 96.2, 328975, 2099, 3099, 112075, 1951},
	{63639, 98.1, 346999, 1932, 3594, 113270, 1952},
	{64989, 99.0, 365385, 1870, 3547, 115094, 1953},
	{63761, 100.0, 363112, 3578, 3350, 116219, 1954},
	{66019, 101.2, 397469, 2904, 3048, 117388, 1955},
	{67857, 104.6, 419180, 2822, 2857, 118734, 1956},
	{68169, 108.4, 442769, 2936, 2798, 120445, 1957},
	{66513, 110.8, 444546, 4681, 2637, 121950, 1958},
	{68655, 112.6, 482704, 3813, 2552, 123366, 1959},
	{69564, 114.2, 502601, 3931, 2514, 125368, 1960},
	{69331, 115.7, 518173, 4806, 2572, 127852, 1961},
	{70551, 116.9, 554894, 4007, 2827, 130081, 1962},
};

/* NIST's certified coefficients b0..b6 and residual sum of squares. */
static const double longley_beta[7] = {-3482258.63459582, 15.0618722713733,
				       -0.358191792925910e-01, -2.02022980381683,
				       -1.03322686717359, -0.511041056535807e-01,
				       1829.15146461355};
static const double longley_rss = 836424.055505915;

START_TEST(ols_matches_nist_longley)
{
	double x[16 * 6], y[16], b0, beta[6], rss;
	struct error err = {""};

	for (int i = 0; i < 16; i++) {
		y[i] = longley[i][0];
		for (int j = 0; j < 6; j++)
			x[j * 16 + i] = longley[i][j + 1];
	}
	ck_assert_msg(linalg_lstsq(x, 16, 6, y, 1, &b0, beta, &rss, &err) == 0, "%s", err.msg);
	ck_assert_msg(fabs(b0 / longley_beta[0] - 1) < 1e-7, "b0 %.15g", b0);
	for (int j = 0; j < 6; j++)
		ck_assert_msg(fabs(beta[j] / longley_beta[j + 1] - 1) < 1e-7, "b%d %.15g", j + 1,
			      beta[j]);
	ck_assert_msg(fabs(rss / longley_rss - 1) < 1e-7, "rss %.15g", rss);
}
END_TEST

/* Deterministic pseudo-random numbers for test data. */
static double uniform(unsigned long long *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(*s >> 11) / 9007199254740992.0;
}

static double gauss(unsigned long long *s)
{
	double u = uniform(s) + 1e-300, v = uniform(s);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

START_TEST(lasso_path_satisfies_kkt_everywhere)
{
	enum { N = 200, P = 30 };
	double *x = xmalloc(sizeof *x * N * P), y[N], w[N], pf[P];
	unsigned long long s = 7;
	struct lasso_options opt = {.weights = w, .penalty = pf, .tol = 1e-14,
				    .updates = _i ? LASSO_COVARIANCE : LASSO_NAIVE};
	struct lasso_path path;
	struct error err = {""};

	for (int j = 0; j < P; j++) {
		for (int i = 0; i < N; i++)
			x[j * N + i] = (j % 3 == 0 ? 100 : 1) * gauss(&s) + (j == 5 ? x[4 * N + i] : 0);
		pf[j] = j == 0 ? 0 : j % 4 == 1 ? 2 : 1;
	}
	for (int i = 0; i < N; i++) {
		y[i] = 3 + 0.02 * x[i] + 2 * x[1 * N + i] - 1.5 * x[4 * N + i] + 0.5 * gauss(&s);
		w[i] = 0.5 + uniform(&s);
	}
	ck_assert_msg(lasso_fit_path(x, y, N, P, &opt, &path, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(path.nlambda, 100);
	/* KKT in standardised terms: with v = w / sum w, s_j the weighted sd of column j, and
	 * g_j = sum_i v_i (x_ij - xbar_j) r_i / s_j: g_j = lambda pf_j sign(beta_j) if beta_j != 0,
	 * |g_j| <= lambda pf_j otherwise. */
	for (int l = 0; l < path.nlambda; l += 3) {
		const double *beta = path.beta + (size_t)l * P;
		double r[N], wsum = 0, lambda = path.lambda[l];

		for (int i = 0; i < N; i++) {
			r[i] = y[i] - path.a0[l];
			for (int j = 0; j < P; j++)
				r[i] -= beta[j] * x[j * N + i];
			wsum += w[i];
		}
		for (int j = 0; j < P; j++) {
			double xbar = 0, var = 0, g = 0;

			for (int i = 0; i < N; i++)
				xbar += w[i] / wsum * x[j * N + i];
			for (int i = 0; i < N; i++) {
				var += w[i] / wsum * (x[j * N + i] - xbar) * (x[j * N + i] - xbar);
				g += w[i] / wsum * (x[j * N + i] - xbar) * r[i];
			}
			g /= sqrt(var);
			if (beta[j] != 0)
				/* the stopping rule (dbeta^2 < tol ||y||^2) leaves gradient
				 * errors of order sqrt(tol) ||y|| = 1e-7 * ||y|| */
				ck_assert_msg(fabs(g - lambda * pf[j] * (beta[j] > 0 ? 1 : -1)) < 1e-6,
					      "lambda %d column %d: gradient %g, beta %g", l, j, g,
					      beta[j]);
			else
				ck_assert_msg(fabs(g) <= lambda * pf[j] + 1e-6,
					      "lambda %d column %d: zero but gradient %g > %g", l, j,
					      g, lambda * pf[j]);
		}
	}
	/* column 0 is unpenalised: in from the start; the true columns 1 and 4 enter early */
	ck_assert(path.beta[0] != 0);
	ck_assert(path.beta[(size_t)10 * P + 1] != 0 && path.beta[(size_t)10 * P + 4] != 0);
	lasso_path_release(&path);
	free(x);
}
END_TEST

START_TEST(lasso_orthogonal_design_is_soft_thresholding)
{
	/* Orthogonal, centred columns with unit standardised norm: beta_j = S(z_j'y, lambda). */
	double x[8 * 2] = {1, -1, 1, -1, 1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, -1};
	double y[8] = {5, 1, 3, -1, 5, 1, 3, -1};
	struct lasso_options opt = {.nlambda = 5, .lambda_min_ratio = 0.1, .tol = 1e-15};
	struct lasso_path path;
	struct error err = {""};

	/* z_j = x_j / sqrt(8) * (1 / sqrt(1/8 * 8 / 8))...: with v = 1/8 and s_j = 1,
	 * z_j'yt = mean(x_j y): column 0 gives 2, column 1 gives 1. */
	ck_assert_msg(lasso_fit_path(x, y, 8, 2, &opt, &path, &err) == 0, "%s", err.msg);
	ck_assert_double_eq_tol(path.lambda[0], 2, 1e-12);
	for (int l = 0; l < path.nlambda; l++) {
		double lambda = path.lambda[l];

		ck_assert_double_eq_tol(path.beta[l * 2 + 0], fmax(2 - lambda, 0), 1e-10);
		ck_assert_double_eq_tol(path.beta[l * 2 + 1], fmax(1 - lambda, 0), 1e-10);
		ck_assert_double_eq_tol(path.a0[l], 2, 1e-12);
	}
	lasso_path_release(&path);
}
END_TEST

/* Copies of a column (exact, affine, negated) are left out of the path and change nothing;
 * a copy with a smaller penalty is not a copy: it enters instead of the original. */
START_TEST(lasso_leaves_out_copies_of_a_column)
{
	enum { N = 100, BASE = 3, P = 7 };
	double x[N * P], y[N], pf[P] = {1, 1, 1, 1, 1, 1, 0.5};
	unsigned long long s = 11;
	struct lasso_options opt = {.nlambda = 30, .tol = 1e-14, .penalty = pf};
	struct lasso_path base, copies, cheaper;
	struct error err = {""};

	for (int i = 0; i < N; i++) {
		for (int j = 0; j < BASE; j++)
			x[j * N + i] = gauss(&s);
		x[3 * N + i] = 2 * x[1 * N + i] + 5; /* affine copy of column 1 */
		x[4 * N + i] = -x[0 * N + i];        /* negated copy of column 0 */
		x[5 * N + i] = x[0 * N + i];         /* exact copy of column 0 */
		x[6 * N + i] = x[2 * N + i];         /* column 2 again, penalised half as much */
		y[i] = 1 + 2 * x[i] - x[N + i] + 0.5 * x[2 * N + i] + 0.1 * gauss(&s);
	}
	ck_assert_msg(lasso_fit_path(x, y, N, BASE, &opt, &base, &err) == 0, "%s", err.msg);
	ck_assert_msg(lasso_fit_path(x, y, N, P - 1, &opt, &copies, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(base.ncolumns, 3);
	ck_assert_int_eq(copies.ncolumns, 3);
	ck_assert_int_eq(copies.nlambda, base.nlambda);
	for (int l = 0; l < copies.nlambda; l++) {
		const double *b = copies.beta + (size_t)l * (P - 1);

		for (int j = 0; j < BASE; j++)
			ck_assert_double_eq_tol(b[j], base.beta[(size_t)l * BASE + j], 1e-12);
		ck_assert(b[3] == 0 && b[4] == 0 && b[5] == 0);
	}
	ck_assert_msg(lasso_fit_path(x, y, N, P, &opt, &cheaper, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(cheaper.ncolumns, 4);
	for (int l = 0; l < cheaper.nlambda; l++)
		ck_assert(cheaper.beta[(size_t)l * P + 2] == 0);
	ck_assert(cheaper.beta[(size_t)(cheaper.nlambda - 1) * P + 6] > 0.4);
	lasso_path_release(&base);
	lasso_path_release(&copies);
	lasso_path_release(&cheaper);
}
END_TEST

/* Builds a problem over k columns of n rows from fill(i, j); the caller frees the arrays. */
static struct learn_problem make_problem(int n, int k, double (*fill)(int, int),
					 double (*truth)(const double *, int, int), int relative)
{
	double *x = xmalloc(sizeof *x * (size_t)n * (size_t)k), *y = xmalloc(sizeof *y * (size_t)n);
	double *w = xmalloc(sizeof *w * (size_t)n);

	for (int j = 0; j < k; j++) {
		for (int i = 0; i < n; i++)
			x[j * n + i] = fill(i, j);
	}
	for (int i = 0; i < n; i++) {
		y[i] = truth(x, n, i);
		w[i] = relative ? 1 / (y[i] * y[i]) : 1;
	}
	return (struct learn_problem){n, k, x, y, w};
}

static void free_problem(struct learn_problem *pb)
{
	free((double *)pb->x);
	free((double *)pb->y);
	free((double *)pb->w);
}

static double fill_hash(int i, int j)
{
	unsigned long long s = (unsigned long long)(i * 131 + j * 7919 + 1);

	uniform(&s);
	return 0.1 + uniform(&s);
}

/* y = 1 + 2 x0 + 3 x0 x2^2, exactly. */
static double truth_poly(const double *x, int n, int i)
{
	return 1 + 2 * x[i] + 3 * x[i] * x[2 * n + i] * x[2 * n + i];
}

/* Returns whether res has exactly the terms want[0..nwant) (any order). */
static int has_terms(const struct learn_result *res, const struct monomial *want, int nwant)
{
	if (res->nterms != nwant)
		return 0;
	for (int a = 0; a < nwant; a++) {
		int found = 0;

		for (int t = 0; t < res->nterms; t++)
			found |= memcmp(&res->terms[t], &want[a], sizeof want[a]) == 0;
		if (!found)
			return 0;
	}
	return 1;
}

START_TEST(spore_foba_finds_the_exact_terms)
{
	struct learn_problem pb = make_problem(120, 8, fill_hash, truth_poly, _i);
	struct learn_options opt = {.degree = 3, .epsilon = 1e-6, .nu = 0.5, .max_features = 5, .max_terms = 20};
	struct monomial want[2] = {{1, {0}, {1}}, {2, {0, 2}, {1, 2}}};
	struct learn_result res;
	struct error err = {""};

	ck_assert_msg(learn_foba(&pb, &opt, 1, &res, &err) == 0, "%s", err.msg);
	ck_assert_msg(has_terms(&res, want, 2), "got %d terms", res.nterms);
	ck_assert_double_eq_tol(res.b0, 1, 1e-8);
	for (int t = 0; t < 2; t++)
		ck_assert_double_eq_tol(res.coef[t], res.terms[t].nf == 1 ? 2 : 3, 1e-8);
	learn_result_release(&res);
	free_problem(&pb);
}
END_TEST

START_TEST(linear_foba_and_spore_lasso_decisions)
{
	struct learn_problem pb = make_problem(150, 8, fill_hash, truth_poly, 1);
	struct learn_options opt = {.degree = 3, .epsilon = 1e-6, .nu = 0.5, .max_features = 5, .max_terms = 20};
	struct monomial linear_want[2] = {{1, {0}, {1}}, {1, {2}, {1}}};
	struct learn_result res;
	struct error err = {""};

	/* linear FoBa's first two choices are x0 and x2, the columns the truth uses */
	opt.max_terms = 2;
	ck_assert_msg(learn_foba(&pb, &opt, 0, &res, &err) == 0, "%s", err.msg);
	opt.max_terms = 20;
	ck_assert_msg(has_terms(&res, linear_want, 2), "linear FoBa chose %d terms", res.nterms);
	learn_result_release(&res);
	/* SPORE-LASSO: every term over x0 and x2 only */
	ck_assert_msg(learn_spore_lasso(&pb, &opt, &res, &err) == 0, "%s", err.msg);
	ck_assert_int_gt(res.nterms, 0);
	for (int t = 0; t < res.nterms; t++) {
		for (int f = 0; f < res.terms[t].nf; f++)
			ck_assert_msg(res.terms[t].feat[f] == 0 || res.terms[t].feat[f] == 2,
				      "term %d uses column %d", t, res.terms[t].feat[f]);
	}
	learn_result_release(&res);
	free_problem(&pb);
}
END_TEST

/* Writes "program-like" data: Poisson-like counts, Pareto-tailed sizes, constants, exact and
 * affine copies, a noisy copy; y linear in five of them plus noise. x is n*p column-major. */
static void program_like_data(int n, int p, double *x, double *y, unsigned long long seed)
{
	unsigned long long s = seed;

	for (int j = 0; j < p; j++) {
		for (int i = 0; i < n; i++) {
			double *v = &x[(size_t)j * (size_t)n + (size_t)i];

			switch (j % 6) {
			case 0: *v = floor(50 * uniform(&s) * uniform(&s)); break;
			case 1: *v = floor(10 * pow(1 - uniform(&s), -1 / 1.5)); break;
			case 2: *v = j % 12 == 2 ? 4 : floor(1000 * uniform(&s)); break;
			case 3: *v = 2 * x[(size_t)(j - 3) * (size_t)n + (size_t)i]; break;
			case 4: *v = 5 + 3 * x[(size_t)(j - 3) * (size_t)n + (size_t)i]; break;
			default: *v = x[(size_t)(j - 5) * (size_t)n + (size_t)i] + gauss_for_tests(&s); break;
			}
		}
	}
	for (int i = 0; i < n; i++)
		y[i] = 3 + 0.5 * x[i] + 0.01 * x[(size_t)n + (size_t)i] + 2e-3 * x[(size_t)8 * (size_t)n + (size_t)i] +
		       0.2 * x[(size_t)6 * (size_t)n + (size_t)i] - 0.3 * x[(size_t)13 * (size_t)n + (size_t)i] +
		       2 * gauss_for_tests(&s);
}

START_TEST(lasso_objective_matches_scikit_learn)
{
	enum { N = 300, P = 126 };
	const char *top = getenv("MANTIS_TOP");
	double *x = xmalloc(sizeof *x * N * P), y[N], worst = 0;
	struct lasso_options opt = {.tol = 1e-12};
	struct lasso_path path;
	struct error err = {""};
	char *dir = test_tmpdir(), *in = xasprintf("%s/in.txt", dir), *cmd;
	FILE *f;

	program_like_data(N, P, x, y, 3);
	ck_assert_msg(lasso_fit_path(x, y, N, P, &opt, &path, &err) == 0, "%s", err.msg);
	f = fopen(in, "w");
	fprintf(f, "%d %d %d\n", N, P, path.nlambda);
	for (int l = 0; l < path.nlambda; l++)
		fprintf(f, "%.17g\n", path.lambda[l]);
	for (int i = 0; i < N; i++) {
		for (int j = 0; j < P; j++)
			fprintf(f, "%.17g ", x[j * N + i]);
		fprintf(f, "%.17g\n", y[i]);
	}
	fclose(f);
	cmd = xasprintf("%s/tests/ref/lasso_objective.py < %s", top ? top : ".", in);
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	for (int l = 0; l < path.nlambda; l++) {
		const double *beta = path.beta + (size_t)l * P;
		double ref, ours = 0, pen = 0, gap;

		ck_assert_msg(fscanf(f, "%lf", &ref) == 1, "no reference value %d from %s", l, cmd);
		for (int i = 0; i < N; i++) {
			double r = y[i] - path.a0[l];

			for (int j = 0; j < P; j++)
				r -= beta[j] * x[j * N + i];
			ours += r * r / (2.0 * N);
		}
		for (int j = 0; j < P; j++) {
			double mean = 0, var = 0;

			for (int i = 0; i < N; i++)
				mean += x[j * N + i] / N;
			for (int i = 0; i < N; i++)
				var += (x[j * N + i] - mean) * (x[j * N + i] - mean) / N;
			pen += fabs(beta[j]) * sqrt(var);
		}
		ours += path.lambda[l] * pen;
		gap = (ours - fmin(ours, ref)) / fmin(ours, ref);
		worst = fmax(worst, gap);
	}
	ck_assert_int_eq(pclose(f), 0);
	ck_assert_msg(worst <= 1e-6, "worst relative objective gap %g", worst);
	lasso_path_release(&path);
	free(cmd);
	free(in);
	free(dir);
	free(x);
}
END_TEST

/* y = 1 + 2 x0 + 3 x0 x2^2 with 2% multiplicative noise. */
static double truth_noisy(const double *x, int n, int i)
{
	unsigned long long s = (unsigned long long)i * 2654435761ull + 17;

	return truth_poly(x, n, i) * (1 + 0.02 * gauss_for_tests(&s));
}

START_TEST(cross_validation_chooses_the_true_candidate)
{
	struct learn_problem pb = make_problem(200, 8, fill_hash, truth_noisy, 1);
	struct monomial x0 = {1, {0}, {1}}, inter = {2, {0, 2}, {1, 2}}, x1 = {1, {1}, {1}};
	struct monomial x3 = {1, {3}, {1}}, x5sq = {1, {5}, {2}};
	struct monomial under[1] = {x0}, right[2] = {x0, inter}, over[5] = {x0, inter, x1, x3, x5sq};
	struct learn_trace tr = {0};
	struct learn_result res, again;
	struct error err = {""};

	learn_trace_add(&tr, under, 1);
	learn_trace_add(&tr, over, 5);
	learn_trace_add(&tr, right, 2);
	learn_trace_add(&tr, (struct monomial[]){inter, x0}, 2); /* the same set again */
	ck_assert_int_eq(tr.n, 3);
	ck_assert_msg(learn_choose_by_cv(&pb, &tr, 5, 7, &res, &err) == 0, "%s", err.msg);
	ck_assert_msg(has_terms(&res, right, 2), "chose %d terms", res.nterms);
	ck_assert_double_eq_tol(res.b0, 1, 0.05);
	ck_assert_msg(learn_choose_by_cv(&pb, &tr, 5, 7, &again, &err) == 0, "%s", err.msg);
	ck_assert(again.b0 == res.b0 && again.coef[0] == res.coef[0]); /* same seed, same fit */
	learn_result_release(&again);
	ck_assert_int_eq(learn_choose_by_cv(&pb, &tr, 1, 7, &again, &err), -1);
	ck_assert_str_eq(err.msg, "cross-validation needs 2 to 200 folds, not 1");
	learn_result_release(&res);
	learn_trace_release(&tr);
	free_problem(&pb);
}
END_TEST

Suite *suite_learn(void)
{
	Suite *s = suite_create("learn");
	TCase *tc = tcase_create("numeric");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, ols_matches_nist_longley);
	tcase_add_loop_test(tc, lasso_path_satisfies_kkt_everywhere, 0, 2); /* naive, covariance */
	tcase_add_test(tc, lasso_orthogonal_design_is_soft_thresholding);
	tcase_add_test(tc, lasso_leaves_out_copies_of_a_column);
	tcase_add_test(tc, lasso_objective_matches_scikit_learn);
	tcase_add_loop_test(tc, spore_foba_finds_the_exact_terms, 0, 2);
	tcase_add_test(tc, linear_foba_and_spore_lasso_decisions);
	tcase_add_test(tc, cross_validation_chooses_the_true_candidate);
	suite_add_tcase(s, tc);
	return s;
}
