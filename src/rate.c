/*
 * rate.c: the rate learner (rate.h): metric = scale * rate, the rate that of the training
 * inputs nearest the input in a few features, k-nearest-neighbour regression (Cover and Hart)
 * of log(metric / scale), with the distance's features chosen by forward selection under
 * leave-one-group-out cross-validation.
 *
 * Why: a program's work is mostly its input's size times a cost per byte, and what that cost
 * is depends on its options and its data together, by a table no low-degree polynomial holds:
 * xz's instructions per byte are 275 on repetitive data at -0, 1,271 on binary data and 4,995
 * on repetitive data at -6, the same within 1% on every file of a kind and preset. The input's
 * numeric arguments and its content (probe.h) tell the kind and the preset; the nearest
 * training inputs in them tell the rate, whatever shape the table has.
 *
 * The fit, on the training rows:
 *   scales   the columns positive on every row, of them the amounts when there are any: the file
 *            sizes (input:size(...)) and the numbers of the input's script (input:number(K):
 *            an SQL query's row count); each is tried and the one judged best kept.
 *   axes     each usable column standardized on the rows (its log first when positive and
 *            spread over a decade or more: a size), and of an amount that spans a doubling
 *            its phase too, the cosine and the sine of 2 pi log2 of it, two candidates (a
 *            table that grows by doubling makes the cost an item a sawtooth in log2 of the
 *            items: model.h); forward selection (Efroymson) adds the axis or the two (one
 *            may tell nothing without the other: gzip's level without the kind of data, a
 *            phase's cosine without its sine), with k from 1 to RATE_MAX_K, that cut the
 *            judged error most, while they cut it by RATE_GAIN of itself and by more than the
 *            standard error of the rows' paired differences (the best of many tries on noise
 *            cuts it a little), up to RATE_MAX_AXES; with no axis every row is a neighbour
 *            (the mean rate). With a slope (below), the steps again after it.
 *   slope    then a slope of the log rate in the log scale, taken as a step is (with k again
 *            from 1 to RATE_MAX_K): the slope of the like pairs (alike in every axis but the
 *            scale, their scales 1.65x apart or more) among the 3 to 12 nearest rows, each
 *            neighbour's log rate moved by it to the input's scale (model_rate_log): a local
 *            elasticity, where the cost a byte rises with the size (a compressor's
 *            dictionary filling) or falls (a fixed set-up spread over more bytes). One slope
 *            for all data would be wrong where the rate is flat: the pairs near the input
 *            tell.
 *   witnesses last, each feature that would have been taken in the place of an axis chosen
 *            is added as its witness (two features that tell the same kinds apart: a new
 *            input between two kinds on one is placed by the other).
 *   base     last, the log rate as a base plus the nearest rows' residuals (model.h): a part
 *            of the base for some chosen axes, a line between an axis's ends or through a
 *            knot at each of its values (3 to RATE_BASE_KNOTS), one axis's part or two a
 *            step by the rule of a step, each row's error counted up to 100% there; the
 *            parts fitted by penalized least squares (fit_base: RATE_BASE_SMOOTH on
 *            neighbouring knots, RATE_BASE_RIDGE on each), in each held-out group again when
 *            judged. The nearest rows give an input whose combination of axes no row had
 *            the rate of another combination (lz4's -3 on text, missing from its training,
 *            took -3 on repetitive data's or -4 on text's: 23% held out); a part an axis,
 *            added, reads it off the rows that share each part (9.5%).
 *   bagged   for a measured value (a time; not the exact count), RATE_BAG more choices of
 *            all the above, each made on a bootstrap of the rows and read off every row: the
 *            log rate is the mean of theirs and the first's (bag), as which near-tied
 *            features a noisy time picks is itself noise.
 *   judged   leave-one-group-out: each row's rate predicted from the rows outside its group,
 *            its error |exp(predicted - actual log rate) - 1|, the relative error of the
 *            metric; the mean over the rows.
 *   through  for a time with the program's instruction count (per_count: train's candidate
 *            for a time), the rate above is fitted to the instructions, and then a second, with
 *            its own forward selection over the same scale, to the time an instruction:
 *            time = scale * instructions a unit * time an instruction. The count is exact, so
 *            what shapes it (a sawtooth in a table's doubling) is plain there and the time's
 *            noise does not hide it; the time an instruction varies over a few times (the
 *            caches) where the time a unit varies over decades. A polynomial of the
 *            program's features may go through the count too (rate_learn_per_count): the
 *            polynomial fitted to the instructions (fit.c), the second rate alone here, its
 *            scale the one its own judged error picks (the scale serves its slope only).
 * Invariant: the model keeps every training row's coordinates and log rate (and log scale, with
 * a slope), so a prediction is a function of the model file alone (export-c writes them out).
 */
#include "rate.h"

#include <assert.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dataset.h"
#include "descriptor.h"
#include "error.h"
#include "infer.h"
#include "linalg.h"
#include "model.h"
#include "util.h"

#define RATE_GAIN 0.02 /* an axis must cut the judged error by this share of it */
#define RATE_BAG_SEED 1 /* the bootstraps' generator's seed */
#define RATE_BASE_KNOTS 12     /* most values of an axis with a knot at each */
#define RATE_BASE_SMOOTH 1e-3  /* the penalty on neighbouring knots' squared difference */
#define RATE_BASE_RIDGE 1e-6   /* the penalty on a knot's squared effect (two parts' levels) */

/* An axis's part of the base (model.h): none, a line between its ends, or a knot at each of
 * its values. */
enum { BASE_NONE, BASE_LINE, BASE_KNOTS };

