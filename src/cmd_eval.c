/*
 * cmd_eval.c: "mantis eval PRED --inputs FILE": how good a predictor is on inputs it was not
 * trained on, measured as the ATC'13 paper does (section 6): per input the actual metric A
 * (the median of K runs of the original program; the exact count of the instrumented build for
 * instructions) against the prediction E; the mean relative error |A-E|/A, its median and
 * maximum, the shares below 15% and 30% (LT15, LT30), and the prediction cost: the mean over
 * inputs of the predictor's time over the program's. Beside it the noise floor: the mean
 * relative difference between two independent measurements of A (each the median of K runs,
 * interleaved), the error a perfect model would still show on this machine.
 */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blackbox.h"
#include "cli.h"
#include "error.h"
#include "inputs.h"
#include "model.h"
#include "predictor.h"
#include "runner.h"
#include "store.h"
#include "util.h"

/* What eval measured on one input. */
struct sample {
	int line;          /* its line in the inputs file */
	int ok;            /* 1 if both the program and the predictor ran */
	double actual;     /* A: the metric, median of the first K runs (or the exact count) */
	double again;      /* a second measurement of A (median of the other K runs) */
	double predicted;  /* E */
	double baseline;   /* the black-box baseline's prediction (with --baselines) */
	double cost;       /* predictor wall / program wall */
	int warned;        /* a feature was outside its training range */
	char *why;         /* why it is not ok; owned */
};

/* Summary statistics over the ok samples. */
struct summary {
	int n, failed, warned;          /* ok samples, failed ones, ones with range warnings */
	double mre, median_re, max_re;  /* relative errors |A-E|/A */
	double lt15, lt30;              /* shares of errors below 15% and 30% */
	double cost;                    /* mean predictor cost */
	double noise;                   /* mean |A - again| / A */
	double bb_mre, bb_median, bb_lt30;  /* the black-box baseline's errors (with --baselines) */
};

/*
 * Runs the program (PRED/build/orig) 2*reps times interleaved on in, and for instructions
 * PRED/build/inst once. Fills s->actual, s->again and *wall (median wall). Returns 0, or -1
 * with s->why set.
 */
static int measure_actual(const struct predictor *p, const struct input *in, int reps,
			  double timeout, struct sample *s, double *wall)
{
	char *orig = xasprintf("%s/build/orig", p->dir), *inst = xasprintf("%s/build/inst", p->dir);
	double a[2][64], walls[64];
	const char *metric = p->info.metric;
	struct run_options ro = {.timeout = timeout};
	struct error err = {""};
	int rc = 0;

	for (int r = 0; r < 2 * reps && rc == 0; r++) {
		struct run_result res;

		if (runner_run(orig, in, &ro, &res, &err) < 0 || res.status != RUN_OK) {
			s->why = xasprintf("the program %s", err.msg[0] ? err.msg
								 : runner_status_name(res.status));
			rc = -1;
			break;
		}
		a[r % 2][r / 2] = strcmp(metric, "cpu") == 0 ? res.user + res.sys
				  : strcmp(metric, "user") == 0 ? res.user
				  : strcmp(metric, "sys") == 0 ? res.sys
				  : strcmp(metric, "maxrss") == 0 ? (double)res.maxrss_kb : res.wall;
		if (r % 2 == 0)
			walls[r / 2] = res.wall;
	}
	if (rc == 0) {
		*wall = median(walls, reps);
		s->actual = median(a[0], reps);
		s->again = median(a[1], reps);
	}
	if (rc == 0 && strcmp(metric, "instructions") == 0) {
		int total = manifest_find(&p->m, "bycount:(program):-:0:total");
		struct run_result res;
		uint64_t *c = NULL;

		if (total < 0 || predictor_measure(inst, in, 0, &p->m, &res, &c, NULL, &err) < 0 ||
		    res.status != RUN_OK || !c) {
			s->why = xasprintf("no instruction count: %s", err.msg[0] ? err.msg
							: "the instrumented program failed");
			rc = -1;
		} else {
			s->actual = s->again = feature_value(&p->m.v[total], c);
		}
		free(c);
	}
	free(orig);
	free(inst);
	return rc;
}

