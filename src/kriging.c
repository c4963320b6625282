/*
 * kriging.c: ordinary Kriging (004_ section 4.4; Isaaks and Srivastava, "Applied
 * Geostatistics", ch. 12), two learners:
 *
 *   kriging     the paper's: points normalised to [0,1]^d; beyond two dimensions reduced to 2-D
 *               by classical multidimensional scaling (Torgerson: the two leading eigenpairs of
 *               B = -1/2 J D^2 J; a new point placed by Gower's formula
 *               z_k = sum_i v_ik (mean_j D2_ij - d2_i) / (2 sqrt(l_k))); the variogram fitted
 *               to the empirical semivariogram (15 distance classes, weighted by their pairs)
 *               among exponential, stable (exponent 1.5: smooth, unlike the Gaussian not
 *               ill-conditioned without a nugget), spherical and power models, sill in closed form,
 *               range or exponent on a grid.
 *   kriging-nd  directly in n-D: the Matern 5/2 variogram 1 - (1 + sqrt5 h + 5 h^2 / 3) exp(-sqrt5 h),
 *               twice differentiable but far better conditioned than the Gaussian, with
 *               h^2 = sum_j ((u_j - v_j)/theta_j)^2,
 *               one length scale theta_j per dimension chosen by coordinate search on a log
 *               grid (two sweeps), minimising the leave-one-out relative error on at most
 *               150 of the points (a stride), which Rippa's formula gives without refitting:
 *               e_i = c_i / (A^-1)_ii.
 *
 * Both solve the ordinary-kriging system once, in dual form: A [a; b] = [y; 0] with
 * A = [Gamma 1; 1' 0]; then Z(x0) = sum_i a_i gamma(|x0 - x_i|) + b, the same value as the
 * weights lambda that sum to 1 give. Invariant: gamma(0) = 0 on A's diagonal, so the model
 * interpolates every training point exactly, unless A is ill-conditioned (two points MDS put
 * almost at one place): then the smallest nugget that mends it is put on the diagonal.
 */
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "infer.h"
#include "util.h"

#define KRIGING_CLASSES 15     /* distance classes of the empirical semivariogram */
#define KRIGING_LOO_POINTS 150 /* kriging-nd: points its length scales are chosen on */

/* Variogram models. */
enum vmodel { V_EXPONENTIAL, V_STABLE, V_SPHERICAL, V_POWER, V_ANISO };

static const char *const vmodel_names[] = {"exponential", "stable-1.5", "spherical", "power", "matern-5/2"};

/* A fitted Kriging model. */
struct kriging {
	int d;              /* dimensions of the data */
	int q;              /* dimensions of the coordinates kriged in (2 after MDS, else d) */
	int n;              /* training points */
	double *lo, *span;  /* d normalisation offsets and spans (0 for a fixed dimension); owned */
	double *z;          /* n*q coordinates of the training points; owned */
	double *a;          /* n dual weights; owned */
	double b;           /* the Lagrange term: the model's constant */
	enum vmodel model;  /* variogram model */
	double sill;        /* its sill (or the power model's coefficient) */
	double range;       /* its range (or the power model's exponent) */
	double *theta;      /* kriging-nd: q length scales; owned, else NULL */
	int mds;            /* whether z came from classical MDS */
	double *u;          /* with MDS: n*d normalised training points; owned */
	double *rowmean;    /* with MDS: n means of each row of D^2; owned */
	double *vec;        /* with MDS: n*2 eigenvectors divided by 2 sqrt(l); owned */
	char **names;       /* d names; owned */
};

/* Returns gamma(h) for h >= 0. */
static double variogram(const struct kriging *k, double h)
{
	double r = h / k->range;

	switch (k->model) {
	case V_EXPONENTIAL: return k->sill * (1 - exp(-r));
	case V_STABLE: return k->sill * (1 - exp(-pow(r, 1.5)));
	case V_SPHERICAL: return r >= 1 ? k->sill : k->sill * (1.5 * r - 0.5 * r * r * r);
	case V_POWER: return k->sill * pow(h, k->range);
	case V_ANISO: /* Matern 5/2; h already scaled by theta */
		return 1 - (1 + sqrt(5) * h + 5 * h * h / 3) * exp(-sqrt(5) * h);
	}
	return 0;
}

/* Distance between coordinates a and b (q values each), scaled by theta if set. */
static double distance(const struct kriging *k, const double *a, const double *b)
{
	double s = 0;

	for (int j = 0; j < k->q; j++) {
		double t = (a[j] - b[j]) / (k->theta ? k->theta[j] : 1);

		s += t * t;
	}
	return sqrt(s);
}

