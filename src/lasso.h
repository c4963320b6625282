/*
 * lasso.h: the LASSO solution path by coordinate descent (Friedman, Hastie, Tibshirani 2010,
 * "Regularization paths for generalized linear models via coordinate descent").
 */
#ifndef MANTIS_LASSO_H
#define MANTIS_LASSO_H

struct error;

/* How to compute the path. Zeroed fields take the defaults in brackets. */
struct lasso_options {
	int nlambda;             /* points on the lambda grid [100] */
	double lambda_min_ratio; /* last lambda / lambda_max [1e-4 if n > p, else 1e-2] */
	double tol;              /* convergence: max_j dbeta_j^2 < tol * RSS of the previous
				  * solution (null deviance at the first) [1e-8] */
	int dfmax;               /* stop once more columns than this are nonzero [no limit] */
	int max_passes;          /* coordinate passes over all lambdas before giving up [100000] */
	const double *penalty;   /* p penalty factors (0: never penalised) or NULL for all 1 */
	const double *weights;   /* n observation weights (> 0) or NULL for all 1 */
	int updates;             /* LASSO_NAIVE or LASSO_COVARIANCE; 0: covariance when the
				  * columns that can enter number under 500 (glmnet) or 2n */
};

enum { LASSO_NAIVE = 1, LASSO_COVARIANCE = 2 };

/* A computed path: solution l has intercept a0[l] and coefficients beta + l*p. */
struct lasso_path {
	int p;          /* columns */
	int nlambda;    /* solutions computed (the path may stop early, see lasso_options) */
	double *lambda; /* nlambda values, decreasing; owned */
	double *a0;     /* nlambda intercepts; owned */
	double *beta;   /* p*nlambda coefficients in the units of x; owned */
	int *df;        /* nlambda counts of nonzero coefficients; owned */
	double *rss;    /* nlambda weighted residual sums of squares sum_i w_i (y_i - fit_i)^2; owned */
	int passes;     /* coordinate passes used in all */
	int ncolumns;   /* columns that could enter: not constant, not a copy of an earlier one */
};

/*
 * Solves, for a decreasing grid of lambda from the smallest that zeroes every penalised
 * coefficient, min over (a0, beta) of
 *     1/2 sum_i v_i (y_i - a0 - x_i beta)^2 + lambda sum_j penalty_j |beta_j| * s_j
 * where v = weights / sum(weights) and s_j is column j's weighted standard deviation (so the
 * penalty acts on standardised coefficients, as glmnet's standardize=TRUE). x is n*p
 * column-major. Constant columns keep beta_j = 0, and so does a column whose standardised
 * values equal (up to sign) an earlier column's with the same penalty: the earlier one carries
 * the coefficient, which leaves the objective unchanged. Returns 0, or -1 with err set if n < 2, a
 * weight is not positive, or the passes run out. The caller releases *path.
 */
int lasso_fit_path(const double *x, const double *y, int n, int p,
		   const struct lasso_options *opt, struct lasso_path *path, struct error *err);

/*
 * The adaptive LASSO's penalty factors (Zou 2006): penalty_j = 1 / |w_j| with w the ridge
 * estimate (Z'Z + ridge I)^-1 Z'y on the same standardised columns Z the path uses, so the
 * paper's (X'X + 0.001 I)^-1 X'y is taken in the space where the penalty acts. Columns that
 * are constant or get w_j = 0 get an infinite penalty (they stay out). Returns 0 or -1.
 */
int lasso_adaptive_penalty(const double *x, const double *y, int n, int p,
			   const double *weights, double ridge, double *penalty, struct error *err);

/* Frees what *path owns and zeroes it. */
void lasso_path_release(struct lasso_path *path);

#endif
