/*
 * measure.h: measuring a program at the points of a parameter space, through the profile store
 * (src/store.h), so that every run is kept and a point measured once is never run again.
 */
#ifndef MANTIS_MEASURE_H
#define MANTIS_MEASURE_H

#include "manifest.h"
#include "store.h"

struct error;
struct space;

/* What to measure and how. */
struct measure_options {
	const char *program;   /* an executable (a path, or a name looked up in PATH) or a build directory */
	char *const *words;    /* its arguments, with {NAME} of parameters, {input} and {tmp}; not owned */
	int nwords;            /* how many */
	const char *generator; /* a command (shell-quoted words) that makes {input} from the parameters, or NULL */
	const char *metric;    /* wall, cpu, maxrss, or instructions (a build directory with bycount) */
	int repeat;            /* timing runs per point; 0: as recorded, or 3 */
	double timeout;        /* seconds before a run is killed; 0: never */
	const char *db;        /* the database, NULL: DIR/explore.db or ./explore.db */
};

/* An open measurer. */
struct measure {
	const struct space *s;         /* the parameters */
	struct measure_options opt;    /* as given (metric, repeat settled) */
	int builddir;                  /* program is a mantis instrument build directory */
	char *run;                     /* what timing runs execute (DIR/orig or the executable); owned */
	char *inst;                    /* DIR/inst for instruction counts, else NULL; owned */
	struct manifest m;             /* a build directory's features (empty otherwise) */
	int total;                     /* index of the feature bycount:(program):-:0:total, or -1 */
	struct store st;               /* the database */
	char **gen;                    /* the generator's words; owned */
	int ngen;                      /* how many */
	char *inputs_dir;              /* where generated inputs go: DB.inputs/; owned */
	char *cwd;                     /* folder relative words are resolved against; owned */
	char *tmp;                     /* private folder for counters and stderr; owned */
	int fresh_points;              /* points that needed at least one new run */
	int reused_points;             /* points found complete in the database */
	int runs;                      /* runs made */
};

/*
 * Opens the database (making it if needed) and checks it measures the same program with the
 * same generator. Returns 0, or -1 with err saying what is wrong (the program, the database).
 */
int measure_open(struct measure *me, const struct space *s, const struct measure_options *opt,
		 struct error *err);
/*
 * The explore callback (ctx is a struct measure): measures the point at coordinates u, or finds
 * it in the database, into *y. Returns 0, or -1 with err naming the point when the generator or
 * the program failed there.
 */
int measure_point(void *ctx, const double *u, double *y, struct error *err);
/* Closes the database and frees what me owns. */
void measure_close(struct measure *me);

#endif
