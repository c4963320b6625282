/*
 * cmd_eval.c: "mantis eval PRED --inputs FILE": how good a predictor is on inputs it was not
 * trained on, measured as the ATC'13 paper does (section 6): per input the actual metric A
 * (the median of K runs of the original program; the exact count of the instrumented build for
 * instructions) against the prediction E; the mean relative error |A-E|/A, its median and
 * maximum, the shares below 15% and 30% (LT15, LT30), and the prediction cost: the mean over
 * inputs of the predictor's time over the program's, beside the share of it that is the
 * evaluator's process start-up alone (the floor no evaluator goes below). Beside them the
 * noise floor: the mean relative difference between two independent measurements of A (each
 * the median of K runs; the second made after every input's first, minutes later, so that
 * it sees the machine's speed wander as a prediction made now of a run made later does), the
 * error a perfect model would still show on this machine. For a time, the machine's drift
 * (drift.c): a few training inputs re-timed every N inputs against their profiled time; each
 * input gets the factor interpolated between the checks around it, and the error is also
 * given with each prediction multiplied by its factor, which tells the model's error from the
 * machine's change since training.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "baseline.h"
#include "blackbox.h"
#include "cli.h"
#include "drift.h"
#include "error.h"
#include "evaldb.h"
#include "inputs.h"
#include "model.h"
#include "predictor.h"
#include "runner.h"
#include "sampler.h"
#include "solib.h"
#include "store.h"
#include "util.h"

/* Names of the predictions, as JSON keys and in text. */
static const char *const predictor_key[NPREDICTORS] = {
	"mantis", "linear", "partial_execution", "bounded_execution", "blackbox",
};
static const char *const predictor_title[NPREDICTORS] = {
	"mantis", "Mantis-linear", "partial execution", "bounded execution", "black box",
};

/* Errors of one predictor over the ok samples where it predicted. */
struct errors {
	int n;                          /* samples compared */
	double mre, median_re, max_re;  /* relative errors |A-E|/A */
	double lt15, lt30;              /* shares of errors below 15% and 30% */
	double cost;                    /* mean cost */
};

/* Summary statistics over the ok samples. */
struct summary {
	int n, failed, warned;          /* ok samples, failed ones, ones predict warned about */
	struct errors by[NPREDICTORS];  /* per predictor (baselines: with --baselines) */
	double noise;                   /* mean |A - again| / A over the inputs measured twice;
					   NaN: none */
	double start_cost;              /* mean start_cost over the ok samples that have one;
					   NaN if none has */
	double call_cost;               /* mean call_cost, likewise */
	double inproc_cost;             /* mean inproc_cost, likewise */
	int in_interval;                /* ok samples whose prediction has an interval */
	double coverage;                /* the share of those whose actual value lies in it */
	double ratio;                   /* the median of A / E over the ok samples with E > 0:
					   above 1, the program runs longer than predicted */
	struct {
		int n;                  /* ok samples with a drift factor and a prediction */
		double median, low, high; /* their factors' median, smallest and largest */
		double mre;             /* mean |A - E x factor| / A over them */
		double ratio;           /* the median of A / (E x factor) */
		int in_interval;        /* those whose prediction has an interval */
		double coverage;        /* the share of those with A inside it times the factor */
	} drift;                        /* the machine's drift (n 0: not measured) */
};

/* How eval measures an input. */
struct measuring {
	const char *program; /* the program whose metric is measured: PRED/build/orig, or
				--program's */
	int reps;            /* K: runs per measurement of the actual value */
	double timeout;      /* seconds before a run of the program is killed; 0: never */
	double budget;       /* seconds before the predictor's evaluator is killed */
	char *predict_command; /* mantis-predict beside mantis (cli_sibling), timed on each input
				* as a scheduler runs it; NULL: none; owned */
	char *host;          /* mantis-host beside mantis: runs PRED/evaluator.so in its process;
				NULL: none; owned */
};

/*
 * Runs how->program K times on in and returns 0 with *value the median of its metric (and *wall
 * the median wall time, when wall is not NULL), or -1 with s->why set.
 */
static int time_program(const struct predictor *p, const struct measuring *how,
			const struct input *in, struct eval_sample *s, double *value, double *wall)
{
	double a[64], walls[64];
	struct run_options ro = {.timeout = how->timeout, .argv0 = p->m.program};
	struct error err = {""};

	for (int r = 0; r < how->reps; r++) {
		struct run_result res;

		if (runner_run(how->program, in, &ro, &res, &err) < 0 || res.status != RUN_OK) {
			s->why = xasprintf("the program %s", err.msg[0] ? err.msg
								 : runner_status_name(res.status));
			return -1;
		}
		a[r] = strcmp(p->info.metric, "instructions") == 0 ? res.wall
		       : runner_metric(&res, p->info.metric);
		walls[r] = res.wall;
	}
	*value = median(a, how->reps);
	if (wall)
		*wall = median(walls, how->reps);
	return 0;
}

/*
 * Measures the actual value of in: for a time, the median of K runs of how->program (s->again,
 * the second measurement, is left NaN for measure_again's pass); for instructions, the exact
 * count of PRED/build/inst, which is its own second measurement. Fills *wall (the median wall
 * time of those K runs). Returns 0, or -1 with s->why set.
 */
static int measure_actual(const struct predictor *p, const struct measuring *how,
			  const struct input *in, struct eval_sample *s, double *wall)
{
	const struct manifest *m = predictor_counting(p);
	char *inst;
	struct run_result res;
	struct error err = {""};
	uint64_t *c = NULL;
	int total, rc = 0;

	s->again = NAN;
	if (time_program(p, how, in, s, &s->actual, wall) < 0)
		return -1;
	if (strcmp(p->info.metric, "instructions") != 0)
		return 0;
	inst = xasprintf("%s/build/inst", p->dir);
	total = manifest_find(m, MANIFEST_INSTRUCTIONS);
	if (total < 0 || predictor_measure(inst, in, 0, m, &res, &c, NULL, &err) < 0 ||
	    res.status != RUN_OK || !c) {
		s->why = xasprintf("no instruction count: %s", err.msg[0] ? err.msg
						: "the instrumented program failed");
		rc = -1;
	} else {
		s->actual = s->again = feature_value(&m->v[total], c);
	}
	free(c);
	free(inst);
	return rc;
}

