/*
 * model.c: the model generator's benchmark, for `make bench`: our LASSO path against
 * scikit-learn's and R glmnet's at matched accuracy, and the run time of the SPORE learners.
 *
 * For each size (n, p) it generates seeded program-like data: integer counts (Poisson-like and
 * Pareto heavy-tailed), a quarter constant columns, exact and affine copies (about half the
 * columns are constants or copies), a few noisy copies, and y a sparse polynomial (three linear
 * terms and one product) with 2-5% multiplicative noise. Then:
 *   - it times lasso_fit_path on the raw matrix (100 lambdas, lasso.c's default
 *     lambda_min_ratio; CPU seconds, median of REPEAT runs);
 *   - it writes the matrix and our lambda grid to a temporary file and runs REFDIR's scripts,
 *     scikit-learn's lasso_path and R glmnet, each at its default and at a sweep of tighter
 *     tolerances (so that one run lands near our accuracy) on one thread (OMP_NUM_THREADS=1, OPENBLAS_NUM_THREADS=1); each times only its path
 *     computation in CPU seconds (median of up to 3 runs while under 1 s in all) and prints
 *     its coefficients, which this program reads;
 *   - it evaluates every solver's solution at every lambda by the objective of lasso.h,
 *         1/(2n) RSS + lambda sum_j |beta_j| sd_j      (sd the population standard deviation),
 *     takes each solver's worst relative gap along the path to the best of all solvers at that
 *     lambda, and gives the reference/our time ratio at matched accuracy: for each tool, its run
 *     whose gap is closest to ours without being worse.
 * Then it times SPORE-LASSO and SPORE-FoBa with fit_options_default()'s settings on mantis's own
 * preprocessing (prep_fit, prep_design) of the same data, all rows, weights 1/y^2.
 *
 * usage: model [-r REPEAT] [-s SEED] [-c CAP] REFDIR [NxP ...]
 *   REPEAT  timed runs of our path (median; default 3)
 *   CAP     cap on the tight reference runs' iterations at the largest size (n*p >= 1.5e7), per
 *           lambda: sklearn's max_iter, glmnet's maxit = CAP * 100 passes over the path.
 *           Default none: on a 2-core EPYC those runs take about 12 s (sklearn) and 1.5 s (glmnet).
 *   NxP     sizes to run (default 300x126 300x1000 300x5000 3000x126 3000x1000 3000x5000)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "dataset.h"
#include "error.h"
#include "fit.h"
#include "inputs.h"
#include "lasso.h"
#include "learn.h"
#include "prep.h"
#include "runner.h"
#include "util.h"

#define NLAMBDA 100
#define MAXRUNS 8           /* runs of one reference tool: its default, then tighter tolerances */
#define NSOLVERS (1 + 2 * MAXRUNS) /* ours, then each tool's runs (unused slots stay empty) */
#define BIG_SIZE 15000000.0 /* n*p from which CAP applies to the tight reference runs */
#define TOOL_TIMEOUT 600.0  /* seconds of wall time one reference process may take */
#define GAP_FLOOR 1e-13     /* gaps below this are rounding of the objective: all equal */
#define FAR_BETTER 1e-2     /* a matched run this many times our gap or less is marked */

/* One problem size. */
struct size {
	int n, p;
};

/* The true model of generated data: y = 1 + sum c_t x_lin[t] / m_t + c3 x_a x_b / (m_a m_b). */
struct truth {
	int lin[3];   /* columns of the linear terms */
	int prod[2];  /* columns of the product term, ascending */
	double noise; /* standard deviation of the multiplicative noise */
};

/* One solver's path on the benchmark problem. */
struct solution {
	char name[32];  /* e.g. "sklearn 1e-4" */
	double seconds; /* CPU seconds of the path (median of runs) */
	int runs;       /* timed runs */
	int notconv;    /* lambdas the solver reported as not converged */
	int nl;         /* solutions returned: the first nl lambdas */
	long maxit;     /* iteration limit it ran with (0: ours) */
	double *a0;     /* NLAMBDA intercepts; owned */
	double *beta;   /* p*NLAMBDA coefficients in the units of x; owned */
	double *obj;    /* NLAMBDA objective values (NAN where not returned); owned */
	double gap;     /* worst relative objective gap along the path; NAN if it failed */
};

/* How to run one reference tool: program, script, and its default and tight settings. */
struct tool {
	const char *name;    /* as in the table */
	const char *program; /* interpreter */
	const char *script;  /* file name in REFDIR */
	int nruns;           /* tolerances run: the default first, the tightest last */
	const char *tol[MAXRUNS]; /* tolerances, as passed to the script */
	long maxit[2];       /* iteration limit of the default run, of the others */
};

/* Each tool runs at its default tolerance and a sweep of tighter ones, so that one of its runs
 * lands close to our accuracy: the time at matched accuracy is that run's, not a guess. */
