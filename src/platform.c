/*
 * platform.c: the platform file, and predicting a run's CPU time on a platform from its
 * instruction counts here (ByCounter, 003_: counts are platform-independent, costs are not).
 *
 * Model. predicted = startup + sum_op count_op x cost_op
 *                  + sum_f calls_f x (cost_f - cost_call) + bytes_f x per_byte_f
 * over the library functions f the platform has a kernel for (the call instruction of a library
 * call is counted with the opcodes; the function's own cost, measured with its call, replaces
 * it). Opcodes without a kernel cost what add costs. Costs are in ns, startup in seconds.
 * Correction: SPORE-FoBa of degree 1 (fit.c) on a few runs measured there, over the features
 * "countxcost" (the prediction), "op.OPCODE", "call.F" and "bytes.F" (counts): it learns what
 * the kernels miss (cache misses, what clang optimised away) for this program.
 * Evaluation as mantis eval does it (cmd_eval.c): per input, the actual CPU time is the median
 * of K runs there, the noise floor compares it with the median of K other runs, interleaved.
 * Invariant: every cost is finite and non-negative; "call" and "add" are always calibrated.
 */
#include "platform.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "dataset.h"
#include "error.h"
#include "fit.h"
#include "inputs.h"
#include "prep.h"
#include "runner.h"
#include "util.h"

int platform_run(const struct platform *p, const char *exe, const struct input *in,
		 const struct run_options *ro, struct run_result *res, struct error *err)
{
	struct input wrapped = *in;
	int rc;

	if (!p->nrunner)
		return runner_run(exe, in, ro, res, err);
	wrapped.argc = p->nrunner + in->argc;
	wrapped.argv = xcalloc((size_t)wrapped.argc + 1, sizeof *wrapped.argv);
	for (int i = 1; i < p->nrunner; i++)
		wrapped.argv[i - 1] = p->runner[i];
	wrapped.argv[p->nrunner - 1] = (char *)exe;
	for (int i = 0; i < in->argc; i++)
		wrapped.argv[p->nrunner + i] = in->argv[i];
	rc = runner_run(p->runner[0], &wrapped, ro, res, err);
	free(wrapped.argv);
	return rc;
}

/* ---- the file ----------------------------------------------------------------------------- */

static json_t *costs_json(const struct platform_cost *v, int n, int opcodes)
{
	json_t *o = json_object();

	for (int i = 0; i < n; i++) {
		json_t *c = json_pack("{s:f}", "cost", v[i].cost);

		if (opcodes) {
			json_object_set_new(c, "latency", json_real(v[i].latency));
			json_object_set_new(c, "throughput", json_real(v[i].throughput));
		} else {
			json_object_set_new(c, "per_byte", json_real(v[i].per_byte));
		}
		json_object_set_new(c, "noise", json_real(v[i].noise));
		json_object_set_new(o, v[i].name, c);
	}
	return o;
}

int platform_write(const struct platform *p, const char *path, struct error *err)
{
	json_t *root = json_object(), *runner = json_array();
	char *tmp = xasprintf("%s.tmp", path);
	int rc = 0;

	for (int i = 0; i < p->nrunner; i++)
		json_array_append_new(runner, json_string(p->runner[i]));
	json_object_set_new(root, "version", json_integer(1));
	json_object_set_new(root, "target", p->target ? json_string(p->target) : json_null());
	json_object_set_new(root, "opt", json_string(p->opt));
	json_object_set_new(root, "runner", runner);
	json_object_set_new(root, "machine", json_string(p->machine ? p->machine : "?"));
	json_object_set_new(root, "unit", json_string("ns"));
	json_object_set_new(root, "repetitions", json_integer(p->repetitions));
	json_object_set_new(root, "startup_seconds", json_real(p->startup));
	json_object_set_new(root, "startup_noise", json_real(p->startup_noise));
	json_object_set_new(root, "opcodes", costs_json(p->op, p->nop, 1));
	json_object_set_new(root, "calls", costs_json(p->call, p->ncall, 0));
	if (json_dump_file(root, tmp, JSON_INDENT(1) | JSON_REAL_PRECISION(6)) != 0 ||
	    rename(tmp, path) != 0)
		rc = error_errno(err, "cannot write %s", path);
	json_decref(root);
	free(tmp);
	return rc;
}