/*
 * The second measurement of a time (the noise floor's): K runs more, made after every input's
 * first measurement, so that the two are minutes apart. A shared machine's speed wanders over
 * minutes (lz4's training inputs re-timed during one eval: 1.04x, 0.87x, then 1.08x their
 * profiled time, 4 minutes apart), which K runs back to back do not see: on lz4's held-out
 * inputs their floor was 1.8%, a pass apart 6.9% and, in another eval, 17.8%. Leaves s->again
 * NaN when a run fails (the floor skips the input).
 */
static void measure_again(const struct predictor *p, const struct measuring *how,
			  const struct input *in, struct eval_sample *s)
{
	char *why = s->why;

	s->why = NULL;
	if (time_program(p, how, in, s, &s->again, NULL) < 0) {
		free(s->why);
		s->again = NAN;
	}
	s->why = why;
}

/*
 * Fits the black-box baseline on the training inputs (train.json's inputs file, matched with
 * the profile's complete inputs by line, their metric as the profile recorded it). Returns 0
 * with *model filled, or -1 with err set.
 */
static int fit_baseline(const struct predictor *p, struct model *model, struct error *err)
{
	struct predictor_training tr;
	int rc;

	if (predictor_training_load(p, 1, &tr, err) < 0)
		return -1;
	rc = blackbox_fit(tr.input, tr.s.metric, tr.s.n, p->info.metric, model, err);
	predictor_training_release(&tr);
	return rc;
}

/* Fills *out with predictor k's errors over the ok samples where it predicted. */
static void errors_of(const struct eval_sample *v, int n, int k, struct errors *out)
{
	double *re = xcalloc((size_t)n + 1, sizeof *re);

	memset(out, 0, sizeof *out);
	for (int i = 0; i < n; i++) {
		double e;

		if (!v[i].ok || isnan(v[i].by[k]))
			continue;
		e = fabs(v[i].actual - v[i].by[k]) / fabs(v[i].actual);
		re[out->n++] = e;
		out->mre += e;
		out->lt15 += e < 0.15;
		out->lt30 += e < 0.30;
		out->cost += v[i].cost[k];
	}
	if (out->n) {
		sort_doubles(re, out->n);
		out->median_re = out->n % 2 ? re[out->n / 2] : (re[out->n / 2 - 1] + re[out->n / 2]) / 2;
		out->max_re = re[out->n - 1];
		out->mre /= out->n;
		out->lt15 /= out->n;
		out->lt30 /= out->n;
		out->cost /= out->n;
	}
	free(re);
}

/* Returns 1 if actual lies in model's interval around predicted (within rounding), 0 if not,
 * -1 if there is no interval. */
static int covered(const struct model *model, double predicted, double actual)
{
	double low, high;

	if (!model_interval(model, predicted, &low, &high))
		return -1;
	return actual >= low * (1 - 1e-9) && actual <= high * (1 + 1e-9);
}

/* Fills out->drift: the error and coverage with each prediction times its drift factor. */
static void summarize_drift(const struct eval_sample *v, int n, struct summary *out)
{
	double *factor = xcalloc((size_t)n + 1, sizeof *factor);
	double *ratio = xcalloc((size_t)n + 1, sizeof *ratio);
	int inside, nratio = 0;

	for (int i = 0; i < n; i++) {
		double e;

		if (!v[i].ok || !isfinite(v[i].drift) || isnan(v[i].by[BY_MANTIS]))
			continue;
		e = v[i].by[BY_MANTIS] * v[i].drift;
		factor[out->drift.n++] = v[i].drift;
		if (e > 0)
			ratio[nratio++] = v[i].actual / e;
		out->drift.mre += fabs(v[i].actual - e) / fabs(v[i].actual);
		if ((inside = covered(v[i].model, e, v[i].actual)) >= 0) {
			out->drift.in_interval++;
			out->drift.coverage += inside;
		}
	}
	if (out->drift.n) {
		out->drift.mre /= out->drift.n;
		out->drift.median = median(factor, out->drift.n); /* sorts factor */
		out->drift.low = factor[0];
		out->drift.high = factor[out->drift.n - 1];
	}
	out->drift.coverage = out->drift.in_interval ? out->drift.coverage / out->drift.in_interval
						     : NAN;
	out->drift.ratio = nratio ? median(ratio, nratio) : NAN;
	free(factor);
	free(ratio);
}

static void summarize(const struct eval_sample *v, int n, struct summary *out)
{
	double *ratio = xcalloc((size_t)n + 1, sizeof *ratio);
	int started = 0, called = 0, hosted = 0, nratio = 0, measured_twice = 0;

	memset(out, 0, sizeof *out);
	for (int i = 0; i < n; i++) {
		int inside;

		if (!v[i].ok) {
			out->failed++;
			continue;
		}
		out->n++;
		if (!isnan(v[i].again)) {
			out->noise += fabs(v[i].actual - v[i].again) / fabs(v[i].actual);
			measured_twice++;
		}
		out->warned += v[i].warned;
		if (!isnan(v[i].start_cost)) {
			out->start_cost += v[i].start_cost;
			started++;
		}
		if (!isnan(v[i].call_cost)) {
			out->call_cost += v[i].call_cost;
			called++;
		}
		if (!isnan(v[i].inproc_cost)) {
			out->inproc_cost += v[i].inproc_cost;
			hosted++;
		}
		if ((inside = covered(v[i].model, v[i].by[BY_MANTIS], v[i].actual)) >= 0) {
			out->in_interval++;
			out->coverage += inside;
		}
		if (v[i].by[BY_MANTIS] > 0)
			ratio[nratio++] = v[i].actual / v[i].by[BY_MANTIS];
	}
	out->coverage = out->in_interval ? out->coverage / out->in_interval : NAN;
	out->ratio = nratio ? median(ratio, nratio) : NAN;
	free(ratio);
	out->noise = measured_twice ? out->noise / measured_twice : NAN;
	out->start_cost = started ? out->start_cost / started : NAN;
	out->call_cost = called ? out->call_cost / called : NAN;
	out->inproc_cost = hosted ? out->inproc_cost / hosted : NAN;
	for (int k = 0; k < NPREDICTORS; k++)
		errors_of(v, n, k, &out->by[k]);
	summarize_drift(v, n, out);
}