/* Normalises a natural point x into u (d values in [0,1]). */
static void normalise(const struct kriging *k, const double *x, double *u)
{
	for (int j = 0; j < k->d; j++)
		u[j] = k->span[j] > 0 ? (x[j] - k->lo[j]) / k->span[j] : 0;
}

/* Fills A ((n+1)^2, column-major) with the ordinary-kriging matrix, diag = -nugget. */
static void system_matrix(const struct kriging *k, double nugget, double *a)
{
	int n = k->n, m = n + 1;

	for (int i = 0; i < n; i++) {
		for (int j = 0; j <= i; j++) {
			double g = i == j ? -nugget : variogram(k, distance(k, k->z + (size_t)i * (size_t)k->q,
								    k->z + (size_t)j * (size_t)k->q));

			a[(size_t)j * (size_t)m + (size_t)i] = a[(size_t)i * (size_t)m + (size_t)j] = g;
		}
		a[(size_t)n * (size_t)m + (size_t)i] = a[(size_t)i * (size_t)m + (size_t)n] = 1;
	}
	a[(size_t)n * (size_t)m + (size_t)n] = 0;
}

/* Returns whether the dual solution c (n + 1 values) of y is usable: finite, weights under
 * 1e6 (y is scaled to max |y| = 1), and, without a nugget, interpolating every y to 1e-8. */
static int usable(const struct kriging *k, const double *a0, const double *c, const double *y, int exact)
{
	int n = k->n, m = n + 1;

	for (int i = 0; i < m; i++) {
		if (!isfinite(c[i]) || fabs(c[i]) > 1e6)
			return 0;
	}
	for (int i = 0; exact && i < n; i++) {
		double v = 0;

		for (int j = 0; j < m; j++)
			v += a0[(size_t)j * (size_t)m + (size_t)i] * c[j];
		if (fabs(v - y[i]) > 1e-8)
			return 0;
	}
	return 1;
}

/* Solves for the dual weights k->a and k->b of y (scaled to max |y| = 1 first: the border of
 * ones and the semivariances then have comparable sizes). Without a nugget when that solution
 * is usable; otherwise (points that MDS or the length scales put at one place) with the
 * smallest nugget of 1e-10 .. 1e-2 of the sill that makes it so. */
static int solve_dual(struct kriging *k, const double *y, struct error *err)
{
	int n = k->n, m = n + 1, done = 0;
	double *a = xmalloc(sizeof *a * (size_t)m * (size_t)m), *a0 = xmalloc(sizeof *a0 * (size_t)m * (size_t)m);
	double *rhs = xmalloc(sizeof *rhs * (size_t)m), *ys = xmalloc(sizeof *ys * (size_t)n), scale = 0;
	lapack_int *piv = xmalloc(sizeof *piv * (size_t)m);

	for (int i = 0; i < n; i++)
		scale = fmax(scale, fabs(y[i]));
	if (scale == 0)
		scale = 1;
	for (int i = 0; i < n; i++)
		ys[i] = y[i] / scale;
	if (k->model != V_ANISO)
		k->sill /= scale * scale; /* the variogram of ys */
	for (int attempt = 0; attempt < 6 && !done; attempt++) {
		system_matrix(k, attempt == 0 ? 0 : fabs(k->sill) * pow(10, 2 * attempt - 12), a0);
		memcpy(a, a0, sizeof *a * (size_t)m * (size_t)m);
		memcpy(rhs, ys, sizeof *rhs * (size_t)n);
		rhs[n] = 0;
		done = LAPACKE_dgesv(LAPACK_COL_MAJOR, m, 1, a, m, piv, rhs, m) == 0 &&
		       usable(k, a0, rhs, ys, attempt == 0);
	}
	if (done) {
		k->a = xmalloc(sizeof *k->a * (size_t)n);
		for (int i = 0; i < n; i++)
			k->a[i] = rhs[i] * scale;
		k->b = rhs[n] * scale;
		if (k->model != V_ANISO)
			k->sill *= scale * scale;
		for (int i = 0; k->model != V_ANISO && i < n; i++) /* a was for the scaled variogram */
			k->a[i] /= scale * scale;
	}
	free(a);
	free(a0);
	free(rhs);
	free(ys);
	free(piv);
	return done ? 0 : error_set(err, "the kriging system of %d points is singular", n);
}

