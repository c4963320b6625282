/*
 * predictor.c: the predictor directory and one prediction (Mantis 000_ section 2, the online
 * stage): prediction = model(features computed by the evaluator on the input).
 *
 * The evaluator is run like the program (runner.c: a scratch folder as working directory and
 * {tmp}, its own process group, a timeout), with MANTIS_COUNTERS naming the file it writes its
 * counters to and MANTIS_READ_FAILURES the file where its runtime (rt/sandbox.c) names every file
 * it could not open for reading. A prediction is refused, never guessed, when an input file named
 * by the input cannot be read, or when the evaluator fails, times out or writes no counters (it
 * left by an exit no training run reached). Feature values outside the training range give a
 * warning: the model goes on linearly past the range there (model_eval).
 * The model may also read input features (descriptor.h: numeric arguments, file sizes, the data
 * file's content probed), computed here from the input's words and files with no evaluator; a
 * file whose size or content the model reads must be readable, or there is no prediction. And
 * it may read sampled features (sampler.h), computed by PRED/build/sandboxed run on two samples
 * of the input's large files, as predictor.json's "sampled" says; a failure there is no
 * prediction either.
 * The manifest is PRED/features.json, the build's cut to the model's features (train writes
 * it), or build/features.json for a predictor trained before it existed. The instruction
 * count eval measures is cut apart into PRED/instructions.json (predictor_counting): a
 * prediction never reads it.
 * With a gate (predictor.json "gate", train.c gate_long_inputs), PRED/long is a predictor of its
 * own: predictor_choose evaluates this model, which then reads input features alone, and an
 * input it predicts at or above the gate is predicted by PRED/long.
 * A command that predicts one input (mantis predict) opens lazily (predictor_open_to_predict):
 * no manifest for a model of input features alone, PRED/long once an input is gated there; a
 * scheduler pays the command's whole run per job, and those reads were most of it.
 * Invariant: predictor.json, model.json and the manifest agree: every model feature is a
 * feature of the manifest, an input feature or a sampled feature of one of the manifest, there
 * is an evaluator exactly when one is of the manifest, a sampling plan exactly when one is
 * sampled, and predictor.json's metric is the model's.
 */
#include "predictor.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "descriptor.h"
#include "error.h"
#include "inputs.h"
#include "runner.h"
#include "sampledb.h"
#include "solib.h"
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
	json_object_set_new(root, "ok_exit", json_array());
	for (int c = 1; c < 64; c++)
		if (info->ok_exits >> c & 1)
			json_array_append_new(json_object_get(root, "ok_exit"), json_integer(c));
	if (info->plan.npositions > 0) {
		char *files = sampler_plan_files(&info->plan);

		json_object_set_new(root, "sampled", json_pack("{s:f, s:I, s:i, s:i, s:I, s:s, s:f, s:s}",
			"fraction", info->plan.fraction, "least", (json_int_t)sampler_least(&info->plan),
			"chunks", info->plan.chunks, "smaller", sampler_smaller(&info->plan), "align",
			(json_int_t)sampler_align(&info->plan), "files", files, "cost",
			info->sampled_cost, "program", info->sampled_program));
		if (info->has_sampled_inproc)
			json_object_set_new(json_object_get(root, "sampled"), "in_process",
					    json_pack("{s:s, s:f}", "object", "sampled-evaluator.so",
						      "cost", info->sampled_inproc_cost));
		free(files);
	} else {
		json_object_set_new(root, "sampled", json_null());
	}
	json_object_set_new(root, "gate", info->gate > 0 ? json_pack("{s:f, s:s}", "at_least",
					 info->gate, "predictor", PREDICTOR_GATED) : json_null());
	json_object_set_new(root, "in_process", info->has_inproc ? json_pack("{s:s, s:f, s:f}",
			    "object", "evaluator.so", "cost", info->inproc_cost, "cold_cost",
			    info->inproc_cold_cost) : json_null());
	if (json_dump_file(root, tmp, JSON_INDENT(1) | JSON_REAL_PRECISION(6)) != 0 ||
	    rename(tmp, path) != 0)
		rc = error_errno(err, "cannot write %s", path);
	json_decref(root);
	free(path);
	free(tmp);
	return rc;
}

/* Reads predictor.json's "sampled" object into info. Returns 0 or -1 with err naming path. */
static int read_sampled(const char *path, json_t *sampled, struct predictor_info *info,
			struct error *err)
{
	json_t *files = json_object_get(sampled, "files"), *program = json_object_get(sampled, "program");
	struct error why = {""};

