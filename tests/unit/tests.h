/*
 * tests.h: the unit-test suites (one per module) and helpers they share.
 * The suites use Check (libcheck): every test runs in a forked process, so a crash or a
 * timeout fails that test alone.
 */
#ifndef MANTIS_TESTS_H
#define MANTIS_TESTS_H

#include <check.h>

Suite *suite_inputs(void);
Suite *suite_runner(void);
Suite *suite_examples(void);
Suite *suite_learn(void);
Suite *suite_fit(void);
Suite *suite_instrument(void);
Suite *suite_budget(void);
Suite *suite_count(void);
Suite *suite_pta(void);
Suite *suite_slice(void);
Suite *suite_report(void);
Suite *suite_infer(void);
Suite *suite_explore(void);
Suite *suite_sampler(void);
Suite *suite_manifest(void);
Suite *suite_promote(void);
Suite *suite_fuse(void);
Suite *suite_rate(void);
Suite *suite_pace(void);
Suite *suite_field(void);
Suite *suite_solib(void);

/* Returns a fresh empty folder under $TMPDIR (or /tmp), owned by the caller; removed by tests/run. */
char *test_tmpdir(void);
/* Writes text to dir/name; returns the path, owned by the caller. */
char *test_write_file(const char *dir, const char *name, const char *text);
/* Returns a standard normal deviate from the seeded generator state *s (Box-Muller). */
double gauss_for_tests(unsigned long long *s);
/* Returns the whole content of path (NUL-terminated), owned by the caller; fails the test if unreadable. */
char *test_read_file(const char *path);

#endif
