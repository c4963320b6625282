/*
 * drift.c: the machine's drift between training and use, measured on the program itself.
 *
 * A time model is fitted on times the profile measured at one moment; a shared machine can run
 * the same input a few percent faster or slower minutes later (frequency, steal, a neighbour's
 * cache), and no model of the input sees it. So mantis eval re-times the same training inputs
 * now and then: drift = (median of K runs now) / (the profile's median), per reference input,
 * and the median over the references. A reference is a training input whose profiled time is
 * near the training median: long enough that start-up noise does not dominate, short enough to
 * re-time often. Invariant: a factor is computed only from runs that completed (status ok).
 */
#include "drift.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "runner.h"
#include "util.h"

int drift_pick(const double *values, int n, int k, int *out)
{
	double *usable = xcalloc((size_t)n + 1, sizeof *usable), *distance, mid;
	int m = 0, picked = 0;

	for (int i = 0; i < n; i++) {
		if (values[i] > 0)
			usable[m++] = values[i];
	}
	if (m == 0) {
		free(usable);
		return 0;
	}
	mid = median(usable, m);
	distance = xcalloc((size_t)n + 1, sizeof *distance);
	for (int i = 0; i < n; i++)
		distance[i] = values[i] > 0 ? fabs(log(values[i] / mid)) : INFINITY;
	while (picked < k && picked < m) {
		int best = -1;

		for (int i = 0; i < n; i++) {
			if (isfinite(distance[i]) && (best < 0 || distance[i] < distance[best]))
				best = i;
		}
		out[picked++] = best;
		distance[best] = INFINITY;
	}
	free(distance);
	free(usable);
	return picked;
}

/* Returns whether metric is a time, which the machine's state changes. */
static int is_time(const char *metric)
{
	return strcmp(metric, "wall") == 0 || strcmp(metric, "cpu") == 0 ||
	       strcmp(metric, "user") == 0 || strcmp(metric, "sys") == 0;
}

int drift_init(struct drift *d, const struct predictor *p)
{
	struct error err = {""};
	int pick[DRIFT_REFERENCES];

	memset(d, 0, sizeof *d);
	if (!is_time(p->info.metric))
		return 0;
	if (predictor_training_load(p, 1, &d->tr, &err) < 0) {
		d->why = xasprintf("the training inputs: %s", err.msg);
		return 0;
	}
	d->nref = drift_pick(d->tr.s.metric, d->tr.s.n, DRIFT_REFERENCES, pick);
	for (int i = 0; i < d->nref; i++) {
		d->ref[i] = d->tr.input[pick[i]];
		d->trained[i] = d->tr.s.metric[pick[i]];
	}
	if (!d->nref)
		d->why = xstrdup("no training input has a time above 0");
	return 0;
}

int drift_check(const struct drift *d, const struct predictor *p, int reps, double timeout,
		double *factor, struct error *err)
{
	char *orig = xasprintf("%s/build/orig", p->dir);
	double *now = xcalloc((size_t)d->nref * (size_t)reps + 1, sizeof *now), ratio[DRIFT_REFERENCES];
	int ok[DRIFT_REFERENCES] = {0}, nratio = 0;
	struct run_options ro = {.timeout = timeout, .argv0 = p->m.program};

	for (int r = 0; r < reps; r++) {
		for (int i = 0; i < d->nref; i++) {
			struct run_result res;

			if (ok[i] < r || runner_run(orig, d->ref[i], &ro, &res, err) < 0)
				continue;
			if (res.status == RUN_OK)
				now[i * reps + ok[i]++] = runner_metric(&res, p->info.metric);
			else
				error_set(err, "%s on training input line %d: %s", orig, d->ref[i]->line,
					  runner_status_name(res.status));
		}
	}
	for (int i = 0; i < d->nref; i++) {
		if (ok[i] == reps)
			ratio[nratio++] = median(now + i * reps, reps) / d->trained[i];
	}
	if (nratio)
		*factor = median(ratio, nratio);
	free(now);
	free(orig);
	return nratio ? 0 : -1;
}

void drift_release(struct drift *d)
{
	predictor_training_release(&d->tr);
	free(d->why);
	memset(d, 0, sizeof *d);
}
