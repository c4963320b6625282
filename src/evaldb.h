/*
 * evaldb.h: PRED/eval.db (SQLite), every input mantis eval has measured, so that nothing
 * measured is lost: an interrupted eval resumes where it stopped, and running it again on the
 * same inputs reuses the measurements instead of repeating hours of runs. Schema:
 * docs/ARCHITECTURE.md ("eval.db").
 */
#ifndef MANTIS_EVALDB_H
#define MANTIS_EVALDB_H

struct error;
struct input;

/* The predictions eval compares with the actual value: mantis's and the baselines'. */
enum {
	BY_MANTIS,     /* the predictor */
	BY_LINEAR,     /* Mantis-linear: its features, degree 1 (baseline.h) */
	BY_PARTIAL,    /* partial execution: the model at the features' final values */
	BY_BOUNDED,    /* bounded execution: the model at the features counted within budget */
	BY_BLACKBOX,   /* black box: SPORE over arguments and file sizes (blackbox.h) */
	NPREDICTORS
};

/* What eval measured on one input. */
struct eval_sample {
	int line;          /* its line in the inputs file */
	int ok;            /* 1 if both the program and the predictor ran */
	double actual;     /* A: the metric, median of the first K runs (or the exact count) */
	double again;      /* a second measurement of A (median of the other K runs) */
	double by[NPREDICTORS];   /* E per predictor; NaN where that one has none */
	double cost[NPREDICTORS]; /* per predictor, its time / the program's wall time */
	double start_cost; /* the evaluator's start-up alone / the program's wall time: the floor
			      of cost[BY_MANTIS]; 0 without an evaluator, NaN if not measured */
	double call_cost;  /* the prediction command as a scheduler runs it (mantis-predict PRED
			      ... -- ARGS: its start, reading the predictor, the evaluator and the
			      model; one run) / the program's wall time; NaN if not measured */
	double inproc_cost; /* the prediction with the evaluator's shared-object form run in a
			       host's process (PRED/evaluator.so, mantis-host, warm: solib.h) in
			       place of its process / the program's wall time; NaN if not measured
			       (no such form, or it failed) */
	double drift;      /* the machine's drift when it was measured (drift.h: the reference
			      inputs' time then / their profiled time, interpolated between the
			      checks before and after it); NaN if not measured */
	const struct model *model; /* the model that predicted it: the predictor's, or its gated
				    * one's (predictor_choose); borrowed, set by eval, not stored */
	int nfeatures;     /* that model's features */
	double *features;  /* nfeatures: their values as the evaluator computed them; owned */
	int warned;        /* a feature was outside its training range */
	int baselines;     /* the baselines were measured (by[] beyond BY_MANTIS) */
	char *why;         /* why it is not ok; owned, NULL when ok */
};

/* An open eval.db, for one predictor and one way of measuring. */
struct evaldb {
	struct sqlite3 *db; /* the connection; owned */
	char *path;         /* PRED/eval.db, for messages; owned */
	char *predictor;    /* the predictor's identity: hashes of what it is made of; owned */
	char *setting;      /* how eval measures (metric, repeat, timeout, budget); owned */
};

/*
 * Opens PRED/eval.db (made if missing) for the predictor in pred, measured as setting says (a
 * measurement made otherwise, or of a predictor trained again, is never reused, but is kept).
 * Returns 0, or -1 with err set (the file cannot be opened or is not an eval database).
 */
int evaldb_open(struct evaldb *e, const char *pred, const char *setting, struct error *err);
/*
 * Looks for the measurement of in (its words, stdin and the size and time of the files it
 * names); with baselines, only one that has them. Returns 1 and fills *s (nfeatures must be
 * set: the model's; s->features allocated, owned by the caller), 0 if there is none, -1 on a
 * database error.
 */
int evaldb_get(struct evaldb *e, const struct input *in, int baselines, struct eval_sample *s,
	       struct error *err);
/* Records s as the measurement of in (replacing an earlier one), in one transaction. Returns 0
 * or -1. */
int evaldb_put(struct evaldb *e, const struct input *in, const struct eval_sample *s,
	       struct error *err);
/* Closes e. */
void evaldb_close(struct evaldb *e);

#endif
