/*
 * test_fit.c: the model generator end to end on datasets: CSV loading and its errors,
 * preprocessing decisions (constants, exact and affine copies, exclusion), the model file, and
 * the recovery of the papers' Find Maxima model from among 180 distractors, and SPORE-FoBa's
 * choice between its two paths.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "error.h"
#include "fit.h"
#include "model.h"
#include "prep.h"
#include "tests.h"
#include "util.h"

/* Loads CSV text; asserts success. */
static void load_ok(struct dataset *ds, const char *csv, const char *metric)
{
	char *dir = test_tmpdir(), *path = test_write_file(dir, "d.csv", csv);
	struct error err = {""};

	ck_assert_msg(dataset_load_csv(ds, path, metric, &err) == 0, "%s", err.msg);
	free(path);
	free(dir);
}

/* Loads CSV text; asserts failure with a message that ends with want (after the path). */
static void load_fails(const char *csv, const char *metric, const char *want)
{
	char *dir = test_tmpdir(), *path = test_write_file(dir, "d.csv", csv);
	struct dataset ds;
	struct error err = {""};

	ck_assert_int_eq(dataset_load_csv(&ds, path, metric, &err), -1);
	ck_assert_msg(strncmp(err.msg, path, strlen(path)) == 0 &&
			      strcmp(err.msg + strlen(path), want) == 0,
		      "got '%s', want '%s'", err.msg + strlen(path), want);
	free(path);
	free(dir);
}

START_TEST(csv_roles_and_values)
{
	struct dataset ds;

	load_ok(&ds, "input,a,cpu,\"b,c\",wall\nr1,1,9,2.5,0.5\r\n\nr2,3,9,-4e2,0.25\n", NULL);
	ck_assert_int_eq(ds.n, 2);
	ck_assert_int_eq(ds.p, 2);
	ck_assert_str_eq(ds.metric, "wall");
	ck_assert_str_eq(ds.names[1], "b,c");
	ck_assert_str_eq(ds.ids[1], "r2");
	ck_assert_double_eq(ds.x[1 * 2 + 1], -400);
	ck_assert_double_eq(ds.y[1], 0.25);
	dataset_release(&ds);
	load_ok(&ds, "a,b,t\n1,2,3\n4,5,6\n", NULL);
	ck_assert_str_eq(ds.metric, "t");
	ck_assert_str_eq(ds.ids[0], "row 1");
	ck_assert_int_eq(ds.p, 2);
	dataset_release(&ds);
	load_ok(&ds, "a,b,t\n1,2,3\n", "a");
	ck_assert_str_eq(ds.metric, "a");
	ck_assert_str_eq(ds.names[0], "b");
	dataset_release(&ds);
}
END_TEST

/* dataset_drop removes the one column of that exact name (loop:f:a.c:12 is not loop:f:a.c:120,
 * as a prefix would take); dataset_drop_prefix every column it begins. */
START_TEST(drop_exact_name_or_prefix)
{
	struct dataset ds;

	load_ok(&ds, "loop:f:a.c:12,loop:f:a.c:120,bycount:x,wall\n1,2,3,4\n5,6,7,8\n", NULL);
	ck_assert_int_eq(dataset_drop(&ds, "loop:f:a.c:12"), 1);
	ck_assert_int_eq(ds.p, 2);
	ck_assert_str_eq(ds.names[0], "loop:f:a.c:120");
	ck_assert_double_eq(ds.x[0 * 2 + 1], 6);
	ck_assert_double_eq(ds.x[1 * 2 + 0], 3);
	ck_assert_int_eq(dataset_drop(&ds, "loop:f:a.c:1"), 0);
	ck_assert_int_eq(dataset_drop_prefix(&ds, "bycount:"), 1);
	ck_assert_int_eq(ds.p, 1);
	ck_assert_str_eq(ds.names[0], "loop:f:a.c:120");
	dataset_release(&ds);
}
END_TEST

