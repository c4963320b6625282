/*
 * model.h: a fitted performance model: metric = intercept + sum of coef * monomial(features),
 * in original units, with the features it uses, its fit errors, and its file format; or a
 * rate model (rate.h): metric = scale * the rate of the training inputs nearest in a few
 * features.
 */
#ifndef MANTIS_MODEL_H
#define MANTIS_MODEL_H

struct error;
struct strbuf;

#define MODEL_MAX_DEGREE 6 /* highest total degree of a term */

/* A monomial: prod over i < nf of value(feat[i])^pow[i]; feat ascending and distinct. */
struct monomial {
	int nf;                     /* number of features in it, 0 for the constant 1 */
	int feat[MODEL_MAX_DEGREE]; /* feature indices (into the caller's feature list) */
	int pow[MODEL_MAX_DEGREE];  /* powers, each >= 1; their sum is the degree */
};

/* One term of a model. */
struct model_term {
	double coef;       /* coefficient in original units */
	struct monomial m; /* over indices into model.features */
};

/* Another feature that is an exact affine copy of a model feature: feature = a + b * alias. */
struct model_alias {
	char *name; /* the copy's name; owned */
	double a;   /* offset */
	double b;   /* slope (non-zero) */
};

/* A feature the model reads, with what training saw of it. */
struct model_feature {
	char *name;  /* the feature's name as in the manifest or CSV header; owned */
	double min;  /* smallest training value */
	double max;  /* largest training value */
	int naliases;                 /* number of exact affine copies */
	struct model_alias *aliases;  /* the copies, any of which can stand in for it; owned */
};

/* The spread of the actual value around the prediction on inputs the model was not fitted on
 * (train's cross-validation): a share `level` of them fell within [low, high] times it. */
struct model_interval {
	double level; /* e.g. 0.9; 0 when the model has no interval */
	double low;   /* lower bound of actual / predicted, >= 0 */
	double high;  /* upper bound; INFINITY when more than 1 - level of them had none */
};

#define MODEL_INTERVAL_LEVEL 0.9 /* the share train's interval covers */

/* The phase of an amount: where it lies between two powers of two, as the cosine and the sine
 * of 2 pi log2(value) (two axes, so that 0.99 and 0.01 of the way are near). A table that
 * grows by doubling copies its items at every power of two, so its cost an item is a sawtooth
 * in log2 of their number (Lua's tables: a sieve's instructions an n 1,325-1,602 by where n
 * lies, the same at n and 2n). */
enum { MODEL_PHASE_NONE, MODEL_PHASE_COS, MODEL_PHASE_SIN };
#define MODEL_TWO_PI 6.283185307179586 /* export-c writes it out with 17 digits: bit for bit */

/* A coordinate of a rate model's distance: a feature, standardized on the training inputs. */
struct model_axis {
	int feature;   /* its index into model.features */
	int log;       /* 1: the coordinate is log(value) (a size, spread over decades) */
	int phase;     /* MODEL_PHASE_COS or _SIN: the coordinate is that of 2 pi log2(value)
			* (log is then 0); MODEL_PHASE_NONE: not */
	double centre; /* the training inputs' mean of the value (or its log, cosine, sine) */
	double spread; /* their standard deviation, > 0 */
	int nknots;    /* knots of the axis's part of the rate's base (model_axis_base); 0: the
			* axis has no part in it */
	double *knot;  /* nknots coordinates, ascending; owned */
	double *effect; /* the part's log rate at each knot; owned */
};

/*
 * A rate model: metric = value(scale) * exp(mean of log rate over the k training inputs
 * nearest the input), where a training input's rate is its metric over its scale and nearness
 * is the Euclidean distance over the axes; every input as near as the k-th counts (ties are
 * not split). With no axis, every training input counts. With a slope (slope_near > 0) each
 * neighbour's log rate is moved along the rate's slope in log scale to the input's scale: the
 * slope of the like pairs among the slope_near nearest (model_rate_log), as a compressor's
 * cost a byte rises with the file while its dictionary fills. A time may go through the
 * program's instruction count (per_count): metric = value(scale) * exp(log rate + the
 * per_count rate's log rate), the instructions a unit of scale from the inputs nearest in
 * one set of axes times the time an instruction from those nearest in another, as the two
 * vary with different things (Lua's hash script: its instructions an n saw with n's place
 * between two powers of two, its time an instruction rises smoothly, 2.9x, as its table
 * outgrows the caches). With a base (some axes with knots), the log rate is the base at the
 * input plus the mean of the neighbours' residuals, their log rates less the base at them:
 * the base is a sum of one line a base axis, through its knots, so that an input whose
 * combination of axes no training input had (lz4's -3 on text, where training had -3 on
 * other data and text at other levels) takes each axis's part from the inputs that share it,
 * where the nearest alone take the rate of another level or another kind (model_rate_log).
 * A bagged rate (nbag > 0) is the mean of its own log rate and its bag's, each the same
 * training inputs read by another choice of axes, k, slope and base (rate.c, bag).
 */
