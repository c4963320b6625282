/*
 * fit.c: the model generator's driver.
 *
 *   split rows (seeded shuffle) -> prep_fit on training rows -> scaled design -> weights
 *   (1/y^2 for relative fitting) -> learner -> [with --cv: the learner's candidates, chosen by
 *   K-fold cross-validation] -> terms in original units -> train/test MRE
 * or, for the rate learner (rate.c), prep's kept columns -> rate_learn -> train/test MRE.
 * A time through the instruction count (per_count) fits the terms to the instructions
 * (ds->count) and then the time an instruction, a rate over the input features
 * (rate_learn_per_count): time = polynomial * rate.
 *
 * Units: the design column of feature f is value / scale_f (prep.c), so a term
 * c * prod (value_f / scale_f)^k_f is (c / prod scale_f^k_f) * prod value_f^k_f: the model in
 * original units has the same terms as the fitted one.
 */
#include "fit.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "descriptor.h"
#include "error.h"
#include "learn.h"
#include "model.h"
#include "rate.h"
#include "util.h"

/* One algorithm the user can ask for. */
struct algorithm {
	const char *name; /* as given to --algo */
	int kind;         /* which learner */
	int degree;       /* forced degree, or 0 to use the option */
};

enum { OLS, LASSO, FOBA, SPORE_FOBA, SPORE_LASSO, RATE };

static const struct algorithm algorithms[] = {
	{"spore-foba", SPORE_FOBA, 0}, {"spore-lasso", SPORE_LASSO, 0}, {"lasso", LASSO, 1},
	{"foba", FOBA, 1},             {"ols", OLS, 1},                 {"linear", SPORE_FOBA, 1},
	{"rate", RATE, 1},
};

static const struct algorithm *find_algorithm(const char *name)
{
	for (size_t i = 0; i < sizeof algorithms / sizeof *algorithms; i++) {
		if (strcmp(algorithms[i].name, name) == 0)
			return &algorithms[i];
	}
	return NULL;
}

int fit_algorithm_known(const char *name)
{
	return find_algorithm(name) != NULL;
}

struct fit_options fit_options_default(void)
{
	struct fit_options o = {"spore-foba", 3, 1e-4, 1, 0.8, 1, NULL, 0, 5, 20, 0, NULL, 0};

	return o;
}

/* splitmix64: a small seeded generator, so splits are the same on every machine. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void fit_shuffle(int *order, int n, unsigned long seed)
{
	uint64_t state = seed;

	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(next_random(&state) % (uint64_t)(i + 1)), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}

static int check_data(const struct dataset *ds, const struct fit_options *opt, int ntrain,
		      struct error *err)
{
	if (ds->n < 3)
		return error_set(err, "%d sample%s: a model needs at least 3", ds->n,
				 ds->n == 1 ? "" : "s");
	if (ntrain < 3)
		return error_set(err, "--train-frac %g leaves %d training samples of %d; at least 3 "
				 "are needed", opt->train_frac, ntrain, ds->n);
	for (int i = 0; opt->relative && i < ds->n; i++) {
		if (!(ds->y[i] > 0))
			return error_set(err, "%s is %g on '%s': relative fitting needs positive "
					 "values (use --fit absolute)", ds->metric, ds->y[i], ds->ids[i]);
	}
	if (opt->per_count && !ds->count)
		return error_set(err, "the profile has no instruction count to take %s through",
				 ds->metric);
	for (int i = 0; opt->per_count && i < ds->n; i++) {
		if (!(ds->count[i] > 0))
			return error_set(err, "the instruction count is %g on '%s': a time through it "
					 "needs positive counts", ds->count[i], ds->ids[i]);
	}
	return 0;
}

/* Runs the learner the algorithm names. */
static int learn(const struct algorithm *alg, const struct learn_problem *pb,
		 const struct learn_options *lo, struct learn_result *res, struct error *err)
{
	switch (alg->kind) {
	case OLS:
		return learn_ols(pb, res, err);
	case LASSO:
		return learn_lasso(pb, lo, res, err);
	case FOBA:
		return learn_foba(pb, lo, 0, res, err);
	case SPORE_FOBA:
		return learn_foba(pb, lo, 1, res, err);
	default:
		return learn_spore_lasso(pb, lo, res, err);
	}
}

/* Lists in f the dataset columns that preprocessing found to be copies of column j. */
static void add_aliases(struct model_feature *f, const struct prep *pr, const struct dataset *ds,
			int j)
{
	f->naliases = 0;
	f->aliases = NULL;
	for (int a = 0; a < pr->p; a++) {
		if (pr->status[a] != PREP_ALIAS || pr->rep[a] != j)
			continue;
		f->aliases = xrealloc(f->aliases, sizeof *f->aliases * (size_t)(f->naliases + 1));
		f->aliases[f->naliases++] = (struct model_alias){xstrdup(ds->names[a]),
								 pr->alias_a[a], pr->alias_b[a]};
	}
}