static const struct tool tools[2] = {
	{"sklearn", "/usr/bin/python3", "lasso_sklearn.py", 4, {"1e-4", "1e-6", "1e-9", "1e-12"},
	 {1000, 100000}},
	{"glmnet", "Rscript", "lasso_glmnet.R", 7,
	 {"1e-7", "1e-8", "1e-9", "1e-10", "1e-11", "1e-12", "1e-14"}, {100000, 10000000}},
};

/* Returns the process's CPU seconds so far. */
static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Returns the next number of splitmix64 (as fit.c, so data are the same on every machine). */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Returns a uniform number in (0, 1). */
static double uniform(uint64_t *state)
{
	return ((double)(next_random(state) >> 11) + 0.5) * 0x1p-53;
}

/* Returns a standard normal number (Box-Muller). */
static double normal(uint64_t *state)
{
	double u = uniform(state), v = uniform(state);

	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* Returns a Poisson count of the mean (Knuth's product below 30, rounded normal above). */
static double poisson_count(uint64_t *state, double mean)
{
	double limit = exp(-mean), prod = uniform(state);
	int k = 0;

	if (mean >= 30)
		return fmax(0, round(mean + sqrt(mean) * normal(state)));
	while (prod > limit) {
		prod *= uniform(state);
		k++;
	}
	return k;
}

/* Returns a Pareto count floor(xm U^(-1/alpha)), heavy-tailed for small alpha. */
static double pareto_count(uint64_t *state, double xm, double alpha)
{
	return floor(xm * pow(uniform(state), -1 / alpha));
}

/* Returns the mean of column j of ds. */
static double column_mean(const struct dataset *ds, int j)
{
	const double *x = ds->x + (size_t)j * (size_t)ds->n;
	double s = 0;

	for (int i = 0; i < ds->n; i++)
		s += x[i];
	return s / ds->n;
}

/* The kinds of generated columns. */
enum kind { POISSON, PARETO, CONSTANT, EXACT_COPY, AFFINE_COPY, NOISY_COPY };

/* Returns p column kinds in a seeded random order: a quarter constant, an eighth exact and an
 * eighth affine copies, 2% (at least 2) noisy copies, and counts (2/3 Poisson, 1/3 Pareto).
 * The caller frees the array. */
static enum kind *plan_columns(int p, uint64_t *state)
{
	enum kind *kind = xmalloc(sizeof *kind * (size_t)p);
	int nconst = p / 4, nexact = p / 8, naffine = p / 8, nnoisy = p / 50 > 2 ? p / 50 : 2;

	for (int j = 0; j < p; j++) {
		int c = j - nconst - nexact - naffine - nnoisy;

		kind[j] = j < nconst ? CONSTANT : j < nconst + nexact ? EXACT_COPY
			: j < nconst + nexact + naffine ? AFFINE_COPY : c < 0 ? NOISY_COPY
			: c % 3 == 2 ? PARETO : POISSON;
	}
	for (int j = p - 1; j > 0; j--) {
		int i = (int)(next_random(state) % (uint64_t)(j + 1));
		enum kind t = kind[i];

		kind[i] = kind[j];
		kind[j] = t;
	}
	return kind;
}

/* Fills column x (n values) of the given count kind with fresh random parameters. */
static void fill_counts(double *x, int n, enum kind kind, uint64_t *state)
{
	double mean = exp(uniform(state) * log(1000.0)), xm = exp(uniform(state) * log(100.0));
	double alpha = 1.5 + 1.5 * uniform(state);

	for (int i = 0; i < n; i++)
		x[i] = kind == POISSON ? poisson_count(state, mean) : pareto_count(state, xm, alpha);
}

/* Fills derived column x (n values) from count column src by its kind. */
static void fill_derived(double *x, const double *src, int n, enum kind kind, uint64_t *state)
{
	static const double slope[] = {2, 4, 8, -1}, offset[] = {0, 1, 16, 4096};
	double b = slope[next_random(state) % 4], a = offset[next_random(state) % 4];
	double c = (double)(next_random(state) % 5000);

	for (int i = 0; i < n; i++) {
		x[i] = kind == CONSTANT ? c : kind == EXACT_COPY ? src[i] : kind == AFFINE_COPY
			? a + b * src[i] : src[i] + poisson_count(state, 0.05 * src[i] + 0.5);
	}
}

/* Returns a random count column among the p planned ones. */
static int random_count_column(const enum kind *kind, int p, uint64_t *state)
{
	for (;;) {
		int j = (int)(next_random(state) % (uint64_t)p);

		if (kind[j] == POISSON || kind[j] == PARETO)
			return j;
	}
}

/* Picks the true model's five distinct count columns and noise. */
static void pick_truth(struct truth *t, const enum kind *kind, int p, uint64_t *state)
{
	int cols[5];

	for (int k = 0; k < 5; k++) {
		int fresh;

		do {
			cols[k] = random_count_column(kind, p, state);
			fresh = 1;
			for (int i = 0; i < k; i++)
				fresh &= cols[i] != cols[k];
		} while (!fresh);
	}
	memcpy(t->lin, cols, sizeof t->lin);
	t->prod[0] = cols[3] < cols[4] ? cols[3] : cols[4];
	t->prod[1] = cols[3] < cols[4] ? cols[4] : cols[3];
	t->noise = 0.02 + 0.03 * uniform(state);
}

/* Fills ds->y from the true model with multiplicative noise. */
static void fill_response(struct dataset *ds, const struct truth *t, uint64_t *state)
{
	const double *xa = ds->x + (size_t)t->prod[0] * (size_t)ds->n;
	const double *xb = ds->x + (size_t)t->prod[1] * (size_t)ds->n;
	double c[4], m[3], mab = column_mean(ds, t->prod[0]) * column_mean(ds, t->prod[1]);

	for (int k = 0; k < 4; k++)
		c[k] = 1 + 2 * uniform(state);
	for (int k = 0; k < 3; k++)
		m[k] = column_mean(ds, t->lin[k]);
	for (int i = 0; i < ds->n; i++) {
		double y = 1 + c[3] * xa[i] * xb[i] / mab;

		for (int k = 0; k < 3; k++)
			y += c[k] * ds->x[(size_t)t->lin[k] * (size_t)ds->n + (size_t)i] / m[k];
		ds->y[i] = y * fmax(0.5, 1 + t->noise * normal(state));
	}
}

/* Generates the program-like dataset of size sz from the seed into *ds (released by the caller
 * with dataset_release) and its true model into *t. */
static void generate(struct dataset *ds, struct truth *t, struct size sz, uint64_t seed)
{
	uint64_t state = seed * 1000003u + (uint64_t)sz.n * 7919u + (uint64_t)sz.p;
	enum kind *kind = plan_columns(sz.p, &state);

	memset(ds, 0, sizeof *ds);
	ds->n = sz.n;
	ds->p = sz.p;
	ds->x = xmalloc(sizeof *ds->x * (size_t)sz.n * (size_t)sz.p);
	ds->y = xmalloc(sizeof *ds->y * (size_t)sz.n);
	ds->names = xmalloc(sizeof *ds->names * (size_t)sz.p);
	ds->metric = xstrdup("time");
	for (int j = 0; j < sz.p; j++) {
		ds->names[j] = xasprintf("x%d", j + 1);
		if (kind[j] == POISSON || kind[j] == PARETO)
			fill_counts(ds->x + (size_t)j * (size_t)sz.n, sz.n, kind[j], &state);
	}
	for (int j = 0; j < sz.p; j++) {
		int src = random_count_column(kind, sz.p, &state);

		if (kind[j] != POISSON && kind[j] != PARETO)
			fill_derived(ds->x + (size_t)j * (size_t)sz.n,
				     ds->x + (size_t)src * (size_t)sz.n, sz.n, kind[j], &state);
	}
	pick_truth(t, kind, sz.p, &state);
	fill_response(ds, t, &state);
	free(kind);
}

/* Runs our path repeat times; keeps the last in *path. Returns the median CPU seconds, or -1
 * with err set. */
static double time_ours(const struct dataset *ds, int repeat, struct lasso_path *path,
			struct error *err)
{
	struct lasso_options opt = {.nlambda = NLAMBDA};
	double t[64], start;

	for (int r = 0; r < repeat; r++) {
		if (r > 0)
			lasso_path_release(path);
		start = cpu_now();
		if (lasso_fit_path(ds->x, ds->y, ds->n, ds->p, &opt, path, err) < 0)
			return -1;
		t[r] = cpu_now() - start;
	}
	return median(t, repeat);
}

/* Writes the problem file of bench/ref's scripts: little-endian doubles n, p, L, the L
 * lambdas, x column-major, y. Returns 0 or -1 with err set. */
static int write_problem(const char *file, const struct dataset *ds, const double *lambda,
			 int nl, struct error *err)
{
	double head[3] = {ds->n, ds->p, nl};
	size_t nx = (size_t)ds->n * (size_t)ds->p;
	FILE *f = fopen(file, "wb");
	int ok;

	if (!f)
		return error_errno(err, "%s", file);
	ok = fwrite(head, sizeof *head, 3, f) == 3 &&
	     fwrite(lambda, sizeof *lambda, (size_t)nl, f) == (size_t)nl &&
	     fwrite(ds->x, sizeof *ds->x, nx, f) == nx &&
	     fwrite(ds->y, sizeof *ds->y, (size_t)ds->n, f) == (size_t)ds->n;
	if (fclose(f) != 0 || !ok)
		return error_errno(err, "writing %s", file);
	return 0;
}

/* Sets up an empty solution named name for p columns. */
static void solution_init(struct solution *s, const char *name, int p)
{
	memset(s, 0, sizeof *s);
	snprintf(s->name, sizeof s->name, "%s", name);
	s->a0 = xcalloc(NLAMBDA, sizeof *s->a0);
	s->beta = xcalloc((size_t)p * NLAMBDA, sizeof *s->beta);
	s->obj = xcalloc(NLAMBDA, sizeof *s->obj);
	s->gap = NAN;
}

static void solution_release(struct solution *s)
{
	free(s->a0);
	free(s->beta);
	free(s->obj);
	memset(s, 0, sizeof *s);
}

/* Reads a tool's output (see bench/ref) into sol[0..nruns); version receives the tool's
 * version. Returns the number of runs read. */
static int parse_output(const char *file, int p, struct solution *sol, int nruns, char *version,
			size_t vsize)
{
	FILE *f = fopen(file, "r");
	char *line = NULL, word[64];
	size_t cap = 0;
	int k = -1, l, j;
	double v;

	if (!f)
		return 0;
	while (getline(&line, &cap, f) > 0) {
		if (sscanf(line, "tool %*s %63s", word) == 1) {
			snprintf(version, vsize, "%s", word);
		} else if (strncmp(line, "run ", 4) == 0 && k < nruns - 1) {
			k++;
			sscanf(line, "run %lf %d %d", &sol[k].seconds, &sol[k].runs, &sol[k].notconv);
		} else if (k >= 0 && sscanf(line, "a0 %d %lf", &l, &v) == 2 && l >= 0 && l < NLAMBDA) {
			sol[k].a0[l] = v;
			sol[k].nl = l + 1 > sol[k].nl ? l + 1 : sol[k].nl;
		} else if (k >= 0 && sscanf(line, "b %d %d %lf", &l, &j, &v) == 3 && l >= 0 &&
			   l < NLAMBDA && j >= 0 && j < p) {
			sol[k].beta[(size_t)l * (size_t)p + (size_t)j] = v;
		}
	}
	free(line);
	fclose(f);
	return k + 1;
}

/* Prints the last lines of a failed tool's stderr file. */
static void show_stderr(const char *file)
{
	char buf[4096];
	FILE *f = fopen(file, "r");
	size_t got;

	if (!f)
		return;
	fseek(f, 0, SEEK_END);
	fseek(f, ftell(f) > (long)sizeof buf - 1 ? -(long)sizeof buf + 1 : 0, SEEK_END);
	got = fread(buf, 1, sizeof buf - 1, f);
	buf[got] = 0;
	fprintf(stderr, "%s", buf);
	fclose(f);
}

/* Runs tool tl on the problem file (in folder dir) at each of its tolerances into
 * sol[0..tl->nruns) for p columns; the tighter runs' iteration limit is capped at cap if nonzero
 * (per lambda: glmnet's limit counts passes over the whole path, so it gets cap * NLAMBDA).
 * Returns 0, or -1 if the tool failed. */
static int run_tool(const struct tool *tl, const char *refdir, const char *dir,
		    const char *problem, int p, long cap, struct solution *sol, char *version,
		    size_t vsize)
{
	char *script = xasprintf("%s/%s", refdir, tl->script), maxit[MAXRUNS][32];
	char *out = xasprintf("%s/%s.out", dir, tl->name);
	char *errf = xasprintf("%s/%s.err", dir, tl->name);
	char *argv[2 + 2 * MAXRUNS + 1] = {script, (char *)problem};
	struct input in = {0, script, 2 + 2 * tl->nruns, argv, NULL};
	struct run_options ro = {.timeout = TOOL_TIMEOUT, .stdout_path = out, .stderr_path = errf};
	struct run_result res = {0};
	struct error err = {""};
	int rc = -1;

	for (int k = 0; k < tl->nruns; k++) {
		long capped = strcmp(tl->name, "glmnet") == 0 ? cap * NLAMBDA : cap;

		sol[k].maxit = k > 0 && cap > 0 && capped < tl->maxit[1] ? capped : tl->maxit[k > 0];
		snprintf(maxit[k], sizeof maxit[k], "%ld", sol[k].maxit);
		argv[2 + 2 * k] = (char *)tl->tol[k];
		argv[3 + 2 * k] = maxit[k];
	}
	if (runner_run(tl->program, &in, &ro, &res, &err) < 0)
		fprintf(stderr, "model: %s: %s\n", tl->name, err.msg);
	else if (res.status != RUN_OK)
		fprintf(stderr, "model: %s: %s\n", tl->name, runner_status_name(res.status));
	else if (parse_output(out, p, sol, tl->nruns, version, vsize) != tl->nruns)
		fprintf(stderr, "model: %s: output incomplete\n", tl->name);
	else
		rc = 0;
	if (rc < 0)
		show_stderr(errf);
	free(res.scratch);
	remove(out);
	remove(errf);
	free(script);
	free(out);
	free(errf);
	return rc;
}

/* Fills sd[0..p) with the population standard deviations of ds's columns. */
static void column_sds(const struct dataset *ds, double *sd)
{
	for (int j = 0; j < ds->p; j++) {
		const double *x = ds->x + (size_t)j * (size_t)ds->n;
		double mean = column_mean(ds, j), ss = 0;

		for (int i = 0; i < ds->n; i++)
			ss += (x[i] - mean) * (x[i] - mean);
		sd[j] = sqrt(ss / ds->n);
	}
}

/* Returns lasso.h's objective 1/(2n) RSS + lambda sum_j |beta_j| sd_j of (a0, beta) on ds;
 * fit is n scratch values. */
static double objective(const struct dataset *ds, const double *sd, double lambda, double a0,
			const double *beta, double *fit)
{
	double rss = 0, pen = 0;

	for (int i = 0; i < ds->n; i++)
		fit[i] = a0;
	for (int j = 0; j < ds->p; j++) {
		const double *x = ds->x + (size_t)j * (size_t)ds->n;

		if (beta[j] == 0)
			continue;
		pen += fabs(beta[j]) * sd[j];
		for (int i = 0; i < ds->n; i++)
			fit[i] += beta[j] * x[i];
	}
	for (int i = 0; i < ds->n; i++)
		rss += (ds->y[i] - fit[i]) * (ds->y[i] - fit[i]);
	return rss / (2.0 * ds->n) + lambda * pen;
}

/* Evaluates every solver's objective along the path and sets each one's worst relative gap to
 * the best solver at each lambda (over the lambdas it returned; NAN if it failed). */
static void compute_gaps(struct solution *sol, const struct dataset *ds, const double *lambda)
{
	double *sd = xmalloc(sizeof *sd * (size_t)ds->p), *fit = xmalloc(sizeof *fit * (size_t)ds->n);

	column_sds(ds, sd);
	for (int s = 0; s < NSOLVERS; s++) {
		for (int l = 0; l < NLAMBDA; l++) {
			sol[s].obj[l] = l >= sol[s].nl ? NAN
				: objective(ds, sd, lambda[l], sol[s].a0[l],
					    sol[s].beta + (size_t)l * (size_t)ds->p, fit);
		}
	}
	for (int s = 0; s < NSOLVERS; s++)
		sol[s].gap = sol[s].nl > 0 ? 0 : NAN;
	for (int l = 0; l < NLAMBDA; l++) {
		double best = INFINITY;

		for (int s = 0; s < NSOLVERS; s++)
			best = l < sol[s].nl ? fmin(best, sol[s].obj[l]) : best;
		for (int s = 0; s < NSOLVERS; s++) {
			if (l < sol[s].nl)
				sol[s].gap = fmax(sol[s].gap, (sol[s].obj[l] - best) / best);
		}
	}
	free(sd);
	free(fit);
}

/* Returns the index k of the run of ref[0..nruns) whose gap is closest to ours without being
 * worse (a complete path; the faster on a tie; gaps under GAP_FLOOR count as equal), or -1 if
 * none reached our gap. */
static int matched_run(const struct solution *ours, const struct solution *ref, int nruns)
{
	int pick = -1;

	for (int k = 0; k < nruns; k++) {
		if (ref[k].nl < NLAMBDA || !(ref[k].gap <= fmax(ours->gap, GAP_FLOOR)))
			continue;
		if (pick < 0 || ref[k].gap > ref[pick].gap ||
		    (ref[k].gap == ref[pick].gap && ref[k].seconds < ref[pick].seconds))
			pick = k;
	}
	return pick;
}

/* Prints the machine and the date, as bench/run does. */
static void print_machine(void)
{
	struct utsname u;
	char model[256] = "unknown CPU", *line = NULL;
	size_t cap = 0;
	double load[3] = {0, 0, 0};
	time_t now = time(NULL);
	char date[64];
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && getline(&line, &cap, f) > 0) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) == 0 && colon) {
			snprintf(model, sizeof model, "%s", colon + 1 + strspn(colon + 1, " \t"));
			model[strcspn(model, "\n")] = 0;
			break;
		}
	}
	if (f)
		fclose(f);
	free(line);
	f = fopen("/proc/loadavg", "r");
	if (f && fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3)
		load[0] = load[1] = load[2] = NAN;
	if (f)
		fclose(f);
	uname(&u);
	strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
	printf("machine: %s %s %s, %s, %ld cores\n", u.sysname, u.release, u.machine, model,
	       sysconf(_SC_NPROCESSORS_ONLN));
	printf("date:    %s, load average %.2f %.2f %.2f\n\n", date, load[0], load[1], load[2]);
}

