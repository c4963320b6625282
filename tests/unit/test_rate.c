/*
 * test_rate.c: the rate learner (rate.c) and the rate model (model.c): the neighbours a
 * prediction averages (ties, left-out points), the features the forward selection chooses on a
 * work-per-byte table no polynomial holds, the phase of a table that grows by doubling, why it
 * holds out a data file's inputs together, the model file, and clear refusals.
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
#include "rate.h"
#include "tests.h"
#include "util.h"

/* Returns a uniform deviate in [0, 1) from the seeded state *s (splitmix64). */
static double uniform(unsigned long long *s)
{
	unsigned long long z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (double)((z ^ (z >> 31)) >> 11) / 9007199254740992.0;
}

/* Makes ds an empty table of n rows over the p columns names[0..p), its metric metric. */
static void rows_init(struct dataset *ds, int n, int p, const char *const *names,
		      const char *metric)
{
	memset(ds, 0, sizeof *ds);
	ds->n = n;
	ds->p = p;
	ds->names = xcalloc((size_t)p, sizeof *ds->names);
	for (int j = 0; j < p; j++)
		ds->names[j] = xstrdup(names[j]);
	ds->x = xcalloc((size_t)n * (size_t)p, sizeof *ds->x);
	ds->y = xcalloc((size_t)n, sizeof *ds->y);
	ds->ids = xcalloc((size_t)n, sizeof *ds->ids);
	ds->metric = xstrdup(metric);
}

/* The work per byte of a program by its level (0..5) and the kind of its data (0..2): no
 * polynomial of low degree in the two holds it. */
static const double per_byte[6][3] = {
	{275, 1271, 595}, {307, 1265, 592}, {4921, 1663, 3779},
	{415, 1268, 943}, {833, 1350, 2485}, {4995, 1351, 3538},
};

/* Fills ds with n rows: input:size(stdin) (10 KB to 10 MB), input:arg1 (the level),
 * input:entropy(data) and input:newlines(data) (the kind's, within 0.01 and 0.001),
 * input:arg2 (noise) and instructions = size * per_byte[level][kind], times (size / 1e5) to
 * the power rise on the data of kind 0 (its cost a byte rises with the size). */
static void table_rows(struct dataset *ds, int n, unsigned long long seed, double rise)
{
	static const char *const names[] = {"input:size(stdin)", "input:arg1", "input:entropy(data)",
					    "input:arg2", "input:newlines(data)"};
	static const double entropy[3] = {3.7, 7.99, 4.6}, newlines[3] = {0.06, 0.004, 0.03};

	rows_init(ds, n, 5, names, "instructions");
	for (int i = 0; i < n; i++) {
		int level = (int)(6 * uniform(&seed)), kind = (int)(3 * uniform(&seed));
		double size = floor(1e4 * pow(1e3, uniform(&seed)));

		ds->x[i] = size;
		ds->x[n + i] = level;
		ds->x[2 * n + i] = entropy[kind] + 0.01 * uniform(&seed);
		ds->x[3 * n + i] = floor(100 * uniform(&seed));
		ds->x[4 * n + i] = newlines[kind] + 0.001 * uniform(&seed);
		ds->y[i] = size * per_byte[level][kind] * (kind == 0 ? pow(size / 1e5, rise) : 1);
		ds->ids[i] = xasprintf("row %d", i);
	}
}

/* Returns the names of model's axes, comma-separated, owned by the caller. */
static char *axis_names(const struct model *m)
{
	struct strbuf sb = {0};

	for (int j = 0; j < m->rate.naxes; j++)
		strbuf_addf(&sb, "%s%s", j ? "," : "", m->features[m->rate.axes[j].feature].name);
	return sb.buf ? strbuf_detach(&sb) : xstrdup("");
}

/* Fits rate on every row of ds with the given groups; asserts success. */
static void learn_ok(const struct dataset *ds, const int *group, struct model *m)
{
	int *rows = xcalloc((size_t)ds->n, sizeof *rows), *usable = xcalloc((size_t)ds->p,
									     sizeof *usable);
	struct error err = {""};

	for (int i = 0; i < ds->n; i++)
		rows[i] = i;
	for (int j = 0; j < ds->p; j++)
		usable[j] = j;
	memset(m, 0, sizeof *m);
	ck_assert_msg(rate_learn(ds, rows, ds->n, group, usable, ds->p, 0, m, &err) == 0, "%s",
		      err.msg);
	m->metric = xstrdup(ds->metric);
	free(rows);
	free(usable);
}

/* Returns the log rate of a rate model over one axis (feature 1, the scale feature 0) with
 * npoints points, k neighbours and a slope off the `near` nearest (0: none), at query. */
static double log_rate_at(const double *point, const double *log_rate, const double *log_scale,
			  int npoints, int k, int near, double query, double lq,
			  const unsigned char *skip)
{
	struct model_axis axis = {.feature = 1, .centre = 0, .spread = 1};
	struct model_rate r = {.scale = 0, .k = k, .naxes = 1, .axes = &axis, .npoints = npoints,
			       .point = (double *)point, .log_rate = (double *)log_rate,
			       .slope_near = near, .log_scale = (double *)log_scale};

	return model_rate_log(&r, &query, lq, skip);
}

/* The neighbours: the k nearest and every point as near as the k-th; left-out points are not
 * neighbours; with every point left out there is no rate. */