/* Returns a JSON number, or null for NaN (JSON has no NaN). */
static json_t *number(double x)
{
	return isnan(x) ? json_null() : json_real(x);
}

/* Returns eval's JSON summary (the keys of --json). */
static json_t *summary_json(const struct predictor *p, const struct summary *s,
			    const struct eval_sample *v, int n, int baselines)
{
	json_t *root = json_object(), *failures = json_array(), *bl = json_object();
	const struct errors *e = &s->by[BY_MANTIS];

	for (int i = 0; i < n; i++) {
		if (!v[i].ok)
			json_array_append_new(failures, json_pack("{s:i, s:s}", "line", v[i].line,
								  "reason", v[i].why));
	}
	json_object_set_new(root, "metric", json_string(p->info.metric));
	json_object_set_new(root, "n", json_integer(s->n));
	json_object_set_new(root, "mre", json_real(e->mre));
	json_object_set_new(root, "median_re", json_real(e->median_re));
	json_object_set_new(root, "max_re", json_real(e->max_re));
	json_object_set_new(root, "lt15", json_real(e->lt15));
	json_object_set_new(root, "lt30", json_real(e->lt30));
	json_object_set_new(root, "predict_cost", json_real(e->cost));
	json_object_set_new(root, "start_cost", number(s->start_cost));
	json_object_set_new(root, "call_cost", number(s->call_cost));
	json_object_set_new(root, "inproc_cost", number(s->inproc_cost));
	json_object_set_new(root, "noise_floor", number(s->noise));
	json_object_set_new(root, "out_of_range", json_integer(s->warned));
	if (p->gated) { /* how many inputs the gated predictor predicted */
		int gated = 0;

		for (int i = 0; i < n; i++)
			gated += v[i].ok && v[i].model == &p->gated->model;
		json_object_set_new(root, "gated", json_integer(gated));
	}
	json_object_set_new(root, "interval_level", p->model.interval.level > 0 ?
			    json_real(p->model.interval.level) : json_null());
	json_object_set_new(root, "interval_coverage", number(s->coverage));
	json_object_set_new(root, "ratio", number(s->ratio));
	json_object_set_new(root, "drift", !s->drift.n ? json_null() :
			    json_pack("{s:i, s:f, s:f, s:f, s:f, s:o, s:o}", "n", s->drift.n,
				      "median", s->drift.median, "low", s->drift.low, "high",
				      s->drift.high, "mre", s->drift.mre, "interval_coverage",
				      number(s->drift.coverage), "ratio", number(s->drift.ratio)));
	json_object_set_new(root, "failed", failures);
	for (int k = BY_MANTIS + 1; baselines && k < NPREDICTORS; k++) {
		const struct errors *b = &s->by[k];

		json_object_set_new(bl, predictor_key[k],
				    json_pack("{s:i, s:f, s:f, s:f, s:f, s:f, s:f}", "n", b->n,
					      "mre", b->mre, "median_re", b->median_re, "max_re",
					      b->max_re, "lt15", b->lt15, "lt30", b->lt30, "cost",
					      b->cost));
	}
	json_object_set_new(root, "baselines", bl);
	return root;
}

static void print_text(const struct predictor *p, const struct summary *s,
		       const struct eval_sample *v, int n, int baselines)
{
	const struct errors *e = &s->by[BY_MANTIS];

	printf("%d inputs, %s: mean relative error %.2f%% (median %.2f%%, max %.2f%%), "
	       "LT15 %.0f%%, LT30 %.0f%%\n", s->n, p->info.metric, 100 * e->mre, 100 * e->median_re,
	       100 * e->max_re, 100 * e->lt15, 100 * e->lt30);
	if (!isnan(s->ratio))
		printf("actual / predicted: median %.3fx\n", s->ratio);
	if (isnan(s->noise))
		printf("noise floor not measured (no input measured twice)\n");
	else
		printf("noise floor %.2f%% (two measurements of the actual value, a pass over every "
		       "input apart)\n", 100 * s->noise);
	printf("prediction cost %.2f%% of the program's time", 100 * e->cost);
	if (!isnan(s->start_cost))
		printf(" (the %s start-up alone: %.2f%%)", p->nsampled ? p->evaluator
		       ? "evaluator's and the sampled runs'" : "sampled runs'" : "evaluator's",
		       100 * s->start_cost);
	putchar('\n');
	if (!isnan(s->call_cost))
		printf("prediction command %.2f%% of the program's time (mantis-predict as a "
		       "scheduler runs it: its start, the predictor read, the evaluator)\n",
		       100 * s->call_cost);
	if (!isnan(s->inproc_cost))
		printf("prediction in process %.2f%% of the program's time (as mantis serve makes "
		       "it: the evaluators' shared-object forms run in mantis-host's process, warm, in "
		       "place of their own processes)\n", 100 * s->inproc_cost);
	if (s->in_interval)
		printf("%.0f%% interval: %d of %d actual values inside (%.0f%%)\n",
		       100 * p->model.interval.level, (int)lround(s->coverage * s->in_interval),
		       s->in_interval, 100 * s->coverage);
	if (s->drift.n) {
		printf("machine drift: training inputs re-timed took %.3fx their profiled %s "
		       "(%.3fx to %.3fx)\n", s->drift.median, p->info.metric, s->drift.low,
		       s->drift.high);
		printf("each prediction times the drift: mean relative error %.2f%%, actual / "
		       "predicted median %.3fx", 100 * s->drift.mre, s->drift.ratio);
		if (s->drift.in_interval)
			printf(", %d of %d actual values inside the interval (%.0f%%)",
			       (int)lround(s->drift.coverage * s->drift.in_interval),
			       s->drift.in_interval, 100 * s->drift.coverage);
		putchar('\n');
	}
	if (baselines) {
		printf("%-18s %7s %7s %7s %5s %5s %8s\n", "predictor", "inputs", "MRE", "median",
		       "LT15", "LT30", "cost");
		for (int k = 0; k < NPREDICTORS; k++) {
			const struct errors *b = &s->by[k];

			printf("%-18s %7d %6.2f%% %6.2f%% %4.0f%% %4.0f%% %7.2f%%\n",
			       predictor_title[k], b->n, 100 * b->mre, 100 * b->median_re,
			       100 * b->lt15, 100 * b->lt30, 100 * b->cost);
		}
	}
	if (s->warned)
		printf("%d input%s had a warning from predict (a feature outside its training "
		       "range, or the model at zero or less)\n", s->warned,
		       s->warned == 1 ? "" : "s");
	for (int i = 0; i < n; i++) {
		if (!v[i].ok)
			printf("input line %d: no comparison: %s\n", v[i].line, v[i].why);
	}
}

