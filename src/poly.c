/*
 * poly.c: our SPORE polynomial (Huang et al. 2010, SPORE-FoBa, degree 3) as an explore learner:
 * the parameters become the feature columns of a dataset and fit.c's driver does the rest
 * (preprocessing, relative least squares, terms back in the parameters' units), as mantis model
 * does on profiled features.
 *
 * Invariant: feat[f] is the dimension holding the model's feature f. Fewer than three points,
 * or no dimension that varies, give the constant model (the mean), which fit.c refuses.
 */
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "error.h"
#include "fit.h"
#include "infer.h"
#include "model.h"
#include "util.h"

/* A fitted polynomial. */
struct poly {
	struct model model; /* terms over the dimensions it kept; owned */
	int *feat;          /* for each model feature, its dimension; owned */
	int constant;       /* 1: the model is the mean, model.intercept */
};

/* The learner's fit through fit_model. Returns the model (owned by the caller). */
static void *poly_fit(const struct infer_data *data, const struct infer_options *opt, struct error *err)
{
	struct dataset ds = {0};
	struct fit_options fo = fit_options_default();
	struct poly *p = xcalloc(1, sizeof *p);
	struct prep pr;
	struct error ignored;
	double mean = 0;

	(void)err;
	ds.n = data->n;
	ds.p = data->d;
	ds.metric = xstrdup("y");
	ds.names = xcalloc((size_t)data->d + 1, sizeof *ds.names);
	ds.ids = xcalloc((size_t)data->n + 1, sizeof *ds.ids);
	ds.x = xcalloc((size_t)data->n * (size_t)data->d + 1, sizeof *ds.x);
	ds.y = xcalloc((size_t)data->n + 1, sizeof *ds.y);
	for (int j = 0; j < data->d; j++)
		ds.names[j] = xstrdup(data->names[j]);
	for (int i = 0; i < data->n; i++) {
		ds.ids[i] = xasprintf("point %d", i + 1);
		ds.y[i] = data->y[i];
		mean += data->y[i] / data->n;
		fo.relative &= opt->relative && data->y[i] > 0;
		for (int j = 0; j < data->d; j++)
			ds.x[(size_t)j * (size_t)data->n + (size_t)i] = data->x[(size_t)i * (size_t)data->d + (size_t)j];
	}
	fo.train_frac = 1;
	fo.seed = (unsigned long)opt->seed;
	if (fit_model(&ds, &fo, &p->model, &pr, &ignored) == 0) {
		prep_release(&pr);
		p->feat = xcalloc((size_t)p->model.nfeatures + 1, sizeof *p->feat);
		for (int f = 0; f < p->model.nfeatures; f++)
			p->feat[f] = dataset_find(&ds, p->model.features[f].name);
	} else {
		p->constant = 1;
		p->model.intercept = mean;
	}
	dataset_release(&ds);
	return p;
}

/* Returns the polynomial (or the mean) at x. */
static double poly_predict(const void *model, const double *x)
{
	const struct poly *p = model;
	double *v, y;

	if (p->constant)
		return p->model.intercept;
	v = xcalloc((size_t)p->model.nfeatures + 1, sizeof *v);
	for (int f = 0; f < p->model.nfeatures; f++)
		v[f] = x[p->feat[f]];
	y = model_eval(&p->model, v);
	free(v);
	return y;
}

/* Appends "y = ..." as mantis model prints it. */
static void poly_format(const void *model, struct strbuf *out)
{
	const struct poly *p = model;

	if (p->constant)
		infer_format_number(out, p->model.intercept);
	else
		model_format(&p->model, out);
}

/* Frees the model. */
static void poly_free(void *model)
{
	struct poly *p = model;

	if (!p->constant)
		model_release(&p->model);
	free(p->feat);
	free(p);
}

const struct learner learner_spore = {
	.name = "spore",
	.summary = "SPORE-FoBa polynomial of degree 3 (mantis model's learner)",
	.fit = poly_fit,
	.predict = poly_predict,
	.format = poly_format,
	.free_model = poly_free,
};
