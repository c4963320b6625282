/*
 * runner.h: runs a program once on one input and measures it.
 *
 * Each run gets a fresh scratch folder that is its working directory and its {tmp}; the program
 * runs in its own process group, which is killed on timeout and after the program exits (so no
 * stray child outlives a run). Wall time is CLOCK_MONOTONIC from fork to reaping; CPU times and
 * peak RSS come from wait4's rusage of the child and its waited-for descendants.
 */
#ifndef MANTIS_RUNNER_H
#define MANTIS_RUNNER_H
#include <stdint.h>

struct error;
struct input;

/* How a run ended. */
enum run_status {
	RUN_OK,      /* exited with status 0, or one runner_set_ok_exits accepts */
	RUN_NONZERO, /* exited with another status */
	RUN_CRASH,   /* killed by a signal it did not get from us */
	RUN_TIMEOUT, /* killed by us after the timeout */
};

/* How to run. A zeroed struct means: no timeout, discard output, scratch under $TMPDIR or /tmp. */
struct run_options {
	double timeout;             /* seconds of wall time before the process group is killed; 0: none */
	const char *stdout_path;    /* file that receives stdout (truncated first), or NULL to discard */
	const char *stderr_path;    /* file that receives stderr, or NULL to discard */
	const char *scratch_parent; /* folder in which scratch folders are made, or NULL */
	int keep_scratch;           /* nonzero: leave the scratch folder behind for inspection */
	char *const *env;           /* NAME=VALUE strings added to the environment, NULL-ended, or NULL */
	int pin_cpu;                /* CPU number to pin the program to, plus one; 0: no pinning */
	const char *argv0;          /* the program's argv[0], or NULL: program as given. Every
				       executable of one build runs under one name (manifest.h's
				       program), since a program may count its own name's bytes */
	const char *workdir;        /* solib_run only: run in this folder, which is also {tmp},
				       making no scratch folder; NULL: a fresh one */
};

/* What a run did. */
struct run_result {
	enum run_status status; /* how it ended */
	int exit_code;          /* exit status (RUN_OK, RUN_NONZERO), else -1 */
	int signal;             /* terminating signal (RUN_CRASH, RUN_TIMEOUT), else 0 */
	double wall;            /* seconds of wall time */
	double user;            /* seconds of user CPU time */
	double sys;             /* seconds of system CPU time */
	long maxrss_kb;         /* peak resident set size in KiB */
	char *scratch;          /* the scratch folder if kept (keep_scratch), else NULL; owned */
};

/*
 * Runs program (a path, or a name looked up in PATH) with in's words, {tmp} expanded to the run's
 * scratch folder, and in's stdin (or an empty stdin). Returns 0 when the program ran, whatever
 * its status (see res->status), or -1 with err set when it could not be started: a missing or
 * non-executable program, an unwritable scratch or output location. The caller frees
 * res->scratch.
 */
int runner_run(const char *program, const struct input *in, const struct run_options *opt,
	       struct run_result *res, struct error *err);

/* Returns a run's argv: argv0 (or else program), in's words with {tmp} the scratch folder;
 * NULL-ended, owned by the caller (runner_free_argv). */
char **runner_argv(const char *program, const char *argv0, const struct input *in,
		   const char *scratch);
/* Frees what runner_argv returned. */
void runner_free_argv(char **argv);

/*
 * Sets the exit codes besides 0 that count as success (bit c for code c, 1 <= c <= 63; 0: none)
 * for every later run in this process. Some programs exit non-zero with a result, not a
 * failure: grep and pcre2grep 1 when no line matched, diff and cmp 1 when the files differ.
 * Every run of one mantis command is of one program (the original, its instrumented build, its
 * evaluators), so the set is the process's: the command sets it once, from --ok-exit (train,
 * profile) or from the predictor it loads (predictor.json's "ok_exit").
 */
void runner_set_ok_exits(uint64_t codes);
/* Returns the set runner_set_ok_exits made (0 at first). */
uint64_t runner_ok_exits(void);
/* Parses a comma-separated list of exit codes 0..63 ("1", "1,2") into *codes (0 is always
 * success and adds nothing). Returns 0, or -1 with err naming the word that is not a code. */
int runner_parse_exits(const char *text, uint64_t *codes, struct error *err);
/* Returns codes as runner_parse_exits reads them ("1,2"; "" for none); owned by the caller. */
char *runner_format_exits(uint64_t codes);

/* Returns a short name of the status ("ok", "nonzero", "crash", "timeout"); static storage. */
const char *runner_status_name(enum run_status status);
/* Returns res's value of metric: "wall", "cpu" (user + sys), "user", "sys" (seconds) or
 * "maxrss" (KiB); NaN for any other name (instructions: a run does not count them). */
double runner_metric(const struct run_result *res, const char *metric);

#endif
