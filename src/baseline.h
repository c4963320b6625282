/*
 * baseline.h: the baselines mantis eval measures beside a predictor (ATC'13 section 6): Mantis-
 * linear, partial execution and bounded execution. The black-box baseline is blackbox.h.
 */
#ifndef MANTIS_BASELINE_H
#define MANTIS_BASELINE_H

struct error;
struct input;
struct model;
struct predictor;

/* What the execution baselines found on one input. */
struct execution_baselines {
	double pe_value;   /* partial execution: the model at the features' final values */
	double pe_seconds; /* the instrumented program's time until they held them */
	double be_value;   /* bounded execution: the model at the features counted within budget */
	int snapshots;     /* snapshots of the counters the run took */
};

/*
 * Fits Mantis-linear: SPORE-FoBa of degree 1 over the predictor's model features, on every
 * complete input of PRED/build/profile.db (the training profile). Returns 0 with *out filled
 * (release with model_release), or -1 with err set. A constant predictor gives a constant.
 */
int baseline_fit_linear(const struct predictor *p, struct model *out, struct error *err);
/* Returns Mantis-linear's prediction from values, the predictor's model features' values. */
double baseline_linear_predict(const struct model *linear, const struct predictor *p,
			       const double *values);

/*
 * Runs PRED/build/inst on in, its counters taken every wall/100 seconds (wall: the program's
 * time on in), and fills *out: partial execution stops at the first snapshot where every model
 * feature has its final value; bounded execution reads the last snapshot within budget seconds
 * (the predictor's own time on in). Returns 0, or -1 with err set when the instrumented
 * program fails or writes no counters.
 */
int baseline_execution(const struct predictor *p, const struct input *in, double wall,
		       double budget, struct execution_baselines *out, struct error *err);

#endif
