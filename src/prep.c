/*
 * prep.c: constant columns, exact and affine duplicates, scaling.
 *
 * Duplicates: every non-constant column is mapped to z = (x - min) / (max - min) on the training
 * rows, so exact copies and increasing affine copies (b = c0 + c1 a, c1 > 0) have equal z, and
 * decreasing ones have z_b = 1 - z_a. Each z is quantised to 1e-9 and hashed (FNV-1a), in both
 * orientations (the smaller hash is the key); columns with equal keys are compared with
 * tolerance 1e-9 and the later one becomes an alias of the earlier (the representative is the
 * lowest column index; the alias map rep = a + b * alias is recorded for the slicer, which may
 * prefer a cheaper alias). This is linear in n*p, which matters: on program data about half the
 * columns are such copies (../shared/notes/modeling.md).
 *
 * Scaling: a kept column is divided by its largest magnitude on the training rows. That puts
 * non-negative features (counts, sums) in [0, 1] and, unlike min-max scaling, maps a monomial of
 * scaled features to the same monomial of original values, so a sparse model stays sparse when
 * it is reported in original units.
 */
#include "prep.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "error.h"
#include "util.h"

#define QUANTUM 1e-9

/* A non-constant column's normalised shape, for duplicate search. */
struct shape {
	int col;       /* dataset column */
	uint64_t key;  /* hash of the orientation-independent quantised z */
	int flipped;   /* the key was taken from 1 - z */
	double min;    /* min over training rows */
	double range;  /* max - min over training rows, > 0 */
};

static uint64_t hash_z(const double *x, const int *rows, int nrows, double min, double range,
		       int flip)
{
	uint64_t h = 1469598103934665603ull;

	for (int i = 0; i < nrows; i++) {
		double z = (x[rows[i]] - min) / range;
		int64_t q = llround((flip ? 1 - z : z) / QUANTUM);

		for (int b = 0; b < 8; b++) {
			h ^= (uint64_t)(q >> (8 * b)) & 0xff;
			h *= 1099511628211ull;
		}
	}
	return h;
}

static int compare_shapes(const void *a, const void *b)
{
	const struct shape *s = a, *t = b;

	if (s->key != t->key)
		return s->key < t->key ? -1 : 1;
	return s->col - t->col;
}

/* Returns whether b's normalised shape equals a's (both oriented to their keys). */
static int same_shape(const struct dataset *ds, const int *rows, int nrows, const struct shape *a,
		      const struct shape *b)
{
	const double *xa = ds->x + (size_t)a->col * (size_t)ds->n;
	const double *xb = ds->x + (size_t)b->col * (size_t)ds->n;

	for (int i = 0; i < nrows; i++) {
		double za = (xa[rows[i]] - a->min) / a->range;
		double zb = (xb[rows[i]] - b->min) / b->range;

		if (a->flipped)
			za = 1 - za;
		if (b->flipped)
			zb = 1 - zb;
		if (fabs(za - zb) > QUANTUM)
			return 0;
	}
	return 1;
}

/* Records column alias as an affine copy of rep: rep = a + b * alias. */
static void make_alias(struct prep *pr, const struct shape *rep, const struct shape *alias)
{
	double b = rep->range / alias->range;

	if (rep->flipped != alias->flipped)
		b = -b;
	pr->status[alias->col] = PREP_ALIAS;
	pr->rep[alias->col] = rep->col;
	pr->alias_b[alias->col] = b;
	pr->alias_a[alias->col] = b > 0 ? rep->min - b * alias->min
				       : rep->min + rep->range + (-b) * alias->min;
}

/* A column's name and index, sorted by name for mark_excluded. */
struct named_column {
	const char *name; /* the column's name; borrowed from the dataset */
	int j;            /* its index */
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct named_column *)a)->name, ((const struct named_column *)b)->name);
}

/* Marks the columns named in exclude[0..nexclude), each found by a binary search over the
 * columns sorted by name: train excludes nearly every column of a large program (the sqlite3
 * shell: 66,792), which a scan per name made quadratic. Returns 0, or -1 with err naming the
 * first excluded name that no column has. */
