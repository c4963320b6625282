/*
 * predictor.h: a trained predictor (the directory mantis train writes) and a prediction on one
 * input: run the evaluator, read the features it computed, evaluate the model.
 *
 *   PRED/predictor.json  what was trained: metric, features, evaluator, its cost, threshold
 *   PRED/model.json      the model (model.h), over the features below
 *   PRED/features.json   the build's manifest cut to the features the model reads or
 *                        extrapolates (manifest_subset); absent before it existed: then
 *                        build/features.json
 *   PRED/evaluator       the executable slice computing the program's features among them
 *                        (absent when the model reads none: a constant, or input features only)
 *   PRED/build/          the instrumented program (mantis instrument), its profile.db, and
 *                        sampled.db (the training inputs' sampled runs, sampler.h)
 *   PRED/train.json      the iteration log of the feedback loop
 *   PRED/long/           with a gate (predictor.json's "gate"), a predictor of its own for the
 *                        inputs PRED's model predicts at or above the gate's value: trained
 *                        on the training inputs predicted so, where the samples are cheap
 *                        (train.c, gate_long_inputs); its build is PRED/build
 */
#ifndef MANTIS_PREDICTOR_H
#define MANTIS_PREDICTOR_H
#include <jansson.h>
#include <stdint.h>

#include "inputs.h"
#include "manifest.h"
#include "model.h"
#include "sampler.h"
#include "store.h"

struct error;

#define PREDICTOR_GATED "long" /* the gated predictor's folder in PRED */

/* What predictor.json records beside the model. */
struct predictor_info {
	char *metric;      /* the modeled metric (wall, cpu, instructions...); owned */
	double threshold;  /* largest evaluator cost accepted in training (share of program time) */
	double cost;       /* the evaluator's mean cost on the training inputs (0 without one) */
	int ntrain;        /* training inputs the model was fitted on */
	int iterations;    /* rounds of the feedback loop */
	int has_evaluator; /* 1 if PRED/evaluator exists (the model reads a program feature) */
	struct sampler_plan plan; /* how the input is sampled when the model reads sampled
				   * features (sampler.h), else npositions 0; owned when read */
	double sampled_cost; /* the sampled runs' mean cost on the training inputs (0: none) */
	uint64_t ok_exits;   /* exit codes besides 0 that are the program's success (train's
			      * --ok-exit; runner.h): predictor_open makes them the process's */
	char *sampled_program; /* what runs on the samples, relative to PRED ("build/sandboxed",
				* or "sampled-evaluator": a slice for the features sampled), or NULL;
				* owned when read */
	double gate;          /* with a gated predictor (PRED/long), the least prediction of this
			       * model (which reads input features alone) for which it predicts
			       * instead; 0: no gate */
	int has_inproc;       /* 1 if PRED/evaluator.so, the evaluator's shared-object form
			       * (solib.h), was built and validated in training */
	double inproc_cost;   /* its mean cost there, warm (a host's second run) */
	double inproc_cold_cost; /* ... and cold (its first) */
	int has_sampled_inproc;  /* 1 if PRED/sampled-evaluator.so, the sampled evaluator's
				  * shared-object form, was built and validated in training */
	double sampled_inproc_cost; /* the two runs' mean cost with it hosted, warm */
};

/* A predictor opened for predictions. */
struct predictor {
	char *dir;                  /* PRED; owned */
	struct predictor_info info; /* predictor.json */
	struct model model;         /* model.json */
	struct manifest m;          /* PRED/features.json: how the counters make the features */
	struct manifest counted;    /* PRED/instructions.json, read by predictor_open for an
				     * instruction-count predictor whose m lacks the count
				     * (predictor_counting); else empty */
	int *feature;               /* per model feature, its index in m, or -1; owned */
	int *descriptor;            /* per model feature, its input feature (descriptor.h), or -1;
				     * owned */
	int *sampled;               /* per model feature that is sampled (sampler.h), the index in
				     * m of the feature it extrapolates, or -1; exactly one of
				     * feature[i], descriptor[i] and sampled[i] is not -1; owned */
	int nprogram;               /* model features the evaluator computes (feature[i] >= 0) */
	int nsampled;               /* sampled model features (sampled[i] >= 0) */
	char *evaluator;            /* PRED/evaluator, or NULL; owned */
	char *hosted;               /* PRED/evaluator.so when predictor_host made the evaluator
				     * run in this process, else NULL; owned */
	int tainted;                /* a run in this process (of hosted or sampler_hosted) crashed
				     * or ran over its budget: this process's state is unknown
				     * (solib.h), and it should end */
	char *sandboxed;            /* PRED/build/sandboxed when nsampled > 0, else NULL: the build
				     * training's sampled runs (sampled.db) are of; owned */
	char *sampler;              /* what runs on the samples (predictor.json's "program"):
				     * PRED/sampled-evaluator or PRED/build/sandboxed; owned */
	char *sampler_hosted;       /* PRED/sampled-evaluator.so when predictor_host made the
				     * samples' runs run in this process, else NULL; owned */
	struct predictor *gated;    /* PRED/long when info.gate > 0 (opened lazily: when an input
				     * is first gated), else NULL; owned */
	int lazy;                   /* opened by predictor_open_to_predict: reads only what
				     * predictions need */
};

