/*
 * select.c: adaptive choice of training inputs from a pool (mantis train --select adaptive), the
 * idea of Westermann et al.'s adaptive breakdown (004_ section 3.1) carried over to a finite
 * pool of inputs that have no parameters, only what can be seen of them before a run.
 *
 *   descriptors: per input, descriptor.c's features (numeric arguments, sizes of the files named,
 *                of stdin), each v as sign(v) log(1 + |v|), constant ones dropped, scaled to
 *                [0, 1]: the space the pool spans;
 *   start:       `initial` inputs spread over it (farthest-first traversal from the input
 *                nearest the centroid), profiled;
 *   validate:    K-fold cross-validation (K = 5, folds a seeded shuffle of the inputs, or of
 *                their data files, dealt in turn) of the model train fits
 *                (fit.c, SPORE-FoBa by default) on the profiled inputs' features: each input's
 *                held-out relative error (the training median's when no feature is left to
 *                fit, as train then falls back to it); stop when their mean plus its standard
 *                error is at most the target, when `max` inputs are profiled, or when the pool
 *                is exhausted. The standard error because a greedy fit on a few dozen inputs
 *                is unstable: replayed on the encryptor example's pool (exact counts, 100
 *                inputs), the mean alone stopped at 40 inputs (8.3%, standard error 3.0)
 *                whose model's test error was 13.9%, where 50 gave 0.9%;
 *   select:      each candidate's expected error is the inverse-distance weighted held-out
 *                error of its 3 nearest profiled inputs, times 1 + (distance to the nearest) /
 *                (the profiled inputs' median nearest-neighbour spacing), so that both where
 *                the model is wrong and where nothing was measured count; the `batch`
 *                candidates of largest expected error are profiled next, none within half a
 *                spacing of another of the same batch.
 *   continue:    called again with the inputs already chosen, it goes on from them; train
 *                does so with its final model's features only (the model the selection
 *                validated first reads every feature, and the evaluator-cost feedback may
 *                reject those it relied on: on facedetect, 10 inputs cross-validated at 1.2%
 *                and the model of the cheap features left was constant, 59.5% off).
 *   compare:     two models' held-out errors on the same folds, paired: the mean difference,
 *                and its standard error from the errors counted up to 100% (select_compare:
 *                train's final choice, the one-standard-error rule).
 * Profiling goes through profile_run with an input mask (profile_options.only), so every run
 * is kept in the profile and a resumed train skips what was recorded. Invariant: chosen[i]
 * marks exactly the inputs handed to the profiler.
 */
#include "select.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "descriptor.h"
#include "error.h"
#include "fit.h"
#include "inputs.h"
#include "manifest.h"
#include "model.h"
#include "profile.h"
#include "store.h"
#include "util.h"

#define SELECT_NEIGHBOURS 3 /* profiled inputs a candidate's expected error comes from */

double *select_descriptors(const struct inputs *ins, int *p)
{
	int n = ins->n, k = 0;
	double *raw = xmalloc(sizeof *raw * (size_t)n * DESCRIPTOR_N), *x;

	for (int i = 0; i < n; i++) {
		descriptor_values(&ins->v[i], raw + (size_t)i * DESCRIPTOR_N);
		for (int j = 0; j < DESCRIPTOR_N; j++) {
			double v = raw[(size_t)i * DESCRIPTOR_N + (size_t)j];

			raw[(size_t)i * DESCRIPTOR_N + (size_t)j] = v < 0 ? -log1p(-v) : log1p(v);
		}
	}
	x = xmalloc(sizeof *x * (size_t)n * DESCRIPTOR_N + 1);
	for (int j = 0; j < DESCRIPTOR_N; j++) {
		double lo = INFINITY, hi = -INFINITY;

		for (int i = 0; i < n; i++) {
			lo = fmin(lo, raw[(size_t)i * DESCRIPTOR_N + (size_t)j]);
			hi = fmax(hi, raw[(size_t)i * DESCRIPTOR_N + (size_t)j]);
		}
		if (!(hi > lo))
			continue;
		for (int i = 0; i < n; i++)
			x[(size_t)i * DESCRIPTOR_N + (size_t)k] = (raw[(size_t)i * DESCRIPTOR_N + (size_t)j] - lo) / (hi - lo);
		k++;
	}
	for (int i = 0; i < n; i++) /* compact rows to k columns */
		memmove(x + (size_t)i * (size_t)k, x + (size_t)i * DESCRIPTOR_N, sizeof *x * (size_t)k);
	free(raw);
	*p = k;
	return x;
}

