/*
 * test_pace.c: dividing the machine's speed of the moment out of timing runs (src/pace.c).
 * Synthetic profiles in rounds, as mantis profile makes them (the first round in order, the
 * others shuffled): inputs of known times run on a machine whose speed wanders (it must be
 * divided out, and each input's time come back nearer its own than the raw median) or holds
 * still (the neighbours' noise must not be added: the runs are kept as measured).
 */
#include <math.h>
#include <stdlib.h>

#include "fit.h"
#include "pace.h"
#include "tests.h"
#include "util.h"

enum { INPUTS = 60, ROUNDS = 5, RUNS = INPUTS * ROUNDS };

/* Fills input[] and value[] with ROUNDS rounds over INPUTS inputs of time 0.1 (i + 1), the
 * rounds after the first shuffled: the machine's log speed wanders as an AR(1) process of
 * standard deviation wander and correlation 0.95 from one run to the next; each run's own
 * noise is normal of standard deviation 1%. */
static void profile_in_rounds(double wander, unsigned long long seed, int *input, double *value)
{
	double speed = 0;

	for (int r = 0; r < ROUNDS; r++) {
		int order[INPUTS];

		fit_shuffle(order, INPUTS, (unsigned long)r);
		for (int p = 0; p < INPUTS; p++)
			input[r * INPUTS + p] = r ? order[p] : p;
	}
	for (int k = 0; k < RUNS; k++) {
		speed = 0.95 * speed + wander * sqrt(1 - 0.95 * 0.95) * gauss_for_tests(&seed);
		value[k] = 0.1 * (input[k] + 1) * exp(speed) * (1 + 0.01 * gauss_for_tests(&seed));
	}
}

/* Returns the mean relative distance of times[i] from input i's time, the whole scaled by the
 * median ratio (a machine uniformly slower is no error here). */
static double time_error(const double *times)
{
	double ratio[INPUTS], scale, sum = 0;

	for (int i = 0; i < INPUTS; i++)
		ratio[i] = times[i] / (0.1 * (i + 1));
	scale = median(ratio, INPUTS);
	for (int i = 0; i < INPUTS; i++)
		sum += fabs(times[i] / (0.1 * (i + 1)) / scale - 1);
	return sum / INPUTS;
}

/* Fills raw[i] with the median of input i's runs. */
static void raw_medians(const int *input, const double *value, double *raw)
{
	for (int i = 0; i < INPUTS; i++) {
		double runs[ROUNDS];
		int n = 0;

		for (int k = 0; k < RUNS; k++) {
			if (input[k] == i)
				runs[n++] = value[k];
		}
		raw[i] = median(runs, n);
	}
}

START_TEST(wandering_speed_is_divided_out)
{
	int input[RUNS];
	double value[RUNS], out[RUNS], paced[INPUTS], raw[INPUTS];
	struct pace pc;

	profile_in_rounds(0.07, 1, input, value);
	raw_medians(input, value, raw);
	pace_divide(input, value, RUNS, INPUTS, out, paced, &pc);
	ck_assert_int_eq(pc.divided, 1);
	ck_assert_msg(pc.cv_paced < pc.cv_raw / 2, "cv %g -> %g", pc.cv_raw, pc.cv_paced);
	ck_assert_msg(time_error(paced) < 0.7 * time_error(raw), "times err %g raw, %g divided",
		      time_error(raw), time_error(paced));
}
END_TEST

START_TEST(quiet_machine_keeps_the_runs)
{
	int input[RUNS];
	double value[RUNS], out[RUNS], medians[INPUTS], raw[INPUTS];
	struct pace pc;

	profile_in_rounds(0, 1, input, value);
	raw_medians(input, value, raw);
	pace_divide(input, value, RUNS, INPUTS, out, medians, &pc);
	ck_assert_int_eq(pc.divided, 0);
	ck_assert_msg(pc.cv_paced > PACE_GAIN * pc.cv_raw, "cv %g -> %g", pc.cv_raw, pc.cv_paced);
	for (int k = 0; k < RUNS; k++)
		ck_assert(out[k] == value[k]);
	for (int i = 0; i < INPUTS; i++)
		ck_assert(medians[i] == raw[i]);
}
END_TEST

/* Ten inputs timed in order, then again at half the speed, with an eleventh input timed once in
 * the middle of the slow round. A lone run says nothing of the pace (it is its own median), but
 * it is divided by its neighbours': 10 s at the slow round's pace, 4/3 of the inputs' time
 * (the median of two runs, one at twice the other), is 7.5 s. */
START_TEST(lone_run_takes_its_neighbours_pace)
{
	int input[21];
	double value[21], out[21], medians[11];
	struct pace pc;

	for (int k = 0; k < 21; k++) {
		input[k] = k < 10 ? k : k < 15 ? k - 10 : k == 15 ? 10 : k - 11;
		value[k] = k < 10 ? k + 1 : k == 15 ? 10 : 2 * (input[k] + 1);
	}
	pace_divide(input, value, 21, 11, out, medians, &pc);
	ck_assert_int_eq(pc.divided, 1);
	ck_assert_double_eq_tol(pc.cv_raw, sqrt(0.5) / 1.5, 1e-12);
	ck_assert_double_eq_tol(out[15], 7.5, 1e-9);
	ck_assert_double_eq_tol(medians[10], 7.5, 1e-9);
	ck_assert_msg(pc.cv_paced < 0.02, "cv %g", pc.cv_paced);
}
END_TEST

/* One round: no input has two runs, so nothing tells the pace and the runs are kept. */
START_TEST(one_round_keeps_the_runs)
{
	int input[] = {0, 1, 2};
	double value[] = {1, 2, 3}, out[3], medians[3];
	struct pace pc;

	pace_divide(input, value, 3, 3, out, medians, &pc);
	ck_assert(isnan(pc.cv_raw) && !pc.divided);
	ck_assert(out[0] == 1 && out[1] == 2 && out[2] == 3 && medians[2] == 3);
}
END_TEST

Suite *suite_pace(void)
{
	Suite *s = suite_create("pace");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, wandering_speed_is_divided_out);
	tcase_add_test(tc, quiet_machine_keeps_the_runs);
	tcase_add_test(tc, lone_run_takes_its_neighbours_pace);
	tcase_add_test(tc, one_round_keeps_the_runs);
	suite_add_tcase(s, tc);
	return s;
}
