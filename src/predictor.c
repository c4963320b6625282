/*
 * predictor.c: the predictor directory and one prediction (Mantis 000_ section 2, the online
 * stage): prediction = model(features computed by the evaluator on the input).
 *
 * The evaluator is run like the program (runner.c: a scratch folder as working directory and
 * {tmp}, its own process group, a timeout), with MANTIS_COUNTERS naming the file it writes its
 * counters to and MANTIS_READ_FAILURES the file where its runtime (rt/slicert.c) names every file
 * it could not open for reading. A prediction is refused, never guessed, when an input file named
 * by the input cannot be read, or when the evaluator fails, times out or writes no counters (it
 * left by an exit no training run reached). Feature values outside the training range give a
 * warning: the model extrapolates there.
 * Invariant: predictor.json, model.json and build/features.json agree: every model feature is a
 * feature of the manifest, and predictor.json's metric is the model's.
 */
#include "predictor.h"

#include <assert.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "inputs.h"
#include "runner.h"
#include "util.h"

int predictor_write_info(const char *dir, const struct predictor_info *info, struct error *err)
{
	char *path = xasprintf("%s/predictor.json", dir), *tmp = xasprintf("%s.tmp", path);
	json_t *root = json_object();
	int rc = 0;

	json_object_set_new(root, "version", json_integer(1));
	json_object_set_new(root, "metric", json_string(info->metric));
	json_object_set_new(root, "threshold", json_real(info->threshold));
	json_object_set_new(root, "cost", json_real(info->cost));
	json_object_set_new(root, "ntrain", json_integer(info->ntrain));
	json_object_set_new(root, "iterations", json_integer(info->iterations));
	json_object_set_new(root, "evaluator", info->has_evaluator ? json_string("evaluator")
								   : json_null());
	if (json_dump_file(root, tmp, JSON_INDENT(1) | JSON_REAL_PRECISION(6)) != 0 ||
	    rename(tmp, path) != 0)
		rc = error_errno(err, "cannot write %s", path);
	json_decref(root);
	free(path);
	free(tmp);
	return rc;
}

/* Reads predictor.json into *info. Returns 0 or -1 with err naming the file. */
static int read_info(const char *path, struct predictor_info *info, struct error *err)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je), *metric, *evaluator;

	memset(info, 0, sizeof *info);
	if (!root)
		return access(path, F_OK) != 0
			       ? error_set(err, "%s: missing (is this a directory made by mantis train?)",
					   path)
			       : error_set(err, "%s:%d:%d: %s", path, je.line, je.column, je.text);
	metric = json_object_get(root, "metric");
	evaluator = json_object_get(root, "evaluator");
	if (!json_is_string(metric) || !(json_is_string(evaluator) || json_is_null(evaluator))) {
		json_decref(root);
		return error_set(err, "%s: not a predictor (no metric or evaluator)", path);
	}
	info->metric = xstrdup(json_string_value(metric));
	info->threshold = json_number_value(json_object_get(root, "threshold"));
	info->cost = json_number_value(json_object_get(root, "cost"));
	info->ntrain = (int)json_integer_value(json_object_get(root, "ntrain"));
	info->iterations = (int)json_integer_value(json_object_get(root, "iterations"));
	info->has_evaluator = json_is_string(evaluator);
	json_decref(root);
	return 0;
}

int predictor_open(struct predictor *p, const char *dir, struct error *err)
{
	char *info = xasprintf("%s/predictor.json", dir), *model = xasprintf("%s/model.json", dir);
	char *manifest = xasprintf("%s/build/features.json", dir);
	int rc = -1;

	memset(p, 0, sizeof *p);
	p->dir = xstrdup(dir);
	if (read_info(info, &p->info, err) < 0 || model_read(&p->model, model, err) < 0 ||
	    manifest_read(&p->m, manifest, err) < 0)
		goto out;
	if (strcmp(p->model.metric, p->info.metric) != 0) {
		error_set(err, "%s: its metric %s is not the predictor's (%s)", model, p->model.metric,
			  p->info.metric);
		goto out;
	}
	p->feature = xcalloc((size_t)p->model.nfeatures + 1, sizeof *p->feature);
	for (int i = 0; i < p->model.nfeatures; i++) {
		p->feature[i] = manifest_find(&p->m, p->model.features[i].name);
		if (p->feature[i] < 0) {
			error_set(err, "%s: feature %s is not in %s", model, p->model.features[i].name,
				  manifest);
			goto out;
		}
	}
	if (p->model.nfeatures > 0 && !p->info.has_evaluator) {
		error_set(err, "%s: the model reads features but there is no evaluator", info);
		goto out;
	}
	if (p->info.has_evaluator) {
		p->evaluator = xasprintf("%s/evaluator", dir);
		if (access(p->evaluator, X_OK) != 0) {
			error_errno(err, "%s", p->evaluator);
			goto out;
		}
	}
	rc = 0;
out:
	free(info);
	free(model);
	free(manifest);
	return rc;
}

/*
 * Returns the first file the evaluator could not open that the input names (a word, the
 * value of a -opt=VALUE word, or its stdin), read from the failures file; owned by the caller,
 * or NULL.
 */
static char *unreadable_input(const struct input *in, const char *failures)
{
	FILE *f = fopen(failures, "r");
	char line[4096], *found = NULL;

	while (f && !found && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		for (int i = 0; i < in->argc && !found; i++) {
			const char *eq = strchr(in->argv[i], '=');

			if (strcmp(in->argv[i], line) == 0 || (eq && strcmp(eq + 1, line) == 0))
				found = xstrdup(line);
		}
	}
	if (f)
		fclose(f);
	return found;
}