/* Returns the Euclidean distance between rows a and b of the descriptors. */
static double dist(const double *x, int p, int a, int b)
{
	double s = 0;

	for (int j = 0; j < p; j++) {
		double t = x[(size_t)a * (size_t)p + (size_t)j] - x[(size_t)b * (size_t)p + (size_t)j];

		s += t * t;
	}
	return sqrt(s);
}

void select_spread(const double *x, int n, int p, int k, unsigned char *chosen)
{
	double *c = xcalloc((size_t)p + 1, sizeof *c), *near = xmalloc(sizeof *near * (size_t)n);
	int any = 0;

	for (int i = 0; i < n; i++) {
		any |= chosen[i];
		for (int j = 0; j < p; j++)
			c[j] += x[(size_t)i * (size_t)p + (size_t)j] / n;
	}
	for (int i = 0; i < n; i++) {
		double s = 0;

		for (int j = 0; j < p; j++)
			s += (x[(size_t)i * (size_t)p + (size_t)j] - c[j]) * (x[(size_t)i * (size_t)p + (size_t)j] - c[j]);
		near[i] = any ? INFINITY : -sqrt(s); /* no input yet: the nearest to the centroid first */
		for (int q = 0; any && q < n; q++) {
			if (chosen[q])
				near[i] = fmin(near[i], dist(x, p, i, q));
		}
	}
	for (int added = 0; added < k; added++) {
		int best = -1;

		for (int i = 0; i < n; i++) {
			if (!chosen[i] && (best < 0 || near[i] > near[best]))
				best = i;
		}
		if (best < 0)
			break;
		chosen[best] = 1;
		for (int i = 0; i < n; i++)
			near[i] = added == 0 && !any ? dist(x, p, i, best) : fmin(near[i], dist(x, p, i, best));
		any = 1;
	}
	free(c);
	free(near);
}

/* Returns the prediction of model (NULL: the constant centre) for row r of ds. */
static double held_out_prediction(const struct model *model, const struct dataset *ds, int r,
				  double centre)
{
	double *values, y;

	if (!model)
		return centre;
	values = xmalloc(sizeof *values * ((size_t)model->nfeatures + 1));
	for (int f = 0; f < model->nfeatures; f++)
		values[f] = ds->x[(size_t)dataset_find(ds, model->features[f].name) * (size_t)ds->n +
				  (size_t)r];
	y = model_eval(model, values);
	free(values);
	return y;
}

/*
 * Returns per row of n its fold (owned by the caller), 0..*folds-1: the groups (*group: row r's
 * group, NULL: each row its own; set to NULL when there are fewer than 2 groups) shuffled by
 * seed, dealt to the folds in turn (*folds cut to the number of groups). Shuffled, not by
 * position: inputs are often listed in a cycle of their kinds (the sqlite3 bench's queries,
 * input i running query i mod 5), and folds by position then hold out every input of one kind
 * together, a kind the fold's model never saw (the sqlite3 shell's rate cross-validated at 53%
 * where it erred 0.8% on held-out inputs).
 */