/* Prints one solver's seconds and gap, starred if it did not converge everywhere. */
static void print_cell(const struct solution *s)
{
	char mark = s->notconv > 0 || s->nl < NLAMBDA ? '*' : ' ';

	if (isnan(s->gap))
		printf("  %8s %8s ", "failed", "");
	else
		printf("  %8.3f %8.1e%c", s->seconds, s->gap, mark);
}

/* Prints the matched-accuracy ratio of one tool's runs ref[0..2) against ours. */
/* Prints one tool's run matched to our accuracy (its tolerance, seconds, gap) and the ratio of
 * its time to ours. */
static void print_ratio(const struct solution *ours, const struct solution *ref,
			const struct tool *tl)
{
	int k = matched_run(ours, ref, tl->nruns);

	if (k < 0) {
		printf("  %-29s", "none reached our gap");
		return;
	}
	printf("  %-6s %7.3f %7.1e %5.1f%s", tl->tol[k], ref[k].seconds, ref[k].gap,
	       ref[k].seconds / ours->seconds,
	       ref[k].gap < FAR_BETTER * ours->gap && ours->gap > GAP_FLOOR ? "^" : " ");
}

static void print_lasso_header(void)
{
	printf("LASSO path on the raw matrix, 100 lambdas (our grid), 1 thread; CPU seconds and worst "
	       "relative objective gap\nalong the path to the best solver at each lambda (below %.0e: "
	       "rounding). Each reference runs at its default\ntolerance and a sweep of tighter ones "
	       "(sklearn %s..%s, glmnet %s..%s; default and tightest shown); \"matched\"\nis "
	       "its run whose gap is closest to ours but not worse, and ratio = its seconds / ours; "
	       "^ = that run is\nover %.0fx more accurate than ours, so the ratio favours us. * = "
	       "did not converge at every lambda.\n", GAP_FLOOR, tools[0].tol[0],
	       tools[0].tol[tools[0].nruns - 1], tools[1].tol[0], tools[1].tol[tools[1].nruns - 1],
	       1 / FAR_BETTER);
	printf("%-11s  %-18s", "", "  mantis 1e-9");
	for (int t = 0; t < 2; t++) {
		char head[2][32];

		snprintf(head[0], sizeof head[0], "  %s %s", tools[t].name, tools[t].tol[0]);
		snprintf(head[1], sizeof head[1], "  %s %s", tools[t].name,
			 tools[t].tol[tools[t].nruns - 1]);
		printf(" %-18s %-18s", head[0], head[1]);
	}
	printf("  %-29s  %s\n", "sklearn matched", "glmnet matched");
	printf("%5s %5s ", "n", "p");
	for (int s = 0; s < 5; s++)
		printf("  %8s %8s ", "s", "gap");
	for (int t = 0; t < 2; t++)
		printf("  %-6s %7s %7s %5s ", "tol", "s", "gap", "ratio");
	printf("\n");
	fflush(stdout);
}