START_TEST(nearest_counts_ties_and_skips)
{
	const double point[] = {0, 1, 1, 3}, log_rate[] = {0, 1, 3, 5};
	const unsigned char skip1[] = {0, 1, 0, 0}, all[] = {1, 1, 1, 1};
	struct model_rate none = {.k = 1, .npoints = 4, .point = (double *)point,
				  .log_rate = (double *)log_rate};

	ck_assert(log_rate_at(point, log_rate, NULL, 4, 1, 0, 1, 0, NULL) == 2);
	ck_assert(log_rate_at(point, log_rate, NULL, 4, 1, 0, 1, 0, skip1) == 3);
	ck_assert(log_rate_at(point, log_rate, NULL, 4, 2, 0, 0, 0, NULL) == 4.0 / 3);
	ck_assert(log_rate_at(point, log_rate, NULL, 4, 9, 0, 9, 0, NULL) == 9.0 / 4);
	ck_assert(isnan(log_rate_at(point, log_rate, NULL, 4, 1, 0, 0, 0, all)));
	/* no axis: every point is as near */
	ck_assert(model_rate_log(&none, NULL, 0, NULL) == 9.0 / 4);
}
END_TEST

/* The slope: through the like pairs among the nearest (alike in the axes, their scales more
 * than 1.65x apart), each neighbour's log rate moved by it to the input's log scale. Three
 * points at 0 of log scales 0, 1, 2 and log rates 0, 0.5, 1 have the slope 0.5, and an input
 * of log scale 3 the log rate 1.5 from each; a point beyond (at 5) is no like pair, nor are
 * two whose scales are 1.5x apart; the slope is bounded by 1. */
START_TEST(slope_of_like_pairs)
{
	const double point[] = {0, 0, 0, 5}, log_rate[] = {0, 0.5, 1, 9}, scales[] = {0, 1, 2, 0};
	const double close[] = {0, 0.4, 2, 0}, steep[] = {0, 5, 10, 9};
	const unsigned char skip2[] = {0, 0, 1, 0};

	ck_assert(log_rate_at(point, log_rate, scales, 4, 1, 3, 0, 3, NULL) == 1.5);
	ck_assert(log_rate_at(point, log_rate, scales, 4, 1, 4, 0, 3, NULL) == 1.5);
	/* without a slope the same neighbours give their mean */
	ck_assert(log_rate_at(point, log_rate, scales, 4, 1, 0, 0, 3, NULL) == 0.5);
	/* left out, point 2 is in no pair: the pair (0, 1) alone, slope 0.5 */
	ck_assert(log_rate_at(point, log_rate, scales, 4, 1, 3, 0, 1, skip2) == 0.5);
	/* the pair (0, 1) is 1.5x apart: the pairs with point 2 alone, (0.5 * 2 + 0.5 * 1.6) /
	 * (4 + 2.56) */
	ck_assert(fabs(log_rate_at(point, log_rate, close, 4, 1, 3, 0, 2, NULL) -
		       (1.5 + 2.8 / 6.56 * 3.6) / 3) < 1e-15);
	/* a slope of 5 is bounded by 1 */
	ck_assert(log_rate_at(point, steep, scales, 4, 1, 3, 0, 3, NULL) == (3 + 7 + 11) / 3.0);
}
END_TEST

/* On a table of work per byte by level and kind of data, the learner scales by the size,
 * measures nearness in the level and the content (both features that tell the kind: one
 * chosen, the other its witness), leaves the noise out, and predicts new inputs of the table
 * exactly, where SPORE's polynomial misses by far. */
START_TEST(rate_recovers_a_table)
{
	struct dataset train, test;
	struct model m, poly;
	struct prep pr;
	struct fit_options fo = fit_options_default();
	struct error err = {""};
	int rows[200];
	char *axes;

	table_rows(&train, 120, 1, 0);
	table_rows(&test, 200, 2, 0);
	learn_ok(&train, NULL, &m);
	axes = axis_names(&m);
	ck_assert_str_eq(m.features[m.rate.scale].name, "input:size(stdin)");
	ck_assert_msg(m.rate.naxes == 3 && strstr(axes, "input:arg1") &&
		      strstr(axes, "input:entropy(data)") && strstr(axes, "input:newlines(data)"),
		      "axes %s", axes);
	ck_assert_int_eq(m.rate.slope_near, 0); /* the rate is flat in the size: no slope */
	for (int i = 0; i < 200; i++)
		rows[i] = i;
	ck_assert_msg(fit_mre(&m, &test, rows, 200) < 1e-12, "%g", fit_mre(&m, &test, rows, 200));
	fo.train_frac = 1;
	ck_assert_msg(fit_model(&train, &fo, &poly, &pr, &err) == 0, "%s", err.msg);
	ck_assert_msg(fit_mre(&poly, &test, rows, 200) > 0.1, "%g", fit_mre(&poly, &test, rows, 200));
	model_release(&poly);
	prep_release(&pr);
	free(axes);
	model_release(&m);
	dataset_release(&train);
	dataset_release(&test);
}
END_TEST

/* Where one kind of data costs more a byte on a larger file (size^0.3), the nearest rates,
 * read off files of other sizes, miss; the slope of the like pairs near the input (the same
 * level and kind) moves them to its size, and new inputs are predicted within rounding. */