/* The learner's state over the training rows. */
struct rate_fit {
	const struct dataset *ds; /* the data; borrowed */
	const int *rows;          /* the training rows of ds; borrowed */
	int n;                    /* how many */
	unsigned char *same;      /* n x n: 1 where rows i and j share a group; owned */
	int ncand;                /* candidate axes */
	int *column;              /* per candidate, its ds column; owned */
	struct model_axis *axis;  /* per candidate, its standardization; owned */
	double *coord;            /* ncand x n coordinates, candidate by candidate; owned */
	const double *y;          /* per ds row, the value whose rate is fitted: ds->y, or for
				   * a time through the instructions first ds->count; borrowed */
	int scale;                /* the ds column of the scale tried */
	double *log_rate;         /* n log rates under the scale tried; owned */
	double *log_scale;        /* n logs of the scale tried; owned */
	int *first;               /* per row, the first row of its group; owned */
	int *nvalues;             /* per candidate, its distinct coordinates (RATE_BASE_KNOTS + 1:
				   * more); owned */
	double *values;           /* ncand x (RATE_BASE_KNOTS + 1): those coordinates,
				   * ascending; owned */
};

/* The axes and k chosen for one scale, with their judged error. */
struct rate_choice {
	int axes[RATE_MAX_AXES]; /* candidate indices */
	int naxes;               /* how many */
	int k;                   /* neighbours */
	int near;                /* the nearest that give the slope in log scale; 0: none */
	unsigned char base[RATE_MAX_AXES]; /* per axis, its part of the base: BASE_* */
	double error;            /* the judged mean relative error */
};

/* Returns value x of ds column j on training row i of f. */
static double value_at(const struct rate_fit *f, int j, int i)
{
	return f->ds->x[(size_t)j * (size_t)f->ds->n + (size_t)f->rows[i]];
}

/* Fills a with column j's standardization on f's rows, of the column itself (or its log) or,
 * with phase set, of its phase's cosine or sine (model.h: a positive column that spans a
 * doubling); returns 0, or -1 when it is constant or has no phase. */
static int standardize(const struct rate_fit *f, int j, int phase, struct model_axis *a)
{
	double lo = INFINITY, hi = -INFINITY, sum = 0, ss = 0;

	for (int i = 0; i < f->n; i++) {
		lo = fmin(lo, value_at(f, j, i));
		hi = fmax(hi, value_at(f, j, i));
	}
	if (phase && !(lo > 0 && hi >= 2 * lo))
		return -1;
	a->phase = phase;
	a->log = !phase && lo > 0 && hi >= 10 * lo;
	a->centre = 0;
	a->spread = 1;
	for (int i = 0; i < f->n; i++)
		sum += model_axis_coordinate(a, value_at(f, j, i));
	a->centre = sum / f->n;
	for (int i = 0; i < f->n; i++) {
		double d = model_axis_coordinate(a, value_at(f, j, i));

		ss += d * d;
	}
	a->spread = sqrt(ss / f->n);
	return a->spread > 1e-12 * (1 + fabs(a->centre)) ? 0 : -1;
}

/* Sets a's knots for axis j of choice c, a part of the base of kind c->base[j]: none, the
 * ends of the axis's coordinates (in line[0..2)), or its values (f's, borrowed). */
static void base_knots(const struct rate_fit *f, const struct rate_choice *c, int j,
		       double line[2], struct model_axis *a)
{
	const double *coord = f->coord + (size_t)c->axes[j] * (size_t)f->n;

	a->nknots = 0;
	if (c->base[j] == BASE_KNOTS) {
		a->nknots = f->nvalues[c->axes[j]];
		a->knot = f->values + (size_t)c->axes[j] * (RATE_BASE_KNOTS + 1);
	} else if (c->base[j] == BASE_LINE) {
		line[0] = INFINITY;
		line[1] = -INFINITY;
		for (int i = 0; i < f->n; i++) {
			line[0] = fmin(line[0], coord[i]);
			line[1] = fmax(line[1], coord[i]);
		}
		a->nknots = 2;
		a->knot = line;
	}
}

/* Returns the knot below x on a's knots (the segment x lies on, the first or last outside
 * them), *w x's weight on the knot above it: model_axis_base's line, as weights. */
static int hat(const struct model_axis *a, double x, double *w)
{
	int j = 0;

	if (x <= a->knot[0]) {
		*w = 0;
		return 0;
	}
	if (x >= a->knot[a->nknots - 1]) {
		*w = 1;
		return a->nknots - 2;
	}
	while (x >= a->knot[j + 1])
		j++;
	*w = (x - a->knot[j]) / (a->knot[j + 1] - a->knot[j]);
	return j;
}

/* Adds to g (m x m) and b (m) the penalty of the base's parts in axes[0..naxes): RATE_BASE_SMOOTH
 * times each two neighbouring knots' squared difference, RATE_BASE_RIDGE times each knot's
 * squared effect (the parts of two axes share a level, which this splits). */
static void base_penalty(const struct model_axis *axes, int naxes, double *g, int m)
{
	for (int j = 0, o = 0; j < naxes; o += axes[j++].nknots) {
		for (int t = o; t < o + axes[j].nknots; t++) {
			g[(size_t)t * (size_t)m + (size_t)t] += RATE_BASE_RIDGE;
			if (t + 1 == o + axes[j].nknots)
				continue;
			g[(size_t)t * (size_t)m + (size_t)t] += RATE_BASE_SMOOTH;
			g[(size_t)(t + 1) * (size_t)m + (size_t)(t + 1)] += RATE_BASE_SMOOTH;
			g[(size_t)t * (size_t)m + (size_t)(t + 1)] -= RATE_BASE_SMOOTH;
			g[(size_t)(t + 1) * (size_t)m + (size_t)t] -= RATE_BASE_SMOOTH;
		}
	}
}

