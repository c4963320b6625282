/*
 * dataset.h: a table of samples for modeling: one row per input, a response (the metric) and
 * named feature columns, all finite doubles.
 */
#ifndef MANTIS_DATASET_H
#define MANTIS_DATASET_H

struct error;

/* Samples in memory; x is column-major so that a feature's values are contiguous. */
struct dataset {
	int n;         /* number of rows (samples) */
	int p;         /* number of feature columns */
	char **names;  /* p feature names; owned */
	double *x;     /* n*p values, column j at x + j*n; owned */
	double *y;     /* n values of the metric; owned */
	char *metric;  /* the metric's column name; owned */
	char **ids;    /* n row ids (the "input" column, or "row N"); owned */
	double *count; /* n instruction counts of the program, when the metric is a time and the
			* profile counted them (a rate may go through them: rate.h); else NULL;
			* owned */
};

/*
 * Reads a CSV file (RFC 4180 quoting; first line the header) into *ds. A first column named
 * "input" holds row ids. The metric column is the one named metric, or when metric is NULL the
 * column "wall" if there is one, else the last column. Columns named as a metric the profiler
 * records (wall cpu user sys maxrss instructions) are never features. Every other cell must be
 * a finite number. Returns 0, or -1 with err naming FILE:LINE and the column at fault.
 * The caller releases *ds with dataset_release.
 */
int dataset_load_csv(struct dataset *ds, const char *path, const char *metric, struct error *err);

/* Returns the index of the feature called name, or -1. */
int dataset_find(const struct dataset *ds, const char *name);

/* Removes the feature columns whose name starts with prefix; returns how many. */
int dataset_drop_prefix(struct dataset *ds, const char *prefix);

/* Removes the feature column called name; returns 1 if there was one, else 0. */
int dataset_drop(struct dataset *ds, const char *name);

/* Appends the feature column name (copied) with values[0..n) (copied). */
void dataset_add_column(struct dataset *ds, const char *name, const double *values);
/* Inserts the feature column name (copied) with values[0..n) (copied) as column at (0 <= at <=
 * p), the columns from at on moved one to the right. */
void dataset_insert_column(struct dataset *ds, int at, const char *name, const double *values);

/* Sets ds->count to a copy of the values of the feature called name, when the metric is not
 * itself a count of instructions and ds has that feature (the profile's instruction count);
 * returns 1 if it did, else 0. */
int dataset_set_count(struct dataset *ds, const char *name);

/* Fills *out with the rows rows[0..k) of ds, in that order (everything copied; release it with
 * dataset_release). */
void dataset_subset(const struct dataset *ds, const int *rows, int k, struct dataset *out);

/* Frees what *ds owns and zeroes it. */
void dataset_release(struct dataset *ds);

#endif