static int *fold_by_group(int n, int *folds, const int **group, unsigned long seed)
{
	int groups = 0, *order, *fold_of, *fold = xcalloc((size_t)n + 1, sizeof *fold);

	for (int r = 0; *group && r < n; r++)
		groups = (*group)[r] >= groups ? (*group)[r] + 1 : groups;
	if (groups < 2)
		*group = NULL;
	else if (groups < *folds)
		*folds = groups;
	groups = *group ? groups : n;
	order = xcalloc((size_t)groups + 1, sizeof *order);
	fold_of = xcalloc((size_t)groups + 1, sizeof *fold_of);
	fit_shuffle(order, groups, seed);
	for (int i = 0; i < groups; i++)
		fold_of[order[i]] = i % *folds;
	for (int r = 0; r < n; r++)
		fold[r] = fold_of[*group ? (*group)[r] : r];
	free(order);
	free(fold_of);
	return fold;
}

double select_cross_validate(const struct dataset *ds, const struct fit_options *fit,
			     const int *group, double *e, double *ratio)
{
	return select_cross_validate_with(ds, fit, group, NULL, NULL, e, ratio);
}

int select_nested_exclusions(const struct dataset *ds, char *const *exclude, int nexclude,
			     char *const *chosen, int nchosen, char **excluded)
{
	int n = 0;

	for (int e = 0; e < nexclude; e++) /* a name listed twice is left out once (prep) */
		excluded[n++] = exclude[e];
	for (int j = 0; j < ds->p; j++) {
		int kept = descriptor_find(ds->names[j]) >= 0;

		for (int i = 0; i < nchosen && !kept; i++)
			kept = strcmp(chosen[i], ds->names[j]) == 0;
		if (!kept)
			excluded[n++] = ds->names[j];
	}
	return n;
}

double select_cross_validate_with(const struct dataset *ds, const struct fit_options *fit,
				  const int *group, select_fit_fn fn, void *ctx, double *e,
				  double *ratio)
{
	int n = ds->n, folds = n < SELECT_FOLDS ? n : SELECT_FOLDS, *rows = xmalloc(sizeof *rows * (size_t)n);
	int *part_group = xcalloc((size_t)n + 1, sizeof *part_group), *fold = fold_by_group(n, &folds, &group, fit->seed);
	struct fit_options fo = *fit;
	double mean = 0;

	fo.train_frac = 1;
	for (int f = 0; f < folds; f++) {
		struct dataset part;
		struct model model;
		struct prep prep;
		struct error ignored;
		double centre;
		int k = 0, ok;

		for (int r = 0; r < n; r++) {
			if (fold[r] != f)
				rows[k++] = r;
		}
		for (int i = 0; group && i < k; i++)
			part_group[i] = group[rows[i]];
		fo.group = group ? part_group : NULL;
		dataset_subset(ds, rows, k, &part);
		ok = (fn ? fn(ctx, f, &part, &fo, &model, &prep, &ignored)
		      : fit_model(&part, &fo, &model, &prep, &ignored)) == 0;
		centre = median(part.y, k); /* no model (no feature left): train's constant */
		for (int r = 0; r < n; r++) {
			double y;

			if (fold[r] != f)
				continue;
			y = held_out_prediction(ok ? &model : NULL, ds, r, centre);
			e[r] = fabs(ds->y[r] - y) / fabs(ds->y[r]);
			if (ratio)
				ratio[r] = y > 0 ? ds->y[r] / y : INFINITY;
		}
		if (ok) {
			model_release(&model);
			prep_release(&prep);
		}
		dataset_release(&part);
	}
	for (int r = 0; r < n; r++)
		mean += e[r] / n;
	free(rows);
	free(part_group);
	free(fold);
	return mean;
}

double select_compare(const double *e, const double *best, const int *group, int n, double *se)
{
	double *dev = xcalloc((size_t)n + 1, sizeof *dev), ss = 0, diff = 0, tamed = 0;
	int k = 0;

	for (int r = 0; r < n; r++) {
		diff += (e[r] - best[r]) / n;
		tamed += (fmin(e[r], SELECT_WILD) - fmin(best[r], SELECT_WILD)) / n;
	}
	for (int r = 0; r < n; r++) {
		int g = group ? group[r] : r;

		dev[g] += fmin(e[r], SELECT_WILD) - fmin(best[r], SELECT_WILD) - tamed;
		k = g >= k ? g + 1 : k;
	}
	for (int g = 0; g < k; g++)
		ss += dev[g] * dev[g];
	*se = k > 1 ? sqrt(ss * k / (k - 1)) / n : 0;
	free(dev);
	return diff;
}

