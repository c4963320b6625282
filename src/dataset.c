/*
 * dataset.c: CSV input of a dataset.
 *
 * The parser reads RFC 4180 records (fields separated by commas, "..." quoting with "" for a
 * quote, CRLF or LF line ends, no newlines inside quotes) and checks every number as it goes,
 * so a bad cell is reported at its line and column name rather than later as a bad model.
 * Invariant after a successful load: every value in x and y is finite; n >= 1.
 */
#include "dataset.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "util.h"

/* Metrics the profiler records: a column with one of these names is never a feature. */
static const char *const metric_names[] = {"wall", "cpu", "user", "sys", "maxrss", "instructions"};

static int is_metric_name(const char *name)
{
	for (size_t i = 0; i < sizeof metric_names / sizeof *metric_names; i++) {
		if (strcmp(name, metric_names[i]) == 0)
			return 1;
	}
	return 0;
}

/* One CSV record split into fields. */
struct record {
	char **fields; /* the fields; owned */
	int n;         /* number of fields */
	int cap;       /* allocated slots */
};

static void record_clear(struct record *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->fields[i]);
	r->n = 0;
}

/* Splits one line (without its newline) into r. Returns 0, or -1 on a quoting error. */
static int split_record(struct record *r, const char *line)
{
	const char *p = line;

	record_clear(r);
	for (;;) {
		struct strbuf sb = {0};

		strbuf_add(&sb, "", 0);
		if (*p == '"') {
			p++;
			for (;;) {
				if (!*p) {
					strbuf_release(&sb);
					return -1;
				}
				if (*p == '"' && p[1] == '"') {
					strbuf_addch(&sb, '"');
					p += 2;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					strbuf_addch(&sb, *p++);
				}
			}
			if (*p && *p != ',') {
				strbuf_release(&sb);
				return -1;
			}
		} else {
			while (*p && *p != ',')
				strbuf_addch(&sb, *p++);
		}
		if (r->n == r->cap) {
			r->cap = r->cap ? 2 * r->cap : 64;
			r->fields = xrealloc(r->fields, sizeof *r->fields * (size_t)r->cap);
		}
		r->fields[r->n++] = strbuf_detach(&sb);
		if (!*p)
			return 0;
		p++;
	}
}

/* Parses a finite number filling all of s (blanks around allowed). Returns 0 or -1. */
static int parse_number(const char *s, double *out)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return -1;
	*out = strtod(s, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	return *end || !isfinite(*out) ? -1 : 0;
}

/* Where each CSV column goes. */
enum role { ROLE_ID, ROLE_METRIC, ROLE_FEATURE, ROLE_IGNORED };

/* Decides the role of every header column; sets ds->names, ds->p, ds->metric. */
static int assign_roles(struct dataset *ds, struct record *hdr, const char *metric,
			enum role *role, const char *path, struct error *err)
{
	int metric_col = -1;

	for (int j = 0; j < hdr->n; j++) {
		if (!hdr->fields[j][0])
			return error_set(err, "%s:1: column %d has an empty name", path, j + 1);
		for (int k = 0; k < j; k++) {
			if (strcmp(hdr->fields[k], hdr->fields[j]) == 0)
				return error_set(err, "%s:1: column '%s' appears twice", path,
						 hdr->fields[j]);
		}
	}
	for (int j = 0; j < hdr->n && metric_col < 0; j++) {
		if (metric ? strcmp(hdr->fields[j], metric) == 0 : strcmp(hdr->fields[j], "wall") == 0)
			metric_col = j;
	}
	if (metric_col < 0 && metric)
		return error_set(err, "%s:1: no column named '%s' (the metric)", path, metric);
	if (metric_col < 0)
		metric_col = hdr->n - 1;
	if (metric_col == 0 && strcmp(hdr->fields[0], "input") == 0)
		return error_set(err, "%s:1: the 'input' column cannot be the metric", path);
	ds->metric = xstrdup(hdr->fields[metric_col]);
	ds->names = xcalloc((size_t)hdr->n, sizeof *ds->names);
	for (int j = 0; j < hdr->n; j++) {
		if (j == 0 && strcmp(hdr->fields[0], "input") == 0)
			role[j] = ROLE_ID;
		else if (j == metric_col)
			role[j] = ROLE_METRIC;
		else if (is_metric_name(hdr->fields[j]))
			role[j] = ROLE_IGNORED;
		else {
			role[j] = ROLE_FEATURE;
			ds->names[ds->p++] = xstrdup(hdr->fields[j]);
		}
	}
	return 0;
}

