/*
 * linalg.h: the few dense solves the learners need, on LAPACK (through LAPACKE).
 * Matrices are column-major, n rows by p columns, leading dimension n.
 */
#ifndef MANTIS_LINALG_H
#define MANTIS_LINALG_H

struct error;

/*
 * Least squares: beta (p values) minimising ||y - a beta||^2, with a column of ones prepended
 * when intercept is set (then *b0 receives its coefficient). Columns are equilibrated (scaled
 * to unit max magnitude) before the SVD-based solve (dgelsd), which keeps ill-conditioned
 * designs such as NIST's Longley accurate and gives the minimum-norm solution when columns are
 * dependent. rss, when not NULL, receives the residual sum of squares. Returns 0 or -1.
 */
int linalg_lstsq(const double *a, int n, int p, const double *y, int intercept, double *b0,
		 double *beta, double *rss, struct error *err);

/* Returns a'b over n values, in four partial sums so that the compiler vectorises the loop
 * (the learners' hottest loop; the order of the sums is fixed, so results are reproducible). */
double linalg_dot(const double *a, const double *b, int n);

/*
 * Ridge: beta = (a'a + ridge I)^-1 a'y (no intercept; centre a and y first if needed), by a
 * Cholesky solve (dposv). Returns 0, or -1 if the system is not positive definite.
 */
int linalg_ridge(const double *a, int n, int p, const double *y, double ridge, double *beta,
		 struct error *err);

/*
 * Solves g x = b for x, g p by p symmetric positive definite (its upper triangle read), by a
 * Cholesky solve (dposv): b is overwritten by x, g by its factor. Returns 0, or -1 with err set
 * when g is not positive definite.
 */
int linalg_solve_spd(double *g, int p, double *b, struct error *err);

#endif
