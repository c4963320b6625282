/*
 * test_examples.c: every example program, run through the inputs parser and the runner on its
 * committed test/inputs.txt, prints exactly test/expected.out. This checks the examples' own
 * behaviour and, on real programs, the runner's path resolution, {tmp}, and output capture.
 *
 * And every example, instrumented with all schemes, is transparent on those inputs: the
 * instrumented build prints the same, exits the same and writes the same files as the original.
 *
 * Needs MANTIS_TOP (the source tree), MANTIS_EXAMPLES (the folder of built examples) and
 * MANTIS_RUNTIME, which tests/run sets.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "error.h"
#include "instrument.h"
#include "manifest.h"
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

/* Runs program on in with a kept scratch folder; returns the result (scratch owned by it). */
static struct run_result run_kept(const char *program, const struct input *in, const char *out,
				  char *const *env)
{
	struct run_options opt = {.timeout = 60, .stdout_path = out, .keep_scratch = 1, .env = env};
	struct run_result r;
	struct error err = {""};

	ck_assert_msg(runner_run(program, in, &opt, &r, &err) == 0, "%s", err.msg);
	return r;
}

/* Returns whether the two folders hold the same files with the same bytes. */
static int same_tree(const char *a, const char *b)
{
	char *cmd = xasprintf("diff -r '%s' '%s' > /dev/null", a, b);
	int same = system(cmd) == 0;

	free(cmd);
	return same;
}

START_TEST(instrumented_build_is_transparent)
{
	const char *top = getenv("MANTIS_TOP"), *runtime = getenv("MANTIS_RUNTIME");
	const char *name = names[_i];
	char *dir = test_tmpdir(), *build = xasprintf("%s/build", dir), *src_dir, *inputs_path;
	char *orig = xasprintf("%s/orig", build), *inst = xasprintf("%s/inst", build);
	char *out_a = xasprintf("%s/a.out", dir), *out_b = xasprintf("%s/b.out", dir);
	char *env[2] = {xasprintf("MANTIS_COUNTERS=%s/counters", dir), NULL};
	char **sources = NULL, *ldflags[] = {"-lm"};
	int nsources = 0;
	struct build_options bo = {0};
	struct manifest m;
	struct inputs ins;
	struct error err = {""};
	DIR *d;
	struct dirent *e;

	ck_assert_msg(top && runtime, "MANTIS_TOP and MANTIS_RUNTIME must be set (tests/run does)");
	src_dir = xasprintf("%s/examples/%s", top, name);
	ck_assert_int_eq(chdir(src_dir), 0);
	d = opendir("src");
	while (d && (e = readdir(d))) {
		if (strlen(e->d_name) > 2 && strcmp(e->d_name + strlen(e->d_name) - 2, ".c") == 0) {
			sources = xrealloc(sources, sizeof *sources * (size_t)(nsources + 1));
			sources[nsources++] = xasprintf("src/%s", e->d_name);
		}
	}
	if (d)
		closedir(d);
	bo = (struct build_options){sources, nsources, NULL, NULL, 0, ldflags, 1, "2", SCHEME_ALL,
				    runtime, NULL, name};
	ck_assert_msg(build_instrumented(&bo, build, &m, &err) == 0, "%s: %s", name, err.msg);
	inputs_path = xasprintf("%s/test/inputs.txt", src_dir);
	ck_assert_msg(inputs_load(&ins, inputs_path, &err) == 0, "%s", err.msg);
	for (int i = 0; i < ins.n; i++) {
		struct run_result a = run_kept(orig, &ins.v[i], out_a, NULL);
		struct run_result b = run_kept(inst, &ins.v[i], out_b, env);
		char *sa = test_read_file(out_a), *sb = test_read_file(out_b);

		ck_assert_msg(a.status == b.status && a.exit_code == b.exit_code, "%s:%d: orig %s/%d, inst %s/%d",
			      name, ins.v[i].line, runner_status_name(a.status), a.exit_code,
			      runner_status_name(b.status), b.exit_code);
		ck_assert_msg(strcmp(sa, sb) == 0, "%s:%d: stdout differs", name, ins.v[i].line);
		ck_assert_msg(same_tree(a.scratch, b.scratch), "%s:%d: the files written differ", name,
			      ins.v[i].line);
		free(sa);
		free(sb);
		free(a.scratch);
		free(b.scratch);
	}
	for (int i = 0; i < nsources; i++)
		free(sources[i]);
	free(sources);
	inputs_release(&ins);
	manifest_release(&m);
	free(inputs_path);
	free(src_dir);
	free(env[0]);
	free(out_a);
	free(out_b);
	free(orig);
	free(inst);
	free(build);
	free(dir);
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
	if (nnames > 0) {
		tcase_add_loop_test(tc, golden_output, 0, nnames);
		tcase_add_loop_test(tc, instrumented_build_is_transparent, 0, nnames);
	}
	suite_add_tcase(s, tc);
	return s;
}