/* Reads the costs of obj into *v. Returns 0 or -1 naming the entry at fault. */
static int read_costs(json_t *obj, struct platform_cost **v, int *n, const char *what,
		      const char *path, struct error *err)
{
	const char *key;
	json_t *c;

	if (!json_is_object(obj))
		return error_set(err, "%s: no \"%s\" object", path, what);
	json_object_foreach(obj, key, c) {
		json_t *cost = json_object_get(c, "cost");

		if (!json_is_number(cost) || !(json_number_value(cost) >= 0))
			return error_set(err, "%s: %s.%s: no cost (a non-negative number)", path, what, key);
		*v = xrealloc(*v, sizeof **v * (size_t)(*n + 1));
		(*v)[*n] = (struct platform_cost){
			.name = xstrdup(key), .cost = json_number_value(cost),
			.latency = json_number_value(json_object_get(c, "latency")),
			.throughput = json_number_value(json_object_get(c, "throughput")),
			.per_byte = json_number_value(json_object_get(c, "per_byte")),
			.noise = json_number_value(json_object_get(c, "noise")),
		};
		(*n)++;
	}
	return 0;
}

int platform_read(struct platform *p, const char *path, struct error *err)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je), *runner, *target;
	int rc = -1;

	memset(p, 0, sizeof *p);
	if (!root && je.line < 0)
		return error_set(err, "cannot read %s: %s", path, je.text);
	if (!root)
		return error_set(err, "%s:%d:%d: %s", path, je.line, je.column, je.text);
	runner = json_object_get(root, "runner");
	target = json_object_get(root, "target");
	if (!json_is_string(json_object_get(root, "opt")) || !json_is_array(runner) ||
	    !json_is_number(json_object_get(root, "startup_seconds"))) {
		error_set(err, "%s: not a platform file (made by mantis calibrate)", path);
		goto out;
	}
	p->target = json_is_string(target) ? xstrdup(json_string_value(target)) : NULL;
	p->opt = xstrdup(json_string_value(json_object_get(root, "opt")));
	p->machine = xstrdup(json_is_string(json_object_get(root, "machine"))
				     ? json_string_value(json_object_get(root, "machine")) : "?");
	p->startup = json_number_value(json_object_get(root, "startup_seconds"));
	p->startup_noise = json_number_value(json_object_get(root, "startup_noise"));
	p->repetitions = (int)json_integer_value(json_object_get(root, "repetitions"));
	p->nrunner = (int)json_array_size(runner);
	p->runner = xcalloc((size_t)p->nrunner + 1, sizeof *p->runner);
	for (int i = 0; i < p->nrunner; i++) {
		if (!json_is_string(json_array_get(runner, (size_t)i))) {
			error_set(err, "%s: runner: word %d is not a string", path, i + 1);
			goto out;
		}
		p->runner[i] = xstrdup(json_string_value(json_array_get(runner, (size_t)i)));
	}
	if (read_costs(json_object_get(root, "opcodes"), &p->op, &p->nop, "opcodes", path, err) < 0 ||
	    read_costs(json_object_get(root, "calls"), &p->call, &p->ncall, "calls", path, err) < 0)
		goto out;
	if (!platform_op(p, "add") || !platform_op(p, "call")) {
		error_set(err, "%s: opcodes add and call must be calibrated", path);
		goto out;
	}
	rc = 0;
out:
	json_decref(root);
	if (rc < 0)
		platform_release(p);
	return rc;
}

static void costs_release(struct platform_cost *v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i].name);
	free(v);
}

