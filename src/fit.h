/*
 * fit.h: from a dataset to a model: split, preprocess, learn, convert to original units, test.
 */
#ifndef MANTIS_FIT_H
#define MANTIS_FIT_H

#include "prep.h"

struct dataset;
struct error;
struct model;

/* What to fit. fit_options_default() gives the documented defaults. */
struct fit_options {
	const char *algorithm; /* spore-foba, spore-lasso, lasso, foba, ols, linear or rate */
	int degree;            /* highest total degree of a term (SPORE) */
	double epsilon;        /* FoBa: smallest cut of the error, relative to sum w y^2 */
	int relative;          /* 1: relative least squares (weights 1/y^2); 0: plain */
	double train_frac;     /* share of rows to fit on; the rest measure the test error */
	unsigned long seed;    /* seed of the train/test split */
	char **exclude;        /* features to leave out; not owned */
	int nexclude;          /* number of them */
	int max_features;      /* most distinct features in a model */
	int max_terms;         /* most terms in a model */
	int cv_folds;          /* 0: the algorithm's own rule chooses the model's size (AIC,
				* epsilon); K >= 2: K-fold cross-validation over its candidates */
	const int *group;      /* per row of the dataset, its group (rate: rows of a group are
				* held out together when it judges itself); NULL: each row its own;
				* not owned */
	int per_count;         /* 1 to go through the dataset's instruction count: for the rate,
				* the instructions a unit of scale times the metric an
				* instruction (rate.h); for a polynomial, the polynomial of the
				* instructions times the metric an instruction's rate over the
				* input features; 0: the metric itself */
};

/* Returns the defaults: spore-foba, degree 3, epsilon 1e-4, relative, 0.8, seed 1, 5, 20. */
struct fit_options fit_options_default(void);

/* Returns whether name is a known algorithm. */
int fit_algorithm_known(const char *name);

/* Fills order[0..n) with 0..n-1 shuffled by seed (Fisher-Yates with splitmix64: the same on
 * every machine). */
void fit_shuffle(int *order, int n, unsigned long seed);

/*
 * Fits a model of ds->y on ds's features. On success fills *model (caller releases with
 * model_release) and *prep (what preprocessing decided; caller releases with prep_release)
 * and returns 0; otherwise returns -1 with err saying what is wrong with the data or options.
 */
int fit_model(const struct dataset *ds, const struct fit_options *opt, struct model *model,
	      struct prep *prep, struct error *err);

/* Returns the mean relative error |model - y| / |y| over rows[0..nrows) of ds (NaN if none). */
double fit_mre(const struct model *model, const struct dataset *ds, const int *rows, int nrows);

#endif
