/*
 * bench/explore.c: Westermann et al.'s comparison (004_ section 6, Tables 1 and 2) on our
 * implementation: every selection x validation x inference combination explores a parameter
 * space to a 10% threshold, then its model is measured on an independent random set.
 *
 *   usage: explore [--synthetic-only | --programs-only] BUILD    (from the source tree)
 *
 * Cases (the functions are documented here and in bench/RESULTS.md):
 *   erp   2-D, after the paper's ERP case (360 points): users 60:150, wp 3:6 (integers);
 *         response = 0.2 + 0.8 exp(3 (users / (30 wp) - 1)) seconds.
 *   jvm   5-D, after the paper's JVM case (3240 points): heap 300:950:25, gc serial|parallel|cms,
 *         biased bool, survivor 10:42:8, newgen 10:40:10;
 *         throughput = base[gc] (1 - exp(-(heap - 200) / scale[gc])) (biased ? 1.08 : 1)
 *                      (1 - 0.0004 (survivor - 26)^2) (1 + 0.01 newgen - k[gc] 0.0002 newgen^2)
 *         with base 9000, 12000, 10500; scale 150, 300, 220; k 2, 1, 1.
 *   chess      examples/chess: -d depth (1:4) [-a] (bool) on one of 6 generated positions
 *              (enumerated); instructions (exact) of a bycount build, through the profile store.
 *   ringtone   examples/ringtone: -s start (0.0:60.0) -l length (1.0:60.0) -b kbps (16:320:8)
 *              on a generated clip; instructions.
 * The programs' cases run twice, fitting the metric and then its logarithm (--log): their
 * instruction counts span two to three orders of magnitude. Each case prints a table: MP
 * (and its share of the space when finite), MRE, HE, LT15, LT30 in percent on the independent
 * set (100 points; 50 for the programs) and the CPU seconds spent building models. Random breakdown has no sectors, so it is paired with RVS only. The five best
 * and worst combinations are marked by the mean of their ranks on the five metrics (each lower
 * is better: MP, MRE, HE, 100 - LT15, 100 - LT30), ties by MRE, as the paper ranks by "a combined
 * consideration of these five metrics".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "explore.h"
#include "infer.h"
#include "measure.h"
#include "space.h"
#include "util.h"

/* One combination's figures. */
struct row {
	char name[48];   /* "AEB DSG MARS" */
	int points;      /* MP */
	double mre, he, lt15, lt30, seconds;
	double score;    /* mean rank */
	int converged;
};

/* A synthetic case's measuring context. */
struct synth {
	const struct space *s;
	double (*f)(const double *x);
};

/* Returns the ERP response time at (users, wp). */
static double erp(const double *x)
{
	return 0.2 + 0.8 * exp(3 * (x[0] / (30 * x[1]) - 1));
}

/* Returns the JVM throughput at (heap, gc, biased, survivor, newgen). */
static double jvm(const double *x)
{
	static const double base[] = {9000, 12000, 10500}, scale[] = {150, 300, 220}, k[] = {2, 1, 1};
	int gc = (int)x[1];

	return base[gc] * (1 - exp(-(x[0] - 200) / scale[gc])) * (x[2] > 0.5 ? 1.08 : 1) *
	       (1 - 0.0004 * (x[3] - 26) * (x[3] - 26)) * (1 + 0.01 * x[4] - k[gc] * 0.0002 * x[4] * x[4]);
}

/* The explore callback of a synthetic case: the function at the point's natural values. */
static int measure_synth(void *ctx, const double *u, double *y, struct error *err)
{
	struct synth *sy = ctx;
	double x[16];

	(void)err;
	for (int j = 0; j < sy->s->d; j++)
		x[j] = space_value(sy->s, j, u[j]);
	*y = sy->f(x);
	return 0;
}

/* qsort order of doubles, ascending. */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Adds to each row's score its rank (1-based, ties averaged) on metric k. */
static void add_ranks(struct row *rows, int n, int k)
{
	double *v = xmalloc(sizeof *v * (size_t)n), *sorted = xmalloc(sizeof *sorted * (size_t)n);

	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];

		v[i] = k == 0 ? r->points : k == 1 ? r->mre : k == 2 ? r->he : k == 3 ? -r->lt15 : -r->lt30;
		if (isnan(v[i]))
			v[i] = INFINITY;
		sorted[i] = v[i];
	}
	qsort(sorted, (size_t)n, sizeof *sorted, cmp_double);
	for (int i = 0; i < n; i++) {
		int first = -1, last = -1;

		for (int j = 0; j < n; j++) {
			if (sorted[j] == v[i]) {
				if (first < 0)
					first = j;
				last = j;
			}
		}
		rows[i].score += (first + last) / 2.0 + 1;
	}
	free(v);
	free(sorted);
}

static const struct row *sort_rows;

/* qsort order of row indices by mean rank, then MRE. */
static int cmp_rank(const void *a, const void *b)
{
	const struct row *x = &sort_rows[*(const int *)a], *y = &sort_rows[*(const int *)b];

	if (x->score != y->score)
		return x->score < y->score ? -1 : 1;
	return x->mre < y->mre ? -1 : x->mre > y->mre;
}