/* Fills effect[0..m) (the m knots of axes[0..naxes), axis by axis) with the base that fits
 * the log rates of f's rows outside row out's group (out -1: every row) by penalized least
 * squares: the sum of the parts' lines at each row's coordinates (choice c's axes) against
 * its log rate, plus base_penalty. */
static void fit_base(const struct rate_fit *f, const struct rate_choice *c,
		     const struct model_axis *axes, int m, int out, double *effect)
{
	double *g = xcalloc((size_t)m * (size_t)m + 1, sizeof *g);
	struct error err = {0};

	memset(effect, 0, sizeof *effect * (size_t)m);
	for (int i = 0; i < f->n; i++) {
		int at[2 * RATE_MAX_AXES], h = 0;
		double w[2 * RATE_MAX_AXES];

		if (out >= 0 && f->same[(size_t)out * (size_t)f->n + (size_t)i])
			continue;
		for (int j = 0, o = 0; j < c->naxes; o += axes[j++].nknots) {
			double up;
			int below;

			if (axes[j].nknots == 0)
				continue;
			below = hat(&axes[j], f->coord[(size_t)c->axes[j] * (size_t)f->n + (size_t)i],
				    &up);
			at[h] = o + below;
			w[h++] = 1 - up;
			at[h] = o + below + 1;
			w[h++] = up;
		}
		for (int a = 0; a < h; a++) {
			effect[at[a]] += w[a] * f->log_rate[i];
			for (int b = 0; b < h; b++)
				g[(size_t)at[a] * (size_t)m + (size_t)at[b]] += w[a] * w[b];
		}
	}
	base_penalty(axes, c->naxes, g, m);
	if (linalg_solve_spd(g, m, effect, &err) < 0)
		assert(!"a ridge makes the base's system positive definite");
	free(g);
}

/* Points the base parts of axes[0..naxes) at their effects, effect[0..) axis by axis. */
static void set_effects(struct model_axis *axes, int naxes, double *effect)
{
	for (int j = 0; j < naxes; effect += axes[j++].nknots)
		axes[j].effect = effect;
}

/* Returns the judged error (see the file's comment) of choice c (its error not read), each
 * row's in e[0..n); with a base, fitted again without each held-out group (fit_base). */
static double judge(const struct rate_fit *f, const struct rate_choice *c, double *e)
{
	struct model_axis axes[RATE_MAX_AXES] = {{0}};
	double line[RATE_MAX_AXES][2], *effect = NULL;
	struct model_rate r = {.scale = f->scale, .k = c->k, .naxes = c->naxes, .axes = axes,
			       .npoints = f->n, .log_rate = f->log_rate, .slope_near = c->near,
			       .log_scale = f->log_scale};
	double *point = xcalloc((size_t)f->n * (size_t)c->naxes + 1, sizeof *point), sum = 0;
	int m = 0;

	for (int j = 0; j < c->naxes; j++) {
		axes[j].feature = f->column[c->axes[j]];
		base_knots(f, c, j, line[j], &axes[j]);
		m += axes[j].nknots;
	}
	if (m > 0)
		effect = xcalloc((size_t)f->n * (size_t)m, sizeof *effect);
	for (int i = 0; i < f->n; i++) {
		for (int j = 0; j < c->naxes; j++)
			point[(size_t)i * (size_t)c->naxes + (size_t)j] =
				f->coord[(size_t)c->axes[j] * (size_t)f->n + (size_t)i];
	}
	r.point = point;
	for (int i = 0; i < f->n; i++) {
		double p;

		if (m > 0 && f->first[i] == i)
			fit_base(f, c, axes, m, i, effect + (size_t)i * (size_t)m);
		if (m > 0)
			set_effects(axes, c->naxes, effect + (size_t)f->first[i] * (size_t)m);
		p = model_rate_log(&r, point + (size_t)i * (size_t)c->naxes, f->log_scale[i],
				   f->same + (size_t)i * (size_t)f->n);
		e[i] = isnan(p) ? 1 : fabs(expm1(p - f->log_rate[i]));
		sum += e[i];
	}
	free(effect);
	free(point);
	return sum / f->n;
}

/* Returns the standard error of the mean of d[0..n), the rows of a group one observation (the
 * sum of their deviations), as train's final choice has it: se^2 = g / (g - 1) * sum of the
 * groups' squared sums / n^2 over g groups. */
static double grouped_se(const struct rate_fit *f, const double *d)
{
	double mean = 0, ss = 0;
	int groups = 0;

	for (int i = 0; i < f->n; i++)
		mean += d[i] / f->n;
	for (int i = 0; i < f->n; i++) {
		const unsigned char *same = f->same + (size_t)i * (size_t)f->n;
		double sum = 0;
		int first = 1;

		for (int j = 0; j < i && first; j++)
			first = !same[j];
		for (int j = i; first && j < f->n; j++)
			sum += same[j] ? d[j] - mean : 0;
		ss += first ? sum * sum : 0;
		groups += first;
	}
	return groups > 1 ? sqrt(ss * groups / (groups - 1)) / f->n : 0;
}

/* Sets *next (and next_e) to try, with its errors try_e, when it errs less. */
static void keep_least(struct rate_choice *next, double *next_e, const struct rate_choice *try,
		       const double *try_e, int n)
{
	if (try->error < next->error) {
		*next = *try;
		memcpy(next_e, try_e, sizeof *next_e * (size_t)n);
	}
}

/* Returns whether candidate c is one of choice's axes. */
static int has_axis(const struct rate_choice *choice, int c)
{
	for (int j = 0; j < choice->naxes; j++) {
		if (choice->axes[j] == c)
			return 1;
	}
	return 0;
}

