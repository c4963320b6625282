/*
 * explore.c: measurement-point selection, validation and termination (Westermann et al. 2012,
 * 004_ sections 3.1-3.2 and the listing of 3.1.2), on normalised coordinates [0,1]^d.
 *
 *   RB   each iteration measures `batch` new random points for the training set M.
 *   AEB  a priority queue Q of sectors (opposite corners lo, hi; an error e), first the whole
 *        space with e = infinity. Each iteration dequeues every sector of the largest e,
 *        measures their corners into M, fits, then measures each one's centre and compares
 *        the prediction: relative error e > threshold (or RVS validation) splits the sector
 *        into the 2^k sub-sectors between its centre and its corners (k: the dimensions that
 *        can still be halved), each queued with e, and the centre joins M; otherwise the
 *        sector and its centre go to the validation set V. After refitting, every sector of V
 *        is re-checked and goes back to Q with its new error if that exceeds the threshold.
 *        At the end V's points join M (the listing's lines 42-45) and the model is refitted.
 *   ARB  AEB with `sector_points` random points of the sector instead of its centre (their
 *        mean relative error is the sector's).
 *   RVS  a random validation set measured first: converged when the model's mean relative
 *        error on it is under the threshold.
 *   DSL  converged when no sector is over the threshold (Q is empty).
 *   DSG  converged when the mean error of the sectors judged (V after its re-check, and the
 *        sectors evaluated in this iteration) is under the threshold.
 * The budget (max_points) stops any of them before a measurement past it. The metrics (MRE,
 * HE, LT15, LT30; 004_ section 6) are then measured on an independent random set.
 *
 * Invariants: every point is snapped to admissible values before it is measured, and measured
 * once (a table of samples keyed by coordinates); MP counts the distinct points the exploration
 * measured (training and validation), never the independent test set. A dimension can be
 * halved while the snapped centre differs from both snapped ends (a real one: while the
 * sector is wider than 2^-max_depth), so splitting ends on every space.
 */
#include "explore.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "error.h"
#include "space.h"
#include "util.h"

#define EXPLORE_MAX_ITERATIONS 10000

/* A measured point. */
struct sample {
	double *u;    /* snapped coordinates; owned */
	double y;     /* the measurement */
	int explored; /* measured for the exploration (counts in MP) */
	int train;    /* in the training set M */
};

/* A sector of the space. */
struct sector {
	double *lo, *hi; /* opposite corners, coordinates; owned */
	double e;        /* its error (infinity before its first evaluation) */
	int *pts;        /* its evaluation points (samples): the centre, or ARB's random points; owned */
	int npts;        /* how many (0 until evaluated) */
};

/* A growable list of sectors. */
struct sectors {
	struct sector *v; /* owned */
	int n, cap;
};

/* The exploration's state. */
struct explorer {
	const struct space *s;
	const struct explore_options *opt;
	explore_measure_fn fn;
	void *ctx;
	int d;
	struct sample *v;   /* every measured point */
	int n, cap;
	int explored;       /* MP so far */
	uint64_t rng;       /* the exploration's random stream */
	struct sectors q;   /* the queue */
	struct sectors val; /* the validated sectors */
	struct intvec rvs;  /* the random validation set (samples) */
	int dirty;          /* M changed since the last fit */
	double *lo, *hi;    /* natural ranges */
	char **names;       /* parameter names (not owned) */
	struct explore_result *res;
	struct error *err;
};

/* Measure's outcome besides a sample index. */
enum { MEASURE_FAILED = -1, MEASURE_BUDGET = -2 };

struct explore_options explore_options_default(void)
{
	struct explore_options o = {
		.select = EXPLORE_AEB,
		.validate = EXPLORE_DSG,
		.learner = &learner_mars,
		.infer = infer_options_default(),
		.threshold = 0.1,
		.seed = 1,
		.sector_points = 2,
		.rvs_points = 10,
		.test_points = 50,
		.max_depth = 6,
	};

	return o;
}

static const char *const select_names[] = {"rb", "aeb", "arb"};
static const char *const validate_names[] = {"rvs", "dsl", "dsg"};