/*
 * Fits the black-box baseline on the training inputs (train.json's inputs file, matched with
 * the profile's complete inputs by line, their metric as the profile recorded it). Returns 0
 * with *model filled, or -1 with err set.
 */
static int fit_baseline(const struct predictor *p, struct model *model, struct error *err)
{
	char *log_path = xasprintf("%s/train.json", p->dir), *db = xasprintf("%s/build/profile.db", p->dir);
	json_t *log = json_load_file(log_path, 0, NULL);
	const char *inputs_path = json_string_value(json_object_get(log, "inputs"));
	struct store_samples samples = {0};
	struct inputs ins = {0};
	struct store st;
	const struct input **in = NULL;
	int rc = -1, excluded, n = 0;
	double *y = NULL;

	if (!inputs_path) {
		error_set(err, "%s: no training inputs recorded", log_path);
		goto out;
	}
	if (inputs_load(&ins, inputs_path, err) < 0 || store_open(&st, db, 0, err) < 0)
		goto out;
	rc = store_load_samples(&st, &p->m, p->info.metric, &samples, &excluded, err);
	store_close(&st);
	if (rc < 0)
		goto out;
	in = xcalloc((size_t)samples.n + 1, sizeof *in);
	y = xcalloc((size_t)samples.n + 1, sizeof *y);
	for (int k = 0; k < samples.n; k++) {
		for (int i = 0; i < ins.n; i++) {
			if (ins.v[i].line == samples.line[k]) {
				in[n] = &ins.v[i];
				y[n++] = samples.metric[k];
				break;
			}
		}
	}
	rc = blackbox_fit(in, y, n, p->info.metric, model, err);
out:
	free(in);
	free(y);
	store_samples_release(&samples);
	inputs_release(&ins);
	json_decref(log);
	free(log_path);
	free(db);
	return rc;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void summarize(const struct sample *v, int n, struct summary *out)
{
	double *re = xcalloc((size_t)n + 1, sizeof *re);

	double *bb = xcalloc((size_t)n + 1, sizeof *bb);
	int nbb = 0;

	memset(out, 0, sizeof *out);
	for (int i = 0; i < n; i++) {
		double e;

		if (!v[i].ok) {
			out->failed++;
			continue;
		}
		bb[nbb] = fabs(v[i].actual - v[i].baseline) / fabs(v[i].actual);
		out->bb_mre += bb[nbb] / n;
		out->bb_lt30 += (bb[nbb++] < 0.30);
		e = fabs(v[i].actual - v[i].predicted) / fabs(v[i].actual);
		re[out->n++] = e;
		out->mre += e;
		out->lt15 += e < 0.15;
		out->lt30 += e < 0.30;
		out->cost += v[i].cost;
		out->noise += fabs(v[i].actual - v[i].again) / fabs(v[i].actual);
		out->warned += v[i].warned;
	}
	if (out->n) {
		qsort(re, (size_t)out->n, sizeof *re, by_value);
		out->median_re = out->n % 2 ? re[out->n / 2] : (re[out->n / 2 - 1] + re[out->n / 2]) / 2;
		out->max_re = re[out->n - 1];
		out->mre /= out->n;
		out->lt15 /= out->n;
		out->lt30 /= out->n;
		out->cost /= out->n;
		out->noise /= out->n;
		qsort(bb, (size_t)nbb, sizeof *bb, by_value);
		out->bb_median = nbb % 2 ? bb[nbb / 2] : (bb[nbb / 2 - 1] + bb[nbb / 2]) / 2;
		out->bb_mre *= (double)n / nbb;
		out->bb_lt30 /= nbb;
	}
	free(re);
	free(bb);
}

static void print_json(const struct predictor *p, const struct summary *s,
		       const struct sample *v, int n, int baselines)
{
	json_t *root = json_object(), *failures = json_array();

	for (int i = 0; i < n; i++) {
		if (!v[i].ok)
			json_array_append_new(failures, json_pack("{s:i, s:s}", "line", v[i].line,
								  "reason", v[i].why));
	}
	json_object_set_new(root, "metric", json_string(p->info.metric));
	json_object_set_new(root, "n", json_integer(s->n));
	json_object_set_new(root, "mre", json_real(s->mre));
	json_object_set_new(root, "median_re", json_real(s->median_re));
	json_object_set_new(root, "max_re", json_real(s->max_re));
	json_object_set_new(root, "lt15", json_real(s->lt15));
	json_object_set_new(root, "lt30", json_real(s->lt30));
	json_object_set_new(root, "predict_cost", json_real(s->cost));
	json_object_set_new(root, "noise_floor", json_real(s->noise));
	json_object_set_new(root, "out_of_range", json_integer(s->warned));
	json_object_set_new(root, "failed", failures);
	json_object_set_new(root, "baselines", baselines
				? json_pack("{s:{s:f, s:f, s:f}}", "blackbox", "mre", s->bb_mre,
					    "median_re", s->bb_median, "lt30", s->bb_lt30)
				: json_object());
	json_dumpf(root, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(6));
	putchar('\n');
	json_decref(root);
}

static void print_text(const struct predictor *p, const struct summary *s,
		       const struct sample *v, int n, int baselines)
{
	printf("%d inputs, %s: mean relative error %.2f%% (median %.2f%%, max %.2f%%), "
	       "LT15 %.0f%%, LT30 %.0f%%\n", s->n, p->info.metric, 100 * s->mre, 100 * s->median_re,
	       100 * s->max_re, 100 * s->lt15, 100 * s->lt30);
	printf("noise floor %.2f%% (two measurements of the actual value)\n", 100 * s->noise);
	printf("prediction cost %.2f%% of the program's time\n", 100 * s->cost);
	if (baselines)
		printf("black-box baseline (arguments, file sizes): mean relative error %.2f%% (median "
		       "%.2f%%), LT30 %.0f%%\n", 100 * s->bb_mre, 100 * s->bb_median, 100 * s->bb_lt30);
	if (s->warned)
		printf("%d input%s had a feature outside its training range\n", s->warned,
		       s->warned == 1 ? "" : "s");
	for (int i = 0; i < n; i++) {
		if (!v[i].ok)
			printf("input line %d: no comparison: %s\n", v[i].line, v[i].why);
	}
}

static int run_eval(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"inputs", required_argument, NULL, 'i'}, {"json", no_argument, NULL, 'j'},
		{"repeat", required_argument, NULL, 'r'}, {"budget", required_argument, NULL, 'b'},
		{"timeout", required_argument, NULL, 't'}, {"baselines", no_argument, NULL, 'B'},
		{NULL, 0, NULL, 0},
	};
	const char *inputs_path = NULL;
	double budget = 60, timeout = 0;
	int json = 0, reps = 3, opt, baselines = 0;
	struct model bb = {0};
	struct predictor p;
	struct inputs ins;
	struct sample *v;
	struct summary sum;
	struct error err = {""};

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i': inputs_path = optarg; break;
		case 'j': json = 1; break;
		case 'r': reps = atoi(optarg); break;
		case 'b': budget = atof(optarg); break;
		case 't': timeout = atof(optarg); break;
		case 'B': baselines = 1; break;
		default: usage_error(&cmd_eval, "unknown option or missing value '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		usage_error(&cmd_eval, "give one predictor directory (made by mantis train)");
	if (!inputs_path)
		usage_error(&cmd_eval, "no inputs (--inputs FILE)");
	if (reps < 1 || reps > 64)
		usage_error(&cmd_eval, "--repeat must be 1 to 64");
	if (!(budget > 0) || timeout < 0)
		usage_error(&cmd_eval, "--budget must be positive and --timeout not negative");
	if (predictor_open(&p, argv[optind], &err) < 0 || inputs_load(&ins, inputs_path, &err) < 0)
		die("%s", err.msg);
	if (baselines && fit_baseline(&p, &bb, &err) < 0)
		die("the black-box baseline: %s", err.msg);
	v = xcalloc((size_t)ins.n + 1, sizeof *v);
	for (int k = 0; k < ins.n; k++) {
		struct prediction pr;
		double wall;

		v[k].line = ins.v[k].line;
		if (measure_actual(&p, &ins.v[k], reps, timeout, &v[k], &wall) < 0)
			continue;
		if (predictor_run(&p, &ins.v[k], budget, &pr, &err) < 0) {
			v[k].why = xasprintf("no prediction: %s", err.msg);
			continue;
		}
		v[k].ok = fabs(v[k].actual) > 0;
		if (!v[k].ok)
			v[k].why = xstrdup("the actual value is 0");
		v[k].predicted = pr.value;
		v[k].baseline = baselines ? blackbox_predict(&bb, &ins.v[k]) : 0;
		v[k].cost = pr.seconds / (wall > 1e-6 ? wall : 1e-6);
		v[k].warned = pr.warning != NULL;
		prediction_release(&pr);
		if (isatty(2))
			fprintf(stderr, "\reval: %d/%d inputs", k + 1, ins.n);
	}
	if (isatty(2) && ins.n)
		fprintf(stderr, "\n");
	summarize(v, ins.n, &sum);
	if (json)
		print_json(&p, &sum, v, ins.n, baselines);
	else
		print_text(&p, &sum, v, ins.n, baselines);
	for (int k = 0; k < ins.n; k++)
		free(v[k].why);
	free(v);
	inputs_release(&ins);
	predictor_release(&p);
	model_release(&bb);
	return sum.n > 0 ? EXIT_OK : EXIT_FAILED;
}