/* Sets *next to the try that errs least among best with one more axis, or two (an axis may
 * tell nothing alone and much with another: the preset and the kind of data), at each k,
 * next_e to its errors. */
static void next_step(const struct rate_fit *f, const struct rate_choice *best,
		      struct rate_choice *next, double *next_e, double *try_e)
{
	next->error = INFINITY;
	for (int c = 0; c < f->ncand; c++) {
		for (int c2 = c; c2 < f->ncand && !has_axis(best, c); c2++) {
			struct rate_choice try = *best;

			if (c2 > c && (has_axis(best, c2) || best->naxes + 2 > RATE_MAX_AXES))
				continue;
			try.axes[try.naxes++] = c;
			if (c2 > c)
				try.axes[try.naxes++] = c2;
			for (int k = 1; k <= RATE_MAX_K; k++) {
				try.k = k;
				try.error = judge(f, &try, try_e);
				keep_least(next, next_e, &try, try_e, f->n);
			}
		}
	}
}

/* Returns whether try (errors try_e) would be taken as a step from from (errors e): it errs
 * less by RATE_GAIN of from's error and by more than the standard error of the rows' paired
 * differences (the best of many tries on noise cuts it a little), each error counted up to
 * 100% there when capped (the base: train's final choice counts so, where a few inputs that a
 * nearest rate missed by several times would hide any gain). d is scratch. */
static int better(const struct rate_fit *f, const struct rate_choice *try, const double *try_e,
		  const struct rate_choice *from, const double *e, double *d, int capped)
{
	for (int i = 0; i < f->n; i++)
		d[i] = capped ? fmin(e[i], 1) - fmin(try_e[i], 1) : e[i] - try_e[i];
	return try->error < from->error * (1 - RATE_GAIN) && from->error - try->error >
		grouped_se(f, d);
}

/* Adds to *best each other candidate that would have been taken in the place of one of its
 * axes (better than best without that axis, at best's k): a second witness of what that axis
 * tells, which keeps a new input that lies between two kinds on one of them from the wrong
 * kind. gzip: text and repetitive records carry the same entropy, 3.64-3.77 bits a byte, and
 * their newlines tell them apart; chosen on the level and the entropy alone, a held-out file
 * just below the training range took a text file's rate, 8.7 times its own, and 70 held-out
 * inputs erred 15.7%. A feature that tells nothing is no witness, nor, with a slope, the scale
 * (the slope moves a neighbour along it; as an axis it would take a neighbour of another kind
 * and the same size over one of the input's kind: a table whose cost a byte rises with the
 * size erred 28% so, and not at all without it), nor a phase (it tells where an amount lies
 * between two powers of two, no kind: on a table of rates flat in the size, the size's phase
 * stood in for the level by chance), nor one in the place of a phase (half of one is
 * ambiguous, and noise stood in for it). Scratch: e, try_e, d. */
static void witnesses(const struct rate_fit *f, struct rate_choice *best, double *e,
		      double *try_e, double *d)
{
	struct rate_choice chosen = *best;

	for (int c = 0; c < f->ncand && best->naxes < RATE_MAX_AXES; c++) {
		int witness = 0;

		if (has_axis(&chosen, c) || (chosen.near > 0 && f->column[c] == f->scale) ||
		    f->axis[c].phase)
			continue;
		for (int a = 0; a < chosen.naxes && !witness; a++) {
			struct rate_choice without = chosen, instead;

			if (f->axis[chosen.axes[a]].phase)
				continue;
			without.axes[a] = without.axes[--without.naxes];
			without.error = judge(f, &without, e);
			instead = without;
			instead.axes[instead.naxes++] = c;
			instead.error = judge(f, &instead, try_e);
			witness = better(f, &instead, try_e, &without, e, d, 0);
		}
		if (witness)
			best->axes[best->naxes++] = c;
	}
	best->error = judge(f, best, e);
}

/* Gives *best (errors e) a slope in log scale (model_rate_log) when one, read off the 3 to 12
 * nearest training inputs, errs less by the rule of a step (better): xz's cost a
 * byte at -e on text is 3,369 instructions on a 155 KB file and 4,158 on a 2.2 MB one, and a
 * small held-out file that took the large one's rate erred by 23%. Scratch: next_e, try_e,
 * d. */
static void slope(const struct rate_fit *f, struct rate_choice *best, double *e, double *next_e,
		  double *try_e, double *d)
{
	static const int nears[] = {3, 4, 5, 6, 8, 10, 12};
	struct rate_choice next = {.error = INFINITY};

	for (size_t i = 0; i < sizeof nears / sizeof *nears; i++) {
		for (int k = 1; k <= RATE_MAX_K; k++) {
			struct rate_choice try = *best;

			try.near = nears[i];
			try.k = k;
			try.error = judge(f, &try, try_e);
			keep_least(&next, next_e, &try, try_e, f->n);
		}
	}
	if (better(f, &next, next_e, best, e, d, 0)) {
		*best = next;
		memcpy(e, next_e, sizeof *e * (size_t)f->n);
	}
}

/* Takes steps (next_step) from *best (errors e) while they are better. Scratch: next_e, try_e,
 * d. */
static void steps(const struct rate_fit *f, struct rate_choice *best, double *e, double *next_e,
		  double *try_e, double *d)
{
	struct rate_choice next;

	while (best->naxes < RATE_MAX_AXES) {
		next_step(f, best, &next, next_e, try_e);
		if (!better(f, &next, next_e, best, e, d, 0))
			break;
		*best = next;
		memcpy(e, next_e, sizeof *e * (size_t)f->n);
	}
}

/* Returns whether axis j of choice c may take a base part of kind: it has none, it is no
 * phase (half of one tells no trend), and for knots it has 3 to RATE_BASE_KNOTS values. */
