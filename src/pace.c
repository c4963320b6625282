/*
 * pace.c: dividing the machine's speed of the moment out of timing runs.
 *
 * The profile times every input `repeat` times in rounds (profile.c), so the runs next to one
 * another in time are of different inputs, seconds apart. For run k of input i:
 *
 *     rel(k)   = value(k) / median of input i's runs          (1: the input's usual time)
 *     pace(k)  = median of rel(j) over the PACE_HALF nearest eligible runs j on either side
 *     paced(k) = value(k) / pace(k)
 *
 * An eligible run is of an input with two runs or more (one run alone has rel 1 whatever the
 * machine did) and has a positive value. The input's time in rel is itself biased by the speeds
 * its own runs met, so the two are estimated in turn (PACE_PASSES passes: rel from the last
 * pass's medians of the divided runs), a two-way fit log value = input + pace(moment) by
 * medians. That separates the two only if an input's neighbours change from round to round
 * (profile.c shuffles the rounds): in one order every round a pace that recurs with the round
 * is indistinguishable from the inputs' own times, and dividing only evens out each input's
 * runs about a level that keeps the bias (a simulated wander of 7% a run: the inputs' times
 * err 2.5% raw and 2.5% divided in one order; 2.1% raw, 1.2% divided after 1 pass and 1.0%
 * after 5 when shuffled; bench/RESULTS.md, session 56).
 * Invariant: the output is the divided runs only when their median coefficient of variation,
 * over the inputs with two runs, is below PACE_GAIN times the raw runs'. On a quiet machine the
 * neighbours' own noise adds as much as it takes away (simulated, 1% of noise: the CV moves by
 * 0.97-1.08x), and the raw runs are kept; where the machine wanders the CV falls to a third or
 * less (simulated), to 0.5x (lz4's profiles here) or 0.83x (one made beside a test suite, whose
 * bursts the neighbours share less: dividing it still made two profiles' times agree better,
 * bench/RESULTS.md, session 56).
 */
#include "pace.h"

#include <math.h>
#include <stdlib.h>

#include "util.h"

double pace_cv(const double *v, int n)
{
	double mean = 0, var = 0;

	if (n < 2)
		return 0;
	for (int i = 0; i < n; i++)
		mean += v[i] / n;
	for (int i = 0; i < n; i++)
		var += (v[i] - mean) * (v[i] - mean) / (n - 1);
	return mean > 0 ? sqrt(var) / mean : 0;
}

/* The runs grouped by input: the runs of input i are run[first[i] .. first[i + 1]). */
struct groups {
	int *first; /* ninputs + 1 offsets into run */
	int *run;   /* run indexes, each input's in the order made */
};

/* Fills g from input[0..n); release with free of both arrays. */
static void group_runs(const int *input, int n, int ninputs, struct groups *g)
{
	int *next = xcalloc((size_t)ninputs + 1, sizeof *next);

	g->first = xcalloc((size_t)ninputs + 1, sizeof *g->first);
	g->run = xcalloc((size_t)n + 1, sizeof *g->run);
	for (int k = 0; k < n; k++)
		g->first[input[k] + 1]++;
	for (int i = 0; i < ninputs; i++)
		g->first[i + 1] += g->first[i];
	for (int i = 0; i < ninputs; i++)
		next[i] = g->first[i];
	for (int k = 0; k < n; k++)
		g->run[next[input[k]]++] = k;
	free(next);
}

/* Fills rel[k] with value[k] over its input's time (medians, its median divided run of the
 * pass before, or raw run at first), or NaN where run k is not eligible. */
static void relative_runs(const struct groups *g, int ninputs, const double *value,
			  const double *medians, double *rel)
{
	for (int i = 0; i < ninputs; i++) {
		int n = g->first[i + 1] - g->first[i];

		for (int r = 0; r < n; r++) {
			int k = g->run[g->first[i] + r];

			rel[k] = n >= 2 && medians[i] > 0 && value[k] > 0 ? value[k] / medians[i] : NAN;
		}
	}
}

/* Returns the pace at run k: the median rel of the nearest eligible runs on either side. */
static double pace_at(const double *rel, int n, int k)
{
	double near[2 * PACE_HALF];
	int m = 0, taken = 0;

	for (int j = k - 1; j >= 0 && taken < PACE_HALF; j--) {
		if (!isnan(rel[j]))
			near[m++] = rel[j], taken++;
	}
	taken = 0;
	for (int j = k + 1; j < n && taken < PACE_HALF; j++) {
		if (!isnan(rel[j]))
			near[m++] = rel[j], taken++;
	}
	return m ? median(near, m) : 1;
}

/* Fills medians[i] with the median of input i's runs in v (NaN when it has none). Returns the
 * median, over the inputs with two runs or more, of their runs' coefficient of variation (NaN
 * when there is none). */
static double input_medians(const struct groups *g, int ninputs, const double *v, double *medians)
{
	double *runs = NULL, *cvs = xcalloc((size_t)ninputs + 1, sizeof *cvs), m;
	int cap = 0, ncv = 0;

	for (int i = 0; i < ninputs; i++) {
		int n = g->first[i + 1] - g->first[i];

		if (n > cap)
			runs = xrealloc(runs, sizeof *runs * (size_t)(cap = n));
		for (int r = 0; r < n; r++)
			runs[r] = v[g->run[g->first[i] + r]];
		if (n >= 2)
			cvs[ncv++] = pace_cv(runs, n);
		medians[i] = n ? median(runs, n) : NAN;
	}
	m = ncv ? median(cvs, ncv) : NAN;
	free(runs);
	free(cvs);
	return m;
}

void pace_divide(const int *input, const double *value, int n, int ninputs, double *out,
		 double *medians, struct pace *pc)
{
	double *rel = xcalloc((size_t)n + 1, sizeof *rel);
	struct groups g;

	group_runs(input, n, ninputs, &g);
	pc->cv_raw = input_medians(&g, ninputs, value, medians);
	for (int pass = 0; pass < PACE_PASSES; pass++) {
		relative_runs(&g, ninputs, value, medians, rel);
		for (int k = 0; k < n; k++)
			out[k] = value[k] > 0 ? value[k] / pace_at(rel, n, k) : value[k];
		pc->cv_paced = input_medians(&g, ninputs, out, medians);
	}
	pc->divided = pc->cv_paced < PACE_GAIN * pc->cv_raw;
	if (!pc->divided) {
		for (int k = 0; k < n; k++)
			out[k] = value[k];
		input_medians(&g, ninputs, out, medians);
	}
	free(rel);
	free(g.first);
	free(g.run);
}
