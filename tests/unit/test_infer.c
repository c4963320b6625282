/*
 * test_infer.c: the explore learners recover known functions and make the decisions their
 * algorithms prescribe: the knot MARS adds, the split CART picks and the tree it prunes to,
 * Kriging's exact interpolation (2-D, through MDS, and in n-D), GP's formula with a fixed seed,
 * SPORE's polynomial.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "infer.h"
#include "tests.h"
#include "util.h"

/* A data set built in a test. */
struct tdata {
	struct infer_data data;
	double x[4096], y[1024], lo[4], hi[4];
	char *names[4];
};

static void tdata_init(struct tdata *t, int d, double lo, double hi)
{
	static char *names[] = {"x", "y", "z", "w"};

	memset(t, 0, sizeof *t);
	t->data.d = d;
	t->data.x = t->x;
	t->data.y = t->y;
	t->data.lo = t->lo;
	t->data.hi = t->hi;
	t->data.names = t->names;
	for (int j = 0; j < d; j++) {
		t->lo[j] = lo;
		t->hi[j] = hi;
		t->names[j] = names[j];
	}
}

static void tdata_add(struct tdata *t, const double *x, double y)
{
	memcpy(t->x + t->data.n * t->data.d, x, sizeof *x * (size_t)t->data.d);
	t->y[t->data.n++] = y;
}

/* Fits learner name on t; returns the model (caller releases) and its formula in *formula. */
static struct infer fit(const char *name, const struct tdata *t, char **formula)
{
	struct infer inf;
	struct infer_options o = infer_options_default();
	struct error err = {""};
	struct strbuf sb = {0};

	ck_assert_int_eq(infer_fit(&inf, infer_find(name), &t->data, &o, &err), 0);
	inf.learner->format(inf.model, &sb);
	*formula = strbuf_detach(&sb);
	return inf;
}

START_TEST(table)
{
	ck_assert_ptr_eq(infer_find("mars"), &learner_mars);
	ck_assert_ptr_eq(infer_find("kriging-nd"), &learner_kriging_nd);
	ck_assert_ptr_null(infer_find("svm"));
	ck_assert_int_eq((int)(infer_learners()[5] == &learner_spore), 1);
}
END_TEST

/* y = 1 + max(0, x - 0.3) on a grid of 0.05: the first pair's knot is the true one, and the
 * backward pass keeps the one hinge that carries the kink. */
START_TEST(mars_hinge)
{
	struct tdata t;
	struct infer inf;
	char *f;

	tdata_init(&t, 1, 0, 1);
	for (int i = 0; i <= 20; i++) {
		double x = i * 0.05;

		tdata_add(&t, &x, 1 + fmax(0, x - 0.3));
	}
	inf = fit("mars", &t, &f);
	ck_assert_msg(strstr(f, "max(0, x - 0.3)") != NULL, "formula: %s", f);
	ck_assert_msg(strstr(f, "0.3 - x") == NULL, "formula keeps the useless half: %s", f);
	for (double x = 0.01; x < 1; x += 0.07)
		ck_assert_double_eq_tol(infer_predict(&inf, &x), 1 + fmax(0, x - 0.3), 1e-9);
	infer_release(&inf);
	free(f);
}
END_TEST

/* y = 2 + x * max(0, z - 0.5) over x, z: MARS needs the product of a hinge and a linear term
 * (degree 2) and finds the knot of z at 0.5 (z the second dimension, called y here). */
START_TEST(mars_interaction)
{
	struct tdata t;
	struct infer inf;
	char *f;

	tdata_init(&t, 2, 0, 1);
	for (int i = 0; i <= 10; i++) {
		for (int k = 0; k <= 10; k++) {
			double x[2] = {i / 10.0, k / 10.0};

			tdata_add(&t, x, 2 + x[0] * fmax(0, x[1] - 0.5));
		}
	}
	inf = fit("mars", &t, &f);
	ck_assert_msg(strstr(f, "max(0, y - 0.5)") != NULL, "formula: %s", f);
	for (int i = 0; i < 20; i++) {
		double x[2] = {0.03 + i * 0.047, 0.97 - i * 0.045};

		ck_assert_double_eq_tol(infer_predict(&inf, x), 2 + x[0] * fmax(0, x[1] - 0.5), 1e-6);
	}
	infer_release(&inf);
	free(f);
}
END_TEST

/* A step at x = 0.42 with an irrelevant second dimension: the split is on x at the midpoint of
 * the two values around the step, and pruning removes every split the noise would add. */