/* Prints notes on runs that did not converge everywhere or ran capped. */
static void print_notes(const struct solution *sol, struct size sz, long cap)
{
	for (int s = 1; s < NSOLVERS; s++) {
		const struct tool *tl = &tools[(s - 1) / MAXRUNS];
		int tight = (s - 1) % MAXRUNS > 0;

		if ((s - 1) % MAXRUNS >= tl->nruns)
			continue;
		if (sol[s].notconv == 0 && sol[s].nl == NLAMBDA &&
		    !(tight && cap > 0 && sol[s].maxit < tl->maxit[1]))
			continue;
		printf("      note (%d, %d) %s: %s%ld%s", sz.n, sz.p, sol[s].name,
		       tight && sol[s].maxit < tl->maxit[1] ? "iterations capped at " : "iteration limit ",
		       sol[s].maxit, strcmp(tl->name, "glmnet") == 0 ? " passes over the path"
								       : " per lambda");
		if (sol[s].notconv > 0 || sol[s].nl < NLAMBDA)
			printf("; %d of %d lambdas not converged", sol[s].notconv, NLAMBDA);
		printf("\n");
	}
}

/* The temporary folder and reference versions shared by all sizes. */
struct context {
	const char *refdir; /* absolute folder of the reference scripts */
	char *tmpdir;       /* scratch folder for the problem file and outputs; owned */
	int repeat;         /* timed runs of our path */
	uint64_t seed;      /* data seed */
	long cap;           /* tight-run iteration cap at the largest size (0: none) */
	char version[2][32];/* versions the tools reported */
	double worst_glmnet;/* worst gap of glmnet's tight runs over all sizes */
};