/* The training inputs of a predictor, as its profile recorded them. */
struct predictor_training {
	struct store_samples s;       /* the profile's complete inputs: counters and metric */
	struct inputs ins;            /* the training inputs file (train.json's), when loaded */
	const struct input **input;   /* per sample, its input in ins, or NULL when ins was not
				       * needed (the model reads no input or sampled feature); owned
				       * array */
	struct sampled_run *sampled;  /* per sample, its sampled runs as training recorded them
				       * (PRED/build/sampled.db) when the model reads sampled
				       * features, else NULL; owned */
};

/* One prediction. */
struct prediction {
	double value;    /* predicted metric, in its units (seconds for times) */
	double *values;  /* per model feature, its value on the input; owned */
	int nvalues;     /* model features */
	double seconds;  /* wall time of computing the features (the evaluator run, the input
			  * features, the samples and their runs) */
	double evaluator_seconds; /* of that, the evaluator's run (0 without one) */
	double sampled_seconds;   /* ... and the samples' making and runs (0 without them) */
	char *warning;   /* features outside their training range, a prediction raised to the
			  * model's floor: one sentence, or NULL; owned */
	const struct predictor *by; /* the predictor whose model values[] and value are of: the one
				     * run, or its gated predictor (predictor_choose); borrowed */
};

/* Returns the manifest by which p's training runs are read: p->counted when it has the
 * instruction count (MANIFEST_INSTRUCTIONS), else p->m (for a time, or a predictor trained before
 * PRED/instructions.json: the count is there, or nowhere when the build has no bycount
 * scheme); borrowed from p. Both are of the same build, with the same counters. */
const struct manifest *predictor_counting(const struct predictor *p);

struct run_result;
struct solib_form;
/*
 * Runs exe (an evaluator or an instrumented build) on in, killed after timeout seconds (0:
 * none), with MANTIS_COUNTERS and MANTIS_READ_FAILURES set to files of a temporary folder.
 * Fills *res; *counters gets what it wrote (m->ncounters values, owned by the caller), or NULL
 * (always, when m is NULL: a program without counters);
 * *unreadable (if not NULL) the first file the input names that it could not open for reading
 * (owned by the caller) or NULL. Returns 0 when it ran, whatever its status, or -1 with err set
 * when it could not be started.
 * An exe asked for what it could not read (unreadable not NULL) is sandboxed (rt/sandbox.c:
 * what it writes lives in its memory), so its scratch folder, which stays empty, is made
 * beside its counters, in memory where the machine has /dev/shm: on this machine's
 * disk-backed /tmp making and removing it took 0.5-0.7 ms of a 3 ms run of bzip2's samples.
 */
int predictor_measure(const char *exe, const struct input *in, double timeout,
		      const struct manifest *m, struct run_result *res, uint64_t **counters,
		      char **unreadable, struct error *err);
/* As predictor_measure, with the build's shared-object form so (solib.h) run by host
 * (mantis-host, a process that hosts it: a crash is the host's), twice: res->wall is the
 * second run's own in-process time as the host measured it (warm: no process start, the
 * host's memory touched once), or the first's when that is less (a preempted run), *cold the
 * first's (NaN when the host did not run it twice: it crashed or timed out); the rest as the
 * host ended. No unreadable files are told. */
int predictor_measure_hosted(const char *host, const char *so, const struct input *in,
			     double timeout, const struct manifest *m, struct run_result *res,
			     double *cold, uint64_t **counters, struct error *err);
/* As predictor_measure, run as form says (solib.h; NULL: as a process): its shared-object form
 * hosted by mantis-host (predictor_measure_hosted: its warm run's time; no unreadable file told)
 * or in this process (solib_run). */
int predictor_measure_form(const char *exe, const struct solib_form *form, const struct input *in,
			   double timeout, const struct manifest *m, struct run_result *res,
			   uint64_t **counters, char **unreadable, struct error *err);
/* As predictor_measure, with extra_env's NAME=VALUE strings (at most 13, NULL-ended; may be NULL)
 * added to the environment. */
