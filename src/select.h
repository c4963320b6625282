/*
 * select.h: choosing which inputs of a candidate pool to profile (mantis train --select
 * adaptive), after Westermann et al. (004_): measure where the model's expected error is
 * largest, validate, stop when the validation error is under the target.
 */
#ifndef MANTIS_SELECT_H
#define MANTIS_SELECT_H

#include <stdio.h>

struct dataset;
struct error;
struct fit_options;
struct inputs;
struct manifest;
struct model;
struct prep;
struct profile_options;

/* How to select. */
struct select_options {
	double target;       /* stop when the cross-validated relative error is at most this */
	int initial;         /* inputs profiled first, spread over the pool (10) */
	int batch;           /* inputs added per round (5) */
	int max;             /* most inputs profiled; 0: the whole pool */
	const char *metric;  /* the metric modelled */
	const struct fit_options *fit; /* the model fitted on the profiled inputs */
	FILE *log;           /* one line per round, or NULL */
	int input_features;  /* the model also reads the inputs' descriptors, as train's does */
};

/*
 * Profiles (profile_run with po, which names the pool as its inputs file) an adaptively chosen
 * subset of the pool, the manifest m being the build's features. If *chosen is NULL the
 * selection starts with `initial` inputs spread over the pool; otherwise it goes on from the
 * inputs *chosen marks (profiled by an earlier call on the same pool: train validates its final
 * model so). Returns 0 with *chosen (pool size bytes, owned by the caller) marking the inputs
 * profiled, *pool_size their number, and po->only set to it (po->fresh cleared), or -1 with err
 * set and *chosen freed and NULL.
 */
int select_inputs(const struct select_options *so, struct profile_options *po,
		  const struct manifest *m, unsigned char **chosen, int *pool_size, struct error *err);

/* The steps of select_inputs, for tests and bench/selectsim. */

/* Returns the pool's descriptors (ins->n rows of *p values, row-major, in [0, 1]), owned by the
 * caller. */
double *select_descriptors(const struct inputs *ins, int *p);
/* Marks k more of the n inputs (descriptors x, p columns) in chosen, by farthest-first
 * traversal (from the one nearest the centroid if none is marked yet). */
void select_spread(const double *x, int n, int p, int k, unsigned char *chosen);
#define SELECT_FOLDS 5 /* folds of the cross-validation */

/* Fills e[0..ds->n) with each row's held-out relative error under K-fold cross-validation of
 * the model fit describes, and ratio[0..ds->n) (unless NULL) with its actual value over the
 * held-out prediction (INFINITY where that is <= 0); returns the errors' mean. The groups
 * (group[r], numbered from 0), shuffled by fit->seed, are dealt to the K folds in turn, so that
 * the rows of a group are held out together, K being at most the number of groups; with group
 * NULL or naming one group, the rows are. Each fit is given its rows' groups
 * (fit_options.group). */
double select_cross_validate(const struct dataset *ds, const struct fit_options *fit,
			     const int *group, double *e, double *ratio);
/* A fit that select_cross_validate_with makes in each fold in fit_model's place (same
 * contract): fold numbers the fold, whose training rows part holds; a dataset and options
 * give the same folds to every call (a fit may keep what it chose in a fold for the next). */
typedef int (*select_fit_fn)(void *ctx, int fold, const struct dataset *part,
			     const struct fit_options *fo, struct model *model, struct prep *prep,
			     struct error *err);
/* select_cross_validate with fn(ctx, ...) fitting each fold (fit_model when fn is NULL). */
double select_cross_validate_with(const struct dataset *ds, const struct fit_options *fit,
				  const int *group, select_fit_fn fn, void *ctx, double *e,
				  double *ratio);
/*
 * Fills excluded[] (room for nexclude + ds->p names) with what a fold's nested fit leaves out
 * (train's final choice: each fold chooses the program's features again, on its own rows):
 * every name of exclude[0..nexclude), the candidate's exclusions, and every program feature
 * of ds (not an input feature) that the fold's choice, chosen[0..nchosen), does not name.
 * Returns how many, a name possibly twice (prep_fit leaves it out once); the names are
 * borrowed from exclude and ds. A feature the candidate
 * excludes stays out though the fold chose it: the candidate's written model cannot read it,
 * so a fold that read it would judge another model.
 */
int select_nested_exclusions(const struct dataset *ds, char *const *exclude, int nexclude,
			     char *const *chosen, int nchosen, char **excluded);
/* The most an input's error counts in select_compare's standard error: a prediction 2x off or
 * worse is no guide to the comparison's noise. */
#define SELECT_WILD 1.0
/*
 * Returns the mean of e[r] - best[r] over the n inputs (two models' held-out errors on the
 * same folds), and sets *se to its standard error with the inputs of a group (group[r],
 * numbered from 0; NULL: each alone) as one observation, since the inputs of one data file err
 * alike: with k groups and S_g the sum of group g's deviations from the mean, se^2 = k / (k -
 * 1) * sum_g S_g^2 / n^2, the plain sum_r dev_r^2 / ((n - 1) n) when every input is its own
 * group; there each error counts up to SELECT_WILD. Else one wild input, an error D, would
 * make the mean difference and its standard error alike, both about D / n, and under the
 * one-standard-error rule any model with one would pass however far it erred (lz4's time a
 * byte at once: 37.7% cross-validated against the program's 6.6-7.4%, its standard error 30.6
 * points; 52.3% on 200 held-out inputs, one 27x off). The difference keeps the wild input's
 * whole weight; the standard error, the comparison's noise, does not.
 */
