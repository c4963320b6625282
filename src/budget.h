/*
 * budget.h: the overhead budget of `mantis instrument --budget F --calibrate FILE` (Mantis 000_
 * section 3.2): the costliest counters are removed from DIR/inst until it runs within 1 + F
 * times DIR/orig's CPU time on the calibration inputs, in total and on the mean input.
 */
#ifndef MANTIS_BUDGET_H
#define MANTIS_BUDGET_H

struct build_options;
struct error;
struct manifest;

/* What to calibrate on and how hard to try. */
struct budget_options {
	const struct build_options *build; /* how DIR was built (level, link flags, runtime) */
	const char *dir;                   /* the build directory (DIR/orig, DIR/inst, ...) */
	const char *calibrate;             /* the calibration inputs file (inputs.h) */
	double limit;                      /* F: inst/orig must be at most 1 + F */
	int repeat;                        /* timed runs of each program per input (median) */
	int max_rounds;                    /* rebuilds of DIR/inst at most */
};

/* One measurement of DIR/inst against DIR/orig. */
struct budget_round {
	double orig;  /* CPU seconds of DIR/orig: sum over the inputs of the median run */
	double inst;  /* the same for DIR/inst */
	double ratio; /* the verdict: the larger of inst/orig and the mean over the inputs of each
			 one's inst/orig (medians) */
	int ndropped; /* counters dropped in the build measured */
	int measured; /* times measured: 2 when the first came within the aim (the fields are
			 the means) */
};

/* A counter the budget dropped. */
struct budget_drop {
	int counter;   /* its index */
	double runs;   /* how often its probes ran on the calibration inputs (summed) */
	double cost;   /* runs per second of DIR/orig (pooled or the inputs' mean, the larger) times
			  the probes' weights: its share of the estimated overhead */
	int round;     /* the round (1...) that dropped it */
	char *feature; /* the first feature removed with it, or NULL; owned */
};

/* What the budget did. */
struct budget {
	double limit;                /* F */
	int ninputs;                 /* calibration inputs measured */
	struct budget_round *rounds; /* rounds[0]: the build as made; then one per rebuild; owned */
	int nrounds;
	struct budget_drop *drops;   /* the counters dropped, costliest first within a round; owned */
	int ndrops;
	char **removed;              /* names of the features removed, in manifest order; owned */
	int nremoved;
	char **removed_kinds;        /* their kinds, parallel to removed; owned */
	char **failures;             /* "FILE:LINE: PROGRAM crashed ..." for inputs left out; owned */
	int nfailures;
};

/*
 * Measures DIR/orig and DIR/inst on the calibration inputs (interleaved, the median of
 * o->repeat CPU times each; the ratio is the larger of the sums' inst/orig and the mean of the
 * inputs' inst/orig); while the ratio
 * is over 1 + limit/2 and rounds remain, drops the counters whose probes cost most by the
 * estimate (runs per second x weight x the measured excess per weighted run) until the
 * estimate is under 0.6 limit/2, rebuilds DIR/inst without their probes and measures again. Then removes from *m (the manifest of DIR, as built) every feature reading a
 * dropped counter, records the dropped counters in it, and writes DIR/features.json and
 * DIR/budget.json. An input on which a program crashes or times out is left out and listed in
 * b->failures. Fills *b (release with budget_release). Returns 0, or -1 with err set (the
 * inputs file is bad, no input ran, a rebuild failed).
 */
int budget_apply(struct budget *b, const struct budget_options *o, struct manifest *m,
		 struct error *err);
/* Returns the last measured ratio of b (budget_round's verdict). */
double budget_ratio(const struct budget *b);
/* Frees what b owns. */
void budget_release(struct budget *b);

#endif