static int may_base(const struct rate_fit *f, const struct rate_choice *c, int j, int kind)
{
	int values = f->nvalues[c->axes[j]];

	return c->base[j] == BASE_NONE && !f->axis[c->axes[j]].phase &&
	       (kind == BASE_LINE || (values >= 3 && values <= RATE_BASE_KNOTS));
}

/* Sets *next (errors next_e) to the try that errs least among best with the base part of
 * one more axis, or two, a line or knots each, at each k. */
static void next_base(const struct rate_fit *f, const struct rate_choice *best,
		      struct rate_choice *next, double *next_e, double *try_e)
{
	next->error = INFINITY;
	for (int o = 0; o < 2 * best->naxes; o++) {
		int j = o / 2, kind = BASE_LINE + o % 2;

		for (int o2 = o; o2 < 2 * best->naxes && may_base(f, best, j, kind); o2++) {
			int j2 = o2 / 2, kind2 = BASE_LINE + o2 % 2;
			struct rate_choice try = *best;

			if (o2 > o && (j2 == j || !may_base(f, best, j2, kind2)))
				continue;
			try.base[j] = (unsigned char)kind;
			if (o2 > o)
				try.base[j2] = (unsigned char)kind2;
			for (int k = 1; k <= RATE_MAX_K; k++) {
				try.k = k;
				try.error = judge(f, &try, try_e);
				keep_least(next, next_e, &try, try_e, f->n);
			}
		}
	}
}

/* Gives *best (errors e) a base (model.h), one axis's part or two a step while a step is
 * better, its errors counted up to 100% (better). Scratch: next_e, try_e, d. */
static void add_base(const struct rate_fit *f, struct rate_choice *best, double *e,
		     double *next_e, double *try_e, double *d)
{
	struct rate_choice next;

	for (;;) {
		next_base(f, best, &next, next_e, try_e);
		if (!(next.error < INFINITY) || !better(f, &next, next_e, best, e, d, 1))
			break;
		*best = next;
		memcpy(e, next_e, sizeof *e * (size_t)f->n);
	}
}

/* Chooses the axes, k and slope for the log rates in f (forward selection, a step adding one
 * axis or two): the step that errs least is taken while it errs less than the choice so far by
 * RATE_GAIN of that and by more than one standard error of the paired difference (so that
 * the best of many tries on noise is not taken for a feature); then the slope, by the same
 * rule; with a slope, the steps again (what the slope leaves may be told by an axis that told
 * nothing before it: Lua's sieve and hash scripts cost an n that falls with n, by the slope,
 * and saws by n's phase, which before the slope the trend hid); then the witnesses; then the
 * base (add_base). Returns
 * the choice. */
static struct rate_choice forward(const struct rate_fit *f)
{
	struct rate_choice best = {.k = 1};
	double *e = xcalloc((size_t)f->n + 1, sizeof *e), *next_e = xcalloc((size_t)f->n + 1,
									     sizeof *e);
	double *try_e = xcalloc((size_t)f->n + 1, sizeof *e), *d = xcalloc((size_t)f->n + 1,
									   sizeof *e);

	best.error = judge(f, &best, e);
	steps(f, &best, e, next_e, try_e, d);
	slope(f, &best, e, next_e, try_e, d);
	if (best.near > 0)
		steps(f, &best, e, next_e, try_e, d);
	witnesses(f, &best, e, try_e, d);
	add_base(f, &best, e, next_e, try_e, d);
	free(e);
	free(next_e);
	free(try_e);
	free(d);
	return best;
}

/* Returns whether ds column j is an amount the work may be proportional to: a file size (a
 * descriptor input:size(...)) or a number of the input's script (input:number(K): an SQL
 * query's row count). */
static int is_amount(const struct dataset *ds, int j)
{
	int d = descriptor_find(ds->names[j]);

	return d >= 0 && ((d < DESCRIPTOR_SIZES && strncmp(ds->names[j], "input:size(", 11) == 0) ||
			  descriptor_scripted(d));
}

/* Returns whether ds column j is positive on every training row of f. */
static int positive(const struct rate_fit *f, int j)
{
	for (int i = 0; i < f->n; i++) {
		if (!(value_at(f, j, i) > 0))
			return 0;
	}
	return 1;
}

/* Adds to model a feature for ds column j with its range over f's rows; returns its index. */
static int add_feature(struct model *model, const struct rate_fit *f, int j)
{
	struct model_feature *mf = &model->features[model->nfeatures];

	mf->name = xstrdup(f->ds->names[j]);
	mf->min = INFINITY;
	mf->max = -INFINITY;
	for (int i = 0; i < f->n; i++) {
		mf->min = fmin(mf->min, value_at(f, j, i));
		mf->max = fmax(mf->max, value_at(f, j, i));
	}
	return model->nfeatures++;
}

/* Returns the index into model->features of ds column j, added (its range over f's rows)
 * when model has none of that name. */
static int feature_at(struct model *model, const struct rate_fit *f, int j)
{
	for (int i = 0; i < model->nfeatures; i++) {
		if (strcmp(model->features[i].name, f->ds->names[j]) == 0)
			return i;
	}
	return add_feature(model, f, j);
}

/* Gives r's axes (those of choice c) c's base, fitted on every row of f, knots and effects
 * owned by r. */
