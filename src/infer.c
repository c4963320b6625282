/*
 * infer.c: the learners' table and what they share (weights, a random stream, number format).
 *
 * The learners are the four of Westermann et al. (004_ section 4: MARS, CART, Kriging with
 * classical MDS beyond two dimensions, genetic programming), Kriging also directly in n-D with a
 * length scale per dimension, and our SPORE polynomial. Invariant: a learner never keeps a
 * pointer into the data it was fitted on (the explorer's training set changes between fits).
 */
#include "infer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "util.h"

static const struct learner *const learners[] = {
	&learner_mars, &learner_cart, &learner_kriging, &learner_kriging_nd, &learner_gp,
	&learner_spore, NULL,
};

struct infer_options infer_options_default(void)
{
	struct infer_options o = {
		.relative = 1,
		.seed = 1,
		.mars_degree = 2,
		.mars_max_terms = 21,
		.cart_min_split = 4,
		.cart_folds = 5,
		.gp_population = 200,
		.gp_generations = 30,
	};

	return o;
}

const struct learner *const *infer_learners(void)
{
	return learners;
}

const struct learner *infer_find(const char *name)
{
	for (int i = 0; learners[i]; i++) {
		if (strcmp(learners[i]->name, name) == 0)
			return learners[i];
	}
	return NULL;
}

int infer_fit(struct infer *inf, const struct learner *learner, const struct infer_data *data,
	      const struct infer_options *opt, struct error *err)
{
	struct infer_data logged = *data;
	struct infer_options plain = *opt;
	double *ly = NULL;

	memset(inf, 0, sizeof *inf);
	if (data->n < 1)
		return error_set(err, "%s: no measurements to fit", learner->name);
	inf->log = opt->log;
	for (int i = 0; i < data->n && inf->log; i++)
		inf->log = data->y[i] > 0;
	if (inf->log) {
		ly = xmalloc(sizeof *ly * (size_t)data->n);
		for (int i = 0; i < data->n; i++)
			ly[i] = log(data->y[i]);
		logged.y = ly;
		plain.relative = 0;
	}
	inf->model = learner->fit(&logged, &plain, err);
	free(ly);
	if (!inf->model)
		return error_prefix(err, "%s", learner->name);
	inf->learner = learner;
	return 0;
}

double infer_predict(const struct infer *inf, const double *x)
{
	double v = inf->learner->predict(inf->model, x);

	return inf->log ? exp(v) : v;
}

void infer_format(const struct infer *inf, struct strbuf *out)
{
	if (inf->log)
		strbuf_add(out, "exp of:\n", 8);
	inf->learner->format(inf->model, out);
}

void infer_release(struct infer *inf)
{
	if (inf->model)
		inf->learner->free_model(inf->model);
	memset(inf, 0, sizeof *inf);
}

uint64_t infer_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

double infer_uniform(uint64_t *s)
{
	return (double)(infer_rand(s) >> 11) / 0x1p53;
}

void infer_weights(const double *y, int n, int relative, double *w)
{
	int ok = relative;

	for (int i = 0; i < n && ok; i++)
		ok = y[i] != 0;
	for (int i = 0; i < n; i++)
		w[i] = ok ? 1 / (y[i] * y[i]) : 1;
}

double *infer_column(const struct infer_data *data, int j)
{
	double *c = xmalloc(sizeof *c * (size_t)(data->n ? data->n : 1));

	for (int i = 0; i < data->n; i++)
		c[i] = data->x[(size_t)i * (size_t)data->d + (size_t)j];
	return c;
}

void infer_format_number(struct strbuf *out, double v)
{
	char buf[64];

	snprintf(buf, sizeof buf, "%.6g", v);
	strbuf_add(out, buf, strlen(buf));
}