	info->plan.fraction = json_number_value(json_object_get(sampled, "fraction"));
	info->plan.chunks = (int)json_integer_value(json_object_get(sampled, "chunks"));
	info->plan.least = (long)json_integer_value(json_object_get(sampled, "least"));
	/* absent in predictors made before it: a quarter, SAMPLER_SMALLER */
	info->plan.smaller = (int)json_integer_value(json_object_get(sampled, "smaller"));
	/* absent in predictors made before it: pieces at any byte */
	info->plan.align = json_object_get(sampled, "align")
		? (long)json_integer_value(json_object_get(sampled, "align")) : 1;
	info->sampled_cost = json_number_value(json_object_get(sampled, "cost"));
	if (json_is_object(json_object_get(sampled, "in_process"))) { /* absent before session 65 */
		info->has_sampled_inproc = 1;
		info->sampled_inproc_cost = json_number_value(json_object_get(
			json_object_get(sampled, "in_process"), "cost"));
	}
	if (!json_is_string(files) || !json_is_string(program) ||
	    !(info->plan.fraction > 0 && info->plan.fraction <= 1) || info->plan.chunks < 0 ||
	    info->plan.least < 0)
		return error_set(err, "%s: \"sampled\" needs a fraction, chunks, files and a program",
				 path);
	if (json_object_get(sampled, "smaller") && !(info->plan.smaller >= 2))
		return error_set(err, "%s: \"sampled\": smaller must be an integer of 2 or more (the "
				 "larger sample over the smaller)", path);
	if (!(info->plan.align >= 1))
		return error_set(err, "%s: \"sampled\": align must be an integer of 1 or more (the "
				 "bytes a binary file's pieces start at a multiple of)", path);
	if (strcmp(json_string_value(program), "build/sandboxed") != 0 &&
	    strcmp(json_string_value(program), "sampled-evaluator") != 0)
		return error_set(err, "%s: \"sampled\": program %s is not build/sandboxed or "
				 "sampled-evaluator", path, json_string_value(program));
	info->sampled_program = xstrdup(json_string_value(program));
	if (sampler_plan_parse_files(&info->plan, json_string_value(files), &why) < 0 ||
	    info->plan.npositions == 0)
		return error_set(err, "%s: \"sampled\": %s", path, why.msg[0] ? why.msg : "no files");
	return 0;
}

/* Reads predictor.json into *info. Returns 0 or -1 with err naming the file. */
static int read_info(const char *path, struct predictor_info *info, struct error *err)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je), *metric, *evaluator, *sampled, *ok, *code, *gate;
	json_t *hosted;
	size_t i;

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
	ok = json_object_get(root, "ok_exit"); /* absent before --ok-exit: none */
	json_array_foreach(ok, i, code) {
		json_int_t c = json_integer_value(code);

		if (!json_is_integer(code) || c < 1 || c > 63) {
			json_decref(root);
			return error_set(err, "%s: \"ok_exit\" holds %s, not an exit code from 1 to "
					 "63", path, json_is_integer(code) ? "a code out of range"
									: "something else");
		}
		info->ok_exits |= (uint64_t)1 << c;
	}
	sampled = json_object_get(root, "sampled");
	if (json_is_object(sampled) && read_sampled(path, sampled, info, err) < 0) {
		json_decref(root);
		return -1;
	}
	gate = json_object_get(root, "gate"); /* absent before gates: none */
	if (json_is_object(gate)) {
		info->gate = json_number_value(json_object_get(gate, "at_least"));
		if (!(info->gate > 0) || !json_is_string(json_object_get(gate, "predictor")) ||
		    strcmp(json_string_value(json_object_get(gate, "predictor")),
			   PREDICTOR_GATED) != 0) {
			json_decref(root);
			return error_set(err, "%s: \"gate\" needs a positive at_least and the "
					 "predictor \"%s\"", path, PREDICTOR_GATED);
		}
	}
	hosted = json_object_get(root, "in_process"); /* absent before session 64: none */
	if (json_is_object(hosted)) {
		info->has_inproc = 1;
		info->inproc_cost = json_number_value(json_object_get(hosted, "cost"));
		info->inproc_cold_cost = json_number_value(json_object_get(hosted, "cold_cost"));
	}
	json_decref(root);
	return 0;
}

static int open_predictor(struct predictor *p, const char *dir, int lazy, struct error *err);

/* Opens p's gated predictor, PRED/long, into p->gated. Returns 0, or -1 with err naming the
 * file at fault. */