static void to_base(const struct rate_fit *f, const struct rate_choice *c, struct model_rate *r)
{
	struct model_axis axes[RATE_MAX_AXES] = {{0}};
	double line[RATE_MAX_AXES][2], *effect;
	int m = 0;

	for (int j = 0; j < c->naxes; j++) {
		base_knots(f, c, j, line[j], &axes[j]);
		m += axes[j].nknots;
	}
	if (m == 0)
		return;
	effect = xcalloc((size_t)m, sizeof *effect);
	fit_base(f, c, axes, m, -1, effect);
	set_effects(axes, c->naxes, effect);
	for (int j = 0; j < c->naxes; j++) {
		size_t size = sizeof *axes[j].knot * (size_t)axes[j].nknots;

		if (axes[j].nknots == 0)
			continue;
		r->axes[j].nknots = axes[j].nknots;
		r->axes[j].knot = memcpy(xmalloc(size), axes[j].knot, size);
		r->axes[j].effect = memcpy(xmalloc(size), axes[j].effect, size);
	}
	free(effect);
}

/* Fills r, a rate of model, with scale column `scale` (f's scale: set_scale) and choice c over
 * f's rows, adding the features it reads to model's. */
static void to_rate(const struct rate_fit *f, int scale, const struct rate_choice *c,
		    struct model *model, struct model_rate *r)
{
	size_t room = (size_t)model->nfeatures + (size_t)c->naxes + 2;

	model->features = xrealloc(model->features, room * sizeof *model->features);
	memset(model->features + model->nfeatures, 0,
	       (room - (size_t)model->nfeatures) * sizeof *model->features);
	r->scale = feature_at(model, f, scale);
	r->k = c->k;
	r->naxes = c->naxes;
	r->axes = xcalloc((size_t)c->naxes + 1, sizeof *r->axes);
	for (int j = 0; j < c->naxes; j++) {
		r->axes[j] = f->axis[c->axes[j]];
		r->axes[j].feature = feature_at(model, f, f->column[c->axes[j]]);
	}
	r->npoints = f->n;
	r->slope_near = c->near;
	if (c->near > 0) {
		r->log_scale = xcalloc((size_t)f->n, sizeof *r->log_scale);
		memcpy(r->log_scale, f->log_scale, sizeof *r->log_scale * (size_t)f->n);
	}
	r->point = xcalloc((size_t)f->n * (size_t)c->naxes + 1, sizeof *r->point);
	r->log_rate = xcalloc((size_t)f->n + 1, sizeof *r->log_rate);
	memcpy(r->log_rate, f->log_rate, sizeof *r->log_rate * (size_t)f->n);
	for (int i = 0; i < f->n; i++) {
		for (int j = 0; j < c->naxes; j++)
			r->point[(size_t)i * (size_t)c->naxes + (size_t)j] =
				f->coord[(size_t)c->axes[j] * (size_t)f->n + (size_t)i];
	}
	to_base(f, c, r);
}

/* Fills candidate c's distinct coordinates, ascending, up to RATE_BASE_KNOTS + 1 of them
 * (more: too many for a knot at each). */
static void distinct_values(struct rate_fit *f, int c)
{
	double *v = f->values + (size_t)c * (RATE_BASE_KNOTS + 1);
	int *m = &f->nvalues[c];

	for (int i = 0; i < f->n && *m <= RATE_BASE_KNOTS; i++) {
		double x = f->coord[(size_t)c * (size_t)f->n + (size_t)i];
		int at = 0;

		while (at < *m && v[at] < x)
			at++;
		if (at < *m && v[at] == x)
			continue;
		memmove(v + at + 1, v + at, sizeof *v * (size_t)(*m - at));
		v[at] = x;
		(*m)++;
	}
}

/* Fills each row's first row of its group (f->first) from f->same and each candidate's
 * distinct values from f->coord. */
static void prepare_groups(struct rate_fit *f)
{
	f->first = xcalloc((size_t)f->n + 1, sizeof *f->first);
	for (int i = 0; i < f->n; i++) {
		while (!f->same[(size_t)i * (size_t)f->n + (size_t)f->first[i]])
			f->first[i]++;
	}
	f->nvalues = xcalloc((size_t)f->ncand + 1, sizeof *f->nvalues);
	f->values = xcalloc((size_t)f->ncand * (RATE_BASE_KNOTS + 1) + 1, sizeof *f->values);
	for (int c = 0; c < f->ncand; c++)
		distinct_values(f, c);
}

/* Fills f's groups, candidate axes and their values from the usable columns. */
static void prepare(struct rate_fit *f, const int *group, const int *usable, int nusable)
{
	f->same = xcalloc((size_t)f->n * (size_t)f->n + 1, 1);
	for (int i = 0; i < f->n; i++) {
		for (int j = 0; j < f->n; j++)
			f->same[(size_t)i * (size_t)f->n + (size_t)j] =
				i == j || (group && group[f->rows[i]] == group[f->rows[j]]);
	}
	f->column = xcalloc(3 * (size_t)nusable + 1, sizeof *f->column);
	f->axis = xcalloc(3 * (size_t)nusable + 1, sizeof *f->axis);
	f->coord = xcalloc(3 * (size_t)nusable * (size_t)f->n + 1, sizeof *f->coord);
	for (int u = 0; u < 3 * nusable; u++) {
		int j = usable[u % nusable], phase = u / nusable; /* MODEL_PHASE_NONE, _COS, _SIN */
		struct model_axis *a = &f->axis[f->ncand];

		if ((phase && !is_amount(f->ds, j)) || standardize(f, j, phase, a) < 0)
			continue;
		for (int i = 0; i < f->n; i++)
			f->coord[(size_t)f->ncand * (size_t)f->n + (size_t)i] =
				model_axis_coordinate(a, value_at(f, j, i));
		f->column[f->ncand++] = j;
	}
	f->log_rate = xcalloc((size_t)f->n + 1, sizeof *f->log_rate);
	f->log_scale = xcalloc((size_t)f->n + 1, sizeof *f->log_scale);
	prepare_groups(f);
}

