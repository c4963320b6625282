/*
 * learn.h: the learners. Each fits metric ~ intercept + sum of coef * monomial over the columns
 * of a scaled design matrix; fit.c turns the result into a model in original units.
 *
 * Weighted least squares underlies all of them: weights 1/y^2 make the criterion the relative
 * error (timing noise is multiplicative), weights 1 the plain squared error.
 */
#ifndef MANTIS_LEARN_H
#define MANTIS_LEARN_H

#include "model.h"

struct error;
struct lasso_path;

/* The training data a learner sees. */
struct learn_problem {
	int n;           /* rows */
	int k;           /* design columns (candidate features, scaled) */
	const double *x; /* n*k column-major design */
	const double *y; /* n responses */
	const double *w; /* n positive weights */
};

struct learn_trace;

/* Settings shared by the learners; each reads the ones it needs. */
struct learn_options {
	int degree;        /* highest total degree of a term (SPORE) */
	double epsilon;    /* FoBa: admit a term if it cuts RSS by more than epsilon * sum w y^2 */
	double nu;         /* FoBa: drop a term costing less than nu * the last gain (0.5) */
	int max_features;  /* most distinct features in a model */
	int max_terms;     /* most terms in a model */
	struct learn_trace *trace; /* if set: record every candidate model met on the way (FoBa
				    * then stops only at max_terms), for learn_choose_by_cv */
};

/* A fitted model over design columns. */
struct learn_result {
	double b0;                /* intercept */
	int nterms;               /* number of terms */
	struct monomial *terms;   /* monomials over design column indices; owned */
	double *coef;             /* nterms coefficients in design units; owned */
	int path_points;          /* solutions considered (for the log) */
};

/* The candidate models (term sets, no coefficients) a learner met, without repeats. */
struct learn_trace {
	int n;                    /* candidates */
	int cap;                  /* allocated */
	struct learn_result *v;   /* their terms; owned */
};

/* Records a candidate made of terms[0..nterms) unless it is already there (any order). */
void learn_trace_add(struct learn_trace *tr, const struct monomial *terms, int nterms);
/* Frees what *tr owns. */
void learn_trace_release(struct learn_trace *tr);
/*
 * Chooses among the candidates of tr (and the constant model) by folds-fold cross-validation:
 * rows are dealt into folds by a shuffle seeded with seed; each candidate is refitted by
 * weighted least squares on all folds but one and scored by the weighted squared error on
 * that one; the winner is the candidate with the fewest terms whose score is within one
 * standard error of the best (the one-standard-error rule). It goes, refitted on all rows, to
 * *res (caller releases). Returns 0 or -1.
 */
int learn_choose_by_cv(const struct learn_problem *pb, const struct learn_trace *tr, int folds,
		       unsigned long seed, struct learn_result *res, struct error *err);

/* Ordinary (weighted) least squares on every column, linear. */
int learn_ols(const struct learn_problem *pb, struct learn_result *res, struct error *err);
/* Linear LASSO; lambda chosen by AIC = n log(RSS) + 2 df. */
int learn_lasso(const struct learn_problem *pb, const struct learn_options *opt,
		struct learn_result *res, struct error *err);
/* Zhang's FoBa over linear terms (spore = 0) or SPORE-FoBa over monomials (spore = 1). */
int learn_foba(const struct learn_problem *pb, const struct learn_options *opt, int spore,
	       struct learn_result *res, struct error *err);
/* SPORE-LASSO (Algorithm 1 of Huang et al. 2010); lambda1, lambda2 chosen by AIC. */
int learn_spore_lasso(const struct learn_problem *pb, const struct learn_options *opt,
		      struct learn_result *res, struct error *err);

/* Fills col[0..n) with the monomial's values on the design rows. */
void learn_monomial_column(const struct learn_problem *pb, const struct monomial *m, double *col);
/* Refits the result's coefficients by weighted least squares on its terms. Returns 0 or -1. */
int learn_refit(const struct learn_problem *pb, struct learn_result *res, struct error *err);
/* Appends a term to the result (coefficient 0). */
void learn_result_add(struct learn_result *res, const struct monomial *m, double coef);
/* Returns sum w (y - ybar)^2 with ybar the weighted mean of y (stored in *ybar). */
double learn_weighted_tss(const struct learn_problem *pb, double *ybar);
/* Returns the path index with the smallest AIC = n log(RSS + rss_floor) + 2 df. */
int learn_aic_best(const struct lasso_path *path, int n, double rss_floor);
/* Frees what *res owns and zeroes it. */
void learn_result_release(struct learn_result *res);

#endif