/* Copies src upper-cased into dst. */
static void upper(char *dst, const char *src)
{
	while ((*dst++ = (char)(*src >= 'a' && *src <= 'z' ? *src - 32 : *src)))
		src++;
}

/* Runs every combination on the space and prints the table. */
static int run_case(const char *title, const struct space *s, explore_measure_fn fn, void *ctx,
		    int test_points, int max_points, int logfit)
{
	const struct learner *const *learners = infer_learners();
	struct row rows[128];
	int n = 0, order[128], rank[128];
	double size = space_size(s);
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int sel = EXPLORE_RB; sel <= EXPLORE_ARB; sel++) {
		for (int val = EXPLORE_RVS; val <= EXPLORE_DSG; val++) {
			if (sel == EXPLORE_RB && val != EXPLORE_RVS)
				continue;
			for (int l = 0; learners[l]; l++) {
				struct explore_options o = explore_options_default();
				struct explore_result r;
				struct error err = {""};
				struct row *row = &rows[n];
				char a[8], b[8], c[16];

				o.select = (enum explore_select)sel;
				o.validate = (enum explore_validate)val;
				o.learner = learners[l];
				o.test_points = test_points;
				o.max_points = max_points;
				o.infer.log = logfit;
				if (explore_run(s, &o, fn, ctx, &r, &err) < 0) {
					fprintf(stderr, "explore: %s: %s\n", title, err.msg);
					return -1;
				}
				upper(a, explore_select_name(o.select));
				upper(b, explore_validate_name(o.validate));
				upper(c, learners[l]->name);
				snprintf(row->name, sizeof row->name, "%s %s %s", a, b, c);
				row->points = r.points;
				row->mre = 100 * r.test.mre;
				row->he = 100 * r.test.he;
				row->lt15 = 100 * r.test.lt15;
				row->lt30 = 100 * r.test.lt30;
				row->seconds = r.model_seconds;
				row->converged = r.converged;
				row->score = 0;
				order[n] = n;
				n++;
				explore_result_release(&r);
			}
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (int k = 0; k < 5; k++)
		add_ranks(rows, n, k);
	for (int i = 0; i < n; i++)
		rows[i].score /= 5;
	sort_rows = rows;
	qsort(order, (size_t)n, sizeof *order, cmp_rank);
	for (int i = 0; i < n; i++)
		rank[order[i]] = i;
	printf("### %s%s\n\n", title, logfit ? ", fitted in log" : "");
	if (size > 0)
		printf("Space: %.0f points. ", size);
	printf("Threshold 10%%%s; independent test set: %d random points; %.1f s for the %d combinations.\n\n",
	       max_points ? "" : ", no budget", test_points, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9, n);
	if (max_points)
		printf("Budget: %d points (a combination that reaches it is marked *).\n\n", max_points);
	printf("| combination | MP | MRE %% | HE %% | LT15 %% | LT30 %% | model s | rank |\n");
	printf("|---|---:|---:|---:|---:|---:|---:|---|\n");
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		char mp[32], mark[32] = "";

		if (size > 0)
			snprintf(mp, sizeof mp, "%d (%.0f%%)%s", r->points, 100 * r->points / size, r->converged ? "" : "*");
		else
			snprintf(mp, sizeof mp, "%d%s", r->points, r->converged ? "" : "*");
		if (rank[i] < 5)
			snprintf(mark, sizeof mark, "**best %d**", rank[i] + 1);
		else if (rank[i] >= n - 5)
			snprintf(mark, sizeof mark, "*worst %d*", n - rank[i]);
		printf("| %s | %s | %.1f | %.1f | %.1f | %.1f | %.3f | %s |\n", r->name, mp, r->mre, r->he,
		       r->lt15, r->lt30, r->seconds, mark);
	}
	printf("\n");
	fflush(stdout);
	return 0;
}

/* Adds a parameter or exits naming it. */
static void add(struct space *s, const char *spec)
{
	struct error err = {""};

	if (space_add(s, spec, &err) < 0) {
		fprintf(stderr, "explore: %s\n", err.msg);
		exit(1);
	}
}

/* Runs the two synthetic cases. Returns 0 or -1. */
static int synthetic(void)
{
	struct space erp_space = {0}, jvm_space = {0};
	struct synth a = {&erp_space, erp}, b = {&jvm_space, jvm};
	int rc;

	add(&erp_space, "users=60:150");
	add(&erp_space, "wp=3:6");
	add(&jvm_space, "heap=300:950:25");
	add(&jvm_space, "gc=serial,parallel,cms");
	add(&jvm_space, "biased=bool");
	add(&jvm_space, "survivor=10:42:8");
	add(&jvm_space, "newgen=10:40:10");
	printf("## mantis explore\n\n");
	rc = run_case("erp: 2-D synthetic (users, work processes)", &erp_space, measure_synth, &a, 100, 0, 0);
	if (rc == 0)
		rc = run_case("jvm: 5-D synthetic (heap, gc enumerated, biased boolean, survivor, newgen)",
			      &jvm_space, measure_synth, &b, 100, 500, 0);
	space_release(&erp_space);
	space_release(&jvm_space);
	return rc;
}

