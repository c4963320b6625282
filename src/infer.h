/*
 * infer.h: statistical model inference for mantis explore (Westermann et al. 2012, 004_ section
 * 4): one interface over the learners, so that a learner is added in one file (a `struct
 * learner` and its line in infer.c's table).
 *
 * A learner sees points in natural units (an integer or real parameter's value, an enumerated
 * parameter's index, a boolean's 0 or 1) with each dimension's range, so that it can normalise
 * where distances matter (Kriging) and print its formula in the parameters' own units.
 */
#ifndef MANTIS_INFER_H
#define MANTIS_INFER_H

#include <stdint.h>

struct error;
struct strbuf;

/* The training data a learner sees. */
struct infer_data {
	int n;               /* points */
	int d;               /* dimensions */
	const double *x;     /* n*d values, row-major: point i at x + i*d, natural units */
	const double *y;     /* n measured values */
	const double *lo;    /* d smallest values of each dimension's range */
	const double *hi;    /* d largest values (hi > lo, or hi == lo for a fixed dimension) */
	char *const *names;  /* d dimension names, for printing */
};

/* Settings a learner may read; infer_options_default() gives the documented defaults. */
struct infer_options {
	int relative;        /* 1: fit relative errors (weights 1/y^2) where the learner can */
	int log;             /* 1: fit log y (every y > 0) and predict exp of the model (0) */
	uint64_t seed;       /* seed of every random choice (GP, CART's folds) */
	int mars_degree;     /* MARS: most hinges in a product (2) */
	int mars_max_terms;  /* MARS: most basis functions of the forward pass (21) */
	int cart_min_split;  /* CART: smallest node that is split (4) */
	int cart_folds;      /* CART: folds of the cross-validation that chooses alpha (5) */
	int gp_population;   /* GP: individuals per generation (200) */
	int gp_generations;  /* GP: most generations (30) */
};

/* Returns the defaults listed in struct infer_options. */
struct infer_options infer_options_default(void);

/* A learner: fits a model on data and predicts with it. */
struct learner {
	const char *name;    /* what --infer names it */
	const char *summary; /* one line for --help and the docs */
	/* Fits; returns a model owned by the caller (release with free_model) or NULL with err. */
	void *(*fit)(const struct infer_data *data, const struct infer_options *opt, struct error *err);
	/* Returns the prediction at x (d natural values). */
	double (*predict)(const void *model, const double *x);
	/* Appends the prediction function (a formula or a tree) to out, with the data's names. */
	void (*format)(const void *model, struct strbuf *out);
	/* Frees the model. */
	void (*free_model)(void *model);
};

extern const struct learner learner_mars;
extern const struct learner learner_cart;
extern const struct learner learner_kriging;
extern const struct learner learner_kriging_nd;
extern const struct learner learner_gp;
extern const struct learner learner_spore;

/* Returns the learner called name, or NULL. */
const struct learner *infer_find(const char *name);
/* Returns the NULL-terminated table of every learner. */
const struct learner *const *infer_learners(void);

/* A fitted model with its learner. */
struct infer {
	const struct learner *learner; /* who fitted it */
	void *model;                   /* the learner's model; owned */
	int log;                       /* the model is of log y: predictions are exp of it */
};

/* Fits learner on data into *inf (released by infer_release); with opt->log and every y > 0,
 * on log y with plain least squares (a relative error of y is an absolute one of log y).
 * Returns 0 or -1 with err. */
int infer_fit(struct infer *inf, const struct learner *learner, const struct infer_data *data,
	      const struct infer_options *opt, struct error *err);
/* Returns the prediction at x. */
double infer_predict(const struct infer *inf, const double *x);
/* Appends the prediction function ("exp of:" and the function of log y when inf->log). */
void infer_format(const struct infer *inf, struct strbuf *out);
/* Frees the model and zeroes *inf. */
void infer_release(struct infer *inf);

/* Returns the next value of a splitmix64 stream whose state is *s. */
uint64_t infer_rand(uint64_t *s);
/* Returns a uniform deviate in [0, 1) from the stream *s. */
double infer_uniform(uint64_t *s);

/* Fills w[0..n) with the fitting weights: 1/y^2 when relative and every y is non-zero, else 1. */
void infer_weights(const double *y, int n, int relative, double *w);
/* Copies dimension j of data's points into a fresh array (owned by the caller). */
double *infer_column(const struct infer_data *data, int j);
/* Appends a number the way formulas print them (%.6g). */
void infer_format_number(struct strbuf *out, double v);

#endif