static int open_gated(struct predictor *p, struct error *err)
{
	char *dir = xasprintf("%s/%s", p->dir, PREDICTOR_GATED);
	int rc = -1;

	p->gated = xcalloc(1, sizeof *p->gated);
	if (open_predictor(p->gated, dir, p->lazy, err) < 0)
		;
	else if (p->gated->info.gate > 0)
		error_set(err, "%s/predictor.json: a gated predictor has a gate of its own", dir);
	else if (strcmp(p->gated->info.metric, p->info.metric) != 0)
		error_set(err, "%s/predictor.json: its metric %s is not the gate's (%s)", dir,
			  p->gated->info.metric, p->info.metric);
	else
		rc = 0;
	runner_set_ok_exits(p->info.ok_exits);
	free(dir);
	return rc;
}

/* Returns whether p's manifest must be read: opened for everything, or when the model reads a
 * feature that is not an input feature (an input feature needs none: descriptor.h). */
static int needs_manifest(const struct predictor *p)
{
	for (int i = 0; i < p->model.nfeatures; i++) {
		if (descriptor_find(p->model.features[i].name) < 0)
			return 1;
	}
	return !p->lazy;
}

/* Fills p->feature, p->descriptor and p->sampled from the model and the manifest. Returns 0, or
 * -1 with err naming a feature in neither (model, manifest: their paths). */
static int place_features(struct predictor *p, const char *model, const char *manifest,
			  struct error *err)
{
	p->feature = xcalloc((size_t)p->model.nfeatures + 1, sizeof *p->feature);
	p->descriptor = xcalloc((size_t)p->model.nfeatures + 1, sizeof *p->descriptor);
	p->sampled = xcalloc((size_t)p->model.nfeatures + 1, sizeof *p->sampled);
	for (int i = 0; i < p->model.nfeatures; i++) {
		const char *name = p->model.features[i].name, *of = sampler_feature(name);

		p->feature[i] = manifest_find(&p->m, name);
		p->descriptor[i] = p->feature[i] < 0 ? descriptor_find(name) : -1;
		p->sampled[i] = of && p->feature[i] < 0 ? manifest_find(&p->m, of) : -1;
		p->nprogram += p->feature[i] >= 0;
		p->nsampled += p->sampled[i] >= 0;
		if (p->feature[i] < 0 && p->descriptor[i] < 0 && p->sampled[i] < 0)
			return error_set(err, "%s: feature %s is not in %s", model, name, manifest);
	}
	return 0;
}

/* Reads PRED/instructions.json into p->counted for an instruction-count predictor whose
 * manifest lacks the count, when the file exists. Returns 0, or -1 with err naming it. */
static int read_counted(struct predictor *p, struct error *err)
{
	char *path;
	int rc = 0;

	if (strcmp(p->info.metric, "instructions") != 0 ||
	    manifest_find(&p->m, MANIFEST_INSTRUCTIONS) >= 0)
		return 0;
	path = xasprintf("%s/instructions.json", p->dir);
	if (access(path, F_OK) == 0)
		rc = manifest_read(&p->counted, path, err);
	free(path);
	return rc;
}

const struct manifest *predictor_counting(const struct predictor *p)
{
	return manifest_find(&p->counted, MANIFEST_INSTRUCTIONS) >= 0 ? &p->counted : &p->m;
}

/* Opens the predictor in dir into p (predictor_open; lazy: predictor_open_to_predict).
 * Returns 0, or -1 with err naming the file at fault. */