/* Makes ds column j f's scale: its logs and the log rates of f->y under it. */
static void set_scale(struct rate_fit *f, int j)
{
	f->scale = j;
	for (int i = 0; i < f->n; i++) {
		f->log_scale[i] = log(value_at(f, j, i));
		f->log_rate[i] = log(f->y[f->rows[i]] / value_at(f, j, i));
	}
}

/* Makes ds column j f's scale, with the log rates of the metric an instruction (ds->y over
 * ds->count): the second rate of a time through the instructions. */
static void set_per_count(struct rate_fit *f, int j)
{
	set_scale(f, j);
	for (int i = 0; i < f->n; i++)
		f->log_rate[i] = log(f->ds->y[f->rows[i]] / f->ds->count[f->rows[i]]);
}

/* Returns 0 if v is positive on every row of rows[0..n), or -1 with err naming the first row
 * where it is not (what: the value's name). */
static int check_positive(const struct dataset *ds, const double *v, const char *what,
			  const int *rows, int n, struct error *err)
{
	for (int i = 0; i < n; i++) {
		if (!(v[rows[i]] > 0))
			return error_set(err, "%s is %g on '%s': a rate needs positive values", what,
					 v[rows[i]], ds->ids[rows[i]]);
	}
	return 0;
}

/* Returns the scale column among usable[0..nusable) whose choice (forward, with the log rates
 * that set(f, scale) makes) errs least, with that choice in *best; -1 when no usable column is
 * positive on every row. Of the amounts (sizes, a script's numbers) only, when there are any. */
static int best_scale(struct rate_fit *f, const int *usable, int nusable,
		      void (*set)(struct rate_fit *, int), struct rate_choice *best)
{
	int amounts = 0, scale = -1;

	best->error = INFINITY;
	for (int u = 0; u < nusable; u++)
		amounts |= is_amount(f->ds, usable[u]) && positive(f, usable[u]);
	for (int u = 0; u < nusable; u++) {
		int j = usable[u];
		struct rate_choice c;

		if (!positive(f, j) || (amounts && !is_amount(f->ds, j)))
			continue;
		set(f, j);
		c = forward(f);
		if (c.error < best->error) {
			*best = c;
			scale = j;
		}
	}
	return scale;
}

/* Frees what the fit f owns. */
static void fit_release(struct rate_fit *f)
{
	free(f->same);
	free(f->column);
	free(f->axis);
	free(f->coord);
	free(f->log_rate);
	free(f->log_scale);
	free(f->first);
	free(f->nvalues);
	free(f->values);
}

/* Fills b with f's rows drawn by pick[0..f->n) (rows[i] the ds row of f's row pick[i]: a row
 * drawn twice shares a group with itself), with f's candidates, coordinates and log rates, so
 * that a choice made on b names f's candidates. b owns what fit_release frees. */
static void resample(const struct rate_fit *f, const int *pick, const int *rows,
		     struct rate_fit *b)
{
	size_t n = (size_t)f->n, ncand = (size_t)f->ncand;

	*b = (struct rate_fit){.ds = f->ds, .rows = rows, .n = f->n, .ncand = f->ncand,
			       .y = f->y, .scale = f->scale};
	b->same = xcalloc(n * n + 1, 1);
	b->column = memcpy(xcalloc(ncand + 1, sizeof *b->column), f->column,
			   ncand * sizeof *b->column);
	b->axis = memcpy(xcalloc(ncand + 1, sizeof *b->axis), f->axis, ncand * sizeof *b->axis);
	b->coord = xcalloc(ncand * n + 1, sizeof *b->coord);
	b->log_rate = xcalloc(n + 1, sizeof *b->log_rate);
	b->log_scale = xcalloc(n + 1, sizeof *b->log_scale);
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < n; j++)
			b->same[i * n + j] = f->same[(size_t)pick[i] * n + (size_t)pick[j]];
		for (size_t c = 0; c < ncand; c++)
			b->coord[c * n + i] = f->coord[c * n + (size_t)pick[i]];
		b->log_rate[i] = f->log_rate[pick[i]];
		b->log_scale[i] = f->log_scale[pick[i]];
	}
	prepare_groups(b);
}

/* A share of the bag's choices, made by one thread: bootstraps first, first + stride, ... */
struct bag_share {
	const struct rate_fit *f;   /* the fit bootstrapped */
	const int *pick;            /* RATE_BAG x f->n rows drawn, bootstrap by bootstrap */
	const int *rows;            /* their ds rows, alike */
	struct rate_choice *choice; /* RATE_BAG choices, this share's filled */
	int first;                  /* the share's first bootstrap */
	int stride;                 /* bootstraps between two of the share's */
};

/* Makes the choices of share (a struct bag_share); returns NULL (pthread_create's start). */
static void *choose_share(void *share)
{
	const struct bag_share *s = share;
	size_t n = (size_t)s->f->n;

	for (int m = s->first; m < RATE_BAG; m += s->stride) {
		struct rate_fit b;

		resample(s->f, s->pick + (size_t)m * n, s->rows + (size_t)m * n, &b);
		s->choice[m] = forward(&b);
		fit_release(&b);
	}
	return NULL;
}

/* Returns how many threads make the bag's choices: one a processor, up to RATE_BAG. */
static int bag_threads(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	return cpus < 1 ? 1 : cpus > RATE_BAG ? RATE_BAG : (int)cpus;
}

