/*
 * report.h: a predictor's report (mantis report): one self-contained HTML page (inline CSS and
 * SVG, no script, no other file) that shows what PRED holds and how well it predicts.
 */
#ifndef MANTIS_REPORT_H
#define MANTIS_REPORT_H

struct dataset;
struct error;
struct model;
struct strbuf;

/* One point of the learning curve: the final model's features refitted on k samples. */
struct curve_point {
	int k;         /* training samples of the refit (the pool's first k) */
	double mre;    /* its mean relative error on the test samples; NaN when the fit failed */
	char *failure; /* why the fit failed, or NULL; owned */
};

/* Error against training-set size. */
struct curve {
	int n;                  /* points, k ascending */
	struct curve_point *v;  /* owned */
};

/*
 * Refits final's features (same algorithm, degree, fit criterion and cross-validation folds) on
 * the first k rows of pool for k = 5, 10, 20, ... and pool->n, and measures each fit on every
 * row of test. pool and test hold final's features as columns (any order) and the metric as y.
 * Fills *out (release with curve_release). Returns 0, or -1 with err set when final cannot be
 * refitted (a constant model) or test has no rows.
 */
int report_curve(const struct model *final, const struct dataset *pool, const struct dataset *test,
		 struct curve *out, struct error *err);
/* Frees what c owns and zeroes it. */
void curve_release(struct curve *c);

/* Appends s to sb with &, <, >, " and ' written as HTML character references. */
void report_escape(struct strbuf *sb, const char *s);

/*
 * Writes the report of the predictor directory dir to path: the model with each feature's
 * source, predicted against actual (from dir/eval.json, when mantis eval wrote it), the
 * learning curve, the feedback loop's rounds and early rejections (dir/train.json), the
 * evaluator's cost. Returns 0, or -1 with err naming the file at fault.
 */
int report_write(const char *dir, const char *path, struct error *err);

#endif