static int open_predictor(struct predictor *p, const char *dir, int lazy, struct error *err)
{
	char *info = xasprintf("%s/predictor.json", dir), *model = xasprintf("%s/model.json", dir);
	char *manifest = xasprintf("%s/features.json", dir);
	int rc = -1;

	if (access(manifest, F_OK) != 0) { /* trained before PRED/features.json existed */
		free(manifest);
		manifest = xasprintf("%s/build/features.json", dir);
	}

	memset(p, 0, sizeof *p);
	p->dir = xstrdup(dir);
	p->lazy = lazy;
	if (read_info(info, &p->info, err) < 0 || model_read(&p->model, model, err) < 0 ||
	    (needs_manifest(p) && manifest_read(&p->m, manifest, err) < 0))
		goto out;
	runner_set_ok_exits(p->info.ok_exits);
	if (strcmp(p->model.metric, p->info.metric) != 0) {
		error_set(err, "%s: its metric %s is not the predictor's (%s)", model, p->model.metric,
			  p->info.metric);
		goto out;
	}
	if (place_features(p, model, manifest, err) < 0)
		goto out;
	if (p->nsampled > 0 && p->info.plan.npositions == 0) {
		error_set(err, "%s: the model reads sampled features but there is no \"sampled\"",
			  info);
		goto out;
	}
	if (p->nsampled > 0) {
		p->sandboxed = xasprintf("%s/build/sandboxed", dir);
		p->sampler = xasprintf("%s/%s", dir, p->info.sampled_program);
		if (access(p->sandboxed, X_OK) != 0 || access(p->sampler, X_OK) != 0) {
			error_errno(err, "%s", access(p->sandboxed, X_OK) ? p->sandboxed : p->sampler);
			goto out;
		}
	}
	if (p->nprogram > 0 && !p->info.has_evaluator) {
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
	if (p->info.gate > 0 && p->nprogram + p->nsampled > 0) {
		error_set(err, "%s: a gate needs a model of input features alone", info);
		goto out;
	}
	if (p->info.gate > 0 && !lazy && open_gated(p, err) < 0)
		goto out;
	if (!lazy && read_counted(p, err) < 0)
		goto out;
	rc = 0;
out:
	free(info);
	free(model);
	free(manifest);
	return rc;
}

int predictor_open(struct predictor *p, const char *dir, struct error *err)
{
	return open_predictor(p, dir, 0, err);
}

int predictor_open_to_predict(struct predictor *p, const char *dir, struct error *err)
{
	return open_predictor(p, dir, 1, err);
}

/* predictor_host for p alone. */
static int host_one(struct predictor *p, struct error *err)
{
	char *so;

	if (p->sampler && p->info.has_sampled_inproc) {
		so = xasprintf("%s.so", p->sampler);
		if (access(so, R_OK) == 0 && !p->sampler_hosted)
			p->sampler_hosted = so;
		else
			free(so);
	}
	if (!p->evaluator)
		return 0;
	if (!p->info.has_inproc)
		return error_set(err, "%s/predictor.json: the evaluator has no shared-object form "
				 "validated in training (trained before it existed, or refused: "
				 "train's log says why)", p->dir);
	so = xasprintf("%s/evaluator.so", p->dir);
	if (access(so, R_OK) != 0) {
		error_errno(err, "%s", so);
		free(so);
		return -1;
	}
	free(p->hosted);
	p->hosted = so;
	return 0;
}

int predictor_host(struct predictor *p, struct error *err)
{
	int rc;

	assert(!p->lazy);
	rc = host_one(p, err);
	if (p->gated && host_one(p->gated, rc < 0 ? &(struct error){""} : err) < 0)
		rc = -1;
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

/* Sets out->warning for the feature values outside their training range, and for a prediction
 * at the model's floor (model_floored: the polynomial gave zero or less). */
static void set_warning(const struct predictor *p, struct prediction *out)
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
		const char *past = p->model.rate.npoints > 0
			? ": the rate is that of the training inputs nearest, times the scale"
			: ": the model goes on linearly past the range";

		strbuf_add(&sb, past, strlen(past));
	}
	if (model_raised(&p->model, out->values))
		strbuf_addf(&sb, "%sthe model gives zero or less: predicted as %.6g, the least "
			    "value of the training inputs", sb.len ? "; " : "", p->model.floor);
	if (sb.len)
		out->warning = strbuf_detach(&sb);
}

int predictor_measure(const char *exe, const struct input *in, double timeout,
		      const struct manifest *m, struct run_result *res, uint64_t **counters,
		      char **unreadable, struct error *err)
{
	return predictor_measure_env(exe, in, timeout, NULL, m, res, counters, unreadable, err);
}

/* Returns a new private folder for a run's counters, in memory (/dev/shm) where the machine
 * has it, else in /tmp: the evaluator writes its counters as it exits, and on this machine's
 * disk-backed /tmp that took 0.25 ms of pathroute's 0.84 ms evaluator run (mantis predict's
 * evaluator_seconds, median of 30: 1.16 -> 1.03 ms). NULL with errno set if neither
 * can be made; owned by the caller. */
static char *counters_folder(void)
{
	char *dir = xstrdup("/dev/shm/mantis-predict-XXXXXX");

	if (mkdtemp(dir))
		return dir;
	strcpy(dir, "/tmp/mantis-predict-XXXXXX"); /* shorter: it fits */
	if (mkdtemp(dir))
		return dir;
	free(dir);
	return NULL;
}

/* predictor_measure_env's run of exe, or with so not NULL of exe's shared-object form so in
 * this process (solib_run). Returns as predictor_measure_env. */