/* Returns one sample as PRED/eval.json records it. */
static json_t *sample_json(const struct eval_sample *s, const struct input *in, int baselines)
{
	json_t *o = json_object(), *features = json_object(), *bl = json_object();
	struct strbuf words = {0};

	for (int i = 0; i < in->argc; i++) {
		if (i)
			strbuf_add(&words, " ", 1);
		strbuf_add(&words, in->argv[i], strlen(in->argv[i]));
	}
	if (in->stdin_path) {
		char *redirect = xasprintf("%s< %s", words.len ? " " : "", in->stdin_path);

		strbuf_add(&words, redirect, strlen(redirect));
		free(redirect);
	}
	json_object_set_new(o, "line", json_integer(s->line));
	json_object_set_new(o, "args", json_string(words.len ? words.buf : ""));
	json_object_set_new(o, "ok", json_boolean(s->ok));
	if (!s->ok) {
		json_object_set_new(o, "why", json_string(s->why ? s->why : "unknown"));
	} else {
		json_object_set_new(o, "actual", json_real(s->actual));
		json_object_set_new(o, "again", number(s->again));
		json_object_set_new(o, "predicted", json_real(s->by[BY_MANTIS]));
		json_object_set_new(o, "cost", json_real(s->cost[BY_MANTIS]));
		json_object_set_new(o, "start_cost", number(s->start_cost));
		json_object_set_new(o, "call_cost", number(s->call_cost));
		json_object_set_new(o, "inproc_cost", number(s->inproc_cost));
		json_object_set_new(o, "drift", number(s->drift));
		for (int j = 0; j < s->nfeatures; j++)
			json_object_set_new(features, s->model->features[j].name,
					    number(s->features[j]));
		for (int k = BY_MANTIS + 1; baselines && k < NPREDICTORS; k++)
			json_object_set_new(bl, predictor_key[k],
					    json_pack("{s:o, s:o}", "predicted", number(s->by[k]),
						      "cost", number(s->cost[k])));
	}
	json_object_set_new(o, "features", features);
	json_object_set_new(o, "baselines", bl);
	strbuf_release(&words);
	return o;
}

/*
 * Writes PRED/eval.json: the inputs file, metric, the program measured, date, every sample and
 * the summary (mantis report draws it). Returns 0, or -1 with err set; a previous eval.json is replaced whole.
 */
static int write_eval_json(const struct predictor *p, const char *inputs_path,
			   const char *program, const struct inputs *ins,
			   const struct eval_sample *v, json_t *summary, int baselines,
			   struct error *err)
{
	char *path = xasprintf("%s/eval.json", p->dir), *tmp = xasprintf("%s.tmp", path);
	char *abs = realpath(inputs_path, NULL), *exe = realpath(program, NULL), date[32];
	json_t *root = json_object(), *samples = json_array();
	time_t now = time(NULL);
	int rc = 0;

	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	for (int k = 0; k < ins->n; k++)
		json_array_append_new(samples, sample_json(&v[k], &ins->v[k], baselines));
	json_object_set_new(root, "inputs", json_string(abs ? abs : inputs_path));
	json_object_set_new(root, "metric", json_string(p->info.metric));
	json_object_set_new(root, "program", json_string(exe ? exe : program));
	json_object_set_new(root, "date", json_string(date));
	json_object_set_new(root, "samples", samples);
	json_object_set(root, "summary", summary);
	if (json_dump_file(root, tmp, JSON_INDENT(1) | JSON_REAL_PRECISION(9)) != 0 ||
	    rename(tmp, path) != 0)
		rc = error_errno(err, "cannot write %s", path);
	json_decref(root);
	free(abs);
	free(exe);
	free(path);
	free(tmp);
	return rc;
}

/* The baselines' fitted models (with --baselines). */
struct baseline_models {
	struct model blackbox; /* over arguments and file sizes */
	struct model linear;   /* Mantis-linear */
	struct model linear_gated; /* Mantis-linear of the gated predictor, when there is one */
};

