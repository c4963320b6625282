/*
 * select.h: choosing which inputs of a candidate pool to profile (mantis train --select
 * adaptive), after Westermann et al. (004_): measure where the model's expected error is
 * largest, validate, stop when the validation error is under the target.
 */
#ifndef MANTIS_SELECT_H
#define MANTIS_SELECT_H

#include <stdio.h>

struct error;
struct fit_options;
struct manifest;
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
};

/*
 * Profiles (profile_run with po, which names the pool as its inputs file) an adaptively chosen
 * subset of the pool, the manifest m being the build's features. Returns 0 with *chosen (pool
 * size bytes, owned by the caller) marking the inputs profiled, *pool_size their number, and
 * po->only set to it (po->fresh cleared), or -1 with err set.
 */
int select_inputs(const struct select_options *so, struct profile_options *po,
		  const struct manifest *m, unsigned char **chosen, int *pool_size, struct error *err);

#endif