static int measure(const char *exe, const char *so, const struct input *in, double timeout,
		   char *const *extra_env, const struct manifest *m, struct run_result *res,
		   uint64_t **counters, char **unreadable, struct error *err)
{
	char *tmp, *counters_path, *failures, *env[16];
	struct run_options ro = {.timeout = timeout};
	struct error ignored;
	int rc, nenv = 2;

	*counters = NULL;
	if (unreadable)
		*unreadable = NULL;
	if (!(tmp = counters_folder()))
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
	ro.argv0 = m ? m->program : NULL;
	if (unreadable) /* sandboxed: its scratch folder stays empty, and tmp is in memory */
		ro.scratch_parent = tmp;
	rc = so ? solib_run(so, in, &ro, res, err) : runner_run(exe, in, &ro, res, err);
	if (rc == 0 && m && counters_read(m, counters_path, counters, &ignored) < 0) /* none */
		*counters = NULL;
	if (rc == 0 && unreadable)
		*unreadable = unreadable_input(in, failures);
	unlink(counters_path);
	unlink(failures);
	rmdir(tmp);
	free(tmp);
	free(counters_path);
	free(failures);
	free(env[0]);
	free(env[1]);
	return rc;
}

int predictor_measure_env(const char *exe, const struct input *in, double timeout,
			  char *const *extra_env, const struct manifest *m, struct run_result *res,
			  uint64_t **counters, char **unreadable, struct error *err)
{
	return measure(exe, NULL, in, timeout, extra_env, m, res, counters, unreadable, err);
}

int predictor_measure_hosted(const char *host, const char *so, const struct input *in,
			     double timeout, const struct manifest *m, struct run_result *res,
			     double *cold, uint64_t **counters, struct error *err)
{
	struct input hosted = *in;
	char *wall_path, *env[2], wall[64], *so_abs = realpath(so, NULL);
	int fd, rc;
	ssize_t got;

	if (!so_abs) /* the host runs in a scratch folder: a relative path would not reach it */
		return error_errno(err, "cannot run %s", so);
	hosted.argc = in->argc + 2;
	hosted.argv = xcalloc((size_t)hosted.argc + 1, sizeof *hosted.argv);
	hosted.argv[0] = so_abs;
	hosted.argv[1] = (char *)(m && m->program ? m->program : so);
	memcpy(hosted.argv + 2, in->argv, sizeof *in->argv * (size_t)in->argc);
	if (!(wall_path = counters_folder())) {
		free(hosted.argv);
		free(so_abs);
		return error_errno(err, "cannot make a temporary directory");
	}
	env[0] = xasprintf("MANTIS_HOSTED_WALL=%s/wall", wall_path);
	env[1] = NULL;
	rc = predictor_measure_env(host, &hosted, timeout, env, m, res, counters, NULL, err);
	*cold = NAN;
	if (rc == 0 && (fd = open(env[0] + strlen("MANTIS_HOSTED_WALL="), O_RDONLY)) >= 0) {
		char *second;

		got = read(fd, wall, sizeof wall - 1);
		close(fd);
		wall[got > 0 ? got : 0] = '\0';
		if (got > 0 && (second = strchr(wall, '\n'))) {
			*cold = strtod(wall, NULL);
			/* the lesser: a loaded machine preempts either run, and a preempted millisecond
			 * was 5 points of a 20 ms program's evaluator in tests/cli/train-in-process.t */
			res->wall = fmin(*cold, strtod(second + 1, NULL));
		}
	}
	unlink(env[0] + strlen("MANTIS_HOSTED_WALL="));
	rmdir(wall_path);
	free(wall_path);
	free(env[0]);
	free(hosted.argv);
	free(so_abs);
	return rc;
}

int predictor_measure_form(const char *exe, const struct solib_form *form, const struct input *in,
			   double timeout, const struct manifest *m, struct run_result *res,
			   uint64_t **counters, char **unreadable, struct error *err)
{
	double cold;

	if (!form || !form->so || !form->host)
		return measure(exe, form ? form->so : NULL, in, timeout, NULL, m, res, counters,
			       unreadable, err);
	if (unreadable)
		*unreadable = NULL;
	return predictor_measure_hosted(form->host, form->so, in, timeout, m, res, &cold, counters,
					err);
}

/* Timed start-ups per predictor_start_seconds: the median of 5 is steady within 0.1 ms here. */
#define START_RUNS 5

/* Sets *seconds to the median start-up of exe on in (NaN for a build that runs to its end).
 * Returns 0 or -1 with err set. */
static int start_of(const char *exe, const struct predictor *p, const struct input *in,
		    double *seconds, struct error *err)
{
	char start_only[] = "MANTIS_EVALUATOR_START_ONLY=1", *env[] = {start_only, NULL};
	double walls[START_RUNS];

	for (int i = 0; i < START_RUNS; i++) {
		struct run_result res;
		uint64_t *counters;

		if (predictor_measure_env(exe, in, 10, env, &p->m, &res, &counters, NULL, err) < 0)
			return -1;
		if (counters) { /* it ran to its end: built before MANTIS_EVALUATOR_START_ONLY */
			free(counters);
			*seconds = NAN;
			return 0;
		}
		walls[i] = res.wall;
	}
	*seconds = median(walls, START_RUNS);
	return 0;
}