/* Builds the model in original units from a learner's result. Features are numbered in
 * dataset order, so every monomial's features stay in ascending order. */
static void to_model(const struct learn_result *res, const struct prep *pr,
		     const struct dataset *ds, const int *rows, int nrows, struct model *model)
{
	int *slot = xmalloc(sizeof *slot * (size_t)(pr->k ? pr->k : 1));

	for (int c = 0; c < pr->k; c++)
		slot[c] = -1;
	for (int t = 0; t < res->nterms; t++) {
		for (int i = 0; i < res->terms[t].nf; i++)
			slot[res->terms[t].feat[i]] = 0;
	}
	model->features = xcalloc((size_t)pr->k + 1, sizeof *model->features);
	for (int c = 0; c < pr->k; c++) {
		const double *x = ds->x + (size_t)pr->kept[c] * (size_t)ds->n;
		struct model_feature *f = &model->features[model->nfeatures];

		if (slot[c] < 0)
			continue;
		f->name = xstrdup(ds->names[pr->kept[c]]);
		f->min = INFINITY;
		f->max = -INFINITY;
		for (int r = 0; r < nrows; r++) {
			f->min = fmin(f->min, x[rows[r]]);
			f->max = fmax(f->max, x[rows[r]]);
		}
		add_aliases(f, pr, ds, pr->kept[c]);
		slot[c] = model->nfeatures++;
	}
	model->intercept = res->b0;
	model->terms = xcalloc((size_t)res->nterms + 1, sizeof *model->terms);
	for (int t = 0; t < res->nterms; t++) {
		struct model_term *term = &model->terms[model->nterms++];

		term->m = res->terms[t];
		term->coef = res->coef[t];
		for (int i = 0; i < term->m.nf; i++) {
			for (int k = 0; k < term->m.pow[i]; k++)
				term->coef /= pr->scale[term->m.feat[i]];
			term->m.feat[i] = slot[term->m.feat[i]];
		}
	}
	free(slot);
}

/* Sets model's floor to the least metric of the rows rows[0..nrows): a polynomial predicts no
 * less (model_floored). */
static void set_floor(const struct dataset *ds, const int *rows, int nrows, struct model *model)
{
	model->floored = nrows > 0;
	model->floor = INFINITY;
	for (int r = 0; r < nrows; r++)
		model->floor = fmin(model->floor, ds->y[rows[r]]);
}

double fit_mre(const struct model *model, const struct dataset *ds, const int *rows, int nrows)
{
	double *values = xmalloc(sizeof *values * (size_t)(model->nfeatures + 1)), sum = 0;
	int *col = xmalloc(sizeof *col * (size_t)(model->nfeatures + 1));

	if (nrows == 0) {
		free(values);
		free(col);
		return NAN;
	}
	for (int f = 0; f < model->nfeatures; f++)
		col[f] = dataset_find(ds, model->features[f].name);
	for (int r = 0; r < nrows; r++) {
		double y = ds->y[rows[r]];

		for (int f = 0; f < model->nfeatures; f++)
			values[f] = ds->x[(size_t)col[f] * (size_t)ds->n + (size_t)rows[r]];
		sum += fabs(model_eval(model, values) - y) / fabs(y);
	}
	free(values);
	free(col);
	return sum / nrows;
}

/* Fits the time an instruction of a polynomial of the instructions (fit_model with
 * per_count) into model->rate.per_count (rate_learn_per_count), on the rows order[0..ntrain)
 * and the input features prep did not exclude: the time an instruction follows the input's
 * data and size (the caches), which they tell at no cost. Its aliases too, not its kept
 * columns alone: an input feature equal to a program feature (lz4's level, a value its parser
 * sets) is the program's alias there, and the rate reads input features alone. Returns 0, or
 * -1 with err set. */
static int fit_per_count(const struct dataset *ds, const struct fit_options *opt,
			 const int *order, int ntrain, const struct prep *prep,
			 struct model *model, struct error *err)
{
	int *usable = xcalloc((size_t)ds->p + 1, sizeof *usable), nusable = 0, rc;

	for (int j = 0; j < ds->p; j++) {
		if (prep->status[j] != PREP_EXCLUDED && descriptor_find(ds->names[j]) >= 0)
			usable[nusable++] = j;
	}
	rc = rate_learn_per_count(ds, order, ntrain, opt->group, usable, nusable, model, err);
	free(usable);
	return rc;
}

