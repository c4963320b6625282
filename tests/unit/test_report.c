/*
 * test_report.c: the report's pieces that are not layout: HTML escaping, and the learning curve
 * (refits on the first k rows, measured on a test set) with its sizes, exact recoveries and
 * failures.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "error.h"
#include "fit.h"
#include "model.h"
#include "prep.h"
#include "report.h"
#include "tests.h"
#include "util.h"

START_TEST(escape_every_special_character)
{
	struct strbuf sb = {0};

	report_escape(&sb, "<a href=\"x\">Tom & Jerry's</a>");
	ck_assert_str_eq(sb.buf, "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
	strbuf_release(&sb);
}
END_TEST

/* Makes ds: one feature "x" with values x[0..n), y = 2 + 3 x. */
static void linear(struct dataset *ds, const double *x, int n)
{
	memset(ds, 0, sizeof *ds);
	ds->n = n;
	ds->p = 1;
	ds->names = xcalloc(1, sizeof *ds->names);
	ds->names[0] = xstrdup("x");
	ds->x = xcalloc((size_t)n, sizeof *ds->x);
	ds->y = xcalloc((size_t)n, sizeof *ds->y);
	ds->ids = xcalloc((size_t)n, sizeof *ds->ids);
	ds->metric = xstrdup("wall");
	for (int i = 0; i < n; i++) {
		ds->x[i] = x[i];
		ds->y[i] = 2 + 3 * x[i];
		ds->ids[i] = xasprintf("row %d", i + 1);
	}
}

/* Fits the "final" model on all of ds with the defaults (spore-foba, degree 3, relative). */
static void fit_all(const struct dataset *ds, struct model *m)
{
	struct fit_options fo = fit_options_default();
	struct error err = {""};
	struct prep pr;

	fo.train_frac = 1;
	ck_assert_msg(fit_model(ds, &fo, m, &pr, &err) == 0, "%s", err.msg);
	prep_release(&pr);
}

START_TEST(curve_sizes_double_up_to_all_and_recover_an_exact_model)
{
	double x[40], t[5] = {50, 51, 52, 53, 54};
	struct dataset pool, test;
	struct model final;
	struct curve c;
	struct error err = {""};
	int want[] = {5, 10, 20, 40};

	for (int i = 0; i < 40; i++)
		x[i] = 1 + (i * 7) % 40; /* 1..40, not in order */
	linear(&pool, x, 40);
	linear(&test, t, 5);
	fit_all(&pool, &final);
	ck_assert_msg(report_curve(&final, &pool, &test, &c, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(c.n, 4);
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(c.v[i].k, want[i]);
		ck_assert_ptr_null(c.v[i].failure);
		ck_assert_msg(c.v[i].mre < 1e-9, "k = %d: MRE %g", c.v[i].k, c.v[i].mre);
	}
	curve_release(&c);
	model_release(&final);
	dataset_release(&pool);
	dataset_release(&test);
}
END_TEST

START_TEST(curve_records_a_failed_fit_and_goes_on)
{
	double x[12] = {7, 7, 7, 7, 7, 3, 9, 1, 12, 5, 8, 2}, t[2] = {20, 30};
	struct dataset pool, test;
	struct model final;
	struct curve c;
	struct error err = {""};

	linear(&pool, x, 12);
	linear(&test, t, 2);
	fit_all(&pool, &final);
	ck_assert_msg(report_curve(&final, &pool, &test, &c, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(c.n, 3);
	ck_assert_int_eq(c.v[0].k, 5);
	ck_assert(isnan(c.v[0].mre));
	ck_assert_str_eq(c.v[0].failure,
			 "all 1 features are constant on the 5 training samples: nothing to model");
	ck_assert_int_eq(c.v[1].k, 10);
	ck_assert_int_eq(c.v[2].k, 12);
	ck_assert(c.v[1].mre < 1e-9 && c.v[2].mre < 1e-9);
	curve_release(&c);
	model_release(&final);
	dataset_release(&pool);
	dataset_release(&test);
}
END_TEST

START_TEST(curve_refuses_a_constant_model)
{
	double x[6] = {1, 2, 3, 4, 5, 6};
	struct model constant = {.algorithm = "constant", .metric = "wall", .intercept = 1};
	struct dataset pool;
	struct curve c;
	struct error err = {""};

	linear(&pool, x, 6);
	ck_assert_int_eq(report_curve(&constant, &pool, &pool, &c, &err), -1);
	ck_assert_str_eq(err.msg, "the model is a constant (algorithm constant): there is nothing "
				  "to refit");
	ck_assert_int_eq(c.n, 0);
	dataset_release(&pool);
}
END_TEST

Suite *suite_report(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("report");

	tcase_add_test(tc, escape_every_special_character);
	tcase_add_test(tc, curve_sizes_double_up_to_all_and_recover_an_exact_model);
	tcase_add_test(tc, curve_records_a_failed_fit_and_goes_on);
	tcase_add_test(tc, curve_refuses_a_constant_model);
	suite_add_tcase(s, tc);
	return s;
}