const struct command cmd_eval = {
	.name = "eval",
	.summary = "measure a predictor's error and cost on inputs, beside the noise floor",
	.usage =
		"usage: mantis eval PRED --inputs FILE [--json] [--repeat K] [--budget S]\n"
		"                   [--timeout S] [--baselines]\n"
		"\n"
		"Runs the program and the predictor (mantis train made PRED) on every input and compares\n"
		"the actual metric A (the median of K runs of the original program; for instructions\n"
		"the exact count of the instrumented build) with the prediction E. Prints the mean\n"
		"relative error |A-E|/A, its median and maximum, LT15 and LT30 (the shares of inputs\n"
		"predicted within 15% and 30%), the prediction cost (the mean of predictor time over\n"
		"program time) and the noise floor: the mean relative difference between two\n"
		"independent measurements of A, each the median of K runs (interleaved). An input the\n"
		"program or the predictor fails on is listed, not counted.\n"
		"\n"
		"  --inputs FILE  the inputs (held out from training, for an honest figure)\n"
		"  --repeat K     runs of the program per measurement (default 3; 2K runs in all)\n"
		"  --budget S     the predictor's time budget per input (default 60)\n"
		"  --timeout S    kill a run of the program after S seconds (default: never)\n"
		"  --baselines    also the black-box baseline: SPORE-FoBa over the arguments' numeric\n"
		"                 values and the sizes of the files they name (and stdin's), fitted on\n"
		"                 the training inputs (train.json's inputs file and the profile)\n"
		"  --json         print {\"metric\", \"n\", \"mre\", \"median_re\", \"max_re\", \"lt15\",\n"
		"                 \"lt30\", \"predict_cost\", \"noise_floor\", \"out_of_range\",\n"
		"                 \"failed\": [{\"line\", \"reason\"}], \"baselines\": {\"blackbox\":\n"
		"                 {\"mre\", \"median_re\", \"lt30\"}} (empty without --baselines)}\n",
	.run = run_eval,
};
