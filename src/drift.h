/*
 * drift.h: how much slower or faster the machine runs the program now than when it was
 * profiled. mantis eval re-times a few training inputs now and then and compares each with the
 * value the profile recorded for it; the ratio, the drift, is a property of the machine at that
 * moment, not of the model, and a time prediction made then is off by it.
 */
#ifndef MANTIS_DRIFT_H
#define MANTIS_DRIFT_H

#include "predictor.h"

struct error;

/* The training inputs eval re-times. */
enum { DRIFT_REFERENCES = 3 };

/* The reference inputs of one predictor and how to time them. */
struct drift {
	struct predictor_training tr;                /* the training inputs; owns ref's inputs */
	int nref;                                    /* references (0: no drift measured) */
	const struct input *ref[DRIFT_REFERENCES];   /* the inputs re-timed, into tr.ins */
	double trained[DRIFT_REFERENCES];            /* each one's metric as the profile has it */
	char *why;                                   /* why nref is 0, or NULL; owned */
};

/*
 * Picks up to k of the n values nearest their median (by the ratio's log; values[i] <= 0 or
 * NaN are never picked), into out[] in order of nearness. Returns how many were picked.
 */
int drift_pick(const double *values, int n, int k, int *out);
/*
 * Chooses p's references: the DRIFT_REFERENCES training inputs whose profiled metric is
 * nearest the training median (typical runs: not start-up alone, not the longest). Returns 0.
 * d->nref is 0 when the metric is not a time (the instruction count and peak memory do not
 * drift; d->why NULL) or when the training inputs cannot be loaded (d->why says why). Release
 * with drift_release.
 */
int drift_init(struct drift *d, const struct predictor *p);
/*
 * Times each reference reps times with PRED/build/orig (round-robin over the references, so
 * that a passing disturbance touches them alike), killed after timeout seconds (0: never).
 * Returns 0 with *factor the median over references of (median now) / (profiled value), or
 * -1 with err set when no reference ran to completion.
 */
int drift_check(const struct drift *d, const struct predictor *p, int reps, double timeout,
		double *factor, struct error *err);
/* Frees what d owns. */
void drift_release(struct drift *d);

#endif
