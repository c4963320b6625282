/*
 * model.c: evaluation, printing and the JSON file of a model.
 *
 * File format (docs/ARCHITECTURE.md, "model.json"):
 *   {"algorithm", "metric", "fit", "degree", "cv_folds", "intercept": c0,
 *    "terms": [{"coef": c, "powers": {"<feature>": k, ...}}, ...],
 *    "features": [{"name", "min", "max", "aliases": [{"name", "a", "b"}, ...]}, ...],
 *    "n_train", "n_test", "train_mre", "test_mre",
 *    "interval": {"level", "low", "high"}?}
 * (an alias is an exact copy: feature = a + b * alias, so the slicer may compute a cheaper one)
 * and for a rate model (rate.h; no term) also
 *   "rate": {"scale": "<feature>", "k": k,
 *            "axes": [{"name", "log", "centre", "spread", "phase"?: "cos"|"sin",
 *                      "knots"?: [coordinate, ...], "effects"?: [log rate, ...]}, ...],
 *            "points": [[coordinate, ...], ...], "log_rates": [r, ...],
 *            "slope_near": m, "log_scales": [log scale, ...],  (these two with a slope)
 *            "per_count": {"k", "axes", "points", "log_rates", ...},  (a time through the
 *            instruction count: the same fields but the scale, its log rates those of the
 *            metric an instruction)
 *            "bag": [{"scale", "k", "axes", ...}, ...]}  (a time's rate, bagged: rates of the
 *            same scale and points, each without a per_count or a bag; a per_count may have
 *            one too; a bag's rate leaves out "points", each axis then with its "column" in
 *            the owner's points, "log_rates" and "log_scales" where they are the owner's)
 * and for a polynomial through the instruction count (a time: its terms of the instructions)
 *   "per_count": {"scale", "k", "axes", ...}  (rate.per_count's fields, its own scale)
 * so that prediction = c0 + sum(coef * prod(value^k)) while every feature is within its training
 * range [min, max]. Outside it the polynomial is continued linearly from the range's edge
 * (model_eval: the value at the values clamped to the range, plus each outside feature's
 * partial derivative there times its distance from the edge), as natural splines are past
 * their last knot: a cubic fitted on 1-24 MB inputs is not trusted at 50 MB, where it may even
 * turn negative; a linear model is unchanged. Doubles are printed with 17 significant
 * digits, so a model read back predicts bit for bit what the written one did.
 */
#include "model.h"

#include <assert.h>
#include <float.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "util.h"

double monomial_eval(const struct monomial *m, const double *values)
{
	double v = 1;

	for (int i = 0; i < m->nf; i++) {
		double x = values[m->feat[i]];

		for (int k = 0; k < m->pow[i]; k++)
			v *= x;
	}
	return v;
}

/* Returns the polynomial's value at values: the intercept, then each term in order. */
static double polynomial(const struct model *model, const double *values)
{
	double y = model->intercept;

	for (int t = 0; t < model->nterms; t++)
		y += model->terms[t].coef * monomial_eval(&model->terms[t].m, values);
	return y;
}

int model_outside(const struct model_feature *f, double x)
{
	return f->min < f->max && (x < f->min || x > f->max);
}

double model_edge(const struct model_feature *f, double x)
{
	if (!model_outside(f, x))
		return x;
	return x < f->min ? f->min : f->max;
}

int monomial_has(const struct monomial *m, int feature)
{
	for (int i = 0; i < m->nf; i++) {
		if (m->feat[i] == feature)
			return 1;
	}
	return 0;
}

double monomial_slope(const struct monomial *m, int feature, const double *values)
{
	double v;

	if (!monomial_has(m, feature))
		return 0;
	for (int i = 0; i < m->nf; i++) {
		if (m->feat[i] == feature)
			v = m->pow[i];
	}
	for (int i = 0; i < m->nf; i++) {
		int k = m->pow[i] - (m->feat[i] == feature);

		while (k-- > 0)
			v *= values[m->feat[i]];
	}
	return v;
}

int model_swap_alias(struct model *model, int f, int alias)
{
	struct model_feature *mf = &model->features[f];
	struct model_alias *copy = &mf->aliases[alias];
	double b = copy->b, low = mf->min / b, high = mf->max / b;
	char *name = mf->name;

	if (copy->a != 0)
		return -1;
	for (int t = 0; t < model->nterms; t++) {
		const struct monomial *m = &model->terms[t].m;

		for (int i = 0; i < m->nf; i++) {
			for (int k = 0; m->feat[i] == f && k < m->pow[i]; k++)
				model->terms[t].coef *= b;
		}
	}
	mf->min = b > 0 ? low : high;
	mf->max = b > 0 ? high : low;
	for (int a = 0; a < mf->naliases; a++) {
		mf->aliases[a].a /= b;
		mf->aliases[a].b /= b;
	}
	mf->name = copy->name;
	copy->name = name;
	copy->b = 1 / b;
	return 0;
}

double model_axis_coordinate(const struct model_axis *a, double x)
{
	double v = x, turn;

	if (a->phase) {
		turn = MODEL_TWO_PI * log2(fmax(x, DBL_MIN));
		v = a->phase == MODEL_PHASE_COS ? cos(turn) : sin(turn);
	} else if (a->log) {
		v = log(fmax(x, DBL_MIN));
	}
	return (v - a->centre) / a->spread;
}

const char *model_axis_prefix(const struct model_axis *a)
{
	if (a->phase)
		return a->phase == MODEL_PHASE_COS ? "cos2pi log2 " : "sin2pi log2 ";
	return a->log ? "log " : "";
}

/* Returns the squared distance between two points of naxes coordinates. */
static double distance2(const double *a, const double *b, int naxes)
{
	double d = 0;

	for (int j = 0; j < naxes; j++)
		d += (a[j] - b[j]) * (a[j] - b[j]);
	return d;
}

