/*
 * space.h: a parameter space for mantis explore: named integer, real, enumerated and boolean
 * parameters; points as normalised coordinates in [0,1]^d; their values in natural units (for
 * the learners) and as words (for the command line).
 *
 * Normalisation: a parameter of K admissible values (an integer range, an enumeration, a
 * boolean) has coordinates k/(K-1), k = 0..K-1; a real one covers [0,1] continuously. Snapping
 * a coordinate moves it to the nearest admissible one, so every point measured is a point the
 * program can be run at, and two coordinates that snap alike are the same measurement.
 */
#ifndef MANTIS_SPACE_H
#define MANTIS_SPACE_H

struct error;

/* Kinds of parameter. */
enum space_kind {
	SPACE_INT,  /* lo:hi[:step], integers */
	SPACE_REAL, /* lo:hi with a decimal point or exponent in a bound */
	SPACE_ENUM, /* a,b,c: words, natural value = index */
	SPACE_BOOL, /* bool (words 0 and 1) or bool:WORD (no word, or WORD): natural value 0 or 1 */
};

/* One parameter. */
struct space_param {
	char *name;           /* what {name} in the command refers to; owned */
	enum space_kind kind; /* its kind */
	double lo, hi, step;  /* SPACE_INT, SPACE_REAL: range (lo <= hi) and step (INT only) */
	int nwords;           /* SPACE_ENUM, SPACE_BOOL: admissible words */
	char **words;         /* their text (a boolean's "" means: leave the word out); owned */
};

/* The parameters in the order given. */
struct space {
	int d;                  /* number of parameters */
	struct space_param *v;  /* owned */
};

/*
 * Adds a parameter from "NAME=SPEC" (SPEC: lo:hi[:step], a,b,c, bool or bool:WORD). Returns 0,
 * or -1 with err naming the parameter and what is wrong with it.
 */
int space_add(struct space *s, const char *arg, struct error *err);
/* Returns the index of the parameter called name, or -1. */
int space_find(const struct space *s, const char *name);
/* Frees what s owns and zeroes it. */
void space_release(struct space *s);

/* Returns the number of admissible values of parameter j (0 for a real parameter). */
int space_levels(const struct space *s, int j);
/* Returns the number of points of the space, or 0 if a parameter is real (infinitely many). */
double space_size(const struct space *s);
/* Returns coordinate u moved to the nearest admissible coordinate of parameter j. */
double space_snap(const struct space *s, int j, double u);
/* Returns the natural value of coordinate u of parameter j (value, index, or 0/1). */
double space_value(const struct space *s, int j, double u);
/* Fills lo[j], hi[j] with the natural range of every parameter. */
void space_range(const struct space *s, double *lo, double *hi);
/* Returns the word for coordinate u of parameter j, owned by the caller. */
char *space_word(const struct space *s, int j, double u);

/*
 * Returns words[0..n) with every {NAME} of a parameter replaced by its word at point u
 * (coordinates), NULL-terminated and owned by the caller (each word and the array); a word that
 * was exactly {NAME} and becomes empty (a boolean left out) is dropped. *nout receives the count.
 * Other braces ({tmp}, {input}) are kept as they are.
 */
char **space_substitute(const struct space *s, const double *u, char *const *words, int n, int *nout);
/*
 * Checks that every {NAME} in words[0..n) names a parameter or one of the names in keep
 * (NULL-terminated). Returns 0, or -1 with err naming the unknown {NAME} and the word.
 */
int space_check_words(const struct space *s, char *const *words, int n, const char *const *keep,
		      struct error *err);
/* Returns whether {NAME} of parameter j occurs in words[0..n). */
int space_used(const struct space *s, int j, char *const *words, int n);
/* Returns "name=word, ..." for point u, owned by the caller (for messages). */
char *space_describe(const struct space *s, const double *u);

#endif
