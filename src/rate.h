/*
 * rate.h: the rate learner (mantis model --algo rate; train's "input features' rate"
 * candidate): the metric as a size times a rate, the rate read off the training inputs nearest
 * in a few features chosen by cross-validation (model.h, struct model_rate).
 */
#ifndef MANTIS_RATE_H
#define MANTIS_RATE_H

struct dataset;
struct error;
struct model;

#define RATE_MAX_K 3    /* neighbours tried: 1 to this */
#define RATE_MAX_AXES 6     /* most features in the distance */
#define RATE_MAX_COLUMNS 64 /* most features it chooses among */
#define RATE_BAG 16         /* a time's rate: choices on bootstraps averaged with the one on
			     * every row (rate.c, bag) */

/*
 * Fits a rate model of ds->y on the rows rows[0..n) of ds, over the columns usable[0..nusable)
 * (the caller's choice: not excluded, not constant), into model->features, model->rate (the
 * training rows' coordinates and log rates) and a zero intercept; the caller fills the rest.
 * group (per row of ds; NULL: each row its own) holds out the rows of a group together when
 * the learner judges itself, as inputs that share a data file err alike. With per_count (a
 * time, ds->count the program's instructions), the rate is of the instructions over the scale
 * and model->rate.per_count a second, of the time an instruction over the same scale, each
 * with the axes its own forward selection chose (model.h). Returns 0, or -1 with err set when
 * y (or the count) is not positive on every row, no usable column is (no scale), more than
 * RATE_MAX_COLUMNS are usable, or per_count is asked without a count.
 */
int rate_learn(const struct dataset *ds, const int *rows, int n, const int *group,
	       const int *usable, int nusable, int per_count, struct model *model,
	       struct error *err);

/*
 * Fits, for a time whose polynomial model (in model) is of the program's instructions
 * (ds->count), the time an instruction as rate_learn's second rate: model->rate.per_count,
 * over the scale among usable[0..nusable) (for its slope) and the axes its forward selection
 * chose, adding the features it reads to model->features; model->rate keeps no point of its
 * own (model.h). Returns 0, or -1 with err set as rate_learn's (the count's or the time's not
 * positive, no positive column, too many columns, no count).
 */
int rate_learn_per_count(const struct dataset *ds, const int *rows, int n, const int *group,
			 const int *usable, int nusable, struct model *model, struct error *err);

#endif