/* Fills s's baseline predictions on in (NaN where one has none). */
static void predict_baselines(const struct predictor *p, const struct baseline_models *bm,
			      const struct input *in, double wall, struct eval_sample *s)
{
	struct execution_baselines eb;
	struct error err = {""};
	const struct predictor *by = s->model == &p->model ? p : p->gated; /* whose features s holds */

	s->by[BY_BLACKBOX] = blackbox_predict(&bm->blackbox, in);
	s->cost[BY_BLACKBOX] = 0;
	s->by[BY_LINEAR] = baseline_linear_predict(by == p ? &bm->linear : &bm->linear_gated, by,
						   s->features);
	s->cost[BY_LINEAR] = s->cost[BY_MANTIS];
	if (baseline_execution(by, in, wall, s->cost[BY_MANTIS] * wall, &eb, &err) < 0) {
		s->by[BY_PARTIAL] = s->by[BY_BOUNDED] = NAN;
		s->cost[BY_PARTIAL] = s->cost[BY_BOUNDED] = NAN;
		return;
	}
	s->by[BY_PARTIAL] = eb.pe_value;
	s->cost[BY_PARTIAL] = eb.pe_seconds / wall;
	s->by[BY_BOUNDED] = eb.be_value;
	s->cost[BY_BOUNDED] = s->cost[BY_MANTIS];
}

/* Returns the wall time of the prediction command a scheduler runs for in (how->predict_command
 * PRED --budget B [--stdin FILE] -- ARGS, once), or NaN without one or when it fails. */
static double call_seconds(const struct predictor *p, const struct measuring *how,
			   const struct input *in)
{
	char *dir = how->predict_command ? realpath(p->dir, NULL) : NULL, budget[32];
	char budget_option[] = "--budget", stdin_option[] = "--stdin", end[] = "--";
	struct run_options ro = {.timeout = how->budget + 10};
	struct input call = {.line = in->line, .text = in->text};
	struct run_result res;
	struct error err = {""};
	double seconds = NAN;

	if (!dir)
		return NAN;
	snprintf(budget, sizeof budget, "%g", how->budget);
	call.argv = xcalloc((size_t)in->argc + 8, sizeof *call.argv);
	call.argv[call.argc++] = dir;
	call.argv[call.argc++] = budget_option;
	call.argv[call.argc++] = budget;
	if (in->stdin_path) {
		call.argv[call.argc++] = stdin_option;
		call.argv[call.argc++] = in->stdin_path;
	}
	call.argv[call.argc++] = end;
	for (int i = 0; i < in->argc; i++)
		call.argv[call.argc++] = in->argv[i];
	/* exit 0 alone: the program's other codes of success (--ok-exit) are not the command's */
	if (runner_run(how->predict_command, &call, &ro, &res, &err) == 0 && res.exit_code == 0)
		seconds = res.wall;
	free(call.argv);
	free(dir);
	return seconds;
}

/* Returns whether the counters c give each program feature of pr's model the value pr has. */
static int same_features(const struct prediction *pr, const uint64_t *c)
{
	const struct predictor *p = pr->by;

	for (int i = 0; i < p->model.nfeatures; i++)
		if (p->feature[i] >= 0 && feature_value(&p->m.v[p->feature[i]], c) != pr->values[i])
			return 0;
	return 1;
}

/*
 * Returns the prediction pr's time with its evaluator's shared-object form (PRED/evaluator.so,
 * which train built and validated) run by how->host in place of its process, warm (the host's
 * second run: solib.h), and its samples' runs so too where train validated the sampled
 * evaluator's form (PRED/sampled-evaluator.so), over wall: what mantis serve pays. NaN where
 * its predictor has neither form, or a form fails or computes other values than pr's.
 */
static double hosted_cost(const struct measuring *how, const struct input *in,
			  const struct prediction *pr, double wall)
{
	const struct predictor *p = pr->by;
	int evaluator = p->evaluator && p->info.has_inproc;
	/* the samples' runs hosted where the evaluator's counters are at hand to check them */
	int sampled = p->sampler && p->info.has_sampled_inproc && (!p->evaluator || evaluator);
	struct run_result res;
	struct sampled_run r = {0};
	struct error err = {""};
	uint64_t *c = NULL;
	double cold, seconds = pr->seconds, *values;
	char *so = NULL, *sampler_so = NULL;
	int ok = how->host && (evaluator || sampled);

	if (ok && evaluator) {
		so = xasprintf("%s/evaluator.so", p->dir);
		ok = predictor_measure_hosted(how->host, so, in, how->budget, &p->m, &res, &cold, &c,
					      &err) == 0 && res.status == RUN_OK && c &&
		     same_features(pr, c);
		seconds += ok ? res.wall - pr->evaluator_seconds : 0;
	}
	if (ok && sampled) {
		sampler_so = xasprintf("%s.so", p->sampler);
		ok = sampler_run(p->sampler, &(struct solib_form){sampler_so, how->host}, &p->m,
				 &p->info.plan, in, 1, how->budget, &r, &err) == 0 && r.ok;
		seconds += ok ? r.seconds - pr->sampled_seconds : 0;
	}
	if (ok && sampled) { /* the values from the hosted runs, the evaluator's own otherwise */
		values = xcalloc((size_t)pr->nvalues + 1, sizeof *values);
		predictor_values(p, in, c, &r, values);
		for (int i = 0; i < pr->nvalues; i++)
			ok = ok && (p->sampled[i] < 0 || values[i] == pr->values[i]);
		free(values);
	}
	sampled_run_release(&r);
	free(c);
	free(so);
	free(sampler_so);
	return ok ? seconds / (wall > 1e-6 ? wall : 1e-6) : NAN;
}

/* Measures input k: the actual value, the prediction and (with bm) the baselines, by the
 * model s->model (set by the caller: predictor_choose). */
