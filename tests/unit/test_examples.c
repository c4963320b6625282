/*
 * test_examples.c: every example program, run through the inputs parser and the runner on its
 * committed test/inputs.txt, prints exactly test/expected.out. This checks the examples' own
 * behaviour and, on real programs, the runner's path resolution, {tmp}, and output capture.
 *
 * Needs MANTIS_TOP (the source tree) and MANTIS_EXAMPLES (the folder of built examples), which
 * tests/run sets.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "inputs.h"
#include "runner.h"
#include "tests.h"
#include "util.h"

static char *names[64]; /* examples with a test/inputs.txt, sorted; owned for the process */
static int nnames;      /* number of names */

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Fills names from $MANTIS_TOP/examples. */
static void find_examples(void)
{
	const char *top = getenv("MANTIS_TOP");
	char *dir = xasprintf("%s/examples", top ? top : ".");
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)) && nnames < 64) {
		char *inputs = xasprintf("%s/%s/test/inputs.txt", dir, e->d_name);

		if (e->d_name[0] != '.' && access(inputs, R_OK) == 0)
			names[nnames++] = xstrdup(e->d_name);
		free(inputs);
	}
	if (d)
		closedir(d);
	free(dir);
	qsort(names, (size_t)nnames, sizeof *names, compare_names);
}

START_TEST(golden_output)
{
	const char *top = getenv("MANTIS_TOP"), *built = getenv("MANTIS_EXAMPLES");
	const char *name = names[_i];
	char *inputs_path, *expected_path, *program, *tmp = test_tmpdir(), *out_path;
	struct inputs ins;
	struct strbuf actual = {0};
	struct error err = {""};
	char *expected;

	ck_assert_msg(top && built, "MANTIS_TOP and MANTIS_EXAMPLES must be set (tests/run does)");
	inputs_path = xasprintf("%s/examples/%s/test/inputs.txt", top, name);
	expected_path = xasprintf("%s/examples/%s/test/expected.out", top, name);
	program = xasprintf("%s/%s/%s", built, name, name);
	out_path = xasprintf("%s/stdout", tmp);
	ck_assert_msg(inputs_load(&ins, inputs_path, &err) == 0, "%s", err.msg);
	ck_assert_int_gt(ins.n, 0);
	strbuf_add(&actual, "", 0);
	for (int i = 0; i < ins.n; i++) {
		struct run_options opt = {.timeout = 60, .stdout_path = out_path};
		struct run_result r;
		char *out;

		ck_assert_msg(runner_run(program, &ins.v[i], &opt, &r, &err) == 0, "%s", err.msg);
		ck_assert_msg(r.status == RUN_OK, "%s: %s:%d: %s (exit %d, signal %d)", name,
			      inputs_path, ins.v[i].line, runner_status_name(r.status), r.exit_code,
			      r.signal);
		out = test_read_file(out_path);
		strbuf_add(&actual, out, strlen(out));
		free(out);
	}
	expected = test_read_file(expected_path);
	ck_assert_msg(strcmp(actual.buf, expected) == 0, "%s: stdout differs from %s:\n%s", name,
		      expected_path, actual.buf);
	free(expected);
	strbuf_release(&actual);
	inputs_release(&ins);
	free(out_path);
	free(program);
	free(expected_path);
	free(inputs_path);
	free(tmp);
}
END_TEST

START_TEST(examples_are_present)
{
	ck_assert_msg(nnames == 8, "found %d examples with test/inputs.txt, expected 8", nnames);
}
END_TEST

Suite *suite_examples(void)
{
	Suite *s = suite_create("examples");
	TCase *tc = tcase_create("golden");

	find_examples();
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, examples_are_present);
	if (nnames > 0)
		tcase_add_loop_test(tc, golden_output, 0, nnames);
	suite_add_tcase(s, tc);
	return s;
}
