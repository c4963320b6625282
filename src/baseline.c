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
 * PE and BE read one run of PRED/build/inst whose counters are taken as they grow (snapshot.h):
 * one hundred snapshots over the program's time. Invariant: snapshots are read in time order
 * and the final counters (the counters file at exit) close the series, so PE always finds a
 * snapshot (at worst the end).
 */
#include "baseline.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "error.h"
#include "fit.h"
#include "manifest.h"
#include "model.h"
#include "predictor.h"
#include "prep.h"
#include "snapshot.h"
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

int baseline_execution(const struct predictor *p, const struct input *in, double wall,
		       double budget, struct execution_baselines *out, struct error *err)
{
	char *inst = xasprintf("%s/build/inst", p->dir);
	struct snapshots s;
	int rc;

	memset(out, 0, sizeof *out);
	rc = snapshots_take(inst, &p->m, in, wall, 100, &s, err);
	if (rc == 0)
		judge(p, in, &s, budget, out);
	snapshots_release(&s);
	free(inst);
	return rc;
}