static void measure(struct predictor *p, const struct measuring *how,
		    const struct input *in, const struct baseline_models *bm, struct eval_sample *s)
{
	struct prediction pr;
	struct error err = {""};
	double wall, start;

	for (int k = 0; k < NPREDICTORS; k++)
		s->by[k] = s->cost[k] = NAN;
	s->start_cost = s->call_cost = s->drift = s->inproc_cost = NAN;
	s->baselines = bm != NULL;
	s->nfeatures = s->model->nfeatures;
	s->features = xcalloc((size_t)s->nfeatures + 1, sizeof *s->features);
	if (measure_actual(p, how, in, s, &wall) < 0)
		return;
	if (predictor_run(p, in, how->budget, &pr, &err) < 0) {
		s->why = xasprintf("no prediction: %s", err.msg);
		return;
	}
	s->ok = fabs(s->actual) > 0;
	if (!s->ok)
		s->why = xstrdup("the actual value is 0");
	s->by[BY_MANTIS] = pr.value;
	s->cost[BY_MANTIS] = pr.seconds / (wall > 1e-6 ? wall : 1e-6);
	if (predictor_start_seconds(p, in, &start, &err) == 0)
		s->start_cost = start / (wall > 1e-6 ? wall : 1e-6);
	s->call_cost = call_seconds(p, how, in) / (wall > 1e-6 ? wall : 1e-6);
	s->inproc_cost = hosted_cost(how, in, &pr, wall);
	memcpy(s->features, pr.values, (size_t)pr.nvalues * sizeof *pr.values);
	s->warned = pr.warning != NULL;
	prediction_release(&pr);
	if (s->ok && bm)
		predict_baselines(p, bm, in, wall > 1e-6 ? wall : 1e-6, s);
}

/* The drift checks of one eval: one before the first input it measures, then one after every
 * `every` inputs measured and one after the last (inputs taken from eval.db are not timed). */
struct drift_checks {
	struct drift d;  /* the references; d.nref 0: no checks */
	int every;       /* inputs measured between two checks */
	double before;   /* the last check's factor; NaN before the first */
	int *since;      /* the inputs (indexes) measured since that check */
	int nsince;      /* how many */
};

/*
 * Checks the drift now. The inputs measured since the last check get the factor interpolated
 * linearly between the two checks by their position, and are recorded again with it. A check
 * that fails ends the checks, with a message; the inputs since the last one keep no factor.
 */
static void check_drift(struct drift_checks *dc, const struct predictor *p,
			const struct measuring *how, struct evaldb *db, const struct inputs *ins,
			struct eval_sample *v)
{
	struct error err = {""};
	double after;

	if (drift_check(&dc->d, p, how->reps, how->timeout, &after, &err) < 0) {
		fprintf(stderr, "mantis eval: the machine's drift is not measured from here on: %s\n",
			err.msg);
		dc->d.nref = 0;
		return;
	}
	for (int j = 0; j < dc->nsince && !isnan(dc->before); j++) {
		struct eval_sample *s = &v[dc->since[j]];

		s->drift = dc->before + (after - dc->before) * (j + 0.5) / dc->nsince;
		if (evaldb_put(db, &ins->v[dc->since[j]], s, &err) < 0)
			die("%s", err.msg);
	}
	dc->before = after;
	dc->nsince = 0;
}

/*
 * An input the inputs file repeats is taken from eval.db after its first measurement, before
 * the next check gives that one its drift; reads such inputs again, now that every check is
 * made.
 */
static void reread_drift(struct evaldb *db, const struct inputs *ins, int baselines,
			 struct eval_sample *v)
{
	struct error err = {""};

	for (int k = 0; k < ins->n; k++) {
		struct eval_sample again = {.model = v[k].model, .nfeatures = v[k].nfeatures};

		if (!isnan(v[k].drift) || evaldb_get(db, &ins->v[k], baselines, &again, &err) != 1)
			continue;
		if (isnan(again.drift)) {
			free(again.features);
			free(again.why);
			continue;
		}
		free(v[k].features);
		free(v[k].why);
		again.line = v[k].line;
		v[k] = again;
	}
}

/* Measures every ok input without a second measurement again (measure_again), recording each. */
static void second_pass(const struct predictor *p, const struct measuring *how, struct evaldb *db,
			const struct inputs *ins, struct eval_sample *v)
{
	struct error err = {""};
	int todo = 0, done = 0;

	for (int k = 0; k < ins->n; k++)
		todo += v[k].ok && isnan(v[k].again);
	for (int k = 0; k < ins->n; k++) {
		if (!v[k].ok || !isnan(v[k].again))
			continue;
		measure_again(p, how, &ins->v[k], &v[k]);
		if (evaldb_put(db, &ins->v[k], &v[k], &err) < 0)
			die("%s", err.msg);
		if (isatty(2))
			fprintf(stderr, "\reval: second measurement %d/%d", ++done, todo);
	}
}

