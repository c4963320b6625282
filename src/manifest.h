/*
 * manifest.h: the features of an instrumented program (features.json) and how each is computed
 * from the counters the runtime writes.
 *
 * A feature's value is (sum over terms of coef * counter) or, when it has a denominator
 * counter, that sum divided by the denominator (0 when the denominator is 0): a mean. Counters
 * are 64-bit and the sums are taken in 64-bit two's complement, so value sums of negative
 * numbers come out right. A feature with a shift S is in fixed point: its value is then divided
 * by 2^S (values of floating-point variables are counted as round(value * 2^S)).
 */
#ifndef MANTIS_MANIFEST_H
#define MANTIS_MANIFEST_H

#include <stdint.h>

struct error;

/* The feature the bycount scheme counts the program's every executed instruction in: the
 * instruction-count metric, and the count eval measures. */
#define MANIFEST_INSTRUCTIONS "bycount:(program):-:0:total"

/* One term of a feature's sum. */
struct feature_term {
	int counter;  /* counter index */
	int64_t coef; /* its coefficient */
};

/* One feature. */
struct feature {
	char *name;        /* stable, readable, unique: KIND:FUNCTION:FILE:LINE[:DETAIL]; owned */
	char *kind;        /* branch, switch, loop, call, value, exit or bycount; owned */
	char *function;    /* the function it is in (or the callee for calls); owned */
	char *file;        /* source file, "?" without debug info; owned */
	int line;          /* source line, 0 if unknown */
	char *variable;    /* the variable of a value feature, else NULL; owned */
	char *description; /* one line for people; owned */
	int nterms;        /* terms of the sum */
	struct feature_term *terms; /* owned */
	int denominator;   /* counter to divide by, or -1 */
	int shift;         /* the value is also divided by 2^shift (fixed point); 0 for integers */
};

/* The features of one instrumented build. */
struct manifest {
	uint64_t build_id;  /* identifies the instrumented build; the counters file carries it */
	int ncounters;      /* counters the build keeps */
	unsigned schemes;   /* the SCHEME_* bits it was instrumented with (0: unknown, old build) */
	char *opt;          /* its optimisation level ("2"), or NULL if unknown; owned */
	char *program;      /* the name every run of the build gives the program as argv[0]
			       (runner.h's argv0), or NULL (built before it was recorded: each
			       executable's path); owned */
	char **ldflags;     /* its link flags (-lm...), each owned; owned */
	int nldflags;       /* number of them */
	int *dropped;       /* counters the overhead budget removed from the build (budget.c):
			       never updated, so a 0 there says nothing; owned, NULL if none */
	int ndropped;       /* number of them */
	int n;              /* features */
	struct feature *v;  /* owned */
	int cap;            /* allocated features */
	int *by_name;       /* manifest_read's features sorted by name, then index, for
			       manifest_find; owned, NULL if none; covers v[0..nindexed) */
	int nindexed;       /* features by_name covers (those added later are searched in turn) */
};

/* Appends a feature (strings copied; terms taken over) and returns it. */
struct feature *manifest_add(struct manifest *m, const char *kind, const char *name,
			     const char *function, const char *file, int line,
			     const char *variable, const char *description);
/* Adds coef * counter to f's sum. */
void feature_add_term(struct feature *f, int counter, int64_t coef);
/* Adds terms[0..n) (counters >= 0) to f's sum, as feature_add_term does one by one, in linear
 * time where that is quadratic: a program-wide count has a term per block (pcre2grep's 10,000
 * made reading its predictor's features.json take 69 ms of a 75 ms prediction). */
void feature_add_terms(struct feature *f, const struct feature_term *terms, int n);

/* Records how the build was made (strings copied), so that it can be rebuilt (the slicer),
 * and the name its runs give the program (program, or NULL). */
void manifest_set_build(struct manifest *m, unsigned schemes, const char *opt,
			char *const *ldflags, int nldflags, const char *program);

/* Returns f's sum (its denominator ignored) exactly, in 64-bit two's complement: counts above
 * 2^53 stay exact, unlike feature_value's double. */
uint64_t feature_sum(const struct feature *f, const uint64_t *counters);
/* Returns the value of f given all counters (divided by its denominator and by 2^shift). */
double feature_value(const struct feature *f, const uint64_t *counters);

/* Writes the manifest as JSON to path. Returns 0 or -1. */
int manifest_write(const struct manifest *m, const char *path, struct error *err);
/* Reads a manifest written by manifest_write. Returns 0 or -1 naming path, line, column. */
int manifest_read(struct manifest *m, const char *path, struct error *err);
/* Sorts the features' indices by name into m->by_name (manifest_read does it; call it again
 * after removing or renaming features). */
void manifest_index(struct manifest *m);
/* Returns the index of the feature called name (the first, if several are), or -1. A binary
 * search over what manifest_read read, then a scan of the features added since. */
int manifest_find(const struct manifest *m, const char *name);
/*
 * Fills *to with from's build (its id, counters, how it was made, the dropped counters) and
 * copies of the features named in names[0..n) that from has, each once, in from's order; names
 * it lacks are skipped. A predictor's own manifest: the few features it reads, where the
 * build's lists every one (lz4's: 5 MB of JSON, 0.15 s to read per prediction). *to is the
 * caller's (manifest_release).
 */
void manifest_subset(const struct manifest *from, char *const *names, int n,
		     struct manifest *to);
/* Frees what *m owns and zeroes it. */
void manifest_release(struct manifest *m);
/* Frees what feature f owns (not f itself). */
void feature_release(struct feature *f);

/*
 * Reads a counters file written by a runtime into *counters (m->ncounters values, owned by the
 * caller): the sparse form both runtimes write (mantisrt.c, slicert.c: "MANTISC2", build id,
 * count, number of pairs, the pairs (counter, value); a counter in no pair is 0, one in two has
 * the last) or every counter (an instrumented build's before session 65: "MANTISC1", build
 * id, count, the counts), little-endian 64-bit words. Returns 0, or -1 if it is missing, truncated, out of range or from another build.
 */
int counters_read(const struct manifest *m, const char *path, uint64_t **counters,
		  struct error *err);

#endif