void platform_release(struct platform *p)
{
	free(p->target);
	free(p->opt);
	for (int i = 0; i < p->nrunner; i++)
		free(p->runner[i]);
	free(p->runner);
	free(p->machine);
	costs_release(p->op, p->nop);
	costs_release(p->call, p->ncall);
	memset(p, 0, sizeof *p);
}

static const struct platform_cost *find_cost(const struct platform_cost *v, int n, const char *name)
{
	for (int i = 0; i < n; i++) {
		if (strcmp(v[i].name, name) == 0)
			return &v[i];
	}
	return NULL;
}

const struct platform_cost *platform_op(const struct platform *p, const char *name)
{
	return find_cost(p->op, p->nop, name);
}

const struct platform_cost *platform_call(const struct platform *p, const char *name)
{
	return find_cost(p->call, p->ncall, name);
}

/* ---- the model ----------------------------------------------------------------------------- */

double platform_predict(const struct platform *p, const struct count *c)
{
	const struct platform_cost *add = platform_op(p, "add"), *call = platform_op(p, "call");
	double ns = 0;

	for (int i = 0; i < c->program.nop; i++) {
		const struct platform_cost *pc = platform_op(p, c->program.op[i].name);

		ns += (double)c->program.op[i].n * (pc ? pc->cost : add->cost);
	}
	for (int i = 0; i < c->program.ncall; i++) {
		const struct count_item *it = &c->program.call[i];
		const struct platform_cost *pc = platform_call(p, it->name);

		if (!pc)
			continue;
		ns += (double)it->n * (pc->cost - call->cost);
		if (it->has_bytes)
			ns += (double)it->bytes * pc->per_byte;
	}
	return p->startup + 1e-9 * ns;
}

/* Appends name = value to the lists. */
static void add_feature(char ***names, double **values, int *n, char *name, double value)
{
	*names = xrealloc(*names, sizeof **names * (size_t)(*n + 1));
	*values = xrealloc(*values, sizeof **values * (size_t)(*n + 1));
	(*names)[*n] = name;
	(*values)[(*n)++] = value;
}

int platform_features(const struct platform *p, const struct count *c, char ***names,
		      double **values)
{
	int n = 0;

	*names = NULL;
	*values = NULL;
	add_feature(names, values, &n, xstrdup("countxcost"), platform_predict(p, c));
	for (int i = 0; i < c->program.nop; i++)
		add_feature(names, values, &n, xasprintf("op.%s", c->program.op[i].name),
			    (double)c->program.op[i].n);
	for (int i = 0; i < c->program.ncall; i++) {
		const struct count_item *it = &c->program.call[i];

		add_feature(names, values, &n, xasprintf("call.%s", it->name), (double)it->n);
		if (it->has_bytes)
			add_feature(names, values, &n, xasprintf("bytes.%s", it->name), (double)it->bytes);
	}
	return n;
}