static int run_eval(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"inputs", required_argument, NULL, 'i'}, {"json", no_argument, NULL, 'j'},
		{"repeat", required_argument, NULL, 'r'}, {"budget", required_argument, NULL, 'b'},
		{"timeout", required_argument, NULL, 't'}, {"baselines", no_argument, NULL, 'B'},
		{"fresh", no_argument, NULL, 'f'}, {"drift-every", required_argument, NULL, 'd'},
		{"program", required_argument, NULL, 'p'}, {NULL, 0, NULL, 0},
	};
	const char *inputs_path = NULL, *program_arg = NULL;
	char *program = NULL, *trained_program, program_hash[17] = "";
	struct measuring how = {.reps = 3, .budget = 60};
	int json = 0, opt, baselines = 0, fresh = 0, reused = 0, drift_every = 20;
	struct drift_checks dc = {.before = NAN};
	struct evaldb db;
	char *setting;
	struct baseline_models bm = {{0}, {0}, {0}};
	struct predictor p;
	struct inputs ins;
	struct eval_sample *v;
	struct summary sum;
	struct error err = {""};
	json_t *summary;

	if (cli_has_option(argc, argv, "--platform"))
		return eval_on_platform(argc, argv); /* cmd_platform.c */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i': inputs_path = optarg; break;
		case 'j': json = 1; break;
		case 'r': how.reps = atoi(optarg); break;
		case 'b': how.budget = atof(optarg); break;
		case 't': how.timeout = atof(optarg); break;
		case 'p': program_arg = optarg; break;
		case 'B': baselines = 1; break;
		case 'f': fresh = 1; break;
		case 'd': drift_every = atoi(optarg); break;
		default: usage_error(&cmd_eval, "unknown option or missing value '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		usage_error(&cmd_eval, "give one predictor directory (made by mantis train)");
	if (!inputs_path)
		usage_error(&cmd_eval, "no inputs (--inputs FILE)");
	if (how.reps < 1 || how.reps > 64)
		usage_error(&cmd_eval, "--repeat must be 1 to 64");
	if (!(how.budget > 0) || how.timeout < 0)
		usage_error(&cmd_eval, "--budget must be positive and --timeout not negative");
	if (drift_every < 0)
		usage_error(&cmd_eval, "--drift-every must be 0 (no drift checks) or more");
	if (predictor_open(&p, argv[optind], &err) < 0 || inputs_load(&ins, inputs_path, &err) < 0)
		die("%s", err.msg);
	how.predict_command = cli_sibling("mantis-predict");
	how.host = cli_sibling("mantis-host");
	if (program_arg && strcmp(p.info.metric, "instructions") == 0)
		die("--program: %s predicts the instruction count, which only the trained build's "
		    "instrumented copy counts", p.dir);
	if (program_arg && !(program = realpath(program_arg, NULL)))
		die("--program: %s: %s", program_arg, strerror(errno));
	if (program && access(program, X_OK) != 0)
		die("--program: %s is not executable", program_arg);
	if (program && store_hash_file(program, program_hash, &err) < 0)
		die("--program: %s", err.msg);
	trained_program = xasprintf("%s/build/orig", p.dir);
	how.program = program ? program : trained_program;
	if (baselines && fit_baseline(&p, &bm.blackbox, &err) < 0)
		die("the black-box baseline: %s", err.msg);
	if (baselines && (baseline_fit_linear(&p, &bm.linear, &err) < 0 ||
			  (p.gated && baseline_fit_linear(p.gated, &bm.linear_gated, &err) < 0)))
		die("the Mantis-linear baseline: %s", err.msg);
	setting = xasprintf("metric=%s repeat=%d timeout=%g budget=%g%s%s", p.info.metric, how.reps,
			    how.timeout, how.budget, program ? " program=" : "", program_hash);
	if (evaldb_open(&db, p.dir, setting, &err) < 0)
		die("%s", err.msg);
	v = xcalloc((size_t)ins.n + 1, sizeof *v);
	if (drift_every && drift_init(&dc.d, &p) == 0 && dc.d.why)
		fprintf(stderr, "mantis eval: the machine's drift is not measured: %s\n", dc.d.why);
	dc.every = drift_every;
	dc.since = xcalloc((size_t)(drift_every < ins.n ? drift_every : ins.n) + 1, sizeof *dc.since);
	for (int k = 0; k < ins.n; k++) {
		int found = 0;

		v[k].model = &predictor_choose(&p, &ins.v[k])->model;
		v[k].nfeatures = v[k].model->nfeatures;
		if (!fresh && (found = evaldb_get(&db, &ins.v[k], baselines, &v[k], &err)) < 0)
			die("%s", err.msg);
		if (!found) {
			if (dc.d.nref && isnan(dc.before))
				check_drift(&dc, &p, &how, &db, &ins, v);
			measure(&p, &how, &ins.v[k], baselines ? &bm : NULL, &v[k]);
			if (evaldb_put(&db, &ins.v[k], &v[k], &err) < 0)
				die("%s", err.msg);
			if (dc.d.nref)
				dc.since[dc.nsince++] = k;
			if (dc.d.nref && dc.nsince == dc.every)
				check_drift(&dc, &p, &how, &db, &ins, v);
		}
		v[k].line = ins.v[k].line;
		reused += found;
		if (isatty(2))
			fprintf(stderr, "\reval: %d/%d inputs", k + 1, ins.n);
	}
	if (dc.d.nref && dc.nsince)
		check_drift(&dc, &p, &how, &db, &ins, v);
	if (!isnan(dc.before))
		reread_drift(&db, &ins, baselines, v);
	if (strcmp(p.info.metric, "instructions") != 0)
		second_pass(&p, &how, &db, &ins, v);
	if (isatty(2) && ins.n)
		fprintf(stderr, "\n");
	if (reused)
		fprintf(stderr, "mantis eval: %d of %d inputs measured before, taken from %s "
			"(--fresh measures again)\n", reused, ins.n, db.path);
	evaldb_close(&db);
	free(setting);
	summarize(v, ins.n, &sum);
	summary = summary_json(&p, &sum, v, ins.n, baselines);
	if (json) {
		json_dumpf(summary, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(6));
		putchar('\n');
	} else {
		print_text(&p, &sum, v, ins.n, baselines);
	}
	if (write_eval_json(&p, inputs_path, how.program, &ins, v, summary, baselines, &err) < 0)
		fprintf(stderr, "mantis eval: %s\n", err.msg);
	json_decref(summary);
	for (int k = 0; k < ins.n; k++) {
		free(v[k].why);
		free(v[k].features);
	}
	free(v);
	free(dc.since);
	free(trained_program);
	free(program);
	free(how.predict_command);
	free(how.host);
	drift_release(&dc.d);
	inputs_release(&ins);
	predictor_release(&p);
	model_release(&bm.blackbox);
	model_release(&bm.linear);
	model_release(&bm.linear_gated);
	return sum.n > 0 ? EXIT_OK : EXIT_FAILED;
}