struct model_rate {
	int scale;               /* index into model.features of the scale (a size) */
	int k;                   /* neighbours averaged, >= 1 */
	int naxes;               /* distance coordinates */
	struct model_axis *axes; /* owned */
	int npoints;             /* training inputs; 0: not a rate model (the polynomial is) */
	double *point;           /* npoints x naxes coordinates, row by row; owned */
	double *log_rate;        /* npoints log(metric / scale); owned */
	int slope_near;          /* the nearest whose like pairs give the slope; 0: no slope */
	double *log_scale;       /* npoints log(scale) when slope_near > 0, else NULL; owned */
	struct model_rate *per_count; /* a time through the instruction count: this rate is then
				       * the instructions over the scale, and per_count, a rate
				       * of its own (axes, points, k, slope) over the same scale,
				       * the metric an instruction (log_rate log(metric /
				       * instructions)); in a polynomial's rate (npoints 0),
				       * with a scale of its own, for its slope; NULL: none;
				       * owned */
	int nbag;                /* rates averaged with this one; 0: none */
	struct model_rate *bag;  /* nbag rates of the same scale and training inputs, each with
				  * its own axes, k, slope and base (no per_count, no bag); the
				  * log rate is the mean of this one's and theirs; owned */
};

/* A like pair (model_rate_log): two training inputs whose squared distance over the axes but
 * the scale's own is below MODEL_RATE_ALIKE (a fifth of a standard deviation apart) and whose
 * scales differ by more than MODEL_RATE_SPAN in log (1.65x); the slope is bounded by
 * MODEL_RATE_SLOPE (the metric between a constant and the scale squared). */
#define MODEL_RATE_ALIKE 0.05
#define MODEL_RATE_SPAN 0.5
#define MODEL_RATE_SLOPE 1.0

/* A model, as written to model.json. */
struct model {
	char *algorithm;  /* e.g. "spore-foba"; owned */
	char *metric;     /* the modeled metric, e.g. "wall"; owned */
	char *fit;        /* error criterion: "relative" or "absolute"; owned */
	int degree;       /* largest degree allowed in the search */
	int cv_folds;     /* folds of the cross-validation that chose its size, 0 if none */
	double intercept; /* constant term */
	int nterms;       /* number of terms */
	struct model_term *terms;        /* owned */
	int nfeatures;    /* features the terms use */
	struct model_feature *features;  /* owned */
	int ntrain, ntest;               /* samples used to fit and to test */
	double train_mre, test_mre;      /* mean relative errors |pred - y| / |y|; test: NaN if none */
	struct model_interval interval;  /* the prediction's spread; level 0 if unknown */
	int floored;      /* 1: a polynomial gives floor for a value of zero or less
			   * (model_floored) */
	double floor;     /* the least value of the metric on the training inputs, when floored */
	struct model_rate rate;          /* a rate model when rate.npoints > 0; then no term. A
					  * polynomial (rate.npoints 0) whose rate.per_count is set
					  * is a time through the instruction count: the polynomial
					  * of the instructions times that rate's time an
					  * instruction */
};

/* Returns the value of the monomial at values (indexed by feature index). */
double monomial_eval(const struct monomial *m, const double *values);

/* Returns the partial derivative of m with respect to feature at values (0 if m lacks it),
 * computed as pow * the factors one by one, in m's order. */
double monomial_slope(const struct monomial *m, int feature, const double *values);

/* Returns 1 if m is a product that includes feature, else 0. */
int monomial_has(const struct monomial *m, int feature);

/* Returns 1 if x lies outside f's training range, else 0 (also when f has no range: min and
 * max NaN, as in a model.json without them, or equal, as in a model built by hand). */
int model_outside(const struct model_feature *f, double x);

/* Returns x clamped to f's training range (x itself if not model_outside). */
double model_edge(const struct model_feature *f, double x);

/*
 * Makes alias `alias` of feature f, an exact copy without offset (feature = b * copy), the
 * feature the model reads, and f its alias (copy = feature / b): each term's coefficient is
 * multiplied by b to the power of f in it, the training range divided by b, and the other
 * aliases' offsets and slopes too, so that every prediction is the same. Returns 0, or -1
 * (the model unchanged) when the alias has an offset.
 */
int model_swap_alias(struct model *model, int f, int alias);

/* Returns x as a coordinate on axis a: (x, log x or its phase's cosine or sine, less the
 * centre) over the spread. */
double model_axis_coordinate(const struct model_axis *a, double x);

/* Returns how a formula names axis a's transform: "", "log ", "cos2pi log2 " or
 * "sin2pi log2 " (static). */
const char *model_axis_prefix(const struct model_axis *a);

/* Returns whether model_eval raises y, a polynomial's value, to the model's floor: y is zero
 * or less, and less than the floor. A polynomial fitted to positive values can fall below zero
 * between and past its training points, where no run takes less than nothing (spamfilter's
 * held-out counts, session 41: one at -1.1e8, where the least actual was 0.94 times the
 * floor); above zero it is kept, as a product of two features in their ranges may well be
 * smaller than any trained. */
