/*
 * exportc.h: a predictor as one self-contained C file (mantis export-c) that a scheduler
 * compiles into itself: double NAME_predict(int argc, char **argv).
 */
#ifndef MANTIS_EXPORTC_H
#define MANTIS_EXPORTC_H

struct error;
struct predictor;

/* Returns whether name can prefix the exported function: a C identifier of at most 64 bytes. */
int exportc_valid_name(const char *name);

/*
 * Writes to path a C11 file defining double NAME_predict(int argc, char **argv) that predicts
 * as mantis predict does with p: the evaluator embedded as bytes and run from a memfd, the
 * features computed from its counters as the manifest says, the model's polynomial evaluated
 * term by term as model_eval does; with a gate (p opened by predictor_open, p->gated set),
 * p's model first and PRED/long's for the inputs it puts at the gate or more, as
 * predictor_run chooses. Returns 0, or -1 with err set (evaluator unreadable, samples of the
 * standard input, file not written).
 */
int exportc_write(const struct predictor *p, const char *name, const char *path,
		  struct error *err);

#endif
