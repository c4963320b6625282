/*
 * baseline.c: three of the baselines of the ATC'13 evaluation (000_ section 6), measured by
 * mantis eval beside the predictor itself.
 *
 *   Mantis-linear  the predictor's features with a model of degree 1 (SPORE-FoBa, d = 1) fitted
 *                  on the training profile: what the polynomial terms add. It reads the same
 *                  features, so the predictor's evaluator serves it at the same cost.
 *   partial execution (PE)  run the instrumented program until the model's features hold their
 *                  final values and evaluate the model there: as accurate as the model can be
 *                  (the features are the program's own), at the cost of running the program
 *                  that far. Its cost is that time (of the instrumented build) over the
 *                  program's time.
 *   bounded execution (BE)  run the instrumented program for as long as the predictor took on
 *                  the same input and evaluate the model on the features counted so far: the
 *                  same cost as mantis, features that are usually incomplete.
 *
 * PE and BE read one run of PRED/build/inst whose runtime (rt/mantisrt.c) appends the counters
 * to MANTIS_SNAPSHOTS every MANTIS_SNAPSHOT_INTERVAL seconds: one hundred snapshots over the
 * program's time (see snapshot_interval), the run killed after 10 times the program's wall time
 * plus 10 s. Invariant: snapshots are read in time order and the final counters (the
 * counters file at exit) close the series, so PE always finds a snapshot (at worst the end).
 */
#include "baseline.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dataset.h"
#include "error.h"
#include "fit.h"
#include "manifest.h"
#include "model.h"
#include "predictor.h"
#include "prep.h"
#include "runner.h"
#include "store.h"
#include "util.h"

int baseline_fit_linear(const struct predictor *p, struct model *out, struct error *err)
{
	struct fit_options fo = fit_options_default();
	struct predictor_training tr;
	struct dataset ds = {0};
	struct prep pr;
	double *values;
	int rc, k = p->model.nfeatures;

	if (k == 0) { /* a constant predictor: its constant is the median, no fit to make */
		memset(out, 0, sizeof *out);
		out->algorithm = xstrdup("constant");
		out->metric = xstrdup(p->model.metric);
		out->fit = xstrdup(p->model.fit ? p->model.fit : "relative");
		out->intercept = p->model.intercept;
		return 0;
	}
	if (predictor_training_load(p, 0, &tr, err) < 0)
		return -1;
	ds.n = tr.s.n;
	ds.p = k;
	ds.metric = xstrdup(p->info.metric);
	ds.names = xcalloc((size_t)k + 1, sizeof *ds.names);
	ds.ids = xcalloc((size_t)ds.n + 1, sizeof *ds.ids);
	ds.x = xcalloc((size_t)ds.n * (size_t)k + 1, sizeof *ds.x);
	ds.y = xcalloc((size_t)ds.n + 1, sizeof *ds.y);
	values = xcalloc((size_t)k + 1, sizeof *values);
	for (int j = 0; j < k; j++)
		ds.names[j] = xstrdup(p->model.features[j].name);
	for (int i = 0; i < ds.n; i++) {
		ds.ids[i] = xstrdup(tr.s.text[i]);
		ds.y[i] = tr.s.metric[i];
		predictor_values(p, tr.input ? tr.input[i] : NULL, tr.s.counters[i],
				 tr.sampled ? &tr.sampled[i] : NULL, values);
		for (int j = 0; j < k; j++)
			ds.x[(size_t)j * (size_t)ds.n + (size_t)i] = values[j];
	}
	fo.algorithm = "spore-foba";
	fo.degree = 1;
	fo.train_frac = 1;
	rc = fit_model(&ds, &fo, out, &pr, err);
	if (rc == 0)
		prep_release(&pr);
	dataset_release(&ds);
	predictor_training_release(&tr);
	free(values);
	return rc;
}

double baseline_linear_predict(const struct model *linear, const struct predictor *p,
			       const double *values)
{
	double *mine = xcalloc((size_t)linear->nfeatures + 1, sizeof *mine), v;

	for (int i = 0; i < linear->nfeatures; i++) {
		for (int j = 0; j < p->model.nfeatures; j++) {
			if (strcmp(linear->features[i].name, p->model.features[j].name) == 0)
				mine[i] = values[j];
		}
	}
	v = model_eval(linear, mine);
	free(mine);
	return v;
}

/* Snapshots of the counters over one run. */
struct snapshots {
	int n;               /* snapshots, the final counters last */
	double *seconds;     /* per snapshot, seconds since the program started */
	uint64_t **counters; /* per snapshot, the manifest's ncounters values; owned */
};

static uint64_t le64(const unsigned char *b)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

/* Appends a snapshot taken at seconds; takes ownership of counters. */
static void snapshots_add(struct snapshots *s, double seconds, uint64_t *counters)
{
	s->seconds = xrealloc(s->seconds, (size_t)(s->n + 1) * sizeof *s->seconds);
	s->counters = xrealloc(s->counters, (size_t)(s->n + 1) * sizeof *s->counters);
	s->seconds[s->n] = seconds;
	s->counters[s->n++] = counters;
}