int select_clearly_less(const double *e, const double *simpler, const int *group, int n,
			double *se)
{
	return -select_compare(e, simpler, group, n, se) > *se;
}

int *select_groups_of(const int *group, const int *order, int n)
{
	int *sub, *number, most = 0, next = 0;

	if (!group)
		return NULL;
	for (int j = 0; j < n; j++)
		most = group[order[j]] > most ? group[order[j]] : most;
	sub = xcalloc((size_t)n + 1, sizeof *sub);
	number = xmalloc(sizeof *number * ((size_t)most + 1));
	for (int g = 0; g <= most; g++)
		number[g] = -1;
	for (int j = 0; j < n; j++) {
		int g = group[order[j]];

		if (number[g] < 0)
			number[g] = next++;
		sub[j] = number[g];
	}
	free(number);
	return sub;
}

/* Returns whether the mean cost over order[0..m) is at most threshold, over its last edge at
 * most edge_threshold, and on its last at most SELECT_GATE_LAST times edge_threshold. */
static int gate_affords(const int *order, const double *cost, int m, int edge, double threshold,
			double edge_threshold)
{
	double all = 0, last = 0;
	int from = m > edge ? m - edge : 0;

	for (int j = 0; j < m; j++)
		all += cost[order[j]] / m;
	for (int j = from; j < m; j++)
		last += cost[order[j]] / (m - from);
	return all <= threshold && last <= edge_threshold &&
	       cost[order[m - 1]] <= SELECT_GATE_LAST * edge_threshold;
}

int select_gate_size(const int *order, const double *predicted, const double *cost, int n,
		     int least, int edge, double threshold)
{
	int size = 0;

	for (int m = least > 0 ? least : 1; m < n; m++) {
		if (predicted[order[m - 1]] > predicted[order[m]] &&
		    gate_affords(order, cost, m, edge, threshold, threshold))
			size = m;
	}
	return size;
}

int select_gate_widen(const int *order, const double *predicted, const double *cost,
		      const double *gated, const double *first, const int *group, int n,
		      int through, int edge, double threshold)
{
	double *e = xcalloc((size_t)n + 1, sizeof *e), *simpler = xcalloc((size_t)n + 1,
		sizeof *simpler), se;
	int *sub = select_groups_of(group, order + through, n - through), widened = through;

	for (int j = through; j < n; j++) {
		e[j - through] = gated[order[j]];
		simpler[j - through] = first[order[j]];
	}
	for (int m = n - 1; m >= through + edge && widened == through; m--) {
		if (predicted[order[m - 1]] > predicted[order[m]] &&
		    gate_affords(order, cost, m, edge, threshold, threshold) &&
		    select_clearly_less(e, simpler, sub, m - through, &se))
			widened = m;
	}
	free(e);
	free(simpler);
	free(sub);
	return widened;
}

int select_gate_narrow(const int *order, const double *predicted, const double *cost,
		       const double *sampled, const double *unsampled, const int *group, int n,
		       int least, int edge, double threshold, struct gate_narrowing *out)
{
	int m = 0, below, *sub;
	double *e, *simpler;

	*out = (struct gate_narrowing){0};
	for (int j = least > 0 ? least : 1; j + edge <= n; j++) {
		if (predicted[order[j - 1]] > predicted[order[j]] &&
		    gate_affords(order, cost, j, edge, INFINITY, threshold))
			m = j;
	}
	if (m == 0)
		return 0;
	below = n - m;
	e = xcalloc((size_t)below + 1, sizeof *e);
	simpler = xcalloc((size_t)below + 1, sizeof *simpler);
	sub = select_groups_of(group, order + m, below);
	for (int j = m; j < n; j++) {
		e[j - m] = sampled[order[j]];
		simpler[j - m] = unsampled[order[j]];
		out->cost += cost[order[j]] / below;
		out->sampled += sampled[order[j]] / below;
		out->unsampled += unsampled[order[j]] / below;
	}
	out->below = below;
	if (select_clearly_less(e, simpler, sub, below, &out->se) || !(out->cost > threshold))
		m = 0;
	free(e);
	free(simpler);
	free(sub);
	return m;
}