/* Benchmarks the LASSO path at one size and prints its row. Returns 0, or -1 if something
 * failed (the row is printed as far as it got). */
static int bench_lasso(struct context *cx, struct size sz)
{
	struct solution sol[NSOLVERS];
	const struct solution *glmnet = sol + 1 + MAXRUNS;
	struct lasso_path path;
	struct dataset ds;
	struct truth truth;
	struct error err = {""};
	char *problem = xasprintf("%s/problem.bin", cx->tmpdir);
	long cap = (double)sz.n * sz.p >= BIG_SIZE ? cx->cap : 0;
	int rc = 0;

	generate(&ds, &truth, sz, cx->seed);
	solution_init(&sol[0], "mantis", sz.p);
	for (int s = 1; s < NSOLVERS; s++) {
		const struct tool *tl = &tools[(s - 1) / MAXRUNS];
		int k = (s - 1) % MAXRUNS;
		char name[32];

		snprintf(name, sizeof name, "%s %s", tl->name, k < tl->nruns ? tl->tol[k] : "-");
		solution_init(&sol[s], name, sz.p);
	}
	sol[0].seconds = time_ours(&ds, cx->repeat, &path, &err);
	if (sol[0].seconds < 0) {
		fprintf(stderr, "model: (%d, %d): %s\n", sz.n, sz.p, err.msg);
		rc = -1;
	} else {
		sol[0].nl = path.nlambda;
		sol[0].runs = cx->repeat;
		memcpy(sol[0].a0, path.a0, sizeof *path.a0 * (size_t)path.nlambda);
		memcpy(sol[0].beta, path.beta, sizeof *path.beta * (size_t)sz.p * (size_t)path.nlambda);
	}
	if (rc == 0 && write_problem(problem, &ds, path.lambda, path.nlambda, &err) < 0) {
		fprintf(stderr, "model: %s\n", err.msg);
		rc = -1;
	}
	for (int t = 0; rc == 0 && t < 2; t++) {
		struct solution *runs = sol + 1 + MAXRUNS * t;

		if (run_tool(&tools[t], cx->refdir, cx->tmpdir, problem, sz.p, cap, runs,
			     cx->version[t], sizeof cx->version[t]) < 0) {
			rc = -1;
			for (int k = 0; k < MAXRUNS; k++)
				runs[k].nl = 0;
		}
	}
	remove(problem);
	if (sol[0].nl > 0) {
		compute_gaps(sol, &ds, path.lambda);
		cx->worst_glmnet = fmax(cx->worst_glmnet, glmnet[tools[1].nruns - 1].gap);
	}
	printf("%5d %5d ", sz.n, sz.p);
	print_cell(&sol[0]);
	for (int t = 0; t < 2; t++) {
		print_cell(&sol[1 + MAXRUNS * t]);
		print_cell(&sol[MAXRUNS * t + tools[t].nruns]);
	}
	for (int t = 0; t < 2; t++)
		print_ratio(&sol[0], sol + 1 + MAXRUNS * t, &tools[t]);
	printf("\n");
	print_notes(sol, sz, cap);
	fflush(stdout);
	if (sol[0].nl > 0)
		lasso_path_release(&path);
	for (int s = 0; s < NSOLVERS; s++)
		solution_release(&sol[s]);
	dataset_release(&ds);
	free(problem);
	return rc;
}