/* Fits the variogram model, sill and range to the empirical semivariogram of the coordinates. */
static void fit_variogram(struct kriging *k, const double *y)
{
	int n = k->n, cnt[KRIGING_CLASSES] = {0};
	double maxd = 0, sum[KRIGING_CLASSES] = {0}, hbar[KRIGING_CLASSES] = {0}, best = INFINITY;

	for (int i = 0; i < n; i++) {
		for (int j = 0; j < i; j++)
			maxd = fmax(maxd, distance(k, k->z + (size_t)i * (size_t)k->q, k->z + (size_t)j * (size_t)k->q));
	}
	k->model = V_EXPONENTIAL;
	k->sill = 1;
	k->range = maxd > 0 ? maxd : 1;
	if (maxd == 0)
		return;
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < i; j++) {
			double h = distance(k, k->z + (size_t)i * (size_t)k->q, k->z + (size_t)j * (size_t)k->q);
			int c = (int)(h / maxd * KRIGING_CLASSES);

			if (c >= KRIGING_CLASSES)
				c = KRIGING_CLASSES - 1;
			cnt[c]++;
			sum[c] += 0.5 * (y[i] - y[j]) * (y[i] - y[j]);
			hbar[c] += h;
		}
	}
	for (int m = V_EXPONENTIAL; m <= V_POWER; m++) {
		for (int g = 0; g < 30; g++) {
			struct kriging t = *k;
			double sfy = 0, sff = 0, sse = 0;

			t.model = (enum vmodel)m;
			t.sill = 1;
			t.range = m == V_POWER ? 0.1 + 1.8 * g / 29 : maxd * 0.02 * pow(250, g / 29.0);
			for (int c = 0; c < KRIGING_CLASSES; c++) {
				double f;

				if (!cnt[c])
					continue;
				f = variogram(&t, hbar[c] / cnt[c]);
				sfy += cnt[c] * f * sum[c] / cnt[c];
				sff += cnt[c] * f * f;
			}
			if (!(sff > 0) || !(sfy > 0))
				continue;
			t.sill = sfy / sff;
			for (int c = 0; c < KRIGING_CLASSES; c++) {
				double e;

				if (!cnt[c])
					continue;
				e = sum[c] / cnt[c] - variogram(&t, hbar[c] / cnt[c]);
				sse += cnt[c] * e * e;
			}
			if (sse < best) {
				best = sse;
				k->model = t.model;
				k->sill = t.sill;
				k->range = t.range;
			}
		}
	}
}

/* Classical MDS of the normalised points u (n*d) to 2-D coordinates in k->z. */
static int mds(struct kriging *k, const double *u, struct error *err)
{
	int n = k->n, d = k->d, found;
	double *b = xmalloc(sizeof *b * (size_t)n * (size_t)n), *d2 = xmalloc(sizeof *d2 * (size_t)n * (size_t)n);
	double *w = xmalloc(sizeof *w * (size_t)n), *v = xmalloc(sizeof *v * (size_t)n * 2), all = 0;
	lapack_int *supp = xmalloc(sizeof *supp * (size_t)n * 2), info;

	k->rowmean = xcalloc((size_t)n, sizeof *k->rowmean);
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++) {
			double s = 0;

			for (int c = 0; c < d; c++) {
				double t = u[(size_t)i * (size_t)d + (size_t)c] - u[(size_t)j * (size_t)d + (size_t)c];

				s += t * t;
			}
			d2[(size_t)i * (size_t)n + (size_t)j] = s;
			k->rowmean[i] += s / n;
		}
		all += k->rowmean[i] / n;
	}
	for (int i = 0; i < n; i++) {
		for (int j = 0; j < n; j++)
			b[(size_t)j * (size_t)n + (size_t)i] = -0.5 * (d2[(size_t)i * (size_t)n + (size_t)j] -
								       k->rowmean[i] - k->rowmean[j] + all);
	}
	info = LAPACKE_dsyevr(LAPACK_COL_MAJOR, 'V', 'I', 'U', n, b, n, 0, 0, n > 1 ? n - 1 : 1, n,
			      0, &found, w, v, n, supp);
	k->vec = xcalloc((size_t)n * 2, sizeof *k->vec);
	k->z = xcalloc((size_t)n * 2, sizeof *k->z);
	for (int c = 0; info == 0 && c < found; c++) {
		int col = found - 1 - c; /* ascending order: the largest is last */
		double l = w[col];

		if (!(l > 1e-12))
			continue;
		for (int i = 0; i < n; i++) {
			k->z[(size_t)i * 2 + (size_t)c] = sqrt(l) * v[(size_t)col * (size_t)n + (size_t)i];
			k->vec[(size_t)i * 2 + (size_t)c] = v[(size_t)col * (size_t)n + (size_t)i] / (2 * sqrt(l));
		}
	}
	free(b);
	free(d2);
	free(w);
	free(v);
	free(supp);
	return info == 0 ? 0 : error_set(err, "classical MDS of %d points failed (LAPACK %d)", n, (int)info);
}

