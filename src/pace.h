/*
 * pace.h: the machine's speed of the moment, divided out of a profile's timing runs.
 *
 * On a shared machine a run's time over its input's usual time is mostly the speed the machine
 * ran at then (frequency, steal, a neighbour's cache), and the runs made just before and after
 * it, of other inputs, saw the same speed. Dividing it out leaves each input's own time.
 */
#ifndef MANTIS_PACE_H
#define MANTIS_PACE_H

enum {
	PACE_HALF = 3,  /* runs on either side of a run whose pace stands for the machine's then */
	PACE_PASSES = 5 /* passes of the two-way fit (pace.c) */
};
/* The divided runs are kept when their spread is below this fraction of the raw runs'. */
#define PACE_GAIN 0.9

/* What pace_divide found. */
struct pace {
	double cv_raw;    /* median, over inputs with two runs or more, of the runs' coefficient of
			   * variation (NaN when no input has two) */
	double cv_paced;  /* the same of the divided runs */
	int divided;      /* 1 when the output holds the divided runs (cv_paced < PACE_GAIN cv_raw) */
};

/*
 * Divides each of the n timing runs, given in the order they were made (input[k] in
 * [0, ninputs): its input; value[k]: its time), by the machine's pace then: the median, over
 * the nearest PACE_HALF runs before it and PACE_HALF after it whose input has two runs or more
 * and whose value is positive, of their value over their input's time (1 when there is no
 * such run), the input's time and the pace fitted in turn (pace.c). Fills out[k] (n entries,
 * owned by the caller) with the divided value where that lowers the spread of the inputs' runs
 * enough (struct pace), else with value[k]; medians[i] (ninputs entries, owned by the caller)
 * with the median of input i's runs in out (NaN for an input with none); and *pc.
 */
void pace_divide(const int *input, const double *value, int n, int ninputs, double *out,
		 double *medians, struct pace *pc);

/* Returns the coefficient of variation of v[0..n) (sample standard deviation over the mean;
 * 0 when n < 2 or the mean is not positive). */
double pace_cv(const double *v, int n);

#endif
