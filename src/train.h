/*
 * train.h: the offline stage of Mantis (000_ Fig. 1, 001_ section 2): instrument, profile,
 * model, slice, and the feedback loop that rejects features whose evaluator is too expensive
 * or unsound, refitting until every feature the model reads is cheap and validated. Writes a
 * predictor directory (predictor.h).
 */
#ifndef MANTIS_TRAIN_H
#define MANTIS_TRAIN_H
#include <stdio.h>

#include "build.h"
#include "fit.h"

struct error;

/* What to train and how. */
struct train_options {
	const char *dir;             /* PRED, the predictor directory (made if missing) */
	const char *inputs;          /* the training inputs file */
	const struct build_options *build; /* the program (runtime set); build->sources etc. */
	char *const *words;          /* the program's words as given, recorded to resume */
	int nwords;                  /* their number */
	const char *slicert;         /* the evaluators' runtime object (slicert.o) */
	const char *inproc;          /* the harness of their shared-object form (inproc.o) */
	const char *host;            /* mantis-host, which runs that form; NULL: the final
				      * evaluator gets no such form */
	int in_process;              /* judge evaluators as mantis serve runs them: their shared-
				      * object forms hosted in a process (by host), warm, where
				      * they have one; 0: as processes, as mantis predict runs them */
	const char *metric;          /* wall, cpu, user, sys, maxrss or instructions */
	struct fit_options fit;      /* the model's options; its exclude list is the loop's own */
	double threshold;            /* largest evaluator cost accepted, share of the program's time */
	int repeat;                  /* timing runs per input */
	int jobs;                    /* feature runs at a time */
	double timeout;              /* seconds before a run of the program is killed, 0: never */
	int max_iterations;          /* rounds of the feedback loop before falling back */
	int max_aliases;             /* exact copies of a model feature sliced with it */
	int input_features;          /* offer the model the input's descriptors (descriptor.h) */
	double sample_fraction;      /* offer sampled features (sampler.h) on this share of the
				      * input's large files; 0: none */
	int fresh;                   /* start a new profile (the old one is kept aside) */
	int select_adaptive;         /* profile an adaptively chosen subset of the inputs (select.c) */
	double select_target;        /* its target cross-validated relative error (0.1) */
	int select_max;              /* most inputs it profiles; 0: all */
	FILE *log;                   /* progress and the iteration log, or NULL */
	const int *only_lines;       /* a gated predictor's training (train.c, gate_long_inputs):
				      * the lines of the inputs file it trains on, and no gate of
				      * its own; NULL: every line */
	int nonly_lines;             /* their number */
};

/* Returns the documented defaults (threshold 0.05, wall, spore-foba on all rows...). */
struct train_options train_options_default(void);
/*
 * Trains: every step resumes from what PRED already holds (the build if the program's words
 * and files did not change, the profile's recorded runs). Writes PRED/model.json,
 * PRED/predictor.json, PRED/evaluator and PRED/train.json. Returns 0, or -1 with err naming the
 * step and what failed; what was recorded stays for the next run.
 */
int train_run(const struct train_options *opt, struct error *err);
#endif