START_TEST(cart_step)
{
	struct tdata t;
	struct infer inf;
	unsigned long long s = 5;
	char *f;

	tdata_init(&t, 2, 0, 1);
	for (int i = 0; i < 40; i++) {
		double x[2] = {i / 40.0 + 0.0125, (i * 7 % 40) / 40.0};

		tdata_add(&t, x, (x[0] < 0.42 ? 10 : 30) + 0.01 * gauss_for_tests(&s));
	}
	inf = fit("cart", &t, &f);
	ck_assert_msg(strncmp(f, "if x <= 0.425:\n  ", 17) == 0, "tree:\n%s", f);
	ck_assert_msg(strstr(f, "\nelse x > 0.425:\n  ") != NULL, "tree:\n%s", f);
	ck_assert_msg(strstr(f, "if y") == NULL && strstr(f, "  if") == NULL, "not pruned:\n%s", f);
	ck_assert_double_eq_tol(infer_predict(&inf, (double[]){0.1, 0.5}), 10, 0.01);
	ck_assert_double_eq_tol(infer_predict(&inf, (double[]){0.9, 0.5}), 30, 0.01);
	infer_release(&inf);
	free(f);
}
END_TEST

/* Two steps: the first split is the one that cuts the squared error most (x <= 0.5 splits
 * 1|5 and 9 apart more than x <= 0.25), the second is under it. */
START_TEST(cart_greedy_order)
{
	struct tdata t;
	struct infer inf;
	char *f;

	tdata_init(&t, 1, 0, 1);
	for (int i = 0; i < 32; i++) {
		double x = (i + 0.5) / 32;

		tdata_add(&t, &x, x < 0.25 ? 1 : x < 0.5 ? 5 : 9);
	}
	inf = fit("cart", &t, &f);
	ck_assert_str_eq(f, "if x <= 0.5:\n  if x <= 0.25:\n    1\n  else x > 0.25:\n    5\nelse x > 0.5:\n  9");
	infer_release(&inf);
	free(f);
}
END_TEST

static double smooth(const double *x, int d)
{
	double v = 2 + sin(3 * x[0]);

	for (int j = 1; j < d; j++)
		v += x[j] * x[j] / j;
	return v;
}

/* Kriging interpolates its training points exactly and predicts a smooth function between
 * them: 2-D directly, 3-D through classical MDS, 3-D in n-D form. */
static void kriging_case(const char *name, int d, double tol_mre)
{
	struct tdata t;
	struct infer inf;
	unsigned long long s = 11;
	double mre = 0;
	char *f;

	tdata_init(&t, d, 0, 1);
	for (int i = 0; i < 60; i++) {
		double x[4];

		for (int j = 0; j < d; j++)
			x[j] = fabs(gauss_for_tests(&s)) / 3 - floor(fabs(gauss_for_tests(&s)) / 3);
		tdata_add(&t, x, smooth(x, d));
	}
	inf = fit(name, &t, &f);
	for (int i = 0; i < t.data.n; i++)
		ck_assert_msg(fabs(infer_predict(&inf, t.x + i * d) - t.y[i]) < 1e-7 * t.y[i], "%s at point %d: %.12g, not %.12g",
			      name, i, infer_predict(&inf, t.x + i * d), t.y[i]);
	for (int i = 0; i < 200; i++) {
		double x[4];

		for (int j = 0; j < d; j++)
			x[j] = 0.1 + 0.8 * ((i * (j + 3) * 37) % 200) / 200.0;
		mre += fabs(infer_predict(&inf, x) - smooth(x, d)) / smooth(x, d) / 200;
	}
	ck_assert_msg(mre < tol_mre, "%s: mean relative error %g between the points (%s)", name, mre, f);
	infer_release(&inf);
	free(f);
}

START_TEST(kriging_exact_2d)
{
	kriging_case("kriging", 2, 0.04);
}
END_TEST

START_TEST(kriging_mds_3d)
{
	char *f;
	struct tdata t;
	struct infer inf;

	kriging_case("kriging", 3, 0.15);
	tdata_init(&t, 3, 0, 1);
	for (int i = 0; i < 8; i++)
		tdata_add(&t, (double[]){i & 1, i >> 1 & 1, i >> 2 & 1}, 1 + i);
	inf = fit("kriging", &t, &f);
	ck_assert_msg(strstr(f, "(classical MDS to 2-D)") != NULL, "%s", f);
	infer_release(&inf);
	free(f);
}
END_TEST

START_TEST(kriging_nd)
{
	kriging_case("kriging-nd", 3, 0.01);
}
END_TEST

/* y depends on x only: the n-D variant gives the irrelevant dimension the longest scale. */
START_TEST(kriging_nd_scales)
{
	struct tdata t;
	struct infer inf;
	char *f;

	tdata_init(&t, 2, 0, 1);
	for (int i = 0; i < 7; i++) {
		for (int k = 0; k < 7; k++) {
			double x[2] = {i / 6.0, k / 6.0};

			tdata_add(&t, x, 2 + sin(4 * x[0]));
		}
	}
	inf = fit("kriging-nd", &t, &f);
	ck_assert_msg(strstr(f, "theta: x 0.") != NULL && strstr(f, " y 6") != NULL, "%s", f);
	infer_release(&inf);
	free(f);
}
END_TEST