const struct command cmd_eval = {
	.name = "eval",
	.summary = "measure a predictor's error and cost on inputs, beside the noise floor",
	.usage =
		"usage: mantis eval PRED --inputs FILE [--json] [--repeat K] [--budget S]\n"
		"                   [--timeout S] [--baselines] [--fresh] [--drift-every N]\n"
		"                   [--program EXE]\n"
		"\n"
		"Runs the program and the predictor (mantis train made PRED) on every input and compares\n"
		"the actual metric A (the median of K runs of the original program; for instructions\n"
		"the exact count of the instrumented build) with the prediction E. Prints the mean\n"
		"relative error |A-E|/A, its median and maximum, LT15 and LT30 (the shares of inputs\n"
		"predicted within 15% and 30%), the median of A/E, the prediction cost (the mean of\n"
		"predictor time over program time) beside its floor, the evaluator's process start-up\n"
		"alone (5 timed starts per input) and the prediction command's (mantis-predict PRED ...\n"
		"-- ARGS run once per input, as a scheduler runs it: its start, the predictor read,\n"
		"the evaluator), and where train built the evaluator's shared-object form\n"
		"(PRED/evaluator.so) the prediction with that form run in mantis-host's process, warm,\n"
		"in place of the evaluator's process; and the noise floor: the mean relative difference\n"
		"between two independent measurements of A, each the median of K runs, the second\n"
		"made in a second pass after every input's first (a shared machine's speed wanders\n"
		"over minutes, which runs back to back do not see);\n"
		"and how many actual values lie in the interval mantis predict gives (90% of the\n"
		"training inputs, held out, did). An input the program or the predictor fails on is\n"
		"listed, not counted.\n"
		"\n"
		"For a time, also the machine's drift: the 3 training inputs nearest the median time are\n"
		"re-timed (K runs) with the trained program before the first input and after every N,\n"
		"over their profiled time (above 1: the machine runs slower now); the error and A/E\n"
		"with each prediction times that factor are the model's, not the machine's. It needs\n"
		"the training inputs where training found them.\n"
		"\n"
		"  --inputs FILE  the inputs (held out from training, for an honest figure)\n"
		"  --repeat K     runs of the program per measurement (default 3; for a time 2K in all)\n"
		"  --budget S     the predictor's time budget per input (default 60)\n"
		"  --timeout S    kill a run of the program after S seconds (default: never)\n"
		"  --baselines    also four baselines on the same inputs, each with its error and cost:\n"
		"                 black box (SPORE-FoBa over the arguments' numeric values and file\n"
		"                 sizes, fitted on the training inputs); Mantis-linear (the predictor's\n"
		"                 features, a degree-1 model fitted on the training profile; the same\n"
		"                 evaluator, so the same cost); partial execution (the instrumented\n"
		"                 program run until the model's features hold their final values,\n"
		"                 cost: that time); bounded execution (the model on the features the\n"
		"                 instrumented program counted within the predictor's time)\n"
		"  --fresh        measure every input again (see PRED/eval.db below)\n"
		"  --drift-every N  inputs measured between two drift checks (default 20; 0: none)\n"
		"  --program EXE  measure EXE's time (another build of the program, say) instead of\n"
		"                 the trained build's, against the trained predictions: with the drift,\n"
		"                 the median A/E tells how much slower EXE is, the machine's change\n"
		"                 taken out (a time only)\n",
	.usage_more =
		"  --json         print {\"metric\", \"n\", \"mre\", \"median_re\", \"max_re\", \"lt15\",\n"
		"                 \"lt30\", \"ratio\" (the median of A/E), \"predict_cost\",\n"
		"                 \"start_cost\" (null for an evaluator built before mantis could time\n"
		"                 its start-up), \"call_cost\" (the prediction command's; null when\n"
		"                 there is no mantis-predict beside mantis), \"inproc_cost\" (the\n"
		"                 prediction as mantis serve makes it; null without\n"
		"                 PRED/evaluator.so or PRED/sampled-evaluator.so),\n"
		"                 \"noise_floor\",\n"
		"                 \"out_of_range\" (inputs predict warned about), \"interval_level\",\n"
		"                 \"interval_coverage\" (null: no interval), \"drift\" (null: not\n"
		"                 measured; else {\"n\", \"median\", \"low\", \"high\": the inputs' factors,\n"
		"                 \"mre\", \"interval_coverage\", \"ratio\": with each prediction times its\n"
		"                 factor}), \"failed\": [{\"line\", \"reason\"}], \"baselines\":\n"
		"                 {\"blackbox\", \"linear\", \"partial_execution\", \"bounded_execution\":\n"
		"                 each {\"n\", \"mre\", \"median_re\", \"max_re\", \"lt15\", \"lt30\",\n"
		"                 \"cost\"}} (empty without --baselines), \"gated\"? (with a gate: the\n"
		"                 inputs PRED/long predicted; the baselines but the black box are then\n"
		"                 those of the model that predicted each input)}\n"
		"\n"
		"Every run also writes PRED/eval.json: each input's actual and predicted values, the\n"
		"features the evaluator computed, the baselines' predictions, and the summary above.\n"
		"Each input's measurement is recorded in PRED/eval.db (SQLite) as soon as it is made;\n"
		"an eval interrupted, or run again, takes the inputs already measured from there, as\n"
		"long as the predictor, the metric, K, S, EXE and the files the input names are\n"
		"unchanged.\n"
		"\n"
		"mantis eval BUILD --platform P.json --inputs FILE [--fit INPUTS] [--program EXE] [--json]\n"
		"compares mantis predict --platform's count x cost prediction (and, with --fit, its\n"
		"correction) with the CPU time of EXE (default BUILD/orig) run there, K runs each.\n",
	.run = run_eval,
};
