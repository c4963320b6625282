/*
 * selectsim.c: replays mantis train --select adaptive (select.c) offline on a pool profiled in
 * full, to compare selection rules without profiling again. With the exact instruction count as
 * the metric, the replay sees what the profiler would have recorded, so select_round makes the
 * decisions it makes inside train.
 *
 *   usage: selectsim BUILDDIR POOL_INPUTS TEST_DB [MAX [TARGET [DRAWS [SUBPOOLS]]]]
 *
 * BUILDDIR is a train's PRED/build whose profile.db holds every input of POOL_INPUTS (bench/select
 * leaves one in select-EXAMPLE/all/build); TEST_DB the held-out inputs profiled with the same
 * build (mantis profile BUILDDIR --inputs TEST --db TEST_DB --metric instructions --repeat 1).
 * Prints select's rounds and the inputs chosen, then the test MRE of the model train
 * fits first (SPORE-FoBa over every feature, what the selection validates) on all pool inputs,
 * on the adaptive choice (at most MAX, default half the pool; TARGET default 0.1) and on the first
 * as many inputs of DRAWS (default 20) random orders of the pool (their mean, lowest, highest);
 * each round's line starts with the test MRE of the model fitted on the inputs chosen so far.
 * With SUBPOOLS, the same again on that many random pools of about 80% of the inputs (MAX half
 * of each), and the means. SELECTSIM_FIT=FILE restricts the model the selection validates to
 * the features FILE names (one a line; e.g. a final model's), SELECTSIM_TEST=FILE the model
 * the test MREs are of.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "error.h"
#include "fit.h"
#include "inputs.h"
#include "manifest.h"
#include "model.h"
#include "select.h"
#include "store.h"
#include "util.h"

/* Loads db's complete inputs (instructions, bycount features dropped) and their lines. */
static void load(const char *db, const struct manifest *m, struct dataset *ds, int **line)
{
	struct store st;
	struct store_samples s = {0};
	struct error err = {""};
	int excluded;

	if (store_open(&st, db, 0, &err) < 0 || store_load(&st, m, "instructions", ds, &excluded, &err) < 0 ||
	    store_load_samples(&st, m, "instructions", &s, &excluded, &err) < 0) {
		fprintf(stderr, "selectsim: %s: %s\n", db, err.msg);
		exit(1);
	}
	store_close(&st);
	dataset_drop_prefix(ds, "bycount:");
	*line = xmalloc(sizeof **line * (size_t)(s.n + 1));
	memcpy(*line, s.line, sizeof **line * (size_t)s.n);
	store_samples_release(&s);
}

/* Returns the rows of full whose input (input[r]: row r's, -1 if none) is chosen, *k of them;
 * owned by the caller. */
static int *rows_of(const struct dataset *full, const int *input, const unsigned char *chosen, int *k)
{
	int *rows = xmalloc(sizeof *rows * (size_t)(full->n + 1));

	*k = 0;
	for (int r = 0; r < full->n; r++) {
		if (input[r] >= 0 && chosen[input[r]])
			rows[(*k)++] = r;
	}
	return rows;
}

/* Returns the test MRE of the model fitted on the chosen inputs (1 if none can be). */
static double test_error(const struct dataset *full, const int *input, const unsigned char *chosen,
			 const struct dataset *test, const struct fit_options *fo)
{
	struct dataset part;
	struct model model;
	struct prep prep;
	struct error err = {""};
	int k, *rows = rows_of(full, input, chosen, &k);
	double mre = 1;

	dataset_subset(full, rows, k, &part);
	if (fit_model(&part, fo, &model, &prep, &err) == 0) {
		int *all = xmalloc(sizeof *all * (size_t)(test->n + 1));

		for (int r = 0; r < test->n; r++)
			all[r] = r;
		mre = fit_mre(&model, test, all, test->n);
		free(all);
		model_release(&model);
		prep_release(&prep);
	}
	dataset_release(&part);
	free(rows);
	return mre;
}

/* Leaves out of fo every feature of full not named in the file path (one name a line), if any. */
static void only(struct fit_options *fo, const struct dataset *full, const char *path)
{
	struct error err = {""};
	char *text, *lines;

	if (!path)
		return;
	text = read_file(path, NULL, "", &err);
	lines = xasprintf("\n%s\n", text ? text : "");
	fo->exclude = xcalloc((size_t)full->p + 1, sizeof *fo->exclude);
	fo->nexclude = 0;
	for (int j = 0; j < full->p; j++) {
		char *want = xasprintf("\n%s\n", full->names[j]);

		if (!strstr(lines, want))
			fo->exclude[fo->nexclude++] = full->names[j];
		free(want);
	}
	printf("%s: %d of %d features left out\n", path, fo->nexclude, full->p);
	free(lines);
	free(text);
}

/* The results of one replay. */
struct replay {
	int chosen;      /* inputs the selection profiled */
	double all;      /* test MRE of the model on every pool input */
	double adaptive; /* ... on the inputs chosen */
	double random;   /* ... on as many random inputs, mean over the draws */
	double lo, hi;   /* ... the lowest and highest of those */
};