int predictor_measure_env(const char *exe, const struct input *in, double timeout,
			  char *const *extra_env, const struct manifest *m, struct run_result *res,
			  uint64_t **counters, char **unreadable, struct error *err);
/*
 * The start-up of p's evaluator on in, and of the two runs of the sandboxed program when it
 * reads sampled features: the median wall time of runs that end as the process starts
 * (MANTIS_EVALUATOR_START_ONLY, rt/sandbox.c), the floor under its cost. Returns 0 and sets
 * *seconds (0 without either; NaN for an evaluator built before it knew the variable, which
 * runs to its end), or -1 with err set.
 */
int predictor_start_seconds(const struct predictor *p, const struct input *in, double *seconds,
			    struct error *err);
/* Writes PRED/predictor.json. Returns 0 or -1 with err set. */
int predictor_write_info(const char *dir, const struct predictor_info *info, struct error *err);
/*
 * Opens the predictor in dir: reads predictor.json, model.json and the manifest and checks that
 * they agree, and makes the program's exit codes of success the process's (runner_set_ok_exits:
 * every run after it is of this predictor's program). Returns 0, or -1 with err naming the file
 * at fault; release with predictor_release.
 */
int predictor_open(struct predictor *p, const char *dir, struct error *err);
/*
 * As predictor_open, reading only what predictions need, for a command that predicts one input
 * and exits: the manifest only when the model reads program or sampled features (a model of
 * input features alone needs none; a gzip manifest takes 16 million instructions to read), and
 * PRED/long only when predictor_run first gates an input there. Such a p serves predictor_run
 * alone.
 */
int predictor_open_to_predict(struct predictor *p, const char *dir, struct error *err);
/*
 * Makes p (opened by predictor_open) and its gated predictor run their evaluators' shared-object
 * forms (PRED/evaluator.so, solib.h) in this process: no process start per prediction, for a
 * caller that predicts one input after another; and the samples' runs too where they run
 * PRED/sampled-evaluator and training validated its form (sampled-evaluator.so; else they run as
 * processes). After a prediction whose run in this process crashed or ran over its budget,
 * p->tainted (or p->gated's) is set. Returns 0 (also when p has no evaluator), or -1 with err
 * saying why the evaluator has no such form (the samples' runs are then hosted all the same
 * where they can be).
 */
int predictor_host(struct predictor *p, struct error *err);
/*
 * Returns the predictor that predicts in: p->gated when p has a gate and p's model (input
 * features alone, read here with no evaluator) predicts at least the gate on in, else p.
 * Borrowed from p, which predictor_open opened.
 */
const struct predictor *predictor_choose(const struct predictor *p, const struct input *in);
/*
 * Predicts in's metric: runs the evaluator on in (scratch folder, no side effects) killed after
 * timeout seconds (0: none), and PRED/build/sandboxed on the samples of in when the model reads
 * sampled features, and evaluates the model; through p->gated when predictor_choose says so
 * (out->by tells; opened then if p was opened lazily). Returns 0 with *out filled (release with
 * prediction_release), or -1 with err saying why there is no prediction: an input file that
 * cannot be read, an evaluator that failed, timed out or did not write its features.
 */
int predictor_run(struct predictor *p, const struct input *in, double timeout,
		  struct prediction *out, struct error *err);
/*
 * Fills values[0..model features) with the model's features: the program's from counters (the
 * manifest's ncounters; may be NULL when p->nprogram is 0), the input features from in (may be
 * NULL when the model reads none), the sampled ones from sampled, or when sampled is NULL the
 * exact value from counters of the feature each extrapolates (what partial and bounded
 * execution read).
 */
void predictor_values(const struct predictor *p, const struct input *in, const uint64_t *counters,
		      const struct sampled_run *sampled, double *values);
/*
 * Loads p's training inputs into *tr: PRED/build/profile.db's complete inputs and, when
 * with_inputs or when the model reads an input feature, train.json's inputs file matched with
 * them by line. Returns 0, or -1 with err naming the file at fault; release *tr with
 * predictor_training_release.
 */
int predictor_training_load(const struct predictor *p, int with_inputs,
			    struct predictor_training *tr, struct error *err);
void predictor_training_release(struct predictor_training *tr);
/*
 * Returns pr, a prediction of p (predictor_run), as mantis predict --json prints it:
 * {"prediction", "metric", "features": {NAME: value}, "evaluator_seconds", "interval"?,
 * "warning"?, "gated"? (p has a gate: whether PRED/long predicted)}; a new reference, owned by
 * the caller.
 */
json_t *predictor_json(const struct predictor *p, const struct prediction *pr);
/* Frees what out owns. */
void prediction_release(struct prediction *out);
/* Frees what p owns. */
void predictor_release(struct predictor *p);
#endif
