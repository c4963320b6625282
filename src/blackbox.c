/*
 * blackbox.c: the black-box baseline (000_ section 6, "BB"): SPORE-FoBa (spore.c, the same
 * learner as mantis's own models) over features any scheduler can read off a command line:
 * each argument's numeric value, the size of each file named, the stdin's size and the total.
 * It sees neither the program nor the files' contents, which is what mantis's features add.
 * Invariant: feature j is called feature_name(j) in every model this file fits.
 */
#include "blackbox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dataset.h"
#include "fit.h"
#include "inputs.h"
#include "model.h"
#include "prep.h"
#include "util.h"

/* Returns feature j's name, owned by the caller. */
static char *feature_name(int j)
{
	if (j < BLACKBOX_ARGS)
		return xasprintf("arg%d", j + 1);
	if (j < 2 * BLACKBOX_ARGS)
		return xasprintf("size(arg%d)", j - BLACKBOX_ARGS + 1);
	return xstrdup(j == 2 * BLACKBOX_ARGS ? "size(stdin)" : "size(all files)");
}

/* Returns the size of the file at path, 0 if it is not a regular file. */
static double file_size(const char *path)
{
	struct stat st;

	return path && stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (double)st.st_size : 0;
}

void blackbox_features(const struct input *in, double *row)
{
	memset(row, 0, sizeof *row * BLACKBOX_P);
	for (int i = 0; i < in->argc; i++) {
		const char *eq = strchr(in->argv[i], '=');
		double size = file_size(in->argv[i]) + (eq ? file_size(eq + 1) : 0);
		char *end;
		double v = strtod(in->argv[i], &end);

		if (i < BLACKBOX_ARGS) {
			row[i] = *end == '\0' && end != in->argv[i] ? v : 0;
			row[BLACKBOX_ARGS + i] = size;
		}
		row[BLACKBOX_P - 1] += size;
	}
	row[2 * BLACKBOX_ARGS] = file_size(in->stdin_path);
	row[BLACKBOX_P - 1] += row[2 * BLACKBOX_ARGS];
}

int blackbox_fit(const struct input *const *in, const double *y, int n, const char *metric,
		 struct model *model, struct error *err)
{
	struct dataset ds = {0};
	struct fit_options fo = fit_options_default();
	struct prep pr;
	double row[BLACKBOX_P];
	int rc;

	ds.n = n;
	ds.p = BLACKBOX_P;
	ds.metric = xstrdup(metric);
	ds.names = xcalloc(BLACKBOX_P, sizeof *ds.names);
	ds.ids = xcalloc((size_t)n + 1, sizeof *ds.ids);
	ds.x = xcalloc((size_t)n * BLACKBOX_P + 1, sizeof *ds.x);
	ds.y = xcalloc((size_t)n + 1, sizeof *ds.y);
	for (int j = 0; j < BLACKBOX_P; j++)
		ds.names[j] = feature_name(j);
	for (int i = 0; i < n; i++) {
		ds.ids[i] = xasprintf("row %d", i + 1);
		ds.y[i] = y[i];
		blackbox_features(in[i], row);
		for (int j = 0; j < BLACKBOX_P; j++)
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
	double row[BLACKBOX_P], *values = xcalloc((size_t)model->nfeatures + 1, sizeof *values), v;

	blackbox_features(in, row);
	for (int f = 0; f < model->nfeatures; f++) {
		for (int j = 0; j < BLACKBOX_P; j++) {
			char *name = feature_name(j);

			if (strcmp(name, model->features[f].name) == 0)
				values[f] = row[j];
			free(name);
		}
	}
	v = model_eval(model, values);
	free(values);
	return v;
}
