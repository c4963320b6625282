/*
 * profile.h: running a build directory's programs on many inputs and recording every run.
 */
#ifndef MANTIS_PROFILE_H
#define MANTIS_PROFILE_H

struct error;

/* What to profile and how. */
struct profile_options {
	const char *dir;     /* the build directory (mantis instrument) */
	const char *inputs;  /* the inputs file */
	const char *db;      /* the database, NULL for DIR/profile.db */
	int repeat;          /* timing runs per input; 0: as recorded, or 5 for a new profile */
	int jobs;            /* feature runs at a time */
	int parallel_timing; /* timing runs jobs at a time too (noisier) */
	double timeout;      /* seconds before a run is killed; 0: never */
	int shard;           /* profile only inputs whose position % nshards == shard - 1 */
	int nshards;         /* 0: all inputs */
	const unsigned char *only; /* profile only inputs i with only[i] set; NULL: all (select.c) */
	int fresh;           /* start a new profile, keeping the old database aside */
	int pin_cpu;         /* CPU to pin runs to, plus one; 0: none */
	const char *metric;  /* default metric recorded for export and model, or NULL */
	int progress;        /* print progress on stderr */
	int recheck;         /* inputs DIR/inst runs a second time on (the shard's longest) */
};

/* The inputs a profile reruns the instrumented build on by default (profile_options.recheck):
 * enough that a clock read between two points of the run takes two values on one of them. */
#define PROFILE_RECHECK 3

/* Returns DIR/profile.db or db, owned by the caller. */
char *profile_db_path(const char *dir, const char *db);

/*
 * Profiles: records the program and inputs (or checks them against what is recorded), runs
 * the instrumented build once per input and the original build `repeat` times per input
 * (interleaved rounds), skipping every run already recorded; then DIR/inst a second time on
 * the opt->recheck inputs of the shard whose feature run took longest (the recheck runs,
 * rep 1), so that features whose value differs between two runs of one input are known
 * (store_unstable_features). Programs that crash, time out or exit non-zero are recorded as such. Returns 0, or -1 with err set (nothing recorded is lost).
 */
int profile_run(const struct profile_options *opt, struct error *err);

#endif
