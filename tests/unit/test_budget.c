/*
 * test_budget.c: fewer counters at no loss, and what the overhead budget leaves behind.
 *
 * Control-equivalent blocks share a counter (equiv.c): each program here is built twice, with
 * shared counters and with every block its own (SCHEME_SEPARATE_BLOCKS), and every feature
 * must have the same value in both, on runs that return and runs that exit from a callee. A
 * block counter the budget dropped reads 0 whatever ran: pruning must not take it as cold.
 * Needs MANTIS_TOP and MANTIS_RUNTIME (tests/run sets them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "error.h"
#include "inputs.h"
#include "instrument.h"
#include "ir.h"
#include "manifest.h"
#include "prune.h"
#include "runner.h"
#include "tests.h"
#include "util.h"

/* Blocks of the loop body (the body, the join after the if/else, the block after the inner
 * loop) run equally often; the inner loop's header, which they dominate and which post-dominates
 * them, does not. */
static const char *const joins_c =
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"	int n = argc > 1 ? atoi(argv[1]) : 0, s = 0;\n"
	"\n"
	"	for (int i = 0; i < n; i++) {\n"
	"		if (i % 3 == 0)\n"
	"			s += i;\n"
	"		else\n"
	"			s -= 1;\n"
	"		s ^= i;\n"
	"		for (int j = 0; j < i % 4; j++)\n"
	"			s += j;\n"
	"		if (s > 1000)\n"
	"			s = 0;\n"
	"		s += 2;\n"
	"	}\n"
	"	printf(\"%d\\n\", s);\n"
	"	return 0;\n"
	"}\n";

/* The same shape, but the body calls a function that may exit before the join: the body and
 * the join (the loop's latch) must keep counters of their own. */
static const char *const exits_c =
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"\n"
	"static int total;\n"
	"\n"
	"static void check(int v, int limit)\n"
	"{\n"
	"	if (v > limit)\n"
	"		exit(3);\n"
	"}\n"
	"\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"	int n = atoi(argv[1]), limit = atoi(argv[2]);\n"
	"\n"
	"	for (int i = 0; i < n; i++) {\n"
	"		check(total, limit);\n"
	"		if (i % 2)\n"
	"			total += i;\n"
	"		else\n"
	"			total += 1;\n"
	"		total++;\n"
	"	}\n"
	"	printf(\"%d\\n\", total);\n"
	"	return 0;\n"
	"}\n";

/* Writes source as dir/name and builds it into dir/out; fills *m; returns the build (owned). */
static char *build_source(const char *dir, const char *name, const char *source, const char *out,
			  unsigned schemes, struct manifest *m)
{
	const char *runtime = getenv("MANTIS_RUNTIME");
	char *path = test_write_file(dir, name, source), *src = xstrdup(name);
	char *build = xasprintf("%s/%s", dir, out);
	struct build_options opt = {&src, 1, NULL, NULL, 0, NULL, 0, "2", schemes, runtime, NULL, NULL};
	struct error err = {""};

	ck_assert_msg(runtime != NULL, "MANTIS_RUNTIME must be set (tests/run does)");
	ck_assert_int_eq(chdir(dir), 0); /* so names carry the file name, not a path */
	ck_assert_msg(build_instrumented(&opt, build, m, &err) == 0, "%s: %s", name, err.msg);
	free(path);
	free(src);
	return build;
}

/* Runs build/inst with words (split at blanks); checks its exit status; returns its counters. */
static uint64_t *run_inst(const char *build, const struct manifest *m, const char *words,
			  int want_status)
{
	char *tmp = test_tmpdir(), *inst = xasprintf("%s/inst", build);
	char *counters_path = xasprintf("%s/counters", tmp), *env[2] = {NULL, NULL};
	char *copy = xstrdup(words), *save = NULL, *argv[8] = {NULL};
	struct input in = {1, "", 0, argv, NULL};
	struct run_options o = {.timeout = 60};
	struct run_result r;
	struct error err = {""};
	uint64_t *counters;

	for (char *w = strtok_r(copy, " ", &save); w && in.argc < 7; w = strtok_r(NULL, " ", &save))
		argv[in.argc++] = w;
	env[0] = xasprintf("MANTIS_COUNTERS=%s", counters_path);
	o.env = env;
	ck_assert_msg(runner_run(inst, &in, &o, &r, &err) == 0, "%s", err.msg);
	ck_assert_msg(r.status != RUN_CRASH && r.exit_code == want_status, "%s %s: exit %d, expected %d",
		      inst, words, r.exit_code, want_status);
	ck_assert_msg(counters_read(m, counters_path, &counters, &err) == 0, "%s", err.msg);
	free(env[0]);
	free(copy);
	free(counters_path);
	free(inst);
	free(tmp);
	return counters;
}