/* Builds an example with the bycount scheme and generates its inputs into work/NAME. */
static int prepare(const char *build, const char *top, const char *name, const char *work, int ngen)
{
	char *dir = xasprintf("%s/%s", work, name), *inst = xasprintf("%s/build", dir);
	char *mantis = xasprintf("%s/mantis", build), *gen = xasprintf("%s/examples/%s/gen", build, name);
	char *n = xasprintf("%d", ngen), *data = xasprintf("%s/data", dir), *src = xasprintf("%s/examples/%s/src", top, name);
	char *cmd = xasprintf("cd %s && %s instrument --schemes bycount -o %s *.c -lm > /dev/null", src, mantis, inst);
	struct error err = {""};
	int rc = 0;

	mkdir(work, 0777);
	mkdir(dir, 0777);
	if (access(inst, F_OK) != 0 && system(cmd) != 0)
		rc = error_set(&err, "cannot instrument %s", name);
	if (rc == 0 && access(data, F_OK) != 0 &&
	    run_command((char *[]){gen, "-n", n, "-s", "1", "-o", data, NULL}, "/tmp/explore-gen.out", &err) < 0)
		rc = -1;
	if (rc < 0)
		fprintf(stderr, "explore: %s\n", err.msg);
	free(dir);
	free(inst);
	free(mantis);
	free(gen);
	free(n);
	free(data);
	free(src);
	free(cmd);
	return rc;
}

/* Explores an example program through measure.c. */
static int program_case(const char *title, const char *work, const char *name, char **params, int np,
			char **words, int nwords, int max_points, int logfit)
{
	struct space s = {0};
	struct measure_options mo = {0};
	struct measure me;
	struct error err = {""};
	char *dir = xasprintf("%s/%s/build", work, name);
	int rc;

	for (int i = 0; i < np; i++)
		add(&s, params[i]);
	mo.program = dir;
	mo.words = words;
	mo.nwords = nwords;
	mo.metric = "instructions";
	mo.repeat = 1;
	if (measure_open(&me, &s, &mo, &err) < 0) {
		fprintf(stderr, "explore: %s\n", err.msg);
		return -1;
	}
	rc = run_case(title, &s, measure_point, &me, 50, max_points, logfit);
	printf("(%d runs of %s made, %d points found in its store)\n\n", me.runs, name, me.reused_points);
	measure_close(&me);
	space_release(&s);
	free(dir);
	return rc;
}

/* Prepares chess and ringtone and runs their cases. Returns 0 or -1. */
static int programs(const char *build, const char *top)
{
	char *work = xasprintf("%s/bench/explore-data", build), *pos = xasprintf("%s/chess/data", work);
	char *clip = xasprintf("%s/ringtone/data/clip00.wav", work), *posword = xasprintf("%s/{pos}", pos);
	char *chess_params[] = {"depth=1:4", "ab=bool:-a", "pos=pos_000.fen,pos_001.fen,pos_002.fen,pos_003.fen,pos_004.fen,pos_005.fen"};
	char *chess_words[] = {"-d", "{depth}", "{ab}", posword};
	char *ring_params[] = {"start=0.0:60.0", "length=1.0:60.0", "kbps=16:320:8"};
	char *ring_words[] = {"-s", "{start}", "-l", "{length}", "-b", "{kbps}", clip, "{tmp}/out.rng"};
	int rc = prepare(build, top, "chess", work, 6);

	if (rc == 0)
		rc = prepare(build, top, "ringtone", work, 1);
	for (int logfit = 0; logfit < 2; logfit++) { /* instruction counts span orders of magnitude */
		if (rc == 0)
			rc = program_case("chess: depth (1:4), alpha-beta (boolean), position (6, enumerated); "
					  "instructions", work, "chess", chess_params, 3, chess_words, 4, 0, logfit);
		if (rc == 0)
			rc = program_case("ringtone: start (0:60 s), length (1:60 s), kbps (16:320:8); instructions",
					  work, "ringtone", ring_params, 3, ring_words, 8, 300, logfit);
	}
	free(work);
	free(pos);
	free(clip);
	free(posword);
	return rc;
}

/* Prints the tables of every case; exits 1 if one failed. */
int main(int argc, char **argv)
{
	const char *only = argc == 3 ? argv[1] : "";
	char top[4096], *build = argc > 1 ? realpath(argv[argc - 1], NULL) : NULL;
	int rc = 0;

	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(only, "--synthetic-only") && strcmp(only, "--programs-only")) || !build) {
		fprintf(stderr, "usage: explore [--synthetic-only | --programs-only] BUILD  (run from the source tree)\n");
		return 2;
	}
	if (!getcwd(top, sizeof top))
		return 1;
	if (strcmp(only, "--programs-only") != 0)
		rc = synthetic();
	if (rc == 0 && strcmp(only, "--synthetic-only") != 0)
		rc = programs(build, top);
	free(build);
	return rc < 0 ? 1 : 0;
}