static void free_names(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

double platform_correct(const struct platform *p, const struct model *model, const struct count *c)
{
	char **names;
	double *values, *x = xcalloc((size_t)model->nfeatures + 1, sizeof *x), y;
	int n = platform_features(p, c, &names, &values);

	for (int j = 0; j < model->nfeatures; j++) {
		for (int i = 0; i < n; i++) {
			if (strcmp(names[i], model->features[j].name) == 0)
				x[j] = values[i];
		}
	}
	y = model_eval(model, x);
	free(x);
	free(values);
	free_names(names, n);
	return y;
}

/* ---- measuring ---------------------------------------------------------------------------- */

/* The program that runs there: opt->program, or BUILD/orig; owned. */
static char *program_there(const struct platform_eval_options *opt)
{
	return opt->program ? xstrdup(opt->program) : xasprintf("%s/orig", opt->build);
}

/*
 * Runs the program there 2 x reps times on in, interleaved; cpu[0] gets the median CPU time of
 * the even runs, cpu[1] of the odd ones. Returns 0, or -1 with *why set (owned) if a run
 * failed.
 */
static int measure_there(const struct platform *p, const char *exe, const struct input *in,
			 int reps, double timeout, double cpu[2], char **why)
{
	double t[2][64];
	struct run_options ro = {.timeout = timeout};
	struct error err = {""};

	for (int r = 0; r < 2 * reps; r++) {
		struct run_result res;

		if (platform_run(p, exe, in, &ro, &res, &err) < 0 || res.status != RUN_OK) {
			*why = xasprintf("the program there: %s", err.msg[0] ? err.msg
							   : runner_status_name(res.status));
			return -1;
		}
		t[r % 2][r / 2] = res.user + res.sys;
	}
	cpu[0] = median(t[0], reps);
	cpu[1] = median(t[1], reps);
	return 0;
}

/* Counts in here; fills *c and *seconds (wall time of the count). Returns 0 or -1 with *why. */
static int count_here(const char *build, const struct input *in, double timeout, struct count *c,
		      double *seconds, char **why)
{
	struct run_result res;
	struct error err = {""};

	if (count_run(c, build, in, timeout, &res, &err) < 0) {
		*why = xasprintf("no counts: %s", err.msg);
		return -1;
	}
	*seconds = res.wall;
	if (res.status != RUN_OK) {
		count_release(c);
		*why = xasprintf("the instrumented program here: %s", runner_status_name(res.status));
		return -1;
	}
	return 0;
}

/* Builds the correction's dataset from the features of each row. */
static void correction_dataset(struct dataset *ds, char ***names, double **values, int *nvalues,
			       const double *y, int n)
{
	memset(ds, 0, sizeof *ds);
	ds->n = n;
	ds->metric = xstrdup("cpu");
	for (int r = 0; r < n; r++) {
		for (int i = 0; i < nvalues[r]; i++) {
			int j;

			for (j = 0; j < ds->p && strcmp(ds->names[j], names[r][i]) != 0; j++)
				;
			if (j == ds->p) {
				ds->names = xrealloc(ds->names, sizeof *ds->names * (size_t)(ds->p + 1));
				ds->names[ds->p++] = xstrdup(names[r][i]);
			}
		}
	}
	ds->x = xcalloc((size_t)n * (size_t)ds->p + 1, sizeof *ds->x);
	ds->y = xcalloc((size_t)n + 1, sizeof *ds->y);
	ds->ids = xcalloc((size_t)n + 1, sizeof *ds->ids);
	for (int r = 0; r < n; r++) {
		ds->y[r] = y[r];
		ds->ids[r] = xasprintf("row %d", r + 1);
		for (int i = 0; i < nvalues[r]; i++) {
			for (int j = 0; j < ds->p; j++) {
				if (strcmp(ds->names[j], names[r][i]) == 0)
					ds->x[(size_t)j * (size_t)n + (size_t)r] = values[r][i];
			}
		}
	}
}

int platform_fit_correction(const struct platform *p, const struct platform_eval_options *opt,
			    struct model *model, struct error *err)
{
	const struct inputs *train = opt->train;
	char ***names = xcalloc((size_t)train->n + 1, sizeof *names), *exe = program_there(opt);
	double **values = xcalloc((size_t)train->n + 1, sizeof *values);
	double *y = xcalloc((size_t)train->n + 1, sizeof *y);
	int *nvalues = xcalloc((size_t)train->n + 1, sizeof *nvalues), n = 0, rc = -1;
	struct fit_options fo = fit_options_default();
	struct dataset ds;
	struct prep prep;

	for (int k = 0; k < train->n; k++) {
		struct count c;
		double cpu[2], seconds;
		char *why = NULL;

		if (count_here(opt->build, &train->v[k], opt->timeout, &c, &seconds, &why) == 0 &&
		    measure_there(p, exe, &train->v[k], opt->repeat, opt->timeout, cpu, &why) < 0)
			count_release(&c);
		if (why) {
			error_set(err, "%s:%d: %s", train->path, train->v[k].line, why);
			free(why);
			goto out;
		}
		nvalues[n] = platform_features(p, &c, &names[n], &values[n]);
		y[n++] = cpu[0];
		count_release(&c);
	}
	correction_dataset(&ds, names, values, nvalues, y, n);
	fo.degree = 1;
	fo.train_frac = 1;
	rc = fit_model(&ds, &fo, model, &prep, err);
	if (rc == 0)
		prep_release(&prep);
	else
		error_prefix(err, "the correction on %s", train->path);
	dataset_release(&ds);
out:
	for (int k = 0; k < n; k++) {
		free_names(names[k], nvalues[k]);
		free(values[k]);
	}
	free(names);
	free(values);
	free(nvalues);
	free(y);
	free(exe);
	return rc;
}

/* Sets mre, median, max, lt15, lt30 of the relative errors re[0..n), sorting them. */
static void error_stats(double *re, int n, double *mre, double *med, double *max, double *lt15,
			double *lt30)
{
	*mre = *med = *max = *lt15 = *lt30 = 0;
	if (!n)
		return;
	sort_doubles(re, n);
	for (int i = 0; i < n; i++) {
		*mre += re[i] / n;
		*lt15 += (re[i] < 0.15) / (double)n;
		*lt30 += (re[i] < 0.30) / (double)n;
	}
	*med = n % 2 ? re[n / 2] : (re[n / 2 - 1] + re[n / 2]) / 2;
	*max = re[n - 1];
}

int platform_eval(const struct platform *p, const struct platform_eval_options *opt,
		  const struct inputs *test, struct platform_eval *out, struct error *err)
{
	double *re = xcalloc((size_t)test->n + 1, sizeof *re), *cre = xcalloc((size_t)test->n + 1, sizeof *cre);
	char *exe = program_there(opt);
	struct model correction = {0};
	struct strbuf failed = {0};
	double unused;

	memset(out, 0, sizeof *out);
	if (opt->train && platform_fit_correction(p, opt, &correction, err) < 0) {
		free(re);
		free(cre);
		free(exe);
		return -1;
	}
	out->corrected = opt->train != NULL;
	for (int k = 0; k < test->n; k++) {
		struct count c;
		double cpu[2], seconds, predicted;
		char *why = NULL;

		if (count_here(opt->build, &test->v[k], opt->timeout, &c, &seconds, &why) == 0 &&
		    measure_there(p, exe, &test->v[k], opt->repeat, opt->timeout, cpu, &why) < 0)
			count_release(&c);
		if (why) {
			char *line = xasprintf("input line %d: %s\n", test->v[k].line, why);

			strbuf_add(&failed, line, strlen(line));
			free(line);
			free(why);
			continue;
		}
		predicted = platform_predict(p, &c);
		if (cpu[0] > 0) {
			re[out->n] = fabs(predicted - cpu[0]) / cpu[0];
			if (out->corrected)
				cre[out->n] = fabs(platform_correct(p, &correction, &c) - cpu[0]) / cpu[0];
			out->noise += fabs(cpu[1] - cpu[0]) / cpu[0];
			out->count_seconds += seconds;
			out->actual_mean += cpu[0];
			out->n++;
		}
		count_release(&c);
	}
	if (out->n) {
		out->noise /= out->n;
		out->count_seconds /= out->n;
		out->actual_mean /= out->n;
	}
	error_stats(re, out->n, &out->mre, &out->median_re, &out->max_re, &out->lt15, &out->lt30);
	if (out->corrected) {
		struct strbuf sb = {0};

		error_stats(cre, out->n, &out->corrected_mre, &out->corrected_median_re, &unused,
			    &unused, &out->corrected_lt30);
		model_format(&correction, &sb);
		out->correction = strbuf_detach(&sb);
		model_release(&correction);
	}
	out->failed = failed.len ? strbuf_detach(&failed) : NULL;
	free(re);
	free(cre);
	free(exe);
	return 0;
}

void platform_eval_release(struct platform_eval *e)
{
	free(e->correction);
	free(e->failed);
	memset(e, 0, sizeof *e);
}
