/*
 * explore.h: goal-oriented exploration of a parameter space (Westermann et al. 2012, 004_
 * sections 3 and 6): choose measurement points, infer a model, validate it, stop when its
 * error is under a threshold or the budget is spent; then measure the model's error on an
 * independent random set.
 *
 * Measurements come through a callback, so the algorithms are tested on synthetic functions
 * with no process; mantis explore passes one that runs the program through the profile store.
 */
#ifndef MANTIS_EXPLORE_H
#define MANTIS_EXPLORE_H

#include <stdint.h>

#include "infer.h"

struct error;
struct space;

/* Measurement-point selection (004_ section 3.1). */
enum explore_select {
	EXPLORE_RB,  /* Random Breakdown: a batch of random points per iteration */
	EXPLORE_AEB, /* Adaptive Equidistant Breakdown: sector centres, split where the error is high */
	EXPLORE_ARB, /* Adaptive Random Breakdown: random points per sector instead of the centre */
};

/* Validation (004_ section 3.2). */
enum explore_validate {
	EXPLORE_RVS, /* Random Validation Set: mean relative error on random points */
	EXPLORE_DSL, /* Dynamic Sector, local scope: every sector's error under the threshold */
	EXPLORE_DSG, /* Dynamic Sector, global scope: the sectors' mean error under the threshold */
};

/*
 * Measures the program at point u (d normalised coordinates, already snapped to admissible
 * values) into *y. Returns 0, or -1 with err set (exploration stops and reports it).
 */
typedef int (*explore_measure_fn)(void *ctx, const double *u, double *y, struct error *err);

/* How to explore. explore_options_default() gives the documented defaults. */
struct explore_options {
	enum explore_select select;     /* rb, aeb or arb */
	enum explore_validate validate; /* rvs, dsl or dsg (dsl, dsg need aeb or arb) */
	const struct learner *learner;  /* the inference method */
	struct infer_options infer;     /* its settings */
	double threshold;     /* target relative error (0.1) */
	int max_points;       /* measurement budget of the exploration; 0: none */
	uint64_t seed;        /* seed of every random choice (1) */
	int batch;            /* RB: points per iteration; 0: 2 d + 2 */
	int sector_points;    /* ARB: random points per sector (2) */
	int rvs_points;       /* RVS: size of the validation set (10) */
	int test_points;      /* independent random set for the metrics (50); 0: none */
	int max_depth;        /* splits of a real parameter's range at most (6: 1/64 of it) */
};

/* Returns the defaults: aeb, dsg, mars, 0.1, no budget, seed 1, 0, 2, 10, 50, 6. */
struct explore_options explore_options_default(void);

/* Returns the selection, validation called name ("rb"...), or -1. */
int explore_select_find(const char *name);
int explore_validate_find(const char *name);
/* Returns the name of a selection or validation; static storage. */
const char *explore_select_name(enum explore_select s);
const char *explore_validate_name(enum explore_validate v);

/* What happened to a sector (the decisions tests pin). */
enum explore_action {
	EXPLORE_SPLIT,     /* its error was over the threshold (or the validation is RVS): split */
	EXPLORE_VALIDATED, /* under the threshold: its points went to the validation set */
	EXPLORE_REOPENED,  /* a validated sector whose error rose over the threshold: back in the queue */
	EXPLORE_ATOMIC,    /* too small to split: its points went to the training set */
};

/* One decision on one sector. */
struct explore_decision {
	int iteration;             /* 1-based */
	enum explore_action action;
	double error;              /* the sector's relative error that decided it */
	double *lo, *hi;           /* the sector's opposite corners (d coordinates each); owned */
};

/* Error metrics of a model on a set of points (004_ section 6), as fractions. */
struct explore_metrics {
	int n;        /* points */
	double mre;   /* mean relative error */
	double he;    /* highest relative error */
	double lt15;  /* share of relative errors below 0.15 */
	double lt30;  /* share below 0.30 */
};

/* Fills *m from predictions and measurements (n >= 0; all NaN when n == 0). */
void explore_metrics_compute(const double *pred, const double *y, int n, struct explore_metrics *m);

/* The outcome of an exploration. */
struct explore_result {
	int points;           /* MP: distinct points measured to explore (training and validation) */
	int train;            /* points the final model was fitted on */
	int iterations;       /* iterations of the selection loop */
	int converged;        /* 1: the validation error fell under the threshold */
	int budget_spent;     /* 1: stopped by max_points */
	double validation_error; /* the last validation figure (RVS: MRE; DSL: largest; DSG: mean) */
	double model_seconds; /* CPU seconds spent fitting models */
	struct explore_metrics test; /* the final model on the independent random set */
	struct infer model;   /* the final model; owned */
	int ndecisions;       /* sector decisions, in order */
	struct explore_decision *decisions; /* owned */
};

/*
 * Explores space s by measuring through fn(ctx, ...). Returns 0 with *res filled (release with
 * explore_result_release), or -1 with err set (a failed measurement or model; an invalid
 * combination of options).
 */
int explore_run(const struct space *s, const struct explore_options *opt, explore_measure_fn fn,
		void *ctx, struct explore_result *res, struct error *err);
/* Frees what res owns and zeroes it. */
void explore_result_release(struct explore_result *res);

#endif