int model_floored(const struct model *model, double y);

/* Returns whether model_eval gives the floor at values[0..nfeatures) in place of the
 * polynomial's value (model_floored). */
int model_raised(const struct model *model, const double *values);

/*
 * Returns the log rate r gives an input at query (r->naxes coordinates) of log scale
 * log_scale, leaving out the training inputs with skip[i] set (skip may be NULL): the mean
 * over the k nearest, and every other as near as the k-th, of log_rate[i], moved with a slope
 * by slope * (log_scale - r->log_scale[i]). The slope is the least-squares slope of log rate
 * on log scale through the like pairs' differences among the slope_near nearest (every pair
 * of them that is alike, MODEL_RATE_ALIKE, MODEL_RATE_SPAN), bounded by MODEL_RATE_SLOPE, 0
 * with no such pair. With a base, the log rates above are the residuals log_rate[i] -
 * model_rate_base(point i), and the base at the query is added to their mean. NaN when every
 * training input is left out.
 */
double model_rate_log(const struct model_rate *r, const double *query, double log_scale,
		      const unsigned char *skip);

/* Returns the base's part of axis a at coordinate x: 0 without knots; the effect of the
 * first or last knot outside them; between two knots, the line through theirs:
 * effect[j] + (x - knot[j]) / (knot[j + 1] - knot[j]) * (effect[j + 1] - effect[j]). */
double model_axis_base(const struct model_axis *a, double x);

/* Returns the base of rate r at point (r->naxes coordinates): 0, plus model_axis_base of each
 * axis with knots in order. */
double model_rate_base(const struct model_rate *r, const double *point);

/* Returns whether rate r has a base: an axis with knots. */
int model_rate_has_base(const struct model_rate *r);

/* Returns the log rate of rate r (model_rate_log, no input left out) for values[0..nfeatures)
 * (in model->features order); of a bagged rate, the mean of its own and its bag's, summed in
 * order (r's, then bag[0], ...) and divided by nbag + 1. */
double model_rate_values_log(const struct model_rate *r, const double *values);

/* Returns the prediction for values[0..nfeatures) (in model->features order) of a rate model:
 * the scale times exp of the mean log rate of the training inputs nearest (model_rate), plus
 * the per_count rate's with one. The scale goes on linearly past its training range; the axes
 * need no continuation. */
double model_rate_eval(const struct model *model, const double *values);

/* Returns the prediction for values[0..nfeatures) (in model->features order): a rate model's
 * (model_rate_eval), or the polynomial,
 * continued linearly past the training range of each feature outside it (the polynomial at
 * the clamped values, plus, feature by feature in order, the sum over the terms that hold it
 * of coef * monomial_slope at the clamped values, times the distance from the edge); through
 * the instruction count (rate.per_count), that times exp of the per_count rate's log rate; the
 * floor for zero or less when floored (model_floored). */
double model_eval(const struct model *model, const double *values);

/*
 * Sets model->interval to the central share `level` of ratio[0..n) (actual over predicted, one
 * per input the model was not fitted on; INFINITY for a prediction <= 0 of a positive value),
 * as split conformal prediction takes it: the floor((1 - level) / 2 * (k + 1))-th smallest of
 * the k ratios that are numbers to the ceil((1 + level) / 2 * (k + 1))-th, where level is at
 * most (k - 1) / (k + 1), the share the smallest and largest of k ratios bound (so 19 inputs
 * and more give 90%). With fewer than 2 ratios the model has no interval. With group (per
 * ratio, its group, numbered from 0; NULL: each ratio its own), the k are the groups: low
 * ranks the groups' smallest ratios and high their largest, since inputs that share a data
 * file (descriptor_groups) err alike, and a new file is a new group, not one more input of
 * one the model has seen (gzip: 88 inputs of 31 files gave [0.974, 1.027], which held 63% of
 * 200 inputs of 64 other files; by file, [0.967, 1.043], 83%).
 */
void model_set_interval(struct model *model, const double *ratio, const int *group, int n,
			double level);

/* Fills [*low, *high] with the interval around the prediction `predicted` and returns 1, or
 * returns 0 when there is none (no interval in the model, or a prediction <= 0). */
int model_interval(const struct model *model, double predicted, double *low, double *high);

/* Appends the model as a formula, e.g. "wall = 0.012 + 3.1e-09 * a * b^2"; through the
 * instruction count "wall = (3e+05 + 12 * a) [instructions] * rate(...) [wall an
 * instruction]". */
void model_format(const struct model *model, struct strbuf *out);

/* Writes the model as JSON to path ("-" for stdout). Returns 0 or -1 with err set. */
int model_write(const struct model *model, const char *path, struct error *err);

/* Reads a model written by model_write. Returns 0 or -1 with err naming path, line, column. */
int model_read(struct model *model, const char *path, struct error *err);

/* Frees what *r owns (its per_count too) and zeroes it. */
void model_rate_release(struct model_rate *r);

/* Frees what *model owns and zeroes it. */
void model_release(struct model *model);

#endif
