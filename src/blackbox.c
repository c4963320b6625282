/*
 * blackbox.c: the black-box baseline (000_ section 6, "BB"): SPORE-FoBa (spore.c, the same
 * learner as mantis's own models) over features any scheduler can read off a command line:
 * each argument's numeric value, the size of each file named, the stdin's size and the total.
 * It sees neither the program nor the files' contents, which is what mantis's features add.
 * Invariant: feature j is descriptor j (descriptor.h: the sizes, descriptor_sizes), named
 * descriptor_name(j), in every model this file fits.
 */
#include "blackbox.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "descriptor.h"
#include "fit.h"
#include "inputs.h"
#include "model.h"
#include "prep.h"
#include "util.h"

int blackbox_fit(const struct input *const *in, const double *y, int n, const char *metric,
		 struct model *model, struct error *err)
{
	struct dataset ds = {0};
	struct fit_options fo = fit_options_default();
	struct prep pr;
	double row[DESCRIPTOR_SIZES];
	int rc;

	ds.n = n;
	ds.p = DESCRIPTOR_SIZES;
	ds.metric = xstrdup(metric);
	ds.names = xcalloc(DESCRIPTOR_SIZES, sizeof *ds.names);
	ds.ids = xcalloc((size_t)n + 1, sizeof *ds.ids);
	ds.x = xcalloc((size_t)n * DESCRIPTOR_SIZES + 1, sizeof *ds.x);
	ds.y = xcalloc((size_t)n + 1, sizeof *ds.y);
	for (int j = 0; j < DESCRIPTOR_SIZES; j++)
		ds.names[j] = descriptor_name(j);
	for (int i = 0; i < n; i++) {
		ds.ids[i] = xasprintf("row %d", i + 1);
		ds.y[i] = y[i];
		descriptor_sizes(in[i], row);
		for (int j = 0; j < DESCRIPTOR_SIZES; j++)
			ds.x[(size_t)j * (size_t)n + (size_t)i] = row[j];
	}
	fo.train_frac = 1;
	rc = fit_model(&ds, &fo, model, &pr, err);
	if (rc == 0)
		prep_release(&pr);
	dataset_release(&ds);
	return rc;
}

double blackbox_predict(const struct model *model, const struct input *in)
{
	double row[DESCRIPTOR_SIZES], v;
	double *values = xcalloc((size_t)model->nfeatures + 1, sizeof *values);

	descriptor_sizes(in, row);
	for (int f = 0; f < model->nfeatures; f++) {
		int j = descriptor_find(model->features[f].name);

		assert(j >= 0); /* blackbox_fit names every feature so */
		values[f] = row[j];
	}
	v = model_eval(model, values);
	free(values);
	return v;
}