/* Returns whether res has the monomial of design columns a (and b if b >= 0). */
static int has_term(const struct learn_result *res, int a, int b)
{
	for (int t = 0; t < res->nterms; t++) {
		const struct monomial *m = &res->terms[t];

		if (b < 0 && m->nf == 1 && m->feat[0] == a && m->pow[0] == 1)
			return 1;
		if (b >= 0 && m->nf == 2 && m->feat[0] == (a < b ? a : b) &&
		    m->feat[1] == (a < b ? b : a) && m->pow[0] == 1 && m->pow[1] == 1)
			return 1;
	}
	return 0;
}

/* Returns the design column that stands for dataset column j after preprocessing, or -1. */
static int design_column(const struct prep *pr, int j)
{
	int rep = pr->status[j] == PREP_ALIAS ? pr->rep[j] : j;

	for (int c = 0; c < pr->k; c++) {
		if (pr->kept[c] == rep)
			return c;
	}
	return -1;
}

/* Returns how many of the 4 true terms res found. */
static int true_terms_found(const struct learn_result *res, const struct prep *pr,
			    const struct truth *t)
{
	int found = has_term(res, design_column(pr, t->prod[0]), design_column(pr, t->prod[1]));

	for (int k = 0; k < 3; k++)
		found += has_term(res, design_column(pr, t->lin[k]), -1);
	return found;
}