/* Growable row-major staging of the values while the file is read. */
struct rows {
	double *v;  /* nrows * (p + 1) values: the metric then the features; owned */
	int n;      /* rows so far */
	int cap;    /* rows allocated */
};

/* Reads one data record into the staging rows. Returns 0 or -1 with err set. */
static int add_row(struct dataset *ds, struct rows *rows, char ***ids, struct record *rec,
		   struct record *hdr, const enum role *role, const char *path, int lineno,
		   struct error *err)
{
	double *row;
	int f = 0;

	if (rec->n != hdr->n)
		return error_set(err, "%s:%d: %d fields, but the header has %d", path, lineno,
				 rec->n, hdr->n);
	if (rows->n == rows->cap) {
		rows->cap = rows->cap ? 2 * rows->cap : 256;
		rows->v = xrealloc(rows->v, sizeof *rows->v * (size_t)rows->cap * (size_t)(ds->p + 1));
		*ids = xrealloc(*ids, sizeof **ids * (size_t)rows->cap);
	}
	row = rows->v + (size_t)rows->n * (size_t)(ds->p + 1);
	(*ids)[rows->n] = NULL;
	for (int j = 0; j < rec->n; j++) {
		double v;

		if (role[j] == ROLE_ID) {
			(*ids)[rows->n] = xstrdup(rec->fields[j]);
			continue;
		}
		if (role[j] == ROLE_IGNORED)
			continue;
		if (parse_number(rec->fields[j], &v) < 0) {
			free((*ids)[rows->n]);
			return error_set(err, "%s:%d: column '%s': '%s' is not a finite number", path,
					 lineno, hdr->fields[j], rec->fields[j]);
		}
		if (role[j] == ROLE_METRIC)
			row[0] = v;
		else
			row[1 + f++] = v;
	}
	if (!(*ids)[rows->n])
		(*ids)[rows->n] = xasprintf("row %d", rows->n + 1);
	rows->n++;
	return 0;
}

/* Moves the staged rows into the column-major dataset. */
static void transpose_rows(struct dataset *ds, const struct rows *rows)
{
	size_t stride = (size_t)ds->p + 1;

	ds->n = rows->n;
	ds->y = xmalloc(sizeof *ds->y * (size_t)ds->n);
	ds->x = xmalloc(sizeof *ds->x * (size_t)ds->n * (size_t)(ds->p ? ds->p : 1));
	for (int i = 0; i < ds->n; i++) {
		const double *row = rows->v + (size_t)i * stride;

		ds->y[i] = row[0];
		for (int j = 0; j < ds->p; j++)
			ds->x[(size_t)j * (size_t)ds->n + (size_t)i] = row[1 + j];
	}
}

int dataset_load_csv(struct dataset *ds, const char *path, const char *metric, struct error *err)
{
	FILE *f = fopen(path, "r");
	struct record hdr = {0}, rec = {0};
	struct rows rows = {0};
	enum role *role = NULL;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int lineno = 0, rc = -1;

	memset(ds, 0, sizeof *ds);
	if (!f)
		return error_errno(err, "cannot open %s", path);
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		if (lineno > 1 && len == 0)
			continue;
		if ((size_t)len != strlen(line)) {
			error_set(err, "%s:%d: line contains a NUL byte", path, lineno);
			goto out;
		}
		if (split_record(lineno == 1 ? &hdr : &rec, line) < 0) {
			error_set(err, "%s:%d: malformed quoted field", path, lineno);
			goto out;
		}
		if (lineno == 1) {
			role = xcalloc((size_t)hdr.n, sizeof *role);
			if (assign_roles(ds, &hdr, metric, role, path, err) < 0)
				goto out;
		} else if (add_row(ds, &rows, &ds->ids, &rec, &hdr, role, path, lineno, err) < 0) {
			goto out;
		}
	}
	if (ferror(f)) {
		error_errno(err, "cannot read %s", path);
		goto out;
	}
	if (lineno == 0) {
		error_set(err, "%s: empty file (a CSV needs a header line)", path);
		goto out;
	}
	if (rows.n == 0) {
		error_set(err, "%s: no data rows after the header", path);
		goto out;
	}
	transpose_rows(ds, &rows);
	rc = 0;
out:
	if (rc < 0) {
		for (int i = 0; i < rows.n; i++)
			free(ds->ids[i]);
		free(ds->ids);
		ds->ids = NULL;
		dataset_release(ds);
	}
	fclose(f);
	free(line);
	free(role);
	free(rows.v);
	record_clear(&hdr);
	record_clear(&rec);
	free(hdr.fields);
	free(rec.fields);
	return rc;
}