double select_compare(const double *e, const double *best, const int *group, int n, double *se);
/* Returns 1 when the errors e are less than the errors of a simpler model, simpler[], by more
 * than one standard error (select_compare's, grouped alike) of their mean paired difference,
 * else 0: the one-standard-error rule from the other side, for a model that costs more to
 * run (a gate's PRED/long and its samples' runs). Sets *se. */
int select_clearly_less(const double *e, const double *simpler, const int *group, int n,
			double *se);
/* Returns group[order[0..n)] numbered again from 0 by first appearance (select_compare's
 * numbering: the groups of any first k inputs are numbered below k), owned by the caller;
 * NULL when group is. */
int *select_groups_of(const int *group, const int *order, int n);
/* The most an input at a gate's edge may cost, in thresholds: the mean over the edge's inputs
 * alone would let through one that costs several times the threshold where those before it
 * cost little (a short input after long ones: 48% beside four at 2%, an edge of 11.2%, which
 * a loaded machine's timings brought under a 10% threshold). */
#define SELECT_GATE_LAST 2.0
/*
 * Returns how many inputs a gate lets through, the first ones of order[0..n) (the training
 * inputs by descending first-model prediction, predicted[] by input), whose samples cost
 * cost[] (their time over the program's): the most m (least <= m < n, equal predictions not
 * split) such that the mean cost over the first m and over the last `edge` of them is at
 * most threshold, and the m-th costs at most SELECT_GATE_LAST times it; 0 when none.
 */
int select_gate_size(const int *order, const double *predicted, const double *cost, int n,
		     int least, int edge, double threshold);
/*
 * Returns how many inputs a gate lets through once widened over inputs its gated predictor
 * never saw. order[0..n) are the training inputs by descending first-model prediction
 * (predicted[], by input), the first `through` those the gated predictor trained on; cost[],
 * its predictions' cost on each input (their time over the program's), gated[] its error
 * there and first[] the first model's held-out error (group[]: select_compare's, or NULL).
 * The most m (through < m < n, equal predictions not split) such that the mean cost over the
 * first m and over the last `edge` of them is at most threshold, the m-th's at most
 * SELECT_GATE_LAST times it, and on the inputs
 * order[through..m), at least `edge` of them, gated[] errs less than first[] by more than a
 * standard error (select_clearly_less); through when none.
 */
int select_gate_widen(const int *order, const double *predicted, const double *cost,
		      const double *gated, const double *first, const int *group, int n,
		      int through, int edge, double threshold);
/* What select_gate_narrow weighed below the gate it found, for the log. */
struct gate_narrowing {
	int below;         /* the inputs below the gate (0: no gate) */
	double cost;       /* the sampled model's mean cost over them */
	double sampled;    /* its mean held-out error there */
	double unsampled;  /* the input features' model's mean held-out error there */
	double se;         /* the standard error of their paired difference */
};
/*
 * Returns how many inputs a gate lets through to a sampled model that the final choice chose
 * over the input features' model (free to evaluate), or 0 for no gate. order[0..n) are the
 * training inputs by descending prediction of the input features' model (predicted[], by
 * input); cost[] the sampled model's cost on each (its runs' time over the program's),
 * sampled[] and unsampled[] the two models' held-out errors (group[]: select_compare's, or NULL).
 * The gate lets through the most m (least <= m <= n - edge, equal predictions not split) such
 * that the mean cost over the last `edge` of the first m is at most threshold (the m-th's at
 * most SELECT_GATE_LAST times it); it stands where
 * the inputs below it, order[m..n), cost more than threshold on average and the sampled model
 * does not err less than the other there by more than a standard error
 * (select_clearly_less): there the samples cost more than the threshold and do not pay for
 * it. Fills *out with what it weighed below the gate (below 0: no m by the cost).
 */
int select_gate_narrow(const int *order, const double *predicted, const double *cost,
		       const double *sampled, const double *unsampled, const int *group, int n,
		       int least, int edge, double threshold, struct gate_narrowing *out);
/* Marks up to batch more of the n inputs in chosen: the candidates of largest expected error,
 * given the profiled rows[0..rows) (pool[r]: row r's input, -1 if none; e[r]: its held-out
 * error). Returns how many were marked. */
int select_next(const double *x, int n, int p, const int *pool, const double *e, int rows,
		int batch, unsigned char *chosen);
/* One round of select_inputs on the profiled inputs ds (pool[r]: row r's input, -1 if none):
 * cross-validates, logs one line, and unless the error plus its standard error is under the
 * target or max inputs are chosen marks the next batch in chosen. Returns how many were
 * marked (0: stop). */
int select_round(const struct select_options *so, const double *x, int n, int p,
		 const struct dataset *ds, const int *pool, int round, unsigned char *chosen);

#endif