/* Times one SPORE learner (spore_foba: which) on pb: runs up to repeat times while the runs so
 * far took under a second. Returns the median CPU seconds, or -1 with err set; *res holds the
 * last result (released by the caller). */
static double time_spore(const struct learn_problem *pb, const struct learn_options *lo,
			 int spore_foba, int repeat, struct learn_result *res, struct error *err)
{
	double t[64], total = 0;
	int runs = 0;

	while (runs < repeat && (runs == 0 || total < 1.0)) {
		double start = cpu_now();
		int rc;

		if (runs > 0)
			learn_result_release(res);
		rc = spore_foba ? learn_foba(pb, lo, 1, res, err) : learn_spore_lasso(pb, lo, res, err);
		if (rc < 0)
			return -1;
		t[runs] = cpu_now() - start;
		total += t[runs++];
	}
	return median(t, runs);
}

/* Benchmarks the SPORE learners at one size and prints its row. Returns 0 or -1. */
static int bench_spore(const struct context *cx, struct size sz)
{
	struct fit_options fo = fit_options_default();
	struct learn_options lo = {.degree = fo.degree, .epsilon = fo.epsilon, .nu = 0.5,
				   .max_features = fo.max_features, .max_terms = fo.max_terms};
	struct dataset ds;
	struct truth truth;
	struct prep pr;
	struct error err = {""};
	int *rows = xmalloc(sizeof *rows * (size_t)sz.n), rc = 0;
	double *design, *w = xmalloc(sizeof *w * (size_t)sz.n), start, prep_s;

	generate(&ds, &truth, sz, cx->seed);
	for (int i = 0; i < sz.n; i++) {
		rows[i] = i;
		w[i] = fo.relative ? 1 / (ds.y[i] * ds.y[i]) : 1;
	}
	start = cpu_now();
	if (prep_fit(&pr, &ds, rows, sz.n, NULL, 0, &err) < 0) {
		fprintf(stderr, "model: (%d, %d): %s\n", sz.n, sz.p, err.msg);
		free(rows);
		free(w);
		dataset_release(&ds);
		return -1;
	}
	design = xmalloc(sizeof *design * (size_t)sz.n * (size_t)(pr.k ? pr.k : 1));
	prep_design(&pr, &ds, rows, sz.n, design);
	prep_s = cpu_now() - start;
	printf("%5d %5d %6d %8.3f", sz.n, sz.p, pr.k, prep_s);
	for (int foba = 0; foba < 2; foba++) {
		struct learn_problem pb = {sz.n, pr.k, design, ds.y, w};
		struct learn_result res;
		double s = time_spore(&pb, &lo, foba, cx->repeat, &res, &err);

		if (s < 0) {
			printf("  %10s %5s %4s", "failed", "", "");
			fprintf(stderr, "model: (%d, %d): %s\n", sz.n, sz.p, err.msg);
			rc = -1;
			continue;
		}
		printf("  %10.3f %5d %3d/4", s, res.nterms, true_terms_found(&res, &pr, &truth));
		learn_result_release(&res);
	}
	printf("\n");
	fflush(stdout);
	prep_release(&pr);
	free(design);
	free(rows);
	free(w);
	dataset_release(&ds);
	return rc;
}