/* GP with the default seed finds x*x + y on a 4x4 grid: every prediction within 1e-6. */
START_TEST(gp_formula)
{
	struct tdata t;
	struct infer inf;
	char *f;

	tdata_init(&t, 2, 1, 4);
	for (int i = 1; i <= 4; i++) {
		for (int k = 1; k <= 4; k++)
			tdata_add(&t, (double[]){i, k}, i * i + k);
	}
	inf = fit("gp", &t, &f);
	for (double x = 0.5; x < 6; x += 0.7) {
		for (double y = 0.5; y < 6; y += 1.1)
			ck_assert_msg(fabs(infer_predict(&inf, (double[]){x, y}) - (x * x + y)) < 1e-6,
				      "at (%g, %g): %s", x, y, f);
	}
	infer_release(&inf);
	free(f);
}
END_TEST

/* Same data and seed, same formula. */
START_TEST(gp_reproducible)
{
	struct tdata t;
	struct infer a, b;
	char *fa, *fb;

	tdata_init(&t, 1, 1, 30);
	for (int i = 1; i <= 30; i++)
		tdata_add(&t, (double[]){i}, 3 + i * log(i));
	a = fit("gp", &t, &fa);
	b = fit("gp", &t, &fb);
	ck_assert_str_eq(fa, fb);
	infer_release(&a);
	infer_release(&b);
	free(fa);
	free(fb);
}
END_TEST

/* SPORE finds 2 + 3 x^2 y exactly; with two points it is the mean. */
START_TEST(spore_polynomial)
{
	struct tdata t;
	struct infer inf;
	char *f;

	tdata_init(&t, 2, 1, 10);
	for (int i = 1; i <= 10; i++) {
		for (int k = 1; k <= 3; k++)
			tdata_add(&t, (double[]){i, k}, 2 + 3.0 * i * i * k);
	}
	inf = fit("spore", &t, &f);
	ck_assert_msg(strstr(f, "x^2 * y") != NULL, "%s", f);
	ck_assert_double_eq_tol(infer_predict(&inf, (double[]){7, 2}), 2 + 3 * 49 * 2, 1e-6);
	infer_release(&inf);
	free(f);
	tdata_init(&t, 1, 0, 1);
	tdata_add(&t, (double[]){0}, 4);
	tdata_add(&t, (double[]){1}, 6);
	inf = fit("spore", &t, &f);
	ck_assert_str_eq(f, "5");
	infer_release(&inf);
	free(f);
}
END_TEST

/* With log set, a learner fits log y: MARS finds y = 10^(x/10) (over 3 orders of magnitude)
 * as one linear term of log y, and the printed function says so. */
START_TEST(log_response)
{
	struct tdata t;
	struct infer inf;
	struct infer_options o = infer_options_default();
	struct error err = {""};
	struct strbuf sb = {0};

	tdata_init(&t, 1, 0, 30);
	for (int i = 0; i <= 30; i++)
		tdata_add(&t, (double[]){i}, pow(10, i / 10.0));
	o.log = 1;
	ck_assert_int_eq(infer_fit(&inf, &learner_mars, &t.data, &o, &err), 0);
	ck_assert_int_eq(inf.log, 1);
	infer_format(&inf, &sb);
	ck_assert_msg(strncmp(sb.buf, "exp of:\n", 8) == 0, "%s", sb.buf);
	ck_assert_double_eq_tol(infer_predict(&inf, (double[]){25.5}), pow(10, 2.55), 1e-9 * pow(10, 2.55));
	infer_release(&inf);
	strbuf_release(&sb);
	t.y[3] = -1; /* not every y positive: fitted as it is */
	ck_assert_int_eq(infer_fit(&inf, &learner_mars, &t.data, &o, &err), 0);
	ck_assert_int_eq(inf.log, 0);
	infer_release(&inf);
}
END_TEST

Suite *suite_infer(void)
{
	Suite *s = suite_create("infer");
	TCase *tc = tcase_create("learners");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, table);
	tcase_add_test(tc, mars_hinge);
	tcase_add_test(tc, mars_interaction);
	tcase_add_test(tc, cart_step);
	tcase_add_test(tc, cart_greedy_order);
	tcase_add_test(tc, kriging_exact_2d);
	tcase_add_test(tc, kriging_mds_3d);
	tcase_add_test(tc, kriging_nd);
	tcase_add_test(tc, kriging_nd_scales);
	tcase_add_test(tc, gp_formula);
	tcase_add_test(tc, gp_reproducible);
	tcase_add_test(tc, spore_polynomial);
	tcase_add_test(tc, log_response);
	suite_add_tcase(s, tc);
	return s;
}