/* Replays the selection on the pool ins (line[r]: the pool line of full's row r). */
static struct replay replay(const struct select_options *so, const struct fit_options *eval,
			    const struct inputs *ins,
			    const struct dataset *full, const int *line, const struct dataset *test,
			    int draws, int verbose)
{
	struct replay out = {0, 0, 0, 0, INFINITY, 0};
	int *input = xmalloc(sizeof *input * (size_t)(full->n + 1)), p, max = so->max;
	unsigned char *chosen = xcalloc((size_t)ins->n + 1, 1), *some = xmalloc((size_t)ins->n + 1);
	double *x = select_descriptors(ins, &p);

	for (int r = 0; r < full->n; r++) {
		input[r] = -1;
		for (int i = 0; i < ins->n && input[r] < 0; i++) {
			if (ins->v[i].line == line[r])
				input[r] = i;
		}
	}
	select_spread(x, ins->n, p, so->initial < max ? so->initial : max, chosen);
	for (int round = 1, more = 1; more; round++) {
		struct dataset ds;
		int k, *rows = rows_of(full, input, chosen, &k), *pool = xmalloc(sizeof *pool * (size_t)(k + 1));

		for (int r = 0; r < k; r++)
			pool[r] = input[rows[r]];
		dataset_subset(full, rows, k, &ds);
		if (verbose) {
			double e = test_error(full, input, chosen, test, eval);

			printf("test MRE %5.1f%%  ", 100 * e);
		}
		more = select_round(so, x, ins->n, p, &ds, pool, round, chosen) > 0;
		dataset_release(&ds);
		free(rows);
		free(pool);
	}
	if (verbose) {
		printf("chosen lines:");
		for (int i = 0; i < ins->n; i++) {
			if (chosen[i])
				printf(" %d", ins->v[i].line);
		}
		printf("\n");
	}
	for (int i = 0; i < ins->n; i++)
		out.chosen += chosen[i];
	memset(some, 1, (size_t)ins->n);
	out.all = test_error(full, input, some, test, eval);
	out.adaptive = test_error(full, input, chosen, test, eval);
	for (int d = 0; d < draws; d++) {
		int *order = xmalloc(sizeof *order * (size_t)ins->n);
		double e;

		for (int i = 0; i < ins->n; i++)
			order[i] = i;
		for (int i = ins->n - 1; i > 0; i--) {
			int j = rand() % (i + 1), t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
		memset(some, 0, (size_t)ins->n);
		for (int i = 0; i < out.chosen; i++)
			some[order[i]] = 1;
		e = test_error(full, input, some, test, eval);
		out.random += e / draws;
		out.lo = fmin(out.lo, e);
		out.hi = fmax(out.hi, e);
		free(order);
	}
	free(chosen);
	free(some);
	free(x);
	free(input);
	return out;
}

int main(int argc, char **argv)
{
	struct manifest m;
	struct inputs ins = {0};
	struct dataset full = {0}, test = {0};
	struct error err = {""};
	struct fit_options fo = fit_options_default(), eval;
	struct select_options so = {0.1, 10, 5, 0, "instructions", NULL, stdout, 0};
	int *line, *tline, draws = argc > 6 ? atoi(argv[6]) : 20, subpools = argc > 7 ? atoi(argv[7]) : 0;
	struct replay r, sum = {0};
	char *path;

	if (argc < 4) {
		fprintf(stderr, "usage: selectsim BUILDDIR POOL_INPUTS TEST_DB [MAX [TARGET [DRAWS [SUBPOOLS]]]]\n");
		return 2;
	}
	path = xasprintf("%s/features.json", argv[1]);
	if (manifest_read(&m, path, &err) < 0 || inputs_load(&ins, argv[2], &err) < 0) {
		fprintf(stderr, "selectsim: %s\n", err.msg);
		return 1;
	}
	free(path);
	fo.train_frac = 1;
	so.fit = &fo;
	so.max = argc > 4 ? atoi(argv[4]) : ins.n / 2;
	so.target = argc > 5 ? atof(argv[5]) : 0.1;
	path = xasprintf("%s/profile.db", argv[1]);
	load(path, &m, &full, &line);
	free(path);
	load(argv[3], &m, &test, &tline);
	only(&fo, &full, getenv("SELECTSIM_FIT"));
	eval = fo;
	only(&eval, &full, getenv("SELECTSIM_TEST"));
	srand(1);
	r = replay(&so, &eval, &ins, &full, line, &test, draws, 1);
	printf("all %d:      test MRE %5.1f%%\nadaptive %d: test MRE %5.1f%%\n", ins.n, 100 * r.all, r.chosen,
	       100 * r.adaptive);
	printf("random %d (%d draws): test MRE mean %5.1f%%, lowest %.1f%%, highest %.1f%%\n", r.chosen,
	       draws, 100 * r.random, 100 * r.lo, 100 * r.hi);
	so.log = NULL;
	for (int s = 0; s < subpools; s++) { /* SUBPOOLS random pools of 80% of the inputs */
		struct inputs sub = ins;
		int k = 0;

		sub.v = xmalloc(sizeof *sub.v * (size_t)ins.n);
		for (int i = 0; i < ins.n; i++) {
			if (rand() % 5)
				sub.v[k++] = ins.v[i];
		}
		sub.n = k;
		so.max = k / 2;
		r = replay(&so, &eval, &sub, &full, line, &test, draws, 0);
		printf("subpool %d of %d: all %.1f%%, adaptive %d %.1f%%, random %.1f%%\n", s + 1, k, 100 * r.all,
		       r.chosen, 100 * r.adaptive, 100 * r.random);
		sum.all += r.all / subpools;
		sum.adaptive += r.adaptive / subpools;
		sum.random += r.random / subpools;
		sum.chosen += r.chosen;
		free(sub.v);
	}
	if (subpools)
		printf("subpools: all %.1f%%, adaptive %.1f%% (%.1f inputs), random %.1f%%\n", 100 * sum.all,
		       100 * sum.adaptive, (double)sum.chosen / subpools, 100 * sum.random);
	if (eval.exclude != fo.exclude)
		free(eval.exclude);
	free(fo.exclude);
	free(line);
	free(tline);
	dataset_release(&full);
	dataset_release(&test);
	inputs_release(&ins);
	manifest_release(&m);
	return 0;
}