START_TEST(csv_errors_name_line_and_column)
{
	load_fails("a,wall\n1,2\n3,nan\n", NULL, ":3: column 'wall': 'nan' is not a finite number");
	load_fails("a,wall\n1,2\n3,inf\n", NULL, ":3: column 'wall': 'inf' is not a finite number");
	load_fails("a,wall\n1,2\n,2\n", NULL, ":3: column 'a': '' is not a finite number");
	load_fails("a,wall\n1,2,3\n", NULL, ":2: 3 fields, but the header has 2");
	load_fails("a,a,wall\n1,2,3\n", NULL, ":1: column 'a' appears twice");
	load_fails("a,wall\n1,2\n", "time", ":1: no column named 'time' (the metric)");
	load_fails("a,wall\n", NULL, ": no data rows after the header");
	load_fails("", NULL, ": empty file (a CSV needs a header line)");
	load_fails("a,\"wall\n1,2\n", NULL, ":1: malformed quoted field");
}
END_TEST

START_TEST(prep_decisions)
{
	/* c0 varies; c1 = 5 + 2 c0; c2 = 7 - 3 c0 (decreasing copy); c3 constant; c4 = c0 exactly;
	 * c5 independent; c6 = c5 / 10 */
	struct dataset ds;
	struct prep pr;
	struct error err = {""};
	int rows[5] = {0, 1, 2, 3, 4};
	char *exclude[] = {"c0"};
	const char *csv = "c0,c1,c2,c3,c4,c5,c6,wall\n"
			  "1,7,4,3,1,10,1,1\n2,9,1,3,2,30,3,1\n4,13,-5,3,4,20,2,1\n"
			  "8,21,-17,3,8,50,5,1\n3,11,-2,3,3,40,4,1\n";

	load_ok(&ds, csv, NULL);
	ck_assert_int_eq(prep_fit(&pr, &ds, rows, 5, NULL, 0, &err), 0);
	ck_assert_int_eq(pr.k, 2);
	ck_assert_int_eq(pr.kept[0], 0);
	ck_assert_int_eq(pr.kept[1], 5);
	ck_assert_double_eq(pr.scale[0], 8);
	ck_assert_double_eq(pr.scale[1], 50);
	ck_assert_int_eq(pr.status[3], PREP_CONSTANT);
	for (int j = 1; j < 7; j++) {
		if (j == 3 || j == 5)
			continue;
		ck_assert_int_eq(pr.status[j], PREP_ALIAS);
	}
	ck_assert_int_eq(pr.rep[1], 0);
	ck_assert_int_eq(pr.rep[6], 5);
	/* rep = a + b * alias: c0 = -2.5 + 0.5 c1; c0 = 7/3 - c2/3; c5 = 0 + 10 c6 */
	ck_assert_double_eq_tol(pr.alias_a[1], -2.5, 1e-12);
	ck_assert_double_eq_tol(pr.alias_b[1], 0.5, 1e-12);
	ck_assert_double_eq_tol(pr.alias_a[2], 7.0 / 3, 1e-12);
	ck_assert_double_eq_tol(pr.alias_b[2], -1.0 / 3, 1e-12);
	ck_assert_double_eq_tol(pr.alias_a[6], 0, 1e-12);
	ck_assert_double_eq_tol(pr.alias_b[6], 10, 1e-12);
	prep_release(&pr);
	/* excluding c0 lets its first copy stand in for it */
	ck_assert_int_eq(prep_fit(&pr, &ds, rows, 5, exclude, 1, &err), 0);
	ck_assert_int_eq(pr.status[0], PREP_EXCLUDED);
	ck_assert_int_eq(pr.kept[0], 1);
	ck_assert_int_eq(pr.rep[2], 1);
	prep_release(&pr);
	exclude[0] = "nope";
	ck_assert_int_eq(prep_fit(&pr, &ds, rows, 5, exclude, 1, &err), -1);
	ck_assert_str_eq(err.msg, "--exclude: no feature named 'nope'");
	dataset_release(&ds);
}
END_TEST