static int mark_excluded(struct prep *pr, const struct dataset *ds, char *const *exclude,
			 int nexclude, struct error *err)
{
	struct named_column *cols;
	int rc = 0;

	if (nexclude == 0)
		return 0; /* exclude may then be NULL */
	cols = xmalloc(sizeof *cols * (size_t)(ds->p + 1));
	for (int j = 0; j < ds->p; j++)
		cols[j] = (struct named_column){ds->names[j], j};
	qsort(cols, (size_t)ds->p, sizeof *cols, by_name);
	for (int e = 0; e < nexclude && rc == 0; e++) {
		struct named_column key = {exclude[e], -1};
		const struct named_column *hit = bsearch(&key, cols, (size_t)ds->p, sizeof *cols, by_name);

		if (hit)
			pr->status[hit->j] = PREP_EXCLUDED;
		else
			rc = error_set(err, "--exclude: no feature named '%s'", exclude[e]);
	}
	free(cols);
	return rc;
}

/* Fills shapes for non-constant, non-excluded columns; marks constants. Returns their count. */
static int measure_columns(struct prep *pr, const struct dataset *ds, const int *rows, int nrows,
			   struct shape *shapes)
{
	int m = 0;

	for (int j = 0; j < ds->p; j++) {
		const double *x = ds->x + (size_t)j * (size_t)ds->n;
		double lo = INFINITY, hi = -INFINITY;
		uint64_t up, down;

		if (pr->status[j] == PREP_EXCLUDED)
			continue;
		for (int i = 0; i < nrows; i++) {
			lo = fmin(lo, x[rows[i]]);
			hi = fmax(hi, x[rows[i]]);
		}
		if (!(hi > lo)) {
			pr->status[j] = PREP_CONSTANT;
			continue;
		}
		up = hash_z(x, rows, nrows, lo, hi - lo, 0);
		down = hash_z(x, rows, nrows, lo, hi - lo, 1);
		shapes[m] = (struct shape){j, up < down ? up : down, down < up, lo, hi - lo};
		m++;
	}
	return m;
}

int prep_fit(struct prep *pr, const struct dataset *ds, const int *rows, int nrows,
	     char *const *exclude, int nexclude, struct error *err)
{
	struct shape *shapes = xmalloc(sizeof *shapes * (size_t)(ds->p ? ds->p : 1));
	int m;

	memset(pr, 0, sizeof *pr);
	pr->p = ds->p;
	pr->status = xcalloc((size_t)ds->p, sizeof *pr->status);
	pr->rep = xmalloc(sizeof *pr->rep * (size_t)(ds->p ? ds->p : 1));
	pr->alias_a = xcalloc((size_t)ds->p, sizeof *pr->alias_a);
	pr->alias_b = xcalloc((size_t)ds->p, sizeof *pr->alias_b);
	for (int j = 0; j < ds->p; j++)
		pr->rep[j] = -1;
	if (mark_excluded(pr, ds, exclude, nexclude, err) < 0) {
		free(shapes);
		prep_release(pr);
		return -1;
	}
	m = measure_columns(pr, ds, rows, nrows, shapes);
	qsort(shapes, (size_t)m, sizeof *shapes, compare_shapes);
	for (int a = 0; a < m; a++) {
		if (pr->status[shapes[a].col] != PREP_KEPT)
			continue;
		for (int b = a + 1; b < m && shapes[b].key == shapes[a].key; b++) {
			if (pr->status[shapes[b].col] == PREP_KEPT &&
			    same_shape(ds, rows, nrows, &shapes[a], &shapes[b]))
				make_alias(pr, &shapes[a], &shapes[b]);
		}
	}
	free(shapes);
	pr->kept = xmalloc(sizeof *pr->kept * (size_t)(ds->p ? ds->p : 1));
	pr->scale = xmalloc(sizeof *pr->scale * (size_t)(ds->p ? ds->p : 1));
	for (int j = 0; j < ds->p; j++) {
		const double *x = ds->x + (size_t)j * (size_t)ds->n;
		double big = 0;

		if (pr->status[j] != PREP_KEPT)
			continue;
		for (int i = 0; i < nrows; i++)
			big = fmax(big, fabs(x[rows[i]]));
		pr->kept[pr->k] = j;
		pr->scale[pr->k++] = big;
	}
	return 0;
}

void prep_design(const struct prep *pr, const struct dataset *ds, const int *rows, int nrows,
		 double *out)
{
	for (int c = 0; c < pr->k; c++) {
		const double *x = ds->x + (size_t)pr->kept[c] * (size_t)ds->n;
		double *o = out + (size_t)c * (size_t)nrows;

		for (int i = 0; i < nrows; i++)
			o[i] = x[rows[i]] / pr->scale[c];
	}
}

void prep_release(struct prep *pr)
{
	free(pr->kept);
	free(pr->scale);
	free(pr->status);
	free(pr->rep);
	free(pr->alias_a);
	free(pr->alias_b);
	memset(pr, 0, sizeof *pr);
}
