/*
 * store.h: the profile database (SQLite): who the program is, its inputs, and every finished
 * run with its measurements and, for feature runs, its raw counters. Schema: docs/ARCHITECTURE.md
 * ("profile.db").
 */
#ifndef MANTIS_STORE_H
#define MANTIS_STORE_H

#include <stdint.h>

struct dataset;
struct error;
struct inputs;
struct manifest;
struct run_result;

/* An open profile database. */
struct store {
	struct sqlite3 *db; /* the connection; owned */
	char *path;         /* its file, for messages; owned */
};

/* What a profile is of: a new profile records it, a resumed one must match it. */
struct store_identity {
	char build_id[17];     /* features.json's build id */
	char orig_hash[17];    /* hash of DIR/orig */
	char inst_hash[17];    /* hash of DIR/inst */
	char inputs_hash[17];  /* hash of the inputs file's text */
};

/* Counts for --status. */
struct store_status {
	int inputs;         /* inputs recorded */
	int complete;       /* inputs with an ok feature run and `repeat` ok timing runs */
	int failed;         /* inputs with a run that crashed, timed out or exited non-zero */
	int pending;        /* inputs still missing runs */
	int mismatched;     /* inputs whose feature run ended unlike their timing runs (status or
			     * exit code): the instrumented build was not transparent */
	int repeat;         /* timing runs per input */
	int runs[4];        /* runs by status: ok, nonzero, crash, timeout (recheck runs too) */
	int rechecked;      /* recheck runs: DIR/inst a second time on one input (profile.h) */
	double noise_floor; /* mean |rep - median of the other reps| / median, over complete inputs */
	double median_cv;   /* median over complete inputs of the timing coefficient of variation */
	double paced_cv;    /* the median CV (over inputs with two ok runs) of the wall times with
			     * the machine's pace divided out (pace.h); NaN when no input has two */
	int paced;          /* 1 when that is below PACE_GAIN times the raw runs' median CV: training
			     * then uses the divided times */
};

/* Returns a 16-hex-digit FNV-1a hash of a file's bytes into out. Returns 0 or -1. */
int store_hash_file(const char *path, char out[17], struct error *err);

/*
 * Opens (create: making it if missing) the database at path, in WAL mode. Returns 0, or -1 if it
 * cannot be opened or is not a mantis profile (a corrupt file is reported, never changed).
 */
int store_open(struct store *st, const char *path, int create, struct error *err);
/* Closes the connection. */
void store_close(struct store *st);

/*
 * For a new database: records the identity, the repeat count, the metric, the manifest's
 * feature names and the exit codes the runs are judged by (runner_ok_exits, meta "ok_exits").
 * For an existing one: checks that id, the repeat count and those codes match and returns -1
 * saying what changed.
 */
int store_begin(struct store *st, const struct store_identity *id, int repeat,
		const struct manifest *m, const char *inputs_path, struct error *err);

/* Sets meta[key] = value (the profile's recorded environment, default metric...). */
int store_set_meta(struct store *st, const char *key, const char *value, struct error *err);
/* Returns meta[key] (owned by the caller) or NULL. */
char *store_get_meta(struct store *st, const char *key);

/* Records ins (new inputs are added; known ones keep their ids) and fills ids[i] for each. */
int store_add_inputs(struct store *st, const struct inputs *ins, int64_t *ids, struct error *err);

/* Returns whether run (input, kind, rep) is recorded: 1 yes, 0 no, -1 error. */
int store_has_run(struct store *st, int64_t input, const char *kind, int rep, struct error *err);

/*
 * Records one finished run in one transaction: its result, the head of its stderr (or NULL), and
 * for a feature run its counters (NULL if it wrote none). A run already recorded is left alone.
 */
int store_add_run(struct store *st, int64_t input, const char *kind, int rep,
		  const struct run_result *res, const char *stderr_head, const uint64_t *counters,
		  int ncounters, struct error *err);

/* Returns the wall time of run (input, kind, rep) if it is recorded as ok, or NaN. */
double store_run_wall(struct store *st, int64_t input, const char *kind, int rep);

/* A feature that took two values on two runs of the instrumented build on one input. */
struct store_unstable {
	int feature;          /* its index in the manifest */
	int line;             /* the input's line in the inputs file: the first such input */
	double first, second; /* its value on the feature run, on the recheck run */
};
/*
 * Compares every recheck run (a feature run with rep > 0, profile.h) that ended ok with the
 * input's first feature run: fills *out (owned by the caller; NULL when none) with each feature
 * of m whose value differs on some input, and *compared with the number of inputs compared.
 * Returns how many features differ, or -1 with err set.
 */
int store_unstable_features(struct store *st, const struct manifest *m, struct store_unstable **out,
			    int *compared, struct error *err);

/* Fills *out. Returns 0 or -1. */
int store_status(struct store *st, struct store_status *out, struct error *err);

/*
 * Loads complete inputs as a dataset: metric is wall, cpu, user, sys (the median over timing
 * runs, each divided by the machine's pace of the moment where that lowers their spread:
 * pace.h), maxrss (the median over timing runs) or instructions
 * (bycount:(program):-:0:total of the feature run); the features
 * are all of m's, computed from the stored counters. *excluded receives how many inputs were
 * left out (incomplete or failed). Returns 0 or -1.
 */
int store_load(struct store *st, const struct manifest *m, const char *metric,
	       struct dataset *ds, int *excluded, struct error *err);

/* The complete inputs of a profile (as store_load selects them), in input order. */
struct store_samples {
	int n;               /* number of inputs */
	char **text;         /* per input, its text as recorded; owned */
	int *line;           /* its line in the inputs file it came from */
	uint64_t **counters; /* its feature run's counters (the manifest's ncounters); owned */
	double *wall;        /* median wall time of its timing runs (paced, as store_load's) */
	double *metric;      /* its value of the metric asked for (as store_load's y) */
};
/*
 * Loads the complete inputs with their raw counters, median wall time and metric (see
 * store_load). Returns 0 or -1 with err set; the caller releases *out with store_samples_release.
 */
int store_load_samples(struct store *st, const struct manifest *m, const char *metric,
		       struct store_samples *out, int *excluded, struct error *err);
/* Keeps the inputs of s whose line is one of lines[0..nlines), in their order, freeing the
 * others; fills rows (when not NULL; s->n entries) with each kept input's former index.
 * Returns how many it kept. */
int store_samples_keep_lines(struct store_samples *s, const int *lines, int nlines, int *rows);
/* Frees what s owns and zeroes it. */
void store_samples_release(struct store_samples *s);
/* Copies every input and run of the databases srcs[0..nsrc) into dst (same program). */
int store_merge(struct store *dst, char *const *srcs, int nsrc, struct error *err);

#endif
