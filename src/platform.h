/*
 * platform.h: an execution platform's instruction costs (ByCounter, 003_: benchmark each
 * instruction type on every platform, then predict a run's time there from its counts here).
 *
 * A platform is a machine, a target triple (run under an emulator such as qemu-user when it is
 * not the host's) and an optimisation level. mantis calibrate measures it (calibrate.c) and
 * writes PLATFORM.json; mantis predict/eval --platform read it:
 *
 *   predicted CPU seconds = startup + sum over opcodes of count x cost
 *                         + sum over calibrated library functions f of
 *                           calls_f x (cost_f - cost of a call) + bytes_f x per_byte_f
 *
 * (a library call is also a "call" instruction, whose cost its own replaces). A per-program
 * correction refines it: SPORE-FoBa (degree 1) over the per-class counts and the prediction
 * itself, fitted to the CPU times of a few runs on the platform.
 */
#ifndef MANTIS_PLATFORM_H
#define MANTIS_PLATFORM_H

#include "model.h"

struct count;
struct error;
struct input;
struct inputs;

/* The measured cost of one opcode or library function. */
struct platform_cost {
	char *name;        /* LLVM opcode (add, load...) or library function (memcpy, sqrt...); owned */
	double cost;       /* ns per instruction (opcodes: the mean of latency and throughput), or
			      per call (library functions) */
	double latency;    /* opcodes: ns per instruction in a dependency chain */
	double throughput; /* opcodes: ns per instruction in 8 independent chains */
	double per_byte;   /* library functions: ns per byte (or element times size) of their size
			      parameter; 0 if none */
	double noise;      /* the mean relative deviation of a repetition from the median, largest
			      over the kernels the cost comes from */
};

/* A calibrated platform (PLATFORM.json). */
struct platform {
	char *target;        /* target triple, or NULL for the host; owned */
	char *opt;           /* optimisation level the kernels were built at ("2"); owned */
	char **runner;       /* command prefix that runs a program there (qemu...), NULL-ended; owned */
	int nrunner;         /* words in it (0: run directly) */
	char *machine;       /* uname and CPU of the host that measured it; owned */
	double startup;      /* CPU seconds of a run of a program that does nothing */
	double startup_noise;/* its mean relative deviation over the repetitions */
	int repetitions;     /* repetitions of every kernel */
	struct platform_cost *op; /* per opcode; owned */
	int nop;
	struct platform_cost *call; /* per library function; owned */
	int ncall;
};

struct run_options;
struct run_result;
/*
 * Runs exe (built for p's target) on in there: through p's runner (exe and in's words become
 * its arguments) or directly, as runner_run does. Returns 0 when it ran, whatever its status,
 * or -1 with err set.
 */
int platform_run(const struct platform *p, const char *exe, const struct input *in,
		 const struct run_options *ro, struct run_result *res, struct error *err);

/* Writes p as JSON to path. Returns 0 or -1 with err set. */
int platform_write(const struct platform *p, const char *path, struct error *err);
/* Reads a platform written by platform_write. Returns 0, or -1 with err naming the file. */
int platform_read(struct platform *p, const char *path, struct error *err);
/* Frees what p owns and zeroes it. */
void platform_release(struct platform *p);

/* Returns the cost of opcode or library function name in p, or NULL. */
const struct platform_cost *platform_op(const struct platform *p, const char *name);
const struct platform_cost *platform_call(const struct platform *p, const char *name);

/* Returns the predicted CPU seconds of the counted run on p (the formula above). */
double platform_predict(const struct platform *p, const struct count *c);

/*
 * The features the correction is fitted on, for the counts c: the count x cost prediction
 * ("countxcost"), then every opcode's count ("op.NAME") and every library function's calls and
 * bytes ("call.NAME", "bytes.NAME"). Fills *names (each owned, array owned) and *values (owned)
 * and returns their number.
 */
int platform_features(const struct platform *p, const struct count *c, char ***names,
		      double **values);

/* What platform_eval reports. */
struct platform_eval {
	int n;                 /* inputs compared */
	double mre, median_re, max_re, lt15, lt30; /* count x cost vs the measured CPU time */
	double noise;          /* mean relative difference of two measurements of the actual time */
	int corrected;         /* 1 if a correction was fitted */
	double corrected_mre, corrected_median_re, corrected_lt30; /* the corrected model's */
	char *correction;      /* the correction's formula, or NULL; owned */
	double count_seconds;  /* mean wall seconds of counting an input here */
	double actual_mean;    /* mean actual CPU seconds there */
	char *failed;          /* why inputs were left out, one line each, or NULL; owned */
};

/* How to evaluate a platform model. */
struct platform_eval_options {
	const char *build;     /* the build directory (mantis instrument) that counts */
	const char *program;   /* the program built for the platform (NULL: BUILD/orig) */
	const struct inputs *train; /* inputs to fit the correction on, or NULL */
	int repeat;            /* runs of the program there per measurement (2 measurements) */
	double timeout;        /* seconds before a run is killed, 0: never */
};

/*
 * Counts every input of test here (BUILD/inst), predicts its CPU time on p, and measures it
 * there (the program under p's runner, 2 x repeat runs interleaved: the median of the first
 * half is the actual time, of the second the noise floor's second measurement); with train,
 * first fits the correction on those inputs' counts and measured times. Returns 0 with *out
 * filled (release with platform_eval_release), or -1 with err set.
 */
int platform_eval(const struct platform *p, const struct platform_eval_options *opt,
		  const struct inputs *test, struct platform_eval *out, struct error *err);
void platform_eval_release(struct platform_eval *e);

/*
 * Fits the correction on the inputs of train: counts here, CPU time measured there (the
 * median of repeat runs). Returns 0 with *model filled (release with model_release), or -1.
 */
int platform_fit_correction(const struct platform *p, const struct platform_eval_options *opt,
			    struct model *model, struct error *err);

/* Returns the corrected prediction of model (from platform_fit_correction) for counts c. */
double platform_correct(const struct platform *p, const struct model *model, const struct count *c);

#endif