START_TEST(bad_data_is_refused_clearly)
{
	struct dataset ds;
	struct model model;
	struct prep pr;
	struct fit_options fo = fit_options_default();
	struct error err = {""};

	load_ok(&ds, "a,wall\n1,2\n", NULL);
	ck_assert_int_eq(fit_model(&ds, &fo, &model, &pr, &err), -1);
	ck_assert_str_eq(err.msg, "1 sample: a model needs at least 3");
	dataset_release(&ds);
	load_ok(&ds, "input,a,b,wall\nx,1,5,2\ny,1,5,3\nz,1,5,4\nw,1,5,5\n", NULL);
	fo.train_frac = 1;
	ck_assert_int_eq(fit_model(&ds, &fo, &model, &pr, &err), -1);
	ck_assert_str_eq(err.msg, "all 2 features are constant on the 4 training samples: "
				  "nothing to model");
	dataset_release(&ds);
	load_ok(&ds, "input,a,wall\nx,1,2\ny,2,0\nz,3,4\n", NULL);
	ck_assert_int_eq(fit_model(&ds, &fo, &model, &pr, &err), -1);
	ck_assert_str_eq(err.msg, "wall is 0 on 'y': relative fitting needs positive values "
				  "(use --fit absolute)");
	fo.train_frac = 0.5;
	fo.relative = 0;
	ck_assert_int_eq(fit_model(&ds, &fo, &model, &pr, &err), -1);
	ck_assert_str_eq(err.msg, "--train-frac 0.5 leaves 2 training samples of 3; at least 3 "
				  "are needed");
	dataset_release(&ds);
}
END_TEST

/* Writes the recovery dataset: the Find Maxima model of the papers,
 * time = 0.1 + 0.22 w + 0.23 h + 1.93 w h + 0.24 w h^2, times (1 + 1% Gaussian noise), with w
 * and h hidden among 180 distractors: 40 constants, 30 exact affine copies of w and h
 * (increasing and decreasing), 40 noisy copies of w or h (sd 0.05), 60 heavy-tailed counts
 * (Pareto, alpha 1.5) and 10 affine copies of those. Columns are shuffled. Returns the path. */
static char *write_recovery_csv(int n, unsigned long long seed)
{
	enum { P = 182 };
	char *dir = test_tmpdir(), *path = xasprintf("%s/recovery.csv", dir);
	double *col = xmalloc(sizeof *col * (size_t)n * P), *y = xmalloc(sizeof *y * (size_t)n);
	char *names[P];
	int order[P];
	unsigned long long s = seed;
	FILE *f;
	int c = 0;

	for (int i = 0; i < n; i++) {
		col[0 * n + i] = 0.05 + 0.95 * (double)(s = s * 6364136223846793005ull + 1) / 0x1p64;
		col[1 * n + i] = 0.05 + 0.95 * (double)(s = s * 6364136223846793005ull + 1) / 0x1p64;
	}
	names[c++] = xstrdup("w");
	names[c++] = xstrdup("h");
	for (int k = 0; k < 40; k++, c++) {
		names[c] = xasprintf("const%d", k);
		for (int i = 0; i < n; i++)
			col[c * n + i] = (k % 3) * 7.0;
	}
	for (int k = 0; k < 30; k++, c++) {
		double a = 10 * ((double)(s = s * 6364136223846793005ull + 1) / 0x1p64) - 5;
		double b = 0.5 + 999 * (double)(s = s * 6364136223846793005ull + 1) / 0x1p64;

		names[c] = xasprintf("%scopy%d", k < 20 ? "w" : "h", k);
		for (int i = 0; i < n; i++)
			col[c * n + i] = k < 20 ? a + b * col[i] : a - b * col[n + i];
	}
	for (int k = 0; k < 40; k++, c++) {
		names[c] = xasprintf("noisy%d", k);
		for (int i = 0; i < n; i++)
			col[c * n + i] = col[(k % 2) * n + i] + 0.05 * gauss_for_tests(&s);
	}
	for (int k = 0; k < 60; k++, c++) {
		names[c] = xasprintf("heavy%d", k);
		for (int i = 0; i < n; i++) {
			double u = (double)((s = s * 6364136223846793005ull + 1) >> 11) / 0x1p53;

			col[c * n + i] = floor(10 * pow(1 - u, -1 / 1.5));
		}
	}
	for (int k = 0; k < 10; k++, c++) {
		names[c] = xasprintf("heavycopy%d", k);
		for (int i = 0; i < n; i++)
			col[c * n + i] = 3 * col[(112 + k) * n + i] + 1;
	}
	for (int i = 0; i < n; i++) {
		double w = col[i], h = col[n + i];

		y[i] = (0.1 + 0.22 * w + 0.23 * h + 1.93 * w * h + 0.24 * w * h * h) *
		       (1 + 0.01 * gauss_for_tests(&s));
	}
	for (int j = 0; j < P; j++)
		order[j] = j;
	for (int j = P - 1; j > 0; j--) {
		int k = (int)((s = s * 6364136223846793005ull + 1) >> 33) % (j + 1), t = order[j];

		order[j] = order[k];
		order[k] = t;
	}
	f = fopen(path, "w");
	fputs("input", f);
	for (int j = 0; j < P; j++)
		fprintf(f, ",%s", names[order[j]]);
	fputs(",wall\n", f);
	for (int i = 0; i < n; i++) {
		fprintf(f, "r%d", i);
		for (int j = 0; j < P; j++)
			fprintf(f, ",%.17g", col[order[j] * n + i]);
		fprintf(f, ",%.17g\n", y[i]);
	}
	fclose(f);
	for (int j = 0; j < P; j++)
		free(names[j]);
	free(col);
	free(y);
	free(dir);
	return path;
}