/* Appends to ds the descriptors that vary over its rows (pool[k]: row k's input in ins), unless
 * a row is of no input of the pool (a profile of another inputs file). */
static void add_descriptors(struct dataset *ds, const struct inputs *ins, const int *pool)
{
	const struct input **in = xcalloc((size_t)ds->n + 1, sizeof *in);
	int all = 1;

	for (int k = 0; k < ds->n && all; k++) {
		all = pool[k] >= 0;
		in[k] = all ? &ins->v[pool[k]] : NULL;
	}
	if (all)
		descriptor_add_columns(ds, in);
	free(in);
}

/* Loads the complete profiled inputs: ds (with the varying descriptors when so asks), and in
 * *pool each row's index in the pool. */
static int load(const struct select_options *so, const struct profile_options *po,
		const struct manifest *m, const struct inputs *ins, struct dataset *ds, int **pool,
		struct error *err)
{
	const char *metric = so->metric;
	char *db = profile_db_path(po->dir, po->db);
	struct store st;
	struct store_samples s = {0};
	int excluded, rc = store_open(&st, db, 0, err);

	free(db);
	if (rc < 0)
		return -1;
	rc = store_load(&st, m, metric, ds, &excluded, err);
	if (rc == 0)
		rc = store_load_samples(&st, m, metric, &s, &excluded, err);
	store_close(&st);
	if (rc < 0)
		return -1;
	if (strcmp(metric, "instructions") == 0)
		dataset_drop_prefix(ds, "bycount:"); /* they add up to the metric, as train drops them */
	*pool = xmalloc(sizeof **pool * (size_t)(s.n + 1));
	for (int k = 0; k < s.n; k++) {
		(*pool)[k] = -1;
		for (int i = 0; i < ins->n && (*pool)[k] < 0; i++) {
			if (ins->v[i].line == s.line[k])
				(*pool)[k] = i;
		}
	}
	store_samples_release(&s);
	if (so->input_features)
		add_descriptors(ds, ins, *pool);
	return 0;
}

int select_next(const double *x, int n, int p, const int *pool, const double *e, int rows,
		int batch, unsigned char *chosen)
{
	double *score = xmalloc(sizeof *score * (size_t)n), *nn = xmalloc(sizeof *nn * (size_t)(rows + 1));
	double spacing;
	int *picked = xmalloc(sizeof *picked * (size_t)(batch + 1)), npicked = 0;

	for (int a = 0; a < rows; a++) { /* the profiled inputs' nearest-neighbour spacing */
		nn[a] = INFINITY;
		for (int b = 0; b < rows; b++) {
			if (b != a && pool[a] >= 0 && pool[b] >= 0)
				nn[a] = fmin(nn[a], dist(x, p, pool[a], pool[b]));
		}
	}
	spacing = rows > 1 ? fmax(median(nn, rows), 1e-9) : 1;
	for (int i = 0; i < n; i++) {
		double best[SELECT_NEIGHBOURS], err[SELECT_NEIGHBOURS], w = 0, v = 0;
		int have = 0;

		score[i] = -1;
		if (chosen[i])
			continue;
		for (int r = 0; r < rows; r++) { /* the nearest profiled inputs, by insertion */
			double d;
			int at;

			if (pool[r] < 0)
				continue;
			d = dist(x, p, i, pool[r]);
			at = have < SELECT_NEIGHBOURS ? have++ : SELECT_NEIGHBOURS;
			while (at > 0 && best[at - 1] > d) {
				if (at < SELECT_NEIGHBOURS) {
					best[at] = best[at - 1];
					err[at] = err[at - 1];
				}
				at--;
			}
			if (at < SELECT_NEIGHBOURS) {
				best[at] = d;
				err[at] = e[r];
			}
		}
		for (int k = 0; k < have; k++) {
			w += 1 / (best[k] + 1e-9);
			v += err[k] / (best[k] + 1e-9);
		}
		score[i] = have ? v / w * (1 + best[0] / spacing) : 1;
	}
	while (npicked < batch) {
		int top = -1;

		for (int i = 0; i < n; i++) {
			int close = 0;

			for (int k = 0; k < npicked && !close; k++)
				close = dist(x, p, i, picked[k]) < spacing / 2;
			if (score[i] >= 0 && !close && (top < 0 || score[i] > score[top]))
				top = i;
		}
		if (top < 0)
			break;
		chosen[top] = 1;
		score[top] = -1;
		picked[npicked++] = top;
	}
	free(score);
	free(nn);
	free(picked);
	return npicked;
}

