/*
 * exportc.h: a predictor as one self-contained C file (mantis export-c) that a scheduler
 * compiles into itself: double NAME_predict_stdin(int argc, char **argv, const char *input) and
 * double NAME_predict(int argc, char **argv) (an empty standard input).
 */
#ifndef MANTIS_EXPORTC_H
#define MANTIS_EXPORTC_H

struct error;
struct predictor;

/* Returns whether name can prefix the exported function: a C identifier of at most 64 bytes. */
int exportc_valid_name(const char *name);

/*
 * Writes to path a C11 file defining double NAME_predict_stdin(int argc, char **argv, const
 * char *input) that predicts as mantis predict --stdin input does with p (and NAME_predict,
 * the same with no standard input): the evaluator embedded as bytes and run from a memfd, the
 * features computed from its counters as the manifest says, the model's polynomial evaluated
 * term by term as model_eval does; with a gate (p opened by predictor_open, p->gated set),
 * p's model first and PRED/long's for the inputs it puts at the gate or more, as
 * predictor_run chooses. Returns 0, or -1 with err set (evaluator unreadable, file not
 * written).
 */
int exportc_write(const struct predictor *p, const char *name, const char *path,
		  struct error *err);

#endif
