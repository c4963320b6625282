/*
 * prep.h: preprocessing of feature columns before fitting: drop what is excluded or constant,
 * collapse exact and affine copies into one representative, and scale what is left.
 */
#ifndef MANTIS_PREP_H
#define MANTIS_PREP_H

struct dataset;
struct error;

/* What preprocessing decided about one dataset column. */
enum prep_status {
	PREP_KEPT,     /* a representative: it is a column of the design matrix */
	PREP_CONSTANT, /* the same value on every training row */
	PREP_ALIAS,    /* an exact affine copy of a representative (rep = a + b * this) */
	PREP_EXCLUDED, /* excluded by the user (--exclude) */
};

/* The decisions, fitted on training rows and applied to any rows. */
struct prep {
	int p;                   /* columns of the dataset */
	int k;                   /* columns kept: the design matrix has k columns */
	int *kept;               /* k dataset indices of the kept columns, ascending; owned */
	double *scale;           /* k: design column = value / scale (max |value|, > 0); owned */
	enum prep_status *status;/* p decisions; owned */
	int *rep;                /* p: dataset index of an alias's representative, else -1; owned */
	double *alias_a;         /* p: rep = alias_a + alias_b * column, for aliases; owned */
	double *alias_b;         /* p: see alias_a; owned */
};

/*
 * Decides, on the rows rows[0..nrows) of ds, which columns to keep. exclude names features
 * (nexclude of them) to leave out before aliases are looked for, so a cheap alias of an
 * excluded feature can take its place. Returns 0, or -1 with err naming an unknown excluded
 * feature. The caller releases *pr with prep_release.
 */
int prep_fit(struct prep *pr, const struct dataset *ds, const int *rows, int nrows,
	     char *const *exclude, int nexclude, struct error *err);

/* Writes the scaled kept columns of rows[0..nrows) into out (nrows*k, column-major). */
void prep_design(const struct prep *pr, const struct dataset *ds, const int *rows, int nrows,
		 double *out);

/* Frees what *pr owns and zeroes it. */
void prep_release(struct prep *pr);

#endif