/* Returns the standard error of the mean cv of e[0..n). */
static double standard_error(const double *e, int n, double cv)
{
	double ss = 0;

	for (int r = 0; r < n; r++)
		ss += (e[r] - cv) * (e[r] - cv);
	return n > 1 ? sqrt(ss / (n - 1) / n) : 0;
}

int select_round(const struct select_options *so, const double *x, int n, int p,
		 const struct dataset *ds, const int *pool, int round, unsigned char *chosen)
{
	int profiled = 0, max = so->max > 0 && so->max < n ? so->max : n, added = 0;
	double *e = xcalloc((size_t)ds->n + 1, sizeof *e), cv, se = 0;

	for (int i = 0; i < n; i++)
		profiled += chosen[i];
	cv = ds->n >= 5 ? select_cross_validate(ds, so->fit, NULL, e, NULL) : INFINITY;
	if (ds->n >= 5)
		se = standard_error(e, ds->n, cv);
	if (so->log) {
		fprintf(so->log, "select: round %d, %d of %d inputs profiled (%d complete), "
			"cross-validated error %.1f%% (target %.1f%%)", round, profiled, n, ds->n,
			100 * cv, 100 * so->target);
		if (cv <= so->target && cv + se > so->target)
			fprintf(so->log, ", %.1f%% with its standard error", 100 * (cv + se));
		fprintf(so->log, "\n");
	}
	if (!(cv + se <= so->target) && profiled < max)
		added = select_next(x, n, p, pool, e, ds->n, so->batch < max - profiled ? so->batch
			: max - profiled, chosen);
	free(e);
	return added;
}

int select_inputs(const struct select_options *so, struct profile_options *po,
		  const struct manifest *m, unsigned char **chosen, int *pool_size, struct error *err)
{
	struct inputs ins = {0};
	double *x;
	int p, n, rc = 0, max, more = 1;

	if (inputs_load(&ins, po->inputs, err) < 0)
		return -1;
	n = *pool_size = ins.n;
	max = so->max > 0 && so->max < n ? so->max : n;
	x = select_descriptors(&ins, &p);
	if (!*chosen) {
		*chosen = xcalloc((size_t)n + 1, 1);
		select_spread(x, n, p, so->initial < max ? so->initial : max, *chosen);
	}
	for (int round = 1; more; round++) {
		struct dataset ds = {0};
		int *pool = NULL;

		po->only = *chosen;
		if (profile_run(po, err) < 0 || load(so, po, m, &ins, &ds, &pool, err) < 0) {
			rc = -1;
			break;
		}
		po->fresh = 0; /* a new profile is started once */
		more = select_round(so, x, n, p, &ds, pool, round, *chosen) > 0;
		free(pool);
		dataset_release(&ds);
	}
	po->only = rc < 0 ? NULL : *chosen;
	if (rc < 0) {
		free(*chosen);
		*chosen = NULL;
	}
	free(x);
	inputs_release(&ins);
	return rc;
}
