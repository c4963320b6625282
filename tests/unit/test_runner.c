/*
 * test_runner.c: the runner on small shell programs: exit statuses, signals, timeouts, the
 * scratch folder as cwd and {tmp}, stdin, output capture, CPU time and peak RSS, stray children,
 * the errors for what cannot be started, and remove_tree.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drift.h"
#include "error.h"
#include "inputs.h"
#include "runner.h"
#include "tests.h"
#include "util.h"

/* A hand-made input of the given words (NULL-terminated); not owned by anyone but the test. */
static struct input shell_input(char **words)
{
	struct input in = {1, "", 0, words, NULL};

	while (words[in.argc])
		in.argc++;
	return in;
}

/* Runs `sh -c script` with extra words; returns the result; stdout captured into *out if out. */
static struct run_result run_sh(const char *script, char **out, double timeout)
{
	char *dir = test_tmpdir();
	char *stdout_path = xasprintf("%s/stdout", dir);
	char *words[] = {"-c", (char *)script, "sh", "{tmp}", NULL};
	struct input in = shell_input(words);
	struct run_options opt = {.timeout = timeout, .stdout_path = stdout_path};
	struct run_result res;
	struct error err = {""};

	ck_assert_msg(runner_run("/bin/sh", &in, &opt, &res, &err) == 0, "%s", err.msg);
	if (out)
		*out = test_read_file(stdout_path);
	free(stdout_path);
	free(dir);
	return res;
}

START_TEST(exit_statuses)
{
	char *out;
	struct run_result r = run_sh("echo hello; exit 0", &out, 0);

	ck_assert_int_eq(r.status, RUN_OK);
	ck_assert_int_eq(r.exit_code, 0);
	ck_assert_str_eq(out, "hello\n");
	free(out);
	r = run_sh("exit 3", NULL, 0);
	ck_assert_int_eq(r.status, RUN_NONZERO);
	ck_assert_int_eq(r.exit_code, 3);
	ck_assert_str_eq(runner_status_name(r.status), "nonzero");
	r = run_sh("kill -SEGV $$", NULL, 0);
	ck_assert_int_eq(r.status, RUN_CRASH);
	ck_assert_int_eq(r.signal, SIGSEGV);
	ck_assert_int_eq(r.exit_code, -1);
}
END_TEST

/* --ok-exit: the codes set count as success, others still fail, and the set parses and prints
 * back; a word that is no code from 0 to 63 is an error naming it. */
START_TEST(ok_exits_are_success)
{
	struct error err = {""};
	uint64_t set;
	char *text;

	ck_assert_int_eq(runner_parse_exits("1,3", &set, &err), 0);
	ck_assert_uint_eq(set, 0xa);
	text = runner_format_exits(set);
	ck_assert_str_eq(text, "1,3");
	free(text);
	ck_assert_int_eq(runner_parse_exits("0", &set, &err), 0);
	ck_assert_uint_eq(set, 0);
	text = runner_format_exits(set);
	ck_assert_str_eq(text, "");
	free(text);
	ck_assert_int_eq(runner_parse_exits("1,64", &set, &err), -1);
	ck_assert_str_eq(err.msg, "'64' is not an exit code from 0 to 63");
	ck_assert_int_eq(runner_parse_exits("1,,2", &set, &err), 0); /* strtok: empty words */
	ck_assert_int_eq(runner_parse_exits("one", &set, &err), -1);
	ck_assert_int_eq(runner_parse_exits("", &set, &err), -1);
	runner_set_ok_exits(0xa);
	ck_assert_int_eq(run_sh("exit 1", NULL, 0).status, RUN_OK);
	ck_assert_int_eq(run_sh("exit 3", NULL, 0).exit_code, 3);
	ck_assert_int_eq(run_sh("exit 3", NULL, 0).status, RUN_OK);
	ck_assert_int_eq(run_sh("exit 2", NULL, 0).status, RUN_NONZERO);
	ck_assert_int_eq(run_sh("kill -SEGV $$", NULL, 0).status, RUN_CRASH);
	runner_set_ok_exits(0);
	ck_assert_int_eq(run_sh("exit 1", NULL, 0).status, RUN_NONZERO);
}
END_TEST