int dataset_find(const struct dataset *ds, const char *name)
{
	for (int j = 0; j < ds->p; j++) {
		if (strcmp(ds->names[j], name) == 0)
			return j;
	}
	return -1;
}

/* Removes the feature columns whose name matches (exactly, or as a prefix when prefix is set);
 * returns how many. */
static int drop_names(struct dataset *ds, const char *name, int prefix)
{
	size_t len = strlen(name);
	int kept = 0;

	for (int j = 0; j < ds->p; j++) {
		if (prefix ? strncmp(ds->names[j], name, len) == 0 : strcmp(ds->names[j], name) == 0) {
			free(ds->names[j]);
			continue;
		}
		ds->names[kept] = ds->names[j];
		memmove(ds->x + (size_t)kept * (size_t)ds->n, ds->x + (size_t)j * (size_t)ds->n,
			sizeof *ds->x * (size_t)ds->n);
		kept++;
	}
	kept = ds->p - kept;
	ds->p -= kept;
	return kept;
}

int dataset_drop_prefix(struct dataset *ds, const char *prefix)
{
	return drop_names(ds, prefix, 1);
}

int dataset_drop(struct dataset *ds, const char *name)
{
	return drop_names(ds, name, 0);
}

void dataset_add_column(struct dataset *ds, const char *name, const double *values)
{
	ds->names = xrealloc(ds->names, sizeof *ds->names * (size_t)(ds->p + 2));
	ds->names[ds->p] = xstrdup(name);
	ds->names[ds->p + 1] = NULL;
	ds->x = xrealloc(ds->x, sizeof *ds->x * ((size_t)ds->n * (size_t)(ds->p + 1) + 1));
	memcpy(ds->x + (size_t)ds->p * (size_t)ds->n, values, sizeof *ds->x * (size_t)ds->n);
	ds->p++;
}

void dataset_insert_column(struct dataset *ds, int at, const char *name, const double *values)
{
	size_t n = (size_t)ds->n, moved;
	char *copy;

	assert(at >= 0 && at <= ds->p);
	dataset_add_column(ds, name, values);
	moved = (size_t)(ds->p - 1 - at);
	copy = ds->names[ds->p - 1];
	memmove(ds->names + at + 1, ds->names + at, sizeof *ds->names * moved);
	ds->names[at] = copy;
	memmove(ds->x + ((size_t)at + 1) * n, ds->x + (size_t)at * n, sizeof *ds->x * n * moved);
	memcpy(ds->x + (size_t)at * n, values, sizeof *ds->x * n);
}

void dataset_subset(const struct dataset *ds, const int *rows, int k, struct dataset *out)
{
	memset(out, 0, sizeof *out);
	out->n = k;
	out->p = ds->p;
	out->metric = xstrdup(ds->metric);
	out->names = xcalloc((size_t)ds->p + 1, sizeof *out->names);
	out->ids = xcalloc((size_t)k + 1, sizeof *out->ids);
	out->x = xmalloc(sizeof *out->x * ((size_t)k * (size_t)ds->p + 1));
	out->y = xmalloc(sizeof *out->y * ((size_t)k + 1));
	for (int f = 0; f < ds->p; f++) {
		out->names[f] = xstrdup(ds->names[f]);
		for (int r = 0; r < k; r++)
			out->x[(size_t)f * (size_t)k + (size_t)r] = ds->x[(size_t)f * (size_t)ds->n + (size_t)rows[r]];
	}
	for (int r = 0; r < k; r++) {
		out->ids[r] = xstrdup(ds->ids[rows[r]]);
		out->y[r] = ds->y[rows[r]];
	}
	if (ds->count) {
		out->count = xmalloc(sizeof *out->count * ((size_t)k + 1));
		for (int r = 0; r < k; r++)
			out->count[r] = ds->count[rows[r]];
	}
}

int dataset_set_count(struct dataset *ds, const char *name)
{
	int j = dataset_find(ds, name);

	if (j < 0 || strcmp(ds->metric, "instructions") == 0)
		return 0;
	free(ds->count);
	ds->count = xmalloc(sizeof *ds->count * ((size_t)ds->n + 1));
	memcpy(ds->count, ds->x + (size_t)j * (size_t)ds->n, sizeof *ds->count * (size_t)ds->n);
	return 1;
}

void dataset_release(struct dataset *ds)
{
	for (int j = 0; j < ds->p; j++)
		free(ds->names[j]);
	if (ds->ids) {
		for (int i = 0; i < ds->n; i++)
			free(ds->ids[i]);
	}
	free(ds->names);
	free(ds->ids);
	free(ds->x);
	free(ds->y);
	free(ds->count);
	free(ds->metric);
	memset(ds, 0, sizeof *ds);
}