/* Sets out->warning for the feature values outside their training range. */
static void range_warning(const struct predictor *p, struct prediction *out)
{
	struct strbuf sb = {0};

	for (int i = 0; i < p->model.nfeatures; i++) {
		const struct model_feature *f = &p->model.features[i];
		char *part;

		if (out->values[i] >= f->min && out->values[i] <= f->max)
			continue;
		part = xasprintf("%s%s = %.6g is outside its training range [%.6g, %.6g]",
				 sb.len ? "; " : "", f->name, out->values[i], f->min, f->max);
		strbuf_add(&sb, part, strlen(part));
		free(part);
	}
	if (sb.len) {
		strbuf_add(&sb, ": the model extrapolates", strlen(": the model extrapolates"));
		out->warning = strbuf_detach(&sb);
	}
}

int predictor_measure(const char *exe, const struct input *in, double timeout,
		      const struct manifest *m, struct run_result *res, uint64_t **counters,
		      char **unreadable, struct error *err)
{
	return predictor_measure_env(exe, in, timeout, NULL, m, res, counters, unreadable, err);
}

int predictor_measure_env(const char *exe, const struct input *in, double timeout,
			  char *const *extra_env, const struct manifest *m, struct run_result *res,
			  uint64_t **counters, char **unreadable, struct error *err)
{
	char tmp[] = "/tmp/mantis-predict-XXXXXX", *counters_path, *failures, *env[16];
	struct run_options ro = {.timeout = timeout};
	struct error ignored;
	int rc, nenv = 2;

	*counters = NULL;
	if (unreadable)
		*unreadable = NULL;
	if (!mkdtemp(tmp))
		return error_errno(err, "cannot make a temporary directory");
	counters_path = xasprintf("%s/counters", tmp);
	failures = xasprintf("%s/unreadable", tmp);
	env[0] = xasprintf("MANTIS_COUNTERS=%s", counters_path);
	env[1] = xasprintf("MANTIS_READ_FAILURES=%s", failures);
	for (int i = 0; extra_env && extra_env[i]; i++) {
		assert(nenv < 15);
		env[nenv++] = extra_env[i];
	}
	env[nenv] = NULL;
	ro.env = env;
	rc = runner_run(exe, in, &ro, res, err);
	if (rc == 0 && m && access(counters_path, F_OK) == 0 &&
	    counters_read(m, counters_path, counters, &ignored) < 0)
		*counters = NULL;
	if (rc == 0 && unreadable)
		*unreadable = unreadable_input(in, failures);
	unlink(counters_path);
	unlink(failures);
	rmdir(tmp);
	free(counters_path);
	free(failures);
	free(env[0]);
	free(env[1]);
	return rc;
}

/* Runs the evaluator on in and fills out->values. Returns 0 or -1 with err set. */
static int evaluate(const struct predictor *p, const struct input *in, double timeout,
		    struct prediction *out, struct error *err)
{
	struct run_result res;
	uint64_t *counters;
	char *missing;
	int rc;

	if (in->stdin_path && access(in->stdin_path, R_OK) != 0)
		return error_errno(err, "cannot read the input's stdin %s", in->stdin_path);
	if (predictor_measure(p->evaluator, in, timeout, &p->m, &res, &counters, &missing, err) < 0)
		return -1;
	out->seconds = res.wall;
	if (missing) {
		rc = error_set(err, "input file %s cannot be read (%s): the program would fail on this "
			       "input; no prediction", missing, access(missing, F_OK) ? "missing"
										: "no permission");
	} else if (res.status == RUN_TIMEOUT) {
		rc = error_set(err, "the evaluator did not finish within its budget of %g s", timeout);
	} else if (res.status != RUN_OK) {
		rc = error_set(err, "the evaluator %s (%s %d): this input takes a path no training "
			       "input took (the evaluator keeps only the paths training saw), or the "
			       "program fails on it; no prediction (train with inputs like it)",
			       res.status == RUN_CRASH ? "crashed" : "exited non-zero",
			       res.status == RUN_CRASH ? "signal" : "status",
			       res.status == RUN_CRASH ? res.signal : res.exit_code);
	} else if (!counters) {
		rc = error_set(err, "the evaluator wrote no features: the program leaves by an exit "
			       "no training input reached; no prediction");
	} else {
		for (int i = 0; i < p->model.nfeatures; i++)
			out->values[i] = feature_value(&p->m.v[p->feature[i]], counters);
		rc = 0;
	}
	free(counters);
	free(missing);
	return rc;
}

int predictor_run(const struct predictor *p, const struct input *in, double timeout,
		  struct prediction *out, struct error *err)
{
	memset(out, 0, sizeof *out);
	out->nvalues = p->model.nfeatures;
	out->values = xcalloc((size_t)out->nvalues + 1, sizeof *out->values);
	if (p->evaluator && evaluate(p, in, timeout, out, err) < 0) {
		prediction_release(out);
		return -1;
	}
	out->value = model_eval(&p->model, out->values);
	range_warning(p, out);
	return 0;
}

void prediction_release(struct prediction *out)
{
	free(out->values);
	free(out->warning);
	memset(out, 0, sizeof *out);
}

void predictor_release(struct predictor *p)
{
	free(p->dir);
	free(p->info.metric);
	model_release(&p->model);
	manifest_release(&p->m);
	free(p->feature);
	free(p->evaluator);
	memset(p, 0, sizeof *p);
}