/* fit_model for the rate learner, on the rows order[0..ntrain) and the columns prep kept
 * (exact copies and constants left out). Frees order; releases prep on failure. */
static int fit_rate(const struct dataset *ds, const struct fit_options *opt, int *order,
		    int ntrain, struct model *model, struct prep *prep, struct error *err)
{
	int rc = rate_learn(ds, order, ntrain, opt->group, prep->kept, prep->k, opt->per_count,
			    model, err);

	if (rc == 0) {
		model->algorithm = xstrdup("rate");
		model->metric = xstrdup(ds->metric);
		model->fit = xstrdup("relative");
		model->degree = 1;
		model->ntrain = ntrain;
		model->ntest = ds->n - ntrain;
		model->train_mre = fit_mre(model, ds, order, ntrain);
		model->test_mre = fit_mre(model, ds, order + ntrain, ds->n - ntrain);
	} else {
		model_release(model);
		prep_release(prep);
	}
	free(order);
	return rc;
}

int fit_model(const struct dataset *ds, const struct fit_options *opt, struct model *model,
	      struct prep *prep, struct error *err)
{
	const struct algorithm *alg = find_algorithm(opt->algorithm);
	int ntrain = (int)lround(opt->train_frac * ds->n), *order, rc;
	struct learn_options lo = {.degree = alg && alg->degree ? alg->degree : opt->degree,
				   .epsilon = opt->epsilon, .nu = 0.5, .max_features = opt->max_features,
				   .max_terms = opt->max_terms};
	struct learn_trace trace = {0};
	struct learn_problem pb;
	struct learn_result res;
	double *design, *y, *w;

	memset(model, 0, sizeof *model);
	memset(prep, 0, sizeof *prep);
	if (!alg)
		return error_set(err, "unknown algorithm '%s'", opt->algorithm);
	if (check_data(ds, opt, ntrain, err) < 0)
		return -1;
	order = xmalloc(sizeof *order * (size_t)ds->n);
	fit_shuffle(order, ds->n, opt->seed);
	if (prep_fit(prep, ds, order, ntrain, opt->exclude, opt->nexclude, err) < 0) {
		free(order);
		return -1;
	}
	if (prep->k == 0) {
		error_set(err, "all %d features are constant%s on the %d training samples: nothing "
			  "to model", ds->p, opt->nexclude ? " or excluded" : "", ntrain);
		prep_release(prep);
		free(order);
		return -1;
	}
	if (alg->kind == RATE)
		return fit_rate(ds, opt, order, ntrain, model, prep, err);
	design = xmalloc(sizeof *design * (size_t)ntrain * (size_t)(prep->k ? prep->k : 1));
	y = xmalloc(sizeof *y * (size_t)ntrain);
	w = xmalloc(sizeof *w * (size_t)ntrain);
	prep_design(prep, ds, order, ntrain, design);
	for (int i = 0; i < ntrain; i++) {
		y[i] = opt->per_count ? ds->count[order[i]] : ds->y[order[i]];
		w[i] = opt->relative ? 1 / (y[i] * y[i]) : 1;
	}
	pb = (struct learn_problem){ntrain, prep->k, design, y, w};
	if (opt->cv_folds > 0 && alg->kind != OLS)
		lo.trace = &trace;
	rc = learn(alg, &pb, &lo, &res, err);
	if (rc == 0 && lo.trace) {
		learn_result_release(&res);
		rc = learn_choose_by_cv(&pb, &trace, opt->cv_folds, opt->seed, &res, err);
	}
	learn_trace_release(&trace);
	if (rc == 0) {
		model->algorithm = xstrdup(alg->name);
		model->metric = xstrdup(ds->metric);
		model->fit = xstrdup(opt->relative ? "relative" : "absolute");
		model->degree = lo.degree;
		model->cv_folds = lo.trace ? opt->cv_folds : 0;
		to_model(&res, prep, ds, order, ntrain, model);
		set_floor(ds, order, ntrain, model);
		learn_result_release(&res);
		if (opt->per_count && fit_per_count(ds, opt, order, ntrain, prep, model, err) < 0)
			rc = -1;
	}
	if (rc == 0) {
		model->ntrain = ntrain;
		model->ntest = ds->n - ntrain;
		model->train_mre = fit_mre(model, ds, order, ntrain);
		model->test_mre = fit_mre(model, ds, order + ntrain, ds->n - ntrain);
	} else {
		model_release(model);
		prep_release(prep);
	}
	free(order);
	free(design);
	free(y);
	free(w);
	return rc;
}
