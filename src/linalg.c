/*
 * linalg.c: least squares (LAPACK dgelsd, SVD with divide and conquer), ridge and other
 * positive definite systems (dposv, Cholesky).
 *
 * Equilibration: a column scaled by its largest magnitude changes nothing mathematically but
 * cuts the condition number of designs whose columns differ by orders of magnitude (Longley:
 * 1e0 to 1e5), which is what makes 1e-7 relative accuracy on NIST StRD reachable.
 */
#include "linalg.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "util.h"

int linalg_lstsq(const double *a, int n, int p, const double *y, int intercept, double *b0,
		 double *beta, double *rss, struct error *err)
{
	int q = p + (intercept ? 1 : 0), ldb = n > q ? n : q, rank;
	double *m = xmalloc(sizeof *m * (size_t)n * (size_t)(q ? q : 1));
	double *rhs = xcalloc((size_t)ldb, sizeof *rhs);
	double *scale = xmalloc(sizeof *scale * (size_t)(q ? q : 1));
	double *sv = xmalloc(sizeof *sv * (size_t)(q < n ? (q ? q : 1) : n));
	lapack_int info;

	for (int c = 0; c < q; c++) {
		const double *src = intercept ? (c == 0 ? NULL : a + (size_t)(c - 1) * (size_t)n)
					      : a + (size_t)c * (size_t)n;
		double *dst = m + (size_t)c * (size_t)n, big = 0;

		for (int i = 0; i < n; i++) {
			dst[i] = src ? src[i] : 1;
			big = fmax(big, fabs(dst[i]));
		}
		scale[c] = big > 0 ? big : 1;
		for (int i = 0; i < n; i++)
			dst[i] /= scale[c];
	}
	memcpy(rhs, y, sizeof *rhs * (size_t)n);
	info = LAPACKE_dgelsd(LAPACK_COL_MAJOR, n, q, 1, m, n, rhs, ldb, sv, -1.0, &rank);
	if (info != 0) {
		free(m);
		free(rhs);
		free(scale);
		free(sv);
		return error_set(err, "least squares failed (LAPACK dgelsd info %d)", (int)info);
	}
	for (int c = 0; c < q; c++) {
		double coef = rhs[c] / scale[c];

		if (intercept && c == 0)
			*b0 = coef;
		else
			beta[c - (intercept ? 1 : 0)] = coef;
	}
	if (rss) {
		*rss = 0;
		for (int i = 0; i < n; i++) {
			double fit = intercept ? *b0 : 0, e;

			for (int j = 0; j < p; j++)
				fit += beta[j] * a[(size_t)j * (size_t)n + (size_t)i];
			e = y[i] - fit;
			*rss += e * e;
		}
	}
	free(m);
	free(rhs);
	free(scale);
	free(sv);
	return 0;
}

double linalg_dot(const double *a, const double *b, int n)
{
	double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	int i = 0;

	for (; i + 4 <= n; i += 4) {
		s0 += a[i] * b[i];
		s1 += a[i + 1] * b[i + 1];
		s2 += a[i + 2] * b[i + 2];
		s3 += a[i + 3] * b[i + 3];
	}
	for (; i < n; i++)
		s0 += a[i] * b[i];
	return (s0 + s1) + (s2 + s3);
}

int linalg_solve_spd(double *g, int p, double *b, struct error *err)
{
	lapack_int info = p ? LAPACKE_dposv(LAPACK_COL_MAJOR, 'U', p, 1, g, p, b, p) : 0;

	if (info != 0)
		return error_set(err, "the system is not positive definite (LAPACK dposv info %d)",
				 (int)info);
	return 0;
}

int linalg_ridge(const double *a, int n, int p, const double *y, double ridge, double *beta,
		 struct error *err)
{
	double *g = xcalloc((size_t)p * (size_t)p + 1, sizeof *g);
	int status;

	for (int j = 0; j < p; j++) {
		const double *aj = a + (size_t)j * (size_t)n;

		for (int k = 0; k <= j; k++) {
			double s = linalg_dot(aj, a + (size_t)k * (size_t)n, n);

			g[(size_t)k * (size_t)p + (size_t)j] = g[(size_t)j * (size_t)p + (size_t)k] = s;
		}
		g[(size_t)j * (size_t)p + (size_t)j] += ridge;
		beta[j] = linalg_dot(aj, y, n);
	}
	status = linalg_solve_spd(g, p, beta, err);
	free(g);
	return status;
}