START_TEST(slope_follows_a_rising_rate)
{
	struct dataset train, test;
	struct model m;
	int rows[200];
	double with, without;

	table_rows(&train, 120, 1, 0.3);
	table_rows(&test, 200, 2, 0.3);
	learn_ok(&train, NULL, &m);
	for (int i = 0; i < 200; i++)
		rows[i] = i;
	ck_assert_int_gt(m.rate.slope_near, 0);
	with = fit_mre(&m, &test, rows, 200);
	m.rate.slope_near = 0;
	without = fit_mre(&m, &test, rows, 200);
	ck_assert_msg(with < 1e-9 && without > 0.05, "with the slope %g, without %g", with,
		      without);
	model_release(&m);
	dataset_release(&train);
	dataset_release(&test);
}
END_TEST

/* Inputs that share a data file share its rate: judged one by one, a feature that names the
 * file (its number, or its size) finds the file's other inputs and looks exact; judged a file
 * at a time, as the learner is when given the groups, it tells nothing of a new file and is
 * left out. Here 30 files of random rates, 3 inputs each at a level that does not matter. */
START_TEST(groups_keep_a_file_name_out)
{
	static const char *const names[] = {"input:size(stdin)", "input:arg1", "input:arg2"};
	struct dataset ds = {.n = 90, .p = 3};
	unsigned long long seed = 7;
	int group[90];
	struct model m;
	char *axes;

	ds.names = xcalloc(3, sizeof *ds.names);
	for (int j = 0; j < 3; j++)
		ds.names[j] = xstrdup(names[j]);
	ds.x = xcalloc(3 * 90, sizeof *ds.x);
	ds.y = xcalloc(90, sizeof *ds.y);
	ds.ids = xcalloc(90, sizeof *ds.ids);
	ds.metric = xstrdup("instructions");
	for (int i = 0; i < 90; i += 3) {
		double size = floor(1e4 * pow(1e3, uniform(&seed))), rate = 1e3 + 9e3 * uniform(&seed);

		for (int k = i; k < i + 3; k++) {
			group[k] = i / 3;
			ds.x[k] = size;
			ds.x[90 + k] = floor(6 * uniform(&seed));
			ds.x[180 + k] = i / 3;
			ds.y[k] = size * rate;
			ds.ids[k] = xasprintf("row %d", k);
		}
	}
	learn_ok(&ds, NULL, &m);
	axes = axis_names(&m);
	ck_assert_msg(m.rate.naxes > 0 && strstr(axes, "input:arg1") == NULL, "alone: axes %s",
		      axes);
	free(axes);
	model_release(&m);
	learn_ok(&ds, group, &m);
	ck_assert_int_eq(m.rate.naxes, 0);
	model_release(&m);
	dataset_release(&ds);
}
END_TEST

/* The model file keeps the training inputs' coordinates and rates: read back, it predicts bit
 * for bit what was written, and says what it is. */