/* The options' NAME=VALUE strings replace the same names of mantis's environment or are
 * added; the rest of it passes unchanged, and mantis's own stays as it was. */
START_TEST(environment_replaced_and_added)
{
	char *dir = test_tmpdir(), *stdout_path = xasprintf("%s/stdout", dir), *out;
	char *words[] = {"-c", "echo \"$MANTIS_T1 $MANTIS_T2 $MANTIS_T3\"", NULL};
	char *env[] = {"MANTIS_T1=new", "MANTIS_T3=added", NULL};
	struct input in = shell_input(words);
	struct run_options opt = {.stdout_path = stdout_path, .env = env};
	struct run_result res;
	struct error err = {""};

	setenv("MANTIS_T1", "old", 1);
	setenv("MANTIS_T2", "kept", 1);
	unsetenv("MANTIS_T3");
	ck_assert_msg(runner_run("/bin/sh", &in, &opt, &res, &err) == 0, "%s", err.msg);
	out = test_read_file(stdout_path);
	ck_assert_str_eq(out, "new kept added\n");
	ck_assert_str_eq(getenv("MANTIS_T1"), "old");
	ck_assert_ptr_null(getenv("MANTIS_T3"));
	free(out);
	free(stdout_path);
	free(dir);
}
END_TEST

START_TEST(timeout_kills_the_process_group)
{
	char *out;
	struct run_result r = run_sh("sleep 30 & echo $!; sleep 30", &out, 0.3);
	pid_t straggler = (pid_t)atoi(out);
	char *stat_path = xasprintf("/proc/%d/stat", (int)straggler);
	char *stat;

	ck_assert_int_eq(r.status, RUN_TIMEOUT);
	ck_assert_int_eq(r.signal, SIGKILL);
	ck_assert(r.wall >= 0.3 && r.wall < 5);
	ck_assert_int_gt(straggler, 0);
	usleep(100000);
	if (access(stat_path, F_OK) == 0) {
		/* killed but maybe not yet reaped by init: then it is a zombie */
		stat = test_read_file(stat_path);
		ck_assert_msg(strstr(stat, ") Z ") != NULL, "child %d survived: %s", straggler, stat);
		free(stat);
	}
	free(stat_path);
	free(out);
}
END_TEST

START_TEST(children_die_with_a_normal_exit_too)
{
	char *out;
	struct run_result r = run_sh("sleep 30 & echo $!; exit 0", &out, 10);
	char *stat_path = xasprintf("/proc/%d/stat", atoi(out));

	ck_assert_int_eq(r.status, RUN_OK);
	ck_assert(r.wall < 5);
	usleep(100000);
	if (access(stat_path, F_OK) == 0) {
		char *stat = test_read_file(stat_path);

		ck_assert_msg(strstr(stat, ") Z ") != NULL, "child survived: %s", stat);
		free(stat);
	}
	free(stat_path);
	free(out);
}
END_TEST

START_TEST(scratch_is_cwd_and_tmp_and_is_removed)
{
	char *out, *second;
	struct run_result r = run_sh("pwd -P; echo \"$1\"; touch \"$1/made\"; ls", &out, 0);
	char *nl;

	ck_assert_int_eq(r.status, RUN_OK);
	nl = strchr(out, '\n');
	ck_assert_ptr_nonnull(nl);
	*nl = '\0';
	second = nl + 1;
	ck_assert_msg(strncmp(second, out, strlen(out)) == 0, "cwd %s, {tmp} %s", out, second);
	ck_assert_msg(strstr(out, "/mantis-run-") != NULL, "%s", out);
	ck_assert_msg(strstr(second, "\nmade\n") != NULL, "%s", second);
	ck_assert_int_eq(access(out, F_OK), -1);
	free(out);
}
END_TEST