/* Checks that every feature has the same value in both builds on the run; returns how many
 * features were compared. */
static int same_features(const struct manifest *a, const uint64_t *ca, const struct manifest *b,
			 const uint64_t *cb, const char *words)
{
	ck_assert_int_eq(a->n, b->n);
	for (int i = 0; i < a->n; i++) {
		ck_assert_str_eq(a->v[i].name, b->v[i].name);
		ck_assert_msg(feature_sum(&a->v[i], ca) == feature_sum(&b->v[i], cb),
			      "%s on '%s': shared counters %g, separate %g", a->v[i].name, words,
			      feature_value(&a->v[i], ca), feature_value(&b->v[i], cb));
	}
	return a->n;
}

/* Returns the value of the feature called name, failing if there is none. */
static double value_of(const struct manifest *m, const uint64_t *c, const char *name)
{
	int f = manifest_find(m, name);

	ck_assert_msg(f >= 0, "no feature %s", name);
	return feature_value(&m->v[f], c);
}

START_TEST(equivalent_blocks_share_a_counter_exactly)
{
	char *dir = test_tmpdir();
	struct manifest shared, separate;
	char *a = build_source(dir, "joins.c", joins_c, "shared", SCHEME_ALL, &shared);
	char *b = build_source(dir, "joins.c", joins_c, "separate", SCHEME_ALL | SCHEME_SEPARATE_BLOCKS,
			       &separate);
	const char *runs[] = {"0", "1", "10", "2000"};

	/* the body, the join after the if/else and the one after the second if: one counter */
	ck_assert_msg(shared.ncounters <= separate.ncounters - 2, "%d counters shared, %d separate",
		      shared.ncounters, separate.ncounters);
	for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
		uint64_t *ca = run_inst(a, &shared, runs[r], 0), *cb = run_inst(b, &separate, runs[r], 0);

		ck_assert_int_gt(same_features(&shared, ca, &separate, cb, runs[r]), 20);
		ck_assert_double_eq(value_of(&shared, ca, "loop:main:joins.c:8"), atof(runs[r]));
		free(ca);
		free(cb);
	}
	manifest_release(&shared);
	manifest_release(&separate);
	free(a);
	free(b);
	free(dir);
}
END_TEST

START_TEST(a_call_that_may_exit_keeps_counters_apart)
{
	char *dir = test_tmpdir();
	struct manifest shared, separate;
	char *a = build_source(dir, "exits.c", exits_c, "shared", SCHEME_ALL, &shared);
	char *b = build_source(dir, "exits.c", exits_c, "separate", SCHEME_ALL | SCHEME_SEPARATE_BLOCKS,
			       &separate);
	/* 10 iterations of at most 2 each: "10 5" exits in check at i = 3, after 3 iterations */
	const struct { const char *words; int status; double loop, odd; } runs[] = {
		{"10 5", 3, 3, 1}, {"10 1000", 0, 10, 5}, {"10 0", 3, 1, 0},
	};

	for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
		uint64_t *ca = run_inst(a, &shared, runs[r].words, runs[r].status);
		uint64_t *cb = run_inst(b, &separate, runs[r].words, runs[r].status);

		same_features(&shared, ca, &separate, cb, runs[r].words);
		ck_assert_double_eq(value_of(&shared, ca, "loop:main:exits.c:16"), runs[r].loop);
		ck_assert_double_eq(value_of(&shared, ca, "branch:main:exits.c:18:true"), runs[r].odd);
		ck_assert_double_eq(value_of(&shared, ca, "exit:check:exits.c:9:exit"), runs[r].status ? 1 : 0);
		free(ca);
		free(cb);
	}
	manifest_release(&shared);
	manifest_release(&separate);
	free(a);
	free(b);
	free(dir);
}
END_TEST