/* Parses "NxP" into *sz. Returns 0 or -1. */
static int parse_size(const char *s, struct size *sz)
{
	char end;

	if (sscanf(s, "%dx%d%c", &sz->n, &sz->p, &end) != 2 || sz->n < 3 || sz->p < 8)
		return -1;
	return 0;
}

/* Runs both tables over sizes[0..nsizes). Returns the exit status. */
static int run_all(struct context *cx, const struct size *sizes, int nsizes)
{
	int status = 0;
	double start = cpu_now();
	time_t wall = time(NULL);

	print_machine();
	print_lasso_header();
	for (int i = 0; i < nsizes; i++)
		status |= bench_lasso(cx, sizes[i]) < 0;
	printf("references: scikit-learn %s (lasso_path), glmnet %s (R); lasso.c's objective for "
	       "all. glmnet's tight runs are within %.1e\nof the best at every lambda: glmnet "
	       "standardize=TRUE %s the same objective.\n\n", cx->version[0], cx->version[1],
	       cx->worst_glmnet, cx->worst_glmnet < 1e-6 ? "minimises" : "does NOT minimise");
	printf("SPORE learners on mantis's preprocessing (all rows; degree 3, epsilon 1e-4, at most "
	       "5 features and 20 terms,\nweights 1/y^2; CPU seconds, median of up to %d runs while "
	       "under 1 s in all; true = true terms found of 4)\n", cx->repeat);
	printf("%5s %5s %6s %8s  %10s %5s %5s  %10s %5s %5s\n", "n", "p", "kept", "prep s",
	       "SPORE-LASSO", "terms", "true", "SPORE-FoBa", "terms", "true");
	for (int i = 0; i < nsizes; i++)
		status |= bench_spore(cx, sizes[i]) < 0;
	printf("\nmodel bench: %.0f s wall, %.0f s CPU in this process\n",
	       difftime(time(NULL), wall), cpu_now() - start);
	return status;
}

int main(int argc, char **argv)
{
	static const struct size all[] = {{300, 126}, {300, 1000}, {300, 5000},
					  {3000, 126}, {3000, 1000}, {3000, 5000}};
	struct context cx = {.repeat = 3, .seed = 1, .cap = 0};
	struct size sizes[16];
	int nsizes = 0, opt, status;
	char *refdir;

	while ((opt = getopt(argc, argv, "r:s:c:")) != -1) {
		if (opt == 'r')
			cx.repeat = atoi(optarg);
		else if (opt == 's')
			cx.seed = strtoull(optarg, NULL, 10);
		else if (opt == 'c')
			cx.cap = atol(optarg);
		else
			goto usage;
	}
	if (cx.repeat < 1 || cx.repeat > 64 || cx.cap < 0)
		goto usage;
	if (argc - optind < 1 || argc - optind - 1 > 16)
		goto usage;
	for (int i = optind + 1; i < argc; i++) {
		if (parse_size(argv[i], &sizes[nsizes++]) < 0)
			goto usage;
	}
	if (nsizes == 0) {
		memcpy(sizes, all, sizeof all);
		nsizes = (int)(sizeof all / sizeof *all);
	}
	refdir = realpath(argv[optind], NULL);
	cx.tmpdir = xasprintf("%s/mantis-model-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!refdir || !mkdtemp(cx.tmpdir)) {
		perror(refdir ? cx.tmpdir : argv[optind]);
		return 1;
	}
	cx.refdir = refdir;
	setenv("OMP_NUM_THREADS", "1", 1);
	setenv("OPENBLAS_NUM_THREADS", "1", 1);
	setenv("MKL_NUM_THREADS", "1", 1);
	status = run_all(&cx, sizes, nsizes);
	rmdir(cx.tmpdir);
	free(cx.tmpdir);
	free(refdir);
	return status;
usage:
	fprintf(stderr, "usage: model [-r REPEAT] [-s SEED] [-c CAP] REFDIR [NxP ...]\n");
	return 2;
}