START_TEST(keep_scratch_and_stdin)
{
	char *dir = test_tmpdir();
	char *in_path = test_write_file(dir, "in.txt", "abc");
	char *out_path = xasprintf("%s/out", dir);
	char *words[] = {"-c", "cat > copied; cat copied", NULL};
	struct input in = shell_input(words);
	struct run_options opt = {.stdout_path = out_path, .keep_scratch = 1};
	struct run_result r;
	struct error err = {""};
	char *out, *kept, *copied_path;

	in.stdin_path = in_path;
	ck_assert_msg(runner_run("sh", &in, &opt, &r, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(r.status, RUN_OK);
	out = test_read_file(out_path);
	ck_assert_str_eq(out, "abc");
	ck_assert_ptr_nonnull(r.scratch);
	copied_path = xasprintf("%s/copied", r.scratch);
	kept = test_read_file(copied_path);
	ck_assert_str_eq(kept, "abc");
	free(kept);
	free(copied_path);
	free(r.scratch);
	free(out);
	free(out_path);
	free(in_path);
	free(dir);
}
END_TEST

START_TEST(cpu_time_and_peak_rss)
{
	struct run_result r =
		run_sh("i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done", NULL, 0);
	char *words[] = {"-c", "b = bytearray(96 << 20); b[::4096] = b'x' * len(b[::4096])", NULL};
	struct input in = shell_input(words);
	struct run_options opt = {0};
	struct error err = {""};

	ck_assert_int_eq(r.status, RUN_OK);
	ck_assert_msg(r.user + r.sys >= 0.05, "user %g sys %g", r.user, r.sys);
	ck_assert_msg(r.wall >= 0.9 * (r.user + r.sys), "wall %g < cpu %g", r.wall, r.user + r.sys);
	ck_assert_msg(runner_run("/usr/bin/python3", &in, &opt, &r, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(r.status, RUN_OK);
	ck_assert_msg(r.maxrss_kb >= 96 * 1024, "maxrss %ld KiB", r.maxrss_kb);
}
END_TEST

START_TEST(what_cannot_start_is_an_error)
{
	char *words[] = {NULL};
	struct input in = shell_input(words);
	struct run_options opt = {0};
	struct run_result r;
	struct error err = {""};
	char *dir = test_tmpdir();
	char *script = test_write_file(dir, "script.sh", "exit 0\n");

	ck_assert_int_eq(runner_run("/nonexistent/prog", &in, &opt, &r, &err), -1);
	ck_assert_str_eq(err.msg, "cannot run /nonexistent/prog: No such file or directory");
	ck_assert_int_eq(runner_run("no-such-program-mantis", &in, &opt, &r, &err), -1);
	ck_assert_str_eq(err.msg, "cannot run no-such-program-mantis: No such file or directory");
	ck_assert_int_eq(runner_run(script, &in, &opt, &r, &err), -1);
	ck_assert_msg(strstr(err.msg, "script.sh: Permission denied") != NULL, "%s", err.msg);
	opt.stdout_path = "/nonexistent/out";
	ck_assert_int_eq(runner_run("/bin/true", &in, &opt, &r, &err), -1);
	ck_assert_str_eq(err.msg, "cannot open /nonexistent/out for stdout: No such file or directory");
	free(script);
	free(dir);
}
END_TEST

START_TEST(relative_program_path_survives_the_chdir)
{
	char *dir = test_tmpdir();
	char *script = test_write_file(dir, "prog.sh", "#!/bin/sh\nexit 7\n");
	char *words[] = {NULL};
	struct input in = shell_input(words);
	struct run_options opt = {0};
	struct run_result r;
	struct error err = {""};

	ck_assert_int_eq(chmod(script, 0755), 0);
	ck_assert_int_eq(chdir(dir), 0);
	ck_assert_msg(runner_run("./prog.sh", &in, &opt, &r, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(r.status, RUN_NONZERO);
	ck_assert_int_eq(r.exit_code, 7);
	free(script);
	free(dir);
}
END_TEST

/* A run's metric by name; the instruction count is not a run's. */
START_TEST(metric_of_a_run)
{
	struct run_result r = {.wall = 2.5, .user = 1.25, .sys = 0.5, .maxrss_kb = 4096};

	ck_assert_double_eq(runner_metric(&r, "wall"), 2.5);
	ck_assert_double_eq(runner_metric(&r, "cpu"), 1.75);
	ck_assert_double_eq(runner_metric(&r, "user"), 1.25);
	ck_assert_double_eq(runner_metric(&r, "sys"), 0.5);
	ck_assert_double_eq(runner_metric(&r, "maxrss"), 4096);
	ck_assert(isnan(runner_metric(&r, "instructions")));
}
END_TEST

/* drift's references: the values nearest the median of the usable ones by their ratio, nearest
 * first; zero and NaN never. The median of 5, 1, 3, 100, 2 is 3: then 2 (ratio 1.5) before 5
 * (1.67), and 1 (3) before 100 (33). */
START_TEST(drift_references_are_typical_runs)
{
	double v[] = {5, 1, 3, 100, 2, 0, NAN};
	int out[8];

	ck_assert_int_eq(drift_pick(v, 7, 3, out), 3);
	ck_assert_int_eq(out[0], 2);
	ck_assert_int_eq(out[1], 4);
	ck_assert_int_eq(out[2], 0);
	ck_assert_int_eq(drift_pick(v, 7, 8, out), 5);
	ck_assert_int_eq(out[3], 1);
	ck_assert_int_eq(out[4], 3);
	ck_assert_int_eq(drift_pick(v + 5, 2, 3, out), 0);
}
END_TEST

/* remove_tree, which removes every run's scratch folder and every sample: nested folders, a
 * folder of more entries than one read of it returns (deleted as they are read), a link whose
 * target outside stays, a lone file; a missing path is no error. */
START_TEST(remove_tree_removes_what_a_run_leaves)
{
	char *dir = test_tmpdir(), *tree = xasprintf("%s/tree", dir), *deep, *many, *outside;

	deep = xasprintf("%s/a/b/c", tree);
	many = xasprintf("%s/many", tree);
	ck_assert_int_eq(mkdir(tree, 0700), 0);
	for (char *slash = deep + strlen(tree) + 1; (slash = strchr(slash, '/')); *slash++ = '/') {
		*slash = '\0';
		ck_assert_int_eq(mkdir(deep, 0700), 0);
	}
	ck_assert_int_eq(mkdir(deep, 0700), 0);
	ck_assert_int_eq(mkdir(many, 0700), 0);
	free(test_write_file(deep, "f", "x"));
	for (int i = 0; i < 600; i++) {
		char name[64];

		snprintf(name, sizeof name, "a-file-whose-name-is-long-%04d", i);
		free(test_write_file(many, name, ""));
	}
	outside = test_write_file(dir, "outside", "kept");
	{
		char *link = xasprintf("%s/link", tree);

		ck_assert_int_eq(symlink(outside, link), 0);
		free(link);
	}
	remove_tree(tree);
	ck_assert_int_ne(access(tree, F_OK), 0);
	ck_assert_int_eq(access(outside, F_OK), 0);
	remove_tree(outside);
	ck_assert_int_ne(access(outside, F_OK), 0);
	remove_tree(tree); /* gone already */
	free(deep);
	free(many);
	free(outside);
	free(tree);
	remove_tree(dir);
	free(dir);
}
END_TEST

Suite *suite_runner(void)
{
	Suite *s = suite_create("runner");
	TCase *tc = tcase_create("run");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, exit_statuses);
	tcase_add_test(tc, ok_exits_are_success);
	tcase_add_test(tc, environment_replaced_and_added);
	tcase_add_test(tc, timeout_kills_the_process_group);
	tcase_add_test(tc, children_die_with_a_normal_exit_too);
	tcase_add_test(tc, scratch_is_cwd_and_tmp_and_is_removed);
	tcase_add_test(tc, keep_scratch_and_stdin);
	tcase_add_test(tc, cpu_time_and_peak_rss);
	tcase_add_test(tc, what_cannot_start_is_an_error);
	tcase_add_test(tc, relative_program_path_survives_the_chdir);
	tcase_add_test(tc, metric_of_a_run);
	tcase_add_test(tc, drift_references_are_typical_runs);
	tcase_add_test(tc, remove_tree_removes_what_a_run_leaves);
	suite_add_tcase(s, tc);
	return s;
}