/* Places a new normalised point u by Gower's formula into z (2 values). */
static void mds_place(const struct kriging *k, const double *u, double *z)
{
	z[0] = z[1] = 0;
	for (int i = 0; i < k->n; i++) {
		double s = 0;

		for (int c = 0; c < k->d; c++) {
			double t = u[c] - k->u[(size_t)i * (size_t)k->d + (size_t)c];

			s += t * t;
		}
		z[0] += k->vec[(size_t)i * 2] * (k->rowmean[i] - s);
		z[1] += k->vec[(size_t)i * 2 + 1] * (k->rowmean[i] - s);
	}
}

/* The common beginning: copies names and ranges, normalises the points into a fresh array. */
static struct kriging *kriging_new(const struct infer_data *data, double **u)
{
	struct kriging *k = xcalloc(1, sizeof *k);

	k->d = data->d;
	k->n = data->n;
	k->lo = xmalloc(sizeof *k->lo * (size_t)data->d);
	k->span = xmalloc(sizeof *k->span * (size_t)data->d);
	k->names = xcalloc((size_t)data->d + 1, sizeof *k->names);
	for (int j = 0; j < data->d; j++) {
		k->lo[j] = data->lo[j];
		k->span[j] = data->hi[j] - data->lo[j];
		k->names[j] = xstrdup(data->names[j]);
	}
	*u = xmalloc(sizeof **u * (size_t)data->n * (size_t)data->d);
	for (int i = 0; i < data->n; i++)
		normalise(k, data->x + (size_t)i * (size_t)data->d, *u + (size_t)i * (size_t)data->d);
	return k;
}

/* Frees the model. */
static void kriging_free(void *model)
{
	struct kriging *k = model;

	for (int j = 0; j < k->d; j++)
		free(k->names[j]);
	free(k->names);
	free(k->lo);
	free(k->span);
	free(k->z);
	free(k->a);
	free(k->theta);
	free(k->u);
	free(k->rowmean);
	free(k->vec);
	free(k);
}

/* The paper's learner: MDS beyond 2-D, variogram fit, dual solve. Returns the model (owned by the caller) or NULL with err. */
static void *kriging_fit(const struct infer_data *data, const struct infer_options *opt, struct error *err)
{
	double *u;
	struct kriging *k = kriging_new(data, &u);

	(void)opt;
	if (data->d > 2) {
		k->q = 2;
		k->mds = 1;
		k->u = u;
		if (mds(k, u, err) < 0) {
			kriging_free(k);
			return NULL;
		}
	} else {
		k->q = data->d;
		k->z = u;
	}
	fit_variogram(k, data->y);
	if (solve_dual(k, data->y, err) < 0) {
		kriging_free(k);
		return NULL;
	}
	return k;
}

/* Returns the kriged value at x (placed by Gower's formula after MDS). */
static double kriging_predict(const void *model, const double *x)
{
	const struct kriging *k = model;
	double *u = xmalloc(sizeof *u * (size_t)k->d), z[2], v = k->b;
	const double *at = u;

	normalise(k, x, u);
	if (k->mds) {
		mds_place(k, u, z);
		at = z;
	}
	for (int i = 0; i < k->n; i++)
		v += k->a[i] * variogram(k, distance(k, at, k->z + (size_t)i * (size_t)k->q));
	free(u);
	return v;
}

/* Appends the variogram and its parameters (Kriging has no closed formula). */
static void kriging_format(const void *model, struct strbuf *out)
{
	const struct kriging *k = model;
	char buf[256];

	if (k->model == V_ANISO) {
		snprintf(buf, sizeof buf, "ordinary kriging of %d points, Matern 5/2 variogram of "
			 "h^2 = sum ((x_j - x'_j) / (range_j theta_j))^2, theta:", k->n);
		strbuf_add(out, buf, strlen(buf));
		for (int j = 0; j < k->d; j++) {
			snprintf(buf, sizeof buf, " %s %.3g", k->names[j], k->theta[j]);
			strbuf_add(out, buf, strlen(buf));
		}
		return;
	}
	snprintf(buf, sizeof buf, "ordinary kriging of %d points%s, %s variogram, %s %.6g, %s %.6g",
		 k->n, k->mds ? " (classical MDS to 2-D)" : "", vmodel_names[k->model],
		 k->model == V_POWER ? "coefficient" : "sill", k->sill,
		 k->model == V_POWER ? "exponent" : "range", k->range);
	strbuf_add(out, buf, strlen(buf));
}