int explore_select_find(const char *name)
{
	for (int i = 0; i < 3; i++) {
		if (strcmp(select_names[i], name) == 0)
			return i;
	}
	return -1;
}

int explore_validate_find(const char *name)
{
	for (int i = 0; i < 3; i++) {
		if (strcmp(validate_names[i], name) == 0)
			return i;
	}
	return -1;
}

const char *explore_select_name(enum explore_select s)
{
	return select_names[s];
}

const char *explore_validate_name(enum explore_validate v)
{
	return validate_names[v];
}

/* Returns |pred - y| / |y| (0 or infinity when y is 0). */
static double rel_error(double pred, double y)
{
	double e = fabs(pred - y);

	return y != 0 ? e / fabs(y) : (e == 0 ? 0 : INFINITY);
}

void explore_metrics_compute(const double *pred, const double *y, int n, struct explore_metrics *m)
{
	memset(m, 0, sizeof *m);
	m->n = n;
	if (n == 0) {
		m->mre = m->he = m->lt15 = m->lt30 = NAN;
		return;
	}
	for (int i = 0; i < n; i++) {
		double e = rel_error(pred[i], y[i]);

		m->mre += e;
		m->he = fmax(m->he, e);
		m->lt15 += e < 0.15;
		m->lt30 += e < 0.30;
	}
	m->mre /= n;
	m->lt15 /= n;
	m->lt30 /= n;
}

/* Returns the sample at snapped coordinates u, or -1. */
static int find_sample(const struct explorer *ex, const double *u)
{
	for (int i = ex->n - 1; i >= 0; i--) {
		if (memcmp(ex->v[i].u, u, sizeof *u * (size_t)ex->d) == 0)
			return i;
	}
	return -1;
}

/* Measures the point nearest u (or finds it measured); explored: for the exploration (MP).
 * Returns the sample, MEASURE_BUDGET if the budget forbids it, or MEASURE_FAILED. */
static int measure(struct explorer *ex, const double *u, int explored)
{
	double *snapped = xmalloc(sizeof *snapped * (size_t)ex->d), y;
	int i;

	for (int j = 0; j < ex->d; j++) {
		snapped[j] = space_snap(ex->s, j, u[j]);
		if (snapped[j] == 0)
			snapped[j] = 0; /* no -0: keys compare bytes */
	}
	i = find_sample(ex, snapped);
	if (explored && (i < 0 || !ex->v[i].explored) && ex->opt->max_points > 0 &&
	    ex->explored >= ex->opt->max_points) {
		free(snapped);
		ex->res->budget_spent = 1;
		return MEASURE_BUDGET;
	}
	if (i < 0) {
		if (ex->fn(ex->ctx, snapped, &y, ex->err) < 0) {
			free(snapped);
			return MEASURE_FAILED;
		}
		if (ex->n == ex->cap) {
			ex->cap = ex->cap ? 2 * ex->cap : 64;
			ex->v = xrealloc(ex->v, sizeof *ex->v * (size_t)ex->cap);
		}
		i = ex->n++;
		ex->v[i] = (struct sample){snapped, y, 0, 0};
	} else {
		free(snapped);
	}
	if (explored && !ex->v[i].explored) {
		ex->v[i].explored = 1;
		ex->explored++;
	}
	return i;
}

/* Puts sample i in the training set M. */
static void add_train(struct explorer *ex, int i)
{
	if (!ex->v[i].train) {
		ex->v[i].train = 1;
		ex->dirty = 1;
	}
}