START_TEST(rate_model_round_trip)
{
	char *dir = test_tmpdir(), *path = xasprintf("%s/model.json", dir), *bad;
	struct dataset ds;
	struct model m, back;
	struct strbuf formula = {0};
	struct error err = {""};
	int rows[60];

	table_rows(&ds, 60, 4, 0.2);
	learn_ok(&ds, NULL, &m);
	m.algorithm = xstrdup("rate");
	m.fit = xstrdup("relative");
	ck_assert_msg(model_write(&m, path, &err) == 0, "%s", err.msg);
	ck_assert_msg(model_read(&back, path, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(back.rate.npoints, 60);
	ck_assert_int_eq(back.rate.k, m.rate.k);
	ck_assert_int_gt(m.rate.slope_near, 0);
	ck_assert_int_eq(back.rate.slope_near, m.rate.slope_near);
	for (int i = 0; i < 60; i++)
		rows[i] = (i * 7) % 60;
	ck_assert(fit_mre(&back, &ds, rows, 60) == fit_mre(&m, &ds, rows, 60));
	model_format(&back, &formula);
	ck_assert_msg(strncmp(formula.buf, "instructions = input:size(stdin) * rate(", 40) == 0 &&
		      strstr(formula.buf, "nearest of 60, sloped in log input:size(stdin) by the "),
		      "%s", formula.buf);
	strbuf_release(&formula);
	model_release(&back);
	bad = test_write_file(dir, "bad.json", "{\"metric\": \"t\", \"intercept\": 0, \"terms\": [], "
				 "\"rate\": {\"scale\": \"s\", \"k\": 1, \"axes\": [], \"points\": [[]], "
				 "\"log_rates\": []}}");
	ck_assert_int_eq(model_read(&back, bad, &err), -1);
	ck_assert_msg(strstr(err.msg, "as many \"points\" as \"log_rates\"") != NULL, "%s", err.msg);
	free(bad);
	bad = test_write_file(dir, "bad2.json", "{\"metric\": \"t\", \"intercept\": 0, \"terms\": "
				 "[], \"rate\": {\"scale\": \"s\", \"k\": 1, \"axes\": [], \"points\": "
				 "[[]], \"log_rates\": [1], \"per_count\": {\"k\": 0, \"axes\": [], "
				 "\"points\": [[]], \"log_rates\": [-20]}}}");
	ck_assert_int_eq(model_read(&back, bad, &err), -1);
	ck_assert_msg(strstr(err.msg, "bad2.json: rate.per_count.k must be 1 or more") != NULL, "%s",
		      err.msg);
	free(bad);
	bad = test_write_file(dir, "bad3.json", "{\"metric\": \"t\", \"intercept\": 0, \"terms\": "
				 "[], \"rate\": {\"scale\": \"s\", \"k\": 1, \"axes\": [], \"points\": "
				 "[[]], \"log_rates\": [1], \"per_count\": {\"k\": 1, \"axes\": [], "
				 "\"points\": [[]], \"log_rates\": [-20], \"per_count\": {}}}}");
	ck_assert_int_eq(model_read(&back, bad, &err), -1);
	ck_assert_msg(strstr(err.msg, "bad3.json: rate.per_count.per_count must be an object, in "
			     "\"rate\" only") != NULL, "%s", err.msg);
	free(bad);
	model_release(&m);
	dataset_release(&ds);
	free(path);
	free(dir);
}
END_TEST

/* Fills ds with n rows of a compressor's table whose log cost a byte adds a level's part
 * (input:arg1, levels 1 to 9, a table) and a kind of data's (input:entropy(data), 0.3 a bit):
 * input:size(stdin) (10 KB to 10 MB), the level, the entropy (3.7, 7.99 or 4.6 bits a byte, the
 * kind's), instructions = size * exp(part[level] + 0.3 * entropy). With gap set, no row is of
 * level 3 on the first kind (text), as lz4's training had no -3 on text; with only, every row
 * is. */
static void additive_rows(struct dataset *ds, int n, unsigned long long seed, int gap, int only)
{
	static const char *const names[] = {"input:size(stdin)", "input:arg1", "input:entropy(data)"};
	static const double part[10] = {0, 4.1, 4.6, 5.5, 5.9, 6.3, 6.35, 6.9, 7.0, 7.05};
	static const double entropy[3] = {3.7, 7.99, 4.6};

	rows_init(ds, n, 3, names, "instructions");
	for (int i = 0; i < n; i++) {
		int level = 1 + (int)(9 * uniform(&seed)), kind = (int)(3 * uniform(&seed));
		double size = floor(1e4 * pow(1e3, uniform(&seed)));

		if (only) {
			level = 3;
			kind = 0;
		} else if (gap && level == 3 && kind == 0) {
			kind = 1 + (int)(2 * uniform(&seed));
		}
		ds->x[i] = size;
		ds->x[n + i] = level;
		ds->x[2 * n + i] = entropy[kind];
		ds->y[i] = size * exp(part[level] + 0.3 * entropy[kind]);
		ds->ids[i] = xasprintf("row %d", i);
	}
}

/* Frees the base of m's rate: the nearest rates alone. */
static void without_base(struct model *m)
{
	for (int j = 0; j < m->rate.naxes; j++) {
		free(m->rate.axes[j].knot);
		free(m->rate.axes[j].effect);
		m->rate.axes[j].knot = m->rate.axes[j].effect = NULL;
		m->rate.axes[j].nknots = 0;
	}
}

/* Where training has no input of one level on one kind of data, the nearest rates give such
 * an input the rate of that level on another kind, or of that kind at another level, and miss
 * by 18%; a base that adds a part for the level (a knot at each of its 9 values) and one for
 * the content (a line in the entropy) reads the missing combination off the inputs that share
 * each part, within 0.1%. The learner chooses that base, which the file keeps: read back, it
 * predicts bit for bit. */
START_TEST(base_reads_a_missing_combination)
{
	char *dir = test_tmpdir(), *path = xasprintf("%s/model.json", dir);
	struct dataset train, test;
	struct model m, back;
	struct strbuf formula = {0};
	struct error err = {""};
	int rows[60];
	double with, without;

	additive_rows(&train, 120, 11, 1, 0);
	additive_rows(&test, 60, 12, 0, 1);
	learn_ok(&train, NULL, &m);
	for (int i = 0; i < 60; i++)
		rows[i] = i;
	m.algorithm = xstrdup("rate");
	m.fit = xstrdup("relative");
	ck_assert_msg(model_write(&m, path, &err) == 0, "%s", err.msg);
	ck_assert_msg(model_read(&back, path, &err) == 0, "%s", err.msg);
	ck_assert(fit_mre(&back, &test, rows, 60) == fit_mre(&m, &test, rows, 60));
	model_release(&back);
	model_format(&m, &formula);
	ck_assert_msg(strstr(formula.buf, "the residuals of a base in input:arg1 (9 knots), "
			     "input:entropy(data) (") != NULL, "%s", formula.buf);
	with = fit_mre(&m, &test, rows, 60);
	without_base(&m);
	without = fit_mre(&m, &test, rows, 60);
	ck_assert_msg(with < 1e-3 && without > 0.15, "with the base %g, without %g", with, without);
	strbuf_release(&formula);
	model_release(&m);
	dataset_release(&train);
	dataset_release(&test);
	free(path);
	free(dir);
}
END_TEST

/* Fills ds with n rows of a table that grows by doubling: input:number(1), the items (1,000 to
 * 1,000,000), input:arg2 (noise), and instructions = 40 an item plus 60 for each slot of the
 * table's last size, 2^floor(log2 items): 70 to 100 an item, a sawtooth in log2 of the items. */
static void doubling_rows(struct dataset *ds, int n, unsigned long long seed)
{
	static const char *const names[] = {"input:number(1)", "input:arg2"};

	rows_init(ds, n, 2, names, "instructions");
	for (int i = 0; i < n; i++) {
		double items = floor(1e3 * pow(1e3, uniform(&seed)));

		ds->x[i] = items;
		ds->x[n + i] = floor(100 * uniform(&seed));
		ds->y[i] = 40 * items + 60 * exp2(floor(log2(items)));
		ds->ids[i] = xasprintf("row %d", i);
	}
}

/* Where the cost an item is a sawtooth in log2 of the items (a table that doubles), the
 * training inputs nearest in the number of items lie at another place between two powers of
 * two and miss by up to a fifth; the phase of the number (its log2's cosine and sine) finds
 * those at the same place, and new inputs are predicted within 1% (0.6%: what is left is the
 * jump at each power of two, which 0.99 and 0.01 of the way straddle). The model
 * file keeps the phase, and read back predicts bit for bit. */
START_TEST(phase_finds_a_doubling_table)
{
	char *dir = test_tmpdir(), *path = xasprintf("%s/model.json", dir);
	struct dataset train, test;
	struct model m, back;
	struct strbuf formula = {0};
	struct error err = {""};
	double nearest_error = 0;
	int rows[200], phases = 0;

	doubling_rows(&train, 80, 5);
	doubling_rows(&test, 200, 6);
	learn_ok(&train, NULL, &m);
	ck_assert_str_eq(m.features[m.rate.scale].name, "input:number(1)");
	for (int j = 0; j < m.rate.naxes; j++) {
		ck_assert_str_ne(m.features[m.rate.axes[j].feature].name, "input:arg2");
		phases += m.rate.axes[j].phase != MODEL_PHASE_NONE;
	}
	ck_assert_int_gt(phases, 0);
	for (int i = 0; i < 200; i++) {
		double best = INFINITY, rate = 0, items = test.x[i];

		for (int t = 0; t < 80; t++) { /* the nearest in log items: its rate */
			double d = fabs(log(train.x[t] / items));

			if (d < best) {
				best = d;
				rate = train.y[t] / train.x[t];
			}
		}
		nearest_error += fabs(rate * items / test.y[i] - 1) / 200;
		rows[i] = i;
	}
	ck_assert_msg(fit_mre(&m, &test, rows, 200) < 0.01 && nearest_error > 0.03,
		      "with the phase %g, the nearest in log items %g", fit_mre(&m, &test, rows, 200),
		      nearest_error);
	m.algorithm = xstrdup("rate");
	m.fit = xstrdup("relative");
	ck_assert_msg(model_write(&m, path, &err) == 0, "%s", err.msg);
	ck_assert_msg(model_read(&back, path, &err) == 0, "%s", err.msg);
	ck_assert(fit_mre(&back, &test, rows, 200) == fit_mre(&m, &test, rows, 200));
	model_format(&back, &formula);
	ck_assert_msg(strstr(formula.buf, "2pi log2 input:number(1)") != NULL, "%s", formula.buf);
	strbuf_release(&formula);
	model_release(&back);
	model_release(&m);
	dataset_release(&train);
	dataset_release(&test);
	free(path);
	free(dir);
}
END_TEST

/* Fills ds as doubling_rows does (seed), its metric then a time: the instructions (ds->count)
 * times a time an instruction that rises smoothly with the items, 2.8x over their range (a
 * table outgrowing the caches), with up to 3% of noise (Lua's hash script: 0.19 ns an
 * instruction at 29,248 keys, 0.54 at 1.1 million; its runs' noise 1.4%). */
static void timed_rows(struct dataset *ds, int n, unsigned long long seed)
{
	doubling_rows(ds, n, seed);
	free(ds->metric);
	ds->metric = xstrdup("wall");
	ds->count = xcalloc((size_t)n, sizeof *ds->count);
	for (int i = 0; i < n; i++) {
		ds->count[i] = ds->y[i];
		ds->y[i] = ds->count[i] * 0.2e-9 * pow(ds->x[i] / 1e3, 0.15) *
			   (0.97 + 0.06 * uniform(&seed));
	}
}

/* A time through the instruction count: the sawtooth of a table that doubles is in the exact
 * count, where its phase is plain, and the time an instruction is smooth in the items; the
 * time a unit read at once carries both and the noise, under which the phase is hard to see.
 * So the instructions an item are read off the inputs nearest in the phase, the time an
 * instruction off those nearest in log items, and new inputs err less than half as much as
 * the time an item read at once. The model file predicts the same; without a count it is
 * refused. */
START_TEST(time_goes_through_the_count)
{
	char *dir = test_tmpdir(), *path = xasprintf("%s/model.json", dir);
	struct dataset train, test;
	struct model m, direct, back;
	struct strbuf formula = {0};
	struct error err = {""};
	int rows[200], usable[2] = {0, 1}, phases = 0;
	double through, at_once;

	timed_rows(&train, 80, 5);
	timed_rows(&test, 200, 6);
	for (int i = 0; i < 200; i++)
		rows[i] = i;
	memset(&m, 0, sizeof m);
	ck_assert_msg(rate_learn(&train, rows, 80, NULL, usable, 2, 1, &m, &err) == 0, "%s",
		      err.msg);
	m.metric = xstrdup("wall");
	learn_ok(&train, NULL, &direct);
	ck_assert_ptr_nonnull(m.rate.per_count);
	ck_assert_ptr_null(direct.rate.per_count);
	for (int j = 0; j < m.rate.naxes; j++)
		phases += m.rate.axes[j].phase != MODEL_PHASE_NONE;
	ck_assert_int_eq(phases, 2);
	ck_assert_int_eq(m.rate.per_count->naxes, 1);
	ck_assert_int_eq(m.rate.per_count->axes[0].log, 1);
	ck_assert_str_eq(m.features[m.rate.per_count->axes[0].feature].name, "input:number(1)");
	through = fit_mre(&m, &test, rows, 200);
	at_once = fit_mre(&direct, &test, rows, 200);
	ck_assert_msg(through < 0.025 && at_once > 2 * through, "through the count %g, at once %g",
		      through, at_once);
	m.algorithm = xstrdup("rate");
	m.fit = xstrdup("relative");
	ck_assert_msg(model_write(&m, path, &err) == 0, "%s", err.msg);
	ck_assert_msg(model_read(&back, path, &err) == 0, "%s", err.msg);
	ck_assert(fit_mre(&back, &test, rows, 200) == through);
	model_format(&back, &formula);
	ck_assert_str_eq(formula.buf, "wall = input:number(1) * rate(cos2pi log2 input:number(1), "
			 "sin2pi log2 input:number(1); the 1 nearest of 80) [instructions] * "
			 "rate(log input:number(1); the 3 nearest of 80, sloped in log "
			 "input:number(1) by the 5 nearest, averaged with 16 choices on bootstraps "
			 "(also reading input:arg2)) [wall an instruction]");
	free(train.count);
	train.count = NULL;
	ck_assert_int_eq(rate_learn(&train, rows, 80, NULL, usable, 2, 1, &back, &err), -1);
	ck_assert_str_eq(err.msg, "the profile has no instruction count to take wall through");
	strbuf_release(&formula);
	model_release(&back);
	model_release(&direct);
	model_release(&m);
	dataset_release(&train);
	dataset_release(&test);
	free(path);
	free(dir);
}
END_TEST

/* Fills ds with n rows of a program whose exact count is 2e5 + 40 loops (loop:main:p.c:7, 1e3
 * to 1e6), of a file (input:size(arg1), 16 bytes a loop, within 5%) and an option
 * (input:arg2, 0 to 4) that sets the time an instruction by a table no polynomial of low
 * degree holds (its data in the caches: 1.0, 2.2, 1.3, 2.8 and 1.6 ns), with 2% of noise. */
static void program_rows(struct dataset *ds, int n, unsigned long long seed)
{
	static const char *const names[] = {"loop:main:p.c:7", "input:size(arg1)", "input:arg2"};
	static const double ns[5] = {1.0, 2.2, 1.3, 2.8, 1.6};

	rows_init(ds, n, 3, names, "wall");
	ds->count = xcalloc((size_t)n, sizeof *ds->count);
	for (int i = 0; i < n; i++) {
		double loops = floor(1e3 * pow(1e3, uniform(&seed)));
		int option = (int)(5 * uniform(&seed));

		ds->x[i] = loops;
		ds->x[n + i] = floor(16 * loops * (0.95 + 0.1 * uniform(&seed)));
		ds->x[2 * n + i] = option;
		ds->count[i] = 2e5 + 40 * loops;
		ds->y[i] = ds->count[i] * 1e-9 * ns[option] * (0.98 + 0.04 * uniform(&seed));
		ds->ids[i] = xasprintf("row %d", i);
	}
}

/* A polynomial of the program's features may go through the count as the rate does: the
 * polynomial is fitted to the exact count (its one term found, to the coefficient), the time an
 * instruction read off the training inputs nearest in the option (and in the size's phase,
 * which the forward selection takes on this noise by chance); new inputs err 2.9%, where the
 * time fitted at once, whose time a loop follows the option's table, errs over five times as
 * much at any degree. The model file (a polynomial with a "per_count")
 * predicts the same; a "per_count" beside a rate, or without a count, is refused. */
START_TEST(polynomial_goes_through_the_count)
{
	char *dir = test_tmpdir(), *path = xasprintf("%s/model.json", dir), *text, *bad;
	const char *at;
	struct dataset train, test;
	struct model m, direct, back;
	struct prep prep;
	struct strbuf formula = {0};
	struct error err = {""};
	struct fit_options fo = fit_options_default();
	int rows[200], option = 0;
	double through, at_once;

	program_rows(&train, 90, 7);
	program_rows(&test, 200, 8);
	for (int i = 0; i < 200; i++)
		rows[i] = i;
	fo.train_frac = 1;
	fo.per_count = 1;
	ck_assert_msg(fit_model(&train, &fo, &m, &prep, &err) == 0, "%s", err.msg);
	prep_release(&prep);
	ck_assert_int_eq(m.nterms, 1);
	ck_assert_str_eq(m.features[m.terms[0].m.feat[0]].name, "loop:main:p.c:7");
	ck_assert_int_eq(m.terms[0].m.pow[0], 1);
	ck_assert_msg(fabs(m.terms[0].coef / 40 - 1) < 1e-9 && fabs(m.intercept / 2e5 - 1) < 1e-6,
		      "count = %.17g + %.17g loops", m.intercept, m.terms[0].coef);
	ck_assert_int_eq(m.rate.npoints, 0);
	ck_assert_ptr_nonnull(m.rate.per_count);
	for (int j = 0; j < m.rate.per_count->naxes; j++)
		option += strcmp(m.features[m.rate.per_count->axes[j].feature].name, "input:arg2") == 0;
	ck_assert_int_eq(option, 1);
	through = fit_mre(&m, &test, rows, 200);
	for (fo.degree = 1, fo.per_count = 0; fo.degree <= 3; fo.degree++) {
		ck_assert_msg(fit_model(&train, &fo, &direct, &prep, &err) == 0, "%s", err.msg);
		at_once = fit_mre(&direct, &test, rows, 200);
		ck_assert_msg(through < 0.035 && at_once > 5 * through,
			      "through the count %g, at once (degree %d) %g", through, fo.degree,
			      at_once);
		ck_assert_ptr_null(direct.rate.per_count);
		model_release(&direct);
		prep_release(&prep);
	}
	ck_assert_msg(model_write(&m, path, &err) == 0, "%s", err.msg);
	ck_assert_msg(model_read(&back, path, &err) == 0, "%s", err.msg);
	ck_assert(fit_mre(&back, &test, rows, 200) == through);
	model_format(&back, &formula);
	ck_assert_str_eq(formula.buf, "wall = (2e+05 + 40 * loop:main:p.c:7) [instructions] * "
			 "rate(input:arg2, cos2pi log2 input:size(arg1); the 3 nearest of 90, "
			 "averaged with 16 choices on bootstraps) [wall an instruction]");
	model_release(&back);
	text = test_read_file(path);
	at = strstr(text, "\"per_count\": {");
	ck_assert_ptr_nonnull(at);
	free(test_write_file(dir, "model.json", bad = xasprintf("%.*s\"rate\": {\"scale\": "
		"\"input:arg2\", \"k\": 1, \"axes\": [], \"points\": [[]], \"log_rates\": [0]}, %s",
		(int)(at - text), text, at)));
	ck_assert_int_eq(model_read(&back, path, &err), -1);
	ck_assert_msg(strstr(err.msg, ": \"per_count\" must be an object, in a polynomial only (a "
			     "rate's is rate.per_count)") != NULL, "%s", err.msg);
	free(train.count);
	train.count = NULL;
	fo.per_count = 1;
	ck_assert_int_eq(fit_model(&train, &fo, &back, &prep, &err), -1);
	ck_assert_str_eq(err.msg, "the profile has no instruction count to take wall through");
	strbuf_release(&formula);
	model_release(&m);
	dataset_release(&train);
	dataset_release(&test);
	free(text);
	free(bad);
	free(path);
	free(dir);
}
END_TEST

/* Fills ds with n rows of a time whose rate a byte rises 1.65x with a feature of the data
 * (input:entropy(data), 0 to 1) under runs' noise of up to 10% (input:arg2: noise). */
static void weak_rows(struct dataset *ds, int n, unsigned long long seed)
{
	static const char *const names[] = {"input:size(stdin)", "input:entropy(data)",
					    "input:arg2"};

	rows_init(ds, n, 3, names, "wall");
	for (int i = 0; i < n; i++) {
		double z = uniform(&seed), size = floor(1e4 * pow(1e3, uniform(&seed)));

		ds->x[i] = size;
		ds->x[n + i] = z;
		ds->x[2 * n + i] = uniform(&seed);
		ds->y[i] = size * 1e-8 * exp(0.5 * z) * (0.9 + 0.2 * uniform(&seed));
		ds->ids[i] = xasprintf("row %d", i);
	}
}

/* Returns whether rates a and b differ in their axes' features, k or slope. */
static int choices_differ(const struct model_rate *a, const struct model_rate *b)
{
	int differ = a->naxes != b->naxes || a->k != b->k || a->slope_near != b->slope_near;

	for (int j = 0; j < a->naxes && !differ; j++)
		differ = a->axes[j].feature != b->axes[j].feature;
	return differ;
}

/* Asserts that model file path (in dir), a bagged rate, is refused with a rate of its bag
 * that has a bag of its own. */
static void bag_refused(const char *dir, const char *path)
{
	char *text = test_read_file(path), *bad;
	const char *at = strstr(text, "\"bag\": [");
	struct model back;
	struct error err = {""};

	ck_assert_ptr_nonnull(at);
	free(test_write_file(dir, "model.json", bad = xasprintf("%.*s{\"scale\": "
		"\"input:size(stdin)\", \"k\": 1, \"axes\": [], \"points\": [[]], \"log_rates\": "
		"[0], \"bag\": []}, %s", (int)(at - text) + 8, text, at + 8)));
	ck_assert_int_eq(model_read(&back, path, &err), -1);
	ck_assert_msg(strstr(err.msg, ": rate.bag[0] must be a rate object, without \"bag\" or "
			     "\"per_count\"") != NULL, "%s", err.msg);
	free(bad);
	free(text);
}

/* Returns how many times needle occurs in text. */
static int occurrences(const char *text, const char *needle)
{
	int n = 0;

	for (const char *at = text; (at = strstr(at, needle)) != NULL; at += strlen(needle))
		n++;
	return n;
}

/* Asserts that model file path (in dir), a bagged rate, writes its training inputs' log rates
 * once, and of the rates of its bag no coordinates of an axis that are those of one of the
 * owner's (the axis names its column there); a column that is not one of the owner's is
 * refused. */
static void bag_shares_points(const char *dir, const char *path)
{
	char *text = test_read_file(path), *bad, *at = strstr(text, "\"column\": ");
	struct model back;
	struct error err = {""};

	ck_assert_int_eq(occurrences(text, "\"log_rates\""), 1);
	ck_assert_int_lt(occurrences(text, "\"points\""), 1 + RATE_BAG);
	ck_assert_ptr_nonnull(at);
	free(test_write_file(dir, "model.json", bad = xasprintf("%.*s\"column\": 99%s",
		(int)(at - text), text, at + strcspn(at, ",}\n"))));
	ck_assert_int_eq(model_read(&back, path, &err), -1);
	ck_assert_msg(strstr(err.msg, "].column must be one of its owner's axes (in a bag's rate "
			     "only)") != NULL, "%s", err.msg);
	free(bad);
	free(text);
}

/* Where the time's noise is near the effect of a feature, which features and how many
 * neighbours the forward selection takes is itself noise: the bag's choices on bootstraps
 * differ, and the mean of theirs and the choice on every row errs less on new inputs than
 * that choice alone, on each of 5 draws of 60 training rows (by 3-36%, 16% in all). The model
 * file predicts the same, bit for bit, though it writes the training inputs once, and a bag
 * within the bag is refused; the instruction count, exact,
 * is not bagged. */
START_TEST(bag_averages_noisy_choices)
{
	char *dir = test_tmpdir(), *path = xasprintf("%s/model.json", dir);
	struct dataset train, test;
	struct model m, back;
	struct error err = {""};
	int rows[300];
	double bagged = 0, own = 0;

	for (int i = 0; i < 300; i++)
		rows[i] = i;
	for (unsigned long long seed = 1; seed <= 5; seed++) {
		int differ = 0, nbag;
		double b, o;

		weak_rows(&train, 60, seed);
		weak_rows(&test, 300, 100 + seed);
		learn_ok(&train, NULL, &m);
		ck_assert_int_eq(m.rate.nbag, RATE_BAG);
		for (int k = 0; k < m.rate.nbag; k++) {
			ck_assert_ptr_null(m.rate.bag[k].per_count);
			ck_assert_int_eq(m.rate.bag[k].npoints, 60);
			differ += choices_differ(&m.rate, &m.rate.bag[k]);
		}
		ck_assert_int_gt(differ, 0);
		b = fit_mre(&m, &test, rows, 300);
		nbag = m.rate.nbag;
		m.rate.nbag = 0;
		o = fit_mre(&m, &test, rows, 300);
		m.rate.nbag = nbag;
		ck_assert_msg(b < o, "seed %llu: bagged %g, the choice on every row %g", seed, b, o);
		bagged += b;
		own += o;
		m.algorithm = xstrdup("rate");
		m.fit = xstrdup("relative");
		ck_assert_msg(model_write(&m, path, &err) == 0, "%s", err.msg);
		ck_assert_msg(model_read(&back, path, &err) == 0, "%s", err.msg);
		ck_assert_int_eq(back.rate.nbag, RATE_BAG);
		ck_assert(fit_mre(&back, &test, rows, 300) == b);
		model_release(&back);
		if (seed == 1) {
			bag_shares_points(dir, path);
			ck_assert_msg(model_write(&m, path, &err) == 0, "%s", err.msg);
			bag_refused(dir, path);
		}
		model_release(&m);
		free(train.metric);
		train.metric = xstrdup("instructions");
		learn_ok(&train, NULL, &m);
		ck_assert_int_eq(m.rate.nbag, 0);
		model_release(&m);
		dataset_release(&train);
		dataset_release(&test);
	}
	ck_assert_msg(bagged < 0.9 * own, "bagged %g, the choice on every row %g", bagged / 5,
		      own / 5);
	free(path);
	free(dir);
}
END_TEST

/* A rate needs a positive metric, a positive feature to scale by and few enough features to
 * choose among; otherwise it says so. */
START_TEST(rate_refuses_clearly)
{
	struct dataset ds;
	struct model m;
	struct error err = {""};
	int rows[3] = {0, 1, 2}, usable[1] = {0}, many[RATE_MAX_COLUMNS + 1] = {0};

	memset(&ds, 0, sizeof ds);
	ds.n = 3;
	ds.p = 1;
	ds.names = xcalloc(1, sizeof *ds.names);
	ds.names[0] = xstrdup("a");
	ds.x = xcalloc(3, sizeof *ds.x);
	ds.y = xcalloc(3, sizeof *ds.y);
	ds.ids = xcalloc(3, sizeof *ds.ids);
	ds.metric = xstrdup("wall");
	for (int i = 0; i < 3; i++) {
		ds.x[i] = i; /* 0 on the first row: no scale */
		ds.y[i] = 1 + i;
		ds.ids[i] = xasprintf("r%d", i);
	}
	ck_assert_int_eq(rate_learn(&ds, rows, 3, NULL, usable, 1, 0, &m, &err), -1);
	ck_assert_str_eq(err.msg, "no feature is positive on every training sample: a rate needs a "
				  "size to scale");
	ck_assert_int_eq(rate_learn(&ds, rows, 3, NULL, many, RATE_MAX_COLUMNS + 1, 0, &m, &err), -1);
	ck_assert_str_eq(err.msg, "65 features vary: the rate weighs at most 64 (its forward "
				  "selection tries every pair), so leave some out");
	ds.y[1] = 0;
	ck_assert_int_eq(rate_learn(&ds, rows, 3, NULL, usable, 1, 0, &m, &err), -1);
	ck_assert_str_eq(err.msg, "wall is 0 on 'r1': a rate needs positive values");
	dataset_release(&ds);
}
END_TEST

Suite *suite_rate(void)
{
	Suite *s = suite_create("rate");
	TCase *tc = tcase_create("rate");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, nearest_counts_ties_and_skips);
	tcase_add_test(tc, slope_of_like_pairs);
	tcase_add_test(tc, slope_follows_a_rising_rate);
	tcase_add_test(tc, rate_recovers_a_table);
	tcase_add_test(tc, groups_keep_a_file_name_out);
	tcase_add_test(tc, rate_model_round_trip);
	tcase_add_test(tc, phase_finds_a_doubling_table);
	tcase_add_test(tc, time_goes_through_the_count);
	tcase_add_test(tc, polynomial_goes_through_the_count);
	tcase_add_test(tc, base_reads_a_missing_combination);
	tcase_add_test(tc, bag_averages_noisy_choices);
	tcase_add_test(tc, rate_refuses_clearly);
	suite_add_tcase(s, tc);
	return s;
}