/* Returns the leave-one-out sum of squared relative errors under the current theta. */
static double loo_error(struct kriging *k, const double *y)
{
	int n = k->n, m = n + 1;
	double *a = xmalloc(sizeof *a * (size_t)m * (size_t)m), *c = xmalloc(sizeof *c * (size_t)m), s = 0;
	lapack_int *piv = xmalloc(sizeof *piv * (size_t)m), info;

	system_matrix(k, 1e-10, a);
	info = LAPACKE_dgetrf(LAPACK_COL_MAJOR, m, m, a, m, piv);
	if (info == 0)
		info = LAPACKE_dgetri(LAPACK_COL_MAJOR, m, a, m, piv);
	for (int i = 0; info == 0 && i < n; i++) {
		c[i] = 0;
		for (int j = 0; j < n; j++)
			c[i] += a[(size_t)j * (size_t)m + (size_t)i] * y[j];
	}
	for (int i = 0; info == 0 && i < n; i++) {
		double e = c[i] / a[(size_t)i * (size_t)m + (size_t)i];

		s += y[i] != 0 ? (e / y[i]) * (e / y[i]) : e * e;
	}
	free(a);
	free(c);
	free(piv);
	return info == 0 && isfinite(s) ? s : INFINITY;
}

/* The n-D learner: length scales by leave-one-out, then the dual solve. Returns the model (owned by the caller) or NULL with err. */
static void *kriging_nd_fit(const struct infer_data *data, const struct infer_options *opt, struct error *err)
{
	static const double grid[] = {0.05, 0.1, 0.2, 0.35, 0.6, 1, 1.7, 3, 6};
	double *u, *ys;
	struct kriging *k = kriging_new(data, &u), sub;
	int sweeps = 2;

	(void)opt;
	k->q = data->d;
	k->z = u;
	k->model = V_ANISO;
	k->sill = 1;
	k->range = 1;
	k->theta = xmalloc(sizeof *k->theta * (size_t)data->d);
	for (int j = 0; j < data->d; j++)
		k->theta[j] = 0.6;
	sub = *k; /* the length scales are chosen on at most KRIGING_LOO_POINTS points (a stride) */
	sub.n = data->n < KRIGING_LOO_POINTS ? data->n : KRIGING_LOO_POINTS;
	sub.z = xmalloc(sizeof *sub.z * (size_t)sub.n * (size_t)data->d);
	ys = xmalloc(sizeof *ys * (size_t)sub.n);
	for (int i = 0; i < sub.n; i++) {
		int from = (int)((long)i * data->n / sub.n);

		memcpy(sub.z + (size_t)i * (size_t)data->d, u + (size_t)from * (size_t)data->d, sizeof *u * (size_t)data->d);
		ys[i] = data->y[from];
	}
	for (int s = 0; s < sweeps && data->n > 2; s++) {
		for (int j = 0; j < data->d; j++) {
			double best = INFINITY, keep = k->theta[j];

			if (k->span[j] == 0)
				continue;
			for (size_t g = 0; g < sizeof grid / sizeof *grid; g++) {
				double e;

				k->theta[j] = grid[g];
				e = loo_error(&sub, ys);
				if (e < best * (1 - 1e-9)) {
					best = e;
					keep = grid[g];
				}
			}
			k->theta[j] = keep;
		}
	}
	free(sub.z);
	free(ys);
	if (solve_dual(k, data->y, err) < 0) {
		kriging_free(k);
		return NULL;
	}
	return k;
}

const struct learner learner_kriging = {
	.name = "kriging",
	.summary = "ordinary Kriging, fitted variogram; classical MDS to 2-D beyond two dimensions",
	.fit = kriging_fit,
	.predict = kriging_predict,
	.format = kriging_format,
	.free_model = kriging_free,
};

const struct learner learner_kriging_nd = {
	.name = "kriging-nd",
	.summary = "ordinary Kriging in n-D, one length scale per dimension (leave-one-out)",
	.fit = kriging_nd_fit,
	.predict = kriging_predict,
	.format = kriging_format,
	.free_model = kriging_free,
};