/*
 * Gives r, the rate fitted to f's log rates (scale column `scale`) by the choice made on every
 * row, RATE_BAG more: each the choice (axes, k, slope, witnesses, base) that forward makes on a
 * bootstrap of f's rows (drawn with replacement, by a generator seeded alike on every machine),
 * read off every row of f as to_rate does; the log rate is then their mean (model.h). Bagging
 * (Breiman, "Bagging predictors", 1996): where features nearly tie, which one a noisy time
 * picks is itself noise; averaging over the choices of resampled rows smooths it (session 56:
 * two trainings of lz4 on one profile chose other near-tied features for the time an
 * instruction and erred 11.8% and 15.7% on the same 57 held-out times; their mean, 12.9%).
 * The rows are drawn first, in one order, and the choices made by a thread a processor (each
 * reads f and writes its own), so the bag is the same however many there are; the model step
 * took 16 times as long with the bag made by one (lz4's 5 s -> 47 s, session 57).
 */
static void bag(const struct rate_fit *f, int scale, struct model *model, struct model_rate *r)
{
	size_t n = (size_t)f->n;
	int *pick = xcalloc(RATE_BAG * n + 1, sizeof *pick), *rows = xcalloc(RATE_BAG * n + 1,
									     sizeof *rows);
	struct rate_choice choice[RATE_BAG];
	struct bag_share share[RATE_BAG];
	pthread_t thread[RATE_BAG];
	uint64_t state = RATE_BAG_SEED;
	int nthreads = bag_threads(), started = 1; /* shares 0 to started - 1 are under way */

	for (size_t i = 0; i < RATE_BAG * n; i++) {
		pick[i] = (int)(infer_rand(&state) % (uint64_t)n);
		rows[i] = f->rows[pick[i]];
	}
	for (int t = 0; t < nthreads; t++)
		share[t] = (struct bag_share){f, pick, rows, choice, t, nthreads};
	while (started < nthreads &&
	       pthread_create(&thread[started], NULL, choose_share, &share[started]) == 0)
		started++;
	choose_share(&share[0]);
	for (int t = started; t < nthreads; t++) /* where a thread could not start */
		choose_share(&share[t]);
	for (int t = 1; t < started; t++)
		pthread_join(thread[t], NULL);
	r->bag = xcalloc(RATE_BAG, sizeof *r->bag);
	for (int m = 0; m < RATE_BAG; m++)
		to_rate(f, scale, &choice[m], model, &r->bag[r->nbag++]);
	free(pick);
	free(rows);
}

/* Returns whether the rate of what f fits (f->y, or with per_count the metric an instruction)
 * is bagged: when it is measured (a time, a peak memory), not the exact instruction count. */
static int noisy(const struct rate_fit *f, int per_count)
{
	return (per_count || f->y == f->ds->y) && strcmp(f->ds->metric, "instructions") != 0;
}

/* Returns 0 if rate_learn (per_count: rate_learn_per_count) can fit ds's rows rows[0..n) over
 * nusable columns, or -1 with err set. */
static int check_fit(const struct dataset *ds, const int *rows, int n, int nusable,
		     int per_count, struct error *err)
{
	if (per_count && !ds->count)
		return error_set(err, "the profile has no instruction count to take %s through",
				 ds->metric);
	if (check_positive(ds, ds->y, ds->metric, rows, n, err) < 0 ||
	    (per_count && check_positive(ds, ds->count, "the instruction count", rows, n, err) < 0))
		return -1;
	if (nusable > RATE_MAX_COLUMNS)
		return error_set(err, "%d features vary: the rate weighs at most %d (its forward "
				 "selection tries every pair), so leave some out", nusable,
				 RATE_MAX_COLUMNS);
	return 0;
}

int rate_learn(const struct dataset *ds, const int *rows, int n, const int *group,
	       const int *usable, int nusable, int per_count, struct model *model,
	       struct error *err)
{
	struct rate_fit f = {.ds = ds, .rows = rows, .n = n, .y = per_count ? ds->count : ds->y};
	struct rate_choice best;
	int scale;

	if (check_fit(ds, rows, n, nusable, per_count, err) < 0)
		return -1;
	prepare(&f, group, usable, nusable);
	scale = best_scale(&f, usable, nusable, set_scale, &best);
	if (scale >= 0) {
		set_scale(&f, scale);
		to_rate(&f, scale, &best, model, &model->rate);
		if (noisy(&f, 0))
			bag(&f, scale, model, &model->rate);
		model->intercept = 0;
	}
	if (scale >= 0 && per_count) {
		set_per_count(&f, scale);
		best = forward(&f);
		model->rate.per_count = xcalloc(1, sizeof *model->rate.per_count);
		to_rate(&f, scale, &best, model, model->rate.per_count);
		if (noisy(&f, 1))
			bag(&f, scale, model, model->rate.per_count);
	}
	fit_release(&f);
	if (scale < 0)
		return error_set(err, "no feature is positive on every training sample: a rate "
				 "needs a size to scale");
	return 0;
}

int rate_learn_per_count(const struct dataset *ds, const int *rows, int n, const int *group,
			 const int *usable, int nusable, struct model *model, struct error *err)
{
	struct rate_fit f = {.ds = ds, .rows = rows, .n = n, .y = ds->count};
	struct rate_choice best;
	int scale;

	if (check_fit(ds, rows, n, nusable, 1, err) < 0)
		return -1;
	prepare(&f, group, usable, nusable);
	scale = best_scale(&f, usable, nusable, set_per_count, &best);
	if (scale >= 0) {
		set_per_count(&f, scale);
		model->rate.per_count = xcalloc(1, sizeof *model->rate.per_count);
		to_rate(&f, scale, &best, model, model->rate.per_count);
		if (noisy(&f, 1))
			bag(&f, scale, model, model->rate.per_count);
	}
	fit_release(&f);
	if (scale < 0)
		return error_set(err, "no input feature is positive on every training sample: the "
				 "time an instruction needs a size for its slope");
	return 0;
}