/* Reads the snapshots file at path (rt/mantisrt.c's format) into *s. Returns 0 or -1. */
static int snapshots_read(const struct manifest *m, const char *path, struct snapshots *s,
			  struct error *err)
{
	FILE *f = fopen(path, "rb");
	size_t nc = (size_t)m->ncounters, size = 8 * (nc + 1);
	unsigned char head[24], *rec = xmalloc(size);
	int rc = 0;

	if (!f || fread(head, 1, sizeof head, f) != sizeof head || memcmp(head, "MANTISS1", 8) != 0 ||
	    le64(head + 8) != m->build_id || le64(head + 16) != (uint64_t)nc)
		rc = error_set(err, "%s: no snapshots of this build's counters (did the program "
			       "handle signal SIGRTMAX-3 itself?)", path);
	while (rc == 0 && fread(rec, 1, size, f) == size) {
		uint64_t *c = xcalloc(nc + 1, sizeof *c);

		for (size_t i = 0; i < nc; i++)
			c[i] = le64(rec + 8 * (i + 1));
		snapshots_add(s, (double)le64(rec) * 1e-9, c);
	}
	if (f)
		fclose(f);
	free(rec);
	return rc;
}

static void snapshots_release(struct snapshots *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->counters[i]);
	free(s->counters);
	free(s->seconds);
	memset(s, 0, sizeof *s);
}

/* Returns whether every program feature of the model has the same value in counters a and b
 * (its input features are the same all along). */
static int same_features(const struct predictor *p, const uint64_t *a, const uint64_t *b)
{
	for (int j = 0; j < p->model.nfeatures; j++) {
		const struct feature *f = p->feature[j] >= 0 ? &p->m.v[p->feature[j]]
					  : p->sampled[j] >= 0 ? &p->m.v[p->sampled[j]] : NULL;

		if (f && feature_value(f, a) != feature_value(f, b))
			return 0;
	}
	return 1;
}

/* Fills out's PE and BE on in from s (whose last snapshot is the final counters). */
static void judge(const struct predictor *p, const struct input *in, const struct snapshots *s,
		  double budget, struct execution_baselines *out)
{
	const uint64_t *last = s->counters[s->n - 1];
	double *values = xcalloc((size_t)p->model.nfeatures + 1, sizeof *values);
	uint64_t *none = xcalloc((size_t)p->m.ncounters + 1, sizeof *none);
	const uint64_t *within = none;
	int settled = s->n - 1;

	while (settled > 0 && same_features(p, s->counters[settled - 1], last))
		settled--;
	if (p->nprogram + p->nsampled == 0)
		settled = -1;
	out->pe_seconds = settled < 0 ? 0 : s->seconds[settled];
	predictor_values(p, in, last, NULL, values);
	out->pe_value = model_eval(&p->model, values);
	for (int i = 0; i < s->n && s->seconds[i] <= budget; i++)
		within = s->counters[i];
	predictor_values(p, in, within, NULL, values);
	out->be_value = model_eval(&p->model, values);
	out->snapshots = s->n - 1;
	free(values);
	free(none);
}

/* Returns the period of the snapshots: a hundredth of the program's wall time, but at least
 * 0.1 ms and the time to write 20 snapshots at 100 MB/s (a snapshot holds every counter: 430 KB
 * for the sqlite3 shell, whose runtime also skips periods when snapshots take a tenth of the
 * run). */
static double snapshot_interval(const struct predictor *p, double wall)
{
	double floor = 20 * 8.0 * ((double)p->m.ncounters + 1) / 1e8;

	if (floor < 1e-4)
		floor = 1e-4;
	return wall / 100 > floor ? wall / 100 : floor;
}

int baseline_execution(const struct predictor *p, const struct input *in, double wall,
		       double budget, struct execution_baselines *out, struct error *err)
{
	char tmp[] = "/tmp/mantis-snapshots-XXXXXX", *inst = xasprintf("%s/build/inst", p->dir);
	char *path, *env[3];
	struct snapshots s = {0};
	struct run_result res;
	uint64_t *counters = NULL;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (!mkdtemp(tmp)) {
		free(inst);
		return error_errno(err, "cannot make a temporary directory");
	}
	path = xasprintf("%s/snapshots", tmp);
	env[0] = xasprintf("MANTIS_SNAPSHOTS=%s", path);
	env[1] = xasprintf("MANTIS_SNAPSHOT_INTERVAL=%.9f", snapshot_interval(p, wall));
	env[2] = NULL;
	if (predictor_measure_env(inst, in, 10 * wall + 10, env, &p->m, &res, &counters, NULL,
				  err) < 0)
		goto out;
	if (res.status != RUN_OK || !counters) {
		error_set(err, "the instrumented program %s", res.status != RUN_OK
			  ? runner_status_name(res.status) : "wrote no counters");
		goto out;
	}
	if (snapshots_read(&p->m, path, &s, err) < 0)
		goto out;
	snapshots_add(&s, res.wall, counters);
	counters = NULL;
	judge(p, in, &s, budget, out);
	rc = 0;
out:
	snapshots_release(&s);
	free(counters);
	unlink(path);
	rmdir(tmp);
	free(path);
	free(env[0]);
	free(env[1]);
	free(inst);
	return rc;
}
