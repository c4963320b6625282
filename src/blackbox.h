/*
 * blackbox.h: the black-box baseline of the papers' evaluation (000_ section 6): a model of the
 * metric over what can be seen of an input without looking into the program: its numeric
 * arguments and the sizes of the files it names.
 */
#ifndef MANTIS_BLACKBOX_H
#define MANTIS_BLACKBOX_H
struct error;
struct input;
struct model;

/*
 * Fits the baseline (SPORE-FoBa, degree 3, all rows) on in[0..n) with metric values y[0..n).
 * Returns 0 with *model filled (release with model_release), or -1 with err set.
 */
int blackbox_fit(const struct input *const *in, const double *y, int n, const char *metric,
		 struct model *model, struct error *err);
/* Returns the baseline's prediction for in. */
double blackbox_predict(const struct model *model, const struct input *in);
#endif