/* A branch from the entry (counter 0) to a (counter 1) or b (counter 2), as the slicing
 * instrumentation tags blocks. */
static const char *const tagged_ll =
	"define i32 @f(i1 %c) {\n"
	"entry:\n"
	"  %x = add i32 0, 0, !mantis.block !0\n"
	"  br i1 %c, label %a, label %b\n"
	"a:\n"
	"  %y = add i32 1, 0, !mantis.block !1\n"
	"  ret i32 %y\n"
	"b:\n"
	"  %z = add i32 2, 0, !mantis.block !2\n"
	"  ret i32 %z\n"
	"}\n"
	"!0 = !{i64 0}\n"
	"!1 = !{i64 1}\n"
	"!2 = !{i64 2}\n";

/* Returns how many branches prune_cold_edges cuts in tagged_ll for one run of counters c;
 * *emptied: whether it emptied f instead (entry counter 0). */
static int prune_f(const uint64_t *c, const int *dropped, int ndropped, int *emptied)
{
	char *dir = test_tmpdir(), *path = test_write_file(dir, "tagged.ll", tagged_ll);
	struct ir ir = {0};
	struct error err = {""};
	uint64_t run[3] = {c[0], c[1], c[2]}, *runs[1] = {run};
	int n;

	ck_assert_msg(ir_load(&ir, path, &err) == 0, "%s", err.msg);
	n = prune_cold_edges(ir.mod, runs, 1, 3, dropped, ndropped, emptied);
	if (*emptied) /* one block that returns zero */
		ck_assert_int_eq((int)LLVMCountBasicBlocks(LLVMGetNamedFunction(ir.mod, "f")), 1);
	ck_assert_msg(ir_verify(&ir, &err) == 0, "%s", err.msg);
	ir_release(&ir);
	free(path);
	free(dir);
	return n;
}

/* prune_f's cuts when f is not emptied, else -1. */
static int cuts(const uint64_t *c, const int *dropped, int ndropped)
{
	int emptied, n = prune_f(c, dropped, ndropped, &emptied);

	return emptied ? -1 : n;
}

START_TEST(a_dropped_block_counter_is_never_cold)
{
	const uint64_t ran_a_not_b[3] = {5, 5, 0}, counted_b_only[3] = {5, 0, 5};
	const int a = 1, b = 2;

	ck_assert_int_eq(cuts(ran_a_not_b, NULL, 0), 1);   /* b is cold: the branch goes to a */
	ck_assert_int_eq(cuts(ran_a_not_b, &b, 1), 0);     /* b's counter was dropped: unknown */
	ck_assert_int_eq(cuts(counted_b_only, NULL, 0), 1);
	ck_assert_int_eq(cuts(counted_b_only, &a, 1), 0);  /* a ran, its 0 says nothing */
}
END_TEST

START_TEST(a_function_no_run_entered_returns_at_once)
{
	const uint64_t never_called[3] = {0, 0, 0}, called[3] = {1, 1, 0};
	const int entry = 0;

	ck_assert_int_eq(cuts(never_called, NULL, 0), -1);   /* emptied */
	ck_assert_int_eq(cuts(never_called, &entry, 1), 0); /* its entry's 0 says nothing */
	ck_assert_int_eq(cuts(called, NULL, 0), 1);
}
END_TEST

Suite *suite_budget(void)
{
	Suite *s = suite_create("budget");
	TCase *tc = tcase_create("counters");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, equivalent_blocks_share_a_counter_exactly);
	tcase_add_test(tc, a_call_that_may_exit_keeps_counters_apart);
	tcase_add_test(tc, a_dropped_block_counter_is_never_cold);
	tcase_add_test(tc, a_function_no_run_entered_returns_at_once);
	suite_add_tcase(s, tc);
	return s;
}