/* qsort's comparison of doubles: returns -1, 0 or 1 as *a is below, equal to or above *b. */
static int ascending(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Returns the squared distance of the k-th nearest of the m finite distances among d[0..n)
 * (left-out points are INFINITY), as a cut that every point as near passes (rounding: as
 * near as the k-th is a tie). */
static double nearest_cut(const double *d, int n, int m, int k)
{
	double *sorted = xmalloc(sizeof *sorted * (size_t)n), kth;

	memcpy(sorted, d, sizeof *sorted * (size_t)n);
	qsort(sorted, (size_t)n, sizeof *sorted, ascending);
	kth = sorted[(k < m ? k : m) - 1];
	free(sorted);
	return kth + 1e-12 * (1 + kth);
}

/* Returns the squared distance between training inputs a and b of r over every axis but the
 * scale's own. */
static double like_distance2(const struct model_rate *r, int a, int b)
{
	const double *pa = r->point + (size_t)a * (size_t)r->naxes;
	const double *pb = r->point + (size_t)b * (size_t)r->naxes;
	double d = 0;

	for (int j = 0; j < r->naxes; j++) {
		if (r->axes[j].feature != r->scale)
			d += (pa[j] - pb[j]) * (pa[j] - pb[j]);
	}
	return d;
}

/* Returns the slope of log rate (logs: each training input's, or its residual under a base)
 * on log scale through the like pairs of the training inputs with d[i] <= cut
 * (model_rate_log), 0 with none; pairs (a, b), a < b, in the order of a,
 * then b (export-c's order). */
static double rate_slope(const struct model_rate *r, const double *logs, const double *d,
			 double cut)
{
	int *near = xmalloc(sizeof *near * (size_t)r->npoints), m = 0;
	double sxy = 0, sxx = 0;

	for (int i = 0; i < r->npoints; i++) {
		if (d[i] <= cut)
			near[m++] = i;
	}
	for (int i = 0; i < m; i++) {
		for (int j = i + 1; j < m; j++) {
			int a = near[i], b = near[j];
			double dx = r->log_scale[a] - r->log_scale[b];

			if (fabs(dx) <= MODEL_RATE_SPAN || like_distance2(r, a, b) >= MODEL_RATE_ALIKE)
				continue;
			sxy += (logs[a] - logs[b]) * dx;
			sxx += dx * dx;
		}
	}
	free(near);
	return sxx > 0 ? fmax(-MODEL_RATE_SLOPE, fmin(MODEL_RATE_SLOPE, sxy / sxx)) : 0;
}

double model_axis_base(const struct model_axis *a, double x)
{
	int j = 0;

	if (a->nknots == 0)
		return 0;
	if (x <= a->knot[0])
		return a->effect[0];
	if (x >= a->knot[a->nknots - 1])
		return a->effect[a->nknots - 1];
	while (x >= a->knot[j + 1])
		j++;
	return a->effect[j] + (x - a->knot[j]) / (a->knot[j + 1] - a->knot[j]) *
				      (a->effect[j + 1] - a->effect[j]);
}

double model_rate_base(const struct model_rate *r, const double *point)
{
	double base = 0;

	for (int j = 0; j < r->naxes; j++) {
		if (r->axes[j].nknots > 0)
			base += model_axis_base(&r->axes[j], point[j]);
	}
	return base;
}

int model_rate_has_base(const struct model_rate *r)
{
	for (int j = 0; j < r->naxes; j++) {
		if (r->axes[j].nknots > 0)
			return 1;
	}
	return 0;
}

double model_rate_log(const struct model_rate *r, const double *query, double log_scale,
		      const unsigned char *skip)
{
	double *d = xcalloc((size_t)r->npoints + 1, sizeof *d), cut, slope = 0, sum = 0, base = 0;
	double *residual = NULL;
	const double *logs = r->log_rate;
	int m = 0, used = 0, based = model_rate_has_base(r);

	for (int i = 0; i < r->npoints; i++) {
		d[i] = skip && skip[i] ? INFINITY
				       : distance2(r->point + (size_t)i * (size_t)r->naxes, query,
						   r->naxes);
		m += !(skip && skip[i]);
	}
	if (m == 0) {
		free(d);
		return NAN;
	}
	if (based) {
		residual = xcalloc((size_t)r->npoints, sizeof *residual);
		for (int i = 0; i < r->npoints; i++)
			residual[i] = r->log_rate[i] -
				      model_rate_base(r, r->point + (size_t)i * (size_t)r->naxes);
		logs = residual;
		base = model_rate_base(r, query);
	}
	if (r->slope_near > 0)
		slope = rate_slope(r, logs, d, nearest_cut(d, r->npoints, m, r->slope_near));
	cut = nearest_cut(d, r->npoints, m, r->k);
	for (int i = 0; i < r->npoints; i++) {
		if (d[i] > cut)
			continue;
		sum += r->slope_near > 0 ? logs[i] + slope * (log_scale - r->log_scale[i]) : logs[i];
		used++;
	}
	free(d);
	free(residual);
	return based ? base + sum / used : sum / used;
}

/* Returns the log rate of rate r alone (not its bag's) for values (model_rate_values_log). */
static double rate_values_log(const struct model_rate *r, const double *values)
{
	double *query = xcalloc((size_t)r->naxes + 1, sizeof *query), log_rate;

	for (int j = 0; j < r->naxes; j++)
		query[j] = model_axis_coordinate(&r->axes[j], values[r->axes[j].feature]);
	log_rate = model_rate_log(r, query, log(fmax(values[r->scale], DBL_MIN)), NULL);
	free(query);
	return log_rate;
}

double model_rate_values_log(const struct model_rate *r, const double *values)
{
	double sum = rate_values_log(r, values);

	for (int b = 0; b < r->nbag; b++)
		sum += rate_values_log(&r->bag[b], values);
	return sum / (r->nbag + 1);
}

double model_rate_eval(const struct model *model, const double *values)
{
	const struct model_rate *r = &model->rate;
	double log_rate = model_rate_values_log(r, values);

	if (r->per_count)
		log_rate += model_rate_values_log(r->per_count, values);
	return values[r->scale] * exp(log_rate);
}

/* Returns the polynomial at values continued linearly past the training ranges (model_eval). */
static double continued(const struct model *model, const double *values)
{
	double *edge, y;

	edge = xmalloc(sizeof *edge * (size_t)model->nfeatures);
	for (int i = 0; i < model->nfeatures; i++)
		edge[i] = model_edge(&model->features[i], values[i]);
	y = polynomial(model, edge);
	for (int i = 0; i < model->nfeatures; i++) {
		double slope = 0;

		if (!model_outside(&model->features[i], values[i]))
			continue;
		for (int t = 0; t < model->nterms; t++) {
			if (monomial_has(&model->terms[t].m, i))
				slope += model->terms[t].coef *
					 monomial_slope(&model->terms[t].m, i, edge);
		}
		y += slope * (values[i] - edge[i]);
	}
	free(edge);
	return y;
}

int model_floored(const struct model *model, double y)
{
	return model->floored && model->rate.npoints == 0 && y <= 0 && y < model->floor;
}

/* Returns a polynomial model's value at values before its floor (model_eval). */
static double unfloored(const struct model *model, const double *values)
{
	double y;
	int outside = 0;

	for (int i = 0; i < model->nfeatures; i++)
		outside |= model_outside(&model->features[i], values[i]);
	y = outside ? continued(model, values) : polynomial(model, values);
	if (model->rate.per_count)
		y *= exp(model_rate_values_log(model->rate.per_count, values));
	return y;
}

int model_raised(const struct model *model, const double *values)
{
	return model->floored && model->rate.npoints == 0 &&
	       model_floored(model, unfloored(model, values));
}

double model_eval(const struct model *model, const double *values)
{
	double y;

	if (model->rate.npoints > 0)
		return model_rate_eval(model, values);
	y = unfloored(model, values);
	return model_floored(model, y) ? model->floor : y;
}

/* Returns whether rate r has an axis of feature f. */
static int rate_reads(const struct model_rate *r, int f)
{
	for (int j = 0; j < r->naxes; j++) {
		if (r->axes[j].feature == f)
			return 1;
	}
	return 0;
}

/* Appends how bagged rate r averages: ", averaged with 16 choices on bootstraps (also
 * reading input:arg2, input:entropy(data))", the features its bag reads and it does not. */
static void bag_format(const struct model *model, const struct model_rate *r,
		       struct strbuf *out)
{
	int also = 0;

	strbuf_addf(out, ", averaged with %d choice%s on bootstraps", r->nbag,
		    r->nbag == 1 ? "" : "s");
	for (int f = 0; f < model->nfeatures; f++) {
		int read = 0;

		for (int b = 0; b < r->nbag && !read; b++)
			read = rate_reads(&r->bag[b], f);
		if (!read || rate_reads(r, f))
			continue;
		strbuf_addf(out, "%s%s", also++ ? ", " : " (also reading ", model->features[f].name);
	}
	if (also)
		strbuf_addf(out, ")");
}

/* Appends rate r's axes, k, slope and base and the closing parenthesis: "input:arg1, log
 * input:size(stdin); the 2 nearest of 88, the residuals of a base in input:arg1 (9 knots))". */
static void rate_format_inside(const struct model *model, const struct model_rate *r,
			       struct strbuf *out)
{
	for (int j = 0; j < r->naxes; j++)
		strbuf_addf(out, "%s%s%s", j ? ", " : "", model_axis_prefix(&r->axes[j]),
			    model->features[r->axes[j].feature].name);
	strbuf_addf(out, "%sthe %d nearest of %d", r->naxes ? "; " : "", r->k, r->npoints);
	if (r->slope_near > 0)
		strbuf_addf(out, ", sloped in log %s by the %d nearest",
			    model->features[r->scale].name, r->slope_near);
	for (int j = 0, first = 1; j < r->naxes; j++) {
		if (r->axes[j].nknots == 0)
			continue;
		strbuf_addf(out, "%s%s%s (%d knots)", first ? ", the residuals of a base in " : ", ",
			    model_axis_prefix(&r->axes[j]), model->features[r->axes[j].feature].name,
			    r->axes[j].nknots);
		first = 0;
	}
	if (r->nbag > 0)
		bag_format(model, r, out);
	strbuf_addf(out, ")");
}

/* Appends a rate model as a formula: "instructions = input:size(stdin) * rate(input:arg1,
 * log input:size(stdin); the 2 nearest of 88)"; through the instructions, "wall =
 * input:number(1) * rate(...) [instructions] * rate(...) [wall an instruction]". */
static void rate_format(const struct model *model, struct strbuf *out)
{
	const struct model_rate *r = &model->rate;

	strbuf_addf(out, "%s = %s * rate(", model->metric, model->features[r->scale].name);
	rate_format_inside(model, r, out);
	if (r->per_count) {
		strbuf_addf(out, " [instructions] * rate(");
		rate_format_inside(model, r->per_count, out);
		strbuf_addf(out, " [%s an instruction]", model->metric);
	}
}

void model_format(const struct model *model, struct strbuf *out)
{
	char buf[64];

	if (model->rate.npoints > 0) {
		rate_format(model, out);
		return;
	}
	strbuf_add(out, model->metric, strlen(model->metric));
	snprintf(buf, sizeof buf, " = %s%.4g", model->rate.per_count ? "(" : "", model->intercept);
	strbuf_add(out, buf, strlen(buf));
	for (int t = 0; t < model->nterms; t++) {
		const struct model_term *term = &model->terms[t];

		snprintf(buf, sizeof buf, " %c %.4g", term->coef < 0 ? '-' : '+', fabs(term->coef));
		strbuf_add(out, buf, strlen(buf));
		for (int i = 0; i < term->m.nf; i++) {
			const char *name = model->features[term->m.feat[i]].name;

			strbuf_add(out, " * ", 3);
			strbuf_add(out, name, strlen(name));
			if (term->m.pow[i] > 1) {
				snprintf(buf, sizeof buf, "^%d", term->m.pow[i]);
				strbuf_add(out, buf, strlen(buf));
			}
		}
	}
	if (model->rate.per_count) {
		strbuf_addf(out, ") [instructions] * rate(");
		rate_format_inside(model, model->rate.per_count, out);
		strbuf_addf(out, " [%s an instruction]", model->metric);
	}
}

/* Fills least[g] and most[g] with group g's smallest and largest ratio that is a number (each
 * ratio its own group when group is NULL); returns the number of groups that have one, whose
 * values are moved to the front of least and most. */
static int group_extremes(const double *ratio, const int *group, int n, double *least,
			  double *most)
{
	int ngroups = 0, k = 0;

	for (int i = 0; i < n; i++) {
		int g = group ? group[i] : i;

		assert(g >= 0 && g < n);
		ngroups = g >= ngroups ? g + 1 : ngroups;
	}
	for (int g = 0; g < ngroups; g++) {
		least[g] = NAN;
		most[g] = NAN;
	}
	for (int i = 0; i < n; i++) {
		int g = group ? group[i] : i;

		if (isnan(ratio[i]))
			continue;
		least[g] = isnan(least[g]) || ratio[i] < least[g] ? ratio[i] : least[g];
		most[g] = isnan(most[g]) || ratio[i] > most[g] ? ratio[i] : most[g];
	}
	for (int g = 0; g < ngroups; g++) {
		if (!isnan(least[g])) {
			least[k] = least[g];
			most[k++] = most[g];
		}
	}
	return k;
}

void model_set_interval(struct model *model, const double *ratio, const int *group, int n,
			double level)
{
	double *least = xmalloc(sizeof *least * ((size_t)n + 1));
	double *most = xmalloc(sizeof *most * ((size_t)n + 1));
	int k = group_extremes(ratio, group, n, least, most), lo, hi;

	model->interval = (struct model_interval){0, 0, 0};
	if (k >= 2) {
		level = fmin(level, (k - 1.0) / (k + 1.0)); /* the most k groups can bound */
		sort_doubles(least, k);
		sort_doubles(most, k);
		lo = (int)floor((1 - level) / 2 * (k + 1) + 1e-9); /* 1-based ranks */
		hi = (int)ceil((1 + level) / 2 * (k + 1) - 1e-9);
		model->interval = (struct model_interval){
			level, lo < 1 ? 0 : fmax(0, least[lo - 1]), hi > k ? INFINITY : most[hi - 1]};
	}
	free(least);
	free(most);
}

int model_interval(const struct model *model, double predicted, double *low, double *high)
{
	if (!(model->interval.level > 0) || !(predicted > 0))
		return 0;
	*low = predicted * model->interval.low;
	*high = predicted * model->interval.high;
	return 1;
}

/* Returns a JSON number, or null for NaN (JSON has no NaN). */
static json_t *number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* Returns whether the n doubles at a (every a_step-th) and b (every b_step-th) are the same,
 * bit for bit. */
static int same_doubles(const double *a, size_t a_step, const double *b, size_t b_step, int n)
{
	for (int i = 0; i < n; i++) {
		if (memcmp(a + (size_t)i * a_step, b + (size_t)i * b_step, sizeof *a) != 0)
			return 0;
	}
	return 1;
}

/* Returns the index of owner's axis whose coordinates on the training inputs are, bit for bit,
 * those of r's axis j, or -1 when none is. */
static int shared_column(const struct model_rate *r, int j, const struct model_rate *owner)
{
	for (int k = 0; k < owner->naxes; k++) {
		if (same_doubles(r->point + j, (size_t)r->naxes, owner->point + k,
				 (size_t)owner->naxes, r->npoints))
			return k;
	}
	return -1;
}

/* Returns rate r's axes as a JSON array (owned by the caller); with column (r's naxes
 * entries, or NULL), each axis's "column" in its owner's points where it has one (>= 0). */
static json_t *axes_to_json(const struct model *model, const struct model_rate *r,
			    const int *column)
{
	json_t *axes = json_array();

	for (int j = 0; j < r->naxes; j++) {
		json_t *a = json_pack("{s:s, s:b, s:f, s:f}", "name",
			model->features[r->axes[j].feature].name, "log", r->axes[j].log, "centre",
			r->axes[j].centre, "spread", r->axes[j].spread);

		if (r->axes[j].phase) /* absent otherwise: older model files read the same */
			json_object_set_new(a, "phase", json_string(r->axes[j].phase ==
						MODEL_PHASE_COS ? "cos" : "sin"));
		if (r->axes[j].nknots > 0) { /* absent too without a base */
			json_t *knots = json_array(), *effects = json_array();

			for (int t = 0; t < r->axes[j].nknots; t++) {
				json_array_append_new(knots, json_real(r->axes[j].knot[t]));
				json_array_append_new(effects, json_real(r->axes[j].effect[t]));
			}
			json_object_set_new(a, "knots", knots);
			json_object_set_new(a, "effects", effects);
		}
		if (column && column[j] >= 0)
			json_object_set_new(a, "column", json_integer(column[j]));
		json_array_append_new(axes, a);
	}
	return axes;
}

/*
 * Returns rate r's object of model (owned by the caller): "rate", its "per_count", or with
 * owner a rate of owner's bag. A bag's rate is read off the owner's training inputs, so what
 * it shares with the owner bit for bit is not written again: its log rates and log scales
 * when they are the owner's, and the coordinates of each of its axes that are those of an
 * axis of the owner (its "column"), "points" holding the others' (left out when there are
 * none). 17 copies of the points made xz's model file 6.6 times larger and mantis-predict 2.4
 * times slower (session 58).
 */
static json_t *rate_to_json(const struct model *model, const struct model_rate *r,
			    const struct model_rate *owner)
{
	int shared = owner && owner->npoints == r->npoints, n = r->npoints, own = r->naxes;
	int *column = xcalloc((size_t)r->naxes + 1, sizeof *column);
	json_t *jr = json_pack("{s:s, s:i}", "scale", model->features[r->scale].name, "k", r->k);

	for (int j = 0; j < r->naxes; j++) {
		column[j] = shared ? shared_column(r, j, owner) : -1;
		own -= column[j] >= 0;
	}
	json_object_set_new(jr, "axes", axes_to_json(model, r, column));
	if (own > 0 || !shared) {
		json_t *points = json_array();

		for (int i = 0; i < n; i++) {
			json_t *p = json_array();

			for (int j = 0; j < r->naxes; j++) {
				if (column[j] < 0)
					json_array_append_new(p, json_real(r->point[(size_t)i *
						(size_t)r->naxes + (size_t)j]));
			}
			json_array_append_new(points, p);
		}
		json_object_set_new(jr, "points", points);
	}
	if (!shared || !same_doubles(r->log_rate, 1, owner->log_rate, 1, n)) {
		json_t *rates = json_array();

		for (int i = 0; i < n; i++)
			json_array_append_new(rates, json_real(r->log_rate[i]));
		json_object_set_new(jr, "log_rates", rates);
	}
	if (r->slope_near > 0) {
		json_object_set_new(jr, "slope_near", json_integer(r->slope_near));
		if (!shared || !owner->log_scale ||
		    !same_doubles(r->log_scale, 1, owner->log_scale, 1, n)) {
			json_t *scales = json_array();

			for (int i = 0; i < n; i++)
				json_array_append_new(scales, json_real(r->log_scale[i]));
			json_object_set_new(jr, "log_scales", scales);
		}
	}
	if (r->per_count) /* absent otherwise: older model files read the same */
		json_object_set_new(jr, "per_count", rate_to_json(model, r->per_count, NULL));
	if (r->nbag > 0) { /* absent too when not bagged */
		json_t *bag = json_array();

		for (int b = 0; b < r->nbag; b++)
			json_array_append_new(bag, rate_to_json(model, &r->bag[b], r));
		json_object_set_new(jr, "bag", bag);
	}
	free(column);
	return jr;
}

/* Returns the model as a new JSON object (owned by the caller). */
static json_t *model_to_json(const struct model *model)
{
	json_t *root = json_object(), *terms = json_array(), *features = json_array();

	json_object_set_new(root, "algorithm", json_string(model->algorithm));
	json_object_set_new(root, "metric", json_string(model->metric));
	json_object_set_new(root, "fit", json_string(model->fit));
	json_object_set_new(root, "degree", json_integer(model->degree));
	json_object_set_new(root, "cv_folds", json_integer(model->cv_folds));
	json_object_set_new(root, "intercept", json_real(model->intercept));
	for (int t = 0; t < model->nterms; t++) {
		json_t *term = json_object(), *powers = json_object();

		json_object_set_new(term, "coef", json_real(model->terms[t].coef));
		for (int i = 0; i < model->terms[t].m.nf; i++)
			json_object_set_new(powers, model->features[model->terms[t].m.feat[i]].name,
					    json_integer(model->terms[t].m.pow[i]));
		json_object_set_new(term, "powers", powers);
		json_array_append_new(terms, term);
	}
	json_object_set_new(root, "terms", terms);
	for (int f = 0; f < model->nfeatures; f++) {
		const struct model_feature *mf = &model->features[f];
		json_t *aliases = json_array();

		for (int a = 0; a < mf->naliases; a++)
			json_array_append_new(aliases, json_pack("{s:s, s:f, s:f}", "name",
								 mf->aliases[a].name, "a",
								 mf->aliases[a].a, "b", mf->aliases[a].b));
		json_array_append_new(features, json_pack("{s:s, s:o, s:o, s:o}", "name", mf->name,
							  "min", number(mf->min), "max",
							  number(mf->max), "aliases", aliases));
	}
	json_object_set_new(root, "features", features);
	if (model->rate.npoints > 0)
		json_object_set_new(root, "rate", rate_to_json(model, &model->rate, NULL));
	else if (model->rate.per_count) /* absent otherwise: older model files read the same */
		json_object_set_new(root, "per_count", rate_to_json(model, model->rate.per_count, NULL));
	if (model->floored) /* absent otherwise: older model files read the same */
		json_object_set_new(root, "floor", json_real(model->floor));
	json_object_set_new(root, "n_train", json_integer(model->ntrain));
	json_object_set_new(root, "n_test", json_integer(model->ntest));
	json_object_set_new(root, "train_mre", number(model->train_mre));
	json_object_set_new(root, "test_mre", number(model->test_mre));
	if (model->interval.level > 0)
		json_object_set_new(root, "interval", json_pack("{s:f, s:f, s:o}", "level",
			model->interval.level, "low", model->interval.low, "high",
			number(model->interval.high))); /* null: no upper bound */
	return root;
}

int model_write(const struct model *model, const char *path, struct error *err)
{
	json_t *root = model_to_json(model);
	size_t flags = JSON_INDENT(2) | JSON_REAL_PRECISION(17);
	int rc;

	if (strcmp(path, "-") == 0) {
		rc = json_dumpf(root, stdout, flags);
		putchar('\n');
	} else {
		rc = json_dump_file(root, path, flags);
	}
	json_decref(root);
	if (rc < 0)
		return error_errno(err, "cannot write %s", path);
	return 0;
}

/* Finds or adds the feature called name in model->features; returns its index. */
static int feature_index(struct model *model, const char *name)
{
	for (int f = 0; f < model->nfeatures; f++) {
		if (strcmp(model->features[f].name, name) == 0)
			return f;
	}
	model->features = xrealloc(model->features,
				   sizeof *model->features * (size_t)(model->nfeatures + 1));
	model->features[model->nfeatures] = (struct model_feature){xstrdup(name), NAN, NAN, 0, NULL};
	return model->nfeatures++;
}

/* Reads one term object into *term. Returns 0 or -1 with err set. */
static int read_term(struct model *model, json_t *jt, struct model_term *term, const char *path,
		     int t, struct error *err)
{
	json_t *coef = json_object_get(jt, "coef"), *powers = json_object_get(jt, "powers");
	const char *name;
	json_t *pow;

	memset(term, 0, sizeof *term);
	if (!json_is_number(coef) || !json_is_object(powers))
		return error_set(err, "%s: terms[%d] needs a number \"coef\" and an object \"powers\"",
				 path, t);
	term->coef = json_number_value(coef);
	json_object_foreach(powers, name, pow) {
		int f = feature_index(model, name), i = term->m.nf;

		if (!json_is_integer(pow) || json_integer_value(pow) < 1 ||
		    json_integer_value(pow) > MODEL_MAX_DEGREE || i == MODEL_MAX_DEGREE)
			return error_set(err, "%s: terms[%d].powers.%s must be an integer from 1 to %d",
					 path, t, name, MODEL_MAX_DEGREE);
		while (i > 0 && term->m.feat[i - 1] > f) {
			term->m.feat[i] = term->m.feat[i - 1];
			term->m.pow[i] = term->m.pow[i - 1];
			i--;
		}
		term->m.feat[i] = f;
		term->m.pow[i] = (int)json_integer_value(pow);
		term->m.nf++;
	}
	return 0;
}

static const char *string_or(json_t *v, const char *fallback)
{
	return json_is_string(v) ? json_string_value(v) : fallback;
}

static double number_or_nan(json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Copies the optional ranges and aliases of one feature from its "features" entry. */
static void read_feature_info(struct model_feature *mf, json_t *jf)
{
	json_t *aliases = json_object_get(jf, "aliases"), *ja;
	size_t i;

	mf->min = number_or_nan(json_object_get(jf, "min"));
	mf->max = number_or_nan(json_object_get(jf, "max"));
	json_array_foreach(aliases, i, ja) {
		const char *name = json_string_value(json_object_get(ja, "name"));

		if (!name)
			continue;
		mf->aliases = xrealloc(mf->aliases, sizeof *mf->aliases * (size_t)(mf->naliases + 1));
		mf->aliases[mf->naliases++] = (struct model_alias){
			xstrdup(name), number_or_nan(json_object_get(ja, "a")),
			number_or_nan(json_object_get(ja, "b"))};
	}
}

/* Copies the optional feature information from "features". */
static void read_features(struct model *model, json_t *features)
{
	size_t i;
	json_t *jf;

	json_array_foreach(features, i, jf) {
		const char *name = json_string_value(json_object_get(jf, "name"));

		for (int f = 0; name && f < model->nfeatures; f++) {
			if (strcmp(model->features[f].name, name) == 0 && !model->features[f].aliases)
				read_feature_info(&model->features[f], jf);
		}
	}
}

/* Reads the rate's slope (optional: "slope_near", with "log_scales" of every training
 * input, or in a bag's rate without them, owner's) from jr into r. Returns 0 or -1 with err
 * naming path and what is wrong. */
static int read_rate_slope(struct model_rate *r, json_t *jr, const struct model_rate *owner,
			   const char *path, const char *what, struct error *err)
{
	json_t *near = json_object_get(jr, "slope_near"), *scales = json_object_get(jr, "log_scales");
	json_t *js;
	size_t i;

	if (!near)
		return 0;
	/* a bag's rate without log scales: its owner's (rate_to_json) */
	if (owner && owner->log_scale && owner->npoints == r->npoints && !scales &&
	    json_is_integer(near) && json_integer_value(near) >= 0) {
		r->slope_near = (int)json_integer_value(near);
		r->log_scale = xcalloc((size_t)r->npoints + 1, sizeof *r->log_scale);
		memcpy(r->log_scale, owner->log_scale, sizeof *r->log_scale * (size_t)r->npoints);
		return 0;
	}
	if (!json_is_integer(near) || json_integer_value(near) < 0 || !json_is_array(scales) ||
	    json_array_size(scales) != (size_t)r->npoints)
		return error_set(err, "%s: %s.slope_near must be 0 or more, with as many "
				 "\"log_scales\" as \"log_rates\"", path, what);
	r->slope_near = (int)json_integer_value(near);
	r->log_scale = xcalloc((size_t)r->npoints + 1, sizeof *r->log_scale);
	json_array_foreach(scales, i, js) {
		r->log_scale[i] = number_or_nan(js);
		if (!isfinite(r->log_scale[i]))
			return error_set(err, "%s: %s.log_scales[%zu] is not a number", path, what, i);
	}
	return 0;
}

/* Reads an axis's "phase" (jp: absent, "cos" or "sin") into a; returns 0, or -1 when it is
 * something else or comes with a log. */
static int axis_phase(json_t *jp, struct model_axis *a)
{
	const char *p = json_string_value(jp);

	a->phase = MODEL_PHASE_NONE;
	if (!jp)
		return 0;
	if (!p || a->log || (strcmp(p, "cos") != 0 && strcmp(p, "sin") != 0))
		return -1;
	a->phase = strcmp(p, "cos") == 0 ? MODEL_PHASE_COS : MODEL_PHASE_SIN;
	return 0;
}

/* Reads an axis's optional base part (ja's "knots" and "effects") into a; returns 0, or -1
 * when one comes without the other, their lengths differ or a knot is not above the last. */
static int read_axis_base(json_t *ja, struct model_axis *a)
{
	json_t *knots = json_object_get(ja, "knots"), *effects = json_object_get(ja, "effects");
	size_t m = json_array_size(knots);

	if (!knots && !effects)
		return 0;
	if (!json_is_array(knots) || !json_is_array(effects) || m == 0 ||
	    json_array_size(effects) != m)
		return -1;
	a->knot = xcalloc(m, sizeof *a->knot);
	a->effect = xcalloc(m, sizeof *a->effect);
	a->nknots = (int)m;
	for (size_t t = 0; t < m; t++) {
		a->knot[t] = number_or_nan(json_array_get(knots, t));
		a->effect[t] = number_or_nan(json_array_get(effects, t));
		if (!isfinite(a->knot[t]) || !isfinite(a->effect[t]) ||
		    (t > 0 && !(a->knot[t] > a->knot[t - 1])))
			return -1;
	}
	return 0;
}

static int read_rate(struct model *model, struct model_rate *r, json_t *jr, const char *scale,
		     const struct model_rate *owner, const char *path, const char *what,
		     struct error *err);

/* Reads rate r's optional "bag" (jb: an array of rates of r's scale, each without a
 * per_count or a bag of its own; what: r's name) into r. Returns 0 or -1 with err naming
 * path and what is wrong. */
static int read_bag(struct model *model, struct model_rate *r, json_t *jb, const char *scale,
		    const char *path, const char *what, struct error *err)
{
	json_t *jr;
	size_t b;

	if (!jb)
		return 0;
	if (!json_is_array(jb) || json_array_size(jb) == 0)
		return error_set(err, "%s: %s.bag must be an array of rates (one or more)", path,
				 what);
	r->bag = xcalloc(json_array_size(jb), sizeof *r->bag);
	json_array_foreach(jb, b, jr) {
		struct model_rate *m = &r->bag[r->nbag++];
		char *name = xasprintf("%s.bag[%zu]", what, b);
		int rc = json_is_object(jr) && !json_object_get(jr, "bag") &&
				 !json_object_get(jr, "per_count")
			 ? read_rate(model, m, jr, scale, r, path, name, err)
			 : error_set(err, "%s: %s must be a rate object, without \"bag\" or "
				     "\"per_count\"", path, name);

		free(name);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* Reads rate r's "axes" (an array) into r, adding their features to model. Returns 0 or -1
 * with err naming path and what is wrong. */
static int read_axes(struct model *model, struct model_rate *r, json_t *axes, const char *path,
		     const char *what, struct error *err)
{
	json_t *ja;
	size_t j;

	r->naxes = (int)json_array_size(axes);
	r->axes = xcalloc((size_t)r->naxes + 1, sizeof *r->axes);
	json_array_foreach(axes, j, ja) {
		const char *name = json_string_value(json_object_get(ja, "name"));
		struct model_axis *a = &r->axes[j];

		a->centre = number_or_nan(json_object_get(ja, "centre"));
		a->spread = number_or_nan(json_object_get(ja, "spread"));
		a->log = json_is_true(json_object_get(ja, "log"));
		if (!name || !isfinite(a->centre) || !(a->spread > 0))
			return error_set(err, "%s: %s.axes[%zu] needs a \"name\", a \"centre\" and a "
					 "positive \"spread\"", path, what, j);
		if (axis_phase(json_object_get(ja, "phase"), a) < 0)
			return error_set(err, "%s: %s.axes[%zu].phase is \"cos\" or \"sin\", not "
					 "with \"log\"", path, what, j);
		if (read_axis_base(ja, a) < 0)
			return error_set(err, "%s: %s.axes[%zu] needs as many \"effects\" as "
					 "\"knots\" (numbers, the knots ascending), or neither",
					 path, what, j);
		a->feature = feature_index(model, name);
	}
	return 0;
}

/* Fills column[j] with the "column" of r's axis j (ja) in owner's axes, -1 where it has none.
 * Returns how many have none, or -1 with err naming path and what is wrong. */
static int read_columns(const struct model_rate *r, json_t *axes, const struct model_rate *owner,
			int *column, const char *path, const char *what, struct error *err)
{
	int own = 0;

	for (int j = 0; j < r->naxes; j++) {
		json_t *jc = json_object_get(json_array_get(axes, (size_t)j), "column");
		json_int_t c = json_integer_value(jc);

		if (!jc) {
			column[j] = -1;
			own++;
		} else if (!owner || !json_is_integer(jc) || c < 0 || c >= owner->naxes) {
			return error_set(err, "%s: %s.axes[%d].column must be one of its owner's "
					 "axes (in a bag's rate only)", path, what, j);
		} else {
			column[j] = (int)c;
		}
	}
	return own;
}

/* Reads r's log rates (rates, or where it is NULL owner's) and its points (points: each row
 * the coordinates of the axes without a "column", in order, and those with one owner's in
 * that column; axes: r's "axes") into r, whose npoints and naxes are set. Returns 0 or -1
 * with err naming path and what is wrong. */
static int read_points(struct model_rate *r, json_t *rates, json_t *points, json_t *axes,
		       const struct model_rate *owner, const char *path, const char *what,
		       struct error *err)
{
	size_t n = (size_t)r->npoints, d = (size_t)r->naxes;
	int *column = xcalloc(d + 1, sizeof *column);
	int own = read_columns(r, axes, owner, column, path, what, err), rc = own < 0 ? -1 : 0;

	r->point = xcalloc(n * d + 1, sizeof *r->point);
	r->log_rate = xcalloc(n + 1, sizeof *r->log_rate);
	for (size_t i = 0; i < n && rc == 0; i++) {
		json_t *p = json_array_get(points, i);
		size_t at = 0;

		r->log_rate[i] = rates ? number_or_nan(json_array_get(rates, i)) : owner->log_rate[i];
		if (!isfinite(r->log_rate[i]) || json_array_size(p) != (size_t)own) {
			rc = error_set(err, "%s: %s.points[%zu] needs %d coordinates and "
				       "log_rates[%zu] a number", path, what, i, own, i);
			break;
		}
		for (size_t j = 0; j < d && rc == 0; j++) {
			double *c = &r->point[i * d + j];

			*c = column[j] >= 0 ? owner->point[i * (size_t)owner->naxes +
							   (size_t)column[j]]
					    : number_or_nan(json_array_get(p, at++));
			if (!isfinite(*c))
				rc = error_set(err, "%s: %s.points[%zu][%zu] is not a number", path,
					       what, i, at - 1);
		}
	}
	free(column);
	return rc;
}

/* Reads a rate model's "rate" object (jr), or its "per_count" or a bag's rate (the scale that
 * of r's owner, scale; its points and log rates and scales, where left out, owner's:
 * rate_to_json), into r, adding its features to model. Returns 0 or -1 with err naming path
 * and what is wrong. */
static int read_rate(struct model *model, struct model_rate *r, json_t *jr, const char *scale,
		     const struct model_rate *owner, const char *path, const char *what,
		     struct error *err)
{
	json_t *axes = json_object_get(jr, "axes"), *points = json_object_get(jr, "points");
	json_t *rates = json_object_get(jr, "log_rates");
	json_t *per_count = json_object_get(jr, "per_count");
	size_t n = rates ? json_array_size(rates) : owner ? (size_t)owner->npoints : 0;

	if (!scale)
		scale = json_string_value(json_object_get(jr, "scale"));
	if (!scale || !json_is_integer(json_object_get(jr, "k")) || !json_is_array(axes) ||
	    n == 0 || (rates && !json_is_array(rates)) ||
	    (points ? !json_is_array(points) || json_array_size(points) != n
		    : !owner || (size_t)owner->npoints != n))
		return error_set(err, "%s: \"%s\" needs \"scale\", \"k\", \"axes\" and as many "
				 "\"points\" as \"log_rates\" (one or more)", path, what);
	r->scale = feature_index(model, scale);
	r->k = (int)json_integer_value(json_object_get(jr, "k"));
	r->npoints = (int)n;
	if (read_axes(model, r, axes, path, what, err) < 0 ||
	    read_points(r, rates, points, axes, owner, path, what, err) < 0)
		return -1;
	if (r->k < 1)
		return error_set(err, "%s: %s.k must be 1 or more", path, what);
	if (read_rate_slope(r, jr, owner, path, what, err) < 0 ||
	    read_bag(model, r, json_object_get(jr, "bag"), scale, path, what, err) < 0)
		return -1;
	if (!per_count)
		return 0;
	if (!json_is_object(per_count) || r != &model->rate)
		return error_set(err, "%s: %s.per_count must be an object, in \"rate\" only", path,
				 what);
	r->per_count = xcalloc(1, sizeof *r->per_count);
	return read_rate(model, r->per_count, per_count, scale, NULL, path, "rate.per_count", err);
}

/* Reads a polynomial's "per_count" (jp: a time through the instruction count) into
 * model->rate.per_count. Returns 0 or -1 with err naming path and what is wrong. */
static int read_per_count(struct model *model, json_t *jp, const char *path, struct error *err)
{
	if (model->rate.npoints > 0 || !json_is_object(jp))
		return error_set(err, "%s: \"per_count\" must be an object, in a polynomial only (a "
				 "rate's is rate.per_count)", path);
	model->rate.per_count = xcalloc(1, sizeof *model->rate.per_count);
	return read_rate(model, model->rate.per_count, jp, NULL, NULL, path, "per_count", err);
}

/* Copies "interval" (optional: models before it have none) into model->interval. */
static void read_interval(struct model *model, json_t *ji)
{
	double level = number_or_nan(json_object_get(ji, "level")), low, high;

	if (!(level > 0 && level < 1))
		return;
	low = number_or_nan(json_object_get(ji, "low"));
	high = json_is_null(json_object_get(ji, "high")) ? INFINITY
		: number_or_nan(json_object_get(ji, "high"));
	if (low >= 0 && high >= low)
		model->interval = (struct model_interval){level, low, high};
}

int model_read(struct model *model, const char *path, struct error *err)
{
	json_error_t jerr;
	FILE *f = fopen(path, "r");
	json_t *root = f ? json_loadf(f, 0, &jerr) : NULL, *terms, *jt;
	size_t t;

	memset(model, 0, sizeof *model);
	if (!f)
		return error_errno(err, "cannot open %s", path);
	fclose(f);
	if (!root)
		return error_set(err, "%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
	terms = json_object_get(root, "terms");
	if (!json_is_object(root) || !json_is_number(json_object_get(root, "intercept")) ||
	    !json_is_array(terms) || !json_is_string(json_object_get(root, "metric"))) {
		json_decref(root);
		return error_set(err, "%s: not a mantis model (needs \"metric\", \"intercept\" and "
				 "\"terms\")", path);
	}
	model->algorithm = xstrdup(string_or(json_object_get(root, "algorithm"), "?"));
	model->metric = xstrdup(json_string_value(json_object_get(root, "metric")));
	model->fit = xstrdup(string_or(json_object_get(root, "fit"), "absolute"));
	model->degree = (int)json_integer_value(json_object_get(root, "degree"));
	model->cv_folds = (int)json_integer_value(json_object_get(root, "cv_folds"));
	model->intercept = json_number_value(json_object_get(root, "intercept"));
	model->terms = xcalloc(json_array_size(terms) + 1, sizeof *model->terms);
	json_array_foreach(terms, t, jt) {
		if (read_term(model, jt, &model->terms[t], path, (int)t, err) < 0) {
			json_decref(root);
			model_release(model);
			return -1;
		}
		model->nterms++;
	}
	if (json_object_get(root, "rate") &&
	    read_rate(model, &model->rate, json_object_get(root, "rate"), NULL, NULL, path,
		      "rate", err) < 0) {
		json_decref(root);
		model_release(model);
		return -1;
	}
	if (json_object_get(root, "per_count") &&
	    read_per_count(model, json_object_get(root, "per_count"), path, err) < 0) {
		json_decref(root);
		model_release(model);
		return -1;
	}
	read_features(model, json_object_get(root, "features"));
	model->floored = json_is_number(json_object_get(root, "floor"));
	model->floor = json_number_value(json_object_get(root, "floor"));
	model->ntrain = (int)json_integer_value(json_object_get(root, "n_train"));
	model->ntest = (int)json_integer_value(json_object_get(root, "n_test"));
	model->train_mre = number_or_nan(json_object_get(root, "train_mre"));
	model->test_mre = number_or_nan(json_object_get(root, "test_mre"));
	read_interval(model, json_object_get(root, "interval"));
	json_decref(root);
	return 0;
}

void model_rate_release(struct model_rate *r)
{
	if (r->per_count) {
		model_rate_release(r->per_count);
		free(r->per_count);
	}
	for (int b = 0; b < r->nbag; b++)
		model_rate_release(&r->bag[b]);
	free(r->bag);
	for (int j = 0; j < r->naxes; j++) {
		free(r->axes[j].knot);
		free(r->axes[j].effect);
	}
	free(r->axes);
	free(r->point);
	free(r->log_rate);
	free(r->log_scale);
	memset(r, 0, sizeof *r);
}

void model_release(struct model *model)
{
	for (int f = 0; f < model->nfeatures; f++) {
		for (int a = 0; a < model->features[f].naliases; a++)
			free(model->features[f].aliases[a].name);
		free(model->features[f].aliases);
		free(model->features[f].name);
	}
	free(model->features);
	free(model->terms);
	model_rate_release(&model->rate);
	free(model->algorithm);
	free(model->metric);
	free(model->fit);
	memset(model, 0, sizeof *model);
}