/* Fits the model on M if it changed. Returns 0 or -1. */
static int fit(struct explorer *ex)
{
	struct infer_data data = {0, ex->d, NULL, NULL, ex->lo, ex->hi, ex->names};
	double *x = xmalloc(sizeof *x * (size_t)ex->n * (size_t)ex->d + 1), *y = xmalloc(sizeof *y * (size_t)ex->n + 1);
	struct timespec t0, t1;
	int rc;

	if (!ex->dirty && ex->res->model.model) {
		free(x);
		free(y);
		return 0;
	}
	for (int i = 0; i < ex->n; i++) {
		if (!ex->v[i].train)
			continue;
		for (int j = 0; j < ex->d; j++)
			x[(size_t)data.n * (size_t)ex->d + (size_t)j] = space_value(ex->s, j, ex->v[i].u[j]);
		y[data.n++] = ex->v[i].y;
	}
	data.x = x;
	data.y = y;
	infer_release(&ex->res->model);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	rc = infer_fit(&ex->res->model, ex->opt->learner, &data, &ex->opt->infer, ex->err);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	ex->res->model_seconds += (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	ex->res->train = data.n;
	ex->dirty = 0;
	free(x);
	free(y);
	return rc;
}

/* Returns the model's prediction at coordinates u. */
static double predict(const struct explorer *ex, const double *u)
{
	double *x = xmalloc(sizeof *x * (size_t)ex->d), p;

	for (int j = 0; j < ex->d; j++)
		x[j] = space_value(ex->s, j, u[j]);
	p = infer_predict(&ex->res->model, x);
	free(x);
	return p;
}

/* Returns the model's relative error at sample i. */
static double sample_error(const struct explorer *ex, int i)
{
	return rel_error(predict(ex, ex->v[i].u), ex->v[i].y);
}

/* Returns the mean relative error over samples pts[0..n) (0 if n == 0). */
static double mean_error(const struct explorer *ex, const int *pts, int n)
{
	double s = 0;

	for (int k = 0; k < n; k++)
		s += sample_error(ex, pts[k]) / n;
	return s;
}

/* Measures the random validation set. Returns 0, or a MEASURE_ code. */
static int measure_rvs(struct explorer *ex)
{
	double *u = xmalloc(sizeof *u * (size_t)ex->d);
	int rc = 0;

	for (int k = 0; k < ex->opt->rvs_points && rc == 0; k++) {
		int i;

		for (int j = 0; j < ex->d; j++)
			u[j] = infer_uniform(&ex->rng);
		i = measure(ex, u, 1);
		if (i < 0)
			rc = i;
		else
			intvec_push(&ex->rvs, i);
	}
	free(u);
	return rc;
}

/* Returns the model's mean relative error on the random validation set. */
static double rvs_error(const struct explorer *ex)
{
	return mean_error(ex, ex->rvs.v, ex->rvs.n);
}

/* Random Breakdown (RVS validation only). Returns 0 or a MEASURE_ code. */
static int run_rb(struct explorer *ex)
{
	int batch = ex->opt->batch > 0 ? ex->opt->batch : 2 * ex->d + 2, rc = measure_rvs(ex);
	double *u = xmalloc(sizeof *u * (size_t)ex->d), size = space_size(ex->s);

	while (rc == 0 && ex->res->iterations < EXPLORE_MAX_ITERATIONS) {
		int added = 0;

		ex->res->iterations++;
		for (int tries = 0; added < batch && tries < 50 * batch && rc == 0; tries++) {
			int i;

			for (int j = 0; j < ex->d; j++)
				u[j] = infer_uniform(&ex->rng);
			i = measure(ex, u, 1);
			if (i < 0) {
				rc = i;
			} else if (!ex->v[i].train) {
				add_train(ex, i);
				added++;
			}
		}
		if (rc == MEASURE_FAILED || fit(ex) < 0) {
			rc = MEASURE_FAILED;
			break;
		}
		ex->res->validation_error = rvs_error(ex);
		if (ex->res->validation_error <= ex->opt->threshold) {
			ex->res->converged = 1;
			break;
		}
		if (rc == MEASURE_BUDGET || added == 0 || (size > 0 && ex->res->train >= size))
			break;
	}
	free(u);
	return rc == MEASURE_BUDGET ? 0 : rc;
}

/* Appends sec (taken over) to ss. */
static void sectors_push(struct sectors *ss, struct sector sec)
{
	if (ss->n == ss->cap) {
		ss->cap = ss->cap ? 2 * ss->cap : 16;
		ss->v = xrealloc(ss->v, sizeof *ss->v * (size_t)ss->cap);
	}
	ss->v[ss->n++] = sec;
}

/* Frees what sec owns. */
static void sector_free(struct sector *sec)
{
	free(sec->lo);
	free(sec->hi);
	free(sec->pts);
}

/* Returns a copy of the d coordinates at u, owned by the caller. */
static double *copy_coords(const double *u, int d)
{
	double *c = xmalloc(sizeof *c * (size_t)d);

	memcpy(c, u, sizeof *c * (size_t)d);
	return c;
}

/* Records action a on sec in the result's decisions (copies its corners). */
static void log_decision(struct explorer *ex, const struct sector *sec, enum explore_action a)
{
	struct explore_result *r = ex->res;

	r->decisions = xrealloc(r->decisions, sizeof *r->decisions * (size_t)(r->ndecisions + 1));
	r->decisions[r->ndecisions++] = (struct explore_decision){
		r->iterations, a, sec->e, copy_coords(sec->lo, ex->d), copy_coords(sec->hi, ex->d)};
}

/* Returns whether dimension j of the sector can be halved. */
static int halvable(const struct explorer *ex, const struct sector *sec, int j)
{
	double c = (sec->lo[j] + sec->hi[j]) / 2, sc = space_snap(ex->s, j, c);

	if (space_levels(ex->s, j) == 0)
		return sec->hi[j] - sec->lo[j] > ldexp(1, -ex->opt->max_depth) * (1 + 1e-9);
	return sc != space_snap(ex->s, j, sec->lo[j]) && sc != space_snap(ex->s, j, sec->hi[j]);
}

/* Measures the 2^d corners of the sector into M. Returns 0 or a MEASURE_ code. */
static int measure_corners(struct explorer *ex, const struct sector *sec)
{
	double *u = xmalloc(sizeof *u * (size_t)ex->d);
	int rc = 0;

	for (long mask = 0; mask < 1L << ex->d && rc == 0; mask++) {
		int i;

		for (int j = 0; j < ex->d; j++)
			u[j] = mask >> j & 1 ? sec->hi[j] : sec->lo[j];
		i = measure(ex, u, 1);
		if (i < 0)
			rc = i;
		else
			add_train(ex, i);
	}
	free(u);
	return rc;
}

/* Measures the sector's evaluation points (once): AEB its centre, ARB random points. */
static int measure_sector_points(struct explorer *ex, struct sector *sec)
{
	int n = ex->opt->select == EXPLORE_ARB ? (ex->opt->sector_points > 0 ? ex->opt->sector_points : 1) : 1;
	double *u = xmalloc(sizeof *u * (size_t)ex->d);
	int rc = 0;

	if (sec->npts > 0) {
		free(u);
		return 0;
	}
	sec->pts = xmalloc(sizeof *sec->pts * (size_t)n);
	for (int k = 0; k < n && rc == 0; k++) {
		int i;

		for (int j = 0; j < ex->d; j++) {
			double t = ex->opt->select == EXPLORE_ARB ? infer_uniform(&ex->rng) : 0.5;

			u[j] = sec->lo[j] + t * (sec->hi[j] - sec->lo[j]);
		}
		i = measure(ex, u, 1);
		if (i < 0)
			rc = i;
		else
			sec->pts[sec->npts++] = i;
	}
	free(u);
	return rc;
}

/* Queues the 2^k sub-sectors between the sector's centre and its corners (k halvable dims). */
static void split(struct explorer *ex, const struct sector *sec)
{
	int dims[64], k = 0;

	for (int j = 0; j < ex->d; j++) {
		if (halvable(ex, sec, j))
			dims[k++] = j;
	}
	for (long mask = 0; mask < 1L << k; mask++) {
		struct sector child = {copy_coords(sec->lo, ex->d), copy_coords(sec->hi, ex->d), sec->e, NULL, 0};

		for (int b = 0; b < k; b++) {
			int j = dims[b];
			double c = (sec->lo[j] + sec->hi[j]) / 2;

			if (mask >> b & 1)
				child.lo[j] = c;
			else
				child.hi[j] = c;
		}
		sectors_push(&ex->q, child);
	}
}

/* Moves every queued sector of the largest error into t. */
static void dequeue_worst(struct explorer *ex, struct sectors *t)
{
	double worst = -1;

	for (int i = 0; i < ex->q.n; i++)
		worst = fmax(worst, ex->q.v[i].e);
	for (int i = 0; i < ex->q.n;) {
		if (ex->q.v[i].e == worst) {
			sectors_push(t, ex->q.v[i]);
			ex->q.v[i] = ex->q.v[--ex->q.n];
		} else {
			i++;
		}
	}
}

/* Evaluates and decides each sector of t (taken over); adds the judged errors to *sum, *cnt,
 * *max. Returns 0 or a MEASURE_ code. */
static int judge(struct explorer *ex, struct sectors *t, double *sum, int *cnt, double *max)
{
	int rc = 0;

	for (int s = 0; s < t->n; s++) {
		struct sector *sec = &t->v[s];
		int atomic = 1;

		if (rc == 0)
			rc = measure_sector_points(ex, sec);
		if (rc != 0 || sec->npts == 0) {
			sector_free(sec);
			continue;
		}
		sec->e = mean_error(ex, sec->pts, sec->npts);
		*sum += sec->e;
		*max = fmax(*max, sec->e);
		(*cnt)++;
		for (int j = 0; j < ex->d && atomic; j++)
			atomic = !halvable(ex, sec, j);
		if (atomic || ex->opt->validate == EXPLORE_RVS || sec->e > ex->opt->threshold) {
			log_decision(ex, sec, atomic ? EXPLORE_ATOMIC : EXPLORE_SPLIT);
			for (int k = 0; k < sec->npts; k++)
				add_train(ex, sec->pts[k]);
			if (!atomic)
				split(ex, sec);
			sector_free(sec);
		} else {
			log_decision(ex, sec, EXPLORE_VALIDATED);
			sectors_push(&ex->val, *sec);
		}
	}
	t->n = 0;
	return rc;
}

/* Re-checks V under the current model; adds the errors to *sum, *cnt, *max. */
static void recheck(struct explorer *ex, double *sum, int *cnt, double *max)
{
	for (int s = 0; s < ex->val.n;) {
		struct sector *sec = &ex->val.v[s];

		sec->e = mean_error(ex, sec->pts, sec->npts);
		*sum += sec->e;
		*max = fmax(*max, sec->e);
		(*cnt)++;
		if (sec->e > ex->opt->threshold) {
			log_decision(ex, sec, EXPLORE_REOPENED);
			sectors_push(&ex->q, *sec);
			ex->val.v[s] = ex->val.v[--ex->val.n];
		} else {
			s++;
		}
	}
}

/* The adaptive breakdowns, AEB and ARB. Returns 0 or MEASURE_FAILED. */
static int run_adaptive(struct explorer *ex)
{
	struct sectors t = {0};
	struct sector root = {xcalloc((size_t)ex->d, sizeof(double)), xmalloc(sizeof(double) * (size_t)ex->d),
			      INFINITY, NULL, 0};
	int rc = ex->opt->validate == EXPLORE_RVS ? measure_rvs(ex) : 0;

	for (int j = 0; j < ex->d; j++)
		root.hi[j] = 1;
	sectors_push(&ex->q, root);
	while (rc == 0 && ex->q.n > 0 && ex->res->iterations < EXPLORE_MAX_ITERATIONS) {
		double sum = 0, max = 0;
		int cnt = 0;

		ex->res->iterations++;
		dequeue_worst(ex, &t);
		for (int s = 0; s < t.n && rc == 0; s++)
			rc = measure_corners(ex, &t.v[s]);
		if (rc == 0 && fit(ex) < 0)
			rc = MEASURE_FAILED;
		if (rc == 0)
			rc = judge(ex, &t, &sum, &cnt, &max);
		if (rc == 0 && fit(ex) < 0)
			rc = MEASURE_FAILED;
		if (rc != 0)
			break;
		recheck(ex, &sum, &cnt, &max);
		switch (ex->opt->validate) {
		case EXPLORE_RVS: ex->res->validation_error = rvs_error(ex); break;
		case EXPLORE_DSL: ex->res->validation_error = max; break;
		case EXPLORE_DSG: ex->res->validation_error = cnt ? sum / cnt : 0; break;
		}
		if ((ex->opt->validate == EXPLORE_DSL && ex->q.n == 0) ||
		    (ex->opt->validate != EXPLORE_DSL && ex->res->validation_error <= ex->opt->threshold)) {
			ex->res->converged = 1;
			break;
		}
	}
	for (int s = 0; s < t.n; s++) /* sectors left unjudged when a measurement stopped us */
		sector_free(&t.v[s]);
	free(t.v);
	for (int s = 0; s < ex->val.n; s++) { /* V's points join M */
		for (int k = 0; k < ex->val.v[s].npts; k++)
			add_train(ex, ex->val.v[s].pts[k]);
	}
	if (rc != MEASURE_FAILED && fit(ex) < 0)
		rc = MEASURE_FAILED;
	return rc == MEASURE_BUDGET ? 0 : rc;
}

/* Measures the independent random set and fills res->test. Returns 0 or -1. */
static int test_model(struct explorer *ex)
{
	int n = ex->opt->test_points;
	double *u = xmalloc(sizeof *u * (size_t)ex->d), *pred = xmalloc(sizeof *pred * (size_t)(n + 1));
	double *y = xmalloc(sizeof *y * (size_t)(n + 1));
	uint64_t rng = ex->opt->seed ^ 0x7e57u;
	int rc = 0;

	for (int k = 0; k < n && rc == 0; k++) {
		int i;

		for (int j = 0; j < ex->d; j++)
			u[j] = infer_uniform(&rng);
		i = measure(ex, u, 0);
		if (i < 0) {
			rc = -1;
		} else {
			pred[k] = predict(ex, ex->v[i].u);
			y[k] = ex->v[i].y;
		}
	}
	if (rc == 0)
		explore_metrics_compute(pred, y, n, &ex->res->test);
	free(u);
	free(pred);
	free(y);
	return rc;
}

int explore_run(const struct space *s, const struct explore_options *opt, explore_measure_fn fn,
		void *ctx, struct explore_result *res, struct error *err)
{
	struct explorer ex = {0};
	int rc;

	memset(res, 0, sizeof *res);
	if (s->d < 1 || s->d > 16)
		return error_set(err, "the space has %d parameters: 1 to 16 can be explored", s->d);
	if (opt->select == EXPLORE_RB && opt->validate != EXPLORE_RVS)
		return error_set(err, "%s validation needs an adaptive selection (aeb or arb): random "
				 "breakdown has no sectors", explore_validate_name(opt->validate));
	ex.s = s;
	ex.opt = opt;
	ex.fn = fn;
	ex.ctx = ctx;
	ex.d = s->d;
	ex.rng = opt->seed;
	ex.res = res;
	ex.err = err;
	ex.lo = xmalloc(sizeof *ex.lo * (size_t)s->d);
	ex.hi = xmalloc(sizeof *ex.hi * (size_t)s->d);
	ex.names = xcalloc((size_t)s->d + 1, sizeof *ex.names);
	space_range(s, ex.lo, ex.hi);
	for (int j = 0; j < s->d; j++)
		ex.names[j] = s->v[j].name;
	rc = opt->select == EXPLORE_RB ? run_rb(&ex) : run_adaptive(&ex);
	res->points = ex.explored;
	if (rc == 0 && !res->model.model)
		rc = error_set(err, "no measurement fitted a model (--max-points %d is too small)", opt->max_points);
	if (rc == 0 && opt->test_points > 0)
		rc = test_model(&ex);
	else if (rc == 0)
		explore_metrics_compute(NULL, NULL, 0, &res->test);
	for (int i = 0; i < ex.n; i++)
		free(ex.v[i].u);
	free(ex.v);
	for (int k = 0; k < ex.q.n; k++)
		sector_free(&ex.q.v[k]);
	for (int k = 0; k < ex.val.n; k++)
		sector_free(&ex.val.v[k]);
	free(ex.q.v);
	free(ex.val.v);
	intvec_release(&ex.rvs);
	free(ex.lo);
	free(ex.hi);
	free(ex.names);
	if (rc < 0)
		explore_result_release(res);
	return rc < 0 ? -1 : 0;
}

void explore_result_release(struct explore_result *res)
{
	infer_release(&res->model);
	for (int k = 0; k < res->ndecisions; k++) {
		free(res->decisions[k].lo);
		free(res->decisions[k].hi);
	}
	free(res->decisions);
	memset(res, 0, sizeof *res);
}