int predictor_start_seconds(const struct predictor *p, const struct input *in, double *seconds,
			    struct error *err)
{
	double sandboxed = 0;

	p = predictor_choose(p, in);
	*seconds = 0;
	if (p->evaluator && start_of(p->evaluator, p, in, seconds, err) < 0)
		return -1;
	if (p->sampler && start_of(p->sampler, p, in, &sandboxed, err) < 0)
		return -1;
	*seconds += 2 * sandboxed; /* a run on each of the two samples */
	return 0;
}

void predictor_values(const struct predictor *p, const struct input *in, const uint64_t *counters,
		      const struct sampled_run *sampled, double *values)
{
	double row[DESCRIPTOR_N];
	int probes = 0;

	for (int i = 0; i < p->model.nfeatures; i++)
		probes |= descriptor_probes(p->descriptor[i]) || descriptor_scripted(p->descriptor[i]);
	if (probes)
		descriptor_values(in, row); /* reads 64 KiB of the data file: only when asked */
	else if (p->nprogram + p->nsampled < p->model.nfeatures)
		descriptor_sizes(in, row);
	for (int i = 0; i < p->model.nfeatures; i++)
		values[i] = p->feature[i] >= 0 ? feature_value(&p->m.v[p->feature[i]], counters)
			    : p->sampled[i] < 0 ? descriptor_named_value(in, p->model.features[i].name,
									 row)
			    : sampled ? sampler_value(sampled, &p->m.v[p->sampled[i]],
						      sampler_way_of(p->model.features[i].name))
				      : feature_value(&p->m.v[p->sampled[i]], counters);
}

/*
 * Returns 0 when every file whose size the model reads can be read, or -1 with err naming it.
 * A size that was never 0 in training is of a file the program needs; a size that was 0 on
 * some input is of a file it may do without (a missing output file, an optional argument).
 */
static int check_input_files(const struct predictor *p, const struct input *in, struct error *err)
{
	for (int i = 0; i < p->model.nfeatures; i++) {
		const char *path;

		if (p->descriptor[i] < 0 || !(p->model.features[i].min > 0) ||
		    descriptor_readable(in, p->descriptor[i], &path) == 0)
			continue;
		if (!path && descriptor_probes(p->descriptor[i]))
			return error_set(err, "%s: the input names no file that can be read, and the "
					 "model reads the content of its largest; no prediction",
					 p->model.features[i].name);
		if (!path && p->descriptor[i] == DESCRIPTOR_FIELD)
			return error_set(err, "%s: the input names no file that can be read, and the "
					 "model reads a header field of its largest; no prediction",
					 p->model.features[i].name);
		if (!path && descriptor_scripted(p->descriptor[i]))
			return error_set(err, "%s: the input names no script (a text file of at most "
					 "64 KiB), and the model reads its numbers; no prediction",
					 p->model.features[i].name);
		if (!path)
			return error_set(err, "%s: the input has no such argument, and the model reads "
					 "the size of the file it names; no prediction",
					 p->model.features[i].name);
		return error_set(err, "input file %s cannot be read (%s): the program would fail on "
				 "this input; no prediction", path, errno == ENOENT ? "missing"
										   : strerror(errno));
	}
	return 0;
}

/* Runs the evaluator on in into *counters (owned by the caller), adding its time to
 * out->seconds: its shared-object form in this process when predictor_host set p->hosted (a
 * crash or a timeout there sets p->tainted). Returns 0 or -1 with err set. */
static int evaluate(struct predictor *p, const struct input *in, double timeout,
		    struct prediction *out, uint64_t **counters, struct error *err)
{
	struct run_result res;
	char *missing;
	int rc = 0;

	if (measure(p->evaluator, p->hosted, in, timeout, NULL, &p->m, &res, counters, &missing,
		    err) < 0)
		return -1;
	if (p->hosted && (res.status == RUN_CRASH || res.status == RUN_TIMEOUT))
		p->tainted = 1;
	out->seconds += res.wall;
	out->evaluator_seconds = res.wall;
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
	} else if (!*counters) {
		rc = error_set(err, "the evaluator wrote no features: the program leaves by an exit "
			       "no training input reached; no prediction");
	}
	free(missing);
	return rc;
}

/* Runs the sandboxed program on in's samples into *r, adding the time it took (making the
 * samples included) to out->seconds. Returns 0, or -1 with err saying why there is no
 * prediction. */
