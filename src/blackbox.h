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

enum {
	BLACKBOX_ARGS = 16,                   /* argument positions looked at */
	BLACKBOX_P = 2 * BLACKBOX_ARGS + 2,   /* features: value and file size per position, the
					       * stdin's size, all files' bytes */
};

/*
 * Fills row[0..BLACKBOX_P) with in's features: per argument position its numeric value (0 if
 * not a number) and the size of the file it names (0 if none), the size of its stdin, and the
 * bytes of every file it names together.
 */
void blackbox_features(const struct input *in, double *row);
/*
 * Fits the baseline (SPORE-FoBa, degree 3, all rows) on in[0..n) with metric values y[0..n).
 * Returns 0 with *model filled (release with model_release), or -1 with err set.
 */
int blackbox_fit(const struct input *const *in, const double *y, int n, const char *metric,
		 struct model *model, struct error *err);
/* Returns the baseline's prediction for in. */
double blackbox_predict(const struct model *model, const struct input *in);
#endif