/* Returns whether name is w, h, or one of their exact copies. */
static char feature_family(const char *name)
{
	if (strcmp(name, "w") == 0 || strncmp(name, "wcopy", 5) == 0)
		return 'w';
	if (strcmp(name, "h") == 0 || strncmp(name, "hcopy", 5) == 0)
		return 'h';
	return '?';
}

START_TEST(spore_recovers_find_maxima_model)
{
	static const char *const algos[] = {"spore-foba", "spore-lasso", "spore-lasso"};
	char *path = write_recovery_csv(3045, 11);
	struct fit_options fo = fit_options_default();
	struct dataset ds;
	struct model model;
	struct prep pr;
	struct error err = {""};
	char families[3] = {0};

	fo.algorithm = algos[_i];
	fo.train_frac = 0.1;
	fo.cv_folds = _i == 2 ? 5 : 0; /* the third run: SPORE-LASSO sized by cross-validation */
	ck_assert_msg(dataset_load_csv(&ds, path, NULL, &err) == 0, "%s", err.msg);
	ck_assert_msg(fit_model(&ds, &fo, &model, &pr, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(model.ntrain, 305);
	ck_assert_msg(model.nfeatures == 2, "%s chose %d features, first %s", fo.algorithm,
		      model.nfeatures, model.features[0].name);
	for (int f = 0; f < 2; f++)
		families[f] = feature_family(model.features[f].name);
	ck_assert_msg((families[0] == 'w' && families[1] == 'h') ||
			      (families[0] == 'h' && families[1] == 'w'),
		      "%s chose %s and %s", fo.algorithm, model.features[0].name,
		      model.features[1].name);
	/* the copies are remembered, so the slicer can choose among them */
	ck_assert_int_ge(model.features[0].naliases, 10);
	ck_assert_msg(model.test_mre < 0.02, "%s test MRE %.4f", fo.algorithm, model.test_mre);
	ck_assert_int_eq(pr.k, 2 + 40 + 60);
	model_release(&model);
	prep_release(&pr);
	dataset_release(&ds);
	free(path);
}
END_TEST

START_TEST(model_file_round_trip)
{
	char *path = write_recovery_csv(400, 5), *dir = test_tmpdir();
	char *out = xasprintf("%s/model.json", dir), *bad;
	struct fit_options fo = fit_options_default();
	struct dataset ds;
	struct model model, back;
	struct prep pr;
	struct error err = {""};
	int rows[400], floor_seen = 0;

	ck_assert_msg(dataset_load_csv(&ds, path, NULL, &err) == 0, "%s", err.msg);
	ck_assert_msg(fit_model(&ds, &fo, &model, &pr, &err) == 0, "%s", err.msg);
	ck_assert_msg(model_write(&model, out, &err) == 0, "%s", err.msg);
	ck_assert_msg(model_read(&back, out, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(back.nterms, model.nterms);
	ck_assert_int_eq(back.nfeatures, model.nfeatures);
	ck_assert_int_eq(back.features[0].naliases, model.features[0].naliases);
	for (int i = 0; i < 400; i++)
		rows[i] = i;
	/* same predictions bit for bit: 17 significant digits survive the text */
	ck_assert(fit_mre(&back, &ds, rows, 400) == fit_mre(&model, &ds, rows, 400));
	/* the floor: the least metric of the training rows, kept in the file */
	ck_assert(model.floored && back.floored && back.floor == model.floor);
	for (int i = 0; i < 400; i++)
		floor_seen += ds.y[i] == model.floor;
	ck_assert_int_ge(floor_seen, 1);
	ck_assert_double_le(model.floor, ds.y[0]);
	model_release(&back);
	bad = test_write_file(dir, "old.json", "{\"metric\": \"wall\", \"intercept\": -1, "
					      "\"terms\": []}");
	ck_assert_msg(model_read(&back, bad, &err) == 0, "%s", err.msg);
	ck_assert(!back.floored && model_eval(&back, NULL) == -1); /* a file before floors */
	model_release(&back);
	free(bad);
	bad = test_write_file(dir, "bad.json", "{\"metric\": \"wall\",\n \"terms\": [}\n");
	ck_assert_int_eq(model_read(&back, bad, &err), -1);
	ck_assert_msg(strstr(err.msg, "bad.json:2:") != NULL, "%s", err.msg);
	free(bad);
	bad = test_write_file(dir, "bad2.json", "{\"metric\": \"wall\", \"intercept\": 1, "
					      "\"terms\": [{\"coef\": 1, \"powers\": {\"a\": 0}}]}");
	ck_assert_int_eq(model_read(&back, bad, &err), -1);
	ck_assert_msg(strstr(err.msg, "terms[0].powers.a must be an integer from 1 to 6") != NULL,
		      "%s", err.msg);
	free(bad);
	model_release(&model);
	prep_release(&pr);
	dataset_release(&ds);
	free(out);
	free(path);
	free(dir);
}
END_TEST

/* Past a feature's training range the model goes on linearly from the range's edge: the
 * polynomial at the clamped values plus each outside feature's partial derivative there times
 * its distance; inside, and for a feature without a range, it is the polynomial itself. */
START_TEST(model_continues_linearly_past_range)
{
	struct model_feature f[2] = {{.name = "x", .min = 0, .max = 2},
				     {.name = "z", .min = 1, .max = 3}};
	struct model_term t[2] = {{.coef = 2, .m = {.nf = 1, .feat = {0}, .pow = {3}}},
				  {.coef = 0.5, .m = {.nf = 2, .feat = {0, 1}, .pow = {1, 2}}}};
	struct model m = {.intercept = 1, .nterms = 2, .terms = t, .nfeatures = 2, .features = f};

	/* inside: 1 + 2 * 1 + 0.5 * 1 * 4 */
	ck_assert(model_eval(&m, (double[]){1, 2}) == 5);
	/* x = 3 past 2: P(2, 2) = 1 + 16 + 4 = 21; dP/dx = 6 * 4 + 0.5 * 4 = 26; + 26 * 1 */
	ck_assert(model_eval(&m, (double[]){3, 2}) == 47);
	/* z = 5 past 3 and x = -1 below 0: P(0, 3) = 1; dP/dx = 0 + 0.5 * 9 = 4.5, times -1;
	 * dP/dz = 0.5 * 0 * 2 * 3 = 0 */
	ck_assert(model_eval(&m, (double[]){-1, 5}) == -3.5);
	/* without ranges (a model.json without min and max): the polynomial, 1 + 54 + 0.5 * 3 * 4 */
	f[0].min = f[0].max = NAN;
	f[1].min = f[1].max = NAN;
	ck_assert(model_eval(&m, (double[]){3, 2}) == 61);
	ck_assert(monomial_slope(&t[1].m, 1, (double[]){3, 2}) == 12);
	ck_assert(monomial_slope(&t[0].m, 1, (double[]){3, 2}) == 0);
}
END_TEST

/* A polynomial that gives zero or less predicts its floor (the least training value): no run
 * takes less than nothing. Above zero it is kept, below the floor too, inside the ranges (a
 * product of two features) and past them. y = 10 x - 30 z, x in [1, 4], z in [0, 1], floor 8;
 * a floor below zero (a metric that can be negative) still bounds what is not positive.
 * model_raised tells a raised value from the model's own equal to the floor (predict's
 * warning). */
START_TEST(model_is_floored_where_it_falls_to_zero)
{
	struct model_feature f[2] = {{.name = "x", .min = 1, .max = 4},
				     {.name = "z", .min = 0, .max = 1}};
	struct model_term t[2] = {{.coef = 10, .m = {.nf = 1, .feat = {0}, .pow = {1}}},
				  {.coef = -30, .m = {.nf = 1, .feat = {1}, .pow = {1}}}};
	struct model m = {.nterms = 2, .terms = t, .nfeatures = 2, .features = f, .floored = 1,
			  .floor = 8};

	ck_assert(model_eval(&m, (double[]){2, 0}) == 20);
	ck_assert(model_eval(&m, (double[]){2, 0.5}) == 5);   /* below the floor, above zero */
	ck_assert(model_eval(&m, (double[]){0.5, 0}) == 5);   /* x below its range: 10 - 5 */
	ck_assert(model_eval(&m, (double[]){1, 1}) == 8);     /* -20, inside */
	ck_assert(model_eval(&m, (double[]){3, 1}) == 8);     /* 0 */
	ck_assert(model_eval(&m, (double[]){0.5, 1}) == 8);   /* -25, x below its range */
	ck_assert(model_floored(&m, -25) && !model_floored(&m, 5));
	ck_assert(model_raised(&m, (double[]){1, 1}) && !model_raised(&m, (double[]){2, 0.5}));
	m.floor = 20; /* a value equal to the floor, above zero, is the model's own */
	ck_assert(model_eval(&m, (double[]){2, 0}) == 20 && !model_raised(&m, (double[]){2, 0}));
	m.floor = -22;
	ck_assert(model_eval(&m, (double[]){1, 1}) == -20);
	ck_assert(model_eval(&m, (double[]){0.5, 1}) == -22);
	m.floored = 0;
	ck_assert(model_eval(&m, (double[]){0.5, 1}) == -25);
}
END_TEST

/* A copy without offset takes a feature's place with every prediction unchanged, inside the
 * range and past it: x = -2 * c, so x's terms scale by (-2)^power, x's range [0, 2] becomes c's
 * [-1, 0], and the other copy (x = 1 + 4 * d) becomes c = -0.5 - 2 * d; a copy with an offset
 * is refused and changes nothing. */
START_TEST(copy_without_offset_takes_the_features_place)
{
	struct model_alias xa[2] = {{.name = xstrdup("d"), .a = 1, .b = 4},
				    {.name = xstrdup("c"), .a = 0, .b = -2}};
	struct model_feature f[2] = {{.name = xstrdup("x"), .min = 0, .max = 2, .naliases = 2,
				      .aliases = xa},
				     {.name = xstrdup("z"), .min = 1, .max = 3}};
	struct model_term t[2] = {{.coef = 2, .m = {.nf = 1, .feat = {0}, .pow = {3}}},
				  {.coef = 0.5, .m = {.nf = 2, .feat = {0, 1}, .pow = {1, 2}}}};
	struct model m = {.intercept = 1, .nterms = 2, .terms = t, .nfeatures = 2, .features = f};
	double before[3] = {model_eval(&m, (double[]){1, 2}), model_eval(&m, (double[]){3, 2}),
			    model_eval(&m, (double[]){-1, 5})};

	ck_assert_int_eq(model_swap_alias(&m, 0, 0), -1);
	ck_assert_str_eq(f[0].name, "x");
	ck_assert(t[0].coef == 2 && f[0].min == 0 && f[0].max == 2);
	ck_assert_int_eq(model_swap_alias(&m, 0, 1), 0);
	ck_assert_str_eq(f[0].name, "c");
	ck_assert_str_eq(xa[1].name, "x");
	ck_assert(xa[1].a == 0 && xa[1].b == -0.5);
	ck_assert(xa[0].a == -0.5 && xa[0].b == -2);
	ck_assert(t[0].coef == -16 && t[1].coef == -1);
	ck_assert(f[0].min == -1 && f[0].max == 0);
	ck_assert(f[1].min == 1 && f[1].max == 3);
	ck_assert(model_eval(&m, (double[]){-0.5, 2}) == before[0]);
	ck_assert(model_eval(&m, (double[]){-1.5, 2}) == before[1]);
	ck_assert(model_eval(&m, (double[]){0.5, 5}) == before[2]);
	for (int i = 0; i < 2; i++) {
		free(f[i].name);
		free(xa[i].name);
	}
}
END_TEST

/* The interval is split conformal prediction's: of 99 held-out ratios 0.01..0.99 (shuffled,
 * with a NaN left out), the 5th smallest to the 95th at 90% (floor(0.05 * 100), ceil(0.95 *
 * 100)); 9 ratios bound at most 80% (the smallest to the largest); a prediction <= 0 in
 * cross-validation leaves no upper bound, and it survives model.json (null). */
START_TEST(interval_is_conformal)
{
	double r[100], low, high;
	char *dir = test_tmpdir(), *out = xasprintf("%s/model.json", dir);
	struct model m = {.algorithm = "x", .metric = "wall", .fit = "relative"}, back;
	struct error err = {""};

	for (int i = 0; i < 99; i++)
		r[i] = ((i * 37) % 99 + 1) / 100.0;
	r[99] = NAN;
	model_set_interval(&m, r, NULL, 100, 0.9);
	ck_assert(m.interval.level == 0.9);
	ck_assert_double_eq(m.interval.low, 0.05);
	ck_assert_double_eq(m.interval.high, 0.95);
	ck_assert_int_eq(model_interval(&m, 2, &low, &high), 1);
	ck_assert_double_eq_tol(low, 0.1, 1e-15);
	ck_assert_double_eq_tol(high, 1.9, 1e-15);
	ck_assert_int_eq(model_interval(&m, 0, &low, &high), 0);
	model_set_interval(&m, r, NULL, 9, 0.9);
	ck_assert_double_eq_tol(m.interval.level, 0.8, 1e-15);
	ck_assert_double_eq(m.interval.low, 0.01);
	ck_assert_double_eq(m.interval.high, 0.99);
	model_set_interval(&m, r, NULL, 1, 0.9);
	ck_assert(m.interval.level == 0);
	ck_assert_int_eq(model_interval(&m, 2, &low, &high), 0);
	r[3] = INFINITY;
	model_set_interval(&m, r, NULL, 20, 0.9);
	ck_assert(isinf(m.interval.high));
	ck_assert_msg(model_write(&m, out, &err) == 0, "%s", err.msg);
	ck_assert_msg(model_read(&back, out, &err) == 0, "%s", err.msg);
	ck_assert(back.interval.level == m.interval.level && back.interval.low == m.interval.low);
	ck_assert(isinf(back.interval.high));
	model_release(&back);
	free(out);
	free(dir);
}
END_TEST

/* Grouped, the interval ranks the groups' extremes: 40 groups of two ratios, 1 - g/100 and
 * 1 + g/100 (g = 1..40), and a group of NaN alone: k = 40, the 2nd smallest of the groups'
 * least ratios (0.61) to the 39th of their largest (1.39); the same 80 ratios one by one give
 * the 4th smallest to the 77th (0.63, 1.37). */
START_TEST(interval_ranks_groups)
{
	double r[82];
	int group[82];
	struct model m = {.algorithm = "x", .metric = "wall", .fit = "relative"};

	for (int g = 0; g < 40; g++) {
		r[2 * g] = 1 - (g + 1) / 100.0;
		r[2 * g + 1] = 1 + (g + 1) / 100.0;
		group[2 * g] = group[2 * g + 1] = g;
	}
	r[80] = r[81] = NAN;
	group[80] = group[81] = 40;
	model_set_interval(&m, r, group, 82, 0.9);
	ck_assert(m.interval.level == 0.9);
	ck_assert_double_eq_tol(m.interval.low, 0.61, 1e-15);
	ck_assert_double_eq_tol(m.interval.high, 1.39, 1e-15);
	model_set_interval(&m, r, NULL, 82, 0.9);
	ck_assert_double_eq_tol(m.interval.low, 0.63, 1e-15);
	ck_assert_double_eq_tol(m.interval.high, 1.37, 1e-15);
}
END_TEST

/* SPORE-FoBa's two paths (the model select.c validates and train ends with): its greedy path alone, on 12
 * rows of y = 10 + a + 2b + 2c + d (a..d uniform on [1, 10]), took c, b, a c^2 and c^2 d (1.0%
 * off on its own rows); of its two paths, the one that admits linear terms first is exact, and
 * the cross-validation chooses it. */
START_TEST(foba_linear_path_chosen)
{
	const char *name[] = {"a", "b", "c", "d"};
	const double coef[] = {1, 2, 2, 1};
	struct fit_options fo = fit_options_default();
	struct dataset ds = {0};
	struct model m;
	struct prep pr;
	struct error err = {""};
	unsigned state = 1;

	ds.n = 12;
	ds.p = 4;
	ds.names = xcalloc(4, sizeof *ds.names);
	ds.ids = xcalloc(12, sizeof *ds.ids);
	ds.x = xmalloc(48 * sizeof *ds.x);
	ds.y = xmalloc(12 * sizeof *ds.y);
	ds.metric = xstrdup("instructions");
	for (int j = 0; j < 4; j++)
		ds.names[j] = xstrdup(name[j]);
	for (int r = 0; r < 12; r++) {
		ds.ids[r] = xasprintf("row %d", r + 1);
		ds.y[r] = 10;
		for (int j = 0; j < 4; j++) {
			state = state * 1103515245u + 12345u; /* an LCG: the same rows everywhere */
			ds.x[j * 12 + r] = 1 + 9 * ((state >> 8) & 0xffffff) / 16777216.0;
			ds.y[r] += coef[j] * ds.x[j * 12 + r];
		}
	}
	fo.train_frac = 1;
	ck_assert_int_eq(fit_model(&ds, &fo, &m, &pr, &err), 0);
	ck_assert_int_eq(m.nterms, 4);
	ck_assert_double_eq_tol(m.intercept, 10, 1e-6);
	for (int t = 0; t < 4; t++) {
		const struct model_term *term = &m.terms[t];
		int j = 0;

		ck_assert_int_eq(term->m.nf, 1);
		ck_assert_int_eq(term->m.pow[0], 1);
		while (j < 4 && strcmp(m.features[term->m.feat[0]].name, name[j]) != 0)
			j++;
		ck_assert_int_lt(j, 4);
		ck_assert_double_eq_tol(term->coef, coef[j], 1e-6);
	}
	model_release(&m);
	prep_release(&pr);
	dataset_release(&ds);
}
END_TEST

Suite *suite_fit(void)
{
	Suite *s = suite_create("fit");
	TCase *tc = tcase_create("fit");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, csv_roles_and_values);
	tcase_add_test(tc, drop_exact_name_or_prefix);
	tcase_add_test(tc, csv_errors_name_line_and_column);
	tcase_add_test(tc, prep_decisions);
	tcase_add_test(tc, bad_data_is_refused_clearly);
	tcase_add_loop_test(tc, spore_recovers_find_maxima_model, 0, 3);
	tcase_add_test(tc, model_file_round_trip);
	tcase_add_test(tc, model_continues_linearly_past_range);
	tcase_add_test(tc, model_is_floored_where_it_falls_to_zero);
	tcase_add_test(tc, copy_without_offset_takes_the_features_place);
	tcase_add_test(tc, interval_is_conformal);
	tcase_add_test(tc, interval_ranks_groups);
	tcase_add_test(tc, foba_linear_path_chosen);
	suite_add_tcase(s, tc);
	return s;
}