static int run_samples(struct predictor *p, const struct input *in, double timeout,
		       struct prediction *out, struct sampled_run *r, struct error *err)
{
	char *position;
	const char *missing = sampler_unreadable(&p->info.plan, in, &position);
	double t0 = now_seconds();
	int rc;

	if (missing && !*missing)
		rc = error_set(err, "the input has no %s, whose samples the model reads; no "
			       "prediction", position);
	else if (missing)
		rc = error_set(err, "input file %s cannot be read (%s): the program would fail on "
			       "this input; no prediction", missing, access(missing, F_OK) ? "missing"
			       : access(missing, R_OK) ? "no permission" : "not a regular file");
	free(position);
	if (missing)
		return rc;
	rc = sampler_run(p->sampler, &(struct solib_form){p->sampler_hosted, NULL}, &p->m,
			 &p->info.plan, in, 1, timeout, r, err);
	if (r->tainted)
		p->tainted = 1;
	out->sampled_seconds = now_seconds() - t0;
	out->seconds += out->sampled_seconds;
	if (rc == 0 && !r->ok)
		rc = error_set(err, "on the samples of its input, the program %s: this input is "
			       "unlike the training inputs, or the program fails on it; no prediction",
			       r->failure);
	return rc;
}

/* Returns whether p's gate sends in to PRED/long: p's model (input features alone, read here with
 * no evaluator) predicts at least the gate on in. */
static int gated(const struct predictor *p, const struct input *in)
{
	double *values;
	int at_least;

	if (!(p->info.gate > 0))
		return 0;
	values = xcalloc((size_t)p->model.nfeatures + 1, sizeof *values);
	predictor_values(p, in, NULL, NULL, values);
	at_least = model_eval(&p->model, values) >= p->info.gate;
	free(values);
	return at_least;
}

const struct predictor *predictor_choose(const struct predictor *p, const struct input *in)
{
	assert(!p->lazy || !(p->info.gate > 0));
	return p->gated && gated(p, in) ? p->gated : p;
}

int predictor_run(struct predictor *p, const struct input *in, double timeout,
		  struct prediction *out, struct error *err)
{
	uint64_t *counters = NULL;
	struct sampled_run sampled = {0};
	double t0 = now_seconds(), own;
	int rc = 0;

	if (p->info.gate > 0 && check_input_files(p, in, err) == 0 && gated(p, in)) {
		/* the gate's own work: the input features read, the model evaluated */
		own = now_seconds() - t0;
		if (!p->gated && open_gated(p, err) < 0)
			return -1;
		rc = predictor_run(p->gated, in, timeout, out, err);
		out->seconds += own;
		return rc;
	}
	memset(out, 0, sizeof *out);
	out->by = p;
	out->nvalues = p->model.nfeatures;
	out->values = xcalloc((size_t)out->nvalues + 1, sizeof *out->values);
	if (in->stdin_path && access(in->stdin_path, R_OK) != 0)
		rc = error_errno(err, "cannot read the input's stdin %s", in->stdin_path);
	if (rc == 0)
		rc = check_input_files(p, in, err);
	own = now_seconds() - t0;
	if (rc == 0 && p->evaluator)
		rc = evaluate(p, in, timeout, out, &counters, err);
	if (rc == 0 && p->nsampled > 0)
		rc = run_samples(p, in, timeout, out, &sampled, err);
	if (rc == 0) {
		t0 = now_seconds();
		predictor_values(p, in, counters, &sampled, out->values);
		out->value = model_eval(&p->model, out->values);
		/* the evaluator's run, reading the input, and the model (a rate's search) */
		out->seconds += own + (now_seconds() - t0);
		set_warning(p, out);
	}
	free(counters);
	sampled_run_release(&sampled);
	if (rc < 0)
		prediction_release(out);
	return rc;
}

/* Reads tr's sampled runs from PRED/build/sampled.db. Returns 0, or -1 with err naming the
 * first training input whose runs are missing (the sampled runs of training, not measured
 * again: they would be other runs than the model was fitted on). */
static int load_sampled(const struct predictor *p, struct predictor_training *tr,
			struct error *err)
{
	char *db = xasprintf("%s/build/sampled.db", p->dir);
	char *setting = sampler_setting(&p->info.plan, SAMPLER_REPS);
	struct sampledb sdb;
	int rc = sampledb_open(&sdb, db, p->sandboxed, setting, p->m.ncounters, err);

	tr->sampled = xcalloc((size_t)tr->s.n + 1, sizeof *tr->sampled);
	for (int k = 0; k < tr->s.n && rc == 0; k++) {
		int found = sampledb_get(&sdb, tr->input[k], &tr->sampled[k], err);

		if (found == 0 || (found > 0 && !tr->sampled[k].ok))
			rc = error_set(err, "%s: no sampled runs of training input line %d (its files "
				       "changed since training?)", db, tr->input[k]->line);
		else if (found < 0)
			rc = -1;
	}
	if (sdb.db)
		sampledb_close(&sdb);
	free(db);
	free(setting);
	return rc;
}

/* Keeps of s the inputs on the lines of the array lines (train.json's "lines": a gated
 * predictor trained on those alone); every input when lines is not an array. */
static void keep_trained_lines(struct store_samples *s, const json_t *lines)
{
	int *line;
	size_t n = json_array_size(lines);

	if (!json_is_array(lines))
		return;
	line = xcalloc(n + 1, sizeof *line);
	for (size_t i = 0; i < n; i++)
		line[i] = (int)json_integer_value(json_array_get(lines, i));
	store_samples_keep_lines(s, line, (int)n, NULL);
	free(line);
}

int predictor_training_load(const struct predictor *p, int with_inputs,
			    struct predictor_training *tr, struct error *err)
{
	char *db = xasprintf("%s/build/profile.db", p->dir), *log_path = xasprintf("%s/train.json", p->dir);
	json_t *log = NULL;
	const char *inputs;
	struct store st;
	int rc, excluded;

	memset(tr, 0, sizeof *tr);
	log = json_load_file(log_path, 0, NULL);
	rc = store_open(&st, db, 0, err);
	if (rc == 0) {
		rc = store_load_samples(&st, predictor_counting(p), p->info.metric, &tr->s,
					&excluded, err);
		store_close(&st);
	}
	if (rc == 0)
		keep_trained_lines(&tr->s, json_object_get(log, "lines"));
	if (rc < 0 || (!with_inputs && p->nprogram == p->model.nfeatures))
		goto out;
	if (!(inputs = json_string_value(json_object_get(log, "inputs")))) {
		rc = error_set(err, "%s: no training inputs recorded", log_path);
		goto out;
	}
	if ((rc = inputs_load(&tr->ins, inputs, err)) < 0)
		goto out;
	tr->input = xcalloc((size_t)tr->s.n + 1, sizeof *tr->input);
	for (int k = 0; k < tr->s.n && rc == 0; k++) {
		for (int i = 0; i < tr->ins.n && !tr->input[k]; i++) {
			if (tr->ins.v[i].line == tr->s.line[k])
				tr->input[k] = &tr->ins.v[i];
		}
		if (!tr->input[k])
			rc = error_set(err, "%s: no line %d, which the profile has (the training inputs "
				       "file changed since training)", inputs, tr->s.line[k]);
	}
	if (rc == 0 && p->nsampled > 0)
		rc = load_sampled(p, tr, err);
out:
	if (rc < 0)
		predictor_training_release(tr);
	json_decref(log);
	free(db);
	free(log_path);
	return rc;
}

void predictor_training_release(struct predictor_training *tr)
{
	for (int k = 0; tr->sampled && k < tr->s.n; k++)
		sampled_run_release(&tr->sampled[k]);
	free(tr->sampled);
	store_samples_release(&tr->s);
	inputs_release(&tr->ins);
	free(tr->input);
	memset(tr, 0, sizeof *tr);
}

json_t *predictor_json(const struct predictor *p, const struct prediction *pr)
{
	json_t *root = json_object(), *features = json_object();
	const struct model *model = &pr->by->model;
	double low, high;

	for (int i = 0; i < model->nfeatures; i++)
		json_object_set_new(features, model->features[i].name, json_real(pr->values[i]));
	json_object_set_new(root, "prediction", json_real(pr->value));
	json_object_set_new(root, "metric", json_string(pr->by->info.metric));
	json_object_set_new(root, "features", features);
	json_object_set_new(root, "evaluator_seconds", json_real(pr->seconds));
	if (model_interval(model, pr->value, &low, &high))
		json_object_set_new(root, "interval", json_pack("{s:f, s:f, s:o}", "level",
			model->interval.level, "low", low, "high",
			isfinite(high) ? json_real(high) : json_null()));
	if (pr->warning)
		json_object_set_new(root, "warning", json_string(pr->warning));
	if (p->info.gate > 0)
		json_object_set_new(root, "gated", json_boolean(pr->by != p));
	return root;
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
	manifest_release(&p->counted);
	free(p->feature);
	free(p->descriptor);
	free(p->sampled);
	free(p->evaluator);
	free(p->hosted);
	free(p->sampler_hosted);
	free(p->sandboxed);
	free(p->sampler);
	if (p->gated)
		predictor_release(p->gated);
	free(p->gated);
	free(p->info.sampled_program);
	sampler_plan_release(&p->info.plan);
	memset(p, 0, sizeof *p);
}
